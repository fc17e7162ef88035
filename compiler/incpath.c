/*
 * incpath - where an <include href> may lead (see incpath.h).
 */
#define _GNU_SOURCE /* O_PATH */
#include "incpath.h"

#include "buf.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct root {
    const char *dir; /* as given */
    int fd;          /* O_PATH; -1: cannot be opened (nothing is found there) */
};

struct incpath {
    struct root *roots;
    size_t n;
    char *spec_dir;
};

static int open_dir(const char *dir)
{
    return open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

struct incpath *incpath_new(const char *spec, const char *const *dirs, size_t ndirs)
{
    struct incpath *ip = xcalloc(1, sizeof(*ip));
    ip->spec_dir = util_dir_of(spec);
    ip->n = ndirs + 1;
    ip->roots = xcalloc(ip->n, sizeof(*ip->roots));
    ip->roots[0] = (struct root){ip->spec_dir, open_dir(ip->spec_dir)};
    for (size_t i = 0; i < ndirs; i++)
        ip->roots[i + 1] = (struct root){dirs[i], open_dir(dirs[i])};
    return ip;
}

void incpath_free(struct incpath *ip)
{
    if (!ip)
        return;
    for (size_t i = 0; i < ip->n; i++)
        if (ip->roots[i].fd >= 0)
            close(ip->roots[i].fd);
    free(ip->roots);
    free(ip->spec_dir);
    free(ip);
}

const char *incpath_spec_rel(const char *spec)
{
    const char *slash = strrchr(spec, '/');
    return slash ? slash + 1 : spec;
}

const char *incpath_root_dir(const struct incpath *ip, int root)
{
    return ip->roots[root].dir;
}

static const char outside[] =
    "it leads out of the spec's folder and the -I directories (through '..' or a symbolic link)";

/*
 * Without openat2: 'rel' taken apart, '..' resolved in the text (one past
 * the root: EXDEV), each component opened O_NOFOLLOW (a link: EXDEV).
 */
int incpath_open_by_parts(int dirfd, const char *rel)
{
    struct buf b = BUF_INIT;
    buf_adds(&b, rel);
    char **parts = xcalloc(b.len + 1, sizeof(*parts));
    size_t n = 0;
    int err = 0;
    for (char *save = NULL, *p = strtok_r(b.s, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
        if (strcmp(p, "..") == 0) {
            if (n == 0) {
                err = EXDEV;
                break;
            }
            n--;
        } else if (strcmp(p, ".") != 0) {
            parts[n++] = p;
        }
    }
    int fd = -1, dir = dirfd;
    for (size_t i = 0; !err && i < n; i++) {
        bool last = i + 1 == n;
        fd = openat(dir, parts[i],
                    (last ? O_RDONLY | O_NONBLOCK : O_PATH | O_DIRECTORY) | O_NOFOLLOW | O_CLOEXEC);
        err = fd < 0 ? (errno == ELOOP ? EXDEV : errno) : 0;
        if (dir != dirfd)
            close(dir);
        dir = fd;
    }
    if (n == 0 && !err)
        err = EISDIR;
    free(parts);
    buf_release(&b);
    if (err) {
        if (fd >= 0)
            close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

/* Opens 'rel' beneath 'dirfd'; -1 with errno (EXDEV: it leads out). */
static int open_beneath(int dirfd, const char *rel)
{
    if (dirfd < 0) {
        errno = ENOENT;
        return -1;
    }
    struct open_how how = {
        .flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
    };
    long fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
    if (fd < 0 && errno == ENOSYS)
        return incpath_open_by_parts(dirfd, rel);
    return (int)fd;
}

static int failed(struct util_file *in, int err)
{
    *in = (struct util_file){NULL, 0, err, err == EXDEV ? outside : strerror(err)};
    return -1;
}

int incpath_open(const struct incpath *ip, int from_root, const char *from_rel, const char *href,
                 int *root, char **rel, size_t *size, struct util_file *in)
{
    char *dir = strchr(from_rel, '/') ? util_dir_of(from_rel) : NULL;
    struct buf path = BUF_INIT;
    buf_addf(&path, "%s%s%s", dir ? dir : "", dir ? "/" : "", href);
    free(dir);
    int fd = open_beneath(ip->roots[from_root].fd, path.s);
    int err = fd < 0 ? errno : 0;
    *root = from_root;
    for (size_t k = 1; fd < 0 && err == ENOENT && k < ip->n; k++) {
        if ((fd = open_beneath(ip->roots[k].fd, href)) >= 0 || errno != ENOENT) {
            err = fd < 0 ? errno : 0;
            *root = (int)k;
            buf_reset(&path);
            buf_adds(&path, href);
        }
    }
    if (fd < 0) {
        buf_release(&path);
        return failed(in, err);
    }
    if ((fd = util_input_fd(fd, in, size)) < 0) {
        buf_release(&path);
        return -1;
    }
    *rel = buf_detach(&path, NULL);
    return fd;
}
