/* Unit tests for compiler/metric.c (the <metric> formula language) and runtime/metric.c
 * (regc_metric_eval, the evaluator of the tables' postfix form). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "metric.h"
#include "regc/metric.h"

static void event_text(void *ctx, struct buf *out, const struct metric_node *n)
{
    (void)ctx;
    buf_adds(out, n->text);
}

/* The formula back, every operation in parentheses (metric_render, events as written). */
static void assert_shape(const char *text, const char *want)
{
    struct arena a = ARENA_INIT;
    struct metric_error err = {0};
    struct metric_node *e = metric_parse(&a, text, &err);
    if (!e)
        fail_msg("'%s' did not parse: %zu: %s", text, err.offset, err.message);
    struct buf b = BUF_INIT;
    metric_render(e, &b, event_text, NULL);
    assert_string_equal(b.s, want);
    buf_release(&b);
    arena_release(&a);
}

static void test_precedence(void **state)
{
    (void)state;
    assert_shape("a:X + b:Y * 2", "(a:X + (b:Y * 2))");
    assert_shape("(a:X + b:Y) * 64 / seconds", "(((a:X + b:Y) * 64) / duration_time)");
    assert_shape("a:X - b:Y - c:Z", "((a:X - b:Y) - c:Z)");
    assert_shape("a:X / b:Y / 2", "((a:X / b:Y) / 2)");
    assert_shape(" imc[ch0]:CAS_COUNT.RD*64 ", "(imc[ch0]:CAS_COUNT.RD * 64)");
}

static void test_parts(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    struct metric_error err;
    struct metric_node *e = metric_parse(&a, "imc[mc0_ch1]:CAS_COUNT.WR / qpi:CLOCKTICKS", &err);
    assert_non_null(e);
    assert_int_equal(e->op, METRIC_OP_DIV);
    assert_string_equal(e->lhs->block, "imc");
    assert_string_equal(e->lhs->instance, "mc0_ch1");
    assert_string_equal(e->lhs->event, "CAS_COUNT.WR");
    assert_int_equal(e->lhs->offset, 0);
    assert_string_equal(e->rhs->block, "qpi");
    assert_null(e->rhs->instance);
    assert_string_equal(e->rhs->event, "CLOCKTICKS");
    assert_int_equal(e->rhs->offset, 28);
    arena_release(&a);
}

/* ",[REG.]FIELD=VALUE" after an event: the values as C would read them (decimal, 0x hex) */
static void test_settings(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    struct metric_error err;
    struct metric_node *e = metric_parse(
        &a, "cbox:LLC_LOOKUP.DATA_READ,FILTER.state=0x1F,occ_sel=3,x=18446744073709551615 / 2",
        &err);
    assert_non_null(e);
    const struct metric_node *n = e->lhs;
    assert_string_equal(n->event, "LLC_LOOKUP.DATA_READ");
    assert_string_equal(n->text,
                        "cbox:LLC_LOOKUP.DATA_READ,FILTER.state=0x1F,occ_sel=3,x=18446744073709551615");
    assert_int_equal(n->nsettings, 3);
    assert_string_equal(n->settings[0]->reg, "FILTER");
    assert_string_equal(n->settings[0]->field, "state");
    assert_true(n->settings[0]->value == 0x1f);
    assert_int_equal(n->settings[0]->offset, 26);
    assert_null(n->settings[1]->reg);
    assert_string_equal(n->settings[1]->field, "occ_sel");
    assert_true(n->settings[1]->value == 3);
    assert_true(n->settings[2]->value == UINT64_MAX);
    assert_int_equal(e->rhs->op, METRIC_OP_NUM);
    arena_release(&a);
}

static void test_numbers(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    struct metric_error err;
    const char *texts[] = {"64", "0.5", "1e-9", "2.5E+3", "007"};
    double want[] = {64, 0.5, 1e-9, 2500, 7};
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        struct metric_node *n = metric_parse(&a, texts[i], &err);
        assert_non_null(n);
        assert_int_equal(n->op, METRIC_OP_NUM);
        assert_true(n->value == want[i]);
        assert_string_equal(n->text, texts[i]);
    }
    arena_release(&a);
}

static void assert_error(const char *text, size_t offset, const char *message)
{
    struct arena a = ARENA_INIT;
    struct metric_error err = {0};
    assert_null(metric_parse(&a, text, &err));
    assert_string_equal(err.message, message);
    assert_int_equal(err.offset, offset);
    arena_release(&a);
}

