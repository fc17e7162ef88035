/*
 * xmlload - libxml2 to model, streaming. See xmlload.h for the contract.
 *
 * A file is read with libxml2's SAX2 parser (read_events()): no node is
 * built, each start tag comes as a name and (name, value) pairs, which the
 * handlers read as a struct xl_elem (xmlload_int.h). Each element is
 * validated as it comes, against the table xmlschema.c reads out of the
 * compiled-in schema (regspec.rng: which elements go where and how often,
 * their attributes and listed values, text); libxml2's own RELAX NG
 * validator is not used, as it cost as much as the rest of the load
 * (docs/performance.md). The model is built from those events as they come
 * (an element's attributes at its start tag, the text of <desc> and <rule>
 * at their end, every blank kept: see text_of()). No
 * document of the spec is ever built, and nothing of the file's text is
 * kept but the start tag being loaded: memory follows the model.
 *
 * Bytes reach libxml2 through read_input(), which runs them first through
 * a small scanner (struct scan). It knows just enough XML to follow start
 * tags, end tags, comments, CDATA sections and PIs; it keeps the raw text
 * of each start tag until the parser hands its element over, which gives
 * the element the line and column of its '<' and lets attribute values be
 * found in the raw text, so errors inside values get a real column. The
 * scanner also enforces the safety rules before libxml2 sees a byte: a
 * DOCTYPE (hence any entity declaration, internal or external) and nesting
 * deeper than XMLLOAD_MAX_DEPTH stop the input where they begin.
 *
 * Diagnostics keep the old contract: after a well-formedness, safety or
 * schema error in a file, nothing else of that file is reported or enters
 * the model. As the errors of a file are known only at its end, what the
 * model's construction reports is held (struct diag_held, diag.h) and kept
 * or dropped when the file ends.
 *
 * This file is the driver; the element handlers are xmlelem.c, what they
 * read an element's attributes and report with is xmlattr.c, the values'
 * parsers xmlvalue.c, the schema's table xmlschema.c (xmlload_int.h).
 */
#define _XOPEN_SOURCE 700 /* getline() */
#include "xmlload.h"
#include "xmlload_int.h"

#include "buf.h"
#include "incpath.h"
#include "util.h"
#include "xmlschema.h"
#include "xmlvalue.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    XMLLOAD_MAX_DEPTH = 64,
    PEEK_SIZE = 65536, /* read before libxml2 starts: the text a SystemRDL file is told by */
};

