/*
 * test_events_all - every event and sub-event of every spec in regspec/,
 * programmed (a) through libregrt's monitoring API (regc/pmon.h) and (b)
 * through `regctl monitor`, on each backend: (i) the simulator and (ii) the
 * msr backend through the kernel against tests/tools/msrfs (FUSE) for the
 * events of MSR boxes. PCI-space boxes run on the simulator here; a backend
 * is a struct backend below (which events it serves, how it is attached,
 * how rates reach its model, how regctl is pointed at it), so an emulated
 * PCI device is one more entry of backends[].
 *
 * The truth is the generated C header (regc's C-header path), rendered with
 * tests/runtime/hdr_events.mustache into build/gen/hdr: for each event its
 * encoding <PREFIX>_EV_<BLOCK>_<EVENT>, the fields it covers, its counters
 * and its <set>s on other registers. For each event the test
 *  - reads its control register back (through the backend; for regctl, the
 *    simulator's record of what the control held while it counted) and
 *    asserts the header's encoding in every field it covers, and no bit
 *    beyond them but the flow's own (enable, PMI, wrap, reset, direction:
 *    the counters' roles);
 *  - reads each other register the event sets (filter, M-Box sub-control),
 *    in the same box instance, and asserts the header's value;
 *  - gives the simulator a rate for the event and one for a different
 *    encoding of its box (a sibling differing in umask or a <set> where
 *    there is one, else another code) and asserts the event's counter
 *    counted exactly its own rate.
 * Events run in pairs in one box instance (every event beside another of
 * its box where the counters and the sub-controls allow), instances taken in
 * turn, many boxes per session, so a spec needs few sessions and regctl runs.
 * The decoy and the pair partner are chosen from the header alone: a rate for
 * X cannot reach a counter programmed with Y when a field X's entry sets
 * (not a threshold, invert or edge field) differs in Y's encoding.
 *
 * TAP: one line per spec, leg and backend, with the number of events proven;
 * the first failures as diagnostics ($EVENTS_ALL_SHOW of them, default 8).
 * Needs BUILD (for regctl and msrfs).
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hdr_events.h"
#include "hdr/hdr_events_all.h"
#include "regc/pmon.h"
#include "regc/regc.h"
#include "regc/sim.h"
#include "regc_specs.h"
#include "fusefs.h"
#include "msrfs_mount.h"
#include "testutil.h"

#define MAX_ITEMS 4096
#define BATCH 64
#define RATE_BASE 1000003u /* event rates: large and distinct, decoys 1 */

/* ---- the events of a spec, from the header, matched with the tables */

struct item {
    const struct regc_block *b; /* descriptor tables: what the runtime reads */
    const struct regc_event *e;
    const struct regc_counters *c;
    const struct hdr_event *h;       /* the header: the truth */
    const struct hdr_event *partner; /* another event of the box, or NULL: alone */
    unsigned partner_idx;            /* its item */
    const struct hdr_event *decoy;   /* a different encoding of the box, or NULL */
    unsigned inst;                   /* instance index */
    int space;                       /* of its control register */
};

struct work {
    const struct regc_spec *s;
    const struct hdr_spec *hs;
    struct item it[MAX_ITEMS];
    unsigned n;
};

static uint64_t field_mask(const struct regc_reg *r, const char *name)
{
    const struct regc_field *f = name ? regc_reg_field(r, name) : NULL;
    return f ? regc_field_mask(f) : 0;
}

/* Threshold, invert, edge: they shape counts, they do not tell events apart. */
static uint64_t shaping(const struct regc_reg *r, const struct regc_counters *c)
{
    return field_mask(r, c->threshold) | field_mask(r, c->invert) | field_mask(r, c->edge);
}

/* The bits the flow writes besides the encoding. */
static uint64_t flow_bits(const struct regc_reg *r, const struct regc_counters *c)
{
    return field_mask(r, c->enable) | field_mask(r, c->pmi) | field_mask(r, c->wrap_field) |
           field_mask(r, c->reset) | field_mask(r, c->direction_field);
}

static uint64_t covered(const struct hdr_event *h)
{
    return h->field_mask | h->own_mask;
}

static bool same_family(const struct hdr_event *x, const struct hdr_event *y)
{
    size_t n = strcspn(x->name, ".");
    return strncmp(x->name, y->name, n) == 0 && (y->name[n] == '.' || !y->name[n]);
}

/*
 * A rate for x cannot reach a counter programmed with y: a field x sets differs in y; for two
 * sub-events of a combining event (the umask's bits select sub-events, regspec combine="or"),
 * a field besides the umask differs or x has a umask bit y lacks.
 */
