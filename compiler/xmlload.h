/*
 * xmlload - read a regspec XML file into the model.
 *
 * The only module that includes <libxml/...>. It parses with network access
 * off, no DTD loading, no external entities and no entity expansion, bounded
 * depth; validates the document (and each included file) against
 * regspec/regspec.rng, which is compiled into regc; and turns every element
 * into model objects with their source positions. Attribute values it parses
 * itself (numbers, bit ranges, array suffixes, rule expressions) get errors
 * with a line and column.
 */
#ifndef REGC_XMLLOAD_H
#define REGC_XMLLOAD_H

#include "arena.h"
#include "diag.h"
#include "model.h"
#include "xmlschema.h"

/*
 * Loads the spec at 'path' and the files it includes. Returns the model,
 * owned by 'a', or NULL when errors were reported into 'dg' (a read failure
 * is reported as DIAG_IO, so the caller can exit 3). 'path' is borrowed and
 * must outlive 'dg' (it is the name diagnostics print); the names of
 * included files ("dir/of/path/HREF") are owned by 'a', so release 'dg'
 * before 'a'.
 *
 * All errors of the values are reported in one run; after a
 * well-formedness, safety or schema error in a file, nothing of that file
 * enters the model (and NULL is returned). Positions: each object's line is
 * the line of its start tag's '<'; errors inside attribute values the
 * loader parses (numbers, bits, array suffixes, counters, rule expr) carry
 * the column of the offending byte. model_rule.expr_pos is the column of
 * the expression's first character in the file; expression node offsets
 * are offsets in expr_text (the decoded value: "&lt;" in the file is one
 * '<' there), so a column is expr_pos.col + offset plus 3 for each "&lt;"
 * or "&gt;" and 4 for each "&amp;" written before it.
 * spec->inputs lists the spec's path, then every included file as opened.
 *
 * A file is read as a stream (libxml2's SAX2 parser, validated as it comes):
 * memory follows the model, not the size of the text.
 */
struct model_spec *xmlload_spec(struct arena *a, struct diag *dg, const char *path);

/*
 * The same with schema 'sc' (xmlschema.h: xmlload_schema_new()), which it only
 * reads, and include directories: an <include href> is found in the including
 * file's folder, else in each of 'incdirs' in order, and never outside the
 * spec's folder and those directories (incpath.h); one that leads out is
 * refused with DIAG_INCLUDE_OUTSIDE. 'incdirs' is borrowed.
 */
struct model_spec *xmlload_spec_with(struct arena *a, struct diag *dg, const char *path,
                                     const char *const *incdirs, size_t nincdirs,
                                     const struct xmlload_schema *sc);

#endif
