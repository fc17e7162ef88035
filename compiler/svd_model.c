/*
 * svd_model - the model from a resolved SVD tree (svd_int.h), with the
 * checks that need SVD's meaning (svdconv's are the reference).
 *
 * Mapping: a <peripheral> is a block with one instance at its baseAddress;
 * a peripheral derived from another without registers of its own is one
 * more instance of the base's block (GPIOB of GPIOA's block, as svd2rust
 * and CMSIS share the base's type). A dim list with "[%s]" in the name is a
 * register array; "%s" elsewhere is expanded into one register per index
 * (svdconv's rule); clusters are kept (model_cluster) and their registers
 * named CLUSTER_REG at cluster offset + register offset. Register
 * properties (size, access, protection, resetValue, resetMask) are
 * inherited device -> peripheral -> cluster -> register -> field access.
 * A register's fields stay in the order written (a dim list's elements
 * together), as a regspec's do. A register without fields gets one field of
 * its own name over all its bits; bits no field describes become implicit
 * gap fields (written back as read by safe writes) that keep the register's
 * reset bits.
 *
 * Defects where the intent is clear are warnings that name what is dropped
 * or changed (--strict makes them errors); the rest are errors.
 */
#include "check.h"
#include "model_mmio.h"
#include "model_tree.h"
#include "svd_array_index.h"
#include "svd_int.h"
#include "svd_rules.h"
#include "svd_words.h"
#include "util.h"

#include "regc/num.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct props {
    unsigned size;
    struct srcpos size_pos;
    const char *access;
    struct srcpos access_pos;
    const char *protection;
    uint64_t reset, reset_mask;
    bool has_reset_mask;
    const char *mwv, *read_action; /* register level, for its fields */
    struct srcpos mwv_pos, ra_pos;
    struct model_write_constraint wc; /* register level */
    unsigned own; /* model_prop bits a cluster or the register wrote (not its peripheral) */
};

/* A peripheral's model block, found by its node (for derived instances). */
struct made {
    const struct svd_node *node;
    struct model_block *block;
    struct props props;           /* its register properties (its own, else inherited) */
    struct model_instance *first; /* its first instance; NULL until added */
};

struct builder {
    struct svd_reader *rd;
    struct arena *a;
    struct diag *dg;
    struct model_spec *spec;
    struct made *made;
    size_t nmade, made_cap;
    struct model_block *blk;     /* the block being filled */
    struct regc_map reg_names;   /* its registers by name (a file may have thousands) */
    struct regc_map array_index; /* <dimArrayIndex> node -> what it made: each read (and
                                    reported) once, however many registers a dim list makes */
    struct regc_map cl_nodes;    /* a cluster node without dim -> the model cluster first read
                                    from it where it is written (not as a copy), any block */
    struct later_base *later;    /* unmodified copies whose base is not read yet (this block's,
                                    and an earlier one's whose base is in a later block) */
    size_t nlater, later_cap;
};

/* An unmodified copy 'c' of the cluster node 'from', not read yet when 'c' was. */
struct later_base {
    struct model_cluster *c;
    const struct svd_node *from;
};

static const char *name_of(const struct svd_node *n)
{
    return n->text[SVD_T_NAME] ? n->text[SVD_T_NAME] : "";
}

static struct srcpos tpos(const struct svd_node *n, enum svd_text t)
{
    return n->tpos[t].line ? n->tpos[t] : n->pos;
}

/* ---------------------------------------------------------------- values */

/* A hex digit's value; 99 for anything else (above every base). Compared as ASCII, as
 * isxdigit() does in the C locale regc runs in, without its call a digit. */
static int digit_of(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    char lower = (char)(c | 0x20);
    return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : 99;
}

/*
 * SVD's scaledNonNegativeInteger: decimal, 0x hex, #binary, optional '+',
 * optional k/M/G/T scale. With 'dont_care' non-NULL, binary digits may be
 * 'x' (enumerated values): their bits are set there and 0 in *v. False on
 * a bad or too large number (not reported).
 */
static bool parse_number(const char *s, uint64_t *v, uint64_t *dont_care)
{
    unsigned base = 10;
    uint64_t n = 0, dc = 0;
    if (*s == '+')
        s++;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, s += 2;
    else if (s[0] == '#')
        base = 2, s += 1;
    else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B') && s[2])
        base = 2, s += 2;
    if (!*s)
        return false;
    for (; *s; s++) {
        int d = digit_of(*s);
        bool x = base == 2 && dont_care && (*s == 'x' || *s == 'X');
        if (!x && d >= (int)base)
            break;
        if (n > (UINT64_MAX - (x ? 0 : (uint64_t)d)) / base || dc > UINT64_MAX / base)
            return false;
        n = n * base + (x ? 0 : (uint64_t)d);
        dc = dc * base + (x ? 1 : 0);
    }
    if (*s) {
        static const char scales[] = "kKmMgGtT";
        const char *k = strchr(scales, *s);
        if (!k || s[1] || base == 2)
            return false;
        unsigned shift = 10 * (unsigned)((k - scales) / 2 + 1);
        if (n > (UINT64_MAX >> shift))
            return false;
        n <<= shift;
    }
    *v = n;
    if (dont_care)
        *dont_care = dc;
    return true;
}

/* Element 't' of 'n' as a number into *v; false (reported) when it is not one; absent: false. */
static bool number(struct builder *b, const struct svd_node *n, enum svd_text t, uint64_t *v)
{
    const char *s = n->text[t];
    if (!s)
        return false;
    if (parse_number(s, v, NULL))
        return true;
    diag_report(b->dg, DIAG_BAD_NUMBER, tpos(n, t),
                "<%s> '%s' of %s '%s' is not a number (decimal, 0x hex or #binary) of at most 64 "
                "bits",
                svd_text_tag(t), s, svd_kind_name(n->kind), name_of(n));
    return false;
}

static bool boolean(const struct svd_node *n, enum svd_text t)
{
    const char *s = n->text[t];
    return s && (strcmp(s, "true") == 0 || strcmp(s, "1") == 0);
}

/*
 * The same, with a warning naming the change, for the 'kind' object written at 'pos'. An
 * enumeratedValue's name only ever follows "_V_" in C names: it may start with a digit or be
 * a keyword ("16MHz", "short").
 */
static const char *identifier(struct builder *b, const char *name, const char *kind,
                              struct srcpos pos)
{
    const char *s = check_c_identifier(b->a, name, strcmp(kind, "enumeratedValue") == 0);
    if (s != name && strcmp(s, name) != 0)
        diag_report(b->dg, DIAG_SVD_NAME, pos,
                    "%s name '%s' is not a C identifier, or is a keyword: named '%s'", kind, name,
                    s);
    return s;
}

/* ---------------------------------------------------------------- dim lists */

struct dim {
    unsigned count;
    uint64_t incr;
    const char **index; /* count names */
    bool bracket;       /* "NAME[%s]": an array */
    bool numeric;       /* index[i] == first + i */
    unsigned first;
};

/* The "A,B,C" form of <dimIndex> into v[0, count); the number of names it gives, or UINT_MAX
 * when one is empty (",B": CMSIS-SVD's dimIndexType has none, and an array's element would have
 * no name of its own). */
static unsigned dim_list(struct builder *b, const char *s, const char **v, unsigned count)
{
    unsigned k = 0;
    for (const char *p = s; k <= count;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        while (len && *p == ' ')
            p++, len--;
        while (len && p[len - 1] == ' ')
            len--;
        if (!len)
            return UINT_MAX;
        if (k < count)
            v[k] = arena_strndup(b->a, p, len);
        k++;
        if (!comma)
            break;
        p = comma + 1;
    }
    return k;
}

/* 'v' in decimal, owned by the arena (arena_printf's cost, per element of a dim list, saved). */
static const char *decimal(struct arena *a, uint64_t v)
{
    char digits[20], *q = digits + sizeof(digits);
    do
        *--q = (char)('0' + v % 10);
    while (v /= 10);
    return arena_strndup(a, q, (size_t)(digits + sizeof(digits) - q));
}

/* "0-3", "A-D" or "A,B,C": the index names, or NULL (reported). */
static const char **dim_index(struct builder *b, const struct svd_node *n, unsigned count)
{
    const char **v = arena_alloc(b->a, (count ? count : 1) * sizeof(*v));
    const char *s = n->text[SVD_T_DIM_INDEX];
    if (!s) {
        for (unsigned i = 0; i < count; i++)
            v[i] = decimal(b->a, i);
        return v;
    }
    const char *dash = strchr(s, '-');
    if (dash && !strchr(s, ',')) {
        uint64_t lo, hi;
        if (parse_number(arena_strndup(b->a, s, (size_t)(dash - s)), &lo, NULL) &&
            parse_number(dash + 1, &hi, NULL) && hi >= lo && hi - lo + 1 == count) {
            for (unsigned k = 0; k < count; k++)
                v[k] = decimal(b->a, lo + k);
            return v;
        }
        if (dash - s == 1 && strlen(dash + 1) == 1 && isupper((unsigned char)s[0]) &&
            dash[1] >= s[0] && (unsigned)(dash[1] - s[0]) + 1 == count) {
            for (unsigned k = 0; k < count; k++)
                v[k] = arena_printf(b->a, "%c", s[0] + (int)k);
            return v;
        }
    } else if (dim_list(b, s, v, count) == count) {
        return v;
    }
    diag_report(b->dg, DIAG_SVD_DIM, tpos(n, SVD_T_DIM_INDEX),
                "<dimIndex> '%s' of %s '%s' does not give %u indices, one per element of <dim>", s,
                svd_kind_name(n->kind), name_of(n), count);
    return NULL;
}

/* Are the index names first, first+1, ...? */
static void dim_numeric(struct dim *d)
{
    uint64_t first;
    d->numeric = parse_number(d->index[0], &first, NULL) &&
                 isdigit((unsigned char)d->index[0][0]) && first < 65536;
    d->first = d->numeric ? (unsigned)first : 0;
    for (unsigned i = 1; d->numeric && i < d->count; i++) {
        uint64_t v;
        d->numeric = parse_number(d->index[i], &v, NULL) && v == first + i;
    }
}

/*
 * The dim list of 'n' into *d: false with no dim (d->count 1); an error
 * (reported) sets *bad. "%s" without <dim>, <dim> without "%s" are errors.
 */
