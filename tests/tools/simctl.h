/*
 * simctl - what the FUSE test devices (msrfs, pcifs) share: the specs they can
 * serve and the text commands their control file "sim" takes to drive the
 * simulator. Header-only: each file in tests/tools/ is one program.
 *
 * Commands: "tick BLOCK INSTANCE|- GROUP COUNTER N" (regc_sim_tick) and
 * "batch 0|1" (regc_sim_batch).
 */
#ifndef REGC_TESTS_SIMCTL_H
#define REGC_TESTS_SIMCTL_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../runtime/hand_tables.h"
#include "regc/sim.h"
#if defined(__has_include)
#if __has_include("regc_specs.h")
#include "regc_specs.h"
#define HAVE_GENERATED_SPECS 1
#endif
#endif

/* The spec called 'name': a hand-written test table or a generated one; NULL if none. */
static inline const struct regc_spec *simctl_find_spec(const char *name)
{
    if (strcmp(name, hand_ubox_spec.name) == 0)
        return &hand_ubox_spec;
    if (strcmp(name, acme_spec.name) == 0)
        return &acme_spec;
#ifdef HAVE_GENERATED_SPECS
    for (const struct regc_spec *const *s = regc_specs; *s; s++)
        if (strcmp((*s)->name, name) == 0)
            return *s;
#endif
    return NULL;
}

/* One command written to the control file: 'size' bytes, not NUL-terminated. size, or -EINVAL. */
static inline int simctl_command(regc_sim *sim, const char *buf, size_t size)
{
    char line[256], block[64], inst[64];
    unsigned group, counter;
    unsigned long long n;
    int on;
    if (size >= sizeof(line))
        return -EINVAL;
    memcpy(line, buf, size);
    line[size] = '\0';
    if (sscanf(line, "tick %63s %63s %u %u %llu", block, inst, &group, &counter, &n) == 5) {
        int rc =
            regc_sim_tick(sim, block, strcmp(inst, "-") ? inst : NULL, group, counter, n);
        return rc < 0 ? -EINVAL : (int)size;
    }
    if (sscanf(line, "batch %d", &on) == 1) {
        regc_sim_batch(sim, on != 0);
        return (int)size;
    }
    return -EINVAL;
}

/*
 * simctl_msr_io - one read or write of cpu/N/msr as the msr driver serves it:
 * 'size' must be a multiple of 8 (else -EINVAL); each 8 bytes are one access
 * to MSR 'off'. An access the model refuses (no such MSR, a reserved bit set)
 * ends the call: the bytes done before it, or its -errno (EIO, as the CPU's
 * #GP surfaces). 'log' (may be NULL) gets a line per access,
 * "R|W cpu 0xADDR 0xVALUE rc". Bytes done, or -errno.
 */
static inline int simctl_msr_io(regc_sim *sim, int cpu, bool write, char *buf, size_t size,
                                long long off, FILE *log)
{
    if (size % 8)
        return -EINVAL;
    for (size_t i = 0; i < size; i += 8) {
        struct regc_io io = {
            .space = REGC_SPACE_MSR, .cpu = cpu, .address = (uint64_t)off, .size = 64};
        uint64_t v = 0;
        if (write)
            memcpy(&v, buf + i, 8);
        int rc = write ? regc_sim_write(sim, &io, v) : regc_sim_read(sim, &io, &v);
        if (log) {
            fprintf(log, "%c %d 0x%llx 0x%llx %d\n", write ? 'W' : 'R', cpu,
                    (unsigned long long)off, (unsigned long long)v, rc);
            fflush(log);
        }
        if (rc < 0)
            return i ? (int)i : rc;
        if (!write)
            memcpy(buf + i, &v, 8);
    }
    return (int)size;
}

#endif
