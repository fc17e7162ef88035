/*
 * dev - the device handle: backend selection, checked writes, rmw, traces,
 * dry runs, access counts, and kernel errors turned into clear messages.
 */
#include "internal.h"
#include "regc/sim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct regc_dev {
    const struct regc_spec *spec;
    struct regc_backend be;
    int cpu;
    bool dry_run;
    regc_trace_fn *trace;
    void *trace_ctx;
    struct regc_stats stats;
    char err[REGC_ERRLEN];
    char msr_root[PATH_MAX], sysfs_root[PATH_MAX]; /* resolved at open (runtime/share.c) */
};

const struct regc_backend_ops *regc_backend_find(const char *name)
{
    static const struct regc_backend_ops *const all[] = {&regc_msr_ops, &regc_pci_ops,
                                                         &regc_perf_ops, &regc_sim_ops};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

int regc_open(regc_dev **out, const struct regc_spec *spec, const struct regc_options *opt,
              char *err, size_t errlen)
{
    static const struct regc_options none = {0};
    if (!opt)
        opt = &none;
    const struct regc_backend_ops *ops =
        opt->ops ? opt->ops : regc_backend_find(opt->backend ? opt->backend : "sim");
    if (!ops)
        return regc__err(err, errlen, -EINVAL, "unknown backend '%s' (want msr, pci, perf or sim)",
                         opt->backend);
    regc_dev *d = calloc(1, sizeof(*d));
    if (!d)
        return regc__err(err, errlen, -ENOMEM, "out of memory");
    *d = (struct regc_dev){.spec = spec,
                           .cpu = opt->cpu,
                           .dry_run = opt->dry_run,
                           .trace = opt->trace,
                           .trace_ctx = opt->trace_ctx};
    d->be = (struct regc_backend){.ops = ops, .spec = spec, .opt = opt};
    snprintf(d->msr_root, sizeof(d->msr_root), "%s",
             regc__root(opt->msr_root, "REGC_MSR_ROOT", "/dev/cpu"));
    snprintf(d->sysfs_root, sizeof(d->sysfs_root), "%s",
             regc__root(opt->sysfs_root, "REGC_SYSFS_ROOT", "/sys"));
    if (!opt->dry_run && ops->open) {
        int rc = ops->open(&d->be, err, errlen);
        if (rc < 0) {
            free(d);
            return rc;
        }
    }
    d->be.opt = NULL;
    *out = d;
    return 0;
}

void regc_close(regc_dev *d)
{
    if (!d)
        return;
    if (!d->dry_run && d->be.ops->close)
        d->be.ops->close(&d->be);
    free(d);
}

const char *regc_last_error(const regc_dev *d)
{
    return d->err;
}

void regc_get_stats(const regc_dev *d, struct regc_stats *out)
{
    *out = d->stats;
}

regc_sim *regc_dev_sim(regc_dev *d)
{
    return d->be.ops == &regc_sim_ops && !d->dry_run ? regc__simbe_sim(&d->be) : NULL;
}

const struct regc_spec *regc_dev_spec(const regc_dev *d)
{
    return d->spec;
}

const char *regc_dev_backend(const regc_dev *d)
{
    return d->be.ops->name;
}

void regc__dev_where(const regc_dev *d, struct regc__where *w)
{
    *w = (struct regc__where){
        .cpu = d->cpu, .dry_run = d->dry_run, .msr_root = d->msr_root, .sysfs_root = d->sysfs_root};
}

/* What the caller can do about a failed access: the msr driver's errors first. */
static const char *hint(const char *backend, bool write, int rc)
{
    bool msr = strcmp(backend, "msr") == 0, pci = strcmp(backend, "pci") == 0;
    switch (-rc) {
    case EIO:
        if (msr)
            return "the CPU refused the access (a reserved bit set, or the MSR is not implemented)";
        if (strcmp(backend, "sim") == 0)
            return "the simulated CPU refused the access (a reserved bit set, or no register at "
                   "that address)";
        return "input/output error";
    case EACCES:
    case EPERM:
        /* the msr driver's open wants CAP_SYS_RAWIO beyond the file's root-only mode */
        if (msr && write)
            return "permission denied: needs root or CAP_SYS_RAWIO (msr-safe: the MSR must be in "
                   "its allowlist); "
                   "kernels that restrict raw MSR writes need msr.allow_writes=on or msr-safe; "
                   "another user needs the capability (setcap cap_sys_rawio+ep on the program) "
                   "and read-write access to /dev/cpu/N/msr";
        if (msr)
            return "permission denied: needs root or CAP_SYS_RAWIO (msr-safe: the MSR must be in "
                   "its allowlist); another user needs the capability (setcap cap_sys_rawio+ep "
                   "on the program) and access to /dev/cpu/N/msr";
        if (pci && write) /* sysfs config files: mode 0644, root's */
            return "permission denied: writing configuration space needs root (the sysfs "
                   "config files are writable by root only)";
        if (pci)
            return "permission denied: configuration space past 64 bytes needs root";
        return "permission denied";
    case ENOENT:
    case ENXIO:
    case ENODEV:
        if (msr)
            return "no such CPU, or the msr driver is not loaded (modprobe msr)";
        if (pci)
            return "no PCI device matches the instance's locator";
        return "no such device";
    case EOPNOTSUPP:
        return "the backend cannot reach this address space";
    default:
        return strerror(-rc);
    }
}

static void io_fail(regc_dev *d, bool write, const struct regc_ref *r, int rc)
{
    char name[160];
    d->stats.failures++;
    snprintf(d->err, sizeof(d->err), "%s '%s' (%s 0x%llx, cpu %d) failed: %s",
             write ? "writing" : "reading", regc_ref_name(r, name, sizeof(name)),
             r->reg->space == REGC_SPACE_MSR   ? "msr"
             : r->reg->space == REGC_SPACE_PCI ? "pci offset"
                                               : "mmio offset",
             (unsigned long long)r->address, d->cpu,
             d->be.msg[0] ? d->be.msg : hint(d->be.ops->name, write, rc));
}

static struct regc_io make_io(const regc_dev *d, const struct regc_ref *r)
{
    return (struct regc_io){.space = r->reg->space,
                            .cpu = d->cpu,
                            .address = r->address,
                            .size = r->reg->size ? r->reg->size : 64,
                            .pci = r->instance && r->instance->has_pci ? &r->instance->pci : NULL,
                            .ref = r};
}

int regc_read(regc_dev *d, const struct regc_ref *r, uint64_t *out)
{
    struct regc_io io = make_io(d, r);
    d->err[0] = '\0';
    d->stats.reads++;
    if (d->dry_run) {
        *out = r->reg->reset;
        if (d->trace)
            d->trace(d->trace_ctx, false, &io, *out, 0);
        return 0;
    }
    d->be.msg[0] = '\0';
    int rc = d->be.ops->read(&d->be, &io, out);
    if (d->trace)
        d->trace(d->trace_ctx, false, &io, rc ? 0 : *out, rc);
    if (rc < 0)
        io_fail(d, false, r, rc);
    return rc;
}

int regc_write_unchecked(regc_dev *d, const struct regc_ref *r, uint64_t value)
{
    struct regc_io io = make_io(d, r);
    d->err[0] = '\0';
    d->stats.writes++;
    if (d->dry_run) {
        if (d->trace)
            d->trace(d->trace_ctx, true, &io, value, 0);
        return 0;
    }
    d->be.msg[0] = '\0';
    int rc = d->be.ops->write(&d->be, &io, value);
    if (d->trace)
        d->trace(d->trace_ctx, true, &io, value, rc);
    if (rc < 0)
        io_fail(d, true, r, rc);
    return rc;
}

/*
 * regc_check(), then, for a register with fields that must be written as read, those against
 * *old (NULL: not read yet, so read it now); then the write. 0 or -errno.
 */
static int write_checked(regc_dev *d, const struct regc_ref *r, uint64_t value, const uint64_t *old)
{
    char name[160];
    int rc = regc_check(d->spec, r->reg, regc_ref_name(r, name, sizeof(name)), value, d->err,
                        sizeof(d->err));
    if (rc < 0)
        return rc;
    if (regc_reg_as_read_mask(r->reg)) {
        uint64_t now = 0;
        if (!old && (rc = regc_read(d, r, &now)) < 0)
            return rc;
        rc = regc_check_as_read(d->spec, r->reg, name, old ? *old : now, value, d->err,
                                sizeof(d->err));
        if (rc < 0)
            return rc;
    }
    return regc_write_unchecked(d, r, value);
}

int regc_write(regc_dev *d, const struct regc_ref *r, uint64_t value)
{
    return write_checked(d, r, value, NULL);
}

int regc_rmw(regc_dev *d, const struct regc_ref *r, uint64_t mask, uint64_t value,
             uint64_t *written)
{
    uint64_t old;
    int rc = regc_read(d, r, &old);
    if (rc < 0)
        return rc;
    uint64_t level = regc_level_mask(r->block, r->reg) & ~mask; /* a state: kept as read */
    uint64_t v = (regc_rmw_value(r->reg, old, mask, value) & ~level) | (old & level);
    if (written)
        *written = v;
    return write_checked(d, r, v, &old);
}
