/*
 * grow - the one array-growth helper of the compiler and the runtime.
 *
 * An array 'v' of 'size'-byte items with room for '*cap' of them is made to
 * hold at least 'need' (doubling, at least 8), so appending costs amortised
 * constant time. Like realloc(), it never frees 'v' on failure:
 *
 *   struct sim_reg *n = regc_grow(sim->regs, &sim->regs_cap, sim->nregs + 1, sizeof(*n));
 *   if (!n)
 *       return -ENOMEM;          // sim->regs is still valid and still owned
 *   sim->regs = n;
 *
 * The compiler, where running out of memory is fatal, calls xgrow() (util.h).
 * Built into both regc and libregrt (common/, see the Makefile); regc_ names
 * because libregrt.a is linked into users' programs.
 */
#ifndef REGC_GROW_H
#define REGC_GROW_H

#include <stddef.h>

/*
 * Returns 'v' (already large enough) or a reallocated array with room for at
 * least 'need' items ('*cap' updated), or NULL when memory runs out or the
 * size overflows ('v' and '*cap' untouched). The caller releases it with free().
 */
void *regc_grow(void *v, size_t *cap, size_t need, size_t size);

#endif
