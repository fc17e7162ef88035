/*
 * diag - compiler diagnostics in one format.
 *
 *     file:line[:col]: error|warning|note: message
 *
 * Every diagnostic comes from the X-macro table in diag.def, which gives its
 * stable name (for -Werror=NAME and -Wno-NAME) and default severity. Checks
 * report everything they find into one struct diag (all errors of a run, not
 * just the first); main decides the exit status once from the counts.
 * Messages: lower-case first word, no final period, subjects in 'quotes'.
 *
 * Where the column is known, the message is followed by its source line and
 * a caret under the column, as gcc prints them:
 *
 *     x.xml:5:50: error: number '107CCH' uses the manuals' 'H' suffix: write '0x107CC'
 *         5 |     <register name="CTL" space="msr" address="107CCH" width="32" src="man">
 *           |                                                  ^
 *
 * (tabs expanded to 8 columns; 'caret' turns it on). With an error limit,
 * reports past it are counted but not printed, and diag_finish() says how
 * many were hidden.
 */
#ifndef REGC_DIAG_H
#define REGC_DIAG_H

#include "buf.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdio.h>

/* A place in an input file. 'file' indexes diag's file table; 0 means none. col 0: unknown. */
struct srcpos {
    uint32_t file, line, col;
};

/*
 * The place of byte 'off' of an attribute's value 'text' that starts at 'value' (its first
 * character; 'elem', the element's place, when value.file is 0). The text is the value after
 * XML decoding: '<' and '&' were written "&lt;" and "&amp;" in the file, so each one before
 * 'off' moves the column on (character references are not undone); line only when no column
 * is known.
 */
struct srcpos diag_pos_in_value(struct srcpos value, struct srcpos elem, const char *text,
                                size_t off);

enum diag_sev { SEV_IGNORE, SEV_NOTE, SEV_WARNING, SEV_ERROR };

enum diag_code {
#define X(code, name, sev, desc) DIAG_##code,
#include "diag.def"
#undef X
    DIAG__COUNT
};

struct diag_source;

struct diag {
    const char **files;    /* file table; [0] is unused; names owned by the caller */
    struct diag_source *srcs; /* per file: its text, for carets; parallel to files */
    uint32_t nfiles, cap;
    unsigned nerrors, nwarnings; /* every error and warning, shown or not */
    unsigned count[DIAG__COUNT]; /* reports per code (not ignored ones; hidden ones too) */
    enum diag_sev sev[DIAG__COUNT]; /* severity in force per code (after -W options) */
    bool werror;           /* -Werror: every warning counts as an error */
    bool last_suppressed;  /* the last report was ignored or hidden, so its notes are too */
    bool caret;            /* print the source line and a caret under the column, as gcc */
    unsigned error_limit;  /* -ferror-limit: after this many errors the rest are hidden; 0: none */
    unsigned nhidden_errors, nhidden_warnings; /* hidden by the limit (counted in nerrors...) */
    FILE *echo;            /* where messages are printed as they come; NULL: only kept */
    struct buf text;       /* every message printed so far (with its caret lines) */
};

/* -ferror-limit's default in regc; diag_init() sets no limit (and no carets). */
#define DIAG_ERROR_LIMIT_DEFAULT 50

/* Sets up 'dg' printing to 'echo' (may be NULL); release with diag_release(). */
void diag_init(struct diag *dg, FILE *echo);
/* The same with the settings of 'model' (severities, -Werror, carets, error limit, echo):
   one more input checked under the same options, its counts its own. */
void diag_init_like(struct diag *dg, const struct diag *model);
void diag_release(struct diag *dg);

/* Registers a file name (borrowed; must outlive dg) and returns its index. */
uint32_t diag_add_file(struct diag *dg, const char *name);
/*
 * The same for a file whose text is at hand: carets for it are drawn from
 * 'text' (borrowed; valid until diag_drop_source(), or as long as reports
 * about the file may come).
 */
