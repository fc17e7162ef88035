/*
 * dt_json.h - test helpers: jansson values in and out of the code that works
 * on data trees (compiler/dt.h), so tests state data and expectations as JSON.
 */
#ifndef REGC_TEST_DT_JSON_H
#define REGC_TEST_DT_JSON_H

#include "arena.h"
#include "context.h"
#include "dt.h"
#include "mustache.h"
#include "tmpl.h"

#include <jansson.h>

/* mus_render() with JSON data (NULL: no data). */
static inline int mus_render_json(struct diag *dg, const struct mus_template *t, const json_t *data,
                                  const struct mus_options *opt, struct buf *out)
{
    struct arena a = ARENA_INIT;
    int rc = mus_render(dg, t, data ? dt_from_json(&a, data) : NULL, opt, out);
    arena_release(&a);
    return rc;
}

/* tmpl_render() with JSON data. */
static inline int tmpl_render_json(struct tmpl *tp, const json_t *data, struct mus_options *opt,
                                   struct buf *out)
{
    struct arena a = ARENA_INIT;
    int rc = tmpl_render(tp, dt_from_json(&a, data), opt, out);
    arena_release(&a);
    return rc;
}

/* context_build() as a new JSON value. */
static inline json_t *context_build_json(const struct model_spec *s,
                                         const struct context_options *opt)
{
    struct arena a = ARENA_INIT;
    json_t *j = dt_to_json(context_build(&a, s, opt));
    arena_release(&a);
    return j;
}

/* 'fn' (context_doc_keys, tables_annotate) applied to a copy of 't'; releases 't'. */
static inline json_t *apply_json(json_t *t, void (*fn)(struct arena *, struct dt *))
{
    struct arena a = ARENA_INIT;
    struct dt *d = dt_from_json(&a, t);
    fn(&a, d);
    json_t *r = dt_to_json(d);
    arena_release(&a);
    json_decref(t);
    return r;
}

#endif
