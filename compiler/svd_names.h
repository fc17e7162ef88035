/*
 * svd_names - the names ARM's svdconv gives in a CMSIS header (docs/svd.md, "Names as svdconv
 * makes them"), shared by -t cmsis (context_cmsis.c) and --against (svd_against.c). Each
 * function cites where svdconv (Open-CMSIS-Pack/devtools, tools/svdconv) makes the name.
 * Every string returned is owned by the arena 'a'.
 */
#ifndef REGC_SVD_NAMES_H
#define REGC_SVD_NAMES_H

#include "arena.h"
#include "map.h"
#include "model.h"

/* A register's name with "_" + its alternateGroup when 'group' is not NULL
 * (SvdRegister::GetNameCalculated). */
const char *svd_names_reg(struct arena *a, const char *name, const char *group);

/*
 * The headerStructName svdconv keeps for cluster 'cl' of peripheral 'periph' (its name), or
 * NULL: SvdCluster::CheckItem drops one equal to the cluster's name (M318) or to its
 * hierarchical name PERIPH_OUTER_..._NAME (M371), or holding '%' (M232).
 */
const char *svd_names_cluster_struct(struct arena *a, const char *periph,
                                     const struct model_cluster *cl);

/*
 * The register part of a field's _Pos/_Msk name: the register's clusters, each by the
 * headerStructName svdconv keeps, else by its name, then its own name and "_" + 'group'
 * (SvdItem::GetHierarchicalNameResulting, used by HeaderData::CreateFieldPosMask). 'rname' is
 * the name as regc gives it (the clusters' names before the register's own).
 */
const char *svd_names_macro_reg(struct arena *a, const char *periph, const struct model_reg *r,
                                const char *rname, const char *group);
/*
 * The same, every cluster named as svdconv names it: its kept headerStructName, else its name
 * without the "[%s]" or "%s" of the array or list the reader expanded (one name for all the
 * elements: SvdItem::GetHierarchicalNameResulting).
 */
const char *svd_names_macro_path(struct arena *a, const char *periph, const struct model_reg *r,
                                 const char *group);

/*
 * A register's hierarchical name in the enum form (SvdItem::GetHierarchicalName, used by
 * HeaderData::CreateEnumValuesContainer): 'periph', each cluster by its name without "[%s]" or
 * "%s" (never a headerStructName), the register's own name and "_" + 'group'. An element of a
 * "NAME%s" list (CH%s_CTL: CH0_CTL) has the list before it twice, as svdconv walks up through
 * the list's template register and its SvdDimension: PERIPH_CH_CTL_CH_CTL_CH0_CTL.
 */
const char *svd_names_enum_reg(struct arena *a, const char *periph, const struct model_reg *r,
                               const char *group);
/* A cluster's hierarchical name in the enum form, the stem of its dimArrayIndex's enum: 'periph'
 * and the clusters down to 'cl', each by its name without "[%s]" or "%s" ('periph' when 'cl' is
 * NULL: a peripheral's). */
const char *svd_names_enum_cluster(struct arena *a, const char *periph,
                                   const struct model_cluster *cl);
/* "CH%s_CTL" or "CH[%s]" without its "%s" or "[%s]" (SvdUtils::ParseExpression's name). */
const char *svd_names_without_dim(struct arena *a, const char *written);

/* Fills 'm' (cleared first) with b's registers in an alternateGroup: register -> group; not those
 * whose name carries the group already (model_reg_group_in_name). */
void svd_names_groups(struct regc_map *m, const struct model_block *b);
/* The alternateGroup of register r in a map filled by svd_names_groups, or NULL. */
const char *svd_names_group(const struct regc_map *m, const struct model_reg *r);

#endif
