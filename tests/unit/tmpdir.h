/*
 * tmpdir.h - test helpers: a scratch directory for the files a test program
 * writes. make_tmpdir() and remove_tmpdir() are the cmocka group set-up and
 * tear-down; the directory is under $TMPDIR (else /tmp) and goes with
 * everything in it. Include after <cmocka.h>.
 */
#ifndef REGC_TEST_TMPDIR_H
#define REGC_TEST_TMPDIR_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[256];

static int make_tmpdir(void **state)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof(tmpdir), "%s/regc-test-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    DIR *d = opendir(tmpdir);
    if (!d)
        return 0;
    char path[512];
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", tmpdir, e->d_name);
        unlink(path);
    }
    closedir(d);
    return rmdir(tmpdir);
}

/* The path of 'name' in the directory; valid until the next call. */
static const char *tmp_path(const char *name)
{
    static char path[512];
    snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
    return path;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

#endif
