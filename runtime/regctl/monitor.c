/*
 * monitor - `regctl monitor SPEC EVENT... [--interval DUR] [--count N]
 * [--sample N] [--sim-rate EVENT=N]...`: programs the events with the flow of
 * regc/pmon.h, then prints per-interval counts (polling) or overflows
 * (sampling every N events) in aligned columns, or one JSON document.
 * --dry-run prints every register access of the whole flow (start, one
 * interval, release) in order and touches nothing. With --backend sim,
 * --sim-rate injects N events of EVENT (as written on the command line) per
 * interval into the simulator, for demos and tests. SIGINT, SIGTERM and SIGHUP
 * only set a flag: the loop ends, the boxes are restored (regc_pmon_release)
 * and the status is 128 + the signal's number.
 */
#include "monitor.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "regc/perf.h"
#include "regc/pmon.h"
#include "regc/regc.h"
#include "regc/sim.h"
#include "regc_specs.h"

const char regctl_monitor_usage[] =
    "       regctl [options] monitor SPEC BLOCK[INSTANCE]:EVENT[.SUB][,FIELD=VALUE...]... [monitor "
    "options]\n"
    "  EVENT may also be perf's: PMU/TERM=VALUE,.../ (uncore_ubox/event=0x42,umask=0x8/) or a\n"
    "  perfmon/perf alias (unc_u_event_msg.doorbell_rcvd), in any case\n"
    "monitor options:\n"
    "  --interval DUR   time between reads: 1s, 250ms, 0 (default 1s)\n"
    "  --count N        number of intervals (default 10)\n"
    "  --sample N       sampling: overflow every N events, report the overflowed counters\n"
    "  --pmi-core MASK  sampling: PMI routing (bit i: core i; default 1)\n"
    "  --per-box        freeze and unfreeze per box, not through the global control\n"
    "  --sim-rate EVENT=N   sim backend: N occurrences of EVENT (any event of the spec) per\n"
    "                   interval; they count where the control bits encode EVENT (N < 0:\n"
    "                   decrements, for counters counting up and down, dir=up-down)\n"
    "  --force          program boxes found in use\n"
    "  --wait           wait for boxes another run has locked\n"
    "  --lock-dir DIR   lock files there (default $REGC_LOCK_DIR, else /run/regc, or\n"
    "                   $XDG_RUNTIME_DIR/regc when not root)\n"
    "  --settle DUR     how long counters are watched for advancing (default 10ms)\n";

struct mon {
    const struct monitor_globals *g;
    const struct regc_spec *spec;
    const char *events[REGC_PMON_MAX_EVENTS];
    unsigned nev;
    const char *rates[REGC_PMON_MAX_EVENTS]; /* --sim-rate arguments, EVENT=N */
    unsigned nrates;
    long long interval_ns;
    unsigned long count;
    struct regc_pmon_opts popt;
};

static volatile sig_atomic_t stop_requested; /* the signal's number */

static void on_signal(int sig)
{
    stop_requested = sig;
}

/* No SA_RESTART: a wait for a lock or an interval ends on the signal. */
static void catch_signals(void)
{
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static int parse_duration(const char *s, long long *ns)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || v < 0)
        return -1;
    double mul = 1e9;
    if (strcmp(end, "ms") == 0)
        mul = 1e6;
    else if (strcmp(end, "us") == 0)
        mul = 1e3;
    else if (strcmp(end, "s") != 0 && *end)
        return -1;
    *ns = (long long)(v * mul);
    return 0;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 0);
    if (errno || end == s || *end || s[0] == '-')
        return -1;
    *v = x;
    return 0;
}

static int parse_i64(const char *s, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 0);
    if (errno || end == s || *end)
        return -1;
    *v = x;
    return 0;
}

/* --sim-rate EVENT=N: the rate of EVENT in the simulator. 0, or 2 (usage) with a message. */
static int set_rate(regc_sim *sim, const char *arg)
{
    const char *eq = strrchr(arg, '=');
    int64_t n;
    if (!eq || parse_i64(eq + 1, &n) < 0) {
        fprintf(stderr, "regctl: monitor: --sim-rate wants EVENT=N, got '%s'\n", arg);
        return 2;
    }
    char name[256];
    snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
    if (regc_sim_rate(sim, name, n) < 0) {
        fprintf(stderr, "regctl: monitor: --sim-rate: %s\n", regc_sim_error(sim));
        return 2;
    }
    return 0;
}

