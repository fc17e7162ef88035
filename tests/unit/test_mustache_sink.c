/*
 * Unit tests for the output handed to a sink as it is rendered
 * (mus_options.sink): once 'out' holds MUS_SINK_CHUNK bytes, before the next
 * tag, the text so far goes to the sink, in runs of at least that size (not
 * one per item the item hook built, as context_expand() builds blocks and
 * registers). The runs and what is left in 'out' must be the text a render
 * without a sink gives, also where the renderer reads back how the output
 * ends (indentation) and where a limit or an error stops it; nothing is
 * handed over after an error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "diag.h"
#include "dt.h"
#include "mustache.h"

enum { NITEMS = 40 };

struct hook {
    struct arena a;
    int calls, live;
    size_t runs_at_error; /* runs handed when the first item without "tag" was built */
    size_t *runs;
};

/* The length of each built item's "big": a run of 'x' (0: empty), to fill chunks. */
static size_t item_bytes;

/* Item i: {"i": i, "name": "item", "tag": "t", "big": "xx", "line": "xx\n"}; item 7 has no tag. */
static const struct dt *expand(void *ctx, const struct dt *item)
{
    struct hook *h = ctx;
    h->calls++;
    h->live++;
    struct arena *a = &h->a;
    long long i = dt_int_value(dt_get(item, "i"));
    struct dt *o = dt_obj(a);
    /* keys of static storage, as context.c gives them: the renderer's memo finds them */
    dt_add(a, o, DT_KEY("i"), dt_int(a, i));
    dt_add(a, o, DT_KEY("name"), dt_str(a, "item"));
    char *big = arena_alloc(a, item_bytes + 2);
    memset(big, 'x', item_bytes);
    big[item_bytes] = '\n';
    big[item_bytes + 1] = '\0';
    dt_add(a, o, DT_KEY("big"), dt_strn(a, big, item_bytes));
    dt_add(a, o, DT_KEY("line"), dt_strn(a, big, item_bytes + 1));
    if (i != 7)
        dt_add(a, o, DT_KEY("tag"), dt_str(a, "t"));
    else
        h->runs_at_error = *h->runs;
    return o;
}

static void expand_done(void *ctx, const struct dt *own)
{
    struct hook *h = ctx;
    (void)own;
    h->live--;
}

static int load_partial(void *ctx, struct diag *dg, const char *name, struct mus_source *out)
{
    const char *const *p = ctx; /* name, text, name, text, ..., NULL */
    (void)dg;
    for (size_t k = 0; p[k]; k += 2)
        if (strcmp(p[k], name) == 0) {
            out->text = p[k + 1];
            out->len = strlen(p[k + 1]);
            return 1;
        }
    return 0;
}

struct result {
    int rc, calls;
    size_t runs, runs_at_error, shortest, longest; /* runs handed over, and their lengths */
    struct buf out, messages;
};

/* A sink that appends each run to a buffer. */
struct runs {
    struct buf text;
    size_t n, shortest, longest;
};

static void take_run(void *ctx, const char *text, size_t len)
{
    struct runs *rs = ctx;
    assert_true(len > 0);
    buf_addn(&rs->text, text, len);
    rs->n++;
    if (rs->shortest == 0 || len < rs->shortest)
        rs->shortest = len;
    if (len > rs->longest)
        rs->longest = len;
}

/* The render limits of the next renders (mus_options.max_output, max_work; 0: defaults). */
static size_t max_output;
static uint64_t max_work;

