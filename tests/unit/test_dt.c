/*
 * Unit tests for compiler/dt.c: the arena data tree templates render.
 * The renderer and the context builder rely on these properties: keys keep
 * the order they were first set in, setting a key again replaces its value
 * in place, lookups find every key of small and large objects, and the
 * jansson conversions are exact both ways.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "dt.h"

static void test_scalars(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    assert_true(dt_is(dt_null(), DT_NULL));
    assert_true(dt_is(dt_bool(true), DT_TRUE));
    assert_true(dt_is(dt_bool(false), DT_FALSE));
    assert_int_equal(dt_int_value(dt_int(&a, -7)), -7);
    assert_true(dt_is(dt_str(&a, NULL), DT_NULL));
    assert_true(dt_is(dt_str_ref(&a, NULL), DT_NULL));
    char buf[] = "copied";
    struct dt *s = dt_str(&a, buf), *r = dt_str_ref(&a, buf);
    buf[0] = 'C';
    assert_string_equal(dt_str_value(s), "copied"); /* a copy */
    assert_string_equal(dt_str_value(r), "Copied"); /* the caller's memory */
    assert_null(dt_str_value(dt_int(&a, 1)));
    assert_int_equal(dt_int_value(s), 0);
    assert_false(dt_is(NULL, DT_NULL));
    arena_release(&a);
}

/*
 * Keys in first-set order; a second set replaces in place; 'n' objects each
 * size. 'add': every other key is added with dt_add() (no search), the rest
 * with dt_set(): both find them the same way.
 */
static void check_object(size_t n, bool add)
{
    struct arena a = ARENA_INIT;
    struct dt *o = dt_obj(&a);
    char keys[80][32];
    for (size_t i = 0; i < n; i++) {
        snprintf(keys[i], sizeof(keys[i]), "key_%zu", i);
        if (add && i % 2 == 0)
            dt_add(&a, o, dt_key(keys[i]), dt_int(&a, (long long)i));
        else
            dt_set(&a, o, keys[i], dt_int(&a, (long long)i));
    }
    assert_int_equal(o->n, n);
    for (size_t i = 0; i < n; i += 3)
        dt_set(&a, o, keys[i], dt_int(&a, 1000 + (long long)i));
    assert_int_equal(o->n, n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(o->u.members[i].key, keys[i]);
        long long want = i % 3 ? (long long)i : 1000 + (long long)i;
        assert_int_equal(dt_int_value(dt_get(o, keys[i])), want);
    }
    /* misses: absent keys, prefixes and extensions of present ones, other types */
    assert_null(dt_get(o, "absent"));
    assert_null(dt_get(o, "key_"));
    assert_null(dt_get(o, "key_00"));
    /* the length given counts, not the NUL: "key_1x" cut to 5 is key_1, cut to 4 nothing */
    if (n > 1)
        assert_non_null(dt_getn(o, "key_1x", 5));
    assert_null(dt_getn(o, "key_1x", 4));
    assert_null(dt_get(dt_list(&a), "key_0"));
    assert_null(dt_get(NULL, "key_0"));
    arena_release(&a);
}

static void test_object_scanned(void **state)
{
    (void)state;
    for (size_t n = 1; n <= 32; n++) {
        check_object(n, false);
        check_object(n, true);
    }
}

static void test_object_large(void **state)
{
    (void)state;
    for (size_t n = 33; n <= 80; n++) { /* arrays grown at 33 and 65 members */
        check_object(n, false);
        check_object(n, true);
    }
}

/* Objects made with room for n members hold more. */
static void test_object_presized(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    const uint32_t rooms[] = {0, 1, 3, 40, 64};
    char keys[70][16];
    for (size_t r = 0; r < sizeof(rooms) / sizeof(rooms[0]); r++) {
        struct dt *o = dt_obj_n(&a, rooms[r]);
        assert_true(o->cap >= rooms[r]);
        for (size_t i = 0; i < 70; i++) {
            snprintf(keys[i], sizeof(keys[i]), "k%zu", i);
            dt_add(&a, o, dt_key(keys[i]), dt_int(&a, (long long)i));
        }
        for (size_t i = 0; i < 70; i++)
            assert_int_equal(dt_int_value(dt_get(o, keys[i])), i);
        assert_null(dt_get(o, "k70"));
    }
    arena_release(&a);
}

