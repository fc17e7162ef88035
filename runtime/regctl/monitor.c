/*
 * monitor - `regctl monitor SPEC EVENT... [--interval DUR] [--count N]
 * [--sample N] [--sim-rate EVENT=N]...`: programs the events with the flow of
 * regc/pmon.h, then prints per-interval counts (polling) or overflows
 * (sampling every N events) in aligned columns, or one JSON document.
 * --dry-run prints every register access of the whole flow (start, one
 * interval, release) in order and touches nothing. With --backend sim,
 * --sim-rate injects N events of EVENT (as written on the command line) per
 * interval into the simulator, for demos and tests, spread over --sim-cycles
 * cycles of the boxes' clock. SIGINT, SIGTERM and SIGHUP only set a flag: the loop ends, the boxes are restored (regc_pmon_release)
 * and the status is 128 + the signal's number.
 * --socket all|LIST runs one session per package (topology from sysfs; the
 * sim backend: --sim-sockets N models), started and polled together, and
 * prints each socket's counts and their total; --csv prints one row per
 * interval, socket and event.
 */
#include "monitor.h"
#include "fail.h"
#include "advice.h"
#include "aggregate.h"
#include "multiplex.h"
#include "cmdline.h"
#include "names.h"
#include "numarg.h"
#include "output.h"
#include "run.h"
#include "secure.h"
#include "cpucheck.h"
#include "metrics.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "regc/perf.h"
#include "regc/pmon.h"
#include "regc/regc.h"
#include "regc/sim.h"

const char regctl_monitor_help[] =
    "EVENT is BLOCK[INSTANCE]:EVENT[.SUB][,FIELD=VALUE...] ('regctl events' lists them), or\n"
    "perf's: PMU/TERM=VALUE,.../ (uncore_ubox/event=0x42,umask=0x8/) or a perfmon/perf alias\n"
    "(unc_u_event_msg.doorbell_rcvd), in any case. An event without a box (imc:CAS_COUNT.RD,\n"
    "UNC_M_CAS_COUNT.RD, uncore_imc/event=0x4,umask=0x3/) counts on every box of its type,\n"
    "summed; more events than a box has counters are multiplexed. Options may come before,\n"
    "between or after the events.\n"
    "\n"
    "After '--', CMD [ARGS] is run with the counters started, and stopped when it ends; regctl\n"
    "exits with its status (128+N if signal N ended it). Without CMD and without --count, the\n"
    "run lasts until SIGINT (Ctrl-C) or SIGTERM. Totals and the elapsed time come at the end;\n"
    "-I MS or --interval DUR print intervals while it runs. Short forms as perf stat's: -I MS,\n"
    "-x SEP, -j. With --metric, the events may be left out.\n";

const struct cmdline_opt regctl_monitor_opts[] = {
    {"interval", "DUR",
     "print intervals, DUR apart: 1s, 250ms, 0 (a number needs its unit;\n"
     "without this or -I: reads every 1s, totals at the end)",
     'i'},
    {"interval-print", "MS", "print intervals, MS milliseconds apart (perf's -I; also -I MS)", 'I'},
    {"count", "N", "number of intervals (default: until CMD ends, or Ctrl-C)", 'c'},
    {"field-separator", "SEP",
     "perf stat -x's CSV (also -x SEP): [time,][socket,units,]value,unit,\n"
     "event,run time (ns),percentage running,rate,rate unit",
     'x'},
    {"json-lines", NULL, "perf stat -j's JSON, one object per line (also -j)", 'j'},
    {"table", NULL,
     "a column per event, a row per interval (the form of --count N\n"
     "without -I, -x or -j)",
     'T'},
    {"sample", "N",
     "sampling: overflow every N events; the counts are overflows (each\n"
     "whole period counted)",
     's'},
    {"pmi-core", "MASK", "sampling: PMI routing (bit i: core i; default 1)", 'p'},
    {"freeze-per-box", NULL, "freeze and unfreeze per box, not through the global control", 'b'},
    {"per-box", NULL,
     "an event without a box (imc:CAS_COUNT.RD) counts on every box of its\n"
     "type: show each box, not their sum (perf's --no-merge)",
     'B'},
    {"no-merge", NULL, "the same as --per-box", 'B'},
    {"no-multiplex", NULL,
     "refuse more events than a box has counters, instead of rotating\n"
     "groups of them and scaling the counts",
     'M'},
    {"socket", "all|LIST",
     "one session per package (LIST: 0,1 or 0-3; topology from sysfs\n"
     "cpuN/topology/physical_package_id): its first CPU for the MSR boxes,\n"
     "for its PCI boxes the buses its U-Box maps to it (E5-2600, v2: node id\n"
     "registers, as the kernel reads them; other specs: the Nth in bus order);\n"
     "counts per socket and their total (instead of --cpu)",
     'k'},
    {"csv", NULL,
     "CSV: interval,socket,event,count (sampling: overflows); one row per\n"
     "interval, socket and event, then a 'total' row per event",
     'v'},
    {"sim-rate", "EVENT=N[@SOCKET]",
     "sim backend: N occurrences of EVENT (any event of the\n"
     "spec) per interval, on every socket or on SOCKET only; they count\n"
     "where the control bits encode EVENT (N < 0: decrements, for counters\n"
     "counting up and down, dir=up-down)",
     'r'},
    {"sim-sockets", "N", "sim backend with --socket: N simulated packages, 0..N-1 (default 1)",
     'K'},
    {"no-filter-check", NULL,
     "count events that need a box filter (LLC_LOOKUP: the C-Box state), or\n"
     "one the spec does not model, without it (they count nothing, or the\n"
     "wrong thing, on hardware)",
     'F'},
    {"sim-cycles", "N",
     "sim backend: an interval is N cycles of the boxes' clock, over which\n"
     "the rates are spread (default 1000000; thresh, invert, edge_det)",
     'C'},
    {"metric", "NAME",
     "compute metric NAME ('regctl metrics SPEC' lists them) from the counts of\n"
     "the events it needs, which are added; repeatable",
     'E'},
    {"force", NULL, "program boxes found in use", 'f'},
    {"wait", NULL, "wait for boxes another run has locked", 'w'},
    {"lock-dir", "DIR",
     "lock files there (default $REGC_LOCK_DIR, else /run/regc, or\n"
     "$XDG_RUNTIME_DIR/regc when not root)",
     'L'},
    {"settle", "DUR", "how long counters are watched for advancing (default 10ms)", 'S'},
    {NULL, NULL, NULL, 0}};

#define MON_MAX_SOCKETS 64
#define MON_MAX_INTERVAL_S 86400 /* --interval: a day */

struct mon {
    const struct monitor_globals *g;
    const struct regc_spec *spec;
    const char **events; /* room for every argument: no limit on their number */
    unsigned nev;
    const char **rates; /* --sim-rate arguments, EVENT=N; room for every argument */
    unsigned nrates;
    bool per_box;       /* --per-box: a column per box (events[] holds the boxes' events) */
    char **box_events;  /* --per-box: the boxes' events (owned; regc_pmon_boxes_free) */
    long long interval_ns;
    unsigned long count;
    struct regc_pmon_opts popt;
    const char *socket_arg;    /* --socket; NULL: one session on --cpu */
    unsigned long sim_sockets; /* --sim-sockets; 0: not given */
    uint64_t sim_cycles;       /* --sim-cycles; 0: not given */
    bool no_filter_check;      /* --no-filter-check */
    bool csv;
    /* measuring a program, and perf stat's forms (run.c, output.c) */
    char **cmd;          /* after "--": the command measured; NULL: none */
    bool count_given;    /* --count: so many intervals; else until CMD ends or a signal */
    bool interval_given; /* --interval or -I: the perf forms print intervals */
    bool table;          /* --table, or --count alone (below) */
    bool ms_given;       /* -I */
    bool json_lines;     /* -j */
    const char *sep;     /* -x SEP; NULL: not given */
    struct regctl_metrics metrics; /* --metric (metrics.c) */
    double interval_s, run_s;      /* the seconds the last interval and the run covered */
    unsigned evcap;                /* events[] holds this many: argc and what --metric adds */
};

