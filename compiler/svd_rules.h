/*
 * svd_rules - a field's writeConstraint (range, useEnumeratedValues) as a
 * rule of its register: used by the SVD reader and by the regspec loader
 * for write-constraint= (docs/svd.md, docs/regspec.md).
 */
#ifndef REGC_SVD_RULES_H
#define REGC_SVD_RULES_H

#include "arena.h"
#include "diag.h"
#include "model.h"

/* Appends to r's rules one per field with a range or enumerated writeConstraint; what no value
 * can meet, or is cut to the field, is a svd-write-constraint warning. */
void svd_write_rules(struct arena *a, struct diag *dg, struct model_reg *r);

#endif
