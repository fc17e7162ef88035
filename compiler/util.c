#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

char *util_fold_space(struct arena *a, const char *s, size_t len, size_t *out_len)
{
    char *out = arena_alloc_bytes(a, len + 1), *q = out;
    bool blank = false;
    for (const char *end = s + len; s < end; s++) {
        /* a word's byte is mostly above ' ': one test */
        if ((unsigned char)*s <= ' ' && util_is_space(*s)) {
            blank = q != out;
            continue;
        }
        if (blank)
            *q++ = ' ';
        blank = false;
        *q++ = *s;
    }
    *q = '\0';
    if (out_len)
        *out_len = (size_t)(q - out);
    return out;
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

const char *util_kind_refused(mode_t mode)
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

int util_input_fd(int fd, struct util_file *f, size_t *size)
{
    if (fd < 0)
        return input_failed(f, errno, NULL);
    struct stat st;
    const char *refused = NULL;
    int err = fstat(fd, &st) != 0 ? errno : 0;
    if (!err && (refused = util_kind_refused(st.st_mode)) != NULL)
        err = S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (err || refused) {
        close(fd);
        return input_failed(f, err, refused);
    }
    *f = (struct util_file){NULL, 0, 0, NULL};
    *size = (size_t)st.st_size;
    return fd;
}

int util_open_input(const char *path, struct util_file *f, size_t *size)
{
    return util_input_fd(open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), f, size);
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
    size_t cap = 0, n = 1;
    size_t *lines = xgrow(NULL, &cap, 64, sizeof(*lines));
    lines[0] = 0;
    for (const char *p = text, *end = text + len;
         (p = memchr(p, '\n', (size_t)(end - p))) != NULL;) {
        lines = xgrow(lines, &cap, n + 1, sizeof(*lines));
        lines[n++] = (size_t)(++p - text);
    }
    *nlines = n;
    return lines;
}

/* ---------------------------------------------------------------- did you mean */

void util_suggest_init(struct util_suggest *s, const char *name)
{
    regc_suggest_init(&s->r, name);
    s->best = NULL;
}

void util_suggest_add(struct util_suggest *s, const char *candidate)
{
    if (!candidate)
        return;
    unsigned d = s->r.dist;
    regc_suggest_add(&s->r, candidate);
    if (s->r.dist < d)
        s->best = candidate;
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
    return regc_suggest_best(&s->r) ? s->best : NULL;
}

const char *util_option_hint(char *hint, size_t size, const char *opt, const char *const *names,
                             size_t n)
{
    char name[REGC_SUGGEST_MAX];
    snprintf(name, sizeof(name), "%.*s", (int)strcspn(opt, "="), opt);
    struct regc_suggest sg;
    regc_suggest_init(&sg, name);
    for (size_t i = 0; i < n; i++)
        regc_suggest_add(&sg, names[i]);
    return regc_suggest_text(&sg, hint, size);
}

/* The bits of one radix digit for 'n' values: 4 to 8 values a bucket, 'max' bits at most. */
static unsigned digit_bits(size_t n, unsigned max)
{
    unsigned bits = 1;
    while (bits < max && (size_t)8 << bits <= n)
        bits++;
    return bits;
}

/*
 * The 'n' values of 'h' put in order of their digit (x >> shift) & (2^bits - 1), in
 * place (an American flag sort: each value carried round its cycle, to its bucket's next
 * free place, taking the value there on, until one belongs where the cycle began);
 * start[d] is where bucket d begins, start[2^bits] == n. 'next': room for 2^bits.
 */
static void distribute(uint64_t *h, size_t n, unsigned shift, unsigned bits, size_t *start,
                       size_t *next)
{
    size_t nb = (size_t)1 << bits, mask = nb - 1;
    memset(start, 0, (nb + 1) * sizeof(*start));
    for (size_t i = 0; i < n; i++)
        start[((h[i] >> shift) & mask) + 1]++;
    for (size_t d = 0; d < nb; d++) {
        start[d + 1] += start[d];
        next[d] = start[d];
    }
    for (size_t d = 0; d < nb; d++)
        for (size_t i = next[d]; i < start[d + 1]; i = ++next[d]) {
            uint64_t x = h[i];
            for (size_t to; (to = (x >> shift) & mask) != d;) {
                uint64_t y = h[next[to]]; /* x to its bucket, taking what was there */
                h[next[to]++] = x;
                x = y;
            }
            h[i] = x;
        }
}

/*
 * The 'n' values of 'h', their bits from 'top' up all the same, in buckets
 * of under 32 values, the buckets in order: the insertion sort that ends
 * util_sort_u64() moves values only inside a bucket.
 */
static void sort_below(uint64_t *h, size_t n, unsigned top)
{
    unsigned bits = digit_bits(n, 8);
    if (bits > top)
        bits = top;
    size_t start[257], next[256];
    distribute(h, n, top - bits, bits, start, next);
    for (size_t d = 0; d < (size_t)1 << bits; d++)
        if (start[d + 1] - start[d] >= 32 && top > bits)
            sort_below(h + start[d], start[d + 1] - start[d], top - bits);
}

/*
 * A radix sort, linear, where qsort's n log n comparisons through a
 * callback were half of the name-collision check's time
 * (docs/performance.md, "The name-collision check, judged"): on the top
 * digit first, in place, then each bucket of 32 values or more the same way
 * on the next digit; then one insertion sort over the whole array, which
 * finishes the small buckets (a value moves only inside its bucket). A
 * digit has as many bits as give 4 to 8 values a bucket (the names' hashes
 * are spread evenly: one digit leaves small buckets), up to 16 at the top
 * (its counts on the heap: 1 MiB at most), 8 below. No second array of
 * 'n' values: one was a quarter of a million-register compile's peak.
 */
void util_sort_u64(uint64_t *h, size_t n)
{
    unsigned bits = digit_bits(n, 16);
    if (n >= 32) {
        size_t nb = (size_t)1 << bits, *start = xmalloc((2 * nb + 1) * sizeof(*start));
        distribute(h, n, 64 - bits, bits, start, start + nb + 1);
        for (size_t d = 0; d < nb; d++)
            if (start[d + 1] - start[d] >= 32)
                sort_below(h + start[d], start[d + 1] - start[d], 64 - bits);
        free(start);
    }
    for (size_t i = 1; i < n; i++) {
        uint64_t x = h[i];
        if (h[i - 1] <= x)
            continue; /* in place already: most values, when the buckets are small */
        size_t j = i;
        do
            h[j] = h[j - 1];
        while (--j > 0 && h[j - 1] > x);
        h[j] = x;
    }
}

const char *util_join(struct arena *a, const char *const *s, size_t n, char sep)
{
    if (!n)
        return NULL;
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += strlen(s[i]) + 1;
    char *out = arena_alloc(a, len), *p = out;
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(s[i]);
        if (i)
            *p++ = sep;
        memcpy(p, s[i], k);
        p += k;
    }
    *p = '\0';
    return out;
}
