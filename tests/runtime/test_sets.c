/*
 * test_sets - an event's <set>s land where the manual says: on its own
 * control register in the control value, on another register (M-Box
 * sub-control) in that register of the same box instance; two events that
 * need different values of one such field are refused without multiplexing. The control values
 * are compared with the generated headers' encodings (the C-header path of
 * regc, not the descriptor tables the runtime reads), plus only the bits the
 * flow owns (enable, wrap mode). The cases are those of issue #14.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "../../generated/e5_2600v2.h"
#include "../../generated/snb_client.h"
#include "../../generated/xeon7500_mbox.h"
#include "flow_cases.h"
#include "hand_tables.h"
#include "simutil.h"

struct fx {
    regc_dev *d;
    regc_pmon_session *p;
};

static void open_fx(struct fx *f, const struct regc_spec *s)
{
    struct regc_options o = {.backend = "sim"};
    char err[256];
    assert_non_null(s);
    assert_int_equal(regc_open(&f->d, s, &o, err, sizeof(err)), 0);
    assert_int_equal(regc_pmon_new(&f->p, f->d), 0);
}

static void close_fx(struct fx *f)
{
    regc_pmon_free(f->p);
    regc_close(f->d);
}

static void add(struct fx *f, const char *ev)
{
    if (regc_pmon_add(f->p, ev) != 0)
        fail_msg("add %s: %s", ev, regc_pmon_error(f->p));
}

static void start(struct fx *f)
{
    struct regc_pmon_opts o = {.settle_ms = -1};
    if (regc_pmon_start(f->p, &o) != 0)
        fail_msg("start: %s", regc_pmon_error(f->p));
}

/* The value event i's control register holds now. */
static uint64_t ctl_of(struct fx *f, unsigned i)
{
    struct regc_pmon_info in;
    uint64_t v;
    assert_int_equal(regc_pmon_info(f->p, i, &in), 0);
    assert_int_equal(regc_sim_peek(regc_dev_sim(f->d), &in.ctl, &v), 0);
    return v;
}

/* The value register 'path' ("block.inst.REG") holds now. */
static uint64_t reg_of(struct fx *f, const char *path)
{
    return sim_peek(regc_dev_sim(f->d), regc_dev_spec(f->d), path);
}

#define MBOX_FLOW (XEON7500_M_MSR_PMU_CNT_CTL_EN_MASK | XEON7500_M_MSR_PMU_CNT_CTL_WRAP_MODE_MASK)

/* Sandy Bridge ARB: CMASK (an own-register set) stays in the control value. */
static void t_snb_cmask(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, flow_spec("snb_client"));
    add(&f, "arb:TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST");
    start(&f);
    assert_int_equal(ctl_of(&f, 0), SNB_UNC_EV_ARB_TRK_OCCUPANCY_CYCLES_WITH_ANY_REQUEST |
                                        SNB_UNC_MSR_UNC_ARB_PERFEVTSEL_EN_MASK);
    close_fx(&f);
}

/* M-Box: flag_mode on the flag-mode event only, its DSP value in mbox0's DSP register. */
static void t_mbox_flag_mode(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, flow_spec("xeon7500_mbox"));
    add(&f, "mbox:INFLIGHT_CMDS");
    add(&f, "mbox:CYCLES_DSP_FILL.WRQ_EMPTY");
    add(&f, "mbox:BCMD_SCHEDQ_OCCUPANCY.WRITES");
    start(&f);
    assert_int_equal(ctl_of(&f, 0), XEON7500_EV_MBOX_INFLIGHT_CMDS | MBOX_FLOW);
    assert_int_equal(ctl_of(&f, 1), XEON7500_EV_MBOX_CYCLES_DSP_FILL_WRQ_EMPTY | MBOX_FLOW);
    assert_int_equal(ctl_of(&f, 2), XEON7500_EV_MBOX_BCMD_SCHEDQ_OCCUPANCY_WRITES | MBOX_FLOW);
    /* the sub-fields (Table 2-85 DSP[10:7], Table 2-93 MAP[8:5]) hold the sub-event's unit mask:
     * the whole registers are 0x400 and 0x20, the values the kernel writes */
    assert_int_equal(reg_of(&f, "mbox.mbox0.M_MSR_PMU_DSP") & XEON7500_M_MSR_PMU_DSP_DSP_FILL_MASK,
                     UINT64_C(0x8) << XEON7500_M_MSR_PMU_DSP_DSP_FILL_SHIFT);
    assert_int_equal(reg_of(&f, "mbox.mbox0.M_MSR_PMU_DSP"), 0x400);
    assert_int_equal(reg_of(&f, "mbox.mbox0.M_MSR_PMU_MAP") &
                         XEON7500_M_MSR_PMU_MAP_BCMD_SCHEDQ_MASK,
                     UINT64_C(0x1) << XEON7500_M_MSR_PMU_MAP_BCMD_SCHEDQ_SHIFT);
    assert_int_equal(reg_of(&f, "mbox.mbox0.M_MSR_PMU_MAP"), 0x20);
    close_fx(&f);
}

