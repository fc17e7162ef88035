/*
 * derive - where a derivedFrom (SVD) or derived-from= (regspec) name leads, by
 * SVD's scoping rules, on any tree of peripherals, clusters, registers, fields
 * and enumeration sets. The SVD reader (svd_derive.c, on its own tree) and the
 * regspec check (xmlderive.c, on the model) each give their tree through
 * struct derive_tree, so a name means the same in both:
 *   - a plain name: a sibling of the derived object of a kind it may derive
 *     from (an enumeration set: any set of its register, then of its
 *     peripheral);
 *   - else a path, PERIPH.CLUSTER....REG.FIELD, looked up from each enclosing
 *     cluster or peripheral outwards, then from the device: its first part a
 *     peripheral (from the device) or a register or cluster, each later part
 *     a kid of the one before (a field of a register), the last part of the
 *     derived object's kind (a register and a cluster may derive from
 *     either).
 * No I/O, no diagnostics: the callers report.
 */
#ifndef REGC_DERIVE_H
#define REGC_DERIVE_H

#include "arena.h"
#include "buf.h"
#include "map.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

enum derive_kind {
    DERIVE_NONE, /* no node: a lookup that found nothing */
    DERIVE_DEVICE,
    DERIVE_PERIPH,
    DERIVE_CLUSTER,
    DERIVE_REG,
    DERIVE_FIELD,
    DERIVE_ENUMS,
    DERIVE_OTHER /* a node no name leads to (a value, an interrupt...) */
};

/* A node of the caller's tree: its kind, its object, and what else the tree needs to know it. */
struct derive_ref {
    enum derive_kind kind;
    const void *obj; /* borrowed from the tree */
    const void *ctx; /* the tree's own (the model: the block of a cluster or register) */
};

/* Where a walk over a node's kids is: all zero before the first. */
struct derive_cursor {
    size_t i, k;
    size_t level; /* a tree's own: the model's, how far down a derived instance's chain */
};

/* A name a node answers to: 'len' bytes at 's' (a tree may give a name without its suffix). */
struct derive_name {
    const char *s;
    size_t len;
};

#define DERIVE_MAX_NAMES 3

/*
 * The kids of each scope a lookup searched, by name: a name is then found in one probe, not by
 * walking the scope (a block of thousands of derived registers was quadratic: bench/derive.sh).
 * Owned by the tree's caller, kept across lookups: derive_index_init(), derive_index_release().
 */
struct derive_index {
    struct regc_map scopes; /* key: a scope's object address; val: its stamp and generation */
    struct regc_map kids;   /* key: scope address, kind, name; val: the first kid so named */
    struct arena a;         /* the keys and values */
    struct buf key;         /* a lookup's key */
};

void derive_index_init(struct derive_index *x);
void derive_index_release(struct derive_index *x);

/* A tree, read through its calls; 'data' is given back to each. */
struct derive_tree {
    const void *data;
    struct derive_ref (*parent)(const struct derive_tree *t, struct derive_ref n);
    /* the kid of 'n' at *at, advancing *at past it; kind DERIVE_NONE after the last */
    struct derive_ref (*kid)(const struct derive_tree *t, struct derive_ref n,
                             struct derive_cursor *at);
    /* the names 'n' answers to, into 'out' (derive_add_name()); how many. '*list': 'n' is a list
     * whose elements answer to their own names too (is_element) */
    size_t (*names)(const struct derive_tree *t, struct derive_ref n,
                    struct derive_name out[DERIVE_MAX_NAMES], bool *list);
    /* does 'name' ('len' bytes) name one element of the list 'n'; NULL: a tree without lists */
    bool (*is_element)(const struct derive_tree *t, struct derive_ref n, const char *name,
                       size_t len);
    /* the name a path gives 'n' (one of its names()); borrowed from the tree */
    const char *(*name)(const struct derive_tree *t, struct derive_ref n);
    /* called before a path reads the kids of 'n', so a tree that applies derivation (the SVD
     * reader's) can give 'n' what its own base gives it first, whatever the order; NULL: none */
    void (*enter)(const struct derive_tree *t, struct derive_ref n);
    /* what changes whenever the kids of 'n' change (the SVD reader: their array, a new one each
     * time derivation gives 'n' its base's), so an index of them is made again; NULL: the kids
     * never change */
    const void *(*kids_stamp)(const struct derive_tree *t, struct derive_ref n);
    struct derive_index *index; /* NULL: each lookup walks the scope */
};

/* 'out' holding 'n' names, adds 's' (NUL-terminated; NULL: no name): the new count. */
static inline size_t derive_add_name(struct derive_name *out, size_t n, const char *s)
{
    if (s && n < DERIVE_MAX_NAMES)
        out[n++] = (struct derive_name){s, strlen(s)};
    return n;
}

static inline bool derive_same(struct derive_ref a, struct derive_ref b)
{
    return a.kind == b.kind && a.obj == b.obj && a.ctx == b.ctx;
}

/* The node 'name' (d's derivedFrom) names for 'd'; kind DERIVE_NONE when it names nothing, or d. */
struct derive_ref derive_find_base(const struct derive_tree *t, struct derive_ref d,
                                   const char *name);

/* The first node under 'root' (depth first) of a kind 'd' may derive from, named as the last
 * part of 'name': what a path that leads nowhere may have meant. DERIVE_NONE when none. */
struct derive_ref derive_find_anywhere(const struct derive_tree *t, struct derive_ref root,
                                       struct derive_ref d, const char *name);

/* The path of 'n' from the device ("PERIPH.CLUSTER.REG"), added to 'out': one that leads to it. */
void derive_path(const struct derive_tree *t, struct derive_ref n, struct buf *out);

/* The longest chain of bases either reader follows: a longer one is an error (svd-derived). */
#define DERIVE_MAX_CHAIN 256

#endif
