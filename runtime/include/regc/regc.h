/*
 * regc/regc.h - libregrt: checked register access driven by descriptor tables.
 *
 * A device handle (regc_dev) binds a spec's descriptor tables (regc/desc.h)
 * to one backend (msr, pci, perf, sim; regc/backend.h) on one target CPU.
 * Registers are named by a reference (struct regc_ref) resolved from a path
 * such as "ubox.U_MSR_PMON_CTL0" or "cbox.cbox3.Cn_MSR_PMON_CTL[1]".
 *
 * regc_write() refuses, before any I/O, a value that sets a must-be-zero bit
 * (bits from the register's width up to its access size included), writes a
 * field value the spec marks undefined, or breaks one of the register's
 * rules; regc_rmw() follows the attribute table of regc/attr.h.
 *
 * Conventions: functions return 0 or -errno; lookups return a pointer or
 * NULL. After a failure regc_last_error() describes it in one line (the
 * register, field or rule, and the spec's source; for kernel errors what is
 * needed to fix it). The library never prints and never exits.
 */
#ifndef REGC_REGC_H
#define REGC_REGC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "regc/desc.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) && !defined(REGC_API)
#define REGC_API __attribute__((visibility("default")))
#elif !defined(REGC_API)
#define REGC_API
#endif

typedef struct regc_dev regc_dev; /* fields private to runtime/dev.c */
typedef struct regc_sim regc_sim; /* fields private to runtime/sim.c (regc/sim.h) */
struct regc_backend_ops;
struct regc_io;

/* One concrete copy of a register. Borrowed pointers into the spec's tables. */
struct regc_ref {
    const struct regc_spec *spec;
    const struct regc_block *block;
    const struct regc_instance *instance; /* NULL when the block has no instances */
    const struct regc_reg *reg;
    int index;        /* array index, -1 when not an array */
    uint64_t address; /* of this copy */
};

/* ---- lookups in descriptor tables (pure; no device needed) */

REGC_API const struct regc_block *regc_spec_block(const struct regc_spec *s, const char *name);
REGC_API const struct regc_reg *regc_block_reg(const struct regc_block *b, const char *name);
REGC_API const struct regc_field *regc_reg_field(const struct regc_reg *r, const char *name);
REGC_API const struct regc_instance *regc_block_instance(const struct regc_block *b,
                                                         const char *name);
REGC_API const struct regc_source *regc_spec_source(const struct regc_spec *s, const char *id);
REGC_API const struct regc_event *regc_block_event(const struct regc_block *b, const char *name);
/* The filter of b's pmon that 'ref' names ("REGISTER.field", as regc_event.filters); NULL: none. */
REGC_API const struct regc_filter *regc_block_filter(const struct regc_block *b, const char *ref);
/* The unmodelled filter of b's pmon named 'name' (as regc_event.unmodelled_filters); NULL: none. */
REGC_API const struct regc_unmodelled_filter *
regc_block_unmodelled_filter(const struct regc_block *b, const char *name);

/* Counts of a sentinel-ended list. */
/*
 * regc_event_encoding - what event 'e' of block 'b' needs in its own control
 * register (e->reg): *value holds its code in the code field, its umask in
 * the umask field when it has one, and every <set> on that register (its
 * own and, for a sub-event, its parent's); *mask the bits of those fields.
 * The same bits the generated header's <PREFIX>_EV_<BLOCK>_<EVENT> macro
 * holds. Settings on other registers (filters, sub-controls) are in e->sets
 * with a register name. 0, or -ENOENT when a register or field is missing.
 */
REGC_API int regc_event_encoding(const struct regc_block *b, const struct regc_event *e,
                                 uint64_t *value, uint64_t *mask);
REGC_API unsigned regc_block_ninstances(const struct regc_block *b);

/*
 * regc_ref_make - the copy of 'reg' in instance 'inst' (NULL when the block has
 * none) at array 'index' (-1 when not an array). 0, or -ENOENT when there is
 * no such copy.
 */
