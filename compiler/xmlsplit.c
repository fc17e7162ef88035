/*
 * xmlsplit - the cut points of a large spec. See xmlsplit.h.
 *
 * One pass over the bytes: memchr() to the next '<', then whatever that
 * markup is (comment, CDATA, PI, end tag, start tag) is skipped whole, so a
 * '<block' inside a comment, a CDATA section, a PI or an attribute value is
 * never taken for a tag. The depth counts open elements; a start tag of
 * 'block' at depth 1 (a child of the root) is a place to cut.
 */
#include "xmlsplit.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct scan {
    const char *t;
    size_t len, i; /* the text, and where the scanner is */
};

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool at(const struct scan *s, const char *lit)
{
    size_t n = strlen(lit);
    return s->len - s->i >= n && memcmp(s->t + s->i, lit, n) == 0;
}

/* Moves past the next 'lit'; false (at the end) when there is none. */
static bool skip_past(struct scan *s, const char *lit)
{
    while (s->i < s->len) {
        const char *p = memchr(s->t + s->i, lit[0], s->len - s->i);
        if (!p)
            break;
        s->i = (size_t)(p - s->t);
        if (at(s, lit)) {
            s->i += strlen(lit);
            return true;
        }
        s->i++;
    }
    s->i = s->len;
    return false;
}

static void skip_blanks(struct scan *s)
{
    while (s->i < s->len && is_blank(s->t[s->i]))
        s->i++;
}

/* End of the name at 'i': names stop at a blank, '/', '>' or '='. */
static size_t name_end(const struct scan *s, size_t i)
{
    while (i < s->len && !is_blank(s->t[i]) && s->t[i] != '/' && s->t[i] != '>' && s->t[i] != '=')
        i++;
    return i;
}

/* A start tag: where its name is, and whether it is empty ('/>'). */
struct tag {
    size_t name, name_len;
    bool empty;
};

/* The bytes that end a run of plain text inside a tag; '\0' also ends the text. */
static const bool tag_stop[256] = {['\0'] = true, ['"'] = true, ['\''] = true, ['>'] = true};

/*
 * From a start tag's '<' to past its '>', over quoted values (which may
 * hold '>'). The inner loop looks at each byte once, in a table: this pass
 * runs on one thread before the others start.
 */
static bool scan_start_tag(struct scan *s, struct tag *tg)
{
    const unsigned char *t = (const unsigned char *)s->t;
    tg->name = s->i + 1;
    size_t i = name_end(s, tg->name);
    tg->name_len = i - tg->name;
    for (;; i++) {
        while (!tag_stop[t[i]])
            i++;
        if (i >= s->len)
            return false;
        if (t[i] == '>') {
            tg->empty = t[i - 1] == '/';
            s->i = i + 1;
            return true;
        }
        if (t[i] != '\0') {
            const char *q = memchr(s->t + i + 1, t[i], s->len - i - 1);
            if (!q)
                return false;
            i = (size_t)(q - s->t);
        }
    }
}

/* The tag's name is 'name' (local: after any prefix). */
static bool tag_is(const struct scan *s, const struct tag *tg, const char *name, bool local)
{
    const char *n = s->t + tg->name;
    size_t len = tg->name_len;
    const char *colon = local ? memchr(n, ':', len) : NULL;
    if (colon) {
        len -= (size_t)(colon + 1 - n);
        n = colon + 1;
    }
    return len == strlen(name) && memcmp(n, name, len) == 0;
}

/* The pseudo-attributes of <?xml ...?> ('d', 'n' bytes): true unless the encoding is not UTF-8. */
static bool decl_is_utf8(const char *d, size_t n)
{
    struct scan s = {d, n, 0};
    for (;;) {
        skip_blanks(&s);
        if (s.i == s.len)
            return true;
        size_t name = s.i;
        s.i = name_end(&s, s.i);
        size_t name_len = s.i - name;
        skip_blanks(&s);
        if (!at(&s, "="))
            return false;
        s.i++;
        skip_blanks(&s);
        if (s.i == s.len || (d[s.i] != '"' && d[s.i] != '\''))
            return false;
        const char *q = memchr(d + s.i + 1, d[s.i], s.len - s.i - 1);
        if (!q)
            return false;
        const char *value = d + s.i + 1;
        size_t value_len = (size_t)(q - value);
        if (name_len == 8 && memcmp(d + name, "encoding", 8) == 0)
            return value_len == 5 && strncasecmp(value, "UTF-8", 5) == 0;
        s.i = (size_t)(q - d) + 1;
    }
}

