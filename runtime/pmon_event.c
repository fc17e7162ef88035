/*
 * pmon_event - an event as the user names it, "BLOCK[INST]:EVENT[,FIELD=VALUE...]"
 * or in perf's language, parsed against the spec into one box's event of a
 * monitoring session (runtime/pmon_int.h): its block and instance, counter
 * group, allowed counters, direction and field settings, and the checks that
 * it can be counted (shared settings, filters). Moved out of pmon.c, which
 * drives the counters.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "pmon_int.h"

#define fail regc__pmon_fail /* the session's error setter (pmon_int.h) */

/* ---- parsing "BLOCK[INST]:EVENT[,FIELD=VALUE...]" */

static int parse_target(regc_pmon_session *p, struct pmon_ev *e, char *spec)
{
    const char *inst;
    int rc = regc__block_target(p->s, spec, &e->b, &e->inst, &inst);
    if (rc == -EINVAL)
        return fail(p, rc, "'%s': expected BLOCK[INSTANCE]", e->name);
    char hint[160];
    if (!e->b)
        return fail(p, -ENOENT, "'%s': no block '%s' in spec '%s'%s", e->name, spec, p->s->name,
                    regc__suggest_block(p->s, spec, hint, sizeof(hint)));
    if (!e->b->pmon)
        return fail(p, -ENOENT, "'%s': block '%s' has no performance monitors", e->name, spec);
    if (rc < 0)
        return fail(p, rc, "'%s': block '%s' has no instance '%s'", e->name, spec, inst);
    return 0;
}

static int add_set(regc_pmon_session *p, struct pmon_ev *e, const struct regc_reg *reg,
                   const char *field, uint64_t v)
{
    if (e->nsets >= MAX_SETS)
        return fail(p, -ENOSPC, "'%s': too many field settings", e->name);
    const struct regc_reg *r = reg;
    if (!r) {
        const struct regc_counters *c = e->c;
        r = c ? regc_block_reg(e->b, c->control) : NULL;
    }
    const struct regc_field *f = r ? regc_reg_field(r, field) : NULL;
    if (!f)
        return fail(p, -ENOENT, "'%s': no field '%s' in '%s'", e->name, field, r ? r->name : "?");
    char why[96];
    if (regc_num_check(v, 0, regc_num_max_bits(f->msb - f->lsb + 1u), 0, why, sizeof(why)))
        return fail(p, -ERANGE, "'%s': value 0x%llx for field '%s' [%u:%u] of '%s': %s", e->name,
                    (unsigned long long)v, f->name, f->msb, f->lsb, r->name, why);
    e->sets[e->nsets++] = (struct pmon_set){.reg = reg, .field = f, .value = v};
    return 0;
}

static int parse_event(regc_pmon_session *p, struct pmon_ev *e, const char *ev)
{
    if (regc__streq(ev, "fixed")) {
        e->c = regc__block_group(e->b, true);
        return e->c
                   ? 0
                   : fail(p, -ENOENT, "'%s': block '%s' has no fixed counter", e->name, e->b->name);
    }
    if (regc__streq(ev, "raw"))
        return 0; /* the group comes from reg= */
    e->e = regc_block_event(e->b, ev);
    char hint[160];
    if (!e->e)
        return fail(p, -ENOENT, "'%s': block '%s' has no event '%s'%s", e->name, e->b->name, ev,
                    regc__suggest_event(e->b, ev, hint, sizeof(hint)));
    e->c = regc__block_counters(e->b, e->e->reg);
    if (!e->c)
        return fail(p, -ENOENT, "'%s': no counters are controlled by '%s'", e->name, e->e->reg);
    e->allowed = e->e->counters;
    return 0;
}

