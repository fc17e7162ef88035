/*
 * internal - helpers shared by libregrt's modules; not installed.
 */
#ifndef REGC_INTERNAL_H
#define REGC_INTERNAL_H

#include "regc/backend.h"

#include <stdio.h>

#define REGC_ERRLEN 512

/* Like snprintf into err (may be NULL); returns rc (a -errno) for tail calls. */
int regc__err(char *err, size_t len, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The directory root from 'opt' (may be NULL), else the environment variable (not in a program
 * run set-user-ID, set-group-ID or with raised capabilities: secure_getenv), else 'dflt'. */
const char *regc__root(const char *opt, const char *env, const char *dflt);

/* Reads a small text file into buf (trailing newline removed); 0 or -errno. */
int regc__read_text(const char *path, char *buf, size_t len);

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

/* The model behind a sim backend. */
regc_sim *regc__simbe_sim(const struct regc_backend *be);

#endif
