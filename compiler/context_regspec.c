/*
 * context_regspec - the template tree's "regspec" object (context_regspec.h).
 */
#include "context_regspec.h"

#include "fatal.h"
#include "model_mmio.h"
#include "model_tree.h"
#include "svd_words.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define SET(a, o, lit, v) dt_add((a), (o), DT_KEY(lit), (v))

/* One element being built: its attributes and children are pushed, then el_add() closes it. */
struct el {
    struct dt *o, *attrs, *children;
    size_t nchildren;
    const char *text; /* NULL: none */
};

static struct el el_new(struct arena *a, const char *name)
{
    struct el e = {.o = dt_obj(a), .attrs = dt_list(a), .children = dt_list(a)};
    SET(a, e.o, "name", dt_str_ref(a, name));
    SET(a, e.o, "attrs", e.attrs);
    SET(a, e.o, "children", e.children);
    return e;
}

/* Closes 'e' and makes it p's next child. */
static void el_add(struct arena *a, struct el *p, struct el *e)
{
    SET(a, e->o, "text", dt_str(a, e->text));
    SET(a, e->o, "empty", dt_bool(!e->text && !e->nchildren));
    SET(a, e->o, "has_children", dt_bool(!e->text && e->nchildren));
    dt_push(a, p->children, e->o);
    p->nchildren++;
}

/* name="value", when 'value' is given */
static void attr(struct arena *a, struct el *e, const char *name, const char *value)
{
    if (!value)
        return;
    struct dt *o = dt_obj(a);
    SET(a, o, "name", dt_str_ref(a, name));
    SET(a, o, "value", dt_str(a, value));
    dt_push(a, e->attrs, o);
}

static void attr_hex(struct arena *a, struct el *e, const char *name, uint64_t v)
{
    attr(a, e, name, arena_printf(a, "0x%" PRIX64, v));
}

static void attr_uint(struct arena *a, struct el *e, const char *name, uint64_t v)
{
    attr(a, e, name, arena_printf(a, "%" PRIu64, v));
}

static void attr_true(struct arena *a, struct el *e, const char *name, bool on)
{
    if (on)
        attr(a, e, name, "true");
}

/*
 * dim-of=, with dim-start="true" where the element before ('prev': its dim_of) has the same
 * pattern but is of another list, which the loader would join to this one (xmlmmio.c): two SVD
 * lists of one pattern that follow each other at one spacing stay two.
 */
static void dim_attrs(struct arena *a, struct el *e, const char *dim_of, const char *prev)
{
    attr(a, e, "dim-of", dim_of);
    attr_true(a, e, "dim-start", dim_of && prev && prev != dim_of && strcmp(prev, dim_of) == 0);
}

static void attr_bool(struct arena *a, struct el *e, const char *name, bool on)
{
    attr(a, e, name, on ? "true" : "false");
}

/* <NAME>text</NAME> as a child of 'p', when 'text' is given */
static void text_child(struct arena *a, struct el *p, const char *name, const char *text)
{
    if (!text)
        return;
    struct el e = el_new(a, name);
    e.text = text;
    el_add(a, p, &e);
}

static void cite_attrs(struct arena *a, struct el *e, const struct model_cite *c)
{
    if (!c)
        return;
    attr(a, e, "src", c->src);
    attr(a, e, "table", c->table);
    attr(a, e, "page", c->page);
    attr(a, e, "section", c->section);
    attr(a, e, "cite", c->cite);
}

/* Is 'n' a derived enumeration set that lost its values (model_set_values_lost)? Read back with
 * its derived-from, it would take its base's, which it does not have. */
static bool set_values_lost(struct derive_ref n)
{
    return n.kind == DERIVE_ENUMS && model_set_values_lost(n.ctx, n.obj);
}

/* derived-from= of node 'n' as written, where it names a base in the spec as written (model_tree.h,
 * the lookup the loader checks it by): not a name a copy took along to a place where it names
 * nothing (a derived field's set, a derived register's field), nor that of a set that lost its
 * values (set_values_lost): context_regspec_check says what it leaves out (regspec-out-dropped). */
static bool derived_attr(struct arena *a, struct el *e, const struct derive_tree *t,
                         struct derive_ref n)
{
    struct srcpos pos;
    const char *from = model_tree_derived_from(n, &pos);
    if (!from || model_tree_base(t, n).kind == DERIVE_NONE || set_values_lost(n))
        return false;
    attr(a, e, "derived-from", from);
    return true;
}

/* ------------------------------------------------------------ fields */

static const char *bits_text(struct arena *a, const struct model_field *f)
{
    return f->msb == f->lsb ? arena_printf(a, "%u", f->lsb) : arena_printf(a, "%u:%u", f->msb, f->lsb);
}

/* The access as written: SVD's word before the effects its text shows ("read-write, oneToClear"). */
static const char *access_base(struct arena *a, const struct model_field *f)
{
    const char *comma = strchr(f->access_text, ',');
    bool effects = model_field_ext(f)->write_effect != WRITE_STORES || model_field_ext(f)->read_effect != READ_NONE;
    return effects && comma ? arena_strndup(a, f->access_text, (size_t)(comma - f->access_text))
                            : f->access_text;
}