REGC_API int regc_ref_make(struct regc_ref *out, const struct regc_spec *s,
                           const struct regc_block *b, const struct regc_instance *inst,
                           const struct regc_reg *reg, int index);

/*
 * regc_counter_refs - the control and counter copies of counter 'i' (array
 * index; any value for single registers) of counters group 'c' of block 'b'
 * in instance 'inst' (NULL: the block's first, or none). For the pmon flows.
 * 0, or -ENOENT.
 */
REGC_API int regc_counter_refs(const struct regc_spec *s, const struct regc_block *b,
                               const struct regc_instance *inst, const struct regc_counters *c,
                               unsigned i, struct regc_ref *ctl, struct regc_ref *ctr);

/*
 * regc_counters_direction - the count direction that control value 'ctl' of
 * register 'r' (the group's control) chooses for counters group 'c':
 * REGC_DIR_UP when the group has no direction field, REGC_DIR_NONE when the
 * field holds a value that names no direction (an undefined encoding).
 */
REGC_API enum regc_direction regc_counters_direction(const struct regc_counters *c,
                                                     const struct regc_reg *r, uint64_t ctl);

/*
 * regc_counters_dir_value - the direction field's value (not shifted) that
 * makes group 'c' count in direction 'dir'. True and *value set; false when
 * the group cannot count that way (without a direction field: only up, with
 * *value 0).
 */
REGC_API bool regc_counters_dir_value(const struct regc_counters *c, enum regc_direction dir,
                                      uint64_t *value);

/*
 * regc_box_overflow_reports - whether entry 'bo' of global status 'gs'
 * reports overflows of counters group 'c' of block 'bo->block': an entry
 * naming counters= reports that group only; one without reports the block's
 * groups no other entry of 'gs' names.
 */
REGC_API bool regc_box_overflow_reports(const struct regc_global_status *gs,
                                        const struct regc_box_overflow *bo,
                                        const struct regc_counters *c);

/*
 * Levels: fields the manuals print WO that hold a state until written again.
 * A box control's frz is one (the E5 guides: "set Cn_MSR_PMON_BOX_CTL.frz to
 * 0" unfreezes the box, 329468-002 section 2.1.2 step f, page 17), and
 * so is frz_en; the kernel's uncore driver toggles frz by read-modify-write
 * of the box control (docs/sources/e5_2600v2.md item 1). libregrt treats
 * them as levels, not actions: the simulator reads them back as held,
 * regc_rmw() keeps them as read, and regctl reports them as states.
 */
enum regc_level {
    REGC_LEVEL_NONE = 0,
    REGC_LEVEL_BOX_FREEZE,        /* the box control's freeze role: 1 = the box is frozen */
    REGC_LEVEL_BOX_FREEZE_ENABLE, /* its freeze-enable role: 1 = a freeze signal freezes the box */
};

/* The level that field 'f' of register 'r' of block 'b' holds, or REGC_LEVEL_NONE. */
REGC_API enum regc_level regc_field_level(const struct regc_block *b, const struct regc_reg *r,
                                          const struct regc_field *f);

/* The bits of r's level fields, write-only in the manual's attribute (0: none). */
REGC_API uint64_t regc_level_mask(const struct regc_block *b, const struct regc_reg *r);

/*
 * regc_resolve - parse "BLOCK[.INSTANCE].REG[INDEX]" (INDEX also as "REG[i]";
 * the instance may be omitted for the first one). 0, or -ENOENT with a
 * message in 'err' (may be NULL) naming what was not found.
 */
REGC_API int regc_resolve(const struct regc_spec *s, const char *path, struct regc_ref *out,
                          char *err, size_t errlen);

/* Writes "block[.instance].REG[i]" into buf; returns buf. */
REGC_API const char *regc_ref_name(const struct regc_ref *r, char *buf, size_t len);

