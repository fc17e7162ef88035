/*
 * Unit tests for common/map.c and common/grow.c: the one hash map and the
 * one array-growth helper of regc and libregrt. The map is compared with a
 * linear search over the same keys (the independent statement of what a map
 * holds), never with its own index.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "map.h"

#define NKEYS 5000

/* Keys "k0".."k4999", then the same again: each key's first entry holds its index + 1. */
static void test_map_put_find_against_linear_search(void **state)
{
    static char keys[NKEYS][16];
    struct regc_map m;
    regc_map_init(&m);
    for (size_t i = 0; i < NKEYS; i++) {
        snprintf(keys[i], sizeof(keys[i]), "k%zu", i);
        bool found = true;
        struct regc_map_entry *e = regc_map_put_str(&m, keys[i], &found);
        assert_non_null(e);
        assert_false(found);
        assert_null(e->val);
        e->val = (void *)(uintptr_t)(i + 1);
    }
    assert_int_equal(m.n, NKEYS);
    for (size_t i = 0; i < NKEYS; i++) {
        char again[16]; /* another copy: keys compare by content, not address */
        snprintf(again, sizeof(again), "k%zu", i);
        bool found = false;
        struct regc_map_entry *e = regc_map_put_str(&m, again, &found);
        assert_true(found);
        assert_int_equal((uintptr_t)e->val, i + 1);
        assert_ptr_equal(e->key, keys[i]);
        /* insertion order: entry i is key i, as a linear list would have it */
        assert_string_equal((const char *)m.entries[i].key, keys[i]);
        assert_ptr_equal(regc_map_find_str(&m, again), e);
    }
    assert_int_equal(m.n, NKEYS);
    assert_null(regc_map_find_str(&m, "k5000"));
    assert_null(regc_map_find_str(&m, "k"));
    assert_null(regc_map_find_str(&m, ""));
    regc_map_release(&m);
    assert_int_equal(m.n, 0);
    assert_null(m.entries);
}

/* A key is its bytes and its length: prefixes, NULs inside and the empty key are all distinct. */
static void test_map_keys_are_bytes_with_length(void **state)
{
    static const char bytes[] = "abc\0abc\0";
    const size_t lens[] = {0, 1, 2, 3, 4, 5, 7, 8, 9};
    struct regc_map m = REGC_MAP_INIT;
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        bool found;
        struct regc_map_entry *e = regc_map_put(&m, bytes, lens[i], &found);
        assert_false(found);
        e->val = (void *)(uintptr_t)(i + 1);
    }
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        struct regc_map_entry *e = regc_map_find(&m, bytes, lens[i]);
        assert_non_null(e);
        assert_int_equal(e->len, lens[i]);
        assert_int_equal((uintptr_t)e->val, i + 1);
    }
    /* the same bytes at another address */
    char copy[9];
    memcpy(copy, bytes, 9);
    assert_int_equal((uintptr_t)regc_map_find(&m, copy + 4, 3)->val, 4);
    regc_map_release(&m);
}

/* Keyed by other data: a struct with its padding zeroed. */
struct point {
    int kind;
    uint64_t addr;
};

static void test_map_struct_keys(void **state)
{
    static struct point pts[300];
    struct regc_map m = REGC_MAP_INIT;
    for (size_t i = 0; i < 300; i++) {
        memset(&pts[i], 0, sizeof(pts[i]));
        pts[i].kind = (int)(i % 3);
        pts[i].addr = 0xC00 + i / 3;
        bool found;
        regc_map_put(&m, &pts[i], sizeof(pts[i]), &found)->val = &pts[i];
        assert_false(found);
    }
    struct point q;
    memset(&q, 0, sizeof(q));
    q.kind = 2;
    q.addr = 0xC00 + 299 / 3;
    assert_ptr_equal(regc_map_find(&m, &q, sizeof(q))->val, &pts[299]);
    q.kind = 3;
    assert_null(regc_map_find(&m, &q, sizeof(q)));
    regc_map_release(&m);
}

