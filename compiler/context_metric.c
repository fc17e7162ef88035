/*
 * context_metric - the templates' "metrics" list (context_metric.h).
 */
#include "context_metric.h"

#include "buf.h"
#include "metric.h"
#include "model_metric.h"
#include "names.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define SET(a, o, lit, v) dt_add((a), (o), DT_KEY(lit), (v))

static void flag(struct arena *a, struct dt *list)
{
    size_t n = dt_len(list);
    for (size_t i = 0; i < n; i++) {
        SET(a, dt_at(list, i), "first", dt_bool(i == 0));
        SET(a, dt_at(list, i), "last", dt_bool(i + 1 == n));
    }
}

/* "Title (ref R), table T, page P, section S; cite", or NULL when nothing is cited. */
static char *source_line(struct arena *a, const struct model_cite *c)
{
    if (!c->src && !c->table && !c->page && !c->section && !c->cite)
        return NULL;
    struct buf b = BUF_INIT;
    const struct model_source *src = c->source;
    buf_adds(&b, src && src->title ? src->title : c->src ? c->src : "-");
    if (src && src->ref)
        buf_addf(&b, " (%s)", src->ref);
    if (c->table)
        buf_addf(&b, ", table %s", c->table);
    if (c->page)
        buf_addf(&b, ", page %s", c->page);
    if (c->section)
        buf_addf(&b, ", section %s", c->section);
    if (c->cite)
        buf_addf(&b, "; %s", c->cite);
    char *r = arena_strdup(a, b.s);
    buf_release(&b);
    return r;
}

/* 's' in lines of at most 'cols' bytes, broken at spaces: [{"text"}] */
static struct dt *wrapped(struct arena *a, const char *s, size_t cols)
{
    struct dt *lines = dt_list(a);
    while (s && *s) {
        size_t n = strlen(s), cut = n;
        if (n > cols) {
            cut = cols;
            while (cut > 0 && s[cut] != ' ')
                cut--;
            if (!cut) /* one long word */
                cut = strcspn(s, " ");
        }
        struct dt *o = dt_obj(a);
        SET(a, o, "text", dt_strn(a, s, cut));
        dt_push(a, lines, o);
        s += cut;
        while (*s == ' ')
            s++;
    }
    return lines;
}

static struct dt *cite_obj(struct arena *a, const struct model_cite *c)
{
    struct dt *o = dt_obj(a);
    SET(a, o, "src", dt_str(a, c->src));
    SET(a, o, "table", dt_str(a, c->table));
    SET(a, o, "page", dt_str(a, c->page));
    SET(a, o, "section", dt_str(a, c->section));
    SET(a, o, "cite", dt_str(a, c->cite));
    return o;
}

static struct dt *hex(struct arena *a, uint64_t v)
{
    return dt_str(a, arena_printf(a, "0x%" PRIx64, v));
}

/* The term's settings: [{"register" (null: the event's control), "field", "value"}] */
static struct dt *settings_list(struct arena *a, const struct model_metric_term *t)
{
    struct dt *list = dt_list(a);
    for (size_t k = 0; k < t->nsets; k++) {
        const struct model_reg *r = t->sets[k]->reg;
        struct dt *o = dt_obj(a);
        SET(a, o, "register", dt_str(a, r && r != t->table->reg ? r->name : NULL));
        SET(a, o, "field", dt_str(a, t->sets[k]->field_name));
        SET(a, o, "value", hex(a, t->sets[k]->value));
        dt_push(a, list, o);
    }
    return list;
}

static struct dt *term_obj(struct arena *a, const char *prefix, const struct model_metric_term *t)
{
    struct dt *o = dt_obj(a);
    SET(a, o, "text", dt_str(a, t->text));
    SET(a, o, "block", dt_str(a, t->block->name));
    SET(a, o, "instance", dt_str(a, t->instance ? t->instance->name : NULL));
    SET(a, o, "event", dt_str(a, t->event->full_name));
    SET(a, o, "perfmon", dt_str(a, t->event->perfmon));
    uint64_t enc = model_metric_term_encoding(t), mask = model_metric_term_mask(t);
    SET(a, o, "encoding", hex(a, enc));
    SET(a, o, "settings", settings_list(a, t));
    SET(a, o, "settings_text", dt_str(a, *t->settings ? t->settings : NULL));
    /* perf's JSON: the event alias of a term with settings, and its settings by format name */
    SET(a, o, "perf_alias", dt_str(a, t->instance ? NULL : model_metric_perf_alias(a, t)));
    SET(a, o, "perf_settings", dt_str(a, model_metric_perf_settings(a, t)));
    const char *c_name = names_event(a, prefix, t->event);
    SET(a, o, "c_name", dt_str(a, c_name));
    /* the event's macro, its set fields replaced by the settings' values */
    SET(a, o, "c_encoding",
        dt_str(a, !mask ? c_name
                        : arena_printf(a, "((%s & ~UINT64_C(0x%" PRIx64 ")) | UINT64_C(0x%" PRIx64 "))",
                                       c_name, mask, enc & mask)));
    return o;
}

