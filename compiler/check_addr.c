/*
 * check_addr - no two concrete registers (each instance, each array element)
 * of one address space share an address. pci addresses are offsets in the
 * configuration space of one device, so they collide only under one locator.
 * Each element is a 16-byte record (address, group, place): sorted, the
 * elements of one address are neighbours, and a second walk over the model,
 * only when some collide, names them in the order the walk meets them.
 */
#include "check_int.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>

/* Elements beyond this many (256 MB of records) are not compared: a warning says so. */
#define MAX_ELEMENTS (UINT64_C(1) << 24)

/* A dev or func the instance leaves open (any slot): no number a given one can be. */
#define ANY_SLOT UINT64_C(0x100)

/*
 * Where an element is: its address space and PCI locator (all uint64_t, no
 * padding, so its bytes are a map key), which the check numbers as groups.
 */
struct addr_group_key {
    uint64_t space; /* enum model_space */
    uint64_t vendor, device, dev, func; /* pci locator; 0 elsewhere */
};

/*
 * Each element as 16 bytes (a million registers: 16 MB; the table of keys
 * and pointers this replaced took 120 MB, the compile's peak): sorted, the
 * elements with one address in one group are neighbours.
 */
struct addr_rec {
    uint64_t addr;
    uint32_t group;
    uint32_t seq; /* the element's place in the walk: the first of a run is the earlier */
};

/* An element found again at a place a walk before it had ('old' < 'new'). */
struct addr_pair {
    uint32_t new, old;
};

/* One element: register, instance (or NULL), index in the array. */
struct addr_elem {
    const struct model_reg *reg;
    const struct model_instance *inst;
    unsigned index;
};

