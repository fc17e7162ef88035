/*
 * bench/monitor.c - the pmon flows of every family on the simulator, run by
 * bench/monitor.sh (`make bench`): register accesses (reads, writes) of the
 * programming flow, of one polling interval and of one sample (none
 * overflowed, every counter overflowed), and the time each poll and sample
 * takes. The events are those of the tests (tests/runtime/flow_cases.h).
 * Numbers are reported, not judged; a flow that fails is an error (exit 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "flow_cases.h"

#define ROUNDS 2000

struct run {
    regc_dev *d;
    regc_pmon_session *p;
    struct flow_env env;
    unsigned n;
};

struct counts {
    double reads, writes, us; /* per call */
};

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static struct regc_stats stats(const struct run *r)
{
    struct regc_stats s;
    regc_get_stats(r->d, &s);
    return s;
}

/* Accesses and time between 'before' (and t0) and now, per call of 'calls'. */
static struct counts since(const struct run *r, struct regc_stats before, double us,
                           unsigned calls)
{
    struct regc_stats s = stats(r);
    return (struct counts){(double)(s.reads - before.reads) / calls,
                           (double)(s.writes - before.writes) / calls, us / calls};
}

static int open_run(struct run *r, const struct regc_spec *spec, const char *const *ev,
                    uint64_t sample, struct counts *start)
{
    struct regc_options o = {.backend = "sim"};
    char err[256];
    if (regc_open(&r->d, spec, &o, err, sizeof(err)) < 0 || regc_pmon_new(&r->p, r->d) < 0) {
        fprintf(stderr, "bench: %s: %s\n", spec->name, err);
        return -1;
    }
    r->env = (struct flow_env){flow_sim_event, flow_sim_batch, regc_dev_sim(r->d)};
    r->n = flow_nev(ev);
    for (unsigned i = 0; i < r->n; i++)
        if (regc_pmon_add(r->p, ev[i]) < 0)
            goto fail;
    struct regc_pmon_opts po = {.sample = sample};
    struct regc_stats b = stats(r);
    double t0 = now_us();
    if (regc_pmon_start(r->p, &po) < 0)
        goto fail;
    *start = since(r, b, now_us() - t0, 1);
    return 0;
fail:
    fprintf(stderr, "bench: %s: %s\n", spec->name, regc_pmon_error(r->p));
    return -1;
}

static void close_run(struct run *r)
{
    regc_pmon_free(r->p);
    regc_close(r->d);
}

/* ROUNDS polls; the events injected between them are not timed. */
static int bench_poll(const struct flow_case *fc, const struct regc_spec *s, struct counts *start,
                      struct counts *poll)
{
    struct run r;
    if (open_run(&r, s, fc->poll_events, 0, start) < 0)
        return -1;
    struct regc_stats b = stats(&r);
    double us = 0;
    int rc = 0;
    for (unsigned k = 0; !rc && k < ROUNDS; k++) {
        for (unsigned i = 0; !rc && i < r.n; i++)
            rc = flow_inject(&r.env, r.p, i, 1000 + i);
        double t0 = now_us();
        rc = rc ? rc : regc_pmon_poll(r.p, NULL);
        us += now_us() - t0;
    }
    *poll = since(&r, b, us, ROUNDS);
    for (unsigned i = 0; !rc && i < r.n; i++)
        if (regc_pmon_total(r.p, i) != (uint64_t)ROUNDS * (1000 + i))
            rc = -1;
    if (rc)
        fprintf(stderr, "bench: %s poll failed: %s\n", fc->spec, regc_pmon_error(r.p));
    close_run(&r);
    return rc;
}

/* ROUNDS samples that find nothing, then ROUNDS where every counter overflows at once. */
static int bench_sample(const struct flow_case *fc, const struct regc_spec *s, struct counts *quiet,
                        struct counts *ovf)
{
    struct run r;
    struct counts start;
    if (open_run(&r, s, fc->sample_events, fc->period, &start) < 0)
        return -1;
    unsigned got = 0, which[FLOW_MAXEV];
    struct regc_stats b = stats(&r);
    double t0 = now_us();
    int rc = 0;
    for (unsigned k = 0; !rc && k < ROUNDS; k++)
        rc = regc_pmon_sample(r.p, which, FLOW_MAXEV, &got) || got ? -1 : 0;
    *quiet = since(&r, b, now_us() - t0, ROUNDS);
    b = stats(&r);
    double us = 0;
    for (unsigned k = 0; !rc && k < ROUNDS; k++) {
        r.env.batch(r.env.ctx, true);
        for (unsigned i = 0; !rc && i < r.n; i++)
            rc = flow_inject(&r.env, r.p, i, fc->period + 1);
        r.env.batch(r.env.ctx, false);
        t0 = now_us();
        rc = rc ? rc : regc_pmon_sample(r.p, which, FLOW_MAXEV, &got) || got != r.n ? -1 : 0;
        us += now_us() - t0;
    }
    *ovf = since(&r, b, us, ROUNDS);
    if (rc)
        fprintf(stderr, "bench: %s sample failed (%u overflows): %s\n", fc->spec, got,
                regc_pmon_error(r.p));
    close_run(&r);
    return rc;
}

static void row(const char *spec, const char *what, unsigned n, struct counts c)
{
    printf("%-14s %-16s %6u %8.1f %8.1f %9.2f %10.2f\n", spec, what, n, c.reads, c.writes,
           (c.reads + c.writes) / n, c.us);
}

int main(void)
{
    printf("%-14s %-16s %6s %8s %8s %9s %10s\n", "family", "flow", "events", "reads", "writes",
           "acc/event", "us/call");
    for (size_t i = 0; i < FLOW_NCASES; i++) {
        const struct flow_case *fc = &flow_cases[i];
        const struct regc_spec *s = flow_spec(fc->spec);
        struct counts start, poll, quiet, ovf;
        if (!s || bench_poll(fc, s, &start, &poll) < 0 || bench_sample(fc, s, &quiet, &ovf) < 0)
            return 1;
        unsigned np = flow_nev(fc->poll_events), ns = flow_nev(fc->sample_events);
        row(fc->spec, "start (poll)", np, start);
        row(fc->spec, "poll interval", np, poll);
        row(fc->spec, "sample, none", ns, quiet);
        row(fc->spec, "sample, all ovf", ns, ovf);
    }
    printf("(reads, writes: register accesses per call, from the device's counters; acc/event:\n"
           " both per event of the call; us/call: wall time per call on the simulator, %d calls)\n",
           ROUNDS);
    return 0;
}
