/*
 * context.c - checked model in, data tree (dt.h) out (docs/json.md).
 *
 * The stable keys come first in every object, in the order docs/json.md
 * lists them; template keys ("c_..." and the list flags) follow. The tree and
 * the strings made for it share one arena; strings of the model are copied,
 * so the tree outlives the model.
 */
#include "context.h"
#include "context_cmsis.h"
#include "context_doc.h"
#include "context_regspec.h"
#include "context_svd.h"
#include "context_metric.h"

#include "arena.h"
#include "buf.h"
#include "expr.h"
#include "model_mmio.h"
#include "names.h"
#include "svd_words.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A scope of names defs_n() promised: their texts (stem + each suffix) are written
 * by align_defs() once the width of the scopes aligned together is known.
 */
struct def_name;
struct def_ref {
    struct dt *vals;              /* the names' string values, in order; the tree's, no text yet */
    const char *stem;             /* borrowed: the tree's arena or the model */
    const struct def_name *names; /* a static table; 'mask' says which of them were made */
    uint32_t ns;                  /* strlen(stem) */
    uint32_t mask;
    uint8_t nnames, made; /* names in the table, of them made */
    uint8_t max_nx;       /* the longest suffix made */
    bool mdef;            /* c_mdef: padded, but not setting the width */
};

struct ctx {
    struct arena *a;      /* the tree's: values, names and formatted strings */
    const char *prefix;   /* as given or the spec's */
    struct arena *keep;   /* outlives every tree 'a' holds (ctx_init()) */
    const char *c_prefix; /* 'prefix' upper-cased, made once, in 'keep' */
    const char **source_lines; /* source_line() of each of s->sources, NULL until made; in 'keep' */
    struct def_ref *defs; /* every name made so far, in order; owned (xmalloc) */
    size_t ndefs, defs_cap;
    struct buf scratch; /* a text being made (a rule's C expression): its room kept for the next */
    bool table_keys; /* context_options.annotate given: the tables' t_* keys made here too */
    bool all_keys;   /* else the unread keys (context_key_unread) are left out */
    /*
     * Lazy trees without doc keys: a block's "registers" holds placeholders,
     * each built when rendered (context_expand); 'reg_stubs' records them.
     */
    struct context_lazy *lazy_regs;
};

static struct dt *reg_stubs(struct ctx *c, const struct model_block *b);

/* ------------------------------------------------------------ small values */

/*
 * Writes "0x" and 'v' in lower-case hex, zero-filled to at least 'digits'
 * digits (1: no leading zeros; at most 16), and a NUL into 'p' (room for 19
 * bytes); returns the length. printf's "0x%0*" PRIx64 without printf: this
 * runs for every field. The digits are counted first and written from the
 * last, two at a time from a table of byte values, so nothing is reversed.
 */
