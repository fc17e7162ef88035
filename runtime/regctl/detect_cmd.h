/*
 * detect_cmd.h - what `regctl detect` shows of the machine beyond the CPU's
 * identity (detect_cmd.c), as likwid-topology and `perf list` show it: the
 * sockets (physical packages) and their CPUs, the uncore PCI devices of the
 * matching specs per socket, and the kernel's uncore PMUs with the box of
 * the matching spec each one serves. Everything is read under the sysfs root
 * (--sysfs-root, else $REGC_SYSFS_ROOT outside a privileged run, else /sys).
 */
#ifndef REGCTL_DETECT_CMD_H
#define REGCTL_DETECT_CMD_H

#include "regc/desc.h"

#include <jansson.h>
#include <stddef.h>

/*
 * The three parts for the 'n' specs in 'matched' (those whose CPU models
 * match): printed, or, with 'json' not NULL, added to it as "sockets",
 * "pci_devices" and "pmus". 0, or 1 after a message on stderr.
 */
int regctl_detect_machine(const char *sysfs_root, const struct regc_spec *const *matched, size_t n,
                          json_t *json);

#endif
