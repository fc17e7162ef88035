/*
 * check_names - names are C identifiers, not keywords, and unique in their
 * scope. That no two objects get the same generated C name is checked in
 * check_collision.c.
 */
#include "check.h"
#include "check_int.h"
#include "util.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

/* C11, C23 and C++17 keywords (and C++ alternative tokens), in strcmp order. */
static const char *const keywords[] = {
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_BitInt",
    "_Bool",
    "_Complex",
    "_Decimal128",
    "_Decimal32",
    "_Decimal64",
    "_Generic",
    "_Imaginary",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char16_t",
    "char32_t",
    "class",
    "compl",
    "const",
    "const_cast",
    "constexpr",
    "continue",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "typeof",
    "typeof_unqual",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "xor",
    "xor_eq",
};

bool check_is_identifier(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

/*
 * A binary search comparing the first byte in place: most probes differ
 * there, and most names start with no keyword's first byte ('_' or a
 * lower-case letter) at all, so strcmp() is seldom called.
 */
bool check_is_keyword(const char *s)
{
    if (*s != '_' && !(*s >= 'a' && *s <= 'z'))
        return false;
    size_t lo = 0, hi = sizeof(keywords) / sizeof(keywords[0]);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int d = (unsigned char)*s - (unsigned char)keywords[mid][0];
        if (d == 0)
            d = strcmp(s, keywords[mid]);
        if (d == 0)
            return true;
        if (d < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return false;
}

/*
 * 'name' made a C identifier, as the SVD reader names what it reads (svd-name): what is not
 * [A-Za-z0-9_] becomes '_', a leading digit gets a '_' before it, a keyword one after it.
 */
const char *check_c_identifier(struct arena *a, const char *name, bool tail)
{
    size_t n = 0;
    while (isalnum((unsigned char)name[n]) || name[n] == '_')
        n++;
    /* most names are identifiers already: kept as they are, without a copy */
    if (!name[n] && n && (tail || (!isdigit((unsigned char)name[0]) && !check_is_keyword(name))))
        return name;
    n += strlen(name + n);
    char *s = arena_alloc(a, n + 3), *q = s;
    if ((isdigit((unsigned char)name[0]) && !tail) || !name[0])
        *q++ = '_';
    for (size_t i = 0; i < n; i++)
        *q++ = !isalnum((unsigned char)name[i]) && name[i] != '_' ? '_' : name[i];
    *q = '\0';
    if (check_is_keyword(s) && !tail)
        *q++ = '_', *q = '\0';
    return s;
}

/*
 * An SVD list's name as its elements are named: what check_c_identifier() makes '_' in an
 * element's name made '_' around the "%s" or "[%s]" ("TIM.ER[%s]": "TIM_ER[%s]", elements
 * TIM_ER0...), so the outputs find the elements' names in it and write them as the list (-t svd);
 * 'name' itself when no character needs it. One the elements' names do not fit (a leading digit
 * or a keyword made them longer) leaves them written one each.
 */
const char *check_list_identifier(struct arena *a, const char *name)
{
    const char *at = strstr(name, "[%s]");
    size_t cut = 4;
    if (!at)
        at = strstr(name, "%s"), cut = 2;
    size_t skip = at ? (size_t)(at - name) : SIZE_MAX;
    char *s = NULL;
    for (size_t i = 0; name[i]; i++) {
        if (i == skip) {
            i += cut - 1;
            continue;
        }
        if (isalnum((unsigned char)name[i]) || name[i] == '_')
            continue;
        if (!s)
            s = arena_strdup(a, name);
        s[i] = '_';
    }
    return s ? s : name;
}

static void check_bad_identifier(struct check_ctx *c, const char *kind, const char *name,
                                 struct srcpos pos)
{
    if (!check_is_identifier(name))
        diag_report(c->dg, DIAG_BAD_IDENTIFIER, pos, "%s name '%s' is not a C identifier", kind,
                    name);
}

static void check_c_keyword(struct check_ctx *c, const char *kind, const char *name,
                            struct srcpos pos)
{
    if (check_is_keyword(name))
        diag_report(c->dg, DIAG_C_KEYWORD, pos, "%s name '%s' is a C or C++ keyword", kind, name);
}

static void check_name(struct check_ctx *c, const char *kind, const char *name, struct srcpos pos)
{
    if (!name)
        return;
    check_bad_identifier(c, kind, name, pos);
    check_c_keyword(c, kind, name, pos);
}

/* The scope a name must be unique in: "in register 'X'"; a NULL kind is the spec. */
struct scope {
    const char *kind, *name;
};

static void check_duplicate_name(struct check_ctx *c, struct regc_map *m, const char *kind,
                                 const char *name, const struct srcpos *at, struct scope in)
{
    if (!name)
        return;
    bool found;
    struct regc_map_entry *e = xmap_put_str(m, name, &found);
    if (!found) {
        e->val = (void *)at; /* the model's, which outlives the map */
        return;
    }
    struct srcpos pos = *at, *first = e->val;
    if (in.kind)
        diag_report(c->dg, DIAG_DUPLICATE_NAME, pos, "duplicate %s '%s' in %s '%s'", kind, name,
                    in.kind, in.name);
    else
        diag_report(c->dg, DIAG_DUPLICATE_NAME, pos, "duplicate %s '%s'", kind, name);
    diag_note(c->dg, *first, "'%s' first defined here", name);
}

/*
 * One map per kind of scope, emptied when a scope starts and released at the
 * end: a spec has a scope per field, and a map per scope would cost an
 * allocation each.
 */
struct scopes {
    struct regc_map insts, regs, events, fields, rules, ats, values, subs;
};

static void scopes_each(struct scopes *sc, void (*fn)(struct regc_map *))
{
    struct regc_map *m[] = {&sc->insts, &sc->regs, &sc->events, &sc->fields,
                            &sc->rules, &sc->ats,  &sc->values, &sc->subs};
    for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
        fn(m[i]);
}

static void check_value_tail(struct check_ctx *c, const struct model_value *v)
{
    const char *s = v->name;
    while (*s && (isalnum((unsigned char)*s) || *s == '_'))
        s++;
    if (*s || !v->name[0])
        diag_report(c->dg, DIAG_BAD_IDENTIFIER, v->pos,
                    "value name '%s' is not made of letters, digits and '_'", v->name);
}

static void names_of_field(struct check_ctx *c, struct scopes *sc, const struct model_field *f)
{
    check_name(c, "field", f->name, f->pos);
    if (!model_field_is_reserved(f))
        check_duplicate_name(c, &sc->fields, "field", f->name, &f->pos,
                             (struct scope){"register", f->reg->name});
    regc_map_clear(&sc->values);
    /* in block-qualified names a value only ever follows "_V_": "16MHz" is fine there */
    bool tail = f->reg->block && f->reg->block->names_qualified;
    for (size_t i = 0; i < f->nvalues; i++) {
        const struct model_value *v = f->values[i];
        if (tail)
            check_value_tail(c, v);
        else
            check_name(c, "value", v->name, v->pos);
        check_duplicate_name(c, &sc->values, "value", v->name, &v->pos,
                             (struct scope){"field", f->name});
    }
}

static void names_of_reg(struct check_ctx *c, struct scopes *sc, const struct model_reg *r)
{
    regc_map_clear(&sc->fields);
    regc_map_clear(&sc->rules);
    regc_map_clear(&sc->ats);
    for (size_t i = 0; i < r->nfields; i++)
        names_of_field(c, sc, r->fields[i]);
    struct scope in_reg = {"register", r->name};
    for (size_t i = 0; i < r->nrules; i++) {
        check_name(c, "rule", r->rules[i]->name, r->rules[i]->pos);
        check_duplicate_name(c, &sc->rules, "rule", r->rules[i]->name, &r->rules[i]->pos, in_reg);
    }
    for (size_t i = 0; i < r->nats; i++)
        check_duplicate_name(c, &sc->ats, "<at> for instance", r->ats[i]->instance_name,
                             &r->ats[i]->pos, in_reg);
}

static void names_of_event(struct check_ctx *c, struct scopes *sc, const struct model_event *e,
                           struct scope in_block)
{
    check_name(c, "event", e->name, e->pos);
    check_duplicate_name(c, &sc->events, "event", e->full_name, &e->pos, in_block);
    regc_map_clear(&sc->subs);
    for (size_t i = 0; i < e->nsubs; i++) {
        const struct model_event *sub = e->subs[i];
        check_name(c, "sub-event", sub->name, sub->pos);
        check_duplicate_name(c, &sc->subs, "sub-event", sub->name, &sub->pos,
                             (struct scope){"event", e->name});
    }
}

static void names_of_block(struct check_ctx *c, struct scopes *sc, const struct model_block *b)
{
    regc_map_clear(&sc->insts);
    regc_map_clear(&sc->regs);
    regc_map_clear(&sc->events);
    struct scope in_block = {"block", b->name};
    for (size_t i = 0; i < b->ninstances; i++) {
        const struct model_instance *inst = b->instances[i];
        check_name(c, "instance", inst->name, inst->pos);
        check_duplicate_name(c, &sc->insts, "instance", inst->name, &inst->pos, in_block);
    }
    for (size_t i = 0; i < b->nregs; i++) {
        check_name(c, "register", b->regs[i]->name, b->regs[i]->pos);
        check_duplicate_name(c, &sc->regs, "register", b->regs[i]->name, &b->regs[i]->pos, in_block);
        names_of_reg(c, sc, b->regs[i]);
    }
    for (size_t t = 0; t < b->nevent_tables; t++)
        for (size_t i = 0; i < b->event_tables[t]->nevents; i++)
            names_of_event(c, sc, b->event_tables[t]->events[i], in_block);
}

void check_names(struct check_ctx *c)
{
    struct regc_map blocks, sources;
    struct scopes sc;
    regc_map_init(&blocks);
    regc_map_init(&sources);
    scopes_each(&sc, regc_map_init);
    /* every C name starts with it; the templates write C names unescaped (docs/c-header.md) */
    if (c->s->prefix && !check_is_identifier(c->s->prefix))
        diag_report(c->dg, DIAG_BAD_IDENTIFIER, c->s->pos, "prefix '%s' is not a C identifier",
                    c->s->prefix);
    for (size_t i = 0; i < c->s->nsources; i++)
        check_duplicate_name(c, &sources, "source", c->s->sources[i]->id, &c->s->sources[i]->pos,
                             (struct scope){NULL, NULL});
    for (size_t i = 0; i < c->s->nblocks; i++) {
        const struct model_block *b = c->s->blocks[i];
        check_name(c, "block", b->name, b->pos);
        check_duplicate_name(c, &blocks, "block", b->name, &b->pos, (struct scope){NULL, NULL});
        names_of_block(c, &sc, b);
    }
    regc_map_clear(&sc.rules); /* metrics: their own scope, the spec */
    for (size_t i = 0; i < c->s->nmetrics; i++) {
        const struct model_metric *m = c->s->metrics[i];
        check_name(c, "metric", m->name, m->pos);
        check_duplicate_name(c, &sc.rules, "metric", m->name, &m->pos, (struct scope){NULL, NULL});
    }
    scopes_each(&sc, regc_map_release);
    regc_map_release(&blocks);
    regc_map_release(&sources);
}
