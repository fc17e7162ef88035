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
 */
#ifndef REGC_DIAG_H
#define REGC_DIAG_H

#include "buf.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* A place in an input file. 'file' indexes diag's file table; 0 means none. col 0: unknown. */
struct srcpos {
    uint32_t file, line, col;
};

enum diag_sev { SEV_IGNORE, SEV_NOTE, SEV_WARNING, SEV_ERROR };

enum diag_code {
#define X(code, name, sev, desc) DIAG_##code,
#include "diag.def"
#undef X
    DIAG__COUNT
};

struct diag {
    const char **files;    /* file table; [0] is unused; names owned by the caller */
    uint32_t nfiles, cap;
    unsigned nerrors, nwarnings;
    unsigned count[DIAG__COUNT]; /* reports per code that were printed */
    enum diag_sev sev[DIAG__COUNT]; /* severity in force per code (after -W options) */
    bool werror;           /* -Werror: every warning counts as an error */
    bool last_suppressed;  /* the last report was ignored, so its notes are too */
    FILE *echo;            /* where messages are printed as they come; NULL: only kept */
    struct buf text;       /* every message printed so far */
};

/* Sets up 'dg' printing to 'echo' (may be NULL); release with diag_release(). */
void diag_init(struct diag *dg, FILE *echo);
void diag_release(struct diag *dg);

/* Registers a file name (borrowed; must outlive dg) and returns its index. */
uint32_t diag_add_file(struct diag *dg, const char *name);
const char *diag_file_name(const struct diag *dg, uint32_t file);

/* Looks a diagnostic up by its stable name; false if there is none. */
bool diag_lookup(const char *name, enum diag_code *code);
const char *diag_name(enum diag_code code);
const char *diag_description(enum diag_code code);
enum diag_sev diag_default_severity(enum diag_code code);

/*
 * -Werror, -Werror=NAME, -Wno-NAME, -WNAME: applies one command-line option.
 * Returns false when 'opt' names no diagnostic.
 */
bool diag_option(struct diag *dg, const char *opt);

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

#endif
