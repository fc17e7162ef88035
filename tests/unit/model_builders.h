/*
 * model_builders.h - test helpers: model objects (compiler/model.h) built by
 * hand, each appended to its parent's list, as the loader hands them on.
 *
 * Call mk_begin() first: every object is owned by the arena given there, and
 * at_line() positions name its file index. A list must grow only through
 * mk_push(), which does not store its capacity: add no field to a register
 * after check_spec() has appended its gap fields. mk_spec() defines the
 * source 'doc' that mk_reg() and mk_table() cite, so a spec made of them
 * checks clean.
 */
#ifndef REGC_TEST_MODEL_BUILDERS_H
#define REGC_TEST_MODEL_BUILDERS_H

#include "arena.h"
#include "expr.h"
#include "model.h"

#include <stdint.h>
#include <string.h>

static struct arena *mk_arena;
static uint32_t mk_file;

static inline void mk_begin(struct arena *a, uint32_t file)
{
    mk_arena = a;
    mk_file = file;
}

static inline struct srcpos at_line(unsigned line)
{
    return (struct srcpos){mk_file, line, 0};
}

/* Appends 'item'; the capacity is the power of two at or above the count. */
static inline void mk_push(void ***list, size_t *n, void *item)
{
    if ((*n & (*n - 1)) == 0) { /* 0, 1, 2, 4...: full */
        void **v = arena_alloc(mk_arena, (*n ? 2 * *n : 1) * sizeof(*v));
        if (*n)
            memcpy(v, *list, *n * sizeof(*v));
        *list = v;
    }
    (*list)[(*n)++] = item;
}

/* A zeroed object of the list's element type, appended to the list. */
#define MK_ADD(list, n) mk_add((void ***)&(list), &(n), sizeof(**(list)))
static inline void *mk_add(void ***list, size_t *n, size_t size)
{
    void *obj = arena_zalloc(mk_arena, size);
    mk_push(list, n, obj);
    return obj;
}

static inline struct model_source *mk_source(struct model_spec *s, const char *id,
                                             const char *title, unsigned line)
{
    struct model_source *src = MK_ADD(s->sources, s->nsources);
    *src = (struct model_source){.id = id, .title = title, .pos = at_line(line)};
    return src;
}

/* Spec 't' (prefix 'T', version 1) at line 1, with source 'doc' at line 2. */
static inline struct model_spec *mk_spec(void)
{
    struct model_spec *s = arena_zalloc(mk_arena, sizeof(*s));
    *s = (struct model_spec){.name = "t", .prefix = "T", .version = 1, .pos = at_line(1)};
    mk_source(s, "doc", "A manual", 2);
    return s;
}

static inline struct model_block *mk_block(struct model_spec *s, const char *name, unsigned line)
{
    struct model_block *b = MK_ADD(s->blocks, s->nblocks);
    *b = (struct model_block){.name = name, .pos = at_line(line)};
    return b;
}

static inline struct model_instance *mk_inst(struct model_block *b, const char *name, uint64_t base,
                                             unsigned line)
{
    unsigned index = (unsigned)b->ninstances;
    struct model_instance *i = MK_ADD(b->instances, b->ninstances);
    *i = (struct model_instance){.name = name, .has_base = true, .base = base, .block = b};
    i->index = index;
    i->pos = at_line(line);
    return i;
}

/* Turns an instance's base into a PCI locator: 8086:3C46, device 'dev', function 'func'. */
static inline void pci_inst(struct model_instance *i, uint64_t dev, uint64_t func)
{
    i->has_base = false;
    i->has_pci = true;
    i->vendor = 0x8086;
    i->device = 0x3C46;
    i->has_dev = i->has_func = true;
    i->dev = dev;
    i->func = func;
}

/* An msr register of 'width' bits (size 64), citing 'doc', not an array. */
static inline struct model_reg *mk_reg(struct model_block *b, const char *name, unsigned width,
                                       uint64_t addr, unsigned line)
{
    struct model_reg *r = MK_ADD(b->regs, b->nregs);
    *r = (struct model_reg){.name = name, .written_name = name, .count = 1, .size = 64};
    r->space = SPACE_MSR;
    r->address = addr;
    r->width = width;
    r->block = b;
    r->pos = at_line(line);
    r->cite = (struct model_cite){.src = "doc", .pos = r->pos};
    return r;
}

static inline void mk_array(struct model_reg *r, unsigned count, uint64_t stride)
{
    r->is_array = true;
    r->count = count;
    r->stride = stride;
}

