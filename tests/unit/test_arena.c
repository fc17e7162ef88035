/*
 * test_arena - what the arena promises its users: allocations aligned for
 * pointers, 64-bit integers and doubles (ARENA_ALIGN), text packed at its length (a million registers hold some ten
 * strings each), arena_clear() reusing the newest chunk for the next round
 * while the older ones, large blocks included, go, and arena_push_cap()
 * agreeing with arena_push().
 */
#include "arena.h"

#include <setjmp.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* The types regc keeps in an arena, each by the compiler's own alignment for it. */
static bool aligned(const void *p)
{
    uintptr_t u = (uintptr_t)p;
    return u % alignof(void *) == 0 && u % alignof(uint64_t) == 0 && u % alignof(double) == 0 &&
           u % alignof(size_t) == 0;
}

/* Objects stay aligned for those types whatever text came before them. */
static void test_alloc_aligned(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    for (size_t n = 0; n < 40; n++) {
        assert_non_null(arena_strndup(&a, "abcdefghijklmnopqrstuvwxyz0123456789ABCD", n));
        void *p = arena_alloc(&a, n);
        assert_true(aligned(p));
        memset(p, 0xa5, n); /* ASan: the n bytes are ours */
        assert_true(aligned(arena_zalloc(&a, 3)));
    }
    arena_release(&a);
}

/* Text takes its length and its NUL, no alignment: consecutive copies are adjacent. */
static void test_text_packed(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    char *x = arena_strdup(&a, "RW");
    char *y = arena_strdup(&a, "f0");
    char *z = arena_printf(&a, "%s=%d", "width", 64);
    char *w = arena_strndup(&a, "OFF and more", 3);
    assert_ptr_equal(y, x + 3);
    assert_ptr_equal(z, y + 3);
    assert_ptr_equal(w, z + 9);
    assert_string_equal(x, "RW");
    assert_string_equal(y, "f0");
    assert_string_equal(z, "width=64");
    assert_string_equal(w, "OFF");
    arena_release(&a);
}

/* After arena_clear() the next round starts where the last one did: one chunk is reused. */
static void test_clear_reuses(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    for (int round = 0; round < 5; round++) {
        /* more than a chunk, and a large block (it goes behind the head chunk) */
        for (int i = 0; i < 2000; i++)
            memset(arena_alloc(&a, 100), round, 100);
        memset(arena_alloc(&a, 256 * 1024), round, 256 * 1024);
        memset(arena_alloc(&a, 16), round, 16);
        arena_clear(&a);
        char *r = arena_alloc(&a, 100);
        memset(r, 2, 100); /* ASan: the chunk kept is still ours */
        assert_true(aligned(r));
        arena_clear(&a);
        assert_ptr_equal(arena_alloc(&a, 100), r);
        arena_clear(&a);
    }
    arena_release(&a);
    arena_clear(&a); /* an empty arena: nothing to keep */
    assert_null(a.head);
    assert_non_null(arena_alloc(&a, 1));
    arena_release(&a);
}

/* arena_push_cap(n) is the capacity arena_push() gave a list of n items: a list whose
 * capacity was not kept (svd_model.c) gets it back from there, so it must be the same. */
static void test_push_cap(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    void **items = NULL;
    size_t n = 0, cap = 0;
    assert_int_equal(arena_push_cap(0), 0);
    for (size_t i = 0; i < 100; i++) {
        arena_push(&a, &items, &n, &cap, (void *)(uintptr_t)(i + 1));
        assert_int_equal(cap, arena_push_cap(n));
        assert_true(cap >= n);
    }
    for (size_t i = 0; i < n; i++)
        assert_ptr_equal(items[i], (void *)(uintptr_t)(i + 1));
    arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alloc_aligned),
        cmocka_unit_test(test_text_packed),
        cmocka_unit_test(test_clear_reuses),
        cmocka_unit_test(test_push_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
