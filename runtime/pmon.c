/*
 * pmon - the performance-monitoring flows (regc/pmon.h), driven by the
 * spec's pmon topology only. Sources of the steps: Xeon E5-2600 v2 uncore
 * guide 329468 section 2.1 (freeze, reset, program, preload, unfreeze; poll;
 * hierarchical overflow status), E5-2600 guide 327043 section 2.1 (per box
 * freeze), SDM Vol. 3B 18.9 (Sandy Bridge EN/FREEZE), 18.21.5 (Xeon 7100
 * GL_CTL), Xeon 7500 guide section 2.1.1 and 2.7.4 (preload (2^48-1)-N).
 */
#include <errno.h>
#include <stdarg.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "internal.h"
#include "pmon_int.h"
#include "pmon_perf.h"
#include "regc/pmon.h"
#include "regc/sim.h"
#include "share.h"

#define fail regc__pmon_fail /* the session's error setter (pmon_int.h) */

int regc_pmon_new(regc_pmon_session **out, regc_dev *d)
{
    regc_pmon_session *p = calloc(1, sizeof(*p));
    if (!p)
        return -ENOMEM;
    p->d = d;
    p->s = regc_dev_spec(d);
    *out = p;
    return 0;
}

void regc_pmon_set_pci_device(regc_pmon_session *p, regc_dev *pci)
{
    p->pci = pci;
}

void regc_pmon_free(regc_pmon_session *p)
{
    if (p && (p->share || p->perf))
        regc_pmon_release(p);
    for (unsigned i = 0; p && i < p->nreq; i++)
        free(p->req[i].name);
    if (p) {
        free(p->req);
        free(p->slot);
        free(p->ev);
    }
    free(p);
}

const char *regc_pmon_error(const regc_pmon_session *p)
{
    return p->err;
}

unsigned regc_pmon_count(const regc_pmon_session *p)
{
    return p->nreq;
}

static uint64_t scaled_total(const regc_pmon_session *p, const struct pmon_ev *e);

/* Box k of added event i (both in range). */
static const struct pmon_ev *box_ev(const regc_pmon_session *p, unsigned i, unsigned k)
{
    return &p->ev[p->slot[p->req[i].first + k]];
}

uint64_t regc_pmon_total(const regc_pmon_session *p, unsigned i)
{
    uint64_t sum = 0; /* modulo 2^64: the signed counts of up-and-down events add up */
    for (unsigned k = 0; i < p->nreq && k < p->req[i].n; k++)
        sum += scaled_total(p, box_ev(p, i, k));
    return sum;
}

uint64_t regc_pmon_raw(const regc_pmon_session *p, unsigned i)
{
    uint64_t sum = 0;
    for (unsigned k = 0; i < p->nreq && k < p->req[i].n; k++)
        sum += box_ev(p, i, k)->total;
    return sum;
}

uint64_t regc_pmon_box_total(const regc_pmon_session *p, unsigned i, unsigned k)
{
    return i < p->nreq && k < p->req[i].n ? scaled_total(p, box_ev(p, i, k)) : 0;
}

unsigned long regc_pmon_overflows(const regc_pmon_session *p, unsigned i)
{
    unsigned long sum = 0;
    for (unsigned k = 0; i < p->nreq && k < p->req[i].n; k++)
        sum += box_ev(p, i, k)->overflows;
    return sum;
}

void regc_pmon_every_box(regc_pmon_session *p, bool on)
{
    p->every_box = on;
}

/* Box event e (an index of p->ev) as regc_pmon_info describes it. */
static void hw_info(const regc_pmon_session *p, unsigned hw, struct regc_pmon_info *out)
{
    const struct pmon_ev *e = &p->ev[hw];
    *out = (struct regc_pmon_info){.name = e->name,
                                   .block = e->b,
                                   .instance = e->inst,
                                   .counters = e->c,
                                   .index = e->index,
                                   .width = e->c ? e->c->width : 0,
                                   .direction = e->dir,
                                   .ctl = e->ctl,
                                   .ctr = e->ctr,
                                   .event = e->e,
                                   .nboxes = p->req[e->req].n,
                                   .groups = e->ngrp ? e->ngrp : 1,
                                   .group = e->grp};
}

int regc_pmon_box_info(const regc_pmon_session *p, unsigned i, unsigned k,
                       struct regc_pmon_info *out)
{
    if (i >= p->nreq || k >= p->req[i].n)
        return -ENOENT;
    hw_info(p, p->slot[p->req[i].first + k], out);
    out->nboxes = p->req[i].n; /* a box event shared by two added events: this one's boxes */
    return 0;
}

int regc_pmon_info(const regc_pmon_session *p, unsigned i, struct regc_pmon_info *out)
{
    if (i >= p->nreq)
        return -ENOENT;
    hw_info(p, p->slot[p->req[i].first], out);
    out->name = p->req[i].name;
    out->nboxes = p->req[i].n;
    return 0;
}

void regc_pmon_filter_check(regc_pmon_session *p, bool on)
{
    p->no_filter_check = !on;
}

/* Does 'e' set what 'o' sets (register, field, value), every setting of it? */
static bool sets_within(const struct pmon_ev *e, const struct pmon_ev *o)
{
    for (unsigned a = 0; a < e->nsets; a++) {
        bool found = false;
        for (unsigned k = 0; k < o->nsets && !found; k++)
            found = e->sets[a].reg == o->sets[k].reg && e->sets[a].field == o->sets[k].field &&
                    e->sets[a].value == o->sets[k].value;
        if (!found)
            return false;
    }
    return true;
}

/* The same box event: one box, one counter group, one encoding and the same settings, so one
 * counter counts it for both (how the added events spell it does not matter). */
static bool same_box_event(const struct pmon_ev *a, const struct pmon_ev *b)
{
    return a->b == b->b && a->inst == b->inst && a->c == b->c && a->e == b->e &&
           a->allowed == b->allowed && a->dir == b->dir && a->nsets == b->nsets &&
           sets_within(a, b) && sets_within(b, a);
}

/* One box's event, for added event 'req': a new box event, or the one an earlier added event
 * asked for already (its slot then names that one). */
static int add_box_event(regc_pmon_session *p, const char *name, unsigned req)
{
    struct pmon_ev *grown = regc_grow(p->ev, &p->cap, (size_t)p->n + 1, sizeof(*grown));
    unsigned *slots = regc_grow(p->slot, &p->slot_cap, (size_t)p->nslot + 1, sizeof(*slots));
    if (grown)
        p->ev = grown;
    if (slots)
        p->slot = slots;
    if (!grown || !slots)
        return fail(p, -ENOMEM, "out of memory");
    struct pmon_ev *e = &p->ev[p->n];
    *e = (struct pmon_ev){.index = -1, .dir = REGC_DIR_UP, .req = req, .active = true};
    if (strlen(name) >= sizeof(e->name))
        return fail(p, -EINVAL, "event name too long");
    strcpy(e->name, name);
    int rc = regc__pmon_parse_event(p, e, name);
    if (rc)
        return rc;
    unsigned at = 0;
    while (at < p->n && !(p->ev[at].req != req && same_box_event(&p->ev[at], e)))
        at++;
    p->slot[p->nslot++] = at;
    if (at == p->n)
        p->n++;
    return 0;
}

/* A message about box event 'box' names the event as the user added it: what is wrong with it
 * is wrong on every box. */
static void name_as_added(regc_pmon_session *p, const char *box, const char *name)
{
    char quoted[300], rest[sizeof(p->err)];
    snprintf(quoted, sizeof(quoted), "'%s'", box);
    size_t len = strlen(quoted);
    if (strncmp(p->err, quoted, len) != 0)
        return;
    memcpy(rest, p->err + len, sizeof(p->err) - len);
    size_t at = (size_t)snprintf(p->err, sizeof(p->err), "'%.200s'", name);
    memcpy(p->err + at, rest, strnlen(rest, sizeof(p->err) - at - 1));
    p->err[at + strnlen(rest, sizeof(p->err) - at - 1)] = '\0';
}

