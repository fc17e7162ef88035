/*
 * msrfs - an emulated /dev/cpu/N/msr for tests, served through FUSE by the
 * simulator (regc/sim.h).
 *
 *   msrfs [--spec NAME] [--cpus N] [--packages P] [--log FILE] MOUNTPOINT [FUSE options]
 *
 * Serves MOUNTPOINT/cpu/N/msr for N < --cpus (default 2), and cpu/N/cpuid
 * (leaves 0 and 1 of the spec's first <cpu>, simctl_cpuid). As with the msr
 * driver, pread/pwrite of 8 bytes at offset I read/write MSR I; a size that
 * is not a multiple of 8 is EINVAL; an access the CPU would refuse (no such
 * MSR, a reserved bit set) is EIO. Files use direct I/O so every access
 * reaches the simulator with its exact offset. The CPUs form P packages
 * (default 1) of N/P consecutive CPUs each, package p = cpu / (N/P), each one
 * simulated package (its own model) that all its CPUs share. Runs in the foreground,
 * single-threaded; unmount with `fusermount3 -u MOUNTPOINT`. --log appends one line per access:
 * "R|W cpu 0xADDR 0xVALUE rc".
 *
 * MOUNTPOINT/sim takes the text commands of simctl.h that drive the model
 * (events by name, intervals, auto intervals; a bad command is EINVAL) and
 * reads as the list of encodings the model saw; with --packages P, sim (or
 * sim0) is package 0's and sim1 .. sim<P-1> the others'.
 */
#define FUSE_USE_VERSION 31
#define _DEFAULT_SOURCE

#include <errno.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simctl.h"

#define MSRFS_MAX_PACKAGES 16

struct msrfs {
    regc_sim *sim[MSRFS_MAX_PACKAGES];
    struct simctl ctl[MSRFS_MAX_PACKAGES];
    const struct regc_spec *spec;
    int ncpus, npkgs;
    FILE *log;
};

static struct msrfs *state(void)
{
    return fuse_get_context()->private_data;
}

/* The package of 'cpu'. */
static int package_of(int cpu)
{
    return cpu / (state()->ncpus / state()->npkgs);
}

/* "/cpu/N/msr" -> 2 and *cpu; "/cpu/N" -> 1; "/cpu" or "/" -> 0; "/sim" or "/simP" -> 3 and
 * *cpu = P (the package); else -1. */
static int parse_path(const char *path, int *cpu)
{
    if (strncmp(path, "/sim", 4) == 0) {
        char *end;
        long p = path[4] ? strtol(path + 4, &end, 10) : 0;
        if (path[4] && (*end || path[4] < '0' || path[4] > '9'))
            return -1;
        *cpu = (int)p;
        return p < state()->npkgs ? 3 : -1;
    }
    if (strcmp(path, "/") == 0 || strcmp(path, "/cpu") == 0)
        return 0;
    if (strncmp(path, "/cpu/", 5) != 0)
        return -1;
    char *end;
    long n = strtol(path + 5, &end, 10);
    if (end == path + 5 || n < 0 || n >= state()->ncpus)
        return -1;
    *cpu = (int)n;
    if (*end == '\0')
        return 1;
    if (strcmp(end, "/cpuid") == 0) /* as the cpuid driver, for the spec's CPU (simctl_cpuid) */
        return 4;
    return strcmp(end, "/msr") == 0 ? 2 : -1;
}

static int fs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
    int cpu, kind = parse_path(path, &cpu);
    memset(st, 0, sizeof(*st));
    if (kind < 0)
        return -ENOENT;
    if (kind < 2) {
        st->st_mode = S_IFDIR | 0755;
        st->st_nlink = 2;
        return 0;
    }
    st->st_mode = S_IFREG | (kind == 4 ? 0444 : 0600);
    st->st_nlink = 1;
    if (kind == 3)
        return 0;
    if (kind == 4) {
        st->st_size = 32;
        return 0;
    }
    st->st_size = (off_t)1 << 32; /* every MSR index is an offset inside the file */
    return 0;
}

