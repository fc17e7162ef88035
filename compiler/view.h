/*
 * view - the typed view: every name a template may read, and what it holds.
 *
 * The names are described once. The model's names are those of the JSON
 * Schema of the `-t json` export (docs/regc-model.schema.json), which writes
 * the templates' tree with these names only (context_export.h); the names the
 * outputs need beyond the model (C names and literals, "first"/"last",
 * wrapped comment lines, the doc and svg keys) are listed in one table,
 * view_build.c's 'derived'. Both are read at build time, by tools/viewgen
 * (view_build.h), into the C tables regc hands out: no run parses the
 * schema. A type is an object of the schema ("register", "field", ...; the
 * root is "root"). The descriptor tables' "t_NAME" names follow one rule
 * (tables.h): a name of a type that is not reached through a c_ or t_ name
 * gets t_NAME beside each of its string or nullable names (a C literal),
 * t_index and t_version beside index and version, t_access_text beside
 * access.
 *
 * Templates are compiled against these types (mus_check, mustache.h), and
 * `regc --list-names` prints them (docs/templates.md holds that list).
 */
#ifndef REGC_VIEW_H
#define REGC_VIEW_H

#include "arena.h"
#include "buf.h"

#include <stdbool.h>
#include <stddef.h>

enum view_kind { VIEW_STR, VIEW_INT, VIEW_BOOL, VIEW_OBJ, VIEW_LIST, VIEW_NUM };

struct view_type;

/* What a name holds. */
struct view_value {
    enum view_kind kind;
    bool nullable;                /* may be null or absent */
    enum view_kind item;          /* LIST: its items' kind */
    const struct view_type *type; /* OBJ, LIST of OBJ: the objects' type */
};

/* Where a name comes from. */
enum view_origin {
    VIEW_MODEL,   /* the JSON Schema: -t json writes it too */
    VIEW_DERIVED, /* the derived table: templates only */
};

struct view_member {
    const char *name;
    struct view_value v;
    enum view_origin origin;
    bool optional; /* the schema does not require it: the export leaves it out when null */
};

struct view_type {
    const char *name;
    const struct view_member *members; /* in the schema's order, then the derived ones */
    size_t n;
    bool reached;   /* by names templates get */
    bool annotated; /* reached by a path without c_ or t_ names: has the t_* names */
};

struct view_build; /* view_build.h */

struct view_schema {
    struct arena a;                       /* the caller's too: empty after view_schema_init() */
    const struct view_type *const *types; /* the root first */
    size_t ntypes;
    const struct view_type *root;
    struct view_build *build; /* view_build_init()'s; NULL for view_schema_init() */
};

/*
 * The types as C tables, the root first (build/gen/view_tables.c, which
 * tools/viewgen writes from the schema and the derived table): what
 * view_schema_init() hands out.
 */
extern const struct view_type *const view_tables[];
extern const size_t view_tables_count;

/* Sets 'vs' to the tables (nothing is parsed or built). Release with view_schema_release(). */
void view_schema_init(struct view_schema *vs);
void view_schema_release(struct view_schema *vs);

/* The type named 'name', or NULL. */
const struct view_type *view_type_find(const struct view_schema *vs, const char *name);

/* Member 'name' ('len' bytes) of 't' itself (no t_* name), or NULL. */
const struct view_member *view_member_find(const struct view_type *t, const char *name, size_t len);

/*
 * Name 'name' ('len' bytes) of type 't': VIEW_MODEL or VIEW_DERIVED with
 * '*out' filled, or -1 for none.
 */
int view_lookup(const struct view_type *t, const char *name, size_t len, struct view_value *out);

/* "string", "integer or null", "list of register", ... ('out' gets it). */
void view_value_describe(const struct view_value *v, struct buf *out);

/*
 * Appends every type and its names as a Markdown list: the reference of
 * docs/templates.md (`regc --list-names`).
 */
void view_schema_write(const struct view_schema *vs, struct buf *out);

#endif
