/*
 * events - `regctl events [SPEC[.BLOCK]] [PATTERN]`: the events and sub-events
 * of the specs compiled into regctl, as perf list and likwid-perfctr -e show
 * theirs. For each: the name regctl monitor takes (BLOCK:EVENT[.SUB]), the
 * spec, the description, the code and umask, the full encoding of its
 * control register (regc_event_encoding: code, umask and every further field
 * of that register it needs), the counters that may count it, and the
 * settings it needs on other registers (filters, sub-controls). PATTERN is
 * matched case-insensitively against "BLOCK:EVENT" and the description;
 * without SPEC every spec is searched. --json prints
 * one array. Each event also shows its perf alias (perfmon's EventName in
 * lower case, as perf list prints it) and, with --perf, its perf event string
 * (regc_perf_event_string: the PMU and the kernel's format terms), one line
 * per event, which `regctl monitor` and perf both take. A PATTERN with a glob
 * character (*, ? or [...], fnmatch(3)) must match a whole name instead, in
 * any case: BLOCK:EVENT, EVENT or the perfmon name ('unc_c_*', 'cbox:llc_*').
 */
#define _GNU_SOURCE /* FNM_CASEFOLD */
#include "events.h"
#include "fail.h"
#include "names.h"
#include "output.h"

#include "regc/perf.h"
#include "regc/regc.h"
#include "regc/suggest.h"

#include <ctype.h>
#include <fnmatch.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

/* ---- issue 28 (h28s): glob patterns, as perf list takes them */

/* Does 'pattern' hold a glob character (fnmatch's *, ? or [)? */
static bool is_glob(const char *pattern)
{
    return pattern && strpbrk(pattern, "*?[") != NULL;
}

/* A glob matches a name whole, in any case: BLOCK:EVENT, EVENT, or the perfmon name (perf's
 * alias is that name in lower case). */
static bool glob_matches(const char *pattern, const char *full, const struct regc_event *e)
{
    return fnmatch(pattern, full, FNM_CASEFOLD) == 0 || fnmatch(pattern, e->name, FNM_CASEFOLD) == 0 ||
           (e->perfmon && fnmatch(pattern, e->perfmon, FNM_CASEFOLD) == 0);
}
/* ---- end issue 28 (h28s) */

static bool matches(const struct regc_block *b, const struct regc_event *e, const char *pattern)
{
    char full[256];
    snprintf(full, sizeof(full), "%s:%s", b->name, e->name);
    if (is_glob(pattern))
        return glob_matches(pattern, full, e);
    return regctl_name_contains(full, pattern) || regctl_name_contains(e->desc, pattern) ||
           regctl_name_contains(e->perfmon, pattern);
}

/* "0-3", "0, 2" or "any" (no constraint) into buf. */
static const char *counters_text(uint64_t m, char *buf, size_t len)
{
    if (!m)
        return "any";
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < 64 && n < len; i++) {
        if (!((m >> i) & 1))
            continue;
        unsigned j = i;
        while (j + 1 < 64 && ((m >> (j + 1)) & 1))
            j++;
        n += (size_t)snprintf(buf + n, len - n, "%s%u", n ? ", " : "", i);
        if (j > i + 1 && n < len)
            n += (size_t)snprintf(buf + n, len - n, "-%u", j);
        else if (j == i + 1 && n < len)
            n += (size_t)snprintf(buf + n, len - n, ", %u", j);
        i = j;
    }
    return buf;
}

static bool own_set(const struct regc_event *e, const struct regc_set *s)
{
    return !s->reg || strcmp(s->reg, e->reg) == 0;
}

/* perfmon's EventName in lower case, perf's alias; "" when the spec gives none. */
static const char *alias_of(const struct regc_event *e, char *buf, size_t len)
{
    size_t i = 0;
    for (; e->perfmon && e->perfmon[i] && i + 1 < len; i++)
        buf[i] = (char)tolower((unsigned char)e->perfmon[i]);
    buf[i] = '\0';
    return buf;
}

/* --perf: "PERF-STRING  BLOCK:EVENT  [SPEC]", or the reason there is none. */
static void print_perf(const struct regc_spec *sp, const struct regc_block *b,
                       const struct regc_event *e)
{
    char str[320], err[320];
    if (regc_perf_event_string(sp, b, NULL, e, str, sizeof(str), err, sizeof(err)) == 0)
        printf("%-50s %s:%s  [%s]\n", str, b->name, e->name, sp->name);
    else
        printf("%-50s %s:%s  [%s]  (no perf string: %s)\n", "-", b->name, e->name, sp->name, err);
}

