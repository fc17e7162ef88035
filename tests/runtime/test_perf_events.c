/*
 * test_perf_events - every event of the E5-2600 and E5-2600 v2 specs through
 * a monitoring session on the perf backend, checked against independent
 * statements:
 *
 * - its perf config equals the generated header's encoding
 *   (E5_2600[V2]_EV_<BLOCK>_<EVENT>, read from generated/<spec>.h), with the
 *   kernel's published uncore formats in a fake sysfs tree
 *   (tests/runtime/data/perf-formats/{snbep,ivbep}.txt); an encoding with a
 *   bit the kernel's event_mask drops (E5 PCU ev_sel_ext) must be refused,
 *   naming the field, since the kernel would count another event;
 * - the PMU of every box instance is named as the kernel names it;
 * - a fixed counter is the kernel's UNCORE_FIXED_EVENT, 0xff;
 * - the kernel's own event aliases (events/ in sysfs) give the same config
 *   as the spec's events;
 * - every field of the filter, packet match and mask registers lands in
 *   config1/config2 where the kernel takes it (snbep_cbox_hw_config,
 *   ivbep_cbox_enable_event, snbep_pcu_hw_config, snbep_qpi_enable_event),
 *   at the header's field mask; registers the kernel takes no config for
 *   (HA address/opcode match) are refused.
 *
 * The configs are built on a dry-run device: nothing is opened, since no PMU
 * of this machine accepts uncore configs; test_perf.c opens real events
 * through the same path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>

#include "../../generated/e5_2600.h"
#include "../../generated/e5_2600v2.h"
#include "perf_tree.h"
#include "regc/perf.h"
#include "regc/pmon.h"
#include "regc/regc.h"
#include "regc_specs.h"

#define UNCORE_FIXED_EVENT 0xff /* linux arch/x86/events/intel/uncore.h */

static unsigned g_soft; /* the software PMU's type on this machine */

/* ---- the header's encodings, read from its text: "#define NAME UINT32_C(0x842)" */

struct macro {
    char name[128];
    uint64_t value;
};

struct header {
    struct macro *m;
    size_t n, cap;
};

static void header_load(struct header *h, const char *path, const char *prefix)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512], name[128], value[64];
    *h = (struct header){0};
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "#define %127s %63s", name, value) != 2 ||
            strncmp(name, prefix, strlen(prefix)) != 0 || !strchr(value, '('))
            continue;
        if (h->n == h->cap) {
            h->cap = h->cap ? 2 * h->cap : 1024;
            h->m = realloc(h->m, h->cap * sizeof(*h->m));
            assert_non_null(h->m);
        }
        snprintf(h->m[h->n].name, sizeof(h->m[h->n].name), "%s", name);
        h->m[h->n++].value = strtoull(strchr(value, '(') + 1, NULL, 0);
    }
    fclose(f);
    assert_true(h->n > 100);
}

static bool header_find(const struct header *h, const char *name, uint64_t *v)
{
    for (size_t i = 0; i < h->n; i++)
        if (strcmp(h->m[i].name, name) == 0) {
            *v = h->m[i].value;
            return true;
        }
    return false;
}

/* docs/c-header.md, the naming rule: PREFIX_EV_BLOCK_EVENT, '.' as '_', upper-cased. */
static void macro_name(const struct regc_spec *s, const struct regc_block *b,
                       const struct regc_event *e, char *buf, size_t len)
{
    snprintf(buf, len, "%s_EV_%s_%s", s->prefix, b->name, e->name);
    for (char *p = buf; *p; p++)
        *p = *p == '.' ? '_' : (char)toupper((unsigned char)*p);
}

/* ---- one event through a session on a dry-run perf device */

