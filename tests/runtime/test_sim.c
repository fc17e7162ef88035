/* test_sim - checked writes, rmw, the simulator's attribute and pmon semantics, fault injection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hand_tables.h"
#include "regc/backend.h"
#include "regc/pmon.h"
#include "regc/regc.h"
#include "regc/sim.h"

static struct regc_ref ref(const struct regc_spec *s, const char *path)
{
    struct regc_ref r;
    char err[256];
    int rc = regc_resolve(s, path, &r, err, sizeof(err));
    if (rc < 0)
        fail_msg("resolve %s: %s", path, err);
    return r;
}

static regc_dev *open_sim(const struct regc_spec *s)
{
    regc_dev *d;
    char err[256];
    struct regc_options o = {.backend = "sim"};
    assert_int_equal(regc_open(&d, s, &o, err, sizeof(err)), 0);
    return d;
}

static uint64_t rd(regc_dev *d, const struct regc_spec *s, const char *path)
{
    struct regc_ref r = ref(s, path);
    uint64_t v = 0xdead;
    assert_int_equal(regc_read(d, &r, &v), 0);
    return v;
}

static void wr(regc_dev *d, const struct regc_spec *s, const char *path, uint64_t v)
{
    struct regc_ref r = ref(s, path);
    int rc = regc_write(d, &r, v);
    if (rc)
        fail_msg("write %s=0x%llx: %s", path, (unsigned long long)v, regc_last_error(d));
}

static void test_resolve(void **st)
{
    struct regc_ref r;
    char err[256];
    assert_int_equal(regc_resolve(&hand_ubox_spec, "ubox.U_MSR_PMON_CTL1", &r, err, sizeof(err)),
                     0);
    assert_int_equal(r.address, 0xc11);
    assert_int_equal(r.index, 1);
    assert_int_equal(regc_resolve(&hand_ubox_spec, "ubox.U_MSR_PMON_CTR[0]", &r, err, sizeof(err)),
                     0);
    assert_int_equal(r.address, 0xc16);
    assert_int_equal(regc_resolve(&acme_spec, "box.box1.CTL1", &r, err, sizeof(err)), 0);
    assert_int_equal(r.address, 0x211);
    char name[64];
    assert_string_equal(regc_ref_name(&r, name, sizeof(name)), "box.box1.CTL1");
    assert_int_equal(regc_resolve(&acme_spec, "box.CTL0", &r, err, sizeof(err)), 0);
    assert_string_equal(r.instance->name, "box0");
    assert_int_equal(regc_resolve(&hand_ubox_spec, "nope.X", &r, err, sizeof(err)), -ENOENT);
    assert_string_equal(err, "no block 'nope' in spec 'hand_ubox'");
    assert_int_equal(regc_resolve(&hand_ubox_spec, "ubox.U_MSR_PMON_CTL", &r, err, sizeof(err)),
                     -ENOENT);
    assert_non_null(strstr(err, "is an array"));
    assert_int_equal(regc_resolve(&hand_ubox_spec, "ubox.U_MSR_PMON_CTL7", &r, err, sizeof(err)),
                     -ENOENT);
    assert_string_equal(err, "index '7' of register 'U_MSR_PMON_CTL': too large: at most 1");
    /* indices are never wrapped: 2^32 was element 0, 2^32 + 2 element 2 (issue 24) */
    static const struct {
        const char *path, *err;
    } idx[] = {
        {"ubox.U_MSR_PMON_CTL[4294967296]",
         "index '4294967296' of register 'U_MSR_PMON_CTL': too large: at most 1"},
        {"ubox.U_MSR_PMON_CTL4294967296",
         "index '4294967296' of register 'U_MSR_PMON_CTL': too large: at most 1"},
        {"ubox.U_MSR_PMON_CTL4294967298",
         "index '4294967298' of register 'U_MSR_PMON_CTL': too large: at most 1"},
        {"ubox.U_MSR_PMON_CTL[18446744073709551616]",
         "index '18446744073709551616' of register 'U_MSR_PMON_CTL': too large: at most 1"},
        {"ubox.U_MSR_PMON_CTL[2]", "index '2' of register 'U_MSR_PMON_CTL': too large: at most 1"},
        {"ubox.U_MSR_PMON_CTL[-1]", "index '-1' of register 'U_MSR_PMON_CTL': negative"},
        {"ubox.U_MSR_PMON_CTL[ 1]",
         "index ' 1' of register 'U_MSR_PMON_CTL': space before the number"},
        {"ubox.U_MSR_PMON_CTL[+1]",
         "index '+1' of register 'U_MSR_PMON_CTL': a '+' sign is not taken"},
        {"ubox.U_MSR_PMON_CTL[1x]",
         "index '1x' of register 'U_MSR_PMON_CTL': junk after the number"},
        {"ubox.U_MSR_PMON_CTL[]", "index '' of register 'U_MSR_PMON_CTL': empty"},
    };
    for (size_t i = 0; i < sizeof(idx) / sizeof(idx[0]); i++) {
        err[0] = '\0';
        if (regc_resolve(&hand_ubox_spec, idx[i].path, &r, err, sizeof(err)) != -ENOENT ||
            strcmp(err, idx[i].err) != 0)
            fail_msg("%s: '%s', want '%s'", idx[i].path, err, idx[i].err);
    }
    assert_int_equal(
        regc_resolve(&hand_ubox_spec, "ubox.U_MSR_PMON_CTL[0x1]", &r, err, sizeof(err)), 0);
    assert_int_equal(r.index, 1);
    assert_int_equal(regc_resolve(&hand_ubox_spec, "ubox.U_MSR_PMON_CTL[0]", &r, err, sizeof(err)),
                     0);
    assert_int_equal(r.index, 0);
    assert_int_equal(regc_resolve(&acme_spec, "box.box9.CTL0", &r, err, sizeof(err)), -ENOENT);
    assert_string_equal(err, "no instance 'box9' of block 'box'");
    assert_int_equal(regc_resolve(&acme_spec, "glob.GLOBAL_CTL[0]", &r, err, sizeof(err)), -ENOENT);
    assert_int_equal(regc_resolve(&acme_spec, "nodot", &r, err, sizeof(err)), -EINVAL);
    /* counter pairs for the flows */
    const struct regc_block *b = regc_spec_block(&acme_spec, "box");
    struct regc_ref ctl, ctr;
    assert_int_equal(regc_counter_refs(&acme_spec, b, regc_block_instance(b, "box1"),
                                       b->pmon->counters, 1, &ctl, &ctr),
                     0);
    assert_int_equal(ctl.address, 0x211);
    assert_int_equal(ctr.address, 0x221);
    assert_int_equal(regc_counter_refs(&acme_spec, b, NULL, b->pmon->counters, 0, &ctl, &ctr), 0);
    assert_int_equal(ctr.address, 0x120);
    assert_int_equal(regc_counter_refs(&acme_spec, b, NULL, b->pmon->counters, 2, &ctl, &ctr),
                     -ENOENT);
}

