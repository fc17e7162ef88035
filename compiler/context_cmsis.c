/*
 * context_cmsis - the templates' "cmsis" object (context_cmsis.h).
 *
 * A peripheral type (a block) or a cluster type is a list of items (a
 * register, a register array, a nested cluster type or an array of them) at
 * offsets from the type's start. Items are sorted by offset; items whose
 * bytes overlap (alternate registers) become one union, where an item that
 * starts later is wrapped in a struct after RESERVED padding; gaps between
 * items become RESERVED members. Every named member's offset and the type's
 * size are handed to the template, which asserts them in the header.
 */
#include "context_cmsis.h"

#include "buf.h"
#include "cluster_array.h"
#include "cmsis_enum.h"
#include "map.h"
#include "model_mmio.h"
#include "names.h"
#include "svd_names.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define SET(a, o, lit, v) dt_add((a), (o), DT_KEY(lit), (v))

struct cmsis {
    struct arena *a;
    struct regc_map types;  /* type names given out */
    struct regc_map macros; /* macro names given out: a repeated one is left out */
    struct regc_map values; /* of those, the named values' (-t cmsis only: not in the enum form) */
    struct regc_map enum_names; /* the enum form's typedef and constant names given out */
    struct regc_map elements;   /* an expanded cluster array (written name, parent) -> its
                                   first element: the enum form writes that one's */
    struct cmsis_enum enums;    /* the enum form (cmsis_enum.h) */
    struct section_src *srcs;   /* what the two sections write, in svdconv's order once sorted */
    size_t nsrcs, srcs_cap;
    struct regc_map cl_rank;    /* the block's clusters (the pointer's bytes) -> their place in
                                   svdconv's cluster list */
    uint64_t next_rank;
    const struct model_instance *typed; /* the peripheral whose type add_type() writes */
    bool has_clusters; /* a cluster with a type of its own: svdconv's cluster list not empty */
    struct dt *type_list;   /* nested types before the types using them */
    /* the block being laid out */
    const struct model_block *b;
    struct block_places places; /* its registers and clusters by where they are written */
    const char **reg_name; /* a register's name in the macros when not its own (a cluster
                              array the reader expanded, written back as one array) */
    /* svdconv's names (below): the device's headerDefinitionsPrefix, and for the peripheral
     * type being written its name, prependToName, appendToName, its registers' alternateGroup */
    const char *prefix, *periph, *prepend, *append;
    struct regc_map groups; /* register (the pointer's bytes) -> its alternateGroup */
    struct regc_map cl_types; /* cluster (the pointer's bytes) -> its struct cl_type, laid out;
                                 every block's: a copy in a later block uses it (type_of) */
    struct regc_map inst_types; /* a peripheral with a type (the pointer's bytes) -> the type's
                                   name, NULL for none: what a later block's type_of uses */
    struct regc_map held; /* the name of a cluster type laid out before its place in the file
                             (layout_base) -> its types' list, until written at that place or
                             before a type using it (put_held); NULL once written */
};

/*
 * What the _Pos/_Msk macros and the enum form write, in svdconv's two sections, one order for
 * both (HeaderData::CreatePosMask, HeaderData::CreateEnumValue): the clusters of svdconv's
 * cluster list, each one's dimArrayIndex enum and then its own registers' macros and enums
 * (CreateClusterPosMask; CreateClusterEnumValue, CreateClusterEnumArrayValue), then each
 * peripheral with a type, its dimArrayIndex enum and its top-level registers' macros and enums
 * (CreatePeripheralPosMask; CreatePeripheralEnumArrayValue, CreateRegistersEnumValue: both pass
 * over a cluster). The cluster list (SvdDevice::GatherClusters) is every peripheral's clusters
 * with a type of their own, in the file's order, each after the clusters inside it; the
 * peripheral list (SvdDevice::CreatePeripheralTypes), the peripherals with a type of their own
 * in the file's order.
 */
struct section_src {
    bool periph_section; /* false: a cluster's, written first */
    uint64_t rank;       /* the cluster's place in svdconv's cluster list */
    struct srcpos at;    /* the peripheral's place in the file */
    size_t order;        /* within one: 0 the dimArrayIndex, then the registers as added */
    const struct model_block *b;
    const char *periph;             /* the peripheral's name, as c->periph */
    const struct model_reg *r;      /* a register's enums, else a dimArrayIndex's: */
    const struct model_cluster *cl; /* the cluster's, or NULL: the peripheral's */
    const struct model_array_index *index;
    bool copy;         /* a derived peripheral's copy of its base's registers (add_enums) */
    struct dt *macros; /* r's _Pos/_Msk macros (add_bitfields), NULL when it has none */
};

/* A cluster's type, laid out once: a derived peripheral's copy of the block and the cluster's
 * unmodified copies (model_cluster.type_of) use it again (SvdCluster::GetHeaderTypeNameHierarchical
 * of a copied, unmodified cluster). */
struct cl_type {
    const char *tname;
    uint64_t size;
    unsigned align;
};

/* One member of a type, before layout. */
struct item {
    uint64_t off, size; /* bytes, from the type's start; size covers every element */
    unsigned align;     /* of one element */
    const char *name, *ctype, *qual;
    uint64_t dim; /* 0: no array (64 bits: a huge gap is never cut) */
    size_t order; /* as written: ties keep it */
};

struct items {
    struct item *v;
    size_t n, cap;
};

/* A type being written: its members, the names in use, the offsets to assert. */
struct type_out {
    struct dt *lines, *asserts;
    struct regc_map names;
    unsigned npad, align;
};

/* Gives out 'name' in 'm': false when it was given out before. */
static bool take(struct regc_map *m, const char *name)
{
    bool found;
    xmap_put_str(m, name, &found);
    return !found;
}

/* 'base' made unique among the type names: base_Type, else base_1_Type, ... */
static const char *type_name(struct cmsis *c, const char *base)
{
    const char *name = arena_printf(c->a, "%s_Type", base);
    for (unsigned k = 1; !take(&c->types, name); k++)
        name = arena_printf(c->a, "%s_%u_Type", base, k);
    return name;
}

static const char *uint_type(unsigned bytes)
{
    return bytes == 1 ? "uint8_t" : bytes == 2 ? "uint16_t" : bytes == 8 ? "uint64_t" : "uint32_t";
}

static char *hex(struct arena *a, uint64_t v)
{
    return arena_printf(a, "0x%" PRIX64, v);
}

/* A C constant of 'v' as svdconv writes it: 0x..UL, ULL past 32 bits. */
static char *c_const(struct arena *a, uint64_t v)
{
    return arena_printf(a, "0x%" PRIX64 "%s", v, v > 0xFFFFFFFFu ? "ULL" : "UL");
}

/* __IM, __OM or __IOM: the register's fields all read-only, all write-only, or neither. */
static const char *qualifier(const struct model_reg *r)
{
    bool reads = false, writes = false;
    for (size_t i = 0; i < r->nfields; i++) {
        const struct model_field *f = r->fields[i];
        if (f->implicit || model_field_is_reserved(f))
            continue;
        enum regc_sem sem = model_field_sem(f);
        reads |= sem != REGC_SEM_WO;
        writes |= sem != REGC_SEM_RO;
    }
    if (reads == writes)
        return "__IOM";
    return reads ? "__IM" : "__OM";
}

