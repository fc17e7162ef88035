/*
 * context.c - checked model in, jansson data tree out (docs/json.md).
 *
 * The stable keys come first in every object, in the order docs/json.md
 * lists them; template keys ("c_..." and the list flags) follow. All strings
 * are copied into the tree; scratch strings come from a private arena freed
 * before context_build() returns.
 */
#include "context.h"
#include "context_doc.h"

#include "arena.h"
#include "expr.h"
#include "names.h"
#include "util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A name made by def_in(): c_mdef names are padded but do not set the width. */
struct def_ref {
    json_t *name; /* borrowed: owned by the tree being built */
    bool mdef;
};

struct ctx {
    struct arena a;      /* scratch: names and formatted strings */
    const char *prefix;  /* as given or the spec's */
    struct def_ref *defs; /* every name made so far, in order; owned (xmalloc) */
    size_t ndefs, defs_cap;
};

/* ------------------------------------------------------------ small values */

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

/*
 * Writes "0x" and 'v' in lower-case hex, zero-filled to at least 'digits'
 * digits (1: no leading zeros), and a NUL into 'p' (room for 19 bytes);
 * returns the length. printf's "0x%0*" PRIx64 without printf: this runs for
 * every field.
 */
static size_t hex_to(char *p, uint64_t v, unsigned digits)
{
    char tmp[16];
    size_t n = 0;
    do {
        tmp[n++] = "0123456789abcdef"[v & 0xf];
        v >>= 4;
    } while (v);
    while (n < digits && n < sizeof(tmp))
        tmp[n++] = '0';
    p[0] = '0';
    p[1] = 'x';
    for (size_t i = 0; i < n; i++)
        p[2 + i] = tmp[n - 1 - i];
    p[2 + n] = '\0';
    return 2 + n;
}

/* "0x" + lower-case hex, no leading zeros. */
static json_t *hex(uint64_t v)
{
    char tmp[24];
    return json_stringn(tmp, hex_to(tmp, v, 1));
}

static const char *c_type(unsigned size)
{
    return size > 32 ? "uint64_t" : "uint32_t";
}

static const char *c_litmacro(unsigned size)
{
    return size > 32 ? "UINT64_C" : "UINT32_C";
}

/* A C literal of 'size' bits: UINT32_C(0xc10); 'pad' zero-fills to size/4 digits. */
static char *c_lit(struct ctx *c, uint64_t v, unsigned size, bool pad)
{
    char *p = arena_alloc(&c->a, 8 + 1 + 18 + 2); /* "UINT64_C" "(" 0x+16 ")" NUL */
    memcpy(p, c_litmacro(size), 8);
    p[8] = '(';
    size_t n = 9 + hex_to(p + 9, v, pad ? size / 4 : 1);
    p[n] = ')';
    p[n + 1] = '\0';
    return p;
}

/* An address literal: 32 bits when it fits (MSR indices, config offsets). */
static unsigned addr_bits(const struct model_reg *r)
{
    return r->space == SPACE_MMIO ? 64 : 32;
}

/* Keys are ASCII literals: no UTF-8 check needed. */
static void set(json_t *o, const char *key, json_t *v)
{
    json_object_set_new_nocheck(o, key, v);
}

static void set_str(json_t *o, const char *key, const char *s)
{
    json_object_set_new_nocheck(o, key, str_or_null(s));
}

/*
 * "c_def": the names a template #defines for an object, by role, so that
 * align_defs() can pad them to one column ("#define NAME   VALUE" aligned).
 * The name is 'stem' followed by 'suffix'. "c_mdef" holds function-like
 * macros ("NAME_GET(v)"): padded to the same column, but too long to set it.
 */
static void def_in(struct ctx *c, json_t *o, const char *key, const char *role,
                   const char *suffix, const char *stem)
{
    json_t *d = json_object_get(o, key);
    if (!d) {
        d = json_object();
        json_object_set_new_nocheck(o, key, d);
    }
    size_t ns = strlen(stem), nx = strlen(suffix);
    char tmp[256];
    char *name = ns + nx < sizeof(tmp) ? tmp : xmalloc(ns + nx + 1);
    memcpy(name, stem, ns);
    memcpy(name + ns, suffix, nx + 1);
    json_t *v = json_stringn(name, ns + nx);
    json_object_set_new_nocheck(d, role, v);
    if (name != tmp)
        free(name);
    if (c->ndefs == c->defs_cap) {
        c->defs_cap = c->defs_cap ? 2 * c->defs_cap : 256;
        c->defs = xrealloc(c->defs, c->defs_cap * sizeof(*c->defs));
    }
    c->defs[c->ndefs++] = (struct def_ref){v, strcmp(key, "c_mdef") == 0};
}

static void def(struct ctx *c, json_t *o, const char *role, const char *suffix, const char *stem)
{
    def_in(c, o, "c_def", role, suffix, stem);
}

/*
 * Pads the names def_in() made since index 'from' (c_def and c_mdef) to the
 * longest c_def name among them, so their values line up, and forgets them:
 * a scope aligned on its own (a register's rules) is left out of the
 * enclosing one. Callers open a scope with 'from = c->ndefs' before building
 * the objects whose names line up together.
 */
static void align_defs(struct ctx *c, size_t from)
{
    size_t width = 0;
    for (size_t i = from; i < c->ndefs; i++) {
        size_t n = json_string_length(c->defs[i].name);
        if (!c->defs[i].mdef && n > width)
            width = n;
    }
    char tmp[256];
    char *p = width < sizeof(tmp) ? tmp : xmalloc(width + 1);
    for (size_t i = from; i < c->ndefs; i++) {
        json_t *name = c->defs[i].name;
        size_t n = json_string_length(name);
        if (n >= width)
            continue;
        memcpy(p, json_string_value(name), n);
        memset(p + n, ' ', width - n);
        p[width] = '\0';
        json_string_setn(name, p, width);
    }
    if (p != tmp)
        free(p);
    c->ndefs = from;
}

/* Marks the first and last item of a list of objects. */
static void flag_list(json_t *list)
{
    size_t n = json_array_size(list);
    for (size_t i = 0; i < n; i++) {
        json_t *item = json_array_get(list, i);
        if (!json_is_object(item) || json_object_get(item, "first"))
            continue;
        set(item, "first", json_boolean(i == 0));
        set(item, "last", json_boolean(i + 1 == n));
    }
}

/* {"text": LINE} */
static json_t *text_line(const struct buf *line)
{
    json_t *o = json_object();
    json_object_set_new_nocheck(o, "text", json_stringn(line->s, line->len));
    return o;
}

/*
 * Description text for comment blocks: whitespace folded, wrapped at 'cols'
 * columns, as [{"text": LINE}, ...]; an empty list for NULL.
 */
static json_t *desc_lines(const char *s, size_t cols)
{
    json_t *lines = json_array();
    if (!s)
        return lines;
    struct buf line = BUF_INIT;
    const char *p = s;
    for (;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        const char *w = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        size_t n = (size_t)(p - w);
        if (line.len > 0 && line.len + 1 + n > cols) {
            json_array_append_new(lines, text_line(&line));
            buf_reset(&line);
        }
        if (line.len > 0)
            buf_addc(&line, ' ');
        buf_addn(&line, w, n);
    }
    if (line.len > 0)
        json_array_append_new(lines, text_line(&line));
    buf_release(&line);
    return lines;
}

