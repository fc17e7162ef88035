/*
 * xmlload - libxml2 to model, streaming. See xmlload.h for the contract.
 *
 * A file is read with libxml2's reader (xmlTextReader), which validates
 * against the compiled-in schema as it reads (RelaxNG on the reader) and
 * hands over one node at a time; the model is built from those nodes as
 * they come (an element's attributes at its start tag, the text of <desc>
 * and <rule> at their end), and libxml2 frees each node behind us. No
 * document of the spec is ever built, and nothing of the file's text is
 * kept but the start tag being loaded: memory follows the model.
 *
 * Bytes reach libxml2 through read_input(), which runs them first through
 * a small scanner (struct scan). It knows just enough XML to follow start
 * tags, end tags, comments, CDATA sections and PIs; it keeps the raw text
 * of each start tag until the reader hands its element over, which gives
 * the element the line and column of its '<' and lets attribute values be
 * found in the raw text, so errors inside values get a real column. The
 * scanner also enforces the safety rules before libxml2 sees a byte: a
 * DOCTYPE (hence any entity declaration, internal or external) and nesting
 * deeper than XMLLOAD_MAX_DEPTH stop the input where they begin.
 *
 * Diagnostics keep the old contract: after a well-formedness, safety or
 * schema error in a file, nothing else of that file is reported or enters
 * the model. As the errors of a file are known only at its end, what the
 * model's construction reports is held (struct held) and kept or dropped
 * when the file ends.
 */
#define _XOPEN_SOURCE 700 /* getline() */
#include "xmlload.h"

#include "buf.h"
#include "expr.h"
#include "incpath.h"
#include "metric.h"
#include "util.h"
#include "xmlschema.h"
#include "xmlvalue.h"

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

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

/* ---------------------------------------------------------------- the scanner */

/* A start tag the scanner has seen and the reader has not handed over yet. */
struct tagrec {
    uint32_t line, col; /* of its '<' */
    size_t start, len;  /* its raw text: scan.buf[start, start + len) */
};

enum scan_state {
    S_TEXT, S_LT, S_STAG, S_QUOTE, S_ETAG, S_PI, S_BANG, S_COMMENT, S_CDATA, S_DECL
};

struct scan {
    enum scan_state state;
    char quote, prev;       /* the quote of the value being read; the byte before this one */
    unsigned run;           /* '-' or ']' seen in a row (ends of comments and CDATA) */
    char look[8];           /* after "<!": what it starts */
    unsigned nlook;
    unsigned depth;         /* elements open */
    bool root_seen;
    bool lost;              /* the scanner and the reader disagree, or the input is not 8-bit:
                               positions are libxml2's lines from then on */
    uint64_t off;           /* bytes scanned */
    uint64_t line_start;    /* offset of the current line's first byte */
    uint32_t line;
    uint32_t lt_line, lt_col; /* the last '<' */
    char *buf;              /* raw text of the start tags in q; xmalloc'd */
    size_t head, len, cap;  /* buf[head, len) is in use */
    struct tagrec *q;       /* q[qhead, qlen): tags not yet handed over; xmalloc'd */
    size_t qhead, qlen, qcap;
    struct tagrec cur;      /* the tag being captured */
};

/* ---------------------------------------------------------------- files */

/* A diagnostic held until its file is known to be sound (or a note to the one before it). */
struct held_diag {
    enum diag_code code;
    bool note;
    struct srcpos pos;
    char *msg; /* xmalloc'd */
};

struct held {
    struct held_diag *d;
    size_t n, cap;
};

/* Schema errors are collected while a file is read, then reported in file order. */
struct schema_err {
    struct srcpos pos;
    char *msg;      /* xmalloc'd */
    xmlNode *node;  /* not handed over yet when the error came: its position is found later */
};

/* One file: the spec or an include. */
struct lfile {
    const char *path;    /* as diagnostics print it; owned by the arena */
    const char *real;    /* "DEV:INODE" of the file opened, to find one included twice; arena */
    int root;            /* where it was found (incpath.h) */
    const char *rel;     /* its name in that root; arena */
    uint32_t index;      /* in the diag file table */
    struct srcpos included_at; /* the <include> that brought it in (file 0: the spec) */
    bool loading;        /* on the include stack now */
};

/* The state of reading one file. */
struct rfile {
    struct loader *ld;
    struct lfile *f;
    int fd;
    char *peek;                /* the file's first bytes, read before libxml2 starts; xmalloc'd */
    size_t npeek, peek_pos;
    int read_err;              /* errno of a failed read */
    bool stopped;              /* the scanner refused the rest of the input (reported) */
    struct scan sc;
    struct held fatal;         /* well-formedness, safety and read errors */
    struct schema_err *schema; /* xmalloc'd */
    size_t nschema, schema_cap;
    size_t placed;             /* schema[0, placed) have their positions */
    size_t held_mark;          /* ld->held.n when the file began */
    xmlTextReaderPtr reader;
    xmlNode *node;             /* the element being loaded */
    struct tagrec tag;         /* its start tag (tag.len 0: unknown) */
    const char *wrong_root;    /* the root element, when it is not the one expected */
    struct srcpos wrong_root_pos;
    unsigned schema_raw;       /* schema errors libxml2 reported, the dropped ones too */
    bool lost;                 /* libxml2's validator lost its place (see read_nodes()) */
    bool own;                  /* ... so it is off, and the schema table judges the rest */
    int misplaced;             /* depth of the misplaced element being read; -1: none */
};

struct frame;

struct loader {
    struct arena *a;
    struct diag *dg;
    struct model_spec *spec;
    struct lfile **files; /* every file opened; xmalloc'd array */
    size_t nfiles, cap;
    size_t inputs_cap;    /* capacity of spec->inputs */
    struct rfile *rf;     /* the file being read */
    const struct xmlload_schema *sc;
    struct held held;     /* what the model's construction reported, in order */
    struct buf text;      /* the text of the <desc> or <rule> being read */
    struct incpath *ip;   /* where includes may be found */
};

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* ---------------------------------------------------------------- held diagnostics */

static void held_add(struct held *h, enum diag_code code, bool note, struct srcpos pos,
                     const char *fmt, va_list ap)
{
    if (h->n == h->cap)
        h->d = xgrow(h->d, &h->cap, h->n + 1, sizeof(*h->d));
    struct buf b = BUF_INIT;
    buf_vaddf(&b, fmt, ap);
    size_t len;
    h->d[h->n++] = (struct held_diag){code, note, pos, buf_detach(&b, &len)};
}

static void held_truncate(struct held *h, size_t n)
{
    while (h->n > n)
        free(h->d[--h->n].msg);
}

/* Reports what 'h' holds from 'from' on, in order, and forgets it. */
static void held_flush(struct held *h, struct diag *dg, size_t from)
{
    for (size_t i = from; i < h->n; i++) {
        if (h->d[i].note)
            diag_note(dg, h->d[i].pos, "%s", h->d[i].msg);
        else
            diag_report(dg, h->d[i].code, h->d[i].pos, "%s", h->d[i].msg);
    }
    held_truncate(h, from);
}

__attribute__((format(printf, 4, 5))) static void report(struct loader *ld, enum diag_code code,
                                                         struct srcpos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    held_add(&ld->held, code, false, pos, fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 3, 4))) static void note(struct loader *ld, struct srcpos pos,
                                                       const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    held_add(&ld->held, 0, true, pos, fmt, ap);
    va_end(ap);
}

/* A well-formedness, safety or read error of the file being read. */
__attribute__((format(printf, 4, 5))) static void report_fatal(struct rfile *rf,
                                                               enum diag_code code,
                                                               struct srcpos pos,
                                                               const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    held_add(&rf->fatal, code, false, pos, fmt, ap);
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
    sc->buf = xgrow(sc->buf, &sc->cap, sc->len + n, 1);
    memcpy(sc->buf + sc->len, s, n);
    sc->len += n;
}

/* Counts the newlines of s[from, to) (offsets in the chunk that starts at sc->off). */
static void scan_lines(struct scan *sc, const char *s, size_t from, size_t to)
{
    for (const char *p = s + from; (p = memchr(p, '\n', (size_t)(s + to - p))) != NULL; p++) {
        sc->line++;
        sc->line_start = sc->off + (size_t)(p - s) + 1;
    }
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
            const char *lt = memchr(s + i, '<', n - i);
            size_t end = lt ? (size_t)(lt - s) : n;
            scan_lines(sc, s, i, end);
            if (!lt)
                break;
            i = end;
            sc->lt_line = sc->line;
            sc->lt_col = (uint32_t)(sc->off + i - sc->line_start + 1);
            sc->state = S_LT;
            sc->prev = '<';
            continue;
        }
        if (sc->state == S_STAG || sc->state == S_QUOTE) { /* a start tag: to its end or a quote */
            size_t j = i;
            if (sc->state == S_QUOTE) {
                const char *q = memchr(s + i, sc->quote, n - i);
                j = q ? (size_t)(q - s) : n;
            } else {
                while (j < n && s[j] != '"' && s[j] != '\'' && s[j] != '>')
                    j++;
            }
            scan_lines(sc, s, i, j);
            scan_keepn(sc, s + i, j < n ? j + 1 - i : n - i);
            if (j == n) {
                sc->prev = s[n - 1];
                break;
            }
            i = j;
            c = s[j];
            if (sc->state == S_QUOTE) {
                sc->state = S_STAG;
            } else if (c == '>') {
                scan_push(sc);
                sc->depth += sc->buf[sc->len - 2] != '/';
                sc->root_seen = true;
                sc->state = S_TEXT;
            } else {
                sc->quote = c;
                sc->state = S_QUOTE;
            }
            sc->prev = c;
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
                scan_keepn(sc, "<", 1); /* the '<' may have been in the last chunk */
                scan_keepn(sc, &c, 1);
                sc->state = c == '>' ? S_TEXT : S_STAG;
                if (c == '>')
                    scan_push(sc); /* "<>": libxml2 reports it */
            }
            break;
        case S_STAG: /* handled above */
        case S_QUOTE:
            break;
        case S_ETAG:
            if (c == '>') {
                sc->depth -= sc->depth > 0;
                sc->state = S_TEXT;
            }
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
 * The start tag of 'n', which the reader just handed over: its record
 * leaves the queue (its text stays until the next one leaves). False when
 * the scanner cannot tell (then it gives up for the rest of the file).
 */
