/*
 * desc - lookups in descriptor tables, field arithmetic, rule evaluation.
 * Pure functions over the constant tables of regc/desc.h; no I/O.
 */
#include "internal.h"
#include "regc/regc.h"
#include "regc/suggest.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct regc_block *regc_spec_block(const struct regc_spec *s, const char *name)
{
    for (const struct regc_block *b = s->blocks; b && b->name; b++)
        if (regc__streq(b->name, name))
            return b;
    return NULL;
}

const struct regc_reg *regc_block_reg(const struct regc_block *b, const char *name)
{
    for (const struct regc_reg *r = b->regs; r && r->name; r++)
        if (regc__streq(r->name, name))
            return r;
    return NULL;
}

const struct regc_field *regc_reg_field(const struct regc_reg *r, const char *name)
{
    for (const struct regc_field *f = r->fields; f && f->name; f++)
        if (regc__streq(f->name, name))
            return f;
    return NULL;
}

uint64_t regc__field_mask_named(const struct regc_reg *r, const char *name)
{
    const struct regc_field *f = name ? regc_reg_field(r, name) : NULL;
    return f ? regc_field_mask(f) : 0;
}

const struct regc_counters *regc__block_counters(const struct regc_block *b, const char *control)
{
    for (const struct regc_counters *c = b->pmon ? b->pmon->counters : NULL; c && c->control; c++)
        if (regc__streq(c->control, control))
            return c;
    return NULL;
}

const struct regc_counters *regc__block_group(const struct regc_block *b, bool fixed)
{
    for (const struct regc_counters *c = b->pmon ? b->pmon->counters : NULL; c && c->control; c++)
        if (regc__streq(c->kind, "fixed") == fixed)
            return c;
    return NULL;
}

int regc__block_target(const struct regc_spec *s, char *text, const struct regc_block **b,
                       const struct regc_instance **inst, const char **inst_name)
{
    char *name = strchr(text, '[');
    *b = NULL;
    *inst = NULL;
    *inst_name = NULL;
    if (name) {
        char *close = strchr(name, ']');
        if (!close || close[1])
            return -EINVAL;
        *name++ = '\0';
        *close = '\0';
        *inst_name = name;
    }
    *b = regc_spec_block(s, text);
    if (!*b)
        return -ENOENT;
    if (name) {
        *inst = regc_block_instance(*b, name);
        return *inst ? 0 : -ENOENT;
    }
    if ((*b)->instances && (*b)->instances->name)
        *inst = (*b)->instances;
    return 0;
}

const struct regc_instance *regc_block_instance(const struct regc_block *b, const char *name)
{
    for (const struct regc_instance *i = b->instances; i && i->name; i++)
        if (regc__streq(i->name, name))
            return i;
    return NULL;
}

const struct regc_source *regc_spec_source(const struct regc_spec *s, const char *id)
{
    for (const struct regc_source *src = s ? s->sources : NULL; src && src->id; src++)
        if (regc__streq(src->id, id))
            return src;
    return NULL;
}

const struct regc_event *regc_block_event(const struct regc_block *b, const char *name)
{
    for (const struct regc_event *e = b->events; e && e->name; e++)
        if (regc__streq(e->name, name))
            return e;
    return NULL;
}

const struct regc_filter *regc_block_filter(const struct regc_block *b, const char *ref)
{
    const char *dot = ref ? strchr(ref, '.') : NULL;
    for (const struct regc_filter *f = b->pmon ? b->pmon->filters : NULL; dot && f && f->reg; f++)
        if (strlen(f->reg) == (size_t)(dot - ref) &&
            strncmp(f->reg, ref, (size_t)(dot - ref)) == 0 && regc__streq(f->field, dot + 1))
            return f;
    return NULL;
}

const struct regc_unmodelled_filter *regc_block_unmodelled_filter(const struct regc_block *b,
                                                                  const char *name)
{
    const struct regc_unmodelled_filter *f = b->pmon ? b->pmon->unmodelled_filters : NULL;
    for (; name && f && f->name; f++)
        if (regc__streq(f->name, name))
            return f;
    return NULL;
}