/* Writes a PCI locator's slot as lspci -s names it, "0e.1" (device in hex, two digits, then the
 * function), with "*" for a device or function the spec leaves open (REGC_PCI_ANY); returns buf. */
REGC_API const char *regc_pci_slot(const struct regc_pci_loc *loc, char *buf, size_t len);

/* ---- fields, values and rules */

REGC_API uint64_t regc_field_mask(const struct regc_field *f); /* in register position */
REGC_API uint64_t regc_field_get(const struct regc_field *f, uint64_t reg);
REGC_API uint64_t regc_field_put(const struct regc_field *f, uint64_t reg, uint64_t v);
REGC_API const struct regc_value *regc_field_value_named(const struct regc_field *f,
                                                         const char *name);
REGC_API const struct regc_value *regc_field_value_of(const struct regc_field *f, uint64_t v);
REGC_API enum regc_sem regc_field_sem(const struct regc_field *f);
/* All bits of the register that may be 1 in a write: 0..width-1 minus must-be-zero bits. */
REGC_API uint64_t regc_reg_allowed(const struct regc_reg *r);
/* The register's mask of bits whose fields belong to the given regc_mask_class set (a
 * write_as_read field's classes: regc_as_read_classes() of its attribute's). */
REGC_API uint64_t regc_reg_class_mask(const struct regc_reg *r, unsigned classes);
/* The register's mask of bits whose fields must be written as read (write_as_read); 0: none. */
REGC_API uint64_t regc_reg_as_read_mask(const struct regc_reg *r);

/*
 * regc_rule_eval - does 'value' meet rule 'ru' of register 'r'? Evaluates
 * the postfix ops regc wrote into the tables (ru->expr is only for people).
 * 0 with *holds set, or -EINVAL when the rule has no ops or they are
 * malformed (an operator short of operands, more than REGC_RULE_STACK
 * values, more than one left at the end).
 */
REGC_API int regc_rule_eval(const struct regc_reg *r, const struct regc_rule *ru, uint64_t value,
                            bool *holds);

/*
 * regc_check - may 'value' be written to 'r'? 0, or -EINVAL with a one-line
 * reason in 'msg' (may be NULL) naming the register, the field or rule, and
 * the spec's source (spec 's' may be NULL: no source then). 'name' is the
 * register name to print (NULL: r->name).
 */
REGC_API int regc_check(const struct regc_spec *s, const struct regc_reg *r, const char *name,
                        uint64_t value, char *msg, size_t msglen);

/*
 * regc_check_as_read - does 'value' give every field that must be written as read (write_as_read,
 * SVD's writeAsRead) the value it has in 'old', the value read from the register? 0, or -EINVAL
 * with a one-line reason in 'msg' (may be NULL) naming the register, the field, both values and
 * the spec's source, as regc_check() does. Pure; regc_write() and regc_rmw() call it after
 * regc_check(), with the value they read.
 */
REGC_API int regc_check_as_read(const struct regc_spec *s, const struct regc_reg *r,
                                const char *name, uint64_t old, uint64_t value, char *msg,
                                size_t msglen);

/* ---- devices */

/* One register access made by a backend, for traces and --dry-run. */
struct regc_io {
    enum regc_space space;
    int cpu;
    uint64_t address;
    unsigned size;                  /* access size in bits: 32 or 64 */
    const struct regc_pci_loc *pci; /* pci space: the device; NULL otherwise */
    const struct regc_ref *ref;     /* the register, for messages; may be NULL */
};

/* Called after every access (and instead of it under dry_run); rc is 0 or -errno. */
typedef void regc_trace_fn(void *ctx, bool write, const struct regc_io *io, uint64_t value, int rc);

