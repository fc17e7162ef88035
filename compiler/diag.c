#include "diag.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Carets: the largest file read again for its lines, and the widest line shown whole. */
#define DIAG_SOURCE_MAX ((size_t)256 * 1024 * 1024)
enum { DIAG_LINE_MAX = 240 };

static const struct {
    const char *name;
    enum diag_sev sev;
    const char *desc;
} diag_table[DIAG__COUNT] = {
#define X(code, name, sev, desc) [DIAG_##code] = {name, sev, desc},
#include "diag.def"
#undef X
};

/* A file's text for carets, and where its lines start (built when first needed). */
struct diag_source {
    const char *text; /* borrowed, or 'owned' */
    size_t len;
    char *owned;   /* read again from disk; free() */
    size_t *lines; /* byte offset of each line; free() */
    size_t nlines;
    bool on_disk; /* the name is a file to read when there is no text */
    bool tried;   /* reading it failed once: do not try again */
    bool same;    /* read again only if still the file 'dev', 'ino' */
    dev_t dev;
    ino_t ino;
};

void diag_init(struct diag *dg, FILE *echo)
{
    memset(dg, 0, sizeof(*dg));
    for (int i = 0; i < DIAG__COUNT; i++)
        dg->sev[i] = diag_table[i].sev;
    dg->echo = echo;
    buf_init(&dg->text);
    diag_add_file(dg, "");
}

void diag_init_like(struct diag *dg, const struct diag *model)
{
    diag_init(dg, model->echo);
    memcpy(dg->sev, model->sev, sizeof(dg->sev));
    dg->werror = model->werror;
    dg->caret = model->caret;
    dg->error_limit = model->error_limit;
}

static void source_release(struct diag_source *src)
{
    free(src->owned);
    free(src->lines);
    *src = (struct diag_source){0};
}

void diag_release(struct diag *dg)
{
    for (uint32_t i = 0; i < dg->nfiles; i++)
        source_release(&dg->srcs[i]);
    free(dg->files);
    free(dg->srcs);
    buf_release(&dg->text);
    dg->files = NULL;
    dg->srcs = NULL;
    dg->nfiles = dg->cap = 0;
}

uint32_t diag_add_file(struct diag *dg, const char *name)
{
    if (dg->nfiles == dg->cap) {
        dg->cap = dg->cap ? dg->cap * 2 : 8;
        dg->files = xrealloc(dg->files, dg->cap * sizeof(*dg->files));
        dg->srcs = xrealloc(dg->srcs, dg->cap * sizeof(*dg->srcs));
    }
    dg->files[dg->nfiles] = name;
    dg->srcs[dg->nfiles] = (struct diag_source){0};
    return dg->nfiles++;
}

uint32_t diag_add_source(struct diag *dg, const char *name, const char *text, size_t len)
{
    uint32_t file = diag_add_file(dg, name);
    dg->srcs[file].text = text;
    dg->srcs[file].len = len;
    return file;
}

void diag_drop_source(struct diag *dg, uint32_t file, bool on_disk)
{
    if (file == 0 || file >= dg->nfiles)
        return;
    source_release(&dg->srcs[file]);
    dg->srcs[file].on_disk = on_disk;
}

void diag_source_same(struct diag *dg, uint32_t file, dev_t dev, ino_t ino)
{
    if (file == 0 || file >= dg->nfiles)
        return;
    dg->srcs[file].same = true;
    dg->srcs[file].dev = dev;
    dg->srcs[file].ino = ino;
}

const char *diag_file_name(const struct diag *dg, uint32_t file)
{
    return file < dg->nfiles ? dg->files[file] : "";
}

/* Looks a diagnostic up by its stable name; false if there is none. */
static bool diag_lookup(const char *name, enum diag_code *code)
{
    for (int i = 0; i < DIAG__COUNT; i++) {
        if (strcmp(diag_table[i].name, name) == 0) {
            *code = (enum diag_code)i;
            return true;
        }
    }
    return false;
}