/* A well-formedness, safety or read error of the file being read. */
__attribute__((format(printf, 4, 5))) static void report_fatal(struct rfile *rf,
                                                               enum diag_code code,
                                                               struct srcpos pos,
                                                               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_held_vadd(&rf->fatal, code, false, pos, fmt, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------- the scanner */

static void scan_release(struct scan *sc)
{
    free(sc->buf);
    free(sc->q);
}

static void scan_keepn(struct scan *sc, const char *s, size_t n)
{
    if (sc->len + n > sc->cap) /* no call for each tag */
        sc->buf = xgrow(sc->buf, &sc->cap, sc->len + n, 1);
    memcpy(sc->buf + sc->len, s, n);
    sc->len += n;
}

/* A newline at offset i of the chunk that starts at sc->off. */
static void scan_newline(struct scan *sc, size_t i)
{
    sc->line++;
    sc->line_start = sc->off + i + 1;
}

/*
 * The bytes each fast state of the scanner stops at (a bit per state): in
 * text a '<'; in a start tag a quote or its '>'; in a quoted value its
 * quote; in an end tag its '>'; everywhere a newline, to count lines.
 */
enum { STOP_TEXT = 1, STOP_STAG = 2, STOP_DQUOTE = 4, STOP_SQUOTE = 8, STOP_ETAG = 16 };

static const unsigned char scan_stops[256] = {
    ['\n'] = STOP_TEXT | STOP_STAG | STOP_DQUOTE | STOP_SQUOTE | STOP_ETAG,
    ['<'] = STOP_TEXT,
    ['>'] = STOP_STAG | STOP_ETAG,
    ['"'] = STOP_STAG | STOP_DQUOTE,
    ['\''] = STOP_STAG | STOP_SQUOTE,
};

/*
 * The first byte of s[i, n) that state 'bit' stops at; n when none. Four
 * bytes are tested at once: one memchr() a piece of a start tag and another
 * for its newlines cost more than the bytes themselves (short values).
 */
static inline size_t scan_to_stop(const char *s, size_t i, size_t n, unsigned bit)
{
    const unsigned char *u = (const unsigned char *)s;
    while (n - i >= 4) {
        unsigned four = scan_stops[u[i]] | scan_stops[u[i + 1]] | scan_stops[u[i + 2]] |
                        scan_stops[u[i + 3]];
        if (four & bit)
            break;
        i += 4;
    }
    while (i < n && !(scan_stops[u[i]] & bit))
        i++;
    return i;
}

/* scan_to_stop() past the newlines it stops at, counted: the first other stop, or n. */
static inline size_t scan_past_lines(struct scan *sc, const char *s, size_t i, size_t n, unsigned bit)
{
    while ((i = scan_to_stop(s, i, n, bit)) < n && s[i] == '\n')
        scan_newline(sc, i++);
    return i;
}

static void scan_push(struct scan *sc)
{
    if (sc->qlen == sc->qcap)
        sc->q = xgrow(sc->q, &sc->qcap, sc->qlen + 1, sizeof(*sc->q));
    sc->cur.len = sc->len - sc->cur.start;
    sc->q[sc->qlen++] = sc->cur;
}

/* Stops the input at the '<' just read (if it is in this chunk); returns the bytes to keep. */
static size_t scan_refuse(struct rfile *rf, size_t i, struct srcpos at, enum diag_code code,
                          const char *msg)
{
    report_fatal(rf, code, at, "%s", msg);
    rf->stopped = true;
    uint64_t lt = (uint64_t)rf->sc.line_start + at.col - 1; /* the '<' is on the current line */
    if (at.line != rf->sc.line || lt < rf->sc.off)
        return i;
    return (size_t)(lt - rf->sc.off);
}

/*
 * Follows s[0, n) (the next bytes of the file); returns how many of them
 * libxml2 may have: all, or those before a construct refused here.
 */
static size_t scan(struct rfile *rf, const char *s, size_t n)
{
    struct scan *sc = &rf->sc;
    if (sc->lost) {
        sc->off += n;
        return n;
    }
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (sc->state == S_TEXT) { /* most bytes: skip to the next '<' */
            i = scan_past_lines(sc, s, i, n, STOP_TEXT);
            if (i == n)
                break;
            sc->lt_line = sc->line;
            sc->lt_col = (uint32_t)(sc->off + i - sc->line_start + 1);
            sc->state = S_LT;
            sc->prev = '<';
            continue;
        }
        if (sc->state == S_STAG || sc->state == S_QUOTE) { /* a start tag: to its '>' */
            size_t from = i; /* this chunk's part of the tag, kept in one piece */
            for (;;) {
                unsigned bit = sc->state == S_STAG ? STOP_STAG
                               : sc->quote == '"'  ? STOP_DQUOTE
                                                   : STOP_SQUOTE;
                i = scan_past_lines(sc, s, i, n, bit);
                if (i == n)
                    break;
                c = s[i];
                if (sc->state == S_QUOTE) {
                    sc->state = S_STAG;
                } else if (c == '>') {
                    break;
                } else {
                    sc->quote = c;
                    sc->state = S_QUOTE;
                }
                i++;
            }
            if (i == n) {
                scan_keepn(sc, s + from, n - from);
                sc->prev = s[n - 1];
                break;
            }
            scan_keepn(sc, s + from, i + 1 - from);
            scan_push(sc);
            sc->depth += sc->buf[sc->len - 2] != '/';
            sc->root_seen = true;
            sc->state = S_TEXT;
            sc->prev = '>';
            continue;
        }
        if (sc->state == S_ETAG) { /* an end tag: to its '>' */
            i = scan_past_lines(sc, s, i, n, STOP_ETAG);
            if (i == n)
                break;
            sc->depth -= sc->depth > 0;
            sc->state = S_TEXT;
            sc->prev = '>';
            continue;
        }
        if (c == '\n') {
            sc->line++;
            sc->line_start = sc->off + i + 1;
        }
        switch (sc->state) {
        case S_TEXT:
            break;
        case S_LT:
            if (c == '/') {
                sc->state = S_ETAG;
            } else if (c == '?') {
                sc->state = S_PI;
            } else if (c == '!') {
                sc->state = S_BANG;
                sc->nlook = 0;
            } else {
                struct srcpos at = {rf->f->index, sc->lt_line, sc->lt_col};
                if (sc->depth >= XMLLOAD_MAX_DEPTH) {
                    char msg[64];
                    snprintf(msg, sizeof(msg), "elements nest deeper than %d levels",
                             XMLLOAD_MAX_DEPTH);
                    return scan_refuse(rf, i, at, DIAG_XML_LIMIT, msg);
                }
                sc->cur = (struct tagrec){sc->lt_line, sc->lt_col, sc->len, 0};
                char lt_c[2] = {'<', c}; /* the '<' may have been in the last chunk */
                scan_keepn(sc, lt_c, 2);
                sc->state = c == '>' ? S_TEXT : S_STAG;
                if (c == '>')
                    scan_push(sc); /* "<>": libxml2 reports it */
            }
            break;
        case S_STAG: /* handled above */
        case S_QUOTE:
        case S_ETAG:
            break;
        case S_PI:
            if (c == '>' && sc->prev == '?')
                sc->state = S_TEXT;
            break;
        case S_BANG: {
            sc->look[sc->nlook++] = c;
            bool comment = memcmp(sc->look, "--", sc->nlook < 2 ? sc->nlook : 2) == 0;
            bool cdata = sc->nlook <= 7 && memcmp(sc->look, "[CDATA[", sc->nlook) == 0;
            if (comment && sc->nlook == 2) {
                sc->state = S_COMMENT;
                sc->run = 0;
            } else if (cdata && sc->nlook == 7) {
                sc->state = S_CDATA;
                sc->run = 0;
            } else if (!comment && !cdata) {
                if (sc->depth == 0 && !sc->root_seen) /* <!DOCTYPE ...> */
                    return scan_refuse(rf, i, (struct srcpos){rf->f->index, sc->lt_line, sc->lt_col},
                                       DIAG_XML_UNSAFE,
                                       "DOCTYPE declaration refused: regspec files may not have "
                                       "a DTD or declare entities");
                sc->state = c == '>' ? S_TEXT : S_DECL; /* libxml2 reports it */
            }
            break;
        }
        case S_COMMENT:
        case S_CDATA:
            if (c == (sc->state == S_COMMENT ? '-' : ']'))
                sc->run++;
            else if (c == '>' && sc->run >= 2)
                sc->state = S_TEXT;
            else
                sc->run = 0;
            break;
        case S_DECL:
            if (c == '>')
                sc->state = S_TEXT;
            break;
        }
        sc->prev = c;
    }
    sc->off += n;
    return n;
}

/*
 * The input is not in an encoding the scanner can follow (UTF-16, UCS-4,
 * EBCDIC): refused, since the scanner could not refuse a DOCTYPE in it.
 */
static bool wide_encoding(const unsigned char *s, size_t n)
{
    if (n < 2)
        return false;
    if ((s[0] == 0xFE && s[1] == 0xFF) || (s[0] == 0xFF && s[1] == 0xFE) || s[0] == 0 || s[1] == 0)
        return true;
    return n >= 4 && s[0] == 0x4C && s[1] == 0x6F && s[2] == 0xA7 && s[3] == 0x94;
}

/* libxml2's read callback: the peeked bytes, then the file, each scanned first. */
static int read_input(void *ctx, char *buf, int len)
{
    struct rfile *rf = ctx;
    if (rf->stopped || len <= 0)
        return 0;
    size_t n;
    if (rf->peek_pos < rf->npeek) {
        n = rf->npeek - rf->peek_pos < (size_t)len ? rf->npeek - rf->peek_pos : (size_t)len;
        memcpy(buf, rf->peek + rf->peek_pos, n);
        rf->peek_pos += n;
    } else {
        ssize_t k;
        while ((k = read(rf->fd, buf, (size_t)len)) < 0 && errno == EINTR)
            ;
        if (k < 0) {
            rf->read_err = errno;
            rf->stopped = true;
            return -1;
        }
        n = (size_t)k;
    }
    return (int)scan(rf, buf, n);
}

/*
 * The start tag of 'n', which the parser just handed over: its record
 * leaves the queue (its text stays until the next one leaves). False when
 * the scanner cannot tell (then it gives up for the rest of the file).
 */
static bool tag_take(struct rfile *rf, const struct xl_elem *n)
{
    struct scan *sc = &rf->sc;
    rf->tag.len = 0;
    if (sc->lost)
        return false;
    if (sc->qhead == sc->qlen) {
        sc->lost = true;
        return false;
    }
    struct tagrec t = sc->q[sc->qhead++];
    /* its name must be the element's: "<prefix:name" then a space, '/' or '>' */
    const char *p = sc->buf + t.start + 1, *end = sc->buf + t.start + t.len;
    size_t np = n->prefix && n->uri ? strlen(n->prefix) : 0;
    size_t nn = strlen((const char *)n->name);
    bool same = (size_t)(end - p) > np + (np > 0) + nn &&
                (!np || (memcmp(p, n->prefix, np) == 0 && p[np] == ':')) &&
                memcmp(p + np + (np > 0), n->name, nn) == 0;
    char after = same ? p[np + (np > 0) + nn] : 'x';
    if (!same || !(util_is_space(after) || after == '/' || after == '>')) {
        sc->lost = true;
        return false;
    }
    /* the text before this tag is no longer needed */
    sc->head = t.start;
    if (sc->head > 65536 && sc->head > sc->len / 2) {
        memmove(sc->buf, sc->buf + sc->head, sc->len - sc->head);
        for (size_t i = sc->qhead; i < sc->qlen; i++)
            sc->q[i].start -= sc->head;
        t.start -= sc->head;
        if (sc->state == S_STAG || sc->state == S_QUOTE) /* a tag read in part */
            sc->cur.start -= sc->head;
        sc->len -= sc->head;
        sc->head = 0;
    }
    if (sc->qhead == sc->qlen) {
        sc->qhead = sc->qlen = 0;
    } else if (sc->qhead > 1024 && sc->qhead > sc->qlen / 2) {
        memmove(sc->q, sc->q + sc->qhead, (sc->qlen - sc->qhead) * sizeof(*sc->q));
        sc->qlen -= sc->qhead;
        sc->qhead = 0;
    }
    rf->tag = t;
    return true;
}

/* ---------------------------------------------------------------- libxml2 errors */

/* Copies libxml2's message without its trailing newline (first line only). */
static void trim_message(char *out, size_t size, const char *msg)
{
    size_t n = msg ? strcspn(msg, "\n") : 0;
    while (n > 0 && util_is_space(msg[n - 1]))
        n--;
    if (n >= size)
        n = size - 1;
    memcpy(out, msg ? msg : "", n);
    out[n] = '\0';
}

/* Line 'line' of 'path', read again from the start (error paths only); NULL when unreadable. */
static char *read_line(const char *path, uint32_t line, size_t *len)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    FILE *fp = fd < 0 ? NULL : fdopen(fd, "rb");
    if (!fp) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    char *s = NULL;
    size_t cap = 0;
    ssize_t n = -1;
    for (uint32_t i = 0; i < line && (n = getline(&s, &cap, fp)) >= 0; i++)
        ;
    fclose(fp);
    if (n < 0) {
        free(s);
        return NULL;
    }
    *len = (size_t)n;
    return s;
}

/*
 * libxml2 gives some errors the column after the construct at fault. Moves
 * 'p' back on its line to the last place before it where 'at' holds (the
 * construct's start); 'p' unchanged when there is none.
 */
static struct srcpos back_to(const char *path, struct srcpos p,
                             bool (*at)(const char *t, size_t len, size_t i, const char *arg),
                             const char *arg)
{
    size_t len;
    char *t = p.line && p.col ? read_line(path, p.line, &len) : NULL;
    if (!t)
        return p;
    for (size_t i = p.col - 1 > len ? len : p.col - 1; i > 0; i--) {
        if (at(t, len, i - 1, arg)) {
            p.col = (uint32_t)i;
            break;
        }
    }
    free(t);
    return p;
}

/* An entity reference's '&'. */
static bool at_ampersand(const char *t, size_t len, size_t i, const char *arg)
{
    return t[i] == '&';
}

/* A mismatched end tag's "</". */
static bool at_end_tag(const char *t, size_t len, size_t i, const char *arg)
{
    return t[i] == '<' && i + 1 < len && t[i + 1] == '/';
}

/* "NAME =" after a space: an attribute given twice (the last one is the repeat). */
static bool at_attribute(const char *t, size_t len, size_t i, const char *name)
{
    size_t n = strlen(name), j = i + n;
    if (j > len || memcmp(t + i, name, n) != 0 || (i > 0 && !util_is_space(t[i - 1])))
        return false;
    while (j < len && util_is_space(t[j]))
        j++;
    return j < len && t[j] == '=';
}

