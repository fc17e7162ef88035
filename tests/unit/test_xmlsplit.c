/*
 * Unit tests for the parallel load: compiler/xmlsplit.c (where a spec is
 * cut) on tricky text, and xmlload_spec() on several threads, whose model
 * (every object, every position) and diagnostics must be those of the
 * serial load. REGC_SPLIT_MIN=0 (set in main) lets small files be cut.
 * Specs with <include>s are loaded serially, so the real specs are also
 * loaded with their includes written in place (flatten()).
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
#include <unistd.h>

#include "arena.h"
#include "buf.h"
#include "check.h"
#include "context.h"
#include "diag.h"
#include "xmlload.h"

#include "tmpdir.h"
#include "xmlsplit.h"

/* ---------------------------------------------------------------- the scanner */

/* Cuts 'text' into at most 'pieces'; every cut but the first must start with 'marker'. */
static unsigned cut_at(const char *text, unsigned pieces, const char *marker)
{
    struct xmlsplit sp;
    size_t len = strlen(text);
    if (!xmlsplit_find(text, len, pieces, &sp))
        return 0;
    assert_true(sp.n >= 2 && sp.n <= pieces);
    assert_int_equal(sp.cut[0], sp.root_end);
    assert_int_equal(sp.cut[sp.n], len);
    assert_memory_equal(text + sp.root_end - 1, ">", 1);
    for (unsigned k = 1; k < sp.n; k++) {
        assert_true(sp.cut[k] > sp.cut[k - 1]);
        if (strncmp(text + sp.cut[k], marker, strlen(marker)) != 0)
            fail_msg("cut %u at '%.30s', expected '%s'", k, text + sp.cut[k], marker);
    }
    return sp.n;
}

static bool splits(const char *text)
{
    struct xmlsplit sp;
    return xmlsplit_find(text, strlen(text), 4, &sp);
}

#define LATE_BLOCKS                                                                                \
    "  <block name=\"real1\"><register name=\"R\"/></block>\n"                                     \
    "  <block name=\"real2\"/>\n"                                                                  \
    "</regspec>\n"

/* '<block' in comments, CDATA, PIs and attribute values (with '>' and '<' in them) is no tag. */
static void test_scanner_skips_markup(void **state)
{
    const char *text =
        "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n"
        "<!-- <block name=\"prolog\"> -->\n<?pi <block name=\"prolog-pi\"?>\n"
        "<regspec name=\"t\" prefix=\"T\" version=\"1\" title='a > b <block name=\"root-attr\"'>\n"
        "  <!-- <block name=\"comment\"/> -- <block -->\n"
        "  <desc><![CDATA[ <block name=\"cdata\"> ]] > ]]></desc>\n"
        "  <?target <block name=\"pi\"> ?>\n"
        "  <source id=\"s\" title=\"x > <block name='in-value'\" ref='<block \"y\"'/>\n"
        "  <blocks><block name=\"under-blocks\"/></blocks>\n"
        "  <r:block xmlns:r=\"urn:x\" name=\"prefixed\"/>\n"
        "  <blockade name=\"longer-name\"/>\n" LATE_BLOCKS;
    assert_true(cut_at(text, 16, "<block name=\"real") >= 2);
}

/* Blocks inside blocks, or below any other element, are at depth 2: no place to cut. */
static void test_scanner_only_depth_one(void **state)
{
    const char *text =
        "<regspec name=\"t\" prefix=\"T\" version=\"1\">\n"
        "  <block name=\"real0\">\n"
        "    <block name=\"deep1\"/><block name=\"deep2\"><block name=\"deep3\"/></block>\n"
        "    <register name=\"R\"><field name=\"F\" bits=\"1\"/></register>\n"
        "    <block name=\"deep4\"></block><block name=\"deep5\"/>\n"
        "  </block>\n"
        "  <source id=\"s\"><block name=\"deep6\"/></source>\n" LATE_BLOCKS;
    assert_true(cut_at(text, 16, "<block name=\"real") >= 2);
}

