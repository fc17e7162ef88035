/*
 * test_util - util_sort_u64 against qsort, on values that differ in every
 * byte, in the top byte only, in the low bytes only, in one byte only, and
 * with many repeats, in buckets small and large, of every size up to 300 and
 * at each digit width's edge, and on adversarial data; util_fold_space on texts
 * whose folded form is written out by hand (XML's white space folded, '\v' and '\f' kept).
 */
#include "util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* xorshift64: the same values on every run */
static uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void check_sorts(uint64_t *v, size_t n)
{
    uint64_t *want = xmalloc((n + 1) * sizeof(*want));
    memcpy(want, v, n * sizeof(*v));
    qsort(want, n, sizeof(*want), cmp_u64);
    util_sort_u64(v, n);
    assert_memory_equal(v, want, n * sizeof(*v));
    free(want);
}

static void test_sort_small(void **state)
{
    (void)state;
    uint64_t one[] = {7};
    util_sort_u64(one, 0);
    check_sorts(one, 1);
    uint64_t two[] = {UINT64_MAX, 0};
    check_sorts(two, 2);
    uint64_t bytes[] = {UINT64_C(0x0100000000000000), UINT64_C(0x0001000000000000),
                        UINT64_C(0x0000010000000000), UINT64_C(0x0000000100000000),
                        UINT64_C(0x0000000001000000), UINT64_C(0x0000000000010000),
                        UINT64_C(0x0000000000000100), UINT64_C(0x0000000000000001),
                        0, UINT64_C(0x0101010101010101), UINT64_C(0x0000000000000100)};
    check_sorts(bytes, sizeof(bytes) / sizeof(bytes[0]));
}

static void test_sort_random(void **state)
{
    (void)state;
    enum { N = 100000 };
    uint64_t *v = xmalloc(N * sizeof(*v)), s = UINT64_C(88172645463325252);
    for (size_t i = 0; i < N; i++)
        v[i] = next(&s);
    check_sorts(v, N);
    for (size_t i = 0; i < N; i++) /* only the top byte differs */
        v[i] = (next(&s) & UINT64_C(0xff00000000000000)) | UINT64_C(0x123456789abcde);
    check_sorts(v, N);
    for (size_t i = 0; i < N; i++) /* one top byte: a single bucket, sorted on the low bytes */
        v[i] = UINT64_C(0x5a00000000000000) | (next(&s) & UINT64_C(0x00ffffffffffffff));
    check_sorts(v, N);
    for (int b = 0; b < 7; b++) { /* one bucket, one low byte differing: the others' passes skipped */
        for (size_t i = 0; i < N; i++)
            v[i] = UINT64_C(0x5a5a5a5a5a5a5a5a) ^ ((next(&s) & 0xff) << (8 * b));
        check_sorts(v, N);
    }
    for (size_t i = 0; i < N; i++) /* most share each low byte, some do not: no pass skipped */
        v[i] = UINT64_C(0x5a00000000000000) | (i % 4 ? 0 : next(&s) & UINT64_C(0x00ffffffffffffff));
    check_sorts(v, N);
    for (size_t i = 0; i < N; i++) /* few distinct values, many repeats */
        v[i] = next(&s) % 37u * UINT64_C(0x0101010101010101);
    check_sorts(v, N);
    for (size_t i = 0; i < 40 * 256; i++) /* buckets of some 40: insertion and counting both */
        v[i] = next(&s);
    check_sorts(v, 40 * 256);
    free(v);
}

/* Every size up to 300, and each size where the top digit gains a bit (8 << k), with neighbours. */
static void test_sort_sizes(void **state)
{
    (void)state;
    enum { N = 70000 };
    uint64_t *v = xmalloc(N * sizeof(*v)), s = UINT64_C(0x9e3779b97f4a7c15);
    for (size_t n = 0; n <= 300; n++) {
        for (size_t i = 0; i < n; i++)
            v[i] = next(&s);
        check_sorts(v, n);
    }
    for (size_t k = 2; (size_t)8 << k < N; k++)
        for (size_t n = ((size_t)8 << k) - 1; n <= ((size_t)8 << k) + 1; n++) {
            for (size_t i = 0; i < n; i++)
                v[i] = next(&s);
            check_sorts(v, n);
        }
    free(v);
}

/*
 * Values a radix sort of the top bits first finds hard: all equal (one
 * bucket no digit splits), in order and in reverse, differing in their low
 * 16 bits only (one bucket at every level down to the last), or only in the
 * bits just below and just at the top digit (14 bits for so many values), and
 * buckets of 31, 32 and 33 values (around where a bucket is split again
 * rather than left to the insertion sort), each in reverse order.
 */
static void test_sort_adversarial(void **state)
{
    (void)state;
    enum { N = 100000 };
    uint64_t *v = xmalloc(N * sizeof(*v)), s = UINT64_C(0x0123456789abcdef);
    for (size_t i = 0; i < N; i++)
        v[i] = UINT64_C(0xdeadbeefdeadbeef);
    check_sorts(v, N);
    for (size_t i = 0; i < N; i++)
        v[i] = i * UINT64_C(0x0000a00000000001);
    check_sorts(v, N);
    for (size_t i = 0; i < N; i++)
        v[i] = (N - i) * UINT64_C(0x0000a00000000001);
    check_sorts(v, N);
    for (size_t i = 0; i < N; i++)
        v[i] = UINT64_C(0x7777777777770000) | (next(&s) & 0xffff);
    check_sorts(v, N);
    for (int bit = 44; bit <= 52; bit++) { /* one bit differs: at, below and above a digit's edge */
        for (size_t i = 0; i < N; i++)
            v[i] = UINT64_C(0x5555555555555555) ^ ((next(&s) & 1) << bit) ^ (i % 3);
        check_sorts(v, N);
    }
    for (size_t size = 31; size <= 33; size++)
        for (int top = 12; top <= 16; top++) { /* the top digit's width: 14 bits for N values */
            size_t n = N / size * size;
            for (size_t i = 0; i < n; i++) /* bucket i / size of the top bits, values descending */
                v[i] = ((uint64_t)(i / size) << (64 - top)) | (size - i % size) << 20 |
                       (next(&s) & 0xfffff);
            check_sorts(v, n);
        }
    free(v);
}

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
        cmocka_unit_test(test_sort_small),
        cmocka_unit_test(test_sort_random),
        cmocka_unit_test(test_sort_sizes),
        cmocka_unit_test(test_sort_adversarial),
        cmocka_unit_test(test_fold_space),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
