/*
 * model_tree - the model seen as SVD's tree, as -t svd writes it, for derive.h's lookups: the
 * spec is the device; each instance is a peripheral (a block without instances is one, by its
 * name), holding its block's top-level clusters and registers; a cluster holds those declared
 * in it; a register its fields (not the gaps the check adds); a field its own enumeration sets.
 * The regspec check of derived-from= (xmlderive.c) and the link of a derived set to its base
 * (model_link_enum_bases, for both readers) look names up on it, so a name means the same to
 * both and to a reader of -t svd's output.
 */
#ifndef REGC_MODEL_TREE_H
#define REGC_MODEL_TREE_H

#include "buf.h"
#include "derive.h"
#include "model.h"

/* A node of the tree: a peripheral, cluster, register or field 'obj' of block 'b'. */
static inline struct derive_ref model_tree_ref(enum derive_kind kind, const void *obj,
                                               const struct model_block *b)
{
    return (struct derive_ref){kind, obj, b};
}

/* The node of enumeration set 's' of field 'f' (its ctx: the field). */
static inline struct derive_ref model_tree_set_ref(const struct model_field *f,
                                                   const struct model_enum_set *s)
{
    return (struct derive_ref){DERIVE_ENUMS, s, f};
}

/* Is 'n' a peripheral that is a block (by its name) rather than an instance? */
static inline bool model_tree_is_block(struct derive_ref n)
{
    return n.kind == DERIVE_PERIPH && n.obj == n.ctx;
}

/* The tree of 's'; 'names' (may be NULL) indexes the kids of the scopes a lookup searched. */
struct derive_tree model_tree(const struct model_spec *s, struct derive_index *names);

/* What 'n' derives from as written (derived-from=, derivedFrom), and where that text is in
 * '*pos'; NULL when it derives from nothing (a block never does). Borrowed from the model. */
const char *model_tree_derived_from(struct derive_ref n, struct srcpos *pos);

/* The base n's derived-from names on 't' (derive_find_base); DERIVE_NONE when it names none, or
 * only a block without instances (a peripheral by its name: an instance derives from instances). */
struct derive_ref model_tree_base(const struct derive_tree *t, struct derive_ref n);

/* Calls 'fn' with every node of 's' that derives from another, in the spec's order: each block's
 * instances, clusters, then registers, each register followed by its fields and their sets. */
void model_tree_each_derived(const struct model_spec *s,
                             void (*fn)(void *ctx, struct derive_ref n), void *ctx);

/* Where node 'n' is written. */
struct srcpos model_tree_pos(struct derive_ref n);

/* "block", "instance", "cluster", "register", "field" or "enum-set": n's element in a regspec. */
const char *model_tree_kind_word(struct derive_ref n);

/* "register 'CH_CFG'", "enum-set 'ModeE' of field 'MODE'": node 'n' as diagnostics name it, added
 * to 'out'. */
void model_tree_describe(struct derive_ref n, struct buf *out);

/*
 * Gives every enumeration set of 's' that derives from another (derived_from) its 'base' and
 * 'base_field': the set its name leads to on the tree, or NULL (a regspec's check reports it;
 * the SVD reader has reported a base it did not find); and marks each base (is_base).
 */
void model_link_enum_bases(struct model_spec *s);

#endif