static bool tag_take(struct rfile *rf, xmlNode *n)
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
    size_t np = n->ns && n->ns->prefix ? strlen((const char *)n->ns->prefix) : 0;
    size_t nn = strlen((const char *)n->name);
    bool same = (size_t)(end - p) > np + (np > 0) + nn &&
                (!np || (memcmp(p, n->ns->prefix, np) == 0 && p[np] == ':')) &&
                memcmp(p + np + (np > 0), n->name, nn) == 0;
    char after = same ? p[np + (np > 0) + nn] : 'x';
    if (!same || !(is_space(after) || after == '/' || after == '>')) {
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

/* ---------------------------------------------------------------- positions */

/*
 * An element's position lives in its node's '_private' slot (line and
 * column of its '<', column + 1 in the low half; NULL: unknown), set when
 * the reader hands the element over.
 */
static void *pos_pack(uint32_t line, uint32_t col)
{
    return (void *)(uintptr_t)(((uint64_t)line << 32) | ((uint64_t)col + 1));
}

/* The element's position: its file, the line of its '<', col 0. */
static struct srcpos pos_of(struct loader *ld, xmlNode *n)
{
    uint64_t v = (uint64_t)(uintptr_t)n->_private;
    if (v)
        return (struct srcpos){ld->rf->f->index, (uint32_t)(v >> 32), 0};
    long line = xmlGetLineNo(n);
    return (struct srcpos){ld->rf->f->index, line > 0 ? (uint32_t)line : 0, 0};
}

/* Position of byte 'i' of the current element's start tag. */
static struct srcpos tag_pos(struct loader *ld, size_t i)
{
    const struct rfile *rf = ld->rf;
    const char *t = rf->sc.buf + rf->tag.start;
    uint32_t line = rf->tag.line, col = rf->tag.col + (uint32_t)i;
    for (size_t k = 0; k < i; k++) {
        if (t[k] == '\n') {
            line++;
            col = (uint32_t)(i - k);
        }
    }
    return (struct srcpos){rf->f->index, line, col};
}

/*
 * Offset of attribute 'name' inside the start tag of 'n' (the element
 * being loaded): of the first character of its value ('value'), else of
 * its name; SIZE_MAX when it cannot be found.
 */
static size_t attr_offset(struct loader *ld, xmlNode *n, const char *name, bool value)
{
    const struct rfile *rf = ld->rf;
    if (n != rf->node || rf->tag.len == 0)
        return SIZE_MAX;
    const char *t = rf->sc.buf + rf->tag.start;
    size_t len = rf->tag.len, nlen = strlen(name), i = 1;
    while (i < len && !is_space(t[i]) && t[i] != '>' && t[i] != '/')
        i++;
    while (i < len) {
        while (i < len && is_space(t[i]))
            i++;
        if (i >= len || t[i] == '>' || t[i] == '/')
            return SIZE_MAX;
        size_t start = i;
        while (i < len && t[i] != '=' && !is_space(t[i]))
            i++;
        bool match = i - start == nlen && memcmp(t + start, name, nlen) == 0;
        while (i < len && (is_space(t[i]) || t[i] == '='))
            i++;
        if (i >= len || (t[i] != '"' && t[i] != '\''))
            return SIZE_MAX;
        char q = t[i++];
        if (match)
            return value ? i : start;
        const char *end = memchr(t + i, q, len - i);
        if (!end)
            return SIZE_MAX;
        i = (size_t)(end - t) + 1;
    }
    return SIZE_MAX;
}

/* Position of attribute 'name' itself (its name) in the start tag; the element's when unknown. */
static struct srcpos attr_pos(struct loader *ld, xmlNode *n, const char *name)
{
    size_t i = attr_offset(ld, n, name, false);
    return i == SIZE_MAX ? pos_of(ld, n) : tag_pos(ld, i);
}

/*
 * Position of character 'off' (0-based, in the value libxml2 gives) of
 * attribute 'name': a character or entity reference in the raw text counts
 * as one character. Line only when the value cannot be found.
 */
static struct srcpos value_pos(struct loader *ld, xmlNode *n, const char *name, size_t off)
{
    size_t i = attr_offset(ld, n, name, true);
    if (i == SIZE_MAX)
        return pos_of(ld, n);
    const char *t = ld->rf->sc.buf + ld->rf->tag.start;
    size_t len = ld->rf->tag.len;
    char quote = t[i - 1];
    for (size_t k = 0; k < off && i < len && t[i] != quote; k++) {
        if (t[i] == '&') {
            const char *semi = memchr(t + i, ';', len - i);
            i = semi ? (size_t)(semi - t) : i;
        }
        i++;
    }
    return tag_pos(ld, i);
}

/* ---------------------------------------------------------------- libxml2 errors */

/* Copies libxml2's message without its trailing newline (first line only). */
static void trim_message(char *out, size_t size, const char *msg)
{
    size_t n = msg ? strcspn(msg, "\n") : 0;
    while (n > 0 && is_space(msg[n - 1]))
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
    if (j > len || memcmp(t + i, name, n) != 0 || (i > 0 && !is_space(t[i - 1])))
        return false;
    while (j < len && is_space(t[j]))
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

/* sscanf that must consume all of 'msg' (sscanf alone accepts a matching prefix). */
#define MATCHES(msg, fmt, ...) (n_ = -1, sscanf(msg, fmt "%n", __VA_ARGS__, &n_), n_ >= 0 && (msg)[n_] == '\0')

static void not_allowed_message(struct loader *ld, char *out, size_t size, const char *name,
                                const xmlNode *n);

/*
 * A Relax-NG message in our words; libxml2's own text when no rule matches;
 * "" to drop it; 'n': the element it is about, if known. True when, after
 * this error, the streaming validator has lost its place: an element (or
 * text) it did not expect leaves its stack of open elements one off, and
 * each element after it is then judged against the wrong parent (one
 * misspelled <field> gave 225 errors).
 */
static bool schema_message(struct loader *ld, char *out, size_t size, const char *msg,
                           const xmlNode *n)
{
    char a[128], b[128];
    int n_;
    out[0] = '\0';
    if (MATCHES(msg, "Invalid attribute %127s for element %127s", a, b))
        return false; /* check_attributes() finds every unknown attribute, with its place */
    if (MATCHES(msg, "Element %127s failed to validate attributes", a))
        return false; /* check_attributes() says which attribute, and where */
    if (strcmp(msg, "Invalid sequence in interleave") == 0)
        return false; /* the schema's interleaves hold attributes: check_attributes() again */
    if (MATCHES(msg, "Did not expect element %127s there", a)) {
        not_allowed_message(ld, out, size, a, n);
        return true;
    }
    if (MATCHES(msg, "Element %127s has extra content: %127s", a, b)) {
        not_allowed_message(ld, out, size, b, n); /* a child of an element that has none */
        return true;
    }
    if (MATCHES(msg, "Did not expect text in element %127s content", a))
        return true; /* check_text() names the element (the streaming validator names none,
                        or the last one it saw) */
    if (MATCHES(msg, "Expecting element %127[^,], got %127s", a, b))
        snprintf(out, size, "expected element '%s', found '%s'", a, b);
    else if (MATCHES(msg, "Expecting an element %127[^,], got nothing", a))
        snprintf(out, size, "element '%s' is missing", a);
    else
        trim_message(out, size, msg);
    return false;
}
#undef MATCHES

/* A schema error at 'pos', or at the position 'node' will have once it is handed over. */
static void schema_err_add(struct rfile *rf, struct srcpos pos, xmlNode *node, const char *msg)
{
    for (size_t i = rf->nschema; i > 0 && !node && rf->schema[i - 1].pos.line == pos.line; i--)
        if (!rf->schema[i - 1].node && strcmp(rf->schema[i - 1].msg, msg) == 0)
            return; /* the same error found twice (the latest ones are on the same line) */
    if (rf->nschema == rf->schema_cap)
        rf->schema = xgrow(rf->schema, &rf->schema_cap, rf->nschema + 1, sizeof(*rf->schema));
    rf->schema[rf->nschema++] = (struct schema_err){pos, xstrdup(msg), node};
}

static void report_schema_error(struct rfile *rf, const xmlError *e)
{
    char raw[256], msg[320];
    rf->schema_raw++;
    if (rf->own)
        return; /* lost and switched off: anything more would follow from the first */
    trim_message(raw, sizeof(raw), e->message);
    xmlNode *n = e->node;
    bool elem = n && n->type == XML_ELEMENT_NODE;
    if (schema_message(rf->ld, msg, sizeof(msg), raw, elem ? n : NULL))
        rf->lost = true;
    if (!msg[0])
        return;
    struct srcpos p = {rf->f->index, e->line > 0 ? (uint32_t)e->line : 0, 0};
    if (elem) {
        if (!n->_private) { /* not handed over yet: placed by place_schema_errors() */
            schema_err_add(rf, p, n, msg);
            return;
        }
        p = pos_of(rf->ld, n);
    }
    schema_err_add(rf, p, NULL, msg);
}

/* The reader's errors (parser and validator) for the file being read. */
static void on_reader_error(void *arg, xmlErrorPtr e)
{
    struct rfile *rf = arg;
    if (!rf || e->level == XML_ERR_WARNING)
        return;
    if (e->domain == XML_FROM_RELAXNGV)
        report_schema_error(rf, e);
    else if (e->domain == XML_FROM_RELAXNGP)
        report_fatal(rf, DIAG_SCHEMA, (struct srcpos){0, 0, 0}, "built-in schema: %s",
                     e->message ? e->message : "?");
    else if (!rf->stopped) /* after a refusal, libxml2 only finds the input cut short */
        report_parser_error(rf, e);
}

/* Errors that do not come through a reader (setting one up, compiling the schema). */
static void on_error(void *data, xmlErrorPtr e)
{
    struct loader *ld = data;
    if (ld->rf)
        on_reader_error(ld->rf, e);
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

/* 'suggested': an unknown attribute of 'n' is reported as a misspelling of this one. */
static void check_attribute(struct loader *ld, xmlNode *n, const struct schema_attr *at,
                            bool suggested)
{
    char msg[512];
    xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)at->name);
    if (!v && at->required && !suggested) {
        snprintf(msg, sizeof(msg), "element '%s': missing attribute '%s'", (const char *)n->name,
                 at->name);
        schema_err_add(ld->rf, pos_of(ld, n), NULL, msg);
    }
    bool known = !v || !at->values[0];
    for (size_t i = 0; !known && at->values[i]; i++)
        known = strcmp(at->values[i], (const char *)v) == 0;
    if (!known) {
        char list[256];
        list_values(list, sizeof(list), at->values);
        snprintf(msg, sizeof(msg), "element '%s': attribute '%s' is '%.60s', expected %s",
                 (const char *)n->name, at->name, (const char *)v, list);
        schema_err_add(ld->rf, value_pos(ld, n, at->name, 0), NULL, msg);
    }
    xmlFree(v);
}

/* Missing attributes and values outside the schema's lists, with positions libxml2 lacks. */
/*
 * Attributes that go together (an <optional> group): given one, the others
 * of its group and of the groups holding it are missing. (libxml2 calls the
 * attribute given "invalid" then; schema_message() drops that.)
 */
static void check_attribute_groups(struct loader *ld, xmlNode *n, const struct schema_elem *e)
{
    const char *given[ARRAY_SIZE(e->group_parent)] = {0}; /* an attribute that uses group g */
    for (size_t i = 0; i < e->nattrs; i++) {
        const struct schema_attr *at = &e->attrs[i];
        if (!at->group || !xmlHasProp(n, (const xmlChar *)at->name))
            continue;
        for (unsigned g = at->group; g && !given[g]; g = e->group_parent[g])
            given[g] = at->name;
    }
    char msg[512];
    for (size_t i = 0; i < e->nattrs; i++) {
        const struct schema_attr *at = &e->attrs[i];
        const char *with = at->group ? given[at->group] : NULL;
        if (!with || xmlHasProp(n, (const xmlChar *)at->name))
            continue;
        snprintf(msg, sizeof(msg), "element '%s': attribute '%s' needs attribute '%s'",
                 (const char *)n->name, with, at->name);
        schema_err_add(ld->rf, pos_of(ld, n), NULL, msg);
    }
}

/*
 * Attributes the schema does not give the element, reported where they are
 * written, each with the closest one it does give ("did you mean"); that
 * one, when missing, is not reported missing too: suggested[i] is set for
 * attrs[i].
 */
static void check_unknown_attributes(struct loader *ld, xmlNode *n, const struct schema_elem *e,
                                     bool *suggested)
{
    for (xmlAttr *a = n->properties; a && !e->truncated; a = a->next) {
        const char *name = (const char *)a->name;
        if (!a->ns && schema_attr_find(e, name))
            continue;
        struct util_suggest sg;
        util_suggest_init(&sg, name);
        for (size_t i = 0; i < e->nattrs; i++)
            if (!xmlHasProp(n, (const xmlChar *)e->attrs[i].name))
                util_suggest_add(&sg, e->attrs[i].name);
        const char *best = util_suggest_best(&sg);
        if (best)
            suggested[schema_attr_find(e, best) - e->attrs] = true;
        char msg[512], hint[160], qname[260];
        const char *prefix = a->ns && a->ns->prefix ? (const char *)a->ns->prefix : "";
        snprintf(qname, sizeof(qname), "%s%s%.120s", prefix, *prefix ? ":" : "", name);
        snprintf(msg, sizeof(msg), "element '%s': unknown attribute '%s'%s", (const char *)n->name,
                 qname, diag_hint(hint, sizeof(hint), best));
        schema_err_add(ld->rf, a->ns ? pos_of(ld, n) : attr_pos(ld, n, name), NULL, msg);
    }
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
 * one the schema has; a known one that 'n' (the element, if known) places
 * in a parent that never holds it, with the parents that do (when few).
 */
static void not_allowed_message(struct loader *ld, char *out, size_t size, const char *name,
                                const xmlNode *n)
{
    const xmlNode *p = n ? n->parent : NULL;
    const struct schema_elem *pe =
        p && p->type == XML_ELEMENT_NODE ? schema_elem_find(ld->sc, (const char *)p->name) : NULL;
    if (!pe || !schema_elem_find(ld->sc, name) || schema_elem_has_child(pe, name)) {
        char hint[160];
        snprintf(out, size, "element '%.120s' is not allowed here%s", name,
                 diag_hint(hint, sizeof(hint), suggest_element(ld, name)));
        return;
    }
    const char *parents[5] = {0}; /* up to 4 (more say little), NULL-terminated */
    size_t np = 0;
    for (size_t i = 0; i < ld->sc->nelems && np < ARRAY_SIZE(parents); i++)
        if (schema_elem_has_child(&ld->sc->elems[i], name))
            parents[np++] = ld->sc->elems[i].name;
    char list[160] = "";
    if (np < ARRAY_SIZE(parents))
        list_values(list, sizeof(list), parents);
    snprintf(out, size, "element '%.40s' is not allowed in '%.40s'%s%.150s", name, pe->name,
             list[0] ? ": it goes in " : "", list);
}

/* The attributes of the element being loaded, against the schema's table. */
static void check_attributes(struct loader *ld, xmlNode *n)
{
    const struct schema_elem *e = schema_elem_find(ld->sc, (const char *)n->name);
    bool suggested[ARRAY_SIZE(e->attrs)] = {0};
    if (e)
        check_unknown_attributes(ld, n, e, suggested);
    for (size_t i = 0; e && i < e->nattrs; i++)
        check_attribute(ld, n, &e->attrs[i], suggested[i]);
    if (e && e->ngroups)
        check_attribute_groups(ld, n, e);
}

/*
 * After libxml2's validator has lost its place (rf->own), the schema table
 * judges where each element stands, by its name under its parent's (as the
 * schema has no order or count that matters past the first error). A
 * misplaced element is reported once, and nothing inside it is judged:
 * what its children break follows from it. False: 'n', at 'depth', is
 * misplaced or inside a misplaced element.
 */
static bool check_placement(struct loader *ld, xmlNode *n, int depth)
{
    struct rfile *rf = ld->rf;
    if (rf->misplaced >= 0 && depth > rf->misplaced)
        return false;
    rf->misplaced = -1;
    xmlNode *p = n->parent;
    if (!rf->own || depth == 0 || !p || p->type != XML_ELEMENT_NODE)
        return true;
    const struct schema_elem *pe = schema_elem_find(ld->sc, (const char *)p->name);
    if (!pe || (!n->ns && schema_elem_has_child(pe, (const char *)n->name)))
        return true;
    char msg[320];
    not_allowed_message(ld, msg, sizeof(msg), (const char *)n->name, n);
    schema_err_add(rf, pos_of(ld, n), NULL, msg);
    rf->misplaced = depth;
    return false;
}

/* The same for text at 'depth' (rf->own): in an element that may hold it, not in a misplaced one. */
static void check_text(struct loader *ld, xmlNode *t, int depth)
{
    struct rfile *rf = ld->rf;
    xmlNode *p = t->parent;
    if (!rf->own || (rf->misplaced >= 0 && depth > rf->misplaced) || !p ||
        p->type != XML_ELEMENT_NODE)
        return;
    const struct schema_elem *pe = schema_elem_find(ld->sc, (const char *)p->name);
    if (!pe || pe->text)
        return;
    char msg[320];
    snprintf(msg, sizeof(msg), "element '%.120s' may not contain text", (const char *)p->name);
    schema_err_add(rf, pos_of(ld, p), NULL, msg);
}

/* ---------------------------------------------------------------- values */

/*
 * Attribute 'name' copied into the arena, or NULL when absent. A value the
 * parser left as one text node (always, for our specs: entities are
 * refused) is copied straight from it; xmlGetNoNsProp() would first make a
 * malloc'd copy, and this runs for every attribute of every field.
 */
/* A value of attribute 'attr' that xmlvalue.c refused, reported where it goes wrong. */
static void report_value(struct loader *ld, xmlNode *n, const char *attr,
                         const struct value_error *err)
{
    report(ld, err->code, value_pos(ld, n, attr, err->at), "%s", err->msg);
}

static const char *get(struct loader *ld, xmlNode *n, const char *name)
{
    for (xmlAttr *at = n->properties; at; at = at->next) {
        if (at->ns || strcmp((const char *)at->name, name) != 0)
            continue;
        xmlNode *t = at->children;
        if (!t)
            return arena_strdup(ld->a, "");
        if (t->type == XML_TEXT_NODE && !t->next)
            return arena_strdup(ld->a, (const char *)t->content);
        break;
    }
    xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)name);
    if (!v)
        return NULL;
    const char *s = arena_strdup(ld->a, (const char *)v);
    xmlFree(v);
    return s;
}