uint32_t diag_add_source(struct diag *dg, const char *name, const char *text, size_t len);
/*
 * The text of 'file' is about to be freed. When 'on_disk' (the name is a
 * path to a regular file), a later caret reads the file again, as gcc does;
 * else no more carets are drawn for it.
 */
void diag_drop_source(struct diag *dg, uint32_t file, bool on_disk);
/*
 * The file 'file' was read as device 'dev', inode 'ino': a caret reads it
 * again only while its name still leads to that file (a name swapped for a
 * link to another file meanwhile gets no caret, so nothing of that file is
 * printed).
 */
void diag_source_same(struct diag *dg, uint32_t file, dev_t dev, ino_t ino);
const char *diag_file_name(const struct diag *dg, uint32_t file);

/*
 * -Werror, -Werror=NAME, -Wno-NAME, -WNAME: applies one command-line option.
 * Returns false when 'opt' names no diagnostic.
 */
bool diag_option(struct diag *dg, const char *opt);

/*
 * The command-line options of the diagnostics themselves: -ferror-limit=N
 * (gcc: -fmax-errors=N), -f[no-]caret-diagnostics (gcc:
 * -f[no-]diagnostics-show-caret). Returns 1 when 'opt' was one and is
 * applied, 0 when it is none of them, -1 when its value is not a number.
 */
int diag_f_option(struct diag *dg, const char *opt);

/*
 * Reports diagnostic 'code' at 'pos'. Returns -1, so a check can end with
 * 'return diag_report(...)'. A diagnostic set to SEV_IGNORE prints nothing.
 */
int diag_report(struct diag *dg, enum diag_code code, struct srcpos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int diag_vreport(struct diag *dg, enum diag_code code, struct srcpos pos, const char *fmt,
                 va_list ap) __attribute__((format(printf, 4, 0)));
/* A note attached to the diagnostic just reported (suppressed if that one was). */
void diag_note(struct diag *dg, struct srcpos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A message with no position: "regc: error: ..." (usage and I/O problems). */
int diag_plain_error(struct diag *dg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Ends a run: "regc: note: N more errors not shown" when the error limit hid some. */
void diag_finish(struct diag *dg);

/*
 * Reports held back until it is known whether they stand: a reader that
 * judges a file as it goes keeps them while the file may still turn out not
 * to be well-formed (then that alone is said, as when the file was read whole
 * first). Messages are formatted when held; flushed in the order they came.
 */
struct diag_held_one {
    enum diag_code code;
    bool note; /* a note to the report before it (diag_note) */
    struct srcpos pos;
    char *msg; /* xmalloc'd */
};

struct diag_held {
    struct diag_held_one *d;
    size_t n, cap;
};

void diag_held_add(struct diag_held *h, enum diag_code code, struct srcpos pos, const char *fmt,
                   ...) __attribute__((format(printf, 4, 5)));
void diag_held_vadd(struct diag_held *h, enum diag_code code, bool note, struct srcpos pos,
                    const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));
/* Forgets the report at index 'i' (those after it move up). */
void diag_held_remove(struct diag_held *h, size_t i);
/* Forgets what 'h' holds from index 'n' on. */
void diag_held_truncate(struct diag_held *h, size_t n);
/* Reports what 'h' holds from index 'from' on, in order, and forgets it. */
void diag_held_flush(struct diag_held *h, struct diag *dg, size_t from);
/* Forgets everything and frees 'h''s memory. */
void diag_held_release(struct diag_held *h);

/*
 * "; did you mean 'NAME'?" in 'buf' (or "" when 'best' is NULL), to end a
 * message with: diag_report(dg, code, pos, "unknown field '%s'%s", name,
 * diag_hint(hint, sizeof(hint), best)). Returns 'buf'.
 */
const char *diag_hint(char *buf, size_t size, const char *best);

/*
 * Why diag_option() refused -W option 'opt', in 'buf': "unknown warning
 * option '-Werror=field-overlp'; did you mean '-Werror=field-overlap'?", or
 * that the diagnostic it names is an error (-Wno-schema). Returns 'buf'.
 */
const char *diag_option_refusal(char *buf, size_t size, const char *opt);

#endif