static void test_scanner_block_counts(void **state)
{
    /* none: nothing to cut at */
    assert_false(splits("<regspec name=\"t\"><source id=\"s\"/></regspec>"));
    /* one, at the start: cutting there would leave the first piece empty of content */
    assert_false(splits("<regspec name=\"t\"><block name=\"b\"/><source id=\"s\" "
                        "title=\"a long title that takes most of the file\"/></regspec>"));
    /* one, late: two pieces */
    assert_int_equal(cut_at("<regspec name=\"t\"><source id=\"s\" title=\"a long title that "
                            "takes most of the file\"/><block name=\"b\"/></regspec>",
                            4, "<block name=\"b\""),
                     2);
}

/* What keeps the serial path: the text does not qualify. */
static void test_scanner_refuses(void **state)
{
    const char *rest = ">\n<source id=\"s\" title=\"some text first\"/>" LATE_BLOCKS;
    char text[1024];
    static const char *const heads[] = {
        "<!DOCTYPE regspec>\n<regspec name=\"t\"",
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<regspec name=\"t\"",
        "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<regspec name=\"t\"",
        "<?xml version=\"1.0\" encoding=UTF-8?>\n<regspec name=\"t\"",
        "<part title=\"t\"",
        "<x:regspec xmlns:x=\"urn:x\" name=\"t\"",
        "junk <regspec name=\"t\"",
        "<regspec name=\"t\"><include href=\"x.xml\"/",
        "<regspec name=\"t\"><block name=\"b\"><include href=\"x.xml\"/></block",
        "<regspec name=\"t\"><x:include xmlns:x=\"urn:x\" href=\"x.xml\"/",
        "<regspec name=\"t\"><!-- not closed",
        "<regspec name=\"t\"><![CDATA[ not closed",
        "<regspec name=\"t\"><?pi not closed",
        "<regspec name=\"t\"><!DOCTYPE x>",
        "<regspec name=\"t\"><source id=\"s\" title=\"not closed",
    };
    for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
        snprintf(text, sizeof(text), "%s%s", heads[i], rest);
        if (splits(text))
            fail_msg("split: %s", text);
    }
    assert_false(splits("<regspec name=\"t\"/>"));
    assert_false(splits("<regspec name=\"t\"><block name=\"a\"/><block name=\"b\"/>"));
    struct xmlsplit sp;
    snprintf(text, sizeof(text), "<regspec name=\"t\"%s", rest);
    assert_false(xmlsplit_find(text, strlen(text), 1, &sp));
    assert_true(xmlsplit_find(text, strlen(text), 2, &sp));
}

/* What qualifies: the usual declarations, a BOM, comments and PIs before the root. */
static void test_scanner_accepts(void **state)
{
    const char *rest = " name=\"t\">\n<source id=\"s\" title=\"some text first\"/>" LATE_BLOCKS;
    char text[1024];
    static const char *const heads[] = {
        "<regspec",
        "<?xml version=\"1.0\"?>\n<regspec",
        "<?xml version=\"1.0\" encoding='Utf-8'?><regspec",
        "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<regspec",
        "<?xml-stylesheet href=\"x\"?>\n<!-- c -->\n<?pi?>\n<regspec",
    };
    for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
        snprintf(text, sizeof(text), "%s%s", heads[i], rest);
        if (!splits(text))
            fail_msg("not split: %s", text);
    }
}

/* NUL bytes inside the text (libxml2 refuses them) do not end the scan; text[len] does. */
static void test_scanner_nul_bytes(void **state)
{
    char text[] = "<regspec name=\"t\"><source id=\"s\" x title=\"some\" y/>" LATE_BLOCKS;
    size_t len = strlen(text);
    char *x = strchr(text, 'x'), *y = strchr(text, 'y');
    *x = *y = '\0';
    struct xmlsplit sp;
    assert_true(xmlsplit_find(text, len, 2, &sp));
    assert_memory_equal(text + sp.cut[1], "<block name=\"real", 17);
}

