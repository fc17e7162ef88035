/*
 * metric - parser and helpers of the <metric> formula language (metric.h).
 * A recursive-descent parser over the grammar written in metric.h.
 */
#include "metric.h"

#include "regc/desc.h"
#include "util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define METRIC_MAX_DEPTH 100

const char *const metric_units[] = {"B/s", "KB/s", "MB/s", "GB/s", "B",   "KB",    "MB", "GB",
                                    "/s",  "Hz",   "MHz",  "GHz",  "%",   "ratio", NULL};

bool metric_unit_known(const char *unit)
{
    for (size_t i = 0; unit && metric_units[i]; i++)
        if (strcmp(unit, metric_units[i]) == 0)
            return true;
    return false;
}

struct parser {
    struct arena *a;
    const char *s;
    size_t i;
    unsigned depth;
    struct metric_error *err;
    bool failed;
};

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static void skip_ws(struct parser *p)
{
    while (util_is_space(p->s[p->i]))
        p->i++;
}

__attribute__((format(printf, 3, 4))) static struct metric_node *
fail(struct parser *p, size_t at, const char *fmt, ...)
{
    if (!p->failed) {
        p->failed = true;
        p->err->offset = at;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err->message, sizeof(p->err->message), fmt, ap);
        va_end(ap);
    }
    return NULL;
}

/* What stands at the current position, for "but found ...". */
static const char *found(struct parser *p, char *buf, size_t size)
{
    char c = p->s[p->i];
    if (!c)
        return "end of formula";
    snprintf(buf, size, "'%c'", c);
    return buf;
}

static struct metric_node *node(struct parser *p, enum metric_op op, size_t at, size_t len)
{
    struct metric_node *n = arena_zalloc(p->a, sizeof(*n));
    n->op = op;
    n->offset = at;
    n->len = len;
    return n;
}

static size_t scan_ident(const char *s, size_t i)
{
    if (!is_ident_start(s[i]))
        return i;
    while (util_is_ident_char(s[i]))
        i++;
    return i;
}

/* DIGITS [ "." DIGITS ] [ e [+-] DIGITS ] */
static struct metric_node *parse_number(struct parser *p)
{
    size_t at = p->i, i = at;
    while (is_digit(p->s[i]))
        i++;
    if (p->s[i] == '.') {
        if (!is_digit(p->s[++i]))
            return fail(p, i, "expected a digit after '.'");
        while (is_digit(p->s[i]))
            i++;
    }
    if (p->s[i] == 'e' || p->s[i] == 'E') {
        i++;
        if (p->s[i] == '+' || p->s[i] == '-')
            i++;
        if (!is_digit(p->s[i]))
            return fail(p, i, "expected the exponent's digits");
        while (is_digit(p->s[i]))
            i++;
    }
    if (util_is_ident_char(p->s[i]) || p->s[i] == '.')
        return fail(p, i, "unexpected '%.1s' in a number", p->s + i);
    struct metric_node *n = node(p, METRIC_OP_NUM, at, i - at);
    n->text = arena_strndup(p->a, p->s + at, i - at);
    n->value = strtod(n->text, NULL);
    if (!isfinite(n->value))
        return fail(p, at, "number '%s' is out of range", n->text);
    p->i = i;
    return n;
}