/* The whitespace-folded text (one line), or NULL. */
static char *fold(struct ctx *c, const char *s)
{
    if (!s)
        return NULL;
    /* the words of 's' joined by single spaces, as desc_lines() with no width */
    char *r = arena_alloc(&c->a, strlen(s) + 1), *q = r;
    for (const char *p = s;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        if (q > r)
            *q++ = ' ';
        while (*p && !isspace((unsigned char)*p))
            *q++ = *p++;
    }
    *q = '\0';
    return r;
}

/* ------------------------------------------------------------ spec and sources */

/* "c_source": the citation line or null; "c_cite_lines": the same wrapped for comments. */
static void set_cite(json_t *o, const char *line)
{
    set_str(o, "c_source", line);
    set(o, "c_cite_lines", desc_lines(line, 76));
}

static json_t *source_json(const struct model_source *src)
{
    json_t *o = json_object();
    set_str(o, "id", src->id);
    set_str(o, "title", src->title);
    set_str(o, "ref", src->ref);
    set_str(o, "rev", src->rev);
    set_str(o, "date", src->date);
    set_str(o, "url", src->url);
    return o;
}

/* "Title (ref 327043 rev 001)" for banners and comments. */
static char *source_line(struct ctx *c, const struct model_source *src)
{
    struct buf b = BUF_INIT;
    buf_adds(&b, src->title ? src->title : src->id);
    if (src->ref || src->rev || src->date) {
        const char *sep = " (";
        if (src->ref) {
            buf_addf(&b, "%sref %s", sep, src->ref);
            sep = ", ";
        }
        if (src->rev) {
            buf_addf(&b, "%srev %s", sep, src->rev);
            sep = ", ";
        }
        if (src->date)
            buf_addf(&b, "%s%s", sep, src->date);
        buf_addc(&b, ')');
    }
    char *r = fold(c, b.s);
    buf_release(&b);
    return r;
}

static const struct model_source *cite_source(const struct model_spec *s,
                                              const struct model_cite *cite)
{
    if (cite->source)
        return cite->source;
    return cite->src ? model_find_source(s, cite->src) : NULL;
}

/* {"src","title","ref","table","page","section","cite"} */
static json_t *cite_json(const struct model_spec *s, const struct model_cite *cite)
{
    const struct model_source *src = cite_source(s, cite);
    json_t *o = json_object();
    set_str(o, "src", cite->src);
    set_str(o, "title", src ? src->title : NULL);
    set_str(o, "ref", src ? src->ref : NULL);
    set_str(o, "table", cite->table);
    set_str(o, "page", cite->page);
    set_str(o, "section", cite->section);
    set_str(o, "cite", cite->cite);
    return o;
}

/* "Source: Title (ref N), table T, page P, section S; cite" or NULL when nothing is cited. */
static char *cite_line(struct ctx *c, const struct model_spec *s, const struct model_cite *cite)
{
    const struct model_source *src = cite_source(s, cite);
    if (!cite->src && !cite->table && !cite->page && !cite->section && !cite->cite)
        return NULL;
    struct buf b = BUF_INIT;
    buf_adds(&b, "Source: ");
    buf_adds(&b, src ? source_line(c, src) : cite->src ? cite->src : "-");
    if (cite->table)
        buf_addf(&b, ", table %s", cite->table);
    if (cite->page)
        buf_addf(&b, ", page %s", cite->page);
    if (cite->section)
        buf_addf(&b, ", section %s", cite->section);
    if (cite->cite)
        buf_addf(&b, "; %s", cite->cite);
    char *r = fold(c, b.s);
    buf_release(&b);
    return r;
}

static json_t *spec_json(struct ctx *c, const struct model_spec *s)
{
    json_t *o = json_object();
    set_str(o, "name", s->name);
    set_str(o, "prefix", s->prefix);
    set_str(o, "title", s->title);
    set(o, "version", json_integer(s->version));
    json_t *sources = json_array();
    json_t *lines = json_array();
    for (size_t i = 0; i < s->nsources; i++) {
        json_array_append_new(sources, source_json(s->sources[i]));
        json_array_append_new(lines,
                              json_pack("{s:s}", "text", source_line(c, s->sources[i])));
    }
    set(o, "sources", sources);
    set(o, "c_prefix", json_string(names_upper(&c->a, c->prefix)));
    set(o, "c_lower_prefix", json_string(names_lower(&c->a, c->prefix)));
    set(o, "c_guard",
        json_string(names_upper(&c->a, arena_printf(&c->a, "%s_%s_H", c->prefix, s->name))));
    set(o, "c_version", json_string(REGC_VERSION));
    flag_list(lines);
    set(o, "c_source_lines", lines);
    set(o, "c_desc_lines", desc_lines(s->title, 76));
    return o;
}

/* ------------------------------------------------------------ instances */

static json_t *pci_json(const struct model_instance *inst)
{
    if (!inst || !inst->has_pci)
        return json_null();
    return json_pack("{s:o,s:o,s:I,s:I}", "vendor", hex(inst->vendor), "device",
                     hex(inst->device), "dev", (json_int_t)inst->dev, "func",
                     (json_int_t)inst->func);
}

static json_t *instance_json(struct ctx *c, const struct model_instance *inst)
{
    json_t *o = json_object();
    set_str(o, "name", inst->name);
    set(o, "base", inst->has_base ? hex(inst->base) : json_null());
    set(o, "pci", pci_json(inst));
    char *stem = names_instance(&c->a, c->prefix, inst);
    set(o, "c_name", json_string(stem));
    set(o, "c_index", json_integer(inst->index));
    def(c, o, "name", "", stem);
    if (inst->has_base)
        def(c, o, "base", "_BASE", stem);
    if (inst->has_pci) {
        def(c, o, "vendor", "_VENDOR", stem);
        def(c, o, "device", "_DEVICE", stem);
        def(c, o, "dev", "_DEV", stem);
        def(c, o, "func", "_FUNC", stem);
    }
    if (inst->has_pci) {
        set(o, "c_vendor", json_string(c_lit(c, inst->vendor, 32, false)));
        set(o, "c_device", json_string(c_lit(c, inst->device, 32, false)));
        set(o, "c_dev", json_integer((json_int_t)inst->dev));
        set(o, "c_func", json_integer((json_int_t)inst->func));
    }
    if (inst->has_base)
        set(o, "c_base", json_string(c_lit(c, inst->base, inst->base > UINT32_MAX ? 64 : 32,
                                           false)));
    set(o, "c_desc_lines", desc_lines(inst->desc, 76));
    return o;
}

/* ------------------------------------------------------------ fields */

static const char *sem_name(enum regc_sem sem)
{
    static const char *const names[] = {"rw", "ro", "wo", "rwv", "w1c", "w1s", "mbz", "ig"};
    return sem < REGC_SEM__COUNT ? names[sem] : "mbz";
}

static json_t *value_json(struct ctx *c, const struct model_field *f, const struct model_value *v)
{
    json_t *o = json_object();
    set_str(o, "name", v->name);
    set(o, "value", hex(v->value));
    set(o, "undefined", json_boolean(v->undefined));
    set_str(o, "desc", fold(c, v->desc));
    char *stem = names_value(&c->a, c->prefix, f, v);
    set(o, "c_name", json_string(stem));
    def(c, o, "name", "", stem);
    set(o, "c_value", json_string(c_lit(c, v->value, f->reg->size, false)));
    set(o, "c_field", json_string(names_field(&c->a, c->prefix, f)));
    return o;
}

