#include "outfile.h"

#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const char *data, size_t len)
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

int outfile_write(struct diag *dg, const char *path, const char *data, size_t len)
{
    if (strcmp(path, "-") == 0) {
        if (write_all(STDOUT_FILENO, data, len) < 0)
            return io_error(dg, "<stdout>", errno);
        return 0;
    }
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
    if (write_all(fd, data, len) < 0 || fchmod(fd, file_mode()) < 0)
        err = errno;
    if (close(fd) < 0 && !err)
        err = errno;
    if (!err && rename(tmp, path) < 0)
        err = errno;
    if (err)
        unlink(tmp);
out_free:
    free(tmp);
    return err ? io_error(dg, path, err) : 0;
}
