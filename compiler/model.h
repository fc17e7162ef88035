/*
 * model - the plain C model of a regspec (docs/regspec.md).
 *
 * xmlload.c builds it from XML (the only place that sees libxml2); check.c
 * validates it, resolves every by-name reference into the pointers marked
 * "resolved by check", and completes it (implicit gap fields); context.c
 * turns a checked model into the data tree the templates render.
 *
 * Everything here, strings included, is owned by the arena the loader was
 * given; valid until arena_release(). Optional strings are NULL when absent.
 * Lists are arrays of pointers with a count ('items', 'nitems'), in the order
 * the spec wrote them. Every object carries the position it was written at.
 */
#ifndef REGC_MODEL_H
#define REGC_MODEL_H

#include "diag.h"
#include "regc/attr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct expr; /* a parsed rule expression, see expr.h */

enum model_space { SPACE_MSR, SPACE_PCI, SPACE_MMIO };

/* Where a fact comes from: src="id" table= page= section= cite= */
struct model_cite {
    const char *src;                   /* <source> id, or NULL when nothing is cited */
    const char *table, *page, *section, *cite;
    const struct model_source *source; /* resolved by check */
    struct srcpos pos;
};

/* <source id= title= ref= rev= date= url=> */
struct model_source {
    const char *id, *title, *ref, *rev, *date, *url, *desc;
    struct srcpos pos;
};

/* Which accesses a named value applies to (SVD <usage>); USAGE_ANY for regspec values. */
enum model_usage { USAGE_ANY, USAGE_READ, USAGE_WRITE };

/* The SVD additions of a named value, apart as a field's are: model_value_ext(). */
struct model_value_ext {
    uint64_t dont_care;     /* bits written 'x' ("#1x0"): any value matches; 0 in 'value' */
    enum model_usage usage; /* the enumeration set it came from */
};

/* <value name= value= undefined= desc=> */
struct model_value {
    /* members ordered by size: no padding (a spec holds millions of these) */
    const char *name;
    uint64_t value;
    const char *desc;
    struct model_value_ext *ext; /* SVD additions, NULL when none: model_value_ext() */
    struct srcpos pos;
    bool undefined; /* the manual calls this encoding undefined or reserved */
};

/*
 * What a write does beyond storing, and what a read does (SVD
 * modifiedWriteValues and readAction), as the file says. The attribute
 * ('access') is the class of regc/attr.h that gives the safe-write
 * semantics: oneToClear RW1C, oneToSet RW1S (WO without reads),
 * oneToToggle RW1T, zeroToClear RW0C, zeroToSet RW0S, zeroToToggle RW0T,
 * clear RWAC, set RWAS; writeOnce WOO, read-writeOnce RWO. A read effect
 * has no class: 'access_text' shows it ("read-only, readAction clear").
 */
enum model_write_effect {
    WRITE_STORES,            /* no modifiedWriteValues, or "modify" */
    WRITE_ONE_TO_CLEAR, WRITE_ONE_TO_SET, WRITE_ONE_TO_TOGGLE,
    WRITE_ZERO_TO_CLEAR, WRITE_ZERO_TO_SET, WRITE_ZERO_TO_TOGGLE,
    WRITE_CLEAR, WRITE_SET,  /* any write clears / sets the field */
    WRITE_EFFECT__COUNT
};
enum model_read_effect { READ_NONE, READ_CLEAR, READ_SET, READ_MODIFY, READ_MODIFY_EXTERNAL,
                         READ_EFFECT__COUNT };

/* <writeConstraint>: what a write may put in the field */
enum model_wc_kind { WC_NONE, WC_WRITE_AS_READ, WC_ENUMERATED, WC_RANGE };
struct model_write_constraint {
    enum model_wc_kind kind;
    uint64_t min, max; /* WC_RANGE */
};

/*
 * One <enumeratedValues> set of an SVD field as svdconv names its typedef enum (-t cmsis-enum):
 * the set's <name> (a derived set without one: its base's, as svdconv's SvdItem::CopyItem
 * takes it) and its own headerEnumName (not a base's: SvdEnumContainer::CopyItem leaves it
 * out). Which of the field's values are in it: cmsis_enum.c.
 */
struct model_enum_set {
    const char *name, *header_enum; /* NULL when none */
    enum model_usage usage;         /* USAGE_ANY: read-write, or no <usage> */
    const char *derived_from;       /* derivedFrom (derived-from=) as written, or NULL */
    struct srcpos derived_pos;      /* of its text */
    struct srcpos pos;
    /* what derived_from names in the model (model_tree.h's model_link_enum_bases): the set and
       its field, NULL when it names none; -t svd writes the set as derived only when that base
       gives it what it holds (context_svd.c) */
    const struct model_enum_set *base;
    const struct model_field *base_field;
    /* another set's base: a name it answers to leads there, so -t svd writes it also where it is
       its own base's (a reader of the file finds it by it only then) */
    bool is_base;
};