static bool apart(const struct hdr_event *x, const struct hdr_event *y, uint64_t shape)
{
    uint64_t differ = (x->enc ^ y->enc) & covered(x) & ~shape;
    if (x->combine && y->combine && x->is_sub && y->is_sub && same_family(x, y))
        return (differ & ~x->umask_mask) != 0 || (x->enc & ~y->enc & x->umask_mask) != 0;
    return differ != 0;
}

/* Two events of one box instance: counters for both, no sub-control value in conflict. */
static bool fit(const struct hdr_event *x, const struct hdr_event *y)
{
    bool counters = false;
    for (unsigned a = 0; a < 64 && !counters; a++)
        for (unsigned b = 0; b < 64 && !counters; b++)
            counters = a != b && ((x->counters >> a) & 1) && ((y->counters >> b) & 1);
    for (const struct hdr_set *s = x->other; s->reg; s++)
        for (const struct hdr_set *t = y->other; t->reg; t++)
            if (strcmp(s->reg, t->reg) == 0 && strcmp(s->field, t->field) == 0 &&
                s->value != t->value)
                return false;
    return counters;
}

static const struct regc_counters *group_of(const struct regc_block *b, const char *control)
{
    for (const struct regc_counters *c = b->pmon->counters; c->control; c++)
        if (strcmp(c->control, control) == 0)
            return c;
    return NULL;
}

/* Partner and decoy of item k among the block's events [first, last). */
static void choose(struct work *w, unsigned k, unsigned first, unsigned last)
{
    struct item *x = &w->it[k];
    const struct regc_reg *r = regc_block_reg(x->b, x->c->control);
    uint64_t shape = shaping(r, x->c);
    unsigned n = last - first;
    for (unsigned d = 1; d < n && !x->partner; d++) {
        const struct item *y = &w->it[first + (k - first + d) % n];
        if (y->c == x->c && fit(x->h, y->h) && apart(x->h, y->h, shape) && apart(y->h, x->h, shape))
            x->partner = y->h, x->partner_idx = (unsigned)(y - w->it);
    }
    for (int pass = 0; pass < 2 && !x->decoy; pass++)
        for (unsigned d = 1; d < n && !x->decoy; d++) {
            const struct item *y = &w->it[first + (k - first + d) % n];
            if (y->c == x->c && (pass || same_family(x->h, y->h)) && y->h != x->partner &&
                apart(y->h, x->h, shape) && (!x->partner || apart(y->h, x->partner, shape)))
                x->decoy = y->h;
        }
}

/* Every event of the header, with its entry in the descriptor tables. 0, or -1 with 'why'. */
static int collect(struct work *w, char *why, size_t len)
{
    w->n = 0;
    for (const struct hdr_block *hb = w->hs->blocks; hb->name; hb++) {
        hb->fill();
        const struct regc_block *b = regc_spec_block(w->s, hb->name);
        if (!b || !b->pmon)
            return snprintf(why, len, "the tables have no block '%s'", hb->name), -1;
        unsigned first = w->n, ninst = regc_block_ninstances(b);
        for (const struct hdr_event *h = hb->events; h->name; h++) {
            const struct regc_event *e = regc_block_event(b, h->name);
            const struct regc_counters *c = e ? group_of(b, e->reg) : NULL;
            const struct regc_reg *r = c ? regc_block_reg(b, c->control) : NULL;
            if (!r)
                return snprintf(why, len, "the tables have no event '%s.%s'", hb->name, h->name),
                       -1;
            if (w->n >= MAX_ITEMS)
                return snprintf(why, len, "more than %d events", MAX_ITEMS), -1;
            w->it[w->n] = (struct item){.b = b,
                                        .e = e,
                                        .c = c,
                                        .h = h,
                                        .space = (int)r->space,
                                        .inst = ninst ? (w->n - first) % ninst : 0};
            w->n++;
        }
        for (unsigned k = first; k < w->n; k++)
            choose(w, k, first, w->n);
    }
    return 0;
}

/* ---- backends */

struct backend {
    const char *name;
    bool (*serves)(int space); /* the events whose control is in this space (enum regc_space) */
    /* why it cannot run here, or NULL */
    const char *(*unavailable)(void);
    int (*attach)(struct backend *be, const char *spec);
    void (*detach)(struct backend *be);
    regc_dev *d; /* for the API leg */
    /* rates: clear, set, one interval (the API leg) */
    int (*rates)(struct backend *be, const char *const *names, const int64_t *n, unsigned k);
    /* regctl: the options before "monitor", and what to do around the run */
    int (*regctl_args)(struct backend *be, const char **argv, unsigned max, char *buf, size_t len);
    int (*regctl_before)(struct backend *be, const char *const *names, const int64_t *n,
                         unsigned k);
    /* the encodings the model saw since the last rates (lines "REG 0xV EVENT|-") */
    char *(*encodings)(struct backend *be);
    struct msrfs_mount m; /* msrfs */
    regc_sim *sim;        /* sim */
    struct fusefs f;      /* pcifs */
    regc_dev *pci;        /* pcifs: the pci backend for configuration-space registers */
    char root[400];       /* pcifs: MNT/cpu, the msr root it serves too */
};

