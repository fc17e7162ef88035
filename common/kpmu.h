/*
 * kpmu - facts about the Linux kernel's uncore PMUs that regc (-t perf, perf's pmu-events JSON)
 * and libregrt (perf's language, the perf backend) both need, so the two never disagree.
 *
 * A fixed counter the kernel serves from another type's PMU. The spec keeps the Sandy Bridge
 * client's fixed counter (MSR_UNC_PERF_FIXED_CTRL/CTR 0x394/0x395) in block 'unc', where the
 * SDM puts it; the kernel hangs it on its C-Box type instead (arch/x86/events/intel/
 * uncore_snb.c, torvalds/linux 0378c93a: snb_uncore_cbox .fixed_ctr = SNB_UNC_FIXED_CTR,
 * .fixed_ctl = SNB_UNC_FIXED_CTR_CTRL, .single_fixed = 1), and with single_fixed only the
 * type's first PMU takes the fixed event (uncore.c uncore_pmu_event_init: attr.config ==
 * UNCORE_FIXED_EVENT and "single_fixed && pmu_idx > 0" is -EINVAL). So the event is
 * uncore_cbox_0/event=0xff/, also named by the type's alias "clockticks"
 * (snb_uncore_events: INTEL_UNCORE_EVENT_DESC(clockticks, "event=0xff,umask=0x00")). perf's
 * pmu-events JSON writes this counter's event with "EventCode": "0xff", "Counter": "FIXED"
 * and "Unit": "cbox_0" (its skylake uncore events, commit
 * e2641db83f18 "perf vendor events: Add/update skylake events/metrics"; haswell/counter.json
 * gives unit cbox_0 its one fixed counter); the jevents unit "cbox_0" is the PMU
 * uncore_cbox_0.
 */
#ifndef REGC_KPMU_H
#define REGC_KPMU_H

/* the kernel's UNCORE_FIXED_EVENT (arch/x86/events/intel/uncore.h): config 0xff selects a
 * type's fixed counter. uncore.c uncore_pmu_event_init (torvalds/linux
 * 00ed905ab8e5622700535cd14258e447ef1e7ba9) tests the whole config word, whatever config1 and
 * config2 hold: "if (event->attr.config == UNCORE_FIXED_EVENT) { /" "* no fixed counter *" "/
 * if (!pmu->type->fixed_ctl) return -EINVAL; ...". So event=0xff alone is refused on a type
 * without a fixed counter rather than counted as event code 0xff; of the E5 types only the
 * U-Box and the iMC have one (uncore_snbep.c: snbep_uncore_ubox, snbep_uncore_imc and
 * ivbep_uncore_imc set .fixed_ctl; snbep_uncore_ha, _qpi, _r2pcie, _r3qpi, the C-Box and the
 * PCU do not), of the Sandy Bridge client's only the C-Box (below), not the ARB. */
#define REGC_KPMU_FIXED_EVENT 0xff

struct regc_kpmu_fixed_host {
    const char *spec, *block; /* the spec's block holding the fixed counter group */
    const char *type;         /* the kernel's type serving it ("cbox"): its formats */
    const char *pmu;          /* the PMU taking the fixed event ("uncore_cbox_0") */
    const char *unit;         /* perf's pmu-events Unit of the event ("cbox_0") */
    const char *alias;        /* the kernel's event alias of the fixed event ("clockticks") */
};

/* The host of block 'block' of spec 'spec''s fixed counter, or NULL when the kernel serves it
 * from the block's own PMU (uncore_<block>, as for the E5-2600 U-Box and iMC). */
const struct regc_kpmu_fixed_host *regc_kpmu_fixed_host(const char *spec, const char *block);

/* The host whose PMU is 'pmu' for spec 'spec', or NULL. */
const struct regc_kpmu_fixed_host *regc_kpmu_fixed_host_pmu(const char *spec, const char *pmu);

/*
 * ExtSel, Intel perfmon's extra event-select bit, as perf reads it: jevents.py (torvalds/linux
 * tools/perf/pmu-events/jevents.py, JsonEvent.__init__, commit 0434410fa45c) turns it into bit 8
 * of the event term, "eventcode |= int(jd['ExtSel']) << 8", and the kernel's format
 * event_ext "config:0-7,21" puts that bit at config bit 21, the control's ev_sel_ext
 * (uncore_snbep.c, torvalds/linux 0378c93a: DEFINE_UNCORE_FORMAT_ATTR(event_ext, event,
 * "config:0-7,21")). 1: the kernel type serving block 'block' of spec 'spec' has that format
 * (snbep/ivbep_uncore_qpi_formats_attr); 0: its event format is config:0-7 and its raw event
 * mask leaves bit 21 out, so perf cannot count an ExtSel event there (the PCU:
 * snbep/ivbep_uncore_pcu_formats_attr &format_attr_event, SNBEP_PCU_MSR_PMON_RAW_EVENT_MASK and
 * IVBEP_PCU_MSR_PMON_RAW_EVENT_MASK without SNBEP_PMON_CTL_EV_SEL_EXT; the kernel's own
 * jaketown and ivytown uncore-power.json list none of the PCU's ExtSel events); -1: no fact.
 */
int regc_kpmu_ext_sel(const char *spec, const char *block);

/*
 * The kernel's format term that carries the whole value of register 'reg' of spec 'spec' (a
 * sub-control register the kernel programs from config1), or NULL. The Xeon 7500 M-Box's:
 * uncore_nhmex.c (torvalds/linux 294cbd05) DEFINE_UNCORE_FORMAT_ATTR dsp, thr, fvc, pgt, map,
 * iss "config1:0-31" and pld "config1:32-63"; nhmex_mbox_hw_config writes config1 (PLD: its
 * bits 63:32) to the register nhmex_uncore_mbox_extra_regs names for the event.
 */
const char *regc_kpmu_reg_term(const char *spec, const char *reg);

#endif
