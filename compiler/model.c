#include "model.h"
#include "arena.h"
#include "fatal.h"

#include "regc/num.h"

#include <stdlib.h>
#include <string.h>

const struct model_block *model_find_block(const struct model_spec *s, const char *name)
{
    for (size_t i = 0; i < s->nblocks; i++)
        if (strcmp(s->blocks[i]->name, name) == 0)
            return s->blocks[i];
    return NULL;
}

const struct model_unmodelled_filter *model_find_unmodelled_filter(const struct model_pmon *p,
                                                                   const char *name)
{
    for (size_t i = 0; p && name && i < p->nunmodelled; i++)
        if (p->unmodelled[i]->name && strcmp(p->unmodelled[i]->name, name) == 0)
            return p->unmodelled[i];
    return NULL;
}

const struct model_reg *model_find_reg(const struct model_block *b, const char *name)
{
    for (size_t i = 0; i < b->nregs; i++)
        if (strcmp(b->regs[i]->name, name) == 0)
            return b->regs[i];
    return NULL;
}

const struct model_field *model_find_field(const struct model_reg *r, const char *name)
{
    for (size_t i = 0; i < r->nfields; i++)
        if (strcmp(r->fields[i]->name, name) == 0)
            return r->fields[i];
    return NULL;
}

const struct model_field **model_fields_sorted(const struct model_reg *r,
                                               int (*cmp)(const void *, const void *))
{
    const struct model_field **v = xcalloc(r->nfields ? r->nfields : 1, sizeof(*v));
    for (size_t i = 0; i < r->nfields; i++)
        v[i] = r->fields[i];
    qsort(v, r->nfields, sizeof(*v), cmp);
    return v;
}

int model_field_cmp_lsb(const void *pa, const void *pb)
{
    const struct model_field *a = *(const struct model_field *const *)pa;
    const struct model_field *b = *(const struct model_field *const *)pb;
    if (a->lsb != b->lsb)
        return a->lsb < b->lsb ? -1 : 1;
    if (a->pos.line != b->pos.line)
        return a->pos.line < b->pos.line ? -1 : 1;
    return a->msb < b->msb ? -1 : a->msb > b->msb;
}

size_t model_find_gaps(const struct model_field **v, size_t n, unsigned width,
                       struct model_gap *out)
{
    size_t ngaps = 0;
    unsigned next = 0; /* lowest bit not yet covered */
    for (size_t i = 0; i < n && next < width && ngaps < 32; i++) {
        if (v[i]->lsb > v[i]->msb)
            continue; /* reported by the loader as bad-bits */
        if (v[i]->lsb > next)
            out[ngaps++] = (struct model_gap){(v[i]->lsb < width ? v[i]->lsb : width) - 1, next};
        if (v[i]->msb + 1 > next)
            next = v[i]->msb + 1;
    }
    if (next < width)
        out[ngaps++] = (struct model_gap){width - 1, next};
    return ngaps;
}

void model_place_gaps(struct arena *a, struct model_reg *r, struct model_field *const *gaps,
                      size_t n, bool low_first)
{
    size_t total = r->nfields + n;
    struct model_field **fields = arena_alloc(a, total * sizeof(*fields));
    bool ascending =
        r->nfields >= 2 ? r->fields[0]->lsb < r->fields[r->nfields - 1]->lsb : low_first;
    size_t written = 0, out = 0;
    for (size_t k = 0; k < n; k++) {
        struct model_field *g = gaps[ascending ? k : n - 1 - k];
        /* the fields that come before this gap in the register's order */
        while (written < r->nfields &&
               (ascending ? r->fields[written]->lsb < g->lsb : r->fields[written]->lsb > g->lsb))
            fields[out++] = r->fields[written++];
        fields[out++] = g;
    }
    while (written < r->nfields)
        fields[out++] = r->fields[written++];
    r->fields = fields;
    r->nfields = total;
}

const struct model_instance *model_find_instance(const struct model_block *b, const char *name)
{
    for (size_t i = 0; i < b->ninstances; i++)
        if (strcmp(b->instances[i]->name, name) == 0)
            return b->instances[i];
    return NULL;
}

const struct model_source *model_find_source(const struct model_spec *s, const char *id)
{
    for (size_t i = 0; i < s->nsources; i++)
        if (strcmp(s->sources[i]->id, id) == 0)
            return s->sources[i];
    return NULL;
}

const char *const model_direction_attr[DIRECTION_COUNT] = {"direction-up", "direction-down",
                                                            "direction-up-down"};

const char *model_space_word(enum model_space sp)
{
    return sp == SPACE_MSR ? "msr" : sp == SPACE_PCI ? "pci" : "mmio";
}

uint64_t model_field_max(const struct model_field *f)
{
    return regc_num_max_bits(model_field_width(f));
}

uint64_t model_field_mask(const struct model_field *f)
{
    return model_field_max(f) << f->lsb;
}

enum regc_sem model_field_sem(const struct model_field *f)
{
    return regc_access_sem(f->access);
}

