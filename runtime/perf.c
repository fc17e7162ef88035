/*
 * perf - perf_event PMUs read from sysfs, configs built by their formats
 * (regc_perf_config: a counter control value and filter settings as
 * config/config1/config2), event groups with one read() per group, sampled
 * events with a ring buffer that counts their overflows (regc/perf.h), and
 * the perf register backend: writing a pmon control register opens (enable
 * set) or closes the matching kernel event, reading its counter register
 * reads the count. The monitoring session's perf path is runtime/pmon_perf.c.
 */
#define _DEFAULT_SOURCE /* syscall() */
#include "grow.h"
#include "internal.h"
#include "kpmu.h"
#include "regc/perf.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_TERMS 32

struct fmt_term {
    char name[32];
    unsigned word; /* 0 config, 1 config1, 2 config2 */
    uint64_t mask; /* bits in that word */
    bool usable;   /* claims its bits: overlaps no narrower format (see regc_perf_config) */
};

struct regc_perf_pmu {
    char name[64];
    char dir[PATH_MAX];
    uint32_t type;
    struct fmt_term terms[MAX_TERMS];
    unsigned nterms;
};

static uint64_t range_mask(unsigned lo, unsigned hi)
{
    uint64_t top = hi >= 63 ? ~UINT64_C(0) : (UINT64_C(1) << (hi + 1)) - 1;
    return top & ~((UINT64_C(1) << lo) - 1);
}

/* "config1:0-7,21" -> word 1, mask. */
static int parse_format(const char *text, struct fmt_term *t)
{
    const char *colon = strchr(text, ':');
    if (!colon)
        return -EINVAL;
    size_t len = (size_t)(colon - text);
    if (len == 6 && strncmp(text, "config", 6) == 0)
        t->word = 0;
    else if (len == 7 && strncmp(text, "config", 6) == 0 && (text[6] == '1' || text[6] == '2'))
        t->word = (unsigned)(text[6] - '0');
    else
        return -EINVAL;
    t->mask = 0;
    for (const char *p = colon + 1; *p;) { /* "0-7,21" */
        size_t item = strcspn(p, ","), lolen = strcspn(p, "-,");
        uint64_t lo, hi;
        if (regc_num_parse(p, lolen, 0, 63, REGC_NUM_DEC, &lo, NULL, 0) ||
            (lolen < item &&
             regc_num_parse(p + lolen + 1, item - lolen - 1, lo, 63, REGC_NUM_DEC, &hi, NULL, 0)))
            return -EINVAL;
        t->mask |= range_mask((unsigned)lo, lolen < item ? (unsigned)hi : (unsigned)lo);
        p += item + (p[item] == ',');
    }
    return t->mask ? 0 : -EINVAL;
}

/*
 * A format that shares bits with a narrower one of the same word does not
 * say which bits are its own (the kernel's PCU 'occ_edge' is "config:14-51",
 * over occ_sel, inv, thresh and occ_invert; QPI 'match0' "config1:0-31" is
 * the sum of the match_* fields): only the narrower ones claim bits. Of two
 * formats with the same bits, the first by name does.
 */
static void mark_usable(struct regc_perf_pmu *p)
{
    for (unsigned i = 0; i < p->nterms; i++) {
        struct fmt_term *t = &p->terms[i];
        t->usable = true;
        for (unsigned j = 0; j < p->nterms && t->usable; j++) {
            const struct fmt_term *u = &p->terms[j];
            if (j == i || u->word != t->word || !(u->mask & t->mask))
                continue;
            int nt = regc__popcount64(t->mask), nu = regc__popcount64(u->mask);
            if (nu < nt || (nu == nt && j < i))
                t->usable = false;
        }
    }
}

static int load_formats(struct regc_perf_pmu *p, char *err, size_t errlen)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof(path), "%s/format", p->dir);
    struct dirent **ents;
    int n = scandir(path, &ents, NULL, alphasort);
    if (n < 0)
        return 0; /* no formats (software PMU) */
    int rc = 0;
    for (int i = 0; i < n; i++) {
        char file[PATH_MAX * 2], text[128];
        const char *name = ents[i]->d_name;
        if (name[0] != '.' && !rc) {
            struct fmt_term *t = &p->terms[p->nterms];
            snprintf(file, sizeof(file), "%s/%s", path, name);
            if (p->nterms == MAX_TERMS || strlen(name) >= sizeof(t->name))
                rc = regc__err(err, errlen, -E2BIG, "PMU '%s': too many or too long format names",
                               p->name);
            else if (regc__read_text(file, text, sizeof(text)) < 0 || parse_format(text, t) < 0)
                rc = regc__err(err, errlen, -EINVAL, "PMU '%s': cannot parse format '%s'", p->name,
                               name);
            else {
                memcpy(t->name, name, strlen(name) + 1); /* fits: checked above */
                p->nterms++;
            }
        }
        free(ents[i]);
    }
    free(ents);
    mark_usable(p);
    return rc;
}

/* The PMUs sysfs lists in 'devices', for a message: "breakpoint msr software ...". */
static void list_pmus(const char *devices, char *buf, size_t len, bool *any_uncore)
{
    struct dirent **ents;
    int n = scandir(devices, &ents, NULL, alphasort);
    size_t at = 0;
    buf[0] = '\0';
    *any_uncore = false;
    for (int i = 0; i < n; i++) {
        const char *name = ents[i]->d_name;
        if (name[0] != '.' && at + strlen(name) + 5 < len)
            at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? " " : "", name);
        else if (name[0] != '.' && at + 5 < len && !strstr(buf, "..."))
            at += (size_t)snprintf(buf + at, len - at, " ...");
        *any_uncore |= strncmp(name, "uncore", 6) == 0;
        free(ents[i]);
    }
    if (n >= 0)
        free(ents);
}

