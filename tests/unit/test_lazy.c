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
static const struct dt *two_to_word(void *ctx, const struct dt *item, unsigned slot)
{
    struct hook_ctx *h = ctx;
    (void)slot;
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
    struct mus_template *t = mus_compile(&dg, "t.mustache", tmpl, strlen(tmpl), &opt);
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
    assert_int_equal(check_spec(a, dg, s, 1), 0);
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
    /* the same options both ways: with annotate, the context also adds the tables' t_ops */
    struct context_options opt = {.annotate = annotate};
    struct dt *full = context_build(&fa, s, &opt);
    if (annotate)
        annotate(&fa, full);
    const struct dt *tree;
    struct context_lazy *lz = context_build_lazy(s, &opt, &tree);
    const struct dt *blocks = dt_get(tree, "blocks");
    const struct dt *fblocks = dt_get(full, "blocks");
    assert_true(dt_len(blocks) > 1);
    assert_int_equal(dt_len(blocks), dt_len(fblocks));
    /* expanded twice and in reverse order: each block is built alone */
    for (int round = 0; round < 2; round++) {
        for (size_t i = dt_len(blocks); i-- > 0;) {
            const struct dt *b = context_expand(lz, dt_at(blocks, i), 0);
            assert_non_null(b);
            assert_true(same(b, dt_at(fblocks, i)));
            context_item_done(lz, b, 0);
        }
    }
    /* two blocks handed out at once (a template nesting the list) stay intact */
    const struct dt *b0 = context_expand(lz, dt_at(blocks, 0), 0);
    const struct dt *b1 = context_expand(lz, dt_at(blocks, 1), 0);
    assert_true(same(b0, dt_at(fblocks, 0)));
    assert_true(same(b1, dt_at(fblocks, 1)));
    context_item_done(lz, b1, 0);
    context_item_done(lz, b0, 0);
    /* anything but a placeholder is left alone */
    assert_null(context_expand(lz, dt_get(tree, "spec"), 0));
    struct dt *empty = dt_obj(&a);
    assert_null(context_expand(lz, empty, 0));
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
    const struct dt *b = context_expand(lz, dt_at(dt_get(tree, "blocks"), 0), 0);
    assert_non_null(b);
    assert_non_null(dt_get(b, "c_name"));
    assert_null(dt_get(b, "doc_anchor"));
    context_item_done(lz, b, 0);
    context_lazy_free(lz);
    diag_release(&dg);
    arena_release(&a);
}

/*
 * -t json is written block by block (context_write_json); its text must be
 * what dumping the whole tree gives (context_to_json of context_build).
 */
static void test_streamed_json_equals_full_dump(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT, fa = ARENA_INIT;
    struct diag dg;
    diag_init(&dg, NULL);
    const struct model_spec *s = load(&a, &dg);
    struct buf streamed = BUF_INIT, full = BUF_INIT;
    assert_int_equal(context_write_json(s, NULL, &streamed), 0);
    assert_int_equal(context_to_json(context_build(&fa, s, NULL), &full), 0);
    assert_true(full.len > 1000);
    assert_int_equal(streamed.len, full.len);
    assert_string_equal(streamed.s, full.s);
    buf_release(&streamed);
    buf_release(&full);
    diag_release(&dg);
    arena_release(&fa);
    arena_release(&a);
}

/* ------------------------------------------------ trees for the built-in C header alone */

static void add_name(void *ctx, const char *part)
{
    json_object_set_new(ctx, part, json_true());
}

/* Every name the built-in C header and its partials (_c_*) look up, as a JSON set. */
static json_t *c_header_names(void)
{
    json_t *names = json_object();
    struct diag dg;
    diag_init(&dg, NULL);
    for (size_t i = 0; i < embedded_template_count; i++) {
        const struct embedded_template *e = &embedded_templates[i];
        if (strcmp(e->name, "c") != 0 && strncmp(e->name, "_c_", 3) != 0)
            continue;
        struct mus_template *t = mus_compile(&dg, e->name, e->text, e->len, NULL);
        assert_non_null(t);
        mus_foreach_name(t, add_name, names);
        mus_free(t);
    }
    diag_release(&dg);
    assert_non_null(json_object_get(names, "c_def")); /* the templates were found */
    return names;
}

/*
 * 'lean' is 'full' without some keys, each one the C header never names:
 * the same members otherwise, in the same order, with the same values.
 */