/* Every must-be-zero bit of every register of both specs is refused, and only those. */
static void test_check_mbz_every_bit(void **st)
{
    const struct regc_spec *specs[] = {&hand_ubox_spec, &acme_spec};
    for (size_t k = 0; k < 2; k++)
        for (const struct regc_block *b = specs[k]->blocks; b->name; b++)
            for (const struct regc_reg *r = b->regs; r->name; r++)
                for (unsigned bit = 0; bit < r->size; bit++) {
                    uint64_t v = UINT64_C(1) << bit;
                    char msg[512];
                    bool mbz = !(regc_reg_allowed(r) & v);
                    int rc = regc_check(specs[k], r, NULL, v, msg, sizeof(msg));
                    if (mbz && rc != -EINVAL)
                        fail_msg("%s bit %u accepted", r->name, bit);
                    if (mbz)
                        assert_non_null(strstr(msg, r->name));
                    /* a single writable bit may still break a rule (invert alone); rules checked
                     * below */
                    if (!mbz && rc && !strstr(msg, "rule"))
                        fail_msg("%s bit %u refused: %s", r->name, bit, msg);
                }
}

static void test_check_messages(void **st)
{
    const struct regc_reg *ctl =
        regc_block_reg(regc_spec_block(&hand_ubox_spec, "ubox"), "U_MSR_PMON_CTL");
    char msg[512];
    assert_int_equal(
        regc_check(&hand_ubox_spec, ctl, "ubox.U_MSR_PMON_CTL0", 1u << 20, msg, sizeof(msg)),
        -EINVAL);
    assert_string_equal(
        msg, "refusing 0x100000 for 'ubox.U_MSR_PMON_CTL0': field 'rsv' [21:20] is reserved (RV) "
             "and must be zero (Intel Xeon Processor E5-2600 Product Family Uncore Performance "
             "Monitoring Guide 327043-001, table 2-2, page 20)");
    assert_int_equal(regc_check(&hand_ubox_spec, ctl, NULL, UINT64_C(1) << 40, msg, sizeof(msg)),
                     -EINVAL);
    assert_string_equal(
        msg, "refusing 0x10000000000 for 'U_MSR_PMON_CTL': bits 0x10000000000 are past its width "
             "of 32 bits and must be zero");
    /* invert without thresh: the rule, its wording, its source */
    assert_int_equal(regc_check(&hand_ubox_spec, ctl, NULL, 1u << 23, msg, sizeof(msg)), -EINVAL);
    assert_non_null(strstr(
        msg, "breaks rule 'invert_needs_thresh' (invert -> thresh != 0): .invert is in series"));
    assert_non_null(strstr(msg, "table 2-2, page 20"));
    assert_int_equal(
        regc_check(&hand_ubox_spec, ctl, NULL, (1u << 23) | (1u << 24), msg, sizeof(msg)), 0);
    /* edge_det, through the postfix ops */
    assert_int_equal(regc_check(&hand_ubox_spec, ctl, NULL, 1u << 18, msg, sizeof(msg)), -EINVAL);
    assert_non_null(strstr(msg, "edge_det_needs_thresh"));
    assert_int_equal(
        regc_check(&hand_ubox_spec, ctl, NULL, (1u << 18) | (3u << 24), msg, sizeof(msg)), 0);
    /* undefined value */
    const struct regc_reg *actl = regc_block_reg(regc_spec_block(&acme_spec, "box"), "CTL");
    assert_int_equal(regc_check(&acme_spec, actl, NULL, 3u << 17, msg, sizeof(msg)), -EINVAL);
    assert_string_equal(
        msg, "refusing 0x60000 for 'CTL': value 0x3 ('BAD') of field 'mode' is undefined "
             "(acme test sheet 1-A, table 3, page 2)");
}

