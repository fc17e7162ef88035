/*
 * pci - the pci backend: configuration space through sysfs,
 * <root>/bus/pci/devices/<DDDD:BB:DD.F>/{vendor,device,config}; root from
 * regc_options.sysfs_root, $REGC_SYSFS_ROOT, else /sys. The device is the
 * one matching the instance's locator (vendor, device, dev, func; a dev or
 * func of REGC_PCI_ANY matches any slot or function); when
 * several match (one per socket), regc_options.cpu picks the Nth in bus
 * order, or, with regc_options.by_package, the one on a bus of that package
 * (the U-Box node-id map below). 32-bit accesses; a 64-bit register is two
 * dwords, low first. Config files are opened once per device and cached.
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

struct pci_dev {
    struct regc_pci_loc loc;
    int fd;
    bool readonly;
    char name[32]; /* "0000:7f:0e.1" */
};

/*
 * The PCI bus of each package. The kernel does not trust bus order:
 * snbep_pci2phy_map_init() (arch/x86/events/intel/uncore_snbep.c, torvalds/linux
 * 0378c93a92e226d99f4672e66fe4c08ee7b19e2d) finds every U-Box PCI device of the part
 * (pci_get_device(PCI_VENDOR_ID_INTEL, devid): 0x3ce0 from snbep_uncore_pci_init, 0x0e1e from
 * ivbep_uncore_pci_init), reads its CPUNODEID (SNBEP_CPUNODEID, config 0x40; the node id is
 * "config & NODE_ID_MASK", 0x7) and its GIDNIDMAP (SNBEP_GIDNIDMAP, config 0x54: "every three
 * bits in the Node ID mapping register maps to a particular node") and maps the U-Box's bus to
 * the package i whose field (GIDNIDMAP >> 3*i) & 7, i = 0..7, equals the node id. A bus without a
 * U-Box takes the package of the next bus above it that has one (both parts pass reverse = true).
 * Keyed by spec here: the spec language does not carry these facts yet.
 */
static const struct ubox_map {
    const char *spec;
    unsigned vendor, device, cpunodeid, gidnidmap;
} ubox_maps[] = {
    {"e5_2600", 0x8086, 0x3ce0, 0x40, 0x54},
    {"e5_2600v2", 0x8086, 0x0e1e, 0x40, 0x54},
};

#define MAX_UBOXES 64

struct ubox { /* one U-Box found: its bus and the package the map gives it */
    unsigned dom, bus;
    int pkg;
    char name[32];
};

struct pci_state {
    char root[PATH_MAX];
    int which;   /* the Nth match */
    int package; /* by_package: the package whose buses hold the devices; -1: by 'which' */
    int want;    /* by_package: the package asked for, the map read at the first access */
    bool mapped; /* that map read: map_rc and map_msg its outcome */
    int map_rc;
    char map_msg[256];
    struct ubox uboxes[MAX_UBOXES];
    int nuboxes;
    struct pci_dev *devs;
    size_t ndevs, devs_cap;
};

static int by_name(const struct dirent **a, const struct dirent **b);

/* The package of bus 'bus' of domain 'dom' by the U-Box map; -1 when no U-Box bus lies above. */
/*
 * A sysfs PCI address "DDDD:BB:DD.F" (hexadecimal: domain, bus, device,
 * function): true and its parts, or false for any other name.
 */
static bool pci_address(const char *name, unsigned *dom, unsigned *bus, unsigned *dev, unsigned *fn)
{
    static const struct {
        char end;     /* the separator after the part; '\0': the last */
        uint64_t max; /* domain: 32 bits (Linux's pci_domain_nr is an int) */
    } parts[] = {{':', UINT32_MAX}, {':', 0xff}, {'.', 0x1f}, {'\0', 7}};
    unsigned *out[] = {dom, bus, dev, fn};
    const char *p = name;
    for (size_t i = 0; i < 4; i++) {
        const char *sep = parts[i].end ? strchr(p, parts[i].end) : p + strlen(p);
        uint64_t v;
        if (!sep || regc_num_parse(p, (size_t)(sep - p), 0, parts[i].max, REGC_NUM_HEX, &v, NULL,
                                   0) != REGC_NUM_OK)
            return false;
        *out[i] = (unsigned)v;
        p = sep + 1;
    }
    return true;
}

