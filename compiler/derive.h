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

#include "buf.h"

#include <stdbool.h>
#include <stddef.h>

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

/* Where a walk over a node's kids is: both zero before the first. */
struct derive_cursor {
    size_t i, k;
};

/* A tree, read through its calls; 'data' is given back to each. */
struct derive_tree {
    const void *data;
    struct derive_ref (*parent)(const struct derive_tree *t, struct derive_ref n);
    /* the kid of 'n' at *at, advancing *at past it; kind DERIVE_NONE after the last */
    struct derive_ref (*kid)(const struct derive_tree *t, struct derive_ref n,
                             struct derive_cursor *at);
    bool (*is_named)(const struct derive_tree *t, struct derive_ref n, const char *name,
                     size_t len);
    /* the name a path gives 'n' (one is_named() accepts); borrowed from the tree */
    const char *(*name)(const struct derive_tree *t, struct derive_ref n);
    /* called before a path reads the kids of 'n', so a tree that applies derivation (the SVD
     * reader's) can give 'n' what its own base gives it first, whatever the order; NULL: none */
    void (*enter)(const struct derive_tree *t, struct derive_ref n);
};

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
