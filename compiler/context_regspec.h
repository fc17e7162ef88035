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

/*
 * The "regspec" object for the checked spec 's', owned by 'a'. With 'stubs' (one empty object
 * for each of s's blocks), block i's element is left as stubs[i], to be built by
 * context_regspec_block() when it is reached (context.c's lazy trees: --dump-context and the
 * renderer then hold one block's element at a time); NULL: every element built here.
 */
struct dt *context_regspec(struct arena *a, const struct model_spec *s, struct dt *stubs);

/* What building a block's element alone needs: the spec's names, indexed once. */
struct regspec_names;
struct regspec_names *context_regspec_names(const struct model_spec *s); /* free: below */
void context_regspec_names_free(struct regspec_names *n);

/* The element of block i of the spec of 'n', owned by 'a'. */
struct dt *context_regspec_block(struct arena *a, const struct regspec_names *n, size_t i);

#endif
