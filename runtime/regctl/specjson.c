/*
 * specjson - a spec's JSON model (regc -t json) into the descriptor tables of
 * regc/desc.h (specjson.h). The shape follows templates/tables.mustache,
 * which writes the same tables as C for the built-in specs: what that
 * template derives (an event's own settings, the counter mask, a rule's
 * postfix ops) is derived here the same way.
 */
#include "specjson.h"
#include "fail.h"
#include "arena.h"
#include "expr.h"
#include "jschema.h"
#include "secure.h"

#include "regc/metric.h"
#include "regc/num.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PATHLEN 256

struct conv {
    struct arena *a;
    const char *file;
    unsigned nerr;
};

static void err(struct conv *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void err(struct conv *c, const char *path, const char *fmt, ...)
{
    va_list ap;
    if (c->nerr++ >= JSCHEMA_MAX_ERRORS)
        return;
    fprintf(stderr, "regctl: %s: %s: ", c->file, path);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* ---- members (the schema has checked their types) */

static const char *str(struct conv *c, json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_string(v) ? arena_strdup(c->a, json_string_value(v)) : NULL;
}

static uint64_t hexv(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    uint64_t x = 0;
    if (json_is_string(v))
        regc_num_parse(json_string_value(v), REGC_NUM_NUL, 0, UINT64_MAX, 0, &x, NULL, 0);
    return x;
}

static uint64_t uintv(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

static bool boolv(json_t *o, const char *key)
{
    return json_is_true(json_object_get(o, key));
}

static bool is_null(json_t *o, const char *key)
{
    return json_is_null(json_object_get(o, key));
}

/* v, or 0 after an error when it is above 'max' (what the tables' member holds, or the field's
 * width): a number is never cut to fit. */
static uint64_t capped(struct conv *c, uint64_t v, uint64_t max, const char *path, const char *what)
{
    if (v <= max)
        return v;
    err(c, path, "%s is 0x%llx, above 0x%llx, the most it can be", what, (unsigned long long)v,
        (unsigned long long)max);
    return 0;
}

/* A zeroed array of n + 1 elements (the +1 ends the list). */
static void *list(struct conv *c, size_t n, size_t size)
{
    return arena_zalloc(c->a, (n + 1) * size);
}

/* "PATH.KEY[I]" (PATH.KEY without an index) into out, PATHLEN bytes; cut with "..." if longer. */
static void at(char *out, const char *path, const char *key, size_t i)
{
    int n = i == (size_t)-1 ? snprintf(out, PATHLEN, "%s.%s", path, key)
                            : snprintf(out, PATHLEN, "%s.%s[%zu]", path, key, i);
    if (n < 0 || n >= PATHLEN)
        memcpy(out + PATHLEN - 4, "...", 4);
}

static struct regc_cite cite_of(struct conv *c, json_t *o)
{
    json_t *s = json_object_get(o, "source");
    return (struct regc_cite){str(c, s, "src"), str(c, s, "table"), str(c, s, "page"),
                              str(c, s, "section"), str(c, s, "cite")};
}

/* ---- registers */

static struct regc_value *values_of(struct conv *c, json_t *arr, uint64_t max, const char *path)
{
    struct regc_value *v = list(c, json_array_size(arr), sizeof(*v));
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x) v[i] = (struct regc_value){
        str(c, x, "name"), capped(c, hexv(x, "value"), max, path, "a named value"),
        boolv(x, "undefined"), str(c, x, "desc")};
    return v;
}

static struct regc_field *fields_of(struct conv *c, json_t *arr, unsigned width, const char *path)
{
    struct regc_field *f = list(c, json_array_size(arr), sizeof(*f));
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x)
    {
        char p[PATHLEN];
        at(p, path, "fields", i);
        f[i] = (struct regc_field){.name = str(c, x, "name"),
                                   .lsb = (uint8_t)uintv(x, "lsb"),
                                   .msb = (uint8_t)uintv(x, "msb"),
                                   .access_text = str(c, x, "access"),
                                   .reset = hexv(x, "reset"),
                                   .implicit = boolv(x, "implicit"),
                                   .desc = str(c, x, "desc")};
        /* a field read from SVD: 'access' is SVD's spelling ("read-write, oneToClear"), the
           attribute is svd.class (docs/json.md); the text is kept as the user knows it */
        json_t *svd = json_object_get(x, "svd");
        const char *cls = json_is_object(svd) ? str(c, svd, "class") : f[i].access_text;
        f[i].access = regc_access_parse(cls);
        /* write_constraint.kind "writeAsRead": a write must give the field the value read */
        const char *kind =
            json_string_value(json_object_get(json_object_get(x, "write_constraint"), "kind"));
        f[i].write_as_read = kind && strcmp(kind, "writeAsRead") == 0;
        if (f[i].access == REGC_ACCESS_UNKNOWN)
            err(c, p,
                "%s '%s' is not one regc knows (RW, RO, RO-V, WO, RW-V, RWS, RW1C, RW1S, "
                "RV, rsv, RV1, ig, gap, RW0C, RW0S, RW1T, RW0T, RWAC, RWAS, RWO, WOO)",
                cls == f[i].access_text ? "access" : "svd.class", cls);
        if (f[i].lsb > f[i].msb || f[i].msb >= width) {
            err(c, p, "bits %u:%u of field '%s' are not within the register's %u bits", f[i].msb,
                f[i].lsb, f[i].name, width);
            f[i].msb = f[i].lsb = 0;
        }
        uint64_t max = regc_num_max_bits((unsigned)(f[i].msb - f[i].lsb + 1));
        f[i].reset = capped(c, f[i].reset, max, p, "the reset value");
        f[i].values = values_of(c, json_object_get(x, "values"), max, p);
    }
    return f;
}

/* The field a rule names: the first one of that name that is not reserved (as regc resolves it). */
static const struct regc_field *rule_field(const struct regc_field *f, const char *name)
{
    for (; f->name; f++)
        if (!regc_sem_is_reserved(regc_access_sem(f->access)) && strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

/* A rule's expression through regc's parser (common/expr.h) into the runtime's postfix ops. */
static const struct regc_rule_op *rule_ops(struct conv *c, const char *text,
                                           const struct regc_field *fields, const char *path)
{
    struct expr_error e;
    struct expr *tree = expr_parse(c->a, text, &e);
    if (!tree) {
        err(c, path, "rule expression '%s', at column %zu: %s", text, e.offset + 1, e.message);
        return NULL;
    }
    struct expr_op *ops;
    size_t n = expr_to_rpn(c->a, tree, &ops);
    struct regc_rule_op *out = list(c, n, sizeof(*out)); /* the zero element is REGC_OP_END */
    for (size_t i = 0; i < n; i++) {
        out[i].op = (enum regc_op)(ops[i].op + 1); /* the same order, after REGC_OP_END */
        out[i].value = ops[i].op == EXPR_OP_CONST ? ops[i].value : 0;
        if (ops[i].op != EXPR_OP_FIELD)
            continue;
        const struct regc_field *f = rule_field(fields, ops[i].field);
        if (!f) {
            err(c, path, "rule expression '%s' names no field '%s' of the register", text,
                ops[i].field);
            return NULL;
        }
        out[i].lsb = f->lsb;
        out[i].width = (uint8_t)(f->msb - f->lsb + 1);
    }
    return out;
}

static struct regc_rule *rules_of(struct conv *c, json_t *arr, const struct regc_field *fields,
                                  const char *path)
{
    struct regc_rule *r = list(c, json_array_size(arr), sizeof(*r));
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x)
    {
        char p[PATHLEN];
        char rp[PATHLEN];
        at(rp, path, "rules", i);
        at(p, rp, "expr", (size_t)-1);
        r[i] = (struct regc_rule){str(c, x, "name"), str(c, x, "expr"), str(c, x, "message"),
                                  NULL, cite_of(c, x)};
        r[i].ops = rule_ops(c, r[i].expr, fields, p);
    }
    return r;
}

static struct regc_addr *addrs_of(struct conv *c, json_t *arr, const char *path)
{
    size_t n = json_array_size(arr), i;
    struct regc_addr *a = list(c, n, sizeof(*a));
    json_t *x;
    json_array_foreach(arr, i, x) a[i] = (struct regc_addr){
        str(c, x, "instance"),
        is_null(x, "index") ? -1 : (int)capped(c, uintv(x, "index"), INT_MAX, path, "an index"),
        hexv(x, "address")};
    a[n].index = REGC_ADDR_END;
    return a;
}

static void reg_of(struct conv *c, struct regc_reg *r, json_t *x, const char *path)
{
    const char *space = json_string_value(json_object_get(x, "space"));
    json_t *arr = json_object_get(x, "array"), *m = json_object_get(x, "masks");
    *r = (struct regc_reg){.name = str(c, x, "name"),
                           .written_name = str(c, x, "written_name"),
                           .space = strcmp(space, "pci") == 0    ? REGC_SPACE_PCI
                                    : strcmp(space, "mmio") == 0 ? REGC_SPACE_MMIO
                                                                 : REGC_SPACE_MSR,
                           .width = (uint8_t)uintv(x, "width"),
                           .size = (uint8_t)uintv(x, "size"),
                           .reset = hexv(x, "reset"),
                           .desc = str(c, x, "desc"),
                           .addrs = addrs_of(c, json_object_get(x, "instances"), path),
                           .cite = cite_of(c, x),
                           .mbz = hexv(m, "mbz"),
                           .ignored = hexv(m, "ignored"),
                           .ro = hexv(m, "ro"),
                           .wo = hexv(m, "wo"),
                           .w1c = hexv(m, "w1c"),
                           .w1s = hexv(m, "w1s"),
                           .writable = hexv(m, "writable")};
    if (json_is_object(arr)) {
        r->is_array = true;
        r->first = (unsigned)capped(c, uintv(arr, "first"), INT_MAX / 2, path, "the array's first");
        r->count = (unsigned)capped(c, uintv(arr, "count"), INT_MAX / 2, path, "the array's count");
        r->stride = hexv(arr, "stride");
    }
    if (r->width > r->size)
        err(c, path, "width %u is above the access size %u", r->width, r->size);
    r->reset = capped(c, r->reset, regc_num_max_bits(r->width), path, "the reset value");
    r->fields = fields_of(c, json_object_get(x, "fields"), r->width, path);
    r->rules = rules_of(c, json_object_get(x, "rules"), r->fields, path);
}

/* ---- events, pmon */

/* An array of names as a list ending with NULL; NULL when empty (as the tables write it). */
static const char *const *names_of(struct conv *c, json_t *arr)
{
    if (!json_array_size(arr))
        return NULL;
    const char **f = list(c, json_array_size(arr), sizeof(*f));
    size_t j;
    json_t *y;
    json_array_foreach(arr, j, y) f[j] = arena_strdup(c->a, json_string_value(y));
    return f;
}

static struct regc_event *events_of(struct conv *c, json_t *arr)
{
    struct regc_event *e = list(c, json_array_size(arr), sizeof(*e));
    size_t i, j;
    json_t *x, *y;
    json_array_foreach(arr, i, x)
    {
        json_t *sets = json_object_get(x, "sets"), *filters = json_object_get(x, "filters");
        e[i] = (struct regc_event){.name = str(c, x, "name"),
                                   .reg = str(c, x, "register"),
                                   .field = str(c, x, "field"),
                                   .umask_field = str(c, x, "umask_field"),
                                   .code = hexv(x, "code"),
                                   .has_umask = !is_null(x, "umask"),
                                   .umask = hexv(x, "umask"),
                                   .desc = str(c, x, "desc"),
                                   .perfmon = str(c, x, "perfmon")};
        e[i].combine_or = strcmp(json_string_value(json_object_get(x, "combine")), "or") == 0;
        json_array_foreach(json_object_get(x, "counters"), j, y) e[i].counters |=
            UINT64_C(1) << (json_integer_value(y) & 63);
        struct regc_set *s = list(c, json_array_size(sets), sizeof(*s));
        json_array_foreach(sets, j, y)
        {
            const char *reg = str(c, y, "register");
            s[j] = (struct regc_set){reg && strcmp(reg, e[i].reg) == 0 ? NULL : reg,
                                     str(c, y, "field"), hexv(y, "value")};
        }
        e[i].sets = s;
        e[i].filters = names_of(c, filters);
        e[i].unmodelled_filters = names_of(c, json_object_get(x, "unmodelled_filters"));
    }
    return e;
}

static enum regc_clear clear_of(json_t *o)
{
    const char *s = json_string_value(json_object_get(o, "clear"));
    return !s                          ? REGC_CLEAR_NONE
           : strcmp(s, "w1c") == 0      ? REGC_CLEAR_W1C
           : strcmp(s, "write0") == 0   ? REGC_CLEAR_WRITE0
           : strcmp(s, "register") == 0 ? REGC_CLEAR_REGISTER
                                        : REGC_CLEAR_NONE;
}

static struct regc_count_dir *directions_of(struct conv *c, json_t *arr)
{
    struct regc_count_dir *d = list(c, json_array_size(arr), sizeof(*d));
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x)
    {
        const char *s = json_string_value(json_object_get(x, "direction"));
        d[i].dir = strcmp(s, "down") == 0      ? REGC_DIR_DOWN
                   : strcmp(s, "up-down") == 0 ? REGC_DIR_UP_DOWN
                                               : REGC_DIR_UP;
        d[i].value = hexv(x, "value");
    }
    return d;
}

static struct regc_counters *counters_of(struct conv *c, json_t *arr, const char *path)
{
    struct regc_counters *k = list(c, json_array_size(arr), sizeof(*k));
    size_t i, j;
    json_t *x, *y;
    json_array_foreach(arr, i, x)
    {
        json_t *rdpmc = json_object_get(x, "rdpmc");
        k[i] = (struct regc_counters){
            .kind = str(c, x, "kind"), .control = str(c, x, "control"),
            .counter = str(c, x, "counter"), .count_field = str(c, x, "count_field"),
            .width = (unsigned)uintv(x, "width"),
            .overflow = strcmp(json_string_value(json_object_get(x, "overflow")), "stop") == 0
                            ? REGC_OVF_STOP
                            : REGC_OVF_WRAP,
            .wrap_field = str(c, x, "wrap_field"), .enable = str(c, x, "enable"),
            .reset = str(c, x, "reset"), .pmi = str(c, x, "pmi"), .edge = str(c, x, "edge"),
            .invert = str(c, x, "invert"), .threshold = str(c, x, "threshold"),
            .event = str(c, x, "event"), .umask = str(c, x, "umask"),
            .direction_field = str(c, x, "direction_field"),
            .directions = directions_of(c, json_object_get(x, "directions")),
            .preload = strcmp(json_string_value(json_object_get(x, "preload")), "2^w-1-N") == 0
                           ? REGC_PRELOAD_2W_MINUS_1_MINUS_N
                           : REGC_PRELOAD_2W_MINUS_N,
            .freeze_on_overflow = boolv(x, "freeze_on_overflow"),
            .has_status_first = !is_null(x, "status_first"),
            .status_first = (unsigned)capped(c, uintv(x, "status_first"), 63, path, "status_first")};
        struct regc_rdpmc *r = list(c, json_array_size(rdpmc), sizeof(*r));
        json_array_foreach(rdpmc, j, y) r[j] = (struct regc_rdpmc){
            str(c, y, "processor"), (int)capped(c, uintv(y, "first"), INT_MAX, path, "an rdpmc index"),
            boolv(y, "high_zero")};
        k[i].rdpmc = r;
    }
    return k;
}

static struct regc_filter *filters_of(struct conv *c, json_t *arr)
{
    if (!json_array_size(arr))
        return NULL;
    struct regc_filter *f = list(c, json_array_size(arr), sizeof(*f));
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x)
    {
        const char *m = json_string_value(json_object_get(x, "match"));
        f[i] = (struct regc_filter){str(c, x, "register"), str(c, x, "field"),
                                    strcmp(m, "mask") == 0       ? REGC_FILTER_MASK
                                    : strcmp(m, "equal") == 0    ? REGC_FILTER_EQUAL
                                    : strcmp(m, "at-least") == 0 ? REGC_FILTER_AT_LEAST
                                                                 : REGC_FILTER_SET,
                                    str(c, x, "traffic"), str(c, x, "perf"), str(c, x, "example"),
                                    str(c, x, "desc")};
    }
    return f;
}

