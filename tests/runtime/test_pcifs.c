/*
 * test_pcifs - the pci backend through the kernel: tests/tools/pcifs serves a
 * sysfs PCI tree from the simulator over FUSE. What the tree must look like
 * and how its config files behave is stated independently of pcifs: device
 * numbers, ids and offsets from the generated headers (generated/e5_2600v2.h),
 * file semantics from the kernel (drivers/pci/pci-sysfs.c: vendor/device
 * "0x%04x\n", config 4096 bytes for PCIe, split into byte/word/dword
 * accesses; fs/sysfs/file.c: EOF and EFBIG at the end). SKIPs with the reason
 * without /dev/fuse, fusermount3 or root; the mounts are always removed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "../../generated/e5_2600v2.h"
#include "fusefs.h"
#include "regc/regc.h"
#include "regc_specs.h"

#define HA_BDF "0000:7f:0e.1"    /* socket 0 (bus 0x7f): E5_2600V2_HA_HA0_DEV 14, _FUNC 1 */
#define HA1_BDF "0000:ff:0e.1"   /* the same function on socket 1 (bus 0xff) */
#define QPIMM_BDF "0000:7f:08.6" /* QPI port 0 match/mask, registers past 0x100 */

static struct fusefs g_fs, g_other; /* g_other: a test's own mount, removed even if it fails */

static const struct regc_spec *spec(const char *name)
{
    for (const struct regc_spec *const *s = regc_specs; *s; s++)
        if (strcmp((*s)->name, name) == 0)
            return *s;
    return NULL;
}

static void cfg_path(const struct fusefs *m, const char *bdf, char *buf, size_t len)
{
    snprintf(buf, len, "%s/bus/pci/devices/%s/config", m->mnt, bdf);
}

static int cfg_open(const struct fusefs *m, const char *bdf, int flags)
{
    char path[512];
    cfg_path(m, bdf, path, sizeof(path));
    return open(path, flags);
}

/* The dword at 'off' of 'bdf', read with one pread through the kernel. */
static uint32_t cfg_dword(const struct fusefs *m, const char *bdf, unsigned off)
{
    int fd = cfg_open(m, bdf, O_RDONLY);
    assert_true(fd >= 0);
    uint32_t v = 0;
    assert_int_equal(pread(fd, &v, 4, off), 4);
    close(fd);
    return v;
}

/* What the log gained since *mark (pcifs flushes a line before it answers). */
static const char *log_since(const struct fusefs *m, long *mark)
{
    static char buf[8192];
    FILE *f = fopen(m->log, "r");
    assert_non_null(f);
    fseek(f, *mark, SEEK_SET);
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    buf[n] = '\0';
    *mark = ftell(f);
    fclose(f);
    return buf;
}

static long log_end(const struct fusefs *m)
{
    long mark = 0;
    log_since(m, &mark);
    return mark;
}

static regc_dev *open_pci(const struct fusefs *m, const char *specname, int cpu)
{
    struct regc_options o = {.backend = "pci", .sysfs_root = m->mnt, .cpu = cpu};
    regc_dev *d;
    char err[256];
    if (regc_open(&d, spec(specname), &o, err, sizeof(err)) != 0)
        fail_msg("regc_open: %s", err);
    return d;
}

static struct regc_ref ref(const char *specname, const char *path)
{
    struct regc_ref r;
    assert_int_equal(regc_resolve(spec(specname), path, &r, NULL, 0), 0);
    return r;
}

/* ---- the tree */

