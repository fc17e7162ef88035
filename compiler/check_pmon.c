/*
 * check_pmon - the performance-monitoring topology: <pmon> of each block and
 * <pmon-global>. Resolves every register and role field they name, then
 * checks widths, pairing of controls with counters, and the shape of each role.
 */
#include "check_int.h"

#include <inttypes.h>
#include <limits.h>
#include <string.h>

static void resolve_role(struct check_ctx *c, struct model_role *role, const struct model_reg *r,
                         struct srcpos pos)
{
    role->field = check_ref_field(c, r, role->name, pos);
}

/*
 * The number of counters of a block whose counters name a control register
 * that does not exist (reported as unknown-ref): nothing that depends on it
 * is judged, as it would only follow from that error.
 */
#define COUNTERS_UNKNOWN UINT_MAX

/*
 * A role field that must be one bit ('also' > 1: or exactly that many bits,
 * one per counter; COUNTERS_UNKNOWN: any number).
 */
static void check_pmon_role(struct check_ctx *c, const char *role, const struct model_role *rl,
                            unsigned also, struct srcpos pos)
{
    const struct model_field *f = rl->field;
    if (!f)
        return;
    unsigned w = model_field_width(f);
    if (check_known_reserved(f))
        diag_report(c->dg, DIAG_PMON_ROLE, pos, "%s role names reserved field '%s'", role, f->name);
    else if (also == COUNTERS_UNKNOWN)
        return;
    else if (w != 1 && w != also && also > 1)
        diag_report(c->dg, DIAG_PMON_ROLE, pos,
                    "%s field '%s' has %u bits; it must have 1 or one per counter (%u)", role,
                    f->name, w, also);
    else if (w != 1 && also <= 1)
        diag_report(c->dg, DIAG_PMON_ROLE, pos, "%s field '%s' has %u bits; it must have 1", role,
                    f->name, w);
}

/* ------------------------------------------------------------- counters */

static void check_pmon_width(struct check_ctx *c, const struct model_counters *k)
{
    if (!k->counter)
        return;
    const struct model_field *f = k->count_field.field;
    unsigned have = f ? model_field_width(f) : k->counter->width;
    if (k->width <= have || (!f && !check_width_allowed(have)))
        return;
    const char *field = f ? arena_printf(c->a, "field '%s' of ", f->name) : "";
    diag_report(c->dg, DIAG_PMON_WIDTH, k->pos,
                "counter width %u is wider than %sregister '%s' (%u bits)", k->width, field,
                k->counter->name, have);
}

static void check_pmon_pairing(struct check_ctx *c, const struct model_counters *k)
{
    if (k->control && !k->counter_name)
        diag_report(c->dg, DIAG_PMON_PAIRING, k->pos, "control '%s' has no counter",
                    k->control->name);
    if (!k->control || !k->counter || k->control->count == k->counter->count)
        return;
    diag_report(c->dg, DIAG_PMON_PAIRING, k->pos,
                "control '%s' has %u elements but counter '%s' has %u", k->control->name,
                k->control->count, k->counter->name, k->counter->count);
}

/* ------------------------------------------------------------ direction */

/* One direction's value: fits the field, is not an encoding the manual leaves undefined, and
 * differs from the directions before it. */
static void check_direction_value(struct check_ctx *c, const struct model_counters *k, int d)
{
    const struct model_field *f = k->direction_field.field;
    uint64_t v = k->directions[d].value;
    unsigned w = model_field_width(f);
    if (w < 64 && v >> w) {
        diag_report(c->dg, DIAG_PMON_ROLE, k->pos,
                    "%s value " CHECK_X " does not fit direction field '%s' (%u bits)",
                    model_direction_attr[d], v, f->name, w);
        return;
    }
    for (size_t i = 0; i < f->nvalues; i++)
        if (f->values[i]->value == v && f->values[i]->undefined)
            diag_report(c->dg, DIAG_PMON_ROLE, k->pos,
                        "%s value " CHECK_X " is '%s', an encoding of field '%s' the manual "
                        "leaves undefined",
                        model_direction_attr[d], v, f->values[i]->name, f->name);
    for (int e = 0; e < d; e++)
        if (k->directions[e].given && k->directions[e].value == v)
            diag_report(c->dg, DIAG_PMON_ROLE, k->pos, "%s and %s have the same value " CHECK_X,
                        model_direction_attr[e], model_direction_attr[d], v);
}

