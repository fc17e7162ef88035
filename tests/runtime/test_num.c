/*
 * test_num - regc/num.h, the one number parser: for each kind of limit
 * regctl uses (a field of 4, 8 and 64 bits, a CPU index up to INT_MAX, a
 * 44-bit counter's sample period from 1, a signed rate) the values 0, the
 * limit, the limit + 1, 2^32, 2^64, negative, a leading space or sign, and
 * junk, against the values and reasons worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <string.h>

#include "regc/num.h"

struct ucase {
    const char *text;
    enum regc_num_status st;
    uint64_t value;  /* when REGC_NUM_OK */
    const char *why; /* the reason, when refused */
};

static void run_u(uint64_t min, uint64_t max, unsigned flags, const struct ucase *c)
{
    for (; c->text; c++) {
        uint64_t v = 0xdeadbeef;
        char why[128] = "";
        enum regc_num_status st =
            regc_num_parse(c->text, REGC_NUM_NUL, min, max, flags, &v, why, sizeof(why));
        if (st != c->st || (st == REGC_NUM_OK && v != c->value) ||
            (st != REGC_NUM_OK && (strcmp(why, c->why) != 0 || v != 0xdeadbeef)))
            fail_msg("'%s' in [%llu, %llu]: status %d value %llu why '%s'; want %d %llu '%s'",
                     c->text, (unsigned long long)min, (unsigned long long)max, st,
                     (unsigned long long)v, why, c->st, (unsigned long long)c->value,
                     c->why ? c->why : "");
    }
}

#define OK(t, v)                                                                                   \
    {                                                                                              \
        t, REGC_NUM_OK, v, NULL                                                                    \
    }
#define NO(t, s, w)                                                                                \
    {                                                                                              \
        t, s, 0, w                                                                                 \
    }

/* the shapes every kind refuses alike */
#define SHAPES                                                                                     \
    NO("", REGC_NUM_EMPTY, "empty"), NO(" 1", REGC_NUM_SPACE, "space before the number"),          \
        NO("\t1", REGC_NUM_SPACE, "space before the number"),                                      \
        NO("+1", REGC_NUM_SIGN, "a '+' sign is not taken"),                                        \
        NO("-1", REGC_NUM_NEGATIVE, "negative"),                                                   \
        NO(" -1", REGC_NUM_SPACE, "space before the number"),                                      \
        NO("-", REGC_NUM_NOT_NUMBER, "not a number"),                                              \
        NO("x", REGC_NUM_NOT_NUMBER, "not a number"),                                              \
        NO("1x", REGC_NUM_JUNK, "junk after the number"),                                          \
        NO("1 ", REGC_NUM_JUNK, "junk after the number"),                                          \
        NO("1.5", REGC_NUM_JUNK, "junk after the number"),                                         \
        NO("1e3", REGC_NUM_JUNK, "junk after the number")

static void test_field4(void **state)
{
    (void)state;
    static const struct ucase c[] = {
        OK("0", 0),
        OK("15", 15),
        OK("0xf", 15),
        OK("0XF", 15),
        OK("0x0f", 15),
        NO("16", REGC_NUM_TOO_LARGE, "too large: at most 15"),
        NO("0x10", REGC_NUM_TOO_LARGE, "too large: at most 15"),
        NO("4294967296", REGC_NUM_TOO_LARGE, "too large: at most 15"),
        NO("18446744073709551616", REGC_NUM_TOO_LARGE, "too large: at most 15"),
        NO("0x10000000000000000", REGC_NUM_TOO_LARGE, "too large: at most 15"),
        NO("010", REGC_NUM_OCTAL,
           "leading zero (octal is not taken; write it in decimal or 0x...)"),
        NO("0x", REGC_NUM_NOT_NUMBER, "not a number"),
        NO("0xg", REGC_NUM_NOT_NUMBER, "not a number"),
        SHAPES,
        {NULL, 0, 0, NULL}};
    run_u(0, regc_num_max_bits(4), 0, c);
}