static const char *write_constraint(struct arena *a, const struct model_write_constraint *wc)
{
    switch (wc->kind) {
    case WC_WRITE_AS_READ:
        return "write-as-read";
    case WC_ENUMERATED:
        return "enumerated";
    case WC_RANGE:
        return arena_printf(a, "0x%" PRIX64 "..0x%" PRIX64, wc->min, wc->max);
    default:
        return NULL;
    }
}

static void value_el(struct arena *a, struct el *p, const struct model_value *v, bool dflt)
{
    struct el e = el_new(a, "value");
    attr(a, &e, "name", v->name);
    if (!dflt)
        attr_hex(a, &e, "value", v->value);
    attr_true(a, &e, "undefined", v->undefined);
    enum model_usage usage = model_value_ext(v)->usage;
    attr(a, &e, "usage", usage == USAGE_ANY ? NULL : svd_usage_word(usage));
    if (model_value_ext(v)->dont_care)
        attr_hex(a, &e, "dont-care", model_value_ext(v)->dont_care);
    attr_true(a, &e, "default", dflt);
    attr(a, &e, "desc", v->desc);
    el_add(a, p, &e);
}

/* <enum-set>s: the field's own sets, unless they are those its values' usages give it; each
 * holds its values whole (a regspec records derivation, does not apply it). */
static void enum_sets(struct arena *a, struct el *p, const struct derive_tree *t,
                      const struct model_field *f)
{
    const struct model_field_ext *x = model_field_ext(f);
    if (!x->nsets || model_field_sets_implied(f))
        return;
    for (size_t i = 0; i < x->nsets; i++) {
        const struct model_enum_set *s = x->sets[i];
        struct el e = el_new(a, "enum-set");
        attr(a, &e, "name", s->name);
        attr(a, &e, "header-enum-name", s->header_enum);
        attr(a, &e, "usage", s->usage == USAGE_ANY ? NULL : svd_usage_word(s->usage));
        derived_attr(a, &e, t, model_tree_set_ref(f, s));
        el_add(a, p, &e);
    }
}

static void gap_el(struct arena *a, struct el *p, const struct model_field *f)
{
    struct el e = el_new(a, "gap");
    attr(a, &e, "bits", bits_text(a, f));
    attr(a, &e, "access", f->access_text);
    attr(a, &e, "why", f->desc);
    el_add(a, p, &e);
}

/* 'prev_dim': the dim_of of the field written before f in its register, or NULL */
static void field_el(struct arena *a, struct el *p, const struct derive_tree *t,
                     const struct model_field *f, const char *prev_dim)
{
    if (f->implicit) {
        gap_el(a, p, f);
        return;
    }
    struct el e = el_new(a, "field");
    attr(a, &e, "name", f->name);
    attr(a, &e, "bits", bits_text(a, f));
    attr(a, &e, "access", access_base(a, f));
    if (f->reset)
        attr_hex(a, &e, "reset", f->reset);
    const struct model_field_ext *fx = model_field_ext(f);
    attr(a, &e, "write", fx->write_given && fx->write_effect == WRITE_STORES
                             ? "modify" /* as written: a derived field's own */
                             : svd_write_word(fx->write_effect));
    attr(a, &e, "read-action", svd_read_word(model_field_ext(f)->read_effect));
    attr(a, &e, "write-constraint", write_constraint(a, &model_field_ext(f)->wc));
    attr(a, &e, "enum-name", model_field_ext(f)->enum_name);
    derived_attr(a, &e, t, model_tree_ref(DERIVE_FIELD, f, f->reg->block));
    dim_attrs(a, &e, model_field_ext(f)->dim_of, prev_dim);
    attr_true(a, &e, "whole", model_field_ext(f)->whole);
    attr(a, &e, "desc", f->desc);
    cite_attrs(a, &e, f->cite);
    enum_sets(a, &e, t, f);
    for (size_t i = 0; i < f->nvalues; i++)
        value_el(a, &e, f->values[i], false);
    for (size_t i = 0; i < model_field_ext(f)->ndefaults; i++)
        value_el(a, &e, model_field_ext(f)->defaults[i], true); /* each with its usage */
    el_add(a, p, &e);
}

/* ------------------------------------------------------------ registers */

/* A rule the loader makes from a field's write-constraint= (svd_rules.h): not written again. */
static bool rule_from_constraint(const struct model_reg *r, const struct model_rule *ru)
{
    for (size_t i = 0; i < r->nfields; i++) {
        const struct model_field *f = r->fields[i];
        const char *kind = model_field_ext(f)->wc.kind == WC_RANGE ? "range" : model_field_ext(f)->wc.kind == WC_ENUMERATED ? "values" : NULL;
        size_t n = strlen(f->name);
        if (kind && strncmp(ru->name, f->name, n) == 0 && ru->name[n] == '_' &&
            strcmp(ru->name + n + 1, kind) == 0)
            return true;
    }
    return false;
}

