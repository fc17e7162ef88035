/*
 * Unit tests for rendering list items on several threads (mus_options.jobs):
 * the output and the diagnostics must be those of one thread, whatever the
 * template does, and the item hooks must see each slot on one thread at a
 * time. The lists here are made lazy the way context_expand() does it: the
 * hook builds each item's object in an arena of its slot.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "diag.h"
#include "dt.h"
#include "jobs.h"
#include "mustache.h"

enum { NITEMS = 40 };

struct hook {
    struct arena slot_arena[REGC_MAX_JOBS];
    atomic_bool busy[REGC_MAX_JOBS];
    atomic_int calls, overlaps, bad_slots;
    unsigned jobs;
};

/* Item i of the list: {"i": i, "late": i == 30, "name": "item", "tag": "t"}, no tag in item 7. */
static const struct dt *expand(void *ctx, const struct dt *item, unsigned slot)
{
    struct hook *h = ctx;
    atomic_fetch_add(&h->calls, 1);
    if (slot >= (h->jobs ? h->jobs : 1)) {
        atomic_fetch_add(&h->bad_slots, 1);
        return NULL;
    }
    if (atomic_exchange(&h->busy[slot], true))
        atomic_fetch_add(&h->overlaps, 1);
    struct arena *a = &h->slot_arena[slot];
    long long i = dt_int_value(dt_get(item, "i"));
    struct dt *o = dt_obj(a);
    dt_set(a, o, "i", dt_int(a, i));
    dt_set(a, o, "late", dt_bool(i == 30));
    dt_set(a, o, "name", dt_str(a, "item"));
    if (i != 7)
        dt_set(a, o, "tag", dt_str(a, "t"));
    return o;
}

static void expand_done(void *ctx, const struct dt *own, unsigned slot)
{
    struct hook *h = ctx;
    (void)own;
    atomic_store(&h->busy[slot], false);
}

struct partials {
    const char *const *names; /* name, text, name, text, ..., NULL */
};

static int load_partial(void *ctx, struct diag *dg, const char *name, struct mus_source *out)
{
    const struct partials *p = ctx;
    (void)dg;
    for (size_t k = 0; p->names[k]; k += 2)
        if (strcmp(p->names[k], name) == 0) {
            out->text = p->names[k + 1];
            out->len = strlen(p->names[k + 1]);
            return 1;
        }
    return 0;
}

struct result {
    int rc, calls, overlaps, bad_slots;
    size_t runs; /* handed to the sink */
    struct buf out, messages;
};

/* A sink that appends each run to a buffer (the output is then the runs, then 'out'). */
struct runs {
    struct buf text;
    size_t n;
};

static void take_run(void *ctx, struct buf *text)
{
    struct runs *rs = ctx;
    buf_addn(&rs->text, text->s, text->len);
    rs->n++;
    buf_release(text);
}

/* The render limits of the next renders (mus_options.max_output, max_work; 0: defaults). */
static size_t max_output;
static uint64_t max_work;

/* Renders 'tmpl' over a list of NITEMS placeholders {"i": k} with 'jobs' threads. */
static struct result render_to(const char *tmpl, const char *const *partials, unsigned jobs,
                               bool lazy, bool sink)
{
    struct diag dg;
    diag_init(&dg, NULL);
    struct arena a = ARENA_INIT;
    struct hook h = {.jobs = jobs};
    struct partials p = {partials};
    struct mus_options opt = {.strict = true,
                              .load = load_partial,
                              .load_ctx = &p,
                              .item = lazy ? expand : NULL,
                              .item_done = lazy ? expand_done : NULL,
                              .item_ctx = &h,
                              .jobs = jobs,
                              .max_output = max_output,
                              .max_work = max_work};
    struct runs rs = {BUF_INIT, 0};
    if (sink) {
        opt.sink = take_run;
        opt.sink_ctx = &rs;
    }
    struct dt *list = dt_list(&a);
    for (int k = 0; k < NITEMS; k++) {
        struct dt *o = dt_obj(&a);
        dt_set(&a, o, "i", dt_int(&a, k));
        dt_set(&a, o, "name", dt_str(&a, "plain"));
        dt_push(&a, list, o);
    }
    struct dt *root = dt_obj(&a);
    dt_set(&a, root, "l", list);
    struct mus_template *t = mus_compile(&dg, "t.mustache", tmpl, strlen(tmpl), &opt);
    assert_non_null(t);
    struct result r = {.out = BUF_INIT, .messages = BUF_INIT};
    r.rc = mus_render(&dg, t, root, &opt, &r.out);
    r.runs = rs.n;
    buf_addn(&rs.text, r.out.s, r.out.len);
    buf_release(&r.out);
    r.out = rs.text;
    r.calls = atomic_load(&h.calls);
    r.overlaps = atomic_load(&h.overlaps);
    r.bad_slots = atomic_load(&h.bad_slots);
    buf_addn(&r.messages, dg.text.s, dg.text.len);
    mus_free(t);
    diag_release(&dg);
    for (size_t k = 0; k < REGC_MAX_JOBS; k++)
        arena_release(&h.slot_arena[k]);
    arena_release(&a);
    return r;
}

