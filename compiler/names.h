/*
 * names - the one rule for generated C identifiers (docs/c-header.md).
 *
 * Everything the header template defines is named here, from the model, so
 * the checker can prove no two objects get the same C name (name-collision)
 * and the context builder gives templates exactly these names.
 *
 *   <PREFIX>_<REG>                register:      XEON7500_M_MSR_PMU_CNT_CTL
 *   <PREFIX>_<REG>_<FIELD>        field:         XEON7500_M_MSR_PMU_CNT_CTL_INC_SEL
 *   <PREFIX>_<REG>_<FIELD>_<VAL>  named value
 *   <PREFIX>_<REG>_RULE_<RULE>    rule
 *   <PREFIX>_<BLOCK>              block:         XEON7500_MBOX
 *   <PREFIX>_<BLOCK>_<INSTANCE>   instance
 *   <PREFIX>_EV_<BLOCK>_<EVENT>[_<SUB>]  event encoding
 * followed by a suffix for what is defined (_ADDR, _MASK, _SHIFT, ...);
 * upper-cased; lower-case for static inline functions. The full list of
 * suffixes is SUFFIX_LISTS in names.c and docs/c-header.md.
 */
#ifndef REGC_NAMES_H
#define REGC_NAMES_H

#include "arena.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 's' upper-cased ('.' becomes '_'), owned by 'a'. */
char *names_upper(struct arena *a, const char *s);
/* 's' lower-cased ('.' becomes '_'), owned by 'a'. */
char *names_lower(struct arena *a, const char *s);

/* The stems above, upper-case, owned by 'a'. 'prefix' as given (upper-cased here). */
char *names_reg(struct arena *a, const char *prefix, const struct model_reg *r);
char *names_field(struct arena *a, const char *prefix, const struct model_field *f);
char *names_value(struct arena *a, const char *prefix, const struct model_field *f,
                  const struct model_value *v);
/* The same from names_field()'s result for v's field: one join instead of four. */
char *names_value_of(struct arena *a, const char *field_stem, const struct model_field *f,
                     const struct model_value *v);
/*
 * A field's stem from names_reg()'s result for its register ('reg_stem', 'ns'
 * bytes): one join instead of three or more; '*lower' gets its c_lower the
 * same way from the register's ('reg_lower', names_lower() of 'reg_stem'):
 * REG_LOWER_name, the field's name lower-cased as names_lower() does. Returns
 * their length.
 */
size_t names_field_of(struct arena *a, const char *reg_stem, const char *reg_lower, size_t ns,
                      const struct model_field *f, char **upper, char **lower);
/* A rule's stem, REG_STEM_RULE_NAME, likewise. */
char *names_rule_of(struct arena *a, const char *reg_stem, const struct model_rule *rule);
char *names_instance(struct arena *a, const char *prefix, const struct model_instance *i);
char *names_event(struct arena *a, const char *prefix, const struct model_event *e);
char *names_block(struct arena *a, const char *prefix, const struct model_block *b);
/* A <metric>'s stem: PREFIX_METRIC_NAME (its macros add _UNIT, _SCALE, _NEVENTS, _EVENTS). */
char *names_metric(struct arena *a, const char *prefix, const struct model_metric *m);

/*
 * True when element 0 of 'r' has the same address in every instance of its
 * block (no instances, or PCI offsets without <at>): the header then defines
 * a constant (or a function of the array index only) instead of a function
 * of the instance.
 */
bool names_reg_uniform(const struct model_reg *r);

/*
 * Calls 'fn' once for every identifier the generated header defines (the
 * stems with each suffix the template uses), with the position of the object
 * it names. A string passed to 'fn' is valid during that call only (copy
 * what you keep): the names are made one register at a time.
 */
typedef void names_fn(void *ctx, const char *ident, struct srcpos pos);
void names_foreach(const struct model_spec *s, const char *prefix, names_fn *fn, void *ctx);

/*
 * The names_hash64() of each name names_foreach() makes, in its order,
 * without making the names (the collision check's first walk): passed to
 * 'fn' some at a time, in an array valid during that call.
 */
typedef void names_hashes_fn(void *ctx, const uint64_t *hashes, size_t n);
void names_foreach_hashes(const struct model_spec *s, const char *prefix, names_hashes_fn *fn,
                          void *ctx);
/* The 64-bit hash of a generated name: the one names_foreach_hashes() passes. */
uint64_t names_hash64(const char *ident);

#endif
