/*
 * test_specjson - regctl's loader of a spec's JSON model (runtime/regctl/specjson.c) builds
 * the same descriptor tables as `regc -t tables` does for the built-in specs: every member of
 * every table, for each spec of regspec/, compared between the tables compiled into the tests
 * (build/gen/regc_specs.h, rendered by templates/tables.mustache) and generated/<spec>.json
 * loaded (the same data tree written by the JSON export, compiler/context_export.c, and read
 * back by specjson.c). Two writers of one tree, a template and the export with regctl's reader,
 * meet in one structure; a member one of them drops or derives differently shows as the path
 * of the first difference.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regc/desc.h"
#include "regc_specs.h"
#include "jschema.h"
#include "specjson.h"

static unsigned ndiff;
static char first[1024];

static void differ(const char *path, const char *what)
{
    if (getenv("SPECJSON_ALL"))
        printf("# %s: %s\n", path, what);
    if (!ndiff++)
        snprintf(first, sizeof(first), "%s: %s", path, what);
}

static void cmp_str(const char *path, const char *key, const char *a, const char *b)
{
    char p[400], w[600];
    if ((!a && !b) || (a && b && strcmp(a, b) == 0))
        return;
    snprintf(p, sizeof(p), "%s.%s", path, key);
    snprintf(w, sizeof(w), "tables '%s', json '%s'", a ? a : "(null)", b ? b : "(null)");
    differ(p, w);
}

static void cmp_num(const char *path, const char *key, uint64_t a, uint64_t b)
{
    char p[400], w[96];
    if (a == b)
        return;
    snprintf(p, sizeof(p), "%s.%s", path, key);
    snprintf(w, sizeof(w), "tables 0x%llx, json 0x%llx", (unsigned long long)a,
             (unsigned long long)b);
    differ(p, w);
}

#define S(key) cmp_str(path, #key, a->key, b->key)
#define N(key) cmp_num(path, #key, (uint64_t)a->key, (uint64_t)b->key)
#define SUB(buf, fmt, ...) snprintf(buf, sizeof(buf), "%s." fmt, path, __VA_ARGS__)

static void cmp_cite(const char *path, const struct regc_cite *a, const struct regc_cite *b)
{
    S(src), S(table), S(page), S(section), S(cite);
}

/* Lists ending with a NULL 'end' member: both end at the same element. */
#define EACH(a0, b0, end, i)                                                                       \
    for (size_t i = 0; ((a0) && (a0)[i].end) || ((b0) && (b0)[i].end); i++)                       \
        if (!((a0) && (a0)[i].end && (b0) && (b0)[i].end)) {                                       \
            char p_[400];                                                                          \
            SUB(p_, "%s[%zu]", #end, i);                                                           \
            differ(p_, "one list is longer");                                                      \
            break;                                                                                 \
        } else

static void cmp_values(const char *path, const struct regc_value *a, const struct regc_value *b)
{
    char q[400];
    EACH(a, b, name, k)
    {
        SUB(q, "values[%zu]", k);
        cmp_str(q, "name", a[k].name, b[k].name);
        cmp_num(q, "value", a[k].value, b[k].value);
        cmp_num(q, "undefined", a[k].undefined, b[k].undefined);
        cmp_str(q, "desc", a[k].desc, b[k].desc);
    }
}

static void cmp_reg(const char *path, const struct regc_reg *a, const struct regc_reg *b)
{
    char p[400];
    S(name), S(written_name), N(space), N(width), N(size), N(reset), S(desc), N(is_array);
    N(first), N(count), N(stride), N(mbz), N(ignored), N(ro), N(wo), N(w1c), N(w1s), N(writable);
    cmp_cite(path, &a->cite, &b->cite);
    for (size_t i = 0;; i++) {
        const struct regc_addr *x = &a->addrs[i], *y = &b->addrs[i];
        SUB(p, "addrs[%zu]", i);
        cmp_num(p, "index", (uint64_t)x->index, (uint64_t)y->index);
        if (x->index == REGC_ADDR_END || y->index == REGC_ADDR_END)
            break;
        cmp_str(p, "instance", x->instance, y->instance);
        cmp_num(p, "address", x->address, y->address);
    }
    EACH(a->fields, b->fields, name, i)
    {
        const struct regc_field *x = &a->fields[i], *y = &b->fields[i];
        SUB(p, "fields[%zu]", i);
        cmp_str(p, "name", x->name, y->name);
        cmp_num(p, "lsb", x->lsb, y->lsb);
        cmp_num(p, "msb", x->msb, y->msb);
        cmp_num(p, "access", x->access, y->access);
        cmp_str(p, "access_text", x->access_text, y->access_text);
        cmp_num(p, "reset", x->reset, y->reset);
        cmp_num(p, "implicit", x->implicit, y->implicit);
        cmp_num(p, "write_as_read", x->write_as_read, y->write_as_read);
        cmp_str(p, "desc", x->desc, y->desc);
        cmp_values(p, x->values, y->values);
    }
    EACH(a->rules, b->rules, name, i)
    {
        const struct regc_rule *x = &a->rules[i], *y = &b->rules[i];
        SUB(p, "rules[%zu]", i);
        cmp_str(p, "name", x->name, y->name);
        cmp_str(p, "expr", x->expr, y->expr);
        cmp_str(p, "message", x->message, y->message);
        cmp_cite(p, &x->cite, &y->cite);
        for (size_t k = 0;; k++) {
            char q[420];
            snprintf(q, sizeof(q), "%s.ops[%zu]", p, k);
            cmp_num(q, "op", x->ops[k].op, y->ops[k].op);
            if (x->ops[k].op == REGC_OP_END || y->ops[k].op == REGC_OP_END)
                break;
            cmp_num(q, "lsb", x->ops[k].lsb, y->ops[k].lsb);
            cmp_num(q, "width", x->ops[k].width, y->ops[k].width);
            cmp_num(q, "value", x->ops[k].value, y->ops[k].value);
        }
    }
}

static void cmp_strlist(const char *path, const char *key, const char *const *a,
                        const char *const *b)
{
    char p[400];
    cmp_num(path, key, a != NULL, b != NULL);
    for (size_t i = 0; a && b && (a[i] || b[i]); i++) {
        snprintf(p, sizeof(p), "%s[%zu]", key, i);
        cmp_str(path, p, a[i], b[i]);
        if (!a[i] || !b[i])
            break;
    }
}

static void cmp_event(const char *path, const struct regc_event *a, const struct regc_event *b)
{
    char p[400];
    S(name), S(reg), S(field), S(umask_field), N(code), N(has_umask), N(umask), N(combine_or);
    N(counters), S(desc), S(perfmon);
    EACH(a->sets, b->sets, field, i)
    {
        SUB(p, "sets[%zu]", i);
        cmp_str(p, "reg", a->sets[i].reg, b->sets[i].reg);
        cmp_str(p, "field", a->sets[i].field, b->sets[i].field);
        cmp_num(p, "value", a->sets[i].value, b->sets[i].value);
    }
    cmp_strlist(path, "filters", a->filters, b->filters);
    cmp_strlist(path, "unmodelled_filters", a->unmodelled_filters, b->unmodelled_filters);
}

static void cmp_counters(const char *path, const struct regc_counters *a,
                         const struct regc_counters *b)
{
    char p[400];
    S(kind), S(control), S(counter), S(count_field), N(width), N(overflow), S(wrap_field);
    S(enable), S(reset), S(pmi), S(edge), S(invert), S(threshold), S(event), S(umask);
    S(direction_field), N(preload), N(freeze_on_overflow), N(has_status_first), N(status_first);
    for (size_t i = 0; a->directions && b->directions; i++) {
        SUB(p, "directions[%zu]", i);
        cmp_num(p, "dir", a->directions[i].dir, b->directions[i].dir);
        if (a->directions[i].dir == REGC_DIR_NONE || b->directions[i].dir == REGC_DIR_NONE)
            break;
        cmp_num(p, "value", a->directions[i].value, b->directions[i].value);
    }
    EACH(a->rdpmc, b->rdpmc, processor, i)
    {
        SUB(p, "rdpmc[%zu]", i);
        cmp_str(p, "processor", a->rdpmc[i].processor, b->rdpmc[i].processor);
        cmp_num(p, "first", (uint64_t)a->rdpmc[i].first, (uint64_t)b->rdpmc[i].first);
        cmp_num(p, "high_zero", a->rdpmc[i].high_zero, b->rdpmc[i].high_zero);
    }
}

static void cmp_pmon(const char *path, const struct regc_pmon *a, const struct regc_pmon *b)
{
    char p[400];
    cmp_num(path, "pmon", a != NULL, b != NULL);
    if (!a || !b)
        return;
    EACH(a->counters, b->counters, control, i)
    {
        SUB(p, "counters[%zu]", i);
        cmp_counters(p, &a->counters[i], &b->counters[i]);
    }
    cmp_num(path, "box_control", a->box_control != NULL, b->box_control != NULL);
    if (a->box_control && b->box_control) {
        const struct regc_box_control *x = a->box_control, *y = b->box_control;
        SUB(p, "%s", "box_control");
        cmp_str(p, "reg", x->reg, y->reg);
        cmp_str(p, "freeze", x->freeze, y->freeze);
        cmp_str(p, "freeze_enable", x->freeze_enable, y->freeze_enable);
        cmp_str(p, "reset_counters", x->reset_counters, y->reset_counters);
        cmp_str(p, "reset_controls", x->reset_controls, y->reset_controls);
        cmp_str(p, "enable", x->enable, y->enable);
    }
    cmp_num(path, "box_status", a->box_status != NULL, b->box_status != NULL);
    if (a->box_status && b->box_status) {
        const struct regc_box_status *x = a->box_status, *y = b->box_status;
        SUB(p, "%s", "box_status");
        cmp_str(p, "reg", x->reg, y->reg);
        cmp_str(p, "overflow", x->overflow, y->overflow);
        cmp_num(p, "clear", x->clear, y->clear);
        cmp_str(p, "clear_reg", x->clear_reg, y->clear_reg);
        cmp_str(p, "clear_field", x->clear_field, y->clear_field);
    }
    cmp_num(path, "filters", a->filters != NULL, b->filters != NULL);
    EACH(a->filters, b->filters, reg, i)
    {
        const struct regc_filter *x = &a->filters[i], *y = &b->filters[i];
        SUB(p, "filters[%zu]", i);
        cmp_str(p, "reg", x->reg, y->reg);
        cmp_str(p, "field", x->field, y->field);
        cmp_num(p, "match", x->match, y->match);
        cmp_str(p, "traffic", x->traffic, y->traffic);
        cmp_str(p, "perf", x->perf, y->perf);
        cmp_str(p, "example", x->example, y->example);
        cmp_str(p, "desc", x->desc, y->desc);
    }
    cmp_num(path, "unmodelled_filters", a->unmodelled_filters != NULL,
            b->unmodelled_filters != NULL);
    EACH(a->unmodelled_filters, b->unmodelled_filters, name, i)
    {
        const struct regc_unmodelled_filter *x = &a->unmodelled_filters[i],
                                            *y = &b->unmodelled_filters[i];
        SUB(p, "unmodelled_filters[%zu]", i);
        cmp_str(p, "name", x->name, y->name);
        cmp_str(p, "what", x->what, y->what);
        cmp_str(p, "desc", x->desc, y->desc);
    }
}

static void cmp_block(const char *path, const struct regc_block *a, const struct regc_block *b)
{
    char p[400];
    S(name), S(title), S(desc);
    EACH(a->instances, b->instances, name, i)
    {
        const struct regc_instance *x = &a->instances[i], *y = &b->instances[i];
        SUB(p, "instances[%zu]", i);
        cmp_str(p, "name", x->name, y->name);
        cmp_num(p, "has_base", x->has_base, y->has_base);
        cmp_num(p, "base", x->base, y->base);
        cmp_num(p, "has_pci", x->has_pci, y->has_pci);
        cmp_num(p, "pci.vendor", x->pci.vendor, y->pci.vendor);
        cmp_num(p, "pci.device", x->pci.device, y->pci.device);
        cmp_num(p, "pci.dev", x->pci.dev, y->pci.dev);
        cmp_num(p, "pci.func", x->pci.func, y->pci.func);
    }
    EACH(a->regs, b->regs, name, i)
    {
        SUB(p, "regs[%zu]", i);
        cmp_reg(p, &a->regs[i], &b->regs[i]);
    }
    EACH(a->events, b->events, name, i)
    {
        SUB(p, "events[%zu]", i);
        cmp_event(p, &a->events[i], &b->events[i]);
    }
    SUB(p, "%s", "pmon");
    cmp_pmon(p, a->pmon, b->pmon);
}

static void cmp_boxes(const char *path, const struct regc_box_overflow *a,
                      const struct regc_box_overflow *b)
{
    char q[400];
    EACH(a, b, block, i)
    {
        SUB(q, "boxes[%zu]", i);
        cmp_str(q, "block", a[i].block, b[i].block);
        cmp_str(q, "field", a[i].field, b[i].field);
        cmp_str(q, "instance", a[i].instance, b[i].instance);
        cmp_str(q, "counters", a[i].counters, b[i].counters);
    }
}

static void cmp_global(const char *path, const struct regc_pmon_global *a,
                       const struct regc_pmon_global *b)
{
    char p[400];
    cmp_num(path, "pmon_global", a != NULL, b != NULL);
    if (!a || !b)
        return;
    cmp_num(path, "control", a->control != NULL, b->control != NULL);
    if (a->control && b->control) {
        const struct regc_global_control *x = a->control, *y = b->control;
        SUB(p, "%s", "control");
        cmp_str(p, "block", x->block, y->block);
        cmp_str(p, "reg", x->reg, y->reg);
        cmp_str(p, "freeze", x->freeze, y->freeze);
        cmp_str(p, "unfreeze", x->unfreeze, y->unfreeze);
        cmp_str(p, "enable", x->enable, y->enable);
        cmp_str(p, "freeze_on_overflow", x->freeze_on_overflow, y->freeze_on_overflow);
        cmp_str(p, "pmi_core", x->pmi_core, y->pmi_core);
        cmp_str(p, "wake", x->wake, y->wake);
        cmp_str(p, "reset", x->reset, y->reset);
        cmp_str(p, "select", x->select, y->select);
        cmp_strlist(p, "pmi_cores", x->pmi_cores, y->pmi_cores);
    }
    cmp_num(path, "status", a->status != NULL, b->status != NULL);
    if (a->status && b->status) {
        const struct regc_global_status *x = a->status, *y = b->status;
        SUB(p, "%s", "status");
        cmp_str(p, "block", x->block, y->block);
        cmp_str(p, "reg", x->reg, y->reg);
        cmp_num(p, "clear", x->clear, y->clear);
        cmp_str(p, "clear_reg", x->clear_reg, y->clear_reg);
        cmp_str(p, "clear_field", x->clear_field, y->clear_field);
        cmp_boxes(p, x->boxes, y->boxes);
    }
}

/* A double written as text by both writers ("%.17g"): equal to the bit. */
static void cmp_real(const char *path, const char *key, double a, double b)
{
    char p[400], w[96];
    if (memcmp(&a, &b, sizeof(a)) == 0)
        return;
    snprintf(p, sizeof(p), "%s.%s", path, key);
    snprintf(w, sizeof(w), "tables %.17g, json %.17g", a, b);
    differ(p, w);
}

static void cmp_metric(const char *path, const struct regc_metric *a, const struct regc_metric *b)
{
    char p[400];
    S(name), S(formula), S(unit), S(desc);
    cmp_real(path, "scale", a->scale, b->scale);
    cmp_cite(path, &a->cite, &b->cite);
    EACH(a->events, b->events, block, i)
    {
        const struct regc_metric_event *x = &a->events[i], *y = &b->events[i];
        SUB(p, "events[%zu]", i);
        cmp_str(p, "block", x->block, y->block);
        cmp_str(p, "instance", x->instance, y->instance);
        cmp_str(p, "event", x->event, y->event);
        cmp_str(p, "text", x->text, y->text);
    }
    for (size_t k = 0;; k++) {
        SUB(p, "ops[%zu]", k);
        cmp_num(p, "op", a->ops[k].op, b->ops[k].op);
        if (a->ops[k].op == REGC_MOP_END || b->ops[k].op == REGC_MOP_END)
            break;
        cmp_real(p, "value", a->ops[k].value, b->ops[k].value);
        cmp_num(p, "term", a->ops[k].term, b->ops[k].term);
    }
}

static void cmp_spec(const struct regc_spec *a, const struct regc_spec *b)
{
    const char *path = a->name;
    char p[400];
    S(name), S(prefix), S(title), S(version);
    EACH(a->sources, b->sources, id, i)
    {
        const struct regc_source *x = &a->sources[i], *y = &b->sources[i];
        SUB(p, "sources[%zu]", i);
        cmp_str(p, "id", x->id, y->id);
        cmp_str(p, "title", x->title, y->title);
        cmp_str(p, "ref", x->ref, y->ref);
        cmp_str(p, "rev", x->rev, y->rev);
        cmp_str(p, "date", x->date, y->date);
        cmp_str(p, "url", x->url, y->url);
    }
    EACH(a->cpus, b->cpus, vendor, i)
    {
        const struct regc_cpu *x = &a->cpus[i], *y = &b->cpus[i];
        SUB(p, "cpus[%zu]", i);
        cmp_str(p, "vendor", x->vendor, y->vendor);
        cmp_num(p, "family", x->family, y->family);
        cmp_num(p, "model", x->model, y->model);
        cmp_str(p, "name", x->name, y->name);
        cmp_cite(p, &x->cite, &y->cite);
    }
    EACH(a->blocks, b->blocks, name, i)
    {
        SUB(p, "blocks[%zu]", i);
        cmp_block(p, &a->blocks[i], &b->blocks[i]);
    }
    cmp_global(path, a->pmon_global, b->pmon_global);
    cmp_num(path, "metrics", a->metrics != NULL, b->metrics != NULL);
    EACH(a->metrics, b->metrics, name, i)
    {
        SUB(p, "metrics[%zu]", i);
        cmp_metric(p, &a->metrics[i], &b->metrics[i]);
    }
}

/* Loads 'path' as standard input ("-"): the tree may sit where regctl_open_trusted() would
 * refuse a path (a root run in a user's clone); run-specjson.sh tests those refusals. */
static int load(const char *path, const struct regc_spec **out)
{
    assert_non_null(freopen(path, "r", stdin));
    return regctl_spec_load("-", out);
}

/* Every built-in spec: its JSON model loads into tables equal to the compiled ones. */
static void test_same_tables(void **state)
{
    (void)state;
    for (const struct regc_spec *const *s = regc_specs; *s; s++) {
        char path[256];
        const struct regc_spec *loaded;
        snprintf(path, sizeof(path), "generated/%s.json", (*s)->name);
        assert_int_equal(load(path, &loaded), 0);
        ndiff = 0;
        cmp_spec(*s, loaded);
        if (ndiff)
            fail_msg("%s: %u members differ; the first: %s", path, ndiff, first);
        printf("# %s: every member equal\n", (*s)->name);
    }
    regctl_spec_release();
}

/* The comparison sees a difference: one member changed in a copy of the loaded tables. */
static void test_difference_seen(void **state)
{
    (void)state;
    const struct regc_spec *loaded;
    assert_int_equal(load("generated/e5_2600v2.json", &loaded), 0);
    struct regc_block blocks[64];
    size_t n = 0;
    for (; loaded->blocks[n].name && n < 63; n++)
        blocks[n] = loaded->blocks[n];
    blocks[n] = (struct regc_block){0};
    struct regc_event ev[512];
    size_t ne = 0;
    for (; blocks[1].events[ne].name && ne < 511; ne++)
        ev[ne] = blocks[1].events[ne];
    ev[ne] = (struct regc_event){0};
    ev[ne / 2].umask ^= 1;
    blocks[1].events = ev;
    struct regc_spec copy = *loaded;
    copy.blocks = blocks;
    ndiff = 0;
    cmp_spec(&e5_2600v2_spec, &copy);
    assert_int_equal(ndiff, 1);
    assert_non_null(strstr(first, ".umask: tables"));
    regctl_spec_release();
}

/* The validator: a keyword it does not take refuses the schema (never a half check); the
 * keywords it takes, each seen to refuse what draft-07 says it refuses. */
static void test_validator(void **state)
{
    (void)state;
    struct jschema_errors e;
    json_t *doc = json_loads("{\"a\": 1, \"b\": \"0x0\", \"c\": [1, 2]}", 0, NULL);
    json_t *bad = json_loads("{\"patternProperties\": {}}", 0, NULL);
    assert_int_equal(jschema_validate(bad, doc, &e), -1);
    assert_string_equal(e.text[0], "schema: keyword 'patternProperties' is not taken by regctl's validator");
    json_t *s = json_loads(
        "{\"type\": \"object\", \"required\": [\"a\", \"z\"], \"additionalProperties\": false,"
        " \"properties\": {\"a\": {\"type\": \"integer\", \"maximum\": 0},"
        " \"b\": {\"oneOf\": [{\"type\": \"string\", \"pattern\": \"^0x[1-9]$\"}, {\"type\": \"null\"}]},"
        " \"c\": {\"type\": \"array\", \"minItems\": 3, \"items\": {\"enum\": [1, 3]}}}}",
        0, NULL);
    assert_non_null(s);
    assert_int_equal(jschema_validate(s, doc, &e), 1);
    assert_int_equal(e.n, 5);
    assert_string_equal(e.text[0], "$: member 'z' is missing");
    assert_string_equal(e.text[1], "$.a: 1 is above the maximum 0");
    assert_string_equal(e.text[2], "$.b: \"0x0\" does not match ^0x[1-9]$");
    assert_string_equal(e.text[3], "$.c: 2 items, want at least 3");
    assert_string_equal(e.text[4], "$.c[1]: 2 is not one of 1, 3");
    json_decref(doc);
    json_decref(bad);
    json_decref(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_tables),
        cmocka_unit_test(test_difference_seen),
        cmocka_unit_test(test_validator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
