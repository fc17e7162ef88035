/*
 * regc/perf.h - counting and sampling through the kernel's perf_event PMUs.
 *
 * A PMU is read from sysfs (<root>/bus/event_source/devices/<pmu>/: 'type',
 * the files of 'format/' such as "config:0-7" or "config1:0-31", 'events/'); a config
 * is built from named terms by those formats; regc_perf_check_counters()
 * compares a spec's control fields with the kernel's format and names both
 * on a mismatch; regc_perf_config() turns a counter control value (and the
 * settings of the box's filter registers) into config/config1/config2.
 * Events are opened in groups (PERF_FORMAT_GROUP on the leader):
 * regc_perf_group_read() costs one read() per group per sample. A sampled
 * event (a sample_period) has a ring buffer whose records count its
 * overflows (regc_perf_event_overflows()).
 * The "software" PMU falls back to PERF_TYPE_SOFTWARE when sysfs lacks it.
 *
 * regc_pmon_perf_event() says what a monitoring session (regc/pmon.h) on a
 * device of the perf backend opened for an event: docs/monitoring.md,
 * "Through perf_event".
 * Functions return 0 or -errno with a message in 'err' (may be NULL).
 */
#ifndef REGC_PERF_H
#define REGC_PERF_H

#include <stdbool.h>
#include <sys/types.h>

#include "regc/pmon.h"
#include "regc/regc.h"

