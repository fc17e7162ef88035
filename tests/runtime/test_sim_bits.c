/*
 * test_sim_bits - the simulator counts only what the register bits encode
 * (regc/sim.h): events by name reach a counter when its control's bits, and
 * the other registers of its box instance, hold the event's encoding; the
 * parent of sub-events matches whatever sub-event is selected; a control
 * that encodes no event counts nothing and is reported; thresh, invert and
 * edge_det shape the per-cycle increments as the uncore guides say
 * (327043-001 Table 2-2). Controls are written as raw values taken from the
 * generated headers' encodings, or programmed by the pmon flow.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "../../generated/e5_2600.h"
#include "../../generated/e5_2600v2.h"
#include "../../generated/snb_client.h"
#include "../../generated/xeon7500_mbox.h"
#include "flow_cases.h"
#include "simutil.h"

struct fx {
    const struct regc_spec *s;
    regc_dev *d;
    regc_sim *sim;
};

static void open_fx(struct fx *f, const char *spec)
{
    struct regc_options o = {.backend = "sim"};
    char err[256];
    f->s = flow_spec(spec);
    assert_non_null(f->s);
    assert_int_equal(regc_open(&f->d, f->s, &o, err, sizeof(err)), 0);
    f->sim = regc_dev_sim(f->d);
}

static void poke(struct fx *f, const char *path, uint64_t v)
{
    sim_poke(f->sim, f->s, path, v);
}

static uint64_t peek(struct fx *f, const char *path)
{
    return sim_peek(f->sim, f->s, path);
}

/* How much counter 'ctr' moves for n occurrences of 'event' (one event, at once). */
static uint64_t counts(struct fx *f, const char *ctr, const char *event, int64_t n)
{
    uint64_t before = peek(f, ctr);
    if (regc_sim_event(f->sim, event, n) != 0)
        fail_msg("%s: %s", event, regc_sim_error(f->sim));
    return peek(f, ctr) - before;
}

#define IVT_CBOX_EN E5_2600V2_CN_MSR_PMON_CTL_EN_MASK

/* Sub-events differ in umask: only the one encoded counts; its parent counts too. */
static void t_umask(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, "e5_2600v2");
    const char *ctr = "cbox.c2.Cn_MSR_PMON_CTR1";
    assert_int_equal(counts(&f, ctr, "cbox[c2]:LLC_LOOKUP.DATA_READ", 5), 0); /* not enabled */
    poke(&f, "cbox.c2.Cn_MSR_PMON_CTL1", E5_2600V2_EV_CBOX_LLC_LOOKUP_DATA_READ | IVT_CBOX_EN);
    /* LLC_LOOKUP counts through the state filter: at 0 it counts nothing (perfmon) */
    assert_int_equal(counts(&f, ctr, "cbox[c2]:LLC_LOOKUP.DATA_READ", 5), 0);
    poke(&f, "cbox.c2.Cn_MSR_PMON_BOX_FILTER0", E5_2600V2_CN_MSR_PMON_BOX_FILTER0_STATE_MASK);
    assert_int_equal(counts(&f, ctr, "cbox[c2]:LLC_LOOKUP.DATA_READ", 5), 5);
    assert_int_equal(counts(&f, ctr, "cbox[c2]:LLC_LOOKUP.NID", 7), 0);
    assert_int_equal(counts(&f, ctr, "cbox[c2]:LLC_LOOKUP", 11), 11);
    assert_int_equal(counts(&f, ctr, "cbox[c2]:CLOCKTICKS", 13), 0);
    assert_int_equal(counts(&f, ctr, "cbox[c3]:LLC_LOOKUP.DATA_READ", 17), 0); /* other box */
    assert_int_equal(counts(&f, ctr, "cbox:LLC_LOOKUP.DATA_READ", 19), 0);     /* c0 */
    /* the extra-bit encodings of the issue: ev_sel_ext is part of the event */
    const char *pctr = "pcu.PCU_MSR_PMON_CTR1";
    poke(&f, "pcu.PCU_MSR_PMON_CTL1",
         E5_2600V2_EV_PCU_DELAYED_C_STATE_ABORT_CORE0 | E5_2600V2_PCU_MSR_PMON_CTL_EN_MASK);
    assert_int_equal(counts(&f, pctr, "pcu:DELAYED_C_STATE_ABORT_CORE0", 3), 3);
    poke(&f, "pcu.PCU_MSR_PMON_CTL1",
         (E5_2600V2_EV_PCU_DELAYED_C_STATE_ABORT_CORE0 &
          ~E5_2600V2_PCU_MSR_PMON_CTL_EV_SEL_EXT_MASK) |
             E5_2600V2_PCU_MSR_PMON_CTL_EN_MASK);
    assert_int_equal(counts(&f, pctr, "pcu:DELAYED_C_STATE_ABORT_CORE0", 3), 0);
    regc_close(f.d);
}