/* The device that reaches r (the pci device for configuration-space registers). */
static regc_dev *dev_of(const struct backend *be, const struct regc_ref *r)
{
    return be->pci && r->reg->space == REGC_SPACE_PCI ? be->pci : be->d;
}

static const char *build_dir(void)
{
    const char *b = getenv("BUILD");
    return b && *b ? b : "build";
}

static const struct regc_spec *spec_named(const char *name)
{
    for (const struct regc_spec *const *s = regc_specs; *s; s++)
        if (strcmp((*s)->name, name) == 0)
            return *s;
    return NULL;
}

static bool any_space(int space)
{
    (void)space;
    return true;
}

static bool msr_space(int space)
{
    return space == REGC_SPACE_MSR;
}

static bool pci_space(int space)
{
    return space == REGC_SPACE_PCI;
}

/* -- sim: the model in this process (API), regctl's own model (regctl) */

static const char *sim_unavailable(void)
{
    return NULL;
}

static int sim_attach(struct backend *be, const char *spec)
{
    struct regc_options o = {.backend = "sim"};
    char err[256];
    if (regc_open(&be->d, spec_named(spec), &o, err, sizeof(err)) < 0)
        return -1;
    be->sim = regc_dev_sim(be->d);
    return 0;
}

static void sim_detach(struct backend *be)
{
    regc_close(be->d);
    be->d = NULL;
}

static int sim_rates(struct backend *be, const char *const *names, const int64_t *n, unsigned k)
{
    regc_sim_rates_clear(be->sim);
    regc_sim_encodings_clear(be->sim);
    for (unsigned i = 0; i < k; i++)
        if (regc_sim_rate(be->sim, names[i], n[i]) < 0)
            return -1;
    return regc_sim_interval(be->sim);
}

static char *sim_encodings(struct backend *be)
{
    size_t n = regc_sim_encodings(be->sim, false, NULL, 0), len = 0;
    struct regc_sim_encoding *enc = calloc(n + 1, sizeof(*enc));
    char *text = calloc(n + 1, 400);
    regc_sim_encodings(be->sim, false, enc, n);
    for (size_t i = 0; i < n; i++) {
        char nm[160];
        len += (size_t)snprintf(
            text + len, 400, "%s 0x%llx %s\n", regc_ref_name(&enc[i].ctl, nm, sizeof(nm)),
            (unsigned long long)enc[i].value, enc[i].event ? enc[i].event->name : "-");
    }
    free(enc);
    return text;
}

static int sim_regctl_args(struct backend *be, const char **argv, unsigned max, char *buf,
                           size_t len)
{
    (void)be, (void)buf, (void)len, (void)max;
    argv[0] = "--backend";
    argv[1] = "sim";
    return 2;
}

/* The whole text of a file (a FUSE device's control file: the encodings seen); caller frees. */
static char *read_all(const char *path)
{
    int fd = open(path, O_RDONLY);
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    ssize_t got;
    while (fd >= 0 && (got = read(fd, text + len, cap - len - 1)) > 0) {
        len += (size_t)got;
        if (cap - len < 4096)
            text = realloc(text, cap *= 2);
    }
    if (fd >= 0)
        close(fd);
    text[len] = '\0';
    return text;
}

/* -- msrfs: /dev/cpu/N/msr emulated through FUSE, the msr backend through the kernel */

static void msrfs_detach(struct backend *be)
{
    regc_close(be->d);
    be->d = NULL;
    msrfs_unmount(&be->m);
}

static int msrfs_attach(struct backend *be, const char *spec)
{
    if (msrfs_mount(&be->m, spec) < 0)
        return -1;
    struct regc_options o = {.backend = "msr", .msr_root = be->m.root, .sysfs_root = be->m.dir};
    char err[256];
    return regc_open(&be->d, spec_named(spec), &o, err, sizeof(err)) < 0 ? -1 : 0;
}

/* "clear", then one "rate NAME N" per event. */
static int msrfs_set(struct backend *be, const char *const *names, const int64_t *n, unsigned k)
{
    size_t cap = 64 + (size_t)k * 300, len = 0;
    char *cmd = malloc(cap);
    len += (size_t)snprintf(cmd, cap, "clear\n");
    for (unsigned i = 0; i < k; i++)
        len += (size_t)snprintf(cmd + len, cap - len, "rate %s %lld\n", names[i], (long long)n[i]);
    int rc = msrfs_command(&be->m, cmd);
    free(cmd);
    return rc;
}

static int msrfs_rates(struct backend *be, const char *const *names, const int64_t *n, unsigned k)
{
    return msrfs_set(be, names, n, k) < 0 ? -1 : msrfs_command(&be->m, "interval");
}

