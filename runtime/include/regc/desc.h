/*
 * regc/desc.h - descriptor tables: a regspec as constant C data.
 *
 * `regc -t tables SPEC.xml` renders one header `<spec>_tables.h` that defines
 * `static const struct regc_spec <spec>_spec` (internal linkage, include
 * guard) from these types; regctl, the simulator and the checked writes of
 * libregrt read nothing else. Hand-written tables (tests) use the same shape.
 *
 * Every list is an array ended by an all-zero element (its name is NULL), so
 * a template can write it without counting: iterate with
 * `for (const struct regc_field *f = r->fields; f->name; f++)`.
 * Role names (pmon) are the names of fields or registers of the same block,
 * resolved at run time with regc_reg_field() / regc_block_reg().
 * All strings are static; optional ones are NULL when absent.
 * Freestanding C11 (<stdbool.h>, <stdint.h>, attr.h); no function definitions.
 */
#ifndef REGC_DESC_H
#define REGC_DESC_H

#include <stdbool.h>
#include <stdint.h>

#include "regc/attr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Marks a generated table that a translation unit may leave unused. */
#if defined(__GNUC__)
#define REGC_TABLE_UNUSED __attribute__((unused))
#else
#define REGC_TABLE_UNUSED
#endif

enum regc_space { REGC_SPACE_MSR, REGC_SPACE_PCI, REGC_SPACE_MMIO };

/* <source>: a document the spec cites. */
struct regc_source {
    const char *id, *title, *ref, *rev, *date, *url;
};

/* A citation: the source id plus where in it (all optional). */
struct regc_cite {
    const char *src, *table, *page, *section, *cite;
};

/*
 * <cpu>: a processor the spec applies to, as CPUID leaf 1 reports it: the
 * display family (family, plus the extended family when family is 0xF) and
 * display model (model, plus the extended model << 4 when family is 6 or 0xF).
 */
struct regc_cpu {
    const char *vendor; /* CPUID leaf 0 vendor string, "GenuineIntel"; NULL ends a list */
    unsigned family, model;
    const char *name; /* e.g. "Ivy Bridge-EP"; may be NULL */
    struct regc_cite cite;
};

/* dev or func of a regc_pci_loc the spec leaves out: any slot (or function) matches. */
#define REGC_PCI_ANY 0xff

/* A PCI locator: the device an instance's pci registers live in. dev (0..31) and func (0..7)
 * are REGC_PCI_ANY when the spec gives none: the device is found by vendor and device alone. */
struct regc_pci_loc {
    uint16_t vendor, device;
    uint8_t dev, func;
};

/* <instance>: one copy of a block. */
struct regc_instance {
    const char *name;
    bool has_base;
    uint64_t base;
    bool has_pci;
    struct regc_pci_loc pci;
};

/* <value>: a named value of a field. */
struct regc_value {
    const char *name;
    uint64_t value;
    bool undefined; /* the manual calls this encoding undefined: never written */
    const char *desc;
};

/* <field>, <gap> or a gaps= fill (implicit). */
struct regc_field {
    const char *name;
    uint8_t lsb, msb;
    enum regc_access access;
    const char *access_text; /* as written */
    uint64_t reset;          /* the field's value, not shifted */
    bool implicit;
    const char *desc;
    const struct regc_value *values; /* ends with name NULL; never NULL */
    bool write_as_read; /* CMSIS-SVD writeConstraint writeAsRead ("only the last read value can
                           be written"): a write must give the field the value read; its mask
                           classes are regc_as_read_classes() of its attribute's */
};

/*
 * Rule expressions in postfix: each op pops its operands and pushes one value.
 * regc writes every rule of the generated tables in this form (the compiler's
 * parser is the only one); evaluating one never needs more than
 * REGC_RULE_STACK values on the stack (regc refuses deeper expressions).
 */
#define REGC_RULE_STACK 64
enum regc_op {
    REGC_OP_END,   /* ends the list */
    REGC_OP_CONST, /* push value */
    REGC_OP_FIELD, /* push the field at (lsb, width) */
    REGC_OP_NOT,
    REGC_OP_AND,
    REGC_OP_OR,
    REGC_OP_IMPLIES,
    REGC_OP_EQ,
    REGC_OP_NE,
    REGC_OP_LT,
    REGC_OP_LE,
    REGC_OP_GT,
    REGC_OP_GE
};

struct regc_rule_op {
    enum regc_op op;
    uint8_t lsb, width; /* REGC_OP_FIELD */
    uint64_t value;     /* REGC_OP_CONST */
};

/* <rule>: a constraint every written value must meet. */
struct regc_rule {
    const char *name;
    const char *expr;    /* as written in the spec */
    const char *message; /* the manual's wording */
    const struct regc_rule_op *ops; /* postfix, ends with REGC_OP_END; what the runtime evaluates */
    struct regc_cite cite;
};

