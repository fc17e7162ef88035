#include "tmpl.h"

#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A file or built-in the templates came from: kept alive for diagnostics. */
struct tmpl_text {
    char *display; /* owned */
    char *text;    /* owned; NULL for built-ins (static) */
};

void tmpl_init(struct tmpl *tp, struct diag *dg, const char *const *incdirs, size_t nincdirs)
{
    memset(tp, 0, sizeof(*tp));
    tp->dg = dg;
    tp->incdirs = incdirs;
    tp->nincdirs = nincdirs;
    tp->builtins = embedded_templates;
    tp->nbuiltins = embedded_template_count;
}

void tmpl_release(struct tmpl *tp)
{
    mus_free(tp->main);
    mus_partials_release(&tp->partials);
    for (size_t i = 0; i < tp->ndeps; i++)
        free(tp->deps[i]);
    for (size_t i = 0; i < tp->ntexts; i++) {
        free(tp->texts[i].display);
        free(tp->texts[i].text);
    }
    free(tp->deps);
    free(tp->texts);
    free(tp->dir);
    memset(tp, 0, sizeof(*tp));
}

static const struct embedded_template *builtin_find(const struct tmpl *tp, const char *name)
{
    for (size_t i = 0; i < tp->nbuiltins; i++)
        if (strcmp(tp->builtins[i].name, name) == 0)
            return &tp->builtins[i];
    return NULL;
}

bool tmpl_is_builtin(const struct tmpl *tp, const char *name)
{
    return !strpbrk(name, "/.") && builtin_find(tp, name) != NULL;
}

/*
 * Reads a whole file (a regular file only: util_read_input()); "-" is
 * standard input. Returns 0, or -1 with 'in->err' and 'in->why'.
 */
static int slurp(const char *path, struct util_file *in)
{
    if (strcmp(path, "-") == 0)
        return util_read_stream(stdin, 0, in);
    return util_read_input(path, 0, in);
}

static struct tmpl_text *keep(struct tmpl *tp, char *display, char *text)
{
    if (tp->ntexts == tp->texts_cap)
        tp->texts = xgrow(tp->texts, &tp->texts_cap, tp->ntexts + 1, sizeof(*tp->texts));
    struct tmpl_text *k = &tp->texts[tp->ntexts++];
    k->display = display;
    k->text = text;
    return k;
}

static void add_dep(struct tmpl *tp, const char *path)
{
    for (size_t i = 0; i < tp->ndeps; i++) /* the main template may be its own partial */
        if (strcmp(tp->deps[i], path) == 0)
            return;
    if (tp->ndeps == tp->deps_cap)
        tp->deps = xgrow(tp->deps, &tp->deps_cap, tp->ndeps + 1, sizeof(*tp->deps));
    tp->deps[tp->ndeps++] = xstrdup(path);
}

static int read_error(struct tmpl *tp, const char *path, const char *why)
{
    return diag_report(tp->dg, DIAG_IO, (struct srcpos){0, 0, 0}, "cannot read '%s': %s", path,
                       why);
}

/*
 * Reads template file 'path'. Returns 1 and fills 'src', 0 if it does not
 * exist and 'missing_ok', -1 after reporting DIAG_IO.
 */
static int read_template(struct tmpl *tp, const char *path, bool missing_ok, struct mus_source *src)
{
    struct util_file in;
    if (slurp(path, &in) < 0)
        return in.err == ENOENT && missing_ok ? 0 : read_error(tp, path, in.why);
    add_dep(tp, path);
    struct tmpl_text *k = keep(tp, xstrdup(path), in.text);
    *src = (struct mus_source){k->display, k->text, in.len};
    return 1;
}

static void builtin_source(struct tmpl *tp, const struct embedded_template *e,
                           struct mus_source *src)
{
    struct buf name = BUF_INIT;
    buf_addf(&name, "builtin/%s.mustache", e->name);
    struct tmpl_text *k = keep(tp, buf_detach(&name, NULL), NULL);
    *src = (struct mus_source){k->display, e->text, e->len};
}

