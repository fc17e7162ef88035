/*
 * pcifs - an emulated sysfs PCI tree for tests, served through FUSE by the
 * simulator (regc/sim.h), so the pci backend's reads and writes of
 * configuration space go through the kernel.
 *
 *   pcifs [--spec NAME] [--sockets N] [--cpus N] [--config-size 256|4096]
 *         [--swap-buses 0|1] [--node-ids A,B] [--gidnidmap HEX] [--no-ubox 0|1]
 *         [--log FILE] MOUNTPOINT [FUSE options]
 *
 * The tree is shaped like /sys (paths below MOUNTPOINT):
 *
 *   bus/pci/devices/DDDD:BB:DD.F -> ../../../devices/pciDDDD:BB/DDDD:BB:DD.F
 *   devices/pciDDDD:BB/DDDD:BB:DD.F/{vendor,device,config}
 *   cpu/N/msr        with --cpus N: the msr driver of msrfs, same model
 *   sim              text commands of simctl.h ("tick", "batch", "defer"); a command
 *                    may start with "socket S " to reach socket S's model
 *
 * Every PCI locator of the spec's instances (vendor, device, dev, func) is
 * one function on the bus of each socket (a locator without dev, any slot:
 * the highest slot no other device takes; without func: function 0): socket S has bus 0x7f + 0x80*S
 * (0000:7f and 0000:ff, the uncore buses a two-socket E5-2600 shows), so the
 * lower bus is socket 0; --swap-buses 1 gives socket 1 the lower bus, as
 * firmware may. The E5-2600 and v2 also get each socket's U-Box device, which
 * tells the kernel which package a bus belongs to (uncore_snbep.c
 * snbep_pci2phy_map_init(), torvalds/linux 0378c93a): 8086:3ce0 (E5-2600) or
 * 8086:0e1e (v2), function 0b.0 (lspci of both parts: "7f:0b.0 ... [8086:3ce0]",
 * "ff:0b.0 ... UBOX Registers [8086:0e1e]"), whose CPUNODEID (config 0x40,
 * bits 2:0) holds the socket's node id (--node-ids: socket 0's, socket 1's;
 * default 0,1) and GIDNIDMAP (config 0x54) the node id of package i in bits
 * 3i+2:3i (built from the node ids, or --gidnidmap HEX); --no-ubox 1 leaves
 * the U-Box out. These registers are constants, not the model's.
 * Each socket is a model of its own (one package); cpu/N/msr belongs to
 * socket N * sockets / cpus, so with as many CPUs as sockets CPU S is on
 * socket S. The MSR and PCI registers of a socket share its model: on the
 * E5-2600 v2 the U-Box's global control (an MSR) freezes the PCI boxes and
 * their overflows show in its global status.
 *
 * vendor and device read as the kernel prints them ("0x8086\n"). config is
 * the kernel's binary attribute (drivers/pci/pci-sysfs.c pci_read_config,
 * pci_write_config; fs/sysfs/file.c): --config-size bytes (default 4096,
 * PCIe extended space: the E5 QPI match registers sit at 0x228); a read at
 * or past the end returns 0 bytes, a write there fails with EFBIG, an access
 * across it is cut short; a caller other than root reads only the first 64
 * bytes and may not open it for writing (EACCES). Any offset and size is
 * split as the kernel splits it: a byte to reach an even offset, a word to
 * reach a multiple of 4, dwords, then a word and a byte. Each piece is one
 * configuration access: bytes of a register of the spec come from the
 * model (a 64-bit register is two dwords, low first), offset 0 holds the
 * vendor and device id, every other byte reads 0 and ignores writes, as
 * unimplemented configuration space does. A write to part of a register
 * leaves its other bytes as they are (W1C, W1S and WO bits there: written
 * 0). The kernel reports no configuration access error, so neither does
 * pcifs: a write the model refuses (a reserved bit set) is dropped, and a
 * read the model fails returns all ones (PCI_SET_ERROR_RESPONSE).
 *
 * --log appends one line per configuration access:
 * "R|W DDDD:BB:DD.F 0xOFFSET LENGTH 0xVALUE rc" (rc: the model's, 0 where no
 * register is), and msrfs's lines for cpu/N/msr. Runs in the foreground,
 * single-threaded; unmount with `fusermount3 -u MOUNTPOINT`.
 */
