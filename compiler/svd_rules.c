/*
 * svd_rules - an SVD field's <writeConstraint> as a register rule, so the
 * header's rule checks, the descriptor tables and regctl's checked writes
 * refuse what the file says a write may not hold (docs/svd.md).
 *
 *   <range><minimum>MIN</minimum><maximum>MAX</maximum></range>
 *       rule "F_range": MIN <= F <= MAX (one side dropped when it is the field's own bound)
 *   <useEnumeratedValues>true</useEnumeratedValues>
 *       rule "F_values": F is one of its values usable for writes (usage write or
 *       read-write, not named reserved); none when an isDefault of a set for writes
 *       names every other value
 *
 * A range no value of the field can meet, a range wider than the field and
 * useEnumeratedValues without a value to write are svd-write-constraint
 * warnings that say what is kept. writeAsRead gives no rule: a rule sees the
 * value written, not the value read (kept in the model, -t json).
 */
#include "expr.h"
#include "svd_rules.h"

#include "buf.h"

#include <inttypes.h>
#include <string.h>

/* Appends the rule 'name' with expression 'text' to f's register; false if it does not parse. */
static bool add_rule(struct arena *a, struct model_field *f, const char *name, const char *text,
                     const char *message)
{
    struct expr_error err;
    struct expr *e = expr_parse(a, text, &err);
    if (!e)
        return false; /* a long value list past the evaluator's stack: no rule rather than a wrong one */
    struct model_rule *ru = arena_zalloc(a, sizeof(*ru));
    ru->name = arena_printf(a, "%s_%s", f->name, name);
    ru->expr_text = text;
    ru->expr = e;
    ru->message = message;
    ru->cite = model_cite_keep(a, &(struct model_cite){
        .src = f->reg->cite.src, /* the register's source: "svd" for an SVD file */
        .cite = arena_printf(a, "%s.%s writeConstraint", f->reg->name, f->name),
        .pos = f->pos});
    ru->expr_pos = f->pos;
    ru->pos = f->pos;
    size_t cap = f->reg->nrules; /* grown by arena_push from a count it set */
    arena_push(a, (void ***)&f->reg->rules, &f->reg->nrules, &cap, ru);
    return true;
}

static void range_rule(struct arena *a, struct diag *dg, struct model_field *f)
{
    const struct model_write_constraint *wc = &model_field_ext(f)->wc;
    uint64_t lo = wc->min, hi = wc->max, top = model_field_max(f);
    if (lo > hi || lo > top) {
        diag_report(dg, DIAG_SVD_WRITE_CONSTRAINT, f->pos,
                    "writeConstraint range 0x%" PRIX64 " to 0x%" PRIX64 " of field '%s' (%u bits): "
                    "no value can meet it, dropped",
                    lo, hi, f->name, model_field_width(f));
        return;
    }
    if (hi > top) {
        diag_report(dg, DIAG_SVD_WRITE_CONSTRAINT, f->pos,
                    "writeConstraint maximum 0x%" PRIX64 " of field '%s' does not fit its %u bits: "
                    "cut to 0x%" PRIX64,
                    hi, f->name, model_field_width(f), top);
        hi = top;
    }
    if (lo == 0 && hi == top)
        return; /* every value of the field: nothing to check */
    const char *text = lo == 0     ? arena_printf(a, "%s <= 0x%" PRIX64, f->name, hi)
                       : hi == top ? arena_printf(a, "%s >= 0x%" PRIX64, f->name, lo)
                                   : arena_printf(a, "%s >= 0x%" PRIX64 " && %s <= 0x%" PRIX64,
                                                  f->name, lo, f->name, hi);
    add_rule(a, f, "range", text,
             arena_printf(a, "field %s must be written a value from 0x%" PRIX64 " to 0x%" PRIX64
                             " (SVD writeConstraint range)",
                          f->name, lo, hi));
}

static bool writable_value(const struct model_value *v)
{
    return model_value_ext(v)->usage != USAGE_READ && !v->undefined;
}

static void enumerated_rule(struct arena *a, struct diag *dg, struct model_field *f)
{
    for (size_t i = 0; i < model_field_ext(f)->ndefaults; i++)
        if (writable_value(model_field_ext(f)->defaults[i]))
            return; /* isDefault of a set for writes: every value not listed has a name too */
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < f->nvalues; i++) {
        const struct model_value *v = f->values[i];
        if (!writable_value(v))
            continue;
        if (model_value_ext(v)->dont_care) { /* "#1x0" matches several values: no '&' */
            buf_reset(&b);
            break;
        }
        buf_addf(&b, "%s%s == 0x%" PRIX64, b.len ? " || " : "", f->name, v->value);
    }
    bool any = false;
    for (size_t i = 0; i < f->nvalues; i++)
        any |= writable_value(f->values[i]);
    if (!any)
        diag_report(dg, DIAG_SVD_WRITE_CONSTRAINT, f->pos,
                    "writeConstraint useEnumeratedValues of field '%s': it has no enumerated value "
                    "to write, so no value can meet it: dropped",
                    f->name);
    else if (b.len)
        add_rule(a, f, "values", arena_printf(a, "%s", b.s),
                 arena_printf(a, "field %s must be written one of its enumerated values (SVD "
                                 "writeConstraint useEnumeratedValues)",
                              f->name));
    buf_release(&b);
}

void svd_write_rules(struct arena *a, struct diag *dg, struct model_reg *r)
{
    for (size_t i = 0; i < r->nfields; i++) {
        struct model_field *f = r->fields[i];
        if (model_field_ext(f)->wc.kind == WC_RANGE)
            range_rule(a, dg, f);
        else if (model_field_ext(f)->wc.kind == WC_ENUMERATED)
            enumerated_rule(a, dg, f);
    }
}
