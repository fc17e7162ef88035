/*
 * check_reg - one register at a time: width and size, fields inside the
 * width, no overlaps, known attributes, resets, gaps (filled with implicit
 * fields when a gaps= rule is in force), named values, address ranges and
 * what the block's instances must give.
 */
#include "check_int.h"
#include "util.h"

#include "regc/num.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* "RW, RO, ...": every spelling of attr.h's table, so the message never drifts from it. */
static const char accepted_access[] =
#define REGC_X_(id, text, sem, meaning) text ", "
    REGC_ACCESS_LIST(REGC_X_)
#undef REGC_X_
    ;

const char *field_bits_text(struct check_ctx *c, const struct model_field *f)
{
    if (f->msb == f->lsb)
        return arena_printf(c->a, "[%u]", f->lsb);
    return arena_printf(c->a, "[%u:%u]", f->msb, f->lsb);
}

static bool field_inside(const struct model_field *f)
{
    return f->msb < f->reg->width && f->msb < 64 && f->lsb <= f->msb;
}

bool check_width_allowed(unsigned width)
{
    static const unsigned widths[] = {8, 16, 32, 44, 48, 64};
    for (size_t i = 0; i < ARRAY_SIZE(widths); i++)
        if (width == widths[i])
            return true;
    return false;
}

static void check_bad_width(struct check_ctx *c, const struct model_reg *r)
{
    bool ok = check_width_allowed(r->width);
    if (!ok)
        diag_report(c->dg, DIAG_BAD_WIDTH, r->pos,
                    "register '%s' has width %u; allowed widths are 8, 16, 32, 44, 48 and 64",
                    r->name, r->width);
    bool mmio = r->space == SPACE_MMIO; /* memory-mapped: byte and half-word accesses too */
    if (r->size != 32 && r->size != 64 && !(mmio && (r->size == 8 || r->size == 16)))
        diag_report(c->dg, DIAG_BAD_WIDTH, r->pos,
                    "register '%s' has access size %u; allowed sizes are %s32 and 64", r->name,
                    r->size, mmio ? "8, 16, " : "");
    else if (ok && r->width > r->size)
        diag_report(c->dg, DIAG_BAD_WIDTH, r->pos,
                    "register '%s' is %u bits wide but accessed in %u bits", r->name, r->width,
                    r->size);
}

/* Not judged against a width reported as bad: the field may be right and the width wrong. */
static void check_field_outside(struct check_ctx *c, const struct model_field *f)
{
    if (!field_inside(f) && check_width_allowed(f->reg->width))
        diag_report(c->dg, DIAG_FIELD_OUTSIDE, f->pos,
                    "field '%s' %s lies outside register '%s' (width %u)", f->name,
                    field_bits_text(c, f), f->reg->name, f->reg->width);
}

static void check_unknown_access(struct check_ctx *c, const struct model_field *f)
{
    if (f->access != REGC_ACCESS_UNKNOWN)
        return;
    const char *text = f->access_text ? f->access_text : "";
    struct util_suggest sg;
    util_suggest_init(&sg, text);
    for (int a = 0; a < REGC_ACCESS__COUNT; a++)
        util_suggest_add(&sg, regc_access_text((enum regc_access)a));
    char hint[160];
    diag_report(c->dg, DIAG_UNKNOWN_ACCESS, f->pos,
                "field '%s' has unknown access '%s'; accepted: %.*s%s", f->name, text,
                (int)(sizeof(accepted_access) - 3), accepted_access,
                diag_hint(hint, sizeof(hint), util_suggest_best(&sg)));
}

static void check_reset_too_wide(struct check_ctx *c, const struct model_field *f)
{
    if (f->reset > model_field_max(f))
        diag_report(c->dg, DIAG_RESET_TOO_WIDE, f->pos,
                    "reset " CHECK_X " of field '%s' does not fit its %u bits", f->reset, f->name,
                    model_field_width(f));
}

static void check_reserved_reset(struct check_ctx *c, const struct model_field *f)
{
    /* an implicit field's reset is the register's (SVD: bits no field describes), and so is
     * a gap's: its bits are not known to be 0 */
    if (check_known_reserved(f) && f->reset != 0 && !f->implicit &&
        model_field_sem(f) != REGC_SEM_GAP)
        diag_report(c->dg, DIAG_RESERVED_RESET, f->pos,
                    "reserved field '%s' %s has non-zero reset " CHECK_X, f->name,
                    field_bits_text(c, f), f->reset);
}