static void report_parser_error(struct rfile *rf, const xmlError *e)
{
    char msg[256];
    trim_message(msg, sizeof(msg), e->message);
    const char *path = rf->f->path;
    struct srcpos p = {rf->f->index, e->line > 0 ? (uint32_t)e->line : 0,
                       e->int2 > 0 ? (uint32_t)e->int2 : 0};
    if (e->code == XML_ERR_UNDECLARED_ENTITY || e->code == XML_WAR_UNDECLARED_ENTITY) {
        report_fatal(rf, DIAG_XML_UNSAFE, back_to(path, p, at_ampersand, NULL),
                     "entity reference '&%s;' refused: only the predefined entities and "
                     "character references are allowed",
                     e->str1 ? e->str1 : "?");
        return;
    }
    char a[128], b[128];
    int line = 0, n_ = -1;
    if (sscanf(msg, "Opening and ending tag mismatch: %127s line %d and %127s%n", a, &line, b, &n_) == 3 &&
        n_ >= 0 && !msg[n_])
        report_fatal(rf, DIAG_XML_SYNTAX, back_to(path, p, at_end_tag, NULL),
                     "closing tag '%s' does not match '<%s>' opened at line %d", b, a, line);
    else if (sscanf(msg, "Premature end of data in tag %127s line %d%n", a, &line, &n_) == 2 &&
             n_ >= 0 && !msg[n_])
        report_fatal(rf, DIAG_XML_SYNTAX, p, "the file ends inside '<%s>' opened at line %d", a,
                     line);
    else if (sscanf(msg, "Attribute %127s redefined%n", a, &n_) == 1 && n_ >= 0 && !msg[n_])
        report_fatal(rf, DIAG_XML_SYNTAX, back_to(path, p, at_attribute, a),
                     "attribute '%s' is given twice", a);
    else {
        if (msg[0] >= 'A' && msg[0] <= 'Z' && !(msg[1] >= 'A' && msg[1] <= 'Z'))
            msg[0] = (char)(msg[0] - 'A' + 'a');
        report_fatal(rf, DIAG_XML_SYNTAX, p, "%s", msg);
    }
}

/* A schema error at 'pos' (with a note at 'note' when its line is not 0). */
static void schema_err_add(struct rfile *rf, struct srcpos pos, const char *msg, struct srcpos note,
                           const char *note_msg)
{
    if (rf->nschema == rf->schema_cap)
        rf->schema = xgrow(rf->schema, &rf->schema_cap, rf->nschema + 1, sizeof(*rf->schema));
    rf->schema[rf->nschema++] =
        (struct schema_err){pos, xstrdup(msg), note, note.line ? xstrdup(note_msg) : NULL};
}

/* The parser's errors for the file being read. */
static void on_parser_error(void *arg, xmlErrorPtr e)
{
    struct rfile *rf = arg;
    if (rf && e->level != XML_ERR_WARNING && !rf->stopped) /* after a refusal, libxml2 only
                                                              finds the input cut short */
        report_parser_error(rf, e);
}

/* Errors that come through no file's parser (setting one up, reading the schema). */
static void on_error(void *data, xmlErrorPtr e)
{
    struct loader *ld = data;
    if (ld->rf)
        on_parser_error(ld->rf, e);
    else if (e->level != XML_ERR_WARNING)
        diag_report(ld->dg, DIAG_SCHEMA, (struct srcpos){0, 0, 0}, "built-in schema: %s",
                    e->message ? e->message : "?");
}

static void on_generic_error(void *data, const char *fmt, ...)
{
    /* Everything goes through on_error; libxml2 must print nothing itself. */
}

static int schema_err_cmp(const void *x, const void *y)
{
    const struct schema_err *a = x, *b = y;
    if (a->pos.line != b->pos.line)
        return a->pos.line < b->pos.line ? -1 : 1;
    return a < b ? -1 : a > b; /* stable: the order they were found in */
}

/* ---------------------------------------------------------------- schema */

/* "'a', 'b' or 'c'" */
static void list_values(char *out, size_t size, const char *const *values)
{
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; values[i] && n < size; i++) {
        const char *sep = i == 0 ? "" : values[i + 1] ? ", " : " or ";
        int k = snprintf(out + n, size - n, "%s'%s'", sep, values[i]);
        n += k > 0 ? (size_t)k : 0;
    }
}

__attribute__((format(printf, 3, 4))) static void schema_err(struct rfile *rf, struct srcpos pos,
                                                              const char *fmt, ...)
{
    struct buf msg;
    buf_init(&msg);
    va_list ap;
    va_start(ap, fmt);
    buf_vaddf(&msg, fmt, ap);
    va_end(ap);
    schema_err_add(rf, pos, msg.s, (struct srcpos){0, 0, 0}, NULL);
    buf_release(&msg);
}

/*
 * Attributes the schema does not give element 'n', reported where they are
 * written, each with the closest one it does give and 'n' lacks ("did you
 * mean"); that one, when missing, is not reported missing too: its bit is
 * set in the result. 'given': the bits of the known attributes 'n' has.
 */
static uint64_t check_unknown_attributes(struct loader *ld, const struct xl_elem *n, const struct schema_elem *e,
                                         uint64_t given)
{
    uint64_t suggested = 0;
    for (size_t k = 0; k < n->nattrs; k++) {
        const struct xl_attr *a = &n->attrs[k];
        const char *name = a->name;
        if (!a->uri && schema_attr_find(e, name))
            continue;
        struct util_suggest sg;
        util_suggest_init(&sg, name);
        for (size_t i = 0; i < e->nattrs; i++)
            if (!(given >> i & 1))
                util_suggest_add(&sg, e->attrs[i].name);
        const char *best = util_suggest_best(&sg);
        if (best)
            suggested |= UINT64_C(1) << (schema_attr_find(e, best) - e->attrs);
        char hint[160], qname[260];
        const char *prefix = a->uri && a->prefix ? a->prefix : "";
        snprintf(qname, sizeof(qname), "%s%s%.120s", prefix, *prefix ? ":" : "", name);
        schema_err(ld->rf, a->uri ? xl_pos_of(ld, n) : xl_attr_pos(ld, n, name),
                   "element '%s': unknown attribute '%s'%s", (const char *)n->name, qname,
                   diag_hint(hint, sizeof(hint), best));
    }
    return suggested;
}

/* A value outside the schema's list for attribute 'at' of 'n'. */
static void check_value(struct loader *ld, const struct xl_elem *n, const struct schema_attr *at)
{
    const char *v = xl_peek(ld, n, at->name);
    for (size_t i = 0; at->values[i]; i++)
        if (schema_value_is(v, at->values[i]))
            return;
    char list[256];
    list_values(list, sizeof(list), at->values);
    schema_err(ld->rf, xl_value_pos(ld, n, at->name, 0),
               "element '%s': attribute '%s' is '%.60s', expected %s", (const char *)n->name,
               at->name, v, list);
}

/*
 * Attributes that go together (an <optional> group): given one, the others
 * of its group and of the groups holding it are missing.
 */
static void check_attribute_groups(struct loader *ld, const struct xl_elem *n, const struct schema_elem *e,
                                   uint64_t given)
{
    const char *with[SCHEMA_MAX_GROUPS] = {0}; /* an attribute that uses group g */
    for (size_t i = 0; i < e->nattrs; i++)
        for (unsigned g = e->attrs[i].group; g && !with[g] && given >> i & 1; g = e->group_parent[g])
            with[g] = e->attrs[i].name;
    for (size_t i = 0; i < e->nattrs; i++) {
        const struct schema_attr *at = &e->attrs[i];
        if (!at->group || !with[at->group] || given >> i & 1)
            continue;
        schema_err(ld->rf, xl_pos_of(ld, n), "element '%s': attribute '%s' needs attribute '%s'",
                   (const char *)n->name, with[at->group], at->name);
    }
}

/* The index in 'e' of attribute 'a' of the element being loaded; -1: none, or in a namespace. */
static int attr_index_of(struct rfile *rf, const struct schema_elem *e, const struct xl_attr *a)
{
    if (a->uri)
        return -1;
    if (a->prefix) { /* "p:name", made for this start tag: no address to remember */
        const struct schema_attr *at = schema_attr_find(e, a->name);
        return at ? (int)(at - e->attrs) : -1;
    }
    return xl_attr_index(rf, e, a->name); /* libxml2's name, kept for the parse */
}

/*
 * The attributes of element 'n' (the one being loaded), whose entry is 'e';
 * they are kept by their index in 'e' for the handlers (rf->el_values).
 */
static void check_attributes(struct loader *ld, const struct xl_elem *n, const struct schema_elem *e)
{
    struct rfile *rf = ld->rf;
    uint64_t given = 0;
    bool unknown = false;
    for (size_t k = 0; k < n->nattrs; k++) {
        const struct xl_attr *a = &n->attrs[k];
        int i = attr_index_of(rf, e, a);
        if (i >= 0 && !(given >> i & 1)) {
            given |= UINT64_C(1) << i;
            rf->el_values[i] = a->value;
        }
        unknown |= i < 0;
    }
    rf->el_schema = e;
    rf->el_given = given;
    uint64_t suggested = unknown ? check_unknown_attributes(ld, n, e, given) : 0;
    /* in the order of the schema: listed values given, then required attributes missing */
    uint64_t todo = (given & e->listed) | (e->required & ~given & ~suggested);
    for (unsigned i = 0; todo; i++, todo >>= 1) {
        if (!(todo & 1))
            continue;
        const struct schema_attr *at = &e->attrs[i];
        if (given >> i & 1)
            check_value(ld, n, at);
        else
            schema_err(ld->rf, xl_pos_of(ld, n), "element '%s': missing attribute '%s'",
                       (const char *)n->name, at->name);
    }
    uint64_t needed = 0;
    uint64_t grouped = given & e->grouped;
    for (unsigned i = 0; grouped; i++, grouped >>= 1)
        needed |= grouped & 1 ? e->needs[i] : 0;
    if (needed & ~given) /* an attribute of a group given without another: say which */
        check_attribute_groups(ld, n, e, given);
}

