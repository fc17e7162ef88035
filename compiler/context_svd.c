/*
 * context_svd - the template tree's "svd" object (context_svd.h).
 */
#include "context_svd.h"

#include "model_mmio.h"
#include "model_tree.h"

#include "buf.h"
#include "check.h"
#include "cluster_array.h"
#include "svd_words.h"
#include "util.h"

#include "regc/attr.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SET(a, o, lit, v) dt_add((a), (o), DT_KEY(lit), (v))

static struct dt *hex(struct arena *a, uint64_t v)
{
    return dt_str_ref(a, arena_printf(a, "0x%" PRIX64, v));
}

/* xs:boolean, as SVD files spell it */
static struct dt *flag(struct arena *a, bool b)
{
    return dt_str_ref(a, b ? "true" : "false");
}

/* The first register of 's' that is not memory-mapped, or NULL. */
static const struct model_reg *first_unmapped(const struct model_spec *s)
{
    for (size_t i = 0; i < s->nblocks; i++)
        for (size_t k = 0; k < s->blocks[i]->nregs; k++)
            if (s->blocks[i]->regs[k]->space != SPACE_MMIO)
                return s->blocks[i]->regs[k];
    return NULL;
}

bool context_svd_fits(const struct model_spec *s)
{
    return first_unmapped(s) == NULL;
}

/* ------------------------------------------------------------ fields */

/* A field SVD has no element for: reserved bits (implicit gaps, rsv, ig...). */
static bool field_skipped(const struct model_field *f)
{
    return f->implicit || model_field_is_reserved(f);
}

/* SVD's access word for the field's class (writeOnce kept). */
static const char *access_word(const struct model_field *f)
{
    const struct model_field_ext *x = model_field_ext(f);
    if (x->write_once) /* its own classes (WOO, RWO): their sem is not WO or RW */
        return f->access == REGC_ACCESS_WOO ? "writeOnce" : "read-writeOnce";
    switch (model_field_sem(f)) {
    case REGC_SEM_RO:
        return "read-only";
    case REGC_SEM_WO:
        return x->write_once ? "writeOnce" : "write-only";
    default:
        return x->write_once ? "read-writeOnce" : "read-write";
    }
}

/* modifiedWriteValues: the model's (a "modify" written too: a derived field's own, which its
 * base's would replace), else what a regspec attribute implies (RW1C, RW1S). */
static const char *write_word(const struct model_field *f)
{
    const struct model_field_ext *x = model_field_ext(f);
    if (x->write_effect != WRITE_STORES)
        return svd_write_word(x->write_effect);
    if (x->write_given)
        return "modify";
    enum regc_sem sem = model_field_sem(f);
    return sem == REGC_SEM_W1C ? "oneToClear" : sem == REGC_SEM_W1S ? "oneToSet" : NULL;
}

/* The side effects of a field (or of a register written without fields) into 'o'. */
static void effects(struct arena *a, struct dt *o, const struct model_field *f)
{
    const struct model_field_ext *x = model_field_ext(f);
    /* one its peripheral gives: written there (peripheral()) */
    SET(a, o, "access", f->access_inherited ? dt_null() : dt_str_ref(a, access_word(f)));
    SET(a, o, "modified_write_values", dt_str_ref(a, write_word(f)));
    SET(a, o, "read_action", dt_str_ref(a, svd_read_word(x->read_effect)));
    struct dt *wc = dt_null();
    if (x->wc.kind != WC_NONE) {
        wc = dt_obj(a);
        SET(a, wc, "write_as_read", dt_bool(x->wc.kind == WC_WRITE_AS_READ));
        SET(a, wc, "use_enumerated_values", dt_bool(x->wc.kind == WC_ENUMERATED));
        bool range = x->wc.kind == WC_RANGE;
        SET(a, wc, "minimum", range ? hex(a, x->wc.min) : dt_null());
        SET(a, wc, "maximum", range ? hex(a, x->wc.max) : dt_null());
    }
    SET(a, o, "write_constraint", wc);
}

/* "#1x0": a value with don't-care bits, one digit per bit of the field. */
static struct dt *value_text(struct arena *a, const struct model_field *f,
                             const struct model_value *v)
{
    uint64_t dont_care = model_value_ext(v)->dont_care;
    if (!dont_care)
        return hex(a, v->value);
    unsigned w = model_field_width(f);
    char *s = arena_alloc(a, w + 2);
    s[0] = '#';
    for (unsigned i = 0; i < w; i++) {
        unsigned bit = w - 1 - i;
        s[1 + i] = (dont_care >> bit) & 1 ? 'x' : (v->value >> bit) & 1 ? '1' : '0';
    }
    s[w + 1] = '\0';
    return dt_str_ref(a, s);
}

static struct dt *value_obj(struct arena *a, const struct model_field *f,
                            const struct model_value *v, bool is_default)
{
    struct dt *o = dt_obj(a);
    SET(a, o, "name", dt_str(a, v->name));
    SET(a, o, "desc", dt_str(a, v->desc));
    SET(a, o, "value", is_default ? dt_null() : value_text(a, f, v));
    SET(a, o, "is_default", dt_bool(is_default));
    return o;
}

/* The first value of f's set of usage 'u' from f->values[*i] on (model_value_in_set), or NULL;
 * *i past it. */
static const struct model_value *next_in_set(const struct model_field *f,
                                             const struct model_enum_sets *fs, enum model_usage u,
                                             size_t *i)
{
    while (*i < f->nvalues) {
        const struct model_value *v = f->values[(*i)++];
        if (model_value_in_set(v, u, fs->sets, fs->n))
            return v;
    }
    return NULL;
}

/* Do 'x' and 'y' write the same <enumeratedValue> (the number only if 'number')? */
static bool same_value(const struct model_value *x, const struct model_value *y, bool number)
{
    if (!x || !y)
        return x == y;
    return strcmp(x->name, y->name) == 0 && util_same_text(x->desc, y->desc) &&
           (!number || (x->value == y->value &&
                        model_value_ext(x)->dont_care == model_value_ext(y)->dont_care));
}

/* Does set 's' of field 'f' hold the values and isDefault value that set 'b' of 'bf' holds,
 * in one order? */
static bool same_values(const struct model_field *f, const struct model_enum_set *s,
                        const struct model_field *bf, const struct model_enum_set *b)
{
    struct model_enum_sets fs, bs;
    model_field_sets(f, &fs);
    model_field_sets(bf, &bs);
    size_t i = 0, k = 0;
    const struct model_value *x, *y;
    do {
        x = next_in_set(f, &fs, s->usage, &i);
        y = next_in_set(bf, &bs, b->usage, &k);
        if (!same_value(x, y, true))
            return false;
    } while (x);
    return same_value(model_set_default(f, s->usage, fs.sets, fs.n),
                      model_set_default(bf, b->usage, bs.sets, bs.n), false);
}

/*
 * The base a derived set 's' of 'f' is written from (derivedFrom as written), or NULL when it is
 * written whole, without derivedFrom: its name leads to no set in the model as -t svd writes it
 * (model_tree.h), or it holds no value where its base holds some (a derived set without values
 * takes the base's: a regspec's <enum-set> may say otherwise). '*own_values': its values differ
 * from the base's, so it writes them (they replace the base's, as a reader takes them).
 */
static const struct model_enum_set *written_base(const struct model_field *f,
                                                 const struct model_enum_set *s, bool *own_values)
{
    if (!s->derived_from || !s->base)
        return NULL;
    *own_values = !same_values(f, s, s->base_field, s->base);
    return model_set_values_lost(f, s) ? NULL : s->base;
}

/*
 * The field's <enumeratedValues> (model_field_sets): each set's name, headerEnumName and usage,
 * its values (model_value_in_set) and its own isDefault value (model_set_default). A set
 * of its own is written also when empty (a derived one whose base gave none), as the file did.
 * A derived set (written_base) has its derivedFrom and only what its base does not give it:
 * its name and usage when they differ from the base's (its name also when it is another set's
 * base: is_base), its headerEnumName (never a base's), its values when they differ.
 */
