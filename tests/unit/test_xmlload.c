/*
 * Unit tests for compiler/xmlload.c: the model built from a spec using every
 * element, includes, defaults, and hostile inputs generated at run time.
 * test_error_corpus also runs every loader case of tests/errors/ (the same
 * check tests/errors/run-errors.sh makes through regc --check).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arena.h"
#include "buf.h"
#include "diag.h"
#include "expr.h"
#include "xmlload.h"
#include "xmlload_int.h"

#include "tmpdir.h"

#define DATA "tests/unit/data/loader/"

struct loaded {
    struct arena a;
    struct diag dg;
    struct model_spec *s;
};

static struct model_spec *load(struct loaded *l, const char *path)
{
    arena_init(&l->a);
    diag_init(&l->dg, NULL);
    l->s = xmlload_spec(&l->a, &l->dg, path);
    return l->s;
}

static void unload(struct loaded *l)
{
    diag_release(&l->dg);
    arena_release(&l->a);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* ---------------------------------------------------------------- the model */

static void test_spec_and_sources(void **state)
{
    struct loaded l;
    struct model_spec *s = load(&l, DATA "full.xml");
    if (!s)
        fail_msg("%s", l.dg.text.s);
    assert_string_equal(s->name, "full");
    assert_string_equal(s->prefix, "FULL");
    assert_int_equal(s->version, 1);
    assert_string_equal(s->gaps, "rsv");
    assert_string_equal(s->desc, "First paragraph, folded.\nSecond paragraph.");
    assert_int_equal(s->pos.line, 3);
    assert_int_equal(s->nsources, 2);
    assert_string_equal(s->sources[0]->title, "A guide with a long title");
    assert_string_equal(s->sources[0]->ref, "123456");
    assert_string_equal(s->sources[0]->url, "https://example.invalid/g.pdf");
    assert_string_equal(s->sources[1]->id, "kernel");
    assert_int_equal(s->ninputs, 3);
    assert_string_equal(s->inputs[0], DATA "full.xml");
    assert_string_equal(s->inputs[1], DATA "part-block.xml");
    assert_string_equal(s->inputs[2], DATA "sub/part-top.xml");
    assert_int_equal(l.dg.nerrors, 0);
    unload(&l);
}

static void test_block_and_registers(void **state)
{
    struct loaded l;
    struct model_spec *s = load(&l, DATA "full.xml");
    assert_non_null(s);
    assert_int_equal(s->nblocks, 2);
    struct model_block *b = s->blocks[0];
    assert_string_equal(b->name, "mbox");
    assert_string_equal(b->title, "M-Box");
    assert_string_equal(b->cite.src, "guide");
    assert_string_equal(b->cite.section, "2.1");
    assert_int_equal(b->ninstances, 2);
    assert_true(b->instances[1]->has_base);
    assert_int_equal(b->instances[1]->base, 0xCF0);
    assert_int_equal(b->instances[1]->index, 1);
    assert_string_equal(b->instances[1]->desc, "Second one");
    assert_false(b->instances[0]->has_pci);

    struct model_reg *r = b->regs[0];
    assert_string_equal(r->name, "M_MSR_PMU_CNT_CTL");
    assert_string_equal(r->written_name, "M_MSR_PMU_CNT_CTL{5-0}");
    assert_true(r->is_array);
    assert_true(r->descending);
    assert_int_equal(r->first, 0);
    assert_int_equal(r->count, 6);
    assert_int_equal(r->stride, 2);
    assert_int_equal(r->space, SPACE_MSR);
    assert_int_equal(r->size, 64);
    assert_false(r->has_reset);
    assert_string_equal(r->gaps, "ig"); /* the block's, over the spec's */
    assert_string_equal(r->desc, "Counter control.");
    assert_string_equal(r->cite.table, "2-67");
    assert_int_equal(r->pos.line, 13); /* the line of '<register', not of its '>' */
    assert_ptr_equal(r->block, b);

    struct model_reg *p = b->regs[1];
    assert_string_equal(p->name, "M_PCI");
    assert_false(p->descending);
    assert_int_equal(p->count, 2);
    assert_int_equal(p->space, SPACE_PCI);
    assert_true(p->has_reset);
    assert_int_equal(p->reset, 0x1234);
    assert_string_equal(p->gaps, "RV");
    assert_int_equal(p->nats, 2);
    assert_string_equal(p->ats[1]->instance_name, "mbox1");
    assert_int_equal(p->ats[1]->address, 0x200);

    struct model_reg *m = b->regs[2];
    assert_int_equal(m->space, SPACE_MMIO);
    assert_int_equal(m->size, 32); /* default for mmio */
    assert_false(m->is_array);
    assert_int_equal(m->count, 1);
    assert_string_equal(m->written_name, "M_MMIO");
    assert_string_equal(m->fields[0]->access_text, "RW-S");
    assert_int_equal(m->fields[0]->access, REGC_ACCESS_UNKNOWN); /* the checker's to report */

    struct model_reg *u = s->blocks[1]->regs[0];
    assert_string_equal(u->gaps, "rsv"); /* the spec's */
    unload(&l);
}