static bool is_xdigit(char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* DIGITS | "0x" HEXDIGITS at 'i' into *v; the end, or 0 (failed) when none or past 64 bits. */
static size_t parse_value(struct parser *p, size_t i, uint64_t *v)
{
    unsigned base = 10;
    if (p->s[i] == '0' && (p->s[i + 1] == 'x' || p->s[i + 1] == 'X')) {
        base = 16;
        i += 2;
    }
    size_t start = i;
    *v = 0;
    for (; base == 16 ? is_xdigit(p->s[i]) : is_digit(p->s[i]); i++) {
        char c = p->s[i];
        unsigned d = is_digit(c) ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
        if (*v > (UINT64_MAX - d) / base) {
            fail(p, start, "the value is larger than 64 bits");
            return 0;
        }
        *v = *v * base + d;
    }
    if (i == start) {
        fail(p, i, base == 16 ? "expected hexadecimal digits after '0x'" : "expected a value");
        return 0;
    }
    if (util_is_ident_char(p->s[i])) {
        fail(p, i, "unexpected '%.1s' in a value", p->s + i);
        return 0;
    }
    return i;
}

/* { "," [ REGISTER "." ] FIELD "=" VALUE } after an event, from 'i'; the end, or 0 (failed). */
static size_t parse_settings(struct parser *p, struct metric_node *n, size_t i)
{
    size_t cap = 0;
    while (p->s[i] == ',') {
        struct metric_setting *st = arena_zalloc(p->a, sizeof(*st));
        size_t at = ++i, end = scan_ident(p->s, i);
        if (end == at) {
            fail(p, at, "expected a field name after ','");
            return 0;
        }
        st->offset = at;
        if (p->s[end] == '.') {
            st->reg = arena_strndup(p->a, p->s + at, end - at);
            size_t f = end + 1;
            end = scan_ident(p->s, f);
            if (end == f) {
                fail(p, f, "expected a field name after '%s.'", st->reg);
                return 0;
            }
            at = f;
        }
        st->field = arena_strndup(p->a, p->s + at, end - at);
        if (p->s[end] != '=') {
            fail(p, end, "expected '=' and a value after field '%s'", st->field);
            return 0;
        }
        i = parse_value(p, end + 1, &st->value);
        if (!i)
            return 0;
        arena_push(p->a, (void ***)&n->settings, &n->nsettings, &cap, st);
    }
    return i;
}

/*
 * BLOCK [ "[" INSTANCE "]" ] ":" EVENT [ "." SUB ] { "," SETTING }, the block's name already
 * scanned to 'bend'
 */
static struct metric_node *parse_event(struct parser *p, size_t at, size_t bend)
{
    struct metric_node *n = node(p, METRIC_OP_EVENT, at, 0);
    n->block = arena_strndup(p->a, p->s + at, bend - at);
    size_t i = bend;
    if (p->s[i] == '[') {
        size_t iend = scan_ident(p->s, i + 1);
        if (iend == i + 1)
            return fail(p, i + 1, "expected an instance name after '['");
        if (p->s[iend] != ']')
            return fail(p, iend, "expected ']' after the instance name");
        n->instance = arena_strndup(p->a, p->s + i + 1, iend - i - 1);
        i = iend + 1;
    }
    if (p->s[i] != ':')
        return fail(p, i, "expected ':' and an event after block '%s'", n->block);
    size_t ev = ++i, end = scan_ident(p->s, i);
    if (end == ev)
        return fail(p, ev, "expected an event name after ':'");
    if (p->s[end] == '.') {
        size_t sub = scan_ident(p->s, end + 1);
        if (sub == end + 1)
            return fail(p, end + 1, "expected a sub-event name after '.'");
        end = sub;
    }
    n->event = arena_strndup(p->a, p->s + ev, end - ev);
    end = parse_settings(p, n, end);
    if (!end)
        return NULL;
    n->len = end - at;
    n->text = arena_strndup(p->a, p->s + at, n->len);
    p->i = end;
    return n;
}

static struct metric_node *parse_sum(struct parser *p);

/* NUMBER | "seconds" | EVENT | "(" formula ")" */
static struct metric_node *parse_factor(struct parser *p)
{
    char buf[8];
    skip_ws(p);
    size_t at = p->i;
    char c = p->s[at];
    if (c == '(') {
        if (++p->depth > METRIC_MAX_DEPTH)
            return fail(p, at, "parentheses nest deeper than 100 levels");
        p->i++;
        struct metric_node *n = parse_sum(p);
        if (!n)
            return NULL;
        skip_ws(p);
        if (p->s[p->i] != ')')
            return fail(p, p->i, "expected ')' but found %s", found(p, buf, sizeof(buf)));
        p->i++;
        p->depth--;
        return n;
    }
    if (is_digit(c))
        return parse_number(p);
    size_t end = scan_ident(p->s, at);
    if (end == at)
        return fail(p, at, "expected a number, 'seconds', an event or '(' but found %s",
                    found(p, buf, sizeof(buf)));
    if (p->s[end] == '[' || p->s[end] == ':')
        return parse_event(p, at, end);
    if (end - at == 7 && strncmp(p->s + at, "seconds", 7) == 0) {
        p->i = end;
        return node(p, METRIC_OP_SECONDS, at, 7);
    }
    return fail(p, at, "'%s' is not 'seconds' nor an event: write BLOCK:EVENT",
                arena_strndup(p->a, p->s + at, end - at));
}

static struct metric_node *binary(struct parser *p, enum metric_op op, size_t at,
                                  struct metric_node *l, struct metric_node *r)
{
    if (!r)
        return NULL;
    struct metric_node *n = node(p, op, at, 1);
    n->lhs = l;
    n->rhs = r;
    return n;
}

/* factor { ("*" | "/") factor } */
static struct metric_node *parse_term(struct parser *p)
{
    struct metric_node *l = parse_factor(p);
    for (;;) {
        if (!l)
            return NULL;
        skip_ws(p);
        char c = p->s[p->i];
        if (c != '*' && c != '/')
            return l;
        size_t at = p->i++;
        l = binary(p, c == '*' ? METRIC_OP_MUL : METRIC_OP_DIV, at, l, parse_factor(p));
    }
}

/* term { ("+" | "-") term } */
static struct metric_node *parse_sum(struct parser *p)
{
    struct metric_node *l = parse_term(p);
    for (;;) {
        if (!l)
            return NULL;
        skip_ws(p);
        char c = p->s[p->i];
        if (c != '+' && c != '-')
            return l;
        size_t at = p->i++;
        l = binary(p, c == '+' ? METRIC_OP_ADD : METRIC_OP_SUB, at, l, parse_term(p));
    }
}

/* The stack entries the postfix form of 'e' needs: an operand pushes one, an operator pops two. */
static size_t stack_need(const struct metric_node *e)
{
    if (!e->lhs)
        return 1;
    size_t l = stack_need(e->lhs), r = stack_need(e->rhs) + 1;
    return l > r ? l : r;
}

struct metric_node *metric_parse(struct arena *a, const char *text, struct metric_error *err)
{
    struct parser p = {.a = a, .s = text, .err = err};
    char buf[8];
    skip_ws(&p);
    if (!text[p.i]) {
        fail(&p, p.i, "empty formula");
        return NULL;
    }
    struct metric_node *n = parse_sum(&p);
    if (n) {
        skip_ws(&p);
        if (text[p.i])
            n = fail(&p, p.i, "expected an operator but found %s", found(&p, buf, sizeof(buf)));
        else if (stack_need(n) > REGC_METRIC_STACK)
            n = fail(&p, n->offset, "the formula needs more than %d evaluation stack entries",
                     REGC_METRIC_STACK);
    }
    return n;
}

int metric_foreach_event(struct metric_node *e, metric_event_fn fn, void *ctx)
{
    if (!e)
        return 0;
    if (e->op == METRIC_OP_EVENT)
        return fn(ctx, e);
    int rc = metric_foreach_event(e->lhs, fn, ctx);
    return rc ? rc : metric_foreach_event(e->rhs, fn, ctx);
}

/* Folds 'e' when it names no event and no time: true and *v its value. */
static bool constant(const struct metric_node *e, double *v)
{
    double a, b;
    switch (e->op) {
    case METRIC_OP_NUM:
        *v = e->value;
        return true;
    case METRIC_OP_EVENT:
    case METRIC_OP_SECONDS:
        return false;
    default:
        break;
    }
    if (!constant(e->lhs, &a) || !constant(e->rhs, &b))
        return false;
    *v = e->op == METRIC_OP_ADD   ? a + b
         : e->op == METRIC_OP_SUB ? a - b
         : e->op == METRIC_OP_MUL ? a * b
         : b != 0                 ? a / b
                                  : NAN;
    return true;
}

const struct metric_node *metric_constant_zero_divisor(const struct metric_node *e)
{
    if (!e || !e->lhs)
        return NULL;
    double v;
    if (e->op == METRIC_OP_DIV && constant(e->rhs, &v) && v == 0)
        return e->rhs;
    const struct metric_node *z = metric_constant_zero_divisor(e->lhs);
    return z ? z : metric_constant_zero_divisor(e->rhs);
}

static const char *const op_text[] = {[METRIC_OP_ADD] = " + ",
                                      [METRIC_OP_SUB] = " - ",
                                      [METRIC_OP_MUL] = " * ",
                                      [METRIC_OP_DIV] = " / "};

void metric_render(const struct metric_node *e, struct buf *out, metric_render_fn fn, void *ctx)
{
    switch (e->op) {
    case METRIC_OP_NUM:
        buf_adds(out, e->text);
        return;
    case METRIC_OP_EVENT:
        fn(ctx, out, e);
        return;
    case METRIC_OP_SECONDS:
        buf_adds(out, "duration_time");
        return;
    default:
        buf_adds(out, "(");
        metric_render(e->lhs, out, fn, ctx);
        buf_adds(out, op_text[e->op]);
        metric_render(e->rhs, out, fn, ctx);
        buf_adds(out, ")");
    }
}

static size_t count_nodes(const struct metric_node *e)
{
    return e ? 1 + count_nodes(e->lhs) + count_nodes(e->rhs) : 0;
}

static void emit(const struct metric_node *e, struct metric_rpn *ops, size_t *n)
{
    if (e->lhs) {
        emit(e->lhs, ops, n);
        emit(e->rhs, ops, n);
    }
    ops[(*n)++] = (struct metric_rpn){.op = e->op, .value = e->value, .term = e->term};
}

size_t metric_to_rpn(struct arena *a, const struct metric_node *e, struct metric_rpn **ops)
{
    size_t n = 0;
    *ops = arena_zalloc(a, (count_nodes(e) + 1) * sizeof(**ops));
    emit(e, *ops, &n);
    return n;
}