/* No 'type' file: say what is missing, and where the kernel lists the PMUs it has. */
static int no_pmu(const char *root, const char *name, const char *path, int rc, char *err,
                  size_t errlen)
{
    char devices[PATH_MAX], have[160];
    bool uncore;
    snprintf(devices, sizeof(devices), "%s/bus/event_source/devices", root);
    list_pmus(devices, have, sizeof(have), &uncore);
    return regc__err(err, errlen, rc,
                     "no PMU '%s' in sysfs ('%s': %s); the kernel lists its PMUs in %s%s%s%s", name,
                     path, strerror(-rc), devices, *have ? " (here: " : " (none here",
                     *have ? have : "",
                     uncore ? ")"
                            : "; no uncore_* PMU: the kernel's intel_uncore driver registers them "
                              "on the processors it supports)");
}

int regc_perf_pmu_open(struct regc_perf_pmu **out, const char *sysfs_root, const char *name,
                       char *err, size_t errlen)
{
    struct regc_perf_pmu *p = calloc(1, sizeof(*p));
    if (!p)
        return regc__err(err, errlen, -ENOMEM, "out of memory");
    const char *root = regc__root(sysfs_root, "REGC_SYSFS_ROOT", "/sys");
    snprintf(p->name, sizeof(p->name), "%s", name);
    snprintf(p->dir, sizeof(p->dir), "%s/bus/event_source/devices/%s", root, name);
    char path[PATH_MAX + 8], text[32];
    snprintf(path, sizeof(path), "%s/type", p->dir);
    int rc = regc__read_text(path, text, sizeof(text));
    if (rc < 0 && strcmp(name, "software") == 0) {
        p->type = PERF_TYPE_SOFTWARE;
    } else if (rc < 0) {
        free(p);
        return no_pmu(root, name, path, rc, err, errlen);
    } else {
        uint64_t type;
        char why[96];
        if (regc_num_parse(text, REGC_NUM_NUL, 0, UINT32_MAX, REGC_NUM_DEC, &type, why,
                           sizeof(why))) {
            free(p);
            return regc__err(err, errlen, -EINVAL, "%s: '%s': %s", path, text, why);
        }
        p->type = (uint32_t)type;
    }
    rc = load_formats(p, err, errlen);
    if (rc < 0) {
        free(p);
        return rc;
    }
    *out = p;
    return 0;
}

void regc_perf_pmu_close(struct regc_perf_pmu *p)
{
    free(p);
}

uint32_t regc_perf_pmu_type(const struct regc_perf_pmu *p)
{
    return p->type;
}

const char *regc_perf_pmu_name(const struct regc_perf_pmu *p)
{
    return p->name;
}

static const struct fmt_term *find_term(const struct regc_perf_pmu *p, const char *name)
{
    for (unsigned i = 0; i < p->nterms; i++)
        if (strcmp(p->terms[i].name, name) == 0)
            return &p->terms[i];
    return NULL;
}

/* The kernel names the threshold format after its width on some PMUs ("thresh5", "thresh8"). */
static const struct fmt_term *find_role_term(const struct regc_perf_pmu *p, const char *name)
{
    const struct fmt_term *t = find_term(p, name);
    for (unsigned i = 0; !t && strcmp(name, "thresh") == 0 && i < p->nterms; i++)
        if (strncmp(p->terms[i].name, "thresh", 6) == 0)
            t = &p->terms[i];
    return t;
}

int regc_perf_pmu_format(const struct regc_perf_pmu *p, const char *name, unsigned *word,
                         uint64_t *mask)
{
    const struct fmt_term *t = find_term(p, name);
    if (!t)
        return -ENOENT;
    *word = t->word;
    *mask = t->mask;
    return 0;
}

/* Scatters the low bits of v into the set bits of mask (formats may be split: "config:0-7,21"). */
static int deposit(uint64_t mask, uint64_t v, uint64_t *out)
{
    uint64_t r = 0;
    for (unsigned bit = 0; bit < 64; bit++) {
        if (!(mask >> bit & 1))
            continue;
        r |= (v & 1) << bit;
        v >>= 1;
    }
    *out = r;
    return v ? -ERANGE : 0;
}

/* The inverse: the bits of v under mask, gathered to the low end. */
static uint64_t extract(uint64_t mask, uint64_t v)
{
    uint64_t r = 0;
    unsigned k = 0;
    for (unsigned bit = 0; bit < 64; bit++)
        if (mask >> bit & 1)
            r |= (v >> bit & 1) << k++;
    return r;
}

int regc_perf_encode(const struct regc_perf_pmu *p, const struct regc_perf_term *terms, size_t n,
                     uint64_t config[3], char *err, size_t errlen)
{
    config[0] = config[1] = config[2] = 0;
    for (size_t i = 0; i < n; i++) {
        const struct fmt_term *t = find_term(p, terms[i].name);
        uint64_t bits;
        if (!t)
            return regc__err(err, errlen, -EINVAL, "PMU '%s' has no format '%s'", p->name,
                             terms[i].name);
        if (deposit(t->mask, terms[i].value, &bits) < 0)
            return regc__err(err, errlen, -EINVAL,
                             "value 0x%llx does not fit format '%s' of PMU '%s'",
                             (unsigned long long)terms[i].value, terms[i].name, p->name);
        config[t->word] |= bits;
    }
    return 0;
}