/* Renders 'tmpl' over a list of NITEMS placeholders {"i": k}; the output is the runs, then out. */
static struct result render(const char *tmpl, const char *const *partials, bool lazy, bool sink)
{
    struct diag dg;
    diag_init(&dg, NULL);
    struct arena a = ARENA_INIT;
    struct runs rs = {BUF_INIT, 0, 0, 0};
    struct hook h = {.a = ARENA_INIT, .runs = &rs.n};
    struct mus_options opt = {.strict = true,
                              .load = load_partial,
                              .load_ctx = (void *)partials,
                              .item = lazy ? expand : NULL,
                              .item_done = lazy ? expand_done : NULL,
                              .item_ctx = &h,
                              .sink = sink ? take_run : NULL,
                              .sink_ctx = &rs,
                              .max_output = max_output,
                              .max_work = max_work};
    struct dt *list = dt_list(&a);
    for (int k = 0; k < NITEMS; k++) {
        struct dt *o = dt_obj(&a);
        dt_set(&a, o, "i", dt_int(&a, k));
        dt_set(&a, o, "name", dt_str(&a, "plain"));
        dt_push(&a, list, o);
    }
    struct dt *root = dt_obj(&a);
    dt_set(&a, root, "l", list);
    struct mus_template *t = mus_compile(&dg, "t.mustache", tmpl, strlen(tmpl));
    assert_non_null(t);
    struct result r = {.out = BUF_INIT, .messages = BUF_INIT};
    r.rc = mus_render(&dg, t, root, &opt, &r.out);
    assert_int_equal(h.live, 0);
    r.runs = rs.n;
    r.shortest = rs.shortest;
    r.longest = rs.longest;
    r.calls = h.calls;
    r.runs_at_error = h.runs_at_error;
    buf_addn(&rs.text, r.out.s, r.out.len);
    buf_release(&r.out);
    r.out = rs.text;
    buf_addn(&r.messages, dg.text.s, dg.text.len);
    mus_free(t);
    diag_release(&dg);
    arena_release(&h.a);
    arena_release(&a);
    return r;
}

static void result_release(struct result *r)
{
    buf_release(&r->out);
    buf_release(&r->messages);
}

/* Renders with and without a sink: the same text, status and messages. Returns the sunk one. */
static struct result same_as_unsunk(const char *tmpl, const char *const *partials)
{
    struct result whole = render(tmpl, partials, true, false);
    struct result sunk = render(tmpl, partials, true, true);
    assert_int_equal(whole.runs, 0);
    assert_int_equal(sunk.rc, whole.rc);
    assert_string_equal(sunk.out.s, whole.out.s);
    assert_string_equal(sunk.messages.s, whole.messages.s);
    result_release(&whole);
    return sunk;
}

/*
 * 'tmpl', whose whole output is 'full_len' bytes, limited to 1, 1 + 'step',
 * ... bytes: stops over the limit, with no more output than it, and at the
 * same byte with a sink as without, until the limit is past the output.
 */
static void expect_output_limits(const char *tmpl, const char *const *partials, size_t full_len,
                                 size_t step)
{
    for (max_output = 1; max_output <= full_len + 1; max_output += step) {
        struct result r = same_as_unsunk(tmpl, partials);
        if (max_output < full_len) {
            assert_int_equal(r.rc, -1);
            assert_non_null(strstr(r.messages.s, "error: output over the limit of"));
            assert_true(r.out.len <= max_output);
        } else {
            assert_int_equal(r.rc, 0);
        }
        result_release(&r);
    }
    max_output = 0;
}

/*
 * Built items reach the sink in runs of MUS_SINK_CHUNK bytes or more, each
 * run handed at the first tag past that size, so at most one value (an
 * item's "big") over it; the text in order.
 */
