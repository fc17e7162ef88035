#include "names.h"

#include "fatal.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
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

/* Both cases in one pass over the field's name, into one allocation: this runs for every field. */
size_t names_field_of(struct arena *a, const char *reg_stem, const char *reg_lower, size_t ns,
                      const struct model_field *f, char **upper, char **lower)
{
    size_t nv = strlen(f->name), len = ns + 1 + nv;
    char *u = arena_alloc_bytes(a, 2 * (len + 1)), *l = u + len + 1;
    memcpy(u, reg_stem, ns);
    memcpy(l, reg_lower, ns);
    u[ns] = l[ns] = '_';
    for (size_t i = 0; i <= nv; i++) { /* the NUL too */
        u[ns + 1 + i] = upper_c(f->name[i]);
        l[ns + 1 + i] = lower_c(f->name[i]);
    }
    *upper = u;
    *lower = l;
    return len;
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
 * twice, the text. names_foreach_hashes() gives the hash of 'stem' + "_" +
 * suffix by going on from the stem's hash, without making the name or the
 * stem: a polynomial hash, h(a b) = h(a) * B^|b| + h(b) (mod 2^64), so a
 * name hashes the same made whole or from its parts, and a suffix's B^|b|
 * and h(b) are worked out once a walk (struct suffix_hash).
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

/*
 * The suffixes the header gives each kind of stem (docs/c-header.md), one
 * list per place names are made; NULL: the stem alone. A suffix in lower
 * case names a function, made from the stem in lower case.
 */
#define SUFFIX_LISTS(X)                                                                            \
    X(SPEC, "ACT_WO", "ACT_W1C", "ACT_W1S", "ACT_LEVEL", "ACT_W0", "ACT_W1T")                      \
    X(HEADER, "H")                                                                                 \
    X(REG, "WIDTH", "SIZE", "RESET", "MBZ_MASK", "MB1_MASK", "IGNORED_MASK", "RO_MASK", "WO_MASK", \
      "W1C_MASK", "W1S_MASK", "WRITABLE_MASK", "KEEP_MASK", "LEVELS_MASK", "PRESERVE_MASK",        \
      "write_value")                                                                               \
    X(REG_EFFECTS, "W0_MASK", "W1T_MASK", "WANY_MASK", "ONCE_MASK")                                \
    X(ADDR, "ADDR")                                                                                \
    X(ADDR_FN, "addr", "ADDR_C")                                                                   \
    X(ARRAY, "FIRST", "COUNT")                                                                     \
    X(STRIDE, "STRIDE")                                                                            \
    X(OFFSET, "offset")                                                                            \
    X(FIELD, "SHIFT", "WIDTH", "MASK", "MAX", "RESET", "GET", "SET", "VAL", "get", "set", "val")   \
    X(RULES, "RULES", "check", "rule_message")                                                     \
    X(RULE, NULL, "MESSAGE")                                                                       \
    X(EVENT, NULL, "CODE", "UMASK", "COUNTERS")                                                    \
    X(BLOCK, "NINSTANCES")                                                                         \
    X(BASE, "BASE")                                                                                \
    X(PCI, "VENDOR", "DEVICE")                                                                     \
    X(DEV, "DEV")                                                                                  \
    X(FUNC, "FUNC")                                                                                \
    X(METRIC, "UNIT", "SCALE", "NEVENTS", "EVENTS")

#define SUFFIX_ARRAY(id, ...) static const char *const sfx_##id[] = {__VA_ARGS__};
SUFFIX_LISTS(SUFFIX_ARRAY)
#define SUFFIX_ENUM(id, ...) SFX_##id,
enum suffix_list { SUFFIX_LISTS(SUFFIX_ENUM) SFX_NLISTS };
#define SUFFIX_ENTRY(id, ...) {sfx_##id, sizeof(sfx_##id) / sizeof(sfx_##id[0])},
static const struct {
    const char *const *sfx;
    size_t n;
} suffix_lists[SFX_NLISTS] = {SUFFIX_LISTS(SUFFIX_ENTRY)};
enum { SUFFIX_MAX = 16 }; /* the longest list, rounded up (REG: 15) */
#define SUFFIX_FITS(id, ...)                                                                       \
    _Static_assert(sizeof(sfx_##id) / sizeof(sfx_##id[0]) <= SUFFIX_MAX, "SUFFIX_MAX too small");
SUFFIX_LISTS(SUFFIX_FITS)

/* A suffix as hash steps: stem "_" suffix hashes to stem * mul + add. */
struct suffix_hash {
    uint64_t mul, add;
    bool lower; /* a function: from the stem's lower-case hash */
};

/* Where names_foreach_hashes() keeps the hashes until it hands them on. */
struct hash_batch {
    names_hashes_fn *fn;
    void *ctx;
    size_t n;
    uint64_t h[256];
    struct suffix_hash sfx[SFX_NLISTS][SUFFIX_MAX];
    unsigned char upper[256], lower[256]; /* upper_c() and lower_c() of each byte: no branches */
};

static void batch_init(struct hash_batch *hb)
{
    for (int c = 0; c < 256; c++) {
        hb->upper[c] = (unsigned char)upper_c((char)c);
        hb->lower[c] = (unsigned char)lower_c((char)c);
    }
    for (int l = 0; l < SFX_NLISTS; l++)
        for (size_t i = 0; i < suffix_lists[l].n; i++) {
            const char *s = suffix_lists[l].sfx[i];
            struct suffix_hash *sh = &hb->sfx[l][i];
            *sh = (struct suffix_hash){1, 0, false};
            if (!s)
                continue;
            sh->lower = islower((unsigned char)s[0]);
            sh->add = hash_more('_', s, same_c);
            for (size_t k = 0, len = strlen(s); k <= len; k++) /* B^(1 + |s|): "_" and s */
                sh->mul *= NAMES_HASH_BASE;
        }
}

/* Hands the hashes kept on when fewer than 'room' more would fit. */
static void batch_room(struct hash_batch *hb, size_t room)
{
    if (hb->n + room > sizeof(hb->h) / sizeof(hb->h[0])) {
        hb->fn(hb->ctx, hb->h, hb->n);
        hb->n = 0;
    }
}
/* ---------------------------------------------------------------- end of names by hash */

/* One walk over every name: each made and passed to 'fn', or only hashed into 'hb'. */
struct emitter {
    struct arena *a;    /* a register's names, or a block's: cleared for each */
    struct arena *keep; /* the stems of the spec and of each block: kept for the walk */
    names_fn *fn;
    void *ctx;
    struct hash_batch *hb; /* instead of 'fn': names_foreach_hashes() */
};

/*
 * What names go on from: a stem's text, or (hashed) the hashes of its text
 * in upper and in lower case, with no text made.
 */
struct stem {
    const char *s;
    uint64_t h, hl;
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

/* The spec's prefix upper-cased: the stem of every name. */
static struct stem stem_prefix(const struct emitter *em, const char *prefix)
{
    if (!em->hb)
        return (struct stem){names_upper(em->keep, prefix), 0, 0};
    return (struct stem){NULL, hash_more(0, prefix, upper_c), hash_more(0, prefix, lower_c)};
}

/* 'st' "_" 'part' upper-cased, as UPPER_JOIN() makes it; its text in 'a'. */
static struct stem stem_in(const struct emitter *em, struct arena *a, const struct stem *st,
                           const char *part)
{
    if (!em->hb)
        return (struct stem){upper_after(a, st->s, "_", part), 0, 0};
    const struct hash_batch *hb = em->hb;
    uint64_t h = st->h * NAMES_HASH_BASE + '_', hl = st->hl * NAMES_HASH_BASE + '_';
    for (const unsigned char *p = (const unsigned char *)part; *p; p++) { /* both in one pass */
        h = h * NAMES_HASH_BASE + hb->upper[*p];
        hl = hl * NAMES_HASH_BASE + hb->lower[*p];
    }
    return (struct stem){NULL, h, hl};
}

/* The same, its text cleared with the register's names. */
static struct stem stem_join(const struct emitter *em, const struct stem *st, const char *part)
{
    return stem_in(em, em->a, st, part);
}

/* The names 'st' + "_" + each suffix of 'list', with 'pos'. */
static void emit_names(const struct emitter *em, const struct stem *st, enum suffix_list list,
                       struct srcpos pos)
{
    const char *const *suffixes = suffix_lists[list].sfx;
    size_t n = suffix_lists[list].n;
    char *lower = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *sfx = suffixes[i];
        if (!sfx) {
            em->fn(em->ctx, st->s, pos);
        } else if (islower((unsigned char)sfx[0])) {
            if (!lower)
                lower = names_lower(em->a, st->s);
            em->fn(em->ctx, join(em->a, lower, sfx), pos);
        } else {
            em->fn(em->ctx, join(em->a, st->s, sfx), pos);
        }
    }
}

/* Inline: a call for each list of names cost a fifth of the hashed walk. */
static inline void emit_list(const struct emitter *em, const struct stem *st, enum suffix_list list,
                             struct srcpos pos)
{
    struct hash_batch *hb = em->hb;
    if (!hb) {
        emit_names(em, st, list, pos);
        return;
    }
    size_t n = suffix_lists[list].n;
    batch_room(hb, n);
    for (size_t i = 0; i < n; i++) {
        const struct suffix_hash *sh = &hb->sfx[list][i];
        hb->h[hb->n++] = hash_final((sh->lower ? st->hl : st->h) * sh->mul + sh->add);
    }
}

#define EMIT(em, stem, pos, list) emit_list((em), (stem), SFX_##list, (pos))

/* The stem alone (a value, an instance): emit_list() for one name, without the list. */
static void emit_stem(const struct emitter *em, const struct stem *st, struct srcpos pos)
{
    struct hash_batch *hb = em->hb;
    if (!hb) {
        em->fn(em->ctx, st->s, pos);
        return;
    }
    batch_room(hb, 1);
    hb->h[hb->n++] = hash_final(st->h);
}

/* The names of f's values: stem + infix + the value's name. */
static void foreach_value(const struct emitter *em, const struct stem *field,
                          const struct model_field *f)
{
    /* SVD values are named Set, Mask, Reset...: "_V_" keeps them apart from the field's macros */
    struct stem v_stem, st = *field;
    if (qualified(f->reg)) {
        v_stem = stem_join(em, field, "V");
        st = v_stem;
    }
    for (size_t i = 0; i < f->nvalues; i++) {
        struct stem v = stem_join(em, &st, f->values[i]->name);
        emit_stem(em, &v, f->values[i]->pos);
    }
}

static void foreach_field(const struct emitter *em, const struct stem *reg,
                          const struct model_field *f)
{
    if (model_field_is_reserved(f))
        return;
    struct stem st = stem_join(em, reg, f->name);
    EMIT(em, &st, f->pos, FIELD);
    foreach_value(em, &st, f);
}

/* 'stem': the register's block qualified or not (names_reg()). */
static void foreach_reg(const struct emitter *em, const struct stem *stem,
                        const struct model_reg *r)
{
    struct stem st = stem_join(em, stem, r->name);
    EMIT(em, &st, r->pos, REG);
    struct model_masks m = model_reg_masks(r); /* the write side effects' masks: when present */
    if (m.w0 | m.w1t | m.wany | m.once)
        EMIT(em, &st, r->pos, REG_EFFECTS);
    const struct model_block *b = r->block;
    bool uniform = names_reg_uniform(r);
    if (!r->is_array && uniform)
        EMIT(em, &st, r->pos, ADDR);
    else
        EMIT(em, &st, r->pos, ADDR_FN);
    if (r->is_array)
        EMIT(em, &st, r->pos, ARRAY);
    if (r->is_array && !r->addrs)
        EMIT(em, &st, r->pos, STRIDE);
    if (r->addrs)
        EMIT(em, &st, r->pos, OFFSET);
    if (!uniform)
        for (size_t i = 0; i < b->ninstances; i++) {
            struct stem at = stem_join(em, &st, b->instances[i]->name);
            EMIT(em, &at, r->pos, ADDR);
        }
    for (size_t i = 0; i < r->nfields; i++)
        foreach_field(em, &st, r->fields[i]);
    if (r->nrules > 0)
        EMIT(em, &st, r->pos, RULES);
    if (r->nrules > 0) {
        struct stem rules = stem_join(em, &st, "RULE");
        for (size_t i = 0; i < r->nrules; i++) {
            struct stem rule = stem_join(em, &rules, r->rules[i]->name);
            EMIT(em, &rule, r->rules[i]->pos, RULE);
        }
    }
}

/* 'ev': PREFIX_EV_BLOCK, the stem of the block's events. */
static void foreach_event(const struct emitter *em, const struct stem *ev,
                          const struct model_event *e)
{
    struct stem st = stem_join(em, ev, e->full_name);
    EMIT(em, &st, e->pos, EVENT);
    for (size_t i = 0; i < e->nsubs; i++)
        foreach_event(em, ev, e->subs[i]);
}

/* 'prefix': the prefix's stem; 'ev': PREFIX_EV. */
static void foreach_block(const struct emitter *em, const struct stem *prefix,
                          const struct stem *ev, const struct model_block *blk)
{
    struct stem st = stem_in(em, em->keep, prefix, blk->name); /* names_block() */
    if (blk->ninstances > 0)
        EMIT(em, &st, blk->pos, BLOCK);
    for (size_t i = 0; i < blk->ninstances; i++) {
        const struct model_instance *inst = blk->instances[i];
        /* an SVD instance is a peripheral: its name is unique in the device (names_instance()) */
        struct stem is = stem_join(em, blk->names_qualified ? prefix : &st, inst->name);
        emit_stem(em, &is, inst->pos);
        if (inst->has_base)
            EMIT(em, &is, inst->pos, BASE);
        if (inst->has_pci)
            EMIT(em, &is, inst->pos, PCI);
        if (inst->has_pci && inst->has_dev)
            EMIT(em, &is, inst->pos, DEV);
        if (inst->has_pci && inst->has_func)
            EMIT(em, &is, inst->pos, FUNC);
    }
    const struct stem *reg_stem = blk->names_qualified ? &st : prefix; /* names_reg() */
    for (size_t i = 0; i < blk->nregs; i++) {
        /* a register's names at a time: one block may hold a million registers */
        arena_clear(em->a);
        foreach_reg(em, reg_stem, blk->regs[i]);
    }
    if (blk->nevent_tables == 0)
        return;
    struct stem evb = stem_in(em, em->keep, ev, blk->name);
    for (size_t t = 0; t < blk->nevent_tables; t++)
        for (size_t i = 0; i < blk->event_tables[t]->nevents; i++)
            foreach_event(em, &evb, blk->event_tables[t]->events[i]);
}

static void foreach_name(const struct emitter *em, const struct model_spec *s, const char *prefix)
{
    struct stem p = stem_prefix(em, prefix);
    EMIT(em, &p, s->pos, SPEC);
    struct stem spec = stem_join(em, &p, s->name);
    EMIT(em, &spec, s->pos, HEADER);
    struct stem ev = stem_in(em, em->keep, &p, "EV");
    for (size_t b = 0; b < s->nblocks; b++) {
        arena_clear(em->a);
        foreach_block(em, &p, &ev, s->blocks[b]);
    }
    struct stem metric = stem_in(em, em->keep, &p, "METRIC");
    for (size_t i = 0; i < s->nmetrics; i++)
        if (s->metrics[i]->name) {
            struct stem m = stem_join(em, &metric, s->metrics[i]->name);
            EMIT(em, &m, s->metrics[i]->pos, METRIC);
        }
}

void names_foreach(const struct model_spec *s, const char *prefix, names_fn *fn, void *ctx)
{
    /* the names of one register at a time: memory follows a register, not the spec */
    struct arena a = ARENA_INIT, keep = ARENA_INIT;
    const struct emitter em = {&a, &keep, fn, ctx, NULL};
    foreach_name(&em, s, prefix);
    arena_release(&a);
    arena_release(&keep);
}

void names_foreach_hashes(const struct model_spec *s, const char *prefix, names_hashes_fn *fn,
                          void *ctx)
{
    struct hash_batch *hb = xmalloc(sizeof(*hb));
    hb->fn = fn;
    hb->ctx = ctx;
    hb->n = 0;
    batch_init(hb);
    struct arena none = ARENA_INIT; /* hashed, no text is made */
    const struct emitter em = {&none, &none, NULL, NULL, hb};
    foreach_name(&em, s, prefix);
    arena_release(&none);
    if (hb->n > 0)
        fn(ctx, hb->h, hb->n);
    free(hb);
}

char *names_metric(struct arena *a, const char *prefix, const struct model_metric *m)
{
    return UPPER_JOIN(a, prefix, "METRIC", m->name);
}