/* direction-field: a control field (resolved with the other roles) and its directions. */
static void check_directions(struct check_ctx *c, const struct model_counters *k)
{
    const struct model_field *f = k->direction_field.field;
    if (!f)
        return;
    if (check_known_reserved(f)) {
        diag_report(c->dg, DIAG_PMON_ROLE, k->pos, "direction-field role names reserved field '%s'",
                    f->name);
        return;
    }
    if (!k->directions[DIRECTION_DOWN].given && !k->directions[DIRECTION_UP_DOWN].given)
        diag_report(c->dg, DIAG_PMON_ROLE, k->pos,
                    "direction field '%s' chooses no direction but up: give direction-down or "
                    "direction-up-down",
                    f->name);
    for (int d = 0; d < DIRECTION_COUNT; d++)
        if (k->directions[d].given)
            check_direction_value(c, k, d);
}

static void resolve_counters(struct check_ctx *c, const struct model_block *b,
                             struct model_counters *k)
{
    k->control = check_ref_reg(c, b, k->control_name, k->pos);
    k->counter = check_ref_reg(c, b, k->counter_name, k->pos);
    resolve_role(c, &k->count_field, k->counter, k->pos);
    struct model_role *roles[] = {&k->wrap_field, &k->enable,    &k->reset,
                                  &k->pmi,        &k->edge,      &k->invert,
                                  &k->threshold,  &k->event,     &k->umask,
                                  &k->direction_field};
    for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
        resolve_role(c, roles[i], k->control, k->pos);
}

static void check_counters(struct check_ctx *c, const struct model_block *b,
                           struct model_counters *k)
{
    resolve_counters(c, b, k);
    check_pmon_width(c, k);
    check_pmon_pairing(c, k);
    check_pmon_role(c, "wrap-field", &k->wrap_field, 1, k->pos);
    check_pmon_role(c, "enable", &k->enable, 1, k->pos);
    check_pmon_role(c, "reset", &k->reset, 1, k->pos);
    check_pmon_role(c, "pmi", &k->pmi, 1, k->pos);
    check_pmon_role(c, "edge", &k->edge, 1, k->pos);
    check_pmon_role(c, "invert", &k->invert, 1, k->pos);
    check_directions(c, k);
}

/* The number of general counters of a block: the longest general control array. */
static unsigned block_counters(const struct model_pmon *p)
{
    unsigned n = 0;
    for (size_t i = 0; i < p->ncounters; i++) {
        const struct model_counters *k = p->counters[i];
        if (k->kind == COUNTERS_GENERAL && k->control_name && !k->control)
            return COUNTERS_UNKNOWN;
        if (k->kind == COUNTERS_GENERAL && k->control && k->control->count > n)
            n = k->control->count;
    }
    return n;
}

/* ------------------------------------------------------ box control/status */

static void check_box_control(struct check_ctx *c, const struct model_block *b,
                              struct model_box_control *bc, unsigned ncounters)
{
    bc->reg = check_ref_reg(c, b, bc->reg_name, bc->pos);
    struct model_role *roles[] = {&bc->freeze, &bc->freeze_enable, &bc->reset_counters,
                                  &bc->reset_controls, &bc->enable};
    for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
        resolve_role(c, roles[i], bc->reg, bc->pos);
    check_pmon_role(c, "freeze", &bc->freeze, 1, bc->pos);
    check_pmon_role(c, "freeze-enable", &bc->freeze_enable, 1, bc->pos);
    check_pmon_role(c, "reset-counters", &bc->reset_counters, 1, bc->pos);
    check_pmon_role(c, "reset-controls", &bc->reset_controls, 1, bc->pos);
    check_pmon_role(c, "enable", &bc->enable, ncounters, bc->pos);
}

