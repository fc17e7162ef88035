/*
 * svd_against - the disagreements between a model read from SVD and a vendor
 * C header's _Pos/_Msk macros (regc DEVICE.svd --against VENDOR.h).
 */
#ifndef REGC_SVD_AGAINST_H
#define REGC_SVD_AGAINST_H

#include "arena.h"
#include "diag.h"
#include "model.h"

#include <stdio.h>

/*
 * Prints to 'out' one line per NAME that the header defines as NAME_Pos and
 * NAME_Msk and the SVD names (svdconv's PERIPH_REG_FIELD) with another
 * position or mask, in the header's order, and the count to stderr.
 * Returns 0 when they agree, 1 when some disagree, -1 when the header
 * cannot be read (reported into 'dg' as DIAG_IO). 'header' is borrowed.
 */
int svd_against(struct arena *a, struct diag *dg, const struct model_spec *spec, const char *header,
                FILE *out);

#endif
