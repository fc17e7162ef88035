/* names - the spec and block names regctl's commands take (names.h). */
#include "names.h"

#include "regc/suggest.h"
#include "regc_specs.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const struct regc_spec *const *regctl_specs = regc_specs;

#define NBUILTIN (sizeof(regc_specs) / sizeof(regc_specs[0]) - 1)
_Static_assert(NBUILTIN + 1 <= REGCTL_MAX_SPECS, "REGCTL_MAX_SPECS holds every spec and the user's");

void regctl_add_spec(const struct regc_spec *s)
{
    static const struct regc_spec *with_user[NBUILTIN + 2];
    size_t i = 0;
    bool replaced = false;
    for (; i < NBUILTIN; i++) {
        bool same = strcmp(regc_specs[i]->name, s->name) == 0;
        with_user[i] = same ? s : regc_specs[i];
        replaced = replaced || same;
    }
    with_user[i] = replaced ? NULL : s;
    with_user[i + 1] = NULL;
    regctl_specs = with_user;
}

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

bool regctl_name_contains(const char *hay, const char *needle)
{
    if (!needle || !*needle)
        return true;
    for (; hay && *hay; hay++) {
        size_t i = 0;
        while (needle[i] && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (!needle[i])
            return true;
    }
    return false;
}
