/*
 * svd_derive - resolves derivedFrom on the SVD tree.
 *
 * A derived object is a copy of its base with its own elements on top, as
 * the SVD specification says: every simple element it does not give comes
 * from the base (not its name, its alternates or, for a peripheral, its
 * interrupts, its dimArrayIndex; its array only when it writes no dim element of its own,
 * as svdconv's SvdItem::CopyDim does), and its registers, clusters and fields are
 * the base's with its own replacing those of the same name and adding the
 * rest; enumerated values and address blocks it gives replace the base's.
 * The base may come later in the file, be derived itself (chains), be
 * named by a path ("PERIPH.REG", "PERIPH.CLUSTER.REG.FIELD": derive.h, shared
 * with the regspec check of xmlderive.c); a base that
 * names nothing, or a chain that comes back to itself, is an error naming
 * both places. The kids a copy takes are shared with the base, not cloned:
 * the model builder reads them and never writes.
 */
#include "svd_int.h"
#include "util.h"

#include <ctype.h>
#include <string.h>

static const char *name_of(const struct svd_node *n)
{
    return n->text[SVD_T_NAME] ? n->text[SVD_T_NAME] : "";
}

/* ---------------------------------------------------------------- the tree derive.c reads */

static enum derive_kind tree_kind(const struct svd_node *n)
{
    switch (n->kind) {
    case SVD_DEVICE: return DERIVE_DEVICE;
    case SVD_PERIPH: return DERIVE_PERIPH;
    case SVD_CLUSTER: return DERIVE_CLUSTER;
    case SVD_REG: return DERIVE_REG;
    case SVD_FIELD: return DERIVE_FIELD;
    case SVD_ENUMS: return DERIVE_ENUMS;
    default: return DERIVE_OTHER;
    }
}

static struct derive_ref tree_ref(const struct svd_node *n)
{
    return (struct derive_ref){n ? tree_kind(n) : DERIVE_NONE, n, NULL};
}

static struct derive_ref tree_parent(const struct derive_tree *t, struct derive_ref n)
{
    (void)t;
    return tree_ref(((const struct svd_node *)n.obj)->parent);
}

static struct derive_ref tree_kid(const struct derive_tree *t, struct derive_ref n,
                                  struct derive_cursor *at)
{
    const struct svd_node *p = n.obj;
    (void)t;
    return tree_ref(at->i < p->nkids ? p->kids[at->i++] : NULL);
}

/* The number s..end writes, decimal or 0x hex (the forms <dim> and <dimIndex> take). */
static bool dim_number(const char *s, const char *end, uint64_t *v)
{
    unsigned base = end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10;
    s += base == 16 ? 2 : 0;
    *v = 0;
    for (; s < end; s++) {
        int d = -1;
        if (isdigit((unsigned char)*s))
            d = *s - '0';
        else if (base == 16 && isxdigit((unsigned char)*s))
            d = tolower((unsigned char)*s) - 'a' + 10;
        if (d < 0 || *v > (UINT64_MAX - (uint64_t)d) / base)
            return false;
        *v = *v * base + (uint64_t)d;
    }
    return s == end;
}

/*
 * Does 'ix' (its 'len' bytes) name an element of n's dim, as svdconv's SvdDimension::
 * CalculateDimIndex lists them: one of <dimIndex>'s "A,B,C", one in its "0-3" or "A-D", else 0
 * to <dim> - 1 (numbers written as CreateDecNum writes them). A <dimIndex> that gives no list
 * names none here: the model builder reports it.
 */
static bool is_dim_index(const struct svd_node *n, const char *ix, size_t len)
{
    const char *s = n->text[SVD_T_DIM_INDEX], *dash = s ? strchr(s, '-') : NULL;
    uint64_t v, lo = 0, hi;
    bool dec = len && (len == 1 || ix[0] != '0') && strspn(ix, "0123456789") >= len &&
               dim_number(ix, ix + len, &v);
    if (!s)
        return dec && dim_number(n->text[SVD_T_DIM], strchr(n->text[SVD_T_DIM], '\0'), &hi) &&
               v < hi;
    if (dash && !strchr(s, ',')) {
        if (dash - s == 1 && strlen(dash) == 2 && isupper((unsigned char)s[0]))
            return len == 1 && ix[0] >= s[0] && ix[0] <= dash[1];
        return dec && dim_number(s, dash, &lo) && dim_number(dash + 1, strchr(dash, '\0'), &hi) &&
               v >= lo && v <= hi;
    }
    for (const char *p = s;; p++) {
        const char *comma = strchr(p, ','), *end = comma ? comma : strchr(p, '\0');
        while (p < end && *p == ' ')
            p++;
        while (end > p && end[-1] == ' ')
            end--;
        if ((size_t)(end - p) == len && memcmp(p, ix, len) == 0)
            return true;
        if (!comma)
            return false;
        p = comma;
    }
}

