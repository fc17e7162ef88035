/* test_flow_sim - the pmon flows of every family on the simulator: exact totals, overflows, access
 * order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "flow_cases.h"

struct fx {
    const struct flow_case *fc;
    regc_dev *d;
    regc_pmon_session *p;
    struct flow_trace *trace;
};

static struct fx *open_fx(const struct flow_case *fc, const char *const *ev, bool trace)
{
    struct fx *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->fc = fc;
    const struct regc_spec *s = flow_spec(fc->spec);
    assert_non_null(s);
    f->trace = trace ? calloc(1, sizeof(*f->trace)) : NULL;
    struct regc_options o = {
        .backend = "sim", .trace = trace ? flow_trace_fn : NULL, .trace_ctx = f->trace};
    char err[256];
    assert_int_equal(regc_open(&f->d, s, &o, err, sizeof(err)), 0);
    assert_int_equal(regc_pmon_new(&f->p, f->d), 0);
    for (unsigned i = 0; i < flow_nev(ev); i++)
        if (regc_pmon_add(f->p, ev[i]) != 0)
            fail_msg("%s: add %s: %s", fc->spec, ev[i], regc_pmon_error(f->p));
    return f;
}

static void close_fx(struct fx *f)
{
    regc_pmon_free(f->p);
    regc_close(f->d);
    free(f->trace);
    free(f);
}

static void start_fx(struct fx *f, uint64_t sample)
{
    struct regc_pmon_opts o = {.sample = sample};
    if (regc_pmon_start(f->p, &o) != 0)
        fail_msg("%s: start: %s", f->fc->spec, regc_pmon_error(f->p));
}

/* Polling: counts that wrap several times come out exact. */
static void poll_case(const struct flow_case *fc)
{
    struct fx *f = open_fx(fc, fc->poll_events, false);
    start_fx(f, 0);
    regc_sim *sim = regc_dev_sim(f->d);
    struct flow_env env = {flow_sim_event, flow_sim_batch, sim};
    char why[256];
    if (flow_run_poll(f->p, &env, why, sizeof(why)) != 0)
        fail_msg("%s: %s", fc->spec, why);
    /* frozen after stop: events are not counted (the last event of each case is in a box that can
       be frozen; the E5-2600 U-Box cannot) */
    unsigned last = regc_pmon_count(f->p) - 1;
    uint64_t totals[FLOW_MAXEV], before = regc_pmon_total(f->p, last);
    for (unsigned i = 0; i <= last; i++)
        assert_int_equal(flow_inject(&env, f->p, i, 5), 0);
    assert_int_equal(regc_pmon_stop(f->p), 0);
    assert_int_equal(regc_pmon_poll(f->p, totals), 0); /* poll unfreezes again, after reading */
    assert_int_equal(totals[last], before);
    close_fx(f);
}

/* Sampling: two counters (two boxes where the family has them) overflow in the same cycle; both
 * reported. */
static void sample_case(const struct flow_case *fc)
{
    struct fx *f = open_fx(fc, fc->sample_events, false);
    start_fx(f, fc->period);
    struct flow_env env = {flow_sim_event, flow_sim_batch, regc_dev_sim(f->d)};
    char why[256];
    if (flow_run_sample(f->p, &env, fc->period, why, sizeof(why)) != 0)
        fail_msg("%s: %s", fc->spec, why);
    close_fx(f);
}

/* Rates far above the period: each whole period counted (flow_run_fast_sample). */
static void t_fast_sample(void **state)
{
    const struct flow_case *fc = *state;
    struct fx *f = open_fx(fc, fc->sample_events, false);
    start_fx(f, fc->period);
    struct flow_env env = {flow_sim_event, flow_sim_batch, regc_dev_sim(f->d)};
    char why[256];
    if (flow_run_fast_sample(f->p, &env, fc->period, why, sizeof(why)) != 0)
        fail_msg("%s: %s", fc->spec, why);
    close_fx(f);
}

static void save(const char *spec, const char *kind, const struct flow_trace *t)
{
    char path[256];
    mkdir("build", 0755);
    mkdir("build/flows", 0755);
    snprintf(path, sizeof(path), "build/flows/%s-%s.actual", spec, kind);
    FILE *o = fopen(path, "w");
    if (o) {
        fwrite(t->buf, 1, t->len, o);
        fclose(o);
    }
}