int regc_pmon_add(regc_pmon_session *p, const char *name)
{
    struct pmon_req *grown = regc_grow(p->req, &p->req_cap, (size_t)p->nreq + 1, sizeof(*grown));
    if (!grown)
        return fail(p, -ENOMEM, "out of memory");
    p->req = grown;
    char **boxes = NULL;
    unsigned nboxes = 1;
    int rc = p->every_box ? regc_pmon_boxes(p->s, name, &boxes, &nboxes) : 0;
    struct pmon_req *r = &p->req[p->nreq];
    *r = (struct pmon_req){.name = strdup(name), .first = p->nslot};
    unsigned n_before = p->n;
    if (rc || !r->name) {
        free(r->name);
        return fail(p, -ENOMEM, "out of memory");
    }
    for (unsigned k = 0; !rc && k < nboxes; k++) {
        rc = add_box_event(p, boxes ? boxes[k] : name, p->nreq);
        if (rc && boxes)
            name_as_added(p, boxes[k], name);
    }
    regc_pmon_boxes_free(boxes, nboxes);
    if (rc) { /* none of its boxes stays */
        p->n = n_before;
        p->nslot = r->first;
        free(r->name);
        return rc;
    }
    r->n = p->nslot - r->first;
    p->nreq++;
    return 0;
}

/* ---- counter assignment */

static unsigned group_len(const struct regc_block *b, const struct regc_counters *c,
                          unsigned *first)
{
    const struct regc_reg *r = regc_block_reg(b, c->control);
    if (!r || !r->is_array) {
        *first = 0;
        return 1;
    }
    *first = r->first;
    return r->count;
}

/* Do o and e share the counters of one box? */
static bool same_counters(const struct pmon_ev *o, const struct pmon_ev *e)
{
    return o->b == e->b && o->inst == e->inst && o->c == e->c;
}

/* Counter idx of e's box is taken in e's group. */
static bool taken(const regc_pmon_session *p, const struct pmon_ev *e, int idx)
{
    for (unsigned i = 0; i < p->n; i++) {
        const struct pmon_ev *o = &p->ev[i];
        if (o != e && o->index == idx && same_counters(o, e) && o->grp == e->grp)
            return true;
    }
    return false;
}

/* A counter for e in its group (e->grp); -EBUSY, with the message, when none is free. */
static int assign_one(regc_pmon_session *p, struct pmon_ev *e)
{
    unsigned first, len = group_len(e->b, e->c, &first);
    const struct regc_reg *r = regc_block_reg(e->b, e->c->control);
    bool array = r && r->is_array;
    for (unsigned k = first; k < first + len; k++) {
        if (e->allowed && (k >= 64 || !((e->allowed >> k) & 1)))
            continue;
        int idx = array ? (int)k : -1;
        if (taken(p, e, idx))
            continue;
        e->index = idx;
        int rc = regc_counter_refs(p->s, e->b, e->inst, e->c, array ? k : 0, &e->ctl, &e->ctr);
        if (rc)
            return fail(p, rc, "'%s': no counter copy %u", e->name, k);
        return 0;
    }
    return fail(p, -EBUSY, "'%s': no free counter among those that may count it in '%s%s%s'",
                e->name, e->b->name, e->inst ? "." : "", e->inst ? e->inst->name : "");
}

/* ==== multiplexing: groups of events per box (docs/monitoring.md "More events than counters") */

/* Has group g of e's box an event yet? */
static bool group_used(const regc_pmon_session *p, const struct pmon_ev *e, unsigned g)
{
    for (unsigned i = 0; i < p->n; i++)
        if (&p->ev[i] != e && p->ev[i].index != -2 && same_counters(&p->ev[i], e) &&
            p->ev[i].grp == g)
            return true;
    return false;
}

/* "0, 1" or "0..3": the counters (array indexes) e may count on, of first..first+len-1. */
static void allowed_list(const struct pmon_ev *e, unsigned first, unsigned len, char *buf,
                         size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    if (!e->allowed) {
        snprintf(buf, size, "%u..%u", first, first + len - 1);
        return;
    }
    for (unsigned k = first; k < first + len && k < 64 && at < size; k++)
        if ((e->allowed >> k) & 1)
            at += (size_t)snprintf(buf + at, size - at, "%s%u", at ? ", " : "", k);
}

/* The refusal without multiplexing: the box, its counters, the event that finds none free and
 * every event that wants them. */
static int refuse_multiplex(regc_pmon_session *p, const struct pmon_ev *e, const char *why)
{
    unsigned first, len = group_len(e->b, e->c, &first), n = 0;
    char names[300] = "", may[96];
    for (unsigned i = 0; i < p->n; i++) {
        if (!same_counters(&p->ev[i], e))
            continue;
        size_t at = strlen(names);
        if (n++ < 8)
            snprintf(names + at, sizeof(names) - at, "%s%s", at ? ", " : "", p->ev[i].name);
        else if (n == 9)
            snprintf(names + at, sizeof(names) - at, ", ...");
    }
    allowed_list(e, first, len, may, sizeof(may));
    return fail(p, -EBUSY,
                "%s%s%s%s has %u counter%s %s (%u..%u), %u events want them (%s) and '%s', which "
                "may count on %s, finds none free; %s",
                e->b->name, e->inst ? "[" : "", e->inst ? e->inst->name : "", e->inst ? "]" : "",
                len, len == 1 ? "" : "s", e->c->counter, first, first + len - 1, n, names, e->name,
                may, why);
}

/*
 * Two events of one box that need different values of one field of another register (a
 * filter): one register copy holds one value, so they never count at the same time. *mine and
 * *theirs: the two settings. Equal values are fine.
 */
static bool filter_conflict(const struct pmon_ev *e, const struct pmon_ev *o,
                            const struct pmon_set **mine, const struct pmon_set **theirs)
{
    if (o == e || o->b != e->b || o->inst != e->inst)
        return false;
    for (unsigned a = 0; a < e->nsets; a++)
        for (unsigned k = 0; k < o->nsets; k++) {
            const struct pmon_set *x = &e->sets[a], *y = &o->sets[k];
            if (x->reg && x->reg == y->reg && x->field == y->field && x->value != y->value) {
                *mine = x, *theirs = y;
                return true;
            }
        }
    return false;
}

static int refuse_conflict(regc_pmon_session *p, const struct pmon_ev *e, const struct pmon_ev *o,
                           const struct pmon_set *x, const struct pmon_set *y, const char *why)
{
    return fail(p, -EINVAL,
                "'%s' and '%s' cannot be counted together in %s%s%s: they need %s.%s = 0x%llx "
                "and 0x%llx; %s",
                o->name, e->name, e->b->name, e->inst ? "." : "", e->inst ? e->inst->name : "",
                x->reg->name, x->field->name, (unsigned long long)y->value,
                (unsigned long long)x->value, why);
}

/*
 * Whether group g of e's box may take e as far as the filters go: no event of g needs another
 * value of a filter field e sets. Such events go into different groups, the filter written as
 * each group rotates in (rotate(), under the freeze); without multiplexing, while sampling, or
 * on another counter group of the box (which rotates apart), they are refused. 1: it may; 0:
 * not this group; <0: refused, the message set.
 */
static int filters_allow(regc_pmon_session *p, const struct pmon_ev *e, unsigned g)
{
    for (unsigned i = 0; i < p->n; i++) {
        const struct pmon_ev *o = &p->ev[i];
        const struct pmon_set *x, *y;
        if (o->index == -2 || !filter_conflict(e, o, &x, &y))
            continue;
        if (!same_counters(o, e))
            return refuse_conflict(p, e, o, x, y,
                                   "they count on different counters of the box, whose turns "
                                   "(multiplexing) do not keep them apart");
        if (o->grp != g)
            continue;
        if (!p->opt.multiplex)
            return refuse_conflict(p, e, o, x, y,
                                   "one filter register holds one value; multiplexing would "
                                   "count them in turns, but it is off (regctl: --no-multiplex)");
        if (p->opt.sample)
            return refuse_conflict(p, e, o, x, y,
                                   "one filter register holds one value, and sampling counts "
                                   "every event all the time");
        return 0;
    }
    return 1;
}

/* Event e in the first group of its box with a counter it may use and no filter value another
 * event of the group needs otherwise; a new group when none has. */
