/*
 * test_util - util_sort_u32 against qsort, on values that differ in every
 * byte, in the top byte only, in the low bytes only, and with many repeats.
 */
#include "util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* xorshift32: the same values on every run */
static uint32_t next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static void check_sorts(uint32_t *v, size_t n)
{
    uint32_t *want = xmalloc((n + 1) * sizeof(*want));
    memcpy(want, v, n * sizeof(*v));
    qsort(want, n, sizeof(*want), cmp_u32);
    util_sort_u32(v, n);
    assert_memory_equal(v, want, n * sizeof(*v));
    free(want);
}

static void test_sort_small(void **state)
{
    (void)state;
    uint32_t one[] = {7};
    util_sort_u32(one, 0);
    check_sorts(one, 1);
    uint32_t two[] = {0xffffffffu, 0};
    check_sorts(two, 2);
    uint32_t bytes[] = {0x01000000u, 0x00010000u, 0x00000100u, 0x00000001u, 0, 0x01010101u, 0x00000100u};
    check_sorts(bytes, sizeof(bytes) / sizeof(bytes[0]));
}

static void test_sort_random(void **state)
{
    (void)state;
    enum { N = 100000 };
    uint32_t *v = xmalloc(N * sizeof(*v)), s = 2463534242u;
    for (size_t i = 0; i < N; i++)
        v[i] = next(&s);
    check_sorts(v, N);
    for (size_t i = 0; i < N; i++) /* only the top byte differs */
        v[i] = (next(&s) & 0xff000000u) | 0x123456u;
    check_sorts(v, N);
    for (size_t i = 0; i < N; i++) /* one top byte: a single bucket, sorted on the low bytes */
        v[i] = 0x5a000000u | (next(&s) & 0x00ffffffu);
    check_sorts(v, N);
    for (size_t i = 0; i < N; i++) /* few distinct values, many repeats */
        v[i] = next(&s) % 37u * 0x01010101u;
    check_sorts(v, N);
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort_small),
        cmocka_unit_test(test_sort_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
