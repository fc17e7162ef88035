/*
 * xmlschema - the built-in schema (regspec/regspec.rng) read into a table of
 * what each element allows, which the loader validates every file against
 * (xmlload.c): attributes and their values, children and how often, text.
 */
#ifndef REGC_XMLSCHEMA_H
#define REGC_XMLSCHEMA_H

#include "arena.h"
#include "diag.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    SCHEMA_MAX_ATTRS = 64,    /* an element's attributes: one bit each while it is checked */
    SCHEMA_MAX_VALUES = 8,    /* the values an attribute's list may give */
    SCHEMA_MAX_GROUPS = 64,   /* <optional> attribute groups of one element */
    SCHEMA_MAX_CHILDREN = 24, /* the elements one element may contain */
    SCHEMA_MAX_ONCE = 4,      /* of them, those it may contain once only */
};

/* One attribute of an element. */
struct schema_attr {
    const char *name;                       /* owned by the arena */
    bool required;
    unsigned group;                         /* the innermost <optional> holding it (0: none) */
    const char *values[SCHEMA_MAX_VALUES + 1]; /* the values the schema lists; NULL-terminated */
};

/* One child an element may contain. */
struct schema_child {
    const char *name;
    size_t elem; /* its entry: xmlload_schema.elems[elem] */
    int once;    /* at most once: its number among the element's once-children; -1: any number */
};

/*
 * An element: its attributes, children and text. An <optional> holding
 * several attributes makes them a group: given one of them (or of a group
 * nested inside), all of them are required. group_parent[g] is the group
 * holding group g (0: none).
 */
struct schema_elem {
    const char *name;
    struct schema_attr attrs[SCHEMA_MAX_ATTRS];
    size_t nattrs;
    unsigned group_parent[SCHEMA_MAX_GROUPS];
    unsigned ngroups; /* group ids are 1..ngroups */
    struct schema_child children[SCHEMA_MAX_CHILDREN];
    size_t nchildren;
    unsigned nonce; /* children that may appear once */
    bool text;      /* it may contain text */
    /* The same, a bit per attribute (index in attrs), for the checks of every element: */
    uint64_t required; /* attributes it requires */
    uint64_t listed;   /* attributes whose values the schema lists */
    uint64_t grouped;  /* attributes in a group */
    uint64_t needs[SCHEMA_MAX_ATTRS]; /* given attribute i, those its group and the groups
                                         holding it make required */
};

/* The table (xmlload.h). */
struct xmlload_schema {
    struct schema_elem *elems; /* xmalloc'd */
    size_t nelems;
    struct arena a; /* the names and values in elems */
};

/*
 * The built-in schema read into its table. xmlload_spec() makes one per
 * call; a program that loads many specs (the fuzz targets, regc) makes one
 * with xmlload_schema_new() and loads each spec with xmlload_spec_with(),
 * which only reads it. NULL, with the reason reported into 'dg', when the schema
 * does not parse or uses a pattern the table cannot hold (see xmlschema.c):
 * a change to the schema that the loader would not check is refused, never
 * checked in part.
 */
struct xmlload_schema *xmlload_schema_new(struct diag *dg);
/* The same from the schema text 'rng' ('len' bytes) instead of the built-in one (tests). */
struct xmlload_schema *xmlload_schema_from(const char *rng, size_t len, struct diag *dg);
void xmlload_schema_free(struct xmlload_schema *sc);

/* The entry for element 'name'; NULL: the schema has none. */
const struct schema_elem *schema_elem_find(const struct xmlload_schema *sc, const char *name);
/* Element e's attribute 'name'; NULL: it has none. */
const struct schema_attr *schema_attr_find(const struct schema_elem *e, const char *name);
/* Element e's child 'name'; NULL: e may not contain it. */
const struct schema_child *schema_child_find(const struct schema_elem *e, const char *name);
/* 'v' is 'want' as RELAX NG compares a <value>: a token, blanks at the ends and runs of them
 * inside counting as one space. */
bool schema_value_is(const char *v, const char *want);

#endif
