/*
 * metric - the formula language of <metric> (docs/regspec.md, "Metrics").
 *
 *     formula := term { ( "+" | "-" ) term }
 *     term    := factor { ( "*" | "/" ) factor }
 *     factor  := NUMBER | "seconds" | EVENT | "(" formula ")"
 *     EVENT   := BLOCK [ "[" INSTANCE "]" ] ":" EVENTNAME [ "." SUB ] { "," SETTING }
 *     SETTING := [ REGISTER "." ] FIELD "=" VALUE
 *     VALUE   := DIGITS | "0x" HEXDIGITS
 *     NUMBER  := DIGITS [ "." DIGITS ] [ ( "e" | "E" ) [ "+" | "-" ] DIGITS ]
 *
 * BLOCK, INSTANCE, EVENTNAME and SUB are C identifiers; "seconds" is the
 * time the counts were taken over (an interval, or the whole run). Values
 * are doubles. A SETTING (as regctl's event strings write it, no spaces) sets
 * a field of the event's control register, or with REGISTER a field of
 * another register of the block (a box filter); VALUE is an unsigned 64-bit
 * integer, decimal or hexadecimal. A division whose denominator is 0 gives not-a-number, which
 * regctl prints as "n/a"; the checker refuses a denominator that is 0 for
 * every count (metric-division-by-zero). An EVENT without an INSTANCE in a
 * block that has instances stands for the sum over every instance.
 *
 * Pure: text in, tree or error out; no libxml2, no I/O. The loader parses,
 * the checker resolves the events, the context builder renders the perf
 * form and the postfix form of the descriptor tables.
 */
#ifndef REGC_COMPILER_METRIC_H
#define REGC_COMPILER_METRIC_H

#include "arena.h"
#include "buf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Node kinds and postfix opcodes (the tables name them REGC_MOP_*, regc/desc.h). */
enum metric_op {
    METRIC_OP_NUM,     /* push 'value' */
    METRIC_OP_EVENT,   /* push the count of term 'term' */
    METRIC_OP_SECONDS, /* push the seconds the counts were taken over */
    METRIC_OP_ADD,     /* a b -> a + b */
    METRIC_OP_SUB,
    METRIC_OP_MUL,
    METRIC_OP_DIV      /* a b -> a / b; NaN when b == 0 */
};

/* ",[REGISTER.]FIELD=VALUE" after an event. */
struct metric_setting {
    const char *reg;   /* NULL: the event's control register */
    const char *field;
    uint64_t value;
    size_t offset;     /* of the setting's first character, after the ',' */
};

/* A parsed formula; nodes and strings owned by the arena given to metric_parse(). */
struct metric_node {
    enum metric_op op;
    double value;                      /* NUM */
    const char *text;                  /* NUM, EVENT: the token as written */
    const char *block, *instance, *event; /* EVENT: its parts; instance NULL when none */
    size_t offset, len;                /* the token (binaries: the operator) in the text */
    struct metric_node *lhs, *rhs;     /* binaries */
    unsigned term;                     /* EVENT: index in the metric's terms (set by check) */
    struct metric_setting **settings;  /* EVENT: in the order written */
    size_t nsettings;
};

struct metric_error {
    size_t offset;     /* 0-based offset of the offending character */
    char message[128]; /* lower-case, no final period */
};

/*
 * Parses 'text' (NUL-terminated, borrowed). Returns the tree, owned by 'a',
 * or NULL with *err set (first error only). Nesting deeper than 100
 * parentheses is an error, so hostile input cannot overflow the stack; so is
 * a formula whose postfix form needs more than REGC_METRIC_STACK
 * (regc/desc.h) stack entries, so the runtime can evaluate every formula
 * regc accepts.
 */
struct metric_node *metric_parse(struct arena *a, const char *text, struct metric_error *err);

/* Calls fn(ctx, node) for every EVENT node in text order; stops at the first non-zero return. */
typedef int (*metric_event_fn)(void *ctx, struct metric_node *node);
int metric_foreach_event(struct metric_node *e, metric_event_fn fn, void *ctx);

/*
 * The denominator node of a division in 'e' that is 0 whatever the counts
 * (a constant expression equal to 0, such as "0" or "(2 - 2)"); NULL when
 * there is none.
 */
const struct metric_node *metric_constant_zero_divisor(const struct metric_node *e);

/* True when 'unit' is one of the units the language knows (metric_units). */
bool metric_unit_known(const char *unit);
/* The known units, ending with NULL: "GB/s", "MB/s", ..., "%", "ratio". */
extern const char *const metric_units[];

/*
 * Appends 'e' to 'out' in perf's MetricExpr syntax: every operator
 * application in parentheses, numbers as written, "seconds" as
 * duration_time, an EVENT as fn(ctx, out, node) appends it.
 */
typedef void (*metric_render_fn)(void *ctx, struct buf *out, const struct metric_node *node);
void metric_render(const struct metric_node *e, struct buf *out, metric_render_fn fn, void *ctx);

/* One postfix operation. */
struct metric_rpn {
    enum metric_op op;
    double value;  /* NUM */
    unsigned term; /* EVENT */
};

/* Flattens 'e' to postfix (operands before their operator); *ops owned by 'a'; returns the count. */
size_t metric_to_rpn(struct arena *a, const struct metric_node *e, struct metric_rpn **ops);

#endif