static size_t hex_to(char *p, uint64_t v, unsigned digits)
{
    static const char pairs[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
                                "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
                                "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
                                "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
                                "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
                                "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
                                "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
                                "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
    size_t n = 1;
    for (uint64_t rest = v >> 4; rest; rest >>= 4)
        n++;
    if (n < digits)
        n = digits < 16 ? digits : 16;
    p[0] = '0';
    p[1] = 'x';
    p[2 + n] = '\0';
    char *q = p + 2 + n; /* the digits are written backwards from here, zeros past v's */
    for (size_t left = n; left >= 2; left -= 2, v >>= 8) {
        q -= 2;
        memcpy(q, &pairs[2 * (v & 0xff)], 2);
    }
    if (n & 1)
        q[-1] = pairs[2 * (v & 0xf) + 1];
    return 2 + n;
}

/* Appends 'v' in decimal at 'p' (room for 20 bytes); returns the end. */
static char *put_uint(char *p, uint64_t v)
{
    char tmp[20];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* Appends 's' at 'p' (no NUL); returns the end. Texts made of pieces without printf. */
static char *put_str(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

/* "0x" + lower-case hex, no leading zeros. */
static struct dt *hex(struct ctx *c, uint64_t v)
{
    char *p = arena_alloc_bytes(c->a, 19);
    return dt_str_refn(c->a, p, hex_to(p, v, 1));
}

static const char *c_type(unsigned size)
{
    return size > 32 ? "uint64_t" : "uint32_t";
}

/*
 * Values of a few literals every tree holds, shared, as dt_null() and
 * dt_bool() are (no tree changes a string once built): c_type() and
 * c_litmacro() as values, and register spaces, without an allocation and a
 * strlen() each time (a register has some six of them, a field one).
 */
#define STATIC_STR(lit) {.type = DT_STR, .u.str = {"" lit "", sizeof(lit) - 1}}
static struct dt c_type_vals[] = {STATIC_STR("uint32_t"), STATIC_STR("uint64_t")};
static struct dt c_litmacro_vals[] = {STATIC_STR("UINT32_C"), STATIC_STR("UINT64_C")};

static struct dt *c_type_val(unsigned size)
{
    return &c_type_vals[size > 32];
}

static const char *c_litmacro(unsigned size)
{
    return size > 32 ? "UINT64_C" : "UINT32_C";
}

/* A C literal of 'size' bits: UINT32_C(0xc10); 'pad' zero-fills to size/4 digits. */
static char *c_lit_len(struct ctx *c, uint64_t v, unsigned size, bool pad, size_t *len)
{
    char *p = arena_alloc_bytes(c->a, 8 + 1 + 18 + 2); /* "UINT64_C" "(" 0x+16 ")" NUL */
    memcpy(p, c_litmacro(size), 8);
    p[8] = '(';
    size_t n = 9 + hex_to(p + 9, v, pad ? size / 4 : 1);
    p[n] = ')';
    p[n + 1] = '\0';
    *len = n + 1;
    return p;
}

static char *c_lit(struct ctx *c, uint64_t v, unsigned size, bool pad)
{
    size_t len;
    return c_lit_len(c, v, size, pad, &len);
}

/* c_lit() as a string value (its length known, not measured again). */
static struct dt *lit(struct ctx *c, uint64_t v, unsigned size, bool pad)
{
    size_t len;
    char *p = c_lit_len(c, v, size, pad, &len);
    return dt_str_refn(c->a, p, len);
}

/* An address literal: 32 bits when it fits (MSR indices, config offsets). */
static unsigned addr_bits(const struct model_reg *r)
{
    return r->space == SPACE_MMIO ? 64 : 32;
}

/*
 * Adds key 'lit', a string literal, to 'o', which does not hold it yet: the
 * builders below make each object once, key by key, so no search is needed
 * (dt_add; the hash is folded at compile time).
 */
#define SET(c, o, lit, v) dt_add((c)->a, (o), DT_KEY(lit), (v))
/* DT_KEY() for a static table's initializer */
#define DT_KEY_INIT(lit) {.s = "" lit "", .len = sizeof(lit) - 1, .fixed = 1}
#define SET_STR(c, o, lit, s) SET((c), (o), lit, dt_str_ref((c)->a, (s)))

/*
 * "c_def": the names a template #defines for an object, by role, so that
 * align_defs() can pad them to one column ("#define NAME   VALUE" aligned).
 * Each name is the object's 'stem' followed by a suffix, from a static table
 * of roles and suffixes (DEF_NAME). "c_mdef" holds function-like macros
 * ("NAME_GET(v)"): padded to the same column, but too long to set it.
 */
struct def_name {
    struct dt_key role;
    const char *suffix; /* a string literal */
    uint8_t nx;         /* its length */
};
#define DEF_NAME(role, suffix) {DT_KEY_INIT(role), "" suffix "", sizeof(suffix) - 1}
#define DEF_ALL UINT32_MAX

/*
 * Adds to 'o' the object 'key' ("c_def" or "c_mdef") holding the names of
 * 'names' whose bit is set in 'mask' (DEF_ALL: every one), each stem +
 * suffix, and remembers them for align_defs(), which writes their texts: a
 * name written here would be copied again there to be padded. The object,
 * its members and the names' values are one allocation.
 */
static void defs_n(struct ctx *c, struct dt *o, struct dt_key key, const char *stem, size_t ns,
                   bool mdef, const struct def_name *names, size_t n, uint32_t mask)
{
    size_t room = mask == DEF_ALL ? n : 0;
    for (size_t i = 0; i < n && mask != DEF_ALL; i++)
        room += mask >> i & 1;
    struct dt *obj = arena_alloc(c->a, sizeof(struct dt) +
                                           room * (sizeof(struct dt_member) + sizeof(struct dt)));
    struct dt_member *members = (struct dt_member *)(obj + 1);
    struct dt *vals = (struct dt *)(members + room);
    size_t made = 0, max_nx = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(mask >> i & 1))
            continue;
        const struct def_name *d = &names[i];
        vals[made] = (struct dt){.type = DT_STR, .u.str = {NULL, ns + d->nx}};
        members[made] = (struct dt_member){d->role.s, d->role.len, d->role.fixed, &vals[made]};
        made++;
        max_nx = d->nx > max_nx ? d->nx : max_nx;
    }
    *obj = (struct dt){.type = DT_OBJ, .n = (uint32_t)made, .cap = (uint32_t)made};
    obj->u.members = members;
    dt_add(c->a, o, key, obj);
    if (c->ndefs == c->defs_cap)
        c->defs = xgrow(c->defs, &c->defs_cap, c->ndefs + 1, sizeof(*c->defs));
    c->defs[c->ndefs++] = (struct def_ref){
        vals, stem, names, (uint32_t)ns, mask, (uint8_t)n, (uint8_t)made, (uint8_t)max_nx, mdef};
}

/* The names of table 'names' (an array) with stem 'stem' ('ns' bytes) */
#define C_DEF(c, o, stem, ns, names)                                                               \
    defs_n((c), (o), DT_KEY("c_def"), (stem), (ns), false, (names), ARRAY_SIZE(names), DEF_ALL)
#define C_MDEF(c, o, stem, ns, names)                                                              \
    defs_n((c), (o), DT_KEY("c_mdef"), (stem), (ns), true, (names), ARRAY_SIZE(names), DEF_ALL)

/* A scope's one name: the stem itself, as 'role' */
static void def_one(struct ctx *c, struct dt *o, const char *stem, size_t ns,
                    const struct def_name *name)
{
    defs_n(c, o, DT_KEY("c_def"), stem, ns, false, name, 1, DEF_ALL);
}

/*
 * Writes the names of the scopes defs_n() made since index 'from' (c_def and
 * c_mdef), padded to the longest c_def name among them so their values line
 * up, and forgets them: a scope aligned on its own (a register's rules) is
 * left out of the enclosing one. Callers open a scope with 'from = c->ndefs'
 * before building the objects whose names line up together, and align it
 * before the tree is read: until then the names have no text. All the
 * names go into one block. Each scope's names get slots of one size, its
 * longest name's: the first slot is written as the stem padded to that
 * size, the others are copies of it before their suffixes go in (a copy
 * and a suffix a name instead of stem, suffix and padding).
 */
static void align_defs(struct ctx *c, size_t from)
{
    const struct def_ref *defs = c->defs; /* locals: the stores below could alias c's members */
    size_t end = c->ndefs, width = 0, total = 0;
    if (from == end)
        return;
    for (size_t i = from; i < end; i++) {
        size_t n = defs[i].ns + defs[i].max_nx;
        if (!defs[i].mdef && n > width)
            width = n;
    }
    for (size_t i = from; i < end; i++) {
        size_t n = defs[i].ns + defs[i].max_nx;
        total += ((n > width ? n : width) + 1) * defs[i].made;
    }
    char *p = arena_alloc_bytes(c->a, total);
    for (size_t i = from; i < end; i++) {
        const struct def_ref *d = &defs[i];
        size_t ns = d->ns, slot = ns + d->max_nx > width ? ns + d->max_nx : width;
        if (!d->made)
            continue;
        char *first = p;
        memcpy(first, d->stem, ns);
        memset(first + ns, ' ', slot - ns);
        const struct def_name *first_name = NULL;
        struct dt *v = d->vals;
        for (size_t k = 0; k < d->nnames; k++) {
            if (!(d->mask >> k & 1))
                continue;
            const struct def_name *name = &d->names[k];
            size_t len = ns + name->nx > width ? ns + name->nx : width;
            if (p == first) {
                first_name = name; /* its suffix last: the others copy its padded stem */
            } else {
                memcpy(p, first, slot);
                memcpy(p + ns, name->suffix, name->nx);
                p[len] = '\0';
            }
            v->u.str.s = p;
            v->u.str.len = len;
            v++;
            p += slot + 1;
        }
        memcpy(first + ns, first_name->suffix, first_name->nx);
        first[d->vals[0].u.str.len] = '\0';
    }
    c->ndefs = from;
}

/*
 * Marks the first and last item of a list of objects. 'fresh': all just built, none marked (no
 * look-up: an object with some 40 keys is searched to the end for a key it does not have); else
 * an item marked already, or not an object, is left alone.
 */
static void flag_list(struct ctx *c, struct dt *list, bool fresh)
{
    size_t n = list->n; /* a list the builders just made */
    struct dt_key first = DT_KEY("first");
    for (size_t i = 0; i < n; i++) {
        struct dt *item = list->u.items[i];
        if (!fresh && (!dt_is(item, DT_OBJ) || dt_getn(item, first.s, first.len)))
            continue;
        SET(c, item, "first", dt_bool(i == 0));
        SET(c, item, "last", dt_bool(i + 1 == n));
    }
}

/* {"text": the 'len' bytes at 's', which the tree's arena owns (s[len] is NUL)} */
static struct dt *text_own(struct ctx *c, char *s, size_t len)
{
    struct dt *o = dt_obj_n(c->a, 1);
    SET(c, o, "text", dt_str_refn(c->a, s, len));
    return o;
}

/* Text with its whitespace folded: words joined by single spaces; NULL for none. */
struct folded {
    char *s; /* owned by the tree's arena, or the model's; NUL-terminated */
    size_t len;
};

/*
 * True when 's' is folded already: no blank at either end, no two in a row,
 * no whitespace but spaces. Most descriptions are (the loader folds them,
 * keeping only paragraph breaks), and libc's string scans check that faster
 * than a loop over the bytes folds it.
 */
static bool is_folded(const char *s, size_t len)
{
    if (len > 0 && (s[0] == ' ' || s[len - 1] == ' '))
        return false;
    return !strpbrk(s, "\t\n\v\f\r") && !strstr(s, "  ");
}

/*
 * 's' (NULL: none) folded into the tree's arena (util_fold_space): 's' itself when folded
 * already (a model's text, or a line just joined into the arena).
 */
static struct folded fold_in(struct arena *a, const char *s)
{
    if (!s)
        return (struct folded){NULL, 0};
    size_t len = strlen(s);
    if (is_folded(s, len)) /* never written to: wrap_lines() copies the lines it cuts */
        return (struct folded){(char *)s, len};
    struct folded f;
    f.s = util_fold_space(a, s, len, &f.len);
    return f;
}

static struct folded fold_text(struct ctx *c, const char *s)
{
    return fold_in(c->a, s);
}

/*
 * A description or message as the model keeps it (the loader folds blanks and
 * keeps a blank line between paragraphs as one "\n"): the value -t json and
 * templates read; 'f', fold_text() of 's', gives the bytes when it is the
 * same text (most are), else a copy. Comments wrap 'f' instead (one line).
 */
static struct dt *model_text(struct ctx *c, const char *s, struct folded f)
{
    if (!s)
        return dt_null();
    if (f.s == s || (f.s && memcmp(f.s, s, f.len + 1) == 0))
        return dt_str_refn(c->a, f.s, f.len);
    return dt_str_ref(c->a, s);
}

/* Where the line of folded text starting at 'p' ends: its last word that fits 'cols'. */
static const char *line_end(const char *p, const char *end, size_t cols)
{
    if ((size_t)(end - p) <= cols)
        return end;
    const char *e = p + cols; /* a blank there: the line is 'cols' wide */
    while (e > p && *e != ' ')
        e--;
    if (e > p)
        return e;
    while (e < end && *e != ' ') /* one word longer than a line: a line of its own */
        e++;
    return e;
}

/*
 * Description text for comment blocks: folded text wrapped at 'cols'
 * columns (a word longer than that gets a line of its own), as
 * [{"text": LINE}, ...]; an empty list for none. The last line shares the
 * folded text's bytes (often the only line).
 */
static struct dt *wrap_lines(struct ctx *c, struct folded f, size_t cols)
{
    struct dt *lines = dt_list(c->a);
    if (!f.s)
        return lines; /* no text: NULL + 0 is undefined in C */
    const char *end = f.s + f.len;
    for (const char *p = f.s; p < end;) {
        const char *e = line_end(p, end, cols);
        size_t n = (size_t)(e - p);
        char *line = e == end ? (char *)p : arena_strndup(c->a, p, n);
        dt_push(c->a, lines, text_own(c, line, n));
        p = e == end ? e : e + 1;
    }
    return lines;
}

/* ------------------------------------------------------------ memory-mapped (SVD) additions */
/*
 * Keys a spec read from CMSIS-SVD adds (docs/svd.md, docs/json.md): "device"
 * on the spec and "svd" on blocks, instances, registers, fields and values.
 * A regspec's tree has none of them.
 */

static struct dt *svd_device_json(struct ctx *c, const struct model_device *d)
{
    struct dt *o = dt_obj(c->a);
    SET_STR(c, o, "name", d->name);
    SET_STR(c, o, "vendor", d->vendor);
    SET_STR(c, o, "vendor_id", d->vendor_id);
    SET_STR(c, o, "series", d->series);
    SET_STR(c, o, "version", d->version);
    SET_STR(c, o, "desc", d->desc);
    SET_STR(c, o, "header_prefix", d->header_prefix);
    SET(c, o, "address_unit_bits", dt_int(c->a, d->address_unit_bits));
    SET(c, o, "width", dt_int(c->a, d->width));
    struct dt *cpu = dt_null();
    if (d->cpu) {
        cpu = dt_obj(c->a);
        SET_STR(c, cpu, "name", d->cpu->name);
        SET_STR(c, cpu, "revision", d->cpu->revision);
        SET_STR(c, cpu, "endian", d->cpu->endian);
        SET(c, cpu, "mpu", dt_bool(d->cpu->mpu));
        SET(c, cpu, "fpu", dt_bool(d->cpu->fpu));
        SET(c, cpu, "vtor", dt_bool(d->cpu->vtor));
        SET(c, cpu, "nvic_prio_bits",
            d->cpu->has_nvic_bits ? dt_int(c->a, d->cpu->nvic_prio_bits) : dt_null());
        SET(c, cpu, "vendor_systick", dt_bool(d->cpu->vendor_systick));
    }
    SET(c, o, "cpu", cpu);
    return o;
}

/* <dimArrayIndex> of a register, cluster or instance: the enumeration naming the indices */
static struct dt *array_index_json(struct ctx *c, const struct model_array_index *x)
{
    if (!x)
        return dt_null();
    struct dt *ai = dt_obj(c->a);
    SET_STR(c, ai, "enum_name", x->enum_name);
    struct dt *values = dt_list(c->a);
    for (size_t i = 0; i < x->nvalues; i++) {
        const struct model_value *v = x->values[i];
        struct dt *vo = dt_obj(c->a);
        SET_STR(c, vo, "name", v->name);
        SET(c, vo, "value", hex(c, v->value));
        SET_STR(c, vo, "desc", v->desc);
        dt_push(c->a, values, vo);
    }
    SET(c, ai, "values", values);
    return ai;
}

static struct dt *svd_block_json(struct ctx *c, const struct model_block *b)
{
    struct dt *o = dt_obj(c->a);
    SET_STR(c, o, "group", b->group);
    SET_STR(c, o, "header_struct", b->header_struct);
    SET_STR(c, o, "type_of", b->type_of ? b->type_of->name : NULL);
    struct dt *blocks = dt_list(c->a);
    for (size_t i = 0; i < b->naddr_blocks; i++) {
        struct dt *ab = dt_obj(c->a);
        SET(c, ab, "offset", hex(c, b->addr_blocks[i]->offset));
        SET(c, ab, "size", hex(c, b->addr_blocks[i]->size));
        SET_STR(c, ab, "usage", b->addr_blocks[i]->usage);
        dt_push(c->a, blocks, ab);
    }
    SET(c, o, "address_blocks", blocks);
    struct dt *clusters = dt_list(c->a);
    for (size_t i = 0; i < b->nclusters; i++) {
        const struct model_cluster *cl = b->clusters[i];
        struct dt *co = dt_obj(c->a);
        SET_STR(c, co, "name", cl->name);
        SET_STR(c, co, "written_name", cl->written_name);
        SET(c, co, "address", hex(c, cl->address));
        SET(c, co, "count", dt_int(c->a, cl->count));
        SET(c, co, "stride", hex(c, cl->stride));
        SET_STR(c, co, "parent", cl->parent ? cl->parent->name : NULL);
        SET_STR(c, co, "alternate", cl->alternate);
        SET_STR(c, co, "derived_from", cl->derived_from);
        SET_STR(c, co, "type_of", cl->type_of ? model_cluster_path(c->a, cl->type_of) : NULL);
        SET(c, co, "array_index", array_index_json(c, cl->array_index));
        dt_push(c->a, clusters, co);
    }
    SET(c, o, "clusters", clusters);
    return o;
}

static struct dt *svd_instance_json(struct ctx *c, const struct model_instance *inst)
{
    struct dt *o = dt_obj(c->a);
    SET_STR(c, o, "derived_from", inst->derived_from);
    SET_STR(c, o, "alternate", inst->alternate);
    SET_STR(c, o, "group", inst->group);
    SET_STR(c, o, "dim_of", inst->dim_of);
    struct dt *irqs = dt_list(c->a);
    for (size_t i = 0; i < inst->ninterrupts; i++) {
        struct dt *io = dt_obj(c->a);
        SET_STR(c, io, "name", inst->interrupts[i]->name);
        SET(c, io, "value", dt_int(c->a, (long long)inst->interrupts[i]->value));
        SET_STR(c, io, "desc", inst->interrupts[i]->desc);
        dt_push(c->a, irqs, io);
    }
    SET(c, o, "interrupts", irqs);
    SET(c, o, "array_index", array_index_json(c, inst->array_index));
    return o;
}

static struct dt *svd_reg_json(struct ctx *c, const struct model_reg *r)
{
    const struct model_reg_ext *x = model_reg_ext(r);
    struct dt *o = dt_obj(c->a);
    SET(c, o, "reset_mask", hex(c, x->reset_mask));
    /* An SVD register's alternateGroup stands in the model as its alternate (what lets it share
     * its address); the export says which is which. A regspec's may have both. */
    const char *group = r->block ? model_block_alt_group(r->block, r) : NULL;
    bool group_as_alt = group && x->alternate && strcmp(x->alternate, group) == 0;
    SET_STR(c, o, "alternate", group_as_alt ? model_cluster_alternate(x->cluster) : x->alternate);
    SET_STR(c, o, "alternate_group", group);
    SET_STR(c, o, "protection", x->protection);
    SET_STR(c, o, "derived_from", x->derived_from);
    SET_STR(c, o, "dim_of", x->dim_of);
    SET_STR(c, o, "cluster", x->cluster ? x->cluster->name : NULL);
    struct dt *names = dt_null();
    if (x->index_names) {
        names = dt_list(c->a);
        for (unsigned i = 0; i < r->count; i++)
            dt_push(c->a, names, dt_str_ref(c->a, x->index_names[i]));
    }
    SET(c, o, "index_names", names);
    SET(c, o, "array_index", array_index_json(c, x->array_index));
    return o;
}

/*
 * The field's enumeration sets (model_field_sets: its own, else one per usage of its values):
 * name, headerEnumName, usage and the names of the values in each (model_value_in_set), its
 * isDefault value's name when the set has it.
 */
static struct dt *enum_sets_json(struct ctx *c, const struct model_field *f)
{
    struct model_enum_sets fs;
    model_field_sets(f, &fs);
    struct dt *list = dt_list(c->a);
    for (size_t k = 0; k < fs.n; k++) {
        const struct model_enum_set *s = fs.sets[k];
        struct dt *o = dt_obj(c->a), *names = dt_list(c->a);
        for (size_t i = 0; i < f->nvalues; i++)
            if (model_value_in_set(f->values[i], s->usage, fs.sets, fs.n))
                dt_push(c->a, names, dt_str_ref(c->a, f->values[i]->name));
        const struct model_value *dflt = model_set_default(f, s->usage, fs.sets, fs.n);
        SET_STR(c, o, "name", s->name);
        SET_STR(c, o, "header_enum_name", s->header_enum);
        SET_STR(c, o, "derived_from", s->derived_from);
        SET(c, o, "usage", dt_str_ref(c->a, svd_usage_word(s->usage)));
        SET(c, o, "values", names);
        SET_STR(c, o, "default", dflt ? dflt->name : NULL);
        dt_push(c->a, list, o);
    }
    return list;
}

static struct dt *svd_field_json(struct ctx *c, const struct model_field *f)
{
    const struct model_field_ext *x = model_field_ext(f);
    struct dt *o = dt_obj(c->a);
    /* the regspec attribute of the same semantics (RW, RW0C...): what regctl --spec reads */
    SET(c, o, "class", dt_str_ref(c->a, regc_access_text(f->access)));
    const char *write = svd_write_word(x->write_effect); /* NULL: stores (SVD's "modify") */
    SET(c, o, "write_effect", dt_str_ref(c->a, write ? write : "stores"));
    SET(c, o, "read_action", dt_str_ref(c->a, svd_read_word(x->read_effect)));
    SET(c, o, "write_once", dt_bool(x->write_once));
    SET_STR(c, o, "enum_name", x->enum_name);
    /* the first set's that has one; each set's own: enum_sets[].default */
    SET_STR(c, o, "default_value", x->ndefaults ? x->defaults[0]->name : NULL);
    SET(c, o, "enum_sets", enum_sets_json(c, f));
    SET(c, o, "whole", dt_bool(x->whole));
    SET_STR(c, o, "derived_from", x->derived_from);
    SET_STR(c, o, "dim_of", x->dim_of);
    return o;
}

static struct dt *svd_value_json(struct ctx *c, const struct model_value *v)
{
    struct dt *o = dt_obj(c->a);
    SET(c, o, "usage", dt_str_ref(c->a, svd_usage_word(model_value_ext(v)->usage)));
    SET(c, o, "dont_care", hex(c, model_value_ext(v)->dont_care));
    return o;
}

/* A field's write constraint (regspec write-constraint=, SVD <writeConstraint>), or null: a
 * model name, so that regctl --spec reads writeAsRead from any spec's export. */
static struct dt *write_constraint_json(struct ctx *c, const struct model_field *f)
{
    static const char *const kinds[] = {NULL, "writeAsRead", "useEnumeratedValues", "range"};
    const struct model_write_constraint *wc = &model_field_ext(f)->wc;
    if (wc->kind == WC_NONE)
        return dt_null();
    struct dt *o = dt_obj(c->a);
    SET(c, o, "kind", dt_str_ref(c->a, kinds[wc->kind]));
    SET(c, o, "min", hex(c, wc->min));
    SET(c, o, "max", hex(c, wc->max));
    return o;
}

/* Is 'b' read from SVD (its names qualified by their clusters)? */
static bool is_svd(const struct model_block *b)
{
    return b && b->names_qualified;
}

/* ------------------------------------------------------------ spec and sources */

/* "c_source": the citation line or null; "c_cite_lines": the same wrapped for comments. */
static void set_cite(struct ctx *c, struct dt *o, char *line)
{
    SET_STR(c, o, "c_source", line);
    SET(c, o, "c_cite_lines", wrap_lines(c, (struct folded){line, line ? strlen(line) : 0}, 76));
}

static struct dt *source_json(struct ctx *c, const struct model_source *src)
{
    struct dt *o = dt_obj(c->a);
    SET_STR(c, o, "id", src->id);
    SET_STR(c, o, "title", src->title);
    SET_STR(c, o, "ref", src->ref);
    SET_STR(c, o, "rev", src->rev);
    SET_STR(c, o, "date", src->date);
    SET_STR(c, o, "url", src->url);
    SET_STR(c, o, "desc", src->desc);
    return o;
}

/* "Title (ref 327043 rev 001)" for banners and comments, in 'a'. */
static char *source_line(struct arena *a, const struct model_source *src)
{
    const char *p[10];
    size_t n = 0;
    p[n++] = src->title ? src->title : src->id;
    if (src->ref || src->rev || src->date) {
        const char *sep = " (";
        if (src->ref) {
            p[n++] = sep;
            p[n++] = "ref ";
            p[n++] = src->ref;
            sep = ", ";
        }
        if (src->rev) {
            p[n++] = sep;
            p[n++] = "rev ";
            p[n++] = src->rev;
            sep = ", ";
        }
        if (src->date) {
            p[n++] = sep;
            p[n++] = src->date;
        }
        p[n++] = ")";
    }
    return fold_in(a, arena_cat(a, p, n)).s;
}

/*
 * source_line() of one of the spec's sources, made once for the whole run
 * (in the arena that outlives the trees): every register cites one of a few.
 */
static const char *source_line_kept(struct ctx *c, const struct model_spec *s,
                                    const struct model_source *src)
{
    for (size_t i = 0; i < s->nsources; i++) {
        if (s->sources[i] == src) {
            if (!c->source_lines[i])
                c->source_lines[i] = source_line(c->keep, src);
            return c->source_lines[i];
        }
    }
    return source_line(c->a, src);
}

static const struct model_source *cite_source(const struct model_spec *s,
                                              const struct model_cite *cite)
{
    if (cite->source)
        return cite->source;
    return cite->src ? model_find_source(s, cite->src) : NULL;
}

/* A field's or rule's cite: NULL when it cites nothing (model_cite_keep()). */
static const struct model_cite *cite_or_none(const struct model_cite *cite)
{
    static const struct model_cite none;
    return cite ? cite : &none;
}

/* {"src","title","ref","table","page","section","cite"} */
static struct dt *cite_json(struct ctx *c, const struct model_spec *s,
                            const struct model_cite *cite)
{
    const struct model_source *src = cite_source(s, cite);
    struct dt *o = dt_obj_n(c->a, 7);
    SET_STR(c, o, "src", cite->src);
    SET_STR(c, o, "title", src ? src->title : NULL);
    SET_STR(c, o, "ref", src ? src->ref : NULL);
    SET_STR(c, o, "table", cite->table);
    SET_STR(c, o, "page", cite->page);
    SET_STR(c, o, "section", cite->section);
    SET_STR(c, o, "cite", cite->cite);
    return o;
}

/* "Source: Title (ref N), table T, page P, section S; cite" or NULL when nothing is cited. */
static char *cite_line(struct ctx *c, const struct model_spec *s, const struct model_cite *cite)
{
    const struct model_source *src = cite_source(s, cite);
    if (!cite->src && !cite->table && !cite->page && !cite->section && !cite->cite)
        return NULL;
    const char *p[12] = {"Source: ",
                         src ? source_line_kept(c, s, src) : cite->src ? cite->src : "-"};
    size_t n = 2;
    const struct {
        const char *label, *text;
    } parts[] = {{", table ", cite->table},
                 {", page ", cite->page},
                 {", section ", cite->section},
                 {"; ", cite->cite}};
    for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
        if (parts[i].text) {
            p[n++] = parts[i].label;
            p[n++] = parts[i].text;
        }
    }
    return fold_text(c, arena_cat(c->a, p, n)).s;
}