int regc_perf_event_config(const struct regc_perf_pmu *p, const char *event, uint64_t config[3],
                           char *err, size_t errlen)
{
    char path[PATH_MAX + 128], text[256];
    snprintf(path, sizeof(path), "%s/events/%s", p->dir, event);
    int rc = regc__read_text(path, text, sizeof(text));
    if (rc < 0)
        return regc__err(err, errlen, rc, "PMU '%s' lists no event '%s'", p->name, event);
    struct regc_perf_term terms[8];
    size_t n = 0;
    for (char *save = NULL, *tok = strtok_r(text, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (n == 8)
            return regc__err(err, errlen, -E2BIG, "event '%s' of PMU '%s' has too many terms",
                             event, p->name);
        uint64_t v = 1;
        char why[96];
        if (eq)
            *eq = '\0';
        if (eq && regc_num_parse(eq + 1, REGC_NUM_NUL, 0, UINT64_MAX, 0, &v, why, sizeof(why)))
            return regc__err(err, errlen, -EINVAL, "%s: term '%s': '%s': %s", path, tok, eq + 1,
                             why);
        terms[n++] = (struct regc_perf_term){tok, v};
    }
    return regc_perf_encode(p, terms, n, config, err, errlen);
}

static void fmt_text(const struct fmt_term *t, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, "config%s:", t->word ? (t->word == 1 ? "1" : "2") : "");
    for (unsigned lo = 0; lo < 64 && n < len; lo++) {
        if (!(t->mask >> lo & 1))
            continue;
        unsigned hi = lo;
        while (hi + 1 < 64 && (t->mask >> (hi + 1) & 1))
            hi++;
        n +=
            (size_t)(hi == lo ? snprintf(buf + n, len - n, "%s%u", buf[n - 1] == ':' ? "" : ",", lo)
                              : snprintf(buf + n, len - n, "%s%u-%u", buf[n - 1] == ':' ? "" : ",",
                                         lo, hi));
        lo = hi;
    }
}

/*
 * Does format t hold field f: in config, with f's bits its lowest ones, and
 * any further bit an extension no other role field uses ("config:0-7,21":
 * ev_sel and ev_sel_ext; "config:0-8" would take umask's bit 8)?
 */
static bool term_holds(const struct fmt_term *t, const struct regc_field *f, uint64_t others)
{
    uint64_t fm = regc_field_mask(f);
    unsigned width = (unsigned)(f->msb - f->lsb + 1);
    uint64_t low;
    deposit(t->mask, regc_num_max_bits(width), &low);
    return t->word == 0 && (t->mask & fm) == fm && low == fm && !(t->mask & ~fm & others);
}

int regc_perf_check_counters(const struct regc_perf_pmu *p, const struct regc_block *b,
                             const struct regc_counters *c, char *err, size_t errlen)
{
    const struct regc_reg *ctl = regc_block_reg(b, c->control);
    if (!ctl)
        return regc__err(err, errlen, -ENOENT, "block '%s' has no register '%s'", b->name,
                         c->control);
    const char *map[][2] = {{"event", c->event},
                            {"umask", c->umask},
                            {"edge", c->edge},
                            {"inv", c->invert},
                            {"thresh", c->threshold}};
    const size_t n = sizeof(map) / sizeof(map[0]);
    uint64_t roles = 0;
    for (size_t i = 0; i < n; i++) {
        const struct regc_field *f = map[i][1] ? regc_reg_field(ctl, map[i][1]) : NULL;
        roles |= f ? regc_field_mask(f) : 0;
    }
    for (size_t i = 0; i < n; i++) {
        const struct fmt_term *t = find_role_term(p, map[i][0]);
        const struct regc_field *f = map[i][1] ? regc_reg_field(ctl, map[i][1]) : NULL;
        if (!t || !f || term_holds(t, f, roles & ~regc_field_mask(f)))
            continue;
        char kf[96];
        fmt_text(t, kf, sizeof(kf));
        return regc__err(err, errlen, -EINVAL,
                         "spec field '%s' [%u:%u] of '%s.%s' disagrees with the kernel's format "
                         "'%s' (%s) of PMU '%s'",
                         f->name, f->msb, f->lsb, b->name, ctl->name, t->name, kf, p->name);
    }
    return 0;
}

/* ---- regc_perf_config: a control value and filter settings as config words */

/* The bits of word w that usable formats claim; 'reg' non-NULL: only formats named for it. */
static bool named_for(const struct fmt_term *t, const struct regc_reg *reg);

static uint64_t claimed(const struct regc_perf_pmu *p, unsigned w, const struct regc_reg *reg)
{
    uint64_t m = 0;
    for (unsigned i = 0; i < p->nterms; i++)
        if (p->terms[i].usable && p->terms[i].word == w && (!reg || named_for(&p->terms[i], reg)))
            m |= p->terms[i].mask;
    return m;
}

/* The first field of r with a bit in 'bits', for messages. */
static const struct regc_field *field_at(const struct regc_reg *r, uint64_t bits)
{
    for (const struct regc_field *f = r->fields; f->name; f++)
        if (regc_field_mask(f) & bits)
            return f;
    return NULL;
}

