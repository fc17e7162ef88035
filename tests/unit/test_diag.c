/*
 * Unit tests for compiler/diag.c (carets, the error limit, the -f options)
 * and the helpers it and the checks share in compiler/util.c (reading an
 * input file, edit distance, "did you mean"). Expected texts are written out
 * by hand in gcc's layout, not produced by the code under test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "util.h"

#include "tmpdir.h"

/* ------------------------------------------- did you mean (regc/suggest.h, via util.h) */

static void test_edit_distance(void **state)
{
    assert_int_equal(regc_suggest_distance("kitten", "sitting"), 3);
    assert_int_equal(regc_suggest_distance("", "abc"), 3);
    assert_int_equal(regc_suggest_distance("abc", ""), 3);
    assert_int_equal(regc_suggest_distance("field", "field"), 0);
    assert_int_equal(regc_suggest_distance("feild", "field"), 1);  /* a swap counts once */
    assert_int_equal(regc_suggest_distance("acess", "access"), 1); /* an insertion */
    assert_int_equal(regc_suggest_distance("threshold", "thresh"), 3);
    assert_int_equal(regc_suggest_distance("CTL", "ctl"), 0);      /* case ignored */
    assert_int_equal(regc_suggest_distance("EvSel", "ev_sel"), 1);
    assert_int_equal(regc_suggest_distance("ca", "abc"), 3); /* OSA, not full Damerau (2) */
}

static const char *best_of(const char *name, const char *const *cands)
{
    struct util_suggest sg;
    util_suggest_init(&sg, name);
    for (; *cands; cands++)
        util_suggest_add(&sg, *cands);
    return util_suggest_best(&sg);
}

/* The compiler's suggestions follow the runtime's one rule, and point at the candidate itself. */
static void test_suggest(void **state)
{
    const char *fields[] = {"en", "ev_sel", "umask", "thresh", "invert", NULL};
    assert_string_equal(best_of("evsel", fields), "ev_sel");
    assert_ptr_equal(best_of("evsel", fields), fields[1]);         /* borrowed, not a copy */
    assert_string_equal(best_of("EV_SEL", fields), "ev_sel");      /* case only */
    assert_string_equal(best_of("threshold", fields), "thresh");   /* 3 <= (9 + 2) / 3 */
    assert_null(best_of("threshold_x", fields));                   /* 5 > (11 + 2) / 3 */
    assert_null(best_of("xy", fields));                            /* "en" is 2 away from 2 letters */
    const char *ctls[] = {"CTL0", "CTL1", NULL};
    assert_null(best_of("CTL9", ctls)); /* a number differs: written on purpose, not mistyped */
    const char *regs[] = {"CTL0", "CTR0", "CTX1", NULL};
    assert_null(best_of("CTY0", regs));                      /* CTL0 and CTR0 tie */
    assert_string_equal(best_of("CTY1", regs), "CTX1");      /* one closest */
    const char *none[] = {NULL};
    assert_null(best_of("a", none));
}

struct named {
    int other;
    const char *name;
};

static void test_suggest_each(void **state)
{
    struct named a = {1, "register"}, b = {2, "field"};
    const struct named *objs[] = {&a, &b};
    struct util_suggest sg;
    util_suggest_init(&sg, "feild");
    util_suggest_each(&sg, (const void *const *)objs, 2, offsetof(struct named, name));
    assert_string_equal(util_suggest_best(&sg), "field");
}

/* ---------------------------------------------------------------- input files */

static void test_read_input_regular(void **state)
{
    write_file(tmp_path("in.txt"), "hello\n");
    struct util_file f;
    assert_int_equal(util_read_input(tmp_path("in.txt"), 0, &f), 0);
    assert_int_equal(f.len, 6);
    assert_string_equal(f.text, "hello\n");
    free(f.text);
    assert_int_equal(util_read_input(tmp_path("in.txt"), 5, &f), -1); /* over the limit */
    assert_int_equal(f.err, EFBIG);
    assert_null(f.text);
    assert_int_equal(util_read_input(tmp_path("in.txt"), 6, &f), 0); /* exactly the limit */
    free(f.text);
    assert_int_equal(util_read_input(tmp_path("absent"), 0, &f), -1);
    assert_int_equal(f.err, ENOENT);
    assert_string_equal(f.why, strerror(ENOENT));
    unlink(tmp_path("in.txt"));
}

