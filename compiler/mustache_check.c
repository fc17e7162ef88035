/*
 * mustache_check.c - a compiled template checked against the typed view
 * (view.h) before it renders: mus_check() in mustache.h.
 *
 * The check walks the template as the renderer would, with a stack of the
 * kinds of values in place of the values: a section over a list pushes the
 * list's item type, a section over an object its type. A name resolves as
 * the renderer resolves it (its first part from the top of the stack down,
 * the rest inside it), so a name no enclosing object has is an error, and
 * so is a section over a value that is always set and neither a list, an
 * object nor a boolean (it could only ever render once), or {{name}} over
 * a list or an object (which prints nothing). Partials and parents are
 * loaded and checked where they are used, in the enclosing sections' types;
 * a partial named by a value ({{>*name}}) cannot be known before rendering.
 */
#include "mustache_int.h"

#include "util.h"
#include "view.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A partial checked with a stack: not checked again with the same one (recursion). */
struct visit {
    const struct mus_template *t;
    uint64_t stack; /* hash of the stack's types */
};

struct check {
    struct diag *dg;
    const struct mus_options *opt;
    struct view_value *stack;
    size_t n, cap;
    struct mus_partials *partials; /* opt->partials, or the check's own */
    struct visit *visits;
    size_t nvisits, visits_cap;
    struct mus_frame *frames;
    size_t nframes, frames_cap;
    const struct node **active; /* overrides being checked */
    size_t nactive, active_cap;
    const struct node **reported;
    size_t nreported, reported_cap;
    unsigned depth, max_depth;
    uint64_t work, max_work; /* tags visited, and the limit (mus_options.max_work) */
    bool failed, abort;
    mus_name_used_fn *used; /* may be NULL */
    void *used_ctx;
};

static void note_used(const struct check *c, const char *name, size_t len)
{
    if (c->used)
        c->used(c->used_ctx, name, len);
}

static void check_range(struct check *c, const struct mus_template *t, size_t from, size_t to);

/* True the first time tag 'n' is reported (a partial checked twice reports once). */
static bool first_report(struct check *c, const struct node *n)
{
    c->failed = true;
    for (size_t i = 0; i < c->nreported; i++)
        if (c->reported[i] == n)
            return false;
    GROW(c->reported, c->nreported, c->reported_cap);
    c->reported[c->nreported++] = n;
    return true;
}

static void push(struct check *c, struct view_value v)
{
    GROW(c->stack, c->n, c->cap);
    c->stack[c->n++] = v;
}

/* "register", "string", ...: what 'v' is, for messages. */
static char *describe(const struct view_value *v)
{
    struct buf b = BUF_INIT;
    view_value_describe(v, &b);
    return buf_detach(&b, NULL);
}

/* The types around the tag, innermost first: "field, register, block, root". */
static char *scope(const struct check *c)
{
    struct buf b = BUF_INIT;
    for (size_t k = c->n; k-- > 0;)
        if (c->stack[k].kind == VIEW_OBJ)
            buf_addf(&b, "%s%s", b.len ? ", " : "", c->stack[k].type->name);
    return buf_detach(&b, NULL);
}