static int config_of(const struct regc_spec *s, const char *root, const char *ev,
                     struct regc_pmon_perf *out, char *err, size_t errlen)
{
    regc_dev *d;
    struct regc_options o = {.backend = "perf", .sysfs_root = root, .dry_run = true};
    assert_int_equal(regc_open(&d, s, &o, NULL, 0), 0);
    regc_pmon_session *p;
    assert_int_equal(regc_pmon_new(&p, d), 0);
    int rc = regc_pmon_add(p, ev);
    if (!rc)
        rc = regc_pmon_start(p, NULL);
    if (!rc)
        rc = regc_pmon_perf_event(p, 0, out);
    snprintf(err, errlen, "%s", regc_pmon_error(p));
    if (!rc)
        assert_int_equal(regc_pmon_poll(p, NULL), 0); /* a dry run reads nothing */
    regc_pmon_free(p);
    regc_close(d);
    return rc;
}

static void event_name(const struct regc_block *b, unsigned inst, const char *ev, char *buf,
                       size_t len)
{
    if (b->instances && b->instances[0].name)
        snprintf(buf, len, "%s[%s]:%s", b->name, b->instances[inst].name, ev);
    else
        snprintf(buf, len, "%s:%s", b->name, ev);
}

struct family {
    const struct regc_spec *spec;
    const char *data, *header;
    char root[256];
    struct pt_family f;
    struct header h;
};

static struct family g_fam[2] = {
    {.spec = &e5_2600_spec,
     .data = "tests/runtime/data/perf-formats/snbep.txt",
     .header = "generated/e5_2600.h"},
    {.spec = &e5_2600v2_spec,
     .data = "tests/runtime/data/perf-formats/ivbep.txt",
     .header = "generated/e5_2600v2.h"},
};

static int setup(void **st)
{
    g_soft = pt_real_type("software", 1);
    for (size_t i = 0; i < 2; i++) {
        struct family *fm = &g_fam[i];
        tu_tmpdir(fm->root, sizeof(fm->root));
        pt_load(fm->data, &fm->f, fm->root, g_soft);
        char prefix[64];
        snprintf(prefix, sizeof(prefix), "%s_EV_", fm->spec->prefix);
        header_load(&fm->h, fm->header, prefix);
    }
    return 0;
}

static int teardown(void **st)
{
    for (size_t i = 0; i < 2; i++) {
        tu_rm_rf(g_fam[i].root);
        free(g_fam[i].h.m);
    }
    return 0;
}

static struct pt_type *type_of(struct family *fm, const struct regc_block *b)
{
    for (unsigned i = 0; i < fm->f.n; i++)
        if (strcmp(fm->f.t[i].name, b->name) == 0)
            return &fm->f.t[i];
    fail_msg("%s: block '%s' monitors events but the kernel data has no type for it",
             fm->spec->name, b->name);
    return NULL;
}

/* The field of the event's control holding the lowest bit of 'bits'. */
static const char *field_at(const struct regc_block *b, const struct regc_event *e, uint64_t bits)
{
    const struct regc_reg *r = regc_block_reg(b, e->reg);
    assert_non_null(r);
    for (const struct regc_field *f = r->fields; f->name; f++)
        if (regc_field_mask(f) & bits & -bits)
            return f->name;
    return "?";
}

/*
 * The kernel's format file 'perf' of PMU 'pmu' ("config1:18-22", "config1:31"): which config
 * word and where 'v' goes. false when the kernel publishes no such format.
 */
static bool kernel_place(const char *root, const char *pmu, const char *perf, uint64_t v,
                         unsigned *word, uint64_t *placed)
{
    char path[512], text[64] = "";
    snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/format/%s", root, pmu, perf);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return false;
    bool ok = fgets(text, sizeof(text), fp) != NULL;
    fclose(fp);
    unsigned lo = 0, hi = 0;
    int n = 0;
    *word = 0;
    if (!ok || sscanf(text, "config%u:%u-%u%n", word, &lo, &hi, &n) < 2) {
        if (sscanf(text, "config:%u-%u", &lo, &hi) < 1)
            return false;
    }
    if (hi < lo)
        hi = lo;
    uint64_t mask = hi - lo >= 63 ? ~UINT64_C(0) : ((UINT64_C(1) << (hi - lo + 1)) - 1);
    *placed = (v & mask) << lo;
    return true;
}

