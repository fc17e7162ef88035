/*
 * suggest - "did you mean" (regc/suggest.h) for the event names a user
 * types: by regc name or perfmon name (perf's alias: the same in lower
 * case). Blocks: regc__suggest_block, in desc.c beside the path lookup.
 */
#include "internal.h"
#include "regc/suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* 'want' has a lower-case letter: it is written as perf's aliases are */
static bool written_lower(const char *want)
{
    for (const char *p = want; *p; p++)
        if (islower((unsigned char)*p))
            return true;
    return false;
}

/* e's perfmon name as 'want' writes names: perf's alias (lower case) when 'lower' (it has a
 * lower-case letter), else perfmon's EventName (a name and its alias are never two candidates). */
static const char *perfmon_as(bool lower, const struct regc_event *e, char *buf, size_t len)
{
    if (!e->perfmon || !lower)
        return e->perfmon;
    size_t i = 0;
    for (; e->perfmon[i] && i + 1 < len; i++)
        buf[i] = (char)tolower((unsigned char)e->perfmon[i]);
    buf[i] = '\0';
    return buf;
}

/* Weighs b's events, by perfmon name and, when 'names', by regc name; a perfmon name is
 * copied to its alias form only when its length leaves it a chance (most have none). */
static void add_events(struct regc_suggest *sg, const struct regc_block *b, bool names)
{
    if (sg->len > REGC_SUGGEST_MAX)
        return; /* no name this long gets a suggestion: every event would be weighed for nothing */
    bool lower = written_lower(sg->name);
    for (const struct regc_event *e = b->events; e && e->name; e++) {
        if (names)
            regc_suggest_add(sg, e->name);
        if (e->perfmon && regc_suggest_length_may(sg, strlen(e->perfmon))) {
            char alias[REGC_SUGGEST_MAX];
            regc_suggest_add(sg, perfmon_as(lower, e, alias, sizeof(alias)));
        }
    }
}

char *regc__suggest_event(const struct regc_block *b, const char *want, char *buf, size_t len)
{
    struct regc_suggest sg;
    regc_suggest_init(&sg, want);
    add_events(&sg, b, true);
    return regc_suggest_text(&sg, buf, len);
}

char *regc__suggest_bare_event(const struct regc_spec *s, const char *want, char *buf, size_t len)
{
    struct regc_suggest pm, name;
    regc_suggest_init(&pm, want);
    regc_suggest_init(&name, want);
    for (const struct regc_block *b = s->blocks; b && b->name; b++) {
        add_events(&pm, b, false);
        add_events(&name, b, true);
    }
    /* a regc name is closer: offer it as BLOCK:EVENT, its first block's, the form taken */
    const char *best = regc_suggest_best(&name);
    for (const struct regc_block *b = s->blocks; best && b && b->name; b++)
        for (const struct regc_event *e = b->events; e && e->name; e++)
            if (strcmp(e->name, best) == 0 && name.dist < pm.dist) {
                snprintf(name.best, sizeof(name.best), "%s:%s", b->name, e->name);
                return regc_suggest_text(&name, buf, len);
            }
    return regc_suggest_text(&pm, buf, len);
}