/* The M-Box defect of issue #14: CYCLES_DSP_FILL without flag_mode is DSP_FILL. Sub-control
 * settings are part of the event, in the same box instance. */
static void t_mbox(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, "xeon7500_mbox");
    poke(&f, "ubox.U_MSR_PMON_GLOBAL_CTL", UINT64_C(1) << 28); /* en_all */
    poke(&f, "mbox.mbox0.M_MSR_PERF_GLOBAL_CTL", 0x3f);        /* ctr_en */
    poke(&f, "mbox.mbox1.M_MSR_PERF_GLOBAL_CTL", 0x3f);
    const char *ctr = "mbox.mbox0.M_MSR_PMU_CNT1";
    poke(&f, "mbox.mbox0.M_MSR_PMU_CNT_CTL1", 0x41); /* en, wrap: what the old runtime wrote */
    assert_int_equal(counts(&f, ctr, "mbox:CYCLES_DSP_FILL", 5), 0);
    assert_int_equal(counts(&f, ctr, "mbox:DSP_FILL", 5), 5);
    poke(&f, "mbox.mbox0.M_MSR_PMU_CNT_CTL1", XEON7500_EV_MBOX_CYCLES_DSP_FILL | 0x41);
    assert_int_equal(counts(&f, ctr, "mbox:CYCLES_DSP_FILL", 5), 5);
    assert_int_equal(counts(&f, ctr, "mbox:DSP_FILL", 5), 0);
    assert_int_equal(counts(&f, ctr, "mbox:CYCLES_DSP_FILL.WRQ_EMPTY", 5), 0); /* DSP is 0 */
    poke(&f, "mbox.mbox0.M_MSR_PMU_DSP", 0x400);
    assert_int_equal(counts(&f, ctr, "mbox:CYCLES_DSP_FILL.WRQ_EMPTY", 5), 5);
    assert_int_equal(counts(&f, ctr, "mbox:CYCLES_DSP_FILL.RDQ_EMPTY", 5), 0);
    /* FRM_TYPE: ISS of mbox1 selects the frame type of mbox1's counters only */
    const char *ctr1 = "mbox.mbox1.M_MSR_PMU_CNT0";
    poke(&f, "mbox.mbox1.M_MSR_PMU_CNT_CTL0", XEON7500_EV_MBOX_FRM_TYPE_FRM_TYPE_WDAT | 0x41);
    assert_int_equal(counts(&f, ctr1, "mbox[mbox1]:FRM_TYPE.FRM_TYPE_WDAT", 3), 0);
    assert_int_equal(counts(&f, ctr1, "mbox[mbox1]:FRM_TYPE.FRM_TYPE_3CMD", 3), 3); /* ISS 0 */
    poke(&f, "mbox.mbox0.M_MSR_PMU_ISS", 1);
    assert_int_equal(counts(&f, ctr1, "mbox[mbox1]:FRM_TYPE.FRM_TYPE_WDAT", 3), 0);
    poke(&f, "mbox.mbox1.M_MSR_PMU_ISS", 1);
    assert_int_equal(counts(&f, ctr1, "mbox[mbox1]:FRM_TYPE.FRM_TYPE_WDAT", 3), 3);
    assert_int_equal(counts(&f, ctr1, "mbox[mbox1]:FRM_TYPE", 3), 3);
    /* nothing counts while the U-Box disables counting */
    poke(&f, "ubox.U_MSR_PMON_GLOBAL_CTL", 0);
    assert_int_equal(counts(&f, ctr1, "mbox[mbox1]:FRM_TYPE", 3), 0);
    regc_close(f.d);
}

/* Rates per interval; a rate for an event nothing encodes counts nothing; the encodings seen,
 * and those that name no event. */