static struct regc_unmodelled_filter *unmodelled_of(struct conv *c, json_t *arr)
{
    if (!json_array_size(arr))
        return NULL;
    struct regc_unmodelled_filter *f = list(c, json_array_size(arr), sizeof(*f));
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x) f[i] = (struct regc_unmodelled_filter){
        str(c, x, "name"), str(c, x, "what"), str(c, x, "desc")};
    return f;
}

static const struct regc_pmon *pmon_of(struct conv *c, json_t *p, const char *path)
{
    if (!json_is_object(p))
        return NULL;
    struct regc_pmon *m = arena_zalloc(c->a, sizeof(*m));
    json_t *bc = json_object_get(p, "box_control"), *bs = json_object_get(p, "box_status");
    m->counters = counters_of(c, json_object_get(p, "counters"), path);
    if (json_is_object(bc)) {
        struct regc_box_control *b = arena_zalloc(c->a, sizeof(*b));
        *b = (struct regc_box_control){str(c, bc, "register"), str(c, bc, "freeze"),
                                       str(c, bc, "freeze_enable"), str(c, bc, "reset_counters"),
                                       str(c, bc, "reset_controls"), str(c, bc, "enable")};
        m->box_control = b;
    }
    if (json_is_object(bs)) {
        struct regc_box_status *b = arena_zalloc(c->a, sizeof(*b));
        *b = (struct regc_box_status){str(c, bs, "register"), str(c, bs, "overflow"), clear_of(bs),
                                      str(c, bs, "clear_register"), str(c, bs, "clear_field")};
        m->box_status = b;
    }
    m->filters = filters_of(c, json_object_get(p, "filters"));
    m->unmodelled_filters = unmodelled_of(c, json_object_get(p, "unmodelled_filters"));
    return m;
}