static void check_function(const char *bdf, unsigned vendor, unsigned device)
{
    char path[512], link[512], want[128], text[64];
    snprintf(path, sizeof(path), "%s/bus/pci/devices/%s", g_fs.mnt, bdf);
    ssize_t n = readlink(path, link, sizeof(link) - 1);
    assert_true(n > 0);
    link[n] = '\0';
    snprintf(want, sizeof(want), "../../../devices/pci0000:%.2s/%s", bdf + 5, bdf);
    assert_string_equal(link, want);
    const char *files[] = {"vendor", "device"};
    unsigned ids[] = {vendor, device};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/%s", g_fs.mnt, bdf, files[i]);
        snprintf(want, sizeof(want), "0x%04x\n", ids[i]);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        size_t got = fread(text, 1, sizeof(text) - 1, f);
        fclose(f);
        text[got] = '\0';
        assert_string_equal(text, want);
    }
    struct stat st;
    cfg_path(&g_fs, bdf, path, sizeof(path));
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 4096); /* PCIe: extended configuration space */
    assert_int_equal(st.st_mode & 07777, 0644);
    /* offset 0: vendor id, then device id, as every PCI function has them */
    assert_int_equal(cfg_dword(&g_fs, bdf, 0), device << 16 | vendor);
}

static void test_tree(void **st)
{
#define FN(bdf, prefix) check_function(bdf, prefix##_VENDOR, prefix##_DEVICE)
    FN(HA_BDF, E5_2600V2_HA_HA0);
    FN(HA1_BDF, E5_2600V2_HA_HA0);
    FN("0000:7f:1c.1", E5_2600V2_HA_HA1);
    FN("0000:7f:10.4", E5_2600V2_IMC_MC0_CH0);
    FN("0000:7f:1e.1", E5_2600V2_IMC_MC1_CH3);
    FN("0000:7f:08.2", E5_2600V2_QPI_P0);
    FN("0000:7f:0a.2", E5_2600V2_QPI_P2);
    FN(QPIMM_BDF, E5_2600V2_QPIMM_P0);
    FN("0000:7f:13.1", E5_2600V2_R2PCIE_R2PCIE);
    FN("0000:7f:12.5", E5_2600V2_R3QPI_L2);
    FN("0000:7f:05.6", E5_2600V2_IRP_IRP);
#undef FN
    /* the device numbers in the names are the headers' */
    assert_int_equal(E5_2600V2_HA_HA0_DEV, 0x0e);
    assert_int_equal(E5_2600V2_HA_HA0_FUNC, 1);
    char path[512];
    snprintf(path, sizeof(path), "%s/bus/pci/devices/0000:7e:0e.1", g_fs.mnt);
    assert_int_equal(access(path, F_OK), -1);
    snprintf(path, sizeof(path), "%s/devices/pci0000:7f/" HA_BDF "/nothing", g_fs.mnt);
    assert_int_equal(access(path, F_OK), -1);
}

/* ---- config: what the kernel's pci_read_config / pci_write_config do */

static void test_unimplemented_offsets(void **st)
{
    int fd = cfg_open(&g_fs, HA_BDF, O_RDWR);
    assert_true(fd >= 0);
    uint8_t b[16];
    assert_int_equal(pread(fd, b, 16, 0x10), 16);
    for (int i = 0; i < 16; i++)
        assert_int_equal(b[i], 0);
    uint32_t v = 0xffffffff;
    assert_int_equal(pwrite(fd, &v, 4, 0x100), 4); /* ignored */
    assert_int_equal(pwrite(fd, &v, 4, 0x0), 4);   /* the ids are read-only */
    close(fd);
    assert_int_equal(cfg_dword(&g_fs, HA_BDF, 0x100), 0);
    assert_int_equal(cfg_dword(&g_fs, HA_BDF, 0),
                     E5_2600V2_HA_HA0_DEVICE << 16 | E5_2600V2_HA_HA0_VENDOR);
}

