/*
 * mustache.c - parser and renderer (see mustache.h for the contract).
 *
 * A compiled template is a flat array of nodes in document order; a node
 * that has children (section, inverted section, parent, block) records the
 * index just past its last child, so rendering is a loop over index ranges.
 * The parser makes one pass over the text: it tracks whether the current
 * line holds anything but blanks and which node holds the line's first
 * text, so a standalone tag trims its line without rescanning it.
 *
 * Indentation (standalone partials, parents and reindented blocks) is done
 * while rendering: the renderer keeps the indentation in force and, at each
 * line start of template text, skips 'strip' blanks and writes the indent.
 */
#include "mustache.h"

#include "arena.h"
#include "util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DELIM 16          /* longest custom delimiter */
#define MAX_SECTION_DEPTH 512 /* sections nested in one template */
#define MAX_NEST 4096         /* sections and partials nested while rendering */
#define MAX_RENDER_ERRORS 100

enum node_kind { N_TEXT, N_VAR, N_SECTION, N_INVERTED, N_PARTIAL, N_PARENT, N_BLOCK };

/* A block given inside a parent tag, for lookup by name. */
struct block_ref {
    const char *name;
    uint32_t node; /* index in the template's nodes */
};

/* One dotted part of a name. */
struct part {
    const char *s; /* NUL-terminated */
    uint32_t len;
    uint32_t memo; /* this part's slot in a render's memo of the template (struct memo) */
};

struct node {
    enum node_kind kind;
    bool raw;          /* VAR: {{{x}}} or {{&x}} */
    bool dynamic;      /* PARTIAL, PARENT: {{>*x}} names a value holding the name */
    bool standalone;   /* tag alone on its line (PARENT: open and close together) */
    bool leading;      /* only blanks before the tag on its line */
    bool indent_first; /* BLOCK: the indentation applies to the first line too */
    uint32_t line, col;
    uint32_t end;     /* nodes with children: index just past the last child */
    const char *text; /* TEXT: into the template's copy of the source */
    size_t len;
    const char *name;  /* the name as written (without '*'); owned by the template's arena */
    const struct part *parts; /* name split at dots; nparts 0 is "." */
    uint32_t nparts;
    const char
        *indent; /* PARTIAL, PARENT: blanks before a standalone tag; BLOCK: see block_close */
    uint32_t indent_len;
    uint32_t strip;                 /* BLOCK used as an override: blanks its own lines start with */
    const struct block_ref *blocks; /* PARENT: its blocks sorted by name; owned by the arena */
    uint32_t nblocks;
};

struct mus_template {
    const char *name;
    uint32_t file;
    char *src;
    size_t len;
    struct node *nodes;
    size_t n, cap;
    uint32_t nparts; /* parts of all names: the size of a memo */
    struct arena arena;
};

/* ------------------------------------------------------------------ parser */

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
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 16;
        t->nodes = xrealloc(t->nodes, t->cap * sizeof(*t->nodes));
    }
    struct node *n = &t->nodes[t->n++];
    memset(n, 0, sizeof(*n));
    n->kind = kind;
    if (tg) {
        n->line = tg->line;
        n->col = tg->col;
        n->leading = tg->leading;
        n->standalone = tg->standalone;
    }
    return n;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
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
    if (p->depth == p->stack_cap) {
        p->stack_cap = p->stack_cap ? p->stack_cap * 2 : 16;
        p->stack = xrealloc(p->stack, p->stack_cap * sizeof(*p->stack));
    }
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

struct mus_template *mus_compile(struct diag *dg, const char *name, const char *text, size_t len,
                                 const struct mus_options *opt)
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

/* ------------------------------------------------------------------ values */