/* Options may follow the events; the events are the non-option arguments after SPEC. */
static int parse_args(struct mon *m, int argc, char **argv)
{
    static const struct option lo[] = {{"interval", required_argument, NULL, 'i'},
                                       {"count", required_argument, NULL, 'c'},
                                       {"sample", required_argument, NULL, 's'},
                                       {"pmi-core", required_argument, NULL, 'p'},
                                       {"per-box", no_argument, NULL, 'b'},
                                       {"sim-rate", required_argument, NULL, 'r'},
                                       {"force", no_argument, NULL, 'f'},
                                       {"wait", no_argument, NULL, 'w'},
                                       {"lock-dir", required_argument, NULL, 'L'},
                                       {"settle", required_argument, NULL, 'S'},
                                       {NULL, 0, NULL, 0}};
    uint64_t v;
    long long ns;
    int c;
    optind = 0; /* GNU getopt: 0 starts a new scan (the '-' mode state included) */
    while ((c = getopt_long(argc, argv, "-", lo, NULL)) != -1) {
        switch (c) {
        case 1:
            if (!m->spec) {
                for (const struct regc_spec *const *s = regc_specs; *s; s++)
                    if (strcmp((*s)->name, optarg) == 0)
                        m->spec = *s;
                if (!m->spec) {
                    fprintf(stderr, "regctl: monitor: no spec '%s' (see 'regctl list')\n", optarg);
                    return 2;
                }
            } else if (m->nev < REGC_PMON_MAX_EVENTS) {
                m->events[m->nev++] = optarg;
            }
            break;
        case 'i':
            if (parse_duration(optarg, &m->interval_ns) < 0) {
                fprintf(stderr, "regctl: monitor: bad interval '%s' (want 1s, 250ms, 0)\n", optarg);
                return 2;
            }
            break;
        case 'c':
            if (parse_u64(optarg, &v) < 0 || v == 0) {
                fprintf(stderr, "regctl: monitor: bad count '%s'\n", optarg);
                return 2;
            }
            m->count = (unsigned long)v;
            break;
        case 's':
            if (parse_u64(optarg, &m->popt.sample) < 0 || m->popt.sample == 0) {
                fprintf(stderr, "regctl: monitor: bad sample period '%s'\n", optarg);
                return 2;
            }
            break;
        case 'p':
            if (parse_u64(optarg, &m->popt.pmi_cores) < 0) {
                fprintf(stderr, "regctl: monitor: bad PMI core mask '%s'\n", optarg);
                return 2;
            }
            break;
        case 'b':
            m->popt.per_box = true;
            break;
        case 'r':
            if (m->nrates < REGC_PMON_MAX_EVENTS)
                m->rates[m->nrates++] = optarg;
            break;
        case 'f':
            m->popt.force = true;
            break;
        case 'w':
            m->popt.lock_wait = true;
            break;
        case 'L':
            m->popt.lock_dir = optarg;
            break;
        case 'S':
            if (parse_duration(optarg, &ns) < 0 || ns > 60000000000LL) {
                fprintf(stderr, "regctl: monitor: bad settle time '%s' (want 10ms, 0)\n", optarg);
                return 2;
            }
            m->popt.settle_ms = ns ? (int)((ns + 999999) / 1000000) : -1;
            break;
        default:
            return 2;
        }
    }
    if (!m->spec || !m->nev) {
        fprintf(stderr, "regctl: monitor: want SPEC and at least one EVENT\n");
        return 2;
    }
    if (m->nrates && (!m->g->backend || strcmp(m->g->backend, "sim") != 0)) {
        fprintf(stderr, "regctl: monitor: --sim-rate needs --backend sim\n");
        return 2;
    }
    return 0;
}

static void trace(void *ctx, bool write, const struct regc_io *io, uint64_t value, int rc)
{
    (void)ctx;
    char name[160] = "?";
    if (io->ref)
        regc_ref_name(io->ref, name, sizeof(name));
    char where[64];
    if (io->pci)
        snprintf(where, sizeof(where), "pci %02x.%x+0x%llx", io->pci->dev, io->pci->func,
                 (unsigned long long)io->address);
    else
        snprintf(where, sizeof(where), "msr 0x%llx", (unsigned long long)io->address);
    if (write)
        printf("write %-36s %-18s 0x%llx%s\n", name, where, (unsigned long long)value,
               rc ? " failed" : "");
    else
        printf("read  %-36s %s%s\n", name, where, rc ? " failed" : "");
}

/* Sim backend: one interval of the --sim-rate rates. */
static int inject(regc_dev *d)
{
    regc_sim *sim = regc_dev_sim(d);
    if (sim && regc_sim_interval(sim) < 0) {
        fprintf(stderr, "regctl: monitor: --sim-rate: %s\n", regc_sim_error(sim));
        return -EINVAL;
    }
    return 0;
}

/* Sim backend: the enabled controls whose bits encode no event of the tables (a wrong bit, or a
 * raw event), which no named rate reaches. */