static const char *op_name(enum metric_op op)
{
    static const char *const names[] = {"num", "event", "seconds", "add", "sub", "mul", "div"};
    return names[op];
}

static const char *op_constant(enum metric_op op)
{
    static const char *const names[] = {"REGC_MOP_NUM", "REGC_MOP_EVENT", "REGC_MOP_SECONDS",
                                        "REGC_MOP_ADD", "REGC_MOP_SUB",   "REGC_MOP_MUL",
                                        "REGC_MOP_DIV"}; /* regc/desc.h */
    return names[op];
}

/* The postfix form: [{"op", "value" (num), "term" (event), "c_op", "c_value"}] */
static struct dt *rpn_list(struct arena *a, const struct model_metric *m)
{
    struct dt *list = dt_list(a);
    if (!m->expr)
        return list;
    struct metric_rpn *ops;
    size_t n = metric_to_rpn(a, m->expr, &ops);
    for (size_t i = 0; i < n; i++) {
        struct dt *o = dt_obj(a);
        SET(a, o, "op", dt_str_ref(a, op_name(ops[i].op)));
        SET(a, o, "value", ops[i].op == METRIC_OP_NUM ? dt_real(a, ops[i].value) : dt_null());
        SET(a, o, "term", ops[i].op == METRIC_OP_EVENT ? dt_int(a, ops[i].term) : dt_null());
        SET(a, o, "c_op", dt_str_ref(a, op_constant(ops[i].op)));
        SET(a, o, "c_value", dt_str(a, arena_printf(a, "%.17g", ops[i].value)));
        dt_push(a, list, o);
    }
    return list;
}

static struct dt *metric_obj(struct arena *a, const char *prefix, const struct model_metric *m)
{
    struct dt *o = dt_obj(a);
    SET(a, o, "name", dt_str(a, m->name));
    SET(a, o, "formula", dt_str(a, m->formula));
    SET(a, o, "unit", dt_str(a, m->unit));
    SET(a, o, "scale", dt_real(a, m->scale));
    SET(a, o, "desc", dt_str(a, m->desc));
    SET(a, o, "source", cite_obj(a, &m->cite));
    struct dt *terms = dt_list(a);
    for (size_t i = 0; i < m->nterms; i++)
        dt_push(a, terms, term_obj(a, prefix, m->terms[i]));
    flag(a, terms);
    SET(a, o, "events", terms);
    SET(a, o, "rpn", rpn_list(a, m));
    SET(a, o, "perf_expr", dt_str(a, model_metric_perf_expr(a, m)));
    SET(a, o, "perf_scale_unit", dt_str(a, model_metric_scale_unit(a, m)));
    SET(a, o, "c_name", dt_str(a, names_metric(a, prefix, m)));
    SET(a, o, "c_scale", dt_str(a, model_metric_c_scale(a, m)));
    SET(a, o, "doc_scale", dt_str(a, m->scale_text ? m->scale_text : "1"));
    SET(a, o, "c_nevents", dt_int(a, (long long)m->nterms));
    char *src = source_line(a, &m->cite);
    SET(a, o, "c_source", dt_str(a, src));
    SET(a, o, "c_source_lines", wrapped(a, src, 72));
    SET(a, o, "c_desc_lines", wrapped(a, m->desc, 72));
    return o;
}

struct dt *context_metrics(struct arena *a, const struct model_spec *s, const char *prefix)
{
    struct dt *list = dt_list(a);
    for (size_t i = 0; i < s->nmetrics; i++)
        dt_push(a, list, metric_obj(a, prefix, s->metrics[i]));
    flag(a, list);
    return list;
}
