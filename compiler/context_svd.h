/*
 * context_svd - the "svd" key of the template tree: the model in the shape
 * of a CMSIS-SVD file, for templates/svd.mustache (docs/svd.md, "-t svd").
 *
 * SVD nests what the model keeps flat (clusters hold registers, a derived
 * peripheral is an element of its own), so the tree is built in SVD's
 * order: device, peripherals (a block's first instance with its registers,
 * every other instance derivedFrom it), then registers and clusters as
 * written: register arrays and cluster arrays keep dim, dimIncrement and
 * dimIndex; a "%s" list or a "NAME[%s]" cluster array the reader expanded
 * is written as one again when its elements still form one. Every value is a ready SVD spelling
 * (access words, 0x numbers); the template escapes text.
 */
#ifndef REGC_CONTEXT_SVD_H
#define REGC_CONTEXT_SVD_H

#include "arena.h"
#include "diag.h"
#include "dt.h"
#include "model.h"

/*
 * SVD describes memory-mapped registers only: reports an error at the first
 * register of another space (naming it and its space) and returns -1. Else
 * reports what -t svd leaves out (svd-out-dropped: the dimArrayIndex of a
 * peripheral that is no array) and returns -1 when that was an error
 * (--strict, -Werror), 0 otherwise.
 */
int context_svd_check(struct diag *dg, const struct model_spec *s);
/* The same without a report: true when every register is memory-mapped. */
bool context_svd_fits(const struct model_spec *s);

/* The "svd" object for 's' (checked, every register mmio), owned by 'a'. */
struct dt *context_svd(struct arena *a, const struct model_spec *s);

#endif
