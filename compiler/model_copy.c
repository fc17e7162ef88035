/*
 * model_copy - a derived object's copies of its base's content (model_copy.h).
 */
#include "model_copy.h"

#include "buf.h"
#include "fatal.h"
#include "map.h"
#include "model_mmio.h"
#include "svd_words.h"
#include "util.h"

#include <string.h>

/* A copy of 'v'; of usage 'u' when 'set_usage' (a value copied into a set of another usage). */
static struct model_value *copy_value(struct arena *a, const struct model_value *v, bool set_usage,
                                      enum model_usage u)
{
    struct model_value *c = arena_alloc(a, sizeof(*c));
    *c = *v;
    if (v->ext || (set_usage && u != USAGE_ANY)) { /* its own: a default's usage may change */
        c->ext = NULL;
        struct model_value_ext *x = model_value_ext_set(a, c);
        *x = *model_value_ext(v);
        if (set_usage)
            x->usage = u;
    }
    return c;
}

/* A new array of copies of the 'n' values 'v'. */
static struct model_value **copy_values(struct arena *a, struct model_value *const *v, size_t n)
{
    struct model_value **c = n ? arena_alloc(a, n * sizeof(*c)) : NULL;
    for (size_t i = 0; i < n; i++)
        c[i] = copy_value(a, v[i], false, USAGE_ANY);
    return c;
}

/* A copy of set 's': without its header-enum-name, and not yet linked to a base of its own
 * (model_link_enum_bases links it from where the copy is). */
static struct model_enum_set *copy_set(struct arena *a, const struct model_enum_set *s)
{
    struct model_enum_set *c = arena_alloc(a, sizeof(*c));
    *c = *s;
    c->header_enum = NULL;
    c->base = NULL;
    c->base_field = NULL;
    c->is_base = false;
    return c;
}

/* x (a copy of from's SVD additions) given copies of from's sets and default values. */
static void copy_sets_and_defaults(struct arena *a, struct model_field_ext *x,
                                   const struct model_field_ext *from)
{
    x->sets = from->nsets ? arena_alloc(a, from->nsets * sizeof(*x->sets)) : NULL;
    for (size_t i = 0; i < from->nsets; i++)
        x->sets[i] = copy_set(a, from->sets[i]);
    x->nsets = from->nsets;
    x->defaults = copy_values(a, from->defaults, from->ndefaults);
    x->ndefaults = from->ndefaults;
}

/* A copy of field 'f' in register 'to'. */
static struct model_field *copy_field(struct arena *a, const struct model_field *f,
                                      struct model_reg *to)
{
    struct model_field *c = arena_alloc(a, sizeof(*c));
    *c = *f;
    c->reg = to;
    c->values = copy_values(a, f->values, f->nvalues);
    if (f->ext) {
        c->ext = arena_alloc(a, sizeof(*c->ext));
        *c->ext = *f->ext;
        copy_sets_and_defaults(a, c->ext, f->ext);
        if (c->ext->whole) /* the one field of a register without fields: named after it */
            c->name = model_reg_name_in_cluster(to);
    }
    return c;
}

void model_copy_fields(struct arena *a, struct model_reg *to, const struct model_reg *from)
{
    size_t n = from->nfields;
    to->fields = n ? arena_alloc(a, n * sizeof(*to->fields)) : NULL;
    for (size_t i = 0; i < n; i++)
        to->fields[i] = copy_field(a, from->fields[i], to);
    to->nfields = n;
}

void model_copy_values(struct arena *a, struct model_field *to, const struct model_field *from)
{
    to->values = copy_values(a, from->values, from->nvalues);
    to->nvalues = from->nvalues;
    const struct model_field_ext *fx = model_field_ext(from);
    struct model_field_ext *x = model_field_ext_set(a, to);
    copy_sets_and_defaults(a, x, fx);
    if (!x->enum_name) /* an SVD reader names the enumeration of a copied set as its base's */
        x->enum_name = fx->enum_name;
    x->values_from = x->derived_pos;
}