static void t_rates_and_encodings(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, "e5_2600v2");
    regc_pmon_session *p;
    assert_int_equal(regc_pmon_new(&p, f.d), 0);
    assert_int_equal(regc_pmon_add(p, "cbox[c2]:LLC_LOOKUP.DATA_READ"), -EINVAL); /* its filter */
    assert_int_equal(
        regc_pmon_add(p, "cbox[c2]:LLC_LOOKUP.DATA_READ,Cn_MSR_PMON_BOX_FILTER0.state=0x3f"), 0);
    assert_int_equal(regc_pmon_add(p, "cbox[c2]:raw,reg=Cn_MSR_PMON_CTL,ev_sel=0x34,umask=0x77"),
                     0);
    struct regc_pmon_opts o = {.settle_ms = -1};
    assert_int_equal(regc_pmon_start(p, &o), 0);
    assert_int_equal(regc_sim_rate(f.sim, "cbox[c2]:LLC_LOOKUP.DATA_READ", 1000), 0);
    assert_int_equal(regc_sim_rate(f.sim, "cbox[c2]:LLC_LOOKUP.NID", 7), 0);
    assert_int_equal(regc_sim_rate(f.sim, "ubox:EVENT_MSG.DOORBELL_RCVD", 9), 0); /* unmonitored */
    assert_int_equal(regc_sim_rate(f.sim, "cbox[c2]:raw,reg=Cn_MSR_PMON_CTL,umask=0x77", 3), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(regc_sim_interval(f.sim), 0);
    uint64_t t[2];
    assert_int_equal(regc_pmon_poll(p, t), 0);
    assert_int_equal(t[0], 2000);
    assert_int_equal(t[1], 6); /* the raw rate names only the umask */
    assert_int_equal(regc_sim_rate(f.sim, "cbox[c2]:LLC_LOOKUP.DATA_READ", 0), 0); /* removed */
    assert_int_equal(regc_sim_interval(f.sim), 0);
    assert_int_equal(regc_pmon_poll(p, t), 0);
    assert_int_equal(t[0], 2000);
    /* both controls seen; the raw one encodes the parent LLC_LOOKUP (its sub-events' umask is
     * free in it) */
    struct regc_sim_encoding enc[8];
    assert_int_equal(regc_sim_encodings(f.sim, false, enc, 8), 2);
    assert_string_equal(enc[0].event->name, "LLC_LOOKUP.DATA_READ");
    assert_string_equal(enc[1].event->name, "LLC_LOOKUP");
    assert_int_equal(regc_sim_encodings(f.sim, true, enc, 8), 0);
    regc_pmon_free(p); /* left frozen: a fresh model for the next case */
    regc_close(f.d);
    /* a code no table has: unmatched, and no named rate reaches it */
    open_fx(&f, "e5_2600v2");
    poke(&f, "cbox.c2.Cn_MSR_PMON_CTL0", 0xfe | IVT_CBOX_EN);
    assert_int_equal(counts(&f, "cbox.c2.Cn_MSR_PMON_CTR0", "cbox[c2]:CLOCKTICKS", 5), 0);
    assert_int_equal(regc_sim_encodings(f.sim, true, enc, 8), 1);
    assert_null(enc[0].event);
    assert_int_equal(enc[0].value, 0xfe | IVT_CBOX_EN);
    char nm[128];
    assert_string_equal(regc_ref_name(&enc[0].ctl, nm, sizeof(nm)), "cbox.c2.Cn_MSR_PMON_CTL0");
    regc_close(f.d);
}

/* Names that do not resolve: the reason, and no rate kept. */
static void t_errors(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, "e5_2600v2");
    assert_int_equal(regc_sim_rate(f.sim, "cbox[c2]:NO_SUCH", 1), -ENOENT);
    assert_string_equal(regc_sim_error(f.sim),
                        "'cbox[c2]:NO_SUCH': no event 'NO_SUCH' in the block's tables");
    assert_int_equal(regc_sim_rate(f.sim, "nobox:X", 1), -ENOENT);
    assert_int_equal(regc_sim_rate(f.sim, "cbox[c99]:CLOCKTICKS", 1), -ENOENT);
    assert_int_equal(regc_sim_rate(f.sim, "cbox", 1), -EINVAL);
    assert_int_equal(regc_sim_rate(f.sim, "cbox[c2:CLOCKTICKS", 1), -EINVAL);
    assert_int_equal(regc_sim_rate(f.sim, "cbox:raw,ev_sel=1", 1), -EINVAL);
    assert_int_equal(regc_sim_rate(f.sim, "cbox:CLOCKTICKS,nofield=1", 1), -ENOENT);
    assert_int_equal(regc_sim_rate(f.sim, "cbox:CLOCKTICKS,thresh", 1), -EINVAL);
    assert_int_equal(regc_sim_rate(f.sim, "cbox:CLOCKTICKS,thresh=x", 1), -EINVAL);
    assert_int_equal(regc_sim_rate(f.sim, "ha[ha0]:fixed", 1), -ENOENT);
    assert_int_equal(regc_sim_event(f.sim, "cbox:NOPE", 1), -ENOENT);
    const uint64_t inc[1] = {1};
    assert_int_equal(regc_sim_cycles(f.sim, "cbox:NOPE", inc, 1), -ENOENT);
    assert_int_equal(regc_sim_interval(f.sim), 0); /* nothing kept */
    regc_close(f.d);
}

/*
 * thresh, invert, edge_det per cycle (E5-2600 C-Box, which has all three):
 * increments 0 1 2 3 0 5 5 1 give 17 raw; thresh 2: 4 cycles >= 2; invert:
 * 4 cycles < 2; edge_det: 2 rising edges of '>= 2'; edge_det and invert: 3
 * rising edges of '< 2' (the falling edges of '>= 2', the first cycle
 * included as the comparison starts false); thresh 0 with edge_det: 2 rising
 * edges of 'increment > 0'.
 */