static struct dt *enum_sets(struct arena *a, const struct model_field *f)
{
    struct model_enum_sets fs;
    model_field_sets(f, &fs);
    struct dt *sets = dt_list(a);
    for (size_t k = 0; k < fs.n; k++) {
        const struct model_enum_set *s = fs.sets[k];
        struct dt *set = dt_obj(a), *vals = dt_list(a);
        bool own_values = true;
        const struct model_enum_set *base = written_base(f, s, &own_values);
        for (size_t i = 0; own_values && i < f->nvalues; i++)
            if (model_value_in_set(f->values[i], s->usage, fs.sets, fs.n))
                dt_push(a, vals, value_obj(a, f, f->values[i], false));
        const struct model_value *dflt = model_set_default(f, s->usage, fs.sets, fs.n);
        if (dflt && own_values)
            dt_push(a, vals, value_obj(a, f, dflt, true));
        if (!dt_len(vals) && fs.sets == fs.own_ptrs)
            continue; /* a usage no value has */
        /* a base's name also where its base's is the same: another set's derivedFrom finds it
           by it, so the file must hold it (the model gives a derived set its base's name) */
        bool own_name = !base || s->is_base || !util_same_text(s->name, base->name);
        SET(a, set, "derived_from", dt_str(a, base ? s->derived_from : NULL));
        SET(a, set, "name", dt_str(a, own_name ? s->name : NULL));
        SET(a, set, "header_enum_name", dt_str(a, s->header_enum));
        SET(a, set, "usage",
            !base || s->usage != base->usage ? dt_str_ref(a, svd_usage_word(s->usage)) : dt_null());
        SET(a, set, "values", vals);
        dt_push(a, sets, set);
    }
    return sets;
}

static bool is_id_char(char c)
{
    return c == '_' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* "%s" lists: the part of 'name' the pattern's %s stands for, or NULL. */
static const char *dim_index_of(struct arena *a, const char *pattern, const char *name)
{
    const char *at = pattern ? strstr(pattern, "%s") : NULL;
    if (!at || strchr(pattern, '[') || strstr(at + 2, "%s"))
        return NULL;
    size_t pre = (size_t)(at - pattern), post = strlen(at + 2), n = strlen(name);
    if (n <= pre + post || strncmp(name, pattern, pre) != 0 || strcmp(name + n - post, at + 2) != 0)
        return NULL;
    const char *idx = arena_strndup(a, name + pre, n - pre - post);
    for (const char *p = idx; *p; p++)
        if (!is_id_char(*p))
            return NULL;
    return idx;
}

/* A register, cluster or peripheral array's dimArrayIndex: headerEnumName and its index names, or null. */
static struct dt *array_index_obj(struct arena *a, const struct model_array_index *x)
{
    if (!x)
        return dt_null();
    struct dt *o = dt_obj(a), *values = dt_list(a);
    SET(a, o, "enum_name", dt_str(a, x->enum_name));
    for (size_t i = 0; i < x->nvalues; i++) {
        struct dt *v = dt_obj(a);
        SET(a, v, "name", dt_str(a, x->values[i]->name));
        SET(a, v, "desc", dt_str(a, x->values[i]->desc));
        SET(a, v, "value", dt_str_ref(a, arena_printf(a, "%" PRIu64, x->values[i]->value)));
        SET(a, v, "is_default", dt_bool(false));
        dt_push(a, values, v);
    }
    SET(a, o, "values", values);
    return o;
}

/* dim, dimIncrement, dimIndex ("i,j,k"; NULL for 0..n-1) and dimArrayIndex as one object. */
static struct dt *dim_obj(struct arena *a, unsigned count, uint64_t incr, const char *index,
                          const struct model_array_index *names)
{
    struct dt *o = dt_obj(a);
    SET(a, o, "count", dt_int(a, count));
    SET(a, o, "increment", hex(a, incr));
    SET(a, o, "dim_index", dt_str(a, index)); /* not "index": tables.h gives every index an int t_index */
    SET(a, o, "array_index", array_index_obj(a, names));
    return o;
}

/* 'n' names joined with "," (as dimIndex lists them); "" for none. */
static const char *join(struct arena *a, const char *const *names, size_t n)
{
    return n ? util_join(a, names, n, ',') : "";
}

/*
 * How many of the fields from 'i' on are one "%s" list as written (same
 * dim_of, one width, a constant step, names the pattern makes): 1 when
 * none; *index gets the joined indices.
 */
static size_t field_run(struct arena *a, const struct model_reg *r, size_t i, const char **index)
{
    const struct model_field *f0 = r->fields[i];
    if (!model_field_ext(f0)->dim_of)
        return 1;
    const char **idx = arena_alloc(a, r->nfields * sizeof(*idx));
    size_t n = 0;
    unsigned step = 0;
    for (size_t k = i; k < r->nfields; k++) {
        const struct model_field *f = r->fields[k];
        if (field_skipped(f))
            continue;
        if (model_field_ext(f)->dim_of != model_field_ext(f0)->dim_of)
            break;
        const char *ix = dim_index_of(a, model_field_ext(f)->dim_of, f->name);
        if (!ix || model_field_width(f) != model_field_width(f0))
            break;
        if (n == 1)
            step = f->lsb - f0->lsb;
        if (n >= 1 && (step == 0 || f->lsb != f0->lsb + step * n))
            break;
        idx[n++] = ix;
    }
    if (n < 2)
        return 1;
    *index = join(a, idx, n);
    return n;
}

/*
 * The side effect an SVD reader would give regspec field 'f' from the field its derived-from=
 * names (base_field), which 'f' does not have, as "modifiedWriteValues 'W'" or "readAction 'R'"
 * (owned by 'a'); NULL when none. A field with a regspec attribute (RW...) takes no write= or
 * read-action= from its base (model_copy_field_attrs), where the reader takes what -t svd does
 * not write, so -t svd writes it without its derivedFrom (report_fields_whole).
 */
static const char *base_effect_not_own(struct arena *a, const struct model_field *f)
{
    const struct model_field *g = model_field_ext(f)->base_field;
    if (!g)
        return NULL;
    const char *bw = write_word(g), *br = svd_read_word(model_field_ext(g)->read_effect);
    if (bw && !write_word(f))
        return arena_printf(a, "modifiedWriteValues '%s'", bw);
    if (br && model_field_ext(f)->read_effect == READ_NONE)
        return arena_printf(a, "readAction '%s'", br);
    return NULL;
}

/*
 * A derivedFrom as -t svd writes it: each part of the path named as the reader names what it
 * reads (svd-name: check_c_identifier(): '_' for what is not [A-Za-z0-9_], '_' before a leading
 * digit, after a keyword: 1CTL, int: _1CTL, int_), so that it names the element by the name it
 * is written by; a list's part keeps its "%s" or "[%s]" (UART+%s, read as the list UART_%s:
 * UART_%s). NULL stays NULL.
 */
static const char *written_ref(struct arena *a, const char *from)
{
    if (!from)
        return NULL;
    struct buf b = BUF_INIT;
    bool changed = false;
    for (const char *p = from;;) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        const char *part = arena_strndup(a, p, n);
        const char *named = strchr(part, '%') ? check_list_identifier(a, part)
                                              : check_c_identifier(a, part, false);
        changed |= strcmp(named, part) != 0;
        buf_addn(&b, named, strlen(named));
        if (!dot)
            break;
        buf_addn(&b, ".", 1);
        p = dot + 1;
    }
    const char *s = changed ? arena_strdup(a, b.s) : from;
    buf_release(&b);
    return s;
}

/*
 * Does the derivedFrom of field 'f' name a field from where -t svd writes it (model_tree.h,
 * 'tree')? A copy's may not: TMR.C.R.G's 'R.F', looked up from cluster C, names nothing from
 * TMR.R2, a register derived from C.R that is written with its fields, G among them. Such a
 * field is written without its derivedFrom (report_fields_unnamed); all of it is written.
 */
static bool field_base_named(const struct derive_tree *tree, const struct model_field *f)
{
    struct derive_ref n = model_tree_ref(DERIVE_FIELD, f, f->reg->block);
    return model_tree_base(tree, n).kind != DERIVE_NONE;
}

/* The derivedFrom -t svd writes for field 'f', or NULL (base_effect_not_own, field_base_named). */
static const char *field_derived_from(struct arena *a, const struct derive_tree *tree,
                                      const struct model_field *f)
{
    const char *from = model_field_ext(f)->derived_from;
    if (!from || base_effect_not_own(a, f) || !field_base_named(tree, f))
        return NULL;
    return from;
}

