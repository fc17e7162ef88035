/*
 * context - the data tree the templates render, built from a checked model.
 *
 * The tree is plain JSON (jansson): every value a template prints is computed
 * here (upper-case names, masks as hex strings, first/last flags, C rule
 * expressions), since mustache has no logic. The JSON export (-t json) is
 * this tree itself; docs/json.md documents every key.
 */
#ifndef REGC_CONTEXT_H
#define REGC_CONTEXT_H

#include "model.h"

#include <jansson.h>

struct context_options {
    const char *prefix;  /* C prefix; NULL: the spec's own */
};

/* Returns a new tree the caller releases with json_decref(); never NULL. */
json_t *context_build(const struct model_spec *s, const struct context_options *opt);

#endif
