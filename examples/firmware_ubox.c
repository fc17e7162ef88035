/*
 * firmware_ubox - firmware-style use of a generated header alone.
 *
 * ubox_count_doorbells() programs U-Box counter 0 of an E5-2600 v2 to count
 * EVENT_MSG.DOORBELL_RCVD and reads it back, following the guide's steps
 * (329468 section 2.1.2: freeze all, reset, program, unfreeze; 2.1.3: freeze,
 * read, unfreeze). The flow code uses nothing but generated/e5_2600v2.h and
 * a register-access function pointer: no libc, no allocation, no library; it
 * builds freestanding. main() below is only the test bench: it backs the
 * function pointer with libregrt's simulator so `make check` can run it.
 */
#include "e5_2600v2.h"

/* How the platform reaches an MSR (rdmsr/wrmsr in real firmware). */
struct msr_access {
    uint64_t (*read)(void *ctx, uint32_t msr);
    void (*write)(void *ctx, uint32_t msr, uint64_t value);
    void *ctx;
};

/* ---- the flow: generated header + function pointer only */

static void ubox_start(const struct msr_access *m)
{
    /* a) freeze all uncore counters */
    m->write(m->ctx, E5_2600V2_U_MSR_PMON_GLOBAL_CTL_ADDR,
             E5_2600V2_U_MSR_PMON_GLOBAL_CTL_FRZ_ALL_VAL(1));
    /* b) the U-Box has no box control: clear its counter directly */
    m->write(m->ctx, e5_2600v2_u_msr_pmon_ctr_addr(0), 0);
    /* c) program: the ready encoding of the event, plus the local enable */
    m->write(m->ctx, e5_2600v2_u_msr_pmon_ctl_addr(0),
             E5_2600V2_EV_UBOX_EVENT_MSG_DOORBELL_RCVD | E5_2600V2_U_MSR_PMON_CTL_EN_VAL(1));
    /* f) unfreeze all */
    m->write(m->ctx, E5_2600V2_U_MSR_PMON_GLOBAL_CTL_ADDR,
             E5_2600V2_U_MSR_PMON_GLOBAL_CTL_UNFRZ_ALL_VAL(1));
}

/* Polling: freeze, read, unfreeze; the count field only (bits 43:0). */
static uint64_t ubox_read(const struct msr_access *m)
{
    m->write(m->ctx, E5_2600V2_U_MSR_PMON_GLOBAL_CTL_ADDR,
             E5_2600V2_U_MSR_PMON_GLOBAL_CTL_FRZ_ALL_VAL(1));
    uint64_t v =
        E5_2600V2_U_MSR_PMON_CTR_EVENT_COUNT_GET(m->read(m->ctx, e5_2600v2_u_msr_pmon_ctr_addr(0)));
    m->write(m->ctx, E5_2600V2_U_MSR_PMON_GLOBAL_CTL_ADDR,
             E5_2600V2_U_MSR_PMON_GLOBAL_CTL_UNFRZ_ALL_VAL(1));
    return v;
}

/* ---- test bench (hosted): the simulator stands in for the MSRs */
#ifndef FIRMWARE_FLOW_ONLY
#include <stdio.h>

#include "e5_2600v2_tables.h"
#include "regc/sim.h"

static uint64_t sim_read(void *ctx, uint32_t msr)
{
    struct regc_io io = {.space = REGC_SPACE_MSR, .address = msr, .size = 64};
    uint64_t v = 0;
    if (regc_sim_read(ctx, &io, &v) < 0)
        fprintf(stderr, "firmware_ubox: rdmsr 0x%x faulted\n", (unsigned)msr);
    return v;
}

static void sim_write(void *ctx, uint32_t msr, uint64_t value)
{
    struct regc_io io = {.space = REGC_SPACE_MSR, .address = msr, .size = 64};
    if (regc_sim_write(ctx, &io, value) < 0)
        fprintf(stderr, "firmware_ubox: wrmsr 0x%x 0x%llx faulted\n", (unsigned)msr,
                (unsigned long long)value);
}

int main(void)
{
    regc_sim *sim;
    if (regc_sim_new(&sim, &e5_2600v2_spec) < 0)
        return 1;
    struct msr_access m = {sim_read, sim_write, sim};
    ubox_start(&m);
    regc_sim_event(sim, "ubox:EVENT_MSG.DOORBELL_RCVD", 1234);
    uint64_t n = ubox_read(&m);
    printf("doorbells: %llu\n", (unsigned long long)n);
    regc_sim_free(sim);
    return n == 1234 ? 0 : 1;
}
#endif
