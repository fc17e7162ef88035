/*
 * regc/sim.h - an in-process model of the hardware a spec describes.
 *
 * Built from descriptor tables alone (no family-specific code): every
 * concrete register copy holds a value; reads and writes follow the
 * attribute table of regc/attr.h (RO ignores writes, WO reads 0 and acts,
 * RW1C clears, a 1 written to a reserved bit or to bits past the width
 * faults like the CPU's #GP: -EIO, as does an access to an unknown address).
 * The pmon topology drives counting: regc_sim_tick() adds events to a
 * counter when its control enables it and neither the box nor the global
 * control freezes it; counters count up or down (the direction field), wrap
 * or stop at their width and at 0, set the box and global overflow status
 * bits, and freeze on overflow where the spec says so.
 * Fault injection makes chosen accesses fail, so every error path runs.
 */
#ifndef REGC_SIM_H
#define REGC_SIM_H

#include "regc/regc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A new model at reset for 'spec' (borrowed; must outlive it); caller releases with regc_sim_free.
 */
REGC_API int regc_sim_new(regc_sim **out, const struct regc_spec *spec);
REGC_API void regc_sim_free(regc_sim *sim);

/* Raw access as the hardware sees it (what the sim backend and tests/tools/msrfs call). */
REGC_API int regc_sim_read(regc_sim *sim, const struct regc_io *io, uint64_t *value);
REGC_API int regc_sim_write(regc_sim *sim, const struct regc_io *io, uint64_t value);

/* Value of a register copy without side effects or fault injection (tests); -ENOENT if none. */
REGC_API int regc_sim_peek(regc_sim *sim, const struct regc_ref *r, uint64_t *value);
REGC_API int regc_sim_poke(regc_sim *sim, const struct regc_ref *r, uint64_t value);

/*
 * regc_sim_tick - 'n' events occur for counter 'counter' (array index of the
 * counters' control, 0 for a single register) of the 'group'th <counters> of
 * block 'block' in instance 'inst' (NULL: the block has none). The counter
 * moves n steps in the direction its control's direction field chooses (up
 * without one; up in up-and-down mode; not at all for an undefined encoding).
 * Below 0 (underflow) it wraps to 2^w-1 or stops at 0, as it wraps to 0 or
 * stops at 2^w-1 on overflow; both set the overflow status. A counter that
 * stopped counts nothing more until software writes it or its control.
 * 0, or -ENOENT.
 */
REGC_API int regc_sim_tick(regc_sim *sim, const char *block, const char *inst, unsigned group,
                           unsigned counter, uint64_t n);

/*
 * regc_sim_tick_signed - like regc_sim_tick, for up-and-down counting (Xeon
 * 7500 count_mode 10): 'delta' > 0 increment signals, < 0 decrement signals,
 * so the counter moves by delta. A decrement on a counter not in up-and-down
 * mode is -EINVAL (nothing counts); delta >= 0 is regc_sim_tick(delta).
 */
REGC_API int regc_sim_tick_signed(regc_sim *sim, const char *block, const char *inst,
                                  unsigned group, unsigned counter, int64_t delta);

/* 'n' occurrences of event 'event' (full name) in 'block'/'inst': every counter whose control
 * selects it counts. */
REGC_API int regc_sim_event(regc_sim *sim, const char *block, const char *inst, const char *event,
                            uint64_t n);

/*
 * regc_sim_batch - on: the events that follow happen in the same cycle, so a
 * freeze-on-overflow one of them causes stops none of the others (several
 * counters overflow at once); off: the freezes take effect.
 */
REGC_API void regc_sim_batch(regc_sim *sim, bool on);

/*
 * Fault injection. regc_sim_fail_nth: the n-th access from now (1: the next)
 * fails with -err, once. regc_sim_fail_address: every access to 'address'
 * fails with -err until cleared with err 0. regc_sim_faults_clear removes all.
 */
REGC_API void regc_sim_fail_nth(regc_sim *sim, unsigned long n, int err);
REGC_API void regc_sim_fail_address(regc_sim *sim, uint64_t address, int err);
REGC_API void regc_sim_faults_clear(regc_sim *sim);

/* True while the global control's freeze action holds (until its unfreeze action). */
REGC_API bool regc_sim_global_frozen(const regc_sim *sim);

/* Accesses made so far (reads + writes, faulted ones included). */
REGC_API unsigned long regc_sim_accesses(const regc_sim *sim);

#ifdef __cplusplus
}
#endif

#endif