static int assign_grouped(regc_pmon_session *p, struct pmon_ev *e)
{
    for (unsigned g = 0;; g++) {
        e->grp = g;
        int ok = filters_allow(p, e, g);
        if (ok < 0)
            return ok;
        if (!ok)
            continue;
        bool used = group_used(p, e, g);
        char keep[sizeof(p->err)];
        memcpy(keep, p->err, sizeof(keep));
        int rc = assign_one(p, e);
        if (rc != -EBUSY)
            return rc;
        if (!used) /* it fits no counter of an empty group: nothing can help */
            return rc;
        memcpy(p->err, keep, sizeof(keep));
        if (!p->opt.multiplex)
            return refuse_multiplex(p, e, "multiplexing is off (regctl: --no-multiplex)");
        if (p->opt.sample)
            return refuse_multiplex(p, e, "sampling counts every event all the time: use fewer");
    }
}

/* How many groups each box rotates among; events of the first group start on their counters. */
static void count_groups(regc_pmon_session *p)
{
    for (unsigned i = 0; i < p->n; i++) {
        struct pmon_ev *e = &p->ev[i];
        e->ngrp = 1;
        for (unsigned j = 0; j < p->n; j++)
            if (same_counters(&p->ev[j], e) && p->ev[j].grp + 1 > e->ngrp)
                e->ngrp = p->ev[j].grp + 1;
        e->active = e->grp == 0;
        e->running = 0;
    }
    p->step = 0;
}

/* Most constrained first, so a flexible event never takes the only counter another can use. */
static int assign(regc_pmon_session *p)
{
    bool *done = calloc(p->n ? p->n : 1, sizeof(*done));
    if (!done)
        return fail(p, -ENOMEM, "out of memory");
    for (unsigned i = 0; i < p->n; i++)
        p->ev[i].index = -2, p->ev[i].grp = 0;
    int rc = 0;
    for (unsigned round = 0; !rc && round < p->n; round++) {
        int best = -1, bestc = 65;
        for (unsigned i = 0; i < p->n; i++) {
            int c = p->ev[i].allowed ? regc__popcount64(p->ev[i].allowed) : 64;
            if (!done[i] && c < bestc)
                best = (int)i, bestc = c;
        }
        done[best] = true;
        rc = assign_grouped(p, &p->ev[best]);
    }
    free(done);
    if (!rc)
        count_groups(p);
    return rc;
}

/* ---- boxes */

static const struct regc_global_control *gctl(const regc_pmon_session *p)
{
    return p->s->pmon_global ? p->s->pmon_global->control : NULL;
}

static const struct regc_global_status *gstat(const regc_pmon_session *p)
{
    return p->s->pmon_global ? p->s->pmon_global->status : NULL;
}

static bool box_can_freeze(const struct regc_block *b)
{
    const struct regc_box_control *bc = b->pmon->box_control;
    return bc && (bc->freeze || bc->enable);
}

/* The boxes of the events; -ENOSPC naming the limit past MAX_BOXES (never a box left out). */
static int collect_boxes(regc_pmon_session *p)
{
    const struct regc_global_control *gc = gctl(p);
    bool gfreeze = gc && (gc->freeze || gc->enable);
    p->global = gfreeze && !p->opt.per_box;
    p->nbox = 0;
    for (unsigned i = 0; i < p->n; i++) {
        const struct pmon_ev *e = &p->ev[i];
        unsigned k = 0;
        while (k < p->nbox && !(p->box[k].b == e->b && p->box[k].inst == e->inst))
            k++;
        if (k < p->nbox)
            continue;
        if (p->nbox == MAX_BOXES)
            return fail(p, -ENOSPC, "'%s': the events span more than %d boxes, the most one "
                        "session programs", e->name, MAX_BOXES);
        p->box[p->nbox++] = (struct pmon_box){
            .b = e->b, .inst = e->inst, .freezable = gfreeze || box_can_freeze(e->b)};
    }
    /* per box asked for but some box cannot: fall back to the global control */
    for (unsigned k = 0; k < p->nbox && p->opt.per_box && gfreeze; k++)
        if (!box_can_freeze(p->box[k].b))
            p->global = true;
    return 0;
}

/* ---- register helpers */

static int ref_of(regc_pmon_session *p, const struct regc_block *b,
                  const struct regc_instance *inst, const char *reg, struct regc_ref *out)
{
    const struct regc_reg *r = regc_block_reg(b, reg);
    if (!r)
        return fail(p, -ENOENT, "no register '%s' in block '%s'", reg, b->name);
    if (!inst && b->instances && b->instances->name)
        inst = b->instances;
    int rc = regc_ref_make(out, p->s, b, inst, r, r->is_array ? (int)r->first : -1);
    return rc ? fail(p, rc, "no copy of '%s'", reg) : 0;
}

static int global_ref(regc_pmon_session *p, const char *block, const char *reg,
                      struct regc_ref *out)
{
    const struct regc_block *b = regc_spec_block(p->s, block);
    if (!b)
        return fail(p, -ENOENT, "no block '%s' for the global control", block);
    return ref_of(p, b, NULL, reg, out);
}

/* v with field 'name' of r set to x (unchanged when r has no such field). */
static uint64_t put(const struct regc_reg *r, uint64_t v, const char *name, uint64_t x)
{
    const struct regc_field *f = name ? regc_reg_field(r, name) : NULL;
    return f ? regc_field_put(f, v, x) : v;
}

static uint64_t all_ones(const struct regc_reg *r, const char *name)
{
    const struct regc_field *f = name ? regc_reg_field(r, name) : NULL;
    return f ? regc_num_max_bits((unsigned)(f->msb - f->lsb + 1)) : 0;
}

static uint64_t get(const struct regc_reg *r, uint64_t v, const char *name)
{
    const struct regc_field *f = name ? regc_reg_field(r, name) : NULL;
    return f ? regc_field_get(f, v) : 0;
}

/* The device that reaches r: the PCI device for configuration-space registers when one is set. */
static regc_dev *dev_for(const regc_pmon_session *p, const struct regc_ref *r)
{
    return p->pci && r->reg->space == REGC_SPACE_PCI ? p->pci : p->d;
}

static int wr(regc_pmon_session *p, const struct regc_ref *r, uint64_t v)
{
    regc_dev *d = dev_for(p, r);
    /* must-be-one bits (attr.h RV1) are part of every value the flow writes */
    int rc = regc_write(d, r, v | regc_reg_class_mask(r->reg, REGC_MASK_MB1));
    if (rc) {
        char nm[160];
        return fail(p, rc, "write %s: %s", regc_ref_name(r, nm, sizeof(nm)), regc_last_error(d));
    }
    return 0;
}

static int rd(regc_pmon_session *p, const struct regc_ref *r, uint64_t *v)
{
    regc_dev *d = dev_for(p, r);
    int rc = regc_read(d, r, v);
    if (rc) {
        char nm[160];
        return fail(p, rc, "read %s: %s", regc_ref_name(r, nm, sizeof(nm)), regc_last_error(d));
    }
    return 0;
}

/* ---- the global control's values */

/* Bit i for every used counter with array index i in block 'block'. */
static uint64_t select_mask(const regc_pmon_session *p, const char *block)
{
    uint64_t m = 0;
    for (unsigned i = 0; i < p->n; i++)
        if (p->ev[i].active && regc__streq(p->ev[i].b->name, block) && p->ev[i].index >= 0 &&
            p->ev[i].index < 64)
            m |= UINT64_C(1) << p->ev[i].index;
    return m;
}

