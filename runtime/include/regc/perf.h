/*
 * regc/perf.h - counting through the kernel's perf_event PMUs.
 *
 * A PMU is read from sysfs (<root>/bus/event_source/devices/<pmu>/: 'type',
 * the files of 'format/' such as "config:0-7" or "config1:0-31", 'events/'); a config
 * is built from named terms by those formats; regc_perf_check_counters()
 * compares a spec's control fields with the kernel's format and names both
 * on a mismatch. Events are opened in groups (PERF_FORMAT_GROUP on the
 * leader): regc_perf_group_read() costs one read() per group per sample.
 * The "software" PMU falls back to PERF_TYPE_SOFTWARE when sysfs lacks it.
 * Functions return 0 or -errno with a message in 'err' (may be NULL).
 */
#ifndef REGC_PERF_H
#define REGC_PERF_H

#include <sys/types.h>

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
 * format puts "event", "umask", "edge", "inv", "thresh"? 0, or -EINVAL naming
 * the spec field and the kernel format.
 */
REGC_API int regc_perf_check_counters(const struct regc_perf_pmu *p, const struct regc_block *b,
                                      const struct regc_counters *c, char *err, size_t errlen);

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
REGC_API int regc_perf_group_enable(struct regc_perf_group *g);
REGC_API int regc_perf_group_disable(struct regc_perf_group *g);
/* One read() for the whole group: values[i] for event i, n at most the group's size. */
REGC_API int regc_perf_group_read(struct regc_perf_group *g, uint64_t *values, unsigned n);
/* The count of one event (one read() of that event). */
REGC_API int regc_perf_event_read(struct regc_perf_group *g, unsigned index, uint64_t *value);
REGC_API unsigned regc_perf_group_size(const struct regc_perf_group *g);

/* A message for a perf_event_open failure: names kernel.perf_event_paranoid's value for
 * EACCES/EPERM. */
REGC_API const char *regc_perf_strerror(int rc, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
