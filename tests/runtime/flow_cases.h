/*
 * flow_cases.h - the polling and sampling scenarios of every family, shared by
 * test_flow_sim.c (sim backend) and test_flow_msrfs.c (msr backend through the
 * FUSE-emulated /dev/cpu/N/msr). Each case names its events with the real
 * block, instance and event names of regspec/<spec>.xml.
 *
 * Polling: 'rounds' intervals, each injecting 'poll_n[i]' events into event i
 * (three quarters of its counter range, so the counters wrap several times);
 * the totals must be exactly rounds * poll_n[i].
 * Sampling: every 'period' events; 'period + 1' events go to each event in one
 * simulated cycle, so counters in two boxes overflow at once and both must be
 * reported (Xeon 7500 preloads (2^48-1)-N and overflows on the N+1th event).
 * The E5-2600 v2 case adds the U-Box fixed counter, whose overflow has its own
 * global status bit (ov_u_fixed).
 *
 * Traces of start + one poll and start + one sample are compared with the
 * reviewed files tests/runtime/flows/<spec>-{poll,sample}.expected.
 */
#ifndef FLOW_CASES_H
#define FLOW_CASES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "regc/pmon.h"
#include "regc/regc.h"
#include "regc/sim.h"
#include "regc_specs.h"

#define FLOW_MAXEV 4

struct flow_case {
    const char *spec;
    const char *poll_events[FLOW_MAXEV];
    const char *sample_events[FLOW_MAXEV];
    uint64_t period;
    /* for the msr backend through FUSE: events in msr space only (NULL: the same as above) */
    const char *msr_poll_events[FLOW_MAXEV];
    const char *msr_sample_events[FLOW_MAXEV];
};

static const struct flow_case flow_cases[] = {
    {"e5_2600v2",
     {"ubox:EVENT_MSG.DOORBELL_RCVD", "qpi[p0]:TxL_FLITS_G0.DATA", "cbox[c3]:CLOCKTICKS",
      "ubox:fixed"},
     {"qpi[p0]:TxL_FLITS_G0.DATA", "ha[ha0]:REQUESTS.READS", "ubox:fixed"},
     1000,
     {"ubox:EVENT_MSG.DOORBELL_RCVD", "cbox[c3]:CLOCKTICKS", "pcu:CLOCKTICKS", "ubox:fixed"},
     {"cbox[c3]:CLOCKTICKS", "pcu:CLOCKTICKS", "ubox:fixed"}},
    {"e5_2600",
     {"ubox:EVENT_MSG.DOORBELL_RCVD", "cbox[cbox1]:CLOCKTICKS", "pcu:CLOCKTICKS",
      "qpi[qpi0]:CLOCKTICKS"},
     {"cbox[cbox1]:CLOCKTICKS", "pcu:CLOCKTICKS"},
     1000,
     {"ubox:EVENT_MSG.DOORBELL_RCVD", "cbox[cbox1]:CLOCKTICKS", "pcu:CLOCKTICKS"},
     {"cbox[cbox1]:CLOCKTICKS", "pcu:CLOCKTICKS"}},
    {"snb_client",
     {"cbox[cbox0]:XSNP_RESPONSE.MISS_EXTERNAL", "arb:TRK_OCCUPANCY.ALL", "unc:fixed"},
     {"cbox[cbox1]:XSNP_RESPONSE.MISS_EXTERNAL", "arb:TRK_OCCUPANCY.ALL"},
     1000,
     {NULL},
     {NULL}},
    {"xeon7100_l3",
     {"l3:raw,reg=MSR_EMON_L3_CTR_CTL_GBSQ,Type_Match=0x3f,Agent_Select=0xf",
      "l3:raw,reg=MSR_EMON_L3_CTR_CTL_FSB,Bit58=1,FSB_IOQ_active=1"},
     {"l3:raw,reg=MSR_EMON_L3_CTR_CTL_GBSQ,Type_Match=0x3f,Agent_Select=0xf",
      "l3:raw,reg=MSR_EMON_L3_CTR_CTL_GSNPQ,Type_Match=0x3f,Agent_Select=0x3f"},
     1000,
     {NULL},
     {NULL}},
    {"xeon7500_mbox",
     {"mbox[mbox0]:DSP_FILL", "mbox[mbox1]:CYCLES_MFULL"},
     {"mbox[mbox0]:DSP_FILL", "mbox[mbox1]:CYCLES_MFULL"},
     1000,
     {NULL},
     {NULL}},
};
#define FLOW_NCASES (sizeof(flow_cases) / sizeof(flow_cases[0]))

static inline const struct regc_spec *flow_spec(const char *name)
{
    for (const struct regc_spec *const *s = regc_specs; *s; s++)
        if (strcmp((*s)->name, name) == 0)
            return *s;
    return NULL;
}