/* The value tag 'n' names, or false after reporting it unknown. */
static bool resolve(struct check *c, const struct mus_template *t, const struct node *n,
                    struct view_value *out)
{
    if (n->nparts == 0) { /* "." */
        *out = c->stack[c->n - 1];
        return true;
    }
    int found = -1;
    for (size_t k = c->n; k-- > 0 && found < 0;)
        if (c->stack[k].kind == VIEW_OBJ)
            found = view_lookup(c->stack[k].type, n->parts[0].s, n->parts[0].len, out);
    if (found < 0) {
        if (!first_report(c, n))
            return false;
        char *where = scope(c);
        diag_report(c->dg, DIAG_TEMPLATE_NAME, node_pos(t, n),
                    "unknown name '%s': no name '%s' in %s (docs/templates.md lists them)",
                    n->name, n->parts[0].s, where);
        free(where);
        return false;
    }
    for (uint32_t i = 1; i < n->nparts; i++) {
        const struct part *p = &n->parts[i];
        struct view_value prev = *out;
        int r = prev.kind == VIEW_OBJ ? view_lookup(prev.type, p->s, p->len, out) : -1;
        if (r < 0) {
            if (first_report(c, n)) {
                char *what = describe(&prev);
                diag_report(c->dg, DIAG_TEMPLATE_NAME, node_pos(t, n),
                            "unknown name '%s': %s has no name '%s'", n->name, what, p->s);
                free(what);
            }
            return false;
        }
    }
    for (uint32_t i = 0; i < n->nparts; i++)
        note_used(c, n->parts[i].s, n->parts[i].len);
    return true;
}

static void check_var(struct check *c, const struct mus_template *t, const struct node *n)
{
    struct view_value v;
    if (!resolve(c, t, n, &v) || (v.kind != VIEW_LIST && v.kind != VIEW_OBJ))
        return;
    if (!first_report(c, n))
        return;
    char *what = describe(&v);
    if (v.kind == VIEW_LIST)
        diag_report(c->dg, DIAG_TEMPLATE_TYPE, node_pos(t, n),
                    "'%s' is a %s, which prints nothing: iterate it with {{#%s}}...{{/%s}}",
                    n->name, what, n->name, n->name);
    else
        diag_report(c->dg, DIAG_TEMPLATE_TYPE, node_pos(t, n),
                    "'%s' is an object (%s), which prints nothing: open it with "
                    "{{#%s}}...{{/%s}} or name one of its members",
                    n->name, what, n->name, n->name);
    free(what);
}

static void check_section(struct check *c, const struct mus_template *t, size_t i)
{
    const struct node *n = &t->nodes[i];
    struct view_value v;
    if (!resolve(c, t, n, &v)) {
        c->failed = true;
        return; /* its body would be checked against a type we do not know */
    }
    if ((v.kind == VIEW_STR || v.kind == VIEW_INT || v.kind == VIEW_NUM) && !v.nullable) {
        if (first_report(c, n)) {
            char *what = describe(&v);
            diag_report(c->dg, DIAG_TEMPLATE_TYPE, node_pos(t, n),
                        "section over '%s', a %s that is always set: it would render its "
                        "body once, always; a section takes a list, an object, a boolean or "
                        "a value that may be null",
                        n->name, what);
            free(what);
        }
        return;
    }
    if (n->kind == N_INVERTED) {
        check_range(c, t, i + 1, n->end);
        return;
    }
    struct view_value top = v;
    top.nullable = false;
    if (v.kind == VIEW_LIST)
        top = (struct view_value){v.item, false, v.item, v.type};
    push(c, top);
    check_range(c, t, i + 1, n->end);
    c->n--;
}

static uint64_t stack_hash(const struct check *c)
{
    uint64_t h = 1469598103934665603u;
    for (size_t k = 0; k < c->n; k++) {
        h = (h ^ (uintptr_t)c->stack[k].type) * 1099511628211u;
        h = (h ^ (unsigned)c->stack[k].kind) * 1099511628211u;
    }
    return h;
}

/* True the first time partial 'p' is checked with this stack (and within the depth). */
static bool visit(struct check *c, const struct mus_template *p)
{
    if (c->depth >= c->max_depth)
        return false; /* the render reports the depth */
    uint64_t h = stack_hash(c);
    for (size_t i = 0; i < c->nvisits; i++)
        if (c->visits[i].t == p && c->visits[i].stack == h)
            return false;
    GROW(c->visits, c->nvisits, c->visits_cap);
    c->visits[c->nvisits++] = (struct visit){p, h};
    return true;
}

