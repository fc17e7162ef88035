/*
 * model_mmio - the memory-mapped members' setters (model_mmio.h).
 */
#include "model_mmio.h"

#include <string.h>

/*
 * Where a setter puts a member: the SVD additions of 'r' (or 'f'), or NULL
 * when the value is the default ('is_default') and they are not allocated:
 * a regspec register or field has none, and is not given them for nothing.
 */
static struct model_reg_ext *reg_ext_for(struct arena *a, struct model_reg *r, bool is_default)
{
    return is_default && !r->ext ? NULL : model_reg_ext_set(a, r);
}

static struct model_field_ext *field_ext_for(struct arena *a, struct model_field *f, bool is_default)
{
    return is_default && !f->ext ? NULL : model_field_ext_set(a, f);
}

void model_reg_set_reset_mask(struct arena *a, struct model_reg *r, uint64_t mask)
{
    model_reg_ext_set(a, r)->has_reset_mask = true;
    model_reg_ext_set(a, r)->reset_mask = mask;
}

void model_reg_set_alternate(struct arena *a, struct model_reg *r, const char *alternate)
{
    struct model_reg_ext *x = reg_ext_for(a, r, !alternate);
    if (x)
        x->alternate = alternate;
}

void model_reg_set_protection(struct arena *a, struct model_reg *r, const char *protection)
{
    struct model_reg_ext *x = reg_ext_for(a, r, !protection);
    if (x)
        x->protection = protection;
}

void model_reg_set_display_name(struct arena *a, struct model_reg *r, const char *name)
{
    struct model_reg_ext *x = reg_ext_for(a, r, !name);
    if (x)
        x->display_name = name;
}

void model_reg_set_base_reg(struct arena *a, struct model_reg *r, const struct model_reg *base)
{
    struct model_reg_ext *x = reg_ext_for(a, r, !base);
    if (x)
        x->base_reg = base;
}

void model_reg_set_derived_from(struct arena *a, struct model_reg *r, const char *base,
                                struct srcpos pos)
{
    struct model_reg_ext *x = reg_ext_for(a, r, !base);
    if (x) {
        x->derived_from = base;
        x->derived_pos = pos;
    }
}

void model_reg_set_dim_of(struct arena *a, struct model_reg *r, const char *pattern)
{
    struct model_reg_ext *x = reg_ext_for(a, r, !pattern);
    if (x)
        x->dim_of = pattern;
}

void model_reg_set_index_names(struct arena *a, struct model_reg *r, const char **names)
{
    struct model_reg_ext *x = reg_ext_for(a, r, !names);
    if (x)
        x->index_names = names;
}

void model_reg_set_array_index(struct arena *a, struct model_reg *r,
                               const struct model_array_index *ix)
{
    struct model_reg_ext *x = reg_ext_for(a, r, !ix);
    if (x)
        x->array_index = ix;
}

void model_reg_set_cluster(struct arena *a, struct model_reg *r, struct model_cluster *c)
{
    struct model_reg_ext *x = reg_ext_for(a, r, !c);
    if (x)
        x->cluster = c;
}

const char *model_cluster_alternate(const struct model_cluster *c)
{
    for (; c; c = c->parent)
        if (c->alternate)
            return c->alternate;
    return NULL;
}

const char *model_reg_own_alternate(const struct model_reg *r)
{
    const struct model_reg_ext *x = model_reg_ext(r);
    return x->alternate && x->alternate != model_cluster_alternate(x->cluster) ? x->alternate
                                                                                : NULL;
}

void model_block_add_alt_group(struct arena *a, struct model_block *b, const struct model_reg *r,
                               const char *group)
{
    struct model_alt_group *g = arena_zalloc(a, sizeof(*g));
    g->reg = r;
    g->group = group;
    size_t cap = arena_push_cap(b->nalt_groups);
    arena_push(a, (void ***)&b->alt_groups, &b->nalt_groups, &cap, g);
}