static inline unsigned flow_nev(const char *const *ev)
{
    unsigned n = 0;
    while (n < FLOW_MAXEV && ev[n])
        n++;
    return n;
}

/* How a test makes events happen: in-process simulator, or the one behind msrfs. Events are
 * named (regc/sim.h): they count where the control bits encode them, never by counter. */
struct flow_env {
    int (*event)(void *ctx, const char *name, uint64_t n);
    void (*batch)(void *ctx, bool on);
    void *ctx;
};

static inline int flow_sim_event(void *ctx, const char *name, uint64_t n)
{
    return regc_sim_event(ctx, name, (int64_t)n);
}

static inline void flow_sim_batch(void *ctx, bool on)
{
    regc_sim_batch(ctx, on);
}

/* n occurrences of session event i's event, by the name it was added with. */
static inline int flow_inject(const struct flow_env *env, regc_pmon_session *p, unsigned i,
                              uint64_t n)
{
    struct regc_pmon_info in;
    int rc = regc_pmon_info(p, i, &in);
    return rc ? rc : env->event(env->ctx, in.name, n);
}

/* Polling on a started session: 6 rounds of 3/4 of each counter's range; totals exact. 0, or -1
 * with 'why'. */
static inline int flow_run_poll(regc_pmon_session *p, const struct flow_env *env, char *why,
                                size_t len)
{
    unsigned n = regc_pmon_count(p);
    uint64_t per[FLOW_MAXEV], totals[FLOW_MAXEV];
    for (unsigned i = 0; i < n; i++) {
        struct regc_pmon_info in;
        regc_pmon_info(p, i, &in);
        per[i] = (UINT64_C(3) << (in.width - 2)) + i; /* wraps every other round */
    }
    const unsigned rounds = 6;
    for (unsigned r = 0; r < rounds; r++) {
        for (unsigned i = 0; i < n; i++)
            if (flow_inject(env, p, i, per[i]) != 0)
                return snprintf(why, len, "inject event %u failed", i), -1;
        if (regc_pmon_poll(p, totals) != 0)
            return snprintf(why, len, "poll: %s", regc_pmon_error(p)), -1;
    }
    for (unsigned i = 0; i < n; i++)
        if (totals[i] != rounds * per[i])
            return snprintf(why, len, "event %u: total %llu, expected %llu", i,
                            (unsigned long long)totals[i], (unsigned long long)(rounds * per[i])),
                   -1;
    /* stopped: events are no longer counted */
    if (regc_pmon_stop(p) != 0)
        return snprintf(why, len, "stop: %s", regc_pmon_error(p)), -1;
    return 0;
}

/*
 * Sampling on a session started with 'period': below the period nothing is
 * reported; then three rounds where every counter overflows in the same
 * cycle (two boxes where the family has them): all reported, totals exact,
 * and nothing reported again once the status is cleared and re-armed.
 */
static inline int flow_run_sample(regc_pmon_session *p, const struct flow_env *env, uint64_t period,
                                  char *why, size_t len)
{
    unsigned n = regc_pmon_count(p), which[FLOW_MAXEV], got;
    for (unsigned i = 0; i < n; i++)
        if (flow_inject(env, p, i, period - 10) != 0)
            return snprintf(why, len, "inject failed"), -1;
    if (regc_pmon_sample(p, which, FLOW_MAXEV, &got) != 0 || got != 0)
        return snprintf(why, len, "below the period: %u overflows (%s)", got, regc_pmon_error(p)),
               -1;
    for (unsigned round = 1; round <= 3; round++) {
        env->batch(env->ctx, true);
        for (unsigned i = 0; i < n; i++)
            if (flow_inject(env, p, i, round == 1 ? 11 : period + 1) != 0)
                return snprintf(why, len, "inject failed"), -1;
        env->batch(env->ctx, false);
        if (regc_pmon_sample(p, which, FLOW_MAXEV, &got) != 0)
            return snprintf(why, len, "sample: %s", regc_pmon_error(p)), -1;
        if (got != n)
            return snprintf(why, len, "round %u: %u overflows reported, expected %u", round, got,
                            n),
                   -1;
        for (unsigned i = 0; i < n; i++)
            if (which[i] != i)
                return snprintf(why, len, "round %u: overflow %u is event %u", round, i, which[i]),
                       -1;
    }
    for (unsigned i = 0; i < n; i++) {
        if (regc_pmon_overflows(p, i) != 3)
            return snprintf(why, len, "event %u: %lu overflows", i, regc_pmon_overflows(p, i)), -1;
        if (regc_pmon_total(p, i) != 3 * (period + 1))
            return snprintf(why, len, "event %u: total %llu, expected %llu", i,
                            (unsigned long long)regc_pmon_total(p, i),
                            (unsigned long long)(3 * (period + 1))),
                   -1;
    }
    if (regc_pmon_sample(p, which, FLOW_MAXEV, &got) != 0 || got != 0)
        return snprintf(why, len, "after re-arming: %u overflows reported again", got), -1;
    return 0;
}

