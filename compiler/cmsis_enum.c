/*
 * cmsis_enum - svdconv's enum form of the CMSIS header (cmsis_enum.h).
 */
#include "cmsis_enum.h"

#include "model_mmio.h"
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
        if (model_value_in_set(f->values[i], s->usage, sets, nsets) && !dropped(f->values[i]))
            add_model_value(e, vals, header ? header : base, f->values[i]);
    end_enum(e, o, vals);
}

void cmsis_enum_field(struct cmsis_enum *e, const char *stem, const struct model_field *f)
{
    if (f->nvalues == 0)
        return;
    struct model_enum_sets s;
    model_field_sets(f, &s);
    for (size_t i = 0; i < s.n; i++)
        add_set(e, stem, f, s.sets, s.n, i);
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
