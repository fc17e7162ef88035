/*
 * context_metric - the "metrics" list of the templates' data tree: one
 * object per <metric> of a checked spec (docs/json.md, "metrics"). Kept
 * apart from context.c so that the metric keys are built in one place for
 * the whole tree and the lazy one.
 */
#ifndef REGC_CONTEXT_METRIC_H
#define REGC_CONTEXT_METRIC_H

#include "arena.h"
#include "dt.h"
#include "model.h"

/* The list, owned by 'a'; 'prefix' is the C prefix in force. Never NULL (empty: no metrics). */
struct dt *context_metrics(struct arena *a, const struct model_spec *s, const char *prefix);

#endif
