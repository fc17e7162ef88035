#include "kpmu.h"

#include <stddef.h>
#include <string.h>

/* kpmu.h says where each fact comes from */
static const struct regc_kpmu_fixed_host hosts[] = {
    {"snb_client", "unc", "cbox", "uncore_cbox_0", "cbox_0", "clockticks"},
};

const struct regc_kpmu_fixed_host *regc_kpmu_fixed_host(const char *spec, const char *block)
{
    for (size_t i = 0; spec && block && i < sizeof(hosts) / sizeof(hosts[0]); i++)
        if (strcmp(hosts[i].spec, spec) == 0 && strcmp(hosts[i].block, block) == 0)
            return &hosts[i];
    return NULL;
}

const struct regc_kpmu_fixed_host *regc_kpmu_fixed_host_pmu(const char *spec, const char *pmu)
{
    for (size_t i = 0; spec && pmu && i < sizeof(hosts) / sizeof(hosts[0]); i++)
        if (strcmp(hosts[i].spec, spec) == 0 && strcmp(hosts[i].pmu, pmu) == 0)
            return &hosts[i];
    return NULL;
}
