/*
 * Unit tests for compiler/view.c: the typed view's types against what the
 * templates really get. For the five specs of regspec/ and the golden
 * specs and an SVD file, the whole data tree (context_build with the t_* and doc keys:
 * what `regc --dump-context` writes) is walked beside the view: every name
 * of every object must be a name of the object's type with the kind the
 * view gives it, and every name the view says is always set must be there,
 * not null, in every object of its type (the check of a section over a
 * value always set relies on it). Also: the model's names come from the
 * JSON Schema (a name it has is a name of the view's type), and the t_* rule.
 */
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
#include "check.h"
#include "context.h"
#include "context_svd.h"
#include "dt.h"
#include "svd.h"
#include "tables.h"
#include "view.h"
#include "xmlload.h"

static struct view_schema VS;

/* Every (type, name) found in some spec's tree: the view offers no name the data never has. */
static struct buf SEEN = BUF_INIT;

static void seen(const struct view_type *t, const char *name)
{
    char *key = arena_printf(&VS.a, "\n%s.%s\n", t->name, name);
    if (!strstr(SEEN.s ? SEEN.s : "", key))
        buf_adds(&SEEN, key + (SEEN.len ? 1 : 0)); /* entries are "\nTYPE.NAME\n" */
}

/* Where the tree disagrees with the view: one line per finding, the first 40. */
struct walk {
    struct buf bad;
    size_t nbad;
    size_t objects; /* objects walked */
};

static void bad(struct walk *w, const char *path, const char *what)
{
    if (w->nbad++ < 40)
        buf_addf(&w->bad, "%s: %s\n", path, what);
}

static void walk_obj(struct walk *w, const struct dt *o, const struct view_type *t,
                     const char *path);

/* Value 'v' at 'path' against 'want'. */
static void walk_value(struct walk *w, const struct dt *v, const struct view_value *want,
                       const char *path)
{
    if (v->type == DT_NULL) {
        if (!want->nullable)
            bad(w, path, "null, where the view says always set");
        return;
    }
    enum view_kind got = v->type == DT_STR                           ? VIEW_STR
                         : v->type == DT_INT && want->kind == VIEW_NUM ? VIEW_NUM /* 1 is a number */
                         : v->type == DT_INT                         ? VIEW_INT
                         : v->type == DT_REAL                        ? VIEW_NUM
                         : v->type == DT_TRUE || v->type == DT_FALSE ? VIEW_BOOL
                         : v->type == DT_LIST                        ? VIEW_LIST
                         : v->type == DT_OBJ                         ? VIEW_OBJ
                                                                     : (enum view_kind) - 1;
    if (got != want->kind) {
        struct buf b = BUF_INIT;
        buf_adds(&b, "not the view's ");
        view_value_describe(want, &b);
        bad(w, path, b.s);
        buf_release(&b);
        return;
    }
    if (got == VIEW_OBJ) {
        walk_obj(w, v, want->type, path);
    } else if (got == VIEW_LIST) {
        struct view_value item = {want->item, false, want->item, want->type};
        char *p = arena_printf(&VS.a, "%s[]", path);
        for (uint32_t i = 0; i < v->n; i++)
            walk_value(w, v->u.items[i], &item, p);
    }
}

static void walk_obj(struct walk *w, const struct dt *o, const struct view_type *t,
                     const char *path)
{
    w->objects++;
    for (uint32_t i = 0; i < o->n; i++) {
        const struct dt_member *m = &o->u.members[i];
        char *p = arena_printf(&VS.a, "%s.%s", path, m->key);
        struct view_value want;
        int origin = view_lookup(t, m->key, m->len, &want);
        if (origin < 0) {
            bad(w, p, "not a name of the view's type");
            continue;
        }
        seen(t, m->key);
        walk_value(w, m->val, &want, p);
    }
    for (size_t k = 0; k < t->n; k++) { /* names always set */
        const struct view_member *vm = &t->members[k];
        if (!vm->v.nullable && !dt_get(o, vm->name) &&
            !(strncmp(vm->name, "t_", 2) == 0 || strncmp(vm->name, "doc_", 4) == 0 ||
              strcmp(vm->name, "svg") == 0))
            bad(w, arena_printf(&VS.a, "%s.%s", path, vm->name),
                "always set, says the view, but missing");
    }
}

