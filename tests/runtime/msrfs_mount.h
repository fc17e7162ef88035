/*
 * msrfs_mount.h - mounting tests/tools/msrfs (an emulated /dev/cpu/N/msr,
 * FUSE, the simulator behind it) from a C test, and driving its control file
 * (the commands of tests/tools/simctl.h). Needs $BUILD (default "build").
 */
#ifndef MSRFS_MOUNT_H
#define MSRFS_MOUNT_H

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

extern char **environ;

struct msrfs_mount {
    char dir[256];     /* a temporary directory holding the mount point */
    char mnt[300];     /* the mount point */
    char root[320];    /* MNT/cpu: the msr backend's msr_root */
    char simfile[320]; /* MNT/sim: the control file */
    pid_t pid;         /* msrfs; 0: not running */
};

static inline const char *msrfs_tool(void)
{
    static char path[256];
    const char *b = getenv("BUILD");
    snprintf(path, sizeof(path), "%s/tests/tools/msrfs", b && *b ? b : "build");
    return path;
}

/* Why FUSE cannot be used here, or NULL. */
static inline const char *msrfs_unavailable(void)
{
    if (access("/dev/fuse", R_OK | W_OK) != 0)
        return "/dev/fuse is missing or not accessible";
    if (system("command -v fusermount3 >/dev/null 2>&1") != 0)
        return "fusermount3 is not installed (Debian package fuse3)";
    if (access(msrfs_tool(), X_OK) != 0)
        return "tests/tools/msrfs is not built";
    return NULL;
}

/* Mounts msrfs serving 'spec' with one CPU in a new temporary directory. 0, or -1 (then call
 * msrfs_unmount all the same). */
static inline int msrfs_mount(struct msrfs_mount *m, const char *spec)
{
    tu_tmpdir(m->dir, sizeof(m->dir));
    snprintf(m->mnt, sizeof(m->mnt), "%s/mnt", m->dir);
    snprintf(m->root, sizeof(m->root), "%s/cpu", m->mnt);
    snprintf(m->simfile, sizeof(m->simfile), "%s/sim", m->mnt);
    mkdir(m->mnt, 0755);
    char *argv[] = {(char *)msrfs_tool(), (char *)"--spec", (char *)spec, (char *)"--cpus",
                    (char *)"1",          m->mnt,           NULL};
    if (posix_spawn(&m->pid, argv[0], NULL, NULL, argv, environ) != 0) {
        m->pid = 0;
        return -1;
    }
    char probe[400];
    snprintf(probe, sizeof(probe), "%s/0/msr", m->root);
    for (int i = 0; i < 250; i++) {
        if (access(probe, F_OK) == 0)
            return 0;
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return -1;
}

static inline void msrfs_unmount(struct msrfs_mount *m)
{
    if (m->pid > 0) {
        char cmd[400];
        snprintf(cmd, sizeof(cmd), "fusermount3 -u -q '%s' 2>/dev/null", m->mnt);
        if (system(cmd) != 0)
            kill(m->pid, SIGTERM);
        waitpid(m->pid, NULL, 0);
        m->pid = 0;
    }
    if (m->dir[0])
        tu_rm_rf(m->dir);
    m->dir[0] = '\0';
}

/* Writes 'cmd' (one or more lines) to the control file. 0, or -1 (msrfs refused it). */
static inline int msrfs_command(const struct msrfs_mount *m, const char *cmd)
{
    int fd = open(m->simfile, O_WRONLY);
    if (fd < 0)
        return -1;
    ssize_t w = write(fd, cmd, strlen(cmd));
    close(fd);
    return w == (ssize_t)strlen(cmd) ? 0 : -1;
}

#endif
