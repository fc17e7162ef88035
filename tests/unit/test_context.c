/*
 * Unit tests for compiler/context.c and compiler/names.c on models built by
 * hand (what check_spec() would hand over: references resolved, resets set).
 * With CONTEXT_DUMP=FILE set, also writes the demo tree's JSON to FILE.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "context.h"
#include "dt_json.h"
#include "model_builders.h"
#include "names.h"
#include "util.h"
#include "check.h"
#include "svd.h"
#include "xmlload.h"

#include <ctype.h>

static struct arena A;

/* The demo's field: its reset also goes into the register's, as check_spec() would. */
static struct model_field *field(struct model_reg *r, const char *name, unsigned msb, unsigned lsb,
                                 const char *access, uint64_t reset)
{
    struct model_field *f = mk_field(r, name, msb, lsb, access, 0);
    f->reset = reset;
    r->reset |= (reset << lsb);
    return f;
}

/* The demo's register: uncited unless the caller cites it. */
static struct model_reg *reg(struct model_block *b, const char *name, const char *written,
                             enum model_space sp, uint64_t addr, unsigned width, unsigned size)
{
    struct model_reg *r = mk_reg(b, name, width, addr, 0);
    r->written_name = written;
    r->space = sp;
    r->size = size;
    r->cite = (struct model_cite){0};
    return r;
}

static struct model_block *block(struct model_spec *s, const char *name)
{
    struct model_block *b = mk_block(s, name, 0);
    b->title = name;
    return b;
}

/*
 * The demo spec: a U-Box-like block (array control register with a rule and
 * events, a counter, a status register of every access kind), a C-Box-like
 * block with two MSR instances, one register placed by <at>, and a PCI block.
 */
static struct model_spec *demo(void)
{
    mk_begin(&A, 0);
    struct model_spec *s = arena_zalloc(&A, sizeof(*s));
    s->name = "demo";
    s->prefix = "DEMO";
    s->title = "Demo uncore";
    s->version = 1;
    struct model_source *src = MK_ADD(s->sources, s->nsources);
    *src = (struct model_source){.id = "guide", .title = "Demo Guide", .ref = "123", .rev = "001"};

    struct model_block *u = block(s, "ubox");
    u->desc = "System   configuration\n   controller.";
    struct model_reg *ctl = reg(u, "U_MSR_PMON_CTL", "U_MSR_PMON_CTL{1-0}", SPACE_MSR, 0xc10, 32, 64);
    mk_array(ctl, 2, 1);
    ctl->cite = (struct model_cite){.src = "guide", .table = "2-2", .page = "20", .source = src};
    ctl->desc = "Counter control: */ selects the event.";
    field(ctl, "rsv", 31, 29, "RV", 0);
    struct model_field *thresh = field(ctl, "thresh", 28, 24, "RW", 0);
    field(ctl, "invert", 23, 23, "RW", 0);
    field(ctl, "en", 22, 22, "RW", 0);
    field(ctl, "rsv", 21, 18, "RV", 0);
    field(ctl, "rst", 17, 17, "WO", 0);
    field(ctl, "rsv", 16, 16, "RV", 0)->implicit = true;
    struct model_field *umask = field(ctl, "umask", 15, 8, "RW", 0);
    struct model_field *evsel = field(ctl, "ev_sel", 7, 0, "RW", 0);
    mk_value(umask, "ANY", 0xff, 0);
    struct model_rule *rule =
        mk_rule(ctl, "invert_needs_thresh", "invert -> thresh != 0 && (en || !thresh)", 0, 0);
    rule->message = "  .invert needs\n \"thresh\" ?\?/  ";

    struct model_reg *st = reg(u, "U_MSR_PMON_STATUS", "U_MSR_PMON_STATUS", SPACE_MSR, 0xc00,
                               32, 32);
    field(st, "ig", 31, 8, "ig", 0);
    field(st, "ov", 7, 6, "RW1C", 0);
    field(st, "s", 5, 5, "RW1S", 0);
    field(st, "busy", 4, 3, "RO-V", 2);
    field(st, "kick", 2, 2, "WO", 0);
    field(st, "cnt", 1, 0, "RW-V", 1);

    struct model_events *t = MK_ADD(u->event_tables, u->nevent_tables);
    *t = (struct model_events){.reg_name = "U_MSR_PMON_CTL", .code_field_name = "ev_sel",
                               .umask_field_name = "umask", .reg = ctl, .code_field = evsel,
                               .umask_field = umask, .block = u};
    struct model_event *ev = mk_event(t, NULL, "EVENT_MSG", 0x42, 0);
    ev->has_counters = true;
    ev->counter_mask = 2;
    struct model_set *set = MK_ADD(ev->sets, ev->nsets);
    *set = (struct model_set){.field_name = "thresh", .value = 1, .reg = ctl, .field = thresh};
    struct model_event *sub = mk_event(t, ev, "DOORBELL_RCVD", 0, 0);
    sub->has_umask = true;
    sub->umask = 0x08;

    struct model_block *cb = block(s, "cbox");
    struct model_instance *c0 = mk_inst(cb, "cbox0", 0xd00, 0);
    struct model_instance *c1 = mk_inst(cb, "cbox1", 0xd20, 0);
    struct model_reg *cc = reg(cb, "C_CTL", "C_CTL", SPACE_MSR, 0x4, 64, 64);
    field(cc, "all", 63, 0, "RW", 0);
    struct model_reg *ca = reg(cb, "C_AT", "C_AT", SPACE_MSR, 0x8, 64, 64);
    field(ca, "all", 63, 0, "RW", 0);
    mk_at(ca, "cbox0", 0xe00, 0)->instance = c0;
    mk_at(ca, "cbox1", 0xe40, 0)->instance = c1;

