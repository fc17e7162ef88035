/*
 * context_regspec - the "regspec" key of the template tree: the model as a
 * regspec document, for templates/regspec.mustache (docs/svd.md, "-t
 * regspec"). The tree is a generic element tree (name, attributes in a
 * stable order, text or children), so the template only lays XML out; which
 * element and attribute says what is decided here, once, from
 * docs/regspec.md's forms.
 */
#ifndef REGC_CONTEXT_REGSPEC_H
#define REGC_CONTEXT_REGSPEC_H

#include "arena.h"
#include "diag.h"
#include "dt.h"
#include "model.h"

/*
 * -t regspec writes every spec; it leaves out a derived-from= that names
 * nothing in the regspec it writes (a name a copy took to a place where it
 * leads nowhere): a warning at each, regspec-out-dropped, which --strict
 * makes an error (and returns -1). 0 otherwise.
 */
int context_regspec_check(struct diag *dg, const struct model_spec *s);

/* The "regspec" object for the checked spec 's', owned by 'a'. */
struct dt *context_regspec(struct arena *a, const struct model_spec *s);

#endif
