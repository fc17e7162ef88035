/*
 * regc/attr.h - the one table of register-field attribute semantics.
 *
 * Manuals print attributes as RW, RO, WO, RV, RW-V, RO-V, RW1C, RW1S, RWS, ig, rsv.
 * (RWS is RW that keeps its value across a warm reset: the same for software.)
 * RV1 is the spelling a spec uses for a reserved range the manual prints as RV
 * with "SW must write to 1" (E5-2600 v2 box controls, bits 17:16).
 * gap is regc's own spelling for bits no field describes that a write must
 * keep as read (an SVD register's undescribed bits): not known to be 0.
 * RW0C, RW0S, RW1T, RW0T, RWAC, RWAS, RWO, WOO are the write side effects of
 * CMSIS-SVD (modifiedWriteValues zeroToClear, zeroToSet, oneToToggle,
 * zeroToToggle, clear, set; access read-writeOnce, writeOnce), spelled as
 * manuals spell RW1C.
 * Each spelling maps to one semantic class, and each class says what a read
 * returns, what a write does, and what a read-modify-write must do. The
 * compiler's checker and header masks, the runtime's checked writes and the
 * simulator all use this table; nothing else in the code knows attribute names.
 * Header-only (static inline), freestanding C99, usable from C++.
 */
#ifndef REGC_ATTR_H
#define REGC_ATTR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Semantic classes. */
enum regc_sem {
    REGC_SEM_RW,  /* read: value; write: stores; rmw: keep */
    REGC_SEM_RO,  /* read: value (hardware-set); write: no effect; rmw: keep or zero */
    REGC_SEM_WO,  /* read: 0; write 1: acts (e.g. reset); rmw: write 0 unless asked */
    REGC_SEM_RWV, /* read: value, also updated by hardware; write: stores; rmw: keep */
    REGC_SEM_W1C, /* read: value; write 1: clears; rmw: write 0 unless clearing */
    REGC_SEM_W1S, /* read: value; write 1: sets; 0 no effect; rmw: write 0 unless setting */
    REGC_SEM_MBZ, /* reserved: read 0 or undefined; must write 0 (else undefined or #GP) */
    REGC_SEM_IG,  /* ignored: read 0; writes ignored; rmw: write 0 */
    REGC_SEM_MB1, /* reserved, must be one: read undefined; must write 1 (else undefined) */
    REGC_SEM_GAP, /* undescribed: read unknown; a write must keep what was read */
    REGC_SEM_W0C, /* read: value; write 0: clears; 1 no effect; rmw: write 1 unless clearing */
    REGC_SEM_W0S, /* read: value; write 0: sets; 1 no effect; rmw: write 1 unless setting */
    REGC_SEM_W1T, /* read: value; write 1: toggles; 0 no effect; rmw: write 0 unless toggling */
    REGC_SEM_W0T, /* read: value; write 0: toggles; 1 no effect; rmw: write 1 unless toggling */
    REGC_SEM_WAC, /* read: value; any write clears: no write leaves it unchanged */
    REGC_SEM_WAS, /* read: value; any write sets: no write leaves it unchanged */
    REGC_SEM_RWO, /* read: value; only the first write after reset stores; rmw: keep */
    REGC_SEM_WOO, /* read: undefined; only the first write after reset acts; rmw: write 0 */
    REGC_SEM__COUNT
};

/*
 * The spellings a spec may use, exactly as manuals print them, with their
 * class and what they mean in words (the documentation's attribute legend).
 */
