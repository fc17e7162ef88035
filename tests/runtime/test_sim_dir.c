/*
 * test_sim_dir - the simulator's count directions on the Xeon 7500 M-Box
 * (regspec/xeon7500_mbox.xml: count_mode 00 up, 01 down, 10 up and down;
 * wrap_mode 1 wrap, 0 stop; guide 323535 Table 2-67): up, down and up/down
 * counting, wrap and stop at underflow, the underflow reported like an
 * overflow (status, PMI to the U-Box), signed injection.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "regc/regc.h"
#include "regc/sim.h"
#include "regc_specs.h"
#include "testutil.h"

#define MAX48 ((UINT64_C(1) << 48) - 1)

/* M_MSR_PMU_CNT_CTL values: en (bit 0), pmi_en (1), count_mode (3:2), wrap_mode (6). */
#define EN 0x1
#define PMI 0x2
#define UP 0x0
#define DOWN 0x4
#define UPDOWN 0x8
#define WRAP 0x40

struct fx {
    const struct regc_spec *s;
    regc_dev *d;
    regc_sim *sim;
};

static const struct regc_spec *mbox_spec(void)
{
    for (const struct regc_spec *const *s = regc_specs; *s; s++)
        if (strcmp((*s)->name, "xeon7500_mbox") == 0)
            return *s;
    return NULL;
}

static struct regc_ref ref(const struct fx *f, const char *path)
{
    struct regc_ref r;
    char err[256];
    if (regc_resolve(f->s, path, &r, err, sizeof(err)) < 0)
        fail_msg("resolve %s: %s", path, err);
    return r;
}

static uint64_t rd(const struct fx *f, const char *path)
{
    struct regc_ref r = ref(f, path);
    uint64_t v = 0xdead;
    assert_int_equal(regc_read(f->d, &r, &v), 0);
    return v;
}

static void wr(const struct fx *f, const char *path, uint64_t v)
{
    struct regc_ref r = ref(f, path);
    if (regc_write(f->d, &r, v) != 0)
        fail_msg("write %s=0x%llx: %s", path, (unsigned long long)v, regc_last_error(f->d));
}

/* Counter 0 of M-Box 0 enabled everywhere (U-Box en_all, ctr_en bit 0), control 'ctl', count 'v'. */
static int setup(void **state, uint64_t ctl, uint64_t v)
{
    static struct fx f;
    f.s = mbox_spec();
    assert_non_null(f.s);
    struct regc_options o = {.backend = "sim"};
    assert_int_equal(regc_open(&f.d, f.s, &o, NULL, 0), 0);
    f.sim = regc_dev_sim(f.d);
    wr(&f, "ubox.U_MSR_PMON_GLOBAL_CTL", UINT64_C(1) << 28); /* en_all */
    wr(&f, "mbox.mbox0.M_MSR_PERF_GLOBAL_CTL", 0x1);        /* ctr_en[0] */
    wr(&f, "mbox.mbox0.M_MSR_PMU_CNT_CTL0", ctl);
    wr(&f, "mbox.mbox0.M_MSR_PMU_CNT0", v);
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    regc_close(f->d);
    return 0;
}

static int tick(const struct fx *f, uint64_t n)
{
    return regc_sim_tick(f->sim, "mbox", "mbox0", 0, 0, n);
}

static int tick_signed(const struct fx *f, int64_t delta)
{
    return regc_sim_tick_signed(f->sim, "mbox", "mbox0", 0, 0, delta);
}

static uint64_t count(const struct fx *f)
{
    return rd(f, "mbox.mbox0.M_MSR_PMU_CNT0");
}

static uint64_t status(const struct fx *f)
{
    return rd(f, "mbox.mbox0.M_MSR_PERF_GLOBAL_STATUS");
}

/* count_mode 00: up, overflow past 2^48-1 wraps to 0 and sets ov[0]. */
static void t_up(void **state)
{
    setup(state, EN | UP | WRAP, 0);
    struct fx *f = *state;
    assert_int_equal(tick(f, 5), 0);
    assert_int_equal(count(f), 5);
    wr(f, "mbox.mbox0.M_MSR_PMU_CNT0", MAX48 - 1);
    assert_int_equal(tick(f, 3), 0);
    assert_int_equal(count(f), 1);
    assert_int_equal(status(f), 1);
    teardown(state);
}

/* count_mode 01: down; to 0 is no underflow; one more wraps to 2^48-1 and sets ov[0]. */
static void t_down_wrap(void **state)
{
    setup(state, EN | DOWN | WRAP, 10);
    struct fx *f = *state;
    assert_int_equal(tick(f, 3), 0);
    assert_int_equal(count(f), 7);
    assert_int_equal(tick(f, 7), 0);
    assert_int_equal(count(f), 0);
    assert_int_equal(status(f), 0);
    assert_int_equal(tick(f, 1), 0);
    assert_int_equal(count(f), MAX48);
    assert_int_equal(status(f), 1);
    /* cleared through M_MSR_PERF_GLOBAL_OVF_CTL.clr_ov, as an overflow */
    wr(f, "mbox.mbox0.M_MSR_PERF_GLOBAL_OVF_CTL", 1);
    assert_int_equal(status(f), 0);
    /* several wraps in one tick: modulo 2^48 */
    assert_int_equal(tick(f, (UINT64_C(1) << 48) + 5), 0);
    assert_int_equal(count(f), MAX48 - 5);
    teardown(state);
}

/* wrap_mode 0: the counter stops at 0 on underflow, and counts nothing more, in either direction,
 * until software writes it or its control. */