/*
 * The memory-mapped (SVD) additions of a field, apart so that a regspec field
 * (millions of them in a large spec) does not carry them: 'ext' of a field is
 * NULL until model_field_ext_set() first allocates it; readers use
 * model_field_ext(), which gives all-zero members for a field without one.
 */
struct model_field_ext {
    const char *enum_name; /* the enumeration's name (headerEnumName or name), or NULL */
    struct model_enum_set **sets; /* an SVD field's sets as written, 'nsets' of them */
    size_t nsets;
    struct model_value **defaults; /* isDefault: the name of every value of its sets not listed;
                                      one per usage (model_field_add_default), 'ndefaults' */
    size_t ndefaults;
    const char *derived_from;          /* as written */
    struct srcpos derived_pos;         /* of its text (a regspec's derived-from= value) */
    struct srcpos values_from;         /* a regspec's: the derived-from= (its own, or a set's)
                                          that gave it copies of its base's values (line 0: none) */
    /* a regspec's: the field derived_from names (xmlderive.c), or NULL */
    const struct model_field *base_field;
    const char *dim_of;                /* expanded from a dim list: the name as written ("CH%s") */
    struct model_write_constraint wc;  /* range and useEnumeratedValues are also rules of the
                                          register (svd_rules.c: FIELD_range, FIELD_values) */
    enum model_write_effect write_effect;
    enum model_read_effect read_effect;
    bool write_once; /* writeOnce, read-writeOnce: only the first write after reset acts */
    bool whole;      /* made for a register with no fields: all its bits */
    bool write_given; /* its modifiedWriteValues (write=) written, "modify" too: a derived
                         field that writes it keeps it, not its base's */
};

/* <field name= bits="HI:LO" access= reset= desc=>, also a <gap> or a gaps= fill */
struct model_field {
    /* members ordered by size (8-byte, then 4-byte, then bools): no padding */
    const char *name;
    const char *access_text;  /* as written */
    uint64_t reset;
    const char *desc;
    struct model_cite *cite; /* NULL when nothing is cited (most fields): see model_cite_keep() */
    struct model_value **values;
    size_t nvalues;
    struct model_reg *reg;   /* the register it belongs to */
    struct model_field_ext *ext; /* SVD additions, NULL when none: model_field_ext() */
    unsigned msb, lsb;
    enum regc_access access;  /* REGC_ACCESS_UNKNOWN when not a known spelling */
    struct srcpos pos;
    bool implicit; /* made from <gap> (why= in 'desc') or a gaps= rule */
    bool access_inherited; /* SVD: neither it nor its register wrote an <access>: its
                            * peripheral's (or device's), which -t svd writes there */
};

/* <rule name= expr=>message</rule> */
struct model_rule {
    const char *name;
    const char *expr_text;  /* as written */
    struct expr *expr;      /* parsed by the loader; NULL if it did not parse */
    const char *message;    /* the manual's wording, whitespace folded */
    struct model_cite *cite; /* NULL when nothing is cited: see model_cite_keep() */
    struct srcpos expr_pos; /* position of the first character of expr_text (col 0: unknown) */
    struct srcpos pos;      /* next to expr_pos: the two fill 24 bytes, no padding */
};

/* <at instance= address=> */
struct model_at {
    const char *instance_name;
    uint64_t address;
    const struct model_instance *instance; /* resolved by check */
    struct srcpos pos;
};

/* SVD's registerPropertiesGroup, as bits of a register's 'inherited' */
enum model_prop {
    MODEL_PROP_SIZE = 1,
    MODEL_PROP_ACCESS = 2,
    MODEL_PROP_PROTECTION = 4,
    MODEL_PROP_RESET = 8,
    MODEL_PROP_RESET_MASK = 16,
};
#define MODEL_PROPS_ALL 31

/*
 * The memory-mapped (SVD) additions of a register, apart as a field's are
 * (struct model_field_ext): NULL until model_reg_ext_set(); read through
 * model_reg_ext().
 */
