/*
 * xmlload - libxml2 to model. See xmlload.h for the contract.
 *
 * Reading a file: the bytes are read whole (regular files only, refused
 * before a byte is read otherwise; refused above 256 MiB), parsed
 * from memory with network off and no DTD or entity processing; a SAX hook
 * refuses any DOCTYPE before its internal subset is read (so entity bombs
 * and external entities never run), counts nesting depth, and records the
 * byte offset of every start tag in the node's '_private' slot (the schema validator uses 'psvi'). That offset
 * gives each element the line of its '<' and lets attribute values be
 * found in the raw text, so errors inside values get a real column.
 *
 * A large spec is loaded on several threads, cut between its top-level
 * blocks, and falls back to one thread on any report: see "the parallel
 * load" below.
 */
#define _XOPEN_SOURCE 700 /* realpath() */
#include "xmlload.h"

#include "expr.h"
#include "jobs.h"
#include "util.h"
#include "xmlsplit.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/relaxng.h>
#include <libxml/SAX2.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* regspec/regspec.rng, compiled in by tools/embed.c (build/gen/schema.c). */
extern const char regspec_schema[];
extern const size_t regspec_schema_len;

enum {
    XMLLOAD_MAX_DEPTH = 64,
};
#define XMLLOAD_MAX_SIZE ((size_t)256 * 1024 * 1024)

/* What the schema says of one element's attributes (for readable messages). */
struct schema_attr {
    const char *name;      /* owned by the arena */
    bool required;
    unsigned group;        /* the innermost <optional> holding it (0: none): see below */
    const char *values[8]; /* allowed values when the schema lists them; NULL-terminated */
};
/*
 * An element's attributes. An <optional> holding several attributes makes
 * them a group: given one of them (or of a group nested inside), all of
 * them are required. group_parent[g] is the group holding group g (0: none).
 */
struct schema_elem {
    const char *name;
    struct schema_attr attrs[32];
    size_t nattrs;
    unsigned group_parent[16];
    unsigned ngroups; /* group ids are 1..ngroups */
    bool truncated;   /* more attributes than attrs[] holds: do not call any unknown */
};

/* One file read: the spec or an include. */
struct lfile {
    const char *path;    /* as diagnostics print it; owned by the arena */
    const char *real;    /* canonical path, to find a file included twice; arena */
    uint32_t index;      /* in the diag file table */
    char *text;          /* raw bytes, NUL-terminated; caller releases with free() */
    size_t len;
    size_t *lines;       /* byte offset of each line's start; lines[0] == 0; free() */
    size_t nlines;
    struct srcpos included_at; /* the <include> that brought it in (file 0: the spec) */
    bool loading;        /* on the include stack now */
};

struct piece_input;

struct loader {
    struct arena *a;
    struct diag *dg;
    struct model_spec *spec;
    struct lfile **files; /* every file read; xmalloc'd array */
    size_t nfiles, cap;
    size_t inputs_cap;    /* capacity of spec->inputs */
    struct lfile *cur;    /* the file being parsed (for libxml2's errors) */
    bool stopped;         /* the SAX hook stopped the parser and reported why */
    xmlRelaxNGPtr schema;
    xmlRelaxNGValidCtxtPtr validator;
    startElementNsSAX2Func start_element; /* libxml2's default, wrapped by on_start_element */
    struct schema_err *schema_errs;       /* found while validating one file; xmalloc'd */
    size_t nschema_errs, schema_errs_cap;
    struct schema_elem *elems;            /* attributes per element, from the schema; xmalloc'd */
    size_t nelems;
    struct piece_input *piece; /* loading one piece of a split spec (see "the parallel load") */
    bool refused;              /* the piece holds what only the serial load can load */
};

/* ---------------------------------------------------------------- positions */

/* 1-based line of byte 'off' (binary search in the line table). */
static uint32_t line_of(const struct lfile *f, size_t off)
{
    size_t lo = 0, hi = f->nlines;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return (uint32_t)(lo + 1);
}

static struct srcpos pos_at(const struct lfile *f, size_t off)
{
    uint32_t line = line_of(f, off);
    return (struct srcpos){f->index, line, (uint32_t)(off - f->lines[line - 1] + 1)};
}

static struct lfile *file_of(xmlNode *n)
{
    return n->doc->_private;
}

/* Byte offset of the element's '<' in the raw text, or SIZE_MAX when unknown. */
static size_t tag_offset(xmlNode *n)
{
    return n->_private ? (size_t)((uintptr_t)n->_private - 1) : SIZE_MAX;
}