    struct model_block *pb = block(s, "ha");
    pci_inst(mk_inst(pb, "ha0", 0, 0), 14, 1);
    struct model_reg *pr = reg(pb, "HA_CTL", "HA_CTL{3-0}", SPACE_PCI, 0xd8, 32, 32);
    mk_array(pr, 4, 4);
    field(pr, "x", 31, 0, "RW", 0);

    struct model_counters *k = mk_counters(u, "U_MSR_PMON_CTL", "U_MSR_PMON_STATUS", 44, 0);
    k->enable.name = "en";
    k->reset.name = "rst";
    k->preload_minus_one = true;
    return s;
}

static json_t *get(json_t *root, const char *path)
{
    /* "a.0.b": object keys and array indices */
    char tmp[256];
    snprintf(tmp, sizeof(tmp), "%s", path);
    json_t *v = root;
    for (char *tok = strtok(tmp, "."); tok && v; tok = strtok(NULL, "."))
        v = json_is_array(v) ? json_array_get(v, strtoul(tok, NULL, 10)) : json_object_get(v, tok);
    return v;
}

static const char *gets(json_t *root, const char *path)
{
    json_t *v = get(root, path);
    if (!json_is_string(v))
        fail_msg("'%s' is not a string", path);
    return json_string_value(v);
}

static json_t *build(void)
{
    return context_build_json(demo(), NULL);
}

static void test_spec_keys(void **state)
{
    json_t *t = build();
    assert_string_equal(gets(t, "spec.name"), "demo");
    assert_string_equal(gets(t, "spec.prefix"), "DEMO");
    assert_int_equal(json_integer_value(get(t, "spec.version")), 1);
    assert_string_equal(gets(t, "spec.sources.0.ref"), "123");
    assert_true(json_is_null(get(t, "spec.sources.0.url")));
    assert_string_equal(gets(t, "spec.c_guard"), "DEMO_DEMO_H");
    assert_string_equal(gets(t, "spec.c_source_lines.0.text"), "Demo Guide (ref 123, rev 001)");
    assert_true(json_is_null(get(t, "pmon_global")));
    json_decref(t);
}

static void test_register_keys(void **state)
{
    json_t *t = build();
    json_t *r = get(t, "blocks.0.registers.0");
    assert_string_equal(gets(r, "name"), "U_MSR_PMON_CTL");
    assert_string_equal(gets(r, "written_name"), "U_MSR_PMON_CTL{1-0}");
    assert_string_equal(gets(r, "space"), "msr");
    assert_int_equal(json_integer_value(get(r, "width")), 32);
    assert_int_equal(json_integer_value(get(r, "size")), 64);
    assert_string_equal(gets(r, "reset"), "0x0");
    assert_string_equal(gets(r, "array.stride"), "0x1");
    assert_int_equal(json_integer_value(get(r, "array.count")), 2);
    assert_string_equal(gets(r, "instances.1.address"), "0xc11");
    assert_int_equal(json_integer_value(get(r, "instances.1.index")), 1);
    assert_true(json_is_null(get(r, "instances.1.instance")));
    assert_string_equal(gets(r, "source.title"), "Demo Guide");
    assert_string_equal(gets(r, "source.table"), "2-2");
    assert_true(json_is_null(get(r, "source.section")));
    assert_string_equal(gets(r, "desc"), "Counter control: */ selects the event.");
    /* must-be-zero: the rsv fields and bits 63:32 (width 32, access size 64) */
    assert_string_equal(gets(r, "masks.mbz"), "0xffffffffe03d0000");
    assert_string_equal(gets(r, "masks.wo"), "0x20000");
    assert_string_equal(gets(r, "masks.writable"), "0x1fc2ffff");
    assert_string_equal(gets(r, "c_masks.mbz"), "UINT64_C(0xffffffffe03d0000)");
    assert_string_equal(gets(r, "c_masks.rmw"), "UINT64_C(0x000000001fc0ffff)");
    assert_string_equal(gets(r, "c_type"), "uint64_t");
    assert_true(json_is_true(get(r, "c_addr_by_index")));
    assert_true(json_is_true(get(r, "first")));
    json_t *f = get(r, "fields.1");
    assert_string_equal(gets(f, "name"), "thresh");
    assert_int_equal(json_integer_value(get(f, "lsb")), 24);
    assert_int_equal(json_integer_value(get(f, "msb")), 28);
    assert_int_equal(json_integer_value(get(f, "width")), 5);
    assert_string_equal(gets(f, "access"), "RW");
    assert_false(json_is_true(get(f, "implicit")));
    assert_true(json_is_true(get(r, "fields.6.implicit")));
    assert_string_equal(gets(f, "c_name"), "DEMO_U_MSR_PMON_CTL_THRESH");
    assert_string_equal(gets(f, "c_lower"), "demo_u_msr_pmon_ctl_thresh");
    assert_string_equal(gets(f, "c_mask"), "UINT64_C(0x000000001f000000)");
    assert_string_equal(gets(f, "c_max"), "UINT64_C(0x1f)");
    assert_string_equal(gets(r, "fields.7.values.0.value"), "0xff");
    assert_string_equal(gets(r, "fields.7.values.0.c_name"), "DEMO_U_MSR_PMON_CTL_UMASK_ANY");
    /* aligned defines: every name padded to the register's longest */
    size_t w = strlen(gets(r, "c_def.width"));
    assert_int_equal(strlen(gets(f, "c_def.shift")), w);
    assert_memory_equal(gets(f, "c_def.shift"), "DEMO_U_MSR_PMON_CTL_THRESH_SHIFT ", 33);
    json_decref(t);
}