/* DT_KEY gives a literal's length and marks it static storage. */
static void test_key_literal(void **state)
{
    (void)state;
    const struct dt_key keys[] = {
        DT_KEY(""),
        DT_KEY("a"),
        DT_KEY("c_desc_lines"),
        DT_KEY("0123456789abcdef"),
        DT_KEY("0123456789abcdefg"),
        DT_KEY("0123456789abcdef0123456789abcdef"),
        DT_KEY("0123456789abcdef0123456789abcdef!"),
        DT_KEY("a key longer than thirty-two bytes, hashed at run time"),
    };
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        struct dt_key k = dt_key(keys[i].s);
        assert_int_equal(keys[i].len, strlen(keys[i].s));
        assert_int_equal(keys[i].len, k.len);
    }
    assert_true(DT_KEY("name").fixed);
    assert_true(dt_key_lit("name").fixed);
    assert_false(dt_key("name").fixed);
    struct arena a = ARENA_INIT;
    struct dt *o = dt_obj(&a);
    dt_add(&a, o, DT_KEY("c_desc_lines"), dt_int(&a, 1));
    dt_add(&a, o, DT_KEY("name"), dt_int(&a, 2));
    assert_int_equal(dt_int_value(dt_get(o, "c_desc_lines")), 1);
    assert_int_equal(dt_int_value(dt_get(o, "name")), 2);
    assert_null(dt_get(o, "nam"));
    /* members say whether their key is static storage; dt_member_getn finds them */
    char copy[] = "copied";
    dt_set(&a, o, copy, dt_int(&a, 3));
    const struct dt_member *m = dt_member_getn(o, "name", 4);
    assert_non_null(m);
    assert_int_equal(m - o->u.members, 1);
    assert_true(m->fixed);
    m = dt_member_getn(o, "copied", 6);
    assert_non_null(m);
    assert_false(m->fixed);
    assert_null(dt_member_getn(o, "absent", 6));
    assert_null(dt_member_getn(dt_list(&a), "name", 4));
    arena_release(&a);
}

static void test_set_copy(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    struct dt *o = dt_obj(&a);
    char key[] = "t_name";
    dt_set_copy(&a, o, key, dt_int(&a, 1));
    key[0] = 'x';
    assert_int_equal(dt_int_value(dt_get(o, "t_name")), 1);
    assert_null(dt_get(o, "x_name"));
    arena_release(&a);
}

static void test_list(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    struct dt *l = dt_list(&a);
    for (long long i = 0; i < 100; i++)
        dt_push(&a, l, dt_int(&a, i));
    assert_int_equal(dt_len(l), 100);
    size_t i;
    struct dt *v;
    long long sum = 0;
    DT_FOREACH(l, i, v) {
        sum += dt_int_value(v);
    }
    assert_int_equal(sum, 4950);
    assert_null(dt_at(l, 100));
    assert_int_equal(dt_len(dt_obj(&a)), 0);
    assert_null(dt_at(NULL, 0));
    arena_release(&a);
}

static void test_json_round_trip(void **state)
{
    (void)state;
    const char *text = "{\"b\": [1, -2, 2.5, true, false, null, \"x\\u0000y\"],"
                       " \"a\": {\"z\": {}, \"y\": []}, \"\": \"empty key\"}";
    json_error_t err;
    json_t *j = json_loads(text, JSON_ALLOW_NUL, &err);
    assert_non_null(j);
    struct arena a = ARENA_INIT;
    struct dt *d = dt_from_json(&a, j);
    /* key order as in the text, not sorted */
    assert_string_equal(d->u.members[0].key, "b");
    assert_string_equal(d->u.members[1].key, "a");
    struct dt *s = dt_at(dt_get(d, "b"), 6);
    assert_int_equal(s->u.str.len, 3); /* the NUL inside is kept */
    json_t *back = dt_to_json(d);
    assert_true(json_equal(j, back));
    char *t1 = json_dumps(j, JSON_PRESERVE_ORDER), *t2 = json_dumps(back, JSON_PRESERVE_ORDER);
    assert_string_equal(t1, t2);
    free(t1);
    free(t2);
    json_decref(back);
    json_decref(j);
    json_t *n = dt_to_json(NULL);
    assert_true(json_is_null(n));
    json_decref(n);
    arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalars),        cmocka_unit_test(test_object_scanned),
        cmocka_unit_test(test_object_large), cmocka_unit_test(test_set_copy),
        cmocka_unit_test(test_list),           cmocka_unit_test(test_json_round_trip),
        cmocka_unit_test(test_key_literal),    cmocka_unit_test(test_object_presized),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