/* The element's position: its file, the line of its '<', col 0. */
static struct srcpos pos_of(xmlNode *n)
{
    struct lfile *f = file_of(n);
    size_t off = tag_offset(n);
    if (off != SIZE_MAX)
        return (struct srcpos){f->index, line_of(f, off), 0};
    long line = xmlGetLineNo(n);
    return (struct srcpos){f->index, line > 0 ? (uint32_t)line : 0, 0};
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Offset of attribute 'name' inside the element's start tag in the raw text:
 * of the first character of its value ('value'), else of its name; SIZE_MAX
 * when it cannot be found.
 */
static size_t attr_offset(xmlNode *n, const char *name, bool value)
{
    struct lfile *f = file_of(n);
    size_t i = tag_offset(n);
    if (i == SIZE_MAX || i >= f->len || f->text[i] != '<')
        return SIZE_MAX;
    const char *t = f->text;
    size_t nlen = strlen(name);
    for (i++; i < f->len && !is_space(t[i]) && t[i] != '>' && t[i] != '/';)
        i++;
    while (i < f->len) {
        while (i < f->len && is_space(t[i]))
            i++;
        if (i >= f->len || t[i] == '>' || t[i] == '/')
            return SIZE_MAX;
        size_t start = i;
        while (i < f->len && t[i] != '=' && !is_space(t[i]))
            i++;
        bool match = i - start == nlen && memcmp(t + start, name, nlen) == 0;
        while (i < f->len && (is_space(t[i]) || t[i] == '='))
            i++;
        if (i >= f->len || (t[i] != '"' && t[i] != '\''))
            return SIZE_MAX;
        char q = t[i++];
        if (match)
            return value ? i : start;
        const char *end = memchr(t + i, q, f->len - i);
        if (!end)
            return SIZE_MAX;
        i = (size_t)(end - t) + 1;
    }
    return SIZE_MAX;
}

static size_t attr_value_offset(xmlNode *n, const char *name)
{
    return attr_offset(n, name, true);
}

/* Position of attribute 'name' itself (its name) in the start tag; the element's when unknown. */
static struct srcpos attr_pos(xmlNode *n, const char *name)
{
    size_t i = attr_offset(n, name, false);
    return i == SIZE_MAX ? pos_of(n) : pos_at(file_of(n), i);
}

/*
 * Position of character 'off' (0-based, in the value libxml2 gives) of
 * attribute 'name': a character or entity reference in the raw text counts
 * as one character. Line only when the value cannot be found.
 */
static struct srcpos value_pos(xmlNode *n, const char *name, size_t off)
{
    struct lfile *f = file_of(n);
    size_t i = attr_value_offset(n, name);
    if (i == SIZE_MAX)
        return pos_of(n);
    char quote = f->text[i - 1];
    for (size_t k = 0; k < off && i < f->len && f->text[i] != quote; k++) {
        if (f->text[i] == '&') {
            const char *semi = memchr(f->text + i, ';', f->len - i);
            i = semi ? (size_t)(semi - f->text) : i;
        }
        i++;
    }
    return pos_at(f, i);
}

/* ---------------------------------------------------------------- files */

static void build_lines(struct lfile *f)
{
    f->lines = util_line_starts(f->text, f->len, &f->nlines);
}

/*
 * Registers and reads 'path'. Returns the file, or NULL after reporting
 * 'code' (DIAG_IO for the spec, DIAG_INCLUDE for an include) or
 * DIAG_XML_LIMIT at 'at'.
 */
static struct lfile *open_file(struct loader *ld, const char *path, const char *real,
                               struct srcpos at, enum diag_code code)
{
    struct lfile *f = arena_zalloc(ld->a, sizeof(*f));
    f->path = path;
    f->real = real;
    f->included_at = at;
    struct util_file in;
    if (util_read_input(path, XMLLOAD_MAX_SIZE, &in) < 0) {
        struct srcpos p = at.file ? at : (struct srcpos){diag_add_file(ld->dg, path), 0, 0};
        if (in.err == EFBIG && at.file)
            diag_report(ld->dg, DIAG_XML_LIMIT, p, "included file '%s' is larger than 256 MiB",
                        path);
        else if (in.err == EFBIG)
            diag_report(ld->dg, DIAG_XML_LIMIT, p, "file is larger than 256 MiB");
        else if (at.file)
            diag_report(ld->dg, code, p, "cannot read included file '%s': %s", path, in.why);
        else
            diag_report(ld->dg, code, p, "cannot read file: %s", in.why);
        return NULL;
    }
    f->text = in.text;
    f->len = in.len;
    f->index = diag_add_source(ld->dg, path, f->text, f->len);
    build_lines(f);
    if (ld->nfiles == ld->cap) {
        ld->cap = ld->cap ? 2 * ld->cap : 8;
        ld->files = xrealloc(ld->files, ld->cap * sizeof(*ld->files));
    }
    ld->files[ld->nfiles++] = f;
    arena_push(ld->a, (void ***)&ld->spec->inputs, &ld->spec->ninputs, &ld->inputs_cap,
               (void *)path);
    return f;
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

/*
 * libxml2 gives some errors the column after the construct at fault. Moves
 * 'p' back on its line to the last place before it where 'at' holds (the
 * construct's start); 'p' unchanged when there is none.
 */
static struct srcpos back_to(const struct lfile *f, struct srcpos p,
                             bool (*at)(const struct lfile *f, size_t i, const char *arg),
                             const char *arg)
{
    if (p.line == 0 || p.line > f->nlines || p.col == 0)
        return p;
    size_t start = f->lines[p.line - 1], i = start + p.col - 1;
    for (i = i > f->len ? f->len : i; i > start; i--)
        if (at(f, i - 1, arg))
            return pos_at(f, i - 1);
    return p;
}

/* An entity reference's '&'. */
static bool at_ampersand(const struct lfile *f, size_t i, const char *arg)
{
    return f->text[i] == '&';
}

/* A mismatched end tag's "</". */
static bool at_end_tag(const struct lfile *f, size_t i, const char *arg)
{
    return f->text[i] == '<' && i + 1 < f->len && f->text[i + 1] == '/';
}

/* "NAME =" after a space: an attribute given twice (the last one is the repeat). */
static bool at_attribute(const struct lfile *f, size_t i, const char *name)
{
    size_t n = strlen(name), j = i + n;
    if (j > f->len || memcmp(f->text + i, name, n) != 0 || (i > 0 && !is_space(f->text[i - 1])))
        return false;
    while (j < f->len && is_space(f->text[j]))
        j++;
    return j < f->len && f->text[j] == '=';
}

static void report_parser_error(struct loader *ld, const xmlError *e)
{
    char msg[256];
    trim_message(msg, sizeof(msg), e->message);
    struct srcpos p = {ld->cur->index, e->line > 0 ? (uint32_t)e->line : 0,
                       e->int2 > 0 ? (uint32_t)e->int2 : 0};
    if (e->code == XML_ERR_UNDECLARED_ENTITY || e->code == XML_WAR_UNDECLARED_ENTITY) {
        p = back_to(ld->cur, p, at_ampersand, NULL);
        diag_report(ld->dg, DIAG_XML_UNSAFE, p,
                    "entity reference '&%s;' refused: only the predefined entities and "
                    "character references are allowed",
                    e->str1 ? e->str1 : "?");
        return;
    }
    char a[128], b[128];
    int line = 0, n_ = -1;
    if (sscanf(msg, "Opening and ending tag mismatch: %127s line %d and %127s%n", a, &line, b, &n_) == 3 &&
        n_ >= 0 && !msg[n_])
        diag_report(ld->dg, DIAG_XML_SYNTAX, back_to(ld->cur, p, at_end_tag, NULL),
                    "closing tag '%s' does not match '<%s>' opened at line %d", b, a, line);
    else if (sscanf(msg, "Premature end of data in tag %127s line %d%n", a, &line, &n_) == 2 &&
             n_ >= 0 && !msg[n_])
        diag_report(ld->dg, DIAG_XML_SYNTAX, p, "the file ends inside '<%s>' opened at line %d", a,
                    line);
    else if (sscanf(msg, "Attribute %127s redefined%n", a, &n_) == 1 && n_ >= 0 && !msg[n_])
        diag_report(ld->dg, DIAG_XML_SYNTAX, back_to(ld->cur, p, at_attribute, a),
                    "attribute '%s' is given twice", a);
    else {
        if (msg[0] >= 'A' && msg[0] <= 'Z' && !(msg[1] >= 'A' && msg[1] <= 'Z'))
            msg[0] = (char)(msg[0] - 'A' + 'a');
        diag_report(ld->dg, DIAG_XML_SYNTAX, p, "%s", msg);
    }
}

/* sscanf that must consume all of 'msg' (sscanf alone accepts a matching prefix). */
#define MATCHES(msg, fmt, ...) (n_ = -1, sscanf(msg, fmt "%n", __VA_ARGS__, &n_), n_ >= 0 && (msg)[n_] == '\0')

static const char *suggest_element(struct loader *ld, const char *name);

/* A Relax-NG message in our words; libxml2's own text when no rule matches; "" to drop it. */
static void schema_message(struct loader *ld, char *out, size_t size, const char *msg)
{
    char a[128], b[128], hint[160];
    int n_;
    if (MATCHES(msg, "Invalid attribute %127s for element %127s", a, b))
        out[0] = '\0'; /* check_attributes() finds every unknown attribute, with its place */
    else if (MATCHES(msg, "Did not expect element %127s there", a))
        snprintf(out, size, "element '%s' is not allowed here%s", a,
                 diag_hint(hint, sizeof(hint), suggest_element(ld, a)));
    else if (MATCHES(msg, "Element %127s failed to validate attributes", a))
        out[0] = '\0'; /* check_attributes() says which attribute, and where */
    else if (strcmp(msg, "Invalid sequence in interleave") == 0)
        out[0] = '\0'; /* the schema's interleaves hold attributes: check_attributes() again */
    else if (MATCHES(msg, "Element %127s has extra content: %127s", a, b))
        out[0] = '\0'; /* follows "is not allowed here" for the same element */
    else if (MATCHES(msg, "Did not expect text in element %127s content", a))
        snprintf(out, size, "element '%s' may not contain text", a);
    else if (MATCHES(msg, "Expecting element %127[^,], got %127s", a, b))
        snprintf(out, size, "expected element '%s', found '%s'", a, b);
    else if (MATCHES(msg, "Expecting an element %127[^,], got nothing", a))
        snprintf(out, size, "element '%s' is missing", a);
    else
        trim_message(out, size, msg);
}
#undef MATCHES

/* Schema errors are collected during validation, then reported in file order. */
struct schema_err {
    struct srcpos pos;
    char *msg; /* xmalloc'd */
};

static void schema_err_add(struct loader *ld, struct srcpos pos, const char *msg)
{
    for (size_t i = 0; i < ld->nschema_errs; i++)
        if (ld->schema_errs[i].pos.line == pos.line && strcmp(ld->schema_errs[i].msg, msg) == 0)
            return;
    if (ld->nschema_errs == ld->schema_errs_cap) {
        ld->schema_errs_cap = ld->schema_errs_cap ? 2 * ld->schema_errs_cap : 16;
        ld->schema_errs =
            xrealloc(ld->schema_errs, ld->schema_errs_cap * sizeof(*ld->schema_errs));
    }
    ld->schema_errs[ld->nschema_errs++] = (struct schema_err){pos, xstrdup(msg)};
}

static void report_schema_error(struct loader *ld, const xmlError *e)
{
    char raw[256], msg[320];
    trim_message(raw, sizeof(raw), e->message);
    schema_message(ld, msg, sizeof(msg), raw);
    if (!msg[0])
        return;
    struct srcpos p = {ld->cur->index, e->line > 0 ? (uint32_t)e->line : 0, 0};
    xmlNode *n = e->node;
    if (n && n->type == XML_ELEMENT_NODE && n->doc && n->doc->_private)
        p = pos_of(n);
    schema_err_add(ld, p, msg);
}

static int schema_err_cmp(const void *x, const void *y)
{
    const struct schema_err *a = x, *b = y;
    if (a->pos.line != b->pos.line)
        return a->pos.line < b->pos.line ? -1 : 1;
    return a < b ? -1 : a > b; /* stable: the order they were found in */
}

static void schema_errs_flush(struct loader *ld)
{
    if (ld->nschema_errs == 0)
        return;
    qsort(ld->schema_errs, ld->nschema_errs, sizeof(*ld->schema_errs), schema_err_cmp);
    for (size_t i = 0; i < ld->nschema_errs; i++) {
        diag_report(ld->dg, DIAG_SCHEMA, ld->schema_errs[i].pos, "%s", ld->schema_errs[i].msg);
        free(ld->schema_errs[i].msg);
    }
    ld->nschema_errs = 0;
}

static void on_error(void *data, xmlErrorPtr e)
{
    struct loader *ld = data;
    if (!ld->cur || e->level == XML_ERR_WARNING)
        return;
    if (e->domain == XML_FROM_RELAXNGV)
        report_schema_error(ld, e);
    else if (e->domain == XML_FROM_RELAXNGP)
        diag_report(ld->dg, DIAG_SCHEMA, (struct srcpos){0, 0, 0}, "built-in schema: %s",
                    e->message ? e->message : "?");
    else
        report_parser_error(ld, e);
}

static void on_generic_error(void *data, const char *fmt, ...)
{
    /* Everything goes through on_error; libxml2 must print nothing itself. */
}

/* ---------------------------------------------------------------- parsing */

static struct loader *loader_of(xmlParserCtxtPtr ctxt)
{
    return ctxt->_private;
}

/*
 * The document libxml2 reads for one piece of a split spec (xmlsplit.h):
 * the file's prolog and root start tag, the piece's run of the root's
 * content, and a closing tag; handed over part by part, never copied whole.
 */
struct piece_input {
    const char *text; /* the whole file; borrowed */
    size_t root_end;  /* text[0, root_end): the prolog and the root's start tag */
    size_t from, to;  /* text[from, to): the piece's run */
    const char *tail; /* "</regspec>", or "" for the last piece */
    size_t pos;       /* bytes handed to libxml2 so far */
};

/* The bytes at 'pos' of the piece's document, and how many follow in the same part. */
static const char *piece_at(const struct piece_input *in, size_t pos, size_t *avail)
{
    size_t run_end = in->root_end + (in->to - in->from);
    if (pos < in->root_end) {
        *avail = in->root_end - pos;
        return in->text + pos;
    }
    if (pos < run_end) {
        *avail = run_end - pos;
        return in->text + in->from + (pos - in->root_end);
    }
    size_t tail = strlen(in->tail);
    *avail = pos < run_end + tail ? run_end + tail - pos : 0;
    return in->tail + (*avail ? pos - run_end : 0);
}

/* libxml2's read callback for a piece: up to 'len' more bytes, 0 at the end. */
static int piece_read(void *ctx, char *buf, int len)
{
    struct piece_input *in = ctx;
    size_t n = 0;
    while (n < (size_t)len) {
        size_t avail;
        const char *src = piece_at(in, in->pos, &avail);
        if (avail == 0)
            break;
        size_t k = avail < (size_t)len - n ? avail : (size_t)len - n;
        memcpy(buf + n, src, k);
        n += k;
        in->pos += k;
    }
    return (int)n;
}

/* File offset of byte 'v' of a piece's document (in its prolog or its run). */
static size_t piece_to_file(const struct piece_input *in, size_t v)
{
    return v < in->root_end ? v : in->from + (v - in->root_end);
}

/*
 * Byte offset in the raw text of the last '<' before the parser's position
 * (during a SAX callback: the '<' of the tag being reported), or SIZE_MAX
 * when unknown (input converted from another encoding).
 */
static size_t tag_start(struct loader *ld, xmlParserCtxtPtr ctxt)
{
    xmlParserInputPtr in = ctxt->input;
    if (!in || (in->buf && in->buf->encoder))
        return SIZE_MAX;
    size_t end = (size_t)(in->cur - in->base) + (size_t)in->consumed;
    if (ld->piece && end > 0) /* map the tag's last byte: a tag never spans two parts */
        end = piece_to_file(ld->piece, end - 1) + 1;
    const char *t = ld->cur->text;
    if (end > ld->cur->len)
        return SIZE_MAX;
    while (end > 0 && t[end - 1] != '<')
        end--;
    return end > 0 ? end - 1 : SIZE_MAX;
}

/* <!DOCTYPE ...>: refused before its internal subset (entities) is read. */
static void on_internal_subset(void *ctx, const xmlChar *name, const xmlChar *ext_id,
                               const xmlChar *sys_id)
{
    xmlParserCtxtPtr ctxt = ctx;
    struct loader *ld = loader_of(ctxt);
    size_t off = tag_start(ld, ctxt);
    struct srcpos p = off != SIZE_MAX ? pos_at(ld->cur, off)
                                      : (struct srcpos){ld->cur->index,
                                                        (uint32_t)ctxt->input->line, 0};
    diag_report(ld->dg, DIAG_XML_UNSAFE, p,
                "DOCTYPE declaration refused: regspec files may not have a DTD or declare entities");
    ld->stopped = true;
    xmlStopParser(ctxt);
}

/* Every start tag: bounded depth, and its offset kept for positions. */
static void on_start_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                             const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                             int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
    xmlParserCtxtPtr ctxt = ctx;
    struct loader *ld = loader_of(ctxt);
    if (ctxt->nameNr >= XMLLOAD_MAX_DEPTH) {
        size_t off = tag_start(ld, ctxt);
        struct srcpos p = off != SIZE_MAX ? pos_at(ld->cur, off)
                                          : (struct srcpos){ld->cur->index,
                                                            (uint32_t)ctxt->input->line, 0};
        diag_report(ld->dg, DIAG_XML_LIMIT, p, "elements nest deeper than %d levels",
                    XMLLOAD_MAX_DEPTH);
        ld->stopped = true;
        xmlStopParser(ctxt);
        return;
    }
    ld->start_element(ctx, localname, prefix, uri, nb_namespaces, namespaces, nb_attributes,
                      nb_defaulted, attributes);
    size_t off = tag_start(ld, ctxt);
    if (ctxt->node && off != SIZE_MAX)
        ctxt->node->_private = (void *)(uintptr_t)(off + 1); /* NULL means unknown */
}

/*
 * Parses the file's text, or the piece of it that 'ld' loads; NULL after
 * reporting (well-formedness, safety, limits).
 */
static xmlDocPtr parse_file(struct loader *ld, struct lfile *f)
{
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    if (!ctxt) {
        diag_report(ld->dg, DIAG_IO, (struct srcpos){f->index, 0, 0}, "cannot set up the XML parser");
        return NULL;
    }
    ctxt->_private = ld;
    ctxt->sax->internalSubset = on_internal_subset;
    ld->start_element = ctxt->sax->startElementNs;
    ctxt->sax->startElementNs = on_start_element;
    ld->cur = f;
    ld->stopped = false;
    unsigned before = ld->dg->nerrors;
    int options = XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES | XML_PARSE_NOBLANKS;
    xmlDocPtr doc = ld->piece
                        ? xmlCtxtReadIO(ctxt, piece_read, NULL, ld->piece, NULL, NULL, options)
                        : xmlCtxtReadMemory(ctxt, f->text, (int)f->len, NULL, NULL, options);
    bool ok = doc && ctxt->wellFormed && !ld->stopped && ld->dg->nerrors == before;
    if (!ok && ld->dg->nerrors == before) {
        diag_report(ld->dg, DIAG_XML_SYNTAX, (struct srcpos){f->index, 0, 0},
                    "the file is not well-formed XML");
    }
    xmlFreeParserCtxt(ctxt);
    if (!ok) {
        xmlFreeDoc(doc);
        return NULL;
    }
    doc->_private = f;
    return doc;
}

/* ---------------------------------------------------------------- schema */

static bool rng_is(xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static xmlNode *rng_define(xmlNode *grammar, const xmlChar *name)
{
    for (xmlNode *c = grammar->children; c; c = c->next) {
        if (!rng_is(c, "define"))
            continue;
        xmlChar *v = xmlGetNoNsProp(c, (const xmlChar *)"name");
        bool same = v && xmlStrEqual(v, name);
        xmlFree(v);
        if (same)
            return c;
    }
    return NULL;
}

static void rng_add_attr(struct loader *ld, struct schema_elem *e, xmlNode *n, bool optional,
                         unsigned group)
{
    xmlChar *name = xmlGetNoNsProp(n, (const xmlChar *)"name");
    if (!name || e->nattrs == ARRAY_SIZE(e->attrs)) {
        e->truncated = e->truncated || name;
        xmlFree(name);
        return;
    }
    struct schema_attr *at = &e->attrs[e->nattrs++];
    at->name = arena_strdup(ld->a, (const char *)name);
    at->required = !optional;
    at->group = group;
    xmlFree(name);
    size_t nv = 0;
    for (xmlNode *c = n->children; c; c = c->next) {
        xmlNode *list = rng_is(c, "choice") ? c->children : c;
        for (xmlNode *v = list; v; v = list == c ? NULL : v->next) {
            if (rng_is(v, "value") && nv + 1 < ARRAY_SIZE(at->values)) {
                xmlChar *t = xmlNodeGetContent(v);
                at->values[nv++] = arena_strdup(ld->a, t ? (const char *)t : "");
                xmlFree(t);
            }
        }
    }
}

/* The attributes an element's pattern allows (following refs, not into child elements). */
static void rng_collect(struct loader *ld, xmlNode *grammar, xmlNode *n, struct schema_elem *e,
                        bool optional, unsigned group, int depth)
{
    if (depth > 16)
        return;
    for (xmlNode *c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE || rng_is(c, "element"))
            continue;
        if (rng_is(c, "attribute")) {
            rng_add_attr(ld, e, c, optional, group);
        } else if (rng_is(c, "ref")) {
            xmlChar *name = xmlGetNoNsProp(c, (const xmlChar *)"name");
            xmlNode *def = name ? rng_define(grammar, name) : NULL;
            xmlFree(name);
            if (def)
                rng_collect(ld, grammar, def, e, optional, group, depth + 1);
        } else if (rng_is(c, "optional") && e->ngroups + 1 < ARRAY_SIZE(e->group_parent)) {
            e->group_parent[++e->ngroups] = group;
            rng_collect(ld, grammar, c, e, true, e->ngroups, depth + 1);
        } else {
            bool opt = rng_is(c, "optional") || rng_is(c, "zeroOrMore") || rng_is(c, "choice");
            rng_collect(ld, grammar, c, e, optional || opt, opt ? 0 : group, depth + 1);
        }
    }
}

static void rng_elements(struct loader *ld, xmlNode *grammar, xmlNode *n, size_t *cap)
{
    for (xmlNode *c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (rng_is(c, "element")) {
            xmlChar *name = xmlGetNoNsProp(c, (const xmlChar *)"name");
            if (name) {
                if (ld->nelems == *cap) {
                    *cap = *cap ? 2 * *cap : 32;
                    ld->elems = xrealloc(ld->elems, *cap * sizeof(*ld->elems));
                }
                struct schema_elem *e = &ld->elems[ld->nelems++];
                memset(e, 0, sizeof(*e));
                e->name = arena_strdup(ld->a, (const char *)name);
                rng_collect(ld, grammar, c, e, false, 0, 0);
            }
            xmlFree(name);
        }
        rng_elements(ld, grammar, c, cap);
    }
}

/* Reads the attribute table of every element out of the compiled-in schema. */
static void schema_table(struct loader *ld)
{
    xmlDocPtr doc = xmlReadMemory(regspec_schema, (int)regspec_schema_len, NULL, NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOBLANKS);
    if (!doc)
        return;
    size_t cap = 0;
    xmlNode *grammar = xmlDocGetRootElement(doc);
    if (grammar)
        rng_elements(ld, grammar, grammar, &cap);
    xmlFreeDoc(doc);
}

static const struct schema_elem *schema_elem_find(struct loader *ld, const char *name)
{
    for (size_t i = 0; i < ld->nelems; i++)
        if (strcmp(ld->elems[i].name, name) == 0)
            return &ld->elems[i];
    return NULL;
}

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
        schema_err_add(ld, pos_of(n), msg);
    }
    bool known = !v || !at->values[0];
    for (size_t i = 0; !known && at->values[i]; i++)
        known = strcmp(at->values[i], (const char *)v) == 0;
    if (!known) {
        char list[256];
        list_values(list, sizeof(list), at->values);
        snprintf(msg, sizeof(msg), "element '%s': attribute '%s' is '%.60s', expected %s",
                 (const char *)n->name, at->name, (const char *)v, list);
        schema_err_add(ld, value_pos(n, at->name, 0), msg);
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
        schema_err_add(ld, pos_of(n), msg);
    }
}

