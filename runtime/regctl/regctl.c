/*
 * regctl - list, read and decode, and write registers by field, for every
 * spec compiled into it (descriptor tables generated from regspec/ into
 * build/gen/regc_specs.h), through libregrt's backends.
 *
 *   regctl [options] list [SPEC[.BLOCK]]
 *   regctl [options] events [--perf] [SPEC[.BLOCK]] [PATTERN]
 *   regctl [options] metrics [SPEC] [PATTERN]
 *   regctl [options] read SPEC.BLOCK[.INSTANCE].REG[INDEX]
 *   regctl [options] write SPEC.BLOCK[.INSTANCE].REG[INDEX] FIELD=VALUE... [--force]
 *   regctl [options] detect
 *   regctl [options] monitor SPEC EVENT... [monitor options]
 *   regctl help [COMMAND]
 *
 * The commands and global options are the tables below; cmdline.c reads
 * them for parsing (global options before or after the command), help and
 * completion (complete.c). Exit status: 0 success, 1 refused or failed, 2 usage.
 */
#include "advice.h"
#include "cmdline.h"
#include "complete.h"
#include "cpucheck.h"
#include "events.h"
#include "fail.h"
#include "metrics.h"
#include "monitor.h"
#include "names.h"
#include "numarg.h"
#include "output.h"
#include "secure.h"
#include "specjson.h"
#include "regc/backend.h"
#include "regc/regc.h"
#include "regc/suggest.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opts {
    const char *backend, *msr_root, *sysfs_root;
    const char *spec_file; /* --spec: a user's spec (issue 28) */
    int cpu;
    bool dry_run, json, rmw, force_cpu;
};

static const struct cmdline *cli; /* the command line's tables, for usage errors and help */

/* A usage error of the running command 'name': one line (cmdline_usage_error). Returns 2. */
static int usage(const char *name)
{
    return cmdline_usage_error(cli, cmdline_find(cli, name), NULL);
}

/*
 * "regctl: no spec 'NAME'", then "; did you mean 'X'?" when a spec is close,
 * else " (WANT; see 'regctl list')". Returns 2 (a usage error).
 */
static int no_spec(const char *name, size_t len, const char *want)
{
    char hint[160], other[160];
    snprintf(other, sizeof(other), " (%s%ssee 'regctl list')", want ? want : "", want ? "; " : "");
    return regctl_fail(2, "no spec '%.*s'%s", (int)len, name,
                       regctl_suggest_spec(name, len, other, hint, sizeof(hint)));
}

/* ---- output helpers */

static void hex(char *buf, size_t len, uint64_t v)
{
    snprintf(buf, len, "0x%llx", (unsigned long long)v);
}

/* A table printed with aligned columns: rows of up to 8 cells. */
struct table {
    char *cells[256][8];
    int nrows, ncols;
};

static void table_row(struct table *t, int n, ...)
{
    if (t->nrows == 256)
        return;
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        const char *c = va_arg(ap, const char *);
        t->cells[t->nrows][i] = strdup(c ? c : "");
    }
    va_end(ap);
    if (n > t->ncols)
        t->ncols = n;
    t->nrows++;
}

static void table_print(struct table *t, const char *indent)
{
    size_t w[8] = {0};
    for (int r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols; c++)
            if (t->cells[r][c] && strlen(t->cells[r][c]) > w[c])
                w[c] = strlen(t->cells[r][c]);
    for (int r = 0; r < t->nrows; r++) {
        fputs(indent, stdout);
        int last = t->ncols - 1;
        while (last > 0 && (!t->cells[r][last] || !*t->cells[r][last]))
            last--;
        for (int c = 0; c <= last; c++) {
            const char *cell = t->cells[r][c] ? t->cells[r][c] : "";
            if (c < last)
                printf("%-*s  ", (int)w[c], cell);
            else
                fputs(cell, stdout);
        }
        fputc('\n', stdout);
        for (int c = 0; c < t->ncols; c++)
            free(t->cells[r][c]);
    }
    t->nrows = 0;
}

static const char *space_name(enum regc_space s)
{
    return s == REGC_SPACE_MSR ? "msr" : s == REGC_SPACE_PCI ? "pci" : "mmio";
}

/* ---- list */

static unsigned count_regs(const struct regc_block *b)
{
    unsigned n = 0;
    for (const struct regc_reg *r = b->regs; r->name; r++)
        n++;
    return n;
}

static int list_specs(const struct opts *o)
{
    json_t *arr = o->json ? json_array() : NULL;
    struct table t = {0};
    for (const struct regc_spec *const *s = regctl_specs; *s; s++) {
        unsigned nb = 0;
        for (const struct regc_block *b = (*s)->blocks; b->name; b++)
            nb++;
        char n[32];
        snprintf(n, sizeof(n), "%u block%s", nb, nb == 1 ? "" : "s");
        if (arr)
            json_array_append_new(arr, json_pack("{s:s,s:s?,s:i}", "spec", (*s)->name, "title",
                                                 (*s)->title, "blocks", (int)nb));
        else
            table_row(&t, 3, (*s)->name, n, (*s)->title);
    }
    if (arr)
        out_json_doc(arr);
    else
        table_print(&t, "");
    return 0;
}

