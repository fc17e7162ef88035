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
#include "buf.h"
#include "kpmu.h"

#include "util.h"

#include "regc/attr.h"
#include "regc/num.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Geometry, in SVG user units (CSS px at scale 1). */
enum {
    DOC_CELL = 22,    /* one bit */
    DOC_MARGIN = 12,  /* left and right */
    DOC_TICK_H = 14,  /* bit numbers above a row of boxes */
    DOC_ATTR_H = 16,  /* attribute text under the boxes */
    DOC_ROW_GAP = 10, /* between rows */
    DOC_CHAR_W = 7,   /* advance of one character of an 11px monospace label */
    DOC_BOX_MIN = 40, /* box height bounds: tall enough for vertical labels */
    DOC_BOX_MAX = 112,
    DOC_WIDE = 3 * DOC_CELL, /* boxes this wide turn a long label only if the height allows */
};

static const char *str_of(const struct dt *o, const char *key)
{
    return dt_str_value(dt_get(o, key));
}

/* Is o's string 'key' the text 's' (both there)? */
static bool str_is(const struct dt *o, const char *key, const char *s)
{
    const char *v = str_of(o, key);
    return v && s && strcmp(v, s) == 0;
}

static long long int_of(const struct dt *o, const char *key)
{
    return dt_int_value(dt_get(o, key));
}

/* 'prefix' + 's' in lower case, as a new JSON string (a GitHub heading slug for names). */
static struct dt *lower_id(struct arena *a, const char *prefix, const char *s)
{
    size_t n = strlen(prefix), m = strlen(s);
    char *t = arena_alloc_bytes(a, n + m + 1);
    memcpy(t, prefix, n);
    for (size_t i = 0; i < m; i++) {
        unsigned char ch = (unsigned char)s[i];
        t[n + i] = isalnum(ch) || ch == '_' || ch == '-' ? (char)tolower(ch) : '-';
    }
    t[n + m] = '\0';
    return dt_str_ref(a, t);
}

static struct dt *bits_text(struct arena *a, long long msb, long long lsb)
{
    return dt_str_ref(a, msb == lsb ? arena_printf(a, "%lld", lsb)
                                    : arena_printf(a, "%lld:%lld", msb, lsb));
}

/* ------------------------------------------------------------ small keys */

/* The integers of 'list' joined by 'sep', every one of them; "" for none. */
static struct dt *join_ints(struct arena *a, const struct dt *list, const char *sep)
{
    struct buf b;
    buf_init(&b);
    for (size_t i = 0; i < dt_len(list); i++)
        buf_addf(&b, "%s%lld", i ? sep : "", dt_int_value(dt_at(list, i)));
    struct dt *s = dt_strn(a, b.s, b.len);
    buf_release(&b);
    return s;
}

/* "0-3" for a run, "0, 2, 3" otherwise; "" for an empty list. */
static struct dt *counters_text(struct arena *a, const struct dt *list)
{
    size_t n = dt_len(list);
    bool run = n > 2;
    for (size_t i = 1; i < n && run; i++)
        run = dt_int_value(dt_at(list, i)) == dt_int_value(dt_at(list, i - 1)) + 1;
    if (run)
        return dt_str_ref(a, arena_printf(a, "%lld-%lld", dt_int_value(dt_at(list, 0)),
                                          dt_int_value(dt_at(list, n - 1))));
    return join_ints(a, list, ", ");
}

/* "mbox0", "[1]", "mbox0 [1]" or null (one copy only) for one register copy. */
static struct dt *copy_label(struct arena *a, const struct dt *copy)
{
    const char *inst = str_of(copy, "instance");
    const struct dt *idx = dt_get(copy, "index");
    if (inst && dt_is(idx, DT_INT))
        return dt_str_ref(a, arena_printf(a, "%s [%lld]", inst, dt_int_value(idx)));
    if (dt_is(idx, DT_INT))
        return dt_str_ref(a, arena_printf(a, "[%lld]", dt_int_value(idx)));
    return dt_str(a, inst);
}

/* ------------------------------------------------------------ SVG geometry */

struct seg {
    long long hi, lo; /* bits, inclusive */
    int row;
    long long field; /* index in fields[], -1: unimplemented bits */
};