/* {"vendor","family","model","name","source"}: a <cpu> the spec applies to. */
static struct dt *cpu_json(struct ctx *c, const struct model_spec *s, const struct model_cpu *cpu)
{
    struct dt *o = dt_obj(c->a);
    SET_STR(c, o, "vendor", cpu->vendor);
    SET(c, o, "family", dt_int(c->a, (long long)cpu->family));
    SET(c, o, "model", dt_int(c->a, (long long)cpu->model));
    SET_STR(c, o, "name", cpu->name);
    SET(c, o, "source", cite_json(c, s, &cpu->cite));
    SET(c, o, "c_family",
        dt_str(c->a, arena_printf(c->a, "0x%llX", (unsigned long long)cpu->family)));
    SET(c, o, "c_model",
        dt_str(c->a, arena_printf(c->a, "0x%02llX", (unsigned long long)cpu->model)));
    SET_STR(c, o, "c_source", cite_line(c, s, &cpu->cite));
    return o;
}

static struct dt *spec_json(struct ctx *c, const struct model_spec *s)
{
    struct dt *o = dt_obj(c->a);
    SET_STR(c, o, "name", s->name);
    SET_STR(c, o, "prefix", s->prefix);
    SET_STR(c, o, "title", s->title);
    SET(c, o, "version", dt_int(c->a, s->version));
    SET_STR(c, o, "desc", s->desc);
    struct dt *sources = dt_list(c->a);
    struct dt *lines = dt_list(c->a);
    for (size_t i = 0; i < s->nsources; i++) {
        char *line = source_line(c->a, s->sources[i]); /* the tree's: fold_text() of arena_cat() */
        dt_push(c->a, sources, source_json(c, s->sources[i]));
        dt_push(c->a, lines, text_own(c, line, strlen(line)));
    }
    SET(c, o, "sources", sources);
    struct dt *cpus = dt_list(c->a);
    for (size_t i = 0; i < s->ncpus; i++)
        dt_push(c->a, cpus, cpu_json(c, s, s->cpus[i]));
    flag_list(c, cpus, false);
    SET(c, o, "cpus", cpus);
    if (s->device)
        SET(c, o, "device", svd_device_json(c, s->device));
    SET(c, o, "c_prefix", dt_str_ref(c->a, names_upper(c->a, c->prefix)));
    SET(c, o, "c_lower_prefix", dt_str_ref(c->a, names_lower(c->a, c->prefix)));
    SET(c, o, "c_guard",
        dt_str_ref(c->a, names_upper(c->a, arena_printf(c->a, "%s_%s_H", c->prefix, s->name))));
    SET(c, o, "c_version", dt_str_ref(c->a, REGC_VERSION));
    flag_list(c, lines, false);
    SET(c, o, "c_source_lines", lines);
    SET(c, o, "c_desc_lines", wrap_lines(c, fold_text(c, s->title), 76));
    return o;
}

/* ------------------------------------------------------------ instances */

static struct dt *pci_json(struct ctx *c, const struct model_instance *inst)
{
    if (!inst || !inst->has_pci)
        return dt_null();
    struct dt *o = dt_obj(c->a);
    SET(c, o, "vendor", hex(c, inst->vendor));
    SET(c, o, "device", hex(c, inst->device));
    SET(c, o, "dev", inst->has_dev ? dt_int(c->a, inst->dev) : dt_null()); /* null: any slot */
    SET(c, o, "func", inst->has_func ? dt_int(c->a, inst->func) : dt_null());
    return o;
}

static struct dt *instance_json(struct ctx *c, const struct model_spec *s,
                                 const struct model_instance *inst)
{
    struct dt *o = dt_obj(c->a);
    SET_STR(c, o, "name", inst->name);
    SET(c, o, "base", inst->has_base ? hex(c, inst->base) : dt_null());
    SET(c, o, "pci", pci_json(c, inst));
    struct folded desc = fold_text(c, inst->desc);
    SET(c, o, "desc", model_text(c, inst->desc, desc));
    SET(c, o, "source", cite_json(c, s, &inst->cite));
    if (is_svd(inst->block))
        SET(c, o, "svd", svd_instance_json(c, inst));
    char *stem = names_instance(c->a, c->prefix, inst);
    SET(c, o, "c_name", dt_str_ref(c->a, stem));
    SET(c, o, "c_index", dt_int(c->a, inst->index));
    static const struct def_name names[] = {
        DEF_NAME("name", ""),          DEF_NAME("base", "_BASE"), DEF_NAME("vendor", "_VENDOR"),
        DEF_NAME("device", "_DEVICE"), DEF_NAME("dev", "_DEV"),   DEF_NAME("func", "_FUNC")};
    uint32_t made = 1u | (uint32_t)inst->has_base << 1 |
                    (uint32_t)inst->has_pci *
                        (3u << 2 | (uint32_t)inst->has_dev << 4 | (uint32_t)inst->has_func << 5);
    defs_n(c, o, DT_KEY("c_def"), stem, strlen(stem), false, names, ARRAY_SIZE(names), made);
    if (inst->has_pci) {
        /* c_dev, c_func null when not given: no macro (any slot) */
        SET(c, o, "c_vendor", lit(c, inst->vendor, 32, false));
        SET(c, o, "c_device", lit(c, inst->device, 32, false));
        SET(c, o, "c_dev", inst->has_dev ? dt_int(c->a, (long long)inst->dev) : dt_null());
        SET(c, o, "c_func", inst->has_func ? dt_int(c->a, (long long)inst->func) : dt_null());
    }
    if (inst->has_base)
        SET(c, o, "c_base", lit(c, inst->base, inst->base > UINT32_MAX ? 64 : 32, false));
    SET(c, o, "c_desc_lines", wrap_lines(c, desc, 76));
    return o;
}

/* ------------------------------------------------------------ fields */

static const char *sem_name(enum regc_sem sem)
{
    static const char *const names[] = {"rw",  "ro",  "wo",  "rwv", "w1c", "w1s", "mbz", "ig", "mb1",
                                        "gap", "w0c", "w0s", "w1t", "w0t", "wac", "was", "rwo", "woo"};
    return sem < REGC_SEM__COUNT ? names[sem] : "mbz";
}

/*
 * A register's names, made once for it, its fields and its rules: 'stem'
 * (names_reg()), 'lower' (names_lower() of it) and field_lower[i], c_lower
 * of r->fields[i] (set by field_json()); and the values its tree shares.
 */
struct reg_names {
    const struct model_reg *r;
    char *stem, *lower;
    struct dt *stem_val, *lower_val; /* their values, shared by the keys that hold them */
    const char **field_lower;
    /* the register's "c_source" and "c_cite_lines" (reg_cite()), NULL until made */
    struct dt *cite_line, *cite_lines;
    /* values under 16 as reg_hex() and reg_lit() make them, NULL until made */
    struct dt *small_hex[16], *small_lit[16];
};

/*
 * hex() and lit() (unpadded, the register's size) for a register's tree: the
 * small values (most fields' resets and maxima, most enumerated values) made
 * once a register, their strings shared (the tree is not changed once built).
 */
static struct dt *reg_hex(struct ctx *c, struct reg_names *rn, uint64_t v)
{
    if (v >= ARRAY_SIZE(rn->small_hex))
        return hex(c, v);
    if (!rn->small_hex[v])
        rn->small_hex[v] = hex(c, v);
    return rn->small_hex[v];
}

static struct dt *reg_lit(struct ctx *c, struct reg_names *rn, uint64_t v)
{
    if (v >= ARRAY_SIZE(rn->small_lit))
        return lit(c, v, rn->r->size, false);
    if (!rn->small_lit[v])
        rn->small_lit[v] = lit(c, v, rn->r->size, false);
    return rn->small_lit[v];
}

/*
 * 'field_stem': names_field() of 'f', made once for the field and its values;
 * 'field_name' its value, the field's c_name and each value's c_field.
 */
static struct dt *value_json(struct ctx *c, struct reg_names *rn, const struct model_field *f,
                             const char *field_stem, struct dt *field_name,
                             const struct model_value *v)
{
    struct dt *o = dt_obj_n(c->a, 16);
    SET_STR(c, o, "name", v->name);
    SET(c, o, "value", reg_hex(c, rn, v->value));
    SET(c, o, "undefined", dt_bool(v->undefined));
    SET_STR(c, o, "desc", v->desc);
    if (c->all_keys && is_svd(f->reg->block))
        SET(c, o, "svd", svd_value_json(c, v));
    char *stem = names_value_of(c->a, field_stem, f, v);
    size_t ns = strlen(stem);
    SET(c, o, "c_name", dt_str_refn(c->a, stem, ns));
    static const struct def_name name = DEF_NAME("name", "");
    def_one(c, o, stem, ns, &name);
    SET(c, o, "c_value", reg_lit(c, rn, v->value));
    SET(c, o, "c_field", field_name);
    /* an SVD enumeratedValues <usage>: a value that holds only when read, or only when written */
    static struct dt usage_notes[] = {STATIC_STR("when read"), STATIC_STR("when written")};
    unsigned usage = model_value_ext(v)->usage;
    SET(c, o, "c_usage", usage ? &usage_notes[usage - 1] : dt_null());
    return o;
}

/* "c_bits": the field's bits as the manual writes them, "28:24" or "7" (printf's "%u:%u"). */
static struct dt *bits_text(struct ctx *c, const struct model_field *f)
{
    char *s = arena_alloc(c->a, 24), *p = put_uint(s, f->msb);
    if (f->msb != f->lsb) {
        *p++ = ':';
        p = put_uint(p, f->lsb);
    }
    *p = '\0';
    return dt_str_refn(c->a, s, (size_t)(p - s));
}

/* One line of the register's bit map: the field's four columns and where it sits. */
struct layout_row {
    const char *col[4]; /* c_bits, name, access, reset */
    size_t len[4];
    unsigned lsb;
};

/* Column 'k' of 'row': the string 'v' (a null: empty). */
static void layout_col(struct layout_row *row, size_t k, const struct dt *v)
{
    bool str = dt_is(v, DT_STR);
    row->col[k] = str ? v->u.str.s : "";
    row->len[k] = str ? v->u.str.len : 0;
}

/*
 * The same place cited: what cite_line() reads, compared by pointer (an SVD
 * field's cite is a copy of its register's).
 */
static bool same_cite(const struct model_cite *a, const struct model_cite *b)
{
    return a->src == b->src && a->table == b->table && a->page == b->page &&
           a->section == b->section && a->cite == b->cite && a->source == b->source;
}

/*
 * Makes the register's citation keys once: set_cite()'s values, shared by the
 * fields that cite the same (the tree is not changed once built).
 */
static void reg_cite(struct ctx *c, const struct model_spec *s, struct reg_names *rn)
{
    if (rn->cite_line)
        return;
    char *line = cite_line(c, s, &rn->r->cite);
    rn->cite_line = dt_str_ref(c->a, line);
    rn->cite_lines = wrap_lines(c, (struct folded){line, line ? strlen(line) : 0}, 76);
}

/*
 * The object of field i of rn->r; 'row' gets its line of the register's bit
 * map (layout_lines()).
 */