/*
 * Descriptions: whitespace folded for "desc", and wrapped for comments
 * (c_desc_lines, 76 columns for a block): a line may be exactly 76 wide, a
 * word longer than a line gets one of its own.
 */
static void test_desc_folded_and_wrapped(void **state)
{
    struct model_spec *s = demo();
    char x[71], y[6], z[81], q[73], text[512];
    memset(x, 'x', 70), x[70] = '\0';
    memset(y, 'y', 5), y[5] = '\0';
    memset(z, 'z', 80), z[80] = '\0';
    memset(q, 'q', 72), q[72] = '\0';
    snprintf(text, sizeof(text), "  %s \t%s\n\n%s end.\r\n  %s  ", x, y, z, q);
    s->blocks[0]->desc = text;
    json_t *t = context_build_json(s, NULL);
    json_t *b = get(t, "blocks.0");
    char want[512];
    /* "desc" is the model's text, as -t json writes it (the loader folded it); comments fold */
    assert_string_equal(gets(b, "desc"), text);
    json_t *lines = get(b, "c_desc_lines");
    assert_int_equal(json_array_size(lines), 4);
    snprintf(want, sizeof(want), "%s %s", x, y);
    assert_string_equal(gets(lines, "0.text"), want); /* 76 wide: fits */
    assert_string_equal(gets(lines, "1.text"), z);    /* 80 wide: alone */
    assert_string_equal(gets(lines, "2.text"), "end.");
    assert_string_equal(gets(lines, "3.text"), q);
    json_decref(t);
    /* text folded already is kept; each thing folding changes is found */
    const char *in[] = {" \n ", "a  b", " a", "a ", "a\tb", "a b", ""};
    const char *out[] = {"", "a b", "a", "a", "a b", "a b", ""};
    for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
        s->blocks[0]->desc = in[i];
        t = context_build_json(s, NULL);
        assert_string_equal(gets(t, "blocks.0.desc"), in[i]);
        assert_int_equal(json_array_size(get(t, "blocks.0.c_desc_lines")), *out[i] ? 1 : 0);
        if (*out[i])
            assert_string_equal(gets(t, "blocks.0.c_desc_lines.0.text"), out[i]);
        json_decref(t);
    }
}

/* A value's name from its field's stem is the name made from scratch. */
static void test_value_name_from_field_stem(void **state)
{
    struct model_spec *s = demo();
    const struct model_field *f = s->blocks[0]->regs[0]->fields[7]; /* umask, value ANY */
    assert_string_equal(f->name, "umask");
    const char *prefixes[] = {"DEMO", "demo.x", "a"};
    for (size_t i = 0; i < 3; i++) {
        char *stem = names_field(&A, prefixes[i], f);
        assert_string_equal(names_value_of(&A, stem, f, f->values[0]),
                            names_value(&A, prefixes[i], f, f->values[0]));
    }
    assert_string_equal(names_value_of(&A, names_field(&A, "demo.x", f), f, f->values[0]),
                        "DEMO_X_U_MSR_PMON_CTL_UMASK_ANY");
    /* block-qualified (SVD) names: the block's name, and "_V_" before a value's */
    s->blocks[0]->names_qualified = true;
    assert_string_equal(names_value_of(&A, names_field(&A, "demo", f), f, f->values[0]),
                        names_value(&A, "demo", f, f->values[0]));
    assert_string_equal(names_value(&A, "demo", f, f->values[0]),
                        "DEMO_UBOX_U_MSR_PMON_CTL_UMASK_V_ANY");
    s->blocks[0]->names_qualified = false;
}

static void test_attribute_masks(void **state)
{
    json_t *t = build();
    json_t *m = get(t, "blocks.0.registers.1.masks");
    assert_string_equal(gets(m, "mbz"), "0x0");
    assert_string_equal(gets(m, "ignored"), "0xffffff00");
    assert_string_equal(gets(m, "w1c"), "0xc0");
    assert_string_equal(gets(m, "w1s"), "0x20");
    assert_string_equal(gets(m, "ro"), "0x18");
    assert_string_equal(gets(m, "wo"), "0x4");
    assert_string_equal(gets(m, "writable"), "0xe7");
    assert_string_equal(gets(t, "blocks.0.registers.1.reset"), "0x11");
    assert_string_equal(gets(t, "blocks.0.registers.1.c_reset"), "UINT32_C(0x00000011)");
    json_decref(t);
}

