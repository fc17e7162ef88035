/*
 * model_tree - the model seen as SVD's tree (model_tree.h).
 */
#include "model_tree.h"

#include "model_mmio.h"

#include <stddef.h>
#include <string.h>

/* The scope a register or cluster 'c' (NULL: the block's top level) is in. */
static struct derive_ref scope_ref(const struct model_cluster *c, const struct model_block *b)
{
    return c ? model_tree_ref(DERIVE_CLUSTER, c, b) : model_tree_ref(DERIVE_PERIPH, b, b);
}

static struct derive_ref tree_parent(const struct derive_tree *t, struct derive_ref n)
{
    const struct model_block *b = n.ctx;
    switch (n.kind) {
    case DERIVE_PERIPH:
        return model_tree_ref(DERIVE_DEVICE, t->data, NULL);
    case DERIVE_CLUSTER:
        return scope_ref(((const struct model_cluster *)n.obj)->parent, b);
    case DERIVE_REG:
        return scope_ref(model_reg_ext(n.obj)->cluster, b);
    case DERIVE_FIELD:
        return model_tree_ref(DERIVE_REG, ((const struct model_field *)n.obj)->reg, b);
    case DERIVE_ENUMS: {
        const struct model_field *f = n.ctx;
        return model_tree_ref(DERIVE_FIELD, f, f->reg->block);
    }
    default:
        return model_tree_ref(DERIVE_NONE, NULL, NULL);
    }
}

/* The device's kids: every instance; a block without one is a peripheral by its own name (as
 * -t svd writes it). */
static struct derive_ref device_kid(const struct model_spec *s, struct derive_cursor *at)
{
    for (; at->i < s->nblocks; at->i++, at->k = 0) {
        const struct model_block *b = s->blocks[at->i];
        if (at->k < b->ninstances)
            return model_tree_ref(DERIVE_PERIPH, b->instances[at->k++], b);
        if (at->k++ == 0 && b->ninstances == 0)
            return model_tree_ref(DERIVE_PERIPH, b, b);
    }
    return model_tree_ref(DERIVE_NONE, NULL, NULL);
}

/* The kids of a peripheral or cluster 'c' (NULL: the block's top level): its clusters, then its
 * registers. */
static struct derive_ref scope_kid(const struct model_block *b, const struct model_cluster *c,
                                   struct derive_cursor *at)
{
    while (at->i < b->nclusters)
        if (b->clusters[at->i++]->parent == c)
            return model_tree_ref(DERIVE_CLUSTER, b->clusters[at->i - 1], b);
    while (at->k < b->nregs)
        if (model_reg_ext(b->regs[at->k++])->cluster == c)
            return model_tree_ref(DERIVE_REG, b->regs[at->k - 1], b);
    return model_tree_ref(DERIVE_NONE, NULL, NULL);
}

/* The fields of register 'r' as written (not the gaps the check adds). */
static struct derive_ref reg_kid(const struct model_reg *r, struct derive_cursor *at)
{
    while (at->i < r->nfields)
        if (!r->fields[at->i++]->implicit)
            return model_tree_ref(DERIVE_FIELD, r->fields[at->i - 1], r->block);
    return model_tree_ref(DERIVE_NONE, NULL, NULL);
}

static const struct derive_ref no_node = {DERIVE_NONE, NULL, NULL};

/* The instance 'level' steps down the chain of bases of instance 'n' (0: n itself), or none. */
static struct derive_ref instance_base(const struct derive_tree *t, struct derive_ref n,
                                       size_t level)
{
    for (size_t i = 0; i < level && n.kind == DERIVE_PERIPH && !model_tree_is_block(n); i++) {
        const char *base = ((const struct model_instance *)n.obj)->derived_from;
        n = base ? derive_find_base(t, n, base) : no_node;
    }
    return n.kind == DERIVE_PERIPH && !model_tree_is_block(n) ? n : no_node;
}

/* Does the block of an instance fewer than 'level' steps down n's chain hold, at its top level, a
 * register or cluster of k's name? */