static struct dt *field_json(struct ctx *c, const struct model_spec *s, struct reg_names *rn,
                             size_t i, struct layout_row *row)
{
    const struct model_reg *r = rn->r;
    const struct model_field *f = r->fields[i];
    char *stem, *lower; /* lower-case, the register's part is the register's c_lower */
    size_t ns =
        names_field_of(c->a, rn->stem, rn->lower, rn->stem_val->u.str.len, f, &stem, &lower);
    rn->field_lower[i] = lower;
    struct dt *c_name = dt_str_refn(c->a, stem, ns);
    struct dt *o = dt_obj_n(c->a, 33); /* an SVD field's keys and "first", "last" */
    struct dt *name = dt_str_ref(c->a, f->name), *access = dt_str_ref(c->a, f->access_text);
    SET(c, o, "name", name);
    SET(c, o, "lsb", dt_int(c->a, f->lsb));
    SET(c, o, "msb", dt_int(c->a, f->msb));
    SET(c, o, "width", dt_int(c->a, model_field_width(f)));
    SET(c, o, "access", access);
    if (c->all_keys) {
        /* the class's spelling (an SVD field's access_text is SVD's "read-write"): the tables' enum */
        SET(c, o, "access_class", dt_str_ref(c->a, regc_access_text(f->access)));
        /* writeConstraint writeAsRead: the tables' write_as_read flag, which libregrt checks */
        SET(c, o, "write_as_read", dt_bool(model_field_write_as_read(f)));
    }
    struct dt *reset = reg_hex(c, rn, f->reset);
    SET(c, o, "reset", reset);
    struct folded desc = fold_text(c, f->desc);
    SET(c, o, "desc", model_text(c, f->desc, desc));
    SET(c, o, "implicit", dt_bool(f->implicit));
    if (c->all_keys)
        SET(c, o, "write_constraint", write_constraint_json(c, f));
    struct dt *values = dt_list(c->a);
    for (size_t k = 0; k < f->nvalues; k++)
        dt_push(c->a, values, value_json(c, rn, f, stem, c_name, f->values[k]));
    flag_list(c, values, true);
    SET(c, o, "values", values);
    if (c->all_keys) {
        SET(c, o, "source", cite_json(c, s, cite_or_none(f->cite)));
        if (is_svd(r->block))
            SET(c, o, "svd", svd_field_json(c, f));
    }

    SET(c, o, "c_name", c_name);
    SET(c, o, "c_lower", dt_str_refn(c->a, lower, ns));
    SET(c, o, "c_reserved", dt_bool(model_field_is_reserved(f)));
    SET(c, o, "c_reg", rn->stem_val);
    if (!model_field_is_reserved(f)) {
        static const struct def_name names[] = {
            DEF_NAME("shift", "_SHIFT"), DEF_NAME("width", "_WIDTH"), DEF_NAME("mask", "_MASK"),
            DEF_NAME("max", "_MAX"), DEF_NAME("reset", "_RESET")};
        static const struct def_name macros[] = {
            DEF_NAME("get", "_GET(v)"), DEF_NAME("set", "_SET(v, x)"), DEF_NAME("val", "_VAL(x)")};
        C_DEF(c, o, stem, ns, names);
        C_MDEF(c, o, stem, ns, macros);
    }
    if (c->all_keys)
        SET(c, o, "c_sem", dt_str_ref(c->a, sem_name(model_field_sem(f))));
    SET(c, o, "c_type", c_type_val(r->size));
    SET(c, o, "c_shift", dt_int(c->a, f->lsb));
    SET(c, o, "c_max", reg_lit(c, rn, model_field_max(f)));
    if (c->all_keys)
        SET(c, o, "c_mask", lit(c, model_field_mask(f), r->size, true));
    SET(c, o, "c_reset", reg_lit(c, rn, f->reset));
    struct dt *bits = bits_text(c, f);
    SET(c, o, "c_bits", bits);
    SET(c, o, "c_has_values", dt_bool(f->nvalues > 0));
    if (f->cite && f->cite->src && same_cite(f->cite, &r->cite)) {
        reg_cite(c, s, rn); /* an SVD field cites its register: the same line */
        SET(c, o, "c_source", rn->cite_line);
        SET(c, o, "c_cite_lines", rn->cite_lines);
    } else {
        set_cite(c, o, f->cite && f->cite->src ? cite_line(c, s, f->cite) : NULL);
    }
    SET(c, o, "c_desc_lines", wrap_lines(c, desc, 72));
    layout_col(row, 0, bits);
    layout_col(row, 1, name);
    layout_col(row, 2, access);
    layout_col(row, 3, reset);
    row->lsb = f->lsb;
    return o;
}

/* ------------------------------------------------------------ rules */

/* What c_string_body() writes for byte 'ch': 2 (\\ \" \?), 4 (\ooo: a control), else 1. */
static size_t c_escaped_len(unsigned char ch)
{
    return ch == '\\' || ch == '"' || ch == '?' ? 2 : ch < 0x20 || ch == 0x7f ? 4 : 1;
}

/*
 * 's' as the body of a C string literal: \\ \" and \? (no trigraphs)
 * escaped, controls as octal. 's' itself when nothing needs escaping (most
 * messages): it outlives the tree, as the text it comes from does.
 */
static const char *c_string_body(struct ctx *c, const char *s)
{
    size_t n = 0, len = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++)
        len += c_escaped_len(*p);
    if (len == n)
        return s;
    char *r = arena_alloc_bytes(c->a, len + 1), *q = r;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        size_t k = c_escaped_len(*p);
        if (k > 1)
            *q++ = '\\';
        if (k == 4) {
            *q++ = (char)('0' + (*p >> 6));
            *q++ = (char)('0' + (*p >> 3 & 7));
            *q++ = (char)('0' + (*p & 7));
        } else {
            *q++ = (char)*p;
        }
    }
    *q = '\0';
    return r;
}

/* The index of r's field named 'name' (reserved fields left out), or r->nfields. */
static size_t find_field_index(const struct model_reg *r, const char *name)
{
    for (size_t i = 0; i < r->nfields; i++)
        if (!model_field_is_reserved(r->fields[i]) && strcmp(r->fields[i]->name, name) == 0)
            return i;
    return r->nfields;
}

struct rule_ctx {
    struct ctx *c;
    const struct model_reg *r;
    const struct reg_names *rn; /* r's, its fields' c_lower made */
    struct dt *fields; /* c_candidates being built */
    const char **lowers; /* their c_lower, in order (r->nfields at most) */
    size_t nlowers;
    uint64_t nums[32]; /* the expression's numbers (the first 32) */
    size_t nnums;
};

/* expr_render_c callback: a field is its typed getter applied to 'v'. */
static void field_getter(void *ctx, struct buf *out, const char *name)
{
    struct rule_ctx *rc = ctx;
    size_t i = find_field_index(rc->r, name);
    if (i == rc->r->nfields) {
        buf_adds(out, "0"); /* cannot happen after check_spec(): rule-field */
        return;
    }
    buf_adds(out, rc->rn->field_lower[i]);
    buf_adds(out, "_get(v)");
}

/*
 * The rule in postfix, as the descriptor tables give it to the runtime
 * (struct regc_rule_op): [{t_op, lsb, width, value}], a field as its bits.
 */
static struct dt *rule_ops(struct ctx *c, const struct model_reg *r, const struct expr *e)
{
    static const char *const names[] = {
        [EXPR_OP_CONST] = "REGC_OP_CONST", [EXPR_OP_FIELD] = "REGC_OP_FIELD",
        [EXPR_OP_NOT] = "REGC_OP_NOT",     [EXPR_OP_AND] = "REGC_OP_AND",
        [EXPR_OP_OR] = "REGC_OP_OR",       [EXPR_OP_IMPLIES] = "REGC_OP_IMPLIES",
        [EXPR_OP_EQ] = "REGC_OP_EQ",       [EXPR_OP_NE] = "REGC_OP_NE",
        [EXPR_OP_LT] = "REGC_OP_LT",       [EXPR_OP_LE] = "REGC_OP_LE",
        [EXPR_OP_GT] = "REGC_OP_GT",       [EXPR_OP_GE] = "REGC_OP_GE"};
    struct expr_op *ops;
    size_t n = expr_to_rpn(c->a, e, &ops);
    struct dt *list = dt_list(c->a);
    for (size_t i = 0; i < n; i++) {
        size_t fi = ops[i].op == EXPR_OP_FIELD ? find_field_index(r, ops[i].field) : r->nfields;
        const struct model_field *f = fi < r->nfields ? r->fields[fi] : NULL;
        struct dt *o = dt_obj(c->a);
        SET(c, o, "t_op", dt_str_ref(c->a, names[ops[i].op]));
        SET(c, o, "lsb", dt_int(c->a, f ? f->lsb : 0));
        SET(c, o, "width", dt_int(c->a, f ? model_field_width(f) : 0));
        SET(c, o, "value", hex(c, ops[i].op == EXPR_OP_CONST ? ops[i].value : 0));
        dt_push(c->a, list, o);
    }
    return list;
}

static void collect_numbers(const struct expr *e, struct rule_ctx *rc)
{
    if (!e)
        return;
    if (e->op == EXPR_OP_CONST && rc->nnums < ARRAY_SIZE(rc->nums))
        rc->nums[rc->nnums++] = e->value;
    collect_numbers(e->lhs, rc);
    collect_numbers(e->rhs, rc);
}

/* A field's candidate values so far: each once (the same value, the same literal). */
struct cand_set {
    uint64_t v[3 + 3 * ARRAY_SIZE(((struct rule_ctx *)0)->nums)];
    size_t n;
};

static void add_cand(struct ctx *c, struct dt *cands, struct cand_set *seen, uint64_t v,
                     uint64_t max, unsigned size)
{
    if (v > max)
        return;
    for (size_t i = 0; i < seen->n; i++)
        if (seen->v[i] == v)
            return;
    seen->v[seen->n++] = v;
    struct dt *o = dt_obj_n(c->a, 1);
    SET(c, o, "c_value", lit(c, v, size, false));
    dt_push(c->a, cands, o);
}

/*
 * expr_foreach_field callback: the values a brute-force search for a
 * breaking value tries for one field: 0, 1, the maximum, and each number of
 * the expression and its neighbours, as {"c_lower", "c_count", "c_values"}.
 */
static int add_candidates(void *ctx, const struct expr *node)
{
    struct rule_ctx *rc = ctx;
    struct ctx *c = rc->c;
    size_t fi = find_field_index(rc->r, node->field);
    if (fi == rc->r->nfields)
        return 0;
    const struct model_field *f = rc->r->fields[fi];
    const char *stem = rc->rn->field_lower[fi];
    for (size_t i = 0; i < rc->nlowers; i++)
        if (strcmp(rc->lowers[i], stem) == 0)
            return 0;
    rc->lowers[rc->nlowers++] = stem;
    uint64_t max = model_field_max(f);
    unsigned size = rc->r->size;
    struct dt *cands = dt_list(c->a);
    struct cand_set seen = {.n = 0};
    add_cand(c, cands, &seen, 0, max, size);
    add_cand(c, cands, &seen, 1, max, size);
    add_cand(c, cands, &seen, max, max, size);
    for (size_t j = 0; j < rc->nnums; j++) {
        uint64_t n = rc->nums[j];
        add_cand(c, cands, &seen, n, max, size);
        if (n > 0)
            add_cand(c, cands, &seen, n - 1, max, size);
        if (n < UINT64_MAX)
            add_cand(c, cands, &seen, n + 1, max, size);
    }
    flag_list(c, cands, true);
    struct dt *o = dt_obj(c->a);
    SET(c, o, "c_lower", dt_str_ref(c->a, stem));
    SET(c, o, "c_count", dt_int(c->a, (long long)dt_len(cands)));
    SET(c, o, "c_values", cands);
    dt_push(c->a, rc->fields, o);
    return 0;
}

static struct dt *rule_json(struct ctx *c, const struct model_spec *s, const struct reg_names *rn,
                            const struct model_rule *rule, unsigned bit)
{
    const struct model_reg *r = rn->r;
    struct dt *o = dt_obj(c->a);
    SET_STR(c, o, "name", rule->name);
    SET_STR(c, o, "expr", rule->expr_text);
    struct folded msg = fold_text(c, rule->message);
    SET(c, o, "message", model_text(c, rule->message, msg));
    char *stem = names_rule_of(c->a, rn->stem, rule);
    SET(c, o, "c_name", dt_str_ref(c->a, stem));
    SET(c, o, "c_bit", dt_int(c->a, bit));
    static const struct def_name names[] = {DEF_NAME("name", ""), DEF_NAME("message", "_MESSAGE")};
    C_DEF(c, o, stem, strlen(stem), names);
    struct rule_ctx rc = {.c = c, .r = r, .rn = rn, .fields = c->all_keys ? dt_list(c->a) : NULL};
    rc.lowers = arena_alloc(c->a, (r->nfields ? r->nfields : 1) * sizeof(*rc.lowers));
    struct buf *expr = &c->scratch;
    buf_reset(expr);
    if (rule->expr) {
        expr_render_c(rule->expr, expr, field_getter, &rc);
        if (c->all_keys) { /* a self-test's brute-force search: no built-in template reads it */
            collect_numbers(rule->expr, &rc);
            expr_foreach_field(rule->expr, add_candidates, &rc);
        }
        if (c->table_keys) /* the tables' postfix form; not in the JSON export */
            SET(c, o, "t_ops", rule_ops(c, r, rule->expr));
    } else {
        buf_adds(expr, "1"); /* cannot happen after check_spec(): the loader parsed it */
    }
    SET(c, o, "c_expr", dt_strn(c->a, expr->s, expr->len));
    if (c->all_keys) {
        flag_list(c, rc.fields, true);
        SET(c, o, "c_candidates", rc.fields);
    }
    SET(c, o, "c_message", dt_str_ref(c->a, c_string_body(c, msg.s ? msg.s : rule->name)));
    SET(c, o, "c_reg", rn->stem_val);
    SET(c, o, "c_reg_lower", rn->lower_val);
    set_cite(c, o, cite_line(c, s, cite_or_none(rule->cite)));
    if (c->all_keys) /* the tables' .cite (specjson.c reads it) */
        SET(c, o, "source", cite_json(c, s, cite_or_none(rule->cite)));
    return o;
}

/* ------------------------------------------------------------ registers */

/* Sorts the rows highest bits first (insertion sort: fields mostly come in that order). */
static void sort_rows(struct layout_row *rows, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct layout_row row = rows[i];
        size_t k = i;
        for (; k > 0 && rows[k - 1].lsb < row.lsb; k--)
            rows[k] = rows[k - 1];
        rows[k] = row;
    }
}

/* Columns 0-2 padded with spaces to width[k] + 2, then column 3, as a {"text"} line. */
static struct dt *layout_line(struct ctx *c, const struct layout_row *row, const size_t *width)
{
    size_t len = width[0] + width[1] + width[2] + 6 + row->len[3];
    char *p = arena_alloc(c->a, len + 1), *q = p;
    for (size_t k = 0; k < 4; k++) {
        size_t n = row->len[k];
        memcpy(q, row->col[k], n);
        if (k < 3)
            memset(q + n, ' ', width[k] + 2 - n);
        q += k < 3 ? width[k] + 2 : n;
    }
    *q = '\0';
    return text_own(c, p, len);
}

/*
 * The register's bit map for its comment: one line per field, highest bits
 * first, columns aligned: bits, name, access, reset ("28:24  thresh  RW  0x0"),
 * as [{"text"}]. 'rows' (sorted here) are field_json()'s of r's fields.
 */
static struct dt *layout_lines(struct ctx *c, struct layout_row *rows, size_t n)
{
    size_t width[4] = {0};
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < 4; k++)
            width[k] = rows[i].len[k] > width[k] ? rows[i].len[k] : width[k];
    sort_rows(rows, n);
    struct dt *lines = dt_list(c->a);
    for (size_t i = 0; i < n; i++)
        dt_push(c->a, lines, layout_line(c, &rows[i], width));
    return lines;
}

