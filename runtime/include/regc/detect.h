/*
 * regc/detect.h - which machine is this: the CPU's identity from CPUID, the
 * uncore PCI devices sysfs lists, and the specs that apply (their <cpu>
 * models, regc/desc.h struct regc_cpu).
 *
 * CPUID is read the way the Linux cpuid driver offers it: <root>/N/cpuid,
 * 16 bytes (eax, ebx, ecx, edx) read at file offset = leaf (a regular file
 * there is taken as a copy of the device's first records, `head -c 32
 * /dev/cpu/0/cpuid`: leaf N at offset 16 * N), with root the
 * msr root (regc_options.msr_root: option, else $REGC_MSR_ROOT, else
 * /dev/cpu), so a test gives a fake file beside a fake msr device. Under the
 * default root, when that file cannot be read (cpuid module not loaded, no
 * permission) the CPUID instruction is used instead (x86 only; it reports the
 * CPU the caller runs on). Functions return 0 or -errno with a one-line
 * message in 'err' (may be NULL); they never print.
 */
#ifndef REGC_DETECT_H
#define REGC_DETECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "regc/desc.h"
#include "regc/regc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What CPUID leaves 0 and 1 say, decoded as the SDM's CPUID description does. */
struct regc_cpuid {
    char vendor[13];    /* leaf 0 ebx, edx, ecx: "GenuineIntel" */
    uint32_t signature; /* leaf 1 eax */
    unsigned family;    /* display family: family, plus extended family when family is 0xF */
    unsigned model;     /* display model: plus extended model << 4 when family is 6 or 0xF */
    unsigned stepping;
    char source[4096]; /* where it was read: the cpuid file, or "the CPUID instruction" */
};

/* Decodes leaf 1 eax into family, model and stepping (pure). */
REGC_API void regc_cpuid_decode(struct regc_cpuid *id, uint32_t eax1);

/* Reads CPU 'cpu''s identity (msr_root NULL: $REGC_MSR_ROOT, else /dev/cpu). */
REGC_API int regc_cpuid_read(const char *msr_root, int cpu, struct regc_cpuid *out, char *err,
                             size_t errlen);

/* The <cpu> of spec 's' that 'id' is, or NULL (also when the spec lists none). */
REGC_API const struct regc_cpu *regc_spec_cpu_match(const struct regc_spec *s,
                                                   const struct regc_cpuid *id);

/* Does spec 's' list any <cpu>? */
REGC_API bool regc_spec_has_cpus(const struct regc_spec *s);

/*
 * regc_pci_uncore_count - of the distinct PCI (vendor, device) ids of spec
 * 's''s instances (*wanted), how many sysfs lists at least once (*found),
 * under <sysfs_root>/bus/pci/devices (NULL: $REGC_SYSFS_ROOT, else /sys).
 * 0 (also when the directory is missing: nothing found), or -errno.
 */
REGC_API int regc_pci_uncore_count(const struct regc_spec *s, const char *sysfs_root,
                                   unsigned *found, unsigned *wanted, char *err, size_t errlen);

/* ---- issue 28 (h28s): what regctl detect shows */

/* An uncore PCI device found in sysfs. */
struct regc_pci_found {
    char address[32];       /* "0000:7f:10.4", as sysfs names it */
    uint16_t vendor, device;
    uint8_t dev, func;
    int package;            /* its package as the pci backend maps it (regc_options.by_package:
                               the U-Box node-id map, E5-2600 and v2); -1 when unknown */
};

/*
 * regc_pci_uncore_find - every PCI device under <sysfs_root>/bus/pci/devices
 * (NULL: $REGC_SYSFS_ROOT, else /sys) that an instance of spec 's' names
 * (vendor and device id, and its device and function where the spec gives
 * them), in address order, into *out (caller frees), *n of them. Where the
 * packages cannot be told (no map for the spec, U-Box registers unreadable),
 * each package is -1 and 'why' (may be NULL) says why; else 'why' is "".
 * 0 (also when the directory is missing: nothing found), or -errno with a
 * message in err.
 */
REGC_API int regc_pci_uncore_find(const struct regc_spec *s, const char *sysfs_root,
                                  struct regc_pci_found **out, size_t *n, char *why,
                                  size_t whylen, char *err, size_t errlen);

/*
 * regc_perf_pmu_box - the box of spec 's' that the kernel's uncore PMU 'pmu'
 * ("uncore_cbox_3") serves, as the perf backend names PMUs: true with *b and
 * *inst (NULL for a block of one copy), or false when it serves none.
 */
REGC_API bool regc_perf_pmu_box(const struct regc_spec *s, const char *pmu,
                                const struct regc_block **b, const struct regc_instance **inst);
/* ---- end issue 28 (h28s) */

/*
 * regc_cpu_describe - "GenuineIntel family 0x6 model 0x3E" (and " (NAME)" when
 * the model has a name) into buf; returns buf.
 */
REGC_API const char *regc_cpu_describe(const struct regc_cpu *c, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
