/*
 * check_collision - no two objects get the same generated C name (names.h).
 *
 * names_foreach() gives a few hundred thousand names for a large spec, and a
 * spec rarely has a collision, so the check compares 64-bit hashes and keeps
 * no strings: only names whose hash was met before are made again and
 * compared as strings. Three steps:
 *
 *  1. hash: each job hashes the names of a run of consecutive blocks, in
 *     names_foreach() order, keeping each one's hash and position. Run 0
 *     starts with the names of the spec itself. One after the other, the runs
 *     are names_foreach()'s sequence (tests/unit/test_check.c holds names.c
 *     to that).
 *  2. find: job t indexes the hashes of its shard, walking the runs in order,
 *     and records each hash met before (a candidate) with the name that first
 *     had it. Shards share nothing, so they need no lock.
 *  3. report: the calling thread makes the candidates' names again, finds
 *     those that repeat an earlier name, and reports them in order, exactly
 *     as one walk over names_foreach() with a map of strings would.
 */
#include "check_int.h"
#include "jobs.h"
#include "names.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Below this many blocks, registers and fields, threads cost more than they save. */
#define SPLIT_MIN 2048

/*
 * One call of names_foreach(): the spec's own names (no blocks), or one
 * block's, after the spec's own, which it gives again and which are dropped.
 */
struct gen_seg {
    size_t block, nblocks; /* the blocks the call sees */
    size_t skip;           /* how many names it drops first */
    size_t from;           /* the run's index of its first name kept */
};

/* The names from 'from' on have 'pos' (a field's dozen names share one). */
struct gen_pos {
    size_t from;
    struct srcpos pos;
};

/* One job's part of the sequence. */
struct gen_run {
    struct gen_seg *segs;         /* owned */
    size_t nsegs, segs_cap, done; /* done: segments hashed before the jobs start */
    uint64_t *hash;               /* owned; one per name */
    size_t n, cap;
    struct gen_pos *pos; /* owned; where the position changes */
    size_t npos, pos_cap;
    size_t in_shard[REGC_MAX_JOBS]; /* names per shard, to size its index */
};

/* A name: the i-th of run 'run'. */
struct gen_ref {
    uint32_t run, i;
};

/* The hash of 'name' was first had by 'first'. */
struct gen_cand {
    struct gen_ref name, first;
};

/*
 * 8 bytes, and 1.5 slots a name: the index of a large spec is fresh memory,
 * and its page faults cost more than the probes.
 */
struct gen_slot {
    uint32_t tag; /* the hash's high half */
    uint32_t g1;  /* the name that had it first: its number in the sequence + 1; 0: empty */
};

struct gen_shard {
    struct gen_slot *slots; /* owned; allocated by the calling thread */
    size_t cap;
    struct gen_cand *cands; /* owned; in sequence order */
    size_t ncands, cands_cap;
};

struct gen_ctx {
    const struct model_spec *s;
    unsigned jobs;                  /* runs, and shards */
    size_t base[REGC_MAX_JOBS + 1]; /* the sequence number of each run's first name */
    struct gen_run runs[REGC_MAX_JOBS];
    struct gen_shard shards[REGC_MAX_JOBS];
};

/* The shard of a hash: its high half scaled to [0, n), no division. */
static unsigned shard_of(uint64_t hash, unsigned n)
{
    return (unsigned)(((hash >> 32) * n) >> 32);
}

static bool same_pos(struct srcpos a, struct srcpos b)
{
    return a.file == b.file && a.line == b.line && a.col == b.col;
}

/* 'v' (an owned array of 'size'-byte items holding 'n'), grown so one more fits. */
static void *grow(void *v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return v;
    *cap = *cap ? 2 * *cap : 64;
    return xrealloc(v, *cap * size);
}

/* names_foreach() for 'seg', its strings in 'a'. */
static void seg_foreach(const struct model_spec *s, const struct gen_seg *seg, struct arena *a,
                        names_fn *fn, void *ctx)
{
    struct model_spec view = *s;
    view.blocks = s->blocks + seg->block;
    view.nblocks = seg->nblocks;
    names_foreach(a, &view, s->prefix, fn, ctx);
}

/* ---------------------------------------------------------------- 1. hash */

struct hasher {
    struct gen_run *r;
    size_t skip;
    unsigned nshards;
};

