/*
 * regc/pmon.h - the uncore performance-monitoring flows, driven by a spec's
 * pmon topology (struct regc_pmon, struct regc_pmon_global in regc/desc.h).
 *
 * One implementation for every family: the manuals' steps are expressed in
 * terms of the topology's roles (box freeze, reset-counters, global freeze,
 * unfreeze, enable, pmi-core, overflow status), never in family code.
 *
 *   regc_pmon_new      a session on an open device (regc/regc.h)
 *   regc_pmon_add      one event per call: "BLOCK[INSTANCE]:EVENT[.SUB][,FIELD=VALUE...]"
 *                      EVENT is a name of the block's event tables, "fixed"
 *                      (the block's fixed counter) or "raw" (no event: the
 *                      FIELD=VALUE terms select it; "reg=CONTROL" names the
 *                      counters group; "ctr=N" pins array index N;
 *                      "dir=up|down|up-down" chooses the count direction
 *                      where the counters have a direction field, as does
 *                      a FIELD= term setting that field; REG.FIELD=VALUE
 *                      sets a field of another register of the box, a
 *                      filter). INSTANCE may be omitted (the first). Also
 *                      perf's language (runtime/perf_lang.c): a perf event
 *                      string "uncore_cbox_3/event=0x34,umask=0x3/" (the
 *                      kernel's PMU and format names), a perfmon/perf alias
 *                      "unc_u_event_msg.doorbell_rcvd" (any case, bare or
 *                      after BLOCK[INSTANCE]:), regc's names in any case.
 *   regc_pmon_start    assigns counters (each event's allowed counters, the
 *                      most constrained first), then runs the programming
 *                      flow: freeze (global, else per box), reset, program
 *                      the controls, preload 2^w-N (or 2^w-1-N, per the
 *                      spec) when sampling every N events, clear overflow
 *                      status, route the PMI, unfreeze (global or per box).
 *                      Boxes that can be frozen neither globally nor per
 *                      box get their controls written last, just before the
 *                      unfreeze (E5-2600 U-Box, guide 329468 section 2.1.2 note).
 *   regc_pmon_poll     freeze, read every used counter once, unfreeze;
 *                      64-bit totals across wrap-around for any width: a
 *                      counter counting down adds old - new (mod 2^w); one
 *                      counting up and down adds the signed change (less
 *                      than 2^(w-1) per poll), so its total, read as
 *                      int64_t, is the net count.
 *   regc_pmon_sample   freeze, find overflows through the global status,
 *                      then each flagged box's status (or, where the spec
 *                      gives none, by the counter having wrapped; a global
 *                      bit for one counter group of one counter is that
 *                      counter's status), report every overflowed counter,
 *                      clear the status bits, re-arm (preload again, plus
 *                      the events past the last whole period, so none is
 *                      lost), unfreeze. Each whole period a counter went
 *                      through since it was armed is one overflow: a rate
 *                      far above the period counts them all (the counter
 *                      must not wrap twice between two samples). A counter counting down underflows after
 *                      the same N events (it is preloaded with the mirror
 *                      of the up preload: N-1, or N for 2^w-1-N).
 *   regc_pmon_stop     freeze and leave frozen.
 *   regc_pmon_release  freeze, put back what start found, unlock (below).
 *
 * Sharing the hardware (runtime/share.c): before programming, start takes an
 * advisory lock per box (and on the global control) so two sessions, in one
 * process or in two, never program the same box at once; it refuses boxes
 * found in use (a control with bits set, a counter that advances while
 * watched) unless forced, and saves every register the flow will write.
 * regc_pmon_release (also called by regc_pmon_free and by a failed start)
 * freezes, writes the saved values back, boxes left frozen, and unlocks.
 *
 * Every register access goes through the device, so a device opened with
 * dry_run and a trace function records the exact ordered accesses.
 * Functions return 0 or -errno; regc_pmon_error() says why in one line.
 */
#ifndef REGC_PMON_H
#define REGC_PMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "regc/regc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct regc_pmon_session regc_pmon_session; /* fields private to runtime/pmon.c */

