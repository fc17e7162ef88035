/*
 * xmlderive - the bases derived-from= names in a regspec's memory-mapped forms
 * (docs/regspec.md, "Memory-mapped devices"): each must exist and a chain of
 * them must end, reported with the SVD reader's diagnostic (svd-derived).
 * A name is looked up as the SVD reader looks up derivedFrom (derive.h), on
 * the model seen as SVD's tree, as -t svd writes it: the spec is the device;
 * each instance is a peripheral (a block without instances is one, by its
 * name), holding its block's top-level clusters and registers; a cluster holds those declared in
 * it; a register its fields. Derivation is recorded, not applied: the element holds its whole
 * content. Called by xmlmmio.c once the spec is loaded; see xmlload_int.h.
 */
#include "xmlload_int.h"

#include "derive.h"
#include "fatal.h"
#include "map.h"
#include "model_mmio.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the model as SVD's tree */

static struct derive_ref ref(enum derive_kind kind, const void *obj, const struct model_block *b)
{
    return (struct derive_ref){kind, obj, b};
}

/* A peripheral that is a block (by its name) rather than an instance: its object is its block. */
static bool is_block(struct derive_ref n)
{
    return n.kind == DERIVE_PERIPH && n.obj == n.ctx;
}

/* The scope a register or cluster 'c' (NULL: the block's top level) is in. */
static struct derive_ref scope_ref(const struct model_cluster *c, const struct model_block *b)
{
    return c ? ref(DERIVE_CLUSTER, c, b) : ref(DERIVE_PERIPH, b, b);
}

static struct derive_ref tree_parent(const struct derive_tree *t, struct derive_ref n)
{
    const struct model_block *b = n.ctx;
    switch (n.kind) {
    case DERIVE_PERIPH:
        return ref(DERIVE_DEVICE, t->data, NULL);
    case DERIVE_CLUSTER:
        return scope_ref(((const struct model_cluster *)n.obj)->parent, b);
    case DERIVE_REG:
        return scope_ref(model_reg_ext(n.obj)->cluster, b);
    case DERIVE_FIELD:
        return ref(DERIVE_REG, ((const struct model_field *)n.obj)->reg, b);
    default:
        return ref(DERIVE_NONE, NULL, NULL);
    }
}

/* The device's kids: every instance; a block without one is a peripheral by its own name (as
 * -t svd writes it). */
static struct derive_ref device_kid(const struct model_spec *s, struct derive_cursor *at)
{
    for (; at->i < s->nblocks; at->i++, at->k = 0) {
        const struct model_block *b = s->blocks[at->i];
        if (at->k < b->ninstances)
            return ref(DERIVE_PERIPH, b->instances[at->k++], b);
        if (at->k++ == 0 && b->ninstances == 0)
            return ref(DERIVE_PERIPH, b, b);
    }
    return ref(DERIVE_NONE, NULL, NULL);
}

/* The kids of a peripheral or cluster 'c' (NULL: the block's top level): its clusters, then its
 * registers. */
static struct derive_ref scope_kid(const struct model_block *b, const struct model_cluster *c,
                                   struct derive_cursor *at)
{
    while (at->i < b->nclusters)
        if (b->clusters[at->i++]->parent == c)
            return ref(DERIVE_CLUSTER, b->clusters[at->i - 1], b);
    while (at->k < b->nregs)
        if (model_reg_ext(b->regs[at->k++])->cluster == c)
            return ref(DERIVE_REG, b->regs[at->k - 1], b);
    return ref(DERIVE_NONE, NULL, NULL);
}

/* The fields of register 'r' as written (not the gaps the check adds). */
static struct derive_ref reg_kid(const struct model_reg *r, struct derive_cursor *at)
{
    while (at->i < r->nfields)
        if (!r->fields[at->i++]->implicit)
            return ref(DERIVE_FIELD, r->fields[at->i - 1], r->block);
    return ref(DERIVE_NONE, NULL, NULL);
}

static struct derive_ref tree_kid(const struct derive_tree *t, struct derive_ref n,
                                  struct derive_cursor *at)
{
    switch (n.kind) {
    case DERIVE_DEVICE:
        return device_kid(t->data, at);
    case DERIVE_PERIPH:
        return scope_kid(n.ctx, NULL, at);
    case DERIVE_CLUSTER:
        return scope_kid(n.ctx, n.obj, at);
    case DERIVE_REG:
        return reg_kid(n.obj, at);
    default:
        return ref(DERIVE_NONE, NULL, NULL);
    }
}

static const char *tree_name(const struct derive_tree *t, struct derive_ref n)
{
    (void)t;
    switch (n.kind) {
    case DERIVE_PERIPH: /* the scope of a block's registers: its first instance, if it has one */
        if (is_block(n))
            return ((const struct model_block *)n.obj)->ninstances
                       ? ((const struct model_block *)n.obj)->instances[0]->name
                       : ((const struct model_block *)n.obj)->name;
        return ((const struct model_instance *)n.obj)->name;
    case DERIVE_CLUSTER:
        return ((const struct model_cluster *)n.obj)->name;
    case DERIVE_REG:
        return model_reg_name_in_cluster(n.obj);
    case DERIVE_FIELD:
        return ((const struct model_field *)n.obj)->name;
    default:
        return "";
    }
}

