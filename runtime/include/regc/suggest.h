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

/* Letters counted in this many classes (a letter's code, lower case, modulo it). */
#define REGC_SUGGEST_CLASSES 64

struct regc_suggest {
    const char *name;            /* borrowed: the name that was not found */
    size_t len;                  /* its length (weighed once, not per candidate) */
    unsigned char letters[REGC_SUGGEST_CLASSES]; /* its letters, counted by class */
    char best[REGC_SUGGEST_MAX]; /* the closest candidate so far ("" when none is close) */
    unsigned dist;               /* its distance; starts at the largest one offered, plus 1 */
    bool tie;                    /* another, different candidate is as close */
};

static inline int regc_suggest_lower_(char c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : (unsigned char)c;
}

/*
 * The distance between a and b (each at most REGC_SUGGEST_MAX characters),
 * without case, when it is at most 'limit'; else some number over 'limit'
 * (the rows are given up once two in a row exceed it: no later row can
 * come back under it). Candidates far from the name cost a few rows, not
 * the whole table.
 */
static inline unsigned regc_suggest_distance_within(const char *a, const char *b, unsigned limit)
{
    size_t n = strlen(a), m = strlen(b);
    unsigned rows[3][REGC_SUGGEST_MAX + 1];
    unsigned *older = rows[0], *prev = rows[1], *cur = rows[2];
    bool prev_over = false; /* every value of 'prev' is over the limit */
    for (size_t j = 0; j <= m; j++)
        prev[j] = (unsigned)j;
    for (size_t i = 1; i <= n; i++) {
        int ai = regc_suggest_lower_(a[i - 1]);
        unsigned least = cur[0] = (unsigned)i;
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
            if (v < least)
                least = v;
        }
        /* a value is at least the least of the row before, or one more than the one before
           that: two rows over the limit, and every later row is too */
        if (least > limit && prev_over)
            return limit + 1;
        prev_over = least > limit;
        unsigned *t = older;
        older = prev;
        prev = cur;
        cur = t;
    }
    return prev[m];
}

/* The distance between a and b (each at most REGC_SUGGEST_MAX characters), without case. */
static inline unsigned regc_suggest_distance(const char *a, const char *b)
{
    return regc_suggest_distance_within(a, b, (unsigned)-1 - 1);
}

/* Starts a search for the candidate closest to 'name' (borrowed; must outlive 's'). */
static inline void regc_suggest_init(struct regc_suggest *s, const char *name)
{
    s->name = name;
    s->len = strlen(name);
    s->best[0] = '\0';
    memset(s->letters, 0, sizeof(s->letters));
    for (const char *p = name; *p && p - name <= REGC_SUGGEST_MAX; p++)
        s->letters[regc_suggest_lower_(*p) % REGC_SUGGEST_CLASSES]++;
    s->dist = (unsigned)(s->len + 2) / 3 + 1;
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

/*
 * A lower bound of the distance between s->name and cand from their
 * letters alone: the letters (by class) one has more of than the other, the
 * larger side. An edit takes away at most one from each side, a swap none,
 * so no fewer edits can make the two alike. Costs a pass over cand, where
 * the distance costs its length times the name's.
 */
static inline unsigned regc_suggest_letters_apart_(const struct regc_suggest *s, const char *cand)
{
    int diff[REGC_SUGGEST_CLASSES];
    unsigned more = 0, fewer = 0;
    for (size_t c = 0; c < REGC_SUGGEST_CLASSES; c++)
        diff[c] = s->letters[c];
    for (const char *p = cand; *p; p++)
        diff[regc_suggest_lower_(*p) % REGC_SUGGEST_CLASSES]--;
    for (size_t c = 0; c < REGC_SUGGEST_CLASSES; c++) {
        if (diff[c] > 0)
            more += (unsigned)diff[c];
        else
            fewer += (unsigned)-diff[c];
    }
    return more > fewer ? more : fewer;
}

/* A candidate of m characters may be closer than the best so far (its length alone does
 * not rule it out): callers that must build a candidate check this first. */
static inline bool regc_suggest_length_may(const struct regc_suggest *s, size_t m)
{
    return s->len <= REGC_SUGGEST_MAX && m < REGC_SUGGEST_MAX &&
           (s->len > m ? s->len - m : m - s->len) <= s->dist;
}

/* Weighs one candidate (copied when it is the closest so far). */
static inline void regc_suggest_add(struct regc_suggest *s, const char *cand)
{
    if (s->len > REGC_SUGGEST_MAX)
        return; /* before measuring the candidate: no name this long gets a suggestion */
    size_t m = strlen(cand);
    if (!regc_suggest_length_may(s, m) || strcmp(cand, s->best) == 0)
        return; /* too far already by its length */
    if (s->len == m && regc_suggest_digits_only_(s->name, cand))
        return;
    if (regc_suggest_letters_apart_(s, cand) > s->dist)
        return; /* too far already by its letters */
    unsigned d = regc_suggest_distance_within(s->name, cand, s->dist); /* over it: no use */
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
