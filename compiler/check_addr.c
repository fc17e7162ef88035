/*
 * check_addr - no two concrete registers (each instance, each array element)
 * of one address space share an address. pci addresses are offsets in the
 * configuration space of one device, so they collide only under one locator.
 * One map (common/map.h) over every element: linear in the number of elements.
 */
#include "check_int.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>

/* Elements beyond this many are not compared (a spec that large is a mistake of its own). */
#define MAX_ELEMENTS (UINT64_C(1) << 24)

/* All uint64_t: no padding, so its bytes are the key (common/map.h). */
struct addr_key {
    uint64_t space; /* enum model_space */
    uint64_t vendor, device, dev, func; /* pci locator; 0 elsewhere */
    uint64_t addr;
};

struct addr_slot {
    struct addr_key key;
    const struct model_reg *reg;
    const struct model_instance *inst;
    unsigned index;
};

/* Every element once: the first with each key, in 'slots'; the map finds them by key. */
struct addr_table {
    struct addr_slot *slots; /* owned */
    size_t n;
    struct regc_map map; /* key -> its addr_slot */
};

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
    bool pci = inst && r->space == SPACE_PCI;
    for (unsigned i = 0; i < r->count; i++) {
        struct addr_slot *s = &t->slots[t->n]; /* the next free one, fields set one by one */
        s->key.space = r->space;
        s->key.vendor = pci ? inst->vendor : 0;
        s->key.device = pci ? inst->device : 0;
        s->key.dev = pci ? inst->dev : 0;
        s->key.func = pci ? inst->func : 0;
        s->key.addr = model_reg_address(r, inst, i);
        s->reg = r;
        s->inst = inst;
        s->index = i;
        bool found;
        struct regc_map_entry *e = xmap_put(&t->map, &s->key, sizeof(s->key), &found);
        if (!found) {
            e->val = s;
            t->n++;
        } else if (!*reported) {
            *reported = true;
            check_address_collision(c, e->val, s);
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
    struct addr_table t = {xcalloc((size_t)n, sizeof(*t.slots)), 0, REGC_MAP_INIT};
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
    regc_map_release(&t.map);
    free(t.slots);
}