/* Places 'v' into field 'name' of r: ors it into *value, the field's bits into *mask. */
static int place_field(const struct regc_reg *r, const char *name, uint64_t v, uint64_t *value,
                       uint64_t *mask)
{
    const struct regc_field *f = name ? regc_reg_field(r, name) : NULL;
    if (!f)
        return -ENOENT;
    *value = regc_field_put(f, *value, v);
    *mask |= regc_field_mask(f);
    return 0;
}

int regc_event_encoding(const struct regc_block *b, const struct regc_event *e, uint64_t *value,
                        uint64_t *mask)
{
    const struct regc_reg *r = regc_block_reg(b, e->reg);
    *value = *mask = 0;
    if (!r || place_field(r, e->field, e->code, value, mask) < 0)
        return -ENOENT;
    if (e->has_umask && e->umask_field && place_field(r, e->umask_field, e->umask, value, mask) < 0)
        return -ENOENT;
    for (const struct regc_set *s = e->sets; s && s->field; s++)
        if ((!s->reg || regc__streq(s->reg, e->reg)) && place_field(r, s->field, s->value, value, mask) < 0)
            return -ENOENT;
    return 0;
}

unsigned regc_block_ninstances(const struct regc_block *b)
{
    unsigned n = 0;
    for (const struct regc_instance *i = b->instances; i && i->name; i++)
        n++;
    return n;
}

int regc_ref_make(struct regc_ref *out, const struct regc_spec *s, const struct regc_block *b,
                  const struct regc_instance *inst, const struct regc_reg *reg, int index)
{
    for (const struct regc_addr *a = reg->addrs; a && a->index != REGC_ADDR_END; a++) {
        if (a->index != index)
            continue;
        if (inst ? !regc__streq(a->instance, inst->name) : a->instance != NULL)
            continue;
        *out = (struct regc_ref){.spec = s,
                                 .block = b,
                                 .instance = inst,
                                 .reg = reg,
                                 .index = index,
                                 .address = a->address};
        return 0;
    }
    return -ENOENT;
}

static int copy_ref(struct regc_ref *out, const struct regc_spec *s, const struct regc_block *b,
                    const struct regc_instance *inst, const char *name, unsigned i)
{
    const struct regc_reg *r = name ? regc_block_reg(b, name) : NULL;
    if (!r)
        return -ENOENT;
    return regc_ref_make(out, s, b, inst, r, r->is_array ? (int)i : -1);
}

int regc_counter_refs(const struct regc_spec *s, const struct regc_block *b,
                      const struct regc_instance *inst, const struct regc_counters *c, unsigned i,
                      struct regc_ref *ctl, struct regc_ref *ctr)
{
    if (!inst && b->instances && b->instances->name)
        inst = b->instances;
    int rc = copy_ref(ctl, s, b, inst, c->control, i);
    return rc ? rc : copy_ref(ctr, s, b, inst, c->counter, i);
}

enum regc_direction regc_counters_direction(const struct regc_counters *c,
                                            const struct regc_reg *r, uint64_t ctl)
{
    const struct regc_field *f =
        c->direction_field && r ? regc_reg_field(r, c->direction_field) : NULL;
    if (!f)
        return REGC_DIR_UP;
    uint64_t v = regc_field_get(f, ctl);
    for (const struct regc_count_dir *d = c->directions; d && d->dir != REGC_DIR_NONE; d++)
        if (d->value == v)
            return d->dir;
    return REGC_DIR_NONE;
}

bool regc_counters_dir_value(const struct regc_counters *c, enum regc_direction dir,
                             uint64_t *value)
{
    *value = 0;
    if (!c->direction_field)
        return dir == REGC_DIR_UP;
    for (const struct regc_count_dir *d = c->directions; d && d->dir != REGC_DIR_NONE; d++)
        if (d->dir == dir) {
            *value = d->value;
            return true;
        }
    return false;
}

