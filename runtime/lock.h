/*
 * lock - advisory locks that no other user can turn against the caller
 * (runtime/lock.c; not installed; docs/runtime.md "Lock files").
 * runtime/share.c locks the boxes of a monitoring session with it.
 *
 * The lock directory is reached from '/' one component at a time, without
 * following a symbolic link that belongs to anyone but root or the caller,
 * and every directory on the way, the lock directory included, must belong
 * to root or the caller and, if anyone else can write to it (group or world
 * write), have the sticky bit: nobody else can then rename, remove or replace
 * what the caller relies on. A lock file is created with O_EXCL (mode 0600),
 * or, when it exists, opened read-only without following a symbolic link and
 * only flock(2)ed: nothing is ever truncated or written, in any file. In a
 * directory others can write to, an existing lock file must belong to root or
 * the caller (anyone else could remove it and break the lock); a symbolic
 * link, a hard link (more than one name) or anything but a regular file is
 * refused.
 */
#ifndef REGC_LOCK_H
#define REGC_LOCK_H

#include <stdbool.h>
#include <stddef.h>

/* An open lock directory. */
struct regc__lockdir {
    int fd;           /* the directory (O_DIRECTORY); -1: not open */
    bool shared;      /* others can create files in it (it has the sticky bit) */
    const char *path; /* as given, for messages; borrowed */
};

/*
 * The default lock directory: "/run/regc" when the caller is root (only root
 * can write there), else "$XDG_RUNTIME_DIR/regc", else "/run/user/<uid>/regc"
 * (the caller's own). Returns 'dflt' or buf.
 */
const char *regc__lock_default_dir(char *buf, size_t len);

/*
 * Opens 'path' (borrowed; must outlive ld) as a lock directory, creating its
 * last component (mode 0755) when its parent exists. 0, or -errno with a
 * one-line reason in err: -EPERM a directory on the way, or a symbolic link,
 * that someone else could change; -ENOENT, -ENOTDIR, -ELOOP, -EACCES as the
 * kernel says. Caller releases with regc__lockdir_close.
 */
int regc__lockdir_open(struct regc__lockdir *ld, const char *path, char *err, size_t len);
void regc__lockdir_close(struct regc__lockdir *ld);

/*
 * flock(2) on ld/name (created when absent), exclusive or shared, waiting
 * when 'wait'. The descriptor that holds the lock (closing it unlocks), or
 * -errno with a one-line reason in err that names 'what': -EBUSY another
 * session holds it (its pid from /proc/locks), -EINTR a signal while waiting,
 * -ELOOP the file is a symbolic link, -EPERM a file someone else could remove
 * or a hard link, -EISDIR, -EINVAL not a regular file.
 */
int regc__lock_take(const struct regc__lockdir *ld, const char *name, const char *what,
                    bool exclusive, bool wait, char *err, size_t len);

#endif
