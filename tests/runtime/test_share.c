/*
 * test_share - sharing the hardware (runtime/share.c, docs/monitoring.md): a
 * box found in use is refused with its evidence unless forced; locks keep two
 * sessions (in one process, or a forked one) off the same box and the global
 * control; a release writes back what start found, boxes left frozen, in the
 * reviewed order (tests/runtime/flows/<spec>-release.expected); every error
 * path with its exact message. On the simulator, and on "test", a backend
 * that forwards to a simulator as hardware would (settle wait, kernel PMUs).
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "flow_cases.h"
#include "regc/backend.h"
#include "testutil.h"
#include "simutil.h"

static char lockdir[256];

/* ---- "test": the simulator reached like hardware */

static int hw_open(struct regc_backend *be, char *err, size_t len)
{
    be->priv = be->opt->sim;
    return be->priv ? 0 : -EINVAL;
}

static void hw_close(struct regc_backend *be)
{
    (void)be;
}

static int hw_read(struct regc_backend *be, const struct regc_io *io, uint64_t *v)
{
    return regc_sim_read(be->priv, io, v);
}

static int hw_write(struct regc_backend *be, const struct regc_io *io, uint64_t v)
{
    return regc_sim_write(be->priv, io, v);
}

static const struct regc_backend_ops hw_ops = {"test", hw_open, hw_close, hw_read, hw_write};

/* ---- fixture */

struct fx {
    const struct regc_spec *s;
    regc_sim *sim;
    regc_dev *d;
    regc_pmon_session *p;
    struct flow_trace trace;
    regc_trace_fn *tracefn; /* NULL: flow_trace_fn into 'trace' */
    void *tracectx;
};

struct fx_opts {
    bool hw;                /* the "test" backend instead of "sim" */
    const char *sysfs_root; /* test backend: where uncore PMUs are looked up */
    regc_sim *sim;          /* share another fixture's model */
    regc_trace_fn *trace;
    void *ctx;
};

static struct fx *fx_new(const char *spec, const char *const *ev, const struct fx_opts *o)
{
    static const struct fx_opts none;
    o = o ? o : &none;
    struct fx *f = calloc(1, sizeof(*f));
    assert_non_null(f);
    f->s = flow_spec(spec);
    assert_non_null(f->s);
    f->sim = o->sim;
    if (!f->sim)
        assert_int_equal(regc_sim_new(&f->sim, f->s), 0);
    struct regc_options ro = {.backend = "sim",
                              .ops = o->hw ? &hw_ops : NULL,
                              .sim = f->sim,
                              .sysfs_root = o->sysfs_root,
                              .trace = o->trace ? o->trace : flow_trace_fn,
                              .trace_ctx = o->trace ? o->ctx : &f->trace};
    char err[256];
    if (regc_open(&f->d, f->s, &ro, err, sizeof(err)) != 0)
        fail_msg("open: %s", err);
    assert_int_equal(regc_pmon_new(&f->p, f->d), 0);
    for (unsigned i = 0; i < flow_nev(ev); i++) /* flow cases' lists may fill FLOW_MAXEV: no NULL */
        if (regc_pmon_add(f->p, ev[i]) != 0)
            fail_msg("add %s: %s", ev[i], regc_pmon_error(f->p));
    return f;
}

/* 'owned': the model is the fixture's own (freed with it). */
static void fx_free(struct fx *f, bool owned)
{
    regc_pmon_free(f->p);
    regc_close(f->d);
    if (owned)
        regc_sim_free(f->sim);
    free(f);
}

static struct regc_ref ref(const struct fx *f, const char *path)
{
    return sim_ref(f->s, path);
}

static void poke(struct fx *f, const char *path, uint64_t v)
{
    sim_poke(f->sim, f->s, path, v);
}

static uint64_t peek(struct fx *f, const char *path)
{
    return sim_peek(f->sim, f->s, path);
}

static void trace_reset(struct fx *f)
{
    f->trace.len = 0;
    f->trace.buf[0] = '\0';
}

static struct regc_pmon_opts locked(void)
{
    return (struct regc_pmon_opts){.lock_dir = lockdir};
}

