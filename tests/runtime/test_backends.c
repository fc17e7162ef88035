/* test_backends - the msr and pci backends on temporary trees that stand in for /dev/cpu and /sys.
 */
#define _DEFAULT_SOURCE /* setgroups() */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hand_tables.h"
#include "regc/regc.h"
#include "testutil.h"

#include <grp.h>
#include <unistd.h>

static struct regc_ref ref(const struct regc_spec *s, const char *path)
{
    struct regc_ref r;
    assert_int_equal(regc_resolve(s, path, &r, NULL, 0), 0);
    return r;
}

static uint64_t file_u64(const char *dir, const char *rel, long off, int size)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    uint64_t v = 0;
    assert_int_equal(pread(fd, &v, (size_t)size, off), size);
    close(fd);
    return v;
}

static void test_msr(void **st)
{
    char dir[256];
    tu_tmpdir(dir, sizeof(dir));
    uint64_t v = 0x400842;
    tu_write(dir, "0/msr", "", 0);
    tu_write(dir, "2/msr_safe", "", 0);
    char path[300];
    snprintf(path, sizeof(path), "%s/0/msr", dir);
    int fd = open(path, O_WRONLY);
    assert_int_equal(pwrite(fd, &v, 8, 0xc10), 8);
    close(fd);

    regc_dev *d;
    struct regc_options o = {.backend = "msr", .msr_root = dir};
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    struct regc_ref c0 = ref(&hand_ubox_spec, "ubox.U_MSR_PMON_CTL0"),
                    c1 = ref(&hand_ubox_spec, "ubox.U_MSR_PMON_CTL1");
    uint64_t got;
    assert_int_equal(regc_read(d, &c0, &got), 0);
    assert_int_equal(got, 0x400842);
    assert_int_equal(regc_write(d, &c1, 0x400001), 0);
    assert_int_equal(file_u64(dir, "0/msr", 0xc11, 8), 0x400001);
    /* the descriptor is cached: removing the file does not stop access */
    unlink(path);
    assert_int_equal(regc_read(d, &c1, &got), 0);
    assert_int_equal(got, 0x400001);
    regc_close(d);

    /* msr_safe when msr is absent; a missing CPU names modprobe */
    o.cpu = 2;
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    assert_int_equal(regc_write(d, &c0, 0x42), 0);
    assert_int_equal(file_u64(dir, "2/msr_safe", 0xc10, 8), 0x42);
    regc_close(d);
    o.cpu = 7;
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    assert_int_equal(regc_read(d, &c0, &got), -ENOENT);
    assert_non_null(strstr(regc_last_error(d), "modprobe msr"));
    assert_non_null(strstr(regc_last_error(d), "cpu 7"));
    regc_close(d);
    o.cpu = -1;
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    assert_int_equal(regc_read(d, &c0, &got), -ENXIO);
    regc_close(d);

    /* $REGC_MSR_ROOT when no option; short reads are EIO */
    setenv("REGC_MSR_ROOT", dir, 1);
    tu_write(dir, "3/msr", "", 0);
    o = (struct regc_options){.backend = "msr", .cpu = 3};
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    assert_int_equal(regc_read(d, &c0, &got), -EIO);
    assert_non_null(strstr(regc_last_error(d), "the CPU refused the access"));
    regc_close(d);
    unsetenv("REGC_MSR_ROOT");

    /* a root too long for a path */
    char longroot[5000];
    memset(longroot, 'x', sizeof(longroot) - 1);
    longroot[sizeof(longroot) - 1] = '\0';
    char err[256];
    o = (struct regc_options){.backend = "msr", .msr_root = longroot};
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, err, sizeof(err)), -ENAMETOOLONG);
    assert_non_null(strstr(err, "msr root too long"));

    /* pci registers are not reachable through msr */
    regc_dev *a;
    o = (struct regc_options){.backend = "msr", .msr_root = dir};
    assert_int_equal(regc_open(&a, &acme_spec, &o, NULL, 0), 0);
    struct regc_ref p = ref(&acme_spec, "dev.PCTL");
    assert_int_equal(regc_read(a, &p, &got), -EOPNOTSUPP);
    regc_close(a);
    tu_rm_rf(dir);
}

static void test_msr_readonly(void **st)
{
    char dir[256];
    tu_tmpdir(dir, sizeof(dir));
    tu_write(dir, "0/msr", "", 0);
    char path[300];
    snprintf(path, sizeof(path), "%s/0/msr", dir);
    chmod(path, 0444);
    regc_dev *d;
    struct regc_options o = {.backend = "msr", .msr_root = dir};
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    struct regc_ref c0 = ref(&hand_ubox_spec, "ubox.U_MSR_PMON_CTL0");
    assert_int_equal(regc_write(d, &c0, 1), -EACCES);
    assert_non_null(strstr(regc_last_error(d), "CAP_SYS_RAWIO"));
    regc_close(d);
    chmod(path, 0);
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    uint64_t v;
    assert_int_equal(regc_read(d, &c0, &v), -EACCES);
    regc_close(d);
    tu_rm_rf(dir);
}

