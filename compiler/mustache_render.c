/*
 * mustache_render.c - the renderer: mus_render() walks a compiled template's
 * nodes (mustache_int.h) over a data tree (dt.h).
 *
 * Indentation (standalone partials, parents and reindented blocks) is done
 * while rendering: the renderer keeps the indentation in force and, at each
 * line start of template text, skips 'strip' blanks and writes the indent.
 */
#include "mustache_int.h"

#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NEST 4096         /* sections and partials nested while rendering */
#define MAX_RENDER_ERRORS 100

/*
 * Where a part of a name was found last time, for the next lookup of the
 * same tag: the objects a section walks are built alike, so a field's
 * "c_name" sits at the same index in every field. Only a key with static
 * storage is remembered (dt_member.fixed): then the address alone says that
 * the member at that index still holds the name. A hint that does not hold
 * costs a comparison, then the lookup is done in full.
 */
struct memo {
    const char *key; /* the key found, static storage; NULL: nothing remembered */
    uint32_t idx;    /* its index among the members */
    uint32_t up;     /* first part: how far below the top of the stack its object was */
};

/*
 * One template's memo: a struct memo per part of its names (struct
 * part.memo), and the partial each of its partial tags with a fixed name
 * found, by node index (NULL: not looked up yet, or missing), so that a
 * partial entered again is not looked up by name again.
 */
struct memo_table {
    const struct mus_template *t;
    struct memo *memo;                    /* owned */
    const struct mus_template **partials; /* owned; made on the first partial tag */
};

struct render {
    struct diag *dg;
    const struct mus_options *opt;
    struct buf *out;
    const struct dt **ctx; /* context stack, bottom first */
    size_t nctx, ctx_cap;
    struct buf indent; /* indentation strings; the one in force starts at ind_from */
    size_t ind_from, strip, strip_left;
    bool pending;         /* at a line start of template text */
    struct mus_frame *frames; /* overrides in force, outermost first */
    size_t nframes, frame_cap;
    const struct node **active; /* overrides being rendered (never reused inside themselves) */
    size_t nactive, active_cap;
    const struct mus_template **chain; /* templates being rendered, the main one first */
    size_t depth, chain_cap;
    unsigned nest, max_depth;
    struct mus_partials *partials; /* opt->partials, or the render's own */
    const struct node **reported; /* tags already reported once */
    size_t nreported, reported_cap;
    struct memo_table *memos; /* one per template rendered */
    size_t nmemos, memos_cap;
    const struct mus_template *memo_t; /* the template whose memo was used last, */
    struct memo_table *memo_cur;       /* and its table (templates alternate rarely) */
    bool failed, abort;
    size_t handed;    /* bytes of output handed to opt->sink before out's */
    char last_handed; /* the last of them */
    size_t out_lim;   /* how long 'out' may grow: the limit less what was handed */
    /*
     * How long 'out' may grow by a piece of a run without a look
     * (fast_limit()). Set again where it could grow: after a hand-over and
     * after a run's slow path; elsewhere the buffer only grows and 'failed'
     * only gets set, so a value set before is never above the true one.
     */
    size_t fast_lim;
    /*
     * The limits (mus_options.max_output, max_work): handed + out->len may
     * not pass max_output, nor work work_end; 'over' marks output refused,
     * reported by the render_range() that rendered the tag.
     */
    size_t max_output;
    uint64_t work, work_end, max_work;
    bool over;
};

static void render_range(struct render *r, const struct mus_template *t, size_t from, size_t to);

/* Reports an error at tag 'n' the first time only (a tag in a loop fails every time). */
static bool first_report(struct render *r, const struct node *n)
{
    r->failed = true;
    for (size_t i = 0; i < r->nreported; i++)
        if (r->reported[i] == n)
            return false;
    if (r->nreported >= MAX_RENDER_ERRORS) {
        r->abort = true;
        return false;
    }
    GROW(r->reported, r->nreported, r->reported_cap);
    r->reported[r->nreported++] = n;
    return true;
}

static void push(struct render *r, const struct dt *v)
{
    GROW(r->ctx, r->nctx, r->ctx_cap);
    r->ctx[r->nctx++] = v;
}

