#include "map.h"
#include "grow.h"

#include <stdlib.h>

void regc_map_init(struct regc_map *m)
{
    *m = (struct regc_map)REGC_MAP_INIT;
}

void regc_map_release(struct regc_map *m)
{
    free(m->entries);
    free(m->slots);
    regc_map_init(m);
}

void regc_map_clear(struct regc_map *m)
{
    if (m->n && m->slots)
        memset(m->slots, 0, m->nslots * sizeof(*m->slots));
    m->n = 0;
}

/*
 * A multiply and a shift per 8-byte word (the last word is the key's last
 * eight bytes, overlapping the one before), then a final mix so the low bits
 * (the slot) and the high half (the tag) both depend on every byte.
 * Byte-wise FNV-1a cost about 6 instructions a byte on names of 20-40 bytes.
 */
uint64_t regc_map_hash(const void *key, size_t len)
{
    const uint64_t k = UINT64_C(0x9E3779B97F4A7C15);
    const unsigned char *s = key;
    size_t n = len;
    uint64_t h = n * k, w = 0;
    if (n < 8) {
        for (size_t i = 0; i < n; i++)
            w |= (uint64_t)s[i] << (8 * i);
    } else {
        for (; n > 8; n -= 8, s += 8) {
            memcpy(&w, s, 8);
            h = (h ^ w) * k;
            h ^= h >> 29;
        }
        memcpy(&w, s + n - 8, 8);
    }
    h = (h ^ w) * k;
    h ^= h >> 32;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    return h ^ (h >> 29);
}

static bool entry_is(const struct regc_map_entry *e, const void *key, size_t len, uint64_t h)
{
    return e->hash == h && e->len == len && memcmp(e->key, key, len) == 0;
}

/* The slot of the key, or the empty slot where it would go. */
static struct regc_map_slot *slot_of(const struct regc_map *m, const void *key, size_t len,
                                     uint64_t h)
{
    uint32_t tag = (uint32_t)(h >> 32);
    for (size_t i = (size_t)h & (m->nslots - 1);; i = (i + 1) & (m->nslots - 1)) {
        struct regc_map_slot *sl = &m->slots[i];
        if (!sl->entry || (sl->tag == tag && entry_is(&m->entries[sl->entry - 1], key, len, h)))
            return sl;
    }
}

/* A new index of 'nslots' slots over the entries; -1 when memory runs out. */
static int reindex(struct regc_map *m, size_t nslots)
{
    struct regc_map_slot *slots = calloc(nslots, sizeof(*slots));
    if (!slots)
        return -1;
    free(m->slots);
    m->slots = slots;
    m->nslots = nslots;
    for (size_t i = 0; i < m->n; i++) {
        const struct regc_map_entry *e = &m->entries[i];
        *slot_of(m, e->key, e->len, e->hash) = (struct regc_map_slot){(uint32_t)(e->hash >> 32),
                                                                      (uint32_t)i + 1};
    }
    return 0;
}

struct regc_map_entry *regc_map_find(const struct regc_map *m, const void *key, size_t len)
{
    if (!m->n)
        return NULL;
    struct regc_map_slot *sl = slot_of(m, key, len, regc_map_hash(key, len));
    return sl->entry ? &m->entries[sl->entry - 1] : NULL;
}

struct regc_map_entry *regc_map_put(struct regc_map *m, const void *key, size_t len, bool *found)
{
    return regc_map_put_hashed(m, key, len, regc_map_hash(key, len), found);
}

struct regc_map_entry *regc_map_put_hashed(struct regc_map *m, const void *key, size_t len,
                                           uint64_t h, bool *found)
{
    *found = false;
    if (m->n >= UINT32_MAX - 1)
        return NULL;
    if (2 * (m->n + 1) > m->nslots && reindex(m, m->nslots ? 2 * m->nslots : 16) < 0)
        return NULL;
    struct regc_map_slot *sl = slot_of(m, key, len, h);
    if (sl->entry) {
        *found = true;
        return &m->entries[sl->entry - 1];
    }
    struct regc_map_entry *entries =
        regc_grow(m->entries, &m->entries_cap, m->n + 1, sizeof(*m->entries));
    if (!entries)
        return NULL;
    m->entries = entries;
    m->entries[m->n] = (struct regc_map_entry){key, len, h, NULL};
    *sl = (struct regc_map_slot){(uint32_t)(h >> 32), (uint32_t)++m->n};
    return &m->entries[m->n - 1];
}