static struct regc_instance *instances_of(struct conv *c, json_t *arr, const char *path)
{
    struct regc_instance *in = list(c, json_array_size(arr), sizeof(*in));
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x)
    {
        json_t *pci = json_object_get(x, "pci");
        in[i] = (struct regc_instance){.name = str(c, x, "name"),
                                       .has_base = !is_null(x, "base"),
                                       .base = hexv(x, "base")};
        if (json_is_object(pci)) {
            in[i].has_pci = true;
            in[i].pci = (struct regc_pci_loc){
                (uint16_t)capped(c, hexv(pci, "vendor"), 0xffff, path, "a PCI vendor id"),
                (uint16_t)capped(c, hexv(pci, "device"), 0xffff, path, "a PCI device id"),
                is_null(pci, "dev") ? REGC_PCI_ANY : (uint8_t)uintv(pci, "dev"),
                is_null(pci, "func") ? REGC_PCI_ANY : (uint8_t)uintv(pci, "func")};
        }
    }
    return in;
}

static struct regc_block *blocks_of(struct conv *c, json_t *arr)
{
    struct regc_block *b = list(c, json_array_size(arr), sizeof(*b));
    size_t i, j;
    json_t *x, *y;
    json_array_foreach(arr, i, x)
    {
        char p[PATHLEN];
        json_t *regs = json_object_get(x, "registers");
        struct regc_reg *r = list(c, json_array_size(regs), sizeof(*r));
        json_array_foreach(regs, j, y)
        {
            char rp[PATHLEN];
            at(p, "$", "blocks", i);
            at(rp, p, "registers", j);
            reg_of(c, &r[j], y, rp);
        }
        at(p, "$", "blocks", i);
        b[i] = (struct regc_block){str(c, x, "name"), str(c, x, "title"), str(c, x, "desc"),
                                   instances_of(c, json_object_get(x, "instances"), p), r,
                                   events_of(c, json_object_get(x, "events")),
                                   pmon_of(c, json_object_get(x, "pmon"), p)};
    }
    return b;
}