/*
 * A filter-needing event, given each filter its example value (REG.field=VALUE): config1/config2
 * hold those values where the kernel's format files (tests/runtime/data/perf-formats, cited to
 * uncore_snbep.c) put the filter's format (regspec <filter perf=>); a filter the kernel has no
 * format for is refused, naming it.
 */
static void check_filter_config(struct family *fm, const struct regc_block *b,
                                const struct regc_event *e, const char *pmu0, uint64_t want,
                                unsigned *nfilt)
{
    char ev[512], err[600];
    event_name(b, 0, e->name, ev, sizeof(ev));
    uint64_t cfg[3] = {want, 0, 0};
    bool placed = true;
    for (const char *const *ref = e->filters; *ref; ref++) {
        const struct regc_filter *f = regc_block_filter(b, *ref);
        assert_non_null(f);
        uint64_t v = strtoull(f->example, NULL, 0), at = 0;
        unsigned word = 0;
        size_t len = strlen(ev);
        snprintf(ev + len, sizeof(ev) - len, ",%s=%s", *ref, f->example);
        if (!f->perf || !kernel_place(fm->root, pmu0, f->perf, v, &word, &at) || word > 2)
            placed = false;
        else
            cfg[word] |= at;
    }
    struct regc_pmon_perf pe;
    int rc = config_of(fm->spec, fm->root, ev, &pe, err, sizeof(err));
    if (!placed) {
        if (rc == 0)
            fail_msg("%s: '%s': a filter the kernel has no format for, yet accepted",
                     fm->spec->name, ev);
        return;
    }
    if (rc)
        fail_msg("%s: '%s': %s", fm->spec->name, ev, err);
    for (int i = 0; i < 3; i++)
        if (pe.config[i] != cfg[i])
            fail_msg("%s: '%s': config%d 0x%llx, the kernel's formats place 0x%llx", fm->spec->name,
                     ev, i, (unsigned long long)pe.config[i], (unsigned long long)cfg[i]);
    (*nfilt)++;
}