static void t_thresh_invert_edge(void **state)
{
    (void)state;
    static const uint64_t inc[] = {0, 1, 2, 3, 0, 5, 5, 1};
    static const struct {
        uint64_t thresh, invert, edge, want;
    } cases[] = {{0, 0, 0, 17}, {2, 0, 0, 4}, {2, 1, 0, 4}, {2, 0, 1, 2},
                 {2, 1, 1, 3},  {4, 0, 0, 2}, {6, 0, 0, 0}, {0, 0, 1, 2}};
    struct fx f;
    open_fx(&f, "e5_2600");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint64_t ctl = E5_2600_EV_CBOX_CLOCKTICKS | E5_2600_CN_MSR_PMON_CTL_EN_MASK |
                       E5_2600_CN_MSR_PMON_CTL_THRESH_VAL(cases[i].thresh) |
                       E5_2600_CN_MSR_PMON_CTL_INVERT_VAL(cases[i].invert) |
                       E5_2600_CN_MSR_PMON_CTL_EDGE_DET_VAL(cases[i].edge);
        poke(&f, "cbox.cbox1.Cn_MSR_PMON_CTR2", 0);
        poke(&f, "cbox.cbox1.Cn_MSR_PMON_CTL2", ctl);
        assert_int_equal(regc_sim_cycles(f.sim, "cbox[cbox1]:CLOCKTICKS", inc, 8), 0);
        if (peek(&f, "cbox.cbox1.Cn_MSR_PMON_CTR2") != cases[i].want)
            fail_msg("thresh %llu invert %llu edge %llu: %llu, expected %llu",
                     (unsigned long long)cases[i].thresh, (unsigned long long)cases[i].invert,
                     (unsigned long long)cases[i].edge,
                     (unsigned long long)peek(&f, "cbox.cbox1.Cn_MSR_PMON_CTR2"),
                     (unsigned long long)cases[i].want);
    }
    regc_close(f.d);
}

/* The reference for the clock (sim.h): occurrence count of cycle c when n are spread over L. */
static uint64_t spread(uint64_t n, uint64_t L, uint64_t c)
{
    return (c + 1) * n / L - c * n / L;
}

/* What the guide's per-cycle rule counts over those L cycles, cycle by cycle; *prev is the
 * comparison's value before the first cycle and after the last. */
static uint64_t by_hand(uint64_t n, uint64_t L, uint64_t t, bool inv, bool edge, bool *prev)
{
    uint64_t sum = 0;
    for (uint64_t c = 0; c < L; c++) {
        uint64_t inc = spread(n, L, c);
        bool cmp = !t ? inc > 0 : inv ? inc < t : inc >= t;
        if (!t && !edge)
            sum += inc;
        else if (edge)
            sum += cmp && !*prev;
        else
            sum += cmp;
        *prev = cmp;
    }
    return sum;
}

/*
 * The clock (sim.h): an interval is L cycles; n occurrences spread over them
 * leave idle cycles, which thresh=1,invert=1 counts (the guide's "cycles
 * with no occurrence"), and edge_det counts the rising edges of the rate as
 * it changes. Every combination of rates 0..2L+1 (several intervals in a
 * row, so the edge state carries over), thresholds 0..3, invert and edge on
 * an E5-2600 C-Box counter, against the per-cycle rule applied cycle by
 * cycle here.
 */
static void t_clock(void **state)
{
    (void)state;
    static const uint64_t Ls[] = {1, 2, 7, 10};
    struct fx f;
    open_fx(&f, "e5_2600");
    assert_int_equal(regc_sim_clock_get(f.sim), REGC_SIM_CLOCK_DEFAULT);
    assert_int_equal(regc_sim_clock(f.sim, 0), -EINVAL);
    const char *ctr = "cbox.cbox1.Cn_MSR_PMON_CTR2";
    for (size_t li = 0; li < sizeof(Ls) / sizeof(Ls[0]); li++) {
        uint64_t L = Ls[li];
        assert_int_equal(regc_sim_clock(f.sim, L), 0);
        for (uint64_t t = 0; t < 4; t++)
            for (unsigned m = 0; m < 4; m++) {
                bool inv = m & 1, edge = m & 2;
                poke(&f, "cbox.cbox1.Cn_MSR_PMON_CTL2",
                     E5_2600_EV_CBOX_CLOCKTICKS | E5_2600_CN_MSR_PMON_CTL_EN_MASK |
                         E5_2600_CN_MSR_PMON_CTL_THRESH_VAL(t) |
                         E5_2600_CN_MSR_PMON_CTL_INVERT_VAL(inv) |
                         E5_2600_CN_MSR_PMON_CTL_EDGE_DET_VAL(edge));
                bool prev = false; /* a control written starts the comparison afresh */
                for (uint64_t n = 0; n <= 2 * L + 1; n++) {
                    uint64_t want = by_hand(n, L, t, inv, edge, &prev);
                    uint64_t got = counts(&f, ctr, "cbox[cbox1]:CLOCKTICKS", (int64_t)n);
                    if (got != want)
                        fail_msg("L %llu thresh %llu invert %d edge %d, %llu occurrences: counted "
                                 "%llu, the guide's rule %llu",
                                 (unsigned long long)L, (unsigned long long)t, inv, edge,
                                 (unsigned long long)n, (unsigned long long)got,
                                 (unsigned long long)want);
                }
            }
    }
    regc_close(f.d);
}