static void test_read_input_refuses_other_kinds(void **state)
{
    char fifo[512];
    snprintf(fifo, sizeof(fifo), "%s", tmp_path("fifo"));
    assert_int_equal(mkfifo(fifo, 0600), 0);
    struct util_file f;
    alarm(20); /* a blocking open would hang: the alarm fails the test */
    assert_int_equal(util_read_input(fifo, 0, &f), -1);
    alarm(0);
    assert_string_equal(f.why, "Is a FIFO, not a regular file");
    assert_int_equal(f.err, 0);
    unlink(fifo);
    assert_int_equal(util_read_input(tmpdir, 0, &f), -1);
    assert_int_equal(f.err, EISDIR);
    if (access("/dev/null", R_OK) == 0) {
        assert_int_equal(util_read_input("/dev/null", 0, &f), -1);
        assert_string_equal(f.why, "Is a character device, not a regular file");
    }
}

static void test_read_stream(void **state)
{
    write_file(tmp_path("s.txt"), "abcdef");
    FILE *fp = fopen(tmp_path("s.txt"), "rb");
    assert_non_null(fp);
    struct util_file f;
    assert_int_equal(util_read_stream(fp, 3, &f), -1);
    assert_int_equal(f.err, EFBIG);
    rewind(fp);
    assert_int_equal(util_read_stream(fp, 0, &f), 0);
    assert_string_equal(f.text, "abcdef");
    free(f.text);
    fclose(fp);
    unlink(tmp_path("s.txt"));
}

/* ---------------------------------------------------------------- held reports */

/* Held reports say nothing until flushed; then they come in the order held (a note after its
 * report), and what was truncated away never comes. */
static void test_held_flush_in_order(void **state)
{
    (void)state;
    struct diag dg;
    diag_init(&dg, NULL);
    uint32_t f = diag_add_file(&dg, "t.svd");
    struct diag_held h = {0};
    diag_held_add(&h, DIAG_SCHEMA, (struct srcpos){f, 3, 0}, "first %d", 1);
    diag_held_add(&h, DIAG_SCHEMA, (struct srcpos){f, 5, 0}, "second");
    diag_held_add(&h, DIAG_SCHEMA, (struct srcpos){f, 9, 0}, "dropped");
    diag_held_truncate(&h, 2);
    assert_int_equal(dg.nerrors, 0);
    assert_string_equal(dg.text.s, "");
    diag_held_flush(&h, &dg, 0);
    assert_int_equal(h.n, 0);
    assert_int_equal(dg.nerrors, 2);
    assert_string_equal(dg.text.s, "t.svd:3: error: first 1\n"
                                   "t.svd:5: error: second\n");
    diag_held_add(&h, DIAG_SCHEMA, (struct srcpos){f, 7, 0}, "never said");
    diag_held_release(&h);
    assert_null(h.d);
    assert_int_equal(dg.nerrors, 2);
    diag_release(&dg);
}

/* ---------------------------------------------------------------- carets */

static void caret_case(const char *text, uint32_t line, uint32_t col, const char *want)
{
    struct diag dg;
    diag_init(&dg, NULL);
    dg.caret = true;
    uint32_t f = diag_add_source(&dg, "t.xml", text, strlen(text));
    diag_report(&dg, DIAG_SCHEMA, (struct srcpos){f, line, col}, "m");
    assert_string_equal(dg.text.s, want);
    diag_release(&dg);
}