bool model_field_is_reserved(const struct model_field *f)
{
    return regc_sem_is_reserved(model_field_sem(f));
}

bool model_field_write_as_read(const struct model_field *f)
{
    return model_field_ext(f)->wc.kind == WC_WRITE_AS_READ;
}

size_t model_instance_list(const struct model_block *b, size_t i, uint64_t *stride)
{
    const struct model_instance *i0 = b->instances[i];
    *stride = 0;
    if (!i0->dim_of || !i0->has_base || i0->has_pci)
        return 0;
    size_t n = 1;
    for (; i + n < b->ninstances; n++) {
        const struct model_instance *in = b->instances[i + n];
        if (in->dim_of != i0->dim_of || !in->has_base || in->has_pci || in->base <= i0->base)
            break;
        if (n == 1)
            *stride = in->base - i0->base;
        if (in->base - i0->base != *stride * n)
            break;
    }
    return n;
}

size_t model_reg_list(const struct model_block *b, size_t i, uint64_t *incr)
{
    const struct model_reg *r0 = b->regs[i];
    const struct model_reg_ext *x0 = model_reg_ext(r0);
    *incr = 0;
    if (!x0->dim_of || r0->is_array)
        return 1;
    size_t n = 1;
    for (; i + n < b->nregs; n++) {
        const struct model_reg *r = b->regs[i + n];
        const struct model_reg_ext *x = model_reg_ext(r);
        if (x->dim_of != x0->dim_of || x->cluster != x0->cluster || r->is_array ||
            r->address <= r0->address)
            break;
        if (n == 1)
            *incr = r->address - r0->address;
        if (r->address - r0->address != *incr * n)
            break;
    }
    return n;
}

const struct model_instance *model_instance_typed_as(const struct model_instance *in)
{
    if (in->own_type)
        return in;
    return in->block->type_of ? in->block->type_of : in->block->instances[0];
}

uint64_t model_reg_address(const struct model_reg *r, const struct model_instance *inst,
                           unsigned index)
{
    uint64_t addr = r->address;
    if (inst) {
        bool found = false;
        for (size_t i = 0; i < r->nats; i++) {
            if (r->ats[i]->instance == inst) {
                addr = r->ats[i]->address;
                found = true;
            }
        }
        if (!found && inst->has_base && r->space != SPACE_PCI)
            addr += inst->base;
    }
    if (r->addrs)
        return addr + (index < r->naddrs ? r->addrs[index] - r->addrs[0] : 0);
    return addr + (uint64_t)index * r->stride;
}

/*
 * Is field f of r a level: a write-only field that holds a state until written again? The box
 * control's freeze and freeze-enable are (the E5 guides: "set Cn_MSR_PMON_BOX_CTL.frz to 0"
 * unfreezes the box, 329468-002 section 2.1.2 step f); the runtime's regc_field_level is the
 * same rule over the descriptor tables.
 */
static bool field_is_level(const struct model_reg *r, const struct model_field *f)
{
    const struct model_box_control *bc =
        r->block && r->block->pmon ? r->block->pmon->box_control : NULL;
    if (!bc || !bc->reg_name || strcmp(bc->reg_name, r->name) != 0 ||
        model_field_sem(f) != REGC_SEM_WO)
        return false;
    return (bc->freeze.name && strcmp(bc->freeze.name, f->name) == 0) ||
           (bc->freeze_enable.name && strcmp(bc->freeze_enable.name, f->name) == 0);
}

/*
 * The mask classes of field f: its attribute's, except that an SVD field whose writeConstraint
 * is writeAsRead ("only the last read value can be written", CMSIS-SVD.xsd) is written back as
 * read (regc_as_read_classes: libregrt's classes of the tables' write_as_read fields alike).
 */
static unsigned field_mask_classes(const struct model_field *f)
{
    unsigned cls = regc_sem_classes(model_field_sem(f));
    return model_field_write_as_read(f) ? regc_as_read_classes(cls) : cls;
}

struct model_masks model_reg_masks(const struct model_reg *r)
{
    struct model_masks m = {0};
    for (size_t i = 0; i < r->nfields; i++) {
        const struct model_field *f = r->fields[i];
        uint64_t bits = model_field_mask(f);
        unsigned cls = field_mask_classes(f);
        m.mbz |= cls & REGC_MASK_MBZ ? bits : 0;
        m.mb1 |= cls & REGC_MASK_MB1 ? bits : 0;
        m.ignored |= cls & REGC_MASK_IGNORED ? bits : 0;
        m.ro |= cls & REGC_MASK_RO ? bits : 0;
        m.wo |= cls & REGC_MASK_WO ? bits : 0;
        m.w1c |= cls & REGC_MASK_W1C ? bits : 0;
        m.w1s |= cls & REGC_MASK_W1S ? bits : 0;
        m.writable |= cls & REGC_MASK_WRITABLE ? bits : 0;
        m.keep |= cls & REGC_MASK_KEEP ? bits : 0;
        m.volatile_ |= cls & REGC_MASK_VOLATILE ? bits : 0;
        m.preserve |= cls & REGC_MASK_PRESERVE ? bits : 0;
        m.w0 |= cls & REGC_MASK_W0 ? bits : 0;
        m.w1t |= cls & REGC_MASK_W1T ? bits : 0;
        m.wany |= cls & REGC_MASK_WANY ? bits : 0;
        m.once |= cls & REGC_MASK_ONCE ? bits : 0;
        m.level |= field_is_level(r, f) ? bits : 0;
    }
    /* bits from the implemented width up to the access size read 0 and must be written 0 */
    if (r->width < r->size && r->width < 64) {
        m.mbz |= regc_num_max_bits(r->size) & ~regc_num_max_bits(r->width);
    }
    return m;
}

