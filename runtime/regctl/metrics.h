/*
 * metrics.h - `regctl metrics [SPEC] [PATTERN]` and the --metric NAME of
 * `regctl monitor` (metrics.c): a spec's metrics (<metric>), the events each
 * needs, and their values from the counts monitor took.
 */
#ifndef REGCTL_METRICS_H
#define REGCTL_METRICS_H

#include "regc/metric.h"
#include "regc/pmon.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* regctl metrics [SPEC] [PATTERN]; argv after the command. Exit status: 0, 1 (no match), 2. */
int regctl_metrics(bool json, int argc, char **argv);

#define REGCTL_MAX_METRICS 16
#define REGCTL_METRIC_EVENT_MAX 256 /* BLOCK[INSTANCE]:EVENT.SUB */
#define REGCTL_METRIC_MAX_EVENTS 64 /* events the metrics of one run add; more are refused, naming it */

/* A metric monitor computes: term j sums the monitor events slots[first[j] .. first[j] + count[j]). */
struct regctl_metric_use {
    const struct regc_metric *m;
    unsigned nterms;
    unsigned first[REGCTL_METRIC_MAX_EVENTS], count[REGCTL_METRIC_MAX_EVENTS];
};

/* monitor's --metric requests; zero-initialised; owns nothing on the heap. */
struct regctl_metrics {
    const char *names[REGCTL_MAX_METRICS]; /* as given, borrowed from argv */
    unsigned nnames;
    struct regctl_metric_use use[REGCTL_MAX_METRICS];
    unsigned n;
    unsigned slots[REGCTL_METRIC_MAX_EVENTS * 2];
    unsigned nslots;
    char owned[REGCTL_METRIC_MAX_EVENTS][REGCTL_METRIC_EVENT_MAX]; /* event strings made here: no
                                                                 allocation, nothing to free */
    unsigned nowned;
};

/* --metric NAME: remembered until the spec is known. 0, or 2 with a message. */
int regctl_metrics_request(struct regctl_metrics *ms, const char *name);

/*
 * Resolves the requested metrics in 's' and appends the events they need to
 * events[0 .. *nev) (an event already there is shared, not added twice), at
 * most 'max' in all. 0, or 2 with a message (no such metric, too many events).
 */
int regctl_metrics_plan(struct regctl_metrics *ms, const struct regc_spec *s, const char **events,
                        unsigned *nev, unsigned max);

/* Metric k's value from counts[] of monitor's events and the seconds they cover (NaN: n/a). */
double regctl_metrics_value(const struct regctl_metrics *ms, unsigned k, const uint64_t *counts,
                            double seconds);

/* A value as the text output prints it: "%.6g", or "n/a" for NaN. Returns buf. */
const char *regctl_metric_text(double v, char *buf, size_t len);

/* Text: a line per metric, "LABEL  metric NAME  VALUE UNIT", LABEL right-aligned in 8. */
void regctl_metrics_print(const struct regctl_metrics *ms, FILE *out, const char *label,
                          const uint64_t *counts, double seconds);

/* CSV: "LABEL,SOCKET,metric:NAME,VALUE" per metric, VALUE empty when n/a; then the unit. */
void regctl_metrics_csv(const struct regctl_metrics *ms, FILE *out, const char *label,
                        const char *socket, const uint64_t *counts, double seconds);

/* JSON: {"NAME": {"value": V or null, "unit": U}, ...}; a new reference. */
json_t *regctl_metrics_json(const struct regctl_metrics *ms, const uint64_t *counts,
                            double seconds);


#endif