static void check_box_status(struct check_ctx *c, const struct model_block *b,
                             struct model_box_status *bs, unsigned ncounters)
{
    bs->reg = check_ref_reg(c, b, bs->reg_name, bs->pos);
    resolve_role(c, &bs->overflow, bs->reg, bs->pos);
    bs->clear_reg = check_ref_reg(c, b, bs->clear_reg_name, bs->pos);
    resolve_role(c, &bs->clear_field, bs->clear_reg, bs->pos);
    const struct model_field *ov = bs->overflow.field;
    if (ov && ncounters != COUNTERS_UNKNOWN && model_field_width(ov) < ncounters)
        diag_report(c->dg, DIAG_PMON_ROLE, bs->pos,
                    "overflow field '%s' has %u bits, fewer than the block's %u counters", ov->name,
                    model_field_width(ov), ncounters);
}

/* status-first: the group's status bits must exist in the box status. */
static void check_status_first(struct check_ctx *c, const struct model_pmon *p,
                               const struct model_counters *k)
{
    if (!k->has_status_first)
        return;
    if (!p->box_status) {
        diag_report(c->dg, DIAG_PMON_ROLE, k->pos,
                    "status-first given but the block has no box-status");
        return;
    }
    const struct model_field *ov = p->box_status->overflow.field;
    unsigned n = k->control && k->control->count ? (unsigned)k->control->count : 1;
    if (ov && k->status_first + n > model_field_width(ov))
        diag_report(c->dg, DIAG_PMON_ROLE, k->pos,
                    "status-first %u and %u counters need bits past overflow field '%s' (%u bits)",
                    k->status_first, n, ov->name, model_field_width(ov));
}

/* A filter names a writable field of the block, and the traffic it selects on unless it only has
 * to be set. */
static void check_filter(struct check_ctx *c, const struct model_block *b, struct model_filter *f)
{
    f->reg = check_ref_reg(c, b, f->reg_name, f->pos);
    f->field = check_ref_field(c, f->reg, f->field_name, f->pos);
    if (f->field && model_field_is_reserved(f->field))
        diag_report(c->dg, DIAG_PMON_ROLE, f->pos, "filter names reserved field '%s'",
                    f->field->name);
    if (!f->traffic && f->match && strcmp(f->match, "set") != 0)
        diag_report(c->dg, DIAG_PMON_ROLE, f->pos,
                    "filter '%s.%s' matches by '%s' but names no traffic attribute (traffic=)",
                    f->reg_name, f->field_name, f->match);
}

/* An unmodelled filter is a claim about the sources with no register to check it against: it
 * must cite them, and its name is one the block's events can refer to unambiguously. */
static void check_unmodelled_filter(struct check_ctx *c, const struct model_pmon *p,
                                    const struct model_unmodelled_filter *f)
{
    if (!f->cite.src)
        diag_report(c->dg, DIAG_MISSING_SOURCE, f->pos,
                    "unmodelled filter '%s' cites no source (src=): say where the sources name it",
                    f->name ? f->name : "");
    const struct model_unmodelled_filter *first = model_find_unmodelled_filter(p, f->name);
    if (first && first != f)
        diag_report(c->dg, DIAG_DUPLICATE_NAME, f->pos, "unmodelled filter '%s' declared twice",
                    f->name);
}

static void check_block_pmon(struct check_ctx *c, const struct model_block *b)
{
    struct model_pmon *p = b->pmon;
    for (size_t i = 0; i < p->ncounters; i++)
        check_counters(c, b, p->counters[i]);
    unsigned n = block_counters(p);
    if (p->box_control)
        check_box_control(c, b, p->box_control, n);
    if (p->box_status)
        check_box_status(c, b, p->box_status, n);
    for (size_t i = 0; i < p->ncounters; i++)
        check_status_first(c, p, p->counters[i]);
    for (size_t i = 0; i < p->nfilters; i++)
        check_filter(c, b, p->filters[i]);
    for (size_t i = 0; i < p->nunmodelled; i++)
        check_unmodelled_filter(c, p, p->unmodelled[i]);
}

/* ------------------------------------------------------------ pmon-global */

