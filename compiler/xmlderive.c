/*
 * xmlderive - the bases derived-from= names in a regspec's memory-mapped forms
 * (docs/regspec.md, "Memory-mapped devices"): each must exist and a chain of
 * them must end, reported with the SVD reader's diagnostic (svd-derived).
 * A name is looked up as the SVD reader looks up derivedFrom (derive.h), on
 * the model seen as SVD's tree, as -t svd writes it (model_tree.h), an <enum-set>'s too.
 * Once every base is found and no chain loops, derivation is applied as an SVD reader applies it
 * to content the element does not write itself (model_copy.h): a register without a <field>
 * or <gap> takes its base register's fields (a <gap> says what its bits are: -t regspec writes
 * a register without fields so), a field without values or sets its base field's, an
 * <enum-set> that holds no value its base set's values, a cluster copies of its base cluster's
 * registers and clusters but those it gives itself by name (an SVD reader merges a derived
 * cluster's by name); each base first gets what its own derivation, and its fields', sets' and
 * registers', give it, whatever the order they are written in. A register or field with content
 * of its own keeps it whole, as -t regspec writes it; an instance takes nothing (its registers
 * are its block's), though a path through it leads through its base's (model_tree.c). The
 * attributes a derived register, field or cluster leaves out are its base's, those an SVD reader
 * takes (model_copy.h); a cluster derived from a register gives the registers in it the
 * register's protection and reset-mask. A cluster marked
 * own-type="false" (svdconv's unmodified copy), or derived without content or header-struct=,
 * takes its base's CMSIS type here. A base's name may lead through such copies, as an SVD file's
 * may: what is missing is looked up again once the derivations that reach only found bases are
 * applied (apply_found_first). A derived register or cluster without an array form of its own
 * takes its base's array (copy_dim). Then each register in a cluster array has the cluster's
 * array (reg_in_cluster_array). Called by xmlmmio.c once the spec is loaded; see xmlload_int.h.
 */
#include "xmlload_int.h"

#include "derive.h"
#include "fatal.h"
#include "map.h"
#include "model_copy.h"
#include "model_mmio.h"
#include "model_tree.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- derived objects */

/* A derived object and its base, looked up once however many chains go through it. */
struct derived {
    struct derive_ref n, base;
    bool done; /* base looked up */
    enum { APPLY_NOT, APPLY_ON_THE_WAY, APPLY_DONE } applied;
};

/* The check's state: the spec as a tree, and every derived object, found by its address. */
struct derive_check {
    struct diag *dg;
    struct arena *a; /* the model's: copies go there */
    struct derive_tree t;
    struct derived *all; /* xmalloc'd */
    size_t n, cap;
    struct regc_map by_obj; /* key: all[i].n.obj's bytes (the address); val: &all[i] */
    struct regc_map deep;   /* key: a node's obj's bytes; val: its struct deep_memo, in 'a' */
    unsigned round;         /* apply_found_first's, from 1 */
};

