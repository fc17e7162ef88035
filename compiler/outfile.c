#define _GNU_SOURCE /* O_PATH, AT_EMPTY_PATH */
#include "outfile.h"

#include "buf.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
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

/* ------------------------------------------------------------------ where a path leads */

/*
 * Where an output goes: the directory that holds it (an O_PATH descriptor:
 * every later step is relative to it, so nothing renamed along the path
 * afterwards moves the output), its name there, and what is there now.
 */
struct place {
    int dirfd;
    char *name;
    struct stat dir; /* the directory */
    struct stat st;  /* what 'name' is when 'exists' (never a link) */
    bool exists;
};

enum { MAX_LINKS = 40 }; /* as the kernel's ELOOP */

static bool shared_sticky(const struct stat *dir)
{
    return (dir->st_mode & S_ISVTX) && (dir->st_mode & S_IWOTH);
}

/*
 * The kernel's fs.protected_symlinks and fs.protected_regular rule, applied
 * whatever the sysctls say: in a world-writable sticky directory a link is
 * followed, and a file replaced, only when it belongs to the writer or to
 * the directory's owner.
 */
static bool owner_trusted(const struct stat *dir, const struct stat *st)
{
    return !shared_sticky(dir) || st->st_uid == geteuid() || st->st_uid == dir->st_uid;
}

static const char link_refused[] =
    "refused: a symbolic link of another user in a world-writable sticky directory "
    "(not followed)";
static const char file_refused[] =
    "refused: a file of another user in a world-writable sticky directory (not replaced)";

static void place_release(struct place *pl)
{
    if (pl->dirfd >= 0)
        close(pl->dirfd);
    free(pl->name);
    *pl = (struct place){.dirfd = -1};
}

/*
 * Finds where 'path' leads, one component at a time from "/" or ".", each
 * opened O_NOFOLLOW relative to the directory before it: a symbolic link is
 * followed here (its text read from the link opened, so what was checked is
 * what is followed) only when owner_trusted() allows it, as the kernel would
 * open it. Returns 0, or an errno, with '*why' set (a message) when refused
 * by that rule.
 */
