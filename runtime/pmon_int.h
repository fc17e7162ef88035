/*
 * pmon_int - the monitoring session's state, shared by runtime/pmon.c (the
 * counter flows) and runtime/pmon_event.c (event parsing); not installed.
 */
#ifndef REGC_PMON_INT_H
#define REGC_PMON_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "internal.h"
#include "pmon_perf.h"
#include "regc/pmon.h"

#define MAX_SETS 8
#define MAX_BOXES 64

struct pmon_set {
    const struct regc_reg *reg; /* NULL: the event's own control */
    const struct regc_field *field;
    uint64_t value;
};

struct pmon_ev {
    char name[256];
    const struct regc_block *b;
    const struct regc_instance *inst;
    const struct regc_counters *c; /* the group (fixed: chosen at add) */
    const struct regc_event *e;    /* NULL: fixed or raw */
    uint64_t allowed;              /* bit i: array index i may count it; 0: any */
    struct pmon_set sets[MAX_SETS];
    unsigned nsets;
    int index;
    enum regc_direction dir; /* asked with dir= (default up); after start: what the control says */
    struct regc_ref ctl, ctr;
    uint64_t last, total, armed; /* counts in the up frame (see count_of) */
    unsigned long overflows;
    unsigned req;         /* the first added event it counts for (struct pmon_req) */
    unsigned grp, ngrp;   /* multiplexing: its group, and how many its box rotates among */
    bool active;          /* on its counter now (always, unless its box rotates) */
    uint64_t running;     /* clock time on its counter, up to 'since' when active */
    uint64_t enabled;     /* perf path: the kernel's time enabled (running: its time running) */
    uint64_t since;       /* when it went on its counter */
};

/* An event as added: its boxes are ev[slot[first]] .. ev[slot[first+n-1]] (one unless
 * every_box). Two added events that ask for the same box event (same box, encoding and
 * settings) name the same ev: one counter, read by both. */
struct pmon_req {
    char *name;
    unsigned first, n;
};

struct pmon_box {
    const struct regc_block *b;
    const struct regc_instance *inst;
    bool freezable; /* box freeze field, or a global freeze/enable */
};

struct regc_pmon_session {
    regc_dev *d;
    regc_dev *pci; /* PCI-space registers go here when set (regc_pmon_set_pci_device) */
    const struct regc_spec *s;
    struct pmon_ev *ev; /* one per box of each added event */
    unsigned n;
    size_t cap;
    struct pmon_req *req; /* the added events */
    unsigned nreq;
    size_t req_cap;
    unsigned *slot; /* the box events of the added events (struct pmon_req), indexes of ev */
    unsigned nslot;
    size_t slot_cap;
    bool every_box;       /* regc_pmon_every_box */
    uint64_t t_start, t_last; /* the clock at start and at the last poll (regc_pmon_running) */
    unsigned long step;   /* multiplexing: rotations so far */
    struct pmon_box box[MAX_BOXES];
    unsigned nbox;
    struct regc_pmon_opts opt;
    bool global; /* freeze/unfreeze through the global control */
    bool no_filter_check; /* regc_pmon_filter_check(p, false): filter-needing events without it */
    /* locks and saved registers (runtime/share.c); NULL: none */
    struct regc__share *share;
    struct regc__pmon_perf *perf; /* started through perf_event (runtime/pmon_perf.c); NULL: not */
    bool via_perf;                /* the last start went through perf (kept after release) */
    char err[512];
};

/* Sets the session's error message (regc_pmon_error) and returns rc. Inline: both files of the
 * session call it, and neither calls the other back for it. */
__attribute__((format(printf, 3, 4))) static inline int regc__pmon_fail(regc_pmon_session *p,
                                                                        int rc, const char *fmt,
                                                                        ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, sizeof(p->err), fmt, ap);
    va_end(ap);
    return rc;
}

/* Parses event 'name' into box event 'e' of 'p' (pmon_event.c): 0 or -errno, the error set. */
int regc__pmon_parse_event(regc_pmon_session *p, struct pmon_ev *e, const char *name);

#endif
