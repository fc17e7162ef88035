/*
 * derive - SVD's scoping rules for derivedFrom names, on a tree given by calls
 * (derive.h).
 */
#include "derive.h"
#include "fatal.h"

#include <string.h>

/* Kinds a derivedFrom of kind 'want' may name: a register or a cluster for either. */
static bool kind_fits(enum derive_kind want, enum derive_kind k)
{
    if (want == DERIVE_REG || want == DERIVE_CLUSTER)
        return k == DERIVE_REG || k == DERIVE_CLUSTER;
    return want == k;
}

static const struct derive_ref none = {DERIVE_NONE, NULL, NULL};

/* The kind a kid of kind 'k' is indexed under: one for registers and clusters (kind_fits). */
static enum derive_kind kind_class(enum derive_kind k)
{
    return k == DERIVE_CLUSTER ? DERIVE_REG : k;
}

static bool is_named(const struct derive_tree *t, struct derive_ref k, const char *name, size_t len)
{
    struct derive_name names[DERIVE_MAX_NAMES];
    bool list = false;
    size_t n = t->names(t, k, names, &list);
    for (size_t i = 0; i < n; i++)
        if (names[i].len == len && memcmp(names[i].s, name, len) == 0)
            return true;
    return list && t->is_element(t, k, name, len);
}

/* ---------------------------------------------------------------- the index */

/* A kid and its place among its scope's kids. */
struct placed_kid {
    struct derive_ref kid;
    size_t place;
    unsigned gen; /* in the kids map: valid while this is its scope's generation */
};

/* An indexed scope: what its kids' stamp was, the generation of its kids' entries, and its
 * kids that are lists (their elements' names are not in the map: each is asked). */
struct scope_index {
    const void *obj; /* the key's bytes */
    const void *stamp;
    unsigned gen;
    struct placed_kid **lists;
    size_t nlists, cap;
};

void derive_index_init(struct derive_index *x)
{
    regc_map_init(&x->scopes);
    regc_map_init(&x->kids);
    arena_init(&x->a);
    buf_init(&x->key);
}

void derive_index_release(struct derive_index *x)
{
    regc_map_release(&x->scopes);
    regc_map_release(&x->kids);
    arena_release(&x->a);
    buf_release(&x->key);
}

/* x->key := the kids map's key for 'name' ('len' bytes) of kind 'kind' under 'scope'. */
static void kid_key(struct derive_index *x, const void *scope, enum derive_kind kind,
                    const char *name, size_t len)
{
    unsigned char k = (unsigned char)kind_class(kind);
    buf_reset(&x->key);
    buf_addn(&x->key, (const char *)&scope, sizeof(scope));
    buf_addn(&x->key, (const char *)&k, 1);
    buf_addn(&x->key, name, len);
}

/* Indexes the kids of 'in' anew in 's': the first kid of a kind and name wins. */
static void index_kids(const struct derive_tree *t, struct derive_ref in, struct scope_index *s)
{
    struct derive_index *x = t->index;
    struct derive_cursor at = {0, 0, 0};
    s->gen++;
    s->nlists = 0;
    size_t place = 0;
    for (struct derive_ref k = t->kid(t, in, &at); k.kind != DERIVE_NONE;
         k = t->kid(t, in, &at), place++) {
        struct derive_name names[DERIVE_MAX_NAMES];
        bool list = false;
        size_t n = t->names(t, k, names, &list);
        for (size_t i = 0; i < n; i++) {
            kid_key(x, in.obj, k.kind, names[i].s, names[i].len);
            bool found;
            struct regc_map_entry *e = xmap_put(&x->kids, x->key.s, x->key.len, &found);
            if (!found) {
                char *key = arena_alloc_bytes(&x->a, x->key.len);
                memcpy(key, x->key.s, x->key.len);
                e->key = key;
                e->val = arena_alloc(&x->a, sizeof(struct placed_kid));
            } else if (((struct placed_kid *)e->val)->gen == s->gen) {
                continue; /* an earlier kid has the name */
            }
            *(struct placed_kid *)e->val = (struct placed_kid){k, place, s->gen};
        }
        if (list) {
            struct placed_kid *l = arena_alloc(&x->a, sizeof(*l));
            *l = (struct placed_kid){k, place, s->gen};
            arena_push(&x->a, (void ***)&s->lists, &s->nlists, &s->cap, l);
        }
    }
}

/* The index of the kids of 'in', made (again) when its kids are new. */
static const struct scope_index *scope_index(const struct derive_tree *t, struct derive_ref in)
{
    struct derive_index *x = t->index;
    const void *stamp = t->kids_stamp ? t->kids_stamp(t, in) : NULL;
    bool found;
    struct regc_map_entry *e = xmap_put(&x->scopes, &in.obj, sizeof(in.obj), &found);
    struct scope_index *s = e->val;
    if (found && s->stamp == stamp)
        return s;
    if (!found) {
        s = arena_zalloc(&x->a, sizeof(*s));
        s->obj = in.obj;
        e->key = &s->obj;
        e->val = s;
    }
    s->stamp = stamp;
    index_kids(t, in, s);
    return s;
}

