/*
 * metrics - `regctl metrics [SPEC] [PATTERN]`, and monitor's --metric: the
 * metrics (<metric>) of the specs compiled into regctl, as perf list shows
 * perf's metrics and likwid-perfctr -a its groups. For each: the name
 * monitor --metric takes, the unit, the formula, the events it needs, the
 * description and the cited source. PATTERN is matched case-insensitively
 * against the name and the description; without SPEC every spec is
 * searched. --json prints one array.
 *
 * For monitor, a metric's events become monitor event strings through
 * term_events(), the one place a term is turned into counters: an event with
 * an instance is counted there; one without is counted on every instance of
 * its block and summed (the aggregation of issue 28, item 3, hooks in here).
 */
#include "metrics.h"
#include "fail.h"
#include "names.h"
#include "output.h"

#include "regc/suggest.h"

#include <math.h>
#include <string.h>

/* ---- regctl metrics */

static bool matches(const struct regc_metric *m, const char *pattern)
{
    return regctl_name_contains(m->name, pattern) || regctl_name_contains(m->desc, pattern);
}

static void print_text(const struct regc_spec *s, const struct regc_metric *m)
{
    printf("%s  (%s, %s)\n", m->name, s->name, m->unit);
    printf("    = (%s) x %g\n", m->formula, m->scale);
    if (m->desc)
        printf("    %s\n", m->desc);
    for (const struct regc_metric_event *e = m->events; e && e->block; e++)
        printf("    needs %s%s\n", e->text,
               e->instance ? "" : " (every instance of the block, summed)");
    if (m->cite.src || m->cite.cite)
        printf("    source: %s%s%s\n", m->cite.src ? m->cite.src : "",
               m->cite.src && m->cite.cite ? "; " : "", m->cite.cite ? m->cite.cite : "");
}

static json_t *metric_json(const struct regc_spec *s, const struct regc_metric *m)
{
    json_t *evs = json_array();
    for (const struct regc_metric_event *e = m->events; e && e->block; e++)
        json_array_append_new(evs, json_pack("{s:s, s:s, s:s?, s:s, s:s?}", "text", e->text,
                                             "block", e->block, "instance", e->instance, "event",
                                             e->event, "settings", e->settings));
    return json_pack("{s:s, s:s, s:s, s:s, s:f, s:s?, s:o, s:{s:s?, s:s?}}", "spec", s->name,
                     "name", m->name, "formula", m->formula, "unit", m->unit, "scale", m->scale,
                     "desc", m->desc, "events", evs, "source", "src", m->cite.src, "cite",
                     m->cite.cite);
}

static const char *suggest_metric(const struct regc_spec *only, const char *pattern, char *buf,
                                  size_t len)
{
    struct regc_suggest sg;
    regc_suggest_init(&sg, pattern);
    for (const struct regc_spec *const *s = regctl_specs; *s; s++)
        for (const struct regc_metric *m = (*s)->metrics; m && m->name && (!only || *s == only);
             m++)
            regc_suggest_add(&sg, m->name);
    return regc_suggest_text(&sg, buf, len);
}

int regctl_metrics(bool json, int argc, char **argv)
{
    const struct regc_spec *only = NULL;
    const char *pattern = NULL;
    if (argc > 2)
        return regctl_fail(2, "metrics takes [SPEC] [PATTERN] (see 'regctl metrics --help')");
    if (argc >= 1)
        only = regctl_find_spec(argv[0], strlen(argv[0]));
    if (argc == 2 && !only) {
        char hint[160];
        return regctl_fail(2, "metrics: no spec '%s'%s", argv[0],
                           regctl_suggest_spec(argv[0], strlen(argv[0]), " (see 'regctl list')",
                                               hint, sizeof(hint)));
    }
    if (argc >= 1 && (!only || argc == 2))
        pattern = argv[argc - 1]; /* one argument that is no spec: a search */
    json_t *all = json ? json_array() : NULL;
    unsigned n = 0;
    for (const struct regc_spec *const *s = regctl_specs; *s; s++)
        for (const struct regc_metric *m = (*s)->metrics; m && m->name && (!only || *s == only);
             m++) {
            if (!matches(m, pattern))
                continue;
            if (all)
                json_array_append_new(all, metric_json(*s, m));
            else
                print_text(*s, m);
            n++;
        }
    if (all)
        out_json_doc(all);
    if (!n && pattern) {
        char hint[160];
        return regctl_fail(1, "metrics: nothing matches '%s'%s", pattern,
                           suggest_metric(only, pattern, hint, sizeof(hint)));
    }
    return 0;
}

