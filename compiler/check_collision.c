/*
 * check_collision - no two objects get the same generated C name (names.h).
 *
 * Two walks over the names. The first (names_foreach_hashes(), which
 * hashes the names without making them) keeps only each name's 64-bit
 * hash (8 bytes a name, no strings): a spec has some ten names per field,
 * so keeping the names themselves made this pass the compile's peak
 * memory. Sorted (a radix sort), the hashes show which occur more than
 * once: when no name is made twice, as good as never, and the check ends
 * there (with 32 bits an SVD device of 100,000 names had two names of one
 * hash more often than not, and paid a second walk for nothing). Otherwise
 * the second walk (names_foreach(), which makes the names) keeps, for
 * those hashes only, each name with where it was first made, and reports a
 * name made again by another object, in the order the names are made.
 *
 * The hashes kept at once are bounded (check_options' collision_budget): past it,
 * the first walk keeps only the hashes of one part (their low bits 0 of
 * 2, 4, ...), and each other part takes a walk of its own. A spec of
 * millions of names walks its names a few more times rather than holding
 * 8 bytes of each (a million registers made some 34 million: 272 MB, more
 * than a quarter of the compile's peak); one of up to four million names
 * walks once.
 *
 * A threaded version (hashes sharded over -j jobs, 503 lines) saved less
 * than the 5% the speed rule asks for: docs/performance.md.
 */
#include "check_int.h"
#include "names.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* The hashes of one part: those whose low bits (h & (parts - 1)) are 'part'. */
struct hashes {
    uint64_t *h;
    size_t n, cap;
    size_t budget;        /* the most kept at once (struct check_options) */
    uint32_t parts, part; /* parts: a power of two */
    bool grow;            /* the first walk: halve the part when full rather than grow */
};

/* Keeps 'h', of this part: the array grown, or the part halved when it holds the budget. */
static void hash_add(struct hashes *hs, uint64_t h)
{
    if (hs->grow && hs->n >= hs->budget && hs->parts < 1u << 31) {
        hs->parts *= 2; /* part 0 of twice as many parts: keep the hashes in it */
        size_t k = 0;
        for (size_t i = 0; i < hs->n; i++)
            if ((hs->h[i] & (hs->parts - 1)) == 0)
                hs->h[k++] = hs->h[i];
        /* a quarter or less of many dropped: the hashes repeat (one name made
         * again and again), and halving again would not help; the part grows */
        hs->grow = hs->n < 64 || k < hs->n - hs->n / 4;
        hs->n = k;
        if ((h & (hs->parts - 1)) != 0)
            return;
    }
    if (hs->n == hs->cap)
        hs->h = xgrow(hs->h, &hs->cap, hs->n + 1, sizeof(*hs->h));
    hs->h[hs->n++] = h;
}

/* Keeps the hashes of this walk's part. */
static void hashes_add(void *ctx, const uint64_t *h, size_t n)
{
    struct hashes *hs = ctx;
    if (hs->parts == 1 && hs->n + n <= hs->budget) { /* one part, room: all of them, at once */
        if (hs->n + n > hs->cap)
            hs->h = xgrow(hs->h, &hs->cap, hs->n + n, sizeof(*hs->h));
        memcpy(hs->h + hs->n, h, n * sizeof(*h));
        hs->n += n;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if ((h[i] & (hs->parts - 1)) != hs->part)
            continue;
        if (hs->n < hs->cap && (hs->n < hs->budget || !hs->grow))
            hs->h[hs->n++] = h[i]; /* room: most hashes, cheaply */
        else
            hash_add(hs, h[i]);
    }
}

struct collision_ctx {
    struct check_ctx *c;
    struct regc_map twice;        /* the hashes made more than once (keys: in the check's arena) */
    struct arena *a;              /* the repeated hashes, the names kept and their positions */
    struct regc_map seen;         /* name -> its first struct srcpos, for those hashes */
    struct srcpos last_a, last_b; /* the last pair reported, so one pair is reported once */
};

static bool same_pos(struct srcpos a, struct srcpos b)
{
    return a.file == b.file && a.line == b.line && a.col == b.col;
}

static void collision_add(void *ctx, const char *ident, struct srcpos pos)
{
    struct collision_ctx *cc = ctx;
    uint64_t h = names_hash64(ident);
    if (!regc_map_find(&cc->twice, &h, sizeof(h)))
        return;
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
    struct hashes hs = {.budget = c->collision_budget, .parts = 1, .grow = true};
    struct arena own = ARENA_INIT; /* the repeated hashes, the names kept */
    struct collision_ctx cc = {.c = c, .twice = REGC_MAP_INIT, .a = &own, .seen = REGC_MAP_INIT};
    for (;;) {
        names_foreach_hashes(c->s, c->s->prefix, hashes_add, &hs);
        if (hs.n > 1)
            util_sort_u64(hs.h, hs.n);
        for (size_t i = 1; i < hs.n; i++)
            if (hs.h[i] == hs.h[i - 1] && (i == 1 || hs.h[i - 2] != hs.h[i])) {
                uint64_t *key = arena_alloc(&own, sizeof(*key)); /* hs.h is reused */
                *key = hs.h[i];
                bool found;
                xmap_put(&cc.twice, key, sizeof(*key), &found);
            }
        if (++hs.part == hs.parts)
            break;
        hs.n = 0;
        hs.grow = false;
    }
    free(hs.h);
    c->collision_parts = hs.parts;
    if (cc.twice.n > 0) {
        names_foreach(c->s, c->s->prefix, collision_add, &cc);
        regc_map_release(&cc.seen);
    }
    regc_map_release(&cc.twice);
    arena_release(&own);
}