/* regctl polls on its own: msrfs delivers an interval before each write it receives. */
static int msrfs_regctl_before(struct backend *be, const char *const *names, const int64_t *n,
                               unsigned k)
{
    return msrfs_set(be, names, n, k) < 0 ? -1 : msrfs_command(&be->m, "auto 1");
}

static char *msrfs_encodings(struct backend *be)
{
    msrfs_command(&be->m, "auto 0");
    return read_all(be->m.simfile);
}

static int msrfs_regctl_args(struct backend *be, const char **argv, unsigned max, char *buf,
                             size_t len)
{
    (void)max;
    (void)buf, (void)len;
    argv[0] = "--backend";
    argv[1] = "msr";
    argv[2] = "--msr-root";
    argv[3] = be->m.root;
    argv[4] = "--sysfs-root"; /* no kernel uncore PMUs, whatever the test machine has */
    argv[5] = be->m.dir;
    return 6;
}

/* -- pcifs: a sysfs PCI tree emulated through FUSE (it serves cpu/N/msr too, for the global
 * control the E5-2600 v2's PCI boxes answer to); the pci and msr backends through the kernel */

static const char *pcifs_unavailable(void)
{
    return fusefs_unavailable("pcifs", true);
}

static void pcifs_detach(struct backend *be)
{
    regc_close(be->pci);
    regc_close(be->d);
    be->pci = be->d = NULL;
    fusefs_unmount(&be->f);
}

static int pcifs_attach(struct backend *be, const char *spec)
{
    const char *args[] = {"--spec", spec, "--cpus", "1", NULL};
    char why[300], err[256];
    if (fusefs_mount(&be->f, "pcifs", args, NULL, "sim", why, sizeof(why)) < 0)
        return -1;
    snprintf(be->root, sizeof(be->root), "%s/cpu", be->f.mnt);
    struct regc_options o = {.backend = "msr", .msr_root = be->root, .sysfs_root = be->f.mnt};
    if (regc_open(&be->d, spec_named(spec), &o, err, sizeof(err)) < 0)
        return -1;
    o.backend = "pci";
    return regc_open(&be->pci, spec_named(spec), &o, err, sizeof(err)) < 0 ? -1 : 0;
}

static int pcifs_cmd(struct backend *be, const char *cmd)
{
    return fusefs_command(&be->f, "%s", cmd);
}

static int pcifs_set(struct backend *be, const char *const *names, const int64_t *n, unsigned k)
{
    int rc = pcifs_cmd(be, "clear");
    for (unsigned i = 0; !rc && i < k; i++) {
        char line[300];
        snprintf(line, sizeof(line), "rate %s %lld", names[i], (long long)n[i]);
        rc = pcifs_cmd(be, line);
    }
    return rc;
}

static int pcifs_rates(struct backend *be, const char *const *names, const int64_t *n, unsigned k)
{
    return pcifs_set(be, names, n, k) < 0 ? -1 : pcifs_cmd(be, "interval");
}

static int pcifs_regctl_before(struct backend *be, const char *const *names, const int64_t *n,
                               unsigned k)
{
    return pcifs_set(be, names, n, k) < 0 ? -1 : pcifs_cmd(be, "auto 1");
}

static char *pcifs_encodings(struct backend *be)
{
    pcifs_cmd(be, "auto 0");
    char path[400];
    snprintf(path, sizeof(path), "%s/sim", be->f.mnt);
    return read_all(path);
}

/* regctl with no --backend: MSRs through the msr backend, configuration space through pci. */
static int pcifs_regctl_args(struct backend *be, const char **argv, unsigned max, char *buf,
                             size_t len)
{
    (void)max, (void)buf, (void)len;
    argv[0] = "--msr-root";
    argv[1] = be->root;
    argv[2] = "--sysfs-root";
    argv[3] = be->f.mnt;
    return 4;
}

static struct backend backends[] = {
    {.name = "sim",
     .serves = any_space,
     .unavailable = sim_unavailable,
     .attach = sim_attach,
     .detach = sim_detach,
     .rates = sim_rates,
     .regctl_args = sim_regctl_args,
     .encodings = sim_encodings},
    {.name = "msrfs",
     .serves = msr_space,
     .unavailable = msrfs_unavailable,
     .attach = msrfs_attach,
     .detach = msrfs_detach,
     .rates = msrfs_rates,
     .regctl_args = msrfs_regctl_args,
     .regctl_before = msrfs_regctl_before,
     .encodings = msrfs_encodings},
    {.name = "pcifs",
     .serves = pci_space,
     .unavailable = pcifs_unavailable,
     .attach = pcifs_attach,
     .detach = pcifs_detach,
     .rates = pcifs_rates,
     .regctl_args = pcifs_regctl_args,
     .regctl_before = pcifs_regctl_before,
     .encodings = pcifs_encodings},
};

