/* names - the spec and block names regctl's commands take (names.h). */
#include "names.h"

#include "regc/suggest.h"
#include "regc_specs.h"

#include <stdio.h>
#include <string.h>

const struct regc_spec *const *const regctl_specs = regc_specs;

const char *const regctl_backends[] = {"msr", "pci", "perf", "sim", NULL};

const struct regc_spec *regctl_find_spec(const char *name, size_t len)
{
    for (const struct regc_spec *const *s = regctl_specs; *s; s++)
        if (strlen((*s)->name) == len && strncmp((*s)->name, name, len) == 0)
            return *s;
    return NULL;
}

const char *regctl_suggest_spec(const char *name, size_t len, const char *otherwise, char *buf,
                                size_t buflen)
{
    char n[REGC_SUGGEST_MAX + 1];
    struct regc_suggest sg;
    snprintf(n, sizeof(n), "%.*s", (int)len, name);
    regc_suggest_init(&sg, n);
    for (const struct regc_spec *const *s = regctl_specs; *s; s++)
        regc_suggest_add(&sg, (*s)->name);
    return regc_suggest_best(&sg) ? regc_suggest_text(&sg, buf, buflen) : otherwise;
}

const char *regctl_suggest_block(const struct regc_spec *s, const char *name, char *buf,
                                 size_t buflen)
{
    struct regc_suggest sg;
    regc_suggest_init(&sg, name);
    for (const struct regc_block *b = s->blocks; b->name; b++)
        regc_suggest_add(&sg, b->name);
    return regc_suggest_text(&sg, buf, buflen);
}
