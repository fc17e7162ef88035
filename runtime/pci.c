/*
 * pci - the pci backend: configuration space through sysfs,
 * <root>/bus/pci/devices/<DDDD:BB:DD.F>/{vendor,device,config}; root from
 * regc_options.sysfs_root, $REGC_SYSFS_ROOT, else /sys. The device is the
 * one matching the instance's locator (vendor, device, dev, func); when
 * several match (one per socket), regc_options.cpu picks the Nth in bus
 * order. 32-bit accesses; a 64-bit register is two dwords, low first.
 * Config files are opened once per device and cached.
 */
#include "grow.h"
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct pci_dev {
    struct regc_pci_loc loc;
    int fd;
    bool readonly;
    char name[32]; /* "0000:7f:0e.1" */
};

struct pci_state {
    char root[PATH_MAX];
    int which; /* the Nth match */
    struct pci_dev *devs;
    size_t ndevs, devs_cap;
};

static int pci_open(struct regc_backend *be, char *err, size_t errlen)
{
    struct pci_state *st = calloc(1, sizeof(*st));
    if (!st)
        return regc__err(err, errlen, -ENOMEM, "out of memory");
    const char *root = regc__root(be->opt->sysfs_root, "REGC_SYSFS_ROOT", "/sys");
    snprintf(st->root, sizeof(st->root), "%s/bus/pci/devices", root);
    st->which = be->opt->cpu;
    be->priv = st;
    return 0;
}

static void pci_close(struct regc_backend *be)
{
    struct pci_state *st = be->priv;
    for (size_t i = 0; i < st->ndevs; i++)
        if (st->devs[i].fd >= 0)
            close(st->devs[i].fd);
    free(st->devs);
    free(st);
}

static bool read_id(const char *dir, const char *name, const char *file, unsigned long *v)
{
    char path[PATH_MAX * 2], buf[32];
    snprintf(path, sizeof(path), "%s/%s/%s", dir, name, file);
    if (regc__read_text(path, buf, sizeof(buf)) < 0)
        return false;
    char *end;
    *v = strtoul(buf, &end, 16);
    return end != buf;
}

/* Does sysfs entry 'name' ("0000:7f:0e.1") match the locator? */
static bool matches(const char *dir, const char *name, const struct regc_pci_loc *loc)
{
    unsigned dom, bus, dev, fn;
    if (sscanf(name, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4 || dev != loc->dev ||
        fn != loc->func)
        return false;
    unsigned long ven, did;
    return read_id(dir, name, "vendor", &ven) && read_id(dir, name, "device", &did) &&
           ven == loc->vendor && did == loc->device;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int find_config(const struct pci_state *st, const struct regc_pci_loc *loc, char *path,
                       size_t len, char *name, size_t namelen)
{
    struct dirent **ents;
    int n = scandir(st->root, &ents, NULL, by_name);
    if (n < 0)
        return -errno;
    int seen = 0, rc = -ENODEV;
    for (int i = 0; i < n; i++) {
        if (rc == -ENODEV && matches(st->root, ents[i]->d_name, loc) && seen++ == st->which) {
            snprintf(path, len, "%s/%s/config", st->root, ents[i]->d_name);
            snprintf(name, namelen, "%.31s", ents[i]->d_name); /* matched: 12 characters */
            rc = 0;
        }
        free(ents[i]);
    }
    free(ents);
    return rc;
}

static int dev_of(struct pci_state *st, const struct regc_pci_loc *loc, bool write,
                  struct pci_dev **out)
{
    struct pci_dev *d = NULL;
    for (size_t i = 0; i < st->ndevs && !d; i++)
        if (memcmp(&st->devs[i].loc, loc, sizeof(*loc)) == 0)
            d = &st->devs[i];
    if (!d) {
        char path[PATH_MAX * 2], name[32];
        int rc = find_config(st, loc, path, sizeof(path), name, sizeof(name));
        if (rc < 0)
            return rc;
        struct pci_dev *n = regc_grow(st->devs, &st->devs_cap, st->ndevs + 1, sizeof(*n));
        if (!n)
            return -ENOMEM;
        st->devs = n;
        d = &st->devs[st->ndevs];
        *d = (struct pci_dev){.loc = *loc, .fd = open(path, O_RDWR | O_CLOEXEC)};
        memcpy(d->name, name, sizeof(d->name));
        if (d->fd < 0 && (errno == EACCES || errno == EPERM || errno == EROFS)) {
            d->fd = open(path, O_RDONLY | O_CLOEXEC);
            d->readonly = true;
        }
        if (d->fd < 0)
            return -errno;
        st->ndevs++;
    }
    if (write && d->readonly)
        return -EACCES;
    *out = d;
    return 0;
}

/*
 * A dword the kernel did not transfer whole (drivers/pci/pci-sysfs.c): inside
 * the file, a read stops at 64 bytes for a caller without CAP_SYS_ADMIN;
 * past its end (256 bytes without PCIe extended configuration space), a read
 * returns nothing and a write fails with EFBIG.
 */
static int short_io(struct regc_backend *be, const struct pci_dev *d, uint64_t off)
{
    struct stat st;
    if (fstat(d->fd, &st) == 0 && off + 4 <= (uint64_t)st.st_size)
        return -EACCES;
    snprintf(be->msg, sizeof(be->msg),
             "offset 0x%llx is past the end of %s's configuration space (%lld bytes; registers "
             "past 0x100 need PCIe extended configuration space, which the kernel reaches through "
             "MMCONFIG)",
             (unsigned long long)off, d->name, (long long)st.st_size);
    return -EIO;
}

static int dword_io(struct regc_backend *be, const struct pci_dev *d, bool write, uint64_t off,
                    uint32_t *v)
{
    ssize_t n = write ? pwrite(d->fd, v, 4, (off_t)off) : pread(d->fd, v, 4, (off_t)off);
    if (n == 4)
        return 0;
    if (n < 0 && errno != EFBIG)
        return -errno;
    return short_io(be, d, off);
}

static int pci_access(struct regc_backend *be, const struct regc_io *io, bool write,
                      uint64_t *value)
{
    if (io->space != REGC_SPACE_PCI)
        return -EOPNOTSUPP;
    if (!io->pci)
        return -ENODEV;
    struct pci_dev *d;
    int rc = dev_of(be->priv, io->pci, write, &d);
    if (rc < 0)
        return rc;
    uint32_t lo = (uint32_t)*value, hi = (uint32_t)(*value >> 32);
    rc = dword_io(be, d, write, io->address, &lo);
    if (!rc && io->size > 32)
        rc = dword_io(be, d, write, io->address + 4, &hi);
    if (!rc && !write)
        *value = (io->size > 32 ? (uint64_t)hi << 32 : 0) | lo;
    return rc;
}

static int pci_read(struct regc_backend *be, const struct regc_io *io, uint64_t *value)
{
    *value = 0;
    return pci_access(be, io, false, value);
}

static int pci_write(struct regc_backend *be, const struct regc_io *io, uint64_t value)
{
    return pci_access(be, io, true, &value);
}

const struct regc_backend_ops regc_pci_ops = {
    .name = "pci", .open = pci_open, .close = pci_close, .read = pci_read, .write = pci_write};