void model_copy_set_values(struct arena *a, struct model_field *to, const struct model_enum_set *s,
                           const struct model_field *from, const struct model_enum_set *bs)
{
    struct model_enum_sets fs;
    model_field_sets(from, &fs);
    size_t cap = arena_push_cap(to->nvalues);
    for (size_t i = 0; i < from->nvalues; i++)
        if (model_value_in_set(from->values[i], bs->usage, fs.sets, fs.n))
            arena_push(a, (void ***)&to->values, &to->nvalues, &cap,
                       copy_value(a, from->values[i], true, s->usage));
    const struct model_value *d = model_set_default(from, bs->usage, fs.sets, fs.n);
    if (d)
        model_field_add_default(a, to, copy_value(a, d, true, s->usage));
    model_field_ext_set(a, to)->values_from = s->derived_pos;
}

void model_copy_reg_attrs(struct arena *a, struct model_reg *to, const struct model_reg *from)
{
    const struct model_reg_ext *fx = model_reg_ext(from), *tx = model_reg_ext(to);
    if (!to->desc)
        to->desc = from->desc;
    if (!tx->has_reset_mask && fx->has_reset_mask)
        model_reg_set_reset_mask(a, to, fx->reset_mask);
    if (!tx->protection)
        model_reg_set_protection(a, to, fx->protection);
    if (!tx->display_name)
        model_reg_set_display_name(a, to, fx->display_name);
}

/* SVD's access word of f's attribute as written ("read-write" of "read-write, oneToClear"), or
 * NULL when it is a regspec word (RW, RW1C...). */
static const char *svd_access_of(struct arena *a, const struct model_field *f)
{
    const char *t = f->access_text, *comma = t ? strchr(t, ',') : NULL;
    const char *word = comma ? arena_strndup(a, t, (size_t)(comma - t)) : t;
    return word && svd_access_is_word(word) ? word : NULL;
}

void model_copy_field_attrs(struct arena *a, struct model_field *to, const struct model_field *from)
{
    if (!to->desc)
        to->desc = from->desc;
    const struct model_field_ext *fx = model_field_ext(from), *tx = model_field_ext(to);
    if (tx->wc.kind == WC_NONE && fx->wc.kind != WC_NONE)
        model_field_set_write_constraint(a, to, fx->wc);
    const char *acc = svd_access_of(a, to);
    bool write = !tx->write_given && tx->write_effect == WRITE_STORES && fx->write_effect != WRITE_STORES;
    bool read = tx->read_effect == READ_NONE && fx->read_effect != READ_NONE;
    if (!acc || (!write && !read))
        return; /* a regspec access word's class says its effects itself */
    if (write)
        model_field_set_write_effect(a, to, fx->write_effect);
    if (read)
        model_field_set_read_effect(a, to, fx->read_effect);
    svd_field_access(a, to, acc); /* the class the effects give, as for the SVD reader */
}

void model_copy_cluster_attrs(struct model_cluster *to, const char *desc)
{
    if (!to->desc)
        to->desc = desc;
}

void model_copy_cluster_props_of_reg(struct arena *a, const struct model_block *b,
                                     const struct model_cluster *to, const struct model_reg *from)
{
    const struct model_reg_ext *fx = model_reg_ext(from);
    for (size_t i = 0; i < b->nregs; i++) {
        struct model_reg *r = b->regs[i];
        if (!model_cluster_holds(to, r))
            continue;
        if (!model_reg_ext(r)->has_reset_mask && fx->has_reset_mask)
            model_reg_set_reset_mask(a, r, fx->reset_mask);
        if (!model_reg_ext(r)->protection)
            model_reg_set_protection(a, r, fx->protection);
    }
}

/* Has 'r' or 'c' no array form of its own (so takes the dim a base gives it)? */
static bool reg_takes_dim(const struct model_reg *r)
{
    return !r->is_array && !model_reg_ext(r)->dim_of;
}