/* 64 blocks of one size in 4 pieces: each within one block of a quarter. */
static void test_scanner_balance(void **state)
{
    struct buf b = BUF_INIT;
    buf_adds(&b, "<regspec name=\"t\">\n");
    for (int i = 0; i < 64; i++)
        buf_addf(&b, "  <block name=\"b%02d\"><register name=\"R\" address=\"0\"/></block>\n", i);
    buf_adds(&b, "</regspec>\n");
    struct xmlsplit sp;
    assert_true(xmlsplit_find(b.s, b.len, 4, &sp));
    assert_int_equal(sp.n, 4);
    size_t block = strlen("  <block name=\"b00\"><register name=\"R\" address=\"0\"/></block>\n");
    size_t quarter = (b.len - sp.root_end) / 4;
    for (unsigned k = 0; k < sp.n; k++) {
        size_t size = sp.cut[k + 1] - sp.cut[k];
        assert_true(size + block >= quarter && size <= quarter + block);
    }
    assert_true(xmlsplit_find(b.s, b.len, 100, &sp));
    assert_int_equal(sp.n, REGC_MAX_JOBS);
    buf_release(&b);
}

/* ---------------------------------------------------------------- the model, written out */

static void put_pos(struct buf *b, const char *what, struct srcpos p)
{
    buf_addf(b, " %s@%u:%u:%u", what, (unsigned)p.file, (unsigned)p.line, (unsigned)p.col);
}

static void put_str(struct buf *b, const char *what, const char *s)
{
    buf_addf(b, " %s=%s", what, s ? s : "(none)");
}

static void put_cite(struct buf *b, const struct model_cite *c)
{
    put_str(b, "src", c->src);
    put_str(b, "table", c->table);
    put_str(b, "page", c->page);
    put_str(b, "section", c->section);
    put_str(b, "cite", c->cite);
    put_pos(b, "cite", c->pos);
}

static void put_role(struct buf *b, const char *what, struct model_role r)
{
    put_str(b, what, r.name);
}

static void dump_field(struct buf *b, const struct model_field *f)
{
    buf_adds(b, "\n    field");
    put_str(b, "name", f->name);
    buf_addf(b, " %u:%u reset=%llu implicit=%d", f->msb, f->lsb, (unsigned long long)f->reset,
             f->implicit);
    put_str(b, "access", f->access_text);
    put_str(b, "desc", f->desc);
    put_pos(b, "at", f->pos);
    put_cite(b, &f->cite);
    for (size_t i = 0; i < f->nvalues; i++) {
        const struct model_value *v = f->values[i];
        buf_addf(b, "\n      value %s=%llu undefined=%d", v->name, (unsigned long long)v->value,
                 v->undefined);
        put_str(b, "desc", v->desc);
        put_pos(b, "at", v->pos);
    }
}

static void dump_reg(struct buf *b, const struct model_reg *r)
{
    buf_adds(b, "\n  register");
    put_str(b, "name", r->written_name);
    buf_addf(b, " %u+%u addr=%llu stride=%llu naddrs=%zu space=%d width=%u size=%u reset=%d:%llu",
             r->first, r->count, (unsigned long long)r->address, (unsigned long long)r->stride,
             r->naddrs, (int)r->space, r->width, r->size, r->has_reset,
             (unsigned long long)r->reset);
    put_str(b, "gaps", r->gaps);
    put_str(b, "desc", r->desc);
    put_pos(b, "at", r->pos);
    put_cite(b, &r->cite);
    for (size_t i = 0; i < r->nfields; i++)
        dump_field(b, r->fields[i]);
    for (size_t i = 0; i < r->nrules; i++) {
        const struct model_rule *ru = r->rules[i];
        buf_adds(b, "\n    rule");
        put_str(b, "name", ru->name);
        put_str(b, "expr", ru->expr_text);
        put_str(b, "message", ru->message);
        put_pos(b, "expr", ru->expr_pos);
        put_pos(b, "at", ru->pos);
        put_cite(b, &ru->cite);
    }
    for (size_t i = 0; i < r->nats; i++) {
        buf_addf(b, "\n    at %s=%llu", r->ats[i]->instance_name,
                 (unsigned long long)r->ats[i]->address);
        put_pos(b, "at", r->ats[i]->pos);
    }
}

