/*
 * model_mmio - setters for the memory-mapped (SVD) members of registers,
 * fields and values (model.h, "memory-mapped (SVD) additions"): each member
 * is set in one place, so where it is stored (the object itself or a side
 * struct allocated on first use) is this file's business. 'a' is the arena
 * that owns the object; strings are borrowed from it.
 */
#ifndef REGC_MODEL_MMIO_H
#define REGC_MODEL_MMIO_H

#include "arena.h"
#include "model.h"

void model_reg_set_reset_mask(struct arena *a, struct model_reg *r, uint64_t mask);
void model_reg_set_alternate(struct arena *a, struct model_reg *r, const char *alternate);
void model_reg_set_protection(struct arena *a, struct model_reg *r, const char *protection);
void model_reg_set_display_name(struct arena *a, struct model_reg *r, const char *name);
void model_reg_set_derived_from(struct arena *a, struct model_reg *r, const char *base,
                                struct srcpos pos);
/* 'base': the register r's derived-from= names, whose fields r does not take (model.h). */
void model_reg_set_base_reg(struct arena *a, struct model_reg *r, const struct model_reg *base);
void model_reg_set_dim_of(struct arena *a, struct model_reg *r, const char *pattern);
void model_reg_set_index_names(struct arena *a, struct model_reg *r, const char **names);
void model_reg_set_array_index(struct arena *a, struct model_reg *r,
                               const struct model_array_index *ix);
void model_reg_set_cluster(struct arena *a, struct model_reg *r, struct model_cluster *c);
/*
 * The alternate cluster 'c' or one holding it declares (SVD alternateCluster; a regspec
 * <cluster alternate=>), innermost first, or NULL: its registers take it as theirs, as an SVD
 * reader gives them (svd_model.c's alternate_of), unless they declare one of their own.
 */
const char *model_cluster_alternate(const struct model_cluster *c);
/* The alternate register 'r' declares itself, or NULL: not the one it takes from its cluster. */
const char *model_reg_own_alternate(const struct model_reg *r);
/* Register 'r' of block 'b' is in SVD's alternateGroup 'group' (svdconv names it REG_GROUP). */
void model_block_add_alt_group(struct arena *a, struct model_block *b, const struct model_reg *r,
                               const char *group);
/* The alternateGroup of register 'r' of block 'b', or NULL. */
const char *model_block_alt_group(const struct model_block *b, const struct model_reg *r);
/*
 * Does the name of register 'r' carry its alternateGroup already: its written (SVD) name W, in
 * group G, is named W_G (after its clusters' names)? The SVD reader so keeps a second register
 * of one name in another group, under the name svdconv gives it (SvdRegister::GetNameCalculated);
 * the CMSIS names add no second "_G", the SVD writer writes W again.
 */
bool model_reg_group_in_name(const struct model_reg *r);
/*
 * The name of register 'r' inside its cluster: past the names of its clusters, each with a '_'
 * after it ("CTL_SUB_V" in CTL.SUB: "V"), as the model names a cluster's registers; r->name when
 * it is in no cluster or its name does not start so. Borrowed from 'r'. A name that carries its
 * alternateGroup (model_reg_group_in_name) keeps it: "V_G".
 */
const char *model_reg_name_in_cluster(const struct model_reg *r);
/*
 * Is cluster 'c' an array: count= more than 1, or a written (SVD) name with "%s" (a dim of 1,
 * as nRF5340's EXTDOMAIN[%s], or an element of a "NAME[%s]" array or "NAME%s" list the SVD
 * reader expanded per index)? What a regspec's <array-index> needs, and what -t cmsis-enum asks
 * before it takes a cluster for a later element of an expanded one.
 */
bool model_cluster_is_array(const struct model_cluster *c);

void model_field_set_write_effect(struct arena *a, struct model_field *f,
                                  enum model_write_effect e);
void model_field_set_read_effect(struct arena *a, struct model_field *f, enum model_read_effect e);
void model_field_set_write_constraint(struct arena *a, struct model_field *f,
                                      struct model_write_constraint wc);
void model_field_set_enum_name(struct arena *a, struct model_field *f, const char *name);
/*
 * Adds 'v' (owned by 'a') as an isDefault value of f, of the usage of its set (its ext's): each
 * set keeps its own. It replaces f's default of that usage; one of the same name for another
 * usage becomes one default of both (USAGE_ANY), as a value in a read and a write set does.
 */
void model_field_add_default(struct arena *a, struct model_field *f, struct model_value *v);
void model_field_set_derived_from(struct arena *a, struct model_field *f, const char *base,
                                  struct srcpos pos);
void model_field_set_dim_of(struct arena *a, struct model_field *f, const char *pattern);
void model_field_set_whole(struct arena *a, struct model_field *f, bool whole);
/* Appends set 's' (owned by 'a') to f's enumeration sets; '*cap' is the list's capacity. */
void model_field_add_enum_set(struct arena *a, struct model_field *f, struct model_enum_set *s,
                              size_t *cap);

/*
 * The enumeration sets of a field: its own (an SVD field's, a regspec's <enum-set>s), else one
 * set per usage of its values, made in 'own': a read and a write set when some value is for
 * one access only, else one read-write set; none for a field without values. 'sets' points
 * into the field or into this struct (not to be copied once filled).
 */
struct model_enum_sets {
    const struct model_enum_set *const *sets;
    size_t n;
    struct model_enum_set own[2];
    const struct model_enum_set *own_ptrs[2];
};
void model_field_sets(const struct model_field *f, struct model_enum_sets *out);
/* Are f's own sets those model_field_sets would give it without them (no name, no header)? */
bool model_field_sets_implied(const struct model_field *f);
/*
 * Is value 'v' in the set of usage 'set' among 'sets'? The model keeps a value once, with the
 * usage of its set, or USAGE_ANY for one in a read-write set or in both a read and a write set:
 * a read or write set takes the USAGE_ANY values when the field has no read-write set, and a
 * read-write set the values of a usage no set of the field has.
 */
bool model_value_in_set(const struct model_value *v, enum model_usage set,
                        const struct model_enum_set *const *sets, size_t n);
/* The isDefault value of f's set of usage 'set' among 'sets' (model_value_in_set), or NULL. */
const struct model_value *model_set_default(const struct model_field *f, enum model_usage set,
                                            const struct model_enum_set *const *sets, size_t n);
/* Does f's set of usage 'set' (among model_field_sets) hold a value, or an isDefault one? */
bool model_set_has_values(const struct model_field *f, enum model_usage set);
/* Does derived set 's' of 'f' hold no value where its base holds some (its own all dropped,
 * svd-value-too-wide)? Written with its derivedFrom, it would read back with its base's. */
bool model_set_values_lost(const struct model_field *f, const struct model_enum_set *s);

#endif