static void test_rule_rendered_as_c(void **state)
{
    json_t *t = build();
    json_t *r = get(t, "blocks.0.registers.0.rules.0");
    assert_string_equal(gets(r, "expr"), "invert -> thresh != 0 && (en || !thresh)");
    assert_string_equal(gets(r, "message"), "  .invert needs\n \"thresh\" ?\?/  "); /* the model's */
    /* folded, the body of a C string literal: quotes escaped, no trigraph */
    assert_string_equal(gets(r, "c_message"), ".invert needs \\\"thresh\\\" \\?\\?/");
    assert_string_equal(gets(r, "c_expr"),
                        "(!demo_u_msr_pmon_ctl_invert_get(v) || "
                        "((demo_u_msr_pmon_ctl_thresh_get(v) != 0u) && "
                        "(demo_u_msr_pmon_ctl_en_get(v) || (!demo_u_msr_pmon_ctl_thresh_get(v)))))");
    assert_string_equal(gets(r, "c_name"), "DEMO_U_MSR_PMON_CTL_RULE_INVERT_NEEDS_THRESH");
    /* candidates: invert {0,1}; thresh {0,1,0x1f}; en {0,1} */
    assert_int_equal(json_array_size(get(r, "c_candidates")), 3);
    assert_string_equal(gets(r, "c_candidates.1.c_lower"), "demo_u_msr_pmon_ctl_thresh");
    assert_int_equal(json_integer_value(get(r, "c_candidates.1.c_count")), 3);
    assert_string_equal(gets(r, "c_candidates.1.c_values.2.c_value"), "UINT64_C(0x1f)");
    json_decref(t);
}

static void test_events_flattened(void **state)
{
    json_t *t = build();
    json_t *ev = get(t, "blocks.0.events");
    assert_int_equal(json_array_size(ev), 2);
    assert_string_equal(gets(ev, "0.name"), "EVENT_MSG");
    assert_string_equal(gets(ev, "0.register"), "U_MSR_PMON_CTL");
    assert_string_equal(gets(ev, "0.field"), "ev_sel");
    assert_string_equal(gets(ev, "0.umask_field"), "umask");
    assert_string_equal(gets(ev, "0.code"), "0x42");
    assert_true(json_is_null(get(ev, "0.umask")));
    assert_int_equal(json_array_size(get(ev, "0.counters")), 1);
    assert_int_equal(json_integer_value(get(ev, "0.counters.0")), 1);
    assert_string_equal(gets(ev, "1.name"), "EVENT_MSG.DOORBELL_RCVD");
    assert_string_equal(gets(ev, "1.umask"), "0x8");
    assert_int_equal(json_array_size(get(ev, "1.counters")), 2);
    /* the sub inherits its parent's <set> */
    assert_string_equal(gets(ev, "1.sets.0.field"), "thresh");
    assert_string_equal(gets(ev, "1.sets.0.register"), "U_MSR_PMON_CTL");
    assert_string_equal(gets(ev, "1.c_encoding"), "UINT64_C(0x1000842)");
    assert_string_equal(gets(ev, "0.c_encoding"), "UINT64_C(0x1000042)");
    assert_string_equal(gets(ev, "1.c_name"), "DEMO_EV_UBOX_EVENT_MSG_DOORBELL_RCVD");
    json_decref(t);
}

static void test_instances_and_addresses(void **state)
{
    json_t *t = build();
    json_t *b = get(t, "blocks.1");
    assert_string_equal(gets(b, "instances.1.base"), "0xd20");
    assert_true(json_is_null(get(b, "instances.1.pci")));
    json_t *cc = get(b, "registers.0");
    assert_true(json_is_true(get(cc, "c_addr_by_instance")));
    assert_string_equal(gets(cc, "instances.1.address"), "0xd24");
    assert_string_equal(gets(cc, "instances.1.instance"), "cbox1");
    assert_true(json_is_null(get(cc, "instances.1.index")));
    assert_string_equal(gets(cc, "c_addr_cases.1.c_name"), "DEMO_C_CTL_CBOX1_ADDR");
    json_t *ca = get(b, "registers.1");
    assert_string_equal(gets(ca, "instances.0.address"), "0xe00");
    assert_string_equal(gets(ca, "instances.1.address"), "0xe40");
    json_t *p = get(t, "blocks.2");
    assert_string_equal(gets(p, "instances.0.pci.vendor"), "0x8086");
    assert_string_equal(gets(p, "instances.0.pci.device"), "0x3c46");
    assert_int_equal(json_integer_value(get(p, "instances.0.pci.dev")), 14);
    assert_true(json_is_null(get(p, "instances.0.base")));
    json_t *pr = get(p, "registers.0");
    assert_true(json_is_true(get(pr, "c_addr_by_index")));
    assert_string_equal(gets(pr, "instances.3.address"), "0xe4");
    assert_string_equal(gets(pr, "instances.3.pci.device"), "0x3c46");
    assert_string_equal(gets(pr, "masks.mbz"), "0x0");
    json_decref(t);
}

static void test_pmon(void **state)
{
    json_t *t = build();
    json_t *k = get(t, "blocks.0.pmon.counters.0");
    assert_string_equal(gets(k, "kind"), "general");
    assert_string_equal(gets(k, "overflow"), "wrap");
    assert_string_equal(gets(k, "enable"), "en");
    assert_true(json_is_null(get(k, "pmi")));
    assert_string_equal(gets(k, "preload"), "2^w-1-N");
    assert_true(json_is_null(get(t, "blocks.0.pmon.box_control")));
    assert_true(json_is_null(get(t, "blocks.1.pmon")));
    json_decref(t);
}

