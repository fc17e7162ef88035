/*
 * sample_qpi - user-space sampling with libregrt: an overflow every N events.
 *
 *   sample_qpi [--backend sim|msr|pci] [N]
 *
 * Counts QPI port 0 data flits and home-agent 0 reads on an E5-2600 v2,
 * sampling every N events (default 1000): the counters are preloaded with
 * 2^48 - N; each regc_pmon_sample() finds the overflowed counters through
 * U_MSR_PMON_GLOBAL_STATUS, then the boxes' status (several may overflow
 * at once), clears the bits and re-arms. On the simulator (the default) the
 * program makes the events happen itself and checks the totals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e5_2600v2_tables.h"
#include "regc/pmon.h"
#include "regc/regc.h"
#include "regc/sim.h"

static const char *const events[] = {"qpi[p0]:TxL_FLITS_G0.DATA", "ha[ha0]:REQUESTS.READS"};
enum { NEV = 2 };

/* Simulator only: n occurrences of each event in one interval; they reach the counters whose
 * control bits encode them. */
static void make_events(regc_dev *d, uint64_t n)
{
    regc_sim *sim = regc_dev_sim(d);
    for (unsigned i = 0; i < NEV; i++)
        regc_sim_rate(sim, events[i], (int64_t)n);
    regc_sim_interval(sim);
}

int main(int argc, char **argv)
{
    const char *backend = "sim";
    uint64_t period = 1000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc)
            backend = argv[++i];
        else
            period = strtoull(argv[i], NULL, 0);
    }
    bool sim = strcmp(backend, "sim") == 0;
    struct regc_options o = {.backend = backend};
    char err[256];
    regc_dev *d;
    if (regc_open(&d, &e5_2600v2_spec, &o, err, sizeof(err)) < 0) {
        fprintf(stderr, "sample_qpi: %s\n", err);
        return 1;
    }
    regc_pmon_session *p;
    int rc = regc_pmon_new(&p, d);
    for (unsigned i = 0; !rc && i < NEV; i++)
        rc = regc_pmon_add(p, events[i]);
    struct regc_pmon_opts po = {.sample = period, .pmi_cores = 1};
    if (!rc)
        rc = regc_pmon_start(p, &po);
    for (int round = 0; !rc && round < 5; round++) {
        if (sim)
            make_events(d, period + (uint64_t)round); /* each round overflows both counters */
        unsigned which[NEV], n;
        rc = regc_pmon_sample(p, which, NEV, &n);
        for (unsigned k = 0; !rc && k < n; k++)
            printf("round %d: overflow of %s (%lu so far)\n", round, events[which[k]],
                   regc_pmon_overflows(p, which[k]));
    }
    if (!rc)
        rc = regc_pmon_release(p); /* frozen, and the registers as start found them */
    if (rc)
        fprintf(stderr, "sample_qpi: %s\n", regc_pmon_error(p));
    uint64_t want = 5 * period + 10; /* sum of period + round, rounds 0..4 */
    for (unsigned i = 0; !rc && i < NEV; i++) {
        printf("%s: %llu events, %lu overflows\n", events[i],
               (unsigned long long)regc_pmon_total(p, i), regc_pmon_overflows(p, i));
        if (sim && (regc_pmon_total(p, i) != want || regc_pmon_overflows(p, i) != 5))
            rc = 1;
    }
    regc_pmon_free(p);
    regc_close(d);
    return rc ? 1 : 0;
}