static bool get_bool(struct loader *ld, xmlNode *n, const char *name)
{
    const char *v = get(ld, n, name);
    return v && strcmp(v, "true") == 0;
}

/* The desc= attribute (folded), else NULL; a <desc> child replaces it (end_element()). */
static const char *desc_of(struct loader *ld, xmlNode *n)
{
    const char *d = get(ld, n, "desc");
    return d ? value_fold_text(ld->a, d) : NULL;
}

/* Numeric attribute: false when absent or invalid (reported). */
static bool get_num(struct loader *ld, xmlNode *n, const char *name, uint64_t *out)
{
    const char *v = get(ld, n, name);
    if (!v)
        return false;
    struct value_error err;
    if (value_number(ld->a, name, v, out, &err))
        return true;
    report_value(ld, n, name, &err);
    return false;
}

/*
 * A number stored in an 'unsigned' (width, size, index). A larger one is
 * reported here, as written: stored, it would be some other number.
 */
static bool get_num_max(struct loader *ld, xmlNode *n, const char *name, uint64_t max,
                        uint64_t *out)
{
    uint64_t v;
    if (!get_num(ld, n, name, &v))
        return false;
    if (v > max) {
        report(ld, DIAG_BAD_NUMBER, value_pos(ld, n, name, 0),
               "'%s' is %s, out of range (at most %" PRIu64 ")", name, get(ld, n, name), max);
        return false;
    }
    *out = v;
    return true;
}

