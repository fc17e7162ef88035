/*
 * simutil.h - reading and setting register copies of a simulator by path in
 * the runtime tests (cmocka: a path that does not resolve fails the test).
 * Include after <cmocka.h>.
 */
#ifndef SIMUTIL_H
#define SIMUTIL_H

#include "regc/regc.h"
#include "regc/sim.h"

/* The copy 'path' ("block.inst.REG1") names in spec s. */
static inline struct regc_ref sim_ref(const struct regc_spec *s, const char *path)
{
    struct regc_ref r;
    char err[256];
    if (regc_resolve(s, path, &r, err, sizeof(err)) != 0)
        fail_msg("%s: %s", path, err);
    return r;
}

/* Sets the copy without side effects (regc_sim_poke). */
static inline void sim_poke(regc_sim *sim, const struct regc_spec *s, const char *path, uint64_t v)
{
    struct regc_ref r = sim_ref(s, path);
    assert_int_equal(regc_sim_poke(sim, &r, v), 0);
}

/* What the copy holds (regc_sim_peek). */
static inline uint64_t sim_peek(regc_sim *sim, const struct regc_spec *s, const char *path)
{
    struct regc_ref r = sim_ref(s, path);
    uint64_t v;
    assert_int_equal(regc_sim_peek(sim, &r, &v), 0);
    return v;
}

#endif
