/*
 * check_metrics - <metric>s: every event a formula names exists (block,
 * instance, event or sub-event), its settings name fields that hold their
 * values (the control register's, or a filter's or sub-control's of the
 * block), a filter the
 * event needs is set, the unit is a known one, and no division is by a constant zero. Resolves each formula's events into the metric's terms
 * (one per distinct event, in the order first named) and numbers the event
 * nodes with their term. A formula that did not parse was reported as
 * metric-syntax by the loader.
 */
#include "check_int.h"
#include "metric.h"
#include "buf.h"
#include "util.h"

#include <inttypes.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct metric_ctx {
    struct check_ctx *c;
    struct model_metric *m;
    size_t caps;
};

/* The position of byte 'off' of the formula. */
static struct srcpos formula_pos(const struct model_metric *m, size_t off)
{
    return diag_pos_in_value(m->formula_pos, m->pos, m->formula, off);
}

static void event_hint(char *hint, size_t size, const struct model_block *b, const char *name)
{
    struct util_suggest sg;
    util_suggest_init(&sg, name);
    for (size_t t = 0; t < b->nevent_tables; t++)
        for (size_t i = 0; i < b->event_tables[t]->nevents; i++) {
            const struct model_event *e = b->event_tables[t]->events[i];
            util_suggest_add(&sg, e->full_name);
            for (size_t j = 0; j < e->nsubs; j++)
                util_suggest_add(&sg, e->subs[j]->full_name);
        }
    diag_hint(hint, size, util_suggest_best(&sg));
}

/* The event (or sub-event) of 'b' whose full name is 'name', and its table. */
static const struct model_event *find_event(const struct model_block *b, const char *name,
                                            const struct model_events **table)
{
    for (size_t t = 0; t < b->nevent_tables; t++)
        for (size_t i = 0; i < b->event_tables[t]->nevents; i++) {
            const struct model_event *e = b->event_tables[t]->events[i];
            *table = b->event_tables[t];
            if (strcmp(e->full_name, name) == 0)
                return e;
            for (size_t j = 0; j < e->nsubs; j++)
                if (strcmp(e->subs[j]->full_name, name) == 0)
                    return e->subs[j];
        }
    return NULL;
}

/* 'block': the block 'name' was looked for in, NULL when 'name' is the block. */
static bool unknown(struct metric_ctx *mc, const struct metric_node *n, const char *what,
                    const char *name, const char *block, const char *hint)
{
    diag_report(mc->c->dg, DIAG_METRIC_UNKNOWN_EVENT, formula_pos(mc->m, n->offset),
                "metric '%s' names %s '%s'%s%s%s, which the spec does not have%s", mc->m->name,
                what, name, block ? " in block '" : "", block ? block : "", block ? "'" : "", hint);
    return false;
}

/* Resolves n's block, instance and event into *t; false (reported) when one is unknown. */
static bool resolve(struct metric_ctx *mc, const struct metric_node *n, struct model_metric_term *t)
{
    char hint[160];
    t->block = model_find_block(mc->c->s, n->block);
    const struct model_spec *s = mc->c->s;
    if (!t->block) {
        diag_hint(hint, sizeof(hint),
                  CHECK_SUGGEST(n->block, s->blocks, s->nblocks, struct model_block, name));
        return unknown(mc, n, "block", n->block, NULL, hint);
    }
    if (n->instance) {
        t->instance = model_find_instance(t->block, n->instance);
        if (!t->instance) {
            diag_hint(hint, sizeof(hint),
                      CHECK_SUGGEST(n->instance, t->block->instances, t->block->ninstances,
                                    struct model_instance, name));
            return unknown(mc, n, "instance", n->instance, n->block, hint);
        }
    }
    t->event = find_event(t->block, n->event, &t->table);
    if (!t->event) {
        event_hint(hint, sizeof(hint), t->block, n->event);
        return unknown(mc, n, "event", n->event, n->block, hint);
    }
    return true;
}

/* Whether the term sets filter "REG.field" 'ref'. */
static bool term_sets(const struct model_metric_term *t, const char *ref)
{
    const char *dot = strchr(ref, '.');
    for (size_t i = 0; dot && i < t->nsets; i++) {
        const struct model_set *st = t->sets[i];
        if (st->reg_name && strlen(st->reg_name) == (size_t)(dot - ref) &&
            strncmp(ref, st->reg_name, (size_t)(dot - ref)) == 0 &&
            strcmp(dot + 1, st->field_name) == 0)
            return true;
    }
    return false;
}

/* An event that needs a box filter set counts nothing, or the wrong thing, without it. */
static void check_metric_filter(struct metric_ctx *mc, const struct metric_node *n,
                                const struct model_metric_term *t)
{
    const struct model_event *e = t->event;
    const struct model_event *own = e->nfilters ? e : e->parent;
    for (size_t i = 0; own && i < own->nfilters; i++) {
        if (term_sets(t, own->filters[i]))
            continue;
        diag_report(mc->c->dg, DIAG_METRIC_FILTER, formula_pos(mc->m, n->offset),
                    "metric '%s' names event '%s', which counts through the box filter '%s'; the "
                    "formula does not set it: write '%s,%s=VALUE'",
                    mc->m->name, e->full_name, own->filters[i], n->text, own->filters[i]);
        diag_note(mc->c->dg, e->pos, "event '%s' defined here", e->full_name);
    }
}

/*
 * The role register 'name' plays in the block's monitoring (a counter, a counter control, the
 * box control or status), or NULL: those are regctl's to program, never a formula's.
 */
