/*
 * arena - one bump allocator per compiler run.
 *
 * The model, its strings and the diagnostics are allocated from one arena
 * and freed together by arena_release(). Allocation never fails (see util.h).
 */
#ifndef REGC_ARENA_H
#define REGC_ARENA_H

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>

struct arena_chunk;

/*
 * What arena_alloc() aligns an object to: the strictest of what regc keeps in
 * an arena (pointers, 64-bit integers, doubles), 8 bytes, not max_align_t's
 * 16 (long double on x86-64, which nothing here allocates): the padding cost
 * a million-register spec some 50 bytes a register.
 */
union arena_align {
    void *p;
    uint64_t u;
    double d;
};
#define ARENA_ALIGN alignof(union arena_align)

struct arena {
    struct arena_chunk *head;  /* newest chunk first; owned */
    unsigned char *next, *end; /* the head chunk's free space */
};

#define ARENA_INIT                                                                                 \
    {                                                                                              \
        NULL, NULL, NULL                                                                           \
    }

void arena_init(struct arena *a);
/* Frees every allocation made from 'a'; 'a' may be reused afterwards. */
void arena_release(struct arena *a);
/*
 * Frees every allocation made from 'a' but keeps its newest chunk for the
 * next ones: a loop that drops what it made each round (a register's names,
 * a register's tree) reuses one chunk instead of a malloc and free a round.
 */
void arena_clear(struct arena *a);

/* Return memory owned by 'a', aligned to ARENA_ALIGN; valid until arena_release(a). */
void *arena_alloc_slow(struct arena *a, size_t n);
/*
 * Inline: the loader and the context builder allocate a few million times
 * per large spec. The start is aligned, not the size, so that strings
 * (arena_alloc_bytes()) take their length and no more: a million registers
 * hold some ten strings each.
 */
static inline void *arena_alloc(struct arena *a, size_t n)
{
    uintptr_t al = ARENA_ALIGN, end = (uintptr_t)a->end; /* both NULL at first */
    uintptr_t p = ((uintptr_t)a->next + al - 1) & ~(al - 1);
    n = n ? n : 1;
    if (p > end || end - p < n)
        return arena_alloc_slow(a, n);
    a->next = (unsigned char *)p + n;
    return (void *)p;
}
/* 'n' bytes with no alignment (text), owned by 'a'. */
static inline char *arena_alloc_bytes(struct arena *a, size_t n)
{
    n = n ? n : 1;
    if ((uintptr_t)a->end - (uintptr_t)a->next < n)
        return arena_alloc_slow(a, n);
    char *p = (char *)a->next;
    a->next += n;
    return p;
}
void *arena_zalloc(struct arena *a, size_t n);
/* Copies of 's' (or its first 'n' bytes, NUL added) owned by 'a'. */
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);
/* printf into a string owned by 'a'. */
char *arena_printf(struct arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * The 'n' strings at 'parts' joined, owned by 'a': printf's "%s%s..." without
 * printf's cost, for the names and lines made per register and field.
 * ARENA_CAT(a, s1, s2, ...) lists them in place.
 */
char *arena_cat(struct arena *a, const char *const *parts, size_t n);
#define ARENA_CAT(a, ...)                                                                          \
    arena_cat((a), (const char *const[]){__VA_ARGS__},                                             \
              sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

/* Grow-by-doubling array of pointers owned by the arena: *items, *count, *cap. */
void arena_push(struct arena *a, void ***items, size_t *count, size_t *cap, void *item);
/* The capacity arena_push() has given a list once it grew to 'n' items (0 for none): for
 * lists whose capacity is not kept, so the next push grows them as it would have. */
size_t arena_push_cap(size_t n);

#endif
