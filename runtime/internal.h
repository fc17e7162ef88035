/*
 * internal - helpers shared by libregrt's modules; not installed.
 */
#ifndef REGC_INTERNAL_H
#define REGC_INTERNAL_H

#include "regc/backend.h"
#include "regc/num.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define REGC_ERRLEN 512

/* Both non-NULL and equal. */
static inline bool regc__streq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* The number of bits set. */
static inline int regc__popcount64(uint64_t v)
{
    int n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/* runtime/base.c: */
/* Like snprintf into err (may be NULL); returns rc (a -errno) for tail calls. */
int regc__err(char *err, size_t len, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The directory root from 'opt' (may be NULL), else the environment variable (not in a program
 * run set-user-ID, set-group-ID or with raised capabilities: secure_getenv), else 'dflt'. */
const char *regc__root(const char *opt, const char *env, const char *dflt);

/* Reads a small text file into buf (trailing newline removed); 0 or -errno. */
int regc__read_text(const char *path, char *buf, size_t len);

/* The PCI id in sysfs file DIR/NAME/FILE ("vendor", "device": "0x8086", 16 bits): true and *v. */
bool regc__read_pci_id(const char *dir, const char *name, const char *file, uint64_t *v);

/* Where a device reaches the hardware (runtime/share.c: lock names, the kernel's PMUs). Borrowed
 * strings, valid until regc_close(). */
struct regc__where {
    int cpu;
    bool dry_run;
    const char *msr_root, *sysfs_root; /* resolved: option, else environment, else default */
};
void regc__dev_where(const regc_dev *d, struct regc__where *w);

/* The kernel's name of the uncore PMU for r's box: "uncore_<block>[_<instance number>]". */
void regc__perf_pmu_name(const struct regc_ref *r, char *buf, size_t len);

/*
 * perf's language (runtime/perf_lang.c): a PMU built from 'formats' ("NAME=CONFIG ...",
 * space-separated, CONFIG as the kernel's sysfs format files hold it) instead of sysfs; type 0.
 */
struct regc_perf_pmu;
struct regc_perf_setting;
int regc__perf_pmu_static(struct regc_perf_pmu **out, const char *name, const char *formats,
                          char *err, size_t errlen);
/* The PMU's format names, ", "-separated, for messages. */
void regc__perf_format_names(const struct regc_perf_pmu *p, char *buf, size_t len);
/*
 * The inverse of regc_perf_config: config words as the control value (config, bit for bit)
 * and settings of block b's other registers (config1/config2, placed by the PMU's formats as
 * regc_perf_config places them). -EINVAL when a bit of config1/config2 is no field of one.
 */
int regc__perf_decode(const struct regc_perf_pmu *p, const struct regc_block *b,
                      const struct regc_reg *control, const uint64_t config[3], uint64_t *ctl,
                      struct regc_perf_setting *sets, size_t max, size_t *n, char *err,
                      size_t errlen);
/*
 * An event name of perf's language as regc's "BLOCK[INSTANCE]:EVENT[,TERMS]" in out: a perf
 * event string "PMU/term=value,.../", a perfmon/perf alias ("UNC_U_EVENT_MSG.DOORBELL_RCVD",
 * any case; "BLOCK[INSTANCE]:ALIAS" too), or a regc event name in another case. 1 translated,
 * 0 not perf's language (use 'in' as it is), or -errno with a message in err.
 */
int regc__perf_lang(const struct regc_spec *s, const char *in, char *out, size_t outlen, char *err,
                    size_t errlen);

/*
 * "BLOCK[INSTANCE]" or "BLOCK" in 'text' (cut in place: 'text' is left holding
 * the block's name, *inst_name the instance's or NULL) looked up in 's':
 * *b the block (NULL when none), *inst the instance named, else the block's
 * first named one, else NULL. 0; -EINVAL when the brackets are malformed
 * (nothing looked up); -ENOENT when the block, or (with *b set) the
 * instance, is not found. runtime/desc.c; for sim.c's rates and pmon.c's events.
 */
int regc__block_target(const struct regc_spec *s, char *text, const struct regc_block **b,
                       const struct regc_instance **inst, const char **inst_name);

/* runtime/desc.c: the bits of r's field 'name' (0: name NULL, or r has no such field); the
 * counter group of b whose control register is 'control' (a fixed counter's too), or NULL; b's
 * first fixed counter group ('fixed'), or first other one, or NULL. */
uint64_t regc__field_mask_named(const struct regc_reg *r, const char *name);
const struct regc_counters *regc__block_counters(const struct regc_block *b, const char *control);
const struct regc_counters *regc__block_group(const struct regc_block *b, bool fixed);

/*
 * "; did you mean 'X'?" (regc/suggest.h) into buf, or "": the block of s
 * closest to 'want'; the event of b (regc name, perfmon name or perf alias);
 * for a name without a block, the perfmon name or perf alias, or the regc name
 * as BLOCK:EVENT. Each returns buf. runtime/desc.c (blocks), runtime/suggest.c.
 */
char *regc__suggest_block(const struct regc_spec *s, const char *want, char *buf, size_t len);
char *regc__suggest_event(const struct regc_block *b, const char *want, char *buf, size_t len);
char *regc__suggest_bare_event(const struct regc_spec *s, const char *want, char *buf, size_t len);

/* The model behind a sim backend. */
regc_sim *regc__simbe_sim(const struct regc_backend *be);

#endif