static void rule_el(struct arena *a, struct el *p, const struct model_rule *ru)
{
    struct el e = el_new(a, "rule");
    attr(a, &e, "name", ru->name);
    attr(a, &e, "expr", ru->expr_text);
    cite_attrs(a, &e, ru->cite);
    e.text = ru->message ? ru->message : "";
    el_add(a, p, &e);
}

/* name="BASE" or "BASE{LO-HI}" ("{HI-LO}" when written descending) */
static const char *reg_name(struct arena *a, const struct model_reg *r)
{
    if (!r->is_array)
        return r->name;
    unsigned lo = r->first, hi = r->first + r->count - 1;
    return r->descending ? arena_printf(a, "%s{%u-%u}", r->name, hi, lo)
                         : arena_printf(a, "%s{%u-%u}", r->name, lo, hi);
}

static void reg_address(struct arena *a, struct el *e, const struct model_reg *r)
{
    if (!r->addrs) {
        attr_hex(a, e, "address", r->address);
        if (r->is_array)
            attr_hex(a, e, "stride", r->stride);
        return;
    }
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < r->naddrs; i++)
        buf_addf(&b, "%s0x%" PRIX64, i ? " " : "", r->addrs[i]);
    attr(a, e, "addresses", arena_strdup(a, b.s));
    buf_release(&b);
}

static const char *index_names(struct arena *a, const struct model_reg *r)
{
    const char *const *names = model_reg_ext(r)->index_names;
    return names ? util_join(a, names, r->count, ' ') : NULL;
}

static void at_el(struct arena *a, struct el *p, const struct model_at *at)
{
    struct el e = el_new(a, "at");
    attr(a, &e, "instance", at->instance_name);
    attr_hex(a, &e, "address", at->address);
    el_add(a, p, &e);
}

/* <array-index header-enum-name=> with an <index name= value= desc=> per named index */
static void array_index_el(struct arena *a, struct el *p, const struct model_array_index *ix)
{
    if (!ix)
        return;
    struct el e = el_new(a, "array-index");
    attr(a, &e, "header-enum-name", ix->enum_name);
    for (size_t i = 0; i < ix->nvalues; i++) {
        struct el v = el_new(a, "index");
        attr(a, &v, "name", ix->values[i]->name);
        attr_uint(a, &v, "value", ix->values[i]->value);
        attr(a, &v, "desc", ix->values[i]->desc);
        el_add(a, &e, &v);
    }
    el_add(a, p, &e);
}

/* 'prev': the register written before r in its block, or NULL */
static void register_el(struct arena *a, struct el *p, const struct derive_tree *t,
                        const struct model_block *b, const struct model_reg *r,
                        const struct model_reg *prev, const char *gaps)
{
    struct el e = el_new(a, "register");
    const char *name = reg_name(a, r);
    attr(a, &e, "name", name);
    if (r->written_name && strcmp(r->written_name, name) != 0)
        attr(a, &e, "svd-name", r->written_name);
    attr(a, &e, "space", model_space_word(r->space));
    reg_address(a, &e, r);
    attr_uint(a, &e, "width", r->width);
    attr_uint(a, &e, "size", r->size);
    if (r->has_reset)
        attr_hex(a, &e, "reset", r->reset);
    if (model_reg_ext(r)->has_reset_mask)
        attr_hex(a, &e, "reset-mask", model_reg_ext(r)->reset_mask);
    if (r->gaps && (!gaps || strcmp(r->gaps, gaps) != 0))
        attr(a, &e, "gaps", r->gaps);
    attr(a, &e, "index-names", index_names(a, r));
    dim_attrs(a, &e, model_reg_ext(r)->dim_of, prev ? model_reg_ext(prev)->dim_of : NULL);
    attr(a, &e, "cluster", model_reg_ext(r)->cluster ? model_cluster_path(a, model_reg_ext(r)->cluster) : NULL);
    attr(a, &e, "alternate", model_reg_own_alternate(r)); /* not its cluster's: that one says it */
    attr(a, &e, "alternate-group", model_block_alt_group(b, r));
    attr(a, &e, "protection", model_reg_ext(r)->protection);
    attr(a, &e, "display-name", model_reg_ext(r)->display_name);
    derived_attr(a, &e, t, model_tree_ref(DERIVE_REG, r, b));
    attr(a, &e, "desc", r->desc);
    cite_attrs(a, &e, &r->cite);
    for (size_t i = 0; i < r->nats; i++)
        at_el(a, &e, r->ats[i]);
    array_index_el(a, &e, model_reg_ext(r)->array_index);
    const char *prev_dim = NULL;
    for (size_t i = 0; i < r->nfields; i++) {
        field_el(a, &e, t, r->fields[i], prev_dim);
        if (!r->fields[i]->implicit)
            prev_dim = model_field_ext(r->fields[i])->dim_of;
    }
    for (size_t i = 0; i < r->nrules; i++)
        if (!rule_from_constraint(r, r->rules[i]))
            rule_el(a, &e, r->rules[i]);
    el_add(a, p, &e);
}

/* ------------------------------------------------------------ events */