/*
 * Sampling at rates far above the period: every whole period is one overflow,
 * the remainder carries on to the next sample. Events per counter: 2.5
 * periods, 2.5 again, then 1000 periods and 7: the hardware wraps once in each
 * sample and counts on from 0, so the overflows are the events over the span
 * from the preload to the wrap (the spec's preload: N, or N+1 for 2^w-1-N),
 * cumulated: 2, 5, 1005 with N = 1000. Each sample's events come in one
 * simulated cycle, so a freeze on overflow (E5-2600 v2 ov_en, Xeon 7500
 * pmi_en, Sandy Bridge FREEZE) takes effect after all of them, as it does on
 * the cycle of the overflow.
 */
static inline int flow_run_fast_sample(regc_pmon_session *p, const struct flow_env *env,
                                       uint64_t period, char *why, size_t len)
{
    static const uint64_t tenths[] = {25, 25, 10070}; /* per sample, in tenths of a period */
    unsigned n = regc_pmon_count(p), which[FLOW_MAXEV], got;
    uint64_t sent = 0;
    for (unsigned round = 0; round < 3; round++) {
        uint64_t k = tenths[round] * period / 10;
        sent += k;
        env->batch(env->ctx, true);
        for (unsigned i = 0; i < n; i++)
            if (flow_inject(env, p, i, k) != 0)
                return snprintf(why, len, "inject failed"), -1;
        env->batch(env->ctx, false);
        if (regc_pmon_sample(p, which, FLOW_MAXEV, &got) != 0 || got != n)
            return snprintf(why, len, "round %u: %u counters overflowed, expected %u (%s)", round,
                            got, n, regc_pmon_error(p)),
                   -1;
        for (unsigned i = 0; i < n; i++) {
            struct regc_pmon_info in;
            regc_pmon_info(p, i, &in);
            uint64_t span = period + (in.counters->preload == REGC_PRELOAD_2W_MINUS_1_MINUS_N);
            unsigned long want = (unsigned long)(sent / span);
            if (regc_pmon_overflows(p, i) != want)
                return snprintf(why, len, "round %u, event %u: %lu overflows, expected %lu", round,
                                i, regc_pmon_overflows(p, i), want),
                       -1;
            if (regc_pmon_total(p, i) != sent)
                return snprintf(why, len, "round %u, event %u: total %llu, expected %llu", round,
                                i, (unsigned long long)regc_pmon_total(p, i),
                                (unsigned long long)sent),
                       -1;
        }
    }
    return 0;
}

/* Trace lines: "wr|rd NAME VALUE" for every access. */
struct flow_trace {
    char buf[16384];
    size_t len;
};

static inline void flow_trace_fn(void *ctx, bool write, const struct regc_io *io, uint64_t value,
                                 int rc)
{
    struct flow_trace *t = ctx;
    char nm[160];
    if (!t)
        return;
    const char *name = io->ref ? regc_ref_name(io->ref, nm, sizeof(nm)) : "?";
    int k = snprintf(t->buf + t->len, sizeof(t->buf) - t->len, "%s %s 0x%llx%s\n",
                     write ? "wr" : "rd", name, (unsigned long long)value, rc ? " FAILED" : "");
    if (k > 0 && t->len + (size_t)k < sizeof(t->buf))
        t->len += (size_t)k;
}

/* Compares a trace with a reviewed file ('#' lines and blank lines ignored). 0 when equal. */
static inline int flow_compare(const char *path, const char *actual, char *why, size_t whylen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, whylen, "cannot open %s", path);
        return -1;
    }
    char line[512];
    const char *a = actual;
    int lineno = 0;
    while (fgets(line, sizeof(line), f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        size_t n = strlen(line);
        if (strncmp(a, line, n) != 0) {
            const char *e = strchr(a, '\n');
            snprintf(why, whylen, "%s:%d: expected '%.*s', got '%.*s'", path, lineno, (int)n - 1,
                     line, e ? (int)(e - a) : (int)strlen(a), a);
            fclose(f);
            return -1;
        }
        a += n;
    }
    fclose(f);
    if (*a) {
        snprintf(why, whylen, "%s: unexpected extra access '%.60s'", path, a);
        return -1;
    }
    return 0;
}

