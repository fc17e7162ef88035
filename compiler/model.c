#include "model.h"

#include <string.h>

const struct model_block *model_find_block(const struct model_spec *s, const char *name)
{
    for (size_t i = 0; i < s->nblocks; i++)
        if (strcmp(s->blocks[i]->name, name) == 0)
            return s->blocks[i];
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

uint64_t model_field_max(const struct model_field *f)
{
    unsigned w = model_field_width(f);
    return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
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