/*
 * A register's masks: "c_masks", each a C literal of 'size' bits, or with 'model' "masks", the
 * model's (-t json), each in hex.
 */
static struct dt *masks_json(struct ctx *c, const struct model_masks *m, unsigned size, bool model)
{
    const struct {
        struct dt_key key;
        uint64_t bits;
        bool model;
    } masks[] = {{DT_KEY("mbz"), m->mbz, true},
                 {DT_KEY("mb1"), m->mb1, true},
                 {DT_KEY("ignored"), m->ignored, true},
                 {DT_KEY("ro"), m->ro, true},
                 {DT_KEY("wo"), m->wo, true},
                 {DT_KEY("w1c"), m->w1c, true},
                 {DT_KEY("w1s"), m->w1s, true},
                 {DT_KEY("writable"), m->writable, true},
                 {DT_KEY("keep"), m->keep, false},
                 {DT_KEY("volatile"), m->volatile_, false},
                 {DT_KEY("levels"), m->level, false},
                 {DT_KEY("preserve"), m->preserve, true}, /* the gap class (i27m) */
                 /* the write side effects of memory-mapped registers (RW0C ... WOO) */
                 {DT_KEY("w0"), m->w0, true},
                 {DT_KEY("w1t"), m->w1t, true},
                 {DT_KEY("wany"), m->wany, true},
                 {DT_KEY("once"), m->once, true},
                 /* "rmw": the bits a safe write takes from 'wanted' (RW, RW-V) */
                 {DT_KEY("rmw"), m->writable & m->keep, false}};
    /* most masks of a register hold one of a few values (0 above all): each made once */
    struct dt *made[ARRAY_SIZE(masks)];
    uint64_t made_bits[ARRAY_SIZE(masks)];
    size_t nmade = 0;
    struct dt *o = dt_obj_n(c->a, ARRAY_SIZE(masks));
    for (size_t i = 0; i < ARRAY_SIZE(masks); i++) {
        if (model && !masks[i].model)
            continue;
        size_t k = 0;
        while (k < nmade && made_bits[k] != masks[i].bits)
            k++;
        if (k == nmade) {
            made[nmade] = model ? hex(c, masks[i].bits) : lit(c, masks[i].bits, size, true);
            made_bits[nmade++] = masks[i].bits;
        }
        dt_add(c->a, o, masks[i].key, made[k]);
    }
    return o;
}

static struct dt *space_val(enum model_space sp)
{
    static struct dt names[] = {STATIC_STR("mmio"), STATIC_STR("msr"), STATIC_STR("pci")};
    return &names[sp == SPACE_MSR ? 1 : sp == SPACE_PCI ? 2 : 0];
}

/*
 * Every concrete copy: instance-major, then array index. Template keys:
 * c_addr_call, the C expression of the header that gives the copy's address,
 * and c_address, its value as a UINT64_C literal.
 */
/*
 * The header's expression for copy k of instance i: NAME_ADDR, name_addr(Ku),
 * name_addr(Iu) or name_addr(Iu, Ku) ('stem' upper-case, 'lower' the same lower-case).
 */
static char *addr_call(struct ctx *c, const struct model_reg *r, const char *stem,
                       const char *lower, bool uniform, size_t i, unsigned k)
{
    char *call = arena_alloc_bytes(c->a, strlen(stem) + 2 * 21 + 16), *p;
    if (uniform && !r->is_array) {
        p = put_str(put_str(call, stem), "_ADDR");
    } else {
        p = put_str(put_str(call, lower), "_addr(");
        if (!uniform) {
            p = put_uint(p, i);
            *p++ = 'u';
        }
        if (!uniform && r->is_array)
            p = put_str(p, ", ");
        if (r->is_array) {
            p = put_uint(p, r->first + k);
            *p++ = 'u';
        }
        *p++ = ')';
    }
    *p = '\0';
    return call;
}

static struct dt *copies_json(struct ctx *c, const struct reg_names *rn)
{
    const struct model_reg *r = rn->r;
    const char *stem = rn->stem, *lower = rn->lower;
    bool uniform = names_reg_uniform(r);
    const struct model_block *b = r->block;
    struct dt *list = dt_list(c->a);
    size_t ninst = b && b->ninstances ? b->ninstances : 1;
    for (size_t i = 0; i < ninst; i++) {
        const struct model_instance *inst = b && b->ninstances ? b->instances[i] : NULL;
        for (unsigned k = 0; k < r->count; k++) {
            struct dt *o = dt_obj_n(c->a, 8); /* and "first", "last" */
            SET_STR(c, o, "instance", inst ? inst->name : NULL);
            SET(c, o, "index", r->is_array ? dt_int(c->a, r->first + k) : dt_null());
            SET(c, o, "address", hex(c, model_reg_address(r, inst, k)));
            SET(c, o, "pci", pci_json(c, inst));
            SET(c, o, "c_addr_call", dt_str_ref(c->a, addr_call(c, r, stem, lower, uniform, i, k)));
            SET(c, o, "c_address", lit(c, model_reg_address(r, inst, k), 64, false));
            dt_push(c->a, list, o);
        }
    }
    flag_list(c, list, true);
    return list;
}

/* "(i - FIRSTu)": the index from an array's first. */
static char *index_from(struct ctx *c, unsigned first)
{
    char *s = arena_alloc_bytes(c->a, 32);
    char *p = put_uint(put_str(s, "(i - "), first);
    *put_str(p, "u)") = '\0';
    return s;
}

/* "(TYPE)INDEX * STRIDE": an element's offset from the first. */
static char *scaled_index(struct ctx *c, const char *type, const char *index, const char *stride)
{
    char *s = arena_alloc_bytes(c->a, strlen(type) + strlen(index) + strlen(stride) + 6);
    char *p = put_str(put_str(put_str(put_str(put_str(s, "("), type), ")"), index), " * ");
    *put_str(p, stride) = '\0';
    return s;
}

/*
 * Address helper keys: c_addr_type, c_addr (element 0 of instance 0),
 * c_addr_const (a plain constant), c_addr_by_index, c_addr_by_instance,
 * c_addr_index ("i" or "(i - FIRSTu)"), c_stride, c_addr_offset (the C expression of
 * element i's offset from the first element), c_irregular and c_offsets (arrays
 * given by addresses=: [{c_index, c_offset}] for the offset helper), c_addr_cases
 * (per instance).
 */
static void addr_keys(struct ctx *c, struct dt *o, const struct reg_names *rn)
{
    const struct model_reg *r = rn->r;
    const char *stem = rn->stem;
    const struct model_block *b = r->block;
    unsigned bits = addr_bits(r);
    const struct model_instance *i0 = b && b->ninstances ? b->instances[0] : NULL;
    bool uniform = names_reg_uniform(r);
    SET(c, o, "c_addr_type", c_type_val(bits));
    SET(c, o, "c_addr", lit(c, model_reg_address(r, i0, 0), bits, false));
    SET(c, o, "c_address", hex(c, model_reg_address(r, i0, 0)));
    SET(c, o, "c_addr_const", dt_bool(!r->is_array && uniform));
    SET(c, o, "c_addr_by_index", dt_bool(r->is_array && uniform));
    SET(c, o, "c_addr_by_instance", dt_bool(!uniform));
    const char *index = r->first ? index_from(c, r->first) : "i";
    SET(c, o, "c_addr_index", dt_str_ref(c->a, index));
    const char *stride = c_lit(c, r->stride, bits, false);
    SET(c, o, "c_stride", dt_str_ref(c->a, stride));
    SET(c, o, "c_irregular", dt_bool(r->addrs != NULL));
    struct dt *offsets = dt_list(c->a);
    for (size_t k = 0; k < r->naddrs; k++) {
        struct dt *e = dt_obj(c->a);
        SET(c, e, "c_index", dt_int(c->a, (long long)(r->first + k)));
        SET(c, e, "c_offset", lit(c, r->addrs[k] - r->addrs[0], bits, false));
        dt_push(c->a, offsets, e);
    }
    flag_list(c, offsets, true);
    SET(c, o, "c_offsets", offsets);
    SET(c, o, "c_addr_offset",
        dt_str_ref(c->a, r->addrs ? ARENA_CAT(c->a, rn->lower, "_offset(i)")
                                  : scaled_index(c, c_type(bits), index, stride)));
    SET(c, o, "c_first_index", dt_int(c->a, r->first));
    SET(c, o, "c_count", dt_int(c->a, r->count));
    struct dt *cases = dt_list(c->a);
    for (size_t i = 0; b && i < b->ninstances; i++) {
        const struct model_instance *inst = b->instances[i];
        struct dt *k = dt_obj(c->a);
        SET(c, k, "c_index", dt_int(c->a, (long long)i));
        SET(c, k, "c_instance", dt_str_ref(c->a, names_instance(c->a, c->prefix, inst)));
        /* the stem is upper-case already: only the instance's name is converted */
        char *name = ARENA_CAT(c->a, stem, "_", names_upper(c->a, inst->name), "_ADDR");
        SET(c, k, "c_name", dt_str_ref(c->a, name));
        SET(c, k, "c_addr", lit(c, model_reg_address(r, inst, 0), bits, false));
        static const struct def_name addr = DEF_NAME("addr", "");
        def_one(c, k, name, strlen(name), &addr);
        dt_push(c->a, cases, k);
    }
    flag_list(c, cases, true);
    SET(c, o, "c_addr_cases", cases);
    SET(c, o, "c_has_instances", dt_bool(b && b->ninstances > 0));
}

#define TERM_BREAK " \\\n                " /* the terms line up after "    ((uint32_t)(" */
#define CASE_BREAK TERM_BREAK " "          /* the cases of a ?: chain one column further in */

/* 'v' and a 'u' ("%" PRIu64 "u"): an unsigned C literal. */
static void add_uint_u(struct buf *e, uint64_t v)
{
    char tmp[24], *p = put_uint(tmp, v);
    *p++ = 'u';
    buf_addn(e, tmp, (size_t)(p - tmp));
}

/* One case of a ?: chain: "TEST Nu ? VALUE :" and the break to the next line. */
static void add_case(struct ctx *c, struct buf *e, const char *test, uint64_t n, uint64_t v,
                     unsigned bits)
{
    buf_adds(e, test);
    add_uint_u(e, n);
    buf_adds(e, " ? ");
    buf_adds(e, c_lit(c, v, bits, false));
    buf_adds(e, " :" CASE_BREAK);
}

/*
 * c_addr_c_params ("i", "inst" or "inst, i") and c_addr_c: the body of the
 * header's NAME_ADDR_C(...), the address NAME_addr(...) gives as a constant
 * expression (case labels, static initializers), one case per line. An
 * instance or index outside the register's is a compile error: the size of
 * the array in the sizeof, added times 0, is then -1.
 */
static void addr_const_keys(struct ctx *c, struct dt *o, const struct model_reg *r)
{
    const struct model_block *b = r->block;
    unsigned bits = addr_bits(r);
    bool by_instance = !names_reg_uniform(r);
    struct buf e = BUF_INIT;
    buf_adds(&e, "((");
    buf_adds(&e, c_type(bits));
    buf_adds(&e, ")(");
    if (by_instance) { /* instance n-1 last, with no test: the range check stands for it */
        buf_adds(&e, "(");
        for (size_t i = 0; i + 1 < b->ninstances; i++)
            add_case(c, &e, "(inst) == ", i, model_reg_address(r, b->instances[i], 0), bits);
        buf_adds(&e,
                 c_lit(c, model_reg_address(r, b->instances[b->ninstances - 1], 0), bits, false));
        buf_addc(&e, ')');
    } else {
        buf_adds(&e, c_lit(c, model_reg_address(r, b && b->ninstances ? b->instances[0] : NULL, 0),
                           bits, false));
    }
    if (r->addrs) {
        buf_adds(&e, " +" TERM_BREAK "(");
        for (size_t k = 0; k + 1 < r->naddrs; k++)
            add_case(c, &e, "(i) == ", r->first + k, r->addrs[k] - r->addrs[0], bits);
        buf_adds(&e, c_lit(c, r->addrs[r->naddrs - 1] - r->addrs[0], bits, false));
        buf_addc(&e, ')');
    } else if (r->is_array) {
        buf_adds(&e, " + (");
        buf_adds(&e, c_type(bits));
        buf_adds(&e, ")((i) - ");
        add_uint_u(&e, r->first);
        buf_adds(&e, ") * ");
        buf_adds(&e, c_lit(c, r->stride, bits, false));
    }
    buf_adds(&e, " +" TERM_BREAK "0u * sizeof(char[");
    if (by_instance) {
        buf_adds(&e, "(unsigned long long)(inst) < ");
        add_uint_u(&e, b->ninstances);
    }
    if (by_instance && r->is_array)
        buf_adds(&e, " && ");
    if (r->is_array) {
        buf_adds(&e, "(unsigned long long)((i) - ");
        add_uint_u(&e, r->first);
        buf_adds(&e, ") < ");
        add_uint_u(&e, r->count);
    }
    buf_adds(&e, " ? 1 : -1])))");
    SET(c, o, "c_addr_c", dt_strn(c->a, e.s, e.len));
    SET(c, o, "c_addr_c_params",
        dt_str_ref(c->a, by_instance && r->is_array ? "inst, i" : by_instance ? "inst" : "i"));
    buf_release(&e);
}

/* "0x7u": the mask of a register's rule bits, as an unsigned literal (at most 31 rules' bits). */
static char *rules_mask(struct ctx *c, size_t nrules)
{
    char *s = arena_alloc_bytes(c->a, 12);
    size_t n = hex_to(s, nrules >= 31 ? 0x7fffffffu : (1u << nrules) - 1, 1);
    s[n] = 'u';
    s[n + 1] = '\0';
    return s;
}