/* One concrete copy of a register: instance and array index, and its address. */
struct regc_addr {
    const char *instance; /* instance name, NULL when the block has none */
    int index;            /* array index, -1 when not an array; REGC_ADDR_END ends the list */
    uint64_t address;     /* MSR index, config-space offset or MMIO offset */
};
#define REGC_ADDR_END (-2)

struct regc_reg {
    const char *name;         /* base name, without {..} */
    const char *written_name; /* as the manual prints it */
    enum regc_space space;
    uint8_t width, size; /* implemented width and access size, bits */
    uint64_t reset;
    const char *desc;
    bool is_array;
    unsigned first, count; /* array indices first .. first+count-1 */
    uint64_t stride; /* 0 for an array the manual does not space evenly: see addrs */
    const struct regc_addr *addrs; /* every concrete copy; ends with index REGC_ADDR_END */
    struct regc_cite cite;
    const struct regc_field *fields; /* by lsb or as written; ends with name NULL */
    const struct regc_rule *rules;   /* ends with name NULL */
    /* masks per class of attr.h, bits 0..size-1 (bits from width to size are mbz) */
    uint64_t mbz, ignored, ro, wo, w1c, w1s, writable;
};

/* <set>: a further field value an event needs. */
struct regc_set {
    const char *reg; /* register (base name) of the block; NULL: the event's own */
    const char *field;
    uint64_t value;
};

struct regc_event {
    const char *name; /* full: "EVENT_MSG.DOORBELL_RCVD" */
    const char *reg, *field, *umask_field;
    uint64_t code;
    bool has_umask;
    uint64_t umask;
    bool combine_or;   /* the umask's bits select sub-events, which a umask sums (combine="or");
                          false: the umask is an enumeration, matched exactly */
    uint64_t counters; /* bit i: array element i may count it; 0: any */
    const char *desc;
    const struct regc_set *sets; /* ends with field NULL */
    const char *const *filters;  /* the box filters it needs set, "REG.field" of the block's
                                    pmon filters; ends with NULL; NULL: none */
    const char *perfmon;         /* Intel perfmon's EventName, perf's alias: "UNC_U_EVENT_MSG.
                                    DOORBELL_RCVD"; NULL when the spec gives none */
    const char *const *unmodelled_filters; /* filters it needs that the spec does not model:
                                              names of the block's pmon unmodelled_filters;
                                              ends with NULL; NULL: none */
};

enum regc_overflow { REGC_OVF_WRAP, REGC_OVF_STOP };
/* Count directions; REGC_DIR_NONE ends a list of struct regc_count_dir. */
enum regc_direction { REGC_DIR_NONE, REGC_DIR_UP, REGC_DIR_DOWN, REGC_DIR_UP_DOWN };
enum regc_preload { REGC_PRELOAD_2W_MINUS_N, REGC_PRELOAD_2W_MINUS_1_MINUS_N };
enum regc_clear { REGC_CLEAR_NONE, REGC_CLEAR_W1C, REGC_CLEAR_WRITE0, REGC_CLEAR_REGISTER };

struct regc_rdpmc {
    const char *processor;
    int first;
    bool high_zero;
};

/* A value of a counters group's direction field and the direction it chooses. */
struct regc_count_dir {
    enum regc_direction dir; /* REGC_DIR_NONE ends the list */
    uint64_t value;          /* the field's value, not shifted */
};

/* <counters>: element i of 'control' drives element i of 'counter'. Role names or NULL. */
struct regc_counters {
    const char *kind; /* "general" or "fixed" */
    const char *control, *counter, *count_field;
    unsigned width;
    enum regc_overflow overflow;
    const char *wrap_field, *enable, *reset, *pmi, *edge, *invert, *threshold, *event, *umask;
    const char *direction_field; /* chooses up/down counting; NULL: the counters count up */
    const struct regc_count_dir *directions; /* NULL, or the direction field's values */
    enum regc_preload preload;
    bool freeze_on_overflow;
    const struct regc_rdpmc *rdpmc; /* ends with processor NULL */
    bool has_status_first; /* false: box-status bit i is array index i (fixed counters: none) */
    unsigned status_first; /* else the box-status bit of element 'first'; the next ones follow */
};

struct regc_box_control {
    const char *reg, *freeze, *freeze_enable, *reset_counters, *reset_controls, *enable;
};

struct regc_box_status {
    const char *reg, *overflow;
    enum regc_clear clear;
    const char *clear_reg, *clear_field;
};

/* How a filter field's value selects traffic (regspec <filter match=>). */
enum regc_filter_match {
    REGC_FILTER_SET,     /* the sources say not how: it must be written (non-zero) */
    REGC_FILTER_MASK,    /* one bit per value of the traffic attribute (C-Box cache-line state) */
    REGC_FILTER_EQUAL,   /* the attribute equals the value (C-Box opcode) */
    REGC_FILTER_AT_LEAST /* the attribute is at least the value (PCU frequency band) */
};

