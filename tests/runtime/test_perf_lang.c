/*
 * test_perf_lang - perf's language in regc_pmon_add (runtime/perf_lang.c), checked against
 * independent statements:
 *
 * - every format the kernel publishes for the E5-2600 and E5-2600 v2 uncore PMUs
 *   (tests/runtime/data/perf-formats/{snbep,ivbep}.txt, from uncore_snbep.c), given at its
 *   full width in a perf event string "uncore_<type>[_0]/NAME=ALL_ONES/", must come out of a
 *   monitoring session on the perf backend (dry run, the formats in a fake sysfs tree written
 *   from the same file) as exactly that format's bits of config, config1 or config2: the
 *   string went through regc's built-in formats to the spec's fields and back through the
 *   kernel's formats, and lost or moved nothing;
 * - the kernel's own event aliases (events/ in sysfs, the same files) given as perf strings
 *   name the spec's event the file says they are;
 * - every event of every spec that carries a perfmon name is found by that name in lower case
 *   (perf's alias) and in upper case, bare and as BLOCK[INSTANCE]:NAME;
 * - every event's perf string (regc_perf_event_string, what `regctl events --perf` prints) is
 *   taken back by regc_pmon_add as an event of the same encoding and settings, on the box the
 *   string's PMU names (its last).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>

#include "perf_tree.h"
#include "regc/perf.h"
#include "regc/pmon.h"
#include "regc/regc.h"
#include "regc_specs.h"

static unsigned g_soft;

struct family {
    const struct regc_spec *spec;
    const char *data;
    char root[256];
    struct pt_family f;
};

static struct family g_fam[2] = {
    {.spec = &e5_2600_spec, .data = "tests/runtime/data/perf-formats/snbep.txt"},
    {.spec = &e5_2600v2_spec, .data = "tests/runtime/data/perf-formats/ivbep.txt"},
};

static int setup(void **st)
{
    (void)st;
    g_soft = pt_real_type("software", 1);
    for (size_t i = 0; i < 2; i++) {
        tu_tmpdir(g_fam[i].root, sizeof(g_fam[i].root));
        pt_load(g_fam[i].data, &g_fam[i].f, g_fam[i].root, g_soft);
    }
    return 0;
}

static int teardown(void **st)
{
    (void)st;
    for (size_t i = 0; i < 2; i++)
        tu_rm_rf(g_fam[i].root);
    return 0;
}

/* One event on a dry-run perf device: its config words. */
static int config_of(const struct family *fm, const char *ev, uint64_t config[3], char *err,
                     size_t errlen)
{
    regc_dev *d;
    struct regc_options o = {.backend = "perf", .sysfs_root = fm->root, .dry_run = true};
    assert_int_equal(regc_open(&d, fm->spec, &o, NULL, 0), 0);
    regc_pmon_session *p;
    assert_int_equal(regc_pmon_new(&p, d), 0);
    regc_pmon_filter_check(p, false); /* the language here; filters: test_perf_events */
    struct regc_pmon_perf out;
    int rc = regc_pmon_add(p, ev);
    if (!rc)
        rc = regc_pmon_start(p, NULL);
    if (!rc)
        rc = regc_pmon_perf_event(p, 0, &out);
    snprintf(err, errlen, "%s", regc_pmon_error(p));
    if (!rc)
        memcpy(config, out.config, sizeof(out.config));
    regc_pmon_free(p);
    regc_close(d);
    return rc;
}

/* The event regc_pmon_add resolves 'ev' to (NULL: fixed or raw); -1 when refused. */
static int event_of(const struct regc_spec *s, const char *ev, struct regc_pmon_info *in, char *err,
                    size_t errlen)
{
    regc_dev *d;
    struct regc_options o = {.backend = "sim", .dry_run = true};
    assert_int_equal(regc_open(&d, s, &o, NULL, 0), 0);
    regc_pmon_session *p;
    assert_int_equal(regc_pmon_new(&p, d), 0);
    regc_pmon_filter_check(p, false); /* the language here; filters: test_perf_events */
    int rc = regc_pmon_add(p, ev);
    if (!rc)
        regc_pmon_info(p, 0, in);
    snprintf(err, errlen, "%s", regc_pmon_error(p));
    regc_pmon_free(p);
    regc_close(d);
    return rc;
}

