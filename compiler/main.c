/*
 * main - the regc command line.
 *
 *   regc [options] SPEC.xml            compile a spec
 *   regc --check SPEC.xml...           check specs, each on its own
 *   regc render TEMPLATE DATA.json     render JSON data with a template (cmd_render.c)
 *
 * Exit status: 0 success, 1 errors in the input (diagnostics printed),
 * 2 usage errors, 3 I/O errors. Nothing is written unless the whole run
 * succeeds: outputs and dependency files go through outfile.h (the output
 * to its temporary file block by block as it is rendered, renamed over -o
 * only when the whole run succeeded).
 */
#include "arena.h"
#include "buf.h"
#include "check.h"
#include "cmd_render.h"
#include "context.h"
#include "context_export.h"
#include "context_regspec.h"
#include "context_svd.h"
#include "context_cmsis.h"
#include "tables.h"
#include "depfile.h"
#include "diag.h"
#include "model.h"
#include "view.h"
#include "mustache.h"
#include "outfile.h"
#include "specpath.h"
#include "svd.h"
#include "svd_against.h"
#include "templates.h"
#include "tmpl.h"
#include "util.h"
#include "xmlload.h"
#include "xmlschema.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_IO = 3 };

/* -j's largest value, as the help text, the parser and its message give it. */
#define JOBS_MAX 16
#define STRING_OF_(x) #x
#define STRING_OF(x) STRING_OF_(x)

struct options {
    const char **specs;     /* SPEC.xml; several only with --check */
    size_t nspecs;
    const char *output;     /* -o; NULL: stdout */
    const char *tmpl;       /* -t NAME|FILE; NULL: from -o's extension */
    const char *escape;     /* --escape=KIND; NULL: from the template or -o */
    const char **incdirs;   /* -I DIR..., in order */
    size_t nincdirs;
    bool depfile;           /* -MD */
    const char *depfile_path; /* -MF */
    const char *dep_target;   /* -MT */
    bool check_only;        /* --check */
    bool dump_context;      /* --dump-context: the templates' data tree as JSON */
    const char *prefix;     /* --prefix */
    bool strict;            /* --strict: SVD defects regc would repair are errors */
    const char *against;    /* --against VENDOR.h: compare an SVD's fields with its macros */
    struct tmpl_limits limits; /* -ftemplate-output-limit=, -ftemplate-work-limit= */
};

static const char usage_text[] =
    "usage: regc [options] SPEC.xml|NAME    (NAME: an installed spec, e.g. xeon7500_mbox)\n"
    "       regc --check [options] SPEC.xml|NAME...\n"
    "       regc render TEMPLATE DATA.json [-I DIR]... [-o FILE] [--strict] [--escape=KIND]\n"
    "\n"
    "  -o FILE          write the output to FILE (atomically; nothing is written on error;\n"
    "                   not through another user's link in a sticky dir; no FIFO or device)\n"
    "  -t NAME|FILE     template: a built-in (see --list-templates) or a file;\n"
    "                   default from -o's extension (.h: c, .json: json, .md: md, .html: html,\n"
    "                   .svd: svd);\n"
    "                   json: the model as JSON (docs/json.md), not a template\n"
    "  --dump-context   write the data tree the templates render, as JSON: one tree, the\n"
    "                   same for every template, so no -t; regc render TEMPLATE FILE\n"
    "                   (same --escape) renders any template from it as -t does\n"
    "  -I DIR           look for partials (after the template's folder) and included\n"
    "                   spec files (after the including file's folder) in DIR\n"
    "  --escape=KIND    escaping of {{x}}: html, c, md, json or none (default from the template)\n"
    "  -MD              also write a make dependency file (OUTPUT.d unless -MF)\n"
    "  -MF FILE         the dependency file's name (implies -MD)\n"
    "  -MT TARGET       the target named in the dependency file (default: OUTPUT)\n"
    "  --check          validate the spec only; given several, each on its own (exit\n"
    "                   status: the worst of theirs)\n"
    "  --prefix NAME    C identifier prefix (default: the spec's prefix)\n"
    "  --strict         an SVD input's defects that regc repairs with a warning, and what -t svd\n"
    "                   leaves out, are errors\n"
    "  --against FILE   print every _Pos/_Msk of the vendor header FILE that disagrees with\n"
    "                   the SVD input's fields (exit 1 when some do)\n"
    "  -j N             accepted (1 to " STRING_OF(JOBS_MAX) ") and ignored: regc runs on one thread\n"
    "  -ftemplate-output-limit=N, -ftemplate-work-limit=N\n"
    "                   stop a render past N bytes of output or N steps (k, M, G\n"
    "                   suffixes; defaults 1G bytes, 256M steps; 0: no limit)\n"
    "  -Werror          treat warnings as errors; -Werror=NAME, -Wno-NAME, -WNAME for one\n"
    "  -ferror-limit=N  stop printing errors after N (default 50; 0: no limit)\n"
    "  -fno-caret-diagnostics  no source line and caret under the column\n"
    "  --list-templates list the built-in templates\n"
    "  --list-names     list the names a template may read, by type\n"
    "  --version, --help\n"
    "\n"
    "exit status: 0 success, 1 errors in the input, 2 usage errors, 3 I/O errors\n";