static int fs_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
    int cpu, kind = parse_path(path, &cpu);
    if (kind < 0 || kind >= 2)
        return -ENOTDIR;
    fill(buf, ".", NULL, 0, 0);
    fill(buf, "..", NULL, 0, 0);
    if (strcmp(path, "/") == 0) {
        fill(buf, "cpu", NULL, 0, 0);
        fill(buf, "sim", NULL, 0, 0);
        for (int p = 0; state()->npkgs > 1 && p < state()->npkgs; p++) {
            char name[16];
            snprintf(name, sizeof(name), "sim%d", p);
            fill(buf, name, NULL, 0, 0);
        }
    } else if (kind == 0) {
        for (int i = 0; i < state()->ncpus; i++) {
            char name[16];
            snprintf(name, sizeof(name), "%d", i);
            fill(buf, name, NULL, 0, 0);
        }
    } else {
        fill(buf, "msr", NULL, 0, 0);
        fill(buf, "cpuid", NULL, 0, 0);
    }
    return 0;
}

static int fs_open(const char *path, struct fuse_file_info *fi)
{
    int cpu, kind = parse_path(path, &cpu);
    if (kind != 2 && kind != 3 && kind != 4)
        return -ENOENT;
    fi->direct_io = 1;
    return 0;
}

static int fs_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
    int cpu, kind = parse_path(path, &cpu);
    if (kind == 3)
        return simctl_read_report(&state()->ctl[cpu], buf, size, off);
    if (kind == 4)
        return simctl_read_cpuid(state()->spec, buf, size, off);
    if (kind != 2)
        return -ENOENT;
    return simctl_msr_io(&state()->ctl[package_of(cpu)], cpu, false, buf, size, off, state()->log);
}

static int fs_write(const char *path, const char *buf, size_t size, off_t off,
                    struct fuse_file_info *fi)
{
    int cpu, kind = parse_path(path, &cpu);
    if (kind == 3)
        return simctl_command(&state()->ctl[cpu], buf, size);
    if (kind != 2)
        return -ENOENT;
    return simctl_msr_io(&state()->ctl[package_of(cpu)], cpu, true, (char *)buf, size, off,
                         state()->log);
}

static int fs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
    return 0; /* open(O_TRUNC) is harmless, as on the msr driver */
}

static const struct fuse_operations ops = {
    .getattr = fs_getattr,
    .readdir = fs_readdir,
    .open = fs_open,
    .read = fs_read,
    .write = fs_write,
    .truncate = fs_truncate,
};

static int usage(void)
{
    fprintf(stderr,
            "usage: msrfs [--spec NAME] [--cpus N] [--packages P] [--log FILE] MOUNTPOINT [FUSE "
            "options]\n"
            "  P from 1 to 16, dividing N\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *spec_name = "hand_ubox", *log_path = NULL;
    struct msrfs st = {.ncpus = 2, .npkgs = 1};
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (i + 1 >= argc)
            return usage();
        if (strcmp(argv[i], "--spec") == 0)
            spec_name = argv[i + 1];
        else if (strcmp(argv[i], "--cpus") == 0)
            st.ncpus = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--packages") == 0)
            st.npkgs = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--log") == 0)
            log_path = argv[i + 1];
        else
            return usage();
    }
    if (i >= argc || st.ncpus <= 0 || st.npkgs <= 0 || st.npkgs > MSRFS_MAX_PACKAGES ||
        st.ncpus % st.npkgs)
        return usage();
    const struct regc_spec *spec = simctl_find_spec(spec_name);
    if (!spec) {
        fprintf(stderr, "msrfs: no spec '%s'\n", spec_name);
        return 2;
    }
    st.spec = spec;
    int rc = 0;
    for (int p = 0; p < st.npkgs && !rc; p++) {
        rc = regc_sim_new(&st.sim[p], spec);
        st.ctl[p].sim = st.sim[p];
    }
    if (rc)
        fprintf(stderr, "msrfs: out of memory\n");
    else if (log_path && !(st.log = fopen(log_path, "a"))) {
        perror(log_path);
        rc = 1;
    }
    if (rc) {
        for (int p = 0; p < st.npkgs; p++)
            regc_sim_free(st.sim[p]);
        return 1;
    }
    char *fargv[64];
    int fargc = 0;
    fargv[fargc++] = argv[0];
    fargv[fargc++] = (char *)"-f";
    fargv[fargc++] = (char *)"-s";
    for (; i < argc && fargc < 63; i++)
        fargv[fargc++] = argv[i];
    fargv[fargc] = NULL;
    rc = fuse_main(fargc, fargv, &ops, &st);
    if (st.log)
        fclose(st.log);
    for (int p = 0; p < st.npkgs; p++)
        regc_sim_free(st.sim[p]);
    return rc;
}