void mus_format_real(struct buf *out, double d)
{
    char tmp[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof(tmp), "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    buf_adds(out, tmp);
}

/*
 * Which bytes each escape kind must look at: a bit per kind (1 << kind).
 * Most values (names, numbers, hex literals) hold none of them, so a scan
 * with this table finds the plain runs and each run is copied at once.
 */
#define SP_HTML (1u << MUS_ESCAPE_HTML)
#define SP_C (1u << MUS_ESCAPE_C)
#define SP_MD (1u << MUS_ESCAPE_MARKDOWN)
#define SP_JSON (1u << MUS_ESCAPE_JSON)
static const unsigned char special[256] = {
    /* control characters: C drops them, except tab and line ends; JSON writes them \\u00XX */
    [0x00] = SP_C | SP_JSON,
    [0x01] = SP_C | SP_JSON,
    [0x02] = SP_C | SP_JSON,
    [0x03] = SP_C | SP_JSON,
    [0x04] = SP_C | SP_JSON,
    [0x05] = SP_C | SP_JSON,
    [0x06] = SP_C | SP_JSON,
    [0x07] = SP_C | SP_JSON,
    [0x08] = SP_C | SP_JSON,
    [0x0b] = SP_C | SP_JSON,
    [0x0c] = SP_C | SP_JSON,
    [0x0e] = SP_C | SP_JSON,
    [0x0f] = SP_C | SP_JSON,
    [0x10] = SP_C | SP_JSON,
    [0x11] = SP_C | SP_JSON,
    [0x12] = SP_C | SP_JSON,
    [0x13] = SP_C | SP_JSON,
    [0x14] = SP_C | SP_JSON,
    [0x15] = SP_C | SP_JSON,
    [0x16] = SP_C | SP_JSON,
    [0x17] = SP_C | SP_JSON,
    [0x18] = SP_C | SP_JSON,
    [0x19] = SP_C | SP_JSON,
    [0x1a] = SP_C | SP_JSON,
    [0x1b] = SP_C | SP_JSON,
    [0x1c] = SP_C | SP_JSON,
    [0x1d] = SP_C | SP_JSON,
    [0x1e] = SP_C | SP_JSON,
    [0x1f] = SP_C | SP_JSON,
    [0x7f] = SP_C,
    ['\t'] = SP_JSON,
    ['\n'] = SP_MD | SP_JSON,
    ['\r'] = SP_C | SP_MD | SP_JSON,
    ['&'] = SP_HTML | SP_MD,
    ['<'] = SP_HTML | SP_MD,
    ['>'] = SP_HTML | SP_MD,
    ['"'] = SP_HTML | SP_JSON,
    ['/'] = SP_C,
    ['*'] = SP_C | SP_MD,
    ['?'] = SP_C,
    ['\\'] = SP_C | SP_MD | SP_JSON,
    ['|'] = SP_MD,
    ['`'] = SP_MD,
    ['~'] = SP_MD,
    ['['] = SP_MD,
    [']'] = SP_MD,
    ['_'] = SP_MD};

/* The end of the run of bytes from 'i' on that 'bit''s escaping copies as they are. */
static size_t plain_run(const char *s, size_t len, size_t i, unsigned bit)
{
    while (i < len && !(special[(unsigned char)s[i]] & bit))
        i++;
    return i;
}

/* Copies s, the plain runs for 'bit' at once, each byte the table marks through one(). */
static void escape_runs(struct buf *out, const char *s, size_t len, unsigned bit,
                        void (*one)(struct buf *, unsigned char))
{
    for (size_t i = 0; i < len; i++) {
        size_t run = plain_run(s, len, i, bit);
        buf_addn(out, s + i, run - i);
        if (run == len)
            break;
        i = run;
        one(out, (unsigned char)s[i]);
    }
}

static void html_byte(struct buf *out, unsigned char ch)
{
    switch (ch) {
    case '&':
        buf_addn(out, "&amp;", 5);
        break;
    case '<':
        buf_addn(out, "&lt;", 4);
        break;
    case '>':
        buf_addn(out, "&gt;", 4);
        break;
    default: /* '"' */
        buf_addn(out, "&quot;", 6);
        break;
    }
}

static void escape_html(struct buf *out, const char *s, size_t len)
{
    escape_runs(out, s, len, SP_HTML, html_byte);
}

static bool at_line_end(const char *s, size_t len, size_t i)
{
    return i >= len || s[i] == '\n' || (s[i] == '\r' && i + 1 < len && s[i + 1] == '\n');
}

/* One byte the table marks for C at s[i]: what goes out in its place. */
static void escape_c_byte(struct buf *out, const char *s, size_t len, size_t i)
{
    char c = s[i], next = i + 1 < len ? s[i + 1] : '\0';
    if ((c == '/' && next == '*') || (c == '*' && next == '/') || (c == '?' && next == '?')) {
        buf_addc(out, c);
        buf_addc(out, ' ');
    } else if (c == '\\') {
        if (!at_line_end(s, len, i + 1)) /* else it would splice the next line into this one */
            buf_addc(out, c);
    } else if (c == '\r') {
        if (next == '\n')
            buf_addc(out, c);
    } else if (c == '/' || c == '*' || c == '?') {
        buf_addc(out, c);
    } /* else a control character: dropped */
}

static void escape_c(struct buf *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        size_t run = plain_run(s, len, i, SP_C);
        buf_addn(out, s + i, run - i);
        if (run == len)
            break;
        i = run;
        escape_c_byte(out, s, len, i);
    }
}

