/*
 * check_events - event tables (codes, unit masks and <set> values fit their
 * fields, counters exist, tables cite a source) and register rules (names
 * are fields of the register, constants are values the field can hold).
 */
#include "check_int.h"
#include "util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void check_value_fits(struct check_ctx *c, const struct model_field *f, uint64_t v,
                             const char *what, const struct model_event *e)
{
    if (f && v > model_field_max(f))
        diag_report(c->dg, DIAG_VALUE_TOO_WIDE, e->pos,
                    "%s " CHECK_X " of event '%s' does not fit field '%s' (%u bits)", what, v,
                    e->full_name, f->name, model_field_width(f));
}

static void check_set_value(struct check_ctx *c, const struct model_event *e,
                            const struct model_set *set)
{
    if (set->field && set->value > model_field_max(set->field))
        diag_report(c->dg, DIAG_VALUE_TOO_WIDE, set->pos,
                    "value " CHECK_X " for field '%s' of event '%s' does not fit its %u bits",
                    set->value, set->field->name, e->full_name, model_field_width(set->field));
}

static void check_event_counter(struct check_ctx *c, const struct model_events *tab,
                                const struct model_event *e)
{
    const struct model_reg *r = tab->reg;
    if (!r || !e->has_counters)
        return;
    if (e->parent && e->parent->has_counters && e->counter_mask == e->parent->counter_mask)
        return; /* inherited: reported at the parent */
    unsigned hi = r->first + (r->count ? r->count : 1) - 1;
    for (unsigned i = 0; i < 64; i++) {
        if (!(e->counter_mask >> i & 1) || (i >= r->first && i <= hi))
            continue;
        if (hi == r->first)
            diag_report(c->dg, DIAG_EVENT_COUNTER, e->pos,
                        "event '%s' names counter %u, but register '%s' has only counter %u",
                        e->full_name, i, r->name, hi);
        else
            diag_report(c->dg, DIAG_EVENT_COUNTER, e->pos,
                        "event '%s' names counter %u, but register '%s' has counters %u-%u",
                        e->full_name, i, r->name, r->first, hi);
        return;
    }
}

static void check_event(struct check_ctx *c, const struct model_events *tab,
                        const struct model_event *e)
{
    if (!e->parent)
        check_value_fits(c, tab->code_field, e->code, "code", e);
    if (e->has_umask && !tab->umask_field_name)
        diag_report(c->dg, DIAG_VALUE_TOO_WIDE, e->pos,
                    "umask " CHECK_X " of event '%s' has no field: its table gives no umask-field",
                    e->umask, e->full_name);
    else if (e->has_umask)
        check_value_fits(c, tab->umask_field, e->umask, "umask", e);
    for (size_t i = 0; i < e->nsets; i++)
        check_set_value(c, e, e->sets[i]);
    check_event_counter(c, tab, e);
    for (size_t i = 0; i < e->nsubs; i++)
        check_event(c, tab, e->subs[i]);
}

static void check_missing_source(struct check_ctx *c, const struct model_events *tab)
{
    if (!tab->cite.src)
        diag_report(c->dg, DIAG_MISSING_SOURCE, tab->pos,
                    "event table of register '%s' cites no source",
                    tab->reg_name ? tab->reg_name : "");
}

void check_events(struct check_ctx *c)
{
    for (size_t b = 0; b < c->s->nblocks; b++) {
        const struct model_block *blk = c->s->blocks[b];
        for (size_t t = 0; t < blk->nevent_tables; t++) {
            const struct model_events *tab = blk->event_tables[t];
            check_missing_source(c, tab);
            for (size_t i = 0; i < tab->nevents; i++)
                check_event(c, tab, tab->events[i]);
        }
    }
}

/* ----------------------------------------------------------------- rules */

/*
 * The rule checks need only the names and comparisons of an expression, so
 * they read expr_text with a small tokenizer of their own; syntax errors are
 * the loader's (rule-syntax), and a text that does not tokenize is skipped.
 */
enum tok_kind { TOK_NAME, TOK_NUMBER, TOK_CMP, TOK_OTHER };

struct tok {
    enum tok_kind kind;
    size_t off, len; /* in expr_text */
    uint64_t value;  /* TOK_NUMBER */
    char op[3];      /* TOK_CMP: "==", "!=", "<", "<=", ">", ">=" */
};

