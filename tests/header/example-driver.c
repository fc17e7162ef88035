/*
 * The example of docs/c-header.md, compiled against the e5_2600 header by
 * tests/header/run-behaviour.sh (keep the two in step). rdmsr/wrmsr stand in
 * for the platform's MSR access.
 */
#include "e5_2600.h"

uint64_t rdmsr(uint32_t msr);
void wrmsr(uint32_t msr, uint64_t value);

/* Count EVENT_MSG.DOORBELL_RCVD on U-Box counter 1; 0, or -1 when a rule forbids it. */
int ubox_count_doorbells(void);
int ubox_count_doorbells(void)
{
    uint64_t ctl = rdmsr(e5_2600_u_msr_pmon_ctl_addr(1));
    uint64_t want = (ctl & ~(E5_2600_U_MSR_PMON_CTL_EV_SEL_MASK | E5_2600_U_MSR_PMON_CTL_UMASK_MASK)) |
                    E5_2600_EV_UBOX_EVENT_MSG_DOORBELL_RCVD;
    want = e5_2600_u_msr_pmon_ctl_en_set(want, 1);
    if (e5_2600_u_msr_pmon_ctl_check(want) != 0)
        return -1; /* e5_2600_u_msr_pmon_ctl_rule_message() says why */
    /* clear the counter as well: rst is write-only, so ask for it */
    want = e5_2600_u_msr_pmon_ctl_rst_set(want, 1);
    wrmsr(e5_2600_u_msr_pmon_ctl_addr(1), e5_2600_u_msr_pmon_ctl_write_value(ctl, want, E5_2600_ACT_WO));
    return 0;
}
