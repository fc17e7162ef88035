/*
 * check - every rule of a spec, all errors of a run reported.
 *
 * Model in, diagnostics out; no I/O, no libxml2. check_spec() also resolves
 * every by-name reference of the model (the fields marked "resolved by
 * check" in model.h), fills register resets from the fields where the spec
 * gives none, and appends the implicit fields of <gap> and gaps= rules, so
 * the context builder may rely on a complete model.
 */
#ifndef REGC_CHECK_H
#define REGC_CHECK_H

#include "arena.h"
#include "diag.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Returns 0 when the spec has no errors, -1 otherwise (every problem
 * reported).
 */
int check_spec(struct arena *a, struct diag *dg, struct model_spec *s);

/* The most slots of the collision check's set of name hashes (8 bytes each, 32 MB); with
 * three quarters of them filled it walks the names in parts. */
#define CHECK_COLLISION_BUDGET ((size_t)4 << 20)

/* What check_spec_with() may be told, and what it tells back; check_spec() takes the
 * defaults. */
struct check_options {
    size_t collision_budget; /* 0: CHECK_COLLISION_BUDGET; tests make it small to walk a small
                                spec in many parts */
    uint32_t collision_parts; /* out: the parts the collision check walked the names in (1: one
                                 walk; 0: it did not run) */
};

int check_spec_with(struct arena *a, struct diag *dg, struct model_spec *s,
                    struct check_options *o);

/* True when 's' is a C11, C23 or C++17 keyword (names check_names refuses). */
bool check_is_keyword(const char *s);
/* 'name' as a C identifier (svd-name's repair): 'name' itself when it is one; 'tail' (a name only
 * ever written after "_"): a leading digit or a keyword kept. A copy is owned by 'a'. */
const char *check_c_identifier(struct arena *a, const char *name, bool tail);
/* The name of an SVD list ("TIM.ER[%s]") repaired as its elements' names are, its "%s" or
 * "[%s]" kept ("TIM_ER[%s]"); 'name' itself when it needs nothing. A copy is owned by 'a'. */
const char *check_list_identifier(struct arena *a, const char *name);
/* True when 's' is a C identifier (a letter or '_', then letters, digits, '_'). */
bool check_is_identifier(const char *s);

#endif