static void test_rules_eval(void **st)
{
    const struct regc_reg *actl = regc_block_reg(regc_spec_block(&acme_spec, "box"), "CTL");
    const struct regc_rule *ru = &actl->rules[0];
    bool h;
    struct {
        uint64_t v;
        bool holds;
    } cases[] = {{0, true},
                 {1u << 17, true},                               /* double, not enabled */
                 {(1u << 17) | (1u << 15), false},               /* double, enabled, thr 0 */
                 {(1u << 17) | (1u << 15) | (2u << 8), true},    /* thr 2 */
                 {(1u << 17) | (1u << 15) | (0x1fu << 8), true}, /* thr 31 */
                 {(1u << 17) | (1u << 15) | (0x20u << 8), false}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(regc_rule_eval(actl, ru, cases[i].v, &h), 0);
        if (h != cases[i].holds)
            fail_msg("case %zu: 0x%llx", i, (unsigned long long)cases[i].v);
    }
    /* the runtime evaluates only the ops regc wrote: a rule without them is malformed */
    struct regc_rule bad = {.name = "b", .expr = "en == 1"};
    assert_int_equal(regc_rule_eval(actl, &bad, 0, &h), -EINVAL);
    /* more values than the stack holds */
    struct regc_rule_op deep[REGC_RULE_STACK + 2];
    for (size_t i = 0; i <= REGC_RULE_STACK; i++)
        deep[i] = (struct regc_rule_op){REGC_OP_CONST, 0, 0, 1};
    deep[REGC_RULE_STACK + 1] = (struct regc_rule_op){REGC_OP_END, 0, 0, 0};
    bad = (struct regc_rule){.name = "d", .ops = deep};
    assert_int_equal(regc_rule_eval(actl, &bad, 0, &h), -EINVAL);
    /* two values left at the end */
    bad.ops = &deep[REGC_RULE_STACK - 1];
    assert_int_equal(regc_rule_eval(actl, &bad, 0, &h), -EINVAL);
    struct regc_rule_op ops[] = {{REGC_OP_AND, 0, 0, 0}, {REGC_OP_END, 0, 0, 0}};
    bad = (struct regc_rule){.name = "o", .ops = ops};
    assert_int_equal(regc_rule_eval(actl, &bad, 0, &h), -EINVAL);
}

/* Property: random values: the check accepts exactly what the masks allow (rules aside), and the
 * sim agrees. */
static void test_random_values(void **st)
{
    uint64_t x = 0x9e3779b97f4a7c15u;
    const struct regc_spec *specs[] = {&hand_ubox_spec, &acme_spec};
    for (size_t k = 0; k < 2; k++) {
        regc_dev *d = open_sim(specs[k]);
        for (const struct regc_block *b = specs[k]->blocks; b->name; b++)
            for (const struct regc_reg *r = b->regs; r->name; r++) {
                struct regc_ref rf;
                assert_int_equal(regc_ref_make(&rf, specs[k], b,
                                               b->instances->name ? b->instances : NULL, r,
                                               r->is_array ? (int)r->first : -1),
                                 0);
                for (int i = 0; i < 200; i++) {
                    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
                    uint64_t v = i & 1 ? x & regc_reg_allowed(r) : x;
                    char msg[512];
                    int c = regc_check(specs[k], r, NULL, v, msg, sizeof(msg));
                    bool masked_ok = (v & ~regc_reg_allowed(r)) == 0;
                    if (!masked_ok)
                        assert_int_equal(c, -EINVAL);
                    int w = regc_write(d, &rf, v);
                    assert_int_equal(w, c);
                    int u = regc_write_unchecked(d, &rf, v);
                    assert_int_equal(u, masked_ok ? 0 : -EIO);
                }
            }
        regc_close(d);
    }
}

static void test_attributes(void **st)
{
    regc_dev *d = open_sim(&acme_spec);
    regc_sim *sim = regc_dev_sim(d);
    assert_non_null(sim);
    struct regc_ref ctl = ref(&acme_spec, "box.CTL0");
    /* RO 'id' keeps its value, W1S 'sticky' sets and stays */
    assert_int_equal(regc_sim_poke(sim, &ctl, 0x500000), 0);
    wr(d, &acme_spec, "box.CTL0", 0x4000 | 0x0042);
    assert_int_equal(rd(d, &acme_spec, "box.CTL0"), 0x504042);
    wr(d, &acme_spec, "box.CTL0", 0x0001);
    assert_int_equal(rd(d, &acme_spec, "box.CTL0"), 0x504001);
    /* WO reads 0 */
    wr(d, &acme_spec, "box.CTL0", 0x10000);
    assert_int_equal(rd(d, &acme_spec, "box.CTL0") & 0x10000, 0);
    /* ig: ignored */
    wr(d, &acme_spec, "box.BOX_CTL", 0x7c);
    assert_int_equal(rd(d, &acme_spec, "box.BOX_CTL"), 0);
    /* W1C */
    struct regc_ref bs = ref(&acme_spec, "box.BOX_STATUS");
    assert_int_equal(regc_sim_poke(sim, &bs, 3), 0);
    wr(d, &acme_spec, "box.BOX_STATUS", 1);
    assert_int_equal(rd(d, &acme_spec, "box.BOX_STATUS"), 2);
    /* a reserved bit faults like #GP */
    assert_int_equal(regc_write_unchecked(d, &ctl, UINT64_C(1) << 24), -EIO);
    assert_non_null(strstr(regc_last_error(d), "the simulated CPU refused the access"));
    /* 64-bit pci register */
    struct regc_ref pctr = ref(&acme_spec, "dev.PCTR");
    wr(d, &acme_spec, "dev.PCTR", 0x123456789abc);
    assert_int_equal(rd(d, &acme_spec, "dev.PCTR"), 0x123456789abc);
    assert_int_equal(regc_write_unchecked(d, &pctr, UINT64_C(1) << 50), -EIO);
    regc_close(d);
}

