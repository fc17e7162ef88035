/*
 * svd_names - svdconv's names for the CMSIS header (svd_names.h).
 */
#include "svd_names.h"

#include "cluster_array.h"
#include "model_mmio.h"
#include "util.h"

#include <string.h>

const char *svd_names_reg(struct arena *a, const char *name, const char *group)
{
    return group ? arena_printf(a, "%s_%s", name, group) : name;
}

/* PERIPH_OUTER_..._NAME (SvdItem::GetHierarchicalName: names, never headerStructNames). */
static const char *cluster_path(struct arena *a, const char *periph, const struct model_cluster *cl)
{
    const char *path = cluster_array_name(a, cl);
    for (const struct model_cluster *p = cl->parent; p; p = p->parent)
        path = arena_printf(a, "%s_%s", cluster_array_name(a, p), path);
    return arena_printf(a, "%s_%s", periph, path);
}

const char *svd_names_cluster_struct(struct arena *a, const char *periph,
                                     const struct model_cluster *cl)
{
    const char *hs = cl->header_struct;
    if (!hs || strchr(hs, '%') || strcmp(hs, cluster_array_name(a, cl)) == 0 ||
        strcmp(hs, cluster_path(a, periph, cl)) == 0)
        return NULL;
    return hs;
}

const char *svd_names_macro_path(struct arena *a, const char *periph, const struct model_reg *r,
                                 const char *group)
{
    size_t skip = cluster_prefix_len(model_reg_ext(r)->cluster);
    const char *path = strlen(r->name) > skip ? r->name + skip : r->name;
    for (const struct model_cluster *k = model_reg_ext(r)->cluster; k; k = k->parent) {
        const char *hs = svd_names_cluster_struct(a, periph, k);
        path = arena_printf(a, "%s_%s", hs ? hs : cluster_array_name(a, k), path);
    }
    return svd_names_reg(a, path, group);
}

const char *svd_names_macro_reg(struct arena *a, const char *periph, const struct model_reg *r,
                                const char *rname, const char *group)
{
    bool renamed = false;
    for (const struct model_cluster *k = model_reg_ext(r)->cluster; k && !renamed; k = k->parent)
        renamed = svd_names_cluster_struct(a, periph, k) != NULL;
    return renamed ? svd_names_macro_path(a, periph, r, group) : svd_names_reg(a, rname, group);
}

const char *svd_names_without_dim(struct arena *a, const char *written)
{
    const char *at = strstr(written, "[%s]");
    size_t len = 4;
    if (!at && (at = strstr(written, "%s")) != NULL)
        len = 2;
    return at ? arena_printf(a, "%.*s%s", (int)(at - written), written, at + len) : written;
}

const char *svd_names_enum_cluster(struct arena *a, const char *periph,
                                   const struct model_cluster *cl)
{
    if (!cl)
        return periph;
    return arena_printf(a, "%s_%s", svd_names_enum_cluster(a, periph, cl->parent),
                        cluster_array_name(a, cl));
}

const char *svd_names_enum_reg(struct arena *a, const char *periph, const struct model_reg *r,
                               const char *group)
{
    const struct model_reg_ext *x = model_reg_ext(r);
    size_t skip = cluster_prefix_len(x->cluster);
    const char *path = svd_names_reg(a, strlen(r->name) > skip ? r->name + skip : r->name, group);
    if (x->dim_of && strstr(x->dim_of, "%s") && !strstr(x->dim_of, "[%s]")) {
        const char *list = svd_names_without_dim(a, x->dim_of);
        path = arena_printf(a, "%s_%s_%s", svd_names_reg(a, list, group), list, path);
    }
    return arena_printf(a, "%s_%s", svd_names_enum_cluster(a, periph, x->cluster), path);
}

void svd_names_groups(struct regc_map *m, const struct model_block *b)
{
    regc_map_clear(m);
    for (size_t i = 0; i < b->nalt_groups; i++) {
        if (model_reg_group_in_name(b->alt_groups[i]->reg))
            continue; /* named NAME_GROUP already */
        bool found; /* the key is borrowed: the model's pointer, not a copy of it */
        const struct model_reg *const *r = &b->alt_groups[i]->reg;
        xmap_put(m, r, sizeof(*r), &found)->val = (void *)b->alt_groups[i]->group;
    }
}

const char *svd_names_group(const struct regc_map *m, const struct model_reg *r)
{
    const struct regc_map_entry *e = regc_map_find(m, &r, sizeof(r));
    return e ? e->val : NULL;
}
