/*
 * model_json.c - the checked model written as JSON while it is walked
 * (docs/json.md, docs/regc-model.schema.json).
 *
 * A small writer ('struct jw') keeps the nesting and the separators; each
 * model object has one function writing its keys in the documented order.
 * Masks and event encodings come from model.c, the code the C header uses.
 * With a sink, the text is handed over in blocks of about FLUSH_AT bytes
 * as it is made, so memory does not follow the size of the export.
 */
#include "model_json.h"

#include "metric.h"
#include "model_metric.h"
#include "mustache.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ writer */

/* What the writer holds before it hands the text to the sink. */
#define FLUSH_AT ((size_t)64 * 1024)

struct jw {
    struct buf *out;
    mus_sink_fn *sink; /* NULL: everything stays in 'out' */
    void *sink_ctx;
    unsigned depth; /* open objects and lists */
    bool first;     /* nothing written yet in the innermost one */
};

/* Hands what 'out' holds to the sink and empties 'out'. */
static void hand_over(struct jw *w)
{
    w->sink(w->sink_ctx, w->out->s, w->out->len);
    buf_reset(w->out);
}

static void newline(struct jw *w)
{
    static const char spaces[] = "                                ";
    buf_addc(w->out, '\n');
    for (size_t n = 2 * (size_t)w->depth; n;) {
        size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
        buf_addn(w->out, spaces, k);
        n -= k;
    }
}

/* Starts the next member ('key') of an object, or item (NULL) of a list. */
static void next(struct jw *w, const char *key)
{
    if (!w->first)
        buf_addc(w->out, ',');
    w->first = false;
    if (w->depth)
        newline(w);
    if (key) {
        buf_addc(w->out, '"');
        buf_adds(w->out, key);
        buf_addn(w->out, "\": ", 3);
    }
}

static void open_obj(struct jw *w, const char *key)
{
    next(w, key);
    buf_addc(w->out, '{');
    w->depth++;
    w->first = true;
}

static void open_list(struct jw *w, const char *key)
{
    next(w, key);
    buf_addc(w->out, '[');
    w->depth++;
    w->first = true;
}

static void close_as(struct jw *w, char ch)
{
    w->depth--;
    if (!w->first)
        newline(w);
    buf_addc(w->out, ch);
    w->first = false;
}

/* Objects end often and never inside a value: where a full block goes to the sink. */
static void close_obj(struct jw *w)
{
    close_as(w, '}');
    if (w->sink && w->out->len >= FLUSH_AT)
        hand_over(w);
}

static void close_list(struct jw *w)
{
    close_as(w, ']');
}

static void put_null(struct jw *w, const char *key)
{
    next(w, key);
    buf_addn(w->out, "null", 4);
}

/* A string, or null when 's' is NULL. */
static void put_str(struct jw *w, const char *key, const char *s)
{
    if (!s) {
        put_null(w, key);
        return;
    }
    next(w, key);
    buf_addc(w->out, '"');
    mus_escape(w->out, MUS_ESCAPE_JSON, s, strlen(s));
    buf_addc(w->out, '"');
}

static void put_bool(struct jw *w, const char *key, bool v)
{
    next(w, key);
    buf_adds(w->out, v ? "true" : "false");
}

