/*
 * svd_derive - resolves derivedFrom on the SVD tree.
 *
 * A derived object is a copy of its base with its own elements on top, as
 * the SVD specification says: every simple element it does not give comes
 * from the base (not its name, its alternates or, for a peripheral, its
 * interrupts; its array only when it writes no dim element of its own,
 * as svdconv's SvdItem::CopyDim does), and its registers, clusters and fields are
 * the base's with its own replacing those of the same name and adding the
 * rest; enumerated values and address blocks it gives replace the base's.
 * The base may come later in the file, be derived itself (chains), be
 * named by a path ("PERIPH.REG", "PERIPH.CLUSTER.REG.FIELD"); a base that
 * names nothing, or a chain that comes back to itself, is an error naming
 * both places. The kids a copy takes are shared with the base, not cloned:
 * the model builder reads them and never writes.
 */
#include "svd_int.h"
#include "util.h"

#include <string.h>

static const char *name_of(const struct svd_node *n)
{
    return n->text[SVD_T_NAME] ? n->text[SVD_T_NAME] : "";
}

/* Kinds a derivedFrom of kind 'k' may name: a register or a cluster for either. */
static bool kind_fits(enum svd_kind want, enum svd_kind k)
{
    if (want == SVD_REG || want == SVD_CLUSTER)
        return k == SVD_REG || k == SVD_CLUSTER;
    return want == k;
}

static struct svd_node *find_kid(struct svd_node *in, const char *name, size_t len,
                                 enum svd_kind kind)
{
    for (size_t i = 0; in && i < in->nkids; i++) {
        struct svd_node *k = in->kids[i];
        const char *kn = name_of(k);
        if (kind_fits(kind, k->kind) && strlen(kn) == len && memcmp(kn, name, len) == 0)
            return k;
    }
    return NULL;
}

/* The enumeration set named 'name' under 'n' (depth first), or NULL. */
static struct svd_node *find_enums_under(struct svd_node *n, const char *name,
                                         const struct svd_node *self)
{
    for (size_t i = 0; i < n->nkids; i++) {
        struct svd_node *k = n->kids[i];
        if (k->kind == SVD_ENUMS && k != self && strcmp(name_of(k), name) == 0)
            return k;
        if (k->kind != SVD_ENUMS && k->kind != SVD_VALUE) {
            struct svd_node *e = find_enums_under(k, name, self);
            if (e)
                return e;
        }
    }
    return NULL;
}

/* The kind the first part of a path names under 'at'. */
static enum svd_kind first_step(const struct svd_node *at)
{
    return at->kind == SVD_DEVICE ? SVD_PERIPH : at->kind == SVD_REG ? SVD_FIELD : SVD_REG;
}

/* A dotted path under 'at': [PERIPH.]CLUSTER....NAME; the last part of kind 'kind'. */
static struct svd_node *find_path(struct svd_node *at, const char *path, enum svd_kind kind)
{
    const char *p = path;
    enum svd_kind step = first_step(at);
    while (at) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        if (!dot) {
            if (kind == SVD_ENUMS)
                return find_enums_under(at, p, NULL);
            return find_kid(at, p, len, kind);
        }
        at = find_kid(at, p, len, step);
        if (at && at->kind == SVD_REG)
            step = SVD_FIELD;
        else
            step = SVD_REG; /* or a cluster */
        p = dot + 1;
    }
    return NULL;
}

/* The node 'd' derives from: by name in its scope (enumerations: in its register, then its
 * peripheral), else by path; NULL when none. */
static struct svd_node *find_base(struct svd_reader *rd, struct svd_node *d)
{
    const char *name = d->derived_from;
    struct svd_node *b = NULL;
    (void)rd;
    if (!strchr(name, '.')) {
        if (d->kind == SVD_ENUMS) {
            for (struct svd_node *up = d->parent; up && !b; up = up->parent)
                if (up->kind == SVD_REG || up->kind == SVD_PERIPH)
                    b = find_enums_under(up, name, d);
        } else {
            b = find_kid(d->parent, name, strlen(name), d->kind);
        }
    }
    /* a path: from each enclosing peripheral or cluster outwards, then from the device */
    for (struct svd_node *up = d->parent; !b && up; up = up->parent)
        if (up->kind == SVD_PERIPH || up->kind == SVD_CLUSTER || up->kind == SVD_DEVICE)
            b = find_path(up, name, d->kind);
    return b == d ? NULL : b;
}

/*
 * Simple elements a copy does not take from its base. headerStructName is one: svdconv's
 * SvdPeripheral::CopyItem and SvdCluster::CopyItem leave it out (a derived peripheral that
 * names no type of its own uses its base's type through derivedFrom, not through the name).
 * The dim elements are taken all or none (copy_dim).
 */
static bool own_only(enum svd_text t)
{
    return t == SVD_T_NAME || t == SVD_T_STRUCT || t == SVD_T_DIM || t == SVD_T_DIM_INCR || t == SVD_T_DIM_INDEX ||
           t == SVD_T_DIM_NAME || t == SVD_T_ALT_PERIPH || t == SVD_T_ALT_CLUSTER ||
           t == SVD_T_ALT_REG || t == SVD_T_ALT_GROUP || t == SVD_T_BASE;
}