struct model_reg_ext {
    uint64_t reset_mask;    /* bits whose reset is defined (resetMask) */
    const char *alternate;  /* alternateRegister (or alternateGroup as "GROUP"): may share
                             * its address with another register */
    const char *protection; /* s, n, p (SVD protection), or NULL */
    const char *display_name;
    const char *derived_from;      /* as written */
    struct srcpos derived_pos;     /* of its text (a regspec's derived-from= value) */
    /* a regspec's derived register: the register derived_from names (xmlderive.c); one that
     * writes fields (or gaps) of its own does not take its fields, where an SVD reader adds those
     * it does not name (-t svd writes it whole); NULL otherwise (an SVD file's) */
    const struct model_reg *base_reg;
    const char *dim_of;            /* expanded from a dim list: the name as written ("CH%s_CTL") */
    const char **index_names;      /* an array's dimIndex names, 'count' of them; NULL: numbers */
    struct model_cluster *cluster; /* innermost cluster it was written in, or NULL */
    const struct model_array_index *array_index; /* SVD <dimArrayIndex>, or NULL */
    bool has_reset_mask;
    bool taken; /* SVD: taken from the base by the derived cluster or peripheral it is in, not
                   written there (as a cluster's 'taken') */
    unsigned char inherited; /* model_prop bits it took from its peripheral (or the device),
                                neither it nor a cluster of its writing them: -t svd writes
                                them on the peripheral (block->reg_props); 0 for a regspec's */
};

/* <register name="NAME{HI-LO}" space= address= stride= width= size= reset= gaps=> */
struct model_reg {
    /* members ordered by size (8-byte, then 4-byte, then bools): no padding */
    const char *name;         /* base name, without the array suffix */
    const char *written_name; /* as written, e.g. "M_MSR_PMU_CNT_CTL{5-0}" */
    uint64_t stride;          /* 0 for an irregular array (addrs) */
    uint64_t *addrs;          /* irregular array: each element's address, lowest index first
                               * (addrs[0] == address); NULL otherwise */
    size_t naddrs;
    uint64_t address;         /* element 0, relative to the instance base when the block has instances */
    uint64_t reset;           /* when !has_reset, check sets it from the fields */
    const char *gaps;         /* gaps= in force (own, else block's, else spec's), or NULL */
    const char *desc;
    struct model_cite cite;
    struct model_field **fields; /* as written (an SVD file's too), implicit gap fields among
                                  * them: model_place_gaps() */
    size_t nfields;
    struct model_rule **rules;
    size_t nrules;
    struct model_at **ats;
    size_t nats;
    struct model_block *block;
    struct model_reg_ext *ext; /* SVD additions, NULL when none: model_reg_ext() */
    unsigned first, count;    /* array indices first .. first+count-1 (first 0, count 1 if not an array) */
    enum model_space space;
    unsigned width;           /* implemented bits */
    unsigned size;            /* access size in bits (32 or 64) */
    struct srcpos pos;
    bool is_array;
    bool descending;          /* written {HI-LO} rather than {LO-HI} */
    bool has_reset;
};

/* SVD <cluster>: a group of registers at an offset, kept as written; its
 * registers are in the block's list, named CLUSTER_REG and placed at
 * cluster offset + register offset. */
struct model_cluster {
    const char *name;          /* as the registers' names use it */
    const char *written_name;  /* "CH[%s]", "CH%s" or "CH" */
    const char *desc, *header_struct, *alternate, *derived_from;
    struct srcpos derived_pos; /* of derived_from's text (a regspec's derived-from= value) */
    uint64_t address;          /* relative to the block (parents' offsets added) */
    unsigned count;            /* dim (1 when not an array) */
    uint64_t stride;           /* dimIncrement */
    struct model_cluster *parent;
    /* SVD: a copy svdconv does not call modified (a derived cluster that writes no register,
       cluster, headerStructName or size of its own; a cluster a derived one took from its
       base): the cluster whose CMSIS type it uses, and whose macros stand for its own; NULL:
       a type of its own */
    const struct model_cluster *type_of;
    /* a regspec cluster of own-type="false" (-t svd writes it with nothing in it) holding a
       register or cluster of its own that is not what its base gives (model_cluster_differs):
       that one, as "register 'R'" or "cluster 'C'"; else NULL */
    const char *differs;
    const struct model_array_index *array_index; /* SVD <dimArrayIndex> of its own, or NULL */
    struct srcpos pos;
    bool base_type; /* a regspec's own-type="false": type_of is its base's, once bases resolve */
    /* SVD: taken from the base by the derived cluster or peripheral (one that writes registers)
       it is in (svd_derive.c), not written there: -t svd leaves it to the reader to take again,
       -t regspec derives it */
    bool taken;
};

/* <dimArrayIndex> of an SVD register, cluster or peripheral array: an enumeration naming its
 * indices */
struct model_array_index {
    const char *enum_name; /* headerEnumName, or NULL */
    struct model_value **values;
    size_t nvalues;
    struct srcpos pos; /* a regspec's <array-index> (col 0: unknown) */
};

/* <addressBlock offset= size= usage=> of an SVD peripheral */
struct model_addr_block {
    uint64_t offset, size;
    const char *usage, *protection;
    struct srcpos pos;
};

