/*
 * regc/sim.h - an in-process model of the hardware a spec describes.
 *
 * Built from descriptor tables alone (no family-specific code): every
 * concrete register copy holds a value; reads and writes follow the
 * attribute table of regc/attr.h (RO ignores writes, WO reads 0 and acts,
 * RW1C clears, a 1 written to a reserved bit or to bits past the width
 * faults like the CPU's #GP: -EIO, as does an access to an unknown address).
 * The model is bit-true: events are given by name and reach a counter only
 * when its control register's bits encode them (below), the pmon topology
 * says whether it runs (enables, freezes); counters count up or down (the
 * direction field), wrap or stop at their width and at 0, set the box and
 * global overflow status bits, and freeze on overflow where the spec says
 * so. Nothing counts because the runtime meant it to.
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
 * Events by name, through the encodings (the bit-true model).
 *
 * An event name is "BLOCK[INST]:EVENT[.SUB]" (an entry of the block's event
 * tables), "BLOCK[INST]:fixed" (the block's fixed counter) or
 * "BLOCK[INST]:raw,reg=CONTROL,FIELD=VALUE..." (no table entry: exactly the
 * named fields of CONTROL), the syntax of regc/pmon.h; INST omitted: the
 * first instance. FIELD=VALUE terms after a table event add exact
 * conditions on its control, REG.FIELD=VALUE on another register of its box
 * instance (a filter); ATTR=VALUE, ATTR the traffic a filter of the block
 * selects on (state, opcode, node, freq...), gives the occurrences that
 * attribute; dir= and ctr= terms are accepted and ignored (they say how a
 * session counts, not what happens).
 *
 * An occurrence of an event reaches a counter only when the counter's
 * control register, as bits, encodes the event: every field the event's
 * table entry (and its parent's) sets equals its value (code field, umask
 * field, each <set> on the control), every other field that some event of
 * that control selects by holds 0, except in a parent event the fields its
 * sub-events set (a rate given to a parent counts whatever sub-event is
 * selected); for a sub-event of a combining event (combine_or: the umask's
 * bits select sub-events, whose OR the hardware counts) the umask holds all
 * of the sub-event's bits and none that no sub-event of the event names, so
 * rates given per sub-event add up (CAS_COUNT.RD counts RD_REG +
 * RD_UNDERFILL); each <set> on another register (filter, M-Box sub-control)
 * holds in that register of the same box instance; the box filters the
 * event encoded on the counter counts through (regc_event.filters) select
 * the traffic (a mask filter: bit ATTR set, at 0 nothing; equal: ATTR equals
 * it; at-least: ATTR is at least it; set: written non-zero; an attribute the
 * rate does not give is whatever the filter selects); and the counter is
 * running: its enable, the box's enable bit, no box freeze, no global
 * freeze or disable, not stopped at overflow.
 *
 * The clock: an interval is 'cycles' cycles of the boxes' clock (one count
 * for every box; regc_sim_clock, default REGC_SIM_CLOCK_DEFAULT). A rate of n
 * per interval is spread over them as evenly as integers allow, cycle c of L
 * getting floor((c+1)n/L) - floor(cn/L) occurrences: n <= L gives n cycles
 * of one and L-n idle cycles, n > L every cycle n/L or n/L+1. The rates a
 * counter counts are added up and spread together; cycles no rate reaches
 * are idle for every running counter. The threshold, invert and edge fields
 * are not part of the encoding unless the event sets them itself; where it
 * does, its occurrences are already the thresholded ones, counted as given.
 * Otherwise they act per cycle as the uncore guides describe (327043-001
 * Table 2-2, 329468 section 1.4): with thresh T != 0 a cycle counts 1 when
 * its increment is >= T (invert: < T, so thresh=1,invert=1 counts the idle
 * cycles), edge_det counts the cycles where that comparison turns true (a
 * rising edge; with invert, the falling edge of 'increment >= T'); with T = 0
 * a cycle adds its increment (edge_det: the rising edges of 'increment > 0').
 * The comparison's last value carries over to the next interval, and starts
 * false when software writes the control.
 */

/* Cycles per interval of a new model: 1 ms of a 1 GHz clock. */
#define REGC_SIM_CLOCK_DEFAULT UINT64_C(1000000)