static void test_rmw(void **st)
{
    regc_dev *d = open_sim(&acme_spec);
    regc_sim *sim = regc_dev_sim(d);
    struct regc_ref ctl = ref(&acme_spec, "box.CTL1");
    assert_int_equal(regc_sim_poke(sim, &ctl, 0x5cc042), 0); /* id 5, wrap, mode 2, en, sticky */
    uint64_t w;
    assert_int_equal(regc_rmw(d, &ctl, 0xff, 0x07, &w), 0);
    assert_int_equal(w,
                     0x5c8007); /* keeps RW and RO; W1S sticky(14) not written back; ev replaced */
    const struct regc_reg *bs = regc_block_reg(regc_spec_block(&acme_spec, "box"), "BOX_STATUS");
    assert_int_equal(regc_rmw_value(bs, 3, 0, 0), 0); /* never write back W1C ones */
    assert_int_equal(regc_rmw_value(bs, 3, 1, 1), 1); /* unless clearing */
    const struct regc_reg *bc = regc_block_reg(regc_spec_block(&acme_spec, "box"), "BOX_CTL");
    assert_int_equal(regc_rmw_value(bc, 0x183, 0, 0), 0x180); /* WO zeroed */
    assert_int_equal(regc_rmw_value(bc, 0xffffffff, 1, 1), 0x181);
    /* rmw refuses an MBZ bit asked for */
    assert_int_equal(regc_rmw(d, &ctl, UINT64_C(1) << 30, UINT64_C(1) << 30, NULL), -EINVAL);
    regc_close(d);
}

static void test_counting_wrap(void **st)
{
    regc_dev *d = open_sim(&hand_ubox_spec);
    regc_sim *sim = regc_dev_sim(d);
    struct regc_ref ctr = ref(&hand_ubox_spec, "ubox.U_MSR_PMON_CTR0");
    assert_int_equal(regc_sim_tick(sim, "ubox", NULL, 0, 0, 5), 0);
    assert_int_equal(rd(d, &hand_ubox_spec, "ubox.U_MSR_PMON_CTR0"), 0); /* not enabled */
    wr(d, &hand_ubox_spec, "ubox.U_MSR_PMON_CTL0", 0x400842);            /* en, umask 8, ev 0x42 */
    assert_int_equal(regc_sim_tick(sim, "ubox", NULL, 0, 0, 5), 0);
    assert_int_equal(rd(d, &hand_ubox_spec, "ubox.U_MSR_PMON_CTR0"), 5);
    assert_int_equal(regc_sim_poke(sim, &ctr, (UINT64_C(1) << 44) - 2), 0);
    assert_int_equal(regc_sim_tick(sim, "ubox", NULL, 0, 0, 5), 0);
    assert_int_equal(rd(d, &hand_ubox_spec, "ubox.U_MSR_PMON_CTR0"), 3); /* 44-bit wrap */
    /* events: DOORBELL_RCVD (0x42/0x08) counts on CTL0 only; EVENT_MSG has no umask: both select it
     */
    wr(d, &hand_ubox_spec, "ubox.U_MSR_PMON_CTL1", 0x400142);
    assert_int_equal(regc_sim_event(sim, "ubox:EVENT_MSG.DOORBELL_RCVD", 10), 0);
    assert_int_equal(rd(d, &hand_ubox_spec, "ubox.U_MSR_PMON_CTR0"), 13);
    assert_int_equal(rd(d, &hand_ubox_spec, "ubox.U_MSR_PMON_CTR1"), 0);
    assert_int_equal(regc_sim_event(sim, "ubox:EVENT_MSG", 1), 0);
    assert_int_equal(rd(d, &hand_ubox_spec, "ubox.U_MSR_PMON_CTR1"), 1);
    /* WO rst clears the counter */
    wr(d, &hand_ubox_spec, "ubox.U_MSR_PMON_CTL0", 0x420842);
    assert_int_equal(rd(d, &hand_ubox_spec, "ubox.U_MSR_PMON_CTR0"), 0);
    assert_int_equal(regc_sim_event(sim, "ubox:NOPE", 1), -ENOENT);
    assert_int_equal(regc_sim_tick(sim, "nobox", NULL, 0, 0, 1), -ENOENT);
    assert_int_equal(regc_sim_tick(sim, "ubox", NULL, 3, 0, 1), -ENOENT);
    assert_int_equal(regc_sim_tick(sim, "ubox", "x", 0, 0, 1), -ENOENT);
    regc_close(d);
}

