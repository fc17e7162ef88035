/*
 * xmlelem - the element handlers: each makes one model object from one
 * element's attributes (xmlattr.c reads them), the spec language's
 * elements one by one; which list the object joins is xmlload.c's
 * business (the open elements). See xmlload_int.h.
 */
#include "xmlload_int.h"

#include "expr.h"
#include "metric.h"
#include "util.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- registers */

/* name="BASE" or name="BASE{HI-LO}" / "BASE{LO-HI}" */
static void parse_reg_name(struct loader *ld, const struct xl_elem *n, struct model_reg *r)
{
    struct value_array_name an;
    struct value_error err;
    bool ok = value_array_name(ld->a, r->written_name, &an, &err);
    r->name = an.name;
    r->first = an.first;
    r->count = an.count;
    r->is_array = an.is_array;
    r->descending = an.descending;
    if (!ok)
        xl_report_value(ld, n, "name", &err);
}

/* <field name= bits= access= reset= desc=> <desc/> <value/>* </field> */
struct model_value *xl_load_value(struct loader *ld, const struct xl_elem *n)
{
    struct model_value *v = arena_zalloc(ld->a, sizeof(*v));
    v->name = xl_get(ld, n, "name");
    xl_get_num(ld, n, "value", &v->value);
    v->undefined = xl_get_bool(ld, n, "undefined");
    v->desc = xl_desc_of(ld, n);
    v->pos = xl_pos_of(ld, n);
    return v;
}

static struct model_field *new_field(struct loader *ld, const struct xl_elem *n, struct model_reg *r)
{
    struct model_field *f = arena_zalloc(ld->a, sizeof(*f));
    const char *bits = xl_peek(ld, n, "bits");
    struct value_error err;
    if (bits && !value_bits(ld->a, bits, &f->msb, &f->lsb, &err))
        xl_report_value(ld, n, "bits", &err);
    f->access_text = xl_get(ld, n, "access");
    f->access = f->access_text ? regc_access_parse(f->access_text) : REGC_ACCESS_UNKNOWN;
    f->reg = r;
    f->pos = xl_pos_of(ld, n);
    return f;
}

struct model_field *xl_load_field(struct loader *ld, const struct xl_elem *n, struct model_reg *r)
{
    struct model_field *f = new_field(ld, n, r);
    f->name = xl_get(ld, n, "name");
    xl_get_num(ld, n, "reset", &f->reset);
    struct model_cite cite = {0}; /* cite_of() leaves .source to check */
    xl_doc_of(ld, n, &f->desc, &cite); /* 'pos' set above */
    f->cite = model_cite_keep(ld->a, &cite);
    xl_mmio_field(ld, n, f);
    return f;
}

/* <gap bits= access= why=>: an implicit field named rsv (ig for access ig, gap for access gap) */
struct model_field *xl_load_gap(struct loader *ld, const struct xl_elem *n, struct model_reg *r)
{
    struct model_field *f = new_field(ld, n, r);
    bool named = f->access_text && (strcmp(f->access_text, "ig") == 0 ||
                                    strcmp(f->access_text, "gap") == 0);
    f->name = named ? f->access_text : "rsv";
    const char *why = xl_peek(ld, n, "why");
    f->desc = why ? value_fold_text(ld->a, why) : NULL;
    f->implicit = true;
    /* a gap keeps what the register's reset puts there, as a gaps="gap" fill does (check_reg.c) */
    if (f->access == REGC_ACCESS_GAP && r->has_reset && f->msb >= f->lsb && f->msb < 64)
        f->reset = (r->reset >> f->lsb) & model_field_max(f);
    return f;
}