bool diag_option(struct diag *dg, const char *opt)
{
    enum diag_code code;
    if (strcmp(opt, "-Werror") == 0) {
        dg->werror = true;
        return true;
    }
    if (strncmp(opt, "-Werror=", 8) == 0 && diag_lookup(opt + 8, &code)) {
        dg->sev[code] = SEV_ERROR;
        return true;
    }
    if (strncmp(opt, "-Wno-", 5) == 0 && diag_lookup(opt + 5, &code)) {
        if (diag_table[code].sev == SEV_ERROR)
            return false; /* errors cannot be silenced */
        dg->sev[code] = SEV_IGNORE;
        return true;
    }
    if (strncmp(opt, "-W", 2) == 0 && diag_lookup(opt + 2, &code)) {
        if (dg->sev[code] == SEV_IGNORE)
            dg->sev[code] = SEV_WARNING;
        return true;
    }
    return false;
}

const char *diag_option_refusal(char *buf, size_t size, const char *opt)
{
    static const char *const prefixes[] = {"-Werror=", "-Wno-", "-W"};
    size_t k = 0;
    while (strncmp(opt, prefixes[k], strlen(prefixes[k])) != 0 && k + 1 < ARRAY_SIZE(prefixes))
        k++;
    enum diag_code code;
    if (diag_lookup(opt + strlen(prefixes[k]), &code)) { /* -Wno-ERROR */
        snprintf(buf, size, "'%s': '%s' is an error, which cannot be turned off", opt,
                 diag_table[code].name);
        return buf;
    }
    struct regc_suggest sg;
    regc_suggest_init(&sg, opt);
    for (int i = 0; i < DIAG__COUNT; i++) {
        char cand[REGC_SUGGEST_MAX];
        snprintf(cand, sizeof(cand), "%s%s", prefixes[k], diag_table[i].name);
        if (k == 0 || diag_table[i].sev != SEV_ERROR) /* only -Werror= takes an error's name */
            regc_suggest_add(&sg, cand);
    }
    char hint[160];
    snprintf(buf, size, "unknown warning option '%s'%s", opt,
             regc_suggest_text(&sg, hint, sizeof(hint)));
    return buf;
}

int diag_f_option(struct diag *dg, const char *opt)
{
    static const char *const on[] = {"-fcaret-diagnostics", "-fdiagnostics-show-caret"};
    static const char *const off[] = {"-fno-caret-diagnostics", "-fno-diagnostics-show-caret"};
    for (size_t i = 0; i < ARRAY_SIZE(on); i++) {
        if (strcmp(opt, on[i]) == 0 || strcmp(opt, off[i]) == 0) {
            dg->caret = strcmp(opt, on[i]) == 0;
            return 1;
        }
    }
    const char *v = NULL;
    if (strncmp(opt, "-ferror-limit=", 14) == 0)
        v = opt + 14;
    else if (strncmp(opt, "-fmax-errors=", 13) == 0)
        v = opt + 13;
    if (!v)
        return 0;
    unsigned long n = 0;
    for (const char *p = v; *p; p++) {
        if (*p < '0' || *p > '9' || (n = n * 10 + (unsigned long)(*p - '0')) > UINT_MAX)
            return -1;
    }
    if (!*v)
        return -1;
    dg->error_limit = (unsigned)n;
    return 1;
}

/* ---------------------------------------------------------------- carets */

/* The text of 'file', read again from disk if need be; NULL when there is none. */
static struct diag_source *source_of(struct diag *dg, uint32_t file)
{
    struct diag_source *src = &dg->srcs[file];
    if (!src->text && src->on_disk && !src->tried) {
        struct util_file in;
        size_t size;
        struct stat st;
        src->tried = true;
        int fd = util_open_input(dg->files[file], &in, &size);
        FILE *fp = fd < 0 ? NULL : fdopen(fd, "r");
        if (fd >= 0 && !fp)
            close(fd);
        if (fp && fstat(fd, &st) == 0 && (!src->same || (st.st_dev == src->dev && st.st_ino == src->ino)) &&
            size <= DIAG_SOURCE_MAX && util_read_stream(fp, DIAG_SOURCE_MAX, &in) == 0) {
            src->owned = in.text;
            src->text = in.text;
            src->len = in.len;
        }
        if (fp)
            fclose(fp);
    }
    if (!src->text)
        return NULL;
    if (!src->lines)
        src->lines = util_line_starts(src->text, src->len, &src->nlines);
    return src;
}