/* dir=up|down|up-down: the count direction, where the event's counters have a direction field. */
static int parse_dir(regc_pmon_session *p, struct pmon_ev *e, const char *v)
{
    static const struct {
        const char *name;
        enum regc_direction dir;
    } dirs[] = {{"up", REGC_DIR_UP}, {"down", REGC_DIR_DOWN}, {"up-down", REGC_DIR_UP_DOWN}};
    uint64_t value;
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        if (!regc__streq(v, dirs[i].name))
            continue;
        if (!e->c)
            return fail(p, -EINVAL, "'%s': a raw event needs reg=CONTROL first", e->name);
        if (!regc_counters_dir_value(e->c, dirs[i].dir, &value))
            return fail(p, -EINVAL, "'%s': the counters of '%s' cannot count %s", e->name,
                        e->c->control, v);
        e->dir = dirs[i].dir;
        return 0;
    }
    return fail(p, -EINVAL, "'%s': bad direction '%s' (up, down or up-down)", e->name, v);
}

/* ==== perf's language (runtime/perf_lang.c; docs/monitoring.md "perf's language") ====
 * A perf event string (PMU/TERM=VALUE,.../), a perfmon/perf alias or a regc name in another
 * case, as regc's own syntax in buf (the event keeps the name the user gave); REG.FIELD=VALUE
 * terms (in parse_terms) carry the filter fields of a perf string's config1/config2. */
static int perf_language(regc_pmon_session *p, const char *name, char *buf, size_t len)
{
    char err[REGC_ERRLEN];
    int rc = regc__perf_lang(p->s, name, buf, len, err, sizeof(err));
    if (rc < 0)
        return fail(p, rc, "%s", err);
    if (rc == 0)
        snprintf(buf, len, "%s", name);
    return 0;
}

static int reg_field_term(regc_pmon_session *p, struct pmon_ev *e, char *term, uint64_t v)
{
    char *dot = strchr(term, '.');
    *dot = '\0';
    const struct regc_reg *r = regc_block_reg(e->b, term);
    if (!r)
        return fail(p, -ENOENT, "'%s': no register '%s' in block '%s'", e->name, term, e->b->name);
    return add_set(p, e, r, dot + 1, v);
}
/* ==== end of perf's language ==== */

static int parse_terms(regc_pmon_session *p, struct pmon_ev *e, char *terms)
{
    for (char *t = terms, *next; t && *t; t = next) {
        next = strchr(t, ',');
        if (next)
            *next++ = '\0';
        char *eq = strchr(t, '=');
        if (!eq)
            return fail(p, -EINVAL, "'%s': expected FIELD=VALUE, got '%s'", e->name, t);
        *eq++ = '\0';
        if (regc__streq(t, "reg")) {
            e->c = regc__block_counters(e->b, eq);
            if (!e->c)
                return fail(p, -ENOENT, "'%s': no counters are controlled by '%s'", e->name, eq);
            continue;
        }
        if (regc__streq(t, "dir")) {
            int rc = parse_dir(p, e, eq);
            if (rc)
                return rc;
            continue;
        }
        uint64_t v;
        char why[96];
        if (regc_num_parse(eq, REGC_NUM_NUL, 0, UINT64_MAX, 0, &v, why, sizeof(why)))
            return fail(p, -EINVAL, "'%s': value '%s' for '%s': %s", e->name, eq, t, why);
        if (regc__streq(t, "ctr")) { /* pin the counter (array index), if the event allows it */
            if (v >= 64 || (e->allowed && !((e->allowed >> v) & 1)))
                return fail(p, -EINVAL, "'%s': counter %llu cannot count it", e->name,
                            (unsigned long long)v);
            e->allowed = UINT64_C(1) << v;
            continue;
        }
        if (!e->c)
            return fail(p, -EINVAL, "'%s': a raw event needs reg=CONTROL first", e->name);
        int rc = strchr(t, '.') ? reg_field_term(p, e, t, v) : add_set(p, e, NULL, t, v);
        if (rc)
            return rc;
    }
    if (!e->c)
        return fail(p, -EINVAL, "'%s': a raw event needs reg=CONTROL", e->name);
    return 0;
}

/*
 * The event's <set>s: on its own control register (register NULL, as
 * regc/desc.h says, or named: hand-written tables) they go into the control
 * value; on another register of the block (a filter, an M-Box sub-control,
 * match/mask) into that register of the event's box instance.
 */