/* --sim-rate EVENT=N: the rate of EVENT in the simulator. 0, or 2 (usage) with a message. */
static int set_rate(regc_sim *sim, const char *arg)
{
    const char *eq = strrchr(arg, '=');
    int64_t n;
    if (!eq)
        return regctl_fail(2, "monitor: --sim-rate wants EVENT=N, got '%s'", arg);
    if (regctl_num_signed("monitor: --sim-rate N", eq + 1, -INT64_MAX, INT64_MAX, &n))
        return 2;
    char name[256];
    snprintf(name, sizeof(name), "%.*s", (int)(eq - arg), arg);
    if (regc_sim_rate(sim, name, n) < 0)
        return regctl_fail(2, "monitor: --sim-rate: %s", regc_sim_error(sim));
    return 0;
}

static bool is_sim(const struct mon *m)
{
    return m->g->backend && strcmp(m->g->backend, "sim") == 0;
}

/* One output form, and a command with what goes with it; NULL, or why not. */
static const char *check_forms(const struct mon *m)
{
    int forms = m->csv + m->g->json + m->table + m->json_lines + (m->sep != NULL);
    if (forms > 1)
        return "choose one output form: --table, --csv, --json, -x SEP or -j";
    if (m->sep && !*m->sep)
        return "-x wants a separator (-x , or -x ';')";
    if (m->cmd && m->count_given)
        return "--count and a command exclude each other: the command's end ends the run";
    return NULL;
}

/* The options of every socket and CSV that go together. 0, or 2 (usage) with a message. */
static int check_socket_args(const struct mon *m)
{
    const char *why = NULL;
    if (m->sim_sockets && !is_sim(m))
        why = "--sim-sockets needs --backend sim";
    else if (m->sim_cycles && !is_sim(m))
        why = "--sim-cycles needs --backend sim";
    else if (m->sim_sockets && !m->socket_arg)
        why = "--sim-sockets needs --socket";
    else
        why = check_forms(m);
    return why ? regctl_fail(2, "monitor: %s", why) : 0;
}

/* SPEC, then the events. 0, or 2 with a message. */
static int positional(struct mon *m, const char *arg)
{
    char hint[160];
    if (m->spec) {
        m->events[m->nev++] = arg;
        return 0;
    }
    m->spec = regctl_find_spec(arg, strlen(arg));
    if (!m->spec)
        fprintf(stderr, "regctl: monitor: no spec '%s'%s\n", arg,
                regctl_suggest_spec(arg, strlen(arg), " (see 'regctl list')", hint, sizeof(hint)));
    return m->spec ? 0 : 2;
}

/* ---- --metric (issue 28, item 4): the events a metric needs, its values (metrics.c) */

/* The metrics' events, added to the events given. 0, or 2 with a message. */
static int metrics_plan(struct mon *m)
{
    if (m->metrics.nnames && m->popt.sample)
        return regctl_fail(2, "monitor: --metric computes from counts; it excludes --sample");
    return regctl_metrics_plan(&m->metrics, m->spec, m->events, &m->nev, m->evcap);
}

/*
 * --per-box replaced events[0 .. nev) by each one's boxes, in order: a metric's term, whose
 * event may stand for every box of its block, sums each box it became.
 * 0, or 1 or 2 with a message (out of memory; more counts than the metrics hold).
 */
static int metrics_per_box(struct regctl_metrics *ms, const struct regc_spec *s,
                           const char *const *events, unsigned nev)
{
    unsigned *at = calloc((size_t)nev + 1, sizeof(*at)), *cnt = calloc((size_t)nev + 1, sizeof(*cnt));
    for (unsigned i = 0, pos = 0; at && cnt && i < nev; i++) {
        char **boxes;
        unsigned k;
        if (regc_pmon_boxes(s, events[i], &boxes, &k)) {
            free(at);
            at = NULL;
            break;
        }
        regc_pmon_boxes_free(boxes, k);
        at[i] = pos;
        cnt[i] = k;
        pos += k;
    }
    if (!at || !cnt) {
        free(at);
        free(cnt);
        return regctl_fail(1, "monitor: out of memory");
    }
    /* each term's slots: every box an event of it became, so the term still sums them all */
    unsigned old[sizeof(ms->slots) / sizeof(ms->slots[0])], n = 0, rc = 0;
    memcpy(old, ms->slots, sizeof(old));
    for (unsigned u = 0; u < ms->n && !rc; u++) {
        struct regctl_metric_use *use = &ms->use[u];
        for (unsigned t = 0; t < use->nterms && !rc; t++) {
            unsigned first = n;
            for (unsigned j = use->first[t]; j < use->first[t] + use->count[t] && !rc; j++)
                for (unsigned b = 0; b < cnt[old[j]] && !rc; b++) {
                    if (n == sizeof(ms->slots) / sizeof(ms->slots[0]))
                        rc = 2;
                    else
                        ms->slots[n++] = at[old[j]] + b;
                }
            use->first[t] = first;
            use->count[t] = n - first;
        }
    }
    ms->nslots = n;
    free(at);
    free(cnt);
    if (rc)
        fprintf(stderr, "regctl: monitor: --per-box: the metrics' events on every box are more than "
                        "%zu counts\n", sizeof(ms->slots) / sizeof(ms->slots[0]));
    return (int)rc;
}

