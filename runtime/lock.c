/*
 * lock - advisory locks no other user can turn against the caller (lock.h).
 *
 * Who is trusted: root and the caller (its effective uid). A directory
 * "others can write" has the group or world write bit (an ACL shows in the
 * group bits too); its owner can always write it, so it must be trusted.
 */
#define _XOPEN_SOURCE 700 /* S_ISVTX */

#include "lock.h"

#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define WALK_MAX_DEPTH 64 /* directories open at once while walking */
#define WALK_MAX_LINKS 40 /* symbolic links followed, as the kernel's limit */
#define TAKE_TRIES 8      /* a lock file removed or replaced under us: open it again */

static bool trusted(uid_t u)
{
    return u == 0 || u == geteuid();
}

static bool others_write(const struct stat *st)
{
    return (st->st_mode & (S_IWGRP | S_IWOTH)) != 0;
}

const char *regc__lock_default_dir(char *buf, size_t len)
{
    if (geteuid() == 0)
        return "/run/regc";
    const char *x = regc__root(NULL, "XDG_RUNTIME_DIR", NULL);
    if (x && x[0] == '/')
        snprintf(buf, len, "%s/regc", x);
    else
        snprintf(buf, len, "/run/user/%u/regc", (unsigned)geteuid());
    return buf;
}

/* ---- the directory: a walk from '/' */

struct walk {
    int fd[WALK_MAX_DEPTH]; /* fd[depth - 1]: the directory reached */
    size_t at[WALK_MAX_DEPTH];
    bool shared[WALK_MAX_DEPTH];
    int depth;
    char path[PATH_MAX]; /* what fd[depth - 1] is, for messages; "" at '/' */
    const char *given;
    char *err;
    size_t len;
};

static const char *here(const struct walk *w)
{
    return w->path[0] ? w->path : "/";
}