static void test_errors(void **state)
{
    (void)state;
    assert_error("", 0, "empty formula");
    assert_error("   ", 3, "empty formula");
    assert_error("1.", 2, "expected a digit after '.'");
    assert_error("1e+", 3, "expected the exponent's digits");
    assert_error("64x", 2, "unexpected 'x' in a number");
    assert_error("1e999", 0, "number '1e999' is out of range");
    assert_error("a:X +", 5, "expected a number, 'seconds', an event or '(' but found end of formula");
    assert_error("a:X 2", 4, "expected an operator but found '2'");
    assert_error("(a:X", 4, "expected ')' but found end of formula");
    assert_error("a:X)", 3, "expected an operator but found ')'");
    assert_error("imc[", 4, "expected an instance name after '['");
    assert_error("imc[ch0", 7, "expected ']' after the instance name");
    assert_error("imc[ch0] * 2", 8, "expected ':' and an event after block 'imc'");
    assert_error("imc:", 4, "expected an event name after ':'");
    assert_error("imc:CAS.", 8, "expected a sub-event name after '.'");
    assert_error("CAS_COUNT / 2", 0, "'CAS_COUNT' is not 'seconds' nor an event: write BLOCK:EVENT");
    assert_error("a:X % 2", 4, "expected an operator but found '%'");
    assert_error("a:X, / 2", 4, "expected a field name after ','");
    assert_error("a:X,R. = 2", 6, "expected a field name after 'R.'");
    assert_error("a:X,f", 5, "expected '=' and a value after field 'f'");
    assert_error("a:X,f=", 6, "expected a value");
    assert_error("a:X,f=0x", 8, "expected hexadecimal digits after '0x'");
    assert_error("a:X,f=0x1g", 9, "unexpected 'g' in a value");
    assert_error("a:X,f=18446744073709551616", 6, "the value is larger than 64 bits");
    assert_error("a:X,f=0x10000000000000000", 8, "the value is larger than 64 bits");
}

static void test_hostile(void **state)
{
    (void)state;
    struct buf b = BUF_INIT;
    for (int i = 0; i < 101; i++)
        buf_addc(&b, '(');
    buf_adds(&b, "seconds");
    for (int i = 0; i < 101; i++)
        buf_addc(&b, ')');
    assert_error(b.s, 100, "parentheses nest deeper than 100 levels");
    /* 64 right-nested sums need 65 stack entries: refused, so the runtime can evaluate the rest */
    buf_reset(&b);
    for (int i = 0; i < REGC_METRIC_STACK; i++)
        buf_adds(&b, "1+(");
    buf_adds(&b, "seconds");
    for (int i = 0; i < REGC_METRIC_STACK; i++)
        buf_addc(&b, ')');
    assert_error(b.s, 1, "the formula needs more than 64 evaluation stack entries");
    buf_release(&b);
}

static void test_zero_divisor(void **state)
{
    (void)state;
    struct arena a = ARENA_INIT;
    struct metric_error err;
    const struct {
        const char *text;
        long offset; /* of the zero denominator; -1: none */
    } cases[] = {
        {"a:X / 0", 6},          {"a:X / (2 - 2 * 1)", 9}, {"a:X / 0.0", 6},
        {"(a:X + 1 / 0) * 2", 11}, {"a:X / b:Y", -1},        {"a:X / (b:Y - b:Y)", -1},
        {"a:X / seconds", -1},   {"0 / a:X", -1},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct metric_node *e = metric_parse(&a, cases[i].text, &err);
        assert_non_null(e);
        const struct metric_node *z = metric_constant_zero_divisor(e);
        if (cases[i].offset < 0)
            assert_null(z);
        else if (!z || (long)z->offset != cases[i].offset)
            fail_msg("'%s': zero divisor at %ld, want %ld", cases[i].text,
                     z ? (long)z->offset : -1L, cases[i].offset);
    }
    arena_release(&a);
}

static void test_units(void **state)
{
    (void)state;
    assert_true(metric_unit_known("GB/s"));
    assert_true(metric_unit_known("%"));
    assert_true(metric_unit_known("ratio"));
    assert_false(metric_unit_known("GBps"));
    assert_false(metric_unit_known("gb/s"));
    assert_false(metric_unit_known(""));
    assert_false(metric_unit_known(NULL));
}

/* The compiler's postfix form as the tables write it (regc/desc.h numbers its opcodes by name). */
static const enum regc_mop mop[] = {REGC_MOP_NUM, REGC_MOP_EVENT, REGC_MOP_SECONDS, REGC_MOP_ADD,
                                    REGC_MOP_SUB, REGC_MOP_MUL,   REGC_MOP_DIV};