static unsigned get_uint(struct loader *ld, xmlNode *n, const char *name, unsigned dflt)
{
    uint64_t v;
    return get_num_max(ld, n, name, UINT_MAX, &v) ? (unsigned)v : dflt;
}

static void cite_of(struct loader *ld, xmlNode *n, struct model_cite *c)
{
    c->src = get(ld, n, "src");
    c->table = get(ld, n, "table");
    c->page = get(ld, n, "page");
    c->section = get(ld, n, "section");
    c->cite = get(ld, n, "cite");
    c->pos = pos_of(ld, n);
}

static struct model_role role_of(struct loader *ld, xmlNode *n, const char *name)
{
    return (struct model_role){get(ld, n, name), NULL};
}

/* ---------------------------------------------------------------- registers */

/* name="BASE" or name="BASE{HI-LO}" / "BASE{LO-HI}" */
static void parse_reg_name(struct loader *ld, xmlNode *n, struct model_reg *r)
{
    struct value_array_name an;
    struct value_error err;
    bool ok = value_array_name(ld->a, r->written_name, &an, &err);
    r->name = an.name;
    r->first = an.first;
    r->count = an.count;
    r->is_array = an.is_array;
    r->descending = an.descending;
    if (!ok)
        report_value(ld, n, "name", &err);
}

/* <field name= bits= access= reset= desc=> <desc/> <value/>* </field> */
static struct model_value *load_value(struct loader *ld, xmlNode *n)
{
    struct model_value *v = arena_zalloc(ld->a, sizeof(*v));
    v->name = get(ld, n, "name");
    get_num(ld, n, "value", &v->value);
    v->undefined = get_bool(ld, n, "undefined");
    v->desc = desc_of(ld, n);
    v->pos = pos_of(ld, n);
    return v;
}

static struct model_field *new_field(struct loader *ld, xmlNode *n, struct model_reg *r)
{
    struct model_field *f = arena_zalloc(ld->a, sizeof(*f));
    const char *bits = get(ld, n, "bits");
    struct value_error err;
    if (bits && !value_bits(ld->a, bits, &f->msb, &f->lsb, &err))
        report_value(ld, n, "bits", &err);
    f->access_text = get(ld, n, "access");
    f->access = f->access_text ? regc_access_parse(f->access_text) : REGC_ACCESS_UNKNOWN;
    f->reg = r;
    f->pos = pos_of(ld, n);
    f->cite.pos = f->pos;
    return f;
}

static struct model_field *load_field(struct loader *ld, xmlNode *n, struct model_reg *r)
{
    struct model_field *f = new_field(ld, n, r);
    f->name = get(ld, n, "name");
    get_num(ld, n, "reset", &f->reset);
    f->desc = desc_of(ld, n);
    cite_of(ld, n, &f->cite);
    return f;
}

/* <gap bits= access= why=>: an implicit field named rsv (ig for access ig) */
static struct model_field *load_gap(struct loader *ld, xmlNode *n, struct model_reg *r)
{
    struct model_field *f = new_field(ld, n, r);
    f->name = f->access_text && strcmp(f->access_text, "ig") == 0 ? "ig" : "rsv";
    const char *why = get(ld, n, "why");
    f->desc = why ? value_fold_text(ld->a, why) : NULL;
    f->implicit = true;
    return f;
}

/* <rule name= expr= cite...>message</rule> */
static struct model_rule *load_rule(struct loader *ld, xmlNode *n)
{
    struct model_rule *ru = arena_zalloc(ld->a, sizeof(*ru));
    ru->name = get(ld, n, "name");
    ru->expr_text = get(ld, n, "expr");
    ru->expr_pos = value_pos(ld, n, "expr", 0);
    cite_of(ld, n, &ru->cite);
    ru->pos = pos_of(ld, n);
    if (!ru->expr_text)
        return ru;
    struct expr_error err;
    ru->expr = expr_parse(ld->a, ru->expr_text, &err);
    if (!ru->expr)
        report(ld, DIAG_RULE_SYNTAX, value_pos(ld, n, "expr", err.offset), "rule '%s': %s",
                    ru->name ? ru->name : "?", err.message);
    return ru;
}

/* <metric name= formula= unit= scale= desc= cite...> (docs/regspec.md, "Metrics") */
static struct model_metric *load_metric(struct loader *ld, xmlNode *n)
{
    struct model_metric *m = arena_zalloc(ld->a, sizeof(*m));
    m->name = get(ld, n, "name");
    m->formula = get(ld, n, "formula");
    m->formula_pos = value_pos(ld, n, "formula", 0);
    m->unit = get(ld, n, "unit");
    m->unit_pos = value_pos(ld, n, "unit", 0);
    m->scale_text = get(ld, n, "scale");
    m->scale = 1;
    m->desc = desc_of(ld, n);
    cite_of(ld, n, &m->cite);
    m->pos = pos_of(ld, n);
    if (m->scale_text) { /* a NUMBER of the formula language (metric.h), nothing else */
        struct metric_error serr;
        const struct metric_node *sn = metric_parse(ld->a, m->scale_text, &serr);
        m->scale = sn && sn->op == METRIC_OP_NUM ? sn->value : 0;
        if (m->scale == 0)
            report(ld, DIAG_METRIC_SYNTAX, value_pos(ld, n, "scale", 0),
                   "metric '%s': scale '%s' is not a finite non-zero number (e.g. 1e-9, 100)",
                   m->name ? m->name : "?", m->scale_text);
    }
    if (!m->formula)
        return m;
    struct metric_error err;
    m->expr = metric_parse(ld->a, m->formula, &err);
    if (!m->expr)
        report(ld, DIAG_METRIC_SYNTAX, value_pos(ld, n, "formula", err.offset), "metric '%s': %s",
               m->name ? m->name : "?", err.message);
    return m;
}

/* <at instance= address=> */
static struct model_at *load_at(struct loader *ld, xmlNode *n)
{
    struct model_at *at = arena_zalloc(ld->a, sizeof(*at));
    at->instance_name = get(ld, n, "instance");
    get_num(ld, n, "address", &at->address);
    at->pos = pos_of(ld, n);
    return at;
}

/* address= and stride=, or addresses=: which the register gives, and whether they fit its form. */
static void load_reg_address(struct loader *ld, xmlNode *n, struct model_reg *r)
{
    const char *address = get(ld, n, "address"), *stride = get(ld, n, "stride");
    const char *addresses = get(ld, n, "addresses");
    const char *name = r->written_name ? r->written_name : "?";
    if (addresses && (address || stride)) {
        report(ld, DIAG_BAD_ARRAY, value_pos(ld, n, "addresses", 0),
                    "register '%s' gives 'addresses' and '%s': give one or the other", name,
                    address ? "address" : "stride");
        return;
    }
    if (addresses) {
        if (!r->is_array) {
            report(ld, DIAG_BAD_ARRAY, value_pos(ld, n, "addresses", 0),
                        "register '%s' is not an array: 'addresses' needs a name such as "
                        "'%s{3-0}'", name, name);
            return;
        }
        struct value_error err;
        bool listed = value_addresses(ld->a, addresses, &r->addrs, &r->naddrs, &err);
        if (!listed)
            report_value(ld, n, "addresses", &err);
        if (listed && r->naddrs != r->count)
            report(ld, DIAG_BAD_ARRAY, value_pos(ld, n, "addresses", 0),
                        "register array '%s' has %u elements but 'addresses' lists %zu",
                        name, r->count, r->naddrs);
        if (r->naddrs != r->count) {
            r->addrs = NULL;
            r->naddrs = 0;
        }
        r->address = r->addrs ? r->addrs[0] : 0;
        return;
    }
    if (!address) { /* the schema allows either form, so it cannot say this */
        report(ld, DIAG_SCHEMA, r->pos,
                    "element 'register': missing attribute 'address' (or 'addresses')");
        return;
    }
    get_num(ld, n, "address", &r->address);
    bool has_stride = get_num(ld, n, "stride", &r->stride);
    if (r->is_array && !has_stride && !stride)
        report(ld, DIAG_BAD_ARRAY, r->pos, "register array '%s' has no 'stride'",
                    r->written_name);
}

/* <register name= space= address= stride= | addresses= width= size= reset= gaps= desc= cite...> */
static struct model_reg *load_register(struct loader *ld, xmlNode *n, struct model_block *b)
{
    struct model_reg *r = arena_zalloc(ld->a, sizeof(*r));
    r->pos = pos_of(ld, n);
    r->block = b;
    r->written_name = get(ld, n, "name");
    if (r->written_name)
        parse_reg_name(ld, n, r);
    load_reg_address(ld, n, r);
    r->space = value_space(get(ld, n, "space"));
    r->width = get_uint(ld, n, "width", 0);
    r->size = get_uint(ld, n, "size", r->space == SPACE_MSR ? 64 : 32);
    r->has_reset = get_num(ld, n, "reset", &r->reset);
    const char *gaps = get(ld, n, "gaps");
    r->gaps = gaps ? gaps : b->gaps ? b->gaps : ld->spec->gaps;
    r->desc = desc_of(ld, n);
    cite_of(ld, n, &r->cite);
    return r;
}

/* ---------------------------------------------------------------- events */

/* <set register= field= value=> */
static struct model_set *load_set(struct loader *ld, xmlNode *n)
{
    struct model_set *s = arena_zalloc(ld->a, sizeof(*s));
    s->reg_name = get(ld, n, "register");
    s->field_name = get(ld, n, "field");
    get_num(ld, n, "value", &s->value);
    s->pos = pos_of(ld, n);
    return s;
}