static int unclaimed(const struct regc_perf_pmu *p, const struct regc_reg *r,
                     const struct regc_field *f, uint64_t v, char *err, size_t errlen)
{
    return regc__err(err, errlen, -EINVAL,
                     "PMU '%s' publishes no format for field '%s' [%u:%u] of '%s' (0x%llx): the "
                     "kernel would not program it and would count something else",
                     p->name, f ? f->name : "?", f ? f->msb : 0, f ? f->lsb : 0, r->name,
                     (unsigned long long)v);
}

/* config (word 0) of a general counter: the control's bits the kernel programs. */
static int control_word(const struct regc_perf_pmu *p, const struct regc_reg *r,
                        const struct regc_counters *c, uint64_t ctl, uint64_t *word, char *err,
                        size_t errlen)
{
    uint64_t owned = regc__field_mask_named(r, c->enable) | regc__field_mask_named(r, c->reset) |
                     regc__field_mask_named(r, c->pmi) | regc__field_mask_named(r, c->wrap_field);
    uint64_t v = ctl & ~owned;
    uint64_t lost = v & ~claimed(p, 0, NULL);
    if (lost) {
        const struct regc_field *f = field_at(r, lost);
        return unclaimed(p, r, f, f ? regc_field_get(f, ctl) : lost, err, errlen);
    }
    *word = v;
    return 0;
}

/* A fixed counter: the kernel's UNCORE_FIXED_EVENT, event=0xff, and nothing else. */
static int fixed_word(const struct regc_perf_pmu *p, const struct regc_reg *r,
                      const struct regc_counters *c, uint64_t ctl, uint64_t *word, char *err,
                      size_t errlen)
{
    uint64_t owned = regc__field_mask_named(r, c->enable) | regc__field_mask_named(r, c->reset) |
                     regc__field_mask_named(r, c->pmi) | regc__field_mask_named(r, c->wrap_field);
    const struct regc_field *f = field_at(r, ctl & ~owned);
    if (f)
        return regc__err(err, errlen, -EINVAL,
                         "the kernel's fixed-counter event (event=0xff) of PMU '%s' takes no "
                         "field '%s' of '%s'",
                         p->name, f->name, r->name);
    const struct fmt_term *ev = find_term(p, "event");
    if (!ev || ev->word != 0 || deposit(ev->mask, 0xff, word) < 0)
        return regc__err(err, errlen, -EINVAL,
                         "PMU '%s' has no 'event' format in config to select its fixed counter",
                         p->name);
    return 0;
}

/* Is format t named for register reg: "filter_nid" for "Cn_MSR_PMON_BOX_FILTER1"? */
static bool named_for(const struct fmt_term *t, const struct regc_reg *reg)
{
    const char *us = strchr(t->name, '_');
    size_t n = us ? (size_t)(us - t->name) : 0;
    if (n < 3)
        return false;
    for (const char *s = reg->name; *s; s++) {
        size_t k = 0;
        while (k < n && s[k] && (s[k] | 0x20) == t->name[k])
            k++;
        if (k == n)
            return true;
    }
    return false;
}

/* How many of reg's fields coincide with formats named for it, placed in word w at 'shift'. */
static unsigned placement_score(const struct regc_perf_pmu *p, const struct regc_reg *reg,
                                unsigned w, unsigned shift)
{
    unsigned score = 0;
    for (const struct regc_field *f = reg->fields; f->name; f++) {
        if (f->implicit || regc_field_sem(f) == REGC_SEM_MBZ || regc_field_sem(f) == REGC_SEM_IG ||
            f->msb + shift >= 64)
            continue;
        uint64_t at = regc_field_mask(f) << shift;
        for (unsigned i = 0; i < p->nterms; i++) {
            const struct fmt_term *t = &p->terms[i];
            if (t->usable && t->word == w && t->mask == at && named_for(t, reg))
                score++;
        }
    }
    return score;
}

/* Where the kernel takes register reg from: config word 1 or 2, at bit 0 or 32. */
static int place_reg(const struct regc_perf_pmu *p, const struct regc_reg *reg, unsigned *word,
                     unsigned *shift, char *err, size_t errlen)
{
    unsigned best = 0, ties = 0;
    for (unsigned w = 1; w <= 2; w++)
        for (unsigned s = 0; s <= 32; s += 32) {
            unsigned sc = placement_score(p, reg, w, s);
            if (sc > best)
                best = sc, ties = 1, *word = w, *shift = s;
            else if (sc && sc == best)
                ties++;
        }
    if (!best)
        return regc__err(err, errlen, -EINVAL,
                         "PMU '%s' takes no register '%s': none of its config1/config2 formats "
                         "is one of its fields",
                         p->name, reg->name);
    if (ties > 1)
        return regc__err(err, errlen, -EINVAL,
                         "PMU '%s': the fields of register '%s' match its formats in %u places",
                         p->name, reg->name, ties);
    return 0;
}

