#include "cmd_render.h"

#include "diag.h"
#include "mustache.h"
#include "outfile.h"
#include "tmpl.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RENDER_USAGE                                                                               \
    "usage: regc render TEMPLATE DATA.json [-I DIR]... [-o FILE] [--strict] "                      \
    "[--escape=html|c|md|json|none]\n"                                                             \
    "       [-ftemplate-output-limit=N] [-ftemplate-work-limit=N]\n"
enum { EXIT_OK = 0, EXIT_ERRORS = 1, EXIT_USAGE = 2, EXIT_IO = 3 };

struct render_args {
    const char *template, *data, *output;
    const char **incdirs; /* owned array; strings borrowed from argv */
    size_t nincdirs;
    bool strict, escape_given;
    enum mus_escape escape;
    struct tmpl_limits limits;
};

static int usage_error(struct diag *dg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int usage_error(struct diag *dg, const char *fmt, ...)
{
    struct buf msg = BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    buf_vaddf(&msg, fmt, ap);
    va_end(ap);
    diag_plain_error(dg, "%s", msg.s);
    buf_release(&msg);
    fputs(RENDER_USAGE, stderr);
    return -1;
}

/* RENDER_USAGE's options and the diagnostics ones it shares with regc, for "did you mean". */
static const char *const render_options[] = {
    "-I", "-o", "--strict", "--escape=", "-ftemplate-output-limit=", "-ftemplate-work-limit=",
    "-ferror-limit=", "-fno-caret-diagnostics", "--help"};

static int unknown_option(struct diag *dg, const char *arg)
{
    char hint[160];
    return usage_error(dg, "unknown option '%s'%s", arg,
                       util_option_hint(hint, sizeof(hint), arg, render_options,
                                        ARRAY_SIZE(render_options)));
}

/* Takes the value of an option written "-X VALUE" or "-XVALUE". */
static const char *option_value(int argc, char **argv, int *i, size_t prefix)
{
    if (argv[*i][prefix])
        return argv[*i] + prefix;
    return *i + 1 < argc ? argv[++*i] : NULL;
}

static int parse_option(struct diag *dg, struct render_args *a, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    if (strncmp(arg, "-I", 2) == 0 || strncmp(arg, "-o", 2) == 0) {
        const char *v = option_value(argc, argv, i, 2);
        if (!v)
            return usage_error(dg, "option '%s' needs an argument", arg);
        if (arg[1] == 'o') {
            a->output = v;
        } else {
            a->incdirs = xrealloc(a->incdirs, (a->nincdirs + 1) * sizeof(*a->incdirs));
            a->incdirs[a->nincdirs++] = v;
        }
    } else if (tmpl_limit_option(&a->limits, arg) != 0) {
        if (tmpl_limit_option(&a->limits, arg) < 0)
            return usage_error(dg, TMPL_LIMIT_USAGE, arg);
    } else if (strcmp(arg, "--strict") == 0) {
        a->strict = true;
    } else if (strncmp(arg, "--escape=", 9) == 0) {
        if (!mus_escape_parse(arg + 9, &a->escape))
            return usage_error(dg, "unknown escape kind '%s' (html, c, md, json or none)", arg + 9);
        a->escape_given = true;
    } else if (strncmp(arg, "-f", 2) == 0) {
        int rc = diag_f_option(dg, arg); /* -ferror-limit=N, the caret options (diag.h) */
        if (rc < 0)
            return usage_error(dg, "'%s' needs a number of errors (0: no limit)", arg);
        if (rc == 0)
            return unknown_option(dg, arg);
    } else {
        return unknown_option(dg, arg);
    }
    return 0;
}

/* Returns 0, 1 for --help, or -1 after a usage error. */
static int parse_args(struct diag *dg, struct render_args *a, int argc, char **argv)
{
    int first = argc > 1 && strcmp(argv[1], "render") == 0 ? 2 : 1;
    const char *pos[2];
    int npos = 0;
    bool options = true;
    for (int i = first; i < argc; i++) {
        const char *arg = argv[i];
        if (options && strcmp(arg, "--") == 0) {
            options = false;
        } else if (options && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
            return 1;
        } else if (options && arg[0] == '-' && arg[1]) {
            if (parse_option(dg, a, argc, argv, &i) < 0)
                return -1;
        } else if (npos < 2) {
            pos[npos++] = arg;
        } else {
            return usage_error(dg, "unexpected argument '%s'", arg);
        }
    }
    if (npos < 2)
        return usage_error(dg, "%s", npos ? "missing the data file" : "missing the template");
    a->template = pos[0];
    a->data = pos[1];
    return 0;
}

/*
 * Reads the whole file, a regular file only (util_read_input()); "-" is
 * standard input. NULL after reporting DIAG_IO.
 */
static char *read_data(struct diag *dg, const char *path, size_t *len)
{
    struct util_file in;
    int rc =
        strcmp(path, "-") == 0 ? util_read_stream(stdin, 0, &in) : util_read_input(path, 0, &in);
    if (rc < 0) {
        diag_report(dg, DIAG_IO, (struct srcpos){0, 0, 0}, "cannot read '%s': %s", path, in.why);
        return NULL;
    }
    *len = in.len;
    return in.text;
}

/* Reads and parses the data file; NULL after reporting (DIAG_IO or DIAG_DATA_SYNTAX). */
static json_t *load_data(struct diag *dg, const char *path)
{
    size_t len;
    char *text = read_data(dg, path, &len);
    if (!text)
        return NULL;
    json_error_t err;
    json_t *root = json_loadb(text, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        uint32_t file = diag_add_source(dg, path, text, len);
        struct srcpos at = {file, err.line > 0 ? (uint32_t)err.line : 0,
                            err.column > 0 ? (uint32_t)err.column : 0};
        diag_report(dg, DIAG_DATA_SYNTAX, at, "%s", err.text);
        diag_drop_source(dg, file, false);
    }
    free(text);
    return root;
}

static int exit_status(const struct diag *dg)
{
    return dg->count[DIAG_IO] ? EXIT_IO : EXIT_ERRORS;
}

/* -o may be no input: the template, a partial, the data. 0 or -1. */
static int check_output(struct diag *dg, const struct render_args *a, const struct tmpl *tp)
{
    const char **ins = xmalloc((tp->ndeps + 1) * sizeof(*ins));
    for (size_t i = 0; i < tp->ndeps; i++)
        ins[i] = tp->deps[i];
    ins[tp->ndeps] = a->data;
    int rc = outfile_check(dg, &a->output, 1, ins, tp->ndeps + 1);
    free(ins);
    return rc;
}

static void output_add(void *ctx, const char *text, size_t len)
{
    outfile_add(ctx, text, len);
}

/*
 * With -o, the output goes to its temporary file as it is rendered
 * (mus_options.sink; never held whole), renamed over -o only when the whole
 * render succeeded; else removed. Standard output gets it whole at the end.
 */
static int run(struct diag *dg, const struct render_args *a)
{
    struct tmpl tp;
    tmpl_init(&tp, dg, a->incdirs, a->nincdirs);
    tp.limits = a->limits;
    json_t *data = NULL;
    struct arena tree = ARENA_INIT;
    struct buf out = BUF_INIT;
    struct outfile *file = NULL;
    int status = EXIT_OK;
    if (tmpl_load(&tp, a->template) < 0 || !(data = load_data(dg, a->data)) ||
        (a->output && !(file = outfile_open(dg, a->output)))) {
        status = exit_status(dg);
        goto out;
    }
    struct mus_options opt = {
        .escape = a->escape_given ? a->escape : tmpl_escape_for(a->template, a->output),
        .strict = a->strict,
        .sink = file ? output_add : NULL,
        .sink_ctx = file,
    };
    if (tmpl_render(&tp, dt_from_json(&tree, data), &opt, &out) < 0 || dg->nerrors) {
        status = exit_status(dg);
        goto out;
    }
    if (file) { /* the partials are known now: -o may be none of them */
        outfile_add(file, out.s, out.len);
        struct outfile *f = file;
        file = NULL;
        if (check_output(dg, a, &tp) < 0)
            outfile_abort(f), status = EXIT_IO;
        else if (outfile_commit(dg, f) < 0)
            status = EXIT_IO;
    } else if (fwrite(out.s, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
        diag_report(dg, DIAG_IO, (struct srcpos){0, 0, 0}, "cannot write '<stdout>': %s",
                    strerror(errno));
        status = EXIT_IO;
    }
out:
    outfile_abort(file); /* an error came first: the temporary file goes */
    buf_release(&out);
    json_decref(data);
    arena_release(&tree);
    tmpl_release(&tp);
    return status;
}

int cmd_render(int argc, char **argv)
{
    struct diag dg;
    diag_init(&dg, stderr);
    dg.caret = true;
    dg.error_limit = DIAG_ERROR_LIMIT_DEFAULT;
    struct render_args a = {0};
    int rc = parse_args(&dg, &a, argc, argv);
    int status;
    if (rc > 0) {
        fputs(RENDER_USAGE, stdout);
        status = EXIT_OK;
    } else if (rc < 0) {
        status = EXIT_USAGE;
    } else {
        status = run(&dg, &a);
    }
    free(a.incdirs);
    diag_finish(&dg);
    diag_release(&dg);
    return status;
}