static bool named_above(const struct derive_tree *t, struct derive_ref n, size_t level,
                        struct derive_ref k)
{
    const char *name = t->name(t, k);
    for (size_t l = 0; l < level; l++) {
        struct derive_cursor at = {0, 0, 0};
        const struct model_block *b = instance_base(t, n, l).ctx;
        for (struct derive_ref o = scope_kid(b, NULL, &at); o.kind != DERIVE_NONE;
             o = scope_kid(b, NULL, &at))
            if (strcmp(t->name(t, o), name) == 0)
                return true;
    }
    return false;
}

/*
 * The kids of instance 'n': its block's top-level clusters and registers, then those of its
 * base's block that it does not name, and so down its chain of bases, as an SVD reader gives a
 * derived peripheral its base's registers and clusters merged by name (svd_derive.c's
 * take_kids): -t svd writes the instance derivedFrom its base, so a path through it leads there.
 */
static struct derive_ref instance_kid(const struct derive_tree *t, struct derive_ref n,
                                      struct derive_cursor *at)
{
    for (; at->level <= DERIVE_MAX_CHAIN; at->level++, at->i = at->k = 0) {
        struct derive_ref in = instance_base(t, n, at->level);
        enum { NEW, SAME_BLOCK, SAME_INSTANCE } seen = NEW;
        for (size_t l = 0; l < at->level && seen != SAME_INSTANCE; l++) {
            struct derive_ref above = instance_base(t, n, l);
            seen = above.obj == in.obj ? SAME_INSTANCE : above.ctx == in.ctx ? SAME_BLOCK : seen;
        }
        if (in.kind == DERIVE_NONE || seen == SAME_INSTANCE) /* the end, or a loop (svd-derived) */
            break;
        if (seen == SAME_BLOCK) /* named above, every one */
            continue;
        for (struct derive_ref k = scope_kid(in.ctx, NULL, at); k.kind != DERIVE_NONE;
             k = scope_kid(in.ctx, NULL, at))
            if (!named_above(t, n, at->level, k))
                return k;
    }
    return no_node;
}

static struct derive_ref tree_kid(const struct derive_tree *t, struct derive_ref n,
                                  struct derive_cursor *at)
{
    switch (n.kind) {
    case DERIVE_DEVICE:
        return device_kid(t->data, at);
    case DERIVE_PERIPH:
        return model_tree_is_block(n) ? scope_kid(n.ctx, NULL, at) : instance_kid(t, n, at);
    case DERIVE_CLUSTER:
        return scope_kid(n.ctx, n.obj, at);
    case DERIVE_REG:
        return reg_kid(n.obj, at);
    case DERIVE_FIELD: { /* its own sets: a field without any has no set to derive from */
        const struct model_field_ext *x = model_field_ext(n.obj);
        return at->i < x->nsets ? model_tree_set_ref(n.obj, x->sets[at->i++])
                                : model_tree_ref(DERIVE_NONE, NULL, NULL);
    }
    default:
        return model_tree_ref(DERIVE_NONE, NULL, NULL);
    }
}

static const char *tree_name(const struct derive_tree *t, struct derive_ref n)
{
    (void)t;
    switch (n.kind) {
    case DERIVE_PERIPH: /* the scope of a block's registers: its first instance, if it has one */
        if (model_tree_is_block(n))
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
    case DERIVE_ENUMS: {
        const char *name = ((const struct model_enum_set *)n.obj)->name;
        return name ? name : "";
    }
    default:
        return "";
    }
}

/* A register answers to its name, its svd-name (or name as written) and its name within its
 * cluster; a cluster to its name and svd-name; an instance of a dim-of= list to its name and the
 * list's ("UART%s", as the SVD file's list answers to its name); the others to their names. */
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
        return derive_add_name(
            out, derive_add_name(out, 0, ((const struct model_cluster *)n.obj)->written_name),
            ((const struct model_cluster *)n.obj)->name);
    if (model_tree_is_block(n))
        return derive_add_name(out, 0, ((const struct model_block *)n.obj)->name);
    if (n.kind == DERIVE_PERIPH)
        return derive_add_name(out, derive_add_name(out, 0, tree_name(t, n)),
                               ((const struct model_instance *)n.obj)->dim_of);
    if (n.kind == DERIVE_ENUMS) /* a set without a name answers to none */
        return derive_add_name(out, 0, ((const struct model_enum_set *)n.obj)->name);
    return n.kind == DERIVE_DEVICE ? 0 : derive_add_name(out, 0, tree_name(t, n));
}

