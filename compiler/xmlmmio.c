/*
 * xmlmmio - the element handlers of the memory-mapped forms (docs/regspec.md,
 * "Memory-mapped devices"): what a CMSIS-SVD file says that the other
 * forms cannot, each read into the model member the SVD reader fills
 * (model_mmio.h sets the register and field ones). Beside xmlelem.c, below
 * xmlload.c; see xmlload_int.h.
 */
#include "xmlload_int.h"

#include "model_mmio.h"
#include "model_tree.h"
#include "svd_array_index.h"
#include "svd_rules.h"
#include "svd_words.h"
#include "util.h"

#include <inttypes.h>
#include <string.h>

/* ---------------------------------------------------------------- the device */

/* <device name= vendor= vendor-id= series= version= header-prefix= address-unit-bits= width=> */
struct model_device *xl_load_device(struct loader *ld, const struct xl_elem *n)
{
    struct model_device *d = arena_zalloc(ld->a, sizeof(*d));
    d->name = xl_get(ld, n, "name");
    d->vendor = xl_get(ld, n, "vendor");
    d->vendor_id = xl_get(ld, n, "vendor-id");
    d->series = xl_get(ld, n, "series");
    d->version = xl_get(ld, n, "version");
    d->header_prefix = xl_get(ld, n, "header-prefix");
    d->address_unit_bits = xl_get_uint(ld, n, "address-unit-bits", 8);
    d->width = xl_get_uint(ld, n, "width", 32);
    d->desc = xl_desc_of(ld, n);
    d->pos = xl_pos_of(ld, n);
    return d;
}

/* <core name= revision= endian= mpu= fpu= fpu-dp= icache= dcache= vtor= nvic-prio-bits=
 *  vendor-systick=> */
struct model_device_cpu *xl_load_core(struct loader *ld, const struct xl_elem *n)
{
    struct model_device_cpu *c = arena_zalloc(ld->a, sizeof(*c));
    c->name = xl_get(ld, n, "name");
    c->revision = xl_get(ld, n, "revision");
    c->endian = xl_get(ld, n, "endian");
    c->mpu = xl_get_bool(ld, n, "mpu");
    c->fpu = xl_get_bool(ld, n, "fpu");
    c->fpu_dp = xl_get_bool(ld, n, "fpu-dp");
    c->icache = xl_get_bool(ld, n, "icache");
    c->dcache = xl_get_bool(ld, n, "dcache");
    c->vtor = xl_get_bool(ld, n, "vtor");
    c->has_nvic_bits =
        xl_get_num_max(ld, n, "nvic-prio-bits", MODEL_NVIC_BITS_MAX, &c->nvic_prio_bits);
    c->vendor_systick = xl_get_bool(ld, n, "vendor-systick");
    c->pos = xl_pos_of(ld, n);
    return c;
}

/* ---------------------------------------------------------------- "%s" lists */

/* 'prev' when 'pattern' is the same text: one "%s" list's elements share the string, as the SVD
 * reader's do, which is how lists are told apart (model_reg_list(), model_instance_list(),
 * context_svd.c). */
static const char *same_pattern(const char *pattern, const char *prev)
{
    return pattern && prev && strcmp(pattern, prev) == 0 ? prev : pattern;
}

/* Element n's dim-of=, in the list of the element before it ('prev': its dim-of=) unless n says
 * dim-start="true", which keeps two lists of one pattern that follow each other at one spacing
 * two, as -t regspec writes them. */
static const char *same_list(struct loader *ld, const struct xl_elem *n, const char *prev)
{
    const char *dim_of = xl_get(ld, n, "dim-of");
    return xl_get_bool(ld, n, "dim-start") ? dim_of : same_pattern(dim_of, prev);
}

static const char *prev_reg_dim_of(const struct model_reg *r)
{
    const struct model_block *b = r->block;
    return b && b->nregs ? model_reg_ext(b->regs[b->nregs - 1])->dim_of : NULL;
}

