#include "outfile.h"

#include "buf.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
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

/*
 * The file a symbolic link 'path' leads to, through any chain of links, as a
 * path (the last one need not exist: writing creates it); NULL and *err set
 * (ELOOP) when the chain does not end; a copy of 'path' when it is no link.
 * Caller frees.
 */
static char *resolve_link(const char *path, int *err)
{
    char *cur = xstrdup(path);
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
            return cur;
        struct buf target = BUF_INIT;
        buf_grow(&target, (size_t)st.st_size + 1);
        ssize_t n = readlink(cur, target.s, target.cap);
        if (n < 0 || (size_t)n >= target.cap) { /* changed under us: read it again */
            buf_release(&target);
            continue;
        }
        target.len = (size_t)n;
        target.s[n] = '\0';
        if (target.s[0] != '/') {
            char *dir = util_dir_of(cur);
            struct buf joined = BUF_INIT;
            buf_addf(&joined, "%s/%s", dir, target.s);
            free(dir);
            buf_release(&target);
            target = joined;
        }
        free(cur);
        cur = buf_detach(&target, NULL);
    }
    free(cur);
    *err = ELOOP;
    return NULL;
}

/*
 * The temporary file being written, for on_signal(): SIGINT, SIGTERM and
 * SIGHUP remove it, then end the process as they would have.
 */
static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
static const char *volatile pending_tmp;

static void on_signal(int sig)
{
    const char *tmp = pending_tmp;
    if (tmp)
        unlink(tmp);
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns: the process ends as it would have */
}

struct guard {
    struct sigaction old[ARRAY_SIZE(caught)];
    sigset_t set, mask;
};

/* Catches the signals the process does not ignore; they stay blocked until guard_set(). */
static void guard_on(struct guard *g)
{
    sigemptyset(&g->set);
    for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
        sigaddset(&g->set, caught[i]);
    pthread_sigmask(SIG_BLOCK, &g->set, &g->mask);
    struct sigaction sa = {.sa_handler = on_signal};
    sa.sa_mask = g->set;
    for (size_t i = 0; i < ARRAY_SIZE(caught); i++) {
        sigaction(caught[i], NULL, &g->old[i]);
        if (g->old[i].sa_handler != SIG_IGN)
            sigaction(caught[i], &sa, NULL);
    }
}

/* Names the file a signal removes (NULL: none), then lets the signals in. */
static void guard_set(struct guard *g, const char *tmp)
{
    pending_tmp = tmp;
    pthread_sigmask(SIG_SETMASK, &g->mask, NULL);
}

/* Blocks the signals again and puts the old handlers back (a signal pending ends the process). */
static void guard_off(struct guard *g)
{
    pthread_sigmask(SIG_BLOCK, &g->set, NULL);
    pending_tmp = NULL;
    for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
        sigaction(caught[i], &g->old[i], NULL);
    pthread_sigmask(SIG_SETMASK, &g->mask, NULL);
}

/*
 * The new file gets the replaced file's permission bits, owner and group
 * (as far as the caller may give them), else 0666 minus the umask.
 */
static int set_mode(int fd, const char *path)
{
    struct stat st;
    if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
        return fchmod(fd, file_mode());
    if (fchown(fd, st.st_uid, st.st_gid) < 0 && fchown(fd, (uid_t)-1, st.st_gid) < 0) {
        /* not allowed to give them: the file stays the caller's */
    }
    return fchmod(fd, st.st_mode & 0777);
}