int tmpl_load(struct tmpl *tp, const char *name)
{
    struct mus_source src;
    if (tmpl_is_builtin(tp, name)) {
        tp->builtin = builtin_find(tp, name);
        builtin_source(tp, tp->builtin, &src);
    } else {
        if (read_template(tp, name, false, &src) < 0)
            return -1;
        tp->dir = util_dir_of(name);
    }
    tp->main = mus_compile(tp->dg, src.display_name, src.text, src.len);
    return tp->main ? 0 : -1;
}

/* Tries DIR/NAME.mustache. */
static int load_from_dir(struct tmpl *tp, const char *dir, const char *name, struct mus_source *src)
{
    struct buf path = BUF_INIT;
    if (strcmp(dir, ".") == 0)
        buf_addf(&path, "%s.mustache", name);
    else
        buf_addf(&path, "%s%s%s.mustache", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
    int rc = read_template(tp, path.s, true, src);
    buf_release(&path);
    return rc;
}

static int load_partial(void *ctx, struct diag *dg, const char *name, struct mus_source *src)
{
    struct tmpl *tp = ctx;
    int rc = 0;
    if (tp->dir)
        rc = load_from_dir(tp, tp->dir, name, src);
    for (size_t i = 0; i < tp->nincdirs && rc == 0; i++)
        rc = load_from_dir(tp, tp->incdirs[i], name, src);
    if (rc != 0)
        return rc;
    const struct embedded_template *e = tp->builtin ? builtin_find(tp, name) : NULL;
    if (!e)
        return 0;
    builtin_source(tp, e, src);
    return 1;
}

/* N[k|M|G] into *v; 0 means none: 'none'. False if it is not such a number. */
static bool parse_limit(const char *s, uint64_t none, uint64_t *v)
{
    uint64_t n = 0;
    const char *p = s;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (n > (UINT64_MAX - 9) / 10)
            return false;
        n = n * 10 + (uint64_t)(*p - '0');
    }
    int shift = !*p                   ? 0
                : strcmp(p, "k") == 0 ? 10
                : strcmp(p, "M") == 0 ? 20
                : strcmp(p, "G") == 0 ? 30
                                      : -1;
    if (p == s || shift < 0 || n > UINT64_MAX >> shift)
        return false;
    *v = n ? n << shift : none;
    return true;
}

int tmpl_limit_option(struct tmpl_limits *l, const char *arg)
{
    static const char out_opt[] = "-ftemplate-output-limit=", work_opt[] = "-ftemplate-work-limit=";
    uint64_t v;
    if (strncmp(arg, out_opt, sizeof(out_opt) - 1) == 0) {
        if (!parse_limit(arg + sizeof(out_opt) - 1, SIZE_MAX, &v) || v > SIZE_MAX)
            return -1;
        l->max_output = (size_t)v;
        return 1;
    }
    if (strncmp(arg, work_opt, sizeof(work_opt) - 1) == 0) {
        if (!parse_limit(arg + sizeof(work_opt) - 1, UINT64_MAX, &v))
            return -1;
        l->max_work = v;
        return 1;
    }
    return 0;
}

int tmpl_render(struct tmpl *tp, const struct dt *data, struct mus_options *opt, struct buf *out)
{
    opt->load = load_partial;
    opt->load_ctx = tp;
    opt->partials = &tp->partials;
    if (tp->limits.max_output)
        opt->max_output = tp->limits.max_output;
    if (tp->limits.max_work)
        opt->max_work = tp->limits.max_work;
    return mus_render(tp->dg, tp->main, data, opt, out);
}

