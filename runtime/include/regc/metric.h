/*
 * regc/metric.h - the metrics of a spec (<metric>, docs/regspec.md "Metrics"):
 * find one, and evaluate its formula over counts.
 *
 * A metric's value is its formula, evaluated over the counts of its events
 * (m->events[i]; an event without an instance is the sum over every instance
 * of its block) and the seconds they were taken over, times m->scale, in
 * m->unit. A division by zero gives NaN (shown "n/a"), never a trap.
 */
#ifndef REGC_METRIC_H
#define REGC_METRIC_H

#include <stddef.h>

#include "regc/regc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The metric of 's' named 'name', or NULL. */
REGC_API const struct regc_metric *regc_spec_metric(const struct regc_spec *s, const char *name);

/* The number of events m names (the length of m->events). */
REGC_API size_t regc_metric_nevents(const struct regc_metric *m);

/*
 * (formula x scale) over counts[0 .. regc_metric_nevents(m) - 1] (borrowed)
 * and 'seconds'. NaN when a denominator is 0 or NaN, when the value is not
 * finite (an overflow), or when the postfix
 * form is malformed (tables regc did not write: a stack under- or overflow,
 * an event index out of range).
 */
REGC_API double regc_metric_eval(const struct regc_metric *m, const double *counts,
                                 double seconds);

#ifdef __cplusplus
}
#endif

#endif