static void test_pmon_topology(void **st)
{
    regc_dev *d = open_sim(&acme_spec);
    regc_sim *sim = regc_dev_sim(d);
    /* stop at max unless the wrap field is set */
    wr(d, &acme_spec, "box.box1.CTL0", 0x8001);
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 0x1fffe), 0);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTR0"), 0xffff);
    assert_int_equal(rd(d, &acme_spec, "box.box1.BOX_STATUS"), 1); /* overflow bit 0 */
    assert_int_equal(rd(d, &acme_spec, "glob.GLOBAL_STATUS"), 2);  /* instance 1 of box */
    wr(d, &acme_spec, "box.box1.BOX_STATUS", 1);                   /* W1C */
    assert_int_equal(rd(d, &acme_spec, "box.box1.BOX_STATUS"), 0);
    wr(d, &acme_spec, "glob.GLOBAL_STATUS", 2);
    assert_int_equal(rd(d, &acme_spec, "glob.GLOBAL_STATUS"), 0);
    wr(d, &acme_spec, "box.box1.CTL0", 0x88001); /* wrap */
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 3), 0);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTR0"), 2);
    /* box freeze stops counting; freeze enable alone does not freeze on overflow: these
     * counters have no pmi field, so no overflow leaves the box (E5-2600, 327043 section 2.1) */
    wr(d, &acme_spec, "box.box1.BOX_CTL", 0x180); /* frz with frz_en */
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 3), 0);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTR0"), 2);
    assert_int_equal(rd(d, &acme_spec, "box.box1.BOX_CTL"), 0x180); /* levels read back */
    /* frz without frz_en freezes nothing: "If set to 1 and .frz_en is 1, the counters in this
     * box will be frozen" (327043 Table 2-9) */
    wr(d, &acme_spec, "box.box1.BOX_CTL", 0x80);
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 3), 0);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTR0"), 5);
    wr(d, &acme_spec, "box.box1.CTR0", 2);
    wr(d, &acme_spec, "box.box1.BOX_CTL", 0x100);
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 0xffff), 0);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTR0"), 1);
    assert_int_equal(rd(d, &acme_spec, "box.box1.BOX_CTL"), 0x100); /* not frozen */
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 5), 0);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTR0"), 6);
    /* global freeze / unfreeze: it reaches a box only through its frz_en ("If 1, a freeze
     * signal stops ('freezes') the counters; else the signal is ignored", 327043 Table 2-9) */
    wr(d, &acme_spec, "box.box1.BOX_CTL", 0);
    wr(d, &acme_spec, "glob.GLOBAL_CTL", 1);
    assert_true(regc_sim_global_frozen(sim));
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 5), 0);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTR0"), 11); /* frz_en 0: ignored */
    wr(d, &acme_spec, "box.box1.BOX_CTL", 0x100);             /* frz_en */
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 5), 0);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTR0"), 11);
    wr(d, &acme_spec, "glob.GLOBAL_CTL", 2);
    assert_false(regc_sim_global_frozen(sim));
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 5), 0);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTR0"), 16);
    /* box reset: counters, then controls */
    wr(d, &acme_spec, "box.box1.BOX_CTL", 1);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTR0"), 0);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTL0"), 0x88001);
    wr(d, &acme_spec, "box.box1.BOX_CTL", 2);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTL0"), 0);
    /* event with a counter constraint and box0 untouched */
    wr(d, &acme_spec, "box.box0.CTL1", 0x8102);
    assert_int_equal(regc_sim_event(sim, "box[box0]:HITS", 4), 0);
    assert_int_equal(rd(d, &acme_spec, "box.box0.CTR1"), 4);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTR1"), 0);
    regc_close(d);
}

/* regc_sim_tick_held: 1 exactly where the counter's own control enables it yet a freeze (box,
 * global, a global enable level of 0) keeps it from counting; each answer is checked against
 * what a tick then does (lost when held, counted when not). */
static void test_tick_held(void **st)
{
    regc_dev *d = open_sim(&acme_spec);
    regc_sim *sim = regc_dev_sim(d);
    const char *c0 = "box.box1.CTR0";
    assert_int_equal(regc_sim_tick_held(sim, "box", "box1", 0, 0), 0); /* en 0: off, not held */
    wr(d, &acme_spec, "box.box1.CTL0", 0x88001);                       /* en, wrap */
    assert_int_equal(regc_sim_tick_held(sim, "box", "box1", 0, 0), 0);
    wr(d, &acme_spec, "box.box1.BOX_CTL", 0x180); /* frz with frz_en: the box is frozen */
    assert_int_equal(regc_sim_tick_held(sim, "box", "box1", 0, 0), 1);
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 3), 0);
    assert_int_equal(rd(d, &acme_spec, c0), 0);
    assert_int_equal(regc_sim_tick_held(sim, "box", "box0", 0, 0), 0); /* another instance */
    wr(d, &acme_spec, "box.box1.BOX_CTL", 0x100);                      /* frz 0 */
    assert_int_equal(regc_sim_tick_held(sim, "box", "box1", 0, 0), 0);
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 3), 0);
    assert_int_equal(rd(d, &acme_spec, c0), 3);
    wr(d, &acme_spec, "glob.GLOBAL_CTL", 1); /* frz_all reaches the box through its frz_en */
    assert_int_equal(regc_sim_tick_held(sim, "box", "box1", 0, 0), 1);
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 3), 0);
    assert_int_equal(rd(d, &acme_spec, c0), 3);
    wr(d, &acme_spec, "box.box1.BOX_CTL", 0); /* frz_en 0: the global freeze is ignored */
    assert_int_equal(regc_sim_tick_held(sim, "box", "box1", 0, 0), 0);
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 3), 0);
    assert_int_equal(rd(d, &acme_spec, c0), 6);
    wr(d, &acme_spec, "glob.GLOBAL_CTL", 2); /* unfrz_all */
    /* stopped at its end (no wrap): no freeze holds it, only a write of it or its control
     * starts it again, so it is not held even in a frozen box */
    wr(d, &acme_spec, "box.box1.CTL0", 0x8001);
    assert_int_equal(regc_sim_tick(sim, "box", "box1", 0, 0, 0x10000), 0);
    assert_int_equal(rd(d, &acme_spec, c0), 0xffff);
    wr(d, &acme_spec, "box.box1.BOX_CTL", 0x180);
    assert_int_equal(regc_sim_tick_held(sim, "box", "box1", 0, 0), 0);
    /* no such block, instance, group or counter */
    assert_int_equal(regc_sim_tick_held(sim, "nobox", NULL, 0, 0), -ENOENT);
    assert_int_equal(regc_sim_tick_held(sim, "box", "box9", 0, 0), -ENOENT);
    assert_int_equal(regc_sim_tick_held(sim, "box", "box1", 7, 0), -ENOENT);
    assert_int_equal(regc_sim_tick_held(sim, "box", "box1", 0, 9), -ENOENT);
    regc_close(d);
    /* a global enable level of 0 holds an enabled counter (Xeon 7500 en_all) */
    d = open_sim(&acme2_spec);
    sim = regc_dev_sim(d);
    wr(d, &acme2_spec, "u.CTL2", 1);
    assert_int_equal(regc_sim_tick_held(sim, "u", NULL, 1, 0), 1);
    assert_int_equal(regc_sim_tick(sim, "u", NULL, 1, 0, 3), 0);
    assert_int_equal(rd(d, &acme2_spec, "u.CTR2"), 0);
    wr(d, &acme2_spec, "g.GCTL", 1);
    assert_int_equal(regc_sim_tick_held(sim, "u", NULL, 1, 0), 0);
    assert_int_equal(regc_sim_tick(sim, "u", NULL, 1, 0, 3), 0);
    assert_int_equal(rd(d, &acme2_spec, "u.CTR2"), 3);
    regc_close(d);
}

