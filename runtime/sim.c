/*
 * sim - the simulator (regc/sim.h) and the sim backend. Everything it does
 * comes from the descriptor tables: attribute semantics from attr.h, counter
 * behaviour from the block's pmon topology and the spec's pmon_global.
 */
#include "grow.h"
#include "internal.h"
#include "regc/sim.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sim_ctr;
struct addr_key;

struct sim_reg { /* one concrete register copy */
    const struct regc_block *block;
    const struct regc_instance *inst; /* NULL when the block has none */
    const struct regc_reg *reg;
    int index;
    uint64_t address;
    uint64_t value;
    bool stopped; /* a counter that stopped at over/underflow (stop mode) until software writes it
                     or its control */
    struct sim_ctr *ctl_of; /* the counter this copy is the control of; NULL: none */
};

/* One counter of the topology and the copies it involves, found once. */
struct sim_ctr {
    const struct regc_block *block;
    const struct regc_instance *inst;
    const struct regc_counters *c;
    unsigned i; /* array index of the control (0 for a single register) */
    struct sim_reg *ctl, *ctr;
    struct sim_reg *box;         /* the box control copy; NULL: none */
    bool has_events;             /* the block's event tables select on this control */
    bool prev;                   /* the threshold comparison in the last cycle counted (edge_det) */
    uint64_t ev_value;           /* the control value ev was found for */
    const struct regc_event *ev; /* the table entry the control encodes (encoded_event) */
    bool ev_known;               /* ev is that of ev_value */
};

/* The umask bits of a sub-event of a combining event (combine="or"): its occurrences count on
 * a control whose umask holds all of 'bits' and nothing outside 'all'. */
struct sim_or {
    uint64_t field; /* the umask field's mask on the control; 0: not a combining sub-event */
    uint64_t bits;  /* the sub-event's umask, in place */
    uint64_t all;   /* every umask bit the event's sub-events name, in place */
};

/* What an event's table entry asks of its control register (see sim.h). */
struct sim_evc {
    const struct regc_event *e;
    const struct regc_counters *c;
    uint64_t mask, value; /* control bits that must hold (the entry's exact encoding) */
    bool shaped;          /* the entry sets a threshold, invert or edge field itself */
    struct sim_or or ;
};

struct sim_block { /* per block of the spec: the event constraints, built on first use */
    struct sim_evc *ev;
    size_t nev;
    bool built;
};

#define SIM_MAX_OTHER 8

/* A rate: an event by name and how many occurrences per interval. */
struct sim_rate {
    char *name; /* owned */
    const struct regc_block *b;
    const struct regc_instance *inst;
    const struct regc_counters *c;
    uint64_t mask, value; /* on the control */
    bool shaped;
    struct sim_or or ; /* a combining sub-event: its umask bits, not the exact umask */
    struct {
        struct sim_reg *copy;
        const struct regc_field *f;
        uint64_t v;
    } other[SIM_MAX_OTHER]; /* <set>s on other registers of the instance */
    unsigned nother;
    struct {
        const char *name; /* a filter's traffic attribute (borrowed from the tables) */
        uint64_t v;
    } attr[SIM_MAX_OTHER]; /* the traffic's attributes (ATTR=VALUE terms) */
    unsigned nattr;
    int64_t n;
};

struct addr_fault {
    uint64_t address;
    int err;
};

struct reg_range { /* the copies of one register: regs[first .. first+n-1] */
    const struct regc_reg *reg;
    size_t first, n;
};

struct regc_sim {
    const struct regc_spec *spec;
    struct sim_reg *regs;
    size_t nregs, regs_cap;
    struct addr_key *by_addr; /* every copy, by space and address */
    struct reg_range *ranges; /* by register pointer */
    size_t nranges;
    struct sim_ctr *ctrs;
    size_t nctrs, ctrs_cap;
    struct sim_block *blocks; /* one per block of the spec */
    struct sim_reg *gctl;     /* the global control copy; NULL: none */
    struct sim_rate *rates;
    size_t nrates, rates_cap;
    struct regc_sim_encoding *seen;
    size_t nseen, seen_cap;
    bool global_frozen;   /* by the global control's freeze action */
    bool batch;           /* regc_sim_batch: events of one cycle, freezes applied at its end */
    bool pending_freeze;  /* a freeze-on-overflow seen during the batch */
    bool pending_disable; /* a global-enable clear seen during the batch */
    struct sim_reg *pending_box[16]; /* box controls an overflow freezes at the batch's end */
    unsigned npending_box;
    uint64_t sel_frozen; /* global control with a select field: counters frozen by index */
    uint64_t cycles;     /* cycles of the boxes' clock per interval (regc_sim_clock) */
    uint64_t elapsed;    /* cycles delivered since the model was built (regc_sim_elapsed) */
    unsigned long accesses;
    unsigned long fail_at; /* access number that fails; 0: none */
    int fail_err;
    struct addr_fault *faults;
    size_t nfaults, faults_cap;
    char err[256];
};

static int add_copies(regc_sim *sim, const struct regc_block *b, const struct regc_reg *r)
{
    for (const struct regc_addr *a = r->addrs; a && a->index != REGC_ADDR_END; a++) {
        struct sim_reg *n = regc_grow(sim->regs, &sim->regs_cap, sim->nregs + 1, sizeof(*n));
        if (!n)
            return -ENOMEM;
        sim->regs = n;
        n[sim->nregs++] =
            (struct sim_reg){.block = b,
                             .inst = a->instance ? regc_block_instance(b, a->instance) : NULL,
                             .reg = r,
                             .index = a->index,
                             .address = a->address,
                             .value = r->reset};
    }
    return 0;
}

/* ---- indexes: copies by address and by register */

struct addr_key {
    unsigned space;
    uint64_t address;
    size_t idx; /* into regs */
};

static int cmp_addr(const void *a, const void *b)
{
    const struct addr_key *x = a, *y = b;
    if (x->space != y->space)
        return x->space < y->space ? -1 : 1;
    if (x->address != y->address)
        return x->address < y->address ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int cmp_range(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const struct reg_range *)a)->reg,
              y = (uintptr_t)((const struct reg_range *)b)->reg;
    return x < y ? -1 : x > y;
}

static int build_indexes(regc_sim *sim)
{
    sim->by_addr = malloc((sim->nregs + 1) * sizeof(*sim->by_addr));
    sim->ranges = malloc((sim->nregs + 1) * sizeof(*sim->ranges));
    if (!sim->by_addr || !sim->ranges)
        return -ENOMEM;
    for (size_t i = 0; i < sim->nregs; i++) {
        const struct sim_reg *s = &sim->regs[i];
        sim->by_addr[i] = (struct addr_key){(unsigned)s->reg->space, s->address, i};
        if (i == 0 || s->reg != sim->regs[i - 1].reg)
            sim->ranges[sim->nranges++] = (struct reg_range){s->reg, i, 0};
        sim->ranges[sim->nranges - 1].n++;
    }
    qsort(sim->by_addr, sim->nregs, sizeof(*sim->by_addr), cmp_addr);
    qsort(sim->ranges, sim->nranges, sizeof(*sim->ranges), cmp_range);
    return 0;
}

static const struct reg_range *range_of(const regc_sim *sim, const struct regc_reg *r)
{
    struct reg_range key = {.reg = r};
    return bsearch(&key, sim->ranges, sim->nranges, sizeof(key), cmp_range);
}

static struct sim_reg *find_copy(regc_sim *sim, const struct regc_block *b,
                                 const struct regc_instance *inst, const char *reg, int index)
{
    const struct regc_reg *r = reg ? regc_block_reg(b, reg) : NULL;
    const struct reg_range *rg = r ? range_of(sim, r) : NULL;
    for (size_t i = 0; rg && i < rg->n; i++) {
        struct sim_reg *s = &sim->regs[rg->first + i];
        if (s->inst == inst && (index < 0 || s->index < 0 || s->index == index))
            return s;
    }
    return NULL;
}

static struct sim_reg *global_reg(regc_sim *sim, const char *block, const char *reg)
{
    const struct regc_block *b = block ? regc_spec_block(sim->spec, block) : NULL;
    if (!b)
        return NULL;
    const struct regc_instance *inst = b->instances && b->instances->name ? b->instances : NULL;
    return find_copy(sim, b, inst, reg, -1);
}

/* ---- the counters of the topology */

