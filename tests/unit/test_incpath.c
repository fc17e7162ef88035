/*
 * Unit tests for compiler/incpath.c: an include is found in the including
 * file's folder, then in the -I directories, and never out of its root
 * (through '..', an absolute link, or a link climbing out); both ways, the
 * kernel's openat2 and the one by parts without it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "incpath.h"
#include "tmpdir.h"

static char spec[600], incdir[600];

/* The tree: spec/top.xml, spec/sub/a.xml, spec/in -> sub/a.xml, spec/out -> ../secret,
 * spec/abs -> TMP/secret, secret, inc/c.xml. */
static int make_tree(void **state)
{
    if (make_tmpdir(state) < 0)
        return -1;
    char p[700];
    const char *dirs[] = {"spec", "spec/sub", "inc"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(p, sizeof(p), "%s/%s", tmpdir, dirs[i]);
        if (mkdir(p, 0755) < 0)
            return -1;
    }
    const char *files[] = {"spec/top.xml", "spec/sub/a.xml", "secret", "inc/c.xml"};
    for (size_t i = 0; i < 4; i++)
        write_file(tmp_path(files[i]), files[i]);
    char abs[700];
    snprintf(abs, sizeof(abs), "%s/secret", tmpdir);
    const char *links[][2] = {{"sub/a.xml", "spec/in"}, {"../secret", "spec/out"}, {abs, "spec/abs"}};
    for (size_t i = 0; i < 3; i++) {
        snprintf(p, sizeof(p), "%s/%s", tmpdir, links[i][1]);
        if (symlink(links[i][0], p) < 0)
            return -1;
    }
    snprintf(spec, sizeof(spec), "%s/spec/top.xml", tmpdir);
    snprintf(incdir, sizeof(incdir), "%s/inc", tmpdir);
    return 0;
}

/* The links, the files and the folders below the scratch directory, then remove_tmpdir(). */
static int remove_tree(void **state)
{
    const char *names[] = {"spec/in", "spec/out", "spec/abs", "spec/top.xml", "spec/sub/a.xml",
                           "inc/c.xml", "spec/sub", "spec", "inc"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (unlink(tmp_path(names[i])) < 0)
            rmdir(tmp_path(names[i]));
    return remove_tmpdir(state);
}

/* What 'fd' holds (the file's own name, written as its text); closes it. */
static const char *text_of(int fd)
{
    static char text[64];
    ssize_t n = read(fd, text, sizeof(text) - 1);
    close(fd);
    text[n > 0 ? n : 0] = '\0';
    return text;
}

/* incpath_open() from 'from' in root 0; the text found, or "errno N". */
static const char *open_from(const char *from, const char *href, int *root, char **rel)
{
    const char *dirs[] = {incdir};
    struct incpath *ip = incpath_new(spec, dirs, 1);
    struct util_file in;
    size_t size;
    int fd = incpath_open(ip, 0, from, href, root, rel, &size, &in);
    incpath_free(ip);
    static char why[32];
    if (fd < 0) {
        snprintf(why, sizeof(why), "errno %d", in.err);
        return why;
    }
    return text_of(fd);
}

static void test_inside(void **state)
{
    int root;
    char *rel = NULL;
    assert_string_equal(open_from("top.xml", "sub/a.xml", &root, &rel), "spec/sub/a.xml");
    assert_int_equal(root, 0);
    assert_string_equal(rel, "sub/a.xml");
    free(rel);
    /* relative to the including file's folder; '..' back inside; a link inside */
    assert_string_equal(open_from("sub/a.xml", "../sub/a.xml", &root, &rel), "spec/sub/a.xml");
    assert_string_equal(rel, "sub/../sub/a.xml");
    free(rel);
    assert_string_equal(open_from("top.xml", "in", &root, &rel), "spec/sub/a.xml");
    free(rel);
    /* not in the folder: the -I directory, root 1 */
    assert_string_equal(open_from("top.xml", "c.xml", &root, &rel), "inc/c.xml");
    assert_int_equal(root, 1);
    assert_string_equal(rel, "c.xml");
    free(rel);
}

static void test_outside(void **state)
{
    int root;
    char *rel = NULL;
    char want[32];
    snprintf(want, sizeof(want), "errno %d", EXDEV);
    assert_string_equal(open_from("top.xml", "../secret", &root, &rel), want);
    assert_string_equal(open_from("sub/a.xml", "../../secret", &root, &rel), want);
    assert_string_equal(open_from("top.xml", "out", &root, &rel), want);
    assert_string_equal(open_from("top.xml", "abs", &root, &rel), want);
    /* refused in the folder: not looked for in the -I directories either */
    assert_string_equal(open_from("top.xml", "../inc/c.xml", &root, &rel), want);
    snprintf(want, sizeof(want), "errno %d", ENOENT);
    assert_string_equal(open_from("top.xml", "none.xml", &root, &rel), want);
}

/* The way without openat2: the same answers, but a link inside is refused too. */
static void test_by_parts(void **state)
{
    char dir[700];
    snprintf(dir, sizeof(dir), "%s/spec", tmpdir);
    int root = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(root >= 0);
    assert_string_equal(text_of(incpath_open_by_parts(root, "sub/a.xml")), "spec/sub/a.xml");
    assert_string_equal(text_of(incpath_open_by_parts(root, "sub/../sub/./a.xml")), "spec/sub/a.xml");
    const char *out[] = {"../secret", "sub/../../secret", "out", "abs", "in"};
    for (size_t i = 0; i < 5; i++) {
        errno = 0;
        assert_int_equal(incpath_open_by_parts(root, out[i]), -1);
        assert_int_equal(errno, EXDEV);
    }
    assert_int_equal(incpath_open_by_parts(root, "none.xml"), -1);
    assert_int_equal(errno, ENOENT);
    close(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inside),
        cmocka_unit_test(test_outside),
        cmocka_unit_test(test_by_parts),
    };
    return cmocka_run_group_tests_name("incpath", tests, make_tree, remove_tree);
}
