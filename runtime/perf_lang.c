/*
 * perf_lang - perf's event language as regc's (docs/monitoring.md, "perf's language"):
 *
 *   uncore_ubox/event=0x42,umask=0x08/    a perf event string: the PMU names the block and its
 *                                         instance as the kernel names them (uncore.c
 *                                         uncore_pmu_register: uncore_<type>[_<n>]); the terms
 *                                         are the kernel's format names for that PMU
 *   UNC_U_EVENT_MSG.DOORBELL_RCVD         perfmon's EventName (perf's alias), any case
 *   cbox[c3]:unc_c_clockticks             the same on a chosen box; regc's names in any case
 *
 * A perf string's terms build the config words exactly as perf does (regc_perf_encode, the
 * same code the perf backend uses), which regc__perf_decode turns back into the control value
 * and the filter registers' fields. When those equal an event of the block's tables (its full
 * encoding and its settings on other registers) the event is used by name; otherwise a raw
 * event with those fields set. Nothing here depends on the backend: the formats are built in,
 * as the kernel defines them, so a string means the same on the simulator, msr, pci and perf.
 */
#include "internal.h"
#include "regc/detect.h"
#include "kpmu.h"
#include "regc/perf.h"
#include "regc/regc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * The kernel's format attributes per uncore type (what sysfs shows in the format directory of
 * each PMU uncore_<type>[_<n>]): arch/x86/events/intel/uncore_snbep.c
 * (torvalds/linux 0378c93a92e226d99f4672e66fe4c08ee7b19e2d): snbep_uncore_{ubox,cbox,pcu,qpi}
 * _formats_attr and snbep_uncore_formats_attr (HA, iMC, R2PCIe, R3QPI) for the E5-2600,
 * ivbep_uncore_{ubox,cbox,pcu,qpi}_formats_attr and ivbep_uncore_formats_attr (HA, iMC, IRP,
 * R2PCIe, R3QPI) for the E5-2600 v2; arch/x86/events/intel/uncore_snb.c snb_uncore_formats_attr
 * (cmask5) for the Sandy Bridge client C-Box and ARB. tests/runtime/data/perf-formats/
 * {snbep,ivbep}.txt state the same per PMU; tests/runtime/test_perf_lang.c compares them.
 */
#define EV_UMASK "event=config:0-7 umask=config:8-15 edge=config:18 "
#define FILTER_BANDS                                                                               \
    " filter_band0=config1:0-7 filter_band1=config1:8-15 filter_band2=config1:16-23"              \
    " filter_band3=config1:24-31"
#define QPI_MATCH_MASK                                                                             \
    " match_rds=config1:48-51 match_rnid30=config1:32-35 match_rnid4=config1:31"                  \
    " match_dnid=config1:13-17 match_mc=config1:9-12 match_opc=config1:5-8 match_vnw=config1:3-4" \
    " match0=config1:0-31 match1=config1:32-63 mask_rds=config2:48-51 mask_rnid30=config2:32-35"  \
    " mask_rnid4=config2:31 mask_dnid=config2:13-17 mask_mc=config2:9-12 mask_opc=config2:5-8"    \
    " mask_vnw=config2:3-4 mask0=config2:0-31 mask1=config2:32-63"

/* NAME=CONFIG, space-separated; ivbep_uncore_ubox_formats_attr is snbep's */
static const char snbep_ubox[] = EV_UMASK "inv=config:23 thresh=config:24-28";
static const char snbep_cbox[] = EV_UMASK "tid_en=config:19 inv=config:23 thresh=config:24-31"
                                          " filter_tid=config1:0-4 filter_nid=config1:10-17"
                                          " filter_state=config1:18-22 filter_opc=config1:23-31";
static const char snbep_pcu[] = "event=config:0-7 occ_sel=config:14-15 edge=config:18"
                                " inv=config:23 thresh=config:24-28 occ_invert=config:30"
                                " occ_edge=config:14-51" FILTER_BANDS;