struct regc_pmon_opts {
    uint64_t sample;    /* 0: counting (poll); N: overflow every N events (preload) */
    uint64_t pmi_cores; /* sampling: value of the global pmi-core field (bit i = core i); 0: 1 */
    bool per_box;       /* freeze/unfreeze per box even where a global control exists */
    /* sharing the hardware */
    bool force;           /* program boxes found in use (regc_pmon_warning() names them) */
    bool lock_wait;       /* wait for a lock another session holds instead of failing */
    const char *lock_dir; /* NULL: $REGC_LOCK_DIR, else /run/regc (root) or $XDG_RUNTIME_DIR/regc
                             (sim backend: no lock); docs/runtime.md "Lock files" */
    int settle_ms;        /* counters watched this long for advancing; 0: 10 ms; < 0: no wait */
    /* more events than a box has counters: false, start refuses (-EBUSY, naming the box, its
       counters and the events); true, they are grouped and the groups rotate (multiplexing) */
    bool multiplex;
};

/* What an added event became (after regc_pmon_start: its counter). Borrowed strings. */
struct regc_pmon_info {
    const char *name; /* as added */
    const struct regc_block *block;
    const struct regc_instance *instance; /* NULL: the block has none */
    const struct regc_counters *counters;
    int index;      /* array index of the counter; -1 before start or for single registers */
    unsigned width; /* counter width in bits */
    enum regc_direction direction; /* REGC_DIR_UP, _DOWN or _UP_DOWN (after start: the control's) */
    struct regc_ref ctl, ctr; /* valid after start */
    /* its table entry; NULL for fixed and raw events */
    const struct regc_event *event;
    /* the boxes it counts on (regc_pmon_every_box; the fields above are the first box's) */
    unsigned nboxes;
    /* after start: the groups its box rotates among (1: always on a counter) and its group */
    unsigned groups, group;
};

/* A session on 'd' (borrowed; must outlive it). 0, or -ENOMEM. */
REGC_API int regc_pmon_new(regc_pmon_session **out, regc_dev *d);
REGC_API void regc_pmon_free(regc_pmon_session *p);

/*
 * Registers in PCI configuration space go through 'pci' (borrowed; NULL:
 * everything through the session's device), so one flow spans MSR boxes
 * (msr backend) and PCI boxes (pci backend), as on the E5-2600 families.
 */
REGC_API void regc_pmon_set_pci_device(regc_pmon_session *p, regc_dev *pci);

/* The last failure, one line; "" when none. */
REGC_API const char *regc_pmon_error(const regc_pmon_session *p);

/* Adds an event (syntax above); any number of them. An event that asks for a box event an earlier
 * one asked for (same box, encoding, settings) shares its counter: both read its count. Two values
 * of one box filter field are checked at start: counted in turns with opts.multiplex, else
 * -EINVAL naming both. 0; -ENOENT unknown block/instance/event/field; -EINVAL bad syntax;
 * -ENOMEM. */
REGC_API int regc_pmon_add(regc_pmon_session *p, const char *name);

/*
 * regc_pmon_filter_check - on (the default): regc_pmon_add refuses, -EINVAL, an event that
 * counts through a box filter (regc_event.filters: the C-Box state for LLC_LOOKUP, a PCU band)
 * unless the event itself or a REG.FIELD=VALUE term sets that filter; the message names the
 * filter, what it selects and an example. It also refuses an event that needs a filter the
 * spec does not model (regc_event.unmodelled_filters), naming it and its registers. Off: such
 * events are added as they are.
 */
REGC_API void regc_pmon_filter_check(regc_pmon_session *p, bool on);

REGC_API unsigned regc_pmon_count(const regc_pmon_session *p);
REGC_API int regc_pmon_info(const regc_pmon_session *p, unsigned i, struct regc_pmon_info *out);