static void test_json_text_is_stable(void **state)
{
    struct arena aa = ARENA_INIT, ab = ARENA_INIT;
    struct dt *a = context_build(&aa, demo(), NULL), *b = context_build(&ab, demo(), NULL);
    struct buf ta = BUF_INIT, tb = BUF_INIT;
    assert_int_equal(context_to_json(a, &ta), 0);
    assert_int_equal(context_to_json(b, &tb), 0);
    assert_string_equal(ta.s, tb.s);
    static const char head[] = "{\n  \"regc_model\": 1,\n  \"spec\": {\n    \"name\": \"demo\",";
    assert_memory_equal(ta.s, head, sizeof(head) - 1);
    assert_int_equal(ta.s[ta.len - 1], '\n');
    assert_int_equal(ta.s[ta.len - 2], '}');
    const char *dump = getenv("CONTEXT_DUMP");
    if (dump) {
        FILE *f = fopen(dump, "w");
        if (f) {
            fputs(ta.s, f);
            fclose(f);
        }
    }
    buf_release(&ta);
    buf_release(&tb);
    arena_release(&aa);
    arena_release(&ab);
}

static void test_json_error_leaves_buffer(void **state)
{
    /* jansson encodes only objects and arrays without JSON_ENCODE_ANY */
    struct arena a = ARENA_INIT;
    struct buf b = BUF_INIT;
    buf_adds(&b, "kept");
    assert_int_equal(context_to_json(dt_int(&a, 1), &b), -1);
    assert_string_equal(b.s, "kept");
    buf_release(&b);
    arena_release(&a);
}

static void test_prefix_option(void **state)
{
    struct context_options opt = {.prefix = "acme"};
    json_t *t = context_build_json(demo(), &opt);
    assert_string_equal(gets(t, "blocks.0.registers.0.c_name"), "ACME_U_MSR_PMON_CTL");
    assert_string_equal(gets(t, "spec.prefix"), "DEMO");
    json_decref(t);
}

struct seen {
    struct buf all;
    unsigned n;
};

static void collect(void *ctx, const char *ident, struct srcpos pos)
{
    struct seen *s = ctx;
    buf_addf(&s->all, "%s\n", ident);
    s->n++;
}

static void test_names_foreach_lists_header_names(void **state)
{
    struct seen s = {BUF_INIT, 0};
    names_foreach(demo(), "DEMO", collect, &s);
    static const char *const want[] = {
        "DEMO_ACT_WO\n",
        "DEMO_DEMO_H\n",
        "DEMO_U_MSR_PMON_CTL_COUNT\n",
        "demo_u_msr_pmon_ctl_addr\n",
        "DEMO_U_MSR_PMON_CTL_THRESH_SHIFT\n",
        "demo_u_msr_pmon_ctl_thresh_get\n",
        "DEMO_U_MSR_PMON_CTL_UMASK_ANY\n",
        "DEMO_U_MSR_PMON_CTL_RULE_INVERT_NEEDS_THRESH_MESSAGE\n",
        "demo_u_msr_pmon_ctl_check\n",
        "DEMO_U_MSR_PMON_STATUS_ADDR\n",
        "DEMO_EV_UBOX_EVENT_MSG_DOORBELL_RCVD_CODE\n",
        "DEMO_CBOX_CBOX1_BASE\n",
        "DEMO_C_AT_CBOX1_ADDR\n",
        "DEMO_HA_HA0_DEVICE\n",
        "demo_ha_ctl_addr\n",
    };
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
        if (!strstr(s.all.s, want[i]))
            fail_msg("names_foreach does not list %s", want[i]);
    /* reserved fields define nothing; single registers have no address function */
    assert_null(strstr(s.all.s, "_RSV_"));
    assert_null(strstr(s.all.s, "demo_u_msr_pmon_status_addr\n"));
    buf_release(&s.all);
}

static unsigned count_lines(const char *list, const char *line)
{
    unsigned n = 0;
    size_t len = strlen(line);
    for (const char *p = list; (p = strstr(p, line)) != NULL; p += len)
        n += (p == list || p[-1] == '\n');
    return n;
}

/* A field named like a mask suffix gives the same name twice: what name-collision reports. */
static void test_names_foreach_shows_collisions(void **state)
{
    struct model_spec *s = demo();
    struct model_reg *st = s->blocks[0]->regs[1];
    field(st, "ro", 31, 31, "RW", 0)->pos.line = 99;
    struct seen seen = {BUF_INIT, 0};
    names_foreach(s, "DEMO", collect, &seen);
    assert_int_equal(count_lines(seen.all.s, "DEMO_U_MSR_PMON_STATUS_RO_MASK\n"), 2);
    assert_int_equal(count_lines(seen.all.s, "DEMO_U_MSR_PMON_STATUS_WO_MASK\n"), 1);
    buf_release(&seen.all);
}

/* Adds each identifier the header text defines to 'out', one per line. */
static void header_names(const char *text, struct buf *out)
{
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        const char *p = NULL;
        if (strncmp(line, "#define ", 8) == 0)
            p = line + 8;
        else if (strncmp(line, "static inline ", 14) == 0) {
            const char *paren = memchr(line, '(', n);
            p = paren;
            while (p && p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
                p--;
        } else if (strncmp(line, "    ", 4) == 0 && isupper((unsigned char)line[4]) &&
                   strstr(line, " = 1 << ") && (size_t)(strstr(line, " = 1 << ") - line) < n)
            p = line + 4;
        if (p) {
            const char *q = p;
            while (isalnum((unsigned char)*q) || *q == '_')
                q++;
            if (strncmp(p, "UINT32_C", 8) != 0 && strncmp(p, "UINT64_C", 8) != 0) {
                buf_addn(out, p, (size_t)(q - p));
                buf_addc(out, '\n');
            }
        }
        line += n + (end ? 1 : 0);
    }
}