static int package_of(const struct pci_state *st, unsigned dom, unsigned bus)
{
    int best = -1;
    unsigned at = 0;
    for (int i = 0; i < st->nuboxes; i++) {
        const struct ubox *u = &st->uboxes[i];
        if (u->dom == dom && u->bus >= bus && (best < 0 || u->bus < at)) {
            best = u->pkg;
            at = u->bus;
        }
    }
    return best;
}

/* "0000:7f -> 1, 0000:ff -> 0" for a message. */
static void map_text(const struct pci_state *st, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < st->nuboxes && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%04x:%02x -> %d", i ? ", " : "",
                               st->uboxes[i].dom, st->uboxes[i].bus, st->uboxes[i].pkg);
}

/* A dword of a U-Box's configuration space; 0, or -errno with a message. */
static int ubox_dword(const struct pci_state *st, const char *name, unsigned off, const char *what,
                      uint32_t *v, char *err, size_t errlen)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof(path), "%s/%s/config", st->root, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : pread(fd, v, 4, off);
    int e = errno;
    if (fd >= 0)
        close(fd);
    if (n == 4)
        return 0;
    if (n >= 0) /* the kernel gives a caller without CAP_SYS_ADMIN the first 64 bytes */
        return regc__err(err, errlen, -EACCES,
                         "cannot read %s of U-Box %s (config 0x%x): configuration space past 64 "
                         "bytes needs root",
                         what, name, off);
    return regc__err(err, errlen, -e, "cannot read %s of U-Box %s (%s): %s", what, name, path,
                     strerror(e));
}

/* Reads every U-Box of map m under st->root into st->uboxes; 0, or -errno with a message
 * (-ENOENT: no U-Box device at all). */
static int read_uboxes(struct pci_state *st, const struct ubox_map *m, char *err, size_t errlen)
{
    struct dirent **ents;
    int n = scandir(st->root, &ents, NULL, by_name), rc = 0;
    if (n < 0)
        return regc__err(err, errlen, -errno, "cannot read %s: %s", st->root, strerror(errno));
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        unsigned dom, bus, dev, fn;
        uint64_t ven, did;
        uint32_t node, map;
        if (rc || !pci_address(name, &dom, &bus, &dev, &fn) ||
            !regc__read_pci_id(st->root, name, "vendor", &ven) ||
            !regc__read_pci_id(st->root, name, "device", &did) || ven != m->vendor ||
            did != m->device) {
            free(ents[i]);
            continue;
        }
        rc = ubox_dword(st, name, m->cpunodeid, "CPUNODEID", &node, err, errlen);
        if (!rc)
            rc = ubox_dword(st, name, m->gidnidmap, "GIDNIDMAP", &map, err, errlen);
        int pkg = -1;
        for (int k = 0; !rc && k < 8 && pkg < 0; k++)
            if (((map >> (3 * k)) & 7) == (node & 7))
                pkg = k;
        if (!rc && pkg < 0)
            rc = regc__err(err, errlen, -EINVAL,
                           "U-Box %s: its node id %u (CPUNODEID 0x%x) is in no field of its "
                           "GIDNIDMAP 0x%x: no package for PCI bus %02x",
                           name, node & 7, node, map, bus);
        for (int k = 0; !rc && k < st->nuboxes; k++)
            if (st->uboxes[k].dom == dom && st->uboxes[k].pkg == pkg)
                rc = regc__err(err, errlen, -EINVAL,
                               "U-Boxes %s and %s both map their bus to package %d (node ids "
                               "from CPUNODEID, GIDNIDMAP 0x%x): the PCI buses cannot be told "
                               "apart",
                               st->uboxes[k].name, name, pkg, map);
        if (!rc && st->nuboxes == MAX_UBOXES)
            rc = regc__err(err, errlen, -E2BIG, "more than %d U-Box devices in %s", MAX_UBOXES,
                           st->root);
        if (!rc) {
            struct ubox *u = &st->uboxes[st->nuboxes++];
            *u = (struct ubox){.dom = dom, .bus = bus, .pkg = pkg};
            snprintf(u->name, sizeof(u->name), "%.31s", name);
        }
        free(ents[i]);
    }
    free(ents);
    if (!rc && !st->nuboxes)
        rc = regc__err(err, errlen, -ENOENT,
                       "no U-Box PCI device %04x:%04x in %s: without its node id registers the "
                       "PCI buses cannot be mapped to packages (the kernel reads them in "
                       "snbep_pci2phy_map_init())",
                       m->vendor, m->device, st->root);
    return rc;
}