/* <rule name= expr= cite...>message</rule> */
struct model_rule *xl_load_rule(struct loader *ld, const struct xl_elem *n)
{
    struct model_rule *ru = arena_zalloc(ld->a, sizeof(*ru));
    ru->name = xl_get(ld, n, "name");
    ru->expr_text = xl_get(ld, n, "expr");
    ru->expr_pos = xl_value_pos(ld, n, "expr", 0);
    struct model_cite cite = {0}; /* cite_of() leaves .source to check */
    ru->pos = xl_doc_of(ld, n, NULL, &cite);
    ru->cite = model_cite_keep(ld->a, &cite);
    if (!ru->expr_text)
        return ru;
    struct expr_error err;
    ru->expr = expr_parse(ld->a, ru->expr_text, &err);
    if (!ru->expr)
        xl_report(ld, DIAG_RULE_SYNTAX, xl_value_pos(ld, n, "expr", err.offset), "rule '%s': %s",
                    ru->name ? ru->name : "?", err.message);
    return ru;
}

/* <metric name= formula= unit= scale= desc= cite...> (docs/regspec.md, "Metrics") */
struct model_metric *xl_load_metric(struct loader *ld, const struct xl_elem *n)
{
    struct model_metric *m = arena_zalloc(ld->a, sizeof(*m));
    m->name = xl_get(ld, n, "name");
    m->formula = xl_get(ld, n, "formula");
    m->formula_pos = xl_value_pos(ld, n, "formula", 0);
    m->unit = xl_get(ld, n, "unit");
    m->unit_pos = xl_value_pos(ld, n, "unit", 0);
    m->scale_text = xl_get(ld, n, "scale");
    m->scale = 1;
    m->pos = xl_doc_of(ld, n, &m->desc, &m->cite);
    if (m->scale_text) { /* a NUMBER of the formula language (metric.h), nothing else */
        struct metric_error serr;
        const struct metric_node *sn = metric_parse(ld->a, m->scale_text, &serr);
        m->scale = sn && sn->op == METRIC_OP_NUM ? sn->value : 0;
        if (m->scale == 0)
            xl_report(ld, DIAG_METRIC_SYNTAX, xl_value_pos(ld, n, "scale", 0),
                      "metric '%s': scale '%s' is not a finite non-zero number (e.g. 1e-9, 100)",
                      m->name ? m->name : "?", m->scale_text);
    }
    if (!m->formula)
        return m;
    struct metric_error err;
    m->expr = metric_parse(ld->a, m->formula, &err);
    if (!m->expr)
        xl_report(ld, DIAG_METRIC_SYNTAX, xl_value_pos(ld, n, "formula", err.offset), "metric '%s': %s",
                  m->name ? m->name : "?", err.message);
    return m;
}

/* <at instance= address=> */
struct model_at *xl_load_at(struct loader *ld, const struct xl_elem *n)
{
    struct model_at *at = arena_zalloc(ld->a, sizeof(*at));
    at->instance_name = xl_get(ld, n, "instance");
    xl_get_num(ld, n, "address", &at->address);
    at->pos = xl_pos_of(ld, n);
    return at;
}

/* address= and stride=, or addresses=: which the register gives, and whether they fit its form. */
static void load_reg_address(struct loader *ld, const struct xl_elem *n, struct model_reg *r)
{
    const char *address = xl_peek(ld, n, "address"), *stride = xl_peek(ld, n, "stride");
    const char *addresses = xl_peek(ld, n, "addresses");
    const char *name = r->written_name ? r->written_name : "?";
    if (addresses && (address || stride)) {
        xl_report(ld, DIAG_BAD_ARRAY, xl_value_pos(ld, n, "addresses", 0),
                    "register '%s' gives 'addresses' and '%s': give one or the other", name,
                    address ? "address" : "stride");
        return;
    }
    if (addresses) {
        if (!r->is_array) {
            xl_report(ld, DIAG_BAD_ARRAY, xl_value_pos(ld, n, "addresses", 0),
                        "register '%s' is not an array: 'addresses' needs a name such as "
                        "'%s{3-0}'", name, name);
            return;
        }
        struct value_error err;
        bool listed = value_addresses(ld->a, addresses, &r->addrs, &r->naddrs, &err);
        if (!listed)
            xl_report_value(ld, n, "addresses", &err);
        if (listed && r->naddrs != r->count)
            xl_report(ld, DIAG_BAD_ARRAY, xl_value_pos(ld, n, "addresses", 0),
                        "register array '%s' has %u elements but 'addresses' lists %zu",
                        name, r->count, r->naddrs);
        if (r->naddrs != r->count) {
            r->addrs = NULL;
            r->naddrs = 0;
        }
        r->address = r->addrs ? r->addrs[0] : 0;
        return;
    }
    if (!address) { /* the schema allows either form, so it cannot say this */
        xl_report(ld, DIAG_SCHEMA, r->pos,
                    "element 'register': missing attribute 'address' (or 'addresses')");
        return;
    }
    xl_get_num(ld, n, "address", &r->address);
    bool has_stride = xl_get_num(ld, n, "stride", &r->stride);
    if (r->is_array && !has_stride && !stride)
        xl_report(ld, DIAG_BAD_ARRAY, r->pos, "register array '%s' has no 'stride'",
                    r->written_name);
}