static int place_setting(const struct regc_perf_pmu *p, const struct regc_perf_setting *s,
                         uint64_t want[3], char *err, size_t errlen)
{
    unsigned w = 0, shift = 0, width = (unsigned)(s->field->msb - s->field->lsb + 1);
    if (width < 64 && s->value >> width)
        return regc__err(err, errlen, -EINVAL, "value 0x%llx does not fit field '%s' [%u:%u] of '%s'",
                         (unsigned long long)s->value, s->field->name, s->field->msb,
                         s->field->lsb, s->reg->name);
    int rc = place_reg(p, s->reg, &w, &shift, err, errlen);
    if (rc)
        return rc;
    uint64_t bits = regc_field_put(s->field, 0, s->value);
    if (s->field->msb + shift >= 64 || (bits << shift) & ~claimed(p, w, s->reg))
        return unclaimed(p, s->reg, s->field, s->value, err, errlen);
    want[w] |= bits << shift;
    return 0;
}

/* The terms that give want[] through the usable formats, and the config they build. */
static int encode_words(const struct regc_perf_pmu *p, const uint64_t want[3], uint64_t config[3],
                        char *text, size_t textlen, char *err, size_t errlen)
{
    struct regc_perf_term terms[MAX_TERMS];
    size_t n = 0, at = 0;
    if (text && textlen)
        text[0] = '\0';
    for (unsigned i = 0; i < p->nterms; i++) {
        const struct fmt_term *t = &p->terms[i];
        uint64_t v = t->usable ? extract(t->mask, want[t->word]) : 0;
        if (!v)
            continue;
        terms[n++] = (struct regc_perf_term){t->name, v};
        if (text && at < textlen)
            at += (size_t)snprintf(text + at, textlen - at, "%s%s=0x%llx", at ? "," : "", t->name,
                                   (unsigned long long)v);
    }
    if (text && at >= textlen)
        return regc__err(err, errlen, -ENOSPC, "PMU '%s': the perf terms take more than %zu bytes",
                         p->name, textlen - 1);
    if (text && textlen && !n)
        snprintf(text, textlen, "config=0x0"); /* the perf tool's term for a raw config */
    int rc = regc_perf_encode(p, terms, n, config, err, errlen);
    if (!rc && (config[0] != want[0] || config[1] != want[1] || config[2] != want[2]))
        return regc__err(err, errlen, -EINVAL, "PMU '%s': the formats do not rebuild the config",
                         p->name); /* not reached: every bit was claimed */
    return rc;
}

int regc_perf_config(const struct regc_perf_pmu *p, const struct regc_block *b,
                     const struct regc_counters *c, uint64_t ctl,
                     const struct regc_perf_setting *sets, size_t n, uint64_t config[3],
                     char *terms, size_t termslen, char *err, size_t errlen)
{
    const struct regc_reg *r = regc_block_reg(b, c->control);
    if (!r)
        return regc__err(err, errlen, -ENOENT, "block '%s' has no register '%s'", b->name,
                         c->control);
    uint64_t want[3] = {0, 0, 0};
    int rc = regc__streq(c->kind, "fixed") ? fixed_word(p, r, c, ctl, &want[0], err, errlen)
                                     : control_word(p, r, c, ctl, &want[0], err, errlen);
    for (size_t i = 0; !rc && i < n; i++)
        rc = place_setting(p, &sets[i], want, err, errlen);
    return rc ? rc : encode_words(p, want, config, terms, termslen, err, errlen);
}

/* ---- perf's language (runtime/perf_lang.c): built-in formats, configs back to fields */

int regc__perf_pmu_static(struct regc_perf_pmu **out, const char *name, const char *formats,
                          char *err, size_t errlen)
{
    struct regc_perf_pmu *p = calloc(1, sizeof(*p));
    if (!p)
        return regc__err(err, errlen, -ENOMEM, "out of memory");
    snprintf(p->name, sizeof(p->name), "%s", name);
    for (const char *f = formats + strspn(formats, " "); *f; f += strspn(f, " ")) {
        size_t len = strcspn(f, " "), nlen = strcspn(f, "=");
        struct fmt_term *t = &p->terms[p->nterms];
        char cfg[64];
        snprintf(cfg, sizeof(cfg), "%.*s", nlen < len ? (int)(len - nlen - 1) : 0, f + nlen + 1);
        if (p->nterms == MAX_TERMS || nlen >= len || nlen >= sizeof(t->name) ||
            parse_format(cfg, t) < 0) {
            free(p);
            return regc__err(err, errlen, -EINVAL, "PMU '%s': bad built-in format '%.*s'", name,
                             (int)len, f);
        }
        memcpy(t->name, f, nlen);
        t->name[nlen] = '\0';
        p->nterms++;
        f += len;
    }
    mark_usable(p);
    *out = p;
    return 0;
}

void regc__perf_format_names(const struct regc_perf_pmu *p, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < p->nterms && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", p->terms[i].name);
}

int regc__perf_decode(const struct regc_perf_pmu *p, const struct regc_block *b,
                      const struct regc_reg *control, const uint64_t config[3], uint64_t *ctl,
                      struct regc_perf_setting *sets, size_t max, size_t *n, char *err,
                      size_t errlen)
{
    uint64_t left[3] = {0, config[1], config[2]};
    char msg[8];
    *ctl = config[0];
    *n = 0;
    for (const struct regc_reg *r = b->regs; r->name && (left[1] | left[2]); r++) {
        unsigned w = 0, shift = 0;
        if (r == control || place_reg(p, r, &w, &shift, msg, sizeof(msg)) < 0)
            continue;
        for (const struct regc_field *f = r->fields; f->name; f++) {
            if (f->implicit || f->msb + shift >= 64)
                continue;
            uint64_t m = regc_field_mask(f) << shift, bits = left[w] & m & claimed(p, w, r);
            if (!bits)
                continue;
            if (*n == max)
                return regc__err(err, errlen, -ENOSPC, "too many filter settings");
            sets[(*n)++] = (struct regc_perf_setting){r, f, regc_field_get(f, bits >> shift)};
            left[w] &= ~m;
        }
    }
    for (unsigned w = 1; w <= 2; w++)
        if (left[w])
            return regc__err(err, errlen, -EINVAL,
                             "PMU '%s': config%u bits 0x%llx are no field of a register of "
                             "block '%s'",
                             p->name, w, (unsigned long long)left[w], b->name);
    return 0;
}