static bool cluster_takes_dim(const struct model_cluster *c)
{
    return c->count <= 1 && !strstr(c->written_name ? c->written_name : "", "%s");
}

/* 'to' an array of 'count' elements from 'first', its name as a regspec writes it unless an
 * svd-name= of its own names it. */
static void make_reg_array(struct arena *a, struct model_reg *to, unsigned first, unsigned count,
                           bool descending, uint64_t stride)
{
    to->is_array = true;
    to->first = first;
    to->count = count;
    to->descending = descending;
    to->stride = stride;
    if (!to->written_name || strcmp(to->written_name, to->name) == 0) {
        unsigned hi = first + count - 1;
        to->written_name = descending ? arena_printf(a, "%s{%u-%u}", to->name, hi, first)
                                      : arena_printf(a, "%s{%u-%u}", to->name, first, hi);
    }
}

const struct model_cluster *model_reg_cluster_array(const struct model_reg *r,
                                                    const struct model_cluster **outer)
{
    const struct model_cluster *inner = NULL;
    if (outer)
        *outer = NULL;
    for (const struct model_cluster *c = model_reg_ext(r)->cluster; c; c = c->parent) {
        if (c->count <= 1)
            continue;
        if (inner) {
            if (outer)
                *outer = c;
            break;
        }
        inner = c;
    }
    return inner;
}

void model_copy_reg_dim(struct arena *a, struct model_reg *to, const struct model_reg *from)
{
    /* from's array, when it is in a cluster array, is its cluster's: from has no dim of its own */
    if (!from->is_array || !reg_takes_dim(to) || model_reg_cluster_array(from, NULL))
        return;
    make_reg_array(a, to, from->first, from->count, from->descending, from->stride);
    if (from->addrs) {
        to->addrs = arena_alloc(a, from->naddrs * sizeof(*to->addrs));
        for (size_t i = 0; i < from->naddrs; i++)
            to->addrs[i] = from->addrs[i] - from->address + to->address;
        to->naddrs = from->naddrs;
    }
    model_reg_set_index_names(a, to, model_reg_ext(from)->index_names);
}

void model_copy_reg_dim_of_cluster(struct arena *a, struct model_reg *to,
                                   const struct model_cluster *from)
{
    if (from->count > 1 && reg_takes_dim(to))
        make_reg_array(a, to, 0, from->count, false, from->stride);
}

void model_copy_cluster_dim(struct model_cluster *to, const struct model_cluster *from)
{
    if (from->count > 1 && cluster_takes_dim(to)) {
        to->count = from->count;
        to->stride = from->stride;
    }
}

bool model_copy_cluster_dim_of_reg(struct model_cluster *to, const struct model_reg *from)
{
    if (!from->is_array || !cluster_takes_dim(to) || model_reg_cluster_array(from, NULL))
        return true;
    if (from->first != 0 || from->descending || from->addrs || model_reg_ext(from)->index_names)
        return false;
    to->count = from->count;
    to->stride = from->stride;
    return true;
}

/* Is cluster 'c' 'in' or inside it? */
static bool cluster_within(const struct model_cluster *c, const struct model_cluster *in)
{
    for (; c; c = c->parent)
        if (c == in)
            return true;
    return false;
}

bool model_cluster_holds_any(const struct model_block *b, const struct model_cluster *c)
{
    for (size_t i = 0; i < b->nclusters; i++)
        if (b->clusters[i]->parent == c)
            return true;
    for (size_t i = 0; i < b->nregs; i++)
        if (cluster_within(model_reg_ext(b->regs[i])->cluster, c))
            return true;
    return false;
}

bool model_cluster_holds(const struct model_cluster *c, const struct model_reg *r)
{
    return cluster_within(model_reg_ext(r)->cluster, c);
}

/* A copy's place: 'to' and the copies of the clusters inside 'from', each found from its base. */
struct cluster_copies {
    const struct model_cluster *from;
    struct model_cluster *to;
    const struct model_cluster **bases; /* bases[i] was copied into copies[i] */
    struct model_cluster **copies;
    size_t n;
};

