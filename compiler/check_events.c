/*
 * check_events - event tables: codes, unit masks and <set> values fit their
 * fields, <set>s of reserved fields give the value the attribute table
 * demands (0, or all ones for RV1), counters exist, the sub-events of a
 * combining event each select umask bits, tables cite a source.
 */
#include "check_int.h"

#include <inttypes.h>
#include <stdio.h>

static void check_value_fits(struct check_ctx *c, const struct model_field *f, uint64_t v,
                             const char *what, const struct model_event *e)
{
    if (f && v > model_field_max(f))
        diag_report(c->dg, DIAG_VALUE_TOO_WIDE, e->pos,
                    "%s " CHECK_X " of event '%s' does not fit field '%s' (%u bits)", what, v,
                    e->full_name, f->name, model_field_width(f));
}

void check_set_fits(struct check_ctx *c, const char *kind, const char *owner,
                    const struct model_field *f, uint64_t value, struct srcpos pos)
{
    if (f && value > model_field_max(f)) {
        diag_report(c->dg, DIAG_VALUE_TOO_WIDE, pos,
                    "value " CHECK_X " for field '%s' of %s '%s' does not fit its %u bits", value,
                    f->name, kind, owner, model_field_width(f));
        return;
    }
    if (!f || !check_known_reserved(f))
        return;
    /* the attribute table: reserved and ignored bits are written 0, must-be-one (RV1) bits 1 */
    uint64_t want = model_field_sem(f) == REGC_SEM_MB1 ? model_field_max(f) : 0;
    if (value != want)
        diag_report(c->dg, DIAG_SET_RESERVED, pos,
                    "%s '%s' sets %s field '%s' %s to " CHECK_X "; it must be written " CHECK_X,
                    kind, owner,
                    model_field_sem(f) == REGC_SEM_IG ? "ignored" : "reserved", f->name,
                    field_bits_text(c, f), value, want);
}

static void check_set_value(struct check_ctx *c, const struct model_event *e,
                            const struct model_set *set)
{
    check_set_fits(c, "event", e->full_name, set->field, set->value, set->pos);
}

static void check_event_counter(struct check_ctx *c, const struct model_events *tab,
                                const struct model_event *e)
{
    const struct model_reg *r = tab->reg;
    if (!r || !e->has_counters)
        return;
    if (e->parent && e->parent->has_counters && e->counter_mask == e->parent->counter_mask)
        return; /* inherited: reported at the parent */
    unsigned hi = r->first + (r->count ? r->count : 1) - 1;
    for (unsigned i = 0; i < 64; i++) {
        if (!(e->counter_mask >> i & 1) || (i >= r->first && i <= hi))
            continue;
        diag_report(c->dg, DIAG_EVENT_COUNTER, e->pos,
                    "event '%s' names counter %u, but register '%s' has %s", e->full_name, i,
                    r->name,
                    hi == r->first ? arena_printf(c->a, "only counter %u", hi)
                                   : arena_printf(c->a, "counters %u-%u", r->first, hi));
        return;
    }
}

/* combine="or": each sub-event is a set of umask bits, so each needs a umask with a bit set. */
static void check_event_combine(struct check_ctx *c, const struct model_events *tab,
                                const struct model_event *e)
{
    if (!e->combine_or)
        return;
    if (!tab->umask_field_name) {
        diag_report(c->dg, DIAG_EVENT_COMBINE, e->pos,
                    "event '%s' combines sub-events by umask bits, but its table has no "
                    "umask-field",
                    e->full_name);
        return;
    }
    if (!e->nsubs)
        diag_report(c->dg, DIAG_EVENT_COMBINE, e->pos,
                    "event '%s' combines sub-events by umask bits, but has no sub-events",
                    e->full_name);
    for (size_t i = 0; i < e->nsubs; i++)
        if (!e->subs[i]->has_umask || e->subs[i]->umask == 0)
            diag_report(c->dg, DIAG_EVENT_COMBINE, e->subs[i]->pos,
                        "sub-event '%s' of combining event '%s' selects no umask bit",
                        e->subs[i]->full_name, e->full_name);
}

/* Each filter an event needs is a <filter> of its block's pmon (which names a real field). */
static void check_event_filters(struct check_ctx *c, const struct model_events *tab,
                                const struct model_event *e)
{
    const struct model_pmon *pm = tab->block ? tab->block->pmon : NULL;
    for (size_t i = 0; i < e->nfilters; i++) {
        const char *ref = e->filters[i], *dot = strchr(ref, '.');
        bool found = false;
        for (size_t k = 0; dot && pm && k < pm->nfilters && !found; k++) {
            const struct model_filter *f = pm->filters[k];
            found = f->reg_name && f->field_name && strlen(f->reg_name) == (size_t)(dot - ref) &&
                    strncmp(ref, f->reg_name, (size_t)(dot - ref)) == 0 &&
                    strcmp(dot + 1, f->field_name) == 0;
        }
        if (!found)
            diag_report(c->dg, DIAG_EVENT_FILTER, e->pos,
                        "event '%s' needs filter '%s', which is no <filter> of block '%s'",
                        e->full_name, ref, tab->block ? tab->block->name : "");
    }
}

/* Each unmodelled filter an event names is an <unmodelled-filter> of its block's pmon. */
static void check_event_unmodelled(struct check_ctx *c, const struct model_events *tab,
                                   const struct model_event *e)
{
    const struct model_pmon *pm = tab->block ? tab->block->pmon : NULL;
    for (size_t i = 0; i < e->nunmodelled; i++) {
        if (model_find_unmodelled_filter(pm, e->unmodelled[i]))
            continue;
        diag_report(c->dg, DIAG_EVENT_FILTER, e->pos,
                    "event '%s' needs unmodelled filter '%s', which is no <unmodelled-filter> of "
                    "block '%s'",
                    e->full_name, e->unmodelled[i], tab->block ? tab->block->name : "");
    }
}

static void check_event(struct check_ctx *c, const struct model_events *tab,
                        const struct model_event *e)
{
    check_event_combine(c, tab, e);
    check_event_filters(c, tab, e);
    check_event_unmodelled(c, tab, e);
    if (!e->parent)
        check_value_fits(c, tab->code_field, e->code, "code", e);
    if (e->has_umask && !tab->umask_field_name)
        diag_report(c->dg, DIAG_VALUE_TOO_WIDE, e->pos,
                    "umask " CHECK_X " of event '%s' has no field: its table gives no umask-field",
                    e->umask, e->full_name);
    else if (e->has_umask)
        check_value_fits(c, tab->umask_field, e->umask, "umask", e);
    for (size_t i = 0; i < e->nsets; i++)
        check_set_value(c, e, e->sets[i]);
    check_event_counter(c, tab, e);
    for (size_t i = 0; i < e->nsubs; i++)
        check_event(c, tab, e->subs[i]);
}

static void check_missing_source(struct check_ctx *c, const struct model_events *tab)
{
    if (!tab->cite.src)
        diag_report(c->dg, DIAG_MISSING_SOURCE, tab->pos,
                    "event table of register '%s' cites no source",
                    tab->reg_name ? tab->reg_name : "");
}

void check_events(struct check_ctx *c)
{
    for (size_t b = 0; b < c->s->nblocks; b++) {
        const struct model_block *blk = c->s->blocks[b];
        for (size_t t = 0; t < blk->nevent_tables; t++) {
            const struct model_events *tab = blk->event_tables[t];
            check_missing_source(c, tab);
            for (size_t i = 0; i < tab->nevents; i++)
                check_event(c, tab, tab->events[i]);
        }
    }
}