static const char *box_kind(const char *access)
{
    enum regc_access a = access ? regc_access_parse(access) : REGC_ACCESS_UNKNOWN;
    if (a == REGC_ACCESS_UNKNOWN)
        return "field";
    enum regc_sem sem = regc_access_sem(a);
    if (sem == REGC_SEM_MBZ || sem == REGC_SEM_MB1 || sem == REGC_SEM_GAP)
        return "reserved";
    return sem == REGC_SEM_IG ? "ignored" : "field";
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
static struct dt *label_text(struct arena *a, const char *name, size_t max)
{
    size_t len = strlen(name);
    if (len <= max)
        return dt_str(a, name);
    if (max < 2)
        max = 2;
    char *t = arena_alloc_bytes(a, max + 3);
    memcpy(t, name, max - 1);
    memcpy(t + max - 1, "\xe2\x80\xa6", 4); /* U+2026 */
    return dt_str_ref(a, t);
}

/* Splits the fields (and the bits no field covers) into per-row segments. */
static size_t make_segs(const struct dt *fields, long long top, int per_row, int rows,
                        struct seg *out, size_t cap)
{
    size_t n = 0;
    uint64_t covered = 0;
    for (size_t i = 0; i < dt_len(fields); i++) {
        const struct dt *f = dt_at(fields, i);
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
static long long box_height(const struct dt *fields, const struct seg *segs, size_t n)
{
    long long h = DOC_BOX_MIN;
    for (size_t i = 0; i < n; i++) {
        if (segs[i].field < 0)
            continue;
        const char *name = str_of(dt_at(fields, (size_t)segs[i].field), "name");
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

static struct dt *box_json(struct arena *a, const struct dt *fields, const struct seg *g,
                           long long top, int per_row, long long h)
{
    long long row_y = (long long)g->row * (DOC_TICK_H + h + DOC_ATTR_H + DOC_ROW_GAP);
    long long x = seg_x(g, top - (long long)g->row * per_row), w = seg_w(g);
    long long y = row_y + DOC_TICK_H;
    const struct dt *f = g->field >= 0 ? dt_at(fields, (size_t)g->field) : NULL;
    const char *name = f ? str_of(f, "name") : NULL;
    const char *access = f ? str_of(f, "access") : NULL;
    struct dt *o = dt_obj(a);
    dt_set(a, o, "x", dt_int(a, x));
    dt_set(a, o, "y", dt_int(a, y));
    dt_set(a, o, "w", dt_int(a, w));
    dt_set(a, o, "h", dt_int(a, h));
    dt_set(a, o, "kind", dt_str(a, f ? box_kind(access) : "unimplemented"));
    dt_set(a, o, "is_field", dt_bool(f != NULL));
    dt_set(a, o, "field", dt_int(a, g->field));
    dt_set(a, o, "name", dt_str(a, name ? name : "not implemented"));
    dt_set(a, o, "bits", bits_text(a, f ? int_of(f, "msb") : g->hi, f ? int_of(f, "lsb") : g->lo));
    dt_set(a, o, "access", dt_str(a, access ? access : ""));
    size_t len = name ? strlen(name) : 0;
    bool upright_fits = (long long)len * DOC_CHAR_W + 10 <= h;
    bool across = fits_across(len, w) || (w >= DOC_WIDE && !upright_fits);
    size_t max = across ? (size_t)((w - 6) / DOC_CHAR_W) : (size_t)((h - 10) / DOC_CHAR_W);
    dt_set(a, o, "label", label_text(a, name ? name : "", max));
    dt_set(a, o, "vertical", dt_bool(!across));
    dt_set(a, o, "lx", dt_int(a, x + w / 2));
    dt_set(a, o, "ly", dt_int(a, y + h / 2));
    dt_set(a, o, "ax", dt_int(a, x + w / 2));
    dt_set(a, o, "ay", dt_int(a, y + h + 12));
    return o;
}

static void add_tick(struct arena *a, struct dt *ticks, uint64_t *seen, long long bit, long long x,
                     long long y)
{
    if (*seen >> bit & 1)
        return;
    *seen |= UINT64_C(1) << bit;
    struct dt *t = dt_obj(a);
    dt_set(a, t, "x", dt_int(a, x));
    dt_set(a, t, "y", dt_int(a, y));
    dt_set(a, t, "bit", dt_int(a, bit));
    dt_push(a, ticks, t);
}

/* {"width","height","rows","bits_per_row","boxes":[...],"ticks":[...]} for one register. */
static struct dt *svg_json(struct arena *a, const struct dt *reg)
{
    long long width = int_of(reg, "width");
    if (width < 1 || width > 64)
        width = 64;
    int per_row = width <= 32 ? (int)width : 32;
    int rows = (int)((width + per_row - 1) / per_row);
    long long top = (long long)rows * per_row - 1;
    const struct dt *fields = dt_get(reg, "fields");
    struct seg segs[160];
    size_t n = make_segs(fields, top, per_row, rows, segs, sizeof segs / sizeof segs[0]);
    long long h = box_height(fields, segs, n);
    long long pitch = DOC_TICK_H + h + DOC_ATTR_H + DOC_ROW_GAP;

    struct dt *boxes = dt_list(a), *ticks = dt_list(a);
    uint64_t seen = 0;
    for (size_t i = 0; i < n; i++) {
        dt_push(a, boxes, box_json(a, fields, &segs[i], top, per_row, h));
        long long rhi = top - (long long)segs[i].row * per_row;
        long long x = seg_x(&segs[i], rhi), ty = (long long)segs[i].row * pitch + 10;
        add_tick(a, ticks, &seen, segs[i].hi, x + DOC_CELL / 2, ty);
        add_tick(a, ticks, &seen, segs[i].lo, x + seg_w(&segs[i]) - DOC_CELL / 2, ty);
    }
    struct dt *o = dt_obj(a);
    dt_set(a, o, "width", dt_int(a, 2 * DOC_MARGIN + (long long)per_row * DOC_CELL));
    dt_set(a, o, "height", dt_int(a, rows * pitch - DOC_ROW_GAP));
    dt_set(a, o, "rows", dt_int(a, rows));
    dt_set(a, o, "bits_per_row", dt_int(a, per_row));
    dt_set(a, o, "boxes", boxes);
    dt_set(a, o, "ticks", ticks);
    return o;
}

/* ------------------------------------------------------------ walk */

static bool any_values(const struct dt *fields)
{
    for (size_t i = 0; i < dt_len(fields); i++)
        if (dt_len(dt_get(dt_at(fields, i), "values")) > 0)
            return true;
    return false;
}

static void register_keys(struct arena *a, struct dt *reg)
{
    const char *name = str_of(reg, "name");
    struct dt *fields = dt_get(reg, "fields");
    if (!name || !dt_is(fields, DT_LIST))
        return;
    dt_set(a, reg, "doc_anchor", lower_id(a, "", name));
    dt_set(a, reg, "doc_has_values", dt_bool(any_values(fields)));
    dt_set(a, reg, "doc_has_rules", dt_bool(dt_len(dt_get(reg, "rules")) > 0));
    size_t i;
    struct dt *v;
    DT_FOREACH(fields, i, v) {
        dt_set(a, v, "doc_bits", bits_text(a, int_of(v, "msb"), int_of(v, "lsb")));
        dt_set(a, v, "doc_index", dt_int(a, (long long)i));
        dt_set(a, v, "doc_has_values", dt_bool(dt_len(dt_get(v, "values"))));
    }
    DT_FOREACH(dt_get(reg, "instances"), i, v)
        dt_set(a, v, "doc_label", copy_label(a, v));
    dt_set(a, reg, "svg", svg_json(a, reg));
}

/* Field 'field' of register 'reg' of block 'blk' (stable keys), or NULL. */
static const struct dt *block_field(const struct dt *blk, const char *reg, const char *field)
{
    size_t i, j;
    struct dt *r, *f;
    DT_FOREACH(dt_get(blk, "registers"), i, r) {
        if (!str_is(r, "name", reg))
            continue;
        DT_FOREACH(dt_get(r, "fields"), j, f)
            if (str_is(f, "name", field))
                return f;
    }
    return NULL;
}

/* Ors value 'v' of field 'name' of the event's control into *enc and the field's bits into *mask. */
static void place_in(const struct dt *blk, const char *reg, const char *name, uint64_t v,
                     uint64_t *enc, uint64_t *mask)
{
    const struct dt *f = block_field(blk, reg, name);
    if (!f)
        return;
    long long lsb = int_of(f, "lsb"), width = int_of(f, "msb") - lsb + 1;
    uint64_t m = regc_num_max_bits((unsigned)width) << lsb;
    *enc |= (v << lsb) & m;
    *mask |= m;
}

static uint64_t hex_of(const struct dt *o, const char *key)
{
    const char *t = str_of(o, key);
    return t ? strtoull(t, NULL, 16) : 0;
}

static struct dt *hex_text(struct arena *a, uint64_t v)
{
    return dt_str_ref(a, arena_printf(a, "0x%llx", (unsigned long long)v));
}

/*
 * An event's anchor, and what a control value must hold to encode it
 * (docs/json.md): doc_encoding, the bits of the fields it sets (code field,
 * umask field when it has a umask, each <set> on its own control), and
 * doc_match, those fields' masks. The HTML decoder names the event a typed
 * control value encodes by them.
 */
static void event_keys(struct arena *a, const struct dt *blk, struct dt *ev)
{
    const char *reg = str_of(ev, "register"), *name = str_of(ev, "name");
    const char *prefix = arena_printf(a, "event-%s-", str_of(blk, "name"));
    dt_set(a, ev, "doc_anchor", lower_id(a, prefix, name ? name : ""));
    uint64_t enc = 0, mask = 0;
    place_in(blk, reg, str_of(ev, "field"), hex_of(ev, "code"), &enc, &mask);
    if (dt_is(dt_get(ev, "umask"), DT_STR))
        place_in(blk, reg, str_of(ev, "umask_field"), hex_of(ev, "umask"), &enc, &mask);
    size_t i;
    struct dt *st;
    DT_FOREACH(dt_get(ev, "sets"), i, st)
        if (str_is(st, "register", reg))
            place_in(blk, reg, str_of(st, "field"), hex_of(st, "value"), &enc, &mask);
    dt_set(a, ev, "doc_encoding", hex_text(a, enc));
    dt_set(a, ev, "doc_match", hex_text(a, mask));
}

/*
 * The perf keys of the events of block 'blk' (templates/perf.mustache), in the keys Intel's perfmon
 * files and the kernel's pmu-events JSON use, read as perf's jevents.py reads them (torvalds/linux
 * tools/perf/pmu-events/jevents.py, JsonEvent.__init__, commit 0434410fa45c; docs/outputs.md):
 *   doc_perf           whether perf can count the event: a sub-event, or an event without
 *                      sub-events (an event whose table lists sub-events is counted through them,
 *                      as perfmon lists only those), whose every setting has a perf key below
 *                      (an ExtSel the kernel's PMU cannot program, kpmu.h regc_kpmu_ext_sel, has not)
 *   doc_perf_code      EventCode (jevents: event=): the code, when the code field is bits 7:0 of
 *                      the control, as perfmon and the kernel's event format place it; a fixed
 *                      counter's: the kernel's fixed event 0xff (kpmu.h)
 *   doc_perf_config    ConfigCode (jevents: config=, the whole config word) instead, when the code
 *                      field lies elsewhere (the Xeon 7500 M-Box's inc_sel [13:9], set_flag_sel
 *                      [21:19]): the control value the event encodes, its settings on the control
 *                      included
 *   doc_perf_umask     UMask (umask=): the unit mask, when its field is bits 15:8
 *   doc_perf_extsel    ExtSel, decimal: a setting of bit 21 (jevents: bit 8 of event=, which the
 *                      kernel's event_ext format puts at config bit 21)
 *   doc_perf_cmask     CounterMask (cmask=), decimal: a setting of the field the SDM calls CMASK,
 *                      bits 28:24 (the Sandy Bridge client's, SDM Vol. 3B 18-61; the kernel's
 *                      cmask5 format "config:24-28"); a threshold elsewhere (the E5's thresh,
 *                      also at 28:24 in the U-Box) goes to Filter as thresh=, the kernel's name
 *   doc_perf_edge, doc_perf_inv   EdgeDetect (edge=) and Invert (inv=): settings of bits 18, 23
 *   doc_perf_filter    Filter, the terms jevents appends as they stand: a unit mask elsewhere
 *                      than bits 15:8 (the PCU's occ_sel [15:14]: "occ_sel=0x1", as the kernel's
 *                      jaketown uncore-power.json writes it) and any other setting of the control
 *                      as FIELD=VALUE; a setting of another register as the kernel's term for
 *                      that register with the register's value (kpmu.h regc_kpmu_reg_term:
 *                      "dsp=0x400"), else as FIELD=VALUE
 *   doc_perf_counters, doc_perf_unit (the block name, or the PMU serving its fixed counter), and
 *   doc_perf_first, true on the spec's first such event only (the first of the first block with
 *   events: no "events_before"), for the commas. Every event table lists one such event at least.
 */
/* Is 'reg' the control of a fixed counter group of block blk? */
static bool fixed_control(const struct dt *blk, const char *reg)
{
    size_t i;
    struct dt *k;
    DT_FOREACH(dt_get(dt_get(blk, "pmon"), "counters"), i, k)
        if (str_is(k, "control", reg) && str_is(k, "kind", "fixed"))
            return true;
    return false;
}

/* Is field 'name' of register 'reg' bits msb:lsb? */
static bool field_at(const struct dt *blk, const char *reg, const char *name, long long msb,
                     long long lsb)
{
    const struct dt *f = block_field(blk, reg, name);
    return f && int_of(f, "msb") == msb && int_of(f, "lsb") == lsb;
}

/* The comma-separated terms 'terms' (NULL: none) and "TERM=0xVALUE" after them, arena-owned. */
static char *add_term(struct arena *a, const char *terms, const char *term, uint64_t v)
{
    return arena_printf(a, "%s%s%s=0x%llx", terms ? terms : "", terms ? "," : "", term,
                        (unsigned long long)v);
}

/* The perf keys of event ev of block blk, not a fixed counter's (see above); false when perf
 * cannot count it. */
static bool perf_event_keys(struct arena *a, const char *spec, const struct dt *blk, struct dt *ev)
{
    const char *reg = str_of(ev, "register");
    bool at0 = field_at(blk, reg, str_of(ev, "field"), 7, 0), ok = true;
    uint64_t config = 0, mask = 0;
    char *filter = NULL, num[24];
    struct dt *extsel = dt_null(), *cmask = dt_null(), *edge = dt_null(), *inv = dt_null();
    place_in(blk, reg, str_of(ev, "field"), hex_of(ev, "code"), &config, &mask);
    dt_set(a, ev, "doc_perf_umask", dt_null());
    if (dt_is(dt_get(ev, "umask"), DT_STR)) {
        const char *uf = str_of(ev, "umask_field");
        place_in(blk, reg, uf, hex_of(ev, "umask"), &config, &mask);
        if (at0 && field_at(blk, reg, uf, 15, 8))
            dt_set(a, ev, "doc_perf_umask", dt_str(a, str_of(ev, "umask")));
        else if (at0 && hex_of(ev, "umask"))
            filter = add_term(a, filter, uf, hex_of(ev, "umask"));
    }
    size_t i, j;
    struct dt *st, *other;
    DT_FOREACH(dt_get(ev, "sets"), i, st) {
        const char *sreg = str_of(st, "register"), *f = str_of(st, "field");
        uint64_t v = hex_of(st, "value");
        if (!str_is(st, "register", reg)) { /* another register: its kernel term, whole */
            const char *term = regc_kpmu_reg_term(spec, sreg);
            if (!term) {
                filter = add_term(a, filter, f, v);
                continue;
            }
            bool first = true; /* one term per register: the value of all its settings */
            uint64_t whole = 0, m = 0;
            DT_FOREACH(dt_get(ev, "sets"), j, other) {
                if (str_is(other, "register", sreg)) {
                    first = first && j >= i;
                    place_in(blk, sreg, str_of(other, "field"), hex_of(other, "value"), &whole, &m);
                }
            }
            if (first)
                filter = add_term(a, filter, term, whole);
            continue;
        }
        place_in(blk, reg, f, v, &config, &mask);
        if (!at0)
            continue; /* in ConfigCode */
        snprintf(num, sizeof num, "%llu", (unsigned long long)v);
        if (field_at(blk, reg, f, 21, 21)) {
            extsel = dt_str(a, num);
            ok = ok && regc_kpmu_ext_sel(spec, str_of(blk, "name")) != 0;
        } else if (field_at(blk, reg, f, 28, 24) && strcasecmp(f, "cmask") == 0) {
            cmask = dt_str(a, num);
        } else if (field_at(blk, reg, f, 18, 18)) {
            edge = dt_str(a, num);
        } else if (field_at(blk, reg, f, 23, 23)) {
            inv = dt_str(a, num);
        } else {
            filter = add_term(a, filter, f, v);
        }
    }
    dt_set(a, ev, "doc_perf_code", at0 ? dt_str(a, str_of(ev, "code")) : dt_null());
    dt_set(a, ev, "doc_perf_config", at0 ? dt_null() : hex_text(a, config));
    dt_set(a, ev, "doc_perf_extsel", extsel);
    dt_set(a, ev, "doc_perf_cmask", cmask);
    dt_set(a, ev, "doc_perf_edge", edge);
    dt_set(a, ev, "doc_perf_inv", inv);
    dt_set(a, ev, "doc_perf_filter", dt_str(a, filter));
    return ok;
}

/*
 * doc_perf_aliases of event ev of block blk: one per distinct term of a metric (root "metrics")
 * that names this event with settings and no instance, as perf's JSON defines it for the
 * MetricExpr (model_metric_perf_alias): doc_perf_name the alias, doc_perf_filter the event's
 * own Filter terms then the settings by the kernel's format names, desc the event's with them.
 */
static struct dt *perf_aliases(struct arena *a, const struct dt *metrics, const struct dt *blk,
                               const struct dt *ev)
{
    struct dt *list = dt_list(a);
    size_t i, j, k;
    struct dt *m, *t, *seen;
    DT_FOREACH(metrics, i, m)
    DT_FOREACH(dt_get(m, "events"), j, t) {
        const char *alias = str_of(t, "perf_alias"), *set = str_of(t, "perf_settings");
        if (!alias || !set || !str_is(t, "block", str_of(blk, "name")) ||
            !str_is(t, "event", str_of(ev, "name")))
            continue;
        bool dup = false;
        DT_FOREACH(list, k, seen)
            dup = dup || str_is(seen, "doc_perf_name", alias);
        if (dup)
            continue;
        const char *own = str_of(ev, "doc_perf_filter"), *desc = str_of(ev, "desc");
        struct dt *o = dt_obj(a);
        dt_set(a, o, "doc_perf_name", dt_str(a, alias));
        dt_set(a, o, "doc_perf_filter",
                dt_str(a, own ? arena_printf(a, "%s,%s", own, set) : set));
        dt_set(a, o, "desc",
                dt_str(a, arena_printf(a, "%s%s%s", desc ? desc : "", desc ? ", " : "", set)));
        dt_push(a, list, o);
    }
    return list;
}

static void perf_keys(struct arena *a, const char *spec, const struct dt *metrics, struct dt *blk)
{
    struct dt *events = dt_get(blk, "events");
    const struct regc_kpmu_fixed_host *host = regc_kpmu_fixed_host(spec, str_of(blk, "name"));
    bool first = !dt_is(dt_get(blk, "events_before"), DT_TRUE);
    size_t n = dt_len(events);
    for (size_t i = 0; i < n; i++) {
        struct dt *ev = dt_at(events, i);
        const char *name = str_of(ev, "name");
        const char *next = i + 1 < n ? str_of(dt_at(events, i + 1), "name") : NULL;
        size_t len = name ? strlen(name) : 0;
        bool has_subs = name && next && strncmp(next, name, len) == 0 && next[len] == '.';
        bool perf = name && (!has_subs || str_of(ev, "perfmon"));
        /* a fixed counter's event: the kernel's fixed event, as perf's JSON writes it (kpmu.h) */
        bool fixed = fixed_control(blk, str_of(ev, "register"));
        if (fixed) {
            dt_set(a, ev, "doc_perf_code", hex_text(a, REGC_KPMU_FIXED_EVENT));
            const char *nulls[] = {"doc_perf_config", "doc_perf_umask", "doc_perf_extsel",
                                   "doc_perf_cmask",  "doc_perf_edge",  "doc_perf_inv",
                                   "doc_perf_filter"};
            for (size_t k = 0; k < sizeof nulls / sizeof nulls[0]; k++)
                dt_set(a, ev, nulls[k], dt_null());
        } else {
            perf = perf_event_keys(a, spec, blk, ev) && perf;
        }
        dt_set(a, ev, "doc_perf", dt_bool(perf));
        dt_set(a, ev, "doc_perf_name",
                dt_str(a, str_of(ev, "perfmon") ? str_of(ev, "perfmon") : name ? name : ""));
        dt_set(a, ev, "doc_perf_aliases",
                perf ? perf_aliases(a, metrics, blk, ev) : dt_list(a));
        /* "0,1,2,3": perf's "Counter" (its pmu-events JSON and Intel's perfmon files write so) */
        dt_set(a, ev, "doc_perf_counters",
               fixed ? dt_str(a, "FIXED") : join_ints(a, dt_get(ev, "counters"), ","));
        dt_set(a, ev, "doc_perf_unit",
                dt_str(a, fixed && host ? host->unit : str_of(blk, "name")));
        dt_set(a, ev, "doc_perf_first", dt_bool(perf && first));
        if (perf)
            first = false;
    }
}

static void block_keys(struct arena *a, struct dt *blk)
{
    const char *name = str_of(blk, "name");
    if (!name)
        return;
    dt_set(a, blk, "doc_anchor", lower_id(a, "block-", name));
    dt_set(a, blk, "doc_events_anchor", lower_id(a, "events-of-", name));
    dt_set(a, blk, "doc_filters_anchor", lower_id(a, "filters-of-", name));
    const struct dt *pm = dt_get(blk, "pmon");
    dt_set(a, blk, "doc_has_filters",
            dt_bool(dt_len(dt_get(pm, "filters")) + dt_len(dt_get(pm, "unmodelled_filters")) > 0));
    struct dt *events = dt_get(blk, "events");
    dt_set(a, blk, "doc_has_events", dt_bool(dt_len(events) > 0));
    dt_set(a, blk, "doc_has_instances", dt_bool(dt_len(dt_get(blk, "instances")) > 0));
    size_t i;
    struct dt *v;
    DT_FOREACH(events, i, v) {
        dt_set(a, v, "doc_counters", counters_text(a, dt_get(v, "counters")));
        event_keys(a, blk, v);
    }
    DT_FOREACH(dt_get(blk, "registers"), i, v)
        register_keys(a, v);
}

/*
 * "doc_access_legend": [{"access", "meaning", "first", "last"}] for every
 * spelling of attr.h's table, so the documents' legend never drifts from it.
 */
static struct dt *access_legend(struct arena *a)
{
    struct dt *list = dt_list(a);
    for (int i = 0; i < REGC_ACCESS__COUNT; i++) {
        struct dt *o = dt_obj(a);
        dt_set(a, o, "access", dt_str_ref(a, regc_access_text((enum regc_access)i)));
        dt_set(a, o, "meaning", dt_str_ref(a, regc_access_meaning((enum regc_access)i)));
        dt_set(a, o, "first", dt_bool(i == 0));
        dt_set(a, o, "last", dt_bool(i + 1 == REGC_ACCESS__COUNT));
        dt_push(a, list, o);
    }
    return list;
}

void context_doc_keys(struct arena *a, struct dt *root)
{
    if (dt_is(root, DT_OBJ))
        dt_set(a, root, "doc_access_legend", access_legend(a));
    size_t i;
    struct dt *blk;
    DT_FOREACH(dt_get(root, "blocks"), i, blk) {
        block_keys(a, blk);
        perf_keys(a, str_of(dt_get(root, "spec"), "name"), dt_get(root, "metrics"), blk);
    }
}