/* The closest element name of the schema to 'name', unless 'name' is one; NULL if none is close. */
static const char *suggest_element(struct loader *ld, const char *name)
{
    if (schema_elem_find(ld->sc, name))
        return NULL;
    struct util_suggest sg;
    util_suggest_init(&sg, name);
    for (size_t i = 0; i < ld->sc->nelems; i++)
        util_suggest_add(&sg, ld->sc->elems[i].name);
    return util_suggest_best(&sg);
}

/*
 * "element 'NAME' is not allowed here": an unknown name, with the closest
 * one the schema has; a known one in a parent ('pe') that never holds it,
 * with the parents that do (when few).
 */
static void not_allowed(struct loader *ld, const struct xl_elem *n, const struct schema_elem *pe)
{
    const char *name = (const char *)n->name;
    if (n->uri || !schema_elem_find(ld->sc, name)) {
        char hint[160];
        schema_err(ld->rf, xl_pos_of(ld, n), "element '%.120s' is not allowed here%s", name,
                   diag_hint(hint, sizeof(hint), n->uri ? NULL : suggest_element(ld, name)));
        return;
    }
    const char *parents[5] = {0}; /* up to 4 (more say little), NULL-terminated */
    size_t np = 0;
    for (size_t i = 0; i < ld->sc->nelems && np < ARRAY_SIZE(parents); i++)
        if (schema_child_find(&ld->sc->elems[i], name))
            parents[np++] = ld->sc->elems[i].name;
    char list[160] = "";
    if (np < ARRAY_SIZE(parents))
        list_values(list, sizeof(list), parents);
    schema_err(ld->rf, xl_pos_of(ld, n), "element '%.40s' is not allowed in '%.40s'%s%.150s", name,
               pe->name, list[0] ? ": it goes in " : "", list);
}

/*
 * Element 'n', at 'depth', against the schema: its place under its parent
 * (v[depth - 1]), how often it appears there, and its attributes; v[depth]
 * is set for its children. An element not allowed where it stands is
 * reported once and nothing inside it is judged (its entry is NULL): what
 * its children break follows from it. So is everything in a root element
 * the schema does not have (the wrong root is reported by itself).
 */
static void validate_element(struct loader *ld, const struct xl_elem *n, int depth, struct valid_state *v)
{
    const struct schema_elem *e = NULL;
    memset(&v[depth], 0, sizeof(v[depth]));
    if (depth == 0) {
        e = n->uri ? NULL : schema_elem_find(ld->sc, n->name);
    } else if (v[depth - 1].e) {
        const struct schema_elem *pe = v[depth - 1].e;
        const struct schema_child *ch = n->uri ? NULL : schema_child_find(pe, n->name);
        if (!ch) {
            not_allowed(ld, n, pe);
            return;
        }
        e = &ld->sc->elems[ch->elem];
        if (ch->once >= 0) {
            struct srcpos *first = &v[depth - 1].once_at[ch->once];
            struct srcpos at = xl_pos_of(ld, n);
            if (first->line) {
                char msg[160], note[160];
                snprintf(msg, sizeof(msg), "element '%s' may appear only once here", e->name);
                snprintf(note, sizeof(note), "first '%s' is here", e->name);
                schema_err_add(ld->rf, at, msg, *first, note);
            } else {
                *first = at;
            }
        }
    }
    v[depth].e = e;
    if (e)
        check_attributes(ld, n, e);
}

/*
 * Text at 'depth', in an element that may hold it (v[depth - 1]: its
 * element's entry; 'at': its position).
 */
static void validate_text(struct loader *ld, int depth, const struct valid_state *v,
                          struct srcpos at)
{
    const struct schema_elem *pe = depth > 0 ? v[depth - 1].e : NULL;
    if (!pe || pe->text)
        return;
    schema_err(ld->rf, at, "element '%.120s' may not contain text", pe->name);
}

/* ---------------------------------------------------------------- the open elements */

/* What an open element is, for its children. */
enum kind {
    K_SKIP,          /* nothing of it or below enters the model */
    K_TOP,           /* <regspec>, or a <part> included at the top level */
    K_BLOCK,         /* <block>, or a <part> included in one */
    K_REG, K_FIELD, K_RULE, K_EVENTS, K_EVENT, K_SUB, K_PMON, K_COUNTERS, K_PMON_GLOBAL,
    K_GLOBAL_STATUS,
    K_DESC,          /* <desc>: its text is its parent's description */
    K_TEXT,          /* <license>: its text goes where its frame's 'desc' points */
    K_DEVICE, K_INSTANCE, K_CLUSTER,
    K_ARRAY_INDEX,   /* <array-index> of a register */
    K_LEAF,          /* any other element of the model: only a <desc> child counts */
};

/* Growth state of the lists children are appended to (arena_push needs a capacity). */
struct caps {
    size_t sources, blocks, cpus, metrics, instances, regs, tables, addr_blocks, clusters;
};

struct frame {
    enum kind kind;
    bool from_part;    /* K_TOP, K_BLOCK: the children of an included <part> */
    void *obj;         /* the model object (K_BLOCK: the block) */
    struct caps *caps; /* K_TOP, K_BLOCK: where their lists grow (a <part>: its includer's) */
    struct caps own;
    struct {           /* growth of the object's own lists, one per list a child joins */
        size_t fields, rules, ats;          /* K_REG (a gap joins fields) */
        size_t values;                      /* K_FIELD, K_ARRAY_INDEX */
        size_t events;                      /* K_EVENTS */
        size_t sets, subs;                  /* K_EVENT, K_SUB; sets: K_FIELD's <enum-set>s */
        size_t counters, filters, unmodelled; /* K_PMON */
        size_t rdpmcs;                      /* K_COUNTERS */
        size_t boxes;                       /* K_GLOBAL_STATUS */
        size_t interrupts;                  /* K_INSTANCE */
    } grown;
    const char **desc; /* where a <desc> child's text goes; NULL: nowhere */
    bool has_desc;     /* a <desc> child was read (the first one counts) */
};

static void open_as(struct frame *fr, enum kind kind, void *obj, const char **desc)
{
    fr->kind = kind;
    fr->obj = obj;
    fr->desc = desc;
}

/* An <array-index>'s frame (its <index>es); 'ix' NULL: a repeated one, reported, skipped */
static void open_array_index(struct frame *fr, struct model_array_index *ix)
{
    if (ix)
        open_as(fr, K_ARRAY_INDEX, ix, NULL);
}

static void push(struct loader *ld, void *list, size_t *count, size_t *cap, void *item)
{
    arena_push(ld->a, (void ***)list, count, cap, item);
}

static void load_include(struct loader *ld, const struct xl_elem *n, struct frame *at);