static int list_blocks(const struct opts *o, const struct regc_spec *s)
{
    json_t *arr = o->json ? json_array() : NULL;
    struct table t = {0};
    for (const struct regc_block *b = s->blocks; b->name; b++) {
        unsigned ni = regc_block_ninstances(b), nr = count_regs(b);
        char ins[32], regs[32];
        snprintf(ins, sizeof(ins), "%u instance%s", ni ? ni : 1, ni > 1 ? "s" : "");
        snprintf(regs, sizeof(regs), "%u register%s", nr, nr == 1 ? "" : "s");
        if (arr)
            json_array_append_new(arr, json_pack("{s:s,s:s?,s:i,s:i}", "block", b->name, "title",
                                                 b->title, "instances", (int)(ni ? ni : 1),
                                                 "registers", (int)nr));
        else
            table_row(&t, 4, b->name, b->title, ins, regs);
    }
    if (arr)
        out_json_doc(arr);
    else
        table_print(&t, "");
    return 0;
}

/* "0xc10" for one copy, "0xc10..0xc11 (2)" for several. */
static void addr_range(const struct regc_reg *r, char *buf, size_t len)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    unsigned n = 0;
    for (const struct regc_addr *a = r->addrs; a->index != REGC_ADDR_END; a++, n++) {
        lo = a->address < lo ? a->address : lo;
        hi = a->address > hi ? a->address : hi;
    }
    if (n <= 1 || lo == hi)
        snprintf(buf, len, n > 1 ? "0x%llx (%u)" : "0x%llx", (unsigned long long)(n ? lo : 0), n);
    else
        snprintf(buf, len, "0x%llx..0x%llx (%u)", (unsigned long long)lo, (unsigned long long)hi,
                 n);
}

static int list_regs(const struct opts *o, const struct regc_block *b)
{
    json_t *arr = o->json ? json_array() : NULL;
    struct table t = {0};
    for (const struct regc_reg *r = b->regs; r->name; r++) {
        char addr[64], width[16];
        addr_range(r, addr, sizeof(addr));
        snprintf(width, sizeof(width), "%u bits", r->width);
        if (arr) {
            json_t *addrs = json_array();
            for (const struct regc_addr *a = r->addrs; a->index != REGC_ADDR_END; a++) {
                char h[24];
                hex(h, sizeof(h), a->address);
                json_array_append_new(addrs, json_string(h));
            }
            json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:i,s:o}", "register", r->name,
                                                 "written_name", r->written_name, "space",
                                                 space_name(r->space), "width", (int)r->width,
                                                 "addresses", addrs));
        } else {
            table_row(&t, 4, r->written_name, space_name(r->space), addr, width);
        }
    }
    if (arr)
        out_json_doc(arr);
    else
        table_print(&t, "");
    return 0;
}

static int cmd_list(void *ctx, int argc, char **argv)
{
    const struct opts *o = ctx;
    if (argc > 1)
        return usage("list");
    if (argc == 0)
        return list_specs(o);
    const char *dot = strchr(argv[0], '.');
    const struct regc_spec *s = regctl_find_spec(argv[0], dot ? (size_t)(dot - argv[0]) : strlen(argv[0]));
    if (!s)
        return no_spec(argv[0], dot ? (size_t)(dot - argv[0]) : strlen(argv[0]), NULL);
    if (!dot)
        return list_blocks(o, s);
    const struct regc_block *b = regc_spec_block(s, dot + 1);
    if (!b) {
        char hint[160];
        return regctl_fail(2, "no block '%s' in spec '%s'%s", dot + 1, s->name,
                           regctl_suggest_block(s, dot + 1, hint, sizeof(hint)));
    }
    return list_regs(o, b);
}

/* ---- devices and references */

static void trace(void *ctx, bool write, const struct regc_io *io, uint64_t value, int rc)
{
    const struct opts *o = ctx;
    char name[160] = "?", full[200];
    if (io->ref)
        regc_ref_name(io->ref, name, sizeof(name));
    snprintf(full, sizeof(full), "%s.%s", io->ref ? io->ref->spec->name : "?", name);
    if (write)
        printf("%s %s %s 0x%llx <- 0x%llx", o->dry_run ? "would write" : "write", full,
               space_name(io->space), (unsigned long long)io->address, (unsigned long long)value);
    else
        printf("%s %s %s 0x%llx", o->dry_run ? "would read" : "read", full, space_name(io->space),
               (unsigned long long)io->address);
    if (io->pci) {
        char slot[8];
        printf(" (pci %04x:%04x at %s)", io->pci->vendor, io->pci->device,
               regc_pci_slot(io->pci, slot, sizeof(slot)));
    } else
        printf(" (cpu %d)", io->cpu);
    printf("%s\n", rc ? " failed" : "");
}

static int resolve(const char *path, struct regc_ref *r)
{
    const char *dot = strchr(path, '.');
    const struct regc_spec *s = dot ? regctl_find_spec(path, (size_t)(dot - path)) : NULL;
    if (!s && !dot)
        fprintf(stderr, "regctl: bad register path '%s' (want SPEC.BLOCK[.INSTANCE].REG[INDEX])\n",
                path);
    if (!s)
        return dot ? no_spec(path, (size_t)(dot - path), "want SPEC.BLOCK[.INSTANCE].REG[INDEX]")
                   : 2;
    char err[256];
    if (regc_resolve(s, dot + 1, r, err, sizeof(err)) < 0)
        return regctl_fail(2, "%s", err);
    return 0;
}