static struct dt *field_obj(struct arena *a, const struct derive_tree *tree,
                            const struct model_field *f, const char *name)
{
    struct dt *o = dt_obj(a);
    SET(a, o, "name", dt_str(a, name));
    SET(a, o, "desc", dt_str(a, f->desc));
    SET(a, o, "derived_from", dt_str(a, written_ref(a, field_derived_from(a, tree, f))));
    SET(a, o, "lsb", dt_int(a, f->lsb));
    SET(a, o, "msb", dt_int(a, f->msb));
    effects(a, o, f);
    SET(a, o, "enumerated_values", enum_sets(a, f));
    return o;
}

/* The <field>s of 'r': reserved bits left out, "%s" lists written as one. */
static struct dt *fields_list(struct arena *a, const struct derive_tree *tree,
                              const struct model_reg *r)
{
    struct dt *list = dt_list(a);
    for (size_t i = 0; i < r->nfields; i++) {
        const struct model_field *f = r->fields[i];
        if (field_skipped(f))
            continue;
        const char *index = NULL;
        size_t n = field_run(a, r, i, &index);
        struct dt *o = field_obj(a, tree, f, n > 1 ? model_field_ext(f)->dim_of : f->name);
        struct dt *dim = dt_null();
        if (n > 1) {
            size_t k = i + 1; /* the list's second field: its step */
            while (field_skipped(r->fields[k]))
                k++;
            dim = dim_obj(a, (unsigned)n, r->fields[k]->lsb - f->lsb, index, NULL);
            for (size_t seen = 1; seen < n; k++) /* past the rest of the list */
                seen += !field_skipped(r->fields[k]);
            i = k - 1;
        }
        SET(a, o, "dim", dim);
        dt_push(a, list, o);
    }
    return list;
}

/* ------------------------------------------------------------ registers and clusters */

/* r's name inside its cluster (as written there, without a list's %s). */
static const char *local_name(const struct model_reg *r)
{
    if (model_reg_group_in_name(r))
        return r->written_name; /* a second register of its name, in another alternateGroup */
    return model_reg_name_in_cluster(r);
}

static uint64_t cluster_base(const struct model_cluster *c)
{
    return c ? c->address : 0;
}

/* An index the schema's dimIndex can give alone, as "N-N" or "A-A". */
static bool single_index(const char *ix)
{
    if (ix[0] >= 'A' && ix[0] <= 'Z' && !ix[1])
        return true;
    return ix[0] && strspn(ix, "0123456789") == strlen(ix);
}

/*
 * How many registers from 'i' on -t svd writes as one "%s" list: those of its model_reg_list()
 * whose names the pattern makes; 1 when none. *index gets the indices, *incr the step.
 */
static size_t reg_run(struct arena *a, const struct model_block *b, size_t i, const char **index,
                      uint64_t *incr)
{
    size_t most = model_reg_list(b, i, incr);
    const char **idx = arena_alloc(a, most * sizeof(*idx));
    size_t n = 0;
    for (; n < most; n++) {
        const struct model_reg *r = b->regs[i + n];
        if (!(idx[n] = dim_index_of(a, model_reg_ext(r)->dim_of, local_name(r))))
            break;
    }
    if (n == 1 && single_index(idx[0]))
        *index = arena_printf(a, "%s-%s", idx[0], idx[0]); /* a list of one, kept as one */
    else if (n >= 2)
        *index = join(a, idx, n);
    return n ? n : 1;
}

/* The first non-reserved field of r, or NULL. */
static const struct model_field *first_field(const struct model_reg *r)
{
    for (size_t i = 0; i < r->nfields; i++)
        if (!field_skipped(r->fields[i]))
            return r->fields[i];
    return NULL;
}

/*
 * A field of the register r's derived-from= names (base_reg: a regspec register that writes
 * fields of its own) that r does not name: an SVD reader would add it to r (svdconv's
 * SvdDerivedFrom::CopyChilds), so -t svd writes r whole, without its derivedFrom
 * (report_regs_whole). NULL when there is none.
 */
static const struct model_field *base_field_not_named(const struct model_reg *r)
{
    const struct model_reg *b = model_reg_ext(r)->base_reg;
    for (size_t i = 0; b && i < b->nfields; i++) {
        const struct model_field *g = b->fields[i];
        /* a whole-register field is written as none, so a reader takes none from it */
        bool named = field_skipped(g) || model_field_ext(g)->whole;
        for (size_t k = 0; k < r->nfields && !named; k++)
            named = !field_skipped(r->fields[k]) && strcmp(r->fields[k]->name, g->name) == 0;
        if (!named)
            return g;
    }
    return NULL;
}

/*
 * Is r's derivedFrom written? Not where r is written whole for a field its base has
 * (base_field_not_named), nor where its base is an array at uneven addresses, which -t svd writes
 * one register each (A0, A1...), so that its name names nothing in the output: r is written with
 * all its fields then, and means the same.
 */
static bool derived_from_written(const struct model_reg *r)
{
    const struct model_reg *b = model_reg_ext(r)->base_reg;
    return !base_field_not_named(r) && !(b && b->addrs);
}

/* 'addr': element 0's address relative to the peripheral's base. */
static struct dt *reg_obj(struct arena *a, const struct derive_tree *tree,
                          const struct model_reg *r, const char *name, struct dt *dim,
                          uint64_t addr)
{
    const struct model_reg_ext *x = model_reg_ext(r);
    struct dt *o = dt_obj(a);
    SET(a, o, "name", dt_str(a, name));
    SET(a, o, "display_name", dt_str(a, x->display_name));
    SET(a, o, "desc", dt_str(a, r->desc));
    SET(a, o, "derived_from",
        dt_str(a, derived_from_written(r) ? written_ref(a, x->derived_from) : NULL));
    const char *alt = model_reg_own_alternate(r);
    /* alternateGroup or alternateRegister (the schema's choice): the SVD reader takes the group
     * as the alternate when no register is named */
    const char *group = r->block ? model_block_alt_group(r->block, r) : NULL;
    SET(a, o, "alternate_group", dt_str(a, group));
    SET(a, o, "alternate", dt_str(a, group ? NULL : alt));
    SET(a, o, "dim", dim);
    SET(a, o, "offset", hex(a, addr - cluster_base(x->cluster)));
    /* what it took from its peripheral is written there (peripheral()) */
    unsigned mine = MODEL_PROPS_ALL & ~x->inherited;
    SET(a, o, "size", mine & MODEL_PROP_SIZE ? dt_int(a, r->size) : dt_null());
    SET(a, o, "protection", dt_str(a, mine & MODEL_PROP_PROTECTION ? x->protection : NULL));
    SET(a, o, "reset", mine & MODEL_PROP_RESET ? hex(a, r->reset) : dt_null());
    SET(a, o, "reset_mask",
        x->has_reset_mask && mine & MODEL_PROP_RESET_MASK ? hex(a, x->reset_mask) : dt_null());
    /* a register written without fields: its one field's access and effects on it */
    const struct model_field *whole =
        r->nfields && model_field_ext(r->fields[0])->whole ? r->fields[0] : NULL;
    struct dt *own = dt_null();
    if (whole) {
        own = dt_obj(a);
        effects(a, own, whole);
    }
    SET(a, o, "whole", own);
    struct dt *fields = whole ? dt_list(a) : fields_list(a, tree, r);
    SET(a, o, "fields", fields);
    SET(a, o, "has_fields", dt_bool(dt_len(fields) > 0));
    /* fields all reserved: one RESERVED field keeps them so (a register without fields is
       one field of its own name when read back) */
    SET(a, o, "all_reserved", dt_bool(!whole && !first_field(r)));
    SET(a, o, "all_reserved_width", dt_int(a, r->size));
    return o;
}

/*
 * Where the registers of a peripheral are: the instance (NULL: a block without instances) and
 * the base its register offsets are taken from.
 */
struct place {
    const struct model_instance *inst;
    uint64_t base;
    const struct derive_tree *tree; /* the spec as -t svd writes it: where names lead */
};

static uint64_t reg_addr(const struct model_reg *r, const struct place *at, unsigned index)
{
    return model_reg_address(r, at->inst, index) - at->base;
}

/* Is 'c' or a cluster holding it an array? */
static bool in_cluster_array(const struct model_cluster *c)
{
    for (; c; c = c->parent)
        if (c->count > 1)
            return true;
    return false;
}

/*
 * A register array, or a list as written; a register of a cluster array, or of a cluster
 * inside one, takes the array's (its own <dim> would repeat it in each element).
 */
