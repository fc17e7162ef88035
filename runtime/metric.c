/*
 * metric - find and evaluate a spec's metrics (regc/metric.h): the one
 * evaluator of the postfix form regc writes into the tables.
 */
#include "regc/metric.h"

#include <math.h>
#include <string.h>

REGC_API const struct regc_metric *regc_spec_metric(const struct regc_spec *s, const char *name)
{
    for (const struct regc_metric *m = s && name ? s->metrics : NULL; m && m->name; m++)
        if (strcmp(m->name, name) == 0)
            return m;
    return NULL;
}

REGC_API size_t regc_metric_nevents(const struct regc_metric *m)
{
    size_t n = 0;
    while (m->events && m->events[n].block)
        n++;
    return n;
}

/* a OP b; NaN for a zero (or NaN) denominator. */
static double apply(enum regc_mop op, double a, double b)
{
    switch (op) {
    case REGC_MOP_ADD:
        return a + b;
    case REGC_MOP_SUB:
        return a - b;
    case REGC_MOP_MUL:
        return a * b;
    default:
        return b == 0 || isnan(b) ? NAN : a / b;
    }
}

REGC_API double regc_metric_eval(const struct regc_metric *m, const double *counts,
                                 double seconds)
{
    double st[REGC_METRIC_STACK];
    size_t sp = 0, nev = regc_metric_nevents(m);
    for (const struct regc_metric_op *op = m->ops; op && op->op != REGC_MOP_END; op++) {
        if (op->op == REGC_MOP_NUM || op->op == REGC_MOP_EVENT || op->op == REGC_MOP_SECONDS) {
            if (sp == REGC_METRIC_STACK || (op->op == REGC_MOP_EVENT && op->term >= nev))
                return NAN;
            st[sp++] = op->op == REGC_MOP_NUM     ? op->value
                       : op->op == REGC_MOP_EVENT ? counts[op->term]
                                                  : seconds;
            continue;
        }
        if (sp < 2 || op->op > REGC_MOP_DIV)
            return NAN;
        sp--;
        st[sp - 1] = apply(op->op, st[sp - 1], st[sp]);
    }
    double v = sp == 1 ? st[0] * m->scale : NAN;
    return isfinite(v) ? v : NAN; /* an overflow is no value either */
}
