/*
 * check_collision - no two objects get the same generated C name (names.h).
 *
 * Two walks over the names. The first (names_foreach_hashes(), which
 * hashes the names without making them) keeps only each name's 64-bit
 * hash (8 bytes a name, no strings): a spec has some ten names per field,
 * so keeping the names themselves made this pass the compile's peak
 * memory. Kept in a set, the hashes show which occur more than once: when
 * no name is made twice, as good as never, the check ends there (with 32
 * bits an SVD device of 100,000 names had two names of one hash more often
 * than not, and paid a second walk for nothing). Otherwise the second walk
 * (names_foreach(), which makes the names) keeps, for those hashes only,
 * each name with where it was first made, and reports a name made again by
 * another object, in the order the names are made.
 *
 * The set's size is bounded (check_options' collision_budget, in slots, 3/4
 * of them filled at most): past it, the first walk keeps only the hashes of
 * one part (their low bits 0 of 2, 4, ...), and each other part takes a
 * walk of its own. A spec of millions of names walks its names a few more
 * times rather than holding 8 bytes of each (a million registers made some
 * 34 million: 272 MB, more than a quarter of the compile's peak); one of
 * up to three million names walks once.
 *
 * A threaded version (hashes sharded over -j jobs, 503 lines) saved less
 * than the 5% the speed rule asks for: docs/performance.md.
 */
#include "check_int.h"
#include "names.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/*
 * The hashes of one part (those whose low bits, h & (parts - 1), are 'part')
 * in a set: linear probing from the slot the top bits give (the low bits
 * pick the part). A hash found there already is a repeated one, kept in
 * 'twice'. A set rather than a sorted array: a name made again takes no
 * room, and there is no sort (a radix sort, 3.3M instructions of D1-H.svd's
 * 9.1M for this check: docs/performance.md).
 */
struct hashes {
    uint64_t *slot;         /* 'cap' slots, a power of two; 0: empty */
    size_t cap, n, full;    /* n: the hashes kept, at most 'full' (3/4 of cap) */
    size_t max_cap;         /* the budget (struct check_options) as a power of two */
    unsigned shift;         /* 64 - log2(cap): the top bits index a slot */
    bool zero;              /* hash 0 (which marks an empty slot) kept */
    uint32_t parts, part;   /* parts: a power of two */
    bool grow;              /* the first walk: halve the part when full rather than grow */
    struct regc_map *twice; /* the hashes kept more than once (keys in 'a') */
    struct arena *a;
};

static void hashes_alloc(struct hashes *hs, size_t cap)
{
    hs->slot = xcalloc(cap, sizeof(*hs->slot));
    hs->cap = cap;
    hs->full = cap / 4 * 3;
    hs->n = 0;
    hs->zero = false;
    hs->shift = 64;
    for (size_t c = cap; c > 1; c /= 2)
        hs->shift--;
}

static void twice_add(struct hashes *hs, uint64_t h)
{
    if (regc_map_find(hs->twice, &h, sizeof(h)))
        return;
    uint64_t *key = arena_alloc(hs->a, sizeof(*key));
    *key = h;
    bool found;
    xmap_put(hs->twice, key, sizeof(*key), &found);
}

/* Keeps 'h' (of this part, not 0) in a slot known to have room. Inline: once a name. */
static inline void slot_put(struct hashes *hs, uint64_t h)
{
    size_t i = (size_t)(h >> hs->shift);
    while (hs->slot[i] != 0) {
        if (hs->slot[i] == h) {
            twice_add(hs, h);
            return;
        }
        i = (i + 1) & (hs->cap - 1);
    }
    hs->slot[i] = h;
    hs->n++;
}

/* The table made anew with 'cap' slots, keeping the hashes of this part. */
static void rehash(struct hashes *hs, size_t cap)
{
    uint64_t *old = hs->slot;
    size_t old_cap = hs->cap;
    bool zero = hs->zero;
    hashes_alloc(hs, cap);
    hs->zero = zero && hs->part == 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i] != 0 && (old[i] & (hs->parts - 1)) == hs->part)
            slot_put(hs, old[i]);
    free(old);
}