/* ---- batches: sessions of many boxes, one pair (or one event) per box instance */

struct slot {
    const struct item *x;      /* the item whose pair this is */
    const struct hdr_event *h; /* the event of this slot: x's or its partner */
    unsigned idx;              /* the item of h */
    char name[256];            /* "BLOCK[INST]:EVENT[,FILTER=VALUE...]" */
};

struct batch {
    struct slot s[BATCH];
    unsigned n;
    char decoys[BATCH][256];
    unsigned ndecoys;
};

/* Per leg: which events ran (seen) and which failed somewhere (bad), by item. */
struct tally {
    unsigned failed, shown;
    const char *leg, *backend, *spec;
    bool seen[MAX_ITEMS], bad[MAX_ITEMS];
};

static void failf(struct tally *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void failf(struct tally *t, const char *fmt, ...)
{
    const char *show = getenv("EVENTS_ALL_SHOW"); /* how many failures to print; default 8 */
    t->failed++;
    if (t->shown++ >= (show ? (unsigned)atoi(show) : 8u))
        return;
    va_list ap;
    va_start(ap, fmt);
    printf("# %s %s %s: ", t->spec, t->leg, t->backend);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

/* BLOCK[INST]:EVENT, with each box filter the event counts through set to all ones (every
 * state, or any value the filter compares with: what the value selects is not under test here,
 * only that a filter-needing event names its filter, as regc_pmon_add demands). */
static void name_of(char *buf, size_t len, const struct item *x, const struct hdr_event *h)
{
    const struct regc_instance *in = regc_block_ninstances(x->b) ? &x->b->instances[x->inst] : NULL;
    int n = snprintf(buf, len, "%s%s%s%s:%s", x->b->name, in ? "[" : "", in ? in->name : "",
                     in ? "]" : "", h->name);
    const struct regc_event *e = regc_block_event(x->b, h->name);
    for (const char *const *ref = e && e->filters ? e->filters : NULL; ref && *ref; ref++) {
        const struct regc_filter *f = regc_block_filter(x->b, *ref);
        const struct regc_reg *r = f ? regc_block_reg(x->b, f->reg) : NULL;
        const struct regc_field *fd = r ? regc_reg_field(r, f->field) : NULL;
        if (fd && n >= 0 && (size_t)n < len)
            n += snprintf(buf + n, len - (size_t)n, ",%s=0x%llx", *ref,
                          (unsigned long long)(regc_field_mask(fd) >> fd->lsb));
    }
}

/* The box instance prefix of register names ("cbox.c2." or "pcu."). */
static void box_prefix(char *buf, size_t len, const struct item *x)
{
    const struct regc_instance *in = regc_block_ninstances(x->b) ? &x->b->instances[x->inst] : NULL;
    snprintf(buf, len, "%s.%s%s", x->b->name, in ? in->name : "", in ? "." : "");
}

/* Control value v holds h's encoding, and nothing but the flow's bits beside it. */
static bool bits_ok(const struct item *x, const struct hdr_event *h, uint64_t v)
{
    const struct regc_reg *r = regc_block_reg(x->b, x->c->control);
    uint64_t m = covered(h);
    return (v & m) == h->enc && (h->enc & ~m) == 0 && (v & ~m & ~flow_bits(r, x->c)) == 0;
}

/* The slots of batch b: pairs (or single events) of distinct box instances, from the queue. */
static void fill_batch(struct batch *b, const struct work *w, const bool *pending, bool *taken)
{
    b->n = b->ndecoys = 0;
    for (unsigned k = 0; k < w->n && b->n + 2 <= BATCH; k++) {
        const struct item *x = &w->it[k];
        if (!pending[k] || taken[k])
            continue;
        bool busy = false;
        for (unsigned i = 0; i < b->n && !busy; i++)
            busy = b->s[i].x->b == x->b && b->s[i].x->inst == x->inst;
        if (busy)
            continue;
        taken[k] = true;
        b->s[b->n].x = x, b->s[b->n].h = x->h, b->s[b->n].idx = k;
        name_of(b->s[b->n].name, sizeof(b->s[0].name), x, x->h);
        b->n++;
        if (x->partner) {
            b->s[b->n].x = x, b->s[b->n].h = x->partner, b->s[b->n].idx = x->partner_idx;
            name_of(b->s[b->n].name, sizeof(b->s[0].name), x, x->partner);
            b->n++;
        }
        if (x->decoy)
            name_of(b->decoys[b->ndecoys++], sizeof(b->decoys[0]), x, x->decoy);
    }
}

/* The rates of a batch: each slot its own (distinct, large), each decoy 1. */
static unsigned batch_rates(const struct batch *b, const char **names, int64_t *n)
{
    unsigned k = 0;
    for (unsigned i = 0; i < b->n; i++)
        names[k] = b->s[i].name, n[k++] = RATE_BASE + 2 * (int64_t)i;
    for (unsigned i = 0; i < b->ndecoys; i++)
        names[k] = b->decoys[i], n[k++] = 1;
    return k;
}

/* The encodings text: no control that encodes nothing; slot i's box holds its encoding. */
static void check_encodings(struct tally *t, const struct batch *b, const char *text, bool *bad)
{
    for (const char *l = text; l && *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        if (len > 2 && l[len - 1] == '-' && l[len - 2] == ' ')
            failf(t, "a control that encodes no event: %.*s", (int)len, l);
        l += len + (e != NULL);
    }
    for (unsigned i = 0; i < b->n; i++) {
        char pre[128];
        box_prefix(pre, sizeof(pre), b->s[i].x);
        bool found = false;
        for (const char *l = text; l && *l && !found;) {
            const char *e = strchr(l, '\n');
            char reg[160];
            unsigned long long v;
            if (sscanf(l, "%159s 0x%llx", reg, &v) == 2 && strncmp(reg, pre, strlen(pre)) == 0 &&
                !strchr(reg + strlen(pre), '.'))
                found = bits_ok(b->s[i].x, b->s[i].h, v);
            l = e ? e + 1 : l + strlen(l);
        }
        if (!found) {
            bad[i] = true;
            failf(t, "%s: no control of %s held 0x%llx (the header's encoding) while counting",
                  b->s[i].name, pre, (unsigned long long)b->s[i].h->enc);
        }
    }
}

/* The results of a batch into the tally ('all': every slot failed). */
static void record(struct tally *t, const struct batch *b, const bool *bad, bool all)
{
    for (unsigned i = 0; i < b->n; i++) {
        t->seen[b->s[i].idx] = true;
        t->bad[b->s[i].idx] |= bad[i] || all;
    }
}

/* ---- (a) the API leg */

static void check_other_regs(struct tally *t, const struct backend *be, const struct item *x,
                             const struct hdr_event *h, const char *name, bool *bad)
{
    regc_dev *d = be->d;
    for (const struct hdr_set *s = h->other; s->reg; s++) {
        const struct regc_reg *r = regc_block_reg(x->b, s->reg);
        struct regc_ref ref;
        uint64_t v = 0;
        const struct regc_instance *in =
            regc_block_ninstances(x->b) ? &x->b->instances[x->inst] : NULL;
        if (!r ||
            regc_ref_make(&ref, regc_dev_spec(d), x->b, in, r, r->is_array ? (int)r->first : -1) !=
                0 ||
            regc_read(dev_of(be, &ref), &ref, &v) != 0 || (v & s->mask) != s->value) {
            *bad = true;
            failf(t, "%s: %s.%s = 0x%llx, the header says 0x%llx", name, s->reg, s->field,
                  (unsigned long long)(v & s->mask), (unsigned long long)s->value);
        }
    }
}

/* Does an event of batch b need a filter the spec does not model (<unmodelled-filter>)? It is
 * counted with the filter check off, as --no-filter-check does: the filter cannot be set, and
 * what is proven here is the control's bits (run-monitor.sh has the refusal). */
static bool batch_unmodelled(const struct batch *b)
{
    for (unsigned i = 0; i < b->n; i++) {
        const struct regc_event *e = regc_block_event(b->s[i].x->b, b->s[i].h->name);
        if (e && e->unmodelled_filters && e->unmodelled_filters[0])
            return true;
    }
    return false;
}

static void api_batch(struct tally *t, struct backend *be, const struct batch *b,
                      const char *lockdir)
{
    regc_pmon_session *p;
    bool bad[BATCH] = {false};
    if (regc_pmon_new(&p, be->d) < 0) {
        failf(t, "out of memory");
        return;
    }
    if (be->pci)
        regc_pmon_set_pci_device(p, be->pci);
    if (batch_unmodelled(b))
        regc_pmon_filter_check(p, false);
    for (unsigned i = 0; i < b->n; i++)
        if (regc_pmon_add(p, b->s[i].name) < 0) {
            failf(t, "%s", regc_pmon_error(p));
            goto all_bad;
        }
    struct regc_pmon_opts o = {.settle_ms = -1, .lock_dir = lockdir};
    if (regc_pmon_start(p, &o) < 0) {
        failf(t, "start: %s", regc_pmon_error(p));
        goto all_bad;
    }
    for (unsigned i = 0; i < b->n; i++) {
        struct regc_pmon_info in;
        uint64_t v = 0;
        regc_pmon_info(p, i, &in);
        if (regc_read(dev_of(be, &in.ctl), &in.ctl, &v) != 0 || !bits_ok(b->s[i].x, b->s[i].h, v)) {
            char nm[160];
            bad[i] = true;
            failf(t, "%s: %s = 0x%llx, the header's encoding is 0x%llx (fields 0x%llx)",
                  b->s[i].name, regc_ref_name(&in.ctl, nm, sizeof(nm)), (unsigned long long)v,
                  (unsigned long long)b->s[i].h->enc, (unsigned long long)covered(b->s[i].h));
        }
        check_other_regs(t, be, b->s[i].x, b->s[i].h, b->s[i].name, &bad[i]);
    }
    const char *names[2 * BATCH];
    int64_t n[2 * BATCH];
    unsigned k = batch_rates(b, names, n);
    uint64_t totals[2 * BATCH]; /* one per event of the batch */
    if (be->rates(be, names, n, k) < 0 || regc_pmon_poll(p, totals) < 0) {
        failf(t, "rates or poll: %s", regc_pmon_error(p));
        goto all_bad;
    }
    char *text = be->encodings(be);
    check_encodings(t, b, text, bad);
    free(text);
    for (unsigned i = 0; i < b->n; i++)
        if (totals[i] != (uint64_t)n[i]) {
            bad[i] = true;
            failf(t, "%s: counted %llu for a rate of %lld (decoy %s)", b->s[i].name,
                  (unsigned long long)totals[i], (long long)n[i],
                  b->s[i].x->decoy ? b->s[i].x->decoy->name : "none");
        }
    if (0) {
    all_bad:
        memset(bad, 1, sizeof(bad));
    }
    if (regc_pmon_release(p) < 0)
        failf(t, "release: %s", regc_pmon_error(p)), bad[0] = true;
    regc_pmon_free(p);
    record(t, b, bad, false);
}

/* ---- (b) the regctl leg */

/* Runs argv; stdout into *out (caller frees), stderr into *err. Exit status, or -1. */
static int run(char *const *argv, const char *dir, char **out, char **err)
{
    char po[400], pe[400];
    snprintf(po, sizeof(po), "%s/out", dir);
    snprintf(pe, sizeof(pe), "%s/err", dir);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, po, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, pe, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int st = -1;
    if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) == 0)
        waitpid(pid, &st, 0);
    posix_spawn_file_actions_destroy(&fa);
    const char *paths[2] = {po, pe};
    char **bufs[2] = {out, err};
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(paths[i], "r");
        size_t cap = 1 << 16, len = 0;
        *bufs[i] = calloc(1, cap);
        while (f && !feof(f)) {
            len += fread(*bufs[i] + len, 1, cap - len - 1, f);
            if (cap - len < 4096)
                *bufs[i] = realloc(*bufs[i], cap *= 2);
        }
        (*bufs[i])[len] = '\0';
        if (f)
            fclose(f);
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The "sim_encodings" of regctl's JSON as encodings text lines. */
static char *json_encodings(json_t *doc)
{
    json_t *list = json_object_get(doc, "sim_encodings");
    size_t n = json_array_size(list), len = 0;
    char *text = calloc(n + 1, 400);
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(list, i);
        const char *ev = json_string_value(json_object_get(e, "event"));
        len += (size_t)snprintf(text + len, 400, "%s %s %s\n",
                                json_string_value(json_object_get(e, "register")),
                                json_string_value(json_object_get(e, "value")), ev ? ev : "-");
    }
    return text;
}