/* The ordered accesses of start + poll (or start + sample) match the reviewed sequence. */
static void trace_case(const struct flow_case *fc, bool sampling)
{
    const char *kind = sampling ? "sample" : "poll";
    struct fx *f = open_fx(fc, sampling ? fc->sample_events : fc->poll_events, true);
    start_fx(f, sampling ? fc->period : 0);
    regc_sim *sim = regc_dev_sim(f->d);
    struct flow_env env = {flow_sim_event, flow_sim_batch, sim};
    unsigned got, n = regc_pmon_count(f->p);
    if (sampling) {
        regc_sim_batch(sim, true);
        for (unsigned i = 0; i < n; i++)
            assert_int_equal(flow_inject(&env, f->p, i, fc->period + 1), 0);
        regc_sim_batch(sim, false);
        assert_int_equal(regc_pmon_sample(f->p, NULL, 0, &got), 0);
    } else {
        for (unsigned i = 0; i < n; i++)
            assert_int_equal(flow_inject(&env, f->p, i, 100 + i), 0);
        assert_int_equal(regc_pmon_poll(f->p, NULL), 0);
    }
    save(fc->spec, kind, f->trace);
    char path[256], why[512];
    snprintf(path, sizeof(path), "tests/runtime/flows/%s-%s.expected", fc->spec, kind);
    if (flow_compare(path, f->trace->buf, why, sizeof(why)) != 0)
        fail_msg("%s (actual in build/flows/%s-%s.actual)", why, fc->spec, kind);
    close_fx(f);
}

static void t_poll(void **state)
{
    poll_case(*state);
}
static void t_sample(void **state)
{
    sample_case(*state);
}
static void t_poll_trace(void **state)
{
    trace_case(*state, false);
}
static void t_sample_trace(void **state)
{
    trace_case(*state, true);
}

/* Errors: unknown names, bad syntax, too many events for the counters. */
static void t_errors(void **state)
{
    (void)state;
    struct fx *f = open_fx(&flow_cases[0], (const char *const[]){NULL}, false);
    assert_int_equal(regc_pmon_add(f->p, "nobox:X"), -ENOENT);
    assert_non_null(strstr(regc_pmon_error(f->p), "no block 'nobox'"));
    assert_int_equal(regc_pmon_add(f->p, "qpi[p9]:CLOCKTICKS"), -ENOENT);
    assert_int_equal(regc_pmon_add(f->p, "qpi:NO_SUCH_EVENT"), -ENOENT);
    assert_int_equal(regc_pmon_add(f->p, "qpi"), -EINVAL);
    assert_int_equal(regc_pmon_add(f->p, "qpi[p0:CLOCKTICKS"), -EINVAL);
    assert_int_equal(regc_pmon_add(f->p, "qpi:CLOCKTICKS,thresh"), -EINVAL);
    assert_int_equal(regc_pmon_add(f->p, "qpi:CLOCKTICKS,nofield=1"), -ENOENT);
    assert_int_equal(regc_pmon_add(f->p, "qpi:raw,thresh=1"), -EINVAL);
    assert_int_equal(regc_pmon_add(f->p, "ha:fixed"), -ENOENT);
    assert_int_equal(regc_pmon_start(f->p, NULL), -EINVAL);
    /* the U-Box has two counters: a third event does not fit (three sub-events: three asks for
     * one event would share one counter) */
    const char *const three[] = {"ubox:EVENT_MSG.DOORBELL_RCVD", "ubox:EVENT_MSG.INT_PRIO",
                                 "ubox:EVENT_MSG.IPI_RCVD"};
    for (int i = 0; i < 3; i++)
        assert_int_equal(regc_pmon_add(f->p, three[i]), 0);
    assert_int_equal(regc_pmon_start(f->p, NULL), -EBUSY);
    /* the message names the box, its counters (guide 329468 Table 2-5: U_MSR_PMON_CTR0-1) and
     * the events; multiplexing (opts.multiplex) is off by default */
    assert_non_null(strstr(regc_pmon_error(f->p), "ubox has 2 counters U_MSR_PMON_CTR (0..1), 3 "
                                                  "events want them"));
    assert_non_null(strstr(regc_pmon_error(f->p), "multiplexing is off"));
    close_fx(f);
}

