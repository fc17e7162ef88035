/*
 * check_metrics - <metric>s: every event a formula names exists (block,
 * instance, event or sub-event) and needs no box filter, the unit is a known
 * one, and no division is by a constant zero. Resolves each formula's events into the metric's terms
 * (one per distinct event, in the order first named) and numbers the event
 * nodes with their term. A formula that did not parse was reported as
 * metric-syntax by the loader.
 */
#include "check_int.h"
#include "metric.h"
#include "util.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct metric_ctx {
    struct check_ctx *c;
    struct model_metric *m;
    size_t caps;
};

/* The position of byte 'off' of the formula (line only when no column is known); see expr_pos. */
static struct srcpos formula_pos(const struct model_metric *m, size_t off)
{
    struct srcpos p = m->formula_pos.file ? m->formula_pos : m->pos;
    if (!m->formula_pos.file || !p.col)
        return p;
    for (size_t i = 0; i < off && m->formula[i]; i++)
        p.col += m->formula[i] == '<' ? 4 : m->formula[i] == '&' ? 5 : 1;
    return p;
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

static bool unknown(struct metric_ctx *mc, const struct metric_node *n, const char *what,
                    const char *name, const char *where, const char *hint)
{
    diag_report(mc->c->dg, DIAG_METRIC_UNKNOWN_EVENT, formula_pos(mc->m, n->offset),
                "metric '%s' names %s '%s'%s, which the spec does not have%s", mc->m->name, what,
                name, where, hint);
    return false;
}

/* Resolves n's block, instance and event into *t; false (reported) when one is unknown. */
static bool resolve(struct metric_ctx *mc, const struct metric_node *n, struct model_metric_term *t)
{
    char hint[160], where[160];
    t->block = model_find_block(mc->c->s, n->block);
    if (!t->block) {
        struct util_suggest sg;
        util_suggest_init(&sg, n->block);
        util_suggest_each(&sg, (const void *const *)mc->c->s->blocks, mc->c->s->nblocks,
                          offsetof(struct model_block, name));
        diag_hint(hint, sizeof(hint), util_suggest_best(&sg));
        return unknown(mc, n, "block", n->block, "", hint);
    }
    snprintf(where, sizeof(where), " in block '%s'", n->block);
    if (n->instance) {
        t->instance = model_find_instance(t->block, n->instance);
        if (!t->instance) {
            struct util_suggest sg;
            util_suggest_init(&sg, n->instance);
            util_suggest_each(&sg, (const void *const *)t->block->instances,
                              t->block->ninstances, offsetof(struct model_instance, name));
            diag_hint(hint, sizeof(hint), util_suggest_best(&sg));
            return unknown(mc, n, "instance", n->instance, where, hint);
        }
    }
    t->event = find_event(t->block, n->event, &t->table);
    if (!t->event) {
        event_hint(hint, sizeof(hint), t->block, n->event);
        return unknown(mc, n, "event", n->event, where, hint);
    }
    return true;
}

/* An event that needs a box filter set counts nothing, or the wrong thing, without it. */
static void check_metric_filter(struct metric_ctx *mc, const struct metric_node *n,
                                const struct model_event *e)
{
    const struct model_event *own = e->nfilters ? e : e->parent;
    if (!own || !own->nfilters)
        return;
    diag_report(mc->c->dg, DIAG_METRIC_FILTER, formula_pos(mc->m, n->offset),
                "metric '%s' names event '%s', which counts through the box filter '%s'; a "
                "formula cannot set it",
                mc->m->name, e->full_name, own->filters[0]);
    diag_note(mc->c->dg, e->pos, "event '%s' defined here", e->full_name);
}

static int add_term(void *ctx, struct metric_node *n)
{
    struct metric_ctx *mc = ctx;
    struct model_metric_term t = {.text = n->text};
    if (!resolve(mc, n, &t))
        return 0;
    check_metric_filter(mc, n, t.event);
    for (size_t i = 0; i < mc->m->nterms; i++) {
        const struct model_metric_term *o = mc->m->terms[i];
        if (o->block == t.block && o->instance == t.instance && o->event == t.event) {
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