#define FUSE_USE_VERSION 31
#define _DEFAULT_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simctl.h"

#define MAX_SOCKETS 2
#define ROOT_BYTES 64 /* what a caller without CAP_SYS_ADMIN reads of config */

struct span { /* one register copy in a function's configuration space */
    uint64_t off;
    unsigned bytes;
    struct regc_ref ref;
};

struct pdev {      /* one PCI function */
    char name[16]; /* "0000:7f:0e.1" */
    unsigned socket;
    struct regc_pci_loc loc;
    unsigned slot;        /* the device number in 'name' (loc.dev, or any_slot()'s) */
    bool ubox;            /* the U-Box: CPUNODEID and GIDNIDMAP at 0x40 and 0x54 */
    uint32_t node, idmap; /* their values */
    struct span *spans;
    size_t nspans;
};

struct pcifs {
    const struct regc_spec *spec;
    regc_sim *sim[MAX_SOCKETS];
    struct simctl ctl[MAX_SOCKETS]; /* the control file's state per socket (simctl.h) */
    unsigned nsockets;
    unsigned bus[MAX_SOCKETS];  /* each socket's bus */
    unsigned node[MAX_SOCKETS]; /* each socket's node id */
    long idmap;                 /* GIDNIDMAP; -1: from the node ids */
    bool swap, no_ubox;
    int ncpus;
    unsigned cfg_size;
    FILE *log;
    struct pdev *devs;
    size_t ndevs;
};

static struct pcifs *state(void)
{
    return fuse_get_context()->private_data;
}

static unsigned bus_of(const struct pcifs *st, unsigned socket)
{
    return st->bus[socket];
}

/* The U-Box PCI function of the E5 parts (see the top); NULL: the spec has none here. */
static const struct regc_pci_loc *ubox_loc(const struct regc_spec *spec)
{
    static const struct regc_pci_loc snbep = {.vendor = 0x8086, .device = 0x3ce0, .dev = 0x0b},
                                     ivbep = {.vendor = 0x8086, .device = 0x0e1e, .dev = 0x0b};
    return !strcmp(spec->name, "e5_2600")     ? &snbep
           : !strcmp(spec->name, "e5_2600v2") ? &ivbep
                                              : NULL;
}

/* ---- the devices, from the spec's instances */

/* Is slot 'dev' of socket's bus taken: given by an instance of the spec (or the U-Box), or
 * given to a device placed already? */
static bool slot_taken(const struct pcifs *st, unsigned socket, unsigned dev)
{
    const struct regc_pci_loc *u = ubox_loc(st->spec);
    if (u && u->dev == dev)
        return true;
    for (const struct regc_block *b = st->spec->blocks; b->name; b++)
        for (const struct regc_instance *in = b->instances; in->name; in++)
            if (in->has_pci && in->pci.dev == dev)
                return true;
    for (size_t i = 0; i < st->ndevs; i++)
        if (st->devs[i].socket == socket && st->devs[i].slot == dev)
            return true;
    return false;
}

/* Where a device the spec gives no dev= for sits (REGC_PCI_ANY: any slot): this test machine
 * puts it in the highest slot no other device takes (function 0 when func= is left out too). */
static unsigned any_slot(const struct pcifs *st, unsigned socket)
{
    unsigned dev = 31;
    while (dev > 0 && slot_taken(st, socket, dev))
        dev--;
    return dev;
}

static struct pdev *dev_for(struct pcifs *st, unsigned socket, const struct regc_pci_loc *loc)
{
    for (size_t i = 0; i < st->ndevs; i++)
        if (st->devs[i].socket == socket && memcmp(&st->devs[i].loc, loc, sizeof(*loc)) == 0)
            return &st->devs[i];
    struct pdev *n = realloc(st->devs, (st->ndevs + 1) * sizeof(*n));
    if (!n)
        return NULL;
    st->devs = n;
    n = &st->devs[st->ndevs++];
    *n = (struct pdev){.socket = socket, .loc = *loc};
    unsigned dev = loc->dev == REGC_PCI_ANY ? any_slot(st, socket) : loc->dev;
    unsigned fn = loc->func == REGC_PCI_ANY ? 0 : loc->func;
    snprintf(n->name, sizeof(n->name), "0000:%02x:%02x.%x", bus_of(st, socket), dev, fn);
    n->slot = dev;
    return n;
}

