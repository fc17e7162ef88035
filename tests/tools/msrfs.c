/*
 * msrfs - an emulated /dev/cpu/N/msr for tests, served through FUSE by the
 * simulator (regc/sim.h).
 *
 *   msrfs [--spec NAME] [--cpus N] [--log FILE] MOUNTPOINT [FUSE options]
 *
 * Serves MOUNTPOINT/cpu/N/msr for N < --cpus (default 2), and cpu/N/cpuid
 * (leaves 0 and 1 of the spec's first <cpu>, simctl_cpuid). As with the msr
 * driver, pread/pwrite of 8 bytes at offset I read/write MSR I; a size that
 * is not a multiple of 8 is EINVAL; an access the CPU would refuse (no such
 * MSR, a reserved bit set) is EIO. Files use direct I/O so every access
 * reaches the simulator with its exact offset. All CPUs share one simulated
 * package. Runs in the foreground, single-threaded; unmount with
 * `fusermount3 -u MOUNTPOINT`. --log appends one line per access:
 * "R|W cpu 0xADDR 0xVALUE rc".
 *
 * MOUNTPOINT/sim takes the text commands of simctl.h that drive the model
 * (events by name, intervals, auto intervals; a bad command is EINVAL) and
 * reads as the list of encodings the model saw.
 */
#define FUSE_USE_VERSION 31
#define _DEFAULT_SOURCE

#include <errno.h>
#include <fuse.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simctl.h"

struct msrfs {
    regc_sim *sim;
    const struct regc_spec *spec;
    struct simctl ctl;
    int ncpus;
    FILE *log;
};

static struct msrfs *state(void)
{
    return fuse_get_context()->private_data;
}

/* "/cpu/N/msr" -> 2 and *cpu; "/cpu/N" -> 1; "/cpu" or "/" -> 0; "/sim" -> 3; else -1. */
static int parse_path(const char *path, int *cpu)
{
    if (strcmp(path, "/sim") == 0)
        return 3;
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

/* Reading the control file: the encodings seen, from offset 'off'. */
static int read_report(char *buf, size_t size, off_t off)
{
    size_t len;
    char *text = simctl_report(&state()->ctl, &len);
    if (!text)
        return -ENOMEM;
    size_t n = (size_t)off < len ? len - (size_t)off : 0;
    if (n > size)
        n = size;
    memcpy(buf, text + (n ? off : 0), n);
    free(text);
    return (int)n;
}

static int fs_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
    int cpu, kind = parse_path(path, &cpu);
    if (kind == 3)
        return read_report(buf, size, off);
    if (kind == 4) {
        unsigned char id[32];
        if (simctl_cpuid(state()->spec, id) < 0)
            return -EIO;
        size_t n = off < 32 ? 32 - (size_t)off : 0;
        n = n < size ? n : size;
        memcpy(buf, id + off, n);
        return (int)n;
    }
    if (kind != 2)
        return -ENOENT;
    return simctl_msr_io(&state()->ctl, cpu, false, buf, size, off, state()->log);
}

static int fs_write(const char *path, const char *buf, size_t size, off_t off,
                    struct fuse_file_info *fi)
{
    int cpu, kind = parse_path(path, &cpu);
    if (kind == 3)
        return simctl_command(&state()->ctl, buf, size);
    if (kind != 2)
        return -ENOENT;
    return simctl_msr_io(&state()->ctl, cpu, true, (char *)buf, size, off, state()->log);
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
            "usage: msrfs [--spec NAME] [--cpus N] [--log FILE] MOUNTPOINT [FUSE options]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *spec_name = "hand_ubox", *log_path = NULL;
    struct msrfs st = {.ncpus = 2};
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (i + 1 >= argc)
            return usage();
        if (strcmp(argv[i], "--spec") == 0)
            spec_name = argv[i + 1];
        else if (strcmp(argv[i], "--cpus") == 0)
            st.ncpus = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--log") == 0)
            log_path = argv[i + 1];
        else
            return usage();
    }
    if (i >= argc || st.ncpus <= 0)
        return usage();
    const struct regc_spec *spec = simctl_find_spec(spec_name);
    if (!spec) {
        fprintf(stderr, "msrfs: no spec '%s'\n", spec_name);
        return 2;
    }
    st.spec = spec;
    if (regc_sim_new(&st.sim, spec) < 0) {
        fprintf(stderr, "msrfs: out of memory\n");
        return 1;
    }
    st.ctl.sim = st.sim;
    if (log_path && !(st.log = fopen(log_path, "a"))) {
        perror(log_path);
        regc_sim_free(st.sim);
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
    int rc = fuse_main(fargc, fargv, &ops, &st);
    if (st.log)
        fclose(st.log);
    regc_sim_free(st.sim);
    return rc;
}