static json_t *field_json(struct ctx *c, const struct model_spec *s, const struct model_field *f)
{
    const struct model_reg *r = f->reg;
    json_t *o = json_object();
    set_str(o, "name", f->name);
    set(o, "lsb", json_integer(f->lsb));
    set(o, "msb", json_integer(f->msb));
    set(o, "width", json_integer(model_field_width(f)));
    set_str(o, "access", f->access_text);
    set(o, "reset", hex(f->reset));
    set_str(o, "desc", fold(c, f->desc));
    set(o, "implicit", json_boolean(f->implicit));
    json_t *values = json_array();
    for (size_t i = 0; i < f->nvalues; i++)
        json_array_append_new(values, value_json(c, f, f->values[i]));
    flag_list(values);
    set(o, "values", values);

    char *stem = names_field(&c->a, c->prefix, f);
    set(o, "c_name", json_string(stem));
    set(o, "c_lower", json_string(names_lower(&c->a, stem)));
    set(o, "c_reserved", json_boolean(model_field_is_reserved(f)));
    set(o, "c_reg", json_string(names_reg(&c->a, c->prefix, r)));
    if (!model_field_is_reserved(f)) {
        def(c, o, "shift", "_SHIFT", stem);
        def(c, o, "width", "_WIDTH", stem);
        def(c, o, "mask", "_MASK", stem);
        def(c, o, "max", "_MAX", stem);
        def(c, o, "reset", "_RESET", stem);
        def_in(c, o, "c_mdef", "get", "_GET(v)", stem);
        def_in(c, o, "c_mdef", "set", "_SET(v, x)", stem);
        def_in(c, o, "c_mdef", "val", "_VAL(x)", stem);
    }
    set(o, "c_sem", json_string(sem_name(model_field_sem(f))));
    set(o, "c_type", json_string(c_type(r->size)));
    set(o, "c_shift", json_integer(f->lsb));
    set(o, "c_max", json_string(c_lit(c, model_field_max(f), r->size, false)));
    set(o, "c_mask", json_string(c_lit(c, model_field_mask(f), r->size, true)));
    set(o, "c_reset", json_string(c_lit(c, f->reset, r->size, false)));
    set(o, "c_bits", json_string(f->msb == f->lsb
                                     ? arena_printf(&c->a, "%u", f->lsb)
                                     : arena_printf(&c->a, "%u:%u", f->msb, f->lsb)));
    set(o, "c_has_values", json_boolean(f->nvalues > 0));
    char *src = f->cite.src ? cite_line(c, s, &f->cite) : NULL;
    set_cite(o, src);
    set(o, "c_desc_lines", desc_lines(f->desc, 72));
    return o;
}

/* ------------------------------------------------------------ rules */

/* 's' as the body of a C string literal: \\ \" and \? (no trigraphs) escaped. */
static char *c_string_body(struct ctx *c, const char *s)
{
    struct buf b = BUF_INIT;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\\' || *p == '"' || *p == '?')
            buf_addf(&b, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            buf_addf(&b, "\\%03o", *p);
        else
            buf_addc(&b, (char)*p);
    }
    char *r = arena_strdup(&c->a, b.s);
    buf_release(&b);
    return r;
}

static const struct model_field *find_named_field(const struct model_reg *r, const char *name)
{
    for (size_t i = 0; i < r->nfields; i++)
        if (!model_field_is_reserved(r->fields[i]) && strcmp(r->fields[i]->name, name) == 0)
            return r->fields[i];
    return NULL;
}

struct rule_ctx {
    struct ctx *c;
    const struct model_reg *r;
    json_t *fields;   /* c_candidates being built */
    uint64_t nums[32]; /* the expression's numbers (the first 32) */
    size_t nnums;
};

/* expr_render_c callback: a field is its typed getter applied to 'v'. */
static void field_getter(void *ctx, struct buf *out, const char *name)
{
    struct rule_ctx *rc = ctx;
    const struct model_field *f = find_named_field(rc->r, name);
    if (!f) {
        buf_adds(out, "0"); /* cannot happen after check_spec(): rule-field */
        return;
    }
    buf_addf(out, "%s_get(v)", names_lower(&rc->c->a, names_field(&rc->c->a, rc->c->prefix, f)));
}

static void collect_numbers(const struct expr *e, struct rule_ctx *rc)
{
    if (!e)
        return;
    if (e->op == EXPR_OP_CONST && rc->nnums < ARRAY_SIZE(rc->nums))
        rc->nums[rc->nnums++] = e->value;
    collect_numbers(e->lhs, rc);
    collect_numbers(e->rhs, rc);
}

static void add_cand(struct ctx *c, json_t *cands, uint64_t v, uint64_t max, unsigned size)
{
    if (v > max)
        return;
    const char *lit = c_lit(c, v, size, false);
    size_t i;
    json_t *item;
    json_array_foreach(cands, i, item)
        if (strcmp(json_string_value(json_object_get(item, "c_value")), lit) == 0)
            return;
    json_array_append_new(cands, json_pack("{s:s}", "c_value", lit));
}

/*
 * expr_foreach_field callback: the values a brute-force search for a
 * breaking value tries for one field: 0, 1, the maximum, and each number of
 * the expression and its neighbours, as {"c_lower", "c_count", "c_values"}.
 */
static int add_candidates(void *ctx, const struct expr *node)
{
    struct rule_ctx *rc = ctx;
    struct ctx *c = rc->c;
    const struct model_field *f = find_named_field(rc->r, node->field);
    if (!f)
        return 0;
    char *stem = names_lower(&c->a, names_field(&c->a, c->prefix, f));
    size_t i;
    json_t *item;
    json_array_foreach(rc->fields, i, item)
        if (strcmp(json_string_value(json_object_get(item, "c_lower")), stem) == 0)
            return 0;
    uint64_t max = model_field_max(f);
    unsigned size = rc->r->size;
    json_t *cands = json_array();
    add_cand(c, cands, 0, max, size);
    add_cand(c, cands, 1, max, size);
    add_cand(c, cands, max, max, size);
    for (size_t j = 0; j < rc->nnums; j++) {
        uint64_t n = rc->nums[j];
        add_cand(c, cands, n, max, size);
        if (n > 0)
            add_cand(c, cands, n - 1, max, size);
        if (n < UINT64_MAX)
            add_cand(c, cands, n + 1, max, size);
    }
    flag_list(cands);
    json_array_append_new(rc->fields,
                          json_pack("{s:s,s:I,s:o}", "c_lower", stem, "c_count",
                                    (json_int_t)json_array_size(cands), "c_values", cands));
    return 0;
}

