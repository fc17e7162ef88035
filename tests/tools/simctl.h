/*
 * simctl - what the FUSE test devices (msrfs, pcifs) share: the specs they can
 * serve and the text commands their control file "sim" takes to drive the
 * simulator. Header-only: each file in tests/tools/ is one program.
 *
 * Commands (one per write; a bad one is EINVAL, the reason on stderr):
 *   rate EVENT N       regc_sim_rate: N occurrences of EVENT per interval (0 removes)
 *   interval           regc_sim_interval: deliver every rate once
 *   event EVENT N      regc_sim_event: N occurrences now
 *   cycles EVENT I...  regc_sim_cycles: one cycle per increment I
 *   auto 0|1           1: an interval before every register write the device receives
 *                      (drives a program that polls on its own, such as regctl)
 *   clear              no rates, no encodings seen
 *   batch 0|1          regc_sim_batch
 *   tick BLOCK INSTANCE|- GROUP COUNTER N   regc_sim_tick (counter mechanics only)
 *   defer 1|0          1: the tick and batch commands that follow are held (any other
 *                      command is EINVAL, so is a tick naming no counter); 0: they run
 *                      together, in order, at the first moment no counter their ticks name
 *                      is held by a freeze (regc_sim_tick_held): now, or right after the
 *                      register write that ends the freeze, before the device serves
 *                      anything else. So ticks sent while a program polls (freeze, read,
 *                      unfreeze) are all counted, each once, whenever they arrive; a plain
 *                      tick that lands under the program's freeze is rightly lost, as an
 *                      event is on a frozen counter. A group waits until it has run: defer 1
 *                      before then is EINVAL
 *   signal PID SIG 0xMSR K   on the Kth read of MSR 0xMSR from now (any CPU), send signal SIG
 *                      to process PID before the read returns: a program killed in the
 *                      middle of a given access, at a point a test chooses
 * EVENT is a name of regc/sim.h ("cbox[c3]:LLC_LOOKUP.DATA_READ", "ubox:fixed").
 * Reading the file gives the encodings the simulator saw, one per line:
 * "REGISTER 0xVALUE EVENT" (EVENT "-": none), REGISTER as regc_ref_name prints it.
 */
#ifndef REGC_TESTS_SIMCTL_H
#define REGC_TESTS_SIMCTL_H

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/hand_tables.h"
#include "regc/sim.h"
#if defined(__has_include)
#if __has_include("regc_specs.h")
#include "regc_specs.h"
#define HAVE_GENERATED_SPECS 1
#endif
#endif

/* The spec called 'name': a hand-written test table or a generated one; NULL if none. */
static inline const struct regc_spec *simctl_find_spec(const char *name)
{
    if (strcmp(name, hand_ubox_spec.name) == 0)
        return &hand_ubox_spec;
    if (strcmp(name, acme_spec.name) == 0)
        return &acme_spec;
#ifdef HAVE_GENERATED_SPECS
    for (const struct regc_spec *const *s = regc_specs; *s; s++)
        if (strcmp((*s)->name, name) == 0)
            return *s;
#endif
    return NULL;
}

#define SIMCTL_HELD_MAX 64  /* commands one "defer" group holds */
#define SIMCTL_HELD_LEN 128 /* the room for one of them, its NUL included */

/* The control file's state: the model, the auto-interval switch, "signal" and "defer". */
struct simctl {
    regc_sim *sim;
    bool auto_interval;
    long sig_pid, sig_left; /* "signal": to whom, and how many reads of sig_msr until then */
    int sig;
    unsigned long long sig_msr;
    bool holding; /* between "defer 1" and "defer 0" */
    bool waiting; /* after "defer 0", until the group has run */
    unsigned nheld;
    char held[SIMCTL_HELD_MAX][SIMCTL_HELD_LEN];
};

/* A command the model refused (its reason), or a line that is no command (sc NULL). -EINVAL. */
static inline int simctl_fail(const struct simctl *sc, const char *line)
{
    fprintf(stderr, "simctl: '%s': %s\n", line, sc ? regc_sim_error(sc->sim) : "bad command");
    return -EINVAL;
}