static void expect_error(const struct fx *f, const char *want)
{
    if (strcmp(regc_pmon_error(f->p), want) != 0)
        fail_msg("message\n  got:  %s\n  want: %s", regc_pmon_error(f->p), want);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *const cbox_ev[] = {"cbox[c3]:CLOCKTICKS", NULL};

#define SIM_REFUSED                                                                                \
    "failed: the simulated CPU refused the access (a reserved bit set, or no register at that "    \
    "address)"

/* The C-Box 3 session of most tests, the box found idle with a leftover count in CTR2. */
static struct fx *fx_cbox(const struct fx_opts *o)
{
    struct fx *f = fx_new("e5_2600v2", cbox_ev, o);
    poke(f, "cbox.c3.Cn_MSR_PMON_CTR2", 0x1234);
    return f;
}

/* Another session can lock the box now. */
static void assert_unlocked(const struct regc_pmon_opts *o)
{
    struct fx *g = fx_new("e5_2600v2", cbox_ev, NULL);
    assert_int_equal(regc_pmon_start(g->p, o), 0);
    fx_free(g, true);
}

/* ---- in use */

/* A counter control with a bit set, in a counter the session does not use: refused, nothing
   written. */
static void t_in_use_control(void **state)
{
    (void)state;
    struct fx *f = fx_new("e5_2600v2", cbox_ev, NULL);
    poke(f, "cbox.c3.Cn_MSR_PMON_CTL1", 0x400000);
    assert_int_equal(regc_pmon_start(f->p, NULL), -EBUSY);
    expect_error(f, "box 'cbox.c3' is in use (cbox.c3.Cn_MSR_PMON_CTL1 = 0x400000); refusing to "
                    "program it unless forced");
    struct regc_stats st;
    regc_get_stats(f->d, &st);
    assert_int_equal(st.writes, 0);
    assert_int_equal(peek(f, "cbox.c3.Cn_MSR_PMON_CTL1"), 0x400000);
    fx_free(f, true);
}

/* The box control's RW bits count (Xeon 7500 M-Box ctr_en); its freeze fields do not. */
static void t_in_use_box_control(void **state)
{
    (void)state;
    const char *const ev[] = {"mbox[mbox0]:DSP_FILL", NULL};
    struct fx *f = fx_new("xeon7500_mbox", ev, NULL);
    poke(f, "mbox.mbox0.M_MSR_PERF_GLOBAL_CTL", 0x4);
    assert_int_equal(regc_pmon_start(f->p, NULL), -EBUSY);
    expect_error(f, "box 'mbox.mbox0' is in use (mbox.mbox0.M_MSR_PERF_GLOBAL_CTL = 0x4); "
                    "refusing to program it unless forced");
    fx_free(f, true);
    /* E5-2600: frz and frz_en set (a session left it frozen) is not use */
    const char *const ev2[] = {"cbox[cbox1]:CLOCKTICKS", NULL};
    f = fx_new("e5_2600", ev2, NULL);
    poke(f, "cbox.cbox1.Cn_MSR_PMON_BOX_CTL", 0x10100);
    assert_int_equal(regc_pmon_start(f->p, NULL), 0);
    fx_free(f, true);
}

/* Several pieces of evidence and several boxes: the first box, three items, how many more. */
static void t_in_use_many(void **state)
{
    (void)state;
    const char *const ev[] = {"cbox[c3]:CLOCKTICKS", "pcu:CLOCKTICKS", "cbox[c1]:CLOCKTICKS", NULL};
    struct fx *f = fx_new("e5_2600v2", ev, NULL);
    for (int i = 0; i < 4; i++) {
        char path[64];
        snprintf(path, sizeof(path), "cbox.c3.Cn_MSR_PMON_CTL%d", i);
        poke(f, path, 0x400000 + (uint64_t)i);
    }
    poke(f, "pcu.PCU_MSR_PMON_CTL2", 0x1);
    poke(f, "cbox.c1.Cn_MSR_PMON_CTL0", 0x42);
    assert_int_equal(regc_pmon_start(f->p, NULL), -EBUSY);
    expect_error(f, "box 'cbox.c3' is in use (cbox.c3.Cn_MSR_PMON_CTL0 = 0x400000, "
                    "cbox.c3.Cn_MSR_PMON_CTL1 = 0x400001, cbox.c3.Cn_MSR_PMON_CTL2 = 0x400002, "
                    "...), and 2 more boxes; refusing to program them unless forced");
    fx_free(f, true);
}

/* Forced: programmed with a warning; released, the other user's control is back, frozen. */
static void t_force(void **state)
{
    (void)state;
    struct fx *f = fx_new("e5_2600v2", cbox_ev, NULL);
    poke(f, "cbox.c3.Cn_MSR_PMON_CTL1", 0x400000);
    poke(f, "cbox.c3.Cn_MSR_PMON_CTR1", 0x777);
    struct regc_pmon_opts o = {.force = true};
    assert_int_equal(regc_pmon_start(f->p, &o), 0);
    assert_string_equal(regc_pmon_warning(f->p),
                        "box 'cbox.c3' is in use (cbox.c3.Cn_MSR_PMON_CTL1 = 0x400000): "
                        "programming it as forced");
    assert_int_equal(peek(f, "cbox.c3.Cn_MSR_PMON_CTL1"), 0); /* the box reset cleared it */
    assert_int_equal(regc_pmon_poll(f->p, NULL), 0);
    assert_int_equal(regc_pmon_release(f->p), 0);
    assert_string_equal(regc_pmon_warning(f->p), "");
    assert_int_equal(peek(f, "cbox.c3.Cn_MSR_PMON_CTL1"), 0x400000);
    assert_int_equal(peek(f, "cbox.c3.Cn_MSR_PMON_CTR1"), 0x777);
    assert_true(regc_sim_global_frozen(f->sim));
    assert_int_equal(regc_sim_event(f->sim, "cbox[c3]:CLOCKTICKS", 5), 0); /* CTL1 encodes it */
    assert_int_equal(peek(f, "cbox.c3.Cn_MSR_PMON_CTR1"), 0x777); /* enabled, but frozen */
    fx_free(f, true);
}

/* A counter that changes between the two reads (here with no control set: free-running). */
struct advance {
    regc_sim *sim;
    const char *name;
    unsigned reads;
};

static void advance_trace(void *ctx, bool write, const struct regc_io *io, uint64_t v, int rc)
{
    struct advance *a = ctx;
    char nm[160];
    if (write || rc || !io->ref || strcmp(regc_ref_name(io->ref, nm, sizeof(nm)), a->name) != 0)
        return;
    if (a->reads++ == 0)
        regc_sim_poke(a->sim, io->ref, v + 5);
}

static void t_advancing(void **state)
{
    (void)state;
    regc_sim *sim;
    assert_int_equal(regc_sim_new(&sim, flow_spec("e5_2600v2")), 0);
    struct advance a = {sim, "cbox.c3.Cn_MSR_PMON_CTR2", 0};
    struct fx_opts fo = {.sim = sim, .trace = advance_trace, .ctx = &a};
    struct fx *f = fx_new("e5_2600v2", cbox_ev, &fo);
    poke(f, "cbox.c3.Cn_MSR_PMON_CTR2", 0x10);
    assert_int_equal(regc_pmon_start(f->p, NULL), -EBUSY);
    expect_error(f, "box 'cbox.c3' is in use (cbox.c3.Cn_MSR_PMON_CTR2 advanced from 0x10 to "
                    "0x15); refusing to program it unless forced");
    assert_int_equal(a.reads, 2);
    fx_free(f, true);
}

/* On hardware the counters are watched for settle_ms (default 10 ms); not on the simulator. */
static void t_settle(void **state)
{
    (void)state;
    struct fx_opts hw = {.hw = true};
    struct fx *f = fx_new("e5_2600v2", cbox_ev, &hw);
    struct regc_pmon_opts o = {.settle_ms = 120, .lock_dir = lockdir};
    double t0 = now();
    assert_int_equal(regc_pmon_start(f->p, &o), 0);
    assert_true(now() - t0 >= 0.12);
    o.settle_ms = 0;
    t0 = now();
    assert_int_equal(regc_pmon_start(f->p, &o), 0); /* released, then claimed again */
    assert_true(now() - t0 >= 0.01);
    fx_free(f, true);
}

/* ---- locks */

/* A forked process holds the box: refused with its pid; with lock_wait, started once it lets go.
 */
static void t_lock_other_process(void **state)
{
    (void)state;
    int ready[2], go[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(go), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct fx *c = fx_new("e5_2600v2", cbox_ev, NULL);
        struct regc_pmon_opts o = locked();
        char b = regc_pmon_start(c->p, &o) == 0 ? 'y' : 'n';
        if (write(ready[1], &b, 1) != 1 || read(go[0], &b, 1) != 1)
            _exit(1);
        struct timespec ts = {0, 150 * 1000 * 1000};
        nanosleep(&ts, NULL);
        _exit(regc_pmon_release(c->p) == 0 ? 0 : 1);
    }
    char b = 0;
    assert_int_equal(read(ready[0], &b, 1), 1);
    assert_int_equal(b, 'y');
    struct fx *f = fx_new("e5_2600v2", cbox_ev, NULL);
    struct regc_pmon_opts o = locked();
    assert_int_equal(regc_pmon_start(f->p, &o), -EBUSY);
    char want[512];
    snprintf(want, sizeof(want),
             "box 'cbox.c3' is locked by another session (pid %d holds '%s/sim-cpu0-cbox.c3.lock')",
             (int)pid, lockdir);
    expect_error(f, want);
    o.lock_wait = true;
    double t0 = now();
    assert_int_equal(write(go[1], "g", 1), 1);
    assert_int_equal(regc_pmon_start(f->p, &o), 0);
    assert_true(now() - t0 >= 0.1);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    fx_free(f, true);
    close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
}

/* Two library users in one process; the global control: exclusive for a flow that freezes through
 * it, shared otherwise. */
static void t_lock_global(void **state)
{
    (void)state;
    const char *const qpi_ev[] = {"qpi[p0]:TxL_FLITS_G0.DATA", NULL};
    struct fx *a = fx_new("e5_2600v2", cbox_ev, NULL), *b = fx_new("e5_2600v2", qpi_ev, NULL);
    struct regc_pmon_opts per_box = {.per_box = true, .lock_dir = lockdir}, global = locked();
    assert_int_equal(regc_pmon_start(a->p, &per_box), 0);
    assert_int_equal(regc_pmon_start(b->p, &global), -EBUSY);
    char want[512];
    snprintf(want, sizeof(want),
             "the global control is locked by another session (pid %d holds "
             "'%s/sim-cpu0-global.lock')",
             (int)getpid(), lockdir);
    expect_error(b, want);
    assert_int_equal(regc_pmon_start(b->p, &per_box), 0); /* per box, other box: both run */
    struct fx *c = fx_new("e5_2600v2", cbox_ev, NULL);
    assert_int_equal(regc_pmon_start(c->p, &per_box), -EBUSY); /* same box */
    snprintf(want, sizeof(want),
             "box 'cbox.c3' is locked by another session (pid %d holds "
             "'%s/sim-cpu0-cbox.c3.lock')",
             (int)getpid(), lockdir);
    expect_error(c, want);
    assert_int_equal(regc_pmon_release(a->p), 0);
    assert_int_equal(regc_pmon_start(c->p, &per_box), 0); /* a released its locks */
    fx_free(c, true);
    fx_free(b, true);
    fx_free(a, true);
}

static void on_alarm(int sig)
{
    (void)sig;
}

/* A signal while waiting for a lock ends the wait. */
static void t_lock_interrupted(void **state)
{
    (void)state;
    struct fx *a = fx_new("e5_2600v2", cbox_ev, NULL), *b = fx_new("e5_2600v2", cbox_ev, NULL);
    struct regc_pmon_opts o = locked();
    assert_int_equal(regc_pmon_start(a->p, &o), 0);
    struct sigaction sa = {.sa_handler = on_alarm}, old;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &old);
    struct itimerval it = {.it_value = {0, 50 * 1000}, .it_interval = {0, 50 * 1000}}, off;
    memset(&off, 0, sizeof(off));
    setitimer(ITIMER_REAL, &it, NULL);
    o.lock_wait = true;
    int rc = regc_pmon_start(b->p, &o);
    setitimer(ITIMER_REAL, &off, NULL);
    sigaction(SIGALRM, &old, NULL);
    assert_int_equal(rc, -EINTR);
    expect_error(b, "interrupted while waiting for the lock on box 'cbox.c3'");
    fx_free(b, true);
    fx_free(a, true);
}