static int open_dev(const struct opts *o, const struct regc_ref *r, regc_dev **d)
{
    struct regc_options ro = {.backend = o->backend                        ? o->backend
                                         : r->reg->space == REGC_SPACE_PCI ? "pci"
                                                                           : "msr",
                              .cpu = o->cpu,
                              .msr_root = o->msr_root,
                              .sysfs_root = o->sysfs_root,
                              .dry_run = o->dry_run,
                              .trace = o->dry_run && !o->json ? trace : NULL,
                              .trace_ctx = (void *)o};
    struct cpucheck_where w = {o->msr_root, o->sysfs_root, o->cpu};
    if (regctl_cpu_check(r->spec, ro.backend, o->dry_run, o->force_cpu, &w))
        return 1;
    char err[512];
    int rc = regc_open(d, r->spec, &ro, err, sizeof(err));
    if (rc < 0) {
        fprintf(stderr, "regctl: %s\n", err);
        regctl_advise(ro.backend, rc, err, false);
        return 1;
    }
    return 0;
}

/* ---- decode */

static void field_bits(const struct regc_field *f, char *buf, size_t len)
{
    if (f->msb == f->lsb)
        snprintf(buf, len, "%u", f->lsb);
    else
        snprintf(buf, len, "%u:%u", f->msb, f->lsb);
}

/* {"register", "space", "address"} of a copy. */
static json_t *ref_json(const struct regc_ref *r)
{
    char name[160], full[200], a[24];
    snprintf(full, sizeof(full), "%s.%s", r->spec->name, regc_ref_name(r, name, sizeof(name)));
    hex(a, sizeof(a), r->address);
    return json_pack("{s:s,s:s,s:s}", "register", full, "space", space_name(r->reg->space),
                     "address", a);
}

static json_t *decode_json(const struct regc_ref *r, uint64_t v)
{
    char h[24];
    hex(h, sizeof(h), v);
    json_t *fields = json_array();
    for (const struct regc_field *f = r->reg->fields; f->name; f++) {
        uint64_t fv = regc_field_get(f, v);
        const struct regc_value *nv = regc_field_value_of(f, fv);
        char fh[24];
        hex(fh, sizeof(fh), fv);
        json_array_append_new(fields,
                              json_pack("{s:s,s:i,s:i,s:s,s:s,s:s?}", "name", f->name, "lsb",
                                        f->lsb, "msb", f->msb, "access", f->access_text, "value",
                                        fh, "named", nv ? nv->name : NULL));
    }
    json_t *j = ref_json(r);
    json_object_set_new(j, "value", json_string(h));
    json_object_set_new(j, "fields", fields);
    return j;
}

static void decode_text(const struct regc_spec *s, const struct regc_ref *r, uint64_t v)
{
    char name[160];
    printf("%s.%s (%s 0x%llx) = 0x%0*llx\n", s->name, regc_ref_name(r, name, sizeof(name)),
           space_name(r->reg->space), (unsigned long long)r->address, (r->reg->width + 3) / 4,
           (unsigned long long)v);
    struct table t = {0};
    table_row(&t, 5, "field", "bits", "attr", "value", "meaning");
    for (const struct regc_field *f = r->reg->fields; f->name; f++) {
        uint64_t fv = regc_field_get(f, v);
        const struct regc_value *nv = regc_field_value_of(f, fv);
        char bits[16], val[24];
        field_bits(f, bits, sizeof(bits));
        hex(val, sizeof(val), fv);
        table_row(&t, 5, f->name, bits, f->access_text, val, nv ? nv->name : "");
    }
    table_print(&t, "  ");
}

static int cmd_read(void *ctx, int argc, char **argv)
{
    const struct opts *o = ctx;
    if (argc != 1)
        return usage("read");
    struct regc_ref r;
    regc_dev *d;
    int rc = resolve(argv[0], &r);
    if (rc || (rc = open_dev(o, &r, &d)))
        return rc;
    uint64_t v;
    if ((rc = regc_read(d, &r, &v)) < 0) {
        fprintf(stderr, "regctl: %s\n", regc_last_error(d));
        regctl_advise(regc_dev_backend(d), rc, NULL, false);
        regc_close(d);
        return 1;
    }
    if (o->json)
        out_json_doc(decode_json(&r, v));
    else if (!o->dry_run)
        decode_text(r.spec, &r, v);
    regc_close(d);
    return 0;
}

/* ---- write */

/*
 * A write as asked on the command line: the fields given (FIELD=VALUE; a
 * name several fields share as NAME[MSB:LSB]), their bits in 'mask' and
 * values in 'value' (in register position), and --force.
 */
struct write_req {
    struct regc_ref r;
    const struct regc_field *f[64]; /* the fields given, in order */
    unsigned n;
    uint64_t mask, value;
    bool force;
    bool have_before; /* 'before' holds the register as read just before the write */
    uint64_t before;
};

static unsigned count_named(const struct regc_reg *r, const char *name)
{
    unsigned n = 0;
    for (const struct regc_field *f = r->fields; f->name; f++)
        n += strcmp(f->name, name) == 0;
    return n;
}