static void test_caret_layout(void **state)
{
    caret_case("ab\n  <x a=\"1\"/>\n", 2, 6,
               "t.xml:2:6: error: m\n"
               "    2 |   <x a=\"1\"/>\n"
               "      |      ^\n");
    /* a tab is expanded to the next multiple of 8, in the line and under it */
    caret_case("\tx\ty\n", 1, 4,
               "t.xml:1:4: error: m\n"
               "    1 |         x       y\n"
               "      |                 ^\n");
    /* CR LF: the CR is not shown; a column past the end points after the last character */
    caret_case("abc\r\nd\n", 1, 9,
               "t.xml:1:9: error: m\n"
               "    1 | abc\n"
               "      |    ^\n");
    /* control characters are shown as '?'; a UTF-8 character takes one column */
    caret_case("\x1b[2J\xc3\xa9x\n", 1, 7,
               "t.xml:1:7: error: m\n"
               "    1 | ?[2J\xc3\xa9x\n"
               "      |      ^\n");
    /* no column, or a line past the end: no caret */
    caret_case("abc\n", 1, 0, "t.xml:1: error: m\n");
    caret_case("abc\n", 7, 1, "t.xml:7:1: error: m\n");
}

static void test_caret_wide_line_numbers(void **state)
{
    struct buf text = BUF_INIT;
    for (int i = 1; i < 123456; i++)
        buf_addc(&text, '\n');
    buf_adds(&text, "x y\n");
    struct diag dg;
    diag_init(&dg, NULL);
    dg.caret = true;
    uint32_t f = diag_add_source(&dg, "t.xml", text.s, text.len);
    diag_report(&dg, DIAG_SCHEMA, (struct srcpos){f, 123456, 3}, "m");
    assert_string_equal(dg.text.s, "t.xml:123456:3: error: m\n"
                                   "123456 | x y\n"
                                   "       |   ^\n");
    diag_release(&dg);
    buf_release(&text);
}

static void test_caret_long_line_window(void **state)
{
    /* 1000 bytes: 'a' x 600, 'X', 'b' x 399. Shown: 120 bytes before X and 120 after. */
    struct buf text = BUF_INIT;
    for (int i = 0; i < 600; i++)
        buf_addc(&text, 'a');
    buf_addc(&text, 'X');
    for (int i = 0; i < 399; i++)
        buf_addc(&text, 'b');
    struct diag dg;
    diag_init(&dg, NULL);
    dg.caret = true;
    uint32_t f = diag_add_source(&dg, "t.xml", text.s, text.len);
    diag_report(&dg, DIAG_SCHEMA, (struct srcpos){f, 1, 601}, "m");
    struct buf want = BUF_INIT;
    buf_adds(&want, "t.xml:1:601: error: m\n    1 | ");
    for (int i = 0; i < 120; i++)
        buf_addc(&want, 'a');
    buf_addc(&want, 'X');
    for (int i = 0; i < 119; i++)
        buf_addc(&want, 'b');
    buf_adds(&want, "\n      | ");
    for (int i = 0; i < 120; i++)
        buf_addc(&want, ' ');
    buf_adds(&want, "^\n");
    assert_string_equal(dg.text.s, want.s);
    diag_release(&dg);
    buf_release(&want);
    buf_release(&text);
}

static void test_caret_rereads_or_forgets(void **state)
{
    char path[512];
    snprintf(path, sizeof(path), "%s", tmp_path("src.xml"));
    write_file(path, "one\ntwo\n");
    struct diag dg;
    diag_init(&dg, NULL);
    dg.caret = true;
    char *lent = xstrdup("ONE\nTWO\n"); /* differs from the file: shows where a line came from */
    uint32_t a = diag_add_source(&dg, path, lent, strlen(lent));
    uint32_t b = diag_add_source(&dg, "-", lent, strlen(lent));
    diag_report(&dg, DIAG_SCHEMA, (struct srcpos){a, 2, 1}, "m");
    diag_drop_source(&dg, a, true);  /* the file on disk from now on */
    diag_drop_source(&dg, b, false); /* no caret from now on */
    free(lent);
    diag_report(&dg, DIAG_SCHEMA, (struct srcpos){a, 2, 2}, "m");
    diag_report(&dg, DIAG_SCHEMA, (struct srcpos){b, 2, 2}, "m");
    struct buf want = BUF_INIT;
    buf_addf(&want, "%s:2:1: error: m\n    2 | TWO\n      | ^\n", path);
    buf_addf(&want, "%s:2:2: error: m\n    2 | two\n      |  ^\n", path);
    buf_adds(&want, "-:2:2: error: m\n");
    assert_string_equal(dg.text.s, want.s);
    buf_release(&want);
    diag_release(&dg);
    unlink(path);
}