/* The copy in 'cc' that stands for 'c' (a cluster inside, or 'from' itself). */
static struct model_cluster *copy_of(const struct cluster_copies *cc, const struct model_cluster *c)
{
    if (c == cc->from)
        return cc->to;
    for (size_t i = 0; i < cc->n; i++)
        if (cc->bases[i] == c)
            return cc->copies[i];
    return NULL; /* not reached: parents are copied first */
}

static uint64_t moved(const struct cluster_copies *cc, uint64_t address)
{
    return address - cc->from->address + cc->to->address;
}

/* "OUTER_INNER_" of cluster 'c' and its parents, as registers' names in it start. */
static void cluster_prefix(const struct model_cluster *c, struct buf *out)
{
    if (c->parent)
        cluster_prefix(c->parent, out);
    buf_addf(out, "%s_", c->name);
}

/* A copy of the cluster 'k' inside 'from', in the copy of its parent: taken, of k's CMSIS type. */
static struct model_cluster *copy_cluster(struct arena *a, const struct cluster_copies *cc,
                                          const struct model_cluster *k)
{
    struct model_cluster *c = arena_alloc(a, sizeof(*c));
    *c = *k;
    c->parent = copy_of(cc, k->parent);
    c->address = moved(cc, k->address);
    c->type_of = k->type_of ? k->type_of : k;
    c->differs = NULL;
    c->base_type = false;
    c->taken = true;
    return c;
}

/*
 * Copy 'c' of register 'r': r's array, when r is in a cluster array, is that cluster's, so the
 * copy's is its own cluster array's: kept when the two agree (index-names= with it), else none
 * (model_reg_array_of_cluster gives it its cluster's once derivation is done).
 */
static void by_copied_cluster(struct arena *a, struct model_reg *c, const struct model_reg *r)
{
    const struct model_cluster *was = model_reg_cluster_array(r, NULL);
    const struct model_cluster *now = model_reg_cluster_array(c, NULL);
    if (!was || (now && now->count == was->count && now->stride == was->stride))
        return;
    c->is_array = false;
    c->descending = false;
    c->first = 0;
    c->count = 1;
    c->stride = 0;
    c->addrs = NULL;
    c->naddrs = 0;
    c->written_name = c->name;
    model_reg_set_index_names(a, c, NULL);
}

/*
 * The copy 'c' of register 'r' (of block 'fb') in r's alternateGroup, as svdconv's copies are its
 * base's items, alternates and all: -t cmsis names it REG_GROUP as it names 'r', and -t regspec
 * writes its alternate-group=. Its alternate= (copied with the rest) names a register by its name
 * in the cluster, as SVD's alternateRegister does: in the copy, the copy of that register.
 */
static void copy_alt_group(struct arena *a, const struct model_block *fb, const struct model_reg *r,
                           struct model_reg *c)
{
    const char *group = model_block_alt_group(fb, r);
    if (group)
        model_block_add_alt_group(a, c->block, c, group);
}