static const struct schema_attr *schema_attr_find(const struct schema_elem *e, const char *name)
{
    for (size_t i = 0; i < e->nattrs; i++)
        if (strcmp(e->attrs[i].name, name) == 0)
            return &e->attrs[i];
    return NULL;
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
        schema_err_add(ld, a->ns ? pos_of(n) : attr_pos(n, name), msg);
    }
}

/* The closest element name of the schema to 'name', unless 'name' is one; NULL if none is close. */
static const char *suggest_element(struct loader *ld, const char *name)
{
    if (schema_elem_find(ld, name))
        return NULL;
    struct util_suggest sg;
    util_suggest_init(&sg, name);
    for (size_t i = 0; i < ld->nelems; i++)
        util_suggest_add(&sg, ld->elems[i].name);
    return util_suggest_best(&sg);
}

static void check_attributes(struct loader *ld, xmlNode *n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        const struct schema_elem *e = schema_elem_find(ld, (const char *)n->name);
        bool suggested[ARRAY_SIZE(e->attrs)] = {0};
        if (e)
            check_unknown_attributes(ld, n, e, suggested);
        for (size_t i = 0; e && i < e->nattrs; i++)
            check_attribute(ld, n, &e->attrs[i], suggested[i]);
        if (e && e->ngroups)
            check_attribute_groups(ld, n, e);
        check_attributes(ld, n->children);
    }
}

