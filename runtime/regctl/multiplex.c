/*
 * multiplex - the percentage running of `regctl monitor`'s events (multiplex.h). The scaling
 * itself (counts x enabled / running) is the session's: regc_pmon_total is already the estimate.
 */
#include "multiplex.h"

#include <stdio.h>

double regctl_mux_percent(regc_pmon_session *const *p, int n, unsigned i, bool *muxed)
{
    uint64_t enabled = 0, running = 0;
    *muxed = false;
    for (int k = 0; k < n; k++) {
        uint64_t e, r;
        struct regc_pmon_info in;
        regc_pmon_running(p[k], i, &e, &r);
        enabled += e, running += r;
        for (unsigned b = 0; regc_pmon_box_info(p[k], i, b, &in) == 0; b++)
            *muxed |= in.groups > 1;
    }
    return enabled ? 100.0 * (double)running / (double)enabled : 100.0;
}

void regctl_mux_note(regc_pmon_session *const *p, int n, const char *const *names, unsigned nev)
{
    for (unsigned i = 0; i < nev; i++) {
        bool muxed;
        double pct = regctl_mux_percent(p, n, i, &muxed);
        struct regc_pmon_info in, most = {0};
        for (unsigned b = 0; muxed && regc_pmon_box_info(p[0], i, b, &in) == 0; b++)
            if (in.groups > most.groups)
                most = in; /* the box of the most groups: one whose rotation it shares */
        if (!muxed || !most.block)
            continue;
        printf("%s: on a counter %.2f%% of the time (multiplexed: %u groups rotate on %s%s%s%s); "
               "counts scaled by time enabled / time running\n",
               names[i], pct, most.groups, most.block->name, most.instance ? "[" : "",
               most.instance ? most.instance->name : "", most.instance ? "]" : "");
    }
}

json_t *regctl_mux_raw_json(regc_pmon_session *const *p, int n, unsigned nev)
{
    json_t *a = json_array();
    for (unsigned i = 0; i < nev; i++) {
        uint64_t sum = 0;
        for (int k = 0; k < n; k++)
            sum += regc_pmon_raw(p[k], i);
        json_array_append_new(a, json_integer((json_int_t)sum));
    }
    return a;
}

json_t *regctl_mux_json(regc_pmon_session *const *p, int n, unsigned nev)
{
    json_t *a = json_array();
    for (unsigned i = 0; i < nev; i++) {
        bool muxed;
        json_array_append_new(a, json_real(regctl_mux_percent(p, n, i, &muxed)));
    }
    return a;
}