/* The options usage_text lists, for "did you mean" (tests/cli/run-suggest.sh: they agree). */
static const char *const option_names[] = {
    "-o", "-t", "--dump-context", "-I", "--escape=", "-MD", "-MF", "-MT", "--check", "--prefix", "--strict", "--against",
    "-j", "-ftemplate-output-limit=", "-ftemplate-work-limit=", "-Werror", "-ferror-limit=",
    "-fno-caret-diagnostics", "--list-templates", "--list-names", "--version", "--help"};

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("regc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\nTry 'regc --help' for more information.\n", stderr);
    va_end(ap);
    return EXIT_USAGE;
}

/* Takes the value of an option written "-oFILE" or "-o FILE". NULL when missing. */
static const char *option_value(int argc, char **argv, int *i, const char *opt)
{
    size_t n = strlen(opt);
    if (argv[*i][n] != '\0')
        return argv[*i] + n;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

/* A -j value: a decimal number from 1 to JOBS_MAX. regc runs on one thread
 * (docs/performance.md, "Threads"); -j is checked and kept for Makefiles. */
static bool parse_jobs(const char *v)
{
    unsigned long n = 0;
    for (const char *p = v; *p; p++) {
        if (*p < '0' || *p > '9' || (n = n * 10 + (unsigned long)(*p - '0')) > JOBS_MAX)
            return false;
    }
    return n >= 1;
}

static int unknown_option(const char *a)
{
    char hint[160];
    return usage_error("unknown option '%s'%s", a,
                       util_option_hint(hint, sizeof(hint), a, option_names, ARRAY_SIZE(option_names)));
}

/* -ferror-limit=N, -f[no-]caret-diagnostics and their gcc spellings (diag.h). 0 or -1. */
static int diagnostics_option(struct diag *dg, const char *a, int *status)
{
    int rc = diag_f_option(dg, a);
    if (rc < 0)
        *status = usage_error("'%s' needs a number of errors (0: no limit)", a);
    else if (rc == 0)
        *status = unknown_option(a);
    return rc > 0 ? 0 : -1;
}

/* Parses the command line into 'o' and -W options into 'dg'. Returns -1 on a usage error. */
static int parse_args(int argc, char **argv, struct options *o, struct diag *dg, int *status)
{
    static const char *const valued[] = {"-o", "-t", "-I", "-MF", "-MT", "-j"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *matched = NULL;
        for (size_t k = 0; k < ARRAY_SIZE(valued); k++)
            if (strncmp(a, valued[k], strlen(valued[k])) == 0)
                matched = valued[k];
        if (matched && strcmp(a, "-MD") != 0) {
            const char *v = option_value(argc, argv, &i, matched);
            if (!v || !*v)
                return *status = usage_error("option '%s' needs a value", matched), -1;
            if (strcmp(matched, "-o") == 0)
                o->output = v;
            else if (strcmp(matched, "-t") == 0)
                o->tmpl = v;
            else if (strcmp(matched, "-I") == 0)
                o->incdirs[o->nincdirs++] = v;
            else if (strcmp(matched, "-MF") == 0)
                o->depfile = true, o->depfile_path = v;
            else if (strcmp(matched, "-j") == 0) {
                if (!parse_jobs(v))
                    return *status = usage_error("-j needs a number from 1 to %d, not '%s'",
                                                 JOBS_MAX, v), -1;
            }
            else
                o->dep_target = v;
        } else if (strcmp(a, "-MD") == 0) {
            o->depfile = true;
        } else if (strcmp(a, "--check") == 0) {
            o->check_only = true;
        } else if (strcmp(a, "--strict") == 0) {
            o->strict = true;
        } else if (strncmp(a, "--against=", 10) == 0 || strcmp(a, "--against") == 0) {
            if (a[9] == '=')
                o->against = a + 10;
            else if (++i < argc)
                o->against = argv[i];
            if (!o->against || !*o->against)
                return *status = usage_error("option '%s' needs a value", "--against"), -1;
        } else if (strcmp(a, "--dump-context") == 0) {
            o->dump_context = true;
        } else if (strncmp(a, "--prefix=", 9) == 0) {
            o->prefix = a + 9;
        } else if (strcmp(a, "--prefix") == 0) {
            if (++i >= argc)
                return *status = usage_error("option '%s' needs a value", a), -1;
            o->prefix = argv[i];
        } else if (strncmp(a, "--escape=", 9) == 0) {
            o->escape = a + 9;
        } else if (tmpl_limit_option(&o->limits, a) != 0) {
            if (tmpl_limit_option(&o->limits, a) < 0)
                return *status = usage_error(TMPL_LIMIT_USAGE, a), -1;
        } else if (strncmp(a, "-W", 2) == 0) {
            char why[320];
            if (!diag_option(dg, a))
                return *status = usage_error("%s", diag_option_refusal(why, sizeof(why), a)), -1;
        } else if (strncmp(a, "-f", 2) == 0) {
            if (diagnostics_option(dg, a, status) < 0)
                return -1;
        } else if (a[0] == '-' && a[1] != '\0') {
            return *status = unknown_option(a), -1;
        } else {
            o->specs[o->nspecs++] = a;
        }
    }
    if (!o->nspecs)
        return *status = usage_error("%s", "no spec given"), -1;
    if (o->nspecs > 1 && (!o->check_only || o->against))
        return *status = usage_error("more than one spec given ('%s'); only --check without "
                                     "--against takes several", o->specs[1]), -1;
    if (o->dump_context && o->tmpl)
        return *status = usage_error("%s", "--dump-context writes the data tree; it takes no -t"), -1;
    if (o->prefix && !*o->prefix)
        return *status = usage_error("%s", "--prefix needs a non-empty name"), -1;
    if (o->prefix && !check_is_identifier(o->prefix))
        return *status = usage_error("--prefix '%s' is not a C identifier", o->prefix), -1;
    if ((o->dep_target || o->depfile) && !o->output && !o->depfile_path)
        return *status = usage_error("%s", "-MD needs -o or -MF"), -1;
    return 0;
}

/* The extension of the file name 'path' ("x.tar.svd": ".svd"), or NULL when it has none. */
static const char *extension_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base ? dot : NULL;
}

