#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

void util_bug(const char *file, int line, const char *msg)
{
    fprintf(stderr, "regc: BUG at %s:%d: %s\n", file, line, msg);
    abort();
}

char *util_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = xmalloc(n + 1);
    memcpy(d, path, n);
    d[n] = '\0';
    return d;
}

/* ---------------------------------------------------------------- input files */

static int input_failed(struct util_file *f, int err, const char *why)
{
    f->text = NULL;
    f->len = 0;
    f->err = err;
    f->why = why ? why : strerror(err);
    return -1;
}

/* Why a file of this mode is refused as an input; NULL for a regular file. */
static const char *kind_refused(mode_t mode)
{
    if (S_ISREG(mode))
        return NULL;
    if (S_ISDIR(mode))
        return strerror(EISDIR);
    if (S_ISFIFO(mode))
        return "Is a FIFO, not a regular file";
    if (S_ISCHR(mode))
        return "Is a character device, not a regular file";
    if (S_ISBLK(mode))
        return "Is a block device, not a regular file";
    if (S_ISSOCK(mode))
        return "Is a socket, not a regular file";
    return "Not a regular file";
}

/* Reads 'fd' to its end, at most 'max' bytes (0: no limit); 'hint': the expected size. */
static int read_fd(int fd, size_t max, size_t hint, struct util_file *f)
{
    size_t limit = max ? max : SIZE_MAX - 1;
    size_t cap = hint < limit ? hint + 1 : limit, n = 0; /* one byte more: to see the end */
    if (cap < 4096)
        cap = 4096;
    char *text = xmalloc(cap + 1);
    for (;;) {
        if (n == cap) {
            if (n > limit)
                break;
            cap = cap > limit / 2 ? limit + 1 : cap * 2;
            text = xrealloc(text, cap + 1);
        }
        ssize_t got = read(fd, text + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int err = errno;
            free(text);
            return input_failed(f, err, NULL);
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    if (n > limit) {
        free(text);
        return input_failed(f, EFBIG, NULL);
    }
    text[n] = '\0';
    *f = (struct util_file){text, n, 0, NULL};
    return 0;
}

int util_open_input(const char *path, struct util_file *f, size_t *size)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return input_failed(f, errno, NULL);
    struct stat st;
    const char *refused = NULL;
    int err = fstat(fd, &st) != 0 ? errno : 0;
    if (!err && (refused = kind_refused(st.st_mode)) != NULL)
        err = S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (err || refused) {
        close(fd);
        return input_failed(f, err, refused);
    }
    *f = (struct util_file){NULL, 0, 0, NULL};
    *size = (size_t)st.st_size;
    return fd;
}

int util_read_input(const char *path, size_t max, struct util_file *f)
{
    size_t size;
    int fd = util_open_input(path, f, &size);
    if (fd < 0)
        return -1;
    int rc = max && size > max ? input_failed(f, EFBIG, NULL) : read_fd(fd, max, size, f);
    close(fd);
    return rc;
}

int util_read_stream(FILE *fp, size_t max, struct util_file *f)
{
    return read_fd(fileno(fp), max, 0, f);
}

size_t *util_line_starts(const char *text, size_t len, size_t *nlines)
{
    size_t cap = 64, n = 1;
    size_t *lines = xmalloc(cap * sizeof(*lines));
    lines[0] = 0;
    for (const char *p = text, *end = text + len;
         (p = memchr(p, '\n', (size_t)(end - p))) != NULL;) {
        if (n == cap) {
            cap *= 2;
            lines = xrealloc(lines, cap * sizeof(*lines));
        }
        lines[n++] = (size_t)(++p - text);
    }
    *nlines = n;
    return lines;
}

/* ---------------------------------------------------------------- did you mean */

static unsigned char fold(char c)
{
    return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : (unsigned char)c;
}

static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;
    return m < c ? m : c;
}

size_t util_edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    /* three rows of the table: i-2, i-1, i */
    size_t *row = xmalloc(3 * (m + 1) * sizeof(*row));
    size_t *pp = row, *prev = row + m + 1, *cur = row + 2 * (m + 1);
    for (size_t j = 0; j <= m; j++)
        prev[j] = j;
    for (size_t i = 1; i <= n; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t cost = fold(a[i - 1]) != fold(b[j - 1]);
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) &&
                fold(a[i - 2]) == fold(b[j - 1]) && pp[j - 2] + 1 < cur[j])
                cur[j] = pp[j - 2] + 1;
        }
        size_t *t = pp;
        pp = prev;
        prev = cur;
        cur = t;
    }
    size_t d = prev[m];
    free(row);
    return d == 0 && strcmp(a, b) != 0 ? 1 : d;
}

void util_suggest_init(struct util_suggest *s, const char *name)
{
    *s = (struct util_suggest){name, NULL, SIZE_MAX};
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* "b9" and "b0", "CTL3" and "CTL0": a number is written on purpose, not mistyped. */
static bool differ_in_digits_only(const char *a, const char *b)
{
    if (strlen(a) != strlen(b))
        return false;
    for (; *a; a++, b++)
        if (fold(*a) != fold(*b) && !(is_digit(*a) && is_digit(*b)))
            return false;
    return true;
}

void util_suggest_add(struct util_suggest *s, const char *candidate)
{
    if (!candidate || strcmp(candidate, s->name) == 0 || differ_in_digits_only(s->name, candidate))
        return;
    size_t d = util_edit_distance(s->name, candidate);
    if (d > (strlen(s->name) + 2) / 3 || d >= strlen(candidate) || d >= s->dist)
        return;
    s->best = candidate;
    s->dist = d;
}

void util_suggest_each(struct util_suggest *s, const void *const *objects, size_t n,
                       size_t name_offset)
{
    for (size_t i = 0; i < n; i++) {
        const char *name;
        memcpy(&name, (const char *)objects[i] + name_offset, sizeof(name));
        util_suggest_add(s, name);
    }
}

const char *util_suggest_best(const struct util_suggest *s)
{
    return s->best;
}
