#include "expr.h"

#include "digit.h"
#include "regc/desc.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { EXPR_MAX_DEPTH = 200, EXPR_MAX_NODES = 1000, EXPR_STACK = REGC_RULE_STACK };

/* ---------------------------------------------------------------- numbers */

enum expr_number_status expr_scan_number(const char *s, size_t len, uint64_t *out, size_t *bad)
{
    unsigned base = 10;
    size_t i = 0;
    if (len == 0) {
        *bad = 0;
        return EXPR_NUMBER_EMPTY;
    }
    if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, i = 2;
    else if (len >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, i = 2;
    uint64_t v = 0;
    bool digit_before = false;
    for (; i < len; i++) {
        if (s[i] == '_' && digit_before && i + 1 < len && s[i + 1] != '_') {
            digit_before = false;
            continue;
        }
        int d = regc_digit_value(s[i]);
        if (d >= (int)base) {
            *bad = i;
            return EXPR_NUMBER_JUNK;
        }
        if (v > (UINT64_MAX - (uint64_t)d) / base) {
            *bad = i;
            return EXPR_NUMBER_OVERFLOW;
        }
        v = v * base + (uint64_t)d;
        digit_before = true;
    }
    if (!digit_before) {
        *bad = len;
        return EXPR_NUMBER_JUNK;
    }
    *out = v;
    return EXPR_NUMBER_OK;
}

/* ---------------------------------------------------------------- lexer */

enum tok_kind { TOK_END, TOK_IDENT, TOK_NUMBER, TOK_LPAREN, TOK_RPAREN, TOK_NOT, TOK_OP, TOK_BAD };

struct tok {
    enum tok_kind kind;
    enum expr_opcode op; /* TOK_OP */
    size_t start, len;
};

struct parser {
    struct arena *a;
    const char *text;
    size_t pos;        /* where the next token starts (after 'cur') */
    struct tok cur;
    struct expr_error *err;
    bool failed;
    unsigned depth;
    unsigned nodes;
};

static const struct {
    const char *text;
    enum expr_opcode op;
} operators[] = {
    {"->", EXPR_OP_IMPLIES}, {"||", EXPR_OP_OR}, {"&&", EXPR_OP_AND}, {"==", EXPR_OP_EQ},
    {"!=", EXPR_OP_NE},      {"<=", EXPR_OP_LE}, {">=", EXPR_OP_GE},  {"<", EXPR_OP_LT},
    {">", EXPR_OP_GT},
};

static bool is_ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static bool is_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static void lex(struct parser *p)
{
    const char *t = p->text;
    size_t i = p->pos;
    while (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')
        i++;
    struct tok k = {TOK_BAD, EXPR_OP_CONST, i, 1};
    if (t[i] == '\0') {
        k.kind = TOK_END, k.len = 0;
    } else if (is_ident_start(t[i])) {
        k.kind = TOK_IDENT;
        while (is_ident_char(t[i + k.len]))
            k.len++;
    } else if (isdigit((unsigned char)t[i])) {
        k.kind = TOK_NUMBER;
        while (is_ident_char(t[i + k.len]))
            k.len++;
    } else if (t[i] == '(' || t[i] == ')') {
        k.kind = t[i] == '(' ? TOK_LPAREN : TOK_RPAREN;
    } else {
        for (size_t j = 0; j < sizeof(operators) / sizeof(operators[0]); j++) {
            size_t n = strlen(operators[j].text);
            if (strncmp(t + i, operators[j].text, n) == 0) {
                k.kind = TOK_OP, k.op = operators[j].op, k.len = n;
                break;
            }
        }
        if (k.kind == TOK_BAD && t[i] == '!')
            k.kind = TOK_NOT;
    }
    p->cur = k;
    p->pos = i + k.len;
}

/* ---------------------------------------------------------------- parser */

__attribute__((format(printf, 3, 4))) static void fail_at(struct parser *p, size_t offset,
                                                          const char *fmt, ...)
{
    if (p->failed)
        return;
    p->failed = true;
    p->err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err->message, sizeof(p->err->message), fmt, ap);
    va_end(ap);
}

/* Describes the current token for "but found ..." messages. */
static const char *describe(struct parser *p, char *buf, size_t size)
{
    if (p->cur.kind == TOK_END)
        return "end of expression";
    int n = (int)(p->cur.len > 20 ? 20 : p->cur.len);
    snprintf(buf, size, "'%.*s%s'", n, p->text + p->cur.start, p->cur.len > 20 ? "..." : "");
    return buf;
}

/* A character no token starts with: name the usual mistake. */
static void fail_bad_char(struct parser *p)
{
    char c = p->text[p->cur.start];
    char s[2] = {c, '\0'};
    if (c == '=')
        fail_at(p, p->cur.start, "unknown operator '%s': write '=='", s);
    else if (c == '&')
        fail_at(p, p->cur.start, "unknown operator '%s': write '&&'", s);
    else if (c == '|')
        fail_at(p, p->cur.start, "unknown operator '%s': write '||'", s);
    else if (c == '-')
        fail_at(p, p->cur.start, "unknown operator '%s': write '->'", s);
    else if (isprint((unsigned char)c))
        fail_at(p, p->cur.start, "unexpected character '%s'", s);
    else
        fail_at(p, p->cur.start, "unexpected byte in expression");
}

static void fail_expected(struct parser *p, const char *what)
{
    if (p->cur.kind == TOK_BAD) {
        fail_bad_char(p);
        return;
    }
    char buf[40];
    fail_at(p, p->cur.start, "expected %s but found %s", what, describe(p, buf, sizeof(buf)));
}

static struct expr *new_node(struct parser *p, enum expr_opcode op, size_t offset, size_t len)
{
    if (++p->nodes > EXPR_MAX_NODES)
        fail_at(p, offset, "expression is too long (more than %d operands and operators)",
                EXPR_MAX_NODES);
    else if (offset + len > EXPR_MAX_TEXT)
        fail_at(p, offset, "expression is too long (a token ends past character %d)",
                EXPR_MAX_TEXT);
    struct expr *e = arena_zalloc(p->a, sizeof(*e));
    e->op = (uint8_t)op;
    e->offset = (uint16_t)offset; /* cut only when failed: the tree is not returned */
    e->len = (uint16_t)len;
    return e;
}

static struct expr *parse_implies(struct parser *p);

static struct expr *parse_number(struct parser *p)
{
    uint64_t v = 0;
    size_t bad = 0;
    const char *s = p->text + p->cur.start;
    switch (expr_scan_number(s, p->cur.len, &v, &bad)) {
    case EXPR_NUMBER_OK:
        break;
    case EXPR_NUMBER_OVERFLOW:
        fail_at(p, p->cur.start + bad, "number does not fit in 64 bits");
        return NULL;
    default:
        if (bad < p->cur.len) {
            char c[2] = {s[bad], '\0'};
            fail_at(p, p->cur.start + bad, "invalid digit '%s' in number", c);
        } else {
            fail_at(p, p->cur.start + bad - 1, "number ends too early");
        }
        return NULL;
    }
    struct expr *e = new_node(p, EXPR_OP_CONST, p->cur.start, p->cur.len);
    e->value = v;
    lex(p);
    return e;
}

/* operand := FIELD | NUMBER | "(" expr ")" */
static struct expr *parse_operand(struct parser *p)
{
    if (p->cur.kind == TOK_IDENT) {
        struct expr *e = new_node(p, EXPR_OP_FIELD, p->cur.start, p->cur.len);
        e->field = arena_strndup(p->a, p->text + p->cur.start, p->cur.len);
        lex(p);
        return e;
    }
    if (p->cur.kind == TOK_NUMBER)
        return parse_number(p);
    if (p->cur.kind != TOK_LPAREN) {
        fail_expected(p, "a field name, a number or '('");
        return NULL;
    }
    if (++p->depth > EXPR_MAX_DEPTH) {
        fail_at(p, p->cur.start, "expression nests too deeply");
        return NULL;
    }
    lex(p);
    struct expr *e = parse_implies(p);
    if (!e)
        return NULL;
    if (p->cur.kind != TOK_RPAREN) {
        fail_expected(p, "')'");
        return NULL;
    }
    p->depth--;
    lex(p);
    return e;
}

static bool is_compare(const struct tok *t)
{
    return t->kind == TOK_OP && t->op >= EXPR_OP_EQ;
}

static struct expr *binary(struct parser *p, const struct tok *t, struct expr *l, struct expr *r)
{
    struct expr *e = new_node(p, t->op, t->start, t->len);
    e->lhs = l;
    e->rhs = r;
    return e;
}

/* compare := operand [ ( "==" | "!=" | "<" | "<=" | ">" | ">=" ) operand ] */
static struct expr *parse_compare(struct parser *p)
{
    struct expr *l = parse_operand(p);
    if (!l || !is_compare(&p->cur))
        return l;
    struct tok t = p->cur;
    lex(p);
    struct expr *r = parse_operand(p);
    if (!r)
        return NULL;
    if (is_compare(&p->cur)) {
        char buf[40];
        fail_at(p, p->cur.start, "comparisons do not chain: unexpected %s (add parentheses)",
                describe(p, buf, sizeof(buf)));
        return NULL;
    }
    return binary(p, &t, l, r);
}

/* not := "!" not | compare */
static struct expr *parse_not(struct parser *p)
{
    if (p->cur.kind != TOK_NOT)
        return parse_compare(p);
    if (++p->depth > EXPR_MAX_DEPTH) {
        fail_at(p, p->cur.start, "expression nests too deeply");
        return NULL;
    }
    struct expr *e = new_node(p, EXPR_OP_NOT, p->cur.start, 1);
    lex(p);
    e->lhs = parse_not(p);
    p->depth--;
    return e->lhs ? e : NULL;
}

/* and := not { "&&" not } */
static struct expr *parse_and(struct parser *p)
{
    struct expr *l = parse_not(p);
    while (l && p->cur.kind == TOK_OP && p->cur.op == EXPR_OP_AND) {
        struct tok t = p->cur;
        lex(p);
        struct expr *r = parse_not(p);
        l = r ? binary(p, &t, l, r) : NULL;
    }
    return l;
}

/* or := and { "||" and } */
static struct expr *parse_or(struct parser *p)
{
    struct expr *l = parse_and(p);
    while (l && p->cur.kind == TOK_OP && p->cur.op == EXPR_OP_OR) {
        struct tok t = p->cur;
        lex(p);
        struct expr *r = parse_and(p);
        l = r ? binary(p, &t, l, r) : NULL;
    }
    return l;
}

/* implies := or [ "->" implies ] */
static struct expr *parse_implies(struct parser *p)
{
    struct expr *l = parse_or(p);
    if (!l || !(p->cur.kind == TOK_OP && p->cur.op == EXPR_OP_IMPLIES))
        return l;
    struct tok t = p->cur;
    if (++p->depth > EXPR_MAX_DEPTH) {
        fail_at(p, p->cur.start, "expression nests too deeply");
        return NULL;
    }
    lex(p);
    struct expr *r = parse_implies(p);
    p->depth--;
    return r ? binary(p, &t, l, r) : NULL;
}

/* Stack entries the postfix form of 'e' needs: the operands waiting while the right side runs. */
static size_t stack_need(const struct expr *e)
{
    if (!e->lhs)
        return 1;
    size_t l = stack_need(e->lhs);
    if (!e->rhs)
        return l;
    size_t r = 1 + stack_need(e->rhs);
    return l > r ? l : r;
}

struct expr *expr_parse(struct arena *a, const char *text, struct expr_error *err)
{
    struct parser p = {.a = a, .text = text, .err = err};
    lex(&p);
    if (p.cur.kind == TOK_END) {
        err->offset = p.cur.start;
        snprintf(err->message, sizeof(err->message), "empty expression");
        return NULL;
    }
    struct expr *e = parse_implies(&p);
    if (e && p.cur.kind != TOK_END) {
        if (p.cur.kind == TOK_BAD) {
            fail_bad_char(&p);
        } else {
            char buf[40];
            fail_at(&p, p.cur.start, "unexpected %s after the expression",
                    describe(&p, buf, sizeof(buf)));
        }
        e = NULL;
    }
    if (e && !p.failed && stack_need(e) > EXPR_STACK)
        fail_at(&p, e->offset,
                "expression is too deeply nested to evaluate (it needs more than %d stack entries)",
                EXPR_STACK);
    return p.failed ? NULL : e;
}

/* ---------------------------------------------------------------- walking */

int expr_foreach_field(const struct expr *e, expr_field_fn fn, void *ctx)
{
    if (!e)
        return 0;
    if (e->op == EXPR_OP_FIELD)
        return fn(ctx, e);
    int rc = expr_foreach_field(e->lhs, fn, ctx);
    return rc ? rc : expr_foreach_field(e->rhs, fn, ctx);
}

const char *expr_op_text(enum expr_opcode op)
{
    static const char *const text[] = {
        [EXPR_OP_CONST] = "", [EXPR_OP_FIELD] = "", [EXPR_OP_NOT] = "!",
        [EXPR_OP_AND] = "&&", [EXPR_OP_OR] = "||",  [EXPR_OP_IMPLIES] = "->",
        [EXPR_OP_EQ] = "==",  [EXPR_OP_NE] = "!=",  [EXPR_OP_LT] = "<",
        [EXPR_OP_LE] = "<=",  [EXPR_OP_GT] = ">",   [EXPR_OP_GE] = ">=",
    };
    return (unsigned)op < sizeof(text) / sizeof(text[0]) ? text[op] : "";
}

/* ---------------------------------------------------------------- C rendering */

/* Appends 'v' in decimal: printf's "%" PRIu64 without printf (every rule's numbers). */
static void add_decimal(struct buf *out, uint64_t v)
{
    char tmp[20];
    size_t n = sizeof(tmp);
    do {
        tmp[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    buf_addn(out, tmp + n, sizeof(tmp) - n);
}

void expr_render_c(const struct expr *e, struct buf *out, expr_cfield_fn fn, void *ctx)
{
    switch (e->op) {
    case EXPR_OP_CONST:
        if (e->value <= UINT32_MAX) {
            add_decimal(out, e->value);
            buf_addc(out, 'u');
        } else {
            buf_addf(out, "UINT64_C(0x%" PRIx64 ")", e->value);
        }
        return;
    case EXPR_OP_FIELD:
        fn(ctx, out, e->field);
        return;
    case EXPR_OP_NOT:
        buf_adds(out, "(!");
        expr_render_c(e->lhs, out, fn, ctx);
        buf_addc(out, ')');
        return;
    case EXPR_OP_IMPLIES:
        buf_adds(out, "(!");
        expr_render_c(e->lhs, out, fn, ctx);
        buf_adds(out, " || ");
        expr_render_c(e->rhs, out, fn, ctx);
        buf_addc(out, ')');
        return;
    default:
        buf_addc(out, '(');
        expr_render_c(e->lhs, out, fn, ctx);
        buf_addc(out, ' ');
        buf_adds(out, expr_op_text(e->op));
        buf_addc(out, ' ');
        expr_render_c(e->rhs, out, fn, ctx);
        buf_addc(out, ')');
        return;
    }
}

/* ---------------------------------------------------------------- postfix */

static size_t count_nodes(const struct expr *e)
{
    return e ? 1 + count_nodes(e->lhs) + count_nodes(e->rhs) : 0;
}

static void emit_rpn(const struct expr *e, struct expr_op *ops, size_t *n)
{
    if (!e)
        return;
    emit_rpn(e->lhs, ops, n);
    emit_rpn(e->rhs, ops, n);
    ops[*n] = (struct expr_op){e->op, e->op == EXPR_OP_CONST ? e->value : 0,
                               e->op == EXPR_OP_FIELD ? e->field : NULL};
    (*n)++;
}

size_t expr_to_rpn(struct arena *a, const struct expr *e, struct expr_op **ops)
{
    size_t n = 0;
    *ops = arena_alloc(a, count_nodes(e) * sizeof(**ops));
    emit_rpn(e, *ops, &n);
    return n;
}
