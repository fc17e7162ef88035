/*
 * cmsis_enum - svdconv's enum form of the CMSIS header (cmsis_enum.h).
 */
#include "cmsis_enum.h"

#include "util.h"

#include <string.h>
#include <strings.h>

#define SET(a, o, lit, v) dt_add((a), (o), DT_KEY(lit), (v))

/* svdconv reads at most 8 don't-care bits in a value ("#1xx0"; SvdUtils::ConvertNumberXBin,
 * M379) and drops the value otherwise. */
#define MAX_DONT_CARE 8

/* A set's name or headerEnumName as a C identifier: a character no identifier holds made '_'
 * (the reader makes the other names identifiers: svd-name). */
static const char *ident(struct arena *a, const char *s)
{
    char *r = arena_strdup(a, s);
    for (char *p = r; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
              *p == '_'))
            *p = '_';
    return r;
}

/* svdconv drops a value named "reserved" (SvdItem::CheckItem, M361). */
static bool dropped(const struct model_value *v)
{
    return strcasecmp(v->name, "reserved") == 0;
}

static bool has_set(const struct model_enum_set *const *sets, size_t n, enum model_usage u)
{
    for (size_t i = 0; i < n; i++)
        if (sets[i]->usage == u)
            return true;
    return false;
}

/*
 * Is v in the field's set of usage 'set'? The model keeps a value once, with the usage of its
 * set, or USAGE_ANY for one in a read-write set or in both a read and a write set: a read or
 * write set takes the USAGE_ANY values when the field has no read-write set, and a read-write
 * set the values of a usage no set of the field has.
 */
static bool in_set(const struct model_value *v, enum model_usage set,
                   const struct model_enum_set *const *sets, size_t n)
{
    enum model_usage u = model_value_ext(v)->usage;
    if (u == set)
        return true;
    if (set == USAGE_ANY)
        return !has_set(sets, n, u);
    return u == USAGE_ANY && !has_set(sets, n, USAGE_ANY);
}

/* An enum constant as svdconv writes it: the value's 32 bits as an int ("%d" of the uint32_t
 * in HeaderGenerator::MakeEnumValue), so 0x80000000 is -2147483648. */
static char *int_text(struct arena *a, uint64_t v)
{
    long long s = v < 0x80000000u ? (long long)v : (long long)v - 0x100000000LL;
    return arena_printf(a, "%lld", s);
}

/* One constant prefix_NAME = value, commented "NAME : description" (the name when there is
 * none: SvdItem::GetDescriptionCalculated). A value past 32 bits, which no enum holds, is left
 * out, as a name the header holds already. */
static void add_value(struct cmsis_enum *e, struct dt *vals, const char *prefix, const char *name,
                      uint64_t value, const char *desc)
{
    const char *cname = arena_printf(e->a, "%s_%s", prefix, name);
    if (value > 0xFFFFFFFFu || !e->claim(e->ctx, cname))
        return;
    struct dt *o = dt_obj(e->a);
    SET(e->a, o, "name", dt_str_ref(e->a, cname));
    SET(e->a, o, "value", dt_str_ref(e->a, int_text(e->a, value)));
    SET(e->a, o, "comment",
        dt_str_ref(e->a,
                   arena_printf(e->a, "%s : %s", name,
                                desc ? util_fold_space(e->a, desc, strlen(desc), NULL) : name)));
    dt_push(e->a, vals, o);
}

