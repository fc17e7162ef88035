/*
 * base - what every libregrt module needs below the device: a message into
 * the caller's buffer, a directory root from option or environment, a small
 * sysfs file read. It calls no other module, so the backends (msr, pci,
 * perf, sim) and dev.c, which picks among them, need no one back.
 */
#define _GNU_SOURCE /* secure_getenv */

#include "internal.h"
#include "regc/regc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int regc__err(char *err, size_t len, int rc, const char *fmt, ...)
{
    if (err && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, len, fmt, ap);
        va_end(ap);
    }
    return rc;
}

const char *regc_getenv(const char *name)
{
    const char *e = secure_getenv(name); /* NULL in a set-user-ID or capability-raising program */
    return e && *e ? e : NULL;
}

const char *regc__root(const char *opt, const char *env, const char *dflt)
{
    if (opt)
        return opt;
    const char *e = regc_getenv(env);
    return e ? e : dflt;
}

int regc__read_text(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t n = read(fd, buf, len - 1);
    int rc = n < 0 ? -errno : 0;
    close(fd);
    if (rc)
        return rc;
    buf[n] = '\0';
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
        buf[--n] = '\0';
    return 0;
}

bool regc__read_pci_id(const char *dir, const char *name, const char *file, uint64_t *v)
{
    char path[PATH_MAX * 2], buf[32];
    snprintf(path, sizeof(path), "%s/%s/%s", dir, name, file);
    return regc__read_text(path, buf, sizeof(buf)) == 0 &&
           regc_num_parse(buf, REGC_NUM_NUL, 0, UINT16_MAX, REGC_NUM_HEX, v, NULL, 0) ==
               REGC_NUM_OK;
}
