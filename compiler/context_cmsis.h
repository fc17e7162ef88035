/*
 * context_cmsis - the "cmsis" object of the templates' data tree: what
 * templates/cmsis.mustache needs to write the drop-in CMSIS device header
 * svdconv writes (docs/svd.md, "The CMSIS header"). The struct overlay is
 * laid out here (members of the registers' access widths, RESERVED padding,
 * clusters as nested struct types, overlapping registers as unions), since
 * mustache has no arithmetic; the template only prints it. Kept apart from
 * context.c so the keys are built in one place for the whole tree and the
 * lazy one, and only when a template reads them.
 */
#ifndef REGC_CONTEXT_CMSIS_H
#define REGC_CONTEXT_CMSIS_H

#include "arena.h"
#include "diag.h"
#include "dt.h"
#include "model.h"

/*
 * The object, owned by 'a'; null (dt_null()) when the spec has a register
 * outside memory space (a CMSIS header describes memory-mapped registers).
 */
struct dt *context_cmsis(struct arena *a, const struct model_spec *s);

/*
 * The CMSIS header describes memory-mapped registers only: 0 when every
 * register of 's' is in space mmio, else -1 after an error naming the first
 * other register and its space.
 */
int context_cmsis_check(struct diag *dg, const struct model_spec *s);

#endif