/* "rsv[31:29]" when other fields share f's name, else "rsv"; returns buf. */
static const char *field_label(const struct regc_reg *r, const struct regc_field *f, char *buf,
                               size_t len)
{
    char bits[16];
    field_bits(f, bits, sizeof(bits));
    if (count_named(r, f->name) > 1)
        snprintf(buf, len, "%s[%s]", f->name, bits);
    else
        snprintf(buf, len, "%s", f->name);
    return buf;
}

/* "rsv[31:29], rsv[21:20], rsv[19]": every field called 'name'. */
static void list_named(const struct regc_reg *r, const char *name, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const struct regc_field *f = r->fields; f->name && n < len; f++) {
        char bits[16];
        if (strcmp(f->name, name) != 0)
            continue;
        field_bits(f, bits, sizeof(bits));
        n += (size_t)snprintf(buf + n, len - n, "%s%s[%s]", n ? ", " : "", f->name, bits);
    }
}

/* Splits "NAME", "NAME[BIT]" or "NAME[MSB:LSB]"; *msb = -1 without bits. False if malformed. */
static bool split_field(const char *sel, size_t len, char *name, size_t namelen, long *msb,
                        long *lsb)
{
    const char *br = memchr(sel, '[', len);
    size_t nlen = br ? (size_t)(br - sel) : len;
    if (nlen == 0 || nlen >= namelen)
        return false;
    snprintf(name, namelen, "%.*s", (int)nlen, sel);
    *msb = *lsb = -1;
    if (!br)
        return true;
    const char *in = br + 1, *close = memchr(in, ']', len - nlen - 1);
    if (!close || close + 1 != sel + len)
        return false;
    const char *colon = memchr(in, ':', (size_t)(close - in));
    uint64_t hi, lo;
    if (regc_num_parse(in, (size_t)((colon ? colon : close) - in), 0, 63, REGC_NUM_DEC, &hi, NULL,
                       0) ||
        (colon &&
         regc_num_parse(colon + 1, (size_t)(close - colon - 1), 0, 63, REGC_NUM_DEC, &lo, NULL, 0)))
        return false;
    *msb = (long)hi;
    *lsb = colon ? (long)lo : (long)hi;
    return true;
}

/* The field FIELD (of FIELD=VALUE, 'len' bytes) names: 0, or 2 with a message. */
static int find_field(const struct regc_reg *r, const char *sel, size_t len,
                      const struct regc_field **out)
{
    char name[64], list[512];
    long msb, lsb;
    if (!split_field(sel, len, name, sizeof(name), &msb, &lsb))
        return regctl_fail(2, "bad field '%.*s' (want FIELD or FIELD[MSB:LSB])", (int)len, sel);
    unsigned n = count_named(r, name);
    *out = NULL;
    for (const struct regc_field *f = r->fields; f->name && !*out; f++)
        if (strcmp(f->name, name) == 0 && (msb < 0 || (f->msb == msb && f->lsb == lsb)))
            *out = f;
    if (n == 0) {
        struct regc_suggest sg;
        regc_suggest_init(&sg, name);
        for (const struct regc_field *f = r->fields; f->name; f++)
            regc_suggest_add(&sg, f->name);
        return regctl_fail(2, "register '%s' has no field '%s'%s", r->name, name,
                           regc_suggest_text(&sg, list, sizeof(list)));
    }
    list_named(r, name, list, sizeof(list));
    if (msb < 0 && n > 1)
        return regctl_fail(2, "register '%s' has %u fields named '%s'; say which: %s", r->name, n,
                           name, list);
    if (!*out)
        return regctl_fail(2, "register '%s' has no field '%.*s' (fields named '%s': %s)", r->name,
                           (int)len, sel, name, list);
    return 0;
}

/* VALUE for field f: a number or one of the field's named values. 0, or 2 with a message. */
static int parse_value(const struct regc_field *f, const char *text, uint64_t *out)
{
    const struct regc_value *nv = regc_field_value_named(f, text);
    char why[96];
    if (nv) {
        *out = nv->value;
        return 0;
    }
    enum regc_num_status st = regc_num_parse(
        text, REGC_NUM_NUL, 0, regc_num_max_bits(f->msb - f->lsb + 1), 0, out, why, sizeof(why));
    if (st == REGC_NUM_NOT_NUMBER)
        fprintf(stderr, "regctl: '%s' is neither a number nor a named value of field '%s'\n", text,
                f->name);
    else if (st)
        fprintf(stderr, "regctl: value '%s' for field '%s' [%u:%u]: %s\n", text, f->name, f->msb,
                f->lsb, why);
    return st ? 2 : 0;
}

/* One FIELD=VALUE into w. 0, or 2 with a message. */
static int parse_assign(struct write_req *w, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return regctl_fail(2, "want FIELD=VALUE, not '%s'", arg);
    const struct regc_field *f = NULL;
    uint64_t v;
    int rc = find_field(w->r.reg, arg, (size_t)(eq - arg), &f);
    if (!rc)
        rc = parse_value(f, eq + 1, &v);
    if (rc)
        return rc;
    if (w->n == sizeof(w->f) / sizeof(w->f[0]))
        return regctl_fail(2, "more than %u fields given", w->n);
    if (w->mask & regc_field_mask(f)) {
        char lab[96];
        return regctl_fail(2, "field '%s' given twice", field_label(w->r.reg, f, lab, sizeof(lab)));
    }
    w->f[w->n++] = f;
    w->mask |= regc_field_mask(f);
    w->value = regc_field_put(f, w->value, v);
    return 0;
}