static bool block_selects(const struct regc_block *b, const char *control)
{
    for (const struct regc_event *e = b->events; e && e->name; e++)
        if (regc__streq(e->reg, control))
            return true;
    return false;
}

static int add_counter(regc_sim *sim, struct sim_reg *ctl, const struct regc_counters *c)
{
    const struct regc_block *b = ctl->block;
    unsigned i = ctl->index < 0 ? 0 : (unsigned)ctl->index;
    struct sim_reg *ctr = find_copy(sim, b, ctl->inst, c->counter, ctl->index);
    if (!ctr)
        return 0;
    struct sim_ctr *n = regc_grow(sim->ctrs, &sim->ctrs_cap, sim->nctrs + 1, sizeof(*n));
    if (!n)
        return -ENOMEM;
    sim->ctrs = n;
    const struct regc_box_control *bc = b->pmon->box_control;
    n[sim->nctrs++] = (struct sim_ctr){.block = b,
                                       .inst = ctl->inst,
                                       .c = c,
                                       .i = i,
                                       .ctl = ctl,
                                       .ctr = ctr,
                                       .box = bc ? find_copy(sim, b, ctl->inst, bc->reg, -1) : NULL,
                                       .has_events = block_selects(b, c->control)};
    return 0;
}

static int build_counters(regc_sim *sim)
{
    for (size_t k = 0; k < sim->nregs; k++) {
        struct sim_reg *s = &sim->regs[k];
        const struct regc_pmon *pm = s->block->pmon;
        for (const struct regc_counters *c = pm ? pm->counters : NULL; c && c->control; c++)
            if (regc__streq(s->reg->name, c->control) && add_counter(sim, s, c) < 0)
                return -ENOMEM;
    }
    for (size_t k = 0; k < sim->nctrs; k++) /* pointers into ctrs are stable from here */
        sim->ctrs[k].ctl->ctl_of = &sim->ctrs[k];
    const struct regc_global_control *gc =
        sim->spec->pmon_global ? sim->spec->pmon_global->control : NULL;
    sim->gctl = gc ? global_reg(sim, gc->block, gc->reg) : NULL;
    return 0;
}

int regc_sim_new(regc_sim **out, const struct regc_spec *spec)
{
    regc_sim *sim = calloc(1, sizeof(*sim));
    if (!sim)
        return -ENOMEM;
    sim->spec = spec;
    sim->cycles = REGC_SIM_CLOCK_DEFAULT;
    size_t nblocks = 0;
    for (const struct regc_block *b = spec->blocks; b->name; b++, nblocks++)
        for (const struct regc_reg *r = b->regs; r->name; r++)
            if (add_copies(sim, b, r) < 0)
                goto fail;
    sim->blocks = calloc(nblocks + 1, sizeof(*sim->blocks));
    if (!sim->blocks || build_indexes(sim) < 0 || build_counters(sim) < 0)
        goto fail;
    *out = sim;
    return 0;
fail:
    regc_sim_free(sim);
    return -ENOMEM;
}

static void free_rate(struct sim_rate *r)
{
    free(r->name);
}

void regc_sim_free(regc_sim *sim)
{
    if (!sim)
        return;
    size_t nblocks = 0;
    for (const struct regc_block *b = sim->spec->blocks; sim->blocks && b->name; b++)
        free(sim->blocks[nblocks++].ev);
    for (size_t i = 0; i < sim->nrates; i++)
        free_rate(&sim->rates[i]);
    free(sim->rates);
    free(sim->seen);
    free(sim->blocks);
    free(sim->ctrs);
    free(sim->by_addr);
    free(sim->ranges);
    free(sim->regs);
    free(sim->faults);
    free(sim);
}

bool regc_sim_global_frozen(const regc_sim *sim)
{
    return sim->global_frozen;
}

unsigned long regc_sim_accesses(const regc_sim *sim)
{
    return sim->accesses;
}

void regc_sim_fail_nth(regc_sim *sim, unsigned long n, int err)
{
    sim->fail_at = n ? sim->accesses + n : 0;
    sim->fail_err = err;
}

void regc_sim_fail_address(regc_sim *sim, uint64_t address, int err)
{
    for (size_t i = 0; i < sim->nfaults; i++)
        if (sim->faults[i].address == address) {
            sim->faults[i].err = err;
            return;
        }
    struct addr_fault *n = regc_grow(sim->faults, &sim->faults_cap, sim->nfaults + 1, sizeof(*n));
    if (!n)
        return;
    sim->faults = n;
    n[sim->nfaults++] = (struct addr_fault){address, err};
}

void regc_sim_faults_clear(regc_sim *sim)
{
    sim->fail_at = 0;
    sim->nfaults = 0;
}

/* Counts the access; -err when a fault is injected for it. */
static int inject(regc_sim *sim, uint64_t address)
{
    sim->accesses++;
    if (sim->fail_at && sim->accesses == sim->fail_at) {
        sim->fail_at = 0;
        return -sim->fail_err;
    }
    for (size_t i = 0; i < sim->nfaults; i++)
        if (sim->faults[i].address == address && sim->faults[i].err)
            return -sim->faults[i].err;
    return 0;
}

/* The copy an access reaches: by address (binary search), then the PCI device. */
static struct sim_reg *find_io(regc_sim *sim, const struct regc_io *io)
{
    size_t lo = 0, hi = sim->nregs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct addr_key *k = &sim->by_addr[mid];
        if (k->space < (unsigned)io->space ||
            (k->space == (unsigned)io->space && k->address < io->address))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < sim->nregs; lo++) {
        struct sim_reg *s = &sim->regs[sim->by_addr[lo].idx];
        if (s->reg->space != io->space || s->address != io->address)
            break;
        if (io->space == REGC_SPACE_PCI &&
            (!s->inst || !io->pci || memcmp(&s->inst->pci, io->pci, sizeof(*io->pci)) != 0))
            continue;
        return s;
    }
    return NULL;
}

/* ---- field helpers on a copy */

static uint64_t fget(const struct sim_reg *s, const char *field)
{
    const struct regc_field *f = field ? regc_reg_field(s->reg, field) : NULL;
    return f ? regc_field_get(f, s->value) : 0;
}

static bool fhas(const struct sim_reg *s, const char *field)
{
    return s && field && regc_reg_field(s->reg, field);
}

static void fput(struct sim_reg *s, const char *field, uint64_t v)
{
    const struct regc_field *f = s && field ? regc_reg_field(s->reg, field) : NULL;
    if (f)
        s->value = regc_field_put(f, s->value, v);
}

static void fsetbit(struct sim_reg *s, const char *field, unsigned bit, bool on)
{
    const struct regc_field *f = s && field ? regc_reg_field(s->reg, field) : NULL;
    if (!f || bit > (unsigned)(f->msb - f->lsb))
        return;
    uint64_t m = UINT64_C(1) << (f->lsb + bit);
    s->value = on ? s->value | m : s->value & ~m;
}

/* Field 'field' of written value 'v' for register 's' (0 when no such field). */
static uint64_t wget(const struct sim_reg *s, const char *field, uint64_t v)
{
    const struct regc_field *f = field ? regc_reg_field(s->reg, field) : NULL;
    return f ? regc_field_get(f, v) : 0;
}

/* ---- the pmon topology around a copy */

static const struct regc_instance *inst_index(const struct regc_block *b,
                                              const struct regc_instance *inst, unsigned *idx)
{
    *idx = inst ? (unsigned)(inst - b->instances) : 0;
    return inst;
}

static void zero_count(struct sim_reg *ctr, const struct regc_counters *c)
{
    if (ctr)
        ctr->stopped = false;
    if (c->count_field)
        fput(ctr, c->count_field, 0);
    else if (ctr)
        ctr->value = 0;
}

/* Software wrote copy 's': a counter it is, or controls, counts again if it had stopped; a control
 * written starts its edge detection afresh. */
static void rearm(regc_sim *sim, struct sim_reg *s)
{
    (void)sim;
    s->stopped = false;
    if (s->ctl_of) {
        s->ctl_of->ctr->stopped = false;
        s->ctl_of->prev = false;
    }
}

static void reset_box(regc_sim *sim, const struct sim_reg *s, bool counters, bool controls)
{
    for (size_t i = 0; i < sim->nregs; i++) {
        struct sim_reg *o = &sim->regs[i];
        if (o->block != s->block || o->inst != s->inst)
            continue;
        for (const struct regc_counters *c = s->block->pmon->counters; c->control; c++) {
            if (counters && regc__streq(o->reg->name, c->counter))
                zero_count(o, c);
            if (controls && regc__streq(o->reg->name, c->control) && !regc__streq(c->control, c->counter))
                o->value = o->reg->reset;
        }
    }
}