/* Validates against the built-in schema; false after reporting. */
static bool validate(struct loader *ld, struct lfile *f, xmlDocPtr doc)
{
    if (!ld->validator)
        return false;
    ld->cur = f;
    unsigned before = ld->dg->nerrors;
    int rc = xmlRelaxNGValidateDoc(ld->validator, doc);
    if (rc != 0)
        check_attributes(ld, xmlDocGetRootElement(doc));
    schema_errs_flush(ld);
    if (rc != 0 && ld->dg->nerrors == before)
        diag_report(ld->dg, DIAG_SCHEMA, (struct srcpos){f->index, 0, 0},
                    "the file does not follow the regspec schema");
    return rc == 0;
}

static int compile_schema(struct loader *ld)
{
    schema_table(ld);
    xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewMemParserCtxt(regspec_schema, (int)regspec_schema_len);
    if (!pc)
        return -1;
    xmlRelaxNGSetParserStructuredErrors(pc, on_error, ld);
    ld->schema = xmlRelaxNGParse(pc);
    xmlRelaxNGFreeParserCtxt(pc);
    if (!ld->schema)
        return -1;
    ld->validator = xmlRelaxNGNewValidCtxt(ld->schema);
    if (!ld->validator)
        return -1;
    xmlRelaxNGSetValidStructuredErrors(ld->validator, on_error, ld);
    return 0;
}

/* ---------------------------------------------------------------- values */

