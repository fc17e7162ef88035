/*
 * test_gentables - property tests over every generated descriptor table
 * (build/gen/regc_specs.h, one per regspec/ file): every must-be-zero bit
 * of every register is refused before any access and faults in the
 * simulator, and so does a must-be-one bit (attr.h RV1) left 0; every rule
 * can be broken and is then refused naming the rule;
 * random allowed values written unchecked never fault; reads return what
 * the attribute table says.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>

#include "regc/regc.h"
#include "regc/sim.h"
#include "regc_specs.h"
#include "testutil.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static void first_ref(const struct regc_spec *s, const struct regc_block *b,
                      const struct regc_reg *r, struct regc_ref *out)
{
    const struct regc_addr *a = r->addrs;
    assert_int_not_equal(a->index, REGC_ADDR_END);
    const struct regc_instance *inst = a->instance ? regc_block_instance(b, a->instance) : NULL;
    assert_int_equal(regc_ref_make(out, s, b, inst, r, a->index), 0);
}

static void check_register(const struct regc_spec *s, const struct regc_block *b,
                           const struct regc_reg *r, regc_dev *d)
{
    struct regc_ref ref;
    first_ref(s, b, r, &ref);
    uint64_t allowed = regc_reg_allowed(r);
    uint64_t mb1 = regc_reg_class_mask(r, REGC_MASK_MB1);
    struct regc_stats before, after;
    regc_get_stats(d, &before);
    for (unsigned bit = 0; bit < 64; bit++) {
        uint64_t v = mb1 & ~(UINT64_C(1) << bit); /* must-be-one bit 'bit' left 0 */
        if (v == mb1)
            continue;
        if (regc_write(d, &ref, v) != -EINVAL || !strstr(regc_last_error(d), "must be written 1"))
            fail_msg("%s.%s.%s: must-be-one bit %u left 0 accepted: %s", s->name, b->name, r->name,
                     bit, regc_last_error(d));
        if (regc_write_unchecked(d, &ref, v) != -EIO)
            fail_msg("%s.%s.%s: the simulator took must-be-one bit %u as 0", s->name, b->name,
                     r->name, bit);
    }
    for (unsigned bit = 0; bit < 64; bit++) {
        uint64_t v = UINT64_C(1) << bit;
        if (allowed & v)
            continue;
        if (regc_write(d, &ref, v) != -EINVAL)
            fail_msg("%s.%s.%s: must-be-zero bit %u accepted", s->name, b->name, r->name, bit);
        if (!strstr(regc_last_error(d), r->name))
            fail_msg("%s: message does not name the register: %s", r->name, regc_last_error(d));
        if (bit < r->size && regc_write_unchecked(d, &ref, v) != -EIO)
            fail_msg("%s.%s.%s: the simulator took must-be-zero bit %u", s->name, b->name, r->name,
                     bit);
    }
    regc_get_stats(d, &after);
    for (int i = 0; i < 64; i++) {
        uint64_t v = (next() & allowed) | mb1;
        char msg[512];
        int c = regc_check(s, r, NULL, v, msg, sizeof(msg));
        if (c && !strstr(msg, "rule") && !strstr(msg, "undefined"))
            fail_msg("%s: allowed value 0x%llx refused: %s", r->name, (unsigned long long)v, msg);
        if (regc_write_unchecked(d, &ref, v) != 0)
            fail_msg("%s: allowed value 0x%llx faulted: %s", r->name, (unsigned long long)v,
                     regc_last_error(d));
        uint64_t back;
        assert_int_equal(regc_read(d, &ref, &back), 0);
        /* levels (box freeze, freeze-enable: regc_level_mask) read back as held */
        uint64_t unreadable =
            regc_reg_class_mask(r, REGC_MASK_WO | REGC_MASK_MBZ | REGC_MASK_IGNORED) &
            ~regc_level_mask(b, r);
        if (back & unreadable)
            fail_msg("%s: write-only, reserved or ignored bits read back: 0x%llx", r->name,
                     (unsigned long long)(back & unreadable));
    }
}

