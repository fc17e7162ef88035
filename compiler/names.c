#include "names.h"

#include <ctype.h>
#include <string.h>

static char *convert(struct arena *a, const char *s, int (*conv)(int))
{
    size_t n = strlen(s);
    char *p = arena_alloc(a, n + 1);
    for (size_t i = 0; i <= n; i++)
        p[i] = s[i] == '.' ? '_' : (char)conv((unsigned char)s[i]);
    return p;
}

char *names_upper(struct arena *a, const char *s)
{
    return convert(a, s, toupper);
}

char *names_lower(struct arena *a, const char *s)
{
    return convert(a, s, tolower);
}

char *names_reg(struct arena *a, const char *prefix, const struct model_reg *r)
{
    return names_upper(a, arena_printf(a, "%s_%s", prefix, r->name));
}

char *names_field(struct arena *a, const char *prefix, const struct model_field *f)
{
    return names_upper(a, arena_printf(a, "%s_%s_%s", prefix, f->reg->name, f->name));
}

char *names_value(struct arena *a, const char *prefix, const struct model_field *f,
                  const struct model_value *v)
{
    return names_upper(a, arena_printf(a, "%s_%s_%s_%s", prefix, f->reg->name, f->name, v->name));
}

char *names_rule(struct arena *a, const char *prefix, const struct model_reg *r,
                 const struct model_rule *rule)
{
    return names_upper(a, arena_printf(a, "%s_%s_RULE_%s", prefix, r->name, rule->name));
}

char *names_instance(struct arena *a, const char *prefix, const struct model_instance *i)
{
    return names_upper(a, arena_printf(a, "%s_%s_%s", prefix, i->block->name, i->name));
}

char *names_event(struct arena *a, const char *prefix, const struct model_event *e)
{
    return names_upper(a, arena_printf(a, "%s_EV_%s_%s", prefix, e->table->block->name,
                                       e->full_name));
}

static void emit(struct arena *a, names_fn *fn, void *ctx, const char *stem, const char *suffix,
                 struct srcpos pos)
{
    fn(ctx, suffix ? arena_printf(a, "%s_%s", stem, suffix) : stem, pos);
}

static void foreach_field(struct arena *a, const char *prefix, const struct model_field *f,
                          names_fn *fn, void *ctx)
{
    static const char *const suffixes[] = {"SHIFT", "WIDTH", "MASK", "RESET"};
    if (model_field_is_reserved(f))
        return;
    char *stem = names_field(a, prefix, f);
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
        emit(a, fn, ctx, stem, suffixes[i], f->pos);
    for (size_t i = 0; i < f->nvalues; i++)
        emit(a, fn, ctx, names_value(a, prefix, f, f->values[i]), NULL, f->values[i]->pos);
}

static void foreach_reg(struct arena *a, const char *prefix, const struct model_reg *r,
                        names_fn *fn, void *ctx)
{
    static const char *const suffixes[] = {"ADDR", "WIDTH", "RESET", "MBZ_MASK"};
    char *stem = names_reg(a, prefix, r);
    for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
        emit(a, fn, ctx, stem, suffixes[i], r->pos);
    for (size_t i = 0; i < r->nfields; i++)
        foreach_field(a, prefix, r->fields[i], fn, ctx);
    for (size_t i = 0; i < r->nrules; i++)
        emit(a, fn, ctx, names_rule(a, prefix, r, r->rules[i]), NULL, r->rules[i]->pos);
}

static void foreach_event(struct arena *a, const char *prefix, const struct model_event *e,
                          names_fn *fn, void *ctx)
{
    emit(a, fn, ctx, names_event(a, prefix, e), NULL, e->pos);
    for (size_t i = 0; i < e->nsubs; i++)
        foreach_event(a, prefix, e->subs[i], fn, ctx);
}

void names_foreach(struct arena *a, const struct model_spec *s, const char *prefix,
                   names_fn *fn, void *ctx)
{
    for (size_t b = 0; b < s->nblocks; b++) {
        const struct model_block *blk = s->blocks[b];
        for (size_t i = 0; i < blk->ninstances; i++)
            emit(a, fn, ctx, names_instance(a, prefix, blk->instances[i]), NULL,
                 blk->instances[i]->pos);
        for (size_t i = 0; i < blk->nregs; i++)
            foreach_reg(a, prefix, blk->regs[i], fn, ctx);
        for (size_t t = 0; t < blk->nevent_tables; t++)
            for (size_t i = 0; i < blk->event_tables[t]->nevents; i++)
                foreach_event(a, prefix, blk->event_tables[t]->events[i], fn, ctx);
    }
}
