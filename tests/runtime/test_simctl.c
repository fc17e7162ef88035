/*
 * test_simctl - the control file of the FUSE test devices (tests/tools/simctl.h,
 * here behind msrfs): events by name, intervals, per-cycle increments, the
 * auto interval before each register write, the encodings seen, ticks held
 * until no freeze holds them ("defer"), and bad commands refused with EINVAL.
 * The counter is programmed through the msr backend (the kernel) with the
 * generated header's encoding.
 * SKIPs with the reason when FUSE or msrfs is unavailable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>

#include "../../generated/e5_2600v2.h"
#include "flow_cases.h"
#include "msrfs_mount.h"

static struct msrfs_mount g_m;
static regc_dev *g_d;

static uint64_t rd(const char *path)
{
    struct regc_ref r;
    char err[256];
    uint64_t v = 0;
    if (regc_resolve(regc_dev_spec(g_d), path, &r, err, sizeof(err)) != 0 ||
        regc_read(g_d, &r, &v) != 0)
        fail_msg("%s: %s", path, regc_last_error(g_d));
    return v;
}

static void wr(const char *path, uint64_t v)
{
    struct regc_ref r;
    char err[256];
    if (regc_resolve(regc_dev_spec(g_d), path, &r, err, sizeof(err)) != 0 ||
        regc_write(g_d, &r, v) != 0)
        fail_msg("%s: %s", path, regc_last_error(g_d));
}

static void cmd(const char *c)
{
    if (msrfs_command(&g_m, c) != 0)
        fail_msg("'%s' refused", c);
}

/* What reading the control file gives. */
static void report(char *buf, size_t len)
{
    int fd = open(g_m.simfile, O_RDONLY);
    assert_true(fd >= 0);
    ssize_t n = read(fd, buf, len - 1);
    close(fd);
    assert_true(n >= 0);
    buf[n] = '\0';
}

#define CTL "cbox.c0.Cn_MSR_PMON_CTL0"
#define CTR "cbox.c0.Cn_MSR_PMON_CTR0"

static void t_commands(void **state)
{
    (void)state;
    wr(CTL, E5_2600V2_EV_CBOX_CLOCKTICKS | E5_2600V2_CN_MSR_PMON_CTL_EN_MASK);
    cmd("rate cbox[c0]:CLOCKTICKS 5\nrate cbox[c1]:CLOCKTICKS 1000\ninterval");
    assert_int_equal(rd(CTR), 5);
    cmd("event cbox[c0]:CLOCKTICKS 3");
    assert_int_equal(rd(CTR), 8);
    cmd("cycles cbox[c0]:CLOCKTICKS 1 2 3");
    assert_int_equal(rd(CTR), 14);
    cmd("event cbox[c0]:LLC_LOOKUP.DATA_READ 100"); /* another encoding: nothing */
    assert_int_equal(rd(CTR), 14);
    char text[1024];
    report(text, sizeof(text));
    assert_string_equal(text, "cbox.c0.Cn_MSR_PMON_CTL0 0x400000 CLOCKTICKS\n");
    cmd("clear");
    report(text, sizeof(text));
    assert_string_equal(text, "");
    cmd("interval"); /* no rates: nothing counts */
    assert_int_equal(rd(CTR), 14);
    /* auto: an interval before each register write the device receives */
    cmd("rate cbox[c0]:CLOCKTICKS 7\nauto 1");
    wr("cbox.c1.Cn_MSR_PMON_CTL0", 0);
    wr("cbox.c1.Cn_MSR_PMON_CTL0", 0);
    cmd("auto 0");
    wr("cbox.c1.Cn_MSR_PMON_CTL0", 0);
    assert_int_equal(rd(CTR), 28);
    /* thresh in the per-cycle form: cycles of 2 or more */
    wr(CTL, E5_2600V2_EV_CBOX_CLOCKTICKS | E5_2600V2_CN_MSR_PMON_CTL_EN_MASK |
                E5_2600V2_CN_MSR_PMON_CTL_THRESH_VAL(2));
    cmd("clear\ncycles cbox[c0]:CLOCKTICKS 1 2 3 0 4");
    assert_int_equal(rd(CTR), 31);
}

/* The write's errno: 0 when the control file took it. */
static int cmd_errno(const char *c)
{
    int fd = open(g_m.simfile, O_WRONLY);
    assert_true(fd >= 0);
    errno = 0;
    ssize_t w = write(fd, c, strlen(c));
    int e = w < 0 ? errno : 0;
    close(fd);
    return e;
}

#define GCTL "ubox.U_MSR_PMON_GLOBAL_CTL"

/* "defer": the group waits under the global freeze (a read, a write that keeps it), runs once
 * right after the unfreeze write, at once when nothing is frozen; a counter its own control
 * leaves off holds nothing. */