/* A counter's freeze-on-overflow freezes globally; a global freeze-on-overflow field clears the
 * global enable. */
static void test_freeze_on_overflow(void **st)
{
    regc_dev *d = open_sim(&acme2_spec);
    regc_sim *sim = regc_dev_sim(d);
    wr(d, &acme2_spec, "u.CTL", 1);
    wr(d, &acme2_spec, "u.CTL2", 1);
    assert_int_equal(regc_sim_tick(sim, "u", NULL, 1, 0, 3), 0);
    assert_int_equal(rd(d, &acme2_spec, "u.CTR2"), 0); /* the global enable level is 0 */
    wr(d, &acme2_spec, "g.GCTL", 1);
    assert_int_equal(regc_sim_tick(sim, "u", NULL, 1, 0, 3), 0);
    assert_int_equal(rd(d, &acme2_spec, "u.CTR2"), 3);
    /* group 1 overflows with fovf set: the global enable drops */
    wr(d, &acme2_spec, "g.GCTL", 3);
    assert_int_equal(regc_sim_tick(sim, "u", NULL, 1, 0, 254), 0);
    assert_int_equal(rd(d, &acme2_spec, "u.CTR2"), 1);
    assert_int_equal(rd(d, &acme2_spec, "g.GCTL"), 2);
    assert_int_equal(regc_sim_tick(sim, "u", NULL, 1, 0, 5), 0);
    assert_int_equal(rd(d, &acme2_spec, "u.CTR2"), 1);
    /* group 0 has freeze-on-overflow itself; with a global enable and no unfreeze
       action, the overflow clears the enable (Xeon 7500: the U-Box disables counting) */
    wr(d, &acme2_spec, "g.GCTL", 1);
    assert_int_equal(regc_sim_tick(sim, "u", NULL, 0, 0, 300), 0);
    assert_int_equal(rd(d, &acme2_spec, "u.CTR"), 300 - 256);
    assert_int_equal(rd(d, &acme2_spec, "g.GCTL"), 0);
    assert_int_equal(regc_sim_tick(sim, "u", NULL, 1, 0, 5), 0);
    assert_int_equal(rd(d, &acme2_spec, "u.CTR2"), 1);
    regc_close(d);
}

/*
 * Box freeze on overflow (acme3, hand_tables.h): with frz_en set, an
 * overflow of a counter that sends it out (ov_en) freezes its box: frz reads
 * 1 and every counter of the box stops, the others of the batch having
 * counted that cycle; the other box counts on; writing frz 0 resumes (the
 * manuals' level). Without frz_en, or without ov_en on the overflowing
 * counter, nothing freezes.
 */
static void test_box_freeze_on_overflow(void **st)
{
    static const struct {
        uint64_t box_ctl, ctl0;
        bool freezes;
    } cases[] = {{1, 0x103, true}, {0, 0x103, false}, {1, 0x101, false}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        regc_dev *d = open_sim(&acme3_spec);
        regc_sim *sim = regc_dev_sim(d);
        wr(d, &acme3_spec, "b.b0.BOX_CTL", cases[i].box_ctl);
        wr(d, &acme3_spec, "b.b0.CTL0", cases[i].ctl0); /* TICKS, en, ov_en as the case says */
        wr(d, &acme3_spec, "b.b0.CTL1", 0x101);         /* TICKS, en */
        wr(d, &acme3_spec, "b.b1.CTL0", 0x101);
        wr(d, &acme3_spec, "b.b0.CTR0", 0xfe);
        assert_int_equal(regc_sim_event(sim, "b[b0]:TICKS", 5), 0); /* CTR0 overflows on the 2nd */
        assert_int_equal(regc_sim_event(sim, "b[b1]:TICKS", 5), 0);
        assert_int_equal(rd(d, &acme3_spec, "b.b0.CTR0"), 3);
        assert_int_equal(rd(d, &acme3_spec, "b.b0.CTR1"), 5);
        assert_int_equal(rd(d, &acme3_spec, "b.b0.BOX_CTL") >> 1 & 1, cases[i].freezes);
        assert_int_equal(regc_sim_event(sim, "b[b0]:TICKS", 5), 0);
        assert_int_equal(regc_sim_event(sim, "b[b1]:TICKS", 5), 0);
        assert_int_equal(rd(d, &acme3_spec, "b.b0.CTR0"), cases[i].freezes ? 3 : 8);
        assert_int_equal(rd(d, &acme3_spec, "b.b0.CTR1"), cases[i].freezes ? 5 : 10);
        assert_int_equal(rd(d, &acme3_spec, "b.b1.CTR0"), 10);
        wr(d, &acme3_spec, "b.b0.BOX_CTL", cases[i].box_ctl); /* frz 0 */
        assert_int_equal(regc_sim_event(sim, "b[b0]:TICKS", 5), 0);
        assert_int_equal(rd(d, &acme3_spec, "b.b0.CTR1"), cases[i].freezes ? 10 : 15);
        regc_close(d);
    }
}

