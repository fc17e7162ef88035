/*
 * context - the data tree the templates render, built from a checked model.
 *
 * The tree is JSON-shaped (dt.h): every value a template prints is computed
 * here (upper-case names, masks as hex strings, first/last flags, C rule
 * expressions), since mustache has no logic. `regc --dump-context` writes
 * it (context_write_json); docs/json.md documents every key (those naming
 * spec facts, and the template keys: those starting with "c_", "doc_" and
 * "t_", and the list flags "first"/"last"). The JSON export (-t json) is this tree
 * less those template keys (context_export.h): the model's names are spelled once.
 */
#ifndef REGC_CONTEXT_H
#define REGC_CONTEXT_H

#include "arena.h"
#include "buf.h"
#include "dt.h"
#include "model.h"
#include "mustache.h"

/* The version of the model's shape ("regc_model" at the top); it grows when its names change. */
#define CONTEXT_MODEL_VERSION 1

struct context_options {
    const char *prefix;  /* C prefix; NULL: the spec's own */
    void (*annotate)(struct arena *a, struct dt *tree); /* applied to the tree, last (lazy
                                                          * trees: to the root and each
                                                          * built block); tables_annotate */
    bool no_doc_keys;    /* lazy trees: leave out the doc_* and svg keys (context_doc.h) */
    bool svd_keys;       /* add the root's "svd" object (context_svd.h; -t svd) */
    bool regspec_keys;   /* add the root's "regspec" object (context_regspec.h; -t regspec) */
    bool cmsis;          /* add "c_cmsis", the CMSIS header's object (context_cmsis.h) */
    bool no_unread_keys; /* leave out the keys context_key_unread() names (none read them) */
};

/*
 * True for a key of registers, fields and values that a tree built with
 * no_unread_keys lacks ("masks", "svd", "source", ...): a caller sets that
 * option only when no name the template reads is one of them, and the tree
 * has no other reader (no annotate, no doc keys).
 */
bool context_key_unread(const char *name, size_t len);

/*
 * Returns the tree, owned by 'a'; never NULL. 's' must have passed
 * check_spec() (references resolved, gaps filled); the tree references the
 * model's strings, so 's' must outlive it. Deterministic: no
 * dates, no absolute paths.
 */
struct dt *context_build(struct arena *a, const struct model_spec *s,
                         const struct context_options *opt);

/*
 * The same tree for rendering with less memory: "blocks" holds one empty
 * placeholder object per block, and context_expand() (a mus_item_fn, pass
 * the returned handle as item_ctx) builds the full block, with its
 * "first"/"last" flags, doc keys (context_doc.h) and opt->annotate applied,
 * when a section reaches its placeholder; any other item is left alone
 * (NULL). context_item_done() (the mus_item_done_fn) marks a block rendered;
 * its memory is reused for the next block once no block handed out is still
 * being rendered, so peak memory holds one block's tree. With
 * opt->no_doc_keys (the doc keys read a block's registers), a block's
 * "registers" are placeholders too, built the same way one at a time: peak
 * memory then holds one register's tree.
 * '*tree' gets the tree, owned by the handle; the handle borrows 's' and
 * 'opt' and is released with context_lazy_free() after the render.
 */
struct context_lazy;
struct context_lazy *context_build_lazy(const struct model_spec *s,
                                        const struct context_options *opt, const struct dt **tree);
const struct dt *context_expand(void *lazy, const struct dt *item);
void context_item_done(void *lazy, const struct dt *own);
void context_lazy_free(struct context_lazy *lz);

/*
 * Appends 'tree' to 'out' as JSON text: keys in the order they were built,
 * 2-space indent, a final newline. Returns 0, or -1 when jansson fails
 * (nothing appended then).
 */
int context_to_json(const struct dt *tree, struct buf *out);

/*
 * `regc --dump-context`: the text context_to_json() gives for context_build(s, opt)'s tree, built
 * and written block by block: memory holds one block's tree, not the whole
 * spec's. opt->no_doc_keys is ignored (the dump has the doc keys; regc
 * passes tables_annotate, so it has the t_* keys too: the tree every
 * template gets). Without a sink (NULL) the text is appended to 'out'; with
 * one, 'out' (empty) is where it is made, handed to sink(sink_ctx, ...) and
 * emptied each time it holds MUS_SINK_CHUNK bytes or more after a list
 * item, so the text is never held whole: it is then every piece handed
 * over, in order, and what is left in 'out'. 0, or -1 when jansson fails
 * (then what was handed over is incomplete: the caller discards it).
 */
int context_write_json(const struct model_spec *s, const struct context_options *opt,
                       mus_sink_fn *sink, void *sink_ctx, struct buf *out);

#endif
