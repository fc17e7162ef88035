/*
 * libFuzzer target for the rule expressions: the compiler's parser
 * (common/expr.c) and libregrt's evaluator (regc_rule_eval), the one of
 * each that regc has.
 *
 * The input is an expression. A syntax error must point inside the text (or
 * at its end). An accepted expression is flattened to postfix as the
 * descriptor tables carry it, its fields placed in a test register (8 bits
 * each, in the order they first appear), and evaluated by libregrt on a few
 * register values; libregrt must accept every expression regc accepts and
 * agree with a reference evaluation of the tree written here (the language
 * of docs/regspec.md: values are uint64_t, comparisons and logic give 0 or
 * 1, a value used as a truth value means non-zero). The C rendering runs
 * too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "regc/regc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct names {
    const char *name[8];
    unsigned n;
};

static int slot_of(struct names *nm, const char *name)
{
    for (unsigned i = 0; i < nm->n; i++)
        if (strcmp(nm->name[i], name) == 0)
            return (int)i;
    if (nm->n == 8)
        return -1;
    nm->name[nm->n] = name;
    return (int)nm->n++;
}

/* The reference: the tree, evaluated as the language says. */
static uint64_t reference(const struct expr *e, struct names *nm, uint64_t reg)
{
    uint64_t a, b;
    switch (e->op) {
    case EXPR_OP_CONST:
        return e->value;
    case EXPR_OP_FIELD:
        return (reg >> (8 * slot_of(nm, e->field))) & 0xff;
    case EXPR_OP_NOT:
        return !reference(e->lhs, nm, reg);
    default:
        break;
    }
    a = reference(e->lhs, nm, reg);
    b = reference(e->rhs, nm, reg);
    switch (e->op) {
    case EXPR_OP_AND:
        return a && b;
    case EXPR_OP_OR:
        return a || b;
    case EXPR_OP_IMPLIES:
        return !a || b;
    case EXPR_OP_EQ:
        return a == b;
    case EXPR_OP_NE:
        return a != b;
    case EXPR_OP_LT:
        return a < b;
    case EXPR_OP_LE:
        return a <= b;
    case EXPR_OP_GT:
        return a > b;
    default:
        return a >= b;
    }
}

static void cfield(void *ctx, struct buf *out, const char *name)
{
    (void)ctx;
    buf_addf(out, "F_%s(v)", name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    struct arena a = ARENA_INIT;
    struct expr_error err;
    struct expr *e = expr_parse(&a, text, &err);
    if (!e) {
        if (err.offset > strlen(text) || !err.message[0])
            abort(); /* an error points inside the text, and says something */
        goto out;
    }
    struct buf c = BUF_INIT;
    expr_render_c(e, &c, cfield, NULL);
    buf_release(&c);
    struct expr_op *ops;
    size_t n = expr_to_rpn(&a, e, &ops);
    struct regc_rule_op *rops = calloc(n + 1, sizeof(*rops));
    struct names nm = {{NULL}, 0};
    bool fits = true;
    for (size_t i = 0; i < n; i++) {
        rops[i] = (struct regc_rule_op){(enum regc_op)(ops[i].op + 1), 0, 0, ops[i].value};
        if (ops[i].op == EXPR_OP_FIELD) {
            int k = slot_of(&nm, ops[i].field);
            fits = fits && k >= 0;
            rops[i].lsb = (uint8_t)(8 * (k < 0 ? 0 : k));
            rops[i].width = 8;
        }
    }
    rops[n] = (struct regc_rule_op){REGC_OP_END, 0, 0, 0};
    struct regc_rule rule = {.name = "fuzz", .expr = text, .ops = rops};
    uint64_t seed = 0x9e3779b97f4a7c15u ^ size;
    for (size_t i = 0; i < size; i++)
        seed = (seed ^ data[i]) * 0x100000001b3u;
    const uint64_t regs[] = {0, ~(uint64_t)0, 0x0101010101010101u, 0x0201020102010201u, seed,
                             seed * 0x9e3779b97f4a7c15u};
    for (size_t k = 0; fits && k < sizeof(regs) / sizeof(regs[0]); k++) {
        bool holds;
        if (regc_rule_eval(NULL, &rule, regs[k], &holds) != 0)
            abort(); /* regc accepted it, so the runtime must evaluate it */
        if (holds != (reference(e, &nm, regs[k]) != 0))
            abort(); /* and agree with the language */
    }
    free(rops);
out:
    arena_release(&a);
    free(text);
    return 0;
}