static const struct {
    const char *ext, *tmpl;
} by_extension[] = {
    {".h", "c"}, {".json", "json"}, {".md", "md"}, {".html", "html"}, {".htm", "html"},
    {".svd", "svd"}};

/* The template output 'path' asks for: by its extension, "c" with none; NULL for another one. */
static const char *template_of_output(const char *path)
{
    const char *ext = path ? extension_of(path) : NULL;
    if (!ext)
        return "c";
    for (size_t i = 0; i < ARRAY_SIZE(by_extension); i++)
        if (strcmp(ext, by_extension[i].ext) == 0)
            return by_extension[i].tmpl;
    return NULL;
}

/* The template to use: -t, else from -o's extension (checked by check_template_choice()). */
static const char *template_for(const struct options *o)
{
    if (o->tmpl)
        return o->tmpl;
    const char *t = template_of_output(o->output);
    return t ? t : "c";
}

/* -t NAME that names no built-in and no file: a usage error listing the built-ins. */
static int check_template_name(const char *name, int *status)
{
    struct tmpl tp;
    tmpl_init(&tp, NULL, NULL, 0);
    bool builtin = strcmp(name, "json") == 0 || tmpl_is_builtin(&tp, name);
    tmpl_release(&tp);
    if (builtin || strpbrk(name, "/.") || access(name, F_OK) == 0)
        return 0; /* a path is read when the spec is checked: missing, it is an I/O error */
    struct util_suggest sg;
    util_suggest_init(&sg, name);
    struct buf names = BUF_INIT; /* "c, html, md, tables, json": the built-in output templates */
    for (size_t i = 0; i < embedded_template_count; i++) {
        if (embedded_templates[i].name[0] != '_') {
            util_suggest_add(&sg, embedded_templates[i].name);
            buf_addf(&names, "%s, ", embedded_templates[i].name);
        }
    }
    util_suggest_add(&sg, "json");
    buf_adds(&names, "json");
    char hint[160];
    *status = usage_error("unknown template '%s': no built-in and no file of that name%s\n"
                          "regc: note: the built-in templates are %s (regc --list-templates)",
                          name, diag_hint(hint, sizeof(hint), util_suggest_best(&sg)), names.s);
    buf_release(&names);
    return -1;
}

