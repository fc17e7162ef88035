/*
 * regctl - list, read and decode, and write registers by field, for every
 * spec compiled into it (descriptor tables generated from regspec/ into
 * build/gen/regc_specs.h), through libregrt's backends.
 *
 *   regctl [options] list [SPEC[.BLOCK]]
 *   regctl [options] read SPEC.BLOCK[.INSTANCE].REG[INDEX]
 *   regctl [options] write SPEC.BLOCK[.INSTANCE].REG[INDEX] FIELD=VALUE...
 *
 * Exit status: 0 success, 1 refused or failed, 2 usage.
 */
#include "monitor.h"
#include "regc/backend.h"
#include "regc/regc.h"
#include "regc_specs.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opts {
    const char *backend, *msr_root, *sysfs_root;
    int cpu;
    bool dry_run, json, rmw;
};

static int usage(FILE *f)
{
    fprintf(f, "usage: regctl [options] list [SPEC[.BLOCK]]\n"
               "       regctl [options] read SPEC.BLOCK[.INSTANCE].REG[INDEX]\n"
               "       regctl [options] write SPEC.BLOCK[.INSTANCE].REG[INDEX] FIELD=VALUE...\n"
               "%s"
               "options:\n"
               "  --backend msr|pci|perf|sim   how registers are reached (default msr; pci "
               "registers: pci)\n"
               "  --cpu N          target CPU (msr, perf) or the Nth matching PCI device (pci)\n"
               "  --dry-run        print every access that would be made; touch nothing\n"
               "  --rmw            write: unspecified fields keep their current value (default: "
               "reset value; must-be-one bits 1)\n"
               "  --json           machine-readable output\n"
               "  --msr-root DIR   instead of /dev/cpu ($REGC_MSR_ROOT)\n"
               "  --sysfs-root DIR instead of /sys ($REGC_SYSFS_ROOT)\n"
               "  --help, --version\n",
            regctl_monitor_usage);
    return 2;
}

static const struct regc_spec *find_spec(const char *name, size_t len)
{
    for (const struct regc_spec *const *s = regc_specs; *s; s++)
        if (strlen((*s)->name) == len && strncmp((*s)->name, name, len) == 0)
            return *s;
    return NULL;
}

/* ---- output helpers */

static void hex(char *buf, size_t len, uint64_t v)
{
    snprintf(buf, len, "0x%llx", (unsigned long long)v);
}

