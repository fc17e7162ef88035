/*
 * check_cpu - the <cpu> models a spec applies to: each in the range CPUID
 * can report (display family 1..0x10E: the 4-bit family plus the 8-bit
 * extended family when it is 0xF; display model 0..0xFF), none written twice,
 * the vendor a CPUID vendor string (12 characters), each citing a source (the models say which machines the runtime may drive).
 */
#include "check_int.h"
#include "util.h"

#include <string.h>

#define CPU_FAMILY_MAX 0x10Eu /* 0xF + 0xFF */
#define CPU_MODEL_MAX 0xFFu
#define CPU_VENDOR_LEN 12

static void check_cpu_range(struct check_ctx *c, const struct model_cpu *cpu)
{
    if (cpu->vendor && strlen(cpu->vendor) != CPU_VENDOR_LEN)
        diag_report(c->dg, DIAG_SCHEMA, cpu->pos,
                    "cpu vendor '%s' is not a %d-character CPUID vendor string (GenuineIntel, "
                    "AuthenticAMD...)",
                    cpu->vendor, CPU_VENDOR_LEN);
    if (cpu->family == 0 || cpu->family > CPU_FAMILY_MAX)
        diag_report(c->dg, DIAG_BAD_NUMBER, cpu->pos,
                    "cpu family 0x%llx is not one CPUID can report (1 to 0x%x)",
                    (unsigned long long)cpu->family, CPU_FAMILY_MAX);
    if (cpu->model > CPU_MODEL_MAX)
        diag_report(c->dg, DIAG_BAD_NUMBER, cpu->pos,
                    "cpu model 0x%llx is not one CPUID can report (0 to 0x%x)",
                    (unsigned long long)cpu->model, CPU_MODEL_MAX);
}

void check_cpus(struct check_ctx *c)
{
    struct regc_map seen;
    regc_map_init(&seen);
    for (size_t i = 0; i < c->s->ncpus; i++) {
        const struct model_cpu *cpu = c->s->cpus[i];
        check_cpu_range(c, cpu);
        if (!cpu->cite.src)
            diag_report(c->dg, DIAG_MISSING_SOURCE, cpu->pos,
                        "cpu family 0x%llx model 0x%llx cites no source",
                        (unsigned long long)cpu->family, (unsigned long long)cpu->model);
        const char *key = arena_printf(c->a, "%s %llx %llx", cpu->vendor ? cpu->vendor : "",
                                       (unsigned long long)cpu->family,
                                       (unsigned long long)cpu->model);
        bool found;
        struct regc_map_entry *e = xmap_put_str(&seen, key, &found);
        if (found) {
            diag_report(c->dg, DIAG_DUPLICATE_NAME, cpu->pos,
                        "cpu %s family 0x%llx model 0x%llx is listed twice",
                        cpu->vendor ? cpu->vendor : "", (unsigned long long)cpu->family,
                        (unsigned long long)cpu->model);
            diag_note(c->dg, *(const struct srcpos *)e->val, "first listed here");
        } else {
            e->val = (void *)&cpu->pos;
        }
    }
    regc_map_release(&seen);
}
