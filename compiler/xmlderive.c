/*
 * xmlderive - the bases derived-from= names in a regspec's memory-mapped forms
 * (docs/regspec.md, "Memory-mapped devices"): each must exist and a chain of
 * them must end, reported with the SVD reader's diagnostic (svd-derived).
 * A name is looked up as the SVD reader looks up derivedFrom (derive.h), on
 * the model seen as SVD's tree, as -t svd writes it (model_tree.h), an <enum-set>'s too.
 * Derivation is recorded, not applied: the element holds its whole
 * content. A cluster marked own-type="false" (svdconv's unmodified copy) takes its base's
 * CMSIS type here. Called by xmlmmio.c once the spec is loaded; see xmlload_int.h.
 */
#include "xmlload_int.h"

#include "derive.h"
#include "fatal.h"
#include "map.h"
#include "model_mmio.h"
#include "model_tree.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- derived objects */

/* What 'n' derives from as written, and where that is; NULL when it derives from nothing. */
static const char *derived_of(struct derive_ref n, struct srcpos *pos)
{
    if (model_tree_is_block(n))
        return NULL;
    switch (n.kind) {
    case DERIVE_PERIPH:
        *pos = ((const struct model_instance *)n.obj)->derived_pos;
        return ((const struct model_instance *)n.obj)->derived_from;
    case DERIVE_CLUSTER:
        *pos = ((const struct model_cluster *)n.obj)->derived_pos;
        return ((const struct model_cluster *)n.obj)->derived_from;
    case DERIVE_REG:
        *pos = model_reg_ext(n.obj)->derived_pos;
        return model_reg_ext(n.obj)->derived_from;
    case DERIVE_FIELD:
        *pos = model_field_ext(n.obj)->derived_pos;
        return model_field_ext(n.obj)->derived_from;
    case DERIVE_ENUMS:
        *pos = ((const struct model_enum_set *)n.obj)->derived_pos;
        return ((const struct model_enum_set *)n.obj)->derived_from;
    default:
        return NULL;
    }
}

/* Where node 'n' is written. */
static struct srcpos pos_of(struct derive_ref n)
{
    switch (n.kind) {
    case DERIVE_PERIPH:
        return model_tree_is_block(n) ? ((const struct model_block *)n.obj)->pos
                                      : ((const struct model_instance *)n.obj)->pos;
    case DERIVE_CLUSTER:
        return ((const struct model_cluster *)n.obj)->pos;
    case DERIVE_REG:
        return ((const struct model_reg *)n.obj)->pos;
    case DERIVE_FIELD:
        return ((const struct model_field *)n.obj)->pos;
    case DERIVE_ENUMS:
        return ((const struct model_enum_set *)n.obj)->pos;
    default:
        return (struct srcpos){0, 0, 0};
    }
}

static const char *kind_word(struct derive_ref n)
{
    switch (n.kind) {
    case DERIVE_PERIPH:
        return model_tree_is_block(n) ? "block" : "instance";
    case DERIVE_CLUSTER:
        return "cluster";
    case DERIVE_REG:
        return "register";
    case DERIVE_ENUMS:
        return "enum-set";
    default:
        return "field";
    }
}

/* A derived object and its base, looked up once however many chains go through it. */
struct derived {
    struct derive_ref n, base;
    bool done; /* base looked up */
};

/* The check's state: the spec as a tree, and every derived object, found by its address. */
struct derive_check {
    struct diag *dg;
    struct derive_tree t;
    struct derived *all; /* xmalloc'd */
    size_t n, cap;
    struct regc_map by_obj; /* key: all[i].n.obj's bytes (the address); val: &all[i] */
};

/* The node n's derived-from= names (an instance's: an instance); DERIVE_NONE when none. */
static struct derive_ref base_of(struct derive_check *c, struct derive_ref n)
{
    struct regc_map_entry *e = regc_map_find(&c->by_obj, &n.obj, sizeof(n.obj));
    if (!e)
        return model_tree_ref(DERIVE_NONE, NULL, NULL);
    struct derived *d = e->val;
    if (!d->done) {
        struct srcpos pos;
        struct derive_ref b = derive_find_base(&c->t, n, derived_of(n, &pos));
        d->base = model_tree_is_block(b) ? model_tree_ref(DERIVE_NONE, NULL, NULL) : b;
        d->done = true;
    }
    return d->base;
}