static struct memo_table *memo_find(struct render *r, const struct mus_template *t)
{
    size_t i = 0;
    while (i < r->nmemos && r->memos[i].t != t)
        i++;
    if (i == r->nmemos) {
        GROW(r->memos, r->nmemos, r->memos_cap);
        r->memos[r->nmemos++] =
            (struct memo_table){t, xcalloc(t->nparts + 1, sizeof(struct memo)), NULL};
    }
    r->memo_t = t;
    r->memo_cur = &r->memos[i];
    return r->memo_cur;
}

/* The memo table of template 't' in this render, made on its first use. */
static inline struct memo_table *memo_table_of(struct render *r, const struct mus_template *t)
{
    return t == r->memo_t ? r->memo_cur : memo_find(r, t);
}

static inline struct memo *memo_of(struct render *r, const struct mus_template *t)
{
    return memo_table_of(r, t)->memo;
}

/*
 * The member 'e' remembers, if object 'o' holds it at the same index. An
 * empty memo (key NULL) matches no member: a member's key is never NULL.
 */
static const struct dt_member *memo_member(const struct memo *e, const struct dt *o)
{
    if (!o || o->type != DT_OBJ || e->idx >= o->n)
        return NULL;
    const struct dt_member *m = &o->u.members[e->idx];
    return m->key == e->key ? m : NULL;
}

static void memo_set(struct memo *e, const struct dt *o, const struct dt_member *m, size_t up)
{
    if (m->fixed)
        *e = (struct memo){m->key, (uint32_t)(m - o->u.members), (uint32_t)up};
}

static const struct dt_member *member_of(const struct dt *o, const struct part *p)
{
    return dt_member_getn(o, p->s, p->len);
}

/*
 * The first part: the topmost context that holds it. The remembered one
 * answers when it holds the name and no context above it does.
 */
static const struct dt *lookup_first(const struct render *r, const struct part *p, struct memo *e)
{
    if (e->key && e->up < r->nctx) {
        size_t k = r->nctx - 1 - e->up, above = k + 1;
        const struct dt_member *m = memo_member(e, r->ctx[k]);
        while (m && above < r->nctx && !member_of(r->ctx[above], p))
            above++;
        if (m && above == r->nctx)
            return m->val;
    }
    for (size_t k = r->nctx; k-- > 0;) {
        const struct dt_member *m = member_of(r->ctx[k], p);
        if (m) {
            memo_set(e, r->ctx[k], m, r->nctx - 1 - k);
            return m->val;
        }
    }
    return NULL;
}

/* A later part: a member of 'v'. */
static const struct dt *lookup_in(const struct dt *v, const struct part *p, struct memo *e)
{
    const struct dt_member *m = memo_member(e, v);
    if (!m) {
        m = member_of(v, p);
        if (m)
            memo_set(e, v, m, 0);
    }
    return m ? m->val : NULL;
}

/* The name 'parts' in full: the first part through the stack (top first), the rest inside it. */
static const struct dt *lookup_parts(const struct render *r, struct memo *memo,
                                     const struct part *parts, uint32_t nparts)
{
    const struct dt *v = lookup_first(r, &parts[0], &memo[parts[0].memo]);
    for (uint32_t i = 1; v && i < nparts; i++)
        v = lookup_in(v, &parts[i], &memo[parts[i].memo]);
    return v;
}

/*
 * Looks a name of template 't' up. Inline for the common case: a plain name
 * found where it was last time, in the context on top of the stack.
 */
static inline const struct dt *lookup(struct render *r, const struct mus_template *t,
                                      const struct part *parts, uint32_t nparts)
{
    if (nparts == 0)
        return r->nctx ? r->ctx[r->nctx - 1] : NULL;
    struct memo *memo = memo_of(r, t);
    const struct memo *e = &memo[parts[0].memo];
    if (nparts == 1 && e->up == 0 && r->nctx) {
        const struct dt_member *m = memo_member(e, r->ctx[r->nctx - 1]);
        if (m)
            return m->val;
    }
    return lookup_parts(r, memo, parts, nparts);
}

static inline const struct dt *resolve(struct render *r, const struct mus_template *t,
                                       const struct node *n, bool strict)
{
    const struct dt *v = lookup(r, t, n->parts, n->nparts);
    if (!v && strict && r->opt->strict && first_report(r, n))
        diag_report(r->dg, DIAG_TEMPLATE_NAME, node_pos(t, n), "no value for '%s'", n->name);
    return v;
}

static bool truthy(const struct dt *v)
{
    if (!v || v->type == DT_NULL || v->type == DT_FALSE)
        return false;
    return v->type != DT_LIST || v->n > 0;
}