static void test_field8(void **state) /* umask=0x1ff is refused, not written as 0xff */
{
    (void)state;
    static const struct ucase c[] = {
        OK("0", 0),
        OK("255", 255),
        OK("0xff", 255),
        NO("256", REGC_NUM_TOO_LARGE, "too large: at most 255 (0xff)"),
        NO("0x1ff", REGC_NUM_TOO_LARGE, "too large: at most 255 (0xff)"),
        NO("4294967296", REGC_NUM_TOO_LARGE, "too large: at most 255 (0xff)"),
        NO("18446744073709551616", REGC_NUM_TOO_LARGE, "too large: at most 255 (0xff)"),
        SHAPES,
        {NULL, 0, 0, NULL}};
    run_u(0, regc_num_max_bits(8), 0, c);
}

static void test_field64(void **state)
{
    (void)state;
    static const struct ucase c[] = {
        OK("0", 0),
        OK("18446744073709551615", UINT64_MAX),
        OK("0xffffffffffffffff", UINT64_MAX),
        OK("4294967296", UINT64_C(1) << 32),
        NO("18446744073709551616", REGC_NUM_TOO_LARGE,
           "too large: at most 18446744073709551615 (0xffffffffffffffff)"),
        NO("0x10000000000000000", REGC_NUM_TOO_LARGE,
           "too large: at most 18446744073709551615 (0xffffffffffffffff)"),
        NO("99999999999999999999999999", REGC_NUM_TOO_LARGE,
           "too large: at most 18446744073709551615 (0xffffffffffffffff)"),
        NO("99999999999999999999999999x", REGC_NUM_JUNK, "junk after the number"),
        SHAPES,
        {NULL, 0, 0, NULL}};
    run_u(0, regc_num_max_bits(64), 0, c);
}

static void test_cpu(void **state) /* --cpu 4294967297 is refused, not CPU 1 */
{
    (void)state;
    static const struct ucase c[] = {
        OK("0", 0),
        OK("2147483647", INT_MAX),
        OK("50000000", 50000000),
        NO("2147483648", REGC_NUM_TOO_LARGE, "too large: at most 2147483647"),
        NO("4294967296", REGC_NUM_TOO_LARGE, "too large: at most 2147483647"),
        NO("4294967297", REGC_NUM_TOO_LARGE, "too large: at most 2147483647"),
        NO("18446744073709551616", REGC_NUM_TOO_LARGE, "too large: at most 2147483647"),
        NO("0x10", REGC_NUM_JUNK, "junk after the number"),
        NO("007", REGC_NUM_OCTAL,
           "leading zero (octal is not taken; write it in decimal or 0x...)"),
        SHAPES,
        {NULL, 0, 0, NULL}};
    run_u(0, INT_MAX, REGC_NUM_DEC, c);
}

static void test_sample44(void **state) /* --sample on a 44-bit counter: 1 to 2^44-1 */
{
    (void)state;
    static const struct ucase c[] = {OK("1", 1),
                                     OK("0xfffffffffff", UINT64_C(0xfffffffffff)),
                                     OK("4294967296", UINT64_C(1) << 32),
                                     NO("0", REGC_NUM_TOO_SMALL, "too small: at least 1"),
                                     NO("0x100000000000", REGC_NUM_TOO_LARGE,
                                        "too large: at most 17592186044415 (0xfffffffffff)"),
                                     NO("0x100000000001", REGC_NUM_TOO_LARGE,
                                        "too large: at most 17592186044415 (0xfffffffffff)"),
                                     NO("18446744073709551616", REGC_NUM_TOO_LARGE,
                                        "too large: at most 17592186044415 (0xfffffffffff)"),
                                     SHAPES,
                                     {NULL, 0, 0, NULL}};
    run_u(1, regc_num_max_bits(44), 0, c);
}

static void test_hex(void **state) /* sysfs ids and PCI addresses */
{
    (void)state;
    static const struct ucase c[] = {
        OK("0x8086", 0x8086),
        OK("8086", 0x8086),
        OK("0000", 0),
        OK("7f", 0x7f),
        OK("ffff", 0xffff),
        NO("10000", REGC_NUM_TOO_LARGE, "too large: at most 0xffff"),
        NO("100000000", REGC_NUM_TOO_LARGE, "too large: at most 0xffff"),
        NO("7f:", REGC_NUM_JUNK, "junk after the number"),
        NO("0x", REGC_NUM_NOT_NUMBER, "not a number"),
        NO("-1", REGC_NUM_NEGATIVE, "negative"),
        {NULL, 0, 0, NULL}};
    run_u(0, 0xffff, REGC_NUM_HEX, c);
}