static const char *prev_field_dim_of(const struct model_field *f)
{
    const struct model_reg *r = f->reg;
    for (size_t i = r->nfields; i-- > 0;)
        if (!r->fields[i]->implicit)
            return model_field_ext(r->fields[i])->dim_of;
    return NULL;
}

/* ---------------------------------------------------------------- peripherals */

/* The instance named 'name' of a block loaded before 'b', or NULL. */
static const struct model_instance *earlier_instance(const struct model_spec *s,
                                                     const struct model_block *b, const char *name)
{
    for (size_t i = 0; i < s->nblocks && s->blocks[i] != b; i++)
        for (size_t k = 0; k < s->blocks[i]->ninstances; k++)
            if (strcmp(s->blocks[i]->instances[k]->name, name) == 0)
                return s->blocks[i]->instances[k];
    return NULL;
}

/* type-of= of a <block>: the peripheral whose CMSIS type its instances use (model.h) */
static void type_of(struct loader *ld, const struct xl_elem *n, struct model_block *b)
{
    const char *name = xl_get(ld, n, "type-of");
    if (!name)
        return;
    const struct model_instance *in = earlier_instance(ld->spec, b, name);
    if (!in) {
        xl_report(ld, DIAG_UNKNOWN_REF, xl_value_pos(ld, n, "type-of", 0),
                  "type-of '%s' of block '%s' names no instance of a block before it", name,
                  b->name);
        return;
    }
    b->type_of = model_instance_typed_as(in); /* the type it uses, as the SVD reader's */
}

/* group= header-struct= prepend= append= type-of= of a <block> */
void xl_mmio_block(struct loader *ld, const struct xl_elem *n, struct model_block *b)
{
    b->group = xl_get(ld, n, "group");
    b->header_struct = xl_get(ld, n, "header-struct");
    b->prepend = xl_get(ld, n, "prepend");
    b->append = xl_get(ld, n, "append");
    b->names_qualified = ld->spec->block_names;
    type_of(ld, n, b);
}

/* Where the value of derived-from= starts (what svd-derived points at); none without one. */
static struct srcpos derived_pos(struct loader *ld, const struct xl_elem *n)
{
    if (!xl_peek(ld, n, "derived-from"))
        return (struct srcpos){0, 0, 0};
    return xl_value_pos(ld, n, "derived-from", 0);
}

/* derived-from= alternate= group= version= header-struct= prepend= append= own-type= dim-of= of
 * an <instance> (in->block: its block, its earlier instances there) */
void xl_mmio_instance(struct loader *ld, const struct xl_elem *n, struct model_instance *in)
{
    const struct model_block *b = in->block;
    in->dim_of = same_list(ld, n, b->ninstances ? b->instances[b->ninstances - 1]->dim_of : NULL);
    in->derived_from = xl_get(ld, n, "derived-from");
    in->derived_pos = derived_pos(ld, n);
    in->alternate = xl_get(ld, n, "alternate");
    in->group = xl_get(ld, n, "group");
    in->version = xl_get(ld, n, "version");
    in->header_struct = xl_get(ld, n, "header-struct");
    in->prepend = xl_get(ld, n, "prepend");
    in->append = xl_get(ld, n, "append");
    in->own_type = xl_get_bool(ld, n, "own-type");
}

/* <interrupt name= value= desc=> */
struct model_interrupt *xl_load_interrupt(struct loader *ld, const struct xl_elem *n)
{
    struct model_interrupt *it = arena_zalloc(ld->a, sizeof(*it));
    it->name = xl_get(ld, n, "name");
    xl_get_num_max(ld, n, "value", MODEL_IRQ_MAX, &it->value);
    it->desc = xl_desc_of(ld, n);
    it->pos = xl_pos_of(ld, n);
    return it;
}

/* <address-block offset= size= usage= protection=> */
struct model_addr_block *xl_load_addr_block(struct loader *ld, const struct xl_elem *n)
{
    struct model_addr_block *ab = arena_zalloc(ld->a, sizeof(*ab));
    xl_get_num(ld, n, "offset", &ab->offset);
    xl_get_num(ld, n, "size", &ab->size);
    ab->usage = xl_get(ld, n, "usage");
    ab->protection = xl_get(ld, n, "protection");
    ab->pos = xl_pos_of(ld, n);
    return ab;
}