/* <register name= space= address= stride= | addresses= width= size= reset= gaps= desc= cite...> */
struct model_reg *xl_load_register(struct loader *ld, const struct xl_elem *n, struct model_block *b)
{
    struct model_reg *r = arena_zalloc(ld->a, sizeof(*r));
    r->pos = xl_pos_of(ld, n);
    r->block = b;
    r->written_name = xl_get(ld, n, "name");
    if (r->written_name)
        parse_reg_name(ld, n, r);
    load_reg_address(ld, n, r);
    r->space = value_space(xl_peek(ld, n, "space"));
    r->width = xl_get_uint(ld, n, "width", 0);
    r->size = xl_get_uint(ld, n, "size", r->space == SPACE_MSR ? 64 : 32);
    r->has_reset = xl_get_num(ld, n, "reset", &r->reset);
    const char *gaps = xl_get(ld, n, "gaps");
    r->gaps = gaps ? gaps : b->gaps ? b->gaps : ld->spec->gaps;
    xl_doc_of(ld, n, &r->desc, &r->cite); /* 'pos' set above */
    xl_mmio_register(ld, n, r);
    return r;
}

/* ---------------------------------------------------------------- events */

/* <set register= field= value=> */
struct model_set *xl_load_set(struct loader *ld, const struct xl_elem *n)
{
    struct model_set *s = arena_zalloc(ld->a, sizeof(*s));
    s->reg_name = xl_get(ld, n, "register");
    s->field_name = xl_get(ld, n, "field");
    xl_get_num(ld, n, "value", &s->value);
    s->pos = xl_pos_of(ld, n);
    return s;
}

/* <event name= code= umask= counters=> (<set/>|<sub/>)* or <sub name= umask= counters=> <set/>* */
struct model_event *xl_load_event(struct loader *ld, const struct xl_elem *n, struct model_events *t,
                                  struct model_event *parent)
{
    struct model_event *e = arena_zalloc(ld->a, sizeof(*e));
    e->name = xl_get(ld, n, "name");
    e->parent = parent;
    e->table = t;
    e->pos = xl_pos_of(ld, n);
    e->full_name = parent && parent->name && e->name
                       ? arena_printf(ld->a, "%s.%s", parent->name, e->name)
                       : e->name;
    if (parent)
        e->code = parent->code;
    else
        xl_get_num(ld, n, "code", &e->code);
    e->has_umask = xl_get_num(ld, n, "umask", &e->umask);
    e->counters_text = xl_get(ld, n, "counters");
    e->perfmon = xl_get(ld, n, "perfmon");
    const char *combine = xl_get(ld, n, "combine");
    e->combine_or = combine && strcmp(combine, "or") == 0;
    value_words(ld->a, xl_get(ld, n, "filters"), &e->filters, &e->nfilters);
    value_words(ld->a, xl_get(ld, n, "unmodelled-filters"), &e->unmodelled, &e->nunmodelled);
    e->counter_mask = UINT64_MAX;
    struct value_error err;
    if (e->counters_text) {
        e->has_counters = value_counters(ld->a, e->counters_text, &e->counter_mask, &err);
        if (!e->has_counters)
            xl_report_value(ld, n, "counters", &err);
    } else if (parent && parent->has_counters)
        e->has_counters = true, e->counter_mask = parent->counter_mask,
        e->counters_text = parent->counters_text;
    xl_doc_of(ld, n, &e->desc, &e->cite); /* 'pos' set above */
    return e;
}