/* <interrupt name= value=> of an SVD peripheral */
struct model_interrupt {
    const char *name, *desc;
    uint64_t value;
    struct srcpos pos;
};

/* <set register= field= value=> */
struct model_set {
    const char *reg_name;   /* NULL: the event table's register */
    const char *field_name;
    uint64_t value;
    const struct model_reg *reg;     /* resolved by check */
    const struct model_field *field; /* resolved by check */
    struct srcpos pos;
};

/* <event name= code= umask= counters=> or <sub name= umask= counters=> */
struct model_event {
    const char *name;         /* own name: "EVENT_MSG", or "DOORBELL_RCVD" for a sub */
    const char *full_name;    /* "EVENT_MSG" or "EVENT_MSG.DOORBELL_RCVD" */
    uint64_t code;            /* a sub's is its parent's */
    bool has_umask;
    uint64_t umask;
    bool has_counters;
    uint64_t counter_mask;    /* bit i: array index i of the control may count it; all when !has_counters */
    const char *counters_text;
    const char *perfmon;      /* perfmon's EventName (perf's alias), or NULL */
    bool combine_or;          /* combine="or" on the <event>: its umask bits select sub-events */
    const char **filters;     /* filters="REG.field ...": the box filters it needs set */
    size_t nfilters;
    const char **unmodelled;  /* unmodelled-filters="NAME ...": filters the spec does not model */
    size_t nunmodelled;
    const char *desc;
    struct model_cite cite;
    struct model_set **sets;  /* own <set>s only; a sub also inherits its parent's */
    size_t nsets;
    struct model_event **subs;
    size_t nsubs;
    struct model_event *parent;   /* NULL for an <event> */
    struct model_events *table;
    struct srcpos pos;
};

/* <events register= code-field= umask-field=> */
struct model_events {
    const char *reg_name, *code_field_name, *umask_field_name;
    const char *title, *desc;
    struct model_cite cite;
    struct model_event **events;
    size_t nevents;
    const struct model_reg *reg;            /* resolved by check */
    const struct model_field *code_field;   /* resolved by check */
    const struct model_field *umask_field;  /* resolved by check; NULL when none */
    struct model_block *block;
    struct srcpos pos;
};

/* <rdpmc processor= first= high-zero=> */
struct model_rdpmc {
    const char *processor;
    unsigned first;
    bool high_zero;
    struct model_cite cite;
    struct srcpos pos;
};

enum model_counter_kind { COUNTERS_GENERAL, COUNTERS_FIXED };
enum model_overflow { OVERFLOW_WRAP, OVERFLOW_STOP };
/* Count directions a direction field chooses, in the order of their attributes. */
enum model_direction { DIRECTION_UP, DIRECTION_DOWN, DIRECTION_UP_DOWN, DIRECTION_COUNT };
extern const char *const model_direction_attr[DIRECTION_COUNT]; /* "direction-up"... */

/* direction-up= and friends: the direction field's value for one direction. */
struct model_direction_value {
    bool given;
    uint64_t value;
};

/* A control-field role of <counters>: the name written, and the field check finds. */
struct model_role {
    const char *name;
    const struct model_field *field; /* resolved by check */
};

/* <counters kind= control= counter= count-field= width= overflow= ...> */
struct model_counters {
    enum model_counter_kind kind;
    const char *control_name, *counter_name;
    const struct model_reg *control, *counter; /* resolved by check */
    struct model_role count_field;             /* of the counter register; NULL name: whole register */
    unsigned width;
    enum model_overflow overflow;
    struct model_role wrap_field, enable, reset, pmi, edge, invert, threshold, event, umask;
    struct model_role direction_field; /* control field choosing up/down counting; NULL: up */
    struct model_direction_value directions[DIRECTION_COUNT];
    bool preload_minus_one;  /* preload="2^w-1-N" */
    bool has_status_first;   /* status-first= given */
    unsigned status_first;   /* box-status bit of the first counter (else bit i: array index i) */
    bool freeze_on_overflow;
    struct model_rdpmc **rdpmcs;
    size_t nrdpmcs;
    const char *desc; /* its <desc> */
    struct model_cite cite;
    struct srcpos pos;
};

/* <box-control register= freeze= freeze-enable= reset-counters= reset-controls= enable=> */
struct model_box_control {
    const char *reg_name;
    const struct model_reg *reg; /* resolved by check */
    struct model_role freeze, freeze_enable, reset_counters, reset_controls, enable;
    struct model_cite cite;
    struct srcpos pos;
};

enum model_clear { CLEAR_W1C, CLEAR_WRITE0, CLEAR_REGISTER, CLEAR_NONE };