enum regc_level regc_field_level(const struct regc_block *b, const struct regc_reg *r,
                                 const struct regc_field *f)
{
    const struct regc_box_control *bc = b && b->pmon ? b->pmon->box_control : NULL;
    if (!bc || !bc->reg || strcmp(bc->reg, r->name) != 0)
        return REGC_LEVEL_NONE;
    if (bc->freeze && strcmp(bc->freeze, f->name) == 0)
        return REGC_LEVEL_BOX_FREEZE;
    if (bc->freeze_enable && strcmp(bc->freeze_enable, f->name) == 0)
        return REGC_LEVEL_BOX_FREEZE_ENABLE;
    return REGC_LEVEL_NONE;
}

uint64_t regc_level_mask(const struct regc_block *b, const struct regc_reg *r)
{
    uint64_t m = 0;
    for (const struct regc_field *f = r->fields; f->name; f++)
        if (regc_field_sem(f) == REGC_SEM_WO && regc_field_level(b, r, f) != REGC_LEVEL_NONE)
            m |= regc_field_mask(f);
    return m;
}

bool regc_box_overflow_reports(const struct regc_global_status *gs,
                               const struct regc_box_overflow *bo, const struct regc_counters *c)
{
    if (bo->counters)
        return strcmp(bo->counters, c->control) == 0;
    for (const struct regc_box_overflow *o = gs->boxes; o->block; o++)
        if (o->counters && strcmp(o->block, bo->block) == 0 && strcmp(o->counters, c->control) == 0)
            return false;
    return true;
}

/*
 * Splits "NAME[N]" or "NAMEN" (N a trailing index when NAME alone is not a
 * register): the register, and the index's text in *idx (NULL: none, else
 * *idxlen bytes; *bracket for the NAME[N] form).
 */
static const struct regc_reg *resolve_reg(const struct regc_block *b, const char *text,
                                          const char **idx, size_t *idxlen, bool *bracket)
{
    char name[128];
    size_t len = strcspn(text, "[");
    if (len >= sizeof(name))
        return NULL;
    memcpy(name, text, len);
    name[len] = '\0';
    *idx = NULL;
    *bracket = text[len] == '[';
    if (*bracket) {
        size_t rest = strlen(text + len + 1);
        if (rest == 0 || text[len + rest] != ']')
            return NULL;
        *idx = text + len + 1;
        *idxlen = rest - 1;
        return regc_block_reg(b, name);
    }
    const struct regc_reg *r = regc_block_reg(b, name);
    if (r)
        return r;
    while (len > 0 && isdigit((unsigned char)name[len - 1]))
        len--;
    if (len == strlen(name) || name[len] == '\0')
        return NULL;
    *idx = text + len;
    *idxlen = strlen(text + len);
    name[len] = '\0';
    r = regc_block_reg(b, name);
    return r && r->is_array ? r : NULL;
}

/* ---- "did you mean" (regc/suggest.h) for the parts of a path that name nothing */

char *regc__suggest_block(const struct regc_spec *s, const char *want, char *buf, size_t len)
{
    struct regc_suggest sg;
    regc_suggest_init(&sg, want);
    for (const struct regc_block *b = s->blocks; b && b->name; b++)
        regc_suggest_add(&sg, b->name);
    return regc_suggest_text(&sg, buf, len);
}

static char *suggest_instance(const struct regc_block *b, const char *want, char *buf, size_t len)
{
    struct regc_suggest sg;
    regc_suggest_init(&sg, want);
    for (const struct regc_instance *i = b->instances; i && i->name; i++)
        regc_suggest_add(&sg, i->name);
    return regc_suggest_text(&sg, buf, len);
}

/* Candidates written as 'want' is: array elements as NAME[i] or NAMEi. */
static char *suggest_reg(const struct regc_block *b, const char *want, char *buf, size_t len)
{
    struct regc_suggest sg;
    bool bracket = strchr(want, '[') != NULL;
    regc_suggest_init(&sg, want);
    for (const struct regc_reg *r = b->regs; r && r->name; r++) {
        for (unsigned k = r->first; r->is_array && k < r->first + r->count; k++) {
            char c[REGC_SUGGEST_MAX];
            snprintf(c, sizeof(c), bracket ? "%s[%u]" : "%s%u", r->name, k);
            regc_suggest_add(&sg, c);
        }
        if (!r->is_array)
            regc_suggest_add(&sg, r->name);
    }
    return regc_suggest_text(&sg, buf, len);
}