/* Every event: config == the header's encoding, or refused when the kernel would drop a bit. */
static void check_events(struct family *fm)
{
    unsigned same = 0, refused = 0, nfilt = 0, unmodelled = 0;
    for (const struct regc_block *b = fm->spec->blocks; b->name; b++) {
        if (!b->pmon || !b->events || !b->events->name)
            continue;
        struct pt_type *t = type_of(fm, b);
        char pmu0[64];
        pt_pmu_name(t, 0, pmu0, sizeof(pmu0));
        for (const struct regc_event *e = b->events; e->name; e++) {
            char mname[256], ev[256], err[600];
            uint64_t want = 0;
            macro_name(fm->spec, b, e, mname, sizeof(mname));
            if (!header_find(&fm->h, mname, &want))
                fail_msg("%s: no macro %s for event '%s'", fm->header, mname, e->name);
            event_name(b, 0, e->name, ev, sizeof(ev));
            struct regc_pmon_perf pe;
            int rc = config_of(fm->spec, fm->root, ev, &pe, err, sizeof(err));
            uint64_t dropped = want & ~t->mask;
            if (dropped) {
                char expect[128];
                snprintf(expect, sizeof(expect), "publishes no format for field '%s'",
                         field_at(b, e, dropped));
                if (rc == 0 || !strstr(err, expect))
                    fail_msg("%s: '%s' = 0x%llx sets bits 0x%llx the kernel's %s drops, yet: %s",
                             fm->spec->name, ev, (unsigned long long)want,
                             (unsigned long long)dropped, pmu0, rc ? err : "accepted");
                refused++;
                continue;
            }
            if (e->unmodelled_filters) { /* a filter the spec does not model: refused */
                if (rc == 0 || !strstr(err, "which this spec does not model"))
                    fail_msg("%s: '%s' needs an unmodelled filter, yet: %s", fm->spec->name, ev,
                             rc ? err : "accepted");
                unmodelled++;
                continue;
            }
            if (e->filters) { /* refused without its filter (regc_pmon_filter_check) */
                if (rc == 0 || !strstr(err, "counts through the filter"))
                    fail_msg("%s: '%s' needs a filter, yet: %s", fm->spec->name, ev,
                             rc ? err : "accepted");
                check_filter_config(fm, b, e, pmu0, want, &nfilt);
                same++;
                continue;
            }
            if (rc)
                fail_msg("%s: '%s': %s", fm->spec->name, ev, err);
            if (pe.config[0] != want || pe.config[1] || pe.config[2])
                fail_msg("%s: '%s': perf config 0x%llx,0x%llx,0x%llx, header %s = 0x%llx",
                         fm->spec->name, ev, (unsigned long long)pe.config[0],
                         (unsigned long long)pe.config[1], (unsigned long long)pe.config[2], mname,
                         (unsigned long long)want);
            if (strcmp(pe.pmu, pmu0) != 0 || pe.type != g_soft || pe.open || pe.sample_period)
                fail_msg("%s: '%s': PMU %s type %u (want %s, type %u, not opened)",
                         fm->spec->name, ev, pe.pmu, pe.type, pmu0, g_soft);
            same++;
        }
    }
    printf("# %s: %u events' perf configs equal the header's encodings; %u refused (a bit the "
           "kernel's event_mask drops); %u with their filters in config1 as the kernel's formats "
           "place them; %u refused for a filter the spec does not model\n",
           fm->spec->name, same, refused, nfilt, unmodelled);
    assert_true(same > 500);
    assert_true(nfilt > 30);
}

static void test_events_e5_2600(void **st)
{
    check_events(&g_fam[0]);
}

static void test_events_e5_2600v2(void **st)
{
    check_events(&g_fam[1]);
}

/* Every instance of every monitored block opens the PMU the kernel names for it, if it has one. */
static void check_pmu_names(struct family *fm)
{
    for (const struct regc_block *b = fm->spec->blocks; b->name; b++) {
        if (!b->pmon || !b->events || !b->events->name)
            continue;
        struct pt_type *t = type_of(fm, b);
        unsigned n = regc_block_ninstances(b) ? regc_block_ninstances(b) : 1;
        for (unsigned i = 0; i < n; i++) {
            char ev[256], err[600], want[64];
            struct regc_pmon_perf pe;
            event_name(b, i, b->events->name, ev, sizeof(ev));
            pt_pmu_name(t, i, want, sizeof(want));
            int rc = config_of(fm->spec, fm->root, ev, &pe, err, sizeof(err));
            if (i < t->boxes && (rc || strcmp(pe.pmu, want) != 0))
                fail_msg("%s: '%s': %s (want PMU %s)", fm->spec->name, ev, rc ? err : pe.pmu,
                         want);
            char missing[96];
            snprintf(missing, sizeof(missing), "no PMU '%s' in sysfs", want);
            if (i >= t->boxes && (!rc || !strstr(err, missing))) /* ivbep: 2 R3QPI PMUs, 3 links */
                fail_msg("%s: '%s': the kernel has no %s, yet: %s", fm->spec->name, ev, want,
                         rc ? err : "opened");
        }
    }
}

static void test_pmu_names(void **st)
{
    check_pmu_names(&g_fam[0]);
    check_pmu_names(&g_fam[1]);
}