/*
 * The same on concrete numbers, as a reader checks them: 1000 cycles an
 * interval; 300 occurrences leave 700 idle cycles (thresh 1, invert 1); an
 * interval without the event is 1000 idle cycles, counted though no rate
 * reaches the counter; edge_det with thresh 1 counts 300 rising edges (the
 * occurrences lie apart), none in an idle interval, 1 for a rate of one per
 * cycle rising from idle, 0 while it stays, 1 when it rises again after an
 * idle interval; 999 in 1000 cycles leave cycle 0 idle (cycle c holds
 * floor((c+1)n/L) - floor(cn/L)), so they rise once more; 700 leave 300
 * single idle cycles, each followed by a rise.
 */
static void t_clock_numbers(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, "e5_2600");
    assert_int_equal(regc_sim_clock(f.sim, 1000), 0);
    const char *ctr = "cbox.cbox1.Cn_MSR_PMON_CTR2";
    const char *ctl = "cbox.cbox1.Cn_MSR_PMON_CTL2";
    uint64_t base = E5_2600_EV_CBOX_CLOCKTICKS | E5_2600_CN_MSR_PMON_CTL_EN_MASK |
                    E5_2600_CN_MSR_PMON_CTL_THRESH_VAL(1);
    poke(&f, ctl, base | E5_2600_CN_MSR_PMON_CTL_INVERT_VAL(1));
    assert_int_equal(regc_sim_rate(f.sim, "cbox[cbox1]:CLOCKTICKS", 300), 0);
    uint64_t before = peek(&f, ctr);
    assert_int_equal(regc_sim_interval(f.sim), 0);
    assert_int_equal(peek(&f, ctr) - before, 700);
    regc_sim_rates_clear(f.sim);
    before = peek(&f, ctr);
    assert_int_equal(regc_sim_interval(f.sim), 0);
    assert_int_equal(peek(&f, ctr) - before, 1000);
    poke(&f, ctl, base | E5_2600_CN_MSR_PMON_CTL_EDGE_DET_VAL(1));
    static const struct {
        int64_t n;
        uint64_t want;
    } seq[] = {{300, 300}, {0, 0}, {1000, 1}, {1000, 0}, {0, 0}, {1000, 1}, {999, 1}, {700, 300}};
    for (size_t i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
        if (counts(&f, ctr, "cbox[cbox1]:CLOCKTICKS", seq[i].n) != seq[i].want)
            fail_msg("interval %zu (%lld occurrences): expected %llu rising edges", i,
                     (long long)seq[i].n, (unsigned long long)seq[i].want);
    regc_close(f.d);
}

/*
 * Sandy Bridge ARB: an event whose entry sets CMASK (the threshold) is the
 * thresholded event itself, counted as given; the plain occupancy on a
 * counter with CMASK 10 counts the cycles of 10 or more.
 */
static void t_event_sets_threshold(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, "snb_client");
    poke(&f, "unc.MSR_UNC_PERF_GLOBAL_CTRL", UINT64_C(1) << 29); /* EN */
    const char *ctr = "arb.MSR_UNC_ARB_PERFCTR0";
    poke(&f, "arb.MSR_UNC_ARB_PERFEVTSEL0",
         SNB_UNC_EV_ARB_TRK_OCCUPANCY_CYCLES_OVER_HALF_FULL |
             SNB_UNC_MSR_UNC_ARB_PERFEVTSEL_EN_MASK);
    assert_int_equal(counts(&f, ctr, "arb:TRK_OCCUPANCY.CYCLES_OVER_HALF_FULL", 5), 5);
    assert_int_equal(counts(&f, ctr, "arb:TRK_OCCUPANCY.CYCLES_WITH_ANY_REQUEST", 5), 0);
    static const uint64_t occ[] = {12, 3, 10, 0};
    uint64_t before = peek(&f, ctr);
    assert_int_equal(regc_sim_cycles(f.sim, "arb:TRK_OCCUPANCY.ALL", occ, 4), 0);
    assert_int_equal(peek(&f, ctr) - before, 2);
    regc_close(f.d);
}

/*
 * A box control's frz is a level, not a pulse: "set Cn_MSR_PMON_BOX_CTL.frz to 0" unfreezes
 * (329468-002 section 2.1.2 step f, page 17). Written 1 it reads back 1, a read-modify-write of another
 * field of the box control (rst_ctrs) keeps it and the box stays frozen; written 0 the box
 * counts again. On the E5-2600, frz freezes only with frz_en set ("If set to 1 and .frz_en is
 * 1, the counters in this box will be frozen", 327043 Table 2-9). Values from the headers.
 */