static void check_global_control(struct check_ctx *c, struct model_global_control *gc)
{
    gc->block = check_ref_block(c, gc->block_name, gc->pos);
    gc->reg = check_ref_reg(c, gc->block, gc->reg_name, gc->pos);
    struct model_role *roles[] = {
        &gc->freeze,   &gc->unfreeze, &gc->enable, &gc->freeze_on_overflow,
        &gc->pmi_core, &gc->wake,     &gc->reset};
    for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
        resolve_role(c, roles[i], gc->reg, gc->pos);
    check_pmon_role(c, "freeze", &gc->freeze, 1, gc->pos);
    check_pmon_role(c, "unfreeze", &gc->unfreeze, 1, gc->pos);
    check_pmon_role(c, "enable", &gc->enable, 1, gc->pos);
    check_pmon_role(c, "reset", &gc->reset, 1, gc->pos);
    resolve_role(c, &gc->select, gc->reg, gc->pos);
    if (gc->select.field && check_known_reserved(gc->select.field))
        diag_report(c->dg, DIAG_PMON_ROLE, gc->pos, "select role names reserved field '%s'",
                    gc->select.field->name);
    for (size_t i = 1; i < gc->npmi_cores; i++)
        resolve_role(c, &gc->pmi_cores[i], gc->reg, gc->pos);
    for (size_t i = 0; i < gc->npmi_cores; i++)
        check_pmon_role(c, "pmi-core", &gc->pmi_cores[i], 1, gc->pos);
}

/* counters=: the control register of one <counters> of the block, whose overflows alone the bit
 * reports. */
static void check_box_overflow_counters(struct check_ctx *c, const struct model_box_overflow *bo)
{
    if (!bo->counters_name || !bo->block)
        return;
    const struct model_pmon *p = bo->block->pmon;
    for (size_t i = 0; p && i < p->ncounters; i++)
        if (p->counters[i]->control_name &&
            strcmp(p->counters[i]->control_name, bo->counters_name) == 0)
            return;
    diag_report(c->dg, DIAG_PMON_ROLE, bo->pos,
                "box-overflow counters '%s' is not the control of a <counters> of block '%s'",
                bo->counters_name, bo->block->name);
}

static void check_box_overflow(struct check_ctx *c, const struct model_global_status *gs,
                               struct model_box_overflow *bo)
{
    bo->block = check_ref_block(c, bo->block_name, bo->pos);
    bo->field = check_ref_field(c, gs->reg, bo->field_name, bo->pos);
    bo->instance = check_ref_instance(c, bo->block, bo->instance_name, bo->pos);
    check_box_overflow_counters(c, bo);
    if (!bo->field || !bo->block || bo->instance_name)
        return; /* one instance named: its bit is the field */
    unsigned w = model_field_width(bo->field);
    size_t n = bo->block->ninstances ? bo->block->ninstances : 1;
    if (w != 1 && w != n)
        diag_report(c->dg, DIAG_PMON_ROLE, bo->pos,
                    "box-overflow field '%s' has %u bits; it must have 1 or one per instance "
                    "of block '%s' (%zu)",
                    bo->field->name, w, bo->block->name, n);
}

static void check_global_status(struct check_ctx *c, struct model_global_status *gs)
{
    gs->block = check_ref_block(c, gs->block_name, gs->pos);
    gs->reg = check_ref_reg(c, gs->block, gs->reg_name, gs->pos);
    gs->clear_reg = check_ref_reg(c, gs->block, gs->clear_reg_name, gs->pos);
    resolve_role(c, &gs->clear_field, gs->clear_reg, gs->pos);
    for (size_t i = 0; i < gs->nboxes; i++)
        check_box_overflow(c, gs, gs->boxes[i]);
}

void check_pmon(struct check_ctx *c)
{
    for (size_t b = 0; b < c->s->nblocks; b++)
        if (c->s->blocks[b]->pmon)
            check_block_pmon(c, c->s->blocks[b]);
    struct model_pmon_global *g = c->s->pmon_global;
    if (g && g->control)
        check_global_control(c, g->control);
    if (g && g->status)
        check_global_status(c, g->status);
}