/*
 * A file read as one device and inode is quoted again only while its name
 * still leads there: swapped for a link to another file (an attacker's
 * /etc/shadow), it gets no caret, and nothing of the other file is shown.
 */
static void test_caret_rereads_only_the_same_file(void **state)
{
    char path[600], secret[600];
    snprintf(path, sizeof(path), "%s/same.xml", tmpdir);
    snprintf(secret, sizeof(secret), "%s/secret", tmpdir);
    FILE *f = fopen(path, "w");
    fputs("<part>\n", f);
    fclose(f);
    f = fopen(secret, "w");
    fputs("root:SECRET\n", f);
    fclose(f);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    for (int swapped = 0; swapped < 2; swapped++) {
        struct diag dg;
        diag_init(&dg, NULL);
        dg.caret = true;
        uint32_t a = diag_add_file(&dg, path);
        diag_drop_source(&dg, a, true);
        diag_source_same(&dg, a, st.st_dev, st.st_ino);
        if (swapped) {
            assert_int_equal(unlink(path), 0);
            assert_int_equal(symlink(secret, path), 0);
        }
        diag_report(&dg, DIAG_SCHEMA, (struct srcpos){a, 1, 1}, "m");
        struct buf want = BUF_INIT;
        buf_addf(&want, "%s:1:1: error: m\n%s", path, swapped ? "" : "    1 | <part>\n      | ^\n");
        assert_string_equal(dg.text.s, want.s);
        buf_release(&want);
        diag_release(&dg);
    }
    unlink(path);
    unlink(secret);
}

static void test_caret_off_by_default(void **state)
{
    caret_case("abc\n", 1, 2, "t.xml:1:2: error: m\n    1 | abc\n      |  ^\n");
    struct diag dg;
    diag_init(&dg, NULL); /* unit tests and library callers: no caret unless asked */
    uint32_t f = diag_add_source(&dg, "t.xml", "abc\n", 4);
    diag_report(&dg, DIAG_SCHEMA, (struct srcpos){f, 1, 2}, "m");
    assert_string_equal(dg.text.s, "t.xml:1:2: error: m\n");
    assert_int_equal(diag_f_option(&dg, "-fcaret-diagnostics"), 1);
    assert_true(dg.caret);
    assert_int_equal(diag_f_option(&dg, "-fno-diagnostics-show-caret"), 1);
    assert_false(dg.caret);
    assert_int_equal(diag_f_option(&dg, "-fdiagnostics-show-caret"), 1);
    assert_true(dg.caret);
    assert_int_equal(diag_f_option(&dg, "-fno-caret-diagnostics"), 1);
    assert_false(dg.caret);
    diag_release(&dg);
}

/* ---------------------------------------------------------------- the error limit */

static void test_error_limit(void **state)
{
    struct diag dg;
    diag_init(&dg, NULL);
    assert_int_equal(diag_f_option(&dg, "-ferror-limit=2"), 1);
    assert_int_equal(dg.error_limit, 2);
    uint32_t f = diag_add_file(&dg, "t.xml");
    diag_report(&dg, DIAG_SCHEMA, (struct srcpos){f, 1, 0}, "e1");
    diag_note(&dg, (struct srcpos){f, 9, 0}, "n1");
    diag_report(&dg, DIAG_MISSING_SOURCE, (struct srcpos){f, 2, 0}, "w1"); /* not counted */
    diag_report(&dg, DIAG_SCHEMA, (struct srcpos){f, 3, 0}, "e2");
    diag_report(&dg, DIAG_SCHEMA, (struct srcpos){f, 4, 0}, "e3");
    diag_note(&dg, (struct srcpos){f, 9, 0}, "n3"); /* hidden with its error */
    diag_report(&dg, DIAG_MISSING_SOURCE, (struct srcpos){f, 5, 0}, "w2");
    diag_report(&dg, DIAG_IO, (struct srcpos){f, 6, 0}, "e4");
    assert_int_equal(dg.nerrors, 4);
    assert_int_equal(dg.nwarnings, 2);
    assert_int_equal(dg.count[DIAG_IO], 1); /* hidden, still decides the exit status */
    diag_finish(&dg);
    assert_string_equal(dg.text.s, "t.xml:1: error: e1\n"
                                   "t.xml:9: note: n1\n"
                                   "t.xml:2: warning: w1 [-Wmissing-source]\n"
                                   "t.xml:3: error: e2\n"
                                   "regc: note: 2 more errors and 1 more warning not shown "
                                   "(-ferror-limit=2)\n");
    diag_release(&dg);
}