/* Does the chain of bases from 'n' come back on itself somewhere (Floyd's two walkers)? */
static bool chain_loops(struct derive_check *c, struct derive_ref n)
{
    struct derive_ref slow = n, fast = n;
    for (;;) {
        fast = base_of(c, fast);
        if (fast.kind != DERIVE_NONE)
            fast = base_of(c, fast);
        slow = base_of(c, slow);
        if (fast.kind == DERIVE_NONE)
            return false;
        if (derive_same(fast, slow))
            return true;
    }
}

/* ---------------------------------------------------------------- the checks */

/* "register 'CH_CFG'": a derived object as other diagnostics name it (its name in the model). */
static void name_of_node(struct derive_ref n, struct buf *out)
{
    if (n.kind == DERIVE_ENUMS) { /* a set may have no name: its field's says where it is */
        const char *set = ((const struct model_enum_set *)n.obj)->name;
        const char *field = ((const struct model_field *)n.ctx)->name;
        if (set)
            buf_addf(out, "enum-set '%s' of field '%s'", set, field);
        else
            buf_addf(out, "enum-set of field '%s'", field);
        return;
    }
    const char *name = n.kind == DERIVE_REG       ? ((const struct model_reg *)n.obj)->name
                       : n.kind == DERIVE_FIELD   ? ((const struct model_field *)n.obj)->name
                       : n.kind == DERIVE_CLUSTER ? ((const struct model_cluster *)n.obj)->name
                                                  : ((const struct model_instance *)n.obj)->name;
    buf_addf(out, "%s '%s'", kind_word(n), name);
}

/* A dotted name that leads nowhere: where a node of its last part's name is, if one is. */
static void note_elsewhere(struct derive_check *c, struct derive_ref n, const char *name)
{
    const struct derive_tree *t = &c->t;
    if (!strchr(name, '.'))
        return;
    struct derive_ref b =
        derive_find_anywhere(t, model_tree_ref(DERIVE_DEVICE, t->data, NULL), n, name);
    if (b.kind == DERIVE_NONE || model_tree_is_block(b))
        return;
    struct buf path = BUF_INIT;
    derive_path(t, b, &path);
    diag_note(c->dg, pos_of(b), "a %s of that name is here: '%s'", kind_word(b), path.s);
    buf_release(&path);
}

static void report_missing(struct derive_check *c, struct derive_ref n)
{
    struct srcpos pos;
    const char *name = derived_of(n, &pos);
    struct buf what = BUF_INIT;
    name_of_node(n, &what);
    diag_report(c->dg, DIAG_SVD_DERIVED, pos, "derived-from '%s' of %s names no %s", name, what.s,
                n.kind == DERIVE_REG || n.kind == DERIVE_CLUSTER ? "register or cluster"
                                                                 : kind_word(n));
    buf_release(&what);
    note_elsewhere(c, n, name);
}

/* n's chain of bases, from 'b', ends: not back at n (the base that closes it noted), and within
 * DERIVE_MAX_CHAIN bases, as the SVD reader's must. */
static void check_chain(struct derive_check *c, struct derive_ref n, struct derive_ref b)
{
    struct srcpos pos;
    const char *name = derived_of(n, &pos);
    struct buf what = BUF_INIT;
    name_of_node(n, &what);
    for (size_t k = 0; b.kind != DERIVE_NONE; k++, b = base_of(c, b)) {
        if (derive_same(b, n)) {
            struct derive_ref first = base_of(c, n);
            struct srcpos first_pos;
            derived_of(first, &first_pos); /* where it derives, on the way back to n */
            diag_report(c->dg, DIAG_SVD_DERIVED, pos,
                        "derived-from '%s' of %s leads back to itself", name, what.s);
            buf_reset(&what);
            name_of_node(first, &what);
            diag_note(c->dg, first_pos, "%s derives from it", what.s);
            break;
        }
        if (k == DERIVE_MAX_CHAIN) { /* a loop that n only leads into is reported by its members */
            if (!chain_loops(c, b))
                diag_report(c->dg, DIAG_SVD_DERIVED, pos,
                            "derived-from '%s' of %s: a chain of more than %d bases", name, what.s,
                            DERIVE_MAX_CHAIN);
            break;
        }
    }
    buf_release(&what);
}