static bool has_line(const char *list, const char *line, size_t n)
{
    char *needle = malloc(n + 3);
    needle[0] = '\n';
    memcpy(needle + 1, line, n);
    needle[n + 1] = '\n';
    needle[n + 2] = '\0';
    bool found = strstr(list, needle) != NULL;
    free(needle);
    return found;
}

/* Every name missing from 'have' (both "\n"-framed lists), as one string. */
static void missing(const char *want, const char *have, struct buf *out)
{
    for (const char *p = want + 1; *p;) {
        const char *e = strchr(p, '\n');
        if (!e)
            break;
        if (e > p && !has_line(have, p, (size_t)(e - p))) {
            buf_addn(out, p, (size_t)(e - p) + 1);
        }
        p = e + 1;
    }
}

struct hashed {
    uint64_t *h;
    size_t n, cap;
    unsigned batches;
};

static void collect_hashes(void *ctx, const uint64_t *h, size_t n)
{
    struct hashed *s = ctx;
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        if (s->n == s->cap) {
            s->cap = s->cap ? 2 * s->cap : 256;
            s->h = realloc(s->h, s->cap * sizeof(*s->h));
        }
        s->h[s->n++] = h[i];
    }
    s->batches++;
}

/*
 * names_foreach_hashes() passes the hashes of the names names_foreach()
 * makes, in its order, each the hash of its text made whole
 * (names_hash64()), though it makes no text: what the collision check's
 * verdicts rest on.
 */
static void check_hashed_as_made(const struct model_spec *s)
{
    struct seen made = {BUF_INIT, 0};
    names_foreach(s, s->prefix, collect, &made);
    struct hashed hashed = {NULL, 0, 0, 0};
    names_foreach_hashes(s, s->prefix, collect_hashes, &hashed);
    assert_int_equal(hashed.n, made.n);
    const char *line = made.all.s;
    for (size_t i = 0; i < hashed.n; i++) {
        const char *end = strchr(line, '\n');
        char *name = strndup(line, (size_t)(end - line));
        if (names_hash64(name) != hashed.h[i])
            fail_msg("name %zu, %s: hashed %016" PRIx64 ", made whole %016" PRIx64, i, name,
                     hashed.h[i], names_hash64(name));
        free(name);
        line = end + 1;
    }
    assert_true(hashed.batches > 1); /* handed on some at a time, the last batch included */
    assert_true(hashed.n > 500);
    free(hashed.h);
    buf_release(&made.all);
}

/* On a regspec spec, and on an SVD device: names qualified by their block, "_V_" values. */
static void test_names_hashed_as_made(void **state)
{
    (void)state;
    struct diag dg;
    diag_init(&dg, stderr);
    struct model_spec *s = xmlload_spec(&A, &dg, "tests/golden/features.xml");
    assert_non_null(s);
    assert_int_equal(check_spec(&A, &dg, s), 0);
    check_hashed_as_made(s);
    struct model_spec *d = svd_load(&A, &dg, "tests/svd/features.svd");
    assert_non_null(d);
    assert_int_equal(check_spec(&A, &dg, d), 0);
    assert_true(d->blocks[0]->names_qualified);
    check_hashed_as_made(d);
    diag_release(&dg);
}

static void test_names_match_golden_header(void **state)
{
    struct diag dg;
    diag_init(&dg, stderr);
    struct model_spec *s = xmlload_spec(&A, &dg, "tests/golden/features.xml");
    assert_non_null(s);
    assert_int_equal(check_spec(&A, &dg, s), 0);
    struct seen listed = {BUF_INIT, 0};
    buf_addc(&listed.all, '\n');
    names_foreach(s, s->prefix, collect, &listed);
    struct util_file hdr;
    assert_int_equal(util_read_input("tests/golden/features.h.expected", 0, &hdr), 0);
    struct buf defined = BUF_INIT;
    buf_addc(&defined, '\n');
    header_names(hdr.text, &defined);
    struct buf miss = BUF_INIT;
    missing(defined.s, listed.all.s, &miss);
    if (miss.len)
        fail_msg("the header defines names names_foreach does not list:\n%s", miss.s);
    missing(listed.all.s, defined.s, &miss);
    if (miss.len)
        fail_msg("names_foreach lists names the header does not define:\n%s", miss.s);
    assert_true(listed.n > 500);
    buf_release(&miss);
    buf_release(&defined);
    free(hdr.text);
    buf_release(&listed.all);
    diag_release(&dg);
}

static int teardown(void **state)
{
    arena_release(&A);
    return 0;
}

/*
 * What a register's tree makes once and shares (context.c: the small hex and C
 * literals, the register's citation line, a field's lower-case name from the
 * register's): each key still holds its own value, written here by hand.
 */
