/* mustache_parse.c - the template parser: mus_compile() (see mustache_int.h, mustache.h); and
 * what the checker and the renderer look up in compiled templates: partials, overrides. */
#include "mustache_int.h"

#include "util.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DELIM 16          /* longest custom delimiter */
#define MAX_SECTION_DEPTH 512 /* sections nested in one template */

struct parser {
    struct diag *dg;
    struct mus_template *t;
    const char *s;
    size_t len, pos;
    uint32_t line;
    size_t line_start; /* offset of the current line's first byte */
    size_t line_node;  /* first node that may hold text of the current line */
    bool dirty;        /* the line so far holds more than blanks and standalone-able tags */
    char open[MAX_DELIM + 1], close[MAX_DELIM + 1];
    size_t olen, clen;
    uint32_t *stack; /* indices of open sections */
    size_t depth, stack_cap;
    bool failed, fatal;
};

/* What parse_tag learns about one tag before handing it to its handler. */
struct tag {
    char sigil;       /* 0 for a plain {{name}} */
    const char *body; /* the content between sigil and closing delimiter */
    size_t body_len;
    uint32_t line, col;
    bool leading, standalone;
    const char *ws; /* blanks before the tag when leading */
    size_t ws_len;
};

static struct srcpos tag_pos(const struct parser *p, uint32_t line, uint32_t col)
{
    return (struct srcpos){p->t->file, line, col};
}

static struct node *node_add(struct parser *p, enum node_kind kind, const struct tag *tg)
{
    struct mus_template *t = p->t;
    if (t->n == t->cap)
        t->nodes = xgrow(t->nodes, &t->cap, t->n + 1, sizeof(*t->nodes));
    struct node *n = &t->nodes[t->n++];
    memset(n, 0, sizeof(*n));
    n->kind = kind;
    n->end = (uint32_t)t->n; /* no children yet: the next node follows */
    if (tg) {
        n->line = tg->line;
        n->col = tg->col;
        n->leading = tg->leading;
        n->standalone = tg->standalone;
    }
    return n;
}


static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Finds 'pat' (plen bytes) in s[from, len); returns len if absent. */
static size_t find(const char *s, size_t len, size_t from, const char *pat, size_t plen)
{
    while (from + plen <= len) {
        const char *c = memchr(s + from, pat[0], len - from - plen + 1);
        if (!c)
            return len;
        size_t at = (size_t)(c - s);
        if (memcmp(c, pat, plen) == 0)
            return at;
        from = at + 1;
    }
    return len;
}

/* Text from 'from' to 'to': one TEXT node; follows line ends and blankness. */
static void add_text(struct parser *p, size_t from, size_t to)
{
    if (from == to)
        return;
    struct node *n = node_add(p, N_TEXT, NULL);
    size_t idx = p->t->n - 1;
    n->text = p->t->src + from;
    n->len = to - from;
    n->line = p->line;
    n->col = (uint32_t)(from - p->line_start + 1);
    for (size_t i = from; i < to; i++) {
        char c = p->s[i];
        if (c == '\n') {
            p->line++;
            p->line_start = i + 1;
            p->line_node = idx;
            p->dirty = false;
        } else if (!is_blank(c) && !(c == '\r' && i + 1 < p->len && p->s[i + 1] == '\n')) {
            p->dirty = true;
        }
    }
}

/* A standalone tag's line disappears: cut the blanks before it on its line. */
static void trim_line(struct parser *p, size_t line_start, size_t line_node)
{
    const char *cut = p->t->src + line_start;
    for (size_t i = line_node; i < p->t->n; i++) {
        struct node *n = &p->t->nodes[i];
        if (n->kind != N_TEXT)
            continue;
        if (n->text < cut)
            n->len = n->text + n->len > cut ? (size_t)(cut - n->text) : n->len;
        else
            n->len = 0;
    }
}