static void check_derived(struct derive_check *c, const struct derived *d)
{
    struct derive_ref b = base_of(c, d->n);
    if (b.kind == DERIVE_NONE)
        report_missing(c, d->n);
    else
        check_chain(c, d->n, b);
}

/* Adds 'n' to c->all if it derives from something. */
static void gather(struct derive_check *c, struct derive_ref n)
{
    struct srcpos pos;
    if (!derived_of(n, &pos))
        return;
    c->all = xgrow(c->all, &c->cap, c->n + 1, sizeof(*c->all));
    c->all[c->n++] = (struct derived){n, model_tree_ref(DERIVE_NONE, NULL, NULL), false};
}

static void gather_block(struct derive_check *c, const struct model_block *b)
{
    for (size_t k = 0; k < b->ninstances; k++)
        gather(c, model_tree_ref(DERIVE_PERIPH, b->instances[k], b));
    for (size_t k = 0; k < b->nclusters; k++)
        gather(c, model_tree_ref(DERIVE_CLUSTER, b->clusters[k], b));
    for (size_t k = 0; k < b->nregs; k++) {
        const struct model_reg *r = b->regs[k];
        gather(c, model_tree_ref(DERIVE_REG, r, b));
        for (size_t i = 0; i < r->nfields; i++) {
            const struct model_field *f = r->fields[i];
            gather(c, model_tree_ref(DERIVE_FIELD, f, b));
            for (size_t m = 0; m < model_field_ext(f)->nsets; m++)
                gather(c, model_tree_set_ref(f, model_field_ext(f)->sets[m]));
        }
    }
}

/* The spec's own (writable) cluster that tree node 'n' is. */
static struct model_cluster *cluster_of(struct derive_ref n)
{
    const struct model_block *b = n.ctx;
    for (size_t i = 0; i < b->nclusters; i++)
        if (b->clusters[i] == n.obj)
            return b->clusters[i];
    return NULL;
}

/*
 * A cluster marked own-type="false" uses the CMSIS type of the cluster its derived-from= leads
 * to (that one's type_of, down a chain of such copies), as the SVD reader's derived cluster that
 * writes nothing of its own does. A base that is a register has no type to give: refused.
 */
static void link_type(struct derive_check *c, struct derive_ref n, unsigned depth)
{
    struct model_cluster *cl = cluster_of(n);
    if (!cl || cl->type_of || !cl->base_type || depth > DERIVE_MAX_CHAIN)
        return;
    struct derive_ref b = base_of(c, n);
    if (b.kind == DERIVE_REG) {
        diag_report(c->dg, DIAG_SVD_DERIVED, cl->derived_pos,
                    "cluster '%s' has own-type=\"false\", but derived-from '%s' names a register, "
                    "which has no CMSIS type to share", cl->name, cl->derived_from);
        diag_note(c->dg, pos_of(b), "the register is here");
        return;
    }
    struct model_cluster *from = b.kind == DERIVE_CLUSTER ? cluster_of(b) : NULL;
    if (!from || from == cl)
        return; /* no base, reported above */
    link_type(c, b, depth + 1);
    cl->type_of = from->type_of ? from->type_of : from;
}

void xl_check_derived(struct diag *dg, struct model_spec *s)
{
    struct derive_index names;
    derive_index_init(&names);
    struct derive_check c = {dg, model_tree(s, &names), NULL, 0, 0, REGC_MAP_INIT};
    for (size_t i = 0; i < s->nblocks; i++)
        gather_block(&c, s->blocks[i]);
    for (size_t i = 0; i < c.n; i++) { /* c.all grows no more: its keys stay put */
        bool found;
        xmap_put(&c.by_obj, &c.all[i].n.obj, sizeof(c.all[i].n.obj), &found)->val = &c.all[i];
    }
    for (size_t i = 0; i < c.n; i++)
        check_derived(&c, &c.all[i]);
    for (size_t i = 0; i < c.n; i++)
        if (c.all[i].n.kind == DERIVE_CLUSTER)
            link_type(&c, c.all[i].n, 0);
    regc_map_release(&c.by_obj);
    free(c.all);
    derive_index_release(&names);
}
