/*
 * test_flow_msrfs - the pmon flows of every family on the real msr backend,
 * through the kernel, against /dev/cpu/N/msr emulated by tests/tools/msrfs
 * (FUSE, the simulator behind it). Events are injected through msrfs's /sim
 * control file. Families with pci boxes use their msr-space events here.
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
#include "testutil.h"

extern char **environ;

struct mount {
    char dir[256], mnt[300], root[320], simfile[320];
    pid_t pid;
};

static const char *msrfs_path(void)
{
    static char path[256];
    const char *b = getenv("BUILD");
    snprintf(path, sizeof(path), "%s/tests/tools/msrfs", b && *b ? b : "build");
    return path;
}

/* Why FUSE cannot be used here, or NULL. */
static const char *fuse_unavailable(void)
{
    if (access("/dev/fuse", R_OK | W_OK) != 0)
        return "/dev/fuse is missing or not accessible";
    if (system("command -v fusermount3 >/dev/null 2>&1") != 0)
        return "fusermount3 is not installed (Debian package fuse3)";
    if (access(msrfs_path(), X_OK) != 0)
        return "tests/tools/msrfs is not built";
    return NULL;
}

static int mount_spec(struct mount *m, const char *spec)
{
    tu_tmpdir(m->dir, sizeof(m->dir));
    snprintf(m->mnt, sizeof(m->mnt), "%s/mnt", m->dir);
    snprintf(m->root, sizeof(m->root), "%s/cpu", m->mnt);
    snprintf(m->simfile, sizeof(m->simfile), "%s/sim", m->mnt);
    mkdir(m->mnt, 0755);
    char *argv[] = {(char *)msrfs_path(), (char *)"--spec", (char *)spec, (char *)"--cpus",
                    (char *)"1",          m->mnt,           NULL};
    if (posix_spawn(&m->pid, argv[0], NULL, NULL, argv, environ) != 0)
        return -1;
    char probe[400];
    snprintf(probe, sizeof(probe), "%s/0/msr", m->root);
    for (int i = 0; i < 200; i++) {
        if (access(probe, F_OK) == 0)
            return 0;
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return -1;
}

static void unmount_spec(struct mount *m)
{
    char cmd[400];
    snprintf(cmd, sizeof(cmd), "fusermount3 -u -q '%s' 2>/dev/null", m->mnt);
    if (system(cmd) != 0)
        kill(m->pid, SIGTERM);
    waitpid(m->pid, NULL, 0);
    tu_rm_rf(m->dir);
}

/* A command to msrfs's control file; 0 or -errno. */
static int fs_command(struct mount *m, const char *cmd)
{
    int fd = open(m->simfile, O_WRONLY);
    if (fd < 0)
        return -errno;
    ssize_t w = write(fd, cmd, strlen(cmd));
    close(fd);
    return w == (ssize_t)strlen(cmd) ? 0 : -EIO;
}

/* n occurrences of the event named 'name', through the simulator behind msrfs. */
static int fs_event(void *ctx, const char *name, uint64_t n)
{
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "event %s %llu", name, (unsigned long long)n);
    return fs_command(ctx, cmd);
}

static void fs_batch(void *ctx, bool on)
{
    if (fs_command(ctx, on ? "batch 1" : "batch 0") != 0)
        fprintf(stderr, "msrfs: batch command refused\n");
}

/* One flow (poll or sample) of one case on a fresh msrfs mount. */
static void run_case(const struct flow_case *fc, bool sampling)
{
    const char *const *ev =
        sampling ? (fc->msr_sample_events[0] ? fc->msr_sample_events : fc->sample_events)
                 : (fc->msr_poll_events[0] ? fc->msr_poll_events : fc->poll_events);
    bool same = sampling ? !fc->msr_sample_events[0] : !fc->msr_poll_events[0];
    struct mount m = {0};
    if (mount_spec(&m, fc->spec) != 0) {
        unmount_spec(&m);
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
    if (!rc && regc_pmon_release(p) != 0)
        rc = -1, snprintf(why, sizeof(why), "release: %s", regc_pmon_error(p));
    if (!rc)
        rc = flow_snap_compare(d, snap, why, sizeof(why));
    free(snap);
    regc_pmon_free(p);
    regc_close(d);
    free(trace);
    unmount_spec(&m);
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
    const char *why = fuse_unavailable();
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
