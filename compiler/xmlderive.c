/*
 * xmlderive - the bases derived-from= names in a regspec's memory-mapped forms
 * (docs/regspec.md, "Memory-mapped devices"): each must exist and a chain of
 * them must end, reported with the SVD reader's diagnostic (svd-derived).
 * Derivation is recorded, not applied: the element holds its whole content.
 * Called by xmlmmio.c once the spec is loaded; see xmlload_int.h.
 */
#include "xmlload_int.h"

#include <string.h>

/* The instance (peripheral) of 's' named 'name', or NULL. */
static const struct model_instance *find_instance(const struct model_spec *s, const char *name)
{
    for (size_t i = 0; i < s->nblocks; i++)
        for (size_t k = 0; k < s->blocks[i]->ninstances; k++)
            if (strcmp(s->blocks[i]->instances[k]->name, name) == 0)
                return s->blocks[i]->instances[k];
    return NULL;
}

/*
 * An instance's derived-from= names a peripheral of the spec, and the chain of them ends: the
 * SVD reader's svd-derived diagnostics, with the same words. Reported at the instance whose
 * chain comes back to it, the base that closes it noted.
 */
static void check_derived_instance(struct diag *dg, const struct model_spec *s,
                                   const struct model_instance *in, size_t limit)
{
    const struct model_instance *b = find_instance(s, in->derived_from);
    if (!b) {
        diag_report(dg, DIAG_SVD_DERIVED, in->pos, "derived-from '%s' of instance '%s' names no instance",
                    in->derived_from, in->name);
        return;
    }
    for (size_t n = 0; b && n < limit; n++) {
        if (b == in) {
            diag_report(dg, DIAG_SVD_DERIVED, in->pos,
                        "derived-from '%s' of instance '%s' leads back to itself", in->derived_from,
                        in->name);
            diag_note(dg, find_instance(s, in->derived_from)->pos, "instance '%s' derives from it",
                      in->derived_from);
            return;
        }
        b = b->derived_from ? find_instance(s, b->derived_from) : NULL;
    }
}

/* The last part of a dotted path ("TIMER0.CTRL": "CTRL"), or the name itself. */
static const char *path_last(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

static bool reg_is(const struct model_reg *r, const char *name)
{
    return strcmp(r->name, name) == 0 || (r->written_name && strcmp(r->written_name, name) == 0);
}

/* The register a derived-from= names: of r's block by name, else (a dotted path) any register
 * whose own name is the path's last part; NULL when none. */
static const struct model_reg *find_base_reg(const struct model_spec *s, const struct model_reg *r,
                                             const char *name)
{
    for (size_t i = 0; i < r->block->nregs; i++)
        if (reg_is(r->block->regs[i], name))
            return r->block->regs[i];
    if (!strchr(name, '.'))
        return NULL;
    for (size_t i = 0; i < s->nblocks; i++)
        for (size_t k = 0; k < s->blocks[i]->nregs; k++)
            if (reg_is(s->blocks[i]->regs[k], path_last(name)))
                return s->blocks[i]->regs[k];
    return NULL;
}

/* A register's derived-from= names a register, and the chain of them ends (svd-derived). */
static void check_derived_reg(struct diag *dg, const struct model_spec *s, const struct model_reg *r)
{
    const struct model_reg *b = find_base_reg(s, r, model_reg_ext(r)->derived_from);
    if (!b) {
        diag_report(dg, DIAG_SVD_DERIVED, r->pos, "derived-from '%s' of register '%s' names no register",
                    model_reg_ext(r)->derived_from, r->name);
        return;
    }
    for (size_t n = 0; b && n <= r->block->nregs; n++) {
        if (b == r) {
            diag_report(dg, DIAG_SVD_DERIVED, r->pos,
                        "derived-from '%s' of register '%s' leads back to itself", model_reg_ext(r)->derived_from,
                        r->name);
            diag_note(dg, find_base_reg(s, r, model_reg_ext(r)->derived_from)->pos,
                      "register '%s' derives from it", model_reg_ext(r)->derived_from);
            return;
        }
        b = model_reg_ext(b)->derived_from ? find_base_reg(s, b, model_reg_ext(b)->derived_from) : NULL;
    }
}

/* A field's derived-from= names a field of its register, or (a dotted path) any field whose name
 * is the path's last part. */
static void check_derived_field(struct diag *dg, const struct model_spec *s,
                                const struct model_field *f)
{
    if (model_find_field(f->reg, model_field_ext(f)->derived_from))
        return;
    if (strchr(model_field_ext(f)->derived_from, '.'))
        for (size_t i = 0; i < s->nblocks; i++)
            for (size_t k = 0; k < s->blocks[i]->nregs; k++)
                if (model_find_field(s->blocks[i]->regs[k], path_last(model_field_ext(f)->derived_from)))
                    return;
    diag_report(dg, DIAG_SVD_DERIVED, f->pos, "derived-from '%s' of field '%s' names no field",
                model_field_ext(f)->derived_from, f->name);
}

static void check_derived_regs(struct diag *dg, const struct model_spec *s,
                               const struct model_block *b)
{
    for (size_t k = 0; k < b->nregs; k++) {
        const struct model_reg *r = b->regs[k];
        if (model_reg_ext(r)->derived_from)
            check_derived_reg(dg, s, r);
        for (size_t i = 0; i < r->nfields; i++)
            if (model_field_ext(r->fields[i])->derived_from)
                check_derived_field(dg, s, r->fields[i]);
    }
}

void xl_check_derived(struct diag *dg, const struct model_spec *s)
{
    size_t ninstances = 0;
    for (size_t i = 0; i < s->nblocks; i++)
        ninstances += s->blocks[i]->ninstances;
    for (size_t i = 0; i < s->nblocks; i++) {
        for (size_t k = 0; k < s->blocks[i]->ninstances; k++)
            if (s->blocks[i]->instances[k]->derived_from)
                check_derived_instance(dg, s, s->blocks[i]->instances[k], ninstances);
        check_derived_regs(dg, s, s->blocks[i]);
    }
}