static bool read_dim(struct builder *b, const struct svd_node *n, struct dim *d, bool *bad)
{
    const char *name = name_of(n), *kind = svd_kind_name(n->kind);
    bool has_s = strstr(name, "%s") != NULL;
    memset(d, 0, sizeof(*d));
    d->count = 1;
    *bad = false;
    uint64_t count = 0;
    if (!n->text[SVD_T_DIM]) {
        if (has_s)
            diag_report(b->dg, DIAG_SVD_DIM, n->pos, "%s '%s' has '%%s' in its name but no <dim>",
                        kind, name);
        *bad = has_s;
        return false;
    }
    *bad = true;
    if (!number(b, n, SVD_T_DIM, &count))
        return false;
    if (count == 0 || count > MODEL_DIM_MAX) {
        diag_report(b->dg, DIAG_SVD_DIM, tpos(n, SVD_T_DIM), "<dim> of %s '%s' must be 1 to 65536",
                    kind, name);
        return false;
    }
    if (!has_s) {
        /* a dim taken from its base (svd_derive.c's copy_dim): svdconv drops it so too (M239) */
        bool taken = n->base && n->text[SVD_T_DIM] == n->base->text[SVD_T_DIM];
        diag_report(b->dg, DIAG_SVD_DIM, taken ? n->pos : tpos(n, SVD_T_DIM),
                    "%s '%s' has a <dim> but no '%%s' in its name to put the index in", kind, name);
        if (taken)
            diag_note(b->dg, tpos(n, SVD_T_DIM), "the <dim> of its base '%s', which it takes",
                      name_of(n->base));
        return false;
    }
    d->count = (unsigned)count;
    if (!n->text[SVD_T_DIM_INCR]) {
        diag_report(b->dg, DIAG_SVD_MISSING, tpos(n, SVD_T_DIM),
                    "%s '%s' has a <dim> but no <dimIncrement>", kind, name);
        return false;
    }
    if (!number(b, n, SVD_T_DIM_INCR, &d->incr) || !(d->index = dim_index(b, n, d->count)))
        return false;
    size_t len = strlen(name);
    d->bracket = len > 4 && strcmp(name + len - 4, "[%s]") == 0;
    dim_numeric(d);
    *bad = false;
    return true;
}

/* 'name' with "%s" replaced by 'index'; "[%s]" at the end becomes 'index' too ("" drops it). */
static const char *substitute(struct arena *a, const char *name, const char *index)
{
    const char *at = strstr(name, "[%s]");
    size_t cut = 4;
    if (!at)
        at = strstr(name, "%s"), cut = 2;
    if (!at)
        return name;
    size_t head = (size_t)(at - name), len = strlen(index), tail = strlen(at + cut);
    char *r = arena_alloc_bytes(a, head + len + tail + 1); /* printf's cost, per element, saved */
    memcpy(r, name, head);
    memcpy(r + head, index, len);
    memcpy(r + head + len, at + cut, tail + 1);
    return r;
}

/* ---------------------------------------------------------------- properties */

static const struct {
    const char *text;  /* as written */
    const char *taken; /* the SVD spelling a misspelling is taken as; NULL: correct */
} access_words[] = {
    {"read-only", NULL},       {"write-only", NULL},        {"read-write", NULL},
    {"writeOnce", NULL},       {"read-writeOnce", NULL},    {"read", "read-only"},
    {"write", "write-only"},   {"writeonce", "writeOnce"},  {"read-writeonce", "read-writeOnce"},
    {"readonly", "read-only"}, {"writeonly", "write-only"}, {"readwrite", "read-write"},
};

/* The SVD spelling of access word 'text' (a misspelling corrected); 'text' when it is none. */
static const char *access_spelled(const char *text)
{
    for (size_t i = 0; text && i < ARRAY_SIZE(access_words); i++)
        if (strcmp(text, access_words[i].text) == 0)
            return access_words[i].taken ? access_words[i].taken : text;
    return text;
}

/* The SVD access word 'text' corrected (warning), or NULL (error) when it is none. */
static const char *access_word(struct builder *b, const char *text, struct srcpos pos)
{
    for (size_t i = 0; i < ARRAY_SIZE(access_words); i++) {
        if (strcmp(text, access_words[i].text) != 0)
            continue;
        if (!access_words[i].taken)
            return text;
        diag_report(b->dg, DIAG_SVD_ACCESS, pos, "access '%s' is not SVD: taken as '%s'", text,
                    access_words[i].taken);
        return access_words[i].taken;
    }
    diag_report(b->dg, DIAG_UNKNOWN_ACCESS, pos,
                "access '%s' is not SVD: read-only, write-only, read-write, writeOnce or "
                "read-writeOnce",
                text);
    return NULL;
}

/* Applies the register properties 'n' gives on top of 'p'. */
static void take_props(struct builder *b, const struct svd_node *n, struct props *p)
{
    uint64_t v;
    if (number(b, n, SVD_T_SIZE, &v)) {
        p->size = v > 1024 ? 1024 : (unsigned)v;
        p->size_pos = tpos(n, SVD_T_SIZE);
        p->own |= MODEL_PROP_SIZE;
    }
    if (n->text[SVD_T_ACCESS]) {
        p->access = n->text[SVD_T_ACCESS];
        p->access_pos = tpos(n, SVD_T_ACCESS);
        p->own |= MODEL_PROP_ACCESS;
    }
    if (n->text[SVD_T_PROTECTION]) {
        p->protection = n->text[SVD_T_PROTECTION];
        p->own |= MODEL_PROP_PROTECTION;
    }
    if (number(b, n, SVD_T_RESET, &v)) {
        p->reset = v;
        p->own |= MODEL_PROP_RESET;
    }
    if (number(b, n, SVD_T_RESET_MASK, &v)) {
        p->reset_mask = v;
        p->has_reset_mask = true;
        p->own |= MODEL_PROP_RESET_MASK;
    }
}

/* ---------------------------------------------------------------- fields */

/* "[MSB:LSB]" into *hi, *lo. */
static bool parse_range(struct arena *a, const char *s, uint64_t *hi, uint64_t *lo)
{
    const char *colon = strchr(s, ':');
    size_t len = strlen(s);
    if (s[0] != '[' || !colon || len < 5 || s[len - 1] != ']')
        return false;
    return parse_number(arena_strndup(a, s + 1, (size_t)(colon - s - 1)), hi, NULL) &&
           parse_number(arena_strndup(a, colon + 1, (size_t)(s + len - 2 - colon)), lo, NULL);
}

/* The field's bits from bitOffset/bitWidth, lsb/msb or bitRange "[msb:lsb]"; false: reported. */
static bool field_bits(struct builder *b, const struct svd_node *n, unsigned *msb, unsigned *lsb)
{
    uint64_t lo = 0, hi = 0, w = 1;
    if (n->text[SVD_T_BIT_OFFSET]) {
        if (!number(b, n, SVD_T_BIT_OFFSET, &lo) ||
            (n->text[SVD_T_BIT_WIDTH] && !number(b, n, SVD_T_BIT_WIDTH, &w)))
            return false;
        hi = lo + w - 1;
        if (w == 0 || lo > 1024 || w > 1024) {
            diag_report(b->dg, DIAG_BAD_BITS, n->pos, "field '%s' has bit width %" PRIu64,
                        name_of(n), w);
            return false;
        }
    } else if (n->text[SVD_T_LSB] || n->text[SVD_T_MSB]) {
        if (!n->text[SVD_T_LSB] || !n->text[SVD_T_MSB]) {
            diag_report(b->dg, DIAG_SVD_MISSING, n->pos,
                        "field '%s' gives only one of <lsb> and <msb>", name_of(n));
            return false;
        }
        if (!number(b, n, SVD_T_LSB, &lo) || !number(b, n, SVD_T_MSB, &hi))
            return false;
    } else if (n->text[SVD_T_BIT_RANGE]) {
        if (!parse_range(b->a, n->text[SVD_T_BIT_RANGE], &hi, &lo)) {
            diag_report(b->dg, DIAG_BAD_BITS, tpos(n, SVD_T_BIT_RANGE),
                        "bitRange '%s' of field '%s' is not written [MSB:LSB]",
                        n->text[SVD_T_BIT_RANGE], name_of(n));
            return false;
        }
    } else {
        diag_report(b->dg, DIAG_SVD_MISSING, n->pos,
                    "field '%s' gives no bits (bitOffset, lsb and msb, or bitRange)", name_of(n));
        return false;
    }
    if (hi < lo || hi > 1024) {
        diag_report(b->dg, DIAG_BAD_BITS, n->pos,
                    "field '%s' has msb %" PRIu64 " below its lsb %" PRIu64, name_of(n), hi, lo);
        return false;
    }
    *msb = (unsigned)hi;
    *lsb = (unsigned)lo;
    return true;
}

/* The attribute class for SVD's access and write effect; access_text keeps SVD's words. */
static void field_access(struct builder *b, struct model_field *f, const char *access,
                         struct srcpos apos)
{
    const char *acc = access ? access_word(b, access, apos) : "read-write";
    if (!acc) {
        f->access = REGC_ACCESS_UNKNOWN;
        f->access_text = access;
        return;
    }
    svd_field_access(b->a, f, acc);
}

static void field_effects(struct builder *b, struct model_field *f, const struct svd_node *n,
                          const struct props *p)
{
    struct model_field_ext *x = model_field_ext_set(b->a, f);
    const char *mwv = n->text[SVD_T_MWV] ? n->text[SVD_T_MWV] : p->mwv;
    struct srcpos mpos = n->text[SVD_T_MWV] ? tpos(n, SVD_T_MWV) : p->mwv_pos;
    if (mwv) {
        int i = svd_write_parse(mwv);
        if (i < 0)
            diag_report(b->dg, DIAG_SVD_ACCESS, mpos,
                        "modifiedWriteValues '%s' is not SVD: ignored (the field stores)", mwv);
        x->write_effect = i < 0 ? WRITE_STORES : (enum model_write_effect)i;
        x->write_given = i >= 0;
    }
    const char *ra = n->text[SVD_T_READ_ACTION] ? n->text[SVD_T_READ_ACTION] : p->read_action;
    struct srcpos rpos = n->text[SVD_T_READ_ACTION] ? tpos(n, SVD_T_READ_ACTION) : p->ra_pos;
    if (ra) {
        int i = svd_read_parse(ra);
        if (i <= 0)
            diag_report(b->dg, DIAG_SVD_ACCESS, rpos, "readAction '%s' is not SVD: ignored", ra);
        x->read_effect = i <= 0 ? READ_NONE : (enum model_read_effect)i;
    }
    x->wc = n->wc.kind != WC_NONE ? n->wc : p->wc;
}

