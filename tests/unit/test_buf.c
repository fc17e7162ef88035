/* Unit tests for common/buf.c and common/arena.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"

static void test_buf_empty_is_never_null(void **state)
{
    struct buf b = BUF_INIT;
    assert_non_null(b.s);
    assert_string_equal(b.s, "");
    buf_release(&b);
    assert_string_equal(b.s, "");
}

static void test_buf_addf_grows(void **state)
{
    struct buf b = BUF_INIT;
    for (int i = 0; i < 1000; i++)
        buf_addf(&b, "%d,", i % 10);
    assert_int_equal(b.len, 2000);
    assert_memory_equal(b.s, "0,1,2,", 6);
    assert_int_equal(b.s[b.len], '\0');
    size_t len;
    char *s = buf_detach(&b, &len);
    assert_int_equal(len, 2000);
    assert_int_equal(b.len, 0);
    free(s);
}

static void test_buf_reset_keeps_storage(void **state)
{
    struct buf b = BUF_INIT;
    buf_adds(&b, "hello");
    buf_reset(&b);
    assert_string_equal(b.s, "");
    buf_addc(&b, 'x');
    assert_string_equal(b.s, "x");
    buf_release(&b);
}

/*
 * buf_addn copies short runs itself (overlapping 4- and 8-byte moves): every
 * length up to 40, at every offset the buffer may be at, as memcpy would.
 */
static void test_buf_addn_every_length(void **state)
{
    char src[48];
    for (size_t i = 0; i < sizeof(src); i++)
        src[i] = (char)('A' + i);
    for (size_t off = 0; off < 9; off++) {
        for (size_t n = 0; n <= 40; n++) {
            struct buf b = BUF_INIT;
            buf_addn(&b, "........", off);
            buf_addn(&b, src + 3, n);
            buf_addn(&b, "|", 1);
            assert_int_equal(b.len, off + n + 1);
            assert_memory_equal(b.s + off, src + 3, n);
            assert_memory_equal(b.s, "........", off);
            assert_string_equal(b.s + off + n, "|");
            buf_release(&b);
        }
    }
}

/*
 * buf_put() into a buffer with room, so that every piece takes the inline
 * copy (its cases: 0, 1, 2-3, 4-7, 8-16 bytes, and libc's memcpy past 16),
 * at every offset; the bytes before and after are left alone, and no NUL
 * is written until buf_terminate(). The same for buf_copy_upto() with 32
 * (the renderer's: 17-32 bytes inline too).
 */
static void test_buf_put_every_length(void **state)
{
    (void)state;
    char src[80];
    for (size_t i = 0; i < sizeof(src); i++)
        src[i] = (char)('A' + i % 58);
    for (size_t off = 0; off < 9; off++) {
        for (size_t n = 0; n <= 70; n++) {
            struct buf b = BUF_INIT;
            buf_grow(&b, 200);
            memset(b.s, '#', b.cap);
            b.len = off;
            buf_put(&b, src + 5, n);
            assert_int_equal(b.len, off + n);
            for (size_t i = 0; i < off; i++)
                assert_int_equal(b.s[i], '#');
            for (size_t i = 0; i < n; i++)
                assert_int_equal(b.s[off + i], src[5 + i]);
            assert_int_equal(b.s[off + n], '#'); /* nothing written past the piece */
            buf_terminate(&b);
            assert_int_equal(b.s[off + n], '\0');
            assert_int_equal(b.s[off + n + 1], '#');
            memset(b.s, '#', b.cap);
            buf_copy_upto(b.s + off, src + 5, n, 32);
            for (size_t i = 0; i < off; i++)
                assert_int_equal(b.s[i], '#');
            for (size_t i = 0; i < n; i++)
                assert_int_equal(b.s[off + i], src[5 + i]);
            assert_int_equal(b.s[off + n], '#');
            buf_release(&b);
        }
    }
}

/* An indent of any width, across the 32-space block buf_addspaces() copies from. */
static void test_buf_addspaces_any_width(void **state)
{
    (void)state;
    for (size_t n = 0; n <= 100; n++) {
        struct buf b = BUF_INIT;
        buf_adds(&b, "<");
        buf_addspaces(&b, n);
        buf_adds(&b, ">");
        assert_int_equal(b.len, n + 2);
        assert_int_equal(strspn(b.s + 1, " "), n);
        assert_string_equal(b.s + 1 + n, ">");
        buf_release(&b);
    }
}

static void test_arena_alignment_and_strings(void **state)
{
    struct arena a = ARENA_INIT;
    for (int i = 0; i < 10000; i++) {
        void *p = arena_alloc(&a, (size_t)(i % 37) + 1);
        assert_int_equal((uintptr_t)p % ARENA_ALIGN, 0);
    }
    char *big = arena_zalloc(&a, 1 << 20);
    assert_int_equal(big[12345], 0);
    assert_string_equal(arena_strdup(&a, "abc"), "abc");
    assert_string_equal(arena_strndup(&a, "abcdef", 2), "ab");
    assert_string_equal(arena_printf(&a, "%s-%03d", "x", 7), "x-007");
    void **items = NULL;
    size_t n = 0, cap = 0;
    for (int i = 0; i < 100; i++)
        arena_push(&a, &items, &n, &cap, (void *)(uintptr_t)(i + 1));
    assert_int_equal(n, 100);
    assert_int_equal((uintptr_t)items[99], 100);
    arena_release(&a);
}

/*
 * Allocations and printf'd strings across chunk ends, large blocks (which go
 * behind the current chunk) among them: every string keeps its text, every
 * block its size and alignment.
 */
static void test_arena_across_chunks(void **state)
{
    struct arena a = ARENA_INIT;
    char *strs[400];
    for (int i = 0; i < 400; i++) {
        strs[i] = arena_printf(&a, "%d:%0*d", i, i * 7 % 1000 + 1, 0);
        char *block = arena_alloc(&a, i % 50 == 0 ? 100000 : (size_t)(i * 13 % 700));
        assert_int_equal((uintptr_t)block % ARENA_ALIGN, 0);
        memset(block, 0xaa, i % 50 == 0 ? 100000 : (size_t)(i * 13 % 700));
    }
    for (int i = 0; i < 400; i++) {
        char want[16];
        snprintf(want, sizeof(want), "%d:", i);
        assert_memory_equal(strs[i], want, strlen(want));
        assert_int_equal(strlen(strs[i]), strlen(want) + (size_t)(i * 7 % 1000 + 1));
    }
    arena_release(&a);
    assert_non_null(arena_alloc(&a, 0)); /* reusable after release */
    arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buf_empty_is_never_null),
        cmocka_unit_test(test_buf_addf_grows),
        cmocka_unit_test(test_buf_reset_keeps_storage),
        cmocka_unit_test(test_buf_addn_every_length),
        cmocka_unit_test(test_buf_put_every_length),
        cmocka_unit_test(test_buf_addspaces_any_width),
        cmocka_unit_test(test_arena_alignment_and_strings),
        cmocka_unit_test(test_arena_across_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
