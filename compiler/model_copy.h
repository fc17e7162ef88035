/*
 * model_copy - what a derived register, field or enumeration set takes from its base, as copies
 * in the model: the content an SVD reader gives an object whose derivedFrom names a base and
 * which writes none of it itself (svdconv's SvdDerivedFrom::CopyChilds). The regspec loader
 * applies a derived-from= with them (xmlderive.c). Each copy is a new object of 'a' (no object
 * is shared between two fields), with the base's position (where its text is) and its
 * derived-from as written; a copied set has no header-enum-name (svdconv's
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

#endif