/* The kid of 'in' named 'name' (its first 'len' bytes) of a kind 'kind' fits. */
static struct derive_ref find_kid(const struct derive_tree *t, struct derive_ref in,
                                  const char *name, size_t len, enum derive_kind kind)
{
    if (in.kind == DERIVE_NONE)
        return none;
    if (t->index) {
        const struct scope_index *s = scope_index(t, in);
        kid_key(t->index, in.obj, kind, name, len);
        struct regc_map_entry *e = regc_map_find(&t->index->kids, t->index->key.s, t->index->key.len);
        const struct placed_kid *k = e ? e->val : NULL;
        if (k && k->gen != s->gen)
            k = NULL;
        /* a list before it whose element has the name comes first, as in the walk */
        for (size_t i = 0; i < s->nlists && (!k || s->lists[i]->place < k->place); i++)
            if (kind_fits(kind, s->lists[i]->kid.kind) &&
                t->is_element(t, s->lists[i]->kid, name, len))
                return s->lists[i]->kid;
        return k ? k->kid : none;
    }
    struct derive_cursor at = {0, 0, 0};
    for (struct derive_ref k = t->kid(t, in, &at); k.kind != DERIVE_NONE; k = t->kid(t, in, &at))
        if (kind_fits(kind, k.kind) && is_named(t, k, name, len))
            return k;
    return none;
}

/* The first node of a kind 'kind' fits named 'name' under 'n' (depth first), other than 'self'.
 * Enumeration sets hold no such node: not entered. */
static struct derive_ref find_under(const struct derive_tree *t, struct derive_ref n,
                                    const char *name, enum derive_kind kind, struct derive_ref self)
{
    struct derive_cursor at = {0, 0, 0};
    for (struct derive_ref k = t->kid(t, n, &at); k.kind != DERIVE_NONE; k = t->kid(t, n, &at)) {
        if (kind_fits(kind, k.kind) && !derive_same(k, self) &&
            is_named(t, k, name, strlen(name)))
            return k;
        if (k.kind != DERIVE_ENUMS && k.kind != DERIVE_OTHER) {
            struct derive_ref e = find_under(t, k, name, kind, self);
            if (e.kind != DERIVE_NONE)
                return e;
        }
    }
    return none;
}

/* The kind the first part of a path names under 'at'. */
static enum derive_kind first_step(enum derive_kind at)
{
    return at == DERIVE_DEVICE ? DERIVE_PERIPH : at == DERIVE_REG ? DERIVE_FIELD : DERIVE_REG;
}

/* A dotted path under 'at': [PERIPH.]CLUSTER....NAME; the last part of kind 'kind'. */
static struct derive_ref find_path(const struct derive_tree *t, struct derive_ref at,
                                   const char *path, enum derive_kind kind)
{
    const char *p = path;
    enum derive_kind step = first_step(at.kind);
    while (at.kind != DERIVE_NONE) {
        const char *dot = strchr(p, '.');
        if (t->enter)
            t->enter(t, at);
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        if (!dot) {
            if (kind == DERIVE_ENUMS)
                return find_under(t, at, p, kind, none);
            return find_kid(t, at, p, len, kind);
        }
        at = find_kid(t, at, p, len, step);
        step = at.kind == DERIVE_REG ? DERIVE_FIELD : DERIVE_REG; /* or a cluster */
        p = dot + 1;
    }
    return none;
}

/* A plain name in d's scope: a sibling; for an enumeration set, any set of its register, then
 * of its peripheral. */
static struct derive_ref find_in_scope(const struct derive_tree *t, struct derive_ref d,
                                       const char *name)
{
    if (d.kind != DERIVE_ENUMS)
        return find_kid(t, t->parent(t, d), name, strlen(name), d.kind);
    for (struct derive_ref up = t->parent(t, d); up.kind != DERIVE_NONE; up = t->parent(t, up))
        if (up.kind == DERIVE_REG || up.kind == DERIVE_PERIPH) {
            struct derive_ref b = find_under(t, up, name, DERIVE_ENUMS, d);
            if (b.kind != DERIVE_NONE)
                return b;
        }
    return none;
}

struct derive_ref derive_find_base(const struct derive_tree *t, struct derive_ref d,
                                   const char *name)
{
    struct derive_ref b = strchr(name, '.') ? none : find_in_scope(t, d, name);
    /* a path: from each enclosing peripheral or cluster outwards, then from the device */
    for (struct derive_ref up = t->parent(t, d); b.kind == DERIVE_NONE && up.kind != DERIVE_NONE;
         up = t->parent(t, up))
        if (up.kind == DERIVE_PERIPH || up.kind == DERIVE_CLUSTER || up.kind == DERIVE_DEVICE)
            b = find_path(t, up, name, d.kind);
    return derive_same(b, d) ? none : b;
}

struct derive_ref derive_find_anywhere(const struct derive_tree *t, struct derive_ref root,
                                       struct derive_ref d, const char *name)
{
    const char *dot = strrchr(name, '.');
    return find_under(t, root, dot ? dot + 1 : name, d.kind, d);
}

void derive_path(const struct derive_tree *t, struct derive_ref n, struct buf *out)
{
    struct derive_ref up = t->parent(t, n);
    if (up.kind != DERIVE_NONE && up.kind != DERIVE_DEVICE) {
        derive_path(t, up, out);
        buf_addc(out, '.');
    }
    buf_adds(out, t->name(t, n));
}