/* Finds a value that breaks rule 'ru' and checks that the write is refused, naming it. */
static void check_rule(const struct regc_spec *s, const struct regc_reg *r,
                       const struct regc_rule *ru)
{
    uint64_t allowed = regc_reg_allowed(r);
    for (int i = 0; i < 200000; i++) {
        uint64_t v = next() & allowed & (i & 1 ? next() : ~UINT64_C(0));
        bool holds;
        assert_int_equal(regc_rule_eval(r, ru, v, &holds), 0);
        if (holds)
            continue;
        char msg[512];
        assert_int_equal(regc_check(s, r, NULL, v, msg, sizeof(msg)), -EINVAL);
        /* an earlier rule may be the one named; the value must be refused either way */
        if (strstr(msg, ru->name))
            assert_non_null(strstr(msg, ru->message ? ru->message : ""));
        return;
    }
    fail_msg("%s: no value breaks rule '%s' (%s)", r->name, ru->name, ru->expr);
}

static void test_specs(void **st)
{
    for (const struct regc_spec *const *s = regc_specs; *s; s++) {
        regc_dev *d;
        assert_int_equal(regc_open(&d, *s, &(struct regc_options){.backend = "sim"}, NULL, 0), 0);
        unsigned nregs = 0, nrules = 0;
        for (const struct regc_block *b = (*s)->blocks; b->name; b++)
            for (const struct regc_reg *r = b->regs; r->name; r++, nregs++) {
                check_register(*s, b, r, d);
                for (const struct regc_rule *ru = r->rules; ru->name; ru++, nrules++)
                    check_rule(*s, r, ru);
            }
        printf("# %s: %u registers, %u rules\n", (*s)->name, nregs, nrules);
        regc_close(d);
    }
}

/* The copy of register 'name' in instance 'inst' at 'index' (or the only one). */
static bool copy_of(const struct regc_spec *s, const struct regc_block *b,
                    const struct regc_instance *inst, const char *name, int index,
                    struct regc_ref *out)
{
    const struct regc_reg *r = name ? regc_block_reg(b, name) : NULL;
    if (!r)
        return false;
    return regc_ref_make(out, s, b, inst, r, r->is_array ? index : -1) == 0;
}

/* Sets field 'field' of a copy to 'v' (unchecked: rules are not the point here). */
static void set_field(regc_dev *d, const struct regc_ref *r, const char *field, unsigned bit,
                      uint64_t v)
{
    const struct regc_field *f = field ? regc_reg_field(r->reg, field) : NULL;
    if (!f)
        return;
    uint64_t old;
    assert_int_equal(regc_read(d, r, &old), 0);
    uint64_t m = bit == ~0u ? regc_field_mask(f) : UINT64_C(1) << (f->lsb + bit);
    uint64_t nv = regc_rmw_value(r->reg, old, m, bit == ~0u ? v << f->lsb : (v ? m : 0));
    assert_int_equal(regc_write_unchecked(d, r, nv), 0);
}

static uint64_t count_of(regc_dev *d, const struct regc_ref *ctr, const struct regc_counters *c)
{
    uint64_t v;
    assert_int_equal(regc_read(d, ctr, &v), 0);
    const struct regc_field *f = c->count_field ? regc_reg_field(ctr->reg, c->count_field) : NULL;
    return f ? regc_field_get(f, v) : v;
}

/* Every <counters> of every spec counts in the simulator once enabled, and wraps or stops at its
 * width. */