/* The partial or parent tag 'n' names: its template, or NULL when it cannot be checked. */
static const struct mus_template *target(struct check *c, const struct mus_template *t,
                                         const struct node *n)
{
    if (!n->dynamic) { /* missing: the render reports it (strict) or renders nothing */
        const struct mus_partial *p = mus_partial_get(c->partials, c->dg, c->opt, n->name);
        c->failed |= p->failed;
        return p->t;
    }
    struct view_value v; /* the name comes from a value: that value must exist */
    resolve(c, t, n, &v);
    note_used(c, NULL, 0); /* a template not known before rendering may read any name */
    return NULL;
}

static void check_partial(struct check *c, const struct mus_template *t, size_t i)
{
    const struct node *n = &t->nodes[i];
    const struct mus_template *p = target(c, t, n);
    if (!p)
        return;
    if (n->kind == N_PARENT) { /* its blocks are checked where the parent places them */
        GROW(c->frames, c->nframes, c->frames_cap);
        c->frames[c->nframes++] = (struct mus_frame){t, n};
    } else if (!visit(c, p)) {
        return;
    }
    c->depth++;
    check_range(c, p, 0, p->n);
    c->depth--;
    if (n->kind == N_PARENT)
        c->nframes--;
}

static void check_block(struct check *c, const struct mus_template *t, size_t i)
{
    const struct node *b = &t->nodes[i];
    const struct mus_template *ot = NULL;
    const struct node *o =
        mus_find_override(c->frames, c->nframes, c->active, c->nactive, b->name, &ot, NULL);
    if (!o || c->depth >= c->max_depth) {
        check_range(c, t, i + 1, b->end);
        return;
    }
    GROW(c->active, c->nactive, c->active_cap);
    c->active[c->nactive++] = o;
    c->depth++;
    check_range(c, ot, (size_t)(o - ot->nodes) + 1, o->end);
    c->depth--;
    c->nactive--;
}

static void check_range(struct check *c, const struct mus_template *t, size_t from, size_t to)
{
    for (size_t i = from; i < to && !c->abort;) {
        const struct node *n = &t->nodes[i];
        if (++c->work > c->max_work) { /* parents that call themselves through their blocks */
            c->abort = c->failed = true;
            diag_report(c->dg, DIAG_TEMPLATE_LIMIT, node_pos(t, n),
                        "checking over the limit of %llu steps; -ftemplate-work-limit=N raises it",
                        (unsigned long long)c->max_work);
            return;
        }
        switch (n->kind) {
        case N_TEXT:
            break;
        case N_VAR:
            check_var(c, t, n);
            break;
        case N_SECTION:
        case N_INVERTED:
            check_section(c, t, i);
            break;
        case N_PARTIAL:
        case N_PARENT:
            check_partial(c, t, i);
            break;
        case N_BLOCK:
            check_block(c, t, i);
            break;
        }
        i = n->end > i ? n->end : i + 1;
    }
}

int mus_check(struct diag *dg, const struct mus_template *t, const struct view_type *root,
              const struct mus_options *opt, mus_name_used_fn *used, void *used_ctx)
{
    static const struct mus_options defaults = {0};
    struct check c = {.dg = dg, .opt = opt ? opt : &defaults, .used = used, .used_ctx = used_ctx};
    c.max_depth = c.opt->max_depth ? c.opt->max_depth : MUS_DEFAULT_MAX_DEPTH;
    c.max_work = c.opt->max_work ? c.opt->max_work : MUS_DEFAULT_MAX_WORK;
    struct mus_partials own = {0};
    c.partials = c.opt->partials ? c.opt->partials : &own;
    push(&c, (struct view_value){VIEW_OBJ, false, VIEW_OBJ, root});
    check_range(&c, t, 0, t->n);
    mus_partials_release(&own);
    free(c.visits);
    free(c.frames);
    free(c.active);
    free(c.reported);
    free(c.stack);
    return c.failed ? -1 : 0;
}