static int add_span(struct pdev *d, const struct regc_ref *r)
{
    struct span *n = realloc(d->spans, (d->nspans + 1) * sizeof(*n));
    if (!n)
        return -ENOMEM;
    d->spans = n;
    d->spans[d->nspans++] = (struct span){.off = r->address, .bytes = r->reg->size / 8, .ref = *r};
    return 0;
}

/* Every PCI register copy of block b, in the function its instance names, on every socket. */
static int add_block(struct pcifs *st, const struct regc_block *b)
{
    for (const struct regc_reg *r = b->regs; r->name; r++) {
        if (r->space != REGC_SPACE_PCI)
            continue;
        for (const struct regc_addr *a = r->addrs; a->index != REGC_ADDR_END; a++) {
            const struct regc_instance *in =
                a->instance ? regc_block_instance(b, a->instance) : NULL;
            if (!in || !in->has_pci)
                continue;
            struct regc_ref ref = {.spec = st->spec,
                                   .block = b,
                                   .instance = in,
                                   .reg = r,
                                   .index = a->index,
                                   .address = a->address};
            for (unsigned s = 0; s < st->nsockets; s++) {
                struct pdev *d = dev_for(st, s, &in->pci);
                if (!d || add_span(d, &ref) < 0)
                    return -ENOMEM;
            }
        }
    }
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct pdev *)a)->name, ((const struct pdev *)b)->name);
}

static int build_devices(struct pcifs *st)
{
    uint32_t idmap = 0;
    for (unsigned s = 0; s < st->nsockets; s++) {
        st->bus[s] = 0x7f + 0x80 * (st->swap ? st->nsockets - 1 - s : s);
        idmap |= (st->node[s] & 7) << (3 * s);
    }
    const struct regc_pci_loc *u = st->no_ubox ? NULL : ubox_loc(st->spec);
    for (unsigned s = 0; u && s < st->nsockets; s++) {
        struct pdev *d = dev_for(st, s, u);
        if (!d)
            return -ENOMEM;
        d->ubox = true;
        d->node = st->node[s];
        d->idmap = st->idmap >= 0 ? (uint32_t)st->idmap : idmap;
    }
    for (const struct regc_block *b = st->spec->blocks; b->name; b++)
        if (add_block(st, b) < 0)
            return -ENOMEM;
    if (st->ndevs)
        qsort(st->devs, st->ndevs, sizeof(*st->devs), by_name);
    return 0;
}

static void free_devices(struct pcifs *st)
{
    for (size_t i = 0; i < st->ndevs; i++)
        free(st->devs[i].spans);
    free(st->devs);
}

/* ---- paths */

enum node {
    N_NONE,
    N_DIR,    /* a directory with no device: /, bus, bus/pci, devices, cpu, cpu/N */
    N_LINKS,  /* bus/pci/devices */
    N_LINK,   /* bus/pci/devices/NAME */
    N_BUS,    /* devices/pciDDDD:BB */
    N_DEVDIR, /* devices/pciDDDD:BB/NAME */
    N_VENDOR, /* .../NAME/vendor */
    N_DEVICE, /* .../NAME/device */
    N_CONFIG, /* .../NAME/config */
    N_MSR,    /* cpu/N/msr */
    N_CPUID,  /* cpu/N/cpuid: the spec's CPU (simctl_cpuid) */
    N_SIM     /* sim */
};

struct where {
    enum node node;
    struct pdev *dev; /* N_LINK, N_DEVDIR, N_VENDOR, N_DEVICE, N_CONFIG */
    unsigned bus;     /* N_BUS */
    int cpu;          /* N_MSR and cpu/N */
};