static struct dt *reg_item(struct arena *a, const struct model_block *b, size_t *i,
                           const struct place *at)
{
    const struct model_reg *r = b->regs[*i];
    const char *name = local_name(r);
    struct dt *dim = dt_null();
    bool by_cluster = in_cluster_array(model_reg_ext(r)->cluster);
    if (r->is_array && !by_cluster && !r->addrs) {
        const char *index = NULL;
        if (model_reg_ext(r)->index_names)
            index = join(a, model_reg_ext(r)->index_names, r->count);
        else if (r->first != 0)
            index = arena_printf(a, "%u-%u", r->first, r->first + r->count - 1);
        dim = dim_obj(a, r->count, r->stride, index, model_reg_ext(r)->array_index);
        name = arena_printf(a, "%s[%%s]", name);
    } else {
        const char *index = NULL;
        uint64_t incr = 0;
        size_t n = reg_run(a, b, *i, &index, &incr);
        if (index) {
            dim = dim_obj(a, (unsigned)n, incr, index, model_reg_ext(r)->array_index);
            name = model_reg_ext(r)->dim_of;
            *i += n - 1;
        }
    }
    return reg_obj(a, at->tree, r, name, dim, reg_addr(r, at, 0));
}

/* A cluster as written: one array when it is element 0 of an array the reader expanded. */
struct cluster_run {
    size_t n;          /* elements (0: the cluster alone) */
    uint64_t stride;
    const char *index; /* dimIndex; NULL for 0..n-1 */
    bool hidden;       /* a later element: written by element 0 */
};

struct item_maker {
    struct arena *a;
    const struct derive_tree *tree; /* where names lead (struct place) */
    const struct model_block *b;
    struct block_places places;
    struct dt **items;        /* per cluster of b (b->clusters order): its items list, once made */
    struct cluster_run *runs; /* per cluster of b */
};

static size_t cluster_index(struct item_maker *m, const struct model_cluster *c)
{
    return block_places_index(&m->places, &c);
}

/*
 * Elements alike for -t svd: every register written the same (all reg_obj gives), but for what the
 * reader gives a copy. A later element of an expanded array is a copy of the first, whose sets
 * have no headerEnumName (svd_model.c's set_header_enum; svdconv's SvdEnumContainer::CopyItem):
 * so the first element's names are left out of its signature, and a later element's only where
 * it has none. A later element with a name of its own is no copy: written apart, it keeps it.
 */
static void drop_header_enums(json_t *reg, bool later)
{
    size_t i, k;
    json_t *f, *set;
    json_array_foreach(json_object_get(reg, "fields"), i, f)
        json_array_foreach(json_object_get(f, "enumerated_values"), k, set)
            if (!later || json_is_null(json_object_get(set, "header_enum_name")))
                json_object_del(set, "header_enum_name");
}

static void svd_reg_sig(void *ctx, const struct model_reg *r, bool later, struct buf *out)
{
    const struct item_maker *m = ctx;
    json_t *j = dt_to_json(reg_obj(m->a, m->tree, r, local_name(r), dt_null(), r->address));
    drop_header_enums(j, later);
    char *text = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
    buf_adds(out, text ? text : "?");
    free(text);
    json_decref(j);
}

/*
 * The dimIndex of the run of 'n' clusters from kids->cls[i] ("" for 0..n-1 of a "NAME[%s]"
 * array), read from their names as the reader made them of "NAME[%s]" or "NAME%s"; NULL when a
 * name is not so made.
 */
static const char *run_index(struct item_maker *m, const struct block_kids *k, size_t i, size_t n)
{
    const char *w = m->b->clusters[k->cls[i]]->written_name, *at = strstr(w, "[%s]");
    /* a "NAME%s" list keeps its dimIndex written out, as a register list does */
    const char *pattern = at ? arena_printf(m->a, "%.*s%%s%s", (int)(at - w), w, at + 4) : w;
    const char **idx = arena_alloc(m->a, n * sizeof(*idx));
    bool plain = true;
    for (size_t e = 0; e < n; e++) {
        idx[e] = dim_index_of(m->a, pattern, m->b->clusters[k->cls[i + e]]->name);
        if (!idx[e])
            return NULL;
        plain &= strcmp(idx[e], arena_printf(m->a, "%zu", e)) == 0;
    }
    return plain && at ? "" : join(m->a, idx, n);
}

/* Finds the cluster arrays the reader expanded, in every place of the block. */
static void find_runs(struct item_maker *m)
{
    for (size_t p = 0; p <= m->b->nclusters; p++) {
        const struct block_kids *k = p < m->b->nclusters ? &m->places.of[p] : &m->places.top;
        for (size_t i = 0; i < k->ncls;) {
            uint64_t stride = 0;
            size_t n = cluster_array_run(&m->places, k, i, true, svd_reg_sig, m, &stride);
            const char *index = n > 1 ? run_index(m, k, i, n) : NULL;
            if (!index) {
                i++;
                continue;
            }
            m->runs[k->cls[i]] = (struct cluster_run){n, stride, *index ? index : NULL, false};
            for (size_t e = 1; e < n; e++)
                m->runs[k->cls[i + e]].hidden = true;
            i += n;
        }
    }
}

/* Is 'c' or a parent of it a later element of an expanded array? */
static bool hidden(struct item_maker *m, const struct model_cluster *c)
{
    for (; c; c = c->parent)
        if (m->runs[cluster_index(m, c)].hidden)
            return true;
    return false;
}

/* "CH" of a list written "CH%s" (its description when it has none). */
static struct dt *cluster_obj(struct item_maker *m, const struct model_cluster *c,
                              const struct model_reg *r, struct dt *items)
{
    struct arena *a = m->a;
    struct dt *o = dt_obj(a);
    const struct cluster_run *run = &m->runs[cluster_index(m, c)];
    /* an array of one element as written (nRF5340's EXTDOMAIN[%s], dim 1) stays one */
    bool one = c->count == 1 && run->n <= 1 && strcmp(c->written_name,
                                                      arena_printf(a, "%s[%%s]", c->name)) == 0;
    bool array = c->count > 1 || one;
    const char *name = array ? arena_printf(a, "%s[%%s]", c->name) : c->name;
    SET(a, o, "name", dt_str_ref(a, run->n > 1 ? c->written_name : name));
    const char *desc = c->desc ? c->desc : run->n > 1 ? cluster_array_name(a, c) : c->name;
    SET(a, o, "desc", dt_str(a, desc));
    SET(a, o, "derived_from", dt_str(a, written_ref(a, c->derived_from)));
    SET(a, o, "alternate", dt_str(a, c->alternate));
    SET(a, o, "header_struct", dt_str(a, c->header_struct));
    const char **names = model_reg_ext(r)->index_names;
    const char *index = one        ? NULL
                        : names    ? join(a, names, c->count)
                        : r->first ? arena_printf(a, "%u-%u", r->first, r->first + c->count - 1)
                                   : NULL;
    SET(a, o, "dim", array         ? dim_obj(a, c->count, c->stride, index, c->array_index)
                     : run->n > 1 ? dim_obj(a, (unsigned)run->n, run->stride, run->index, c->array_index)
                                  : dt_null());
    SET(a, o, "offset", hex(a, c->address - cluster_base(c->parent)));
    SET(a, o, "items", items);
    return o;
}

static struct dt *item(struct arena *a, struct dt *cluster, struct dt *reg)
{
    struct dt *o = dt_obj(a);
    SET(a, o, "cluster", cluster ? cluster : dt_null());
    SET(a, o, "register", reg ? reg : dt_null());
    return o;
}

/* The items list of cluster 'c' (NULL: the peripheral's 'top'), made with its parents. */
static struct dt *items_of(struct item_maker *m, const struct model_cluster *c,
                           const struct model_reg *r, struct dt *top)
{
    if (!c)
        return top;
    size_t k = cluster_index(m, c);
    if (!m->items[k]) {
        struct dt *parent = items_of(m, c->parent, r, top);
        m->items[k] = dt_list(m->a);
        dt_push(m->a, parent, item(m->a, cluster_obj(m, c, r, m->items[k]), NULL));
    }
    return m->items[k];
}