/*
 * The global-freeze flow on a box with a freeze enable (acme: GLOBAL_CTL frz_all/unfrz_all, box
 * control frz bit 7, frz_en bit 8). The box ignores every freeze signal while frz_en is 0 ("If 1,
 * a freeze signal stops ('freezes') the counters; else the signal is ignored", 327043 Table
 * 2-9), so the flow must enable it when it freezes globally: after the session starts, frz_en is
 * set, frz is not (the global control does the freezing), and the flow's global freeze stops the
 * box's counter.
 */
static void test_global_freeze_enables_box(void **st)
{
    (void)st;
    regc_dev *d = open_sim(&acme_spec);
    regc_sim *sim = regc_dev_sim(d);
    regc_pmon_session *p;
    assert_int_equal(regc_pmon_new(&p, d), 0);
    assert_int_equal(regc_pmon_add(p, "box[box1]:TICKS"), 0);
    struct regc_pmon_opts o = {.settle_ms = -1};
    assert_int_equal(regc_pmon_start(p, &o), 0);
    assert_int_equal(rd(d, &acme_spec, "box.box1.BOX_CTL") & 0x180, 0x100);
    assert_false(regc_sim_global_frozen(sim));
    assert_int_equal(regc_sim_event(sim, "box[box1]:TICKS", 5), 0);
    uint64_t before = rd(d, &acme_spec, "box.box1.CTR0");
    assert_int_equal(before, 5);
    wr(d, &acme_spec, "glob.GLOBAL_CTL", 1); /* the flow's freeze: frz_all */
    assert_int_equal(regc_sim_event(sim, "box[box1]:TICKS", 5), 0);
    assert_int_equal(rd(d, &acme_spec, "box.box1.CTR0"), before);
    regc_pmon_free(p);
    regc_close(d);
}

/* ---- fault injection and error messages, per backend name */

static regc_sim *g_sim;
static int fwd_open(struct regc_backend *be, char *err, size_t n)
{
    return 0;
}
static void fwd_close(struct regc_backend *be)
{
}
static int fwd_read(struct regc_backend *be, const struct regc_io *io, uint64_t *v)
{
    return regc_sim_read(g_sim, io, v);
}
static int fwd_write(struct regc_backend *be, const struct regc_io *io, uint64_t v)
{
    return regc_sim_write(g_sim, io, v);
}

static void expect_error(const char *backend, bool write, int err, const char *text)
{
    struct regc_backend_ops ops = {backend, fwd_open, fwd_close, fwd_read, fwd_write};
    struct regc_options o = {.ops = &ops, .cpu = 3};
    regc_dev *d;
    assert_int_equal(regc_sim_new(&g_sim, &hand_ubox_spec), 0);
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    struct regc_ref r = ref(&hand_ubox_spec, "ubox.U_MSR_PMON_CTL0");
    regc_sim_fail_nth(g_sim, 1, err);
    uint64_t v;
    int rc = write ? regc_write(d, &r, 0) : regc_read(d, &r, &v);
    assert_int_equal(rc, -err);
    const char *m = regc_last_error(d);
    if (!strstr(m, text))
        fail_msg("%s %s errno %d: '%s' lacks '%s'", backend, write ? "write" : "read", err, m,
                 text);
    assert_non_null(strstr(m, write ? "writing 'ubox.U_MSR_PMON_CTL0' (msr 0xc10, cpu 3)"
                                    : "reading 'ubox.U_MSR_PMON_CTL0' (msr 0xc10, cpu 3)"));
    /* the next access works again */
    assert_int_equal(regc_read(d, &r, &v), 0);
    assert_string_equal(regc_last_error(d), "");
    struct regc_stats s;
    regc_get_stats(d, &s);
    assert_int_equal(s.failures, 1);
    regc_close(d);
    regc_sim_free(g_sim);
}

static void test_errors_mapped(void **st)
{
    expect_error("msr", false, EIO,
                 "the CPU refused the access (a reserved bit set, or the MSR is not implemented)");
    expect_error("msr", true, EIO, "the CPU refused the access");
    expect_error("msr", false, EACCES, "needs root or CAP_SYS_RAWIO");
    expect_error("msr", true, EPERM, "msr.allow_writes=on or msr-safe");
    expect_error("msr", false, ENOENT, "modprobe msr");
    expect_error("msr", false, ENXIO, "no such CPU");
    expect_error("pci", false, EACCES, "configuration space past 64 bytes needs root");
    expect_error("pci", true, EACCES, "writing configuration space needs root");
    expect_error("msr", false, EACCES, "setcap cap_sys_rawio+ep");
    expect_error("pci", false, ENODEV, "no PCI device matches");
    expect_error("pci", true, EIO, "input/output error");
    expect_error("sim", true, EIO, "the simulated CPU refused");
    expect_error("x", false, EBUSY, strerror(EBUSY));
    expect_error("x", false, EOPNOTSUPP, "cannot reach this address space");
}