/* A copy of register 'r' inside 'from', in the copy of its cluster: named after that one. */
static struct model_reg *copy_reg(struct arena *a, const struct cluster_copies *cc,
                                  const struct model_reg *r, struct model_block *b,
                                  const struct model_block *fb)
{
    struct model_reg *c = arena_alloc(a, sizeof(*c));
    *c = *r;
    c->block = b;
    struct model_reg_ext *x = arena_alloc(a, sizeof(*x));
    *x = *model_reg_ext(r);
    c->ext = x;
    x->cluster = copy_of(cc, x->cluster);
    x->taken = true;
    struct buf name = BUF_INIT;
    cluster_prefix(x->cluster, &name);
    buf_addf(&name, "%s", model_reg_name_in_cluster(r));
    c->name = arena_strdup(a, name.s);
    buf_release(&name);
    size_t len = strlen(r->name); /* a name as written: the base's with its array suffix */
    if (r->written_name && strncmp(r->written_name, r->name, len) == 0 &&
        (!r->written_name[len] || r->written_name[len] == '{'))
        c->written_name = arena_printf(a, "%s%s", c->name, r->written_name + len);
    c->address = moved(cc, r->address);
    if (r->addrs) {
        c->addrs = arena_alloc(a, r->naddrs * sizeof(*c->addrs));
        for (size_t i = 0; i < r->naddrs; i++)
            c->addrs[i] = moved(cc, r->addrs[i]);
    }
    c->ats = r->nats ? arena_alloc(a, r->nats * sizeof(*c->ats)) : NULL;
    for (size_t i = 0; i < r->nats; i++) {
        struct model_at *at = arena_alloc(a, sizeof(*at));
        *at = *r->ats[i];
        at->address = moved(cc, at->address);
        c->ats[i] = at;
    }
    c->rules = r->nrules ? arena_alloc(a, r->nrules * sizeof(*c->rules)) : NULL;
    for (size_t i = 0; i < r->nrules; i++)
        c->rules[i] = r->rules[i]; /* read only: a rule names fields by name */
    model_copy_fields(a, c, r);
    by_copied_cluster(a, c, r);
    copy_alt_group(a, fb, r, c);
    return c;
}

/* The names of the registers and clusters directly in cluster 'c' of block 'b', put in 'names'
 * (keys borrowed from the model): an SVD reader merges a derived cluster's kids with its base's by
 * name, whatever their kinds. */
static void names_in(struct regc_map *names, const struct model_block *b,
                     const struct model_cluster *c)
{
    bool found;
    for (size_t i = 0; i < b->nclusters; i++)
        if (b->clusters[i]->parent == c)
            xmap_put_str(names, b->clusters[i]->name, &found);
    for (size_t i = 0; i < b->nregs; i++)
        if (model_reg_ext(b->regs[i])->cluster == c)
            xmap_put_str(names, model_reg_name_in_cluster(b->regs[i]), &found);
}

/* The registers and clusters directly in cluster 'c' of block 'b', each in 'regs' or
 * 'clusters' by its name in 'c' (keys and values borrowed from the model). */
static void kids_by_name(struct regc_map *regs, struct regc_map *clusters,
                         const struct model_block *b, const struct model_cluster *c)
{
    bool found;
    for (size_t i = 0; i < b->nclusters; i++)
        if (b->clusters[i]->parent == c)
            xmap_put_str(clusters, b->clusters[i]->name, &found)->val = b->clusters[i];
    for (size_t i = 0; i < b->nregs; i++)
        if (model_reg_ext(b->regs[i])->cluster == c)
            xmap_put_str(regs, model_reg_name_in_cluster(b->regs[i]), &found)->val = b->regs[i];
}

/* The value 'name' has in 'm', or NULL. */
static void *named(const struct regc_map *m, const char *name)
{
    struct regc_map_entry *e = regc_map_find_str(m, name);
    return e ? e->val : NULL;
}

/* The cluster directly in 'from' that 'c' (inside it) is in, or is. */
static const struct model_cluster *top_in(const struct model_cluster *c,
                                          const struct model_cluster *from)
{
    while (c->parent != from)
        c = c->parent;
    return c;
}