/*
 * Is register 'r' left for the reader to make again from a derivedFrom? It is when it, or a
 * cluster holding it, is what a derived cluster or peripheral took from its base ('taken'), or
 * when a cluster holding it is a derived copy svdconv does not call modified (type_of): that
 * one is written with its derivedFrom and nothing inside, the other with its derivedFrom and
 * only its own registers and clusters, so read back the copies are copies again, of their
 * bases' types, where written out they would be its own (SvdCluster's SetModified for register
 * and cluster). '*list' is then the cluster listed in its place (NULL: none), the outermost.
 */
static bool left_to_reader(const struct model_reg *r, const struct model_cluster **list)
{
    const struct model_cluster *c = model_reg_ext(r)->cluster;
    bool left = model_reg_ext(r)->taken;
    *list = c;
    for (; c; c = c->parent) {
        if (c->taken || (c->derived_from && c->type_of)) {
            left = true;
            *list = c->taken ? c->parent : c;
        }
    }
    return left;
}

static struct dt *registers_list(struct arena *a, const struct model_block *b,
                                 const struct place *at)
{
    struct dt *top = dt_list(a);
    struct item_maker m = {.a = a, .tree = at->tree, .b = b};
    block_places_init(&m.places, b);
    m.items = arena_zalloc(a, (b->nclusters ? b->nclusters : 1) * sizeof(*m.items));
    m.runs = arena_zalloc(a, (b->nclusters + 1) * sizeof(*m.runs)); /* + 1: one not listed */
    find_runs(&m);
    for (size_t i = 0; i < b->nregs; i++) {
        const struct model_reg *r = b->regs[i];
        if (hidden(&m, model_reg_ext(r)->cluster))
            continue;
        const struct model_cluster *in;
        if (left_to_reader(r, &in)) { /* its cluster listed, without it */
            items_of(&m, in, r, top);
            continue;
        }
        struct dt *list = items_of(&m, model_reg_ext(r)->cluster, r, top);
        if (!r->addrs) {
            dt_push(a, list, item(a, NULL, reg_item(a, b, &i, at)));
            continue;
        }
        /* a regspec array at uneven addresses: SVD has no form for it, one register each */
        for (unsigned k = 0; k < r->count; k++) {
            const char *name = arena_printf(a, "%s%u", local_name(r), r->first + k);
            dt_push(a, list,
                    item(a, NULL, reg_obj(a, at->tree, r, name, dt_null(), reg_addr(r, at, k))));
        }
    }
    block_places_release(&m.places);
    return top;
}

/* Does a register of 'b' sit elsewhere in some instance (<at>)? Then no instance shares. */
static bool has_ats(const struct model_block *b)
{
    for (size_t i = 0; i < b->nregs; i++)
        if (b->regs[i]->nats)
            return true;
    return false;
}

/* The instance's base, or 0 when some register of it lies below (an <at> address). */
static struct place place_of(const struct derive_tree *tree, const struct model_block *b,
                             const struct model_instance *inst)
{
    struct place at = {inst, inst && inst->has_base ? inst->base : 0, tree};
    for (size_t i = 0; i < b->nregs && at.base; i++)
        for (unsigned k = 0; k < b->regs[i]->count; k++)
            if (model_reg_address(b->regs[i], inst, k) < at.base)
                at.base = 0;
    return at;
}

/* ------------------------------------------------------------ peripherals and device */

static struct dt *interrupts_list(struct arena *a, const struct model_instance *inst)
{
    struct dt *list = dt_list(a);
    for (size_t i = 0; i < inst->ninterrupts; i++) {
        const struct model_interrupt *q = inst->interrupts[i];
        struct dt *o = dt_obj(a);
        SET(a, o, "name", dt_str(a, q->name));
        SET(a, o, "desc", dt_str(a, q->desc));
        SET(a, o, "value", dt_str_ref(a, arena_printf(a, "%" PRIu64, q->value)));
        dt_push(a, list, o);
    }
    return list;
}

static struct dt *address_blocks(struct arena *a, const struct model_block *b)
{
    struct dt *list = dt_list(a);
    for (size_t i = 0; i < b->naddr_blocks; i++) {
        const struct model_addr_block *ab = b->addr_blocks[i];
        struct dt *o = dt_obj(a);
        SET(a, o, "offset", hex(a, ab->offset));
        SET(a, o, "size", hex(a, ab->size));
        SET(a, o, "usage", dt_str(a, ab->usage ? ab->usage : "registers"));
        SET(a, o, "protection", dt_str(a, ab->protection));
        dt_push(a, list, o);
    }
    return list;
}

/* Do instances 'p' and 'q' say the same but their name and base (two elements of one list)? */
static bool same_but_place(const struct model_instance *p, const struct model_instance *q)
{
    if (!q->has_base || q->has_pci || q->own_type != p->own_type ||
        q->ninterrupts != p->ninterrupts || !util_same_text(q->desc, p->desc) ||
        !util_same_text(q->derived_from, p->derived_from) ||
        !util_same_text(q->alternate, p->alternate) || !util_same_text(q->group, p->group) ||
        !util_same_text(q->version, p->version) ||
        !util_same_text(q->header_struct, p->header_struct) ||
        !util_same_text(q->prepend, p->prepend) || !util_same_text(q->append, p->append))
        return false;
    for (size_t i = 0; i < q->ninterrupts; i++)
        if (q->interrupts[i]->value != p->interrupts[i]->value ||
            !util_same_text(q->interrupts[i]->name, p->interrupts[i]->name) ||
            !util_same_text(q->interrupts[i]->desc, p->interrupts[i]->desc))
            return false;
    return true;
}

/*
 * The index of element 'k' of list 'pattern' named 'name': what "%s" stands for ("0" in UART0
 * of UART%s), or k itself for "[%s]" (UART[%s]'s element 1 is UART1); NULL when the pattern
 * does not make that name.
 */
static const char *inst_index_of(struct arena *a, const char *pattern, const char *name, size_t k)
{
    const char *br = strstr(pattern, "[%s]");
    if (!br)
        return dim_index_of(a, pattern, name);
    const char *want = arena_printf(a, "%.*s%zu%s", (int)(br - pattern), pattern, k, br + 4);
    return strcmp(want, name) == 0 ? arena_printf(a, "%zu", k) : NULL;
}

/*
 * How many instances of 'b' from 'i' on are one <dim> peripheral as written (one dim_of, a
 * constant step, names the pattern makes, all else the same): 0 when none; *index gets the
 * indices (NULL for a "[%s]" list: 0 to n-1), *incr the step.
 */
static size_t inst_run(struct arena *a, const struct model_block *b, size_t i, const char **index,
                       uint64_t *incr)
{
    const struct model_instance *i0 = b->instances[i];
    size_t most = model_instance_list(b, i, incr);
    const char **idx = arena_alloc(a, (most ? most : 1) * sizeof(*idx));
    size_t n = 0;
    for (; n < most; n++) {
        const struct model_instance *in = b->instances[i + n];
        const char *ix = same_but_place(i0, in) ? inst_index_of(a, in->dim_of, in->name, n) : NULL;
        if (!ix)
            break;
        idx[n] = ix;
    }
    if (n == 0)
        return 0;
    *index = strstr(i0->dim_of, "[%s]") ? NULL : join(a, idx, n);
    return n;
}

/* How many instances of 'b' from 'i' on -t svd writes as one <dim> peripheral (inst_run): 0 when
 * it writes b->instances[i] alone, as it does every instance of a block whose registers sit
 * elsewhere in some instance. */
static size_t written_run(struct arena *a, const struct model_block *b, size_t i,
                          const char **index, uint64_t *incr)
{
    return has_ats(b) ? 0 : inst_run(a, b, i, index, incr);
}

/* The name of the block's first instance as written: its list's when it is written as element 0
 * of one (written_run), else its own (a list whose names were repaired, TIM.ER[%s] to TIM_ER0,
 * is written one peripheral each: its name as written would name none). */
static const char *first_written(struct arena *a, const struct model_block *b)
{
    const struct model_instance *in = b->instances[0];
    const char *index = NULL;
    uint64_t incr = 0;
    return in->dim_of && written_run(a, b, 0, &index, &incr) ? in->dim_of : in->name;
}

/* The model_prop bits some register of 'b' takes from its peripheral (access: some field). */
static unsigned props_taken(const struct model_block *b)
{
    unsigned taken = 0;
    for (size_t i = 0; i < b->nregs; i++) {
        const struct model_reg *r = b->regs[i];
        taken |= model_reg_ext(r)->inherited & ~MODEL_PROP_ACCESS;
        for (size_t k = 0; k < r->nfields; k++)
            if (r->fields[k]->access_inherited)
                taken |= MODEL_PROP_ACCESS;
    }
    return taken;
}