static void set_el(struct arena *a, struct el *p, const struct model_set *st)
{
    struct el e = el_new(a, "set");
    attr(a, &e, "register", st->reg_name);
    attr(a, &e, "field", st->field_name);
    attr_hex(a, &e, "value", st->value);
    el_add(a, p, &e);
}

/* An <event>, or a <sub> of 'ev->parent': a sub's code is its parent's, and counters= it does
 * not write are its parent's (the same text, which the loader shares: not written again). */
static void event_el(struct arena *a, struct el *p, const struct model_event *ev)
{
    const struct model_event *parent = ev->parent;
    struct el e = el_new(a, parent ? "sub" : "event");
    attr(a, &e, "name", ev->name);
    if (!parent)
        attr_hex(a, &e, "code", ev->code);
    if (ev->has_umask)
        attr_hex(a, &e, "umask", ev->umask);
    if (!parent || ev->counters_text != parent->counters_text)
        attr(a, &e, "counters", ev->counters_text);
    attr(a, &e, "perfmon", ev->perfmon);
    if (!parent && ev->combine_or)
        attr(a, &e, "combine", "or");
    attr(a, &e, "filters", util_join(a, ev->filters, ev->nfilters, ' '));
    attr(a, &e, "unmodelled-filters", util_join(a, ev->unmodelled, ev->nunmodelled, ' '));
    attr(a, &e, "desc", ev->desc);
    cite_attrs(a, &e, &ev->cite);
    for (size_t i = 0; i < ev->nsets; i++)
        set_el(a, &e, ev->sets[i]);
    for (size_t i = 0; i < ev->nsubs; i++)
        event_el(a, &e, ev->subs[i]);
    el_add(a, p, &e);
}

static void events_el(struct arena *a, struct el *p, const struct model_events *t)
{
    struct el e = el_new(a, "events");
    attr(a, &e, "register", t->reg_name);
    attr(a, &e, "code-field", t->code_field_name);
    attr(a, &e, "umask-field", t->umask_field_name);
    attr(a, &e, "title", t->title);
    cite_attrs(a, &e, &t->cite);
    text_child(a, &e, "desc", t->desc); /* <events> has no desc= */
    for (size_t i = 0; i < t->nevents; i++)
        event_el(a, &e, t->events[i]);
    el_add(a, p, &e);
}

/* ------------------------------------------------------------ pmon topologies */

/* NAME="FIELD" of a control-field role, when written */
static void role_attr(struct arena *a, struct el *e, const char *name, const struct model_role *r)
{
    attr(a, e, name, r->name);
}

/* clear= clear-register= clear-field=: w1c, the default, is not written; a clear register
 * stands for clear= (the loader's CLEAR_REGISTER, whatever clear= said) */
static void clear_attrs(struct arena *a, struct el *e, enum model_clear clear, const char *reg,
                        const struct model_role *field)
{
    attr(a, e, "clear", clear == CLEAR_WRITE0 ? "write0" : clear == CLEAR_NONE ? "none" : NULL);
    attr(a, e, "clear-register", clear == CLEAR_REGISTER ? reg : NULL);
    role_attr(a, e, "clear-field", field);
}

static void rdpmc_el(struct arena *a, struct el *p, const struct model_rdpmc *r)
{
    struct el e = el_new(a, "rdpmc");
    attr(a, &e, "processor", r->processor);
    attr_uint(a, &e, "first", r->first);
    attr_true(a, &e, "high-zero", r->high_zero);
    cite_attrs(a, &e, &r->cite);
    el_add(a, p, &e);
}

/* direction-field= and its values, in the order of enum model_direction */
static void direction_attrs(struct arena *a, struct el *e, const struct model_counters *c)
{
    role_attr(a, e, "direction-field", &c->direction_field);
    for (int d = 0; d < DIRECTION_COUNT; d++)
        if (c->directions[d].given)
            attr_hex(a, e, model_direction_attr[d], c->directions[d].value);
}

static void counters_el(struct arena *a, struct el *p, const struct model_counters *c)
{
    struct el e = el_new(a, "counters");
    attr(a, &e, "kind", c->kind == COUNTERS_FIXED ? "fixed" : NULL);
    attr(a, &e, "control", c->control_name);
    attr(a, &e, "counter", c->counter_name);
    role_attr(a, &e, "count-field", &c->count_field);
    attr_uint(a, &e, "width", c->width);
    attr(a, &e, "overflow", c->overflow == OVERFLOW_STOP ? "stop" : NULL);
    role_attr(a, &e, "wrap-field", &c->wrap_field);
    direction_attrs(a, &e, c);
    role_attr(a, &e, "enable", &c->enable);
    role_attr(a, &e, "reset", &c->reset);
    role_attr(a, &e, "pmi", &c->pmi);
    role_attr(a, &e, "edge", &c->edge);
    role_attr(a, &e, "invert", &c->invert);
    role_attr(a, &e, "threshold", &c->threshold);
    role_attr(a, &e, "event", &c->event);
    role_attr(a, &e, "umask", &c->umask);
    attr(a, &e, "preload", c->preload_minus_one ? "2^w-1-N" : NULL);
    attr_true(a, &e, "freeze-on-overflow", c->freeze_on_overflow);
    if (c->has_status_first)
        attr_uint(a, &e, "status-first", c->status_first);
    cite_attrs(a, &e, &c->cite);
    text_child(a, &e, "desc", c->desc);
    for (size_t i = 0; i < c->nrdpmcs; i++)
        rdpmc_el(a, &e, c->rdpmcs[i]);
    el_add(a, p, &e);
}

