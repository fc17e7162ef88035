/*
 * dt - the data tree templates render: JSON-shaped values in an arena.
 *
 * Why not jansson objects: a spec of 32,768 fields makes about 1.3 million
 * keys, and a jansson object pays a hash table, a malloc per member and a
 * copy per string for each. Here a value is one arena allocation, an object
 * is an array of members in insertion order, found by a scan that compares
 * lengths first (a template's objects hold tens of keys; the renderer
 * remembers where it found a name, so most lookups scan nothing), strings may
 * borrow memory that outlives the tree, and a whole tree goes with its arena.
 * jansson stays the JSON reader and writer: dt_from_json() and dt_to_json()
 * convert at the edges (regc render's data files, --dump-context).
 *
 * Setting a key that exists replaces its value in place, so the order of
 * keys is the order they were first set (the JSON export relies on it).
 * Keys are borrowed: string literals, or memory that outlives the tree.
 * Builders that know a key is new use dt_add(), which appends without
 * searching, with the length of a literal key known at compile time (DT_KEY).
 */
#ifndef REGC_DT_H
#define REGC_DT_H

#include "arena.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dt_type { DT_NULL, DT_FALSE, DT_TRUE, DT_INT, DT_REAL, DT_STR, DT_LIST, DT_OBJ };

struct dt;

struct dt_member {
    const char *key;    /* borrowed */
    unsigned len : 31;  /* strlen(key) */
    unsigned fixed : 1; /* 'key' has static storage (a literal): the address alone names it */
    struct dt *val;
};

/* A key with its length, to add or look up without measuring it again. */
struct dt_key {
    const char *s;      /* borrowed; NUL-terminated */
    unsigned len : 31;  /* strlen(s) */
    unsigned fixed : 1; /* 's' has static storage (DT_KEY, dt_key_lit) */
};

struct dt {
    enum dt_type type;
    uint32_t n, cap;       /* LIST: items; OBJ: members */
    union {
        long long i;
        double r;
        struct {
            const char *s; /* NUL-terminated; may hold NULs before 'len' (from JSON) */
            size_t len;
        } str;
        struct dt **items;
        struct dt_member *members;
    } u;
};

/* The key 's' with its length; dt_key_lit() for a string with static storage. */
struct dt_key dt_key(const char *s);
struct dt_key dt_key_lit(const char *s);

/* DT_KEY("name"): the key of a string literal. */
#define DT_KEY(lit) ((struct dt_key){.s = "" lit "", .len = sizeof(lit) - 1, .fixed = 1})

/* Shared constants: never modified. */
struct dt *dt_null(void);
struct dt *dt_bool(bool b);
struct dt *dt_int(struct arena *a, long long i);
struct dt *dt_real(struct arena *a, double r);
/* A copy of 's' (NULL: null). */
struct dt *dt_str(struct arena *a, const char *s);
struct dt *dt_strn(struct arena *a, const char *s, size_t len);
/* 's' itself, which must outlive the tree (NULL: null). */
struct dt *dt_str_ref(struct arena *a, const char *s);
/* The 'len' bytes at 's' itself (s[len] must be NUL), which must outlive the tree. */
struct dt *dt_str_refn(struct arena *a, const char *s, size_t len);
struct dt *dt_obj(struct arena *a);
/* An object with room for 'n' members before its array grows (builders that know the count). */
struct dt *dt_obj_n(struct arena *a, uint32_t n);
struct dt *dt_list(struct arena *a);

/* Adds or replaces 'key' of object 'o' (borrowed key). */
void dt_set(struct arena *a, struct dt *o, const char *key, struct dt *v);
/*
 * Adds 'k', which 'o' must not hold yet, without searching for it: the
 * builders make fresh objects with distinct keys. Builds with
 * AddressSanitizer (make check SAN=1) check that the key is new (BUG
 * otherwise); others trust it. Inline: most objects have room,
 * and then an add is a store.
 */
void dt_add_slow(struct arena *a, struct dt *o, struct dt_key k, struct dt *v);
void dt_add_check(const struct dt *o, struct dt_key k);
#if defined(__SANITIZE_ADDRESS__)
#define DT_CHECK_ADD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DT_CHECK_ADD 1
#endif
#endif
static inline void dt_add(struct arena *a, struct dt *o, struct dt_key k, struct dt *v)
{
#ifdef DT_CHECK_ADD
    dt_add_check(o, k);
#endif
    if (o->n < o->cap) {
        o->u.members[o->n++] = (struct dt_member){k.s, k.len, k.fixed, v};
    } else {
        dt_add_slow(a, o, k, v);
    }
}
/* The same with a key copied into 'a'. */
void dt_set_copy(struct arena *a, struct dt *o, const char *key, struct dt *v);
void dt_push(struct arena *a, struct dt *list, struct dt *v);

/* Member 'key' of 'o', or NULL (also when 'o' is not an object). */
struct dt *dt_get(const struct dt *o, const char *key);
struct dt *dt_getn(const struct dt *o, const char *key, size_t len);
/* The member itself (its index: the pointer minus o->u.members), or NULL. */
const struct dt_member *dt_member_getn(const struct dt *o, const char *key, size_t len);

static inline bool dt_is(const struct dt *v, enum dt_type t)
{
    return v && v->type == t;
}

/* List length (0 for anything else) and item 'i' (NULL when out of range). */
size_t dt_len(const struct dt *list);
struct dt *dt_at(const struct dt *list, size_t i);
/* Each item of a list: DT_FOREACH(list, i, v) { ... } */
#define DT_FOREACH(list, i, v)                                                                     \
    for ((i) = 0; (i) < dt_len(list) && ((v) = dt_at((list), (i))); (i)++)

/* String value, or NULL; integer value, or 0. */
const char *dt_str_value(const struct dt *v);
long long dt_int_value(const struct dt *v);

/* A copy of a jansson value (keys and strings copied into 'a'). */
struct dt *dt_from_json(struct arena *a, const json_t *j);
/* A new jansson value with the same content and key order (NULL pointer: null). */
json_t *dt_to_json(const struct dt *v);

#endif