/* Of the registers' properties of 'b' (reg_props), those some register takes from its
 * peripheral and the reader's defaults do not give (size 32, reset 0, no access, protection
 * or resetMask: the device -t svd writes gives none). */
static struct model_periph_props written_props(const struct model_block *b)
{
    struct model_periph_props p = b->reg_props, o = {0};
    unsigned taken = props_taken(b);
    o.size = taken & MODEL_PROP_SIZE && p.size != 32 ? p.size : 0;
    o.access = taken & MODEL_PROP_ACCESS ? p.access : NULL;
    o.protection = taken & MODEL_PROP_PROTECTION ? p.protection : NULL;
    o.has_reset = taken & MODEL_PROP_RESET && p.has_reset && p.reset != 0;
    o.reset = p.reset;
    o.has_reset_mask = taken & MODEL_PROP_RESET_MASK && p.has_reset_mask;
    o.reset_mask = p.reset_mask;
    return o;
}

/*
 * The register properties a peripheral writes: the block's that its registers take from it,
 * when it is written with them ('regs'); else, for a block with a type_of, on its first
 * peripheral ('typed'), those that are not its type_of's: derived with those and no registers
 * (and no addressBlock), svdconv does not call it modified, the SVD reader gives it its base's
 * type again and its registers that write none of their own take them. NULLs for any other.
 */
static void periph_props(struct arena *a, struct dt *o, const struct model_block *b, bool regs,
                         bool typed)
{
    struct model_periph_props w = regs    ? written_props(b)
                                  : typed ? b->type_of_props
                                          : (struct model_periph_props){0};
    SET(a, o, "size", w.size ? dt_int(a, w.size) : dt_null());
    SET(a, o, "access", dt_str(a, w.access));
    SET(a, o, "protection", dt_str(a, w.protection));
    SET(a, o, "reset", w.has_reset ? hex(a, w.reset) : dt_null());
    SET(a, o, "reset_mask", w.has_reset_mask ? hex(a, w.reset_mask) : dt_null());
}

/*
 * Instance 'inst' of block 'b' (NULL: a block without instances, at address 0), written as
 * 'name' (with 'dim' when it is a list's element 0); 'own': it is written with the registers
 * 'regs', else derivedFrom the block's first instance.
 */
static struct dt *peripheral(struct arena *a, const struct model_block *b,
                             const struct model_instance *inst, const char *name, struct dt *dim,
                             struct dt *regs, bool own, uint64_t base)
{
    struct dt *o = dt_obj(a);
    bool first = !inst || inst->index == 0 || own;
    bool typed = first && b->type_of && inst && !own;
    if (typed) /* its registers are its type_of's: derived from it */
        first = false;
    periph_props(a, o, b, first, typed);
    const char *derived = inst && inst->derived_from       ? inst->derived_from
                          : first                          ? NULL
                          : b->type_of && inst->index == 0 ? b->type_of->name
                                                           : first_written(a, b);
    SET(a, o, "name", dt_str(a, name));
    SET(a, o, "dim", dim);
    SET(a, o, "derived_from", dt_str(a, written_ref(a, derived)));
    SET(a, o, "version", dt_str(a, inst ? inst->version : NULL));
    const char *desc = inst && inst->desc ? inst->desc
                       : first            ? (b->desc ? b->desc : b->title)
                                          : NULL;
    SET(a, o, "desc", dt_str(a, desc));
    SET(a, o, "alternate", dt_str(a, inst ? inst->alternate : NULL));
    const char *group = inst && inst->group ? inst->group : first ? b->group : NULL;
    SET(a, o, "group", dt_str(a, group));
    /* a peripheral with a type of its own (svdconv's "modified") writes its own affixes and
     * addressBlock, which is what makes the SVD reader give it that type again */
    bool own_type = inst && inst->own_type;
    SET(a, o, "prepend", dt_str(a, own_type ? inst->prepend : first ? b->prepend : NULL));
    SET(a, o, "append", dt_str(a, own_type ? inst->append : first ? b->append : NULL));
    SET(a, o, "header_struct",
        dt_str(a, own_type ? inst->header_struct : first ? b->header_struct : NULL));
    SET(a, o, "base", hex(a, base));
    SET(a, o, "address_blocks", first || own_type ? address_blocks(a, b) : dt_list(a));
    SET(a, o, "interrupts", inst ? interrupts_list(a, inst) : dt_list(a));
    SET(a, o, "registers", first ? regs : dt_list(a));
    SET(a, o, "has_registers", dt_bool(first && dt_len(regs) > 0));
    return o;
}

static bool cpu_name_known(const char *n)
{
    static const char *const names[] = {
        "CM0",      "CM0PLUS",   "CM0+", "CM1",  "CM3",  "CM4",   "CM7",   "CM23",
        "CM33",     "CM35P",     "CM52", "CM55", "CM85", "SC000", "SC300", "ARMV8MML",
        "ARMV8MBL", "ARMV81MML", "CA5",  "CA7",  "CA8",  "CA9",   "CA15",  "CA17",
        "CA53",     "CA57",      "CA72", "SMC1", "other"};
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if (n && strcmp(n, names[i]) == 0)
            return true;
    return false;
}

static bool revision_ok(const char *s)
{
    if (!s || *s++ != 'r')
        return false;
    s += strspn(s, "0123456789");
    if (*s++ != 'p')
        return false;
    return s[strspn(s, "0123456789")] == '\0';
}

/* <cpu>: the schema's spellings (an unknown name "other", a bad revision r0p0). */
static struct dt *cpu_obj(struct arena *a, const struct model_device_cpu *c)
{
    if (!c)
        return dt_null();
    struct dt *o = dt_obj(a);
    SET(a, o, "name", dt_str(a, cpu_name_known(c->name) ? c->name : "other"));
    SET(a, o, "revision", dt_str(a, revision_ok(c->revision) ? c->revision : "r0p0"));
    const char *e = c->endian;
    bool endian_ok = e && (!strcmp(e, "little") || !strcmp(e, "big") || !strcmp(e, "selectable"));
    SET(a, o, "endian", dt_str(a, endian_ok ? e : "other"));
    SET(a, o, "mpu", flag(a, c->mpu));
    SET(a, o, "fpu", flag(a, c->fpu));
    SET(a, o, "fpu_dp", flag(a, c->fpu_dp));
    SET(a, o, "icache", flag(a, c->icache));
    SET(a, o, "dcache", flag(a, c->dcache));
    SET(a, o, "vtor", flag(a, c->vtor));
    SET(a, o, "nvic_prio_bits", dt_int(a, c->has_nvic_bits ? (long long)c->nvic_prio_bits : 0));
    SET(a, o, "vendor_systick", flag(a, c->vendor_systick));
    return o;
}

static struct dt *device_obj(struct arena *a, const struct model_spec *s)
{
    const struct model_device *d = s->device;
    struct dt *o = dt_obj(a);
    /* the schema's identifierType: a name such as "ESP32-C6-LP" with '_' for the rest */
    char *name = arena_strdup(a, d && d->name ? d->name : s->name);
    for (char *p = name; *p; p++)
        if (!is_id_char(*p))
            *p = '_';
    SET(a, o, "name", dt_str_ref(a, name));
    SET(a, o, "vendor", dt_str(a, d ? d->vendor : NULL));
    SET(a, o, "vendor_id", dt_str(a, d ? d->vendor_id : NULL));
    SET(a, o, "series", dt_str(a, d ? d->series : NULL));
    const char *version = d && d->version ? d->version : arena_printf(a, "%u", s->version);
    SET(a, o, "version", dt_str(a, version));
    const char *desc = d && d->desc ? d->desc : s->title ? s->title : s->name;
    SET(a, o, "desc", dt_str(a, desc));
    SET(a, o, "license", dt_str(a, d ? d->license : NULL));
    SET(a, o, "cpu", cpu_obj(a, d ? d->cpu : NULL));
    SET(a, o, "header_prefix", dt_str(a, d ? d->header_prefix : NULL));
    SET(a, o, "address_unit_bits", dt_int(a, d && d->address_unit_bits ? d->address_unit_bits : 8));
    SET(a, o, "width", dt_int(a, d && d->width ? d->width : 32));
    return o;
}