/*
 * Snapshots for the sharing tests (runtime/share.c): every pmon register of
 * the boxes a session's events use (box control, every counter control and
 * counter) and the global control, read through the device. 'mask' is what
 * a release must give back: the RW and RW-V bits, less the fields a session
 * leaves frozen (box freeze, freeze-enable, enable; global freeze, unfreeze,
 * enable).
 */
#define FLOW_MAXREGS 256

struct flow_snap {
    struct regc_ref ref[FLOW_MAXREGS];
    uint64_t v[FLOW_MAXREGS], mask[FLOW_MAXREGS];
    unsigned n;
};

static inline uint64_t flow_mask_of(const struct regc_reg *r, const char *const *frozen)
{
    uint64_t m = 0;
    for (const struct regc_field *f = r->fields; f->name; f++) {
        enum regc_sem s = regc_field_sem(f);
        if (s == REGC_SEM_RW || s == REGC_SEM_RWV)
            m |= regc_field_mask(f);
    }
    for (unsigned i = 0; i < 3; i++) {
        const struct regc_field *f = frozen[i] ? regc_reg_field(r, frozen[i]) : NULL;
        if (f)
            m &= ~regc_field_mask(f);
    }
    return m;
}

static inline void flow_snap_add(struct flow_snap *s, const struct regc_ref *r,
                                 const char *const *frozen)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->ref[i].reg == r->reg && s->ref[i].instance == r->instance &&
            s->ref[i].index == r->index)
            return;
    if (s->n < FLOW_MAXREGS) {
        s->ref[s->n] = *r;
        s->mask[s->n++] = flow_mask_of(r->reg, frozen);
    }
}

static inline void flow_snap_box(struct flow_snap *s, const struct regc_spec *sp,
                                 const struct regc_block *b, const struct regc_instance *inst)
{
    const struct regc_box_control *bc = b->pmon->box_control;
    const struct regc_reg *br = bc ? regc_block_reg(b, bc->reg) : NULL;
    struct regc_ref r;
    if (br && regc_ref_make(&r, sp, b, inst, br, br->is_array ? (int)br->first : -1) == 0)
        flow_snap_add(s, &r, (const char *const[]){bc->freeze, bc->freeze_enable, bc->enable});
    for (const struct regc_counters *c = b->pmon->counters; c->control; c++) {
        const struct regc_reg *cr = regc_block_reg(b, c->control);
        for (unsigned k = 0; cr && k < (cr->is_array ? cr->count : 1); k++) {
            struct regc_ref ctl, ctr;
            if (regc_counter_refs(sp, b, inst, c, cr->is_array ? cr->first + k : 0, &ctl, &ctr) !=
                0)
                continue;
            flow_snap_add(s, &ctl, (const char *const[]){NULL, NULL, NULL});
            flow_snap_add(s, &ctr, (const char *const[]){NULL, NULL, NULL});
        }
    }
}

/* The registers of the session's boxes and the global control (values not read yet). */
static inline void flow_snap_list(struct flow_snap *s, const struct regc_spec *sp,
                                  regc_pmon_session *p)
{
    s->n = 0;
    for (unsigned i = 0; i < regc_pmon_count(p); i++) {
        struct regc_pmon_info in;
        if (regc_pmon_info(p, i, &in) == 0)
            flow_snap_box(s, sp, in.block, in.instance);
    }
    const struct regc_global_control *gc = sp->pmon_global ? sp->pmon_global->control : NULL;
    const struct regc_block *gb = gc ? regc_spec_block(sp, gc->block) : NULL;
    const struct regc_reg *gr = gb ? regc_block_reg(gb, gc->reg) : NULL;
    struct regc_ref r;
    if (gr && regc_ref_make(&r, sp, gb, NULL, gr, -1) == 0)
        flow_snap_add(s, &r, (const char *const[]){gc->freeze, gc->unfreeze, gc->enable});
}

static inline int flow_snap_read(regc_dev *d, struct flow_snap *s)
{
    for (unsigned i = 0; i < s->n; i++)
        if (regc_read(d, &s->ref[i], &s->v[i]) != 0)
            return -1;
    return 0;
}

/* 0 when every register reads as in 'before' (under its mask); else -1 and 'why'. */
static inline int flow_snap_compare(regc_dev *d, const struct flow_snap *before, char *why,
                                    size_t len)
{
    for (unsigned i = 0; i < before->n; i++) {
        uint64_t v;
        char nm[160];
        regc_ref_name(&before->ref[i], nm, sizeof(nm));
        if (regc_read(d, &before->ref[i], &v) != 0)
            return snprintf(why, len, "cannot read %s", nm), -1;
        if ((v ^ before->v[i]) & before->mask[i])
            return snprintf(why, len, "%s is 0x%llx, was 0x%llx", nm, (unsigned long long)v,
                            (unsigned long long)before->v[i]),
                   -1;
    }
    return 0;
}

#endif
