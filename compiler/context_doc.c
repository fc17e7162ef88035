/*
 * context_doc.c - doc_* keys and the SVG bit-field geometry (docs/json.md,
 * "Documentation keys").
 *
 * Works on the finished tree, reading only stable keys, so the C-header keys
 * of context.c and these can change independently. The diagram is drawn like
 * the manuals' figures: rows of at most 32 bits, most significant bit on the
 * left, bit numbers over the field boundaries, one box per field (a field
 * crossing a row boundary gets a box in each row), the attribute under the
 * box; reserved, ignored and unimplemented bits shaded (by the page's CSS,
 * from the box's "kind").
 */
#include "context_doc.h"

#include "util.h"

#include "regc/attr.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Geometry, in SVG user units (CSS px at scale 1). */
enum {
    DOC_CELL = 22,     /* one bit */
    DOC_MARGIN = 12,   /* left and right */
    DOC_TICK_H = 14,   /* bit numbers above a row of boxes */
    DOC_ATTR_H = 16,   /* attribute text under the boxes */
    DOC_ROW_GAP = 10,  /* between rows */
    DOC_CHAR_W = 7,    /* advance of one character of an 11px monospace label */
    DOC_BOX_MIN = 40,  /* box height bounds: tall enough for vertical labels */
    DOC_BOX_MAX = 112,
    DOC_WIDE = 3 * DOC_CELL, /* boxes this wide turn a long label only if the height allows */
};

