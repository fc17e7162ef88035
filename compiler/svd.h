/*
 * svd - read a CMSIS-SVD device file into the model (docs/svd.md).
 *
 * An SVD file is told by its content (the root element is <device>), not
 * by its name. The reader is lenient about element order and strict about
 * meaning: svd_parse.c reads the document, svd_derive.c resolves
 * derivedFrom, svd_model.c builds the model with SVD's checks. The result
 * goes through check_spec() like a regspec.
 */
#ifndef REGC_SVD_H
#define REGC_SVD_H

#include "arena.h"
#include "diag.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>

/* True when text[0, len) is XML whose first element is <device>. */
bool svd_is_device(const char *text, size_t len);

/* True when the file at 'path' (a regular file) starts as an SVD document; false otherwise or
 * when it cannot be read (the regspec loader then reports why). */
bool svd_file_is_svd(const char *path);

/*
 * Loads the SVD file at 'path' (borrowed; must outlive 'dg'). Returns the
 * model, owned by 'a', or NULL when errors were reported into 'dg' (a read
 * failure is DIAG_IO).
 */
struct model_spec *svd_load(struct arena *a, struct diag *dg, const char *path);

/* --strict: every SVD warning (a defect whose intent regc guesses, or what -t svd or -t regspec
 * leaves out: svd-out-dropped, regspec-out-dropped) becomes an error. */
void svd_strict(struct diag *dg);

#endif
