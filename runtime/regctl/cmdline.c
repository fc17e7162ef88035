/*
 * cmdline - regctl's command line from its two tables (cmdline.h): global
 * options anywhere, the command, help, and one-line usage errors with a
 * "did you mean" (regc/suggest.h, the rule registers and fields use).
 */
#include "cmdline.h"

#include "regc/suggest.h"

#include <stdarg.h>
#include <string.h>

/* --help and --version, which every table has. */
enum { OPT_HELP = -1, OPT_VERSION = -2 };
static const struct cmdline_opt builtin[] = {
    {"help", NULL, "this help; 'regctl COMMAND --help': a command's", OPT_HELP},
    {"version", NULL, "regctl's version", OPT_VERSION},
    {NULL, NULL, NULL, 0}};

const struct cmdline_cmd *cmdline_find(const struct cmdline *cl, const char *name)
{
    for (const struct cmdline_cmd *c = cl->cmds; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

const struct cmdline_opt *cmdline_find_opt(const struct cmdline_opt *opts, const char *name,
                                           size_t len, bool prefix)
{
    const struct cmdline_opt *found = NULL;
    unsigned n = 0; /* options that 'name' abbreviates; two or more: ambiguous, none */
    for (const struct cmdline_opt *o = opts; o && o->name; o++) {
        if (strncmp(o->name, name, len) != 0)
            continue;
        if (o->name[len] == '\0')
            return o;
        found = o;
        n++;
    }
    return prefix && n == 1 ? found : NULL;
}

/* ---- help */

/* "  --NAME VALUE   help", continuation lines indented to the help's column. */
static void print_opts(FILE *f, const struct cmdline_opt *opts, const char *const *only)
{
    for (const struct cmdline_opt *o = opts; o && o->name; o++) {
        bool wanted = !only;
        for (const char *const *n = only; n && *n && !wanted; n++)
            wanted = strcmp(*n, o->name) == 0;
        if (!wanted)
            continue;
        char head[64];
        snprintf(head, sizeof(head), "--%s%s%s", o->name, o->value ? " " : "",
                 o->value ? o->value : "");
        if (strlen(head) > 20) /* too wide: the help on the next line */
            fprintf(f, "  %s\n  %-20s ", head, "");
        else
            fprintf(f, "  %-20s ", head);
        for (const char *h = o->help; *h;) {
            size_t n = strcspn(h, "\n");
            fprintf(f, "%.*s\n", (int)n, h);
            h += n + (h[n] == '\n');
            if (*h)
                fprintf(f, "  %-20s ", "");
        }
    }
}

static void command_help(const struct cmdline *cl, const struct cmdline_cmd *c, FILE *f)
{
    fprintf(f, "usage: %s [options] %s%s%s\n\n%s\n", cl->prog, c->name, *c->args ? " " : "",
            c->args, c->summary);
    if (*c->help)
        fprintf(f, "\n%s", c->help);
    if (c->opts) {
        fprintf(f, "\n%s options:\n", c->name);
        print_opts(f, c->opts, NULL);
    }
    if (c->globals) {
        fprintf(f, "\nglobal options it uses (before or after '%s'):\n", c->name);
        print_opts(f, cl->globals, c->globals);
    }
    fprintf(f, "\n'%s --help' lists every command and global option.\n", cl->prog);
}

void cmdline_help(const struct cmdline *cl, const struct cmdline_cmd *cmd, FILE *f)
{
    if (cmd) {
        command_help(cl, cmd, f);
        return;
    }
    fprintf(f, "usage: %s [options] COMMAND [ARGS] [options]\n\ncommands:\n", cl->prog);
    for (const struct cmdline_cmd *c = cl->cmds; c->name; c++)
        if (*c->summary)
            fprintf(f, "  %-9s %s\n", c->name, c->summary);
    fprintf(f, "\nglobal options (before or after the command):\n");
    print_opts(f, cl->globals, NULL);
    print_opts(f, builtin, NULL);
    fprintf(f,
            "\n'%s COMMAND --help' (or '%s help COMMAND') shows a command's arguments and "
            "options.\n",
            cl->prog, cl->prog);
}

int cmdline_usage_error(const struct cmdline *cl, const struct cmdline_cmd *cmd, const char *fmt,
                        ...)
{
    char more[96];
    if (cmd)
        snprintf(more, sizeof(more), "see '%s %s --help'", cl->prog, cmd->name);
    else
        snprintf(more, sizeof(more), "see '%s --help'", cl->prog);
    fprintf(stderr, "%s: ", cl->prog);
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    } else if (cmd) {
        fprintf(stderr, "usage: %s [options] %s %s", cl->prog, cmd->name, cmd->args);
    } else {
        fprintf(stderr, "usage: %s [options] COMMAND [ARGS]", cl->prog);
    }
    fprintf(stderr, " (%s)\n", more);
    return 2;
}

/* ---- parsing */

/* "; did you mean '--X'?" for an unknown option, among the globals and cmd's own. */
static char *suggest_opt(const struct cmdline *cl, const struct cmdline_cmd *cmd, const char *name,
                         char *buf, size_t len)
{
    struct regc_suggest sg;
    const struct cmdline_opt *tables[] = {cl->globals, builtin, cmd ? cmd->opts : NULL};
    regc_suggest_init(&sg, name);
    for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
        for (const struct cmdline_opt *o = tables[t]; o && o->name; o++) {
            char c[REGC_SUGGEST_MAX];
            snprintf(c, sizeof(c), "--%s", o->name);
            regc_suggest_add(&sg, c);
        }
    return regc_suggest_text(&sg, buf, len);
}

static int unknown_command(const struct cmdline *cl, const char *name)
{
    struct regc_suggest sg;
    char hint[160];
    regc_suggest_init(&sg, name);
    for (const struct cmdline_cmd *c = cl->cmds; c->name; c++)
        if (*c->summary)
            regc_suggest_add(&sg, c->name);
    return cmdline_usage_error(cl, NULL, "unknown command '%s'%s", name,
                               regc_suggest_text(&sg, hint, sizeof(hint)));
}

/* Where --help or --version ends a parse. */
static int builtin_option(const struct cmdline *cl, const struct cmdline_opt *o,
                          const struct cmdline_cmd *cmd, int argc, char **argv, int i)
{
    if (o->id == OPT_VERSION) {
        printf("%s %s\n", cl->prog, cl->version);
        return 0;
    }
    /* --help before the command: that command's help all the same (git --help COMMAND) */
    for (int j = i + 1; !cmd && j < argc && strcmp(argv[j], "--") != 0; j++)
        if (argv[j][0] != '-')
            cmd = cmdline_find(cl, argv[j]);
    cmdline_help(cl, cmd, stdout);
    return 0;
}

/* "write and monitor": the commands whose own option 'name' is, into buf; how many. */
static unsigned owners(const struct cmdline *cl, const char *name, size_t len, char *buf,
                       size_t buflen)
{
    unsigned n = 0, total = 0;
    for (const struct cmdline_cmd *c = cl->cmds; c->name; c++)
        total += cmdline_find_opt(c->opts, name, len, false) != NULL;
    buf[0] = '\0';
    for (const struct cmdline_cmd *c = cl->cmds; c->name; c++) {
        if (!cmdline_find_opt(c->opts, name, len, false))
            continue;
        size_t at = strlen(buf);
        snprintf(buf + at, buflen - at, "%s%s",
                 n == 0           ? ""
                 : n + 1 == total ? " and "
                                  : ", ",
                 c->name);
        n++;
    }
    return n;
}

struct scan {
    const struct cmdline *cl;
    int argc, i;
    char **argv;
    struct cmdline_args *out;
};

/* argv[s->i], "--NAME[=VALUE]": a global taken, or the command's own kept. -1 to go on. */
static int take_option(struct scan *s)
{
    const struct cmdline *cl = s->cl;
    const struct cmdline_cmd *cmd = s->out->cmd;
    char *arg = s->argv[s->i], *name = arg + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const struct cmdline_opt *o = cmdline_find_opt(cl->globals, name, len, false);
    const struct cmdline_opt *b = o ? NULL : cmdline_find_opt(builtin, name, len, false);
    const struct cmdline_opt *own =
        o || b || !cmd ? NULL : cmdline_find_opt(cmd->opts, name, len, true);
    if (b)
        return builtin_option(cl, b, cmd, s->argc, s->argv, s->i);
    if (own) { /* the command parses it (its getopt takes abbreviations too) */
        s->out->argv[s->out->argc++] = arg;
        if (own->value && !eq && s->i + 1 < s->argc)
            s->out->argv[s->out->argc++] = s->argv[++s->i];
        return -1;
    }
    if (!o) {
        char n[REGC_SUGGEST_MAX], hint[160];
        snprintf(n, sizeof(n), "--%.*s", (int)len, name);
        if (!cmd && owners(cl, name, len, hint, sizeof(hint)))
            return cmdline_usage_error(
                cl, NULL, "'%s' is an option of %s: it goes after the command", n, hint);
        if (cmd)
            return cmdline_usage_error(cl, cmd, "%s takes no option '%s'%s", cmd->name, n,
                                       suggest_opt(cl, cmd, n, hint, sizeof(hint)));
        return cmdline_usage_error(cl, NULL, "unknown option '%s'%s", n,
                                   suggest_opt(cl, NULL, n, hint, sizeof(hint)));
    }
    const char *value = NULL;
    if (o->value && eq)
        value = eq + 1;
    else if (o->value && s->i + 1 < s->argc)
        value = s->argv[++s->i];
    else if (o->value)
        return cmdline_usage_error(cl, cmd, "option '--%s' needs a value (%s)", o->name, o->value);
    else if (eq)
        return cmdline_usage_error(cl, cmd, "option '--%s' takes no value", o->name);
    int rc = cl->set_global(cl->ctx, o->id, value);
    return rc ? rc : -1;
}

int cmdline_parse(const struct cmdline *cl, int argc, char **argv, struct cmdline_args *out)
{
    struct scan s = {cl, argc, 1, argv, out};
    *out = (struct cmdline_args){.argv = argv + 1};
    bool ended = false; /* after "--": arguments only */
    for (; s.i < argc; s.i++) {
        char *a = argv[s.i];
        if (!ended && strcmp(a, "--") == 0) {
            ended = true;
            if (out->cmd && out->cmd->opts) /* a command with options stops parsing there */
                out->argv[out->argc++] = a;
            continue;
        }
        if (!ended && (strcmp(a, "-h") == 0 || (a[0] == '-' && a[1] == '-'))) {
            int rc = strcmp(a, "-h") == 0 ? builtin_option(cl, builtin, out->cmd, argc, argv, s.i)
                                          : take_option(&s);
            if (rc >= 0)
                return rc;
        } else if (!out->cmd) {
            if (!ended && a[0] == '-' && a[1])
                return cmdline_usage_error(cl, NULL, "unknown option '%s'", a);
            out->cmd = cmdline_find(cl, a);
            if (!out->cmd)
                return unknown_command(cl, a);
        } else {
            out->argv[out->argc++] = a;
        }
    }
    out->argv[out->argc] = NULL;
    if (!out->cmd)
        return cmdline_usage_error(cl, NULL, "no command given");
    return -1;
}
