/* Unit tests for common/expr.c: parsing, errors, walking, evaluation, C and postfix forms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "expr.h"
#include "regc/desc.h"
#include "regc/regc.h"

/* Renders a tree back in a fully parenthesised infix form, to pin the shape. */
static void shape(const struct expr *e, struct buf *b)
{
    switch (e->op) {
    case EXPR_OP_CONST:
        buf_addf(b, "%llu", (unsigned long long)e->value);
        break;
    case EXPR_OP_FIELD:
        buf_adds(b, e->field);
        break;
    case EXPR_OP_NOT:
        buf_adds(b, "!");
        shape(e->lhs, b);
        break;
    default:
        buf_addc(b, '(');
        shape(e->lhs, b);
        buf_addf(b, " %s ", expr_op_text(e->op));
        shape(e->rhs, b);
        buf_addc(b, ')');
    }
}

static void assert_shape(const char *text, const char *want)
{
    struct arena a = ARENA_INIT;
    struct expr_error err = {0};
    struct expr *e = expr_parse(&a, text, &err);
    if (!e)
        fail_msg("'%s' did not parse: %zu: %s", text, err.offset, err.message);
    struct buf b = BUF_INIT;
    shape(e, &b);
    assert_string_equal(b.s, want);
    buf_release(&b);
    arena_release(&a);
}

static void assert_error(const char *text, size_t offset, const char *message)
{
    struct arena a = ARENA_INIT;
    struct expr_error err = {0};
    struct expr *e = expr_parse(&a, text, &err);
    assert_null(e);
    assert_string_equal(err.message, message);
    assert_int_equal(err.offset, offset);
    arena_release(&a);
}

static void test_precedence(void **state)
{
    assert_shape("a", "a");
    assert_shape("a || b && c", "(a || (b && c))");
    assert_shape("a && b || c", "((a && b) || c)");
    assert_shape("!a && b", "(!a && b)");
    assert_shape("!a == 1", "!(a == 1)");
    assert_shape("a -> b || c", "(a -> (b || c))");
    assert_shape("a == 1 && b != 0x10", "((a == 1) && (b != 16))");
    assert_shape("(a -> b) -> c", "((a -> b) -> c)");
    assert_shape("x<1||x<=2||x>3||x>=0b100", "((((x < 1) || (x <= 2)) || (x > 3)) || (x >= 4))");
    assert_shape("!!a", "!!a");
    assert_shape("  set_flag_sel != 0 -> flag_mode == 1 ",
                 "((set_flag_sel != 0) -> (flag_mode == 1))");
}

static void test_associativity(void **state)
{
    assert_shape("a -> b -> c", "(a -> (b -> c))");
    assert_shape("a && b && c", "((a && b) && c)");
    assert_shape("a || b || c", "((a || b) || c)");
}

static void test_numbers(void **state)
{
    assert_shape("x == 0x1_0000", "(x == 65536)");
    assert_shape("x == 18446744073709551615", "(x == 18446744073709551615)");
    assert_shape("x == 0xFFFF_FFFF_FFFF_FFFF", "(x == 18446744073709551615)");
    uint64_t v = 0;
    size_t bad = 99;
    assert_int_equal(expr_scan_number("0b101", 5, &v, &bad), EXPR_NUMBER_OK);
    assert_int_equal(v, 5);
    assert_int_equal(expr_scan_number("107CCH", 6, &v, &bad), EXPR_NUMBER_JUNK);
    assert_int_equal(bad, 3);
    assert_int_equal(expr_scan_number("0x", 2, &v, &bad), EXPR_NUMBER_JUNK);
    assert_int_equal(bad, 2);
    assert_int_equal(expr_scan_number("1__0", 4, &v, &bad), EXPR_NUMBER_JUNK);
    assert_int_equal(bad, 1);
    assert_int_equal(expr_scan_number("_1", 2, &v, &bad), EXPR_NUMBER_JUNK);
    assert_int_equal(bad, 0);
    assert_int_equal(expr_scan_number("1_", 2, &v, &bad), EXPR_NUMBER_JUNK);
    assert_int_equal(bad, 1);
    assert_int_equal(expr_scan_number("", 0, &v, &bad), EXPR_NUMBER_EMPTY);
    assert_int_equal(expr_scan_number("0x1_0000_0000_0000_0000", 23, &v, &bad),
                     EXPR_NUMBER_OVERFLOW);
    assert_int_equal(bad, 22);
    assert_int_equal(expr_scan_number("18446744073709551616", 20, &v, &bad), EXPR_NUMBER_OVERFLOW);
    assert_int_equal(bad, 19);
    assert_int_equal(expr_scan_number("0b2", 3, &v, &bad), EXPR_NUMBER_JUNK);
    assert_int_equal(bad, 2);
}