const char *model_block_alt_group(const struct model_block *b, const struct model_reg *r)
{
    for (size_t i = 0; i < b->nalt_groups; i++) /* few: only SVD registers in a group */
        if (b->alt_groups[i]->reg == r)
            return b->alt_groups[i]->group;
    return NULL;
}

bool model_reg_group_in_name(const struct model_reg *r)
{
    const char *g = r->block ? model_block_alt_group(r->block, r) : NULL, *w = r->written_name;
    if (!g || !w)
        return false;
    size_t n = strlen(r->name), nw = strlen(w), ng = strlen(g);
    if (n < nw + 1 + ng)
        return false;
    const char *tail = r->name + n - nw - 1 - ng; /* where "W_G" starts, after the clusters' */
    return (tail == r->name || tail[-1] == '_') && strncmp(tail, w, nw) == 0 && tail[nw] == '_' &&
           strcmp(tail + nw + 1, g) == 0;
}

bool model_cluster_is_array(const struct model_cluster *c)
{
    return c->count > 1 || (c->written_name && strstr(c->written_name, "%s"));
}

/* 'name' past the names of cluster 'c' and its parents, each with a '_' after it; NULL when it
 * does not start so. */
static const char *past_clusters(const char *name, const struct model_cluster *c)
{
    if (c->parent)
        name = past_clusters(name, c->parent);
    size_t len = name ? strlen(c->name) : 0;
    if (!name || strncmp(name, c->name, len) != 0 || name[len] != '_')
        return NULL;
    return name + len + 1;
}

const char *model_reg_name_in_cluster(const struct model_reg *r)
{
    const struct model_cluster *c = model_reg_ext(r)->cluster;
    const char *own = c ? past_clusters(r->name, c) : NULL;
    return own ? own : r->name;
}

void model_field_set_write_effect(struct arena *a, struct model_field *f, enum model_write_effect e)
{
    struct model_field_ext *x = field_ext_for(a, f, !e);
    if (x)
        x->write_effect = e;
}

void model_field_set_read_effect(struct arena *a, struct model_field *f, enum model_read_effect e)
{
    struct model_field_ext *x = field_ext_for(a, f, !e);
    if (x)
        x->read_effect = e;
}

void model_field_set_write_constraint(struct arena *a, struct model_field *f, struct model_write_constraint wc)
{
    struct model_field_ext *x = field_ext_for(a, f, wc.kind == WC_NONE);
    if (x)
        x->wc = wc;
}

void model_field_set_enum_name(struct arena *a, struct model_field *f, const char *name)
{
    struct model_field_ext *x = field_ext_for(a, f, !name);
    if (x)
        x->enum_name = name;
}

void model_field_add_default(struct arena *a, struct model_field *f, struct model_value *v)
{
    struct model_field_ext *x = model_field_ext_set(a, f);
    enum model_usage u = model_value_ext(v)->usage;
    for (size_t i = 0; i < x->ndefaults; i++) {
        struct model_value *d = x->defaults[i];
        if (model_value_ext(d)->usage == u) {
            x->defaults[i] = v; /* a second one in a set: the later */
            return;
        }
        if (strcmp(d->name, v->name) == 0) {
            model_value_ext_set(a, d)->usage = USAGE_ANY; /* in the read and the write set */
            return;
        }
    }
    size_t cap = x->ndefaults; /* grown by arena_push from a count it set */
    arena_push(a, (void ***)&x->defaults, &x->ndefaults, &cap, v);
}

void model_field_add_enum_set(struct arena *a, struct model_field *f, struct model_enum_set *s,
                              size_t *cap)
{
    struct model_field_ext *x = field_ext_for(a, f, false);
    arena_push(a, (void ***)&x->sets, &x->nsets, cap, s);
}