/* A child of <regspec>, <block> or an included <part> ('p'); opens 'c' as what it is. */
static void open_top_child(struct loader *ld, struct frame *p, const struct xl_elem *n, const char *name,
                           struct frame *c)
{
    struct model_spec *s = ld->spec;
    struct model_block *b = p->kind == K_BLOCK ? p->obj : NULL;
    struct caps *caps = p->caps;
    if (strcmp(name, "desc") == 0) {
        open_as(c, K_DESC, NULL, NULL); /* a <part>'s own description is not part of the model */
    } else if (strcmp(name, "include") == 0) {
        load_include(ld, n, p);
    } else if (!b && strcmp(name, "source") == 0) {
        struct model_source *src = xl_load_source(ld, n);
        push(ld, &s->sources, &s->nsources, &caps->sources, src);
        open_as(c, K_LEAF, src, &src->desc);
    } else if (!b && strcmp(name, "cpu") == 0) {
        push(ld, &s->cpus, &s->ncpus, &caps->cpus, xl_load_cpu(ld, n));
    } else if (!b && strcmp(name, "device") == 0) {
        if (s->device) {
            xl_report_repeated(ld, n, s->device->pos);
        } else {
            s->device = xl_load_device(ld, n);
            open_as(c, K_DEVICE, s->device, &s->device->desc);
        }
    } else if (!b && strcmp(name, "metric") == 0) {
        struct model_metric *mt = xl_load_metric(ld, n);
        push(ld, &s->metrics, &s->nmetrics, &caps->metrics, mt);
        open_as(c, K_LEAF, mt, &mt->desc);
    } else if (!b && strcmp(name, "block") == 0) {
        struct model_block *nb = xl_load_block(ld, n);
        push(ld, &s->blocks, &s->nblocks, &caps->blocks, nb);
        open_as(c, K_BLOCK, nb, &nb->desc);
        c->caps = &c->own;
    } else if (!b && strcmp(name, "pmon-global") == 0) {
        struct model_pmon_global *pg = xl_load_pmon_global(ld, n);
        if (pg)
            open_as(c, K_PMON_GLOBAL, pg, &pg->desc);
    } else if (b && strcmp(name, "instance") == 0) {
        struct model_instance *in = xl_load_instance(ld, n, b);
        push(ld, &b->instances, &b->ninstances, &caps->instances, in);
        open_as(c, K_INSTANCE, in, &in->desc);
    } else if (b && strcmp(name, "address-block") == 0) {
        push(ld, &b->addr_blocks, &b->naddr_blocks, &caps->addr_blocks, xl_load_addr_block(ld, n));
    } else if (b && strcmp(name, "cluster") == 0) {
        struct model_cluster *cl = xl_load_cluster(ld, n, b);
        push(ld, &b->clusters, &b->nclusters, &caps->clusters, cl);
        open_as(c, K_CLUSTER, cl, &cl->desc);
    } else if (b && strcmp(name, "register") == 0) {
        struct model_reg *r = xl_load_register(ld, n, b);
        push(ld, &b->regs, &b->nregs, &caps->regs, r);
        open_as(c, K_REG, r, &r->desc);
    } else if (b && strcmp(name, "events") == 0) {
        struct model_events *t = xl_load_events(ld, n, b);
        push(ld, &b->event_tables, &b->nevent_tables, &caps->tables, t);
        open_as(c, K_EVENTS, t, &t->desc);
    } else if (b && strcmp(name, "pmon") == 0) {
        struct model_pmon *pm = xl_load_pmon(ld, n, b);
        if (pm)
            open_as(c, K_PMON, pm, &pm->desc);
    } else if (p->from_part) {
        xl_report(ld, DIAG_SCHEMA, xl_pos_of(ld, n), "element '%s' cannot be included %s", name,
                  b ? "inside a block" : "at the top level");
        if (ld->rf->f->included_at.file)
            xl_note(ld, ld->rf->f->included_at, "included here");
    }
}

/* Opens 'c', a child of 'p', as what it is in the model (K_SKIP: nothing). */
static void open_child(struct loader *ld, struct frame *p, const struct xl_elem *n, struct frame *c)
{
    const char *name = (const char *)n->name;
    if (p->kind == K_TOP || p->kind == K_BLOCK) {
        open_top_child(ld, p, n, name, c);
        return;
    }
    if (strcmp(name, "desc") == 0) {
        if (p->kind != K_SKIP && p->kind != K_DESC && p->kind != K_RULE)
            open_as(c, K_DESC, NULL, NULL);
        return;
    }
    switch (p->kind) {
    case K_REG: {
        struct model_reg *r = p->obj;
        if (strcmp(name, "field") == 0) {
            struct model_field *f = xl_load_field(ld, n, r);
            push(ld, &r->fields, &r->nfields, &p->grown.fields, f);
            open_as(c, K_FIELD, f, &f->desc);
        } else if (strcmp(name, "gap") == 0) {
            push(ld, &r->fields, &r->nfields, &p->grown.fields, xl_load_gap(ld, n, r));
        } else if (strcmp(name, "rule") == 0) {
            struct model_rule *ru = xl_load_rule(ld, n);
            push(ld, &r->rules, &r->nrules, &p->grown.rules, ru);
            open_as(c, K_RULE, ru, NULL);
        } else if (strcmp(name, "at") == 0) {
            struct model_at *at = xl_load_at(ld, n);
            push(ld, &r->ats, &r->nats, &p->grown.ats, at);
        } else if (strcmp(name, "array-index") == 0) {
            open_array_index(c, xl_mmio_array_index(ld, n, r));
        }
        break;
    }
    case K_ARRAY_INDEX:
        if (strcmp(name, "index") == 0) {
            struct model_array_index *ix = p->obj;
            struct model_value *v = xl_load_value(ld, n);
            push(ld, &ix->values, &ix->nvalues, &p->grown.values, v);
            open_as(c, K_LEAF, v, &v->desc);
        }
        break;
    case K_FIELD:
        if (strcmp(name, "value") == 0) {
            struct model_field *f = p->obj;
            struct model_value *v = xl_load_value(ld, n);
            if (!xl_mmio_value(ld, n, f, v))
                push(ld, &f->values, &f->nvalues, &p->grown.values, v);
            open_as(c, K_LEAF, v, &v->desc);
        } else if (strcmp(name, "enum-set") == 0) {
            xl_mmio_enum_set(ld, n, p->obj, &p->grown.sets);
        }
        break;
    case K_DEVICE: {
        struct model_device *d = p->obj;
        if (strcmp(name, "core") == 0) {
            if (d->cpu)
                xl_report_repeated(ld, n, d->cpu->pos);
            else
                d->cpu = xl_load_core(ld, n);
        } else if (strcmp(name, "license") == 0) {
            open_as(c, K_TEXT, d, &d->license);
        }
        break;
    }
    case K_INSTANCE:
        if (strcmp(name, "interrupt") == 0) {
            struct model_instance *in = p->obj;
            struct model_interrupt *it = xl_load_interrupt(ld, n);
            push(ld, &in->interrupts, &in->ninterrupts, &p->grown.interrupts, it);
            open_as(c, K_LEAF, it, &it->desc);
        } else if (strcmp(name, "array-index") == 0) {
            open_array_index(c, xl_mmio_instance_array_index(ld, n, p->obj));
        }
        break;
    case K_CLUSTER:
        if (strcmp(name, "array-index") == 0)
            open_array_index(c, xl_mmio_cluster_array_index(ld, n, p->obj));
        break;
    case K_EVENTS:
        if (strcmp(name, "event") == 0) {
            struct model_events *t = p->obj;
            struct model_event *e = xl_load_event(ld, n, t, NULL);
            push(ld, &t->events, &t->nevents, &p->grown.events, e);
            open_as(c, K_EVENT, e, &e->desc);
        }
        break;
    case K_EVENT:
    case K_SUB: {
        struct model_event *e = p->obj;
        if (strcmp(name, "set") == 0) {
            push(ld, &e->sets, &e->nsets, &p->grown.sets, xl_load_set(ld, n));
        } else if (p->kind == K_EVENT && strcmp(name, "sub") == 0) {
            struct model_event *sub = xl_load_event(ld, n, e->table, e);
            push(ld, &e->subs, &e->nsubs, &p->grown.subs, sub);
            open_as(c, K_SUB, sub, &sub->desc);
        }
        break;
    }
    case K_PMON: {
        struct model_pmon *pm = p->obj;
        if (strcmp(name, "counters") == 0) {
            struct model_counters *k = xl_load_counters(ld, n);
            push(ld, &pm->counters, &pm->ncounters, &p->grown.counters, k);
            open_as(c, K_COUNTERS, k, &k->desc);
        } else if (strcmp(name, "box-control") == 0) {
            if (pm->box_control)
                xl_report_repeated(ld, n, pm->box_control->pos);
            else
                pm->box_control = xl_load_box_control(ld, n);
        } else if (strcmp(name, "box-status") == 0) {
            if (pm->box_status)
                xl_report_repeated(ld, n, pm->box_status->pos);
            else
                pm->box_status = xl_load_box_status(ld, n);
        } else if (strcmp(name, "filter") == 0) {
            struct model_filter *f = xl_load_filter(ld, n);
            push(ld, &pm->filters, &pm->nfilters, &p->grown.filters, f);
            open_as(c, K_LEAF, f, &f->desc);
        } else if (strcmp(name, "unmodelled-filter") == 0) {
            struct model_unmodelled_filter *f = xl_load_unmodelled_filter(ld, n);
            push(ld, &pm->unmodelled, &pm->nunmodelled, &p->grown.unmodelled, f);
            open_as(c, K_LEAF, f, &f->desc);
        }
        break;
    }
    case K_COUNTERS:
        if (strcmp(name, "rdpmc") == 0) {
            struct model_counters *k = p->obj;
            push(ld, &k->rdpmcs, &k->nrdpmcs, &p->grown.rdpmcs, xl_load_rdpmc(ld, n));
        }
        break;
    case K_PMON_GLOBAL: {
        struct model_pmon_global *pg = p->obj;
        if (strcmp(name, "global-control") == 0) {
            if (pg->control)
                xl_report_repeated(ld, n, pg->control->pos);
            else
                pg->control = xl_load_global_control(ld, n);
        } else if (strcmp(name, "global-status") == 0) {
            if (pg->status) {
                xl_report_repeated(ld, n, pg->status->pos);
            } else {
                pg->status = xl_load_global_status(ld, n);
                open_as(c, K_GLOBAL_STATUS, pg->status, NULL);
            }
        }
        break;
    }
    case K_GLOBAL_STATUS:
        if (strcmp(name, "box-overflow") == 0) {
            struct model_global_status *g = p->obj;
            push(ld, &g->boxes, &g->nboxes, &p->grown.boxes, xl_load_box_overflow(ld, n));
        }
        break;
    default:
        break;
    }
}

