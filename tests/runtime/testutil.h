/* testutil.h - small file helpers for the runtime tests (temp trees that stand in for /dev and
 * /sys). */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir -p of dir/rel's parent, then write 'text' (len bytes; -1: strlen) to dir/rel. */
static inline void tu_write(const char *dir, const char *rel, const void *text, long len)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", dir, rel);
    for (char *p = path + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        mkdir(path, 0755);
        *p = '/';
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        abort();
    }
    fwrite(text, 1, len < 0 ? strlen(text) : (size_t)len, f);
    fclose(f);
}

static inline void tu_rm_rf(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);
}

static inline char *tu_tmpdir(char *buf, size_t len)
{
    const char *t = getenv("TMPDIR");
    snprintf(buf, len, "%s/regc-test-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(buf)) {
        perror("mkdtemp");
        abort();
    }
    return buf;
}

/* The process's umask (left as it was). */
static inline mode_t tu_umask(void)
{
    mode_t m = umask(022);
    umask(m);
    return m;
}

/* A TAP skip line the harness counts (cmocka's own skip() prints "not ok"). */
static inline void tu_skip(const char *name, const char *reason)
{
    printf("ok 0 - %s # SKIP %s\n", name, reason);
    fflush(stdout);
}

#endif