struct dt *context_svd(struct arena *a, const struct model_spec *s)
{
    struct derive_index names;
    derive_index_init(&names);
    struct derive_tree tree = model_tree(s, &names);
    struct dt *o = dt_obj(a);
    SET(a, o, "device", device_obj(a, s));
    struct dt *periphs = dt_list(a);
    for (size_t i = 0; i < s->nblocks; i++) {
        const struct model_block *b = s->blocks[i];
        bool own = has_ats(b); /* each instance's registers at their own addresses */
        if (!b->ninstances) {
            struct place at = place_of(&tree, b, NULL);
            struct dt *regs = registers_list(a, b, &at);
            dt_push(a, periphs, peripheral(a, b, NULL, b->name, dt_null(), regs, true, at.base));
        }
        bool first_list = false; /* the block's first peripheral is written as a <dim> list */
        for (size_t k = 0; k < b->ninstances; k++) {
            const struct model_instance *in = b->instances[k];
            struct place at = place_of(&tree, b, in);
            const char *index = NULL;
            uint64_t incr = 0;
            size_t n = written_run(a, b, k, &index, &incr);
            first_list = k == 0 ? n > 0 : first_list;
            /* derived from a list, one peripheral would take the list's <dim> (svdconv's
             * SvdItem::CopyDim): it is written whole instead */
            bool whole = own || (k > 0 && n == 0 && first_list && !in->derived_from);
            struct dt *regs = k == 0 || whole ? registers_list(a, b, &at) : dt_list(a);
            struct dt *dim = n ? dim_obj(a, (unsigned)n, incr, index, in->array_index) : dt_null();
            dt_push(a, periphs,
                    peripheral(a, b, in, n ? in->dim_of : in->name, dim, regs, whole, at.base));
            if (n)
                k += n - 1;
        }
    }
    SET(a, o, "peripherals", periphs);
    derive_index_release(&names);
    return o;
}

/* "headerEnumName 'X', index names 'A', 'B'" of 'x', for a message; caller frees. */
static char *array_index_words(const struct model_array_index *x)
{
    struct buf b = BUF_INIT;
    if (x->enum_name)
        buf_addf(&b, "headerEnumName '%s', ", x->enum_name);
    buf_adds(&b, x->nvalues == 1 ? "index name " : x->nvalues ? "index names " : "no index names");
    for (size_t i = 0; i < x->nvalues; i++)
        buf_addf(&b, "%s'%s'", i ? ", " : "", x->values[i]->name);
    return buf_detach(&b, NULL);
}

/* A derived set of 's' written whole (written_base): its derivedFrom left out, said at its place.
 */
static void report_sets_whole(struct diag *dg, const struct model_spec *s)
{
    for (size_t i = 0; i < s->nblocks; i++)
        for (size_t k = 0; k < s->blocks[i]->nregs; k++) {
            const struct model_reg *r = s->blocks[i]->regs[k];
            for (size_t j = 0; j < r->nfields; j++) {
                const struct model_field *f = r->fields[j];
                const struct model_field_ext *x = model_field_ext(f);
                for (size_t m = 0; m < x->nsets; m++) {
                    const struct model_enum_set *set = x->sets[m];
                    bool own_values;
                    if (!set->derived_from || written_base(f, set, &own_values))
                        continue;
                    diag_report(dg, DIAG_SVD_OUT_DROPPED,
                                set->derived_pos.line ? set->derived_pos : set->pos,
                                "enumeratedValues%s%s%s of field '%s' of register '%s' is written "
                                "whole, without its derivedFrom '%s': %s",
                                set->name ? " '" : "", set->name ? set->name : "",
                                set->name ? "'" : "", f->name, r->name, set->derived_from,
                                set->base ? "it holds no value, where its base holds some"
                                          : "it names no set in the file -t svd writes");
                }
            }
        }
}

/*
 * What -t svd leaves out, each said at its place (svd-out-dropped): the dimArrayIndex of a
 * peripheral written alone, not as a <dim> array, since CMSIS-SVD.xsd's dimElementGroup, the one
 * place of a dimArrayIndex, starts with <dim> (svdconv still makes an enum of it). The
 * derivedFrom of a set written whole: report_sets_whole.
 */
static void report_dropped(struct diag *dg, const struct model_spec *s)
{
    struct arena a = ARENA_INIT;
    for (size_t i = 0; i < s->nblocks; i++) {
        const struct model_block *b = s->blocks[i];
        for (size_t k = 0; k < b->ninstances; k++) {
            const struct model_instance *in = b->instances[k];
            const char *index = NULL;
            uint64_t incr = 0;
            size_t n = written_run(&a, b, k, &index, &incr);
            if (n) {
                k += n - 1;
                continue;
            }
            const struct model_array_index *x = in->array_index;
            if (!x)
                continue;
            char *words = array_index_words(x);
            diag_report(dg, DIAG_SVD_OUT_DROPPED, x->pos.line ? x->pos : in->pos,
                        "peripheral '%s' is no array: -t svd leaves out its dimArrayIndex (%s), "
                        "which CMSIS-SVD has only after a <dim>",
                        in->name, words);
            free(words);
        }
        for (size_t k = 0; k < b->nregs; k++) { /* a dim-of= register -t svd writes alone */
            const struct model_reg *r = b->regs[k];
            const struct model_array_index *x = model_reg_ext(r)->array_index;
            const char *index = NULL;
            uint64_t incr = 0;
            if (!x || r->is_array || in_cluster_array(model_reg_ext(r)->cluster))
                continue;
            size_t n = reg_run(&a, b, k, &index, &incr);
            if (index) {
                k += n - 1;
                continue;
            }
            char *words = array_index_words(x);
            diag_report(dg, DIAG_SVD_OUT_DROPPED, r->pos,
                        "register '%s' is written alone, not as a list (a list of one has a "
                        "dimIndex only of the form 0-0 or A-A): -t svd leaves out its "
                        "dimArrayIndex (%s)",
                        r->name, words);
            free(words);
        }
    }
    arena_release(&a);
}

/* A register written whole, without its derivedFrom (base_field_not_named), said at its
 * derived-from=. */
static void report_regs_whole(struct diag *dg, const struct model_spec *s)
{
    for (size_t i = 0; i < s->nblocks; i++)
        for (size_t k = 0; k < s->blocks[i]->nregs; k++) {
            const struct model_reg *r = s->blocks[i]->regs[k];
            const struct model_field *g = base_field_not_named(r);
            if (!g)
                continue;
            const struct model_reg_ext *x = model_reg_ext(r);
            diag_report(dg, DIAG_SVD_OUT_DROPPED, x->derived_pos.line ? x->derived_pos : r->pos,
                        "register '%s' is written whole, without its derivedFrom '%s': read "
                        "back, it would take field '%s' of '%s', which it does not have",
                        r->name, x->derived_from, g->name, x->base_reg->name);
        }
}

/* A field written without its derivedFrom (base_effect_not_own, field_base_named), said at its
 * derived-from=; the fields of a copy a derived cluster took are not written (left_to_reader). */
static void report_fields_whole(struct diag *dg, const struct model_spec *s)
{
    struct arena a;
    arena_init(&a);
    struct derive_index names;
    derive_index_init(&names);
    struct derive_tree tree = model_tree(s, &names);
    for (size_t i = 0; i < s->nblocks; i++)
        for (size_t k = 0; k < s->blocks[i]->nregs; k++) {
            const struct model_reg *r = s->blocks[i]->regs[k];
            for (size_t j = 0; j < r->nfields && !model_reg_ext(r)->taken; j++) {
                const struct model_field *f = r->fields[j];
                const char *effect = field_skipped(f) ? NULL : base_effect_not_own(&a, f);
                const struct model_field_ext *x = model_field_ext(f);
                if (effect)
                    diag_report(dg, DIAG_SVD_OUT_DROPPED,
                                x->derived_pos.line ? x->derived_pos : f->pos,
                                "field '%s' of register '%s' is written without its derivedFrom "
                                "'%s': read back, it would take %s of '%s', which it does not have",
                                f->name, r->name, x->derived_from, effect, x->base_field->name);
                else if (x->derived_from && !field_skipped(f) && !field_base_named(&tree, f))
                    diag_report(dg, DIAG_SVD_OUT_DROPPED,
                                x->derived_pos.line ? x->derived_pos : f->pos,
                                "field '%s' of register '%s' is written whole, without its "
                                "derivedFrom '%s': it names no field from there in the file -t "
                                "svd writes",
                                f->name, r->name, x->derived_from);
            }
        }
    derive_index_release(&names);
    arena_release(&a);
}