static const struct regc_pmon_global *global_of(struct conv *c, json_t *g)
{
    if (!json_is_object(g))
        return NULL;
    struct regc_pmon_global *pg = arena_zalloc(c->a, sizeof(*pg));
    json_t *ctl = json_object_get(g, "control"), *st = json_object_get(g, "status"), *y;
    size_t j;
    if (json_is_object(ctl)) {
        struct regc_global_control *k = arena_zalloc(c->a, sizeof(*k));
        json_t *cores = json_object_get(ctl, "pmi_core_fields");
        *k = (struct regc_global_control){
            str(c, ctl, "block"),   str(c, ctl, "register"), str(c, ctl, "freeze"),
            str(c, ctl, "unfreeze"), str(c, ctl, "enable"), str(c, ctl, "freeze_on_overflow"),
            str(c, ctl, "pmi_core"), str(c, ctl, "wake"),   str(c, ctl, "reset"),
            str(c, ctl, "select"),   NULL};
        k->pmi_cores = names_of(c, cores);
        pg->control = k;
    }
    if (json_is_object(st)) {
        struct regc_global_status *k = arena_zalloc(c->a, sizeof(*k));
        json_t *boxes = json_object_get(st, "boxes");
        struct regc_box_overflow *bo = list(c, json_array_size(boxes), sizeof(*bo));
        json_array_foreach(boxes, j, y) bo[j] = (struct regc_box_overflow){
            str(c, y, "block"), str(c, y, "field"), str(c, y, "instance"), str(c, y, "counters")};
        *k = (struct regc_global_status){str(c, st, "block"), str(c, st, "register"), clear_of(st),
                                         str(c, st, "clear_register"), str(c, st, "clear_field"),
                                         bo};
        pg->status = k;
    }
    return pg;
}