static enum model_usage usage_of(struct builder *b, const struct svd_node *e)
{
    const char *u = e->text[SVD_T_USAGE];
    if (!u || strcmp(u, "read-write") == 0)
        return USAGE_ANY;
    if (strcmp(u, "read") == 0)
        return USAGE_READ;
    if (strcmp(u, "write") == 0)
        return USAGE_WRITE;
    diag_report(b->dg, DIAG_SVD_ACCESS, tpos(e, SVD_T_USAGE),
                "usage '%s' is not SVD (read, write or read-write): taken as read-write", u);
    return USAGE_ANY;
}

static struct model_value *find_value(const struct model_field *f, const char *name)
{
    for (size_t i = 0; i < f->nvalues; i++)
        if (strcmp(f->values[i]->name, name) == 0)
            return f->values[i];
    return NULL;
}

/*
 * "RESERVED", "Reserved2", "reserved_3": what vendors call bits and encodings with no
 * function. Such a field is left to the gaps (its bits become reserved); such a value
 * is kept as an undefined encoding, and its repeats are not reported.
 */
static bool is_reserved_name(const char *s)
{
    if (strncasecmp(s, "reserved", 8) != 0)
        return false;
    for (s += 8; *s; s++)
        if (!isdigit((unsigned char)*s) && *s != '_')
            return false;
    return true;
}

/* A value of the same name kept already: merged when equal, else the later one dropped. */
static bool value_again(struct builder *b, const struct model_field *f, struct model_value *m)
{
    struct model_value *old = find_value(f, m->name);
    if (!old)
        return false;
    const struct model_value_ext *ox = model_value_ext(old), *mx = model_value_ext(m);
    if (old->value == m->value && ox->dont_care == mx->dont_care) {
        if (ox->usage != mx->usage)
            model_value_ext_set(b->a, old)->usage = USAGE_ANY; /* in the read and the write set */
        return true;
    }
    if (m->undefined)
        return true; /* another reserved encoding */
    diag_report(b->dg, DIAG_SVD_DUPLICATE, m->pos,
                "enumeratedValue '%s' of field '%s' is defined twice: the later one is dropped",
                m->name, f->name);
    diag_note(b->dg, old->pos, "'%s' first defined here", m->name);
    return true;
}

static void add_value(struct builder *b, struct model_field *f, const struct svd_node *v,
                      enum model_usage usage, size_t *cap)
{
    if (!v->text[SVD_T_NAME]) {
        diag_report(b->dg, DIAG_SVD_MISSING, v->pos,
                    "an enumeratedValue of field '%s' has no <name>", f->name);
        return;
    }
    struct model_value *m = arena_zalloc(b->a, sizeof(*m));
    m->name = identifier(b, name_of(v), "enumeratedValue", v->pos);
    m->desc = v->text[SVD_T_DESC];
    if (usage != USAGE_ANY)
        model_value_ext_set(b->a, m)->usage = usage;
    m->undefined = is_reserved_name(m->name);
    m->pos = v->pos;
    if (boolean(v, SVD_T_IS_DEFAULT)) {
        model_field_add_default(b->a, f, m); /* its set's own */
        return;
    }
    const char *s = v->text[SVD_T_VALUE];
    if (!s) {
        diag_report(b->dg, DIAG_SVD_MISSING, v->pos,
                    "enumeratedValue '%s' of field '%s' has neither <value> nor <isDefault>",
                    m->name, f->name);
        return;
    }
    uint64_t dont_care;
    if (!parse_number(s, &m->value, &dont_care)) {
        diag_report(b->dg, DIAG_BAD_NUMBER, tpos(v, SVD_T_VALUE),
                    "value '%s' of enumeratedValue '%s' is not a number", s, m->name);
        return;
    }
    if (dont_care)
        model_value_ext_set(b->a, m)->dont_care = dont_care;
    if (m->value > model_field_max(f) || dont_care > model_field_max(f)) {
        diag_report(b->dg, DIAG_SVD_VALUE_TOO_WIDE, tpos(v, SVD_T_VALUE),
                    "enumeratedValue '%s' (%s) does not fit the %u bits of field '%s': dropped",
                    m->name, s, model_field_width(f), f->name);
        return;
    }
    if (!value_again(b, f, m))
        arena_push(b->a, (void ***)&f->values, &f->nvalues, cap, m);
}

/* A set's <name>, else its base's (svdconv's SvdItem::CopyItem takes a name not written). */
static const char *set_name(const struct svd_node *e)
{
    for (unsigned depth = 0; e && depth < SVD_MAX_DERIVE_DEPTH; e = e->base, depth++)
        if (e->text[SVD_T_NAME])
            return e->text[SVD_T_NAME];
    return NULL;
}

/*
 * The set's headerEnumName (its own: svd_derive.c's merge takes none from a base), for the first
 * field that takes the set only, not for a copy of it in a derived field, register, cluster or
 * peripheral (they share the set's node): svdconv's SvdEnumContainer::CopyItem leaves it out of
 * every copy.
 */
static const char *set_header_enum(struct svd_node *e)
{
    bool first = !e->header_enum_taken;
    e->header_enum_taken = true;
    return first ? e->text[SVD_T_ENUM_NAME] : NULL;
}

static void add_set(struct builder *b, struct model_field_ext *x, struct svd_node *e,
                    enum model_usage u, size_t *cap)
{
    struct model_enum_set *s = arena_zalloc(b->a, sizeof(*s));
    s->name = set_name(e);
    s->header_enum = set_header_enum(e);
    s->usage = u;
    s->derived_from = e->derived_from; /* as written; its base: model_link_enum_bases */
    s->derived_pos = e->derived_pos;
    s->pos = e->pos;
    arena_push(b->a, (void ***)&x->sets, &x->nsets, cap, s);
}

static void field_values(struct builder *b, struct model_field *f, const struct svd_node *n)
{
    size_t cap = 0, set_cap = 0;
    for (size_t i = 0; i < n->nkids; i++) {
        struct svd_node *e = n->kids[i];
        if (e->kind != SVD_ENUMS)
            continue;
        enum model_usage u = usage_of(b, e);
        struct model_field_ext *x = model_field_ext_set(b->a, f);
        add_set(b, x, e, u, &set_cap);
        if (!x->enum_name)
            x->enum_name =
                e->text[SVD_T_ENUM_NAME] ? e->text[SVD_T_ENUM_NAME] : set_name(e);
        for (size_t k = 0; k < e->nkids; k++)
            if (e->kids[k]->kind == SVD_VALUE)
                add_value(b, f, e->kids[k], u, &cap);
    }
}

/* The field already kept that shares a bit with 'f', or NULL. */
static const struct model_field *overlapping(const struct model_reg *r, const struct model_field *f)
{
    for (size_t i = 0; i < r->nfields; i++) {
        const struct model_field *o = r->fields[i];
        if (o->lsb <= f->msb && f->lsb <= o->msb)
            return o;
    }
    return NULL;
}

/*
 * A field named like one of the register's mask macros (RO: PREFIX_P_R_RO_MASK is the
 * register's read-only mask) would define that name twice: it gets a '_' after its name.
 */
static const char *field_c_name(struct builder *b, const char *name, struct srcpos pos)
{
    /* with their lengths, compared first: a strcasecmp() for each mask and field was 1-1.5% of
       the whole run on files of many fields */
    static const struct {
        const char *name;
        size_t len;
    } masks[] = {{"MBZ", 3},  {"MB1", 3},      {"IGNORED", 7},  {"RO", 2},   {"WO", 2},
                 {"W1C", 3},  {"W1S", 3},      {"WRITABLE", 8}, {"KEEP", 4}, {"LEVELS", 6},
                 {"W0", 2},   {"PRESERVE", 8}, {"W1T", 3},      {"WANY", 4}, {"ONCE", 4}};
    const char *s = identifier(b, name, "field", pos);
    size_t len = strlen(s);
    for (size_t i = 0; i < ARRAY_SIZE(masks); i++) {
        if (len == masks[i].len && strcasecmp(s, masks[i].name) == 0) {
            const char *t = arena_printf(b->a, "%s_", s);
            diag_report(b->dg, DIAG_SVD_NAME, pos,
                        "field name '%s' would give the C name of the register's %s mask: "
                        "named '%s'",
                        s, masks[i].name, t);
            return t;
        }
    }
    return s;
}

static bool field_fits(struct builder *b, const struct model_reg *r, const struct model_field *f)
{
    if (f->msb >= r->width) {
        diag_report(b->dg, DIAG_SVD_FIELD_OUTSIDE, f->pos,
                    "field '%s' [%u:%u] lies beyond the %u bits of register '%s': dropped", f->name,
                    f->msb, f->lsb, r->width, r->name);
        return false;
    }
    const struct model_field *same = model_find_field(r, f->name);
    if (same) {
        diag_report(b->dg, DIAG_SVD_DUPLICATE, f->pos,
                    "register '%s' has two fields named '%s': the later one [%u:%u] is dropped",
                    r->name, f->name, f->msb, f->lsb);
        diag_note(b->dg, same->pos, "'%s' [%u:%u] first defined here", same->name, same->msb,
                  same->lsb);
        return false;
    }
    const struct model_field *o = overlapping(r, f);
    if (o) {
        diag_report(b->dg, DIAG_SVD_OVERLAP, f->pos,
                    "field '%s' [%u:%u] of register '%s' overlaps field '%s' [%u:%u]: dropped",
                    f->name, f->msb, f->lsb, r->name, o->name, o->msb, o->lsb);
        diag_note(b->dg, o->pos, "field '%s' defined here", o->name);
        return false;
    }
    return true;
}

