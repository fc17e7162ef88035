#define _XOPEN_SOURCE 700 /* realpath */
#include "outfile.h"

#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_one(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

static int write_all(int fd, const struct outfile_part *parts, size_t nparts)
{
    for (size_t i = 0; i < nparts; i++)
        if (write_one(fd, parts[i].data, parts[i].len) < 0)
            return -1;
    return 0;
}

static mode_t file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

static int io_error(struct diag *dg, const char *path, int err)
{
    return diag_report(dg, DIAG_IO, (struct srcpos){0, 0, 0}, "cannot write '%s': %s", path,
                       strerror(err));
}

/* Devices, pipes and the like (/dev/null, a FIFO) are written in place, never replaced. */
static int write_in_place(struct diag *dg, const char *path, const struct outfile_part *parts,
                          size_t nparts)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return io_error(dg, path, errno);
    int err = write_all(fd, parts, nparts) < 0 ? errno : 0;
    if (close(fd) < 0 && !err)
        err = errno;
    return err ? io_error(dg, path, err) : 0;
}

/* "-", /dev/stdout, /dev/fd/N, /proc/self/fd/N: the descriptor itself; else -1. */
static int fd_of(const char *path)
{
    if (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0)
        return STDOUT_FILENO;
    if (strcmp(path, "/dev/stderr") == 0)
        return STDERR_FILENO;
    const char *num = strncmp(path, "/dev/fd/", 8) == 0          ? path + 8
                      : strncmp(path, "/proc/self/fd/", 14) == 0 ? path + 14
                                                                 : NULL;
    if (!num || !*num || strspn(num, "0123456789") != strlen(num) || strlen(num) > 6)
        return -1;
    return atoi(num);
}

/* Writes to a temporary file beside 'path' and renames it over 'path'. */
static int write_atomically(struct diag *dg, const char *shown, const char *path,
                            const struct outfile_part *parts, size_t nparts)
{
    size_t plen = strlen(path);
    char *tmp = xmalloc(plen + sizeof(".tmp.XXXXXX"));
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
    int fd = mkstemp(tmp);
    int err = 0;
    if (fd < 0) {
        err = errno;
        goto out_free;
    }
    if (write_all(fd, parts, nparts) < 0 || fchmod(fd, file_mode()) < 0)
        err = errno;
    if (close(fd) < 0 && !err)
        err = errno;
    if (!err && rename(tmp, path) < 0)
        err = errno;
    if (err)
        unlink(tmp);
out_free:
    free(tmp);
    return err ? io_error(dg, shown, err) : 0;
}

int outfile_write(struct diag *dg, const char *path, const char *data, size_t len)
{
    struct outfile_part one = {data, len};
    return outfile_write_parts(dg, path, &one, 1);
}

int outfile_write_parts(struct diag *dg, const char *path, const struct outfile_part *parts,
                        size_t nparts)
{
    int fd = fd_of(path);
    if (fd >= 0) {
        if (write_all(fd, parts, nparts) < 0)
            return io_error(dg, strcmp(path, "-") == 0 ? "<stdout>" : path, errno);
        return 0;
    }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return write_in_place(dg, path, parts, nparts);
    /* Through a symbolic link, the file it points to is replaced, not the link. */
    char *real = lstat(path, &st) == 0 && S_ISLNK(st.st_mode) ? realpath(path, NULL) : NULL;
    int rc = write_atomically(dg, path, real ? real : path, parts, nparts);
    free(real);
    return rc;
}
