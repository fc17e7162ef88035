/*
 * test_boxes - an event without a box names every box of its type (regc_pmon_boxes,
 * regc_pmon_every_box; docs/monitoring.md "Every box of a type"). The boxes expected are
 * written here from the spec's sources, not from the code: the E5-2600 v2 iMC channels are the
 * eight PCI functions mc0_ch0..mc1_ch3 (likwid's PCI_IMC_DEVICE_0_CH_0 .. _1_CH_3, the spec's
 * instances in that order), its QPI ports p0..p2, its C-Boxes c0..c14; the kernel names the iMC
 * PMUs uncore_imc_0..7 in the same order (uncore_snbep.c). A session on the simulator then counts
 * a rate per channel and sums them; with every_box off (the library's default) the first box only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flow_cases.h"

static const char *const channels[] = {"mc0_ch0", "mc0_ch1", "mc0_ch2", "mc0_ch3",
                                       "mc1_ch0", "mc1_ch1", "mc1_ch2", "mc1_ch3"};

/* regc_pmon_boxes(name) must give exactly want[0..n) */
static void expect_boxes(const char *name, const char *const *want, unsigned n)
{
    const struct regc_spec *s = flow_spec("e5_2600v2");
    assert_non_null(s);
    char **got;
    unsigned k;
    assert_int_equal(regc_pmon_boxes(s, name, &got, &k), 0);
    if (k != n)
        fail_msg("'%s': %u boxes, want %u", name, k, n);
    for (unsigned i = 0; i < n; i++)
        if (strcmp(got[i], want[i]) != 0)
            fail_msg("'%s' box %u: '%s', want '%s'", name, i, got[i], want[i]);
    regc_pmon_boxes_free(got, k);
}

/* want[i] = "imc[" channels[i] "]" tail, or (numbered) "uncore_imc_" i tail */
static void expect_channels(const char *name, const char *tail, bool numbered)
{
    char buf[8][128];
    const char *want[8];
    for (unsigned i = 0; i < 8; i++) {
        if (numbered)
            snprintf(buf[i], sizeof(buf[i]), "uncore_imc_%u%s", i, tail);
        else
            snprintf(buf[i], sizeof(buf[i]), "imc[%s]%s", channels[i], tail);
        want[i] = buf[i];
    }
    expect_boxes(name, want, 8);
}

static void t_every_channel(void **state)
{
    (void)state;
    expect_channels("imc:CAS_COUNT.RD", ":CAS_COUNT.RD", false);
    expect_channels("imc:CAS_COUNT.RD,thresh=1", ":CAS_COUNT.RD,thresh=1", false);
    /* the perfmon alias resolves to its block; its terms stay */
    expect_channels("UNC_M_CAS_COUNT.RD", ":CAS_COUNT.RD", false);
    expect_channels("unc_m_cas_count.wr,thresh=2", ":CAS_COUNT.WR,thresh=2", false);
    /* perf's PMU without its number: each numbered PMU, the terms as written */
    expect_channels("uncore_imc/event=0x4,umask=0x3/", "/event=0x4,umask=0x3/", true);
}

static void t_one_box(void **state)
{
    (void)state;
    const char *const same[] = {"imc[mc1_ch2]:CAS_COUNT.RD", "uncore_imc_6/event=0x4,umask=0x3/",
                                "ubox:EVENT_MSG.DOORBELL_RCVD", "UNC_U_EVENT_MSG.DOORBELL_RCVD",
                                "pcu:CLOCKTICKS", "uncore_ubox/event=0x42,umask=0x8/",
                                /* nothing to expand: regc_pmon_add says what is wrong */
                                "nosuch:X", "garbage", "uncore_nosuch/event=1/", "imc[", ""};
    for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
        const char *want[1] = {same[i]};
        expect_boxes(same[i], want, 1);
    }
}

static void t_other_blocks(void **state)
{
    (void)state;
    const char *const qpi[] = {"qpi[p0]:CLOCKTICKS", "qpi[p1]:CLOCKTICKS", "qpi[p2]:CLOCKTICKS"};
    expect_boxes("qpi:CLOCKTICKS", qpi, 3);
    char buf[15][64];
    const char *cbox[15];
    for (unsigned i = 0; i < 15; i++) {
        snprintf(buf[i], sizeof(buf[i]), "cbox[c%u]:CLOCKTICKS", i);
        cbox[i] = buf[i];
    }
    expect_boxes("cbox:CLOCKTICKS", cbox, 15);
}

struct fx {
    regc_dev *d;
    regc_pmon_session *p;
    regc_sim *sim;
};

static void open_fx(struct fx *f)
{
    struct regc_options o = {.backend = "sim"};
    char err[256];
    assert_int_equal(regc_open(&f->d, flow_spec("e5_2600v2"), &o, err, sizeof(err)), 0);
    assert_int_equal(regc_pmon_new(&f->p, f->d), 0);
    f->sim = regc_dev_sim(f->d);
    assert_non_null(f->sim);
}