/* E5-2600 v2 iMC: the box status has the fixed counter at bit 0 and the general counters at
   bits 4:1 (status-first); both overflows are found through it, with the right bits cleared. */
static void t_imc_status_first(void **state)
{
    (void)state;
    const char *const ev[] = {"imc[mc0_ch1]:fixed", "imc[mc0_ch1]:CAS_COUNT.RD", NULL};
    struct fx *f = open_fx(&flow_cases[0], ev, true);
    start_fx(f, 500);
    struct flow_env env = {flow_sim_event, flow_sim_batch, regc_dev_sim(f->d)};
    env.batch(env.ctx, true);
    assert_int_equal(flow_inject(&env, f->p, 0, 501), 0);
    assert_int_equal(flow_inject(&env, f->p, 1, 501), 0);
    env.batch(env.ctx, false);
    f->trace->len = 0;
    f->trace->buf[0] = '\0';
    unsigned which[2], got;
    assert_int_equal(regc_pmon_sample(f->p, which, 2, &got), 0);
    assert_int_equal(got, 2);
    assert_non_null(strstr(f->trace->buf, "rd imc.mc0_ch1.MC_CHy_PCI_PMON_BOX_STATUS 0x3\n"));
    assert_non_null(strstr(f->trace->buf, "wr imc.mc0_ch1.MC_CHy_PCI_PMON_BOX_STATUS 0x3\n"));
    /* the global status names iMC 0 (ov_m0) */
    assert_non_null(strstr(f->trace->buf, "rd ubox.U_MSR_PMON_GLOBAL_STATUS 0x100000\n"));
    close_fx(f);
}

/* MSR boxes through one device, PCI boxes through another (regc_pmon_set_pci_device). */
static void t_pci_device(void **state)
{
    (void)state;
    regc_sim *sim;
    assert_int_equal(regc_sim_new(&sim, flow_spec("e5_2600v2")), 0);
    struct flow_trace *tm = calloc(1, sizeof(*tm)), *tp = calloc(1, sizeof(*tp));
    struct regc_options om = {
        .backend = "sim", .sim = sim, .trace = flow_trace_fn, .trace_ctx = tm};
    struct regc_options op = {
        .backend = "sim", .sim = sim, .trace = flow_trace_fn, .trace_ctx = tp};
    regc_dev *dm, *dp;
    char err[256];
    assert_int_equal(regc_open(&dm, flow_spec("e5_2600v2"), &om, err, sizeof(err)), 0);
    assert_int_equal(regc_open(&dp, flow_spec("e5_2600v2"), &op, err, sizeof(err)), 0);
    regc_pmon_session *p;
    assert_int_equal(regc_pmon_new(&p, dm), 0);
    regc_pmon_set_pci_device(p, dp);
    assert_int_equal(regc_pmon_add(p, "qpi[p0]:TxL_FLITS_G0.DATA"), 0);
    assert_int_equal(regc_pmon_add(p, "ubox:EVENT_MSG.DOORBELL_RCVD"), 0);
    assert_int_equal(regc_pmon_start(p, NULL), 0);
    struct flow_env env = {flow_sim_event, flow_sim_batch, sim};
    assert_int_equal(flow_inject(&env, p, 0, 77), 0);
    assert_int_equal(flow_inject(&env, p, 1, 88), 0);
    uint64_t t[2];
    assert_int_equal(regc_pmon_poll(p, t), 0);
    assert_int_equal(t[0], 77);
    assert_int_equal(t[1], 88);
    assert_null(strstr(tm->buf, "qpi."));  /* no PCI register through the MSR device */
    assert_null(strstr(tp->buf, "ubox.")); /* and no MSR through the PCI one */
    assert_non_null(strstr(tp->buf, "rd qpi.p0.Q_Py_PCI_PMON_CTR0 0x4d"));
    regc_pmon_free(p);
    regc_close(dp);
    regc_close(dm);
    regc_sim_free(sim);
    free(tm);
    free(tp);
}

/* The case of a spec by name. */
static const struct flow_case *flow_case_of(const char *spec)
{
    for (size_t i = 0; i < FLOW_NCASES; i++)
        if (strcmp(flow_cases[i].spec, spec) == 0)
            return &flow_cases[i];
    fail_msg("no flow case %s", spec);
    return NULL;
}