static json_t *rule_json(struct ctx *c, const struct model_spec *s, const struct model_reg *r,
                         const struct model_rule *rule, unsigned bit)
{
    json_t *o = json_object();
    set_str(o, "name", rule->name);
    set_str(o, "expr", rule->expr_text);
    char *msg = fold(c, rule->message);
    set_str(o, "message", msg);
    char *stem = names_rule(&c->a, c->prefix, r, rule);
    set(o, "c_name", json_string(stem));
    set(o, "c_bit", json_integer(bit));
    def(c, o, "name", "", stem);
    def(c, o, "message", "_MESSAGE", stem);
    struct rule_ctx rc = {.c = c, .r = r, .fields = json_array()};
    struct buf expr = BUF_INIT;
    if (rule->expr) {
        expr_render_c(rule->expr, &expr, field_getter, &rc);
        collect_numbers(rule->expr, &rc);
        expr_foreach_field(rule->expr, add_candidates, &rc);
    } else {
        buf_adds(&expr, "1"); /* cannot happen after check_spec(): the loader parsed it */
    }
    flag_list(rc.fields);
    set(o, "c_expr", json_string(expr.s));
    set(o, "c_candidates", rc.fields);
    buf_release(&expr);
    set(o, "c_message", json_string(c_string_body(c, msg ? msg : rule->name)));
    set(o, "c_reg", json_string(names_reg(&c->a, c->prefix, r)));
    set(o, "c_reg_lower", json_string(names_lower(&c->a, names_reg(&c->a, c->prefix, r))));
    set_cite(o, cite_line(c, s, &rule->cite));
    return o;
}

/* ------------------------------------------------------------ registers */

/* Pads 's' with spaces to 'width' into 'b'. */
static void add_padded(struct buf *b, const char *s, size_t width)
{
    size_t n = strlen(s);
    buf_adds(b, s);
    while (n++ < width)
        buf_addc(b, ' ');
}

static int by_lsb_desc(const void *a, const void *b)
{
    json_int_t la = json_integer_value(json_object_get(*(json_t *const *)a, "lsb"));
    json_int_t lb = json_integer_value(json_object_get(*(json_t *const *)b, "lsb"));
    return la < lb ? 1 : la > lb ? -1 : 0;
}

/*
 * The register's bit map for its comment: one line per field, highest bits
 * first, columns aligned: bits, name, access, reset ("28:24  thresh  RW  0x0"),
 * as [{"text"}].
 */
static json_t *layout_lines(json_t *fields)
{
    static const char *const cols[] = {"c_bits", "name", "access", "reset"};
    size_t width[4] = {0};
    size_t i;
    json_t *f;
    json_array_foreach(fields, i, f)
        for (size_t k = 0; k < 4; k++) {
            size_t n = strlen(json_string_value(json_object_get(f, cols[k])));
            width[k] = n > width[k] ? n : width[k];
        }
    size_t n = json_array_size(fields);
    json_t **sorted = xcalloc(n ? n : 1, sizeof(*sorted));
    json_array_foreach(fields, i, f)
        sorted[i] = f;
    qsort(sorted, n, sizeof(*sorted), by_lsb_desc);
    json_t *lines = json_array();
    for (i = 0; i < n; i++) {
        struct buf b = BUF_INIT;
        for (size_t k = 0; k < 4; k++) {
            const char *v = json_string_value(json_object_get(sorted[i], cols[k]));
            if (k == 3)
                buf_adds(&b, v);
            else
                add_padded(&b, v, width[k] + 2);
        }
        json_array_append_new(lines, json_pack("{s:s}", "text", b.s));
        buf_release(&b);
    }
    free(sorted);
    return lines;
}

struct masks {
    uint64_t mbz, ignored, ro, wo, w1c, w1s, writable, keep, volatile_;
};

static struct masks reg_masks(const struct model_reg *r)
{
    struct masks m = {0};
    for (size_t i = 0; i < r->nfields; i++) {
        const struct model_field *f = r->fields[i];
        uint64_t bits = model_field_mask(f);
        unsigned cls = regc_sem_classes(model_field_sem(f));
        m.mbz |= cls & REGC_MASK_MBZ ? bits : 0;
        m.ignored |= cls & REGC_MASK_IGNORED ? bits : 0;
        m.ro |= cls & REGC_MASK_RO ? bits : 0;
        m.wo |= cls & REGC_MASK_WO ? bits : 0;
        m.w1c |= cls & REGC_MASK_W1C ? bits : 0;
        m.w1s |= cls & REGC_MASK_W1S ? bits : 0;
        m.writable |= cls & REGC_MASK_WRITABLE ? bits : 0;
        m.keep |= cls & REGC_MASK_KEEP ? bits : 0;
        m.volatile_ |= cls & REGC_MASK_VOLATILE ? bits : 0;
    }
    /* bits from the implemented width up to the access size read 0 and must be written 0 */
    if (r->width < r->size && r->width < 64) {
        uint64_t all = r->size >= 64 ? UINT64_MAX : (UINT64_C(1) << r->size) - 1;
        m.mbz |= all & ~((UINT64_C(1) << r->width) - 1);
    }
    return m;
}

static json_t *masks_json(const struct masks *m)
{
    return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "mbz", hex(m->mbz), "ignored",
                     hex(m->ignored), "ro", hex(m->ro), "wo", hex(m->wo), "w1c", hex(m->w1c),
                     "w1s", hex(m->w1s), "writable", hex(m->writable));
}

static json_t *c_masks_json(struct ctx *c, const struct masks *m, unsigned size)
{
    /* "rmw": the bits a safe write takes from 'wanted' (RW, RW-V) */
    uint64_t rmw = m->writable & m->keep;
    return json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s}", "mbz",
                     c_lit(c, m->mbz, size, true), "ignored", c_lit(c, m->ignored, size, true),
                     "ro", c_lit(c, m->ro, size, true), "wo", c_lit(c, m->wo, size, true), "w1c",
                     c_lit(c, m->w1c, size, true), "w1s", c_lit(c, m->w1s, size, true),
                     "writable", c_lit(c, m->writable, size, true), "keep",
                     c_lit(c, m->keep, size, true), "volatile",
                     c_lit(c, m->volatile_, size, true), "rmw", c_lit(c, rmw, size, true));
}

static const char *space_name(enum model_space sp)
{
    return sp == SPACE_MSR ? "msr" : sp == SPACE_PCI ? "pci" : "mmio";
}

/*
 * Every concrete copy: instance-major, then array index. Template keys:
 * c_addr_call, the C expression of the header that gives the copy's address,
 * and c_address, its value as a UINT64_C literal.
 */
static json_t *copies_json(struct ctx *c, const struct model_reg *r)
{
    char *lower = names_lower(&c->a, names_reg(&c->a, c->prefix, r));
    bool uniform = names_reg_uniform(r);
    const struct model_block *b = r->block;
    json_t *list = json_array();
    size_t ninst = b && b->ninstances ? b->ninstances : 1;
    for (size_t i = 0; i < ninst; i++) {
        const struct model_instance *inst = b && b->ninstances ? b->instances[i] : NULL;
        for (unsigned k = 0; k < r->count; k++) {
            json_t *o = json_object();
            set_str(o, "instance", inst ? inst->name : NULL);
            set(o, "index", r->is_array ? json_integer(r->first + k) : json_null());
            set(o, "address", hex(model_reg_address(r, inst, k)));
            set(o, "pci", pci_json(inst));
            char *call;
            if (uniform && !r->is_array)
                call = arena_printf(&c->a, "%s_ADDR", names_upper(&c->a, lower));
            else if (uniform)
                call = arena_printf(&c->a, "%s_addr(%uu)", lower, r->first + k);
            else if (!r->is_array)
                call = arena_printf(&c->a, "%s_addr(%zuu)", lower, i);
            else
                call = arena_printf(&c->a, "%s_addr(%zuu, %uu)", lower, i, r->first + k);
            set(o, "c_addr_call", json_string(call));
            set(o, "c_address", json_string(c_lit(c, model_reg_address(r, inst, k), 64, false)));
            json_array_append_new(list, o);
        }
    }
    flag_list(list);
    return list;
}