static int place_find(const char *path, struct place *pl, const char **why)
{
    *pl = (struct place){.dirfd = -1};
    *why = NULL;
    size_t plen = strlen(path);
    if (plen == 0)
        return ENOENT;
    if (path[plen - 1] == '/')
        return EISDIR;
    int dir = open(path[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return errno;
    struct buf rest = BUF_INIT;
    buf_adds(&rest, path);
    size_t pos = 0;
    int links = 0, err = 0;
    char *comp = NULL;
    for (;;) {
        while (rest.s[pos] == '/')
            pos++;
        size_t n = strcspn(rest.s + pos, "/"), next = pos + n;
        bool trailing = rest.s[next] == '/';
        while (rest.s[next] == '/')
            next++;
        bool last = rest.s[next] == '\0';
        if (n == 0 || (last && trailing)) { /* "/" or a link to "dir/": a directory */
            err = EISDIR;
            break;
        }
        free(comp);
        comp = xmalloc(n + 1);
        memcpy(comp, rest.s + pos, n);
        comp[n] = '\0';
        struct stat dst, st;
        int fd = openat(dir, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
            err = errno;
            if (err == ENOENT && last)
                err = 0; /* a new file */
            break;
        }
        if (fstat(dir, &dst) < 0 || fstat(fd, &st) < 0) {
            err = errno;
            close(fd);
            break;
        }
        if (S_ISLNK(st.st_mode)) {
            char target[PATH_MAX];
            ssize_t tn = readlinkat(fd, "", target, sizeof(target));
            err = !owner_trusted(&dst, &st) ? EPERM
                  : ++links > MAX_LINKS      ? ELOOP
                  : tn < 0                   ? errno
                  : (size_t)tn >= sizeof(target) || tn == 0 ? ENAMETOOLONG
                                                            : 0;
            if (err == EPERM)
                *why = link_refused;
            close(fd);
            if (err)
                break;
            struct buf joined = BUF_INIT;
            buf_addf(&joined, "%.*s%s%s", (int)tn, target, last ? "" : "/", last ? "" : rest.s + next);
            buf_release(&rest);
            rest = joined;
            pos = 0;
            if (target[0] == '/') {
                close(dir);
                if ((dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0) {
                    err = errno;
                    break;
                }
            }
            continue;
        }
        if (last) {
            pl->exists = true;
            pl->st = st;
            close(fd);
            err = S_ISDIR(st.st_mode) ? EISDIR : 0;
            break;
        }
        close(dir);
        dir = fd;
        if (!S_ISDIR(st.st_mode)) {
            err = ENOTDIR;
            break;
        }
        pos = next;
    }
    buf_release(&rest);
    if (!err && fstat(dir, &pl->dir) < 0)
        err = errno;
    if (err) {
        if (dir >= 0)
            close(dir);
        free(comp);
        pl->exists = false;
        return err;
    }
    pl->dirfd = dir;
    pl->name = comp;
    return 0;
}

/*
 * What the output may be: a regular file (not another user's in a shared
 * sticky directory) or /dev/null; anything else, a FIFO, socket or device,
 * is refused before it is opened. 0, or an errno with '*why'.
 */
static int place_check(const struct place *pl, bool *devnull, const char **why)
{
    *devnull = false;
    if (!pl->exists)
        return 0;
    if (S_ISCHR(pl->st.st_mode) && pl->st.st_rdev == makedev(1, 3)) {
        *devnull = true;
        return 0;
    }
    if ((*why = util_kind_refused(pl->st.st_mode)) != NULL)
        return EPERM;
    if (!owner_trusted(&pl->dir, &pl->st)) {
        *why = file_refused;
        return EPERM;
    }
    return 0;
}

/* The same as place_find() then place_check(), reported as DIAG_IO; -1 or 0. */
static int place_open(struct diag *dg, const char *path, struct place *pl, bool *devnull)
{
    const char *why;
    int err = place_find(path, pl, &why);
    if (!err && (err = place_check(pl, devnull, &why)) != 0)
        place_release(pl);
    if (!err)
        return 0;
    return diag_report(dg, DIAG_IO, (struct srcpos){0, 0, 0}, "cannot write '%s': %s", path,
                       why ? why : strerror(err));
}

/*
 * Makes a new file NAME.KIND.XXXXXX beside 'name' in 'dirfd' (KIND "tmp" or
 * "bak"), by 'make' (0 or an errno), which gets the new name. The name
 * (xmalloc'd) or NULL with '*err'.
 */
static char *unique_name(int dirfd, const char *name, const char *kind,
                         int (*make)(int dirfd, const char *name, const char *fresh, int *fd),
                         int *fd, int *err)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (int tries = 0; tries < 100; tries++) {
        unsigned char rnd[6];
        if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
            struct timespec ts;
            clock_gettime(CLOCK_MONOTONIC, &ts);
            unsigned long mix = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16) ^
                                (unsigned long)tries * 2654435761u;
            for (size_t i = 0; i < sizeof(rnd); i++, mix >>= 5)
                rnd[i] = (unsigned char)mix;
        }
        struct buf b = BUF_INIT;
        buf_addf(&b, "%s.%s.", name, kind);
        for (size_t i = 0; i < sizeof(rnd); i++)
            buf_addc(&b, letters[rnd[i] % (sizeof(letters) - 1)]);
        *err = make(dirfd, name, b.s, fd);
        if (!*err)
            return buf_detach(&b, NULL);
        buf_release(&b);
        if (*err != EEXIST)
            return NULL;
    }
    return NULL;
}