/* Xeon 7500 M-Box counting down (count_mode 01): the polled totals stay exact across several
 * underflows (each delta is old - new modulo 2^48), and the counters really count down. */
static void t_mbox_down_poll(void **state)
{
    (void)state;
    const char *const ev[] = {"mbox[mbox0]:DSP_FILL,dir=down", "mbox[mbox1]:CYCLES_MFULL,dir=down",
                              "mbox[mbox1]:DSP_FILL", NULL};
    struct fx *f = open_fx(flow_case_of("xeon7500_mbox"), ev, true);
    start_fx(f, 0);
    struct regc_pmon_info in;
    assert_int_equal(regc_pmon_info(f->p, 0, &in), 0);
    assert_int_equal(in.direction, REGC_DIR_DOWN);
    assert_int_equal(regc_pmon_info(f->p, 2, &in), 0);
    assert_int_equal(in.direction, REGC_DIR_UP);
    /* count_mode 01 in the control (0x45: en, count_mode 01, wrap_mode), counting from 2^48-1 */
    assert_non_null(strstr(f->trace->buf, "wr mbox.mbox0.M_MSR_PMU_CNT_CTL0 0x45\n"));
    assert_non_null(strstr(f->trace->buf, "wr mbox.mbox0.M_MSR_PMU_CNT0 0xffffffffffff\n"));
    struct flow_env env = {flow_sim_event, flow_sim_batch, regc_dev_sim(f->d)};
    assert_int_equal(flow_inject(&env, f->p, 0, 100), 0);
    assert_int_equal(regc_pmon_info(f->p, 0, &in), 0);
    uint64_t raw, totals[3];
    assert_int_equal(regc_sim_peek(env.ctx, &in.ctr, &raw), 0);
    assert_int_equal(raw, (UINT64_C(1) << 48) - 1 - 100);
    assert_int_equal(regc_pmon_poll(f->p, totals), 0);
    assert_int_equal(totals[0], 100);
    start_fx(f, 0); /* again: totals from 0 */
    char why[256];
    if (flow_run_poll(f->p, &env, why, sizeof(why)) != 0) /* 3/4 of 2^48 per round: underflows */
        fail_msg("%s", why);
    close_fx(f);
}

/* Sampling while counting down: preload N (the mirror of (2^48-1)-N), so each counter underflows on
 * the N+1th event, found through M_MSR_PERF_GLOBAL_STATUS, cleared, re-armed; totals exact. */
static void t_mbox_down_sample(void **state)
{
    (void)state;
    const char *const ev[] = {"mbox[mbox0]:DSP_FILL,dir=down", "mbox[mbox1]:CYCLES_MFULL,dir=down",
                              NULL};
    struct fx *f = open_fx(flow_case_of("xeon7500_mbox"), ev, true);
    start_fx(f, 1000);
    assert_non_null(strstr(f->trace->buf, "wr mbox.mbox0.M_MSR_PMU_CNT_CTL0 0x47\n")); /* pmi_en */
    assert_non_null(strstr(f->trace->buf, "wr mbox.mbox0.M_MSR_PMU_CNT0 0x3e8\n"));    /* N */
    struct flow_env env = {flow_sim_event, flow_sim_batch, regc_dev_sim(f->d)};
    char why[256];
    if (flow_run_sample(f->p, &env, 1000, why, sizeof(why)) != 0)
        fail_msg("%s", why);
    close_fx(f);
}

/* Up and down (count_mode 10): the net count, negative in some intervals and in all, exact across
 * wrap-arounds both ways (a net change under 2^47 per poll). */
static void t_mbox_up_down_poll(void **state)
{
    (void)state;
    const char *const ev[] = {"mbox[mbox0]:DSP_FILL,dir=up-down", NULL};
    struct fx *f = open_fx(flow_case_of("xeon7500_mbox"), ev, false);
    start_fx(f, 0);
    regc_sim *sim = regc_dev_sim(f->d);
    static const int64_t steps[] = {500, -800, INT64_C(1) << 46, -(INT64_C(3) << 45), 77, -(INT64_C(1) << 46)};
    int64_t net = 0;
    uint64_t total;
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
        /* as increment and decrement signals of the event: +2d then -d */
        assert_int_equal(regc_sim_event(sim, "mbox[mbox0]:DSP_FILL", 2 * steps[i]), 0);
        assert_int_equal(regc_sim_event(sim, "mbox[mbox0]:DSP_FILL", -steps[i]), 0);
        net += steps[i];
        assert_int_equal(regc_pmon_poll(f->p, &total), 0);
        if ((int64_t)total != net)
            fail_msg("step %zu: net %lld, expected %lld", i, (long long)(int64_t)total,
                     (long long)net);
    }
    assert_true((int64_t)regc_pmon_total(f->p, 0) < 0);
    close_fx(f);
}