struct addr_walk {
    struct regc_map groups;     /* struct addr_group_key -> its number + 1 */
    struct arena keys;          /* the groups' keys */
    uint32_t ngroups;
    struct addr_rec *recs;      /* the first walk's elements */
    uint32_t seq;               /* elements walked so far */
    const struct addr_pair *pairs; /* the second walk's: by 'new' */
    size_t npairs, next;
    uint64_t *olds;             /* the 'old' of each pair, sorted, once each */
    struct addr_elem *old_elem; /* parallel to 'olds', filled by the second walk */
    size_t nolds, next_old;
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

static void check_address_collision(struct check_ctx *c, const struct addr_elem *old,
                                    const struct addr_elem *new)
{
    diag_report(c->dg, DIAG_ADDRESS_COLLISION, new->reg->pos,
                "register '%s'%s has the same %s address " CHECK_X " as register '%s'%s",
                new->reg->name, element_text(c, new->reg, new->inst, new->index),
                model_space_word(new->reg->space), model_reg_address(new->reg, new->inst, new->index),
                old->reg->name, element_text(c, old->reg, old->inst, old->index));
    diag_note(c->dg, old->reg->pos, "register '%s' defined here", old->reg->name);
}

static uint32_t group_of(struct addr_walk *w, const struct model_reg *r,
                         const struct model_instance *inst)
{
    bool pci = inst && r->space == SPACE_PCI;
    struct addr_group_key k = {
        .space = r->space,
        .vendor = pci ? inst->vendor : 0,
        .device = pci ? inst->device : 0,
        .dev = !pci ? 0 : inst->has_dev ? inst->dev : ANY_SLOT,
        .func = !pci ? 0 : inst->has_func ? inst->func : ANY_SLOT,
    };
    bool found;
    struct regc_map_entry *e = xmap_put(&w->groups, &k, sizeof(k), &found);
    if (!found) {
        struct addr_group_key *kept = arena_alloc(&w->keys, sizeof(*kept));
        *kept = k;
        e->key = kept;
        e->val = (void *)(uintptr_t)++w->ngroups;
    }
    return (uint32_t)(uintptr_t)e->val - 1;
}

/* Whether 'r' in 'inst' has elements the check compares (not: reported as address-overflow, or
 * declared to share its addresses: SVD alternateRegister, alternatePeripheral). */
static bool compared(const struct model_reg *r, const struct model_instance *inst)
{
    return check_reg_fits(r, inst) && !model_reg_ext(r)->alternate && !(inst && inst->alternate);
}

/* The first walk: every element of 'r' in 'inst' as a record. */
static void record_elements(struct addr_walk *w, const struct model_reg *r,
                            const struct model_instance *inst)
{
    if (!compared(r, inst))
        return;
    uint32_t group = group_of(w, r, inst);
    for (unsigned i = 0; i < r->count; i++, w->seq++)
        w->recs[w->seq] = (struct addr_rec){model_reg_address(r, inst, i), group, w->seq};
}

/* The second walk: keeps the elements later ones collide with; reports the first collision of
 * each register only. */
static void report_elements(struct check_ctx *c, struct addr_walk *w, const struct model_reg *r,
                            const struct model_instance *inst, bool *reported)
{
    if (!compared(r, inst))
        return;
    for (unsigned i = 0; i < r->count; i++, w->seq++) {
        if (w->next_old < w->nolds && w->olds[w->next_old] == w->seq)
            w->old_elem[w->next_old++] = (struct addr_elem){r, inst, i};
        if (w->next >= w->npairs || w->pairs[w->next].new != w->seq)
            continue;
        uint32_t old = w->pairs[w->next++].old;
        if (*reported)
            continue;
        *reported = true;
        size_t lo = 0, hi = w->next_old; /* 'old' came earlier: it is kept */
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (w->olds[mid] <= old)
                lo = mid;
            else
                hi = mid;
        }
        struct addr_elem e = w->old_elem[lo], n = {r, inst, i};
        check_address_collision(c, &e, &n);
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
 * (when 'report') once per instance (against the first it may share a device with); skip[j] set
 * so that its registers are not reported again as address collisions. Equal locators given in
 * full are left to the address check.
 */
static void check_pci_ambiguity(struct check_ctx *c, const struct model_block *blk, bool *skip,
                                bool report)
{
    for (size_t j = 0; j < blk->ninstances; j++) {
        const struct model_instance *b = blk->instances[j];
        for (size_t k = 0; k < j && !skip[j]; k++) {
            const struct model_instance *a = blk->instances[k];
            bool open = !a->has_dev || !a->has_func || !b->has_dev || !b->has_func;
            if (!open || !same_device_possible(a, b))
                continue;
            skip[j] = true;
            if (!report)
                continue;
            diag_report(c->dg, DIAG_ADDRESS_COLLISION, b->pos,
                        "instances '%s' and '%s' of block '%s' may be one PCI device (%04" PRIx64
                        ":%04" PRIx64 "; a dev= or func= left out matches any slot): give "
                        "each a dev= and func= that tell them apart",
                        a->name, b->name, blk->name, b->vendor, b->device);
            diag_note(c->dg, a->pos, "instance '%s' defined here", a->name);
        }
    }
}

/* Every compared element of block 'blk' in the walk's order: first (report false) as records,
 * then (report true) with the PCI ambiguities reported and the collisions found between. */
static void walk_block(struct check_ctx *c, struct addr_walk *w, const struct model_block *blk,
                       bool compare, bool report)
{
    bool *skip = xcalloc(blk->ninstances + 1, sizeof(*skip));
    check_pci_ambiguity(c, blk, skip, report);
    for (size_t i = 0; compare && i < blk->nregs; i++) {
        const struct model_reg *r = blk->regs[i];
        bool reported = false;
        for (size_t j = 0; j < (blk->ninstances ? blk->ninstances : 1); j++) {
            const struct model_instance *inst = blk->ninstances ? blk->instances[j] : NULL;
            if (inst && skip[j] && r->space == SPACE_PCI)
                continue;
            if (report)
                report_elements(c, w, r, inst, &reported);
            else
                record_elements(w, r, inst);
        }
    }
    free(skip);
}

static int cmp_rec(const void *pa, const void *pb)
{
    const struct addr_rec *a = pa, *b = pb;
    if (a->group != b->group)
        return a->group < b->group ? -1 : 1;
    if (a->addr != b->addr)
        return a->addr < b->addr ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

static int cmp_pair(const void *pa, const void *pb)
{
    const struct addr_pair *a = pa, *b = pb;
    return (a->new > b->new) - (a->new < b->new);
}

/*
 * The elements sorted by group and address; each one after the first of its run collides with
 * that first one. The pairs by 'new' and the 'old's they name (sorted, once each) into 'w'.
 */
static void find_pairs(struct addr_walk *w, size_t n)
{
    qsort(w->recs, n, sizeof(*w->recs), cmp_rec);
    struct addr_pair *pairs = NULL;
    size_t npairs = 0, cap = 0;
    for (size_t i = 1, first = 0; i < n; i++) {
        if (w->recs[i].group != w->recs[first].group || w->recs[i].addr != w->recs[first].addr) {
            first = i;
            continue;
        }
        if (npairs == cap)
            pairs = xgrow(pairs, &cap, npairs + 1, sizeof(*pairs));
        pairs[npairs++] = (struct addr_pair){w->recs[i].seq, w->recs[first].seq};
    }
    free(w->recs);
    w->recs = NULL;
    if (npairs > 1)
        qsort(pairs, npairs, sizeof(*pairs), cmp_pair);
    w->olds = xmalloc((npairs ? npairs : 1) * sizeof(*w->olds));
    for (size_t i = 0; i < npairs; i++)
        w->olds[i] = pairs[i].old;
    qsort(w->olds, npairs, sizeof(*w->olds), cmp_u64); /* a pair is an error: few */
    size_t k = 0;
    for (size_t i = 0; i < npairs; i++)
        if (k == 0 || w->olds[k - 1] != w->olds[i])
            w->olds[k++] = w->olds[i];
    w->nolds = k;
    w->old_elem = xmalloc((k ? k : 1) * sizeof(*w->old_elem));
    w->pairs = pairs;
    w->npairs = npairs;
}

void check_addresses(struct check_ctx *c)
{
    uint64_t n = count_elements(c->s);
    bool compare = n <= MAX_ELEMENTS; /* else instances are still compared */
    struct addr_walk w = {.groups = REGC_MAP_INIT, .keys = ARENA_INIT};
    if (!compare) {
        diag_report(c->dg, DIAG_ADDRESSES_NOT_COMPARED, c->s->pos,
                    "the addresses of the spec's %" PRIu64 " register elements (every element of "
                    "every array in every instance) are not compared: more than %" PRIu64,
                    n, MAX_ELEMENTS);
    } else {
        w.recs = xmalloc((n ? n : 1) * sizeof(*w.recs));
        for (size_t b = 0; b < c->s->nblocks; b++)
            walk_block(c, &w, c->s->blocks[b], true, false);
        find_pairs(&w, w.seq);
    }
    w.seq = 0;
    for (size_t b = 0; b < c->s->nblocks; b++)
        walk_block(c, &w, c->s->blocks[b], compare && w.npairs > 0, true);
    free((void *)w.pairs);
    free(w.olds);
    free(w.old_elem);
    regc_map_release(&w.groups);
    arena_release(&w.keys);
}