/* Fixed counters: the kernel's types with one, the spec's groups kind="fixed", event=0xff. */
static void check_fixed(struct family *fm)
{
    for (const struct regc_block *b = fm->spec->blocks; b->name; b++) {
        bool spec_fixed = false;
        for (const struct regc_counters *c = b->pmon ? b->pmon->counters : NULL; c && c->control;
             c++)
            spec_fixed |= c->kind && strcmp(c->kind, "fixed") == 0;
        if (!b->pmon || !b->events || !b->events->name)
            continue;
        struct pt_type *t = type_of(fm, b);
        if (spec_fixed != t->fixed)
            fail_msg("%s: block '%s': spec fixed counter %d, kernel %d", fm->spec->name, b->name,
                     spec_fixed, t->fixed);
        if (!spec_fixed)
            continue;
        char ev[256], err[600];
        struct regc_pmon_perf pe;
        event_name(b, 0, "fixed", ev, sizeof(ev));
        if (config_of(fm->spec, fm->root, ev, &pe, err, sizeof(err)))
            fail_msg("%s: '%s': %s", fm->spec->name, ev, err);
        assert_int_equal(pe.config[0], UNCORE_FIXED_EVENT);
        assert_string_equal(pe.terms, "event=0xff");
    }
}

static void test_fixed(void **st)
{
    check_fixed(&g_fam[0]);
    check_fixed(&g_fam[1]);
}

/* The kernel's event aliases, through the formats, give the configs of the spec's events. */
static void check_aliases(struct family *fm)
{
    assert_true(fm->f.nalias > 0);
    for (unsigned i = 0; i < fm->f.nalias; i++) {
        const struct pt_alias *al = &fm->f.alias[i];
        const struct regc_block *b = regc_spec_block(fm->spec, al->type);
        assert_non_null(b);
        char pmu[64], ev[256], err[600];
        pt_pmu_name(pt_type(&fm->f, al->type), 0, pmu, sizeof(pmu));
        struct regc_perf_pmu *p;
        uint64_t kcfg[3];
        assert_int_equal(regc_perf_pmu_open(&p, fm->root, pmu, err, sizeof(err)), 0);
        assert_int_equal(regc_perf_event_config(p, al->name, kcfg, err, sizeof(err)), 0);
        regc_perf_pmu_close(p);
        struct regc_pmon_perf pe;
        event_name(b, 0, al->event, ev, sizeof(ev));
        if (config_of(fm->spec, fm->root, ev, &pe, err, sizeof(err)))
            fail_msg("%s: '%s': %s", fm->spec->name, ev, err);
        if (memcmp(pe.config, kcfg, sizeof(kcfg)) != 0)
            fail_msg("%s: '%s' config 0x%llx, the kernel's %s/%s/ (%s) 0x%llx", fm->spec->name, ev,
                     (unsigned long long)pe.config[0], pmu, al->name, al->terms,
                     (unsigned long long)kcfg[0]);
    }
}

static void test_kernel_aliases(void **st)
{
    check_aliases(&g_fam[0]);
    check_aliases(&g_fam[1]);
}

/*
 * Filter registers. Where the kernel takes each register from (word, shift),
 * with the header's mask of each field:
 * - snbep_cbox_hw_config: config1 & snbep_cbox_filter_mask() is the
 *   Cn_MSR_PMON_BOX_FILTER value;
 * - ivbep_cbox_enable_event: config1's low half to the filter (FILTER0), its
 *   high half to the MSR 6 further on (FILTER1);
 * - snbep_pcu_hw_config (E5-2600 and v2): config1 is PCU_MSR_PMON_BOX_FILTER;
 * - snbep_qpi_enable_event: config1 low/high to PKT_MATCH0/1, config2 to
 *   PKT_MASK0/1.
 * word 0: the kernel takes no config for it (refused).
 */
struct filt {
    int fam;
    const char *ctl_block, *reg_block, *reg, *field;
    uint64_t mask;
    unsigned word, shift;
};