static void check_value_too_wide(struct check_ctx *c, const struct model_field *f)
{
    for (size_t i = 0; i < f->nvalues; i++) {
        const struct model_value *v = f->values[i];
        if (v->value > model_field_max(f)) {
            diag_report(c->dg, DIAG_VALUE_TOO_WIDE, v->pos,
                        "value '%s' (" CHECK_X ") of field '%s' does not fit its %u bits", v->name,
                        v->value, f->name, model_field_width(f));
            struct srcpos from = model_field_ext(f)->values_from;
            if (from.line) /* a copy: where the field took it (the value is where its base is) */
                diag_note(c->dg, from, "field '%s' takes its base's values from this derived-from",
                          f->name);
        }
    }
}

static void check_field(struct check_ctx *c, const struct model_field *f)
{
    check_field_outside(c, f);
    check_unknown_access(c, f);
    check_reset_too_wide(c, f);
    check_reserved_reset(c, f);
    check_value_too_wide(c, f);
}

/* ------------------------------------------------------ overlaps and gaps */

static void report_overlap(struct check_ctx *c, const struct model_field *f,
                           const struct model_field *other)
{
    diag_report(c->dg, DIAG_FIELD_OVERLAP, f->pos, "field '%s' %s overlaps field '%s' %s", f->name,
                field_bits_text(c, f), other->name, field_bits_text(c, other));
    diag_note(c->dg, other->pos, "field '%s' defined here", other->name);
}

/* Sweep by lsb: each field is compared with the one reaching highest so far. */
static void check_field_overlap(struct check_ctx *c, const struct model_field **v, size_t n)
{
    const struct model_field *top = NULL;
    for (size_t i = 0; i < n; i++) {
        if (top && v[i]->lsb <= top->msb)
            report_overlap(c, v[i], top);
        if (!top || v[i]->msb > top->msb)
            top = v[i];
    }
}

static void check_bits_uncovered(struct check_ctx *c, const struct model_reg *r,
                                 const struct model_gap *g, size_t n)
{
    struct buf b = BUF_INIT;
    for (size_t i = n; i-- > 0;) {
        if (g[i].msb == g[i].lsb)
            buf_addf(&b, "%s%u", b.len ? ", " : "", g[i].lsb);
        else
            buf_addf(&b, "%s%u:%u", b.len ? ", " : "", g[i].msb, g[i].lsb);
    }
    bool one = n == 1 && g[0].msb == g[0].lsb;
    diag_report(c->dg, DIAG_BITS_UNCOVERED, r->pos, "%s %s of register '%s' %s covered by no field",
                one ? "bit" : "bits", b.s, r->name, one ? "is" : "are");
    buf_release(&b);
}

/*
 * The fields a gaps= rule adds, each placed among the written fields in
 * their bit order (high bits first, as the manuals' tables print them,
 * unless the register's fields are written low bits first), so that every
 * output lists a register's fields in one order. 'g' is in ascending bits.
 */
static void fill_gaps(struct check_ctx *c, struct model_reg *r, const struct model_gap *g,
                      size_t n)
{
    enum regc_access acc = regc_access_parse(r->gaps);
    struct model_field *gaps[33];
    for (size_t i = 0; i < n; i++) {
        struct model_field *f = arena_zalloc(c->a, sizeof(*f));
        f->name = acc == REGC_ACCESS_IG ? "ig" : acc == REGC_ACCESS_GAP ? "gap" : "rsv";
        f->msb = g[i].msb;
        f->lsb = g[i].lsb;
        f->access_text = r->gaps;
        f->access = acc;
        f->implicit = true;
        f->reg = r;
        f->pos = r->pos;
        /* a gap keeps what the register's reset puts there; reserved bits reset to 0 */
        if (acc == REGC_ACCESS_GAP && r->has_reset)
            f->reset = (r->reset >> f->lsb) & model_field_max(f);
        gaps[i] = f;
    }
    model_place_gaps(c->a, r, gaps, n, false);
}

static bool gaps_value_ok(const char *g)
{
    return strcmp(g, "RV") == 0 || strcmp(g, "rsv") == 0 || strcmp(g, "ig") == 0 ||
           strcmp(g, "gap") == 0;
}