/* Does cluster 'c' have the path 'path' ("OUTER.INNER": its parents' names, then its own)? */
static bool cluster_is(const struct model_cluster *c, const char *path, size_t len)
{
    for (; c; c = c->parent) {
        size_t n = strlen(c->name);
        if (n > len || memcmp(path + len - n, c->name, n) != 0)
            return false;
        if (n == len)
            return c->parent == NULL;
        if (path[len - n - 1] != '.')
            return false;
        len -= n + 1;
    }
    return false;
}

/* The cluster of block 'b' declared so far whose path is 'path', or NULL. */
static struct model_cluster *find_cluster(const struct model_block *b, const char *path)
{
    for (size_t i = 0; i < b->nclusters; i++)
        if (cluster_is(b->clusters[i], path, strlen(path)))
            return b->clusters[i];
    return NULL;
}

/* 'path', an attribute of 'n' naming a cluster of 'b': the cluster, or NULL (reported). */
static struct model_cluster *cluster_ref(struct loader *ld, const struct xl_elem *n, const char *attr,
                                         const struct model_block *b, const char *what)
{
    const char *path = xl_peek(ld, n, attr);
    if (!path)
        return NULL;
    struct model_cluster *c = find_cluster(b, path);
    if (!c)
        xl_report(ld, DIAG_UNKNOWN_REF, xl_value_pos(ld, n, attr, 0),
                  "%s names cluster '%s', which block '%s' does not declare before it", what, path,
                  b->name ? b->name : "?");
    return c;
}

/* <cluster name= in= svd-name= address= count= stride= header-struct= alternate= derived-from=> */
struct model_cluster *xl_load_cluster(struct loader *ld, const struct xl_elem *n, const struct model_block *b)
{
    struct model_cluster *c = arena_zalloc(ld->a, sizeof(*c));
    c->name = xl_get(ld, n, "name");
    c->written_name = xl_get(ld, n, "svd-name");
    if (!c->written_name)
        c->written_name = c->name;
    else if (b->nclusters) /* one "%s" list's elements share it, as the SVD reader's do */
        c->written_name = same_pattern(c->written_name, b->clusters[b->nclusters - 1]->written_name);
    xl_get_num(ld, n, "address", &c->address);
    uint64_t count = 1; /* as many elements as SVD's <dim> allows */
    if (xl_get_num_max(ld, n, "count", MODEL_DIM_MAX, &count) && count == 0)
        xl_report(ld, DIAG_BAD_ARRAY, xl_value_pos(ld, n, "count", 0),
                  "cluster '%s' has count 0: an array has at least one element",
                  c->name ? c->name : "?");
    c->count = (unsigned)count;
    xl_get_num(ld, n, "stride", &c->stride);
    c->header_struct = xl_get(ld, n, "header-struct");
    c->alternate = xl_get(ld, n, "alternate");
    c->derived_from = xl_get(ld, n, "derived-from");
    c->derived_pos = derived_pos(ld, n);
    const char *own = xl_peek(ld, n, "own-type");
    c->base_type = own && strcmp(own, "false") == 0;
    if (c->base_type && (!c->derived_from || c->header_struct)) /* svdconv: no base, or modified */
        xl_report(ld, DIAG_SVD_DERIVED, xl_value_pos(ld, n, "own-type", 0),
                  "cluster '%s': own-type=\"false\" (its base's CMSIS type) %s",
                  c->name ? c->name : "?",
                  !c->derived_from ? "needs derived-from= naming the cluster it copies"
                                   : "and header-struct= together: a cluster that names its type "
                                     "has a type of its own");
    c->desc = xl_desc_of(ld, n);
    c->pos = xl_pos_of(ld, n);
    c->parent = cluster_ref(ld, n, "in", b,
                            arena_printf(ld->a, "cluster '%s'", c->name ? c->name : "?"));
    return c;
}