void model_copy_cluster_regs(struct arena *a, struct model_block *b, struct model_cluster *to,
                             const struct model_block *fb, const struct model_cluster *from)
{
    struct cluster_copies cc = {from, to, NULL, NULL, 0};
    size_t nclusters = fb->nclusters, nregs = fb->nregs; /* the copies are not copied again */
    struct regc_map own = REGC_MAP_INIT; /* what 'to' gives itself, before any copy is made */
    names_in(&own, b, to);
    size_t inside = 0;
    for (size_t i = 0; i < nclusters; i++)
        inside += fb->clusters[i] != from && cluster_within(fb->clusters[i], from);
    cc.bases = arena_alloc(a, (inside ? inside : 1) * sizeof(*cc.bases));
    cc.copies = arena_alloc(a, (inside ? inside : 1) * sizeof(*cc.copies));
    size_t cap = arena_push_cap(b->nclusters);
    for (size_t i = 0; i < nclusters; i++) { /* parents first, as fb's */
        const struct model_cluster *k = fb->clusters[i];
        if (k == from || !cluster_within(k, from) ||
            regc_map_find_str(&own, top_in(k, from)->name))
            continue;
        cc.bases[cc.n] = k;
        cc.copies[cc.n] = copy_cluster(a, &cc, k);
        arena_push(a, (void ***)&b->clusters, &b->nclusters, &cap, cc.copies[cc.n++]);
    }
    cap = arena_push_cap(b->nregs);
    for (size_t i = 0; i < nregs; i++) {
        const struct model_reg *r = fb->regs[i];
        const struct model_cluster *in = model_reg_ext(r)->cluster;
        if (!model_cluster_holds(from, r) ||
            regc_map_find_str(&own, in == from ? model_reg_name_in_cluster(r)
                                               : top_in(in, from)->name))
            continue;
        arena_push(a, (void ***)&b->regs, &b->nregs, &cap, copy_reg(a, &cc, r, b, fb));
    }
    regc_map_release(&own);
}

/* ---------------------------------------------------------------- own content against a copy */

static bool same_value(const struct model_value *v, const struct model_value *w)
{
    const struct model_value_ext *x = model_value_ext(v), *y = model_value_ext(w);
    return strcmp(v->name, w->name) == 0 && v->value == w->value &&
           util_same_text(v->desc, w->desc) && x->dont_care == y->dont_care && x->usage == y->usage;
}

/* Field f's and g's sets: the same names and usages, in order (a copy's header-enum-name is none:
 * not compared). */
static bool same_sets(const struct model_field_ext *x, const struct model_field_ext *y)
{
    if (x->nsets != y->nsets)
        return false;
    for (size_t i = 0; i < x->nsets; i++)
        if (!util_same_text(x->sets[i]->name, y->sets[i]->name) ||
            x->sets[i]->usage != y->sets[i]->usage)
            return false;
    return true;
}

/* Would a copy of field 'g' be 'f': its name, bits, access, reset, description, effects, write
 * constraint, sets and values? */
static bool same_field(const struct model_field *f, const struct model_field *g)
{
    const struct model_field_ext *x = model_field_ext(f), *y = model_field_ext(g);
    if (strcmp(f->name, g->name) != 0 || f->msb != g->msb || f->lsb != g->lsb ||
        f->access != g->access || !util_same_text(f->access_text, g->access_text) ||
        f->reset != g->reset || !util_same_text(f->desc, g->desc) || f->implicit != g->implicit ||
        x->write_effect != y->write_effect || x->read_effect != y->read_effect ||
        x->wc.kind != y->wc.kind || x->wc.min != y->wc.min || x->wc.max != y->wc.max ||
        f->nvalues != g->nvalues || x->ndefaults != y->ndefaults || !same_sets(x, y))
        return false;
    for (size_t i = 0; i < f->nvalues; i++)
        if (!same_value(f->values[i], g->values[i]))
            return false;
    for (size_t i = 0; i < x->ndefaults; i++)
        if (!same_value(x->defaults[i], y->defaults[i]))
            return false;
    return true;
}

/* Would a copy of register 'q' (at 'qoff' in its cluster) be 'r' (at 'roff' in its): its
 * offset, width, size, reset, description, SVD properties, array and fields? */