/* Options may follow the events; the events are the non-option arguments after SPEC. */
static int parse_args(struct mon *m, int argc, char **argv)
{
    struct option lo[sizeof(regctl_monitor_opts) / sizeof(regctl_monitor_opts[0])];
    for (size_t i = 0; i < sizeof(lo) / sizeof(lo[0]); i++) /* the table's, as getopt wants */
        lo[i] = (struct option){regctl_monitor_opts[i].name,
                                regctl_monitor_opts[i].value ? required_argument : no_argument,
                                NULL, regctl_monitor_opts[i].id};
    uint64_t v;
    long long ns;
    int c;
    optind = 0; /* GNU getopt: 0 starts a new scan (the '-' mode state included) */
    opterr = 0;
    while ((c = getopt_long(argc, argv, "-I:x:j", lo, NULL)) != -1) {
        switch (c) {
        case 1:
            if (positional(m, optarg))
                return 2;
            break;
        case 'i':
            if (regctl_duration("monitor: --interval", optarg, MON_MAX_INTERVAL_S,
                                "-I 1000 is milliseconds, as perf's -I", &m->interval_ns))
                return 2;
            m->interval_given = true;
            break;
        case 'I': /* perf's -I: milliseconds */
            if (regctl_num("monitor: -I", optarg, 1, MON_MAX_INTERVAL_S * 1000, REGC_NUM_DEC, &v))
                return 2;
            m->interval_ns = (long long)v * 1000000;
            m->interval_given = m->ms_given = true;
            break;
        case 'x':
            m->sep = optarg;
            break;
        case 'j':
            m->json_lines = true;
            break;
        case 'T':
            m->table = true;
            break;
        case 'c':
            if (regctl_num("monitor: --count", optarg, 1, ULONG_MAX, 0, &v)) {
                if (strcmp(optarg, "0") == 0) /* perf's and older habits: 0 for "no end" */
                    fprintf(stderr, "regctl: monitor: note: without --count the run lasts until "
                                    "the command ends, or until Ctrl-C\n");
                return 2;
            }
            m->count = (unsigned long)v;
            m->count_given = true;
            break;
        case 's': /* the counter's width bounds it: regc_pmon_start() */
            if (regctl_num("monitor: --sample", optarg, 1, UINT64_MAX, 0, &m->popt.sample))
                return 2;
            break;
        case 'p': /* the PMI field's width bounds it: regc_pmon_start() */
            if (regctl_num("monitor: --pmi-core", optarg, 0, UINT64_MAX, 0, &m->popt.pmi_cores))
                return 2;
            break;
        case 'b':
            m->popt.per_box = true;
            break;
        case 'B':
            m->per_box = true;
            break;
        case 'M':
            m->popt.multiplex = false;
            break;
        case 'r':
            m->rates[m->nrates++] = optarg;
            break;
        case 'f':
            m->popt.force = true;
            break;
        case 'w':
            m->popt.lock_wait = true;
            break;
        case 'L':
            if (!regctl_path_option_ok("--lock-dir"))
                return 2;
            m->popt.lock_dir = optarg;
            break;
        case 'S':
            if (regctl_duration("monitor: --settle", optarg, 60, NULL, &ns))
                return 2;
            m->popt.settle_ms = ns ? (int)((ns + 999999) / 1000000) : -1;
            break;
        case 'k':
            m->socket_arg = optarg;
            break;
        case 'K':
            if (regctl_num("monitor: --sim-sockets", optarg, 1, MON_MAX_SOCKETS, REGC_NUM_DEC, &v))
                return 2;
            m->sim_sockets = (unsigned long)v;
            break;
        case 'v':
            m->csv = true;
            break;
        case 'F':
            m->no_filter_check = true;
            break;
        case 'C':
            if (regctl_num("monitor: --sim-cycles", optarg, 1, UINT64_MAX, 0, &m->sim_cycles))
                return 2;
            break;
        case 'E':
            if (regctl_metrics_request(&m->metrics, optarg))
                return 2;
            break;
        default: /* the others cmdline.c has refused */
            return regctl_fail(2, "monitor takes no option '%s' (see 'regctl monitor --help')",
                               argv[optind - 1]);
        }
    }
    if (optind < argc) /* after "--": the command to measure */
        m->cmd = &argv[optind];
    /* --count N alone asks for regctl's interval table, as before; -I, -x, -j, a command or a run
     * until Ctrl-C, for perf stat's forms */
    if (!check_forms(m) && m->count_given && !m->ms_given && !m->sep && !m->json_lines && !m->csv &&
        !m->g->json)
        m->table = true;
    if (m->spec && metrics_plan(m))
        return 2;
    if (!m->spec || !m->nev)
        return regctl_fail(
            2,
            "monitor: want SPEC and at least one EVENT or --metric (see 'regctl monitor --help')");
    if (m->nrates && (!m->g->backend || strcmp(m->g->backend, "sim") != 0))
        return regctl_fail(2, "monitor: --sim-rate needs --backend sim");
    return check_socket_args(m);
}

/* One session: a socket's with --socket, else the one of --cpu. */
struct sock {
    int pkg;  /* package id (sim: 0..N-1); -1: no --socket, the session of --cpu */
    int cpu;  /* msr and perf backends: the package's first CPU */
    int rank; /* pci backend without a U-Box map: the Nth matching device (place in id order) */
    bool only; /* the machine's only package (pci: its devices are the only ones; no U-Box map) */
    regc_dev *d, *pd;
    regc_pmon_session *p;
    bool started;
    uint64_t *prev, *delta; /* one per event (open_socket) */
    /* the times enabled and running at the last poll, and this interval's percentage running
     * (multiplexed: perf's per-interval column), one per event */
    uint64_t *prev_ena, *prev_run;
    double *pcnt;
};

/* ctx: the socket (struct sock) with --socket, each line then starting "S<id> " and naming the
 * CPU of an MSR access, the package whose bus a PCI access goes to; else NULL. */
static void trace(void *ctx, bool write, const struct regc_io *io, uint64_t value, int rc)
{
    const struct sock *s = ctx;
    if (s)
        printf("S%d ", s->pkg);
    char name[160] = "?";
    if (io->ref)
        regc_ref_name(io->ref, name, sizeof(name));
    char where[64];
    char slot[8];
    if (io->pci && s)
        snprintf(where, sizeof(where), "pci %s+0x%llx pkg%d",
                 regc_pci_slot(io->pci, slot, sizeof(slot)), (unsigned long long)io->address,
                 s->pkg);
    else if (io->pci)
        snprintf(where, sizeof(where), "pci %s+0x%llx",
                 regc_pci_slot(io->pci, slot, sizeof(slot)), (unsigned long long)io->address);
    else if (s) /* --socket: which CPU reaches the package */
        snprintf(where, sizeof(where), "msr 0x%llx cpu%d", (unsigned long long)io->address,
                 io->cpu);
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
    if (sim && regc_sim_interval(sim) < 0)
        return regctl_fail(-EINVAL, "monitor: --sim-rate: %s", regc_sim_error(sim));
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
    for (unsigned i = 0; i < m->nev; i++) /* every box of an event without one */
        for (unsigned k = 0; regc_pmon_box_perf_event(p, i, k, &pe) == 0; k++)
            printf("perf_event_open %s %s/%s/ type=%u config=0x%llx config1=0x%llx "
                   "config2=0x%llx sample_period=%llu cpu=%d group=%u%s\n",
                   m->events[i], pe.pmu, pe.terms, pe.type, (unsigned long long)pe.config[0],
                   (unsigned long long)pe.config[1], (unsigned long long)pe.config[2],
                   (unsigned long long)pe.sample_period, pe.cpu, pe.group,
                   pe.leader ? " leader" : "");
}

/* --table: "interval  EVENT..." ("EVENT overflows" when sampling: the counts are overflows). */
static void print_header(const struct mon *m, unsigned *widths)
{
    printf("%8s", "interval");
    for (unsigned i = 0; i < m->nev; i++) {
        char title[300];
        snprintf(title, sizeof(title), "%s%s", m->events[i], m->popt.sample ? " overflows" : "");
        widths[i] = (unsigned)strlen(title);
        if (widths[i] < 20)
            widths[i] = 20;
        printf("  %*s", (int)widths[i], title);
    }
    printf("\n");
}

/* A count; signed for an event counting up and down (a net change, maybe negative). */
static bool counts_signed(const regc_pmon_session *p, unsigned i)
{
    struct regc_pmon_info in;
    return regc_pmon_info(p, i, &in) == 0 && in.direction == REGC_DIR_UP_DOWN;
}

static void print_count(const regc_pmon_session *p, unsigned i, int width, uint64_t v)
{
    if (counts_signed(p, i))
        printf("  %*lld", width, (long long)(int64_t)v);
    else
        printf("  %*llu", width, (unsigned long long)v);
}

/* Event i's percentage of the run on a counter (below 100 when multiplexed: perf's column). */
static double running_pcnt(const regc_pmon_session *p, unsigned i)
{
    uint64_t enabled, running;
    regc_pmon_running(p, i, &enabled, &running);
    return enabled ? 100.0 * (double)running / (double)enabled : 100.0;
}

/* Event i over the whole run in one session: its total (polling; the sum over its boxes, scaled
 * when multiplexed) or its overflows (sampling). */