/* E5-2600 v2 PCU: ev_sel_ext where the header has it, and not where it has not. */
static void t_pcu_ev_sel_ext(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, flow_spec("e5_2600v2"));
    add(&f, "pcu:CORE0_TRANSITION_CYCLES");
    add(&f, "pcu:DELAYED_C_STATE_ABORT_CORE0");
    start(&f);
    assert_int_equal(ctl_of(&f, 0),
                     E5_2600V2_EV_PCU_CORE0_TRANSITION_CYCLES | E5_2600V2_PCU_MSR_PMON_CTL_EN_MASK);
    assert_int_equal(ctl_of(&f, 1), E5_2600V2_EV_PCU_DELAYED_C_STATE_ABORT_CORE0 |
                                        E5_2600V2_PCU_MSR_PMON_CTL_EN_MASK);
    close_fx(&f);
}

/* A sub-control setting goes to the event's own box instance, and to no other. */
static void t_same_instance(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, flow_spec("xeon7500_mbox"));
    add(&f, "mbox[mbox1]:FRM_TYPE.FRM_TYPE_SYNC");
    start(&f);
    assert_int_equal(ctl_of(&f, 0), XEON7500_EV_MBOX_FRM_TYPE_FRM_TYPE_SYNC | MBOX_FLOW);
    assert_int_equal(reg_of(&f, "mbox.mbox1.M_MSR_PMU_ISS") & XEON7500_M_MSR_PMU_ISS_FRM_TYPE_MASK,
                     UINT64_C(0x2) << XEON7500_M_MSR_PMU_ISS_FRM_TYPE_SHIFT);
    assert_int_equal(reg_of(&f, "mbox.mbox0.M_MSR_PMU_ISS"), 0);
    close_fx(&f);
}

/* Different values of one sub-control field in one box: without multiplexing refused at start,
 * both events and the field named (with it, counted in turns: test_filter_mux); equal values, or
 * the two boxes, are fine. */
static void t_conflict(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, flow_spec("xeon7500_mbox"));
    add(&f, "mbox:FRM_TYPE.FRM_TYPE_3CMD");
    add(&f, "mbox:FRM_TYPE.FRM_TYPE_WDAT");
    struct regc_pmon_opts o = {.settle_ms = -1};
    assert_int_equal(regc_pmon_start(f.p, &o), -EINVAL);
    assert_string_equal(
        regc_pmon_error(f.p),
        "'mbox:FRM_TYPE.FRM_TYPE_3CMD' and 'mbox:FRM_TYPE.FRM_TYPE_WDAT' cannot be "
        "counted together in mbox.mbox0: they need M_MSR_PMU_ISS.frm_type = 0x0 and 0x1; one "
        "filter register holds one value; multiplexing would count them in turns, but it is off "
        "(regctl: --no-multiplex)");
    close_fx(&f);
    open_fx(&f, flow_spec("xeon7500_mbox"));
    add(&f, "mbox:FRM_TYPE.FRM_TYPE_3CMD");
    add(&f, "mbox[mbox1]:FRM_TYPE.FRM_TYPE_WDAT");
    add(&f, "mbox[mbox0]:FRM_TYPE.FRM_TYPE_3CMD");
    start(&f);
    assert_int_equal(reg_of(&f, "mbox.mbox1.M_MSR_PMU_ISS"), 1);
    assert_int_equal(reg_of(&f, "mbox.mbox0.M_MSR_PMU_ISS"), 0);
    close_fx(&f);
}

/* A hand-written table that names the event's own control register in a set: the field goes
 * into the control value of the counter the event got (index 1), not into element 0. */
static void t_hand_own_register(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, &acme_spec);
    add(&f, "box:TICKS");
    add(&f, "box:HOT");
    start(&f);
    struct regc_pmon_info in;
    assert_int_equal(regc_pmon_info(f.p, 1, &in), 0);
    assert_int_equal(in.index, 1);
    /* ev 0x3, thr 2 (bits 13:8), en (bit 15), wrap (bit 19) */
    assert_int_equal(ctl_of(&f, 1), 0x3 | 2u << 8 | 1u << 15 | 1u << 19);
    assert_int_equal(ctl_of(&f, 0), 0x1 | 1u << 15 | 1u << 19);
    close_fx(&f);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(t_snb_cmask),      cmocka_unit_test(t_mbox_flag_mode),
        cmocka_unit_test(t_pcu_ev_sel_ext), cmocka_unit_test(t_same_instance),
        cmocka_unit_test(t_conflict),       cmocka_unit_test(t_hand_own_register),
    };
    return cmocka_run_group_tests_name("sets", t, NULL, NULL);
}