/*
 * BOM, XML declaration, comments and PIs up to the root's '<'. False on a
 * DOCTYPE, an encoding other than UTF-8, or anything unexpected.
 */
static bool scan_prolog(struct scan *s)
{
    if (at(s, "\xEF\xBB\xBF"))
        s->i += 3;
    if (at(s, "<?xml") && s->i + 5 < s->len && is_blank(s->t[s->i + 5])) {
        size_t start = s->i + 5;
        if (!skip_past(s, "?>") || !decl_is_utf8(s->t + start, s->i - 2 - start))
            return false;
    }
    for (;;) {
        skip_blanks(s);
        if (at(s, "<!--")) {
            if (!skip_past(s, "-->"))
                return false;
        } else if (at(s, "<?")) {
            if (!skip_past(s, "?>"))
                return false;
        } else {
            return at(s, "<") && !at(s, "<!");
        }
    }
}

/* The places a cut may go: offsets of top-level '<block', in file order. */
struct candidates {
    size_t *at; /* xrealloc'd */
    size_t n, cap;
};

static void candidates_add(struct candidates *c, size_t off)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->at = xrealloc(c->at, c->cap * sizeof(*c->at));
    }
    c->at[c->n++] = off;
}

static size_t distance(size_t a, size_t b)
{
    return a > b ? a - b : b - a;
}

/* Cut k goes to the candidate nearest to k/pieces of the content, after cut k-1. */
static void choose_cuts(struct xmlsplit *sp, const struct candidates *c, unsigned pieces,
                        size_t len)
{
    uint64_t content = len - sp->root_end;
    size_t j = 0;
    while (j < c->n && c->at[j] <= sp->root_end)
        j++; /* a cut there would leave the first piece empty */
    for (sp->n = 1; sp->n < pieces && j < c->n; sp->n++, j++) {
        size_t target = sp->root_end + (size_t)(content * sp->n / pieces);
        while (j + 1 < c->n && distance(c->at[j + 1], target) <= distance(c->at[j], target))
            j++;
        sp->cut[sp->n] = c->at[j];
    }
    sp->cut[sp->n] = len;
}

/* The markup at s->i ('<'): skipped whole; the depth follows start and end tags. */
static bool scan_markup(struct scan *s, struct candidates *c, size_t *depth)
{
    if (at(s, "<!--"))
        return skip_past(s, "-->");
    if (at(s, "<![CDATA["))
        return skip_past(s, "]]>");
    if (at(s, "<?"))
        return skip_past(s, "?>");
    if (at(s, "<!"))
        return false; /* a DOCTYPE or other declaration inside the root: not well-formed */
    if (at(s, "</")) {
        (*depth)--;
        return skip_past(s, ">");
    }
    size_t start = s->i;
    struct tag tg;
    if (!scan_start_tag(s, &tg) || tag_is(s, &tg, "include", true))
        return false;
    if (*depth == 1 && tag_is(s, &tg, "block", false))
        candidates_add(c, start);
    if (!tg.empty)
        (*depth)++;
    return true;
}

bool xmlsplit_find(const char *text, size_t len, unsigned pieces, struct xmlsplit *out)
{
    struct scan s = {text, len, 0};
    struct tag root;
    if (pieces > REGC_MAX_JOBS)
        pieces = REGC_MAX_JOBS;
    if (pieces < 2 || !scan_prolog(&s) || !scan_start_tag(&s, &root) ||
        !tag_is(&s, &root, "regspec", false) || root.empty)
        return false;
    out->root_end = s.i;
    out->cut[0] = s.i;
    struct candidates c = {NULL, 0, 0};
    bool ok = true;
    for (size_t depth = 1; ok && depth > 0;) {
        const char *p = memchr(text + s.i, '<', len - s.i);
        if (p) {
            s.i = (size_t)(p - text);
            ok = scan_markup(&s, &c, &depth);
        } else {
            ok = false; /* the root is not closed: the serial load reports it */
        }
    }
    if (ok)
        choose_cuts(out, &c, pieces, len);
    free(c.at);
    return ok && out->n >= 2;
}
