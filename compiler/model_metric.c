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
};

static void perf_event(void *ctx, struct buf *out, const struct metric_node *n)
{
    struct perf_ctx *pc = ctx;
    const struct model_metric_term *t =
        n->term < pc->m->nterms ? pc->m->terms[n->term] : NULL;
    /* a setting has no perf alias form: perf's own event syntax would need the PMU's formats */
    if (!t || !t->event || t->instance || !t->event->perfmon || t->nsets) {
        pc->ok = false;
        return;
    }
    buf_adds(out, t->event->perfmon);
}

char *model_metric_perf_expr(struct arena *a, const struct model_metric *m)
{
    if (!m->expr || !m->nterms) /* no event: nothing perf counts */
        return NULL;
    struct perf_ctx pc = {m, true};
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