/*
 * Address helper keys: c_addr_type, c_addr (element 0 of instance 0),
 * c_addr_const (a plain constant), c_addr_by_index, c_addr_by_instance,
 * c_addr_index ("i" or "(i - FIRSTu)"), c_stride, c_addr_cases (per instance).
 */
static void addr_keys(struct ctx *c, json_t *o, const struct model_reg *r, const char *stem)
{
    const struct model_block *b = r->block;
    unsigned bits = addr_bits(r);
    const struct model_instance *i0 = b && b->ninstances ? b->instances[0] : NULL;
    bool uniform = names_reg_uniform(r);
    set(o, "c_addr_type", json_string(c_type(bits)));
    set(o, "c_addr", json_string(c_lit(c, model_reg_address(r, i0, 0), bits, false)));
    set(o, "c_address", hex(model_reg_address(r, i0, 0)));
    set(o, "c_addr_const", json_boolean(!r->is_array && uniform));
    set(o, "c_addr_by_index", json_boolean(r->is_array && uniform));
    set(o, "c_addr_by_instance", json_boolean(!uniform));
    set(o, "c_addr_index", json_string(r->first ? arena_printf(&c->a, "(i - %uu)", r->first)
                                                : "i"));
    set(o, "c_stride", json_string(c_lit(c, r->stride, bits, false)));
    set(o, "c_first_index", json_integer(r->first));
    set(o, "c_count", json_integer(r->count));
    json_t *cases = json_array();
    for (size_t i = 0; b && i < b->ninstances; i++) {
        const struct model_instance *inst = b->instances[i];
        json_t *k = json_object();
        set(k, "c_index", json_integer((json_int_t)i));
        set(k, "c_instance", json_string(names_instance(&c->a, c->prefix, inst)));
        set(k, "c_name", json_string(names_upper(
                             &c->a, arena_printf(&c->a, "%s_%s_ADDR", stem, inst->name))));
        set(k, "c_addr", json_string(c_lit(c, model_reg_address(r, inst, 0), bits, false)));
        def(c, k, "addr", "", json_string_value(json_object_get(k, "c_name")));
        json_array_append_new(cases, k);
    }
    flag_list(cases);
    set(o, "c_addr_cases", cases);
    set(o, "c_has_instances", json_boolean(b && b->ninstances > 0));
}

static json_t *reg_json(struct ctx *c, const struct model_spec *s, const struct model_reg *r)
{
    size_t from = c->ndefs; /* every name in the register but its rules' */
    json_t *o = json_object();
    set_str(o, "name", r->name);
    set_str(o, "written_name", r->written_name);
    set(o, "space", json_string(space_name(r->space)));
    set(o, "width", json_integer(r->width));
    set(o, "size", json_integer(r->size));
    set(o, "reset", hex(r->reset));
    set_str(o, "desc", fold(c, r->desc));
    set(o, "array", r->is_array ? json_pack("{s:i,s:i,s:o}", "first", (int)r->first, "count",
                                            (int)r->count, "stride", hex(r->stride))
                                : json_null());
    set(o, "instances", copies_json(c, r));
    set(o, "source", cite_json(s, &r->cite));
    json_t *fields = json_array();
    bool has_fields = false;
    for (size_t i = 0; i < r->nfields; i++) {
        json_array_append_new(fields, field_json(c, s, r->fields[i]));
        has_fields |= !model_field_is_reserved(r->fields[i]);
    }
    flag_list(fields);
    set(o, "fields", fields);
    json_t *rules = json_array();
    size_t rules_from = c->ndefs;
    for (size_t i = 0; i < r->nrules; i++)
        json_array_append_new(rules, rule_json(c, s, r, r->rules[i], (unsigned)i));
    flag_list(rules);
    align_defs(c, rules_from);
    set(o, "rules", rules);
    struct masks m = reg_masks(r);
    set(o, "masks", masks_json(&m));

    char *stem = names_reg(&c->a, c->prefix, r);
    set(o, "c_name", json_string(stem));
    set(o, "c_lower", json_string(names_lower(&c->a, stem)));
    set(o, "c_type", json_string(c_type(r->size)));
    set(o, "c_lit", json_string(c_litmacro(r->size)));
    set(o, "c_reset", json_string(c_lit(c, r->reset, r->size, true)));
    set(o, "c_masks", c_masks_json(c, &m, r->size));
    set(o, "c_has_fields", json_boolean(has_fields));
    set(o, "c_has_rules", json_boolean(r->nrules > 0));
    set(o, "c_rules_mask", json_string(arena_printf(
                               &c->a, "0x%xu", r->nrules >= 31 ? 0x7fffffffu
                                                               : (1u << r->nrules) - 1)));
    set(o, "c_is_pci", json_boolean(r->space == SPACE_PCI));
    addr_keys(c, o, r, stem);
    static const char *const reg_defs[][2] = {
        {"width", "_WIDTH"},       {"size", "_SIZE"},
        {"reset", "_RESET"},       {"addr", "_ADDR"},
        {"first", "_FIRST"},       {"count", "_COUNT"},
        {"stride", "_STRIDE"},     {"mbz", "_MBZ_MASK"},
        {"ignored", "_IGNORED_MASK"}, {"ro", "_RO_MASK"},
        {"wo", "_WO_MASK"},        {"w1c", "_W1C_MASK"},
        {"w1s", "_W1S_MASK"},      {"writable", "_WRITABLE_MASK"},
        {"keep", "_KEEP_MASK"},    {"rules", "_RULES"},
    };
    for (size_t i = 0; i < ARRAY_SIZE(reg_defs); i++)
        def(c, o, reg_defs[i][0], reg_defs[i][1], stem);
    set_cite(o, cite_line(c, s, &r->cite));
    set(o, "c_desc_lines", desc_lines(r->desc, 76));
    set(o, "c_layout", layout_lines(fields));
    align_defs(c, from);
    return o;
}

/* ------------------------------------------------------------ events */

static const struct model_field *set_field(const struct model_events *t, const struct model_set *st)
{
    if (st->field)
        return st->field;
    const struct model_reg *r = st->reg ? st->reg : t->reg;
    if (!r && t->block)
        r = model_find_reg(t->block, st->reg_name ? st->reg_name : t->reg_name);
    return r ? model_find_field(r, st->field_name) : NULL;
}

/* 'v' placed in field 'f' (0 when there is no such field). */
static uint64_t place(const struct model_field *f, uint64_t v)
{
    return f ? (v << f->lsb) & model_field_mask(f) : 0;
}

/*
 * Appends the <set>s of 'e' (not its parent's) to 'sets', and ors those of
 * the table's own control register, placed, into *enc.
 */