static void hash_name(void *ctx, const char *ident, struct srcpos pos)
{
    struct hasher *h = ctx;
    struct gen_run *r = h->r;
    if (h->skip > 0) {
        h->skip--;
        return;
    }
    if (r->npos == 0 || !same_pos(r->pos[r->npos - 1].pos, pos)) {
        r->pos = grow(r->pos, &r->pos_cap, r->npos, sizeof(*r->pos));
        r->pos[r->npos++] = (struct gen_pos){r->n, pos};
    }
    r->hash = grow(r->hash, &r->cap, r->n, sizeof(*r->hash));
    uint64_t hv = check_hash_str(ident);
    r->hash[r->n++] = hv;
    r->in_shard[shard_of(hv, h->nshards)]++;
}

/* The strings live only while one segment is hashed. */
static void hash_seg(const struct gen_ctx *g, struct gen_run *r, struct gen_seg *seg)
{
    struct arena a = ARENA_INIT;
    struct hasher h = {r, seg->skip, g->jobs};
    seg->from = r->n;
    seg_foreach(g->s, seg, &a, hash_name, &h);
    arena_release(&a);
}

static void hash_run(void *arg, unsigned t)
{
    struct gen_ctx *g = arg;
    struct gen_run *r = &g->runs[t];
    for (size_t k = r->done; k < r->nsegs; k++)
        hash_seg(g, r, &r->segs[k]);
}

static void add_seg(struct gen_run *r, struct gen_seg seg)
{
    r->segs = grow(r->segs, &r->segs_cap, r->nsegs, sizeof(*r->segs));
    r->segs[r->nsegs++] = seg;
}

/* Registers and fields of a block: what its share of the names grows with. */
static size_t block_weight(const struct model_block *b)
{
    size_t w = 1 + b->ninstances;
    for (size_t i = 0; i < b->nregs; i++)
        w += 1 + b->regs[i]->nfields;
    return w;
}

/* How many jobs: 'jobs' at most, one per block at most, one for a small spec. */
static unsigned count_jobs(const struct model_spec *s, unsigned jobs, size_t total)
{
    if (total < SPLIT_MIN || jobs < 2)
        return 1;
    if (jobs > REGC_MAX_JOBS)
        jobs = REGC_MAX_JOBS;
    return s->nblocks < jobs ? (unsigned)s->nblocks : jobs; /* total > 0: a block at least */
}

/*
 * Hashes the spec's own names into run 0, then gives each run its blocks,
 * about an equal weight each, each dropping the spec's names again.
 */
static void plan_runs(struct gen_ctx *g, unsigned jobs)
{
    const struct model_spec *s = g->s;
    size_t total = 0, sum = 0, b = 0;
    for (size_t i = 0; i < s->nblocks; i++)
        total += block_weight(s->blocks[i]);
    g->jobs = count_jobs(s, jobs, total);
    add_seg(&g->runs[0], (struct gen_seg){0, 0, 0, 0});
    hash_seg(g, &g->runs[0], &g->runs[0].segs[0]);
    g->runs[0].done = 1;
    size_t skip = g->runs[0].n;
    for (unsigned t = 0; t < g->jobs; t++) {
        while (b < s->nblocks && (t + 1 == g->jobs || sum * g->jobs < total * (t + 1))) {
            add_seg(&g->runs[t], (struct gen_seg){b, 1, skip, 0});
            sum += block_weight(s->blocks[b++]);
        }
    }
}

/* ---------------------------------------------------------------- 2. find */

static void add_cand(struct gen_shard *sh, struct gen_cand c)
{
    sh->cands = grow(sh->cands, &sh->cands_cap, sh->ncands, sizeof(*sh->cands));
    sh->cands[sh->ncands++] = c;
}

/* The name numbered 'g' in the whole sequence. */
static struct gen_ref ref_of(const struct gen_ctx *g, size_t num)
{
    uint32_t r = 0;
    while (num >= g->base[r + 1])
        r++;
    return (struct gen_ref){r, (uint32_t)(num - g->base[r])};
}

static uint64_t hash_of(const struct gen_ctx *g, struct gen_ref ref)
{
    return g->runs[ref.run].hash[ref.i];
}

/* Indexes name i of run r, or records it as a candidate when its hash came before. */
static void find_one(const struct gen_ctx *g, struct gen_shard *sh, uint32_t r, uint32_t i)
{
    uint64_t h = g->runs[r].hash[i];
    uint32_t tag = (uint32_t)(h >> 32);
    size_t k = (size_t)(((h & UINT32_MAX) * sh->cap) >> 32); /* the low half, scaled */
    for (;; k = k + 1 == sh->cap ? 0 : k + 1) {
        struct gen_slot *sl = &sh->slots[k];
        if (!sl->g1) {
            *sl = (struct gen_slot){tag, (uint32_t)(g->base[r] + i + 1)};
            return;
        }
        if (sl->tag != tag)
            continue;
        struct gen_ref first = ref_of(g, sl->g1 - 1);
        if (hash_of(g, first) == h) {
            add_cand(sh, (struct gen_cand){{r, i}, first});
            return;
        }
    }
}