static bool is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/*
 * GFM reads '_' as emphasis only at a word's edge ("_x_", not "ev_sel"), so a
 * run of '_' is escaped only when a non-alphanumeric character (or the end of
 * the text) touches it: names like ev_sel stay readable in the .md source.
 */
static bool underscore_is_markup(const char *s, size_t len, size_t i)
{
    size_t lo = i, hi = i;
    while (lo > 0 && s[lo - 1] == '_')
        lo--;
    while (hi + 1 < len && s[hi + 1] == '_')
        hi++;
    return lo == 0 || !is_word_char(s[lo - 1]) || hi + 1 == len || !is_word_char(s[hi + 1]);
}

static void escape_markdown(struct buf *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        size_t run = plain_run(s, len, i, SP_MD);
        buf_addn(out, s + i, run - i);
        if (run == len)
            break;
        i = run;
        switch (s[i]) {
        case '_':
            if (underscore_is_markup(s, len, i))
                buf_addc(out, '\\');
            buf_addc(out, '_');
            break;
        case '<':
        case '>':
        case '&':
            html_byte(out, (unsigned char)s[i]);
            break;
        case '\n':
            buf_addn(out, "<br>", 4);
            break;
        case '\r':
            break;
        default: /* | \ ` * ~ [ ] */
            buf_addc(out, '\\');
            buf_addc(out, s[i]);
            break;
        }
    }
}

/* In a JSON string: '"' and '\\' with a backslash, control characters as \\u00XX (RFC 8259 7). */
static void json_byte(struct buf *out, unsigned char ch)
{
    char tmp[8];
    if (ch == '"' || ch == '\\')
        snprintf(tmp, sizeof(tmp), "\\%c", ch);
    else
        snprintf(tmp, sizeof(tmp), "\\u%04x", ch);
    buf_adds(out, tmp);
}

static void escape_json(struct buf *out, const char *s, size_t len)
{
    escape_runs(out, s, len, SP_JSON, json_byte);
}

void mus_escape(struct buf *out, enum mus_escape kind, const char *s, size_t len)
{
    switch (kind) {
    case MUS_ESCAPE_HTML:
        escape_html(out, s, len);
        break;
    case MUS_ESCAPE_C:
        escape_c(out, s, len);
        break;
    case MUS_ESCAPE_MARKDOWN:
        escape_markdown(out, s, len);
        break;
    case MUS_ESCAPE_JSON:
        escape_json(out, s, len);
        break;
    case MUS_ESCAPE_NONE:
        buf_addn(out, s, len);
        break;
    }
}

