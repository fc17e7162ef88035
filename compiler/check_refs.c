/*
 * check_refs - resolves the by-name references of the model (citations,
 * <at> instances, event tables and <set>s) and reports the unknown ones.
 * The topology's references are resolved in check_pmon.c with the same helpers.
 * An unknown name is reported with the closest known one as "did you mean".
 */
#include "check_int.h"
#include "util.h"

#include <stddef.h>

/* ------------------------------------------------------------- did you mean */

const char *check_suggest_field(const struct model_reg *r, const char *name, bool reserved_too)
{
    struct util_suggest sg;
    util_suggest_init(&sg, name);
    for (size_t i = 0; i < r->nfields; i++)
        if (reserved_too || !model_field_is_reserved(r->fields[i]))
            util_suggest_add(&sg, r->fields[i]->name);
    return util_suggest_best(&sg);
}

const char *check_suggest(const char *name, const void *objects, size_t n, size_t name_offset)
{
    struct util_suggest sg;
    util_suggest_init(&sg, name);
    util_suggest_each(&sg, objects, n, name_offset);
    return util_suggest_best(&sg);
}

/* ------------------------------------------------------------- lookups */

/* "unknown WHAT 'NAME'", then " in IN_WHAT 'IN'" unless IN_WHAT is NULL, and the closest name. */
static void unknown_ref(struct check_ctx *c, struct srcpos pos, const char *what, const char *name,
                        const char *in_what, const char *in, const char *closest)
{
    char hint[128];
    diag_hint(hint, sizeof(hint), closest);
    if (in_what)
        diag_report(c->dg, DIAG_UNKNOWN_REF, pos, "unknown %s '%s' in %s '%s'%s", what, name,
                    in_what, in, hint);
    else
        diag_report(c->dg, DIAG_UNKNOWN_REF, pos, "unknown %s '%s'%s", what, name, hint);
}

const struct model_reg *check_ref_reg(struct check_ctx *c, const struct model_block *b,
                                      const char *name, struct srcpos pos)
{
    const struct model_reg *r = name && b ? model_find_reg(b, name) : NULL;
    if (name && b && !r)
        unknown_ref(c, pos, "register", name, "block", b->name,
                    CHECK_SUGGEST(name, b->regs, b->nregs, struct model_reg, name));
    return r;
}

const struct model_field *check_ref_field(struct check_ctx *c, const struct model_reg *r,
                                          const char *name, struct srcpos pos)
{
    const struct model_field *f = name && r ? model_find_field(r, name) : NULL;
    if (name && r && !f) {
        unknown_ref(c, pos, "field", name, "register", r->name, check_suggest_field(r, name, true));
        diag_note(c->dg, r->pos, "register '%s' defined here", r->name);
    }
    return f;
}

const struct model_block *check_ref_block(struct check_ctx *c, const char *name, struct srcpos pos)
{
    const struct model_block *b = name ? model_find_block(c->s, name) : NULL;
    if (name && !b)
        unknown_ref(c, pos, "block", name, NULL, NULL,
                    CHECK_SUGGEST(name, c->s->blocks, c->s->nblocks, struct model_block, name));
    return b;
}

const struct model_instance *check_ref_instance(struct check_ctx *c, const struct model_block *b,
                                                const char *name, struct srcpos pos)
{
    const struct model_instance *i = name && b ? model_find_instance(b, name) : NULL;
    if (name && b && !i)
        unknown_ref(c, pos, "instance", name, "block", b->name,
                    CHECK_SUGGEST(name, b->instances, b->ninstances, struct model_instance, name));
    return i;
}

/* ------------------------------------------------------------- citations */

static void resolve_cite(struct check_ctx *c, struct model_cite *ci, struct srcpos owner)
{
    if (!ci->src)
        return;
    ci->source = model_find_source(c->s, ci->src);
    if (!ci->source)
        unknown_ref(c, ci->pos.file ? ci->pos : owner, "source", ci->src, NULL, NULL,
                    CHECK_SUGGEST(ci->src, c->s->sources, c->s->nsources, struct model_source, id));
}

static void cites_of_event(struct check_ctx *c, struct model_event *e)
{
    resolve_cite(c, &e->cite, e->pos);
    for (size_t i = 0; i < e->nsubs; i++)
        cites_of_event(c, e->subs[i]);
}

static void cites_of_reg(struct check_ctx *c, struct model_reg *r)
{
    resolve_cite(c, &r->cite, r->pos);
    for (size_t i = 0; i < r->nfields; i++)
        if (r->fields[i]->cite)
            resolve_cite(c, r->fields[i]->cite, r->fields[i]->pos);
    for (size_t i = 0; i < r->nrules; i++)
        if (r->rules[i]->cite)
            resolve_cite(c, r->rules[i]->cite, r->rules[i]->pos);
}