/* <event name= code= umask= counters=> (<set/>|<sub/>)* or <sub name= umask= counters=> <set/>* */
static struct model_event *load_event(struct loader *ld, xmlNode *n, struct model_events *t,
                                      struct model_event *parent)
{
    struct model_event *e = arena_zalloc(ld->a, sizeof(*e));
    e->name = get(ld, n, "name");
    e->parent = parent;
    e->table = t;
    e->pos = pos_of(ld, n);
    e->full_name = parent && parent->name && e->name
                       ? arena_printf(ld->a, "%s.%s", parent->name, e->name)
                       : e->name;
    if (parent)
        e->code = parent->code;
    else
        get_num(ld, n, "code", &e->code);
    e->has_umask = get_num(ld, n, "umask", &e->umask);
    e->counters_text = get(ld, n, "counters");
    e->perfmon = get(ld, n, "perfmon");
    const char *combine = get(ld, n, "combine");
    e->combine_or = combine && strcmp(combine, "or") == 0;
    value_words(ld->a, get(ld, n, "filters"), &e->filters, &e->nfilters);
    value_words(ld->a, get(ld, n, "unmodelled-filters"), &e->unmodelled, &e->nunmodelled);
    e->counter_mask = UINT64_MAX;
    struct value_error err;
    if (e->counters_text) {
        e->has_counters = value_counters(ld->a, e->counters_text, &e->counter_mask, &err);
        if (!e->has_counters)
            report_value(ld, n, "counters", &err);
    } else if (parent && parent->has_counters)
        e->has_counters = true, e->counter_mask = parent->counter_mask,
        e->counters_text = parent->counters_text;
    e->desc = desc_of(ld, n);
    cite_of(ld, n, &e->cite);
    return e;
}

/* <events register= code-field= umask-field= title=> <event/>* */
static struct model_events *load_events(struct loader *ld, xmlNode *n, struct model_block *b)
{
    struct model_events *t = arena_zalloc(ld->a, sizeof(*t));
    t->reg_name = get(ld, n, "register");
    t->code_field_name = get(ld, n, "code-field");
    t->umask_field_name = get(ld, n, "umask-field");
    t->title = get(ld, n, "title");
    t->desc = desc_of(ld, n);
    cite_of(ld, n, &t->cite);
    t->block = b;
    t->pos = pos_of(ld, n);
    return t;
}

/* ---------------------------------------------------------------- pmon */

/* <filter register= field= match= traffic= perf= example= desc=> */
static struct model_filter *load_filter(struct loader *ld, xmlNode *n)
{
    struct model_filter *f = arena_zalloc(ld->a, sizeof(*f));
    f->reg_name = get(ld, n, "register");
    f->field_name = get(ld, n, "field");
    f->match = get(ld, n, "match");
    f->traffic = get(ld, n, "traffic");
    f->perf = get(ld, n, "perf");
    f->example = get(ld, n, "example");
    f->desc = desc_of(ld, n);
    cite_of(ld, n, &f->cite);
    f->pos = pos_of(ld, n);
    return f;
}

/* <unmodelled-filter name= what= desc=> */
static struct model_unmodelled_filter *load_unmodelled_filter(struct loader *ld, xmlNode *n)
{
    struct model_unmodelled_filter *f = arena_zalloc(ld->a, sizeof(*f));
    f->name = get(ld, n, "name");
    f->what = get(ld, n, "what");
    f->desc = desc_of(ld, n);
    cite_of(ld, n, &f->cite);
    f->pos = pos_of(ld, n);
    return f;
}

/* <rdpmc processor= first= high-zero=> */
static struct model_rdpmc *load_rdpmc(struct loader *ld, xmlNode *n)
{
    struct model_rdpmc *r = arena_zalloc(ld->a, sizeof(*r));
    r->processor = get(ld, n, "processor");
    r->first = get_uint(ld, n, "first", 0);
    r->high_zero = get_bool(ld, n, "high-zero");
    cite_of(ld, n, &r->cite);
    r->pos = pos_of(ld, n);
    return r;
}

/* direction-field= direction-up= direction-down= direction-up-down= of <counters> */
static void load_directions(struct loader *ld, xmlNode *n, struct model_counters *c)
{
    static const char *const attr[DIRECTION_COUNT] = {"direction-up", "direction-down",
                                                      "direction-up-down"};
    c->direction_field = role_of(ld, n, "direction-field");
    for (int d = 0; d < DIRECTION_COUNT; d++)
        c->directions[d].given = get_num(ld, n, attr[d], &c->directions[d].value);
}

/* <counters kind= control= counter= count-field= width= overflow= wrap-field= roles... preload=> */
static struct model_counters *load_counters(struct loader *ld, xmlNode *n)
{
    struct model_counters *c = arena_zalloc(ld->a, sizeof(*c));
    const char *kind = get(ld, n, "kind"), *overflow = get(ld, n, "overflow");
    const char *preload = get(ld, n, "preload");
    c->kind = kind && strcmp(kind, "fixed") == 0 ? COUNTERS_FIXED : COUNTERS_GENERAL;
    c->control_name = get(ld, n, "control");
    c->counter_name = get(ld, n, "counter");
    c->count_field = role_of(ld, n, "count-field");
    c->width = get_uint(ld, n, "width", 0);
    c->overflow = overflow && strcmp(overflow, "stop") == 0 ? OVERFLOW_STOP : OVERFLOW_WRAP;
    c->wrap_field = role_of(ld, n, "wrap-field");
    c->enable = role_of(ld, n, "enable");
    c->reset = role_of(ld, n, "reset");
    c->pmi = role_of(ld, n, "pmi");
    c->edge = role_of(ld, n, "edge");
    c->invert = role_of(ld, n, "invert");
    c->threshold = role_of(ld, n, "threshold");
    c->event = role_of(ld, n, "event");
    c->umask = role_of(ld, n, "umask");
    load_directions(ld, n, c);
    c->preload_minus_one = preload && strcmp(preload, "2^w-1-N") == 0;
    c->freeze_on_overflow = get_bool(ld, n, "freeze-on-overflow");
    c->has_status_first = get(ld, n, "status-first") != NULL;
    c->status_first = (unsigned)get_uint(ld, n, "status-first", 0);
    cite_of(ld, n, &c->cite);
    c->pos = pos_of(ld, n);
    return c;
}

/* <box-control register= freeze= freeze-enable= reset-counters= reset-controls= enable=> */
static struct model_box_control *load_box_control(struct loader *ld, xmlNode *n)
{
    struct model_box_control *bc = arena_zalloc(ld->a, sizeof(*bc));
    bc->reg_name = get(ld, n, "register");
    bc->freeze = role_of(ld, n, "freeze");
    bc->freeze_enable = role_of(ld, n, "freeze-enable");
    bc->reset_counters = role_of(ld, n, "reset-counters");
    bc->reset_controls = role_of(ld, n, "reset-controls");
    bc->enable = role_of(ld, n, "enable");
    cite_of(ld, n, &bc->cite);
    bc->pos = pos_of(ld, n);
    return bc;
}

/* clear="w1c|write0|none" clear-register= clear-field=: default w1c, CLEAR_REGISTER when a
 * register is named */
static enum model_clear clear_of(struct loader *ld, xmlNode *n, const char **reg,
                                 struct model_role *field)
{
    const char *clear = get(ld, n, "clear");
    *reg = get(ld, n, "clear-register");
    *field = role_of(ld, n, "clear-field");
    bool none = clear && strcmp(clear, "none") == 0;
    if (none && *reg) /* the schema cannot say that two attributes exclude each other */
        report(ld, DIAG_SCHEMA, value_pos(ld, n, "clear", 0),
                    "element '%s': clear=\"none\" says nothing clears the bits, but "
                    "clear-register names a register that does: give one of them",
                    (const char *)n->name);
    if (*reg)
        return CLEAR_REGISTER;
    if (none)
        return CLEAR_NONE;
    return clear && strcmp(clear, "write0") == 0 ? CLEAR_WRITE0 : CLEAR_W1C;
}

/* <box-status register= overflow= clear...> */
static struct model_box_status *load_box_status(struct loader *ld, xmlNode *n)
{
    struct model_box_status *bs = arena_zalloc(ld->a, sizeof(*bs));
    bs->reg_name = get(ld, n, "register");
    bs->overflow = role_of(ld, n, "overflow");
    bs->clear = clear_of(ld, n, &bs->clear_reg_name, &bs->clear_field);
    cite_of(ld, n, &bs->cite);
    bs->pos = pos_of(ld, n);
    return bs;
}

/* A second <pmon>, <box-control>... where one is allowed. */
static void report_repeated(struct loader *ld, xmlNode *n, struct srcpos first)
{
    report(ld, DIAG_SCHEMA, pos_of(ld, n), "element '%s' may appear only once here",
                (const char *)n->name);
    note(ld, first, "first '%s' is here", (const char *)n->name);
}

/* <pmon> (<counters/>|<box-control/>|<box-status/>)* </pmon>; NULL when the block has one */
static struct model_pmon *load_pmon(struct loader *ld, xmlNode *n, struct model_block *b)
{
    if (b->pmon) {
        report_repeated(ld, n, b->pmon->pos);
        return NULL;
    }
    struct model_pmon *p = arena_zalloc(ld->a, sizeof(*p));
    cite_of(ld, n, &p->cite);
    p->pos = pos_of(ld, n);
    b->pmon = p;
    return p;
}

/* pmi-core="A B C": a list of one-bit fields (bit i of the routing mask: field i); pmi_core keeps the first. */
static void split_pmi_cores(struct loader *ld, struct model_global_control *g)
{
    const char *s = g->pmi_core.name;
    if (!s || !strpbrk(s, " \t,"))
        return;
    size_t n = 0;
    for (const char *p = s; *p;) {
        p += strspn(p, " \t,");
        if (!*p)
            break;
        n++;
        p += strcspn(p, " \t,");
    }
    g->pmi_cores = arena_zalloc(ld->a, n * sizeof(*g->pmi_cores));
    for (const char *p = s; *p;) {
        p += strspn(p, " \t,");
        size_t len = strcspn(p, " \t,");
        if (!len)
            break;
        char *name = arena_zalloc(ld->a, len + 1);
        memcpy(name, p, len);
        g->pmi_cores[g->npmi_cores++] = (struct model_role){name, NULL};
        p += len;
    }
    g->pmi_core = g->pmi_cores[0];
}

/* <global-control block= register= freeze= unfreeze= enable= freeze-on-overflow= pmi-core= wake= reset= select=> */
static struct model_global_control *load_global_control(struct loader *ld, xmlNode *n)
{
    struct model_global_control *g = arena_zalloc(ld->a, sizeof(*g));
    g->block_name = get(ld, n, "block");
    g->reg_name = get(ld, n, "register");
    g->freeze = role_of(ld, n, "freeze");
    g->unfreeze = role_of(ld, n, "unfreeze");
    g->enable = role_of(ld, n, "enable");
    g->freeze_on_overflow = role_of(ld, n, "freeze-on-overflow");
    g->pmi_core = role_of(ld, n, "pmi-core");
    g->select = role_of(ld, n, "select");
    split_pmi_cores(ld, g);
    g->wake = role_of(ld, n, "wake");
    g->reset = role_of(ld, n, "reset");
    cite_of(ld, n, &g->cite);
    g->pos = pos_of(ld, n);
    return g;
}