static struct dt *reg_json(struct ctx *c, const struct model_spec *s, const struct model_reg *r)
{
    size_t from = c->ndefs; /* every name in the register but its rules' */
    struct reg_names rn = {.r = r, .stem = names_reg(c->a, c->prefix, r)};
    rn.lower = names_lower(c->a, rn.stem);
    rn.stem_val = dt_str_ref(c->a, rn.stem);
    rn.lower_val = dt_str_ref(c->a, rn.lower);
    rn.field_lower = arena_zalloc(c->a, (r->nfields ? r->nfields : 1) * sizeof(*rn.field_lower));
    char *stem = rn.stem;
    struct dt *o = dt_obj_n(c->a, 64);
    SET_STR(c, o, "name", r->name);
    SET_STR(c, o, "written_name", r->written_name);
    SET(c, o, "space", space_val(r->space));
    SET(c, o, "address", hex(c, r->address));
    SET(c, o, "width", dt_int(c->a, r->width));
    SET(c, o, "size", dt_int(c->a, r->size));
    SET(c, o, "reset", hex(c, r->reset));
    struct folded desc = fold_text(c, r->desc);
    SET(c, o, "desc", model_text(c, r->desc, desc));
    struct dt *array = dt_null();
    if (r->is_array) {
        array = dt_obj(c->a);
        SET(c, array, "first", dt_int(c->a, r->first));
        SET(c, array, "count", dt_int(c->a, r->count));
        SET(c, array, "stride", r->addrs ? dt_null() : hex(c, r->stride));
        struct dt *list = r->addrs ? dt_list(c->a) : dt_null();
        for (size_t k = 0; r->addrs && k < r->naddrs; k++)
            dt_push(c->a, list, hex(c, r->addrs[k]));
        SET(c, array, "addresses", list);
    }
    SET(c, o, "array", array);
    SET(c, o, "instances", copies_json(c, &rn));
    if (c->all_keys)
        SET(c, o, "source", cite_json(c, s, &r->cite));
    struct dt *fields = dt_list(c->a);
    bool has_fields = false;
    struct layout_row *rows = arena_alloc(c->a, (r->nfields ? r->nfields : 1) * sizeof(*rows));
    for (size_t i = 0; i < r->nfields; i++) {
        dt_push(c->a, fields, field_json(c, s, &rn, i, &rows[i]));
        has_fields |= !model_field_is_reserved(r->fields[i]);
    }
    flag_list(c, fields, true);
    SET(c, o, "fields", fields);
    struct dt *rules = dt_list(c->a);
    size_t rules_from = c->ndefs;
    for (size_t i = 0; i < r->nrules; i++)
        dt_push(c->a, rules, rule_json(c, s, &rn, r->rules[i], (unsigned)i));
    flag_list(c, rules, true);
    align_defs(c, rules_from);
    SET(c, o, "rules", rules);
    struct model_masks m = model_reg_masks(r);
    if (c->all_keys) {
        SET(c, o, "masks", masks_json(c, &m, r->size, true));
        if (is_svd(r->block))
            SET(c, o, "svd", svd_reg_json(c, r));
    }

    SET(c, o, "c_name", rn.stem_val);
    SET(c, o, "c_lower", rn.lower_val);
    /* spec.c_prefix again: found here at once, where the root's is found only after a search
       of the register's keys and the block's, some ten times a register (3.7% of D1-H's run) */
    SET(c, o, "c_prefix", dt_str_ref(c->a, c->c_prefix));
    SET(c, o, "c_type", c_type_val(r->size));
    SET(c, o, "c_lit", &c_litmacro_vals[r->size > 32]);
    SET(c, o, "c_reset", lit(c, r->reset, r->size, true));
    SET(c, o, "c_masks", masks_json(c, &m, r->size, false));
    SET(c, o, "c_has_fields", dt_bool(has_fields));
    SET(c, o, "c_has_rules", dt_bool(r->nrules > 0));
    SET(c, o, "c_has_preserve", dt_bool(m.preserve != 0)); /* gap bits: safe writes keep them */
    /* SVD write side effects (RW0C ... WOO): their masks and safe-write terms */
    SET(c, o, "c_has_effects", dt_bool((m.w0 | m.w1t | m.wany | m.once) != 0));
    SET(c, o, "c_rules_mask", dt_str_ref(c->a, rules_mask(c, r->nrules)));
    SET(c, o, "c_is_pci", dt_bool(r->space == SPACE_PCI));
    addr_keys(c, o, &rn);
    if (r->is_array || !names_reg_uniform(r))
        addr_const_keys(c, o, r);
    static const struct def_name names[] = {
        DEF_NAME("width", "_WIDTH"),
        DEF_NAME("size", "_SIZE"),
        DEF_NAME("reset", "_RESET"),
        DEF_NAME("addr", "_ADDR"),
        DEF_NAME("first", "_FIRST"),
        DEF_NAME("count", "_COUNT"),
        DEF_NAME("stride", "_STRIDE"),
        DEF_NAME("mbz", "_MBZ_MASK"),
        DEF_NAME("mb1", "_MB1_MASK"),
        DEF_NAME("ignored", "_IGNORED_MASK"),
        DEF_NAME("ro", "_RO_MASK"),
        DEF_NAME("wo", "_WO_MASK"),
        DEF_NAME("w1c", "_W1C_MASK"),
        DEF_NAME("w1s", "_W1S_MASK"),
        DEF_NAME("writable", "_WRITABLE_MASK"),
        DEF_NAME("keep", "_KEEP_MASK"),
        DEF_NAME("levels", "_LEVELS_MASK"),
        DEF_NAME("preserve", "_PRESERVE_MASK"),
        DEF_NAME("w0", "_W0_MASK"),
        DEF_NAME("w1t", "_W1T_MASK"),
        DEF_NAME("wany", "_WANY_MASK"),
        DEF_NAME("once", "_ONCE_MASK"),
        DEF_NAME("rules", "_RULES"),
    };
    C_DEF(c, o, stem, strlen(stem), names);
    reg_cite(c, s, &rn);
    SET(c, o, "c_source", rn.cite_line);
    SET(c, o, "c_cite_lines", rn.cite_lines);
    SET(c, o, "c_desc_lines", wrap_lines(c, desc, 76));
    SET(c, o, "c_layout", layout_lines(c, rows, r->nfields));
    align_defs(c, from);
    return o;
}

/* ------------------------------------------------------------ events */

/* Appends the <set>s of 'e' (not its parent's) to 'sets'. */
static void add_sets(struct ctx *c, const struct model_events *t, const struct model_event *e,
                     struct dt *sets)
{
    for (size_t i = 0; i < e->nsets; i++) {
        const struct model_set *st = e->sets[i];
        const char *rname = st->reg_name ? st->reg_name : t->reg_name;
        const struct model_field *f = model_set_field(t, st);
        bool own = model_set_is_own(t, st);
        struct dt *so = dt_obj(c->a);
        SET_STR(c, so, "register", rname);
        SET_STR(c, so, "field", st->field_name);
        SET(c, so, "value", hex(c, st->value));
        SET(c, so, "c_own", dt_bool(own));
        if (f) {
            char *stem = names_field(c->a, c->prefix, f);
            SET(c, so, "c_field", dt_str_ref(c->a, stem));
            SET(c, so, "c_field_lower", dt_str_ref(c->a, names_lower(c->a, stem)));
            SET(c, so, "c_value", lit(c, st->value, f->reg->size, false));
        }
        dt_push(c->a, sets, so);
    }
}

/* The counters that may count 'e', as a list of indices and as a mask. */
static struct dt *event_counters(struct ctx *c, const struct model_event *e,
                                 const struct model_reg *reg, uint64_t *mask)
{
    struct dt *counters = dt_list(c->a);
    unsigned count = reg ? reg->count : 64;
    *mask = 0;
    for (unsigned i = 0; i < count && i < 64; i++) {
        if (!e->has_counters || (e->counter_mask >> i & 1)) {
            dt_push(c->a, counters, dt_int(c->a, i));
            *mask |= UINT64_C(1) << i;
        }
    }
    return counters;
}

/* Sets key 'key' to the lower-case C stem of field 'f', when there is one. */
static void set_getter(struct ctx *c, struct dt *o, const char *key, const struct model_field *f)
{
    if (f)
        dt_add(c->a, o, dt_key(key),
               dt_str_ref(c->a, names_lower(c->a, names_field(c->a, c->prefix, f))));
}

/*
 * The filters event e needs that the spec does not model: "unmodelled_filters", their names as
 * in the JSON export; "c_has_unmodelled"; and the derived "doc_unmodelled": what they are, from
 * its block's <unmodelled-filter>s, joined by " and " (the outputs that say what is missing).
 */
static void set_unmodelled(struct ctx *c, struct dt *o, const struct model_events *t,
                           const struct model_event *e)
{
    struct dt *names = dt_list(c->a);
    struct buf what = BUF_INIT;
    for (size_t i = 0; i < e->nunmodelled; i++) {
        dt_push(c->a, names, dt_str_ref(c->a, e->unmodelled[i]));
        const struct model_unmodelled_filter *f =
            model_find_unmodelled_filter(t->block ? t->block->pmon : NULL, e->unmodelled[i]);
        buf_addf(&what, "%s%s", i ? " and " : "", f && f->what ? f->what : e->unmodelled[i]);
    }
    SET(c, o, "unmodelled_filters", names);
    SET(c, o, "c_has_unmodelled", dt_bool(e->nunmodelled > 0));
    if (!c->lazy_regs) /* a doc key: a tree without them (the C header, the tables) leaves it out */
        SET(c, o, "doc_unmodelled", e->nunmodelled ? dt_str(c->a, what.s) : dt_null());
    buf_release(&what);
}

/* 'table': the index of 't' in its block. */
static struct dt *event_json(struct ctx *c, const struct model_spec *s,
                             const struct model_events *t, size_t table, const struct model_event *e)
{
    const struct model_reg *reg = model_events_reg(t);
    const struct model_field *code_f = model_events_code_field(t);
    const struct model_field *umask_f = model_events_umask_field(t);
    uint64_t umask;
    bool has_umask = model_event_umask(e, &umask);
    unsigned size = reg ? reg->size : 64;

    struct dt *o = dt_obj_n(c->a, 32);
    SET_STR(c, o, "name", e->full_name);
    SET(c, o, "table", dt_int(c->a, (long long)table));
    SET_STR(c, o, "parent", e->parent ? e->parent->full_name : NULL);
    SET_STR(c, o, "register", t->reg_name);
    SET_STR(c, o, "field", t->code_field_name);
    SET_STR(c, o, "umask_field", t->umask_field_name);
    SET(c, o, "code", hex(c, e->code));
    SET(c, o, "umask", has_umask ? hex(c, umask) : dt_null());
    SET_STR(c, o, "perfmon", e->perfmon);
    SET_STR(c, o, "combine", model_event_combines(e) ? "or" : "exact");
    struct dt *flist = dt_list(c->a);
    for (size_t i = 0; i < e->nfilters; i++)
        dt_push(c->a, flist, dt_str_ref(c->a, e->filters[i]));
    SET(c, o, "filters", flist);
    SET(c, o, "c_has_filters", dt_bool(e->nfilters > 0));
    set_unmodelled(c, o, t, e);
    uint64_t cmask;
    SET(c, o, "counters", event_counters(c, e, reg, &cmask));
    struct folded desc = fold_text(c, e->desc);
    SET(c, o, "desc", model_text(c, e->desc, desc));
    struct dt *sets = dt_list(c->a);
    uint64_t enc = model_event_encoding(t, e);
    if (e->parent)
        add_sets(c, t, e->parent, sets);
    add_sets(c, t, e, sets);
    flag_list(c, sets, false);
    SET(c, o, "sets", sets);
    SET(c, o, "encoding", hex(c, enc));
    SET(c, o, "source", cite_json(c, s, &e->cite));

    char *stem = names_event(c->a, c->prefix, e);
    SET(c, o, "c_name", dt_str_ref(c->a, stem));
    SET(c, o, "c_lower", dt_str_ref(c->a, names_lower(c->a, stem)));
    SET(c, o, "c_is_sub", dt_bool(e->parent != NULL));
    SET(c, o, "c_combine_or", dt_bool(model_event_combines(e)));
    static const struct def_name names[] = {DEF_NAME("name", ""), DEF_NAME("code", "_CODE"),
                                            DEF_NAME("umask", "_UMASK"),
                                            DEF_NAME("counters", "_COUNTERS")};
    C_DEF(c, o, stem, strlen(stem), names);
    SET(c, o, "c_encoding", lit(c, enc, size, false));
    SET(c, o, "c_code", lit(c, e->code, size, false));
    SET(c, o, "c_has_umask", dt_bool(has_umask && umask_f));
    SET(c, o, "c_umask", lit(c, umask, size, false));
    SET(c, o, "c_counters", lit(c, cmask, 64, false));
    if (reg) {
        char *rstem = names_reg(c->a, c->prefix, reg);
        SET(c, o, "c_reg", dt_str_ref(c->a, rstem));
        SET(c, o, "c_reg_lower", dt_str_ref(c->a, names_lower(c->a, rstem)));
    }
    set_getter(c, o, "c_code_field", code_f);
    set_getter(c, o, "c_umask_field", umask_f);
    SET(c, o, "c_type", dt_str_ref(c->a, c_type(size)));
    set_cite(c, o, cite_line(c, s, &e->cite));
    SET(c, o, "c_desc_lines", wrap_lines(c, desc, 72));
    return o;
}

static void add_events(struct ctx *c, const struct model_spec *s, struct dt *list,
                       const struct model_events *t, size_t table, const struct model_event *e)
{
    dt_push(c->a, list, event_json(c, s, t, table, e));
    for (size_t i = 0; i < e->nsubs; i++)
        add_events(c, s, list, t, table, e->subs[i]);
}

/* The block's <events> tables: {"register","code_field","umask_field","title","desc","source"} */
static struct dt *event_tables_json(struct ctx *c, const struct model_spec *s,
                                    const struct model_block *b)
{
    struct dt *list = dt_list(c->a);
    for (size_t i = 0; i < b->nevent_tables; i++) {
        const struct model_events *t = b->event_tables[i];
        struct dt *o = dt_obj(c->a);
        SET_STR(c, o, "register", t->reg_name);
        SET_STR(c, o, "code_field", t->code_field_name);
        SET_STR(c, o, "umask_field", t->umask_field_name);
        SET_STR(c, o, "title", t->title);
        SET_STR(c, o, "desc", t->desc);
        SET(c, o, "source", cite_json(c, s, &t->cite));
        dt_push(c->a, list, o);
    }
    return list;
}

/* ------------------------------------------------------------ pmon */

static struct dt *role(struct ctx *c, const struct model_role *r)
{
    return dt_str_ref(c->a, r->name);
}

static const char *clear_name(enum model_clear cl)
{
    static const char *const names[] = {[CLEAR_W1C] = "w1c",
                                        [CLEAR_WRITE0] = "write0",
                                        [CLEAR_REGISTER] = "register",
                                        [CLEAR_NONE] = "none"};
    return names[cl];
}

