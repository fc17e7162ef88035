/*
 * pmon_perf - a monitoring session through the kernel's perf_event uncore
 * PMUs (runtime/pmon_perf.h; docs/monitoring.md, "Through perf_event").
 *
 * Why not registers: the kernel's uncore driver owns the boxes it exposes
 * as PMUs; it freezes, programs, reads and accumulates them itself, and a
 * process may only open events. So on the perf backend the session programs
 * nothing: each added event becomes one perf event, its config built from
 * the very control value the register flow would write (the event's full
 * encoding: code, umask, every extra field its table entry sets, and the
 * FIELD= terms; regc_perf_config() drops the bits the kernel owns and
 * refuses any the PMU's formats cannot carry), its filter settings placed
 * in config1/config2 by the PMU's formats. The events of one PMU (one box)
 * form one group, read with one read() per group per poll; uncore PMUs
 * accept no group spanning PMUs. More events than the box's counters form
 * one group per multiplexing group of the session (they cannot be on the
 * counters together), which the kernel rotates: each read gives the
 * group's time enabled and running, and the session scales by them. Sampling every N events is sample_period
 * N, and each overflow is a record in the event's ring buffer.
 */
#include "pmon_perf.h"
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct pp_event {
    struct regc_pmon_perf out;
    unsigned index; /* position in its group's reads */
};

struct pp_group {
    struct regc_perf_pmu *pmu;
    struct regc_perf_group *g;
    unsigned rot;        /* the session's multiplexing group (regc_pmon_info.group): the kernel
                            rotates perf groups that do not fit the PMU's counters together */
    unsigned n;          /* events */
    unsigned long reads; /* read() calls */
};

struct regc__pmon_perf {
    unsigned n;
    struct pp_event *ev; /* n of them */
    struct pp_group *grp; /* at most n (one per PMU) */
    unsigned ngrp;
    bool dry_run; /* built, not opened: nothing to read */
};

bool regc__pmon_perf_wanted(const regc_dev *d)
{
    return strcmp(regc_dev_backend(d), "perf") == 0;
}

void regc__pmon_perf_free(struct regc__pmon_perf *pp)
{
    if (!pp)
        return;
    for (unsigned k = 0; k < pp->ngrp; k++) {
        regc_perf_group_free(pp->grp[k].g);
        regc_perf_pmu_close(pp->grp[k].pmu);
    }
    free(pp->ev);
    free(pp->grp);
    free(pp);
}

/* The group of PMU 'name' and multiplexing group 'rot', opened at its first event. */
static int group_for(struct regc__pmon_perf *pp, const char *root, const char *name, unsigned rot,
                     unsigned *k, char *err, size_t errlen)
{
    for (*k = 0; *k < pp->ngrp; ++*k)
        if (strcmp(regc_perf_pmu_name(pp->grp[*k].pmu), name) == 0 && pp->grp[*k].rot == rot)
            return 0;
    struct pp_group *gr = &pp->grp[pp->ngrp];
    gr->rot = rot;
    int rc = regc_perf_pmu_open(&gr->pmu, root, name, err, errlen);
    if (rc)
        return rc;
    pp->ngrp++; /* freed with pp from here on */
    return regc_perf_group_new(&gr->g);
}

static int plan_event(struct regc__pmon_perf *pp, const struct regc__pmon_event *evs, unsigned i,
                      const struct regc__where *w, const struct regc_pmon_opts *opt, char *err,
                      size_t errlen)
{
    const struct regc__pmon_event ev = evs[i];
    struct pp_event *pe = &pp->ev[i];
    char name[64], msg[400];
    regc__perf_pmu_name(&ev.info.ctl, name, sizeof(name));
    unsigned k;
    int rc = group_for(pp, w->sysfs_root, name, ev.info.groups > 1 ? ev.info.group : 0, &k, msg,
                       sizeof(msg));
    if (!rc) /* the spec's fields where the kernel's formats put them */
        rc = regc_perf_check_counters(pp->grp[k].pmu, ev.info.block, ev.info.counters, msg,
                                      sizeof(msg));
    if (!rc)
        rc = regc_perf_config(pp->grp[k].pmu, ev.info.block, ev.info.counters, ev.ctl, ev.sets,
                              ev.nsets, pe->out.config, pe->out.terms, sizeof(pe->out.terms), msg,
                              sizeof(msg));
    if (rc)
        return regc__err(err, errlen, rc, "'%.100s': %s", ev.info.name, msg);
    snprintf(pe->out.pmu, sizeof(pe->out.pmu), "%s", name);
    pe->out.type = regc_perf_pmu_type(pp->grp[k].pmu);
    pe->out.sample_period = opt->sample;
    pe->out.cpu = w->cpu;
    pe->out.group = k;
    pe->out.leader = pp->grp[k].n == 0;
    pe->index = pp->grp[k].n++;
    return 0;
}

