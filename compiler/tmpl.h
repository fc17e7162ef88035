/*
 * tmpl - finding templates and partials, and choosing how values are escaped.
 *
 * A template is named by -t NAME|FILE: a built-in name (no '/' and no '.'
 * in it, and a built-in of that name exists; see compiler/templates.h) or a
 * path to a file. A partial {{>NAME}} is looked up, in order, as
 *   1. NAME.mustache beside the main template (when that is a file),
 *   2. NAME.mustache in each -I directory, in the order given,
 *   3. the built-in NAME (when the main template is built-in),
 * so an -I directory can override a built-in partial. Every file actually
 * read is recorded in deps[] (main template first) for make dependency files.
 *
 * Diagnostics name files by their path as given, built-ins as
 * "builtin/NAME.mustache". Those names are owned by the struct tmpl, so
 * release it only after the last report to the diag.
 */
#ifndef REGC_TMPL_H
#define REGC_TMPL_H

#include "diag.h"
#include "mustache.h"
#include "templates.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct tmpl_text;

/*
 * The render limits given on the command line (mus_options.max_output,
 * max_work): 0 when not given (the engine's default), SIZE_MAX or UINT64_MAX
 * for none.
 */
struct tmpl_limits {
    size_t max_output;
    uint64_t max_work;
};

struct tmpl {
    struct diag *dg;
    const char *const *incdirs; /* -I directories; borrowed */
    size_t nincdirs;
    const struct embedded_template *builtin; /* the main template when built-in, else NULL */
    char *dir;                 /* directory of the main template file, else NULL; owned */
    struct mus_template *main; /* owned */
    struct mus_partials partials; /* compiled once for the check and the render */
    char **deps;               /* every file read, main template first; owned */
    size_t ndeps, deps_cap;
    struct tmpl_text *texts; /* display names and texts read; owned */
    size_t ntexts, texts_cap;
    const struct embedded_template *builtins; /* the built-in table (tests may swap it) */
    size_t nbuiltins;
    struct tmpl_limits limits; /* applied by tmpl_render; zero after tmpl_init */
};

/* Sets up 'tp'; 'incdirs' (borrowed) must outlive it. Release with tmpl_release(). */
void tmpl_init(struct tmpl *tp, struct diag *dg, const char *const *incdirs, size_t nincdirs);
void tmpl_release(struct tmpl *tp);

/*
 * Takes -ftemplate-output-limit=N (bytes) or -ftemplate-work-limit=N (steps)
 * into 'l': N decimal, with an optional suffix k, M or G (times 1024, 1024^2,
 * 1024^3); 0 means no limit. Returns 1 when taken, 0 when 'arg' is neither
 * option, -1 when the value is not such a number (the caller reports
 * TMPL_LIMIT_USAGE with the option).
 */
int tmpl_limit_option(struct tmpl_limits *l, const char *arg);
#define TMPL_LIMIT_USAGE "'%s' needs a number, with an optional k, M or G suffix (0: no limit)"

/* True if 'name' names a built-in output template rather than a file. */
bool tmpl_is_builtin(const struct tmpl *tp, const char *name);

/*
 * Reads and compiles the main template 'name' (built-in or file). Returns 0,
 * or -1 after reporting: DIAG_IO when a file cannot be read, else syntax errors.
 */
int tmpl_load(struct tmpl *tp, const char *name);

/*
 * Renders the main template with partials found as described above: fills
 * opt->load/opt->load_ctx, and the limits given in tp->limits, and calls
 * mus_render(). 0 or -1 (errors reported; a partial that cannot be read is
 * DIAG_IO).
 */
int tmpl_render(struct tmpl *tp, const struct dt *data, struct mus_options *opt, struct buf *out);

/*
 * Checks the main template and its partials, found as described above,
 * against the typed view whose root is 'root' (mus_check(), view.h; 'used'
 * hears of every name they read). 0 or -1 (errors reported).
 */
int tmpl_check(struct tmpl *tp, const struct view_type *root, mus_name_used_fn *used,
               void *used_ctx);

/*
 * The escape kind for template 'name' writing to 'output' (NULL or "-": none):
 * built-in c and tables -> C, md -> MARKDOWN, html -> HTML, json -> NONE; else
 * by the output's extension (.h .c -> C, .md -> MARKDOWN, .html .htm -> HTML);
 * else by the template file's name without ".mustache" (x.h.mustache -> C);
 * else NONE. An explicit --escape overrides this (the caller's business).
 */
enum mus_escape tmpl_escape_for(const char *name, const char *output);

/*
 * Prints "NAME  description" for each built-in output template (not the
 * partials, whose names start with '_'), names padded to one width: the
 * output of `regc --list-templates`. tmpl_list_from does it for any table.
 */
void tmpl_list(FILE *fp);
void tmpl_list_from(FILE *fp, const struct embedded_template *table, size_t n);

#endif