/* ------------------------------------------------------------ svdconv's names
 *
 * The names svdconv (Open-CMSIS-Pack/devtools, tools/svdconv) gives in the CMSIS header,
 * written down in docs/svd.md, "Names as svdconv makes them". Each function cites where
 * svdconv makes the name.
 */

/* alternateGroup of r, or NULL (SvdRegister::GetAlternateGroup). */
static const char *reg_group(const struct cmsis *c, const struct model_reg *r)
{
    return svd_names_group(&c->groups, r);
}

/* A register's struct member: prependToName + name + appendToName (SvdRegister::GetHeaderFileName,
 * used by HeaderData::CreateRegister; the affixes are the peripheral's, SvdItem::GetPrependToName). */
static const char *member_name(struct cmsis *c, const struct model_reg *r, const char *name)
{
    const char *n = svd_names_reg(c->a, name, reg_group(c, r));
    if (!c->prepend && !c->append)
        return n;
    return arena_printf(c->a, "%s%s%s", c->prepend ? c->prepend : "", n,
                        c->append ? c->append : "");
}

/* A peripheral's type: headerDefinitionsPrefix + headerStructName, else + its name
 * (SvdPeripheral::GetHeaderTypeName; HeaderGenerator's MakeEnumStructUnionEnd adds "_Type"). */
static const char *periph_type_stem(const struct cmsis *c, const char *header_struct,
                                    const char *name)
{
    return arena_printf(c->a, "%s%s", c->prefix, header_struct ? header_struct : name);
}

static const char *macro_reg_name(struct cmsis *c, const struct model_reg *r, const char *rname)
{
    return svd_names_macro_reg(c->a, c->periph, r, rname, reg_group(c, r));
}

/* ------------------------------------------------------------ layout */

static void push(struct items *it, struct item x)
{
    if (it->n == it->cap)
        it->v = xgrow(it->v, &it->cap, it->n + 1, sizeof(*it->v));
    x.order = it->n;
    it->v[it->n++] = x;
}