#define REGC_ACCESS_LIST(X)                                                                        \
    X(RW, "RW", REGC_SEM_RW, "read/write")                                                         \
    X(RO, "RO", REGC_SEM_RO, "read-only")                                                          \
    X(RO_V, "RO-V", REGC_SEM_RO, "read-only and updated by hardware")                              \
    X(WO, "WO", REGC_SEM_WO, "write-only")                                                         \
    X(RW_V, "RW-V", REGC_SEM_RWV, "read/write and updated by hardware")                            \
    X(RWS, "RWS", REGC_SEM_RW, "read/write and kept across a warm reset")                          \
    X(RW1C, "RW1C", REGC_SEM_W1C, "write 1 to clear")                                              \
    X(RW1S, "RW1S", REGC_SEM_W1S, "write 1 to set")                                                \
    X(RV, "RV", REGC_SEM_MBZ, "reserved (write 0)")                                                \
    X(RSV, "rsv", REGC_SEM_MBZ, "reserved (write 0)")                                              \
    X(RV1, "RV1", REGC_SEM_MB1, "reserved (write 1)")                                              \
    X(IG, "ig", REGC_SEM_IG, "ignored")                                                            \
    X(GAP, "gap", REGC_SEM_GAP, "undescribed (write back as read)")                                \
    X(RW0C, "RW0C", REGC_SEM_W0C, "write 0 to clear")                                              \
    X(RW0S, "RW0S", REGC_SEM_W0S, "write 0 to set")                                                \
    X(RW1T, "RW1T", REGC_SEM_W1T, "write 1 to toggle")                                             \
    X(RW0T, "RW0T", REGC_SEM_W0T, "write 0 to toggle")                                             \
    X(RWAC, "RWAC", REGC_SEM_WAC, "any write clears")                                              \
    X(RWAS, "RWAS", REGC_SEM_WAS, "any write sets")                                                \
    X(RWO, "RWO", REGC_SEM_RWO, "read/write once after reset")                                     \
    X(WOO, "WOO", REGC_SEM_WOO, "write-only, once after reset")

enum regc_access {
#define REGC_X_(id, text, sem, meaning) REGC_ACCESS_##id,
    REGC_ACCESS_LIST(REGC_X_)
#undef REGC_X_
    REGC_ACCESS__COUNT,
    REGC_ACCESS_UNKNOWN = REGC_ACCESS__COUNT
};

/* Mask classes a bit can belong to (a bitset): the header emits one mask per class. */
enum regc_mask_class {
    REGC_MASK_MBZ = 1u << 0,      /* must be zero */
    REGC_MASK_IGNORED = 1u << 1,  /* writes ignored, reads 0 */
    REGC_MASK_RO = 1u << 2,       /* read-only */
    REGC_MASK_WO = 1u << 3,       /* write-only (reads 0) */
    REGC_MASK_W1C = 1u << 4,      /* write 1 to clear */
    REGC_MASK_W1S = 1u << 5,      /* write 1 to set */
    REGC_MASK_WRITABLE = 1u << 6, /* a write has an effect */
    REGC_MASK_VOLATILE = 1u << 7, /* hardware changes the value */
    REGC_MASK_KEEP = 1u << 8,     /* read-modify-write writes back what it read */
    REGC_MASK_MB1 = 1u << 9,      /* must be one: every write sets it */
    REGC_MASK_PRESERVE = 1u << 10, /* undescribed: every write puts back what was read */
    REGC_MASK_W0 = 1u << 11,       /* write 0 acts (clears, sets, toggles): a safe write writes 1 */
    REGC_MASK_W1T = 1u << 12,      /* write 1 toggles: a safe write writes 0 */
    REGC_MASK_WANY = 1u << 13,     /* any write acts: no write leaves the bits unchanged */
    REGC_MASK_ONCE = 1u << 14      /* only the first write after reset has an effect */
};

static inline const char *regc_access_text(enum regc_access a)
{
    switch (a) {
#define REGC_X_(id, text, sem, meaning)                                                            \
    case REGC_ACCESS_##id:                                                                         \
        return text;
        REGC_ACCESS_LIST(REGC_X_)
#undef REGC_X_
    default:
        return "?";
    }
}

/* What the spelling means, in words ("write 1 to clear"); "?" for UNKNOWN. */
static inline const char *regc_access_meaning(enum regc_access a)
{
    switch (a) {
#define REGC_X_(id, text, sem, meaning)                                                            \
    case REGC_ACCESS_##id:                                                                         \
        return meaning;
        REGC_ACCESS_LIST(REGC_X_)
#undef REGC_X_
    default:
        return "?";
    }
}

/* The access spelled 'text' exactly (case matters: "rsv" and "RV" both exist), or UNKNOWN. */
static inline enum regc_access regc_access_parse(const char *text)
{
#define REGC_X_(id, spelling, sem, meaning)                                                        \
    if (strcmp(text, spelling) == 0)                                                               \
        return REGC_ACCESS_##id;
    REGC_ACCESS_LIST(REGC_X_)
#undef REGC_X_
    return REGC_ACCESS_UNKNOWN;
}