static void cites_of_pmon(struct check_ctx *c, struct model_pmon *p)
{
    resolve_cite(c, &p->cite, p->pos);
    for (size_t i = 0; i < p->ncounters; i++) {
        resolve_cite(c, &p->counters[i]->cite, p->counters[i]->pos);
        for (size_t j = 0; j < p->counters[i]->nrdpmcs; j++)
            resolve_cite(c, &p->counters[i]->rdpmcs[j]->cite, p->counters[i]->rdpmcs[j]->pos);
    }
    if (p->box_control)
        resolve_cite(c, &p->box_control->cite, p->box_control->pos);
    if (p->box_status)
        resolve_cite(c, &p->box_status->cite, p->box_status->pos);
    for (size_t i = 0; i < p->nfilters; i++)
        resolve_cite(c, &p->filters[i]->cite, p->filters[i]->pos);
    for (size_t i = 0; i < p->nunmodelled; i++)
        resolve_cite(c, &p->unmodelled[i]->cite, p->unmodelled[i]->pos);
}

static void cites_of_block(struct check_ctx *c, struct model_block *b)
{
    resolve_cite(c, &b->cite, b->pos);
    for (size_t i = 0; i < b->ninstances; i++)
        resolve_cite(c, &b->instances[i]->cite, b->instances[i]->pos);
    for (size_t i = 0; i < b->nregs; i++)
        cites_of_reg(c, b->regs[i]);
    for (size_t t = 0; t < b->nevent_tables; t++) {
        struct model_events *tab = b->event_tables[t];
        resolve_cite(c, &tab->cite, tab->pos);
        for (size_t i = 0; i < tab->nevents; i++)
            cites_of_event(c, tab->events[i]);
    }
    if (b->pmon)
        cites_of_pmon(c, b->pmon);
}

static void resolve_cites(struct check_ctx *c)
{
    for (size_t i = 0; i < c->s->nblocks; i++)
        cites_of_block(c, c->s->blocks[i]);
    for (size_t i = 0; i < c->s->ncpus; i++)
        resolve_cite(c, &c->s->cpus[i]->cite, c->s->cpus[i]->pos);
    for (size_t i = 0; i < c->s->nmetrics; i++)
        resolve_cite(c, &c->s->metrics[i]->cite, c->s->metrics[i]->pos);
    struct model_pmon_global *g = c->s->pmon_global;
    if (!g)
        return;
    resolve_cite(c, &g->cite, g->pos);
    if (g->control)
        resolve_cite(c, &g->control->cite, g->control->pos);
    if (g->status)
        resolve_cite(c, &g->status->cite, g->status->pos);
}

/* ------------------------------------------------------------------ <at> */

/* Every instance has an <at>, or none does. */
static void check_at_coverage(struct check_ctx *c, const struct model_reg *r)
{
    const struct model_block *b = r->block;
    if (r->nats == 0 || !b)
        return;
    for (size_t i = 0; i < b->ninstances; i++) {
        bool found = false;
        for (size_t j = 0; j < r->nats && !found; j++)
            found = r->ats[j]->instance == b->instances[i];
        if (!found)
            diag_report(c->dg, DIAG_UNKNOWN_REF, r->pos,
                        "register '%s' has no <at> for instance '%s' (give one for every "
                        "instance or none)",
                        r->name, b->instances[i]->name);
    }
}

static void resolve_ats(struct check_ctx *c, struct model_reg *r)
{
    size_t known = 0;
    for (size_t i = 0; i < r->nats; i++) {
        struct model_at *at = r->ats[i];
        at->instance = check_ref_instance(c, r->block, at->instance_name, at->pos);
        known += at->instance != NULL;
    }
    if (known == r->nats)
        check_at_coverage(c, r);
}

/* ---------------------------------------------------------------- events */

static void resolve_sets(struct check_ctx *c, struct model_events *tab, struct model_event *e)
{
    for (size_t i = 0; i < e->nsets; i++) {
        struct model_set *set = e->sets[i];
        set->reg = set->reg_name ? check_ref_reg(c, tab->block, set->reg_name, set->pos) : tab->reg;
        set->field = check_ref_field(c, set->reg, set->field_name, set->pos);
    }
    for (size_t i = 0; i < e->nsubs; i++)
        resolve_sets(c, tab, e->subs[i]);
}

static void resolve_events(struct check_ctx *c, struct model_events *tab)
{
    tab->reg = check_ref_reg(c, tab->block, tab->reg_name, tab->pos);
    tab->code_field = check_ref_field(c, tab->reg, tab->code_field_name, tab->pos);
    tab->umask_field = check_ref_field(c, tab->reg, tab->umask_field_name, tab->pos);
    for (size_t i = 0; i < tab->nevents; i++)
        resolve_sets(c, tab, tab->events[i]);
}

void check_refs(struct check_ctx *c)
{
    resolve_cites(c);
    for (size_t b = 0; b < c->s->nblocks; b++) {
        struct model_block *blk = c->s->blocks[b];
        for (size_t i = 0; i < blk->nregs; i++)
            resolve_ats(c, blk->regs[i]);
        for (size_t t = 0; t < blk->nevent_tables; t++)
            resolve_events(c, blk->event_tables[t]);
    }
}