/* True when the output may grow by 'len' bytes; else the render stops, over its limit. */
static inline bool room(struct render *r, size_t len)
{
    if (r->out->len + len <= r->out_lim)
        return true;
    r->over = r->abort = r->failed = true;
    return false;
}

/* A value written past 'before' that took the output over its limit is taken back. */
static void take_back_if_over(struct render *r, size_t before)
{
    if (r->out->len > before && !room(r, 0)) {
        r->out->len = before;
        r->out->s[before] = '\0';
    }
}

static void flush_indent(struct render *r)
{
    if (!r->pending || !room(r, r->indent.len - r->ind_from))
        return;
    r->pending = false;
    r->strip_left = 0;
    buf_put(r->out, r->indent.s + r->ind_from, r->indent.len - r->ind_from);
}

/* Template text, indented line by line while an indentation is in force. */
static void emit_text(struct render *r, const char *s, size_t len)
{
    if (r->indent.len == r->ind_from && r->strip == 0) { /* strip_left is at most strip */
        if (room(r, len))
            buf_put(r->out, s, len);
        return;
    }
    size_t i = 0;
    while (i < len) {
        if (r->strip_left > 0) {
            while (i < len && r->strip_left > 0 && is_blank(s[i])) {
                i++;
                r->strip_left--;
            }
            if (i == len)
                break;
            r->strip_left = 0;
        }
        flush_indent(r);
        const char *nl = memchr(s + i, '\n', len - i);
        size_t end = nl ? (size_t)(nl - s) + 1 : len;
        if (r->over || !room(r, end - i))
            return;
        buf_put(r->out, s + i, end - i);
        i = end;
        if (nl) {
            r->pending = true;
            r->strip_left = r->strip;
        }
    }
}

/* 'i' in decimal, as printf's "%lld" writes it: shifts, widths and indices on every line. */
static void add_int(struct buf *out, long long i)
{
    char tmp[24], *p = tmp + sizeof(tmp);
    unsigned long long u = i < 0 ? 0 - (unsigned long long)i : (unsigned long long)i;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (i < 0)
        *--p = '-';
    buf_put(out, p, (size_t)(tmp + sizeof(tmp) - p));
}

static void render_var(struct render *r, const struct mus_template *t, const struct node *n)
{
    const struct dt *v = resolve(r, t, n, true);
    if (r->pending) /* rarely: the call is made only then */
        flush_indent(r);
    r->strip_left = 0;
    if (!v || r->over)
        return;
    size_t before = r->out->len;
    enum mus_escape esc = n->raw ? MUS_ESCAPE_NONE : r->opt->escape;
    switch (v->type) {
    case DT_STR:
        if (esc == MUS_ESCAPE_NONE) /* {{{name}}}: most of a C header's values */
            buf_put(r->out, v->u.str.s, v->u.str.len);
        else
            mus_escape(r->out, esc, v->u.str.s, v->u.str.len);
        break;
    case DT_INT:
        add_int(r->out, v->u.i);
        break;
    case DT_REAL:
        mus_format_real(r->out, v->u.r);
        break;
    case DT_TRUE:
        buf_adds(r->out, "true");
        break;
    case DT_FALSE:
        buf_adds(r->out, "false");
        break;
    case DT_NULL:
        break;
    case DT_OBJ:
    case DT_LIST:
        if (r->opt->strict && first_report(r, n))
            diag_report(r->dg, DIAG_TEMPLATE_NAME, node_pos(t, n), "'%s' is %s, not a value",
                        n->name, v->type == DT_OBJ ? "an object" : "a list");
        break;
    }
    take_back_if_over(r, before);
}

static bool nest_enter(struct render *r, const struct mus_template *t, const struct node *n)
{
    if (r->nest >= MAX_NEST) {
        if (first_report(r, n))
            diag_report(r->dg, DIAG_TEMPLATE_PARTIAL, node_pos(t, n),
                        "templates nested more than %d levels deep", MAX_NEST);
        r->abort = true;
        return false;
    }
    r->nest++;
    return true;
}

/*
 * A piece of a run into 'out', which has room for it: up to 32 bytes (most
 * of a C header's names are 17 to 32) copied inline, not by libc.
 */
static inline void put_piece(struct buf *out, const char *s, size_t n)
{
    buf_copy_upto(out->s + out->len, s, n, 32);
    out->len += n;
}

