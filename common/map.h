/*
 * map - the one hash map of the compiler and the runtime.
 *
 * Keys are byte strings with an explicit length (a name: regc_map_put_str();
 * anything else: a struct with its padding zeroed, or a few integers laid
 * out in one), borrowed: they must stay valid and unchanged while in the
 * map. Each entry holds one pointer, 'val', the caller's.
 *
 * Entries live in one array in insertion order (regc_map_entry(m, i) for
 * i < m->n, so walking a map is deterministic), found through an
 * open-addressing index of 8-byte slots (the hash's high half as a tag and
 * the entry number) kept at most half full. One hash function, regc_map_hash().
 *
 *   struct regc_map seen;
 *   regc_map_init(&seen);
 *   bool found;
 *   struct regc_map_entry *e = regc_map_put_str(&seen, name, &found);
 *   if (!e)
 *       ...out of memory (the compiler calls xmap_put(), util.h, which exits)
 *   if (found)
 *       ...'name' was put before; e->val is what was stored then
 *   else
 *       e->val = obj;
 *   regc_map_release(&seen);
 *
 * Built into both regc and libregrt (common/, see the Makefile); regc_ names
 * because libregrt.a is linked into users' programs. Not thread-safe: one
 * map per thread, or a lock around it.
 */
#ifndef REGC_MAP_H
#define REGC_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct regc_map_entry {
    const void *key; /* borrowed */
    size_t len;
    uint64_t hash; /* regc_map_hash(key, len) */
    void *val;     /* the caller's; NULL when put */
};

struct regc_map_slot {
    uint32_t tag;   /* the hash's high half */
    uint32_t entry; /* entry number + 1; 0: empty */
};

struct regc_map {
    struct regc_map_entry *entries; /* owned; n of entries_cap used, in insertion order */
    struct regc_map_slot *slots;    /* owned; nslots, a power of two, or NULL */
    size_t n, entries_cap, nslots;
};

#define REGC_MAP_INIT {NULL, NULL, 0, 0, 0}

void regc_map_init(struct regc_map *m);
/* Frees the map's arrays (not the keys or values); 'm' may be reused afterwards. */
void regc_map_release(struct regc_map *m);
/* Empties 'm', keeping its arrays: a map per scope costs no allocation per scope. */
void regc_map_clear(struct regc_map *m);

/* The hash of 'len' bytes at 'key': 8 bytes a step, every bit of the result depends on every byte. */
uint64_t regc_map_hash(const void *key, size_t len);

/* The entry for the key, or NULL. Valid until the next put. */
struct regc_map_entry *regc_map_find(const struct regc_map *m, const void *key, size_t len);
/*
 * The entry for the key: the one put before (*found true) or a new one with
 * val NULL (*found false); NULL when memory runs out (the map is unchanged).
 * Valid until the next put.
 */
struct regc_map_entry *regc_map_put(struct regc_map *m, const void *key, size_t len, bool *found);
/* The same with the key's regc_map_hash() already known (computed once, used twice). */
struct regc_map_entry *regc_map_put_hashed(struct regc_map *m, const void *key, size_t len,
                                           uint64_t hash, bool *found);

/* NUL-terminated strings as keys (the NUL not part of the key). */
static inline struct regc_map_entry *regc_map_find_str(const struct regc_map *m, const char *key)
{
    return regc_map_find(m, key, strlen(key));
}
static inline struct regc_map_entry *regc_map_put_str(struct regc_map *m, const char *key,
                                                      bool *found)
{
    return regc_map_put(m, key, strlen(key), found);
}

#endif