static void regctl_batch(struct tally *t, struct backend *be, const struct batch *b,
                         const char *spec, const char *dir)
{
    char regctl[300], root[400], lockopt[300];
    const char *argv[17 + 3 * BATCH + 2 * 2 * BATCH];
    static char rates[2 * BATCH][200];
    unsigned a = 0;
    bool bad[BATCH] = {false};
    snprintf(regctl, sizeof(regctl), "%s/regctl", build_dir());
    argv[a++] = regctl;
    a += (unsigned)be->regctl_args(be, argv + a, 8, root, sizeof(root));
    argv[a++] = "--json";
    argv[a++] = "monitor";
    argv[a++] = spec;
    for (unsigned i = 0; i < b->n; i++)
        argv[a++] = b->s[i].name;
    argv[a++] = "--interval";
    argv[a++] = "0";
    argv[a++] = "--count";
    argv[a++] = "1";
    argv[a++] = "--settle";
    argv[a++] = "0";
    snprintf(lockopt, sizeof(lockopt), "%s", dir);
    argv[a++] = "--lock-dir";
    argv[a++] = lockopt;
    if (batch_unmodelled(b))
        argv[a++] = "--no-filter-check";
    const char *names[2 * BATCH];
    int64_t n[2 * BATCH];
    unsigned k = batch_rates(b, names, n);
    if (be->regctl_before) {
        if (be->regctl_before(be, names, n, k) < 0) {
            failf(t, "cannot set the rates");
            return;
        }
    } else {
        for (unsigned i = 0; i < k; i++) {
            snprintf(rates[i], sizeof(rates[i]), "%s=%lld", names[i], (long long)n[i]);
            argv[a++] = "--sim-rate";
            argv[a++] = rates[i];
        }
    }
    argv[a] = NULL;
    char *out, *err;
    int st = run((char *const *)argv, dir, &out, &err);
    json_t *doc = json_loads(out, 0, NULL);
    json_t *totals = json_object_get(doc, "totals");
    if (st != 0 || json_array_size(totals) != b->n || *err) {
        failf(t, "regctl exit %d: %.300s", st, *err ? err : out);
        st = st ? st : 1;
        goto out;
    }
    char *text = be->regctl_before ? be->encodings(be) : json_encodings(doc);
    check_encodings(t, b, text, bad);
    free(text);
    for (unsigned i = 0; i < b->n; i++) {
        uint64_t got = (uint64_t)json_integer_value(json_array_get(totals, i));
        /* on msrfs the rates are delivered at each write regctl makes: k >= 1 times each */
        bool ok = be->regctl_before ? got && got % (uint64_t)n[i] == 0 : got == (uint64_t)n[i];
        if (!ok) {
            bad[i] = true;
            failf(t, "%s: regctl counted %llu for a rate of %lld", b->s[i].name,
                  (unsigned long long)got, (long long)n[i]);
        }
    }
out:
    json_decref(doc);
    free(out);
    free(err);
    record(t, b, bad, st != 0);
}