static const char *str_of(const json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

static long long int_of(const json_t *o, const char *key)
{
    return json_integer_value(json_object_get(o, key));
}

static void set_new(json_t *o, const char *key, json_t *v)
{
    json_object_set_new(o, key, v);
}

/* 'prefix' + 's' in lower case, as a new JSON string (a GitHub heading slug for names). */
static json_t *lower_id(const char *prefix, const char *s)
{
    size_t n = strlen(prefix), m = strlen(s);
    char *t = xmalloc(n + m + 1);
    memcpy(t, prefix, n);
    for (size_t i = 0; i < m; i++) {
        unsigned char ch = (unsigned char)s[i];
        t[n + i] = isalnum(ch) || ch == '_' || ch == '-' ? (char)tolower(ch) : '-';
    }
    t[n + m] = '\0';
    json_t *v = json_string(t);
    free(t);
    return v;
}

static json_t *bits_text(long long msb, long long lsb)
{
    char b[48];
    if (msb == lsb)
        snprintf(b, sizeof b, "%lld", lsb);
    else
        snprintf(b, sizeof b, "%lld:%lld", msb, lsb);
    return json_string(b);
}

/* ------------------------------------------------------------ small keys */

/* "0-3" for a run, "0, 2, 3" otherwise; "" for an empty list. */
static json_t *counters_text(const json_t *list)
{
    size_t n = json_array_size(list);
    char b[512] = "";
    size_t len = 0;
    bool run = n > 2;
    for (size_t i = 1; i < n && run; i++)
        run = json_integer_value(json_array_get(list, i)) ==
                  json_integer_value(json_array_get(list, i - 1)) + 1;
    if (run) {
        snprintf(b, sizeof b, "%lld-%lld", json_integer_value(json_array_get(list, 0)),
                 json_integer_value(json_array_get(list, n - 1)));
        return json_string(b);
    }
    for (size_t i = 0; i < n && len < sizeof b - 32; i++)
        len += (size_t)snprintf(b + len, sizeof b - len, "%s%lld", i ? ", " : "",
                                json_integer_value(json_array_get(list, i)));
    return json_string(b);
}

/* "mbox0", "[1]", "mbox0 [1]" or null (one copy only) for one register copy. */
static json_t *copy_label(const json_t *copy)
{
    const char *inst = str_of(copy, "instance");
    const json_t *idx = json_object_get(copy, "index");
    char b[256];
    if (inst && json_is_integer(idx))
        snprintf(b, sizeof b, "%s [%lld]", inst, json_integer_value(idx));
    else if (json_is_integer(idx))
        snprintf(b, sizeof b, "[%lld]", json_integer_value(idx));
    else if (inst)
        snprintf(b, sizeof b, "%s", inst);
    else
        return json_null();
    return json_string(b);
}

/* ------------------------------------------------------------ SVG geometry */

struct seg {
    long long hi, lo;  /* bits, inclusive */
    int row;
    long long field;   /* index in fields[], -1: unimplemented bits */
};

static const char *box_kind(const char *access)
{
    if (!access)
        return "field";
    enum regc_access a = regc_access_parse(access);
    if (a == REGC_ACCESS_UNKNOWN)
        return "field";
    switch (regc_access_sem(a)) {
    case REGC_SEM_MBZ:
        return "reserved";
    case REGC_SEM_IG:
        return "ignored";
    default:
        return "field";
    }
}

static long long seg_x(const struct seg *g, long long row_hi)
{
    return DOC_MARGIN + (row_hi - g->hi) * DOC_CELL;
}

static long long seg_w(const struct seg *g)
{
    return (g->hi - g->lo + 1) * DOC_CELL;
}

static bool fits_across(size_t len, long long w)
{
    return (long long)len * DOC_CHAR_W + 6 <= w;
}

/* The label of a box: the name, shortened with an ellipsis to 'max' characters. */
static json_t *label_text(const char *name, size_t max)
{
    size_t len = strlen(name);
    if (len <= max)
        return json_string(name);
    if (max < 2)
        max = 2;
    char *t = xmalloc(max + 3);
    memcpy(t, name, max - 1);
    memcpy(t + max - 1, "\xe2\x80\xa6", 4); /* U+2026 */
    json_t *v = json_string(t);
    free(t);
    return v;
}

/* Splits the fields (and the bits no field covers) into per-row segments. */
static size_t make_segs(const json_t *fields, long long top, int per_row, int rows,
                        struct seg *out, size_t cap)
{
    size_t n = 0;
    uint64_t covered = 0;
    for (size_t i = 0; i < json_array_size(fields); i++) {
        const json_t *f = json_array_get(fields, i);
        long long lsb = int_of(f, "lsb"), msb = int_of(f, "msb");
        if (lsb < 0 || msb < lsb || msb > top)
            continue;
        for (long long b = lsb; b <= msb; b++)
            covered |= UINT64_C(1) << b;
        for (int r = 0; r < rows && n < cap; r++) {
            long long rhi = top - (long long)r * per_row, rlo = rhi - per_row + 1;
            if (msb < rlo || lsb > rhi)
                continue;
            out[n++] = (struct seg){msb < rhi ? msb : rhi, lsb > rlo ? lsb : rlo, r, (long long)i};
        }
    }
    for (int r = 0; r < rows; r++) {
        long long rhi = top - (long long)r * per_row, rlo = rhi - per_row + 1;
        for (long long b = rhi; b >= rlo && n < cap; b--) {
            if (covered >> b & 1)
                continue;
            long long lo = b;
            while (lo - 1 >= rlo && !(covered >> (lo - 1) & 1))
                lo--;
            out[n++] = (struct seg){b, lo, r, -1};
            b = lo;
        }
    }
    return n;
}

/*
 * The box height: enough for the longest label that has to turn vertical
 * (in a box narrower than DOC_WIDE), within bounds. Wider boxes turn a label
 * that does not fit across only when this height holds it, else shorten it.
 */
static long long box_height(const json_t *fields, const struct seg *segs, size_t n)
{
    long long h = DOC_BOX_MIN;
    for (size_t i = 0; i < n; i++) {
        if (segs[i].field < 0)
            continue;
        const char *name = str_of(json_array_get(fields, (size_t)segs[i].field), "name");
        size_t len = name ? strlen(name) : 0;
        long long w = seg_w(&segs[i]);
        if (fits_across(len, w) || w >= DOC_WIDE)
            continue;
        long long need = (long long)len * DOC_CHAR_W + 10;
        if (need > h)
            h = need;
    }
    return h > DOC_BOX_MAX ? DOC_BOX_MAX : h;
}

static json_t *box_json(const json_t *fields, const struct seg *g, long long top, int per_row,
                        long long h)
{
    long long row_y = (long long)g->row * (DOC_TICK_H + h + DOC_ATTR_H + DOC_ROW_GAP);
    long long x = seg_x(g, top - (long long)g->row * per_row), w = seg_w(g);
    long long y = row_y + DOC_TICK_H;
    const json_t *f = g->field >= 0 ? json_array_get(fields, (size_t)g->field) : NULL;
    const char *name = f ? str_of(f, "name") : NULL;
    const char *access = f ? str_of(f, "access") : NULL;
    json_t *o = json_object();
    set_new(o, "x", json_integer(x));
    set_new(o, "y", json_integer(y));
    set_new(o, "w", json_integer(w));
    set_new(o, "h", json_integer(h));
    set_new(o, "kind", json_string(f ? box_kind(access) : "unimplemented"));
    set_new(o, "is_field", json_boolean(f != NULL));
    set_new(o, "field", json_integer(g->field));
    set_new(o, "name", json_string(name ? name : "not implemented"));
    set_new(o, "bits", bits_text(f ? int_of(f, "msb") : g->hi, f ? int_of(f, "lsb") : g->lo));
    set_new(o, "access", json_string(access ? access : ""));
    size_t len = name ? strlen(name) : 0;
    bool upright_fits = (long long)len * DOC_CHAR_W + 10 <= h;
    bool across = fits_across(len, w) || (w >= DOC_WIDE && !upright_fits);
    size_t max = across ? (size_t)((w - 6) / DOC_CHAR_W) : (size_t)((h - 10) / DOC_CHAR_W);
    set_new(o, "label", label_text(name ? name : "", max));
    set_new(o, "vertical", json_boolean(!across));
    set_new(o, "lx", json_integer(x + w / 2));
    set_new(o, "ly", json_integer(y + h / 2));
    set_new(o, "ax", json_integer(x + w / 2));
    set_new(o, "ay", json_integer(y + h + 12));
    return o;
}

static void add_tick(json_t *ticks, uint64_t *seen, long long bit, long long x, long long y)
{
    if (*seen >> bit & 1)
        return;
    *seen |= UINT64_C(1) << bit;
    json_t *t = json_object();
    set_new(t, "x", json_integer(x));
    set_new(t, "y", json_integer(y));
    set_new(t, "bit", json_integer(bit));
    json_array_append_new(ticks, t);
}

/* {"width","height","rows","bits_per_row","boxes":[...],"ticks":[...]} for one register. */
static json_t *svg_json(const json_t *reg)
{
    long long width = int_of(reg, "width");
    if (width < 1 || width > 64)
        width = 64;
    int per_row = width <= 32 ? (int)width : 32;
    int rows = (int)((width + per_row - 1) / per_row);
    long long top = (long long)rows * per_row - 1;
    const json_t *fields = json_object_get(reg, "fields");
    struct seg segs[160];
    size_t n = make_segs(fields, top, per_row, rows, segs, sizeof segs / sizeof segs[0]);
    long long h = box_height(fields, segs, n);
    long long pitch = DOC_TICK_H + h + DOC_ATTR_H + DOC_ROW_GAP;

    json_t *boxes = json_array(), *ticks = json_array();
    uint64_t seen = 0;
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(boxes, box_json(fields, &segs[i], top, per_row, h));
        long long rhi = top - (long long)segs[i].row * per_row;
        long long x = seg_x(&segs[i], rhi), ty = (long long)segs[i].row * pitch + 10;
        add_tick(ticks, &seen, segs[i].hi, x + DOC_CELL / 2, ty);
        add_tick(ticks, &seen, segs[i].lo, x + seg_w(&segs[i]) - DOC_CELL / 2, ty);
    }
    json_t *o = json_object();
    set_new(o, "width", json_integer(2 * DOC_MARGIN + (long long)per_row * DOC_CELL));
    set_new(o, "height", json_integer(rows * pitch - DOC_ROW_GAP));
    set_new(o, "rows", json_integer(rows));
    set_new(o, "bits_per_row", json_integer(per_row));
    set_new(o, "boxes", boxes);
    set_new(o, "ticks", ticks);
    return o;
}

