/*
 * util - the few process-wide helpers every compiler module needs: reading
 * inputs, line starts, "did you mean"; with fatal.h (common/: xmalloc and
 * friends, BUG), which it includes. The runtime library (runtime/) never
 * uses these.
 */
#ifndef REGC_UTIL_H
#define REGC_UTIL_H

#include "arena.h"
#include "fatal.h"
#include "regc/suggest.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* XML's white space (space, tab, CR, LF): what separates words in a spec's text and values. */
static inline bool util_is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A letter, digit or '_': a character of a C identifier (and of the words spec languages use). */
static inline bool util_is_ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Are 'x' and 'y' the same text, or both NULL (an attribute not given)? */
static inline bool util_same_text(const char *x, const char *y)
{
    return x == y || (x && y && strcmp(x, y) == 0);
}

/* The directory part of 'path': "." when it has no '/', "/" for "/x". Caller frees. */
char *util_dir_of(const char *path);

/*
 * An input file read whole: a spec, an include, a template, a partial, JSON
 * data. On success 'text' holds 'len' bytes and a NUL (the caller releases
 * it with free()); on failure 'text' is NULL, 'err' the errno (EFBIG: larger
 * than the limit; 0: refused for its kind) and 'why' says why in words, as
 * strerror() would ("Is a FIFO, not a regular file"; static storage).
 */
struct util_file {
    char *text;
    size_t len;
    int err;
    const char *why;
};

/*
 * Reads 'path', at most 'max' bytes (0: no limit). Anything but a regular
 * file is refused before a byte is read: a FIFO would wait for a writer
 * forever (it is opened O_NONBLOCK, so even the open cannot wait), a device
 * such as /dev/zero never ends. Returns 0, or -1 with 'f->err' and 'f->why'.
 */
int util_read_input(const char *path, size_t max, struct util_file *f);
/*
 * Why a file of this mode is refused as an input, and as an output other
 * than /dev/null ("Is a FIFO, not a regular file"); NULL for a regular file.
 */
const char *util_kind_refused(mode_t mode);
/*
 * Opens 'path' to read it as a stream, refusing what util_read_input()
 * refuses for its kind. Returns the descriptor (the caller closes it) and
 * the file's size in '*size', or -1 with 'f->err' and 'f->why'.
 */
int util_open_input(const char *path, struct util_file *f, size_t *size);
/*
 * The same for a descriptor just opened (O_RDONLY | O_NONBLOCK) by the
 * caller: 'fd' itself, or -1 (closed) with 'f->err' and 'f->why'; an 'fd'
 * of -1 is the open's failure, with its errno.
 */
int util_input_fd(int fd, struct util_file *f, size_t *size);
/* The same for a stream not yet read from ("-": standard input, whatever it is), to its end. */
int util_read_stream(FILE *fp, size_t max, struct util_file *f);

/*
 * 'len' bytes of 's' on one line, copied into 'a': each run of white space (util_is_space)
 * one space, none at either end; its length in '*out_len' when not NULL. The one folder of
 * descriptions: the SVD reader's texts, the templates' comments and the CMSIS header's.
 */
char *util_fold_space(struct arena *a, const char *s, size_t len, size_t *out_len);

/* 'n' strings joined with 'sep' between them, in 'a'; NULL when 'n' is 0. */
const char *util_join(struct arena *a, const char *const *s, size_t n, char sep);

/*
 * The byte offset of each line's start in text[0, len) ([0] is 0), in an
 * array the caller releases with free(); its length in '*nlines'.
 */
size_t *util_line_starts(const char *text, size_t len, size_t *nlines);

/*
 * "Did you mean" for a name that names nothing, by the one rule of
 * regc/suggest.h (the runtime's header-only implementation: edit distance
 * without case, at most (len + 2) / 3, a tie offers nothing): offer each
 * candidate with util_suggest_add(); util_suggest_best() gives the closest
 * candidate itself (borrowed, not regc_suggest's copy), or NULL.
 */
struct util_suggest {
    struct regc_suggest r;
    const char *best;
};
void util_suggest_init(struct util_suggest *s, const char *name);
void util_suggest_add(struct util_suggest *s, const char *candidate);
/* Offers the name of each of 'n' objects: the 'const char *' at 'name_offset' in each. */
void util_suggest_each(struct util_suggest *s, const void *const *objects, size_t n,
                       size_t name_offset);
const char *util_suggest_best(const struct util_suggest *s);

/*
 * "; did you mean 'OPTION'?" (or "") in 'hint' for an unknown command-line
 * option 'opt', compared up to its '=', among the 'n' option 'names' (which
 * keep their '=': "--escape="). Returns 'hint'.
 */
const char *util_option_hint(char *hint, size_t size, const char *opt, const char *const *names,
                             size_t n);

#endif
