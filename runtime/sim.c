/*
 * sim - the simulator (regc/sim.h) and the sim backend. Everything it does
 * comes from the descriptor tables: attribute semantics from attr.h, counter
 * behaviour from the block's pmon topology and the spec's pmon_global.
 */
#include "internal.h"
#include "regc/sim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct sim_reg { /* one concrete register copy */
    const struct regc_block *block;
    const struct regc_instance *inst; /* NULL when the block has none */
    const struct regc_reg *reg;
    int index;
    uint64_t address;
    uint64_t value;
    bool stopped; /* a counter that stopped at over/underflow (stop mode) until software writes it
                     or its control */
};

struct addr_fault {
    uint64_t address;
    int err;
};

struct regc_sim {
    const struct regc_spec *spec;
    struct sim_reg *regs;
    size_t nregs;
    bool global_frozen;   /* by the global control's freeze action */
    bool batch;           /* regc_sim_batch: events of one cycle, freezes applied at its end */
    bool pending_freeze;  /* a freeze-on-overflow seen during the batch */
    bool pending_disable; /* a global-enable clear seen during the batch */
    uint64_t sel_frozen;  /* global control with a select field: counters frozen by index */
    unsigned long accesses;
    unsigned long fail_at; /* access number that fails; 0: none */
    int fail_err;
    struct addr_fault *faults;
    size_t nfaults;
};

static uint64_t low_mask(unsigned width)
{
    return width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1;
}