static void clear_bits(struct sim_reg *st, const char *field, uint64_t bits)
{
    const struct regc_field *f = st && field ? regc_reg_field(st->reg, field) : NULL;
    if (f)
        st->value &= ~((bits << f->lsb) & regc_field_mask(f));
}

/*
 * A global control with a select field (Xeon 7100 GL_event_select): its
 * freeze, unfreeze and reset act on the counters whose index bit is selected,
 * in the control's block, instead of on everything.
 */
static void select_actions(regc_sim *sim, struct sim_reg *s, uint64_t v)
{
    const struct regc_global_control *gc = sim->spec->pmon_global->control;
    uint64_t sel = wget(s, gc->select, v);
    if (gc->freeze && wget(s, gc->freeze, v))
        sim->sel_frozen |= sel;
    if (gc->unfreeze && wget(s, gc->unfreeze, v))
        sim->sel_frozen &= ~sel;
    sim->global_frozen = false; /* the select fields decide */
    if (!gc->reset || !wget(s, gc->reset, v) || !s->block->pmon)
        return;
    for (size_t i = 0; i < sim->nregs; i++) {
        struct sim_reg *o = &sim->regs[i];
        if (o->block != s->block || o->index < 0 || o->index >= 64 || !((sel >> o->index) & 1))
            continue;
        for (const struct regc_counters *c = s->block->pmon->counters; c->control; c++)
            if (regc__streq(o->reg->name, c->counter))
                zero_count(o, c);
    }
}

/* The actions a write to copy 's' of value 'v' triggers (WO bits, resets, freezes, clears). */
static void pmon_actions(regc_sim *sim, struct sim_reg *s, uint64_t v)
{
    const struct regc_pmon *pm = s->block->pmon;
    for (const struct regc_counters *c = pm ? pm->counters : NULL; c && c->control; c++)
        if (regc__streq(s->reg->name, c->control) && c->reset && wget(s, c->reset, v))
            zero_count(find_copy(sim, s->block, s->inst, c->counter, s->index), c);
    const struct regc_box_control *bc = pm ? pm->box_control : NULL;
    if (bc && regc__streq(s->reg->name, bc->reg)) {
        /* freeze and freeze-enable are levels the box keeps, even where the manual prints them WO
         */
        fput(s, bc->freeze, wget(s, bc->freeze, v));
        fput(s, bc->freeze_enable, wget(s, bc->freeze_enable, v));
    }
    if (bc && regc__streq(s->reg->name, bc->reg))
        reset_box(sim, s, bc->reset_counters && wget(s, bc->reset_counters, v),
                  bc->reset_controls && wget(s, bc->reset_controls, v));
    const struct regc_box_status *bs = pm ? pm->box_status : NULL;
    if (bs && bs->clear == REGC_CLEAR_REGISTER && regc__streq(s->reg->name, bs->clear_reg))
        clear_bits(find_copy(sim, s->block, s->inst, bs->reg, -1), bs->overflow,
                   wget(s, bs->clear_field, v));
    const struct regc_pmon_global *pg = sim->spec->pmon_global;
    const struct regc_global_control *gc = pg ? pg->control : NULL;
    if (gc && regc__streq(s->block->name, gc->block) && regc__streq(s->reg->name, gc->reg)) {
        if (gc->freeze && gc->unfreeze &&
            wget(s, gc->freeze, v)) /* without an unfreeze action the freeze is a level */
            sim->global_frozen = true;
        if (gc->unfreeze && wget(s, gc->unfreeze, v))
            sim->global_frozen = false;
        if (gc->select)
            select_actions(sim, s, v);
    }
    const struct regc_global_status *gs = pg ? pg->status : NULL;
    if (gs && gs->clear == REGC_CLEAR_REGISTER && regc__streq(s->block->name, gs->block) &&
        regc__streq(s->reg->name, gs->clear_reg)) {
        struct sim_reg *st = global_reg(sim, gs->block, gs->reg);
        for (const struct regc_box_overflow *bo = gs->boxes; st && bo->block; bo++)
            clear_bits(st, bo->field, wget(s, bo->field, v));
    }
}

/* ---- reads and writes */

/* WO bits read 0, except the levels the box keeps (box freeze, freeze-enable: regc_level_mask). */
static uint64_t read_value(const struct sim_reg *s)
{
    uint64_t v = s->value & regc_num_max_bits(s->reg->width);
    uint64_t level = regc_level_mask(s->block, s->reg);
    for (const struct regc_field *f = s->reg->fields; f->name; f++) {
        enum regc_sem sem = regc_field_sem(f);
        if (sem == REGC_SEM_WO || sem == REGC_SEM_MBZ || sem == REGC_SEM_IG)
            v &= ~regc_field_mask(f) | level;
    }
    return v;
}

/* The value the register holds after a write of 'v'; -EIO where the CPU would #GP. */
static int store_value(const struct sim_reg *s, uint64_t v, uint64_t *out)
{
    const struct regc_reg *r = s->reg;
    if ((v & ~regc_num_max_bits(r->width)) || (v & r->mbz))
        return -EIO;
    uint64_t mb1 = regc_reg_class_mask(r, REGC_MASK_MB1); /* RV1: "SW must write to 1" */
    if ((v & mb1) != mb1)
        return -EIO;
    uint64_t n = v, old = s->value;
    for (const struct regc_field *f = r->fields; f->name; f++) {
        uint64_t m = regc_field_mask(f);
        switch (regc_field_sem(f)) {
        case REGC_SEM_MBZ:
            if (v & m)
                return -EIO;
            n &= ~m;
            break;
        case REGC_SEM_RO:
        case REGC_SEM_IG:
            n = (n & ~m) | (old & m);
            break;
        case REGC_SEM_WO:
            n &= ~m;
            break;
        case REGC_SEM_W1C:
            n = (n & ~m) | (old & ~v & m);
            break;
        case REGC_SEM_W1S:
            n = (n & ~m) | ((old | v) & m);
            break;
        case REGC_SEM_W0C:
            n = (n & ~m) | (old & v & m);
            break;
        case REGC_SEM_W0S:
            n = (n & ~m) | ((old | ~v) & m);
            break;
        case REGC_SEM_W1T:
            n = (n & ~m) | ((old ^ v) & m);
            break;
        case REGC_SEM_W0T:
            n = (n & ~m) | ((old ^ ~v) & m);
            break;
        case REGC_SEM_WAC:
            n &= ~m;
            break;
        case REGC_SEM_WAS:
            n |= m;
            break;
        default:
            break;
        }
    }
    *out = n;
    return 0;
}

/* The register an access reaches, after the events injected up to it; -EIO when there is none. */
static int reach(regc_sim *sim, const struct regc_io *io, struct sim_reg **s)
{
    int rc = inject(sim, io->address);
    if (rc < 0)
        return rc;
    *s = find_io(sim, io);
    return *s ? 0 : -EIO;
}

int regc_sim_read(regc_sim *sim, const struct regc_io *io, uint64_t *value)
{
    struct sim_reg *s;
    int rc = reach(sim, io, &s);
    if (rc < 0)
        return rc;
    *value = read_value(s);
    return 0;
}

int regc_sim_write(regc_sim *sim, const struct regc_io *io, uint64_t value)
{
    struct sim_reg *s;
    int rc = reach(sim, io, &s);
    if (rc < 0)
        return rc;
    uint64_t n;
    rc = store_value(s, value, &n);
    if (rc < 0)
        return rc;
    s->value = n;
    rearm(sim, s);
    pmon_actions(sim, s, value);
    return 0;
}

static struct sim_reg *find_ref(regc_sim *sim, const struct regc_ref *r)
{
    for (size_t i = 0; i < sim->nregs; i++) {
        struct sim_reg *s = &sim->regs[i];
        if (s->reg == r->reg && s->inst == r->instance && s->index == r->index)
            return s;
    }
    return NULL;
}

int regc_sim_peek(regc_sim *sim, const struct regc_ref *r, uint64_t *value)
{
    struct sim_reg *s = find_ref(sim, r);
    if (!s)
        return -ENOENT;
    *value = s->value;
    return 0;
}