static void box_control_el(struct arena *a, struct el *p, const struct model_box_control *bc)
{
    if (!bc)
        return;
    struct el e = el_new(a, "box-control");
    attr(a, &e, "register", bc->reg_name);
    role_attr(a, &e, "freeze", &bc->freeze);
    role_attr(a, &e, "freeze-enable", &bc->freeze_enable);
    role_attr(a, &e, "reset-counters", &bc->reset_counters);
    role_attr(a, &e, "reset-controls", &bc->reset_controls);
    role_attr(a, &e, "enable", &bc->enable);
    cite_attrs(a, &e, &bc->cite);
    el_add(a, p, &e);
}

static void box_status_el(struct arena *a, struct el *p, const struct model_box_status *bs)
{
    if (!bs)
        return;
    struct el e = el_new(a, "box-status");
    attr(a, &e, "register", bs->reg_name);
    role_attr(a, &e, "overflow", &bs->overflow);
    clear_attrs(a, &e, bs->clear, bs->clear_reg_name, &bs->clear_field);
    cite_attrs(a, &e, &bs->cite);
    el_add(a, p, &e);
}

static void filter_el(struct arena *a, struct el *p, const struct model_filter *f)
{
    struct el e = el_new(a, "filter");
    attr(a, &e, "register", f->reg_name);
    attr(a, &e, "field", f->field_name);
    attr(a, &e, "match", f->match);
    attr(a, &e, "traffic", f->traffic);
    attr(a, &e, "perf", f->perf);
    attr(a, &e, "example", f->example);
    attr(a, &e, "desc", f->desc);
    cite_attrs(a, &e, &f->cite);
    el_add(a, p, &e);
}

static void unmodelled_filter_el(struct arena *a, struct el *p,
                                 const struct model_unmodelled_filter *f)
{
    struct el e = el_new(a, "unmodelled-filter");
    attr(a, &e, "name", f->name);
    attr(a, &e, "what", f->what);
    attr(a, &e, "desc", f->desc);
    cite_attrs(a, &e, &f->cite);
    el_add(a, p, &e);
}

/* <pmon>: its description, counters, box control and status, filters */
static void pmon_el(struct arena *a, struct el *p, const struct model_pmon *pm)
{
    if (!pm)
        return;
    struct el e = el_new(a, "pmon");
    cite_attrs(a, &e, &pm->cite);
    text_child(a, &e, "desc", pm->desc);
    for (size_t i = 0; i < pm->ncounters; i++)
        counters_el(a, &e, pm->counters[i]);
    box_control_el(a, &e, pm->box_control);
    box_status_el(a, &e, pm->box_status);
    for (size_t i = 0; i < pm->nfilters; i++)
        filter_el(a, &e, pm->filters[i]);
    for (size_t i = 0; i < pm->nunmodelled; i++)
        unmodelled_filter_el(a, &e, pm->unmodelled[i]);
    el_add(a, p, &e);
}

/* pmi-core= as written: one field, or the list the loader split (model_global_control) */
static const char *pmi_core_text(struct arena *a, const struct model_global_control *g)
{
    if (!g->npmi_cores)
        return g->pmi_core.name;
    struct buf b = BUF_INIT;
    for (size_t i = 0; i < g->npmi_cores; i++)
        buf_addf(&b, "%s%s", i ? " " : "", g->pmi_cores[i].name);
    const char *s = arena_strdup(a, b.s);
    buf_release(&b);
    return s;
}

static void global_control_el(struct arena *a, struct el *p, const struct model_global_control *g)
{
    if (!g)
        return;
    struct el e = el_new(a, "global-control");
    attr(a, &e, "block", g->block_name);
    attr(a, &e, "register", g->reg_name);
    role_attr(a, &e, "freeze", &g->freeze);
    role_attr(a, &e, "unfreeze", &g->unfreeze);
    role_attr(a, &e, "enable", &g->enable);
    role_attr(a, &e, "freeze-on-overflow", &g->freeze_on_overflow);
    attr(a, &e, "pmi-core", pmi_core_text(a, g));
    role_attr(a, &e, "select", &g->select);
    role_attr(a, &e, "wake", &g->wake);
    role_attr(a, &e, "reset", &g->reset);
    cite_attrs(a, &e, &g->cite);
    el_add(a, p, &e);
}

