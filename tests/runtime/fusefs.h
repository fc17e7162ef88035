/*
 * fusefs.h - the FUSE test devices of tests/tools (msrfs, pcifs) for C tests:
 * why they cannot run here, mounting one in a temporary directory, and
 * driving the simulator behind it through its control file "sim" (the
 * commands of tests/tools/simctl.h). Header-only; testutil.h for the files.
 *
 * Counting is driven with "tick" (a counter of the model advances): the one
 * events go to the simulator by name (fusefs_event), through the encodings.
 */
#ifndef FUSEFS_H
#define FUSEFS_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

extern char **environ;

struct fusefs {
    char dir[256]; /* the temporary directory: mnt/, log, stderr */
    char mnt[300]; /* the mount point */
    char log[300]; /* the tool's --log */
    char err[300]; /* its stderr */
    pid_t pid;     /* 0: not mounted */
};

/* $BUILD/tests/tools/NAME. */
static inline const char *fusefs_tool(const char *name, char *buf, size_t len)
{
    const char *b = getenv("BUILD");
    snprintf(buf, len, "%s/tests/tools/%s", b && *b ? b : "build", name);
    return buf;
}

/* Why the FUSE tests cannot run here, or NULL. need_root: pcifs serves configuration space past
 * 64 bytes to root only, as the kernel does. */
static inline const char *fusefs_unavailable(const char *name, bool need_root)
{
    static char why[400];
    char tool[256];
    if (access("/dev/fuse", R_OK | W_OK) != 0)
        return "/dev/fuse is missing or not accessible";
    if (system("command -v fusermount3 >/dev/null 2>&1") != 0)
        return "fusermount3 is not installed (Debian package fuse3)";
    if (need_root && geteuid() != 0)
        return "not root: PCI configuration space past 64 bytes is root's only";
    if (access(fusefs_tool(name, tool, sizeof(tool)), X_OK) != 0)
        return snprintf(why, sizeof(why), "%s is not built", tool), why;
    return NULL;
}

/*
 * Mounts tests/tools/NAME in a new temporary directory: NAME 'args' --log LOG
 * MNT 'fuse' (both NULL-ended, may be NULL; 'fuse' are FUSE's options), and
 * waits until MNT/probe exists. 0, or -1 with the reason in 'why' (nothing
 * left mounted).
 */
static inline int fusefs_mount(struct fusefs *m, const char *name, const char *const *args,
                               const char *const *fuse, const char *probe, char *why, size_t whylen)
{
    char tool[256], path[600];
    const char *argv[32];
    int n = 0;
    tu_tmpdir(m->dir, sizeof(m->dir));
    snprintf(m->mnt, sizeof(m->mnt), "%s/mnt", m->dir);
    snprintf(m->log, sizeof(m->log), "%s/log", m->dir);
    snprintf(m->err, sizeof(m->err), "%s/stderr", m->dir);
    mkdir(m->mnt, 0755);
    argv[n++] = fusefs_tool(name, tool, sizeof(tool));
    for (; args && *args && n < 28; args++)
        argv[n++] = *args;
    argv[n++] = "--log";
    argv[n++] = m->log;
    argv[n++] = m->mnt;
    for (; fuse && *fuse && n < 31; fuse++)
        argv[n++] = *fuse;
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    /* not the test's stdout: a device left running must not hold the harness's pipe open */
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, m->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int rc = posix_spawn(&m->pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) {
        m->pid = 0;
        tu_rm_rf(m->dir);
        return snprintf(why, whylen, "cannot run %s: %s", tool, strerror(rc)), -1;
    }
    snprintf(path, sizeof(path), "%s/%s", m->mnt, probe);
    /* as long as the tool runs (a loaded machine only slows it), 60 s at most against a hang */
    bool exited = false;
    for (int i = 0; i < 2400 && !exited; i++) {
        if (access(path, F_OK) == 0)
            return 0;
        exited = waitpid(m->pid, NULL, WNOHANG) == m->pid;
        if (!exited)
            nanosleep(&(struct timespec){0, 25 * 1000 * 1000}, NULL);
    }
    char text[200] = "";
    FILE *f = fopen(m->err, "r");
    if (f) {
        if (!fgets(text, sizeof(text), f))
            text[0] = '\0';
        fclose(f);
    }
    text[strcspn(text, "\n")] = '\0';
    snprintf(why, whylen, "cannot mount %s: %s", name,
             text[0] ? text : exited ? "it exited" : "not mounted within 60 s (still running)");
    if (!exited) {
        kill(m->pid, SIGTERM);
        waitpid(m->pid, NULL, 0);
    }
    m->pid = 0;
    tu_rm_rf(m->dir);
    return -1;
}

static inline void fusefs_unmount(struct fusefs *m)
{
    if (!m->pid)
        return;
    pid_t pid = fork();
    if (pid == 0) {
        execlp("fusermount3", "fusermount3", "-u", "-q", m->mnt, (char *)NULL);
        _exit(127);
    }
    if (pid > 0)
        waitpid(pid, NULL, 0);
    kill(m->pid, SIGTERM);
    waitpid(m->pid, NULL, 0);
    m->pid = 0;
    tu_rm_rf(m->dir);
}

/* One command to the control file MNT/sim. 0, or -errno (EINVAL: refused). */
static inline int fusefs_command(const struct fusefs *m, const char *fmt, ...)
{
    char cmd[256], path[320];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(cmd, sizeof(cmd), fmt, ap);
    va_end(ap);
    snprintf(path, sizeof(path), "%s/sim", m->mnt);
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -errno;
    ssize_t w = write(fd, cmd, (size_t)len);
    int rc = w == len ? 0 : w < 0 ? -errno : -EIO;
    close(fd);
    return rc;
}

/* A flow_env event (flow_cases.h): n occurrences of the event named 'name' ("BLOCK[INST]:EVENT"),
 * counted by the bit-true model behind the mount wherever a control encodes it. */
static inline int fusefs_event(void *ctx, const char *name, uint64_t n)
{
    return fusefs_command(ctx, "event %s %llu", name, (unsigned long long)n);
}

static inline void fusefs_batch(void *ctx, bool on)
{
    if (fusefs_command(ctx, "batch %d", on ? 1 : 0) != 0)
        fprintf(stderr, "fusefs: batch command refused\n");
}

#endif