/* ---- monitor --metric */

int regctl_metrics_request(struct regctl_metrics *ms, const char *name)
{
    for (unsigned i = 0; i < ms->nnames; i++)
        if (strcmp(ms->names[i], name) == 0)
            return 0;
    if (ms->nnames == REGCTL_MAX_METRICS)
        return regctl_fail(2, "monitor: at most %d --metric", REGCTL_MAX_METRICS);
    ms->names[ms->nnames++] = name;
    return 0;
}

/* Where a planned event goes: monitor's list and the metrics' own strings. */
struct plan {
    struct regctl_metrics *ms;
    const char **events;
    unsigned *nev, max;
    const char *metric;
};

/* Event 'name' in monitor's list (added when not there): its index, or -1 with a message. */
static int event_slot(struct plan *p, const char *name)
{
    for (unsigned i = 0; i < *p->nev; i++)
        if (strcmp(p->events[i], name) == 0)
            return (int)i;
    if (*p->nev == p->max || p->ms->nowned == REGCTL_METRIC_MAX_EVENTS) {
        fprintf(stderr,
                "regctl: monitor: --metric %s: the metrics of one run may add at most %d events "
                "(REGCTL_METRIC_MAX_EVENTS); this one needs more\n",
                p->metric, REGCTL_METRIC_MAX_EVENTS);
        return -1;
    }
    char *own = p->ms->owned[p->ms->nowned++];
    memcpy(own, name, strlen(name) + 1); /* event_name() made it fit */
    p->events[*p->nev] = own;
    return (int)(*p->nev)++;
}

/* "BLOCK[INSTANCE]:EVENT,SETTINGS" (no instance: "BLOCK:EVENT...") into out; -1 with a message if too long. */
static int event_name(char out[REGCTL_METRIC_EVENT_MAX], const char *block, const char *instance,
                      const struct regc_metric_event *t)
{
    const char *set = t->settings ? t->settings : "";
    int n = instance ? snprintf(out, REGCTL_METRIC_EVENT_MAX, "%s[%s]:%s%s", block, instance,
                                t->event, set)
                     : snprintf(out, REGCTL_METRIC_EVENT_MAX, "%s:%s%s", block, t->event, set);
    if (n >= 0 && n < REGCTL_METRIC_EVENT_MAX)
        return 0;
    return regctl_fail(-1, "monitor: --metric: the event name %s:%s%s is longer than %d bytes",
                       block, t->event, set, REGCTL_METRIC_EVENT_MAX - 1);
}

/*
 * The monitor event term 't' of a metric of 's' stands for, given to fn(ctx,
 * "BLOCK[INSTANCE]:EVENT,SETTINGS"): the one instance it names; without one, "BLOCK:EVENT",
 * which monitor counts on every box of the block and sums (an event given without a box). Two
 * metrics naming one box's event get one counter: pmon gives identical requests of a box the
 * same counter. 0, or fn's return.
 */
static int term_events(const struct regc_metric_event *t, int (*fn)(void *ctx, const char *event),
                       void *ctx)
{
    char name[REGCTL_METRIC_EVENT_MAX];
    return event_name(name, t->block, t->instance, t) ? 2 : fn(ctx, name);
}

static int add_slot(void *ctx, const char *event)
{
    struct plan *p = ctx;
    int i = event_slot(p, event);
    if (i < 0 || p->ms->nslots == sizeof(p->ms->slots) / sizeof(p->ms->slots[0])) {
        if (i >= 0)
            fprintf(stderr, "regctl: monitor: --metric: too many events\n");
        return 2;
    }
    p->ms->slots[p->ms->nslots++] = (unsigned)i;
    return 0;
}

