/*
 * specpath - finding a spec by name (see specpath.h).
 */
#define _GNU_SOURCE /* secure_getenv */
#include "specpath.h"

#include "buf.h"
#include "util.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The directory of the running program, or "" when it cannot be told. */
static void exe_dir(char *dir, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", dir, len - 1);
    dir[n > 0 ? n : 0] = '\0';
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        dir[0] = '\0';
}

/*
 * Calls 'visit' on each directory a NAME is looked up in, in order (see
 * specpath.h), until one returns non-NULL, and returns that.
 */
static char *each_dir(char *(*visit)(const char *dir, size_t len, void *ctx), void *ctx)
{
    const char *path = secure_getenv("REGC_SPEC_PATH");
    for (const char *p = path; p && *p;) {
        size_t n = strcspn(p, ":");
        char *found = n ? visit(p, n, ctx) : NULL;
        if (found)
            return found;
        p += n + (p[n] == ':');
    }
    char dir[PATH_MAX];
    exe_dir(dir, sizeof(dir));
    if (!dir[0])
        return NULL;
    static const char *const rel[] = {"/../share/regc/regspec", "/../regspec"};
    for (size_t i = 0; i < ARRAY_SIZE(rel); i++) {
        struct buf d = BUF_INIT;
        buf_addf(&d, "%s%s", dir, rel[i]);
        char *found = visit(d.s, d.len, ctx);
        buf_release(&d);
        if (found)
            return found;
    }
    return NULL;
}

/* dir/NAME.xml ('name': NAME) when that is a file: a string the caller frees; else NULL. */
static char *find_in(const char *dir, size_t dirlen, void *name)
{
    struct buf b = BUF_INIT;
    buf_addf(&b, "%.*s/%s.xml", (int)dirlen, dir, (const char *)name);
    char *found = is_file(b.s) ? realpath(b.s, NULL) : NULL; /* no "bin/.." in diagnostics */
    buf_release(&b);
    return found;
}

/* A path: it has a '/' or ends in .xml or .svd (a file name regc reads). */
static bool is_path(const char *arg)
{
    size_t n = strlen(arg);
    return strchr(arg, '/') || (n > 4 && (strcmp(arg + n - 4, ".xml") == 0 ||
                                          strcmp(arg + n - 4, ".svd") == 0));
}

char *specpath_find(struct diag *dg, const char *arg)
{
    if (!*arg || is_path(arg))
        return (char *)arg;
    struct stat st;
    bool here = lstat(arg, &st) == 0;
    char *found = each_dir(find_in, (void *)arg); /* in $REGC_SPEC_PATH, then beside regc */
    if (found && here)
        diag_note(dg, (struct srcpos){0, 0, 0},
                  "'%s' is the spec %s from the search path, not the file '%s' here "
                  "(write './%s' for that one)",
                  arg, found, arg, arg);
    if (found)
        return found;
    if (here) {
        diag_report(dg, DIAG_IO, (struct srcpos){0, 0, 0},
                    "no spec '%s' in the search path ($REGC_SPEC_PATH, the installed specs); "
                    "the file '%s' here is read only as a path: write './%s'",
                    arg, arg, arg);
        return NULL;
    }
    return (char *)arg;
}

/* Offers the NAME of each NAME.xml in 'dir' to the regc_suggest 'sg'. */
static char *offer_specs(const char *dir, size_t len, void *sg)
{
    struct buf d = BUF_INIT;
    buf_addn(&d, dir, len);
    DIR *dp = opendir(d.s);
    buf_release(&d);
    for (struct dirent *e; dp && (e = readdir(dp));) {
        size_t n = strlen(e->d_name);
        char name[REGC_SUGGEST_MAX];
        if (e->d_name[0] != '.' && n > 4 && n - 4 < sizeof(name) &&
            strcmp(e->d_name + n - 4, ".xml") == 0) {
            memcpy(name, e->d_name, n - 4);
            name[n - 4] = '\0';
            regc_suggest_add(sg, name);
        }
    }
    if (dp)
        closedir(dp);
    return NULL; /* on to the next directory */
}

bool specpath_suggest(const char *arg, struct regc_suggest *sg)
{
    regc_suggest_init(sg, arg);
    if (!*arg || is_path(arg))
        return false;
    each_dir(offer_specs, sg);
    return regc_suggest_best(sg) != NULL;
}