static void test_error_limit_words_and_none(void **state)
{
    struct diag dg;
    diag_init(&dg, NULL);
    dg.error_limit = 1;
    uint32_t f = diag_add_file(&dg, "t.xml");
    diag_report(&dg, DIAG_SCHEMA, (struct srcpos){f, 1, 0}, "e1");
    diag_report(&dg, DIAG_SCHEMA, (struct srcpos){f, 2, 0}, "e2");
    diag_finish(&dg);
    assert_string_equal(dg.text.s, "t.xml:1: error: e1\n"
                                   "regc: note: 1 more error not shown (-ferror-limit=1)\n");
    diag_release(&dg);
    diag_init(&dg, NULL);
    assert_int_equal(diag_f_option(&dg, "-fmax-errors=0"), 1); /* gcc's name; 0: no limit */
    f = diag_add_file(&dg, "t.xml");
    for (int i = 0; i < 100; i++)
        diag_report(&dg, DIAG_SCHEMA, (struct srcpos){f, 1, 0}, "e");
    diag_finish(&dg);
    assert_int_equal(dg.nhidden_errors, 0);
    assert_null(strstr(dg.text.s, "not shown"));
    diag_release(&dg);
}

static void test_f_option_values(void **state)
{
    struct diag dg;
    diag_init(&dg, NULL);
    assert_int_equal(diag_f_option(&dg, "-ferror-limit="), -1);
    assert_int_equal(diag_f_option(&dg, "-ferror-limit=x"), -1);
    assert_int_equal(diag_f_option(&dg, "-ferror-limit=-1"), -1);
    assert_int_equal(diag_f_option(&dg, "-ferror-limit=99999999999"), -1);
    assert_int_equal(diag_f_option(&dg, "-ferror-limit=4294967295"), 1);
    assert_int_equal(dg.error_limit, 4294967295u);
    assert_int_equal(diag_f_option(&dg, "-fsomething-else"), 0);
    assert_int_equal(diag_f_option(&dg, "-ferror-limit"), 0);
    diag_release(&dg);
}

static void test_hint(void **state)
{
    char hint[32];
    assert_string_equal(diag_hint(hint, sizeof(hint), "ev_sel"), "; did you mean 'ev_sel'?");
    assert_string_equal(diag_hint(hint, sizeof(hint), NULL), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edit_distance),
        cmocka_unit_test(test_suggest),
        cmocka_unit_test(test_suggest_each),
        cmocka_unit_test(test_read_input_regular),
        cmocka_unit_test(test_read_input_refuses_other_kinds),
        cmocka_unit_test(test_read_stream),
        cmocka_unit_test(test_held_flush_in_order),
        cmocka_unit_test(test_caret_layout),
        cmocka_unit_test(test_caret_rereads_only_the_same_file),
        cmocka_unit_test(test_caret_wide_line_numbers),
        cmocka_unit_test(test_caret_long_line_window),
        cmocka_unit_test(test_caret_rereads_or_forgets),
        cmocka_unit_test(test_caret_off_by_default),
        cmocka_unit_test(test_error_limit),
        cmocka_unit_test(test_error_limit_words_and_none),
        cmocka_unit_test(test_f_option_values),
        cmocka_unit_test(test_hint),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
