/*
 * util - the few process-wide helpers every compiler module needs.
 *
 * Running out of memory in the compiler is fatal: xmalloc and friends print
 * "regc: out of memory" and abort, so callers never test for NULL. The
 * runtime library (runtime/) never uses these.
 */
#ifndef REGC_UTIL_H
#define REGC_UTIL_H

#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* BUG - an internal invariant failed; never a message for the user. */
#define BUG(msg) util_bug(__FILE__, __LINE__, (msg))

/* Return memory the caller releases with free(); never NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* The directory part of 'path': "." when it has no '/', "/" for "/x". Caller frees. */
char *util_dir_of(const char *path);

_Noreturn void util_bug(const char *file, int line, const char *msg);

#endif