static void test_fields_gaps_rules(void **state)
{
    struct loaded l;
    struct model_spec *s = load(&l, DATA "full.xml");
    assert_non_null(s);
    struct model_reg *r = s->blocks[0]->regs[0];
    assert_int_equal(r->nfields, 4);
    struct model_field *f = r->fields[0];
    assert_string_equal(f->name, "flag_mode");
    assert_int_equal(f->msb, 7);
    assert_int_equal(f->lsb, 7);
    assert_int_equal(f->access, REGC_ACCESS_RW);
    assert_int_equal(f->reset, 1);
    assert_string_equal(f->desc, "Flag mode.");
    assert_false(f->implicit);
    assert_ptr_equal(f->reg, r);
    f = r->fields[1];
    assert_int_equal(f->msb, 21);
    assert_int_equal(f->lsb, 19);
    assert_string_equal(f->desc, "Selects the flag.");
    assert_string_equal(f->cite->cite, "note");
    assert_int_equal(f->nvalues, 2);
    assert_true(f->values[1]->undefined);
    assert_false(f->values[0]->undefined);
    assert_int_equal(f->values[1]->value, 7);
    assert_string_equal(f->values[1]->desc, "reserved");
    f = r->fields[2];
    assert_true(f->implicit);
    assert_string_equal(f->name, "rsv");
    assert_int_equal(f->access, REGC_ACCESS_RV);
    assert_string_equal(f->desc, "Table 2-67 stops at 21");
    assert_int_equal(f->msb, 63);
    assert_int_equal(f->lsb, 22);
    f = r->fields[3];
    assert_string_equal(f->name, "ig");
    assert_int_equal(f->access, REGC_ACCESS_IG);
    assert_null(f->desc);

    assert_int_equal(r->nrules, 1);
    struct model_rule *ru = r->rules[0];
    assert_string_equal(ru->name, "flag_mode_for_set_flag_sel");
    assert_string_equal(ru->expr_text, "set_flag_sel != 0 -> flag_mode == 1");
    assert_string_equal(ru->message, "Bit 7 (flag_mode) must be set to 1.");
    assert_non_null(ru->expr);
    assert_int_equal(ru->expr->op, EXPR_OP_IMPLIES);
    assert_int_equal(ru->expr_pos.line, 24);
    assert_int_equal(ru->expr_pos.col, 53);
    assert_string_equal(ru->cite->page, "2-101");
    unload(&l);
}

static void test_events_from_include(void **state)
{
    struct loaded l;
    struct model_spec *s = load(&l, DATA "full.xml");
    assert_non_null(s);
    struct model_block *b = s->blocks[0];
    assert_int_equal(b->nevent_tables, 1);
    struct model_events *t = b->event_tables[0];
    assert_string_equal(t->reg_name, "M_MSR_PMU_CNT_CTL");
    assert_string_equal(t->code_field_name, "set_flag_sel");
    assert_string_equal(t->umask_field_name, "um");
    assert_string_equal(t->title, "Flags");
    assert_ptr_equal(t->block, b);
    /* Positions of included objects name the included file. */
    assert_string_equal(diag_file_name(&l.dg, t->pos.file), DATA "part-block.xml");
    assert_int_equal(t->pos.line, 3);
    assert_int_equal(t->nevents, 2);
    struct model_event *e = t->events[0];
    assert_string_equal(e->full_name, "EVENT_MSG");
    assert_int_equal(e->code, 0x42);
    assert_true(e->has_counters);
    assert_int_equal(e->counter_mask, 0xB);
    assert_false(e->has_umask);
    assert_string_equal(e->desc, "VLW");
    assert_int_equal(e->nsets, 1);
    assert_null(e->sets[0]->reg_name);
    assert_string_equal(e->sets[0]->field_name, "thresh");
    assert_int_equal(e->nsubs, 2);
    struct model_event *sub = e->subs[0];
    assert_string_equal(sub->name, "DOORBELL_RCVD");
    assert_string_equal(sub->full_name, "EVENT_MSG.DOORBELL_RCVD");
    assert_ptr_equal(sub->parent, e);
    assert_int_equal(sub->code, 0x42);
    assert_true(sub->has_umask);
    assert_int_equal(sub->umask, 8);
    assert_int_equal(sub->counter_mask, 0xB); /* inherited */
    assert_string_equal(sub->sets[0]->reg_name, "M_FILTER");
    assert_int_equal(sub->sets[0]->value, 0x1F);
    assert_int_equal(e->subs[1]->counter_mask, 0x20);
    struct model_event *clk = t->events[1];
    assert_false(clk->has_counters);
    assert_int_equal(clk->counter_mask, UINT64_MAX);
    assert_null(clk->parent);
    /* The top-level part brought a source and a block. */
    assert_string_equal(diag_file_name(&l.dg, s->blocks[1]->pos.file), DATA "sub/part-top.xml");
    unload(&l);
}

static void test_pmon(void **state)
{
    struct loaded l;
    struct model_spec *s = load(&l, DATA "full.xml");
    assert_non_null(s);
    struct model_pmon *p = s->blocks[0]->pmon;
    assert_non_null(p);
    assert_string_equal(p->cite.src, "guide");
    assert_string_equal(p->box_control->reg_name, "M_MSR_PMU_BOX_CTL");
    assert_string_equal(p->box_control->freeze_enable.name, "frz_en");
    assert_string_equal(p->box_control->enable.name, "en");
    assert_int_equal(p->box_status->clear, CLEAR_REGISTER);
    assert_string_equal(p->box_status->clear_reg_name, "M_OVF_CTL");
    assert_string_equal(p->box_status->clear_field.name, "clr");
    assert_int_equal(p->ncounters, 2);
    struct model_counters *c = p->counters[0];
    assert_int_equal(c->kind, COUNTERS_GENERAL);
    assert_string_equal(c->count_field.name, "count");
    assert_int_equal(c->width, 48);
    assert_int_equal(c->overflow, OVERFLOW_STOP);
    assert_string_equal(c->wrap_field.name, "wrap_mode");
    assert_string_equal(c->threshold.name, "thr");
    assert_string_equal(c->umask.name, "um");
    assert_true(c->preload_minus_one);
    assert_true(c->freeze_on_overflow);
    assert_int_equal(c->nrdpmcs, 1);
    assert_int_equal(c->rdpmcs[0]->first, 18);
    assert_true(c->rdpmcs[0]->high_zero);
    c = p->counters[1];
    assert_int_equal(c->kind, COUNTERS_FIXED);
    assert_int_equal(c->overflow, OVERFLOW_WRAP);
    assert_false(c->preload_minus_one);
    assert_null(c->count_field.name);
    assert_true(c->has_status_first);
    assert_int_equal(c->status_first, 6);
    assert_false(p->counters[0]->has_status_first);
    assert_null(s->blocks[1]->pmon);

    struct model_pmon_global *g = s->pmon_global;
    assert_non_null(g);
    assert_string_equal(g->control->pmi_core.name, "pmi");
    assert_int_equal(g->control->npmi_cores, 3); /* a list: commas and spaces separate */
    assert_string_equal(g->control->pmi_cores[1].name, "pmi_b");
    assert_string_equal(g->control->pmi_cores[2].name, "pmi_c");
    assert_string_equal(g->control->select.name, "sel");
    assert_string_equal(g->control->freeze_on_overflow.name, "frz_ov");
    assert_int_equal(g->status->clear, CLEAR_WRITE0);
    assert_int_equal(g->status->nboxes, 2);
    assert_string_equal(g->status->boxes[0]->instance_name, "mbox1");
    assert_null(g->status->boxes[1]->instance_name);
    unload(&l);
}