static struct pdev *dev_named(const char *name, size_t len)
{
    struct pcifs *st = state();
    for (size_t i = 0; i < st->ndevs; i++)
        if (strlen(st->devs[i].name) == len && strncmp(st->devs[i].name, name, len) == 0)
            return &st->devs[i];
    return NULL;
}

/* "cpu", "cpu/N" or "cpu/N/msr" (p after the leading "cpu"). */
static struct where where_cpu(const char *p)
{
    if (!*p)
        return (struct where){.node = N_DIR};
    char *end;
    long n = strtol(p + 1, &end, 10);
    if (*p != '/' || end == p + 1 || n < 0 || n >= state()->ncpus)
        return (struct where){.node = N_NONE};
    if (!*end)
        return (struct where){.node = N_DIR, .cpu = (int)n};
    enum node node = strcmp(end, "/msr") == 0     ? N_MSR
                     : strcmp(end, "/cpuid") == 0 ? N_CPUID
                                                  : N_NONE;
    return (struct where){.node = node, .cpu = (int)n};
}

/* "NAME[/FILE]" inside devices/pciDDDD:BB (p after the bus directory's name). */
static struct where where_device(const char *p, unsigned bus)
{
    if (!*p)
        return (struct where){.node = N_BUS, .bus = bus};
    const char *name = p + 1, *slash = strchr(name, '/');
    struct pdev *d = dev_named(name, slash ? (size_t)(slash - name) : strlen(name));
    if (*p != '/' || !d || bus_of(state(), d->socket) != bus)
        return (struct where){.node = N_NONE};
    if (!slash)
        return (struct where){.node = N_DEVDIR, .dev = d};
    static const struct {
        const char *name;
        enum node node;
    } files[] = {{"vendor", N_VENDOR}, {"device", N_DEVICE}, {"config", N_CONFIG}};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
        if (strcmp(slash + 1, files[i].name) == 0)
            return (struct where){.node = files[i].node, .dev = d};
    return (struct where){.node = N_NONE};
}

static struct where where_is(const char *path)
{
    if (!strcmp(path, "/") || !strcmp(path, "/bus") || !strcmp(path, "/bus/pci") ||
        !strcmp(path, "/devices"))
        return (struct where){.node = N_DIR};
    if (!strcmp(path, "/sim"))
        return (struct where){.node = N_SIM};
    if (!strcmp(path, "/bus/pci/devices"))
        return (struct where){.node = N_LINKS};
    if (!strncmp(path, "/bus/pci/devices/", 17)) {
        struct pdev *d = dev_named(path + 17, strlen(path + 17));
        return (struct where){.node = d ? N_LINK : N_NONE, .dev = d};
    }
    if (!strncmp(path, "/cpu", 4) && state()->ncpus > 0)
        return where_cpu(path + 4);
    for (unsigned s = 0; s < state()->nsockets; s++) {
        char dir[32];
        int n = snprintf(dir, sizeof(dir), "/devices/pci0000:%02x", bus_of(state(), s));
        if (!strncmp(path, dir, (size_t)n) && (!path[n] || path[n] == '/'))
            return where_device(path + n, bus_of(state(), s));
    }
    return (struct where){.node = N_NONE};
}

/* ---- configuration space */

static const struct span *span_at(const struct pdev *d, uint64_t off)
{
    for (size_t i = 0; i < d->nspans; i++)
        if (off >= d->spans[i].off && off < d->spans[i].off + d->spans[i].bytes)
            return &d->spans[i];
    return NULL;
}

static regc_sim *sim_of(const struct pdev *d)
{
    return state()->sim[d->socket];
}

static struct regc_io io_of(const struct pdev *d, const struct span *s)
{
    return (struct regc_io){.space = REGC_SPACE_PCI,
                            .address = s->off,
                            .size = s->bytes * 8,
                            .pci = &d->loc,
                            .ref = &s->ref};
}

static uint64_t byte_mask(unsigned first, unsigned n)
{
    uint64_t m = n >= 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * n)) - 1;
    return m << (8 * first);
}