static struct result render(const char *tmpl, const char *const *partials, unsigned jobs,
                            bool lazy)
{
    return render_to(tmpl, partials, jobs, lazy, false);
}

static void result_release(struct result *r)
{
    buf_release(&r->out);
    buf_release(&r->messages);
}

/* Renders with 1 and with 4 threads; both must agree. Returns the 4-thread result. */
static struct result same_as_one_thread(const char *tmpl, const char *const *partials)
{
    struct result one = render(tmpl, partials, 1, true);
    struct result four = render(tmpl, partials, 4, true);
    assert_int_equal(four.rc, one.rc);
    assert_string_equal(four.out.s, one.out.s);
    assert_string_equal(four.messages.s, one.messages.s);
    assert_int_equal(four.overlaps, 0);
    assert_int_equal(four.bad_slots, 0);
    assert_int_equal(one.calls, NITEMS);
    /* the same with the items handed to a sink instead of copied */
    struct result sunk = render_to(tmpl, partials, 4, true, true);
    assert_int_equal(sunk.rc, one.rc);
    assert_string_equal(sunk.out.s, one.out.s);
    assert_string_equal(sunk.messages.s, one.messages.s);
    result_release(&sunk);
    result_release(&one);
    return four;
}

static void test_items_in_order_with_indented_partials(void **state)
{
    (void)state;
    static const char *const partials[] = {"p", "{{i}}:{{name}}\n  {{> q}}\n", "q", "[{{i}}]\n",
                                           NULL};
    struct result r = same_as_one_thread("begin\n  {{#l}}\n  {{> p}}\n  {{/l}}\nend\n", partials);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out.s, "begin\n  0:item\n    [0]\n  1:item\n    [1]\n"));
    assert_non_null(strstr(r.out.s, "  39:item\n    [39]\nend\n"));
    assert_int_equal(r.calls, NITEMS); /* every item built once: no fallback */
    result_release(&r);
}

/* A partial first needed by item 30 is not in the shared cache: the rest runs again on one thread. */
static void test_partial_first_used_late_falls_back(void **state)
{
    (void)state;
    static const char *const partials[] = {"late", "<{{i}} is late>", NULL};
    struct result r = same_as_one_thread("{{#l}}{{i}}{{#late}}{{> late}}{{/late}};{{/l}}", partials);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out.s, ";30<30 is late>;31;"));
    assert_true(r.calls > NITEMS);
    result_release(&r);
}

/* An error in item 7 is reported once, as one thread reports it. */
static void test_error_in_an_item_reported_as_one_thread(void **state)
{
    (void)state;
    static const char *const partials[] = {NULL};
    struct result r = same_as_one_thread("{{#l}}{{tag}}{{/l}}", partials);
    assert_int_equal(r.rc, -1);
    assert_string_equal(r.messages.s, "t.mustache:1:7: error: no value for 'tag'\n");
    result_release(&r);
}

/*
 * A partial around the section: how it ends its line is read back from the
 * output, part of which went to the sink (tests the handed-over byte count).
 */
static void test_partial_around_the_items(void **state)
{
    (void)state;
    static const char *const partials[] = {"outer", "{{#l}}\n{{i}}\n{{/l}}", "p", "x", NULL};
    struct result r = same_as_one_thread("  {{> outer}}\nafter {{> p}}\n", partials);
    assert_int_equal(r.rc, 0);
    assert_non_null(strstr(r.out.s, "  38\n  39\nafter x\n"));
    result_release(&r);
}

/* Items rendered on the threads reach a sink as runs of their own, not copied into 'out'. */
static void test_sink_gets_the_items(void **state)
{
    (void)state;
    static const char *const partials[] = {"p", "{{i}}:{{name}}\n", NULL};
    struct result one = render("head\n{{#l}}\n{{> p}}\n{{/l}}\ntail\n", partials, 1, true);
    struct result sunk = render_to("head\n{{#l}}\n{{> p}}\n{{/l}}\ntail\n", partials, 4, true, true);
    assert_string_equal(sunk.out.s, one.out.s);
    assert_true(sunk.runs > NITEMS / 2); /* items 1..39, and the text before them */
    assert_int_equal(one.runs, 0);
    result_release(&one);
    result_release(&sunk);
}

