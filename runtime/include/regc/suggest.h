/*
 * regc/suggest.h - "did you mean 'X'?": the known name closest to one that
 * was not found, by edit distance. Header-only (static inline, freestanding
 * C99, usable from C++) like regc/attr.h, so that regc's diagnostics and libregrt and
 * regctl share one rule and one wording.
 *
 * The distance is the optimal string alignment distance: inserting,
 * deleting or changing a character, or swapping two adjacent ones, costs
 * one; letters are compared without case ('u_msr_pmon_ctl0' finds
 * 'U_MSR_PMON_CTL0' at distance 0, 'umaks' finds 'umask' at 1). A candidate
 * is offered only when it is close, at most (len + 2) / 3 edits for a name
 * of len characters (the rule clang uses for typo correction), and only
 * when no other candidate is as close: a tie offers nothing ('qbox' among
 * mbox and ubox is as far from each). A candidate that differs in digits
 * only is never offered: a number is written on purpose, not mistyped
 * ('cbox9' finds nothing among cbox0..cbox7, 'i9' nothing in 'i0').
 * regc's compiler uses this header too (compiler/util.h): one rule, one
 * implementation.
 *
 *   struct regc_suggest s;
 *   char hint[160];
 *   regc_suggest_init(&s, "umaks");
 *   for (const struct regc_field *f = reg->fields; f->name; f++)
 *       regc_suggest_add(&s, f->name);
 *   regc_suggest_text(&s, hint, sizeof(hint));   // "; did you mean 'umask'?" or ""
 */
#ifndef REGC_SUGGEST_H
#define REGC_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Names and candidates longer than this get no suggestion. */
#define REGC_SUGGEST_MAX 128

struct regc_suggest {
    const char *name;            /* borrowed: the name that was not found */
    char best[REGC_SUGGEST_MAX]; /* the closest candidate so far ("" when none is close) */
    unsigned dist;               /* its distance; starts at the largest one offered, plus 1 */
    bool tie;                    /* another, different candidate is as close */
};

static inline int regc_suggest_lower_(char c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : (unsigned char)c;
}

/* The distance between a and b (each at most REGC_SUGGEST_MAX characters), without case. */
static inline unsigned regc_suggest_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    unsigned rows[3][REGC_SUGGEST_MAX + 1];
    unsigned *older = rows[0], *prev = rows[1], *cur = rows[2];
    for (size_t j = 0; j <= m; j++)
        prev[j] = (unsigned)j;
    for (size_t i = 1; i <= n; i++) {
        int ai = regc_suggest_lower_(a[i - 1]);
        cur[0] = (unsigned)i;
        for (size_t j = 1; j <= m; j++) {
            int bj = regc_suggest_lower_(b[j - 1]);
            unsigned v = prev[j - 1] + (ai != bj);
            if (prev[j] + 1 < v)
                v = prev[j] + 1;
            if (cur[j - 1] + 1 < v)
                v = cur[j - 1] + 1;
            if (i > 1 && j > 1 && ai == regc_suggest_lower_(b[j - 2]) &&
                regc_suggest_lower_(a[i - 2]) == bj && older[j - 2] + 1 < v)
                v = older[j - 2] + 1;
            cur[j] = v;
        }
        unsigned *t = older;
        older = prev;
        prev = cur;
        cur = t;
    }
    return prev[m];
}

/* Starts a search for the candidate closest to 'name' (borrowed; must outlive 's'). */
static inline void regc_suggest_init(struct regc_suggest *s, const char *name)
{
    s->name = name;
    s->best[0] = '\0';
    s->dist = (unsigned)(strlen(name) + 2) / 3 + 1;
    s->tie = false;
}

static inline bool regc_suggest_digit_(char c)
{
    return c >= '0' && c <= '9';
}

/* a and b (of one length) differ in a digit, and elsewhere in case at most. */
static inline bool regc_suggest_digits_only_(const char *a, const char *b)
{
    bool digit = false;
    for (; *a; a++, b++) {
        if (regc_suggest_lower_(*a) == regc_suggest_lower_(*b))
            continue;
        if (!regc_suggest_digit_(*a) || !regc_suggest_digit_(*b))
            return false;
        digit = true;
    }
    return digit;
}

/* Weighs one candidate (copied when it is the closest so far). */
static inline void regc_suggest_add(struct regc_suggest *s, const char *cand)
{
    size_t n = strlen(s->name), m = strlen(cand);
    if (n > REGC_SUGGEST_MAX || m >= REGC_SUGGEST_MAX || strcmp(cand, s->best) == 0)
        return;
    if (n == m && regc_suggest_digits_only_(s->name, cand))
        return;
    if ((n > m ? n - m : m - n) > s->dist)
        return;
    unsigned d = regc_suggest_distance(s->name, cand);
    if (d == s->dist && s->best[0]) {
        s->tie = true;
    } else if (d < s->dist) {
        memcpy(s->best, cand, m + 1);
        s->dist = d;
        s->tie = false;
    }
}

/* The candidate to offer, or NULL (none close enough, or a tie). Borrowed from 's'. */
static inline const char *regc_suggest_best(const struct regc_suggest *s)
{
    return s->best[0] && !s->tie ? s->best : NULL;
}

/*
 * "; did you mean 'X'?" into buf (cut to fit; 160 bytes always hold it), or
 * "" when there is nothing to offer. Returns buf.
 */
static inline char *regc_suggest_text(const struct regc_suggest *s, char *buf, size_t len)
{
    const char *parts[3] = {"; did you mean '", regc_suggest_best(s), "'?"};
    size_t n = 0;
    if (!len)
        return buf;
    for (int i = 0; parts[1] && i < 3; i++)
        for (const char *p = parts[i]; *p && n + 1 < len; p++)
            buf[n++] = *p;
    buf[n] = '\0';
    return buf;
}

#ifdef __cplusplus
}
#endif

#endif