/* by_package: the U-Box map, and a U-Box on package st->want (else -ENODEV with the map). */
static int package_map(struct pci_state *st, const struct regc_backend *be, char *err,
                       size_t errlen)
{
    const struct ubox_map *m = NULL;
    for (size_t i = 0; i < sizeof(ubox_maps) / sizeof(ubox_maps[0]) && !m; i++)
        if (strcmp(ubox_maps[i].spec, be->spec->name) == 0)
            m = &ubox_maps[i];
    if (!m) /* no map known for this part: the Nth in bus order, as before */
        return 0;
    int rc = read_uboxes(st, m, err, errlen);
    if (rc)
        return rc;
    for (int i = 0; i < st->nuboxes; i++)
        if (st->uboxes[i].pkg == st->want) {
            st->package = st->want;
            return 0;
        }
    char map[512];
    map_text(st, map, sizeof(map));
    return regc__err(err, errlen, -ENODEV,
                     "no U-Box maps its PCI bus to package %d (the U-Boxes' map, bus -> package: "
                     "%s)",
                     st->want, map);
}

static int pci_open(struct regc_backend *be, char *err, size_t errlen)
{
    struct pci_state *st = calloc(1, sizeof(*st));
    if (!st)
        return regc__err(err, errlen, -ENOMEM, "out of memory");
    const char *root = regc__root(be->opt->sysfs_root, "REGC_SYSFS_ROOT", "/sys");
    snprintf(st->root, sizeof(st->root), "%s/bus/pci/devices", root);
    st->which = be->opt->cpu;
    st->package = -1;
    st->want = be->opt->by_package ? be->opt->package : -1;
    st->mapped = !be->opt->by_package; /* read, like every device, at the first access */
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

/* Does sysfs entry 'name' ("0000:7f:0e.1") match the locator? */
static bool matches(const char *dir, const char *name, const struct regc_pci_loc *loc)
{
    unsigned dom, bus, dev, fn;
    if (!pci_address(name, &dom, &bus, &dev, &fn) ||
        (loc->dev != REGC_PCI_ANY && dev != loc->dev) ||
        (loc->func != REGC_PCI_ANY && fn != loc->func))
        return false;
    uint64_t ven, did;
    return regc__read_pci_id(dir, name, "vendor", &ven) &&
           regc__read_pci_id(dir, name, "device", &did) && ven == loc->vendor && did == loc->device;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

/* Is sysfs entry 'name' the one to take: the Nth match, or a match on the package's buses? */
static bool chosen(const struct pci_state *st, const char *name, int *seen)
{
    unsigned dom, bus, dev, fn;
    if (st->package < 0)
        return (*seen)++ == st->which;
    return pci_address(name, &dom, &bus, &dev, &fn) && package_of(st, dom, bus) == st->package;
}

static int find_config(struct regc_backend *be, const struct regc_pci_loc *loc, char *path,
                       size_t len, char *name, size_t namelen)
{
    const struct pci_state *st = be->priv;
    struct dirent **ents;
    int n = scandir(st->root, &ents, NULL, by_name);
    if (n < 0)
        return -errno;
    int seen = 0, rc = -ENODEV;
    for (int i = 0; i < n; i++) {
        if (rc == -ENODEV && matches(st->root, ents[i]->d_name, loc) &&
            chosen(st, ents[i]->d_name, &seen)) {
            snprintf(path, len, "%s/%s/config", st->root, ents[i]->d_name);
            snprintf(name, namelen, "%.31s", ents[i]->d_name); /* matched: 12 characters */
            rc = 0;
        }
        free(ents[i]);
    }
    free(ents);
    if (rc == -ENODEV && st->package >= 0) {
        char map[160];
        map_text(st, map, sizeof(map));
        char slot[8];
        snprintf(be->msg, sizeof(be->msg),
                 "no PCI device %04x:%04x at %s on a bus of package %d (bus -> package: %s)",
                 loc->vendor, loc->device, regc_pci_slot(loc, slot, sizeof(slot)), st->package, map);
    }
    return rc;
}

static int dev_of(struct regc_backend *be, const struct regc_pci_loc *loc, bool write,
                  struct pci_dev **out)
{
    struct pci_state *st = be->priv;
    if (!st->mapped) {
        st->mapped = true;
        st->map_rc = package_map(st, be, st->map_msg, sizeof(st->map_msg));
    }
    if (st->map_rc) {
        snprintf(be->msg, sizeof(be->msg), "%s", st->map_msg);
        return st->map_rc;
    }
    struct pci_dev *d = NULL;
    for (size_t i = 0; i < st->ndevs && !d; i++)
        if (memcmp(&st->devs[i].loc, loc, sizeof(*loc)) == 0)
            d = &st->devs[i];
    if (!d) {
        char path[PATH_MAX * 2], name[32];
        int rc = find_config(be, loc, path, sizeof(path), name, sizeof(name));
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
    int rc = dev_of(be, io->pci, write, &d);
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

/* ---- issue 28 (h28s): the uncore PCI devices of a spec, with their package (regc/detect.h) */

static const struct ubox_map *ubox_map_of(const struct regc_spec *s)
{
    for (size_t i = 0; i < sizeof(ubox_maps) / sizeof(ubox_maps[0]); i++)
        if (strcmp(ubox_maps[i].spec, s->name) == 0)
            return &ubox_maps[i];
    return NULL;
}

/* Does an instance of spec s name PCI id (vendor, device) at (dev, fn)? */
static bool spec_names_pci(const struct regc_spec *s, uint64_t vendor, uint64_t device,
                           unsigned dev, unsigned fn)
{
    for (const struct regc_block *b = s->blocks; b->name; b++)
        for (const struct regc_instance *in = b->instances; in && in->name; in++)
            if (in->has_pci && in->pci.vendor == vendor && in->pci.device == device &&
                (in->pci.dev == REGC_PCI_ANY || in->pci.dev == dev) &&
                (in->pci.func == REGC_PCI_ANY || in->pci.func == fn))
                return true;
    return false;
}

int regc_pci_uncore_find(const struct regc_spec *s, const char *sysfs_root,
                         struct regc_pci_found **out, size_t *n, char *why, size_t whylen,
                         char *err, size_t errlen)
{
    struct pci_state st = {.package = -1, .want = -1};
    snprintf(st.root, sizeof(st.root), "%s/bus/pci/devices",
             regc__root(sysfs_root, "REGC_SYSFS_ROOT", "/sys"));
    const struct ubox_map *m = ubox_map_of(s);
    char map_err[256] = "no bus-to-package map is known for this spec";
    bool mapped = m && read_uboxes(&st, m, map_err, sizeof(map_err)) == 0;
    *out = NULL;
    *n = 0;
    if (why)
        snprintf(why, whylen, "%s", mapped ? "" : map_err);
    struct dirent **ents;
    int k = scandir(st.root, &ents, NULL, by_name);
    if (k < 0)
        return errno == ENOENT ? 0
                               : regc__err(err, errlen, -errno, "cannot read %s: %s", st.root,
                                           strerror(errno));
    size_t cap = 0;
    int rc = 0;
    for (int i = 0; i < k; i++) {
        unsigned dom, bus, dev, fn;
        uint64_t ven, did;
        const char *name = ents[i]->d_name;
        if (!rc && pci_address(name, &dom, &bus, &dev, &fn) &&
            regc__read_pci_id(st.root, name, "vendor", &ven) &&
            regc__read_pci_id(st.root, name, "device", &did) &&
            spec_names_pci(s, ven, did, dev, fn)) {
            struct regc_pci_found *g = regc_grow(*out, &cap, *n + 1, sizeof(**out));
            if (!g)
                rc = regc__err(err, errlen, -ENOMEM, "out of memory");
            else {
                *out = g;
                g[*n] = (struct regc_pci_found){.vendor = (uint16_t)ven,
                                                .device = (uint16_t)did,
                                                .dev = (uint8_t)dev,
                                                .func = (uint8_t)fn,
                                                .package = mapped ? package_of(&st, dom, bus) : -1};
                snprintf(g[*n].address, sizeof(g[*n].address), "%.31s", name);
                (*n)++;
            }
        }
        free(ents[i]);
    }
    free(ents);
    if (rc) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}
/* ---- end issue 28 (h28s) */