/* ---- groups */

#define MAX_GROUP 64
#define RING_PAGES 8 /* data pages of a sampled event's ring buffer (a power of two) */

struct regc_perf_group {
    int fds[MAX_GROUP];
    void *ring[MAX_GROUP]; /* sampled events: the mapped ring buffer; NULL: counting */
    uint64_t overflows[MAX_GROUP];
    unsigned n;
    uint64_t enabled, running; /* the leader's times at the last group read (multiplexing) */
};

static size_t ring_len(void)
{
    return (size_t)(RING_PAGES + 1) * (size_t)sysconf(_SC_PAGESIZE);
}

int regc_perf_group_new(struct regc_perf_group **out)
{
    *out = calloc(1, sizeof(**out));
    return *out ? 0 : -ENOMEM;
}

void regc_perf_group_free(struct regc_perf_group *g)
{
    if (!g)
        return;
    for (unsigned i = g->n; i-- > 0;) {
        if (g->ring[i])
            munmap(g->ring[i], ring_len());
        close(g->fds[i]);
    }
    free(g);
}

unsigned regc_perf_group_size(const struct regc_perf_group *g)
{
    return g->n;
}

const char *regc_perf_strerror(int rc, char *buf, size_t len)
{
    char par[16] = "?";
    switch (-rc) {
    case EACCES:
    case EPERM:
        regc__read_text("/proc/sys/kernel/perf_event_paranoid", par, sizeof(par));
        snprintf(buf, len,
                 "perf_event_open not permitted: kernel.perf_event_paranoid is %s "
                 "(/proc/sys/kernel/perf_event_paranoid; CPU-wide and uncore events need 0 or "
                 "less, or CAP_PERFMON/root; as root, sysctl kernel.perf_event_paranoid=0 "
                 "lowers it)",
                 par);
        break;
    case ENOENT:
    case EOPNOTSUPP:
        snprintf(buf, len, "the PMU does not support this event (%s)", strerror(-rc));
        break;
    case EINVAL:
        snprintf(buf, len, "the kernel rejected the event's config or target (%s)", strerror(-rc));
        break;
    default:
        snprintf(buf, len, "perf_event_open failed: %s", strerror(-rc));
    }
    return buf;
}

static int group_open(struct regc_perf_group *g, const struct regc_perf_pmu *p,
                      const uint64_t config[3], uint64_t period, pid_t pid, int cpu,
                      unsigned *index, char *err, size_t errlen)
{
    if (g->n == MAX_GROUP)
        return regc__err(err, errlen, -E2BIG, "too many events in one group (at most %d)",
                         MAX_GROUP);
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.size = sizeof(attr);
    attr.type = p->type;
    attr.config = config[0];
    attr.config1 = config[1];
    attr.config2 = config[2];
    attr.sample_period = period;
    attr.disabled = g->n == 0;
    /* the times tell how long the kernel had the group on the PMU's counters (multiplexing) */
    attr.read_format = g->n == 0 ? PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
                                       PERF_FORMAT_TOTAL_TIME_RUNNING
                                 : 0;
    int leader = g->n ? g->fds[0] : -1;
    long fd = syscall(SYS_perf_event_open, &attr, pid, cpu, leader, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) {
        int rc = -errno;
        char msg[256];
        return regc__err(err, errlen, rc, "PMU '%s' config 0x%llx%s: %s%s", p->name,
                         (unsigned long long)config[0], period ? " sampled" : "",
                         regc_perf_strerror(rc, msg, sizeof(msg)),
                         period && rc == -EINVAL
                             ? "; the kernel's uncore PMUs do not sample (uncore.c: 'Sampling "
                               "not supported yet'): count, or sample through the msr and pci "
                               "backends"
                             : "");
    }
    void *ring = NULL;
    if (period) {
        ring = mmap(NULL, ring_len(), PROT_READ | PROT_WRITE, MAP_SHARED, (int)fd, 0);
        if (ring == MAP_FAILED) {
            int rc = -errno;
            close((int)fd);
            return regc__err(err, errlen, rc, "PMU '%s': cannot map the ring buffer: %s", p->name,
                             strerror(-rc));
        }
    }
    if (index)
        *index = g->n;
    g->ring[g->n] = ring;
    g->overflows[g->n] = 0;
    g->fds[g->n++] = (int)fd;
    return 0;
}

int regc_perf_group_add(struct regc_perf_group *g, const struct regc_perf_pmu *p,
                        const uint64_t config[3], pid_t pid, int cpu, unsigned *index, char *err,
                        size_t errlen)
{
    return group_open(g, p, config, 0, pid, cpu, index, err, errlen);
}

