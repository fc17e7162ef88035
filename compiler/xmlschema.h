/*
 * xmlschema - the built-in schema compiled, and the table of what each of
 * its elements allows, read out of it for readable messages (xmlschema.c).
 */
#ifndef REGC_XMLSCHEMA_H
#define REGC_XMLSCHEMA_H

#include "arena.h"
#include "diag.h"

#include <stdbool.h>
#include <stddef.h>

/* What the schema says of one element's attributes (for readable messages). */
struct schema_attr {
    const char *name;      /* owned by the arena */
    bool required;
    unsigned group;        /* the innermost <optional> holding it (0: none): see below */
    const char *values[8]; /* allowed values when the schema lists them; NULL-terminated */
};
/*
 * An element's attributes. An <optional> holding several attributes makes
 * them a group: given one of them (or of a group nested inside), all of
 * them are required. group_parent[g] is the group holding group g (0: none).
 * Its children and text, by name only (no order, no count): enough to judge
 * a file on once libxml2's validator has lost its way (see check_placement()).
 */
struct schema_elem {
    const char *name;
    struct schema_attr attrs[32];
    size_t nattrs;
    unsigned group_parent[16];
    unsigned ngroups; /* group ids are 1..ngroups */
    bool truncated;   /* more attributes than attrs[] holds: do not call any unknown */
    const char *children[16]; /* the elements it may contain; owned by the arena */
    size_t nchildren;
    bool children_truncated; /* more than children[] holds: do not call any child misplaced */
    bool text;               /* it may contain text */
};

/* The compiled schema and its attribute table (xmlload.h). */
struct xmlload_schema {
    struct _xmlRelaxNG *rng; /* libxml2's xmlRelaxNGPtr */
    struct schema_elem *elems; /* xmalloc'd */
    size_t nelems;
    struct arena a; /* the names and values in elems */
};

/*
 * The built-in schema compiled, with the attribute table its messages use.
 * xmlload_spec() makes one per call; a program that loads many specs (the
 * fuzz targets) makes one with xmlload_schema_new() and loads each spec
 * with xmlload_spec_with(), which only reads it. NULL, with the reason
 * reported into 'dg', when the schema does not compile.
 */
struct xmlload_schema *xmlload_schema_new(struct diag *dg);
void xmlload_schema_free(struct xmlload_schema *sc);

/* The table's entry for element 'name'; NULL: the schema has none. */
const struct schema_elem *schema_elem_find(const struct xmlload_schema *sc, const char *name);
/* Element e's attribute 'name'; NULL: it has none. */
const struct schema_attr *schema_attr_find(const struct schema_elem *e, const char *name);
/* Element e may hold a 'name' child (or its list of children was too long to say). */
bool schema_elem_has_child(const struct schema_elem *e, const char *name);

#endif