/* ---- one spec on one backend */

static int tap_n;

static void tap(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void tap(bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - ", ok ? "ok" : "not ok", ++tap_n);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
}

/* One TAP line: the events proven (every run of them passed), those that failed. */
static void report(const struct tally *t, const struct work *w, const struct backend *be)
{
    unsigned proven = 0, bad = 0, eligible = 0;
    for (unsigned k = 0; k < w->n; k++) {
        eligible += be->serves(w->it[k].space);
        proven += t->seen[k] && !t->bad[k];
        bad += t->bad[k];
    }
    tap(bad == 0 && t->failed == 0 && proven == eligible,
        "%s: %u of %u events proven through %s on %s (%u failed)", w->s->name, proven, eligible,
        t->leg, be->name, bad);
}

static void run_spec(struct work *w, struct backend *be)
{
    static bool pending[MAX_ITEMS], taken[MAX_ITEMS];
    unsigned total = 0, alone = 0, nodecoy = 0, batches = 0;
    for (unsigned k = 0; k < w->n; k++) {
        pending[k] = be->serves(w->it[k].space);
        taken[k] = false;
        total += pending[k] ? 1 + (w->it[k].partner != NULL) : 0;
        alone += pending[k] && !w->it[k].partner;
        nodecoy += pending[k] && !w->it[k].decoy;
    }
    if (!total) {
        char what[128];
        snprintf(what, sizeof(what), "%s on %s", w->s->name, be->name);
        tu_skip(what, "no event of the spec has its control in the space this backend serves");
        return;
    }
    static struct tally api, cli;
    api = (struct tally){.leg = "libregrt", .backend = be->name, .spec = w->s->name};
    cli = (struct tally){.leg = "regctl", .backend = be->name, .spec = w->s->name};
    char dir[256];
    tu_tmpdir(dir, sizeof(dir));
    if (be->attach(be, w->s->name) < 0) {
        tap(false, "%s on %s: cannot attach the backend", w->s->name, be->name);
        be->detach(be);
        tu_rm_rf(dir);
        return;
    }
    static struct batch b;
    for (;;) {
        fill_batch(&b, w, pending, taken);
        if (!b.n)
            break;
        batches++;
        api_batch(&api, be, &b, dir);
        regctl_batch(&cli, be, &b, w->s->name, dir);
    }
    be->detach(be);
    tu_rm_rf(dir);
    printf("# %s on %s: %u pairs or events in %u sessions; %u events without a partner, %u "
           "without a decoy\n",
           w->s->name, be->name, total, batches, alone, nodecoy);
    report(&api, w, be);
    report(&cli, w, be);
}

int main(void)
{
    static struct work w;
    signal(SIGPIPE, SIG_IGN);
    for (const struct hdr_spec *hs = hdr_specs; hs->name; hs++) {
        w.s = spec_named(hs->name);
        w.hs = hs;
        char why[256];
        if (!w.s) {
            tap(false, "%s: regctl has no tables for it", hs->name);
            continue;
        }
        if (collect(&w, why, sizeof(why)) < 0) {
            tap(false, "%s: %s", hs->name, why);
            continue;
        }
        if (!w.n) {
            tu_skip(hs->name, "the spec has no event tables");
            continue;
        }
        for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
            const char *no = backends[i].unavailable();
            char what[128];
            snprintf(what, sizeof(what), "%s on %s", hs->name, backends[i].name);
            if (no)
                tu_skip(what, no);
            else
                run_spec(&w, &backends[i]);
        }
    }
    printf("1..%d\n", tap_n);
    return 0;
}