/* The runtime's 32-bit register: one dword access at the header's offset, nothing else. */
static void test_register_dword(void **st)
{
    regc_dev *d = open_pci(&g_fs, "e5_2600v2", 0);
    struct regc_ref ctl = ref("e5_2600v2", "ha.ha0.HA_PCI_PMON_CTL1");
    uint32_t want = E5_2600V2_EV_HA_REQUESTS_READS | E5_2600V2_HA_PCI_PMON_CTL_EN_MASK;
    long mark = log_end(&g_fs);
    assert_int_equal(regc_write(d, &ctl, want), 0);
    char line[128];
    snprintf(line, sizeof(line), "W " HA_BDF " 0x%x 4 0x%x 0\n", e5_2600v2_ha_pci_pmon_ctl_addr(1),
             want);
    assert_string_equal(log_since(&g_fs, &mark), line);
    assert_int_equal(cfg_dword(&g_fs, HA_BDF, e5_2600v2_ha_pci_pmon_ctl_addr(1)), want);
    uint64_t v;
    assert_int_equal(regc_read(d, &ctl, &v), 0);
    assert_int_equal(v, want);
    /* socket 1 holds its own copy */
    assert_int_equal(cfg_dword(&g_fs, HA1_BDF, e5_2600v2_ha_pci_pmon_ctl_addr(1)), 0);
    assert_int_equal(regc_write(d, &ctl, 0), 0);
    regc_close(d);
}

/* A 64-bit counter is two dwords, low first; an 8-byte pread is two dword accesses. */
static void test_register_qword(void **st)
{
    regc_dev *d = open_pci(&g_fs, "e5_2600v2", 0);
    struct regc_ref ctr = ref("e5_2600v2", "ha.ha0.HA_PCI_PMON_CTR2");
    unsigned off = e5_2600v2_ha_pci_pmon_ctr_addr(2);
    uint64_t want = UINT64_C(0xfedcba987654) & E5_2600V2_HA_PCI_PMON_CTR_EVENT_COUNT_MASK;
    long mark = log_end(&g_fs);
    assert_int_equal(regc_write(d, &ctr, want), 0);
    char lines[256];
    snprintf(lines, sizeof(lines), "W " HA_BDF " 0x%x 4 0x%x 0\nW " HA_BDF " 0x%x 4 0x%x 0\n", off,
             (unsigned)want, off + 4, (unsigned)(want >> 32));
    assert_string_equal(log_since(&g_fs, &mark), lines);
    int fd = cfg_open(&g_fs, HA_BDF, O_RDONLY);
    uint64_t v = 0;
    assert_int_equal(pread(fd, &v, 8, off), 8);
    close(fd);
    assert_int_equal(v, want);
    snprintf(lines, sizeof(lines), "R " HA_BDF " 0x%x 4 0x%x 0\nR " HA_BDF " 0x%x 4 0x%x 0\n", off,
             (unsigned)want, off + 4, (unsigned)(want >> 32));
    assert_string_equal(log_since(&g_fs, &mark), lines);
    assert_int_equal(regc_read(d, &ctr, &v), 0);
    assert_int_equal(v, want);
    assert_int_equal(regc_write(d, &ctr, 0), 0);
    regc_close(d);
}