/* Is 'name' (its 'len' bytes) one element of the "%s" list 'n' (svdconv's SvdItem::
 * FindChildFromItem looks among a dim's elements, SvdDimension::CreateName names them)? */
static bool names_element(const struct svd_node *n, const char *name, size_t len)
{
    const char *kn = name_of(n), *at = strstr(kn, "%s");
    if (!at || !n->text[SVD_T_DIM] || strstr(kn, "[%s]"))
        return false;
    size_t pre = (size_t)(at - kn), post = strlen(at + 2);
    return len > pre + post && memcmp(name, kn, pre) == 0 &&
           memcmp(name + len - post, at + 2, post) == 0 &&
           is_dim_index(n, name + pre, len - pre - post);
}

static void tree_enter(const struct derive_tree *t, struct derive_ref n);

/* A node answers to its name, and an array "NAME[%s]" to NAME too, as a regspec's does (its
 * register or cluster is named NAME there, svd-name="NAME[%s]"); a list "NAME%s" is one whose
 * elements answer to their own names (tree_is_element). */
static size_t tree_names(const struct derive_tree *t, struct derive_ref n,
                         struct derive_name out[DERIVE_MAX_NAMES], bool *list)
{
    const char *kn = name_of(n.obj);
    size_t len = strlen(kn);
    (void)t;
    out[0] = (struct derive_name){kn, len};
    *list = strstr(kn, "%s") && !strstr(kn, "[%s]");
    if (len >= 4 && memcmp(kn + len - 4, "[%s]", 4) == 0) {
        out[1] = (struct derive_name){kn, len - 4};
        return 2;
    }
    return 1;
}

/* A list "NAME%s" answers to the name of each of its elements (as a regspec's instance or
 * register of a dim-of= list is named). */
static bool tree_is_element(const struct derive_tree *t, struct derive_ref n, const char *name,
                            size_t len)
{
    const struct svd_node *node = n.obj;
    if (node->derived_from && !node->text[SVD_T_DIM])
        tree_enter(t, n); /* a list whose dim may come from its base */
    return names_element(node, name, len);
}

/* Derivation gives a node its base's kids in a new array (take_kids). */
static const void *tree_kids_stamp(const struct derive_tree *t, struct derive_ref n)
{
    (void)t;
    return ((const struct svd_node *)n.obj)->kids;
}

static const char *tree_name(const struct derive_tree *t, struct derive_ref n)
{
    (void)t;
    return name_of(n.obj);
}

static void resolve(struct svd_reader *rd, struct svd_node *n);

/* A path goes through 'n': its own base first, so that it holds what it takes from it (a base
 * later in the file, or derived itself). 'data' is the reader. */
static void tree_enter(const struct derive_tree *t, struct derive_ref n)
{
    struct svd_reader *rd = (struct svd_reader *)t->data;
    struct svd_node *node = (struct svd_node *)n.obj;
    if (node->state != 0 || rd->depth >= SVD_MAX_DERIVE_DEPTH) /* done, on the way, or too deep */
        return;
    rd->depth++;
    resolve(rd, node);
    rd->depth--;
}

/* The node 'd' derives from (derive.h: by name in its scope, else by path); NULL when none. */
static struct svd_node *find_base(struct svd_reader *rd, struct svd_node *d)
{
    const struct derive_tree t = {rd,        tree_parent, tree_kid,        tree_names, tree_is_element,
                                  tree_name, tree_enter,  tree_kids_stamp, rd->names};
    /* the tree is the reader's: derive.c hands back its own nodes */
    return (struct svd_node *)derive_find_base(&t, tree_ref(d), d->derived_from).obj;
}