static bool has_kind(const struct svd_node *n, enum svd_kind k)
{
    for (size_t i = 0; i < n->nkids; i++)
        if (kind_fits(k, n->kids[i]->kind))
            return true;
    return false;
}

/* Kinds merged by name (own replaces the base's of that name); others replace wholesale. */
static bool merged_by_name(enum svd_kind k)
{
    return k == SVD_REG || k == SVD_CLUSTER || k == SVD_FIELD;
}

static void take_kids(struct svd_reader *rd, struct svd_node *d, const struct svd_node *b)
{
    struct svd_node **own = d->kids;
    size_t nown = d->nkids;
    d->kids = NULL;
    d->nkids = d->cap = 0;
    for (size_t i = 0; i < b->nkids; i++) {
        struct svd_node *k = b->kids[i];
        if (k->kind == SVD_INTERRUPT)
            continue;
        bool replaced = false;
        if (merged_by_name(k->kind)) {
            for (size_t j = 0; j < nown && !replaced; j++)
                replaced =
                    kind_fits(k->kind, own[j]->kind) && strcmp(name_of(own[j]), name_of(k)) == 0;
        } else {
            for (size_t j = 0; j < nown && !replaced; j++)
                replaced = own[j]->kind == k->kind;
        }
        if (!replaced)
            arena_push(rd->a, (void ***)&d->kids, &d->nkids, &d->cap, k);
    }
    for (size_t j = 0; j < nown; j++)
        arena_push(rd->a, (void ***)&d->kids, &d->nkids, &d->cap, own[j]);
}

static bool has_dim(const struct svd_node *n)
{
    return n->text[SVD_T_DIM] || n->text[SVD_T_DIM_INCR] || n->text[SVD_T_DIM_INDEX] ||
           n->text[SVD_T_DIM_NAME];
}

/*
 * svdconv's SvdItem::CopyDim: a derived object that writes no dim element takes its base's dim,
 * dimIncrement and dimIndex (not dimName: SvdDerivedFrom::DeriveItem clears it); one that
 * writes any has only its own (SvdDimension::Construct drops what was copied).
 */
static void copy_dim(struct svd_node *d, const struct svd_node *b)
{
    static const enum svd_text dim[] = {SVD_T_DIM, SVD_T_DIM_INCR, SVD_T_DIM_INDEX};
    if (has_dim(d))
        return;
    for (size_t i = 0; i < sizeof(dim) / sizeof(dim[0]); i++) {
        d->text[dim[i]] = b->text[dim[i]];
        d->tpos[dim[i]] = b->tpos[dim[i]];
    }
}

static void merge(struct svd_reader *rd, struct svd_node *d, const struct svd_node *b)
{
    copy_dim(d, b);
    for (int t = 0; t < SVD_T__COUNT; t++) {
        if (!d->text[t] && b->text[t] && !own_only((enum svd_text)t)) {
            d->text[t] = b->text[t];
            d->tpos[t] = b->tpos[t];
        }
    }
    if (d->wc.kind == WC_NONE)
        d->wc = b->wc;
    take_kids(rd, d, b);
    (void)has_kind;
}

static void resolve(struct svd_reader *rd, struct svd_node *n);

static void resolve_base(struct svd_reader *rd, struct svd_node *n)
{
    struct svd_node *b = find_base(rd, n);
    const char *what = svd_kind_name(n->kind);
    if (!b) {
        diag_report(rd->dg, DIAG_SVD_DERIVED, n->derived_pos,
                    "derivedFrom '%s' of %s '%s' names no %s", n->derived_from, what, name_of(n),
                    n->kind == SVD_REG || n->kind == SVD_CLUSTER ? "register or cluster" : what);
        return;
    }
    if (b->state == 1) {
        diag_report(rd->dg, DIAG_SVD_DERIVED, n->derived_pos,
                    "derivedFrom '%s' of %s '%s' leads back to itself", n->derived_from, what,
                    name_of(n));
        diag_note(rd->dg, b->pos, "%s '%s' derives from it", svd_kind_name(b->kind), name_of(b));
        return;
    }
    if (rd->depth >= SVD_MAX_DERIVE_DEPTH) {
        diag_report(rd->dg, DIAG_SVD_DERIVED, n->derived_pos,
                    "derivedFrom '%s' of %s '%s': a chain of more than %d bases", n->derived_from,
                    what, name_of(n), SVD_MAX_DERIVE_DEPTH);
        return;
    }
    rd->depth++;
    resolve(rd, b);
    rd->depth--;
    if (b->state != 2)
        return;
    n->base = b;
    merge(rd, n, b);
}

static void resolve(struct svd_reader *rd, struct svd_node *n)
{
    if (n->state != 0)
        return;
    n->state = 1;
    if (n->derived_from)
        resolve_base(rd, n);
    for (size_t i = 0; i < n->nkids; i++)
        if (n->kids[i]->parent == n) /* own kids; shared ones were resolved with their base */
            resolve(rd, n->kids[i]);
    n->state = 2;
}

void svd_derive(struct svd_reader *rd)
{
    resolve(rd, rd->device);
}