/* The end of the element open in 'fr' (its parent: fr[-1]); 'text': what it held. */
static void close_element(struct loader *ld, struct frame *fr, const char *text)
{
    if (fr->kind == K_DESC) {
        struct frame *p = fr - 1;
        if (p->desc && !p->has_desc)
            *p->desc = value_fold_text(ld->a, text);
        p->has_desc = true;
    } else if (fr->kind == K_TEXT) {
        *fr->desc = value_fold_text(ld->a, text);
    } else if (fr->kind == K_RULE) {
        struct model_rule *ru = fr->obj;
        ru->message = value_fold_text(ld->a, text);
    }
}

/* Position of byte 'off' of the peeked text. */
static struct srcpos peek_pos(const struct rfile *rf, size_t off)
{
    uint32_t line = 1;
    size_t start = 0;
    for (size_t i = 0; i < off; i++)
        if (rf->peek[i] == '\n')
            line++, start = i + 1;
    return (struct srcpos){rf->f->index, line, (uint32_t)(off - start + 1)};
}

/* The folder part of 'path' joined with the relative 'href'; owned by the arena. */
static const char *join_path(struct arena *a, const char *path, const char *href)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return arena_strdup(a, href);
    return arena_printf(a, "%.*s/%s", (int)(slash - path + 1) - 1, path, href);
}

static struct lfile *find_real(struct loader *ld, const char *real)
{
    for (size_t i = 0; i < ld->nfiles; i++)
        if (strcmp(ld->files[i]->real, real) == 0)
            return ld->files[i];
    return NULL;
}

/* Refuses an href that is absolute or a URL; false after reporting. */
static bool include_href_ok(struct loader *ld, const struct xl_elem *n, const char *href)
{
    if (href[0] == '/' || strstr(href, "://")) {
        xl_report(ld, DIAG_INCLUDE, xl_value_pos(ld, n, "href", 0),
                    "include '%s' must be a relative path (no URL, no absolute path)", href);
        return false;
    }
    if (href[0] == '\0') {
        xl_report(ld, DIAG_INCLUDE, xl_value_pos(ld, n, "href", 0), "include has an empty 'href'");
        return false;
    }
    return true;
}

/* Refuses a file already part of the spec; false after reporting. */
static bool include_new(struct loader *ld, const struct xl_elem *n, const char *path, const char *real)
{
    struct lfile *prev = find_real(ld, real);
    if (!prev)
        return true;
    struct srcpos at = xl_pos_of(ld, n);
    if (prev->loading)
        xl_report(ld, DIAG_INCLUDE, at, "file '%s' includes itself", path);
    else
        xl_report(ld, DIAG_INCLUDE, at, "file '%s' is included twice", path);
    if (prev->included_at.file)
        xl_note(ld, prev->included_at, "'%s' is first included here", prev->path);
    return false;
}

/* ---------------------------------------------------------------- other formats */

/*
 * A register description in another language is told apart from a broken
 * regspec, so its author learns at once that regc does not read it:
 * CMSIS-SVD (XML, root <device>), IP-XACT (XML in the IP-XACT or SPIRIT
 * namespace), SystemRDL (not XML: 'addrmap', 'regfile' or 'field {').
 */
static void report_foreign(struct rfile *rf, struct srcpos p, const char *format, const char *why)
{
    bool svd = strcmp(format, "CMSIS-SVD") == 0; /* read as the spec itself, never included */
    report_fatal(rf, DIAG_NOT_REGSPEC, p, "not a regspec: this looks like %s (%s); %s", format, why,
                 svd ? "regc reads an SVD file given as the spec itself (docs/svd.md), not as an "
                       "include"
                     : "regc reads the regspec language, described in docs/regspec.md");
}

/* Offset of the first 'word' standing alone in text[0, len), or SIZE_MAX. */
static size_t find_word(const char *text, size_t len, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= len; i++) {
        if (memcmp(text + i, word, n) == 0 && (i == 0 || !util_is_ident_char(text[i - 1])) &&
            (i + n == len || !util_is_ident_char(text[i + n])))
            return i;
    }
    return SIZE_MAX;
}

/* SystemRDL: text that is no XML (its first character is not '<') with SystemRDL's words. */
static bool foreign_text(struct rfile *rf)
{
    const char *text = rf->peek;
    size_t len = rf->npeek;
    size_t i = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (i < len && util_is_space(text[i]))
        i++;
    if (i >= len || text[i] == '<')
        return false;
    static const char *const words[] = {"addrmap", "regfile", "field"};
    for (size_t k = 0; k < ARRAY_SIZE(words); k++) {
        size_t at = find_word(text, len, words[k]);
        size_t j = at == SIZE_MAX ? at : at + strlen(words[k]);
        while (k == 2 && j < len && util_is_space(text[j]))
            j++;
        if (at != SIZE_MAX && (k < 2 || (j < len && text[j] == '{'))) {
            char why[64];
            snprintf(why, sizeof(why), "'%s' %s", words[k], k < 2 ? "component" : "definition");
            report_foreign(rf, peek_pos(rf, at), "SystemRDL", why);
            return true;
        }
    }
    return false;
}

/* 'hay' contains 'needle' (lower case), ignoring ASCII case. */
static bool contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && (hay[i] | 0x20) == needle[i])
            i++;
        if (i == n)
            return true;
    }
    return false;
}

/* CMSIS-SVD or IP-XACT: told by the root element. */
static bool foreign_root(struct loader *ld, const struct xl_elem *root)
{
    const char *ns = root->uri ? root->uri : "";
    char why[200];
    if (!root->uri && strcmp(root->name, "device") == 0) {
        report_foreign(ld->rf, xl_pos_of(ld, root), "CMSIS-SVD", "root element 'device'");
        return true;
    }
    if (contains_nocase(ns, "ipxact") || contains_nocase(ns, "spirit")) {
        snprintf(why, sizeof(why), "root element '%s' in namespace '%.120s'",
                 (const char *)root->name, ns);
        report_foreign(ld->rf, xl_pos_of(ld, root), "IP-XACT", why);
        return true;
    }
    return false;
}

/* ---------------------------------------------------------------- reading a file */

/*
 * Registers file 'path', open on 'fd' ('at': the <include> naming it; file
 * 0 for the spec), found in 'root' as 'rel'. An include's lines are quoted
 * under a message only when its first bytes show a <part> (read_file()): a
 * file that is not a spec file is named, never printed.
 */
static struct lfile *add_lfile(struct loader *ld, const char *path, int fd, int root,
                               const char *rel, struct srcpos at)
{
    struct stat st;
    struct lfile *f = arena_zalloc(ld->a, sizeof(*f));
    f->path = path;
    bool known = fstat(fd, &st) == 0;
    f->real = known ? arena_printf(ld->a, "%ju:%ju", (uintmax_t)st.st_dev, (uintmax_t)st.st_ino)
                    : path;
    f->root = root;
    f->rel = rel;
    f->included_at = at;
    f->index = diag_add_file(ld->dg, path);
    diag_drop_source(ld->dg, f->index, !at.file); /* carets read the file again */
    if (known)
        diag_source_same(ld->dg, f->index, st.st_dev, st.st_ino);
    if (ld->nfiles == ld->cap)
        ld->files = xgrow(ld->files, &ld->cap, ld->nfiles + 1, sizeof(*ld->files));
    ld->files[ld->nfiles++] = f;
    arena_push(ld->a, (void ***)&ld->spec->inputs, &ld->spec->ninputs, &ld->inputs_cap,
               (void *)path);
    return f;
}

/* The root element: foreign, the one expected, or another (reported at the end if valid). */
static bool open_root(struct loader *ld, const struct xl_elem *n, struct frame *at, struct frame *fr)
{
    struct rfile *rf = ld->rf;
    if (foreign_root(ld, n)) {
        rf->stopped = true;
        return false;
    }
    const char *want = at ? "part" : "regspec";
    if (n->uri || strcmp(n->name, want) != 0) {
        rf->wrong_root = arena_strdup(ld->a, (const char *)n->name);
        rf->wrong_root_pos = xl_pos_of(ld, n);
        return true;
    }
    if (!at) {
        xl_load_regspec(ld, n);
        open_as(fr, K_TOP, NULL, &ld->spec->desc);
        fr->caps = &fr->own;
    } else {
        open_as(fr, at->kind, at->obj, NULL);
        fr->caps = at->caps;
        fr->from_part = true;
    }
    return true;
}

static bool file_sound(const struct rfile *rf)
{
    return !rf->fatal.n && !rf->nschema && !rf->wrong_root && !rf->stopped;
}

