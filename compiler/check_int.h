/*
 * check_int - what the check_*.c files share; not used outside the checker.
 *
 * check.c runs the passes in order (names, references, registers, addresses,
 * events and rules, topology, generated names); each pass reports every
 * problem it finds into ctx->dg and never stops at the first.
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
};

/*
 * A string-keyed map: entries in insertion order in one array, found by a
 * scan while there are at most CHECK_MAP_SMALL, beyond that through an
 * open-addressing index of 8-byte slots (hash tag, entry number): the
 * generated-name check puts a few million names in one map, and small slots
 * keep its cache misses down. Freed by check_map_release(); keys are borrowed.
 */
#define CHECK_MAP_SMALL 8
struct check_map_entry {
    const char *key;
    uint64_t hash;
    const void *val;
    struct srcpos pos;
};
struct check_map_slot {
    uint32_t tag;   /* the hash's high half */
    uint32_t entry; /* entry number + 1; 0: empty */
};
struct check_map {
    struct check_map_entry *entries; /* owned */
    struct check_map_slot *slots;    /* owned; NULL while n <= CHECK_MAP_SMALL */
    size_t n, entries_cap, cap;      /* cap: slots */
};
void check_map_init(struct check_map *m);
void check_map_release(struct check_map *m);
/* Empties 'm' for the next scope, keeping its entry array (no allocation per scope). */
void check_map_reset(struct check_map *m);
/*
 * The entry for 'key': an existing one (*found true) or a new one with val
 * NULL. Valid until the next put.
 */
struct check_map_entry *check_map_put(struct check_map *m, const char *key, bool *found);
/* The same with the key's check_hash_str() already known. */
struct check_map_entry *check_map_put_hashed(struct check_map *m, const char *key, uint64_t hash,
                                             bool *found);
/* The hash the map uses for 'key'. */
uint64_t check_hash_str(const char *key);

/* "[13:9]" or "[7]", owned by ctx->a. */
const char *check_bits(struct check_ctx *c, const struct model_field *f);
/* "the reset of ...": prints a value the way the spec writes it, "0x1F". */
#define CHECK_X "0x%" PRIX64

/* The passes, in the order check_spec() runs them. */
void check_names(struct check_ctx *c);
void check_refs(struct check_ctx *c);
void check_registers(struct check_ctx *c);
void check_addresses(struct check_ctx *c);
void check_events(struct check_ctx *c);
void check_rules(struct check_ctx *c);
void check_pmon(struct check_ctx *c);
void check_cpus(struct check_ctx *c); /* check_cpu.c */
/* On up to 'jobs' threads; the diagnostics are those of one thread, in the same order. */
void check_name_collision(struct check_ctx *c, unsigned jobs);

/* True when every element of 'r' in 'inst' (NULL: no instances) lies inside its address space. */
bool check_reg_fits(const struct model_reg *r, const struct model_instance *inst);

/*
 * The field of 'r' whose name is closest to 'name' (util_suggest), reserved
 * fields too or not; NULL when none is close. For "did you mean".
 */
const char *check_suggest_field(const struct model_reg *r, const char *name, bool reserved_too);

/* Lookups that report DIAG_UNKNOWN_REF at 'pos' when the name is not found (with a suggestion). */
const struct model_reg *check_ref_reg(struct check_ctx *c, const struct model_block *b,
                                      const char *name, struct srcpos pos);
const struct model_field *check_ref_field(struct check_ctx *c, const struct model_reg *r,
                                          const char *name, struct srcpos pos);
const struct model_block *check_ref_block(struct check_ctx *c, const char *name, struct srcpos pos);
const struct model_instance *check_ref_instance(struct check_ctx *c, const struct model_block *b,
                                                const char *name, struct srcpos pos);

#endif