static void global_status_el(struct arena *a, struct el *p, const struct model_global_status *g)
{
    if (!g)
        return;
    struct el e = el_new(a, "global-status");
    attr(a, &e, "block", g->block_name);
    attr(a, &e, "register", g->reg_name);
    clear_attrs(a, &e, g->clear, g->clear_reg_name, &g->clear_field);
    cite_attrs(a, &e, &g->cite);
    for (size_t i = 0; i < g->nboxes; i++) {
        const struct model_box_overflow *o = g->boxes[i];
        struct el b = el_new(a, "box-overflow");
        attr(a, &b, "block", o->block_name);
        attr(a, &b, "field", o->field_name);
        attr(a, &b, "instance", o->instance_name);
        attr(a, &b, "counters", o->counters_name);
        el_add(a, &e, &b);
    }
    el_add(a, p, &e);
}

static void pmon_global_el(struct arena *a, struct el *p, const struct model_pmon_global *pg)
{
    if (!pg)
        return;
    struct el e = el_new(a, "pmon-global");
    cite_attrs(a, &e, &pg->cite);
    text_child(a, &e, "desc", pg->desc);
    global_control_el(a, &e, pg->control);
    global_status_el(a, &e, pg->status);
    el_add(a, p, &e);
}

/* ------------------------------------------------------------ metrics */

static void metric_el(struct arena *a, struct el *p, const struct model_metric *m)
{
    struct el e = el_new(a, "metric");
    attr(a, &e, "name", m->name);
    attr(a, &e, "formula", m->formula);
    attr(a, &e, "unit", m->unit);
    attr(a, &e, "scale", m->scale_text);
    attr(a, &e, "desc", m->desc);
    cite_attrs(a, &e, &m->cite);
    el_add(a, p, &e);
}

/* ------------------------------------------------------------ blocks */

/* 'prev': the instance written before in in its block, or NULL */
static void instance_el(struct arena *a, struct el *p, const struct derive_tree *t,
                        const struct model_block *b, const struct model_instance *in,
                        const struct model_instance *prev)
{
    struct el e = el_new(a, "instance");
    attr(a, &e, "name", in->name);
    if (in->has_base)
        attr_hex(a, &e, "base", in->base);
    if (in->has_pci) {
        attr_hex(a, &e, "vendor", in->vendor);
        attr_hex(a, &e, "device", in->device);
    }
    if (in->has_dev)
        attr_uint(a, &e, "dev", in->dev);
    if (in->has_func)
        attr_uint(a, &e, "func", in->func);
    derived_attr(a, &e, t, model_tree_ref(DERIVE_PERIPH, in, b));
    attr(a, &e, "alternate", in->alternate);
    attr(a, &e, "group", in->group);
    attr(a, &e, "version", in->version);
    attr(a, &e, "header-struct", in->header_struct);
    attr(a, &e, "prepend", in->prepend);
    attr(a, &e, "append", in->append);
    attr_true(a, &e, "own-type", in->own_type);
    dim_attrs(a, &e, in->dim_of, prev ? prev->dim_of : NULL);
    attr(a, &e, "desc", in->desc);
    cite_attrs(a, &e, &in->cite);
    for (size_t i = 0; i < in->ninterrupts; i++) {
        struct el it = el_new(a, "interrupt");
        attr(a, &it, "name", in->interrupts[i]->name);
        attr_uint(a, &it, "value", in->interrupts[i]->value);
        attr(a, &it, "desc", in->interrupts[i]->desc);
        el_add(a, &e, &it);
    }
    array_index_el(a, &e, in->array_index);
    el_add(a, p, &e);
}

static void addr_block_el(struct arena *a, struct el *p, const struct model_addr_block *ab)
{
    struct el e = el_new(a, "address-block");
    attr_hex(a, &e, "offset", ab->offset);
    attr_hex(a, &e, "size", ab->size);
    attr(a, &e, "usage", ab->usage);
    attr(a, &e, "protection", ab->protection);
    el_add(a, p, &e);
}

/* The peripheral, as the spec is seen as an SVD file (docs/regspec.md, "Derivation"), whose
 * block holds cluster 'c'; NULL when none does. */
static const char *periph_of(const struct model_spec *s, const struct model_cluster *c)
{
    for (size_t i = 0; i < s->nblocks; i++) {
        const struct model_block *b = s->blocks[i];
        for (size_t k = 0; k < b->nclusters; k++)
            if (b->clusters[k] == c)
                return b->ninstances ? b->instances[0]->name : b->name;
    }
    return NULL;
}

/*
 * A cluster a derived cluster or peripheral took from its base (model_cluster.taken) that
 * derives from nothing itself: derived-from= the cluster whose CMSIS type it uses, by its path
 * in the block, else from its peripheral (a derived peripheral's copy), where a reader's lookup
 * leads there, so read back (own-type="false") it keeps that type, as it would had the reader
 * taken it from the base again.
 */
static bool taken_attr(struct arena *a, struct el *e, const struct derive_tree *t,
                       const struct model_spec *s, const struct model_block *b,
                       const struct model_cluster *c)
{
    if (!c->taken || !c->type_of)
        return false;
    struct derive_ref n = model_tree_ref(DERIVE_CLUSTER, c, b);
    const char *path = model_cluster_path(a, c->type_of);
    if (derive_find_base(t, n, path).obj != c->type_of) {
        const char *periph = periph_of(s, c->type_of);
        path = periph ? arena_printf(a, "%s.%s", periph, path) : NULL;
        if (!path || derive_find_base(t, n, path).obj != c->type_of)
            return false;
    }
    attr(a, e, "derived-from", path);
    return true;
}