/* A register answers to its name, its svd-name (or name as written) and its name within its
 * cluster; a cluster to its name and svd-name; the others to their names. */
static size_t tree_names(const struct derive_tree *t, struct derive_ref n,
                         struct derive_name out[DERIVE_MAX_NAMES], bool *list)
{
    (void)list; /* a dim-of= list's instances and registers are in the model one by one */
    if (n.kind == DERIVE_REG) {
        const struct model_reg *r = n.obj;
        size_t k = derive_add_name(out, 0, r->name);
        k = derive_add_name(out, k, r->written_name);
        return derive_add_name(out, k, model_reg_name_in_cluster(r));
    }
    if (n.kind == DERIVE_CLUSTER)
        return derive_add_name(out, derive_add_name(out, 0, ((const struct model_cluster *)n.obj)->written_name),
                               ((const struct model_cluster *)n.obj)->name);
    if (is_block(n))
        return derive_add_name(out, 0, ((const struct model_block *)n.obj)->name);
    return n.kind == DERIVE_DEVICE ? 0 : derive_add_name(out, 0, tree_name(t, n));
}

/* ---------------------------------------------------------------- derived objects */

/* What 'n' derives from as written, and where that is; NULL when it derives from nothing. */
static const char *derived_of(struct derive_ref n, struct srcpos *pos)
{
    if (is_block(n))
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
    default:
        return NULL;
    }
}

/* Where node 'n' is written. */
static struct srcpos pos_of(struct derive_ref n)
{
    switch (n.kind) {
    case DERIVE_PERIPH:
        return is_block(n) ? ((const struct model_block *)n.obj)->pos
                           : ((const struct model_instance *)n.obj)->pos;
    case DERIVE_CLUSTER:
        return ((const struct model_cluster *)n.obj)->pos;
    case DERIVE_REG:
        return ((const struct model_reg *)n.obj)->pos;
    case DERIVE_FIELD:
        return ((const struct model_field *)n.obj)->pos;
    default:
        return (struct srcpos){0, 0, 0};
    }
}

static const char *kind_word(struct derive_ref n)
{
    switch (n.kind) {
    case DERIVE_PERIPH:
        return is_block(n) ? "block" : "instance";
    case DERIVE_CLUSTER:
        return "cluster";
    case DERIVE_REG:
        return "register";
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
        return ref(DERIVE_NONE, NULL, NULL);
    struct derived *d = e->val;
    if (!d->done) {
        struct srcpos pos;
        struct derive_ref b = derive_find_base(&c->t, n, derived_of(n, &pos));
        d->base = is_block(b) ? ref(DERIVE_NONE, NULL, NULL) : b;
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
    struct derive_ref b = derive_find_anywhere(t, ref(DERIVE_DEVICE, t->data, NULL), n, name);
    if (b.kind == DERIVE_NONE || is_block(b))
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
    c->all[c->n++] = (struct derived){n, ref(DERIVE_NONE, NULL, NULL), false};
}

static void gather_block(struct derive_check *c, const struct model_block *b)
{
    for (size_t k = 0; k < b->ninstances; k++)
        gather(c, ref(DERIVE_PERIPH, b->instances[k], b));
    for (size_t k = 0; k < b->nclusters; k++)
        gather(c, ref(DERIVE_CLUSTER, b->clusters[k], b));
    for (size_t k = 0; k < b->nregs; k++) {
        const struct model_reg *r = b->regs[k];
        gather(c, ref(DERIVE_REG, r, b));
        for (size_t i = 0; i < r->nfields; i++)
            gather(c, ref(DERIVE_FIELD, r->fields[i], b));
    }
}

void xl_check_derived(struct diag *dg, const struct model_spec *s)
{
    struct derive_index names;
    derive_index_init(&names);
    struct derive_check c = {
        dg, {s, tree_parent, tree_kid, tree_names, NULL, tree_name, NULL, NULL, &names}, NULL, 0, 0,
        REGC_MAP_INIT};
    for (size_t i = 0; i < s->nblocks; i++)
        gather_block(&c, s->blocks[i]);
    for (size_t i = 0; i < c.n; i++) { /* c.all grows no more: its keys stay put */
        bool found;
        xmap_put(&c.by_obj, &c.all[i].n.obj, sizeof(c.all[i].n.obj), &found)->val = &c.all[i];
    }
    for (size_t i = 0; i < c.n; i++)
        check_derived(&c, &c.all[i]);
    regc_map_release(&c.by_obj);
    free(c.all);
    derive_index_release(&names);
}