static void dump_event(struct buf *b, const struct model_event *e)
{
    buf_adds(b, "\n    event");
    put_str(b, "name", e->full_name);
    buf_addf(b, " code=%llu umask=%d:%llu counters=%d:%llx", (unsigned long long)e->code,
             e->has_umask, (unsigned long long)e->umask, e->has_counters,
             (unsigned long long)e->counter_mask);
    put_str(b, "desc", e->desc);
    put_pos(b, "at", e->pos);
    put_cite(b, &e->cite);
    for (size_t i = 0; i < e->nsets; i++) {
        buf_addf(b, "\n      set %s.%s=%llu", e->sets[i]->reg_name ? e->sets[i]->reg_name : "",
                 e->sets[i]->field_name, (unsigned long long)e->sets[i]->value);
        put_pos(b, "at", e->sets[i]->pos);
    }
    for (size_t i = 0; i < e->nsubs; i++)
        dump_event(b, e->subs[i]);
}

static void dump_pmon(struct buf *b, const struct model_pmon *p)
{
    buf_adds(b, "\n  pmon");
    put_pos(b, "at", p->pos);
    for (size_t i = 0; i < p->ncounters; i++) {
        const struct model_counters *c = p->counters[i];
        buf_addf(b, "\n    counters kind=%d width=%u overflow=%d", (int)c->kind, c->width,
                 (int)c->overflow);
        put_str(b, "control", c->control_name);
        put_str(b, "counter", c->counter_name);
        put_role(b, "enable", c->enable);
        put_role(b, "event", c->event);
        put_pos(b, "at", c->pos);
        for (size_t k = 0; k < c->nrdpmcs; k++)
            put_pos(b, "rdpmc", c->rdpmcs[k]->pos);
    }
    if (p->box_control)
        put_pos(b, "box-control", p->box_control->pos);
    if (p->box_status)
        put_pos(b, "box-status", p->box_status->pos);
}

static void dump_block(struct buf *b, const struct model_block *bl)
{
    buf_adds(b, "\nblock");
    put_str(b, "name", bl->name);
    put_str(b, "title", bl->title);
    put_str(b, "gaps", bl->gaps);
    put_str(b, "desc", bl->desc);
    put_pos(b, "at", bl->pos);
    put_cite(b, &bl->cite);
    for (size_t i = 0; i < bl->ninstances; i++) {
        buf_addf(b, "\n  instance %s base=%llu", bl->instances[i]->name,
                 (unsigned long long)bl->instances[i]->base);
        put_pos(b, "at", bl->instances[i]->pos);
    }
    for (size_t i = 0; i < bl->nregs; i++)
        dump_reg(b, bl->regs[i]);
    for (size_t i = 0; i < bl->nevent_tables; i++) {
        const struct model_events *t = bl->event_tables[i];
        buf_adds(b, "\n  events");
        put_str(b, "register", t->reg_name);
        put_pos(b, "at", t->pos);
        for (size_t k = 0; k < t->nevents; k++)
            dump_event(b, t->events[k]);
    }
    if (bl->pmon)
        dump_pmon(b, bl->pmon);
}

static void dump_global(struct buf *b, const struct model_pmon_global *g)
{
    buf_adds(b, "\npmon-global");
    put_pos(b, "at", g->pos);
    if (g->control) {
        put_str(b, "control", g->control->reg_name);
        put_role(b, "freeze", g->control->freeze);
        put_pos(b, "control", g->control->pos);
    }
    if (g->status) {
        put_str(b, "status", g->status->reg_name);
        put_pos(b, "status", g->status->pos);
        for (size_t i = 0; i < g->status->nboxes; i++)
            put_pos(b, "box", g->status->boxes[i]->pos);
    }
}

/* Everything the loader fills, with every position. */
static void dump_spec(struct buf *b, const struct model_spec *s)
{
    buf_adds(b, "spec");
    put_str(b, "name", s->name);
    put_str(b, "prefix", s->prefix);
    put_str(b, "title", s->title);
    put_str(b, "gaps", s->gaps);
    put_str(b, "desc", s->desc);
    buf_addf(b, " version=%u", s->version);
    put_pos(b, "at", s->pos);
    for (size_t i = 0; i < s->ninputs; i++)
        put_str(b, "input", s->inputs[i]);
    for (size_t i = 0; i < s->nsources; i++) {
        const struct model_source *src = s->sources[i];
        buf_adds(b, "\nsource");
        put_str(b, "id", src->id);
        put_str(b, "title", src->title);
        put_str(b, "desc", src->desc);
        put_pos(b, "at", src->pos);
    }
    for (size_t i = 0; i < s->nblocks; i++)
        dump_block(b, s->blocks[i]);
    if (s->pmon_global)
        dump_global(b, s->pmon_global);
    buf_addc(b, '\n');
}