/* One set per usage of f's values (model_field_sets) into 'own'; their count. */
static size_t usage_sets(const struct model_field *f, struct model_enum_set *own)
{
    const struct model_field_ext *x = model_field_ext(f);
    if (!f->nvalues && !x->ndefaults)
        return 0;
    bool one_way = false;
    for (size_t i = 0; i < f->nvalues; i++)
        one_way = one_way || model_value_ext(f->values[i])->usage != USAGE_ANY;
    for (size_t i = 0; i < x->ndefaults; i++)
        one_way = one_way || model_value_ext(x->defaults[i])->usage != USAGE_ANY;
    if (!one_way) {
        own[0] = (struct model_enum_set){.usage = USAGE_ANY};
        return 1;
    }
    own[0] = (struct model_enum_set){.usage = USAGE_READ};
    own[1] = (struct model_enum_set){.usage = USAGE_WRITE};
    return 2;
}

void model_field_sets(const struct model_field *f, struct model_enum_sets *out)
{
    const struct model_field_ext *x = model_field_ext(f);
    if (x->nsets) {
        out->sets = (const struct model_enum_set *const *)x->sets;
        out->n = x->nsets;
        return;
    }
    out->n = usage_sets(f, out->own);
    out->own_ptrs[0] = &out->own[0];
    out->own_ptrs[1] = &out->own[1];
    out->sets = out->own_ptrs;
}

bool model_field_sets_implied(const struct model_field *f)
{
    const struct model_field_ext *x = model_field_ext(f);
    struct model_enum_set own[2];
    size_t n = usage_sets(f, own);
    if (n != x->nsets)
        return false;
    for (size_t i = 0; i < n; i++)
        if (x->sets[i]->name || x->sets[i]->header_enum || x->sets[i]->usage != own[i].usage)
            return false;
    return true;
}

static bool has_set(const struct model_enum_set *const *sets, size_t n, enum model_usage u)
{
    for (size_t i = 0; i < n; i++)
        if (sets[i]->usage == u)
            return true;
    return false;
}

bool model_value_in_set(const struct model_value *v, enum model_usage set,
                        const struct model_enum_set *const *sets, size_t n)
{
    enum model_usage u = model_value_ext(v)->usage;
    if (u == set)
        return true;
    if (set == USAGE_ANY)
        return !has_set(sets, n, u);
    return u == USAGE_ANY && !has_set(sets, n, USAGE_ANY);
}

const struct model_value *model_set_default(const struct model_field *f, enum model_usage set,
                                            const struct model_enum_set *const *sets, size_t n)
{
    const struct model_field_ext *x = model_field_ext(f);
    for (size_t i = 0; i < x->ndefaults; i++)
        if (model_value_in_set(x->defaults[i], set, sets, n))
            return x->defaults[i];
    return NULL;
}

bool model_set_has_values(const struct model_field *f, enum model_usage set)
{
    struct model_enum_sets fs;
    model_field_sets(f, &fs);
    for (size_t i = 0; i < f->nvalues; i++)
        if (model_value_in_set(f->values[i], set, fs.sets, fs.n))
            return true;
    return model_set_default(f, set, fs.sets, fs.n) != NULL;
}

bool model_set_values_lost(const struct model_field *f, const struct model_enum_set *s)
{
    return s->base && !model_set_has_values(f, s->usage) &&
           model_set_has_values(s->base_field, s->base->usage);
}

void model_field_set_derived_from(struct arena *a, struct model_field *f, const char *base,
                                  struct srcpos pos)
{
    struct model_field_ext *x = field_ext_for(a, f, !base);
    if (x) {
        x->derived_from = base;
        x->derived_pos = pos;
    }
}

void model_field_set_dim_of(struct arena *a, struct model_field *f, const char *pattern)
{
    struct model_field_ext *x = field_ext_for(a, f, !pattern);
    if (x)
        x->dim_of = pattern;
}

void model_field_set_whole(struct arena *a, struct model_field *f, bool whole)
{
    struct model_field_ext *x = field_ext_for(a, f, !whole);
    if (x)
        x->whole = whole;
}