static void test_sink_gets_chunks(void **state)
{
    (void)state;
    static const char *const partials[] = {"p", "{{i}}:{{name}}{{big}}\n", NULL};
    item_bytes = 10000;
    struct result r = same_as_unsunk("head\n{{#l}}\n{{> p}}\n{{/l}}\ntail\n", partials);
    struct buf want = BUF_INIT;
    buf_adds(&want, "head\n");
    for (int k = 0; k < NITEMS; k++) {
        buf_addf(&want, "%d:item", k);
        for (size_t b = 0; b < item_bytes; b++)
            buf_addc(&want, 'x');
        buf_addc(&want, '\n');
    }
    buf_adds(&want, "tail\n");
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.out.s, want.s);
    assert_int_equal(r.calls, NITEMS);
    assert_true(r.runs >= want.len / (MUS_SINK_CHUNK + item_bytes)); /* 400 KB: 5 runs or 6 */
    assert_true(r.runs <= want.len / MUS_SINK_CHUNK);
    assert_true(r.shortest >= MUS_SINK_CHUNK);
    assert_true(r.longest < MUS_SINK_CHUNK + item_bytes + 16);
    item_bytes = 0;
    buf_release(&want);
    result_release(&r);
}

/* Small built items are held, not handed one by one: a write() each costs more than it writes. */
static void test_small_items_held(void **state)
{
    (void)state;
    static const char *const partials[] = {"p", "{{i}}:{{name}}\n", NULL};
    struct result r = same_as_unsunk("head\n{{#l}}\n{{> p}}\n{{/l}}\ntail\n", partials);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.calls, NITEMS);
    assert_int_equal(r.runs, 0); /* 300 bytes: all of it left in out */
    assert_int_equal(strncmp(r.out.s, "head\n0:item\n1:item\n", 19), 0);
    result_release(&r);
}

/* Items the hook leaves alone are not handed over: the sink is for built items. */
static void test_plain_list_not_handed(void **state)
{
    (void)state;
    static const char *const partials[] = {NULL};
    struct result r = render("{{#l}}{{i}}{{name}},{{/l}}", partials, false, true);
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.runs, 0);
    assert_int_equal(strncmp(r.out.s, "0plain,1plain,", 14), 0);
    result_release(&r);
}

/*
 * A partial around the section: how it ends its line is read back from the
 * output, most of which went to the sink (the last byte handed over).
 */
static void test_partial_around_the_items(void **state)
{
    (void)state;
    /* each item's line fills a chunk, handed over at the empty {{^tag}} after it: the partial
       ends with nothing held, its last byte with the sink */
    static const char *const partials[] = {"outer", "{{#l}}\n{{i}}{{line}}{{^tag}}{{/tag}}{{/l}}",
                                           "p",     "x",
                                           "wrap",  "{{> outer}}\nend\n",
                                           NULL};
    item_bytes = MUS_SINK_CHUNK;
    struct result r = same_as_unsunk("  {{> outer}}\nafter {{> p}}\n", partials);
    assert_int_equal(r.rc, 0);
    assert_int_equal(strncmp(r.out.s, "  0xxx", 6), 0);
    assert_non_null(strstr(r.out.s, "xx\n1xx")); /* a value's line end is not indented after */
    assert_non_null(strstr(r.out.s, "xx\n39xx"));
    assert_non_null(strstr(r.out.s, "xx\nafter x\n"));
    assert_true(r.runs >= NITEMS);
    result_release(&r);
    /* the line after the items, inside an indented partial, is indented: it starts a line */
    r = same_as_unsunk("  {{> wrap}}\n", partials);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out.s, "xx\n  end\n"));
    assert_true(r.runs >= NITEMS);
    item_bytes = 0;
    result_release(&r);
}

/* Items that leave the line open: the next item's indentation depends on what was handed. */
static void test_inline_items(void **state)
{
    (void)state;
    static const char *const partials[] = {"p", "{{i}}\n  x", "outer", "{{#l}}\n{{i}}{{/l}}\n",
                                           NULL};
    struct result r = same_as_unsunk("  a {{#l}}{{> p}} {{/l}}\n", partials);
    assert_int_equal(r.rc, 0);
    assert_int_equal(strncmp(r.out.s, "  a 0\n  x 1\n  x 2", 17), 0);
    result_release(&r);
    r = same_as_unsunk("  {{> outer}}\n", partials);
    assert_int_equal(strncmp(r.out.s, "  0123", 6), 0);
    assert_int_equal(strchr(r.out.s, '\n') - r.out.s, (long)strlen(r.out.s) - 1);
    result_release(&r);
}

