/*
 * hdr_events.h - the shape of the tables tests/runtime/hdr_events.mustache
 * renders: every event of a spec as its generated C header encodes it
 * (test_events_all). The encoding covers field_mask | own_mask: the code
 * field, the umask field when the event has a unit mask, and each <set>
 * field of its own control register; other[] are its <set>s on other
 * registers of the block.
 */
#ifndef HDR_EVENTS_H
#define HDR_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hdr_set {
    const char *reg, *field; /* NULL ends the list */
    uint64_t mask, value;    /* the field's _MASK, the value at its _SHIFT */
};

struct hdr_event {
    const char *name;  /* "EVENT" or "EVENT.SUB"; NULL ends the list */
    uint64_t enc;      /* <PREFIX>_EV_<BLOCK>_<EVENT> */
    uint64_t counters; /* ..._COUNTERS */
    bool is_sub;
    uint64_t field_mask; /* code (and umask) fields, filled in by the block's fill function */
    uint64_t own_mask;   /* the own-register <set> fields */
    struct hdr_set other[4];
    bool combine;        /* its event's umask bits select sub-events (combine="or") */
    uint64_t umask_mask; /* the umask field, filled in with field_mask; 0 without a umask */
};

struct hdr_block {
    const char *name;
    struct hdr_event *events;
    void (*fill)(void);
};

struct hdr_spec {
    const char *name;
    const struct hdr_block *blocks;
};

#endif