/* A cluster of own-type="false", written with its derivedFrom and nothing in it, that holds a
 * register or cluster of its own its base does not give it (model_cluster.differs), said at its
 * derived-from=. */
static void report_clusters_differ(struct diag *dg, const struct model_spec *s)
{
    for (size_t i = 0; i < s->nblocks; i++)
        for (size_t k = 0; k < s->blocks[i]->nclusters; k++) {
            const struct model_cluster *c = s->blocks[i]->clusters[k];
            if (c->differs && c->type_of) /* else written with its content */
                diag_report(dg, DIAG_SVD_OUT_DROPPED, c->derived_pos.line ? c->derived_pos : c->pos,
                            "cluster '%s' (own-type=\"false\") is written with its derivedFrom "
                            "'%s' and nothing in it: read back, it holds its base's registers "
                            "and clusters, and its own %s is not among them",
                            c->name, c->derived_from, c->differs);
        }
}

/* The first register or cluster a reader gives instance 'n' from its chain of bases, of another
 * block than its own (the model tree's kids of a derived instance: model_tree.c), or none. */
static struct derive_ref taken_from_base(const struct derive_tree *t, struct derive_ref n)
{
    struct derive_cursor at = {0, 0, 0};
    for (struct derive_ref k = t->kid(t, n, &at); k.kind != DERIVE_NONE; k = t->kid(t, n, &at))
        if (k.ctx != n.ctx)
            return k;
    return model_tree_ref(DERIVE_NONE, NULL, NULL);
}

/*
 * An instance derived from an instance of another block is written derivedFrom it, and its
 * registers are its block's (a regspec's instance takes none from its base): read back, a reader
 * gives it those of its base (down the chain) that it does not name, when it is written with its
 * block's registers (the first, or one with <at>s), and its base's in place of its block's when
 * written with none. Said at its derived-from= (svd-out-dropped).
 */
static void report_instances_derived(struct diag *dg, const struct model_spec *s)
{
    struct derive_index names;
    derive_index_init(&names);
    struct derive_tree t = model_tree(s, &names);
    for (size_t i = 0; i < s->nblocks; i++) {
        const struct model_block *b = s->blocks[i];
        for (size_t k = 0; k < b->ninstances; k++) {
            const struct model_instance *in = b->instances[k];
            struct derive_ref n = model_tree_ref(DERIVE_PERIPH, in, b);
            struct derive_ref base =
                in->derived_from ? model_tree_base(&t, n) : model_tree_ref(DERIVE_NONE, NULL, NULL);
            if (base.kind != DERIVE_PERIPH || base.ctx == b)
                continue;
            struct derive_ref got = taken_from_base(&t, n);
            const struct model_instance *from = base.obj;
            struct srcpos at = in->derived_pos.line ? in->derived_pos : in->pos;
            if (in->index == 0 || has_ats(b)) {
                if (got.kind != DERIVE_NONE)
                    diag_report(dg, DIAG_SVD_OUT_DROPPED, at,
                                "peripheral '%s' is written derivedFrom '%s': read back, it takes "
                                "%s '%s' of '%s', which block '%s' does not have",
                                in->name, in->derived_from, model_tree_kind_word(got),
                                t.name(&t, got), from->name, b->name);
            } else if (!in->dim_of && (b->nregs || got.kind != DERIVE_NONE)) {
                diag_report(dg, DIAG_SVD_OUT_DROPPED, at,
                            "peripheral '%s' is written derivedFrom '%s' without registers: read "
                            "back, it has the registers of '%s', not those of block '%s'",
                            in->name, in->derived_from, from->name, b->name);
            }
        }
    }
    derive_index_release(&names);
}

/*
 * Does register 'r' of a block with a type_of read back as it is from 'q', the same register of
 * the type_of, written derived from it with type_of_props (peripheral())? A property 'q' takes
 * from its peripheral, 'r' must take from its own (which writes its value); one 'q' writes
 * itself, 'r' must have the same.
 */
static bool same_reg_props(const struct model_reg *r, const struct model_reg *q)
{
    const struct model_reg_ext *x = model_reg_ext(r), *y = model_reg_ext(q);
    if ((x->inherited & y->inherited) != y->inherited)
        return false;
    if ((!(y->inherited & MODEL_PROP_RESET) && r->reset != q->reset) ||
        (!(y->inherited & MODEL_PROP_RESET_MASK) &&
         (x->has_reset_mask != y->has_reset_mask || x->reset_mask != y->reset_mask)) ||
        (!(y->inherited & MODEL_PROP_PROTECTION) &&
         !util_same_text(x->protection, y->protection)) ||
        r->nfields != q->nfields)
        return false;
    for (size_t i = 0; i < r->nfields; i++) {
        const struct model_field *f = r->fields[i], *g = q->fields[i];
        if (g->access_inherited
                ? !f->access_inherited
                : f->access != g->access || !util_same_text(f->access_text, g->access_text))
            return false;
    }
    return true;
}

/*
 * A block with a type_of is written derived from it, with its own properties and no registers
 * (peripheral()); where its registers' reset, protection or access are not what they read back
 * as (same_reg_props: a regspec's registers hold theirs, so read back they are the type_of's),
 * said at the first such register (svd-out-dropped).
 */
static void report_type_of_regs(struct diag *dg, const struct model_spec *s)
{
    for (size_t i = 0; i < s->nblocks; i++) {
        const struct model_block *b = s->blocks[i];
        const struct model_block *t = b->type_of ? b->type_of->block : NULL;
        for (size_t k = 0; t && k < b->nregs; k++) {
            if (k < t->nregs && same_reg_props(b->regs[k], t->regs[k]))
                continue;
            diag_report(dg, DIAG_SVD_OUT_DROPPED, b->ninstances ? b->instances[0]->pos : b->pos,
                        "peripheral '%s' is written derived from '%s' without registers (it "
                        "has its type): its register '%s' reads back with %s's reset, "
                        "protection and access",
                        b->ninstances ? b->instances[0]->name : b->name, b->type_of->name,
                        b->regs[k]->name, b->type_of->name);
            diag_note(dg, b->regs[k]->pos, "register '%s' of '%s'", b->regs[k]->name, b->name);
            break;
        }
    }
}

/* A register of a cluster whose name does not start with its clusters' (a regspec's CFG in CH):
 * SVD writes it in the cluster by the name past the clusters', and a reader names it after them
 * (CH_CFG), so -t svd cannot keep its name. */
static void report_reg_names(struct diag *dg, const struct model_spec *s)
{
    struct arena a;
    arena_init(&a);
    for (size_t i = 0; i < s->nblocks; i++)
        for (size_t k = 0; k < s->blocks[i]->nregs; k++) {
            const struct model_reg *r = s->blocks[i]->regs[k];
            const struct model_cluster *c = model_reg_ext(r)->cluster;
            if (!c || model_reg_name_in_cluster(r) != r->name)
                continue;
            char *read_back = arena_printf(&a, "%s_%s", model_cluster_path(&a, c), r->name);
            for (char *p = read_back; *p; p++)
                if (*p == '.') /* CL.IN: CL_IN_ */
                    *p = '_';
            diag_report(dg, DIAG_SVD_OUT_DROPPED, r->pos,
                        "register '%s' of cluster '%s' is not named after its clusters: read "
                        "back, an SVD reader names it '%s'",
                        r->name, c->name, read_back);
        }
    arena_release(&a);
}

int context_svd_check(struct diag *dg, const struct model_spec *s)
{
    const struct model_reg *r = first_unmapped(s);
    if (r)
        return diag_report(dg, DIAG_SVD_SPACE, r->pos,
                           "register '%s' of block '%s' is in the %s space: CMSIS-SVD describes "
                           "memory-mapped registers only (-t svd)",
                           r->name, r->block->name, model_space_word(r->space));
    unsigned errors = dg->nerrors;
    report_dropped(dg, s);
    report_sets_whole(dg, s);
    report_regs_whole(dg, s);
    report_reg_names(dg, s);
    report_clusters_differ(dg, s);
    report_instances_derived(dg, s);
    report_fields_whole(dg, s);
    report_type_of_regs(dg, s);
    return dg->nerrors > errors ? -1 : 0;
}