int regc_sim_poke(regc_sim *sim, const struct regc_ref *r, uint64_t value)
{
    struct sim_reg *s = find_ref(sim, r);
    if (!s)
        return -ENOENT;
    s->value = value;
    rearm(sim, s);
    return 0;
}

/* ---- counting */

/* frz, and frz_en where the box has one: "If set to 1 and .frz_en is 1, the counters in this box
 * will be frozen" (327043 Table 2-9, page 27: the E5-2600 box controls). */
static bool box_frozen(const struct sim_ctr *k)
{
    const struct regc_box_control *bc = k->block->pmon->box_control;
    return k->box && bc->freeze && fget(k->box, bc->freeze) &&
           (!bc->freeze_enable || fget(k->box, bc->freeze_enable));
}

/*
 * A global freeze reaches k's box only through the box's freeze enable, where it has one: "If 1,
 * a freeze signal stops ('freezes') the counters; else the signal is ignored" (327043 Table 2-9,
 * page 27, frz_en of the E5-2600 box controls; the guide names no other kind of freeze signal,
 * and documents no global control for that family). A global enable level is no freeze signal.
 */
static bool freeze_reaches(const struct sim_ctr *k)
{
    const struct regc_box_control *bc = k->block->pmon->box_control;
    return !bc || !bc->freeze_enable || !k->box || fget(k->box, bc->freeze_enable);
}

static bool global_stopped(regc_sim *sim, const struct sim_ctr *k)
{
    const struct regc_global_control *gc =
        sim->spec->pmon_global ? sim->spec->pmon_global->control : NULL;
    struct sim_reg *s = sim->gctl;
    /* the freeze action, or a freeze field that is a level (no unfreeze action): frozen while 1 */
    bool frozen = sim->global_frozen || (s && gc->freeze && !gc->unfreeze && fget(s, gc->freeze));
    if (frozen && freeze_reaches(k))
        return true;
    return s && gc->enable && !fget(s, gc->enable);
}

/* Both the counter's own enable and the box's per-counter enable bit, where each exists. */
static bool counter_enabled(const struct sim_ctr *k)
{
    const struct regc_box_control *bc = k->block->pmon->box_control;
    if (k->c->enable && !fget(k->ctl, k->c->enable))
        return false;
    if (bc && bc->enable)
        return k->box && ((fget(k->box, bc->enable) >> k->i) & 1);
    return true;
}

static bool select_frozen(regc_sim *sim, const struct sim_ctr *k)
{
    const struct regc_global_control *gc =
        sim->spec->pmon_global ? sim->spec->pmon_global->control : NULL;
    return gc && gc->select && regc__streq(gc->block, k->block->name) && k->i < 64 &&
           ((sim->sel_frozen >> k->i) & 1);
}

/* Counter k counts now: enabled, not stopped, frozen by nothing. */
static bool running(regc_sim *sim, const struct sim_ctr *k)
{
    return !k->ctr->stopped && counter_enabled(k) && !box_frozen(k) && !global_stopped(sim, k) &&
           !select_frozen(sim, k);
}

/*
 * The box-status bit of counter i of group c: status_first onwards, else the
 * array index; false for fixed counters without status-first, which have none
 * (desc.h; E5-2600 v2 U-Box: only the global ov_u_fixed).
 */
static bool status_bit(const struct regc_block *b, const struct regc_counters *c, unsigned i,
                       unsigned *bit)
{
    if (!c->has_status_first) {
        *bit = i;
        return !regc__streq(c->kind, "fixed");
    }
    const struct regc_reg *r = regc_block_reg(b, c->control);
    *bit = c->status_first + (r && r->is_array ? i - r->first : 0);
    return true;
}

/* Freezes caused by overflows take effect (at once, or at the end of a batch). */
static void apply_pending(regc_sim *sim)
{
    const struct regc_global_control *gc =
        sim->spec->pmon_global ? sim->spec->pmon_global->control : NULL;
    if (sim->pending_freeze)
        sim->global_frozen = true;
    if (sim->pending_disable && sim->gctl)
        fput(sim->gctl, gc->enable, 0);
    for (unsigned i = 0; i < sim->npending_box; i++) {
        struct sim_reg *box = sim->pending_box[i];
        fput(box, box->block->pmon->box_control->freeze, 1);
    }
    sim->npending_box = 0;
    sim->pending_freeze = sim->pending_disable = false;
}

/* An overflow's box freeze, at the end of the batch: the box's other counters count the
 * rest of the cycle, so several may overflow at once. */
static void freeze_box_later(regc_sim *sim, struct sim_reg *box)
{
    for (unsigned i = 0; i < sim->npending_box; i++)
        if (sim->pending_box[i] == box)
            return;
    if (sim->npending_box < sizeof(sim->pending_box) / sizeof(sim->pending_box[0]))
        sim->pending_box[sim->npending_box++] = box;
    else
        fput(box, box->block->pmon->box_control->freeze, 1);
}

void regc_sim_batch(regc_sim *sim, bool on)
{
    sim->batch = on;
    if (!on)
        apply_pending(sim);
}

/* Sets the global-status bit(s) of the block for counter k's group. */
static void global_status(regc_sim *sim, const struct sim_ctr *k)
{
    const struct regc_pmon_global *pg = sim->spec->pmon_global;
    const struct regc_global_status *gs = pg ? pg->status : NULL;
    struct sim_reg *st = gs ? global_reg(sim, gs->block, gs->reg) : NULL;
    unsigned idx;
    inst_index(k->block, k->inst, &idx);
    for (const struct regc_box_overflow *bo = st ? gs->boxes : NULL; bo && bo->block; bo++) {
        if (!regc__streq(bo->block, k->block->name) ||
            (bo->instance && !(k->inst && regc__streq(bo->instance, k->inst->name))) ||
            !regc_box_overflow_reports(gs, bo, k->c))
            continue;
        const struct regc_field *bf = regc_reg_field(st->reg, bo->field);
        bool one = bf && bf->msb == bf->lsb; /* one bit for every instance (Sandy Bridge CBox) */
        fsetbit(st, bo->field, bo->instance || one ? 0 : idx, true);
    }
}

/* Overflow of counter k: box status, global status, freezes on overflow. */
static void overflow(regc_sim *sim, const struct sim_ctr *k)
{
    const struct regc_pmon *pm = k->block->pmon;
    const struct regc_counters *c = k->c;
    /* the overflow leaves the box (global status, PMI, freeze) only where the counter's pmi field
     * allows */
    bool pmi = !c->pmi || !fhas(k->ctl, c->pmi) || fget(k->ctl, c->pmi);
    unsigned bit;
    if (pm->box_status && status_bit(k->block, c, k->i, &bit))
        fsetbit(find_copy(sim, k->block, k->inst, pm->box_status->reg, -1),
                pm->box_status->overflow, bit, true);
    /* an overflow freezes a box that lets a freeze through (frz_en) only when the counter sends
     * the overflow out (its pmi field set: ov_en, 329468 section 2.1.3 "freeze on overflow and
     * send notification"); a counter without one (E5-2600: no interrupt-based sampling, 327043
     * section 2.1) sends none. Linux counts with frz_en set and ov_en clear, past overflows. */
    bool sends = c->pmi && fhas(k->ctl, c->pmi) && fget(k->ctl, c->pmi);
    if (sends && k->box && pm->box_control->freeze_enable &&
        fget(k->box, pm->box_control->freeze_enable))
        freeze_box_later(sim, k->box);
    if (pmi)
        global_status(sim, k);
    const struct regc_pmon_global *pg = sim->spec->pmon_global;
    const struct regc_global_control *gc = pg ? pg->control : NULL;
    if (c->freeze_on_overflow && pmi) {
        if (sim->gctl && gc->enable) /* the U-Box disables counting (Xeon 7500 en_all) */
            sim->pending_disable = true;
        else
            sim->pending_freeze = true;
    }
    if (sim->gctl && gc->freeze_on_overflow && fget(sim->gctl, gc->freeze_on_overflow) &&
        gc->enable)
        sim->pending_disable = true;
    if (!sim->batch)
        apply_pending(sim);
}

/*
 * Counter k moves n steps up ('up') or down. Past 2^w-1 (overflow) or below
 * 0 (underflow) it wraps, or stops at that end until software writes it or
 * its control (the wrap field chooses where there is one); both are
 * reported as an overflow. The caller checked that k runs.
 */
