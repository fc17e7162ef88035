#include "kpmu.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* kpmu.h says where each fact comes from */
static const struct regc_kpmu_fixed_host hosts[] = {
    {"snb_client", "unc", "cbox", "uncore_cbox_0", "cbox_0", "clockticks"},
};

/* The host of spec 'spec' whose PMU (by_pmu) or block is 'key', or NULL. */
static const struct regc_kpmu_fixed_host *find(const char *spec, const char *key, bool by_pmu)
{
    for (size_t i = 0; spec && key && i < sizeof(hosts) / sizeof(hosts[0]); i++)
        if (strcmp(hosts[i].spec, spec) == 0 &&
            strcmp(by_pmu ? hosts[i].pmu : hosts[i].block, key) == 0)
            return &hosts[i];
    return NULL;
}

const struct regc_kpmu_fixed_host *regc_kpmu_fixed_host(const char *spec, const char *block)
{
    return find(spec, block, false);
}

const struct regc_kpmu_fixed_host *regc_kpmu_fixed_host_pmu(const char *spec, const char *pmu)
{
    return find(spec, pmu, true);
}

/* kpmu.h regc_kpmu_ext_sel */
static const struct {
    const char *spec, *block;
    int ext_sel;
} ext_sel[] = {
    {"e5_2600", "qpi", 1},   {"e5_2600", "pcu", 0},
    {"e5_2600v2", "qpi", 1}, {"e5_2600v2", "pcu", 0},
};

int regc_kpmu_ext_sel(const char *spec, const char *block)
{
    for (size_t i = 0; spec && block && i < sizeof(ext_sel) / sizeof(ext_sel[0]); i++)
        if (strcmp(ext_sel[i].spec, spec) == 0 && strcmp(ext_sel[i].block, block) == 0)
            return ext_sel[i].ext_sel;
    return -1;
}

/* kpmu.h regc_kpmu_reg_term */
static const struct {
    const char *spec, *reg, *term;
} reg_terms[] = {
    {"xeon7500_mbox", "M_MSR_PMU_DSP", "dsp"},         {"xeon7500_mbox", "M_MSR_PMU_ISS", "iss"},
    {"xeon7500_mbox", "M_MSR_PMU_MAP", "map"},         {"xeon7500_mbox", "M_MSR_PMU_MSC_THR", "thr"},
    {"xeon7500_mbox", "M_MSR_PMU_PGT", "pgt"},         {"xeon7500_mbox", "M_MSR_PMU_PLD", "pld"},
    {"xeon7500_mbox", "M_MSR_PMU_ZDP_CTL_FVC", "fvc"},
};

const char *regc_kpmu_reg_term(const char *spec, const char *reg)
{
    for (size_t i = 0; spec && reg && i < sizeof(reg_terms) / sizeof(reg_terms[0]); i++)
        if (strcmp(reg_terms[i].spec, spec) == 0 && strcmp(reg_terms[i].reg, reg) == 0)
            return reg_terms[i].term;
    return NULL;
}
