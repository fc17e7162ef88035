/* cpucheck.h - `regctl detect` and the CPU-model check of the hardware backends (cpucheck.c). */
#ifndef REGCTL_CPUCHECK_H
#define REGCTL_CPUCHECK_H

#include "regc/desc.h"

#include <stdbool.h>

/* Where regctl reaches the machine, from its global options. */
struct cpucheck_where {
    const char *msr_root, *sysfs_root;
    int cpu;
};

/*
 * Before a read, write or monitor: on the msr, pci and perf backends (not
 * sim, not --dry-run, not with --force-cpu), refuses spec 's' when the CPU's
 * CPUID does not match one of its <cpu> models, printing what was found and
 * what the spec is for. 'backend' is the backend that will run. 0 or 1.
 */
int regctl_cpu_check(const struct regc_spec *s, const char *backend, bool dry_run, bool force,
                     const struct cpucheck_where *w);

/* regctl detect [SPEC]: the CPU, the uncore PCI devices, the matching specs. Exit status. */
int regctl_detect(const struct cpucheck_where *w, bool json, int argc, char **argv);

#endif