static void t_down_stop(void **state)
{
    setup(state, EN | DOWN, 2);
    struct fx *f = *state;
    assert_int_equal(tick(f, 5), 0);
    assert_int_equal(count(f), 0);
    assert_int_equal(status(f), 1);
    assert_int_equal(tick(f, 5), 0);
    assert_int_equal(count(f), 0);
    wr(f, "mbox.mbox0.M_MSR_PMU_CNT_CTL0", EN | UP); /* software reprograms: counts again */
    assert_int_equal(tick(f, 4), 0);
    assert_int_equal(count(f), 4);
    /* stop at overflow: 2^48-1, then nothing until the counter is written */
    wr(f, "mbox.mbox0.M_MSR_PMU_CNT0", MAX48 - 1);
    assert_int_equal(tick(f, 9), 0);
    assert_int_equal(count(f), MAX48);
    assert_int_equal(tick(f, 9), 0);
    assert_int_equal(count(f), MAX48);
    wr(f, "mbox.mbox0.M_MSR_PMU_CNT0", 100);
    assert_int_equal(tick(f, 9), 0);
    assert_int_equal(count(f), 109);
    teardown(state);
}

/* count_mode 10: signed injection moves the counter both ways; under- and overflow wrap. */
static void t_up_down(void **state)
{
    setup(state, EN | UPDOWN | WRAP, 0);
    struct fx *f = *state;
    assert_int_equal(tick_signed(f, 5), 0);
    assert_int_equal(tick_signed(f, -3), 0);
    assert_int_equal(count(f), 2);
    assert_int_equal(tick(f, 1), 0); /* unsigned events increment */
    assert_int_equal(count(f), 3);
    assert_int_equal(status(f), 0);
    assert_int_equal(tick_signed(f, -4), 0);
    assert_int_equal(count(f), MAX48);
    assert_int_equal(status(f), 1);
    wr(f, "mbox.mbox0.M_MSR_PERF_GLOBAL_OVF_CTL", 1);
    assert_int_equal(tick_signed(f, 2), 0);
    assert_int_equal(count(f), 1);
    assert_int_equal(status(f), 1);
    /* the largest magnitude: 2^63 steps down, modulo 2^48 */
    assert_int_equal(tick_signed(f, INT64_MIN), 0);
    assert_int_equal(count(f), 1);
    teardown(state);
}

/* up/down with wrap_mode 0: stops at 0 below, at 2^48-1 above. */
static void t_up_down_stop(void **state)
{
    setup(state, EN | UPDOWN, 1);
    struct fx *f = *state;
    assert_int_equal(tick_signed(f, -2), 0);
    assert_int_equal(count(f), 0);
    assert_int_equal(tick_signed(f, 1), 0); /* stopped */
    assert_int_equal(count(f), 0);
    wr(f, "mbox.mbox0.M_MSR_PMU_CNT0", MAX48);
    assert_int_equal(tick_signed(f, 1), 0);
    assert_int_equal(count(f), MAX48);
    teardown(state);
}

/* A decrement needs up/down mode: refused on an up or a down counter, which keeps its count. */
static void t_decrement_refused(void **state)
{
    setup(state, EN | UP | WRAP, 7);
    struct fx *f = *state;
    assert_int_equal(tick_signed(f, -1), -EINVAL);
    assert_int_equal(count(f), 7);
    wr(f, "mbox.mbox0.M_MSR_PMU_CNT_CTL0", EN | DOWN | WRAP);
    assert_int_equal(tick_signed(f, -1), -EINVAL);
    assert_int_equal(tick_signed(f, 2), 0); /* events count down */
    assert_int_equal(count(f), 5);
    assert_int_equal(regc_sim_tick_signed(f->sim, "mbox", "mbox0", 9, 0, -1), -ENOENT);
    teardown(state);
}

/* count_mode 11 (undefined; the rule refuses it, so poked) counts nothing. */
static void t_undefined_mode(void **state)
{
    setup(state, EN | WRAP, 7);
    struct fx *f = *state;
    struct regc_ref ctl = ref(f, "mbox.mbox0.M_MSR_PMU_CNT_CTL0");
    assert_int_equal(regc_write(f->d, &ctl, EN | WRAP | 0xc), -EINVAL);
    assert_int_equal(regc_sim_poke(f->sim, &ctl, EN | WRAP | 0xc), 0);
    assert_int_equal(tick(f, 3), 0);
    assert_int_equal(tick_signed(f, -3), -EINVAL);
    assert_int_equal(count(f), 7);
    teardown(state);
}

/* An underflow with pmi_en sends the PMI to the U-Box like an overflow: en_all is cleared. */
static void t_underflow_pmi(void **state)
{
    setup(state, EN | PMI | DOWN | WRAP, 1);
    struct fx *f = *state;
    assert_int_equal(tick(f, 2), 0);
    assert_int_equal(count(f), MAX48);
    assert_int_equal(rd(f, "ubox.U_MSR_PMON_GLOBAL_CTL") & (UINT64_C(1) << 28), 0);
    assert_int_equal(tick(f, 5), 0); /* disabled: no more counting */
    assert_int_equal(count(f), MAX48);
    teardown(state);
}

int main(void)
{
    if (!mbox_spec()) {
        tu_skip("count directions", "no xeon7500_mbox descriptor tables");
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_up),           cmocka_unit_test(t_down_wrap),
        cmocka_unit_test(t_down_stop),    cmocka_unit_test(t_up_down),
        cmocka_unit_test(t_up_down_stop), cmocka_unit_test(t_decrement_refused),
        cmocka_unit_test(t_undefined_mode), cmocka_unit_test(t_underflow_pmi),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