/* ---------------------------------------------------------------- loading on threads */

/* What one load gives: the model written out, or the diagnostics; and the JSON export. */
struct outcome {
    struct buf model, json;
    unsigned pieces;
};

static void load_with(const char *path, unsigned jobs, struct outcome *o)
{
    struct arena a = ARENA_INIT;
    struct diag dg;
    diag_init(&dg, NULL);
    buf_init(&o->model);
    buf_init(&o->json);
    struct model_spec *s = xmlload_spec_pieces(&a, &dg, path, jobs, &o->pieces);
    if (s)
        dump_spec(&o->model, s);
    buf_adds(&o->model, dg.text.s);
    if (s && check_spec(&a, &dg, s, 1) == 0 && dg.nerrors == 0) {
        struct context_options opt = {0};
        assert_int_equal(context_write_json(s, &opt, &o->json), 0);
    }
    buf_adds(&o->json, dg.text.s);
    diag_release(&dg);
    arena_release(&a);
}

static void outcome_release(struct outcome *o)
{
    buf_release(&o->model);
    buf_release(&o->json);
}

/*
 * Loads 'path' serially and on 'jobs' threads: the model, the diagnostics
 * and the JSON export must be the same. Returns the pieces of the second.
 */
static unsigned same_as_serial(const char *path, unsigned jobs)
{
    struct outcome one, many;
    load_with(path, 1, &one);
    load_with(path, jobs, &many);
    assert_int_equal(one.pieces, 1);
    if (strcmp(one.model.s, many.model.s) != 0 || strcmp(one.json.s, many.json.s) != 0)
        fail_msg("%s: -j1 and -j%u differ:\n%s\n--- -j%u:\n%s", path, jobs, one.model.s, jobs,
                 many.model.s);
    unsigned pieces = many.pieces;
    outcome_release(&one);
    outcome_release(&many);
    return pieces;
}

/* The whole file; NULL when it cannot be read. Caller frees. */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct buf b = BUF_INIT;
    char chunk[4096];
    for (size_t n; (n = fread(chunk, 1, sizeof(chunk), f)) > 0;)
        buf_addn(&b, chunk, n);
    fclose(f);
    return buf_detach(&b, NULL);
}

/* Appends the children of the <part> in 'path' (the text between its tags). */
static void add_part(struct buf *out, const char *path)
{
    char *text = read_all(path);
    if (!text)
        fail_msg("cannot read %s", path);
    char *open = strstr(text, "<part");
    char *start = open ? strchr(open, '>') : NULL;
    char *end = strstr(text, "</part>");
    assert_true(start && end && start < end);
    buf_addn(out, start + 1, (size_t)(end - start - 1));
    free(text);
}

/* The spec at 'path' with each <include href="F"/> replaced by what F's <part> holds. */
static void flatten(const char *path, const char *out_path)
{
    char *text = read_all(path);
    assert_non_null(text);
    const char *slash = strrchr(path, '/');
    int dir = slash ? (int)(slash - path + 1) : 0;
    struct buf out = BUF_INIT;
    const char *p = text;
    for (const char *inc; (inc = strstr(p, "<include href=\"")) != NULL;) {
        const char *href = inc + strlen("<include href=\"");
        const char *quote = strchr(href, '"'), *end = strstr(href, "/>");
        assert_true(quote && end);
        buf_addn(&out, p, (size_t)(inc - p));
        char file[600];
        snprintf(file, sizeof(file), "%.*s%.*s", dir, path, (int)(quote - href), href);
        add_part(&out, file);
        p = end + 2;
    }
    buf_adds(&out, p);
    write_file(out_path, out.s);
    buf_release(&out);
    free(text);
}

static unsigned count_blocks(const char *path)
{
    char *text = read_all(path);
    unsigned n = 0;
    for (const char *p = text; (p = strstr(p, "\n  <block ")) != NULL; p++)
        n++;
    free(text);
    return n;
}

