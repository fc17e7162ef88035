/*
 * kernel_ubox - a driver-style snippet: the generated header compiled as a
 * kernel module would compile it (-D__KERNEL__ -nostdinc, <linux/types.h>
 * only; examples/kernel-stub/linux/types.h stands in for the kernel's).
 * wrmsrl/rdmsrl are the kernel's MSR accessors, declared here so the
 * snippet compiles on its own; it is compiled, not linked.
 */
#include <linux/types.h>

#include "e5_2600v2.h"

void wrmsrl(unsigned int msr, u64 val);
u64 rdmsrl_value(unsigned int msr);
int uncore_ubox_start(unsigned int counter);
u64 uncore_ubox_read(unsigned int counter);

int uncore_ubox_start(unsigned int counter)
{
    u64 ctl = E5_2600V2_EV_UBOX_EVENT_MSG_DOORBELL_RCVD | E5_2600V2_U_MSR_PMON_CTL_EN_VAL(1);
    if (counter > 1 || !((E5_2600V2_EV_UBOX_EVENT_MSG_DOORBELL_RCVD_COUNTERS >> counter) & 1))
        return -22; /* -EINVAL */
    if (e5_2600v2_u_msr_pmon_ctl_check(ctl))
        return -22; /* a rule of the manual is broken */
    wrmsrl(E5_2600V2_U_MSR_PMON_GLOBAL_CTL_ADDR, E5_2600V2_U_MSR_PMON_GLOBAL_CTL_FRZ_ALL_VAL(1));
    wrmsrl(e5_2600v2_u_msr_pmon_ctr_addr(counter), 0);
    wrmsrl(e5_2600v2_u_msr_pmon_ctl_addr(counter), ctl);
    wrmsrl(E5_2600V2_U_MSR_PMON_GLOBAL_CTL_ADDR, E5_2600V2_U_MSR_PMON_GLOBAL_CTL_UNFRZ_ALL_VAL(1));
    return 0;
}

u64 uncore_ubox_read(unsigned int counter)
{
    return E5_2600V2_U_MSR_PMON_CTR_EVENT_COUNT_GET(
        rdmsrl_value(e5_2600v2_u_msr_pmon_ctr_addr(counter)));
}