static void count(regc_sim *sim, struct sim_ctr *k, bool up, uint64_t n)
{
    const struct regc_counters *c = k->c;
    struct sim_reg *ctr = k->ctr;
    uint64_t max = regc_num_max_bits(c->width),
             cur = c->count_field ? fget(ctr, c->count_field) : ctr->value;
    cur &= max;
    bool wrap = c->overflow == REGC_OVF_WRAP;
    if (c->wrap_field && fhas(k->ctl, c->wrap_field))
        wrap = fget(k->ctl, c->wrap_field) != 0;
    bool ovf = up ? n > max - cur : n > cur;
    uint64_t next = (up ? cur + n : cur - n) & max;
    if (ovf && !wrap) {
        next = up ? max : 0;
        ctr->stopped = true;
    }
    if (c->count_field)
        fput(ctr, c->count_field, next);
    else
        ctr->value = next;
    if (ovf)
        overflow(sim, k);
}

/*
 * 'n' signals for counter k (decrements when 'decrement'); its direction
 * field decides which way they move it. -EINVAL for a decrement on a counter
 * not set to count up and down (nothing counts); an undefined direction
 * encoding counts nothing.
 */
static int count_signed(regc_sim *sim, struct sim_ctr *k, bool decrement, uint64_t n)
{
    enum regc_direction dir = regc_counters_direction(k->c, k->ctl->reg, k->ctl->value);
    if (decrement && dir != REGC_DIR_UP_DOWN)
        return -EINVAL;
    if (dir != REGC_DIR_NONE && n)
        count(sim, k, dir != REGC_DIR_DOWN && !decrement, n);
    return 0;
}

static struct sim_ctr *find_ctr(regc_sim *sim, const struct regc_block *b,
                                const struct regc_instance *inst, const struct regc_counters *c,
                                unsigned i)
{
    for (size_t k = 0; k < sim->nctrs; k++) {
        struct sim_ctr *x = &sim->ctrs[k];
        if (x->block == b && x->inst == inst && x->c == c && x->i == i)
            return x;
    }
    return NULL;
}

static int block_inst(regc_sim *sim, const char *block, const char *inst,
                      const struct regc_block **b, const struct regc_instance **in)
{
    *b = regc_spec_block(sim->spec, block);
    if (!*b || !(*b)->pmon)
        return -ENOENT;
    *in = inst ? regc_block_instance(*b, inst) : NULL;
    if (inst && !*in)
        return -ENOENT;
    if (!inst && (*b)->instances && (*b)->instances->name)
        *in = (*b)->instances;
    return 0;
}

/* The counter regc_sim_tick names; NULL: no such block, instance, group or counter. */
static struct sim_ctr *tick_ctr(regc_sim *sim, const char *block, const char *inst, unsigned group,
                                unsigned counter)
{
    const struct regc_block *b;
    const struct regc_instance *in;
    if (block_inst(sim, block, inst, &b, &in) < 0)
        return NULL;
    const struct regc_counters *c = b->pmon->counters;
    for (unsigned g = 0; c->control && g < group; g++)
        c++;
    return c->control ? find_ctr(sim, b, in, c, counter) : NULL;
}

static int tick(regc_sim *sim, const char *block, const char *inst, unsigned group,
                unsigned counter, bool decrement, uint64_t n)
{
    struct sim_ctr *k = tick_ctr(sim, block, inst, group, counter);
    if (!k)
        return -ENOENT;
    if (!running(sim, k))
        return decrement &&
                       regc_counters_direction(k->c, k->ctl->reg, k->ctl->value) != REGC_DIR_UP_DOWN
                   ? -EINVAL
                   : 0;
    return count_signed(sim, k, decrement, n);
}

int regc_sim_tick_held(regc_sim *sim, const char *block, const char *inst, unsigned group,
                       unsigned counter)
{
    struct sim_ctr *k = tick_ctr(sim, block, inst, group, counter);
    if (!k)
        return -ENOENT;
    bool own_on = !k->c->enable || fget(k->ctl, k->c->enable);
    return own_on && !k->ctr->stopped && !running(sim, k);
}

int regc_sim_tick(regc_sim *sim, const char *block, const char *inst, unsigned group,
                  unsigned counter, uint64_t n)
{
    return tick(sim, block, inst, group, counter, false, n);
}

int regc_sim_tick_signed(regc_sim *sim, const char *block, const char *inst, unsigned group,
                         unsigned counter, int64_t delta)
{
    /* the magnitude of INT64_MIN is 2^63: computed in unsigned arithmetic */
    uint64_t n = delta < 0 ? (uint64_t)0 - (uint64_t)delta : (uint64_t)delta;
    return tick(sim, block, inst, group, counter, delta < 0, n);
}

/* ---- what an event asks of the bits (sim.h) */

/* The threshold, invert and edge fields of a control: they shape increments, they select nothing.
 */
static uint64_t shaping_mask(const struct regc_reg *r, const struct regc_counters *c)
{
    return regc__field_mask_named(r, c->threshold) | regc__field_mask_named(r, c->invert) |
           regc__field_mask_named(r, c->edge);
}

/* The fields the flow itself writes: enable, PMI, wrap, reset, direction. */
static uint64_t flow_mask(const struct regc_reg *r, const struct regc_counters *c)
{
    return regc__field_mask_named(r, c->enable) | regc__field_mask_named(r, c->pmi) |
           regc__field_mask_named(r, c->wrap_field) | regc__field_mask_named(r, c->reset) |
           regc__field_mask_named(r, c->direction_field);
}

static bool own_set(const struct regc_set *s, const struct regc_event *e)
{
    return !s->reg || regc__streq(s->reg, e->reg);
}

/* The bits event e's entry sets in its control r: code, umask and the <set>s on r. */
static uint64_t entry_bits(const struct regc_reg *r, const struct regc_event *e, uint64_t *value)
{
    uint64_t m = 0, v = 0;
    const struct regc_field *f = regc_reg_field(r, e->field);
    if (f)
        m |= regc_field_mask(f), v = regc_field_put(f, v, e->code);
    f = e->has_umask && e->umask_field ? regc_reg_field(r, e->umask_field) : NULL;
    if (f)
        m |= regc_field_mask(f), v = regc_field_put(f, v, e->umask);
    for (const struct regc_set *s = e->sets; s && s->field; s++) {
        f = own_set(s, e) ? regc_reg_field(r, s->field) : NULL;
        if (f)
            m |= regc_field_mask(f), v = regc_field_put(f, v, s->value);
    }
    *value = v;
    return m;
}

static bool is_sub_of(const struct regc_event *s, const struct regc_event *p)
{
    size_t n = strlen(p->name);
    return s != p && strncmp(s->name, p->name, n) == 0 && s->name[n] == '.' &&
           regc__streq(s->reg, p->reg);
}

/* For a sub-event of a combining event: its umask bits and all its siblings'. */
static void combining_bits(const struct regc_block *b, const struct regc_reg *r,
                           const struct regc_event *e, struct sim_or *out)
{
    const struct regc_field *f =
        e->combine_or && e->has_umask && e->umask_field ? regc_reg_field(r, e->umask_field) : NULL;
    const char *dot = strchr(e->name, '.');
    if (!f || !dot)
        return;
    out->field = regc_field_mask(f);
    out->bits = regc_field_put(f, 0, e->umask);
    for (const struct regc_event *o = b->events; o->name; o++)
        if (o->has_umask && regc__streq(o->reg, e->reg) &&
            strncmp(o->name, e->name, (size_t)(dot - e->name + 1)) == 0)
            out->all |= regc_field_put(f, 0, o->umask);
}

/* Fills in the constraints of event e (see sim.h): sel is what the control's events select by. */
static void event_constraint(const struct regc_block *b, const struct regc_event *e,
                             struct sim_evc *out)
{
    const struct regc_counters *c = regc__block_counters(b, e->reg);
    const struct regc_reg *r = c ? regc_block_reg(b, c->control) : NULL;
    *out = (struct sim_evc){.e = e, .c = c};
    if (!r)
        return;
    uint64_t sel = 0, v, freed = 0;
    for (const struct regc_event *o = b->events; o->name; o++)
        if (regc__streq(o->reg, e->reg)) {
            uint64_t m = entry_bits(r, o, &v);
            sel |= m;
            if (is_sub_of(o, e)) /* a parent leaves what its sub-events choose free */
                freed |= m;
        }
    sel &= ~(shaping_mask(r, c) | flow_mask(r, c));
    uint64_t own = entry_bits(r, e, &out->value);
    out->mask = (sel & ~freed) | own;
    out->shaped = (own & shaping_mask(r, c)) != 0;
    combining_bits(b, r, e, &out->or);
}