/* -o with an extension that picks no template, and no -t: a usage error, not a C header. */
static int check_output_template(const char *output, int *status)
{
    if (template_of_output(output))
        return 0;
    struct buf exts = BUF_INIT;
    for (size_t i = 0; i < ARRAY_SIZE(by_extension); i++)
        buf_addf(&exts, "%s%s: %s", i ? ", " : "", by_extension[i].ext, by_extension[i].tmpl);
    *status =
        usage_error("output '%s': its extension '%s' picks no template (%s); give one with -t",
                    output, extension_of(output), exts.s);
    buf_release(&exts);
    return -1;
}

/* What to render: -t names a template, or -o picks one. 0, or -1 after a usage error. */
static int check_template_choice(const struct options *o, int *status)
{
    if (o->tmpl)
        return check_template_name(o->tmpl, status);
    return o->output ? check_output_template(o->output, status) : 0;
}

static int status_of(const struct diag *dg)
{
    if (dg->count[DIAG_IO])
        return EXIT_IO;
    return dg->nerrors ? EXIT_INPUT : 0;
}

/*
 * The computed keys a template reads, from the names its check resolves:
 * the descriptor tables' t_* names (tables.h), the doc keys (doc_*, svg;
 * context_doc.h) and the model's keys the C header does not read
 * (context_key_unread). Computing a group no name reads costs time (about a tenth
 * of a large spec's run each) and, for the doc keys, memory: without them a
 * block's registers are built one at a time. Leaving out keys a template
 * never names changes none of its output.
 */
struct key_use {
    bool table_keys, doc_keys, svd_keys; /* svd_keys: the root's "svd" (context_svd.h) */
    bool regspec_keys; /* the root's "regspec" (context_regspec.h): -t regspec */
    bool cmsis; /* c_cmsis named: the CMSIS header's layout (context_cmsis.h), refused on msr/pci */
    bool unread_keys; /* a name context_key_unread() lists ("masks", "source", ...) */
    bool any;   /* a tag the check could not follow: every key computed, nothing refused */
};

static bool starts(const char *s, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(s, prefix, n) == 0;
}

static void note_name(void *ctx, const char *name, size_t len)
{
    struct key_use *u = ctx;
    if (!name) { /* the check could not follow a tag: any name */
        u->table_keys = u->doc_keys = u->any = true;
        return;
    }
    if (len == 3 && starts(name, len, "svd"))
        u->svd_keys = true;
    if (len == 7 && starts(name, len, "regspec"))
        u->regspec_keys = true;
    if (starts(name, len, "t_")) {
        u->table_keys = true;
        name += 2;
        len -= 2;
    }
    if (starts(name, len, "doc_") || (len == 3 && starts(name, len, "svg")))
        u->doc_keys = true;
    if (len == 7 && starts(name, len, "c_cmsis"))
        u->cmsis = true;
    if (context_key_unread(name, len))
        u->unread_keys = true;
}