struct regc_options {
    const char *backend;                /* "msr", "pci", "perf", "sim"; NULL: "sim" */
    const struct regc_backend_ops *ops; /* a custom backend; overrides 'backend' */
    int cpu;                            /* target CPU (msr, perf) */
    const char *msr_root;               /* NULL: $REGC_MSR_ROOT, else "/dev/cpu" */
    const char *sysfs_root;             /* NULL: $REGC_SYSFS_ROOT, else "/sys" */
    regc_sim *sim; /* sim backend: borrowed model; NULL: the device makes and owns one */
    bool dry_run;  /* touch nothing: report each access to 'trace'; reads return the reset value */
    regc_trace_fn *trace; /* NULL: none */
    void *trace_ctx;
    /* pci: take each device from the PCI buses of physical package 'package', as the kernel maps
       buses to packages through the U-Box's node id registers (E5-2600 and v2; docs/runtime.md),
       instead of the Nth in bus order ('cpu'); other specs: 'cpu' as before */
    bool by_package;
    int package;
};

struct regc_stats {
    unsigned long reads, writes, failures;
};

/*
 * regc_open - a device for 'spec' (borrowed; must outlive the device) on the
 * chosen backend. 0 and *out set (caller releases with regc_close), or -errno
 * with a message in 'err' (may be NULL). The msr backend opens nothing until
 * the first access (then one descriptor per CPU, cached).
 */
REGC_API int regc_open(regc_dev **out, const struct regc_spec *spec, const struct regc_options *opt,
                       char *err, size_t errlen);
REGC_API void regc_close(regc_dev *d);

/* The last failure's message; "" when none. Borrowed; valid until the next call on 'd'. */
REGC_API const char *regc_last_error(const regc_dev *d);

REGC_API int regc_read(regc_dev *d, const struct regc_ref *r, uint64_t *out);
/*
 * Checked: refused with -EINVAL before any I/O when regc_check() refuses. A register with
 * fields that must be written as read (regc_reg_as_read_mask() not 0) is then read, and the
 * write refused with -EINVAL when regc_check_as_read() refuses; a failed read is returned.
 */
REGC_API int regc_write(regc_dev *d, const struct regc_ref *r, uint64_t value);
/* No checks: the value goes to the backend as given (for tests of the hardware's refusal). */
REGC_API int regc_write_unchecked(regc_dev *d, const struct regc_ref *r, uint64_t value);

/*
 * regc_rmw - read, change the bits of 'mask' to those of 'value', write (checked, and the
 * fields that must be written as read against the value read: one read in all).
 * Bits outside 'mask' follow the attribute table: RW, RW-V and RO bits are
 * written back as read, W1C/W1S/W1T/WO bits are written 0 (never write back a
 * 1 that would clear, set or act), write-0-acts bits (RW0C, RW0S, RW0T) 1,
 * reserved and ignored bits 0; fields that must be written as read (write_as_read) as read.
 * *written (may be NULL) receives the value written.
 */
REGC_API int regc_rmw(regc_dev *d, const struct regc_ref *r, uint64_t mask, uint64_t value,
                      uint64_t *written);

/* The value rmw would write given what was read ('old'); pure. */
REGC_API uint64_t regc_rmw_value(const struct regc_reg *r, uint64_t old, uint64_t mask,
                                 uint64_t value);

REGC_API void regc_get_stats(const regc_dev *d, struct regc_stats *out);
/* The simulator behind a sim device (borrowed), or NULL for other backends. */
REGC_API regc_sim *regc_dev_sim(regc_dev *d);
REGC_API const struct regc_spec *regc_dev_spec(const regc_dev *d);
REGC_API const char *regc_dev_backend(const regc_dev *d);

/*
 * regc_getenv - the environment variable 'name' ($REGC_MSR_ROOT,
 * $REGC_SYSFS_ROOT, $REGC_LOCK_DIR, $XDG_RUNTIME_DIR), or NULL when it is
 * unset or empty, or when the program runs set-user-ID, set-group-ID or with
 * raised capabilities (secure_getenv(3)): the person who runs such a program
 * does not choose its files that way. The one place libregrt and regctl read
 * their environment. Borrowed from the environment.
 */
REGC_API const char *regc_getenv(const char *name);

#ifdef __cplusplus
}
#endif

#endif