static struct sim_block *block_evcs(regc_sim *sim, const struct regc_block *b)
{
    struct sim_block *sb = &sim->blocks[b - sim->spec->blocks];
    if (sb->built)
        return sb;
    size_t n = 0;
    for (const struct regc_event *e = b->events; e && e->name; e++)
        n++;
    sb->ev = calloc(n + 1, sizeof(*sb->ev));
    if (!sb->ev)
        return NULL;
    for (size_t i = 0; i < n; i++)
        event_constraint(b, &b->events[i], &sb->ev[i]);
    sb->nev = n;
    sb->built = true;
    return sb;
}

/* The table entry that bits 'v' of k's control encode, the most specific (a sub-event before
 * its parent); NULL: none. */
static const struct regc_event *encoded_event(regc_sim *sim, const struct sim_ctr *k, uint64_t v)
{
    struct sim_block *sb = block_evcs(sim, k->block);
    const struct sim_evc *best = NULL;
    for (size_t i = 0; sb && i < sb->nev; i++) {
        const struct sim_evc *x = &sb->ev[i];
        if (x->c == k->c && (v & x->mask) == x->value &&
            (!best || regc__popcount64(x->mask) > regc__popcount64(best->mask)))
            best = x;
    }
    return best ? best->e : NULL;
}

/* ---- rates: events by name */

/* The message into sim->err (regc_sim_error); returns rc. */
#define rate_fail(sim, rc, ...) regc__err((sim)->err, sizeof((sim)->err), (rc), __VA_ARGS__)

/* "BLOCK[INST]" of 'spec' (modified in place) into r->b, r->inst. */
static int rate_target(regc_sim *sim, struct sim_rate *r, char *spec)
{
    const char *inst;
    int rc = regc__block_target(sim->spec, spec, &r->b, &r->inst, &inst);
    if (rc == -EINVAL)
        return rate_fail(sim, rc, "'%s': expected BLOCK[INSTANCE]", r->name);
    if (!r->b || !r->b->pmon)
        return rate_fail(sim, -ENOENT, "'%s': no block '%s' with performance monitors", r->name,
                         spec);
    if (rc < 0)
        return rate_fail(sim, rc, "'%s': no instance '%s'", r->name, inst);
    return 0;
}

static int rate_other(regc_sim *sim, struct sim_rate *r, const struct regc_set *s)
{
    const struct regc_reg *reg = regc_block_reg(r->b, s->reg);
    const struct regc_field *f = reg ? regc_reg_field(reg, s->field) : NULL;
    struct sim_reg *copy =
        reg ? find_copy(sim, r->b, r->inst, reg->name, reg->is_array ? (int)reg->first : -1) : NULL;
    if (!f || !copy)
        return rate_fail(sim, -ENOENT, "'%s': no field '%s' of that instance", r->name, s->field);
    char why[96];
    if (regc_num_check(s->value, 0, regc_num_max_bits(f->msb - f->lsb + 1u), 0, why, sizeof(why)))
        return rate_fail(sim, -ERANGE, "'%s': value 0x%llx for field '%s': %s", r->name,
                         (unsigned long long)s->value, s->field, why);
    if (r->nother >= SIM_MAX_OTHER)
        return rate_fail(sim, -ENOSPC, "'%s': too many settings", r->name);
    r->other[r->nother].copy = copy;
    r->other[r->nother].f = f;
    r->other[r->nother++].v = s->value;
    return 0;
}

/* EVENT: a table entry (its constraints, its <set>s on other registers), "fixed" or "raw". */
static int rate_event(regc_sim *sim, struct sim_rate *r, const char *ev)
{
    if (regc__streq(ev, "raw"))
        return 0; /* reg= names the group */
    if (regc__streq(ev, "fixed")) {
        for (const struct regc_counters *c = r->b->pmon->counters; c->control; c++)
            if (regc__streq(c->kind, "fixed"))
                r->c = c;
        return r->c ? 0
                    : rate_fail(sim, -ENOENT, "'%s': block '%s' has no fixed counter", r->name,
                                r->b->name);
    }
    const struct regc_event *e = regc_block_event(r->b, ev);
    struct sim_block *sb = e ? block_evcs(sim, r->b) : NULL;
    if (!e)
        return rate_fail(sim, -ENOENT, "'%s': no event '%s' in the block's tables", r->name, ev);
    if (!sb)
        return rate_fail(sim, -ENOMEM, "'%s': out of memory", r->name);
    const struct sim_evc *x = &sb->ev[e - r->b->events];
    r->c = x->c;
    r->mask = x->mask & ~x->or.field; /* a combining sub-event: its bits, below */
    r->value = x->value & ~x->or.field;
    r->shaped = x->shaped;
    r->or = x->or ;
    if (!r->c)
        return rate_fail(sim, -ENOENT, "'%s': no counters are controlled by '%s'", r->name, e->reg);
    for (const struct regc_set *s = e->sets; s && s->field; s++) {
        int rc = own_set(s, e) ? 0 : rate_other(sim, r, s);
        if (rc)
            return rc;
    }
    return 0;
}

/* "REG.FIELD" = 'value' in a rate: an exact condition on that register of the rate's instance. */
static int rate_reg_field(regc_sim *sim, struct sim_rate *r, char *term, const char *value)
{
    uint64_t v;
    char why[96];
    if (regc_num_parse(value, REGC_NUM_NUL, 0, UINT64_MAX, 0, &v, why, sizeof(why)))
        return rate_fail(sim, -EINVAL, "'%s': value '%s' for '%s': %s", r->name, value, term, why);
    char *dot = strchr(term, '.');
    *dot = '\0';
    struct regc_set set = {term, dot + 1, v};
    return rate_other(sim, r, &set);
}

/* The traffic attribute 'name' one of b's filters selects on (borrowed from the tables), or NULL.
 */
static const char *traffic_name(const struct regc_block *b, const char *name)
{
    for (const struct regc_filter *f = b->pmon ? b->pmon->filters : NULL; f && f->reg; f++)
        if (regc__streq(f->traffic, name))
            return f->traffic;
    return NULL;
}

/* ",reg=CONTROL" (raw), ",dir=...", ",ctr=N" (ignored), ",FIELD=VALUE" (exact on the control),
 * ",ATTR=VALUE" (an attribute of the traffic a filter of the block selects on: state=2). */
static int rate_terms(regc_sim *sim, struct sim_rate *r, char *terms)
{
    for (char *t = terms, *next; t && *t; t = next) {
        next = strchr(t, ',');
        if (next)
            *next++ = '\0';
        char *eq = strchr(t, '=');
        if (!eq)
            return rate_fail(sim, -EINVAL, "'%s': expected FIELD=VALUE, got '%s'", r->name, t);
        *eq++ = '\0';
        if (regc__streq(t, "reg")) {
            r->c = regc__block_counters(r->b, eq);
            if (!r->c)
                return rate_fail(sim, -ENOENT, "'%s': no counters are controlled by '%s'", r->name,
                                 eq);
            continue;
        }
        if (regc__streq(t, "dir") || regc__streq(t, "ctr"))
            continue;
        if (!r->c)
            return rate_fail(sim, -EINVAL, "'%s': a raw event needs reg=CONTROL first", r->name);
        if (strchr(t,
                   '.')) { /* REG.FIELD=VALUE: that register of the instance holds it (a filter) */
            int rc = rate_reg_field(sim, r, t, eq);
            if (rc)
                return rc;
            continue;
        }
        const struct regc_reg *reg = regc_block_reg(r->b, r->c->control);
        const struct regc_field *f = reg ? regc_reg_field(reg, t) : NULL;
        const char *traffic = f ? NULL : traffic_name(r->b, t);
        if (!f && !traffic)
            return rate_fail(sim, -ENOENT,
                             "'%s': no field '%s' in the event's control, nor a traffic "
                             "attribute a filter of the block selects on",
                             r->name, t);
        uint64_t v;
        char why[96];
        if (regc_num_parse(eq, REGC_NUM_NUL, 0,
                           f ? regc_num_max_bits(f->msb - f->lsb + 1u) : UINT64_MAX, 0, &v, why,
                           sizeof(why)))
            return rate_fail(sim, -EINVAL, "'%s': value '%s' for %s '%s': %s", r->name, eq,
                             f ? "field" : "traffic attribute", t, why);
        if (traffic) {
            if (r->nattr >= SIM_MAX_OTHER)
                return rate_fail(sim, -ENOSPC, "'%s': too many traffic attributes", r->name);
            r->attr[r->nattr].name = traffic;
            r->attr[r->nattr++].v = v;
            continue;
        }
        r->mask |= regc_field_mask(f);
        r->value = regc_field_put(f, r->value, v);
        r->shaped |= (regc_field_mask(f) & shaping_mask(reg, r->c)) != 0;
    }
    return r->c ? 0 : rate_fail(sim, -EINVAL, "'%s': a raw event needs reg=CONTROL", r->name);
}