/* formula x scale over counts[] and seconds, through the parser, the postfix form and the runtime. */
static double eval(const char *text, double scale, const double *counts, unsigned nterms,
                   double seconds)
{
    struct arena a = ARENA_INIT;
    struct metric_error err;
    struct metric_node *e = metric_parse(&a, text, &err);
    assert_non_null(e);
    /* number the events as check does: term i is the i-th distinct text */
    const char *seen[8];
    unsigned nseen = 0;
    struct metric_node *stack[64];
    size_t sp = 0;
    stack[sp++] = e;
    while (sp) { /* pre-order is not text order, but any numbering will do for distinct texts */
        struct metric_node *n = stack[--sp];
        if (n->op == METRIC_OP_EVENT) {
            unsigned k = 0;
            while (k < nseen && strcmp(seen[k], n->text) != 0)
                k++;
            if (k == nseen)
                seen[nseen++] = n->text;
            n->term = k;
        }
        if (n->lhs) {
            stack[sp++] = n->rhs;
            stack[sp++] = n->lhs;
        }
    }
    assert_int_equal(nseen, nterms);
    struct metric_rpn *rpn;
    size_t n = metric_to_rpn(&a, e, &rpn);
    struct regc_metric_op ops[64] = {0};
    struct regc_metric_event evs[9] = {0};
    for (size_t i = 0; i < n; i++)
        ops[i] = (struct regc_metric_op){mop[rpn[i].op], rpn[i].value, rpn[i].term};
    for (unsigned i = 0; i < nterms; i++)
        evs[i] = (struct regc_metric_event){"b", NULL, seen[i], seen[i], NULL};
    struct regc_metric m = {.name = "m", .scale = scale, .events = evs, .ops = ops};
    double v = regc_metric_eval(&m, counts, seconds);
    arena_release(&a);
    return v;
}

static void test_eval(void **state)
{
    (void)state;
    double c[] = {1000, 3000, 400};
    /* by hand: (1000 + 3000) * 64 / 0.5 s = 512000 B/s = 0.000512 GB/s */
    assert_true(fabs(eval("(i:RD + i:WR) * 64 / seconds", 1e-9, c, 2, 0.5) - 0.000512) < 1e-15);
    /* 100 * (1000 + 3000) / (2 * 400) = 500 % */
    assert_true(eval("(q:D + q:N) / (2 * q:C)", 100, c, 3, 1) == 500);
    assert_true(eval("q:D - q:N - q:C", 1, c, 3, 1) == -2400);
    assert_true(eval("q:D / q:N / 2", 1, c, 2, 1) == 1000.0 / 3000.0 / 2);
    /* a zero denominator: NaN, never a trap or an infinity */
    double z[] = {5, 0};
    assert_true(isnan(eval("q:D / q:N", 100, z, 2, 1)));
    assert_true(isnan(eval("q:D * 64 / seconds", 1, z, 1, 0)));
    assert_true(isnan(eval("0 / q:N", 1, z + 1, 1, 1)));
    /* an overflow: no value either (JSON has no infinity) */
    double big[] = {1e300};
    assert_true(isnan(eval("q:D * 1e300", 1, big, 1, 1)));
}

static void test_eval_malformed(void **state)
{
    (void)state;
    double c[] = {1};
    struct regc_metric_event evs[] = {{"b", NULL, "E", "b:E", NULL}, {0}};
    struct regc_metric_op under[] = {{REGC_MOP_NUM, 1, 0}, {REGC_MOP_ADD, 0, 0}, {0}};
    struct regc_metric_op range[] = {{REGC_MOP_EVENT, 0, 1}, {0}};
    struct regc_metric_op left[] = {{REGC_MOP_NUM, 1, 0}, {REGC_MOP_NUM, 2, 0}, {0}};
    struct regc_metric_op over[REGC_METRIC_STACK + 2] = {{0}};
    for (int i = 0; i <= REGC_METRIC_STACK; i++)
        over[i] = (struct regc_metric_op){REGC_MOP_NUM, 1, 0};
    struct regc_metric_op *bad[] = {under, range, left, over};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        struct regc_metric m = {.name = "m", .scale = 1, .events = evs, .ops = bad[i]};
        assert_true(isnan(regc_metric_eval(&m, c, 1)));
    }
    struct regc_metric ok = {.name = "m", .scale = 2, .events = evs, .ops = range};
    range[0].term = 0;
    assert_true(regc_metric_eval(&ok, c, 1) == 2);
    assert_int_equal(regc_metric_nevents(&ok), 1);
}

static void test_spec_metric(void **state)
{
    (void)state;
    struct regc_metric ms[] = {{.name = "a"}, {.name = "mem_bw"}, {0}};
    struct regc_spec s = {.name = "s", .metrics = ms};
    assert_ptr_equal(regc_spec_metric(&s, "mem_bw"), &ms[1]);
    assert_null(regc_spec_metric(&s, "mem"));
    struct regc_spec none = {.name = "n"};
    assert_null(regc_spec_metric(&none, "a"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence),   cmocka_unit_test(test_parts),
        cmocka_unit_test(test_settings),
        cmocka_unit_test(test_numbers),      cmocka_unit_test(test_errors),
        cmocka_unit_test(test_hostile),      cmocka_unit_test(test_zero_divisor),
        cmocka_unit_test(test_units),        cmocka_unit_test(test_eval),
        cmocka_unit_test(test_eval_malformed), cmocka_unit_test(test_spec_metric),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