/* ---------------------------------------------------------------- the error corpus */

static const char *const loader_cases[] = {
    "io",      "xml-syntax", "xml-unsafe", "xml-limit", "schema",
    "include", "bad-number", "bad-bits",   "bad-array", "rule-syntax", "not-regspec",
};

static bool is_loader_case(const char *name)
{
    size_t n = strlen(name);
    if (n < 5 || strcmp(name + n - 4, ".xml") != 0)
        return false;
    if (strstr(name, "-cpu")) /* <cpu> values are checked by check_cpu.c, after the loader */
        return false;
    for (size_t i = 0; i < sizeof(loader_cases) / sizeof(loader_cases[0]); i++) {
        size_t k = strlen(loader_cases[i]);
        if (strncmp(name, loader_cases[i], k) == 0 && (name[k] == '.' || name[k] == '-'))
            return true;
    }
    return false;
}

/* Loads one case inside tests/errors and compares diagnostics with NAME.err; false on a mismatch. */
static bool run_case(const char *xml)
{
    char err_path[256];
    snprintf(err_path, sizeof(err_path), "%.*s.err", (int)(strlen(xml) - 4), xml);
    char *want = slurp(err_path);
    struct loaded l; /* with carets, as regc prints them (drawn from the loader's text) */
    arena_init(&l.a);
    diag_init(&l.dg, NULL);
    l.dg.caret = true;
    struct model_spec *s = l.s = xmlload_spec(&l.a, &l.dg, xml);
    bool ok = want && !s && strcmp(want, l.dg.text.s) == 0;
    if (!ok)
        print_error("# %s: expected (%s):\n%s# got:\n%s", xml, err_path, want ? want : "(none)\n",
                    l.dg.text.s);
    free(want);
    unload(&l);
    return ok;
}

static void test_error_corpus(void **state)
{
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof(cwd)));
    assert_int_equal(chdir("tests/errors"), 0);
    DIR *d = opendir(".");
    assert_non_null(d);
    unsigned cases = 0, failed = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!is_loader_case(e->d_name))
            continue;
        cases++;
        failed += !run_case(e->d_name);
    }
    closedir(d);
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(failed, 0);
    assert_true(cases >= 30);
}

/* ---------------------------------------------------------------- hostile input */

/*
 * Loads 'path' and expects it to fail with exactly these diagnostics: one line
 * per NULL-terminated argument, each 'path' followed by the argument.
 */
__attribute__((sentinel)) static void expect_only(const char *path, ...)
{
    struct buf want = BUF_INIT;
    va_list ap;
    va_start(ap, path);
    for (const char *rest; (rest = va_arg(ap, const char *)) != NULL;)
        buf_addf(&want, "%s%s\n", path, rest);
    va_end(ap);
    struct loaded l;
    assert_null(load(&l, path));
    assert_string_equal(l.dg.text.s, want.s);
    unload(&l);
    buf_release(&want);
}

/*
 * The bytes this process has read with read() and the like so far (rchar of
 * /proc/self/io): a count of the loader's work that no load on the machine
 * changes, where a time would.
 */
static unsigned long long bytes_read(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    unsigned long long n = 0;
    assert_non_null(f);
    assert_int_equal(fscanf(f, "rchar: %llu", &n), 1);
    fclose(f);
    return n;
}

/* expect_only() with one diagnostic, having read under 'limit' bytes of 'path'; removes it. */
static void expect_only_reading(unsigned long long limit, const char *path, const char *rest)
{
    unsigned long long before = bytes_read();
    expect_only(path, rest, NULL);
    unsigned long long got = bytes_read() - before;
    if (got >= limit)
        fail_msg("read %llu bytes of '%s' to report its first error (limit %llu)", got, path,
                 limit);
    unlink(path);
}

static void test_junk_100mb(void **state)
{
    const char *path = tmp_path("junk.xml");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    char block[1 << 16];
    for (size_t i = 0; i < sizeof(block); i++)
        block[i] = "junk \x01\xff\n"[i % 8];
    for (int i = 0; i < 1600; i++) /* 100 MiB */
        assert_int_equal(fwrite(block, 1, sizeof(block), f), sizeof(block));
    assert_int_equal(fclose(f), 0);
    /* the first error ends the load: 1 MiB read at most of the 100 */
    expect_only_reading(1u << 20, path, ":1:1: error: start tag expected, '<' not found");
}

/*
 * No size cap, and memory follows the model, not the text: a spec of over
 * 256 MiB (the old loader's limit; the bulk is blank lines between empty
 * <desc/>s, so it loads in seconds) loads, and the loader's peak memory
 * grows by far less than the file's size.
 */