/* freeze: the freeze action and enable 0. unfreeze: the unfreeze action, enable 1, PMI routing. */
static int global_write(regc_pmon_session *p, bool freeze)
{
    const struct regc_global_control *gc = gctl(p);
    struct regc_ref r;
    int rc = global_ref(p, gc->block, gc->reg, &r);
    if (rc)
        return rc;
    const struct regc_reg *g = r.reg;
    uint64_t v = 0;
    if (freeze) {
        v = put(g, v, gc->freeze, 1);
    } else {
        v = put(g, v, gc->unfreeze, 1);
        v = put(g, v, gc->enable, 1);
        if (p->opt.sample)
            v = put(g, v, gc->freeze_on_overflow, 1);
    }
    if (p->opt.sample) { /* the PMI routing stays in place across freezes */
        uint64_t cores = p->opt.pmi_cores ? p->opt.pmi_cores : 1;
        if (gc->pmi_cores) /* one field per core (Sandy Bridge PMI_Sel_CoreN) */
            for (unsigned i = 0; gc->pmi_cores[i] && i < 64; i++)
                v = put(g, v, gc->pmi_cores[i], (cores >> i) & 1);
        else
            v = put(g, v, gc->pmi_core, cores);
    }
    if (gc->select) /* the actions apply to the selected counters (Xeon 7100 GL_event_select) */
        v = put(g, v, gc->select, select_mask(p, gc->block));
    return wr(p, &r, v);
}

/* ---- box control values */

enum box_step { BOX_FREEZE_RESET, BOX_FREEZE, BOX_UNFREEZE, BOX_ENABLE };

static uint64_t box_enable_mask(const regc_pmon_session *p, const struct pmon_box *bx)
{
    uint64_t m = 0;
    for (unsigned i = 0; i < p->n; i++) {
        const struct pmon_ev *e = &p->ev[i];
        if (e->active && e->b == bx->b && e->inst == bx->inst && e->index >= 0 && e->index < 64)
            m |= UINT64_C(1) << e->index;
    }
    return m;
}

/* Writes the box control for 'step'; nothing when the step has no field to write. */
static int box_write(regc_pmon_session *p, const struct pmon_box *bx, enum box_step step)
{
    const struct regc_box_control *bc = bx->b->pmon->box_control;
    if (!bc)
        return 0;
    struct regc_ref r;
    int rc = ref_of(p, bx->b, bx->inst, bc->reg, &r);
    if (rc)
        return rc;
    const struct regc_reg *g = r.reg;
    uint64_t v = 0;
    bool perbox = !p->global;
    switch (step) {
    case BOX_FREEZE_RESET:
        v = put(g, v, bc->reset_counters, 1);
        v = put(g, v, bc->reset_controls, 1);
        /* a box with a freeze enable ignores every freeze signal while it is 0, the global one
         * too ("If 1, a freeze signal stops ('freezes') the counters; else the signal is
         * ignored", 327043 Table 2-9): under the global control, enable it once at setup */
        if (!perbox)
            v = put(g, v, bc->freeze_enable, 1);
        /* fall through */
    case BOX_FREEZE:
        if (perbox) {
            v = put(g, v, bc->freeze_enable, 1);
            v = put(g, v, bc->freeze, 1);
        }
        if (bc->enable && (perbox || step == BOX_FREEZE_RESET))
            v = put(g, v, bc->enable, 0);
        if (!v && !(bc->enable && (perbox || step == BOX_FREEZE_RESET)))
            return 0;
        break;
    case BOX_UNFREEZE:
        if (!perbox)
            return 0;
        v = put(g, v, bc->freeze_enable, 1);
        v = put(g, v, bc->enable, box_enable_mask(p, bx));
        if (!bc->freeze && !bc->enable)
            return 0;
        break;
    case BOX_ENABLE:
        if (!bc->enable || perbox)
            return 0;
        v = put(g, v, bc->enable, box_enable_mask(p, bx));
        break;
    }
    return wr(p, &r, v);
}

static int freeze_all(regc_pmon_session *p, bool reset)
{
    int rc = 0;
    if (p->global)
        rc = global_write(p, true);
    for (unsigned k = 0; !rc && k < p->nbox; k++)
        rc = box_write(p, &p->box[k], reset ? BOX_FREEZE_RESET : BOX_FREEZE);
    return rc;
}

static int unfreeze_all(regc_pmon_session *p)
{
    int rc = 0;
    for (unsigned k = 0; !rc && k < p->nbox; k++)
        rc = box_write(p, &p->box[k], BOX_UNFREEZE);
    if (!rc && p->global)
        rc = global_write(p, false);
    return rc;
}

/* ---- counters */

static bool shared_reg(const struct pmon_ev *e)
{
    return regc__streq(e->c->control, e->c->counter);
}

static uint64_t preload_of(const regc_pmon_session *p, const struct pmon_ev *e)
{
    uint64_t n = p->opt.sample, m = regc_num_max_bits(e->c->width);
    if (!n)
        return 0;
    uint64_t top =
        e->c->preload == REGC_PRELOAD_2W_MINUS_1_MINUS_N ? m : m + 1; /* 2^w-1 or 2^w (mod 2^64) */
    return (top - n) & m;
}

/*
 * The flow works on counts in the up frame: a counter counting down is seen
 * mirrored (2^w-1 - value), so deltas (old - new for it), preloads (N-1
 * events before the underflow where an up counter is preloaded 2^w-N) and
 * the wrap test are those of a counter counting up. Mirroring is its own
 * inverse.
 */
static uint64_t up_frame(const struct pmon_ev *e, uint64_t v)
{
    uint64_t m = regc_num_max_bits(e->c->width);
    return e->dir == REGC_DIR_DOWN ? ~v & m : v & m;
}

/* The count field value inside the counter register, in the up frame. */
static uint64_t count_of(const struct pmon_ev *e, uint64_t reg)
{
    return up_frame(e, e->c->count_field ? get(e->ctr.reg, reg, e->c->count_field) : reg);
}

/* 'reg' with the count field holding 'count' (up frame). */
static uint64_t with_count(const struct pmon_ev *e, uint64_t reg, uint64_t count)
{
    uint64_t raw = up_frame(e, count);
    return e->c->count_field ? put(e->ctr.reg, reg, e->c->count_field, raw) : raw;
}

static uint64_t control_value(const regc_pmon_session *p, const struct pmon_ev *e)
{
    const struct regc_reg *r = e->ctl.reg;
    const struct regc_counters *c = e->c;
    uint64_t v = 0;
    if (e->e) {
        v = put(r, v, e->e->field, e->e->code);
        if (e->e->has_umask)
            v = put(r, v, e->e->umask_field, e->e->umask);
    }
    uint64_t dv;
    if (c->direction_field && regc_counters_dir_value(c, e->dir, &dv))
        v = put(r, v, c->direction_field, dv); /* a FIELD= term below may still set it */
    for (unsigned i = 0; i < e->nsets; i++)
        if (!e->sets[i].reg)
            v = regc_field_put(e->sets[i].field, v, e->sets[i].value);
    v = put(r, v, c->enable, 1);
    v = put(r, v, c->wrap_field, 1);
    if (p->opt.sample)
        v = put(r, v, c->pmi, 1);
    return v;
}

static int program_event(regc_pmon_session *p, struct pmon_ev *e)
{
    for (unsigned i = 0; i < e->nsets; i++) {
        const struct pmon_set *s = &e->sets[i];
        if (!s->reg)
            continue;
        struct regc_ref r;
        int rc = ref_of(p, e->b, e->inst, s->reg->name, &r);
        if (!rc)
            rc = regc_rmw(dev_for(p, &r), &r, regc_field_mask(s->field),
                          regc_field_put(s->field, 0, s->value), NULL);
        if (rc)
            return fail(p, rc, "'%s': filter %s.%s: %s", e->name, s->reg->name, s->field->name,
                        regc_last_error(dev_for(p, &r)));
    }
    uint64_t v = control_value(p, e);
    e->armed = preload_of(p, e);
    e->last = e->armed;
    if (shared_reg(e))
        return wr(p, &e->ctl, with_count(e, v, e->armed));
    return wr(p, &e->ctl, v);
}

/* Counters the box reset does not clear (to 0), and preloads. A box nothing can freeze has its
 * counter loaded before its control is programmed: the preload is known here already. */
static int load_counter(regc_pmon_session *p, struct pmon_ev *e, bool box_reset)
{
    e->armed = preload_of(p, e);
    e->last = e->armed;
    if (shared_reg(e) || (box_reset && !with_count(e, 0, e->armed)))
        return 0;
    return wr(p, &e->ctr, with_count(e, 0, e->armed));
}

static bool box_resets(const struct pmon_ev *e)
{
    const struct regc_box_control *bc = e->b->pmon->box_control;
    return bc && bc->reset_counters;
}

