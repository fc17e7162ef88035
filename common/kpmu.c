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