static void add_sets(struct ctx *c, const struct model_events *t, const struct model_event *e,
                     json_t *sets, uint64_t *enc)
{
    for (size_t i = 0; i < e->nsets; i++) {
        const struct model_set *st = e->sets[i];
        const char *rname = st->reg_name ? st->reg_name : t->reg_name;
        const struct model_field *f = set_field(t, st);
        bool own = rname && t->reg_name && strcmp(rname, t->reg_name) == 0;
        json_t *so = json_object();
        set_str(so, "register", rname);
        set_str(so, "field", st->field_name);
        set(so, "value", hex(st->value));
        set(so, "c_own", json_boolean(own));
        if (own)
            *enc |= place(f, st->value);
        if (f) {
            char *stem = names_field(&c->a, c->prefix, f);
            set(so, "c_field", json_string(stem));
            set(so, "c_field_lower", json_string(names_lower(&c->a, stem)));
            set(so, "c_value", json_string(c_lit(c, st->value, f->reg->size, false)));
        }
        json_array_append_new(sets, so);
    }
}

/* The counters that may count 'e', as a list of indices and as a mask. */
static json_t *event_counters(const struct model_event *e, const struct model_reg *reg,
                              uint64_t *mask)
{
    json_t *counters = json_array();
    unsigned count = reg ? reg->count : 64;
    *mask = 0;
    for (unsigned i = 0; i < count && i < 64; i++) {
        if (!e->has_counters || (e->counter_mask >> i & 1)) {
            json_array_append_new(counters, json_integer(i));
            *mask |= UINT64_C(1) << i;
        }
    }
    return counters;
}

/* Sets key 'key' to the lower-case C stem of field 'f', when there is one. */
static void set_getter(struct ctx *c, json_t *o, const char *key, const struct model_field *f)
{
    if (f)
        set(o, key, json_string(names_lower(&c->a, names_field(&c->a, c->prefix, f))));
}

static json_t *event_json(struct ctx *c, const struct model_spec *s, const struct model_events *t,
                          const struct model_event *e)
{
    const struct model_reg *reg = t->reg ? t->reg
                                  : t->block ? model_find_reg(t->block, t->reg_name)
                                             : NULL;
    const struct model_field *code_f = t->code_field ? t->code_field
                                       : reg ? model_find_field(reg, t->code_field_name)
                                             : NULL;
    const struct model_field *umask_f = t->umask_field ? t->umask_field
                                        : reg && t->umask_field_name
                                            ? model_find_field(reg, t->umask_field_name)
                                            : NULL;
    bool has_umask = e->has_umask || (e->parent && e->parent->has_umask);
    uint64_t umask = e->has_umask ? e->umask : e->parent ? e->parent->umask : 0;
    unsigned size = reg ? reg->size : 64;

    json_t *o = json_object();
    set_str(o, "name", e->full_name);
    set_str(o, "register", t->reg_name);
    set_str(o, "field", t->code_field_name);
    set_str(o, "umask_field", t->umask_field_name);
    set(o, "code", hex(e->code));
    set(o, "umask", has_umask ? hex(umask) : json_null());
    uint64_t cmask;
    set(o, "counters", event_counters(e, reg, &cmask));
    set_str(o, "desc", fold(c, e->desc));
    json_t *sets = json_array();
    uint64_t enc = place(code_f, e->code) | (has_umask ? place(umask_f, umask) : 0);
    if (e->parent)
        add_sets(c, t, e->parent, sets, &enc);
    add_sets(c, t, e, sets, &enc);
    flag_list(sets);
    set(o, "sets", sets);

    char *stem = names_event(&c->a, c->prefix, e);
    set(o, "c_name", json_string(stem));
    set(o, "c_lower", json_string(names_lower(&c->a, stem)));
    set(o, "c_is_sub", json_boolean(e->parent != NULL));
    def(c, o, "name", "", stem);
    def(c, o, "code", "_CODE", stem);
    def(c, o, "umask", "_UMASK", stem);
    def(c, o, "counters", "_COUNTERS", stem);
    set(o, "c_encoding", json_string(c_lit(c, enc, size, false)));
    set(o, "c_code", json_string(c_lit(c, e->code, size, false)));
    set(o, "c_has_umask", json_boolean(has_umask && umask_f));
    set(o, "c_umask", json_string(c_lit(c, umask, size, false)));
    set(o, "c_counters", json_string(c_lit(c, cmask, 64, false)));
    if (reg) {
        char *rstem = names_reg(&c->a, c->prefix, reg);
        set(o, "c_reg", json_string(rstem));
        set(o, "c_reg_lower", json_string(names_lower(&c->a, rstem)));
    }
    set_getter(c, o, "c_code_field", code_f);
    set_getter(c, o, "c_umask_field", umask_f);
    set(o, "c_type", json_string(c_type(size)));
    set_cite(o, cite_line(c, s, &e->cite));
    set(o, "c_desc_lines", desc_lines(e->desc, 72));
    return o;
}

static void add_events(struct ctx *c, const struct model_spec *s, json_t *list,
                       const struct model_events *t, const struct model_event *e)
{
    json_array_append_new(list, event_json(c, s, t, e));
    for (size_t i = 0; i < e->nsubs; i++)
        add_events(c, s, list, t, e->subs[i]);
}

/* ------------------------------------------------------------ pmon */

static json_t *role(const struct model_role *r)
{
    return str_or_null(r->name);
}

static const char *clear_name(enum model_clear cl)
{
    static const char *const names[] = {[CLEAR_W1C] = "w1c", [CLEAR_WRITE0] = "write0",
                                        [CLEAR_REGISTER] = "register", [CLEAR_NONE] = "none"};
    return names[cl];
}

/* [{"direction": "up"|"down"|"up-down", "value": hex}] for the directions the spec gives. */
static json_t *directions_json(const struct model_counters *k)
{
    static const char *const names[DIRECTION_COUNT] = {"up", "down", "up-down"};
    json_t *list = json_array();
    for (int d = 0; k->direction_field.name && d < DIRECTION_COUNT; d++)
        if (k->directions[d].given)
            json_array_append_new(list, json_pack("{s:s,s:o}", "direction", names[d], "value",
                                                  hex(k->directions[d].value)));
    return list;
}

static json_t *counters_json(const struct model_counters *k)
{
    json_t *o = json_object();
    set(o, "kind", json_string(k->kind == COUNTERS_FIXED ? "fixed" : "general"));
    set_str(o, "control", k->control_name);
    set_str(o, "counter", k->counter_name);
    set(o, "count_field", role(&k->count_field));
    set(o, "width", json_integer(k->width));
    set(o, "overflow", json_string(k->overflow == OVERFLOW_STOP ? "stop" : "wrap"));
    set(o, "wrap_field", role(&k->wrap_field));
    set(o, "enable", role(&k->enable));
    set(o, "reset", role(&k->reset));
    set(o, "pmi", role(&k->pmi));
    set(o, "edge", role(&k->edge));
    set(o, "invert", role(&k->invert));
    set(o, "threshold", role(&k->threshold));
    set(o, "event", role(&k->event));
    set(o, "umask", role(&k->umask));
    set(o, "direction_field", role(&k->direction_field));
    set(o, "directions", directions_json(k));
    set(o, "preload", json_string(k->preload_minus_one ? "2^w-1-N" : "2^w-N"));
    set(o, "freeze_on_overflow", json_boolean(k->freeze_on_overflow));
    set(o, "has_status_first", json_boolean(k->has_status_first));
    set(o, "status_first", json_integer(k->status_first));
    json_t *rd = json_array();
    for (size_t i = 0; i < k->nrdpmcs; i++)
        json_array_append_new(rd, json_pack("{s:s?,s:i,s:b}", "processor",
                                            k->rdpmcs[i]->processor, "first",
                                            (int)k->rdpmcs[i]->first, "high_zero",
                                            k->rdpmcs[i]->high_zero));
    set(o, "rdpmc", rd);
    return o;
}

