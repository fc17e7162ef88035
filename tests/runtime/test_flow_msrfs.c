/*
 * test_flow_msrfs - the pmon flows of every family on the real msr backend,
 * through the kernel, against /dev/cpu/N/msr emulated by tests/tools/msrfs
 * (FUSE, the simulator behind it). Events are given by name through msrfs's
 * /sim control file and count where the control bits encode them. Families
 * with pci boxes use their msr-space events here.
 * SKIPs with the reason when FUSE or msrfs is unavailable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "flow_cases.h"
#include "msrfs_mount.h"

/* n occurrences of the event named 'name', through the simulator behind msrfs. */
static int fs_event(void *ctx, const char *name, uint64_t n)
{
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "event %s %llu", name, (unsigned long long)n);
    return msrfs_command(ctx, cmd) == 0 ? 0 : -EIO;
}

static void fs_batch(void *ctx, bool on)
{
    if (msrfs_command(ctx, on ? "batch 1" : "batch 0") != 0)
        fprintf(stderr, "msrfs: batch command refused\n");
}

/* One flow (poll or sample) of one case on a fresh msrfs mount. */
static void run_case(const struct flow_case *fc, bool sampling)
{
    const char *const *ev =
        sampling ? (fc->msr_sample_events[0] ? fc->msr_sample_events : fc->sample_events)
                 : (fc->msr_poll_events[0] ? fc->msr_poll_events : fc->poll_events);
    bool same = sampling ? !fc->msr_sample_events[0] : !fc->msr_poll_events[0];
    struct msrfs_mount m = {0};
    if (msrfs_mount(&m, fc->spec) != 0) {
        msrfs_unmount(&m);
        fail_msg("%s: cannot mount msrfs", fc->spec);
    }
    struct flow_trace *trace = calloc(1, sizeof(*trace));
    struct regc_options o = {
        .backend = "msr", .msr_root = m.root, .cpu = 0, .trace = flow_trace_fn, .trace_ctx = trace};
    regc_dev *d;
    regc_pmon_session *p;
    char err[256];
    assert_int_equal(regc_open(&d, flow_spec(fc->spec), &o, err, sizeof(err)), 0);
    assert_int_equal(regc_pmon_new(&p, d), 0);
    for (unsigned i = 0; i < flow_nev(ev); i++)
        if (regc_pmon_add(p, ev[i]) != 0)
            fail_msg("%s: %s", fc->spec, regc_pmon_error(p));
    /* what the boxes hold before: the release at the end gives it back */
    struct flow_snap *snap = calloc(1, sizeof(*snap));
    flow_snap_list(snap, flow_spec(fc->spec), p);
    assert_int_equal(flow_snap_read(d, snap), 0);
    trace->len = 0;
    trace->buf[0] = '\0';
    struct regc_pmon_opts po = {.sample = sampling ? fc->period : 0, .lock_dir = m.dir};
    struct flow_env env = {fs_event, fs_batch, &m};
    char why[512] = "";
    int rc = regc_pmon_start(p, &po);
    if (rc)
        snprintf(why, sizeof(why), "start: %s", regc_pmon_error(p));
    /* the access order of start + first interval is the reviewed one (same events as on the sim) */
    if (!rc && same) {
        unsigned got;
        if (sampling) {
            fs_batch(&m, true);
            for (unsigned i = 0; i < regc_pmon_count(p); i++)
                flow_inject(&env, p, i, fc->period + 1);
            fs_batch(&m, false);
            rc = regc_pmon_sample(p, NULL, 0, &got);
        } else {
            for (unsigned i = 0; i < regc_pmon_count(p); i++)
                flow_inject(&env, p, i, 100 + i);
            rc = regc_pmon_poll(p, NULL);
        }
        char path[256];
        snprintf(path, sizeof(path), "tests/runtime/flows/%s-%s.expected", fc->spec,
                 sampling ? "sample" : "poll");
        if (!rc)
            rc = flow_compare(path, trace->buf, why, sizeof(why));
        if (!rc)
            rc = regc_pmon_start(p, &po); /* again from the start for the counts */
    }
    if (!rc)
        rc = sampling ? flow_run_sample(p, &env, fc->period, why, sizeof(why))
                      : flow_run_poll(p, &env, why, sizeof(why));
    if (!rc && sampling) { /* rates far above the period: every whole period counted */
        rc = regc_pmon_start(p, &po);
        if (rc)
            snprintf(why, sizeof(why), "start again: %s", regc_pmon_error(p));
        else
            rc = flow_run_fast_sample(p, &env, fc->period, why, sizeof(why));
    }
    if (!rc && regc_pmon_release(p) != 0)
        rc = -1, snprintf(why, sizeof(why), "release: %s", regc_pmon_error(p));
    if (!rc)
        rc = flow_snap_compare(d, snap, why, sizeof(why));
    free(snap);
    regc_pmon_free(p);
    regc_close(d);
    free(trace);
    msrfs_unmount(&m);
    if (rc)
        fail_msg("%s %s through msrfs: %s", fc->spec, sampling ? "sample" : "poll", why);
}

static void t_poll(void **state)
{
    run_case(*state, false);
}

static void t_sample(void **state)
{
    run_case(*state, true);
}

int main(void)
{
    const char *why = msrfs_unavailable();
    if (why) {
        for (size_t i = 0; i < FLOW_NCASES; i++) {
            char name[96];
            snprintf(name, sizeof(name), "%s flows through msrfs", flow_cases[i].spec);
            tu_skip(name, why);
        }
        return 0;
    }
    struct CMUnitTest t[2 * FLOW_NCASES];
    char names[2 * FLOW_NCASES][80];
    size_t k = 0;
    for (size_t i = 0; i < FLOW_NCASES; i++)
        for (int j = 0; j < 2; j++, k++) {
            snprintf(names[k], sizeof(names[k]), "%s %s through msrfs", flow_cases[i].spec,
                     j ? "sample" : "poll");
            t[k] = (struct CMUnitTest){names[k], j ? t_sample : t_poll, NULL, NULL,
                                       (void *)&flow_cases[i]};
        }
    return _cmocka_run_group_tests("flow_msrfs", t, k, NULL, NULL);
}
