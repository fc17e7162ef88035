/*
 * levels.c - the generated headers' safe-write helper keeps the box freeze as read.
 *
 * frz is a level: the box stays frozen until software writes 0 ("set
 * Cn_MSR_PMON_BOX_CTL.frz to 0", 329468-002 section 2.1.2 step f), and so is
 * the E5-2600's frz_en. A read-modify-write that pulses a reset must not clear
 * it, as regctl --rmw does not (runtime/dev.c regc_rmw). The expected values
 * are the manuals' bit positions, written out here, not taken from the
 * header: E5-2600 Cn_MSR_PMON_BOX_CTL (327043 Table 2-9): frz_en 16, frz 8,
 * rst_ctrs 1, rst_ctrl 0 (HA_PCI_PMON_BOX_CTL: 1:0 reserved); E5-2600 v2 (329468
 * Cn_MSR_PMON_BOX_CTL): bits 17:16 must be written 1, frz 8, rst_ctrs 1, rst_ctrl 0. Prints TAP;
 * exits 1 on a failure.
 */
#include "e5_2600.h"
#include "e5_2600v2.h"

#include <stdio.h>

static int n, failed;

static void is(unsigned long long got, unsigned long long want, const char *what)
{
    n++;
    if (got == want) {
        printf("ok %d - %s\n", n, what);
    } else {
        failed++;
        printf("not ok %d - %s: wrote 0x%llx, want 0x%llx\n", n, what, got, want);
    }
}

int main(void)
{
    /* E5-2600: a box frozen by frz_en+frz */
    const unsigned long long frozen = 0x10100;
    is(e5_2600_cn_msr_pmon_box_ctl_write_value(frozen, 0x2, E5_2600_ACT_WO), 0x10102,
       "E5-2600 C-Box: a rst_ctrs pulse keeps frz and frz_en as read");
    is(e5_2600_cn_msr_pmon_box_ctl_write_value(frozen, frozen | 0x2, E5_2600_ACT_WO), 0x10102,
       "E5-2600 C-Box: rst_ctrs on the value read keeps the freeze");
    is(e5_2600_cn_msr_pmon_box_ctl_write_value(frozen, 0, 0), 0x10100,
       "E5-2600 C-Box: a write that asks for nothing keeps the freeze");
    is(e5_2600_cn_msr_pmon_box_ctl_write_value(frozen, 0x10000, E5_2600_ACT_LEVEL), 0x10000,
       "E5-2600 C-Box: ACT_LEVEL writes frz 0 (unfreezes), frz_en as asked");
    is(e5_2600_cn_msr_pmon_box_ctl_write_value(0, 0x10100, E5_2600_ACT_LEVEL), 0x10100,
       "E5-2600 C-Box: ACT_LEVEL freezes");
    is(e5_2600_ha_pci_pmon_box_ctl_write_value(frozen | 0x3, 0x3, E5_2600_ACT_WO), 0x10100,
       "E5-2600 HA (bits 1:0 reserved there): the freeze kept, the reserved bits 0");
    /* E5-2600 v2: frz alone, RV1 bits 17:16 */
    is(e5_2600v2_cn_msr_pmon_box_ctl_write_value(0x30100, 0x2, E5_2600V2_ACT_WO), 0x30102,
       "E5-2600 v2 C-Box: a rst_ctrs pulse keeps frz as read");
    is(e5_2600v2_cn_msr_pmon_box_ctl_write_value(0x30000, 0x102, E5_2600V2_ACT_WO), 0x30002,
       "E5-2600 v2 C-Box: frz in 'wanted' is not written without ACT_LEVEL");
    is(e5_2600v2_cn_msr_pmon_box_ctl_write_value(0x30100, 0, E5_2600V2_ACT_LEVEL), 0x30000,
       "E5-2600 v2 C-Box: ACT_LEVEL unfreezes");
    /* a control without levels is unchanged: rst (bit 17) is an action, written only asked */
    is(e5_2600v2_cn_msr_pmon_ctl_write_value(0, 0x20000, 0), 0,
       "E5-2600 v2 C-Box counter control: rst is no level");
    printf("1..%d\n", n);
    return failed ? 1 : 0;
}