/* A lock directory that cannot be made; a lock file that cannot be opened. */
static void t_lock_errors(void **state)
{
    (void)state;
    struct fx *f = fx_new("e5_2600v2", cbox_ev, NULL);
    char dir[400], want[600];
    snprintf(dir, sizeof(dir), "%s/no/such", lockdir);
    struct regc_pmon_opts o = {.lock_dir = dir};
    assert_int_equal(regc_pmon_start(f->p, &o), -ENOENT);
    snprintf(want, sizeof(want), "cannot create the lock directory '%s': No such file or directory",
             dir);
    expect_error(f, want);
    snprintf(dir, sizeof(dir), "%s/dirs", lockdir);
    mkdir(dir, 0755);
    char sub[500];
    snprintf(sub, sizeof(sub), "%s/sim-cpu0-cbox.c3.lock", dir);
    mkdir(sub, 0755); /* a directory where the lock file should be */
    assert_int_equal(regc_pmon_start(f->p, &o), -EISDIR);
    snprintf(want, sizeof(want), "cannot open the lock file '%s': Is a directory", sub);
    expect_error(f, want);
    fx_free(f, true);
}

/* The simulator is private to its process: no lock unless a directory is given explicitly, not
 * even with $REGC_LOCK_DIR; a dry run takes none either. */
