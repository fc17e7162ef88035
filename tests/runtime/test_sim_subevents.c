/*
 * test_sim_subevents - sub-events that combine (regspec combine="or"): where
 * Intel's perfmon data says a umask's bits select sub-events, the hardware
 * counts the OR of the sub-events the umask selects, so a counter programmed
 * with a combined sub-event counts the sum of the rates of its parts and
 * nothing of the sub-events it leaves out.
 *
 * The truth is the table below, written by hand from perfmon's descriptions
 * (not from the spec's umask values): CAS_COUNT.RD is "All DRAM Reads (RD_CAS +
 * Underfills)", .WR "All DRAM WR_CAS (both Modes)", and so on (the evidence
 * for each event is cited in regspec/events/events.conf, option or=). Every
 * sub-event of a combining event that the table does not list as combined is
 * a part: traffic of its own. Each part i gets the rate 2^i, so a count names
 * exactly the parts it summed. The table must list every combining event of
 * every spec and nothing else, so a spec that gains or loses combine="or"
 * fails here until the hand-written truth follows.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "flow_cases.h"

#define MAXP 8

struct combined {
    const char *spec, *block, *event, *sub; /* the combined sub-event */
    const char *parts[MAXP];                /* what it sums, by perfmon's description */
};

/* clang-format off */
static const struct combined combined[] = {
    /* E5-2600 (Jaketown_uncore.json) */
    {"e5_2600", "imc", "CAS_COUNT", "RD", {"RD_REG", "RD_UNDERFILL"}},
    {"e5_2600", "imc", "CAS_COUNT", "WR", {"WR_WMM", "WR_RMM"}},
    {"e5_2600", "imc", "CAS_COUNT", "ALL", {"RD_REG", "RD_UNDERFILL", "WR_WMM", "WR_RMM"}},
    {"e5_2600", "ha", "IMC_WRITES", "ALL", {"FULL", "PARTIAL", "FULL_ISOCH", "PARTIAL_ISOCH"}},
    {"e5_2600", "ha", "DIRECTORY_UPDATE", "ANY", {"SET", "CLEAR"}},
    {"e5_2600", "ha", "TxR_AD_INSERTS", "ALL", {"SCHED0", "SCHED1"}},
    {"e5_2600", "ha", "TxR_AK_INSERTS", "ALL", {"SCHED0", "SCHED1"}},
    {"e5_2600", "ha", "TxR_BL_INSERTS", "ALL", {"SCHED0", "SCHED1"}},
    {"e5_2600", "ha", "TxR_AD_OCCUPANCY", "ALL", {"SCHED0", "SCHED1"}},
    {"e5_2600", "ha", "TxR_AK_OCCUPANCY", "ALL", {"SCHED0", "SCHED1"}},
    {"e5_2600", "ha", "TxR_BL_OCCUPANCY", "ALL", {"SCHED0", "SCHED1"}},
    {"e5_2600", "qpi", "TxL_FLITS_G1", "DRS", {"DRS_DATA", "DRS_NONDATA"}},
    {"e5_2600", "qpi", "TxL_FLITS_G1", "HOM", {"HOM_REQ", "HOM_NONREQ"}},
    {"e5_2600", "qpi", "RxL_FLITS_G1", "DRS", {"DRS_DATA", "DRS_NONDATA"}},
    {"e5_2600", "qpi", "RxL_FLITS_G1", "HOM", {"HOM_REQ", "HOM_NONREQ"}},
    {"e5_2600", "qpi", "TxL_FLITS_G2", "NCB", {"NCB_DATA", "NCB_NONDATA"}},
    {"e5_2600", "qpi", "RxL_FLITS_G2", "NCB", {"NCB_DATA", "NCB_NONDATA"}},
    /* E5-2600 v2 (ivytown_uncore.json): CAS_COUNT.ALL leaves out RD_RMM and RD_WMM */
    {"e5_2600v2", "imc", "CAS_COUNT", "RD", {"RD_REG", "RD_UNDERFILL"}},
    {"e5_2600v2", "imc", "CAS_COUNT", "WR", {"WR_WMM", "WR_RMM"}},
    {"e5_2600v2", "imc", "CAS_COUNT", "ALL", {"RD_REG", "RD_UNDERFILL", "WR_WMM", "WR_RMM"}},
    {"e5_2600v2", "ha", "IMC_WRITES", "ALL", {"FULL", "PARTIAL", "FULL_ISOCH", "PARTIAL_ISOCH"}},
    {"e5_2600v2", "ha", "REQUESTS", "READS", {"READS_LOCAL", "READS_REMOTE"}},
    {"e5_2600v2", "ha", "REQUESTS", "WRITES", {"WRITES_LOCAL", "WRITES_REMOTE"}},
    {"e5_2600v2", "ha", "TxR_AD_INSERTS", "ALL", {"SCHED0", "SCHED1"}},
    {"e5_2600v2", "ha", "TxR_AK_INSERTS", "ALL", {"SCHED0", "SCHED1"}},
    {"e5_2600v2", "ha", "TxR_BL_INSERTS", "ALL", {"SCHED0", "SCHED1"}},
    {"e5_2600v2", "ha", "TxR_BL_OCCUPANCY", "ALL", {"SCHED0", "SCHED1"}},
    {"e5_2600v2", "qpi", "TxL_FLITS_G1", "DRS", {"DRS_DATA", "DRS_NONDATA"}},
    {"e5_2600v2", "qpi", "TxL_FLITS_G1", "HOM", {"HOM_REQ", "HOM_NONREQ"}},
    {"e5_2600v2", "qpi", "RxL_FLITS_G1", "DRS", {"DRS_DATA", "DRS_NONDATA"}},
    {"e5_2600v2", "qpi", "RxL_FLITS_G1", "HOM", {"HOM_REQ", "HOM_NONREQ"}},
    {"e5_2600v2", "qpi", "TxL_FLITS_G2", "NCB", {"NCB_DATA", "NCB_NONDATA"}},
    {"e5_2600v2", "qpi", "RxL_FLITS_G2", "NCB", {"NCB_DATA", "NCB_NONDATA"}},
    /* Sandy Bridge client (sandybridge_uncore.json): "found line in any MESI-state" */
    {"snb_client", "cbox", "CACHE_LOOKUP", "READ_MESI", {"READ_M", "READ_ES", "READ_I"}},
    {"snb_client", "cbox", "CACHE_LOOKUP", "WRITE_MESI", {"WRITE_M", "WRITE_ES", "WRITE_I"}},
    {"snb_client", "cbox", "CACHE_LOOKUP", "EXTSNP_MESI", {"EXTSNP_M", "EXTSNP_ES", "EXTSNP_I"}},
    {"snb_client", "cbox", "CACHE_LOOKUP", "ANY_MESI", {"ANY_M", "ANY_ES", "ANY_I"}},
};
/* clang-format on */
#define NCOMBINED (sizeof(combined) / sizeof(combined[0]))

