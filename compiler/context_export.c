/*
 * context_export.c - `-t json`: the templates' tree (context.c), its model
 * names only, written as it is built (context_export.h).
 *
 * The view (view.h) says which names are the model's (the JSON Schema's) and
 * in which order; every other name of the tree (c_*, doc_*, t_*, first/last
 * and the other derived ones) is the templates' alone and left out. A small
 * writer ('struct jw') keeps the nesting and the separators.
 */
#include "context_export.h"

#include "context.h"
#include "util.h"
#include "view.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ writer */

struct jw {
    struct buf *out;
    mus_sink_fn *sink; /* NULL: everything stays in 'out' */
    void *sink_ctx;
    struct context_lazy *lz; /* expands the tree's placeholders */
    unsigned depth; /* open objects and lists */
    bool first;     /* nothing written yet in the innermost one */
};

/* Hands what 'out' holds to the sink and empties 'out'. */
static void hand_over(struct jw *w)
{
    w->sink(w->sink_ctx, w->out->s, w->out->len);
    buf_reset(w->out);
}

static void newline(struct jw *w)
{
    buf_addc(w->out, '\n');
    buf_addspaces(w->out, 2 * (size_t)w->depth);
}

/* Starts the next member ('key') of an object, or item (NULL) of a list. */
static void next(struct jw *w, const char *key)
{
    if (!w->first)
        buf_addc(w->out, ',');
    w->first = false;
    if (w->depth)
        newline(w);
    if (key) {
        buf_addc(w->out, '"');
        buf_adds(w->out, key);
        buf_addn(w->out, "\": ", 3);
    }
}

/* Opens an object ('{') or a list ('[') as the next member 'key' (NULL: item). */
static void open_as(struct jw *w, const char *key, char ch)
{
    next(w, key);
    buf_addc(w->out, ch);
    w->depth++;
    w->first = true;
}

static void close_as(struct jw *w, char ch)
{
    w->depth--;
    if (!w->first)
        newline(w);
    buf_addc(w->out, ch);
    w->first = false;
}

/* Objects end often and never inside a value: where a full block goes to the sink. */
static void close_obj(struct jw *w)
{
    close_as(w, '}');
    if (w->sink && w->out->len >= MUS_SINK_CHUNK)
        hand_over(w);
}

/* A finite double as the shortest decimal that reads back as the same value ("1e-09", "64"). */
static void put_real(struct jw *w, double v)
{
    char tmp[32];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    buf_adds(w->out, tmp);
}

/* ------------------------------------------------------------ the tree's model names */

static void put_value(struct jw *w, const char *key, const struct dt *v,
                      const struct view_value *vv);

/*
 * The members of 'o' that type 't' has from the schema, in its order (one it requires and 'o'
 * lacks is a bug of the tree's builders). One the schema does not require is left out when 'o'
 * lacks it or holds null
 * ("svd" of a regspec's register, "value" of a metric's operator).
 */
static void put_obj(struct jw *w, const char *key, const struct dt *o, const struct view_type *t)
{
    open_as(w, key, '{');
    for (size_t i = 0; i < t->n; i++) {
        const struct view_member *m = &t->members[i];
        if (m->origin != VIEW_MODEL)
            continue; /* the templates' own */
        const struct dt *v = dt_getn(o, m->name, strlen(m->name));
        if (!v && !m->optional)
            BUG("export: the tree lacks a member the schema requires");
        if (v && !(m->optional && v->type == DT_NULL))
            put_value(w, m->name, v, &m->v);
    }
    close_obj(w);
}

/* Each item, a placeholder built first (a block, a register) and dropped after. */
static void put_list(struct jw *w, const char *key, const struct dt *list,
                     const struct view_value *vv)
{
    struct view_value item = {vv->item, false, vv->item, vv->type};
    open_as(w, key, '[');
    for (uint32_t i = 0; i < list->n; i++) {
        const struct dt *own = context_expand(w->lz, list->u.items[i]);
        put_value(w, NULL, own ? own : list->u.items[i], &item);
        if (own)
            context_item_done(w->lz, own);
    }
    close_as(w, ']');
}

static void put_value(struct jw *w, const char *key, const struct dt *v,
                      const struct view_value *vv)
{
    if (v->type == DT_LIST) {
        put_list(w, key, v, vv);
        return;
    }
    if (v->type == DT_OBJ) {
        if (!vv->type)
            BUG("export: an object the schema does not describe");
        put_obj(w, key, v, vv->type);
        return;
    }
    next(w, key);
    if (v->type == DT_STR) {
        buf_addc(w->out, '"');
        mus_escape(w->out, MUS_ESCAPE_JSON, v->u.str.s, v->u.str.len);
        buf_addc(w->out, '"');
    } else if (v->type == DT_INT) {
        buf_addf(w->out, "%lld", v->u.i);
    } else if (v->type == DT_REAL) {
        put_real(w, v->u.r);
    } else {
        buf_adds(w->out, v->type == DT_TRUE ? "true" : v->type == DT_FALSE ? "false" : "null");
    }
}

void context_export(const struct model_spec *s, mus_sink_fn *sink, void *sink_ctx,
                    struct buf *out)
{
    struct view_schema vs;
    view_schema_init(&vs);
    /* no doc keys: registers are built one at a time (the export reads none of those keys) */
    struct context_options opt = {.no_doc_keys = true};
    const struct dt *tree;
    struct jw w = {.out = out, .sink = sink, .sink_ctx = sink_ctx, .first = true};
    w.lz = context_build_lazy(s, &opt, &tree);
    put_obj(&w, NULL, tree, vs.root);
    buf_addc(out, '\n');
    context_lazy_free(w.lz);
    view_schema_release(&vs);
}