#define F1(blk, rb, reg, fld, m, w, s) {0, blk, rb, #reg, fld, E5_2600_##reg##_##m##_MASK, w, s}
#define F2(blk, rb, reg, fld, m, w, s) {1, blk, rb, #reg, fld, E5_2600V2_##reg##_##m##_MASK, w, s}
static const struct filt filters[] = {
    F1("cbox", "cbox", CN_MSR_PMON_BOX_FILTER, "opc", OPC, 1, 0),
    F1("cbox", "cbox", CN_MSR_PMON_BOX_FILTER, "state", STATE, 1, 0),
    F1("cbox", "cbox", CN_MSR_PMON_BOX_FILTER, "nid", NID, 1, 0),
    F1("cbox", "cbox", CN_MSR_PMON_BOX_FILTER, "tid", TID, 1, 0),
    F1("pcu", "pcu", PCU_MSR_PMON_BOX_FILTER, "filt31_24", FILT31_24, 1, 0),
    F1("pcu", "pcu", PCU_MSR_PMON_BOX_FILTER, "filt23_16", FILT23_16, 1, 0),
    F1("pcu", "pcu", PCU_MSR_PMON_BOX_FILTER, "filt15_8", FILT15_8, 1, 0),
    F1("pcu", "pcu", PCU_MSR_PMON_BOX_FILTER, "filt7_0", FILT7_0, 1, 0),
    F1("ha", "ha", HA_PCI_PMON_BOX_ADDRMATCH0, "lo_addr", LO_ADDR, 0, 0),
    F1("ha", "ha", HA_PCI_PMON_BOX_ADDRMATCH1, "hi_addr", HI_ADDR, 0, 0),
    F1("ha", "ha", HA_PCI_PMON_BOX_OPCODEMATCH, "opc", OPC, 0, 0),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MATCH0, "RNID_4", RNID_4, 1, 0),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MATCH0, "DNID", DNID, 1, 0),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MATCH0, "MC", MC, 1, 0),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MATCH0, "OPC", OPC, 1, 0),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MATCH0, "VNW", VNW, 1, 0),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MATCH1, "RDS", RDS, 1, 32),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MATCH1, "RNID_3_0", RNID_3_0, 1, 32),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MASK0, "RNID_4", RNID_4, 2, 0),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MASK0, "DNID", DNID, 2, 0),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MASK0, "MC", MC, 2, 0),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MASK0, "OPC", OPC, 2, 0),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MASK0, "VNW", VNW, 2, 0),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MASK1, "RDS", RDS, 2, 32),
    F1("qpi", "qpi_mm", Q_PY_PCI_PMON_PKT_MASK1, "RNID_3_0", RNID_3_0, 2, 32),
    F2("cbox", "cbox", CN_MSR_PMON_BOX_FILTER0, "state", STATE, 1, 0),
    F2("cbox", "cbox", CN_MSR_PMON_BOX_FILTER0, "tid", TID, 1, 0),
    F2("cbox", "cbox", CN_MSR_PMON_BOX_FILTER1, "isoc", ISOC, 1, 32),
    F2("cbox", "cbox", CN_MSR_PMON_BOX_FILTER1, "nc", NC, 1, 32),
    F2("cbox", "cbox", CN_MSR_PMON_BOX_FILTER1, "opc", OPC, 1, 32),
    F2("cbox", "cbox", CN_MSR_PMON_BOX_FILTER1, "nid", NID, 1, 32),
    F2("pcu", "pcu", PCU_MSR_PMON_BOX_FILTER, "filt31_24", FILT31_24, 1, 0),
    F2("pcu", "pcu", PCU_MSR_PMON_BOX_FILTER, "filt23_16", FILT23_16, 1, 0),
    F2("pcu", "pcu", PCU_MSR_PMON_BOX_FILTER, "filt15_8", FILT15_8, 1, 0),
    F2("pcu", "pcu", PCU_MSR_PMON_BOX_FILTER, "filt7_0", FILT7_0, 1, 0),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MATCH0, "RNID_4", RNID_4, 1, 0),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MATCH0, "DNID", DNID, 1, 0),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MATCH0, "MC", MC, 1, 0),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MATCH0, "OPC", OPC, 1, 0),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MATCH0, "VNW", VNW, 1, 0),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MATCH1, "RDS", RDS, 1, 32),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MATCH1, "RNID_3_0", RNID_3_0, 1, 32),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MASK0, "RNID_4", RNID_4, 2, 0),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MASK0, "DNID", DNID, 2, 0),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MASK0, "MC", MC, 2, 0),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MASK0, "OPC", OPC, 2, 0),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MASK0, "VNW", VNW, 2, 0),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MASK1, "RDS", RDS, 2, 32),
    F2("qpi", "qpimm", Q_PY_PCI_PMON_PKT_MASK1, "RNID_3_0", RNID_3_0, 2, 32),
};
#define NFILT (sizeof(filters) / sizeof(filters[0]))