/* <box-overflow block= field= instance= counters=> */
static struct model_box_overflow *load_box_overflow(struct loader *ld, xmlNode *n)
{
    struct model_box_overflow *o = arena_zalloc(ld->a, sizeof(*o));
    o->block_name = get(ld, n, "block");
    o->field_name = get(ld, n, "field");
    o->instance_name = get(ld, n, "instance");
    o->counters_name = get(ld, n, "counters");
    o->pos = pos_of(ld, n);
    return o;
}

/* <global-status block= register= clear...> <box-overflow/>* */
static struct model_global_status *load_global_status(struct loader *ld, xmlNode *n)
{
    struct model_global_status *g = arena_zalloc(ld->a, sizeof(*g));
    g->block_name = get(ld, n, "block");
    g->reg_name = get(ld, n, "register");
    g->clear = clear_of(ld, n, &g->clear_reg_name, &g->clear_field);
    cite_of(ld, n, &g->cite);
    g->pos = pos_of(ld, n);
    return g;
}

/* <pmon-global> (<global-control/>|<global-status/>)*; NULL when the spec has one */
static struct model_pmon_global *load_pmon_global(struct loader *ld, xmlNode *n)
{
    struct model_spec *s = ld->spec;
    if (s->pmon_global) {
        report_repeated(ld, n, s->pmon_global->pos);
        return NULL;
    }
    struct model_pmon_global *p = arena_zalloc(ld->a, sizeof(*p));
    cite_of(ld, n, &p->cite);
    p->pos = pos_of(ld, n);
    s->pmon_global = p;
    return p;
}

/* ---------------------------------------------------------------- blocks and the spec */

/* <instance name= base= vendor= device= dev= func= desc=> */
static struct model_instance *load_instance(struct loader *ld, xmlNode *n, struct model_block *b)
{
    struct model_instance *in = arena_zalloc(ld->a, sizeof(*in));
    in->name = get(ld, n, "name");
    in->has_base = get_num(ld, n, "base", &in->base);
    /* A PCI locator: vendor and device, each 16 bits; dev (5 bits) and func (3 bits) may be
     * left out, meaning any slot (a bridge sits wherever the board puts it). */
    bool v = get_num_max(ld, n, "vendor", 0xffff, &in->vendor);
    bool d = get_num_max(ld, n, "device", 0xffff, &in->device);
    in->has_dev = get_num_max(ld, n, "dev", 31, &in->dev);
    in->has_func = get_num_max(ld, n, "func", 7, &in->func);
    in->has_pci = v && d;
    /* a locator part without vendor= and device=: the first one given is named */
    bool gv = xmlHasProp(n, (const xmlChar *)"vendor");
    bool gd = xmlHasProp(n, (const xmlChar *)"device");
    const char *part = gv ? "vendor" : gd ? "device"
                     : xmlHasProp(n, (const xmlChar *)"dev") ? "dev"
                     : xmlHasProp(n, (const xmlChar *)"func") ? "func" : NULL;
    if (part && !(gv && gd))
        report(ld, DIAG_SCHEMA, pos_of(ld, n),
               "instance '%s' gives %s= but no %s: a PCI locator needs vendor= and device= "
               "(dev= and func= may be left out: any slot)",
               in->name ? in->name : "?", part,
               gv ? "device=" : gd ? "vendor=" : "vendor= and no device=");
    in->desc = desc_of(ld, n);
    cite_of(ld, n, &in->cite);
    in->block = b;
    in->index = (unsigned)b->ninstances;
    in->pos = pos_of(ld, n);
    return in;
}

/* <source id= title= ref= rev= date= url=> <desc/>? */
static struct model_source *load_source(struct loader *ld, xmlNode *n)
{
    struct model_source *s = arena_zalloc(ld->a, sizeof(*s));
    s->id = get(ld, n, "id");
    s->title = get(ld, n, "title");
    if (s->title)
        s->title = value_fold_text(ld->a, s->title);
    s->ref = get(ld, n, "ref");
    s->rev = get(ld, n, "rev");
    s->date = get(ld, n, "date");
    s->url = get(ld, n, "url");
    s->desc = desc_of(ld, n);
    s->pos = pos_of(ld, n);
    return s;
}

/* <cpu vendor= family= model= name= cite...> */
static struct model_cpu *load_cpu(struct loader *ld, xmlNode *n)
{
    struct model_cpu *cpu = arena_zalloc(ld->a, sizeof(*cpu));
    cpu->vendor = get(ld, n, "vendor");
    cpu->name = get(ld, n, "name");
    get_num(ld, n, "family", &cpu->family);
    get_num(ld, n, "model", &cpu->model);
    cite_of(ld, n, &cpu->cite);
    cpu->pos = pos_of(ld, n);
    return cpu;
}


/* <block name= title= gaps= cite...> children </block> */
static struct model_block *load_block(struct loader *ld, xmlNode *n)
{
    struct model_block *b = arena_zalloc(ld->a, sizeof(*b));
    b->name = get(ld, n, "name");
    b->title = get(ld, n, "title");
    b->gaps = get(ld, n, "gaps");
    b->desc = desc_of(ld, n);
    cite_of(ld, n, &b->cite);
    b->pos = pos_of(ld, n);
    return b;
}

/* <regspec name= prefix= version= title= gaps=> children </regspec> */
static void load_regspec(struct loader *ld, xmlNode *n)
{
    struct model_spec *s = ld->spec;
    s->name = get(ld, n, "name");
    s->prefix = get(ld, n, "prefix");
    s->title = get(ld, n, "title");
    s->gaps = get(ld, n, "gaps");
    s->version = get_uint(ld, n, "version", 0);
    s->desc = desc_of(ld, n);
    s->pos = pos_of(ld, n);
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
    K_LEAF,          /* any other element of the model: only a <desc> child counts */
};

/* Growth state of the lists children are appended to (arena_push needs a capacity). */
struct caps {
    size_t sources, blocks, cpus, metrics, instances, regs, tables;
};

