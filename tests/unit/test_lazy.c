/*
 * Unit tests for rendering with a lazily built tree: the mustache item hook
 * (mus_options.item) and context_build_lazy()/context_expand(), which must
 * give exactly the blocks context_build() gives. Runs from the repo root
 * (tests/run.sh) and reads regspec/e5_2600.xml.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "check.h"
#include "context.h"
#include "diag.h"
#include "mustache.h"
#include "tables.h"
#include "templates.h"
#include "tmpl.h"
#include "xmlload.h"
#include "dt_json.h"

struct hook_ctx {
    int calls;
    struct arena a;
};

/* Replaces items {"x": 2} by {"x": "two"}; counts calls. */
static const struct dt *two_to_word(void *ctx, const struct dt *item)
{
    struct hook_ctx *h = ctx;
    h->calls++;
    if (dt_int_value(dt_get(item, "x")) != 2)
        return NULL;
    struct dt *o = dt_obj(&h->a);
    dt_set(&h->a, o, "x", dt_str(&h->a, "two"));
    return o;
}

static int render_with_hook(const char *tmpl, const char *data, const char *expected)
{
    struct diag dg;
    diag_init(&dg, NULL);
    struct hook_ctx h = {0, ARENA_INIT};
    struct mus_options opt = {.item = two_to_word, .item_ctx = &h};
    struct mus_template *t = mus_compile(&dg, "t.mustache", tmpl, strlen(tmpl));
    assert_non_null(t);
    json_t *root = json_loads(data, 0, NULL);
    assert_non_null(root);
    struct buf out = BUF_INIT;
    assert_int_equal(mus_render_json(&dg, t, root, &opt, &out), 0);
    assert_string_equal(out.s, expected);
    buf_release(&out);
    json_decref(root);
    mus_free(t);
    diag_release(&dg);
    arena_release(&h.a);
    return h.calls;
}

static void test_item_hook_replaces_items(void **state)
{
    (void)state;
    assert_int_equal(render_with_hook("{{#l}}{{x}},{{/l}}", "{\"l\": [{\"x\": 1}, {\"x\": 2}, {}]}",
                                      "1,two,,"),
                     3);
}

static void test_item_hook_only_for_list_items(void **state)
{
    (void)state;
    /* a section over an object is not a list: no call */
    assert_int_equal(render_with_hook("{{#o}}{{x}}{{/o}}", "{\"o\": {\"x\": 2}}", "2"), 0);
}

/* The checked model of 'path' in 'a'. */
static const struct model_spec *load_spec(struct arena *a, struct diag *dg, const char *path)
{
    struct model_spec *s = xmlload_spec(a, dg, path);
    assert_non_null(s);
    assert_int_equal(check_spec(a, dg, s), 0);
    assert_int_equal(dg->nerrors, 0);
    return s;
}

/* The checked model of regspec/e5_2600.xml in 'a'. */
static const struct model_spec *load(struct arena *a, struct diag *dg)
{
    return load_spec(a, dg, "regspec/e5_2600.xml");
}

static bool same(const struct dt *a, const struct dt *b)
{
    json_t *ja = dt_to_json(a), *jb = dt_to_json(b);
    bool eq = json_equal(ja, jb);
    json_decref(ja);
    json_decref(jb);
    return eq;
}