static void walk_spec(const char *file)
{
    struct arena a;
    arena_init(&a);
    struct diag dg;
    diag_init(&dg, stderr);
    size_t n = strlen(file);
    bool svd = n > 4 && strcmp(file + n - 4, ".svd") == 0;
    struct model_spec *s = svd ? svd_load(&a, &dg, file) : xmlload_spec(&a, &dg, file);
    assert_non_null(s);
    assert_int_equal(check_spec(&a, &dg, s), 0);
    /* memory-mapped specs: the "svd" tree too, as --dump-context writes it */
    struct context_options opt = {.annotate = tables_annotate, .svd_keys = context_svd_fits(s),
                                   .regspec_keys = true, .cmsis = true};
    struct dt *tree = context_build(&a, s, &opt);
    struct walk w = {BUF_INIT, 0, 0};
    walk_obj(&w, tree, VS.root, "");
    if (w.nbad)
        fail_msg("%s: %zu places where the data tree and the view disagree:\n%s", file, w.nbad,
                 w.bad.s);
    assert_true(w.objects > 50);
    buf_release(&w.bad);
    diag_release(&dg);
    arena_release(&a);
}

static void test_specs_match_the_view(void **state)
{
    (void)state;
    static const char *const specs[] = {"regspec/e5_2600.xml",       "regspec/e5_2600v2.xml",
                                        "regspec/snb_client.xml",    "regspec/xeon7100_l3.xml",
                                        "regspec/xeon7500_mbox.xml", "tests/golden/features.xml",
                                        "tests/svd/features.svd", "tests/unit/data/view/cpu.svd",
                                        "tests/svd/mmio-layouts.xml", "tests/svd/out-all.svd",
                                        "tests/svd/cmsis-layout.svd"}; /* c_cmsis */
    for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
        walk_spec(specs[i]);
}

/*
 * Every name the view offers templates is in some spec's tree (the t_* and
 * doc keys of a type are there by the same rule for all of it): a model
 * name added to the JSON Schema must be added to the data tree (context.c),
 * else a template would pass the check and find nothing, and -t json,
 * which writes the tree, would lack it.
 */
static void test_view_names_are_in_the_data(void **state)
{
    (void)state;
    struct buf miss = BUF_INIT;
    for (size_t i = 0; i < VS.ntypes; i++) {
        const struct view_type *t = VS.types[i];
        if (!t->reached)
            continue;
        for (size_t k = 0; k < t->n; k++) {
            const struct view_member *m = &t->members[k];
            char *key = arena_printf(&VS.a, "\n%s.%s\n", t->name, m->name);
            if (!strstr(SEEN.s, key))
                buf_addf(&miss, " %s.%s", t->name, m->name);
        }
    }
    if (miss.len)
        fail_msg("names the view offers that no spec's data tree has:%s", miss.s);
    buf_release(&miss);
}

static const struct view_member *member(const char *type, const char *name)
{
    const struct view_type *t = view_type_find(&VS, type);
    assert_non_null(t);
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->members[i].name, name) == 0)
            return &t->members[i];
    return NULL;
}

static void test_model_names_from_the_schema(void **state)
{
    (void)state;
    const struct view_member *m = member("register", "fields");
    assert_non_null(m);
    assert_int_equal(m->origin, VIEW_MODEL);
    assert_int_equal(m->v.kind, VIEW_LIST);
    assert_string_equal(m->v.type->name, "field");
    m = member("field", "desc");
    assert_int_equal(m->origin, VIEW_MODEL);
    assert_int_equal(m->v.kind, VIEW_STR);
    assert_true(m->v.nullable);
    m = member("block", "pmon");
    assert_int_equal(m->v.kind, VIEW_OBJ);
    assert_true(m->v.nullable);
    m = member("field", "c_mask");
    assert_int_equal(m->origin, VIEW_DERIVED);
    assert_int_equal(member("register", "address")->origin, VIEW_MODEL); /* once "not offered" */
    assert_false(member("register", "address")->optional);
    assert_true(member("register", "svd")->optional); /* only specs read from SVD have it */
    assert_false(member("field", "c_mask")->optional);
    assert_null(member("register", "no_such_name"));
}

static void test_table_names(void **state)
{
    (void)state;
    const struct view_type *field = view_type_find(&VS, "field");
    struct view_value v;
    assert_int_equal(view_lookup(field, "t_access", 8, &v), VIEW_DERIVED);
    assert_int_equal(view_lookup(field, "t_access_text", 13, &v), VIEW_DERIVED);
    assert_int_equal(view_lookup(field, "t_lsb", 5, &v), -1); /* an integer: no literal */
    assert_int_equal(view_lookup(field, "t_c_name", 8, &v), -1);
    const struct view_type *line = view_type_find(&VS, "line"); /* reached by c_ names only */
    assert_non_null(line);
    assert_false(line->annotated);
    assert_int_equal(view_lookup(line, "t_text", 6, &v), -1);
}

static int setup(void **state)
{
    (void)state;
    view_schema_init(&VS);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    view_schema_release(&VS);
    buf_release(&SEEN);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs_match_the_view),
        cmocka_unit_test(test_view_names_are_in_the_data),
        cmocka_unit_test(test_model_names_from_the_schema),
        cmocka_unit_test(test_table_names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