struct frame {
    enum kind kind;
    bool from_part;    /* K_TOP, K_BLOCK: the children of an included <part> */
    void *obj;         /* the model object (K_BLOCK: the block) */
    struct caps *caps; /* K_TOP, K_BLOCK: where their lists grow (a <part>: its includer's) */
    struct caps own;
    struct {           /* growth of the object's own lists, one per list a child joins */
        size_t fields, rules, ats;          /* K_REG (a gap joins fields) */
        size_t values;                      /* K_FIELD */
        size_t events;                      /* K_EVENTS */
        size_t sets, subs;                  /* K_EVENT, K_SUB */
        size_t counters, filters, unmodelled; /* K_PMON */
        size_t rdpmcs;                      /* K_COUNTERS */
        size_t boxes;                       /* K_GLOBAL_STATUS */
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

static void push(struct loader *ld, void *list, size_t *count, size_t *cap, void *item)
{
    arena_push(ld->a, (void ***)list, count, cap, item);
}

static void load_include(struct loader *ld, xmlNode *n, struct frame *at);

/* A child of <regspec>, <block> or an included <part> ('p'); opens 'c' as what it is. */
static void open_top_child(struct loader *ld, struct frame *p, xmlNode *n, const char *name,
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
        struct model_source *src = load_source(ld, n);
        push(ld, &s->sources, &s->nsources, &caps->sources, src);
        open_as(c, K_LEAF, src, &src->desc);
    } else if (!b && strcmp(name, "cpu") == 0) {
        push(ld, &s->cpus, &s->ncpus, &caps->cpus, load_cpu(ld, n));
    } else if (!b && strcmp(name, "metric") == 0) {
        struct model_metric *mt = load_metric(ld, n);
        push(ld, &s->metrics, &s->nmetrics, &caps->metrics, mt);
        open_as(c, K_LEAF, mt, &mt->desc);
    } else if (!b && strcmp(name, "block") == 0) {
        struct model_block *nb = load_block(ld, n);
        push(ld, &s->blocks, &s->nblocks, &caps->blocks, nb);
        open_as(c, K_BLOCK, nb, &nb->desc);
        c->caps = &c->own;
    } else if (!b && strcmp(name, "pmon-global") == 0) {
        struct model_pmon_global *pg = load_pmon_global(ld, n);
        if (pg)
            open_as(c, K_PMON_GLOBAL, pg, NULL);
    } else if (b && strcmp(name, "instance") == 0) {
        struct model_instance *in = load_instance(ld, n, b);
        push(ld, &b->instances, &b->ninstances, &caps->instances, in);
        open_as(c, K_LEAF, in, &in->desc);
    } else if (b && strcmp(name, "register") == 0) {
        struct model_reg *r = load_register(ld, n, b);
        push(ld, &b->regs, &b->nregs, &caps->regs, r);
        open_as(c, K_REG, r, &r->desc);
    } else if (b && strcmp(name, "events") == 0) {
        struct model_events *t = load_events(ld, n, b);
        push(ld, &b->event_tables, &b->nevent_tables, &caps->tables, t);
        open_as(c, K_EVENTS, t, &t->desc);
    } else if (b && strcmp(name, "pmon") == 0) {
        struct model_pmon *pm = load_pmon(ld, n, b);
        if (pm)
            open_as(c, K_PMON, pm, NULL);
    } else if (p->from_part) {
        report(ld, DIAG_SCHEMA, pos_of(ld, n), "element '%s' cannot be included %s", name,
               b ? "inside a block" : "at the top level");
        if (ld->rf->f->included_at.file)
            note(ld, ld->rf->f->included_at, "included here");
    }
}

/* Opens 'c', a child of 'p', as what it is in the model (K_SKIP: nothing). */
static void open_child(struct loader *ld, struct frame *p, xmlNode *n, struct frame *c)
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
            struct model_field *f = load_field(ld, n, r);
            push(ld, &r->fields, &r->nfields, &p->grown.fields, f);
            open_as(c, K_FIELD, f, &f->desc);
        } else if (strcmp(name, "gap") == 0) {
            push(ld, &r->fields, &r->nfields, &p->grown.fields, load_gap(ld, n, r));
        } else if (strcmp(name, "rule") == 0) {
            struct model_rule *ru = load_rule(ld, n);
            push(ld, &r->rules, &r->nrules, &p->grown.rules, ru);
            open_as(c, K_RULE, ru, NULL);
        } else if (strcmp(name, "at") == 0) {
            struct model_at *at = load_at(ld, n);
            push(ld, &r->ats, &r->nats, &p->grown.ats, at);
        }
        break;
    }
    case K_FIELD:
        if (strcmp(name, "value") == 0) {
            struct model_field *f = p->obj;
            struct model_value *v = load_value(ld, n);
            push(ld, &f->values, &f->nvalues, &p->grown.values, v);
            open_as(c, K_LEAF, v, &v->desc);
        }
        break;
    case K_EVENTS:
        if (strcmp(name, "event") == 0) {
            struct model_events *t = p->obj;
            struct model_event *e = load_event(ld, n, t, NULL);
            push(ld, &t->events, &t->nevents, &p->grown.events, e);
            open_as(c, K_EVENT, e, &e->desc);
        }
        break;
    case K_EVENT:
    case K_SUB: {
        struct model_event *e = p->obj;
        if (strcmp(name, "set") == 0) {
            push(ld, &e->sets, &e->nsets, &p->grown.sets, load_set(ld, n));
        } else if (p->kind == K_EVENT && strcmp(name, "sub") == 0) {
            struct model_event *sub = load_event(ld, n, e->table, e);
            push(ld, &e->subs, &e->nsubs, &p->grown.subs, sub);
            open_as(c, K_SUB, sub, &sub->desc);
        }
        break;
    }
    case K_PMON: {
        struct model_pmon *pm = p->obj;
        if (strcmp(name, "counters") == 0) {
            struct model_counters *k = load_counters(ld, n);
            push(ld, &pm->counters, &pm->ncounters, &p->grown.counters, k);
            open_as(c, K_COUNTERS, k, NULL);
        } else if (strcmp(name, "box-control") == 0) {
            if (pm->box_control)
                report_repeated(ld, n, pm->box_control->pos);
            else
                pm->box_control = load_box_control(ld, n);
        } else if (strcmp(name, "box-status") == 0) {
            if (pm->box_status)
                report_repeated(ld, n, pm->box_status->pos);
            else
                pm->box_status = load_box_status(ld, n);
        } else if (strcmp(name, "filter") == 0) {
            struct model_filter *f = load_filter(ld, n);
            push(ld, &pm->filters, &pm->nfilters, &p->grown.filters, f);
            open_as(c, K_LEAF, f, &f->desc);
        } else if (strcmp(name, "unmodelled-filter") == 0) {
            struct model_unmodelled_filter *f = load_unmodelled_filter(ld, n);
            push(ld, &pm->unmodelled, &pm->nunmodelled, &p->grown.unmodelled, f);
            open_as(c, K_LEAF, f, &f->desc);
        }
        break;
    }
    case K_COUNTERS:
        if (strcmp(name, "rdpmc") == 0) {
            struct model_counters *k = p->obj;
            push(ld, &k->rdpmcs, &k->nrdpmcs, &p->grown.rdpmcs, load_rdpmc(ld, n));
        }
        break;
    case K_PMON_GLOBAL: {
        struct model_pmon_global *pg = p->obj;
        if (strcmp(name, "global-control") == 0) {
            if (pg->control)
                report_repeated(ld, n, pg->control->pos);
            else
                pg->control = load_global_control(ld, n);
        } else if (strcmp(name, "global-status") == 0) {
            if (pg->status) {
                report_repeated(ld, n, pg->status->pos);
            } else {
                pg->status = load_global_status(ld, n);
                open_as(c, K_GLOBAL_STATUS, pg->status, NULL);
            }
        }
        break;
    }
    case K_GLOBAL_STATUS:
        if (strcmp(name, "box-overflow") == 0) {
            struct model_global_status *g = p->obj;
            push(ld, &g->boxes, &g->nboxes, &p->grown.boxes, load_box_overflow(ld, n));
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
static bool include_href_ok(struct loader *ld, xmlNode *n, const char *href)
{
    if (href[0] == '/' || strstr(href, "://")) {
        report(ld, DIAG_INCLUDE, value_pos(ld, n, "href", 0),
                    "include '%s' must be a relative path (no URL, no absolute path)", href);
        return false;
    }
    if (href[0] == '\0') {
        report(ld, DIAG_INCLUDE, value_pos(ld, n, "href", 0), "include has an empty 'href'");
        return false;
    }
    return true;
}

/* Refuses a file already part of the spec; false after reporting. */
static bool include_new(struct loader *ld, xmlNode *n, const char *path, const char *real)
{
    struct lfile *prev = find_real(ld, real);
    if (!prev)
        return true;
    struct srcpos at = pos_of(ld, n);
    if (prev->loading)
        report(ld, DIAG_INCLUDE, at, "file '%s' includes itself", path);
    else
        report(ld, DIAG_INCLUDE, at, "file '%s' is included twice", path);
    if (prev->included_at.file)
        note(ld, prev->included_at, "'%s' is first included here", prev->path);
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
    report_fatal(rf, DIAG_NOT_REGSPEC, p,
                "not a regspec: this looks like %s (%s); regc reads the regspec language, "
                "described in docs/regspec.md",
                format, why);
}

static bool is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Offset of the first 'word' standing alone in text[0, len), or SIZE_MAX. */
static size_t find_word(const char *text, size_t len, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= len; i++) {
        if (memcmp(text + i, word, n) == 0 && (i == 0 || !is_ident_char(text[i - 1])) &&
            (i + n == len || !is_ident_char(text[i + n])))
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
    while (i < len && is_space(text[i]))
        i++;
    if (i >= len || text[i] == '<')
        return false;
    static const char *const words[] = {"addrmap", "regfile", "field"};
    for (size_t k = 0; k < ARRAY_SIZE(words); k++) {
        size_t at = find_word(text, len, words[k]);
        size_t j = at == SIZE_MAX ? at : at + strlen(words[k]);
        while (k == 2 && j < len && is_space(text[j]))
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
static bool foreign_root(struct loader *ld, xmlNode *root)
{
    const char *ns = root->ns && root->ns->href ? (const char *)root->ns->href : "";
    char why[200];
    if (!root->ns && strcmp((const char *)root->name, "device") == 0) {
        report_foreign(ld->rf, pos_of(ld, root), "CMSIS-SVD", "root element 'device'");
        return true;
    }
    if (contains_nocase(ns, "ipxact") || contains_nocase(ns, "spirit")) {
        snprintf(why, sizeof(why), "root element '%s' in namespace '%.120s'",
                 (const char *)root->name, ns);
        report_foreign(ld->rf, pos_of(ld, root), "IP-XACT", why);
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

/*
 * Gives schema errors that came before their element was handed over the
 * element's position: the current element, or one below it that the
 * validator read ahead (then its start tag is still queued, in order).
 */
static void place_schema_errors(struct rfile *rf)
{
    for (size_t i = rf->placed; i < rf->nschema; i++) {
        xmlNode *n = rf->schema[i].node;
        if (!n)
            continue;
        rf->schema[i].node = NULL;
        if (n->_private) {
            rf->schema[i].pos = pos_of(rf->ld, n);
            continue;
        }
        size_t k = rf->sc.qhead;
        xmlNode *c = rf->node;
        while (c && c != n) { /* document order below the current element */
            if (c->children && c->type == XML_ELEMENT_NODE)
                c = c->children;
            else {
                while (c && c != rf->node && !c->next)
                    c = c->parent;
                c = c && c != rf->node ? c->next : NULL;
            }
            k += c && c->type == XML_ELEMENT_NODE;
        }
        if (c && !rf->sc.lost && k > rf->sc.qhead && k - 1 < rf->sc.qlen)
            rf->schema[i].pos.line = rf->sc.q[k - 1].line;
        else
            rf->schema[i].pos = pos_of(rf->ld, n);
    }
    rf->placed = rf->nschema;
}

/* The root element: foreign, the one expected, or another (reported at the end if valid). */
static bool open_root(struct loader *ld, xmlNode *n, struct frame *at, struct frame *fr)
{
    struct rfile *rf = ld->rf;
    if (foreign_root(ld, n)) {
        rf->stopped = true;
        return false;
    }
    const char *want = at ? "part" : "regspec";
    if (n->ns || strcmp((const char *)n->name, want) != 0) {
        rf->wrong_root = arena_strdup(ld->a, (const char *)n->name);
        rf->wrong_root_pos = pos_of(ld, n);
        return true;
    }
    if (!at) {
        load_regspec(ld, n);
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
    return !rf->fatal.n && !rf->schema_raw && !rf->wrong_root && !rf->stopped;
}

/* Reads the file's nodes, building the model while the file is sound; false: stopped early. */
static bool read_nodes(struct loader *ld, struct rfile *rf, struct frame *at)
{
    struct frame frames[XMLLOAD_MAX_DEPTH + 1];
    int collect = -1; /* depth of the <desc> or <rule> whose text is read */
    int rc;
    while ((rc = xmlTextReaderRead(rf->reader)) == 1) {
        int type = xmlTextReaderNodeType(rf->reader);
        int depth = xmlTextReaderDepth(rf->reader);
        if (rf->lost && !rf->own) { /* its errors from here on would only follow the first */
            xmlTextReaderRelaxNGSetSchema(rf->reader, NULL);
            rf->own = true;
        }
        if (type == XML_READER_TYPE_ELEMENT) {
            xmlNode *n = xmlTextReaderCurrentNode(rf->reader);
            rf->node = n;
            if (tag_take(rf, n))
                n->_private = pos_pack(rf->tag.line, rf->tag.col);
            place_schema_errors(rf);
            if (depth < 0 || depth >= XMLLOAD_MAX_DEPTH) { /* the scanner lost track */
                report_fatal(rf, DIAG_XML_LIMIT, pos_of(ld, n),
                             "elements nest deeper than %d levels", XMLLOAD_MAX_DEPTH);
                return false;
            }
            if (check_placement(ld, n, depth) && rf->schema_raw)
                check_attributes(ld, n);
            struct frame *fr = &frames[depth];
            memset(fr, 0, sizeof(*fr));
            if (depth == 0 && !open_root(ld, n, at, fr))
                return false;
            if (depth > 0 && file_sound(rf))
                open_child(ld, &frames[depth - 1], n, fr);
            if (fr->kind == K_DESC || fr->kind == K_RULE) {
                collect = depth;
                buf_reset(&ld->text);
            }
            if (!xmlTextReaderIsEmptyElement(rf->reader))
                continue;
            type = XML_READER_TYPE_END_ELEMENT;
        } else if (rf->placed < rf->nschema) {
            place_schema_errors(rf);
        }
        if (type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA)
            check_text(ld, xmlTextReaderCurrentNode(rf->reader), depth);
        if (type == XML_READER_TYPE_END_ELEMENT && depth >= 0 && depth <= XMLLOAD_MAX_DEPTH) {
            if (file_sound(rf))
                close_element(ld, &frames[depth], collect == depth ? ld->text.s : "");
            if (collect == depth)
                collect = -1;
        } else if (collect >= 0 &&
                   (type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA ||
                    type == XML_READER_TYPE_WHITESPACE ||
                    type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE)) {
            const xmlChar *v = xmlTextReaderConstValue(rf->reader);
            if (v)
                buf_adds(&ld->text, (const char *)v);
        }
    }
    place_schema_errors(rf);
    return rc == 0;
}

/* Reads the first bytes (for other formats and the encoding); false on a read error. */
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
        while (p < end && is_space(*p))
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
           (is_space(p[5]) || p[5] == '>' || p[5] == '/');
}

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

/*
 * After a well-formedness error the reader stops; to report every error of
 * the file, as a parser that goes on to the end does, the file is read
 * again by libxml2's parser with no SAX callbacks (nothing is built), its
 * bytes going through the same scanner and its refusals. What the first
 * read found is replaced, unless the second finds nothing (a limit of the
 * reader's own, such as a text node over 10 MB).
 */
static void read_syntax(struct rfile *rf, int options)
{
    if (lseek(rf->fd, (off_t)rf->npeek, SEEK_SET) != (off_t)rf->npeek)
        return;
    struct held first = rf->fatal;
    rf->fatal = (struct held){0};
    scan_release(&rf->sc);
    memset(&rf->sc, 0, sizeof(rf->sc));
    rf->sc.line = 1;
    rf->peek_pos = 0;
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof(sax));
    sax.initialized = XML_SAX2_MAGIC;
    sax.serror = on_reader_error;
    xmlParserCtxtPtr ctxt =
        xmlCreateIOParserCtxt(&sax, rf, read_input, NULL, rf, XML_CHAR_ENCODING_NONE);
    if (!ctxt) {
        rf->fatal = first;
        return;
    }
    xmlCtxtUseOptions(ctxt, options);
    xmlParseDocument(ctxt);
    xmlFreeParserCtxt(ctxt);
    if (!rf->fatal.n) {
        free(rf->fatal.d);
        rf->fatal = first;
    } else {
        held_truncate(&first, 0);
        free(first.d);
    }
}

/* The file's diagnostics, now that its end is reached: see "Diagnostics" at the top. */
static void finish_file(struct loader *ld, struct rfile *rf, bool complete, int valid)
{
    struct srcpos file = {rf->f->index, 0, 0};
    if (rf->read_err)
        report_fatal(rf, rf->f->included_at.file ? DIAG_INCLUDE : DIAG_IO, file,
                     "cannot read file: %s", strerror(rf->read_err));
    else if (!complete && !rf->fatal.n)
        report_fatal(rf, DIAG_XML_SYNTAX, file, "the file is not well-formed XML");
    if (rf->fatal.n) {
        held_truncate(&ld->held, rf->held_mark);
        for (size_t i = 0; i < rf->fatal.n; i++) {
            struct held_diag *d = &rf->fatal.d[i];
            report(ld, d->code, d->pos, "%s", d->msg);
        }
        return;
    }
    if (rf->nschema || rf->schema_raw || valid != 1) {
        held_truncate(&ld->held, rf->held_mark);
        qsort(rf->schema, rf->nschema, sizeof(*rf->schema), schema_err_cmp);
        for (size_t i = 0; i < rf->nschema; i++) {
            bool seen = false; /* the same message on the same line, found twice */
            for (size_t k = i; k > 0 && !seen && rf->schema[k - 1].pos.line == rf->schema[i].pos.line;
                 k--)
                seen = strcmp(rf->schema[k - 1].msg, rf->schema[i].msg) == 0;
            if (!seen)
                report(ld, DIAG_SCHEMA, rf->schema[i].pos, "%s", rf->schema[i].msg);
        }
        if (!rf->nschema)
            report(ld, DIAG_SCHEMA, file, "the file does not follow the regspec schema");
        return;
    }
    if (rf->wrong_root) {
        held_truncate(&ld->held, rf->held_mark);
        if (rf->f->included_at.file) {
            report(ld, DIAG_INCLUDE, rf->wrong_root_pos,
                   "an included file must have the root element 'part', not '%s'", rf->wrong_root);
            note(ld, rf->f->included_at, "included here");
        } else {
            report(ld, DIAG_SCHEMA, rf->wrong_root_pos,
                   "the root element is '%s': a spec starts with 'regspec' ('part' is for "
                   "included files)",
                   rf->wrong_root);
        }
    }
}

/*
 * Reads file 'f' (open on 'fd', closed here) into the model: the spec
 * ('at' NULL) or an include, whose <part>'s children go where 'at', the
 * includer's open <regspec>, <block> or <part>, is.
 */
static void read_file(struct loader *ld, struct lfile *f, int fd, struct frame *at)
{
    struct rfile rf = {.ld = ld, .f = f, .fd = fd, .held_mark = ld->held.n, .misplaced = -1};
    rf.sc.line = 1;
    struct rfile *from = ld->rf;
    ld->rf = &rf;
    f->loading = true;
    bool complete = false;
    int valid = 0;
    bool peeked = peek_file(&rf);
    if (peeked && f->included_at.file && starts_as_part(&rf))
        diag_drop_source(ld->dg, f->index, true); /* a spec file: its lines may be quoted */
    if (peeked && wide_encoding((const unsigned char *)rf.peek, rf.npeek)) {
        report_fatal(&rf, DIAG_XML_UNSAFE, (struct srcpos){f->index, 0, 0},
                     "encoding refused: regspec files are UTF-8 (or an encoding that keeps "
                     "ASCII as it is), and this one looks like UTF-16, UCS-4 or EBCDIC");
        complete = true;
    } else if (!rf.read_err && !foreign_text(&rf)) {
        int options = XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES |
                      XML_PARSE_NOBLANKS;
        rf.reader = xmlReaderForIO(read_input, NULL, &rf, NULL, NULL, options);
        if (!rf.reader) {
            report_fatal(&rf, DIAG_IO, (struct srcpos){f->index, 0, 0},
                         "cannot set up the XML parser");
        } else {
            xmlTextReaderSetStructuredErrorHandler(rf.reader, on_reader_error, &rf);
            if (xmlTextReaderRelaxNGSetSchema(rf.reader, ld->sc->rng) != 0)
                report_fatal(&rf, DIAG_SCHEMA, (struct srcpos){0, 0, 0},
                             "the built-in schema cannot validate a reader");
            else
                complete = read_nodes(ld, &rf, at);
            valid = xmlTextReaderIsValid(rf.reader);
            xmlFreeTextReader(rf.reader);
            if ((!complete || rf.fatal.n) && !rf.stopped)
                read_syntax(&rf, options);
        }
    } else if (!rf.read_err) {
        complete = true; /* reported as another format */
    }
    f->loading = false;
    finish_file(ld, &rf, complete, valid);
    close(fd);
    free(rf.peek);
    scan_release(&rf.sc);
    held_truncate(&rf.fatal, 0);
    free(rf.fatal.d);
    for (size_t i = 0; i < rf.nschema; i++)
        free(rf.schema[i].msg);
    free(rf.schema);
    ld->rf = from;
}

/* <include href="FILE"/>: the children of FILE's <part> go where 'at' is. */
static void load_include(struct loader *ld, xmlNode *n, struct frame *at)
{
    const char *href = get(ld, n, "href");
    if (!href || !include_href_ok(ld, n, href))
        return;
    const struct lfile *from = ld->rf->f;
    struct srcpos where = pos_of(ld, n);
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
            report(ld, DIAG_INCLUDE_OUTSIDE, value_pos(ld, n, "href", 0),
                   "included file '%s' refused: %s", path, in.why);
        else
            report(ld, DIAG_INCLUDE, found ? where : value_pos(ld, n, "href", 0),
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
    held_truncate(&ld->held, 0);
    free(ld->held.d);
    buf_release(&ld->text);
}

static struct model_spec *load_spec(struct arena *a, struct diag *dg, const char *path,
                                    const char *const *incdirs, size_t nincdirs,
                                    const struct xmlload_schema *sc);

struct model_spec *xmlload_spec(struct arena *a, struct diag *dg, const char *path)
{
    return xmlload_spec_in(a, dg, path, NULL, 0);
}

struct model_spec *xmlload_spec_in(struct arena *a, struct diag *dg, const char *path,
                                   const char *const *incdirs, size_t nincdirs)
{
    struct xmlload_schema *sc = xmlload_schema_new(dg);
    if (!sc)
        return NULL;
    struct model_spec *s = load_spec(a, dg, path, incdirs, nincdirs, sc);
    xmlload_schema_free(sc);
    return s;
}

struct model_spec *xmlload_spec_with(struct arena *a, struct diag *dg, const char *path,
                                     const struct xmlload_schema *sc)
{
    return load_spec(a, dg, path, NULL, 0, sc);
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
    held_flush(&ld.held, dg, 0);
    loader_release(&ld);
    incpath_free(ld.ip);
    xmlSetStructuredErrorFunc(NULL, NULL);
    xmlSetGenericErrorFunc(NULL, NULL);
    return dg->nerrors == before ? ld.spec : NULL;
}