static uint64_t run_total(const struct mon *m, const regc_pmon_session *p, unsigned i)
{
    return m->popt.sample ? regc_pmon_overflows(p, i) : regc_pmon_total(p, i);
}

/* One interval of socket 'sk': the counts (polling) or the overflow numbers (sampling) since the
 * last one, and each event's share of the interval on a counter. */
static int one_interval(struct mon *m, struct sock *sk)
{
    regc_pmon_session *p = sk->p;
    int rc;
    if (m->popt.sample) {
        unsigned n;
        rc = regc_pmon_sample(p, NULL, 0, &n);
    } else {
        rc = regc_pmon_poll(p, NULL);
    }
    for (unsigned i = 0; !rc && i < m->nev; i++) {
        uint64_t total = run_total(m, p, i), ena, run;
        sk->delta[i] = total - sk->prev[i];
        sk->prev[i] = total;
        regc_pmon_running(p, i, &ena, &run);
        uint64_t de = ena - sk->prev_ena[i], dr = run - sk->prev_run[i];
        sk->pcnt[i] = de ? 100.0 * (double)dr / (double)de : 100.0;
        sk->prev_ena[i] = ena, sk->prev_run[i] = run;
    }
    return rc;
}

/* ---- one session per socket (--socket), or one on --cpu */

/* "regctl: monitor: [socket P: ]MSG" */
static void sock_error(const struct sock *s, const char *what, const char *msg)
{
    char pre[32] = "";
    if (s->pkg >= 0)
        snprintf(pre, sizeof(pre), "socket %d: ", s->pkg);
    fprintf(stderr, "regctl: monitor: %s%s%s\n", what, pre, msg);
}

static int by_pkg(const void *a, const void *b)
{
    const struct sock *x = a, *y = b;
    return (x->pkg > y->pkg) - (x->pkg < y->pkg);
}

/* Package 'pkg' seen on 'cpu': a new entry, or the lower CPU of an old one. -1 when full. */
static int note_cpu(struct sock *all, int *n, int pkg, int cpu)
{
    for (int i = 0; i < *n; i++)
        if (all[i].pkg == pkg) {
            if (cpu < all[i].cpu)
                all[i].cpu = cpu;
            return 0;
        }
    if (*n == MON_MAX_SOCKETS)
        return -1;
    all[(*n)++] = (struct sock){.pkg = pkg, .cpu = cpu};
    return 0;
}

/*
 * The machine's packages, in id order, each with its first CPU:
 * SYSFS/devices/system/cpu/cpuN/topology/physical_package_id (a CPU that has
 * none, being offline, is skipped). rank = the place in that order. Count, or
 * -1 with a message.
 */