const struct model_reg *model_events_reg(const struct model_events *t)
{
    return t->reg ? t->reg : t->block ? model_find_reg(t->block, t->reg_name) : NULL;
}

const struct model_field *model_events_code_field(const struct model_events *t)
{
    const struct model_reg *reg = model_events_reg(t);
    return t->code_field ? t->code_field : reg ? model_find_field(reg, t->code_field_name) : NULL;
}

const struct model_field *model_events_umask_field(const struct model_events *t)
{
    const struct model_reg *reg = model_events_reg(t);
    if (t->umask_field)
        return t->umask_field;
    return reg && t->umask_field_name ? model_find_field(reg, t->umask_field_name) : NULL;
}

bool model_event_combines(const struct model_event *e)
{
    return e->parent ? e->parent->combine_or : e->combine_or;
}

bool model_event_umask(const struct model_event *e, uint64_t *umask)
{
    *umask = e->has_umask ? e->umask : e->parent ? e->parent->umask : 0;
    return e->has_umask || (e->parent && e->parent->has_umask);
}

const struct model_field *model_set_field(const struct model_events *t, const struct model_set *st)
{
    if (st->field)
        return st->field;
    const struct model_reg *r = st->reg ? st->reg : t->reg;
    if (!r && t->block)
        r = model_find_reg(t->block, st->reg_name ? st->reg_name : t->reg_name);
    return r ? model_find_field(r, st->field_name) : NULL;
}

uint64_t model_place(const struct model_field *f, uint64_t v)
{
    return f ? (v << f->lsb) & model_field_mask(f) : 0;
}

bool model_set_is_own(const struct model_events *t, const struct model_set *st)
{
    const char *rname = st->reg_name ? st->reg_name : t->reg_name;
    return rname && t->reg_name && strcmp(rname, t->reg_name) == 0;
}

static uint64_t own_sets(const struct model_events *t, const struct model_event *e)
{
    uint64_t enc = 0;
    for (size_t i = 0; i < e->nsets; i++)
        if (model_set_is_own(t, e->sets[i]))
            enc |= model_place(model_set_field(t, e->sets[i]), e->sets[i]->value);
    return enc;
}

uint64_t model_event_encoding(const struct model_events *t, const struct model_event *e)
{
    uint64_t umask;
    bool has_umask = model_event_umask(e, &umask);
    uint64_t enc = model_place(model_events_code_field(t), e->code) |
                   (has_umask ? model_place(model_events_umask_field(t), umask) : 0);
    if (e->parent)
        enc |= own_sets(t, e->parent);
    return enc | own_sets(t, e);
}

struct model_cite *model_cite_keep(struct arena *a, const struct model_cite *c)
{
    if (!c->src && !c->table && !c->page && !c->section && !c->cite)
        return NULL;
    struct model_cite *k = arena_alloc(a, sizeof(*k));
    *k = *c;
    return k;
}

const struct model_reg_ext *model_reg_ext(const struct model_reg *r)
{
    static const struct model_reg_ext none;
    return r->ext ? r->ext : &none;
}

struct model_reg_ext *model_reg_ext_set(struct arena *a, struct model_reg *r)
{
    if (!r->ext)
        r->ext = arena_zalloc(a, sizeof(*r->ext));
    return r->ext;
}

const struct model_field_ext *model_field_ext(const struct model_field *f)
{
    static const struct model_field_ext none;
    return f->ext ? f->ext : &none;
}

struct model_field_ext *model_field_ext_set(struct arena *a, struct model_field *f)
{
    if (!f->ext)
        f->ext = arena_zalloc(a, sizeof(*f->ext));
    return f->ext;
}

const struct model_value_ext *model_value_ext(const struct model_value *v)
{
    static const struct model_value_ext none; /* USAGE_ANY, no don't-care bits */
    return v->ext ? v->ext : &none;
}

struct model_value_ext *model_value_ext_set(struct arena *a, struct model_value *v)
{
    if (!v->ext)
        v->ext = arena_zalloc(a, sizeof(*v->ext));
    return v->ext;
}

const char *model_cluster_path(struct arena *a, const struct model_cluster *c)
{
    return c->parent ? arena_printf(a, "%s.%s", model_cluster_path(a, c->parent), c->name) : c->name;
}
