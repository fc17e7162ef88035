/*
 * regc/backend.h - the one interface every backend implements.
 *
 * A backend reads and writes one register of a given access size at an
 * address on a target (struct regc_io, regc/regc.h). libregrt ships four:
 * regc_msr_ops (/dev/cpu/N/msr), regc_pci_ops (sysfs config space),
 * regc_perf_ops (perf_event_open; regc/perf.h) and regc_sim_ops (the model
 * of regc/sim.h). A custom backend is passed in regc_options.ops.
 * Every function returns 0 or -errno and never prints.
 */
#ifndef REGC_BACKEND_H
#define REGC_BACKEND_H

#include "regc/regc.h"

#ifdef __cplusplus
extern "C" {
#endif

struct regc_backend {
    const struct regc_backend_ops *ops;
    void *priv;                     /* the backend's state */
    const struct regc_spec *spec;   /* borrowed */
    const struct regc_options *opt; /* borrowed; valid during open() only */
    char msg[256];                  /* a backend's own explanation of its last failure, or "" */
};

struct regc_backend_ops {
    const char *name;
    /* Set up be->priv; 0, or -errno with a message in err. */
    int (*open)(struct regc_backend *be, char *err, size_t errlen);
    void (*close)(struct regc_backend *be);
    int (*read)(struct regc_backend *be, const struct regc_io *io, uint64_t *value);
    int (*write)(struct regc_backend *be, const struct regc_io *io, uint64_t value);
};

REGC_API extern const struct regc_backend_ops regc_msr_ops;
REGC_API extern const struct regc_backend_ops regc_pci_ops;
REGC_API extern const struct regc_backend_ops regc_perf_ops;
REGC_API extern const struct regc_backend_ops regc_sim_ops;

/* The ops named "msr", "pci", "perf" or "sim"; NULL when unknown. */
REGC_API const struct regc_backend_ops *regc_backend_find(const char *name);

#ifdef __cplusplus
}
#endif

#endif