/* dir=: only where the counters have a direction field; a FIELD= term sets the direction too. */
static void t_direction_terms(void **state)
{
    (void)state;
    struct fx *f = open_fx(flow_case_of("xeon7500_mbox"), (const char *const[]){NULL}, false);
    assert_int_equal(regc_pmon_add(f->p, "mbox:DSP_FILL,dir=sideways"), -EINVAL);
    assert_non_null(strstr(regc_pmon_error(f->p), "bad direction 'sideways'"));
    assert_int_equal(regc_pmon_add(f->p, "mbox:raw,dir=down"), -EINVAL);
    assert_int_equal(regc_pmon_add(f->p, "mbox:raw,reg=M_MSR_PMU_CNT_CTL,inc_sel=0x1,count_mode=1"), 0);
    assert_int_equal(regc_pmon_add(f->p, "mbox[mbox1]:DSP_FILL,count_mode=2"), 0);
    assert_int_equal(regc_pmon_start(f->p, NULL), 0);
    struct regc_pmon_info in;
    assert_int_equal(regc_pmon_info(f->p, 0, &in), 0);
    assert_int_equal(in.direction, REGC_DIR_DOWN);
    assert_int_equal(regc_pmon_info(f->p, 1, &in), 0);
    assert_int_equal(in.direction, REGC_DIR_UP_DOWN);
    close_fx(f);
    /* count_mode 3 chooses no direction: refused before anything is written */
    f = open_fx(flow_case_of("xeon7500_mbox"), (const char *const[]){NULL}, true);
    assert_int_equal(regc_pmon_add(f->p, "mbox:DSP_FILL,count_mode=3"), 0);
    assert_int_equal(regc_pmon_start(f->p, NULL), -EINVAL);
    assert_non_null(strstr(regc_pmon_error(f->p), "chooses no count direction"));
    assert_int_equal(f->trace->len, 0);
    close_fx(f);
    /* E5-2600 v2 counters have no direction field: up only */
    f = open_fx(flow_case_of("e5_2600v2"), (const char *const[]){NULL}, false);
    assert_int_equal(regc_pmon_add(f->p, "ubox:EVENT_MSG.DOORBELL_RCVD,dir=up"), 0);
    assert_int_equal(regc_pmon_add(f->p, "ubox:EVENT_MSG.DOORBELL_RCVD,dir=down"), -EINVAL);
    assert_non_null(strstr(regc_pmon_error(f->p), "cannot count down"));
    close_fx(f);
}

/* E5-2600 v2 U-Box fixed counter: its overflow sets U_MSR_PMON_GLOBAL_STATUS.ov_u_fixed (bit 0),
 * not ov_u; the flow finds it there even when the value alone cannot show it (exactly 2^48
 * events bring the counter back where it was armed), and clears the bit (W1C). */