static void add_field(struct builder *b, struct model_reg *r, const struct svd_node *n,
                      const char *name, unsigned msb, unsigned lsb, const struct props *p,
                      size_t *cap)
{
    struct model_field *f = arena_zalloc(b->a, sizeof(*f));
    f->name = field_c_name(b, name, n->pos);
    f->msb = msb;
    f->lsb = lsb;
    f->desc = n->text[SVD_T_DESC];
    f->reg = r;
    f->pos = n->pos;
    model_field_set_derived_from(b->a, f, n->derived_from, n->derived_pos);
    f->cite = model_cite_keep(b->a, &r->cite);
    if (!field_fits(b, r, f))
        return;
    field_effects(b, f, n, p);
    field_access(b, f, n->text[SVD_T_ACCESS] ? n->text[SVD_T_ACCESS] : p->access,
                 n->text[SVD_T_ACCESS] ? tpos(n, SVD_T_ACCESS) : p->access_pos);
    f->access_inherited = !n->text[SVD_T_ACCESS] && !(p->own & MODEL_PROP_ACCESS);
    f->reset = (r->reset >> lsb) & model_field_max(f);
    field_values(b, f, n);
    arena_push(b->a, (void ***)&r->fields, &r->nfields, cap, f);
}

/* A <field>, expanded when it has a dim list (a field array has no model form: one per index). */
static void read_field(struct builder *b, struct model_reg *r, const struct svd_node *n,
                       const struct props *p, size_t *cap)
{
    if (!n->text[SVD_T_NAME]) {
        diag_report(b->dg, DIAG_SVD_MISSING, n->pos, "a field of register '%s' has no <name>",
                    r->name);
        return;
    }
    unsigned msb, lsb;
    struct dim d;
    bool bad;
    bool dim = read_dim(b, n, &d, &bad);
    if (bad || !field_bits(b, n, &msb, &lsb))
        return;
    if (is_reserved_name(name_of(n)))
        return; /* its bits are filled as a gap */
    if (!dim) {
        add_field(b, r, n, name_of(n), msb, lsb, p, cap);
        return;
    }
    size_t before = r->nfields;
    for (unsigned i = 0; i < d.count && d.incr * i <= 1024; i++) {
        unsigned off = (unsigned)(d.incr * i);
        add_field(b, r, n, substitute(b->a, name_of(n), d.index[i]), msb + off, lsb + off, p, cap);
    }
    const char *pattern = check_list_identifier(b->a, name_of(n)); /* one for the list: compared by address */
    for (size_t k = before; k < r->nfields; k++)
        model_field_ext_set(b->a, r->fields[k])->dim_of = pattern;
}

static struct model_field *gap_field(struct builder *b, struct model_reg *r, unsigned msb,
                                     unsigned lsb)
{
    struct model_field *f = arena_zalloc(b->a, sizeof(*f));
    f->name = "gap";
    f->msb = msb;
    f->lsb = lsb;
    f->access_text = "gap";
    f->access = REGC_ACCESS_GAP;
    f->implicit = true;
    f->reg = r;
    f->pos = r->pos;
    f->reset = (r->reset >> lsb) & model_field_max(f);
    return f;
}

/*
 * Bits no field describes: gap fields (written back as read) keeping the register's reset there,
 * placed among the fields as their order puts them (model_place_gaps: low bits first unless the
 * fields are written high bits first).
 */
static void fill_gaps(struct builder *b, struct model_reg *r)
{
    /* fields written low bits first need no sorted copy: model_find_gaps() reads only their
       bits, so the order model_field_cmp_lsb() gives fields of the same lsb does not count */
    bool low_first = true;
    for (size_t i = 1; i < r->nfields && low_first; i++)
        low_first = r->fields[i - 1]->lsb <= r->fields[i]->lsb;
    const struct model_field **v = low_first ? (const struct model_field **)r->fields
                                             : model_fields_sorted(r, model_field_cmp_lsb);
    struct model_gap g[33];
    size_t n = model_find_gaps(v, r->nfields, r->width, g);
    if (!low_first)
        free(v);
    struct model_field *gaps[33];
    for (size_t i = 0; i < n; i++)
        gaps[i] = gap_field(b, r, g[i].msb, g[i].lsb);
    if (n)
        model_place_gaps(b->a, r, gaps, n, true);
}

/* ---------------------------------------------------------------- registers */

struct place {
    uint64_t offset;    /* of the enclosing cluster (element 0) */
    const char *prefix; /* "CLUSTER_" or "" */
    struct model_cluster *cluster;
    unsigned count; /* an enclosing cluster array kept as register arrays: its dim */
    uint64_t stride;
    const char **index; /* its index names, NULL when numbers from 'first' */
    unsigned first;
    bool copy; /* inside a copy: a cluster a derived peripheral or cluster took from its base */
    bool taken; /* the register or cluster itself taken by its derived cluster, or peripheral
                   that writes registers, from the base */
};

static bool size_ok(unsigned size)
{
    return size == 8 || size == 16 || size == 32 || size == 64;
}

static void reg_reset(struct builder *b, struct model_reg *r, const struct svd_node *n,
                      const struct props *p)
{
    uint64_t width_bits = regc_num_max_bits(r->width);
    r->has_reset = true;
    r->reset = p->reset;
    if (r->reset & ~width_bits) {
        diag_report(b->dg, DIAG_SVD_RESET_TOO_WIDE, tpos(n, SVD_T_RESET),
                    "resetValue 0x%" PRIX64 " of register '%s' does not fit its %u bits: the "
                    "bits above are dropped",
                    r->reset, r->name, r->width);
        r->reset &= width_bits;
        /* written on the register: its peripheral's would be cut again, with the warning */
        model_reg_ext_set(b->a, r)->inherited &= (unsigned char)~MODEL_PROP_RESET;
    }
    struct model_reg_ext *x = model_reg_ext_set(b->a, r);
    x->has_reset_mask = p->has_reset_mask;
    x->reset_mask = p->has_reset_mask ? p->reset_mask & width_bits : width_bits;
}

/* The alternate a register declares, or one of its clusters (alternateCluster) does. */
static const char *alternate_of(const struct svd_node *n, const struct model_cluster *c)
{
    if (n->text[SVD_T_ALT_REG])
        return n->text[SVD_T_ALT_REG];
    if (n->text[SVD_T_ALT_GROUP])
        return n->text[SVD_T_ALT_GROUP];
    return model_cluster_alternate(c);
}

/*
 * The <dimArrayIndex> of register, cluster or peripheral node n (an enumeration naming the
 * indices of its array, CMSIS-SVD.xsd dimArrayIndexType: headerEnumName, enumeratedValue
 * name/value/description), or NULL; its own only (svd_derive.c's take_kids takes no base's).
 * A value without a name or a number is reported and dropped, as are those svdconv drops
 * (svd_array_index.h) against n's dim list 'd' as read_dim read it (NULL: n has no dim, and
 * svdconv checks no value, M229).
 */
static const struct model_array_index *array_index(struct builder *b, const struct svd_node *n,
                                                   const struct dim *d)
{
    struct svd_node *const *key = NULL; /* borrowed by the map: the kids array, not a local */
    for (size_t i = 0; i < n->nkids && !key; i++)
        if (n->kids[i]->kind == SVD_DIM_ENUM)
            key = &n->kids[i];
    if (!key)
        return NULL;
    const struct svd_node *e = *key;
    bool found;
    struct regc_map_entry *made = xmap_put(&b->array_index, key, sizeof(*key), &found);
    if (found)
        return made->val;
    struct model_array_index *x = arena_zalloc(b->a, sizeof(*x));
    made->val = x;
    x->enum_name = e->text[SVD_T_ENUM_NAME];
    x->pos = e->pos; /* where -t svd says it leaves one out (svd-out-dropped) */
    size_t cap = 0;
    for (size_t k = 0; k < e->nkids; k++) {
        const struct svd_node *v = e->kids[k];
        const char *s = v->text[SVD_T_VALUE];
        struct model_value *m = arena_zalloc(b->a, sizeof(*m));
        if (!v->text[SVD_T_NAME] || !s) {
            diag_report(b->dg, DIAG_SVD_MISSING, v->pos,
                        "an enumeratedValue of the dimArrayIndex of %s '%s' has no <%s>",
                        svd_kind_name(n->kind), name_of(n), v->text[SVD_T_NAME] ? "value" : "name");
            continue;
        }
        uint64_t dont_care = 0;
        if (!parse_number(s, &m->value, &dont_care) || dont_care) {
            diag_report(b->dg, DIAG_BAD_NUMBER, tpos(v, SVD_T_VALUE),
                        "value '%s' of index name '%s' of %s '%s' is not a number", s,
                        v->text[SVD_T_NAME], svd_kind_name(n->kind), name_of(n));
            continue;
        }
        m->name = identifier(b, v->text[SVD_T_NAME], "enumeratedValue", v->pos);
        m->desc = v->text[SVD_T_DESC];
        m->pos = v->pos;
        arena_push(b->a, (void ***)&x->values, &x->nvalues, &cap, m);
    }
    if (!d)
        return x;
    struct model_array_index *kept = svd_array_index_check(
        b->a, b->dg, x, d->count,
        arena_printf(b->a, "the dimArrayIndex of %s '%s'", svd_kind_name(n->kind), name_of(n)));
    if (kept)
        made->val = kept;
    return made->val;
}

/* Register 'name' of node 'n' (of dim list 'd', or NULL) at 'offset'. */
static struct model_reg *new_reg(struct builder *b, const struct svd_node *n, const char *name,
                                 uint64_t offset, const struct props *p, const struct place *at,
                                 const struct dim *d)
{
    struct model_reg *r = arena_zalloc(b->a, sizeof(*r));
    r->name = identifier(b, at->prefix[0] ? ARENA_CAT(b->a, at->prefix, name) : name, "register",
                         n->pos);
    r->written_name = name_of(n);
    r->space = SPACE_MMIO;
    r->address = offset;
    r->width = r->size = p->size;
    r->count = 1;
    r->desc = n->text[SVD_T_DESC];
    struct model_reg_ext *x = model_reg_ext_set(b->a, r);
    x->display_name = n->text[SVD_T_DISPLAY];
    x->protection = p->protection;
    x->derived_from = n->derived_from;
    x->derived_pos = n->derived_pos;
    x->cluster = at->cluster;
    x->taken = at->taken;
    r->block = b->blk;
    r->pos = n->pos;
    r->cite.src = "svd";
    r->cite.cite = ARENA_CAT(b->a, b->blk->name, ".", r->name);
    r->cite.pos = n->pos;
    x->alternate = alternate_of(n, at->cluster);
    if (n->text[SVD_T_ALT_GROUP]) /* svdconv's CMSIS names carry it (context_cmsis.c) */
        model_block_add_alt_group(b->a, b->blk, r, n->text[SVD_T_ALT_GROUP]);
    x->array_index = array_index(b, n, d);
    x->inherited = (unsigned char)(MODEL_PROPS_ALL & ~p->own);
    reg_reset(b, r, n, p);
    return r;
}

