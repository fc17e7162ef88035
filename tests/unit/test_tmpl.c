/* Unit tests for compiler/tmpl.c (template and partial lookup) and compiler/outfile.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "dt_json.h"
#include "outfile.h"
#include "tmpl.h"
#include "view.h"

#define E(name, text)                                                                              \
    {                                                                                              \
        name, text, sizeof(text) - 1                                                               \
    }
static const struct embedded_template fake_builtins[] = {
    E("c", "H {{>_hdr}} {{>_ftr}}"), E("_hdr", "builtin-hdr"),
    E("_ftr", "builtin-ftr"),        E("extra", "{{! Extra output: for tests\n second line }}x"),
    E("plain", "no comment"),
};

struct fx {
    char dir[64];
    struct diag dg;
    struct buf out;
};

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof(*f));
    strcpy(f->dir, "/tmp/regc-tmpl-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    diag_init(&f->dg, NULL);
    buf_init(&f->out);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
    assert_int_equal(system(cmd), 0);
    diag_release(&f->dg);
    buf_release(&f->out);
    free(f);
    return 0;
}

static void use_fakes(struct tmpl *tp)
{
    tp->builtins = fake_builtins;
    tp->nbuiltins = sizeof(fake_builtins) / sizeof(fake_builtins[0]);
}

static void test_escape_choice(void **state)
{
    assert_int_equal(tmpl_escape_for("c", NULL), MUS_ESCAPE_C);
    assert_int_equal(tmpl_escape_for("tables", "x.md"), MUS_ESCAPE_C);
    assert_int_equal(tmpl_escape_for("md", NULL), MUS_ESCAPE_MARKDOWN);
    assert_int_equal(tmpl_escape_for("html", NULL), MUS_ESCAPE_HTML);
    assert_int_equal(tmpl_escape_for("json", "x.h"), MUS_ESCAPE_NONE);
    assert_int_equal(tmpl_escape_for("my.mustache", "out/x.h"), MUS_ESCAPE_C);
    assert_int_equal(tmpl_escape_for("my.mustache", "x.c"), MUS_ESCAPE_C);
    assert_int_equal(tmpl_escape_for("my.mustache", "x.md"), MUS_ESCAPE_MARKDOWN);
    assert_int_equal(tmpl_escape_for("my.mustache", "x.htm"), MUS_ESCAPE_HTML);
    assert_int_equal(tmpl_escape_for("my.mustache", "x.html"), MUS_ESCAPE_HTML);
    assert_int_equal(tmpl_escape_for("my.mustache", "x.txt"), MUS_ESCAPE_NONE);
    assert_int_equal(tmpl_escape_for("dir/doc.md.mustache", NULL), MUS_ESCAPE_MARKDOWN);
    assert_int_equal(tmpl_escape_for("dir/doc.md.mustache", "-"), MUS_ESCAPE_MARKDOWN);
    assert_int_equal(tmpl_escape_for("x.mustache", NULL), MUS_ESCAPE_NONE);
}

static void test_builtin_with_partials_overridden_by_incdir(void **state)
{
    struct fx *f = *state;
    write_file(f->dir, "_ftr.mustache", "file-ftr");
    const char *inc[] = {f->dir};
    struct tmpl tp;
    tmpl_init(&tp, &f->dg, inc, 1);
    use_fakes(&tp);
    assert_true(tmpl_is_builtin(&tp, "c"));
    assert_false(tmpl_is_builtin(&tp, "c.mustache"));
    assert_false(tmpl_is_builtin(&tp, "nope"));
    assert_int_equal(tmpl_load(&tp, "c"), 0);
    struct mus_options opt = {.strict = true};
    json_t *data = json_object();
    assert_int_equal(tmpl_render_json(&tp, data, &opt, &f->out), 0);
    assert_string_equal(f->out.s, "H builtin-hdr file-ftr");
    /* only real files are dependencies */
    assert_int_equal(tp.ndeps, 1);
    assert_non_null(strstr(tp.deps[0], "/_ftr.mustache"));
    json_decref(data);
    tmpl_release(&tp);
}