/* The real specs and the golden one, includes written in place: the same on 2, 4 and 16 threads. */
static void test_specs_flattened(void **state)
{
    static const char *const dirs[] = {"regspec", "tests/golden"};
    unsigned files = 0, split = 0;
    for (size_t i = 0; i < 2; i++) {
        DIR *d = opendir(dirs[i]);
        assert_non_null(d);
        for (struct dirent *e; (e = readdir(d)) != NULL;) {
            size_t len = strlen(e->d_name);
            if (len < 5 || strcmp(e->d_name + len - 4, ".xml") != 0)
                continue;
            char path[600];
            snprintf(path, sizeof(path), "%s/%s", dirs[i], e->d_name);
            char *text = read_all(path);
            bool is_spec = strstr(text, "<regspec") != NULL;
            free(text);
            if (!is_spec)
                continue;
            const char *flat = tmp_path("flat.xml");
            flatten(path, flat);
            files++;
            unsigned pieces = same_as_serial(flat, 4);
            if (count_blocks(flat) >= 2) {
                if (pieces < 2)
                    fail_msg("%s (includes in place) was not split", path);
                split++;
            }
            same_as_serial(flat, 2);
            same_as_serial(flat, 16);
            same_as_serial(path, 4); /* with its includes: loaded serially */
        }
        closedir(d);
    }
    assert_true(files >= 6);
    assert_true(split >= 4);
}

/*
 * A spec in the shape of bench/gen-spec.py's, with what the join must get
 * right: the spec's <desc> after the middle block (so not in the first
 * piece), a source between blocks, and <pmon-global> at the end. 'bad' replaces the
 * line of block 'bad_block' register 0 (NULL: none).
 */
static void write_spec(const char *path, unsigned blocks, unsigned bad_block, const char *bad)
{
    struct buf b = BUF_INIT;
    buf_adds(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<regspec name=\"gen\" prefix=\"GEN\" version=\"1\" gaps=\"rsv\">\n"
                 "  <source id=\"s0\" title=\"First  source\"/>\n");
    for (unsigned i = 0; i < blocks; i++) {
        buf_addf(&b, "  <block name=\"b%u\" title=\"Block %u\"%s>\n", i, i,
                 i % 3 == 1 ? " gaps=\"ig\"" : "");
        buf_addf(&b, "    <instance name=\"i%u\" base=\"0x%x\"/>\n", i, 0x1000 * (i + 1));
        for (unsigned r = 0; r < 3; r++) {
            if (bad && i == bad_block && r == 0)
                buf_addf(&b, "    %s\n", bad);
            else
                buf_addf(&b,
                         "    <register name=\"B%u_R%u{1-0}\" space=\"msr\" address=\"0x%x\" "
                         "stride=\"2\" width=\"32\" src=\"s0\"\n              table=\"%u\">\n",
                         i, r, 0x100 + r * 4, r);
            buf_addf(&b, "      <field name=\"ev\" bits=\"7:0\" access=\"RW\" desc=\"Event &amp; "
                         "mode\">\n        <value name=\"ON\" value=\"1\"/>\n      </field>\n"
                         "      <field name=\"um\" bits=\"15:8\" access=\"RW\"/>\n"
                         "      <field name=\"en\" bits=\"16\" access=\"RW\"/>\n"
                         "      <rule name=\"r\" expr=\"en -&gt; ev != 0\">Needs an event.</rule>\n"
                         "    </register>\n");
        }
        buf_addf(
            &b,
            "    <events register=\"B%u_R0\" code-field=\"ev\" umask-field=\"um\" src=\"s0\">\n"
            "      <event name=\"E\" code=\"1\" counters=\"0-1\"><sub name=\"S\" "
            "umask=\"2\"/></event>\n    </events>\n  </block>\n",
            i);
        if (i == blocks / 2 + 1)
            buf_adds(&b, "  <desc>The spec's own\n    description.</desc>\n");
        if (i == blocks / 2)
            buf_addf(&b, "  <source id=\"s%u\" title=\"Middle\"/>\n", i);
    }
    buf_adds(&b, "  <pmon-global>\n    <global-control block=\"b0\" register=\"B0_R1\" "
                 "freeze=\"en\"/>\n  </pmon-global>\n</regspec>\n");
    write_file(path, b.s);
    buf_release(&b);
}