static inline enum regc_sem regc_access_sem(enum regc_access a)
{
    switch (a) {
#define REGC_X_(id, text, sem, meaning)                                                            \
    case REGC_ACCESS_##id:                                                                         \
        return sem;
        REGC_ACCESS_LIST(REGC_X_)
#undef REGC_X_
    default:
        return REGC_SEM_MBZ;
    }
}

/* The mask classes of a semantic class (the attribute table of docs/regspec.md). */
static inline unsigned regc_sem_classes(enum regc_sem s)
{
    switch (s) {
    case REGC_SEM_RW:
        return REGC_MASK_WRITABLE | REGC_MASK_KEEP;
    case REGC_SEM_RO:
        return REGC_MASK_RO | REGC_MASK_VOLATILE | REGC_MASK_KEEP;
    case REGC_SEM_WO:
        return REGC_MASK_WO | REGC_MASK_WRITABLE;
    case REGC_SEM_RWV:
        return REGC_MASK_WRITABLE | REGC_MASK_VOLATILE | REGC_MASK_KEEP;
    case REGC_SEM_W1C:
        return REGC_MASK_W1C | REGC_MASK_WRITABLE | REGC_MASK_VOLATILE;
    case REGC_SEM_W1S:
        return REGC_MASK_W1S | REGC_MASK_WRITABLE;
    case REGC_SEM_MBZ:
        return REGC_MASK_MBZ;
    case REGC_SEM_IG:
        return REGC_MASK_IGNORED;
    case REGC_SEM_MB1:
        return REGC_MASK_MB1;
    case REGC_SEM_GAP:
        return REGC_MASK_PRESERVE | REGC_MASK_KEEP;
    case REGC_SEM_W0C:
    case REGC_SEM_W0S:
    case REGC_SEM_W0T:
        return REGC_MASK_W0 | REGC_MASK_WRITABLE | REGC_MASK_VOLATILE;
    case REGC_SEM_W1T:
        return REGC_MASK_W1T | REGC_MASK_WRITABLE | REGC_MASK_VOLATILE;
    case REGC_SEM_WAC:
    case REGC_SEM_WAS:
        return REGC_MASK_WANY | REGC_MASK_WRITABLE | REGC_MASK_VOLATILE;
    case REGC_SEM_RWO:
        return REGC_MASK_ONCE | REGC_MASK_WRITABLE | REGC_MASK_KEEP;
    case REGC_SEM_WOO:
        return REGC_MASK_ONCE | REGC_MASK_WO | REGC_MASK_WRITABLE;
    default:
        return REGC_MASK_MBZ;
    }
}

/*
 * The mask classes of a field that must be written as read (CMSIS-SVD's writeConstraint
 * writeAsRead: "only the last read value can be written"), from its attribute's classes 'cls':
 * kept as read, like the gap class (preserve, keep), and in no class a safe write takes from
 * the value asked for or sets (writable, write-only, write-1/0 actions, toggles). The
 * compiler's masks and libregrt's regc_reg_class_mask() both apply it.
 */
static inline unsigned regc_as_read_classes(unsigned cls)
{
    return (cls & ~(unsigned)(REGC_MASK_WRITABLE | REGC_MASK_WO | REGC_MASK_W1C | REGC_MASK_W1S |
                              REGC_MASK_W0 | REGC_MASK_W1T)) |
           REGC_MASK_PRESERVE | REGC_MASK_KEEP;
}

/*
 * True for reserved, ignored and undescribed fields: no accessors, may repeat a name; reset
 * must be 0 except for gaps (the manuals print HW reset 0 for the must-be-one ranges too:
 * software sets them; an SVD register's reset value covers its undescribed bits).
 */
static inline bool regc_sem_is_reserved(enum regc_sem s)
{
    return s == REGC_SEM_MBZ || s == REGC_SEM_IG || s == REGC_SEM_MB1 || s == REGC_SEM_GAP;
}

#ifdef __cplusplus
}
#endif

#endif