/* ---------------------------------------------------------------- registers */

/* index-names="A B C": one name per element of the array */
static void load_index_names(struct loader *ld, const struct xl_elem *n, struct model_reg *r)
{
    const char *given = xl_peek(ld, n, "index-names");
    if (!given)
        return;
    const char **names = NULL;
    size_t k = 0;
    value_words(ld->a, given, &names, &k);
    const char *name = r->written_name ? r->written_name : "?";
    if (!r->is_array) {
        xl_report(ld, DIAG_BAD_ARRAY, xl_value_pos(ld, n, "index-names", 0),
                  "register '%s' is not an array: 'index-names' needs a name such as '%s{0-2}'",
                  name, name);
        return;
    }
    if (k != r->count) {
        xl_report(ld, DIAG_BAD_ARRAY, xl_value_pos(ld, n, "index-names", 0),
                  "register '%s' has %u element%s but 'index-names' lists %zu", name, r->count,
                  r->count == 1 ? "" : "s", k);
        return;
    }
    model_reg_set_index_names(ld->a, r, names);
}

/* reset-mask= alternate= alternate-group= protection= display-name= derived-from= dim-of=
 * index-names= cluster= svd-name= of a <register> */
void xl_mmio_register(struct loader *ld, const struct xl_elem *n, struct model_reg *r)
{
    uint64_t mask;
    if (xl_get_num(ld, n, "reset-mask", &mask))
        model_reg_set_reset_mask(ld->a, r, mask);
    model_reg_set_alternate(ld->a, r, xl_get(ld, n, "alternate"));
    const char *group = xl_get(ld, n, "alternate-group"); /* r->block: registers are in blocks */
    if (group)
        model_block_add_alt_group(ld->a, r->block, r, group);
    model_reg_set_protection(ld->a, r, xl_get(ld, n, "protection"));
    model_reg_set_display_name(ld->a, r, xl_get(ld, n, "display-name"));
    model_reg_set_derived_from(ld->a, r, xl_get(ld, n, "derived-from"),
                               derived_pos(ld, n));
    model_reg_set_dim_of(ld->a, r, same_list(ld, n, prev_reg_dim_of(r)));
    load_index_names(ld, n, r);
    if (xl_peek(ld, n, "cluster")) {
        struct model_cluster *c =
            cluster_ref(ld, n, "cluster", r->block,
                        arena_printf(ld->a, "register '%s'", r->written_name ? r->written_name : "?"));
        model_reg_set_cluster(ld->a, r, c);
        if (!model_reg_ext(r)->alternate) /* its cluster's alternate=, as an SVD reader gives it */
            model_reg_set_alternate(ld->a, r, model_cluster_alternate(c));
    }
    const char *svd_name = xl_get(ld, n, "svd-name");
    if (svd_name)
        r->written_name = svd_name;
}

/* ---------------------------------------------------------------- fields */

/* write-constraint="write-as-read" | "enumerated" | "MIN..MAX" */
static void load_write_constraint(struct loader *ld, const struct xl_elem *n, struct model_field *f)
{
    const char *v = xl_get(ld, n, "write-constraint");
    if (!v)
        return;
    struct model_write_constraint wc = {0};
    const char *dots = strstr(v, "..");
    struct value_error err;
    if (strcmp(v, "write-as-read") == 0) {
        wc.kind = WC_WRITE_AS_READ;
    } else if (strcmp(v, "enumerated") == 0) {
        wc.kind = WC_ENUMERATED;
    } else if (dots) {
        char *lo = arena_strndup(ld->a, v, (size_t)(dots - v));
        if (!value_number(ld->a, "write-constraint", lo, &wc.min, &err) ||
            !value_number(ld->a, "write-constraint", dots + 2, &wc.max, &err)) {
            xl_report(ld, DIAG_BAD_NUMBER, xl_value_pos(ld, n, "write-constraint", 0),
                      "write-constraint '%s': the range's ends are not numbers (MIN..MAX)", v);
            return;
        }
        wc.kind = WC_RANGE;
    } else {
        xl_report(ld, DIAG_SCHEMA, xl_value_pos(ld, n, "write-constraint", 0),
                  "write-constraint '%s' is not write-as-read, enumerated or a range MIN..MAX",
                  v);
        return;
    }
    model_field_set_write_constraint(ld->a, f, wc);
}