/* The table lists 'sub' of 'event' as combined. */
static bool listed_combined(const char *spec, const char *block, const char *event, const char *sub)
{
    for (size_t i = 0; i < NCOMBINED; i++)
        if (strcmp(combined[i].spec, spec) == 0 && strcmp(combined[i].block, block) == 0 &&
            strcmp(combined[i].event, event) == 0 && (!sub || strcmp(combined[i].sub, sub) == 0))
            return true;
    return false;
}

/* "EVENT.SUB" of 'event': the SUB part; NULL when e is not a sub-event of it. */
static const char *sub_of(const struct regc_event *e, const char *event)
{
    size_t n = strlen(event);
    return strncmp(e->name, event, n) == 0 && e->name[n] == '.' ? e->name + n + 1 : NULL;
}

/* Every combining event of every spec is in the table, and every table entry combines. */
static void t_table_complete(void **state)
{
    (void)state;
    unsigned seen = 0;
    for (const struct regc_spec *const *s = regc_specs; *s; s++)
        for (const struct regc_block *b = (*s)->blocks; b->name; b++)
            for (const struct regc_event *e = b->events; e && e->name; e++) {
                if (strchr(e->name, '.'))
                    continue;
                bool listed = listed_combined((*s)->name, b->name, e->name, NULL);
                if (e->combine_or != listed)
                    fail_msg("%s %s:%s: combine=\"or\" is %d in the spec, %d in this test",
                             (*s)->name, b->name, e->name, e->combine_or, listed);
                seen += listed;
            }
    for (size_t i = 0; i < NCOMBINED; i++) {
        const struct regc_spec *s = flow_spec(combined[i].spec);
        const struct regc_block *b = s ? regc_spec_block(s, combined[i].block) : NULL;
        char name[128];
        snprintf(name, sizeof(name), "%s.%s", combined[i].event, combined[i].sub);
        if (!b || !regc_block_event(b, name))
            fail_msg("%s %s:%s: no such sub-event", combined[i].spec, combined[i].block, name);
    }
    print_message("# %u combining events, %zu combined sub-events\n", seen, NCOMBINED);
}