static void test_length(void **state) /* a number inside a longer text */
{
    (void)state;
    uint64_t v = 0;
    assert_int_equal(regc_num_parse("12-34", 2, 0, 99, 0, &v, NULL, 0), REGC_NUM_OK);
    assert_int_equal(v, 12);
    assert_int_equal(regc_num_parse("12-34", 3, 0, 99, 0, &v, NULL, 0), REGC_NUM_JUNK);
    assert_int_equal(regc_num_parse("12-34", 0, 0, 99, 0, &v, NULL, 0), REGC_NUM_EMPTY);
    char tiny[8];
    assert_int_equal(regc_num_parse("1000", REGC_NUM_NUL, 0, 99, 0, &v, tiny, sizeof(tiny)),
                     REGC_NUM_TOO_LARGE);
    assert_string_equal(tiny, "too lar"); /* cut to the buffer, NUL-terminated */
}

struct scase {
    const char *text;
    enum regc_num_status st;
    int64_t value;
    const char *why;
};

static void test_signed(void **state) /* --sim-rate N: decrements are negative */
{
    (void)state;
    static const struct scase c[] = {
        {"0", REGC_NUM_OK, 0, NULL},
        {"-0", REGC_NUM_OK, 0, NULL},
        {"1000", REGC_NUM_OK, 1000, NULL},
        {"-1000", REGC_NUM_OK, -1000, NULL},
        {"0x10", REGC_NUM_OK, 16, NULL},
        {"-0x10", REGC_NUM_OK, -16, NULL},
        {"1001", REGC_NUM_TOO_LARGE, 0, "too large: at most 1000 (0x3e8)"},
        {"-1001", REGC_NUM_TOO_SMALL, 0, "too small: at least -1000 (-0x3e8)"},
        {"4294967296", REGC_NUM_TOO_LARGE, 0, "too large: at most 1000 (0x3e8)"},
        {"-18446744073709551616", REGC_NUM_TOO_SMALL, 0, "too small: at least -1000 (-0x3e8)"},
        {"--1", REGC_NUM_NOT_NUMBER, 0, "not a number"},
        {"- 1", REGC_NUM_NOT_NUMBER, 0, "not a number"},
        {"+1", REGC_NUM_SIGN, 0, "a '+' sign is not taken"},
        {" -1", REGC_NUM_SPACE, 0, "space before the number"},
        {"-1x", REGC_NUM_JUNK, 0, "junk after the number"},
        {"", REGC_NUM_EMPTY, 0, "empty"},
        {NULL, 0, 0, NULL}};
    for (const struct scase *k = c; k->text; k++) {
        int64_t v = 77;
        char why[128] = "";
        enum regc_num_status st =
            regc_num_parse_signed(k->text, REGC_NUM_NUL, -1000, 1000, &v, why, sizeof(why));
        if (st != k->st || (st == REGC_NUM_OK && v != k->value) ||
            (st != REGC_NUM_OK && (strcmp(why, k->why) != 0 || v != 77)))
            fail_msg("'%s': status %d value %lld why '%s'", k->text, st, (long long)v, why);
    }
    int64_t v;
    assert_int_equal(regc_num_parse_signed("-9223372036854775808", REGC_NUM_NUL, INT64_MIN,
                                           INT64_MAX, &v, NULL, 0),
                     REGC_NUM_OK);
    assert_true(v == INT64_MIN);
    assert_int_equal(regc_num_parse_signed("9223372036854775808", REGC_NUM_NUL, INT64_MIN,
                                           INT64_MAX, &v, NULL, 0),
                     REGC_NUM_TOO_LARGE);
    assert_int_equal(regc_num_parse_signed("-9223372036854775809", REGC_NUM_NUL, INT64_MIN,
                                           INT64_MAX, &v, NULL, 0),
                     REGC_NUM_TOO_SMALL);
    assert_int_equal(regc_num_parse_signed("5", REGC_NUM_NUL, 10, 20, &v, NULL, 0),
                     REGC_NUM_TOO_SMALL);
    assert_int_equal(regc_num_parse_signed("-5", REGC_NUM_NUL, -20, -10, &v, NULL, 0),
                     REGC_NUM_TOO_LARGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_field4),   cmocka_unit_test(test_field8),
        cmocka_unit_test(test_field64),  cmocka_unit_test(test_cpu),
        cmocka_unit_test(test_sample44), cmocka_unit_test(test_hex),
        cmocka_unit_test(test_length),   cmocka_unit_test(test_signed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