/* write= and read-action=, SVD's words; with an SVD access word they give the class. */
static void load_effects(struct loader *ld, const struct xl_elem *n, struct model_field *f)
{
    const char *w = xl_peek(ld, n, "write"), *ra = xl_peek(ld, n, "read-action");
    int we = w ? svd_write_parse(w) : 0, re = ra ? svd_read_parse(ra) : 0;
    if (we < 0)
        xl_report(ld, DIAG_UNKNOWN_ACCESS, xl_value_pos(ld, n, "write", 0),
                  "write '%s' is not an SVD modifiedWriteValues (oneToClear, oneToSet, "
                  "oneToToggle, zeroToClear, zeroToSet, zeroToToggle, clear, set, modify)", w);
    if (re < 0)
        xl_report(ld, DIAG_UNKNOWN_ACCESS, xl_value_pos(ld, n, "read-action", 0),
                  "read-action '%s' is not an SVD readAction (clear, set, modify, "
                  "modifyExternal)", ra);
    model_field_set_write_effect(ld->a, f, we > 0 ? (enum model_write_effect)we : WRITE_STORES);
    if (w && we >= 0)
        model_field_ext_set(ld->a, f)->write_given = true;
    model_field_set_read_effect(ld->a, f, re > 0 ? (enum model_read_effect)re : READ_NONE);
    if (f->access_text && svd_access_is_word(f->access_text)) {
        svd_field_access(ld->a, f, f->access_text);
    } else if ((w || ra) && f->access_text) {
        xl_report(ld, DIAG_UNKNOWN_ACCESS, xl_value_pos(ld, n, "access", 0),
                  "field '%s' gives %s= with access '%s': write= and read-action= go with an "
                  "SVD access (read-only, write-only, read-write, writeOnce, read-writeOnce)",
                  f->name ? f->name : "?", w ? "write" : "read-action", f->access_text);
    }
}

/* write= read-action= write-constraint= enum-name= derived-from= dim-of= whole= of a <field> */
void xl_mmio_field(struct loader *ld, const struct xl_elem *n, struct model_field *f)
{
    load_effects(ld, n, f);
    load_write_constraint(ld, n, f);
    model_field_set_enum_name(ld->a, f, xl_get(ld, n, "enum-name"));
    model_field_set_derived_from(ld->a, f, xl_get(ld, n, "derived-from"),
                                 derived_pos(ld, n));
    model_field_set_dim_of(ld->a, f, same_list(ld, n, prev_field_dim_of(f)));
    model_field_set_whole(ld->a, f, xl_get_bool(ld, n, "whole"));
}

/*
 * usage= dont-care= default= of a <value>. True when it is the field's
 * default (default="true": the name of every value not listed), which
 * joins no list.
 */
bool xl_mmio_value(struct loader *ld, const struct xl_elem *n, struct model_field *f, struct model_value *v)
{
    const char *usage = xl_peek(ld, n, "usage");
    if (usage) /* the SVD additions are allocated only for a value that has one */
        model_value_ext_set(ld->a, v)->usage = strcmp(usage, "read") == 0 ? USAGE_READ : USAGE_WRITE;
    uint64_t dont_care = 0;
    if (xl_get_num(ld, n, "dont-care", &dont_care) && dont_care)
        model_value_ext_set(ld->a, v)->dont_care = dont_care;
    if (xl_get_bool(ld, n, "default")) {
        model_field_add_default(ld->a, f, v); /* of the sets of its usage= */
        return true;
    }
    if (!xl_peek(ld, n, "value"))
        xl_report(ld, DIAG_SCHEMA, v->pos,
                  "element 'value': missing attribute 'value' (only the default, default=\"true\", "
                  "has none)");
    return false;
}

