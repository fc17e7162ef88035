/*
 * test_suggest - regc/suggest.h, "did you mean 'X'?": the distance against
 * values worked by hand (optimal string alignment: an adjacent swap is one
 * edit, a swap that is then edited again is not), letters without case, the
 * closeness limit (len + 2) / 3, the distance within a limit against the
 * definition's whole table, ties offering nothing, long names, and the
 * wording; then the suggestions regc_resolve() makes for a path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "hand_tables.h"
#include "regc/regc.h"
#include "regc/suggest.h"

static void test_distance(void **state)
{
    (void)state;
    assert_int_equal(regc_suggest_distance("umask", "umask"), 0);
    assert_int_equal(regc_suggest_distance("umaks", "umask"), 1);    /* swap */
    assert_int_equal(regc_suggest_distance("umsk", "umask"), 1);     /* insert */
    assert_int_equal(regc_suggest_distance("umasks", "umask"), 1);   /* delete */
    assert_int_equal(regc_suggest_distance("umosk", "umask"), 1);    /* change */
    assert_int_equal(regc_suggest_distance("kitten", "sitting"), 3); /* the textbook pair */
    assert_int_equal(regc_suggest_distance("", "abc"), 3);
    assert_int_equal(regc_suggest_distance("abc", ""), 3);
    assert_int_equal(regc_suggest_distance("ca", "abc"), 3); /* OSA, not Damerau (2) */
    assert_int_equal(regc_suggest_distance("U_MSR_PMON_CTL0", "u_msr_pmon_ctl0"), 0);
    assert_int_equal(regc_suggest_distance("EV_SEL", "ev_sl"), 1);
}

/*
 * The optimal string alignment distance from its definition, the whole
 * table (d[i][j]: a's first i letters against b's first j), without case:
 * the reference regc_suggest_distance_within() is held to.
 */