static void check_gaps(struct check_ctx *c, struct model_reg *r)
{
    if (r->width > 64)
        return;
    const struct model_field **v = model_fields_sorted(r, model_field_cmp_lsb);
    check_field_overlap(c, v, r->nfields);
    struct model_gap g[33];
    size_t n = model_find_gaps(v, r->nfields, r->width, g);
    free(v);
    if (n == 0)
        return;
    if (!r->gaps)
        check_bits_uncovered(c, r, g, n);
    else if (gaps_value_ok(r->gaps))
        fill_gaps(c, r, g, n);
}

/* ---------------------------------------------------------------- resets */

/* The fields' resets combined; false when a field was reported (outside, or reset too wide). */
static bool fields_reset(const struct model_reg *r, uint64_t *v)
{
    bool ok = true;
    *v = 0;
    for (size_t i = 0; i < r->nfields; i++) {
        const struct model_field *f = r->fields[i];
        if (field_inside(f) && f->reset <= model_field_max(f))
            *v |= f->reset << f->lsb;
        else
            ok = false;
    }
    return ok;
}

static void check_reset_mismatch(struct check_ctx *c, const struct model_reg *r, uint64_t fields)
{
    if (r->reset != fields)
        diag_report(c->dg, DIAG_RESET_MISMATCH, r->pos,
                    "register '%s' has reset " CHECK_X " but its fields' resets make " CHECK_X,
                    r->name, r->reset, fields);
}

static void check_reg_reset(struct check_ctx *c, struct model_reg *r)
{
    uint64_t fields;
    bool fields_ok = fields_reset(r, &fields);
    if (!r->has_reset) {
        r->reset = fields;
        return;
    }
    if (r->width <= 64 && (r->reset & ~regc_num_max_bits(r->width)) != 0) {
        diag_report(c->dg, DIAG_RESET_TOO_WIDE, r->pos,
                    "reset " CHECK_X " of register '%s' does not fit its width of %u bits",
                    r->reset, r->name, r->width);
        return;
    }
    if (fields_ok)
        check_reset_mismatch(c, r, fields);
}

/* gaps= is reported where it is written: on the spec, the block, or the register. */
static bool gaps_inherited(const struct model_reg *r, const struct model_spec *s)
{
    const char *up = r->block && r->block->gaps ? r->block->gaps : s->gaps;
    return up && strcmp(up, r->gaps) == 0;
}

static void report_bad_gaps(struct check_ctx *c, const char *gaps, const char *what,
                            struct srcpos pos)
{
    if (gaps && !gaps_value_ok(gaps))
        diag_report(c->dg, DIAG_UNKNOWN_ACCESS, pos, "gaps value '%s' of %s is not RV, rsv, ig or gap",
                    gaps, what);
}

static void check_missing_source(struct check_ctx *c, const struct model_reg *r)
{
    if (!r->cite.src)
        diag_report(c->dg, DIAG_MISSING_SOURCE, r->pos, "register '%s' cites no source", r->name);
}

static void check_reg(struct check_ctx *c, struct model_reg *r)
{
    check_bad_width(c, r);
    if (r->gaps && !gaps_inherited(r, c->s))
        report_bad_gaps(c, r->gaps, arena_printf(c->a, "register '%s'", r->name), r->pos);
    for (size_t i = 0; i < r->nfields; i++)
        check_field(c, r->fields[i]);
    check_gaps(c, r);
    check_reg_reset(c, r);
    check_missing_source(c, r);
}

/* ------------------------------------------------------ address ranges */

/* Address of element 0 in 'inst' (model_reg_address), false when base + address overflows. */
static bool reg_base(const struct model_reg *r, const struct model_instance *inst, uint64_t *base)
{
    *base = r->address;
    if (!inst)
        return true;
    for (size_t i = 0; i < r->nats; i++)
        if (r->ats[i]->instance == inst) {
            *base = r->ats[i]->address;
            return true;
        }
    if (inst->has_base && r->space != SPACE_PCI)
        return !__builtin_add_overflow(r->address, inst->base, base);
    return true;
}

/*
 * How far the array's elements reach below and above element 0: an
 * irregular array (addresses=) may list a lower address after the first.
 * False when last * stride overflows.
 */