static void test_big_spec_streams(void **state)
{
    const char *path = tmp_path("big.xml");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("<regspec name=\"t\" prefix=\"T\" version=\"1\">\n", f);
    static char line[1008 * 1040]; /* 1008 times: 12 blank lines, then <desc/> on a line */
    memset(line, ' ', sizeof(line));
    for (size_t i = 0; i < sizeof(line); i += 1040) {
        for (size_t k = 79; k < 1040; k += 80)
            line[i + k] = '\n';
        memcpy(line + i + 960, "<desc/>", 7);
    }
    size_t chunks = (size_t)256 * 1024 * 1024 / sizeof(line) + 1;
    for (size_t i = 0; i < chunks; i++)
        assert_int_equal(fwrite(line, 1, sizeof(line), f), sizeof(line));
    fputs("<block name=\"b\"><register name=\"R\" space=\"msr\" address=\"0x10\" width=\"8\">"
          "<field name=\"F\" bits=\"7:0\" access=\"RW\"/></register></block>\n</regspec>\n",
          f);
    assert_int_equal(fclose(f), 0);
    struct rusage before, after;
    assert_int_equal(getrusage(RUSAGE_SELF, &before), 0);
    struct loaded l;
    struct model_spec *s = load(&l, path);
    assert_int_equal(getrusage(RUSAGE_SELF, &after), 0);
    assert_non_null(s);
    assert_int_equal(s->nblocks, 1);
    size_t newlines = 0;
    for (size_t i = 0; i < sizeof(line); i++)
        newlines += line[i] == '\n';
    assert_int_equal(s->blocks[0]->regs[0]->pos.line, 1 + chunks * newlines + 1);
    assert_string_equal(s->blocks[0]->regs[0]->fields[0]->name, "F");
    unload(&l);
    unlink(path);
    /*
     * ru_maxrss is in KiB: less than 16 MiB more than the test's peak so
     * far. Not under AddressSanitizer, whose quarantine keeps up to 256 MiB
     * of freed memory (libxml2's nodes, freed behind the reader) resident.
     */
#ifndef __SANITIZE_ADDRESS__
    assert_true(after.ru_maxrss - before.ru_maxrss < 16 * 1024);
#endif
}

static void test_device_is_refused_unread(void **state)
{
    /* A device has no end to read to: refused for its kind, before a byte is read (not EFBIG). */
    if (access("/dev/zero", R_OK) != 0)
        skip();
    expect_only("/dev/zero", ": error: cannot read file: Is a character device, not a regular file",
                NULL);
}

static void test_fifo_is_refused_unread(void **state)
{
    /* No writer: opening it to read would block, and the alarm fails the test. */
    char fifo[512], path[512]; /* tmp_path() returns one static buffer */
    snprintf(fifo, sizeof(fifo), "%s", tmp_path("spec.fifo"));
    snprintf(path, sizeof(path), "%s", tmp_path("includes-fifo.xml"));
    assert_int_equal(mkfifo(fifo, 0600), 0);
    alarm(20);
    expect_only(fifo, ": error: cannot read file: Is a FIFO, not a regular file", NULL);
    write_file(path, "<regspec name=\"t\" prefix=\"T\" version=\"1\">\n"
                     "  <include href=\"spec.fifo\"/>\n"
                     "</regspec>\n");
    struct buf want = BUF_INIT;
    buf_addf(&want, ":2: error: cannot read included file '%s': Is a FIFO, not a regular file",
             fifo);
    expect_only(path, want.s, NULL);
    alarm(0);
    buf_release(&want);
    unlink(fifo);
    unlink(path);
}

static void test_deep_nesting(void **state)
{
    enum { N = 100000 };
    const char *path = tmp_path("deep.xml");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    for (int i = 0; i < N; i++)
        fputs("<regspec>", f);
    for (int i = 0; i < N; i++)
        fputs("</regspec>", f);
    assert_int_equal(fclose(f), 0);
    expect_only(path, ":1:577: error: elements nest deeper than 64 levels", NULL);
    unlink(path);
}

static void test_external_entity_is_never_opened(void **state)
{
    /* A FIFO with no writer: opening it to read would block, and the alarm fails the test. */
    assert_int_equal(mkfifo(tmp_path("secret"), 0600), 0);
    const char *path = tmp_path("xxe.xml");
    write_file(path, "<?xml version=\"1.0\"?>\n"
                     "<!DOCTYPE regspec [<!ENTITY x SYSTEM \"secret\">]>\n"
                     "<regspec name=\"&x;\" prefix=\"T\" version=\"1\"/>\n");
    alarm(20);
    expect_only(path,
                ":2:1: error: DOCTYPE declaration refused: regspec files may not have a DTD or "
                "declare entities",
                NULL);
    alarm(0);
    unlink(tmp_path("secret"));
    unlink(path);
}

#ifndef __SANITIZE_ADDRESS__
/* The process's address space now (VmSize), in bytes. */
static unsigned long long vm_size(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    assert_non_null(f);
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "VmSize: %llu kB", &kb) == 1)
            break;
    fclose(f);
    assert_true(kb > 0);
    return kb * 1024;
}
#endif

/*
 * Refused before any entity is expanded: the expansion (3 GB of "lol") needs
 * memory, so the load runs in a child whose address space is capped at 64
 * MiB over what it has now (a bound no load on the machine changes, where a
 * time would; a peak RSS misses memory freed before it is read). Not under
 * AddressSanitizer, which reserves terabytes of address space.
 */
static void test_billion_laughs_is_quick(void **state)
{
    struct loaded l;
    assert_null(load(&l, "tests/errors/xml-unsafe-bomb.xml"));
    assert_int_equal(l.dg.count[DIAG_XML_UNSAFE], 1);
    assert_int_equal(l.dg.nerrors, 1);
    unload(&l);
#ifndef __SANITIZE_ADDRESS__
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        unsigned long long cap = vm_size() + (64ull << 20);
        struct rlimit rl = {cap, cap};
        struct loaded c;
        if (setrlimit(RLIMIT_AS, &rl) != 0 || load(&c, "tests/errors/xml-unsafe-bomb.xml") ||
            c.dg.count[DIAG_XML_UNSAFE] != 1 || c.dg.nerrors != 1)
            _exit(1);
        unload(&c);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("within 64 MiB more address space the bomb is not refused alone (status %#x)",
                 status);
#endif
}