static bool utf8_continuation(char c)
{
    return ((unsigned char)c & 0xC0) == 0x80;
}

/*
 * Appends one byte of the source line as it is shown: a tab as spaces up to
 * the next multiple of 8, a control character as '?' (a spec cannot move the
 * terminal's cursor). Returns the new display column.
 */
static size_t show_byte(struct buf *out, char c, size_t col)
{
    if (c == '\t') {
        buf_addspaces(out, 8 - col % 8);
        return col + 8 - col % 8;
    }
    if ((unsigned char)c < 0x20 || c == 0x7F) {
        buf_addc(out, '?');
        return col + 1;
    }
    buf_addc(out, c);
    return col + !utf8_continuation(c);
}

struct srcpos diag_pos_in_value(struct srcpos value, struct srcpos elem, const char *text,
                                size_t off)
{
    if (!value.file || !value.col)
        return value.file ? value : elem;
    for (size_t i = 0; i < off && text[i]; i++)
        value.col += text[i] == '<' ? 4 : text[i] == '&' ? 5 : 1;
    return value;
}

/*
 * "    5 | <source line>" and "      |     ^" for 'pos'. A line longer than
 * DIAG_LINE_MAX bytes is shown as the window around the column.
 */
static void add_caret(struct diag *dg, struct srcpos pos)
{
    struct diag_source *src = source_of(dg, pos.file);
    if (!src || pos.line > src->nlines)
        return;
    size_t start = src->lines[pos.line - 1];
    size_t end = pos.line < src->nlines ? src->lines[pos.line] - 1 : src->len;
    if (end > start && src->text[end - 1] == '\r')
        end--;
    size_t at = start + pos.col - 1 < end ? start + pos.col - 1 : end;
    if (end - start > DIAG_LINE_MAX) {
        size_t from = at - start > DIAG_LINE_MAX / 2 ? at - DIAG_LINE_MAX / 2 : start;
        while (from > start && utf8_continuation(src->text[from]))
            from--;
        start = from;
        end = end - start > DIAG_LINE_MAX ? start + DIAG_LINE_MAX : end;
        while (end > at && end < src->len && utf8_continuation(src->text[end]))
            end--;
    }
    char num[16];
    int width = snprintf(num, sizeof(num), "%u", (unsigned)pos.line);
    width = width < 5 ? 5 : width;
    buf_addf(&dg->text, "%*s | ", width, num);
    size_t col = 0, caret_col = 0;
    for (size_t i = start; i < end; i++) {
        if (i == at)
            caret_col = col;
        col = show_byte(&dg->text, src->text[i], col);
    }
    if (at >= end)
        caret_col = col;
    buf_addf(&dg->text, "\n%*s | %*s^\n", width, "", (int)caret_col, "");
}

/* ---------------------------------------------------------------- reports */

static void emit(struct diag *dg, struct srcpos pos, const char *kind, const char *option,
                 const char *fmt, va_list ap)
{
    size_t start = dg->text.len;
    if (pos.file) {
        buf_addf(&dg->text, "%s:", diag_file_name(dg, pos.file));
        if (pos.line)
            buf_addf(&dg->text, "%u:", (unsigned)pos.line);
        if (pos.line && pos.col)
            buf_addf(&dg->text, "%u:", (unsigned)pos.col);
        buf_addc(&dg->text, ' ');
    } else {
        buf_adds(&dg->text, "regc: ");
    }
    buf_addf(&dg->text, "%s: ", kind);
    buf_vaddf(&dg->text, fmt, ap);
    if (option)
        buf_addf(&dg->text, " [-W%s]", option);
    buf_addc(&dg->text, '\n');
    if (dg->caret && pos.file && pos.file < dg->nfiles && pos.line && pos.col)
        add_caret(dg, pos);
    if (dg->echo) {
        fwrite(dg->text.s + start, 1, dg->text.len - start, dg->echo);
        fflush(dg->echo);
    }
}

/* True when the error limit is reached: what follows is counted, not printed. */
static bool over_limit(const struct diag *dg)
{
    return dg->error_limit && dg->nerrors - dg->nhidden_errors >= dg->error_limit;
}

