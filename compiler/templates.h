/*
 * templates - the built-in templates, compiled into regc at build time.
 *
 * tools/embed.c turns templates/NAME.mustache into an entry {NAME, text}.
 * Names starting with '_' are partials, not outputs of their own.
 */
#ifndef REGC_TEMPLATES_H
#define REGC_TEMPLATES_H

#include <stddef.h>

struct embedded_template {
    const char *name; /* file name without directory and ".mustache" */
    const char *text; /* NUL-terminated; static */
    size_t len;
};

extern const struct embedded_template embedded_templates[];
extern const size_t embedded_template_count;

#endif