static unsigned osa_reference(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    static unsigned d[16][16];
    for (size_t i = 0; i <= n; i++)
        for (size_t j = 0; j <= m; j++) {
            if (i == 0 || j == 0) {
                d[i][j] = (unsigned)(i + j);
                continue;
            }
            bool same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            unsigned v = d[i - 1][j - 1] + !same;
            v = d[i - 1][j] + 1 < v ? d[i - 1][j] + 1 : v;
            v = d[i][j - 1] + 1 < v ? d[i][j - 1] + 1 : v;
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

/*
 * The distance within a limit (what regc_suggest_add() asks, giving up on a
 * candidate once it cannot come under the limit): the exact distance when
 * it is at most the limit, a number over it otherwise, for every limit from
 * 0 to 7; and the bound from the letters alone never over the distance; on pairs of up to 15 letters of a 3-letter alphabet (close pairs
 * are common) from a fixed pseudo-random sequence.
 */
static void test_distance_within(void **state)
{
    (void)state;
    uint32_t x = 12345;
    char a[16], b[16];
    for (int k = 0; k < 20000; k++) {
        char *s[2] = {a, b};
        for (int w = 0; w < 2; w++) {
            x = x * 1103515245u + 12345u;
            size_t len = (x >> 16) % 16;
            for (size_t i = 0; i < len; i++) {
                x = x * 1103515245u + 12345u;
                s[w][i] = "abC"[(x >> 16) % 3];
            }
            s[w][len] = '\0';
        }
        unsigned want = osa_reference(a, b);
        assert_int_equal(regc_suggest_distance(a, b), want);
        struct regc_suggest sg;
        regc_suggest_init(&sg, a);
        assert_true(regc_suggest_letters_apart_(&sg, b) <= want); /* a lower bound */
        for (unsigned limit = 0; limit < 8; limit++) {
            unsigned got = regc_suggest_distance_within(a, b, limit);
            if (want <= limit)
                assert_int_equal(got, want);
            else
                assert_true(got > limit);
        }
    }
}

/* The suggestion for 'name' among the NULL-ended 'cands', or NULL. */
static const char *best_of(struct regc_suggest *s, const char *name, const char *const *cands)
{
    regc_suggest_init(s, name);
    for (; *cands; cands++)
        regc_suggest_add(s, *cands);
    return regc_suggest_best(s);
}

static void test_best(void **state)
{
    (void)state;
    static const char *const fields[] = {"rsv", "thresh", "invert", "en",     "rsv", "edge_det",
                                         "rst", "rsv",    "umask",  "ev_sel", NULL};
    static const char *const cboxes[] = {"cbox0", "cbox1", "cbox2", "cbox3", "cbox4",
                                         "cbox5", "cbox6", "cbox7", NULL};
    struct regc_suggest s;
    const char *b;
    assert_non_null(b = best_of(&s, "umsk", fields));
    assert_string_equal(b, "umask");
    assert_non_null(b = best_of(&s, "EDGE_DET", fields));
    assert_string_equal(b, "edge_det");
    assert_non_null(b = best_of(&s, "rvs", fields)); /* 'rsv' three times is one candidate */
    assert_string_equal(b, "rsv");
    assert_null(best_of(&s, "nosuch", fields));
    assert_null(best_of(&s, "cbox9", cboxes)); /* differs in digits only from each */
    static const char *const mbox[] = {"mbox", "ubox", "cbox", NULL};
    assert_null(best_of(&s, "qbox", mbox)); /* one edit from each: a tie */
    static const char *const i0[] = {"i0", "CTL[1]", NULL};
    assert_null(best_of(&s, "i9", i0));     /* a number is written on purpose, not mistyped */
    assert_null(best_of(&s, "ctl[5]", i0)); /* ...in any case */
    assert_non_null(b = best_of(&s, "j0", i0)); /* a letter is a typo */
    assert_string_equal(b, "i0");
    assert_non_null(b = best_of(&s, "cbx3", cboxes));
    assert_string_equal(b, "cbox3");
    /* the limit: (len + 2) / 3 edits; 'thrsh' (5) may be 2 away, 'tresh' is 1 */
    static const char *const one[] = {"thresh", NULL};
    assert_non_null(best_of(&s, "thrs", one));   /* 4 chars, limit 2, distance 2 */
    assert_null(best_of(&s, "thr", one));        /* 3 chars, limit 1, distance 3 */
    assert_null(best_of(&s, "tXrXsX", one));     /* 6 chars, limit 2, distance 3 */
    assert_non_null(best_of(&s, "tXrXsh", one)); /* distance 2 */
}

/* 'n' letters a, with a 'b' at 5 when 'typo'. */
static char *run_of_a(char *buf, size_t n, bool typo)
{
    memset(buf, 'a', n);
    buf[n] = '\0';
    if (typo)
        buf[5] = 'b';
    return buf;
}

static void test_long_names(void **state)
{
    (void)state;
    char name[300], cand[300];
    const char *const cands[] = {cand, "aaaa", NULL};
    struct regc_suggest s;
    const char *b;
    run_of_a(name, REGC_SUGGEST_MAX - 1, false);
    run_of_a(cand, REGC_SUGGEST_MAX - 1, true);
    assert_non_null(b = best_of(&s, name, cands)); /* the longest candidate kept */
    assert_string_equal(b, cand);
    run_of_a(name, REGC_SUGGEST_MAX, false);
    run_of_a(cand, REGC_SUGGEST_MAX, true);
    assert_null(best_of(&s, name, cands)); /* too long to keep: nothing, and no overflow */
    run_of_a(name, 299, false);
    run_of_a(cand, 299, true);
    assert_null(best_of(&s, name, cands));
}

static void test_text(void **state)
{
    (void)state;
    static const char *const fields[] = {"umask", "ev_sel", NULL};
    struct regc_suggest s;
    char buf[64], small[12];
    best_of(&s, "umsk", fields);
    assert_string_equal(regc_suggest_text(&s, buf, sizeof(buf)), "; did you mean 'umask'?");
    assert_string_equal(regc_suggest_text(&s, small, sizeof(small)), "; did you m");
    best_of(&s, "nosuch", fields);
    assert_string_equal(regc_suggest_text(&s, buf, sizeof(buf)), "");
}

static void test_resolve(void **state)
{
    (void)state;
    struct regc_ref r;
    char err[256];
    assert_int_equal(regc_resolve(&hand_ubox_spec, "uboxx.U_MSR_PMON_CTL0", &r, err, sizeof(err)),
                     -ENOENT);
    assert_string_equal(err, "no block 'uboxx' in spec 'hand_ubox'; did you mean 'ubox'?");
    assert_int_equal(regc_resolve(&hand_ubox_spec, "ubox.U_MSR_PMON_CLT1", &r, err, sizeof(err)),
                     -ENOENT);
    assert_string_equal(err, "no register 'U_MSR_PMON_CLT1' in block 'ubox'; did you mean "
                             "'U_MSR_PMON_CTL1'?");
    assert_int_equal(regc_resolve(&hand_ubox_spec, "ubox.U_MSR_PMON_CLT[1]", &r, err, sizeof(err)),
                     -ENOENT);
    assert_string_equal(err, "no register 'U_MSR_PMON_CLT[1]' in block 'ubox'; did you mean "
                             "'U_MSR_PMON_CTL[1]'?");
    assert_int_equal(regc_resolve(&acme_spec, "box.bx1.CTL1", &r, err, sizeof(err)), -ENOENT);
    assert_string_equal(err, "no instance 'bx1' of block 'box'; did you mean 'box1'?");
    assert_int_equal(regc_resolve(&acme_spec, "box.box9.CTL1", &r, err, sizeof(err)), -ENOENT);
    assert_string_equal(err, "no instance 'box9' of block 'box'"); /* box0 and box1 tie */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance),   cmocka_unit_test(test_distance_within),
        cmocka_unit_test(test_best),
        cmocka_unit_test(test_long_names), cmocka_unit_test(test_text),
        cmocka_unit_test(test_resolve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