static void print_text(const struct regc_spec *sp, const struct regc_block *b,
                       const struct regc_event *e)
{
    char alias[160];
    uint64_t enc, mask;
    char ctrs[160];
    printf("%s:%s  [%s]\n", b->name, e->name, sp->name);
    if (e->desc && *e->desc)
        printf("    %s\n", e->desc);
    printf("    %s.%s = 0x%llx", b->name, e->reg,
           regc_event_encoding(b, e, &enc, &mask) == 0 ? (unsigned long long)enc : 0ull);
    printf(" (%s=0x%llx", e->field, (unsigned long long)e->code);
    if (e->has_umask && e->umask_field)
        printf(", %s=0x%llx", e->umask_field, (unsigned long long)e->umask);
    for (const struct regc_set *s = e->sets; s && s->field; s++)
        if (own_set(e, s))
            printf(", %s=0x%llx", s->field, (unsigned long long)s->value);
    printf("); counters %s\n", counters_text(e->counters, ctrs, sizeof(ctrs)));
    for (const struct regc_set *s = e->sets; s && s->field; s++)
        if (!own_set(e, s))
            printf("    needs %s.%s.%s = 0x%llx\n", b->name, s->reg, s->field,
                   (unsigned long long)s->value);
    for (const char *const *ref = e->filters; ref && *ref; ref++) {
        const struct regc_filter *f = regc_block_filter(b, *ref);
        printf("    needs the filter %s.%s set (e.g. %s=%s)\n", b->name, *ref, *ref,
               f ? f->example : "?");
    }
    for (const char *const *un = e->unmodelled_filters; un && *un; un++) {
        const struct regc_unmodelled_filter *f = regc_block_unmodelled_filter(b, *un);
        printf("    needs %s, which this spec does not model\n", f && f->what ? f->what : *un);
    }
    if (e->perfmon)
        printf("    perf alias %s\n", alias_of(e, alias, sizeof(alias)));
}

static json_t *event_json(const struct regc_spec *sp, const struct regc_block *b,
                          const struct regc_event *e)
{
    uint64_t enc = 0, mask = 0;
    char hex[24], name[256], alias[160], perf[320], err[320];
    regc_event_encoding(b, e, &enc, &mask);
    snprintf(name, sizeof(name), "%s:%s", b->name, e->name);
    json_t *o = json_object(), *ctrs = json_array(), *own = json_array(), *other = json_array();
    json_object_set_new(o, "spec", json_string(sp->name));
    json_object_set_new(o, "block", json_string(b->name));
    json_object_set_new(o, "event", json_string(e->name));
    json_object_set_new(o, "name", json_string(name));
    json_object_set_new(o, "desc", e->desc ? json_string(e->desc) : json_null());
    json_object_set_new(o, "register", json_string(e->reg));
    json_object_set_new(o, "code_field", json_string(e->field));
    snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)e->code);
    json_object_set_new(o, "code", json_string(hex));
    json_object_set_new(o, "umask_field", e->umask_field ? json_string(e->umask_field) : json_null());
    snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)e->umask);
    json_object_set_new(o, "umask", e->has_umask ? json_string(hex) : json_null());
    snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)enc);
    json_object_set_new(o, "encoding", json_string(hex));
    snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)mask);
    json_object_set_new(o, "encoding_mask", json_string(hex));
    for (unsigned i = 0; i < 64; i++) /* empty: any counter */
        if ((e->counters >> i) & 1)
            json_array_append_new(ctrs, json_integer(i));
    json_object_set_new(o, "counters", ctrs);
    for (const struct regc_set *s = e->sets; s && s->field; s++) {
        json_t *so = json_object();
        json_object_set_new(so, "register", json_string(s->reg ? s->reg : e->reg));
        json_object_set_new(so, "field", json_string(s->field));
        snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)s->value);
        json_object_set_new(so, "value", json_string(hex));
        json_array_append_new(own_set(e, s) ? own : other, so);
    }
    json_object_set_new(o, "settings", own);
    json_object_set_new(o, "filters", other);
    json_t *un = json_array();
    for (const char *const *n = e->unmodelled_filters; n && *n; n++) {
        const struct regc_unmodelled_filter *f = regc_block_unmodelled_filter(b, *n);
        json_array_append_new(un, json_string(f && f->what ? f->what : *n));
    }
    json_object_set_new(o, "unmodelled_filters", un);
    json_object_set_new(o, "perf_alias",
                        e->perfmon ? json_string(alias_of(e, alias, sizeof(alias))) : json_null());
    bool has = regc_perf_event_string(sp, b, NULL, e, perf, sizeof(perf), err, sizeof(err)) == 0;
    json_object_set_new(o, "perf", has ? json_string(perf) : json_null());
    return o;
}

/* Lists the events of b matching 'pattern' (text, or appended to 'all'); returns how many. */
static unsigned list_block(const struct regc_spec *sp, const struct regc_block *b,
                           const char *pattern, json_t *all, bool perf)
{
    unsigned n = 0;
    for (const struct regc_event *e = b->events; e && e->name; e++) {
        if (!matches(b, e, pattern))
            continue;
        if (all)
            json_array_append_new(all, event_json(sp, b, e));
        else if (perf)
            print_perf(sp, b, e);
        else
            print_text(sp, b, e);
        n++;
    }
    return n;
}