static bool number_value(const char *s, size_t len, uint64_t *out)
{
    char digits[80];
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] != '_' && n < sizeof(digits) - 1)
            digits[n++] = s[i];
    digits[n] = '\0';
    int base = 10;
    const char *p = digits;
    if (n > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
        base = 16, p += 2;
    else if (n > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B'))
        base = 2, p += 2;
    char *end;
    *out = strtoull(p, &end, base);
    return *end == '\0';
}

static size_t scan_token(const char *s, size_t i, struct tok *t)
{
    size_t j = i;
    t->off = i;
    t->kind = TOK_OTHER;
    if (isalpha((unsigned char)s[i]) || s[i] == '_') {
        while (isalnum((unsigned char)s[j]) || s[j] == '_')
            j++;
        t->kind = TOK_NAME;
    } else if (isdigit((unsigned char)s[i])) {
        while (isalnum((unsigned char)s[j]) || s[j] == '_')
            j++;
        t->kind = number_value(s + i, j - i, &t->value) ? TOK_NUMBER : TOK_OTHER;
    } else if (strchr("=!<>", s[i]) && s[i + 1] == '=') {
        j += 2;
        t->kind = TOK_CMP;
    } else if ((s[i] == '<' || s[i] == '>') && s[i + 1] != '-') {
        j += 1;
        t->kind = TOK_CMP;
    } else if (s[i] == '-' && s[i + 1] == '>') {
        j += 2;
    } else {
        j += 1;
    }
    t->len = j - i;
    if (t->kind == TOK_CMP)
        memcpy(t->op, s + i, t->len), t->op[t->len] = '\0';
    return j;
}

/* Tokens of 's' (caller frees), spaces skipped. */
static struct tok *tokenize(const char *s, size_t *n)
{
    size_t cap = strlen(s) + 1;
    struct tok *v = xcalloc(cap, sizeof(*v));
    *n = 0;
    for (size_t i = 0; s[i];) {
        if (isspace((unsigned char)s[i])) {
            i++;
            continue;
        }
        i = scan_token(s, i, &v[(*n)++]);
    }
    return v;
}

/*
 * The position of the character at 'off' of the expression's text (line only
 * when no column is known). The text is the attribute's value after XML
 * decoding: '<' and '&' were written "&lt;" and "&amp;" in the file, so each
 * one before 'off' moves the column on (character references are not undone).
 */
static struct srcpos expr_pos(const struct model_rule *rule, size_t off)
{
    struct srcpos p = rule->expr_pos.file ? rule->expr_pos : rule->pos;
    if (!rule->expr_pos.file || !p.col)
        return p;
    for (size_t i = 0; i < off && rule->expr_text[i]; i++)
        p.col += rule->expr_text[i] == '<' ? 4 : rule->expr_text[i] == '&' ? 5 : 1;
    return p;
}

static const struct model_field *rule_field(const struct model_reg *r, const char *name)
{
    const struct model_field *f = model_find_field(r, name);
    return f && !model_field_is_reserved(f) ? f : NULL;
}

static void check_rule_field(struct check_ctx *c, const struct model_reg *r,
                             const struct model_rule *rule, const struct tok *t)
{
    const char *name = arena_strndup(c->a, rule->expr_text + t->off, t->len);
    if (rule_field(r, name))
        return;
    if (model_find_field(r, name))
        diag_report(c->dg, DIAG_RULE_FIELD, expr_pos(rule, t->off),
                    "rule '%s' names reserved field '%s' of register '%s'", rule->name, name,
                    r->name);
    else
        diag_report(c->dg, DIAG_RULE_FIELD, expr_pos(rule, t->off),
                    "rule '%s' names '%s', which is not a field of register '%s'", rule->name,
                    name, r->name);
}

/* "field OP n" can never hold (or always holds) when n is beyond the field's maximum. */
static bool out_of_range(const char *op, uint64_t n, uint64_t max, bool field_left)
{
    if (n > max)
        return true;
    bool gt = field_left ? op[0] == '>' : op[0] == '<'; /* the field is compared greater */
    return n == max && gt && op[1] == '\0';
}

static void check_rule_range(struct check_ctx *c, const struct model_reg *r,
                             const struct model_rule *rule, const struct tok *t, size_t n)
{
    for (size_t i = 0; i + 2 < n; i++) {
        if (t[i + 1].kind != TOK_CMP)
            continue;
        bool left = t[i].kind == TOK_NAME && t[i + 2].kind == TOK_NUMBER;
        bool right = t[i].kind == TOK_NUMBER && t[i + 2].kind == TOK_NAME;
        if (!left && !right)
            continue;
        const struct tok *ft = left ? &t[i] : &t[i + 2], *nt = left ? &t[i + 2] : &t[i];
        const struct model_field *f =
            rule_field(r, arena_strndup(c->a, rule->expr_text + ft->off, ft->len));
        if (!f || !out_of_range(t[i + 1].op, nt->value, model_field_max(f), left))
            continue;
        diag_report(c->dg, DIAG_RULE_RANGE, expr_pos(rule, t[i].off),
                    "rule '%s' compares field '%s' (%u bits, at most " CHECK_X
                    ") with %.*s, which it cannot hold",
                    rule->name, f->name, model_field_width(f), model_field_max(f), (int)nt->len,
                    rule->expr_text + nt->off);
    }
}

static void check_rule(struct check_ctx *c, const struct model_reg *r,
                       const struct model_rule *rule)
{
    if (!rule->expr_text)
        return;
    size_t n;
    struct tok *t = tokenize(rule->expr_text, &n);
    for (size_t i = 0; i < n; i++)
        if (t[i].kind == TOK_NAME)
            check_rule_field(c, r, rule, &t[i]);
    check_rule_range(c, r, rule, t, n);
    free(t);
}

void check_rules(struct check_ctx *c)
{
    for (size_t b = 0; b < c->s->nblocks; b++) {
        const struct model_block *blk = c->s->blocks[b];
        for (size_t i = 0; i < blk->nregs; i++)
            for (size_t j = 0; j < blk->regs[i]->nrules; j++)
                check_rule(c, blk->regs[i], blk->regs[i]->rules[j]);
    }
}