static void find_cands(void *arg, unsigned t)
{
    struct gen_ctx *g = arg;
    for (uint32_t r = 0; r < g->jobs; r++)
        for (uint32_t i = 0; i < g->runs[r].n; i++)
            if (shard_of(g->runs[r].hash[i], g->jobs) == t)
                find_one(g, &g->shards[t], r, i);
}

/*
 * Numbers the names, and allocates each shard's index here, so that it comes
 * from the calling thread's heap.
 */
static void size_shards(struct gen_ctx *g)
{
    for (unsigned r = 0; r < g->jobs; r++)
        g->base[r + 1] = g->base[r] + g->runs[r].n;
    if (g->base[g->jobs] >= UINT32_MAX)
        BUG("more generated names than a gen_slot numbers");
    for (unsigned t = 0; t < g->jobs; t++) {
        size_t n = 0;
        for (unsigned r = 0; r < g->jobs; r++)
            n += g->runs[r].in_shard[t];
        g->shards[t].cap = n + n / 2 + 1;
        g->shards[t].slots = xcalloc(g->shards[t].cap, sizeof(*g->shards[t].slots));
    }
}

/* -------------------------------------------------------------- 3. report */

/* A name a candidate needs, made again. */
struct gen_need {
    struct gen_ref ref;
    const char *ident; /* owned by the report's arena */
};

static int cmp_ref(struct gen_ref a, struct gen_ref b)
{
    if (a.run != b.run)
        return a.run < b.run ? -1 : 1;
    return a.i < b.i ? -1 : a.i > b.i;
}

static int cmp_cand(const void *a, const void *b)
{
    return cmp_ref(((const struct gen_cand *)a)->name, ((const struct gen_cand *)b)->name);
}

static int cmp_need(const void *a, const void *b)
{
    return cmp_ref(((const struct gen_need *)a)->ref, ((const struct gen_need *)b)->ref);
}

static size_t count_cands(const struct gen_ctx *g)
{
    size_t n = 0;
    for (unsigned t = 0; t < g->jobs; t++)
        n += g->shards[t].ncands;
    return n;
}

/* Every shard's candidates ('n' of them, at least one), in sequence order; caller frees. */
static struct gen_cand *all_cands(const struct gen_ctx *g, size_t n)
{
    struct gen_cand *v = xmalloc(n * sizeof(*v)), *p = v;
    for (unsigned t = 0; t < g->jobs; t++) {
        if (g->shards[t].ncands)
            memcpy(p, g->shards[t].cands, g->shards[t].ncands * sizeof(*p));
        p += g->shards[t].ncands;
    }
    qsort(v, n, sizeof(*v), cmp_cand);
    return v;
}

/* The names the candidates name, sorted, each once; caller frees. */
static struct gen_need *needed(const struct gen_cand *c, size_t n, size_t *nneed)
{
    struct gen_need *v = xmalloc(2 * n * sizeof(*v));
    for (size_t i = 0; i < n; i++) {
        v[2 * i] = (struct gen_need){c[i].name, NULL};
        v[2 * i + 1] = (struct gen_need){c[i].first, NULL};
    }
    qsort(v, 2 * n, sizeof(*v), cmp_need);
    size_t k = 0;
    for (size_t i = 0; i < 2 * n; i++)
        if (k == 0 || cmp_ref(v[k - 1].ref, v[i].ref) != 0)
            v[k++] = v[i];
    *nneed = k;
    return v;
}

static const struct gen_need *find_need(const struct gen_need *v, size_t n, struct gen_ref ref)
{
    struct gen_need key = {ref, NULL};
    return bsearch(&key, v, n, sizeof(*v), cmp_need);
}

/* Takes the needed names of one segment as names_foreach() gives them again. */
struct taker {
    size_t skip, at;             /* names still to drop; the run's index of the next */
    struct gen_need *next, *end; /* the needed names of this run not yet taken */
};

static void take_name(void *ctx, const char *ident, struct srcpos pos)
{
    struct taker *tk = ctx;
    (void)pos;
    if (tk->skip > 0) {
        tk->skip--;
        return;
    }
    if (tk->next < tk->end && tk->next->ref.i == tk->at) {
        tk->next->ident = ident;
        tk->next++;
    }
    tk->at++;
}