/* <box-status register= overflow= clear= clear-register= clear-field=> */
struct model_box_status {
    const char *reg_name;
    const struct model_reg *reg; /* resolved by check */
    struct model_role overflow;
    enum model_clear clear;
    const char *clear_reg_name;  /* CLEAR_REGISTER */
    const struct model_reg *clear_reg;
    struct model_role clear_field;
    struct model_cite cite;
    struct srcpos pos;
};

/* <pmon> of a block */
/* <filter register= field= match= traffic= perf= example= desc=> */
struct model_filter {
    const char *reg_name, *field_name;
    const char *match;   /* "mask", "equal", "at-least", "set" */
    const char *traffic; /* the traffic attribute it selects on; NULL with match "set" */
    const char *perf, *example, *desc;
    const struct model_reg *reg;     /* resolved by check */
    const struct model_field *field; /* resolved by check */
    struct model_cite cite;
    struct srcpos pos;
};

/*
 * <unmodelled-filter name= what= desc=>: a filter the sources say an event needs, which the spec
 * does not model (its registers are not described, or live in another block); events that need
 * it say unmodelled-filters="NAME", and regctl refuses them unless told to count without it.
 */
struct model_unmodelled_filter {
    const char *name;
    const char *what; /* the filter as the sources name it, with its registers */
    const char *desc;
    struct model_cite cite;
    struct srcpos pos;
};

struct model_pmon {
    struct model_counters **counters;
    size_t ncounters;
    struct model_filter **filters;
    size_t nfilters;
    struct model_unmodelled_filter **unmodelled;
    size_t nunmodelled;
    struct model_box_control *box_control; /* NULL when none */
    struct model_box_status *box_status;   /* NULL when none */
    const char *desc;                      /* its <desc> */
    struct model_cite cite;
    struct srcpos pos;
};

/* <global-control block= register= freeze= unfreeze= enable= ...> */
struct model_global_control {
    const char *block_name, *reg_name;
    const struct model_block *block; /* resolved by check */
    const struct model_reg *reg;     /* resolved by check */
    struct model_role freeze, unfreeze, enable, freeze_on_overflow, pmi_core, wake, reset;
    struct model_role select;   /* select=: bit i picks counter i for freeze, unfreeze, reset */
    struct model_role *pmi_cores; /* pmi-core="F0 F1 ...": one-bit fields, field i routes to core i */
    size_t npmi_cores;            /* 0: pmi-core names one field (bit i: core i) */
    struct model_cite cite;
    struct srcpos pos;
};

/* <box-overflow block= field= instance= counters=> */
struct model_box_overflow {
    const char *block_name, *field_name, *instance_name;
    const char *counters_name;             /* counters= (a <counters control=>); NULL: the others */
    const struct model_block *block;       /* resolved by check */
    const struct model_field *field;       /* resolved by check (of the global status register) */
    const struct model_instance *instance; /* resolved by check; NULL: bit i is instance i */
    struct srcpos pos;
};

/* <global-status block= register= clear=> */
struct model_global_status {
    const char *block_name, *reg_name;
    const struct model_block *block;
    const struct model_reg *reg;
    enum model_clear clear;
    const char *clear_reg_name;
    const struct model_reg *clear_reg;
    struct model_role clear_field;
    struct model_box_overflow **boxes;
    size_t nboxes;
    struct model_cite cite;
    struct srcpos pos;
};

/* <pmon-global> */
struct model_pmon_global {
    struct model_global_control *control; /* NULL when none */
    struct model_global_status *status;   /* NULL when none */
    const char *desc;                     /* its <desc> */
    struct model_cite cite;
    struct srcpos pos;
};

/* <instance name= base= vendor= device= dev= func=> */
struct model_instance {
    const char *name;
    bool has_base;
    uint64_t base;
    bool has_pci;           /* vendor and device given */
    bool has_dev, has_func; /* dev=, func= given; absent: any slot (0 stored) */
    uint64_t vendor, device, dev, func;
    const char *desc;
    struct model_cite cite;
    struct model_block *block;
    unsigned index; /* position among the block's instances */
    /* ---- memory-mapped (SVD) additions: a peripheral */
    const char *derived_from, *alternate, *group, *version;
    struct srcpos derived_pos; /* of derived_from's text (a regspec's derived-from= value) */
    struct model_interrupt **interrupts;
    size_t ninterrupts;
    /* svdconv gives a derived peripheral a type of its own (a copy of its base's) when it writes
     * headerStructName, an addressBlock, size, prependToName or appendToName itself */
    bool own_type;
    const char *header_struct, *prepend, *append; /* its own headerStructName; prepend/appendToName
                                                     (its own, else its base's) */
    const char *dim_of; /* an element of a <dim> peripheral: its name as written ("UART[%s]"), one
                           pointer for the elements of one */
    const struct model_array_index *array_index; /* its <dimArrayIndex> (its own, not a base's;
                                                    one pointer for the elements), or NULL */
    struct srcpos pos;
};