static void test_generated_spec(void **state)
{
    const char *path = tmp_path("gen.xml");
    write_spec(path, 40, 0, NULL);
    struct outcome o;
    load_with(path, 1, &o);
    if (!strstr(o.json.s, "\"B39_R2\"") || strstr(o.json.s, "error:"))
        fail_msg("the generated spec does not load:\n%s", o.json.s);
    outcome_release(&o);
    assert_int_equal(same_as_serial(path, 2), 2);
    assert_int_equal(same_as_serial(path, 4), 4);
    assert_int_equal(same_as_serial(path, 16), 16);
    assert_int_equal(same_as_serial(path, 1), 1);
}

/* Errors in a later piece: the serial load's diagnostics, byte for byte. */
static void test_error_in_later_piece(void **state)
{
    static const char *const bad[] = {
        /* a value the loader parses */
        "<register name=\"X{1-0}\" address=\"0x1H\" stride=\"2\" width=\"32\" src=\"s0\">",
        /* the schema */
        "<register name=\"X\" address=\"0x1\" width=\"32\" colour=\"red\">",
        /* well-formedness */
        "<register name=\"X\" address=\"0x1\" width=\"32\"></block><register>",
        "<register name=\"X\" address=\"0x1\" width=\"32\" title=\"&undefined;\">",
        "<!-- a comment that is not closed <register name=\"X\">",
        /* a DOCTYPE inside the document (the scanner refuses it) */
        "<!DOCTYPE x><register name=\"X\" address=\"0x1\" width=\"32\">",
        /* <pmon-global> inside a block: the schema */
        "<pmon-global/><register name=\"X\" address=\"0x1\" width=\"32\">",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *path = tmp_path("bad.xml");
        write_spec(path, 20, 15, bad[i]);
        unsigned pieces = same_as_serial(path, 4);
        if (pieces != 1)
            fail_msg("case %zu: an error, yet %u pieces were kept", i, pieces);
    }
    /* A second <pmon-global>, in another piece: each piece alone is valid, the join refuses. */
    const char *path = tmp_path("bad.xml");
    write_spec(path, 20, 15,
               "</block><pmon-global/><block name=\"extra\"><register name=\"X\" space=\"msr\" "
               "address=\"0x9\" width=\"32\">");
    assert_int_equal(same_as_serial(path, 4), 1);
}

/* Under the threshold (256 KiB unless REGC_SPLIT_MIN says otherwise), the serial load. */
static void test_threshold(void **state)
{
    const char *path = tmp_path("gen.xml");
    write_spec(path, 40, 0, NULL);
    struct outcome o;
    assert_int_equal(setenv("REGC_SPLIT_MIN", "300000", 1), 0);
    load_with(path, 4, &o);
    assert_int_equal(o.pieces, 1);
    outcome_release(&o);
    assert_int_equal(unsetenv("REGC_SPLIT_MIN"), 0);
    load_with(path, 4, &o);
    assert_int_equal(o.pieces, 1);
    outcome_release(&o);
    write_spec(path, 400, 0, NULL); /* about 440 KiB */
    load_with(path, 4, &o);
    assert_int_equal(o.pieces, 4);
    outcome_release(&o);
    assert_int_equal(setenv("REGC_SPLIT_MIN", "0", 1), 0);
}

int main(void)
{
    setenv("REGC_SPLIT_MIN", "0", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scanner_skips_markup),
        cmocka_unit_test(test_scanner_only_depth_one),
        cmocka_unit_test(test_scanner_block_counts),
        cmocka_unit_test(test_scanner_refuses),
        cmocka_unit_test(test_scanner_accepts),
        cmocka_unit_test(test_scanner_nul_bytes),
        cmocka_unit_test(test_scanner_balance),
        cmocka_unit_test(test_specs_flattened),
        cmocka_unit_test(test_generated_spec),
        cmocka_unit_test(test_error_in_later_piece),
        cmocka_unit_test(test_threshold),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