static int open_event(struct regc__pmon_perf *pp, unsigned i, const char *evname, char *err,
                      size_t errlen)
{
    struct pp_event *pe = &pp->ev[i];
    struct pp_group *gr = &pp->grp[pe->out.group];
    char msg[400];
    int rc = pe->out.sample_period
                 ? regc_perf_group_add_sampled(gr->g, gr->pmu, pe->out.config,
                                               pe->out.sample_period, -1, pe->out.cpu, NULL, msg,
                                               sizeof(msg))
                 : regc_perf_group_add(gr->g, gr->pmu, pe->out.config, -1, pe->out.cpu, NULL, msg,
                                       sizeof(msg));
    if (rc)
        return regc__err(err, errlen, rc, "'%.100s'%s: %s", evname,
                         pe->out.leader ? "" : " (in the group of the PMU's first event)", msg);
    pe->out.open = true;
    return 0;
}

int regc__pmon_perf_start(struct regc__pmon_perf **out, const struct regc__pmon_event *evs,
                          unsigned n, regc_dev *d, const struct regc_pmon_opts *opt, char *err,
                          size_t errlen)
{
    struct regc__pmon_perf *pp = calloc(1, sizeof(*pp));
    if (pp) {
        pp->ev = calloc((size_t)n + 1, sizeof(*pp->ev));
        pp->grp = calloc((size_t)n + 1, sizeof(*pp->grp));
    }
    if (!pp || !pp->ev || !pp->grp) {
        regc__pmon_perf_free(pp);
        return regc__err(err, errlen, -ENOMEM, "out of memory");
    }
    struct regc__where w;
    regc__dev_where(d, &w);
    pp->n = n;
    pp->dry_run = w.dry_run;
    int rc = 0;
    for (unsigned i = 0; !rc && i < pp->n; i++)
        rc = plan_event(pp, evs, i, &w, opt, err, errlen);
    for (unsigned i = 0; !rc && !w.dry_run && i < pp->n; i++)
        rc = open_event(pp, i, evs[i].info.name, err, errlen);
    for (unsigned k = 0; !rc && !w.dry_run && k < pp->ngrp; k++) {
        rc = regc_perf_group_enable(pp->grp[k].g);
        if (rc)
            regc__err(err, errlen, rc, "enabling the events of PMU '%s': %s",
                      regc_perf_pmu_name(pp->grp[k].pmu), strerror(-rc));
    }
    if (rc) {
        regc__pmon_perf_free(pp);
        return rc;
    }
    *out = pp;
    return 0;
}

int regc__pmon_perf_read(struct regc__pmon_perf *pp, uint64_t *totals, unsigned long *overflows,
                         uint64_t *enabled, uint64_t *running, char *err, size_t errlen)
{
    /* group k's values at vals[base[k] ..]: the groups' events, n in all */
    uint64_t *vals = calloc((size_t)pp->n + 1, sizeof(*vals));
    size_t *base = calloc((size_t)pp->ngrp + 1, sizeof(*base));
    if (!vals || !base) {
        free(vals);
        free(base);
        return regc__err(err, errlen, -ENOMEM, "out of memory");
    }
    for (unsigned k = 0, at = 0; k < pp->ngrp; at += pp->grp[k++].n) {
        base[k] = at;
        int rc = pp->dry_run ? 0 : regc_perf_group_read(pp->grp[k].g, vals + at, pp->grp[k].n);
        pp->grp[k].reads += !pp->dry_run;
        if (rc) {
            free(vals);
            free(base);
            return regc__err(err, errlen, rc, "reading the events of PMU '%s': %s",
                             regc_perf_pmu_name(pp->grp[k].pmu), strerror(-rc));
        }
    }
    for (unsigned i = 0; i < pp->n; i++) {
        const struct pp_group *gr = &pp->grp[pp->ev[i].out.group];
        uint64_t e = 0, r = 0;
        totals[i] = vals[base[pp->ev[i].out.group] + pp->ev[i].index];
        if (!pp->dry_run)
            regc_perf_group_times(gr->g, &e, &r);
        if (enabled)
            enabled[i] = e;
        if (running)
            running[i] = r;
    }
    free(vals);
    free(base);
    for (unsigned i = 0; i < pp->n; i++) {
        const struct pp_event *pe = &pp->ev[i];
        uint64_t ovf = 0;
        int rc = pe->out.open && pe->out.sample_period
                     ? regc_perf_event_overflows(pp->grp[pe->out.group].g, pe->index, &ovf)
                     : 0;
        if (rc)
            return regc__err(err, errlen, rc, "reading the overflow records of %s: %s",
                             pe->out.pmu, strerror(-rc));
        if (overflows)
            overflows[i] = (unsigned long)ovf;
    }
    return 0;
}

int regc__pmon_perf_stop(struct regc__pmon_perf *pp, char *err, size_t errlen)
{
    int first = 0;
    for (unsigned k = 0; k < pp->ngrp && !pp->dry_run; k++) {
        int rc = regc_perf_group_disable(pp->grp[k].g);
        if (rc && !first)
            first = regc__err(err, errlen, rc, "disabling the events of PMU '%s': %s",
                              regc_perf_pmu_name(pp->grp[k].pmu), strerror(-rc));
    }
    return first;
}

int regc__pmon_perf_info(const struct regc__pmon_perf *pp, unsigned i, struct regc_pmon_perf *out)
{
    if (i >= pp->n)
        return -ENOENT;
    *out = pp->ev[i].out;
    out->group_reads = pp->grp[out->group].reads;
    return 0;
}