/* write's arguments: REG FIELD=VALUE..., with --force anywhere. 0, or 2 with a message. */
static int parse_write(int argc, char **argv, struct write_req *w)
{
    int rc = 0, nargs = 0;
    bool ended = false; /* after "--": arguments only */
    for (int i = 0; !rc && i < argc; i++) {
        if (!ended && strcmp(argv[i], "--") == 0)
            ended = true;
        else if (!ended && strncmp(argv[i], "--", 2) == 0) /* cmdline.c passes on --force only */
            w->force = true;
        else if (nargs++ == 0)
            rc = resolve(argv[i], &w->r);
        else
            rc = parse_assign(w, argv[i]);
    }
    if (!rc && nargs < 2)
        rc = usage("write");
    return rc;
}

/* A field given a value that a write cannot change (RO, RO-V, ig): 1 unless --force. */
static int refuse_unwritable(const struct write_req *w)
{
    for (unsigned i = 0; i < w->n && !w->force; i++) {
        const struct regc_field *f = w->f[i];
        enum regc_sem s = regc_field_sem(f);
        if (s != REGC_SEM_RO && s != REGC_SEM_IG)
            continue;
        char name[160], bits[16];
        field_bits(f, bits, sizeof(bits));
        fprintf(stderr,
                "regctl: not writing '%s': field '%s' [%s] is %s (%s), a write does not change "
                "it (--force writes it anyway)\n",
                regc_ref_name(&w->r, name, sizeof(name)), f->name, bits, f->access_text,
                regc_access_meaning(f->access));
        return 1;
    }
    return 0;
}

/* What a 1 written to a field of class s does ("cleared"), or NULL: the field stores a value. */
static const char *action_verb(enum regc_sem s, bool dry_run)
{
    switch (s) {
    case REGC_SEM_W1C:
        return dry_run ? "would clear" : "cleared";
    case REGC_SEM_W1S:
        return dry_run ? "would set" : "set";
    case REGC_SEM_WO:
        return dry_run ? "would pulse" : "pulsed";
    default:
        return NULL;
    }
}

/*
 * The state field f holds after 'written' ("box frozen"); NULL: not a level. A box freeze takes
 * effect only with the box's freeze-enable set, where it has one (E5-2600: "If set to 1 and
 * .frz_en is 1, the counters in this box will be frozen", 327043 Table 2-9).
 */
static const char *level_state(const struct regc_ref *r, const struct regc_field *f,
                               uint64_t written, bool dry_run)
{
    static const char *const text[][3][2] = {
        [REGC_LEVEL_BOX_FREEZE] = {{"box not frozen", "box would not be frozen"},
                                   {"box frozen", "box would be frozen"},
                                   {"box not frozen, its freeze disabled",
                                    "box would not be frozen, its freeze disabled"}},
        [REGC_LEVEL_BOX_FREEZE_ENABLE] = {{"box freeze disabled", "box freeze would be disabled"},
                                          {"box freeze enabled", "box freeze would be enabled"}},
    };
    enum regc_level l = regc_field_level(r->block, r->reg, f);
    if (l == REGC_LEVEL_NONE)
        return NULL;
    const char *fe = r->block->pmon->box_control->freeze_enable;
    const struct regc_field *en = fe ? regc_reg_field(r->reg, fe) : NULL;
    int k = regc_field_get(f, written) != 0;
    if (l == REGC_LEVEL_BOX_FREEZE && k && en && !regc_field_get(en, written))
        k = 2;
    return text[l][k][dry_run];
}

/* A level field's state after the write ("box frozen: frz=1"), printed or appended to arr. */
static void report_state(const struct write_req *w, const struct regc_field *f, const char *state,
                         uint64_t v, json_t *arr)
{
    char lab[96];
    field_label(w->r.reg, f, lab, sizeof(lab));
    if (arr)
        json_array_append_new(arr,
                              json_pack("{s:s,s:i,s:i,s:s,s:I}", "field", f->name, "lsb", f->lsb,
                                        "msb", f->msb, "state", state, "value", (json_int_t)v));
    else
        printf("%s: %s=%llu\n", state, lab, (unsigned long long)v);
}

/*
 * The actions the value written triggers (write-1-to-clear, write-1-to-set
 * and write-only fields holding 1 bits), as "cleared ov_u_fixed" or "cleared
 * ov bits 0x3", and the states of level fields (regc_field_level: "box
 * frozen", never a pulse): printed, or appended to 'arr' when it is not NULL.
 * A write-1-to-clear names only the bits that were set, where the register
 * was read before the write.
 */
