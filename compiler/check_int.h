/*
 * check_int - what the check_*.c files share; not used outside the checker.
 *
 * check.c runs the passes in order (names, references, registers, addresses,
 * events and rules, topology, generated names); each pass reports every problem it finds into ctx->dg
 * and never stops at the first. The passes call no function of check.c and
 * the helpers below never call a pass: no circle.
 */
#ifndef REGC_CHECK_INT_H
#define REGC_CHECK_INT_H

#include "arena.h"
#include "diag.h"
#include "model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct check_ctx {
    struct arena *a; /* borrowed; strings made here are owned by it */
    struct diag *dg; /* borrowed */
    struct model_spec *s;
    size_t collision_budget; /* check.h, struct check_options */
    uint32_t collision_parts; /* out: check.h, struct check_options */
};

/* A field's bits as messages print them, "[13:9]" or "[7]"; owned by ctx->a (check_reg.c). */
const char *field_bits_text(struct check_ctx *c, const struct model_field *f);
/* "the reset of ...": prints a value the way the spec writes it, "0x1F". */
#define CHECK_X "0x%" PRIX64

/*
 * A value written to field 'f' by 'owner' ("event 'X'", "metric 'm'") fits the
 * field (value-too-wide) and, for a reserved field, is what the attribute
 * table demands (set-reserved). check_events.c; also the metrics' settings.
 */
void check_set_fits(struct check_ctx *c, const char *kind, const char *owner,
                    const struct model_field *f, uint64_t value, struct srcpos pos);

/* The passes, in the order check_spec() runs them. */
void check_names(struct check_ctx *c);
void check_refs(struct check_ctx *c);
void check_registers(struct check_ctx *c);
void check_addresses(struct check_ctx *c);
void check_events(struct check_ctx *c);
void check_rules(struct check_ctx *c);
void check_pmon(struct check_ctx *c);
void check_cpus(struct check_ctx *c); /* check_cpu.c */
void check_metrics(struct check_ctx *c); /* check_metrics.c */
void check_name_collision(struct check_ctx *c);

/*
 * A field known to be reserved. A field of unknown access (reported once,
 * by unknown-access) is not: the model treats it as must-be-zero, and a
 * check that then said "names reserved field" would report a consequence.
 */
static inline bool check_known_reserved(const struct model_field *f)
{
    return f->access != REGC_ACCESS_UNKNOWN && model_field_is_reserved(f);
}

/*
 * A register width the language allows (8, 16, 32, 44, 48, 64). Checks that
 * measure against a register's width skip one reported as bad-width.
 */
bool check_width_allowed(unsigned width);

/* True when every element of 'r' in 'inst' (NULL: no instances) lies inside its address space. */
bool check_reg_fits(const struct model_reg *r, const struct model_instance *inst);

/*
 * The field of 'r' whose name is closest to 'name' (util_suggest), reserved
 * fields too or not; NULL when none is close. For "did you mean".
 */
const char *check_suggest_field(const struct model_reg *r, const char *name, bool reserved_too);

/* The closest to 'name' of the names at 'name_offset' in the 'n' objects of the array of
 * pointers 'objects' (util_suggest); NULL when none is close. */
const char *check_suggest(const char *name, const void *objects, size_t n, size_t name_offset);
#define CHECK_SUGGEST(name, list, n, type, member)                                                 \
    check_suggest((name), (const void *)(list), (n), offsetof(type, member))

/* Lookups that report DIAG_UNKNOWN_REF at 'pos' when the name is not found (with a suggestion). */
const struct model_reg *check_ref_reg(struct check_ctx *c, const struct model_block *b,
                                      const char *name, struct srcpos pos);
const struct model_field *check_ref_field(struct check_ctx *c, const struct model_reg *r,
                                          const char *name, struct srcpos pos);
const struct model_block *check_ref_block(struct check_ctx *c, const char *name, struct srcpos pos);
const struct model_instance *check_ref_instance(struct check_ctx *c, const struct model_block *b,
                                                const char *name, struct srcpos pos);

#endif