/*
 * How long 'out' may grow by a piece of a run without a look: within the
 * output limit, within the buffer's room (the NUL after included), and
 * short of the sink's chunk, so that a piece past any of them takes the
 * slow path, which hands the output over or stops as render_range() would.
 */
static size_t fast_limit(const struct render *r)
{
    size_t lim = r->out_lim, held = r->out->cap ? r->out->cap - 1 : 0;
    if (held < lim)
        lim = held;
    if (r->opt->sink && !r->failed && MUS_SINK_CHUNK - 1 < lim)
        lim = MUS_SINK_CHUNK - 1;
    return lim;
}

/* Hands what 'out' holds to opt->sink, which writes it, and empties 'out'. */
static void hand_over(struct render *r)
{
    if (r->out->len == 0)
        return;
    r->handed += r->out->len;
    r->out_lim -= r->out->len;
    r->last_handed = r->out->s[r->out->len - 1];
    r->opt->sink(r->opt->sink_ctx, r->out->s, r->out->len);
    buf_reset(r->out);
    r->fast_lim = fast_limit(r);
}

/*
 * Renders one item of the list section at node i. An item the hook built
 * (a block, a register) has its tree released once rendered; its text goes
 * to the sink with the next MUS_SINK_CHUNK, not at once: a register's few
 * KB each in a write() of its own cost the system more than the write.
 */
static void render_item(struct render *r, const struct mus_template *t, size_t i,
                        const struct dt *item)
{
    const struct dt *own = r->opt->item ? r->opt->item(r->opt->item_ctx, item) : NULL;
    r->work++;
    push(r, own ? own : item);
    render_range(r, t, i + 1, t->nodes[i].end);
    r->nctx--;
    if (own && r->opt->item_done)
        r->opt->item_done(r->opt->item_ctx, own);
}

static void render_section(struct render *r, const struct mus_template *t, size_t i)
{
    const struct node *n = &t->nodes[i];
    const struct dt *v = resolve(r, t, n, n->kind == N_SECTION);
    bool yes = truthy(v);
    if (n->kind == N_INVERTED) {
        if (!yes)
            render_range(r, t, i + 1, n->end);
        return;
    }
    if (!yes || !nest_enter(r, t, n))
        return;
    if (v->type == DT_LIST) {
        for (size_t k = 0; k < v->n && !r->abort; k++)
            render_item(r, t, i, v->u.items[k]);
    } else {
        push(r, v);
        render_range(r, t, i + 1, n->end);
        r->nctx--;
    }
    r->nest--;
}

/* ---- partials */

/* The compiled partial 'name'; NULL if missing or broken. */
static const struct mus_template *partial_get(struct render *r, const struct mus_template *t,
                                              const struct node *n, const char *name)
{
    const struct mus_partial *p = mus_partial_get(r->partials, r->dg, r->opt, name);
    r->failed |= p->failed;
    if (p->missing && r->opt->strict && first_report(r, n))
        diag_report(r->dg, DIAG_TEMPLATE_PARTIAL, node_pos(t, n), "partial '%s' not found", name);
    return p->t;
}

static void report_depth(struct render *r, const struct mus_template *t, const struct node *n,
                         const char *name, const struct mus_template *inner)
{
    if (!first_report(r, n))
        return;
    diag_report(r->dg, DIAG_TEMPLATE_PARTIAL, node_pos(t, n),
                "partial '%s' nested more than %u levels deep", name, r->max_depth);
    /* The chain, a run of one template written once with its count: 'p' x65. */
    struct buf chain = BUF_INIT;
    for (size_t i = 0; i <= r->depth;) {
        const char *name_i = mus_name(i < r->depth ? r->chain[i] : inner);
        size_t k = i + 1;
        while (k <= r->depth && strcmp(mus_name(k < r->depth ? r->chain[k] : inner), name_i) == 0)
            k++;
        buf_addf(&chain, "%s'%s'", i ? " > " : "", name_i);
        if (k - i > 1)
            buf_addf(&chain, " x%zu", k - i);
        i = k;
    }
    diag_note(r->dg, node_pos(t, n), "partial chain: %s", chain.s);
    buf_release(&chain);
}

/* The partial or parent name of tag 'n', or NULL (dynamic name without a string value). */
static const char *partial_name(struct render *r, const struct mus_template *t,
                                const struct node *n)
{
    if (!n->dynamic)
        return n->name;
    const char *v = dt_str_value(lookup(r, t, n->parts, n->nparts));
    if (v)
        return v;
    if (r->opt->strict && first_report(r, n))
        diag_report(r->dg, DIAG_TEMPLATE_NAME, node_pos(t, n), "no partial name in '%s'", n->name);
    return NULL;
}