static json_t *pmon_json(const struct model_pmon *p)
{
    if (!p)
        return json_null();
    json_t *o = json_object();
    json_t *list = json_array();
    for (size_t i = 0; i < p->ncounters; i++)
        json_array_append_new(list, counters_json(p->counters[i]));
    flag_list(list);
    set(o, "counters", list);
    const struct model_box_control *bc = p->box_control;
    if (bc) {
        json_t *b = json_object();
        set_str(b, "register", bc->reg_name);
        set(b, "freeze", role(&bc->freeze));
        set(b, "freeze_enable", role(&bc->freeze_enable));
        set(b, "reset_counters", role(&bc->reset_counters));
        set(b, "reset_controls", role(&bc->reset_controls));
        set(b, "enable", role(&bc->enable));
        set(o, "box_control", b);
    } else {
        set(o, "box_control", json_null());
    }
    const struct model_box_status *bs = p->box_status;
    if (bs) {
        json_t *b = json_object();
        set_str(b, "register", bs->reg_name);
        set(b, "overflow", role(&bs->overflow));
        set(b, "clear", json_string(clear_name(bs->clear)));
        set_str(b, "clear_register", bs->clear_reg_name);
        set(b, "clear_field", role(&bs->clear_field));
        set(o, "box_status", b);
    } else {
        set(o, "box_status", json_null());
    }
    return o;
}

static json_t *pmon_global_json(const struct model_pmon_global *g)
{
    if (!g)
        return json_null();
    json_t *o = json_object();
    const struct model_global_control *gc = g->control;
    if (gc) {
        json_t *b = json_object();
        set_str(b, "block", gc->block_name);
        set_str(b, "register", gc->reg_name);
        set(b, "freeze", role(&gc->freeze));
        set(b, "unfreeze", role(&gc->unfreeze));
        set(b, "enable", role(&gc->enable));
        set(b, "freeze_on_overflow", role(&gc->freeze_on_overflow));
        set(b, "pmi_core", role(&gc->pmi_core));
        set(b, "wake", role(&gc->wake));
        set(b, "reset", role(&gc->reset));
        set(b, "select", role(&gc->select));
        json_t *cores = json_array();
        for (size_t i = 0; i < gc->npmi_cores; i++)
            json_array_append_new(cores, json_pack("{s:s}", "name", gc->pmi_cores[i].name));
        set(b, "pmi_core_fields", cores);
        set(b, "has_pmi_core_fields", json_boolean(gc->npmi_cores > 0));
        set(o, "control", b);
    } else {
        set(o, "control", json_null());
    }
    const struct model_global_status *gs = g->status;
    if (gs) {
        json_t *b = json_object();
        set_str(b, "block", gs->block_name);
        set_str(b, "register", gs->reg_name);
        set(b, "clear", json_string(clear_name(gs->clear)));
        set_str(b, "clear_register", gs->clear_reg_name);
        set(b, "clear_field", role(&gs->clear_field));
        json_t *boxes = json_array();
        for (size_t i = 0; i < gs->nboxes; i++) {
            const struct model_box_overflow *bo = gs->boxes[i];
            json_array_append_new(boxes, json_pack("{s:s?,s:s?,s:s?,s:s?}", "block",
                                                   bo->block_name, "field", bo->field_name,
                                                   "instance", bo->instance_name, "counters",
                                                   bo->counters_name));
        }
        set(b, "boxes", boxes);
        set(o, "status", b);
    } else {
        set(o, "status", json_null());
    }
    return o;
}

/* ------------------------------------------------------------ blocks */

static json_t *block_json(struct ctx *c, const struct model_spec *s, const struct model_block *b)
{
    json_t *o = json_object();
    set_str(o, "name", b->name);
    set_str(o, "title", b->title);
    set_str(o, "desc", fold(c, b->desc));
    json_t *insts = json_array();
    size_t from = c->ndefs;
    for (size_t i = 0; i < b->ninstances; i++)
        json_array_append_new(insts, instance_json(c, b->instances[i]));
    flag_list(insts);
    align_defs(c, from);
    set(o, "instances", insts);
    json_t *regs = json_array();
    for (size_t i = 0; i < b->nregs; i++)
        json_array_append_new(regs, reg_json(c, s, b->regs[i]));
    flag_list(regs);
    set(o, "registers", regs);
    json_t *events = json_array();
    from = c->ndefs;
    for (size_t t = 0; t < b->nevent_tables; t++)
        for (size_t i = 0; i < b->event_tables[t]->nevents; i++)
            add_events(c, s, events, b->event_tables[t], b->event_tables[t]->events[i]);
    flag_list(events);
    align_defs(c, from);
    set(o, "events", events);
    set(o, "pmon", pmon_json(b->pmon));

    char *stem = names_block(&c->a, c->prefix, b);
    set(o, "c_name", json_string(stem));
    set(o, "c_lower", json_string(names_lower(&c->a, stem)));
    set(o, "c_ninstances", json_integer((json_int_t)b->ninstances));
    def(c, o, "ninstances", "_NINSTANCES", stem);
    set(o, "c_has_instances", json_boolean(b->ninstances > 0));
    set(o, "c_has_events", json_boolean(json_array_size(events) > 0));
    set(o, "c_is_pci", json_boolean(b->ninstances > 0 && b->instances[0]->has_pci));
    set_cite(o, cite_line(c, s, &b->cite));
    set(o, "c_desc_lines", desc_lines(b->desc, 76));
    return o;
}

static void ctx_init(struct ctx *c, const struct model_spec *s, const struct context_options *opt)
{
    *c = (struct ctx){.a = ARENA_INIT, .prefix = opt && opt->prefix ? opt->prefix : s->prefix};
    if (!c->prefix)
        c->prefix = s->name ? s->name : "REGC";
}

json_t *context_build(const struct model_spec *s, const struct context_options *opt)
{
    struct ctx c;
    ctx_init(&c, s, opt);
    json_t *root = json_object();
    set(root, "spec", spec_json(&c, s));
    json_t *blocks = json_array();
    for (size_t i = 0; i < s->nblocks; i++)
        json_array_append_new(blocks, block_json(&c, s, s->blocks[i]));
    flag_list(blocks);
    set(root, "blocks", blocks);
    set(root, "pmon_global", pmon_global_json(s->pmon_global));
    context_doc_keys(root);
    arena_release(&c.a);
    free(c.defs);
    return root;
}

/*
 * Block trees are built, rendered and dropped whole, so while lazy trees are
 * in use jansson allocates through a bump allocator: a block's values come
 * from big chunks reused for the next block, and freeing one of them does
 * nothing. Everything else still goes to malloc()/free(): jb_free() tells
 * them apart by address. jansson's hooks take no context, hence one static
 * allocator; only one lazy tree may exist at a time.
 */