static bool reg_span(const struct model_reg *r, uint64_t *below, uint64_t *above)
{
    *below = *above = 0;
    if (!r->addrs)
        return !__builtin_mul_overflow(r->count ? r->count - 1 : 0, r->stride, above);
    for (size_t k = 1; k < r->naddrs; k++) {
        if (r->addrs[k] < r->addrs[0] && r->addrs[0] - r->addrs[k] > *below)
            *below = r->addrs[0] - r->addrs[k];
        if (r->addrs[k] > r->addrs[0] && r->addrs[k] - r->addrs[0] > *above)
            *above = r->addrs[k] - r->addrs[0];
    }
    return true;
}

/* One past the last byte (pci, mmio) or index (msr) of the last element; false on overflow. */
static bool reg_end(const struct model_reg *r, const struct model_instance *inst, uint64_t *end)
{
    uint64_t base, below, above;
    uint64_t unit = r->space == SPACE_MSR ? 1 : r->size / 8;
    return reg_base(r, inst, &base) && reg_span(r, &below, &above) && base >= below &&
           !__builtin_add_overflow(base, above, end) && !__builtin_add_overflow(*end, unit, end);
}

static uint64_t space_limit(enum model_space sp)
{
    return sp == SPACE_MSR ? UINT64_C(1) << 32 : sp == SPACE_PCI ? 4096 : UINT64_MAX;
}

bool check_reg_fits(const struct model_reg *r, const struct model_instance *inst)
{
    uint64_t end;
    return reg_end(r, inst, &end) && (r->space == SPACE_MMIO || end <= space_limit(r->space));
}

static void check_address_overflow(struct check_ctx *c, const struct model_reg *r,
                                   const struct model_instance *inst)
{
    uint64_t end;
    bool fits = reg_end(r, inst, &end);
    if (check_reg_fits(r, inst))
        return;
    const char *of = inst ? arena_printf(c->a, " of instance '%s'", inst->name) : "";
    static const char *const spaces[] = {"32-bit msr address space",
                                         "4096-byte pci configuration space",
                                         "64-bit mmio address space"};
    diag_report(c->dg, DIAG_ADDRESS_OVERFLOW, r->pos, "register '%s'%s does not fit the %s (%s)",
                r->name, of, spaces[r->space],
                fits ? arena_printf(c->a, "it ends at " CHECK_X, end)
                     : "its address overflows 64 bits");
}

static void check_reg_addresses(struct check_ctx *c, const struct model_reg *r)
{
    const struct model_block *b = r->block;
    if (!b || b->ninstances == 0) {
        check_address_overflow(c, r, NULL);
        return;
    }
    for (size_t i = 0; i < b->ninstances; i++)
        check_address_overflow(c, r, b->instances[i]);
}

/* --------------------------------------------------- instance locators */

static bool instance_locates(const struct model_instance *inst, const struct model_reg *r)
{
    if (r->nats)
        return true; /* <at> gives the address; coverage is checked with the references */
    return r->space == SPACE_PCI ? inst->has_pci : inst->has_base;
}

/* Each instance gives what the block's registers need, reported once per instance and space. */
static void check_instance_locators(struct check_ctx *c, const struct model_block *b)
{
    for (size_t i = 0; i < b->ninstances; i++) {
        const struct model_instance *inst = b->instances[i];
        bool reported[3] = {false, false, false};
        for (size_t j = 0; j < b->nregs; j++) {
            const struct model_reg *r = b->regs[j];
            if (reported[r->space] || instance_locates(inst, r))
                continue;
            reported[r->space] = true;
            diag_report(c->dg, DIAG_UNKNOWN_REF, inst->pos,
                        "instance '%s' gives no %s, which %s register '%s' needs", inst->name,
                        r->space == SPACE_PCI ? "PCI locator (vendor, device)" : "base",
                        model_space_word(r->space), r->name);
        }
    }
}

void check_registers(struct check_ctx *c)
{
    report_bad_gaps(c, c->s->gaps, "the spec", c->s->pos);
    for (size_t b = 0; b < c->s->nblocks; b++) {
        struct model_block *blk = c->s->blocks[b];
        if (blk->gaps)
            report_bad_gaps(c, blk->gaps, arena_printf(c->a, "block '%s'", blk->name), blk->pos);
        check_instance_locators(c, blk);
        for (size_t i = 0; i < blk->nregs; i++) {
            check_reg(c, blk->regs[i]);
            check_reg_addresses(c, blk->regs[i]);
        }
    }
}