struct fx {
    const struct regc_spec *s;
    const struct regc_block *b;
    regc_dev *d;
    regc_sim *sim;
    char inst[64]; /* "[INSTANCE]" of the block's first instance, or "" */
};

static void open_fx(struct fx *f, const char *spec, const char *block)
{
    struct regc_options o = {.backend = "sim"};
    char err[256];
    f->s = flow_spec(spec);
    assert_non_null(f->s);
    f->b = regc_spec_block(f->s, block);
    assert_non_null(f->b);
    const char *in = f->b->instances && f->b->instances->name ? f->b->instances->name : NULL;
    snprintf(f->inst, sizeof(f->inst), in ? "[%s]" : "", in);
    if (regc_open(&f->d, f->s, &o, err, sizeof(err)) != 0)
        fail_msg("%s: %s", spec, err);
    f->sim = regc_dev_sim(f->d);
}

/* What 'EVENT.SUB' counts in one interval of the rates 2^i for part i of 'event' (the sub-events
 * the table does not list as combined, in table order). */
static uint64_t count_with_parts(struct fx *f, const char *event, const char *sub)
{
    char name[160];
    regc_pmon_session *p;
    assert_int_equal(regc_pmon_new(&p, f->d), 0);
    snprintf(name, sizeof(name), "%s%s:%s.%s", f->b->name, f->inst, event, sub);
    if (regc_pmon_add(p, name) != 0)
        fail_msg("%s: cannot add", name);
    struct regc_pmon_opts o = {.settle_ms = -1};
    assert_int_equal(regc_pmon_start(p, &o), 0);
    regc_sim_rates_clear(f->sim);
    unsigned i = 0;
    for (const struct regc_event *e = f->b->events; e->name; e++) {
        const char *part = sub_of(e, event);
        if (!part || listed_combined(f->s->name, f->b->name, event, part))
            continue;
        snprintf(name, sizeof(name), "%s%s:%s", f->b->name, f->inst, e->name);
        assert_int_equal(regc_sim_rate(f->sim, name, INT64_C(1) << i++), 0);
    }
    assert_int_equal(regc_sim_interval(f->sim), 0);
    uint64_t t = 0;
    assert_int_equal(regc_pmon_poll(p, &t), 0);
    regc_pmon_free(p);
    return t;
}

/* The rate 2^i of each part the table names for entry c: the sum hardware counts. */
static uint64_t want_sum(const struct fx *f, const struct combined *c)
{
    uint64_t sum = 0;
    unsigned i = 0;
    for (const struct regc_event *e = f->b->events; e->name; e++) {
        const char *part = sub_of(e, c->event);
        if (!part || listed_combined(f->s->name, f->b->name, c->event, part))
            continue;
        for (unsigned k = 0; k < MAXP && c->parts[k]; k++)
            if (strcmp(c->parts[k], part) == 0)
                sum |= UINT64_C(1) << i;
        i++;
    }
    return sum;
}

/* Each combined sub-event counts the sum of its parts and nothing of the other sub-events. */
static void t_combined_counts_its_parts(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCOMBINED; i++) {
        const struct combined *c = &combined[i];
        struct fx f;
        open_fx(&f, c->spec, c->block);
        uint64_t want = want_sum(&f, c), got = count_with_parts(&f, c->event, c->sub);
        if (got != want)
            fail_msg("%s %s:%s.%s counted %#llx, the sum of its parts is %#llx", c->spec, c->block,
                     c->event, c->sub, (unsigned long long)got, (unsigned long long)want);
        regc_close(f.d);
    }
}