/* A box filter: a field of a filter register, what it selects and the kernel's format name. */
struct regc_filter {
    const char *reg, *field;       /* NULL reg ends a list */
    enum regc_filter_match match;
    const char *traffic;           /* the traffic attribute it selects on ("state"); NULL: none */
    const char *perf;              /* the kernel's sysfs format name ("filter_state"); NULL */
    const char *example;           /* a value for messages ("0x1f") */
    const char *desc;              /* what the value means, with the source's words */
};

/*
 * A filter the sources say events need, which the spec does not model (regspec
 * <unmodelled-filter>): its registers are not described, or live in another block, so libregrt
 * can neither program nor check it and refuses such an event unless told to count without it.
 */
struct regc_unmodelled_filter {
    const char *name; /* NULL ends a list */
    const char *what; /* the filter as the sources name it, with its registers */
    const char *desc; /* NULL */
};

struct regc_pmon {
    const struct regc_counters *counters;       /* ends with control NULL */
    const struct regc_box_control *box_control; /* NULL when none */
    const struct regc_box_status *box_status;   /* NULL when none */
    const struct regc_filter *filters;          /* ends with reg NULL; NULL: none */
    const struct regc_unmodelled_filter *unmodelled_filters; /* ends with name NULL; NULL: none */
};

struct regc_block {
    const char *name, *title, *desc;
    const struct regc_instance
        *instances;                  /* ends with name NULL; empty: one copy, absolute addresses */
    const struct regc_reg *regs;     /* ends with name NULL */
    const struct regc_event *events; /* ends with name NULL */
    const struct regc_pmon *pmon;    /* NULL when none */
};

struct regc_global_control {
    const char *block, *reg, *freeze, *unfreeze, *enable, *freeze_on_overflow, *pmi_core, *wake,
        *reset;
    const char *select;           /* bit i picks counter i for freeze, unfreeze, reset (7100) */
    const char *const *pmi_cores; /* NULL, or one-bit fields ending NULL: field i routes to core i */
};

struct regc_box_overflow {
    const char *block, *field, *instance;
    const char *counters; /* a <counters> control: the bit reports that group only; NULL: the
                             block's groups no other entry names */
};

struct regc_global_status {
    const char *block, *reg;
    enum regc_clear clear;
    const char *clear_reg, *clear_field;
    const struct regc_box_overflow *boxes; /* ends with block NULL */
};

struct regc_pmon_global {
    const struct regc_global_control *control; /* NULL when none */
    const struct regc_global_status *status;   /* NULL when none */
};

/*
 * <metric> (docs/regspec.md, "Metrics"): a value derived from counts, shown
 * as formula x scale in 'unit'. The formula is in postfix ('ops'); regc/metric.h
 * evaluates it. Issue 28.
 */
enum regc_mop {
    REGC_MOP_END,     /* ends the list */
    REGC_MOP_NUM,     /* push 'value' */
    REGC_MOP_EVENT,   /* push the count of events[term] */
    REGC_MOP_SECONDS, /* push the seconds the counts were taken over */
    REGC_MOP_ADD,     /* a b -> a + b */
    REGC_MOP_SUB,
    REGC_MOP_MUL,
    REGC_MOP_DIV      /* a b -> a / b; NaN when b is 0 */
};

/* The evaluation stack of a metric: regc refuses a formula that needs more (metric-syntax). */
#define REGC_METRIC_STACK 64

struct regc_metric_op {
    enum regc_mop op;
    double value;  /* REGC_MOP_NUM */
    unsigned term; /* REGC_MOP_EVENT */
};

/* An event a metric names: BLOCK[INSTANCE]:EVENT, as in regctl's event syntax. */
struct regc_metric_event {
    const char *block;    /* NULL ends the list */
    const char *instance; /* NULL: every instance of the block, summed */
    const char *event;    /* full name, "CAS_COUNT.RD" */
    const char *text;     /* as written in the formula */
    const char *settings; /* ",[REG.]FIELD=0xVALUE"... as regctl's events take them; NULL: none */
};

struct regc_metric {
    const char *name, *formula, *unit, *desc;
    double scale;
    const struct regc_metric_event *events; /* ends with block NULL */
    const struct regc_metric_op *ops;       /* ends with REGC_MOP_END */
    struct regc_cite cite;
};

struct regc_spec {
    const char *name, *prefix, *title, *version;
    const struct regc_source *sources;          /* ends with id NULL */
    const struct regc_block *blocks;            /* ends with name NULL */
    const struct regc_pmon_global *pmon_global; /* NULL when none */
    const struct regc_cpu *cpus; /* ends with vendor NULL; NULL or empty: not known */
    const struct regc_metric *metrics; /* ends with name NULL; NULL: none */
};

#ifdef __cplusplus
}
#endif

#endif