/* Parses 'name' into r (r->name owned). 0 or -errno with sim->err set. */
static int rate_parse(regc_sim *sim, struct sim_rate *r, const char *name)
{
    *r = (struct sim_rate){.name = strdup(name)};
    char perf[512]; /* perf's language (runtime/perf_lang.c) as regc's own syntax */
    int rc = regc__perf_lang(sim->spec, name, perf, sizeof(perf), sim->err, sizeof(sim->err));
    if (rc < 0) {
        free(r->name);
        r->name = NULL;
        return rc;
    }
    char *buf = strdup(rc ? perf : name);
    rc = -ENOMEM;
    if (!r->name || !buf) {
        snprintf(sim->err, sizeof(sim->err), "out of memory");
        goto out;
    }
    char *colon = strchr(buf, ':');
    if (!colon) {
        rc = rate_fail(sim, -EINVAL, "'%s': expected BLOCK[INSTANCE]:EVENT", name);
        goto out;
    }
    *colon = '\0';
    char *terms = strchr(colon + 1, ',');
    if (terms)
        *terms++ = '\0';
    rc = rate_target(sim, r, buf);
    if (!rc)
        rc = rate_event(sim, r, colon + 1);
    if (!rc)
        rc = rate_terms(sim, r, terms);
out:
    free(buf);
    if (rc) {
        free_rate(r);
        r->name = NULL;
    }
    return rc;
}

/* The table entry counter k's control encodes now (cached per control value); NULL: none. */
static const struct regc_event *counter_event(regc_sim *sim, struct sim_ctr *k)
{
    if (!k->ev_known || k->ev_value != k->ctl->value) {
        k->ev = encoded_event(sim, k, k->ctl->value);
        k->ev_value = k->ctl->value;
        k->ev_known = true;
    }
    return k->ev;
}

/* Does filter f, holding 'v', select traffic of rate r (sim.h: an attribute r does not give is
 * whatever the filter selects, but a mask or set-only filter at 0 selects nothing)? */
static bool filter_selects(const struct regc_filter *f, uint64_t v, const struct sim_rate *r)
{
    const uint64_t *attr = NULL;
    for (unsigned i = 0; f->traffic && i < r->nattr && !attr; i++)
        if (regc__streq(r->attr[i].name, f->traffic))
            attr = &r->attr[i].v;
    switch (f->match) {
    case REGC_FILTER_MASK:
        return attr ? *attr < 64 && ((v >> *attr) & 1) : v != 0;
    case REGC_FILTER_EQUAL:
        return !attr || v == *attr;
    case REGC_FILTER_AT_LEAST:
        return !attr || *attr >= v;
    default:
        return v != 0;
    }
}

/* The box filters the event counter k counts needs (regc_event.filters) select r's traffic. */
static bool filters_select(regc_sim *sim, struct sim_ctr *k, const struct sim_rate *r)
{
    const struct regc_event *ev = counter_event(sim, k);
    for (const char *const *ref = ev && ev->filters ? ev->filters : NULL; ref && *ref; ref++) {
        const struct regc_filter *f = regc_block_filter(k->block, *ref);
        const struct regc_reg *reg = f ? regc_block_reg(k->block, f->reg) : NULL;
        struct sim_reg *copy =
            reg ? find_copy(sim, k->block, k->inst, reg->name, reg->is_array ? (int)reg->first : -1)
                : NULL;
        const struct regc_field *fld = copy ? regc_reg_field(reg, f->field) : NULL;
        if (fld && !filter_selects(f, regc_field_get(fld, copy->value), r))
            return false;
    }
    return true;
}

/* Counter k's control (and the other registers of its instance) encode rate r's event. */
static bool encodes(const struct sim_ctr *k, const struct sim_rate *r)
{
    if (k->c != r->c || k->block != r->b || k->inst != r->inst ||
        (k->ctl->value & r->mask) != r->value)
        return false;
    uint64_t umask = k->ctl->value & r->or.field;
    if (r->or.field && ((umask & r->or.bits) != r->or.bits || (umask & ~r->or.all)))
        return false;
    for (unsigned i = 0; i < r->nother; i++)
        if (regc_field_get(r->other[i].f, r->other[i].copy->value) != r->other[i].v)
            return false;
    return true;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * How much counter k adds for 'n' occurrences spread over 'ncycles' cycles
 * (sim.h: cycle c gets floor((c+1)n/L) - floor(cn/L), so q = n/L or q+1),
 * after its threshold, invert and edge fields; updates its edge state. In
 * closed form: the r = n%L cycles of q+1 lie apart from each other (2r <= L)
 * or the L-r cycles of q do (2r > L), the first cycle has q and the last
 * q+1, so either kind of cycle forms min(r, L-r) runs.
 */
static uint64_t shape(struct sim_ctr *k, uint64_t n, uint64_t ncycles)
{
    const struct regc_counters *c = k->c;
    uint64_t t = fget(k->ctl, c->threshold);
    bool inv = fget(k->ctl, c->invert) != 0, edge = fget(k->ctl, c->edge) != 0;
    if (!t && !edge)
        return n;
    uint64_t q = n / ncycles, r = n % ncycles, runs = r < ncycles - r ? r : ncycles - r;
    bool lo = !t ? q > 0 : inv ? q < t : q >= t;
    bool hi = r && (!t ? true : inv ? q + 1 < t : q + 1 >= t);
    if (!edge)
        return (lo ? ncycles - r : 0) + (hi ? r : 0);
    uint64_t add;
    if (!r || lo == hi) { /* one comparison all along: at most the edge into it */
        add = lo && !k->prev;
        k->prev = lo;
    } else if (hi) { /* true on the q+1 cycles: each run rises; the last cycle is one */
        add = runs;
        k->prev = true;
    } else { /* true on the q cycles: the first run starts at cycle 0, the last cycle is not */
        add = runs - 1 + !k->prev;
        k->prev = false;
    }
    return add;
}

/* One delivery: rates[i] gives up[i] occurrences and down[i] decrements. */
struct delivery {
    const struct sim_rate *const *rates;
    const uint64_t *up, *down;
    size_t n;
    uint64_t ncycles; /* the cycles they are spread over */
};

static int decrement_refused(regc_sim *sim, const struct sim_ctr *k, const struct sim_rate *r)
{
    char nm[160];
    struct regc_ref ref = {.spec = sim->spec,
                           .block = k->block,
                           .instance = k->inst,
                           .reg = k->ctl->reg,
                           .index = k->ctl->index};
    return rate_fail(sim, -EINVAL,
                     "'%s': decrements reached %s, which does not count up and down "
                     "(dir=up-down)",
                     r->name, regc_ref_name(&ref, nm, sizeof(nm)));
}

/*
 * Delivers d to every running counter: the occurrences of the rates its
 * control encodes, added up and spread together over the cycles (an event
 * whose entry sets the threshold itself counts as given), then the
 * decrements at once. A counter no rate reaches still sees the cycles,
 * idle: with thresh and invert it counts them.
 */
static int deliver(regc_sim *sim, const struct delivery *d)
{
    int rc = 0;
    sim->elapsed += d->ncycles;
    for (size_t i = 0; i < sim->nctrs; i++) {
        struct sim_ctr *k = &sim->ctrs[i];
        if (!running(sim, k))
            continue;
        uint64_t plain = 0, given = 0, dec = 0;
        const struct sim_rate *dec_rate = NULL;
        for (size_t j = 0; j < d->n; j++) {
            const struct sim_rate *r = d->rates[j];
            if (!encodes(k, r) || !filters_select(sim, k, r))
                continue;
            if (r->shaped)
                given = sat_add(given, d->up[j]);
            else
                plain = sat_add(plain, d->up[j]);
            if (d->down[j])
                dec = sat_add(dec, d->down[j]), dec_rate = r;
        }
        count_signed(sim, k, false, sat_add(given, shape(k, plain, d->ncycles)));
        if (dec && count_signed(sim, k, true, dec) < 0)
            rc = decrement_refused(sim, k, dec_rate);
    }
    return rc;
}

/* Rate r's n per interval (n < 0: decrements) over one interval of the clock. */
static int deliver_one(regc_sim *sim, const struct sim_rate *r, int64_t n, uint64_t ncycles)
{
    /* the magnitude of INT64_MIN is 2^63: computed in unsigned arithmetic */
    uint64_t up = n > 0 ? (uint64_t)n : 0, down = n < 0 ? (uint64_t)0 - (uint64_t)n : 0;
    const struct sim_rate *rates[1] = {r};
    struct delivery d = {rates, &up, &down, 1, ncycles};
    return deliver(sim, &d);
}

/* ---- the encodings seen */

static void see(regc_sim *sim, const struct sim_ctr *k)
{
    for (size_t i = 0; i < sim->nseen; i++)
        if (sim->seen[i].ctl.reg == k->ctl->reg && sim->seen[i].ctl.instance == k->inst &&
            sim->seen[i].ctl.index == k->ctl->index && sim->seen[i].value == k->ctl->value)
            return;
    struct regc_sim_encoding *n = regc_grow(sim->seen, &sim->seen_cap, sim->nseen + 1, sizeof(*n));
    if (!n)
        return; /* a report, not a count: nothing lost but the entry */
    sim->seen = n;
    n[sim->nseen++] = (struct regc_sim_encoding){.ctl = {.spec = sim->spec,
                                                         .block = k->block,
                                                         .instance = k->inst,
                                                         .reg = k->ctl->reg,
                                                         .index = k->ctl->index,
                                                         .address = k->ctl->address},
                                                 .value = k->ctl->value,
                                                 .event = encoded_event(sim, k, k->ctl->value)};
}

/* Records the encodings of the running counters that have event tables. */
static void see_all(regc_sim *sim)
{
    for (size_t i = 0; i < sim->nctrs; i++)
        if (sim->ctrs[i].has_events && running(sim, &sim->ctrs[i]))
            see(sim, &sim->ctrs[i]);
}

size_t regc_sim_encodings(const regc_sim *sim, bool unmatched, struct regc_sim_encoding *out,
                          size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < sim->nseen; i++) {
        if (unmatched && sim->seen[i].event)
            continue;
        if (n < max)
            out[n] = sim->seen[i];
        n++;
    }
    return n;
}