static void report_unmatched(regc_dev *d)
{
    regc_sim *sim = regc_dev_sim(d);
    struct regc_sim_encoding enc[16];
    size_t n = sim ? regc_sim_encodings(sim, true, enc, 16) : 0;
    for (size_t i = 0; i < n && i < 16; i++) {
        char nm[160];
        fprintf(stderr,
                "regctl: monitor: note: %s = 0x%llx encodes no event of the tables; named "
                "--sim-rate events count nothing there\n",
                regc_ref_name(&enc[i].ctl, nm, sizeof(nm)), (unsigned long long)enc[i].value);
    }
}

/* Sim backend, --json: every encoding the simulator saw in a running counter (regc/sim.h):
 * [{"register", "value", "event" (null: none)}]. */
static json_t *encodings_json(regc_sim *sim)
{
    size_t n = regc_sim_encodings(sim, false, NULL, 0);
    struct regc_sim_encoding *enc = calloc(n + 1, sizeof(*enc));
    json_t *list = json_array();
    n = enc ? regc_sim_encodings(sim, false, enc, n) : 0;
    for (size_t i = 0; i < n; i++) {
        char nm[160], v[24];
        snprintf(v, sizeof(v), "0x%llx", (unsigned long long)enc[i].value);
        json_array_append_new(list,
                              json_pack("{s:s, s:s, s:s?}", "register",
                                        regc_ref_name(&enc[i].ctl, nm, sizeof(nm)), "value", v,
                                        "event", enc[i].event ? enc[i].event->name : NULL));
    }
    free(enc);
    return list;
}

/* --dry-run on the perf backend: the perf events the session would open (no register access). */
static void print_perf_plan(const struct mon *m, const regc_pmon_session *p)
{
    struct regc_pmon_perf pe;
    for (unsigned i = 0; i < m->nev && regc_pmon_perf_event(p, i, &pe) == 0; i++)
        printf("perf_event_open %s %s/%s/ type=%u config=0x%llx config1=0x%llx config2=0x%llx "
               "sample_period=%llu cpu=%d group=%u%s\n",
               m->events[i], pe.pmu, pe.terms, pe.type, (unsigned long long)pe.config[0],
               (unsigned long long)pe.config[1], (unsigned long long)pe.config[2],
               (unsigned long long)pe.sample_period, pe.cpu, pe.group, pe.leader ? " leader" : "");
}

static void print_header(const struct mon *m, unsigned *widths)
{
    printf("%8s", m->popt.sample ? "interval" : "interval");
    for (unsigned i = 0; i < m->nev; i++) {
        widths[i] = (unsigned)strlen(m->events[i]);
        if (widths[i] < 20)
            widths[i] = 20;
        printf("  %*s", (int)widths[i], m->events[i]);
    }
    printf("\n");
}

/* A count; signed for an event counting up and down (a net change, maybe negative). */
static void print_count(const regc_pmon_session *p, unsigned i, int width, uint64_t v)
{
    struct regc_pmon_info in;
    if (regc_pmon_info(p, i, &in) == 0 && in.direction == REGC_DIR_UP_DOWN)
        printf("  %*lld", width, (long long)(int64_t)v);
    else
        printf("  %*llu", width, (unsigned long long)v);
}

static void sleep_interval(const struct mon *m)
{
    if (m->interval_ns <= 0 || m->g->dry_run)
        return;
    struct timespec ts = {(time_t)(m->interval_ns / 1000000000),
                          (long)(m->interval_ns % 1000000000)};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR && !stop_requested)
        ;
}

/* One interval: the counts (polling) or the overflow numbers (sampling) since the last one. */
static int one_interval(struct mon *m, regc_pmon_session *p, uint64_t *prev, uint64_t *out)
{
    uint64_t totals[REGC_PMON_MAX_EVENTS];
    int rc;
    if (m->popt.sample) {
        unsigned n;
        rc = regc_pmon_sample(p, NULL, 0, &n);
        for (unsigned i = 0; i < m->nev; i++)
            totals[i] = regc_pmon_overflows(p, i);
    } else {
        rc = regc_pmon_poll(p, totals);
    }
    for (unsigned i = 0; !rc && i < m->nev; i++) {
        out[i] = totals[i] - prev[i];
        prev[i] = totals[i];
    }
    return rc;
}

