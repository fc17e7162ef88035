/*
 * test_msr_open - the msr backend opens the device read-only while it only
 * reads, and read-write from the first write on (runtime/msr.c; issue 15):
 * what the kernel says of the descriptor (/proc/self/fdinfo, "flags:"), a
 * read-only device that reads and refuses writes, and the environment's
 * roots ignored where secure_getenv() says so (tests/runtime/run-setid.sh
 * runs regctl set-group-ID).
 */
#define _DEFAULT_SOURCE /* setgroups(), realpath() */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hand_tables.h"
#include "regc/regc.h"
#include "testutil.h"

#include <dirent.h>
#include <grp.h>
#include <limits.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256], msr[300];

static struct regc_ref ref(const char *path)
{
    struct regc_ref r;
    assert_int_equal(regc_resolve(&hand_ubox_spec, path, &r, NULL, 0), 0);
    return r;
}

/* The access modes of this process's descriptors open on 'path', as the kernel reports them
 * (/proc/self/fdinfo "flags:"), one letter each: r (O_RDONLY), w (O_WRONLY) or b (O_RDWR); ""
 * when none is open, "?" when /proc cannot tell. No cmocka checks: a forked child calls it. */
static void modes(const char *path, char *out, size_t len)
{
    char real[PATH_MAX];
    DIR *d = realpath(path, real) ? opendir("/proc/self/fd") : NULL;
    snprintf(out, len, "%s", d ? "" : "?");
    for (struct dirent *e; d && (e = readdir(d));) {
        char link[300], target[PATH_MAX], text[256];
        snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(link, target, sizeof(target) - 1);
        if (n < 0)
            continue;
        target[n] = '\0';
        if (strcmp(target, real) != 0)
            continue;
        snprintf(link, sizeof(link), "/proc/self/fdinfo/%s", e->d_name);
        FILE *f = fopen(link, "r");
        unsigned long flags = ~0ul;
        while (f && fgets(text, sizeof(text), f))
            if (sscanf(text, "flags: %lo", &flags) == 1)
                break;
        if (f)
            fclose(f);
        int acc = (int)(flags & O_ACCMODE);
        size_t at = strlen(out);
        snprintf(out + at, len - at, "%s",
                 flags == ~0ul     ? "?"
                 : acc == O_RDONLY ? "r"
                 : acc == O_WRONLY ? "w"
                                   : "b");
    }
    if (d)
        closedir(d);
}

static void put(uint64_t addr, uint64_t v)
{
    int fd = open(msr, O_WRONLY);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, &v, 8, (off_t)addr), 8);
    close(fd);
}

static uint64_t get(uint64_t addr)
{
    uint64_t v = 0;
    int fd = open(msr, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(pread(fd, &v, 8, (off_t)addr), 8);
    close(fd);
    return v;
}

static int setup(void **state)
{
    (void)state;
    tu_tmpdir(dir, sizeof(dir));
    chmod(dir, 0755); /* another user reads it in t_readonly_device */
    static const char zero[0x1000];
    tu_write(dir, "0/msr", zero, sizeof(zero));
    snprintf(msr, sizeof(msr), "%s/0/msr", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tu_rm_rf(dir);
    return 0;
}

/* Reads: one read-only descriptor. The first write: the same device read-write, instead. */
static void t_read_then_write(void **state)
{
    (void)state;
    put(0xc10, 0x400842);
    regc_dev *d;
    struct regc_options o = {.backend = "msr", .msr_root = dir};
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    char m[32];
    modes(msr, m, sizeof(m));
    assert_string_equal(m, ""); /* opened at first use */
    struct regc_ref c0 = ref("ubox.U_MSR_PMON_CTL0"), c1 = ref("ubox.U_MSR_PMON_CTL1");
    uint64_t v;
    assert_int_equal(regc_read(d, &c0, &v), 0);
    assert_int_equal(v, 0x400842);
    assert_int_equal(regc_read(d, &c1, &v), 0);
    modes(msr, m, sizeof(m));
    assert_string_equal(m, "r");
    assert_int_equal(regc_write(d, &c1, 0x400001), 0);
    assert_int_equal(get(0xc11), 0x400001);
    modes(msr, m, sizeof(m));
    assert_string_equal(m, "b");
    assert_int_equal(regc_read(d, &c1, &v), 0);
    assert_int_equal(v, 0x400001);
    regc_close(d);
    modes(msr, m, sizeof(m));
    assert_string_equal(m, "");
    /* a session that writes first opens it read-write at once */
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    assert_int_equal(regc_write(d, &c0, 0x42), 0);
    assert_int_equal(get(0xc10), 0x42);
    modes(msr, m, sizeof(m));
    assert_string_equal(m, "b");
    regc_close(d);
}

/* As a user who may read the device (0444) but not write it: reads work, a write fails with
 * the permission hint, reads still work after it, one read-only descriptor. NULL, or what went
 * wrong (no cmocka checks: a forked child runs it). */
static const char *readonly_user(void)
{
    regc_dev *d;
    struct regc_options o = {.backend = "msr", .msr_root = dir};
    if (regc_open(&d, &hand_ubox_spec, &o, NULL, 0) != 0)
        return "open";
    struct regc_ref c0 = ref("ubox.U_MSR_PMON_CTL0");
    uint64_t v = 0, w = 0;
    char m[32];
    const char *why = NULL;
    if (regc_read(d, &c0, &v) != 0 || v != 0x1234)
        why = "the first read";
    else if (regc_write(d, &c0, 0x1) != -EACCES ||
             !strstr(regc_last_error(d), "permission denied: needs root or CAP_SYS_RAWIO"))
        why = "the write: not EACCES with the permission hint";
    else if (regc_write(d, &c0, 0x1) != -EACCES)
        why = "the second write";
    else if (regc_read(d, &c0, &w) != 0 || w != 0x1234)
        why = "a read after the refused write";
    else if (modes(msr, m, sizeof(m)), strcmp(m, "r") != 0)
        why = "the descriptors: not one read-only";
    regc_close(d);
    return why;
}

static void t_readonly_device(void **state)
{
    (void)state;
    put(0xc10, 0x1234);
    assert_int_equal(chmod(msr, 0444), 0);
    const char *why = NULL;
    if (geteuid() != 0) {
        why = readonly_user();
    } else { /* root may write any file: as another user */
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            if (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0 ||
                prctl(PR_SET_DUMPABLE, 1) != 0) /* /proc/self/fd is ours again */
                _exit(2);
            why = readonly_user();
            if (why)
                fprintf(stderr, "as uid 65534: %s\n", why);
            _exit(why ? 1 : 0);
        }
        int status;
        assert_int_equal(waitpid(pid, &status, 0), pid);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            why = "as uid 65534 (see its message above)";
    }
    assert_int_equal(chmod(msr, 0644), 0);
    if (why)
        fail_msg("%s", why);
    assert_int_equal(get(0xc10), 0x1234);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_read_then_write),
        cmocka_unit_test(t_readonly_device),
    };
    return _cmocka_run_group_tests("msr_open", tests, 2, setup, teardown);
}
