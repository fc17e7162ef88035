/*
 * mustache_escape.c - how values are written: escaping for each kind
 * (mus_escape), numbers (mus_format_real), the kinds' names (mus_escape_parse).
 */
#include "mustache.h"

#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The table's entries of the 4 bytes at u, joined: one test for all of them. */
static inline unsigned special4(const unsigned char *u)
{
    return special[u[0]] | special[u[1]] | special[u[2]] | special[u[3]];
}

/*
 * The end of the run of bytes from 'i' on that 'bit''s escaping copies as
 * they are. Eight bytes, then four, are tested at once: most values (names,
 * numbers) hold no marked byte, and a test per byte cost more than the
 * table's reads.
 */
static inline size_t plain_run(const char *s, size_t len, size_t i, unsigned bit)
{
    const unsigned char *u = (const unsigned char *)s;
    while (len - i >= 8 && !((special4(u + i) | special4(u + i + 4)) & bit))
        i += 8;
    if (len - i >= 4 && !(special4(u + i) & bit))
        i += 4;
    while (i < len && !(special[u[i]] & bit))
        i++;
    return i;
}

static void html_entity(struct buf *out, unsigned char ch)
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

static void html_byte(struct buf *out, const char *s, size_t len, size_t i)
{
    (void)len;
    html_entity(out, (unsigned char)s[i]);
}

static bool at_line_end(const char *s, size_t len, size_t i)
{
    return i >= len || s[i] == '\n' || (s[i] == '\r' && i + 1 < len && s[i + 1] == '\n');
}

/* One byte the table marks for C at s[i]: what goes out in its place. */
static void c_byte(struct buf *out, const char *s, size_t len, size_t i)
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

static void markdown_byte(struct buf *out, const char *s, size_t len, size_t i)
{
    switch (s[i]) {
    case '_':
        if (underscore_is_markup(s, len, i))
            buf_addc(out, '\\');
        buf_addc(out, '_');
        break;
    case '<':
    case '>':
    case '&':
        html_entity(out, (unsigned char)s[i]);
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

/* In a JSON string: '"' and '\\' with a backslash, control characters as \\u00XX (RFC 8259 7). */
static void json_byte(struct buf *out, const char *s, size_t len, size_t i)
{
    unsigned char ch = (unsigned char)s[i];
    char tmp[8];
    (void)len;
    if (ch == '"' || ch == '\\')
        snprintf(tmp, sizeof(tmp), "\\%c", ch);
    else
        snprintf(tmp, sizeof(tmp), "\\u%04x", ch);
    buf_adds(out, tmp);
}

/*
 * 's' whose first byte the table marks for 'kind' is s[i]: the plain bytes
 * before it, then each marked byte through the kind's function and each
 * plain run after it at once. Out of line: most values have no marked byte,
 * and mus_escape() without this loop keeps nothing across a call.
 */
static __attribute__((noinline)) void escape_from(struct buf *out, enum mus_escape kind,
                                                  const char *s, size_t len, size_t i)
{
    static void (*const one_byte[])(struct buf *, const char *, size_t, size_t) = {
        [MUS_ESCAPE_HTML] = html_byte,
        [MUS_ESCAPE_C] = c_byte,
        [MUS_ESCAPE_MARKDOWN] = markdown_byte,
        [MUS_ESCAPE_JSON] = json_byte};
    unsigned bit = 1u << kind;
    buf_addn(out, s, i);
    while (i < len) {
        one_byte[kind](out, s, len, i++);
        size_t run = plain_run(s, len, i, bit);
        buf_addn(out, s + i, run - i);
        i = run;
    }
}

void mus_escape(struct buf *out, enum mus_escape kind, const char *s, size_t len)
{
    size_t first = kind == MUS_ESCAPE_NONE ? len : plain_run(s, len, 0, 1u << kind);
    if (first < len)
        escape_from(out, kind, s, len, first);
    else
        buf_addn(out, s, len);
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