/* Odd offsets and sizes: split as the kernel splits them; a byte changes only itself. */
static void test_unaligned(void **st)
{
    unsigned off = e5_2600v2_ha_pci_pmon_ctl_addr(0);
    int fd = cfg_open(&g_fs, HA_BDF, O_RDWR);
    assert_true(fd >= 0);
    uint32_t v = E5_2600V2_EV_HA_REQUESTS_READS | E5_2600V2_HA_PCI_PMON_CTL_EN_MASK;
    assert_int_equal(pwrite(fd, &v, 4, off), 4);
    long mark = log_end(&g_fs);
    uint8_t umask = 0x0c; /* REQUESTS.WRITES' unit mask, written alone */
    assert_int_equal(pwrite(fd, &umask, 1, off + 1), 1);
    char want[512];
    snprintf(want, sizeof(want), "W " HA_BDF " 0x%x 1 0xc 0\n", off + 1);
    assert_string_equal(log_since(&g_fs, &mark), want);
    assert_int_equal(cfg_dword(&g_fs, HA_BDF, off),
                     E5_2600V2_EV_HA_REQUESTS_WRITES | E5_2600V2_HA_PCI_PMON_CTL_EN_MASK);
    mark = log_end(&g_fs);
    uint8_t b[7];
    assert_int_equal(pread(fd, b, 7, off + 1), 7); /* byte, word, dword */
    snprintf(want, sizeof(want),
             "R " HA_BDF " 0x%x 1 0xc 0\nR " HA_BDF " 0x%x 2 0x40 0\nR " HA_BDF " 0x%x 4 0x0 0\n",
             off + 1, off + 2, off + 4);
    assert_string_equal(log_since(&g_fs, &mark), want);
    assert_int_equal(b[0], 0x0c);
    assert_int_equal(b[1], 0x40);
    assert_int_equal(pread(fd, b, 3, off + 2), 3); /* word, byte */
    snprintf(want, sizeof(want), "R " HA_BDF " 0x%x 2 0x40 0\nR " HA_BDF " 0x%x 1 0x0 0\n", off + 2,
             off + 4);
    assert_string_equal(log_since(&g_fs, &mark), want);
    v = 0;
    assert_int_equal(pwrite(fd, &v, 4, off), 4);
    close(fd);
}

/*
 * A write to part of a register leaves the rest as it is: a W1C status bit in
 * another byte is not cleared by writing a byte beside it; the byte holding it
 * clears it.
 */
static void test_partial_w1c(void **st)
{
    regc_dev *d = open_pci(&g_fs, "e5_2600v2", 0);
    /* counter 0 enabled at the top of its 48 bits: two events overflow it */
    struct regc_ref ctl = ref("e5_2600v2", "ha.ha0.HA_PCI_PMON_CTL0");
    struct regc_ref ctr = ref("e5_2600v2", "ha.ha0.HA_PCI_PMON_CTR0");
    assert_int_equal(regc_write(d, &ctl, E5_2600V2_HA_PCI_PMON_CTL_EN_MASK), 0);
    assert_int_equal(regc_write(d, &ctr, E5_2600V2_HA_PCI_PMON_CTR_EVENT_COUNT_MASK), 0);
    assert_int_equal(fusefs_command(&g_fs, "tick ha ha0 0 0 2"), 0);
    unsigned status = E5_2600V2_HA_PCI_PMON_BOX_STATUS_ADDR;
    uint32_t ov0 = UINT32_C(1) << E5_2600V2_HA_PCI_PMON_BOX_STATUS_OV_SHIFT; /* counter 0 */
    assert_int_equal(cfg_dword(&g_fs, HA_BDF, status) & E5_2600V2_HA_PCI_PMON_BOX_STATUS_OV_MASK,
                     ov0);
    int fd = cfg_open(&g_fs, HA_BDF, O_RDWR);
    uint8_t ones = 0xff, zero = 0;
    assert_int_equal(pwrite(fd, &zero, 1, status + 1), 1);
    assert_int_equal(pwrite(fd, &ones, 1, status + 2), 1); /* reserved there: refused, dropped */
    assert_int_equal(cfg_dword(&g_fs, HA_BDF, status) & E5_2600V2_HA_PCI_PMON_BOX_STATUS_OV_MASK,
                     ov0);
    assert_int_equal(pwrite(fd, &(uint8_t){1}, 1, status), 1);
    assert_int_equal(cfg_dword(&g_fs, HA_BDF, status), 0);
    close(fd);
    assert_int_equal(regc_write(d, &ctl, 0), 0);
    assert_int_equal(regc_write(d, &ctr, 0), 0);
    regc_close(d);
}

/* A "defer" group of ticks (simctl.h) waits while the HA box is frozen, through reads and a
 * write that keeps the freeze, and runs once, right after the configuration write that ends it:
 * its tick counted exactly once. */