static void close_fx(struct fx *f)
{
    regc_pmon_free(f->p);
    regc_close(f->d);
}

/* rate 100 + i on channel i: every_box sums them, per box each its own; off: the first only */
static void t_session(void **state)
{
    (void)state;
    for (int on = 0; on < 2; on++) {
        struct fx f;
        open_fx(&f);
        regc_pmon_every_box(f.p, on);
        uint64_t sum = 0;
        for (unsigned i = 0; i < 8; i++) {
            char rate[64];
            snprintf(rate, sizeof(rate), "imc[%s]:CAS_COUNT.RD", channels[i]);
            assert_int_equal(regc_sim_rate(f.sim, rate, 100 + i), 0);
            sum += 100 + i;
        }
        assert_int_equal(regc_pmon_add(f.p, "UNC_M_CAS_COUNT.RD"), 0);
        assert_int_equal(regc_pmon_count(f.p), 1);
        struct regc_pmon_opts o = {.settle_ms = -1};
        assert_int_equal(regc_pmon_start(f.p, &o), 0);
        assert_int_equal(regc_sim_interval(f.sim), 0);
        uint64_t total;
        assert_int_equal(regc_pmon_poll(f.p, &total), 0);
        struct regc_pmon_info in;
        assert_int_equal(regc_pmon_info(f.p, 0, &in), 0);
        assert_string_equal(in.name, "UNC_M_CAS_COUNT.RD");
        assert_int_equal(in.nboxes, on ? 8 : 1);
        assert_int_equal(total, on ? sum : 100);
        for (unsigned k = 0; k < in.nboxes; k++) {
            assert_int_equal(regc_pmon_box_info(f.p, 0, k, &in), 0);
            assert_string_equal(in.instance->name, channels[k]);
            assert_int_equal(regc_pmon_box_total(f.p, 0, k), 100 + k);
        }
        assert_int_equal(regc_pmon_box_info(f.p, 0, on ? 8 : 1, &in), -ENOENT);
        assert_int_equal(regc_pmon_release(f.p), 0);
        close_fx(&f);
    }
}

/* An error names the event as added; a failed add leaves no box of it behind. */
static void t_errors(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f);
    regc_pmon_every_box(f.p, true);
    assert_int_equal(regc_pmon_add(f.p, "imc:CAS_COUNT.READ"), -ENOENT);
    assert_non_null(strstr(regc_pmon_error(f.p), "'imc:CAS_COUNT.READ': block 'imc' has no event"));
    assert_int_equal(regc_pmon_count(f.p), 0);
    assert_int_equal(regc_pmon_add(f.p, "qpi:CLOCKTICKS"), 0);
    assert_int_equal(regc_pmon_count(f.p), 1);
    struct regc_pmon_info in;
    assert_int_equal(regc_pmon_info(f.p, 0, &in), 0);
    assert_int_equal(in.nboxes, 3);
    close_fx(&f);
}

/* The session's clock on the simulator is the model's cycles: 3 intervals of 1000 cycles
 * (regc_sim_clock) are 3000 enabled and, for an event that never rotates, 3000 running, polling or
 * sampling; before the first interval, none. */
static void t_clock(void **state)
{
    (void)state;
    for (int sample = 0; sample < 2; sample++) {
        struct fx f;
        open_fx(&f);
        assert_int_equal(regc_sim_clock(f.sim, 1000), 0);
        assert_int_equal(regc_pmon_add(f.p, "ubox:EVENT_MSG.DOORBELL_RCVD"), 0);
        struct regc_pmon_opts o = {.settle_ms = -1, .sample = sample ? 100 : 0};
        assert_int_equal(regc_pmon_start(f.p, &o), 0);
        uint64_t enabled = 1, running = 1;
        regc_pmon_running(f.p, 0, &enabled, &running);
        assert_int_equal(enabled, 0);
        assert_int_equal(running, 0);
        for (int t = 0; t < 3; t++) {
            unsigned n;
            assert_int_equal(regc_sim_interval(f.sim), 0);
            assert_int_equal(sample ? regc_pmon_sample(f.p, NULL, 0, &n) : regc_pmon_poll(f.p, NULL),
                             0);
        }
        regc_pmon_running(f.p, 0, &enabled, &running);
        assert_int_equal(enabled, 3000);
        assert_int_equal(running, 3000);
        assert_int_equal(regc_pmon_release(f.p), 0);
        close_fx(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_every_channel), cmocka_unit_test(t_one_box),
        cmocka_unit_test(t_other_blocks),  cmocka_unit_test(t_session),
        cmocka_unit_test(t_errors),        cmocka_unit_test(t_clock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