/* The most elements an SVD <dim> (and a regspec <cluster count=>) gives an array. */
#define MODEL_DIM_MAX 65536
/* The largest interrupt number: CMSIS's IRQn_Type is an int. */
#define MODEL_IRQ_MAX 0x7FFFFFFF
/* The most priority bits an NVIC has: its priority registers hold 8 bits an interrupt. */
#define MODEL_NVIC_BITS_MAX 8

/* An SVD register in an <alternateGroup>: svdconv names it REG_GROUP in the CMSIS header. */
struct model_alt_group {
    const struct model_reg *reg;
    const char *group;
};

/* Register properties an SVD peripheral gives (a block's reg_props, type_of_props). */
struct model_periph_props {
    unsigned size;                   /* 0: not written */
    const char *access, *protection; /* NULL: not written */
    bool has_reset, has_reset_mask;
    uint64_t reset, reset_mask;
};

/* <block name= title= gaps=> */
struct model_block {
    const char *name, *title, *gaps, *desc;
    struct model_cite cite;
    struct model_instance **instances;
    size_t ninstances;
    struct model_reg **regs;
    size_t nregs;
    struct model_events **event_tables;
    size_t nevent_tables;
    struct model_pmon *pmon; /* NULL when the block has no <pmon> */
    /* ---- memory-mapped (SVD) additions: a peripheral's register set */
    bool names_qualified; /* C names carry the block: PREFIX_BLOCK_REG (spec->block_names) */
    const char *group, *header_struct, *prepend, *append;
    struct model_addr_block **addr_blocks;
    size_t naddr_blocks;
    struct model_cluster **clusters; /* every cluster, parents first */
    size_t nclusters;
    struct model_alt_group **alt_groups; /* its registers in an alternateGroup */
    size_t nalt_groups;
    /* SVD: a derived peripheral svdconv does not call modified whose registers take other
       access, reset or protection than its base's (its own <access>...): the peripheral whose
       CMSIS type its instances use (SvdPeripheral::GetHeaderTypeName), with no type or
       _Pos/_Msk macros of its own; model_instance_typed_as(type_of) is type_of. NULL: its own
       type */
    const struct model_instance *type_of;
    struct model_periph_props type_of_props; /* with type_of: the properties its peripheral
                                                writes that are not its base's (-t svd) */
    struct model_periph_props reg_props; /* SVD: the properties its peripheral (and the device)
                                            give its registers, for those that take them
                                            (model_reg_ext's 'inherited') */
    struct srcpos pos;
};

/* SVD <cpu> */
struct model_device_cpu {
    const char *name, *revision, *endian;
    bool mpu, fpu, fpu_dp, icache, dcache, vtor;
    bool has_nvic_bits;
    uint64_t nvic_prio_bits;
    bool vendor_systick;
    struct srcpos pos;
};

/* SVD <device>: what the file says about the part */
struct model_device {
    const char *vendor, *vendor_id, *name, *series, *version, *desc, *license;
    const char *header_prefix;   /* headerDefinitionsPrefix */
    unsigned address_unit_bits;  /* 8: byte addresses */
    unsigned width;              /* bus width in bits */
    struct model_device_cpu *cpu; /* NULL when none */
    struct srcpos pos;
};

/*
 * <cpu vendor= family= model= name= cite...>: a processor the spec applies to,
 * as CPUID leaf 1 reports it (display family and model, extended fields
 * folded in the way the SDM's CPUID description does).
 */
struct model_cpu {
    const char *vendor, *name; /* vendor: the 12-character CPUID vendor string */
    uint64_t family, model;
    struct model_cite cite;
    struct srcpos pos;
};

/*
 * <metric name= formula= unit= scale= desc= cite...>: a value derived from
 * the spec's events (docs/regspec.md, "Metrics"). The formula is parsed by
 * the loader (metric.h); check resolves its events into 'terms'.
 */
struct metric_node; /* see metric.h */

/* One distinct event a formula names: BLOCK[INSTANCE]:EVENT{,SETTING}. */
struct model_metric_term {
    const char *text;                      /* as written in the formula */
    const char *settings;                  /* ",[REG.]FIELD=0xVALUE"..., as regctl takes them; "" none */
    struct model_set **sets;               /* the settings, resolved by check (reg NULL: control) */
    size_t nsets;
    const struct model_block *block;       /* resolved by check */
    const struct model_instance *instance; /* resolved by check; NULL: every instance, summed */
    const struct model_events *table;      /* resolved by check */
    const struct model_event *event;       /* resolved by check */
};