static bool has_field_nodes(const struct svd_node *n)
{
    for (size_t i = 0; i < n->nkids; i++)
        if (n->kids[i]->kind == SVD_FIELD)
            return true;
    return false;
}

/* A register without fields: one field of its own name over all its bits. */
static void whole_field(struct builder *b, struct model_reg *r, const struct svd_node *n,
                        const struct props *p, size_t *cap)
{
    struct model_field *f = arena_zalloc(b->a, sizeof(*f));
    f->name = check_c_identifier(b->a, substitute(b->a, name_of(n), ""), false);
    f->msb = r->width - 1;
    f->reg = r;
    f->pos = r->pos;
    model_field_ext_set(b->a, f)->whole = true;
    f->reset = r->reset;
    field_effects(b, f, n, p);
    field_access(b, f, p->access, p->access_pos);
    f->access_inherited = !(p->own & MODEL_PROP_ACCESS);
    arena_push(b->a, (void ***)&r->fields, &r->nfields, cap, f);
}

static void reg_fields(struct builder *b, struct model_reg *r, const struct svd_node *n,
                       const struct props *p)
{
    size_t cap = 0;
    for (size_t i = 0; i < n->nkids; i++)
        if (n->kids[i]->kind == SVD_FIELD)
            read_field(b, r, n->kids[i], p, &cap);
    if (r->nfields == 0 && !has_field_nodes(n))
        whole_field(b, r, n, p, &cap);
    fill_gaps(b, r);
    svd_write_rules(b->a, b->dg, r);
}

/*
 * Counts one more register or cluster made; false (reported once) past SVD_MAX_REGS: dim
 * lists nested in dim lists could otherwise ask for billions.
 */
static bool may_make(struct builder *b, struct srcpos pos)
{
    if (b->rd->nregs >= SVD_MAX_REGS)
        return false;
    if (++b->rd->nregs < SVD_MAX_REGS)
        return true;
    diag_report(b->dg, DIAG_SVD_DIM, pos,
                "the dim lists make more than %zu registers and clusters: the rest are dropped",
                SVD_MAX_REGS - 1);
    return false;
}

/* Renames r to NAME_G (its alternateGroup G) when that name is free; false when taken. */
static bool take_group_name(struct builder *b, struct model_reg *r, const char *g)
{
    bool found;
    const char *name = ARENA_CAT(b->a, r->name, "_", g);
    struct regc_map_entry *e = xmap_put_str(&b->reg_names, name, &found);
    if (found)
        return false;
    e->val = r;
    r->name = name;
    r->cite.cite = ARENA_CAT(b->a, b->blk->name, ".", r->name);
    return true;
}

/*
 * A register named as an earlier one, one of the two in an alternateGroup the other is not in:
 * svdconv keeps both, each named NAME_G in its header when in a group G
 * (SvdRegister::GetNameCalculated; SvdPeripheral::AddToMap finds no clash), so the model
 * names the one in a group so too when that name is free (model_reg_group_in_name): the later
 * one, else (the later in none) the earlier one, and the later takes NAME over. Returns the
 * earlier register when the two cannot both be kept, else NULL.
 */
static const struct model_reg *rename_by_group(struct builder *b, struct model_reg *r,
                                               struct model_reg *old)
{
    const char *g = model_block_alt_group(b->blk, r), *og = model_block_alt_group(b->blk, old);
    if (g && (!og || strcmp(g, og) != 0))
        return take_group_name(b, r, g) ? NULL : old;
    if (g || !og || model_reg_group_in_name(old) || !take_group_name(b, old, og))
        return old;
    bool found; /* looked up again: adding NAME_G may have moved the entries */
    xmap_put_str(&b->reg_names, r->name, &found)->val = r;
    return NULL;
}

static void add_reg(struct builder *b, struct model_reg *r, size_t *cap)
{
    bool found;
    struct regc_map_entry *e = xmap_put_str(&b->reg_names, r->name, &found);
    const struct model_reg *old = found ? rename_by_group(b, r, e->val) : NULL;
    if (!found)
        e->val = r;
    if (old) {
        diag_report(b->dg, DIAG_SVD_DUPLICATE, r->pos,
                    "peripheral '%s' has two registers named '%s': the later one is dropped",
                    b->blk->name, r->name);
        diag_note(b->dg, old->pos, "'%s' first defined here", old->name);
        return;
    }
    arena_push(b->a, (void ***)&b->blk->regs, &b->blk->nregs, cap, r);
}

static void read_kids(struct builder *b, const struct svd_node *n, const struct props *p,
                      const struct place *at, size_t *cap);

/* The register properties of register 'n' on top of 'up'; false when its size is not SVD's. */
static bool reg_props(struct builder *b, const struct svd_node *n, const struct props *up,
                      struct props *p)
{
    *p = *up;
    take_props(b, n, p);
    if (n->text[SVD_T_MWV]) {
        p->mwv = n->text[SVD_T_MWV];
        p->mwv_pos = tpos(n, SVD_T_MWV);
    }
    if (n->text[SVD_T_READ_ACTION]) {
        p->read_action = n->text[SVD_T_READ_ACTION];
        p->ra_pos = tpos(n, SVD_T_READ_ACTION);
    }
    if (n->wc.kind != WC_NONE)
        p->wc = n->wc;
    if (size_ok(p->size))
        return true;
    diag_report(b->dg, DIAG_BAD_WIDTH, p->size_pos.line ? p->size_pos : n->pos,
                "register '%s' has size %u; SVD registers are 8, 16, 32 or 64 bits", name_of(n),
                p->size);
    return false;
}

/* A register array "NAME[%s]", or a register in a cluster array kept as register arrays. */
static void array_reg(struct builder *b, const struct svd_node *n, uint64_t offset,
                      const struct props *p, const struct place *at, const struct dim *d,
                      size_t *cap)
{
    struct model_reg *r = new_reg(b, n, d ? substitute(b->a, name_of(n), "") : name_of(n),
                                  at->offset + offset, p, at, d);
    if (d || at->count > 1) {
        r->is_array = true;
        r->count = d ? d->count : at->count;
        r->stride = d ? d->incr : at->stride;
        bool numeric = d ? d->numeric : at->index == NULL;
        r->first = !numeric ? 0 : d ? d->first : at->first;
        model_reg_ext_set(b->a, r)->index_names = numeric ? NULL : d ? d->index : at->index;
    }
    reg_fields(b, r, n, p);
    add_reg(b, r, cap);
}

static void read_reg(struct builder *b, const struct svd_node *n, const struct props *up,
                     const struct place *at, size_t *cap)
{
    uint64_t offset;
    if (!n->text[SVD_T_NAME] || !n->text[SVD_T_OFFSET_ADDR]) {
        diag_report(b->dg, DIAG_SVD_MISSING, n->pos, "register '%s' of peripheral '%s' has no <%s>",
                    name_of(n), b->blk->name, n->text[SVD_T_NAME] ? "addressOffset" : "name");
        return;
    }
    struct props p;
    struct dim d;
    bool bad;
    if (!number(b, n, SVD_T_OFFSET_ADDR, &offset) || !reg_props(b, n, up, &p))
        return;
    bool dim = read_dim(b, n, &d, &bad);
    if (bad)
        return;
    if (!dim || d.bracket) {
        if (may_make(b, n->pos))
            array_reg(b, n, offset, &p, at, dim ? &d : NULL, cap);
        return;
    }
    const char *pattern = check_list_identifier(b->a, name_of(n));
    for (unsigned i = 0; i < d.count && may_make(b, n->pos); i++) {
        struct model_reg *r = new_reg(b, n, substitute(b->a, name_of(n), d.index[i]),
                                      at->offset + offset + d.incr * i, &p, at, &d);
        model_reg_ext_set(b->a, r)->dim_of = pattern;
        reg_fields(b, r, n, &p);
        add_reg(b, r, cap);
    }
}

/* True when 'n' holds only registers without dim lists (a cluster array can be register arrays). */
static bool flat_cluster(const struct svd_node *n)
{
    for (size_t i = 0; i < n->nkids; i++)
        if (n->kids[i]->kind == SVD_CLUSTER ||
            (n->kids[i]->kind == SVD_REG && n->kids[i]->text[SVD_T_DIM]))
            return false;
    return true;
}

static struct model_cluster *new_cluster(struct builder *b, const struct svd_node *n,
                                         const char *name, uint64_t address, const struct place *at,
                                         const struct dim *d)
{
    struct model_cluster *c = arena_zalloc(b->a, sizeof(*c));
    c->name = identifier(b, name, "cluster", n->pos);
    c->written_name = name_of(n);
    c->desc = n->text[SVD_T_DESC];
    c->header_struct = n->text[SVD_T_STRUCT];
    c->alternate = n->text[SVD_T_ALT_CLUSTER];
    c->derived_from = n->derived_from;
    c->derived_pos = n->derived_pos;
    c->address = address;
    c->count = 1;
    c->parent = at->cluster;
    c->pos = n->pos;
    c->taken = at->taken;
    /* a copy of the cluster (its base's, in a derived peripheral or cluster) has none: svdconv's
       SvdCluster::CopyItem does not copy m_enumContainer */
    c->array_index = at->copy ? NULL : array_index(b, n, d);
    size_t cap = arena_push_cap(b->blk->nclusters);
    arena_push(b->a, (void ***)&b->blk->clusters, &b->blk->nclusters, &cap, c);
    return c;
}

/* The byte after the last element of 'r', relative to the block. */
static uint64_t reg_end(const struct model_reg *r)
{
    return r->address + (uint64_t)(r->count - 1) * r->stride + r->size / 8;
}

/*
 * The bytes past 'from' that registers [first, nregs) of the block reach: every element of an
 * array, or only element 0 when 'flat' (the arrays are the cluster array itself).
 */
static uint64_t regs_extent(const struct model_block *blk, size_t first, uint64_t from, bool flat)
{
    uint64_t end = from;
    for (size_t i = first; i < blk->nregs; i++) {
        const struct model_reg *r = blk->regs[i];
        uint64_t hi = flat ? r->address + r->size / 8 : reg_end(r);
        end = hi > end ? hi : end;
    }
    return end - from;
}

