/*
 * multiplex.h - how `regctl monitor` shows multiplexed events (multiplex.c; docs/monitoring.md
 * "More events than counters"): the share of the time each was on a counter, as perf's
 * "(50.00%)".
 */
#ifndef REGCTL_MULTIPLEX_H
#define REGCTL_MULTIPLEX_H

#include <jansson.h>
#include <stdbool.h>

#include "regc/pmon.h"

/* Event i's time running over time enabled in percent, summed over the n sessions (sockets); 100
 * when nothing rotated. *muxed: some box of it rotates. */
double regctl_mux_percent(regc_pmon_session *const *p, int n, unsigned i, bool *muxed);

/* Text: after the counts, one line per multiplexed event: its groups and percentage running. */
void regctl_mux_note(regc_pmon_session *const *p, int n, const char *const *names, unsigned nev);

/* --json: [percent running per event] */
json_t *regctl_mux_json(regc_pmon_session *const *p, int n, unsigned nev);

/* --json: [counts as read, unscaled, per event] (regc_pmon_raw), summed over the sessions */
json_t *regctl_mux_raw_json(regc_pmon_session *const *p, int n, unsigned nev);

#endif