static unsigned bits_set(uint64_t v)
{
    unsigned n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

/*
 * A value with don't-care bits ("#1x0") is one value per number it matches, lowest first, each
 * named NAME_<number> (SvdEnum::Calculate: the value itself takes the first, copies after it
 * the others).
 */
static void add_model_value(struct cmsis_enum *e, struct dt *vals, const char *prefix,
                            const struct model_value *v)
{
    uint64_t dc = model_value_ext(v)->dont_care;
    if (!dc) {
        add_value(e, vals, prefix, v->name, v->value, v->desc);
        return;
    }
    if (bits_set(dc) > MAX_DONT_CARE)
        return;
    uint64_t sub = 0;
    do {
        uint64_t n = v->value | sub;
        const char *name = arena_printf(e->a, "%s_%llu", v->name, (unsigned long long)n);
        add_value(e, vals, prefix, name, n, v->desc);
        sub = (sub - dc) & dc; /* the next subset of dc, in increasing order */
    } while (sub);
}

/* The typedef "{ ... } tname_Enum;", commented 'comment' (the set's hierarchical name:
 * HeaderData::CreateEnumValuesContainer), when its name is free and it has a value. */
static struct dt *begin_enum(struct cmsis_enum *e, const char *tname, const char *comment)
{
    const char *name = arena_printf(e->a, "%s_Enum", tname);
    if (!e->claim(e->ctx, name))
        return NULL;
    struct dt *o = dt_obj(e->a);
    SET(e->a, o, "name", dt_str_ref(e->a, name));
    SET(e->a, o, "comment", dt_str_ref(e->a, comment));
    return o;
}

static void end_enum(struct cmsis_enum *e, struct dt *o, struct dt *vals)
{
    SET(e->a, o, "values", vals);
    if (dt_len(vals) > 0) /* svdconv would write an empty enum, which C refuses */
        dt_push(e->a, e->list, o);
}

static void add_set(struct cmsis_enum *e, const char *stem, const struct model_field *f,
                    const struct model_enum_set *const *sets, size_t nsets, size_t k)
{
    const struct model_enum_set *s = sets[k];
    const char *base = s->name ? arena_printf(e->a, "%s_%s", stem, ident(e->a, s->name)) : stem;
    const char *header = s->header_enum && !e->copy ? ident(e->a, s->header_enum) : NULL;
    const char *tname = header ? header
                               : arena_printf(e->a, "%s%s", base,
                                              s->usage == USAGE_READ    ? "_R"
                                              : s->usage == USAGE_WRITE ? "_W"
                                                                        : "");
    struct dt *o = begin_enum(e, tname, base);
    if (!o)
        return;
    struct dt *vals = dt_list(e->a);
    for (size_t i = 0; i < f->nvalues; i++)
        if (in_set(f->values[i], s->usage, sets, nsets) && !dropped(f->values[i]))
            add_model_value(e, vals, header ? header : base, f->values[i]);
    end_enum(e, o, vals);
}

/* A field whose sets the model does not know (a regspec's): one set per usage of its values,
 * a read and a write set when some value is for one access only, else one read-write set. */
static size_t usage_sets(const struct model_field *f, struct model_enum_set *out)
{
    bool one_way = false;
    for (size_t i = 0; i < f->nvalues; i++)
        one_way = one_way || model_value_ext(f->values[i])->usage != USAGE_ANY;
    if (!one_way) {
        out[0] = (struct model_enum_set){.usage = USAGE_ANY};
        return 1;
    }
    out[0] = (struct model_enum_set){.usage = USAGE_READ};
    out[1] = (struct model_enum_set){.usage = USAGE_WRITE};
    return 2;
}

void cmsis_enum_field(struct cmsis_enum *e, const char *stem, const struct model_field *f)
{
    if (f->nvalues == 0)
        return;
    const struct model_field_ext *x = model_field_ext(f);
    struct model_enum_set own[2];
    const struct model_enum_set *mine[2] = {&own[0], &own[1]};
    const struct model_enum_set *const *sets = (const struct model_enum_set *const *)x->sets;
    size_t n = x->nsets;
    if (n == 0) {
        n = usage_sets(f, own);
        sets = mine;
    }
    for (size_t i = 0; i < n; i++)
        add_set(e, stem, f, sets, n, i);
}

void cmsis_enum_index(struct cmsis_enum *e, const char *stem, const struct model_array_index *ix)
{
    if (e->copy)
        return;
    const char *header = ix->enum_name ? ident(e->a, ix->enum_name) : NULL;
    struct dt *o = begin_enum(e, header ? header : stem, stem);
    if (!o)
        return;
    struct dt *vals = dt_list(e->a);
    for (size_t i = 0; i < ix->nvalues; i++)
        if (!dropped(ix->values[i]))
            add_value(e, vals, header ? header : stem, ix->values[i]->name, ix->values[i]->value,
                      ix->values[i]->desc);
    end_enum(e, o, vals);
}
