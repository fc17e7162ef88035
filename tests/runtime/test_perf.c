/*
 * test_perf - the perf backend: formats and configs on a fake sysfs tree,
 * spec/kernel format agreement, and real events through perf_event_open
 * (the software PMU; the msr PMU's tsc where sysfs lists it). Real-kernel
 * tests report SKIP with the reason when perf_event_open is not permitted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hand_tables.h"
#include "regc/perf.h"
#include "regc/regc.h"
#include "testutil.h"

static char g_dir[256];

static int setup_tree(void **st)
{
    tu_tmpdir(g_dir, sizeof(g_dir));
    const char *d = "bus/event_source/devices/uncore_ubox/";
    char rel[256];
#define W(file, text) (snprintf(rel, sizeof(rel), "%s%s", d, file), tu_write(g_dir, rel, text, -1))
    W("type", "42\n");
    W("format/event", "config:0-7\n");
    W("format/umask", "config:8-15\n");
    W("format/edge", "config:18\n");
    W("format/inv", "config:23\n");
    W("format/thresh5", "config:24-28\n");
    W("format/filter", "config1:0-7,10\n");
    W("events/doorbell", "event=0x42,umask=0x08\n");
    d = "bus/event_source/devices/uncore_bad/";
    W("type", "43\n");
    W("format/event", "config:0-8\n");
    d = "bus/event_source/devices/uncore_broken/";
    W("type", "44\n");
    W("format/event", "cfg:0-7\n");
    d = "bus/event_source/devices/many/";
    W("type", "45\n");
    W("format/event", "config:0-7\n");
    W("events/nine", "event=1,event=1,event=1,event=1,event=1,event=1,event=1,event=1,event=1\n");
    W("events/flag", "event\n");
    static const char *const bad[] = {"config:8-7", "config:",     "config3:0", "config:64",
                                      "config:1-x", "config:0-64", "config:x"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        char pmu[64];
        snprintf(pmu, sizeof(pmu), "bus/event_source/devices/bad%zu/", i);
        d = pmu;
        W("type", "46\n");
        W("format/event", bad[i]);
    }
#undef W
    return 0;
}

static int teardown_tree(void **st)
{
    tu_rm_rf(g_dir);
    return 0;
}

static void test_formats(void **st)
{
    struct regc_perf_pmu *p;
    char err[256];
    assert_int_equal(regc_perf_pmu_open(&p, g_dir, "uncore_ubox", err, sizeof(err)), 0);
    assert_int_equal(regc_perf_pmu_type(p), 42);
    unsigned w;
    uint64_t m;
    assert_int_equal(regc_perf_pmu_format(p, "filter", &w, &m), 0);
    assert_int_equal(w, 1);
    assert_int_equal(m, 0x4ff);
    assert_int_equal(regc_perf_pmu_format(p, "nope", &w, &m), -ENOENT);
    struct regc_perf_term t[] = {{"event", 0x42}, {"umask", 0x8}, {"edge", 1}, {"filter", 0x1ff}};
    uint64_t cfg[3];
    assert_int_equal(regc_perf_encode(p, t, 4, cfg, err, sizeof(err)), 0);
    assert_int_equal(cfg[0], 0x40842);
    assert_int_equal(cfg[1], 0x4ff);
    struct regc_perf_term big = {"umask", 0x100};
    assert_int_equal(regc_perf_encode(p, &big, 1, cfg, err, sizeof(err)), -EINVAL);
    assert_string_equal(err, "value 0x100 does not fit format 'umask' of PMU 'uncore_ubox'");
    struct regc_perf_term unk = {"cmask", 1};
    assert_int_equal(regc_perf_encode(p, &unk, 1, cfg, err, sizeof(err)), -EINVAL);
    assert_string_equal(err, "PMU 'uncore_ubox' has no format 'cmask'");
    assert_int_equal(regc_perf_event_config(p, "doorbell", cfg, err, sizeof(err)), 0);
    assert_int_equal(cfg[0], 0x842);
    assert_int_equal(regc_perf_event_config(p, "nosuch", cfg, err, sizeof(err)), -ENOENT);
    /* the spec's U-Box control agrees with this kernel format */
    const struct regc_block *b = regc_spec_block(&hand_ubox_spec, "ubox");
    assert_int_equal(regc_perf_check_counters(p, b, b->pmon->counters, err, sizeof(err)), 0);
    regc_perf_pmu_close(p);

    assert_int_equal(regc_perf_pmu_open(&p, g_dir, "uncore_bad", err, sizeof(err)), 0);
    assert_int_equal(regc_perf_check_counters(p, b, b->pmon->counters, err, sizeof(err)), -EINVAL);
    assert_string_equal(
        err, "spec field 'ev_sel' [7:0] of 'ubox.U_MSR_PMON_CTL' disagrees with the kernel's "
             "format 'event' (config:0-8) of PMU 'uncore_bad'");
    regc_perf_pmu_close(p);
    assert_int_equal(regc_perf_pmu_open(&p, g_dir, "uncore_broken", err, sizeof(err)), -EINVAL);
    assert_string_equal(err, "PMU 'uncore_broken': cannot parse format 'event'");
    for (int i = 0; i < 7; i++) {
        char pmu[16];
        snprintf(pmu, sizeof(pmu), "bad%d", i);
        if (regc_perf_pmu_open(&p, g_dir, pmu, err, sizeof(err)) != -EINVAL)
            fail_msg("format of %s accepted", pmu);
    }
    assert_int_equal(regc_perf_pmu_open(&p, g_dir, "many", err, sizeof(err)), 0);
    assert_int_equal(regc_perf_event_config(p, "nine", cfg, err, sizeof(err)), -E2BIG);
    assert_int_equal(regc_perf_event_config(p, "flag", cfg, err, sizeof(err)), 0);
    assert_int_equal(cfg[0], 1);
    regc_perf_pmu_close(p);
    assert_int_equal(regc_perf_pmu_open(&p, g_dir, "uncore_none", err, sizeof(err)), -ENOENT);
    assert_non_null(strstr(err, "no PMU 'uncore_none' in sysfs"));
}