/* [{"direction": "up"|"down"|"up-down", "value": hex}] for the directions the spec gives. */
static struct dt *directions_json(struct ctx *c, const struct model_counters *k)
{
    static const char *const names[DIRECTION_COUNT] = {"up", "down", "up-down"};
    struct dt *list = dt_list(c->a);
    for (int d = 0; k->direction_field.name && d < DIRECTION_COUNT; d++) {
        if (!k->directions[d].given)
            continue;
        struct dt *o = dt_obj(c->a);
        SET(c, o, "direction", dt_str_ref(c->a, names[d]));
        SET(c, o, "value", hex(c, k->directions[d].value));
        dt_push(c->a, list, o);
    }
    return list;
}

/* "clear", "clear_register", "clear_field": how a status register's bits are cleared. */
static void set_clear(struct ctx *c, struct dt *o, enum model_clear clear, const char *reg,
                      const struct model_role *field)
{
    SET(c, o, "clear", dt_str_ref(c->a, clear_name(clear)));
    SET_STR(c, o, "clear_register", reg);
    SET(c, o, "clear_field", role(c, field));
}

static struct dt *counters_json(struct ctx *c, const struct model_spec *s,
                                const struct model_counters *k)
{
    struct dt *o = dt_obj(c->a);
    SET(c, o, "kind", dt_str_ref(c->a, k->kind == COUNTERS_FIXED ? "fixed" : "general"));
    SET_STR(c, o, "control", k->control_name);
    SET_STR(c, o, "counter", k->counter_name);
    SET(c, o, "count_field", role(c, &k->count_field));
    SET(c, o, "width", dt_int(c->a, k->width));
    SET(c, o, "overflow", dt_str_ref(c->a, k->overflow == OVERFLOW_STOP ? "stop" : "wrap"));
    SET(c, o, "wrap_field", role(c, &k->wrap_field));
    SET(c, o, "enable", role(c, &k->enable));
    SET(c, o, "reset", role(c, &k->reset));
    SET(c, o, "pmi", role(c, &k->pmi));
    SET(c, o, "edge", role(c, &k->edge));
    SET(c, o, "invert", role(c, &k->invert));
    SET(c, o, "threshold", role(c, &k->threshold));
    SET(c, o, "event", role(c, &k->event));
    SET(c, o, "umask", role(c, &k->umask));
    SET(c, o, "direction_field", role(c, &k->direction_field));
    SET(c, o, "directions", directions_json(c, k));
    SET(c, o, "preload", dt_str_ref(c->a, k->preload_minus_one ? "2^w-1-N" : "2^w-N"));
    SET(c, o, "freeze_on_overflow", dt_bool(k->freeze_on_overflow));
    SET(c, o, "has_status_first", dt_bool(k->has_status_first));
    SET(c, o, "status_first", k->has_status_first ? dt_int(c->a, k->status_first) : dt_null());
    struct dt *rd = dt_list(c->a);
    for (size_t i = 0; i < k->nrdpmcs; i++) {
        struct dt *ro = dt_obj(c->a);
        SET_STR(c, ro, "processor", k->rdpmcs[i]->processor);
        SET(c, ro, "first", dt_int(c->a, k->rdpmcs[i]->first));
        SET(c, ro, "high_zero", dt_bool(k->rdpmcs[i]->high_zero));
        dt_push(c->a, rd, ro);
    }
    SET(c, o, "rdpmc", rd);
    SET_STR(c, o, "desc", k->desc);
    SET(c, o, "source", cite_json(c, s, &k->cite));
    return o;
}

static struct dt *pmon_json(struct ctx *c, const struct model_spec *s, const struct model_pmon *p)
{
    if (!p)
        return dt_null();
    struct dt *o = dt_obj(c->a);
    struct dt *list = dt_list(c->a);
    for (size_t i = 0; i < p->ncounters; i++)
        dt_push(c->a, list, counters_json(c, s, p->counters[i]));
    flag_list(c, list, false);
    SET(c, o, "counters", list);
    const struct model_box_control *bc = p->box_control;
    struct dt *ctl = bc ? dt_obj(c->a) : dt_null();
    if (bc) {
        SET_STR(c, ctl, "register", bc->reg_name);
        SET(c, ctl, "freeze", role(c, &bc->freeze));
        SET(c, ctl, "freeze_enable", role(c, &bc->freeze_enable));
        SET(c, ctl, "reset_counters", role(c, &bc->reset_counters));
        SET(c, ctl, "reset_controls", role(c, &bc->reset_controls));
        SET(c, ctl, "enable", role(c, &bc->enable));
        SET(c, ctl, "source", cite_json(c, s, &bc->cite));
    }
    SET(c, o, "box_control", ctl);
    const struct model_box_status *bs = p->box_status;
    struct dt *st = bs ? dt_obj(c->a) : dt_null();
    if (bs) {
        SET_STR(c, st, "register", bs->reg_name);
        SET(c, st, "overflow", role(c, &bs->overflow));
        set_clear(c, st, bs->clear, bs->clear_reg_name, &bs->clear_field);
        SET(c, st, "source", cite_json(c, s, &bs->cite));
    }
    SET(c, o, "box_status", st);
    struct dt *filters = dt_list(c->a);
    for (size_t i = 0; i < p->nfilters; i++) {
        const struct model_filter *f = p->filters[i];
        struct dt *b = dt_obj(c->a);
        SET_STR(c, b, "register", f->reg_name);
        SET_STR(c, b, "field", f->field_name);
        SET_STR(c, b, "match", f->match);
        SET_STR(c, b, "traffic", f->traffic);
        SET_STR(c, b, "perf", f->perf);
        SET_STR(c, b, "example", f->example);
        SET_STR(c, b, "desc", f->desc);
        SET(c, b, "source", cite_json(c, s, &f->cite));
        dt_push(c->a, filters, b);
    }
    SET(c, o, "filters", filters);
    SET(c, o, "c_has_filters", dt_bool(p->nfilters > 0));
    struct dt *unmodelled = dt_list(c->a);
    for (size_t i = 0; i < p->nunmodelled; i++) {
        const struct model_unmodelled_filter *f = p->unmodelled[i];
        struct dt *b = dt_obj(c->a);
        SET_STR(c, b, "name", f->name);
        SET_STR(c, b, "what", f->what);
        SET_STR(c, b, "desc", f->desc);
        SET(c, b, "source", cite_json(c, s, &f->cite));
        dt_push(c->a, unmodelled, b);
    }
    SET(c, o, "unmodelled_filters", unmodelled);
    SET(c, o, "c_has_unmodelled", dt_bool(p->nunmodelled > 0));
    SET_STR(c, o, "desc", p->desc);
    SET(c, o, "source", cite_json(c, s, &p->cite));
    return o;
}

static struct dt *pmon_global_json(struct ctx *c, const struct model_spec *s,
                                   const struct model_pmon_global *g)
{
    if (!g)
        return dt_null();
    struct dt *o = dt_obj(c->a);
    const struct model_global_control *gc = g->control;
    struct dt *ctl = gc ? dt_obj(c->a) : dt_null();
    if (gc) {
        SET_STR(c, ctl, "block", gc->block_name);
        SET_STR(c, ctl, "register", gc->reg_name);
        SET(c, ctl, "freeze", role(c, &gc->freeze));
        SET(c, ctl, "unfreeze", role(c, &gc->unfreeze));
        SET(c, ctl, "enable", role(c, &gc->enable));
        SET(c, ctl, "freeze_on_overflow", role(c, &gc->freeze_on_overflow));
        SET(c, ctl, "pmi_core", role(c, &gc->pmi_core));
        SET(c, ctl, "wake", role(c, &gc->wake));
        SET(c, ctl, "reset", role(c, &gc->reset));
        SET(c, ctl, "select", role(c, &gc->select));
        struct dt *cores = dt_list(c->a);
        for (size_t i = 0; i < gc->npmi_cores; i++)
            dt_push(c->a, cores, dt_str_ref(c->a, gc->pmi_cores[i].name));
        SET(c, ctl, "pmi_core_fields", cores);
        SET(c, ctl, "has_pmi_core_fields", dt_bool(gc->npmi_cores > 0));
        SET(c, ctl, "source", cite_json(c, s, &gc->cite));
    }
    SET(c, o, "control", ctl);
    const struct model_global_status *gs = g->status;
    struct dt *st = gs ? dt_obj(c->a) : dt_null();
    if (gs) {
        SET_STR(c, st, "block", gs->block_name);
        SET_STR(c, st, "register", gs->reg_name);
        set_clear(c, st, gs->clear, gs->clear_reg_name, &gs->clear_field);
        struct dt *boxes = dt_list(c->a);
        for (size_t i = 0; i < gs->nboxes; i++) {
            const struct model_box_overflow *bo = gs->boxes[i];
            struct dt *bx = dt_obj(c->a);
            SET_STR(c, bx, "block", bo->block_name);
            SET_STR(c, bx, "field", bo->field_name);
            SET_STR(c, bx, "instance", bo->instance_name);
            SET_STR(c, bx, "counters", bo->counters_name);
            dt_push(c->a, boxes, bx);
        }
        SET(c, st, "boxes", boxes);
        SET(c, st, "source", cite_json(c, s, &gs->cite));
    }
    SET(c, o, "status", st);
    SET_STR(c, o, "desc", g->desc);
    SET(c, o, "source", cite_json(c, s, &g->cite));
    return o;
}

/* ------------------------------------------------------------ blocks */

/* Does a block of s before b list an event? */
static bool events_before(const struct model_spec *s, const struct model_block *b)
{
    for (size_t i = 0; i < s->nblocks && s->blocks[i] != b; i++)
        for (size_t k = 0; k < s->blocks[i]->nevent_tables; k++)
            if (s->blocks[i]->event_tables[k]->nevents)
                return true;
    return false;
}

static struct dt *block_json(struct ctx *c, const struct model_spec *s, const struct model_block *b)
{
    struct dt *o = dt_obj(c->a);
    SET_STR(c, o, "name", b->name);
    SET(c, o, "events_before", dt_bool(events_before(s, b)));
    SET_STR(c, o, "title", b->title);
    struct folded desc = fold_text(c, b->desc);
    SET(c, o, "desc", model_text(c, b->desc, desc));
    struct dt *insts = dt_list(c->a);
    size_t from = c->ndefs;
    for (size_t i = 0; i < b->ninstances; i++)
        dt_push(c->a, insts, instance_json(c, s, b->instances[i]));
    flag_list(c, insts, false);
    align_defs(c, from);
    SET(c, o, "instances", insts);
    struct dt *regs = c->lazy_regs ? reg_stubs(c, b) : dt_list(c->a);
    for (size_t i = 0; i < b->nregs && !c->lazy_regs; i++)
        dt_push(c->a, regs, reg_json(c, s, b->regs[i]));
    if (!c->lazy_regs)
        flag_list(c, regs, false);
    SET(c, o, "registers", regs);
    struct dt *events = dt_list(c->a);
    from = c->ndefs;
    for (size_t t = 0; t < b->nevent_tables; t++)
        for (size_t i = 0; i < b->event_tables[t]->nevents; i++)
            add_events(c, s, events, b->event_tables[t], t, b->event_tables[t]->events[i]);
    flag_list(c, events, false);
    align_defs(c, from);
    SET(c, o, "events", events);
    SET(c, o, "event_tables", event_tables_json(c, s, b));
    SET(c, o, "pmon", pmon_json(c, s, b->pmon));
    SET(c, o, "source", cite_json(c, s, &b->cite));
    if (is_svd(b))
        SET(c, o, "svd", svd_block_json(c, b));

    char *stem = names_block(c->a, c->prefix, b);
    SET(c, o, "c_name", dt_str_ref(c->a, stem));
    SET(c, o, "c_lower", dt_str_ref(c->a, names_lower(c->a, stem)));
    SET(c, o, "c_ninstances", dt_int(c->a, (long long)b->ninstances));
    size_t own = c->ndefs; /* a scope of its own: the name unpadded */
    static const struct def_name ninstances = DEF_NAME("ninstances", "_NINSTANCES");
    def_one(c, o, stem, strlen(stem), &ninstances);
    align_defs(c, own);
    SET(c, o, "c_has_instances", dt_bool(b->ninstances > 0));
    SET(c, o, "c_has_events", dt_bool(dt_len(events) > 0));
    SET(c, o, "c_is_pci", dt_bool(b->ninstances > 0 && b->instances[0]->has_pci));
    set_cite(c, o, cite_line(c, s, &b->cite));
    SET(c, o, "c_desc_lines", wrap_lines(c, desc, 76));
    return o;
}

/*
 * The keys of registers, fields and values that cost the most to make and
 * that the C header does not read: with context_options.no_unread_keys the
 * builders above leave them out (all_keys). A lookup finds only a member of
 * its own name, so leaving out keys that no name of the template reads
 * changes none of its output (D1-H's header: 5% of the run).
 */
static const struct dt_key unread_keys[] = {
    DT_KEY_INIT("masks"),       DT_KEY_INIT("svd"),           DT_KEY_INIT("source"),
    DT_KEY_INIT("access_class"), DT_KEY_INIT("write_as_read"), DT_KEY_INIT("write_constraint"),
    DT_KEY_INIT("c_sem"),       DT_KEY_INIT("c_mask"),        DT_KEY_INIT("c_candidates"),
};

bool context_key_unread(const char *name, size_t len)
{
    for (size_t i = 0; i < ARRAY_SIZE(unread_keys); i++)
        if (unread_keys[i].len == len && memcmp(unread_keys[i].s, name, len) == 0)
            return true;
    return false;
}

/* 'keep': an arena that outlives every tree 'a' holds (the root's, for a lazy tree's parts) */
static void ctx_init(struct ctx *c, struct arena *a, struct arena *keep,
                     const struct model_spec *s, const struct context_options *opt)
{
    *c = (struct ctx){.a = a,
                      .prefix = opt && opt->prefix ? opt->prefix : s->prefix,
                      .table_keys = opt && opt->annotate,
                      .all_keys = !opt || !opt->no_unread_keys};
    if (!c->prefix)
        c->prefix = s->name ? s->name : "REGC";
    c->keep = keep;
    buf_init(&c->scratch);
    c->c_prefix = names_upper(keep, c->prefix);
    size_t nsources = s->nsources ? s->nsources : 1;
    c->source_lines = arena_zalloc(keep, nsources * sizeof(*c->source_lines));
}

static void ctx_release(struct ctx *c)
{
    free(c->defs);
    buf_release(&c->scratch);
}