/* ---- metrics */

static enum regc_mop mop_of(const char *name)
{
    static const struct {
        const char *name;
        enum regc_mop op;
    } ops[] = {{"num", REGC_MOP_NUM}, {"event", REGC_MOP_EVENT}, {"seconds", REGC_MOP_SECONDS},
               {"add", REGC_MOP_ADD}, {"sub", REGC_MOP_SUB},     {"mul", REGC_MOP_MUL},
               {"div", REGC_MOP_DIV}}; /* the schema's metric_op names */
    for (size_t i = 0; name && i < sizeof(ops) / sizeof(ops[0]); i++)
        if (strcmp(ops[i].name, name) == 0)
            return ops[i].op;
    return REGC_MOP_END;
}

/* A term's settings as the tables write them: ",FIELD=0xV" (the control register's) or
 * ",REGISTER.FIELD=0xV", in the order written; NULL when none. */
static const char *metric_settings_of(struct conv *c, json_t *arr)
{
    const char *text = NULL;
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x)
    {
        const char *reg = json_string_value(json_object_get(x, "register"));
        text = arena_printf(c->a, "%s,%s%s%s=0x%llx", text ? text : "", reg ? reg : "",
                            reg ? "." : "", json_string_value(json_object_get(x, "field")),
                            (unsigned long long)hexv(x, "value"));
    }
    return text;
}

static struct regc_metric_event *metric_events_of(struct conv *c, json_t *arr)
{
    struct regc_metric_event *e = list(c, json_array_size(arr), sizeof(*e));
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x) e[i] = (struct regc_metric_event){
        str(c, x, "block"), str(c, x, "instance"), str(c, x, "event"), str(c, x, "text"),
        metric_settings_of(c, json_object_get(x, "settings"))};
    return e;
}

static struct regc_metric_op *metric_ops_of(struct conv *c, json_t *arr, const char *path)
{
    struct regc_metric_op *o = list(c, json_array_size(arr), sizeof(*o)); /* ends REGC_MOP_END */
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x)
    {
        o[i].op = mop_of(json_string_value(json_object_get(x, "op")));
        if (o[i].op == REGC_MOP_END)
            err(c, path, "op %zu is none regctl evaluates", i);
        if (o[i].op == REGC_MOP_NUM)
            o[i].value = json_number_value(json_object_get(x, "value"));
        if (o[i].op == REGC_MOP_EVENT)
            o[i].term = (unsigned)capped(c, uintv(x, "term"), UINT_MAX, path, "a term");
    }
    return o;
}