/* <events register= code-field= umask-field= title=> <event/>* */
struct model_events *xl_load_events(struct loader *ld, const struct xl_elem *n, struct model_block *b)
{
    struct model_events *t = arena_zalloc(ld->a, sizeof(*t));
    t->reg_name = xl_get(ld, n, "register");
    t->code_field_name = xl_get(ld, n, "code-field");
    t->umask_field_name = xl_get(ld, n, "umask-field");
    t->title = xl_get(ld, n, "title");
    t->block = b;
    t->pos = xl_doc_of(ld, n, &t->desc, &t->cite);
    return t;
}

/* ---------------------------------------------------------------- pmon */

/* <filter register= field= match= traffic= perf= example= desc=> */
struct model_filter *xl_load_filter(struct loader *ld, const struct xl_elem *n)
{
    struct model_filter *f = arena_zalloc(ld->a, sizeof(*f));
    f->reg_name = xl_get(ld, n, "register");
    f->field_name = xl_get(ld, n, "field");
    f->match = xl_get(ld, n, "match");
    f->traffic = xl_get(ld, n, "traffic");
    f->perf = xl_get(ld, n, "perf");
    f->example = xl_get(ld, n, "example");
    f->pos = xl_doc_of(ld, n, &f->desc, &f->cite);
    return f;
}

/* <unmodelled-filter name= what= desc=> */
struct model_unmodelled_filter *xl_load_unmodelled_filter(struct loader *ld, const struct xl_elem *n)
{
    struct model_unmodelled_filter *f = arena_zalloc(ld->a, sizeof(*f));
    f->name = xl_get(ld, n, "name");
    f->what = xl_get(ld, n, "what");
    f->pos = xl_doc_of(ld, n, &f->desc, &f->cite);
    return f;
}

/* <rdpmc processor= first= high-zero=> */
struct model_rdpmc *xl_load_rdpmc(struct loader *ld, const struct xl_elem *n)
{
    struct model_rdpmc *r = arena_zalloc(ld->a, sizeof(*r));
    r->processor = xl_get(ld, n, "processor");
    r->first = xl_get_uint(ld, n, "first", 0);
    r->high_zero = xl_get_bool(ld, n, "high-zero");
    r->pos = xl_doc_of(ld, n, NULL, &r->cite);
    return r;
}

/* direction-field= direction-up= direction-down= direction-up-down= of <counters> */
static void load_directions(struct loader *ld, const struct xl_elem *n, struct model_counters *c)
{
    c->direction_field = xl_role_of(ld, n, "direction-field");
    for (int d = 0; d < DIRECTION_COUNT; d++)
        c->directions[d].given = xl_get_num(ld, n, model_direction_attr[d], &c->directions[d].value);
}

/* <counters kind= control= counter= count-field= width= overflow= wrap-field= roles... preload=> */
struct model_counters *xl_load_counters(struct loader *ld, const struct xl_elem *n)
{
    struct model_counters *c = arena_zalloc(ld->a, sizeof(*c));
    const char *kind = xl_get(ld, n, "kind"), *overflow = xl_get(ld, n, "overflow");
    const char *preload = xl_get(ld, n, "preload");
    c->kind = kind && strcmp(kind, "fixed") == 0 ? COUNTERS_FIXED : COUNTERS_GENERAL;
    c->control_name = xl_get(ld, n, "control");
    c->counter_name = xl_get(ld, n, "counter");
    c->count_field = xl_role_of(ld, n, "count-field");
    c->width = xl_get_uint(ld, n, "width", 0);
    c->overflow = overflow && strcmp(overflow, "stop") == 0 ? OVERFLOW_STOP : OVERFLOW_WRAP;
    c->wrap_field = xl_role_of(ld, n, "wrap-field");
    c->enable = xl_role_of(ld, n, "enable");
    c->reset = xl_role_of(ld, n, "reset");
    c->pmi = xl_role_of(ld, n, "pmi");
    c->edge = xl_role_of(ld, n, "edge");
    c->invert = xl_role_of(ld, n, "invert");
    c->threshold = xl_role_of(ld, n, "threshold");
    c->event = xl_role_of(ld, n, "event");
    c->umask = xl_role_of(ld, n, "umask");
    load_directions(ld, n, c);
    c->preload_minus_one = preload && strcmp(preload, "2^w-1-N") == 0;
    c->freeze_on_overflow = xl_get_bool(ld, n, "freeze-on-overflow");
    c->has_status_first = xl_get(ld, n, "status-first") != NULL;
    c->status_first = (unsigned)xl_get_uint(ld, n, "status-first", 0);
    c->pos = xl_doc_of(ld, n, NULL, &c->cite);
    return c;
}

