/*
 * test_util - util_fold_space on texts whose folded form is written out by
 * hand (XML's white space folded, '\v' and '\f' kept).
 */
#include "util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* 'in' (its first 'len' bytes) folds to 'want'. */
static void check_fold(const char *in, size_t len, const char *want)
{
    struct arena a;
    arena_init(&a);
    size_t n = 99;
    const char *got = util_fold_space(&a, in, len, &n);
    assert_string_equal(got, want);
    assert_int_equal(n, strlen(want));
    arena_release(&a);
}

static void test_fold_space(void **state)
{
    (void)state;
    check_fold("", 0, "");
    check_fold(" \t\n\r ", 5, "");
    check_fold("word", 4, "word");
    check_fold("  two\r\n  words\t", 15, "two words");
    check_fold("a\tb\nc\rd e", 9, "a b c d e");
    /* XML's white space only (util_is_space): '\v' and '\f' are no blanks, kept as they are */
    check_fold("a\vb\fc", 5, "a\vb\fc");
    check_fold(" \v \f ", 5, "\v \f");
    check_fold("cut here, not past", 8, "cut here"); /* 'len' bytes, not to the NUL */
    check_fold("keeps_\x01_and_\x7f", 13, "keeps_\x01_and_\x7f");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fold_space),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