static void test_error_positions_in_multiline_tags(void **state)
{
    const char *path = tmp_path("cols.xml");
    write_file(path, "<regspec name=\"t\" prefix=\"T\" version=\"1\">\n"
                     "  <block name=\"b\">\n"
                     "    <register name=\"R\"\n"
                     "              space=\"msr\" address=\"0x1&#x5A;\" stride=\"3\"\n"
                     "              width=\"32\"><field name=\"a\" bits=\"1:0\" access=\"RW\"/>"
                     "<field name=\"b\" access=\"RW\"\n"
                     "       bits=\"9:99\"/></register>\n"
                     "  </block>\n"
                     "</regspec>\n");
    /* The bad character of the address is a character reference: the column points at it. */
    expect_only(path, ":4:39: error: invalid character 'Z' in number '0x1Z'",
                ":6:16: error: bit 99 is out of range: bits are numbered 0 to 63", NULL);
    unlink(path);
}

/*
 * Positions far into a file, where the reader and the start-tag scanner
 * work on many chunks of it: 3,000 registers of one line each (about
 * 250 KB), then the same multi-line tags as above. Line N of the file is
 * register N - 2, so the line numbers are known without the loader.
 */
static void write_big_prefix(struct buf *b)
{
    buf_adds(b, "<regspec name=\"t\" prefix=\"T\" version=\"1\">\n  <block name=\"b\">\n");
    for (int i = 0; i < 3000; i++) /* lines 3 to 3002 */
        buf_addf(b, "    <register name=\"R%d\" space=\"msr\" address=\"0x%x\" width=\"8\">"
                    "<field name=\"F\" bits=\"7:0\" access=\"RW\" desc=\"some text to fill "
                    "the line\"/></register>\n", i, 0x1000 + i);
}

static void test_positions_deep_in_a_big_file(void **state)
{
    const char *path = tmp_path("deep-cols.xml");
    struct buf b = BUF_INIT;
    write_big_prefix(&b);
    buf_adds(&b, "    <register name=\"R\"\n" /* line 3003 */
                 "              space=\"msr\" address=\"0x1&#x5A;\" stride=\"3\"\n"
                 "              width=\"32\"><field name=\"a\" bits=\"1:0\" access=\"RW\"/>"
                 "<field name=\"b\" access=\"RW\"\n"
                 "       bits=\"9:99\"/></register>\n"
                 "  </block>\n</regspec>\n");
    write_file(path, b.s);
    expect_only(path, ":3004:39: error: invalid character 'Z' in number '0x1Z'",
                ":3006:16: error: bit 99 is out of range: bits are numbered 0 to 63", NULL);
    /* a schema error there: the unknown attribute's own column */
    buf_reset(&b);
    write_big_prefix(&b);
    buf_adds(&b, "    <register name=\"R\" space=\"msr\"\n" /* line 3003 */
                 "       adress=\"0x1\" width=\"8\"/>\n  </block>\n</regspec>\n");
    write_file(path, b.s);
    expect_only(path,
                ":3004:8: error: element 'register': unknown attribute 'adress'; did you mean "
                "'address'?",
                NULL);
    buf_release(&b);
    unlink(path);
}

/*
 * Start tags cut anywhere by the reads the scanner sees (libxml2 asks for
 * some thousands of bytes at a time): 6,000 registers of three lines each
 * (about 560 KB), their lengths varying by 0 to 12 bytes so that the edge
 * of a read falls on every part of a tag in turn: in a name, on a quote,
 * inside a value holding the other quote, a '>' and a newline, on the '>'.
 * Each register's address is wrong at a column the test knows from the
 * text it wrote, found in the raw tag only when all of the tag was kept.
 */
static void test_positions_at_every_read_edge(void **state)
{
    const char *path = tmp_path("edges.xml");
    struct buf b = BUF_INIT, want = BUF_INIT;
    const char *third = "      address=\"0x1Z\" width=\"8\"/>"; /* 'Z': column 19 */
    buf_adds(&b, "<regspec name=\"t\" prefix=\"T\" version=\"1\">\n  <block name=\"b\">\n");
    unsigned line = 3;
    for (int i = 0; i < 6000; i++, line += 3) {
        buf_addf(&b, "    <register name=\"R%d%.*s\" desc='one \"two\" > three\n", i, i % 13,
                 "_____________");
        buf_adds(&b, "four' space=\"msr\"\n");
        buf_addf(&b, "%s\n", third);
        buf_addf(&want, "%s:%u:19: error: invalid character 'Z' in number '0x1Z'\n", path,
                 line + 2);
    }
    buf_adds(&b, "  </block>\n</regspec>\n");
    write_file(path, b.s);
    struct loaded l;
    assert_null(load(&l, path));
    assert_string_equal(l.dg.text.s, want.s);
    unload(&l);
    buf_release(&b);
    buf_release(&want);
    unlink(path);
}

/*
 * A file with a schema error reports only its schema errors, though the
 * streaming loader meets the bad number (line 3) before the unknown element
 * (line 4): what the model's construction found is dropped with the file.
 */
static void test_schema_error_hides_value_errors(void **state)
{
    const char *path = tmp_path("both.xml");
    write_file(path, "<regspec name=\"t\" prefix=\"T\" version=\"1\">\n"
                     "  <block name=\"b\">\n"
                     "    <register name=\"R\" space=\"msr\" address=\"0xZ\" width=\"8\"/>\n"
                     "    <regster name=\"S\"/>\n"
                     "  </block>\n"
                     "</regspec>\n");
    expect_only(path, ":4: error: element 'regster' is not allowed here; did you mean 'register'?",
                NULL);
    unlink(path);
}