static void test_defer_until_unfrozen(void **st)
{
    regc_dev *d = open_pci(&g_fs, "e5_2600v2", 0);
    struct regc_ref ctl = ref("e5_2600v2", "ha.ha0.HA_PCI_PMON_CTL0");
    struct regc_ref ctr = ref("e5_2600v2", "ha.ha0.HA_PCI_PMON_CTR0");
    struct regc_ref box = ref("e5_2600v2", "ha.ha0.HA_PCI_PMON_BOX_CTL");
    uint32_t frozen =
        E5_2600V2_HA_PCI_PMON_BOX_CTL_MB1_MASK | E5_2600V2_HA_PCI_PMON_BOX_CTL_FRZ_MASK;
    uint64_t v;
    assert_int_equal(regc_write(d, &ctl, E5_2600V2_HA_PCI_PMON_CTL_EN_MASK), 0);
    assert_int_equal(regc_write(d, &ctr, 0), 0);
    assert_int_equal(regc_write(d, &box, frozen), 0);
    assert_int_equal(fusefs_command(&g_fs, "defer 1\ntick ha ha0 0 0 5\ndefer 0"), 0);
    assert_int_equal(regc_read(d, &ctr, &v), 0);
    assert_int_equal(v, 0);
    assert_int_equal(regc_write(d, &box, frozen), 0); /* still frozen: it waits on */
    assert_int_equal(regc_read(d, &ctr, &v), 0);
    assert_int_equal(v, 0);
    assert_int_equal(regc_write(d, &box, E5_2600V2_HA_PCI_PMON_BOX_CTL_MB1_MASK), 0); /* frz 0 */
    assert_int_equal(regc_read(d, &ctr, &v), 0);
    assert_int_equal(v, 5);
    assert_int_equal(regc_write(d, &box, E5_2600V2_HA_PCI_PMON_BOX_CTL_MB1_MASK), 0);
    assert_int_equal(regc_read(d, &ctr, &v), 0);
    assert_int_equal(v, 5); /* once */
    assert_int_equal(regc_write(d, &ctl, 0), 0);
    assert_int_equal(regc_write(d, &ctr, 0), 0);
    regc_close(d);
}

/* The model refuses a reserved bit; the kernel reports no configuration write error. */
static void test_refused_write(void **st)
{
    regc_dev *d = open_pci(&g_fs, "e5_2600v2", 0);
    struct regc_ref ctl = ref("e5_2600v2", "ha.ha0.HA_PCI_PMON_CTL3");
    uint32_t ok = E5_2600V2_EV_HA_REQUESTS_READS, rsv = UINT32_C(1) << 23; /* rsv [23] */
    assert_true(E5_2600V2_HA_PCI_PMON_CTL_MBZ_MASK & rsv);
    assert_int_equal(regc_write(d, &ctl, ok), 0);
    long mark = log_end(&g_fs);
    assert_int_equal(regc_write(d, &ctl, ok | rsv), -EINVAL); /* checked: never sent */
    assert_string_equal(log_since(&g_fs, &mark), "");
    assert_int_equal(regc_write_unchecked(d, &ctl, ok | rsv), 0);
    char want[128];
    snprintf(want, sizeof(want), "W " HA_BDF " 0x%x 4 0x%x -5\n", e5_2600v2_ha_pci_pmon_ctl_addr(3),
             ok | rsv);
    assert_string_equal(log_since(&g_fs, &mark), want);
    assert_int_equal(cfg_dword(&g_fs, HA_BDF, e5_2600v2_ha_pci_pmon_ctl_addr(3)), ok);
    assert_int_equal(regc_write(d, &ctl, 0), 0);
    regc_close(d);
}