/* Keeps 'h', of this part: the table grown, or the part halved when it holds the budget. */
static void hash_add(struct hashes *hs, uint64_t h)
{
    if (h == 0) {
        if (hs->zero)
            twice_add(hs, h);
        hs->zero = true;
        return;
    }
    if (hs->n >= hs->full) {
        if (hs->cap < hs->max_cap || !hs->grow || hs->parts >= 1u << 31) {
            rehash(hs, hs->cap * 2); /* a later walk's part over the budget: it grows */
        } else {
            hs->parts *= 2; /* part 0 of twice as many parts: keep the hashes in it */
            rehash(hs, hs->cap);
            if ((h & (hs->parts - 1)) != 0)
                return;
        }
    }
    slot_put(hs, h);
}

/* Keeps the hashes of this walk's part. */
static void hashes_add(void *ctx, const uint64_t *h, size_t n)
{
    struct hashes *hs = ctx;
    for (size_t i = 0; i < n; i++) {
        if ((h[i] & (hs->parts - 1)) != hs->part)
            continue;
        if (h[i] != 0 && hs->n < hs->full)
            slot_put(hs, h[i]); /* most hashes */
        else
            hash_add(hs, h[i]);
    }
}

/*
 * About how many names the spec makes (docs/c-header.md): the set sized
 * once for most specs, not grown from small.
 */
static size_t names_estimate(const struct model_spec *s)
{
    size_t n = 16;
    for (size_t b = 0; b < s->nblocks; b++) {
        const struct model_block *blk = s->blocks[b];
        n += 4 * blk->ninstances;
        for (size_t i = 0; i < blk->nregs; i++) {
            const struct model_reg *r = blk->regs[i];
            n += 20 + 3 * r->nrules;
            for (size_t k = 0; k < r->nfields; k++)
                n += 12 + r->fields[k]->nvalues;
        }
    }
    return n;
}

struct collision_ctx {
    struct check_ctx *c;
    struct regc_map *twice;       /* the hashes made more than once (hash_names()) */
    struct arena *a;              /* the names kept and their positions */
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
    if (!regc_map_find(cc->twice, &h, sizeof(h)))
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

/* The first walk: the hashes of C names made more than once, into 'twice' (keys in 'a'). */
static void hash_names(struct check_ctx *c, struct regc_map *twice, struct arena *a)
{
    size_t max_cap = 2;
    while (max_cap * 2 <= c->collision_budget)
        max_cap *= 2;
    size_t cap = 1024, want = names_estimate(c->s) / 3 * 4;
    while (cap < want && cap < max_cap)
        cap *= 2;
    struct hashes hs = {.max_cap = max_cap, .parts = 1, .grow = true, .twice = twice, .a = a};
    hashes_alloc(&hs, cap < max_cap ? cap : max_cap);
    for (;;) {
        names_foreach_hashes(c->s, c->s->prefix, hashes_add, &hs);
        if (++hs.part == hs.parts)
            break;
        memset(hs.slot, 0, hs.cap * sizeof(*hs.slot));
        hs.n = 0;
        hs.zero = false;
        hs.grow = false;
    }
    free(hs.slot);
    c->collision_parts = hs.parts;
}

/*
 * Duplicate names in one scope always collide too; those are reported once,
 * as duplicate-name, so this pass reports only when there were none.
 */
void check_name_collision(struct check_ctx *c)
{
    if (!c->s->prefix || c->dg->count[DIAG_DUPLICATE_NAME] > 0)
        return;
    struct regc_map twice = REGC_MAP_INIT;
    struct arena keys = ARENA_INIT;
    hash_names(c, &twice, &keys);
    if (twice.n > 0) {
        struct collision_ctx cc = {.c = c, .twice = &twice, .a = &keys, .seen = REGC_MAP_INIT};
        names_foreach(c->s, c->s->prefix, collision_add, &cc);
        regc_map_release(&cc.seen);
    }
    regc_map_release(&twice);
    arena_release(&keys);
}