int regc_resolve(const struct regc_spec *s, const char *path, struct regc_ref *out, char *err,
                 size_t errlen)
{
    char hint[160];
    char buf[256];
    if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
        goto bad;
    char *blk = buf, *rest = strchr(buf, '.');
    if (!rest)
        goto bad;
    *rest++ = '\0';
    const struct regc_block *b = regc_spec_block(s, blk);
    if (!b) {
        if (err)
            snprintf(err, errlen, "no block '%s' in spec '%s'%s", blk, s->name,
                     regc__suggest_block(s, blk, hint, sizeof(hint)));
        return -ENOENT;
    }
    const struct regc_instance *inst = b->instances && b->instances->name ? b->instances : NULL;
    char *dot = strchr(rest, '.');
    if (dot) {
        *dot = '\0';
        inst = regc_block_instance(b, rest);
        if (!inst) {
            if (err)
                snprintf(err, errlen, "no instance '%s' of block '%s'%s", rest, b->name,
                         suggest_instance(b, rest, hint, sizeof(hint)));
            return -ENOENT;
        }
        rest = dot + 1;
    }
    const char *idx;
    size_t idxlen;
    bool bracket;
    const struct regc_reg *r = resolve_reg(b, rest, &idx, &idxlen, &bracket);
    if (!r) {
        if (err)
            snprintf(err, errlen, "no register '%s' in block '%s'%s", rest, b->name,
                     suggest_reg(b, rest, hint, sizeof(hint)));
        return -ENOENT;
    }
    if (!r->is_array && idx) {
        if (err)
            snprintf(err, errlen, "register '%s' is not an array", r->name);
        return -ENOENT;
    }
    if (r->is_array && !idx) {
        if (err)
            snprintf(err, errlen, "register '%s' is an array: give an index (%s%u..%s%u)", r->name,
                     r->name, r->first, r->name, r->first + r->count - 1);
        return -ENOENT;
    }
    uint64_t index = 0;
    char why[96];
    if (idx && regc_num_parse(idx, idxlen, r->first, (uint64_t)r->first + r->count - 1,
                              bracket ? 0 : REGC_NUM_DEC, &index, why, sizeof(why))) {
        if (err)
            snprintf(err, errlen, "index '%.*s' of register '%s': %s", (int)idxlen, idx, r->name,
                     why);
        return -ENOENT;
    }
    if (regc_ref_make(out, s, b, inst, r, idx ? (int)index : -1) < 0) {
        if (err)
            snprintf(err, errlen, "register '%s' has no element %llu", r->name,
                     (unsigned long long)index);
        return -ENOENT;
    }
    return 0;
bad:
    if (err)
        snprintf(err, errlen, "bad register path '%s' (want BLOCK[.INSTANCE].REG[INDEX])", path);
    return -EINVAL;
}

const char *regc_ref_name(const struct regc_ref *r, char *buf, size_t len)
{
    char idx[16] = "";
    if (r->index >= 0)
        snprintf(idx, sizeof(idx), "%d", r->index);
    snprintf(buf, len, "%s%s%s.%s%s", r->block->name, r->instance ? "." : "",
             r->instance ? r->instance->name : "", r->reg->name, idx);
    return buf;
}

const char *regc_pci_slot(const struct regc_pci_loc *loc, char *buf, size_t len)
{
    char dev[4] = "*", fn[4] = "*";
    if (loc->dev != REGC_PCI_ANY)
        snprintf(dev, sizeof(dev), "%02x", loc->dev);
    if (loc->func != REGC_PCI_ANY)
        snprintf(fn, sizeof(fn), "%x", loc->func);
    snprintf(buf, len, "%s.%s", dev, fn);
    return buf;
}

/* ---- fields */

uint64_t regc_field_mask(const struct regc_field *f)
{
    return regc_num_max_bits((unsigned)(f->msb - f->lsb + 1)) << f->lsb;
}