static const char snbep_common[] = EV_UMASK "inv=config:23 thresh=config:24-31";
static const char snbep_qpi[] = "event=config:0-7,21 umask=config:8-15 edge=config:18"
                                " inv=config:23 thresh=config:24-31" QPI_MATCH_MASK;
static const char ivbep_cbox[] = EV_UMASK "tid_en=config:19 thresh=config:24-31"
                                          " filter_tid=config1:0-4 filter_link=config1:5-8"
                                          " filter_state=config1:17-22 filter_nid=config1:32-47"
                                          " filter_opc=config1:52-60 filter_nc=config1:62"
                                          " filter_c6=config1:61 filter_isoc=config1:63";
static const char ivbep_pcu[] = "event=config:0-7 occ_sel=config:14-15 edge=config:18"
                                " thresh=config:24-28 occ_invert=config:30"
                                " occ_edge=config:14-51" FILTER_BANDS;
static const char ivbep_qpi[] = "event=config:0-7,21 umask=config:8-15 edge=config:18"
                                " thresh=config:24-31" QPI_MATCH_MASK;
static const char snb_common[] = EV_UMASK "inv=config:23 cmask=config:24-28";

static const struct {
    const char *spec, *type; /* the spec's block is the kernel's type */
    const char *formats;
} builtin[] = {
    {"e5_2600", "ubox", snbep_ubox},       {"e5_2600", "cbox", snbep_cbox},
    {"e5_2600", "pcu", snbep_pcu},         {"e5_2600", "ha", snbep_common},
    {"e5_2600", "imc", snbep_common},      {"e5_2600", "r2pcie", snbep_common},
    {"e5_2600", "r3qpi", snbep_common},    {"e5_2600", "qpi", snbep_qpi},
    {"e5_2600v2", "ubox", snbep_ubox},     {"e5_2600v2", "cbox", ivbep_cbox},
    {"e5_2600v2", "pcu", ivbep_pcu},       {"e5_2600v2", "ha", snbep_common},
    {"e5_2600v2", "imc", snbep_common},    {"e5_2600v2", "irp", snbep_common},
    {"e5_2600v2", "r2pcie", snbep_common}, {"e5_2600v2", "r3qpi", snbep_common},
    {"e5_2600v2", "qpi", ivbep_qpi},       {"snb_client", "cbox", snb_common},
    {"snb_client", "arb", snb_common},
};

#define MAX_TERMS 16
#define MAX_SETS 16

static const char *formats_of(const struct regc_spec *s, const char *type)
{
    for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++)
        if (strcmp(builtin[i].spec, s->name) == 0 && strcmp(builtin[i].type, type) == 0)
            return builtin[i].formats;
    return NULL;
}

/* The formats of block b's PMU: its own type's, or those of the type serving its fixed counter. */
static const char *block_formats(const struct regc_spec *s, const struct regc_block *b)
{
    const struct regc_kpmu_fixed_host *h = regc_kpmu_fixed_host(s->name, b->name);
    return formats_of(s, h ? h->type : b->name);
}

/* The host serving a fixed counter of spec s from a PMU of kernel type 'type', or NULL. */
static const struct regc_kpmu_fixed_host *host_of_type(const struct regc_spec *s, const char *type)
{
    for (const struct regc_block *b = s->blocks; b->name; b++) {
        const struct regc_kpmu_fixed_host *h = regc_kpmu_fixed_host(s->name, b->name);
        if (h && strcmp(h->type, type) == 0)
            return h;
    }
    return NULL;
}