static void expect_same_tree(void (*annotate)(struct arena *, struct dt *))
{
    struct arena a = ARENA_INIT, fa = ARENA_INIT;
    struct diag dg;
    diag_init(&dg, NULL);
    const struct model_spec *s = load(&a, &dg);
    /* the same options both ways: with annotate, the context also adds the tables' t_ops,
       and context_build() applies it to the whole tree */
    struct context_options opt = {.annotate = annotate};
    struct dt *full = context_build(&fa, s, &opt);
    const struct dt *tree;
    struct context_lazy *lz = context_build_lazy(s, &opt, &tree);
    const struct dt *blocks = dt_get(tree, "blocks");
    const struct dt *fblocks = dt_get(full, "blocks");
    assert_true(dt_len(blocks) > 1);
    assert_int_equal(dt_len(blocks), dt_len(fblocks));
    /* expanded twice and in reverse order: each block is built alone */
    for (int round = 0; round < 2; round++) {
        for (size_t i = dt_len(blocks); i-- > 0;) {
            const struct dt *b = context_expand(lz, dt_at(blocks, i));
            assert_non_null(b);
            assert_true(same(b, dt_at(fblocks, i)));
            context_item_done(lz, b);
        }
    }
    /* two blocks handed out at once (a template nesting the list) stay intact */
    const struct dt *b0 = context_expand(lz, dt_at(blocks, 0));
    const struct dt *b1 = context_expand(lz, dt_at(blocks, 1));
    assert_true(same(b0, dt_at(fblocks, 0)));
    assert_true(same(b1, dt_at(fblocks, 1)));
    context_item_done(lz, b1);
    context_item_done(lz, b0);
    /* anything but a placeholder is left alone */
    assert_null(context_expand(lz, dt_get(tree, "spec")));
    struct dt *empty = dt_obj(&a);
    assert_null(context_expand(lz, empty));
    /* the rest of the tree is the same */
    json_t *jt = dt_to_json(tree), *jf = dt_to_json(full);
    json_object_set(jt, "blocks", json_object_get(jf, "blocks"));
    assert_true(json_equal(jt, jf));
    json_decref(jt);
    json_decref(jf);
    context_lazy_free(lz);
    diag_release(&dg);
    arena_release(&fa);
    arena_release(&a);
}

static void test_lazy_blocks_equal_full_tree(void **state)
{
    (void)state;
    expect_same_tree(NULL);
}

static void test_lazy_blocks_annotated(void **state)
{
    (void)state;
    expect_same_tree(tables_annotate);
}

static void test_lazy_blocks_without_doc_keys(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    struct diag dg;
    diag_init(&dg, NULL);
    const struct model_spec *s = load(&a, &dg);
    struct context_options opt = {.no_doc_keys = true};
    const struct dt *tree;
    struct context_lazy *lz = context_build_lazy(s, &opt, &tree);
    const struct dt *b = context_expand(lz, dt_at(dt_get(tree, "blocks"), 0));
    assert_non_null(b);
    assert_non_null(dt_get(b, "c_name"));
    assert_null(dt_get(b, "doc_anchor"));
    context_item_done(lz, b);
    context_lazy_free(lz);
    diag_release(&dg);
    arena_release(&a);
}

/* 'j' without the doc keys (doc_*, svg and their t_*), which lazy trees without doc keys lack. */
static void strip_doc_keys(json_t *j)
{
    if (json_is_array(j)) {
        for (size_t i = 0; i < json_array_size(j); i++)
            strip_doc_keys(json_array_get(j, i));
        return;
    }
    const char *key;
    json_t *v;
    void *tmp;
    json_object_foreach_safe(j, tmp, key, v)
    {
        if (strncmp(key, "doc_", 4) == 0 || strncmp(key, "t_doc_", 6) == 0 ||
            strcmp(key, "svg") == 0)
            json_object_del(j, key);
        else
            strip_doc_keys(v);
    }
}

/*
 * Without doc keys, a block's registers are placeholders built one at a time
 * when reached: each, and the block around them, must be the full tree's
 * (doc keys left out), the registers in any order, a register done before
 * the next is built.
 */
