#include "buf.h"
#include "fatal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char buf_empty[1];

void buf_init(struct buf *b)
{
    b->s = buf_empty;
    b->len = b->cap = 0;
}

void buf_release(struct buf *b)
{
    if (b->cap)
        free(b->s);
    buf_init(b);
}

void buf_reset(struct buf *b)
{
    b->len = 0;
    if (b->cap)
        b->s[0] = '\0';
}

void buf_grow(struct buf *b, size_t extra)
{
    if (b->len + extra < b->cap)
        return;
    bool fresh = !b->cap; /* b->s is BUF_INIT's static "" */
    b->s = xgrow(fresh ? NULL : b->s, &b->cap, b->len + extra + 1, 1);
    if (fresh)
        b->s[0] = '\0';
}

void buf_addn_slow(struct buf *b, const char *s, size_t n)
{
    buf_grow(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void buf_adds(struct buf *b, const char *s)
{
    buf_addn(b, s, strlen(s));
}

void buf_addspaces(struct buf *b, size_t n)
{
    static const char spaces[] = "                                ";
    for (; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
        buf_addn(b, spaces, sizeof(spaces) - 1);
    buf_addn(b, spaces, n);
}

void buf_addc_slow(struct buf *b, char c)
{
    buf_addn(b, &c, 1);
}

void buf_vaddf(struct buf *b, const char *fmt, va_list ap)
{
    /* One pass when the text fits the spare room (the common case). */
    buf_grow(b, 64);
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, cp);
    va_end(cp);
    if (n < 0)
        BUG("bad format");
    if ((size_t)n >= b->cap - b->len) {
        buf_grow(b, (size_t)n);
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    }
    b->len += (size_t)n;
}

void buf_addf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vaddf(b, fmt, ap);
    va_end(ap);
}

char *buf_detach(struct buf *b, size_t *len)
{
    if (!b->cap)
        buf_grow(b, 0);
    char *s = b->s;
    if (len)
        *len = b->len;
    buf_init(b);
    return s;
}
