/*
 * libFuzzer target for the number parser (runtime/num.c, regc/num.h), the
 * one that regctl and libregrt use for every number a user gives them.
 *
 * Input: one byte choosing the form (decimal only, hexadecimal, either; and
 * signed), eight bytes of a limit, then the text. The text is handed over as
 * exactly its bytes, in a buffer of that size and no NUL (ASan catches a read
 * past it). Each answer is held against a reference written here from the
 * grammar of regc/num.h, with strtoull doing the arithmetic on a
 * NUL-terminated copy: accepted exactly when the text is a number of the
 * grammar within the range, with the same value; every refusal has a
 * reason, and a "too large" names the limit.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regc/num.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool all_of(const char *s, size_t n, const char *set)
{
    for (size_t i = 0; i < n; i++)
        if (!s[i] || !strchr(set, s[i]))
            return false;
    return n > 0;
}

#define DEC "0123456789"
#define HEX "0123456789abcdefABCDEF"

/* The reference: is 'text' (n bytes) a number of the grammar, and its value (ERANGE: too big). */
static bool reference(const char *text, size_t n, unsigned flags, uint64_t *v, bool *over)
{
    const char *digits = text;
    size_t nd = n;
    int base = 10;
    if (flags & REGC_NUM_HEX) {
        if (n >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
            digits += 2, nd -= 2;
        if (!all_of(digits, nd, HEX))
            return false;
        base = 16;
    } else if (!(flags & REGC_NUM_DEC) && n >= 2 && text[0] == '0' &&
               (text[1] == 'x' || text[1] == 'X')) {
        digits += 2, nd -= 2, base = 16;
        if (!all_of(digits, nd, HEX))
            return false;
    } else if (!all_of(digits, nd, DEC) || (nd > 1 && digits[0] == '0')) {
        return false;
    }
    char *copy = malloc(nd + 1);
    if (!copy)
        abort();
    memcpy(copy, digits, nd);
    copy[nd] = '\0';
    errno = 0;
    *v = strtoull(copy, NULL, base);
    *over = errno == ERANGE;
    free(copy);
    return true;
}

static void check_unsigned(const char *text, size_t n, unsigned flags, uint64_t max)
{
    uint64_t min = max & 1 ? 1 : 0; /* a lower limit too, now and then */
    uint64_t v = 0x5a5a5a5a, want;
    char why[96] = "";
    enum regc_num_status st = regc_num_parse(text, n, min, max, flags, &v, why, sizeof(why));
    bool over;
    bool ok = reference(text, n, flags, &want, &over) && !over && want <= max && want >= min;
    if ((st == REGC_NUM_OK) != ok || (ok && v != want))
        abort();
    if (st != REGC_NUM_OK && (!why[0] || v != 0x5a5a5a5a))
        abort();
    char lim[32];
    snprintf(lim, sizeof(lim), (flags & REGC_NUM_HEX) ? "0x%llx" : "%llu", (unsigned long long)max);
    if (st == REGC_NUM_TOO_LARGE && !strstr(why, lim))
        abort();
    if (st == REGC_NUM_OK && regc_num_check(v, min, max, flags, NULL, 0) != REGC_NUM_OK)
        abort();
}

static void check_signed(const char *text, size_t n, uint64_t lim)
{
    int64_t max = (int64_t)(lim >> 1), min = -max - (int64_t)(lim & 1), v = 77;
    char why[96] = "";
    enum regc_num_status st = regc_num_parse_signed(text, n, min, max, &v, why, sizeof(why));
    bool neg = n > 0 && text[0] == '-', over;
    uint64_t mag;
    bool ok = reference(text + neg, n - neg, 0, &mag, &over) && !over;
    if (ok && neg)
        ok = mag <= (uint64_t)INT64_MAX + 1 && (mag == 0 || -(int64_t)(mag - 1) - 1 >= min);
    else if (ok)
        ok = mag <= (uint64_t)max;
    if ((st == REGC_NUM_OK) != ok)
        abort();
    if (ok && v != (neg && mag ? -(int64_t)(mag - 1) - 1 : (int64_t)mag))
        abort();
    if (st != REGC_NUM_OK && (!why[0] || v != 77))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 9)
        return 0;
    unsigned form = data[0] % 6;
    uint64_t lim = 0;
    for (int i = 1; i <= 8; i++)
        lim = lim << 8 | data[i];
    if (data[0] & 0x80) /* the usual limits: a field's 2^w - 1 */
        lim = regc_num_max_bits(1 + (unsigned)(lim % 64));
    size_t n = size - 9;
    char *text = malloc(n ? n : 1); /* exactly the text's bytes: a read past them is caught */
    if (!text)
        return 0;
    memcpy(text, data + 9, n);
    static const unsigned flags[] = {0, REGC_NUM_DEC, REGC_NUM_HEX};
    if (form < 3)
        check_unsigned(text, n, flags[form], lim);
    else
        check_signed(text, n, lim);
    free(text);
    return 0;
}
