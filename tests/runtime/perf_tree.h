/*
 * perf_tree.h - fake sysfs PMU trees for the perf tests: the kernel's uncore
 * PMUs of a family as tests/runtime/data/perf-formats/<family>.txt states
 * them (boxes, format files, event masks, fixed counters; see the file's
 * header), written under ROOT/bus/event_source/devices with a 'type' that
 * points at a PMU this machine really has.
 */
#ifndef PERF_TREE_H
#define PERF_TREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define PT_MAX 16

struct pt_family {
    struct pt_type {
        char name[32];
        unsigned boxes;
        uint64_t mask; /* the kernel's event_mask */
        bool fixed;
    } t[PT_MAX];
    unsigned n;
    struct pt_alias {
        char type[32], name[32], terms[64], event[64];
    } alias[PT_MAX];
    unsigned nalias;
};

static inline struct pt_type *pt_type(struct pt_family *f, const char *name)
{
    for (unsigned i = 0; i < f->n; i++)
        if (strcmp(f->t[i].name, name) == 0)
            return &f->t[i];
    if (f->n == PT_MAX)
        abort();
    struct pt_type *t = &f->t[f->n++];
    snprintf(t->name, sizeof(t->name), "%s", name);
    return t;
}

/* The PMU name of box i of type t, as the kernel's uncore_pmu_register makes it. */
static inline void pt_pmu_name(const struct pt_type *t, unsigned i, char *buf, size_t len)
{
    if (t->boxes == 1)
        snprintf(buf, len, "uncore_%s", t->name);
    else
        snprintf(buf, len, "uncore_%s_%u", t->name, i);
}

/*
 * Reads 'file' into f and, when root is non-NULL, writes the tree: every
 * PMU of every type with 'type' = pmu_type and its format files.
 */
static inline void pt_load(const char *file, struct pt_family *f, const char *root,
                           unsigned pmu_type)
{
    FILE *in = fopen(file, "r");
    if (!in) {
        perror(file);
        abort();
    }
    memset(f, 0, sizeof(*f));
    char line[256], kind[16], a[32], b[32], c[64], d[64];
    while (fgets(line, sizeof(line), in)) {
        int n = sscanf(line, "%15s %31s %31s %63s %63s", kind, a, b, c, d);
        if (n < 2 || kind[0] == '#')
            continue;
        struct pt_type *t = pt_type(f, a);
        if (strcmp(kind, "boxes") == 0 && n == 3)
            t->boxes = (unsigned)strtoul(b, NULL, 0);
        else if (strcmp(kind, "mask") == 0 && n == 3)
            t->mask = strtoull(b, NULL, 0);
        else if (strcmp(kind, "fixed") == 0)
            t->fixed = true;
        else if (strcmp(kind, "alias") == 0 && n == 5 && f->nalias < PT_MAX) {
            struct pt_alias *al = &f->alias[f->nalias++];
            snprintf(al->type, sizeof(al->type), "%s", a);
            snprintf(al->name, sizeof(al->name), "%s", b);
            snprintf(al->terms, sizeof(al->terms), "%s", c);
            snprintf(al->event, sizeof(al->event), "%s", d);
        } else if (strcmp(kind, "format") != 0 || n != 4) {
            fprintf(stderr, "%s: bad line: %s", file, line);
            abort();
        }
        /* the files: format/NAME, events/NAME and 'type' in every PMU of the type */
        bool file_line = n >= 4 && (strcmp(kind, "format") == 0 || strcmp(kind, "alias") == 0);
        for (unsigned i = 0; root && file_line && i < t->boxes; i++) {
            char pmu[64], rel[160], text[80];
            pt_pmu_name(t, i, pmu, sizeof(pmu));
            snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/type", pmu);
            snprintf(text, sizeof(text), "%u\n", pmu_type);
            tu_write(root, rel, text, -1);
            snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/%s/%s", pmu,
                     kind[0] == 'f' ? "format" : "events", b);
            snprintf(text, sizeof(text), "%s\n", c);
            tu_write(root, rel, text, -1);
        }
    }
    fclose(in);
}

/* The 'type' of PMU 'name' on this machine (its sysfs), or 'dflt'. */
static inline unsigned pt_real_type(const char *name, unsigned dflt)
{
    char path[256], text[32] = "";
    snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", name);
    FILE *f = fopen(path, "r");
    if (!f)
        return dflt;
    unsigned v = fgets(text, sizeof(text), f) ? (unsigned)strtoul(text, NULL, 10) : dflt;
    fclose(f);
    return v;
}

#endif
