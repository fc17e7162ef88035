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
    m->cap = 16;
    m->n = 0;
    m->slots = xcalloc(m->cap, sizeof(*m->slots));
}

void check_map_release(struct check_map *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->n = 0;
}

static struct check_map_entry *map_slot(struct check_map_entry *slots, size_t cap, const char *key)
{
    size_t i = (size_t)hash_str(key) & (cap - 1);
    while (slots[i].key && strcmp(slots[i].key, key) != 0)
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

static void map_grow(struct check_map *m)
{
    size_t ncap = m->cap * 2;
    struct check_map_entry *ns = xcalloc(ncap, sizeof(*ns));
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key)
            *map_slot(ns, ncap, m->slots[i].key) = m->slots[i];
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
}

struct check_map_entry *check_map_put(struct check_map *m, const char *key, bool *found)
{
    if (2 * (m->n + 1) > m->cap)
        map_grow(m);
    struct check_map_entry *e = map_slot(m->slots, m->cap, key);
    *found = e->key != NULL;
    if (!*found) {
        e->key = key;
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