/*
 * <array-index header-enum-name=>: SVD's <dimArrayIndex>, its indices' names; 'had' the one the
 * element has so far (a second is reported: NULL), 'not_array' what to say when the element is
 * no array (NULL when it is one). One reader for a register's, a cluster's and an instance's.
 */
static struct model_array_index *array_index_new(struct loader *ld, const struct xl_elem *n,
                                                 const struct model_array_index *had,
                                                 const char *not_array)
{
    if (had) {
        xl_report_repeated(ld, n, had->pos);
        return NULL;
    }
    if (not_array)
        xl_report(ld, DIAG_BAD_ARRAY, xl_pos_of(ld, n), "%s", not_array);
    struct model_array_index *ix = arena_zalloc(ld->a, sizeof(*ix));
    ix->enum_name = xl_get(ld, n, "header-enum-name");
    ix->pos = xl_pos_of(ld, n);
    return ix;
}

struct model_array_index *xl_mmio_array_index(struct loader *ld, const struct xl_elem *n,
                                              struct model_reg *r)
{
    const char *name = r->name ? r->name : "?";
    /* an array, or a "%s" list's element; a derived register may take its base's array, which
       is known once derivation is done (xmlderive.c's index_of_derived checks it then) */
    bool array = r->is_array || model_reg_ext(r)->dim_of || model_reg_ext(r)->derived_from;
    struct model_array_index *ix = array_index_new(
        ld, n, model_reg_ext(r)->array_index,
        array ? NULL
              : arena_printf(ld->a, "register '%s' is not an array: <array-index> needs a name "
                                    "such as '%s{0-2}' (or a dim-of= list)",
                             name, r->name ? r->name : "R"));
    if (ix)
        model_reg_set_array_index(ld->a, r, ix);
    return ix;
}

struct model_array_index *xl_mmio_cluster_array_index(struct loader *ld, const struct xl_elem *n,
                                                      struct model_cluster *c)
{
    bool array = model_cluster_is_array(c);
    const char *name = c->name ? c->name : "?";
    struct model_array_index *ix = array_index_new(
        ld, n, c->array_index,
        array ? NULL
              : arena_printf(ld->a, "cluster '%s' is not an array: <array-index> needs count= "
                                    "(or an svd-name= with %%s)",
                             name));
    if (ix)
        c->array_index = ix;
    return ix;
}

struct model_array_index *xl_mmio_instance_array_index(struct loader *ld, const struct xl_elem *n,
                                                       struct model_instance *in)
{
    /* on any instance: svdconv writes a non-array peripheral's own dimArrayIndex as an enum too
       (tests/svd/cmsis-enum.svd's TIM2_Enum) */
    struct model_array_index *ix = array_index_new(ld, n, in->array_index, NULL);
    if (ix)
        in->array_index = ix;
    return ix;
}

/* <enum-set name= header-enum-name= usage="read|write|read-write" derived-from=> */
void xl_mmio_enum_set(struct loader *ld, const struct xl_elem *n, struct model_field *f, size_t *cap)
{
    struct model_enum_set *s = arena_zalloc(ld->a, sizeof(*s));
    s->name = xl_get(ld, n, "name");
    s->header_enum = xl_get(ld, n, "header-enum-name");
    s->derived_pos = derived_pos(ld, n);
    s->derived_from = xl_get(ld, n, "derived-from");
    s->pos = xl_pos_of(ld, n);
    const char *usage = xl_peek(ld, n, "usage");
    s->usage = !usage                         ? USAGE_ANY
               : strcmp(usage, "read") == 0  ? USAGE_READ
               : strcmp(usage, "write") == 0 ? USAGE_WRITE
                                             : USAGE_ANY;
    model_field_add_enum_set(ld->a, f, s, cap);
}

/* ---------------------------------------------------------------- the spec loaded */