/* Bytes [at, at+n) of register span s into v (bits from 8*k for the kth byte of the access). */
static int span_read(const struct pdev *d, const struct span *s, uint64_t at, unsigned n,
                     unsigned k, uint32_t *v)
{
    struct regc_io io = io_of(d, s);
    uint64_t r;
    int rc = regc_sim_read(sim_of(d), &io, &r);
    if (rc < 0)
        r = ~UINT64_C(0);
    *v |=
        (uint32_t)(((r & byte_mask((unsigned)(at - s->off), n)) >> (8 * (at - s->off))) << (8 * k));
    return rc;
}

/* Bytes [at, at+n) of span s from v's kth byte on; the other bytes keep what they hold. */
static int span_write(const struct pdev *d, const struct span *s, uint64_t at, unsigned n,
                      unsigned k, uint32_t v)
{
    unsigned first = (unsigned)(at - s->off);
    uint64_t mine = byte_mask(first, n), cur = 0;
    uint64_t data = ((uint64_t)v >> (8 * k) << (8 * first)) & mine;
    if (n < s->bytes) {
        const struct regc_reg *r = s->ref.reg;
        regc_sim_peek(sim_of(d), &s->ref, &cur);
        cur &= ~(r->mbz | r->ignored | r->wo | r->w1c | r->w1s) & ~mine;
    }
    struct regc_io io = io_of(d, s);
    struct simctl *sc = &state()->ctl[d->socket];
    simctl_before_write(sc);
    int rc = regc_sim_write(sim_of(d), &io, cur | data);
    simctl_after_write(sc);
    return rc;
}

/* The vendor and device id at offsets 0 to 3; a U-Box's CPUNODEID and GIDNIDMAP. */
static uint8_t id_byte(const struct pdev *d, uint64_t off)
{
    uint32_t id = (uint32_t)d->loc.device << 16 | d->loc.vendor;
    if (d->ubox && off >= 0x40 && off < 0x44)
        return (uint8_t)(d->node >> (8 * (off - 0x40)));
    if (d->ubox && off >= 0x54 && off < 0x58)
        return (uint8_t)(d->idmap >> (8 * (off - 0x54)));
    return off < 4 ? (uint8_t)(id >> (8 * off)) : 0;
}

/* One configuration access of n (1, 2 or 4) bytes at off: each register it covers once. */
static int cfg_access(const struct pdev *d, bool write, uint64_t off, unsigned n, uint32_t *v)
{
    int rc = 0;
    if (!write)
        *v = 0;
    for (unsigned k = 0; k < n;) {
        const struct span *s = span_at(d, off + k);
        if (!s) {
            if (!write)
                *v |= (uint32_t)id_byte(d, off + k) << (8 * k);
            k++;
            continue;
        }
        unsigned part = (unsigned)(s->off + s->bytes - (off + k));
        if (part > n - k)
            part = n - k;
        int r =
            write ? span_write(d, s, off + k, part, k, *v) : span_read(d, s, off + k, part, k, v);
        if (r < 0 && !rc)
            rc = r;
        k += part;
    }
    FILE *log = state()->log;
    if (log) {
        fprintf(log, "%c %s 0x%llx %u 0x%x %d\n", write ? 'W' : 'R', d->name,
                (unsigned long long)off, n, *v, rc);
        fflush(log);
    }
    return rc;
}

/* The size of the next piece as the kernel splits [off, off+left). */
static unsigned piece(uint64_t off, size_t left)
{
    if (off & 1)
        return 1;
    if ((off & 3) && left > 2)
        return 2;
    if (left > 3)
        return 4;
    return left >= 2 ? 2 : 1;
}

static int cfg_read(const struct pdev *d, char *buf, size_t size, off_t off)
{
    unsigned limit = fuse_get_context()->uid == 0 ? state()->cfg_size : ROOT_BYTES;
    if (off < 0 || (uint64_t)off >= limit)
        return 0;
    if ((uint64_t)off + size > limit)
        size = limit - (size_t)off;
    for (size_t i = 0; i < size;) {
        unsigned n = piece((uint64_t)off + i, size - i);
        uint32_t v;
        cfg_access(d, false, (uint64_t)off + i, n, &v);
        memcpy(buf + i, &v, n); /* little-endian, as configuration space is */
        i += n;
    }
    return (int)size;
}

