/*
 * viewgen - write the typed view's types (compiler/view.h) as C tables.
 *
 *   viewgen OUT.c SCHEMA.json
 *
 * Builds the view from the model's JSON Schema and the derived names
 * (compiler/view_build.h) and writes it as const data: view_tables[], the
 * types in the order the build made them (the root first), and
 * view_tables_count. regc hands these out (view_schema_init) instead of
 * parsing the schema on every run; tests/unit/test_view_tables.c checks
 * that they equal what building from the schema file gives. A build tool:
 * it runs at build time only and reports errors on stderr; OUT.c is
 * removed when anything fails.
 */
#include "util.h"
#include "view_build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_name(enum view_kind k)
{
    static const char *const names[] = {
        [VIEW_STR] = "VIEW_STR", [VIEW_INT] = "VIEW_INT",   [VIEW_BOOL] = "VIEW_BOOL",
        [VIEW_OBJ] = "VIEW_OBJ", [VIEW_LIST] = "VIEW_LIST", [VIEW_NUM] = "VIEW_NUM",
    };
    return names[k];
}

/* The names are written in C string literals without escapes: letters, digits, '_' and '.'. */
static bool plain_name(const char *s)
{
    for (; *s; s++)
        if (!util_is_ident_char(*s) && *s != '.')
            return false;
    return true;
}

static size_t type_index(const struct view_schema *vs, const struct view_type *t)
{
    for (size_t i = 0; i < vs->ntypes; i++)
        if (vs->types[i] == t)
            return i;
    BUG("viewgen: a member's type that is no type of the schema");
}

static void write_member(FILE *out, const struct view_schema *vs, const struct view_member *m)
{
    fprintf(out,
            "    {.name = \"%s\", .v = {.kind = %s, .nullable = %s, .item = %s, .type = ", m->name,
            kind_name(m->v.kind), m->v.nullable ? "true" : "false", kind_name(m->v.item));
    if (m->v.type)
        fprintf(out, "&types[%zu]}", type_index(vs, m->v.type));
    else
        fputs("NULL}", out);
    fprintf(out, ", .origin = %s, .optional = %s},\n",
            m->origin == VIEW_MODEL ? "VIEW_MODEL" : "VIEW_DERIVED",
            m->optional ? "true" : "false");
}

/* Every name plain (plain_name), else -1 after saying which. */
static int check_names(const struct view_schema *vs)
{
    for (size_t i = 0; i < vs->ntypes; i++) {
        const struct view_type *t = vs->types[i];
        bool ok = plain_name(t->name);
        for (size_t k = 0; ok && k < t->n; k++)
            ok = plain_name(t->members[k].name);
        if (!ok) {
            fprintf(stderr,
                    "viewgen: type '%s' has a name that is not letters, digits, '_' "
                    "and '.'\n",
                    t->name);
            return -1;
        }
    }
    return 0;
}

/* The whole of 'path' into 'text'. 0, or -1 after saying why. */
static int read_file(const char *path, struct buf *text)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        fprintf(stderr, "viewgen: cannot read '%s': %s\n", path, strerror(errno));
        return -1;
    }
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
        buf_addn(text, chunk, n);
    int err = ferror(in);
    fclose(in);
    if (err)
        fprintf(stderr, "viewgen: cannot read '%s'\n", path);
    return err ? -1 : 0;
}

static void write_tables(FILE *out, const struct view_schema *vs, const char *schema_path)
{
    fprintf(out,
            "/* The typed view's types (compiler/view.h), written by tools/viewgen from %s\n"
            "   and compiler/view_build.c's derived names. Do not edit. */\n"
            "#include \"view.h\"\n\n"
            "#include <stdbool.h>\n#include <stddef.h>\n\n"
            "static const struct view_type types[%zu];\n",
            schema_path, vs->ntypes);
    for (size_t i = 0; i < vs->ntypes; i++) {
        const struct view_type *t = vs->types[i];
        if (t->n == 0)
            continue;
        fprintf(out, "\n/* %s */\nstatic const struct view_member members_%zu[] = {\n", t->name, i);
        for (size_t k = 0; k < t->n; k++)
            write_member(out, vs, &t->members[k]);
        fputs("};\n", out);
    }
    fprintf(out, "\nstatic const struct view_type types[%zu] = {\n", vs->ntypes);
    for (size_t i = 0; i < vs->ntypes; i++) {
        const struct view_type *t = vs->types[i];
        fprintf(out, "    {.name = \"%s\", .members = ", t->name);
        if (t->n)
            fprintf(out, "members_%zu", i);
        else
            fputs("NULL", out);
        fprintf(out, ", .n = %zu, .reached = %s, .annotated = %s},\n", t->n,
                t->reached ? "true" : "false", t->annotated ? "true" : "false");
    }
    fputs("};\n\nconst struct view_type *const view_tables[] = {\n", out);
    for (size_t i = 0; i < vs->ntypes; i++)
        fprintf(out, "    &types[%zu],\n", i);
    fprintf(out, "};\n\nconst size_t view_tables_count = %zu;\n", vs->ntypes);
}

/* 0, or -1 after saying why. */
static int write_file(const char *path, const struct view_schema *vs, const char *schema_path)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "viewgen: cannot write '%s': %s\n", path, strerror(errno));
        return -1;
    }
    write_tables(out, vs, schema_path);
    if (ferror(out) | fclose(out)) {
        fprintf(stderr, "viewgen: cannot write '%s'\n", path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: viewgen OUT.c SCHEMA.json\n");
        return 2;
    }
    struct buf text = BUF_INIT;
    if (read_file(argv[2], &text) < 0) {
        buf_release(&text);
        return 1;
    }
    struct view_schema vs;
    struct buf err = BUF_INIT;
    int rc = view_build_init(&vs, text.s, text.len, &err);
    buf_release(&text);
    if (rc < 0) {
        fprintf(stderr, "viewgen: %s: %s\n", argv[2], err.s);
        buf_release(&err);
        return 1;
    }
    buf_release(&err);
    rc = check_names(&vs) == 0 ? write_file(argv[1], &vs, argv[2]) : -1;
    view_build_release(&vs);
    if (rc < 0)
        remove(argv[1]);
    return rc < 0 ? 1 : 0;
}