static void t_box_freeze_level(void **state)
{
    (void)state;
    struct fx f;
    struct regc_ref box;
    char err[256];
    uint64_t v, written;
    open_fx(&f, "e5_2600v2");
    const char *ctr = "cbox.c2.Cn_MSR_PMON_CTR1", *ev = "cbox[c2]:LLC_LOOKUP.DATA_READ";
    poke(&f, "cbox.c2.Cn_MSR_PMON_CTL1", E5_2600V2_EV_CBOX_LLC_LOOKUP_DATA_READ | IVT_CBOX_EN);
    poke(&f, "cbox.c2.Cn_MSR_PMON_BOX_FILTER0", E5_2600V2_CN_MSR_PMON_BOX_FILTER0_STATE_MASK);
    assert_int_equal(regc_resolve(f.s, "cbox.c2.Cn_MSR_PMON_BOX_CTL", &box, err, sizeof(err)), 0);
    const uint64_t frz = E5_2600V2_CN_MSR_PMON_BOX_CTL_FRZ_MASK;
    const uint64_t rst = E5_2600V2_CN_MSR_PMON_BOX_CTL_RST_CTRS_MASK;
    assert_int_equal(regc_write(f.d, &box, frz | E5_2600V2_CN_MSR_PMON_BOX_CTL_MB1_MASK), 0);
    assert_int_equal(regc_read(f.d, &box, &v), 0);
    assert_true(v & frz);
    assert_int_equal(counts(&f, ctr, ev, 5), 0);
    assert_int_equal(regc_rmw(f.d, &box, rst, rst, &written), 0);
    assert_true(written & frz);
    assert_int_equal(regc_read(f.d, &box, &v), 0);
    assert_true(v & frz);
    assert_int_equal(counts(&f, ctr, ev, 5), 0);
    assert_int_equal(regc_rmw(f.d, &box, frz, 0, &written), 0);
    assert_false(written & frz);
    assert_int_equal(counts(&f, ctr, ev, 5), 5);
    regc_close(f.d);

    open_fx(&f, "e5_2600");
    poke(&f, "cbox.cbox2.Cn_MSR_PMON_CTL1",
         E5_2600_EV_CBOX_LLC_LOOKUP_DATA_READ | E5_2600_CN_MSR_PMON_CTL_EN_MASK);
    poke(&f, "cbox.cbox2.Cn_MSR_PMON_BOX_FILTER", E5_2600_CN_MSR_PMON_BOX_FILTER_STATE_MASK);
    ctr = "cbox.cbox2.Cn_MSR_PMON_CTR1", ev = "cbox[cbox2]:LLC_LOOKUP.DATA_READ";
    assert_int_equal(regc_resolve(f.s, "cbox.cbox2.Cn_MSR_PMON_BOX_CTL", &box, err, sizeof(err)),
                     0);
    assert_int_equal(regc_write(f.d, &box, E5_2600_CN_MSR_PMON_BOX_CTL_FRZ_MASK), 0);
    assert_int_equal(counts(&f, ctr, ev, 5), 5); /* frz without frz_en */
    assert_int_equal(regc_rmw(f.d, &box, E5_2600_CN_MSR_PMON_BOX_CTL_FRZ_EN_MASK,
                              E5_2600_CN_MSR_PMON_BOX_CTL_FRZ_EN_MASK, &written),
                     0);
    assert_int_equal(written, E5_2600_CN_MSR_PMON_BOX_CTL_FRZ_MASK |
                                  E5_2600_CN_MSR_PMON_BOX_CTL_FRZ_EN_MASK);
    assert_int_equal(counts(&f, ctr, ev, 5), 0);
    regc_close(f.d);
}

/*
 * Global freeze on overflow, E5-2600 v2 (329468 section 2.1.3: a counter set
 * to "freeze on overflow and send notification" - ov_en - freezes the
 * uncore through the U-Box when it overflows, so the counts are those up to
 * the overflow; U_MSR_PMON_GLOBAL_STATUS.ov_* says who): QPI port 0 counter 0
 * preloaded 3 below 2^48 overflows on its 3rd of 5 flits; the HA counter
 * counted its 7 requests in that interval (the freeze takes effect at its
 * end) and counts nothing more until unfrz_all; without ov_en the same
 * overflow freezes nothing.
 */