struct indent_state {
    size_t ind_len, ind_from, strip, out_len;
    bool pending;
};

/* The last byte of the output so far (some of it may be with the sink); the output is not empty. */
static char last_byte(const struct render *r)
{
    return r->out->len ? r->out->s[r->out->len - 1] : r->last_handed;
}

static struct indent_state indent_save(const struct render *r)
{
    return (struct indent_state){r->indent.len, r->ind_from, r->strip, r->handed + r->out->len,
                                 r->pending};
}

/*
 * Starts a new indentation as a copy of the one in force (grown first: the
 * copy comes from the same buffer, which growing may move).
 */
static void indent_copy(struct render *r)
{
    size_t n = r->indent.len - r->ind_from, start = r->indent.len;
    buf_grow(&r->indent, n);
    memcpy(r->indent.s + start, r->indent.s + r->ind_from, n);
    r->indent.len += n;
    r->indent.s[r->indent.len] = '\0';
    r->ind_from = start;
}

/* Adds the blanks of 'ind' beyond those the enclosing override strips from its lines. */
static void indent_append(struct render *r, const char *ind, size_t len)
{
    size_t skip = r->strip < len ? r->strip : len;
    if (len > skip)
        buf_addn(&r->indent, ind + skip, len - skip);
}

static void indent_restore(struct render *r, const struct indent_state *s)
{
    r->indent.len = s->ind_len;
    r->ind_from = s->ind_from;
    r->strip = s->strip;
    /* Back at a line start only if the inner template ended its last line. */
    r->pending =
        r->handed + r->out->len == s->out_len ? s->pending : last_byte(r) == '\n' && s->pending;
    r->strip_left = r->pending ? r->strip : 0;
}

/*
 * Sets up the indentation for an inner template: a standalone tag adds its
 * blanks to the indentation in force; an inline one starts without any.
 */
static void indent_enter(struct render *r, const struct node *n)
{
    if (n->standalone) {
        indent_copy(r);
        indent_append(r, n->indent, n->indent_len);
        r->pending = true;
    } else {
        r->ind_from = r->indent.len;
        r->pending = false;
    }
    r->strip = r->strip_left = 0;
}

static bool depth_enter(struct render *r, const struct mus_template *t, const struct node *n,
                        const char *name, const struct mus_template *inner)
{
    if (r->depth > r->max_depth) {
        report_depth(r, t, n, name, inner);
        r->abort = true;
        return false;
    }
    if (!nest_enter(r, t, n))
        return false;
    GROW(r->chain, r->depth, r->chain_cap);
    r->chain[r->depth++] = inner;
    return true;
}

static void depth_leave(struct render *r)
{
    r->depth--;
    r->nest--;
}

/*
 * The template tag 'n' of 't' names: looked up by name the first time, then
 * (a fixed name) found in the render's memo of 't'.
 */
static const struct mus_template *partial_of(struct render *r, const struct mus_template *t,
                                             const struct node *n, const char **name)
{
    struct memo_table *mt = n->dynamic ? NULL : memo_table_of(r, t);
    size_t i = (size_t)(n - t->nodes);
    if (mt && mt->partials && mt->partials[i]) {
        *name = n->name;
        return mt->partials[i];
    }
    *name = partial_name(r, t, n);
    const struct mus_template *p = *name ? partial_get(r, t, n, *name) : NULL;
    if (mt && p) {
        if (!mt->partials)
            mt->partials = xcalloc(t->n, sizeof(*mt->partials));
        mt->partials[i] = p;
    }
    return p;
}

static void render_partial(struct render *r, const struct mus_template *t, const struct node *n)
{
    const char *name;
    const struct mus_template *p = partial_of(r, t, n, &name);
    if (!p || !depth_enter(r, t, n, name, p))
        return;
    struct indent_state s = indent_save(r);
    indent_enter(r, n);
    render_range(r, p, 0, p->n);
    indent_restore(r, &s);
    depth_leave(r);
}