static bool same_reg(const struct model_reg *r, uint64_t roff, const struct model_reg *q,
                     uint64_t qoff)
{
    const struct model_reg_ext *x = model_reg_ext(r), *y = model_reg_ext(q);
    if (roff != qoff || r->width != q->width || r->size != q->size ||
        r->has_reset != q->has_reset || (r->has_reset && r->reset != q->reset) ||
        !util_same_text(r->desc, q->desc) || x->has_reset_mask != y->has_reset_mask ||
        x->reset_mask != y->reset_mask || !util_same_text(x->protection, y->protection) ||
        !util_same_text(x->display_name, y->display_name) ||
        !util_same_text(x->alternate, y->alternate) || r->is_array != q->is_array ||
        r->count != q->count || r->stride != q->stride || r->first != q->first ||
        r->nfields != q->nfields)
        return false;
    for (size_t i = 0; i < r->nfields; i++)
        if (!same_field(r->fields[i], q->fields[i]))
            return false;
    return true;
}

static bool same_cluster(const struct model_block *b, const struct model_cluster *c, uint64_t coff,
                         const struct model_block *fb, const struct model_cluster *k, uint64_t koff,
                         unsigned depth);

/* Does every register and cluster directly in 'k' (of fb) have its like of its name directly in
 * 'c' (of b), and 'c' hold no other? */
static bool same_content(const struct model_block *b, const struct model_cluster *c,
                         const struct model_block *fb, const struct model_cluster *k,
                         unsigned depth)
{
    struct regc_map regs = REGC_MAP_INIT, clusters = REGC_MAP_INIT;
    kids_by_name(&regs, &clusters, b, c);
    size_t nk = 0;
    bool same = true;
    for (size_t i = 0; i < fb->nregs && same; i++) {
        const struct model_reg *q = fb->regs[i], *r;
        if (model_reg_ext(q)->cluster != k)
            continue;
        r = named(&regs, model_reg_name_in_cluster(q));
        same = r && same_reg(r, r->address - c->address, q, q->address - k->address);
        nk++;
    }
    for (size_t i = 0; i < fb->nclusters && same; i++) {
        const struct model_cluster *q = fb->clusters[i], *r;
        if (q->parent != k)
            continue;
        r = named(&clusters, q->name);
        same = r && same_cluster(b, r, r->address - c->address, fb, q, q->address - k->address,
                                 depth + 1);
        nk++;
    }
    same = same && regs.n + clusters.n == nk;
    regc_map_release(&regs);
    regc_map_release(&clusters);
    return same;
}

/* Would a copy of cluster 'k' (at 'koff' in its parent) be 'c' (at 'coff' in its), all inside? */
static bool same_cluster(const struct model_block *b, const struct model_cluster *c, uint64_t coff,
                         const struct model_block *fb, const struct model_cluster *k, uint64_t koff,
                         unsigned depth)
{
    return depth < 256 && coff == koff && c->count == k->count && c->stride == k->stride &&
           same_content(b, c, fb, k, depth);
}

const char *model_cluster_differs(struct arena *a, const struct model_block *b,
                                  const struct model_cluster *c, const struct model_block *fb,
                                  const struct model_cluster *from)
{
    struct regc_map regs = REGC_MAP_INIT, clusters = REGC_MAP_INIT;
    kids_by_name(&regs, &clusters, fb, from);
    const char *what = NULL;
    for (size_t i = 0; i < b->nregs && !what; i++) {
        const struct model_reg *r = b->regs[i];
        if (model_reg_ext(r)->cluster != c || model_reg_ext(r)->taken)
            continue;
        const char *name = model_reg_name_in_cluster(r);
        const struct model_reg *q = named(&regs, name);
        if (!q || !same_reg(r, r->address - c->address, q, q->address - from->address))
            what = arena_printf(a, "register '%s'", name);
    }
    for (size_t i = 0; i < b->nclusters && !what; i++) {
        const struct model_cluster *k = b->clusters[i];
        if (k->parent != c || k->taken)
            continue;
        const struct model_cluster *q = named(&clusters, k->name);
        if (!q || !same_cluster(b, k, k->address - c->address, fb, q, q->address - from->address, 0))
            what = arena_printf(a, "cluster '%s'", k->name);
    }
    regc_map_release(&regs);
    regc_map_release(&clusters);
    return what;
}