static void t_lock_sim_default(void **state)
{
    (void)state;
    char dir[400];
    snprintf(dir, sizeof(dir), "%s/env", lockdir);
    mkdir(dir, 0755);
    const char *env = getenv("REGC_LOCK_DIR");
    char *saved = env ? strdup(env) : NULL;
    setenv("REGC_LOCK_DIR", dir, 1);
    struct fx *a = fx_new("e5_2600v2", cbox_ev, NULL), *b = fx_new("e5_2600v2", cbox_ev, NULL);
    assert_int_equal(regc_pmon_start(a->p, NULL), 0);
    assert_int_equal(regc_pmon_start(b->p, NULL), 0);
    char path[500];
    snprintf(path, sizeof(path), "%s/sim-cpu0-cbox.c3.lock", dir);
    assert_int_equal(access(path, F_OK), -1);
    fx_free(b, true);
    fx_free(a, true);
    /* dry run: reads and writes only traced, no lock file even when given a directory */
    regc_dev *d;
    struct flow_trace *t = calloc(1, sizeof(*t));
    struct regc_options ro = {
        .backend = "msr", .dry_run = true, .trace = flow_trace_fn, .trace_ctx = t};
    char err[256];
    assert_int_equal(regc_open(&d, flow_spec("e5_2600v2"), &ro, err, sizeof(err)), 0);
    regc_pmon_session *p;
    assert_int_equal(regc_pmon_new(&p, d), 0);
    assert_int_equal(regc_pmon_add(p, cbox_ev[0]), 0);
    struct regc_pmon_opts o = {.lock_dir = dir};
    assert_int_equal(regc_pmon_start(p, &o), 0);
    assert_int_equal(regc_pmon_release(p), 0);
    snprintf(path, sizeof(path), "%s/msr-cpu0-cbox.c3.lock", dir);
    assert_int_equal(access(path, F_OK), -1);
    assert_non_null(strstr(t->buf, "rd cbox.c3.Cn_MSR_PMON_CTL3 0x0\n"));
    assert_non_null(strstr(t->buf, "wr cbox.c3.Cn_MSR_PMON_CTL3 0x0\n"));
    regc_pmon_free(p);
    regc_close(d);
    free(t);
    if (saved)
        setenv("REGC_LOCK_DIR", saved, 1);
    else
        unsetenv("REGC_LOCK_DIR");
    free(saved);
}

/* The msr driver's device of a CPU: locks name its package (sysfs topology). Here /dev/null stands
 * in for the character device; the reads then fail, after the lock was taken. */
static void t_lock_package(void **state)
{
    (void)state;
    char root[400], sys[400], dir[400];
    snprintf(root, sizeof(root), "%s/dev", lockdir);
    snprintf(sys, sizeof(sys), "%s/sys", lockdir);
    snprintf(dir, sizeof(dir), "%s/pkg", lockdir);
    tu_write(root, "1/placeholder", "", 0);
    char link[500];
    snprintf(link, sizeof(link), "%s/1/msr", root);
    assert_int_equal(symlink("/dev/null", link), 0);
    tu_write(sys, "devices/system/cpu/cpu1/topology/physical_package_id", "3\n", -1);
    struct regc_options ro = {.backend = "msr", .cpu = 1, .msr_root = root, .sysfs_root = sys};
    regc_dev *d;
    char err[256];
    assert_int_equal(regc_open(&d, flow_spec("e5_2600v2"), &ro, err, sizeof(err)), 0);
    regc_pmon_session *p;
    assert_int_equal(regc_pmon_new(&p, d), 0);
    assert_int_equal(regc_pmon_add(p, cbox_ev[0]), 0);
    struct regc_pmon_opts o = {.lock_dir = dir};
    assert_true(regc_pmon_start(p, &o) < 0);
    assert_non_null(strstr(regc_pmon_error(p), "read cbox.c3.Cn_MSR_PMON_CTL0: "));
    char path[500];
    snprintf(path, sizeof(path), "%s/msr-pkg3-cbox.c3.lock", dir);
    assert_int_equal(access(path, F_OK), 0);
    snprintf(path, sizeof(path), "%s/msr-pkg3-global.lock", dir);
    assert_int_equal(access(path, F_OK), 0);
    regc_pmon_free(p);
    regc_close(d);
}

/* ---- lock files no one else can turn against a run (docs/runtime.md "Lock files") */

/* What a file someone planted must keep: its inode, size, modification time and text. */
struct keep {
    struct stat st;
    char text[64];
};

static void keep_take(const char *path, struct keep *k)
{
    memset(k, 0, sizeof(*k));
    assert_int_equal(stat(path, &k->st), 0);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(k->text, 1, sizeof(k->text) - 1, f);
    k->text[n] = '\0';
    fclose(f);
}

static void keep_check(const char *path, const struct keep *k)
{
    struct keep now;
    keep_take(path, &now);
    assert_string_equal(now.text, k->text);
    assert_int_equal(now.st.st_ino, k->st.st_ino);
    assert_int_equal(now.st.st_size, k->st.st_size);
    assert_int_equal(now.st.st_mtim.tv_sec, k->st.st_mtim.tv_sec);
    assert_int_equal(now.st.st_mtim.tv_nsec, k->st.st_mtim.tv_nsec);
}