static void test_repeated_pmon_and_misc(void **state)
{
    const char *path = tmp_path("twice.xml");
    write_file(path, "<regspec name=\"t\" prefix=\"T\" version=\"1\">\n"
                     "  <block name=\"b\">\n"
                     "    <pmon/>\n"
                     "    <pmon/>\n"
                     "  </block>\n"
                     "</regspec>\n");
    expect_only(path, ":4: error: element 'pmon' may appear only once here",
                ":3: note: first 'pmon' is here", NULL);
    unlink(path);
}

/* A PCI locator records which of dev= and func= were given: left out is "any slot", not 0. */
static void test_pci_locator_given(void **state)
{
    (void)state;
    const char *path = tmp_path("pci.xml");
    write_file(path,
               "<regspec name=\"t\" prefix=\"T\" version=\"1\">\n"
               "  <block name=\"b\">\n"
               "    <instance name=\"any\" vendor=\"0x104C\" device=\"0xAC23\" func=\"0\"/>\n"
               "    <instance name=\"fixed\" vendor=\"0x8086\" device=\"0x3C46\" dev=\"0\"/>\n"
               "    <instance name=\"slot\" vendor=\"0x8086\" device=\"0x3CB0\" dev=\"16\" "
               "func=\"5\"/>\n"
               "  </block>\n"
               "</regspec>\n");
    struct loaded l;
    struct model_spec *s = load(&l, path);
    assert_non_null(s);
    assert_int_equal(l.dg.nerrors, 0);
    struct model_instance *const *in = s->blocks[0]->instances;
    assert_true(in[0]->has_pci);
    assert_int_equal(in[0]->vendor, 0x104C);
    assert_int_equal(in[0]->device, 0xAC23);
    assert_false(in[0]->has_dev); /* no dev=: any slot */
    assert_true(in[0]->has_func);
    assert_int_equal(in[0]->func, 0);
    assert_true(in[1]->has_dev); /* dev="0" given: slot 0, not "any" */
    assert_int_equal(in[1]->dev, 0);
    assert_false(in[1]->has_func);
    assert_true(in[2]->has_dev && in[2]->has_func);
    assert_int_equal(in[2]->dev, 16);
    assert_int_equal(in[2]->func, 5);
    unload(&l);
    unlink(path);
}

static int first_field(void *ctx, const struct expr *node)
{
    *(const struct expr **)ctx = node;
    return 1;
}

static void test_rule_positions(void **state)
{
    const char *path = tmp_path("lt.xml");
    write_file(path, "<regspec name=\"t\" prefix=\"T\" version=\"1\">\n"
                     "  <block name=\"b\">\n"
                     "    <register name=\"R\" space=\"msr\" address=\"1\" width=\"8\">\n"
                     "      <field name=\"mode\" bits=\"7:0\" access=\"RW\"/>\n"
                     "      <rule name=\"r\" expr='1 &lt; 2 &amp;&amp; mdoe == 3'>m</rule>\n"
                     "    </register>\n"
                     "  </block>\n"
                     "</regspec>\n");
    struct loaded l;
    struct model_spec *s = load(&l, path);
    assert_non_null(s);
    struct model_rule *ru = s->blocks[0]->regs[0]->rules[0];
    assert_string_equal(ru->expr_text, "1 < 2 && mdoe == 3");
    assert_int_equal(ru->expr_pos.line, 5);
    assert_int_equal(ru->expr_pos.col, 28);
    const struct expr *f = NULL;
    assert_int_equal(expr_foreach_field(ru->expr, first_field, &f), 1);
    assert_string_equal(f->field, "mdoe");
    /* Offsets index expr_text; the file spells '<' and '&' as entity references. */
    assert_int_equal(f->offset, 9);
    assert_int_equal(ru->expr_pos.col + f->offset + 3 + 4 + 4, 48); /* the 'm' of "mdoe" */
    unload(&l);
    unlink(path);
}

/*
 * Values and text as XML says (the loader reads SAX2 events, which leave
 * some of that to the reader): references decoded in values ('&' too, which
 * the parser passes on as "&#38;"), blanks in values made spaces (a
 * character reference's kept); the text of <desc> and <rule> with CDATA as
 * text and every blank kept, those between comments too: "A" and "B" stay
 * two words (libxml2's tree with XML_PARSE_NOBLANKS, which the loader read
 * before, joined them).
 */
static void test_values_and_text(void **state)
{
    const char *path = tmp_path("text.xml");
    write_file(path, "<regspec name=\"t\" prefix=\"T\" version=\"1\"\n"
                     "          title=\"a &amp; b &#38; &lt;c&gt; &#x41;&#66;\tt\nn&#10;x\">\n"
                     "  <desc><!-- c -->A<!-- y --> <!-- z -->B &#32;<![CDATA[ <d> & ]]> e</desc>\n"
                     "  <block name=\"b\">\n"
                     "    <register name=\"R\" space=\"msr\" address=\"1\" width=\"8\">\n"
                     "      <desc>  </desc>\n"
                     "      <field name=\"f\" bits=\"7:0\" access=\"RW\"/>\n"
                     "      <rule name=\"r\" expr=\"f != 0\">m <![CDATA[x]]> &lt; <!--c--> "
                     "<!--d-->n</rule>\n"
                     "    </register>\n"
                     "  </block>\n"
                     "</regspec>\n");
    struct loaded l;
    struct model_spec *s = load(&l, path);
    assert_non_null(s);
    assert_string_equal(s->title, "a & b & <c> AB t n\nx");
    assert_string_equal(s->desc, "A B <d> & e");
    assert_string_equal(s->blocks[0]->regs[0]->desc, "");
    assert_string_equal(s->blocks[0]->regs[0]->rules[0]->message, "m x < n");
    unload(&l);
    unlink(path);
}

/*
 * One compiled schema serves many loads (the fuzz targets keep one): a load
 * with it gives what a load of its own gives, messages included, before
 * and after a spec the schema refuses.
 */
