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
