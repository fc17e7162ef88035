// SPDX-License-Identifier: GPL-2.0
/*
 * regc_ubox - an out-of-tree kernel module built with kbuild that uses the
 * generated header generated/e5_2600v2.h as a driver would: it counts the
 * Xeon E5-2600 v2 U-Box event EVENT_MSG.DOORBELL_RCVD on counter 0 from load
 * to unload and prints the count.
 *
 * Build (examples/kernel/Makefile): make -C examples/kernel KDIR=/lib/modules/$(uname -r)/build
 * Loading it needs the real hardware: it refuses any CPU but family 6
 * model 0x3E (Ivy Bridge-EP, the kernel's INTEL_FAM6_IVYBRIDGE_X) and uses the
 * _safe MSR accessors, so a refused access is an error, not an oops.
 */
#include <linux/module.h>
#include <linux/types.h>
#include <asm/cpu_device_id.h>
#include <asm/intel-family.h>
#include <asm/msr.h>

#include "e5_2600v2.h"

#define CTR 0

static const struct x86_cpu_id regc_ubox_cpus[] = {
	X86_MATCH_INTEL_FAM6_MODEL(IVYBRIDGE_X, NULL),
	{}
};
MODULE_DEVICE_TABLE(x86cpu, regc_ubox_cpus);

static int regc_ubox_start(void)
{
	u64 ctl = E5_2600V2_EV_UBOX_EVENT_MSG_DOORBELL_RCVD |
		  E5_2600V2_U_MSR_PMON_CTL_EN_VAL(1);
	int rc;

	if (!((E5_2600V2_EV_UBOX_EVENT_MSG_DOORBELL_RCVD_COUNTERS >> CTR) & 1))
		return -EINVAL;
	if (e5_2600v2_u_msr_pmon_ctl_check(ctl))
		return -EINVAL; /* a rule of the manual is broken */
	/* freeze, program, clear the counter, unfreeze (guide 329468, 2.1.2) */
	rc = wrmsrl_safe(E5_2600V2_U_MSR_PMON_GLOBAL_CTL_ADDR,
			 E5_2600V2_U_MSR_PMON_GLOBAL_CTL_FRZ_ALL_VAL(1));
	if (!rc)
		rc = wrmsrl_safe(e5_2600v2_u_msr_pmon_ctl_addr(CTR), ctl);
	if (!rc)
		rc = wrmsrl_safe(e5_2600v2_u_msr_pmon_ctr_addr(CTR), 0);
	if (!rc)
		rc = wrmsrl_safe(E5_2600V2_U_MSR_PMON_GLOBAL_CTL_ADDR,
				 E5_2600V2_U_MSR_PMON_GLOBAL_CTL_UNFRZ_ALL_VAL(1));
	return rc ? -EIO : 0;
}

static int __init regc_ubox_init(void)
{
	int rc;

	if (!x86_match_cpu(regc_ubox_cpus))
		return -ENODEV;
	rc = regc_ubox_start();
	if (rc)
		pr_err("regc_ubox: programming U_MSR_PMON_CTL%d failed (%d)\n", CTR, rc);
	return rc;
}

static void __exit regc_ubox_exit(void)
{
	u64 raw = 0;

	wrmsrl_safe(E5_2600V2_U_MSR_PMON_GLOBAL_CTL_ADDR,
		    E5_2600V2_U_MSR_PMON_GLOBAL_CTL_FRZ_ALL_VAL(1));
	if (!rdmsrl_safe(e5_2600v2_u_msr_pmon_ctr_addr(CTR), &raw))
		pr_info("regc_ubox: EVENT_MSG.DOORBELL_RCVD: %llu\n",
			(unsigned long long)E5_2600V2_U_MSR_PMON_CTR_EVENT_COUNT_GET(raw));
	wrmsrl_safe(e5_2600v2_u_msr_pmon_ctl_addr(CTR), 0);
}

module_init(regc_ubox_init);
module_exit(regc_ubox_exit);
MODULE_DESCRIPTION("regc example: count a Xeon E5-2600 v2 U-Box event");
MODULE_LICENSE("GPL");
