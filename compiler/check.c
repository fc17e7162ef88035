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

static uint64_t hash_str(const char *s)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return h;
}

void check_map_init(struct check_map *m)
{
    m->slots = NULL;
    m->cap = m->n = 0;
}

void check_map_release(struct check_map *m)
{
    free(m->slots);
    check_map_init(m);
}

static struct check_map_entry *map_slot(struct check_map_entry *slots, size_t cap, const char *key,
                                        uint64_t h)
{
    size_t i = (size_t)h & (cap - 1);
    while (slots[i].key && (slots[i].hash != h || strcmp(slots[i].key, key) != 0))
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

static void map_rehash(struct check_map *m, struct check_map_entry *old, size_t n, size_t ncap)
{
    struct check_map_entry *ns = xcalloc(ncap, sizeof(*ns));
    for (size_t i = 0; i < n; i++)
        if (old[i].key)
            *map_slot(ns, ncap, old[i].key, old[i].hash) = old[i];
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
}

static struct check_map_entry *small_put(struct check_map *m, const char *key, bool *found)
{
    for (size_t i = 0; i < m->n; i++) {
        if (strcmp(m->small[i].key, key) == 0) {
            *found = true;
            return &m->small[i];
        }
    }
    *found = false;
    m->small[m->n] = (struct check_map_entry){.key = key, .hash = hash_str(key)};
    return &m->small[m->n++];
}

struct check_map_entry *check_map_put(struct check_map *m, const char *key, bool *found)
{
    if (!m->slots && m->n < CHECK_MAP_SMALL)
        return small_put(m, key, found);
    if (!m->slots)
        map_rehash(m, m->small, m->n, 4 * CHECK_MAP_SMALL);
    else if (2 * (m->n + 1) > m->cap)
        map_rehash(m, m->slots, m->cap, 2 * m->cap);
    uint64_t h = hash_str(key);
    struct check_map_entry *e = map_slot(m->slots, m->cap, key, h);
    *found = e->key != NULL;
    if (!*found) {
        *e = (struct check_map_entry){.key = key, .hash = h};
        m->n++;
    }
    return e;
}

const char *check_bits(struct check_ctx *c, const struct model_field *f)
{
    if (f->msb == f->lsb)
        return arena_printf(c->a, "[%u]", f->lsb);
    return arena_printf(c->a, "[%u:%u]", f->msb, f->lsb);
}

int check_spec(struct arena *a, struct diag *dg, struct model_spec *s)
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
    check_name_collision(&c);
    return dg->nerrors > errors ? -1 : 0;
}