static void make_pci(const char *dir, const char *bdf, const char *vendor, const char *device)
{
    char rel[256];
    snprintf(rel, sizeof(rel), "bus/pci/devices/%s/vendor", bdf);
    tu_write(dir, rel, vendor, -1);
    snprintf(rel, sizeof(rel), "bus/pci/devices/%s/device", bdf);
    tu_write(dir, rel, device, -1);
    static const char zero[256];
    snprintf(rel, sizeof(rel), "bus/pci/devices/%s/config", bdf);
    tu_write(dir, rel, zero, sizeof(zero));
}

static void test_pci(void **st)
{
    char dir[256];
    tu_tmpdir(dir, sizeof(dir));
    make_pci(dir, "0000:7f:0e.0", "0x8086\n", "0x1234\n"); /* wrong function */
    make_pci(dir, "0000:7f:0e.1", "0x8086\n", "0x1234\n");
    make_pci(dir, "0000:ff:0e.1", "0x8086\n", "0x1234\n"); /* second socket */
    make_pci(dir, "0000:7f:0f.1", "0x8086\n", "0x9999\n"); /* wrong device id */
    regc_dev *d;
    struct regc_options o = {.backend = "pci", .sysfs_root = dir};
    assert_int_equal(regc_open(&d, &acme_spec, &o, NULL, 0), 0);
    struct regc_ref pctl = ref(&acme_spec, "dev.PCTL"), pctr = ref(&acme_spec, "dev.PCTR");
    assert_int_equal(regc_write(d, &pctl, 0x5a), 0);
    assert_int_equal(regc_write(d, &pctr, 0x1122334455), 0);
    assert_int_equal(file_u64(dir, "bus/pci/devices/0000:7f:0e.1/config", 0xd8, 4), 0x5a);
    assert_int_equal(file_u64(dir, "bus/pci/devices/0000:7f:0e.1/config", 0xa0, 4),
                     0x22334455); /* low first */
    assert_int_equal(file_u64(dir, "bus/pci/devices/0000:7f:0e.1/config", 0xa4, 4), 0x11);
    uint64_t v;
    assert_int_equal(regc_read(d, &pctr, &v), 0);
    assert_int_equal(v, 0x1122334455);
    regc_close(d);
    /* the second match, through $REGC_SYSFS_ROOT */
    setenv("REGC_SYSFS_ROOT", dir, 1);
    o = (struct regc_options){.backend = "pci", .cpu = 1};
    assert_int_equal(regc_open(&d, &acme_spec, &o, NULL, 0), 0);
    assert_int_equal(regc_write(d, &pctl, 0x77), 0);
    assert_int_equal(file_u64(dir, "bus/pci/devices/0000:ff:0e.1/config", 0xd8, 4), 0x77);
    regc_close(d);
    unsetenv("REGC_SYSFS_ROOT");
    /* no third device; msr registers unreachable */
    o = (struct regc_options){.backend = "pci", .sysfs_root = dir, .cpu = 2};
    assert_int_equal(regc_open(&d, &acme_spec, &o, NULL, 0), 0);
    assert_int_equal(regc_read(d, &pctl, &v), -ENODEV);
    assert_non_null(strstr(regc_last_error(d), "no PCI device matches the instance's locator"));
    struct regc_ref ctl = ref(&acme_spec, "box.CTL0");
    assert_int_equal(regc_read(d, &ctl, &v), -EOPNOTSUPP);
    regc_close(d);
    /* a config space too short for the register: a short read is EIO */
    make_pci(dir, "0000:00:0e.1", "0x8086\n", "0x1234\n");
    tu_write(dir, "bus/pci/devices/0000:00:0e.1/config", "abcd", 4);
    o = (struct regc_options){.backend = "pci", .sysfs_root = dir, .cpu = 0};
    assert_int_equal(regc_open(&d, &acme_spec, &o, NULL, 0), 0);
    assert_int_equal(regc_read(d, &pctl, &v), -EIO);
    regc_close(d);
    o.sysfs_root = "/nonexistent-regc";
    assert_int_equal(regc_open(&d, &acme_spec, &o, NULL, 0), 0);
    assert_int_equal(regc_read(d, &pctl, &v), -ENOENT);
    regc_close(d);
    tu_rm_rf(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_msr),
        cmocka_unit_test(test_pci),
        cmocka_unit_test(test_msr_readonly),
    };
    size_t n = sizeof(tests) / sizeof(tests[0]);
    /* Root bypasses file permissions, so EACCES cannot be produced with files:
     * run as 'nobody' instead (every test here uses only files it creates). */
    if (geteuid() == 0 && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0)) {
        tu_skip("test_msr_readonly", "running as root and cannot drop to 'nobody'");
        n--;
    }
    return _cmocka_run_group_tests("test_backends", tests, n, NULL, NULL);
}