static void report_actions(const struct write_req *w, uint64_t written, bool dry_run, json_t *arr)
{
    for (const struct regc_field *f = w->r.reg->fields; f->name; f++) {
        uint64_t v = regc_field_get(f, written);
        const char *state = level_state(&w->r, f, written, dry_run);
        if (state) {
            report_state(w, f, state, v, arr);
            continue;
        }
        enum regc_sem sem = regc_field_sem(f);
        const char *verb = action_verb(sem, dry_run);
        if (sem == REGC_SEM_W1C && w->have_before)
            v &= regc_field_get(f, w->before);
        if (!verb || !v)
            continue;
        char lab[96], h[24];
        field_label(w->r.reg, f, lab, sizeof(lab));
        hex(h, sizeof(h), v);
        if (arr)
            json_array_append_new(arr, json_pack("{s:s,s:i,s:i,s:s,s:s}", "field", f->name, "lsb",
                                                 f->lsb, "msb", f->msb, "action", verb, "bits", h));
        else if (f->msb == f->lsb)
            printf("%s %s\n", verb, lab);
        else
            printf("%s %s bits %s\n", verb, lab, h);
    }
}

static bool was_given(const struct write_req *w, const struct regc_field *f)
{
    for (unsigned i = 0; i < w->n; i++)
        if (w->f[i] == f)
            return true;
    return false;
}

/*
 * What field f reads back after the write, compared with what was written:
 * a note (hardware-updated or forced read-only fields given a value) into
 * 'note', or 1 and a message on stderr when the write did not take (a
 * read/write field that differs, a bit written 1 to clear that still reads 1,
 * one written 1 to set that reads 0).
 */
static int check_field(const struct write_req *w, const struct regc_field *f, uint64_t written,
                       uint64_t back, char *note, size_t len)
{
    uint64_t wv = regc_field_get(f, written), bv = regc_field_get(f, back);
    const char *what = NULL;
    char name[160], lab[96], bits[16];
    regc_ref_name(&w->r, name, sizeof(name));
    field_label(w->r.reg, f, lab, sizeof(lab));
    note[0] = '\0';
    switch (regc_field_sem(f)) {
    case REGC_SEM_RW:
        what = wv != bv ? "was written" : NULL;
        break;
    case REGC_SEM_W1C:
        what = wv & bv ? "was written to clear it" : NULL;
        break;
    case REGC_SEM_W1S:
        what = wv & ~bv ? "was written to set it" : NULL;
        break;
    case REGC_SEM_RWV:
        if (wv != bv && was_given(w, f))
            snprintf(note, len, "%s reads 0x%llx, 0x%llx written: hardware updates it", lab,
                     (unsigned long long)bv, (unsigned long long)wv);
        break;
    case REGC_SEM_RO:
    case REGC_SEM_IG:
        if (was_given(w, f))
            snprintf(note, len, "%s is %s: 0x%llx written (--force), reads 0x%llx", lab,
                     f->access_text, (unsigned long long)wv, (unsigned long long)bv);
        break;
    default:
        break;
    }
    if (!what)
        return 0;
    field_bits(f, bits, sizeof(bits));
    fflush(stdout);
    return regctl_fail(1, "'%s' field '%s' [%s] reads back 0x%llx after 0x%llx %s", name, f->name,
                       bits, (unsigned long long)bv, (unsigned long long)wv, what);
}

/* Every field checked (check_field); notes printed or appended to 'arr'. 0, or 1. */
static int check_back(const struct write_req *w, uint64_t written, uint64_t back, json_t *arr)
{
    int rc = 0;
    for (const struct regc_field *f = w->r.reg->fields; f->name; f++) {
        char note[256];
        rc |= check_field(w, f, written, back, note, sizeof(note));
        if (note[0] && arr)
            json_array_append_new(arr, json_string(note));
        else if (note[0])
            printf("note: %s\n", note);
    }
    return rc;
}

static int report_json(const struct opts *o, const struct write_req *w, uint64_t written,
                       uint64_t back)
{
    json_t *j = o->dry_run ? ref_json(&w->r) : decode_json(&w->r, back);
    json_t *actions = json_array(), *notes = json_array();
    char h[24];
    hex(h, sizeof(h), written);
    json_object_set_new(j, "written", json_string(h));
    report_actions(w, written, o->dry_run, actions);
    json_object_set_new(j, "actions", actions);
    int rc = o->dry_run ? 0 : check_back(w, written, back, notes);
    json_object_set_new(j, "notes", notes);
    if (o->dry_run)
        json_object_set_new(j, "dry_run", json_true());
    out_json_doc(j);
    return rc;
}

/* What was written, the actions it triggered, and the value read back decoded. 0, or 1. */
static int report_text(const struct opts *o, const struct write_req *w, uint64_t written,
                       uint64_t back)
{
    char name[160];
    if (o->dry_run) {
        report_actions(w, written, true, NULL);
        return 0;
    }
    int digits = (w->r.reg->width + 3) / 4;
    printf("wrote %s.%s (%s 0x%llx) <- 0x%0*llx\n", w->r.spec->name,
           regc_ref_name(&w->r, name, sizeof(name)), space_name(w->r.reg->space),
           (unsigned long long)w->r.address, digits, (unsigned long long)written);
    report_actions(w, written, false, NULL);
    printf("read back ");
    decode_text(w->r.spec, &w->r, back);
    return check_back(w, written, back, NULL);
}