/* The perf backend on the fake tree: the config reaches perf_event_open, which rejects type 42. */
static void test_backend_fake(void **st)
{
    regc_dev *d;
    struct regc_options o = {.backend = "perf", .sysfs_root = g_dir, .cpu = 0};
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    struct regc_ref ctl, ctr;
    assert_int_equal(regc_resolve(&hand_ubox_spec, "ubox.U_MSR_PMON_CTL0", &ctl, NULL, 0), 0);
    assert_int_equal(regc_resolve(&hand_ubox_spec, "ubox.U_MSR_PMON_CTR0", &ctr, NULL, 0), 0);
    assert_int_equal(regc_write(d, &ctl, 0x000842), 0); /* not enabled: nothing opened */
    uint64_t v;
    assert_int_equal(regc_read(d, &ctl, &v), 0);
    assert_int_equal(v, 0x842);
    /* no event open: an error, not a count of 0 */
    assert_int_equal(regc_read(d, &ctr, &v), -ENODATA);
    assert_non_null(strstr(regc_last_error(d), "no perf event is open for this counter: write its "
                                               "control 'U_MSR_PMON_CTL' with 'en' set first"));
    int rc = regc_write(d, &ctl, 0x400842);
    assert_true(rc < 0);
    assert_non_null(strstr(regc_last_error(d), "PMU 'uncore_ubox' config 0x842"));
    regc_close(d);
    /* a box without pmon roles cannot be written through perf */
    assert_int_equal(regc_open(&d, &acme_spec, &o, NULL, 0), 0);
    struct regc_ref bc;
    assert_int_equal(regc_resolve(&acme_spec, "box.BOX_CTL", &bc, NULL, 0), 0);
    assert_int_equal(regc_write(d, &bc, 0), -EOPNOTSUPP);
    assert_non_null(strstr(regc_last_error(d), "programs only counter controls"));
    assert_int_equal(regc_read(d, &bc, &v), -EOPNOTSUPP);
    regc_close(d);
}

static volatile uint64_t sink;

static void spin(void);

/*
 * The register backend against the real kernel: a stand-in sysfs PMU
 * 'uncore_ubox' whose type is the software PMU's, so writing the U-Box
 * control with en=1, ev_sel=0 opens a CPU-wide cpu-clock event through the
 * same path an uncore PMU takes, and reading the counter returns its count.
 */
static void test_backend_real(void **st)
{
    char root[300], rel[128];
    snprintf(root, sizeof(root), "%s/real", g_dir);
    snprintf(rel, sizeof(rel), "bus/event_source/devices/uncore_ubox/type");
    tu_write(root, rel, "1\n", -1);
    tu_write(root, "bus/event_source/devices/uncore_ubox/format/event", "config:0-7\n", -1);
    tu_write(root, "bus/event_source/devices/uncore_ubox/format/umask", "config:8-15\n", -1);
    regc_dev *d;
    struct regc_options o = {.backend = "perf", .sysfs_root = root, .cpu = 0};
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    struct regc_ref ctl, ctr;
    assert_int_equal(regc_resolve(&hand_ubox_spec, "ubox.U_MSR_PMON_CTL0", &ctl, NULL, 0), 0);
    assert_int_equal(regc_resolve(&hand_ubox_spec, "ubox.U_MSR_PMON_CTR0", &ctr, NULL, 0), 0);
    if (regc_write(d, &ctl, 0x400000) < 0) {
        fail_msg("%s", regc_last_error(d));
    }
    spin();
    uint64_t a, b;
    assert_int_equal(regc_read(d, &ctr, &a), 0);
    spin();
    assert_int_equal(regc_read(d, &ctr, &b), 0);
    assert_true(a > 0 && b > a);
    assert_int_equal(regc_write(d, &ctl, 0), 0); /* closes the event: nothing left to read */
    assert_int_equal(regc_read(d, &ctr, &a), -ENODATA);
    regc_close(d);
}

static void spin(void)
{
    for (uint64_t i = 0; i < 20000000; i++)
        sink += i;
}

