/*
 * model_mmio - the memory-mapped members' setters (model_mmio.h).
 */
#include "model_mmio.h"

#include <string.h>

void model_reg_set_reset_mask(struct arena *a, struct model_reg *r, uint64_t mask)
{
    model_reg_ext_set(a, r)->has_reset_mask = true;
    model_reg_ext_set(a, r)->reset_mask = mask;
}

void model_reg_set_alternate(struct arena *a, struct model_reg *r, const char *alternate)
{
    if (!alternate && !r->ext)
        return; /* the default: no SVD additions allocated for it */
    model_reg_ext_set(a, r)->alternate = alternate;
}

void model_reg_set_protection(struct arena *a, struct model_reg *r, const char *protection)
{
    if (!protection && !r->ext)
        return; /* the default: no SVD additions allocated for it */
    model_reg_ext_set(a, r)->protection = protection;
}

void model_reg_set_display_name(struct arena *a, struct model_reg *r, const char *name)
{
    if (!name && !r->ext)
        return; /* the default: no SVD additions allocated for it */
    model_reg_ext_set(a, r)->display_name = name;
}

void model_reg_set_derived_from(struct arena *a, struct model_reg *r, const char *base)
{
    if (!base && !r->ext)
        return; /* the default: no SVD additions allocated for it */
    model_reg_ext_set(a, r)->derived_from = base;
}

void model_reg_set_dim_of(struct arena *a, struct model_reg *r, const char *pattern)
{
    if (!pattern && !r->ext)
        return; /* the default: no SVD additions allocated for it */
    model_reg_ext_set(a, r)->dim_of = pattern;
}

void model_reg_set_index_names(struct arena *a, struct model_reg *r, const char **names)
{
    if (!names && !r->ext)
        return; /* the default: no SVD additions allocated for it */
    model_reg_ext_set(a, r)->index_names = names;
}

void model_reg_set_cluster(struct arena *a, struct model_reg *r, struct model_cluster *c)
{
    if (!c && !r->ext)
        return; /* the default: no SVD additions allocated for it */
    model_reg_ext_set(a, r)->cluster = c;
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

void model_field_set_write_effect(struct arena *a, struct model_field *f, enum model_write_effect e)
{
    if (!e && !f->ext)
        return; /* the default: no SVD additions allocated for it */
    model_field_ext_set(a, f)->write_effect = e;
}

void model_field_set_read_effect(struct arena *a, struct model_field *f, enum model_read_effect e)
{
    if (!e && !f->ext)
        return; /* the default: no SVD additions allocated for it */
    model_field_ext_set(a, f)->read_effect = e;
}

void model_field_set_write_constraint(struct arena *a, struct model_field *f, struct model_write_constraint wc)
{
    if (wc.kind == WC_NONE && !f->ext)
        return; /* the default: no SVD additions allocated for it */
    model_field_ext_set(a, f)->wc = wc;
}

void model_field_set_enum_name(struct arena *a, struct model_field *f, const char *name)
{
    if (!name && !f->ext)
        return; /* the default: no SVD additions allocated for it */
    model_field_ext_set(a, f)->enum_name = name;
}

void model_field_set_default_value(struct arena *a, struct model_field *f, struct model_value *v)
{
    if (!v && !f->ext)
        return; /* the default: no SVD additions allocated for it */
    model_field_ext_set(a, f)->default_value = v;
}

void model_field_set_derived_from(struct arena *a, struct model_field *f, const char *base)
{
    if (!base && !f->ext)
        return; /* the default: no SVD additions allocated for it */
    model_field_ext_set(a, f)->derived_from = base;
}

void model_field_set_dim_of(struct arena *a, struct model_field *f, const char *pattern)
{
    if (!pattern && !f->ext)
        return; /* the default: no SVD additions allocated for it */
    model_field_ext_set(a, f)->dim_of = pattern;
}

void model_field_set_whole(struct arena *a, struct model_field *f, bool whole)
{
    if (!whole && !f->ext)
        return; /* the default: no SVD additions allocated for it */
    model_field_ext_set(a, f)->whole = whole;
}