static void test_errors(void **state)
{
    assert_error("", 0, "empty expression");
    assert_error("   ", 3, "empty expression");
    assert_error("a ->", 4, "expected a field name, a number or '(' but found end of expression");
    assert_error("a = 1", 2, "unknown operator '=': write '=='");
    assert_error("a & b", 2, "unknown operator '&': write '&&'");
    assert_error("a | b", 2, "unknown operator '|': write '||'");
    assert_error("a - b", 2, "unknown operator '-': write '->'");
    assert_error("(a -> b", 7, "expected ')' but found end of expression");
    assert_error("(a b)", 3, "expected ')' but found 'b'");
    assert_error("a b", 2, "unexpected 'b' after the expression");
    assert_error("a == 1 == 2", 7, "comparisons do not chain: unexpected '==' (add parentheses)");
    assert_error("a == 0x1G", 8, "invalid digit 'G' in number");
    assert_error("a == 0x", 6, "number ends too early");
    assert_error("a == 18446744073709551616", 24, "number does not fit in 64 bits");
    assert_error("a # b", 2, "unexpected character '#'");
    assert_error("a )", 2, "unexpected ')' after the expression");
    assert_error("&& a", 0, "expected a field name, a number or '(' but found '&&'");
    assert_error("a == !b", 5, "expected a field name, a number or '(' but found '!'");
}

static void test_hostile_depth(void **state)
{
    enum { N = 100000 };
    char *s = malloc(2 * N + 2);
    memset(s, '(', N);
    s[N] = 'a';
    memset(s + N + 1, ')', N);
    s[2 * N + 1] = '\0';
    assert_error(s, 200, "expression nests too deeply");
    memset(s, '!', N);
    s[N] = 'a';
    s[N + 1] = '\0';
    assert_error(s, 200, "expression nests too deeply");
    /* A long flat chain is bounded by the node limit, not the stack. */
    struct buf b = BUF_INIT;
    for (int i = 0; i < 2000; i++)
        buf_adds(&b, i ? " && a" : "a");
    assert_error(b.s, 2497, "expression is too long (more than 1000 operands and operators)");
    buf_release(&b);
    free(s);
}

/*
 * Places are kept in 16 bits: a token may end at character EXPR_MAX_TEXT
 * (65,535) of the text, and its place is the one it has in the text; one
 * that ends later is an error at its first character, never a place cut to
 * 16 bits (65,535 -> 65,535, not 65,535 mod 65,536).
 */
static void test_text_limit(void **state)
{
    (void)state;
    enum { N = 65535 };
    char *s = malloc(N + 16);
    memset(s, ' ', N - 6);
    memcpy(s + N - 6, "a != b", 7); /* 'b' is character 65,534: ends at 65,535 */
    struct arena a = ARENA_INIT;
    struct expr_error err;
    struct expr *e = expr_parse(&a, s, &err);
    assert_non_null(e);
    assert_int_equal(e->offset, N - 4);   /* "!=" */
    assert_int_equal(e->len, 2);
    assert_int_equal(e->lhs->offset, N - 6);
    assert_int_equal(e->rhs->offset, N - 1);
    assert_string_equal(e->rhs->field, "b");
    memcpy(s + N - 6, "a != bc", 8); /* 'bc' ends at 65,536 */
    assert_error(s, N - 1, "expression is too long (a token ends past character 65535)");
    memset(s, ' ', N);
    memcpy(s + N, "x", 2); /* starts at 65,535 */
    assert_error(s, N, "expression is too long (a token ends past character 65535)");
    arena_release(&a);
    free(s);
}