/* The template checked against the typed view (view.h) before it renders. 0 or -1. */
static int check_template(struct tmpl *tp, struct key_use *use)
{
    struct view_schema vs;
    view_schema_init(&vs);
    int rc = tmpl_check(tp, vs.root, note_name, use);
    view_schema_release(&vs);
    return rc;
}

/* `regc --list-names`: the names a template may read (docs/templates.md). */
static void list_names(void)
{
    struct view_schema vs;
    view_schema_init(&vs);
    struct buf b = BUF_INIT;
    view_schema_write(&vs, &b);
    fputs(b.s, stdout);
    buf_release(&b);
    view_schema_release(&vs);
}

/*
 * The output: with -o, 'file', where the renderer hands its text in runs of
 * MUS_SINK_CHUNK bytes as it is rendered (mus_options.sink; -t json: context_export()'s sink;
 * --dump-context: context_write_json()'s), then
 * 'tail'; standard output gets 'tail', the whole text, once it is complete.
 */
struct output {
    struct outfile *file; /* NULL: standard output */
    struct buf tail;
};

static void output_add(void *ctx, const char *text, size_t len)
{
    struct output *out = ctx;
    outfile_add(out->file, text, len);
}

/* Renders the checked spec into 'out' with the template 'tp' (loaded unless json). 0 or -1. */
static int render_spec(struct diag *dg, const struct options *o, const struct model_spec *spec,
                       struct tmpl *tp, struct output *out)
{
    const char *name = template_for(o);
    struct mus_options mopt = {.escape = tmpl_escape_for(name, o->output), .strict = true};
    if (o->escape && !mus_escape_parse(o->escape, &mopt.escape))
        return diag_plain_error(dg, "unknown escape kind '%s' (html, c, md, json or none)", o->escape);
    bool json = strcmp(name, "json") == 0;
    struct key_use use = {0};
    bool templated = !json && !o->dump_context;
    if (templated && (tmpl_load(tp, name) < 0 || check_template(tp, &use) < 0))
        return -1;
    /* the tree every template gets; the plain built-in C header and tables skip the keys
       they never read (below), which changes none of their output */
    struct context_options copt = {.prefix = o->prefix, .annotate = tables_annotate};
    copt.cmsis = use.cmsis || use.any || (o->dump_context && spec->device); /* issue 27 */
    if (use.cmsis && context_cmsis_check(dg, spec) < 0)
        return -1;
    if (o->dump_context) { /* that tree, for template authors */
        copt.svd_keys = context_svd_fits(spec); /* "svd": what -t svd reads, where it works */
        copt.regspec_keys = true; /* "regspec": what -t regspec reads (any spec) */
        return context_write_json(spec, &copt, out->file ? output_add : NULL, out, &out->tail);
    }
    if (json) { /* the model itself, to the output as it is walked */
        context_export(spec, out->file ? output_add : NULL, out, &out->tail);
        return 0;
    }
    /* templates: each block's subtree is built when rendered, then freed; the keys computed
       are those the template reads */
    if (!use.table_keys)
        copt.annotate = NULL; /* t_* keys (tables.h) */
    copt.no_doc_keys = !use.doc_keys;
    /* the t_* keys and the doc keys are made from the tree's other keys */
    copt.no_unread_keys = !use.unread_keys && !use.table_keys && !use.doc_keys && !use.any;
    copt.svd_keys = use.svd_keys; /* -t svd: memory-mapped specs only */
    if (use.svd_keys && context_svd_check(dg, spec) < 0)
        return -1;
    copt.regspec_keys = use.regspec_keys; /* -t regspec */
    if (use.regspec_keys && context_regspec_check(dg, spec) < 0)
        return -1;
    const struct dt *tree;
    struct context_lazy *lz = context_build_lazy(spec, &copt, &tree);
    mopt.item = context_expand;
    mopt.item_done = context_item_done;
    mopt.item_ctx = lz;
    if (out->file) {
        mopt.sink = output_add;
        mopt.sink_ctx = out;
    }
    int rc = tmpl_render(tp, tree, &mopt, &out->tail);
    context_lazy_free(lz);
    return rc;
}