/* svdconv's check: an element of a cluster array reaching past dimIncrement overlaps the next. */
static void check_cluster_stride(struct builder *b, const struct svd_node *n, const struct dim *d,
                                 size_t first, uint64_t addr, bool flat)
{
    uint64_t extent = regs_extent(b->blk, first, addr, flat);
    if (d->count < 2 || extent <= d->incr)
        return;
    diag_report(b->dg, DIAG_SVD_CLUSTER_STRIDE, n->pos,
                "cluster array '%s' of peripheral '%s': its registers span 0x%" PRIX64
                " bytes, more than its dimIncrement 0x%" PRIX64 ", so its elements overlap: kept",
                name_of(n), b->blk->name, extent, d->incr);
}

/* Did derived cluster 'n' write what makes it "modified" for svdconv (SvdCluster::ProcessXmlElement
 * calls SetModified for register, cluster, headerStructName and size; SvdCluster::CheckItem for
 * a cluster named "%s")? A derived one that did not has its base's type in the CMSIS header. */
static bool cluster_modified(const struct svd_node *n)
{
    return n->own_regs || n->text[SVD_T_STRUCT] ||
           (n->text[SVD_T_SIZE] && n->text[SVD_T_SIZE] != n->base->text[SVD_T_SIZE]) ||
           strcmp(name_of(n), "%s") == 0;
}

/*
 * c->type_of for cluster 'c' read from node 'n' (without dim, as one array, or an element of an
 * array the reader expands; for the element, the base's first element): the model
 * cluster first read from the node it is an unmodified copy of (svdconv's
 * SvdCluster::GetHeaderTypeNameHierarchical takes the type of what an unmodified cluster was
 * copied from): 'n' itself for a copy (SvdItem::CopyChilds), its base for a derived cluster that
 * changes nothing (SvdDerivedFrom::DeriveItem; its dim, taken or its own, does not count), when
 * that base was read before, else once the block is read (type_later_bases). context_cmsis.c
 * lays it out so when the elements fit the type.
 */
static void cluster_type_of(struct builder *b, const struct svd_node *n, struct model_cluster *c,
                            bool copy)
{
    const struct svd_node *from = copy ? n
                                  : n->base && n->base->kind == SVD_CLUSTER && !cluster_modified(n)
                                      ? n->base
                                      : NULL;
    const struct regc_map_entry *e = from ? regc_map_find(&b->cl_nodes, &from, sizeof(from)) : NULL;
    if (e) {
        const struct model_cluster *t = e->val;
        c->type_of = t->type_of ? t->type_of : t;
    } else if (from) { /* derivedFrom in any order: a base written later in the block */
        if (b->nlater == b->later_cap)
            b->later = xgrow(b->later, &b->later_cap, b->nlater + 1, sizeof(*b->later));
        b->later[b->nlater++] = (struct later_base){c, from};
    }
    if (copy)
        return;
    const struct svd_node **key = arena_zalloc(b->a, sizeof(*key)); /* borrowed by the map */
    *key = n;
    bool found;
    struct regc_map_entry *put = xmap_put(&b->cl_nodes, key, sizeof(*key), &found);
    if (!found)
        put->val = c;
}

/* The copies whose base was not read when they were (b->later) given the types of the bases
 * read since, as svdconv types an unmodified copy as its base wherever that is; those whose base
 * is still not read (in a later block) are kept for the blocks to come. */
static void type_bases_read(struct builder *b)
{
    size_t kept = 0;
    for (size_t i = 0; i < b->nlater; i++) {
        const struct regc_map_entry *e =
            regc_map_find(&b->cl_nodes, &b->later[i].from, sizeof(b->later[i].from));
        if (e)
            b->later[i].c->type_of = e->val;
        else
            b->later[kept++] = b->later[i];
    }
    b->nlater = kept;
}

/* Block blk's copies of copies typed as the cluster at the end of the chain. */
static void type_chains(struct model_block *blk)
{
    for (size_t i = 0; i < blk->nclusters; i++) { /* a chain is no longer than the clusters */
        struct model_cluster *c = blk->clusters[i];
        for (size_t k = 0; k < blk->nclusters && c->type_of && c->type_of->type_of; k++)
            c->type_of = c->type_of->type_of;
    }
}

/*
 * Once the block is read: the copies of clusters written before their base, in this block or an
 * earlier one, get their bases' types, as svdconv's do (it derives before it reads a cluster's
 * children, SvdItem::Construct, wherever the base is), and a copy of such a copy the type at the
 * end of the chain. A copy of a later block's cluster is as unmodified as the rest (svdconv calls
 * a cluster modified for what it writes, not for where its base is): no _Pos/_Msk macros of its
 * own; -t cmsis, which cannot use a type declared after the copy's, gives it a type of its own
 * (context_cmsis.c's layout_base), as it does a regspec's own-type="false" copy of such a cluster.
 */
static void type_later_bases(struct builder *b)
{
    type_bases_read(b);
    type_chains(b->blk);
}

/* Once every block is read: chains of copies through a later block's cluster, whose ends were
 * typed after the earlier blocks' chains were followed, followed again. */
static void type_later_blocks(struct builder *b)
{
    for (size_t i = 0; i < b->spec->nblocks; i++)
        type_chains(b->spec->blocks[i]);
}

static void read_cluster(struct builder *b, const struct svd_node *n, const struct props *up,
                         const struct place *at, size_t *cap)
{
    uint64_t offset;
    if (!n->text[SVD_T_NAME] || !n->text[SVD_T_OFFSET_ADDR]) {
        diag_report(b->dg, DIAG_SVD_MISSING, n->pos, "cluster '%s' has no <%s>", name_of(n),
                    n->text[SVD_T_NAME] ? "addressOffset" : "name");
        return;
    }
    struct props p = *up;
    struct dim d;
    bool bad;
    if (!number(b, n, SVD_T_OFFSET_ADDR, &offset))
        return;
    take_props(b, n, &p);
    bool dim = read_dim(b, n, &d, &bad);
    if (bad)
        return;
    if (dim && d.bracket && flat_cluster(n)) {
        const char *name = substitute(b->a, name_of(n), "");
        struct model_cluster *c = new_cluster(b, n, name, at->offset + offset, at, &d);
        c->count = d.count;
        c->stride = d.incr;
        if (!at->copy) /* a derived array may take its base's type; copies are left as they were */
            cluster_type_of(b, n, c, false);
        struct place in = {at->offset + offset,
                           ARENA_CAT(b->a, at->prefix, c->name, "_"),
                           c,
                           d.count,
                           d.incr,
                           d.numeric ? NULL : d.index,
                           d.first,
                           at->copy,
                           false};
        size_t first = b->blk->nregs;
        read_kids(b, n, &p, &in, cap);
        check_cluster_stride(b, n, &d, first, at->offset + offset, true);
        return;
    }
    for (unsigned i = 0; i < d.count && may_make(b, n->pos); i++) {
        size_t first = b->blk->nregs;
        const char *name = dim ? substitute(b->a, name_of(n), d.index[i]) : name_of(n);
        uint64_t addr = at->offset + offset + d.incr * i;
        struct model_cluster *c = new_cluster(b, n, name, addr, at, dim ? &d : NULL);
        if (!dim || !at->copy) /* an element of a derived array may take its base's type */
            cluster_type_of(b, n, c, at->copy);
        struct place in = *at;
        in.offset = addr;
        in.prefix = ARENA_CAT(b->a, at->prefix, c->name, "_");
        in.cluster = c;
        read_kids(b, n, &p, &in, cap);
        if (dim && i == 0)
            check_cluster_stride(b, n, &d, first, addr, false);
    }
}

static void read_kids(struct builder *b, const struct svd_node *n, const struct props *p,
                      const struct place *at, size_t *cap)
{
    for (size_t i = 0; i < n->nkids && b->rd->nregs < SVD_MAX_REGS; i++) {
        const struct svd_node *k = n->kids[i];
        struct place kat = *at;
        kat.copy = at->copy || k->parent != n; /* taken from n's base (svd_derive.c) */
        kat.taken = k->parent != n && (n->kind == SVD_CLUSTER || n->own_regs);
        if (k->kind == SVD_REG)
            read_reg(b, k, p, &kat, cap);
        else if (k->kind == SVD_CLUSTER)
            read_cluster(b, k, p, &kat, cap);
    }
}

/* ---------------------------------------------------------------- peripherals */

static void read_addr_blocks(struct builder *b, struct model_block *blk, const struct svd_node *n)
{
    size_t cap = 0;
    for (size_t i = 0; i < n->nkids; i++) {
        const struct svd_node *k = n->kids[i];
        if (k->kind != SVD_ADDR_BLOCK)
            continue;
        struct model_addr_block *ab = arena_zalloc(b->a, sizeof(*ab));
        if (!k->text[SVD_T_OFFSET] || !k->text[SVD_T_SIZE]) {
            diag_report(b->dg, DIAG_SVD_MISSING, k->pos,
                        "an addressBlock of peripheral '%s' has no <%s>", blk->name,
                        k->text[SVD_T_OFFSET] ? "size" : "offset");
            continue;
        }
        if (!number(b, k, SVD_T_OFFSET, &ab->offset) || !number(b, k, SVD_T_SIZE, &ab->size))
            continue;
        ab->usage = k->text[SVD_T_USAGE];
        ab->protection = k->text[SVD_T_PROTECTION];
        ab->pos = k->pos;
        arena_push(b->a, (void ***)&blk->addr_blocks, &blk->naddr_blocks, &cap, ab);
    }
}

/* Interrupt numbers seen so far, for duplicates. */
struct irqs {
    struct model_interrupt **v;
    size_t n, cap;
};

static void check_irq(struct builder *b, const struct model_interrupt *irq, const struct irqs *seen)
{
    for (size_t j = 0; j < seen->n; j++) {
        const struct model_interrupt *o = seen->v[j];
        if (o->value != irq->value || strcmp(o->name, irq->name) == 0)
            continue;
        diag_report(b->dg, DIAG_SVD_INTERRUPT, irq->pos,
                    "interrupt '%s' has the number %" PRIu64 " of interrupt '%s'", irq->name,
                    irq->value, o->name);
        diag_note(b->dg, o->pos, "interrupt '%s' defined here", o->name);
        return; /* one report per interrupt */
    }
}