static int syntax_error(struct parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int syntax_error(struct parser *p, uint32_t line, uint32_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(p->dg, DIAG_TEMPLATE_SYNTAX, tag_pos(p, line, col), fmt, ap);
    va_end(ap);
    p->failed = true;
    return -1;
}

static void trim(const char **s, size_t *len)
{
    while (*len && is_space(**s)) {
        (*s)++;
        (*len)--;
    }
    while (*len && is_space((*s)[*len - 1]))
        (*len)--;
}

/* Characters that would start a tag type mustache does not have. */
static bool is_unknown_sigil(char c)
{
    return c && strchr("%@~+|?:;,'\"()[]\\`*", c) != NULL;
}

/*
 * Fills n->name/parts/nparts from a tag body. 'allow_star': a leading '*'
 * makes the name dynamic ({{>*x}}, {{<*x}}).
 */
static int parse_name(struct parser *p, struct node *n, const struct tag *tg, bool allow_star)
{
    const char *s = tg->body;
    size_t len = tg->body_len;
    trim(&s, &len);
    if (allow_star && len && *s == '*') {
        n->dynamic = true;
        s++;
        len--;
        trim(&s, &len);
    }
    if (len == 0)
        return syntax_error(p, tg->line, tg->col, "tag has no name");
    char *name = arena_strndup(&p->t->arena, s, len);
    n->name = name;
    for (size_t i = 0; i < len; i++)
        if (is_space(s[i]))
            return syntax_error(p, tg->line, tg->col, "invalid name '%s'", name);
    if (len == 1 && *s == '.')
        return 0; /* the implicit iterator: nparts 0 */
    char *text = arena_strndup(&p->t->arena, s, len);
    uint32_t nparts = 1;
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '.')
            continue;
        if (i == 0 || i + 1 == len || text[i + 1] == '.')
            return syntax_error(p, tg->line, tg->col, "invalid name '%s'", name);
        text[i] = '\0';
        nparts++;
    }
    struct part *parts = arena_alloc(&p->t->arena, nparts * sizeof(*parts));
    for (uint32_t k = 0; k < nparts; k++) {
        size_t plen = strlen(text);
        parts[k] = (struct part){text, (uint32_t)plen, p->t->nparts++};
        text += plen + 1;
    }
    n->parts = parts;
    n->nparts = nparts;
    return 0;
}

static const char *kind_word(enum node_kind k)
{
    switch (k) {
    case N_PARENT:
        return "parent";
    case N_BLOCK:
        return "block";
    default:
        return "section";
    }
}

static void open_node(struct parser *p, enum node_kind kind, const struct tag *tg)
{
    if (p->depth >= MAX_SECTION_DEPTH) {
        syntax_error(p, tg->line, tg->col, "sections nested more than %d levels deep",
                     MAX_SECTION_DEPTH);
        p->fatal = true;
        return;
    }
    struct node *n = node_add(p, kind, tg);
    if (kind == N_PARENT || kind == N_BLOCK) {
        n->indent = tg->ws;
        n->indent_len = (uint32_t)tg->ws_len;
    }
    parse_name(p, n, tg, kind == N_PARENT);
    if (p->depth == p->stack_cap)
        p->stack = xgrow(p->stack, &p->stack_cap, p->depth + 1, sizeof(*p->stack));
    p->stack[p->depth++] = (uint32_t)(p->t->n - 1);
}

static size_t leading_blanks(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && is_blank(s[i]))
        i++;
    return i;
}

/*
 * A block's indentation, used when an override replaces it: for a standalone
 * opening tag, the blanks its first content line starts with (or the tag's own
 * when it has no content); for a tag with only blanks before it on its line,
 * those blanks (already written by the text before it).
 */
static void block_close(struct parser *p, struct node *b, size_t bi)
{
    if (b->standalone) {
        const struct node *first = bi + 1 < p->t->n ? &p->t->nodes[bi + 1] : NULL;
        if (first && first->kind == N_TEXT && first->len > 0) {
            b->indent = first->text;
            b->indent_len = (uint32_t)leading_blanks(first->text, first->len);
        }
        b->indent_first = true;
        b->strip = b->indent_len;
    } else if (!b->leading) {
        b->indent_len = 0;
    }
}

static int block_ref_cmp(const void *a, const void *b)
{
    const struct block_ref *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->node > y->node) - (x->node < y->node);
}

/* Indexes the blocks directly inside parent tag 'pi', sorted by name (the first of equals first).
 */