/*
 * Neither -o nor the dependency file ('deps', or NULL) may be an input (the
 * spec, an include, a template, a partial) or the other one. 0 or -1.
 */
static int check_outputs(struct diag *dg, const char *output, const char *deps,
                         const struct model_spec *spec, const struct tmpl *tp)
{
    const char *outs[] = {output, deps};
    const char **ins = xmalloc((spec->ninputs + tp->ndeps + 1) * sizeof(*ins));
    size_t nin = 0;
    for (size_t i = 0; i < spec->ninputs; i++)
        ins[nin++] = spec->inputs[i];
    for (size_t i = 0; i < tp->ndeps; i++)
        ins[nin++] = tp->deps[i];
    int rc = outfile_check(dg, outs, deps ? 2 : 1, ins, nin);
    free(ins);
    return rc;
}

/*
 * The dependency file's name: -MF, else OUTPUT.d; NULL without -MD, and
 * without -o (standard output has no target to name). Caller frees.
 */
static char *depfile_path(const struct options *o)
{
    if (!o->depfile || !o->output)
        return NULL;
    struct buf path = BUF_INIT;
    if (o->depfile_path)
        buf_adds(&path, o->depfile_path);
    else
        buf_addf(&path, "%s.d", o->output);
    return buf_detach(&path, NULL);
}

/*
 * Commits the output and the dependency file ('deps', open when -MD)
 * together, all or none (outfile_commit_all()); frees both.
 */
static int write_outputs(struct diag *dg, const struct options *o, const struct model_spec *spec,
                         const struct tmpl *tp, struct output *out, struct outfile *deps,
                         const char *deps_path)
{
    if (!out->file) {
        if (fwrite(out->tail.s, 1, out->tail.len, stdout) != out->tail.len || fflush(stdout) != 0)
            return diag_report(dg, DIAG_IO, (struct srcpos){0}, "cannot write to standard output");
        return 0;
    }
    struct outfile *files[] = {out->file, deps};
    out->file = NULL;
    if (check_outputs(dg, o->output, deps_path, spec, tp) < 0) {
        outfile_abort(files[0]);
        outfile_abort(files[1]);
        return -1;
    }
    outfile_add(files[0], out->tail.s, out->tail.len);
    if (deps) {
        struct buf dep = BUF_INIT;
        depfile_format(&dep, o->dep_target ? o->dep_target : o->output, spec->inputs,
                       spec->ninputs, (const char *const *)tp->deps, tp->ndeps);
        outfile_add(deps, dep.s, dep.len);
        buf_release(&dep);
    }
    return outfile_commit_all(dg, files, deps ? 2 : 1);
}

/* After a spec NAME found nowhere: the installed spec it most likely misspells, if any. */
static void note_spec_name(struct diag *dg, const char *name)
{
    struct regc_suggest sg;
    char hint[160];
    if (specpath_suggest(name, &sg))
        diag_note(dg, (struct srcpos){0, 0, 0}, "no spec is named '%s'%s", name,
                  regc_suggest_text(&sg, hint, sizeof(hint)));
}

/* The input: a CMSIS-SVD device file (told by its content), else a regspec, read with
   the built-in schema *sc, compiled at the first regspec of the run (most of a small
   spec's check: once for all the specs of regc --check). */
static struct model_spec *load_spec(struct arena *a, struct diag *dg, const struct options *o,
                                    const char *path, struct xmlload_schema **sc)
{
    if (o->strict) /* a regspec's input has none of the SVD reader's, but the *-out-dropped */
        svd_strict(dg);
    if (svd_file_is_svd(path))
        return svd_load(a, dg, path);
    if (!*sc && !(*sc = xmlload_schema_new(dg)))
        return NULL;
    return xmlload_spec_with(a, dg, path, o->incdirs, o->nincdirs, *sc);
}