/* Items the hook leaves alone are rendered on the calling thread, once each. */
static void test_list_not_lazy_stays_on_one_thread(void **state)
{
    (void)state;
    static const char *const partials[] = {NULL};
    struct result one = render("{{#l}}{{i}}{{name}},{{/l}}", partials, 1, false);
    struct result four = render("{{#l}}{{i}}{{name}},{{/l}}", partials, 4, false);
    assert_string_equal(four.out.s, one.out.s);
    assert_non_null(strstr(four.out.s, "0plain,1plain,"));
    assert_int_equal(four.calls, 0);
    result_release(&one);
    result_release(&four);
}

/* An inline partial leaves the line open after each item: still the same text. */
static void test_inline_items_same_text(void **state)
{
    (void)state;
    static const char *const partials[] = {"p", "{{i}}\n  x", NULL};
    struct result r = same_as_one_thread("  a {{#l}}{{> p}} {{/l}}\n", partials);
    assert_int_equal(r.rc, 0);
    result_release(&r);
}

/*
 * An item that leaves the line open changes how the next one starts (the
 * first gets the indentation, the others do not): the renderer sees the
 * state change after the first item and keeps the list on one thread. With
 * a sink that shows: items rendered apart reach it as runs, these none.
 */
static void test_item_changing_the_line_state(void **state)
{
    (void)state;
    static const char *const partials[] = {"outer", "{{#l}}\n{{i}}{{/l}}\n", NULL};
    struct result r = same_as_one_thread("  {{> outer}}\n", partials);
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.out.s, "  012345678910111213141516171819202122232425262728293031323334353637383"
                                 "9\n");
    result_release(&r);
    struct result sunk = render_to("  {{> outer}}\n", partials, 4, true, true);
    assert_int_equal(sunk.runs, 0);
    result_release(&sunk);
}

/*
 * A limit passed by an item rendered on another thread: the calling thread
 * renders that item again and stops where one thread stops, at the same tag
 * and after the same text, whatever the limit.
 */
/* Counts runs handed to a sink with 4 threads, and renders where items were built again. */
struct par_counts {
    size_t runs, again;
};

static struct result limited_as_one_thread(const char *tmpl, const char *const *partials,
                                           struct par_counts *c)
{
    struct result one = render(tmpl, partials, 1, true);
    struct result four = render(tmpl, partials, 4, true);
    struct result sunk = render_to(tmpl, partials, 4, true, true);
    assert_int_equal(four.rc, one.rc);
    assert_string_equal(four.out.s, one.out.s);
    assert_string_equal(four.messages.s, one.messages.s);
    assert_int_equal(sunk.rc, one.rc);
    assert_string_equal(sunk.out.s, one.out.s);
    assert_string_equal(sunk.messages.s, one.messages.s);
    assert_int_equal(four.overlaps + sunk.overlaps, 0);
    c->runs += sunk.runs;
    c->again += four.calls > one.calls; /* the calling thread rendered items again */
    result_release(&four);
    result_release(&sunk);
    return one;
}

static void test_limits_as_one_thread(void **state)
{
    (void)state;
    static const char *const partials[] = {"p", "{{i}}:{{name}}\n", NULL};
    const char *tmpl = "head\n{{#l}}\n{{> p}}\n{{/l}}\ntail\n";
    struct result full = render(tmpl, partials, 1, true);
    struct par_counts c = {0, 0};
    for (max_output = 1; max_output <= full.out.len + 1; max_output += 7) {
        struct result r = limited_as_one_thread(tmpl, partials, &c);
        if (max_output < full.out.len) {
            assert_int_equal(r.rc, -1);
            assert_non_null(strstr(r.messages.s, "error: output over the limit of"));
            assert_true(r.out.len <= max_output);
        } else {
            assert_int_equal(r.rc, 0);
        }
        result_release(&r);
    }
    max_output = 0;
    int stopped = 0, passed = 0;
    for (max_work = 1; max_work < 300; max_work += 5) {
        struct result r = limited_as_one_thread(tmpl, partials, &c);
        if (r.rc < 0)
            assert_non_null(strstr(r.messages.s, "error: rendering over the limit of"));
        else
            assert_string_equal(r.out.s, full.out.s);
        stopped += r.rc < 0;
        passed += r.rc == 0;
        result_release(&r);
    }
    max_work = 0;
    assert_true(stopped > 0 && passed > 0); /* 40 items of 3 tags each: about 170 steps */
    assert_true(c.runs > 0);  /* items were rendered on other threads */
    assert_true(c.again > 0); /* and past a limit there, again on the calling thread */
    result_release(&full);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_items_in_order_with_indented_partials),
        cmocka_unit_test(test_partial_first_used_late_falls_back),
        cmocka_unit_test(test_error_in_an_item_reported_as_one_thread),
        cmocka_unit_test(test_list_not_lazy_stays_on_one_thread),
        cmocka_unit_test(test_inline_items_same_text),
        cmocka_unit_test(test_item_changing_the_line_state),
        cmocka_unit_test(test_sink_gets_the_items),
        cmocka_unit_test(test_partial_around_the_items),
        cmocka_unit_test(test_limits_as_one_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