/* <box-control register= freeze= freeze-enable= reset-counters= reset-controls= enable=> */
struct model_box_control *xl_load_box_control(struct loader *ld, const struct xl_elem *n)
{
    struct model_box_control *bc = arena_zalloc(ld->a, sizeof(*bc));
    bc->reg_name = xl_get(ld, n, "register");
    bc->freeze = xl_role_of(ld, n, "freeze");
    bc->freeze_enable = xl_role_of(ld, n, "freeze-enable");
    bc->reset_counters = xl_role_of(ld, n, "reset-counters");
    bc->reset_controls = xl_role_of(ld, n, "reset-controls");
    bc->enable = xl_role_of(ld, n, "enable");
    bc->pos = xl_doc_of(ld, n, NULL, &bc->cite);
    return bc;
}

/* clear="w1c|write0|none" clear-register= clear-field=: default w1c, CLEAR_REGISTER when a
 * register is named */
static enum model_clear clear_of(struct loader *ld, const struct xl_elem *n, const char **reg,
                                 struct model_role *field)
{
    const char *clear = xl_get(ld, n, "clear");
    *reg = xl_get(ld, n, "clear-register");
    *field = xl_role_of(ld, n, "clear-field");
    bool none = clear && strcmp(clear, "none") == 0;
    if (none && *reg) /* the schema cannot say that two attributes exclude each other */
        xl_report(ld, DIAG_SCHEMA, xl_value_pos(ld, n, "clear", 0),
                    "element '%s': clear=\"none\" says nothing clears the bits, but "
                    "clear-register names a register that does: give one of them",
                    (const char *)n->name);
    if (*reg)
        return CLEAR_REGISTER;
    if (none)
        return CLEAR_NONE;
    return clear && strcmp(clear, "write0") == 0 ? CLEAR_WRITE0 : CLEAR_W1C;
}

/* <box-status register= overflow= clear...> */
struct model_box_status *xl_load_box_status(struct loader *ld, const struct xl_elem *n)
{
    struct model_box_status *bs = arena_zalloc(ld->a, sizeof(*bs));
    bs->reg_name = xl_get(ld, n, "register");
    bs->overflow = xl_role_of(ld, n, "overflow");
    bs->clear = clear_of(ld, n, &bs->clear_reg_name, &bs->clear_field);
    bs->pos = xl_doc_of(ld, n, NULL, &bs->cite);
    return bs;
}

/* <pmon> (<counters/>|<box-control/>|<box-status/>)* </pmon>; NULL when the block has one */
struct model_pmon *xl_load_pmon(struct loader *ld, const struct xl_elem *n, struct model_block *b)
{
    if (b->pmon) {
        xl_report_repeated(ld, n, b->pmon->pos);
        return NULL;
    }
    struct model_pmon *p = arena_zalloc(ld->a, sizeof(*p));
    p->pos = xl_doc_of(ld, n, NULL, &p->cite);
    b->pmon = p;
    return p;
}

