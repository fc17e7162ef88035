/* monitor.h - `regctl monitor`: the pmon flows of regc/pmon.h from the command line (monitor.c). */
#ifndef REGCTL_MONITOR_H
#define REGCTL_MONITOR_H

#include "cmdline.h"

#include <stdbool.h>

/* The options regctl takes before the command, passed on to monitor. */
struct monitor_globals {
    const char *backend, *msr_root, *sysfs_root;
    int cpu;
    bool dry_run, json;
    bool force_cpu; /* --force-cpu: no CPU-model check (cpucheck.h) */
};

/* regctl monitor SPEC EVENT... [options]; argv[0] is a name getopt skips, SPEC is argv[1].
 * Returns the exit status (0, 1, 2). */
int regctl_monitor(const struct monitor_globals *g, int argc, char **argv);

/* monitor's help and its own options, for regctl's command table (cmdline.h). */
extern const char regctl_monitor_help[];
extern const struct cmdline_opt regctl_monitor_opts[];

#endif
