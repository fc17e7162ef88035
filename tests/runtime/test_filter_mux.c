/*
 * test_filter_mux - two events of one C-Box that need two values of its state filter (the
 * E5-2600 v2 LLC hit ratio: lookups in every state and in state I) are counted in turns: each
 * multiplexing group has its filter value written when it is scheduled, under the freeze, and
 * the register as found is put back at the end. Checked on the simulator's register accesses
 * (the session's trace) against the generated header's field position (guide 329468 /
 * perfmon CBoFilter0[23:17]: state at bits 22:17, [M'FMESI], I = bit 0), and the counts
 * against the rates given per line state: the hit ratio computed here from them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../generated/e5_2600v2.h"
#include "flow_cases.h"
#include "simutil.h"

#define ALL "cbox[c0]:LLC_LOOKUP.ANY,Cn_MSR_PMON_BOX_FILTER0.state=0x3f"
#define MISS "cbox[c0]:LLC_LOOKUP.ANY,Cn_MSR_PMON_BOX_FILTER0.state=0x01"
#define FILTER "cbox.c0.Cn_MSR_PMON_BOX_FILTER0"
#define FREEZE "ubox.U_MSR_PMON_GLOBAL_CTL"

/* Every write the session made, in order: register name and value. */
struct wlog {
    char name[256][64];
    uint64_t value[256];
    unsigned n;
};

static void log_write(void *ctx, bool write, const struct regc_io *io, uint64_t value, int rc)
{
    struct wlog *l = ctx;
    if (!write || rc || !io->ref || l->n == 256)
        return;
    regc_ref_name(io->ref, l->name[l->n], sizeof(l->name[0]));
    l->value[l->n++] = value;
}

/* The state field (bits 22:17, from the header) of a filter value. */
static uint64_t state_of(uint64_t v)
{
    return (v & E5_2600V2_CN_MSR_PMON_BOX_FILTER0_STATE_MASK) >>
           E5_2600V2_CN_MSR_PMON_BOX_FILTER0_STATE_SHIFT;
}

/* The filter states written since the last global-control write at or after 'from', up to the
 * next one: the writes of one freeze window. */
static unsigned filter_writes(const struct wlog *l, unsigned from, uint64_t *states, unsigned max,
                              unsigned *next)
{
    unsigned n = 0, i = from;
    for (; i < l->n && strcmp(l->name[i], FREEZE) != 0; i++)
        ;
    for (i++; i < l->n && strcmp(l->name[i], FREEZE) != 0; i++)
        if (strcmp(l->name[i], FILTER) == 0 && n < max)
            states[n++] = state_of(l->value[i]);
    *next = i;
    return n;
}

static void t_hit_ratio(void **state)
{
    (void)state;
    const struct regc_spec *s = flow_spec("e5_2600v2");
    assert_non_null(s);
    struct wlog *l = calloc(1, sizeof(*l));
    assert_non_null(l);
    struct regc_options o = {.backend = "sim", .trace = log_write, .trace_ctx = l};
    regc_dev *d;
    regc_pmon_session *p;
    char err[256];
    assert_int_equal(regc_open(&d, s, &o, err, sizeof(err)), 0);
    regc_sim *sim = regc_dev_sim(d);
    /* the filter as another user left it: a node id and state S; it must come back */
    uint64_t found = E5_2600V2_CN_MSR_PMON_BOX_FILTER0_STATE_VAL(0x2) | 0x5;
    sim_poke(sim, s, FILTER, found);
    /* per interval: lookups finding the line in M' (bit 5) 10, M (3) 20, S (1) 30, I (0) 40 */
    const struct {
        const char *state;
        int64_t n;
    } rates[] = {{"5", 10}, {"3", 20}, {"1", 30}, {"0", 40}};
    for (unsigned i = 0; i < 4; i++) {
        char ev[96];
        snprintf(ev, sizeof(ev), "cbox[c0]:LLC_LOOKUP.ANY,state=%s", rates[i].state);
        assert_int_equal(regc_sim_rate(sim, ev, rates[i].n), 0);
    }
    assert_int_equal(regc_pmon_new(&p, d), 0);
    assert_int_equal(regc_pmon_add(p, ALL), 0);
    assert_int_equal(regc_pmon_add(p, MISS), 0);

    /* without multiplexing: refused, naming the two events and the field */
    struct regc_pmon_opts no = {.settle_ms = -1};
    assert_int_equal(regc_pmon_start(p, &no), -EINVAL);
    assert_non_null(strstr(regc_pmon_error(p), "'" ALL "' and '" MISS "' cannot be counted "
                                               "together in cbox.c0: they need "
                                               "Cn_MSR_PMON_BOX_FILTER0.state = 0x3f and 0x1"));
    assert_int_equal(sim_peek(sim, s, FILTER), found);

    l->n = 0;
    struct regc_pmon_opts mux = {.settle_ms = -1, .multiplex = true};
    if (regc_pmon_start(p, &mux) != 0)
        fail_msg("start: %s", regc_pmon_error(p));
    struct regc_pmon_info a, b;
    assert_int_equal(regc_pmon_info(p, 0, &a), 0);
    assert_int_equal(regc_pmon_info(p, 1, &b), 0);
    assert_int_equal(a.groups, 2);
    assert_int_equal(a.group, 0);
    assert_int_equal(b.group, 1);
    /* the start: group 0's value (every state) written under the freeze, before the unfreeze */
    uint64_t st[8];
    unsigned at = 0, n = filter_writes(l, 0, st, 8, &at);
    assert_int_equal(n, 1);
    assert_int_equal(st[0], 0x3f);
    for (unsigned t = 1; t <= 4; t++) {
        assert_int_equal(regc_sim_interval(sim), 0);
        unsigned from = l->n;
        assert_int_equal(regc_pmon_poll(p, NULL), 0);
        /* at each poll the next group rotates in, its filter value written under the freeze */
        n = filter_writes(l, from, st, 8, &at);
        assert_int_equal(n, 1);
        assert_int_equal(st[0], t % 2 ? 0x01 : 0x3f);
        assert_int_equal(state_of(sim_peek(sim, s, FILTER)), t % 2 ? 0x01 : 0x3f);
    }
    /* 4 intervals, each group on the counters for 2: scaled, every state 100 x 4, state I 40 x 4 */
    uint64_t all = regc_pmon_total(p, 0), miss = regc_pmon_total(p, 1);
    assert_int_equal(all, (10 + 20 + 30 + 40) * 4);
    assert_int_equal(miss, 40 * 4);
    assert_int_equal(regc_pmon_raw(p, 0), (10 + 20 + 30 + 40) * 2);
    assert_int_equal(regc_pmon_raw(p, 1), 40 * 2);
    double ratio = (double)(all - miss) / (double)all;
    assert_true(ratio > 0.6 - 1e-12 && ratio < 0.6 + 1e-12); /* (100 - 40) / 100 */
    assert_int_equal(regc_pmon_release(p), 0);
    /* the end: the filter as found */
    assert_int_equal(sim_peek(sim, s, FILTER), found);
    regc_pmon_free(p);
    regc_close(d);
    free(l);
}

