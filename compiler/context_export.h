/*
 * context_export - the JSON export (-t json): the model's names of the
 * templates' tree (context.h), for other tools (docs/json.md, schema
 * docs/regc-model.schema.json).
 *
 * One spelling: the export is the tree every template renders, less the
 * names only templates get (the view's derived ones, view.h), in the
 * schema's order. Deterministic: lists in spec order, 2-space indent, a
 * final newline. Values that may use all 64 bits (addresses, resets, masks,
 * codes, encodings, field values, PCI IDs) are "0x" hex strings, always; bit
 * positions, widths, sizes, counts and indices are JSON numbers.
 */
#ifndef REGC_CONTEXT_EXPORT_H
#define REGC_CONTEXT_EXPORT_H

#include "buf.h"
#include "model.h"
#include "mustache.h"

/*
 * Writes the export of 's' (it must have passed check_spec()), building the
 * tree block by block and register by register (context_build_lazy): memory
 * holds one register's tree and a block's events, not the spec's. Without a
 * sink (NULL) the text is appended to 'out'. With one, 'out' (empty) is where
 * the text is made: each time it holds MUS_SINK_CHUNK bytes or more after an
 * object it is handed to sink(sink_ctx, ...) and emptied, so the export is
 * never held whole; the text is then every piece handed over, in order, and
 * what is left in 'out'.
 */
void context_export(const struct model_spec *s, mus_sink_fn *sink, void *sink_ctx,
                    struct buf *out);

#endif