static void test_fault_address(void **st)
{
    regc_dev *d = open_sim(&hand_ubox_spec);
    regc_sim *sim = regc_dev_sim(d);
    regc_sim_fail_address(sim, 0xc16, EIO);
    regc_sim_fail_address(sim, 0xc16, EAGAIN);
    uint64_t v;
    struct regc_ref c0 = ref(&hand_ubox_spec, "ubox.U_MSR_PMON_CTR0"),
                    c1 = ref(&hand_ubox_spec, "ubox.U_MSR_PMON_CTR1");
    assert_int_equal(regc_read(d, &c0, &v), -EAGAIN);
    assert_int_equal(regc_read(d, &c1, &v), 0);
    assert_int_equal(regc_rmw(d, &c0, 1, 1, NULL), -EAGAIN);
    regc_sim_fail_address(sim, 0xc16, 0);
    assert_int_equal(regc_read(d, &c0, &v), 0);
    regc_sim_fail_nth(sim, 2, EIO); /* rmw: the read passes, the write fails */
    assert_int_equal(regc_rmw(d, &c0, 1, 1, NULL), -EIO);
    regc_sim_fail_nth(sim, 1, EIO);
    regc_sim_faults_clear(sim);
    assert_int_equal(regc_read(d, &c0, &v), 0);
    assert_true(regc_sim_accesses(sim) >= 7);
    regc_close(d);
}

struct trace_log {
    char text[1024];
    size_t len;
};

static void trace(void *ctx, bool write, const struct regc_io *io, uint64_t value, int rc)
{
    struct trace_log *t = ctx;
    t->len += (size_t)snprintf(t->text + t->len, sizeof(t->text) - t->len, "%s 0x%llx 0x%llx %d\n",
                               write ? "W" : "R", (unsigned long long)io->address,
                               (unsigned long long)value, rc);
}

static void test_dry_run(void **st)
{
    struct trace_log t = {0};
    struct regc_options o = {.backend = "msr",
                             .dry_run = true,
                             .trace = trace,
                             .trace_ctx = &t,
                             .msr_root = "/nonexistent"};
    regc_dev *d;
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, NULL, 0), 0);
    assert_null(regc_dev_sim(d));
    struct regc_ref r = ref(&hand_ubox_spec, "ubox.U_MSR_PMON_CTL0");
    assert_int_equal(regc_rmw(d, &r, 0xff, 0x42, NULL), 0);
    assert_int_equal(regc_write(d, &r, 1u << 29), -EINVAL); /* refused before any access */
    assert_string_equal(t.text, "R 0xc10 0x0 0\nW 0xc10 0x42 0\n");
    struct regc_stats s;
    regc_get_stats(d, &s);
    assert_int_equal(s.reads, 1);
    assert_int_equal(s.writes, 1);
    assert_string_equal(regc_dev_backend(d), "msr");
    assert_ptr_equal(regc_dev_spec(d), &hand_ubox_spec);
    regc_close(d);
}

static void test_open_errors(void **st)
{
    regc_dev *d;
    char err[256];
    struct regc_options o = {.backend = "bogus"};
    assert_int_equal(regc_open(&d, &hand_ubox_spec, &o, err, sizeof(err)), -EINVAL);
    assert_string_equal(err, "unknown backend 'bogus' (want msr, pci, perf or sim)");
    assert_int_equal(regc_open(&d, &hand_ubox_spec, NULL, err, sizeof(err)), 0); /* default: sim */
    assert_string_equal(regc_dev_backend(d), "sim");
    regc_close(d);
    regc_close(NULL);
    assert_null(regc_backend_find("nope"));
    /* a borrowed simulator is shared, not freed */
    regc_sim *sim;
    assert_int_equal(regc_sim_new(&sim, &acme_spec), 0);
    o = (struct regc_options){.sim = sim};
    assert_int_equal(regc_open(&d, &acme_spec, &o, err, sizeof(err)), 0);
    assert_ptr_equal(regc_dev_sim(d), sim);
    regc_close(d);
    struct regc_ref r = ref(&acme_spec, "box.CTL0");
    uint64_t v;
    assert_int_equal(regc_sim_peek(sim, &r, &v), 0);
    regc_sim_free(sim);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_check_mbz_every_bit),
        cmocka_unit_test(test_check_messages),
        cmocka_unit_test(test_rules_eval),
        cmocka_unit_test(test_random_values),
        cmocka_unit_test(test_attributes),
        cmocka_unit_test(test_rmw),
        cmocka_unit_test(test_counting_wrap),
        cmocka_unit_test(test_pmon_topology),
        cmocka_unit_test(test_errors_mapped),
        cmocka_unit_test(test_tick_held),
        cmocka_unit_test(test_freeze_on_overflow),
        cmocka_unit_test(test_box_freeze_on_overflow),
        cmocka_unit_test(test_global_freeze_enables_box),
        cmocka_unit_test(test_fault_address),
        cmocka_unit_test(test_dry_run),
        cmocka_unit_test(test_open_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