static void test_schema_reused(void **state)
{
    (void)state;
    struct diag dg0;
    diag_init(&dg0, NULL);
    struct xmlload_schema *sc = xmlload_schema_new(&dg0);
    assert_non_null(sc);
    assert_int_equal(dg0.nerrors, 0);
    const char *paths[] = {DATA "full.xml", "tests/errors/schema-attribute-typo.xml",
                           DATA "full.xml", "tests/errors/schema-attribute-typo.xml"};
    for (size_t i = 0; i < 4; i++) {
        struct loaded own, with;
        struct model_spec *s1 = load(&own, paths[i]);
        arena_init(&with.a);
        diag_init(&with.dg, NULL);
        struct model_spec *s2 = xmlload_spec_with(&with.a, &with.dg, paths[i], NULL, 0, sc);
        assert_int_equal(s1 != NULL, s2 != NULL);
        assert_int_equal(own.dg.nerrors, with.dg.nerrors);
        assert_int_equal(own.dg.text.len, with.dg.text.len);
        assert_memory_equal(own.dg.text.s, with.dg.text.s, own.dg.text.len);
        if (i % 2 == 0) {
            assert_non_null(s2);
            assert_int_equal(s1->nblocks, s2->nblocks);
            assert_int_equal(s1->blocks[0]->nregs, s2->blocks[0]->nregs);
        } else {
            assert_null(s2);
            assert_non_null(strstr(with.dg.text.s, "did you mean"));
        }
        unload(&own);
        unload(&with);
    }
    xmlload_schema_free(sc);
    diag_release(&dg0);
}

/*
 * The loader checks what the schema's table holds and nothing less: a
 * schema with a pattern outside that shape is refused at start-up, naming
 * the pattern and its line, never used in part.
 */
