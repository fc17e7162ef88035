/*
 * check_rules - register rules: every name in an expression is a
 * non-reserved field of the register, and every comparison of a field with a
 * constant uses a value the field can hold. Walks the tree the loader parsed
 * (expr.h); a rule whose expression did not parse was reported as rule-syntax.
 */
#include "check_int.h"
#include "expr.h"

#include <inttypes.h>

struct rule_ctx {
    struct check_ctx *c;
    const struct model_reg *r;
    const struct model_rule *rule;
};

/* The position of the character at 'off' of the expression's text. */
static struct srcpos expr_pos(const struct model_rule *rule, size_t off)
{
    return diag_pos_in_value(rule->expr_pos, rule->pos, rule->expr_text, off);
}

static const struct model_field *rule_field(const struct model_reg *r, const char *name)
{
    const struct model_field *f = model_find_field(r, name);
    return f && !check_known_reserved(f) ? f : NULL;
}

static int check_rule_field(void *ctx, const struct expr *node)
{
    struct rule_ctx *rc = ctx;
    if (rule_field(rc->r, node->field))
        return 0;
    struct srcpos pos = expr_pos(rc->rule, node->offset);
    char hint[128];
    diag_hint(hint, sizeof(hint), check_suggest_field(rc->r, node->field, false));
    bool reserved = model_find_field(rc->r, node->field) != NULL;
    diag_report(rc->c->dg, DIAG_RULE_FIELD, pos,
                reserved ? "rule '%s' names reserved field '%s' of register '%s'%s"
                         : "rule '%s' names '%s', which is not a field of register '%s'%s",
                rc->rule->name, node->field, rc->r->name, hint);
    return 0;
}

static bool is_compare(enum expr_opcode op)
{
    return op == EXPR_OP_EQ || op == EXPR_OP_NE || op == EXPR_OP_LT || op == EXPR_OP_LE ||
           op == EXPR_OP_GT || op == EXPR_OP_GE;
}

/*
 * "field OP n" cannot hold (or always holds) when n is above the field's
 * maximum, or when the field is compared strictly greater than its maximum.
 */
static bool out_of_range(enum expr_opcode op, uint64_t n, uint64_t max, bool field_left)
{
    if (n > max)
        return true;
    enum expr_opcode greater = field_left ? EXPR_OP_GT : EXPR_OP_LT;
    return n == max && op == greater;
}

static void check_rule_range(struct rule_ctx *rc, const struct expr *e)
{
    if (!e)
        return;
    check_rule_range(rc, e->lhs);
    check_rule_range(rc, e->rhs);
    if (!is_compare(e->op) || !e->lhs || !e->rhs)
        return;
    bool left = e->lhs->op == EXPR_OP_FIELD && e->rhs->op == EXPR_OP_CONST;
    bool right = e->lhs->op == EXPR_OP_CONST && e->rhs->op == EXPR_OP_FIELD;
    if (!left && !right)
        return;
    const struct expr *fn = left ? e->lhs : e->rhs, *cn = left ? e->rhs : e->lhs;
    const struct model_field *f = rule_field(rc->r, fn->field);
    if (!f || !out_of_range(e->op, cn->value, model_field_max(f), left))
        return;
    diag_report(rc->c->dg, DIAG_RULE_RANGE, expr_pos(rc->rule, fn->offset),
                "rule '%s' compares field '%s' (%u bits, at most " CHECK_X
                ") with %.*s, which it cannot hold",
                rc->rule->name, f->name, model_field_width(f), model_field_max(f), (int)cn->len,
                rc->rule->expr_text + cn->offset);
}

static void check_rule(struct check_ctx *c, const struct model_reg *r,
                       const struct model_rule *rule)
{
    if (!rule->expr)
        return; /* no expression, or reported as rule-syntax by the loader */
    struct rule_ctx rc = {c, r, rule};
    expr_foreach_field(rule->expr, check_rule_field, &rc);
    check_rule_range(&rc, rule->expr);
}

/* The header numbers a register's rules as bits of an int enum (docs/c-header.md). */
enum { MAX_RULES_PER_REG = 31 };

static void check_rule_count(struct check_ctx *c, const struct model_reg *r)
{
    if (r->nrules > MAX_RULES_PER_REG) {
        diag_report(c->dg, DIAG_RULE_COUNT, r->rules[MAX_RULES_PER_REG]->pos,
                    "register '%s' has %zu rules; at most %d fit the header's rule bits", r->name,
                    r->nrules, MAX_RULES_PER_REG);
        diag_note(c->dg, r->pos, "register '%s' defined here", r->name);
    }
}

void check_rules(struct check_ctx *c)
{
    for (size_t b = 0; b < c->s->nblocks; b++) {
        const struct model_block *blk = c->s->blocks[b];
        for (size_t i = 0; i < blk->nregs; i++) {
            check_rule_count(c, blk->regs[i]);
            for (size_t j = 0; j < blk->regs[i]->nrules; j++)
                check_rule(c, blk->regs[i], blk->regs[i]->rules[j]);
        }
    }
}