/* The root around 'blocks' (or their placeholders): both trees'; with 'doc', its doc keys. */
static struct dt *root_json(struct ctx *c, const struct model_spec *s,
                            const struct context_options *opt, struct dt *blocks, bool doc,
                            struct dt *regspec_stubs)
{
    struct dt *root = dt_obj(c->a);
    SET(c, root, "regc_model", dt_int(c->a, CONTEXT_MODEL_VERSION));
    SET(c, root, "spec", spec_json(c, s));
    SET(c, root, "blocks", blocks);
    SET(c, root, "pmon_global", pmon_global_json(c, s, s->pmon_global));
    SET(c, root, "metrics", context_metrics(c->a, s, c->prefix)); /* issue 28: <metric>s */
    if (opt && opt->svd_keys) /* issue 27: the SVD-shaped tree */
        SET(c, root, "svd", context_svd(c->a, s));
    if (opt && opt->regspec_keys) /* issue 27: -t regspec */
        SET(c, root, "regspec", context_regspec(c->a, s, regspec_stubs));
    if (opt && opt->cmsis) /* issue 27: -t cmsis */
        SET(c, root, "c_cmsis", context_cmsis(c->a, s));
    if (doc)
        context_doc_keys(c->a, root);
    if (opt && opt->annotate)
        opt->annotate(c->a, root);
    return root;
}

struct dt *context_build(struct arena *a, const struct model_spec *s,
                         const struct context_options *opt)
{
    struct ctx cx, *c = &cx;
    ctx_init(c, a, a, s, opt);
    struct dt *blocks = dt_list(c->a);
    for (size_t i = 0; i < s->nblocks; i++)
        dt_push(c->a, blocks, block_json(c, s, s->blocks[i]));
    flag_list(c, blocks, false);
    struct dt *root = root_json(c, s, opt, blocks, true, NULL);
    ctx_release(c);
    return root;
}

/*
 * Lazy trees: the root (spec, one empty placeholder per block, pmon_global)
 * lives in 'root'; a block is built into 'block' when the renderer reaches
 * its placeholder, and that arena is emptied when the next block is built
 * and no block handed out is still being rendered. Without doc keys (which
 * read a block's registers to encode its events), a block's registers are
 * placeholders too, each built into 'reg' when reached, the same way: then
 * memory holds one register's tree, not a block's. The "regspec" object's block elements are
 * placeholders too, each built into 'rs_block' when reached.
 */
/* Trees handed out by context_expand() and not yet given back by context_item_done(). */
struct live {
    const struct dt **items; /* owned */
    size_t n, cap;
};

static void live_add(struct live *l, const struct dt *o)
{
    if (l->n == l->cap)
        l->items = xgrow(l->items, &l->cap, l->n + 1, sizeof(*l->items));
    l->items[l->n++] = o;
}

/* Takes 'o' off 'l': false when it is not there. */
static bool live_drop(struct live *l, const struct dt *o)
{
    for (size_t k = l->n; k-- > 0;) {
        if (l->items[k] == o) {
            l->items[k] = l->items[--l->n];
            return true;
        }
    }
    return false;
}

struct reg_stubs {
    struct dt *stubs; /* placeholder i stands for b->regs[i]; in 'block' */
    const struct model_block *b;
};

struct context_lazy {
    struct ctx c; /* the root's */
    struct arena root;
    struct ctx bc;      /* the blocks' builder: its own arena and names in scope */
    struct arena block; /* the blocks built; released when none is in use */
    unsigned live;      /* blocks handed out and not yet done */
    const struct model_spec *s;
    void (*annotate)(struct arena *a, struct dt *tree);
    bool no_doc_keys;
    struct dt *stubs; /* placeholder i stands for s->blocks[i]; in 'root' */
    struct reg_stubs *regs; /* the register placeholders of the blocks in 'block'; owned */
    size_t nregs, regs_cap;
    struct ctx rc;      /* the registers' builder */
    struct arena reg;   /* the registers built; released when none is in use */
    struct live live_regs; /* registers handed out and not yet done */
    struct regspec_names *rs_names; /* with the "regspec" object: its blocks' names; owned */
    struct dt *rs_stubs;            /* placeholder i stands for block i's element; in 'root' */
    struct arena rs_block;          /* the elements built; released when none is in use */
    struct live live_rs;            /* elements handed out and not yet done */
};

/* The placeholders of b's registers, recorded for context_expand(). */
static struct dt *reg_stubs(struct ctx *c, const struct model_block *b)
{
    struct context_lazy *lz = c->lazy_regs;
    struct dt *list = dt_list(c->a);
    struct dt *stubs = arena_zalloc(c->a, (b->nregs ? b->nregs : 1) * sizeof(*stubs));
    for (size_t i = 0; i < b->nregs; i++) {
        stubs[i].type = DT_OBJ;
        dt_push(c->a, list, &stubs[i]);
    }
    if (lz->nregs == lz->regs_cap)
        lz->regs = xgrow(lz->regs, &lz->regs_cap, lz->nregs + 1, sizeof(*lz->regs));
    lz->regs[lz->nregs++] = (struct reg_stubs){stubs, b};
    return list;
}

/* Builds the register placeholder 'item' stands for, or NULL when it is none. */
static const struct dt *expand_reg(struct context_lazy *lz, const struct dt *item)
{
    for (size_t k = 0; k < lz->nregs; k++) {
        const struct reg_stubs *rs = &lz->regs[k];
        uintptr_t at = (uintptr_t)item, first = (uintptr_t)rs->stubs;
        size_t n = rs->b->nregs;
        if (at < first || at >= first + n * sizeof(*rs->stubs))
            continue;
        size_t i = (size_t)(item - rs->stubs);
        /* every register handed out before is done: its chunk kept for the next (no malloc) */
        if (lz->live_regs.n == 0)
            arena_clear(&lz->reg);
        struct ctx *c = &lz->rc;
        struct dt *o = reg_json(c, lz->s, rs->b->regs[i]); /* its names aligned: none left */
        SET(c, o, "first", dt_bool(i == 0)); /* a register's tree has neither key */
        SET(c, o, "last", dt_bool(i + 1 == n));
        if (lz->annotate)
            lz->annotate(c->a, o);
        live_add(&lz->live_regs, o);
        return o;
    }
    return NULL;
}

struct context_lazy *context_build_lazy(const struct model_spec *s,
                                        const struct context_options *opt, const struct dt **tree)
{
    struct context_lazy *lz = xcalloc(1, sizeof(*lz));
    arena_init(&lz->root);
    arena_init(&lz->block);
    arena_init(&lz->reg);
    struct ctx *c = &lz->c;
    ctx_init(c, &lz->root, &lz->root, s, opt);
    ctx_init(&lz->bc, &lz->block, &lz->root, s, opt); /* the blocks' and registers' builders */
    ctx_init(&lz->rc, &lz->reg, &lz->root, s, opt);
    lz->s = s;
    lz->annotate = opt ? opt->annotate : NULL;
    lz->no_doc_keys = opt && opt->no_doc_keys;
    lz->bc.lazy_regs = lz->no_doc_keys ? lz : NULL;
    lz->stubs = arena_zalloc(&lz->root, (s->nblocks ? s->nblocks : 1) * sizeof(*lz->stubs));
    struct dt *blocks = dt_list(c->a);
    for (size_t i = 0; i < s->nblocks; i++) {
        lz->stubs[i].type = DT_OBJ;
        dt_push(c->a, blocks, &lz->stubs[i]);
    }
    if (opt && opt->regspec_keys) {
        arena_init(&lz->rs_block);
        lz->rs_names = context_regspec_names(s);
        lz->rs_stubs = arena_zalloc(&lz->root, (s->nblocks ? s->nblocks : 1) * sizeof(*lz->rs_stubs));
        for (size_t i = 0; i < s->nblocks; i++)
            lz->rs_stubs[i].type = DT_OBJ;
    }
    /* the root's own doc keys: its blocks are placeholders yet */
    struct dt *root = root_json(c, s, opt, blocks, !lz->no_doc_keys, lz->rs_stubs);
    *tree = root;
    return lz;
}

const struct dt *context_expand(void *lazy, const struct dt *item)
{
    struct context_lazy *lz = lazy;
    /* the renderer asks for every item it meets: a placeholder is an empty object, few others are */
    if (!item || item->type != DT_OBJ || item->n)
        return NULL;
    uintptr_t at = (uintptr_t)item, first = (uintptr_t)lz->stubs;
    size_t n = lz->s->nblocks;
    uintptr_t rs = (uintptr_t)lz->rs_stubs;
    if (lz->rs_stubs && at >= rs && at < rs + n * sizeof(*lz->rs_stubs)) {
        if (lz->live_rs.n == 0)
            arena_release(&lz->rs_block); /* every element handed out before is done */
        struct dt *o = context_regspec_block(&lz->rs_block, lz->rs_names, item - lz->rs_stubs);
        live_add(&lz->live_rs, o);
        return o;
    }
    if (at < first || at >= first + n * sizeof(*lz->stubs))
        return expand_reg(lz, item);
    size_t i = (size_t)(item - lz->stubs);
    if (lz->live == 0) { /* every block handed out before is done, and its registers */
        arena_release(&lz->block);
        lz->nregs = 0;
    }
    struct ctx *c = &lz->bc;
    struct dt *o = block_json(c, lz->s, lz->s->blocks[i]);
    dt_set(c->a, o, "first", dt_bool(i == 0));
    dt_set(c->a, o, "last", dt_bool(i + 1 == n));
    if (!lz->no_doc_keys) {
        /* the doc keys, as context_build() adds them: through a root holding this block */
        struct dt *one = dt_obj(c->a), *list = dt_list(c->a);
        dt_push(c->a, list, o);
        dt_set(c->a, one, "blocks", list);
        struct dt *sp = dt_obj(c->a); /* the spec's name: perf keys are per spec (kpmu.h) */
        SET_STR(c, sp, "name", lz->s->name);
        dt_set(c->a, one, "spec", sp);
        /* issue 28: the metrics, whose terms with settings are perf aliases of the events */
        dt_set(c->a, one, "metrics", context_metrics(c->a, lz->s, lz->c.prefix));
        context_doc_keys(c->a, one);
    }
    if (lz->annotate)
        lz->annotate(c->a, o);
    lz->live++;
    return o;
}

void context_item_done(void *lazy, const struct dt *own)
{
    struct context_lazy *lz = lazy;
    if (!live_drop(&lz->live_regs, own) && !live_drop(&lz->live_rs, own))
        lz->live--; /* a block */
}

void context_lazy_free(struct context_lazy *lz)
{
    if (!lz)
        return;
    arena_release(&lz->block);
    ctx_release(&lz->bc);
    arena_release(&lz->reg);
    ctx_release(&lz->rc);
    free(lz->regs);
    free(lz->live_regs.items);
    if (lz->rs_names)
        arena_release(&lz->rs_block);
    context_regspec_names_free(lz->rs_names);
    free(lz->live_rs.items);
    arena_release(&lz->root);
    ctx_release(&lz->c);
    free(lz);
}

/*
 * Appends 'v' as jansson writes it with a 2-space indent, every line after
 * the first indented by 'indent' more spaces (JSON strings hold no raw line
 * ends, so this only moves structure). -1 when jansson fails.
 */
static int json_text(struct buf *out, const struct dt *v, size_t indent)
{
    json_t *j = dt_to_json(v);
    char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
    json_decref(j);
    if (!text)
        return -1;
    for (const char *p = text;;) { /* line by line: each line end gets the indentation */
        const char *nl = strchr(p, '\n');
        if (!nl) {
            buf_adds(out, p);
            break;
        }
        buf_addn(out, p, (size_t)(nl - p) + 1);
        buf_addspaces(out, indent);
        p = nl + 1;
    }
    free(text);
    return 0;
}

/*
 * --dump-context's writer: the text is made in 'out'; with a sink, what 'out'
 * holds goes to the sink once it reaches MUS_SINK_CHUNK bytes (checked after
 * each list item), so the output is never held whole.
 */
struct dump {
    struct buf *out;
    struct context_lazy *lz;
    mus_sink_fn *sink;
    void *sink_ctx;
};

static void dump_hand_over(struct dump *d)
{
    if (!d->sink || d->out->len < MUS_SINK_CHUNK)
        return;
    d->sink(d->sink_ctx, d->out->s, d->out->len);
    d->out->len = 0;
    d->out->s[0] = '\0';
}

/*
 * The root and its members written structure by structure, a block expanded,
 * written and dropped before the next: the text context_to_json() makes of
 * the full tree, with one block's tree in memory at a time (and, with a
 * sink, about MUS_SINK_CHUNK bytes of its text).
 */
static int lazy_text(struct dump *d, const struct dt *v, size_t indent)
{
    struct buf *out = d->out;
    if (!(dt_is(v, DT_OBJ) || dt_is(v, DT_LIST)) || v->n == 0)
        return json_text(out, v, indent);
    bool obj = v->type == DT_OBJ;
    buf_addc(out, obj ? '{' : '[');
    int rc = 0;
    for (uint32_t i = 0; i < v->n && rc == 0; i++) {
        buf_addc(out, '\n');
        buf_addspaces(out, indent + 2);
        if (obj) {
            struct dt key = {.type = DT_STR,
                             .u.str = {v->u.members[i].key, strlen(v->u.members[i].key)}};
            rc = json_text(out, &key, 0);
            buf_adds(out, ": ");
            if (rc == 0)
                rc = lazy_text(d, v->u.members[i].val, indent + 2);
        } else {
            const struct dt *own = context_expand(d->lz, v->u.items[i]);
            rc = lazy_text(d, own ? own : v->u.items[i], indent + 2);
            if (own)
                context_item_done(d->lz, own);
        }
        if (i + 1 < v->n)
            buf_addc(out, ',');
        if (!obj && rc == 0)
            dump_hand_over(d); /* after an item: a block, a register, a field... */
    }
    buf_addc(out, '\n');
    buf_addspaces(out, indent);
    buf_addc(out, obj ? '}' : ']');
    return rc;
}

int context_write_json(const struct model_spec *s, const struct context_options *opt,
                       mus_sink_fn *sink, void *sink_ctx, struct buf *out)
{
    struct context_options lazy = opt ? *opt : (struct context_options){0};
    lazy.no_doc_keys = false;
    const struct dt *tree;
    struct dump d = {.out = out, .sink = sink, .sink_ctx = sink_ctx};
    d.lz = context_build_lazy(s, &lazy, &tree);
    size_t start = out->len;
    int rc = lazy_text(&d, tree, 0);
    context_lazy_free(d.lz);
    if (rc < 0) {
        if (out->len > start) { /* with a sink, 'out' was empty at the start */
            out->len = start;
            out->s[start] = '\0';
        }
        return -1;
    }
    buf_addc(out, '\n');
    return 0;
}

int context_to_json(const struct dt *tree, struct buf *out)
{
    json_t *j = dt_to_json(tree);
    char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(j);
    if (!text)
        return -1;
    buf_adds(out, text);
    buf_addc(out, '\n');
    free(text);
    return 0;
}