/* 'arg' as SPEC or SPEC.BLOCK: *sp and *b (NULL: every block); false when it names no spec. */
static bool scope_of(const char *arg, const struct regc_spec **sp, const struct regc_block **b)
{
    const char *dot = strchr(arg, '.');
    *sp = regctl_find_spec(arg, dot ? (size_t)(dot - arg) : strlen(arg));
    *b = NULL;
    if (!*sp)
        return false;
    if (dot)
        *b = regc_spec_block(*sp, dot + 1);
    return !dot || *b;
}

/* A SPEC[.BLOCK] that names nothing: the part that is wrong, with a "did you mean". Returns 2. */
static int bad_scope(const char *arg)
{
    char hint[160];
    const char *dot = strchr(arg, '.');
    const struct regc_spec *s = regctl_find_spec(arg, dot ? (size_t)(dot - arg) : strlen(arg));
    if (s)
        return regctl_fail(2, "events: no block '%s' in spec '%s'%s", dot + 1, s->name,
                           regctl_suggest_block(s, dot + 1, hint, sizeof(hint)));
    return regctl_fail(2, "events: '%s' names no spec or block%s", arg,
                       regctl_suggest_spec(arg, dot ? (size_t)(dot - arg) : strlen(arg), "", hint,
                                           sizeof(hint)));
}

/* "; did you mean 'X'?" for a PATTERN that matches nothing: the closest event name (BLOCK:EVENT
 * or EVENT), perfmon name or perf alias within the scope. */
static const char *suggest_event(const struct regc_spec *only, const struct regc_block *only_block,
                                 const char *pattern, char *buf, size_t len)
{
    struct regc_suggest sg;
    bool lower = false; /* the perfmon name as perf's alias (a case apart is no tie) */
    for (const char *p = pattern; *p; p++)
        lower = lower || islower((unsigned char)*p);
    regc_suggest_init(&sg, pattern);
    for (const struct regc_spec *const *s = regctl_specs; *s && !only; s++)
        regc_suggest_add(&sg, (*s)->name); /* a spec meant as the scope */
    for (const struct regc_spec *const *s = regctl_specs; *s; s++)
        for (const struct regc_block *b = (*s)->blocks; b->name && (!only || *s == only); b++)
            for (const struct regc_event *e = b->events; e && e->name; e++) {
                char full[256], alias[160];
                if (only_block && b != only_block)
                    break;
                snprintf(full, sizeof(full), "%s:%s", b->name, e->name);
                regc_suggest_add(&sg, strchr(pattern, ':') ? full : e->name);
                if (e->perfmon)
                    regc_suggest_add(&sg, lower ? alias_of(e, alias, sizeof(alias)) : e->perfmon);
            }
    return regc_suggest_text(&sg, buf, len);
}

int regctl_events(bool json, int argc, char **argv)
{
    const struct regc_spec *only = NULL;
    const struct regc_block *only_block = NULL;
    const char *pattern = NULL, *args[3];
    bool perf = false, ended = false;
    int nargs = 0;
    for (int i = 0; i < argc; i++) { /* --perf anywhere before "--" (cmdline.c passes no other) */
        if (!ended && strcmp(argv[i], "--") == 0)
            ended = true;
        else if (!ended && strncmp(argv[i], "--", 2) == 0)
            perf = true;
        else if (nargs < 3)
            args[nargs++] = argv[i];
        else
            nargs++;
    }
    if (nargs > 2)
        return regctl_fail(
            2, "events takes [--perf] [SPEC[.BLOCK]] [PATTERN] (see 'regctl events --help')");
    if (nargs == 2 && !scope_of(args[0], &only, &only_block))
        return bad_scope(args[0]);
    if (nargs == 1 && !scope_of(args[0], &only, &only_block)) {
        if (strchr(args[0], '.') && only) /* SPEC.BLOCK with a block that is not there */
            return bad_scope(args[0]);
        pattern = args[0]; /* not a scope: a search */
    } else if (nargs == 2) {
        pattern = args[1];
    }
    json_t *all = json ? json_array() : NULL;
    unsigned n = 0;
    for (const struct regc_spec *const *s = regctl_specs; *s; s++) {
        if (only && *s != only)
            continue;
        for (const struct regc_block *b = (*s)->blocks; b->name; b++)
            if (!only_block || b == only_block)
                n += list_block(*s, b, pattern, all, perf);
    }
    if (all)
        out_json_doc(all);
    if (!n && pattern) {
        char hint[160];
        return regctl_fail(1, "events: nothing matches '%s'%s", pattern,
                           suggest_event(only, only_block, pattern, hint, sizeof(hint)));
    }
    return 0;
}
