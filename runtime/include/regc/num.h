/*
 * regc/num.h - the one parser of the numbers a user gives libregrt and
 * regctl: CPUs, sockets, register indices, field values, sample periods,
 * counts, rates, and the numbers libregrt reads from sysfs and /proc.
 *
 * A number is parsed whole and checked against the range its target holds
 * (a field's width, a counter's, a CPU index); it is never cut, wrapped or
 * cast. A refusal carries a status and a reason that names what is wrong:
 *
 *   uint64_t v;
 *   char why[64];
 *   if (regc_num_parse(text, REGC_NUM_NUL, 0, regc_num_max_bits(4), 0, &v, why, sizeof(why)))
 *       fprintf(stderr, "bad value '%s': %s\n", text, why);   // "too large: at most 15 (0xf)"
 *
 * The grammar: decimal digits, or 0x/0X and hexadecimal digits, and nothing
 * else: no sign (a '-' is "negative"), no space before or after, no leading
 * zero before a decimal digit (strtoul would read "010" as octal 8:
 * refused rather than guessed). REGC_NUM_DEC takes decimal only, REGC_NUM_HEX
 * hexadecimal digits with or without 0x and with leading zeros (sysfs files
 * such as "0x8086", PCI addresses such as "0000:7f").
 */
#ifndef REGC_NUM_H
#define REGC_NUM_H

#include <stddef.h>
#include <stdint.h>

#include "regc/regc.h" /* REGC_API */

#ifdef __cplusplus
extern "C" {
#endif

enum regc_num_status {
    REGC_NUM_OK = 0,
    REGC_NUM_EMPTY,      /* "empty" */
    REGC_NUM_SPACE,      /* "space before the number" */
    REGC_NUM_SIGN,       /* "a '+' sign is not taken" */
    REGC_NUM_NEGATIVE,   /* "negative" (or, signed: below the range, "too small") */
    REGC_NUM_NOT_NUMBER, /* "not a number" */
    REGC_NUM_OCTAL,      /* "leading zero (octal is not taken)" */
    REGC_NUM_JUNK,       /* "junk after the number" */
    REGC_NUM_TOO_LARGE,  /* "too large: at most N" */
    REGC_NUM_TOO_SMALL,  /* "too small: at least N" */
};

#define REGC_NUM_DEC 1u /* decimal digits only */
#define REGC_NUM_HEX 2u /* hexadecimal digits, 0x optional, leading zeros allowed */

/* 'len' for a NUL-terminated text. */
#define REGC_NUM_NUL ((size_t)-1)

/*
 * The number in the first 'len' bytes of 'text' (REGC_NUM_NUL: up to its
 * NUL) into *out when it is in [min, max]. Returns REGC_NUM_OK, or the
 * status of the refusal with *out untouched and the reason in 'why' (may be
 * NULL; "too large: at most 4095 (0xfff)").
 */
REGC_API enum regc_num_status regc_num_parse(const char *text, size_t len, uint64_t min,
                                             uint64_t max, unsigned flags, uint64_t *out, char *why,
                                             size_t whylen);

/*
 * The range check alone, for a number that came as a number (a sample
 * period against a counter found later): REGC_NUM_OK, or TOO_LARGE or
 * TOO_SMALL with the reason in 'why' worded as regc_num_parse() words it.
 */
REGC_API enum regc_num_status regc_num_check(uint64_t v, uint64_t min, uint64_t max, unsigned flags,
                                             char *why, size_t whylen);

/* The same for a signed number: an optional '-', then the grammar above. */
REGC_API enum regc_num_status regc_num_parse_signed(const char *text, size_t len, int64_t min,
                                                    int64_t max, int64_t *out, char *why,
                                                    size_t whylen);

/* The largest value of 'width' bits, 2^width - 1: its low 'width' bits set (0 to 64). */
static inline uint64_t regc_num_max_bits(unsigned width)
{
    return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

/* A status's name, without its limit ("too large"); "" for REGC_NUM_OK. */
REGC_API const char *regc_num_status_name(enum regc_num_status st);

#ifdef __cplusplus
}
#endif

#endif