/* After the rename, the directory's entry reaches the disk too (where the file system can tell). */
static void sync_dir(const char *path)
{
    char *dir = util_dir_of(path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

/*
 * An output being written. A regular file (or one not there yet) goes to
 * 'tmp' beside the file it replaces ('real', after symbolic links) as the
 * text comes; standard output, devices and FIFOs ('fd' or 'in_place') are
 * held in 'held' until the commit, so that an error still writes nothing.
 */
struct outfile {
    char *shown; /* the path as given, for messages */
    char *real;  /* the file replaced */
    char *tmp;   /* NULL: held in memory */
    int tmp_fd, fd, err;
    bool in_place;
    struct guard g;
    struct buf held;
};

struct outfile *outfile_open(struct diag *dg, const char *path)
{
    struct outfile *f = xcalloc(1, sizeof(*f));
    f->shown = xstrdup(path);
    f->tmp_fd = -1;
    buf_init(&f->held);
    f->fd = fd_of(path);
    if (f->fd >= 0)
        return f;
    struct stat st;
    bool exists = stat(path, &st) == 0;
    int err = 0;
    if ((exists && S_ISDIR(st.st_mode)) || (*path && path[strlen(path) - 1] == '/'))
        err = EISDIR;
    else if (exists && !S_ISREG(st.st_mode))
        f->in_place = true;
    else
        f->real = resolve_link(path, &err); /* through a link, the file it points to */
    if (f->real) {
        size_t plen = strlen(f->real);
        f->tmp = xmalloc(plen + sizeof(".tmp.XXXXXX"));
        memcpy(f->tmp, f->real, plen);
        memcpy(f->tmp + plen, ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
        guard_on(&f->g);
        f->tmp_fd = mkstemp(f->tmp);
        err = f->tmp_fd < 0 ? errno : 0;
        guard_set(&f->g, f->tmp_fd < 0 ? NULL : f->tmp);
        if (err)
            guard_off(&f->g);
    }
    if (err) {
        io_error(dg, path, err);
        free(f->tmp);
        f->tmp = NULL;
        outfile_abort(f);
        return NULL;
    }
    return f;
}

void outfile_add(struct outfile *f, const char *data, size_t len)
{
    if (!f->tmp)
        buf_addn(&f->held, data, len);
    else if (!f->err && write_one(f->tmp_fd, data, len) < 0)
        f->err = errno;
}

int outfile_commit(struct diag *dg, struct outfile *f)
{
    struct outfile_part held = {f->held.s, f->held.len};
    int rc = 0;
    if (f->fd >= 0) {
        if (write_all(f->fd, &held, 1) < 0)
            rc = io_error(dg, strcmp(f->shown, "-") == 0 ? "<stdout>" : f->shown, errno);
    } else if (f->in_place) {
        rc = write_in_place(dg, f->shown, &held, 1);
    } else {
        int err = f->err;
        if (!err && (set_mode(f->tmp_fd, f->real) < 0 || fsync(f->tmp_fd) < 0))
            err = errno;
        if (close(f->tmp_fd) < 0 && !err)
            err = errno;
        f->tmp_fd = -1;
        if (!err && rename(f->tmp, f->real) < 0)
            err = errno;
        if (!err) {
            guard_off(&f->g);
            free(f->tmp); /* renamed: nothing left to remove */
            f->tmp = NULL;
            sync_dir(f->real);
        }
        rc = err ? io_error(dg, f->shown, err) : 0;
    }
    outfile_abort(f);
    return rc;
}

void outfile_abort(struct outfile *f)
{
    if (!f)
        return;
    if (f->tmp) {
        if (f->tmp_fd >= 0)
            close(f->tmp_fd);
        unlink(f->tmp);
        guard_off(&f->g);
        free(f->tmp);
    }
    buf_release(&f->held);
    free(f->real);
    free(f->shown);
    free(f);
}

int outfile_write(struct diag *dg, const char *path, const char *data, size_t len)
{
    struct outfile_part one = {data, len};
    return outfile_write_parts(dg, path, &one, 1);
}

int outfile_write_parts(struct diag *dg, const char *path, const struct outfile_part *parts,
                        size_t nparts)
{
    struct outfile *f = outfile_open(dg, path);
    if (!f)
        return -1;
    for (size_t i = 0; i < nparts; i++)
        outfile_add(f, parts[i].data, parts[i].len);
    return outfile_commit(dg, f);
}

/* ------------------------------------------------------------------ outputs over inputs */

/*
 * What a path names, to compare two of them: a regular file by device and
 * inode; a file not there yet by its directory's device and inode and its
 * name (so that two outputs not written yet compare too). 'kind' 0: neither
 * (a device, a FIFO, standard output, a path that cannot be looked at):
 * equal to nothing.
 */
struct file_id {
    int kind; /* 0, 'f' file, 'n' not there yet */
    dev_t dev;
    ino_t ino;
    const char *name; /* 'n': the last component */
};

static struct file_id id_of(const char *path)
{
    struct stat st;
    if (fd_of(path) >= 0)
        return (struct file_id){0};
    if (stat(path, &st) == 0)
        return S_ISREG(st.st_mode) ? (struct file_id){'f', st.st_dev, st.st_ino, NULL}
                                   : (struct file_id){0};
    if (errno != ENOENT)
        return (struct file_id){0};
    char *dir = util_dir_of(path);
    const char *slash = strrchr(path, '/');
    struct file_id id = {0};
    if (stat(dir, &st) == 0)
        id = (struct file_id){'n', st.st_dev, st.st_ino, slash ? slash + 1 : path};
    free(dir);
    return id;
}

static bool same_file(const struct file_id *a, const struct file_id *b)
{
    return a->kind && a->kind == b->kind && a->dev == b->dev && a->ino == b->ino &&
           (a->kind == 'f' || strcmp(a->name, b->name) == 0);
}

int outfile_check(struct diag *dg, const char *const *outputs, size_t nout,
                  const char *const *inputs, size_t nin)
{
    int rc = 0;
    for (size_t i = 0; i < nout && rc == 0; i++) {
        int err = 0;
        char *real = resolve_link(outputs[i], &err);
        struct file_id out = real ? id_of(real) : (struct file_id){0};
        for (size_t k = 0; k < nin && rc == 0 && out.kind == 'f'; k++) {
            struct file_id in = id_of(inputs[k]);
            if (same_file(&out, &in))
                rc = diag_report(dg, DIAG_IO, (struct srcpos){0},
                                 "cannot write '%s': it is the input '%s'", outputs[i], inputs[k]);
        }
        for (size_t k = 0; k < i && rc == 0; k++) {
            char *other = resolve_link(outputs[k], &err);
            struct file_id o = other ? id_of(other) : (struct file_id){0};
            if (same_file(&out, &o))
                rc = diag_report(dg, DIAG_IO, (struct srcpos){0},
                                 "cannot write '%s': it is also the output '%s'", outputs[i],
                                 outputs[k]);
            free(other);
        }
        free(real);
    }
    return rc;
}
