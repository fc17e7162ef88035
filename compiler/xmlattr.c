/*
 * xmlattr - the element being loaded, as the element handlers see it: its
 * attributes read (copied into the arena, numbers parsed by xmlvalue.c),
 * the positions of the element, an attribute and a character inside a
 * value (from the raw start tag the scanner kept), and what the model's
 * construction reports, held until the file is known sound (xmlload.c
 * flushes or drops it). See xmlload_int.h.
 */
#include "xmlload_int.h"

#include "util.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void xl_report(struct loader *ld, enum diag_code code, struct srcpos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_held_vadd(&ld->held, code, false, pos, fmt, ap);
    va_end(ap);
}

void xl_note(struct loader *ld, struct srcpos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_held_vadd(&ld->held, 0, true, pos, fmt, ap);
    va_end(ap);
}

/* The element's position: its file, the line of its '<', col 0. */
struct srcpos xl_pos_of(struct loader *ld, const struct xl_elem *n)
{
    return (struct srcpos){ld->rf->f->index, n->line, 0};
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
static size_t attr_offset(struct loader *ld, const struct xl_elem *n, const char *name, bool value)
{
    const struct rfile *rf = ld->rf;
    if (n != &rf->el || rf->tag.len == 0)
        return SIZE_MAX;
    const char *t = rf->sc.buf + rf->tag.start;
    size_t len = rf->tag.len, nlen = strlen(name), i = 1;
    while (i < len && !util_is_space(t[i]) && t[i] != '>' && t[i] != '/')
        i++;
    while (i < len) {
        while (i < len && util_is_space(t[i]))
            i++;
        if (i >= len || t[i] == '>' || t[i] == '/')
            return SIZE_MAX;
        size_t start = i;
        while (i < len && t[i] != '=' && !util_is_space(t[i]))
            i++;
        bool match = i - start == nlen && memcmp(t + start, name, nlen) == 0;
        while (i < len && (util_is_space(t[i]) || t[i] == '='))
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
struct srcpos xl_attr_pos(struct loader *ld, const struct xl_elem *n, const char *name)
{
    size_t i = attr_offset(ld, n, name, false);
    return i == SIZE_MAX ? xl_pos_of(ld, n) : tag_pos(ld, i);
}

/*
 * Position of character 'off' (0-based, in the value libxml2 gives) of
 * attribute 'name': a character or entity reference in the raw text counts
 * as one character. Line only when the value cannot be found.
 */
struct srcpos xl_value_pos(struct loader *ld, const struct xl_elem *n, const char *name, size_t off)
{
    size_t i = attr_offset(ld, n, name, true);
    if (i == SIZE_MAX)
        return xl_pos_of(ld, n);
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

/* ---------------------------------------------------------------- values */

/* A value of attribute 'attr' that xmlvalue.c refused, reported where it goes wrong. */
void xl_report_value(struct loader *ld, const struct xl_elem *n, const char *attr,
                     const struct value_error *err)
{
    xl_report(ld, err->code, xl_value_pos(ld, n, attr, err->at), "%s", err->msg);
}

/* A second <pmon>, <box-control>, <array-index>... where one is allowed. */
void xl_report_repeated(struct loader *ld, const struct xl_elem *n, struct srcpos first)
{
    xl_report(ld, DIAG_SCHEMA, xl_pos_of(ld, n), "element '%s' may appear only once here",
              (const char *)n->name);
    xl_note(ld, first, "first '%s' is here", (const char *)n->name);
}

/*
 * A look-up by address in a small table, the search through e's attributes
 * done once per name: an element's attributes are looked up some ten
 * times each (its check, its handler), most of them absent.
 */
static inline int attr_index(struct rfile *rf, const struct schema_elem *e, const char *name)
{
    uint64_t key = (uint64_t)(uintptr_t)name ^ (uint64_t)(uintptr_t)e << 7;
    struct attr_memo *m = &rf->memo[key * UINT64_C(0x9E3779B97F4A7C15) >> (64 - ATTR_MEMO_BITS)];
    if (m->e != e || m->name != name) {
        const struct schema_attr *at = schema_attr_find(e, name);
        *m = (struct attr_memo){e, name, at ? (int)(at - e->attrs) : -1};
    }
    return m->index;
}

int xl_attr_index(struct rfile *rf, const struct schema_elem *e, const char *name)
{
    return attr_index(rf, e, name);
}

/* Attribute 'name' of 'n' (not in a namespace), searched for; NULL when absent. */
static const char *attr_search(const struct xl_elem *n, const char *name)
{
    for (size_t i = 0; i < n->nattrs; i++) {
        const struct xl_attr *at = &n->attrs[i];
        /* the first byte first: most of an element's attributes differ there */
        if (at->uri || at->name[0] != name[0] || strcmp(at->name, name) != 0)
            continue;
        return at->value;
    }
    return NULL; /* no DTD (the scanner refuses one) gives defaults to look for */
}

/*
 * Attribute 'name' of 'n' (not in a namespace), or NULL when absent;
 * copied into the arena when 'keep', else borrowed (valid while 'n' is
 * loaded: for values parsed or folded at once, a million registers'
 * numbers are not kept twice). The element being loaded, once judged,
 * has its attributes by their index in its schema entry.
 */
static inline const char *attr_value(struct loader *ld, const struct xl_elem *n, const char *name,
                                     bool keep)
{
    struct rfile *rf = ld->rf;
    const char *v;
    int i = n == &rf->el && rf->el_schema ? attr_index(rf, rf->el_schema, name) : -1;
    if (i >= 0)
        v = rf->el_given >> i & 1 ? rf->el_values[i] : NULL;
    else
        v = attr_search(n, name); /* not judged, or a name its entry lacks */
    return v && keep ? arena_strdup(ld->a, v) : v;
}

bool xl_has(const struct xl_elem *n, const char *name)
{
    for (size_t i = 0; i < n->nattrs; i++)
        if (strcmp(n->attrs[i].name, name) == 0)
            return true;
    return false;
}

const char *xl_get(struct loader *ld, const struct xl_elem *n, const char *name)
{
    return attr_value(ld, n, name, true);
}

const char *xl_peek(struct loader *ld, const struct xl_elem *n, const char *name)
{
    return attr_value(ld, n, name, false);
}

bool xl_get_bool(struct loader *ld, const struct xl_elem *n, const char *name)
{
    const char *v = xl_peek(ld, n, name);
    return v && strcmp(v, "true") == 0;
}

/* The desc= attribute (folded), else NULL; a <desc> child replaces it (end_element()). */
const char *xl_desc_of(struct loader *ld, const struct xl_elem *n)
{
    const char *d = xl_peek(ld, n, "desc");
    return d ? value_fold_text(ld->a, d) : NULL;
}

/* Numeric attribute: false when absent or invalid (reported). */
bool xl_get_num(struct loader *ld, const struct xl_elem *n, const char *name, uint64_t *out)
{
    const char *v = xl_peek(ld, n, name);
    if (!v)
        return false;
    struct value_error err;
    if (value_number(ld->a, name, v, out, &err))
        return true;
    xl_report_value(ld, n, name, &err);
    return false;
}

/*
 * A number stored in an 'unsigned' (width, size, index). A larger one is
 * reported here, as written: stored, it would be some other number.
 */
bool xl_get_num_max(struct loader *ld, const struct xl_elem *n, const char *name, uint64_t max,
                    uint64_t *out)
{
    uint64_t v;
    if (!xl_get_num(ld, n, name, &v))
        return false;
    if (v > max) {
        xl_report(ld, DIAG_BAD_NUMBER, xl_value_pos(ld, n, name, 0),
                  "'%s' is %s, out of range (at most %" PRIu64 ")", name, xl_get(ld, n, name), max);
        return false;
    }
    *out = v;
    return true;
}

unsigned xl_get_uint(struct loader *ld, const struct xl_elem *n, const char *name, unsigned dflt)
{
    uint64_t v;
    return xl_get_num_max(ld, n, name, UINT_MAX, &v) ? (unsigned)v : dflt;
}

static void cite_of(struct loader *ld, const struct xl_elem *n, struct model_cite *c)
{
    c->src = xl_get(ld, n, "src");
    c->table = xl_get(ld, n, "table");
    c->page = xl_get(ld, n, "page");
    c->section = xl_get(ld, n, "section");
    c->cite = xl_get(ld, n, "cite");
    c->pos = xl_pos_of(ld, n);
}

struct srcpos xl_doc_of(struct loader *ld, const struct xl_elem *n, const char **desc, struct model_cite *c)
{
    if (desc)
        *desc = xl_desc_of(ld, n);
    cite_of(ld, n, c);
    return c->pos;
}

struct model_role xl_role_of(struct loader *ld, const struct xl_elem *n, const char *name)
{
    return (struct model_role){xl_get(ld, n, name), NULL};
}