bool mus_escape_parse(const char *word, enum mus_escape *kind)
{
    static const struct {
        const char *word;
        enum mus_escape kind;
    } words[] = {{"html", MUS_ESCAPE_HTML},
                 {"c", MUS_ESCAPE_C},
                 {"md", MUS_ESCAPE_MARKDOWN},
                 {"markdown", MUS_ESCAPE_MARKDOWN},
                 {"json", MUS_ESCAPE_JSON},
                 {"none", MUS_ESCAPE_NONE}};
    for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
        if (strcmp(word, words[i].word) == 0) {
            *kind = words[i].kind;
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------------ renderer */

struct cache_entry {
    char *name;             /* owned */
    struct mus_template *t; /* owned; NULL when missing or broken */
    bool missing;           /* the loader has no such partial */
};

/* A parent tag whose blocks override the blocks of the templates it calls. */
struct frame {
    const struct mus_template *t;
    const struct node *parent;
};

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

/* One template's memo: a struct memo per part of its names (struct part.memo). */
struct memo_table {
    const struct mus_template *t;
    struct memo *memo; /* owned */
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
    struct frame *frames; /* overrides in force, outermost first */
    size_t nframes, frame_cap;
    const struct node **active; /* overrides being rendered (never reused inside themselves) */
    size_t nactive, active_cap;
    const struct mus_template **chain; /* templates being rendered, the main one first */
    size_t depth, chain_cap;
    unsigned nest, max_depth;
    struct regc_map cache; /* partials by name: struct cache_entry */
    const struct node **reported; /* tags already reported once */
    size_t nreported, reported_cap;
    struct memo_table *memos; /* one per template rendered */
    size_t nmemos, memos_cap;
    const struct mus_template *memo_t; /* the template whose memo was used last, */
    struct memo *memo_cur;             /* and that memo (templates alternate rarely) */
    bool failed, abort;
    size_t handed;    /* bytes of output handed to opt->sink before out's */
    char last_handed; /* the last of them */
    /*
     * The limits (mus_options.max_output, max_work): handed + out->len may
     * not pass out_end, nor work work_end; 'over' marks output refused,
     * reported by the render_range() that rendered the tag.
     */
    size_t out_start, out_end, max_output;
    uint64_t work, work_end, max_work;
    bool over;
};

/* Room for one more item in 'arr' (n items, room for cap). */
#define GROW(arr, n, cap) ((arr) = xgrow((arr), &(cap), (n) + 1, sizeof(*(arr))))

static void render_range(struct render *r, const struct mus_template *t, size_t from, size_t to);

static struct srcpos node_pos(const struct mus_template *t, const struct node *n)
{
    return (struct srcpos){t->file, n->line, n->col};
}

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

static struct memo *memo_find(struct render *r, const struct mus_template *t)
{
    size_t i = 0;
    while (i < r->nmemos && r->memos[i].t != t)
        i++;
    if (i == r->nmemos) {
        GROW(r->memos, r->nmemos, r->memos_cap);
        r->memos[r->nmemos++] = (struct memo_table){t, xcalloc(t->nparts + 1, sizeof(struct memo))};
    }
    r->memo_t = t;
    r->memo_cur = r->memos[i].memo;
    return r->memo_cur;
}

/* The memo of template 't' in this render, made on its first use. */
static inline struct memo *memo_of(struct render *r, const struct mus_template *t)
{
    return t == r->memo_t ? r->memo_cur : memo_find(r, t);
}

/* The member 'e' remembers, if object 'o' holds it at the same index. */
static const struct dt_member *memo_member(const struct memo *e, const struct dt *o)
{
    if (!e->key || !o || o->type != DT_OBJ || e->idx >= o->n)
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
    if (r->handed + r->out->len + len <= r->out_end)
        return true;
    r->over = r->abort = r->failed = true;
    return false;
}

static void flush_indent(struct render *r)
{
    if (!r->pending || !room(r, r->indent.len - r->ind_from))
        return;
    r->pending = false;
    r->strip_left = 0;
    buf_addn(r->out, r->indent.s + r->ind_from, r->indent.len - r->ind_from);
}

/* Template text, indented line by line while an indentation is in force. */
static void emit_text(struct render *r, const char *s, size_t len)
{
    if (r->indent.len == r->ind_from && r->strip == 0 && r->strip_left == 0) {
        if (room(r, len))
            buf_addn(r->out, s, len);
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
        buf_addn(r->out, s + i, end - i);
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
    buf_addn(out, p, (size_t)(tmp + sizeof(tmp) - p));
}

static void render_var(struct render *r, const struct mus_template *t, const struct node *n)
{
    const struct dt *v = resolve(r, t, n, true);
    flush_indent(r);
    r->strip_left = 0;
    if (!v || r->over)
        return;
    size_t before = r->out->len;
    enum mus_escape esc = n->raw ? MUS_ESCAPE_NONE : r->opt->escape;
    switch (v->type) {
    case DT_STR:
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
    if (r->out->len > before && !room(r, 0)) { /* too long: taken back */
        r->out->len = before;
        r->out->s[before] = '\0';
    }
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

/* Hands what 'out' holds to opt->sink, which writes it, and empties 'out'. */
static void hand_over(struct render *r)
{
    if (r->out->len == 0)
        return;
    r->handed += r->out->len;
    r->last_handed = r->out->s[r->out->len - 1];
    r->opt->sink(r->opt->sink_ctx, r->out->s, r->out->len);
    buf_reset(r->out);
}

/*
 * Renders one item of the list section at node i. An item the hook built
 * (a block) goes to the sink once rendered, and its tree is released.
 */
static void render_item(struct render *r, const struct mus_template *t, size_t i,
                        const struct dt *item)
{
    const struct dt *own = r->opt->item ? r->opt->item(r->opt->item_ctx, item) : NULL;
    r->work++;
    push(r, own ? own : item);
    render_range(r, t, i + 1, t->nodes[i].end);
    r->nctx--;
    if (own && r->opt->sink && !r->failed)
        hand_over(r);
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

/* The compiled partial 'name', loading it on first use; NULL if missing or broken. */
static const struct mus_template *partial_get(struct render *r, const struct mus_template *t,
                                              const struct node *n, const char *name)
{
    bool known;
    struct regc_map_entry *me = xmap_put_str(&r->cache, name, &known);
    struct cache_entry *e = me->val;
    if (known)
        goto found;
    e = xcalloc(1, sizeof(*e));
    e->name = xstrdup(name);
    me->key = e->name; /* the same bytes, kept as long as the entry */
    me->val = e;
    struct mus_source src = {0};
    int rc = r->opt->load ? r->opt->load(r->opt->load_ctx, r->dg, name, &src) : 0;
    e->missing = rc == 0;
    if (rc > 0) {
        e->t = mus_compile(r->dg, src.display_name ? src.display_name : e->name, src.text, src.len,
                           r->opt);
        if (!e->t)
            r->failed = true;
        return e->t;
    }
    if (rc < 0) {
        r->failed = true;
        return NULL;
    }
found:
    if (e->missing && r->opt->strict && first_report(r, n))
        diag_report(r->dg, DIAG_TEMPLATE_PARTIAL, node_pos(t, n), "partial '%s' not found", name);
    return e->t;
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

static void render_partial(struct render *r, const struct mus_template *t, const struct node *n)
{
    const char *name = partial_name(r, t, n);
    const struct mus_template *p = name ? partial_get(r, t, n, name) : NULL;
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
    const char *name = partial_name(r, t, n);
    const struct mus_template *p = name ? partial_get(r, t, n, name) : NULL;
    if (!p || !depth_enter(r, t, n, name, p))
        return;
    GROW(r->frames, r->nframes, r->frame_cap);
    r->frames[r->nframes++] = (struct frame){t, n};
    struct indent_state s = indent_save(r);
    indent_enter(r, n);
    render_range(r, p, 0, p->n);
    indent_restore(r, &s);
    r->nframes--;
    depth_leave(r);
}

static bool override_active(struct render *r, const struct node *o)
{
    r->work += r->nactive + 1;
    for (size_t i = 0; i < r->nactive; i++)
        if (r->active[i] == o)
            return true;
    return false;
}

/* The outermost override of block 'name' in force, or NULL. */
static const struct node *find_override(struct render *r, const char *name,
                                        const struct mus_template **ot)
{
    for (size_t f = 0; f < r->nframes; f++) {
        const struct mus_template *t = r->frames[f].t;
        const struct node *p = r->frames[f].parent;
        size_t lo = 0, hi = p->nblocks;
        while (lo < hi) { /* the first ref whose name is not below 'name' */
            size_t mid = lo + (hi - lo) / 2;
            if (strcmp(p->blocks[mid].name, name) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < p->nblocks && strcmp(p->blocks[lo].name, name) == 0; lo++) {
            const struct node *c = &t->nodes[p->blocks[lo].node];
            if (!override_active(r, c)) {
                *ot = t;
                return c;
            }
        }
    }
    return NULL;
}

static void render_block(struct render *r, const struct mus_template *t, size_t i)
{
    const struct node *b = &t->nodes[i];
    const struct mus_template *ot = NULL;
    const struct node *o = find_override(r, b->name, &ot);
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

static void render_range(struct render *r, const struct mus_template *t, size_t from, size_t to)
{
    for (size_t i = from; i < to && !r->abort;) {
        const struct node *n = &t->nodes[i];
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
        if (r->over)
            over_limit(r, t, n);
        i = n->end > i ? n->end : i + 1;
    }
}

int mus_render(struct diag *dg, const struct mus_template *t, const struct dt *data,
               const struct mus_options *opt, struct buf *out)
{
    static const struct mus_options defaults = {0};
    struct render r = {.dg = dg, .opt = opt ? opt : &defaults, .out = out, .out_start = out->len};
    buf_init(&r.indent);
    r.max_depth = r.opt->max_depth ? r.opt->max_depth : MUS_DEFAULT_MAX_DEPTH;
    r.max_output = r.opt->max_output ? r.opt->max_output : MUS_DEFAULT_MAX_OUTPUT;
    r.max_work = r.work_end = r.opt->max_work ? r.opt->max_work : MUS_DEFAULT_MAX_WORK;
    r.out_end = r.max_output > SIZE_MAX - out->len ? SIZE_MAX : out->len + r.max_output;
    GROW(r.chain, r.depth, r.chain_cap);
    r.chain[r.depth++] = t;
    push(&r, data);
    render_range(&r, t, 0, t->n);
    for (size_t i = 0; i < r.cache.n; i++) {
        struct cache_entry *e = r.cache.entries[i].val;
        free(e->name);
        mus_free(e->t);
        free(e);
    }
    regc_map_release(&r.cache);
    free(r.ctx);
    free(r.frames);
    free(r.active);
    free(r.chain);
    free(r.reported);
    for (size_t i = 0; i < r.nmemos; i++)
        free(r.memos[i].memo);
    free(r.memos);
    buf_release(&r.indent);
    return r.failed ? -1 : 0;
}