/* pmi-core="A B C": a list of one-bit fields (bit i of the routing mask: field i); pmi_core keeps the first. */
static void split_pmi_cores(struct loader *ld, struct model_global_control *g)
{
    const char *s = g->pmi_core.name;
    if (!s || !strpbrk(s, " \t,"))
        return;
    /* at most one name in two bytes */
    g->pmi_cores = arena_zalloc(ld->a, (strlen(s) / 2 + 1) * sizeof(*g->pmi_cores));
    for (const char *p = s; *p;) {
        p += strspn(p, " \t,");
        size_t len = strcspn(p, " \t,");
        if (!len)
            break;
        char *name = arena_zalloc(ld->a, len + 1);
        memcpy(name, p, len);
        g->pmi_cores[g->npmi_cores++] = (struct model_role){name, NULL};
        p += len;
    }
    g->pmi_core = g->pmi_cores[0];
}

/* <global-control block= register= freeze= unfreeze= enable= freeze-on-overflow= pmi-core= wake= reset= select=> */
struct model_global_control *xl_load_global_control(struct loader *ld, const struct xl_elem *n)
{
    struct model_global_control *g = arena_zalloc(ld->a, sizeof(*g));
    g->block_name = xl_get(ld, n, "block");
    g->reg_name = xl_get(ld, n, "register");
    g->freeze = xl_role_of(ld, n, "freeze");
    g->unfreeze = xl_role_of(ld, n, "unfreeze");
    g->enable = xl_role_of(ld, n, "enable");
    g->freeze_on_overflow = xl_role_of(ld, n, "freeze-on-overflow");
    g->pmi_core = xl_role_of(ld, n, "pmi-core");
    g->select = xl_role_of(ld, n, "select");
    split_pmi_cores(ld, g);
    g->wake = xl_role_of(ld, n, "wake");
    g->reset = xl_role_of(ld, n, "reset");
    g->pos = xl_doc_of(ld, n, NULL, &g->cite);
    return g;
}

/* <box-overflow block= field= instance= counters=> */
struct model_box_overflow *xl_load_box_overflow(struct loader *ld, const struct xl_elem *n)
{
    struct model_box_overflow *o = arena_zalloc(ld->a, sizeof(*o));
    o->block_name = xl_get(ld, n, "block");
    o->field_name = xl_get(ld, n, "field");
    o->instance_name = xl_get(ld, n, "instance");
    o->counters_name = xl_get(ld, n, "counters");
    o->pos = xl_pos_of(ld, n);
    return o;
}

/* <global-status block= register= clear...> <box-overflow/>* */
struct model_global_status *xl_load_global_status(struct loader *ld, const struct xl_elem *n)
{
    struct model_global_status *g = arena_zalloc(ld->a, sizeof(*g));
    g->block_name = xl_get(ld, n, "block");
    g->reg_name = xl_get(ld, n, "register");
    g->clear = clear_of(ld, n, &g->clear_reg_name, &g->clear_field);
    g->pos = xl_doc_of(ld, n, NULL, &g->cite);
    return g;
}

/* <pmon-global> (<global-control/>|<global-status/>)*; NULL when the spec has one */
struct model_pmon_global *xl_load_pmon_global(struct loader *ld, const struct xl_elem *n)
{
    struct model_spec *s = ld->spec;
    if (s->pmon_global) {
        xl_report_repeated(ld, n, s->pmon_global->pos);
        return NULL;
    }
    struct model_pmon_global *p = arena_zalloc(ld->a, sizeof(*p));
    p->pos = xl_doc_of(ld, n, NULL, &p->cite);
    s->pmon_global = p;
    return p;
}

/* ---------------------------------------------------------------- blocks and the spec */

