/* runtime/regctl/secure.c - options that name paths, in a privileged run. */
#define _GNU_SOURCE /* O_CLOEXEC, O_NOCTTY with _POSIX_C_SOURCE */
#include "secure.h"
#include "fail.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

bool regctl_path_option_ok(const char *option)
{
    if (!getauxval(AT_SECURE))
        return true;
    fprintf(stderr,
            "regctl: %s is refused: regctl runs set-user-ID, set-group-ID or with raised "
            "capabilities, and would open files of the caller's choosing\n",
            option);
    return false;
}

static bool trusted_owner(uid_t uid)
{
    return uid == 0 || uid == geteuid();
}

/* Can anyone but the user (and the user's own group) write it? */
static bool others_write(const struct stat *st)
{
    return (st->st_mode & S_IWOTH) || ((st->st_mode & S_IWGRP) && st->st_gid != getegid());
}

static int refuse(const char *option, const char *path, const char *why)
{
    return regctl_fail(-1, "%s '%s': refused: %s", option, path, why);
}

/*
 * No directory on the way to 'real' (a path without links, from realpath) may be one where
 * someone else could replace what it holds: owned by another user, or writable by others
 * without the sticky bit. 0, or -1 after the refusal.
 */
static int check_dirs(const char *option, const char *path, const char *real)
{
    char dir[PATH_MAX], why[PATH_MAX + 160];
    snprintf(dir, sizeof(dir), "%s", real);
    for (char *slash = strrchr(dir, '/'); slash; slash = strrchr(dir, '/')) {
        slash[slash == dir] = '\0'; /* "/a/b" -> "/a" -> "/" */
        struct stat st;
        if (stat(dir, &st) != 0)
            break;
        if (!trusted_owner(st.st_uid))
            snprintf(why, sizeof(why), "directory '%s' belongs to another user (they could replace the file)", dir);
        else if (others_write(&st) && !(st.st_mode & S_ISVTX))
            snprintf(why, sizeof(why), "others can write to directory '%s' and it has no sticky bit (they could replace the file)", dir);
        else if (strcmp(dir, "/") == 0)
            return 0;
        else
            continue;
        return refuse(option, path, why);
    }
    return 0;
}

int regctl_open_trusted(const char *path, const char *option)
{
    if (!regctl_path_option_ok(option))
        return -1;
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && !trusted_owner(st.st_uid))
        return refuse(option, path, "a symbolic link of another user (not followed)");
    char real[PATH_MAX];
    if (!realpath(path, real))
        return regctl_fail(-1, "%s '%s': %s", option, path, strerror(errno));
    if (check_dirs(option, path, real) < 0)
        return -1;
    /* the path resolved, through directories no one else can change: a link put there now
       is not followed */
    int fd = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return regctl_fail(-1, "%s '%s': %s", option, path, strerror(errno));
    const char *why = NULL;
    if (fstat(fd, &st) != 0)
        why = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file";
    else if (!trusted_owner(st.st_uid))
        why = "a file of another user (it says which registers regctl writes)";
    else if (others_write(&st))
        why = "others can write to it (it says which registers regctl writes)";
    if (why) {
        close(fd);
        return refuse(option, path, why);
    }
    return fd;
}