/* How many instances of 'b' from the k-th on are elements of its dim-of= list, as -t svd writes
 * one <dim> peripheral (model_instance_list(): evenly apart and ascending); 1: in none. */
static size_t list_len(const struct model_block *b, size_t k)
{
    uint64_t stride;
    size_t n = model_instance_list(b, k, &stride);
    return n ? n : 1;
}

/* Is cluster 'o' an element of the array cluster 'c' is an element of, as the SVD reader expands
 * one per index (count 1, an svd-name= with %s): the same svd-name in the same parent? */
static bool same_array(const struct model_cluster *c, const struct model_cluster *o)
{
    return c->count == 1 && o->count == 1 && o->parent == c->parent &&
           strcmp(o->written_name, c->written_name) == 0;
}

/* Do 'x' and 'y' say the same (header-enum-name=, each <index>'s name, value and desc)? */
static bool same_array_index(const struct model_array_index *x, const struct model_array_index *y)
{
    if (!x || !y)
        return x == y;
    if (!util_same_text(x->enum_name, y->enum_name) || x->nvalues != y->nvalues)
        return false;
    for (size_t i = 0; i < x->nvalues; i++) {
        const struct model_value *v = x->values[i], *w = y->values[i];
        if (strcmp(v->name, w->name) != 0 || v->value != w->value ||
            !util_same_text(v->desc, w->desc))
            return false;
    }
    return true;
}

/*
 * An array has one <array-index>, its first element's ('head', which gives 'first'): a later
 * element 'elem' may repeat it (as -t regspec writes it in each) or give none, but one that gives
 * another is an error, as CMSIS-SVD has one dimArrayIndex for the whole array (-t svd writes the
 * first's). True when 'later' may share 'first'.
 */
static bool one_array_index(struct diag *dg, const char *kind, const char *elem,
                            const struct model_array_index *later, const char *head,
                            struct srcpos head_pos, const struct model_array_index *first)
{
    if (!later || same_array_index(first, later))
        return true;
    diag_report(dg, DIAG_BAD_ARRAY, later->pos,
                "%s '%s' gives an <array-index> unlike that of '%s', its array's first element: "
                "an array has one (CMSIS-SVD's dimArrayIndex)",
                kind, elem, head);
    if (first)
        diag_note(dg, first->pos, "the <array-index> of '%s'", head);
    else
        diag_note(dg, head_pos, "'%s' gives none", head);
    return false;
}

/* 'ix', the <array-index> of the array of 'kind' whose first element is 'head', checked against
 * its 'dim' elements: what the array's elements then share. */
static const struct model_array_index *array_index_kept(struct arena *a, struct diag *dg,
                                                        const struct model_array_index *ix,
                                                        uint64_t dim, const char *kind,
                                                        const char *head)
{
    const struct model_array_index *kept = svd_array_index_check(
        a, dg, ix, dim, arena_printf(a, "the <array-index> of %s '%s'", kind, head));
    return kept ? kept : ix;
}

/* The <array-index> of each register array against its count; of each dim-of= list of registers
 * (model_reg_list(), as -t svd writes it), its first element's, one for all its elements, against
 * the list's length. */
static void check_reg_indices(struct arena *a, struct diag *dg, const struct model_block *b)
{
    for (size_t k = 0, n; k < b->nregs; k += n) {
        uint64_t incr;
        n = model_reg_list(b, k, &incr);
        struct model_reg *head = b->regs[k];
        const struct model_array_index *ix = model_reg_ext(head)->array_index;
        if (head->is_array) {
            if (ix)
                model_reg_set_array_index(
                    a, head, array_index_kept(a, dg, ix, head->count, "register", head->name));
            continue;
        }
        bool one = true;
        for (size_t e = 1; e < n; e++)
            one &= one_array_index(dg, "register", b->regs[k + e]->name,
                                   model_reg_ext(b->regs[k + e])->array_index, head->name,
                                   head->pos, ix);
        if (!one || !ix)
            continue;
        ix = array_index_kept(a, dg, ix, n, "register", head->name);
        for (size_t e = 0; e < n; e++)
            model_reg_set_array_index(a, b->regs[k + e], ix);
    }
}

