#include "fatal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void out_of_memory(void)
{
    fputs("regc: out of memory\n", stderr);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory();
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

void *xgrow(void *v, size_t *cap, size_t need, size_t size)
{
    void *p = regc_grow(v, cap, need, size);
    if (!p)
        out_of_memory();
    return p;
}

struct regc_map_entry *xmap_put(struct regc_map *m, const void *key, size_t len, bool *found)
{
    struct regc_map_entry *e = regc_map_put(m, key, len, found);
    if (!e)
        out_of_memory();
    return e;
}

struct regc_map_entry *xmap_put_str(struct regc_map *m, const char *key, bool *found)
{
    return xmap_put(m, key, strlen(key), found);
}

void fatal_bug(const char *file, int line, const char *msg)
{
    fprintf(stderr, "regc: BUG at %s:%d: %s\n", file, line, msg);
    abort();
}