/* "cycles EVENT I...": the increments after the name. */
static inline int simctl_cycles(struct simctl *sc, const char *line, const char *args)
{
    char name[256];
    uint64_t inc[64];
    size_t n = 0;
    int used;
    if (sscanf(args, "%255s%n", name, &used) != 1)
        return simctl_fail(NULL, line);
    for (const char *p = args + used; n < 64;) {
        unsigned long long v;
        int k;
        if (sscanf(p, "%llu%n", &v, &k) != 1)
            break;
        inc[n++] = v;
        p += k;
    }
    return regc_sim_cycles(sc->sim, name, inc, n) < 0 ? simctl_fail(sc, line) : 0;
}

/* "tick BLOCK INSTANCE|- GROUP COUNTER N" */
struct simctl_tick {
    char block[64], inst[64];
    unsigned group, counter;
    unsigned long long n;
};

/* Whether 'line' is a tick command; its parts into t. */
static inline bool simctl_parse_tick(const char *line, struct simctl_tick *t)
{
    return sscanf(line, "tick %63s %63s %u %u %llu", t->block, t->inst, &t->group, &t->counter,
                  &t->n) == 5;
}

static inline const char *simctl_tick_inst(const struct simctl_tick *t)
{
    return strcmp(t->inst, "-") ? t->inst : NULL;
}

/* A held tick's counter is held by a freeze: the group must wait. */
static inline bool simctl_group_frozen(struct simctl *sc)
{
    struct simctl_tick t;
    for (unsigned i = 0; i < sc->nheld; i++)
        if (simctl_parse_tick(sc->held[i], &t) &&
            regc_sim_tick_held(sc->sim, t.block, simctl_tick_inst(&t), t.group, t.counter) > 0)
            return true;
    return false;
}

static inline int simctl_line(struct simctl *sc, const char *line);

/* Runs the waiting "defer" group if no freeze holds it (see the top); else it waits on. */
static inline void simctl_release(struct simctl *sc)
{
    if (!sc->waiting || simctl_group_frozen(sc))
        return;
    sc->waiting = false;
    for (unsigned i = 0; i < sc->nheld; i++)
        simctl_line(sc, sc->held[i]); /* checked when held; a failure says why on stderr */
    sc->nheld = 0;
}

/* "defer 1|0", and a command while a group is held. 0, or -EINVAL. */
static inline int simctl_defer(struct simctl *sc, const char *line, bool on)
{
    if (on == sc->holding || (on && sc->waiting))
        return simctl_fail(NULL, line);
    sc->holding = on;
    if (!on) {
        sc->waiting = true;
        simctl_release(sc);
    }
    return 0;
}

static inline int simctl_hold(struct simctl *sc, const char *line)
{
    struct simctl_tick t;
    int on;
    bool ok =
        simctl_parse_tick(line, &t)
            ? regc_sim_tick_held(sc->sim, t.block, simctl_tick_inst(&t), t.group, t.counter) >= 0
            : sscanf(line, "batch %d", &on) == 1;
    if (!ok || sc->nheld == SIMCTL_HELD_MAX || strlen(line) >= SIMCTL_HELD_LEN)
        return simctl_fail(NULL, line);
    strcpy(sc->held[sc->nheld++], line);
    return 0;
}