static bool is_elem(xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

#define for_each_element(c, parent)                                                                \
    for (xmlNode *c = (parent)->children; c; c = c->next)                                          \
        if (c->type == XML_ELEMENT_NODE)

/*
 * Attribute 'name' copied into the arena, or NULL when absent. A value the
 * parser left as one text node (always, for our specs: entities are
 * refused) is copied straight from it; xmlGetNoNsProp() would first make a
 * malloc'd copy, and this runs for every attribute of every field.
 */
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

/* Whitespace runs fold to one space; a blank line between text becomes one "\n". */
static const char *fold_text(struct arena *a, const char *s)
{
    char *out = arena_alloc(a, strlen(s) + 1);
    size_t n = 0;
    while (*s) {
        unsigned newlines = 0;
        bool space = false;
        for (; is_space(*s); s++) {
            space = true;
            newlines += *s == '\n';
        }
        if (!*s)
            break;
        if (space && n > 0)
            out[n++] = newlines >= 2 ? '\n' : ' ';
        out[n++] = *s++;
    }
    out[n] = '\0';
    return out;
}

static const char *text_of(struct loader *ld, xmlNode *n)
{
    xmlChar *v = xmlNodeGetContent(n);
    const char *s = fold_text(ld->a, v ? (const char *)v : "");
    xmlFree(v);
    return s;
}

/* A <desc> child, else the desc= attribute (folded), else NULL. */
static const char *desc_of(struct loader *ld, xmlNode *n)
{
    for_each_element(c, n)
        if (is_elem(c, "desc"))
            return text_of(ld, c);
    const char *d = get(ld, n, "desc");
    return d ? fold_text(ld->a, d) : NULL;
}

/* Reports a bad number in attribute 'name' (value 'v', offending offset 'bad'). */
static void report_bad_number(struct loader *ld, xmlNode *n, const char *name, const char *v,
                              enum expr_number_status st, size_t bad)
{
    size_t len = strlen(v);
    struct srcpos p = value_pos(n, name, bad < len ? bad : (len ? len - 1 : 0));
    bool hsuffix = len > 1 && (v[len - 1] == 'H' || v[len - 1] == 'h') &&
                   strspn(v, "0123456789abcdefABCDEF_") == len - 1;
    if (st == EXPR_NUMBER_EMPTY)
        diag_report(ld->dg, DIAG_BAD_NUMBER, p, "'%s' is empty: expected a number", name);
    else if (st == EXPR_NUMBER_OVERFLOW)
        diag_report(ld->dg, DIAG_BAD_NUMBER, p, "number '%s' does not fit in 64 bits", v);
    else if (hsuffix)
        diag_report(ld->dg, DIAG_BAD_NUMBER, p,
                    "number '%s' uses the manuals' 'H' suffix: write '0x%.*s'", v,
                    (int)(len - 1), v);
    else if (bad >= len)
        diag_report(ld->dg, DIAG_BAD_NUMBER, p, "number '%s' ends too early", v);
    else
        diag_report(ld->dg, DIAG_BAD_NUMBER, p, "invalid character '%c' in number '%s'", v[bad], v);
}

/* Numeric attribute: false when absent or invalid (reported). */
static bool get_num(struct loader *ld, xmlNode *n, const char *name, uint64_t *out)
{
    const char *v = get(ld, n, name);
    if (!v)
        return false;
    size_t bad = 0;
    enum expr_number_status st = expr_scan_number(v, strlen(v), out, &bad);
    if (st == EXPR_NUMBER_OK)
        return true;
    report_bad_number(ld, n, name, v, st, bad);
    return false;
}

/*
 * A number stored in an 'unsigned' (width, size, index). A larger one is
 * reported here, as written: stored, it would be some other number.
 */
static unsigned get_uint(struct loader *ld, xmlNode *n, const char *name, unsigned dflt)
{
    uint64_t v;
    if (!get_num(ld, n, name, &v))
        return dflt;
    if (v > UINT_MAX) {
        diag_report(ld->dg, DIAG_BAD_NUMBER, value_pos(n, name, 0),
                    "'%s' is %s, out of range (at most %u)", name, get(ld, n, name), UINT_MAX);
        return dflt;
    }
    return (unsigned)v;
}

static void cite_of(struct loader *ld, xmlNode *n, struct model_cite *c)
{
    c->src = get(ld, n, "src");
    c->table = get(ld, n, "table");
    c->page = get(ld, n, "page");
    c->section = get(ld, n, "section");
    c->cite = get(ld, n, "cite");
    c->pos = pos_of(n);
}

static struct model_role role_of(struct loader *ld, xmlNode *n, const char *name)
{
    return (struct model_role){get(ld, n, name), NULL};
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Reads a decimal index at s[*i] (at most 'limit'); false when there is none or it is larger. */
static bool scan_index(const char *s, size_t *i, unsigned long limit, unsigned long *out)
{
    if (!is_digit(s[*i]))
        return false;
    unsigned long v = 0;
    for (; is_digit(s[*i]); (*i)++) {
        v = v * 10 + (unsigned long)(s[*i] - '0');
        if (v > limit)
            return false;
    }
    *out = v;
    return true;
}

/* bits="HI:LO" or bits="N" */
static void parse_bits(struct loader *ld, xmlNode *n, const char *v, unsigned *msb, unsigned *lsb)
{
    size_t i = 0, start_hi = 0;
    unsigned long hi, lo;
    if (!scan_index(v, &i, 1000, &hi))
        goto malformed;
    lo = hi;
    if (v[i] == ':') {
        i++;
        size_t start_lo = i;
        if (!scan_index(v, &i, 1000, &lo))
            goto malformed;
        if (lo > 63) {
            diag_report(ld->dg, DIAG_BAD_BITS, value_pos(n, "bits", start_lo),
                        "bit %lu is out of range: bits are numbered 0 to 63", lo);
            return;
        }
    }
    if (v[i] != '\0')
        goto malformed;
    if (hi > 63) {
        diag_report(ld->dg, DIAG_BAD_BITS, value_pos(n, "bits", start_hi),
                    "bit %lu is out of range: bits are numbered 0 to 63", hi);
        return;
    }
    if (hi < lo) {
        diag_report(ld->dg, DIAG_BAD_BITS, value_pos(n, "bits", 0),
                    "bit range '%s' is written low first: write '%lu:%lu'", v, lo, hi);
        return;
    }
    *msb = (unsigned)hi;
    *lsb = (unsigned)lo;
    return;
malformed:
    if (is_digit(v[i]))
        while (is_digit(v[i + 1]))
            i++; /* a too-large number: point at its last digit */
    diag_report(ld->dg, DIAG_BAD_BITS, value_pos(n, "bits", i),
                "malformed bit range '%s': expected 'HI:LO' or 'N'", v);
}

/* counters="0-3" | "0,1" | "0-1,3": bit i of the mask is index i. */
static bool parse_counters(struct loader *ld, xmlNode *n, const char *v, uint64_t *mask)
{
    size_t i = 0;
    *mask = 0;
    for (;;) {
        size_t start = i;
        unsigned long a, b;
        if (!scan_index(v, &i, 1000, &a))
            goto malformed;
        b = a;
        if (v[i] == '-') {
            i++;
            if (!scan_index(v, &i, 1000, &b))
                goto malformed;
        }
        if (a > 63 || b > 63) {
            diag_report(ld->dg, DIAG_BAD_NUMBER, value_pos(n, "counters", start),
                        "counter index %lu is out of range: at most 63", a > 63 ? a : b);
            return false;
        }
        if (b < a) {
            diag_report(ld->dg, DIAG_BAD_NUMBER, value_pos(n, "counters", start),
                        "counter range '%lu-%lu' is written high first: write '%lu-%lu'", a, b, b,
                        a);
            return false;
        }
        for (unsigned long k = a; k <= b; k++)
            *mask |= UINT64_C(1) << k;
        if (v[i] == '\0')
            return true;
        if (v[i++] != ',')
            goto malformed;
    }
malformed:
    while (is_digit(v[i]))
        i++;
    diag_report(ld->dg, DIAG_BAD_NUMBER, value_pos(n, "counters", i),
                "malformed counter list '%s': expected indices such as '0-3' or '0,1'", v);
    return false;
}

/* ---------------------------------------------------------------- registers */

/* name="BASE" or name="BASE{HI-LO}" / "BASE{LO-HI}" */
static void parse_reg_name(struct loader *ld, xmlNode *n, struct model_reg *r)
{
    const char *v = r->written_name;
    const char *brace = strchr(v, '{');
    r->first = 0;
    r->count = 1;
    if (!brace && !strchr(v, '}')) {
        r->name = v;
        return;
    }
    r->name = arena_strndup(ld->a, v, brace ? (size_t)(brace - v) : strlen(v));
    size_t i = brace ? (size_t)(brace - v) + 1 : strcspn(v, "}");
    unsigned long a, b;
    if (!brace || i == 1)
        goto malformed;
    if (!scan_index(v, &i, 1u << 20, &a) || v[i] != '-')
        goto malformed;
    i++;
    if (!scan_index(v, &i, 1u << 20, &b) || v[i] != '}')
        goto malformed;
    i++;
    if (v[i] != '\0')
        goto malformed;
    r->is_array = true;
    r->descending = a > b;
    r->first = (unsigned)(a < b ? a : b);
    r->count = (unsigned)(a < b ? b - a : a - b) + 1;
    return;
malformed:
    if (!brace || i == 1)
        i = brace ? 0 : i;
    diag_report(ld->dg, DIAG_BAD_ARRAY, value_pos(n, "name", i),
                "malformed register array '%s': expected 'NAME{HI-LO}' or 'NAME{LO-HI}'", v);
}

/* <field name= bits= access= reset= desc=> <desc/> <value/>* </field> */
static struct model_value *load_value(struct loader *ld, xmlNode *n)
{
    struct model_value *v = arena_zalloc(ld->a, sizeof(*v));
    v->name = get(ld, n, "name");
    get_num(ld, n, "value", &v->value);
    v->undefined = get_bool(ld, n, "undefined");
    v->desc = desc_of(ld, n);
    v->pos = pos_of(n);
    return v;
}

static struct model_field *new_field(struct loader *ld, xmlNode *n, struct model_reg *r)
{
    struct model_field *f = arena_zalloc(ld->a, sizeof(*f));
    const char *bits = get(ld, n, "bits");
    if (bits)
        parse_bits(ld, n, bits, &f->msb, &f->lsb);
    f->access_text = get(ld, n, "access");
    f->access = f->access_text ? regc_access_parse(f->access_text) : REGC_ACCESS_UNKNOWN;
    f->reg = r;
    f->pos = pos_of(n);
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
    size_t cap = 0;
    for_each_element(c, n)
        if (is_elem(c, "value"))
            arena_push(ld->a, (void ***)&f->values, &f->nvalues, &cap, load_value(ld, c));
    return f;
}

/* <gap bits= access= why=>: an implicit field named rsv (ig for access ig) */
static struct model_field *load_gap(struct loader *ld, xmlNode *n, struct model_reg *r)
{
    struct model_field *f = new_field(ld, n, r);
    f->name = f->access_text && strcmp(f->access_text, "ig") == 0 ? "ig" : "rsv";
    const char *why = get(ld, n, "why");
    f->desc = why ? fold_text(ld->a, why) : NULL;
    f->implicit = true;
    return f;
}

/* <rule name= expr= cite...>message</rule> */
static struct model_rule *load_rule(struct loader *ld, xmlNode *n)
{
    struct model_rule *ru = arena_zalloc(ld->a, sizeof(*ru));
    ru->name = get(ld, n, "name");
    ru->expr_text = get(ld, n, "expr");
    ru->expr_pos = value_pos(n, "expr", 0);
    ru->message = text_of(ld, n);
    cite_of(ld, n, &ru->cite);
    ru->pos = pos_of(n);
    if (!ru->expr_text)
        return ru;
    struct expr_error err;
    ru->expr = expr_parse(ld->a, ru->expr_text, &err);
    if (!ru->expr)
        diag_report(ld->dg, DIAG_RULE_SYNTAX, value_pos(n, "expr", err.offset), "rule '%s': %s",
                    ru->name ? ru->name : "?", err.message);
    return ru;
}

/* <at instance= address=> */
static struct model_at *load_at(struct loader *ld, xmlNode *n)
{
    struct model_at *at = arena_zalloc(ld->a, sizeof(*at));
    at->instance_name = get(ld, n, "instance");
    get_num(ld, n, "address", &at->address);
    at->pos = pos_of(n);
    return at;
}

static enum model_space space_of(const char *s)
{
    if (s && strcmp(s, "pci") == 0)
        return SPACE_PCI;
    if (s && strcmp(s, "mmio") == 0)
        return SPACE_MMIO;
    return SPACE_MSR;
}

static void load_reg_children(struct loader *ld, xmlNode *n, struct model_reg *r)
{
    size_t fcap = 0, rcap = 0, acap = 0;
    for_each_element(c, n) {
        if (is_elem(c, "field"))
            arena_push(ld->a, (void ***)&r->fields, &r->nfields, &fcap, load_field(ld, c, r));
        else if (is_elem(c, "gap"))
            arena_push(ld->a, (void ***)&r->fields, &r->nfields, &fcap, load_gap(ld, c, r));
        else if (is_elem(c, "rule"))
            arena_push(ld->a, (void ***)&r->rules, &r->nrules, &rcap, load_rule(ld, c));
        else if (is_elem(c, "at"))
            arena_push(ld->a, (void ***)&r->ats, &r->nats, &acap, load_at(ld, c));
    }
}

/*
 * addresses="0xA0 0xB0 0xB8 0xC0": each element's address, lowest index
 * first, for arrays the manual does not space evenly. Numbers are separated
 * by blanks or commas; a bad one is reported where it stands.
 */
static bool parse_addresses(struct loader *ld, xmlNode *n, struct model_reg *r, const char *v)
{
    size_t cap = 0;
    for (size_t i = 0; v[i];) {
        i += strspn(v + i, " \t\r\n,");
        size_t len = strcspn(v + i, " \t\r\n,");
        if (!len)
            break;
        uint64_t a;
        size_t bad = 0;
        enum expr_number_status st = expr_scan_number(v + i, len, &a, &bad);
        if (st != EXPR_NUMBER_OK) {
            const char *word = arena_strndup(ld->a, v + i, len);
            diag_report(ld->dg, DIAG_BAD_NUMBER, value_pos(n, "addresses", i + bad),
                        "'%s' in 'addresses' is not a number", word);
            return false;
        }
        if (r->naddrs == cap) {
            cap = cap ? 2 * cap : 8;
            uint64_t *grown = arena_alloc(ld->a, cap * sizeof(*grown));
            if (r->naddrs)
                memcpy(grown, r->addrs, r->naddrs * sizeof(*grown));
            r->addrs = grown;
        }
        r->addrs[r->naddrs++] = a;
        i += len;
    }
    return true;
}

/* address= and stride=, or addresses=: which the register gives, and whether they fit its form. */
static void load_reg_address(struct loader *ld, xmlNode *n, struct model_reg *r)
{
    const char *address = get(ld, n, "address"), *stride = get(ld, n, "stride");
    const char *addresses = get(ld, n, "addresses");
    const char *name = r->written_name ? r->written_name : "?";
    if (addresses && (address || stride)) {
        diag_report(ld->dg, DIAG_BAD_ARRAY, value_pos(n, "addresses", 0),
                    "register '%s' gives 'addresses' and '%s': give one or the other", name,
                    address ? "address" : "stride");
        return;
    }
    if (addresses) {
        if (!r->is_array) {
            diag_report(ld->dg, DIAG_BAD_ARRAY, value_pos(n, "addresses", 0),
                        "register '%s' is not an array: 'addresses' needs a name such as "
                        "'%s{3-0}'", name, name);
            return;
        }
        if (parse_addresses(ld, n, r, addresses) && r->naddrs != r->count)
            diag_report(ld->dg, DIAG_BAD_ARRAY, value_pos(n, "addresses", 0),
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
        diag_report(ld->dg, DIAG_SCHEMA, r->pos,
                    "element 'register': missing attribute 'address' (or 'addresses')");
        return;
    }
    get_num(ld, n, "address", &r->address);
    bool has_stride = get_num(ld, n, "stride", &r->stride);
    if (r->is_array && !has_stride && !stride)
        diag_report(ld->dg, DIAG_BAD_ARRAY, r->pos, "register array '%s' has no 'stride'",
                    r->written_name);
}

/* <register name= space= address= stride= | addresses= width= size= reset= gaps= desc= cite...> */
static struct model_reg *load_register(struct loader *ld, xmlNode *n, struct model_block *b)
{
    struct model_reg *r = arena_zalloc(ld->a, sizeof(*r));
    r->pos = pos_of(n);
    r->block = b;
    r->written_name = get(ld, n, "name");
    if (r->written_name)
        parse_reg_name(ld, n, r);
    load_reg_address(ld, n, r);
    r->space = space_of(get(ld, n, "space"));
    r->width = get_uint(ld, n, "width", 0);
    r->size = get_uint(ld, n, "size", r->space == SPACE_MSR ? 64 : 32);
    r->has_reset = get_num(ld, n, "reset", &r->reset);
    const char *gaps = get(ld, n, "gaps");
    r->gaps = gaps ? gaps : b->gaps ? b->gaps : ld->spec->gaps;
    r->desc = desc_of(ld, n);
    cite_of(ld, n, &r->cite);
    load_reg_children(ld, n, r);
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
    s->pos = pos_of(n);
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
    e->pos = pos_of(n);
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
    e->counter_mask = UINT64_MAX;
    if (e->counters_text)
        e->has_counters = parse_counters(ld, n, e->counters_text, &e->counter_mask);
    else if (parent && parent->has_counters)
        e->has_counters = true, e->counter_mask = parent->counter_mask,
        e->counters_text = parent->counters_text;
    e->desc = desc_of(ld, n);
    cite_of(ld, n, &e->cite);
    size_t scap = 0, ecap = 0;
    for_each_element(c, n) {
        if (is_elem(c, "set"))
            arena_push(ld->a, (void ***)&e->sets, &e->nsets, &scap, load_set(ld, c));
        else if (is_elem(c, "sub") && !parent)
            arena_push(ld->a, (void ***)&e->subs, &e->nsubs, &ecap, load_event(ld, c, t, e));
    }
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
    t->pos = pos_of(n);
    size_t cap = 0;
    for_each_element(c, n)
        if (is_elem(c, "event"))
            arena_push(ld->a, (void ***)&t->events, &t->nevents, &cap, load_event(ld, c, t, NULL));
    return t;
}

/* ---------------------------------------------------------------- pmon */

/* <rdpmc processor= first= high-zero=> */
static struct model_rdpmc *load_rdpmc(struct loader *ld, xmlNode *n)
{
    struct model_rdpmc *r = arena_zalloc(ld->a, sizeof(*r));
    r->processor = get(ld, n, "processor");
    r->first = get_uint(ld, n, "first", 0);
    r->high_zero = get_bool(ld, n, "high-zero");
    cite_of(ld, n, &r->cite);
    r->pos = pos_of(n);
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
    c->pos = pos_of(n);
    size_t cap = 0;
    for_each_element(k, n)
        if (is_elem(k, "rdpmc"))
            arena_push(ld->a, (void ***)&c->rdpmcs, &c->nrdpmcs, &cap, load_rdpmc(ld, k));
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
    bc->pos = pos_of(n);
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
        diag_report(ld->dg, DIAG_SCHEMA, value_pos(n, "clear", 0),
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
    bs->pos = pos_of(n);
    return bs;
}

/* A second <pmon>, <box-control>... where one is allowed. */
static void report_repeated(struct loader *ld, xmlNode *n, struct srcpos first)
{
    diag_report(ld->dg, DIAG_SCHEMA, pos_of(n), "element '%s' may appear only once here",
                (const char *)n->name);
    diag_note(ld->dg, first, "first '%s' is here", (const char *)n->name);
}

/* <pmon> (<counters/>|<box-control/>|<box-status/>)* </pmon> */
static void load_pmon(struct loader *ld, xmlNode *n, struct model_block *b)
{
    if (b->pmon) {
        report_repeated(ld, n, b->pmon->pos);
        return;
    }
    struct model_pmon *p = arena_zalloc(ld->a, sizeof(*p));
    cite_of(ld, n, &p->cite);
    p->pos = pos_of(n);
    b->pmon = p;
    size_t cap = 0;
    for_each_element(c, n) {
        if (is_elem(c, "counters")) {
            arena_push(ld->a, (void ***)&p->counters, &p->ncounters, &cap, load_counters(ld, c));
        } else if (is_elem(c, "box-control")) {
            if (p->box_control)
                report_repeated(ld, c, p->box_control->pos);
            else
                p->box_control = load_box_control(ld, c);
        } else if (is_elem(c, "box-status")) {
            if (p->box_status)
                report_repeated(ld, c, p->box_status->pos);
            else
                p->box_status = load_box_status(ld, c);
        }
    }
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
    g->pos = pos_of(n);
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
    o->pos = pos_of(n);
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
    g->pos = pos_of(n);
    size_t cap = 0;
    for_each_element(c, n)
        if (is_elem(c, "box-overflow"))
            arena_push(ld->a, (void ***)&g->boxes, &g->nboxes, &cap, load_box_overflow(ld, c));
    return g;
}

/* <pmon-global> (<global-control/>|<global-status/>)* */
static void load_pmon_global(struct loader *ld, xmlNode *n)
{
    struct model_spec *s = ld->spec;
    if (s->pmon_global) {
        report_repeated(ld, n, s->pmon_global->pos);
        return;
    }
    struct model_pmon_global *p = arena_zalloc(ld->a, sizeof(*p));
    cite_of(ld, n, &p->cite);
    p->pos = pos_of(n);
    s->pmon_global = p;
    for_each_element(c, n) {
        if (is_elem(c, "global-control")) {
            if (p->control)
                report_repeated(ld, c, p->control->pos);
            else
                p->control = load_global_control(ld, c);
        } else if (is_elem(c, "global-status")) {
            if (p->status)
                report_repeated(ld, c, p->status->pos);
            else
                p->status = load_global_status(ld, c);
        }
    }
}

/* ---------------------------------------------------------------- blocks and the spec */

/* Growth state of the lists children are appended to (arena_push needs a capacity). */
struct caps {
    size_t sources, blocks, instances, regs, tables, cpus;
};

/* <instance name= base= vendor= device= dev= func= desc=> */
static struct model_instance *load_instance(struct loader *ld, xmlNode *n, struct model_block *b)
{
    struct model_instance *in = arena_zalloc(ld->a, sizeof(*in));
    in->name = get(ld, n, "name");
    in->has_base = get_num(ld, n, "base", &in->base);
    bool v = get_num(ld, n, "vendor", &in->vendor), d = get_num(ld, n, "device", &in->device);
    bool dv = get_num(ld, n, "dev", &in->dev), fn = get_num(ld, n, "func", &in->func);
    in->has_pci = v || d || dv || fn;
    in->desc = desc_of(ld, n);
    cite_of(ld, n, &in->cite);
    in->block = b;
    in->index = (unsigned)b->ninstances;
    in->pos = pos_of(n);
    return in;
}

/* <source id= title= ref= rev= date= url=> <desc/>? */
static struct model_source *load_source(struct loader *ld, xmlNode *n)
{
    struct model_source *s = arena_zalloc(ld->a, sizeof(*s));
    s->id = get(ld, n, "id");
    s->title = get(ld, n, "title");
    if (s->title)
        s->title = fold_text(ld->a, s->title);
    s->ref = get(ld, n, "ref");
    s->rev = get(ld, n, "rev");
    s->date = get(ld, n, "date");
    s->url = get(ld, n, "url");
    s->desc = desc_of(ld, n);
    s->pos = pos_of(n);
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
    cpu->pos = pos_of(n);
    return cpu;
}

static void load_children(struct loader *ld, xmlNode *parent, struct model_block *b,
                          struct caps *caps, bool from_part);

/* <block name= title= gaps= cite...> children </block> */
static struct model_block *load_block(struct loader *ld, xmlNode *n)
{
    struct model_block *b = arena_zalloc(ld->a, sizeof(*b));
    b->name = get(ld, n, "name");
    b->title = get(ld, n, "title");
    b->gaps = get(ld, n, "gaps");
    b->desc = desc_of(ld, n);
    cite_of(ld, n, &b->cite);
    b->pos = pos_of(n);
    struct caps caps = {0};
    load_children(ld, n, b, &caps, false);
    return b;
}

static void load_include(struct loader *ld, xmlNode *n, struct model_block *b, struct caps *caps);

/* One child of <regspec>, <block> or an included <part>; 'b' NULL at top level. */
static void load_child(struct loader *ld, xmlNode *c, struct model_block *b, struct caps *caps,
                       bool from_part)
{
    struct model_spec *s = ld->spec;
    if (is_elem(c, "desc")) {
        /* read by desc_of(); a <part>'s own description is not part of the model */
    } else if (is_elem(c, "include")) {
        load_include(ld, c, b, caps);
    } else if (!b && is_elem(c, "source")) {
        arena_push(ld->a, (void ***)&s->sources, &s->nsources, &caps->sources, load_source(ld, c));
    } else if (!b && is_elem(c, "cpu")) {
        arena_push(ld->a, (void ***)&s->cpus, &s->ncpus, &caps->cpus, load_cpu(ld, c));
    } else if (!b && is_elem(c, "block")) {
        arena_push(ld->a, (void ***)&s->blocks, &s->nblocks, &caps->blocks, load_block(ld, c));
    } else if (!b && is_elem(c, "pmon-global")) {
        load_pmon_global(ld, c);
    } else if (b && is_elem(c, "instance")) {
        arena_push(ld->a, (void ***)&b->instances, &b->ninstances, &caps->instances,
                   load_instance(ld, c, b));
    } else if (b && is_elem(c, "register")) {
        arena_push(ld->a, (void ***)&b->regs, &b->nregs, &caps->regs, load_register(ld, c, b));
    } else if (b && is_elem(c, "events")) {
        arena_push(ld->a, (void ***)&b->event_tables, &b->nevent_tables, &caps->tables,
                   load_events(ld, c, b));
    } else if (b && is_elem(c, "pmon")) {
        load_pmon(ld, c, b);
    } else if (from_part) {
        diag_report(ld->dg, DIAG_SCHEMA, pos_of(c), "element '%s' cannot be included %s",
                    (const char *)c->name, b ? "inside a block" : "at the top level");
        if (file_of(c)->included_at.file)
            diag_note(ld->dg, file_of(c)->included_at, "included here");
    }
}

static void load_children(struct loader *ld, xmlNode *parent, struct model_block *b,
                          struct caps *caps, bool from_part)
{
    for_each_element(c, parent)
        load_child(ld, c, b, caps, from_part);
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
        diag_report(ld->dg, DIAG_INCLUDE, value_pos(n, "href", 0),
                    "include '%s' must be a relative path (no URL, no absolute path)", href);
        return false;
    }
    if (href[0] == '\0') {
        diag_report(ld->dg, DIAG_INCLUDE, value_pos(n, "href", 0), "include has an empty 'href'");
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
    struct srcpos at = pos_of(n);
    if (prev->loading)
        diag_report(ld->dg, DIAG_INCLUDE, at, "file '%s' includes itself", path);
    else
        diag_report(ld->dg, DIAG_INCLUDE, at, "file '%s' is included twice", path);
    if (prev->included_at.file)
        diag_note(ld->dg, prev->included_at, "'%s' is first included here", prev->path);
    return false;
}

/* ---------------------------------------------------------------- other formats */

/*
 * A register description in another language is told apart from a broken
 * regspec, so its author learns at once that regc does not read it:
 * CMSIS-SVD (XML, root <device>), IP-XACT (XML in the IP-XACT or SPIRIT
 * namespace), SystemRDL (not XML: 'addrmap', 'regfile' or 'field {').
 */
static void report_foreign(struct loader *ld, struct srcpos p, const char *format, const char *why)
{
    diag_report(ld->dg, DIAG_NOT_REGSPEC, p,
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
static bool foreign_text(struct loader *ld, struct lfile *f)
{
    size_t i = strncmp(f->text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (i < f->len && is_space(f->text[i]))
        i++;
    if (i >= f->len || f->text[i] == '<')
        return false;
    size_t len = f->len < 65536 ? f->len : 65536;
    static const char *const words[] = {"addrmap", "regfile", "field"};
    for (size_t k = 0; k < ARRAY_SIZE(words); k++) {
        size_t at = find_word(f->text, len, words[k]);
        size_t j = at == SIZE_MAX ? at : at + strlen(words[k]);
        while (k == 2 && j < len && is_space(f->text[j]))
            j++;
        if (at != SIZE_MAX && (k < 2 || (j < len && f->text[j] == '{'))) {
            char why[64];
            snprintf(why, sizeof(why), "'%s' %s", words[k], k < 2 ? "component" : "definition");
            report_foreign(ld, pos_at(f, at), "SystemRDL", why);
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
static bool foreign_root(struct loader *ld, xmlDocPtr doc)
{
    xmlNode *root = xmlDocGetRootElement(doc);
    if (!root)
        return false;
    const char *ns = root->ns && root->ns->href ? (const char *)root->ns->href : "";
    char why[200];
    if (!root->ns && strcmp((const char *)root->name, "device") == 0) {
        report_foreign(ld, pos_of(root), "CMSIS-SVD", "root element 'device'");
        return true;
    }
    if (contains_nocase(ns, "ipxact") || contains_nocase(ns, "spirit")) {
        snprintf(why, sizeof(why), "root element '%s' in namespace '%.120s'",
                 (const char *)root->name, ns);
        report_foreign(ld, pos_of(root), "IP-XACT", why);
        return true;
    }
    return false;
}

/* parse_file() for a spec or an include, which may be in another language: NULL after reporting. */
static xmlDocPtr parse_regspec(struct loader *ld, struct lfile *f)
{
    if (foreign_text(ld, f))
        return NULL;
    xmlDocPtr doc = parse_file(ld, f);
    if (doc && foreign_root(ld, doc)) {
        xmlFreeDoc(doc);
        return NULL;
    }
    return doc;
}

/* <include href="FILE"/>: the children of FILE's <part> go here. */
static void load_include(struct loader *ld, xmlNode *n, struct model_block *b, struct caps *caps)
{
    if (ld->piece) { /* files are opened and checked for cycles by the serial load only */
        ld->refused = true;
        return;
    }
    const char *href = get(ld, n, "href");
    if (!href || !include_href_ok(ld, n, href))
        return;
    struct lfile *from = file_of(n);
    const char *path = join_path(ld->a, from->path, href);
    struct srcpos at = pos_of(n);
    char *real = realpath(path, NULL);
    if (!real) {
        int err = errno;
        diag_report(ld->dg, DIAG_INCLUDE, value_pos(n, "href", 0),
                    "cannot read included file '%s': %s", path, strerror(err));
        return;
    }
    const char *areal = arena_strdup(ld->a, real);
    free(real);
    if (!include_new(ld, n, path, areal))
        return;
    struct lfile *f = open_file(ld, path, areal, at, DIAG_INCLUDE);
    if (!f)
        return;
    xmlDocPtr doc = parse_regspec(ld, f);
    if (doc && validate(ld, f, doc)) {
        xmlNode *root = xmlDocGetRootElement(doc);
        if (!is_elem(root, "part")) {
            diag_report(ld->dg, DIAG_INCLUDE, pos_of(root),
                        "an included file must have the root element 'part', not '%s'",
                        (const char *)root->name);
            diag_note(ld->dg, at, "included here");
        } else {
            f->loading = true;
            load_children(ld, root, b, caps, true);
            f->loading = false;
        }
    }
    xmlFreeDoc(doc);
    ld->cur = from;
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
    s->pos = pos_of(n);
    struct caps caps = {0};
    load_children(ld, n, NULL, &caps, false);
}

/* ---------------------------------------------------------------- entry */

static void load_root(struct loader *ld, struct lfile *f)
{
    xmlDocPtr doc = parse_regspec(ld, f);
    if (!doc)
        return;
    if (validate(ld, f, doc)) {
        xmlNode *root = xmlDocGetRootElement(doc);
        if (is_elem(root, "regspec")) {
            f->loading = true;
            load_regspec(ld, root);
            f->loading = false;
        } else
            diag_report(ld->dg, DIAG_SCHEMA, pos_of(root),
                        "the root element is '%s': a spec starts with 'regspec' ('part' is for "
                        "included files)",
                        (const char *)root->name);
    }
    xmlFreeDoc(doc);
}

/* ---------------------------------------------------------------- the parallel load */

/*
 * A large spec is loaded on several threads (-j N): xmlsplit.h cuts its
 * text at the start tags of the top-level <block>s into pieces that are
 * each a regspec document of their own, and each thread parses, validates
 * and walks one piece, with its own parser context, validation context,
 * libxml2 error handlers (they are per thread), arena, diagnostics and
 * loader. Shared, and only read: the file's text and line table, the
 * compiled schema and the schema's attribute table. The SAX hook maps a
 * piece's offsets back to the file's (piece_to_file), so every position is
 * the serial load's. The pieces' models are joined in file order.
 *
 * It is only a faster way to the same model. Any diagnostic in any piece
 * (every code counts as an error there, warnings and ignored ones too), an
 * <include>, or models that cannot be joined as they are (two
 * <pmon-global>) drop all of it, and the file is loaded serially: what is
 * reported is always what -j1 reports.
 *
 * When: more than one job, a file of at least SPLIT_MIN bytes (256 KiB,
 * under 10 ms of loading: below that, starting threads and validation
 * contexts and scanning for cuts eat much of the gain), and what
 * xmlsplit_find() asks (root <regspec>, UTF-8, no DOCTYPE, no include, two
 * places to cut). The environment variable REGC_SPLIT_MIN (bytes) replaces
 * SPLIT_MIN: a knob for tests, which split small files with
 * REGC_SPLIT_MIN=0.
 *
 * A wrong cut. Every piece but the last ends with "</regspec>" added at
 * its cut. That document is well-formed only if, at the cut, the parser is
 * in the root's content with no other element and no markup open: inside a
 * comment, CDATA section or PI the added tag is part of that markup and the
 * document ends unterminated; inside a tag or an attribute value '<' is not
 * allowed; below another element (a <block> at depth 2) the added end tag
 * does not match it. So when every piece is well-formed, each cut is in the
 * root's content between two pieces of markup, where the serial parser is
 * in the same state (no DTD, hence no entities or default attributes; no
 * namespace declarations in scope but the root's, which every piece
 * repeats). Piece k then parses from its cut the same bytes the serial
 * parser reads from there, up to the next cut: the pieces' root children,
 * in order, are the file's, one for one. A cut in the wrong place can only
 * give a well-formedness error, and with it the serial load; never another
 * document. And the schema: the root's content is zeroOrMore(choice(desc,
 * source, block, pmon-global, include)), so the file is valid exactly when
 * every piece is.
 */

enum { SPLIT_MIN = 256 * 1024 };

/* One piece of a split spec, loaded on its own thread. */
struct piece {
    struct piece_input in;
    struct arena a; /* the piece's model; joined into the result's arena */
    struct diag dg; /* its diagnostics: any at all means the serial load */
    struct loader ld;
    bool loaded;   /* parsed, valid and walked without a report */
    bool has_desc; /* its root has a <desc> child: the spec's description, if the first */
};

struct split {
    const struct loader *main; /* the serial loader: file, schema and schema table to share */
    struct piece *pieces;      /* xcalloc'd */
    unsigned n;
};

/* SPLIT_MIN, or REGC_SPLIT_MIN (a byte count) from the environment. */
static size_t split_min(void)
{
    const char *v = getenv("REGC_SPLIT_MIN");
    if (!v || !*v)
        return SPLIT_MIN;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    return *end || errno ? SPLIT_MIN : (size_t)n;
}

static bool has_child(xmlNode *n, const char *name)
{
    for_each_element(c, n)
        if (is_elem(c, name))
            return true;
    return false;
}

/* The piece's own loader: the shared parts read-only, everything it writes its own. */
static void piece_setup(struct piece *p, const struct loader *main)
{
    arena_init(&p->a);
    diag_init(&p->dg, NULL);
    for (int i = 0; i < DIAG__COUNT; i++)
        p->dg.sev[i] = SEV_ERROR;
    memset(&p->ld, 0, sizeof(p->ld));
    p->ld.a = &p->a;
    p->ld.dg = &p->dg;
    p->ld.cur = main->files[0];
    p->ld.piece = &p->in;
    p->ld.elems = main->elems;
    p->ld.nelems = main->nelems;
    p->ld.spec = arena_zalloc(&p->a, sizeof(*p->ld.spec));
    p->ld.validator = xmlRelaxNGNewValidCtxt(main->schema);
    if (p->ld.validator)
        xmlRelaxNGSetValidStructuredErrors(p->ld.validator, on_error, &p->ld);
}

/* jobs_fn: loads piece 'slot' on this thread. */
static void load_piece(void *arg, unsigned slot)
{
    struct split *sp = arg;
    struct piece *p = &sp->pieces[slot];
    struct loader *ld = &p->ld;
    piece_setup(p, sp->main);
    xmlSetGenericErrorFunc(NULL, on_generic_error);
    xmlSetStructuredErrorFunc(ld, on_error);
    xmlDocPtr doc = parse_file(ld, ld->cur);
    if (doc && validate(ld, ld->cur, doc)) {
        xmlNode *root = xmlDocGetRootElement(doc);
        if (is_elem(root, "regspec")) {
            load_regspec(ld, root);
            p->has_desc = has_child(root, "desc");
            p->loaded = p->dg.nerrors == 0 && !ld->refused;
        }
    }
    xmlFreeDoc(doc);
    xmlRelaxNGFreeValidCtxt(ld->validator);
    free(ld->schema_errs);
    xmlSetStructuredErrorFunc(NULL, NULL);
    xmlSetGenericErrorFunc(NULL, NULL);
}

/* Appends 'n' items to a list grown as the serial load grows it. */
static void join_list(struct arena *a, void ***items, size_t *count, size_t *cap, void **more,
                      size_t n)
{
    for (size_t i = 0; i < n; i++)
        arena_push(a, items, count, cap, more[i]);
}

/* The pieces' models, in order, into 'spec' (which keeps its inputs); false: they cannot be. */
static bool split_join(struct split *sp, struct model_spec *spec, struct arena *a)
{
    unsigned globals = 0;
    for (unsigned k = 0; k < sp->n; k++) {
        if (!sp->pieces[k].loaded)
            return false;
        globals += sp->pieces[k].ld.spec->pmon_global != NULL;
    }
    if (globals > 1)
        return false; /* the serial load reports the second one */
    const struct model_spec *first = sp->pieces[0].ld.spec;
    spec->name = first->name;
    spec->prefix = first->prefix;
    spec->title = first->title;
    spec->gaps = first->gaps;
    spec->version = first->version;
    spec->desc = first->desc;
    spec->pos = first->pos;
    size_t sources_cap = 0, blocks_cap = 0, cpus_cap = 0;
    bool desc_found = false;
    for (unsigned k = 0; k < sp->n; k++) {
        struct model_spec *s = sp->pieces[k].ld.spec;
        if (sp->pieces[k].has_desc && !desc_found) {
            spec->desc = s->desc;
            desc_found = true;
        }
        join_list(a, (void ***)&spec->sources, &spec->nsources, &sources_cap, (void **)s->sources,
                  s->nsources);
        join_list(a, (void ***)&spec->blocks, &spec->nblocks, &blocks_cap, (void **)s->blocks,
                  s->nblocks);
        join_list(a, (void ***)&spec->cpus, &spec->ncpus, &cpus_cap, (void **)s->cpus, s->ncpus);
        if (s->pmon_global)
            spec->pmon_global = s->pmon_global;
    }
    for (unsigned k = 0; k < sp->n; k++)
        arena_adopt(a, &sp->pieces[k].a);
    return true;
}

/*
 * Loads the spec 'f' on up to 'jobs' threads if it qualifies. Returns the
 * number of pieces loaded, or 0 when nothing was: load it serially.
 */
static unsigned load_split(struct loader *ld, struct lfile *f, unsigned jobs)
{
    struct xmlsplit cuts;
    if (jobs < 2 || f->len < split_min() || !xmlsplit_find(f->text, f->len, jobs, &cuts))
        return 0;
    struct split sp = {.main = ld, .n = cuts.n};
    sp.pieces = xcalloc(cuts.n, sizeof(*sp.pieces));
    for (unsigned k = 0; k < cuts.n; k++) {
        struct piece_input *in = &sp.pieces[k].in;
        in->text = f->text;
        in->root_end = cuts.root_end;
        in->from = cuts.cut[k];
        in->to = cuts.cut[k + 1];
        in->tail = k + 1 < cuts.n ? "</regspec>" : "";
    }
    xmlInitParser();
    jobs_run(cuts.n, load_piece, &sp);
    /* Slot 0 ran on this thread and reset its handlers. */
    xmlSetGenericErrorFunc(NULL, on_generic_error);
    xmlSetStructuredErrorFunc(ld, on_error);
    bool ok = split_join(&sp, ld->spec, ld->a);
    for (unsigned k = 0; k < cuts.n; k++) {
        arena_release(&sp.pieces[k].a); /* empty after a join */
        diag_release(&sp.pieces[k].dg);
    }
    free(sp.pieces);
    return ok ? cuts.n : 0;
}

static void loader_release(struct loader *ld)
{
    for (size_t i = 0; i < ld->nfiles; i++) {
        diag_drop_source(ld->dg, ld->files[i]->index, true); /* the checker's carets reread it */
        free(ld->files[i]->text);
        free(ld->files[i]->lines);
    }
    free(ld->files);
    free(ld->schema_errs);
    free(ld->elems);
    xmlRelaxNGFreeValidCtxt(ld->validator);
    xmlRelaxNGFree(ld->schema);
}

struct model_spec *xmlload_spec(struct arena *a, struct diag *dg, const char *path,
                                unsigned jobs)
{
    return xmlload_spec_pieces(a, dg, path, jobs, NULL);
}

struct model_spec *xmlload_spec_pieces(struct arena *a, struct diag *dg, const char *path,
                                       unsigned jobs, unsigned *pieces)
{
    unsigned n = 0;
    struct loader ld = {.a = a, .dg = dg};
    ld.spec = arena_zalloc(a, sizeof(*ld.spec));
    unsigned before = dg->nerrors;
    xmlSetGenericErrorFunc(NULL, on_generic_error);
    xmlSetStructuredErrorFunc(&ld, on_error);
    char *real = realpath(path, NULL);
    struct lfile *f = open_file(&ld, path, arena_strdup(a, real ? real : path),
                                (struct srcpos){0, 0, 0}, DIAG_IO);
    free(real);
    if (f) {
        ld.cur = f;
        if (compile_schema(&ld) < 0)
            diag_report(dg, DIAG_SCHEMA, (struct srcpos){0, 0, 0},
                        "the built-in schema does not compile");
        else if ((n = load_split(&ld, f, jobs)) == 0)
            load_root(&ld, f);
    }
    loader_release(&ld);
    xmlSetStructuredErrorFunc(NULL, NULL);
    xmlSetGenericErrorFunc(NULL, NULL);
    if (pieces)
        *pieces = n > 1 ? n : 1;
    return dg->nerrors == before ? ld.spec : NULL;
}