/* The end of the file (fs/sysfs/file.c): EOF for reads, EFBIG for writes, cut short across it. */
static void test_end_of_config(void **st)
{
    int fd = cfg_open(&g_fs, HA_BDF, O_RDWR);
    uint8_t b[16];
    assert_int_equal(pread(fd, b, 4, 4096), 0);
    assert_int_equal(pread(fd, b, 16, 4090), 6);
    errno = 0;
    assert_int_equal(pwrite(fd, b, 4, 4096), -1);
    assert_int_equal(errno, EFBIG);
    memset(b, 0, sizeof(b));
    assert_int_equal(pwrite(fd, b, 16, 4092), 4);
    close(fd);
    /* registers past 0x100 are there (PCIe extended space) */
    regc_dev *d = open_pci(&g_fs, "e5_2600v2", 0);
    struct regc_ref m0 = ref("e5_2600v2", "qpimm.p0.Q_Py_PCI_PMON_PKT_MATCH0");
    uint32_t vnw = E5_2600V2_Q_PY_PCI_PMON_PKT_MATCH0_VNW_VAL(1);
    assert_int_equal(regc_write(d, &m0, vnw), 0);
    assert_int_equal(cfg_dword(&g_fs, QPIMM_BDF, E5_2600V2_Q_PY_PCI_PMON_PKT_MATCH0_ADDR), vnw);
    assert_int_equal(regc_write(d, &m0, 0), 0);
    regc_close(d);
}

/* Socket 1 is the second function that matches (regc_options.cpu 1): bus 0xff. */
static void test_second_socket(void **st)
{
    regc_dev *d = open_pci(&g_fs, "e5_2600v2", 1);
    struct regc_ref ctl = ref("e5_2600v2", "ha.ha0.HA_PCI_PMON_CTL2");
    long mark = log_end(&g_fs);
    assert_int_equal(regc_write(d, &ctl, E5_2600V2_EV_HA_REQUESTS_WRITES), 0);
    char want[128];
    snprintf(want, sizeof(want), "W " HA1_BDF " 0x%x 4 0x%x 0\n", e5_2600v2_ha_pci_pmon_ctl_addr(2),
             E5_2600V2_EV_HA_REQUESTS_WRITES);
    assert_string_equal(log_since(&g_fs, &mark), want);
    assert_int_equal(cfg_dword(&g_fs, HA_BDF, e5_2600v2_ha_pci_pmon_ctl_addr(2)), 0);
    assert_int_equal(regc_write(d, &ctl, 0), 0);
    regc_close(d);
    /* a third socket: no such function */
    d = open_pci(&g_fs, "e5_2600v2", 2);
    uint64_t v;
    assert_int_equal(regc_read(d, &ctl, &v), -ENODEV);
    assert_non_null(strstr(regc_last_error(d), "no PCI device matches the instance's locator"));
    regc_close(d);
    /* "socket S" reaches the other model */
    assert_int_equal(fusefs_command(&g_fs, "socket 1 tick ha ha0 0 0 1"), 0);
    assert_int_equal(fusefs_command(&g_fs, "socket 2 tick ha ha0 0 0 1"), -EINVAL);
}

/*
 * A function without PCIe extended configuration space (--config-size 256, as
 * the kernel gives without MMCONFIG): a register past 0x100 cannot be reached,
 * and the message says why.
 */
static void test_small_config(void **st)
{
    struct fusefs *m = &g_other;
    char why[512];
    const char *args[] = {"--spec", "e5_2600v2", "--config-size", "256", NULL};
    if (fusefs_mount(m, "pcifs", args, NULL, "bus/pci/devices", why, sizeof(why)))
        fail_msg("%s", why);
    regc_dev *d = open_pci(m, "e5_2600v2", 0);
    struct regc_ref m0 = ref("e5_2600v2", "qpimm.p0.Q_Py_PCI_PMON_PKT_MATCH0");
    const char *msg =
        "offset 0x228 is past the end of " QPIMM_BDF "'s configuration space (256 bytes";
    uint64_t v;
    assert_int_equal(regc_read(d, &m0, &v), -EIO);
    assert_non_null(strstr(regc_last_error(d), msg));
    assert_int_equal(regc_write(d, &m0, 0), -EIO);
    assert_non_null(strstr(regc_last_error(d), msg));
    struct regc_ref ctl = ref("e5_2600v2", "qpi.p0.Q_Py_PCI_PMON_CTL0"); /* below 0x100: there */
    assert_int_equal(regc_read(d, &ctl, &v), 0);
    regc_close(d);
    fusefs_unmount(m);
}