/* One command (a line without its newline). 0, or -EINVAL. */
static inline int simctl_line(struct simctl *sc, const char *line)
{
    char name[256];
    struct simctl_tick t;
    long long sn;
    int on;
    if (sscanf(line, "defer %d", &on) == 1)
        return simctl_defer(sc, line, on != 0);
    if (sc->holding)
        return simctl_hold(sc, line);
    if (sscanf(line, "rate %255s %lld", name, &sn) == 2)
        return regc_sim_rate(sc->sim, name, sn) < 0 ? simctl_fail(sc, line) : 0;
    if (strcmp(line, "interval") == 0)
        return regc_sim_interval(sc->sim) < 0 ? simctl_fail(sc, line) : 0;
    if (sscanf(line, "event %255s %lld", name, &sn) == 2)
        return regc_sim_event(sc->sim, name, sn) < 0 ? simctl_fail(sc, line) : 0;
    if (strncmp(line, "cycles ", 7) == 0)
        return simctl_cycles(sc, line, line + 7);
    if (sscanf(line, "auto %d", &on) == 1) {
        sc->auto_interval = on != 0;
        return 0;
    }
    if (strcmp(line, "clear") == 0) {
        regc_sim_rates_clear(sc->sim);
        regc_sim_encodings_clear(sc->sim);
        return 0;
    }
    if (simctl_parse_tick(line, &t))
        return regc_sim_tick(sc->sim, t.block, simctl_tick_inst(&t), t.group, t.counter, t.n) < 0
                   ? simctl_fail(NULL, line)
                   : 0;
    if (sscanf(line, "signal %ld %d %llx %ld", &sc->sig_pid, &sc->sig, &sc->sig_msr, &sc->sig_left) ==
        4)
        return sc->sig_pid > 0 && sc->sig > 0 && sc->sig_left > 0 ? 0 : simctl_fail(NULL, line);
    if (sscanf(line, "batch %d", &on) == 1) {
        regc_sim_batch(sc->sim, on != 0);
        return 0;
    }
    return simctl_fail(NULL, line);
}

/* What was written to the control file: 'size' bytes, not NUL-terminated, one or more commands
 * separated by newlines. size, or -EINVAL (the commands before the bad one ran). */
static inline int simctl_command(struct simctl *sc, const char *buf, size_t size)
{
    char line[1024];
    for (size_t at = 0; at < size;) {
        size_t end = at;
        while (end < size && buf[end] != '\n')
            end++;
        if (end - at >= sizeof(line))
            return -EINVAL;
        memcpy(line, buf + at, end - at);
        line[end - at] = '\0';
        if (end > at && simctl_line(sc, line) < 0)
            return -EINVAL;
        at = end + 1;
    }
    return (int)size;
}

/* Before a register write reaches the model: the auto interval. */
static inline void simctl_before_write(struct simctl *sc)
{
    if (sc->auto_interval)
        regc_sim_interval(sc->sim);
}

/* After a register write reached the model: a "defer" group its unfreeze lets run. */
static inline void simctl_after_write(struct simctl *sc)
{
    simctl_release(sc);
}

/* The encodings seen, as the control file reads (see above); caller frees. NULL: out of memory. */
static inline char *simctl_report(const struct simctl *sc, size_t *len)
{
    size_t n = regc_sim_encodings(sc->sim, false, NULL, 0);
    struct regc_sim_encoding *enc = calloc(n + 1, sizeof(*enc));
    char *text = malloc(n * 400 + 1);
    *len = 0;
    if (!enc || !text) {
        free(enc);
        free(text);
        return NULL;
    }
    regc_sim_encodings(sc->sim, false, enc, n);
    text[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char nm[160];
        *len += (size_t)snprintf(
            text + *len, 400, "%s 0x%llx %.200s\n", regc_ref_name(&enc[i].ctl, nm, sizeof(nm)),
            (unsigned long long)enc[i].value, enc[i].event ? enc[i].event->name : "-");
    }
    free(enc);
    return text;
}

/*
 * simctl_msr_io - one read or write of cpu/N/msr as the msr driver serves it
 * (a write first runs the auto interval, simctl_before_write):
 * 'size' must be a multiple of 8 (else -EINVAL); each 8 bytes are one access
 * to MSR 'off'. An access the model refuses (no such MSR, a reserved bit set)
 * ends the call: the bytes done before it, or its -errno (EIO, as the CPU's
 * #GP surfaces). 'log' (may be NULL) gets a line per access,
 * "R|W cpu 0xADDR 0xVALUE rc". Bytes done, or -errno.
 */