static int cfg_write(const struct pdev *d, const char *buf, size_t size, off_t off)
{
    unsigned end = state()->cfg_size;
    if (off < 0 || (uint64_t)off >= end)
        return -EFBIG;
    if ((uint64_t)off + size > end)
        size = end - (size_t)off;
    for (size_t i = 0; i < size;) {
        unsigned n = piece((uint64_t)off + i, size - i);
        uint32_t v = 0;
        memcpy(&v, buf + i, n);
        cfg_access(d, true, (uint64_t)off + i, n, &v);
        i += n;
    }
    return (int)size;
}

/* ---- the file system */

static int id_text(const struct where *w, char *buf, size_t len)
{
    return snprintf(buf, len, "0x%04x\n",
                    w->node == N_VENDOR ? w->dev->loc.vendor : w->dev->loc.device);
}

static int link_text(const struct pdev *d, char *buf, size_t len)
{
    return snprintf(buf, len, "../../../devices/pci0000:%02x/%s", bus_of(state(), d->socket),
                    d->name);
}

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
    struct where w = where_is(path);
    char text[64];
    memset(st, 0, sizeof(*st));
    st->st_nlink = 1;
    switch (w.node) {
    case N_NONE:
        return -ENOENT;
    case N_DIR:
    case N_LINKS:
    case N_BUS:
    case N_DEVDIR:
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
        return 0;
    case N_LINK:
        st->st_mode = S_IFLNK | 0777;
        st->st_size = link_text(w.dev, text, sizeof(text));
        return 0;
    case N_VENDOR:
    case N_DEVICE:
        st->st_mode = S_IFREG | 0444;
        st->st_size = 4096; /* as sysfs reports its text attributes */
        return 0;
    case N_CONFIG:
        st->st_mode = S_IFREG | 0644;
        st->st_size = state()->cfg_size;
        return 0;
    case N_MSR:
        st->st_mode = S_IFREG | 0600;
        st->st_size = (off_t)1 << 32; /* every MSR index is an offset inside the file */
        return 0;
    case N_CPUID:
        st->st_mode = S_IFREG | 0444;
        st->st_size = 32;
        return 0;
    case N_SIM:
        st->st_mode = S_IFREG | 0600;
        return 0;
    }
    return -ENOENT;
}

static int fs_readlink(const char *path, char *buf, size_t len)
{
    struct where w = where_is(path);
    if (w.node != N_LINK)
        return w.node == N_NONE ? -ENOENT : -EINVAL;
    link_text(w.dev, buf, len);
    return 0;
}

static void fill_devices(void *buf, fuse_fill_dir_t fill, int bus)
{
    struct pcifs *st = state();
    for (size_t i = 0; i < st->ndevs; i++)
        if (bus < 0 || bus_of(st, st->devs[i].socket) == (unsigned)bus)
            fill(buf, st->devs[i].name, NULL, 0, 0);
}