static void test_file_template_partials_beside_then_incdirs(void **state)
{
    struct fx *f = *state;
    char sub[128], inc[128];
    snprintf(sub, sizeof(sub), "%s/sub", f->dir);
    snprintf(inc, sizeof(inc), "%s/inc", f->dir);
    mkdir(sub, 0777);
    mkdir(inc, 0777);
    write_file(sub, "t.mustache", "{{>a}}{{>b}}{{>_hdr}}");
    write_file(sub, "a.mustache", "A");
    write_file(inc, "a.mustache", "wrong");
    write_file(inc, "b.mustache", "B");
    const char *incs[] = {inc};
    struct tmpl tp;
    tmpl_init(&tp, &f->dg, incs, 1);
    use_fakes(&tp);
    char path[160];
    snprintf(path, sizeof(path), "%s/t.mustache", sub);
    assert_int_equal(tmpl_load(&tp, path), 0);
    struct mus_options opt = {.strict = true};
    json_t *data = json_object();
    /* built-in partials are not used for a template read from a file */
    assert_int_equal(tmpl_render_json(&tp, data, &opt, &f->out), -1);
    assert_string_equal(f->out.s, "AB");
    assert_non_null(strstr(f->dg.text.s, "t.mustache:1:13: error: partial '_hdr' not found\n"));
    assert_int_equal(tp.ndeps, 3);
    assert_string_equal(tp.deps[0], path);
    assert_non_null(strstr(tp.deps[1], "sub/a.mustache"));
    assert_non_null(strstr(tp.deps[2], "inc/b.mustache"));
    json_decref(data);
    tmpl_release(&tp);
}

/* A partial the check compiled is the one the render uses: read once (tp.texts: one per read). */
static void test_partial_read_once_for_check_and_render(void **state)
{
    struct fx *f = *state;
    write_file(f->dir, "t.mustache", "{{>p}}{{>p}}");
    write_file(f->dir, "p.mustache", "P");
    struct tmpl tp;
    tmpl_init(&tp, &f->dg, NULL, 0);
    char path[160];
    snprintf(path, sizeof(path), "%s/t.mustache", f->dir);
    assert_int_equal(tmpl_load(&tp, path), 0);
    struct view_schema vs;
    view_schema_init(&vs);
    assert_int_equal(tmpl_check(&tp, vs.root, NULL, NULL), 0);
    view_schema_release(&vs);
    struct mus_options opt = {.strict = true};
    json_t *data = json_object();
    assert_int_equal(tmpl_render_json(&tp, data, &opt, &f->out), 0);
    assert_string_equal(f->out.s, "PP");
    assert_int_equal(tp.ntexts, 2); /* t.mustache, p.mustache */
    assert_int_equal(tp.ndeps, 2);
    json_decref(data);
    tmpl_release(&tp);
}

static void test_unreadable_partial_is_io(void **state)
{
    struct fx *f = *state;
    char d[128];
    snprintf(d, sizeof(d), "%s/p.mustache", f->dir);
    mkdir(d, 0777); /* a directory where the partial should be */
    write_file(f->dir, "t.mustache", "{{>p}}");
    struct tmpl tp;
    tmpl_init(&tp, &f->dg, NULL, 0);
    char path[160];
    snprintf(path, sizeof(path), "%s/t.mustache", f->dir);
    assert_int_equal(tmpl_load(&tp, path), 0);
    struct mus_options opt = {0};
    json_t *data = json_object();
    assert_int_equal(tmpl_render_json(&tp, data, &opt, &f->out), -1);
    assert_int_equal(f->dg.count[DIAG_IO], 1);
    assert_non_null(strstr(f->dg.text.s, "p.mustache': Is a directory\n"));
    json_decref(data);
    tmpl_release(&tp);
}

static void test_missing_template_is_io(void **state)
{
    struct fx *f = *state;
    struct tmpl tp;
    tmpl_init(&tp, &f->dg, NULL, 0);
    assert_int_equal(tmpl_load(&tp, "no/such.mustache"), -1);
    assert_string_equal(f->dg.text.s,
                        "regc: error: cannot read 'no/such.mustache': No such file or directory\n");
    tmpl_release(&tp);
}

static void test_syntax_error_in_builtin_names_it(void **state)
{
    static const struct embedded_template bad[] = {E("bad", "x\n{{#a}}")};
    struct fx *f = *state;
    struct tmpl tp;
    tmpl_init(&tp, &f->dg, NULL, 0);
    tp.builtins = bad;
    tp.nbuiltins = 1;
    assert_int_equal(tmpl_load(&tp, "bad"), -1);
    assert_string_equal(f->dg.text.s, "builtin/bad.mustache:2:1: error: unclosed section 'a'\n");
    tmpl_release(&tp);
}