/* An error in item 7: reported once, and nothing reaches the sink after it. */
static void test_error_stops_handing_over(void **state)
{
    (void)state;
    static const char *const partials[] = {NULL};
    item_bytes = 20000; /* items 0 to 3 fill a chunk, handed over before item 7 is built */
    struct result r = same_as_unsunk("{{#l}}{{i}}{{tag}}{{big}},{{/l}}", partials);
    assert_int_equal(r.rc, -1);
    assert_non_null(strstr(r.messages.s, "error: no value for 'tag'"));
    assert_int_equal(r.runs_at_error, 1);
    assert_int_equal(r.runs, 1); /* items 8 to 39 would make eight more */
    item_bytes = 0;
    result_release(&r);
}

/*
 * The limits count what was handed over: output stops at the same byte and
 * the same tag whether or not a sink took the items before it.
 */
static void test_limits_count_handed_output(void **state)
{
    (void)state;
    static const char *const partials[] = {"p", "{{i}}:{{name}}{{big}}\n", NULL};
    const char *tmpl = "head\n{{#l}}\n{{> p}}\n{{/l}}\ntail\n";
    item_bytes = 5000; /* 200 KB: three chunks handed over */
    struct result full = render(tmpl, partials, true, false);
    expect_output_limits(tmpl, partials, full.out.len, 997);
    int stopped = 0, passed = 0;
    for (max_work = 1; max_work < 300; max_work += 5) {
        struct result r = same_as_unsunk(tmpl, partials);
        if (r.rc < 0)
            assert_non_null(strstr(r.messages.s, "error: rendering over the limit of"));
        else
            assert_string_equal(r.out.s, full.out.s);
        stopped += r.rc < 0;
        passed += r.rc == 0;
        result_release(&r);
    }
    max_work = 0;
    item_bytes = 0;
    assert_true(stopped > 0 && passed > 0); /* 40 items of 4 tags each: about 210 steps */
    result_release(&full);
}

/*
 * Items that are one run of text and variables: the hand-over and the
 * limits met inside the run, where the renderer copies pieces against a
 * limit it keeps (fast_limit()), and at a tag after the run, which hands
 * over and leaves the next item's run to go on from there. The runs as
 * above; output stops at the same byte as without a sink.
 */
static void test_chunks_and_limits_inside_runs(void **state)
{
    (void)state;
    static const char *const partials[] = {NULL};
    static const char *const tmpls[] = {"head\n{{#l}}{{i}}:{{name}}{{big}}\n{{/l}}tail\n",
                                        "head\n{{#l}}{{i}}:{{name}}{{big}}{{^tag}}{{/tag}}{{/l}}"};
    item_bytes = 10000; /* 400 KB: 6 chunks */
    for (size_t k = 0; k < sizeof(tmpls) / sizeof(tmpls[0]); k++) {
        struct result full = same_as_unsunk(tmpls[k], partials);
        assert_int_equal(full.rc, 0);
        assert_true(full.runs >= full.out.len / (MUS_SINK_CHUNK + item_bytes));
        assert_true(full.shortest >= MUS_SINK_CHUNK);
        assert_true(full.longest < MUS_SINK_CHUNK + item_bytes + 16);
        expect_output_limits(tmpls[k], partials, full.out.len, 1999);
        result_release(&full);
    }
    item_bytes = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sink_gets_chunks),
        cmocka_unit_test(test_small_items_held),
        cmocka_unit_test(test_plain_list_not_handed),
        cmocka_unit_test(test_partial_around_the_items),
        cmocka_unit_test(test_inline_items),
        cmocka_unit_test(test_error_stops_handing_over),
        cmocka_unit_test(test_chunks_and_limits_inside_runs),
        cmocka_unit_test(test_limits_count_handed_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