static void t_global_freeze_on_overflow(void **state)
{
    (void)state;
    for (int ov_en = 1; ov_en >= 0; ov_en--) {
        struct fx f;
        open_fx(&f, "e5_2600v2");
        const char *qctr = "qpi.p0.Q_Py_PCI_PMON_CTR0", *hctr = "ha.ha0.HA_PCI_PMON_CTR0";
        poke(&f, "qpi.p0.Q_Py_PCI_PMON_CTL0",
             E5_2600V2_EV_QPI_TXL_FLITS_G0_DATA | E5_2600V2_Q_PY_PCI_PMON_CTL_EN_MASK |
                 (ov_en ? E5_2600V2_Q_PY_PCI_PMON_CTL_OV_EN_MASK : 0));
        poke(&f, "ha.ha0.HA_PCI_PMON_CTL0",
             E5_2600V2_EV_HA_REQUESTS_READS | E5_2600V2_HA_PCI_PMON_CTL_EN_MASK);
        poke(&f, qctr, (UINT64_C(1) << 48) - 3);
        assert_int_equal(regc_sim_rate(f.sim, "qpi[p0]:TxL_FLITS_G0.DATA", 5), 0);
        assert_int_equal(regc_sim_rate(f.sim, "ha[ha0]:REQUESTS.READS", 7), 0);
        assert_int_equal(regc_sim_interval(f.sim), 0);
        assert_int_equal(peek(&f, qctr), 2); /* wrapped */
        assert_int_equal(peek(&f, hctr), 7);
        assert_int_equal(regc_sim_global_frozen(f.sim), ov_en);
        assert_int_equal(peek(&f, "ubox.U_MSR_PMON_GLOBAL_STATUS") &
                             E5_2600V2_U_MSR_PMON_GLOBAL_STATUS_OV_Q0_MASK,
                         ov_en ? E5_2600V2_U_MSR_PMON_GLOBAL_STATUS_OV_Q0_MASK : 0);
        assert_int_equal(regc_sim_interval(f.sim), 0);
        assert_int_equal(peek(&f, hctr), ov_en ? 7 : 14);
        assert_int_equal(peek(&f, qctr), ov_en ? 2 : 7);
        struct regc_ref g = sim_ref(f.s, "ubox.U_MSR_PMON_GLOBAL_CTL");
        assert_int_equal(regc_write(f.d, &g, E5_2600V2_U_MSR_PMON_GLOBAL_CTL_UNFRZ_ALL_MASK), 0);
        assert_int_equal(regc_sim_interval(f.sim), 0);
        assert_int_equal(peek(&f, hctr), ov_en ? 14 : 21);
        regc_close(f.d);
    }
}

/*
 * Box filters (regspec <filter>, E5-2600): a filtered event counts only the
 * traffic its filter selects, and nothing with a mask filter at 0. The truth
 * is perfmon's wording, the numbers computed here by hand:
 *  - C-Box state, LLC_LOOKUP: "select a state or states to match. Otherwise,
 *    the event will count nothing. CBoGlCtrl[22:18] bits correspond to
 *    [FMESI] state": bit 0 I, 1 S, 2 E, 3 M, 4 F. Lookups of I 1, S 2, E 4,
 *    M 8 and F 16 count 31 through 0x1f, 8 through 0x08 (M), 5 through 0x05
 *    (I and E), 0 through 0;
 *  - C-Box opc, TOR_INSERTS.OPCODE: "set Cn_MSR_PMON_BOX_FILTER.opc to DRD
 *    (0x182)": DRD inserts 3, others (0x180) 5 count 3;
 *  - PCU band 0, FREQ_BAND0_CYCLES: "cycles that the uncore was running at a
 *    frequency greater than or equal to the frequency that is configured in
 *    the filter" (100 MHz units): 100 cycles at 2.5 GHz and 50 at 1.5 GHz
 *    count 100 through 2.0 GHz (20), 150 through 0, 0 through 3.0 GHz;
 *  - C-Box nid, LLC_VICTIMS.NID: the sources do not say how the value
 *    selects nodes, so it must be written: 0 counts nothing, 1 all 7.
 */
