/*
 * Unit tests for compiler/xmlvalue.c: the attribute value parsers, string in,
 * value or (code, offset, message) out. The expected values are the spec
 * language's as docs/regspec.md states them (bits="HI:LO", high first,
 * 0..63; counters="0-1,3"; NAME{HI-LO}), worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "arena.h"
#include "xmlvalue.h"

static void test_bits(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    struct value_error err;
    unsigned msb = 99, lsb = 99;
    assert_true(value_bits(&a, "13:9", &msb, &lsb, &err));
    assert_int_equal(msb, 13);
    assert_int_equal(lsb, 9);
    assert_true(value_bits(&a, "63", &msb, &lsb, &err));
    assert_int_equal(msb, 63);
    assert_int_equal(lsb, 63);
    assert_false(value_bits(&a, "9:13", &msb, &lsb, &err)); /* low first */
    assert_int_equal(err.code, DIAG_BAD_BITS);
    assert_int_equal(err.at, 0);
    assert_string_equal(err.msg, "bit range '9:13' is written low first: write '13:9'");
    assert_false(value_bits(&a, "3:64", &msb, &lsb, &err)); /* the 64 starts at offset 2 */
    assert_int_equal(err.at, 2);
    assert_false(value_bits(&a, "7-0", &msb, &lsb, &err)); /* the '-' at offset 1 */
    assert_int_equal(err.at, 1);
    assert_string_equal(err.msg, "malformed bit range '7-0': expected 'HI:LO' or 'N'");
    arena_release(&a);
}

static void test_counters(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    struct value_error err;
    uint64_t mask;
    assert_true(value_counters(&a, "0-1,3", &mask, &err));
    assert_int_equal(mask, 0xB); /* counters 0, 1 and 3 */
    assert_true(value_counters(&a, "63", &mask, &err));
    assert_int_equal(mask, UINT64_C(1) << 63);
    assert_false(value_counters(&a, "3-1", &mask, &err));
    assert_int_equal(err.code, DIAG_BAD_NUMBER);
    assert_int_equal(err.at, 0);
    assert_false(value_counters(&a, "0,1,x", &mask, &err));
    assert_int_equal(err.at, 4);
    arena_release(&a);
}

static void test_array_name(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    struct value_error err;
    struct value_array_name an;
    assert_true(value_array_name(&a, "CTL", &an, &err));
    assert_string_equal(an.name, "CTL");
    assert_false(an.is_array);
    assert_int_equal(an.count, 1);
    assert_true(value_array_name(&a, "CTR{3-0}", &an, &err)); /* CTR0..CTR3, written high first */
    assert_string_equal(an.name, "CTR");
    assert_true(an.is_array && an.descending);
    assert_int_equal(an.first, 0);
    assert_int_equal(an.count, 4);
    assert_true(value_array_name(&a, "CTR{2-5}", &an, &err));
    assert_false(an.descending);
    assert_int_equal(an.first, 2);
    assert_int_equal(an.count, 4);
    assert_false(value_array_name(&a, "CTR{3-0}x", &an, &err));
    assert_int_equal(err.code, DIAG_BAD_ARRAY);
    assert_int_equal(err.at, 8); /* the 'x' */
    assert_string_equal(an.name, "CTR");
    arena_release(&a);
}

static void test_numbers_and_addresses(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    struct value_error err;
    uint64_t v;
    assert_true(value_number(&a, "address", "0xC10", &v, &err));
    assert_int_equal(v, 0xC10);
    assert_false(value_number(&a, "address", "C10H", &v, &err));
    assert_string_equal(err.msg, "number 'C10H' uses the manuals' 'H' suffix: write '0xC10'");
    assert_int_equal(err.at, 0);
    assert_false(value_number(&a, "width", "", &v, &err));
    assert_string_equal(err.msg, "'width' is empty: expected a number");
    uint64_t *addrs = NULL;
    size_t n = 0;
    assert_true(value_addresses(&a, "0xA0 0xB0,0xC0", &addrs, &n, &err));
    assert_int_equal(n, 3);
    assert_int_equal(addrs[2], 0xC0);
    n = 0;
    assert_false(value_addresses(&a, "0xA0 0xZ", &addrs, &n, &err));
    assert_int_equal(err.at, 7); /* the 'Z' */
    assert_int_equal(n, 1);
    arena_release(&a);
}

static void test_text(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    assert_string_equal(value_fold_text(&a, "  one\n  two\n\n three  "), "one two\nthree");
    /* bytes below ' ' other than blanks, and bytes over 0x7f, are a word's */
    assert_string_equal(value_fold_text(&a, "\x01a\x02 \t\x1f \xc3\xa9t\xc3\xa9\r\n"),
                        "\x01a\x02 \x1f \xc3\xa9t\xc3\xa9");
    assert_string_equal(value_fold_text(&a, " \r\n\t "), "");
    assert_string_equal(value_fold_text(&a, "a\r\n\r\nb\n \nc"), "a\nb\nc");
    const char **words = NULL;
    size_t n = 0;
    value_words(&a, " a\tbb\n", &words, &n);
    assert_int_equal(n, 2);
    assert_string_equal(words[1], "bb");
    assert_int_equal(value_space("pci"), SPACE_PCI);
    assert_int_equal(value_space(NULL), SPACE_MSR);
    arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bits),
        cmocka_unit_test(test_counters),
        cmocka_unit_test(test_array_name),
        cmocka_unit_test(test_numbers_and_addresses),
        cmocka_unit_test(test_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
