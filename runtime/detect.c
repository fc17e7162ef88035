/*
 * detect - the CPU's identity (CPUID through <root>/N/cpuid or the
 * instruction), the uncore PCI devices sysfs lists, and the specs that match
 * (regc/detect.h).
 */
#include "grow.h"
#include "internal.h"
#include "regc/detect.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_CPUID_INSN 1
#else
#define HAVE_CPUID_INSN 0
#endif

#define DEFAULT_CPU_ROOT "/dev/cpu"

void regc_cpuid_decode(struct regc_cpuid *id, uint32_t eax1)
{
    unsigned family = (eax1 >> 8) & 0xF, model = (eax1 >> 4) & 0xF;
    unsigned ext_family = (eax1 >> 20) & 0xFF, ext_model = (eax1 >> 16) & 0xF;
    id->signature = eax1;
    id->stepping = eax1 & 0xF;
    id->family = family == 0xF ? family + ext_family : family;
    id->model = family == 0x6 || family == 0xF ? (ext_model << 4) + model : model;
}

/* leaf 0's ebx, edx, ecx spell the vendor. */
static void set_vendor(struct regc_cpuid *id, uint32_t ebx, uint32_t ecx, uint32_t edx)
{
    memcpy(id->vendor, &ebx, 4);
    memcpy(id->vendor + 4, &edx, 4);
    memcpy(id->vendor + 8, &ecx, 4);
    id->vendor[12] = '\0';
}

/*
 * eax, ebx, ecx, edx of 'leaf': 16 bytes at offset 'leaf' from the Linux
 * cpuid driver's device; from a regular file, a copy of the device's first
 * records (`head -c 32 /dev/cpu/0/cpuid`: the driver moves one leaf on per
 * 16 bytes read), at offset 16 * leaf.
 */
static int read_leaf(int fd, bool copy, uint32_t leaf, uint32_t r[4])
{
    ssize_t n = pread(fd, r, 16, copy ? (off_t)leaf * 16 : (off_t)leaf);
    if (n < 0)
        return -errno;
    return n == 16 ? 0 : -EIO;
}

static int read_file(const char *path, struct regc_cpuid *out, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    struct stat st;
    bool copy = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    uint32_t l0[4], l1[4];
    int rc = read_leaf(fd, copy, 0, l0);
    if (rc == 0)
        rc = read_leaf(fd, copy, 1, l1);
    close(fd);
    if (rc < 0)
        return regc__err(err, errlen, rc, "%s: cannot read CPUID leaves 0 and 1 (%s)", path,
                         rc == -EIO ? "short read: want 16 bytes for each of leaves 0 and 1"
                                    : strerror(-rc));
    set_vendor(out, l0[1], l0[2], l0[3]);
    regc_cpuid_decode(out, l1[0]);
    snprintf(out->source, sizeof(out->source), "%s", path);
    return 0;
}

static int read_insn(struct regc_cpuid *out, const char *path, int why, char *err, size_t errlen)
{
#if HAVE_CPUID_INSN
    unsigned a, b, c, d;
    if (__get_cpuid(0, &a, &b, &c, &d)) {
        set_vendor(out, b, c, d);
        if (__get_cpuid(1, &a, &b, &c, &d)) {
            regc_cpuid_decode(out, a);
            snprintf(out->source, sizeof(out->source), "the CPUID instruction");
            return 0;
        }
    }
#endif
    return regc__err(err, errlen, why, "%s: %s, and no CPUID instruction to fall back on", path,
                     strerror(-why));
}

