/*
 * buf - a growable, always NUL-terminated string (git's strbuf shape).
 *
 * BUF_INIT gives an empty string whose 's' is never NULL. Renderers write
 * into a buf and one function writes the file, so output can be compared
 * and replaced whole.
 */
#ifndef REGC_BUF_H
#define REGC_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct buf {
    char *s;          /* the text, NUL-terminated; points at a static "" until the first add */
    size_t len, cap;  /* cap == 0 while 's' is the static empty string */
};

extern char buf_empty[];
#define BUF_INIT {buf_empty, 0, 0}

void buf_init(struct buf *b);
/* Frees the text; 'b' is empty and reusable afterwards. */
void buf_release(struct buf *b);
void buf_reset(struct buf *b);
/* Room for 'extra' more bytes and the NUL. */
void buf_grow(struct buf *b, size_t extra);
void buf_addn_slow(struct buf *b, const char *s, size_t n);
/*
 * Inline: the renderer adds a few bytes at a time (template text between
 * tags, one value), millions of times per header; the call into buf.c is
 * made only when the buffer must grow.
 */
/* The first and the last 'w' of 'n' bytes (w <= n <= 2 * w, w 2 to 16), which may overlap. */
static inline void buf_copy_ends(char *d, const char *s, size_t n, size_t w)
{
    char head[16], tail[16];
    memcpy(head, s, w);
    memcpy(tail, s + n - w, w);
    memcpy(d, head, w);
    memcpy(d + n - w, tail, w);
}

/*
 * memcpy, but up to 'inline_max' bytes (16, or 32 where the source is never
 * a small array: gcc's bounds warnings see the cases past its size) as two
 * loads and two stores: no call into libc.
 */
static inline void buf_copy_upto(char *d, const char *s, size_t n, size_t inline_max)
{
    if (n > inline_max)
        memcpy(d, s, n);
    else if (n >= 16)
        buf_copy_ends(d, s, n, 16);
    else if (n >= 8)
        buf_copy_ends(d, s, n, 8);
    else if (n >= 4)
        buf_copy_ends(d, s, n, 4);
    else if (n >= 2)
        buf_copy_ends(d, s, n, 2);
    else if (n)
        *d = *s;
}

static inline void buf_copy(char *d, const char *s, size_t n)
{
    buf_copy_upto(d, s, n, 16);
}

/*
 * Appends without the NUL after: for a writer that appends a great many
 * short pieces (the renderer, some 15 bytes a piece) and ends the text with
 * buf_terminate() before it is read as a string. Room for the NUL is kept.
 */
static inline void buf_put(struct buf *b, const char *s, size_t n)
{
    if (b->len + n < b->cap) {
        buf_copy(b->s + b->len, s, n);
        b->len += n;
    } else {
        buf_addn_slow(b, s, n);
    }
}

/* Writes the NUL after the text (buf_put() leaves it out). */
static inline void buf_terminate(struct buf *b)
{
    if (b->cap)
        b->s[b->len] = '\0';
}

static inline void buf_addn(struct buf *b, const char *s, size_t n)
{
    buf_put(b, s, n);
    buf_terminate(b);
}
void buf_adds(struct buf *b, const char *s);
/* 'n' spaces (an indent). */
void buf_addspaces(struct buf *b, size_t n);
void buf_addc_slow(struct buf *b, char c);
/* Inline: renderers add text a character at a time. */
static inline void buf_addc(struct buf *b, char c)
{
    if (b->len + 1 < b->cap) {
        b->s[b->len++] = c;
        b->s[b->len] = '\0';
    } else {
        buf_addc_slow(b, c);
    }
}
void buf_addf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vaddf(struct buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Hands the text to the caller, who releases it with free(); 'b' becomes empty. */
char *buf_detach(struct buf *b, size_t *len);

#endif