int regc_perf_group_add_sampled(struct regc_perf_group *g, const struct regc_perf_pmu *p,
                                const uint64_t config[3], uint64_t period, pid_t pid, int cpu,
                                unsigned *index, char *err, size_t errlen)
{
    if (!period)
        return regc__err(err, errlen, -EINVAL, "a sampled event needs a period");
    return group_open(g, p, config, period, pid, cpu, index, err, errlen);
}

/* Copies len bytes at position pos of a ring of 'size' bytes (records may wrap around its end). */
static void ring_copy(void *dst, const unsigned char *data, uint64_t size, uint64_t pos, size_t len)
{
    for (size_t i = 0; i < len; i++)
        ((unsigned char *)dst)[i] = data[(pos + i) % size];
}

int regc_perf_event_overflows(struct regc_perf_group *g, unsigned index, uint64_t *total)
{
    if (index >= g->n || !g->ring[index])
        return -EINVAL;
    struct perf_event_mmap_page *pg = g->ring[index];
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t off = pg->data_offset ? pg->data_offset : page;
    uint64_t size = pg->data_size ? pg->data_size : RING_PAGES * page;
    const unsigned char *data = (const unsigned char *)pg + off;
    uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), tail = pg->data_tail;
    while (tail < head) {
        struct perf_event_header h;
        ring_copy(&h, data, size, tail, sizeof(h));
        if (h.size < sizeof(h))
            return -EIO;
        if (h.type == PERF_RECORD_SAMPLE) {
            g->overflows[index]++;
        } else if (h.type == PERF_RECORD_LOST && h.size >= sizeof(h) + 16) {
            uint64_t idlost[2];
            ring_copy(idlost, data, size, tail + sizeof(h), sizeof(idlost));
            g->overflows[index] += idlost[1];
        }
        tail += h.size;
    }
    __atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
    *total = g->overflows[index];
    return 0;
}

static int group_ioctl(struct regc_perf_group *g, unsigned long req)
{
    if (!g->n)
        return -EINVAL;
    return ioctl(g->fds[0], req, PERF_IOC_FLAG_GROUP) < 0 ? -errno : 0;
}

int regc_perf_group_enable(struct regc_perf_group *g)
{
    return group_ioctl(g, PERF_EVENT_IOC_ENABLE);
}

int regc_perf_group_disable(struct regc_perf_group *g)
{
    return group_ioctl(g, PERF_EVENT_IOC_DISABLE);
}

int regc_perf_group_read(struct regc_perf_group *g, uint64_t *values, unsigned n)
{
    uint64_t buf[3 + MAX_GROUP]; /* nr, time enabled, time running, the values */
    if (!g->n)
        return -EINVAL;
    ssize_t got = read(g->fds[0], buf, (3 + g->n) * sizeof(uint64_t));
    if (got < 0)
        return -errno;
    if (got < (ssize_t)(3 * sizeof(uint64_t)) || buf[0] > g->n ||
        (size_t)got < (3 + buf[0]) * sizeof(uint64_t))
        return -EIO;
    g->enabled = buf[1];
    g->running = buf[2];
    for (unsigned i = 0; i < n && i < buf[0]; i++)
        values[i] = buf[3 + i];
    return 0;
}

void regc_perf_group_times(const struct regc_perf_group *g, uint64_t *enabled, uint64_t *running)
{
    *enabled = g->enabled;
    *running = g->running;
}

int regc_perf_event_read(struct regc_perf_group *g, unsigned index, uint64_t *value)
{
    if (index >= g->n)
        return -EINVAL;
    if (index == 0) {
        uint64_t v[MAX_GROUP];
        int rc = regc_perf_group_read(g, v, 1);
        if (!rc)
            *value = v[0];
        return rc;
    }
    ssize_t got = read(g->fds[index], value, sizeof(*value));
    if (got < 0)
        return -errno;
    return got == (ssize_t)sizeof(*value) ? 0 : -EIO;
}

/* ---- the perf backend: control writes open events, counter reads count */

struct perf_slot {
    const struct regc_block *block;
    const struct regc_instance *inst;
    const struct regc_counters *c;
    int index;
    uint64_t ctl; /* last value written to the control */
    struct regc_perf_group *g;
    struct regc_perf_pmu *pmu;
};

struct perf_be {
    char root[PATH_MAX];
    int cpu;
    struct perf_slot *slots;
    size_t nslots, slots_cap;
};

static int perfbe_open(struct regc_backend *be, char *err, size_t errlen)
{
    struct perf_be *pb = calloc(1, sizeof(*pb));
    if (!pb)
        return regc__err(err, errlen, -ENOMEM, "out of memory");
    snprintf(pb->root, sizeof(pb->root), "%s",
             regc__root(be->opt->sysfs_root, "REGC_SYSFS_ROOT", "/sys"));
    pb->cpu = be->opt->cpu;
    be->priv = pb;
    return 0;
}

static void slot_release(struct perf_slot *s)
{
    regc_perf_group_free(s->g);
    regc_perf_pmu_close(s->pmu);
    s->g = NULL;
    s->pmu = NULL;
}

static void perfbe_close(struct regc_backend *be)
{
    struct perf_be *pb = be->priv;
    for (size_t i = 0; i < pb->nslots; i++)
        slot_release(&pb->slots[i]);
    free(pb->slots);
    free(pb);
}

/* The counters group whose control (or counter, if 'counter') is the register of 'r'. */
static const struct regc_counters *role_of(const struct regc_ref *r, bool counter)
{
    const struct regc_pmon *pm = r->block->pmon;
    for (const struct regc_counters *c = pm ? pm->counters : NULL; c && c->control; c++)
        if (strcmp(counter ? c->counter : c->control, r->reg->name) == 0)
            return c;
    return NULL;
}

