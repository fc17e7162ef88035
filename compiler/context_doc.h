/*
 * context_doc - the template keys of the documentation outputs (md, html).
 *
 * Adds to a tree built by context_build() what the Markdown and HTML
 * templates print but cannot compute: anchors, bit ranges, copy labels,
 * counter lists and, per register, the geometry of the SVG bit-field
 * diagram ("svg"). The keys start with "doc_" (and "svg"); docs/json.md and
 * docs/outputs.md describe them. It reads only stable keys of the tree.
 */
#ifndef REGC_CONTEXT_DOC_H
#define REGC_CONTEXT_DOC_H

#include "arena.h"
#include "dt.h"

/*
 * Adds the doc keys to every block, register, copy, field and event of
 * 'root' (borrowed; modified in place). Objects that lack the stable keys
 * it reads are left without doc keys; never fails.
 */
void context_doc_keys(struct arena *a, struct dt *root);

#endif