static void test_list(void **state)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    tmpl_list_from(fp, fake_builtins, sizeof(fake_builtins) / sizeof(fake_builtins[0]));
    fclose(fp);
    assert_string_equal(
        text, "c      C header: addresses, field masks and accessors, events, rule checks\n"
              "extra  Extra output: for tests\n"
              "plain  \n");
    free(text);
}

static void read_back(const char *path, char *buf, size_t size)
{
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    size_t n = fread(buf, 1, size - 1, fp);
    buf[n] = '\0';
    fclose(fp);
}

static void test_outfile_replaces(void **state)
{
    struct fx *f = *state;
    char path[128], got[64];
    snprintf(path, sizeof(path), "%s/out.h", f->dir);
    write_file(f->dir, "out.h", "old contents");
    assert_int_equal(outfile_write(&f->dg, path, "new", 3), 0);
    read_back(path, got, sizeof(got));
    assert_string_equal(got, "new");
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true((st.st_mode & 0644) == 0644 || (st.st_mode & 0600) == 0600);
    assert_int_equal(f->dg.nerrors, 0);
}

static void test_outfile_failure_leaves_nothing(void **state)
{
    struct fx *f = *state;
    char path[128];
    snprintf(path, sizeof(path), "%s/missing-dir/out.h", f->dir);
    assert_int_equal(outfile_write(&f->dg, path, "x", 1), -1);
    assert_int_equal(f->dg.count[DIAG_IO], 1);
    assert_non_null(strstr(f->dg.text.s, "missing-dir/out.h': No such file or directory\n"));
    /* renaming onto a directory fails after the temporary file was written */
    char d[128];
    snprintf(d, sizeof(d), "%s/isdir", f->dir);
    mkdir(d, 0777);
    write_file(d, "keep", "k");
    assert_int_equal(outfile_write(&f->dg, d, "x", 1), -1);
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "ls '%s' | grep -q tmp", f->dir);
    assert_int_not_equal(system(cmd), 0);
}

/* A FIFO is refused before it is opened (issue 25), even with a reader waiting: nothing reaches it. */
static void test_outfile_refuses_fifo(void **state)
{
    struct fx *f = *state;
    char path[128], got[16] = {0};
    snprintf(path, sizeof(path), "%s/fifo", f->dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    int rd = open(path, O_RDONLY | O_NONBLOCK);
    assert_true(rd >= 0);
    assert_int_equal(outfile_write(&f->dg, path, "piped", 5), -1);
    assert_non_null(strstr(f->dg.text.s, "fifo': Is a FIFO, not a regular file\n"));
    assert_int_equal(read(rd, got, sizeof(got) - 1), 0);
    close(rd);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(S_ISFIFO(st.st_mode)); /* not replaced by a regular file */
}

static void test_outfile_keeps_symlink(void **state)
{
    struct fx *f = *state;
    char link[128], target[128], got[16];
    snprintf(link, sizeof(link), "%s/link.h", f->dir);
    snprintf(target, sizeof(target), "%s/target.h", f->dir);
    write_file(f->dir, "target.h", "old");
    assert_int_equal(symlink("target.h", link), 0);
    assert_int_equal(outfile_write(&f->dg, link, "new", 3), 0);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    read_back(target, got, sizeof(got));
    assert_string_equal(got, "new");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape_choice),
        cmocka_unit_test_setup_teardown(test_builtin_with_partials_overridden_by_incdir, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_file_template_partials_beside_then_incdirs, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_partial_read_once_for_check_and_render, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_unreadable_partial_is_io, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_template_is_io, setup, teardown),
        cmocka_unit_test_setup_teardown(test_syntax_error_in_builtin_names_it, setup, teardown),
        cmocka_unit_test(test_list),
        cmocka_unit_test_setup_teardown(test_outfile_replaces, setup, teardown),
        cmocka_unit_test_setup_teardown(test_outfile_failure_leaves_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_outfile_refuses_fifo, setup, teardown),
        cmocka_unit_test_setup_teardown(test_outfile_keeps_symlink, setup, teardown),
    };
    return cmocka_run_group_tests_name("tmpl", tests, NULL, NULL);
}