/* ---------------------------------------------------------------- libxml2's SAX2 events */

/* The open elements of the file being read, one entry a depth. */
struct walk {
    struct frame *at;  /* the includer's open element (NULL: the spec) */
    int depth;         /* elements open */
    int collect;       /* depth of the <desc>, <rule> or <license> whose text is read; -1: none */
    bool gone;         /* nothing more of the file is loaded (stopped, or nested too deep) */
    size_t limit_err;  /* the index in rf->fatal of "nest deeper", or SIZE_MAX */
    struct frame frames[XMLLOAD_MAX_DEPTH];
    struct valid_state valid[XMLLOAD_MAX_DEPTH];
    struct srcpos pos[XMLLOAD_MAX_DEPTH];   /* where each open element is */
    bool text_judged[XMLLOAD_MAX_DEPTH];    /* its text was judged (once is enough) */
};

/* Room in 'b' for the strings of a start tag: its name and its attributes' values. */
static size_t tag_text_size(const xmlChar *localname, const xmlChar *prefix, int nattrs,
                            const xmlChar **attrs)
{
    size_t n = prefix ? strlen((const char *)prefix) + strlen((const char *)localname) + 2 : 0;
    for (int i = 0; i < nattrs; i++) {
        const xmlChar **a = attrs + 5 * i;
        n += (size_t)(a[4] - a[3]) + 1;
        if (a[1])
            n += strlen((const char *)a[1]) + strlen((const char *)a[0]) + 2;
    }
    return n;
}

/* "prefix:name" added to 'b' (room made beforehand): the name libxml2's tree gives a prefix bound to nothing. */
static const char *add_qname(struct buf *b, const xmlChar *prefix, const xmlChar *name)
{
    const char *s = b->s + b->len;
    buf_adds(b, (const char *)prefix);
    buf_addc(b, ':');
    buf_adds(b, (const char *)name);
    buf_addc(b, '\0');
    return s;
}

/* The start tag SAX2 gives, as the element the handlers read (rf->el). */
static struct xl_elem *elem_of(struct rfile *rf, const xmlChar *localname, const xmlChar *prefix,
                               const xmlChar *uri, int nattrs, const xmlChar **attrs)
{
    struct buf *b = &rf->strs;
    buf_reset(b);
    buf_grow(b, tag_text_size(localname, prefix && !uri ? prefix : NULL, nattrs, attrs));
    size_t n = nattrs > 0 ? (size_t)nattrs : 0;
    if (n > rf->attrs_cap)
        rf->attrs = xgrow(rf->attrs, &rf->attrs_cap, n, sizeof(*rf->attrs));
    for (size_t i = 0; i < n; i++) {
        const xmlChar **a = attrs + 5 * i;
        struct xl_attr *at = &rf->attrs[i];
        at->prefix = (const char *)a[1];
        at->uri = (const char *)a[2];
        at->name = a[1] && !a[2] ? add_qname(b, a[1], a[0]) : (const char *)a[0];
        at->value = value_from_sax(b, (const char *)a[3], (size_t)(a[4] - a[3]));
    }
    struct xl_elem *el = &rf->el;
    el->prefix = (const char *)prefix;
    el->uri = (const char *)uri;
    el->name = prefix && !uri ? add_qname(b, prefix, localname) : (const char *)localname;
    el->attrs = rf->attrs;
    el->nattrs = n;
    el->line = 0;
    rf->el_schema = NULL; /* until it is judged */
    return el;
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                     const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                     int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
    (void)nb_namespaces, (void)namespaces, (void)nb_defaulted;
    struct rfile *rf = ctx;
    struct walk *w = rf->walk;
    int depth = w->depth++;
    if (w->gone)
        return;
    struct loader *ld = rf->ld;
    struct xl_elem *n = elem_of(rf, localname, prefix, uri, nb_attributes, attributes);
    n->line = tag_take(rf, n) ? rf->tag.line
              : rf->ctxt->input->line > 0 ? (uint32_t)rf->ctxt->input->line : 0;
    if (depth >= XMLLOAD_MAX_DEPTH) { /* the scanner lost track */
        w->limit_err = rf->fatal.n;
        report_fatal(rf, DIAG_XML_LIMIT, xl_pos_of(ld, n), "elements nest deeper than %d levels",
                     XMLLOAD_MAX_DEPTH);
        w->gone = true;
        return;
    }
    w->pos[depth] = xl_pos_of(ld, n);
    w->text_judged[depth] = false;
    validate_element(ld, n, depth, w->valid);
    struct frame *fr = &w->frames[depth];
    memset(fr, 0, sizeof(*fr));
    if (depth == 0 && !open_root(ld, n, w->at, fr)) {
        w->gone = true;
        xmlStopParser(rf->ctxt);
        return;
    }
    if (depth > 0 && file_sound(rf))
        open_child(ld, &w->frames[depth - 1], n, fr);
    if (fr->kind == K_DESC || fr->kind == K_RULE || fr->kind == K_TEXT) {
        w->collect = depth;
        buf_reset(&ld->text);
    }
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri)
{
    (void)localname, (void)prefix, (void)uri;
    struct rfile *rf = ctx;
    struct walk *w = rf->walk;
    int depth = --w->depth;
    if (w->gone)
        return;
    if (file_sound(rf))
        close_element(rf->ld, &w->frames[depth], w->collect == depth ? rf->ld->text.s : "");
    if (w->collect == depth)
        w->collect = -1;
}

static bool all_blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!util_is_space(s[i]))
            return false;
    return true;
}

/* Text s[0, len) of the innermost open element (CDATA sections come as text: NOCDATA). Every
 * blank is kept: a text is folded where an output needs it folded. */
static void text_of(struct rfile *rf, const char *s, size_t len)
{
    struct walk *w = rf->walk;
    int depth = w->depth;
    if (w->gone || depth == 0)
        return;
    const struct schema_elem *e = w->valid[depth - 1].e;
    bool judge = e && !e->text && !w->text_judged[depth - 1];
    if (!judge && w->collect < 0)
        return;
    bool blank = all_blank(s, len);
    if (judge && !blank) {
        w->text_judged[depth - 1] = true;
        validate_text(rf->ld, depth, w->valid, w->pos[depth - 1]);
    }
    if (w->collect < 0)
        return;
    buf_addn(&rf->ld->text, s, len);
}

static void on_text(void *ctx, const xmlChar *s, int len)
{
    text_of(ctx, (const char *)s, len > 0 ? (size_t)len : 0);
}

/*
 * Reads the file through libxml2's SAX2 parser, each element judged and
 * loaded as its start tag comes ('at': the includer's open element, NULL
 * for the spec); true when it reached the end, well-formed. The parser
 * goes on after a well-formedness error (without events), so every error
 * of the file is reported.
 */
static bool read_events(struct loader *ld, struct rfile *rf, struct frame *at)
{
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof(sax));
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = on_start;
    sax.endElementNs = on_end;
    sax.characters = on_text;
    sax.serror = on_parser_error;
    rf->ctxt = xmlCreateIOParserCtxt(&sax, rf, read_input, NULL, rf, XML_CHAR_ENCODING_NONE);
    if (!rf->ctxt) {
        report_fatal(rf, DIAG_IO, (struct srcpos){rf->f->index, 0, 0},
                     "cannot set up the XML parser");
        return false;
    }
    struct walk *w = xcalloc(1, sizeof(*w));
    w->at = at;
    w->collect = -1;
    w->limit_err = SIZE_MAX;
    rf->walk = w;
    rf->memo = xcalloc(ATTR_MEMO_SIZE, sizeof(*rf->memo));
    xmlCtxtUseOptions(rf->ctxt, XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES);
    bool complete = xmlParseDocument(rf->ctxt) == 0 && rf->ctxt->wellFormed && !w->gone;
    if (w->limit_err != SIZE_MAX && rf->fatal.n > 1) /* libxml2 says what is wrong */
        diag_held_remove(&rf->fatal, w->limit_err);
    xmlFreeParserCtxt(rf->ctxt);
    rf->ctxt = NULL;
    free(w);
    rf->walk = NULL;
    free(rf->memo);
    rf->memo = NULL;
    rf->el_schema = NULL;
    return complete;
}

/*
 * The peeked text starts, after a byte order mark, blanks, an XML
 * declaration and comments, with the start tag '<part': an include that is a
 * spec file, whose lines a diagnostic may quote.
 */