int regc_cpuid_read(const char *msr_root, int cpu, struct regc_cpuid *out, char *err,
                    size_t errlen)
{
    memset(out, 0, sizeof(*out));
    const char *root = regc__root(msr_root, "REGC_MSR_ROOT", DEFAULT_CPU_ROOT);
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s/%d/cpuid", root, cpu);
    int rc = read_file(path, out, err, errlen);
    if (rc != -ENOENT && rc != -ENXIO && rc != -ENODEV && rc != -EACCES && rc != -EPERM)
        return rc; /* read, or a file that exists but is not a cpuid device */
    if (strcmp(root, DEFAULT_CPU_ROOT) == 0)
        return read_insn(out, path, rc, err, errlen);
    return regc__err(err, errlen, rc, "%s: %s (a CPU root given by --msr-root or $REGC_MSR_ROOT "
                     "needs N/cpuid beside N/msr)", path, strerror(-rc));
}

bool regc_spec_has_cpus(const struct regc_spec *s)
{
    return s->cpus && s->cpus[0].vendor;
}

const struct regc_cpu *regc_spec_cpu_match(const struct regc_spec *s, const struct regc_cpuid *id)
{
    for (const struct regc_cpu *c = s->cpus; c && c->vendor; c++)
        if (strcmp(c->vendor, id->vendor) == 0 && c->family == id->family && c->model == id->model)
            return c;
    return NULL;
}

const char *regc_cpu_describe(const struct regc_cpu *c, char *buf, size_t len)
{
    snprintf(buf, len, "%s family 0x%X model 0x%02X%s%s%s", c->vendor, c->family, c->model,
             c->name ? " (" : "", c->name ? c->name : "", c->name ? ")" : "");
    return buf;
}

/* ---- PCI */

struct pci_id {
    uint16_t vendor, device;
};

/* The spec's distinct (vendor, device) pairs into ids (caller frees); their count. */
static size_t spec_pci_ids(const struct regc_spec *s, struct pci_id **ids)
{
    size_t n = 0, cap = 0;
    *ids = NULL;
    for (const struct regc_block *b = s->blocks; b->name; b++)
        for (const struct regc_instance *in = b->instances; in && in->name; in++) {
            if (!in->has_pci)
                continue;
            bool dup = false;
            for (size_t i = 0; i < n && !dup; i++)
                dup = (*ids)[i].vendor == in->pci.vendor && (*ids)[i].device == in->pci.device;
            if (dup)
                continue;
            struct pci_id *m = regc_grow(*ids, &cap, n + 1, sizeof(**ids));
            if (!m)
                return n;
            *ids = m;
            (*ids)[n++] = (struct pci_id){in->pci.vendor, in->pci.device};
        }
    return n;
}

int regc_pci_uncore_count(const struct regc_spec *s, const char *sysfs_root, unsigned *found,
                          unsigned *wanted, char *err, size_t errlen)
{
    struct pci_id *ids;
    size_t n = spec_pci_ids(s, &ids);
    *wanted = (unsigned)n;
    *found = 0;
    if (n == 0) {
        free(ids);
        return 0;
    }
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s/bus/pci/devices",
             regc__root(sysfs_root, "REGC_SYSFS_ROOT", "/sys"));
    DIR *d = opendir(dir);
    if (!d) {
        int rc = errno;
        free(ids);
        if (rc == ENOENT)
            return 0;
        return regc__err(err, errlen, -rc, "%s: %s", dir, strerror(rc));
    }
    bool *seen = calloc(n, sizeof(*seen));
    if (!seen) {
        closedir(d);
        free(ids);
        return regc__err(err, errlen, -ENOMEM, "out of memory");
    }
    for (struct dirent *e; (e = readdir(d));) {
        uint64_t v, dv;
        if (e->d_name[0] == '.' || !regc__read_pci_id(dir, e->d_name, "vendor", &v) ||
            !regc__read_pci_id(dir, e->d_name, "device", &dv))
            continue;
        for (size_t i = 0; i < n; i++)
            if (!seen[i] && ids[i].vendor == v && ids[i].device == dv) {
                seen[i] = true;
                (*found)++;
            }
    }
    closedir(d);
    free(seen);
    free(ids);
    return 0;
}