/*
 * The runtime evaluates the postfix form on a stack of REGC_RULE_STACK
 * values: a right-nested chain needs one more per level, so regc refuses one
 * that needs more (at the top operator), and accepts the deepest that fits.
 */
static void test_stack_limit(void **state)
{
    (void)state;
    struct buf b = BUF_INIT;
    for (int i = 0; i < REGC_RULE_STACK - 1; i++)
        buf_adds(&b, "a && (");
    buf_adds(&b, "a");
    for (int i = 0; i < REGC_RULE_STACK - 1; i++)
        buf_adds(&b, ")");
    struct arena a = ARENA_INIT;
    struct expr_error err;
    assert_non_null(expr_parse(&a, b.s, &err)); /* needs exactly REGC_RULE_STACK */
    buf_reset(&b);
    for (int i = 0; i < REGC_RULE_STACK; i++)
        buf_adds(&b, "a && (");
    buf_adds(&b, "a");
    for (int i = 0; i < REGC_RULE_STACK; i++)
        buf_adds(&b, ")");
    assert_error(b.s, 2, "expression is too deeply nested to evaluate (it needs more than 64 stack entries)");
    /* deep parentheses alone need no stack */
    buf_reset(&b);
    for (int i = 0; i < 150; i++)
        buf_adds(&b, "(");
    buf_adds(&b, "a");
    for (int i = 0; i < 150; i++)
        buf_adds(&b, ")");
    assert_non_null(expr_parse(&a, b.s, &err));
    arena_release(&a);
    buf_release(&b);
}

/* Field i of a test register sits at bits 16i..16i+15. */
struct fields {
    const char *names[4];
    uint64_t values[4];
};

/*
 * 'text' as the descriptor tables give it to the runtime (expr_to_rpn, then
 * each field as its bits), evaluated by libregrt's regc_rule_eval: the one
 * evaluator of rules.
 */
static void assert_eval(const char *text, struct fields *f, bool want)
{
    struct arena a = ARENA_INIT;
    struct expr_error err;
    struct expr *e = expr_parse(&a, text, &err);
    assert_non_null(e);
    struct expr_op *ops;
    size_t n = expr_to_rpn(&a, e, &ops);
    struct regc_rule_op rops[64];
    assert_true(n < 64);
    uint64_t reg = 0;
    for (size_t i = 0; i < n; i++) {
        rops[i] = (struct regc_rule_op){(enum regc_op)(ops[i].op + 1), 0, 0, ops[i].value};
        for (unsigned k = 0; ops[i].op == EXPR_OP_FIELD && k < 4; k++)
            if (f->names[k] && strcmp(f->names[k], ops[i].field) == 0)
                rops[i].lsb = (uint8_t)(16 * k), rops[i].width = 16;
        assert_true(ops[i].op != EXPR_OP_FIELD || rops[i].width);
    }
    rops[n] = (struct regc_rule_op){REGC_OP_END, 0, 0, 0};
    for (unsigned k = 0; k < 4; k++)
        reg |= (f->values[k] & 0xffff) << (16 * k);
    struct regc_rule rule = {.name = "t", .expr = text, .ops = rops};
    bool holds = !want;
    assert_int_equal(regc_rule_eval(NULL, &rule, reg, &holds), 0);
    if (holds != want)
        fail_msg("'%s' should %s", text, want ? "hold" : "not hold");
    arena_release(&a);
}