static void render_parent(struct render *r, const struct mus_template *t, size_t i)
{
    const struct node *n = &t->nodes[i];
    const char *name;
    const struct mus_template *p = partial_of(r, t, n, &name);
    if (!p || !depth_enter(r, t, n, name, p))
        return;
    GROW(r->frames, r->nframes, r->frame_cap);
    r->frames[r->nframes++] = (struct mus_frame){t, n};
    struct indent_state s = indent_save(r);
    indent_enter(r, n);
    render_range(r, p, 0, p->n);
    indent_restore(r, &s);
    r->nframes--;
    depth_leave(r);
}

static void render_block(struct render *r, const struct mus_template *t, size_t i)
{
    const struct node *b = &t->nodes[i];
    const struct mus_template *ot = NULL;
    const struct node *o =
        mus_find_override(r->frames, r->nframes, r->active, r->nactive, b->name, &ot, &r->work);
    if (!o) {
        render_range(r, t, i + 1, b->end);
        return;
    }
    if (!nest_enter(r, t, b))
        return;
    GROW(r->active, r->nactive, r->active_cap);
    r->active[r->nactive++] = o;
    struct indent_state s = indent_save(r);
    indent_copy(r);
    indent_append(r, b->indent, b->indent_len);
    r->pending = b->indent_first;
    r->strip = r->strip_left = o->strip;
    render_range(r, ot, (size_t)(o - ot->nodes) + 1, o->end);
    indent_restore(r, &s);
    r->nactive--;
    r->nest--;
}

/* Reports the limit a render went over at tag 'n'; the render stops. */
static void over_limit(struct render *r, const struct mus_template *t, const struct node *n)
{
    bool output = r->over;
    r->over = false;
    r->failed = r->abort = true;
    if (output)
        diag_report(r->dg, DIAG_TEMPLATE_LIMIT, node_pos(t, n),
                    "output over the limit of %zu bytes; -ftemplate-output-limit=N raises it",
                    r->max_output);
    else
        diag_report(r->dg, DIAG_TEMPLATE_LIMIT, node_pos(t, n),
                    "rendering over the limit of %llu steps; -ftemplate-work-limit=N raises it",
                    (unsigned long long)r->max_work);
}

/*
 * The common tag of a header, a name the memo finds in the context on top
 * ('top'), or in an object there for a dotted name, holding a string
 * (escaped unless the tag or the render says not to) or an integer, whose
 * text leaves 'out' within 'lim' (r->fast_lim) even at its longest; false
 * when it is not that case, and render_var() must do it in full. A name the
 * top context holds is the one a full lookup finds, whatever context the
 * memo found it in before. 'raw_values': the render escapes nothing.
 */
static inline bool var_fast(struct render *r, struct buf *out, const struct node *n,
                            const struct memo *memo, const struct dt *top, bool raw_values,
                            size_t lim)
{
    if (n->nparts == 0)
        return false;
    const struct dt *v = top;
    for (uint32_t k = 0; k < n->nparts; k++) {
        const struct dt_member *m = memo_member(&memo[n->parts[k].memo], v);
        if (!m)
            return false;
        v = m->val;
    }
    if (v->type == DT_STR && (n->raw || raw_values)) {
        if (out->len + v->u.str.len > lim)
            return false;
        put_piece(out, v->u.str.s, v->u.str.len);
    } else if (v->type == DT_STR) {
        if (out->len > lim || v->u.str.len > (lim - out->len) / MUS_ESCAPE_GROWTH)
            return false;
        mus_escape(out, r->opt->escape, v->u.str.s, v->u.str.len);
    } else if (v->type == DT_INT) {
        if (out->len + 20 > lim) /* the most a long long's sign and digits take */
            return false;
        add_int(out, v->u.i);
    } else {
        return false;
    }
    r->pending = false; /* no indentation is in force: flush_indent() would write nothing */
    r->strip_left = 0;
    return true;
}

/*
 * A node of a run the fast path left: what render_range() does for it,
 * the hand-over to the sink first. False when the render stops there.
 */
static bool run_node(struct render *r, const struct mus_template *t, const struct node *n)
{
    if (r->out->len >= MUS_SINK_CHUNK && r->opt->sink && !r->failed)
        hand_over(r);
    if (n->kind == N_TEXT) {
        if (!room(r, n->len))
            return false;
        buf_put(r->out, n->text, n->len);
        return true;
    }
    render_var(r, t, n);
    return !r->abort;
}

/*
 * Renders the TEXT and VAR nodes [n, end) while no indentation is in force:
 * what render_range() does for each, without its dispatch. A piece that
 * keeps 'out' within r->fast_lim is copied with one test; any other goes
 * to run_node(). Returns the node the render stopped at, or 'end'.
 */
