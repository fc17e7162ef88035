/*
 * cpucheck - `regctl detect` and the refusal of a spec that does not match
 * the CPU (docs/runtime.md "Detecting the machine").
 */
#include "cpucheck.h"
#include "fail.h"
#include "regc/detect.h"
#include "names.h"
#include "detect_cmd.h"
#include "output.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "GenuineIntel family 0x6 model 0x3E stepping 4" */
static void id_text(const struct regc_cpuid *id, char *buf, size_t len)
{
    snprintf(buf, len, "%s family 0x%X model 0x%02X stepping %u", id->vendor, id->family,
             id->model, id->stepping);
}

int regctl_cpu_check(const struct regc_spec *s, const char *backend, bool dry_run, bool force,
                     const struct cpucheck_where *w)
{
    if (dry_run || force || strcmp(backend, "sim") == 0 || !regc_spec_has_cpus(s))
        return 0;
    struct regc_cpuid id;
    char err[512];
    if (regc_cpuid_read(w->msr_root, w->cpu, &id, err, sizeof(err)) < 0) {
        fprintf(stderr,
                "regctl: cannot check that spec '%s' matches the CPU: %s; --force-cpu skips the "
                "check\n",
                s->name, err);
        return 1;
    }
    if (regc_spec_cpu_match(s, &id))
        return 0;
    char found[128], model[256];
    id_text(&id, found, sizeof(found));
    fprintf(stderr, "regctl: spec '%s' does not match this CPU: found %s (cpu %d, from %s); "
                    "the spec is for:\n",
            s->name, found, w->cpu, id.source);
    for (const struct regc_cpu *c = s->cpus; c->vendor; c++)
        fprintf(stderr, "  %s\n", regc_cpu_describe(c, model, sizeof(model)));
    return regctl_fail(
        1, "'regctl detect' names the spec for this CPU; --force-cpu uses '%s' anyway", s->name);
}

/* One spec's line of detect: whether its models match and how many PCI ids are present. */
struct spec_result {
    const struct regc_spec *spec;
    const struct regc_cpu *cpu; /* the matching model, or NULL */
    unsigned pci_found, pci_wanted;
};

static json_t *detect_json(const struct regc_cpuid *id, int cpu, const struct spec_result *r,
                           size_t n)
{
    char sig[16];
    snprintf(sig, sizeof(sig), "0x%x", (unsigned)id->signature);
    json_t *specs = json_array();
    for (size_t i = 0; i < n; i++) {
        if (!r[i].cpu)
            continue;
        json_array_append_new(specs, json_pack("{s:s,s:s?,s:i,s:i}", "name", r[i].spec->name,
                                               "cpu", r[i].cpu->name, "pci_found",
                                               (int)r[i].pci_found, "pci_wanted",
                                               (int)r[i].pci_wanted));
    }
    return json_pack("{s:i,s:s,s:i,s:i,s:i,s:s,s:s,s:o}", "cpu", cpu, "vendor", id->vendor,
                     "family", (int)id->family, "model", (int)id->model, "stepping",
                     (int)id->stepping, "signature", sig, "source", id->source, "specs", specs);
}

static int detect_run(const struct cpucheck_where *w, bool json, const struct regc_cpuid *idp,
                      struct spec_result *r, size_t n)
{
    const struct regc_cpuid id = *idp;
    char err[512];
    size_t matched = 0;
    for (size_t i = 0; i < n; i++) {
        r[i] = (struct spec_result){.spec = regctl_specs[i],
                                    .cpu = regc_spec_cpu_match(regctl_specs[i], &id)};
        if (!r[i].cpu)
            continue;
        matched++;
        if (regc_pci_uncore_count(r[i].spec, w->sysfs_root, &r[i].pci_found, &r[i].pci_wanted,
                                  err, sizeof(err)) < 0) {
            return regctl_fail(1, "%s", err);
        }
    }
    /* ---- issue 28 (h28s): sockets, uncore PCI devices and PMUs (detect_cmd.c) */
    const struct regc_spec *specs[REGCTL_MAX_SPECS]; /* the matching ones */
    size_t nm = 0;
    for (size_t i = 0; i < n && i < REGCTL_MAX_SPECS; i++)
        if (r[i].cpu)
            specs[nm++] = r[i].spec;
    /* ---- end issue 28 (h28s) */
    if (json) {
        json_t *j = detect_json(&id, w->cpu, r, n);
        if (regctl_detect_machine(w->sysfs_root, specs, nm, j)) { /* issue 28 (h28s) */
            json_decref(j);
            return 1;
        }
        out_json_doc(j);
        return matched ? 0 : 1;
    }
    char found[128];
    id_text(&id, found, sizeof(found));
    printf("cpu %d: %s (signature 0x%x, from %s)\n", w->cpu, found, (unsigned)id.signature,
           id.source);
    for (size_t i = 0; i < n; i++) {
        if (!r[i].cpu)
            continue;
        printf("spec %s: %s", r[i].spec->name, r[i].cpu->name ? r[i].cpu->name : "");
        if (r[i].pci_wanted)
            printf("; uncore PCI devices: %u of %u device ids present", r[i].pci_found,
                   r[i].pci_wanted);
        printf("\n");
    }
    if (!matched)
        printf("no spec for this CPU ('regctl list' shows the specs; each spec names its CPU "
               "models)\n");
    if (regctl_detect_machine(w->sysfs_root, specs, nm, NULL)) /* issue 28 (h28s) */
        return 1;
    return matched ? 0 : 1;
}

int regctl_detect(const struct cpucheck_where *w, bool json, int argc, char **argv)
{
    if (argc > 0)
        return regctl_fail(2, "detect takes no arguments, not '%s' (see 'regctl detect --help')",
                           argv[0]);
    struct regc_cpuid id;
    char err[512];
    if (regc_cpuid_read(w->msr_root, w->cpu, &id, err, sizeof(err)) < 0)
        return regctl_fail(1, "%s", err);
    size_t n = 0;
    for (const struct regc_spec *const *s = regctl_specs; *s; s++)
        n++;
    struct spec_result *r = calloc(n ? n : 1, sizeof(*r));
    if (!r)
        return regctl_fail(1, "out of memory");
    int rc = detect_run(w, json, &id, r, n);
    free(r);
    return rc;
}
