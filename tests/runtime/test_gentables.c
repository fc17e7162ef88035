/*
 * test_gentables - property tests over every generated descriptor table
 * (build/gen/regc_specs.h, one per regspec/ file): every must-be-zero bit
 * of every register is refused before any access and faults in the
 * simulator; every rule can be broken and is then refused naming the rule;
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

static void first_ref(const struct regc_spec *s, const struct regc_block *b, const struct regc_reg *r,
                      struct regc_ref *out)
{
    const struct regc_addr *a = r->addrs;
    assert_int_not_equal(a->index, REGC_ADDR_END);
    const struct regc_instance *inst = a->instance ? regc_block_instance(b, a->instance) : NULL;
    assert_int_equal(regc_ref_make(out, s, b, inst, r, a->index), 0);
}

static void check_register(const struct regc_spec *s, const struct regc_block *b, const struct regc_reg *r,
                           regc_dev *d)
{
    struct regc_ref ref;
    first_ref(s, b, r, &ref);
    uint64_t allowed = regc_reg_allowed(r);
    struct regc_stats before, after;
    regc_get_stats(d, &before);
    for (unsigned bit = 0; bit < 64; bit++) {
        uint64_t v = UINT64_C(1) << bit;
        if (allowed & v)
            continue;
        if (regc_write(d, &ref, v) != -EINVAL)
            fail_msg("%s.%s.%s: must-be-zero bit %u accepted", s->name, b->name, r->name, bit);
        if (!strstr(regc_last_error(d), r->name))
            fail_msg("%s: message does not name the register: %s", r->name, regc_last_error(d));
        if (bit < r->size && regc_write_unchecked(d, &ref, v) != -EIO)
            fail_msg("%s.%s.%s: the simulator took must-be-zero bit %u", s->name, b->name, r->name, bit);
    }
    regc_get_stats(d, &after);
    for (int i = 0; i < 64; i++) {
        uint64_t v = next() & allowed;
        char msg[512];
        int c = regc_check(s, r, NULL, v, msg, sizeof(msg));
        if (c && !strstr(msg, "rule") && !strstr(msg, "undefined"))
            fail_msg("%s: allowed value 0x%llx refused: %s", r->name, (unsigned long long)v, msg);
        if (regc_write_unchecked(d, &ref, v) != 0)
            fail_msg("%s: allowed value 0x%llx faulted: %s", r->name, (unsigned long long)v, regc_last_error(d));
        uint64_t back;
        assert_int_equal(regc_read(d, &ref, &back), 0);
        uint64_t unreadable = regc_reg_class_mask(r, REGC_MASK_WO | REGC_MASK_MBZ | REGC_MASK_IGNORED);
        if (back & unreadable)
            fail_msg("%s: write-only, reserved or ignored bits read back: 0x%llx", r->name,
                     (unsigned long long)(back & unreadable));
    }
}

/* Finds a value that breaks rule 'ru' and checks that the write is refused, naming it. */
static void check_rule(const struct regc_spec *s, const struct regc_reg *r, const struct regc_rule *ru)
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
            fail_msg("regspec/%s has no descriptor tables (see tools/make-tables.sh's warning)", e->d_name);
    }
    closedir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_spec_present),
        cmocka_unit_test(test_specs),
    };
    if (!regc_specs[0])
        tu_skip("generated tables", "no spec in regspec/ has descriptor tables yet");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