struct model_metric {
    const char *name;
    const char *formula;       /* as written */
    struct srcpos formula_pos; /* position of its first character (col 0: unknown) */
    struct metric_node *expr;  /* parsed by the loader; NULL if it did not parse */
    const char *unit;          /* one of metric_units (metric.h), checked by check */
    struct srcpos unit_pos;    /* position of the unit's value */
    const char *scale_text;    /* as written; NULL: 1 */
    double scale;              /* the value shown is formula x scale */
    const char *desc;
    struct model_cite cite;
    struct model_metric_term **terms; /* filled by check, in the order first named */
    size_t nterms;
    struct srcpos pos;
};

/* <regspec name= prefix= version= title= gaps=> */
struct model_spec {
    const char *name, *prefix, *title, *gaps, *desc;
    unsigned version;
    struct model_source **sources;
    size_t nsources;
    struct model_block **blocks;
    size_t nblocks;
    struct model_pmon_global *pmon_global; /* NULL when none */
    struct model_cpu **cpus; /* the processors the spec applies to */
    size_t ncpus;
    struct model_metric **metrics; /* <metric>s, in the order written */
    size_t nmetrics;
    struct model_device *device; /* NULL unless read from an SVD file */
    bool block_names;     /* C names carry the block: PREFIX_BLOCK_REG_FIELD */
    const char **inputs;  /* every file read: the spec, then its includes (for depfiles) */
    size_t ninputs;
    struct srcpos pos;
};

/* Lookups by name; NULL when there is none. */
const struct model_block *model_find_block(const struct model_spec *s, const char *name);
const struct model_reg *model_find_reg(const struct model_block *b, const char *name);
/* The <unmodelled-filter> of pmon 'p' (may be NULL) named 'name', or NULL. */
const struct model_unmodelled_filter *model_find_unmodelled_filter(const struct model_pmon *p,
                                                                   const char *name);
const struct model_field *model_find_field(const struct model_reg *r, const char *name);
/* r's fields in another order than the model's (as written), e.g. by bit: a new array sorted
 * by 'cmp' (qsort's, over const struct model_field *); the caller frees it. */
const struct model_field **model_fields_sorted(const struct model_reg *r,
                                               int (*cmp)(const void *, const void *));
/* qsort's order of two const struct model_field *: by lsb (then line, then msb). */
int model_field_cmp_lsb(const void *pa, const void *pb);

struct model_gap {
    unsigned msb, lsb;
};
/* The ranges below 'width' none of the n fields 'v' (sorted by model_field_cmp_lsb) covers, low
 * to high, into 'out' (room for 33: 64 bits); returns how many. */
size_t model_find_gaps(const struct model_field **v, size_t n, unsigned width,
                       struct model_gap *out);
/*
 * Gives r the n implicit fields 'gaps' (low bits first), each placed among r's fields as the
 * register's order puts it: the fields are in the order their source lists them, which runs low
 * bits first when the first field lies below the last, high bits first when above, and
 * 'low_first' tells when there are fewer than two fields. Walking the fields in that order,
 * each gap goes before the first field not yet passed that lies above it (below it when high
 * bits first). The new array is owned by 'a'.
 */
struct arena;
void model_place_gaps(struct arena *a, struct model_reg *r, struct model_field *const *gaps,
                      size_t n, bool low_first);
const struct model_instance *model_find_instance(const struct model_block *b, const char *name);
const struct model_source *model_find_source(const struct model_spec *s, const char *id);
/* A copy of 'c' in 'a' for a field's or rule's 'cite', or NULL when it cites nothing (no
 * src, table, page, section or cite): most fields and rules cite nothing, and a cite is 64
 * bytes. */
struct model_cite *model_cite_keep(struct arena *a, const struct model_cite *c);

/* "OUTER.INNER": cluster 'c' by its parents' names and its own (a regspec's in= and cluster=). */
const char *model_cluster_path(struct arena *a, const struct model_cluster *c);

/*
 * The SVD additions of a register or a field. model_*_ext() only reads:
 * never NULL, all members zero when the object has none (a regspec model).
 * model_*_ext_set() is the one way to write them: it allocates them in 'a'
 * on first use and returns them for the caller to fill.
 */
const struct model_reg_ext *model_reg_ext(const struct model_reg *r);
struct model_reg_ext *model_reg_ext_set(struct arena *a, struct model_reg *r);
const struct model_field_ext *model_field_ext(const struct model_field *f);
struct model_field_ext *model_field_ext_set(struct arena *a, struct model_field *f);
const struct model_value_ext *model_value_ext(const struct model_value *v);
struct model_value_ext *model_value_ext_set(struct arena *a, struct model_value *v);

