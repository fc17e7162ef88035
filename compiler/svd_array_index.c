/*
 * svd_array_index - the values of a dimArrayIndex must name indices of the array, once each:
 * svdconv's SvdRegister::CheckEnumeratedValues, SvdCluster::CheckEnumeratedValues and
 * SvdPeripheral::CheckEnumeratedValues invalidate a value at or past the array's <dim> (M230)
 * and, through their AddToMap, a name already given (M337). regc drops them so and warns; the
 * warnings are errors under --strict.
 */
#include "svd_array_index.h"

#include <inttypes.h>
#include <string.h>

static const struct model_value *given(struct model_value *const *values, size_t n,
                                       const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(values[i]->name, name) == 0)
            return values[i];
    return NULL;
}

static bool in_range(struct diag *dg, const struct model_value *v, uint64_t dim, const char *what)
{
    if (v->value < dim)
        return true;
    diag_report(dg, DIAG_SVD_ARRAY_INDEX, v->pos,
                "index name '%s' (value %" PRIu64 ") of %s is no index of its %" PRIu64
                " elements: dropped",
                v->name, v->value, what, dim);
    return false;
}

struct model_array_index *svd_array_index_check(struct arena *a, struct diag *dg,
                                                const struct model_array_index *ix, uint64_t dim,
                                                const char *what)
{
    struct model_value **kept = arena_alloc(a, (ix->nvalues + 1) * sizeof(*kept));
    size_t n = 0;
    for (size_t i = 0; i < ix->nvalues; i++) {
        struct model_value *v = ix->values[i];
        if (!in_range(dg, v, dim, what))
            continue;
        const struct model_value *first = given(kept, n, v->name);
        if (first) {
            diag_report(dg, DIAG_SVD_DUPLICATE, v->pos,
                        "index name '%s' of %s is given twice: the later one (value %" PRIu64
                        ") is dropped",
                        v->name, what, v->value);
            diag_note(dg, first->pos, "'%s' first given here (value %" PRIu64 ")", first->name,
                      first->value);
            continue;
        }
        kept[n++] = v;
    }
    if (n == ix->nvalues)
        return NULL;
    struct model_array_index *x = arena_alloc(a, sizeof(*x));
    *x = *ix;
    x->values = kept;
    x->nvalues = n;
    return x;
}