static void test_shared_values_are_each_keys_own(void **state)
{
    struct model_spec *s = demo();
    struct model_reg *st = s->blocks[0]->regs[1]; /* U_MSR_PMON_STATUS, 32 bits */
    struct model_field *busy = st->fields[3], *kick = st->fields[4], *cnt = st->fields[5];
    mk_value(cnt, "ONE", 1, 0);
    mk_value(cnt, "TWO", 2, 0);
    mk_value(cnt, "THREE", 3, 0);
    kick->name = "Ki.Ck"; /* upper case and a dot: lower-cased, '.' made '_' */
    struct model_reg *ctl = s->blocks[0]->regs[0];
    struct model_cite same = ctl->cite, other = ctl->cite;
    other.table = "2-3";
    ctl->fields[1]->cite = &same;  /* thresh: the register's citation, copied as svd_model.c does */
    ctl->fields[2]->cite = &other; /* invert: another table */
    assert_string_equal(busy->name, "busy");
    json_t *t = context_build_json(s, NULL);
    json_t *r = get(t, "blocks.0.registers.1");
    assert_string_equal(gets(r, "fields.3.reset"), "0x2");
    assert_string_equal(gets(r, "fields.3.c_reset"), "UINT32_C(0x2)");
    assert_string_equal(gets(r, "fields.3.c_max"), "UINT32_C(0x3)");
    assert_string_equal(gets(r, "fields.4.reset"), "0x0");
    assert_string_equal(gets(r, "fields.4.c_reset"), "UINT32_C(0x0)");
    assert_string_equal(gets(r, "fields.4.c_max"), "UINT32_C(0x1)");
    assert_string_equal(gets(r, "fields.4.c_lower"), "demo_u_msr_pmon_status_ki_ck");
    assert_string_equal(gets(r, "fields.4.c_name"), "DEMO_U_MSR_PMON_STATUS_KI_CK");
    assert_string_equal(gets(r, "fields.5.reset"), "0x1");
    assert_string_equal(gets(r, "fields.5.c_reset"), "UINT32_C(0x1)");
    assert_string_equal(gets(r, "fields.5.c_max"), "UINT32_C(0x3)");
    assert_string_equal(gets(r, "fields.5.values.0.value"), "0x1");
    assert_string_equal(gets(r, "fields.5.values.0.c_value"), "UINT32_C(0x1)");
    assert_string_equal(gets(r, "fields.5.values.1.value"), "0x2");
    assert_string_equal(gets(r, "fields.5.values.1.c_value"), "UINT32_C(0x2)");
    assert_string_equal(gets(r, "fields.5.values.2.value"), "0x3");
    assert_string_equal(gets(r, "fields.5.values.2.c_value"), "UINT32_C(0x3)");
    /* the C masks: several equal, several not */
    assert_string_equal(gets(r, "c_masks.mbz"), "UINT32_C(0x00000000)");
    assert_string_equal(gets(r, "c_masks.ignored"), "UINT32_C(0xffffff00)");
    assert_string_equal(gets(r, "c_masks.w1c"), "UINT32_C(0x000000c0)");
    assert_string_equal(gets(r, "c_masks.w1s"), "UINT32_C(0x00000020)");
    assert_string_equal(gets(r, "c_masks.wo"), "UINT32_C(0x00000004)");
    assert_string_equal(gets(r, "c_masks.mb1"), "UINT32_C(0x00000000)");
    /* citations: the register's, a field citing the same, a field citing another table */
    const char *line = "Source: Demo Guide (ref 123, rev 001), table 2-2, page 20";
    r = get(t, "blocks.0.registers.0");
    assert_string_equal(gets(r, "c_source"), line);
    assert_string_equal(gets(r, "c_cite_lines.0.text"), line);
    assert_string_equal(gets(r, "fields.1.c_source"), line);
    assert_string_equal(gets(r, "fields.1.c_cite_lines.0.text"), line);
    assert_int_equal(json_array_size(get(r, "fields.1.c_cite_lines")), 1);
    assert_string_equal(gets(r, "fields.2.c_source"),
                        "Source: Demo Guide (ref 123, rev 001), table 2-3, page 20");
    assert_string_equal(gets(r, "fields.2.c_cite_lines.0.text"),
                        "Source: Demo Guide (ref 123, rev 001), table 2-3, page 20");
    assert_true(json_is_null(get(r, "fields.3.c_source")));
    json_decref(t);
}

/* 'path' of 'root' is 'name' padded with spaces to 'width' (no padding when it is longer) */
static void expect_padded(json_t *root, const char *path, const char *name, size_t width)
{
    char want[128];
    size_t n = strlen(name);
    assert_true(n < sizeof(want) && width < sizeof(want));
    memcpy(want, name, n);
    memset(want + n, ' ', width > n ? width - n : 0);
    want[width > n ? width : n] = '\0';
    assert_string_equal(gets(root, path), want);
}

/*
 * The c_def and c_mdef names, each scope's names from its table: every name
 * padded to the longest c_def name aligned with it, a c_mdef name longer
 * than that left as it is, an instance's names only those it has, a rule's
 * scope aligned alone. Widths counted by hand from the demo's names.
 */
