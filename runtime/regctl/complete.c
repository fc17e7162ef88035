/*
 * complete - candidates for the shell (complete.h). The words before the
 * last are read as cmdline_parse reads them (global options anywhere, the
 * command, its own options and their values), without acting on them.
 */
#include "complete.h"

#include "names.h"
#include "regc/regc.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Prints c when it starts with 'cur'. */
static void offer(const char *cur, const char *c)
{
    if (strncmp(c, cur, strlen(cur)) == 0)
        printf("%s\n", c);
}

/* Offers a, b and c (NULL: "") one after the other. */
static void offer3(const char *cur, const char *a, const char *b, const char *c)
{
    char buf[512];
    snprintf(buf, sizeof(buf), "%s%s%s", a, b ? b : "", c ? c : "");
    offer(cur, buf);
}

static void offer_opts(const char *cur, const struct cmdline_opt *opts)
{
    for (const struct cmdline_opt *o = opts; o && o->name; o++)
        offer3(cur, "--", o->name, NULL);
}

/* The value of option o: a backend's name, a directory, or nothing offered. */
static void offer_value(const char *cur, const struct cmdline_opt *o)
{
    if (strcmp(o->name, "backend") == 0) {
        for (const char *const *b = regctl_backends; *b; b++)
            offer(cur, *b);
    } else if (strstr(o->value, "DIR")) {
        printf("@dirs\n");
    }
}

/* SPEC, and with 'blocks' SPEC.BLOCK once the word has a dot. */
static void offer_scope(const char *cur, bool blocks, const char *after_spec)
{
    const char *dot = strchr(cur, '.');
    const struct regc_spec *s = dot ? regctl_find_spec(cur, (size_t)(dot - cur)) : NULL;
    if (!dot || !blocks) {
        for (const struct regc_spec *const *p = regctl_specs; *p; p++)
            offer3(cur, (*p)->name, after_spec, NULL);
        return;
    }
    for (const struct regc_block *b = s ? s->blocks : NULL; b && b->name; b++)
        offer3(cur, s->name, ".", b->name);
}

/* The registers of b after 'head' ("spec.block." or "spec.block.inst."): arrays element-wise. */
static void offer_regs(const char *cur, const char *head, const struct regc_block *b)
{
    for (const struct regc_reg *r = b->regs; r->name; r++) {
        for (unsigned k = r->first; r->is_array && k < r->first + r->count; k++) {
            char n[600];
            snprintf(n, sizeof(n), "%s%s%u", head, r->name, k);
            offer(cur, n);
        }
        if (!r->is_array)
            offer3(cur, head, r->name, NULL);
    }
}

/* SPEC.BLOCK[.INSTANCE].REG, one part at a time. */
static void offer_path(const char *cur)
{
    const char *d1 = strchr(cur, '.'), *d2 = d1 ? strchr(d1 + 1, '.') : NULL;
    const struct regc_spec *s = d1 ? regctl_find_spec(cur, (size_t)(d1 - cur)) : NULL;
    if (!d1 || !s) {
        offer_scope(cur, false, ".");
        return;
    }
    char head[256];
    if (!d2) {
        for (const struct regc_block *b = s->blocks; b->name; b++) {
            char n[256];
            snprintf(n, sizeof(n), "%s.%s.", s->name, b->name);
            offer(cur, n);
        }
        return;
    }
    snprintf(head, sizeof(head), "%.*s", (int)(d2 - d1 - 1), d1 + 1);
    const struct regc_block *b = regc_spec_block(s, head);
    if (!b)
        return;
    const char *d3 = strchr(d2 + 1, '.');
    snprintf(head, sizeof(head), "%.*s", (int)((d3 ? d3 : d2) - cur + 1), cur);
    if (!d3 && regc_block_ninstances(b) > 1)
        for (const struct regc_instance *i = b->instances; i->name; i++)
            offer3(cur, head, i->name, ".");
    offer_regs(cur, head, b);
}

/* FIELD= of the register 'path' names. */
static void offer_fields(const char *cur, const char *path)
{
    const char *dot = strchr(path, '.');
    const struct regc_spec *s = dot ? regctl_find_spec(path, (size_t)(dot - path)) : NULL;
    struct regc_ref r;
    if (!s || regc_resolve(s, dot + 1, &r, NULL, 0) < 0)
        return;
    for (const struct regc_field *f = r.reg->fields; f->name; f++)
        if (strcmp(f->name, "rsv") != 0 && strcmp(f->name, "gap") != 0)
            offer3(cur, f->name, "=", NULL);
}

