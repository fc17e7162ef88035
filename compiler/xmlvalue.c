/*
 * xmlvalue - the values of a spec's attributes, parsed. See xmlvalue.h.
 */
#include "xmlvalue.h"

#include "expr.h"
#include "util.h"

#include <string.h>

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool fail(struct value_error *err, enum diag_code code, size_t at, const char *msg)
{
    *err = (struct value_error){code, at, msg};
    return false;
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

bool value_bits(struct arena *a, const char *v, unsigned *msb, unsigned *lsb,
                struct value_error *err)
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
        if (lo > 63)
            return fail(err, DIAG_BAD_BITS, start_lo,
                        arena_printf(a, "bit %lu is out of range: bits are numbered 0 to 63", lo));
    }
    if (v[i] != '\0')
        goto malformed;
    if (hi > 63)
        return fail(err, DIAG_BAD_BITS, start_hi,
                    arena_printf(a, "bit %lu is out of range: bits are numbered 0 to 63", hi));
    if (hi < lo)
        return fail(err, DIAG_BAD_BITS, 0,
                    arena_printf(a, "bit range '%s' is written low first: write '%lu:%lu'", v,
                                 lo, hi));
    *msb = (unsigned)hi;
    *lsb = (unsigned)lo;
    return true;
malformed:
    if (is_digit(v[i]))
        while (is_digit(v[i + 1]))
            i++; /* a too-large number: point at its last digit */
    return fail(err, DIAG_BAD_BITS, i,
                arena_printf(a, "malformed bit range '%s': expected 'HI:LO' or 'N'", v));
}

bool value_counters(struct arena *a, const char *v, uint64_t *mask, struct value_error *err)
{
    size_t i = 0;
    *mask = 0;
    for (;;) {
        size_t start = i;
        unsigned long lo, hi;
        if (!scan_index(v, &i, 1000, &lo))
            goto malformed;
        hi = lo;
        if (v[i] == '-') {
            i++;
            if (!scan_index(v, &i, 1000, &hi))
                goto malformed;
        }
        if (lo > 63 || hi > 63)
            return fail(err, DIAG_BAD_NUMBER, start,
                        arena_printf(a, "counter index %lu is out of range: at most 63",
                                     lo > 63 ? lo : hi));
        if (hi < lo)
            return fail(err, DIAG_BAD_NUMBER, start,
                        arena_printf(a,
                                     "counter range '%lu-%lu' is written high first: write "
                                     "'%lu-%lu'",
                                     lo, hi, hi, lo));
        for (unsigned long k = lo; k <= hi; k++)
            *mask |= UINT64_C(1) << k;
        if (v[i] == '\0')
            return true;
        if (v[i++] != ',')
            goto malformed;
    }
malformed:
    while (is_digit(v[i]))
        i++;
    return fail(err, DIAG_BAD_NUMBER, i,
                arena_printf(a,
                             "malformed counter list '%s': expected indices such as '0-3' or "
                             "'0,1'",
                             v));
}

bool value_array_name(struct arena *a, const char *v, struct value_array_name *out,
                      struct value_error *err)
{
    const char *brace = strchr(v, '{');
    *out = (struct value_array_name){.name = v, .first = 0, .count = 1};
    if (!brace && !strchr(v, '}'))
        return true;
    out->name = arena_strndup(a, v, brace ? (size_t)(brace - v) : strlen(v));
    size_t i = brace ? (size_t)(brace - v) + 1 : strcspn(v, "}");
    unsigned long lo, hi;
    if (!brace || i == 1)
        goto malformed;
    if (!scan_index(v, &i, 1u << 20, &lo) || v[i] != '-')
        goto malformed;
    i++;
    if (!scan_index(v, &i, 1u << 20, &hi) || v[i] != '}')
        goto malformed;
    i++;
    if (v[i] != '\0')
        goto malformed;
    out->is_array = true;
    out->descending = lo > hi;
    out->first = (unsigned)(lo < hi ? lo : hi);
    out->count = (unsigned)(lo < hi ? hi - lo : lo - hi) + 1;
    return true;
malformed:
    if (!brace || i == 1)
        i = brace ? 0 : i;
    return fail(err, DIAG_BAD_ARRAY, i,
                arena_printf(a,
                             "malformed register array '%s': expected 'NAME{HI-LO}' or "
                             "'NAME{LO-HI}'",
                             v));
}

