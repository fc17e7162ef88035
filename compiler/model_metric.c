/*
 * model_metric - perf's and C's forms of a checked <metric> (model_metric.h).
 */
#include "model_metric.h"

#include "buf.h"
#include "metric.h"

#include <string.h>

struct perf_ctx {
    const struct model_metric *m;
    bool ok;
    struct arena *a;
};

/* The kernel's format name of setting 'st' of term 't': a control field under its own name, a box
 * filter field under its <filter perf=>; NULL when it has none. */
static const char *perf_format(const struct model_metric_term *t, const struct model_set *st)
{
    if (!st->reg || st->reg == t->table->reg)
        return st->field ? st->field->name : NULL;
    const struct model_pmon *pm = t->block->pmon;
    for (size_t i = 0; pm && i < pm->nfilters; i++)
        if (pm->filters[i]->reg == st->reg && pm->filters[i]->field == st->field)
            return pm->filters[i]->perf;
    return NULL;
}

/* The settings of 't' as "SEP1NAMESEP2VALUE" terms; NULL when one has no format name. */
static char *perf_terms(struct arena *a, const struct model_metric_term *t, const char *sep1,
                        const char *sep2)
{
    if (!t->nsets)
        return NULL;
    struct buf b = BUF_INIT;
    bool ok = true;
    for (size_t i = 0; i < t->nsets && ok; i++) {
        const char *name = perf_format(t, t->sets[i]);
        ok = name != NULL;
        if (ok)
            buf_addf(&b, "%s%s%s0x%llx", i ? sep1 : "", name, sep2,
                       (unsigned long long)t->sets[i]->value);
    }
    char *r = ok ? arena_strdup(a, b.s) : NULL;
    buf_release(&b);
    return r;
}

char *model_metric_perf_settings(struct arena *a, const struct model_metric_term *t)
{
    return perf_terms(a, t, ",", "=");
}

char *model_metric_perf_alias(struct arena *a, const struct model_metric_term *t)
{
    char *terms = t->event && t->event->perfmon ? perf_terms(a, t, ".", "_") : NULL;
    return terms ? arena_printf(a, "%s.%s", t->event->perfmon, terms) : NULL;
}

static void perf_event(void *ctx, struct buf *out, const struct metric_node *n)
{
    struct perf_ctx *pc = ctx;
    const struct model_metric_term *t =
        n->term < pc->m->nterms ? pc->m->terms[n->term] : NULL;
    if (!t || !t->event || t->instance || !t->event->perfmon) {
        pc->ok = false;
        return;
    }
    /* settings: the alias the perf JSON defines for the event with them (perf_alias) */
    const char *name = t->nsets ? model_metric_perf_alias(pc->a, t) : t->event->perfmon;
    if (!name) {
        pc->ok = false;
        return;
    }
    buf_adds(out, name);
}

char *model_metric_perf_expr(struct arena *a, const struct model_metric *m)
{
    if (!m->expr || !m->nterms) /* no event: nothing perf counts */
        return NULL;
    struct perf_ctx pc = {m, true, a};
    struct buf b = BUF_INIT;
    metric_render(m->expr, &b, perf_event, &pc);
    char *r = pc.ok ? arena_strdup(a, b.s) : NULL;
    buf_release(&b);
    return r;
}

char *model_metric_scale_unit(struct arena *a, const struct model_metric *m)
{
    return arena_printf(a, "%s%s", m->scale_text ? m->scale_text : "1", m->unit ? m->unit : "");
}

char *model_metric_c_scale(struct arena *a, const struct model_metric *m)
{
    const char *s = m->scale_text ? m->scale_text : "1";
    bool real = strpbrk(s, ".eE") != NULL;
    return arena_printf(a, "%s%s", s, real ? "" : ".0");
}

uint64_t model_metric_term_mask(const struct model_metric_term *t)
{
    uint64_t mask = 0;
    for (size_t i = 0; i < t->nsets; i++)
        if (t->sets[i]->reg == t->table->reg && t->sets[i]->field)
            mask |= model_field_mask(t->sets[i]->field);
    return mask;
}

uint64_t model_metric_term_encoding(const struct model_metric_term *t)
{
    /* a setting replaces the field's value (an event's own <set> of it included) */
    uint64_t enc = model_event_encoding(t->table, t->event) & ~model_metric_term_mask(t);
    for (size_t i = 0; i < t->nsets; i++)
        if (t->sets[i]->reg == t->table->reg)
            enc |= model_place(t->sets[i]->field, t->sets[i]->value);
    return enc;
}
