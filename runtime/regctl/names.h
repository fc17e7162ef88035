/*
 * names.h - the spec and block names regctl's commands take, found or
 * answered with a "did you mean" (regc/suggest.h), one way for every command.
 */
#ifndef REGCTL_NAMES_H
#define REGCTL_NAMES_H

#include "regc/desc.h"

#include <stdbool.h>
#include <stddef.h>

/* Every spec compiled into regctl, and the user's (--spec), NULL-terminated. names.c alone
 * includes regc_specs.h, whose tables are static: one copy in the program, and one address per
 * spec to compare. */
extern const struct regc_spec *const *regctl_specs;

/* The most specs regctl_specs holds: the built-in ones and one of the user's (a build with more
 * built-in specs fails to compile: names.c checks it). */
#define REGCTL_MAX_SPECS 64

/* Puts a user's spec (--spec; borrowed, must outlive regctl's use of it) among regctl_specs: in
 * place of the built-in spec of the same name, else after the built-in ones. A second call
 * replaces the first one's spec. */
void regctl_add_spec(const struct regc_spec *s);

/* The backends --backend takes (regc_backend_find's names), NULL-terminated. */
extern const char *const regctl_backends[];

/* The compiled-in spec named by the 'len' bytes at 'name', or NULL. */
const struct regc_spec *regctl_find_spec(const char *name, size_t len);

/* "; did you mean 'X'?" when a spec is close to the 'len' bytes at 'name', else 'otherwise'
 * (may be ""). Returns buf (160 bytes hold it), or 'otherwise'. */
const char *regctl_suggest_spec(const char *name, size_t len, const char *otherwise, char *buf,
                                size_t buflen);

/* "; did you mean 'X'?" when a block of s is close to 'name', else "". Returns buf. */
const char *regctl_suggest_block(const struct regc_spec *s, const char *name, char *buf,
                                 size_t buflen);

/* Does 'hay' (may be NULL) contain 'needle', in any case? A NULL or empty needle: yes. The
 * PATTERN search of `regctl events` and `regctl metrics`. */
bool regctl_name_contains(const char *hay, const char *needle);

#endif