static int read_packages(const struct mon *m, struct sock *all)
{
    const char *root = m->g->sysfs_root ? m->g->sysfs_root : regc_getenv("REGC_SYSFS_ROOT");
    char dir[PATH_MAX];
    snprintf(dir, sizeof(dir), "%s/devices/system/cpu", root && *root ? root : "/sys");
    DIR *dp = opendir(dir);
    if (!dp)
        return regctl_fail(-1, "monitor: --socket: cannot read %s: %s", dir, strerror(errno));
    int n = 0, rc = 0;
    for (struct dirent *e; !rc && (e = readdir(dp));) {
        uint64_t cpu, pkg;
        if (strncmp(e->d_name, "cpu", 3) != 0 ||
            regc_num_parse(e->d_name + 3, REGC_NUM_NUL, 0, INT_MAX, REGC_NUM_DEC, &cpu, NULL, 0))
            continue;
        char path[PATH_MAX + 300], text[32] = "", why[96];
        snprintf(path, sizeof(path), "%s/%s/topology/physical_package_id", dir, e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (!fgets(text, sizeof(text), f))
            text[0] = '\0';
        text[strcspn(text, "\n")] = '\0';
        if (regc_num_parse(text, REGC_NUM_NUL, 0, INT_MAX, REGC_NUM_DEC, &pkg, why, sizeof(why))) {
            fprintf(stderr, "regctl: monitor: --socket: %s holds no package number: '%s': %s\n",
                    path, text, why);
            rc = -1;
        } else if (note_cpu(all, &n, (int)pkg, (int)cpu) < 0) {
            fprintf(stderr, "regctl: monitor: --socket: more than %d packages\n", MON_MAX_SOCKETS);
            rc = -1;
        }
        fclose(f);
    }
    closedir(dp);
    if (!rc && !n) {
        fprintf(stderr,
                "regctl: monitor: --socket: no CPU topology in %s "
                "(cpuN/topology/physical_package_id)\n",
                dir);
        rc = -1;
    }
    qsort(all, (size_t)n, sizeof(*all), by_pkg);
    for (int i = 0; i < n; i++)
        all[i].rank = i;
    return rc ? -1 : n;
}

/* One number of a --socket list (a package id, an int), or -1 with the reason in 'why'. */
static long socket_number(const char *s, const char *end, char *why, size_t len)
{
    uint64_t v;
    return regc_num_parse(s, (size_t)(end - s), 0, INT_MAX, REGC_NUM_DEC, &v, why, len) ? -1
                                                                                        : (long)v;
}

/*
 * --socket all|N[-M][,...]: the chosen packages of 'all' (n of them) into
 * out, in id order (a package named twice once). Count, or -1 with a message.
 */
static int choose_sockets(const char *arg, const struct sock *all, int n, struct sock *out)
{
    bool want[MON_MAX_SOCKETS] = {false};
    for (const char *p = arg; strcmp(arg, "all") != 0;) {
        size_t len = strcspn(p, ",");
        const char *dash = memchr(p, '-', len);
        char why[96] = "a range that ends below its start";
        long lo = socket_number(p, dash ? dash : p + len, why, sizeof(why));
        long hi = dash && lo >= 0 ? socket_number(dash + 1, p + len, why, sizeof(why)) : lo;
        if (lo < 0 || hi < lo) {
            fprintf(stderr,
                    "regctl: monitor: bad --socket '%s': '%.*s': %s (want all, or a list: 0,1 or "
                    "0-3)\n",
                    arg, (int)len, p, why);
            return -1;
        }
        for (long id = lo; id <= hi; id++) {
            int i = 0;
            while (i < n && all[i].pkg != id)
                i++;
            if (i == n) {
                char have[256] = "";
                for (int j = 0; j < n; j++)
                    snprintf(have + strlen(have), sizeof(have) - strlen(have), "%s%d", j ? "," : "",
                             all[j].pkg);
                return regctl_fail(-1, "monitor: --socket: no socket %ld (packages: %s)", id, have);
            }
            want[i] = true;
        }
        if (!p[len])
            break;
        p += len + 1;
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (want[i] || strcmp(arg, "all") == 0)
            out[k++] = all[i];
    return k;
}

/* The sessions to run: one per chosen socket, or the one of --cpu. Count, or -1 (message given). */
static int plan_sockets(const struct mon *m, struct sock *out)
{
    if (!m->socket_arg) {
        out[0] = (struct sock){.pkg = -1, .cpu = m->g->cpu, .rank = m->g->cpu};
        return 1;
    }
    struct sock all[MON_MAX_SOCKETS];
    int n = 0;
    if (is_sim(m)) /* simulated packages */
        for (unsigned long i = 0; i < (m->sim_sockets ? m->sim_sockets : 1); i++, n++)
            all[n] = (struct sock){.pkg = n, .cpu = n, .rank = n};
    else
        n = read_packages(m, all);
    if (n == 1)
        all[0].only = true;
    return n < 0 ? -1 : choose_sockets(m->socket_arg, all, n, out);
}

/* --sim-rate EVENT=N[@SOCKET] on every socket's model, or on SOCKET's. 0, or 2 with a message. */
static int set_socket_rate(struct sock *socks, int n, const char *arg)
{
    char buf[300];
    const char *at = strrchr(arg, '@'), *eq = strrchr(arg, '=');
    long want = -1;
    if (at && eq && at > eq) {
        char num[96];
        want = socket_number(at + 1, at + strlen(at), num, sizeof(num));
        const char *why = want < 0                        ? num
                          : socks[0].pkg < 0              ? "@SOCKET needs --socket"
                          : at - arg >= (long)sizeof(buf) ? "too long"
                                                          : NULL;
        if (why)
            return regctl_fail(2, "monitor: --sim-rate '%s': %s%s", arg,
                               want < 0 ? "socket after '@': " : "", why);
        snprintf(buf, sizeof(buf), "%.*s", (int)(at - arg), arg);
        arg = buf;
    }
    bool found = false;
    for (int i = 0; i < n; i++) {
        if (want >= 0 && socks[i].pkg != want)
            continue;
        found = true;
        regc_sim *sim = regc_dev_sim(socks[i].d);
        int rc = sim ? set_rate(sim, arg) : 0; /* no model with --dry-run */
        if (rc)
            return rc;
    }
    if (!found)
        return regctl_fail(2, "monitor: --sim-rate: socket %ld is not monitored", want);
    return 0;
}

/* A device of socket s; with --socket on a machine of several packages, a pci device takes the
 * buses the U-Box map gives s's package (runtime/pci.c); with one package, its only devices. */
static int open_dev(regc_dev **d, const struct mon *m, struct regc_options *ro, const struct sock *s,
                    char *err, size_t errlen)
{
    ro->by_package = s->pkg >= 0 && !s->only && strcmp(ro->backend, "pci") == 0;
    ro->package = s->pkg;
    return regc_open(d, m->spec, ro, err, errlen);
}

/* Opens s's devices (no --backend: MSR boxes through msr, PCI boxes through pci, in one flow) and
 * its session with every event. 0, 1 (a device) or 2 (an event), with a message. */
static int open_socket(const struct mon *m, struct sock *s)
{
    const struct monitor_globals *g = m->g;
    const char *be = g->backend ? g->backend : "msr";
    struct regc_options ro = {.backend = be,
                              .cpu = strcmp(be, "pci") == 0 ? s->rank : s->cpu,
                              .msr_root = g->msr_root,
                              .sysfs_root = g->sysfs_root,
                              .dry_run = g->dry_run,
                              .trace = g->dry_run ? trace : NULL,
                              .trace_ctx = s->pkg >= 0 ? s : NULL};
    char err[512];
    int rc = open_dev(&s->d, m, &ro, s, err, sizeof(err));
    if (!rc && !g->backend) {
        ro.backend = "pci";
        ro.cpu = s->rank;
        rc = open_dev(&s->pd, m, &ro, s, err, sizeof(err));
    }
    if (rc < 0) {
        fprintf(stderr, "regctl: %s\n", err);
        regctl_advise(g->backend, rc, err, m->popt.lock_dir != NULL);
        return 1;
    }
    if (regc_pmon_new(&s->p, s->d) < 0)
        return regctl_fail(1, "monitor: out of memory");
    regc_pmon_set_pci_device(s->p, s->pd);
    regc_pmon_filter_check(s->p, !m->no_filter_check);
    regc_pmon_every_box(s->p, true); /* an event without a box: all of them, summed */
    s->prev = calloc(m->nev, sizeof(*s->prev));
    s->delta = calloc(m->nev, sizeof(*s->delta));
    s->prev_ena = calloc(m->nev, sizeof(*s->prev_ena));
    s->prev_run = calloc(m->nev, sizeof(*s->prev_run));
    s->pcnt = calloc(m->nev, sizeof(*s->pcnt));
    if (!s->prev || !s->delta || !s->prev_ena || !s->prev_run || !s->pcnt)
        return regctl_fail(1, "monitor: out of memory");
    for (unsigned i = 0; i < m->nev; i++)
        if (regc_pmon_add(s->p, m->events[i]) < 0) {
            sock_error(s, "", regc_pmon_error(s->p));
            return 2;
        }
    return 0;
}

static void close_socket(struct sock *s)
{
    free(s->prev);
    free(s->delta);
    free(s->prev_ena);
    free(s->prev_run);
    free(s->pcnt);
    regc_pmon_free(s->p);
    regc_close(s->pd);
    regc_close(s->d);
}

/* Starts every socket's session; a failure releases those started. 0, or the exit status. */
static int start_sockets(struct mon *m, struct sock *socks, int n)
{
    for (int k = 0; k < n; k++) {
        int rc = regc_pmon_start(socks[k].p, &m->popt);
        if (rc) {
            sock_error(&socks[k], "", regc_pmon_error(socks[k].p));
            regctl_advise(m->g->backend, rc, regc_pmon_error(socks[k].p),
                          m->popt.lock_dir != NULL);
            for (int j = 0; j < k; j++)
                regc_pmon_release(socks[j].p);
            return run_stop ? 128 + run_stop : 1;
        }
        socks[k].started = true;
        for (const char *w = regc_pmon_warning(socks[k].p); *w;) {
            size_t len = strcspn(w, "\n");
            char line[600];
            snprintf(line, sizeof(line), "%.*s", (int)len, w);
            sock_error(&socks[k], "warning: ", line);
            w += len + (w[len] == '\n');
        }
    }
    return 0;
}

/* Releases every session (frozen, what start found written back). 0, or 1 with a message. */
static int release_sockets(struct sock *socks, int n, int rc)
{
    int status = 0;
    for (int k = 0; k < n; k++) {
        int src = regc_pmon_release(socks[k].p);
        report_unmatched(socks[k].d);
        if ((rc || src) && *regc_pmon_error(socks[k].p)) /* else inject() said why */
            sock_error(&socks[k], "", regc_pmon_error(socks[k].p));
        if (src)
            status = 1;
    }
    return rc || status ? 1 : 0;
}

/* ---- output: the text of one session (as before --socket), per socket, JSON, CSV */

/* Event i summed over the sockets: this interval's counts, or the run's totals. Modulo 2^64, so
 * the signed counts of an up-and-down event add up as int64_t. */
static uint64_t socket_sum(const struct mon *m, const struct sock *socks, int n, unsigned i,
                           bool interval)
{
    uint64_t v = 0;
    for (int k = 0; k < n; k++)
        v += interval ? socks[k].delta[i] : run_total(m, socks[k].p, i);
    return v;
}

static int event_width(const struct mon *m)
{
    int w = 5;
    for (unsigned i = 0; i < m->nev; i++)
        if ((int)strlen(m->events[i]) > w)
            w = (int)strlen(m->events[i]);
    for (unsigned k = 0; k < m->metrics.n; k++) { /* "metric NAME [UNIT]" (--metric) */
        const struct regc_metric *mt = m->metrics.use[k].m;
        int mw = (int)(strlen(mt->name) + strlen(mt->unit)) + 10;
        w = mw > w ? mw : w;
    }
    return w;
}

#define SOCKET_COLUMN 16

/* --metric output (issue 28, item 4; metrics.c) */

/* Every socket's counts summed: this interval's, or the run's. */
static void metric_counts(const struct mon *m, const struct sock *socks, int n, bool interval,
                          uint64_t *out)
{
    for (unsigned i = 0; i < m->nev; i++)
        out[i] = socket_sum(m, socks, n, i, interval);
}

/* --socket, text: a row per metric, "metric NAME [UNIT]", its value on each socket and in all. */
static void print_socket_metrics(const struct mon *m, const struct sock *socks, int n,
                                 const char *label, bool interval, const uint64_t *all, double sec)
{
    uint64_t *own = calloc(m->nev + 1, sizeof(*own));
    char v[32], name[160];
    if (!own)
        return;
    for (unsigned k = 0; k < m->metrics.n; k++) {
        const struct regc_metric *mt = m->metrics.use[k].m;
        snprintf(name, sizeof(name), "metric %s [%s]", mt->name, mt->unit);
        printf("%8s  %-*s", label, event_width(m), name);
        for (int j = 0; j < n; j++) {
            for (unsigned i = 0; i < m->nev; i++)
                own[i] = interval ? socks[j].delta[i] : run_total(m, socks[j].p, i);
            printf("  %*s", SOCKET_COLUMN,
                   regctl_metric_text(regctl_metrics_value(&m->metrics, k, own, sec), v, sizeof(v)));
        }
        printf("  %*s\n", SOCKET_COLUMN,
               regctl_metric_text(regctl_metrics_value(&m->metrics, k, all, sec), v, sizeof(v)));
    }
    free(own);
}

static void emit(const struct mon *m, const struct out_row *r);

/* The lowest percentage running (of the run, or of this interval) among the events metric k
 * sums, on sockets [0, n): its value stands on counts scaled from that little at worst. */
static double metric_pcnt(const struct mon *m, const struct sock *socks, int n, unsigned k,
                          bool interval)
{
    const struct regctl_metric_use *u = &m->metrics.use[k];
    double low = 100.0;
    for (unsigned j = 0; j < u->nterms; j++)
        for (unsigned i = 0; i < u->count[j]; i++)
            for (int s = 0; s < n; s++) {
                unsigned ev = m->metrics.slots[u->first[j] + i];
                double p = interval ? socks[s].pcnt[ev] : running_pcnt(socks[s].p, ev);
                low = p < low ? p : low;
            }
    return low;
}

/* -x, -j: a row per metric (per socket with --socket, as the events' rows), no count, the
 * metric in perf's metric-value and metric-unit columns. */
static void emit_metric_rows(const struct mon *m, const struct sock *socks, int n, bool interval,
                             const uint64_t *all, double sec)
{
    bool sockets = socks[0].pkg >= 0;
    uint64_t *own = calloc(m->nev + 1, sizeof(*own));
    if (!own)
        return;
    for (unsigned k = 0; k < m->metrics.n; k++) {
        const struct regc_metric *mt = m->metrics.use[k].m;
        char event[160], id[16];
        snprintf(event, sizeof(event), "metric:%s", mt->name);
        struct out_row r = {.time = interval ? m->run_s : -1, .units = 1, .event = event,
                            .unit = "", .seconds = sec, .run_ns = (uint64_t)(sec * 1e9 + 0.5),
                            .is_metric = true, .metric_unit = mt->unit};
        for (int j = 0; j < n; j++) {
            for (unsigned i = 0; sockets && i < m->nev; i++)
                own[i] = interval ? socks[j].delta[i] : run_total(m, socks[j].p, i);
            snprintf(id, sizeof(id), "S%d", socks[j].pkg);
            r.socket = sockets ? id : NULL;
            r.metric = regctl_metrics_value(&m->metrics, k, sockets ? own : all, sec);
            r.pcnt = metric_pcnt(m, sockets ? &socks[j] : socks, sockets ? 1 : n, k, interval);
            emit(m, &r);
        }
    }
    free(own);
}

/* The metrics of this interval ('t' > 0) or of the run (t == 0), in the chosen output. */
static void print_metrics(const struct mon *m, const struct sock *socks, int n, unsigned long t,
                          json_t *row)
{
    if (!m->metrics.n)
        return;
    uint64_t *counts = calloc(m->nev + 1, sizeof(*counts));
    if (!counts)
        return;
    double sec = t ? m->interval_s : m->run_s;
    char label[24];
    snprintf(label, sizeof(label), t ? "%lu" : "total", t);
    metric_counts(m, socks, n, t != 0, counts);
    if (row)
        json_object_set_new(row, "metrics", regctl_metrics_json(&m->metrics, counts, sec));
    else if (m->sep || m->json_lines)
        emit_metric_rows(m, socks, n, t != 0, counts, sec);
    else if (m->csv)
        regctl_metrics_csv(&m->metrics, stdout, label, socks[0].pkg >= 0 ? "total" : "-", counts,
                           sec);
    else if (socks[0].pkg >= 0)
        print_socket_metrics(m, socks, n, label, t != 0, counts, sec);
    else
        regctl_metrics_print(&m->metrics, stdout, label, counts, sec);
    free(counts);
}

/* --socket, text: "interval  event  S0  S1 ... total" */
static void print_socket_header(const struct mon *m, const struct sock *socks, int n)
{
    printf("%8s  %-*s", "interval", event_width(m), m->popt.sample ? "overflows" : "event");
    for (int k = 0; k < n; k++) {
        char col[16];
        snprintf(col, sizeof(col), "S%d", socks[k].pkg);
        printf("  %*s", SOCKET_COLUMN, col);
    }
    printf("  %*s\n", SOCKET_COLUMN, "total");
}

/* --socket, text: a line per event, its count on each socket and their total. */
static void print_socket_rows(const struct mon *m, const struct sock *socks, int n, unsigned long t)
{
    for (unsigned i = 0; i < m->nev; i++) {
        printf("%8lu  %-*s", t, event_width(m), m->events[i]);
        for (int k = 0; k < n; k++)
            print_count(socks[k].p, i, SOCKET_COLUMN, socks[k].delta[i]);
        print_count(socks[0].p, i, SOCKET_COLUMN, socket_sum(m, socks, n, i, true));
        printf("\n");
    }
}

static void csv_row(unsigned long t, const char *socket, const char *event,
                    const regc_pmon_session *p, unsigned i, uint64_t v)
{
    printf("%lu,%s,", t, socket);
    out_csv_field(stdout, ",", event); /* RFC 4180 */
    if (counts_signed(p, i))
        printf(",%lld\n", (long long)(int64_t)v);
    else
        printf(",%llu\n", (unsigned long long)v);
}

/* --csv: a row per socket and event ("-" for the session of --cpu), then with --socket a
 * "total" row per event. */
static void print_csv_rows(const struct mon *m, const struct sock *socks, int n, unsigned long t)
{
    for (int k = 0; k < n; k++) {
        char id[16] = "-";
        if (socks[k].pkg >= 0)
            snprintf(id, sizeof(id), "%d", socks[k].pkg);
        for (unsigned i = 0; i < m->nev; i++)
            csv_row(t, id, m->events[i], socks[k].p, i, socks[k].delta[i]);
    }
    for (unsigned i = 0; socks[0].pkg >= 0 && i < m->nev; i++)
        csv_row(t, "total", m->events[i], socks[0].p, i, socket_sum(m, socks, n, i, true));
}

static json_t *counts_json(const struct mon *m, const uint64_t *v)
{
    json_t *a = json_array();
    for (unsigned i = 0; i < m->nev; i++)
        json_array_append_new(a, json_integer((json_int_t)v[i]));
    return a;
}

/* --json: one interval, {"interval", "values"} (with --socket, "values" are the totals and
 * "sockets" holds each socket's values). */
static json_t *interval_json(const struct mon *m, const struct sock *socks, int n, unsigned long t)
{
    json_t *sum = json_array();
    for (unsigned i = 0; i < m->nev; i++)
        json_array_append_new(sum, json_integer((json_int_t)socket_sum(m, socks, n, i, true)));
    json_t *row = json_pack("{s:I, s:o}", "interval", (json_int_t)t, "values", sum);
    if (socks[0].pkg >= 0) {
        json_t *per = json_array();
        for (int k = 0; k < n; k++)
            json_array_append_new(per, counts_json(m, socks[k].delta));
        json_object_set_new(row, "sockets", per);
    }
    return row;
}

/* ---- multiplexing (multiplex.c): the sessions of every socket */

static regc_pmon_session **sessions(const struct sock *socks, int n)
{
    regc_pmon_session **p = calloc((size_t)n, sizeof(*p));
    for (int k = 0; p && k < n; k++)
        p[k] = socks[k].p;
    return p;
}

/* --json: "percent_running" and "raw_totals" (unscaled), per event, when some event was
 * multiplexed. */
static void mux_json(const struct mon *m, const struct sock *socks, int n, json_t *doc)
{
    regc_pmon_session **p = sessions(socks, n);
    bool any = false;
    for (unsigned i = 0; p && i < m->nev; i++) {
        bool muxed;
        regctl_mux_percent(p, n, i, &muxed);
        any |= muxed;
    }
    if (any) {
        json_object_set_new(doc, "percent_running", regctl_mux_json(p, n, m->nev));
        json_object_set_new(doc, "raw_totals", regctl_mux_raw_json(p, n, m->nev));
    }
    free(p);
}

static void mux_note(const struct mon *m, const struct sock *socks, int n)
{
    regc_pmon_session **p = sessions(socks, n);
    if (p)
        regctl_mux_note(p, n, m->events, m->nev);
    free(p);
}

/* --json: the document (docs/monitoring.md section 3). */
static void print_json_doc(const struct mon *m, const struct sock *socks, int n, json_t *rows)
{
    json_t *names = json_array(), *sum = json_array();
    for (unsigned i = 0; i < m->nev; i++) {
        json_array_append_new(names, json_string(m->events[i]));
        json_array_append_new(sum, json_integer((json_int_t)socket_sum(m, socks, n, i, false)));
    }
    json_t *doc = json_pack("{s:s, s:s, s:o, s:o, s:o}", "spec", m->spec->name, "mode",
                            m->popt.sample ? "sample" : "poll", "events", names, "intervals", rows,
                            "totals", sum);
    mux_json(m, socks, n, doc);
    if (m->popt.sample)
        json_object_set_new(doc, "period", json_integer((json_int_t)m->popt.sample));
    json_t *per = socks[0].pkg >= 0 ? json_array() : NULL;
    for (int k = 0; k < n; k++) {
        regc_sim *sim = regc_dev_sim(socks[k].d);
        if (!per) {
            if (sim)
                json_object_set_new(doc, "sim_encodings", encodings_json(sim));
            continue;
        }
        json_t *own = json_array();
        for (unsigned i = 0; i < m->nev; i++)
            json_array_append_new(own, json_integer((json_int_t)run_total(m, socks[k].p, i)));
        json_t *o = json_pack("{s:i, s:i, s:o}", "socket", socks[k].pkg, "cpu", socks[k].cpu,
                              "totals", own);
        if (sim)
            json_object_set_new(o, "sim_encodings", encodings_json(sim));
        json_array_append_new(per, o);
    }
    if (per)
        json_object_set_new(doc, "sockets", per);
    print_metrics(m, socks, n, 0, doc);
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (text)
        printf("%s\n", text);
    free(text);
    json_decref(doc);
}

/* The header, if any, of the chosen output. */
static void print_top(const struct mon *m, const struct sock *socks, int n, unsigned *widths)
{
    if (m->g->json || m->g->dry_run)
        return;
    if (m->csv)
        printf("interval,socket,event,%s\n", m->popt.sample ? "overflows" : "count");
    else if (socks[0].pkg >= 0)
        print_socket_header(m, socks, n);
    else
        print_header(m, widths);
}

/* One interval's output. */
static void print_interval(const struct mon *m, const struct sock *socks, int n, unsigned long t,
                           const unsigned *widths, json_t *rows)
{
    if (rows) {
        json_t *row = interval_json(m, socks, n, t);
        print_metrics(m, socks, n, t, row);
        json_array_append_new(rows, row);
        return;
    }
    if (m->csv) {
        print_csv_rows(m, socks, n, t);
    } else if (socks[0].pkg >= 0) {
        print_socket_rows(m, socks, n, t);
    } else {
        printf("%8lu", t);
        for (unsigned i = 0; i < m->nev; i++)
            print_count(socks[0].p, i, (int)widths[i], socks[0].delta[i]);
        printf("\n");
    }
    print_metrics(m, socks, n, t, NULL);
    fflush(stdout);
}

/* ---- perf stat's forms (output.c): text, -x SEP, -j */

static bool perf_form(const struct mon *m)
{
    return !m->table && !m->csv && !m->g->json;
}

/* One reading in the chosen perf form. */
static void emit(const struct mon *m, const struct out_row *r)
{
    if (m->sep)
        out_csv_row(stdout, m->sep, r);
    else if (m->json_lines)
        out_json_row(stdout, r);
    else
        out_text_row(stdout, r, event_width(m));
}

/*
 * Every event's reading, per socket with --socket (and, in text, their total):
 * this interval's counts (interval) or the run's totals. 'time' < 0 for totals;
 * 'span' the seconds they were counted over.
 */
static void emit_rows(const struct mon *m, const struct sock *socks, int n, bool interval,
                      double time, double span)
{
    struct out_row r = {.time = time,
                        .units = 1,
                        .unit = m->popt.sample ? "overflows" : "events",
                        .seconds = span,
                        .run_ns = (uint64_t)(span * 1e9 + 0.5),
                        .pcnt = 100.0};
    bool sockets = socks[0].pkg >= 0;
    for (unsigned i = 0; i < m->nev; i++) {
        r.event = m->events[i];
        r.is_signed = counts_signed(socks[0].p, i);
        for (int k = 0; k < n; k++) {
            char id[16];
            snprintf(id, sizeof(id), "S%d", socks[k].pkg);
            r.socket = sockets ? id : NULL;
            r.value = interval ? socks[k].delta[i] : run_total(m, socks[k].p, i);
            r.pcnt = interval ? socks[k].pcnt[i] : running_pcnt(socks[k].p, i);
            r.run_ns = (uint64_t)(span * 1e9 * r.pcnt / 100.0 + 0.5); /* on a counter */
            emit(m, &r);
        }
        if (sockets && !m->sep && !m->json_lines) { /* perf's machine forms have no total row */
            r.socket = "total";
            r.units = (unsigned)n;
            r.value = socket_sum(m, socks, n, i, interval);
            emit(m, &r);
            r.units = 1;
        }
    }
}

/* What the totals' title names: "'CMD ARGS' on SPEC" or "SPEC", and the sampling period. */
static void totals_subject(const struct mon *m, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (char **a = m->cmd; a && *a && at < len; a++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", a == m->cmd ? "'" : " ", *a);
    if (m->cmd && at < len)
        at += (size_t)snprintf(buf + at, len - at, "' on ");
    if (at < len)
        at += (size_t)snprintf(buf + at, len - at, "%s", m->spec->name);
    char period[40];
    if (m->popt.sample && at < len)
        snprintf(buf + at, len - at, ", overflows of every %s events",
                 out_thousands(period, sizeof(period), m->popt.sample, false));
}

/* The run's totals: after the intervals (text), or alone (-x, -j without intervals). */
static void emit_totals(const struct mon *m, const struct sock *socks, int n, double elapsed,
                        bool intervals_shown)
{
    bool text = !m->sep && !m->json_lines;
    if (!text && intervals_shown)
        return; /* perf stat -I -x / -j: the intervals only */
    if (text) {
        char what[600];
        totals_subject(m, what, sizeof(what));
        out_text_totals_title(stdout, what);
    }
    emit_rows(m, socks, n, false, -1, elapsed);
    if (text)
        out_text_elapsed(stdout, elapsed);
    fflush(stdout);
}

/* ---- the run: intervals until --count, the command's end or a signal (run.c) */

/* One interval of every socket: --sim-rate's events, then the counts since the last poll. */
static int poll_sockets(struct mon *m, struct sock *socks, int n)
{
    int rc = 0;
    for (int k = 0; !rc && k < n; k++) {
        rc = inject(socks[k].d);
        if (!rc)
            rc = one_interval(m, &socks[k]);
    }
    return rc;
}

/*
 * Waits for the end of interval t; true when the run ends with this poll: the
 * command ended, or (no command) a signal came. With a command, a signal does
 * not end the run: the command gets it, and its end does.
 */
static bool wait_interval(const struct mon *m, struct run_child *c, long long t0, unsigned long t)
{
    if (m->g->dry_run)
        return true;
    long long deadline = t0 + (long long)t * m->interval_ns;
    for (;;) {
        if (c->pid ? run_ended(c) : run_stop != 0)
            return true;
        if (run_now_ns() >= deadline)
            return false;
        run_wait(c, deadline);
    }
}

/* Seconds from the start to poll t: the simulator's time on the sim backend (each poll is one
 * interval of its --sim-rate events), else the clock's. */
static double time_at(const struct mon *m, long long t0, unsigned long t)
{
    if (is_sim(m))
        return (double)t * (double)m->interval_ns / 1e9;
    return (double)(run_now_ns() - t0) / 1e9;
}

/* Starts the command, if any, once the counters count. 0, or the exit status. */
static int start_command(const struct mon *m, struct run_child *c)
{
    *c = (struct run_child){0};
    if (!m->cmd || m->g->dry_run || run_stop)
        return 0;
    return run_start(c, m->cmd);
}

/* Starts every session, runs the intervals (every socket polled in each), releases. */
static int run(struct mon *m, struct sock *socks, int n)
{
    int rc = start_sockets(m, socks, n);
    if (rc)
        return rc;
    for (int k = 0; m->g->dry_run && k < n; k++) /* the perf backend: the events it would open */
        print_perf_plan(m, socks[k].p);
    long long t0 = run_now_ns(); /* the counters count from here */
    struct run_child child;
    int cmd_rc = start_command(m, &child);
    if (cmd_rc) {
        release_sockets(socks, n, 0);
        return cmd_rc;
    }
    unsigned *widths = calloc(m->nev, sizeof(*widths));
    if (!widths) {
        release_sockets(socks, n, -ENOMEM);
        return regctl_fail(1, "monitor: out of memory");
    }
    json_t *rows = m->g->json ? json_array() : NULL;
    bool perf = perf_form(m), rows_shown = !perf || m->interval_given || m->count_given;
    if (!perf)
        print_top(m, socks, n, widths);
    else if (rows_shown && !m->sep && !m->json_lines && !m->g->dry_run)
        out_text_header(stdout, socks[0].pkg >= 0);
    double at = 0, before = 0;
    unsigned long limit = m->g->dry_run ? 1 : m->count; /* 0: none */
    for (unsigned long t = 1; !rc; t++) {
        bool last = wait_interval(m, &child, t0, t) || (limit && t >= limit);
        rc = poll_sockets(m, socks, n);
        if (rc || m->g->dry_run)
            break;
        at = time_at(m, t0, t);
        m->interval_s = at - before; /* --metric's seconds */
        m->run_s = at;
        if (!perf)
            print_interval(m, socks, n, t, widths, rows);
        else if (rows_shown) {
            emit_rows(m, socks, n, true, at, at - before);
            if (!m->g->dry_run)
                print_metrics(m, socks, n, t, NULL);
        }
        run_output_lost(stdout); /* a reader gone: ends the run as SIGPIPE would */
        before = at;
        if (last)
            break;
    }
    while (child.pid && !run_ended(&child)) /* a failed poll: the command runs on, unmeasured */
        run_wait(&child, -1);
    free(widths);
    if (release_sockets(socks, n, rc)) {
        json_decref(rows);
        return 1;
    }
    if (rows)
        print_json_doc(m, socks, n, rows);
    if (perf && !m->g->dry_run)
        emit_totals(m, socks, n, at, rows_shown);
    if (!rows && !m->g->dry_run && (!perf || !rows_shown || !(m->sep || m->json_lines)))
        print_metrics(m, socks, n, 0, NULL); /* the run's metrics */
    if (!rows && !m->csv && !m->sep && !m->json_lines && !m->g->dry_run)
        mux_note(m, socks, n);
    if (child.pid)
        return run_status(&child);
    return run_stop ? 128 + run_stop : 0;
}

static int monitor_events(struct mon *m, struct sock *socks);

int regctl_monitor(const struct monitor_globals *g, int argc, char **argv)
{
    struct mon m = {.g = g, .interval_ns = 1000000000LL};
    m.popt.multiplex = true; /* --no-multiplex turns it off */
    m.evcap = (unsigned)argc + REGCTL_METRIC_MAX_EVENTS;
    m.events = calloc((size_t)m.evcap + 1, sizeof(*m.events));
    m.rates = calloc((size_t)argc + 1, sizeof(*m.rates));
    int rc = m.events && m.rates ? parse_args(&m, argc, argv) : 1;
    if (!m.events || !m.rates)
        fprintf(stderr, "regctl: monitor: out of memory\n");
    struct sock socks[MON_MAX_SOCKETS];
    if (!rc)
        rc = monitor_events(&m, socks);
    regc_pmon_boxes_free(m.box_events, m.per_box ? m.nev : 0);
    free(m.events);
    free(m.rates);
    return rc;
}

/* With SPEC and the events parsed: the sessions, the run. The exit status. */
static int monitor_events(struct mon *m_, struct sock *socks)
{
    struct mon m = *m_;
    const struct monitor_globals *g = m.g;
    int rc = 0;
    if (m.per_box) {
        unsigned nbox;
        if (regctl_agg_per_box(m.spec, m.events, m.nev, &m_->box_events, &nbox) ||
            metrics_per_box(&m.metrics, m.spec, m.events, m.nev))
            return 2;
        m.events = (const char **)m_->box_events;
        m.nev = m_->nev = nbox;
    }
    int n = plan_sockets(&m, socks);
    if (n < 0)
        return 2;
    struct cpucheck_where w = {g->msr_root, g->sysfs_root, g->cpu};
    if (regctl_cpu_check(m.spec, g->backend ? g->backend : "msr", g->dry_run, g->force_cpu, &w))
        return 1;
    for (int k = 0; k < n && !rc; k++)
        rc = open_socket(&m, &socks[k]);
    for (unsigned i = 0; i < m.nrates && !rc; i++)
        rc = set_socket_rate(socks, n, m.rates[i]);
    for (int k = 0; k < n && !rc && m.sim_cycles; k++)
        if (regc_dev_sim(socks[k].d)) /* no model with --dry-run */
            regc_sim_clock(regc_dev_sim(socks[k].d), m.sim_cycles);
    if (!rc && run_catch_signals() < 0) {
        fprintf(stderr, "regctl: monitor: cannot catch signals: %s\n", strerror(errno));
        rc = 1;
    }
    if (!rc)
        rc = run(&m, socks, n);
    for (int k = 0; k < n; k++)
        close_socket(&socks[k]);
    return rc;
}
