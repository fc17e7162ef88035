/*
 * cluster_array - what a block holds at each place (its top level, each cluster), and the
 * "NAME[%s]" cluster arrays the SVD reader expanded into one cluster per index (its elements
 * hold more than plain registers), recognised so that a writer can give them as one array again
 * (-t cmsis, -t svd).
 */
#ifndef REGC_CLUSTER_ARRAY_H
#define REGC_CLUSTER_ARRAY_H

#include "arena.h"
#include "buf.h"
#include "map.h"
#include "model.h"

/* What is written at one place of a block: its top level, or in a cluster. */
struct block_kids {
    size_t *regs, nregs, cap_regs; /* indices in the block's regs */
    size_t *cls, ncls, cap_cls;    /* indices in the block's clusters */
};

/* A block's registers and clusters by where they are written. */
struct block_places {
    const struct model_block *b;
    struct block_kids top, *of; /* its top level, each cluster's ('of' by cluster index) */
    struct regc_map index;      /* cluster (the pointer's bytes) -> its index + 1 */
};

/* Indexes b's registers and clusters: one pass, not one per cluster. */
void block_places_init(struct block_places *p, const struct model_block *b);
void block_places_release(struct block_places *p);
/* The kids of '*cl' (the top level when NULL). */
struct block_kids *block_places_kids(struct block_places *p, const struct model_cluster *const *cl);
/* The index of '*cl' in the block's clusters. */
size_t block_places_index(struct block_places *p, const struct model_cluster *const *cl);

/* Length of the "OUTER_INNER_" the model puts before the names of cl's registers. */
size_t cluster_prefix_len(const struct model_cluster *cl);

/* What a writer needs alike in two registers beyond names, offsets, sizes, dims and bits; 'later':
 * r is in an element after the first, which the reader made a copy of the first (svd_model.c). */
typedef void reg_sig_fn(void *ctx, const struct model_reg *r, bool later, struct buf *out);

/*
 * How many of the clusters from kids->cls[i] on are one "NAME[%s]" array the reader expanded
 * per index (with 'lists', also one "NAME%s" list: -t svd writes it back as one): same written
 * name, evenly apart (*stride), holding the same registers and clusters at the same offsets
 * (compared with 'sig' besides). 1 when cls[i] is no such array.
 */
size_t cluster_array_run(struct block_places *p, const struct block_kids *k, size_t i, bool lists,
                         reg_sig_fn *sig, void *ctx, uint64_t *stride);

/* "NAME" of a cluster written "NAME[%s]" or "NAME%s" (one element of an array or list the reader
 * expanded; svdconv's SvdUtils::ParseExpression takes the "[%s]" or "%s" out), else its name. */
const char *cluster_array_name(struct arena *a, const struct model_cluster *cl);

#endif