uint64_t regc_field_get(const struct regc_field *f, uint64_t reg)
{
    return (reg & regc_field_mask(f)) >> f->lsb;
}

uint64_t regc_field_put(const struct regc_field *f, uint64_t reg, uint64_t v)
{
    return (reg & ~regc_field_mask(f)) | ((v << f->lsb) & regc_field_mask(f));
}

const struct regc_value *regc_field_value_named(const struct regc_field *f, const char *name)
{
    for (const struct regc_value *v = f->values; v && v->name; v++)
        if (regc__streq(v->name, name))
            return v;
    return NULL;
}

const struct regc_value *regc_field_value_of(const struct regc_field *f, uint64_t val)
{
    for (const struct regc_value *v = f->values; v && v->name; v++)
        if (v->value == val)
            return v;
    return NULL;
}

enum regc_sem regc_field_sem(const struct regc_field *f)
{
    return regc_access_sem(f->access);
}

/* The mask classes of field f: its attribute's, changed by write_as_read as the compiler's. */
static unsigned field_classes(const struct regc_field *f)
{
    unsigned cls = regc_sem_classes(regc_field_sem(f));
    return f->write_as_read ? regc_as_read_classes(cls) : cls;
}

uint64_t regc_reg_class_mask(const struct regc_reg *r, unsigned classes)
{
    uint64_t m = 0;
    for (const struct regc_field *f = r->fields; f && f->name; f++)
        if (field_classes(f) & classes)
            m |= regc_field_mask(f);
    return m;
}

uint64_t regc_reg_as_read_mask(const struct regc_reg *r)
{
    uint64_t m = 0;
    for (const struct regc_field *f = r->fields; f && f->name; f++)
        if (f->write_as_read)
            m |= regc_field_mask(f);
    return m;
}

uint64_t regc_reg_allowed(const struct regc_reg *r)
{
    return regc_num_max_bits(r->width) & ~r->mbz & ~regc_reg_class_mask(r, REGC_MASK_MBZ);
}

/* ---- rules: the postfix ops regc wrote (the compiler's parser is the only one) */

static int eval_ops(const struct regc_rule_op *ops, uint64_t value, bool *holds)
{
    uint64_t st[REGC_RULE_STACK];
    unsigned sp = 0;
    for (const struct regc_rule_op *o = ops; o->op != REGC_OP_END; o++) {
        if (o->op == REGC_OP_CONST || o->op == REGC_OP_FIELD) {
            if (sp == REGC_RULE_STACK)
                return -EINVAL;
            st[sp++] = o->op == REGC_OP_CONST ? o->value : (value >> o->lsb) & regc_num_max_bits(o->width);
            continue;
        }
        if (o->op == REGC_OP_NOT) {
            if (sp < 1)
                return -EINVAL;
            st[sp - 1] = !st[sp - 1];
            continue;
        }
        if (sp < 2)
            return -EINVAL;
        uint64_t b = st[--sp], a = st[sp - 1], r;
        switch (o->op) {
        case REGC_OP_AND:
            r = a && b;
            break;
        case REGC_OP_OR:
            r = a || b;
            break;
        case REGC_OP_IMPLIES:
            r = !a || b;
            break;
        case REGC_OP_EQ:
            r = a == b;
            break;
        case REGC_OP_NE:
            r = a != b;
            break;
        case REGC_OP_LT:
            r = a < b;
            break;
        case REGC_OP_LE:
            r = a <= b;
            break;
        case REGC_OP_GT:
            r = a > b;
            break;
        case REGC_OP_GE:
            r = a >= b;
            break;
        default:
            return -EINVAL;
        }
        st[sp - 1] = r;
    }
    if (sp != 1)
        return -EINVAL;
    *holds = st[0] != 0;
    return 0;
}

int regc_rule_eval(const struct regc_reg *r, const struct regc_rule *ru, uint64_t value,
                   bool *holds)
{
    (void)r; /* the ops name fields by their bits */
    return ru->ops ? eval_ops(ru->ops, value, holds) : -EINVAL;
}