/* What the checks of a caller other than root found: 0, or the number of the failed one. */
static int not_root_checks(const struct fusefs *m)
{
    int fd = cfg_open(m, HA_BDF, O_RDWR);
    if (fd >= 0 || errno != EACCES)
        return 1; /* config is 0644, owned by root */
    fd = cfg_open(m, HA_BDF, O_RDONLY);
    uint32_t v = 0;
    if (fd < 0 || pread(fd, &v, 4, 0) != 4 ||
        v != (E5_2600V2_HA_HA0_DEVICE << 16 | E5_2600V2_HA_HA0_VENDOR))
        return 2; /* the first 64 bytes are everyone's */
    if (pread(fd, &v, 4, e5_2600v2_ha_pci_pmon_ctl_addr(0)) != 0)
        return 3; /* the rest is root's: nothing */
    close(fd);
    struct regc_options o = {.backend = "pci", .sysfs_root = m->mnt};
    regc_dev *d;
    if (regc_open(&d, spec("e5_2600v2"), &o, NULL, 0) != 0)
        return 4;
    struct regc_ref ctl = ref("e5_2600v2", "ha.ha0.HA_PCI_PMON_CTL0");
    uint64_t r;
    int rc = 0;
    if (regc_read(d, &ctl, &r) != -EACCES ||
        !strstr(regc_last_error(d), "configuration space past 64 bytes needs root"))
        rc = 5;
    else if (regc_write(d, &ctl, 0) != -EACCES)
        rc = 6;
    if (rc)
        fprintf(stderr, "not root: %s\n", regc_last_error(d));
    regc_close(d);
    return rc;
}

/* A caller without CAP_SYS_ADMIN: 64 bytes to read, no writing, and the runtime says so. */
static void test_not_root(void **st)
{
    struct fusefs *m = &g_other;
    char why[512];
    const char *args[] = {"--spec", "e5_2600v2", NULL}, *fuse[] = {"-o", "allow_other", NULL};
    if (fusefs_mount(m, "pcifs", args, fuse, "bus/pci/devices", why, sizeof(why)))
        fail_msg("%s", why);
    chmod(m->dir, 0755); /* let the other user reach the mount point */
    pid_t pid = fork();
    if (pid == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(100);
        _exit(not_root_checks(m));
    }
    int status = -1;
    waitpid(pid, &status, 0);
    fusefs_unmount(m);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
    const char *names[] = {
        "tree",          "unimplemented offsets", "register dword", "register qword",
        "unaligned",     "partial w1c",           "refused write",  "end of config",
        "second socket", "small config",          "not root",       "defer until unfrozen"};
    const char *why = fusefs_unavailable("pcifs", true);
    char buf[512];
    const char *args[] = {"--spec", "e5_2600v2", "--sockets", "2", NULL};
    if (!why && fusefs_mount(&g_fs, "pcifs", args, NULL, "bus/pci/devices", buf, sizeof(buf)))
        why = buf;
    if (why) {
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
            tu_skip(names[i], why);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree),           cmocka_unit_test(test_unimplemented_offsets),
        cmocka_unit_test(test_register_dword), cmocka_unit_test(test_register_qword),
        cmocka_unit_test(test_unaligned),      cmocka_unit_test(test_partial_w1c),
        cmocka_unit_test(test_refused_write),  cmocka_unit_test(test_end_of_config),
        cmocka_unit_test(test_second_socket),  cmocka_unit_test(test_small_config),
        cmocka_unit_test(test_not_root),       cmocka_unit_test(test_defer_until_unfrozen),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    fusefs_unmount(&g_other);
    fusefs_unmount(&g_fs);
    return rc;
}