static void read_interrupts(struct builder *b, struct model_instance *inst,
                            const struct svd_node *n, struct irqs *seen)
{
    size_t cap = 0;
    for (size_t i = 0; i < n->nkids; i++) {
        const struct svd_node *k = n->kids[i];
        if (k->kind != SVD_INTERRUPT)
            continue;
        if (!k->text[SVD_T_NAME] || !k->text[SVD_T_VALUE]) {
            diag_report(b->dg, DIAG_SVD_MISSING, k->pos,
                        "an interrupt of peripheral '%s' has no <%s>", inst->name,
                        k->text[SVD_T_NAME] ? "value" : "name");
            continue;
        }
        struct model_interrupt *irq = arena_zalloc(b->a, sizeof(*irq));
        irq->name = identifier(b, name_of(k), "interrupt", k->pos);
        irq->desc = k->text[SVD_T_DESC];
        irq->pos = k->pos;
        if (!number(b, k, SVD_T_VALUE, &irq->value))
            continue;
        if (irq->value > MODEL_IRQ_MAX) {
            diag_report(b->dg, DIAG_BAD_NUMBER, tpos(k, SVD_T_VALUE),
                        "<value> %" PRIu64 " of interrupt '%s' is out of range (at most %d)",
                        irq->value, irq->name, MODEL_IRQ_MAX);
            continue;
        }
        check_irq(b, irq, seen);
        arena_push(b->a, (void ***)&inst->interrupts, &inst->ninterrupts, &cap, irq);
        arena_push(b->a, (void ***)&seen->v, &seen->n, &seen->cap, irq);
    }
}

static struct made *made_of(const struct builder *b, const struct svd_node *n)
{
    for (size_t i = 0; i < b->nmade; i++)
        if (b->made[i].node == n)
            return &b->made[i];
    return NULL;
}

/* Do 'p' and 'q' give registers the same size, access, protection, reset value and mask? */
static bool same_props(const struct props *p, const struct props *q)
{
    return p->size == q->size &&
           util_same_text(access_spelled(p->access), access_spelled(q->access)) &&
           util_same_text(p->protection, q->protection) && p->reset == q->reset &&
           p->has_reset_mask == q->has_reset_mask && p->reset_mask == q->reset_mask;
}

/*
 * A derived peripheral whose registers are its base's: it writes no registers, and the register
 * properties it writes (size, access, protection, resetValue, resetMask) have the values it
 * would take from its base (nRF51's SPI1 writes SPI0's access again): an instance of its block.
 */
static struct made *shared_block(const struct builder *b, const struct svd_node *n,
                                 const struct props *p)
{
    if (!n->base || n->own_regs)
        return NULL;
    struct made *m = made_of(b, n->base);
    return m && same_props(p, &m->props) ? m : NULL;
}

static bool in_addr_block(const struct model_block *blk, uint64_t lo, uint64_t hi)
{
    for (size_t i = 0; i < blk->naddr_blocks; i++) {
        const struct model_addr_block *ab = blk->addr_blocks[i];
        if (lo >= ab->offset && hi - ab->offset <= ab->size)
            return true;
    }
    return false;
}

/*
 * svdconv's check: every register (each array element) lies inside one of the addressBlocks.
 * Reported once per peripheral, at the first such register, with their count (a cluster array
 * past its block would otherwise give one warning per element).
 */
static void check_outside_blocks(struct builder *b, const struct model_block *blk)
{
    const struct model_reg *first = NULL;
    size_t n = 0;
    for (size_t i = 0; i < blk->nregs && blk->naddr_blocks; i++) {
        const struct model_reg *r = blk->regs[i];
        if (in_addr_block(blk, r->address, reg_end(r)))
            continue;
        first = first ? first : r;
        n++;
    }
    if (!first)
        return;
    diag_report(b->dg, DIAG_SVD_OUTSIDE_BLOCK, first->pos,
                "register '%s' of peripheral '%s' (bytes 0x%" PRIX64 " to 0x%" PRIX64
                ") is not inside any addressBlock of the peripheral (%zu register%s in all): kept",
                first->name, blk->name, first->address, reg_end(first) - 1, n, n == 1 ? "" : "s");
    diag_note(b->dg, blk->addr_blocks[0]->pos, "the peripheral's first addressBlock");
}

/* The properties of 'p' that are not those of base 'q' (as the peripheral wrote them). */
static struct model_periph_props props_not_base(const struct props *p, const struct props *q)
{
    struct model_periph_props o = {0};
    if (!util_same_text(access_spelled(p->access), access_spelled(q->access)))
        o.access = access_spelled(p->access);
    if (!util_same_text(p->protection, q->protection))
        o.protection = p->protection;
    o.has_reset = p->reset != q->reset;
    o.reset = p->reset;
    o.has_reset_mask = p->has_reset_mask != q->has_reset_mask || p->reset_mask != q->reset_mask;
    o.reset_mask = p->reset_mask;
    return o;
}

/* The properties 'p' gives the registers that write none (model_block's reg_props). */
static struct model_periph_props props_given(const struct props *p)
{
    return (struct model_periph_props){.size = p->size,
                                       .access = access_spelled(p->access),
                                       .protection = p->protection,
                                       .has_reset = true,
                                       .reset = p->reset,
                                       .has_reset_mask = p->has_reset_mask,
                                       .reset_mask = p->reset_mask};
}

static void made_as(struct builder *b, const struct svd_node *n, struct model_block *blk,
                    const struct props *p)
{
    b->made = xgrow(b->made, &b->made_cap, b->nmade + 1, sizeof(*b->made));
    b->made[b->nmade++] = (struct made){n, blk, *p, NULL};
}

static struct model_block *new_block(struct builder *b, const struct svd_node *n, const char *name,
                                     const struct props *p)
{
    struct model_block *blk = arena_zalloc(b->a, sizeof(*blk));
    blk->name = identifier(b, name, "peripheral", n->pos);
    blk->desc = n->text[SVD_T_DESC];
    blk->group = n->text[SVD_T_GROUP];
    blk->header_struct = n->text[SVD_T_STRUCT];
    blk->prepend = n->text[SVD_T_PREPEND];
    blk->append = n->text[SVD_T_APPEND];
    blk->pos = n->pos;
    blk->reg_props = props_given(p);
    blk->names_qualified = true;
    size_t cap = arena_push_cap(b->spec->nblocks);
    arena_push(b->a, (void ***)&b->spec->blocks, &b->spec->nblocks, &cap, blk);
    b->blk = blk;
    regc_map_clear(&b->reg_names);
    read_addr_blocks(b, blk, n);
    size_t rcap = 0;
    struct place at = {0, "", NULL, 1, 0, NULL, 0, false, false};
    read_kids(b, n, p, &at, &rcap);
    type_later_bases(b);
    check_outside_blocks(b, blk);
    made_as(b, n, blk, p);
    return blk;
}

/* Did derived peripheral 'n' write element 't' itself (not take it from its base)? */
static bool own_text(const struct svd_node *n, enum svd_text t)
{
    return n->text[t] && n->text[t] != n->base->text[t];
}

/*
 * svdconv's "modified" peripheral (SvdPeripheral::ProcessXmlElement calls SetModified for
 * headerStructName, prependToName, appendToName, size, addressBlock and registers): a derived
 * one gets a type and _Pos/_Msk macros of its own (SvdDevice::CreatePeripheralTypes).
 */
static bool own_type(const struct svd_node *n)
{
    if (!n->base)
        return false;
    for (size_t i = 0; i < n->nkids; i++)
        if (n->kids[i]->kind == SVD_ADDR_BLOCK && n->kids[i]->parent == n)
            return true;
    return own_text(n, SVD_T_STRUCT) || own_text(n, SVD_T_PREPEND) ||
           own_text(n, SVD_T_APPEND) || own_text(n, SVD_T_SIZE);
}

static void add_instance(struct builder *b, struct model_block *blk, const struct svd_node *n,
                         const struct dim *d, const char *name, uint64_t base, struct irqs *irqs)
{
    struct model_instance *inst = arena_zalloc(b->a, sizeof(*inst));
    inst->name = identifier(b, name, "peripheral", n->pos);
    inst->has_base = true;
    inst->base = base;
    inst->desc = n->text[SVD_T_DESC];
    inst->block = blk;
    inst->index = (unsigned)blk->ninstances;
    inst->derived_from = n->derived_from;
    inst->derived_pos = n->derived_pos;
    inst->alternate = n->text[SVD_T_ALT_PERIPH];
    inst->group = n->text[SVD_T_GROUP];
    inst->version = n->text[SVD_T_VERSION];
    inst->header_struct = n->text[SVD_T_STRUCT];
    inst->prepend = n->text[SVD_T_PREPEND];
    inst->append = n->text[SVD_T_APPEND];
    inst->own_type = blk->ninstances > 0 && own_type(n);
    inst->array_index = array_index(b, n, d);
    inst->pos = n->pos;
    size_t cap = arena_push_cap(blk->ninstances);
    arena_push(b->a, (void ***)&blk->instances, &blk->ninstances, &cap, inst);
    read_interrupts(b, inst, n, irqs);
}

