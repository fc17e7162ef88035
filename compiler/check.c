/*
 * check - the driver of the checker and the helpers its passes share.
 * Model in, diagnostics out; no I/O, no libxml2. The rules themselves live
 * in check_names.c, check_refs.c, check_reg.c, check_addr.c, check_events.c
 * and check_pmon.c, one static function per diagnostic.
 */
#include "check.h"
#include "check_int.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/*
 * Eight bytes at a time: the collision check hashes a few hundred thousand
 * names of 20-40 bytes, and byte-wise FNV-1a cost about 6 instructions a byte.
 * A multiply and a shift per word (the last word is the string's last eight
 * bytes, overlapping the one before), then a final mix so the low bits (the
 * slot) and the high half (the tag) both depend on every byte.
 */
uint64_t check_hash_str(const char *s)
{
    const uint64_t k = UINT64_C(0x9E3779B97F4A7C15);
    size_t n = strlen(s);
    uint64_t h = n * k, w = 0;
    if (n < 8) {
        for (size_t i = 0; i < n; i++)
            w |= (uint64_t)(unsigned char)s[i] << (8 * i);
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

void check_map_init(struct check_map *m)
{
    *m = (struct check_map){0};
}

void check_map_release(struct check_map *m)
{
    free(m->entries);
    free(m->slots);
    check_map_init(m);
}

void check_map_reset(struct check_map *m)
{
    free(m->slots);
    m->slots = NULL;
    m->n = m->cap = 0;
}

static struct check_map_slot *map_slot(const struct check_map *m, const char *key, uint64_t h)
{
    uint32_t tag = (uint32_t)(h >> 32);
    size_t i = (size_t)h & (m->cap - 1);
    for (;; i = (i + 1) & (m->cap - 1)) {
        struct check_map_slot *sl = &m->slots[i];
        if (!sl->entry)
            return sl;
        const struct check_map_entry *e = &m->entries[sl->entry - 1];
        if (sl->tag == tag && e->hash == h && strcmp(e->key, key) == 0)
            return sl;
    }
}

static void map_reindex(struct check_map *m, size_t ncap)
{
    free(m->slots);
    m->slots = xcalloc(ncap, sizeof(*m->slots));
    m->cap = ncap;
    for (size_t i = 0; i < m->n; i++) {
        struct check_map_slot *sl = map_slot(m, m->entries[i].key, m->entries[i].hash);
        *sl = (struct check_map_slot){(uint32_t)(m->entries[i].hash >> 32), (uint32_t)i + 1};
    }
}

struct check_map_entry *check_map_put(struct check_map *m, const char *key, bool *found)
{
    return check_map_put_hashed(m, key, check_hash_str(key), found);
}

struct check_map_entry *check_map_put_hashed(struct check_map *m, const char *key, uint64_t h,
                                             bool *found)
{
    struct check_map_slot *sl = NULL;
    if (m->slots) {
        sl = map_slot(m, key, h);
        if (sl->entry) {
            *found = true;
            return &m->entries[sl->entry - 1];
        }
    } else {
        for (size_t i = 0; i < m->n; i++) {
            if (m->entries[i].hash == h && strcmp(m->entries[i].key, key) == 0) {
                *found = true;
                return &m->entries[i];
            }
        }
    }
    *found = false;
    if (m->n == m->entries_cap) {
        m->entries_cap = m->entries_cap ? 2 * m->entries_cap : CHECK_MAP_SMALL;
        m->entries = xrealloc(m->entries, m->entries_cap * sizeof(*m->entries));
    }
    struct check_map_entry *e = &m->entries[m->n++];
    *e = (struct check_map_entry){.key = key, .hash = h};
    if (sl && 2 * m->n <= m->cap)
        *sl = (struct check_map_slot){(uint32_t)(h >> 32), (uint32_t)m->n};
    else if (m->n > CHECK_MAP_SMALL)
        map_reindex(m, m->cap ? 2 * m->cap : 4 * CHECK_MAP_SMALL);
    return e;
}

const char *check_bits(struct check_ctx *c, const struct model_field *f)
{
    if (f->msb == f->lsb)
        return arena_printf(c->a, "[%u]", f->lsb);
    return arena_printf(c->a, "[%u:%u]", f->msb, f->lsb);
}

int check_spec(struct arena *a, struct diag *dg, struct model_spec *s, unsigned jobs)
{
    struct check_ctx c = {a, dg, s};
    unsigned errors = dg->nerrors;
    check_names(&c);
    check_refs(&c);
    check_registers(&c);
    check_addresses(&c);
    check_events(&c);
    check_rules(&c);
    check_pmon(&c);
    check_cpus(&c);
    check_name_collision(&c, jobs);
    return dg->nerrors > errors ? -1 : 0;
}