static const char *pmon_role(const struct model_block *b, const char *name)
{
    const struct model_pmon *pm = b->pmon;
    for (size_t k = 0; pm && k < pm->ncounters; k++) {
        const struct model_counters *cs = pm->counters[k];
        if (cs->counter_name && strcmp(cs->counter_name, name) == 0)
            return "a counter";
        if (cs->control_name && strcmp(cs->control_name, name) == 0)
            return "a counter control";
    }
    if (pm && pm->box_control && pm->box_control->reg_name &&
        strcmp(pm->box_control->reg_name, name) == 0)
        return "the box control";
    if (pm && pm->box_status && pm->box_status->reg_name &&
        strcmp(pm->box_status->reg_name, name) == 0)
        return "the box status";
    return NULL;
}

/*
 * The settings of event node 'n' into t->sets and t->settings: each names a field of the
 * event's control register, or of another register of its block that is no counter or
 * control (a filter, a sub-control, as an event's <set register=> does), with a value the
 * field holds (the event <set> checks). False when one is refused (reported).
 */
static bool resolve_settings(struct metric_ctx *mc, const struct metric_node *n,
                             struct model_metric_term *t)
{
    struct check_ctx *c = mc->c;
    struct buf text = BUF_INIT;
    size_t cap = 0;
    unsigned before = c->dg->nerrors;
    for (size_t i = 0; i < n->nsettings; i++) {
        const struct metric_setting *ms = n->settings[i];
        struct model_set *st = arena_zalloc(c->a, sizeof(*st));
        st->reg_name = ms->reg;
        st->field_name = ms->field;
        st->value = ms->value;
        st->pos = formula_pos(mc->m, ms->offset);
        st->reg = ms->reg ? check_ref_reg(c, t->block, ms->reg, st->pos) : t->table->reg;
        st->field = check_ref_field(c, st->reg, ms->field, st->pos);
        const char *role = st->reg && st->reg != t->table->reg ? pmon_role(t->block, ms->reg) : NULL;
        if (role)
            diag_report(c->dg, DIAG_METRIC_FILTER, st->pos,
                        "metric '%s' sets '%s.%s', %s of block '%s': a formula sets the event's "
                        "control fields or another register of the box (a filter, a sub-control)",
                        mc->m->name, ms->reg, ms->field, role, t->block->name);
        check_set_fits(c, "metric", mc->m->name, st->field, st->value, st->pos);
        arena_push(c->a, (void ***)&t->sets, &t->nsets, &cap, st);
        if (st->reg && st->reg != t->table->reg) /* the control register's fields go bare */
            buf_addf(&text, ",%s.%s=0x%" PRIx64, st->reg->name, ms->field, ms->value);
        else
            buf_addf(&text, ",%s=0x%" PRIx64, ms->field, ms->value);
    }
    t->settings = arena_strdup(c->a, text.s ? text.s : "");
    buf_release(&text);
    return c->dg->nerrors == before;
}

static int add_term(void *ctx, struct metric_node *n)
{
    struct metric_ctx *mc = ctx;
    struct model_metric_term t = {.text = n->text};
    if (!resolve(mc, n, &t) || !resolve_settings(mc, n, &t))
        return 0;
    check_metric_filter(mc, n, &t);
    for (size_t i = 0; i < mc->m->nterms; i++) {
        const struct model_metric_term *o = mc->m->terms[i];
        if (o->block == t.block && o->instance == t.instance && o->event == t.event &&
            strcmp(o->settings, t.settings) == 0) {
            n->term = (unsigned)i;
            return 0;
        }
    }
    struct model_metric_term *nt = arena_zalloc(mc->c->a, sizeof(*nt));
    *nt = t;
    n->term = (unsigned)mc->m->nterms;
    arena_push(mc->c->a, (void ***)&mc->m->terms, &mc->m->nterms, &mc->caps, nt);
    return 0;
}

static void check_metric_unit(struct check_ctx *c, const struct model_metric *m)
{
    if (!m->unit || metric_unit_known(m->unit))
        return;
    struct util_suggest sg;
    util_suggest_init(&sg, m->unit);
    for (size_t i = 0; metric_units[i]; i++)
        util_suggest_add(&sg, metric_units[i]);
    char hint[64];
    diag_hint(hint, sizeof(hint), util_suggest_best(&sg));
    diag_report(c->dg, DIAG_METRIC_UNKNOWN_UNIT, m->unit_pos.file ? m->unit_pos : m->pos,
                "metric '%s' has unit '%s', which is not a known unit (B/s, KB/s, MB/s, GB/s, B, "
                "KB, MB, GB, /s, Hz, MHz, GHz, %%, ratio)%s",
                m->name, m->unit, hint);
}

static void check_metric_division_by_zero(struct check_ctx *c, const struct model_metric *m)
{
    const struct metric_node *z = metric_constant_zero_divisor(m->expr);
    if (z)
        diag_report(c->dg, DIAG_METRIC_DIVISION_BY_ZERO, formula_pos(m, z->offset),
                    "metric '%s' divides by an expression that is always 0", m->name);
}

void check_metrics(struct check_ctx *c)
{
    for (size_t i = 0; i < c->s->nmetrics; i++) {
        struct model_metric *m = c->s->metrics[i];
        check_metric_unit(c, m);
        if (!m->expr)
            continue; /* reported as metric-syntax */
        struct metric_ctx mc = {c, m, 0};
        metric_foreach_event(m->expr, add_term, &mc);
        check_metric_division_by_zero(c, m);
    }
}