static const struct node *render_run(struct render *r, const struct mus_template *t,
                                     const struct memo *memo, const struct dt *top,
                                     const struct node *n, const struct node *end)
{
    struct buf *out = r->out;
    const bool raw_values = r->opt->escape == MUS_ESCAPE_NONE;
    r->work += (uint64_t)(end - n); /* the caller checked it stays within work_end */
    for (; n < end; n++) {
        if (n->kind == N_TEXT) {
            if (out->len + n->len <= r->fast_lim) {
                put_piece(out, n->text, n->len);
                continue;
            }
        } else if (var_fast(r, out, n, memo, top, raw_values, r->fast_lim)) {
            continue;
        }
        if (!run_node(r, t, n))
            return n;
        r->fast_lim = fast_limit(r);
    }
    return end;
}

/*
 * Renders nodes [from, to) of 't'. What a nested tag changes (the context
 * stack, the indentation) it restores before returning, so the top context
 * and whether an indentation is in force hold for the whole range.
 */
static void render_range(struct render *r, const struct mus_template *t, size_t from, size_t to)
{
    if (r->abort)
        return;
    const bool plain = r->indent.len == r->ind_from && r->strip == 0; /* strip_left <= strip */
    const struct memo *memo = memo_of(r, t);
    const struct dt *top = r->nctx ? r->ctx[r->nctx - 1] : NULL;
    for (size_t i = from; i < to;) {
        const struct node *n = &t->nodes[i];
        if (plain && (n->kind == N_TEXT || n->kind == N_VAR)) {
            size_t stop = n->run_end < to ? n->run_end : to;
            if (r->work + (stop - i) <= r->work_end) {
                const struct node *at = render_run(r, t, memo, top, n, t->nodes + stop);
                if (r->abort) {
                    if (r->over)
                        over_limit(r, t, at);
                    break;
                }
                i = stop;
                continue;
            }
        }
        if (r->out->len >= MUS_SINK_CHUNK && r->opt->sink && !r->failed)
            hand_over(r); /* between two tags: no caller holds an offset into 'out' */
        if (++r->work > r->work_end) {
            over_limit(r, t, n);
            break;
        }
        switch (n->kind) {
        case N_TEXT:
            emit_text(r, n->text, n->len);
            break;
        case N_VAR:
            render_var(r, t, n);
            break;
        case N_SECTION:
        case N_INVERTED:
            render_section(r, t, i);
            break;
        case N_PARTIAL:
            render_partial(r, t, n);
            break;
        case N_PARENT:
            render_parent(r, t, i);
            break;
        case N_BLOCK:
            render_block(r, t, i);
            break;
        }
        if (r->abort) { /* set with 'over' too */
            if (r->over)
                over_limit(r, t, n);
            break;
        }
        i = n->end;
    }
}

int mus_render(struct diag *dg, const struct mus_template *t, const struct dt *data,
               const struct mus_options *opt, struct buf *out)
{
    static const struct mus_options defaults = {0};
    struct mus_partials own = {0};
    struct render r = {.dg = dg, .opt = opt ? opt : &defaults, .out = out};
    r.partials = r.opt->partials ? r.opt->partials : &own;
    buf_init(&r.indent);
    r.max_depth = r.opt->max_depth ? r.opt->max_depth : MUS_DEFAULT_MAX_DEPTH;
    r.max_output = r.opt->max_output ? r.opt->max_output : MUS_DEFAULT_MAX_OUTPUT;
    r.max_work = r.work_end = r.opt->max_work ? r.opt->max_work : MUS_DEFAULT_MAX_WORK;
    r.out_lim = r.max_output > SIZE_MAX - out->len ? SIZE_MAX : out->len + r.max_output;
    r.fast_lim = fast_limit(&r);
    GROW(r.chain, r.depth, r.chain_cap);
    r.chain[r.depth++] = t;
    push(&r, data);
    render_range(&r, t, 0, t->n);
    buf_terminate(out);
    mus_partials_release(&own);
    free(r.ctx);
    free(r.frames);
    free(r.active);
    free(r.chain);
    free(r.reported);
    for (size_t i = 0; i < r.nmemos; i++) {
        free(r.memos[i].memo);
        free(r.memos[i].partials);
    }
    free(r.memos);
    buf_release(&r.indent);
    return r.failed ? -1 : 0;
}