static int cmd_write(void *ctx, int argc, char **argv)
{
    const struct opts *o = ctx;
    struct write_req w = {0};
    int rc = parse_write(argc, argv, &w);
    if (!rc)
        rc = refuse_unwritable(&w);
    regc_dev *d;
    if (rc || (rc = open_dev(o, &w.r, &d)))
        return rc;
    /* unspecified fields: their reset value, must-be-one bits (RV1) 1, write-0-acts bits 1 */
    uint64_t base = w.r.reg->reset | regc_reg_class_mask(w.r.reg, REGC_MASK_MB1) |
                    regc_reg_class_mask(w.r.reg, REGC_MASK_W0);
    uint64_t written = (base & ~w.mask) | w.value, back;
    /* what a write-1-to-clear clears: the bits set before */
    if (!o->dry_run && (w.value & regc_reg_class_mask(w.r.reg, REGC_MASK_W1C)))
        w.have_before = regc_read(d, &w.r, &w.before) == 0;
    /* fields that must be written as read (writeAsRead) and not given: as read, not reset */
    uint64_t as_read = o->rmw ? 0 : regc_reg_as_read_mask(w.r.reg) & ~w.mask;
    int err = o->rmw    ? regc_rmw(d, &w.r, w.mask, w.value, &written)
              : as_read ? regc_rmw(d, &w.r, ~as_read, written, &written)
                        : regc_write(d, &w.r, written);
    if (err < 0) {
        fprintf(stderr, "regctl: %s\n", regc_last_error(d));
        regctl_advise(regc_dev_backend(d), err, NULL, false);
    } else if (regc_read(d, &w.r, &back) < 0) {
        char name[160];
        if (!o->json)
            report_actions(&w, written, o->dry_run, NULL);
        fflush(stdout);
        fprintf(stderr, "regctl: wrote 0x%llx to '%s', but reading it back failed: %s\n",
                (unsigned long long)written, regc_ref_name(&w.r, name, sizeof(name)),
                regc_last_error(d));
        err = -1;
    } else {
        rc = o->json ? report_json(o, &w, written, back) : report_text(o, &w, written, back);
    }
    regc_close(d);
    return err < 0 ? 1 : rc;
}

/* ---- the commands and global options (cmdline.h) */

static int run_events(void *ctx, int argc, char **argv)
{
    const struct opts *o = ctx;
    return regctl_events(o->json, argc, argv);
}

static int run_metrics(void *ctx, int argc, char **argv)
{
    const struct opts *o = ctx;
    return regctl_metrics(o->json, argc, argv);
}

static int run_detect(void *ctx, int argc, char **argv)
{
    const struct opts *o = ctx;
    return regctl_detect(&(struct cpucheck_where){o->msr_root, o->sysfs_root, o->cpu}, o->json,
                         argc, argv);
}

static int run_monitor(void *ctx, int argc, char **argv)
{
    const struct opts *o = ctx;
    struct monitor_globals g = {o->backend, o->msr_root, o->sysfs_root, o->cpu,
                                o->dry_run, o->json,     o->force_cpu};
    return regctl_monitor(&g, argc + 1, argv - 1); /* argv[-1]: a name for getopt to skip */
}

static int run_help(void *ctx, int argc, char **argv)
{
    (void)ctx;
    const struct cmdline_cmd *c = argc == 1 ? cmdline_find(cli, argv[0]) : NULL;
    if (argc > 1 || (argc == 1 && (!c || !*c->summary)))
        return argc > 1 ? usage("help")
                        : cmdline_usage_error(cli, NULL, "no command '%s'", argv[0]);
    cmdline_help(cli, c, stdout);
    return 0;
}

static const struct cmdline_opt globals[] = {
    {"backend", "msr|pci|perf|sim", "how registers are reached (default msr; pci registers: pci)",
     'b'},
    {"cpu", "N", "target CPU (msr, perf) or the Nth matching PCI device (pci)", 'c'},
    {"dry-run", NULL, "print every access that would be made; touch nothing", 'n'},
    {"rmw", NULL,
     "write: unspecified fields keep their current value (default: reset\n"
     "value; must-be-one bits 1)",
     'r'},
    {"json", NULL, "machine-readable output", 'j'},
    {"msr-root", "DIR", "instead of /dev/cpu ($REGC_MSR_ROOT)", 'm'},
    {"sysfs-root", "DIR", "instead of /sys ($REGC_SYSFS_ROOT)", 's'},
    {"force-cpu", NULL,
     "use a spec whose CPU models do not match this CPU (msr, pci, perf;\n"
     "'regctl detect' names the spec that matches)",
     'F'},
    /* ---- issue 28 (h28s): a user's spec */
    {"spec", "FILE",
     "also take the spec in FILE, its JSON model ('regc -t json'; '-': standard\n"
     "input); it replaces a built-in spec of the same name",
     'S'},
    /* ---- end issue 28 (h28s) */
    {NULL, NULL, NULL, 0}};

/* "unknown backend 'X'", with "did you mean" or the list. Returns 2. */
static int unknown_backend(const char *name)
{
    struct regc_suggest sg;
    char hint[160];
    regc_suggest_init(&sg, name);
    for (const char *const *b = regctl_backends; *b; b++)
        regc_suggest_add(&sg, *b);
    return regctl_fail(2, "unknown backend '%s' (want msr, pci, perf or sim)%s", name,
                       regc_suggest_text(&sg, hint, sizeof(hint)));
}