static int cmp_item(const void *pa, const void *pb)
{
    const struct item *a = pa, *b = pb;
    if (a->off != b->off)
        return a->off < b->off ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

static void block_begin(struct cmsis *c, const struct model_block *b)
{
    c->b = b;
    block_places_init(&c->places, b);
    c->reg_name = xcalloc(b->nregs ? b->nregs : 1, sizeof(*c->reg_name));
}

/* The types held for type 'tname' (layout_base), if any, written now (their file-order place, or
 * just before a type using them). */
static void put_held(struct cmsis *c, const char *tname)
{
    struct regc_map_entry *e = c->held.n ? regc_map_find_str(&c->held, tname) : NULL;
    struct dt *list = e ? e->val : NULL;
    if (!list)
        return;
    e->val = NULL;
    for (size_t i = 0; i < dt_len(list); i++)
        dt_push(c->a, c->type_list, dt_at(list, i));
}

static void block_end(struct cmsis *c)
{
    for (size_t i = 0; i < c->held.n; i++) /* none used, none reached: not lost all the same */
        put_held(c, c->held.entries[i].key); /* a type's name: NUL-terminated */
    regc_map_clear(&c->held);
    block_places_release(&c->places);
    free(c->reg_name);
}

/* Is 'cl' or one of its parents a cluster array (its registers are arrays of its dim)? */
static bool in_cluster_array(const struct model_cluster *cl)
{
    for (; cl; cl = cl->parent)
        if (cl->count > 1)
            return true;
    return false;
}

/* A register item; a misaligned one is a byte array, so the struct keeps the file's offsets. */
static struct item reg_item(const struct model_reg *r, const char *name, uint64_t off, unsigned dim)
{
    unsigned bytes = r->size / 8 ? r->size / 8 : 1;
    struct item x = {.off = off,
                     .size = (uint64_t)bytes * (dim ? dim : 1),
                     .align = bytes,
                     .name = name,
                     .ctype = uint_type(bytes),
                     .qual = qualifier(r),
                     .dim = dim};
    if (off % bytes) {
        x.align = 1;
        x.ctype = "uint8_t";
        x.dim = x.size;
    }
    return x;
}

static void reg_items(struct cmsis *c, struct items *it, const struct model_reg *r,
                      const struct model_cluster *cl)
{
    uint64_t base = cl ? cl->address : 0;
    size_t skip = cluster_prefix_len(cl);
    const char *name = strlen(r->name) > skip ? r->name + skip : r->name;
    unsigned bytes = r->size / 8 ? r->size / 8 : 1;
    if (!r->is_array || r->count <= 1 || in_cluster_array(cl)) {
        push(it, reg_item(r, member_name(c, r, name), r->address - base, 0));
        return;
    }
    if (!r->addrs && r->stride == bytes) {
        push(it, reg_item(r, member_name(c, r, name), r->address - base, r->count));
        return;
    }
    for (unsigned i = 0; i < r->count; i++) { /* elements apart: one member each */
        uint64_t at = r->addrs ? r->addrs[i] : r->address + (uint64_t)i * r->stride;
        const char **ix = model_reg_ext(r)->index_names;
        const char *n = ix ? arena_printf(c->a, "%s%s", name, ix[i])
                           : arena_printf(c->a, "%s%u", name, r->first + i);
        push(it, reg_item(r, member_name(c, r, n), at - base, 0));
    }
}

static uint64_t layout(struct cmsis *c, const struct model_block *b, const struct model_cluster *cl,
                       const char *tname, uint64_t pad_to, unsigned *align);

/* A cluster's type: its headerStructName, else PERIPH_OUTER_..._NAME with the peripheral's name
 * (SvdCluster::GetHeaderTypeNameHierarchical, used by HeaderData::CreateRegCluster). */
static const char *cluster_type_base(struct cmsis *c, const struct model_cluster *cl,
                                     const char *name)
{
    const char *hs = svd_names_cluster_struct(c->a, c->periph, cl);
    if (hs)
        return hs;
    const char *path = name;
    for (const struct model_cluster *p = cl->parent; p; p = p->parent)
        path = arena_printf(c->a, "%s_%s", cluster_array_name(c->a, p), path);
    return arena_printf(c->a, "%s_%s", c->periph, path);
}

/* Expanded array elements are alike when their registers have one qualifier. */
static void qualifier_sig(void *ctx, const struct model_reg *r, bool later, struct buf *out)
{
    (void)ctx;
    (void)later;
    buf_adds(out, qualifier(r));
}

/* In the macros, the registers of an expanded array's element 'top' are named as the array's. */
static void rename_regs(struct cmsis *c, const struct model_cluster *k, const char *array,
                        const struct model_cluster *top)
{
    const struct block_kids *kk = block_places_kids(&c->places, &k);
    size_t parent = cluster_prefix_len(top->parent), own = cluster_prefix_len(top);
    for (size_t i = 0; i < kk->nregs; i++) {
        const struct model_reg *r = c->b->regs[kk->regs[i]];
        if (!c->reg_name[kk->regs[i]] && strlen(r->name) > own)
            c->reg_name[kk->regs[i]] =
                arena_printf(c->a, "%.*s%s_%s", (int)parent, r->name, array, r->name + own);
    }
    for (size_t i = 0; i < kk->ncls; i++)
        rename_regs(c, c->b->clusters[kk->cls[i]], array, top);
}

/* Is 'k' an element of a "NAME%s" cluster list the reader expanded (not a "NAME[%s]" array)? */
static bool in_list(const struct model_cluster *k)
{
    const char *w = k->written_name;
    return w && strstr(w, "%s") && !strstr(w, "[%s]");
}

/* A member 'name' of cluster type 't' at 'off' ('count' of them, 0: no array); none when the type
 * is empty (C has no empty structs). */
static void push_cluster(struct items *it, const struct cl_type *t, uint64_t off, const char *name,
                         unsigned count)
{
    if (t->size == 0)
        return;
    push(it, (struct item){.off = off,
                           .size = t->size * (count ? count : 1),
                           .align = t->align,
                           .name = name,
                           .ctype = t->tname,
                           .qual = "",
                           .dim = count});
}

/* Do 'n' clusters from 'k' (an array of k->count, a run of n elements 'stride' apart the reader
 * expanded, or a list: 'stride' 0) lay out as members of type 't', elements t's size apart? */
static bool copy_fits(const struct cl_type *t, const struct model_cluster *k, size_t n,
                      uint64_t stride)
{
    if (k->count > 1)
        return t->size == k->stride;
    return n == 1 || stride == 0 || t->size == stride;
}

/* The members of 'n' unmodified copies from kids->cls[i] of type 't', laid out before: one array
 * for an array, one member per element for a "NAME%s" list. */
static void copy_items(struct cmsis *c, struct items *it, const struct cl_type *t,
                       const struct model_block *b, const struct block_kids *kids, size_t i,
                       size_t n, bool list)
{
    const struct model_cluster *k = b->clusters[kids->cls[i]];
    uint64_t base = k->parent ? k->parent->address : 0;
    if (k->count > 1 || (n > 1 && !list)) {
        push_cluster(it, t, k->address - base, k->count > 1 ? k->name : cluster_array_name(c->a, k),
                     k->count > 1 ? k->count : (unsigned)n);
        return;
    }
    for (size_t el = 0; el < n; el++) {
        const struct model_cluster *ek = b->clusters[kids->cls[i + el]];
        push_cluster(it, t, ek->address - base, ek->name, 0);
    }
}

static size_t cluster_items(struct cmsis *c, struct items *it, const struct model_block *b,
                            const struct block_kids *kids, size_t i);

/* Lays out 'base', a cluster of b an unmodified copy is typed after, when the copy comes first:
 * derivedFrom may name a later cluster, and svdconv types the copy as its base wherever that is
 * (SvdItem::Construct derives before the children; SvdCluster::GetHeaderTypeNameHierarchical).
 * Not a base of another block, nor one being laid out (around the copy: the copy's own type).
 * Its types are held back (c->held): svdconv writes types in the file's order, so they are
 * written where the base is, or, when a type written before that has the copy as a member, just
 * before that type (a type is declared before its use). */
static void layout_base(struct cmsis *c, const struct model_block *b,
                        const struct model_cluster *base)
{
    if (regc_map_find(&c->cl_types, &base, sizeof(base)) ||
        block_places_index(&c->places, &base) >= b->nclusters)
        return;
    const struct model_cluster *parent = base->parent;
    const struct block_kids *kids = block_places_kids(&c->places, &parent);
    for (size_t i = 0; i < kids->ncls;) {
        const struct model_cluster *k = b->clusters[kids->cls[i]];
        uint64_t stride = k->stride;
        size_t n = cluster_array_run(&c->places, kids, i, in_list(k), qualifier_sig, NULL, &stride);
        if (k == base) {
            struct items unused = {0}; /* the members are base's parent's, pushed when reached */
            struct dt *types = c->type_list;
            c->type_list = dt_list(c->a);
            cluster_items(c, &unused, b, kids, i);
            free(unused.v);
            const struct regc_map_entry *t = regc_map_find(&c->cl_types, &base, sizeof(base));
            bool found;
            if (t && t->val) /* the key, the type's name, is kept in the arena */
                xmap_put_str(&c->held, ((const struct cl_type *)t->val)->tname, &found)->val =
                    c->type_list;
            c->type_list = types;
            return;
        }
        i += n;
    }
}

/*
 * The member of the cluster kids->cls[i] (or of the expanded array from it), or the members of
 * the "NAME%s" list from it: how many clusters it takes. A list is one type, named as the list
 * without its "%s" and padded to dimIncrement, and one member per element under the element's
 * name (svdconv: SvdDevice::GatherClusters types the list's cluster itself, its elements are
 * unmodified copies whose SvdCluster::GetHeaderTypeNameHierarchical is the list's;
 * HeaderData::AddRegisters places each element, HeaderData::CloseCluster pads to dimIncrement).
 * An unmodified copy (type_of) is a member of the type of what it copies, when that is laid out.
 */
static size_t cluster_items(struct cmsis *c, struct items *it, const struct model_block *b,
                            const struct block_kids *kids, size_t i)
{
    const struct model_cluster *k = b->clusters[kids->cls[i]];
    uint64_t base = k->parent ? k->parent->address : 0;
    if (k->type_of)
        layout_base(c, b, k->type_of);
    const struct regc_map_entry *same =
        k->type_of ? regc_map_find(&c->cl_types, &k->type_of, sizeof(k->type_of)) : NULL;
    uint64_t stride = k->stride;
    unsigned count = k->count > 1 ? k->count : 0;
    const char *name = k->name;
    bool list = in_list(k);
    size_t n = cluster_array_run(&c->places, kids, i, list, qualifier_sig, NULL, &stride);
    if (same && same->val && copy_fits(same->val, k, n, list ? 0 : stride)) { /* NULL: open */
        copy_items(c, it, same->val, b, kids, i, n, list);
        return n;
    }
    if (n > 1 || list) {
        name = cluster_array_name(c->a, k);
        count = list ? 0 : (unsigned)n;
        for (size_t e = 0; e < n; e++)
            rename_regs(c, b->clusters[kids->cls[i + e]], name, b->clusters[kids->cls[i + e]]);
    }
    bool found;
    struct model_cluster *const *key = &b->clusters[kids->cls[i]]; /* borrowed by the map */
    struct regc_map_entry *e = xmap_put(&c->cl_types, key, sizeof(*key), &found);
    if (found && e->val) /* laid out before its place (layout_base): written here */
        put_held(c, ((const struct cl_type *)e->val)->tname);
    if (!found) {
        struct cl_type *t = arena_zalloc(c->a, sizeof(*t));
        t->tname = type_name(c, cluster_type_base(c, k, name));
        t->align = 1;
        t->size = layout(c, b, k, t->tname, count || (list && n > 1) ? stride : 0, &t->align);
        e = xmap_put(&c->cl_types, key, sizeof(*key), &found); /* layout may have grown the map */
        e->val = t;
    }
    for (size_t el = 0; el < (list ? n : 1); el++) {
        const struct model_cluster *ek = b->clusters[kids->cls[i + el]];
        push_cluster(it, e->val, ek->address - base, list ? ek->name : name, count);
    }
    return n;
}

static struct dt *line(struct cmsis *c, unsigned depth)
{
    static const char spaces[] = "        "; /* depth 3 at most: a union's wrapped struct */
    size_t n = depth * 2 < sizeof(spaces) - 1 ? depth * 2 : sizeof(spaces) - 1;
    struct dt *o = dt_obj(c->a);
    SET(c->a, o, "indent", dt_str_refn(c->a, spaces + sizeof(spaces) - 1 - n, n));
    return o;
}

static void open_close(struct cmsis *c, struct type_out *t, unsigned depth, const char *open)
{
    struct dt *o = line(c, depth);
    SET(c->a, o, "open", dt_str_ref(c->a, open));
    SET(c->a, o, "close", dt_bool(!open));
    SET(c->a, o, "name", dt_null());
    dt_push(c->a, t->lines, o);
}

static void member(struct cmsis *c, struct type_out *t, unsigned depth, const struct item *x,
                   uint64_t off, bool assert)
{
    struct dt *o = line(c, depth);
    SET(c->a, o, "open", dt_null());
    SET(c->a, o, "close", dt_bool(false));
    SET(c->a, o, "name", dt_str_ref(c->a, x->name));
    SET(c->a, o, "qual", x->qual[0] ? dt_str_ref(c->a, x->qual) : dt_null());
    SET(c->a, o, "ctype", dt_str_ref(c->a, x->ctype));
    SET(c->a, o, "dim",
        dt_str_ref(c->a, x->dim ? arena_printf(c->a, "[%" PRIu64 "]", x->dim) : ""));
    SET(c->a, o, "offset", dt_str_ref(c->a, hex(c->a, off)));
    dt_push(c->a, t->lines, o);
    if (assert) {
        struct dt *as = dt_obj(c->a);
        SET(c->a, as, "member", dt_str_ref(c->a, x->name));
        SET(c->a, as, "offset", dt_str_ref(c->a, hex(c->a, off)));
        dt_push(c->a, t->asserts, as);
    }
}

/* RESERVED padding from 'at' to 'to' (bytes from the type's start), in the widest unit that fits.
 */
static void pad(struct cmsis *c, struct type_out *t, unsigned depth, uint64_t at, uint64_t to)
{
    if (to <= at)
        return;
    uint64_t gap = to - at;
    unsigned unit = 4; /* never wider than the type's members: the padding adds no alignment */
    while (unit > t->align || gap % unit || at % unit)
        unit /= 2;
    const char *name;
    do {
        name = t->npad ? arena_printf(c->a, "RESERVED%u", t->npad) : "RESERVED";
        t->npad++;
    } while (!take(&t->names, name));
    struct item x = {.name = name, .ctype = uint_type(unit), .qual = "__IM", .dim = gap / unit};
    member(c, t, depth, &x, at, false);
}

/* Overlapping items as union members at 'depth'; a later start wrapped in a struct after padding.
 */
static void union_members(struct cmsis *c, struct type_out *t, const struct items *g,
                          unsigned depth, uint64_t pad_to)
{
    uint64_t start = g->v[0].off;
    for (size_t k = 0; k < g->n; k++) {
        if (g->v[k].off == start) {
            member(c, t, depth, &g->v[k], start, true);
            continue;
        }
        open_close(c, t, depth, "struct");
        pad(c, t, depth + 1, start, g->v[k].off);
        member(c, t, depth + 1, &g->v[k], g->v[k].off, true);
        open_close(c, t, depth, NULL);
    }
    pad(c, t, depth, start, pad_to); /* a cluster array's stride: one more member, all of it */
}

/*
 * Would the struct have no named member of its own (every item in a union
 * from offset 0, no padding between)? C99 has no such struct: the type is
 * then one union, each item in it at its offset. '*last_end' gets where the
 * items end.
 */
static bool one_union(const struct items *it, uint64_t pad_to, uint64_t *last_end)
{
    uint64_t at = 0;
    for (size_t i = 0; i < it->n;) {
        uint64_t end = it->v[i].off + it->v[i].size;
        size_t j = i + 1;
        for (; j < it->n && it->v[j].off < end; j++)
            if (it->v[j].off + it->v[j].size > end)
                end = it->v[j].off + it->v[j].size;
        if (it->v[i].off > at || j == i + 1)
            return false; /* padding or a plain member */
        at = end;
        i = j;
    }
    *last_end = at;
    return pad_to <= at;
}

static uint64_t finish(struct cmsis *c, const struct model_block *b, const struct model_cluster *cl,
                       const char *tname, const char *kind, struct type_out *t, struct items *it,
                       uint64_t at, unsigned *align);

/* Lays out cl's items (b's top level when NULL) as type 'tname'; returns its size (0: empty). */
static uint64_t layout(struct cmsis *c, const struct model_block *b, const struct model_cluster *cl,
                       const char *tname, uint64_t pad_to, unsigned *align)
{
    struct items it = {0};
    const struct block_kids *kids = block_places_kids(&c->places, &cl); /* NULL: the top level */
    for (size_t i = 0; i < kids->nregs; i++)
        reg_items(c, &it, b->regs[kids->regs[i]], cl);
    for (size_t i = 0; i < kids->ncls;)
        i += cluster_items(c, &it, b, kids, i);
    if (it.n == 0) {
        free(it.v);
        return 0;
    }
    qsort(it.v, it.n, sizeof(*it.v), cmp_item);
    struct type_out t = {.lines = dt_list(c->a), .asserts = dt_list(c->a), .align = 1};
    regc_map_init(&t.names);
    for (size_t i = 0; i < it.n; i++) { /* a repeated name (a defect of the file) gets _k */
        const char *n = it.v[i].name;
        for (unsigned k = 1; !take(&t.names, n); k++)
            n = arena_printf(c->a, "%s_%u", it.v[i].name, k);
        it.v[i].name = n;
        if (it.v[i].align > t.align)
            t.align = it.v[i].align;
    }
    uint64_t at = 0;
    uint64_t union_end;
    if (one_union(&it, pad_to, &union_end)) { /* C99 has no struct of one unnamed union */
        union_members(c, &t, &it, 1, pad_to);
        return finish(c, b, cl, tname, "union", &t, &it, union_end, align); /* pad_to fits */
    }
    for (size_t i = 0; i < it.n;) {
        uint64_t start = it.v[i].off, end = start + it.v[i].size;
        size_t j = i + 1;
        for (; j < it.n && it.v[j].off < end; j++)
            if (it.v[j].off + it.v[j].size > end)
                end = it.v[j].off + it.v[j].size;
        pad(c, &t, 1, at, start);
        if (j == i + 1) {
            member(c, &t, 1, &it.v[i], start, true);
        } else { /* overlapping registers: a union, later starts wrapped after padding */
            open_close(c, &t, 1, "union");
            struct items group = {it.v + i, j - i, 0};
            union_members(c, &t, &group, 2, 0);
            open_close(c, &t, 1, NULL);
        }
        at = end;
        i = j;
    }
    pad(c, &t, 1, at, pad_to);
    return finish(c, b, cl, tname, "struct", &t, &it, pad_to > at ? pad_to : at, align);
}

/* The type object of a laid-out type whose members end at 'at'; returns its size. */
static uint64_t finish(struct cmsis *c, const struct model_block *b, const struct model_cluster *cl,
                       const char *tname, const char *kind, struct type_out *t, struct items *it,
                       uint64_t at, unsigned *align)
{
    uint64_t size = (at + t->align - 1) / t->align * t->align; /* as C rounds a struct */
    struct dt *o = dt_obj(c->a);
    SET(c->a, o, "name", dt_str_ref(c->a, tname));
    SET(c->a, o, "kind", dt_str_ref(c->a, kind));
    SET(c->a, o, "of",
        dt_str_ref(c->a, cl ? arena_printf(c->a, "%s.%s", b->name,
                                           in_list(cl) ? cl->written_name : cl->name)
                            : b->name));
    SET(c->a, o, "size", dt_str_ref(c->a, hex(c->a, size)));
    SET(c->a, o, "lines", t->lines);
    SET(c->a, o, "asserts", t->asserts);
    SET(c->a, o, "array", dt_null()); /* add_block's, for a peripheral array */
    for (size_t i = 0; c->held.n && i < it->n; i++) /* a member's type held back: before it */
        put_held(c, it->v[i].ctype);
    dt_push(c->a, c->type_list, o);
    regc_map_release(&t->names);
    free(it->v);
    *align = t->align;
    return size;
}

/* ------------------------------------------------------------ instances and interrupts */

/* PREFIX NAME_BASE and PREFIX NAME, of type 'tname' (HeaderGenerator's MakePeripheralAddressDefine
 * and MakePeripheralAddressMapping with HeaderData::CreatePeripheralInstance's names). */
static void add_instance(struct cmsis *c, struct dt *list, const struct model_instance *in,
                         const char *tname)
{
    const char *name = arena_printf(c->a, "%s%s", c->prefix, in->name);
    if (!in->has_base || !take(&c->macros, name) ||
        !take(&c->macros, arena_printf(c->a, "%s_BASE", name)))
        return;
    struct dt *o = dt_obj(c->a);
    SET(c->a, o, "name", dt_str_ref(c->a, name));
    SET(c->a, o, "type", dt_str_ref(c->a, tname));
    SET(c->a, o, "base", dt_str_ref(c->a, c_const(c->a, in->base)));
    dt_push(c->a, list, o);
}

struct irq {
    const char *name, *desc;
    long long value;
};

static int cmp_irq(const void *pa, const void *pb)
{
    const struct irq *a = pa, *b = pb;
    return (a->value > b->value) - (a->value < b->value);
}

/* The Cortex-M processor exceptions svdconv lists before the device's interrupts. */
static size_t core_irqs(const struct model_device *d, struct irq *out)
{
    static const struct irq v6m[] = {
        {"Reset", "Reset Vector, invoked on Power up and warm reset", -15},
        {"NonMaskableInt", "Non maskable Interrupt, cannot be stopped or preempted", -14},
        {"HardFault", "Hard Fault, all classes of Fault", -13},
        {"SVCall", "System Service Call via SVC instruction", -5},
        {"PendSV", "Pendable request for system service", -2},
        {"SysTick", "System Tick Timer", -1}};
    static const struct irq v7m[] = {
        {"MemoryManagement",
         "Memory Management, MPU mismatch, including Access Violation "
         "and No Match",
         -12},
        {"BusFault",
         "Bus Fault, Pre-Fetch-, Memory Access Fault, other address/memory "
         "related Fault",
         -11},
        {"UsageFault", "Usage Fault, i.e. Undef Instruction, Illegal State Transition", -10},
        {"DebugMonitor", "Debug Monitor", -4}};
    const char *cpu = d && d->cpu ? d->cpu->name : NULL;
    if (!cpu || !(strncmp(cpu, "CM", 2) == 0 || strncmp(cpu, "SC", 2) == 0))
        return 0; /* not a Cortex-M (RISC-V, Xtensa, none given): no core exceptions */
    bool baseline = strncmp(cpu, "CM0", 3) == 0 || strcmp(cpu, "CM1") == 0 ||
                    strcmp(cpu, "CM23") == 0 || strcmp(cpu, "SC000") == 0;
    size_t n = 0;
    for (size_t i = 0; i < ARRAY_SIZE(v6m); i++) {
        out[n++] = v6m[i];
        if (!baseline && v6m[i].value == -13)
            for (size_t k = 0; k < ARRAY_SIZE(v7m) - 1; k++)
                out[n++] = v7m[k];
        if (!baseline && v6m[i].value == -5)
            out[n++] = v7m[ARRAY_SIZE(v7m) - 1];
    }
    return n;
}

static struct dt *irq_list(struct cmsis *c, const struct model_spec *s)
{
    size_t n = 0, cap = 16;
    struct irq *v = xmalloc(cap * sizeof(*v));
    struct regc_map seen;
    regc_map_init(&seen);
    for (size_t b = 0; b < s->nblocks; b++)
        for (size_t i = 0; i < s->blocks[b]->ninstances; i++) {
            const struct model_instance *in = s->blocks[b]->instances[i];
            for (size_t k = 0; k < in->ninterrupts; k++) {
                const struct model_interrupt *q = in->interrupts[k];
                if (!take(&seen, q->name))
                    continue; /* a name shared by peripherals is written once */
                if (n == cap)
                    v = xgrow(v, &cap, n + 1, sizeof(*v));
                v[n++] = (struct irq){q->name, q->desc, (long long)q->value};
            }
        }
    regc_map_release(&seen);
    qsort(v, n, sizeof(*v), cmp_irq);
    struct irq core[16];
    size_t ncore = core_irqs(s->device, core);
    struct dt *list = dt_list(c->a);
    for (size_t i = 0; i < ncore + n; i++) {
        const struct irq *q = i < ncore ? &core[i] : &v[i - ncore];
        const char *name = arena_printf(c->a, "%s_IRQn", q->name);
        if (!take(&c->macros, name))
            continue;
        struct dt *o = dt_obj(c->a);
        SET(c->a, o, "name", dt_str_ref(c->a, name));
        SET(c->a, o, "value", dt_int(c->a, q->value));
        SET(c->a, o, "desc", q->desc ? dt_str_ref(c->a, util_fold_space(c->a, q->desc, strlen(q->desc), NULL))
                              : dt_null());
        dt_push(c->a, list, o);
    }
    free(v);
    return list;
}

/* ------------------------------------------------------------ _Pos and _Msk */

/* 'a' before (<0), at (0) or after (>0) 'b' in the files read (numbered in reading order). */
static int cmp_pos(struct srcpos a, struct srcpos b)
{
    if (a.file != b.file)
        return a.file < b.file ? -1 : 1;
    if (a.line != b.line)
        return a.line < b.line ? -1 : 1;
    return (a.col > b.col) - (a.col < b.col);
}

static struct dt *field_values(struct cmsis *c, const struct model_field *f, const char *stem)
{
    struct dt *list = dt_list(c->a);
    for (size_t i = 0; i < f->nvalues; i++) {
        const struct model_value *v = f->values[i];
        const char *name = arena_printf(c->a, "%s_%s", stem, v->name);
        if (!take(&c->macros, name))
            continue;
        take(&c->values, name);
        struct dt *o = dt_obj(c->a);
        SET(c->a, o, "name", dt_str_ref(c->a, name));
        SET(c->a, o, "value", dt_str_ref(c->a, c_const(c->a, v->value)));
        dt_push(c->a, list, o);
    }
    return list;
}

static struct dt *reg_fields(struct cmsis *c, const struct model_reg *r, const char *rname,
                             const char *prefix)
{
    struct dt *list = dt_list(c->a);
    /* the model's order, the source's: svdconv's too (HeaderData::CreateRegisterPosMask) */
    for (size_t i = 0; i < r->nfields; i++) {
        const struct model_field *f = r->fields[i];
        if (f->implicit || model_field_ext(f)->whole)
            continue; /* svdconv writes no macros for reserved bits or a register without fields */
        const char *stem = arena_printf(c->a, "%s_%s_%s", prefix, macro_reg_name(c, r, rname), f->name);
        if (!take(&c->macros, arena_printf(c->a, "%s_Pos", stem)) ||
            !take(&c->macros, arena_printf(c->a, "%s_Msk", stem)))
            continue; /* a name given out before (a repeated field of the file) */
        struct dt *o = dt_obj(c->a);
        SET(c->a, o, "stem", dt_str_ref(c->a, stem));
        SET(c->a, o, "pos", dt_int(c->a, f->lsb));
        SET(c->a, o, "msb", dt_int(c->a, f->msb));
        SET(c->a, o, "mask", dt_str_ref(c->a, c_const(c->a, model_field_mask(f))));
        SET(c->a, o, "values", field_values(c, f, stem));
        dt_push(c->a, list, o);
    }
    return list;
}

/* Is 'k' (or a cluster it is in) an unmodified copy of a cluster, without a type of its own
 * (SvdDevice::GatherClusters lists modified clusters only)? */
static bool cluster_in_copy(const struct model_cluster *k)
{
    for (; k; k = k->parent)
        if (k->type_of)
            return true;
    return false;
}

/* Is r in an unmodified copy of a cluster (its macros are the copied cluster's:
 * HeaderData::CreateClustersPosMask)? */
static bool in_copy(const struct model_reg *r)
{
    return cluster_in_copy(model_reg_ext(r)->cluster);
}

/* ------------------------------------------------------------ the enum form */

static bool found(const struct regc_map *m, const char *name)
{
    return regc_map_find_str(m, name) != NULL;
}

/* A name for the enum form: not one of the header's types, instances, IRQs or _Pos/_Msk macros
 * (the named values' macros are not written there), nor an enum's or constant's before. */
static bool claim_enum_name(void *ctx, const char *name)
{
    struct cmsis *c = ctx;
    if (found(&c->types, name) || (found(&c->macros, name) && !found(&c->values, name)))
        return false;
    return take(&c->enum_names, name);
}

/*
 * Is 'k' (or a cluster it is in) an element after the first of a cluster array or list the
 * reader expanded per index? svdconv writes the array's enums once, from its template
 * (SvdDevice::GatherClusters). The first element asked about is the first.
 */
static bool in_later_element(struct cmsis *c, const struct model_block *b,
                             const struct model_cluster *k)
{
    for (; k; k = k->parent) {
        if (!k->written_name || !model_cluster_is_array(k))
            continue;
        /* the elements share their block, parent and written name (its text: a regspec's
           clusters each hold their own svd-name= string); the map borrows its keys, this one
           kept in the arena */
        const char *key = arena_printf(c->a, "%p %p %s", (const void *)b, (const void *)k->parent,
                                       k->written_name);
        bool seen;
        struct regc_map_entry *e = xmap_put_str(&c->elements, key, &seen);
        if (!seen)
            e->val = (void *)k;
        else if (e->val != k)
            return true;
    }
    return false;
}

/*
 * The enums of register r, whose fields svdconv names in its enum form (HeaderData::
 * CreateRegisterEnumValue): its dimArrayIndex when it is a "[%s]" array, then each field's sets,
 * a "NAME%s" field list's once, named NAME (only the list's template field has them). The
 * elements of a "NAME%s" register list are svdconv's copies: no headerEnumName.
 */
static void add_enums(struct cmsis *c, const struct model_block *b, const struct model_reg *r,
                      bool copy)
{
    if (in_later_element(c, b, model_reg_ext(r)->cluster))
        return;
    const char *stem = svd_names_enum_reg(c->a, c->periph, r, reg_group(c, r));
    const struct model_reg_ext *x = model_reg_ext(r);
    c->enums.copy = copy || x->dim_of;
    if (x->array_index && !x->dim_of)
        cmsis_enum_index(&c->enums, stem, x->array_index);
    const char *list = NULL;
    for (size_t i = 0; i < r->nfields; i++) { /* as written: CreateRegisterEnumValue */
        const struct model_field *f = r->fields[i];
        const char *of = model_field_ext(f)->dim_of;
        if (of && of == list)
            continue; /* a later element of the list */
        list = of;
        cmsis_enum_field(&c->enums, arena_printf(c->a, "%s_%s", stem,
                                                 of ? svd_names_without_dim(c->a, of) : f->name),
                         f);
    }
}

/* Ranks b's clusters in svdconv's cluster list, after those of the blocks before it
 * (SvdDevice::GatherClusters: each after the clusters inside it); b->clusters holds them as
 * written, each before the clusters inside it. */
static void rank_clusters(struct cmsis *c, const struct model_block *b)
{
    regc_map_clear(&c->cl_rank);
    size_t *open = xmalloc((b->nclusters + 1) * sizeof(*open)), n = 0;
    for (size_t i = 0; i <= b->nclusters; i++) {
        const struct model_cluster *parent = i < b->nclusters ? b->clusters[i]->parent : NULL;
        while (n > 0 && (i == b->nclusters || b->clusters[open[n - 1]] != parent)) {
            bool found; /* the key is borrowed: the model's pointer, not a copy of it */
            struct model_cluster *const *key = &b->clusters[open[--n]];
            xmap_put(&c->cl_rank, key, sizeof(*key), &found)->val =
                (void *)(uintptr_t)++c->next_rank;
        }
        if (i < b->nclusters)
            open[n++] = i;
    }
    free(open);
}

/* A section_src of the block being written: a register's macros and enums (r), else the
 * dimArrayIndex 'index' of cluster 'cl' or, when NULL, of the peripheral named 'periph'. */
static void push_src(struct cmsis *c, const struct model_cluster *cl, const char *periph,
                     const struct model_array_index *index, const struct model_reg *r, bool copy)
{
    struct section_src s = {.periph_section = !cl,
                            .order = r ? c->nsrcs + 1 : 0,
                            .b = c->b,
                            .periph = periph,
                            .r = r,
                            .cl = cl,
                            .index = index,
                            .copy = copy};
    if (cl) {
        const struct regc_map_entry *e = regc_map_find(&c->cl_rank, &cl, sizeof(cl));
        s.rank = e ? (uint64_t)(uintptr_t)e->val : 0;
    } else {
        s.at = c->typed ? c->typed->pos : c->b->pos;
    }
    if (c->nsrcs == c->srcs_cap)
        c->srcs = xgrow(c->srcs, &c->srcs_cap, c->nsrcs + 1, sizeof(*c->srcs));
    c->srcs[c->nsrcs++] = s;
}

static int cmp_src(const void *pa, const void *pb)
{
    const struct section_src *a = pa, *b = pb;
    if (a->periph_section != b->periph_section)
        return a->periph_section ? 1 : -1;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    int at = cmp_pos(a->at, b->at);
    return at ? at : (a->order > b->order) - (a->order < b->order);
}

/* The macros and enums of every section_src, in svdconv's order, into the section's lists:
 * macros[0] and enums[0] the clusters', [1] the peripherals'. The macros' names were given out
 * as the blocks were laid out, before any enum's (claim_enum_name). */
static void write_sections(struct cmsis *c, struct dt *macros[2], struct dt *enums[2])
{
    if (c->nsrcs) /* none where no peripheral has a register: srcs is NULL, qsort's undefined */
        qsort(c->srcs, c->nsrcs, sizeof(*c->srcs), cmp_src);
    const struct model_block *grouped = NULL;
    for (size_t i = 0; i < c->nsrcs; i++) {
        const struct section_src *s = &c->srcs[i];
        if (s->macros)
            dt_push(c->a, macros[s->periph_section], s->macros);
        c->enums.list = enums[s->periph_section];
        c->periph = s->periph;
        if (s->b != grouped) /* the alternateGroups the names carry are per block */
            svd_names_groups(&c->groups, grouped = s->b);
        if (s->r) {
            add_enums(c, s->b, s->r, s->copy);
        } else if (!s->cl || !in_later_element(c, s->b, s->cl)) {
            c->enums.copy = false;
            cmsis_enum_index(&c->enums,
                             s->cl ? svd_names_enum_cluster(c->a, s->periph, s->cl) : s->periph,
                             s->index);
        }
    }
}

/*
 * The dimArrayIndex enums of the type add_type() writes: each cluster's with a type of its own
 * (not in a derived peripheral's copy, 'copy'), and the peripheral's when svdconv lists it
 * (SvdDevice::CreatePeripheralTypes: a "modified" one, which a derived peripheral with a type of
 * its own is, and one with registers or an addressBlock), once for the elements of an array;
 * named by the peripheral's name without "[%s]" (HeaderData::CreatePeripheralEnumArrayValue).
 */
static void add_index_srcs(struct cmsis *c, const struct model_block *b, bool copy)
{
    const struct model_instance *in = c->typed;
    bool listed = in && (in->own_type || b->nregs || b->naddr_blocks || b->header_struct ||
                         b->prepend || b->append);
    if (listed && in->array_index &&
        (in->index == 0 || b->instances[in->index - 1]->array_index != in->array_index))
        push_src(c, NULL, in->dim_of ? svd_names_without_dim(c->a, in->dim_of) : in->name,
                 in->array_index, NULL, false);
    for (size_t i = 0; i < b->nclusters && !copy; i++) {
        const struct model_cluster *k = b->clusters[i];
        if (cluster_in_copy(k))
            continue;
        c->has_clusters = true;
        if (k->array_index)
            push_src(c, k, c->periph, k->array_index, NULL, false);
    }
}

/* The _Pos/_Msk macros of b's registers under 'prefix': the peripheral's headerStructName, else
 * its name (SvdItem::TryGetHeaderStructName; no headerDefinitionsPrefix); each kept with its
 * register's section_src, which write_sections() puts in svdconv's order. */
static void add_bitfields(struct cmsis *c, const struct model_block *b, const char *prefix,
                          bool top_only)
{
    for (size_t i = 0; i < b->nregs; i++) {
        if ((top_only && model_reg_ext(b->regs[i])->cluster) || in_copy(b->regs[i]))
            continue;
        push_src(c, model_reg_ext(b->regs[i])->cluster, c->periph, NULL, b->regs[i],
                 top_only); /* top_only: a derived peripheral's copy */
        const char *rname = c->reg_name[i] ? c->reg_name[i] : b->regs[i]->name;
        struct dt *fields = reg_fields(c, b->regs[i], rname, prefix);
        if (dt_len(fields) == 0)
            continue;
        struct dt *o = dt_obj(c->a);
        SET(c->a, o, "name",
            dt_str_ref(c->a,
                       arena_printf(c->a, "%s_%s", prefix, macro_reg_name(c, b->regs[i], rname))));
        SET(c->a, o, "fields", fields);
        c->srcs[c->nsrcs - 1].macros = o;
    }
}

/* svdconv's _Pos/_Msk sections: the clusters' when it lists a cluster, then the peripherals'
 * (HeaderData::CreateClustersPosMask, CreatePeripheralsPosMask). */
static struct dt *pos_mask_sections(struct cmsis *c, struct dt *macros[2])
{
    static const char *const names[2] = {"Cluster", "Peripheral"};
    struct dt *list = dt_list(c->a);
    for (int i = c->has_clusters ? 0 : 1; i < 2; i++) {
        struct dt *o = dt_obj(c->a);
        SET(c->a, o, "section", dt_str_ref(c->a, names[i]));
        SET(c->a, o, "registers", macros[i]);
        dt_push(c->a, list, o);
    }
    return list;
}

/* ------------------------------------------------------------ the object */

/* Has one of b's instances a base address (its registers' addresses are offsets from it)? */
static bool has_base(const struct model_block *b)
{
    for (size_t i = 0; i < b->ninstances; i++)
        if (b->instances[i]->has_base)
            return true;
    return false;
}

/* The include guard: NAME_H upper-cased, a character no identifier holds made '_'. */
static char *guard(struct arena *a, const char *name)
{
    char *g = arena_printf(a, "%s%s_H", name[0] >= '0' && name[0] <= '9' ? "_" : "",
                           names_upper(a, name));
    for (char *p = g; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            *p = '_';
    return g;
}

static const struct model_reg *first_not_mmio(const struct model_spec *s)
{
    for (size_t b = 0; b < s->nblocks; b++)
        for (size_t i = 0; i < s->blocks[b]->nregs; i++)
            if (s->blocks[b]->regs[i]->space != SPACE_MMIO)
                return s->blocks[b]->regs[i];
    return NULL;
}

int context_cmsis_check(struct diag *dg, const struct model_spec *s)
{
    const struct model_reg *r = first_not_mmio(s);
    if (!r)
        return 0;
    return diag_report(dg, DIAG_USAGE, r->pos,
                       "-t cmsis describes memory-mapped registers: register '%s' of block "
                       "'%s' is in space '%s' (%s)",
                       r->name, r->block->name, r->space == SPACE_MSR ? "msr" : "pci",
                       r->space == SPACE_MSR ? "model-specific registers"
                                             : "PCI configuration space");
}

/* The types svdconv writes for one peripheral type: its instances and _Pos/_Msk macros; the
 * struct padded to 'pad_to' bytes (an array's dimIncrement). */
static const char *add_type(struct cmsis *c, const struct model_block *b, const char *periph,
                            const char *header_struct, const char *prepend, const char *append,
                            bool copy, uint64_t pad_to)
{
    unsigned align;
    c->periph = periph;
    c->prepend = prepend;
    c->append = append;
    const char *tname = type_name(c, periph_type_stem(c, header_struct, periph));
    if (!has_base(b) || layout(c, b, NULL, tname, pad_to, &align) == 0)
        tname = NULL; /* no registers: bases only; no base: absolute addresses, no overlay */
    /* a copy's clusters are not "modified": no macros of their own (SvdDevice::GatherClusters) */
    add_index_srcs(c, b, copy);
    add_bitfields(c, b, header_struct ? header_struct : periph, copy);
    return tname;
}

/*
 * A block's type and its instances. A derived peripheral svdconv calls modified (own_type) gets
 * a type of its own, laid out again under its own names, and its own _Pos/_Msk macros
 * (SvdDevice::CreatePeripheralTypes); the others use the block's type, or, in a block with a
 * type_of (registers of its own only by their access or reset), type_of's.
 */
/* Records that instance b->instances[i] has the type 'tname' (NULL: none), for type_of. */
static void typed(struct cmsis *c, const struct model_block *b, size_t i, const char *tname)
{
    bool found;
    xmap_put(&c->inst_types, &b->instances[i], sizeof(b->instances[i]), &found)->val =
        (void *)tname;
}

/* The type of b's instance i, which has none of its own: its type_of's (laid out before it). */
static const char *type_used(struct cmsis *c, const struct model_block *b, size_t i)
{
    const struct model_instance *t = model_instance_typed_as(b->instances[i]);
    const struct regc_map_entry *e = regc_map_find(&c->inst_types, &t, sizeof(t));
    return e ? e->val : NULL;
}

/* Adds b's instance i of type 'tname', or of a type of its own when it is modified (own_type)
 * and 'may_own'. */
static void add_typed_instance(struct cmsis *c, const struct model_block *b, size_t i,
                               struct dt *insts, const char *tname, bool may_own)
{
    const struct model_instance *in = b->instances[i];
    if (in->own_type && may_own) {
        c->typed = in;
        tname = add_type(c, b, in->name, in->header_struct, in->prepend, in->append, true, 0);
        typed(c, b, i, tname);
    }
    add_instance(c, insts, in, tname);
}

static void add_block(struct cmsis *c, const struct model_block *b, struct dt *insts)
{
    block_begin(c, b);
    svd_names_groups(&c->groups, b);
    rank_clusters(c, b);
    if (b->type_of) { /* no type of its own: its base's (SvdPeripheral::GetHeaderTypeName) */
        for (size_t i = 0; i < b->ninstances; i++)
            add_typed_instance(c, b, i, insts, type_used(c, b, i), true);
        block_end(c);
        return;
    }
    c->typed = b->ninstances ? b->instances[0] : NULL;
    /*
     * A "[%s]" peripheral array (svdconv's Expression::ARRAY): its type padded to dimIncrement,
     * "typedef NAME_Type NAME_ARRAYType[1];" (HeaderGenerator::MakeTypedefToArray: [1], so that
     * an index steps one element), and one pointer NAME of that type at element 0
     * (MakePeripheralArrayAddressMapping) for all the elements.
     */
    uint64_t stride = 0;
    size_t array = b->ninstances ? model_instance_list(b, 0, &stride) : 0;
    if (array && !strstr(b->instances[0]->dim_of, "[%s]"))
        array = 0; /* a "%s" list: one peripheral each (Expression::EXTEND) */
    const char *tname = add_type(c, b, b->name, b->header_struct, b->prepend, b->append, false,
                                 array ? stride : 0);
    if (b->ninstances)
        typed(c, b, 0, tname);
    if (array && tname) {
        struct dt *t = dt_at(c->type_list, dt_len(c->type_list) - 1), *o = dt_obj(c->a);
        const char *aname = arena_printf(c->a, "%.*sARRAYType", (int)(strlen(tname) - 4), tname);
        SET(c->a, o, "name", dt_str_ref(c->a, aname));
        SET(c->a, o, "type", dt_str_ref(c->a, tname));
        SET(c->a, o, "count", dt_int(c->a, (long long)array));
        dt_set(c->a, t, "array", o);
        const struct model_instance *in = b->instances[0];
        const char *list = arena_printf(c->a, "%.*s%s", (int)(strstr(in->dim_of, "[%s]") - in->dim_of),
                                        in->dim_of, strstr(in->dim_of, "[%s]") + 4);
        add_instance(c, insts, &(struct model_instance){.name = list, .has_base = true,
                                                         .base = in->base}, aname);
    }
    for (size_t i = array && tname ? array : 0; i < b->ninstances; i++)
        add_typed_instance(c, b, i, insts, tname, tname != NULL);
    block_end(c);
}

struct dt *context_cmsis(struct arena *a, const struct model_spec *s)
{
    if (first_not_mmio(s))
        return dt_null();
    struct cmsis c = {.a = a, .type_list = dt_list(a)};
    struct regc_map *maps[] = {&c.types,   &c.macros, &c.values,   &c.enum_names, &c.elements,
                               &c.cl_rank, &c.groups, &c.cl_types, &c.inst_types, &c.held};
    for (size_t i = 0; i < ARRAY_SIZE(maps); i++)
        regc_map_init(maps[i]);
    c.enums = (struct cmsis_enum){a, NULL, claim_enum_name, &c, false};
    const char *name = s->device && s->device->name ? s->device->name : s->name;
    struct dt *o = dt_obj(a);
    SET(a, o, "name", dt_str(a, name));
    SET(a, o, "guard", dt_str_ref(a, guard(a, name)));
    SET(a, o, "cpu", s->device && s->device->cpu ? dt_str(a, s->device->cpu->name) : dt_null());
    struct dt *irqs = irq_list(&c, s);
    SET(a, o, "has_irqs", dt_bool(dt_len(irqs) > 0));
    SET(a, o, "irqs", irqs);
    struct dt *insts = dt_list(a);
    c.prefix = s->device && s->device->header_prefix ? s->device->header_prefix : "";
    for (size_t i = 0; i < s->nblocks; i++)
        add_block(&c, s->blocks[i], insts);
    SET(a, o, "types", c.type_list);
    SET(a, o, "instances", insts);
    struct dt *macros[2] = {dt_list(a), dt_list(a)}, *enums[2] = {dt_list(a), dt_list(a)};
    write_sections(&c, macros, enums);
    SET(a, o, "has_clusters", dt_bool(c.has_clusters));
    SET(a, o, "pos_mask", pos_mask_sections(&c, macros));
    SET(a, o, "cluster_enums", enums[0]);
    SET(a, o, "enums", enums[1]);
    free(c.srcs);
    for (size_t i = 0; i < ARRAY_SIZE(maps); i++)
        regc_map_release(maps[i]);
    return o;
}