/* <instance name= base= vendor= device= dev= func= desc=> */
struct model_instance *xl_load_instance(struct loader *ld, const struct xl_elem *n, struct model_block *b)
{
    struct model_instance *in = arena_zalloc(ld->a, sizeof(*in));
    in->name = xl_get(ld, n, "name");
    in->has_base = xl_get_num(ld, n, "base", &in->base);
    /* A PCI locator: vendor and device, each 16 bits; dev (5 bits) and func (3 bits) may be
     * left out, meaning any slot (a bridge sits wherever the board puts it). */
    bool v = xl_get_num_max(ld, n, "vendor", 0xffff, &in->vendor);
    bool d = xl_get_num_max(ld, n, "device", 0xffff, &in->device);
    in->has_dev = xl_get_num_max(ld, n, "dev", 31, &in->dev);
    in->has_func = xl_get_num_max(ld, n, "func", 7, &in->func);
    in->has_pci = v && d;
    /* a locator part without vendor= and device=: the first one given is named */
    bool gv = xl_has(n, "vendor");
    bool gd = xl_has(n, "device");
    const char *part = gv ? "vendor" : gd ? "device"
                     : xl_has(n, "dev") ? "dev"
                     : xl_has(n, "func") ? "func" : NULL;
    if (part && !(gv && gd))
        xl_report(ld, DIAG_SCHEMA, xl_pos_of(ld, n),
                  "instance '%s' gives %s= but no %s: a PCI locator needs vendor= and device= "
                  "(dev= and func= may be left out: any slot)",
                  in->name ? in->name : "?", part,
                  gv ? "device=" : gd ? "vendor=" : "vendor= and no device=");
    in->block = b;
    in->index = (unsigned)b->ninstances;
    in->pos = xl_doc_of(ld, n, &in->desc, &in->cite);
    xl_mmio_instance(ld, n, in);
    /* A dim-of= list's elements are told apart by their base addresses (model_instance_list());
     * a PCI instance is located by its vendor, device and slot, so it is in no list. */
    if (in->has_pci && in->dim_of)
        xl_report(ld, DIAG_SCHEMA, xl_value_pos(ld, n, "dim-of", 0),
                  "instance '%s' gives dim-of= and a PCI locator: a dim-of= list is of "
                  "memory-mapped instances, told apart by base=",
                  in->name ? in->name : "?");
    return in;
}

/* <source id= title= ref= rev= date= url=> <desc/>? */
struct model_source *xl_load_source(struct loader *ld, const struct xl_elem *n)
{
    struct model_source *s = arena_zalloc(ld->a, sizeof(*s));
    s->id = xl_get(ld, n, "id");
    s->title = xl_get(ld, n, "title");
    if (s->title)
        s->title = value_fold_text(ld->a, s->title);
    s->ref = xl_get(ld, n, "ref");
    s->rev = xl_get(ld, n, "rev");
    s->date = xl_get(ld, n, "date");
    s->url = xl_get(ld, n, "url");
    s->desc = xl_desc_of(ld, n);
    s->pos = xl_pos_of(ld, n);
    return s;
}

/* <cpu vendor= family= model= name= cite...> */
struct model_cpu *xl_load_cpu(struct loader *ld, const struct xl_elem *n)
{
    struct model_cpu *cpu = arena_zalloc(ld->a, sizeof(*cpu));
    cpu->vendor = xl_get(ld, n, "vendor");
    cpu->name = xl_get(ld, n, "name");
    xl_get_num(ld, n, "family", &cpu->family);
    xl_get_num(ld, n, "model", &cpu->model);
    cpu->pos = xl_doc_of(ld, n, NULL, &cpu->cite);
    return cpu;
}


/* <block name= title= gaps= cite...> children </block> */
struct model_block *xl_load_block(struct loader *ld, const struct xl_elem *n)
{
    struct model_block *b = arena_zalloc(ld->a, sizeof(*b));
    b->name = xl_get(ld, n, "name");
    b->title = xl_get(ld, n, "title");
    b->gaps = xl_get(ld, n, "gaps");
    b->pos = xl_doc_of(ld, n, &b->desc, &b->cite);
    xl_mmio_block(ld, n, b);
    return b;
}

/* <regspec name= prefix= version= title= gaps=> children </regspec> */
void xl_load_regspec(struct loader *ld, const struct xl_elem *n)
{
    struct model_spec *s = ld->spec;
    s->name = xl_get(ld, n, "name");
    s->prefix = xl_get(ld, n, "prefix");
    s->title = xl_get(ld, n, "title");
    s->gaps = xl_get(ld, n, "gaps");
    s->version = xl_get_uint(ld, n, "version", 0);
    s->block_names = xl_get_bool(ld, n, "block-names");
    s->desc = xl_desc_of(ld, n);
    s->pos = xl_pos_of(ld, n);
}