/* ---- issue 28 (h28s): --spec FILE, loaded as it is given (specjson.h). 0, 1 or 2. */
static int load_spec(struct opts *o, const char *file)
{
    const struct regc_spec *s;
    if (o->spec_file)
        return regctl_fail(2, "--spec given twice ('%s', then '%s'): one spec file per run",
                           o->spec_file, file);
    o->spec_file = file;
    if (regctl_spec_load(file, &s))
        return 1;
    regctl_add_spec(s);
    return 0;
}
/* ---- end issue 28 (h28s) */

/* One global option; the value conversions are the options' own. 0, or 2 with a message. */
static int set_global(void *ctx, int c, const char *optarg)
{
    struct opts *o = ctx;
    uint64_t num;
    switch (c) {
    case 'b':
        if (!regc_backend_find(optarg))
            return unknown_backend(optarg);
        o->backend = optarg;
        break;
    case 'c':
        if (regctl_num("--cpu", optarg, 0, INT_MAX, REGC_NUM_DEC, &num))
            return 2;
        o->cpu = (int)num;
        break;
    case 'n':
        o->dry_run = true;
        break;
    case 'j':
        o->json = true;
        break;
    case 'r':
        o->rmw = true;
        break;
    case 'm':
        if (!regctl_path_option_ok("--msr-root"))
            return 2;
        o->msr_root = optarg;
        break;
    case 's':
        if (!regctl_path_option_ok("--sysfs-root"))
            return 2;
        o->sysfs_root = optarg;
        break;
    case 'F':
        o->force_cpu = true;
        break;
    case 'S': /* ---- issue 28 (h28s): a user's spec */
        return load_spec(o, optarg);
    }
    return 0;
}

static const struct cmdline_opt write_opts[] = {
    {"force", NULL, "also give RO, RO-V and ig fields a value (refused otherwise)", 'f'},
    {NULL, NULL, NULL, 0}};
static const struct cmdline_opt events_opts[] = {
    {"perf", NULL, "one line per event: its perf event string, which monitor takes", 'p'},
    {NULL, NULL, NULL, 0}};

/* The global options each command uses. */
static const char *const g_list[] = {"json", "spec", NULL};
static const char *const g_access[] = {"backend",    "cpu",       "dry-run", "json", "rmw", "msr-root",
                                       "sysfs-root", "force-cpu", "spec",    NULL};
static const char *const g_detect[] = {"cpu", "json", "msr-root", "sysfs-root", "spec", NULL};
static const char *const g_monitor[] = {"backend",    "cpu",       "dry-run", "json", "msr-root",
                                        "sysfs-root", "force-cpu", "spec",    NULL};

static const struct cmdline_cmd commands[] = {
    {"list", "[SPEC[.BLOCK]]", "list the specs, a spec's blocks, or a block's registers", "", NULL,
     g_list, "b", cmd_list},
    {"events", "[--perf] [SPEC[.BLOCK]] [PATTERN]",
     "list the events monitor takes, with their encodings",
     "PATTERN is matched, in any case, against BLOCK:EVENT, the description and the\n"
     "perfmon name; without SPEC every spec is searched. A PATTERN with *, ? or [...]\n"
     "is a glob, as perf list takes them: it must match a whole BLOCK:EVENT, EVENT or\n"
     "perfmon name, in any case ('unc_c_*').\n",
     events_opts, g_list, "b-", run_events},
    {"metrics", "[SPEC] [PATTERN]", "list the metrics monitor --metric computes, with their formulas",
     "PATTERN is matched, in any case, against the name and the description; without\n"
     "SPEC every spec is searched.\n",
     NULL, g_list, "s-", run_metrics},
    {"read", "SPEC.BLOCK[.INSTANCE].REG[INDEX]", "read a register and decode its fields", "",
     NULL, g_access, "r", cmd_read},
    {"write", "SPEC.BLOCK[.INSTANCE].REG[INDEX] FIELD=VALUE... [--force]",
     "write a register by field, then read it back decoded",
     "FIELD is a field's name, or NAME[MSB:LSB] where fields share a name; VALUE a\n"
     "number or one of the field's named values. Unspecified fields take their reset\n"
     "value (must-be-one bits 1), or with --rmw keep their current value.\n",
     write_opts, g_access, "rf*", cmd_write},
    {"detect", "", "name this CPU, its uncore PCI devices and the specs that match", "", NULL,
     g_detect, "", run_detect},
    {"monitor", "SPEC EVENT... [monitor options] [-- CMD [ARGS]]",
     "count uncore events around a program, at intervals or until Ctrl-C; or sample overflows",
     regctl_monitor_help,
     regctl_monitor_opts, g_monitor, "se*", run_monitor},
    {"help", "[COMMAND]", "this help, or a command's", "", NULL, NULL, "c", run_help},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0}};

int main(int argc, char **argv)
{
    struct opts o = {0};
    const struct cmdline cl = {"regctl", REGC_VERSION, globals, commands, set_global, &o};
    struct cmdline_args a;
    cli = &cl;
    if (argc > 1 && strcmp(argv[1], "__complete") == 0) /* the words to complete, unparsed */
        return regctl_complete(&cl, argc - 2, argv + 2);
    int rc = cmdline_parse(&cl, argc, argv, &a);
    if (rc < 0)
        rc = a.cmd->run(&o, a.argc, a.argv);
    regctl_spec_release(); /* --spec's tables */
    return rc;
}
