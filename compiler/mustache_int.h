/*
 * mustache_int.h - what the parser (mustache_parse.c), the checker (mustache_check.c) and
 * the renderer (mustache_render.c) share: the compiled template, the partials compiled once
 * for both, the override lookup (see mustache.h for the contract).
 *
 * A compiled template is a flat array of nodes in document order; each node
 * records the index just past its last child (section, inverted section,
 * parent, block; its own plus one for a node without children), so rendering
 * is a loop over index ranges that goes on at 'end'.
 * The parser makes one pass over the text: it tracks whether the current
 * line holds anything but blanks and which node holds the line's first
 * text, so a standalone tag trims its line without rescanning it.
 */
#ifndef REGC_MUSTACHE_INT_H
#define REGC_MUSTACHE_INT_H

#include "mustache.h"

#include "arena.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum node_kind { N_TEXT, N_VAR, N_SECTION, N_INVERTED, N_PARTIAL, N_PARENT, N_BLOCK };

/* A block given inside a parent tag, for lookup by name. */
struct block_ref {
    const char *name;
    uint32_t node; /* index in the template's nodes */
};

/* One dotted part of a name. */
struct part {
    const char *s; /* NUL-terminated */
    uint32_t len;
    uint32_t memo; /* this part's slot in a render's memo of the template (struct memo) */
};

struct node {
    enum node_kind kind;
    bool raw;          /* VAR: {{{x}}} or {{&x}} */
    bool dynamic;      /* PARTIAL, PARENT: {{>*x}} names a value holding the name */
    bool standalone;   /* tag alone on its line (PARENT: open and close together) */
    bool leading;      /* only blanks before the tag on its line */
    bool indent_first; /* BLOCK: the indentation applies to the first line too */
    uint32_t line, col;
    uint32_t end;     /* index just past the last child (a node without any: its own plus 1) */
    uint32_t run_end; /* TEXT, VAR: index just past the run of TEXT and VAR nodes it starts */
    const char *text; /* TEXT: into the template's copy of the source */
    size_t len;
    const char *name;  /* the name as written (without '*'); owned by the template's arena */
    const struct part *parts; /* name split at dots; nparts 0 is "." */
    uint32_t nparts;
    const char
        *indent; /* PARTIAL, PARENT: blanks before a standalone tag; BLOCK: see block_close */
    uint32_t indent_len;
    uint32_t strip;                 /* BLOCK used as an override: blanks its own lines start with */
    const struct block_ref *blocks; /* PARENT: its blocks sorted by name; owned by the arena */
    uint32_t nblocks;
};

struct mus_template {
    const char *name;
    uint32_t file;
    char *src;
    size_t len;
    struct node *nodes;
    size_t n, cap;
    uint32_t nparts; /* parts of all names: the size of a memo */
    struct arena arena;
};

/* A parent tag whose blocks override the blocks of the templates it calls. */
struct mus_frame {
    const struct mus_template *t;
    const struct node *parent;
};

/*
 * The outermost override of block 'name' in 'frames' (outermost first) that is none of the
 * 'nactive' overrides being rendered or checked, 'active' (never reused inside themselves), and
 * its template in *ot; NULL if none. '*work' (NULL: none) grows by the comparisons made.
 */
const struct node *mus_find_override(const struct mus_frame *frames, size_t nframes,
                                     const struct node *const *active, size_t nactive,
                                     const char *name, const struct mus_template **ot,
                                     uint64_t *work);

/* A partial as its first use found it (mus_partial_get): t NULL when missing or broken. */
struct mus_partial {
    char *name;             /* owned */
    struct mus_template *t; /* owned */
    bool missing;           /* the loader has no such partial */
    bool failed;            /* reading or compiling it reported errors */
};

/* Partial 'name' from 'ps', loaded through opt->load and compiled on its first use. */
const struct mus_partial *mus_partial_get(struct mus_partials *ps, struct diag *dg,
                                          const struct mus_options *opt, const char *name);

/* Room for one more item in 'arr' (n items, room for cap). */
#define GROW(arr, n, cap) ((arr) = xgrow((arr), &(cap), (n) + 1, sizeof(*(arr))))

static inline struct srcpos node_pos(const struct mus_template *t, const struct node *n)
{
    return (struct srcpos){t->file, n->line, n->col};
}

static inline bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

#endif
