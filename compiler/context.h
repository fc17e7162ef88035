/*
 * context - the data tree the templates render, built from a checked model.
 *
 * The tree is plain JSON (jansson): every value a template prints is computed
 * here (upper-case names, masks as hex strings, first/last flags, C rule
 * expressions), since mustache has no logic. The JSON export (-t json) is
 * this tree itself; docs/json.md documents every key (the stable ones, and
 * the template keys: those starting with "c_", and the list flags
 * "first"/"last").
 */
#ifndef REGC_CONTEXT_H
#define REGC_CONTEXT_H

#include "buf.h"
#include "model.h"

#include <jansson.h>

struct context_options {
    const char *prefix;  /* C prefix; NULL: the spec's own */
    void (*annotate)(json_t *tree); /* lazy trees: applied to each built block (tables_annotate) */
    bool no_doc_keys;    /* lazy trees: leave out the doc_* and svg keys (context_doc.h) */
};

/*
 * Returns a new tree the caller releases with json_decref(); never NULL.
 * 's' must have passed check_spec() (references resolved, gaps filled); the
 * tree copies every string, so it outlives the model's arena. Deterministic:
 * no dates, no absolute paths.
 */
json_t *context_build(const struct model_spec *s, const struct context_options *opt);

/*
 * The same tree for rendering with less memory: "blocks" holds one empty
 * placeholder object per block, and context_expand() (a mus_item_fn, pass
 * the returned handle as item_ctx) builds the full block, with its
 * "first"/"last" flags, doc keys (context_doc.h) and opt->annotate applied,
 * when a section reaches its placeholder; any other item is left alone
 * (NULL). A rendered block is freed by the engine before the next is built,
 * so peak memory holds one block's tree. '*tree' gets the tree (release with json_decref()); the
 * handle borrows 's' and 'opt' and is released with context_lazy_free()
 * after the render.
 */
struct context_lazy;
struct context_lazy *context_build_lazy(const struct model_spec *s,
                                        const struct context_options *opt, json_t **tree);
/*
 * A block it returns lives in memory reused once every block handed out
 * before is released again (the renderer drops each after rendering it), and
 * until context_lazy_free(); only one lazy tree may exist at a time.
 */
json_t *context_expand(void *lazy, json_t *item);
void context_lazy_free(struct context_lazy *lz);

/*
 * Appends 'tree' to 'out' as JSON text: keys in the order they were built,
 * 2-space indent, a final newline. Returns 0, or -1 when jansson fails
 * (nothing appended then).
 */
int context_to_json(const json_t *tree, struct buf *out);

#endif