static const struct pmon_box *box_of(const regc_pmon_session *p, const struct pmon_ev *e)
{
    for (unsigned k = 0; k < p->nbox; k++)
        if (p->box[k].b == e->b && p->box[k].inst == e->inst)
            return &p->box[k];
    return NULL;
}

/* ---- status */

static int clear_field(regc_pmon_session *p, const struct regc_ref *st, const char *field,
                       enum regc_clear how, const char *clear_reg, const char *clear_fld,
                       uint64_t bits)
{
    const struct regc_reg *r = st->reg;
    switch (how) {
    case REGC_CLEAR_W1C:
        return wr(p, st, put(r, 0, field, bits));
    case REGC_CLEAR_WRITE0:
        return wr(p, st, 0);
    case REGC_CLEAR_REGISTER: {
        struct regc_ref c;
        int rc = ref_of(p, st->block, st->instance, clear_reg, &c);
        return rc ? rc : wr(p, &c, put(c.reg, 0, clear_fld, bits));
    }
    case REGC_CLEAR_NONE:
        break;
    }
    return 0;
}

static int box_status_ref(regc_pmon_session *p, const struct pmon_box *bx, struct regc_ref *r)
{
    return ref_of(p, bx->b, bx->inst, bx->b->pmon->box_status->reg, r);
}

static int clear_box_status(regc_pmon_session *p, const struct pmon_box *bx, uint64_t bits)
{
    const struct regc_box_status *bs = bx->b->pmon->box_status;
    if (!bs || bs->clear == REGC_CLEAR_NONE)
        return 0;
    struct regc_ref r;
    int rc = box_status_ref(p, bx, &r);
    if (rc)
        return rc;
    const struct regc_field *f = regc_reg_field(r.reg, bs->overflow);
    if (!f || (bs->clear != REGC_CLEAR_REGISTER && regc_field_sem(f) == REGC_SEM_RO))
        return 0; /* read-only status: nothing software can clear */
    if (bits == UINT64_MAX)
        bits = all_ones(r.reg, bs->overflow);
    return clear_field(p, &r, bs->overflow, bs->clear, bs->clear_reg, bs->clear_field, bits);
}

/* The global status value with every box-overflow field all ones, or only 'seen'. */
static int clear_global_status(regc_pmon_session *p, const uint64_t *seen)
{
    const struct regc_global_status *gs = gstat(p);
    if (!gs || gs->clear == REGC_CLEAR_NONE)
        return 0;
    struct regc_ref r;
    int rc = global_ref(p, gs->block, gs->reg, &r);
    if (rc)
        return rc;
    uint64_t v = 0;
    for (const struct regc_box_overflow *bo = gs->boxes; bo->block; bo++) {
        const struct regc_field *f = regc_reg_field(r.reg, bo->field);
        if (f)
            v |= regc_field_mask(f);
    }
    if (seen)
        v &= *seen;
    if (!v)
        return 0;
    if (gs->clear == REGC_CLEAR_W1C)
        return wr(p, &r, v);
    if (gs->clear == REGC_CLEAR_REGISTER) {
        struct regc_ref c;
        rc = global_ref(p, gs->block, gs->clear_reg, &c);
        return rc ? rc : wr(p, &c, v);
    }
    return wr(p, &r, 0);
}

static uint64_t session_now(regc_pmon_session *p);

/* Box event e overflowed: every added event it counts for goes into which[] (once per call;
 * seen[] per added event), *n counts the added events that overflowed. */
static void note_overflow(const regc_pmon_session *p, const struct pmon_ev *e, bool *seen,
                          unsigned *which, unsigned max, unsigned *n)
{
    unsigned hw = (unsigned)(e - p->ev);
    for (unsigned i = 0; i < p->nreq; i++)
        for (unsigned k = 0; k < p->req[i].n; k++) {
            if (p->slot[p->req[i].first + k] != hw || seen[i])
                continue;
            seen[i] = true;
            if (which && *n < max)
                which[*n] = i;
            ++*n;
        }
}

/* ==== the perf_event path (runtime/pmon_perf.c, runtime/pmon_perf.h) ====
 *
 * On the perf backend no register is programmed: the kernel's uncore
 * driver owns the boxes. start hands the events over after assigning
 * counters (which checks they fit the box); poll and sample read counts and
 * overflows from perf; stop disables, release closes. Nothing above this
 * section knows about it but the one-line hooks in start, poll, sample,
 * stop, release and free.
 */

/* Event i of p as the perf path takes it. 0, -ENOENT or -ENOSPC (too many settings). */
static int pmon_event(const regc_pmon_session *p, unsigned i, struct regc__pmon_event *out)
{
    if (i >= p->n)
        return -ENOENT;
    hw_info(p, i, &out->info);
    const struct pmon_ev *e = &p->ev[i];
    out->ctl = control_value(p, e);
    out->nsets = 0;
    for (unsigned k = 0; k < e->nsets; k++) {
        const struct pmon_set *s = &e->sets[k];
        if (!s->reg) /* the event's own control: in control_value already */
            continue;
        if (e->ctl.reg && regc__streq(s->reg->name, e->ctl.reg->name)) { /* named by the tables */
            out->ctl = regc_field_put(s->field, out->ctl, s->value);
            continue;
        }
        if (out->nsets == REGC__PMON_MAX_SETTINGS)
            return -ENOSPC;
        out->sets[out->nsets++] =
            (struct regc_perf_setting){.reg = s->reg, .field = s->field, .value = s->value};
    }
    return 0;
}

int regc_pmon_perf_event(const regc_pmon_session *p, unsigned i, struct regc_pmon_perf *out)
{
    return regc_pmon_box_perf_event(p, i, 0, out);
}

int regc_pmon_box_perf_event(const regc_pmon_session *p, unsigned i, unsigned k,
                             struct regc_pmon_perf *out)
{
    if (!p->perf || i >= p->nreq || k >= p->req[i].n)
        return -ENOENT;
    return regc__pmon_perf_info(p->perf, p->slot[p->req[i].first + k], out);
}

/* The events as pmon_perf.c takes them (it never calls back into the session). */
static int perf_start(regc_pmon_session *p)
{
    struct regc__pmon_event *evs = calloc(p->n ? p->n : 1, sizeof(*evs));
    if (!evs)
        return regc__err(p->err, sizeof(p->err), -ENOMEM, "out of memory");
    int rc = 0;
    for (unsigned i = 0; !rc && i < p->n; i++) {
        p->ev[i].total = 0, p->ev[i].overflows = 0, p->ev[i].enabled = p->ev[i].running = 0;
        rc = pmon_event(p, i, &evs[i]);
        if (rc)
            regc__err(p->err, sizeof(p->err), rc, "event %u: %s", i,
                      rc == -ENOSPC ? "too many filter settings" : "no such event");
    }
    if (!rc)
        rc = regc__pmon_perf_start(&p->perf, evs, p->n, p->d, &p->opt, p->err, sizeof(p->err));
    free(evs);
    return rc;
}

/* Totals and overflows from perf; which[] the events that overflowed since the last call. */
static int perf_collect(regc_pmon_session *p, unsigned *which, unsigned max, unsigned *n)
{
    uint64_t *totals = calloc(3 * ((size_t)p->n + 1), sizeof(*totals));
    uint64_t *enabled = totals ? totals + p->n + 1 : NULL;
    uint64_t *running = totals ? totals + 2 * ((size_t)p->n + 1) : NULL;
    unsigned long *ovf = calloc(p->n + 1, sizeof(*ovf));
    bool *seen = calloc(p->nreq + 1, sizeof(*seen));
    int rc = totals && ovf && seen ? regc__pmon_perf_read(p->perf, totals, ovf, enabled, running,
                                                          p->err, sizeof(p->err))
                                   : fail(p, -ENOMEM, "out of memory");
    for (unsigned i = 0; !rc && i < p->n; i++) {
        struct pmon_ev *e = &p->ev[i];
        e->total = totals[i];
        e->enabled = enabled[i];
        e->running = running[i];
        if (n && ovf[i] > e->overflows)
            note_overflow(p, e, seen, which, max, n);
        e->overflows = ovf[i];
    }
    p->t_last = session_now(p);
    free(totals);
    free(ovf);
    free(seen);
    return rc;
}

