/*
 * model_metric - what the outputs derive from a checked <metric>: perf's
 * MetricExpr and ScaleUnit, the scale as a C double literal. One place, so
 * the context tree (templates) and the JSON export say the same.
 */
#ifndef REGC_MODEL_METRIC_H
#define REGC_MODEL_METRIC_H

#include "arena.h"
#include "model.h"

#include <stdint.h>

/*
 * perf's MetricExpr for 'm' (events by their perfmon alias, which perf sums
 * over every box of the PMU type; "seconds" as duration_time; a term with
 * settings by model_metric_perf_alias), owned by 'a'; NULL when perf cannot
 * express it: it names no event, a term names an instance, an event has no
 * perfmon alias, or a setting has no kernel format name.
 */
char *model_metric_perf_expr(struct arena *a, const struct model_metric *m);

/*
 * A term with settings in perf's JSON: an event alias of its own, named
 * "PERFMON.FORMAT_0xVALUE..." (model_metric_perf_alias), whose Filter holds
 * the settings as the kernel's sysfs formats name them
 * (model_metric_perf_settings: "filter_state=0x3f"; a control field by its
 * name, a box filter by its <filter perf=>). NULL: no settings, or one
 * without a format name (perf cannot program it). Owned by 'a'.
 */
char *model_metric_perf_alias(struct arena *a, const struct model_metric_term *t);
char *model_metric_perf_settings(struct arena *a, const struct model_metric_term *t);

/* perf's ScaleUnit: the scale as written (or "1") followed by the unit, e.g. "1e-9GB/s"; owned by 'a'. */
char *model_metric_scale_unit(struct arena *a, const struct model_metric *m);

/*
 * The control encoding term 't' programs: its event's (model_event_encoding)
 * with the settings of the control register's fields in place of those
 * fields' bits (model_metric_term_mask: their mask); the settings
 * of other registers (box filters) are in t->sets and t->settings.
 */
uint64_t model_metric_term_encoding(const struct model_metric_term *t);
uint64_t model_metric_term_mask(const struct model_metric_term *t);

/* The scale as a C double literal ("1e-9", "100.0"); owned by 'a'. */
char *model_metric_c_scale(struct arena *a, const struct model_metric *m);

#endif
