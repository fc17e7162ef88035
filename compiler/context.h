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
};

/*
 * Returns a new tree the caller releases with json_decref(); never NULL.
 * 's' must have passed check_spec() (references resolved, gaps filled); the
 * tree copies every string, so it outlives the model's arena. Deterministic:
 * no dates, no absolute paths.
 */
json_t *context_build(const struct model_spec *s, const struct context_options *opt);

/*
 * Appends 'tree' to 'out' as JSON text: keys in the order they were built,
 * 2-space indent, a final newline. Returns 0, or -1 when jansson fails
 * (nothing appended then).
 */
int context_to_json(const json_t *tree, struct buf *out);

#endif
