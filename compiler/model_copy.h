/*
 * model_copy - what a derived register, field, enumeration set or cluster takes from its base, as
 * copies in the model: the content an SVD reader gives an object whose derivedFrom names a base
 * and which writes none of it itself (svdconv's SvdDerivedFrom::CopyChilds), and the attributes
 * it leaves out. The regspec loader applies a derived-from= with them (xmlderive.c). Each copy is a
 * new object of 'a' (no object is shared between two fields), with the base's position (where its
 * text is) and its derived-from as written; a copied set has no header-enum-name (svdconv's
 * SvdEnumContainer::CopyItem copies none: two C enums of one name otherwise).
 */
#ifndef REGC_MODEL_COPY_H
#define REGC_MODEL_COPY_H

#include "arena.h"
#include "model.h"

/*
 * Register 'to', which has no field (nor <gap>) of its own, gets copies of the fields of 'from'
 * (<gap>s included), each with its values and sets. A field that stands for the whole register
 * (whole="true") is named after 'to' in its cluster, as an SVD reader names the one field of a
 * register without fields.
 */
void model_copy_fields(struct arena *a, struct model_reg *to, const struct model_reg *from);

/* Field 'to', which has no values or sets of its own, gets copies of those of 'from': its
 * <enum-set>s, values and default values. Its values_from is its derived-from's position. */
void model_copy_values(struct arena *a, struct model_field *to, const struct model_field *from);

/*
 * Set 's' of field 'to', which holds no value (model_set_has_values), gets copies of the values
 * set 'bs' of field 'from' holds, and of its default, each of the usage of 's'. The field's
 * values_from is the set's derived-from position.
 */
void model_copy_set_values(struct arena *a, struct model_field *to, const struct model_enum_set *s,
                           const struct model_field *from, const struct model_enum_set *bs);

/*
 * The attributes an SVD reader takes from a base where the derived element writes none (svdconv's
 * SvdDerivedFrom::CopyChilds; svd_derive.c's merge(): every simple element but the own_only()
 * ones: name, headerStructName, headerEnumName, dim, alternates), given to 'to' where it has
 * none, each as 'from' holds it. Only those -t svd leaves out when unset are concerned: what it
 * always writes (addressOffset, size, resetValue, a field's bits and access) is the element's
 * own.
 *
 * A register: its description, reset-mask, protection and display-name.
 */
void model_copy_reg_attrs(struct arena *a, struct model_reg *to, const struct model_reg *from);

/*
 * A field: its description, write-constraint, write= (modifiedWriteValues) and read-action=,
 * and the class the effects give with its own SVD access word (svd_field_access: read-write
 * with a base's oneToClear is RW1C). A field with a regspec access word (RW, RW1C...) takes no
 * effects: its class is its own.
 */
void model_copy_field_attrs(struct arena *a, struct model_field *to,
                            const struct model_field *from);

/* A cluster: its description ('desc', its base's, a cluster's or a register's). */
void model_copy_cluster_attrs(struct model_cluster *to, const char *desc);

/*
 * A cluster derived from register 'from': an SVD reader gives the cluster the register's
 * protection and resetMask (with the rest of its registerPropertiesGroup, which -t svd writes on
 * every register anyway), and each register in it, at any depth, takes them from it where it
 * writes none. The model keeps no property on a cluster, so the registers of block 'b' in
 * cluster 'to' get them here, where they have none of their own (or from their own bases, or
 * from a cluster nearer them: the caller applies those first).
 */
void model_copy_cluster_props_of_reg(struct arena *a, const struct model_block *b,
                                     const struct model_cluster *to, const struct model_reg *from);

/*
 * The dim an SVD reader gives a derived element that writes none (svdconv's SvdItem::CopyDim,
 * svd_derive.c's copy_dim): register or cluster 'to', no array of its own (a register without
 * {HI-LO} and not of a dim-of= list, a cluster without count= and no element of a "%s" array),
 * becomes an array like its base: its count, stride and indices ({HI-LO}, index-names=;
 * addresses= moved by the distance between the two). Not the base's <array-index> (svdconv keeps
 * it apart from the dim). A base that is no array gives nothing.
 */
void model_copy_reg_dim(struct arena *a, struct model_reg *to, const struct model_reg *from);
/*
 * The innermost cluster array register 'r' is in (its cluster= or a cluster holding it, of
 * count= above 1), or NULL; '*outer' (when not NULL) the next one out, or NULL. A register in a
 * cluster array repeats with its elements, as in an SVD file: its array is the cluster's, not a
 * dim of its own (so it gives a register or cluster derived from it none).
 */
const struct model_cluster *model_reg_cluster_array(const struct model_reg *r,
                                                    const struct model_cluster **outer);
/* A register's dim from a cluster array: count= and stride=, indices from 0 (a register derived
 * from a cluster array; a register with no array form of its own in one). */
void model_copy_reg_dim_of_cluster(struct arena *a, struct model_reg *to,
                                   const struct model_cluster *from);
void model_copy_cluster_dim(struct model_cluster *to, const struct model_cluster *from);
/* A cluster's from a register array; false (nothing taken) when a cluster cannot hold that
 * array: indices other than 0 up (first, descending, index-names=) or addresses=. */
bool model_copy_cluster_dim_of_reg(struct model_cluster *to, const struct model_reg *from);

/* Does block b hold a register or cluster in cluster 'c' (or deeper)? */
bool model_cluster_holds_any(const struct model_block *b, const struct model_cluster *c);
/* Is register 'r' in cluster 'c' (or deeper)? */
bool model_cluster_holds(const struct model_cluster *c, const struct model_reg *r);

/*
 * Cluster 'to' of block 'b' gets copies of the registers and clusters 'from' of block 'fb' holds
 * (b itself, or the block of another instance) but those directly in 'from' whose names 'to'
 * gives itself directly in it (a register or a cluster: all of them when it holds none), as an
 * SVD reader's derived cluster takes its base's, merged by name. They are appended to b's lists
 * (parents first), at the same offsets from 'to' as from 'from', the clusters under their own
 * names and the registers named after the copy of their cluster (CD_R for from's CL_R in to's
 * CD: as in CL, R in it), each with copies of its fields, values and sets, its <at>s moved alike
 * and its rules. Each copy is 'taken' (-t svd leaves it for the reader to take again from to's
 * derivedFrom), and a copied cluster has the CMSIS type of the cluster it copies (type_of), as
 * the SVD reader's copies.
 */
void model_copy_cluster_regs(struct arena *a, struct model_block *b, struct model_cluster *to,
                             const struct model_block *fb, const struct model_cluster *from);

/*
 * Derived cluster 'c' of block 'b' against its base 'from' of block 'fb': the first register or
 * cluster directly in 'c' of its own (not taken) that is not what a copy of the one of its name
 * in 'from' would be (there is none, or it differs in its offset in the cluster, width, size,
 * reset, description, reset-mask, protection, display-name, alternate=, array, or a field's
 * name, bits, access, reset, description, effects, write constraint, sets (names, usages) or
 * values (names, numbers, descriptions, usages, don't-care bits, defaults); a cluster in its
 * offset, array or anything inside), as "register 'R'" or "cluster 'C'" (owned by 'a'); NULL when
 * there is none. -t svd writes a cluster of own-type="false" with nothing in it, so that a reader
 * takes all of its base's: such a one is what it loses.
 */
const char *model_cluster_differs(struct arena *a, const struct model_block *b,
                                  const struct model_cluster *c, const struct model_block *fb,
                                  const struct model_cluster *from);

#endif
