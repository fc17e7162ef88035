/*
 * fatal - the ends that do not return, for the programs (regc, regctl), never
 * for libregrt, which returns -ENOMEM instead.
 *
 * Running out of memory is fatal: xmalloc and friends print "regc: out of
 * memory" and abort, so callers never test for NULL. BUG(...) reports a
 * broken internal invariant, never a message for the user. The arena, the
 * string builder and the rule-expression parser (common/) allocate through
 * these, so the Makefile links them into regc and regctl and keeps them out
 * of libregrt.
 */
#ifndef REGC_FATAL_H
#define REGC_FATAL_H

#include "grow.h"
#include "map.h"

#include <stdbool.h>
#include <stddef.h>

/* BUG - an internal invariant failed; never a message for the user. */
#define BUG(msg) fatal_bug(__FILE__, __LINE__, (msg))

_Noreturn void fatal_bug(const char *file, int line, const char *msg);

/* Return memory the caller releases with free(); never NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* regc_grow() (common/grow.h) and regc_map_put() (common/map.h) that never return NULL. */
void *xgrow(void *v, size_t *cap, size_t need, size_t size);
struct regc_map_entry *xmap_put(struct regc_map *m, const void *key, size_t len, bool *found);
struct regc_map_entry *xmap_put_str(struct regc_map *m, const char *key, bool *found);

#endif