static const struct regc_metric *metrics_of(struct conv *c, json_t *arr)
{
    struct regc_metric *m = list(c, json_array_size(arr), sizeof(*m));
    size_t i;
    json_t *x;
    json_array_foreach(arr, i, x)
    {
        char p[PATHLEN];
        at(p, "$", "metrics", i);
        m[i] = (struct regc_metric){.name = str(c, x, "name"),
                                    .formula = str(c, x, "formula"),
                                    .unit = str(c, x, "unit"),
                                    .desc = str(c, x, "desc"),
                                    .scale = json_number_value(json_object_get(x, "scale")),
                                    .events = metric_events_of(c, json_object_get(x, "events")),
                                    .ops = metric_ops_of(c, json_object_get(x, "rpn"), p),
                                    .cite = cite_of(c, x)};
    }
    return m;
}

static void spec_of(struct conv *c, struct regc_spec *s, json_t *doc)
{
    json_t *sp = json_object_get(doc, "spec"), *x;
    json_t *sources = json_object_get(sp, "sources"), *cpus = json_object_get(sp, "cpus");
    size_t i;
    s->name = str(c, sp, "name");
    s->prefix = str(c, sp, "prefix");
    s->title = str(c, sp, "title");
    s->version = arena_printf(c->a, "%llu", (unsigned long long)uintv(sp, "version"));
    struct regc_source *src = list(c, json_array_size(sources), sizeof(*src));
    json_array_foreach(sources, i, x) src[i] = (struct regc_source){
        str(c, x, "id"), str(c, x, "title"), str(c, x, "ref"),
        str(c, x, "rev"), str(c, x, "date"), str(c, x, "url")};
    s->sources = src;
    struct regc_cpu *cp = list(c, json_array_size(cpus), sizeof(*cp));
    json_array_foreach(cpus, i, x) cp[i] = (struct regc_cpu){
        str(c, x, "vendor"), (unsigned)capped(c, uintv(x, "family"), UINT_MAX, "$.spec.cpus", "a family"),
        (unsigned)capped(c, uintv(x, "model"), UINT_MAX, "$.spec.cpus", "a model"), str(c, x, "name"),
        cite_of(c, x)};
    s->cpus = cp;
    s->blocks = blocks_of(c, json_object_get(doc, "blocks"));
    s->pmon_global = global_of(c, json_object_get(doc, "pmon_global"));
    s->metrics = metrics_of(c, json_object_get(doc, "metrics"));
}

/* ---- what the runtime relies on: every name found where it is looked up */

static const struct regc_reg *need_reg(struct conv *c, const struct regc_block *b,
                                       const char *name, const char *path, const char *what)
{
    const struct regc_reg *r = name ? regc_block_reg(b, name) : NULL;
    if (name && !r)
        err(c, path, "%s '%s' is no register of block '%s'", what, name, b->name);
    return r;
}

static const struct regc_field *need_field(struct conv *c, const struct regc_reg *r,
                                           const char *name, const char *path, const char *what)
{
    const struct regc_field *f = r && name ? regc_reg_field(r, name) : NULL;
    if (r && name && !f)
        err(c, path, "%s '%s' is no field of register '%s'", what, name, r->name);
    return f;
}

/* A value the event writes into field f: it must fit (regc_field_put would cut it). */
static void need_fit(struct conv *c, const struct regc_field *f, uint64_t v, const char *path)
{
    if (f && v > regc_num_max_bits((unsigned)(f->msb - f->lsb + 1)))
        err(c, path, "0x%llx does not fit field '%s' [%u:%u]", (unsigned long long)v, f->name,
            f->msb, f->lsb);
}

static void check_addrs(struct conv *c, const struct regc_block *b, const struct regc_reg *r,
                        const char *path)
{
    bool named = b->instances && b->instances->name;
    for (const struct regc_addr *a = r->addrs; a->index != REGC_ADDR_END; a++) {
        if (a->instance ? !regc_block_instance(b, a->instance) : named)
            err(c, path, "copy at 0x%llx names %s '%s'", (unsigned long long)a->address,
                a->instance ? "no instance of the block" : "no instance, where the block has them",
                a->instance ? a->instance : "");
        if (r->is_array ? a->index < (int)r->first || a->index >= (int)(r->first + r->count)
                        : a->index != -1)
            err(c, path, "copy at 0x%llx has index %d, outside the register's array",
                (unsigned long long)a->address, a->index);
    }
}

static void check_event(struct conv *c, const struct regc_block *b, const struct regc_event *e,
                        const char *path)
{
    const struct regc_reg *r = need_reg(c, b, e->reg, path, "register");
    need_fit(c, need_field(c, r, e->field, path, "field"), e->code, path);
    const struct regc_field *um = need_field(c, r, e->umask_field, path, "umask_field");
    if (e->has_umask)
        need_fit(c, um, e->umask, path);
    for (const struct regc_set *s = e->sets; s->field; s++)
        need_fit(c,
                 need_field(c, s->reg ? need_reg(c, b, s->reg, path, "a setting's register") : r,
                            s->field, path, "a setting's field"),
                 s->value, path);
    for (const char *const *f = e->filters; f && *f; f++)
        if (!regc_block_filter(b, *f))
            err(c, path, "filter '%s' is none of the block's pmon filters", *f);
    for (const char *const *f = e->unmodelled_filters; f && *f; f++)
        if (!regc_block_unmodelled_filter(b, *f))
            err(c, path, "unmodelled filter '%s' is none of the block's pmon unmodelled_filters",
                *f);
}