/* ==== every box of a type (runtime/pmon_boxes.c; docs/monitoring.md "Every box of a type") ====
 *
 * regc_pmon_every_box - on: regc_pmon_add counts an event that names no box of a block of
 * several (imc:CAS_COUNT.RD, the alias UNC_M_CAS_COUNT.RD, perf's uncore_imc/event=0x4,
 * umask=0x3/) on every box of the block, and the event's total is their sum (perf's merge of
 * uncore_imc_0..N, likwid's MBOX0..7). Off (the default): such an event counts on the first box.
 *
 * regc_pmon_boxes - the event strings, one per box, that 'name' stands for: n >= 2 for a block of
 * several boxes, else the name itself (n = 1). *out: caller frees with regc_pmon_boxes_free.
 * 0, or -ENOMEM.
 *
 * regc_pmon_box_info / regc_pmon_box_total - box k (0 .. info.nboxes-1) of event i: its own
 * name ("imc[mc0_ch1]:CAS_COUNT.RD"), counter and total (scaled when multiplexed).
 */
REGC_API void regc_pmon_every_box(regc_pmon_session *p, bool on);
REGC_API int regc_pmon_boxes(const struct regc_spec *s, const char *name, char ***out,
                             unsigned *n);
REGC_API void regc_pmon_boxes_free(char **names, unsigned n);
REGC_API int regc_pmon_box_info(const regc_pmon_session *p, unsigned i, unsigned k,
                                struct regc_pmon_info *out);
REGC_API uint64_t regc_pmon_box_total(const regc_pmon_session *p, unsigned i, unsigned k);

/* ==== multiplexing (opts.multiplex; docs/monitoring.md "More events than counters") ====
 *
 * regc_pmon_running - event i's time enabled (since start) and time running (on a counter),
 * summed over its boxes, in the session's clock: nanoseconds of CLOCK_MONOTONIC, or on the
 * simulator the cycles of its clock it delivered (regc_sim_elapsed), so simulated runs are exact.
 * Its total is its counts times enabled / running (perf's scaling); running == enabled when its
 * box never rotates. The groups rotate at each regc_pmon_poll.
 *
 * regc_pmon_raw - event i's counts as read, unscaled, summed over its boxes.
 */
REGC_API void regc_pmon_running(const regc_pmon_session *p, unsigned i, uint64_t *enabled,
                                uint64_t *running);
REGC_API uint64_t regc_pmon_raw(const regc_pmon_session *p, unsigned i);

/*
 * Assigns counters, claims the boxes (locks, in-use check, save) and runs the
 * programming flow. -EBUSY when the events do not fit the counters, a box is
 * in use (not forced) or another session holds its lock; -EINTR when a signal
 * interrupts the wait for a lock (lock_wait). A session started before is
 * released first. A failed start leaves what it found restored.
 */
REGC_API int regc_pmon_start(regc_pmon_session *p, const struct regc_pmon_opts *opt);

/* Freeze, read, unfreeze; totals[i] (may be NULL) receives event i's 64-bit total since start
 * (the sum over its boxes; multiplexed: scaled, and the next group of each rotating box is
 * programmed before the unfreeze). */
REGC_API int regc_pmon_poll(regc_pmon_session *p, uint64_t *totals);

/*
 * Freeze, find the overflowed counters, clear their status, re-arm, unfreeze.
 * which[] (may be NULL; room for 'max') receives the indexes of the events
 * whose counters overflowed, *n how many (0: none). Totals are updated too.
 */
REGC_API int regc_pmon_sample(regc_pmon_session *p, unsigned *which, unsigned max, unsigned *n);

/* Event i's 64-bit total (for an up-and-down event, (int64_t) of it is the net count) and number
 * of overflows seen by regc_pmon_sample: the whole sample periods its counter went through. */
REGC_API uint64_t regc_pmon_total(const regc_pmon_session *p, unsigned i);
REGC_API unsigned long regc_pmon_overflows(const regc_pmon_session *p, unsigned i);

/* Freeze everything the session programmed and leave it frozen. */
REGC_API int regc_pmon_stop(regc_pmon_session *p);

/*
 * regc_pmon_stop, then write back every register start saved (boxes left
 * frozen; order in docs/monitoring.md) and release the locks. 0, or the first
 * failure (every register is still tried). Nothing to do after a release.
 */
REGC_API int regc_pmon_release(regc_pmon_session *p);

/* What start let pass with a warning (boxes forced, the kernel's PMUs on the boxes), one line
 * each; "" when none. Borrowed; valid until the next start or release. */
REGC_API const char *regc_pmon_warning(const regc_pmon_session *p);

#ifdef __cplusplus
}
#endif

#endif
