/*
 * expr - the rule-expression language of docs/regspec.md.
 *
 *     expr     := implies
 *     implies  := or [ "->" implies ]          right-associative
 *     or       := and { "||" and }
 *     and      := not { "&&" not }
 *     not      := "!" not | compare
 *     compare  := operand [ ( "==" | "!=" | "<" | "<=" | ">" | ">=" ) operand ]
 *     operand  := FIELD | NUMBER | "(" expr ")"
 *
 * A FIELD is a C identifier; a NUMBER is written as everywhere in regspec
 * (decimal, 0x, 0b, '_' between digits, at most 64 bits). Values are
 * uint64_t; comparisons and logical operators give 0 or 1; a field (or any
 * value) used where a truth value is needed means "non-zero".
 *
 * The loader parses every <rule expr=...>; the checker walks the tree to
 * resolve field names; the context builder renders it as C (header rule
 * checks) and as postfix ops (descriptor tables). Only the runtime evaluates
 * (regc_rule_eval): one parser, one evaluator.
 * No libxml2, no I/O.
 */
#ifndef REGC_EXPR_H
#define REGC_EXPR_H

#include "arena.h"
#include "buf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Node kinds of the tree and opcodes of the postfix form (same numbering). */
enum expr_opcode {
    EXPR_OP_CONST,   /* push 'value' */
    EXPR_OP_FIELD,   /* push the value of field 'field' */
    EXPR_OP_NOT,     /* a -> !a */
    EXPR_OP_AND,     /* a b -> a && b */
    EXPR_OP_OR,      /* a b -> a || b */
    EXPR_OP_IMPLIES, /* a b -> !a || b */
    EXPR_OP_EQ,      /* a b -> a == b */
    EXPR_OP_NE,
    EXPR_OP_LT,
    EXPR_OP_LE,
    EXPR_OP_GT,
    EXPR_OP_GE
};

/*
 * A parsed expression: a tree whose nodes (and field-name strings) are owned
 * by the arena given to expr_parse(). Public so the checker may walk it.
 */
struct expr {
    /* 32 bytes on 64-bit machines (a large spec holds millions): 'op' in one
       byte, places in 16 bits (a token ends within EXPR_MAX_TEXT) */
    uint8_t op;             /* an enum expr_opcode */
    uint16_t offset;        /* 0-based offset in the text: the operand's first
                               character, or the operator's for NOT and binaries */
    uint16_t len;           /* length of that token in the text */
    union {                 /* read only the member 'op' names: one node per operand */
        uint64_t value;     /* EXPR_OP_CONST */
        const char *field;  /* EXPR_OP_FIELD: the name as written */
    };
    struct expr *lhs, *rhs; /* operands: NOT uses lhs; CONST and FIELD none */
};

/* No operand or operator of an expression may end past this many characters of its text. */
enum { EXPR_MAX_TEXT = 65535 };

/* The first syntax error of a text. */
struct expr_error {
    size_t offset;     /* 0-based offset of the offending character */
    char message[128]; /* lower-case, no final period, e.g. "expected ')' but found end of expression" */
};

/*
 * Parses 'text' (NUL-terminated, borrowed). Returns the tree, owned by 'a',
 * or NULL with *err filled (first error only). Nesting deeper than 200
 * levels of parentheses or '!' is an error, so hostile input cannot
 * overflow the stack; so is a token that ends past EXPR_MAX_TEXT
 * characters (places are kept in 16 bits); so is an expression whose postfix form needs more
 * than REGC_RULE_STACK (regc/desc.h) stack entries, so the runtime can
 * evaluate every rule regc accepts.
 */
struct expr *expr_parse(struct arena *a, const char *text, struct expr_error *err);

/* Result of expr_scan_number(). */
enum expr_number_status { EXPR_NUMBER_OK, EXPR_NUMBER_EMPTY, EXPR_NUMBER_JUNK, EXPR_NUMBER_OVERFLOW };

/*
 * Reads a regspec number (42, 0xC10, 0b11, 0x1_0000) from the first 'len'
 * bytes of 's' (all of them must belong to the number). On EXPR_NUMBER_OK
 * sets *out; otherwise *bad is the 0-based offset of the offending
 * character (the first junk character, or the digit that overflows 64 bits;
 * 'len' when the number ends too early, e.g. "0x" or "1_"). The loader uses
 * it for every numeric attribute.
 */
enum expr_number_status expr_scan_number(const char *s, size_t len, uint64_t *out, size_t *bad);

/*
 * Calls fn(ctx, node) for every EXPR_OP_FIELD node, in the order the names
 * appear in the text ('node->field', 'node->offset' give name and column).
 * Stops at the first non-zero return of 'fn' and returns it; 0 otherwise.
 */
typedef int (*expr_field_fn)(void *ctx, const struct expr *node);
int expr_foreach_field(const struct expr *e, expr_field_fn fn, void *ctx);

/*
 * Appends 'e' to 'out' as a C expression, every operator application in
 * parentheses: "a -> b == 1" becomes "(!(A) || (B == 1u))", "!a" becomes
 * "(!A)". fn(ctx, out, name) appends the C code of a field
 * (e.g. "XEON7500_M_MSR_PMU_CNT_CTL_GET_FLAG_MODE(v)"). Numbers up to
 * 0xffffffff print as decimal with a 'u' suffix, larger ones as UINT64_C(0x...).
 */
typedef void (*expr_cfield_fn)(void *ctx, struct buf *out, const char *name);
void expr_render_c(const struct expr *e, struct buf *out, expr_cfield_fn fn, void *ctx);

/* One postfix operation: 'value' for EXPR_OP_CONST, 'field' for EXPR_OP_FIELD. */
struct expr_op {
    enum expr_opcode op;
    uint64_t value;
    const char *field; /* borrowed from the tree (owned by its arena) */
};

/*
 * Flattens 'e' to postfix: operands before their operator, so a stack
 * machine evaluates it (IMPLIES pops b then a and pushes !a || b). Sets
 * *ops to an array owned by 'a' and returns its length.
 */
size_t expr_to_rpn(struct arena *a, const struct expr *e, struct expr_op **ops);

/* The operator's spelling ("->", "&&", "==", ...); "" for CONST and FIELD. */
const char *expr_op_text(enum expr_opcode op);

#endif
