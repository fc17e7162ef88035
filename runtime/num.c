/*
 * num - the one number parser of libregrt and regctl (regc/num.h): scanned
 * by hand rather than with strtoull, which skips spaces, takes a sign and
 * negates ("-1" is 2^64-1), reads a leading 0 as octal and reports overflow
 * only through errno.
 */
#include "regc/num.h"

#include "digit.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *regc_num_status_name(enum regc_num_status st)
{
    switch (st) {
    case REGC_NUM_OK:
        return "";
    case REGC_NUM_EMPTY:
        return "empty";
    case REGC_NUM_SPACE:
        return "space before the number";
    case REGC_NUM_SIGN:
        return "a '+' sign is not taken";
    case REGC_NUM_NEGATIVE:
        return "negative";
    case REGC_NUM_NOT_NUMBER:
        return "not a number";
    case REGC_NUM_OCTAL:
        return "leading zero (octal is not taken; write it in decimal or 0x...)";
    case REGC_NUM_JUNK:
        return "junk after the number";
    case REGC_NUM_TOO_LARGE:
        return "too large";
    case REGC_NUM_TOO_SMALL:
        return "too small";
    }
    return "?";
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

/*
 * The magnitude of s[0..len): *v, saturated at UINT64_MAX with *over set.
 * A status for the text's shape (sign, junk...), range not checked.
 */
static enum regc_num_status scan(const char *s, size_t len, unsigned flags, uint64_t *v, bool *over)
{
    if (len == 0)
        return REGC_NUM_EMPTY;
    if (is_space(s[0]))
        return REGC_NUM_SPACE;
    if (s[0] == '+')
        return REGC_NUM_SIGN;
    if (s[0] == '-')
        return len > 1 && regc_digit_value(s[1]) < 10 ? REGC_NUM_NEGATIVE : REGC_NUM_NOT_NUMBER;
    unsigned base = flags & REGC_NUM_HEX ? 16 : 10;
    size_t i = 0;
    bool prefix = len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (prefix && !(flags & REGC_NUM_DEC))
        i = 2, base = 16;
    size_t first = i;
    *v = 0;
    *over = false;
    for (; i < len && regc_digit_value(s[i]) < (int)base; i++) {
        uint64_t d = (uint64_t)regc_digit_value(s[i]);
        if (*v > (UINT64_MAX - d) / base)
            *over = true, *v = UINT64_MAX;
        else
            *v = *v * base + d;
    }
    if (i == first)
        return REGC_NUM_NOT_NUMBER;
    if (i < len)
        return REGC_NUM_JUNK;
    if (base == 10 && s[0] == '0' && len > 1)
        return REGC_NUM_OCTAL;
    return REGC_NUM_OK;
}

/* "N", or "N (0xH)" where hex says more (from 16 up, not with REGC_NUM_DEC). */
static void limit_text(char *buf, size_t len, bool neg, uint64_t mag, unsigned flags)
{
    if (flags & REGC_NUM_HEX)
        snprintf(buf, len, "%s0x%llx", neg ? "-" : "", (unsigned long long)mag);
    else if (mag < 16 || (flags & REGC_NUM_DEC))
        snprintf(buf, len, "%s%llu", neg ? "-" : "", (unsigned long long)mag);
    else
        snprintf(buf, len, "%s%llu (%s0x%llx)", neg ? "-" : "", (unsigned long long)mag,
                 neg ? "-" : "", (unsigned long long)mag);
}

static enum regc_num_status refuse(enum regc_num_status st, bool neg, uint64_t mag, unsigned flags,
                                   char *why, size_t whylen)
{
    if (!why || !whylen)
        return st;
    if (st == REGC_NUM_TOO_LARGE || st == REGC_NUM_TOO_SMALL) {
        char lim[64];
        limit_text(lim, sizeof(lim), neg, mag, flags);
        snprintf(why, whylen, "%s: at %s %s", regc_num_status_name(st),
                 st == REGC_NUM_TOO_LARGE ? "most" : "least", lim);
    } else {
        snprintf(why, whylen, "%s", regc_num_status_name(st));
    }
    return st;
}

enum regc_num_status regc_num_parse(const char *text, size_t len, uint64_t min, uint64_t max,
                                    unsigned flags, uint64_t *out, char *why, size_t whylen)
{
    if (len == REGC_NUM_NUL)
        len = strlen(text);
    uint64_t v = 0;
    bool over = false;
    enum regc_num_status st = scan(text, len, flags, &v, &over);
    if (st)
        return refuse(st, false, 0, flags, why, whylen);
    st = over ? refuse(REGC_NUM_TOO_LARGE, false, max, flags, why, whylen)
              : regc_num_check(v, min, max, flags, why, whylen);
    if (st == REGC_NUM_OK)
        *out = v;
    return st;
}

enum regc_num_status regc_num_check(uint64_t v, uint64_t min, uint64_t max, unsigned flags,
                                    char *why, size_t whylen)
{
    if (v > max)
        return refuse(REGC_NUM_TOO_LARGE, false, max, flags, why, whylen);
    if (v < min)
        return refuse(REGC_NUM_TOO_SMALL, false, min, flags, why, whylen);
    return REGC_NUM_OK;
}

/* |x| as an unsigned (INT64_MIN included). */
static uint64_t magnitude(int64_t x)
{
    return x < 0 ? (uint64_t)(-(x + 1)) + 1 : (uint64_t)x;
}

/* The sign of (the number -mag or mag) - x. */
static int compare(bool neg, uint64_t mag, int64_t x)
{
    if (neg && mag) {
        if (x >= 0 || mag > magnitude(x))
            return -1;
        return mag < magnitude(x);
    }
    if (x < 0 || mag > (uint64_t)x)
        return 1;
    return -(mag < (uint64_t)x);
}

enum regc_num_status regc_num_parse_signed(const char *text, size_t len, int64_t min, int64_t max,
                                           int64_t *out, char *why, size_t whylen)
{
    if (len == REGC_NUM_NUL)
        len = strlen(text);
    bool neg = len > 0 && text[0] == '-';
    uint64_t mag = 0;
    bool over = false;
    enum regc_num_status st = scan(text + neg, len - neg, 0, &mag, &over);
    if (neg && (st == REGC_NUM_NEGATIVE || st == REGC_NUM_SIGN || st == REGC_NUM_SPACE))
        st = REGC_NUM_NOT_NUMBER; /* "--1", "-+1", "- 1" */
    if (st)
        return refuse(st, false, 0, 0, why, whylen);
    if (compare(neg, mag, max) > 0)
        return refuse(REGC_NUM_TOO_LARGE, max < 0, magnitude(max), 0, why, whylen);
    if (compare(neg, mag, min) < 0)
        return refuse(REGC_NUM_TOO_SMALL, min < 0, magnitude(min), 0, why, whylen);
    *out = neg && mag ? (int64_t)(0 - mag) : (int64_t)mag;
    return REGC_NUM_OK;
}