/* -EPERM: "the lock directory 'GIVEN' is not safe: <why>". */
static int unsafe(struct walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int unsafe(struct walk *w, const char *fmt, ...)
{
    char why[PATH_MAX + 160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    return regc__err(w->err, w->len, -EPERM, "the lock directory '%s' is not safe: %s", w->given,
                     why);
}

static void pop(struct walk *w)
{
    close(w->fd[--w->depth]);
    w->path[w->at[w->depth]] = '\0';
}

/* Enters fd, directory 'name' of the current one (NULL: '/'), after checking who can change it. */
static int push(struct walk *w, int fd, const char *name)
{
    struct stat st;
    if (w->depth == WALK_MAX_DEPTH) {
        close(fd);
        return regc__err(w->err, w->len, -ENAMETOOLONG, "lock directory too deep: '%s'", w->given);
    }
    size_t at = strlen(w->path);
    w->at[w->depth] = at;
    w->fd[w->depth++] = fd;
    if (name)
        snprintf(w->path + at, sizeof(w->path) - at, "/%s", name);
    if (fstat(fd, &st) != 0)
        return regc__err(w->err, w->len, -errno, "cannot open the lock directory '%s': %s",
                         w->given, strerror(errno));
    if (!trusted(st.st_uid))
        return unsafe(
            w,
            "'%s' belongs to uid %u, not to root or you (its owner could replace the lock files)",
            here(w), (unsigned)st.st_uid);
    w->shared[w->depth - 1] = others_write(&st);
    if (others_write(&st) && !(st.st_mode & S_ISVTX))
        return unsafe(w,
                      "others can write to '%s' and it has no sticky bit (they could replace the "
                      "lock files)",
                      here(w));
    return 0;
}

/* 'rest' becomes target + "/" + rest; an absolute target starts again at '/'. */
static int follow(struct walk *w, const char *name, char *rest, size_t restlen, unsigned *links)
{
    int cur = w->fd[w->depth - 1];
    struct stat st;
    if (fstatat(cur, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return -errno;
    char what[PATH_MAX + NAME_MAX + 2];
    snprintf(what, sizeof(what), "%s/%s", w->path, name);
    if (!trusted(st.st_uid))
        return unsafe(w, "'%s' is a symbolic link that belongs to uid %u, not to root or you", what,
                      (unsigned)st.st_uid);
    if (++*links > WALK_MAX_LINKS)
        return regc__err(w->err, w->len, -ELOOP, "cannot open the lock directory '%s': %s",
                         w->given, strerror(ELOOP));
    char target[PATH_MAX], next[PATH_MAX];
    ssize_t n = readlinkat(cur, name, target, sizeof(target) - 1);
    if (n < 0)
        return regc__err(w->err, w->len, -errno, "cannot read the symbolic link '%s': %s", what,
                         strerror(errno));
    target[n] = '\0';
    if (snprintf(next, sizeof(next), "%s/%s", target, rest) >= (int)sizeof(next))
        return regc__err(w->err, w->len, -ENAMETOOLONG, "lock directory name too long: '%s'",
                         w->given);
    snprintf(rest, restlen, "%s", next);
    while (target[0] == '/' && w->depth > 1)
        pop(w);
    return 0;
}

/* One step: 'name' in the current directory ('last': nothing follows; created when missing). */
static int step(struct walk *w, const char *name, bool last, char *rest, size_t restlen,
                unsigned *links)
{
    if (strcmp(name, ".") == 0)
        return 0;
    if (strcmp(name, "..") == 0) {
        if (w->depth > 1)
            pop(w);
        return 0;
    }
    int cur = w->fd[w->depth - 1];
    struct stat st;
    if (fstatat(cur, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno != ENOENT || !last || (mkdirat(cur, name, 0755) != 0 && errno != EEXIST))
            return regc__err(w->err, w->len, -errno, "cannot create the lock directory '%s': %s",
                             w->given, strerror(errno));
    } else if (S_ISLNK(st.st_mode)) {
        return follow(w, name, rest, restlen, links);
    }
    int fd = openat(cur, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return regc__err(w->err, w->len, -errno, "cannot open the lock directory '%s': %s",
                         w->given, strerror(errno));
    return push(w, fd, name);
}

int regc__lockdir_open(struct regc__lockdir *ld, const char *path, char *err, size_t len)
{
    *ld = (struct regc__lockdir){.fd = -1, .path = path};
    char rest[PATH_MAX], cwd[PATH_MAX];
    if (!path[0])
        return regc__err(err, len, -EINVAL, "empty lock directory name");
    if (path[0] != '/' && !getcwd(cwd, sizeof(cwd)))
        return regc__err(err, len, -errno, "cannot open the lock directory '%s': %s", path,
                         strerror(errno));
    if (snprintf(rest, sizeof(rest), "%s/%s", path[0] == '/' ? "" : cwd, path) >= (int)sizeof(rest))
        return regc__err(err, len, -ENAMETOOLONG, "lock directory name too long: '%s'", path);
    struct walk w = {.given = path, .err = err, .len = len};
    int fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc = fd < 0 ? -errno : 0;
    if (rc)
        return regc__err(err, len, rc, "cannot open '/': %s", strerror(-rc));
    rc = push(&w, fd, NULL);
    unsigned links = 0;
    while (!rc) {
        char *p = rest + strspn(rest, "/"), name[NAME_MAX + 1];
        size_t n = strcspn(p, "/");
        if (!n)
            break;
        if (n > NAME_MAX) {
            rc = regc__err(err, len, -ENAMETOOLONG, "lock directory name too long: '%s'", path);
            break;
        }
        memcpy(name, p, n);
        name[n] = '\0';
        memmove(rest, p + n, strlen(p + n) + 1);
        rc = step(&w, name, rest[strspn(rest, "/")] == '\0', rest, sizeof(rest), &links);
    }
    if (!rc) {
        ld->fd = w.fd[--w.depth];
        ld->shared = w.shared[w.depth];
    }
    while (w.depth)
        pop(&w);
    return rc;
}

void regc__lockdir_close(struct regc__lockdir *ld)
{
    if (ld->fd >= 0)
        close(ld->fd);
    ld->fd = -1;
}

/* ---- the lock files */

/*
 * The pid of a FLOCK line of /proc/locks on device maj:min, inode ino
 * ("1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF": the kernel's
 * "%d %02x:%02x:%lu", lock_get_status() in fs/locks.c), else 0.
 */
static long flock_pid(char *line, uint64_t maj, uint64_t min, uint64_t ino)
{
    char *save = NULL, *tok[6];
    size_t n = 0;
    for (char *t = strtok_r(line, " \t\n", &save); t && n < 6; t = strtok_r(NULL, " \t\n", &save))
        tok[n++] = t;
    char *c1 = n == 6 ? strchr(tok[5], ':') : NULL, *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    uint64_t pid, ma, mi, in;
    if (!c2 || strcmp(tok[1], "FLOCK") != 0 ||
        regc_num_parse(tok[4], REGC_NUM_NUL, 1, INT32_MAX, REGC_NUM_DEC, &pid, NULL, 0) ||
        regc_num_parse(tok[5], (size_t)(c1 - tok[5]), 0, UINT32_MAX, REGC_NUM_HEX, &ma, NULL, 0) ||
        regc_num_parse(c1 + 1, (size_t)(c2 - c1 - 1), 0, UINT32_MAX, REGC_NUM_HEX, &mi, NULL, 0) ||
        regc_num_parse(c2 + 1, REGC_NUM_NUL, 0, UINT64_MAX, REGC_NUM_DEC, &in, NULL, 0))
        return 0;
    return ma == maj && mi == min && in == ino ? (long)pid : 0;
}

/* The pid holding a flock on fd's file, from /proc/locks; 0 when unknown. */
static long holder(int fd)
{
    struct stat st;
    FILE *f = fstat(fd, &st) == 0 ? fopen("/proc/locks", "re") : NULL;
    if (!f)
        return 0;
    char line[256];
    long pid = 0;
    while (!pid && fgets(line, sizeof(line), f))
        pid = flock_pid(line, major(st.st_dev), minor(st.st_dev), (uint64_t)st.st_ino);
    fclose(f);
    return pid;
}

/* An existing lock file: one we may rely on? */
static int check_file(const struct regc__lockdir *ld, int fd, const char *path, char *err,
                      size_t len)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return regc__err(err, len, -errno, "cannot open the lock file '%s': %s", path,
                         strerror(errno));
    if (S_ISDIR(st.st_mode))
        return regc__err(err, len, -EISDIR, "cannot open the lock file '%s': %s", path,
                         strerror(EISDIR));
    if (!S_ISREG(st.st_mode))
        return regc__err(err, len, -EINVAL, "the lock file '%s' is not a regular file; refusing it",
                         path);
    if (st.st_nlink != 1)
        return regc__err(err, len, -EPERM,
                         "the lock file '%s' has %lu names (a hard link to another file?); "
                         "refusing it",
                         path, (unsigned long)st.st_nlink);
    if (ld->shared && !trusted(st.st_uid))
        return regc__err(err, len, -EPERM,
                         "the lock file '%s' belongs to uid %u, who could remove it and break the "
                         "lock; refusing it",
                         path, (unsigned)st.st_uid);
    return 0;
}

/* ld/name, created or checked: a descriptor, or -errno. */
static int open_lock(const struct regc__lockdir *ld, const char *name, const char *path, char *err,
                     size_t len)
{
    int fd = openat(ld->fd, name, O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0 || errno != EEXIST)
        return fd >= 0 ? fd
                       : regc__err(err, len, -errno, "cannot create the lock file '%s': %s", path,
                                   strerror(errno));
    fd = openat(ld->fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0 && errno == ELOOP)
        return regc__err(err, len, -ELOOP,
                         "the lock file '%s' is a symbolic link; refusing to follow it", path);
    if (fd < 0)
        return errno == ENOENT ? -EAGAIN /* removed meanwhile: create it */
                               : regc__err(err, len, -errno, "cannot open the lock file '%s': %s",
                                           path, strerror(errno));
    int rc = check_file(ld, fd, path, err, len);
    if (rc) {
        close(fd);
        return rc;
    }
    return fd;
}

/* Still the file named 'name' (not removed or replaced while we waited for it)? */
static bool still_named(const struct regc__lockdir *ld, const char *name, int fd)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && fstatat(ld->fd, name, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
           a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int regc__lock_take(const struct regc__lockdir *ld, const char *name, const char *what,
                    bool exclusive, bool wait, char *err, size_t len)
{
    char path[PATH_MAX + NAME_MAX + 2];
    if (snprintf(path, sizeof(path), "%s/%s", ld->path, name) >= (int)sizeof(path))
        return regc__err(err, len, -ENAMETOOLONG, "lock file name too long: '%s'", ld->path);
    if (strchr(name, '/') || name[0] == '.' || strlen(name) > NAME_MAX)
        return regc__err(err, len, -EINVAL, "bad lock file name '%s'", name);
    for (int i = 0; i < TAKE_TRIES; i++) {
        int fd = open_lock(ld, name, path, err, len);
        if (fd == -EAGAIN)
            continue;
        if (fd < 0)
            return fd;
        if (flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)) != 0) {
            int e = errno;
            long pid = e == EWOULDBLOCK ? holder(fd) : 0;
            close(fd);
            if (e == EWOULDBLOCK && pid > 0)
                return regc__err(err, len, -EBUSY,
                                 "%s is locked by another session (pid %ld holds '%s')", what, pid,
                                 path);
            if (e == EWOULDBLOCK)
                return regc__err(err, len, -EBUSY,
                                 "%s is locked by another session (a process holds '%s')", what,
                                 path);
            if (e == EINTR)
                return regc__err(err, len, -EINTR, "interrupted while waiting for the lock on %s",
                                 what);
            return regc__err(err, len, -e, "cannot lock '%s': %s", path, strerror(e));
        }
        if (still_named(ld, name, fd))
            return fd;
        close(fd); /* removed or replaced while we waited: lock what the name is now */
    }
    return regc__err(err, len, -EAGAIN, "the lock file '%s' keeps changing; giving up", path);
}
