/*
 * svd_against - regc DEVICE.svd --against VENDOR.h: every disagreement
 * between the fields of an SVD (read into the model) and a vendor header's
 * NAME_Pos / NAME_Msk macros (docs/svd.md).
 *
 * The SVD's names are svdconv's: PERIPH_REG_FIELD, where PERIPH is the
 * peripheral's headerStructName, its group name, its own name or the name
 * of a peripheral derived from it (svdconv names a derived peripheral's
 * fields after its base's type), REG the register's name with its clusters
 * before it ("PSEL_RTS") and without an array's "[%s]", or as svdconv names it (its clusters
 * by headerStructName, "_" + alternateGroup: svd_names.h), FIELD the field's.
 * Names are compared without case. A macro pair both sides define agrees
 * when one of the SVD's fields of that name has that position and mask.
 */
#include "svd_against.h"
#include "names.h"
#include "svd_names.h"
#include "util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Vendor headers larger than this are refused (the largest public one is under 2 MiB). */
#define AGAINST_MAX_BYTES ((size_t)64 << 20)

struct macro {
    bool has_pos, has_msk;
    uint64_t pos, msk;
    uint32_t line;
};

/* What the SVD says for one name: the first field, and whether any field agrees. */
struct svd_side {
    const struct model_field *f;
    bool agrees;
};

/* A number with C's U/L suffixes at *p; advances *p. */
static bool c_number(const char **p, uint64_t *v)
{
    char *end;
    if (**p < '0' || **p > '9')
        return false;
    *v = strtoull(*p, &end, 0);
    while (*end == 'U' || *end == 'u' || *end == 'L' || *end == 'l')
        end++;
    *p = end;
    return true;
}

static const char *skip_blank(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/*
 * The value of a _Pos or _Msk macro's body: "(N)", "(N << NAME_Pos)" with
 * 'pos' the position given, or "N"; false for anything else.
 */
static bool macro_value(const char *p, bool has_pos, uint64_t pos, uint64_t *v)
{
    p = skip_blank(p);
    bool paren = *p == '(';
    if (paren)
        p = skip_blank(p + 1);
    if (!c_number(&p, v))
        return false;
    p = skip_blank(p);
    if (p[0] == '<' && p[1] == '<') {
        p = skip_blank(p + 2);
        while (util_is_ident_char(*p))
            p++;
        if (!has_pos || pos >= 64)
            return false;
        *v <<= pos;
        p = skip_blank(p);
    }
    return !paren || *p == ')';
}

/* Reads every NAME_Pos and NAME_Msk of the header text into 'm' (upper-case NAME -> macro). */
static void read_macros(struct arena *a, char *text, struct regc_map *m)
{
    uint32_t line = 0;
    for (char *s = text; s && *s;) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        line++;
        const char *p = skip_blank(s);
        if (strncmp(p, "#define", 7) == 0) {
            p = skip_blank(p + 7);
            const char *name = p;
            while (util_is_ident_char(*p))
                p++;
            size_t len = (size_t)(p - name);
            bool pos = len > 4 && memcmp(p - 4, "_Pos", 4) == 0;
            bool msk = len > 4 && memcmp(p - 4, "_Msk", 4) == 0;
            if (pos || msk) {
                char *key = names_upper(a, arena_strndup(a, name, len - 4));
                bool found;
                struct regc_map_entry *e = xmap_put_str(m, key, &found);
                if (!found)
                    e->val = arena_zalloc(a, sizeof(struct macro));
                struct macro *mc = e->val;
                uint64_t v;
                if (macro_value(p, mc->has_pos, mc->pos, &v)) {
                    if (pos)
                        mc->pos = v, mc->has_pos = true, mc->line = line;
                    else
                        mc->msk = v, mc->has_msk = true;
                }
            }
        }
        s = nl ? nl + 1 : NULL;
    }
}

/* The peripheral names svdconv may put before a register of 'b'. */
static size_t periph_names(const struct model_block *b, const char **out, size_t max)
{
    size_t n = 0;
    const char *cands[3] = {b->header_struct, b->group, b->name};
    for (size_t i = 0; i < 3; i++)
        if (cands[i] && n < max)
            out[n++] = cands[i];
    for (size_t i = 0; i < b->ninstances && n < max; i++) {
        out[n++] = b->instances[i]->name;
        if (b->instances[i]->group && n < max)
            out[n++] = b->instances[i]->group;
        if (b->instances[i]->header_struct && n < max) /* a derived one's own type (svdconv) */
            out[n++] = b->instances[i]->header_struct;
    }
    return n;
}

static bool field_agrees(const struct model_field *f, const struct macro *m)
{
    return m->pos == f->lsb && m->msk == model_field_mask(f);
}