/* ------------------------------------------------------------ walk */

static bool any_values(const json_t *fields)
{
    for (size_t i = 0; i < json_array_size(fields); i++)
        if (json_array_size(json_object_get(json_array_get(fields, i), "values")) > 0)
            return true;
    return false;
}

static void register_keys(json_t *reg)
{
    const char *name = str_of(reg, "name");
    json_t *fields = json_object_get(reg, "fields");
    if (!name || !json_is_array(fields))
        return;
    set_new(reg, "doc_anchor", lower_id("", name));
    set_new(reg, "doc_has_values", json_boolean(any_values(fields)));
    set_new(reg, "doc_has_rules", json_boolean(json_array_size(json_object_get(reg, "rules")) > 0));
    size_t i;
    json_t *v;
    json_array_foreach(fields, i, v)
    {
        set_new(v, "doc_bits", bits_text(int_of(v, "msb"), int_of(v, "lsb")));
        set_new(v, "doc_index", json_integer((json_int_t)i));
        set_new(v, "doc_has_values", json_boolean(json_array_size(json_object_get(v, "values"))));
    }
    json_array_foreach(json_object_get(reg, "instances"), i, v)
        set_new(v, "doc_label", copy_label(v));
    set_new(reg, "svg", svg_json(reg));
}

static void block_keys(json_t *blk)
{
    const char *name = str_of(blk, "name");
    if (!name)
        return;
    set_new(blk, "doc_anchor", lower_id("block-", name));
    set_new(blk, "doc_events_anchor", lower_id("events-of-", name));
    json_t *events = json_object_get(blk, "events");
    set_new(blk, "doc_has_events", json_boolean(json_array_size(events) > 0));
    set_new(blk, "doc_has_instances",
            json_boolean(json_array_size(json_object_get(blk, "instances")) > 0));
    size_t i;
    json_t *v;
    json_array_foreach(events, i, v)
        set_new(v, "doc_counters", counters_text(json_object_get(v, "counters")));
    json_array_foreach(json_object_get(blk, "registers"), i, v)
        register_keys(v);
}

void context_doc_keys(json_t *root)
{
    size_t i;
    json_t *blk;
    json_array_foreach(json_object_get(root, "blocks"), i, blk)
        block_keys(blk);
}