int tmpl_check(struct tmpl *tp, const struct view_type *root, mus_name_used_fn *used,
               void *used_ctx)
{
    struct mus_options opt = {.load = load_partial, .load_ctx = tp, .partials = &tp->partials,
                              .max_work = tp->limits.max_work};
    return mus_check(tp->dg, tp->main, root, &opt, used, used_ctx);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static bool by_extension(const char *path, size_t len, enum mus_escape *kind)
{
    static const struct {
        const char *ext;
        enum mus_escape kind;
    } exts[] = {{".h", MUS_ESCAPE_C},
                {".c", MUS_ESCAPE_C},
                {".md", MUS_ESCAPE_MARKDOWN},
                {".html", MUS_ESCAPE_HTML},
                {".htm", MUS_ESCAPE_HTML},
                {".svd", MUS_ESCAPE_HTML}};
    for (size_t i = 0; i < ARRAY_SIZE(exts); i++) {
        size_t m = strlen(exts[i].ext);
        if (len >= m && memcmp(path + len - m, exts[i].ext, m) == 0) {
            *kind = exts[i].kind;
            return true;
        }
    }
    return false;
}

static const struct {
    const char *name;
    enum mus_escape kind;
    const char *desc;
} known_builtins[] = {
    {"c", MUS_ESCAPE_C, "C header: addresses, field masks and accessors, events, rule checks"},
    {"tables", MUS_ESCAPE_C, "C descriptor tables for regctl, the runtime and the simulator"},
    {"md", MUS_ESCAPE_MARKDOWN, "Markdown reference of every register and field"},
    {"html", MUS_ESCAPE_HTML, "HTML reference of every register and field"},
    {"json", MUS_ESCAPE_NONE, "JSON export of the checked model"},
    {"perf", MUS_ESCAPE_JSON, "perf's pmu-events JSON: one entry per event (docs/outputs.md)"},
    {"cmsis", MUS_ESCAPE_C,
     "CMSIS device header as svdconv writes it: struct overlay, _Pos/_Msk (docs/svd.md)"},
    {"cmsis-enum", MUS_ESCAPE_C,
     "the CMSIS header with svdconv's --fields=enum: a typedef enum per value set (docs/svd.md)"},
    {"svd", MUS_ESCAPE_HTML, "CMSIS-SVD of a memory-mapped spec: derivation, arrays, clusters kept (docs/svd.md)"},
    {"regspec", MUS_ESCAPE_HTML, "regspec XML of any spec: an SVD device imported as a cited regspec (docs/svd.md)"},
};

enum mus_escape tmpl_escape_for(const char *name, const char *output)
{
    enum mus_escape kind = MUS_ESCAPE_NONE;
    if (name && !strpbrk(name, "/."))
        for (size_t i = 0; i < ARRAY_SIZE(known_builtins); i++)
            if (strcmp(known_builtins[i].name, name) == 0)
                return known_builtins[i].kind;
    if (output && strcmp(output, "-") != 0)
        return by_extension(output, strlen(output), &kind) ? kind : MUS_ESCAPE_NONE;
    if (name && ends_with(name, ".mustache"))
        by_extension(name, strlen(name) - strlen(".mustache"), &kind);
    return kind;
}

/* The first line of a template's opening {{! comment }}, or NULL. */
static const char *comment_line(const char *text, size_t *len)
{
    if (strncmp(text, "{{!", 3) != 0)
        return NULL;
    text += 3;
    while (*text == ' ' || *text == '\n')
        text++;
    *len = strcspn(text, "\n}");
    return text;
}

/* 'json' is listed although it is no template: main.c writes the data tree itself. */
static void list(FILE *fp, const struct embedded_template *table, size_t n, bool with_json)
{
    int width = with_json ? (int)strlen("json") : 0;
    for (size_t i = 0; i < n; i++)
        if (table[i].name[0] != '_' && (int)strlen(table[i].name) > width)
            width = (int)strlen(table[i].name);
    for (size_t i = 0; i < n; i++) {
        const struct embedded_template *e = &table[i];
        if (e->name[0] == '_')
            continue;
        const char *desc = NULL;
        size_t len = 0;
        for (size_t k = 0; k < ARRAY_SIZE(known_builtins); k++)
            if (strcmp(known_builtins[k].name, e->name) == 0)
                desc = known_builtins[k].desc, len = strlen(desc);
        if (!desc)
            desc = comment_line(e->text, &len);
        fprintf(fp, "%-*s  %.*s\n", width, e->name, (int)len, desc ? desc : "");
    }
    if (with_json)
        fprintf(fp, "%-*s  %s\n", width, "json", "JSON export of the checked model (docs/json.md)");
}

void tmpl_list_from(FILE *fp, const struct embedded_template *table, size_t n)
{
    list(fp, table, n, false);
}

void tmpl_list(FILE *fp)
{
    list(fp, embedded_templates, embedded_template_count, true);
}
