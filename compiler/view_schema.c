/*
 * view_schema.c - the typed view regc uses: the tables tools/viewgen built from the JSON Schema
 * and the derived names (build/gen/view_tables.c; view_build.h), handed out as they are. Apart
 * from view.c so that viewgen, which makes the tables, can link view.c's lookups without them.
 */
#include "view.h"

#include <string.h>

void view_schema_init(struct view_schema *vs)
{
    memset(vs, 0, sizeof(*vs));
    arena_init(&vs->a);
    vs->types = view_tables;
    vs->ntypes = view_tables_count;
    vs->root = view_tables[0];
}

void view_schema_release(struct view_schema *vs)
{
    arena_release(&vs->a);
    memset(vs, 0, sizeof(*vs));
}
