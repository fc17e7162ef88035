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

/* A dev or func the instance leaves open (any slot): no number a given one can be. */
#define ANY_SLOT UINT64_C(0x100)

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
    if (model_reg_ext(r)->alternate || (inst && inst->alternate))
        return; /* declared to share its addresses (SVD alternateRegister, alternatePeripheral) */
    bool pci = inst && r->space == SPACE_PCI;
    for (unsigned i = 0; i < r->count; i++) {
        struct addr_slot *s = &t->slots[t->n]; /* the next free one, fields set one by one */
        s->key.space = r->space;
        s->key.vendor = pci ? inst->vendor : 0;
        s->key.device = pci ? inst->device : 0;
        s->key.dev = !pci ? 0 : inst->has_dev ? inst->dev : ANY_SLOT;
        s->key.func = !pci ? 0 : inst->has_func ? inst->func : ANY_SLOT;
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

/* Can PCI locators 'a' and 'b' find one device: same vendor and device, and each of dev and func
 * equal or left open by either? */
static bool same_device_possible(const struct model_instance *a, const struct model_instance *b)
{
    return a->has_pci && b->has_pci && a->vendor == b->vendor && a->device == b->device &&
           (!a->has_dev || !b->has_dev || a->dev == b->dev) &&
           (!a->has_func || !b->has_func || a->func == b->func);
}

/*
 * Two instances of one block that may be one PCI device, one of them leaving dev or func open:
 * the runtime, matching vendor and device on any slot, would give both the same device. Reported
 * once per instance (against the first it may share a device with); *skip[j] set so that its
 * registers are not reported again as address collisions. Equal locators given in full are
 * left to the address check.
 */
static void check_pci_ambiguity(struct check_ctx *c, const struct model_block *blk, bool *skip)
{
    for (size_t j = 0; j < blk->ninstances; j++) {
        const struct model_instance *b = blk->instances[j];
        for (size_t k = 0; k < j && !skip[j]; k++) {
            const struct model_instance *a = blk->instances[k];
            bool open = !a->has_dev || !a->has_func || !b->has_dev || !b->has_func;
            if (!open || !same_device_possible(a, b))
                continue;
            skip[j] = true;
            diag_report(c->dg, DIAG_ADDRESS_COLLISION, b->pos,
                        "instances '%s' and '%s' of block '%s' may be one PCI device (%04" PRIx64
                        ":%04" PRIx64 "; a dev= or func= left out matches any slot): give "
                        "each a dev= and func= that tell them apart",
                        a->name, b->name, blk->name, b->vendor, b->device);
            diag_note(c->dg, a->pos, "instance '%s' defined here", a->name);
        }
    }
}

void check_addresses(struct check_ctx *c)
{
    uint64_t n = count_elements(c->s);
    bool compare = n <= MAX_ELEMENTS; /* else addresses are not compared; instances still are */
    struct addr_table t = {compare ? xcalloc((size_t)n, sizeof(*t.slots)) : NULL, 0, REGC_MAP_INIT};
    for (size_t b = 0; b < c->s->nblocks; b++) {
        const struct model_block *blk = c->s->blocks[b];
        bool *skip = xcalloc(blk->ninstances + 1, sizeof(*skip));
        check_pci_ambiguity(c, blk, skip);
        for (size_t i = 0; compare && i < blk->nregs; i++) {
            bool reported = false;
            if (blk->ninstances == 0)
                add_elements(c, &t, blk->regs[i], NULL, &reported);
            for (size_t j = 0; j < blk->ninstances; j++)
                if (!skip[j] || blk->regs[i]->space != SPACE_PCI)
                    add_elements(c, &t, blk->regs[i], blk->instances[j], &reported);
        }
        free(skip);
    }
    regc_map_release(&t.map);
    free(t.slots);
}