/* "config1:0-4,21" -> word, mask (the kernel's format text). */
static void parse_config(const char *text, unsigned *word, uint64_t *mask)
{
    *word = strncmp(text, "config1", 7) == 0 ? 1 : strncmp(text, "config2", 7) == 0 ? 2 : 0;
    *mask = 0;
    for (const char *p = strchr(text, ':') + 1; *p;) {
        char *end;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        if (*end == '-')
            hi = strtoul(end + 1, &end, 10);
        for (unsigned long b = lo; b <= hi; b++)
            *mask |= UINT64_C(1) << b;
        p = *end == ',' ? end + 1 : end;
    }
}

static unsigned bits_of(uint64_t m)
{
    unsigned n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

/* Does another format of the type share bits with this one and have fewer? (occ_edge, match0) */
static bool overlapped(const char *file, const char *type, const char *name, unsigned word,
                       uint64_t mask)
{
    FILE *in = fopen(file, "r");
    char line[256], kind[16], t[32], n[32], c[64];
    bool over = false;
    while (in && fgets(line, sizeof(line), in))
        if (sscanf(line, "%15s %31s %31s %63s", kind, t, n, c) == 4 && !strcmp(kind, "format") &&
            !strcmp(t, type) && strcmp(n, name)) {
            unsigned w;
            uint64_t m;
            parse_config(c, &w, &m);
            over |= w == word && (m & mask) && bits_of(m) < bits_of(mask);
        }
    if (in)
        fclose(in);
    return over;
}

/*
 * Formats the spec cannot take, each refused with its reason: the QPI packet match/mask
 * registers belong to the specs' blocks qpi_mm and qpimm (the guides' separate PCI function),
 * which a qpi event does not reach; the E5-2600 v2 C-Box filters: the kernel's filter_link
 * (config1:5-8) and filter_c6 (config1:61) land on bits the spec (guide 329468's
 * Cn_MSR_PMON_BOX_FILTER0/1 tables) reserves. Besides these, a format of config with bits the
 * kernel's event_mask drops (the file's 'mask' line: the E5-2600 v2 'inv') must be refused, and
 * so must event=0xff alone on a type without a 'fixed' line.
 */
static const struct {
    const char *spec, *type, *prefix, *why;
} refused[] = {
    {"e5_2600", "qpi", "match", "are no field of a register of block 'qpi'"},
    {"e5_2600", "qpi", "mask", "are no field of a register of block 'qpi'"},
    {"e5_2600v2", "qpi", "match", "are no field of a register of block 'qpi'"},
    {"e5_2600v2", "qpi", "mask", "are no field of a register of block 'qpi'"},
    {"e5_2600v2", "cbox", "filter_link", "which the spec reserves ('rsv')"},
    {"e5_2600v2", "cbox", "filter_c6", "which the spec reserves ('rsv')"},
};

static const char *refusal(struct family *fm, const char *type, const char *name, unsigned word,
                           uint64_t mask)
{
    if (word == 0 && (mask & ~pt_type(&fm->f, type)->mask))
        return "which the spec reserves";
    /* all ones in 'event' (config:0-7) is config 0xff, UNCORE_FIXED_EVENT: the kernel refuses
     * it on a type the data file gives no fixed counter (uncore_pmu_event_init) */
    if (word == 0 && mask == 0xff && !pt_type(&fm->f, type)->fixed)
        return "has no fixed counter";
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
        if (!strcmp(refused[i].spec, fm->spec->name) && !strcmp(refused[i].type, type) &&
            !strncmp(name, refused[i].prefix, strlen(refused[i].prefix)))
            return refused[i].why;
    return NULL;
}

static void check_formats(struct family *fm)
{
    FILE *in = fopen(fm->data, "r");
    assert_non_null(in);
    char line[256], kind[16], type[32], name[32], cfg[64];
    unsigned checked = 0, bad = 0;
    while (fgets(line, sizeof(line), in)) {
        if (sscanf(line, "%15s %31s %31s %63s", kind, type, name, cfg) != 4 ||
            strcmp(kind, "format"))
            continue;
        unsigned word;
        uint64_t mask;
        parse_config(cfg, &word, &mask);
        if (overlapped(fm->data, type, name, word, mask))
            continue; /* its bits are the narrower formats' (regc_perf_config says why) */
        char pmu[64], ev[160], err[600];
        pt_pmu_name(pt_type(&fm->f, type), 0, pmu, sizeof(pmu));
        unsigned width = bits_of(mask);
        uint64_t all = width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1, config[3] = {0};
        snprintf(ev, sizeof(ev), "%s/%s=0x%llx/", pmu, name, (unsigned long long)all);
        const char *why = refusal(fm, type, name, word, mask);
        int rc = config_of(fm, ev, config, err, sizeof(err));
        checked++;
        if (why && (!rc || !strstr(err, why))) {
            print_error("%s: '%s' should be refused (%s): %s\n", fm->spec->name, ev, why,
                        rc ? err : "accepted");
            bad++;
        } else if (!why && rc) {
            print_error("%s: '%s': %s\n", fm->spec->name, ev, err);
            bad++;
        }
        for (unsigned w = 0; !why && !rc && w < 3; w++)
            if (config[w] != (w == word ? mask : 0)) {
                print_error("%s: '%s' gave config%u 0x%llx; the kernel's format %s is %s\n",
                            fm->spec->name, ev, w, (unsigned long long)config[w], name, cfg);
                bad++;
            }
    }
    fclose(in);
    assert_int_equal(bad, 0);
    assert_true(checked > 40);
}

static void test_formats_e5_2600(void **st)
{
    (void)st;
    check_formats(&g_fam[0]);
}

static void test_formats_e5_2600v2(void **st)
{
    (void)st;
    check_formats(&g_fam[1]);
}

/* The kernel's event aliases, as perf strings of their terms: the event the file names. */
static void test_kernel_aliases(void **st)
{
    (void)st;
    unsigned n = 0;
    for (size_t i = 0; i < 2; i++) {
        struct family *fm = &g_fam[i];
        for (unsigned k = 0; k < fm->f.nalias; k++, n++) {
            const struct pt_alias *al = &fm->f.alias[k];
            char pmu[64], ev[160], err[600], type[32];
            snprintf(type, sizeof(type), "%s", al->type);
            pt_pmu_name(pt_type(&fm->f, type), 0, pmu, sizeof(pmu));
            snprintf(ev, sizeof(ev), "%s/%s/", pmu, al->terms);
            struct regc_pmon_info in;
            if (event_of(fm->spec, ev, &in, err, sizeof(err)))
                fail_msg("%s: '%s': %s", fm->spec->name, ev, err);
            const char *got = in.event ? in.event->name : "fixed";
            if (strcmp(al->event, "fixed") == 0
                    ? in.event != NULL
                    : !in.event || strcmp(in.event->name, al->event) != 0)
                fail_msg("%s: '%s' is %s; the kernel's alias %s is %s", fm->spec->name, ev, got,
                         al->name, al->event);
        }
    }
    assert_true(n > 0);
}

static void check_aliases(const struct regc_spec *s)
{
    unsigned n = 0;
    for (const struct regc_block *b = s->blocks; b->name; b++)
        for (const struct regc_event *e = b->events; e && e->name; e++) {
            if (!e->perfmon)
                continue;
            char ev[3][320], err[600];
            snprintf(ev[0], sizeof(ev[0]), "%s", e->perfmon);
            for (char *c = ev[0]; *c; c++)
                *c = (char)tolower((unsigned char)*c);
            snprintf(ev[1], sizeof(ev[1]), "%s", e->perfmon);
            if (b->instances && b->instances[0].name)
                snprintf(ev[2], sizeof(ev[2]), "%s[%s]:%.200s", b->name,
                         b->instances[regc_block_ninstances(b) - 1].name, ev[0]);
            else
                snprintf(ev[2], sizeof(ev[2]), "%s:%.200s", b->name, ev[0]);
            for (int k = 0; k < 3; k++) {
                struct regc_pmon_info in;
                if (event_of(s, ev[k], &in, err, sizeof(err)))
                    fail_msg("%s: '%s': %s", s->name, ev[k], err);
                if (in.event != e || in.block != b)
                    fail_msg("%s: '%s' is %s.%s, not %s.%s", s->name, ev[k], in.block->name,
                             in.event ? in.event->name : "?", b->name, e->name);
            }
            n++;
        }
    assert_true(n > 30);
}

static void test_perfmon_aliases(void **st)
{
    (void)st;
    check_aliases(&e5_2600_spec);
    check_aliases(&e5_2600v2_spec);
    check_aliases(&snb_client_spec);
}

/* Same encoding on its control and same settings elsewhere? */
static bool same_event(const struct regc_block *b, const struct regc_event *x,
                       const struct regc_event *y)
{
    uint64_t vx, mx, vy, my;
    if (!x || !y || strcmp(x->reg, y->reg) || regc_event_encoding(b, x, &vx, &mx) ||
        regc_event_encoding(b, y, &vy, &my) || vx != vy)
        return false;
    size_t nx = 0, ny = 0;
    for (const struct regc_set *s = x->sets; s && s->field; s++)
        nx += s->reg && strcmp(s->reg, x->reg);
    for (const struct regc_set *s = y->sets; s && s->field; s++) {
        if (!s->reg || !strcmp(s->reg, y->reg))
            continue;
        ny++;
        bool found = false;
        for (const struct regc_set *t = x->sets; t && t->field && !found; t++)
            found = t->reg && !strcmp(t->reg, s->reg) && !strcmp(t->field, s->field) &&
                    t->value == s->value;
        if (!found)
            return false;
    }
    return nx == ny;
}

static unsigned check_strings(const struct regc_spec *s)
{
    unsigned n = 0;
    for (const struct regc_block *b = s->blocks; b->name; b++) {
        unsigned ni = regc_block_ninstances(b);
        const struct regc_instance *last = ni ? &b->instances[ni - 1] : NULL;
        for (const struct regc_event *e = b->events; e && e->name; e++) {
            char str[320], err[600];
            if (regc_perf_event_string(s, b, last, e, str, sizeof(str), err, sizeof(err))) {
                /* only the E5 PCU's extended events: the kernel's SNB-EP/IVB-EP PCU formats
                   have no ev_sel_ext (bit 21), so perf cannot say them */
                if (strcmp(b->name, "pcu") || !strstr(err, "'ev_sel_ext' [21:21]"))
                    fail_msg("%s: %s:%s has no perf string: %s", s->name, b->name, e->name, err);
                continue;
            }
            struct regc_pmon_info in;
            if (event_of(s, str, &in, err, sizeof(err)))
                fail_msg("%s: %s:%s as '%s': %s", s->name, b->name, e->name, str, err);
            if (in.block != b || in.instance != last || !same_event(b, e, in.event))
                fail_msg("%s: %s:%s as '%s' came back as %s[%s]:%s", s->name, b->name, e->name,
                         str, in.block->name, in.instance ? in.instance->name : "",
                         in.event ? in.event->name : "(raw)");
            n++;
        }
    }
    return n;
}

static void test_event_strings(void **st)
{
    (void)st;
    assert_true(check_strings(&e5_2600_spec) > 500);
    assert_true(check_strings(&e5_2600v2_spec) > 1000);
    assert_true(check_strings(&snb_client_spec) > 30);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formats_e5_2600),
        cmocka_unit_test(test_formats_e5_2600v2),
        cmocka_unit_test(test_kernel_aliases),
        cmocka_unit_test(test_perfmon_aliases),
        cmocka_unit_test(test_event_strings),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
