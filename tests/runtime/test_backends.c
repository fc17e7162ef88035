/* test_backends - the msr and pci backends on temporary trees that stand in for /dev/cpu and /sys.
 */
#define _DEFAULT_SOURCE /* setgroups() */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hand_tables.h"
#include "pci2250_pci_tables.h" /* regc -t tables examples/specs/pci2250_pci.xml */
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

/* A PCI device with config bytes 0..3 = 'id' (little-endian), the rest zero. */
static void make_pci_id(const char *dir, const char *bdf, uint32_t vendor, uint32_t device)
{
    char v[16], d[16], rel[256];
    snprintf(v, sizeof(v), "0x%04x\n", vendor);
    snprintf(d, sizeof(d), "0x%04x\n", device);
    make_pci(dir, bdf, v, d);
    unsigned char config[256] = {(unsigned char)vendor, (unsigned char)(vendor >> 8),
                                 (unsigned char)device, (unsigned char)(device >> 8)};
    snprintf(rel, sizeof(rel), "bus/pci/devices/%s/config", bdf);
    tu_write(dir, rel, config, sizeof(config));
}

/*
 * The PCI2250 example spec gives vendor 104c, device ac23 and func 0 but no dev (the bridge
 * sits in whatever slot the board gives it): its tables, from regc, find it in slot 7 of bus 3,
 * past another device in slot 0 and the same ids in function 1 of another slot. Given a dev=,
 * the same instance takes that slot only.
 */
static void test_pci_any_slot(void **st)
{
    (void)st;
    char dir[256];
    tu_tmpdir(dir, sizeof(dir));
    make_pci_id(dir, "0000:00:00.0", 0x8086, 0x0150); /* slot 0: another device */
    make_pci_id(dir, "0000:02:05.1", 0x104c, 0xac23); /* the ids, but function 1 */
    make_pci_id(dir, "0000:03:07.0", 0x104c, 0xac23); /* the bridge */
    const struct regc_instance *in = &pci2250_pci_spec.blocks[0].instances[0];
    assert_int_equal(in->pci.dev, REGC_PCI_ANY); /* regc wrote "any slot", not 0 */
    regc_dev *d;
    struct regc_options o = {.backend = "pci", .sysfs_root = dir};
    assert_int_equal(regc_open(&d, &pci2250_pci_spec, &o, NULL, 0), 0);
    struct regc_ref id = ref(&pci2250_pci_spec, "bridge.ID");
    struct regc_ref cmd = ref(&pci2250_pci_spec, "bridge.CMD_STS");
    uint64_t v = 0;
    assert_int_equal(regc_read(d, &id, &v), 0);
    assert_int_equal(v, 0xac23104c);               /* PCI: device id in 31:16, vendor id in 15:0 */
    assert_int_equal(regc_write(d, &cmd, 0x2), 0); /* memory space enable */
    assert_int_equal(file_u64(dir, "bus/pci/devices/0000:03:07.0/config", 4, 4), 0x2);
    assert_int_equal(file_u64(dir, "bus/pci/devices/0000:02:05.1/config", 4, 4), 0);
    assert_int_equal(file_u64(dir, "bus/pci/devices/0000:00:00.0/config", 4, 4), 0);
    regc_close(d);

    /* the same spec with dev= given: slot 3 is asked for, slot 7 is not it */
    struct regc_instance given[2] = {*in, {0}};
    given[0].pci.dev = 3;
    struct regc_block blk = pci2250_pci_spec.blocks[0];
    blk.instances = given;
    struct regc_block blocks[2] = {blk, {0}};
    struct regc_spec spec = pci2250_pci_spec;
    spec.blocks = blocks;
    id = ref(&spec, "bridge.ID");
    cmd = ref(&spec, "bridge.CMD_STS");
    assert_int_equal(regc_open(&d, &spec, &o, NULL, 0), 0);
    assert_int_equal(regc_read(d, &id, &v), -ENODEV);
    assert_non_null(strstr(regc_last_error(d), "no PCI device matches the instance's locator"));
    regc_close(d);
    make_pci_id(dir, "0000:04:03.0", 0x104c, 0xac24); /* slot 3, another device id */
    make_pci_id(dir, "0000:05:03.0", 0x104c, 0xac23); /* slot 3: the one */
    assert_int_equal(regc_open(&d, &spec, &o, NULL, 0), 0);
    assert_int_equal(regc_write(d, &cmd, 0x4), 0);
    assert_int_equal(file_u64(dir, "bus/pci/devices/0000:05:03.0/config", 4, 4), 0x4);
    assert_int_equal(file_u64(dir, "bus/pci/devices/0000:03:07.0/config", 4, 4), 0x2);
    regc_close(d);

    /* by package, on a part whose buses the U-Box maps (an E5-2600 v2 U-Box, node 0 in
       GIDNIDMAP field 0: package 0), a device in no slot says so, the slot written "*.0" */
    make_pci_id(dir, "0000:ff:0b.0", 0x8086, 0x0e1e);
    given[0] = *in;
    given[0].pci.device = 0xbeef;
    spec.name = "e5_2600v2";
    id = ref(&spec, "bridge.ID");
    o.by_package = true;
    o.package = 0;
    assert_int_equal(regc_open(&d, &spec, &o, NULL, 0), 0);
    assert_int_equal(regc_read(d, &id, &v), -ENODEV);
    assert_non_null(strstr(regc_last_error(d),
                           "no PCI device 104c:beef at *.0 on a bus of package 0 (bus -> package: "
                           "0000:ff -> 0)"));
    regc_close(d);
    tu_rm_rf(dir);
}

/* The slot as lspci -s writes it: hex, "*" for what the spec leaves open. */
static void test_pci_slot_names(void **st)
{
    (void)st;
    char buf[8];
    const struct regc_pci_loc locs[] = {
        {0x8086, 0x3cb4, 0x10, 4},
        {0x8086, 0x0e1e, 0x0b, 0},
        {0x104c, 0xac23, REGC_PCI_ANY, 0},
        {0x104c, 0xac23, 0x1f, REGC_PCI_ANY},
        {0x104c, 0xac23, REGC_PCI_ANY, REGC_PCI_ANY},
    };
    const char *want[] = {"10.4", "0b.0", "*.0", "1f.*", "*.*"};
    for (size_t i = 0; i < sizeof(locs) / sizeof(locs[0]); i++)
        assert_string_equal(regc_pci_slot(&locs[i], buf, sizeof(buf)), want[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_msr),
        cmocka_unit_test(test_pci),
        cmocka_unit_test(test_pci_any_slot),
        cmocka_unit_test(test_pci_slot_names),
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