static void print_json(json_t *j)
{
    json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', stdout);
    json_decref(j);
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
    for (const struct regc_spec *const *s = regc_specs; *s; s++) {
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
        print_json(arr);
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
        print_json(arr);
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
        print_json(arr);
    else
        table_print(&t, "");
    return 0;
}

static int cmd_list(const struct opts *o, int argc, char **argv)
{
    if (argc > 1)
        return usage(stderr);
    if (argc == 0)
        return list_specs(o);
    const char *dot = strchr(argv[0], '.');
    const struct regc_spec *s = find_spec(argv[0], dot ? (size_t)(dot - argv[0]) : strlen(argv[0]));
    if (!s) {
        fprintf(stderr, "regctl: no spec '%.*s' (see 'regctl list')\n",
                dot ? (int)(dot - argv[0]) : (int)strlen(argv[0]), argv[0]);
        return 2;
    }
    if (!dot)
        return list_blocks(o, s);
    const struct regc_block *b = regc_spec_block(s, dot + 1);
    if (!b) {
        fprintf(stderr, "regctl: no block '%s' in spec '%s'\n", dot + 1, s->name);
        return 2;
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
    if (io->pci)
        printf(" (pci %04x:%04x dev %u func %u)", io->pci->vendor, io->pci->device, io->pci->dev,
               io->pci->func);
    else
        printf(" (cpu %d)", io->cpu);
    printf("%s\n", rc ? " failed" : "");
}

static int resolve(const char *path, struct regc_ref *r)
{
    const char *dot = strchr(path, '.');
    const struct regc_spec *s = dot ? find_spec(path, (size_t)(dot - path)) : NULL;
    if (!s) {
        fprintf(
            stderr,
            "regctl: no spec '%.*s' (want SPEC.BLOCK[.INSTANCE].REG[INDEX]; see 'regctl list')\n",
            dot ? (int)(dot - path) : (int)strlen(path), path);
        return 2;
    }
    char err[256];
    if (regc_resolve(s, dot + 1, r, err, sizeof(err)) < 0) {
        fprintf(stderr, "regctl: %s\n", err);
        return 2;
    }
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
    char err[512];
    if (regc_open(d, r->spec, &ro, err, sizeof(err)) < 0) {
        fprintf(stderr, "regctl: %s\n", err);
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

static json_t *decode_json(const struct regc_ref *r, uint64_t v)
{
    char name[160], full[200], h[24], a[24];
    snprintf(full, sizeof(full), "%s.%s", r->spec->name, regc_ref_name(r, name, sizeof(name)));
    hex(h, sizeof(h), v);
    hex(a, sizeof(a), r->address);
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
    return json_pack("{s:s,s:s,s:s,s:s,s:o}", "register", full, "space", space_name(r->reg->space),
                     "address", a, "value", h, "fields", fields);
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

static int cmd_read(const struct opts *o, int argc, char **argv)
{
    if (argc != 1)
        return usage(stderr);
    struct regc_ref r;
    regc_dev *d;
    int rc = resolve(argv[0], &r);
    if (rc || (rc = open_dev(o, &r, &d)))
        return rc;
    uint64_t v;
    if (regc_read(d, &r, &v) < 0) {
        fprintf(stderr, "regctl: %s\n", regc_last_error(d));
        regc_close(d);
        return 1;
    }
    if (o->json)
        print_json(decode_json(&r, v));
    else if (!o->dry_run)
        decode_text(r.spec, &r, v);
    regc_close(d);
    return 0;
}

/* ---- write */

/* Parses FIELD=VALUE (a number or one of the field's named values) into mask/value. */
static int parse_assign(const struct regc_ref *r, const char *arg, uint64_t *mask, uint64_t *value)
{
    const char *eq = strchr(arg, '=');
    char fname[64];
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(fname)) {
        fprintf(stderr, "regctl: want FIELD=VALUE, not '%s'\n", arg);
        return 2;
    }
    snprintf(fname, sizeof(fname), "%.*s", (int)(eq - arg), arg);
    const struct regc_field *f = regc_reg_field(r->reg, fname);
    if (!f) {
        fprintf(stderr, "regctl: register '%s' has no field '%s'\n", r->reg->name, fname);
        return 2;
    }
    const struct regc_value *nv = regc_field_value_named(f, eq + 1);
    char *end;
    errno = 0;
    uint64_t v = nv ? nv->value : strtoull(eq + 1, &end, 0);
    if (!nv && (errno || end == eq + 1 || *end)) {
        fprintf(stderr, "regctl: '%s' is neither a number nor a named value of field '%s'\n",
                eq + 1, f->name);
        return 2;
    }
    unsigned w = (unsigned)(f->msb - f->lsb + 1);
    if (w < 64 && v >> w) {
        fprintf(stderr, "regctl: value 0x%llx does not fit field '%s' [%u:%u] (%u bits)\n",
                (unsigned long long)v, f->name, f->msb, f->lsb, w);
        return 2;
    }
    if (*mask & regc_field_mask(f)) {
        fprintf(stderr, "regctl: field '%s' given twice\n", f->name);
        return 2;
    }
    *mask |= regc_field_mask(f);
    *value = regc_field_put(f, *value, v);
    return 0;
}

static int cmd_write(const struct opts *o, int argc, char **argv)
{
    if (argc < 2)
        return usage(stderr);
    struct regc_ref r;
    int rc = resolve(argv[0], &r);
    uint64_t mask = 0, value = 0;
    for (int i = 1; !rc && i < argc; i++)
        rc = parse_assign(&r, argv[i], &mask, &value);
    regc_dev *d;
    if (rc || (rc = open_dev(o, &r, &d)))
        return rc;
    /* unspecified fields: their reset value, must-be-one bits (RV1) 1 */
    uint64_t base = r.reg->reset | regc_reg_class_mask(r.reg, REGC_MASK_MB1);
    uint64_t written = (base & ~mask) | value;
    int err = o->rmw ? regc_rmw(d, &r, mask, value, &written) : regc_write(d, &r, written);
    if (err < 0) {
        fprintf(stderr, "regctl: %s\n", regc_last_error(d));
        regc_close(d);
        return 1;
    }
    if (o->json)
        print_json(decode_json(&r, written));
    else if (!o->dry_run)
        decode_text(r.spec, &r, written);
    regc_close(d);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {{"backend", required_argument, NULL, 'b'},
                                             {"cpu", required_argument, NULL, 'c'},
                                             {"dry-run", no_argument, NULL, 'n'},
                                             {"json", no_argument, NULL, 'j'},
                                             {"rmw", no_argument, NULL, 'r'},
                                             {"msr-root", required_argument, NULL, 'm'},
                                             {"sysfs-root", required_argument, NULL, 's'},
                                             {"help", no_argument, NULL, 'h'},
                                             {"version", no_argument, NULL, 'V'},
                                             {NULL, 0, NULL, 0}};
    struct opts o = {0};
    int c;
    while ((c = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'b':
            if (!regc_backend_find(optarg)) {
                fprintf(stderr, "regctl: unknown backend '%s' (want msr, pci, perf or sim)\n",
                        optarg);
                return 2;
            }
            o.backend = optarg;
            break;
        case 'c':
            o.cpu = (int)strtol(optarg, &end, 10);
            if (end == optarg || *end || o.cpu < 0) {
                fprintf(stderr, "regctl: bad CPU number '%s'\n", optarg);
                return 2;
            }
            break;
        case 'n':
            o.dry_run = true;
            break;
        case 'j':
            o.json = true;
            break;
        case 'r':
            o.rmw = true;
            break;
        case 'm':
            o.msr_root = optarg;
            break;
        case 's':
            o.sysfs_root = optarg;
            break;
        case 'h':
            usage(stdout);
            return 0;
        case 'V':
            printf("regctl %s\n", REGC_VERSION);
            return 0;
        default:
            return usage(stderr);
        }
    }
    if (optind >= argc)
        return usage(stderr);
    const char *cmd = argv[optind];
    int n = argc - optind - 1;
    char **rest = argv + optind + 1;
    if (strcmp(cmd, "list") == 0)
        return cmd_list(&o, n, rest);
    if (strcmp(cmd, "read") == 0)
        return cmd_read(&o, n, rest);
    if (strcmp(cmd, "write") == 0)
        return cmd_write(&o, n, rest);
    if (strcmp(cmd, "monitor") == 0) {
        struct monitor_globals g = {o.backend, o.msr_root, o.sysfs_root, o.cpu, o.dry_run, o.json};
        return regctl_monitor(&g, n + 1, argv + optind);
    }
    fprintf(stderr, "regctl: unknown command '%s'\n", cmd);
    return usage(stderr);
}
