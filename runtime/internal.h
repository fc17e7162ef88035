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

/* The directory root from 'opt' (may be NULL), else the environment variable, else 'dflt'. */
const char *regc__root(const char *opt, const char *env, const char *dflt);

/* Reads a small text file into buf (trailing newline removed); 0 or -errno. */
int regc__read_text(const char *path, char *buf, size_t len);

/* The model behind a sim backend. */
regc_sim *regc__simbe_sim(const struct regc_backend *be);

#endif