static void cluster_el(struct arena *a, struct el *p, const struct derive_tree *t,
                       const struct model_spec *s, const struct model_block *b,
                       const struct model_cluster *c)
{
    struct el e = el_new(a, "cluster");
    attr(a, &e, "name", c->name);
    if (c->written_name && strcmp(c->written_name, c->name) != 0)
        attr(a, &e, "svd-name", c->written_name);
    attr(a, &e, "in", c->parent ? model_cluster_path(a, c->parent) : NULL);
    attr_hex(a, &e, "address", c->address);
    if (c->count != 1)
        attr_uint(a, &e, "count", c->count);
    if (c->stride)
        attr_hex(a, &e, "stride", c->stride);
    attr(a, &e, "header-struct", c->header_struct);
    attr(a, &e, "alternate", c->alternate);
    /* svdconv's unmodified copy: its base's CMSIS type (needs the derived-from= written) */
    struct derive_ref n = model_tree_ref(DERIVE_CLUSTER, c, b);
    if ((derived_attr(a, &e, t, n) || taken_attr(a, &e, t, s, b, c)) && c->type_of)
        attr(a, &e, "own-type", "false");
    attr(a, &e, "desc", c->desc);
    array_index_el(a, &e, c->array_index);
    el_add(a, p, &e);
}

static void block_el(struct arena *a, struct el *p, const struct derive_tree *t,
                     const struct model_spec *s, const struct model_block *b)
{
    struct el e = el_new(a, "block");
    attr(a, &e, "name", b->name);
    attr(a, &e, "title", b->title);
    attr(a, &e, "gaps", b->gaps);
    attr(a, &e, "group", b->group);
    attr(a, &e, "header-struct", b->header_struct);
    attr(a, &e, "prepend", b->prepend);
    attr(a, &e, "append", b->append);
    attr(a, &e, "type-of", b->type_of ? b->type_of->name : NULL);
    cite_attrs(a, &e, &b->cite);
    text_child(a, &e, "desc", b->desc);
    for (size_t i = 0; i < b->ninstances; i++)
        instance_el(a, &e, t, b, b->instances[i], i ? b->instances[i - 1] : NULL);
    for (size_t i = 0; i < b->naddr_blocks; i++)
        addr_block_el(a, &e, b->addr_blocks[i]);
    for (size_t i = 0; i < b->nclusters; i++)
        cluster_el(a, &e, t, s, b, b->clusters[i]);
    for (size_t i = 0; i < b->nregs; i++)
        register_el(a, &e, t, b, b->regs[i], i ? b->regs[i - 1] : NULL,
                    b->gaps ? b->gaps : s->gaps);
    for (size_t i = 0; i < b->nevent_tables; i++)
        events_el(a, &e, b->event_tables[i]);
    pmon_el(a, &e, b->pmon);
    el_add(a, p, &e);
}

/* ------------------------------------------------------------ the spec */

static void source_el(struct arena *a, struct el *p, const struct model_source *src)
{
    struct el e = el_new(a, "source");
    attr(a, &e, "id", src->id);
    attr(a, &e, "title", src->title);
    attr(a, &e, "ref", src->ref);
    attr(a, &e, "rev", src->rev);
    attr(a, &e, "date", src->date);
    attr(a, &e, "url", src->url);
    text_child(a, &e, "desc", src->desc);
    el_add(a, p, &e);
}

static void cpu_el(struct arena *a, struct el *p, const struct model_cpu *cpu)
{
    struct el e = el_new(a, "cpu");
    attr(a, &e, "vendor", cpu->vendor);
    attr_hex(a, &e, "family", cpu->family);
    attr_hex(a, &e, "model", cpu->model);
    attr(a, &e, "name", cpu->name);
    cite_attrs(a, &e, &cpu->cite);
    el_add(a, p, &e);
}

static void core_el(struct arena *a, struct el *p, const struct model_device_cpu *c)
{
    struct el e = el_new(a, "core");
    attr(a, &e, "name", c->name);
    attr(a, &e, "revision", c->revision);
    attr(a, &e, "endian", c->endian);
    attr_bool(a, &e, "mpu", c->mpu);
    attr_bool(a, &e, "fpu", c->fpu);
    attr_bool(a, &e, "fpu-dp", c->fpu_dp);
    attr_bool(a, &e, "icache", c->icache);
    attr_bool(a, &e, "dcache", c->dcache);
    attr_bool(a, &e, "vtor", c->vtor);
    if (c->has_nvic_bits)
        attr_uint(a, &e, "nvic-prio-bits", c->nvic_prio_bits);
    attr_bool(a, &e, "vendor-systick", c->vendor_systick);
    el_add(a, p, &e);
}

