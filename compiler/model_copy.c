/*
 * model_copy - a derived object's copies of its base's content (model_copy.h).
 */
#include "model_copy.h"

#include "model_mmio.h"

/* A copy of 'v'; of usage 'u' when 'set_usage' (a value copied into a set of another usage). */
static struct model_value *copy_value(struct arena *a, const struct model_value *v, bool set_usage,
                                      enum model_usage u)
{
    struct model_value *c = arena_alloc(a, sizeof(*c));
    *c = *v;
    if (v->ext || (set_usage && u != USAGE_ANY)) { /* its own: a default's usage may change */
        c->ext = NULL;
        struct model_value_ext *x = model_value_ext_set(a, c);
        *x = *model_value_ext(v);
        if (set_usage)
            x->usage = u;
    }
    return c;
}

/* A new array of copies of the 'n' values 'v'. */
static struct model_value **copy_values(struct arena *a, struct model_value *const *v, size_t n)
{
    struct model_value **c = n ? arena_alloc(a, n * sizeof(*c)) : NULL;
    for (size_t i = 0; i < n; i++)
        c[i] = copy_value(a, v[i], false, USAGE_ANY);
    return c;
}

/* A copy of set 's': without its header-enum-name, and not yet linked to a base of its own
 * (model_link_enum_bases links it from where the copy is). */
static struct model_enum_set *copy_set(struct arena *a, const struct model_enum_set *s)
{
    struct model_enum_set *c = arena_alloc(a, sizeof(*c));
    *c = *s;
    c->header_enum = NULL;
    c->base = NULL;
    c->base_field = NULL;
    c->is_base = false;
    return c;
}

/* x (a copy of from's SVD additions) given copies of from's sets and default values. */
static void copy_sets_and_defaults(struct arena *a, struct model_field_ext *x,
                                   const struct model_field_ext *from)
{
    x->sets = from->nsets ? arena_alloc(a, from->nsets * sizeof(*x->sets)) : NULL;
    for (size_t i = 0; i < from->nsets; i++)
        x->sets[i] = copy_set(a, from->sets[i]);
    x->nsets = from->nsets;
    x->defaults = copy_values(a, from->defaults, from->ndefaults);
    x->ndefaults = from->ndefaults;
}

/* A copy of field 'f' in register 'to'. */
static struct model_field *copy_field(struct arena *a, const struct model_field *f,
                                      struct model_reg *to)
{
    struct model_field *c = arena_alloc(a, sizeof(*c));
    *c = *f;
    c->reg = to;
    c->values = copy_values(a, f->values, f->nvalues);
    if (f->ext) {
        c->ext = arena_alloc(a, sizeof(*c->ext));
        *c->ext = *f->ext;
        copy_sets_and_defaults(a, c->ext, f->ext);
        if (c->ext->whole) /* the one field of a register without fields: named after it */
            c->name = model_reg_name_in_cluster(to);
    }
    return c;
}

void model_copy_fields(struct arena *a, struct model_reg *to, const struct model_reg *from)
{
    size_t n = from->nfields;
    to->fields = n ? arena_alloc(a, n * sizeof(*to->fields)) : NULL;
    for (size_t i = 0; i < n; i++)
        to->fields[i] = copy_field(a, from->fields[i], to);
    to->nfields = n;
}

void model_copy_values(struct arena *a, struct model_field *to, const struct model_field *from)
{
    to->values = copy_values(a, from->values, from->nvalues);
    to->nvalues = from->nvalues;
    const struct model_field_ext *fx = model_field_ext(from);
    struct model_field_ext *x = model_field_ext_set(a, to);
    copy_sets_and_defaults(a, x, fx);
    if (!x->enum_name) /* an SVD reader names the enumeration of a copied set as its base's */
        x->enum_name = fx->enum_name;
    x->values_from = x->derived_pos;
}

void model_copy_set_values(struct arena *a, struct model_field *to, const struct model_enum_set *s,
                           const struct model_field *from, const struct model_enum_set *bs)
{
    struct model_enum_sets fs;
    model_field_sets(from, &fs);
    size_t cap = arena_push_cap(to->nvalues);
    for (size_t i = 0; i < from->nvalues; i++)
        if (model_value_in_set(from->values[i], bs->usage, fs.sets, fs.n))
            arena_push(a, (void ***)&to->values, &to->nvalues, &cap,
                       copy_value(a, from->values[i], true, s->usage));
    const struct model_value *d = model_set_default(from, bs->usage, fs.sets, fs.n);
    if (d)
        model_field_add_default(a, to, copy_value(a, d, true, s->usage));
    model_field_ext_set(a, to)->values_from = s->derived_pos;
}