static void test_schema_shape_refused(void **state)
{
    (void)state;
    static const struct {
        const char *body, *want;
    } cases[] = {
        {"<element name='a'><oneOrMore><element name='b'><empty/></element></oneOrMore></element>",
         "the pattern <oneOrMore> (regspec.rng line 1)"},
        {"<element name='a'><element name='b'><empty/></element></element>",
         "a required element, or a choice of elements not repeated"},
        {"<element name='a'><choice><element name='b'><empty/></element>"
         "<element name='c'><empty/></element></choice></element>",
         "a required element, or a choice of elements not repeated"},
        {"<element name='a'><optional><element name='b'><empty/></element></optional>"
         "<zeroOrMore><element name='c'><empty/></element></zeroOrMore></element>",
         "child elements in a sequence"},
        {"<element name='a'><zeroOrMore><element name='a'><empty/></element></zeroOrMore></element>",
         "an element defined twice"},
        {"<element name='a'><choice><attribute name='x'/><attribute name='y'/></choice></element>",
         "a choice or repetition of attributes"},
        {"<element name='a'><attribute name='x'><data type='int'/></attribute></element>",
         "an attribute pattern other than text, <value> and <choice>"},
        {"<element name='a'><ref name='nowhere'/></element>", "a <ref> to no <define>"},
        {"<element name='a'><group><empty/></group></element>", "the pattern <group>"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char rng[1024];
        int n = snprintf(rng, sizeof(rng),
                         "<grammar xmlns='http://relaxng.org/ns/structure/1.0'><start>%s</start>"
                         "</grammar>",
                         cases[i].body);
        struct diag dg;
        diag_init(&dg, NULL);
        struct xmlload_schema *sc = xmlload_schema_from(rng, (size_t)n, &dg);
        assert_null(sc);
        assert_int_equal(dg.nerrors, 1);
        if (!strstr(dg.text.s, cases[i].want))
            fail_msg("case %zu: '%s' does not say '%s'", i, dg.text.s, cases[i].want);
        diag_release(&dg);
    }
    /* the shapes it holds: optional, repeated and interleaved children, attribute groups */
    const char *ok = "<grammar xmlns='http://relaxng.org/ns/structure/1.0'><start>"
                     "<element name='a'><interleave><attribute name='x'/><optional>"
                     "<attribute name='y'/><attribute name='z'><ref name='v'/></attribute>"
                     "</optional></interleave><zeroOrMore><choice><ref name='b'/><text/>"
                     "</choice></zeroOrMore></element></start>"
                     "<define name='v'><choice><value>p</value><value>q</value></choice></define>"
                     "<define name='b'><element name='b'><optional><element name='c'><empty/>"
                     "</element></optional></element></define></grammar>";
    struct diag dg;
    diag_init(&dg, NULL);
    struct xmlload_schema *sc = xmlload_schema_from(ok, strlen(ok), &dg);
    assert_non_null(sc);
    const struct schema_elem *a = schema_elem_find(sc, "a"), *b = schema_elem_find(sc, "b");
    assert_non_null(a);
    assert_non_null(b);
    assert_true(a->text);
    assert_int_equal(a->nattrs, 3);
    assert_true(a->attrs[0].required);
    assert_false(a->attrs[1].required);
    assert_int_equal(a->attrs[1].group, a->attrs[2].group);
    assert_string_equal(a->attrs[2].values[0], "p");
    assert_string_equal(a->attrs[2].values[1], "q");
    assert_null(a->attrs[2].values[2]);
    assert_int_equal(schema_child_find(a, "b")->once, -1);
    assert_int_equal(schema_child_find(b, "c")->once, 0);
    assert_null(schema_child_find(a, "c"));
    assert_true(schema_value_is(" p\t", "p"));
    assert_true(schema_value_is("a  b", "a b"));
    assert_false(schema_value_is("a b", "ab"));
    assert_false(schema_value_is("pp", "p"));
    xmlload_schema_free(sc);
    diag_release(&dg);
}

/* ---------------------------------------------------------------- derivation's walk */

/* A spec of 'n' registers in a chain of derived-from=, R0's base missing (NOPE). */
static void write_chain(const char *path, unsigned n)
{
    struct buf b = BUF_INIT;
    buf_adds(&b, "<regspec name=\"t\" prefix=\"T\" version=\"1\" block-names=\"true\">\n"
                 "  <source id=\"s\" title=\"t\"/>\n  <block name=\"B\">\n"
                 "    <instance name=\"B\" base=\"0x40000000\"/>\n");
    for (unsigned i = 0; i < n; i++) {
        char base[16];
        snprintf(base, sizeof(base), i ? "R%u" : "NOPE", i - 1);
        buf_addf(&b, "    <register name=\"R%u\" space=\"mmio\" address=\"0x%x\" width=\"32\" "
                     "derived-from=\"%s\" src=\"s\"/>\n", i, 4 * i, base);
    }
    buf_adds(&b, "  </block>\n</regspec>\n");
    write_file(path, b.s);
    buf_release(&b);
}

/* The nodes derivation walked to find which derivations reach only found bases, in a chain of n. */
static size_t chain_steps(unsigned n)
{
    const char *path = tmp_path("chain.xml");
    write_chain(path, n);
    struct loaded l;
    load(&l, path);
    assert_non_null(strstr(l.dg.text.s, "derived-from 'NOPE' of register 'R0' names no register"));
    assert_int_equal(l.dg.nerrors, 1);
    size_t steps = xl_derive_steps();
    unload(&l);
    unlink(path);
    return steps;
}

/*
 * With a base missing, each derivation is asked whether every base it reaches is found
 * (xmlderive.c's found_deep); asked of each register of a chain in turn, a walk down the chain
 * from each is quadratic (200 registers: 20,100 nodes). Memoised, each node is walked once a
 * round: about two steps a register, and twice the chain twice the steps.
 */
static void test_derive_walk_linear(void **state)
{
    size_t half = chain_steps(100), full = chain_steps(200);
    if (full > 3 * 200 || full * 10 > half * 23)
        fail_msg("the derivation walk is not linear: %zu nodes for a chain of 100, %zu for 200",
                 half, full);
}

/*
 * xl_attr_index() remembers an attribute's index by the addresses of its
 * name and of the element's schema entry, in a table of ATTR_MEMO_SIZE
 * entries: 60 elements of 64 attributes (x0 to x63, element k holding xi
 * at index (i - k) mod 64) make 3,840 keys, about as many as the table
 * holds, so keys collide and replace each other, and one name's address
 * comes with every element. Each look-up, of a name given or not, must give
 * that element's own index, known from the order written.
 */
static void test_attr_index_remembered(void **state)
{
    enum { ELEMS = 60, ATTRS = 64 };
    struct buf rng = BUF_INIT;
    buf_adds(&rng, "<grammar xmlns='http://relaxng.org/ns/structure/1.0'><start><choice>");
    for (int k = 0; k < ELEMS; k++) {
        buf_addf(&rng, "<element name='e%d'>", k);
        for (int p = 0; p < ATTRS; p++)
            buf_addf(&rng, "<attribute name='x%d'/>", (p + k) % ATTRS);
        buf_adds(&rng, "<empty/></element>");
    }
    buf_adds(&rng, "</choice></start></grammar>");
    struct diag dg;
    diag_init(&dg, NULL);
    struct xmlload_schema *sc = xmlload_schema_from(rng.s, rng.len, &dg);
    assert_non_null(sc);
    const struct schema_elem *elems[ELEMS];
    for (int k = 0; k < ELEMS; k++) {
        char name[16];
        snprintf(name, sizeof(name), "e%d", k);
        elems[k] = schema_elem_find(sc, name);
        assert_non_null(elems[k]);
    }
    char names[ATTRS + 1][16]; /* x0 to x63, then y: no element has it */
    for (int i = 0; i < ATTRS; i++)
        snprintf(names[i], sizeof(names[i]), "x%d", i);
    snprintf(names[ATTRS], sizeof(names[ATTRS]), "y");
    struct rfile *rf = calloc(1, sizeof(*rf));
    assert_non_null(rf);
    rf->memo = calloc(ATTR_MEMO_SIZE, sizeof(*rf->memo));
    assert_non_null(rf->memo);
    unsigned wrong = 0;
    for (int round = 0; round < 3; round++) /* the first fills the table, the others find it */
        for (int k = 0; k < ELEMS; k++)
            for (int i = 0; i <= ATTRS; i++) {
                int want = i < ATTRS ? (i - k + ATTRS) % ATTRS : -1;
                wrong += xl_attr_index(rf, elems[k], names[i]) != want;
            }
    assert_int_equal(wrong, 0);
    free(rf->memo);
    free(rf);
    xmlload_schema_free(sc);
    diag_release(&dg);
    buf_release(&rng);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_and_sources),
        cmocka_unit_test(test_pci_locator_given),
        cmocka_unit_test(test_block_and_registers),
        cmocka_unit_test(test_fields_gaps_rules),
        cmocka_unit_test(test_events_from_include),
        cmocka_unit_test(test_pmon),
        cmocka_unit_test(test_error_corpus),
        cmocka_unit_test(test_junk_100mb),
        cmocka_unit_test(test_big_spec_streams),
        cmocka_unit_test(test_device_is_refused_unread),
        cmocka_unit_test(test_fifo_is_refused_unread),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_external_entity_is_never_opened),
        cmocka_unit_test(test_billion_laughs_is_quick),
        cmocka_unit_test(test_error_positions_in_multiline_tags),
        cmocka_unit_test(test_positions_deep_in_a_big_file),
        cmocka_unit_test(test_positions_at_every_read_edge),
        cmocka_unit_test(test_schema_error_hides_value_errors),
        cmocka_unit_test(test_repeated_pmon_and_misc),
        cmocka_unit_test(test_rule_positions),
        cmocka_unit_test(test_values_and_text),
        cmocka_unit_test(test_schema_reused),
        cmocka_unit_test(test_schema_shape_refused),
        cmocka_unit_test(test_derive_walk_linear),
        cmocka_unit_test(test_attr_index_remembered),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
