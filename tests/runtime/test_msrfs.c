/*
 * test_msrfs - the msr backend through the kernel: tests/tools/msrfs serves
 * cpu/N/msr from the simulator over FUSE in a temporary directory. Reports
 * SKIP with the reason when /dev/fuse, fusermount3 or the permission to
 * mount is missing; the mount is always removed on exit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#include "hand_tables.h"
#include "regc/regc.h"
#include "testutil.h"

static char g_dir[256], g_mnt[300], g_root[320], g_log[320];
static pid_t g_pid = -1;

static void unmount(void)
{
    if (g_pid <= 0)
        return;
    pid_t pid = fork();
    if (pid == 0) {
        execlp("fusermount3", "fusermount3", "-u", "-q", g_mnt, (char *)NULL);
        _exit(127);
    }
    if (pid > 0)
        waitpid(pid, NULL, 0);
    kill(g_pid, SIGTERM);
    waitpid(g_pid, NULL, 0);
    g_pid = -1;
    rmdir(g_mnt);
    tu_rm_rf(g_dir);
}

static bool in_path(const char *prog)
{
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
    return system(cmd) == 0;
}

/* Mounts msrfs; NULL, or why it cannot. */
static const char *mount_msrfs(char *why, size_t len)
{
    const char *build = getenv("BUILD");
    char tool[512];
    snprintf(tool, sizeof(tool), "%s/tests/tools/msrfs", build && *build ? build : "build");
    if (access("/dev/fuse", R_OK | W_OK) != 0)
        return snprintf(why, len, "/dev/fuse is missing or not accessible: %s", strerror(errno)),
               why;
    if (!in_path("fusermount3"))
        return snprintf(why, len, "fusermount3 is not installed (Debian package fuse3)"), why;
    if (access(tool, X_OK) != 0)
        return snprintf(why, len, "%.400s is not built", tool), why;
    tu_tmpdir(g_dir, sizeof(g_dir));
    snprintf(g_mnt, sizeof(g_mnt), "%s/mnt", g_dir);
    snprintf(g_root, sizeof(g_root), "%s/cpu", g_mnt);
    snprintf(g_log, sizeof(g_log), "%s/log", g_dir);
    mkdir(g_mnt, 0755);
    char errpath[320];
    snprintf(errpath, sizeof(errpath), "%s/stderr", g_dir);
    g_pid = fork();
    if (g_pid == 0) {
        if (!freopen(errpath, "w", stderr))
            _exit(126);
        execl(tool, tool, "--spec", "hand_ubox", "--cpus", "2", "--log", g_log, g_mnt,
              (char *)NULL);
        _exit(127);
    }
    char probe[400];
    snprintf(probe, sizeof(probe), "%s/0/msr", g_root);
    /* as long as msrfs runs (a loaded machine only slows it), 60 s at most against a hang */
    for (int i = 0; i < 1200; i++) {
        if (access(probe, F_OK) == 0)
            return NULL;
        if (waitpid(g_pid, NULL, WNOHANG) == g_pid) {
            char text[256] = "";
            FILE *f = fopen(errpath, "r");
            if (f) {
                if (!fgets(text, sizeof(text), f))
                    text[0] = '\0';
                fclose(f);
            }
            text[strcspn(text, "\n")] = '\0';
            g_pid = -1;
            rmdir(g_mnt);
            tu_rm_rf(g_dir);
            return snprintf(why, len, "cannot mount msrfs: %s", text[0] ? text : "it exited"), why;
        }
        nanosleep(&(struct timespec){0, 50000000}, NULL);
    }
    unmount();
    return snprintf(why, len, "msrfs did not mount within 60 s (still running)"), why;
}

static int log_lines(void)
{
    FILE *f = fopen(g_log, "r");
    int n = 0, c;
    if (!f)
        return 0;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

static struct regc_ref ref(const char *path)
{
    struct regc_ref r;
    assert_int_equal(regc_resolve(&hand_ubox_spec, path, &r, NULL, 0), 0);
    return r;
}

static void test_through_kernel(void **st)
{
    regc_dev *d;
    struct regc_options o = {.backend = "msr", .msr_root = g_root, .cpu = 1};
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    struct regc_ref ctl = ref("ubox.U_MSR_PMON_CTL0"), ctr = ref("ubox.U_MSR_PMON_CTR1");
    int before = log_lines();
    assert_int_equal(regc_write(d, &ctl, 0x400842), 0);
    uint64_t v;
    assert_int_equal(regc_read(d, &ctl, &v), 0);
    assert_int_equal(v, 0x400842);
    assert_int_equal(log_lines() - before, 2); /* one access each, exact offset */
    assert_int_equal(regc_read(d, &ctr, &v), 0);
    assert_int_equal(v, 0);
    /* the simulated CPU refuses a reserved bit: EIO through the kernel */
    assert_int_equal(regc_write_unchecked(d, &ctl, 1u << 20), -EIO);
    assert_non_null(
        strstr(regc_last_error(d),
               "the CPU refused the access (a reserved bit set, or the MSR is not implemented)"));
    /* ... and checked writes never get there */
    before = log_lines();
    assert_int_equal(regc_write(d, &ctl, 1u << 20), -EINVAL);
    assert_int_equal(log_lines(), before);
    /* rmw through the kernel */
    uint64_t w;
    assert_int_equal(regc_rmw(d, &ctl, 0xff00, 0x0100, &w), 0);
    assert_int_equal(w, 0x400142);
    regc_close(d);
    /* no such CPU */
    o.cpu = 5;
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    assert_int_equal(regc_read(d, &ctl, &v), -ENOENT);
    assert_non_null(strstr(regc_last_error(d), "modprobe msr"));
    regc_close(d);
}

/* An MSR the spec does not have: EIO, as the CPU's #GP surfaces through the msr driver. */
static void test_unknown_msr(void **st)
{
    char path[400];
    snprintf(path, sizeof(path), "%s/0/msr", g_root);
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    uint64_t v;
    errno = 0;
    assert_int_equal(pread(fd, &v, 8, 0x123), -1);
    assert_int_equal(errno, EIO);
    assert_int_equal(pread(fd, &v, 4, 0xc10), -1);
    assert_int_equal(errno, EINVAL);
    close(fd);
}

int main(void)
{
    char why[512];
    if (mount_msrfs(why, sizeof(why))) {
        tu_skip("test_through_kernel", why);
        tu_skip("test_unknown_msr", why);
        return 0;
    }
    atexit(unmount);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_through_kernel),
        cmocka_unit_test(test_unknown_msr),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    unmount();
    return rc;
}