static void t_ubox_fixed_status(void **state)
{
    (void)state;
    const char *const ev[] = {"ubox:fixed", "ubox:EVENT_MSG.DOORBELL_RCVD", NULL};
    struct fx *f = open_fx(flow_case_of("e5_2600v2"), ev, true);
    start_fx(f, 1000);
    struct flow_env env = {flow_sim_event, flow_sim_batch, regc_dev_sim(f->d)};
    assert_int_equal(flow_inject(&env, f->p, 0, UINT64_C(1) << 48), 0);
    f->trace->len = 0;
    f->trace->buf[0] = '\0';
    unsigned which[2], got;
    assert_int_equal(regc_pmon_sample(f->p, which, 2, &got), 0);
    assert_int_equal(got, 1);
    assert_int_equal(which[0], 0);
    assert_int_equal(regc_pmon_total(f->p, 0), UINT64_C(1) << 48);
    assert_non_null(strstr(f->trace->buf, "rd ubox.U_MSR_PMON_GLOBAL_STATUS 0x1\n"));
    assert_non_null(strstr(f->trace->buf, "wr ubox.U_MSR_PMON_GLOBAL_STATUS 0x1\n"));
    /* cleared: the next sample sees nothing */
    assert_int_equal(regc_pmon_sample(f->p, which, 2, &got), 0);
    assert_int_equal(got, 0);
    /* a general U-Box counter's overflow sets ov_u (bit 1), found by its value (no box status) */
    assert_int_equal(flow_inject(&env, f->p, 1, 1001), 0);
    f->trace->len = 0;
    f->trace->buf[0] = '\0';
    assert_int_equal(regc_pmon_sample(f->p, which, 2, &got), 0);
    assert_int_equal(got, 1);
    assert_int_equal(which[0], 1);
    assert_non_null(strstr(f->trace->buf, "rd ubox.U_MSR_PMON_GLOBAL_STATUS 0x2\n"));
    close_fx(f);
}

/* A failing access stops the flow with the register named. */

/*
 * A failing access stops the flow with the register named: a read while the
 * boxes are checked (nothing written then), and the flow's first write
 * (after the reads of the check, counted on a clean run).
 */
static void t_fault(void **state)
{
    (void)state;
    struct fx *f = open_fx(&flow_cases[0], flow_cases[0].poll_events, false);
    regc_sim_fail_nth(regc_dev_sim(f->d), 3, EIO);
    assert_int_equal(regc_pmon_start(f->p, NULL), -EIO);
    assert_non_null(strstr(regc_pmon_error(f->p), "read ubox.U_MSR_PMON_CTL1: "));
    struct regc_stats st;
    regc_get_stats(f->d, &st);
    assert_int_equal(st.writes, 0);
    close_fx(f);

    f = open_fx(&flow_cases[0], flow_cases[0].poll_events, false);
    start_fx(f, 0);
    regc_get_stats(f->d, &st);
    unsigned long reads = st.reads;
    close_fx(f);
    f = open_fx(&flow_cases[0], flow_cases[0].poll_events, false);
    regc_sim_fail_nth(regc_dev_sim(f->d), reads + 1, EIO);
    assert_int_equal(regc_pmon_start(f->p, NULL), -EIO);
    assert_non_null(strstr(regc_pmon_error(f->p), "write ubox.U_MSR_PMON_GLOBAL_CTL: "));
    close_fx(f);
}

int main(void)
{
    struct CMUnitTest t[5 * FLOW_NCASES + 9];
    char names[5 * FLOW_NCASES][64];
    size_t k = 0;
    for (size_t i = 0; i < FLOW_NCASES; i++) {
        static void (*const fn[5])(void **) = {t_poll, t_sample, t_poll_trace, t_sample_trace,
                                               t_fast_sample};
        static const char *const what[5] = {"poll", "sample", "poll order", "sample order",
                                            "sample above the period"};
        for (int j = 0; j < 5; j++, k++) {
            snprintf(names[k], sizeof(names[k]), "%s %s", flow_cases[i].spec, what[j]);
            t[k] = (struct CMUnitTest){names[k], fn[j], NULL, NULL, (void *)&flow_cases[i]};
        }
    }
    t[k++] = (struct CMUnitTest)cmocka_unit_test(t_errors);
    t[k++] = (struct CMUnitTest)cmocka_unit_test(t_fault);
    t[k++] = (struct CMUnitTest)cmocka_unit_test(t_imc_status_first);
    t[k++] = (struct CMUnitTest)cmocka_unit_test(t_pci_device);
    t[k++] = (struct CMUnitTest)cmocka_unit_test(t_mbox_down_poll);
    t[k++] = (struct CMUnitTest)cmocka_unit_test(t_mbox_down_sample);
    t[k++] = (struct CMUnitTest)cmocka_unit_test(t_mbox_up_down_poll);
    t[k++] = (struct CMUnitTest)cmocka_unit_test(t_direction_terms);
    t[k++] = (struct CMUnitTest)cmocka_unit_test(t_ubox_fixed_status);
    return _cmocka_run_group_tests("flow_sim", t, k, NULL, NULL);
}