/* A part alone counts only its own traffic: the rate of part i is 2^i. */
static void t_part_counts_itself(void **state)
{
    (void)state;
    for (size_t i = 0; i < NCOMBINED; i++) {
        const struct combined *c = &combined[i];
        if (i && strcmp(combined[i - 1].event, c->event) == 0 &&
            strcmp(combined[i - 1].spec, c->spec) == 0)
            continue; /* one pass per event */
        struct fx f;
        open_fx(&f, c->spec, c->block);
        unsigned k = 0;
        for (const struct regc_event *e = f.b->events; e->name; e++) {
            const char *part = sub_of(e, c->event);
            if (!part || listed_combined(c->spec, c->block, c->event, part))
                continue;
            uint64_t got = count_with_parts(&f, c->event, part);
            if (got != UINT64_C(1) << k)
                fail_msg("%s %s:%s counted %#llx, its own rate is %#llx", c->spec, c->block,
                         e->name, (unsigned long long)got, (unsigned long long)(UINT64_C(1) << k));
            k++;
        }
        regc_close(f.d);
    }
}

/* An enumerated umask stays exact: E5-2600 PCU POWER_STATE_OCCUPANCY.CORES_C6 (0xc0) is a value
 * of the 2-bit occ_sel, not CORES_C0 (0x40) + CORES_C3 (0x80). */
static void t_enumeration_exact(void **state)
{
    (void)state;
    struct fx f;
    open_fx(&f, "e5_2600", "pcu");
    regc_pmon_session *p;
    assert_int_equal(regc_pmon_new(&p, f.d), 0);
    assert_int_equal(regc_pmon_add(p, "pcu:POWER_STATE_OCCUPANCY.CORES_C6"), 0);
    struct regc_pmon_opts o = {.settle_ms = -1};
    assert_int_equal(regc_pmon_start(p, &o), 0);
    assert_int_equal(regc_sim_rate(f.sim, "pcu:POWER_STATE_OCCUPANCY.CORES_C0", 1), 0);
    assert_int_equal(regc_sim_rate(f.sim, "pcu:POWER_STATE_OCCUPANCY.CORES_C3", 2), 0);
    assert_int_equal(regc_sim_rate(f.sim, "pcu:POWER_STATE_OCCUPANCY.CORES_C6", 4), 0);
    assert_int_equal(regc_sim_interval(f.sim), 0);
    uint64_t t;
    assert_int_equal(regc_pmon_poll(p, &t), 0);
    assert_int_equal(t, 4);
    regc_pmon_free(p);
    regc_close(f.d);
}

/* A umask holding a bit no sub-event names selects nothing the manual defines: nothing counts.
 * Raw controls: E5-2600 iMC CAS_COUNT (code 0x4) with umask 0x3 and 0x13. */
static void t_unnamed_bit(void **state)
{
    (void)state;
    static const struct {
        const char *raw;
        uint64_t want;
    } cases[] = {{"imc[imc0]:raw,reg=MC_CHy_PCI_PMON_CTL,ev_sel=0x4,umask=0x3", 3},
                 {"imc[imc0]:raw,reg=MC_CHy_PCI_PMON_CTL,ev_sel=0x4,umask=0x13", 0}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct fx f;
        open_fx(&f, "e5_2600", "imc");
        regc_pmon_session *p;
        assert_int_equal(regc_pmon_new(&p, f.d), 0);
        assert_int_equal(regc_pmon_add(p, cases[i].raw), 0);
        struct regc_pmon_opts o = {.settle_ms = -1};
        assert_int_equal(regc_pmon_start(p, &o), 0);
        assert_int_equal(regc_sim_rate(f.sim, "imc[imc0]:CAS_COUNT.RD_REG", 1), 0);
        assert_int_equal(regc_sim_rate(f.sim, "imc[imc0]:CAS_COUNT.RD_UNDERFILL", 2), 0);
        assert_int_equal(regc_sim_interval(f.sim), 0);
        uint64_t t;
        assert_int_equal(regc_pmon_poll(p, &t), 0);
        assert_int_equal(t, cases[i].want);
        regc_pmon_free(p);
        regc_close(f.d);
    }
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(t_table_complete),     cmocka_unit_test(t_combined_counts_its_parts),
        cmocka_unit_test(t_part_counts_itself), cmocka_unit_test(t_enumeration_exact),
        cmocka_unit_test(t_unnamed_bit),
    };
    return cmocka_run_group_tests_name("sim_subevents", t, NULL, NULL);
}