static void t_defer(void **state)
{
    (void)state;
    wr(CTL, E5_2600V2_EV_CBOX_CLOCKTICKS | E5_2600V2_CN_MSR_PMON_CTL_EN_MASK);
    wr(CTR, 0);
    wr("cbox.c0.Cn_MSR_PMON_CTL1", 0);
    wr(GCTL, E5_2600V2_U_MSR_PMON_GLOBAL_CTL_FRZ_ALL_MASK);
    cmd("defer 1\ntick cbox c0 0 0 5\ntick cbox c0 0 1 7\ndefer 0");
    assert_int_equal(rd(CTR), 0);
    wr("cbox.c1.Cn_MSR_PMON_CTL0", 0); /* a write that ends no freeze */
    assert_int_equal(rd(CTR), 0);
    assert_int_equal(cmd_errno("defer 1"), EINVAL); /* the group has not run */
    wr(GCTL, E5_2600V2_U_MSR_PMON_GLOBAL_CTL_UNFRZ_ALL_MASK);
    assert_int_equal(rd(CTR), 5);
    assert_int_equal(rd("cbox.c0.Cn_MSR_PMON_CTR1"), 0); /* off: its tick lost, as a plain one */
    wr(GCTL, E5_2600V2_U_MSR_PMON_GLOBAL_CTL_UNFRZ_ALL_MASK);
    assert_int_equal(rd(CTR), 5); /* once */
    cmd("defer 1");
    cmd("batch 1\ntick cbox c0 0 0 2\nbatch 0");
    assert_int_equal(rd(CTR), 5); /* held until defer 0 */
    cmd("defer 0");
    assert_int_equal(rd(CTR), 7); /* nothing frozen: at once */
    wr(CTL, 0);
}

/* What "defer" refuses, each EINVAL; a refused command changes nothing held. */
static void t_defer_refused(void **state)
{
    (void)state;
    wr(CTL, E5_2600V2_EV_CBOX_CLOCKTICKS | E5_2600V2_CN_MSR_PMON_CTL_EN_MASK);
    wr(CTR, 0);
    assert_int_equal(cmd_errno("defer 0"), EINVAL); /* no group open */
    cmd("defer 1");
    assert_int_equal(cmd_errno("defer 1"), EINVAL);                    /* one open already */
    assert_int_equal(cmd_errno("rate cbox[c0]:CLOCKTICKS 1"), EINVAL); /* only tick and batch */
    assert_int_equal(cmd_errno("interval"), EINVAL);
    assert_int_equal(cmd_errno("tick cbox c99 0 0 1"), EINVAL); /* no such counter */
    char longer[200];
    snprintf(longer, sizeof(longer), "tick cbox c0 0 0 %0150d", 1); /* past a held line's room */
    assert_int_equal(cmd_errno(longer), EINVAL);
    for (int i = 0; i < 64; i++)
        cmd("tick cbox c0 0 0 1");
    assert_int_equal(cmd_errno("tick cbox c0 0 0 1"), EINVAL); /* the 65th */
    cmd("defer 0");
    assert_int_equal(rd(CTR), 64);
    wr(CTL, 0);
}

static void t_bad_commands(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "frobnicate",      "rate cbox[c0]:NO_SUCH 1",       "rate cbox[c0]:CLOCKTICKS",
        "event nobox:X 1", "cycles cbox[c99]:CLOCKTICKS 1", "tick cbox c0 7 0 1",
        "interval now"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int fd = open(g_m.simfile, O_WRONLY);
        assert_true(fd >= 0);
        errno = 0;
        ssize_t w = write(fd, bad[i], strlen(bad[i]));
        int e = errno;
        close(fd);
        if (w >= 0 || e != EINVAL)
            fail_msg("'%s': write returned %zd (%s), expected EINVAL", bad[i], w, strerror(e));
    }
}

int main(void)
{
    const char *why = msrfs_unavailable();
    if (why) {
        tu_skip("msrfs control file", why);
        return 0;
    }
    if (msrfs_mount(&g_m, "e5_2600v2") != 0) {
        msrfs_unmount(&g_m);
        printf("not ok 1 - msrfs control file: cannot mount msrfs\n");
        return 1;
    }
    struct regc_options o = {.backend = "msr", .msr_root = g_m.root};
    char err[256];
    int rc = 1;
    if (regc_open(&g_d, flow_spec("e5_2600v2"), &o, err, sizeof(err)) == 0) {
        const struct CMUnitTest t[] = {cmocka_unit_test(t_commands), cmocka_unit_test(t_defer),
                                       cmocka_unit_test(t_defer_refused),
                                       cmocka_unit_test(t_bad_commands)};
        rc = cmocka_run_group_tests_name("simctl", t, NULL, NULL);
        regc_close(g_d);
    } else {
        printf("not ok 1 - msrfs control file: %s\n", err);
    }
    msrfs_unmount(&g_m);
    return rc;
}