int diag_vreport(struct diag *dg, enum diag_code code, struct srcpos pos, const char *fmt,
                 va_list ap)
{
    enum diag_sev sev = dg->sev[code];
    dg->last_suppressed = sev == SEV_IGNORE;
    if (dg->last_suppressed)
        return -1;
    dg->count[code]++;
    /* Warnings name their option, as gcc does, so users know what to pass. */
    const char *option = diag_table[code].sev == SEV_WARNING ? diag_table[code].name : NULL;
    if (sev == SEV_WARNING && dg->werror)
        sev = SEV_ERROR;
    bool hide = over_limit(dg);
    dg->last_suppressed = hide;
    if (sev == SEV_ERROR) {
        dg->nerrors++;
        dg->nhidden_errors += hide;
    } else {
        dg->nwarnings++;
        dg->nhidden_warnings += hide;
    }
    if (!hide)
        emit(dg, pos, sev == SEV_ERROR ? "error" : "warning", option, fmt, ap);
    return -1;
}

int diag_report(struct diag *dg, enum diag_code code, struct srcpos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(dg, code, pos, fmt, ap);
    va_end(ap);
    return -1;
}

void diag_note(struct diag *dg, struct srcpos pos, const char *fmt, ...)
{
    if (dg->last_suppressed)
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(dg, pos, "note", NULL, fmt, ap);
    va_end(ap);
}

int diag_plain_error(struct diag *dg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dg->nerrors++;
    emit(dg, (struct srcpos){0, 0, 0}, "error", NULL, fmt, ap);
    va_end(ap);
    return -1;
}

static void note_plain(struct diag *dg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note_plain(struct diag *dg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(dg, (struct srcpos){0, 0, 0}, "note", NULL, fmt, ap);
    va_end(ap);
}

void diag_finish(struct diag *dg)
{
    unsigned e = dg->nhidden_errors, w = dg->nhidden_warnings;
    if (e && w)
        note_plain(dg, "%u more error%s and %u more warning%s not shown (-ferror-limit=%u)", e,
                   e == 1 ? "" : "s", w, w == 1 ? "" : "s", dg->error_limit);
    else if (e || w)
        note_plain(dg, "%u more %s%s not shown (-ferror-limit=%u)", e ? e : w,
                   e ? "error" : "warning", (e ? e : w) == 1 ? "" : "s", dg->error_limit);
}

const char *diag_hint(char *buf, size_t size, const char *best)
{
    if (best)
        snprintf(buf, size, "; did you mean '%.100s'?", best);
    else if (size)
        buf[0] = '\0';
    return buf;
}

void diag_held_vadd(struct diag_held *h, enum diag_code code, bool note, struct srcpos pos,
                    const char *fmt, va_list ap)
{
    if (h->n == h->cap)
        h->d = xgrow(h->d, &h->cap, h->n + 1, sizeof(*h->d));
    struct buf b = BUF_INIT;
    buf_vaddf(&b, fmt, ap);
    size_t len;
    h->d[h->n++] = (struct diag_held_one){code, note, pos, buf_detach(&b, &len)};
}

void diag_held_add(struct diag_held *h, enum diag_code code, struct srcpos pos, const char *fmt,
                   ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_held_vadd(h, code, false, pos, fmt, ap);
    va_end(ap);
}

void diag_held_remove(struct diag_held *h, size_t i)
{
    free(h->d[i].msg);
    memmove(h->d + i, h->d + i + 1, (h->n - i - 1) * sizeof(*h->d));
    h->n--;
}

void diag_held_truncate(struct diag_held *h, size_t n)
{
    while (h->n > n)
        free(h->d[--h->n].msg);
}

void diag_held_flush(struct diag_held *h, struct diag *dg, size_t from)
{
    for (size_t i = from; i < h->n; i++) {
        if (h->d[i].note)
            diag_note(dg, h->d[i].pos, "%s", h->d[i].msg);
        else
            diag_report(dg, h->d[i].code, h->d[i].pos, "%s", h->d[i].msg);
    }
    diag_held_truncate(h, from);
}

void diag_held_release(struct diag_held *h)
{
    diag_held_truncate(h, 0);
    free(h->d);
    *h = (struct diag_held){0};
}