/* regc_sim_clock - an interval is 'cycles' cycles from now on; 0, or -EINVAL for 0 cycles. */
REGC_API int regc_sim_clock(regc_sim *sim, uint64_t cycles);
REGC_API uint64_t regc_sim_clock_get(const regc_sim *sim);

/* regc_sim_elapsed - the cycles of the clock delivered since the model was built (each
 * interval's, each regc_sim_event's and regc_sim_cycles'): the simulated time that a monitoring
 * session's multiplexing measures (regc/pmon.h regc_pmon_running). */
REGC_API uint64_t regc_sim_elapsed(const regc_sim *sim);

/*
 * regc_sim_rate - from now on, 'n' occurrences of 'event' per interval
 * (regc_sim_interval); 0 removes the rate, a second call replaces it.
 * n < 0: decrement signals, for counters counting up and down (Xeon 7500
 * count_mode 10). Any event of the spec may have a rate, counted or not.
 * 0; -ENOENT unknown block, instance, event or field; -EINVAL bad syntax;
 * -ENOMEM. regc_sim_error() says why.
 */
REGC_API int regc_sim_rate(regc_sim *sim, const char *event, int64_t n);
REGC_API void regc_sim_rates_clear(regc_sim *sim);

/*
 * regc_sim_interval - one interval of the clock: every rate is delivered
 * once, spread over the interval's cycles (above), to every counter whose
 * state encodes its event (regc_sim_cycles gives increments cycle by cycle).
 * The interval is one batch (regc_sim_batch): a freeze an overflow causes
 * takes effect at its end. 0, or -EINVAL when a
 * decrement reached a counter that does not count up and down (that counter
 * counts nothing; every other delivery is made).
 */
REGC_API int regc_sim_interval(regc_sim *sim);

/*
 * regc_sim_event - 'n' occurrences of 'event' now: one interval of the clock
 * with only this rate (outside a batch unless one is open).
 * Return values as regc_sim_rate and regc_sim_interval.
 */
REGC_API int regc_sim_event(regc_sim *sim, const char *event, int64_t n);

/*
 * regc_sim_cycles - 'ncycles' cycles of 'event', inc[c] its increment in
 * cycle c: the per-cycle form where thresh, invert and edge_det apply cycle
 * by cycle (an occupancy of 3 in one cycle is inc 3); every running counter
 * sees these cycles, idle where the event does not reach it. Each cycle is
 * one batch. Return values as regc_sim_rate.
 */
REGC_API int regc_sim_cycles(regc_sim *sim, const char *event, const uint64_t *inc, size_t ncycles);

/* The last failure of regc_sim_rate, _interval, _event or _cycles, one line; "" when none. */
REGC_API const char *regc_sim_error(const regc_sim *sim);

/*
 * The encodings the simulator saw: at each delivery (interval, event,
 * cycles), every running counter whose control has an event table, with
 * the value its control held and the first table entry that value encodes
 * (NULL: none, so no named event counts there). Each (control copy, value)
 * once, in the order first seen.
 */
struct regc_sim_encoding {
    struct regc_ref ctl;            /* the control register copy */
    uint64_t value;                 /* what it held */
    const struct regc_event *event; /* an entry it encodes; NULL: none */
};

/* Copies up to 'max' encodings seen into out (only those without an event when 'unmatched');
 * returns how many there are. */
REGC_API size_t regc_sim_encodings(const regc_sim *sim, bool unmatched,
                                   struct regc_sim_encoding *out, size_t max);
REGC_API void regc_sim_encodings_clear(regc_sim *sim);

/*
 * Low-level hooks for the simulator's own tests of counter mechanics (wrap,
 * overflow, freeze, direction); they bypass the encodings, so flows are
 * tested through the named events above instead.
 *
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

/*
 * regc_sim_tick_held - whether a freeze holds the counter regc_sim_tick names
 * (same arguments), so that a tick now would be lost to it: its own control
 * enables it (or has no enable field) and it has not stopped at an end, yet
 * it does not count (its box frozen or its enable bit in the box control
 * clear, a global freeze, disable or select freeze reaching it). 1 held, 0
 * not (it counts, or nothing but its own control or a stop keeps it from
 * counting), -ENOENT. Changes nothing.
 */
REGC_API int regc_sim_tick_held(regc_sim *sim, const char *block, const char *inst, unsigned group,
                                unsigned counter);

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