static void expect_lazy_registers(void (*annotate)(struct arena *, struct dt *))
{
    struct arena a = ARENA_INIT, fa = ARENA_INIT;
    struct diag dg;
    diag_init(&dg, NULL);
    const struct model_spec *s = load(&a, &dg);
    struct context_options opt = {.annotate = annotate, .no_doc_keys = true};
    json_t *full = dt_to_json(context_build(&fa, s, &opt));
    strip_doc_keys(full);
    json_t *fblocks = json_object_get(full, "blocks");
    const struct dt *tree;
    struct context_lazy *lz = context_build_lazy(s, &opt, &tree);
    const struct dt *blocks = dt_get(tree, "blocks");
    size_t nregs = 0;
    for (size_t i = 0; i < dt_len(blocks); i++) {
        const struct dt *b = context_expand(lz, dt_at(blocks, i));
        assert_non_null(b);
        json_t *fb = json_object_get(json_array_get(fblocks, i), "registers");
        const struct dt *regs = dt_get(b, "registers");
        assert_int_equal(dt_len(regs), json_array_size(fb));
        json_t *jregs = json_array();
        for (size_t k = dt_len(regs); k-- > 0;) { /* last first: each is built alone */
            const struct dt *r = context_expand(lz, dt_at(regs, k));
            assert_non_null(r);
            /* anything but a placeholder is left alone: a built item, an empty object */
            const struct dt *fields = dt_get(r, "fields");
            if (dt_len(fields))
                assert_null(context_expand(lz, dt_at(fields, 0)));
            struct dt empty = {.type = DT_OBJ};
            assert_null(context_expand(lz, &empty));
            json_t *jr = dt_to_json(r);
            assert_true(json_equal(jr, json_array_get(fb, k)));
            json_array_insert_new(jregs, 0, jr);
            context_item_done(lz, r);
            nregs++;
        }
        /* the block with its registers in place: the full tree's */
        json_t *jb = dt_to_json(b);
        json_object_set_new(jb, "registers", jregs);
        assert_true(json_equal(jb, json_array_get(fblocks, i)));
        json_decref(jb);
        context_item_done(lz, b);
    }
    assert_true(nregs > 20);
    json_decref(full);
    context_lazy_free(lz);
    diag_release(&dg);
    arena_release(&fa);
    arena_release(&a);
}

static void test_lazy_registers_equal_full_tree(void **state)
{
    (void)state;
    expect_lazy_registers(NULL);
    expect_lazy_registers(tables_annotate);
}

/*
 * --dump-context is written block by block (context_write_json); its text
 * must be what dumping the whole tree gives (context_to_json of
 * context_build), without and with the tables' t_* keys (regc dumps them).
 */
static void expect_streamed_equals_full(const struct context_options *opt)
{
    struct arena a = ARENA_INIT, fa = ARENA_INIT;
    struct diag dg;
    diag_init(&dg, NULL);
    const struct model_spec *s = load(&a, &dg);
    struct buf streamed = BUF_INIT, full = BUF_INIT;
    assert_int_equal(context_write_json(s, opt, NULL, NULL, &streamed), 0);
    assert_int_equal(context_to_json(context_build(&fa, s, opt), &full), 0);
    assert_true(full.len > 1000);
    assert_int_equal(streamed.len, full.len);
    assert_string_equal(streamed.s, full.s);
    if (opt && opt->annotate)
        assert_non_null(strstr(streamed.s, "\"t_access\": \"REGC_ACCESS_RW\""));
    buf_release(&streamed);
    buf_release(&full);
    diag_release(&dg);
    arena_release(&fa);
    arena_release(&a);
}

static void test_streamed_json_equals_full_dump(void **state)
{
    (void)state;
    expect_streamed_equals_full(NULL);
    expect_streamed_equals_full(&(struct context_options){.annotate = tables_annotate});
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_item_hook_replaces_items),
        cmocka_unit_test(test_item_hook_only_for_list_items),
        cmocka_unit_test(test_lazy_blocks_equal_full_tree),
        cmocka_unit_test(test_lazy_blocks_annotated),
        cmocka_unit_test(test_lazy_blocks_without_doc_keys),
        cmocka_unit_test(test_lazy_registers_equal_full_tree),
        cmocka_unit_test(test_streamed_json_equals_full_dump),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