struct derive_tree model_tree(const struct model_spec *s, struct derive_index *names)
{
    return (struct derive_tree){s,         tree_parent, tree_kid, tree_names, NULL,
                                tree_name, NULL,        NULL,     names};
}

/* ---------------------------------------------------------------- derived nodes */

const char *model_tree_derived_from(struct derive_ref n, struct srcpos *pos)
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

struct derive_ref model_tree_base(const struct derive_tree *t, struct derive_ref n)
{
    struct srcpos pos;
    const char *name = model_tree_derived_from(n, &pos);
    struct derive_ref b = name ? derive_find_base(t, n, name) : model_tree_ref(DERIVE_NONE, NULL, NULL);
    return model_tree_is_block(b) ? model_tree_ref(DERIVE_NONE, NULL, NULL) : b;
}

/* Calls 'fn' with 'n' when it derives from something. */
static void each_if_derived(struct derive_ref n, void (*fn)(void *ctx, struct derive_ref n), void *ctx)
{
    struct srcpos pos;
    if (model_tree_derived_from(n, &pos))
        fn(ctx, n);
}

void model_tree_each_derived(const struct model_spec *s,
                             void (*fn)(void *ctx, struct derive_ref n), void *ctx)
{
    for (size_t i = 0; i < s->nblocks; i++) {
        const struct model_block *b = s->blocks[i];
        for (size_t k = 0; k < b->ninstances; k++)
            each_if_derived(model_tree_ref(DERIVE_PERIPH, b->instances[k], b), fn, ctx);
        for (size_t k = 0; k < b->nclusters; k++)
            each_if_derived(model_tree_ref(DERIVE_CLUSTER, b->clusters[k], b), fn, ctx);
        for (size_t k = 0; k < b->nregs; k++) {
            const struct model_reg *r = b->regs[k];
            each_if_derived(model_tree_ref(DERIVE_REG, r, b), fn, ctx);
            for (size_t j = 0; j < r->nfields; j++) {
                const struct model_field *f = r->fields[j];
                each_if_derived(model_tree_ref(DERIVE_FIELD, f, b), fn, ctx);
                for (size_t m = 0; m < model_field_ext(f)->nsets; m++)
                    each_if_derived(model_tree_set_ref(f, model_field_ext(f)->sets[m]), fn, ctx);
            }
        }
    }
}

struct srcpos model_tree_pos(struct derive_ref n)
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

const char *model_tree_kind_word(struct derive_ref n)
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

void model_tree_describe(struct derive_ref n, struct buf *out)
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
    buf_addf(out, "%s '%s'", model_tree_kind_word(n), name);
}

/* ---------------------------------------------------------------- derived sets */

/* Marks the base of 'set' (one of its field's sets, held there as the model's to change). */
static void mark_base(const struct model_enum_set *set)
{
    if (!set->base)
        return;
    const struct model_field_ext *x = model_field_ext(set->base_field);
    for (size_t i = 0; i < x->nsets; i++)
        if (x->sets[i] == set->base)
            x->sets[i]->is_base = true;
}

void model_link_enum_bases(struct model_spec *s)
{
    struct derive_index names;
    derive_index_init(&names);
    struct derive_tree t = model_tree(s, &names);
    for (size_t i = 0; i < s->nblocks; i++) {
        const struct model_block *b = s->blocks[i];
        for (size_t k = 0; k < b->nregs; k++) {
            const struct model_reg *r = b->regs[k];
            for (size_t j = 0; j < r->nfields; j++) {
                const struct model_field *f = r->fields[j];
                const struct model_field_ext *x = model_field_ext(f);
                for (size_t m = 0; m < x->nsets; m++) {
                    struct model_enum_set *set = x->sets[m];
                    if (!set->derived_from)
                        continue;
                    struct derive_ref base =
                        derive_find_base(&t, model_tree_set_ref(f, set), set->derived_from);
                    set->base = base.kind == DERIVE_ENUMS ? base.obj : NULL;
                    set->base_field = set->base ? base.ctx : NULL;
                    mark_base(set);
                }
            }
        }
    }
    derive_index_release(&names);
}