/* lockdir/name, new, with 'mode' (umask aside); its physical path (for messages) in real. */
static void fresh_dir(char *dir, size_t len, const char *name, mode_t mode, char *real)
{
    snprintf(dir, len, "%s/%s", lockdir, name);
    tu_rm_rf(dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    assert_int_equal(chmod(dir, mode), 0);
    if (real)
        assert_non_null(realpath(dir, real));
}

/* "victim": a file a planted name points to, with something in it. */
static void victim(char *path, size_t len, struct keep *k)
{
    snprintf(path, len, "%s/victim", lockdir);
    tu_write(lockdir, "victim", "not a lock file\n", -1);
    assert_int_equal(chmod(path, 0600), 0);
    keep_take(path, k);
}

/* A run fails on dir/name; once the name is gone, it locks (what it locked before was let go). */
static void expect_refused(const char *dir, const char *name, int rc, const char *want)
{
    struct fx *f = fx_new("e5_2600v2", cbox_ev, NULL);
    struct regc_pmon_opts o = {.lock_dir = dir};
    assert_int_equal(regc_pmon_start(f->p, &o), rc);
    expect_error(f, want);
    char path[600];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(regc_pmon_start(f->p, &o), 0);
    fx_free(f, true);
}

/* A run refused the lock directory 'given' (-EPERM, the message 'want'), and made no lock file in
 * 'where'. */
static void expect_unsafe_dir(const char *given, const char *want, const char *where)
{
    struct fx *f = fx_new("e5_2600v2", cbox_ev, NULL);
    struct regc_pmon_opts o = {.lock_dir = given};
    assert_int_equal(regc_pmon_start(f->p, &o), -EPERM);
    expect_error(f, want);
    fx_free(f, true);
    char path[600];
    snprintf(path, sizeof(path), "%s/sim-cpu0-cbox.c3.lock", where);
    assert_int_equal(access(path, F_OK), -1);
}

/* A symbolic link where a lock file goes is not followed: its target keeps its text, inode and
 * time; a dangling one creates nothing. The global lock comes after the box's (name order). */
static void t_lock_symlink(void **state)
{
    (void)state;
    char dir[400], v[400], link[600], want[1400], ghost[400];
    struct keep k;
    fresh_dir(dir, sizeof(dir), "planted", 0700, NULL);
    victim(v, sizeof(v), &k);
    snprintf(link, sizeof(link), "%s/sim-cpu0-global.lock", dir);
    assert_int_equal(symlink(v, link), 0);
    snprintf(want, sizeof(want), "the lock file '%s' is a symbolic link; refusing to follow it",
             link);
    expect_refused(dir, "sim-cpu0-global.lock", -ELOOP, want);
    keep_check(v, &k);
    snprintf(ghost, sizeof(ghost), "%s/ghost", lockdir);
    assert_int_equal(unlink(link), 0); /* the run's own lock file, by now */
    assert_int_equal(symlink(ghost, link), 0);
    expect_refused(dir, "sim-cpu0-global.lock", -ELOOP, want);
    assert_int_equal(access(ghost, F_OK), -1);
}

/* Other things where a lock file goes: a FIFO (not opened for long: no hang), a hard link to
 * another file. Lock files the run made are empty and private (0600): nothing is written. */
static void t_lock_planted(void **state)
{
    (void)state;
    char dir[400], v[400], path[600], want[1400];
    struct keep k;
    fresh_dir(dir, sizeof(dir), "kinds", 0700, NULL);
    victim(v, sizeof(v), &k);
    snprintf(path, sizeof(path), "%s/sim-cpu0-global.lock", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    snprintf(want, sizeof(want), "the lock file '%s' is not a regular file; refusing it", path);
    expect_refused(dir, "sim-cpu0-global.lock", -EINVAL, want);
    assert_int_equal(unlink(path), 0); /* the run's own lock file, by now */
    assert_int_equal(link(v, path), 0);
    snprintf(want, sizeof(want),
             "the lock file '%s' has 2 names (a hard link to another file?); refusing it", path);
    expect_refused(dir, "sim-cpu0-global.lock", -EPERM, want);
    keep_check(v, &k);
    const char *const made[] = {"sim-cpu0-cbox.c3.lock", "sim-cpu0-global.lock"};
    for (unsigned i = 0; i < 2; i++) {
        struct stat st;
        snprintf(path, sizeof(path), "%s/%s", dir, made[i]);
        assert_int_equal(stat(path, &st), 0);
        assert_int_equal(st.st_size, 0);
        assert_int_equal(st.st_mode & 07777, 0600);
        assert_int_equal(st.st_uid, geteuid());
    }
}

/* A lock directory others can write to without the sticky bit is refused; with it, used; a
 * symbolic link of ours on the way is followed; a missing last component is made (0755). */
static void t_lock_dir_modes(void **state)
{
    (void)state;
    char dir[400], real[PATH_MAX], want[2 * PATH_MAX];
    const mode_t bad[] = {0777, 0770, 0702};
    for (unsigned i = 0; i < 3; i++) {
        fresh_dir(dir, sizeof(dir), "open", bad[i], real);
        snprintf(want, sizeof(want),
                 "the lock directory '%s' is not safe: others can write to '%s' and it has no "
                 "sticky bit (they could replace the lock files)",
                 dir, real);
        expect_unsafe_dir(dir, want, dir);
    }
    fresh_dir(dir, sizeof(dir), "sticky", 01777, NULL);
    struct regc_pmon_opts o = {.lock_dir = dir};
    assert_unlocked(&o);
    char via[400], sub[500], path[600];
    snprintf(via, sizeof(via), "%s/via", lockdir);
    unlink(via);
    assert_int_equal(symlink("sticky", via), 0); /* relative, as people write them */
    snprintf(sub, sizeof(sub), "%s/made/", via);
    o.lock_dir = sub;
    assert_unlocked(&o);
    snprintf(path, sizeof(path), "%s/made/sim-cpu0-cbox.c3.lock", dir);
    assert_int_equal(access(path, F_OK), 0);
    struct stat st;
    snprintf(path, sizeof(path), "%s/made", dir);
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0755 & ~tu_umask());
}

/*
 * What another user (uid 65534) can own: the lock directory, a symbolic link on the way, a lock
 * file in a directory everyone can write to: each refused, each untouched. A file of theirs in a
 * directory only we can write to was put there by us or root: used. (Root only: chown;
 * tests/runtime/run-lock.sh has that user do it.)
 */
static void t_lock_foreign(void **state)
{
    (void)state;
    char dir[400], real[PATH_MAX], want[2 * PATH_MAX], path[600];
    fresh_dir(dir, sizeof(dir), "theirs", 01777, real);
    assert_int_equal(chown(dir, 65534, 65534), 0);
    snprintf(want, sizeof(want),
             "the lock directory '%s' is not safe: '%s' belongs to uid 65534, not to root or you "
             "(its owner could replace the lock files)",
             dir, real);
    expect_unsafe_dir(dir, want, dir);

    char pub[400], link[500], given[600];
    fresh_dir(pub, sizeof(pub), "pub", 01777, real);
    fresh_dir(dir, sizeof(dir), "mine", 0755, NULL);
    snprintf(link, sizeof(link), "%s/link", pub);
    assert_int_equal(symlink(dir, link), 0);
    assert_int_equal(lchown(link, 65534, 65534), 0);
    snprintf(given, sizeof(given), "%s/link", pub);
    snprintf(want, sizeof(want),
             "the lock directory '%s' is not safe: '%s/link' is a symbolic link that belongs to "
             "uid 65534, not to root or you",
             given, real);
    expect_unsafe_dir(given, want, dir);

    struct keep k;
    struct fx *f = fx_new("e5_2600v2", cbox_ev, NULL);
    struct regc_pmon_opts o = {.lock_dir = pub};
    snprintf(path, sizeof(path), "%s/sim-cpu0-cbox.c3.lock", pub);
    tu_write(pub, "sim-cpu0-cbox.c3.lock", "theirs\n", -1);
    assert_int_equal(chown(path, 65534, 65534), 0);
    keep_take(path, &k);
    assert_int_equal(regc_pmon_start(f->p, &o), -EPERM);
    snprintf(want, sizeof(want),
             "the lock file '%s' belongs to uid 65534, who could remove it and break the lock; "
             "refusing it",
             path);
    expect_error(f, want);
    keep_check(path, &k);

    snprintf(path, sizeof(path), "%s/sim-cpu0-cbox.c3.lock", dir);
    tu_write(dir, "sim-cpu0-cbox.c3.lock", "", -1);
    assert_int_equal(chown(path, 65534, 65534), 0);
    o.lock_dir = dir;
    assert_int_equal(regc_pmon_start(f->p, &o), 0);
    fx_free(f, true);
}

/* ---- restore */

/*
 * Leftovers of an idle box (counter values, the global PMI routing) come
 * back after start, poll and release, in the reviewed order, and the boxes
 * are left frozen.
 */
static void release_case(const char *spec, const char *const *ev, const char *const *leftover,
                         const uint64_t *values)
{
    struct fx *f = fx_new(spec, ev, NULL);
    for (unsigned i = 0; leftover[i]; i++)
        poke(f, leftover[i], values[i]);
    struct flow_snap *snap = calloc(1, sizeof(*snap));
    flow_snap_list(snap, f->s, f->p);
    assert_int_equal(flow_snap_read(f->d, snap), 0);
    struct regc_pmon_opts o = locked();
    assert_int_equal(regc_pmon_start(f->p, &o), 0);
    assert_int_equal(regc_pmon_poll(f->p, NULL), 0);
    trace_reset(f);
    assert_int_equal(regc_pmon_release(f->p), 0);
    char path[256], why[512];
    snprintf(path, sizeof(path), "tests/runtime/flows/%s-release.expected", spec);
    if (flow_compare(path, f->trace.buf, why, sizeof(why)) != 0)
        fail_msg("%s\nactual:\n%s", why, f->trace.buf);
    if (flow_snap_compare(f->d, snap, why, sizeof(why)) != 0)
        fail_msg("%s: %s", spec, why);
    for (unsigned i = 0; leftover[i]; i++)
        assert_int_equal(peek(f, leftover[i]), values[i]);
    free(snap);
    fx_free(f, true);
}

static void t_release_e5_2600v2(void **state)
{
    (void)state;
    const char *const ev[] = {"cbox[c3]:CLOCKTICKS", "ubox:EVENT_MSG.DOORBELL_RCVD", NULL};
    const char *const left[] = {"cbox.c3.Cn_MSR_PMON_CTR2", "ubox.U_MSR_PMON_CTR1",
                                "ubox.U_MSR_PMON_GLOBAL_CTL", NULL};
    release_case("e5_2600v2", ev, left, (const uint64_t[]){0x1234, 0x99, 0x5});
}

static void t_release_e5_2600(void **state)
{
    (void)state;
    const char *const ev[] = {"cbox[cbox1]:CLOCKTICKS", "ubox:EVENT_MSG.DOORBELL_RCVD", NULL};
    const char *const left[] = {"cbox.cbox1.Cn_MSR_PMON_CTR3", "ubox.U_MSR_PMON_CTR0", NULL};
    release_case("e5_2600", ev, left, (const uint64_t[]){0xabc, 0x42});
}

/*
 * Every family: session A counts; B, forced, takes its boxes over and
 * releases them: A's registers read as before (less the freeze fields), and
 * nothing counts any more (frozen) but in boxes nothing can freeze.
 */
static void t_takeover(void **state)
{
    const struct flow_case *fc = *state;
    struct fx *a = fx_new(fc->spec, fc->poll_events, NULL);
    struct fx_opts fo = {.sim = a->sim};
    struct fx *b = fx_new(fc->spec, fc->poll_events, &fo);
    if (regc_pmon_start(a->p, NULL) != 0)
        fail_msg("%s: start: %s", fc->spec, regc_pmon_error(a->p));
    struct flow_env env = {flow_sim_event, flow_sim_batch, a->sim};
    unsigned n = regc_pmon_count(a->p);
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(flow_inject(&env, a->p, i, 100 + i), 0);
    struct flow_snap *snap = calloc(1, sizeof(*snap));
    flow_snap_list(snap, a->s, a->p);
    assert_int_equal(flow_snap_read(a->d, snap), 0);
    struct regc_pmon_opts o = {.force = true};
    if (regc_pmon_start(b->p, &o) != 0)
        fail_msg("%s: forced start: %s", fc->spec, regc_pmon_error(b->p));
    assert_non_null(strstr(regc_pmon_warning(b->p), "is in use ("));
    assert_int_equal(regc_pmon_poll(b->p, NULL), 0);
    assert_int_equal(regc_pmon_release(b->p), 0);
    char why[512];
    if (flow_snap_compare(a->d, snap, why, sizeof(why)) != 0)
        fail_msg("%s: %s", fc->spec, why);
    for (unsigned i = 0; i < n; i++) {
        struct regc_pmon_info in;
        regc_pmon_info(a->p, i, &in);
        uint64_t before, after;
        assert_int_equal(regc_sim_peek(a->sim, &in.ctr, &before), 0);
        assert_int_equal(flow_inject(&env, a->p, i, 7), 0);
        assert_int_equal(regc_sim_peek(a->sim, &in.ctr, &after), 0);
        bool late = !a->s->pmon_global && !in.block->pmon->box_control; /* E5-2600 U-Box */
        if (late ? before == after : before != after)
            fail_msg("%s: event %s %s after the release", fc->spec, in.name,
                     late ? "stopped counting" : "counts");
    }
    free(snap);
    fx_free(b, false);
    fx_free(a, true);
}

/* A write that fails while restoring: reported, the other registers still restored, unlocked. */
static void t_restore_fails(void **state)
{
    (void)state;
    struct fx *f = fx_cbox(NULL);
    struct regc_pmon_opts o = locked();
    assert_int_equal(regc_pmon_start(f->p, &o), 0);
    struct regc_ref ctl1 = ref(f, "cbox.c3.Cn_MSR_PMON_CTL1");
    regc_sim_fail_address(f->sim, ctl1.address, EIO);
    assert_int_equal(regc_pmon_release(f->p), -EIO);
    expect_error(f, "restoring cbox.c3.Cn_MSR_PMON_CTL1: writing 'cbox.c3.Cn_MSR_PMON_CTL1' "
                    "(msr 0xd71, cpu 0) " SIM_REFUSED);
    regc_sim_faults_clear(f->sim);
    assert_int_equal(peek(f, "cbox.c3.Cn_MSR_PMON_CTR2"), 0x1234);
    assert_unlocked(&o);
    fx_free(f, true);
}

/* Reads the claim makes before the flow's first write (counted on a clean start). */
static unsigned long reads_before_write(const char *spec, const char *const *ev)
{
    struct fx *f = fx_new(spec, ev, NULL);
    assert_int_equal(regc_pmon_start(f->p, NULL), 0);
    struct regc_stats st;
    regc_get_stats(f->d, &st);
    fx_free(f, true);
    return st.reads;
}

/* After the first failed write, every access to 'address' fails too (the restore's). */
struct then_fail {
    regc_sim *sim;
    uint64_t address;
};

static void then_fail_trace(void *ctx, bool write, const struct regc_io *io, uint64_t v, int rc)
{
    struct then_fail *tf = ctx;
    if (write && rc)
        regc_sim_fail_address(tf->sim, tf->address, EIO);
}

/* A start that fails midway restores what it found and unlocks; a failed restore is added to the
 * first error. */
static void t_start_fails(void **state)
{
    (void)state;
    unsigned long reads = reads_before_write("e5_2600v2", cbox_ev);
    struct fx *f = fx_cbox(NULL);
    regc_sim_fail_nth(f->sim, reads + 1, EIO);
    struct regc_pmon_opts o = locked();
    assert_int_equal(regc_pmon_start(f->p, &o), -EIO);
    expect_error(f, "write ubox.U_MSR_PMON_GLOBAL_CTL: writing 'ubox.U_MSR_PMON_GLOBAL_CTL' (msr "
                    "0xc00, cpu 0) " SIM_REFUSED);
    assert_int_equal(peek(f, "cbox.c3.Cn_MSR_PMON_CTR2"), 0x1234);
    assert_unlocked(&o);
    fx_free(f, true);

    regc_sim *sim;
    assert_int_equal(regc_sim_new(&sim, flow_spec("e5_2600v2")), 0);
    struct then_fail tf = {sim, 0};
    struct fx_opts fo = {.sim = sim, .trace = then_fail_trace, .ctx = &tf};
    f = fx_cbox(&fo);
    tf.address = ref(f, "cbox.c3.Cn_MSR_PMON_CTR1").address;
    regc_sim_fail_nth(sim, reads + 1, EIO);
    assert_int_equal(regc_pmon_start(f->p, &o), -EIO);
    expect_error(f, "write ubox.U_MSR_PMON_GLOBAL_CTL: writing 'ubox.U_MSR_PMON_GLOBAL_CTL' (msr "
                    "0xc00, cpu 0) " SIM_REFUSED "; restoring failed too: restoring "
                    "cbox.c3.Cn_MSR_PMON_CTR1: writing 'cbox.c3.Cn_MSR_PMON_CTR1' (msr 0xd77, "
                    "cpu 0) " SIM_REFUSED);
    regc_sim_faults_clear(sim);
    /* started again while started: the release of the first fails */
    assert_int_equal(regc_pmon_start(f->p, &o), 0);
    regc_sim_fail_address(sim, tf.address, EIO);
    assert_int_equal(regc_pmon_start(f->p, &o), -EIO);
    expect_error(f, "restoring cbox.c3.Cn_MSR_PMON_CTR1: writing 'cbox.c3.Cn_MSR_PMON_CTR1' (msr "
                    "0xd77, cpu 0) " SIM_REFUSED);
    regc_sim_faults_clear(sim);
    fx_free(f, true);
}

/* A read that fails while the boxes are checked: nothing written, nothing locked. */
static void t_check_read_fails(void **state)
{
    (void)state;
    struct fx *f = fx_new("e5_2600v2", cbox_ev, NULL);
    regc_sim_fail_address(f->sim, ref(f, "cbox.c3.Cn_MSR_PMON_CTL0").address, EIO);
    struct regc_pmon_opts o = locked();
    assert_int_equal(regc_pmon_start(f->p, &o), -EIO);
    expect_error(f, "read cbox.c3.Cn_MSR_PMON_CTL0: reading 'cbox.c3.Cn_MSR_PMON_CTL0' (msr "
                    "0xd70, cpu 0) " SIM_REFUSED);
    struct regc_stats st;
    regc_get_stats(f->d, &st);
    assert_int_equal(st.writes, 0);
    assert_unlocked(&o);
    fx_free(f, true);
}

/* Started twice: the second start puts back what the first found, then claims again (its own
 * programming is not "in use"). */
static void t_restart(void **state)
{
    (void)state;
    struct fx *f = fx_cbox(NULL);
    struct regc_pmon_opts o = locked();
    assert_int_equal(regc_pmon_start(f->p, &o), 0);
    assert_int_equal(regc_pmon_start(f->p, &o), 0);
    assert_int_equal(regc_pmon_release(f->p), 0);
    assert_int_equal(regc_pmon_release(f->p), 0); /* nothing left to do */
    assert_int_equal(peek(f, "cbox.c3.Cn_MSR_PMON_CTR2"), 0x1234);
    assert_int_equal(peek(f, "cbox.c3.Cn_MSR_PMON_CTL0"), 0);
    fx_free(f, true);
}

/* ---- the kernel's uncore PMUs (on hardware only: not the simulator) */

static void t_kernel_pmu(void **state)
{
    (void)state;
    char sys[400];
    snprintf(sys, sizeof(sys), "%s/ksys", lockdir);
    tu_write(sys, "bus/event_source/devices/uncore_cbox_3/type", "14\n", -1);
    struct fx_opts hw = {.hw = true, .sysfs_root = sys};
    struct fx *f = fx_new("e5_2600v2", cbox_ev, &hw);
    struct regc_pmon_opts o = {.settle_ms = -1, .lock_dir = lockdir};
    assert_int_equal(regc_pmon_start(f->p, &o), 0);
    assert_string_equal(regc_pmon_warning(f->p),
                        "the kernel's uncore PMU uncore_cbox_3 can program this box too; perf "
                        "events opened on it would conflict (the kernel does not tell whether any "
                        "are open)");
    fx_free(f, true);
    tu_write(sys, "bus/event_source/devices/uncore_ubox/type", "15\n", -1);
    const char *const ev[] = {"cbox[c3]:CLOCKTICKS", "ubox:EVENT_MSG.DOORBELL_RCVD",
                              "cbox[c1]:CLOCKTICKS", NULL};
    f = fx_new("e5_2600v2", ev, &hw);
    poke(f, "cbox.c1.Cn_MSR_PMON_CTL3", 0x1);
    o.force = true;
    assert_int_equal(regc_pmon_start(f->p, &o), 0);
    assert_string_equal(regc_pmon_warning(f->p),
                        "box 'cbox.c1' is in use (cbox.c1.Cn_MSR_PMON_CTL3 = 0x1): programming "
                        "it as forced\n"
                        "the kernel's uncore PMUs uncore_cbox_3, uncore_ubox can program these "
                        "boxes too; perf events opened on them would conflict (the kernel does "
                        "not tell whether any are open)");
    fx_free(f, true);
    /* the simulator is not the machine: its PMUs are not looked for */
    struct fx_opts sim = {.sysfs_root = sys};
    f = fx_new("e5_2600v2", cbox_ev, &sim);
    assert_int_equal(regc_pmon_start(f->p, NULL), 0);
    assert_string_equal(regc_pmon_warning(f->p), "");
    fx_free(f, true);
}

static int setup(void **state)
{
    (void)state;
    tu_tmpdir(lockdir, sizeof(lockdir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tu_rm_rf(lockdir);
    return 0;
}

int main(void)
{
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(t_in_use_control),     cmocka_unit_test(t_in_use_box_control),
        cmocka_unit_test(t_in_use_many),        cmocka_unit_test(t_force),
        cmocka_unit_test(t_advancing),          cmocka_unit_test(t_settle),
        cmocka_unit_test(t_lock_other_process), cmocka_unit_test(t_lock_global),
        cmocka_unit_test(t_lock_interrupted),   cmocka_unit_test(t_lock_errors),
        cmocka_unit_test(t_lock_sim_default),   cmocka_unit_test(t_lock_package),
        cmocka_unit_test(t_release_e5_2600v2),  cmocka_unit_test(t_release_e5_2600),
        cmocka_unit_test(t_restore_fails),      cmocka_unit_test(t_start_fails),
        cmocka_unit_test(t_check_read_fails),   cmocka_unit_test(t_restart),
        cmocka_unit_test(t_kernel_pmu),         cmocka_unit_test(t_lock_symlink),
        cmocka_unit_test(t_lock_planted),       cmocka_unit_test(t_lock_dir_modes),
        cmocka_unit_test(t_lock_foreign), /* last: root only */
    };
    enum { NFIXED = sizeof(fixed) / sizeof(fixed[0]) };
    struct CMUnitTest t[NFIXED + FLOW_NCASES];
    char names[FLOW_NCASES][64];
    size_t k = 0, nfixed = NFIXED;
    if (geteuid() != 0) {
        tu_skip("t_lock_foreign", "not root: cannot give files to another user");
        nfixed--;
    }
    for (; k < nfixed; k++)
        t[k] = fixed[k];
    for (size_t i = 0; i < FLOW_NCASES; i++, k++) {
        snprintf(names[i], sizeof(names[i]), "%s forced takeover", flow_cases[i].spec);
        t[k] = (struct CMUnitTest){names[i], t_takeover, NULL, NULL, (void *)&flow_cases[i]};
    }
    return _cmocka_run_group_tests("share", t, k, setup, teardown);
}