bool value_number(struct arena *a, const char *attr, const char *v, uint64_t *out,
                  struct value_error *err)
{
    size_t len = strlen(v), bad = 0;
    enum expr_number_status st = expr_scan_number(v, len, out, &bad);
    if (st == EXPR_NUMBER_OK)
        return true;
    size_t at = bad < len ? bad : (len ? len - 1 : 0);
    bool hsuffix = len > 1 && (v[len - 1] == 'H' || v[len - 1] == 'h') &&
                   strspn(v, "0123456789abcdefABCDEF_") == len - 1;
    const char *msg;
    if (st == EXPR_NUMBER_EMPTY)
        msg = arena_printf(a, "'%s' is empty: expected a number", attr);
    else if (st == EXPR_NUMBER_OVERFLOW)
        msg = arena_printf(a, "number '%s' does not fit in 64 bits", v);
    else if (hsuffix)
        msg = arena_printf(a, "number '%s' uses the manuals' 'H' suffix: write '0x%.*s'", v,
                           (int)(len - 1), v);
    else if (bad >= len)
        msg = arena_printf(a, "number '%s' ends too early", v);
    else
        msg = arena_printf(a, "invalid character '%c' in number '%s'", v[bad], v);
    return fail(err, DIAG_BAD_NUMBER, at, msg);
}

bool value_addresses(struct arena *a, const char *v, uint64_t **addrs, size_t *n,
                     struct value_error *err)
{
    size_t cap = 0;
    for (size_t i = 0; v[i];) {
        i += strspn(v + i, " \t\r\n,");
        size_t len = strcspn(v + i, " \t\r\n,");
        if (!len)
            break;
        uint64_t addr;
        size_t bad = 0;
        if (expr_scan_number(v + i, len, &addr, &bad) != EXPR_NUMBER_OK)
            return fail(err, DIAG_BAD_NUMBER, i + bad,
                        arena_printf(a, "'%s' in 'addresses' is not a number",
                                     arena_strndup(a, v + i, len)));
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            uint64_t *grown = arena_alloc(a, cap * sizeof(*grown));
            if (*n)
                memcpy(grown, *addrs, *n * sizeof(*grown));
            *addrs = grown;
        }
        (*addrs)[(*n)++] = addr;
        i += len;
    }
    return true;
}

const char *value_fold_text(struct arena *a, const char *s)
{
    char *out = arena_alloc_bytes(a, strlen(s) + 1);
    size_t n = 0;
    while (*s) {
        unsigned newlines = 0;
        bool space = false;
        for (; util_is_space(*s); s++) {
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

void value_words(struct arena *a, const char *text, const char ***out, size_t *n)
{
    size_t cap = 0;
    for (const char *t = text; t && *t;) {
        t += strspn(t, " \t\n\r");
        size_t len = strcspn(t, " \t\n\r");
        if (!len)
            break;
        arena_push(a, (void ***)out, n, &cap, arena_strndup(a, t, len));
        t += len;
    }
}

enum model_space value_space(const char *s)
{
    if (s && strcmp(s, "pci") == 0)
        return SPACE_PCI;
    if (s && strcmp(s, "mmio") == 0)
        return SPACE_MMIO;
    return SPACE_MSR;
}

const char *value_from_sax(struct buf *b, const char *s, size_t len)
{
    size_t at = b->len;
    for (const char *amp; len > 0 && (amp = memchr(s, '&', len)) != NULL;) {
        size_t k = (size_t)(amp - s);
        buf_addn(b, s, k);
        buf_addc(b, '&');
        k += len - k >= 5 && memcmp(amp, "&#38;", 5) == 0 ? 5 : 1;
        s += k;
        len -= k;
    }
    buf_addn(b, s, len);
    buf_addc(b, '\0');
    return b->s + at;
}