/* Records field 'f' under 'key' in 'svd' when the header defines that name. */
static void note_field(struct arena *a, struct regc_map *svd, const struct regc_map *vendor,
                       const char *key, const struct model_field *f)
{
    struct regc_map_entry *v = regc_map_find_str(vendor, key);
    if (!v)
        return;
    const struct macro *m = v->val;
    if (!m->has_pos || !m->has_msk)
        return;
    bool found;
    struct regc_map_entry *e = xmap_put_str(svd, key, &found);
    if (!found) {
        struct svd_side *s = arena_zalloc(a, sizeof(*s));
        s->f = f;
        e->val = s;
    }
    struct svd_side *s = e->val;
    s->agrees |= field_agrees(f, m);
}

/*
 * The register parts a header may use: regc's (its clusters' names before it) and, where they
 * differ, svdconv's (clusters by headerStructName, "_" + alternateGroup: svd_names.h), also with
 * the elements of an array or list the reader expanded named as one.
 */
static size_t reg_names(struct arena *a, const struct model_block *b, const struct regc_map *groups,
                        const struct model_reg *r, const char **out)
{
    const char *group = svd_names_group(groups, r);
    const char *cand[3] = {r->name, svd_names_macro_reg(a, b->name, r, r->name, group),
                           svd_names_macro_path(a, b->name, r, group)};
    size_t n = 0;
    for (size_t i = 0; i < 3; i++) {
        bool seen = false;
        for (size_t j = 0; j < n && !seen; j++)
            seen = strcmp(out[j], cand[i]) == 0;
        if (!seen)
            out[n++] = cand[i];
    }
    return n;
}

static void collect(struct arena *a, const struct model_spec *spec, const struct regc_map *vendor,
                    struct regc_map *svd)
{
    struct regc_map groups;
    regc_map_init(&groups);
    for (size_t i = 0; i < spec->nblocks; i++) {
        const struct model_block *b = spec->blocks[i];
        const char *pn[64];
        size_t npn = periph_names(b, pn, 64);
        svd_names_groups(&groups, b);
        for (size_t j = 0; j < b->nregs; j++) {
            const struct model_reg *r = b->regs[j];
            const char *rn[3];
            size_t nrn = reg_names(a, b, &groups, r, rn);
            for (size_t k = 0; k < r->nfields; k++) {
                const struct model_field *f = r->fields[k];
                if (f->implicit || model_field_ext(f)->whole)
                    continue;
                for (size_t p = 0; p < npn; p++)
                    for (size_t q = 0; q < nrn; q++)
                        note_field(a, svd, vendor,
                                   names_upper(a, arena_printf(a, "%s_%s_%s", pn[p], rn[q],
                                                               f->name)),
                                   f);
            }
        }
    }
    regc_map_release(&groups);
}

struct sorted {
    const char *name;
    const struct macro *m;
    const struct svd_side *s;
};

static int cmp_line(const void *pa, const void *pb)
{
    const struct sorted *a = pa, *b = pb;
    return a->m->line < b->m->line ? -1 : a->m->line > b->m->line;
}

int svd_against(struct arena *a, struct diag *dg, const struct model_spec *spec, const char *header,
                FILE *out)
{
    struct util_file in;
    if (util_read_input(header, AGAINST_MAX_BYTES, &in) < 0)
        return diag_report(dg, DIAG_IO, (struct srcpos){diag_add_file(dg, header), 0, 0},
                           "cannot read file: %s", in.why);
    struct regc_map vendor, svd;
    regc_map_init(&vendor);
    regc_map_init(&svd);
    read_macros(a, in.text, &vendor);
    free(in.text);
    collect(a, spec, &vendor, &svd);
    struct sorted *v = xcalloc(svd.n ? svd.n : 1, sizeof(*v));
    size_t n = 0, bad = 0;
    for (size_t i = 0; i < svd.n; i++) {
        const struct regc_map_entry *e = &svd.entries[i];
        v[n++] = (struct sorted){e->key, regc_map_find_str(&vendor, e->key)->val, e->val};
    }
    qsort(v, n, sizeof(*v), cmp_line);
    for (size_t i = 0; i < n; i++) {
        if (v[i].s->agrees)
            continue;
        const struct model_field *f = v[i].s->f;
        bad++;
        fprintf(out,
                "%s:%" PRIu32 ": %s: header _Pos %" PRIu64 " _Msk 0x%" PRIX64
                "; SVD field '%s' of register '%s' (line %" PRIu32 "): _Pos %u _Msk 0x%" PRIX64
                "\n",
                header, v[i].m->line, v[i].name, v[i].m->pos, v[i].m->msk, f->name, f->reg->name,
                f->pos.line, f->lsb, model_field_mask(f));
    }
    fprintf(stderr, "regc: %zu _Pos/_Msk pairs defined by both, %zu disagree\n", n, bad);
    free(v);
    regc_map_release(&svd);
    regc_map_release(&vendor);
    return bad ? 1 : 0;
}