static int event_sets(regc_pmon_session *p, struct pmon_ev *e)
{
    for (const struct regc_set *s = e->e ? e->e->sets : NULL; s && s->field; s++) {
        bool own = !s->reg || regc__streq(s->reg, e->c->control);
        const struct regc_reg *r = own ? NULL : regc_block_reg(e->b, s->reg);
        if (!own && !r)
            return fail(p, -ENOENT, "'%s': no register '%s'", e->name, s->reg);
        int rc = add_set(p, e, r, s->field, s->value);
        if (rc)
            return rc;
    }
    return 0;
}

/* The event sets its filter 'ref' ("REG.field"), by its own <set> or a REG.FIELD= term. */
static bool sets_filter(const struct pmon_ev *e, const struct regc_filter *f)
{
    for (unsigned i = 0; i < e->nsets; i++)
        if (e->sets[i].reg && regc__streq(e->sets[i].reg->name, f->reg) &&
            regc__streq(e->sets[i].field->name, f->field))
            return true;
    return false;
}

/*
 * An event that counts through a box filter (regc_event.filters) counts nothing, or the wrong
 * thing, with the filter left as it is: refuse it without the filter, naming the filter, what it
 * selects and a setting to start from.
 */
static int check_filters(regc_pmon_session *p, const struct pmon_ev *e)
{
    for (const char *const *ref = e->e && e->e->filters ? e->e->filters : NULL; ref && *ref;
         ref++) {
        const struct regc_filter *f = regc_block_filter(e->b, *ref);
        if (!f || sets_filter(e, f))
            continue;
        char perf[96] = "";
        if (f->perf)
            snprintf(perf, sizeof(perf), " (perf: %s=%s)", f->perf, f->example);
        return fail(p, -EINVAL,
                    "'%s' counts through the filter %s.%s, which it does not set: %s; add "
                    "',%s.%s=%s'%s; or turn the check off (regctl --no-filter-check)",
                    e->name, f->reg, f->field, f->desc ? f->desc : "see the spec", f->reg, f->field,
                    f->example, perf);
    }
    /* a filter the spec does not model: regc can neither set it nor check it, so the count would
     * hold whatever the filter registers happen to select */
    const char *const *un = e->e ? e->e->unmodelled_filters : NULL;
    if (un && *un) {
        char what[512] = "";
        size_t at = 0;
        for (; *un && at < sizeof(what); un++) {
            const struct regc_unmodelled_filter *f = regc_block_unmodelled_filter(e->b, *un);
            int n = snprintf(what + at, sizeof(what) - at, "%s%s", at ? " and " : "",
                             f && f->what ? f->what : *un);
            at += n > 0 ? (size_t)n : 0;
        }
        return fail(p, -EINVAL,
                    "'%s' needs %s, which this spec does not model; --no-filter-check counts "
                    "without it (the filter as its registers hold it)",
                    e->name, what);
    }
    return 0;
}

/* Parses 'name' into box event 'e' of session 'p' (e->name already set); 0 or -errno with
 * the session's error set. */
int regc__pmon_parse_event(regc_pmon_session *p, struct pmon_ev *e, const char *name)
{
    char buf[512];
    int rc = perf_language(p, name, buf, sizeof(buf));
    if (rc)
        return rc;
    char *colon = strchr(buf, ':');
    if (!colon)
        return fail(p, -EINVAL, "'%s': expected BLOCK[INSTANCE]:EVENT", name);
    *colon = '\0';
    char *terms = strchr(colon + 1, ',');
    if (terms)
        *terms++ = '\0';
    rc = parse_target(p, e, buf);
    if (!rc)
        rc = parse_event(p, e, colon + 1);
    if (!rc)
        rc = event_sets(p, e);
    if (!rc)
        rc = parse_terms(p, e, terms);
    if (!rc && !p->no_filter_check)
        rc = check_filters(p, e);
    if (rc)
        return rc;
    return 0;
}