static struct perf_slot *find_slot(struct perf_be *pb, const struct regc_ref *r,
                                   const struct regc_counters *c)
{
    for (size_t i = 0; i < pb->nslots; i++) {
        struct perf_slot *s = &pb->slots[i];
        if (s->c == c && s->inst == r->instance && s->index == r->index)
            return s;
    }
    return NULL;
}

static struct perf_slot *slot_of(struct perf_be *pb, const struct regc_ref *r,
                                 const struct regc_counters *c)
{
    struct perf_slot *s = find_slot(pb, r, c);
    if (s)
        return s;
    struct perf_slot *n = regc_grow(pb->slots, &pb->slots_cap, pb->nslots + 1, sizeof(*n));
    if (!n)
        return NULL;
    pb->slots = n;
    n[pb->nslots] =
        (struct perf_slot){.block = r->block, .inst = r->instance, .c = c, .index = r->index};
    return &n[pb->nslots++];
}

/*
 * "uncore_<block>", or "uncore_<block>_<instance number>" for a block of
 * several instances, as the kernel names uncore PMUs (uncore.c
 * uncore_pmu_register: one box of a type, "uncore_%s", else "uncore_%s_%d"); a block whose
 * fixed counter the kernel serves from another type's PMU, that PMU (common/kpmu.h).
 */
void regc__perf_pmu_name(const struct regc_ref *r, char *buf, size_t len)
{
    const struct regc_kpmu_fixed_host *h =
        regc_kpmu_fixed_host(r->spec ? r->spec->name : NULL, r->block->name);
    if (h) /* a fixed counter the kernel serves from another type's PMU (kpmu.h) */
        snprintf(buf, len, "%s", h->pmu);
    else if (r->instance && regc_block_ninstances(r->block) > 1)
        snprintf(buf, len, "uncore_%s_%u", r->block->name,
                 (unsigned)(r->instance - r->block->instances));
    else
        snprintf(buf, len, "uncore_%s", r->block->name);
}

static int slot_start(struct regc_backend *be, struct perf_be *pb, struct perf_slot *s,
                      const struct regc_ref *r, uint64_t v)
{
    char name[96];
    regc__perf_pmu_name(r, name, sizeof(name));
    int rc = regc_perf_pmu_open(&s->pmu, pb->root, name, be->msg, sizeof(be->msg));
    if (!rc)
        rc = regc_perf_check_counters(s->pmu, r->block, s->c, be->msg, sizeof(be->msg));
    uint64_t config[3];
    if (!rc)
        rc = regc_perf_config(s->pmu, r->block, s->c, v, NULL, 0, config, NULL, 0, be->msg,
                              sizeof(be->msg));
    if (!rc)
        rc = regc_perf_group_new(&s->g);
    if (!rc)
        rc = regc_perf_group_add(s->g, s->pmu, config, -1, pb->cpu, NULL, be->msg, sizeof(be->msg));
    if (!rc)
        rc = regc_perf_group_enable(s->g);
    if (rc)
        slot_release(s);
    return rc;
}

static int perfbe_write(struct regc_backend *be, const struct regc_io *io, uint64_t value)
{
    struct perf_be *pb = be->priv;
    const struct regc_counters *c = io->ref ? role_of(io->ref, false) : NULL;
    be->msg[0] = '\0';
    if (!c || !c->enable) {
        snprintf(be->msg, sizeof(be->msg),
                 "the perf backend programs only counter controls with an enable field");
        return -EOPNOTSUPP;
    }
    struct perf_slot *s = slot_of(pb, io->ref, c);
    if (!s)
        return -ENOMEM;
    slot_release(s);
    s->ctl = value;
    const struct regc_field *en = regc_reg_field(io->ref->reg, c->enable);
    if (!en || !regc_field_get(en, value))
        return 0;
    return slot_start(be, pb, s, io->ref, value);
}

static int perfbe_read(struct regc_backend *be, const struct regc_io *io, uint64_t *value)
{
    struct perf_be *pb = be->priv;
    *value = 0;
    be->msg[0] = '\0';
    const struct regc_counters *c = io->ref ? role_of(io->ref, false) : NULL;
    if (c) {
        const struct perf_slot *s = find_slot(pb, io->ref, c);
        *value = s ? s->ctl : 0; /* a control never written reads as its reset value, 0 */
        return 0;
    }
    c = io->ref ? role_of(io->ref, true) : NULL;
    if (!c) {
        snprintf(be->msg, sizeof(be->msg),
                 "the perf backend reads only counters and their controls");
        return -EOPNOTSUPP;
    }
    for (size_t i = 0; i < pb->nslots; i++) {
        struct perf_slot *s = &pb->slots[i];
        if (s->c == c && s->inst == io->ref->instance && s->index == io->ref->index && s->g)
            return regc_perf_event_read(s->g, 0, value);
    }
    snprintf(be->msg, sizeof(be->msg),
             "no perf event is open for this counter: write its control '%s' with '%s' set first",
             c->control, c->enable ? c->enable : "its enable");
    return -ENODATA;
}

const struct regc_backend_ops regc_perf_ops = {.name = "perf",
                                               .open = perfbe_open,
                                               .close = perfbe_close,
                                               .read = perfbe_read,
                                               .write = perfbe_write};
