#include "arena.h"
#include "fatal.h"

#include <stdalign.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct arena_chunk {
    struct arena_chunk *next;
    alignas(max_align_t) unsigned char data[];
};

enum { ARENA_CHUNK_MIN = 64 * 1024 };

void arena_init(struct arena *a)
{
    a->head = NULL;
    a->next = a->end = NULL;
}

void arena_release(struct arena *a)
{
    struct arena_chunk *c = a->head;
    while (c) {
        struct arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    arena_init(a);
}

void arena_clear(struct arena *a)
{
    if (!a->head)
        return;
    /* the head is the chunk next/end point into (large blocks go behind it) */
    struct arena_chunk *c = a->head->next;
    while (c) {
        struct arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    a->head->next = NULL;
    a->next = a->head->data;
}

/* A new chunk for 'n' bytes (aligned by arena_alloc()), which did not fit the head chunk. */
void *arena_alloc_slow(struct arena *a, size_t n)
{
    size_t size = n > ARENA_CHUNK_MIN ? n : ARENA_CHUNK_MIN;
    struct arena_chunk *c = xmalloc(sizeof(*c) + size);
    /* A large block goes behind the current chunk so its free space stays usable. */
    if (a->head && n > ARENA_CHUNK_MIN) {
        c->next = a->head->next;
        a->head->next = c;
        return c->data;
    }
    c->next = a->head;
    a->head = c;
    a->next = c->data + n;
    a->end = c->data + size;
    return c->data;
}

void *arena_zalloc(struct arena *a, size_t n)
{
    return memset(arena_alloc(a, n), 0, n ? n : 1);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
    char *p = arena_alloc_bytes(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *arena_cat(struct arena *a, const char *const *parts, size_t n)
{
    size_t len[16], total = 0; /* each part measured once (callers join a few) */
    for (size_t i = 0; i < n; i++) {
        size_t l = strlen(parts[i]);
        if (i < 16)
            len[i] = l;
        total += l;
    }
    char *r = arena_alloc_bytes(a, total + 1), *p = r;
    for (size_t i = 0; i < n; i++) {
        size_t l = i < 16 ? len[i] : strlen(parts[i]);
        memcpy(p, parts[i], l);
        p += l;
    }
    *p = '\0';
    return r;
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
    /* One pass when the text fits the current chunk (the common case). */
    size_t room = (uintptr_t)a->end - (uintptr_t)a->next;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(room ? (char *)a->next : NULL, room, fmt, ap);
    va_end(ap);
    if (n < 0)
        BUG("bad format");
    if ((size_t)n < room) {
        char *p = (char *)a->next;
        a->next += (size_t)n + 1;
        return p;
    }
    char *p = arena_alloc_bytes(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

/* The first capacity: most lists of a register-heavy spec hold one or two items. */
enum { ARENA_PUSH_FIRST = 2 };

size_t arena_push_cap(size_t n)
{
    size_t cap = ARENA_PUSH_FIRST;
    if (n == 0)
        return 0;
    while (cap < n)
        cap *= 2;
    return cap;
}

void arena_push(struct arena *a, void ***items, size_t *count, size_t *cap, void *item)
{
    if (*count == *cap) {
        size_t ncap = *cap ? *cap * 2 : ARENA_PUSH_FIRST;
        void **n = arena_alloc(a, ncap * sizeof(*n));
        if (*count)
            memcpy(n, *items, *count * sizeof(*n));
        *items = n;
        *cap = ncap;
    }
    (*items)[(*count)++] = item;
}