static void t_filters(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, "e5_2600");
    const char *ctr = "cbox.cbox1.Cn_MSR_PMON_CTR0", *flt = "cbox.cbox1.Cn_MSR_PMON_BOX_FILTER";
    const uint64_t cen = E5_2600_CN_MSR_PMON_CTL_EN_MASK;
    poke(&f, "cbox.cbox1.Cn_MSR_PMON_CTL0", E5_2600_EV_CBOX_LLC_LOOKUP_DATA_READ | cen);
    static const struct {
        uint64_t state, want;
    } st[] = {{0x1f, 31}, {0x08, 8}, {0x05, 5}, {0, 0}};
    for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
        poke(&f, flt, E5_2600_CN_MSR_PMON_BOX_FILTER_STATE_VAL(st[i].state));
        regc_sim_rates_clear(f.sim);
        for (int s = 0; s < 5; s++) {
            char name[96];
            snprintf(name, sizeof(name), "cbox[cbox1]:LLC_LOOKUP.DATA_READ,state=%d", s);
            assert_int_equal(regc_sim_rate(f.sim, name, INT64_C(1) << s), 0);
        }
        uint64_t before = peek(&f, ctr);
        assert_int_equal(regc_sim_interval(f.sim), 0);
        if (peek(&f, ctr) - before != st[i].want)
            fail_msg("state filter 0x%llx: counted %llu, want %llu",
                     (unsigned long long)st[i].state, (unsigned long long)(peek(&f, ctr) - before),
                     (unsigned long long)st[i].want);
    }
    regc_sim_rates_clear(f.sim);
    /* the opcode filter */
    poke(&f, "cbox.cbox1.Cn_MSR_PMON_CTL0", E5_2600_EV_CBOX_TOR_INSERTS_OPCODE | cen);
    poke(&f, flt, E5_2600_CN_MSR_PMON_BOX_FILTER_OPC_VAL(0x182));
    assert_int_equal(regc_sim_rate(f.sim, "cbox[cbox1]:TOR_INSERTS.OPCODE,opcode=0x182", 3), 0);
    assert_int_equal(regc_sim_rate(f.sim, "cbox[cbox1]:TOR_INSERTS.OPCODE,opcode=0x180", 5), 0);
    uint64_t before = peek(&f, ctr);
    assert_int_equal(regc_sim_interval(f.sim), 0);
    assert_int_equal(peek(&f, ctr) - before, 3);
    regc_sim_rates_clear(f.sim);
    /* the node filter: written or not */
    poke(&f, "cbox.cbox1.Cn_MSR_PMON_CTL0", E5_2600_EV_CBOX_LLC_VICTIMS_NID | cen);
    poke(&f, flt, 0);
    assert_int_equal(counts(&f, ctr, "cbox[cbox1]:LLC_VICTIMS.NID", 7), 0);
    poke(&f, flt, E5_2600_CN_MSR_PMON_BOX_FILTER_NID_VAL(1));
    assert_int_equal(counts(&f, ctr, "cbox[cbox1]:LLC_VICTIMS.NID", 7), 7);
    /* the PCU's frequency band */
    const char *pctr = "pcu.PCU_MSR_PMON_CTR0";
    poke(&f, "pcu.PCU_MSR_PMON_CTL0",
         E5_2600_EV_PCU_FREQ_BAND0_CYCLES | E5_2600_PCU_MSR_PMON_CTL_EN_MASK);
    assert_int_equal(regc_sim_rate(f.sim, "pcu:FREQ_BAND0_CYCLES,freq=25", 100), 0);
    assert_int_equal(regc_sim_rate(f.sim, "pcu:FREQ_BAND0_CYCLES,freq=15", 50), 0);
    static const struct {
        uint64_t band, want;
    } bd[] = {{20, 100}, {0, 150}, {30, 0}};
    for (size_t i = 0; i < sizeof(bd) / sizeof(bd[0]); i++) {
        poke(&f, "pcu.PCU_MSR_PMON_BOX_FILTER",
             E5_2600_PCU_MSR_PMON_BOX_FILTER_FILT7_0_VAL(bd[i].band));
        before = peek(&f, pctr);
        assert_int_equal(regc_sim_interval(f.sim), 0);
        assert_int_equal(peek(&f, pctr) - before, bd[i].want);
    }
    /* a traffic attribute no filter of the block selects on, or a bad value */
    assert_int_equal(regc_sim_rate(f.sim, "pcu:FREQ_BAND0_CYCLES,colour=1", 1), -ENOENT);
    assert_int_equal(regc_sim_rate(f.sim, "cbox:LLC_LOOKUP.DATA_READ,state=-1", 1), -EINVAL);
    assert_int_equal(
        regc_sim_rate(f.sim, "cbox:LLC_LOOKUP.DATA_READ,Cn_MSR_PMON_BOX_FILTER.state=x", 1),
        -EINVAL);
    /* wider than the 5-bit state field: refused, never cut to fit (0x20 would match state 0) */
    assert_int_equal(
        regc_sim_rate(f.sim, "cbox:LLC_LOOKUP.DATA_READ,Cn_MSR_PMON_BOX_FILTER.state=0x20", 1),
        -ERANGE);
    assert_int_equal(
        regc_sim_rate(f.sim, "cbox:LLC_LOOKUP.DATA_READ,Cn_MSR_PMON_BOX_FILTER.state=0x1f", 1), 0);
    regc_close(f.d);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(t_umask),
        cmocka_unit_test(t_box_freeze_level),
        cmocka_unit_test(t_mbox),
        cmocka_unit_test(t_rates_and_encodings),
        cmocka_unit_test(t_errors),
        cmocka_unit_test(t_thresh_invert_edge),
        cmocka_unit_test(t_event_sets_threshold),
        cmocka_unit_test(t_clock),
        cmocka_unit_test(t_clock_numbers),
        cmocka_unit_test(t_global_freeze_on_overflow),
        cmocka_unit_test(t_filters),
    };
    return cmocka_run_group_tests_name("sim_bits", t, NULL, NULL);
}