static void parent_close(struct parser *p, size_t pi)
{
    struct node *par = &p->t->nodes[pi];
    uint32_t n = 0;
    for (size_t i = pi + 1; i < par->end; i = p->t->nodes[i].end ? p->t->nodes[i].end : i + 1)
        n += p->t->nodes[i].kind == N_BLOCK;
    if (n == 0)
        return;
    struct block_ref *refs = arena_alloc(&p->t->arena, n * sizeof(*refs));
    uint32_t k = 0;
    for (size_t i = pi + 1; i < par->end; i = p->t->nodes[i].end ? p->t->nodes[i].end : i + 1)
        if (p->t->nodes[i].kind == N_BLOCK && p->t->nodes[i].name)
            refs[k++] = (struct block_ref){p->t->nodes[i].name, (uint32_t)i};
    qsort(refs, k, sizeof(*refs), block_ref_cmp);
    par->blocks = refs;
    par->nblocks = k;
}

static void close_node(struct parser *p, const struct tag *tg)
{
    struct node tmp = {0};
    if (parse_name(p, &tmp, tg, false) < 0)
        return;
    if (p->depth == 0) {
        syntax_error(p, tg->line, tg->col, "'/%s' closes no open section", tmp.name);
        return;
    }
    size_t bi = p->stack[--p->depth];
    struct node *o = &p->t->nodes[bi];
    o->end = (uint32_t)p->t->n;
    if (o->name && strcmp(o->name, tmp.name) != 0) {
        syntax_error(p, tg->line, tg->col, "%s '%s' closed by '/%s'", kind_word(o->kind), o->name,
                     tmp.name);
        diag_note(p->dg, tag_pos(p, o->line, o->col), "%s '%s' opened here", kind_word(o->kind),
                  o->name);
    }
    if (o->kind == N_BLOCK)
        block_close(p, o, bi);
    if (o->kind == N_PARENT) {
        parent_close(p, bi);
        if (!o->standalone && o->leading && tg->standalone && o->line == tg->line)
            o->standalone = true; /* "  {{<p}}{{/p}}" alone on a line */
    }
}

static void set_delimiters(struct parser *p, const struct tag *tg)
{
    const char *s = tg->body;
    size_t len = tg->body_len;
    trim(&s, &len);
    size_t a = 0;
    while (a < len && !is_space(s[a]))
        a++;
    size_t b = a;
    while (b < len && is_space(s[b]))
        b++;
    size_t c = b;
    while (c < len && !is_space(s[c]))
        c++;
    if (a == 0 || b == a || c == b || c != len || memchr(s, '=', len) || a > MAX_DELIM ||
        c - b > MAX_DELIM) {
        syntax_error(p, tg->line, tg->col,
                     "bad set-delimiters tag: expected two delimiters without '=' or blanks, "
                     "separated by a blank");
        p->fatal = true; /* the rest would be parsed with the wrong delimiters */
        return;
    }
    memcpy(p->open, s, a);
    p->open[a] = '\0';
    p->olen = a;
    memcpy(p->close, s + b, c - b);
    p->close[c - b] = '\0';
    p->clen = c - b;
}

static void handle_tag(struct parser *p, const struct tag *tg)
{
    struct node *n;
    switch (tg->sigil) {
    case '!':
        break;
    case '=':
        set_delimiters(p, tg);
        break;
    case '#':
        open_node(p, N_SECTION, tg);
        break;
    case '^':
        open_node(p, N_INVERTED, tg);
        break;
    case '$':
        open_node(p, N_BLOCK, tg);
        break;
    case '<':
        open_node(p, N_PARENT, tg);
        break;
    case '/':
        close_node(p, tg);
        break;
    case '>':
        n = node_add(p, N_PARTIAL, tg);
        if (tg->standalone) {
            n->indent = tg->ws;
            n->indent_len = (uint32_t)tg->ws_len;
        }
        parse_name(p, n, tg, true);
        break;
    default:
        n = node_add(p, N_VAR, tg);
        n->raw = tg->sigil == '{' || tg->sigil == '&';
        parse_name(p, n, tg, false);
        break;
    }
}