static bool streq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static int add_copies(regc_sim *sim, const struct regc_block *b, const struct regc_reg *r)
{
    for (const struct regc_addr *a = r->addrs; a && a->index != REGC_ADDR_END; a++) {
        struct sim_reg *n = realloc(sim->regs, (sim->nregs + 1) * sizeof(*n));
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

int regc_sim_new(regc_sim **out, const struct regc_spec *spec)
{
    regc_sim *sim = calloc(1, sizeof(*sim));
    if (!sim)
        return -ENOMEM;
    sim->spec = spec;
    for (const struct regc_block *b = spec->blocks; b->name; b++)
        for (const struct regc_reg *r = b->regs; r->name; r++)
            if (add_copies(sim, b, r) < 0) {
                regc_sim_free(sim);
                return -ENOMEM;
            }
    *out = sim;
    return 0;
}

void regc_sim_free(regc_sim *sim)
{
    if (!sim)
        return;
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
    struct addr_fault *n = realloc(sim->faults, (sim->nfaults + 1) * sizeof(*n));
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

static struct sim_reg *find_io(regc_sim *sim, const struct regc_io *io)
{
    for (size_t i = 0; i < sim->nregs; i++) {
        struct sim_reg *s = &sim->regs[i];
        if (s->reg->space != io->space || s->address != io->address)
            continue;
        if (io->space == REGC_SPACE_PCI &&
            (!s->inst || !io->pci || memcmp(&s->inst->pci, io->pci, sizeof(*io->pci)) != 0))
            continue;
        return s;
    }
    return NULL;
}

static struct sim_reg *find_copy(regc_sim *sim, const struct regc_block *b,
                                 const struct regc_instance *inst, const char *reg, int index)
{
    for (size_t i = 0; i < sim->nregs; i++) {
        struct sim_reg *s = &sim->regs[i];
        if (s->block == b && s->inst == inst && streq(s->reg->name, reg) &&
            (index < 0 || s->index < 0 || s->index == index))
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

static struct sim_reg *global_reg(regc_sim *sim, const char *block, const char *reg)
{
    const struct regc_block *b = block ? regc_spec_block(sim->spec, block) : NULL;
    if (!b)
        return NULL;
    const struct regc_instance *inst = b->instances && b->instances->name ? b->instances : NULL;
    return find_copy(sim, b, inst, reg, -1);
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

/* Software wrote copy 's': a counter it is, or controls, counts again if it had stopped. */
static void rearm(regc_sim *sim, struct sim_reg *s)
{
    s->stopped = false;
    const struct regc_pmon *pm = s->block->pmon;
    for (const struct regc_counters *c = pm ? pm->counters : NULL; c && c->control; c++) {
        struct sim_reg *ctr = streq(s->reg->name, c->control)
                                  ? find_copy(sim, s->block, s->inst, c->counter, s->index)
                                  : NULL;
        if (ctr)
            ctr->stopped = false;
    }
}

static void reset_box(regc_sim *sim, const struct sim_reg *s, bool counters, bool controls)
{
    for (size_t i = 0; i < sim->nregs; i++) {
        struct sim_reg *o = &sim->regs[i];
        if (o->block != s->block || o->inst != s->inst)
            continue;
        for (const struct regc_counters *c = s->block->pmon->counters; c->control; c++) {
            if (counters && streq(o->reg->name, c->counter))
                zero_count(o, c);
            if (controls && streq(o->reg->name, c->control) && !streq(c->control, c->counter))
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
            if (streq(o->reg->name, c->counter))
                zero_count(o, c);
    }
}

/* The actions a write to copy 's' of value 'v' triggers (WO bits, resets, freezes, clears). */
static void pmon_actions(regc_sim *sim, struct sim_reg *s, uint64_t v)
{
    const struct regc_pmon *pm = s->block->pmon;
    for (const struct regc_counters *c = pm ? pm->counters : NULL; c && c->control; c++)
        if (streq(s->reg->name, c->control) && c->reset && wget(s, c->reset, v))
            zero_count(find_copy(sim, s->block, s->inst, c->counter, s->index), c);
    const struct regc_box_control *bc = pm ? pm->box_control : NULL;
    if (bc && streq(s->reg->name, bc->reg)) {
        /* freeze and freeze-enable are levels the box keeps, even where the manual prints them WO
         */
        fput(s, bc->freeze, wget(s, bc->freeze, v));
        fput(s, bc->freeze_enable, wget(s, bc->freeze_enable, v));
    }
    if (bc && streq(s->reg->name, bc->reg))
        reset_box(sim, s, bc->reset_counters && wget(s, bc->reset_counters, v),
                  bc->reset_controls && wget(s, bc->reset_controls, v));
    const struct regc_box_status *bs = pm ? pm->box_status : NULL;
    if (bs && bs->clear == REGC_CLEAR_REGISTER && streq(s->reg->name, bs->clear_reg))
        clear_bits(find_copy(sim, s->block, s->inst, bs->reg, -1), bs->overflow,
                   wget(s, bs->clear_field, v));
    const struct regc_pmon_global *pg = sim->spec->pmon_global;
    const struct regc_global_control *gc = pg ? pg->control : NULL;
    if (gc && streq(s->block->name, gc->block) && streq(s->reg->name, gc->reg)) {
        if (gc->freeze && gc->unfreeze &&
            wget(s, gc->freeze, v)) /* without an unfreeze action the freeze is a level */
            sim->global_frozen = true;
        if (gc->unfreeze && wget(s, gc->unfreeze, v))
            sim->global_frozen = false;
        if (gc->select)
            select_actions(sim, s, v);
    }
    const struct regc_global_status *gs = pg ? pg->status : NULL;
    if (gs && gs->clear == REGC_CLEAR_REGISTER && streq(s->block->name, gs->block) &&
        streq(s->reg->name, gs->clear_reg)) {
        struct sim_reg *st = global_reg(sim, gs->block, gs->reg);
        for (const struct regc_box_overflow *bo = gs->boxes; st && bo->block; bo++)
            clear_bits(st, bo->field, wget(s, bo->field, v));
    }
}

/* ---- reads and writes */

static uint64_t read_value(const struct sim_reg *s)
{
    uint64_t v = s->value & low_mask(s->reg->width);
    for (const struct regc_field *f = s->reg->fields; f->name; f++) {
        enum regc_sem sem = regc_field_sem(f);
        if (sem == REGC_SEM_WO || sem == REGC_SEM_MBZ || sem == REGC_SEM_IG)
            v &= ~regc_field_mask(f);
    }
    return v;
}

/* The value the register holds after a write of 'v'; -EIO where the CPU would #GP. */
static int store_value(const struct sim_reg *s, uint64_t v, uint64_t *out)
{
    const struct regc_reg *r = s->reg;
    if ((v & ~low_mask(r->width)) || (v & r->mbz))
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

static bool box_frozen(regc_sim *sim, const struct regc_block *b, const struct regc_instance *inst)
{
    const struct regc_box_control *bc = b->pmon->box_control;
    struct sim_reg *s = bc ? find_copy(sim, b, inst, bc->reg, -1) : NULL;
    return s && bc->freeze && fget(s, bc->freeze);
}

static bool global_stopped(regc_sim *sim)
{
    if (sim->global_frozen)
        return true;
    const struct regc_global_control *gc =
        sim->spec->pmon_global ? sim->spec->pmon_global->control : NULL;
    struct sim_reg *s = gc ? global_reg(sim, gc->block, gc->reg) : NULL;
    if (!s)
        return false;
    /* a freeze field that is a level (no unfreeze action): frozen while 1 */
    if (gc->freeze && !gc->unfreeze && fget(s, gc->freeze))
        return true;
    return gc->enable && !fget(s, gc->enable);
}

static bool counter_enabled(regc_sim *sim, const struct regc_block *b,
                            const struct regc_instance *inst, const struct regc_counters *c,
                            struct sim_reg *ctl, unsigned i)
{
    const struct regc_box_control *bc = b->pmon->box_control;
    /* both the counter's own enable and the box's per-counter enable bit, where each exists */
    if (c->enable && !fget(ctl, c->enable))
        return false;
    if (bc && bc->enable) {
        struct sim_reg *box = find_copy(sim, b, inst, bc->reg, -1);
        return box && ((fget(box, bc->enable) >> i) & 1);
    }
    return true;
}

static bool select_frozen(regc_sim *sim, const struct regc_block *b, unsigned i)
{
    const struct regc_global_control *gc =
        sim->spec->pmon_global ? sim->spec->pmon_global->control : NULL;
    return gc && gc->select && streq(gc->block, b->name) && i < 64 && ((sim->sel_frozen >> i) & 1);
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
        return !streq(c->kind, "fixed");
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
    struct sim_reg *gr = gc ? global_reg(sim, gc->block, gc->reg) : NULL;
    if (sim->pending_freeze)
        sim->global_frozen = true;
    if (sim->pending_disable && gr)
        fput(gr, gc->enable, 0);
    sim->pending_freeze = sim->pending_disable = false;
}

void regc_sim_batch(regc_sim *sim, bool on)
{
    sim->batch = on;
    if (!on)
        apply_pending(sim);
}

/* Overflow of counter i: box status, global status, freezes on overflow. */
static void overflow(regc_sim *sim, const struct regc_block *b, const struct regc_instance *inst,
                     const struct regc_counters *c, struct sim_reg *ctl, unsigned i)
{
    const struct regc_pmon *pm = b->pmon;
    /* the overflow leaves the box (global status, PMI, freeze) only where the counter's pmi field
     * allows */
    bool pmi = !c->pmi || !fhas(ctl, c->pmi) || fget(ctl, c->pmi);
    unsigned bit;
    if (pm->box_status && status_bit(b, c, i, &bit))
        fsetbit(find_copy(sim, b, inst, pm->box_status->reg, -1), pm->box_status->overflow, bit,
                true);
    if (pm->box_control && pm->box_control->freeze_enable) {
        struct sim_reg *box = find_copy(sim, b, inst, pm->box_control->reg, -1);
        if (box && fget(box, pm->box_control->freeze_enable))
            fput(box, pm->box_control->freeze, 1);
    }
    const struct regc_pmon_global *pg = sim->spec->pmon_global;
    const struct regc_global_status *gs = pg ? pg->status : NULL;
    struct sim_reg *st = gs && pmi ? global_reg(sim, gs->block, gs->reg) : NULL;
    unsigned idx;
    inst_index(b, inst, &idx);
    for (const struct regc_box_overflow *bo = st ? gs->boxes : NULL; bo && bo->block; bo++) {
        if (!streq(bo->block, b->name) ||
            (bo->instance && !(inst && streq(bo->instance, inst->name))) ||
            !regc_box_overflow_reports(gs, bo, c))
            continue;
        const struct regc_field *bf = regc_reg_field(st->reg, bo->field);
        bool one = bf && bf->msb == bf->lsb; /* one bit for every instance (Sandy Bridge CBox) */
        fsetbit(st, bo->field, bo->instance || one ? 0 : idx, true);
    }
    const struct regc_global_control *gc = pg ? pg->control : NULL;
    struct sim_reg *gr = gc ? global_reg(sim, gc->block, gc->reg) : NULL;
    if (c->freeze_on_overflow && pmi) {
        if (gr && gc->enable) /* the U-Box disables counting (Xeon 7500 en_all) */
            sim->pending_disable = true;
        else
            sim->pending_freeze = true;
    }
    struct sim_reg *g = gc && gc->freeze_on_overflow ? global_reg(sim, gc->block, gc->reg) : NULL;
    if (g && fget(g, gc->freeze_on_overflow) && gc->enable)
        sim->pending_disable = true;
    if (!sim->batch)
        apply_pending(sim);
}

/*
 * The counter moves n steps up ('up') or down. Past 2^w-1 (overflow) or
 * below 0 (underflow) it wraps, or stops at that end until software writes
 * it or its control (the wrap field chooses where there is one); both are
 * reported as an overflow.
 */
static void count(regc_sim *sim, const struct regc_block *b, const struct regc_instance *inst,
                  const struct regc_counters *c, unsigned i, bool up, uint64_t n)
{
    struct sim_reg *ctl = find_copy(sim, b, inst, c->control, (int)i);
    struct sim_reg *ctr = find_copy(sim, b, inst, c->counter, (int)i);
    if (!ctl || !ctr || ctr->stopped || !counter_enabled(sim, b, inst, c, ctl, i) ||
        box_frozen(sim, b, inst) || global_stopped(sim) || select_frozen(sim, b, i))
        return;
    uint64_t max = low_mask(c->width),
             cur = c->count_field ? fget(ctr, c->count_field) : ctr->value;
    cur &= max;
    bool wrap = c->overflow == REGC_OVF_WRAP;
    if (c->wrap_field && fhas(ctl, c->wrap_field))
        wrap = fget(ctl, c->wrap_field) != 0;
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
        overflow(sim, b, inst, c, ctl, i);
}

/* 'delta' signals for counter i: its direction field decides which way they move it. -EINVAL for a
 * decrement (delta < 0) on a counter not set to count up and down. */
static int count_signed(regc_sim *sim, const struct regc_block *b,
                        const struct regc_instance *inst, const struct regc_counters *c, unsigned i,
                        bool decrement, uint64_t n)
{
    struct sim_reg *ctl = find_copy(sim, b, inst, c->control, (int)i);
    enum regc_direction dir = ctl ? regc_counters_direction(c, ctl->reg, ctl->value) : REGC_DIR_UP;
    if (decrement && dir != REGC_DIR_UP_DOWN)
        return -EINVAL;
    if (dir != REGC_DIR_NONE) /* an undefined direction encoding counts nothing */
        count(sim, b, inst, c, i, dir != REGC_DIR_DOWN && !decrement, n);
    return 0;
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

static int tick(regc_sim *sim, const char *block, const char *inst, unsigned group,
                unsigned counter, bool decrement, uint64_t n)
{
    const struct regc_block *b;
    const struct regc_instance *in;
    if (block_inst(sim, block, inst, &b, &in) < 0)
        return -ENOENT;
    const struct regc_counters *c = b->pmon->counters;
    for (unsigned g = 0; c->control && g < group; g++)
        c++;
    if (!c->control || !find_copy(sim, b, in, c->control, (int)counter))
        return -ENOENT;
    return count_signed(sim, b, in, c, counter, decrement, n);
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

static bool selects(const struct sim_reg *ctl, const struct regc_event *e)
{
    if (wget(ctl, e->field, ctl->value) != e->code)
        return false;
    return !e->has_umask || !e->umask_field || fget(ctl, e->umask_field) == e->umask;
}

int regc_sim_event(regc_sim *sim, const char *block, const char *inst, const char *event,
                   uint64_t n)
{
    const struct regc_block *b;
    const struct regc_instance *in;
    if (block_inst(sim, block, inst, &b, &in) < 0)
        return -ENOENT;
    const struct regc_event *e = regc_block_event(b, event);
    if (!e)
        return -ENOENT;
    for (const struct regc_counters *c = b->pmon->counters; c->control; c++) {
        if (!streq(c->control, e->reg))
            continue;
        for (size_t i = 0; i < sim->nregs; i++) {
            struct sim_reg *ctl = &sim->regs[i];
            if (ctl->block == b && ctl->inst == in && streq(ctl->reg->name, c->control) &&
                selects(ctl, e))
                count_signed(sim, b, in, c, ctl->index < 0 ? 0 : (unsigned)ctl->index, false, n);
        }
    }
    return 0;
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