/* Three values of one filter on one box: three groups, each value written in its turn. */
static void t_three_values(void **state)
{
    (void)state;
    const struct regc_spec *s = flow_spec("e5_2600v2");
    struct wlog *l = calloc(1, sizeof(*l));
    assert_non_null(l);
    struct regc_options o = {.backend = "sim", .trace = log_write, .trace_ctx = l};
    regc_dev *d;
    regc_pmon_session *p;
    char err[256];
    assert_int_equal(regc_open(&d, s, &o, err, sizeof(err)), 0);
    assert_int_equal(regc_pmon_new(&p, d), 0);
    assert_int_equal(regc_pmon_add(p, ALL), 0);
    assert_int_equal(regc_pmon_add(p, MISS), 0);
    assert_int_equal(
        regc_pmon_add(p, "cbox[c0]:LLC_LOOKUP.ANY,Cn_MSR_PMON_BOX_FILTER0.state=0x08"), 0);
    assert_int_equal(regc_pmon_add(p, "cbox[c0]:CLOCKTICKS"), 0);
    struct regc_pmon_opts mux = {.settle_ms = -1, .multiplex = true};
    if (regc_pmon_start(p, &mux) != 0)
        fail_msg("start: %s", regc_pmon_error(p));
    struct regc_pmon_info in;
    assert_int_equal(regc_pmon_info(p, 3, &in), 0);
    assert_int_equal(in.group, 0); /* CLOCKTICKS needs no filter: it stays in the first group */
    uint64_t want[] = {0x01, 0x08, 0x3f}, st[8];
    unsigned at = 0;
    for (unsigned t = 0; t < 3; t++) {
        assert_int_equal(regc_sim_interval(regc_dev_sim(d)), 0);
        unsigned from = l->n;
        assert_int_equal(regc_pmon_poll(p, NULL), 0);
        assert_int_equal(filter_writes(l, from, st, 8, &at), 1);
        assert_int_equal(st[0], want[t]);
    }
    assert_int_equal(regc_pmon_release(p), 0);
    regc_pmon_free(p);
    regc_close(d);
    free(l);
}

/* Sampling counts every event all the time: two filter values are refused. */
static void t_sampling_refused(void **state)
{
    (void)state;
    const struct regc_spec *s = flow_spec("e5_2600v2");
    struct regc_options o = {.backend = "sim"};
    regc_dev *d;
    regc_pmon_session *p;
    char err[256];
    assert_int_equal(regc_open(&d, s, &o, err, sizeof(err)), 0);
    assert_int_equal(regc_pmon_new(&p, d), 0);
    assert_int_equal(regc_pmon_add(p, ALL), 0);
    assert_int_equal(regc_pmon_add(p, MISS), 0);
    struct regc_pmon_opts smp = {.settle_ms = -1, .multiplex = true, .sample = 1000};
    assert_int_equal(regc_pmon_start(p, &smp), -EINVAL);
    assert_non_null(strstr(regc_pmon_error(p), "sampling counts every event all the time"));
    regc_pmon_free(p);
    regc_close(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t_hit_ratio),
        cmocka_unit_test(t_three_values),
        cmocka_unit_test(t_sampling_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