static int perf_poll(regc_pmon_session *p)
{
    return perf_collect(p, NULL, 0, NULL);
}

static int perf_release(regc_pmon_session *p)
{
    int rc = regc__pmon_perf_stop(p->perf, p->err, sizeof(p->err));
    regc__pmon_perf_free(p->perf);
    p->perf = NULL;
    return rc;
}

/* ==== end of the perf_event path ==== */

/* ==== multiplexing: the clock, the rotation and the scaling ==== */

/* The session's clock: the simulator's delivered cycles (exact, whatever the wall clock does), or
 * CLOCK_MONOTONIC nanoseconds. */
static uint64_t session_now(regc_pmon_session *p)
{
    regc_sim *sim = regc_dev_sim(p->d);
    if (sim)
        return regc_sim_elapsed(sim);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

static void mux_clock_start(regc_pmon_session *p)
{
    p->t_start = p->t_last = session_now(p);
    for (unsigned i = 0; i < p->n; i++)
        p->ev[i].since = p->t_start, p->ev[i].running = 0;
}

/* Does an event of the next group take e's counter (so its control is written anyway)? */
static bool counter_arriving(const regc_pmon_session *p, const struct pmon_ev *e)
{
    for (unsigned i = 0; i < p->n; i++) {
        const struct pmon_ev *o = &p->ev[i];
        if (o != e && same_counters(o, e) && o->index == e->index &&
            o->grp == p->step % o->ngrp)
            return true;
    }
    return false;
}

/*
 * Under the freeze, after the counters are read: the time each event on a counter ran, then the
 * next group of every rotating box on its counters (a leaving event's control cleared when no
 * arriving event takes its counter, so a counter the new group leaves unused counts nothing),
 * counting from 0.
 */
static int rotate(regc_pmon_session *p)
{
    uint64_t now = session_now(p);
    for (unsigned i = 0; i < p->n; i++)
        if (p->ev[i].active) {
            p->ev[i].running += now - p->ev[i].since;
            p->ev[i].since = now;
        }
    p->t_last = now;
    p->step++;
    int rc = 0;
    for (unsigned i = 0; !rc && i < p->n; i++) {
        struct pmon_ev *e = &p->ev[i];
        if (e->ngrp > 1 && e->active && e->grp != p->step % e->ngrp) {
            e->active = false;
            if (!counter_arriving(p, e))
                rc = wr(p, &e->ctl, 0);
        }
    }
    for (unsigned i = 0; !rc && i < p->n; i++) {
        struct pmon_ev *e = &p->ev[i];
        if (e->ngrp > 1 && !e->active && e->grp == p->step % e->ngrp) {
            e->active = true;
            e->since = now;
            rc = program_event(p, e);
            if (!rc)
                rc = load_counter(p, e, false);
        }
    }
    return rc;
}

/* Event e's time enabled: since start, or on the perf path the kernel's. */
static uint64_t enabled_of(const regc_pmon_session *p, const struct pmon_ev *e)
{
    return p->via_perf ? e->enabled : p->t_last - p->t_start;
}

/* Event e's time running: on its counter; where its box never rotates, all of it (the perf path:
 * the kernel's, which may multiplex other users' events too). */
static uint64_t running_of(const regc_pmon_session *p, const struct pmon_ev *e)
{
    return p->via_perf || e->ngrp > 1 ? e->running : p->t_last - p->t_start;
}

/* counts x enabled / running, perf's estimate; exact counts where the box never rotates. */
static uint64_t scaled_total(const regc_pmon_session *p, const struct pmon_ev *e)
{
    if (p->via_perf ? e->running >= e->enabled : e->ngrp <= 1)
        return e->total;
    if (!e->running)
        return 0;
    __extension__ typedef __int128 wide;
    wide enabled = (wide)enabled_of(p, e);
    if (e->dir == REGC_DIR_UP_DOWN)
        return (uint64_t)(int64_t)((wide)(int64_t)e->total * enabled / (wide)e->running);
    __extension__ typedef unsigned __int128 uwide;
    uwide v = (uwide)e->total * (uwide)enabled / (uwide)e->running;
    return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

void regc_pmon_running(const regc_pmon_session *p, unsigned i, uint64_t *enabled,
                       uint64_t *running)
{
    *enabled = *running = 0;
    for (unsigned k = 0; i < p->nreq && k < p->req[i].n; k++) {
        const struct pmon_ev *e = box_ev(p, i, k);
        *enabled += enabled_of(p, e);
        *running += running_of(p, e);
    }
}

/* ---- start */

/* A failed start: put back what it found (sharing), keeping the first error. */
static int undo_start(regc_pmon_session *p, int rc)
{
    char first[sizeof(p->err)], then[sizeof(p->err)];
    memcpy(first, p->err, sizeof(first));
    if (regc_pmon_release(p) == 0)
        return fail(p, rc, "%s", first);
    memcpy(then, p->err, sizeof(then));
    return fail(p, rc, "%.240s; restoring failed too: %.240s", first, then);
}

/* The direction each event's control value chooses (dir= or a FIELD= term), before any write. */
static int resolve_directions(regc_pmon_session *p)
{
    for (unsigned i = 0; i < p->n; i++) {
        struct pmon_ev *e = &p->ev[i];
        enum regc_direction d = regc_counters_direction(e->c, e->ctl.reg, control_value(p, e));
        if (d == REGC_DIR_NONE)
            return fail(p, -EINVAL, "'%s': field '%s' holds a value that chooses no count direction",
                        e->name, e->c->direction_field);
        e->dir = d;
    }
    return 0;
}

/* How many bits the PMI core mask has: the global pmi-core field's, or one per PMI_Sel_CoreN field.
 */
static unsigned pmi_bits(regc_pmon_session *p, const struct regc_global_control *gc)
{
    unsigned n = 0;
    for (; gc->pmi_cores && gc->pmi_cores[n] && n < 64; n++)
        ;
    struct regc_ref r;
    const struct regc_field *f = NULL;
    if (!n && gc->pmi_core && global_ref(p, gc->block, gc->reg, &r) == 0)
        f = regc_reg_field(r.reg, gc->pmi_core);
    return f ? f->msb - f->lsb + 1u : n;
}

/*
 * The options' numbers against what holds them: a sample period N is a
 * preload of 2^w - N, so 1 to 2^w-1 for every counter of width w; the PMI
 * core mask fits its field(s). Never cut: -ERANGE naming the limit.
 */
static int check_opts(regc_pmon_session *p)
{
    char why[96];
    for (unsigned i = 0; p->opt.sample && i < p->n; i++) {
        const struct pmon_ev *e = &p->ev[i];
        if (regc_num_check(p->opt.sample, 1, regc_num_max_bits(e->c->width), 0, why, sizeof(why)))
            return fail(p, -ERANGE, "sample period %llu for '%s' (counter '%s', %u bits): %s",
                        (unsigned long long)p->opt.sample, e->name, e->c->counter, e->c->width,
                        why);
    }
    const struct regc_global_control *gc = gctl(p);
    if (!p->opt.sample || !p->opt.pmi_cores || !gc)
        return 0;
    unsigned bits = pmi_bits(p, gc);
    if (bits && regc_num_check(p->opt.pmi_cores, 0, regc_num_max_bits(bits), 0, why, sizeof(why)))
        return fail(p, -ERANGE, "PMI core mask 0x%llx (%u bits): %s",
                    (unsigned long long)p->opt.pmi_cores, bits, why);
    return 0;
}

/* The registers other than its control the events set (filters): share.c saves and restores
 * them. The caller frees *out. */
static int filter_refs(regc_pmon_session *p, struct regc_ref **out, unsigned *n)
{
    unsigned max = 0;
    for (unsigned i = 0; i < p->n; i++)
        max += p->ev[i].nsets;
    *out = calloc(max ? max : 1, sizeof(**out));
    if (!*out)
        return fail(p, -ENOMEM, "out of memory");
    for (unsigned i = 0; i < p->n; i++)
        for (unsigned k = 0; k < p->ev[i].nsets; k++) {
            const struct regc_reg *r = p->ev[i].sets[k].reg;
            int rc = r ? ref_of(p, p->ev[i].b, p->ev[i].inst, r->name, &(*out)[*n]) : 0;
            if (rc)
                return rc;
            *n += r ? 1 : 0;
        }
    return 0;
}

int regc_pmon_start(regc_pmon_session *p, const struct regc_pmon_opts *opt)
{
    int rc = p->share || p->perf ? regc_pmon_release(p) : 0; /* started before: put that back */
    if (rc)
        return rc;
    p->err[0] = '\0';
    p->opt = opt ? *opt : (struct regc_pmon_opts){0};
    if (!p->n)
        return fail(p, -EINVAL, "no events to monitor");
    rc = assign(p);
    if (!rc)
        rc = resolve_directions(p);
    if (!rc)
        rc = check_opts(p);
    if (rc)
        return rc;
    p->via_perf = regc__pmon_perf_wanted(p->d);
    if (p->via_perf)
        return perf_start(p);
    rc = collect_boxes(p);
    if (rc)
        return rc;
    struct regc_pmon_info *ev = calloc(p->n, sizeof(*ev));
    if (!ev)
        return fail(p, -ENOMEM, "out of memory");
    for (unsigned i = 0; i < p->n; i++)
        hw_info(p, i, &ev[i]);
    struct regc_ref *filters = NULL;
    unsigned nfilters = 0;
    rc = filter_refs(p, &filters, &nfilters);
    struct regc__share_target st = {.ev = ev,
                                    .nev = p->n,
                                    .d = p->d,
                                    .pci = p->pci,
                                    .global = p->global,
                                    .opt = &p->opt,
                                    .filters = filters,
                                    .nfilters = nfilters};
    if (!rc)
        rc = regc__share_claim(&p->share, &st, p->err, sizeof(p->err));
    free(ev);
    free(filters);
    if (rc)
        return rc;
    for (unsigned i = 0; i < p->n; i++)
        p->ev[i].total = 0, p->ev[i].overflows = 0;
    /* a) freeze, b) reset */
    rc = freeze_all(p, true);
    /* c) program the controls of boxes that can be frozen; d) reset or preload counters */
    for (unsigned i = 0; !rc && i < p->n; i++)
        if (p->ev[i].active && box_of(p, &p->ev[i])->freezable)
            rc = program_event(p, &p->ev[i]);
    for (unsigned i = 0; !rc && i < p->n; i++)
        if (p->ev[i].active && box_of(p, &p->ev[i])->freezable)
            rc = load_counter(p, &p->ev[i], box_resets(&p->ev[i]));
    /* clear stale overflow status */
    for (unsigned k = 0; !rc && k < p->nbox; k++)
        rc = clear_box_status(p, &p->box[k], UINT64_MAX);
    if (!rc)
        rc = clear_global_status(p, NULL);
    for (unsigned k = 0; !rc && k < p->nbox; k++)
        rc = box_write(p, &p->box[k], BOX_ENABLE);
    /* boxes nothing can freeze: program just before the unfreeze */
    for (unsigned i = 0; !rc && i < p->n; i++)
        if (p->ev[i].active && !box_of(p, &p->ev[i])->freezable) {
            rc = load_counter(p, &p->ev[i], false);
            if (!rc)
                rc = program_event(p, &p->ev[i]);
        }
    /* e) f) PMI routing and unfreeze */
    mux_clock_start(p);
    if (!rc)
        rc = unfreeze_all(p);
    return rc ? undo_start(p, rc) : 0;
}

/* ---- poll and sample */

static int read_all(regc_pmon_session *p)
{
    for (unsigned i = 0; i < p->n; i++) {
        struct pmon_ev *e = &p->ev[i];
        if (!e->active) /* multiplexed, off its counter this interval */
            continue;
        uint64_t raw;
        int rc = rd(p, &e->ctr, &raw);
        if (rc)
            return rc;
        uint64_t now = count_of(e, raw), m = regc_num_max_bits(e->c->width);
        uint64_t delta = (now - e->last) & m;
        /* up and down: a net change of either sign, less than 2^(w-1) in size */
        if (e->dir == REGC_DIR_UP_DOWN && e->c->width < 64 && (delta >> (e->c->width - 1)) & 1)
            delta |= ~m;
        e->total += delta;
        e->last = now;
    }
    return 0;
}

int regc_pmon_poll(regc_pmon_session *p, uint64_t *totals)
{
    int rc = 0;
    if (p->perf) {
        rc = perf_poll(p);
    } else {
        rc = freeze_all(p, false);
        if (!rc)
            rc = read_all(p);
        if (!rc)
            rc = rotate(p);
        if (!rc)
            rc = unfreeze_all(p);
    }
    for (unsigned i = 0; totals && i < p->nreq; i++)
        totals[i] = regc_pmon_total(p, i);
    return rc;
}

/* Whether entry 'bo' (field value 'bits', 'one': a single bit for every instance) flags event e. */
static bool entry_flags(const struct regc_global_status *gs, const struct regc_box_overflow *bo,
                        uint64_t bits, bool one, const struct pmon_ev *e)
{
    if (!bits || !regc__streq(e->b->name, bo->block) || !regc_box_overflow_reports(gs, bo, e->c))
        return false;
    if (bo->instance)
        return e->inst && regc__streq(e->inst->name, bo->instance);
    if (one)
        return true;
    unsigned idx = e->inst ? (unsigned)(e->inst - e->b->instances) : 0;
    return idx < 64 && ((bits >> idx) & 1);
}

/* Whether some entry of the global status reports the overflows of event e's counters. */
static bool global_reports(const struct regc_global_status *gs, const struct pmon_ev *e)
{
    for (const struct regc_box_overflow *bo = gs->boxes; bo->block; bo++)
        if (regc__streq(bo->block, e->b->name) && regc_box_overflow_reports(gs, bo, e->c) &&
            (!bo->instance || (e->inst && regc__streq(bo->instance, e->inst->name))))
            return true;
    return false;
}

/*
 * Which events the global status flags (evflag), so which boxes to look into
 * (flag); everything when the spec has no global status, and always the
 * events of boxes it does not report (E5-2600 v2 IRP: no bit in
 * U_MSR_PMON_GLOBAL_STATUS). direct[i]: the flag itself is event i's
 * overflow status (an entry naming its group of a single counter: E5-2600
 * v2 ov_u_fixed).
 */
static int flagged_events(regc_pmon_session *p, bool *flag, bool *evflag, bool *direct,
                          uint64_t *gseen)
{
    const struct regc_global_status *gs = gstat(p);
    *gseen = 0;
    if (!gs) {
        for (unsigned k = 0; k < p->nbox; k++)
            flag[k] = true;
        for (unsigned i = 0; i < p->n; i++)
            evflag[i] = true;
        return 0;
    }
    struct regc_ref r;
    uint64_t v;
    int rc = global_ref(p, gs->block, gs->reg, &r);
    if (!rc)
        rc = rd(p, &r, &v);
    if (rc)
        return rc;
    *gseen = v;
    for (const struct regc_box_overflow *bo = gs->boxes; bo->block; bo++) {
        const struct regc_field *bf = regc_reg_field(r.reg, bo->field);
        uint64_t bits = get(r.reg, v, bo->field);
        bool one = bf && bf->msb == bf->lsb; /* one bit for every instance */
        for (unsigned i = 0; i < p->n; i++) {
            const struct pmon_ev *e = &p->ev[i];
            if (!entry_flags(gs, bo, bits, one, e))
                continue;
            evflag[i] = true;
            flag[box_of(p, e) - p->box] = true;
            direct[i] |= bo->counters && e->index < 0;
        }
    }
    for (unsigned i = 0; i < p->n; i++)
        if (!global_reports(gs, &p->ev[i])) {
            evflag[i] = true;
            flag[box_of(p, &p->ev[i]) - p->box] = true;
        }
    return 0;
}

/*
 * Status bit of event e in its box status, or -1 when the status does not
 * cover it: fixed and single counters, and a status software cannot clear
 * (such counters are found by their value having wrapped).
 */
static int status_bit(const struct pmon_ev *e)
{
    const struct regc_box_status *bs = e->b->pmon->box_status;
    if (!bs || bs->clear == REGC_CLEAR_NONE)
        return -1;
    /* w1c on a read-only status clears nothing (Xeon 7100 GL_event_status is RO-V) */
    const struct regc_reg *sr = regc_block_reg(e->b, bs->reg);
    const struct regc_field *f = sr ? regc_reg_field(sr, bs->overflow) : NULL;
    if (!f || (bs->clear != REGC_CLEAR_REGISTER && regc_field_sem(f) == REGC_SEM_RO))
        return -1;
    if (e->c->has_status_first) { /* E5-2600 v2 iMC: bit 0 the fixed counter, 4:1 the general */
        const struct regc_reg *r = e->ctl.reg;
        return (int)e->c->status_first + (e->index >= 0 && r ? e->index - (int)r->first : 0);
    }
    if (regc__streq(e->c->kind, "fixed") || e->index < 0)
        return -1;
    return e->index;
}

static int box_overflows(regc_pmon_session *p, const struct pmon_box *bx, bool *ovf,
                         uint64_t *cleared)
{
    const struct regc_box_status *bs = bx->b->pmon->box_status;
    uint64_t bits = 0;
    if (bs) {
        struct regc_ref r;
        uint64_t v;
        int rc = box_status_ref(p, bx, &r);
        if (!rc)
            rc = rd(p, &r, &v);
        if (rc)
            return rc;
        bits = get(r.reg, v, bs->overflow);
    }
    *cleared = 0;
    for (unsigned i = 0; i < p->n; i++) {
        struct pmon_ev *e = &p->ev[i];
        if (e->b != bx->b || e->inst != bx->inst)
            continue;
        int sb = status_bit(e);
        if (sb >= 0 && sb < 64 && ((bits >> sb) & 1)) {
            ovf[i] = true;
            *cleared |= UINT64_C(1) << sb;
        }
    }
    return 0;
}

/* Counters no status covers: overflowed when the value went below where it was armed. */
static void wrap_overflows(regc_pmon_session *p, const bool *evflag, const bool *direct, bool *ovf,
                           const uint64_t *before)
{
    for (unsigned i = 0; i < p->n; i++) {
        struct pmon_ev *e = &p->ev[i];
        bool covered = direct[i] || status_bit(e) >= 0;
        if (!ovf[i] && !covered && evflag[i] && e->last < before[i])
            ovf[i] = true;
    }
}

/*
 * A status bit says the counter overflowed, yet its value is not below where
 * it was: a whole lap of 2^w events went by, which the value cannot show.
 * (Counting one way only: up and down, the sign of the change is unknown.)
 */
static void full_laps(regc_pmon_session *p, const bool *ovf, const uint64_t *before)
{
    for (unsigned i = 0; i < p->n; i++) {
        struct pmon_ev *e = &p->ev[i];
        if (ovf[i] && e->last >= before[i] && e->dir != REGC_DIR_UP_DOWN && e->c->width < 64)
            e->total += UINT64_C(1) << e->c->width;
    }
}

/*
 * An overflowed counter: every period its count went through since it was
 * armed counts as one overflow (a rate far above the period overflows many
 * times per sample; the hardware wraps once and counts on from 0), and the
 * events past the last whole period are kept: returns them, to re-arm at
 * armed + rest, so the next overflow comes after the period's remainder.
 * Up and down, the count's sign is unknown: one overflow, re-armed whole.
 */
static uint64_t rearm_point(struct pmon_ev *e, uint64_t before)
{
    uint64_t m = regc_num_max_bits(e->c->width);
    uint64_t span = (m - e->armed) + 1; /* events from the preload to the wrap: N (or N+1) */
    uint64_t since = (e->last - e->armed) & m;
    if (e->last >= before && e->c->width < 64) /* a whole lap the value cannot show */
        since += UINT64_C(1) << e->c->width;
    if (e->dir == REGC_DIR_UP_DOWN || !span || since < span) {
        e->overflows++;
        return 0;
    }
    e->overflows += since / span;
    return since % span;
}

/* The per-event flags of one regc_pmon_sample (heap: any number of events). */
struct sample_state {
    bool *ovf, *evflag, *direct, *seen;
    uint64_t *before;
};

static void sample_state_free(struct sample_state *st)
{
    free(st->ovf);
    free(st->evflag);
    free(st->direct);
    free(st->seen);
    free(st->before);
}

static int sample_state_init(regc_pmon_session *p, struct sample_state *st)
{
    size_t n = (size_t)p->n + 1;
    *st = (struct sample_state){calloc(n, sizeof(bool)), calloc(n, sizeof(bool)),
                                calloc(n, sizeof(bool)), calloc((size_t)p->nreq + 1, sizeof(bool)),
                                calloc(n, sizeof(uint64_t))};
    if (st->ovf && st->evflag && st->direct && st->seen && st->before)
        return 0;
    sample_state_free(st);
    return fail(p, -ENOMEM, "out of memory");
}

static int sample_regs(regc_pmon_session *p, struct sample_state *st, unsigned *which,
                       unsigned max, unsigned *n);

int regc_pmon_sample(regc_pmon_session *p, unsigned *which, unsigned max, unsigned *n)
{
    *n = 0;
    if (p->perf)
        return perf_collect(p, which, max, n);
    struct sample_state st;
    int rc = sample_state_init(p, &st);
    if (rc)
        return rc;
    rc = sample_regs(p, &st, which, max, n);
    sample_state_free(&st);
    return rc;
}

static int sample_regs(regc_pmon_session *p, struct sample_state *st, unsigned *which,
                       unsigned max, unsigned *n)
{
    bool flag[MAX_BOXES] = {false}, *ovf = st->ovf, *evflag = st->evflag, *direct = st->direct;
    uint64_t *before = st->before, gseen = 0, clr[MAX_BOXES] = {0};
    int rc = freeze_all(p, false);
    if (!rc)
        rc = flagged_events(p, flag, evflag, direct, &gseen);
    for (unsigned k = 0; !rc && k < p->nbox; k++)
        if (flag[k])
            rc = box_overflows(p, &p->box[k], ovf, &clr[k]);
    for (unsigned i = 0; i < p->n; i++) {
        before[i] = p->ev[i].last;
        ovf[i] |= direct[i] && evflag[i];
    }
    if (!rc)
        rc = read_all(p);
    if (rc)
        return rc;
    wrap_overflows(p, evflag, direct, ovf, before);
    full_laps(p, ovf, before);
    for (unsigned i = 0; !rc && i < p->n; i++) {
        struct pmon_ev *e = &p->ev[i];
        if (!ovf[i])
            continue;
        uint64_t rest = rearm_point(e, before[i]); /* counts every whole period */
        note_overflow(p, e, st->seen, which, max, n);
        e->last = e->armed + rest;
        if (shared_reg(e))
            rc = wr(p, &e->ctl, with_count(e, control_value(p, e), e->last));
        else
            rc = wr(p, &e->ctr, with_count(e, 0, e->last));
    }
    for (unsigned k = 0; !rc && k < p->nbox; k++)
        if (clr[k])
            rc = clear_box_status(p, &p->box[k], clr[k]);
    if (!rc && gseen)
        rc = clear_global_status(p, &gseen);
    p->t_last = session_now(p); /* time enabled (regc_pmon_running) runs while sampling too */
    return rc ? rc : unfreeze_all(p);
}

int regc_pmon_stop(regc_pmon_session *p)
{
    if (p->perf)
        return regc__pmon_perf_stop(p->perf, p->err, sizeof(p->err));
    return freeze_all(p, false);
}

int regc_pmon_release(regc_pmon_session *p)
{
    if (p->perf)
        return perf_release(p);
    int rc = regc_pmon_stop(p); /* restoring under the freeze starts nothing midway */
    int rrc = regc__share_restore(p->share, rc ? NULL : p->err, sizeof(p->err));
    p->share = NULL;
    return rc ? rc : rrc;
}

const char *regc_pmon_warning(const regc_pmon_session *p)
{
    return regc__share_warning(p->share);
}