/* Field helpers. */
static inline unsigned model_field_width(const struct model_field *f)
{
    return f->msb - f->lsb + 1;
}
/* The space= word: "msr", "pci" or "mmio". */
const char *model_space_word(enum model_space sp);
/* All ones in the field's bits (at their position in the register). */
uint64_t model_field_mask(const struct model_field *f);
/* The largest value the field can hold (right-aligned). */
uint64_t model_field_max(const struct model_field *f);
/* The semantic class of the field's access (MBZ for an unknown spelling). */
enum regc_sem model_field_sem(const struct model_field *f);
bool model_field_is_reserved(const struct model_field *f);
/* Must the field be written as read (writeConstraint writeAsRead, regspec write-as-read)? */
bool model_field_write_as_read(const struct model_field *f);

/*
 * How many instances of 'b' from 'i' on are elements of one peripheral dim list (one dim_of,
 * each at a memory address, evenly apart and ascending): 0 when instance i is none; *stride gets
 * the step (0 for a list of one).
 */
size_t model_instance_list(const struct model_block *b, size_t i, uint64_t *stride);

/*
 * How many registers of 'b' from 'i' on are elements of one "%s" list, as CMSIS-SVD can write
 * one (one dim_of, one cluster, no array, evenly apart and ascending): 1 when register i is in
 * none; *incr gets the step (0 for a list of one). The loader checks a list's <array-index>
 * against this length and -t svd writes the list as one <dim>, so both see the same lists: two
 * SVD lists of one pattern ("CH%s" at 0x10 and at 0x40) stay two.
 */
size_t model_reg_list(const struct model_block *b, size_t i, uint64_t *incr);

/*
 * The peripheral whose CMSIS type instance 'in' uses: itself when it has a type of its own
 * (own_type), else its block's type_of, else its block's first instance (whose type the block's
 * is). -t cmsis names the pointer 'in' with that one's type.
 */
const struct model_instance *model_instance_typed_as(const struct model_instance *in);

/* Address of array element 'index' (0-based) in instance 'inst' (NULL: no instances). */
uint64_t model_reg_address(const struct model_reg *r, const struct model_instance *inst,
                           unsigned index);

/*
 * A register's attribute masks, one bit per register bit, from its fields'
 * attribute classes (regc/attr.h); 'mbz' also has the bits from the
 * implemented width up to the access size. The C header's _MASK macros and
 * the JSON export both take them from here.
 */
struct model_masks {
    uint64_t mbz, mb1, ignored, ro, wo, w1c, w1s, writable, keep, volatile_;
    uint64_t preserve; /* undescribed bits (the gap class): every write puts back what was read */
    uint64_t w0;       /* write 0 acts (RW0C, RW0S, RW0T): a safe write writes 1 */
    uint64_t w1t;      /* write 1 toggles (RW1T): a safe write writes 0 */
    uint64_t wany;     /* any write acts (RWAC, RWAS): no write leaves them unchanged */
    uint64_t once;     /* only the first write after reset has an effect (RWO, WOO) */
    uint64_t level; /* write-only bits that hold a state: the box control's freeze and
                       freeze-enable (runtime regc_field_level); kept as read, not pulsed */
};
struct model_masks model_reg_masks(const struct model_reg *r);

/*
 * An event table's control register, code field and unit-mask field:
 * resolved by check, else looked up by name; NULL when there is none.
 */
const struct model_reg *model_events_reg(const struct model_events *t);
const struct model_field *model_events_code_field(const struct model_events *t);
const struct model_field *model_events_umask_field(const struct model_events *t);

/* The unit mask of 'e' into *umask (a sub without one: its parent's); false when none. */
bool model_event_umask(const struct model_event *e, uint64_t *umask);
/* True when e's umask bits select sub-events (combine="or" on e or, for a sub, its event). */
bool model_event_combines(const struct model_event *e);

/* The field a <set> of table 't' names (NULL when there is none). */
const struct model_field *model_set_field(const struct model_events *t, const struct model_set *st);

/* 'v' placed in field 'f' (0 when there is no such field). */
uint64_t model_place(const struct model_field *f, uint64_t v);

/* Does 'st' (a <set> of table 't') set a field of the table's own control register? */
bool model_set_is_own(const struct model_events *t, const struct model_set *st);

/*
 * The control-register value that selects event 'e' of table 't': its code
 * and unit mask (a sub's own, else its parent's) placed in the table's code
 * and unit-mask fields, and the <set>s of the table's own register (the
 * parent's, then the event's). The header's _EV_ macros and the JSON
 * export's "encoding" both come from here.
 */
uint64_t model_event_encoding(const struct model_events *t, const struct model_event *e);

#endif