static void test_eval(void **state)
{
    struct fields f = {{"invert", "thresh", "mode"}, {1, 0, 3}};
    assert_eval("invert -> thresh != 0", &f, false);
    assert_eval("thresh -> invert", &f, true);
    assert_eval("invert", &f, true);
    assert_eval("thresh", &f, false);
    assert_eval("!thresh", &f, true);
    assert_eval("mode == 3 && invert", &f, true);
    assert_eval("mode < 3 || mode >= 4", &f, false);
    assert_eval("mode <= 3 && mode > 2", &f, true);
    assert_eval("(invert -> thresh) -> mode == 0", &f, true);
    assert_eval("invert -> thresh -> mode == 0", &f, true);
    assert_eval("(mode == 3) == 1", &f, true);
    assert_eval("0", &f, false);
    assert_eval("0x10 > 0b1111", &f, true);
    f.values[1] = 5;
    assert_eval("invert -> thresh != 0", &f, true);
}

static int collect_field(void *ctx, const struct expr *node)
{
    buf_addf(ctx, "%s@%zu,", node->field, (size_t)node->offset);
    return strcmp(node->field, "stop") == 0 ? 7 : 0;
}

static void test_foreach_field(void **state)
{
    struct arena a = ARENA_INIT;
    struct expr_error err;
    struct expr *e = expr_parse(&a, "set_flag_sel != 0 -> (flag_mode == 1 && !x)", &err);
    struct buf b = BUF_INIT;
    assert_int_equal(expr_foreach_field(e, collect_field, &b), 0);
    assert_string_equal(b.s, "set_flag_sel@0,flag_mode@22,x@41,");
    buf_reset(&b);
    e = expr_parse(&a, "a && stop && c", &err);
    assert_int_equal(expr_foreach_field(e, collect_field, &b), 7);
    assert_string_equal(b.s, "a@0,stop@5,");
    buf_release(&b);
    arena_release(&a);
}

static void cfield(void *ctx, struct buf *out, const char *name)
{
    buf_addf(out, "%s_GET_%s(v)", (const char *)ctx, name);
}

static void test_render_c(void **state)
{
    struct arena a = ARENA_INIT;
    struct expr_error err;
    struct buf b = BUF_INIT;
    struct expr *e = expr_parse(&a, "set_flag_sel != 0 -> flag_mode == 1", &err);
    expr_render_c(e, &b, cfield, (void *)"M");
    assert_string_equal(b.s, "(!(M_GET_set_flag_sel(v) != 0u) || (M_GET_flag_mode(v) == 1u))");
    buf_reset(&b);
    e = expr_parse(&a, "!a && (b || c > 0x1_0000_0000)", &err);
    expr_render_c(e, &b, cfield, (void *)"R");
    assert_string_equal(b.s,
                        "((!R_GET_a(v)) && (R_GET_b(v) || (R_GET_c(v) > UINT64_C(0x100000000))))");
    buf_release(&b);
    arena_release(&a);
}

static void test_rpn(void **state)
{
    struct arena a = ARENA_INIT;
    struct expr_error err;
    struct expr *e = expr_parse(&a, "a -> b == 2 || !c", &err);
    struct expr_op *ops;
    size_t n = expr_to_rpn(&a, e, &ops);
    assert_int_equal(n, 8);
    enum expr_opcode want[] = {EXPR_OP_FIELD, EXPR_OP_FIELD, EXPR_OP_CONST, EXPR_OP_EQ,
                               EXPR_OP_FIELD, EXPR_OP_NOT,   EXPR_OP_OR,    EXPR_OP_IMPLIES};
    for (size_t i = 0; i < n; i++)
        assert_int_equal(ops[i].op, want[i]);
    assert_string_equal(ops[0].field, "a");
    assert_string_equal(ops[1].field, "b");
    assert_int_equal(ops[2].value, 2);
    assert_string_equal(ops[4].field, "c");
    arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_associativity),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_hostile_depth),
        cmocka_unit_test(test_stack_limit),
        cmocka_unit_test(test_text_limit),
        cmocka_unit_test(test_eval),
        cmocka_unit_test(test_foreach_field),
        cmocka_unit_test(test_render_c),
        cmocka_unit_test(test_rpn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
