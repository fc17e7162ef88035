/*
 * msr - the msr backend: 8-byte pread/pwrite at the MSR index on
 * <root>/N/msr (or <root>/N/msr_safe when that is what exists); root from
 * regc_options.msr_root, $REGC_MSR_ROOT, else /dev/cpu. One descriptor per
 * CPU, opened at first use and kept until close: one system call per access.
 * It is opened read-only while the session only reads, read-write from its
 * first write on.
 */
#include "grow.h"
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct msr_cpu {
    int cpu;
    int fd;           /* opened O_RDONLY or O_RDWR */
    bool writable;    /* opened O_RDWR (else O_RDONLY: only read so far) */
    int werr;         /* 0, or why it cannot be opened for writing (-errno), once tried */
    const char *leaf; /* "msr", or "msr_safe" where msr does not exist */
};

/* Only CPUs whose device opened have an entry: memory grows with the CPUs used, never with a
 * CPU number (--cpu 50000000 fails at the open, allocating nothing). */
struct msr_state {
    char root[PATH_MAX];
    struct msr_cpu *cpus; /* ncpus used, in the order first opened */
    size_t ncpus, cpus_cap;
};

static int msr_open(struct regc_backend *be, char *err, size_t errlen)
{
    struct msr_state *st = calloc(1, sizeof(*st));
    if (!st)
        return regc__err(err, errlen, -ENOMEM, "out of memory");
    const char *root = regc__root(be->opt->msr_root, "REGC_MSR_ROOT", "/dev/cpu");
    if (snprintf(st->root, sizeof(st->root), "%s", root) >= (int)sizeof(st->root)) {
        free(st);
        return regc__err(err, errlen, -ENAMETOOLONG, "msr root too long: '%s'", root);
    }
    be->priv = st;
    return 0;
}

static void msr_close(struct regc_backend *be)
{
    struct msr_state *st = be->priv;
    for (size_t i = 0; i < st->ncpus; i++)
        close(st->cpus[i].fd);
    free(st->cpus);
    free(st);
}

static int open_dev(const struct msr_state *st, int cpu, const char *leaf, int flags)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof(path), "%s/%d/%s", st->root, cpu, leaf);
    int fd = open(path, flags | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

/* cpu's device opened (msr, else msr_safe) into a new entry; -errno when it does not open. */
static int cpu_open(struct msr_state *st, int cpu, bool write, struct msr_cpu **out)
{
    int flags = write ? O_RDWR : O_RDONLY;
    const char *leaf = "msr";
    int fd = open_dev(st, cpu, leaf, flags);
    if (fd == -ENOENT)
        fd = open_dev(st, cpu, leaf = "msr_safe", flags);
    if (fd < 0)
        return fd;
    struct msr_cpu *n = regc_grow(st->cpus, &st->cpus_cap, st->ncpus + 1, sizeof(*n));
    if (!n) {
        close(fd);
        return -ENOMEM;
    }
    st->cpus = n;
    *out = &n[st->ncpus++];
    **out = (struct msr_cpu){.cpu = cpu, .fd = fd, .writable = write, .leaf = leaf};
    return 0;
}

/*
 * The cached descriptor of 'cpu': opened at first use, msr (else msr_safe),
 * read-only until the first write, which opens it again read-write (the read
 * descriptor stays when that is refused).
 */
static int cpu_fd(struct msr_state *st, int cpu, bool write, int *fd)
{
    if (cpu < 0)
        return -ENXIO;
    struct msr_cpu *c = NULL;
    for (size_t i = 0; i < st->ncpus && !c; i++)
        if (st->cpus[i].cpu == cpu)
            c = &st->cpus[i];
    if (!c) {
        int rc = cpu_open(st, cpu, write, &c);
        if (rc < 0)
            return rc;
    } else if (write && !c->writable) {
        int f = c->werr ? c->werr : open_dev(st, cpu, c->leaf, O_RDWR);
        if (f < 0)
            return c->werr = f;
        close(c->fd);
        c->fd = f;
        c->writable = true;
    }
    *fd = c->fd;
    return 0;
}

static int msr_read(struct regc_backend *be, const struct regc_io *io, uint64_t *value)
{
    if (io->space != REGC_SPACE_MSR)
        return -EOPNOTSUPP;
    int fd, rc = cpu_fd(be->priv, io->cpu, false, &fd);
    if (rc < 0)
        return rc;
    ssize_t n = pread(fd, value, sizeof(*value), (off_t)io->address);
    if (n < 0)
        return -errno;
    return n == (ssize_t)sizeof(*value) ? 0 : -EIO;
}

static int msr_write(struct regc_backend *be, const struct regc_io *io, uint64_t value)
{
    if (io->space != REGC_SPACE_MSR)
        return -EOPNOTSUPP;
    int fd, rc = cpu_fd(be->priv, io->cpu, true, &fd);
    if (rc < 0)
        return rc;
    ssize_t n = pwrite(fd, &value, sizeof(value), (off_t)io->address);
    if (n < 0)
        return -errno;
    return n == (ssize_t)sizeof(value) ? 0 : -EIO;
}

const struct regc_backend_ops regc_msr_ops = {
    .name = "msr", .open = msr_open, .close = msr_close, .read = msr_read, .write = msr_write};