/* Makes again the segments that hold a needed name, strings in 'a'. */
static void remake(const struct gen_ctx *g, struct gen_need *v, size_t n, struct arena *a)
{
    struct gen_need *p = v, *end = v + n;
    for (uint32_t r = 0; r < g->jobs; r++) {
        const struct gen_run *run = &g->runs[r];
        for (size_t k = 0; k < run->nsegs; k++) {
            const struct gen_seg *seg = &run->segs[k];
            size_t to = k + 1 < run->nsegs ? run->segs[k + 1].from : run->n;
            struct gen_need *q = p;
            while (q < end && q->ref.run == r && q->ref.i < to)
                q++;
            if (q == p)
                continue;
            struct taker tk = {seg->skip, seg->from, p, q};
            seg_foreach(g->s, seg, a, take_name, &tk);
            p = q;
        }
    }
}

static struct srcpos pos_of(const struct gen_ctx *g, struct gen_ref ref)
{
    const struct gen_run *r = &g->runs[ref.run];
    size_t lo = 0, hi = r->npos; /* the last change at or before ref.i */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->pos[mid].from <= ref.i)
            lo = mid;
        else
            hi = mid;
    }
    return r->pos[lo].pos;
}

/* What a walk with a map of strings reported; one pair of objects once while its names repeat. */
struct reporter {
    struct check_ctx *c;
    struct srcpos last_a, last_b;
};

static void report(struct reporter *rp, const struct gen_need *name, struct srcpos pos,
                   struct srcpos first)
{
    if (same_pos(first, pos) || (same_pos(rp->last_a, first) && same_pos(rp->last_b, pos)))
        return;
    rp->last_a = first;
    rp->last_b = pos;
    diag_report(rp->c->dg, DIAG_NAME_COLLISION, pos,
                "generated C name '%s' is also generated for another object", name->ident);
    diag_note(rp->c->dg, first, "'%s' first generated here", name->ident);
}

/* The entry of 'need' in the map of strings seen; *found when its string came before. */
static struct check_map_entry *see(const struct gen_ctx *g, struct check_map *seen,
                                   const struct gen_need *need, bool *found)
{
    struct check_map_entry *e =
        check_map_put_hashed(seen, need->ident, hash_of(g, need->ref), found);
    if (!*found)
        e->val = need;
    return e;
}

/*
 * Every name with a given hash is the one that first had it or a candidate
 * naming that one, so putting each candidate's first name into the map just
 * before the candidate keeps the map in sequence order for those strings.
 */
static void report_cands(struct check_ctx *c, const struct gen_ctx *g)
{
    size_t n = count_cands(g), nneed;
    if (n == 0)
        return;
    struct gen_cand *cands = all_cands(g, n);
    struct gen_need *need = needed(cands, n, &nneed);
    struct arena a = ARENA_INIT;
    remake(g, need, nneed, &a);
    struct check_map seen;
    check_map_init(&seen);
    struct reporter rp = {c, {0, 0, 0}, {0, 0, 0}};
    for (size_t i = 0; i < n; i++) {
        bool found;
        see(g, &seen, find_need(need, nneed, cands[i].first), &found);
        const struct gen_need *name = find_need(need, nneed, cands[i].name);
        struct check_map_entry *e = see(g, &seen, name, &found);
        if (found)
            report(&rp, name, pos_of(g, name->ref),
                   pos_of(g, ((const struct gen_need *)e->val)->ref));
    }
    check_map_release(&seen);
    arena_release(&a);
    free(need);
    free(cands);
}

/* ------------------------------------------------------------------ driver */

static void gen_release(struct gen_ctx *g)
{
    for (unsigned t = 0; t < REGC_MAX_JOBS; t++) {
        free(g->runs[t].segs);
        free(g->runs[t].hash);
        free(g->runs[t].pos);
        free(g->shards[t].slots);
        free(g->shards[t].cands);
    }
}

/*
 * Duplicate names in one scope always collide too; those are reported once,
 * as duplicate-name, so this pass runs only when there were none.
 */
void check_name_collision(struct check_ctx *c, unsigned jobs)
{
    if (c->dg->count[DIAG_DUPLICATE_NAME] > 0 || !c->s->prefix)
        return;
    struct gen_ctx *g = xcalloc(1, sizeof(*g));
    g->s = c->s;
    plan_runs(g, jobs);
    jobs_run(g->jobs, hash_run, g);
    size_shards(g);
    jobs_run(g->jobs, find_cands, g);
    report_cands(c, g);
    gen_release(g);
    free(g);
}
