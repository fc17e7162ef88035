/*
 * model_json - the JSON export (-t json): the checked model itself, for
 * other tools (docs/json.md, schema docs/regc-model.schema.json).
 *
 * Written directly as the model is walked: no tree is built first. Spec
 * facts only (no C names, no template keys); deterministic: keys in a fixed
 * order, lists in spec order, 2-space indent, a final newline. Values that
 * may use all 64 bits (addresses, resets, masks, codes, encodings, field
 * values, PCI IDs) are "0x" hex strings, always; bit positions, widths,
 * sizes, counts and indices are JSON numbers.
 */
#ifndef REGC_MODEL_JSON_H
#define REGC_MODEL_JSON_H

#include "buf.h"
#include "model.h"
#include "mustache.h"

/* The version of the export's shape ("regc_model" at the top); it grows when keys change. */
#define MODEL_JSON_VERSION 1

/*
 * Writes the export of 's' (it must have passed check_spec()). Without a
 * sink (NULL) it is appended to 'out'. With one, 'out' (empty) is where the
 * text is made: each time it holds a block of about 64 KiB it is handed to
 * sink(sink_ctx, ...) and emptied, so the export is never held whole; the
 * text is then every block handed over, in order, and what is left in 'out'.
 */
void model_json_write(const struct model_spec *s, mus_sink_fn *sink, void *sink_ctx,
                      struct buf *out);

#endif
