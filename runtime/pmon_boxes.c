/*
 * pmon_boxes - an event without a box names every box of its type (regc/pmon.h,
 * regc_pmon_boxes; docs/monitoring.md "Every box of a type").
 *
 *   imc:CAS_COUNT.RD                 imc[mc0_ch0]:CAS_COUNT.RD ... imc[mc1_ch3]:CAS_COUNT.RD
 *   UNC_M_CAS_COUNT.RD               the same (perf_lang.c resolves the alias to its block)
 *   uncore_imc/event=0x4,umask=0x3/  uncore_imc_0/event=0x4,umask=0x3/ ... uncore_imc_7/...
 *
 * as perf opens uncore_imc_0..N for a PMU named without its number and likwid sums MBOX0..7.
 * A name that already chooses a box, a block of one box, and anything this cannot read come
 * back unchanged, as the one name: regc_pmon_add says what is wrong with it.
 */
#include "internal.h"
#include "regc/pmon.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void regc_pmon_boxes_free(char **names, unsigned n)
{
    for (unsigned i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}

/* names[i] = "HEAD_i" "TAIL", HEAD_i from head(b, i); 0 or -ENOMEM (nothing kept). */
static int build(char ***out, unsigned n, const struct regc_spec *s, const struct regc_block *b,
                 bool perf, const char *tail)
{
    char **names = calloc(n, sizeof(*names));
    for (unsigned i = 0; names && i < n; i++) {
        char head[160];
        struct regc_ref r = {.spec = s, .block = b, .instance = &b->instances[i]};
        if (perf)
            regc__perf_pmu_name(&r, head, sizeof(head));
        else
            snprintf(head, sizeof(head), "%s[%s]", b->name, b->instances[i].name);
        size_t len = strlen(head) + strlen(tail) + 1;
        names[i] = malloc(len);
        if (!names[i]) {
            regc_pmon_boxes_free(names, i);
            return -ENOMEM;
        }
        snprintf(names[i], len, "%s%s", head, tail);
    }
    if (!names)
        return -ENOMEM;
    *out = names;
    return 0;
}

/* The block whose numbered PMUs are "PMU_<n>" (uncore_imc: uncore_imc_0..7), or NULL. */
static const struct regc_block *pmu_type(const struct regc_spec *s, const char *pmu, size_t len)
{
    for (const struct regc_block *b = s->blocks; b->name; b++) {
        if (!b->pmon || regc_block_ninstances(b) < 2)
            continue;
        char first[160];
        struct regc_ref r = {.spec = s, .block = b, .instance = b->instances};
        regc__perf_pmu_name(&r, first, sizeof(first));
        if (strncmp(first, pmu, len) == 0 && first[len] == '_' && first[len + 1] >= '0' &&
            first[len + 1] <= '9')
            return b;
    }
    return NULL;
}

/* BLOCK:REST with BLOCK naming no instance: the block, else NULL. */
static const struct regc_block *bare_block(const struct regc_spec *s, const char *name,
                                           const char *colon)
{
    char block[96];
    size_t len = (size_t)(colon - name);
    if (len >= sizeof(block) || memchr(name, '[', len))
        return NULL;
    memcpy(block, name, len);
    block[len] = '\0';
    return regc_spec_block(s, block);
}

int regc_pmon_boxes(const struct regc_spec *s, const char *name, char ***out, unsigned *n)
{
    const char *colon = strchr(name, ':'), *slash = strchr(name, '/');
    const struct regc_block *b = NULL;
    const char *tail = NULL;
    bool perf = false;
    char resolved[512];
    if (slash && (!colon || slash < colon)) { /* a perf string: PMU/terms/ */
        b = pmu_type(s, name, (size_t)(slash - name));
        tail = slash, perf = true;
    } else if (colon) {
        b = bare_block(s, name, colon);
        tail = colon;
    } else { /* a bare perfmon alias: the block of the event it names */
        char err[REGC_ERRLEN];
        if (regc__perf_lang(s, name, resolved, sizeof(resolved), err, sizeof(err)) == 1 &&
            (colon = strchr(resolved, ':')) != NULL) {
            char *open = memchr(resolved, '[', (size_t)(colon - resolved));
            if (open) {
                *open = '\0';
                b = regc_spec_block(s, resolved);
                *open = '[';
            }
            tail = colon;
        }
    }
    unsigned k = b && b->pmon ? regc_block_ninstances(b) : 0;
    if (k >= 2) {
        int rc = build(out, k, s, b, perf, tail);
        if (!rc)
            *n = k;
        return rc;
    }
    char **one = calloc(1, sizeof(*one));
    if (one)
        one[0] = strdup(name);
    if (!one || !one[0]) {
        free(one);
        return -ENOMEM;
    }
    *out = one;
    *n = 1;
    return 0;
}
