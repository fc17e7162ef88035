/*
 * aggregate.h - `regctl monitor`'s events over every box of a type (aggregate.c; docs/monitoring.md
 * "Every box of a type"): merged by the session (regc_pmon_every_box), or one column per box with
 * --per-box (perf's --no-merge).
 */
#ifndef REGCTL_AGGREGATE_H
#define REGCTL_AGGREGATE_H

#include "regc/regc.h"

/*
 * --per-box: each event that names no box of a block of several becomes one event per box
 * (regc_pmon_boxes), in order; the others stay. *out (n_out strings, owned: free with
 * regc_pmon_boxes_free) replaces the list. 0, or 1 with a message (out of memory).
 */
int regctl_agg_per_box(const struct regc_spec *s, const char *const *events, unsigned n,
                       char ***out, unsigned *n_out);

#endif