static int run(struct mon *m, regc_dev *d, regc_pmon_session *p)
{
    int rc = regc_pmon_start(p, &m->popt);
    if (rc) {
        fprintf(stderr, "regctl: monitor: %s\n", regc_pmon_error(p));
        return stop_requested ? 128 + stop_requested : 1;
    }
    for (const char *w = regc_pmon_warning(p); *w;) {
        size_t n = strcspn(w, "\n");
        fprintf(stderr, "regctl: monitor: warning: %.*s\n", (int)n, w);
        w += n + (w[n] == '\n');
    }
    if (m->g->dry_run)
        print_perf_plan(m, p);
    uint64_t prev[REGC_PMON_MAX_EVENTS] = {0}, delta[REGC_PMON_MAX_EVENTS];
    unsigned widths[REGC_PMON_MAX_EVENTS];
    json_t *rows = m->g->json ? json_array() : NULL;
    if (!m->g->json && !m->g->dry_run)
        print_header(m, widths);
    unsigned long count = m->g->dry_run ? 1 : m->count;
    for (unsigned long t = 1; !rc && t <= count && !stop_requested; t++) {
        sleep_interval(m);
        rc = inject(d);
        if (!rc)
            rc = one_interval(m, p, prev, delta);
        if (rc || m->g->dry_run)
            break;
        if (rows) {
            json_t *vals = json_array();
            for (unsigned i = 0; i < m->nev; i++)
                json_array_append_new(vals, json_integer((json_int_t)delta[i]));
            json_array_append_new(
                rows, json_pack("{s:I, s:o}", "interval", (json_int_t)t, "values", vals));
        } else {
            printf("%8lu", t);
            for (unsigned i = 0; i < m->nev; i++)
                print_count(p, i, (int)widths[i], delta[i]);
            printf("\n");
            fflush(stdout);
        }
    }
    int src = regc_pmon_release(p); /* frozen, and what start found written back */
    report_unmatched(d);
    if (rc || src) {
        if (*regc_pmon_error(p)) /* else inject() said why */
            fprintf(stderr, "regctl: monitor: %s\n", regc_pmon_error(p));
        json_decref(rows);
        return 1;
    }
    if (rows) {
        json_t *names = json_array(), *totals = json_array();
        for (unsigned i = 0; i < m->nev; i++) {
            json_array_append_new(names, json_string(m->events[i]));
            json_array_append_new(
                totals, json_integer((json_int_t)(m->popt.sample ? regc_pmon_overflows(p, i)
                                                                 : regc_pmon_total(p, i))));
        }
        json_t *doc = json_pack("{s:s, s:s, s:o, s:o, s:o}", "spec", m->spec->name, "mode",
                                m->popt.sample ? "sample" : "poll", "events", names, "intervals",
                                rows, "totals", totals);
        if (m->popt.sample)
            json_object_set_new(doc, "period", json_integer((json_int_t)m->popt.sample));
        if (regc_dev_sim(d))
            json_object_set_new(doc, "sim_encodings", encodings_json(regc_dev_sim(d)));
        char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        if (text)
            printf("%s\n", text);
        free(text);
        json_decref(doc);
    }
    return stop_requested ? 128 + stop_requested : 0;
}

int regctl_monitor(const struct monitor_globals *g, int argc, char **argv)
{
    struct mon m = {.g = g, .interval_ns = 1000000000LL, .count = 10};
    int rc = parse_args(&m, argc, argv);
    if (rc)
        return rc;
    struct regc_options ro = {.backend = g->backend ? g->backend : "msr",
                              .cpu = g->cpu,
                              .msr_root = g->msr_root,
                              .sysfs_root = g->sysfs_root,
                              .dry_run = g->dry_run,
                              .trace = g->dry_run ? trace : NULL};
    regc_dev *d;
    char err[512];
    if (regc_open(&d, m.spec, &ro, err, sizeof(err)) < 0) {
        fprintf(stderr, "regctl: %s\n", err);
        return 1;
    }
    /* no --backend: MSR boxes through msr, PCI boxes through pci, in one flow */
    regc_dev *pd = NULL;
    if (!g->backend) {
        ro.backend = "pci";
        if (regc_open(&pd, m.spec, &ro, err, sizeof(err)) < 0) {
            fprintf(stderr, "regctl: %s\n", err);
            regc_close(d);
            return 1;
        }
    }
    regc_pmon_session *p;
    if (regc_pmon_new(&p, d) < 0) {
        regc_close(pd);
        regc_close(d);
        fprintf(stderr, "regctl: monitor: out of memory\n");
        return 1;
    }
    regc_pmon_set_pci_device(p, pd);
    for (unsigned i = 0; i < m.nrates && !rc && regc_dev_sim(d); i++) /* none with --dry-run */
        rc = set_rate(regc_dev_sim(d), m.rates[i]);
    for (unsigned i = 0; i < m.nev && !rc; i++)
        if (regc_pmon_add(p, m.events[i]) < 0) {
            fprintf(stderr, "regctl: monitor: %s\n", regc_pmon_error(p));
            rc = 2;
        }
    if (!rc) {
        catch_signals();
        rc = run(&m, d, p);
    }
    regc_pmon_free(p);
    regc_close(pd);
    regc_close(d);
    return rc;
}