static void test_pmon_counts(void **st)
{
    for (const struct regc_spec *const *s = regc_specs; *s; s++) {
        unsigned ngroups = 0;
        for (const struct regc_block *b = (*s)->blocks; b->name; b++) {
            for (unsigned g = 0; b->pmon && b->pmon->counters[g].control; g++, ngroups++) {
                const struct regc_counters *c = &b->pmon->counters[g];
                regc_dev *d;
                assert_int_equal(
                    regc_open(&d, *s, &(struct regc_options){.backend = "sim"}, NULL, 0), 0);
                regc_sim *sim = regc_dev_sim(d);
                const struct regc_instance *inst = b->instances->name ? b->instances : NULL;
                const struct regc_reg *ctlr = regc_block_reg(b, c->control);
                assert_non_null(ctlr);
                int i = ctlr->is_array ? (int)ctlr->first : -1;
                struct regc_ref ctl, ctr, box, glob;
                assert_true(copy_of(*s, b, inst, c->control, i, &ctl));
                assert_true(copy_of(*s, b, inst, c->counter, i, &ctr));
                unsigned idx = i < 0 ? 0 : (unsigned)i;
                set_field(d, &ctl, c->enable, ~0u, 1);
                if (b->pmon->box_control &&
                    copy_of(*s, b, inst, b->pmon->box_control->reg, -1, &box))
                    set_field(d, &box, b->pmon->box_control->enable, idx, 1);
                const struct regc_global_control *gc =
                    (*s)->pmon_global ? (*s)->pmon_global->control : NULL;
                const struct regc_block *gb = gc ? regc_spec_block(*s, gc->block) : NULL;
                if (gb &&
                    copy_of(*s, gb, gb->instances->name ? gb->instances : NULL, gc->reg, -1, &glob))
                    set_field(d, &glob, gc->enable, ~0u, 1);
                assert_int_equal(regc_sim_tick(sim, b->name, inst ? inst->name : NULL, g, idx, 5),
                                 0);
                if (count_of(d, &ctr, c) != 5)
                    fail_msg("%s.%s %s[%u]: counted %llu, not 5", (*s)->name, b->name, c->counter,
                             idx, (unsigned long long)count_of(d, &ctr, c));
                /* to the top of the width, then one more */
                uint64_t max = c->width >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << c->width) - 1;
                assert_int_equal(
                    regc_sim_tick(sim, b->name, inst ? inst->name : NULL, g, idx, max - 5), 0);
                assert_int_equal(count_of(d, &ctr, c), max);
                assert_int_equal(regc_sim_tick(sim, b->name, inst ? inst->name : NULL, g, idx, 1),
                                 0);
                uint64_t after = count_of(d, &ctr, c);
                bool wrap = c->overflow == REGC_OVF_WRAP;
                if (c->wrap_field && regc_reg_field(ctl.reg, c->wrap_field)) {
                    uint64_t cv;
                    assert_int_equal(regc_read(d, &ctl, &cv), 0);
                    wrap = regc_field_get(regc_reg_field(ctl.reg, c->wrap_field), cv) != 0;
                }
                if (after != (wrap ? 0 : max))
                    fail_msg("%s.%s %s: after overflow %llu (wrap %d)", (*s)->name, b->name,
                             c->counter, (unsigned long long)after, wrap);
                const struct regc_box_status *bs = b->pmon->box_status;
                struct regc_ref sref;
                if (bs && copy_of(*s, b, inst, bs->reg, -1, &sref)) {
                    uint64_t v;
                    assert_int_equal(regc_sim_peek(sim, &sref, &v), 0);
                    const struct regc_field *ov = regc_reg_field(sref.reg, bs->overflow);
                    unsigned rel = idx - (ctlr->is_array ? ctlr->first : 0);
                    if (c->has_status_first) /* status-first: the group's bits start there */
                        rel = c->status_first + rel;
                    /* a fixed counter without status-first has no box-status bit (desc.h) */
                    bool has_bit = c->has_status_first || strcmp(c->kind, "fixed") != 0;
                    if (has_bit && ov && !((regc_field_get(ov, v) >> rel) & 1) &&
                        (c->has_status_first || !((regc_field_get(ov, v) >> idx) & 1)))
                        fail_msg("%s.%s: no overflow bit in %s after the overflow", (*s)->name,
                                 b->name, bs->reg);
                    if (!has_bit && ov && regc_field_get(ov, v) != 0)
                        fail_msg("%s.%s: the fixed counter %s set a bit in %s", (*s)->name,
                                 b->name, c->counter, bs->reg);
                }
                regc_close(d);
            }
        }
        printf("# %s: %u counter groups count, wrap or stop\n", (*s)->name, ngroups);
    }
}

/* Every regspec/ XML file has tables (make-tables.sh leaves out a spec that fails). */
static void test_every_spec_present(void **st)
{
    DIR *dir = opendir("regspec");
    assert_non_null(dir);
    for (struct dirent *e; (e = readdir(dir));) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".xml") != 0)
            continue;
        bool found = false;
        for (const struct regc_spec *const *s = regc_specs; *s; s++)
            found |= strlen((*s)->name) == n - 4 && strncmp((*s)->name, e->d_name, n - 4) == 0;
        if (!found)
            fail_msg("regspec/%s has no descriptor tables (see tools/make-tables.sh's warning)",
                     e->d_name);
    }
    closedir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_spec_present),
        cmocka_unit_test(test_specs),
        cmocka_unit_test(test_pmon_counts),
    };
    if (!regc_specs[0])
        tu_skip("generated tables", "no spec in regspec/ has descriptor tables yet");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
