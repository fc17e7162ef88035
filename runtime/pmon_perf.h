/*
 * pmon_perf - the monitoring session's perf_event path (runtime/pmon_perf.c);
 * not installed.
 *
 * On a device of the perf backend, regc_pmon_start programs no register:
 * the kernel's uncore driver owns the boxes. The session hands each event
 * (its full control value, and the settings of the box's other registers)
 * here; this opens one perf event per added event on the PMU of its box,
 * one group per PMU (per PMU and multiplexing group when the events are more
 * than the box's counters: the kernel rotates the groups), and poll and sample read the counts (one read() per
 * group) and the overflows (the sample records of each event's ring buffer).
 * runtime/pmon.c calls it in one delimited section ("the perf_event path").
 */
#ifndef REGC_PMON_PERF_H
#define REGC_PMON_PERF_H

#include "regc/perf.h"
#include "regc/pmon.h"

#define REGC__PMON_MAX_SETTINGS 8

/* One event of a session, as pmon.c hands it over (it is never called back). */
struct regc__pmon_event {
    struct regc_pmon_info info; /* regc_pmon_info(): block, instance, counters, control */
    uint64_t ctl;               /* the control value the register flow would write */
    struct regc_perf_setting sets[REGC__PMON_MAX_SETTINGS]; /* the box's other registers */
    unsigned nsets;
};

struct regc__pmon_perf;

/* Is d a device of the perf backend? */
bool regc__pmon_perf_wanted(const regc_dev *d);

/*
 * Builds every event's config, opens the events (not in a dry run: the
 * configs are built, nothing is opened) and enables the groups. 0 and *out
 * set (caller releases with regc__pmon_perf_free), or -errno with a message
 * in err and nothing left open.
 */
int regc__pmon_perf_start(struct regc__pmon_perf **out, const struct regc__pmon_event *evs,
                          unsigned n, regc_dev *d, const struct regc_pmon_opts *opt, char *err,
                          size_t errlen);

/*
 * Reads every group once: totals[i] receives event i's count since start;
 * overflows (may be NULL) event i's overflows since start (sampled events:
 * the ring buffer's records); enabled and running (may be NULL) its group's
 * times (ns; running < enabled: the kernel multiplexed it). 0, or -errno
 * with a message in err.
 */
int regc__pmon_perf_read(struct regc__pmon_perf *pp, uint64_t *totals, unsigned long *overflows,
                         uint64_t *enabled, uint64_t *running, char *err, size_t errlen);

/* Disables every group (counts stay readable); 0 or the first failure. */
int regc__pmon_perf_stop(struct regc__pmon_perf *pp, char *err, size_t errlen);

/* Closes everything (NULL: nothing). */
void regc__pmon_perf_free(struct regc__pmon_perf *pp);

/* Event i's perf event (regc_pmon_perf_event). 0, or -ENOENT. */
int regc__pmon_perf_info(const struct regc__pmon_perf *pp, unsigned i, struct regc_pmon_perf *out);

#endif
