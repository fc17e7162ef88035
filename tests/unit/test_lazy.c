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

#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "check.h"
#include "context.h"
#include "diag.h"
#include "mustache.h"
#include "tables.h"
#include "xmlload.h"

/* Replaces items {"x": 2} by {"x": "two"}; counts calls in *ctx. */
static json_t *two_to_word(void *ctx, json_t *item)
{
    ++*(int *)ctx;
    if (json_integer_value(json_object_get(item, "x")) != 2)
        return NULL;
    return json_pack("{s:s}", "x", "two");
}

static void render_with_hook(const char *tmpl, const char *data, mus_item_fn *fn, int *calls,
                             const char *expected)
{
    struct diag dg;
    diag_init(&dg, NULL);
    struct mus_options opt = {.item = fn, .item_ctx = calls};
    struct mus_template *t = mus_compile(&dg, "t.mustache", tmpl, strlen(tmpl), &opt);
    assert_non_null(t);
    json_t *root = json_loads(data, 0, NULL);
    assert_non_null(root);
    struct buf out = BUF_INIT;
    assert_int_equal(mus_render(&dg, t, root, &opt, &out), 0);
    assert_string_equal(out.s, expected);
    buf_release(&out);
    json_decref(root);
    mus_free(t);
    diag_release(&dg);
}

static void test_item_hook_replaces_items(void **state)
{
    (void)state;
    int calls = 0;
    render_with_hook("{{#l}}{{x}},{{/l}}", "{\"l\": [{\"x\": 1}, {\"x\": 2}, {}]}", two_to_word,
                     &calls, "1,two,,");
    assert_int_equal(calls, 3);
}

static void test_item_hook_only_for_list_items(void **state)
{
    (void)state;
    int calls = 0; /* a section over an object is not a list: no call */
    render_with_hook("{{#o}}{{x}}{{/o}}", "{\"o\": {\"x\": 2}}", two_to_word, &calls, "2");
    assert_int_equal(calls, 0);
}

/* The checked model of regspec/e5_2600.xml in 'a'. */
static const struct model_spec *load(struct arena *a, struct diag *dg)
{
    struct model_spec *s = xmlload_spec(a, dg, "regspec/e5_2600.xml");
    assert_non_null(s);
    assert_int_equal(check_spec(a, dg, s), 0);
    assert_int_equal(dg->nerrors, 0);
    return s;
}

static void expect_same_tree(void (*annotate)(json_t *))
{
    struct arena a = ARENA_INIT;
    struct diag dg;
    diag_init(&dg, NULL);
    const struct model_spec *s = load(&a, &dg);
    json_t *full = context_build(s, NULL);
    if (annotate)
        annotate(full);
    struct context_options opt = {.annotate = annotate};
    json_t *tree;
    struct context_lazy *lz = context_build_lazy(s, &opt, &tree);
    json_t *blocks = json_object_get(tree, "blocks");
    json_t *fblocks = json_object_get(full, "blocks");
    assert_true(json_array_size(blocks) > 1);
    assert_int_equal(json_array_size(blocks), json_array_size(fblocks));
    /* expanded twice and in reverse order: each block is built alone */
    for (int round = 0; round < 2; round++) {
        for (size_t i = json_array_size(blocks); i-- > 0;) {
            json_t *b = context_expand(lz, json_array_get(blocks, i));
            assert_non_null(b);
            assert_true(json_equal(b, json_array_get(fblocks, i)));
            json_decref(b);
        }
    }
    /* anything but a placeholder is left alone */
    assert_null(context_expand(lz, json_object_get(tree, "spec")));
    json_t *empty = json_object();
    assert_null(context_expand(lz, empty));
    json_decref(empty);
    /* the rest of the tree is the same */
    json_object_set(tree, "blocks", fblocks);
    assert_true(json_equal(tree, full));
    json_decref(tree);
    context_lazy_free(lz);
    json_decref(full);
    diag_release(&dg);
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
    json_t *tree;
    struct context_lazy *lz = context_build_lazy(s, &opt, &tree);
    json_t *b = context_expand(lz, json_array_get(json_object_get(tree, "blocks"), 0));
    assert_non_null(b);
    assert_non_null(json_object_get(b, "c_name"));
    assert_null(json_object_get(b, "doc_anchor"));
    json_decref(b);
    json_decref(tree);
    context_lazy_free(lz);
    diag_release(&dg);
    arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_item_hook_replaces_items),
        cmocka_unit_test(test_item_hook_only_for_list_items),
        cmocka_unit_test(test_lazy_blocks_equal_full_tree),
        cmocka_unit_test(test_lazy_blocks_annotated),
        cmocka_unit_test(test_lazy_blocks_without_doc_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