static void check_counters(struct conv *c, const struct regc_block *b,
                           const struct regc_counters *k, const char *path)
{
    const struct regc_reg *ctl = need_reg(c, b, k->control, path, "control");
    const struct regc_reg *ctr = need_reg(c, b, k->counter, path, "counter");
    const char *roles[] = {k->wrap_field, k->enable, k->reset,     k->pmi,   k->edge,
                           k->invert,     k->threshold, k->event, k->umask, k->direction_field};
    for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
        need_field(c, ctl, roles[i], path, "role");
    need_field(c, ctr, k->count_field, path, "count_field");
}

static void check_pmon(struct conv *c, const struct regc_block *b, const char *path)
{
    const struct regc_pmon *p = b->pmon;
    char q[PATHLEN];
    for (const struct regc_counters *k = p->counters; k->control; k++) {
        at(q, path, "counters", (size_t)(k - p->counters));
        check_counters(c, b, k, q);
    }
    if (p->box_control) {
        const struct regc_box_control *bc = p->box_control;
        const struct regc_reg *r = need_reg(c, b, bc->reg, path, "box_control register");
        const char *roles[] = {bc->freeze, bc->freeze_enable, bc->reset_counters,
                               bc->reset_controls, bc->enable};
        for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
            need_field(c, r, roles[i], path, "box_control role");
    }
    if (p->box_status) {
        const struct regc_box_status *bs = p->box_status;
        const struct regc_reg *r = need_reg(c, b, bs->reg, path, "box_status register");
        need_field(c, r, bs->overflow, path, "box_status overflow");
        const struct regc_reg *cr = need_reg(c, b, bs->clear_reg, path, "clear register");
        need_field(c, cr ? cr : r, bs->clear_field, path, "clear_field");
    }
    for (const struct regc_filter *f = p->filters; f && f->reg; f++)
        need_field(c, need_reg(c, b, f->reg, path, "filter register"), f->field, path, "filter");
}

static void check_block(struct conv *c, const struct regc_block *b, size_t bi)
{
    char p[PATHLEN], q[PATHLEN];
    at(p, "$", "blocks", bi);
    for (const struct regc_reg *r = b->regs; r->name; r++) {
        at(q, p, "registers", (size_t)(r - b->regs));
        check_addrs(c, b, r, q);
    }
    for (const struct regc_event *e = b->events; e->name; e++) {
        at(q, p, "events", (size_t)(e - b->events));
        check_event(c, b, e, q);
    }
    if (b->pmon) {
        at(q, p, "pmon", (size_t)-1);
        check_pmon(c, b, q);
    }
}

static void check_global(struct conv *c, const struct regc_spec *s)
{
    const struct regc_pmon_global *g = s->pmon_global;
    const struct regc_global_control *k = g ? g->control : NULL;
    const struct regc_global_status *st = g ? g->status : NULL;
    if (k) {
        const char *p = "$.pmon_global.control";
        const struct regc_block *b = regc_spec_block(s, k->block);
        const struct regc_reg *r = b ? need_reg(c, b, k->reg, p, "register") : NULL;
        const char *roles[] = {k->freeze,   k->unfreeze, k->enable, k->freeze_on_overflow,
                               k->pmi_core, k->wake,     k->reset,  k->select};
        if (!b)
            err(c, p, "block '%s' is no block of the spec", k->block);
        for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
            need_field(c, r, roles[i], p, "role");
        for (const char *const *f = k->pmi_cores; f && *f; f++)
            need_field(c, r, *f, p, "pmi_core_fields");
    }
    if (st) {
        const char *p = "$.pmon_global.status";
        const struct regc_block *b = regc_spec_block(s, st->block);
        const struct regc_reg *r = b ? need_reg(c, b, st->reg, p, "register") : NULL;
        if (!b)
            err(c, p, "block '%s' is no block of the spec", st->block);
        for (const struct regc_box_overflow *o = st->boxes; o->block; o++) {
            const struct regc_block *ob = regc_spec_block(s, o->block);
            need_field(c, r, o->field, p, "a box's overflow");
            if (!ob)
                err(c, p, "a box's block '%s' is no block of the spec", o->block);
            else if (o->instance && !regc_block_instance(ob, o->instance))
                err(c, p, "instance '%s' is no instance of block '%s'", o->instance, o->block);
        }
    }
}

/* A metric's events name the spec's events; its postfix ops leave one value on a stack of
 * REGC_METRIC_STACK, each term one of its events (what regc_metric_eval() relies on). */