static void device_el(struct arena *a, struct el *p, const struct model_device *d)
{
    struct el e = el_new(a, "device");
    attr(a, &e, "name", d->name);
    attr(a, &e, "vendor", d->vendor);
    attr(a, &e, "vendor-id", d->vendor_id);
    attr(a, &e, "series", d->series);
    attr(a, &e, "version", d->version);
    attr(a, &e, "header-prefix", d->header_prefix);
    attr_uint(a, &e, "address-unit-bits", d->address_unit_bits);
    attr_uint(a, &e, "width", d->width);
    attr(a, &e, "desc", d->desc);
    text_child(a, &e, "license", d->license);
    if (d->cpu)
        core_el(a, &e, d->cpu);
    el_add(a, p, &e);
}

/* What report_dropped() reads: the spec as a tree, and where to report. */
struct dropped {
    struct derive_tree t;
    struct diag *dg;
};

/* Derived node 'n', when its derived-from names no base in the spec as written (derived_attr):
 * said at its derived-from, with what is left out. */
static void report_dropped(void *ctx, struct derive_ref n)
{
    struct dropped *d = ctx;
    bool lost = set_values_lost(n);
    if (model_tree_base(&d->t, n).kind != DERIVE_NONE && !lost)
        return;
    struct srcpos pos;
    const char *from = model_tree_derived_from(n, &pos);
    struct buf what = BUF_INIT;
    model_tree_describe(n, &what);
    const struct model_field *f = n.kind == DERIVE_FIELD   ? n.obj
                                  : n.kind == DERIVE_ENUMS ? n.ctx
                                                           : NULL;
    if (f) /* a copy's place: it is written at its base's */
        buf_addf(&what, " of register '%s'", f->reg->name);
    if (lost)
        diag_report(d->dg, DIAG_REGSPEC_OUT_DROPPED, pos.line ? pos : model_tree_pos(n),
                    "%s is written without its derived-from '%s': it holds no value, where its "
                    "base holds some",
                    what.s, from);
    else
        diag_report(d->dg, DIAG_REGSPEC_OUT_DROPPED, pos.line ? pos : model_tree_pos(n),
                    "%s is written without its derived-from '%s': it names no %s in the regspec "
                    "-t regspec writes",
                    what.s, from,
                    n.kind == DERIVE_REG || n.kind == DERIVE_CLUSTER ? "register or cluster"
                                                                     : model_tree_kind_word(n));
    buf_release(&what);
}

int context_regspec_check(struct diag *dg, const struct model_spec *s)
{
    unsigned errors = dg->nerrors;
    struct derive_index names;
    derive_index_init(&names);
    struct dropped d = {model_tree(s, &names), dg};
    model_tree_each_derived(s, report_dropped, &d);
    derive_index_release(&names);
    return dg->nerrors > errors ? -1 : 0;
}

struct regspec_names {
    const struct model_spec *s;
    struct derive_index names; /* before 't', which looks names up through it */
    struct derive_tree t;
};

struct regspec_names *context_regspec_names(const struct model_spec *s)
{
    struct regspec_names *n = xcalloc(1, sizeof(*n));
    n->s = s;
    derive_index_init(&n->names);
    n->t = model_tree(s, &n->names);
    return n;
}

void context_regspec_names_free(struct regspec_names *n)
{
    if (!n)
        return;
    derive_index_release(&n->names);
    free(n);
}

struct dt *context_regspec_block(struct arena *a, const struct regspec_names *n, size_t i)
{
    struct el holder = el_new(a, "holder");
    block_el(a, &holder, &n->t, n->s, n->s->blocks[i]);
    return dt_at(holder.children, 0);
}

struct dt *context_regspec(struct arena *a, const struct model_spec *s, struct dt *stubs)
{
    struct el top = el_new(a, "top"); /* holds the root element */
    struct el e = el_new(a, "regspec");
    attr(a, &e, "name", s->name);
    attr(a, &e, "prefix", s->prefix);
    attr_uint(a, &e, "version", s->version);
    attr(a, &e, "title", s->title);
    attr(a, &e, "gaps", s->gaps);
    attr_true(a, &e, "block-names", s->block_names);
    text_child(a, &e, "desc", s->desc);
    for (size_t i = 0; i < s->nsources; i++)
        source_el(a, &e, s->sources[i]);
    for (size_t i = 0; i < s->ncpus; i++)
        cpu_el(a, &e, s->cpus[i]);
    if (s->device)
        device_el(a, &e, s->device);
    if (stubs) { /* placeholders, each a block's element once built */
        for (size_t i = 0; i < s->nblocks; i++) {
            dt_push(a, e.children, &stubs[i]);
            e.nchildren++;
        }
    } else {
        struct regspec_names *n = context_regspec_names(s);
        for (size_t i = 0; i < s->nblocks; i++)
            block_el(a, &e, &n->t, s, s->blocks[i]);
        context_regspec_names_free(n);
    }
    pmon_global_el(a, &e, s->pmon_global);
    for (size_t i = 0; i < s->nmetrics; i++)
        metric_el(a, &e, s->metrics[i]);
    el_add(a, &top, &e);
    struct dt *o = dt_obj(a);
    SET(a, o, "root", e.o);
    return o;
}