static int compile(const struct options *o, const char *spec_name, struct diag *dg,
                   struct xmlload_schema **sc)
{
    struct arena arena = ARENA_INIT;
    struct output out = {.file = NULL, .tail = BUF_INIT};
    struct outfile *deps = NULL;
    char *deps_path = depfile_path(o);
    struct tmpl tp;
    tmpl_init(&tp, dg, o->incdirs, o->nincdirs);
    tp.limits = o->limits;
    char *path = specpath_find(dg, spec_name); /* a bare name: an installed spec */
    struct model_spec *spec = path ? load_spec(&arena, dg, o, path, sc) : NULL;
    if (!spec && path == spec_name)
        note_spec_name(dg, spec_name);
    int status;
    if (spec && o->against) { /* a comparison, not an output */
        int rc = check_spec(&arena, dg, spec) == 0 ? svd_against(&arena, dg, spec, o->against, stdout) : -1;
        status = rc < 0 ? status_of(dg) : rc;
        goto out_release;
    }
    bool checked = spec && check_spec(&arena, dg, spec) == 0;
    if (checked && o->check_only && strcmp(template_for(o), "svd") == 0)
        context_svd_check(dg, spec); /* --check -t svd: what -t svd refuses */
    if (checked && o->check_only && strcmp(template_for(o), "regspec") == 0)
        context_regspec_check(dg, spec); /* --check -t regspec: what -t regspec warns of */
    /* both outputs opened (their temporary files made) before the render: a
       place that cannot be written is known before any work */
    if (checked && !o->check_only && dg->nerrors == 0 &&
        (!o->output || (out.file = outfile_open(dg, o->output))) &&
        (!deps_path || (deps = outfile_open(dg, deps_path)))) {
        if (render_spec(dg, o, spec, &tp, &out) == 0 && dg->nerrors == 0)
            write_outputs(dg, o, spec, &tp, &out, deps, deps_path);
        else
            outfile_abort(deps);
        deps = NULL;
    }
    status = status_of(dg);
out_release:
    outfile_abort(out.file); /* not written: an error came first */
    outfile_abort(deps);
    free(deps_path);
    buf_release(&out.tail);
    tmpl_release(&tp);
    arena_release(&arena);
    if (path != spec_name)
        free(path);
    return status;
}

/* Each spec compiled with a diag of its own (the options' -W and -f settings): one spec's
   errors count toward its own -ferror-limit and exit status only. The worst status. */
static int compile_each(const struct options *o, const struct diag *settings)
{
    int worst = 0;
    struct xmlload_schema *sc = NULL;
    for (size_t i = 0; i < o->nspecs; i++) {
        struct diag dg;
        diag_init_like(&dg, settings);
        int status = compile(o, o->specs[i], &dg, &sc);
        diag_finish(&dg);
        diag_release(&dg);
        worst = status > worst ? status : worst;
    }
    xmlload_schema_free(sc);
    return worst;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "render") == 0)
        return cmd_render(argc, argv);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--version") == 0) {
            printf("regc %s\n", REGC_VERSION);
            return 0;
        }
        if (strcmp(argv[i], "--help") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--list-templates") == 0) {
            tmpl_list(stdout);
            return 0;
        }
        if (strcmp(argv[i], "--list-names") == 0) {
            list_names();
            return 0;
        }
    }
    struct options o = {0};
    o.incdirs = xcalloc((size_t)argc, sizeof(*o.incdirs));
    o.specs = xcalloc((size_t)argc, sizeof(*o.specs));
    struct diag dg;
    diag_init(&dg, stderr);
    dg.caret = true;
    dg.error_limit = DIAG_ERROR_LIMIT_DEFAULT;
    int status = 0;
    if (parse_args(argc, argv, &o, &dg, &status) == 0 &&
        (o.dump_context || check_template_choice(&o, &status) == 0))
        status = compile_each(&o, &dg);
    diag_release(&dg);
    free(o.incdirs);
    free(o.specs);
    return status;
}