static int no_metric(const struct regc_spec *s, const char *name)
{
    struct regc_suggest sg;
    char hint[160];
    regc_suggest_init(&sg, name);
    for (const struct regc_metric *m = s->metrics; m && m->name; m++)
        regc_suggest_add(&sg, m->name);
    fprintf(stderr, "regctl: monitor: no metric '%s' in spec '%s'%s\n", name, s->name,
            regc_suggest_text(&sg, hint, sizeof(hint)));
    if (!strchr(hint, '\''))
        fprintf(stderr, "regctl: monitor: 'regctl metrics %s' lists them\n", s->name);
    return 2;
}

int regctl_metrics_plan(struct regctl_metrics *ms, const struct regc_spec *s, const char **events,
                        unsigned *nev, unsigned max)
{
    for (unsigned k = 0; k < ms->nnames; k++) {
        const struct regc_metric *m = regc_spec_metric(s, ms->names[k]);
        if (!m)
            return no_metric(s, ms->names[k]);
        struct regctl_metric_use *u = &ms->use[ms->n++];
        struct plan p = {ms, events, nev, max, m->name};
        u->m = m;
        for (const struct regc_metric_event *t = m->events; t && t->block; t++, u->nterms++) {
            if (u->nterms == REGCTL_METRIC_MAX_EVENTS)
                return regctl_fail(2, "monitor: --metric %s names more than %d events", m->name,
                                   REGCTL_METRIC_MAX_EVENTS);
            u->first[u->nterms] = ms->nslots;
            if (term_events(t, add_slot, &p))
                return 2;
            u->count[u->nterms] = ms->nslots - u->first[u->nterms];
        }
    }
    return 0;
}

double regctl_metrics_value(const struct regctl_metrics *ms, unsigned k, const uint64_t *counts,
                            double seconds)
{
    const struct regctl_metric_use *u = &ms->use[k];
    double terms[REGCTL_METRIC_MAX_EVENTS];
    for (unsigned j = 0; j < u->nterms; j++) {
        uint64_t sum = 0; /* a count sums as the counters do, modulo 2^64 */
        for (unsigned i = 0; i < u->count[j]; i++)
            sum += counts[ms->slots[u->first[j] + i]];
        terms[j] = (double)sum;
    }
    return regc_metric_eval(u->m, terms, seconds);
}

const char *regctl_metric_text(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "n/a");
    else
        snprintf(buf, len, "%.6g", v);
    return buf;
}

void regctl_metrics_print(const struct regctl_metrics *ms, FILE *out, const char *label,
                          const uint64_t *counts, double seconds)
{
    for (unsigned k = 0; k < ms->n; k++) {
        char v[32];
        regctl_metric_text(regctl_metrics_value(ms, k, counts, seconds), v, sizeof(v));
        fprintf(out, "%8s  metric %-24s %14s %s\n", label, ms->use[k].m->name, v,
                ms->use[k].m->unit);
    }
}

void regctl_metrics_csv(const struct regctl_metrics *ms, FILE *out, const char *label,
                        const char *socket, const uint64_t *counts, double seconds)
{
    for (unsigned k = 0; k < ms->n; k++) {
        double v = regctl_metrics_value(ms, k, counts, seconds);
        fprintf(out, "%s,%s,metric:%s,", label, socket, ms->use[k].m->name);
        if (!isnan(v))
            fprintf(out, "%.17g", v);
        fprintf(out, ",%s\n", ms->use[k].m->unit);
    }
}

json_t *regctl_metrics_json(const struct regctl_metrics *ms, const uint64_t *counts,
                            double seconds)
{
    json_t *o = json_object();
    for (unsigned k = 0; k < ms->n; k++) {
        double v = regctl_metrics_value(ms, k, counts, seconds);
        json_object_set_new(o, ms->use[k].m->name,
                            json_pack("{s:o, s:s}", "value", isnan(v) ? json_null() : json_real(v),
                                      "unit", ms->use[k].m->unit));
    }
    return o;
}