void regc_sim_encodings_clear(regc_sim *sim)
{
    sim->nseen = 0;
}

/* ---- the rate API */

const char *regc_sim_error(const regc_sim *sim)
{
    return sim->err;
}

int regc_sim_rate(regc_sim *sim, const char *event, int64_t n)
{
    struct sim_rate r;
    sim->err[0] = '\0';
    int rc = rate_parse(sim, &r, event);
    if (rc)
        return rc;
    r.n = n;
    for (size_t i = 0; i < sim->nrates; i++)
        if (regc__streq(sim->rates[i].name, event)) {
            free_rate(&sim->rates[i]);
            if (n) {
                sim->rates[i] = r;
                return 0;
            }
            free_rate(&r);
            memmove(&sim->rates[i], &sim->rates[i + 1],
                    (sim->nrates - i - 1) * sizeof(*sim->rates));
            sim->nrates--;
            return 0;
        }
    if (!n) {
        free_rate(&r);
        return 0;
    }
    struct sim_rate *nr = regc_grow(sim->rates, &sim->rates_cap, sim->nrates + 1, sizeof(*nr));
    if (!nr) {
        free_rate(&r);
        return rate_fail(sim, -ENOMEM, "out of memory");
    }
    sim->rates = nr;
    nr[sim->nrates++] = r;
    return 0;
}

void regc_sim_rates_clear(regc_sim *sim)
{
    for (size_t i = 0; i < sim->nrates; i++)
        free_rate(&sim->rates[i]);
    sim->nrates = 0;
}

/* Opens a batch for a delivery (unless one is open: the caller's), after recording the encodings.
 */
static bool batched_begin(regc_sim *sim)
{
    bool outer = sim->batch;
    sim->batch = true;
    sim->err[0] = '\0';
    see_all(sim);
    return outer;
}

static void batched_end(regc_sim *sim, bool outer)
{
    if (!outer)
        regc_sim_batch(sim, false);
}

int regc_sim_clock(regc_sim *sim, uint64_t cycles)
{
    if (!cycles)
        return -EINVAL;
    sim->cycles = cycles;
    return 0;
}

uint64_t regc_sim_clock_get(const regc_sim *sim)
{
    return sim->cycles;
}

uint64_t regc_sim_elapsed(const regc_sim *sim)
{
    return sim->elapsed;
}

int regc_sim_interval(regc_sim *sim)
{
    bool outer = batched_begin(sim);
    size_t n = sim->nrates;
    const struct sim_rate **rates = malloc((n + 1) * sizeof(*rates));
    uint64_t *up = malloc((n + 1) * sizeof(*up)), *down = malloc((n + 1) * sizeof(*down));
    int rc = 0;
    if (!rates || !up || !down) {
        rc = rate_fail(sim, -ENOMEM, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t v = sim->rates[i].n;
        rates[i] = &sim->rates[i];
        up[i] = v > 0 ? (uint64_t)v : 0;
        down[i] = v < 0 ? (uint64_t)0 - (uint64_t)v : 0;
    }
    struct delivery d = {rates, up, down, n, sim->cycles};
    rc = deliver(sim, &d);
out:
    free(rates);
    free(up);
    free(down);
    batched_end(sim, outer);
    return rc;
}

/*
 * Occurrences of 'event' now, each step one batch: 'n' over one interval of
 * the clock (inc NULL), or one cycle per element of inc[ncycles].
 */
static int occur(regc_sim *sim, const char *event, int64_t n, const uint64_t *inc, size_t ncycles)
{
    struct sim_rate r;
    sim->err[0] = '\0';
    int rc = rate_parse(sim, &r, event);
    for (size_t c = 0; !rc && c < (inc ? ncycles : 1); c++) {
        bool outer = batched_begin(sim);
        if (inc) {
            uint64_t down = 0;
            const struct sim_rate *rates[1] = {&r};
            struct delivery d = {rates, &inc[c], &down, 1, 1};
            rc = deliver(sim, &d);
        } else {
            rc = deliver_one(sim, &r, n, sim->cycles);
        }
        batched_end(sim, outer);
    }
    if (r.name)
        free_rate(&r);
    return rc;
}

int regc_sim_event(regc_sim *sim, const char *event, int64_t n)
{
    return occur(sim, event, n, NULL, 0);
}

int regc_sim_cycles(regc_sim *sim, const char *event, const uint64_t *inc, size_t ncycles)
{
    return occur(sim, event, 0, inc, ncycles);
}

/* ---- the sim backend */

struct sim_be {
    regc_sim *sim;
    bool owned;
};

static int simbe_open(struct regc_backend *be, char *err, size_t errlen)
{
    struct sim_be *sb = calloc(1, sizeof(*sb));
    if (!sb)
        return regc__err(err, errlen, -ENOMEM, "out of memory");
    sb->sim = be->opt->sim;
    if (!sb->sim) {
        int rc = regc_sim_new(&sb->sim, be->spec);
        if (rc < 0) {
            free(sb);
            return regc__err(err, errlen, rc, "cannot build the simulator: out of memory");
        }
        sb->owned = true;
    }
    be->priv = sb;
    return 0;
}

static void simbe_close(struct regc_backend *be)
{
    struct sim_be *sb = be->priv;
    if (sb->owned)
        regc_sim_free(sb->sim);
    free(sb);
}

static int simbe_read(struct regc_backend *be, const struct regc_io *io, uint64_t *value)
{
    return regc_sim_read(((struct sim_be *)be->priv)->sim, io, value);
}

static int simbe_write(struct regc_backend *be, const struct regc_io *io, uint64_t value)
{
    return regc_sim_write(((struct sim_be *)be->priv)->sim, io, value);
}

regc_sim *regc__simbe_sim(const struct regc_backend *be)
{
    return ((const struct sim_be *)be->priv)->sim;
}

const struct regc_backend_ops regc_sim_ops = {.name = "sim",
                                              .open = simbe_open,
                                              .close = simbe_close,
                                              .read = simbe_read,
                                              .write = simbe_write};
