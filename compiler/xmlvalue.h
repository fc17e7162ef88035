/*
 * xmlvalue - the values of a spec's attributes, parsed: bit ranges, counter
 * lists, register array names, numbers, address lists, description text.
 *
 * Pure: a string in, a value or a struct value_error out (the offset in
 * the string where it goes wrong, the diagnostic code and the message). No
 * loader state is read; the loader turns an error into a diagnostic at the
 * value's line and column (xmlload.c). Strings made here are owned by the
 * arena given.
 */
#ifndef REGC_XMLVALUE_H
#define REGC_XMLVALUE_H

#include "arena.h"
#include "buf.h"
#include "diag.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What is wrong with a value, and where in it. */
struct value_error {
    enum diag_code code;
    size_t at;       /* 0-based offset in the value */
    const char *msg; /* the message, as reported; owned by the arena */
};

/* bits="HI:LO" or bits="N", each 0..63, high first. */
bool value_bits(struct arena *a, const char *v, unsigned *msb, unsigned *lsb,
                struct value_error *err);

/* counters="0-3" | "0,1" | "0-1,3": bit i of *mask is index i (0..63). */
bool value_counters(struct arena *a, const char *v, uint64_t *mask, struct value_error *err);

/* A register's name="BASE" or "BASE{HI-LO}" / "BASE{LO-HI}". */
struct value_array_name {
    const char *name; /* BASE (set even when the rest is malformed) */
    bool is_array, descending;
    unsigned first, count; /* a plain name: 0 and 1 */
};
bool value_array_name(struct arena *a, const char *v, struct value_array_name *out,
                      struct value_error *err);

/* A number in attribute 'attr' (expr_scan_number()'s grammar). */
bool value_number(struct arena *a, const char *attr, const char *v, uint64_t *out,
                  struct value_error *err);

/*
 * addresses="0xA0 0xB0, 0xC0": numbers separated by blanks or commas,
 * appended to *addrs (arena-grown, *n of them). On error, the ones before
 * the bad one stay.
 */
bool value_addresses(struct arena *a, const char *v, uint64_t **addrs, size_t *n,
                     struct value_error *err);

/* Whitespace runs fold to one space; a blank line between text becomes one "\n". */
const char *value_fold_text(struct arena *a, const char *s);

/* The white-space separated words of 'text' (NULL: none), appended to *out (*n of them). */
void value_words(struct arena *a, const char *text, const char ***out, size_t *n);

/*
 * An attribute value s[0, len) as libxml2's SAX2 parser hands it over
 * (without entity substitution), added to 'b' as the value it stands for,
 * NUL-terminated; returns where it starts in b (valid until b grows). The
 * parser decodes every reference but passes a '&' on as "&#38;", for a tree
 * builder to decode: both readers (xmlload.c, svd_parse.c) decode it here.
 */
const char *value_from_sax(struct buf *b, const char *s, size_t len);

/* space="msr" | "pci" | "mmio" (absent: msr). */
enum model_space value_space(const char *s);

#endif