static bool starts_as_part(const struct rfile *rf)
{
    const char *p = rf->peek, *end = rf->peek + rf->npeek;
    if (end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3;
    for (;;) {
        while (p < end && util_is_space(*p))
            p++;
        const char *close = NULL;
        if (end - p >= 5 && memcmp(p, "<?xml", 5) == 0)
            close = "?>";
        else if (end - p >= 4 && memcmp(p, "<!--", 4) == 0)
            close = "-->";
        if (!close)
            break;
        const char *q = p;
        size_t n = strlen(close);
        while (q + n <= end && memcmp(q, close, n) != 0)
            q++;
        if (q + n > end)
            return false;
        p = q + n;
    }
    return end - p > 5 && memcmp(p, "<part", 5) == 0 &&
           (util_is_space(p[5]) || p[5] == '>' || p[5] == '/');
}

/* Reads the first bytes (for other formats and the encoding); false on a read error. */
static bool peek_file(struct rfile *rf)
{
    rf->peek = xmalloc(PEEK_SIZE);
    while (rf->npeek < PEEK_SIZE) {
        ssize_t k = read(rf->fd, rf->peek + rf->npeek, PEEK_SIZE - rf->npeek);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            rf->read_err = errno;
            return false;
        }
        if (k == 0)
            break;
        rf->npeek += (size_t)k;
    }
    return true;
}

/* The file's diagnostics, now that its end is reached: see "Diagnostics" at the top. */
static void finish_file(struct loader *ld, struct rfile *rf, bool complete)
{
    struct srcpos file = {rf->f->index, 0, 0};
    if (rf->read_err)
        report_fatal(rf, rf->f->included_at.file ? DIAG_INCLUDE : DIAG_IO, file,
                     "cannot read file: %s", strerror(rf->read_err));
    else if (!complete && !rf->fatal.n)
        report_fatal(rf, DIAG_XML_SYNTAX, file, "the file is not well-formed XML");
    if (!rf->fatal.n && !rf->nschema && !rf->wrong_root)
        return;
    diag_held_truncate(&ld->held, rf->held_mark); /* what the model's construction reported goes */
    if (rf->fatal.n) {
        for (size_t i = 0; i < rf->fatal.n; i++) {
            struct diag_held_one *d = &rf->fatal.d[i];
            xl_report(ld, d->code, d->pos, "%s", d->msg);
        }
        return;
    }
    if (rf->nschema) {
        qsort(rf->schema, rf->nschema, sizeof(*rf->schema), schema_err_cmp);
        for (size_t i = 0; i < rf->nschema; i++) {
            bool seen = false; /* the same message on the same line, found twice */
            for (size_t k = i; k > 0 && !seen && rf->schema[k - 1].pos.line == rf->schema[i].pos.line;
                 k--)
                seen = strcmp(rf->schema[k - 1].msg, rf->schema[i].msg) == 0;
            if (!seen)
                xl_report(ld, DIAG_SCHEMA, rf->schema[i].pos, "%s", rf->schema[i].msg);
            if (!seen && rf->schema[i].note_msg)
                xl_note(ld, rf->schema[i].note, "%s", rf->schema[i].note_msg);
        }
        return;
    }
    if (rf->f->included_at.file) {
        xl_report(ld, DIAG_INCLUDE, rf->wrong_root_pos,
                  "an included file must have the root element 'part', not '%s'", rf->wrong_root);
        xl_note(ld, rf->f->included_at, "included here");
    } else {
        xl_report(ld, DIAG_SCHEMA, rf->wrong_root_pos,
                  "the root element is '%s': a spec starts with 'regspec' ('part' is for "
                  "included files)",
                  rf->wrong_root);
    }
}

/*
 * Reads file 'f' (open on 'fd', closed here) into the model: the spec
 * ('at' NULL) or an include, whose <part>'s children go where 'at', the
 * includer's open <regspec>, <block> or <part>, is.
 */
static void read_file(struct loader *ld, struct lfile *f, int fd, struct frame *at)
{
    struct rfile rf = {.ld = ld, .f = f, .fd = fd, .held_mark = ld->held.n, .strs = BUF_INIT};
    rf.sc.line = 1;
    struct rfile *from = ld->rf;
    ld->rf = &rf;
    f->loading = true;
    bool complete = false;
    bool peeked = peek_file(&rf);
    if (peeked && f->included_at.file && starts_as_part(&rf))
        diag_drop_source(ld->dg, f->index, true); /* a spec file: its lines may be quoted */
    if (peeked && wide_encoding((const unsigned char *)rf.peek, rf.npeek)) {
        report_fatal(&rf, DIAG_XML_UNSAFE, (struct srcpos){f->index, 0, 0},
                     "encoding refused: regc reads UTF-8 (or an encoding that keeps "
                     "ASCII as it is), and this one looks like UTF-16, UCS-4 or EBCDIC");
        complete = true;
    } else if (!rf.read_err && !foreign_text(&rf)) {
        complete = read_events(ld, &rf, at);
    } else if (!rf.read_err) {
        complete = true; /* reported as another format */
    }
    f->loading = false;
    finish_file(ld, &rf, complete);
    close(fd);
    free(rf.peek);
    scan_release(&rf.sc);
    free(rf.attrs);
    buf_release(&rf.strs);
    diag_held_release(&rf.fatal);
    for (size_t i = 0; i < rf.nschema; i++)
        free(rf.schema[i].msg), free(rf.schema[i].note_msg);
    free(rf.schema);
    ld->rf = from;
}

/* <include href="FILE"/>: the children of FILE's <part> go where 'at' is. */
static void load_include(struct loader *ld, const struct xl_elem *n, struct frame *at)
{
    const char *href = xl_get(ld, n, "href");
    if (!href || !include_href_ok(ld, n, href))
        return;
    const struct lfile *from = ld->rf->f;
    struct srcpos where = xl_pos_of(ld, n);
    struct util_file in;
    int root;
    char *rel;
    size_t size;
    int fd = incpath_open(ld->ip, from->root, from->rel, href, &root, &rel, &size, &in);
    const char *path = root == from->root
                           ? join_path(ld->a, from->path, href)
                           : arena_printf(ld->a, "%s/%s", incpath_root_dir(ld->ip, root), href);
    if (fd < 0) { /* not found or outside: at the href; found but refused: at the element */
        bool found = in.err == 0 || in.err == EISDIR;
        if (in.err == EXDEV)
            xl_report(ld, DIAG_INCLUDE_OUTSIDE, xl_value_pos(ld, n, "href", 0),
                      "included file '%s' refused: %s", path, in.why);
        else
            xl_report(ld, DIAG_INCLUDE, found ? where : xl_value_pos(ld, n, "href", 0),
                      "cannot read included file '%s': %s", path, in.why);
        return;
    }
    const char *arel = arena_strdup(ld->a, rel);
    free(rel);
    struct stat st;
    const char *real = fstat(fd, &st) == 0 ? arena_printf(ld->a, "%ju:%ju", (uintmax_t)st.st_dev,
                                                          (uintmax_t)st.st_ino)
                                           : path;
    if (!include_new(ld, n, path, real)) {
        close(fd);
        return;
    }
    read_file(ld, add_lfile(ld, path, fd, root, arel, where), fd, at);
}

/* ---------------------------------------------------------------- entry */

static void loader_release(struct loader *ld)
{
    free(ld->files);
    diag_held_release(&ld->held);
    buf_release(&ld->text);
}

static struct model_spec *load_spec(struct arena *a, struct diag *dg, const char *path,
                                    const char *const *incdirs, size_t nincdirs,
                                    const struct xmlload_schema *sc)
{
    struct loader ld = {.a = a, .dg = dg, .sc = sc, .text = BUF_INIT};
    ld.spec = arena_zalloc(a, sizeof(*ld.spec));
    ld.ip = incpath_new(path, incdirs, nincdirs);
    unsigned before = dg->nerrors;
    xmlSetGenericErrorFunc(NULL, on_generic_error);
    xmlSetStructuredErrorFunc(&ld, on_error);
    struct util_file in;
    size_t size;
    int fd = util_open_input(path, &in, &size);
    if (fd < 0)
        diag_report(dg, DIAG_IO, (struct srcpos){diag_add_file(dg, path), 0, 0},
                    "cannot read file: %s", in.why);
    else
        read_file(&ld, add_lfile(&ld, path, fd, 0, incpath_spec_rel(path), (struct srcpos){0, 0, 0}),
                  fd, NULL);
    diag_held_flush(&ld.held, dg, 0);
    if (dg->nerrors == before)
        xl_mmio_finish(a, dg, ld.spec);
    loader_release(&ld);
    incpath_free(ld.ip);
    xmlSetStructuredErrorFunc(NULL, NULL);
    xmlSetGenericErrorFunc(NULL, NULL);
    return dg->nerrors == before ? ld.spec : NULL;
}

struct model_spec *xmlload_spec(struct arena *a, struct diag *dg, const char *path)
{
    struct xmlload_schema *sc = xmlload_schema_new(dg);
    if (!sc)
        return NULL;
    struct model_spec *s = load_spec(a, dg, path, NULL, 0, sc);
    xmlload_schema_free(sc);
    return s;
}

struct model_spec *xmlload_spec_with(struct arena *a, struct diag *dg, const char *path,
                                     const char *const *incdirs, size_t nincdirs,
                                     const struct xmlload_schema *sc)
{
    return load_spec(a, dg, path, incdirs, nincdirs, sc);
}
