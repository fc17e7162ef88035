/*
 * check - may a value be written? (must-be-zero and must-be-one bits, undefined
 * values, rules, fields that must be written as read) and what a read-modify-write
 * writes. Pure; no I/O.
 */
#include "internal.h"
#include "regc/regc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* " (TITLE REF-REV, table T, page P)" for a citation; "" when nothing is cited. */
static void cite_text(const struct regc_spec *s, const struct regc_cite *c, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!c || !c->src)
        return;
    const struct regc_source *src = regc_spec_source(s, c->src);
    size_t n = (size_t)snprintf(buf, len, " (%s", src && src->title ? src->title : c->src);
    if (src && src->ref && n < len)
        n += (size_t)snprintf(buf + n, len - n, " %s%s%s", src->ref, src->rev ? "-" : "",
                              src->rev ? src->rev : "");
    if (c->section && n < len)
        n += (size_t)snprintf(buf + n, len - n, ", section %s", c->section);
    if (c->table && n < len)
        n += (size_t)snprintf(buf + n, len - n, ", table %s", c->table);
    if (c->page && n < len)
        n += (size_t)snprintf(buf + n, len - n, ", page %s", c->page);
    if (c->cite && n < len)
        n += (size_t)snprintf(buf + n, len - n, ", %s", c->cite);
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

static int check_width(const struct regc_reg *r, const char *name, uint64_t v, char *msg,
                       size_t len)
{
    uint64_t past = v & ~regc_num_max_bits(r->width);
    if (!past)
        return 0;
    return regc__err(
        msg, len, -EINVAL,
        "refusing 0x%llx for '%s': bits 0x%llx are past its width of %u bits and must be zero",
        (unsigned long long)v, name, (unsigned long long)past, r->width);
}

/*
 * Reserved fields hold what the attribute table demands: must-be-zero (RV, rsv) all 0,
 * must-be-one (RV1: the manual's "SW must write to 1") all 1; then the bits past the
 * fields' width that must be zero.
 */
static int check_reserved_fields(const struct regc_spec *s, const struct regc_reg *r,
                                 const char *name, uint64_t v, char *msg, size_t len)
{
    char cite[256];
    for (const struct regc_field *f = r->fields; f->name; f++) {
        enum regc_sem sem = regc_field_sem(f);
        uint64_t m = regc_field_mask(f);
        bool bad = (sem == REGC_SEM_MBZ && (v & m)) || (sem == REGC_SEM_MB1 && (v & m) != m);
        if (!bad)
            continue;
        cite_text(s, &r->cite, cite, sizeof(cite));
        return regc__err(msg, len, -EINVAL,
                         "refusing 0x%llx for '%s': field '%s' [%u:%u] is reserved (%s) and %s%s",
                         (unsigned long long)v, name, f->name, f->msb, f->lsb,
                         regc_access_text(f->access),
                         sem == REGC_SEM_MB1 ? "must be written 1" : "must be zero", cite);
    }
    if (v & r->mbz)
        return regc__err(msg, len, -EINVAL, "refusing 0x%llx for '%s': bits 0x%llx must be zero",
                         (unsigned long long)v, name, (unsigned long long)(v & r->mbz));
    return 0;
}

static int check_undefined(const struct regc_spec *s, const struct regc_reg *r, const char *name,
                           uint64_t v, char *msg, size_t len)
{
    char cite[256];
    for (const struct regc_field *f = r->fields; f->name; f++) {
        const struct regc_value *val = regc_field_value_of(f, regc_field_get(f, v));
        if (!val || !val->undefined)
            continue;
        cite_text(s, &r->cite, cite, sizeof(cite));
        return regc__err(
            msg, len, -EINVAL,
            "refusing 0x%llx for '%s': value 0x%llx ('%s') of field '%s' is undefined%s",
            (unsigned long long)v, name, (unsigned long long)val->value, val->name, f->name, cite);
    }
    return 0;
}

static int check_rules(const struct regc_spec *s, const struct regc_reg *r, const char *name,
                       uint64_t v, char *msg, size_t len)
{
    char cite[256];
    for (const struct regc_rule *ru = r->rules; ru && ru->name; ru++) {
        bool holds;
        if (regc_rule_eval(r, ru, v, &holds) < 0)
            return regc__err(msg, len, -EINVAL, "rule '%s' of '%s' cannot be evaluated: '%s'",
                             ru->name, name, ru->expr ? ru->expr : "");
        if (holds)
            continue;
        cite_text(s, ru->cite.src ? &ru->cite : &r->cite, cite, sizeof(cite));
        return regc__err(msg, len, -EINVAL, "refusing 0x%llx for '%s': breaks rule '%s' (%s): %s%s",
                         (unsigned long long)v, name, ru->name, ru->expr ? ru->expr : "",
                         ru->message ? ru->message : "", cite);
    }
    return 0;
}

int regc_check(const struct regc_spec *s, const struct regc_reg *r, const char *name,
               uint64_t value, char *msg, size_t msglen)
{
    if (!name)
        name = r->name;
    if (msg && msglen)
        msg[0] = '\0';
    int rc = check_width(r, name, value, msg, msglen);
    if (!rc)
        rc = check_reserved_fields(s, r, name, value, msg, msglen);
    if (!rc)
        rc = check_undefined(s, r, name, value, msg, msglen);
    if (!rc)
        rc = check_rules(s, r, name, value, msg, msglen);
    return rc;
}

int regc_check_as_read(const struct regc_spec *s, const struct regc_reg *r, const char *name,
                       uint64_t old, uint64_t value, char *msg, size_t msglen)
{
    if (!name)
        name = r->name;
    if (msg && msglen)
        msg[0] = '\0';
    char cite[256];
    for (const struct regc_field *f = r->fields; f && f->name; f++) {
        uint64_t was = regc_field_get(f, old), now = regc_field_get(f, value);
        if (!f->write_as_read || was == now)
            continue;
        cite_text(s, &r->cite, cite, sizeof(cite));
        return regc__err(msg, msglen, -EINVAL,
                         "refusing 0x%llx for '%s': field '%s' [%u:%u] may only be written as read "
                         "(writeAsRead): it reads 0x%llx, the value gives it 0x%llx%s",
                         (unsigned long long)value, name, f->name, f->msb, f->lsb,
                         (unsigned long long)was, (unsigned long long)now, cite);
    }
    return 0;
}

uint64_t regc_rmw_value(const struct regc_reg *r, uint64_t old, uint64_t mask, uint64_t value)
{
    uint64_t keep = regc_reg_class_mask(r, REGC_MASK_KEEP) & regc_num_max_bits(r->width);
    /* must-be-one bits, and write-0-acts bits (RW0C, RW0S, RW0T), which a 1 leaves as they are */
    uint64_t ones = regc_reg_class_mask(r, REGC_MASK_MB1) | regc_reg_class_mask(r, REGC_MASK_W0);
    return (old & keep & ~mask) | (value & mask) | (ones & ~mask);
}