static void expect_lean(const json_t *full, const json_t *lean, const json_t *names,
                        const char *where)
{
    if (json_is_object(full) && json_is_object(lean)) {
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)full, key, v) {
            json_t *l = json_object_get(lean, key);
            if (!l && json_object_get(names, key))
                fail_msg("%s: key '%s' left out, but the C header names it", where, key);
            if (l)
                expect_lean(v, l, names, key);
        }
        json_object_foreach((json_t *)lean, key, v) {
            if (!json_object_get(full, key))
                fail_msg("%s: key '%s' only in the lean tree", where, key);
        }
    } else if (json_is_array(full) && json_is_array(lean)) {
        assert_int_equal(json_array_size(full), json_array_size(lean));
        for (size_t i = 0; i < json_array_size(full); i++)
            expect_lean(json_array_get(full, i), json_array_get(lean, i), names, where);
    } else if (!json_equal(full, lean)) {
        fail_msg("%s: values differ", where);
    }
}

/* The C header of 's' rendered from lazy trees built with 'copt'. */
static void render_c(const struct model_spec *s, struct context_options *copt, struct buf *out)
{
    struct diag dg;
    diag_init(&dg, NULL);
    struct tmpl tp;
    tmpl_init(&tp, &dg, NULL, 0);
    assert_int_equal(tmpl_load(&tp, "c"), 0);
    const struct dt *tree;
    struct context_lazy *lz = context_build_lazy(s, copt, &tree);
    struct mus_options mopt = {.escape = MUS_ESCAPE_C,
                               .strict = true,
                               .item = context_expand,
                               .item_done = context_item_done,
                               .item_ctx = lz};
    assert_int_equal(tmpl_render(&tp, tree, &mopt, out), 0);
    context_lazy_free(lz);
    tmpl_release(&tp);
    diag_release(&dg);
}

/* Each block's lean tree against the full one, then the header both give. */
static void expect_c_header_only(const char *path, const json_t *names)
{
    struct arena a = ARENA_INIT;
    struct diag dg;
    diag_init(&dg, NULL);
    const struct model_spec *s = load_spec(&a, &dg, path);
    struct context_options fopt = {.no_doc_keys = true};
    struct context_options lopt = {.no_doc_keys = true, .c_header_only = true};
    const struct dt *ftree, *ltree;
    struct context_lazy *flz = context_build_lazy(s, &fopt, &ftree);
    struct context_lazy *llz = context_build_lazy(s, &lopt, &ltree);
    const struct dt *fblocks = dt_get(ftree, "blocks"), *lblocks = dt_get(ltree, "blocks");
    for (size_t i = 0; i < dt_len(fblocks); i++) {
        const struct dt *fb = context_expand(flz, dt_at(fblocks, i), 0);
        const struct dt *lb = context_expand(llz, dt_at(lblocks, i), 0);
        json_t *jf = dt_to_json(fb), *jl = dt_to_json(lb);
        expect_lean(jf, jl, names, path);
        json_decref(jf);
        json_decref(jl);
        context_item_done(flz, fb, 0);
        context_item_done(llz, lb, 0);
    }
    json_t *jf = dt_to_json(ftree), *jl = dt_to_json(ltree);
    expect_lean(jf, jl, names, path); /* the root: spec, the placeholders, pmon_global */
    json_decref(jf);
    json_decref(jl);
    context_lazy_free(flz);
    context_lazy_free(llz);
    struct buf fh = BUF_INIT, lh = BUF_INIT;
    render_c(s, &fopt, &fh);
    render_c(s, &lopt, &lh);
    assert_true(fh.len > 1000);
    assert_string_equal(fh.s, lh.s);
    buf_release(&fh);
    buf_release(&lh);
    diag_release(&dg);
    arena_release(&a);
}

/*
 * context_options.c_header_only leaves out of each tree the keys the
 * built-in C header never names: none it names is missing, nothing else
 * changes, and the header is the same byte for byte. Over every spec of
 * regspec/ and the golden spec that uses every feature.
 */
static void test_c_header_only_keys(void **state)
{
    (void)state;
    json_t *names = c_header_names();
    const char *const specs[] = {"tests/golden/features.xml", "regspec/e5_2600.xml",
                                 "regspec/e5_2600v2.xml",     "regspec/snb_client.xml",
                                 "regspec/xeon7100_l3.xml",   "regspec/xeon7500_mbox.xml"};
    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
        expect_c_header_only(specs[i], names);
    json_decref(names);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_item_hook_replaces_items),
        cmocka_unit_test(test_item_hook_only_for_list_items),
        cmocka_unit_test(test_lazy_blocks_equal_full_tree),
        cmocka_unit_test(test_lazy_blocks_annotated),
        cmocka_unit_test(test_lazy_blocks_without_doc_keys),
        cmocka_unit_test(test_streamed_json_equals_full_dump),
        cmocka_unit_test(test_c_header_only_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