static int make_temp(int dirfd, const char *name, const char *fresh, int *fd)
{
    (void)name;
    *fd = openat(dirfd, fresh, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    return *fd < 0 ? errno : 0;
}

static int make_backup(int dirfd, const char *name, const char *fresh, int *fd)
{
    (void)fd;
    return linkat(dirfd, name, dirfd, fresh, 0) < 0 ? errno : 0;
}

/* ------------------------------------------------------------------ signals */

/*
 * The temporary files being written, for on_signal(): SIGINT, SIGTERM,
 * SIGHUP and SIGABRT (regc out of memory, a failed assertion) remove them,
 * then end the process as they would have. The table changes only with
 * those signals blocked.
 */
enum { MAX_OPEN = 8 };
static const int caught[] = {SIGINT, SIGTERM, SIGHUP, SIGABRT};
static struct {
    int dirfd;
    const char *name; /* NULL: a free slot */
} pending[MAX_OPEN];
static struct {
    struct sigaction old[ARRAY_SIZE(caught)];
    int users; /* outputs open: the handlers are in place while there are some */
} guard;

static void on_signal(int sig)
{
    for (size_t i = 0; i < MAX_OPEN; i++)
        if (pending[i].name)
            unlinkat(pending[i].dirfd, pending[i].name, 0);
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns: the process ends as it would have */
}

static void block_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
        sigaddset(&set, caught[i]);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

/* With the signals blocked: catches those the process does not ignore (the first user). */
static void guard_enter(void)
{
    if (guard.users++)
        return;
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
        sigaddset(&sa.sa_mask, caught[i]);
    for (size_t i = 0; i < ARRAY_SIZE(caught); i++) {
        sigaction(caught[i], NULL, &guard.old[i]);
        if (guard.old[i].sa_handler != SIG_IGN)
            sigaction(caught[i], &sa, NULL);
    }
}

/* With the signals blocked: the old handlers back after the last user (a signal pending then ends the process). */
static void guard_leave(void)
{
    if (--guard.users)
        return;
    for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
        sigaction(caught[i], &guard.old[i], NULL);
}

/* ------------------------------------------------------------------ one output */

/*
 * An output being written. A regular file (or one not there yet) goes to
 * 'tmp' in the directory it will be renamed in, as the text comes; standard
 * output and /dev/null ('fd', 'devnull') are held in 'held' until the
 * commit, so that an error still writes nothing.
 */
struct outfile {
    char *shown; /* the path as given, for messages */
    struct place pl;
    char *tmp;  /* in pl.dirfd; NULL: held in memory */
    char *bak;  /* while committing: the replaced file, kept until all are in place */
    int tmp_fd, fd, err, slot;
    bool devnull, entered;
    struct buf held;
};

struct outfile *outfile_open(struct diag *dg, const char *path)
{
    struct outfile *f = xcalloc(1, sizeof(*f));
    f->shown = xstrdup(path);
    f->pl.dirfd = f->tmp_fd = f->slot = -1;
    buf_init(&f->held);
    f->fd = fd_of(path);
    if (f->fd >= 0)
        return f;
    if (place_open(dg, path, &f->pl, &f->devnull) < 0) {
        outfile_abort(f);
        return NULL;
    }
    if (f->devnull)
        return f;
    sigset_t mask;
    block_signals(&mask);
    for (size_t i = 0; i < MAX_OPEN && f->slot < 0; i++)
        if (!pending[i].name)
            f->slot = (int)i;
    int err = f->slot < 0 ? EMFILE : 0;
    if (!err) {
        guard_enter();
        f->entered = true;
        f->tmp = unique_name(f->pl.dirfd, f->pl.name, "tmp", make_temp, &f->tmp_fd, &err);
        if (f->tmp)
            pending[f->slot].dirfd = f->pl.dirfd, pending[f->slot].name = f->tmp;
    }
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    if (err) {
        io_error(dg, path, err);
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

/*
 * The temporary file complete: the replaced file's permission bits, owner
 * and group (as far as the caller may give them; else 0666 minus the
 * umask), on the disk, closed. 0 or an errno.
 */
static int finish_temp(struct outfile *f)
{
    int err = f->err;
    const struct stat *st = &f->pl.st;
    if (!err && f->pl.exists) {
        if (fchown(f->tmp_fd, st->st_uid, st->st_gid) < 0 &&
            fchown(f->tmp_fd, (uid_t)-1, st->st_gid) < 0) {
            /* not allowed to give them: the file stays the caller's */
        }
    }
    if (!err && fchmod(f->tmp_fd, f->pl.exists ? st->st_mode & 0777 : file_mode()) < 0)
        err = errno;
    if (!err && fsync(f->tmp_fd) < 0)
        err = errno;
    if (close(f->tmp_fd) < 0 && !err)
        err = errno;
    f->tmp_fd = -1;
    return err;
}

/* After the renames, the directory's entry reaches the disk too (where the file system can tell). */
static void sync_dir(int dirfd)
{
    int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
}

/* Writes what is held to standard output or /dev/null. 0 or -1 after reporting. */
static int write_held(struct diag *dg, struct outfile *f)
{
    int fd = f->fd;
    struct stat st;
    if (f->devnull && (fd = openat(f->pl.dirfd, f->pl.name,
                                   O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
        return io_error(dg, f->shown, errno);
    int err = 0;
    if (f->devnull && (fstat(fd, &st) < 0 || st.st_rdev != f->pl.st.st_rdev || !S_ISCHR(st.st_mode)))
        err = EPERM; /* no longer /dev/null: not written */
    if (!err && write_one(fd, f->held.s, f->held.len) < 0)
        err = errno;
    if (f->devnull && close(fd) < 0 && !err)
        err = errno;
    return err ? io_error(dg, strcmp(f->shown, "-") == 0 ? "<stdout>" : f->shown, err) : 0;
}

/*
 * Puts each temporary file in place, in order, with the caught signals
 * blocked. Before a file is replaced while others are still to come, a
 * hard link to it (NAME.bak.XXXXXX) keeps it; when a rename fails, the files
 * already renamed are put back from those links (or removed, when they were
 * new), so the outputs are all replaced or none is. 0 or -1 after reporting.
 */
static int rename_all(struct diag *dg, struct outfile **fs, size_t n)
{
    size_t last = n;
    for (size_t i = 0; i < n; i++)
        if (fs[i]->tmp)
            last = i;
    int rc = 0;
    size_t i = 0;
    for (; i < n && rc == 0; i++) {
        struct outfile *f = fs[i];
        if (!f->tmp)
            continue;
        int err = 0, fd;
        if (f->pl.exists && i != last)
            f->bak = unique_name(f->pl.dirfd, f->pl.name, "bak", make_backup, &fd, &err);
        if (!err && renameat(f->pl.dirfd, f->tmp, f->pl.dirfd, f->pl.name) < 0)
            err = errno;
        if (err) { /* this one is as it was: its backup link is not needed */
            if (f->bak)
                unlinkat(f->pl.dirfd, f->bak, 0);
            free(f->bak);
            f->bak = NULL;
            rc = io_error(dg, f->shown, err);
            break;
        }
        pending[f->slot].name = NULL;
        free(f->tmp);
        f->tmp = NULL;
    }
    while (rc && i-- > 0) { /* put back the ones renamed before the failure */
        struct outfile *f = fs[i];
        if (f->tmp || f->fd >= 0 || f->devnull)
            continue;
        int back = f->bak ? renameat(f->pl.dirfd, f->bak, f->pl.dirfd, f->pl.name)
                          : unlinkat(f->pl.dirfd, f->pl.name, 0);
        if (back < 0)
            diag_report(dg, DIAG_IO, (struct srcpos){0, 0, 0},
                        "cannot put back '%s' as it was: %s%s%s", f->shown, strerror(errno),
                        f->bak ? "; the old file is kept as " : "", f->bak ? f->bak : "");
        else if (f->bak) {
            free(f->bak);
            f->bak = NULL;
        }
    }
    for (size_t k = 0; k < n; k++) {
        if (fs[k]->bak && rc == 0)
            unlinkat(fs[k]->pl.dirfd, fs[k]->bak, 0);
        free(fs[k]->bak);
        fs[k]->bak = NULL;
        if (rc == 0 && fs[k]->pl.dirfd >= 0 && !fs[k]->devnull)
            sync_dir(fs[k]->pl.dirfd);
    }
    return rc;
}

int outfile_commit_all(struct diag *dg, struct outfile **fs, size_t n)
{
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        int err = fs[i]->tmp ? finish_temp(fs[i]) : 0;
        if (err)
            rc = io_error(dg, fs[i]->shown, err);
    }
    for (size_t i = 0; i < n && rc == 0; i++)
        if (!fs[i]->tmp)
            rc = write_held(dg, fs[i]);
    if (rc == 0) {
        sigset_t mask;
        block_signals(&mask);
        rc = rename_all(dg, fs, n);
        pthread_sigmask(SIG_SETMASK, &mask, NULL);
    }
    for (size_t i = 0; i < n; i++)
        outfile_abort(fs[i]);
    return rc;
}

int outfile_commit(struct diag *dg, struct outfile *f)
{
    return outfile_commit_all(dg, &f, 1);
}

void outfile_abort(struct outfile *f)
{
    if (!f)
        return;
    sigset_t mask;
    block_signals(&mask);
    if (f->tmp) {
        if (f->tmp_fd >= 0)
            close(f->tmp_fd);
        unlinkat(f->pl.dirfd, f->tmp, 0);
        free(f->tmp);
    }
    if (f->slot >= 0)
        pending[f->slot].name = NULL;
    if (f->entered)
        guard_leave();
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    place_release(&f->pl);
    buf_release(&f->held);
    free(f->shown);
    free(f);
}

int outfile_write(struct diag *dg, const char *path, const char *data, size_t len)
{
    struct outfile *f = outfile_open(dg, path);
    if (!f)
        return -1;
    outfile_add(f, data, len);
    return outfile_commit(dg, f);
}

/* ------------------------------------------------------------------ outputs over inputs */

/*
 * What a path names, to compare two of them: a regular file by device and
 * inode; a file not there yet by its directory's device and inode and its
 * name (so that two outputs not written yet compare too). 'kind' 0: neither
 * (a device, a FIFO, standard output, a path that cannot be looked at or is
 * refused): equal to nothing. An output is found as outfile_open() finds
 * it (place_find()), an input as the kernel opens it.
 */
struct file_id {
    int kind; /* 0, 'f' file, 'n' not there yet */
    dev_t dev;
    ino_t ino;
    char *name; /* 'n': the last component; xmalloc'd */
};

static struct file_id id_of_input(const char *path)
{
    struct stat st;
    if (fd_of(path) < 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
        return (struct file_id){'f', st.st_dev, st.st_ino, NULL};
    return (struct file_id){0};
}

static struct file_id id_of_output(const char *path)
{
    struct place pl;
    const char *why;
    struct file_id id = {0};
    if (fd_of(path) >= 0 || place_find(path, &pl, &why) != 0)
        return id;
    if (pl.exists && S_ISREG(pl.st.st_mode))
        id = (struct file_id){'f', pl.st.st_dev, pl.st.st_ino, NULL};
    else if (!pl.exists)
        id = (struct file_id){'n', pl.dir.st_dev, pl.dir.st_ino, xstrdup(pl.name)};
    place_release(&pl);
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
        struct file_id out = id_of_output(outputs[i]);
        for (size_t k = 0; k < nin && rc == 0 && out.kind == 'f'; k++) {
            struct file_id in = id_of_input(inputs[k]);
            if (same_file(&out, &in))
                rc = diag_report(dg, DIAG_IO, (struct srcpos){0},
                                 "cannot write '%s': it is the input '%s'", outputs[i], inputs[k]);
        }
        for (size_t k = 0; k < i && rc == 0; k++) {
            struct file_id o = id_of_output(outputs[k]);
            if (same_file(&out, &o))
                rc = diag_report(dg, DIAG_IO, (struct srcpos){0},
                                 "cannot write '%s': it is also the output '%s'", outputs[i],
                                 outputs[k]);
            free(o.name);
        }
        free(out.name);
    }
    return rc;
}