enum { JB_CHUNKS = 24, JB_FIRST = 1 << 20 };
static struct {
    unsigned char *chunk[JB_CHUNKS]; /* owned (malloc); chunk k holds size[k] bytes */
    size_t size[JB_CHUNKS];
    size_t nchunks, cur, used; /* allocating at chunk[cur] + used */
    bool on;                   /* in context_expand(): allocate here */
    bool spilled;              /* some block value came from malloc(): free by walking */
    json_malloc_t prev_malloc; /* the hooks to restore */
    json_free_t prev_free;
} jb;

static void *jb_malloc(size_t n)
{
    if (!jb.on)
        return malloc(n);
    n = (n + 15) & ~(size_t)15;
    while (jb.cur < jb.nchunks && jb.size[jb.cur] - jb.used < n)
        jb.cur++, jb.used = 0;
    if (jb.cur == jb.nchunks) {
        if (jb.nchunks == JB_CHUNKS) {
            jb.spilled = true; /* full (cannot happen in practice): fall back */
            return malloc(n);
        }
        size_t size = jb.nchunks ? 2 * jb.size[jb.nchunks - 1] : JB_FIRST;
        size = size > n ? size : n;
        unsigned char *c = malloc(size);
        if (!c)
            return NULL;
        jb.chunk[jb.nchunks] = c;
        jb.size[jb.nchunks++] = size;
        jb.used = 0;
    }
    void *p = jb.chunk[jb.cur] + jb.used;
    jb.used += n;
    return p;
}

static void jb_free(void *p)
{
    uintptr_t a = (uintptr_t)p;
    for (size_t k = 0; k < jb.nchunks; k++)
        if (a >= (uintptr_t)jb.chunk[k] && a < (uintptr_t)jb.chunk[k] + jb.size[k])
            return; /* dropped with the block */
    free(p);
}

/*
 * Under AddressSanitizer the bump allocator stays off: every block value then
 * comes from malloc() and is freed by walking ('spilled'), so ASan still sees
 * a use-after-free inside a block tree.
 */
#if defined(__SANITIZE_ADDRESS__)
#define JB_ENABLED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define JB_ENABLED 0
#endif
#endif
#ifndef JB_ENABLED
#define JB_ENABLED 1
#endif

static void jb_start(void)
{
    if (!JB_ENABLED) {
        jb.spilled = true;
        return;
    }
    json_get_alloc_funcs(&jb.prev_malloc, &jb.prev_free);
    json_set_alloc_funcs(jb_malloc, jb_free);
}

static void jb_stop(void)
{
    for (size_t k = 0; k < jb.nchunks; k++)
        free(jb.chunk[k]);
    jb.nchunks = jb.cur = jb.used = 0;
    jb.spilled = false;
    if (JB_ENABLED)
        json_set_alloc_funcs(jb.prev_malloc, jb.prev_free);
}

struct context_lazy {
    struct ctx c;
    json_t **live; /* blocks handed out, one reference each held here; xmalloc'd */
    size_t nlive, live_cap;
    const struct model_spec *s;
    void (*annotate)(json_t *tree);
    bool no_doc_keys;
    json_t **stubs; /* the placeholders, sorted by address (bsearch); xmalloc'd */
    size_t *index;  /* stubs[k] stands for s->blocks[index[k]] */
};

static int by_address(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)*(json_t *const *)a, y = (uintptr_t)*(json_t *const *)b;
    return x < y ? -1 : x > y;
}

struct context_lazy *context_build_lazy(const struct model_spec *s,
                                        const struct context_options *opt, json_t **tree)
{
    struct context_lazy *lz = xcalloc(1, sizeof(*lz));
    jb_start();
    ctx_init(&lz->c, s, opt);
    lz->s = s;
    lz->annotate = opt ? opt->annotate : NULL;
    lz->no_doc_keys = opt && opt->no_doc_keys;
    lz->stubs = xcalloc(s->nblocks + 1, sizeof(*lz->stubs));
    lz->index = xcalloc(s->nblocks + 1, sizeof(*lz->index));
    json_t *root = json_object();
    set(root, "spec", spec_json(&lz->c, s));
    json_t *blocks = json_array();
    for (size_t i = 0; i < s->nblocks; i++) {
        lz->stubs[i] = json_object();
        json_array_append_new(blocks, lz->stubs[i]);
    }
    qsort(lz->stubs, s->nblocks, sizeof(*lz->stubs), by_address);
    for (size_t k = 0; k < s->nblocks; k++)
        for (size_t i = 0; i < s->nblocks; i++)
            if (json_array_get(blocks, i) == lz->stubs[k])
                lz->index[k] = i;
    set(root, "blocks", blocks);
    set(root, "pmon_global", pmon_global_json(s->pmon_global));
    arena_release(&lz->c.a);
    if (lz->annotate)
        lz->annotate(root);
    *tree = root;
    return lz;
}

json_t *context_expand(void *lazy, json_t *item)
{
    struct context_lazy *lz = lazy;
    if (!json_is_object(item) || json_object_size(item) != 0)
        return NULL;
    json_t **hit = bsearch(&item, lz->stubs, lz->s->nblocks, sizeof(*lz->stubs), by_address);
    if (!hit)
        return NULL;
    size_t i = lz->index[hit - lz->stubs], n = lz->s->nblocks;
    /* blocks handed out before and now released by the renderer: reuse their memory */
    bool dead = true;
    for (size_t k = 0; k < lz->nlive; k++)
        dead &= lz->live[k]->refcount == 1;
    if (dead) { /* their values are in jb's chunks: dropped without a walk */
        for (size_t k = 0; jb.spilled && k < lz->nlive; k++)
            json_decref(lz->live[k]);
        lz->nlive = 0;
        jb.cur = jb.used = 0;
    }
    jb.on = true;
    size_t ndefs = lz->c.ndefs;
    json_t *o = block_json(&lz->c, lz->s, lz->s->blocks[i]);
    lz->c.ndefs = ndefs;
    arena_release(&lz->c.a); /* the tree holds copies */
    set(o, "first", json_boolean(i == 0));
    set(o, "last", json_boolean(i + 1 == n));
    if (!lz->no_doc_keys) {
        /* the doc keys, as context_build() adds them: through a root holding this block */
        json_t *one = json_pack("{s:[O]}", "blocks", o);
        context_doc_keys(one);
        json_decref(one);
    }
    if (lz->annotate)
        lz->annotate(o);
    jb.on = false;
    if (lz->nlive == lz->live_cap) {
        lz->live_cap = lz->live_cap ? 2 * lz->live_cap : 8;
        lz->live = xrealloc(lz->live, lz->live_cap * sizeof(*lz->live));
    }
    lz->live[lz->nlive++] = json_incref(o);
    return o;
}

void context_lazy_free(struct context_lazy *lz)
{
    if (!lz)
        return;
    for (size_t k = 0; jb.spilled && k < lz->nlive; k++)
        json_decref(lz->live[k]);
    free(lz->live); /* else the blocks' values go with jb's chunks */
    jb_stop();
    arena_release(&lz->c.a);
    free(lz->c.defs);
    free(lz->stubs);
    free(lz->index);
    free(lz);
}

int context_to_json(const json_t *tree, struct buf *out)
{
    char *text = json_dumps(tree, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (!text)
        return -1;
    buf_adds(out, text);
    buf_addc(out, '\n');
    free(text);
    return 0;
}