/* Line ends inside a tag (a multi-line comment) move the line counter. */
static void count_lines(struct parser *p, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        if (p->s[i] == '\n') {
            p->line++;
            p->line_start = i + 1;
            p->line_node = p->t->n;
        }
    }
}

/* After a tag: the offset past its line end if only blanks follow, else 0. */
static size_t line_rest(const struct parser *p, size_t q)
{
    while (q < p->len && is_blank(p->s[q]))
        q++;
    if (q == p->len)
        return q;
    if (p->s[q] == '\n')
        return q + 1;
    if (p->s[q] == '\r' && q + 1 < p->len && p->s[q + 1] == '\n')
        return q + 2;
    return 0;
}

/*
 * Tags that leave a line standalone-able: a parent's opening tag, and the end
 * of a block given to a parent ("{{/block}}{{/parent}}" alone on a line).
 */
static bool keeps_line_clean(const struct parser *p, const struct tag *tg)
{
    if (tg->sigil == '<')
        return true;
    if (tg->sigil != '/' || p->depth == 0)
        return false;
    const struct node *o = &p->t->nodes[p->stack[p->depth - 1]];
    return o->kind == N_PARENT;
}

/* The text that ends a tag opened by sigil 'c': "}" or "=" before the closing delimiter. */
static size_t closing_of(const struct parser *p, char c, char *closing)
{
    size_t n = 0;
    if (c == '{' || c == '=')
        closing[n++] = c == '{' ? '}' : '=';
    memcpy(closing + n, p->close, p->clen + 1);
    return n + p->clen;
}

/* After a tag: a standalone one takes its line end with it. */
static void finish_tag(struct parser *p, const struct tag *tg, size_t tag_end, size_t next)
{
    if (!tg->standalone) {
        p->pos = tag_end;
        if (!keeps_line_clean(p, tg))
            p->dirty = true;
        return;
    }
    if (next > tag_end && p->s[next - 1] == '\n') {
        p->line++;
        p->line_start = next;
    }
    p->line_node = p->t->n;
    p->dirty = false;
    p->pos = next;
}

static void parse_tag(struct parser *p, size_t at)
{
    struct tag tg = {
        .line = p->line, .col = (uint32_t)(at - p->line_start + 1), .leading = !p->dirty};
    size_t body = at + p->olen;
    char c = body < p->len ? p->s[body] : '\0';
    char closing[MAX_DELIM + 2];
    size_t clen = closing_of(p, c, closing);
    if (c && strchr("{&#^/!>=<$", c))
        tg.sigil = c, body++;
    size_t end = find(p->s, p->len, body, closing, clen);
    if (end == p->len) {
        syntax_error(p, tg.line, tg.col, "unclosed tag '%s': no '%s' follows", p->open, closing);
        p->fatal = true;
        return;
    }
    size_t tag_end = end + clen, line_start = p->line_start, line_node = p->line_node;
    count_lines(p, at, tag_end);
    if (!tg.sigil && is_unknown_sigil(c)) {
        syntax_error(p, tg.line, tg.col, "unknown tag type '%s%c'", p->open, c);
        finish_tag(p, &tg, tag_end, 0);
        return;
    }
    tg.body = p->s + body;
    tg.body_len = end - body;
    if (tg.leading) {
        tg.ws = p->t->src + line_start;
        tg.ws_len = at - line_start;
    }
    size_t next = 0;
    if (tg.sigil && tg.sigil != '{' && tg.sigil != '&' && tg.leading)
        next = line_rest(p, tag_end);
    tg.standalone = next != 0;
    if (tg.standalone)
        trim_line(p, line_start, line_node);
    handle_tag(p, &tg);
    finish_tag(p, &tg, tag_end, next);
}

static void parse(struct parser *p)
{
    while (p->pos < p->len && !p->fatal) {
        size_t at = find(p->s, p->len, p->pos, p->open, p->olen);
        add_text(p, p->pos, at);
        p->pos = at;
        if (at == p->len)
            break;
        parse_tag(p, at);
    }
    if (p->fatal)
        return;
    for (size_t i = 0; i < p->depth; i++) {
        const struct node *o = &p->t->nodes[p->stack[i]];
        syntax_error(p, o->line, o->col, "unclosed %s '%s'", kind_word(o->kind),
                     o->name ? o->name : "");
    }
}