static void check_metric(struct conv *c, const struct regc_spec *s, const struct regc_metric *m,
                         const char *path)
{
    size_t nev = regc_metric_nevents(m), depth = 0, i = 0;
    for (const struct regc_metric_event *e = m->events; e->block; e++) {
        const struct regc_block *b = regc_spec_block(s, e->block);
        if (!b)
            err(c, path, "event '%s': block '%s' is no block of the spec", e->text, e->block);
        else if (e->instance && !regc_block_instance(b, e->instance))
            err(c, path, "event '%s': '%s' is no instance of block '%s'", e->text, e->instance,
                e->block);
        else if (!regc_block_event(b, e->event))
            err(c, path, "event '%s': '%s' is no event of block '%s'", e->text, e->event, e->block);
    }
    for (const struct regc_metric_op *o = m->ops; o->op != REGC_MOP_END; o++, i++) {
        bool push = o->op == REGC_MOP_NUM || o->op == REGC_MOP_EVENT || o->op == REGC_MOP_SECONDS;
        if (o->op == REGC_MOP_EVENT && o->term >= nev)
            err(c, path, "rpn[%zu]: term %u, where the metric has %zu events", i, o->term, nev);
        if (!push && depth < 2) {
            err(c, path, "rpn[%zu]: an operator with fewer than two operands", i);
            return;
        }
        depth = push ? depth + 1 : depth - 1;
        if (depth > REGC_METRIC_STACK) {
            err(c, path, "rpn[%zu]: more than %d operands pending", i, REGC_METRIC_STACK);
            return;
        }
    }
    if (depth != 1)
        err(c, path, "rpn leaves %zu values, where a formula leaves one", depth);
}

static void check_spec(struct conv *c, const struct regc_spec *s)
{
    char p[PATHLEN];
    for (const struct regc_block *b = s->blocks; b->name; b++)
        check_block(c, b, (size_t)(b - s->blocks));
    check_global(c, s);
    for (const struct regc_metric *m = s->metrics; m->name; m++) {
        at(p, "$", "metrics", (size_t)(m - s->metrics));
        check_metric(c, s, m, p);
    }
}

/* ---- the file */

static json_t *parse(const char *path, const char *shown)
{
    json_error_t je;
    json_t *doc;
    if (strcmp(path, "-") == 0) {
        doc = json_loadf(stdin, JSON_REJECT_DUPLICATES, &je);
    } else {
        int fd = regctl_open_trusted(path, "--spec");
        if (fd < 0)
            return NULL;
        doc = json_loadfd(fd, JSON_REJECT_DUPLICATES, &je);
        close(fd);
    }
    if (!doc)
        fprintf(stderr, "regctl: %s:%d:%d: %s\n", shown, je.line, je.column, je.text);
    return doc;
}

/* The model's schema, parsed once. NULL (and a message) when the embedded text is broken. */
static json_t *schema(void)
{
    json_error_t je;
    json_t *s = json_loadb(regc_model_schema, regc_model_schema_len, 0, &je);
    if (!s)
        fprintf(stderr, "regctl: the built-in model schema: %d:%d: %s\n", je.line, je.column,
                je.text);
    return s;
}

static int validate(json_t *doc, const char *shown)
{
    json_t *s = schema();
    struct jschema_errors errs;
    int rc = s ? jschema_validate(s, doc, &errs) : -1;
    json_decref(s);
    if (rc < 0 && s)
        fprintf(stderr, "regctl: the built-in model schema: %s\n", errs.text[0]);
    for (unsigned i = 0; rc > 0 && i < errs.n && i < JSCHEMA_MAX_ERRORS; i++)
        fprintf(stderr, "regctl: %s: %s\n", shown, errs.text[i]);
    if (rc > 0)
        fprintf(stderr, "regctl: %s: %u error%s against the JSON model's schema "
                        "(docs/regc-model.schema.json)%s\n",
                shown, errs.n, errs.n == 1 ? "" : "s",
                errs.n > JSCHEMA_MAX_ERRORS ? "; the first 20 shown" : "");
    return rc == 0 ? 0 : 1;
}

static struct arena tables; /* every spec loaded */

void regctl_spec_release(void)
{
    arena_release(&tables);
}

int regctl_spec_load(const char *path, const struct regc_spec **out)
{
    struct arena *a = &tables;
    const char *shown = strcmp(path, "-") == 0 ? "<stdin>" : path;
    json_t *doc = parse(path, shown);
    if (!doc)
        return 1;
    if (validate(doc, shown)) {
        json_decref(doc);
        return 1;
    }
    struct conv c = {a, shown, 0};
    struct regc_spec *s = arena_zalloc(a, sizeof(*s));
    spec_of(&c, s, doc);
    json_decref(doc);
    check_spec(&c, s);
    if (c.nerr)
        return regctl_fail(1, "%s: %u error%s in the spec", shown, c.nerr, c.nerr == 1 ? "" : "s");
    *out = s;
    return 0;
}