#ifdef __cplusplus
extern "C" {
#endif

struct regc_perf_pmu;   /* private to runtime/perf.c */
struct regc_perf_group; /* private to runtime/perf.c */

/* sysfs_root NULL: $REGC_SYSFS_ROOT, else /sys. Caller releases with regc_perf_pmu_close. */
REGC_API int regc_perf_pmu_open(struct regc_perf_pmu **out, const char *sysfs_root,
                                const char *name, char *err, size_t errlen);
REGC_API void regc_perf_pmu_close(struct regc_perf_pmu *p);
REGC_API uint32_t regc_perf_pmu_type(const struct regc_perf_pmu *p);
/* The name it was opened by ("uncore_cbox_0"). Borrowed; valid until regc_perf_pmu_close. */
REGC_API const char *regc_perf_pmu_name(const struct regc_perf_pmu *p);

/* The format of term 'name': which config word (0: config, 1: config1, 2: config2) and its bits
 * there. */
REGC_API int regc_perf_pmu_format(const struct regc_perf_pmu *p, const char *name, unsigned *word,
                                  uint64_t *mask);

struct regc_perf_term {
    const char *name; /* a format name: "event", "umask", "edge", "inv", "thresh"... */
    uint64_t value;
};

/* Sets config[0..2] from terms; -EINVAL when a term is unknown to the PMU or its value does not
 * fit. */
REGC_API int regc_perf_encode(const struct regc_perf_pmu *p, const struct regc_perf_term *terms,
                              size_t n, uint64_t config[3], char *err, size_t errlen);

/* The config of a sysfs-listed event (events/<name>, "event=0x00,umask=0x1"). */
REGC_API int regc_perf_event_config(const struct regc_perf_pmu *p, const char *event,
                                    uint64_t config[3], char *err, size_t errlen);

/*
 * regc_perf_check_counters - do the control fields of counters 'c' of block
 * 'b' (event, umask, edge, invert, threshold roles) sit where the kernel's
 * format puts "event", "umask", "edge", "inv", "thresh" (the field's bits the
 * format's lowest ones: "config:0-7,21" holds an 8-bit event field and its
 * extension bit)? 0, or -EINVAL naming the spec field and the kernel format.
 */
REGC_API int regc_perf_check_counters(const struct regc_perf_pmu *p, const struct regc_block *b,
                                      const struct regc_counters *c, char *err, size_t errlen);

/* A field value for a register of the box other than the counter's control: a filter, a packet
 * match or mask register. */
struct regc_perf_setting {
    const struct regc_reg *reg;
    const struct regc_field *field;
    uint64_t value; /* the field's value, not shifted */
};

/*
 * regc_perf_config - the perf_event config of counter control value 'ctl'
 * of counters group 'c' of block 'b', with 'n' filter settings.
 *
 * config: the control's bits, less those the kernel sets or never uses (the
 * group's enable, reset, PMI and wrap fields): the kernel's uncore drivers
 * write config, plus the enable bit, into the control register as it is
 * (linux arch/x86/events/intel/uncore_snbep.c, snbep_uncore_msr_enable_event).
 * Every bit left must lie in one of the PMU's "config:" formats, or the
 * kernel would drop it and count another event: -EINVAL naming the field. A
 * format that overlaps a narrower one claims no bits (the kernel's PCU
 * 'occ_edge' is "config:14-51"). A fixed counter's config is event=0xff
 * (UNCORE_FIXED_EVENT in the kernel's uncore.h).
 *
 * config1, config2: a setting's register goes where the PMU's formats whose
 * name starts with a word of the register's name ("filter_", "match_",
 * "mask_") coincide with its fields, in config1 or config2, at bit 0 or 32
 * (the kernel puts a second filter register, a packet match's high half, in
 * the upper half). -EINVAL when the PMU has no such place or no format for
 * the field.
 *
 * 'terms' (may be NULL) receives the perf tool's terms for the same config,
 * "event=0x34,umask=0x3,filter_state=0x1f" (PMU/terms/); -ENOSPC when they
 * do not fit in 'termslen'.
 */
REGC_API int regc_perf_config(const struct regc_perf_pmu *p, const struct regc_block *b,
                              const struct regc_counters *c, uint64_t ctl,
                              const struct regc_perf_setting *sets, size_t n, uint64_t config[3],
                              char *terms, size_t termslen, char *err, size_t errlen);

/*
 * regc_perf_event_string - event e of box (b, inst) in perf's language:
 * "uncore_ubox/event=0x42,umask=0x8/", the PMU the kernel registers for the
 * box (inst NULL: the first) and the terms of regc_perf_config, built with
 * the kernel's formats for that PMU as libregrt knows them (runtime/
 * perf_lang.c: uncore_snbep.c, uncore_snb.c; not sysfs). regc_pmon_add
 * takes the string back as the same encoding. 0; -ENOENT when the spec's
 * PMUs have no known formats; -EINVAL when the kernel's formats cannot say
 * the event (a field they do not publish, a register no format reaches),
 * with the reason in err; -ENOSPC when buf is too small.
 */
REGC_API int regc_perf_event_string(const struct regc_spec *s, const struct regc_block *b,
                                    const struct regc_instance *inst, const struct regc_event *e,
                                    char *buf, size_t len, char *err, size_t errlen);

/* Groups. Caller releases with regc_perf_group_free (closes every event). */
REGC_API int regc_perf_group_new(struct regc_perf_group **out);
REGC_API void regc_perf_group_free(struct regc_perf_group *g);
/*
 * Opens one event (the first is the leader) on 'pid' (-1: all) and 'cpu'
 * (-1: any); disabled until regc_perf_group_enable. *index (may be NULL) gets
 * its position in group reads.
 */
REGC_API int regc_perf_group_add(struct regc_perf_group *g, const struct regc_perf_pmu *p,
                                 const uint64_t config[3], pid_t pid, int cpu, unsigned *index,
                                 char *err, size_t errlen);
/*
 * The same with a sample_period: the event overflows every 'period' events,
 * and each overflow leaves a record in a ring buffer mapped for it. The
 * kernel's uncore PMUs refuse any sample_period (EINVAL; uncore.c
 * uncore_pmu_event_init: "Sampling not supported yet"): the message says so.
 */
REGC_API int regc_perf_group_add_sampled(struct regc_perf_group *g, const struct regc_perf_pmu *p,
                                         const uint64_t config[3], uint64_t period, pid_t pid,
                                         int cpu, unsigned *index, char *err, size_t errlen);
/*
 * Overflows of sampled event 'index' since it was opened: the sample
 * records read from its ring buffer (consumed), plus the records the
 * kernel reports lost. -EINVAL when the event is not sampled.
 */
REGC_API int regc_perf_event_overflows(struct regc_perf_group *g, unsigned index, uint64_t *total);
REGC_API int regc_perf_group_enable(struct regc_perf_group *g);
REGC_API int regc_perf_group_disable(struct regc_perf_group *g);
/* One read() for the whole group: values[i] for event i, n at most the group's size. */
REGC_API int regc_perf_group_read(struct regc_perf_group *g, uint64_t *values, unsigned n);
/* The group's time enabled and time running (ns) at its last regc_perf_group_read: running is
 * less when the kernel multiplexed it off the PMU's counters; 0 and 0 before a read. */
REGC_API void regc_perf_group_times(const struct regc_perf_group *g, uint64_t *enabled,
                                    uint64_t *running);
/* The count of one event (one read() of that event). */
REGC_API int regc_perf_event_read(struct regc_perf_group *g, unsigned index, uint64_t *value);
REGC_API unsigned regc_perf_group_size(const struct regc_perf_group *g);

/* A message for a perf_event_open failure: names kernel.perf_event_paranoid's value for
 * EACCES/EPERM. */
REGC_API const char *regc_perf_strerror(int rc, char *buf, size_t len);

/* ---- a monitoring session on the perf backend (runtime/pmon_perf.c) */

/* What the session opened for one event. */
struct regc_pmon_perf {
    char pmu[64];           /* "uncore_cbox_0" */
    uint32_t type;          /* perf_event_attr.type: the PMU's sysfs 'type' */
    uint64_t config[3];     /* config, config1, config2 */
    char terms[256];        /* the same for the perf tool: "event=0x34,umask=0x3" */
    uint64_t sample_period; /* 0: counting */
    int cpu;                /* perf_event_open's cpu (the kernel moves uncore events to the
                               package's reader CPU, the PMU's sysfs 'cpumask') */
    unsigned group;         /* events with the same group are read with one read() */
    unsigned long group_reads; /* read() calls on the group so far (one per poll or sample) */
    bool leader;            /* the group's first event */
    bool open;              /* false in a dry run: built, not opened */
};

/*
 * regc_pmon_perf_event - what session 'p' opened for its event 'i', after
 * regc_pmon_start on a device of the perf backend. 0; -ENOENT when i is out
 * of range or the session has not started through perf.
 */
REGC_API int regc_pmon_perf_event(const regc_pmon_session *p, unsigned i,
                                  struct regc_pmon_perf *out);
/* The same for box k of event i (0 .. its regc_pmon_info nboxes - 1): the event of its PMU. */
REGC_API int regc_pmon_box_perf_event(const regc_pmon_session *p, unsigned i, unsigned k,
                                      struct regc_pmon_perf *out);

#ifdef __cplusplus
}
#endif

#endif
