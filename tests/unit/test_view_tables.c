/*
 * Unit tests for the typed view's tables (compiler/view_schema.c: what regc
 * hands out, written at build time by tools/viewgen) against the view built
 * now from the schema file itself, docs/regc-model.schema.json, and the
 * derived names (compiler/view_build.c): the same types in the same order,
 * each with the same names, kinds, nullability, origin and reach. Tables
 * left stale by a schema edit, or written wrong, fail here. Also: the
 * builder's answer to text that is no JSON.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "view.h"
#include "view_build.h"

#define SCHEMA_FILE "docs/regc-model.schema.json"

static void read_file(const char *path, struct buf *out)
{
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
        buf_addn(out, chunk, n);
    assert_false(ferror(in));
    fclose(in);
}

static size_t index_of(const struct view_schema *vs, const struct view_type *t)
{
    for (size_t i = 0; i < vs->ntypes; i++)
        if (vs->types[i] == t)
            return i;
    return (size_t)-1;
}

/* Where member 'm' of the tables ('tv') and 'w' of the schema built now ('bv') differ. */
static void compare_member(struct buf *diff, const char *type, const struct view_schema *tv,
                           const struct view_member *m, const struct view_schema *bv,
                           const struct view_member *w)
{
    if (strcmp(m->name, w->name) != 0) {
        buf_addf(diff, "%s: '%s' where the schema gives '%s'\n", type, m->name, w->name);
        return;
    }
    if (m->v.kind != w->v.kind || m->v.nullable != w->v.nullable || m->v.item != w->v.item)
        buf_addf(diff, "%s.%s: kind %d nullable %d item %d, the schema's %d %d %d\n", type, m->name,
                 m->v.kind, m->v.nullable, m->v.item, w->v.kind, w->v.nullable, w->v.item);
    if (!m->v.type != !w->v.type ||
        (m->v.type && index_of(tv, m->v.type) != index_of(bv, w->v.type)))
        buf_addf(diff, "%s.%s: of type %s, the schema's %s\n", type, m->name,
                 m->v.type ? m->v.type->name : "none", w->v.type ? w->v.type->name : "none");
    if (m->origin != w->origin || m->optional != w->optional)
        buf_addf(diff, "%s.%s: origin %d optional %d, the schema's %d %d\n", type, m->name,
                 m->origin, m->optional, w->origin, w->optional);
}

static void compare_type(struct buf *diff, const struct view_schema *tv, const struct view_type *t,
                         const struct view_schema *bv, const struct view_type *w)
{
    if (strcmp(t->name, w->name) != 0) {
        buf_addf(diff, "type '%s' where the schema gives '%s'\n", t->name, w->name);
        return;
    }
    if (t->reached != w->reached || t->annotated != w->annotated)
        buf_addf(diff, "%s: reached %d annotated %d, the schema's %d %d\n", t->name, t->reached,
                 t->annotated, w->reached, w->annotated);
    if (t->n != w->n)
        buf_addf(diff, "%s: %zu names, the schema's %zu\n", t->name, t->n, w->n);
    for (size_t k = 0; k < t->n && k < w->n; k++)
        compare_member(diff, t->name, tv, &t->members[k], bv, &w->members[k]);
}

static void test_tables_are_the_schema(void **state)
{
    (void)state;
    struct buf text = BUF_INIT, err = BUF_INIT, diff = BUF_INIT;
    read_file(SCHEMA_FILE, &text);
    struct view_schema built, tables;
    assert_int_equal(view_build_init(&built, text.s, text.len, &err), 0);
    view_schema_init(&tables);
    assert_true(tables.ntypes > 50); /* the model's objects and the derived ones */
    assert_ptr_equal(tables.root, tables.types[0]);
    assert_string_equal(tables.root->name, "root");
    if (tables.ntypes != built.ntypes)
        buf_addf(&diff, "%zu types, the schema's %zu\n", tables.ntypes, built.ntypes);
    for (size_t i = 0; i < tables.ntypes && i < built.ntypes; i++)
        compare_type(&diff, &tables, tables.types[i], &built, built.types[i]);
    if (diff.len)
        fail_msg("the view's tables differ from " SCHEMA_FILE " (rebuild: make):\n%s", diff.s);
    view_schema_release(&tables);
    view_build_release(&built);
    buf_release(&text);
    buf_release(&err);
    buf_release(&diff);
}

/* The builder alone, on a schema written here: the facts by hand. */
static void test_build_small_schema(void **state)
{
    (void)state;
    static const char schema[] =
        "{\"type\": \"object\", \"required\": [\"n\"], \"properties\": {"
        "\"n\": {\"type\": \"integer\"}, \"s\": {\"type\": [\"string\", \"null\"]},"
        "\"l\": {\"type\": \"array\", \"items\": {\"$ref\": \"#/definitions/thing\"}}},"
        "\"definitions\": {\"thing\": {\"type\": \"object\", \"required\": [\"on\"],"
        "\"properties\": {\"on\": {\"type\": \"boolean\"}}}}}";
    struct buf err = BUF_INIT;
    struct view_schema vs;
    assert_int_equal(view_build_init(&vs, schema, strlen(schema), &err), 0);
    const struct view_type *root = vs.root;
    assert_string_equal(root->name, "root");
    assert_true(root->n > 3); /* n, s, l, then the root's derived names */
    assert_string_equal(root->members[0].name, "n");
    assert_int_equal(root->members[0].v.kind, VIEW_INT);
    assert_false(root->members[0].v.nullable);
    assert_false(root->members[0].optional);
    assert_string_equal(root->members[1].name, "s");
    assert_int_equal(root->members[1].v.kind, VIEW_STR);
    assert_true(root->members[1].v.nullable);
    assert_true(root->members[1].optional); /* not in "required" */
    assert_string_equal(root->members[2].name, "l");
    assert_int_equal(root->members[2].v.kind, VIEW_LIST);
    assert_int_equal(root->members[2].v.item, VIEW_OBJ);
    assert_string_equal(root->members[2].v.type->name, "thing");
    assert_int_equal(root->members[3].origin, VIEW_DERIVED);
    const struct view_type *thing = view_type_find(&vs, "thing");
    assert_ptr_equal(thing, root->members[2].v.type);
    assert_int_equal(thing->n, 1);
    assert_int_equal(thing->members[0].v.kind, VIEW_BOOL);
    assert_true(thing->reached && thing->annotated);
    view_build_release(&vs);
    buf_release(&err);
}

static void test_build_refuses_what_is_no_json(void **state)
{
    (void)state;
    struct buf err = BUF_INIT;
    struct view_schema vs;
    assert_int_equal(view_build_init(&vs, "{\n\"a\": ", 7, &err), -1);
    assert_non_null(strstr(err.s, "line 2"));
    assert_int_equal(vs.ntypes, 0);
    buf_release(&err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_are_the_schema),
        cmocka_unit_test(test_build_small_schema),
        cmocka_unit_test(test_build_refuses_what_is_no_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
