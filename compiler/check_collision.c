/*
 * check_collision - no two objects get the same generated C name (names.h).
 *
 * Two walks over names_foreach_hash(), which hashes the names without
 * making them. The first keeps only 32 bits of each name's hash (4 bytes a
 * name, no strings): a spec has some ten names per field, so
 * keeping the names themselves made this pass the compile's peak memory.
 * Sorted (a radix sort), the hashes show which occur more than once: in a real spec
 * (thousands of names) almost never, and the check ends there; a million
 * fields give some thousands of repeated hashes of different names, which
 * the second walk tells apart. Otherwise the second walk keeps, for those
 * hashes only, each name with where it was first made, and reports a name
 * made again by another object, in the order the names are made.
 *
 * A threaded version (hashes sharded over -j jobs, 503 lines) saved less
 * than the 5% the speed rule asks for: docs/performance.md.
 */
#include "check_int.h"
#include "names.h"
#include "util.h"

#include <stdlib.h>

struct hashes {
    uint32_t *h;
    size_t n, cap;
};

static void hash_add(void *ctx, uint32_t h, const struct names_lazy *name, struct srcpos pos)
{
    (void)name;
    (void)pos;
    struct hashes *hs = ctx;
    if (hs->n == hs->cap)
        hs->h = xgrow(hs->h, &hs->cap, hs->n + 1, sizeof(*hs->h));
    hs->h[hs->n++] = h;
}

struct collision_ctx {
    struct check_ctx *c;
    struct regc_map twice;        /* the hashes made more than once (keys: into struct hashes) */
    struct arena *a;              /* the names kept and their positions */
    struct regc_map seen;         /* name -> its first struct srcpos, for those hashes */
    struct srcpos last_a, last_b; /* the last pair reported, so one pair is reported once */
};

static bool same_pos(struct srcpos a, struct srcpos b)
{
    return a.file == b.file && a.line == b.line && a.col == b.col;
}

static void collision_add(void *ctx, uint32_t h, const struct names_lazy *name, struct srcpos pos)
{
    struct collision_ctx *cc = ctx;
    if (!regc_map_find(&cc->twice, &h, sizeof(h)))
        return;
    const char *ident = names_lazy_text(name);
    bool found;
    struct regc_map_entry *e = xmap_put_str(&cc->seen, arena_strdup(cc->a, ident), &found);
    if (!found) {
        struct srcpos *first = arena_alloc(cc->a, sizeof(*first));
        *first = pos;
        e->val = first;
        return;
    }
    struct srcpos first = *(const struct srcpos *)e->val;
    if (same_pos(first, pos) || (same_pos(cc->last_a, first) && same_pos(cc->last_b, pos)))
        return;
    cc->last_a = first;
    cc->last_b = pos;
    diag_report(cc->c->dg, DIAG_NAME_COLLISION, pos,
                "generated C name '%s' is also generated for another object", ident);
    diag_note(cc->c->dg, first, "'%s' first generated here", ident);
}

/*
 * Duplicate names in one scope always collide too; those are reported once,
 * as duplicate-name, so this pass runs only when there were none.
 */
void check_name_collision(struct check_ctx *c)
{
    if (c->dg->count[DIAG_DUPLICATE_NAME] > 0 || !c->s->prefix)
        return;
    struct hashes hs = {NULL, 0, 0};
    names_foreach_hash(c->s, c->s->prefix, hash_add, &hs);
    if (hs.n > 1)
        util_sort_u32(hs.h, hs.n);
    struct collision_ctx cc = {.c = c, .twice = REGC_MAP_INIT, .seen = REGC_MAP_INIT};
    for (size_t i = 1; i < hs.n; i++)
        if (hs.h[i] == hs.h[i - 1] && (i == 1 || hs.h[i - 2] != hs.h[i])) {
            bool found;
            xmap_put(&cc.twice, &hs.h[i], sizeof(hs.h[i]), &found);
        }
    if (cc.twice.n > 0) {
        struct arena names = ARENA_INIT;
        cc.a = &names;
        names_foreach_hash(c->s, c->s->prefix, collision_add, &cc);
        regc_map_release(&cc.seen);
        arena_release(&names);
    }
    regc_map_release(&cc.twice);
    free(hs.h); /* after the map: its keys point into it */
}