static inline int simctl_msr_io(struct simctl *sc, int cpu, bool write, char *buf, size_t size,
                                long long off, FILE *log)
{
    if (size % 8)
        return -EINVAL;
    for (size_t i = 0; i < size; i += 8) {
        struct regc_io io = {
            .space = REGC_SPACE_MSR, .cpu = cpu, .address = (uint64_t)off, .size = 64};
        uint64_t v = 0;
        if (write) {
            memcpy(&v, buf + i, 8);
            simctl_before_write(sc);
        }
        int rc = write ? regc_sim_write(sc->sim, &io, v) : regc_sim_read(sc->sim, &io, &v);
        if (write)
            simctl_after_write(sc);
        if (!write && sc->sig_left > 0 && (unsigned long long)off == sc->sig_msr &&
            --sc->sig_left == 0)
            kill((pid_t)sc->sig_pid, sc->sig);
        if (log) {
            fprintf(log, "%c %d 0x%llx 0x%llx %d\n", write ? 'W' : 'R', cpu,
                    (unsigned long long)off, (unsigned long long)v, rc);
            fflush(log);
        }
        if (rc < 0)
            return i ? (int)i : rc;
        if (!write)
            memcpy(buf + i, &v, 8);
    }
    return (int)size;
}

/*
 * simctl_cpuid - what the emulated cpu/N/cpuid holds for 'spec': leaves 0 and
 * 1 as a copy of the Linux cpuid device's first records (16 bytes each: eax,
 * ebx, ecx, edx; regc/detect.h reads a regular file so), for the spec's first
 * <cpu>: its vendor, and a signature of its family and model (stepping 0).
 * So regctl's CPU check on an emulated device sees the machine the spec is for.
 * 0, or -ENOENT when the spec names no CPU.
 */
static inline int simctl_cpuid(const struct regc_spec *spec, unsigned char out[32])
{
    const struct regc_cpu *c = spec->cpus;
    if (!c || !c->vendor || strlen(c->vendor) != 12)
        return -ENOENT;
    uint32_t fam = c->family, model = c->model;
    uint32_t base_fam = fam >= 0xF ? 0xF : fam, ext_fam = fam >= 0xF ? fam - 0xF : 0;
    uint32_t eax1 = (ext_fam << 20) | ((model >> 4) << 16) | (base_fam << 8) | ((model & 0xF) << 4);
    uint32_t l0[4] = {1, 0, 0, 0}, l1[4] = {eax1, 0, 0, 0};
    memcpy(&l0[1], c->vendor, 4);     /* ebx */
    memcpy(&l0[3], c->vendor + 4, 4); /* edx */
    memcpy(&l0[2], c->vendor + 8, 4); /* ecx */
    memcpy(out, l0, 16);
    memcpy(out + 16, l1, 16);
    return 0;
}

/* A read of 'size' bytes at 'off' from 'text' (len bytes): what a FUSE read returns. */
static inline int simctl_read_text(const char *text, size_t len, char *buf, size_t size, off_t off)
{
    size_t n = off >= 0 && (size_t)off < len ? len - (size_t)off : 0;
    if (n > size)
        n = size;
    memcpy(buf, text + (n ? off : 0), n);
    return (int)n;
}

/* Reading the control file: the encodings sc's model saw (simctl_report), from 'off'. */
static inline int simctl_read_report(const struct simctl *sc, char *buf, size_t size, off_t off)
{
    size_t len;
    char *text = simctl_report(sc, &len);
    if (!text)
        return -ENOMEM;
    int n = simctl_read_text(text, len, buf, size, off);
    free(text);
    return n;
}

/* Reading cpu/N/cpuid: simctl_cpuid's 32 bytes for 'spec', from 'off'; -EIO without a <cpu>. */
static inline int simctl_read_cpuid(const struct regc_spec *spec, char *buf, size_t size, off_t off)
{
    unsigned char id[32];
    if (simctl_cpuid(spec, id) < 0)
        return -EIO;
    return simctl_read_text((const char *)id, sizeof(id), buf, size, off);
}

#endif