/* The spec register of a table row (its C name is the upper-cased spec name). */
static const struct regc_reg *filt_reg(const struct filt *ft, const struct regc_block **rb)
{
    *rb = regc_spec_block(g_fam[ft->fam].spec, ft->reg_block);
    assert_non_null(*rb);
    for (const struct regc_reg *r = (*rb)->regs; r->name; r++) {
        char up[128];
        snprintf(up, sizeof(up), "%s", r->name);
        for (char *p = up; *p; p++)
            *p = (char)toupper((unsigned char)*p);
        if (strcmp(up, ft->reg) == 0)
            return r;
    }
    fail_msg("no register %s in block %s", ft->reg, ft->reg_block);
    return NULL;
}

static int filt_config(const struct filt *ft, const struct regc_perf_setting *sets, size_t n,
                       uint64_t cfg[3], char *terms, char *err)
{
    struct family *fm = &g_fam[ft->fam];
    const struct regc_block *b = regc_spec_block(fm->spec, ft->ctl_block);
    char pmu[64];
    pt_pmu_name(pt_type(&fm->f, ft->ctl_block), 0, pmu, sizeof(pmu));
    struct regc_perf_pmu *p;
    assert_int_equal(regc_perf_pmu_open(&p, fm->root, pmu, err, 600), 0);
    int rc = regc_perf_config(p, b, b->pmon->counters, 0, sets, n, cfg, terms, 256, err, 600);
    regc_perf_pmu_close(p);
    return rc;
}

static void test_filters(void **st)
{
    for (size_t i = 0; i < NFILT; i++) {
        const struct filt *ft = &filters[i];
        const struct regc_block *rb;
        const struct regc_reg *r = filt_reg(ft, &rb);
        const struct regc_field *f = regc_reg_field(r, ft->field);
        assert_non_null(f);
        uint64_t ones = (UINT64_C(1) << (f->msb - f->lsb + 1)) - 1, cfg[3];
        struct regc_perf_setting set = {r, f, ones};
        char terms[256], err[600];
        int rc = filt_config(ft, &set, 1, cfg, terms, err);
        if (ft->word == 0) {
            if (!rc || !strstr(err, "takes no register"))
                fail_msg("%s.%s: the kernel takes no config for it, yet: %s", ft->reg, ft->field,
                         rc ? err : "placed");
            continue;
        }
        if (rc)
            fail_msg("%s.%s: %s", ft->reg, ft->field, err);
        uint64_t want[3] = {0, 0, 0};
        want[ft->word] = ft->mask << ft->shift;
        if (memcmp(cfg, want, sizeof(want)) != 0)
            fail_msg("%s.%s = 0x%llx: config 0x%llx,0x%llx,0x%llx, want config%u = 0x%llx (%s)",
                     ft->reg, ft->field, (unsigned long long)ones, (unsigned long long)cfg[0],
                     (unsigned long long)cfg[1], (unsigned long long)cfg[2], ft->word,
                     (unsigned long long)want[ft->word], terms);
    }
}