/* A JSON number: only for values far below 2^53 (bit positions, widths, counts, indices). */
static void put_uint(struct jw *w, const char *key, uint64_t v)
{
    char tmp[24];
    size_t n = sizeof(tmp);
    do {
        tmp[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    next(w, key);
    buf_addn(w->out, tmp + n, sizeof(tmp) - n);
}

/* "0x" and lower-case hex digits without leading zeros: every bit of a 64-bit value. */
static void put_hex(struct jw *w, const char *key, uint64_t v)
{
    char tmp[24];
    size_t n = sizeof(tmp);
    tmp[--n] = '"';
    do {
        tmp[--n] = "0123456789abcdef"[v & 0xf];
        v >>= 4;
    } while (v);
    tmp[--n] = 'x';
    tmp[--n] = '0';
    tmp[--n] = '"';
    next(w, key);
    buf_addn(w->out, tmp + n, sizeof(tmp) - n);
}

/* ------------------------------------------------------------ spec, sources, citations */

/* "source": {"src","table","page","section","cite"}, all null when nothing is cited. */
static void put_cite(struct jw *w, const struct model_cite *c)
{
    open_obj(w, "source");
    put_str(w, "src", c->src);
    put_str(w, "table", c->table);
    put_str(w, "page", c->page);
    put_str(w, "section", c->section);
    put_str(w, "cite", c->cite);
    close_obj(w);
}

/* ------------------------------------------------------------ memory-mapped (SVD) additions */
/*
 * Keys a spec read from CMSIS-SVD adds (docs/svd.md, docs/json.md): "device" on the
 * spec and "svd" on blocks, instances, registers, fields and values. A regspec's
 * export has none of them.
 */

static void put_svd_device(struct jw *w, const struct model_device *d)
{
    open_obj(w, "device");
    put_str(w, "name", d->name);
    put_str(w, "vendor", d->vendor);
    put_str(w, "vendor_id", d->vendor_id);
    put_str(w, "series", d->series);
    put_str(w, "version", d->version);
    put_str(w, "desc", d->desc);
    put_str(w, "header_prefix", d->header_prefix);
    put_uint(w, "address_unit_bits", d->address_unit_bits);
    put_uint(w, "width", d->width);
    if (!d->cpu) {
        put_null(w, "cpu");
    } else {
        open_obj(w, "cpu");
        put_str(w, "name", d->cpu->name);
        put_str(w, "revision", d->cpu->revision);
        put_str(w, "endian", d->cpu->endian);
        put_bool(w, "mpu", d->cpu->mpu);
        put_bool(w, "fpu", d->cpu->fpu);
        put_bool(w, "vtor", d->cpu->vtor);
        if (d->cpu->has_nvic_bits)
            put_uint(w, "nvic_prio_bits", d->cpu->nvic_prio_bits);
        else
            put_null(w, "nvic_prio_bits");
        put_bool(w, "vendor_systick", d->cpu->vendor_systick);
        close_obj(w);
    }
    close_obj(w);
}

static void put_svd_block(struct jw *w, const struct model_block *b)
{
    open_obj(w, "svd");
    put_str(w, "group", b->group);
    put_str(w, "header_struct", b->header_struct);
    open_list(w, "address_blocks");
    for (size_t i = 0; i < b->naddr_blocks; i++) {
        open_obj(w, NULL);
        put_hex(w, "offset", b->addr_blocks[i]->offset);
        put_hex(w, "size", b->addr_blocks[i]->size);
        put_str(w, "usage", b->addr_blocks[i]->usage);
        close_obj(w);
    }
    close_list(w);
    open_list(w, "clusters");
    for (size_t i = 0; i < b->nclusters; i++) {
        const struct model_cluster *c = b->clusters[i];
        open_obj(w, NULL);
        put_str(w, "name", c->name);
        put_str(w, "written_name", c->written_name);
        put_hex(w, "address", c->address);
        put_uint(w, "count", c->count);
        put_hex(w, "stride", c->stride);
        put_str(w, "parent", c->parent ? c->parent->name : NULL);
        put_str(w, "alternate", c->alternate);
        put_str(w, "derived_from", c->derived_from);
        close_obj(w);
    }
    close_list(w);
    close_obj(w);
}

static void put_svd_instance(struct jw *w, const struct model_instance *inst)
{
    open_obj(w, "svd");
    put_str(w, "derived_from", inst->derived_from);
    put_str(w, "alternate", inst->alternate);
    put_str(w, "group", inst->group);
    open_list(w, "interrupts");
    for (size_t i = 0; i < inst->ninterrupts; i++) {
        open_obj(w, NULL);
        put_str(w, "name", inst->interrupts[i]->name);
        put_uint(w, "value", inst->interrupts[i]->value);
        put_str(w, "desc", inst->interrupts[i]->desc);
        close_obj(w);
    }
    close_list(w);
    close_obj(w);
}

static void put_svd_reg(struct jw *w, const struct model_reg *r)
{
    open_obj(w, "svd");
    put_hex(w, "reset_mask", r->reset_mask);
    put_str(w, "alternate", r->alternate);
    put_str(w, "protection", r->protection);
    put_str(w, "derived_from", r->derived_from);
    put_str(w, "dim_of", r->dim_of);
    put_str(w, "cluster", r->cluster ? r->cluster->name : NULL);
    if (!r->index_names) {
        put_null(w, "index_names");
    } else {
        open_list(w, "index_names");
        for (unsigned i = 0; i < r->count; i++)
            put_str(w, NULL, r->index_names[i]);
        close_list(w);
    }
    close_obj(w);
}

static void put_svd_field(struct jw *w, const struct model_field *f)
{
    static const char *const writes[] = {"stores",       "oneToClear",  "oneToSet",
                                         "oneToToggle",  "zeroToClear", "zeroToSet",
                                         "zeroToToggle", "clear",       "set"};
    static const char *const reads[] = {NULL, "clear", "set", "modify", "modifyExternal"};
    static const char *const wcs[] = {NULL, "writeAsRead", "useEnumeratedValues", "range"};
    open_obj(w, "svd");
    put_str(w, "write_effect", writes[f->write_effect]);
    put_str(w, "read_action", reads[f->read_effect]);
    put_bool(w, "write_once", f->write_once);
    if (f->wc.kind == WC_NONE) {
        put_null(w, "write_constraint");
    } else {
        open_obj(w, "write_constraint");
        put_str(w, "kind", wcs[f->wc.kind]);
        put_hex(w, "min", f->wc.min);
        put_hex(w, "max", f->wc.max);
        close_obj(w);
    }
    put_str(w, "enum_name", f->enum_name);
    put_str(w, "default_value", f->default_value ? f->default_value->name : NULL);
    put_bool(w, "whole", f->whole);
    put_str(w, "derived_from", f->derived_from);
    put_str(w, "dim_of", f->dim_of);
    close_obj(w);
}

static void put_svd_value(struct jw *w, const struct model_value *v)
{
    static const char *const usages[] = {"read-write", "read", "write"};
    open_obj(w, "svd");
    put_str(w, "usage", usages[v->usage]);
    put_hex(w, "dont_care", v->dont_care);
    close_obj(w);
}

static void put_spec(struct jw *w, const struct model_spec *s)
{
    open_obj(w, "spec");
    put_str(w, "name", s->name);
    put_str(w, "prefix", s->prefix);
    put_str(w, "title", s->title);
    put_uint(w, "version", s->version);
    put_str(w, "desc", s->desc);
    open_list(w, "sources");
    for (size_t i = 0; i < s->nsources; i++) {
        const struct model_source *src = s->sources[i];
        open_obj(w, NULL);
        put_str(w, "id", src->id);
        put_str(w, "title", src->title);
        put_str(w, "ref", src->ref);
        put_str(w, "rev", src->rev);
        put_str(w, "date", src->date);
        put_str(w, "url", src->url);
        put_str(w, "desc", src->desc);
        close_obj(w);
    }
    close_list(w);
    open_list(w, "cpus");
    for (size_t i = 0; i < s->ncpus; i++) {
        const struct model_cpu *cpu = s->cpus[i];
        open_obj(w, NULL);
        put_str(w, "vendor", cpu->vendor);
        put_uint(w, "family", cpu->family);
        put_uint(w, "model", cpu->model);
        put_str(w, "name", cpu->name);
        put_cite(w, &cpu->cite);
        close_obj(w);
    }
    close_list(w);
    if (s->device)
        put_svd_device(w, s->device);
    close_obj(w);
}

/* ------------------------------------------------------------ blocks and instances */

/* An unsigned, or null when not given. */
static void put_uint_or_null(struct jw *w, const char *key, bool given, uint64_t v)
{
    if (given)
        put_uint(w, key, v);
    else
        put_null(w, key);
}

/* "pci": the instance's PCI locator, or null; dev and func null when not given (any slot). */
static void put_pci(struct jw *w, const struct model_instance *inst)
{
    if (!inst || !inst->has_pci) {
        put_null(w, "pci");
        return;
    }
    open_obj(w, "pci");
    put_hex(w, "vendor", inst->vendor);
    put_hex(w, "device", inst->device);
    put_uint_or_null(w, "dev", inst->has_dev, inst->dev);
    put_uint_or_null(w, "func", inst->has_func, inst->func);
    close_obj(w);
}

static void put_instance(struct jw *w, const struct model_instance *inst)
{
    open_obj(w, NULL);
    put_str(w, "name", inst->name);
    if (inst->has_base)
        put_hex(w, "base", inst->base);
    else
        put_null(w, "base");
    put_pci(w, inst);
    put_str(w, "desc", inst->desc);
    put_cite(w, &inst->cite);
    if (inst->block && inst->block->names_qualified)
        put_svd_instance(w, inst);
    close_obj(w);
}

/* ------------------------------------------------------------ registers */

static void put_field(struct jw *w, const struct model_field *f)
{
    open_obj(w, NULL);
    put_str(w, "name", f->name);
    put_uint(w, "lsb", f->lsb);
    put_uint(w, "msb", f->msb);
    put_str(w, "access", f->access_text);
    put_hex(w, "reset", f->reset);
    put_str(w, "desc", f->desc);
    put_bool(w, "implicit", f->implicit);
    put_cite(w, &f->cite);
    open_list(w, "values");
    for (size_t i = 0; i < f->nvalues; i++) {
        const struct model_value *v = f->values[i];
        open_obj(w, NULL);
        put_str(w, "name", v->name);
        put_hex(w, "value", v->value);
        put_bool(w, "undefined", v->undefined);
        put_str(w, "desc", v->desc);
        if (f->reg && f->reg->block && f->reg->block->names_qualified)
            put_svd_value(w, v);
        close_obj(w);
    }
    close_list(w);
    if (f->reg && f->reg->block && f->reg->block->names_qualified)
        put_svd_field(w, f);
    close_obj(w);
}

static void put_masks(struct jw *w, const struct model_reg *r)
{
    struct model_masks m = model_reg_masks(r);
    open_obj(w, "masks");
    put_hex(w, "mbz", m.mbz);
    put_hex(w, "mb1", m.mb1);
    put_hex(w, "ignored", m.ignored);
    put_hex(w, "ro", m.ro);
    put_hex(w, "wo", m.wo);
    put_hex(w, "w1c", m.w1c);
    put_hex(w, "w1s", m.w1s);
    put_hex(w, "writable", m.writable);
    put_hex(w, "preserve", m.preserve);
    close_obj(w);
}

/* "array": {"first","count","stride","addresses"} or null. */
static void put_array(struct jw *w, const struct model_reg *r)
{
    if (!r->is_array) {
        put_null(w, "array");
        return;
    }
    open_obj(w, "array");
    put_uint(w, "first", r->first);
    put_uint(w, "count", r->count);
    if (r->addrs)
        put_null(w, "stride");
    else
        put_hex(w, "stride", r->stride);
    if (r->addrs) {
        open_list(w, "addresses");
        for (size_t k = 0; k < r->naddrs; k++)
            put_hex(w, NULL, r->addrs[k]);
        close_list(w);
    } else {
        put_null(w, "addresses");
    }
    close_obj(w);
}

/*
 * "instances": every concrete copy, instance-major, then array index, with
 * its address and its instance's PCI locator.
 */
static void put_copies(struct jw *w, const struct model_reg *r)
{
    const struct model_block *b = r->block;
    size_t ninst = b && b->ninstances ? b->ninstances : 1;
    open_list(w, "instances");
    for (size_t i = 0; i < ninst; i++) {
        const struct model_instance *inst = b && b->ninstances ? b->instances[i] : NULL;
        for (unsigned k = 0; k < r->count; k++) {
            open_obj(w, NULL);
            put_str(w, "instance", inst ? inst->name : NULL);
            if (r->is_array)
                put_uint(w, "index", r->first + k);
            else
                put_null(w, "index");
            put_hex(w, "address", model_reg_address(r, inst, k));
            put_pci(w, inst);
            close_obj(w);
        }
    }
    close_list(w);
}

static void put_reg(struct jw *w, const struct model_reg *r)
{
    static const char *const spaces[] = {
        [SPACE_MSR] = "msr", [SPACE_PCI] = "pci", [SPACE_MMIO] = "mmio"};
    open_obj(w, NULL);
    put_str(w, "name", r->name);
    put_str(w, "written_name", r->written_name);
    put_str(w, "space", spaces[r->space]);
    put_hex(w, "address", r->address);
    put_uint(w, "width", r->width);
    put_uint(w, "size", r->size);
    put_hex(w, "reset", r->reset);
    put_str(w, "desc", r->desc);
    put_array(w, r);
    put_copies(w, r);
    put_cite(w, &r->cite);
    put_masks(w, r);
    open_list(w, "fields");
    for (size_t i = 0; i < r->nfields; i++)
        put_field(w, r->fields[i]);
    close_list(w);
    open_list(w, "rules");
    for (size_t i = 0; i < r->nrules; i++) {
        const struct model_rule *rule = r->rules[i];
        open_obj(w, NULL);
        put_str(w, "name", rule->name);
        put_str(w, "expr", rule->expr_text);
        put_str(w, "message", rule->message);
        put_cite(w, &rule->cite);
        close_obj(w);
    }
    close_list(w);
    if (r->block && r->block->names_qualified)
        put_svd_reg(w, r);
    close_obj(w);
}

/* ------------------------------------------------------------ events */

static void put_sets(struct jw *w, const struct model_events *t, const struct model_event *e)
{
    for (size_t i = 0; i < e->nsets; i++) {
        const struct model_set *st = e->sets[i];
        open_obj(w, NULL);
        put_str(w, "register", st->reg_name ? st->reg_name : t->reg_name);
        put_str(w, "field", st->field_name);
        put_hex(w, "value", st->value);
        close_obj(w);
    }
}

/* An event and then its subs; 'table' is the table's index in the block. */
static void put_event(struct jw *w, const struct model_events *t, size_t table,
                      const struct model_event *e)
{
    const struct model_reg *reg = model_events_reg(t);
    uint64_t umask;
    bool has_umask = model_event_umask(e, &umask);
    open_obj(w, NULL);
    put_str(w, "name", e->full_name);
    put_uint(w, "table", table);
    put_str(w, "parent", e->parent ? e->parent->full_name : NULL);
    put_str(w, "register", t->reg_name);
    put_str(w, "field", t->code_field_name);
    put_str(w, "umask_field", t->umask_field_name);
    put_hex(w, "code", e->code);
    if (has_umask)
        put_hex(w, "umask", umask);
    else
        put_null(w, "umask");
    put_str(w, "perfmon", e->perfmon);
    put_str(w, "combine", model_event_combines(e) ? "or" : "exact");
    open_list(w, "filters");
    for (size_t i = 0; i < e->nfilters; i++)
        put_str(w, NULL, e->filters[i]);
    close_list(w);
    open_list(w, "unmodelled_filters");
    for (size_t i = 0; i < e->nunmodelled; i++)
        put_str(w, NULL, e->unmodelled[i]);
    close_list(w);
    open_list(w, "counters");
    unsigned count = reg ? reg->count : 64;
    for (unsigned i = 0; i < count && i < 64; i++)
        if (!e->has_counters || (e->counter_mask >> i & 1))
            put_uint(w, NULL, i);
    close_list(w);
    put_str(w, "desc", e->desc);
    open_list(w, "sets");
    if (e->parent)
        put_sets(w, t, e->parent);
    put_sets(w, t, e);
    close_list(w);
    put_hex(w, "encoding", model_event_encoding(t, e));
    put_cite(w, &e->cite);
    close_obj(w);
    for (size_t i = 0; i < e->nsubs; i++)
        put_event(w, t, table, e->subs[i]);
}

static void put_events(struct jw *w, const struct model_block *b)
{
    open_list(w, "event_tables");
    for (size_t i = 0; i < b->nevent_tables; i++) {
        const struct model_events *t = b->event_tables[i];
        open_obj(w, NULL);
        put_str(w, "register", t->reg_name);
        put_str(w, "code_field", t->code_field_name);
        put_str(w, "umask_field", t->umask_field_name);
        put_str(w, "title", t->title);
        put_str(w, "desc", t->desc);
        put_cite(w, &t->cite);
        close_obj(w);
    }
    close_list(w);
    open_list(w, "events");
    for (size_t i = 0; i < b->nevent_tables; i++)
        for (size_t k = 0; k < b->event_tables[i]->nevents; k++)
            put_event(w, b->event_tables[i], i, b->event_tables[i]->events[k]);
    close_list(w);
}

/* ------------------------------------------------------------ pmon topology */

/* A role: the name of the field (or register) the spec gives, or null. */
static void put_role(struct jw *w, const char *key, const struct model_role *r)
{
    put_str(w, key, r->name);
}

static void put_clear(struct jw *w, enum model_clear clear, const char *reg,
                      const struct model_role *field)
{
    static const char *const names[] = {[CLEAR_W1C] = "w1c",
                                        [CLEAR_WRITE0] = "write0",
                                        [CLEAR_REGISTER] = "register",
                                        [CLEAR_NONE] = "none"};
    put_str(w, "clear", names[clear]);
    put_str(w, "clear_register", reg);
    put_role(w, "clear_field", field);
}

static void put_counters(struct jw *w, const struct model_counters *k)
{
    static const char *const directions[DIRECTION_COUNT] = {"up", "down", "up-down"};
    open_obj(w, NULL);
    put_str(w, "kind", k->kind == COUNTERS_FIXED ? "fixed" : "general");
    put_str(w, "control", k->control_name);
    put_str(w, "counter", k->counter_name);
    put_role(w, "count_field", &k->count_field);
    put_uint(w, "width", k->width);
    put_str(w, "overflow", k->overflow == OVERFLOW_STOP ? "stop" : "wrap");
    put_role(w, "wrap_field", &k->wrap_field);
    put_role(w, "enable", &k->enable);
    put_role(w, "reset", &k->reset);
    put_role(w, "pmi", &k->pmi);
    put_role(w, "edge", &k->edge);
    put_role(w, "invert", &k->invert);
    put_role(w, "threshold", &k->threshold);
    put_role(w, "event", &k->event);
    put_role(w, "umask", &k->umask);
    put_role(w, "direction_field", &k->direction_field);
    open_list(w, "directions");
    for (int d = 0; k->direction_field.name && d < DIRECTION_COUNT; d++) {
        if (!k->directions[d].given)
            continue;
        open_obj(w, NULL);
        put_str(w, "direction", directions[d]);
        put_hex(w, "value", k->directions[d].value);
        close_obj(w);
    }
    close_list(w);
    put_str(w, "preload", k->preload_minus_one ? "2^w-1-N" : "2^w-N");
    put_bool(w, "freeze_on_overflow", k->freeze_on_overflow);
    if (k->has_status_first)
        put_uint(w, "status_first", k->status_first);
    else
        put_null(w, "status_first");
    open_list(w, "rdpmc");
    for (size_t i = 0; i < k->nrdpmcs; i++) {
        open_obj(w, NULL);
        put_str(w, "processor", k->rdpmcs[i]->processor);
        put_uint(w, "first", k->rdpmcs[i]->first);
        put_bool(w, "high_zero", k->rdpmcs[i]->high_zero);
        close_obj(w);
    }
    close_list(w);
    put_cite(w, &k->cite);
    close_obj(w);
}

static void put_pmon(struct jw *w, const struct model_pmon *p)
{
    if (!p) {
        put_null(w, "pmon");
        return;
    }
    open_obj(w, "pmon");
    open_list(w, "counters");
    for (size_t i = 0; i < p->ncounters; i++)
        put_counters(w, p->counters[i]);
    close_list(w);
    const struct model_box_control *bc = p->box_control;
    if (bc) {
        open_obj(w, "box_control");
        put_str(w, "register", bc->reg_name);
        put_role(w, "freeze", &bc->freeze);
        put_role(w, "freeze_enable", &bc->freeze_enable);
        put_role(w, "reset_counters", &bc->reset_counters);
        put_role(w, "reset_controls", &bc->reset_controls);
        put_role(w, "enable", &bc->enable);
        put_cite(w, &bc->cite);
        close_obj(w);
    } else {
        put_null(w, "box_control");
    }
    const struct model_box_status *bs = p->box_status;
    if (bs) {
        open_obj(w, "box_status");
        put_str(w, "register", bs->reg_name);
        put_role(w, "overflow", &bs->overflow);
        put_clear(w, bs->clear, bs->clear_reg_name, &bs->clear_field);
        put_cite(w, &bs->cite);
        close_obj(w);
    } else {
        put_null(w, "box_status");
    }
    open_list(w, "filters");
    for (size_t i = 0; i < p->nfilters; i++) {
        const struct model_filter *f = p->filters[i];
        open_obj(w, NULL);
        put_str(w, "register", f->reg_name);
        put_str(w, "field", f->field_name);
        put_str(w, "match", f->match);
        put_str(w, "traffic", f->traffic);
        put_str(w, "perf", f->perf);
        put_str(w, "example", f->example);
        put_str(w, "desc", f->desc);
        put_cite(w, &f->cite);
        close_obj(w);
    }
    close_list(w);
    open_list(w, "unmodelled_filters");
    for (size_t i = 0; i < p->nunmodelled; i++) {
        const struct model_unmodelled_filter *f = p->unmodelled[i];
        open_obj(w, NULL);
        put_str(w, "name", f->name);
        put_str(w, "what", f->what);
        put_str(w, "desc", f->desc);
        put_cite(w, &f->cite);
        close_obj(w);
    }
    close_list(w);
    put_cite(w, &p->cite);
    close_obj(w);
}

static void put_global_control(struct jw *w, const struct model_global_control *gc)
{
    if (!gc) {
        put_null(w, "control");
        return;
    }
    open_obj(w, "control");
    put_str(w, "block", gc->block_name);
    put_str(w, "register", gc->reg_name);
    put_role(w, "freeze", &gc->freeze);
    put_role(w, "unfreeze", &gc->unfreeze);
    put_role(w, "enable", &gc->enable);
    put_role(w, "freeze_on_overflow", &gc->freeze_on_overflow);
    put_role(w, "pmi_core", &gc->pmi_core);
    put_role(w, "wake", &gc->wake);
    put_role(w, "reset", &gc->reset);
    put_role(w, "select", &gc->select);
    open_list(w, "pmi_core_fields");
    for (size_t i = 0; i < gc->npmi_cores; i++)
        put_str(w, NULL, gc->pmi_cores[i].name);
    close_list(w);
    put_cite(w, &gc->cite);
    close_obj(w);
}

static void put_global_status(struct jw *w, const struct model_global_status *gs)
{
    if (!gs) {
        put_null(w, "status");
        return;
    }
    open_obj(w, "status");
    put_str(w, "block", gs->block_name);
    put_str(w, "register", gs->reg_name);
    put_clear(w, gs->clear, gs->clear_reg_name, &gs->clear_field);
    open_list(w, "boxes");
    for (size_t i = 0; i < gs->nboxes; i++) {
        const struct model_box_overflow *bo = gs->boxes[i];
        open_obj(w, NULL);
        put_str(w, "block", bo->block_name);
        put_str(w, "field", bo->field_name);
        put_str(w, "instance", bo->instance_name);
        put_str(w, "counters", bo->counters_name);
        close_obj(w);
    }
    close_list(w);
    put_cite(w, &gs->cite);
    close_obj(w);
}

static void put_pmon_global(struct jw *w, const struct model_pmon_global *g)
{
    if (!g) {
        put_null(w, "pmon_global");
        return;
    }
    open_obj(w, "pmon_global");
    put_global_control(w, g->control);
    put_global_status(w, g->status);
    put_cite(w, &g->cite);
    close_obj(w);
}

/* ------------------------------------------------------------ metrics (issue 28) */

/* A finite double as the shortest decimal that reads back as the same value ("1e-09", "64"). */
static void put_real(struct jw *w, const char *key, double v)
{
    char tmp[32];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    next(w, key);
    buf_adds(w->out, tmp);
}

static void put_metric_terms(struct jw *w, const struct model_metric *m)
{
    open_list(w, "events");
    for (size_t i = 0; i < m->nterms; i++) {
        const struct model_metric_term *t = m->terms[i];
        open_obj(w, NULL);
        put_str(w, "text", t->text);
        put_str(w, "block", t->block->name);
        put_str(w, "instance", t->instance ? t->instance->name : NULL);
        put_str(w, "event", t->event->full_name);
        put_hex(w, "encoding", model_metric_term_encoding(t));
        open_list(w, "settings");
        for (size_t k = 0; k < t->nsets; k++) {
            open_obj(w, NULL);
            const struct model_reg *r = t->sets[k]->reg;
            put_str(w, "register", r && r != t->table->reg ? r->name : NULL); /* null: the control */
            put_str(w, "field", t->sets[k]->field_name);
            put_hex(w, "value", t->sets[k]->value);
            close_obj(w);
        }
        close_list(w);
        close_obj(w);
    }
    close_list(w);
}

/* "rpn": the formula in postfix, [{"op", "value" (num), "term" (event)}] */
static void put_metric_rpn(struct jw *w, const struct model_metric *m)
{
    static const char *const names[] = {"num", "event", "seconds", "add", "sub", "mul", "div"};
    struct arena a;
    arena_init(&a);
    struct metric_rpn *ops = NULL;
    size_t n = m->expr ? metric_to_rpn(&a, m->expr, &ops) : 0;
    open_list(w, "rpn");
    for (size_t i = 0; i < n; i++) {
        open_obj(w, NULL);
        put_str(w, "op", names[ops[i].op]);
        if (ops[i].op == METRIC_OP_NUM)
            put_real(w, "value", ops[i].value);
        if (ops[i].op == METRIC_OP_EVENT)
            put_uint(w, "term", ops[i].term);
        close_obj(w);
    }
    close_list(w);
    arena_release(&a);
}

static void put_metrics(struct jw *w, const struct model_spec *s)
{
    open_list(w, "metrics");
    for (size_t i = 0; i < s->nmetrics; i++) {
        const struct model_metric *m = s->metrics[i];
        open_obj(w, NULL);
        put_str(w, "name", m->name);
        put_str(w, "formula", m->formula);
        put_str(w, "unit", m->unit);
        put_real(w, "scale", m->scale);
        put_str(w, "desc", m->desc);
        put_cite(w, &m->cite);
        put_metric_terms(w, m);
        put_metric_rpn(w, m);
        close_obj(w);
    }
    close_list(w);
}

/* ------------------------------------------------------------ the document */

static void put_block(struct jw *w, const struct model_block *b)
{
    open_obj(w, NULL);
    put_str(w, "name", b->name);
    put_str(w, "title", b->title);
    put_str(w, "desc", b->desc);
    put_cite(w, &b->cite);
    open_list(w, "instances");
    for (size_t i = 0; i < b->ninstances; i++)
        put_instance(w, b->instances[i]);
    close_list(w);
    open_list(w, "registers");
    for (size_t i = 0; i < b->nregs; i++)
        put_reg(w, b->regs[i]);
    close_list(w);
    put_events(w, b);
    put_pmon(w, b->pmon);
    if (b->names_qualified)
        put_svd_block(w, b);
    close_obj(w);
}

void model_json_write(const struct model_spec *s, mus_sink_fn *sink, void *sink_ctx,
                      struct buf *out)
{
    struct jw w = {.out = out, .sink = sink, .sink_ctx = sink_ctx, .first = true};
    open_obj(&w, NULL);
    put_uint(&w, "regc_model", MODEL_JSON_VERSION);
    put_spec(&w, s);
    open_list(&w, "blocks");
    for (size_t i = 0; i < s->nblocks; i++)
        put_block(&w, s->blocks[i]);
    close_list(&w);
    put_pmon_global(&w, s->pmon_global);
    put_metrics(&w, s);
    close_obj(&w);
    buf_addc(out, '\n');
}
