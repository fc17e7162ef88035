#include "names.h"

#include <ctype.h>
#include <stddef.h>
#include <string.h>

static char upper_c(char c)
{
    return c == '.' ? '_' : c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

static char lower_c(char c)
{
    return c == '.' ? '_' : c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static char *convert(struct arena *a, const char *s, char (*conv)(char))
{
    size_t n = strlen(s);
    char *p = arena_alloc_bytes(a, n + 1);
    for (size_t i = 0; i <= n; i++)
        p[i] = conv(s[i]);
    return p;
}

char *names_upper(struct arena *a, const char *s)
{
    return convert(a, s, upper_c);
}

char *names_lower(struct arena *a, const char *s)
{
    return convert(a, s, lower_c);
}

/*
 * The parts joined by '_', upper-cased, '.' made '_', in one pass: no
 * printf, this runs for every generated name.
 */
static char *upper_join(struct arena *a, const char *const *parts, size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += strlen(parts[i]) + 1;
    char *p = arena_alloc_bytes(a, len ? len : 1), *q = p;
    for (size_t i = 0; i < n; i++) {
        if (i)
            *q++ = '_';
        for (const char *s = parts[i]; *s; s++)
            *q++ = upper_c(*s);
    }
    *q = '\0';
    return p;
}

#define UPPER_JOIN(a, ...)                                                                         \
    upper_join((a), (const char *const[]){__VA_ARGS__},                                            \
               sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

/* Memory-mapped specs (SVD) qualify register names by their block: PREFIX_PERIPH_REG. */
static bool qualified(const struct model_reg *r)
{
    return r->block && r->block->names_qualified;
}

char *names_reg(struct arena *a, const char *prefix, const struct model_reg *r)
{
    if (qualified(r))
        return UPPER_JOIN(a, prefix, r->block->name, r->name);
    return UPPER_JOIN(a, prefix, r->name);
}

char *names_field(struct arena *a, const char *prefix, const struct model_field *f)
{
    if (qualified(f->reg))
        return UPPER_JOIN(a, prefix, f->reg->block->name, f->reg->name, f->name);
    return UPPER_JOIN(a, prefix, f->reg->name, f->name);
}

char *names_value(struct arena *a, const char *prefix, const struct model_field *f,
                  const struct model_value *v)
{
    /* SVD values are named Set, Mask, Reset...: "_V_" keeps them apart from the field's macros */
    if (qualified(f->reg))
        return UPPER_JOIN(a, prefix, f->reg->block->name, f->reg->name, f->name, "V", v->name);
    return UPPER_JOIN(a, prefix, f->reg->name, f->name, v->name);
}

/*
 * 'stem' + 'infix' + 'name' upper-cased: a name made from its parent's,
 * which is upper-case already (copied, only the last part converted).
 */
static char *upper_after(struct arena *a, const char *stem, const char *infix, const char *name)
{
    size_t ns = strlen(stem), nv = strlen(name), ni = strlen(infix);
    char *p = arena_alloc_bytes(a, ns + nv + ni + 1);
    memcpy(p, stem, ns);
    memcpy(p + ns, infix, ni);
    for (size_t i = 0; i <= nv; i++)
        p[ns + ni + i] = upper_c(name[i]);
    return p;
}

/* What comes between a field's name and a value's: "_V_" keeps SVD's Set, Mask... apart. */
static const char *value_infix(const struct model_field *f)
{
    return qualified(f->reg) ? "_V_" : "_";
}

char *names_value_of(struct arena *a, const char *field_stem, const struct model_field *f,
                     const struct model_value *v)
{
    return upper_after(a, field_stem, value_infix(f), v->name);
}

char *names_field_of(struct arena *a, const char *reg_stem, const struct model_field *f)
{
    return upper_after(a, reg_stem, "_", f->name);
}

char *names_rule_of(struct arena *a, const char *reg_stem, const struct model_rule *rule)
{
    return upper_after(a, reg_stem, "_RULE_", rule->name);
}

char *names_instance(struct arena *a, const char *prefix, const struct model_instance *i)
{
    /* an SVD instance is a peripheral: its name is unique in the device */
    if (i->block->names_qualified)
        return UPPER_JOIN(a, prefix, i->name);
    return UPPER_JOIN(a, prefix, i->block->name, i->name);
}

char *names_event(struct arena *a, const char *prefix, const struct model_event *e)
{
    return UPPER_JOIN(a, prefix, "EV", e->table->block->name, e->full_name);
}

char *names_block(struct arena *a, const char *prefix, const struct model_block *b)
{
    return UPPER_JOIN(a, prefix, b->name);
}

bool names_reg_uniform(const struct model_reg *r)
{
    const struct model_block *b = r->block;
    if (!b || b->ninstances == 0)
        return true;
    uint64_t a0 = model_reg_address(r, b->instances[0], 0);
    for (size_t i = 1; i < b->ninstances; i++)
        if (model_reg_address(r, b->instances[i], 0) != a0)
            return false;
    return true;
}

/* ---------------------------------------------------------------- names by hash (issue 26)
 *
 * The collision check needs every name's hash and, for the few hashes made
 * twice, the text. names_foreach_hash() gives the hash of 'stem' + "_" +
 * suffix by going on from the stem's hash over the suffix's bytes, without
 * making the name: a polynomial hash, h(a b) = h(a) * B^|b| + h(b) (mod
 * 2^64), so a name hashes the same made whole or from its parts.
 */
#define NAMES_HASH_BASE UINT64_C(0x100000001B3) /* odd: one byte changed always changes h */

static uint64_t hash_more(uint64_t h, const char *s, char (*conv)(char))
{
    for (; *s; s++)
        h = h * NAMES_HASH_BASE + (unsigned char)conv(*s);
    return h;
}

static char same_c(char c)
{
    return c;
}

struct names_lazy {
    struct arena *a;
    const char *stem; /* the name itself when 'sfx' is NULL */
    const char *sfx;
    bool lower;       /* the stem lower-cased (a function's name) */
    const char *infix; /* with 'sfx' a value's name: stem + infix + sfx upper-cased */
};

/*
 * The hash passed on: h mixed so that its low bits (the collision check's
 * parts) depend on every byte. Each step can be undone, so two names have
 * the same hash exactly when their h is the same.
 */
static uint64_t hash_final(uint64_t h)
{
    h ^= h >> 29;
    h *= UINT64_C(0x9E3779B97F4A7C15);
    return h ^ (h >> 32);
}

uint64_t names_hash64(const char *ident)
{
    return hash_final(hash_more(0, ident, same_c));
}
/* ---------------------------------------------------------------- end of names by hash */

struct emitter {
    struct arena *a;
    names_fn *fn;
    names_hash_fn *hfn; /* instead of 'fn': names_foreach_hash() */
    void *ctx;
};

/* "X_Y" in 'a' (no printf: this runs for every generated name). */
static char *join(struct arena *a, const char *x, const char *y)
{
    size_t nx = strlen(x), ny = strlen(y);
    char *p = arena_alloc_bytes(a, nx + ny + 2);
    memcpy(p, x, nx);
    p[nx] = '_';
    memcpy(p + nx + 1, y, ny + 1);
    return p;
}

const char *names_lazy_text(const struct names_lazy *n)
{
    if (n->infix)
        return upper_after(n->a, n->stem, n->infix, n->sfx);
    const char *stem = n->lower ? names_lower(n->a, n->stem) : n->stem;
    return n->sfx ? join(n->a, stem, n->sfx) : stem;
}

/* A name made whole: passed on, or its hash. */
static void emit_one(const struct emitter *em, const char *ident, struct srcpos pos)
{
    if (em->hfn) {
        const struct names_lazy n = {em->a, ident, NULL, false, NULL};
        em->hfn(em->ctx, names_hash64(ident), &n, pos);
    } else {
        em->fn(em->ctx, ident, pos);
    }
}

/*
 * A stem the names of a register, field... go on from, with its hash and
 * its lower-case text's (hashed paths only): hashed once for all the names
 * made from it, and a field's hashes go on from its register's.
 */
struct stem {
    const char *s;
    uint64_t h, hl;
    bool have_hl; /* 'hl' computed (a function's name was made from the stem) */
};

static struct stem stem_of(const struct emitter *em, const char *s)
{
    return (struct stem){s, em->hfn ? hash_more(0, s, same_c) : 0, 0, false};
}

/* The hashes of 'stem' + "_" + each suffix, each name made only if asked for. */
static void emit_hashes(const struct emitter *em, struct stem *st, const char *const *suffixes,
                        size_t n, struct srcpos pos)
{
    for (size_t i = 0; i < n; i++) {
        struct names_lazy name = {em->a, st->s, suffixes[i], false, NULL};
        uint64_t hs = st->h;
        if (name.sfx && islower((unsigned char)name.sfx[0])) {
            if (!st->have_hl)
                st->hl = hash_more(0, st->s, lower_c);
            st->have_hl = name.lower = true;
            hs = st->hl;
        }
        if (name.sfx)
            hs = hash_more(hs * NAMES_HASH_BASE + '_', name.sfx, same_c);
        em->hfn(em->ctx, hash_final(hs), &name, pos);
    }
}

/* 'stem' + "_" + each suffix (NULL: the stem alone); lower-case suffixes name functions. */
static void emit_all(const struct emitter *em, struct stem *st, const char *const *suffixes,
                     size_t n, struct srcpos pos)
{
    if (em->hfn) {
        emit_hashes(em, st, suffixes, n, pos);
        return;
    }
    const char *stem = st->s;
    char *lower = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *sfx = suffixes[i];
        if (!sfx) {
            em->fn(em->ctx, stem, pos);
        } else if (islower((unsigned char)sfx[0])) {
            if (!lower)
                lower = names_lower(em->a, stem);
            em->fn(em->ctx, join(em->a, lower, sfx), pos);
        } else {
            em->fn(em->ctx, join(em->a, stem, sfx), pos);
        }
    }
}

#define EMIT(em, stem, pos, ...)                                                                   \
    do {                                                                                           \
        static const char *const sfx_[] = {__VA_ARGS__};                                           \
        emit_all((em), (stem), sfx_, sizeof(sfx_) / sizeof(sfx_[0]), (pos));                       \
    } while (0)

/*
 * The names of f's values: stem + infix + the value's name. Hashed, the
 * stem and infix are hashed once for all of them and no name is made.
 */
static void foreach_value(const struct emitter *em, const struct stem *st,
                          const struct model_field *f)
{
    const char *infix = value_infix(f);
    if (!em->hfn) {
        for (size_t i = 0; i < f->nvalues; i++)
            em->fn(em->ctx, upper_after(em->a, st->s, infix, f->values[i]->name),
                   f->values[i]->pos);
        return;
    }
    uint64_t h = hash_more(st->h, infix, same_c);
    for (size_t i = 0; i < f->nvalues; i++) {
        const struct model_value *v = f->values[i];
        const struct names_lazy name = {em->a, st->s, v->name, false, infix};
        em->hfn(em->ctx, hash_final(hash_more(h, v->name, upper_c)), &name, v->pos);
    }
}

/* 'reg': names_reg() of f's register, which a field's name and hashes go on from. */
static void foreach_field(const struct emitter *em, const struct stem *reg,
                          const struct model_field *f)
{
    if (model_field_is_reserved(f))
        return;
    /* the register's stem "_" the name upper-cased: the register's hashes go on over it */
    struct stem st = {names_field_of(em->a, reg->s, f), 0, 0, em->hfn && reg->have_hl};
    if (em->hfn)
        st.h = hash_more(hash_more(reg->h, "_", same_c), f->name, upper_c);
    if (st.have_hl)
        st.hl = hash_more(hash_more(reg->hl, "_", same_c), f->name, lower_c);
    EMIT(em, &st, f->pos, "SHIFT", "WIDTH", "MASK", "MAX", "RESET", "GET", "SET", "VAL", "get",
         "set", "val");
    foreach_value(em, &st, f);
}

static void foreach_reg(const struct emitter *em, const char *prefix, const struct model_reg *r)
{
    struct stem st = stem_of(em, names_reg(em->a, prefix, r));
    const char *stem = st.s;
    EMIT(em, &st, r->pos, "WIDTH", "SIZE", "RESET", "MBZ_MASK", "MB1_MASK", "IGNORED_MASK",
         "RO_MASK", "WO_MASK", "W1C_MASK", "W1S_MASK", "WRITABLE_MASK", "KEEP_MASK", "LEVELS_MASK",
         "PRESERVE_MASK",
         "write_value");
    struct model_masks m = model_reg_masks(r); /* the write side effects' masks: when present */
    if (m.w0 | m.w1t | m.wany | m.once)
        EMIT(em, &st, r->pos, "W0_MASK", "W1T_MASK", "WANY_MASK", "ONCE_MASK");
    const struct model_block *b = r->block;
    bool uniform = names_reg_uniform(r);
    if (!r->is_array && uniform)
        EMIT(em, &st, r->pos, "ADDR");
    else
        EMIT(em, &st, r->pos, "addr", "ADDR_C");
    if (r->is_array)
        EMIT(em, &st, r->pos, "FIRST", "COUNT");
    if (r->is_array && !r->addrs)
        EMIT(em, &st, r->pos, "STRIDE");
    if (r->addrs)
        EMIT(em, &st, r->pos, "offset");
    if (!uniform)
        for (size_t i = 0; i < b->ninstances; i++)
            emit_one(em, UPPER_JOIN(em->a, stem, b->instances[i]->name, "ADDR"), r->pos);
    for (size_t i = 0; i < r->nfields; i++)
        foreach_field(em, &st, r->fields[i]);
    if (r->nrules > 0)
        EMIT(em, &st, r->pos, "RULES", "check", "rule_message");
    for (size_t i = 0; i < r->nrules; i++) {
        struct stem rule = stem_of(em, names_rule_of(em->a, stem, r->rules[i]));
        EMIT(em, &rule, r->rules[i]->pos, NULL, "MESSAGE");
    }
}

static void foreach_event(const struct emitter *em, const char *prefix, const struct model_event *e)
{
    struct stem st = stem_of(em, names_event(em->a, prefix, e));
    EMIT(em, &st, e->pos, NULL, "CODE", "UMASK", "COUNTERS");
    for (size_t i = 0; i < e->nsubs; i++)
        foreach_event(em, prefix, e->subs[i]);
}

static void foreach_block(const struct emitter *em, const char *prefix,
                          const struct model_block *blk)
{
    if (blk->ninstances > 0) {
        struct stem st = stem_of(em, names_block(em->a, prefix, blk));
        EMIT(em, &st, blk->pos, "NINSTANCES");
    }
    for (size_t i = 0; i < blk->ninstances; i++) {
        const struct model_instance *inst = blk->instances[i];
        struct stem st = stem_of(em, names_instance(em->a, prefix, inst));
        EMIT(em, &st, inst->pos, NULL);
        if (inst->has_base)
            EMIT(em, &st, inst->pos, "BASE");
        if (inst->has_pci)
            EMIT(em, &st, inst->pos, "VENDOR", "DEVICE");
        if (inst->has_pci && inst->has_dev)
            EMIT(em, &st, inst->pos, "DEV");
        if (inst->has_pci && inst->has_func)
            EMIT(em, &st, inst->pos, "FUNC");
    }
    for (size_t i = 0; i < blk->nregs; i++) {
        /* a register's names at a time: one block may hold a million registers */
        arena_clear(em->a);
        foreach_reg(em, prefix, blk->regs[i]);
    }
    for (size_t t = 0; t < blk->nevent_tables; t++)
        for (size_t i = 0; i < blk->event_tables[t]->nevents; i++)
            foreach_event(em, prefix, blk->event_tables[t]->events[i]);
}

static void foreach_name(const struct emitter *em, const struct model_spec *s, const char *prefix)
{
    struct arena *a = em->a;
    struct stem p = stem_of(em, names_upper(a, prefix));
    EMIT(em, &p, s->pos, "ACT_WO", "ACT_W1C", "ACT_W1S", "ACT_LEVEL", "ACT_W0", "ACT_W1T");
    emit_one(em, UPPER_JOIN(a, prefix, s->name, "H"), s->pos);
    for (size_t b = 0; b < s->nblocks; b++) {
        arena_clear(a);
        foreach_block(em, prefix, s->blocks[b]);
    }
    for (size_t i = 0; i < s->nmetrics; i++)
        if (s->metrics[i]->name) {
            struct stem m = stem_of(em, names_metric(a, prefix, s->metrics[i]));
            EMIT(em, &m, s->metrics[i]->pos, "UNIT", "SCALE", "NEVENTS", "EVENTS");
        }
}

void names_foreach(const struct model_spec *s, const char *prefix, names_fn *fn, void *ctx)
{
    /* the names of one register at a time: memory follows a register, not the spec */
    struct arena a = ARENA_INIT;
    const struct emitter em = {&a, fn, NULL, ctx};
    foreach_name(&em, s, prefix);
    arena_release(&a);
}

void names_foreach_hash(const struct model_spec *s, const char *prefix, names_hash_fn *fn,
                        void *ctx)
{
    struct arena a = ARENA_INIT;
    const struct emitter em = {&a, NULL, fn, ctx};
    foreach_name(&em, s, prefix);
    arena_release(&a);
}

char *names_metric(struct arena *a, const char *prefix, const struct model_metric *m)
{
    return UPPER_JOIN(a, prefix, "METRIC", m->name);
}