/* The node n's derived-from= names (an instance's: an instance); DERIVE_NONE when none. */
static struct derive_ref base_of(struct derive_check *c, struct derive_ref n)
{
    struct regc_map_entry *e = regc_map_find(&c->by_obj, &n.obj, sizeof(n.obj));
    if (!e)
        return model_tree_ref(DERIVE_NONE, NULL, NULL);
    struct derived *d = e->val;
    if (!d->done) {
        d->base = model_tree_base(&c->t, n);
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
    diag_note(c->dg, model_tree_pos(b), "a %s of that name is here: '%s'", model_tree_kind_word(b), path.s);
    buf_release(&path);
}

static void report_missing(struct derive_check *c, struct derive_ref n)
{
    struct srcpos pos;
    const char *name = model_tree_derived_from(n, &pos);
    struct buf what = BUF_INIT;
    model_tree_describe(n, &what);
    diag_report(c->dg, DIAG_SVD_DERIVED, pos, "derived-from '%s' of %s names no %s", name, what.s,
                n.kind == DERIVE_REG || n.kind == DERIVE_CLUSTER ? "register or cluster"
                                                                 : model_tree_kind_word(n));
    buf_release(&what);
    note_elsewhere(c, n, name);
}

/* n's chain of bases, from 'b', ends: not back at n (the base that closes it noted), and within
 * DERIVE_MAX_CHAIN bases, as the SVD reader's must. */
static void check_chain(struct derive_check *c, struct derive_ref n, struct derive_ref b)
{
    struct srcpos pos;
    const char *name = model_tree_derived_from(n, &pos);
    struct buf what = BUF_INIT;
    model_tree_describe(n, &what);
    for (size_t k = 0; b.kind != DERIVE_NONE; k++, b = base_of(c, b)) {
        if (derive_same(b, n)) {
            struct derive_ref first = base_of(c, n);
            struct srcpos first_pos;
            model_tree_derived_from(first, &first_pos); /* where it derives, on the way back to n */
            diag_report(c->dg, DIAG_SVD_DERIVED, pos,
                        "derived-from '%s' of %s leads back to itself", name, what.s);
            buf_reset(&what);
            model_tree_describe(first, &what);
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

/* Adds derived node 'n' to c->all. */
static void gather(void *ctx, struct derive_ref n)
{
    struct derive_check *c = ctx;
    c->all = xgrow(c->all, &c->cap, c->n + 1, sizeof(*c->all));
    c->all[c->n++] = (struct derived){n, model_tree_ref(DERIVE_NONE, NULL, NULL), false, APPLY_NOT};
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
        diag_note(c->dg, model_tree_pos(b), "the register is here");
        return;
    }
    struct model_cluster *from = b.kind == DERIVE_CLUSTER ? cluster_of(b) : NULL;
    if (!from || from == cl)
        return; /* no base, reported above */
    link_type(c, b, depth + 1);
    cl->type_of = from->type_of ? from->type_of : from;
}

/*
 * A derived cluster that holds no register or cluster and has no header-struct= takes copies of
 * its base cluster's (apply_cluster): svdconv does not call it modified, so it has its base's
 * CMSIS type, as own-type="false" says (link_type).
 */
static void imply_base_type(struct derive_check *c, struct derive_ref n)
{
    struct model_cluster *cl = cluster_of(n);
    if (cl && !cl->header_struct && base_of(c, n).kind == DERIVE_CLUSTER &&
        !model_cluster_holds_any(n.ctx, cl))
        cl->base_type = true;
}

/* ---------------------------------------------------------------- derivation applied */

static void apply_node(struct derive_check *c, struct derive_ref n);

/* The derived object that 'n' is, or NULL. */
static struct derived *derived_of(struct derive_check *c, struct derive_ref n)
{
    struct regc_map_entry *e = regc_map_find(&c->by_obj, &n.obj, sizeof(n.obj));
    return e ? e->val : NULL;
}

/* The derivation of n's fields (a register's) or sets (a field's) applied. */
static void apply_kids(struct derive_check *c, struct derive_ref n)
{
    if (n.kind == DERIVE_REG) {
        const struct model_reg *r = n.obj;
        for (size_t i = 0; i < r->nfields; i++)
            apply_node(c, model_tree_ref(DERIVE_FIELD, r->fields[i], r->block));
    } else if (n.kind == DERIVE_FIELD) {
        const struct model_field_ext *x = model_field_ext(n.obj);
        for (size_t i = 0; i < x->nsets; i++)
            apply_node(c, model_tree_set_ref(n.obj, x->sets[i]));
    }
}

static bool has_own_values(const struct model_field *f)
{
    const struct model_field_ext *x = model_field_ext(f);
    return f->nvalues || x->ndefaults || x->nsets;
}

/* The derivation of every register and cluster inside cluster 'n' applied. */
static void apply_inside(struct derive_check *c, struct derive_ref n)
{
    const struct model_block *blk = n.ctx;
    for (size_t i = 0; i < blk->nclusters; i++)
        for (const struct model_cluster *p = blk->clusters[i]->parent; p; p = p->parent)
            if (p == n.obj)
                apply_node(c, model_tree_ref(DERIVE_CLUSTER, blk->clusters[i], blk));
    for (size_t i = 0; i < blk->nregs; i++)
        if (model_cluster_holds(n.obj, blk->regs[i]))
            apply_node(c, model_tree_ref(DERIVE_REG, blk->regs[i], blk));
}

/* Cluster n given copies of the registers and clusters of its base cluster b that it does not
 * give itself by name, each as b holds it once its own derivation is applied; one of
 * own-type="false" with content of its own that is not its base's noted (model_cluster.differs). */
static void apply_cluster(struct derive_check *c, struct derive_ref n, struct derive_ref b)
{
    struct model_cluster *to = cluster_of(n);
    struct model_block *blk = (struct model_block *)n.ctx, *fb = (struct model_block *)b.ctx;
    if (!to)
        return;
    apply_inside(c, b);
    model_copy_cluster_regs(c->a, blk, to, fb, b.obj);
    if (to->base_type) {
        apply_inside(c, n); /* its own, as they will be */
        to->differs = model_cluster_differs(c->a, blk, to, fb, b.obj);
    }
}

/* The description of register or cluster 'n' (a base of either kind gives it). */
static const char *desc_of(struct derive_ref n)
{
    return n.kind == DERIVE_REG ? ((const struct model_reg *)n.obj)->desc
                                : ((const struct model_cluster *)n.obj)->desc;
}

/* The attributes n leaves out, from its base b (model_copy.h): a register's or field's, a
 * cluster's description (from a register too, as a register's from a cluster). */
static void copy_attrs(struct derive_check *c, struct derive_ref n, struct derive_ref b)
{
    if (n.kind == DERIVE_REG && b.kind == DERIVE_REG)
        model_copy_reg_attrs(c->a, (struct model_reg *)n.obj, b.obj);
    else if (n.kind == DERIVE_REG && b.kind == DERIVE_CLUSTER && !((struct model_reg *)n.obj)->desc)
        ((struct model_reg *)n.obj)->desc = desc_of(b);
    else if (n.kind == DERIVE_CLUSTER && (b.kind == DERIVE_CLUSTER || b.kind == DERIVE_REG) &&
             cluster_of(n))
        model_copy_cluster_attrs(cluster_of(n), desc_of(b));
    else if (n.kind == DERIVE_FIELD && b.kind == DERIVE_FIELD) {
        model_copy_field_attrs(c->a, (struct model_field *)n.obj, b.obj);
        model_field_ext_set(c->a, (struct model_field *)n.obj)->base_field = b.obj;
    }
}

/*
 * The dim of base b given to n when n has no array form of its own (model_copy.h), as svdconv's
 * SvdItem::CopyDim gives it whatever the two are. A register array whose indices a cluster cannot
 * hold (count= and stride= only) is refused for a cluster: -t svd would write one the reader
 * reads otherwise.
 */
static void copy_dim(struct derive_check *c, struct derive_ref n, struct derive_ref b)
{
    struct model_cluster *cl = n.kind == DERIVE_CLUSTER ? cluster_of(n) : NULL;
    if (n.kind == DERIVE_REG && b.kind == DERIVE_REG)
        model_copy_reg_dim(c->a, (struct model_reg *)n.obj, b.obj);
    else if (n.kind == DERIVE_REG && b.kind == DERIVE_CLUSTER)
        model_copy_reg_dim_of_cluster(c->a, (struct model_reg *)n.obj, b.obj);
    else if (cl && b.kind == DERIVE_CLUSTER)
        model_copy_cluster_dim(cl, b.obj);
    else if (cl && b.kind == DERIVE_REG && !model_copy_cluster_dim_of_reg(cl, b.obj)) {
        const struct model_reg *r = b.obj;
        diag_report(c->dg, DIAG_SVD_DERIVED, cl->derived_pos,
                    "cluster '%s' writes no count=, so takes the array of its base '%s', whose "
                    "indices a cluster cannot hold (a cluster's run from 0 up, evenly spaced): "
                    "give it a count= of its own", cl->name, r->written_name);
        diag_note(c->dg, r->pos, "the register array is here");
    }
}

/* What d's base gives it, once the base has all its own (the base's base first, down a chain). */
static void apply(struct derive_check *c, struct derived *d)
{
    if (d->applied != APPLY_NOT) /* done, or a loop (reported: not reached) */
        return;
    d->applied = APPLY_ON_THE_WAY;
    struct derive_ref n = d->n, b = base_of(c, n);
    if (b.kind != DERIVE_NONE) {
        apply_node(c, b);
        copy_attrs(c, n, b);
        copy_dim(c, n, b);
    }
    if (n.kind == DERIVE_REG && b.kind == DERIVE_REG) {
        struct model_reg *r = (struct model_reg *)n.obj;
        if (r->nfields == 0)
            model_copy_fields(c->a, r, b.obj);
        model_reg_set_base_reg(c->a, r, b.obj);
    } else if (n.kind == DERIVE_FIELD && b.kind == DERIVE_FIELD && !has_own_values(n.obj)) {
        model_copy_values(c->a, (struct model_field *)n.obj, b.obj);
    } else if (n.kind == DERIVE_CLUSTER && b.kind == DERIVE_CLUSTER) {
        apply_cluster(c, n, b);
    } else if (n.kind == DERIVE_CLUSTER && b.kind == DERIVE_REG) {
        apply_inside(c, n); /* a register's own base, or a nearer cluster's, gives first */
        model_copy_cluster_props_of_reg(c->a, n.ctx, n.obj, b.obj);
    } else if (n.kind == DERIVE_ENUMS && b.kind == DERIVE_ENUMS) {
        const struct model_enum_set *s = n.obj;
        if (!model_set_has_values(n.ctx, s->usage))
            model_copy_set_values(c->a, (struct model_field *)n.ctx, s, b.ctx, b.obj);
    }
    apply_kids(c, n); /* its own fields and sets (copies have theirs from the base) */
    d->applied = APPLY_DONE;
}

/* The derivation of 'n' and of its fields and sets applied. */
static void apply_node(struct derive_check *c, struct derive_ref n)
{
    struct derived *d = derived_of(c, n);
    if (d)
        apply(c, d);
    else
        apply_kids(c, n);
}

/* ---------------------------------------------------------------- registers in cluster arrays */

/*
 * A register in a cluster array repeats with its elements, as an SVD reader reads a register of
 * a "NAME[%s]" cluster (an array with the cluster's dim; -t svd writes it so, without a dim of
 * its own): one with no array form of its own takes the cluster's count and stride, indices from
 * 0 (once derivation is done: a derived cluster's count may be its base's); one with an array
 * form of its own must be that array ({HI-LO} of the cluster's count, its stride; its indices
 * name the cluster's elements, -t svd's dimIndex). One register array cannot repeat in two
 * cluster arrays: a register in two is refused.
 */
static void reg_in_cluster_array(struct derive_check *c, struct model_reg *r)
{
    const struct model_cluster *outer, *cl = model_reg_cluster_array(r, &outer);
    const char *name = r->written_name ? r->written_name : r->name;
    if (!cl || model_reg_ext(r)->dim_of)
        return;
    if (outer) {
        diag_report(c->dg, DIAG_BAD_ARRAY, r->pos,
                    "register '%s' is in cluster array '%s', itself in cluster array '%s': one "
                    "register array cannot repeat in both; write the elements of '%s' as clusters "
                    "of their own (svd-name=\"%s[%%s]\"), as -t regspec writes an SVD file's",
                    name, cl->name, outer->name, outer->name, outer->name);
        diag_note(c->dg, outer->pos, "cluster array '%s' is here", outer->name);
        return;
    }
    model_copy_reg_dim_of_cluster(c->a, r, cl);
    if (r->count == cl->count && r->stride == cl->stride && !r->addrs)
        return;
    const char *how = r->addrs ? "at the addresses= it lists"
                               : arena_printf(c->a, "0x%llx apart", (unsigned long long)r->stride);
    diag_report(c->dg, DIAG_BAD_ARRAY, r->pos,
                "register array '%s' (%u elements %s) is in cluster array '%s' (%u elements 0x%llx "
                "apart): a register in a cluster array repeats with its elements, so it is an "
                "array of the cluster's count and stride, or writes none and takes them",
                name, r->count, how, cl->name, cl->count, (unsigned long long)cl->stride);
    diag_note(c->dg, cl->pos, "cluster array '%s' is here", cl->name);
    const struct model_reg *base = model_reg_ext(r)->base_reg;
    if (base && base->is_array && base->count == r->count && base->stride == r->stride)
        diag_note(c->dg, model_reg_ext(r)->derived_pos,
                  "its base '%s' is an array of %u elements, which a register without {HI-LO} "
                  "derived from it takes", base->written_name ? base->written_name : base->name,
                  base->count);
}

/*
 * A derived register without an array form of its own may write an <array-index> (the loader
 * lets it: xl_mmio_array_index), as an SVD file's derived register may write a dimArrayIndex and
 * take its dim from its base (svdconv's SvdItem::CopyDim leaves the dimArrayIndex apart): its
 * indices are then those of the array it took (its values checked against that count with every
 * array's, xmlmmio.c). A base that gave it no array leaves the <array-index> naming no index.
 */
static void index_of_derived(struct derive_check *c, const struct derived *d)
{
    const struct model_reg *r = d->n.kind == DERIVE_REG ? d->n.obj : NULL;
    if (!r || r->is_array || !model_reg_ext(r)->array_index || model_reg_ext(r)->dim_of)
        return;
    struct derive_ref b = base_of(c, d->n);
    const struct model_reg *base = b.kind == DERIVE_REG ? b.obj : NULL;
    diag_report(c->dg, DIAG_BAD_ARRAY, model_reg_ext(r)->derived_pos,
                "register '%s' is not an array: its base '%s' gives it none (%s), so its "
                "<array-index> names no index; give it an array form of its own such as "
                "'%s{0-1}'",
                r->name, model_reg_ext(r)->derived_from,
                !base                                 ? "a cluster that is no array"
                : model_reg_cluster_array(base, NULL) ? "its array is its cluster's"
                                                      : "it is no array",
                r->name);
    diag_note(c->dg, model_reg_ext(r)->array_index->pos, "the <array-index> is here");
    diag_note(c->dg, model_tree_pos(b), "the base is here");
}

/* ---------------------------------------------------------------- paths through copies */

/*
 * What found_deep() learnt of one node in one round of apply_found_first(): whether every base
 * under it is found, and the most steps below it (DEEP_TOO_TALL past DERIVE_MAX_CHAIN, or when
 * it leads round a loop). Kept only when exact: not where a walk stopped at the depth limit, whose
 * nodes know only that they were too deep from where that walk started.
 */
struct deep_memo {
    const void *obj; /* the node's (derive_ref.obj): the key in derive_check.deep */
    unsigned round;  /* the round it holds for; 0: none */
    bool busy;       /* being walked: met again, the walk has looped */
    bool found;
    unsigned height;
};

#define DEEP_TOO_TALL (DERIVE_MAX_CHAIN + 1u)

/* A walk's answer for a node: found below it within 'height' steps; 'exact' unless cut short. */
struct deep {
    bool found, exact;
    unsigned height;
};

static size_t deep_steps; /* nodes walked by the last xl_check_derived(): xl_derive_steps() */

static struct deep deep_walk(struct derive_check *c, struct derive_ref n, unsigned depth);

/* 'into' joined with the walk of kid 'n' one step below it. */
static void deep_join(struct derive_check *c, struct deep *into, struct derive_ref n,
                      unsigned depth)
{
    if (!into->found)
        return; /* false already: no need to look further, as before */
    struct deep k = deep_walk(c, n, depth + 1);
    into->found = k.found;
    into->exact = into->exact && k.exact;
    if (k.height + 1 > into->height)
        into->height = k.height + 1 > DEEP_TOO_TALL ? DEEP_TOO_TALL : k.height + 1;
}

/* Joins the walks of everything under cluster 'cl' of block 'b' (its registers, its clusters'). */
static void cluster_deep(struct derive_check *c, struct deep *into, const struct model_block *b,
                         const struct model_cluster *cl, unsigned depth)
{
    for (size_t i = 0; i < b->nclusters; i++)
        for (const struct model_cluster *p = b->clusters[i]->parent; p; p = p->parent)
            if (p == cl)
                deep_join(c, into, model_tree_ref(DERIVE_CLUSTER, b->clusters[i], b), depth);
    for (size_t i = 0; i < b->nregs; i++)
        if (model_cluster_holds(cl, b->regs[i]))
            deep_join(c, into, model_tree_ref(DERIVE_REG, b->regs[i], b), depth);
}

/* The walk below n, not yet known this round: n's chain of bases, what a base cluster holds,
 * the fields and sets inside. */
static struct deep deep_below(struct derive_check *c, struct derive_ref n, unsigned depth)
{
    struct deep r = {true, true, 0};
    struct derived *d = derived_of(c, n);
    if (d && d->applied == APPLY_DONE)
        return r;
    if (d) {
        struct derive_ref b = base_of(c, n);
        if (b.kind == DERIVE_NONE)
            return (struct deep){false, true, 0};
        deep_join(c, &r, b, depth);
        if (n.kind == DERIVE_CLUSTER && b.kind == DERIVE_CLUSTER)
            cluster_deep(c, &r, b.ctx, b.obj, depth);
    }
    if (n.kind == DERIVE_REG) {
        const struct model_reg *reg = n.obj;
        for (size_t i = 0; i < reg->nfields; i++)
            deep_join(c, &r, model_tree_ref(DERIVE_FIELD, reg->fields[i], reg->block), depth);
    } else if (n.kind == DERIVE_FIELD) {
        const struct model_field_ext *x = model_field_ext(n.obj);
        for (size_t i = 0; i < x->nsets; i++)
            deep_join(c, &r, model_tree_set_ref(n.obj, x->sets[i]), depth);
    }
    return r;
}

/* n's memo, made (for no round yet) the first time n is met. */
static struct deep_memo *deep_memo_of(struct derive_check *c, struct derive_ref n)
{
    struct regc_map_entry *e = regc_map_find(&c->deep, &n.obj, sizeof(n.obj));
    if (e)
        return e->val;
    struct deep_memo *m = arena_zalloc(c->a, sizeof(*m));
    m->obj = n.obj;
    bool found; /* the key is the memo's copy of the address, which stays put */
    xmap_put(&c->deep, &m->obj, sizeof(m->obj), &found)->val = m;
    return m;
}

/* The walk below n at 'depth' steps from where it started, each node walked once a round. */
static struct deep deep_walk(struct derive_check *c, struct derive_ref n, unsigned depth)
{
    deep_steps++;
    if (depth > DERIVE_MAX_CHAIN) /* too deep from here: says nothing of n itself */
        return (struct deep){false, false, DEEP_TOO_TALL};
    struct deep_memo *m = deep_memo_of(c, n);
    if (m->round == c->round && m->busy) /* round a loop: never found, as no depth holds it */
        return (struct deep){false, true, DEEP_TOO_TALL};
    if (m->round == c->round)
        return (struct deep){m->found, true, m->height};
    m->round = c->round;
    m->busy = true;
    struct deep r = deep_below(c, n, depth);
    if (r.height >= DEEP_TOO_TALL)
        r.found = false;
    m->busy = false;
    m->found = r.found;
    m->height = r.height;
    if (!r.exact)
        m->round = 0; /* cut short: walked again from the next start */
    return r;
}

/* Is every base that applying n's derivation reaches found: n's chain of bases, what a base
 * cluster holds, the fields and sets inside, within DERIVE_MAX_CHAIN steps (a loop is not)?
 * Memoised a round at a time (struct deep_memo): linear in the spec, where a walk from each
 * derived node was quadratic in a chain's length. */
static bool found_deep(struct derive_check *c, struct derive_ref n)
{
    struct deep r = deep_walk(c, n, 0);
    return r.found && r.height <= DERIVE_MAX_CHAIN;
}

size_t xl_derive_steps(void)
{
    return deep_steps;
}

/*
 * A path may lead through what a derived cluster, register or field takes from its base, as an
 * SVD reader's does (derive.c on the SVD tree sees a derived element's copies): while some bases
 * are not found and others are, the derivations all of whose bases are found (found_deep) are
 * applied, so their copies join the tree, and the missing ones are looked up again. What is still
 * missing when a round finds nothing new is reported as before.
 */
static void apply_found_first(struct derive_check *c, struct derive_index *names)
{
    for (;;) {
        size_t missing = 0;
        for (size_t i = 0; i < c->n; i++)
            missing += base_of(c, c->all[i].n).kind == DERIVE_NONE;
        if (missing == 0 || missing == c->n)
            return;
        bool applied = false;
        c->round++; /* what found_deep knew of the round before holds no more */
        for (size_t i = 0; i < c->n; i++)
            if (c->all[i].n.kind == DERIVE_CLUSTER && base_of(c, c->all[i].n).kind != DERIVE_NONE &&
                c->all[i].applied == APPLY_NOT)
                imply_base_type(c, c->all[i].n); /* before any copy is made, as below */
        for (size_t i = 0; i < c->n; i++)
            if (c->all[i].applied == APPLY_NOT && found_deep(c, c->all[i].n)) {
                apply(c, &c->all[i]);
                applied = true;
            }
        if (!applied)
            return;
        derive_index_release(names); /* scopes with copies in them: indexed anew */
        derive_index_init(names);
        for (size_t i = 0; i < c->n; i++)
            if (c->all[i].done && c->all[i].base.kind == DERIVE_NONE)
                c->all[i].done = false;
    }
}

void xl_check_derived(struct arena *a, struct diag *dg, struct model_spec *s)
{
    struct derive_index names;
    derive_index_init(&names);
    unsigned errors = dg->nerrors;
    struct derive_check c = {dg, a, model_tree(s, &names), NULL, 0, 0, REGC_MAP_INIT, REGC_MAP_INIT,
                             0};
    deep_steps = 0;
    model_tree_each_derived(s, gather, &c);
    for (size_t i = 0; i < c.n; i++) { /* c.all grows no more: its keys stay put */
        bool found;
        xmap_put(&c.by_obj, &c.all[i].n.obj, sizeof(c.all[i].n.obj), &found)->val = &c.all[i];
    }
    apply_found_first(&c, &names);
    for (size_t i = 0; i < c.n; i++)
        check_derived(&c, &c.all[i]);
    for (size_t i = 0; i < c.n; i++)
        if (c.all[i].n.kind == DERIVE_CLUSTER)
            imply_base_type(&c, c.all[i].n);
    for (size_t i = 0; i < c.n; i++)
        if (c.all[i].n.kind == DERIVE_CLUSTER)
            link_type(&c, c.all[i].n, 0);
    for (size_t i = 0; i < c.n && dg->nerrors == errors; i++) /* every base found, no loop */
        apply(&c, &c.all[i]);
    bool clean = dg->nerrors == errors;
    for (size_t i = 0; i < c.n && clean; i++)
        index_of_derived(&c, &c.all[i]);
    for (size_t i = 0; i < s->nblocks && clean; i++)
        for (size_t k = 0; k < s->blocks[i]->nregs; k++)
            reg_in_cluster_array(&c, s->blocks[i]->regs[k]);
    regc_map_release(&c.by_obj);
    regc_map_release(&c.deep);
    free(c.all);
    derive_index_release(&names);
}
