/*
 * share - sharing the PMU hardware for the pmon flow (runtime/share.c); not
 * installed. runtime/pmon.c calls it at two points: regc_pmon_start claims
 * the boxes before its first write, regc_pmon_release restores them after
 * freezing. It does not call back into pmon.c: the session's events come in
 * the target.
 *
 *   regc__share_claim    locks every box (and the global control), reads
 *                        the boxes' controls and counters, refuses boxes in
 *                        use unless forced, and keeps what it read of every
 *                        register the flow will write.
 *   regc__share_restore  writes those values back, boxes left frozen, and
 *                        unlocks; the caller has frozen everything first.
 */
#ifndef REGC_SHARE_H
#define REGC_SHARE_H

#include "regc/pmon.h"

struct regc__share;

/* What the flow is about to program. All borrowed for the duration of the call. */
struct regc__share_target {
    const struct regc_pmon_info *ev; /* the session's events, counters assigned */
    unsigned nev;
    regc_dev *d, *pci; /* pci: NULL, or the device of PCI-space registers */
    bool global;       /* the flow freezes and unfreezes through the global control */
    const struct regc_pmon_opts *opt;
    /* the filter registers the events set (their own <set reg=...>s and REG.FIELD= terms), each
     * in a box of ev: saved and restored like the rest */
    const struct regc_ref *filters;
    unsigned nfilters;
};

/*
 * 0 and *out set (NULL when the backend shares by itself: perf), or -errno
 * with a one-line reason in err and nothing locked: -EBUSY a box in use or
 * locked by another session, -EINTR a signal while waiting for a lock.
 * Caller releases with regc__share_restore.
 */
int regc__share_claim(struct regc__share **out, const struct regc__share_target *t, char *err,
                      size_t errlen);

/* Restores, unlocks and frees 'sh' (NULL: nothing). 0, or the first failure (all are tried). */
int regc__share_restore(struct regc__share *sh, char *err, size_t errlen);

/* Warnings of the claim, one per line; "" when none or sh is NULL. Borrowed; valid until
 * regc__share_restore. */
const char *regc__share_warning(const struct regc__share *sh);

#endif