static void read_periph(struct builder *b, struct svd_node *n, const struct props *dev,
                        struct irqs *irqs)
{
    if (n->built)
        return; /* read already: the base of a peripheral written before it */
    n->built = true;
    if (n->base && !n->own_regs)
        read_periph(b, n->base, dev, irqs); /* its block first, wherever it is written */
    uint64_t base;
    if (!n->text[SVD_T_NAME] || !n->text[SVD_T_BASE]) {
        diag_report(b->dg, DIAG_SVD_MISSING, n->pos, "peripheral '%s' has no <%s>", name_of(n),
                    n->text[SVD_T_NAME] ? "baseAddress" : "name");
        return;
    }
    if (!number(b, n, SVD_T_BASE, &base))
        return;
    struct props p = *dev;
    take_props(b, n, &p);
    p.own = 0; /* the peripheral's and the device's: its registers take them from it */
    struct dim d;
    bool bad;
    bool dim = read_dim(b, n, &d, &bad);
    if (bad)
        return;
    struct made *from = shared_block(b, n, &p);
    struct model_block *blk = from ? from->block : NULL;
    if (!blk) {
        blk = new_block(b, n, dim ? substitute(b->a, name_of(n), "") : name_of(n), &p);
        /* registers of its own only by their properties: svdconv's type is still its base's
         * (looked up after new_block(), which may move b->made) */
        from = n->base && !n->own_regs ? made_of(b, n->base) : NULL;
        if (from && from->first && !own_type(n)) {
            blk->type_of = model_instance_typed_as(from->first);
            blk->type_of_props = props_not_base(&p, &from->props);
        }
    } else {
        /* its own <access> is read by no register of its: its misspelling reported here */
        if (p.access && n->text[SVD_T_ACCESS] != n->base->text[SVD_T_ACCESS])
            access_word(b, p.access, p.access_pos);
        made_as(b, n, blk, &p); /* a peripheral derived from this one shares the block too */
    }
    size_t first = blk->ninstances;
    const char *pattern = dim ? check_list_identifier(b->a, name_of(n)) : NULL;
    for (unsigned i = 0; i < d.count; i++) {
        add_instance(b, blk, n, dim ? &d : NULL,
                     dim ? substitute(b->a, name_of(n), d.index[i]) : name_of(n), base + d.incr * i,
                     irqs);
        if (dim) /* -t svd and -t regspec write the list as it was written (its name repaired) */
            blk->instances[blk->ninstances - 1]->dim_of = pattern;
    }
    if (blk->ninstances > first)
        made_of(b, n)->first = blk->instances[first];
}

/* ---------------------------------------------------------------- overlaps */

struct span {
    uint64_t lo, hi; /* [lo, hi) */
    struct model_reg *reg;
    struct model_instance *inst;
};

static int cmp_span(const void *pa, const void *pb)
{
    const struct span *a = pa, *b = pb;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static bool declared(const struct span *s)
{
    return model_reg_ext(s->reg)->alternate || s->inst->alternate;
}

/* Registers (or peripherals) that share bytes without declaring an alternate: kept as alternates.
 */
static void report_overlap(struct builder *b, struct span *old, struct span *s)
{
    if (s->inst == old->inst) {
        diag_report(b->dg, DIAG_SVD_OVERLAP, s->reg->pos,
                    "register '%s' of peripheral '%s' overlaps register '%s' at 0x%" PRIX64
                    " and declares no alternateRegister: kept as its alternate",
                    s->reg->name, s->inst->name, old->reg->name, s->lo);
        diag_note(b->dg, old->reg->pos, "register '%s' defined here", old->reg->name);
        model_reg_ext_set(b->a, s->reg)->alternate = old->reg->name;
    } else {
        diag_report(b->dg, DIAG_SVD_OVERLAP, s->inst->pos,
                    "peripheral '%s' overlaps peripheral '%s' at 0x%" PRIX64
                    " and declares no alternatePeripheral: kept as its alternate",
                    s->inst->name, old->inst->name, s->lo);
        diag_note(b->dg, old->inst->pos, "peripheral '%s' defined here", old->inst->name);
        s->inst->alternate = old->inst->name;
    }
}

/* Every element of every register in every instance, as byte ranges. */
static struct span *all_spans(struct builder *b, size_t *n)
{
    struct span *v = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t k = 0; k < b->spec->nblocks; k++) {
        struct model_block *blk = b->spec->blocks[k];
        for (size_t i = 0; i < blk->ninstances; i++)
            for (size_t j = 0; j < blk->nregs; j++)
                for (unsigned e = 0; e < blk->regs[j]->count; e++) {
                    struct model_reg *r = blk->regs[j];
                    uint64_t lo = model_reg_address(r, blk->instances[i], e);
                    v = xgrow(v, &cap, *n + 1, sizeof(*v));
                    v[(*n)++] = (struct span){lo, lo + r->size / 8, r, blk->instances[i]};
                }
    }
    return v;
}

/* Elements beyond this many are not compared (check_addr.c has the same bound). */
#define MAX_SPANS ((uint64_t)1 << 24)

static uint64_t count_spans(const struct model_spec *s)
{
    uint64_t n = 0;
    for (size_t k = 0; k < s->nblocks; k++)
        for (size_t j = 0; j < s->blocks[k]->nregs; j++)
            n += (uint64_t)s->blocks[k]->ninstances * s->blocks[k]->regs[j]->count;
    return n;
}

static void check_overlaps(struct builder *b)
{
    if (count_spans(b->spec) > MAX_SPANS)
        return;
    size_t n;
    struct span *v = all_spans(b, &n);
    if (n == 0)
        return; /* v is NULL */
    qsort(v, n, sizeof(*v), cmp_span);
    size_t last = 0; /* the span reaching furthest so far */
    for (size_t i = 1; i < n; i++) {
        if (v[i].lo < v[last].hi && !declared(&v[i]) && !declared(&v[last]) &&
            !(v[i].reg == v[last].reg && v[i].inst == v[last].inst))
            report_overlap(b, &v[last], &v[i]);
        if (v[i].hi > v[last].hi)
            last = i;
    }
    free(v);
}

/* ---------------------------------------------------------------- device */

static void read_cpu(struct builder *b, struct model_device *dev, const struct svd_node *n)
{
    struct model_device_cpu *c = arena_zalloc(b->a, sizeof(*c));
    c->name = n->text[SVD_T_NAME];
    c->revision = n->text[SVD_T_REVISION];
    c->endian = n->text[SVD_T_ENDIAN];
    c->mpu = boolean(n, SVD_T_MPU);
    c->fpu = boolean(n, SVD_T_FPU);
    c->fpu_dp = boolean(n, SVD_T_FPU_DP);
    c->icache = boolean(n, SVD_T_ICACHE);
    c->dcache = boolean(n, SVD_T_DCACHE);
    c->vtor = boolean(n, SVD_T_VTOR);
    c->vendor_systick = boolean(n, SVD_T_SYSTICK);
    c->has_nvic_bits = number(b, n, SVD_T_NVIC_BITS, &c->nvic_prio_bits);
    if (c->has_nvic_bits && c->nvic_prio_bits > MODEL_NVIC_BITS_MAX) {
        diag_report(b->dg, DIAG_BAD_NUMBER, tpos(n, SVD_T_NVIC_BITS),
                    "<nvicPrioBits> %" PRIu64 " of cpu '%s' is out of range (at most %d)",
                    c->nvic_prio_bits, c->name ? c->name : "", MODEL_NVIC_BITS_MAX);
        c->has_nvic_bits = false;
    }
    c->pos = n->pos;
    dev->cpu = c;
}

static struct model_device *read_device(struct builder *b, const struct svd_node *n)
{
    struct model_device *d = arena_zalloc(b->a, sizeof(*d));
    d->vendor = n->text[SVD_T_VENDOR];
    d->vendor_id = n->text[SVD_T_VENDOR_ID];
    d->name = n->text[SVD_T_NAME];
    d->series = n->text[SVD_T_SERIES];
    d->version = n->text[SVD_T_VERSION];
    d->desc = n->text[SVD_T_DESC];
    d->license = n->text[SVD_T_LICENSE];
    d->header_prefix = n->text[SVD_T_PREFIX];
    d->pos = n->pos;
    uint64_t v = 8;
    if (number(b, n, SVD_T_AUB, &v) && v != 8)
        diag_report(b->dg, DIAG_SVD_ADDRESS_UNIT, tpos(n, SVD_T_AUB),
                    "addressUnitBits %" PRIu64 " is not 8: offsets are read as byte offsets", v);
    d->address_unit_bits = 8;
    v = 32;
    number(b, n, SVD_T_WIDTH, &v);
    d->width = v > 64 ? 64 : (unsigned)v;
    for (size_t i = 0; i < n->nkids; i++)
        if (n->kids[i]->kind == SVD_CPU)
            read_cpu(b, d, n->kids[i]);
    return d;
}

static struct model_source *svd_source(struct builder *b, const struct svd_node *n,
                                       const char *name)
{
    struct model_source *src = arena_zalloc(b->a, sizeof(*src));
    const char *vendor = n->text[SVD_T_VENDOR];
    src->id = "svd";
    src->title = arena_printf(b->a, "%s%s%s System View Description (CMSIS-SVD)",
                              vendor ? vendor : "", vendor ? " " : "", name);
    src->rev = n->text[SVD_T_VERSION];
    src->pos = n->pos;
    return src;
}

static struct model_spec *new_spec(struct builder *b, const char *path)
{
    const struct svd_node *n = b->rd->device;
    struct model_spec *s = arena_zalloc(b->a, sizeof(*s));
    s->pos = n->pos;
    if (!n->text[SVD_T_NAME])
        diag_report(b->dg, DIAG_SVD_MISSING, n->pos, "the device has no <name>");
    const char *name =
        check_c_identifier(b->a, n->text[SVD_T_NAME] ? n->text[SVD_T_NAME] : "device", false);
    s->name = name;
    s->prefix = name;
    s->version = 1;
    s->title = n->text[SVD_T_DESC];
    s->block_names = true;
    s->sources = arena_alloc(b->a, sizeof(*s->sources));
    s->sources[0] = svd_source(b, n, name);
    s->nsources = 1;
    s->inputs = arena_alloc(b->a, sizeof(*s->inputs));
    s->inputs[0] = path;
    s->ninputs = 1;
    s->device = read_device(b, n);
    return s;
}

struct model_spec *svd_build(struct svd_reader *rd, const char *path)
{
    struct builder b = {rd,   rd->a,         rd->dg,        NULL,         NULL, 0,
                        0,    NULL,          REGC_MAP_INIT, REGC_MAP_INIT, REGC_MAP_INIT,
                        NULL, 0,             0};
    unsigned errors = rd->dg->nerrors;
    b.spec = new_spec(&b, path);
    struct props dev = {.size = 32};
    take_props(&b, rd->device, &dev);
    struct irqs irqs = {NULL, 0, 0};
    for (size_t i = 0; i < rd->device->nkids; i++)
        if (rd->device->kids[i]->kind == SVD_PERIPH)
            read_periph(&b, rd->device->kids[i], &dev, &irqs);
    type_later_blocks(&b);
    check_overlaps(&b);
    model_link_enum_bases(b.spec);
    regc_map_release(&b.reg_names);
    regc_map_release(&b.array_index);
    regc_map_release(&b.cl_nodes);
    free(b.later);
    free(b.made);
    return rd->dg->nerrors > errors ? NULL : b.spec;
}