static bool in_run(const struct node *n)
{
    return n->kind == N_TEXT || n->kind == N_VAR;
}

/*
 * Gives each TEXT and VAR node the end of the run of such nodes it starts,
 * which the renderer writes in one loop. A node without children is
 * followed by its next sibling or by what follows its parent: the renderer
 * ends a run at the end of the range it renders too.
 */
static void mark_runs(struct mus_template *t)
{
    for (size_t i = t->n; i-- > 0;) {
        struct node *n = &t->nodes[i];
        if (in_run(n))
            n->run_end = i + 1 < t->n && in_run(n + 1) ? n[1].run_end : (uint32_t)i + 1;
    }
}

struct mus_template *mus_compile(struct diag *dg, const char *name, const char *text, size_t len)
{
    struct mus_template *t = xcalloc(1, sizeof(*t));
    t->name = name;
    t->src = xmalloc(len + 1);
    if (len)
        memcpy(t->src, text, len);
    t->src[len] = '\0';
    t->file = diag_add_source(dg, name, t->src, len); /* carets; reports end before mus_free */
    t->len = len;
    arena_init(&t->arena);
    struct parser p = {.dg = dg, .t = t, .s = t->src, .len = len, .line = 1};
    strcpy(p.open, "{{");
    strcpy(p.close, "}}");
    p.olen = p.clen = 2;
    parse(&p);
    free(p.stack);
    if (p.failed) {
        mus_free(t);
        return NULL;
    }
    mark_runs(t);
    return t;
}

void mus_free(struct mus_template *t)
{
    if (!t)
        return;
    free(t->src);
    free(t->nodes);
    arena_release(&t->arena);
    free(t);
}

const char *mus_name(const struct mus_template *t)
{
    return t->name;
}

const struct node *mus_find_override(const struct mus_frame *frames, size_t nframes,
                                     const struct node *const *active, size_t nactive,
                                     const char *name, const struct mus_template **ot,
                                     uint64_t *work)
{
    for (size_t f = 0; f < nframes; f++) {
        const struct mus_template *t = frames[f].t;
        const struct node *p = frames[f].parent;
        size_t lo = 0, hi = p->nblocks;
        while (lo < hi) { /* the first ref whose name is not below 'name' (sorted: parent_close) */
            size_t mid = lo + (hi - lo) / 2;
            if (strcmp(p->blocks[mid].name, name) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < p->nblocks && strcmp(p->blocks[lo].name, name) == 0; lo++) {
            const struct node *o = &t->nodes[p->blocks[lo].node];
            size_t i = 0;
            while (i < nactive && active[i] != o)
                i++;
            if (work)
                *work += nactive + 1;
            if (i == nactive) {
                *ot = t;
                return o;
            }
        }
    }
    return NULL;
}

void mus_partials_release(struct mus_partials *ps)
{
    for (size_t i = 0; i < ps->by_name.n; i++) {
        struct mus_partial *p = ps->by_name.entries[i].val;
        free(p->name);
        mus_free(p->t);
        free(p);
    }
    regc_map_release(&ps->by_name);
}

const struct mus_partial *mus_partial_get(struct mus_partials *ps, struct diag *dg,
                                          const struct mus_options *opt, const char *name)
{
    bool known;
    struct regc_map_entry *me = xmap_put_str(&ps->by_name, name, &known);
    if (known)
        return me->val;
    struct mus_partial *p = xcalloc(1, sizeof(*p));
    p->name = xstrdup(name);
    me->key = p->name; /* the same bytes, kept as long as the entry */
    me->val = p;
    struct mus_source src = {0};
    int rc = opt->load ? opt->load(opt->load_ctx, dg, name, &src) : 0;
    p->missing = rc == 0;
    if (rc > 0)
        p->t = mus_compile(dg, src.display_name ? src.display_name : p->name, src.text, src.len);
    p->failed = rc < 0 || (rc > 0 && !p->t);
    return p;
}