/* Appends printf text to out at *at; false when it does not fit. */
static bool add(char *out, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool add(char *out, size_t len, size_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = *at < len ? vsnprintf(out + *at, len - *at, fmt, ap) : -1;
    va_end(ap);
    if (n < 0 || *at + (size_t)n >= len)
        return false;
    *at += (size_t)n;
    return true;
}

/* "block[inst]:" of box (b, inst), or "block:" for a block without instances. */
static bool target(char *out, size_t len, size_t *at, const struct regc_block *b,
                   const struct regc_instance *inst)
{
    return inst && inst->name ? add(out, len, at, "%s[%s]:", b->name, inst->name)
                              : add(out, len, at, "%s:", b->name);
}

/* The event of b named 'name' in any case, or whose perfmon name it is. */
static const struct regc_event *event_named(const struct regc_block *b, const char *name)
{
    for (const struct regc_event *e = b->events; e && e->name; e++)
        if (strcasecmp(e->name, name) == 0 || (e->perfmon && strcasecmp(e->perfmon, name) == 0))
            return e;
    return NULL;
}

/* ---- PMU/terms/ */

/* The box the kernel names 'pmu'; false when none. */
static bool box_of(const struct regc_spec *s, const char *pmu, const struct regc_block **bo,
                   const struct regc_instance **io)
{
    char name[96];
    for (const struct regc_block *b = s->blocks; b->name; b++) {
        if (!b->pmon || regc_kpmu_fixed_host(s->name, b->name))
            continue; /* a hosted fixed counter: its host's PMU is the host type's box */
        unsigned n = regc_block_ninstances(b);
        for (unsigned i = 0; i < (n ? n : 1); i++) {
            struct regc_ref r = {.spec = s, .block = b, .instance = n ? &b->instances[i] : NULL};
            regc__perf_pmu_name(&r, name, sizeof(name));
            if (strcmp(name, pmu) == 0) {
                *bo = b;
                *io = r.instance;
                return true;
            }
        }
    }
    return false;
}

/* ---- issue 28 (h28s): regc/detect.h */
bool regc_perf_pmu_box(const struct regc_spec *s, const char *pmu, const struct regc_block **b,
                       const struct regc_instance **inst)
{
    return box_of(s, pmu, b, inst);
}
/* ---- end issue 28 (h28s) */

/* "uncore_ubox, uncore_cbox_0..7, ..." for a message. */
static void pmu_list(const struct regc_spec *s, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (const struct regc_block *b = s->blocks; b->name; b++) {
        unsigned n = regc_block_ninstances(b);
        if (!b->pmon || !formats_of(s, b->name))
            continue;
        bool ok = n > 1 ? add(buf, len, &at, "%suncore_%s_0..%u", at ? ", " : "", b->name, n - 1)
                        : add(buf, len, &at, "%suncore_%s", at ? ", " : "", b->name);
        if (!ok)
            break;
    }
}

/* Do event e's settings on other registers equal sets[0..n)? */
static bool same_sets(const struct regc_event *e, const char *control,
                      const struct regc_perf_setting *sets, size_t n)
{
    size_t k = 0;
    for (const struct regc_set *s = e->sets; s && s->field; s++) {
        if (!s->reg || strcmp(s->reg, control) == 0)
            continue; /* on its control: in the encoding */
        bool found = false;
        for (size_t i = 0; i < n && !found; i++)
            found = strcmp(sets[i].reg->name, s->reg) == 0 &&
                    strcmp(sets[i].field->name, s->field) == 0 && sets[i].value == s->value;
        if (!found)
            return false;
        k++;
    }
    return k == n;
}

static const struct regc_event *matching_event(const struct regc_block *b, const char *control,
                                               uint64_t ctl, const struct regc_perf_setting *sets,
                                               size_t n)
{
    for (const struct regc_event *e = b->events; e && e->name; e++) {
        uint64_t v, m;
        if (strcmp(e->reg, control) == 0 && regc_event_encoding(b, e, &v, &m) == 0 && v == ctl &&
            same_sets(e, control, sets, n))
            return e;
    }
    return NULL;
}

/* A field the spec reserves (RV/MBZ, ignored, or a gap): no term may set it. */
static int reserved(const struct regc_reg *r, const struct regc_field *f, uint64_t v,
                    const char *in, char *err, size_t errlen)
{
    enum regc_sem sem = regc_field_sem(f);
    if (v && (f->implicit || sem == REGC_SEM_MBZ || sem == REGC_SEM_IG))
        return regc__err(err, errlen, -EINVAL,
                         "'%s': the terms set bits [%u:%u] of '%s', which the spec reserves "
                         "('%s'): the kernel's format and the spec disagree there",
                         in, f->msb, f->lsb, r->name, f->name);
    return 0;
}

/* The raw event: reg=CONTROL and each field the control value and the settings give. */
static int raw_terms(const struct regc_reg *r, uint64_t ctl, const struct regc_perf_setting *sets,
                     size_t n, const char *in, char *out, size_t len, size_t *at, char *err,
                     size_t errlen)
{
    bool ok = add(out, len, at, "raw,reg=%s", r->name);
    uint64_t left = ctl;
    for (const struct regc_field *f = r->fields; f->name && ok; f++) {
        uint64_t v = regc_field_get(f, ctl);
        left &= ~regc_field_mask(f);
        int rc = reserved(r, f, v, in, err, errlen);
        if (rc)
            return rc;
        if (v)
            ok = add(out, len, at, ",%s=0x%llx", f->name, (unsigned long long)v);
    }
    if (left)
        return regc__err(err, errlen, -EINVAL, "'%s': config bits 0x%llx are no field of '%s'", in,
                         (unsigned long long)left, r->name);
    for (size_t i = 0; i < n && ok; i++) {
        int rc = reserved(sets[i].reg, sets[i].field, sets[i].value, in, err, errlen);
        if (rc)
            return rc;
        ok = add(out, len, at, ",%s.%s=0x%llx", sets[i].reg->name, sets[i].field->name,
                 (unsigned long long)sets[i].value);
    }
    return ok ? 0 : regc__err(err, errlen, -ENOSPC, "'%s': too many terms", in);
}

/* Splits "a=1,b,c=0x2" into terms; a term without a value is 1 (perf's rule for flags). */
static int split_terms(char *text, struct regc_perf_term *t, size_t *n, const char **bare,
                       const char *in, char *err, size_t errlen)
{
    *n = 0;
    *bare = NULL;
    for (char *s = text, *next; s && *s; s = next) {
        next = strchr(s, ',');
        if (next)
            *next++ = '\0';
        char *eq = strchr(s, '=');
        uint64_t v = 1;
        if (eq) {
            char why[96];
            *eq++ = '\0';
            if (regc_num_parse(eq, REGC_NUM_NUL, 0, UINT64_MAX, 0, &v, why, sizeof(why)))
                return regc__err(err, errlen, -EINVAL, "'%s': value '%s' for term '%s': %s", in, eq,
                                 s, why);
        }
        if (!*s)
            return regc__err(err, errlen, -EINVAL, "'%s': a term without a name", in);
        if (*n == MAX_TERMS)
            return regc__err(err, errlen, -ENOSPC, "'%s': more than %d terms", in, MAX_TERMS);
        if (!eq && !*bare)
            *bare = s; /* perhaps an event name: decided once the formats are known */
        t[(*n)++] = (struct regc_perf_term){s, v};
    }
    return 0;
}

/* config=, config1=, config2= set a word whole, as in perf. */
static int config_word(const char *name)
{
    return strcmp(name, "config") == 0    ? 0
           : strcmp(name, "config1") == 0 ? 1
           : strcmp(name, "config2") == 0 ? 2
                                          : -1;
}

static int encode(const struct regc_perf_pmu *pmu, const struct regc_perf_term *t, size_t n,
                  uint64_t config[3], const char *in, char *err, size_t errlen)
{
    struct regc_perf_term fmt[MAX_TERMS];
    size_t nf = 0;
    uint64_t whole[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        int w = config_word(t[i].name);
        if (w >= 0)
            whole[w] |= t[i].value;
        else
            fmt[nf++] = t[i];
    }
    char msg[256], names[256];
    int rc = regc_perf_encode(pmu, fmt, nf, config, msg, sizeof(msg));
    if (rc) {
        regc__perf_format_names(pmu, names, sizeof(names));
        return regc__err(err, errlen, rc, "'%s': %s (its formats: %s)", in, msg, names);
    }
    for (int w = 0; w < 3; w++)
        config[w] |= whole[w];
    return 0;
}

static int perf_string(const struct regc_spec *s, const char *in, char *out, size_t len, char *err,
                       size_t errlen)
{
    char buf[256], list[256];
    if (strlen(in) >= sizeof(buf))
        return regc__err(err, errlen, -EINVAL, "'%.60s...': too long", in);
    strcpy(buf, in);
    char *slash = strchr(buf, '/'), *close = strrchr(buf, '/');
    if (close == slash || close[1])
        return regc__err(err, errlen, -EINVAL,
                         "'%s': expected PMU/TERM=VALUE,.../ (perf's modifiers after the last '/' "
                         "are not supported)",
                         in);
    *slash = *close = '\0';
    const struct regc_block *b = NULL;
    const struct regc_instance *inst = NULL;
    const char *formats = box_of(s, buf, &b, &inst) ? formats_of(s, b->name) : NULL;
    if (!formats) {
        pmu_list(s, list, sizeof(list));
        return regc__err(err, errlen, -ENOENT, "'%s': no PMU '%s' for spec '%s'%s%s%s", in, buf,
                         s->name, *list ? " (its PMUs: " : "", list, *list ? ")" : "");
    }
    struct regc_perf_term t[MAX_TERMS];
    size_t n, at = 0;
    const char *bare;
    int rc = split_terms(slash + 1, t, &n, &bare, in, err, errlen);
    if (rc)
        return rc;
    struct regc_perf_pmu *pmu;
    rc = regc__perf_pmu_static(&pmu, buf, formats, err, errlen);
    if (rc)
        return rc;
    char names[256];
    regc__perf_format_names(pmu, names, sizeof(names));
    /* the kernel's alias of a fixed event its PMU serves for another block (kpmu.h) */
    const struct regc_kpmu_fixed_host *host = regc_kpmu_fixed_host_pmu(s->name, buf);
    const struct regc_kpmu_fixed_host *other = host ? NULL : host_of_type(s, b->name);
    const struct regc_kpmu_fixed_host *th = host ? host : other; /* every box of the type has it */
    bool alias = th && bare && n == 1 && strcasecmp(bare, th->alias) == 0;
    const struct regc_event *named =
        !alias && bare && n == 1 && config_word(bare) < 0 ? event_named(b, bare) : NULL;
    const struct regc_counters *c = regc__block_group(b, false);
    uint64_t config[3] = {0, 0, 0}, ctl = 0;
    struct regc_perf_setting sets[MAX_SETS];
    size_t nsets = 0;
    if (alias)
        config[0] = REGC_KPMU_FIXED_EVENT;
    else if (!named)
        rc = encode(pmu, t, n, config, in, err, errlen);
    /* uncore.c uncore_pmu_event_init: attr.config == UNCORE_FIXED_EVENT is the fixed counter */
    bool fixed_ev = !rc && !named && config[0] == REGC_KPMU_FIXED_EVENT && !config[1] && !config[2];
    if (fixed_ev && host) { /* the block's fixed counter: its table's perfmon event, or "fixed" */
        regc_perf_pmu_close(pmu);
        b = regc_spec_block(s, host->block);
        const struct regc_counters *fc = b && b->pmon ? regc__block_group(b, true) : NULL;
        const struct regc_event *fe = NULL;
        for (const struct regc_event *e = b ? b->events : NULL; fc && e && e->name && !fe; e++)
            if (e->perfmon && strcmp(e->reg, fc->control) == 0)
                fe = e;
        if (!fc)
            return regc__err(err, errlen, -ENOENT, "'%s': block '%s' has no fixed counter", in,
                             host->block);
        return target(out, len, &at, b, NULL) && add(out, len, &at, "%s", fe ? fe->name : "fixed")
                   ? 0
                   : regc__err(err, errlen, -ENOSPC, "'%s': too long", in);
    }
    if (fixed_ev && other) {
        regc_perf_pmu_close(pmu);
        return regc__err(err, errlen, -EINVAL,
                         "'%s': the kernel takes the fixed event (event=0x%x) on %s only "
                         "(single_fixed: its first %s PMU serves the one fixed counter)",
                         in, REGC_KPMU_FIXED_EVENT, other->pmu, other->type);
    }
    if (!rc && !named && config[0] == REGC_KPMU_FIXED_EVENT && !host && !other &&
        !regc__block_group(b, true)) { /* kpmu.h: a type without a fixed counter refuses it */
        regc_perf_pmu_close(pmu);
        return regc__err(err, errlen, -EINVAL,
                         "'%s': the kernel takes config 0x%x (event=0x%x, no other bit of "
                         "config) as the fixed event, and %s (type %s) has no fixed counter: "
                         "uncore_pmu_event_init refuses it",
                         in, REGC_KPMU_FIXED_EVENT, REGC_KPMU_FIXED_EVENT, buf, b->name);
    }
    const struct regc_reg *r = !rc && c ? regc_block_reg(b, c->control) : NULL;
    if (!rc && !named && !r)
        rc = regc__err(err, errlen, -ENOENT, "'%s': block '%s' has no general counters", in,
                       b->name);
    if (!rc && !named)
        rc = regc__perf_decode(pmu, b, r, config, &ctl, sets, MAX_SETS, &nsets, err, errlen);
    regc_perf_pmu_close(pmu);
    if (rc)
        return rc;
    bool ok = target(out, len, &at, b, inst);
    /* the kernel's UNCORE_FIXED_EVENT: event=0xff selects a type's fixed counter (uncore.h) */
    if (named)
        ok = ok && add(out, len, &at, "%s", named->name);
    else if (config[0] == 0xff && !config[1] && !config[2] && regc__block_group(b, true))
        ok = ok && add(out, len, &at, "fixed");
    else if ((named = matching_event(b, c->control, ctl, sets, nsets)) != NULL)
        ok = ok && add(out, len, &at, "%s", named->name);
    else if (ok)
        return raw_terms(r, ctl, sets, nsets, in, out, len, &at, err, errlen);
    return ok ? 0 : regc__err(err, errlen, -ENOSPC, "'%s': too long", in);
}

/* ---- aliases */

/* A bare perfmon name: the first box of the block whose table has it. */
static int bare_alias(const struct regc_spec *s, const char *in, char *out, size_t len, char *err,
                      size_t errlen)
{
    size_t name_len = strcspn(in, ",");
    char name[128];
    if (name_len >= sizeof(name))
        return 0;
    memcpy(name, in, name_len);
    name[name_len] = '\0';
    for (const struct regc_block *b = s->blocks; b->name; b++)
        for (const struct regc_event *e = b->events; e && e->name; e++) {
            if (!e->perfmon || strcasecmp(e->perfmon, name) != 0)
                continue;
            size_t at = 0;
            const struct regc_instance *inst =
                b->instances && b->instances->name ? b->instances : NULL;
            if (!target(out, len, &at, b, inst) ||
                !add(out, len, &at, "%s%s", e->name, in + name_len))
                return regc__err(err, errlen, -ENOSPC, "'%s': too long", in);
            return 1;
        }
    char hint[160];
    if (*regc__suggest_bare_event(s, name, hint, sizeof(hint)))
        return regc__err(err, errlen, -EINVAL, "'%s': no event of spec '%s' has the perfmon name "
                         "'%s'%s", in, s->name, name, hint);
    return regc__err(err, errlen, -EINVAL, /* bad syntax, as before aliases */
                     "'%s': no event of spec '%s' has the perfmon name '%s'; expected "
                     "BLOCK[INSTANCE]:EVENT, PMU/TERM=VALUE,.../ or a perfmon name",
                     in, s->name, name);
}

/* BLOCK[INSTANCE]:NAME where NAME is an alias or a regc name in another case. */
static int block_alias(const struct regc_spec *s, const char *in, char *out, size_t len)
{
    const char *colon = strchr(in, ':'), *ev = colon + 1;
    size_t tlen = (size_t)(colon - in), elen = strcspn(ev, ",");
    char block[64], name[128];
    if (tlen >= sizeof(block) || elen >= sizeof(name))
        return 0;
    memcpy(block, in, tlen);
    block[tlen] = '\0';
    block[strcspn(block, "[")] = '\0';
    memcpy(name, ev, elen);
    name[elen] = '\0';
    const struct regc_block *b = regc_spec_block(s, block);
    if (!b || regc_block_event(b, name) || !strcmp(name, "fixed") || !strcmp(name, "raw"))
        return 0;
    const struct regc_event *e = event_named(b, name);
    if (!e || strlen(in) - elen + strlen(e->name) >= len)
        return 0; /* regc_pmon_add says what is wrong */
    snprintf(out, len, "%.*s%s%s", (int)(tlen + 1), in, e->name, ev + elen);
    return 1;
}

int regc__perf_lang(const struct regc_spec *s, const char *in, char *out, size_t outlen, char *err,
                    size_t errlen)
{
    const char *colon = strchr(in, ':'), *slash = strchr(in, '/');
    if (slash && (!colon || slash < colon)) {
        int rc = perf_string(s, in, out, outlen, err, errlen);
        return rc ? rc : 1;
    }
    if (!colon)
        return bare_alias(s, in, out, outlen, err, errlen);
    return block_alias(s, in, out, outlen);
}

/* ---- the other way: an event as a perf string */

int regc_perf_event_string(const struct regc_spec *s, const struct regc_block *b,
                           const struct regc_instance *inst, const struct regc_event *e,
                           char *buf, size_t len, char *err, size_t errlen)
{
    const char *formats = b->pmon ? block_formats(s, b) : NULL;
    if (!formats)
        return regc__err(err, errlen, -ENOENT, "no known perf formats for block '%s' of spec '%s'",
                         b->name, s->name);
    char pmu_name[96], terms[256];
    struct regc_ref r = {.spec = s, .block = b,
                         .instance = inst ? inst : b->instances && b->instances->name ? b->instances
                                                                                     : NULL};
    regc__perf_pmu_name(&r, pmu_name, sizeof(pmu_name));
    const struct regc_counters *c = NULL;
    for (const struct regc_counters *k = b->pmon->counters; k && k->control && !c; k++)
        if (strcmp(k->control, e->reg) == 0)
            c = k;
    uint64_t ctl, mask, config[3];
    struct regc_perf_setting sets[MAX_SETS];
    size_t n = 0;
    int rc = c ? regc_event_encoding(b, e, &ctl, &mask) : -ENOENT;
    if (rc)
        return regc__err(err, errlen, rc, "'%s': no counters are controlled by '%s'", e->name,
                         e->reg);
    for (const struct regc_set *st = e->sets; st && st->field; st++) {
        const struct regc_reg *reg = st->reg && strcmp(st->reg, e->reg) ? regc_block_reg(b, st->reg)
                                                                        : NULL;
        const struct regc_field *f = reg ? regc_reg_field(reg, st->field) : NULL;
        if (!st->reg || !strcmp(st->reg, e->reg))
            continue; /* in the encoding */
        if (!f || n == MAX_SETS)
            return regc__err(err, errlen, -EINVAL, "'%s': setting %s.%s not in block '%s'",
                             e->name, st->reg, st->field, b->name);
        sets[n++] = (struct regc_perf_setting){reg, f, st->value};
    }
    struct regc_perf_pmu *pmu;
    rc = regc__perf_pmu_static(&pmu, pmu_name, formats, err, errlen);
    if (rc)
        return rc;
    rc = regc_perf_config(pmu, b, c, ctl, sets, n, config, terms, sizeof(terms), err, errlen);
    regc_perf_pmu_close(pmu);
    if (rc)
        return rc;
    if ((size_t)snprintf(buf, len, "%s/%s/", pmu_name, terms) >= len)
        return regc__err(err, errlen, -ENOSPC, "'%s': the perf string is too long", e->name);
    return 0;
}