/* Does a cluster of 'b' have an <array-index>? */
static bool any_cluster_index(const struct model_block *b)
{
    for (size_t i = 0; i < b->nclusters; i++)
        if (b->clusters[i]->array_index)
            return true;
    return false;
}

/* Is cluster k of 'b' an element of an array after its first? */
static bool later_element(const struct model_block *b, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (same_array(b->clusters[k], b->clusters[i]))
            return true;
    return false;
}

/*
 * The <array-index> of each cluster array, one for all its elements: a count= array's, or that
 * of the first element of an array the SVD reader expanded per index, against the number of its
 * elements.
 */
static void check_cluster_indices(struct arena *a, struct diag *dg, const struct model_block *b)
{
    if (!any_cluster_index(b))
        return; /* the elements of cluster arrays looked for only where they may have one */
    for (size_t k = 0; k < b->nclusters; k++) {
        struct model_cluster *head = b->clusters[k];
        if (!model_cluster_is_array(head) || later_element(b, k))
            continue; /* the elements after the first are done with it */
        size_t dim = head->count;
        bool one = true;
        for (size_t i = k + 1; i < b->nclusters; i++) {
            const struct model_cluster *c = b->clusters[i];
            if (same_array(head, c)) {
                dim++;
                one &= one_array_index(dg, "cluster", c->name, c->array_index, head->name,
                                       head->pos, head->array_index);
            }
        }
        if (!one || !head->array_index)
            continue;
        head->array_index = array_index_kept(a, dg, head->array_index, dim, "cluster", head->name);
        for (size_t i = k + 1; i < b->nclusters; i++)
            if (same_array(head, b->clusters[i]))
                b->clusters[i]->array_index = head->array_index;
    }
}

/* The <array-index> of each dim-of= list of instances, one for all its elements, against the
 * list's length. One of an instance in no list is not checked: svdconv checks none (M229). */
static void check_instance_indices(struct arena *a, struct diag *dg, const struct model_block *b)
{
    for (size_t k = 0, n; k < b->ninstances; k += n) {
        n = list_len(b, k);
        const struct model_instance *head = b->instances[k];
        if (!head->dim_of)
            continue;
        bool one = true;
        for (size_t e = 1; e < n; e++)
            one &= one_array_index(dg, "instance", b->instances[k + e]->name,
                                   b->instances[k + e]->array_index, head->name, head->pos,
                                   head->array_index);
        if (!one || !head->array_index)
            continue;
        const struct model_array_index *ix =
            array_index_kept(a, dg, head->array_index, n, "instance", head->name);
        for (size_t e = 0; e < n; e++)
            b->instances[k + e]->array_index = ix;
    }
}

/*
 * Each <array-index> against its array's dim, as the SVD reader checks a dimArrayIndex
 * (svd_array_index.h): a register's and a cluster's once read, an instance's once its whole
 * dim-of= list is. The elements of one array share its first element's, checked once, as the
 * SVD reader's share one.
 */
static void check_array_indices(struct arena *a, struct diag *dg, const struct model_block *b)
{
    check_reg_indices(a, dg, b);
    check_cluster_indices(a, dg, b);
    check_instance_indices(a, dg, b);
}

/* The bases derived-from= names checked and what they give applied (xmlderive.c); then
 * write-constraint= ranges and enumerations as rules of their registers, as the SVD reader makes
 * them (svd_rules.h), so each register has all its fields and values (a derived one's too); the
 * <array-index> values; each derived set linked to its base (copies included). */
void xl_mmio_finish(struct arena *a, struct diag *dg, struct model_spec *s)
{
    xl_check_derived(a, dg, s);
    for (size_t i = 0; i < s->nblocks; i++) {
        for (size_t k = 0; k < s->blocks[i]->nregs; k++)
            svd_write_rules(a, dg, s->blocks[i]->regs[k]);
        check_array_indices(a, dg, s->blocks[i]);
    }
    model_link_enum_bases(s);
}