/* The table names every field of the registers it names (none left unchecked). */
static void test_filters_complete(void **st)
{
    for (size_t i = 0; i < NFILT; i++) {
        const struct regc_block *rb;
        const struct regc_reg *r = filt_reg(&filters[i], &rb);
        for (const struct regc_field *f = r->fields; f->name; f++) {
            if (f->implicit || regc_field_sem(f) == REGC_SEM_MBZ || regc_field_sem(f) == REGC_SEM_IG)
                continue;
            bool found = false;
            for (size_t j = 0; j < NFILT && !found; j++)
                found = filters[j].fam == filters[i].fam &&
                        strcmp(filters[j].reg, filters[i].reg) == 0 &&
                        strcmp(filters[j].field, f->name) == 0;
            if (!found)
                fail_msg("%s.%s is not in the filter table", r->name, f->name);
        }
    }
}

/* Two registers at once (E5-2600 v2 C-Box FILTER0 and FILTER1): one config1, the perf terms. */
static void test_filters_combined(void **st)
{
    const struct filt *state = NULL, *nid = NULL;
    for (size_t i = 0; i < NFILT; i++) {
        if (filters[i].fam == 1 && strcmp(filters[i].reg, "CN_MSR_PMON_BOX_FILTER0") == 0 &&
            strcmp(filters[i].field, "state") == 0)
            state = &filters[i];
        if (filters[i].fam == 1 && strcmp(filters[i].reg, "CN_MSR_PMON_BOX_FILTER1") == 0 &&
            strcmp(filters[i].field, "nid") == 0)
            nid = &filters[i];
    }
    const struct regc_block *rb;
    const struct regc_reg *r0 = filt_reg(state, &rb), *r1 = filt_reg(nid, &rb);
    struct regc_perf_setting sets[] = {{r0, regc_reg_field(r0, "state"), 0x11},
                                       {r1, regc_reg_field(r1, "nid"), 0x2}};
    uint64_t cfg[3];
    char terms[256], err[600];
    assert_int_equal(filt_config(state, sets, 2, cfg, terms, err), 0);
    assert_int_equal(cfg[1], (UINT64_C(0x11) << E5_2600V2_CN_MSR_PMON_BOX_FILTER0_STATE_SHIFT) |
                                 (UINT64_C(0x2) << (32 + E5_2600V2_CN_MSR_PMON_BOX_FILTER1_NID_SHIFT)));
    assert_string_equal(terms, "filter_nid=0x2,filter_state=0x11");
    /* terms that do not fit are an error, not cut short */
    struct family *fm = &g_fam[1];
    const struct regc_block *cb = regc_spec_block(fm->spec, "cbox");
    struct regc_perf_pmu *pmu;
    assert_int_equal(regc_perf_pmu_open(&pmu, fm->root, "uncore_cbox_0", err, sizeof(err)), 0);
    assert_int_equal(regc_perf_config(pmu, cb, cb->pmon->counters, 0, sets, 2, cfg, terms, 20, err,
                                      sizeof(err)),
                     -ENOSPC);
    assert_string_equal(err, "PMU 'uncore_cbox_0': the perf terms take more than 19 bytes");
    regc_perf_pmu_close(pmu);
    /* a value too wide for its field is refused, not cut to the field's width */
    sets[0].value = 0x40; /* state is 6 bits */
    assert_int_equal(filt_config(state, sets, 1, cfg, terms, err), -EINVAL);
    assert_string_equal(err, "value 0x40 does not fit field 'state' [22:17] of 'Cn_MSR_PMON_BOX_FILTER0'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_events_e5_2600),  cmocka_unit_test(test_events_e5_2600v2),
        cmocka_unit_test(test_pmu_names),       cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_kernel_aliases),  cmocka_unit_test(test_filters),
        cmocka_unit_test(test_filters_complete), cmocka_unit_test(test_filters_combined),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