/* Opens the software PMU's task-clock and cpu-clock as one group on this process. */
static void test_software_group(void **st)
{
    struct regc_perf_pmu *p;
    char err[512];
    assert_int_equal(regc_perf_pmu_open(&p, NULL, "software", err, sizeof(err)), 0);
    assert_int_equal(regc_perf_pmu_type(p), 1); /* PERF_TYPE_SOFTWARE */
    struct regc_perf_group *g;
    assert_int_equal(regc_perf_group_new(&g), 0);
    const uint64_t task_clock[3] = {1, 0, 0}, cpu_clock[3] = {0, 0, 0};
    unsigned i0, i1;
    assert_int_equal(regc_perf_group_add(g, p, task_clock, 0, -1, &i0, err, sizeof(err)), 0);
    assert_int_equal(regc_perf_group_add(g, p, cpu_clock, 0, -1, &i1, err, sizeof(err)), 0);
    assert_int_equal(i1, 1);
    assert_int_equal(regc_perf_group_size(g), 2);
    assert_int_equal(regc_perf_group_enable(g), 0);
    spin();
    uint64_t a[2], b[2], one;
    assert_int_equal(regc_perf_group_read(g, a, 2), 0);
    spin();
    assert_int_equal(regc_perf_group_read(g, b, 2), 0);
    assert_true(a[0] > 0 && a[1] > 0);
    assert_true(b[0] > a[0] && b[1] > a[1]);
    assert_int_equal(regc_perf_event_read(g, 1, &one), 0);
    assert_true(one >= b[1]);
    assert_int_equal(regc_perf_event_read(g, 0, &one), 0);
    assert_true(one >= b[0]);
    assert_int_equal(regc_perf_event_read(g, 5, &one), -EINVAL);
    assert_int_equal(regc_perf_group_disable(g), 0);
    regc_perf_group_free(g);
    regc_perf_pmu_close(p);
}

static void test_msr_tsc(void **st)
{
    struct regc_perf_pmu *p;
    char err[512];
    assert_int_equal(regc_perf_pmu_open(&p, NULL, "msr", err, sizeof(err)), 0);
    uint64_t cfg[3];
    assert_int_equal(regc_perf_event_config(p, "tsc", cfg, err, sizeof(err)), 0);
    struct regc_perf_group *g;
    assert_int_equal(regc_perf_group_new(&g), 0);
    int rc = regc_perf_group_add(g, p, cfg, 0, -1, NULL, err, sizeof(err));
    if (rc < 0)
        fail_msg("%s", err);
    assert_int_equal(regc_perf_group_enable(g), 0);
    spin();
    uint64_t v;
    assert_int_equal(regc_perf_group_read(g, &v, 1), 0);
    assert_true(v > 1000);
    regc_perf_group_free(g);
    regc_perf_pmu_close(p);
}

static void test_errors(void **st)
{
    char buf[256];
    assert_non_null(
        strstr(regc_perf_strerror(-EACCES, buf, sizeof(buf)), "kernel.perf_event_paranoid is"));
    assert_non_null(strstr(regc_perf_strerror(-ENOENT, buf, sizeof(buf)), "does not support"));
    assert_non_null(strstr(regc_perf_strerror(-EINVAL, buf, sizeof(buf)), "rejected"));
    assert_non_null(
        strstr(regc_perf_strerror(-EMFILE, buf, sizeof(buf)), "perf_event_open failed"));
    struct regc_perf_group *g;
    assert_int_equal(regc_perf_group_new(&g), 0);
    uint64_t v;
    assert_int_equal(regc_perf_group_read(g, &v, 1), -EINVAL);
    assert_int_equal(regc_perf_group_enable(g), -EINVAL);
    regc_perf_group_free(g);
    regc_perf_group_free(NULL);
}

/* Can this process open a software event at all? NULL, or why not. */
static const char *perf_unavailable(char *why, size_t len)
{
    struct regc_perf_pmu *p;
    struct regc_perf_group *g;
    if (regc_perf_pmu_open(&p, NULL, "software", why, len) < 0)
        return why;
    const uint64_t cfg[3] = {1, 0, 0};
    regc_perf_group_new(&g);
    int rc = regc_perf_group_add(g, p, cfg, 0, -1, NULL, why, len);
    regc_perf_group_free(g);
    regc_perf_pmu_close(p);
    return rc < 0 ? why : NULL;
}

int main(void)
{
    struct CMUnitTest tests[8];
    size_t n = 0;
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_formats);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_backend_fake);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_errors);
    char why[512];
    if (perf_unavailable(why, sizeof(why))) {
        tu_skip("test_software_group", why);
        tu_skip("test_msr_tsc", why);
        tu_skip("test_backend_real", why);
    } else {
        tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_software_group);
        if (geteuid() == 0)
            tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_backend_real);
        else
            tu_skip("test_backend_real",
                    "CPU-wide events need root or kernel.perf_event_paranoid <= 0");
        if (access("/sys/bus/event_source/devices/msr/events/tsc", R_OK) == 0)
            tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_msr_tsc);
        else
            tu_skip("test_msr_tsc", "sysfs lists no msr PMU event 'tsc'");
    }
    return _cmocka_run_group_tests("test_perf", tests, n, setup_tree, teardown_tree);
}
