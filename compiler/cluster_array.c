/*
 * cluster_array - places of a block and expanded cluster arrays (cluster_array.h).
 */
#include "cluster_array.h"

#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void push_index(size_t **v, size_t *n, size_t *cap, size_t i)
{
    if (*n == *cap)
        *v = xgrow(*v, cap, *n + 1, sizeof(**v));
    (*v)[(*n)++] = i;
}

size_t block_places_index(struct block_places *p, const struct model_cluster *const *cl)
{
    struct regc_map_entry *e = regc_map_find(&p->index, cl, sizeof(*cl));
    return e ? (size_t)(uintptr_t)e->val - 1 : p->b->nclusters;
}

struct block_kids *block_places_kids(struct block_places *p, const struct model_cluster *const *cl)
{
    if (!*cl)
        return &p->top;
    size_t k = block_places_index(p, cl);
    return k < p->b->nclusters ? &p->of[k] : &p->top;
}

void block_places_init(struct block_places *p, const struct model_block *b)
{
    p->b = b;
    p->top = (struct block_kids){0};
    p->of = xcalloc(b->nclusters ? b->nclusters : 1, sizeof(*p->of));
    regc_map_init(&p->index);
    for (size_t i = 0; i < b->nclusters; i++) {
        bool found;
        xmap_put(&p->index, &b->clusters[i], sizeof(b->clusters[i]), &found)->val =
            (void *)(uintptr_t)(i + 1);
    }
    for (size_t i = 0; i < b->nregs; i++) {
        const struct model_reg_ext *x = model_reg_ext(b->regs[i]);
        struct block_kids *k =
            block_places_kids(p, (const struct model_cluster *const *)&x->cluster);
        push_index(&k->regs, &k->nregs, &k->cap_regs, i);
    }
    for (size_t i = 0; i < b->nclusters; i++) {
        struct block_kids *k =
            block_places_kids(p, (const struct model_cluster *const *)&b->clusters[i]->parent);
        push_index(&k->cls, &k->ncls, &k->cap_cls, i);
    }
}

void block_places_release(struct block_places *p)
{
    for (size_t i = 0; i <= p->b->nclusters; i++) {
        struct block_kids *k = i < p->b->nclusters ? &p->of[i] : &p->top;
        free(k->regs);
        free(k->cls);
    }
    free(p->of);
    regc_map_release(&p->index);
}

size_t cluster_prefix_len(const struct model_cluster *cl)
{
    size_t n = 0;
    for (; cl; cl = cl->parent)
        n += strlen(cl->name) + 1;
    return n;
}

/* What a cluster holds, relative to 'base' and without the first 'skip' bytes of the names
 * ('later': an element after the first). */
static void signature(struct block_places *p, const struct model_cluster *cl, uint64_t base,
                      size_t skip, bool later, reg_sig_fn *sig, void *ctx, struct buf *out)
{
    const struct block_kids *k = block_places_kids(p, &cl);
    for (size_t i = 0; i < k->nregs; i++) {
        const struct model_reg *r = p->b->regs[k->regs[i]];
        buf_addf(out, "%s@%" PRIx64 "/%u/%u/%" PRIx64 "/",
                 strlen(r->name) > skip ? r->name + skip : "", r->address - base, r->size,
                 r->count, r->stride);
        sig(ctx, r, later, out);
        buf_adds(out, ":");
        for (size_t f = 0; f < r->nfields; f++)
            buf_addf(out, "%s=%u-%u,", r->fields[f]->name, r->fields[f]->lsb, r->fields[f]->msb);
    }
    for (size_t i = 0; i < k->ncls; i++) {
        const struct model_cluster *kc = p->b->clusters[k->cls[i]];
        buf_addf(out, "{%s@%" PRIx64 "/%u/%" PRIx64 " ", kc->written_name, kc->address - base,
                 kc->count, kc->stride);
        signature(p, kc, base, skip, later, sig, ctx, out);
        buf_adds(out, "}");
    }
}

size_t cluster_array_run(struct block_places *p, const struct block_kids *k, size_t i, bool lists,
                         reg_sig_fn *sig, void *ctx, uint64_t *stride)
{
    const struct model_cluster *first = p->b->clusters[k->cls[i]];
    const char *w = first->written_name;
    if (first->count > 1 || !w || !(strstr(w, "[%s]") || (lists && strstr(w, "%s"))))
        return 1;
    struct buf want = BUF_INIT, got = BUF_INIT;
    signature(p, first, first->address, cluster_prefix_len(first), false, sig, ctx, &want);
    size_t n = 1;
    for (; i + n < k->ncls; n++) {
        const struct model_cluster *next = p->b->clusters[k->cls[i + n]];
        const struct model_cluster *prev = p->b->clusters[k->cls[i + n - 1]];
        if (next->count > 1 || !next->written_name ||
            strcmp(next->written_name, first->written_name) != 0 ||
            next->address <= prev->address || (n > 1 && next->address - prev->address != *stride))
            break;
        buf_reset(&got);
        signature(p, next, next->address, cluster_prefix_len(next), true, sig, ctx, &got);
        if (got.len != want.len || memcmp(got.s, want.s, want.len) != 0)
            break;
        *stride = next->address - prev->address;
    }
    buf_release(&want);
    buf_release(&got);
    return n;
}

const char *cluster_array_name(struct arena *a, const struct model_cluster *cl)
{
    const char *w = cl->written_name, *at = w ? strstr(w, "[%s]") : NULL;
    size_t len = 4;
    if (!at && w && (at = strstr(w, "%s")) != NULL)
        len = 2; /* an element of a "NAME%s" list */
    return at ? arena_printf(a, "%.*s%s", (int)(at - w), w, at + len) : cl->name;
}
