/*
 * check_addr - no two concrete registers (each instance, each array element)
 * of one address space share an address. pci addresses are offsets in the
 * configuration space of one device, so they collide only under one locator.
 * One hash table over every element: linear in the number of elements.
 */
#include "check_int.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>

/* Elements beyond this many are not compared (a spec that large is a mistake of its own). */
#define MAX_ELEMENTS (UINT64_C(1) << 24)

struct addr_key {
    enum model_space space;
    uint64_t vendor, device, dev, func; /* pci locator; 0 elsewhere */
    uint64_t addr;
};

struct addr_slot {
    struct addr_key key;
    const struct model_reg *reg; /* NULL: empty */
    const struct model_instance *inst;
    unsigned index;
};

struct addr_table {
    struct addr_slot *slots;
    size_t cap;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + UINT64_C(0x9E3779B97F4A7C15) + (h << 6) + (h >> 2);
    return h;
}

static uint64_t key_hash(const struct addr_key *k)
{
    uint64_t h = mix((uint64_t)k->space, k->addr);
    h = mix(h, k->vendor);
    h = mix(h, k->device);
    h = mix(h, k->dev);
    h = mix(h, k->func);
    h ^= h >> 31;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    return h ^ (h >> 29);
}

static bool key_equal(const struct addr_key *a, const struct addr_key *b)
{
    return a->space == b->space && a->addr == b->addr && a->vendor == b->vendor &&
           a->device == b->device && a->dev == b->dev && a->func == b->func;
}

static struct addr_slot *table_slot(struct addr_table *t, const struct addr_key *k)
{
    size_t i = (size_t)key_hash(k) & (t->cap - 1);
    while (t->slots[i].reg && !key_equal(&t->slots[i].key, k))
        i = (i + 1) & (t->cap - 1);
    return &t->slots[i];
}

static const char *element_text(struct check_ctx *c, const struct model_reg *r,
                                const struct model_instance *inst, unsigned index)
{
    const char *el = r->is_array ? arena_printf(c->a, "element %u", r->first + index) : NULL;
    const char *in = inst ? arena_printf(c->a, "instance '%s'", inst->name) : NULL;
    if (el && in)
        return arena_printf(c->a, " (%s, %s)", el, in);
    if (el || in)
        return arena_printf(c->a, " (%s)", el ? el : in);
    return "";
}

static void check_address_collision(struct check_ctx *c, const struct addr_slot *old,
                                    const struct addr_slot *new)
{
    static const char *const spaces[] = {"msr", "pci", "mmio"};
    diag_report(c->dg, DIAG_ADDRESS_COLLISION, new->reg->pos,
                "register '%s'%s has the same %s address " CHECK_X " as register '%s'%s",
                new->reg->name, element_text(c, new->reg, new->inst, new->index),
                spaces[new->key.space], new->key.addr, old->reg->name,
                element_text(c, old->reg, old->inst, old->index));
    diag_note(c->dg, old->reg->pos, "register '%s' defined here", old->reg->name);
}

/* Adds every element of 'r' in 'inst'; reports the first collision of each register only. */
static void add_elements(struct check_ctx *c, struct addr_table *t, const struct model_reg *r,
                         const struct model_instance *inst, bool *reported)
{
    if (!check_reg_fits(r, inst))
        return; /* reported as address-overflow */
    struct addr_slot s = {.reg = r, .inst = inst};
    s.key.space = r->space;
    if (inst && r->space == SPACE_PCI) {
        s.key.vendor = inst->vendor;
        s.key.device = inst->device;
        s.key.dev = inst->dev;
        s.key.func = inst->func;
    }
    for (unsigned i = 0; i < r->count; i++) {
        s.index = i;
        s.key.addr = model_reg_address(r, inst, i);
        struct addr_slot *slot = table_slot(t, &s.key);
        if (!slot->reg) {
            *slot = s;
        } else if (!*reported) {
            *reported = true;
            check_address_collision(c, slot, &s);
        }
    }
}

static uint64_t count_elements(const struct model_spec *s)
{
    uint64_t n = 0;
    for (size_t b = 0; b < s->nblocks; b++) {
        const struct model_block *blk = s->blocks[b];
        uint64_t copies = blk->ninstances ? blk->ninstances : 1;
        for (size_t i = 0; i < blk->nregs; i++)
            n += copies * blk->regs[i]->count;
    }
    return n;
}

void check_addresses(struct check_ctx *c)
{
    uint64_t n = count_elements(c->s);
    if (n > MAX_ELEMENTS)
        return;
    struct addr_table t = {.cap = 16};
    while (t.cap < 2 * n)
        t.cap *= 2;
    t.slots = xcalloc(t.cap, sizeof(*t.slots));
    for (size_t b = 0; b < c->s->nblocks; b++) {
        const struct model_block *blk = c->s->blocks[b];
        for (size_t i = 0; i < blk->nregs; i++) {
            bool reported = false;
            if (blk->ninstances == 0)
                add_elements(c, &t, blk->regs[i], NULL, &reported);
            for (size_t j = 0; j < blk->ninstances; j++)
                add_elements(c, &t, blk->regs[i], blk->instances[j], &reported);
        }
    }
    free(t.slots);
}