/* Cleared, a map holds nothing, keeps its arrays and fills again. */
static void test_map_clear_keeps_storage(void **state)
{
    struct regc_map m = REGC_MAP_INIT;
    bool found;
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 40; i++) {
            char *k = malloc(8);
            snprintf(k, 8, "n%d", i);
            regc_map_put_str(&m, k, &found)->val = k;
            assert_false(found);
        }
        const void *entries = m.entries, *slots = m.slots;
        for (size_t i = 0; i < m.n; i++)
            free(m.entries[i].val);
        regc_map_clear(&m);
        assert_int_equal(m.n, 0);
        assert_null(regc_map_find_str(&m, "n0"));
        assert_ptr_equal(m.entries, entries);
        assert_ptr_equal(m.slots, slots);
    }
    regc_map_release(&m);
}

/*
 * The hash: the same for the same bytes wherever they are, and every bit of
 * a 24-byte key moves both the low bits (the slot) and the high half (the tag).
 */
static void test_map_hash_depends_on_every_byte(void **state)
{
    unsigned char key[24] = "GENERATED_NAME_OF_24_B!";
    unsigned char copy[32];
    memcpy(copy + 3, key, sizeof(key));
    uint64_t h = regc_map_hash(key, sizeof(key));
    assert_true(regc_map_hash(copy + 3, sizeof(key)) == h);
    for (size_t bit = 0; bit < 8 * sizeof(key); bit++) {
        key[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        uint64_t g = regc_map_hash(key, sizeof(key));
        key[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        assert_true((g & 0xFFFF) != (h & 0xFFFF) || (g >> 48) != (h >> 48));
        assert_true((g >> 32) != (h >> 32));
        assert_true((uint32_t)g != (uint32_t)h);
    }
    /* lengths 0..8 on the short path: a shorter prefix is another key */
    for (size_t n = 1; n <= 8; n++)
        assert_true(regc_map_hash(key, n) != regc_map_hash(key, n - 1));
}

/* Each byte of a name, at every length up to 40, changes its hash (the last word overlaps). */
static void test_map_hash_sees_every_byte_of_names(void **state)
{
    char s[41], t[41];
    for (size_t n = 1; n <= 40; n++) {
        memset(s, 'A', n);
        s[n] = '\0';
        for (size_t i = 0; i < n; i++) {
            memcpy(t, s, n + 1);
            t[i] = 'B';
            assert_true(regc_map_hash(t, n) != regc_map_hash(s, n));
        }
        assert_true(regc_map_hash(s, n - 1) != regc_map_hash(s, n)); /* one byte shorter */
    }
}

static void test_grow_doubles_and_keeps_items(void **state)
{
    int *v = NULL;
    size_t cap = 0, n = 0;
    for (int i = 0; i < 1000; i++) {
        int *g = regc_grow(v, &cap, n + 1, sizeof(*v));
        assert_non_null(g);
        assert_true(cap >= n + 1);
        v = g;
        v[n++] = i;
    }
    for (int i = 0; i < 1000; i++)
        assert_int_equal(v[i], i);
    assert_true(cap < 2 * 1000 + 8); /* doubling: never more than twice what is needed */
    size_t before = cap;
    assert_ptr_equal(regc_grow(v, &cap, 10, sizeof(*v)), v); /* large enough: unchanged */
    assert_int_equal(cap, before);
    int *g = regc_grow(v, &cap, 5000, sizeof(*v)); /* a jump beyond double: exactly 'need' */
    assert_non_null(g);
    assert_int_equal(cap, 5000);
    free(g);
}

/* A size that overflows is refused, the array untouched, as realloc() leaves it. */
static void test_grow_overflow_is_null(void **state)
{
    size_t cap = 0;
    char *v = regc_grow(NULL, &cap, 3, 1);
    assert_non_null(v);
    size_t before = cap;
    assert_null(regc_grow(v, &cap, SIZE_MAX / 8 + 2, 8));
    assert_int_equal(cap, before);
    v[0] = 'x'; /* still ours */
    free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_map_put_find_against_linear_search),
        cmocka_unit_test(test_map_keys_are_bytes_with_length),
        cmocka_unit_test(test_map_struct_keys),
        cmocka_unit_test(test_map_clear_keeps_storage),
        cmocka_unit_test(test_map_hash_depends_on_every_byte),
        cmocka_unit_test(test_map_hash_sees_every_byte_of_names),
        cmocka_unit_test(test_grow_doubles_and_keeps_items),
        cmocka_unit_test(test_grow_overflow_is_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
