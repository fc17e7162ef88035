/*
 * view_build - the typed view's types (view.h) built from the JSON Schema's
 * text and the derived names (view_build.c's 'derived' table).
 *
 * regc does not run this: tools/viewgen runs it at build time and writes
 * what it builds as C tables (build/gen/view_tables.c), which
 * view_schema_init() hands out, so no run parses the schema (about 10M
 * instructions, the most of a small file's run). The unit tests run it on
 * docs/regc-model.schema.json and compare the result with those tables
 * (tests/unit/test_view_tables.c). Not linked into regc (Makefile).
 */
#ifndef REGC_VIEW_BUILD_H
#define REGC_VIEW_BUILD_H

#include "buf.h"
#include "view.h"

#include <stddef.h>

/*
 * Fills 'vs' from the JSON Schema 'json' ('len' bytes) and the derived
 * table: the types in the order they are first met (the root first, then
 * the schema's objects, then those only derived names reach), each with
 * the schema's names in its order, then the derived ones. Returns 0, or -1
 * with the JSON parser's message in 'err' when the text is no JSON ('vs'
 * then holds nothing to release). A schema of a shape this code does not
 * read is a BUG. Release with view_build_release(), never
 * view_schema_release().
 */
int view_build_init(struct view_schema *vs, const char *json, size_t len, struct buf *err);
void view_build_release(struct view_schema *vs);

#endif