/* BLOCK: of the blocks with events, then BLOCK:EVENT; perfmon names in lower case (perf's
 * aliases) once something is typed. */
static void offer_events(const char *cur, const char *spec)
{
    const struct regc_spec *s = regctl_find_spec(spec, strlen(spec));
    const char *colon = strchr(cur, ':');
    for (const struct regc_block *b = s ? s->blocks : NULL; b && b->name; b++) {
        if (!b->events || !b->events->name)
            continue;
        size_t bl = strlen(b->name);
        if (!colon)
            offer3(cur, b->name, ":", NULL);
        else if (strncmp(cur, b->name, bl) == 0 && (cur[bl] == ':' || cur[bl] == '['))
            for (const struct regc_event *e = b->events; e->name; e++) {
                char n[320]; /* keeps "cbox[c3]:" as typed */
                snprintf(n, sizeof(n), "%.*s%s", (int)(colon - cur + 1), cur, e->name);
                offer(cur, n);
            }
        for (const struct regc_event *e = b->events; !colon && *cur && e->name; e++) {
            char alias[160];
            size_t i = 0;
            for (; e->perfmon && e->perfmon[i] && i + 1 < sizeof(alias); i++)
                alias[i] = (char)tolower((unsigned char)e->perfmon[i]);
            alias[i] = '\0';
            if (i)
                offer(cur, alias);
        }
    }
}

/* The positional argument k of cmd ('complete' letters, cmdline.h); args: those before it. */
static void offer_arg(const struct cmdline *cl, const struct cmdline_cmd *cmd, int k, char **args,
                      const char *cur)
{
    size_t n = strlen(cmd->complete);
    if (!n)
        return;
    bool rep = cmd->complete[n - 1] == '*';
    size_t last = n - 1 - rep;
    char kind = (size_t)k <= last ? cmd->complete[k] : rep ? cmd->complete[last] : 0;
    switch (kind) {
    case 'c':
        for (const struct cmdline_cmd *c = cl->cmds; c->name; c++)
            if (*c->summary)
                offer(cur, c->name);
        break;
    case 's':
        offer_scope(cur, false, "");
        break;
    case 'b':
        offer_scope(cur, true, "");
        break;
    case 'r':
        offer_path(cur);
        break;
    case 'f':
        offer_fields(cur, args[0]);
        break;
    case 'e':
        offer_events(cur, args[0]);
        break;
    default:
        break;
    }
}

int regctl_complete(const struct cmdline *cl, int nwords, char **words)
{
    const char *cur = nwords > 0 ? words[nwords - 1] : "";
    const struct cmdline_cmd *cmd = NULL;
    const struct cmdline_opt *want = NULL; /* the option whose value 'cur' is */
    char *args[64];
    int nargs = 0;
    bool ended = false;
    for (int i = 0; i < nwords - 1; i++) {
        const char *w = words[i];
        want = NULL;
        if (!ended && strcmp(w, "--") == 0) {
            ended = true;
        } else if (!ended && w[0] == '-' && w[1] == '-') {
            size_t len = strcspn(w + 2, "=");
            const struct cmdline_opt *o = cmdline_find_opt(cl->globals, w + 2, len, false);
            if (!o && cmd)
                o = cmdline_find_opt(cmd->opts, w + 2, len, true);
            if (o && o->value && !w[2 + len])
                want = o;
        } else if (!cmd) {
            cmd = cmdline_find(cl, w);
        } else if (nargs < (int)(sizeof(args) / sizeof(args[0]))) {
            args[nargs++] = words[i];
        }
        if (want && i + 1 < nwords - 1) { /* its value: skip it */
            i++;
            want = NULL;
        }
    }
    if (want)
        offer_value(cur, want);
    else if (!ended && cur[0] == '-') {
        offer_opts(cur, cl->globals);
        offer_opts(cur, cmd ? cmd->opts : NULL);
        offer(cur, "--help");
        if (!cmd)
            offer(cur, "--version");
    } else if (!cmd) {
        for (const struct cmdline_cmd *c = cl->cmds; c->name; c++)
            if (*c->summary)
                offer(cur, c->name);
    } else {
        offer_arg(cl, cmd, nargs, args, cur);
    }
    return 0;
}