static void fill_dir(const char *path, void *buf, fuse_fill_dir_t fill)
{
    struct pcifs *st = state();
    char name[32];
    if (!strcmp(path, "/")) {
        fill(buf, "bus", NULL, 0, 0);
        fill(buf, "devices", NULL, 0, 0);
        fill(buf, "sim", NULL, 0, 0);
        if (st->ncpus > 0)
            fill(buf, "cpu", NULL, 0, 0);
    } else if (!strcmp(path, "/bus")) {
        fill(buf, "pci", NULL, 0, 0);
    } else if (!strcmp(path, "/bus/pci")) {
        fill(buf, "devices", NULL, 0, 0);
    } else if (!strcmp(path, "/devices")) {
        for (unsigned s = 0; s < st->nsockets; s++) {
            snprintf(name, sizeof(name), "pci0000:%02x", bus_of(st, s));
            fill(buf, name, NULL, 0, 0);
        }
    } else if (!strcmp(path, "/cpu")) {
        for (int i = 0; i < st->ncpus; i++) {
            snprintf(name, sizeof(name), "%d", i);
            fill(buf, name, NULL, 0, 0);
        }
    } else {
        fill(buf, "msr", NULL, 0, 0); /* cpu/N */
        fill(buf, "cpuid", NULL, 0, 0);
    }
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
    struct where w = where_is(path);
    if (w.node == N_NONE)
        return -ENOENT;
    fill(buf, ".", NULL, 0, 0);
    fill(buf, "..", NULL, 0, 0);
    switch (w.node) {
    case N_DIR:
        fill_dir(path, buf, fill);
        return 0;
    case N_LINKS:
        fill_devices(buf, fill, -1);
        return 0;
    case N_BUS:
        fill_devices(buf, fill, (int)w.bus);
        return 0;
    case N_DEVDIR:
        fill(buf, "vendor", NULL, 0, 0);
        fill(buf, "device", NULL, 0, 0);
        fill(buf, "config", NULL, 0, 0);
        return 0;
    default:
        return -ENOTDIR;
    }
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
    struct where w = where_is(path);
    bool writing = (fi->flags & O_ACCMODE) != O_RDONLY;
    switch (w.node) {
    case N_VENDOR:
    case N_DEVICE:
        if (writing)
            return -EACCES;
        break;
    case N_CONFIG: /* mode 0644, owned by root */
        if (writing && fuse_get_context()->uid != 0)
            return -EACCES;
        break;
    case N_CPUID:
        if (writing)
            return -EACCES;
        break;
    case N_MSR:
    case N_SIM:
        break;
    case N_NONE:
        return -ENOENT;
    default:
        return -EISDIR;
    }
    fi->direct_io = 1; /* every access reaches pcifs with its exact offset and size */
    return 0;
}

static struct simctl *ctl_of_cpu(int cpu)
{
    struct pcifs *st = state();
    return &st->ctl[(unsigned)cpu * st->nsockets / (unsigned)st->ncpus];
}

static int fs_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
    struct where w = where_is(path);
    char text[16];
    int n;
    switch (w.node) {
    case N_VENDOR:
    case N_DEVICE:
        n = id_text(&w, text, sizeof(text));
        if (off >= n)
            return 0;
        n -= (int)off;
        if ((size_t)n > size)
            n = (int)size;
        memcpy(buf, text + off, (size_t)n);
        return n;
    case N_CONFIG:
        return cfg_read(w.dev, buf, size, off);
    case N_MSR:
        return simctl_msr_io(ctl_of_cpu(w.cpu), w.cpu, false, buf, size, off, state()->log);
    case N_CPUID:
        return simctl_read_cpuid(state()->spec, buf, size, off);
    case N_SIM:
        return simctl_read_report(&state()->ctl[0], buf, size, off);
    default:
        return -EISDIR;
    }
}

/* A control-file command, "socket S " first to reach another socket's model. */
static int sim_command(const char *buf, size_t size)
{
    struct pcifs *st = state();
    unsigned s = 0;
    int n = 0;
    char head[32];
    size_t hl = size < sizeof(head) - 1 ? size : sizeof(head) - 1;
    memcpy(head, buf, hl);
    head[hl] = '\0';
    if (sscanf(head, "socket %u %n", &s, &n) == 1 && n > 0) {
        if (s >= st->nsockets)
            return -EINVAL;
        int rc = simctl_command(&st->ctl[s], buf + n, size - (size_t)n);
        return rc < 0 ? rc : (int)size;
    }
    return simctl_command(&st->ctl[0], buf, size);
}

static int fs_write(const char *path, const char *buf, size_t size, off_t off,
                    struct fuse_file_info *fi)
{
    struct where w = where_is(path);
    switch (w.node) {
    case N_CONFIG:
        return cfg_write(w.dev, buf, size, off);
    case N_MSR:
        return simctl_msr_io(ctl_of_cpu(w.cpu), w.cpu, true, (char *)buf, size, off, state()->log);
    case N_SIM:
        return sim_command(buf, size);
    case N_NONE:
        return -ENOENT;
    default:
        return -EACCES;
    }
}

static int fs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
    return 0; /* open(O_TRUNC) is harmless, as on sysfs */
}

static const struct fuse_operations ops = {
    .getattr = fs_getattr,
    .readlink = fs_readlink,
    .readdir = fs_readdir,
    .open = fs_open,
    .read = fs_read,
    .write = fs_write,
    .truncate = fs_truncate,
};