static inline struct model_field *mk_field(struct model_reg *r, const char *name, unsigned msb,
                                           unsigned lsb, const char *access, unsigned line)
{
    struct model_field *f = MK_ADD(r->fields, r->nfields);
    *f = (struct model_field){.name = name, .msb = msb, .lsb = lsb, .access_text = access};
    f->access = regc_access_parse(access);
    f->reg = r;
    f->pos = at_line(line);
    return f;
}

/* A row of MK_FIELDS(): field 'name' [msb:lsb] with access 'access'. */
struct mk_fdef {
    const char *name;
    unsigned msb, lsb;
    const char *access;
};

/* mk_field() for each row, at lines 'line', line + 1, ... */
#define MK_FIELDS(r, line, ...) mk_fields(r, line, (const struct mk_fdef[]){__VA_ARGS__, {0}})
static inline void mk_fields(struct model_reg *r, unsigned line, const struct mk_fdef *d)
{
    for (; d->name; d++)
        mk_field(r, d->name, d->msb, d->lsb, d->access, line++);
}

static inline struct model_value *mk_value(struct model_field *f, const char *name, uint64_t v,
                                           unsigned line)
{
    struct model_value *val = MK_ADD(f->values, f->nvalues);
    *val = (struct model_value){.name = name, .value = v, .pos = at_line(line)};
    return val;
}

/* A rule whose expression starts at line:col; expr is NULL when it does not parse. */
static inline struct model_rule *mk_rule(struct model_reg *r, const char *name, const char *expr,
                                         unsigned line, unsigned col)
{
    struct model_rule *rule = MK_ADD(r->rules, r->nrules);
    struct expr_error err;
    *rule = (struct model_rule){.name = name, .expr_text = expr, .pos = at_line(line)};
    rule->expr = expr_parse(mk_arena, expr, &err);
    rule->expr_pos = (struct srcpos){mk_file, line, col};
    return rule;
}

static inline struct model_at *mk_at(struct model_reg *r, const char *inst, uint64_t addr,
                                     unsigned line)
{
    struct model_at *at = MK_ADD(r->ats, r->nats);
    *at = (struct model_at){.instance_name = inst, .address = addr, .pos = at_line(line)};
    return at;
}

/* An event table citing 'doc'; 'umask' may be NULL. */
static inline struct model_events *mk_table(struct model_block *b, const char *reg,
                                            const char *code, const char *umask, unsigned line)
{
    struct model_events *t = MK_ADD(b->event_tables, b->nevent_tables);
    *t = (struct model_events){.reg_name = reg, .code_field_name = code, .cite.src = "doc"};
    t->umask_field_name = umask;
    t->block = b;
    t->pos = at_line(line);
    return t;
}

/* An event of table 't', or with a parent a sub-event, which takes the parent's code. */
static inline struct model_event *mk_event(struct model_events *t, struct model_event *parent,
                                           const char *name, uint64_t code, unsigned line)
{
    struct model_event *e =
        parent ? MK_ADD(parent->subs, parent->nsubs) : MK_ADD(t->events, t->nevents);
    *e = (struct model_event){.name = name, .full_name = name, .code = code, .table = t};
    if (parent) {
        e->full_name = arena_printf(mk_arena, "%s.%s", parent->name, name);
        e->code = parent->code;
        e->parent = parent;
    }
    e->pos = at_line(line);
    return e;
}

/* A <set>; 'reg' NULL: the event table's register. */
static inline struct model_set *mk_set(struct model_event *e, const char *reg, const char *field,
                                       uint64_t v, unsigned line)
{
    struct model_set *set = MK_ADD(e->sets, e->nsets);
    *set = (struct model_set){.reg_name = reg, .field_name = field, .value = v};
    set->pos = at_line(line);
    return set;
}

/* <counters>, in the block's <pmon> (made at 'line' by the first call). */
static inline struct model_counters *mk_counters(struct model_block *b, const char *ctl,
                                                 const char *ctr, unsigned width, unsigned line)
{
    if (!b->pmon) {
        b->pmon = arena_zalloc(mk_arena, sizeof(*b->pmon));
        b->pmon->pos = at_line(line);
    }
    struct model_counters *k = MK_ADD(b->pmon->counters, b->pmon->ncounters);
    *k = (struct model_counters){.control_name = ctl, .counter_name = ctr, .width = width};
    k->pos = at_line(line);
    return k;
}

#endif