/*
 * Simple elements a copy does not take from its base. headerStructName is one: svdconv's
 * SvdPeripheral::CopyItem and SvdCluster::CopyItem leave it out (a derived peripheral that
 * names no type of its own uses its base's type through derivedFrom, not through the name).
 * headerEnumName is another: SvdEnumContainer::CopyItem copies only the usage, so a derived
 * enumeratedValues set is named by its own hierarchical name in the enum form (cmsis_enum.c).
 * The dim elements are taken all or none (copy_dim).
 */
static bool own_only(enum svd_text t)
{
    return t == SVD_T_NAME || t == SVD_T_STRUCT || t == SVD_T_ENUM_NAME || t == SVD_T_DIM ||
           t == SVD_T_DIM_INCR || t == SVD_T_DIM_INDEX || t == SVD_T_DIM_NAME ||
           t == SVD_T_ALT_PERIPH || t == SVD_T_ALT_CLUSTER || t == SVD_T_ALT_REG ||
           t == SVD_T_ALT_GROUP || t == SVD_T_BASE;
}

/* Kinds merged by name (own replaces the base's of that name); others replace wholesale. */
static bool merged_by_name(enum svd_kind k)
{
    return k == SVD_REG || k == SVD_CLUSTER || k == SVD_FIELD;
}

/* d's kids: the base's, but those its own replace (by name, or of a kind it has), then its own. */
static void take_kids(struct svd_reader *rd, struct svd_node *d, const struct svd_node *b)
{
    struct svd_node **own = d->kids;
    size_t nown = d->nkids;
    bool own_kind[SVD_KIND__COUNT] = {false};
    struct regc_map own_names = REGC_MAP_INIT; /* d's kids merged by name: one probe each */
    for (size_t j = 0; j < nown; j++) {
        bool found;
        own_kind[own[j]->kind] = true;
        if (merged_by_name(own[j]->kind))
            xmap_put_str(&own_names, name_of(own[j]), &found);
    }
    d->kids = NULL;
    d->nkids = d->cap = 0;
    for (size_t i = 0; i < b->nkids; i++) {
        struct svd_node *k = b->kids[i];
        if (k->kind == SVD_INTERRUPT || k->kind == SVD_DIM_ENUM)
            continue; /* the base's own: a dimArrayIndex too (copy_dim) */
        /* a scope's kids merged by name are all registers and clusters, or all fields */
        bool replaced = merged_by_name(k->kind) ? regc_map_find_str(&own_names, name_of(k)) != NULL
                                                : own_kind[k->kind];
        if (!replaced)
            arena_push(rd->a, (void ***)&d->kids, &d->nkids, &d->cap, k);
    }
    for (size_t j = 0; j < nown; j++)
        arena_push(rd->a, (void ***)&d->kids, &d->nkids, &d->cap, own[j]);
    regc_map_release(&own_names);
}

static bool has_dim(const struct svd_node *n)
{
    return n->text[SVD_T_DIM] || n->text[SVD_T_DIM_INCR] || n->text[SVD_T_DIM_INDEX] ||
           n->text[SVD_T_DIM_NAME];
}

/*
 * svdconv's SvdItem::CopyDim: a derived object that writes no dim element takes its base's dim,
 * dimIncrement and dimIndex (SvdDimension::CopyItem; not dimName: SvdDerivedFrom::DeriveItem
 * clears it); one that writes any has only its own (SvdDimension::Construct drops what was
 * copied). Not the base's dimArrayIndex, whichever it writes: svdconv keeps that apart from the
 * dim (a register's m_enumContainer), and SvdRegister::CopyItem does not copy it (take_kids).
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

/* Does d's derivedFrom name one element of the list 'b' ("UARTA" of "UART%s"), not b itself? */
static bool derives_from_element(const struct svd_node *d, const struct svd_node *b)
{
    const char *last = strrchr(d->derived_from, '.');
    last = last ? last + 1 : d->derived_from;
    return strcmp(last, name_of(b)) != 0 && names_element(b, last, strlen(last));
}

static void merge(struct svd_reader *rd, struct svd_node *d, const struct svd_node *b)
{
    /* an element has no dim to give: svdconv's SvdItem::CopyDim copies none to one */
    if (!derives_from_element(d, b))
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
}

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
    struct derive_index names;
    derive_index_init(&names);
    rd->names = &names;
    resolve(rd, rd->device);
    rd->names = NULL;
    derive_index_release(&names);
}