/* ---- main */

static int usage(void)
{
    fprintf(stderr, "usage: pcifs [--spec NAME] [--sockets N] [--cpus N] [--config-size 256|4096] "
                    "[--swap-buses 0|1] [--node-ids A,B] [--gidnidmap HEX] [--no-ubox 0|1] "
                    "[--log FILE] MOUNTPOINT [FUSE options]\n");
    return 2;
}

static int parse_int(const char *s, long lo, long hi, long *v)
{
    char *end;
    errno = 0;
    *v = strtol(s, &end, 10);
    return errno || end == s || *end || *v < lo || *v > hi ? -1 : 0;
}

/* Options before MOUNTPOINT; the index of MOUNTPOINT, or -1 (usage). */
static int parse_options(int argc, char **argv, const char **spec, const char **log,
                         struct pcifs *st)
{
    int i = 1;
    long v;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        const char *o = argv[i], *a = i + 1 < argc ? argv[i + 1] : NULL;
        if (!a)
            return -1;
        if (!strcmp(o, "--spec"))
            *spec = a;
        else if (!strcmp(o, "--log"))
            *log = a;
        else if (!strcmp(o, "--sockets") && !parse_int(a, 1, MAX_SOCKETS, &v))
            st->nsockets = (unsigned)v;
        else if (!strcmp(o, "--cpus") && !parse_int(a, 0, 4096, &v))
            st->ncpus = (int)v;
        else if (!strcmp(o, "--config-size") && !parse_int(a, 256, 4096, &v) &&
                 (v == 256 || v == 4096))
            st->cfg_size = (unsigned)v;
        else if (!strcmp(o, "--swap-buses") && !parse_int(a, 0, 1, &v))
            st->swap = v;
        else if (!strcmp(o, "--no-ubox") && !parse_int(a, 0, 1, &v))
            st->no_ubox = v;
        else if (!strcmp(o, "--gidnidmap") && (st->idmap = strtol(a, NULL, 16)) >= 0)
            ;
        else if (!strcmp(o, "--node-ids") &&
                 sscanf(a, "%u,%u", &st->node[0], &st->node[1]) == MAX_SOCKETS)
            ;
        else
            return -1;
    }
    return i < argc ? i : -1;
}

static int serve(int argc, char **argv, int first, struct pcifs *st)
{
    char *fargv[64];
    int fargc = 0;
    fargv[fargc++] = argv[0];
    fargv[fargc++] = (char *)"-f";
    fargv[fargc++] = (char *)"-s";
    for (int i = first; i < argc && fargc < 63; i++)
        fargv[fargc++] = argv[i];
    fargv[fargc] = NULL;
    return fuse_main(fargc, fargv, &ops, st);
}

int main(int argc, char **argv)
{
    const char *spec_name = "hand_ubox", *log_path = NULL;
    struct pcifs st = {.nsockets = 1, .cfg_size = 4096, .node = {0, 1}, .idmap = -1};
    int first = parse_options(argc, argv, &spec_name, &log_path, &st);
    if (first < 0)
        return usage();
    st.spec = simctl_find_spec(spec_name);
    if (!st.spec) {
        fprintf(stderr, "pcifs: no spec '%s'\n", spec_name);
        return 2;
    }
    int rc = 1;
    for (unsigned s = 0; s < st.nsockets; s++) {
        if (regc_sim_new(&st.sim[s], st.spec) < 0)
            goto out_oom;
        st.ctl[s] = (struct simctl){.sim = st.sim[s]};
    }
    if (build_devices(&st) < 0)
        goto out_oom;
    if (log_path && !(st.log = fopen(log_path, "a"))) {
        perror(log_path);
        goto out;
    }
    rc = serve(argc, argv, first, &st);
    goto out;
out_oom:
    fprintf(stderr, "pcifs: out of memory\n");
out:
    if (st.log)
        fclose(st.log);
    free_devices(&st);
    for (unsigned s = 0; s < st.nsockets; s++)
        regc_sim_free(st.sim[s]);
    return rc;
}