static void test_def_names_scoped(void **state)
{
    json_t *t = build();
    json_t *r = get(t, "blocks.0.registers.0");
    /* the register's longest: DEMO_U_MSR_PMON_CTL (19) + _WRITABLE_MASK (14) */
    size_t w = 33;
    expect_padded(r, "c_def.writable", "DEMO_U_MSR_PMON_CTL_WRITABLE_MASK", w);
    expect_padded(r, "c_def.rules", "DEMO_U_MSR_PMON_CTL_RULES", w);
    expect_padded(r, "c_def.w0", "DEMO_U_MSR_PMON_CTL_W0_MASK", w);
    json_t *thresh = get(r, "fields.1"), *en = get(r, "fields.3");
    expect_padded(thresh, "c_def.mask", "DEMO_U_MSR_PMON_CTL_THRESH_MASK", w);
    expect_padded(thresh, "c_def.reset", "DEMO_U_MSR_PMON_CTL_THRESH_RESET", w);
    /* 33, 36 and 33 long: one scope, slots of its longest */
    expect_padded(thresh, "c_mdef.get", "DEMO_U_MSR_PMON_CTL_THRESH_GET(v)", w);
    expect_padded(thresh, "c_mdef.set", "DEMO_U_MSR_PMON_CTL_THRESH_SET(v, x)", w);
    assert_int_equal(strlen(gets(thresh, "c_mdef.set")), 36);
    expect_padded(thresh, "c_mdef.val", "DEMO_U_MSR_PMON_CTL_THRESH_VAL(x)", w);
    expect_padded(en, "c_mdef.get", "DEMO_U_MSR_PMON_CTL_EN_GET(v)", w);
    expect_padded(en, "c_mdef.set", "DEMO_U_MSR_PMON_CTL_EN_SET(v, x)", w);
    expect_padded(en, "c_def.shift", "DEMO_U_MSR_PMON_CTL_EN_SHIFT", w);
    assert_null(get(r, "fields.0.c_def")); /* reserved: no names */
    expect_padded(r, "fields.7.values.0.c_def.name", "DEMO_U_MSR_PMON_CTL_UMASK_ANY", w);
    /* the rule's names line up with each other only: 44 and 52 long */
    expect_padded(r, "rules.0.c_def.name", "DEMO_U_MSR_PMON_CTL_RULE_INVERT_NEEDS_THRESH", 52);
    expect_padded(r, "rules.0.c_def.message",
                  "DEMO_U_MSR_PMON_CTL_RULE_INVERT_NEEDS_THRESH_MESSAGE", 52);
    /* a register with instances: its address cases in its scope (DEMO_C_CTL_WRITABLE_MASK: 24) */
    json_t *cc = get(t, "blocks.1.registers.0");
    expect_padded(cc, "c_addr_cases.1.c_def.addr", "DEMO_C_CTL_CBOX1_ADDR", 24);
    expect_padded(cc, "fields.0.c_def.max", "DEMO_C_CTL_ALL_MAX", 24);
    /* instances: only the names each has, in the table's order; a block's instances together */
    json_t *d = get(t, "blocks.1.instances.0.c_def");
    assert_int_equal(json_object_size(d), 2);
    expect_padded(d, "name", "DEMO_CBOX_CBOX0", 20);
    expect_padded(d, "base", "DEMO_CBOX_CBOX0_BASE", 20);
    d = get(t, "blocks.2.instances.0.c_def");
    const char *keys[] = {"name", "vendor", "device", "dev", "func"};
    const char *names[] = {"DEMO_HA_HA0", "DEMO_HA_HA0_VENDOR", "DEMO_HA_HA0_DEVICE",
                           "DEMO_HA_HA0_DEV", "DEMO_HA_HA0_FUNC"};
    assert_int_equal(json_object_size(d), 5);
    size_t k = 0;
    const char *key;
    json_t *v;
    json_object_foreach(d, key, v)
    {
        assert_string_equal(key, keys[k]);
        expect_padded(d, key, names[k], 18);
        k++;
    }
    expect_padded(t, "blocks.1.c_def.ninstances", "DEMO_CBOX_NINSTANCES", 20);
    json_decref(t);
}

/* A rule's message as a C string body: each escape written by hand; nothing to escape, as is. */
static void test_c_message_escapes(void **state)
{
    struct model_spec *s = demo();
    struct model_rule *rule = s->blocks[0]->regs[0]->rules[0];
    const char *in[] = {"plain text", "a\\b \"q\" ?\?=", "x\001y\177z", ""};
    const char *out[] = {"plain text", "a\\\\b \\\"q\\\" \\?\\?=", "x\\001y\\177z", ""};
    for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
        rule->message = in[i];
        json_t *t = context_build_json(s, NULL);
        assert_string_equal(gets(t, "blocks.0.registers.0.rules.0.c_message"), out[i]);
        json_decref(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_spec_keys, teardown),
        cmocka_unit_test_teardown(test_register_keys, teardown),
        cmocka_unit_test_teardown(test_desc_folded_and_wrapped, teardown),
        cmocka_unit_test_teardown(test_value_name_from_field_stem, teardown),
        cmocka_unit_test_teardown(test_attribute_masks, teardown),
        cmocka_unit_test_teardown(test_rule_rendered_as_c, teardown),
        cmocka_unit_test_teardown(test_events_flattened, teardown),
        cmocka_unit_test_teardown(test_instances_and_addresses, teardown),
        cmocka_unit_test_teardown(test_pmon, teardown),
        cmocka_unit_test_teardown(test_json_text_is_stable, teardown),
        cmocka_unit_test_teardown(test_json_error_leaves_buffer, teardown),
        cmocka_unit_test_teardown(test_prefix_option, teardown),
        cmocka_unit_test_teardown(test_names_foreach_lists_header_names, teardown),
        cmocka_unit_test_teardown(test_names_hashed_as_made, teardown),
        cmocka_unit_test_teardown(test_names_match_golden_header, teardown),
        cmocka_unit_test_teardown(test_names_foreach_shows_collisions, teardown),
        cmocka_unit_test_teardown(test_shared_values_are_each_keys_own, teardown),
        cmocka_unit_test_teardown(test_def_names_scoped, teardown),
        cmocka_unit_test_teardown(test_c_message_escapes, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
