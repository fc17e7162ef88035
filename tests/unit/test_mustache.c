/*
 * Unit tests for the mustache engine (compiler/mustache_parse.c,
 * mustache_render.c, mustache_escape.c).
 *
 * First the official mustache spec (the JSON files in tests/mustache-spec/, core and the
 * ~inheritance and ~dynamic-names modules): one TAP line per spec test and a
 * summary comment per file. Then cmocka tests of what the spec does not
 * cover: diagnostics with exact positions, escape kinds, strict mode, limits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "dt_json.h"
#include "mustache.h"

/* ------------------------------------------------------------------ spec harness */

static const char *const spec_files[] = {
    "comments.json", "delimiters.json", "interpolation.json", "inverted.json",
    "partials.json", "sections.json",   "~inheritance.json",  "~dynamic-names.json",
};

/* Partials of a spec test: the test's "partials" object. */
static int spec_load(void *ctx, struct diag *dg, const char *name, struct mus_source *out)
{
    json_t *v = json_object_get((json_t *)ctx, name);
    if (!json_is_string(v))
        return 0;
    out->display_name = "partial";
    out->text = json_string_value(v);
    out->len = json_string_length(v);
    return 1;
}

static void tap_comment_block(const char *label, const char *text)
{
    printf("#   %s: \"", label);
    for (const char *s = text; *s; s++) {
        if (*s == '\n')
            fputs("\\n", stdout);
        else if (*s == '\r')
            fputs("\\r", stdout);
        else
            putchar(*s);
    }
    puts("\"");
}

static int spec_test_one(const char *file, size_t idx, json_t *test, int *tapno)
{
    const char *name = json_string_value(json_object_get(test, "name"));
    json_t *tmpl = json_object_get(test, "template");
    const char *expected = json_string_value(json_object_get(test, "expected"));
    struct diag dg;
    diag_init(&dg, NULL);
    struct mus_options opt = {.escape = MUS_ESCAPE_HTML,
                              .load = spec_load,
                              .load_ctx = json_object_get(test, "partials")};
    struct buf out = BUF_INIT;
    struct mus_template *t =
        mus_compile(&dg, "template", json_string_value(tmpl), json_string_length(tmpl));
    int rc = t ? mus_render_json(&dg, t, json_object_get(test, "data"), &opt, &out) : -1;
    bool ok = rc == 0 && expected && strcmp(out.s, expected) == 0;
    printf("%s %d - %s #%zu %s\n", ok ? "ok" : "not ok", ++*tapno, file, idx + 1, name);
    if (!ok) {
        tap_comment_block("expected", expected ? expected : "");
        tap_comment_block("got", out.s);
        if (dg.text.len)
            tap_comment_block("diagnostics", dg.text.s);
    }
    mus_free(t);
    buf_release(&out);
    diag_release(&dg);
    return ok ? 0 : -1;
}

/* Runs every spec file; returns the number of failures. */
static int spec_run(const char *dir)
{
    int tapno = 0, failures = 0, total = 0;
    for (size_t f = 0; f < sizeof(spec_files) / sizeof(spec_files[0]); f++) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", dir, spec_files[f]);
        json_error_t err;
        json_t *root = json_load_file(path, 0, &err);
        if (!root) {
            printf("not ok %d - %s cannot be loaded: %s\n", ++tapno, spec_files[f], err.text);
            failures++;
            continue;
        }
        json_t *tests = json_object_get(root, "tests");
        int passed = 0;
        for (size_t i = 0; i < json_array_size(tests); i++)
            if (spec_test_one(spec_files[f], i, json_array_get(tests, i), &tapno) == 0)
                passed++;
        int n = (int)json_array_size(tests);
        printf("# %s: %d of %d passed\n", spec_files[f], passed, n);
        failures += n - passed;
        total += n;
        json_decref(root);
    }
    printf("# mustache spec: %d of %d passed\n", total - failures, total);
    return failures;
}

/* ------------------------------------------------------------------ helpers */

struct fixture {
    struct diag dg;
    struct buf out;
};

static int setup(void **state)
{
    struct fixture *fx = calloc(1, sizeof(*fx));
    diag_init(&fx->dg, NULL);
    buf_init(&fx->out);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *fx = *state;
    diag_release(&fx->dg);
    buf_release(&fx->out);
    free(fx);
    return 0;
}

/* Partials for the unit tests: "name=text" pairs in a NULL-terminated array. */
static int pairs_load(void *ctx, struct diag *dg, const char *name, struct mus_source *out)
{
    for (const char *const *p = ctx; *p; p++) {
        size_t n = strlen(name);
        if (strncmp(*p, name, n) == 0 && (*p)[n] == '=') {
            out->display_name = *p; /* "name=..." is unique and long-lived */
            out->text = *p + n + 1;
            out->len = strlen(out->text);
            return 1;
        }
    }
    return 0;
}

static const char *const no_partials[] = {NULL};

/* Compiles and renders; returns mus_render's result, or -2 if compile failed. */
static int render(struct fixture *fx, const char *tmpl, const char *data,
                  const struct mus_options *opt)
{
    struct mus_template *t = mus_compile(&fx->dg, "t.mustache", tmpl, strlen(tmpl));
    if (!t)
        return -2;
    json_error_t err;
    json_t *root = json_loads(data, JSON_DECODE_ANY, &err);
    assert_non_null(root);
    int rc = mus_render_json(&fx->dg, t, root, opt, &fx->out);
    json_decref(root);
    mus_free(t);
    return rc;
}

static void expect_syntax(void **state, const char *tmpl, const char *diag_text)
{
    struct fixture *fx = *state;
    assert_int_equal(render(fx, tmpl, "{}", NULL), -2);
    assert_string_equal(fx->dg.text.s, diag_text);
    assert_int_equal(fx->dg.count[DIAG_TEMPLATE_SYNTAX] > 0, 1);
}

/* ------------------------------------------------------------------ syntax errors */

static void test_unclosed_section(void **state)
{
    expect_syntax(state, "a\n  {{#list}}\nx\n", "t.mustache:2:3: error: unclosed section 'list'\n");
}

static void test_mismatched_close(void **state)
{
    expect_syntax(state, "{{#a}}\n{{#b}}x\n {{/a}}\n{{/b}}",
                  "t.mustache:3:2: error: section 'b' closed by '/a'\n"
                  "t.mustache:2:1: note: section 'b' opened here\n"
                  "t.mustache:4:1: error: section 'a' closed by '/b'\n"
                  "t.mustache:1:1: note: section 'a' opened here\n");
}

static void test_close_without_open(void **state)
{
    expect_syntax(state, "x {{/a}}", "t.mustache:1:3: error: '/a' closes no open section\n");
}

static void test_unclosed_tag(void **state)
{
    expect_syntax(state, "ok\nab {{name\n",
                  "t.mustache:2:4: error: unclosed tag '{{': no '}}' follows\n");
}

static void test_unclosed_triple(void **state)
{
    expect_syntax(state, "{{{name}}",
                  "t.mustache:1:1: error: unclosed tag '{{': no '}}}' follows\n");
}

static void test_bad_delimiters(void **state)
{
    expect_syntax(state, "x\n{{=<% =}}",
                  "t.mustache:2:1: error: bad set-delimiters tag: expected two delimiters "
                  "without '=' or blanks, separated by a blank\n");
}

static void test_unknown_tag_type(void **state)
{
    expect_syntax(state, "a {{%pragma}} b {{@x}}",
                  "t.mustache:1:3: error: unknown tag type '{{%'\n"
                  "t.mustache:1:17: error: unknown tag type '{{@'\n");
}

static void test_unknown_tag_over_lines(void **state)
{
    expect_syntax(state, "{{%a\nb}}\n{{#x}}",
                  "t.mustache:1:1: error: unknown tag type '{{%'\n"
                  "t.mustache:3:1: error: unclosed section 'x'\n");
}

static void test_bad_names(void **state)
{
    expect_syntax(state, "{{}} {{a b}} {{a..b}} {{.a}}",
                  "t.mustache:1:1: error: tag has no name\n"
                  "t.mustache:1:6: error: invalid name 'a b'\n"
                  "t.mustache:1:14: error: invalid name 'a..b'\n"
                  "t.mustache:1:23: error: invalid name '.a'\n");
}

static void test_positions_after_multiline_comment(void **state)
{
    expect_syntax(state, "{{! one\ntwo\nthree }} {{#x}}",
                  "t.mustache:3:10: error: unclosed section 'x'\n");
}

static void test_positions_with_custom_delimiters(void **state)
{
    expect_syntax(state, "{{=<% %>=}}\n<%#a%>\n<%/b%>",
                  "t.mustache:3:1: error: section 'a' closed by '/b'\n"
                  "t.mustache:2:1: note: section 'a' opened here\n");
}

static void test_error_in_partial_points_into_partial(void **state)
{
    struct fixture *fx = *state;
    const char *const parts[] = {"p=line one\n  {{#open}}\n", NULL};
    struct mus_options opt = {.load = pairs_load, .load_ctx = (void *)parts};
    assert_int_equal(render(fx, "x\n{{>p}}", "{}", &opt), -1);
    assert_string_equal(fx->dg.text.s,
                        "p=line one\n  {{#open}}\n:2:3: error: unclosed section 'open'\n");
}

/* ------------------------------------------------------------------ rendering */

static void test_render_many_times(void **state)
{
    struct fixture *fx = *state;
    const char *src = "{{#items}}{{name}}={{value}};{{/items}}";
    struct mus_template *t = mus_compile(&fx->dg, "t", src, strlen(src));
    assert_non_null(t);
    json_t *d1 = json_pack("{s:[{s:s,s:i},{s:s,s:f}]}", "items", "name", "a", "value", 1, "name",
                           "b", "value", 0.1);
    json_t *d2 = json_pack("{s:[]}", "items");
    for (int i = 0; i < 3; i++) {
        buf_reset(&fx->out);
        assert_int_equal(mus_render_json(&fx->dg, t, d1, NULL, &fx->out), 0);
        assert_string_equal(fx->out.s, "a=1;b=0.1;");
        buf_reset(&fx->out);
        assert_int_equal(mus_render_json(&fx->dg, t, d2, NULL, &fx->out), 0);
        assert_string_equal(fx->out.s, "");
    }
    json_decref(d1);
    json_decref(d2);
    mus_free(t);
}

static void test_numbers_shortest(void **state)
{
    struct fixture *fx = *state;
    assert_int_equal(render(fx, "{{a}} {{b}} {{c}} {{d}} {{e}} {{f}} {{g}} {{h}} {{i}}",
                            "{\"a\":1.1,\"b\":-7,\"c\":1e300,\"d\":0.30000000000000004,"
                            "\"e\":9007199254740993,\"f\":2.5e-8,\"g\":0,"
                            "\"h\":9223372036854775807,\"i\":-9223372036854775808}",
                            NULL),
                     0);
    /* integers as printf's %lld writes them, the extremes included */
    assert_string_equal(fx->out.s, "1.1 -7 1e+300 0.30000000000000004 9007199254740993 2.5e-08 0 "
                                   "9223372036854775807 -9223372036854775808");
}

static void test_truthiness(void **state)
{
    struct fixture *fx = *state;
    assert_int_equal(render(fx,
                            "{{#z}}0{{/z}}{{#s}}s{{/s}}{{#o}}o{{/o}}{{^n}}n{{/n}}{{^l}}l{{/l}}"
                            "{{^m}}m{{/m}}",
                            "{\"z\":0,\"s\":\"\",\"o\":{},\"n\":null,\"l\":[]}", NULL),
                     0);
    assert_string_equal(fx->out.s, "0sonlm");
}

static void test_escape_html(void **state)
{
    struct fixture *fx = *state;
    struct mus_options opt = {.escape = MUS_ESCAPE_HTML};
    assert_int_equal(
        render(fx, "{{v}}|{{{v}}}|{{&v}}", "{\"v\":\"<a href=\\\"x\\\">&'</a>\"}", &opt), 0);
    assert_string_equal(fx->out.s, "&lt;a href=&quot;x&quot;&gt;&amp;'&lt;/a&gt;|"
                                   "<a href=\"x\">&'</a>|<a href=\"x\">&'</a>");
}

static void test_escape_c(void **state)
{
    struct buf b = BUF_INIT;
    const char in[] = "end */ start /* tri ?\?= bs\\\nline\r\nbell\a tab\t del\x7f lone\r. last\\";
    mus_escape(&b, MUS_ESCAPE_C, in, sizeof(in) - 1);
    assert_string_equal(b.s, "end * / start / * tri ? ?= bs\nline\r\nbell tab\t del lone. last");
    buf_release(&b);
}

static void test_escape_markdown(void **state)
{
    struct buf b = BUF_INIT;
    const char in[] = "a|b <i> & x\r\ny\nz";
    mus_escape(&b, MUS_ESCAPE_MARKDOWN, in, sizeof(in) - 1);
    assert_string_equal(b.s, "a\\|b &lt;i&gt; &amp; x<br>y<br>z");
    buf_reset(&b);
    const char md[] = "*_PMON_BOX_CTL.frz and ev_sel, `x`, [1] 2^48 - 1 ~a~ _b_ c\\d __e";
    mus_escape(&b, MUS_ESCAPE_MARKDOWN, md, sizeof(md) - 1);
    assert_string_equal(b.s, "\\*\\_PMON_BOX_CTL.frz and ev_sel, \\`x\\`, \\[1\\] 2^48 - 1 "
                             "\\~a\\~ \\_b\\_ c\\\\d \\_\\_e");
    buf_release(&b);
}

/*
 * What each kind makes of one byte between two letters, stated apart from the
 * engine's tables: every byte the rules do not name must be copied as it is
 * (the engine copies runs of such bytes at once).
 */
static const char *html_byte(unsigned char c)
{
    return c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '"' ? "&quot;" : NULL;
}

static const char *c_byte(unsigned char c)
{
    if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
        return ""; /* dropped ('\r' too: no '\n' follows it here) */
    return NULL;   /* '/', '*', '?', '\\' alone are kept */
}

static const char *md_byte(unsigned char c)
{
    static char esc[3];
    if (strchr("|\\`*~[]", c) && c) {
        esc[0] = '\\';
        esc[1] = (char)c;
        return esc;
    }
    return c == '<'    ? "&lt;"
           : c == '>'  ? "&gt;"
           : c == '&'  ? "&amp;"
           : c == '\n' ? "<br>"
           : c == '\r' ? ""
                       : NULL; /* '_' inside a word is kept */
}

/* RFC 8259 section 7: '"', '\\' and U+0000..U+001F must be escaped in a string. */
static const char *json_byte(unsigned char c)
{
    static char esc[8];
    if (c == '"' || c == '\\') {
        snprintf(esc, sizeof(esc), "\\%c", c);
        return esc;
    }
    if (c < 0x20) {
        snprintf(esc, sizeof(esc), "\\u%04x", c);
        return esc;
    }
    return NULL; /* '/' and DEL need none */
}

/*
 * Each byte at each place of a 23-byte text, between two letters: the engine
 * tests eight bytes at once (0-7, 8-15), then four (16-19), then one (20-22),
 * so a byte the rules name must be found in each of those places.
 */
static void check_bytes(enum mus_escape kind, const char *(*rule)(unsigned char))
{
    struct buf b = BUF_INIT, want = BUF_INIT;
    enum { LEN = 23 };
    for (unsigned c = 0; c < 256; c++) {
        for (size_t at = 1; at + 1 < LEN; at++) {
            char in[LEN];
            memset(in, 'a', sizeof(in));
            in[at] = (char)c;
            buf_reset(&b);
            buf_reset(&want);
            mus_escape(&b, kind, in, sizeof(in));
            const char *rep = rule((unsigned char)c);
            buf_addn(&want, in, at);
            if (rep)
                buf_adds(&want, rep);
            else
                buf_addc(&want, (char)c);
            buf_addn(&want, in + at + 1, LEN - at - 1);
            if (b.len != want.len || memcmp(b.s, want.s, b.len) != 0)
                fail_msg("escape kind %d, byte 0x%02x at %zu: got '%s', want '%s'", (int)kind, c,
                         at, b.s, want.s);
        }
    }
    buf_release(&b);
    buf_release(&want);
}

static void test_escape_every_byte(void **state)
{
    (void)state;
    check_bytes(MUS_ESCAPE_HTML, html_byte);
    check_bytes(MUS_ESCAPE_C, c_byte);
    check_bytes(MUS_ESCAPE_MARKDOWN, md_byte);
    check_bytes(MUS_ESCAPE_JSON, json_byte);
    struct buf b = BUF_INIT;
    const char plain[] = "BENCH_BLK0_REG0_F1_MASK UINT64_C(0xff) a_b 12";
    mus_escape(&b, MUS_ESCAPE_C, plain, sizeof(plain) - 1);
    mus_escape(&b, MUS_ESCAPE_HTML, plain, sizeof(plain) - 1);
    mus_escape(&b, MUS_ESCAPE_MARKDOWN, plain, sizeof(plain) - 1);
    assert_string_equal(b.s, "BENCH_BLK0_REG0_F1_MASK UINT64_C(0xff) a_b 12"
                             "BENCH_BLK0_REG0_F1_MASK UINT64_C(0xff) a_b 12"
                             "BENCH_BLK0_REG0_F1_MASK UINT64_C(0xff) a_b 12");
    buf_release(&b);
}

static struct mus_template *compile_text(struct fixture *fx, const char *tmpl)
{
    struct mus_template *t = mus_compile(&fx->dg, "t.mustache", tmpl, strlen(tmpl));
    assert_non_null(t);
    return t;
}

/*
 * One tree rendered with each kind in turn: the renderer remembers on each
 * string which kinds leave it unchanged, and that must not leak from one
 * kind to another ("x<y" is plain C, not plain HTML).
 */
static void test_escape_remembered(void **state)
{
    struct fixture *fx = *state;
    struct mus_template *t = compile_text(fx, "{{q}} {{w}} {{q}};");
    struct arena a = ARENA_INIT;
    struct dt *data = dt_obj(&a);
    dt_set(&a, data, "q", dt_str(&a, "x<y"));
    dt_set(&a, data, "w", dt_str(&a, "x_"));
    const enum mus_escape kinds[] = {MUS_ESCAPE_C, MUS_ESCAPE_HTML, MUS_ESCAPE_MARKDOWN,
                                     MUS_ESCAPE_NONE, MUS_ESCAPE_C};
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        struct mus_options opt = {.escape = kinds[i]};
        assert_int_equal(mus_render(&fx->dg, t, data, &opt, &fx->out), 0);
    }
    assert_string_equal(fx->out.s, "x<y x_ x<y;x&lt;y x_ x&lt;y;x&lt;y x\\_ x&lt;y;"
                                   "x<y x_ x<y;x<y x_ x<y;");
    arena_release(&a);
    mus_free(t);
}

/* {KEY: 'v'} with key 'k' added first when given: shifts KEY's index. */
static struct dt *obj_with(struct arena *a, bool k, struct dt_key key, struct dt *v)
{
    struct dt *o = dt_obj(a);
    if (k)
        dt_add(a, o, DT_KEY("k"), dt_str(a, "-"));
    dt_add(a, o, key, v);
    return o;
}

/*
 * The renderer remembers where a tag's name was found (index, depth) for the
 * next item of a section; each hint must be checked: the name at another
 * index, in a context above the remembered one, or a dotted part elsewhere.
 */
static void test_lookup_hints(void **state)
{
    struct fixture *fx = *state;
    struct mus_template *t = compile_text(fx, "{{#l}}[{{#in}}{{v}}{{/in}}{{a.b}}]{{/l}}");
    struct arena a = ARENA_INIT;
    struct dt *l = dt_list(&a);
    for (int i = 0; i < 4; i++) {
        /* 'in' holds its own v in items 1 and 3 (at index 1 in item 3), a.b moves at item 2 */
        struct dt *item = obj_with(&a, false, DT_KEY("v"), dt_int(&a, i));
        struct dt *in = i % 2 ? obj_with(&a, i == 3, DT_KEY("v"), dt_int(&a, 10 + i)) : dt_obj(&a);
        dt_add(&a, item, DT_KEY("in"), in);
        dt_add(&a, item, DT_KEY("a"), obj_with(&a, i > 1, DT_KEY("b"), dt_int(&a, 20 + i)));
        dt_push(&a, l, item);
    }
    struct dt *data = dt_obj(&a);
    dt_add(&a, data, DT_KEY("l"), l);
    assert_int_equal(mus_render(&fx->dg, t, data, NULL, &fx->out), 0);
    assert_string_equal(fx->out.s, "[020][1121][222][1323]");
    buf_reset(&fx->out);
    assert_int_equal(mus_render(&fx->dg, t, data, NULL, &fx->out), 0); /* a new render: no hints */
    assert_string_equal(fx->out.s, "[020][1121][222][1323]");
    arena_release(&a);
    mus_free(t);
}

/*
 * A run of text and variables inside a loop is written by a fast path once
 * the names were found (from the second item on): it must write what the
 * full render writes, for every kind of value the remembered member may
 * hold by then, escaped or not, and inside an indented partial too.
 */
static struct dt *run_item(struct arena *a, struct dt *s, struct dt *i, struct dt *o)
{
    struct dt *item = dt_obj(a);
    dt_add(a, item, DT_KEY("s"), s);
    dt_add(a, item, DT_KEY("i"), i);
    dt_add(a, item, DT_KEY("o"), o);
    return item;
}

static void test_run_fast_path(void **state)
{
    struct fixture *fx = *state;
    const char *tmpl = "{{#l}}\n{{s}}|{{{s}}}|{{&s}}|{{i}}|{{o.s}}|{{{o.s}}};\n{{/l}}\n";
    struct arena a = ARENA_INIT;
    struct dt *l = dt_list(&a);
    struct dt *o = dt_obj(&a);
    dt_add(&a, o, DT_KEY("s"), dt_str(&a, "x>y"));
    struct dt *o2 = dt_obj(&a);
    dt_add(&a, o2, DT_KEY("s"), dt_int(&a, 5));
    dt_push(&a, l, run_item(&a, dt_str(&a, "a<b&c"), dt_int(&a, 7), o));
    dt_push(&a, l, run_item(&a, dt_str(&a, "d\"e"), dt_int(&a, -30), o));
    dt_push(&a, l, run_item(&a, dt_int(&a, 12), dt_str(&a, "<i>"), o2)); /* the kinds swapped */
    dt_push(&a, l, run_item(&a, dt_bool(true), dt_null(), dt_str(&a, "no")));
    dt_push(&a, l, run_item(&a, dt_str(&a, "&"), dt_int(&a, 0), o));
    struct dt *data = dt_obj(&a);
    dt_add(&a, data, DT_KEY("l"), l);
    const char *const lines[] = {"a&lt;b&amp;c|a<b&c|a<b&c|7|x&gt;y|x>y;",
                                 "d&quot;e|d\"e|d\"e|-30|x&gt;y|x>y;", "12|12|12|&lt;i&gt;|5|5;",
                                 "true|true|true|||;", "&amp;|&|&|0|x&gt;y|x>y;"};
    struct mus_options opt = {.escape = MUS_ESCAPE_HTML};
    struct mus_template *t = compile_text(fx, tmpl);
    assert_int_equal(mus_render(&fx->dg, t, data, &opt, &fx->out), 0);
    struct buf want = BUF_INIT;
    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
        buf_addf(&want, "%s\n", lines[i]);
    assert_string_equal(fx->out.s, want.s);
    mus_free(t);
    /* The same through a standalone partial indented by two blanks: each line indented. */
    char part[256];
    snprintf(part, sizeof(part), "p=%s", tmpl);
    const char *const partials[] = {part, NULL};
    opt.load = pairs_load;
    opt.load_ctx = (void *)partials;
    buf_reset(&fx->out);
    buf_reset(&want);
    for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
        buf_addf(&want, "  %s\n", lines[i]);
    t = compile_text(fx, "  {{>p}}\n");
    assert_int_equal(mus_render(&fx->dg, t, data, &opt, &fx->out), 0);
    assert_string_equal(fx->out.s, want.s);
    buf_release(&want);
    mus_free(t);
    arena_release(&a);
}

/*
 * Renders 'tmpl' over four items {"s": value} with the output limited to
 * 'max_output': it must stop with 'want' written, the value that went over
 * taken back, reported at 1:7 (the value's tag), and nothing after it.
 */
static void expect_limit_in_loop(struct fixture *fx, const char *tmpl, const char *value,
                                 enum mus_escape escape, size_t max_output, const char *want)
{
    struct arena a = ARENA_INIT;
    struct dt *l = dt_list(&a);
    for (int i = 0; i < 4; i++) {
        struct dt *item = dt_obj(&a);
        dt_add(&a, item, DT_KEY("s"), dt_str(&a, value));
        dt_push(&a, l, item);
    }
    struct dt *data = dt_obj(&a);
    dt_add(&a, data, DT_KEY("l"), l);
    struct mus_template *t = compile_text(fx, tmpl);
    struct mus_options opt = {.escape = escape, .max_output = max_output};
    assert_int_equal(mus_render(&fx->dg, t, data, &opt, &fx->out), -1);
    assert_string_equal(fx->out.s, want);
    struct buf msg = BUF_INIT;
    buf_addf(&msg,
             "t.mustache:1:7: error: output over the limit of %zu bytes; "
             "-ftemplate-output-limit=N raises it\n",
             max_output);
    assert_string_equal(fx->dg.text.s, msg.s);
    buf_release(&msg);
    mus_free(t);
    arena_release(&a);
}

/*
 * The output limit met by a variable the fast path writes: the value is
 * taken back and the render stops there, reported at that tag, with nothing
 * written after it.
 */
static void test_run_output_limit(void **state)
{
    /* "abc-abc-" fits, the third "abc" does not */
    expect_limit_in_loop(*state, "{{#l}}{{{s}}}-{{/l}}", "abc", MUS_ESCAPE_NONE, 9, "abc-abc-");
}

/*
 * The output limit met by an escaped value: the fast path writes one only
 * when its longest escaping (MUS_ESCAPE_GROWTH bytes a byte) fits, so here
 * the third "a&b" ("a&amp;b", 7 bytes) goes the full way, is taken back
 * and the render stops at its tag.
 */
static void test_run_escaped_output_limit(void **state)
{
    expect_limit_in_loop(*state, "{{#l}}{{s}}-{{/l}}", "a&b", MUS_ESCAPE_HTML, 17,
                         "a&amp;b-a&amp;b-");
}

/*
 * Partials entered again and again in a loop: each tag with a fixed name
 * renders its own partial each time (the render keeps the one each tag
 * found), a parent too, and a tag naming its partial by a value ({{>*p}})
 * renders the one the value names each time.
 */
static void test_partials_in_a_loop(void **state)
{
    struct fixture *fx = *state;
    static const char *const parts[] = {"a=A", "b=B", "c=[{{>a}}]", NULL};
    struct mus_options opt = {.load = pairs_load, .load_ctx = (void *)parts};
    assert_int_equal(render(fx, "{{#l}}{{>a}}{{>*p}}{{>b}}{{>c}}{{<c}}{{/c}};{{/l}}",
                            "{\"l\":[{\"p\":\"a\"},{\"p\":\"b\"},{\"p\":\"c\"},{\"p\":\"a\"}]}",
                            &opt),
                     0);
    assert_string_equal(fx->out.s, "AAB[A][A];ABB[A][A];A[A]B[A][A];AAB[A][A];");
}

/* The output ends with a NUL once rendered, though the renderer copies its pieces without one. */
static void test_render_ends_with_nul(void **state)
{
    struct fixture *fx = *state;
    buf_addn(&fx->out, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", 32);
    buf_reset(&fx->out); /* the X's stay in the buffer, past its NUL */
    assert_int_equal(
        render(fx, "ab{{#l}}{{{x}}}{{/l}}", "{\"l\":[{\"x\":\"c\"},{\"x\":\"d\"}]}", NULL), 0);
    assert_int_equal(fx->out.len, 4);
    assert_string_equal(fx->out.s, "abcd");
}

static void test_escape_parse(void **state)
{
    enum mus_escape k;
    assert_true(mus_escape_parse("md", &k));
    assert_int_equal(k, MUS_ESCAPE_MARKDOWN);
    assert_true(mus_escape_parse("c", &k));
    assert_int_equal(k, MUS_ESCAPE_C);
    assert_false(mus_escape_parse("xml", &k));
}

static void test_strict_missing_name(void **state)
{
    struct fixture *fx = *state;
    struct mus_options opt = {.strict = true};
    assert_int_equal(render(fx,
                            "{{#l}}\n {{a.b}} {{x}}{{/l}}{{^nope}}fine{{/nope}}{{#gone}}{{/gone}}",
                            "{\"l\":[{\"a\":{}},{\"a\":{}}],\"x\":1}", &opt),
                     -1);
    /* reported once per tag, although the loop reaches it twice */
    assert_string_equal(fx->dg.text.s, "t.mustache:2:2: error: no value for 'a.b'\n"
                                       "t.mustache:2:43: error: no value for 'gone'\n");
    assert_int_equal(fx->dg.count[DIAG_TEMPLATE_NAME], 2);
}

static void test_strict_object_is_not_a_value(void **state)
{
    struct fixture *fx = *state;
    struct mus_options opt = {.strict = true};
    assert_int_equal(render(fx, "{{o}}{{l}}", "{\"o\":{},\"l\":[]}", &opt), -1);
    assert_string_equal(fx->dg.text.s, "t.mustache:1:1: error: 'o' is an object, not a value\n"
                                       "t.mustache:1:6: error: 'l' is a list, not a value\n");
}

static void test_missing_partial_lax_and_strict(void **state)
{
    struct fixture *fx = *state;
    struct mus_options opt = {.load = pairs_load, .load_ctx = (void *)no_partials};
    assert_int_equal(render(fx, "[{{>nope}}]", "{}", &opt), 0);
    assert_string_equal(fx->out.s, "[]");
    opt.strict = true;
    assert_int_equal(render(fx, "ab\n  {{>nope}}", "{}", &opt), -1);
    assert_string_equal(fx->dg.text.s, "t.mustache:2:3: error: partial 'nope' not found\n");
    assert_int_equal(fx->dg.count[DIAG_TEMPLATE_PARTIAL], 1);
}

static void test_partial_recursion_limit(void **state)
{
    struct fixture *fx = *state;
    const char *const parts[] = {"a=x{{>b}}", "b={{>a}}", NULL};
    struct mus_options opt = {.load = pairs_load, .load_ctx = (void *)parts, .max_depth = 4};
    assert_int_equal(render(fx, "{{>a}}", "{}", &opt), -1);
    assert_string_equal(fx->dg.text.s,
                        "b={{>a}}:1:1: error: partial 'a' nested more than 4 levels deep\n"
                        "b={{>a}}:1:1: note: partial chain: 't.mustache' > 'a=x{{>b}}' > "
                        "'b={{>a}}' > 'a=x{{>b}}' > 'b={{>a}}' > 'a=x{{>b}}'\n");
    assert_string_equal(fx->out.s, "xx");
}

static void test_partial_recursion_default_limit(void **state)
{
    struct fixture *fx = *state;
    const char *const parts[] = {"r={{>r}}", NULL};
    struct mus_options opt = {.load = pairs_load, .load_ctx = (void *)parts};
    assert_int_equal(render(fx, "{{>r}}", "{}", &opt), -1);
    assert_non_null(strstr(fx->dg.text.s, "nested more than 64 levels deep"));
}

static void test_bounded_recursion_renders(void **state)
{
    struct fixture *fx = *state;
    const char *const parts[] = {"n={{v}}{{#c}}{{>n}}{{/c}}", NULL};
    struct mus_options opt = {.load = pairs_load, .load_ctx = (void *)parts, .strict = true};
    assert_int_equal(
        render(fx, "{{>n}}", "{\"v\":1,\"c\":{\"v\":2,\"c\":{\"v\":3,\"c\":false}}}", &opt), 0);
    assert_string_equal(fx->out.s, "123");
}

static void test_indentation_grows_with_nesting(void **state)
{
    struct fixture *fx = *state;
    const char *const parts[] = {"r={{v}}\n{{#c}}\n    {{>r}}\n{{/c}}\n", NULL};
    struct mus_options opt = {.load = pairs_load, .load_ctx = (void *)parts, .strict = true};
    struct buf data = BUF_INIT, want = BUF_INIT;
    for (int i = 0; i < 40; i++) /* deep enough for the indentation buffer to move */
        buf_addf(&data, "{\"v\":%d,\"c\":", i);
    buf_adds(&data, "false");
    for (int i = 0; i < 40; i++) {
        buf_addc(&data, '}');
        buf_addf(&want, "%*s%d\n", 4 * i, "", i);
    }
    assert_int_equal(render(fx, "{{>r}}", data.s, &opt), 0);
    assert_string_equal(fx->out.s, want.s);
    buf_release(&data);
    buf_release(&want);
}

static void test_dynamic_name_strict(void **state)
{
    struct fixture *fx = *state;
    struct mus_options opt = {.load = pairs_load, .load_ctx = (void *)no_partials, .strict = true};
    assert_int_equal(render(fx, "{{>*which}}", "{}", &opt), -1);
    assert_string_equal(fx->dg.text.s, "t.mustache:1:1: error: no partial name in 'which'\n");
}

static void test_override_is_not_reused_inside_itself(void **state)
{
    struct fixture *fx = *state;
    const char *const parts[] = {"p=P:{{$b}}default{{/b}}", NULL};
    struct mus_options opt = {.load = pairs_load, .load_ctx = (void *)parts, .strict = true};
    assert_int_equal(render(fx, "{{<p}}{{$b}}[{{$b}}inner{{/b}}]{{/b}}{{/p}}", "{}", &opt), 0);
    assert_string_equal(fx->out.s, "P:[inner]");
}

static void test_parent_without_partial_strict(void **state)
{
    struct fixture *fx = *state;
    struct mus_options opt = {.load = pairs_load, .load_ctx = (void *)no_partials, .strict = true};
    assert_int_equal(render(fx, "x\n {{<nope}}{{$a}}1{{/a}}{{/nope}}", "{}", &opt), -1);
    assert_string_equal(fx->dg.text.s, "t.mustache:2:2: error: partial 'nope' not found\n");
}

static void test_unclosed_parent_and_block(void **state)
{
    expect_syntax(state, "{{<p}}\n  {{$b}}",
                  "t.mustache:1:1: error: unclosed parent 'p'\n"
                  "t.mustache:2:3: error: unclosed block 'b'\n");
}

static void test_deep_nesting_is_refused(void **state)
{
    struct fixture *fx = *state;
    struct buf t = BUF_INIT;
    for (int i = 0; i < 600; i++)
        buf_adds(&t, "{{#a}}");
    assert_int_equal(render(fx, t.s, "{}", NULL), -2);
    assert_string_equal(fx->dg.text.s,
                        "t.mustache:1:3073: error: sections nested more than 512 levels deep\n");
    buf_release(&t);
}

static void test_large_template_linear(void **state)
{
    struct fixture *fx = *state;
    struct buf t = BUF_INIT;
    for (int i = 0; i < 20000; i++)
        buf_adds(&t, "  {{#a}}\n{{b}}\n  {{/a}}\n");
    assert_int_equal(render(fx, t.s, "{\"a\":true,\"b\":\"x\"}", NULL), 0);
    assert_int_equal(fx->out.len, 40000);
    buf_release(&t);
}

int main(void)
{
    const char *dir = getenv("MUSTACHE_SPEC_DIR");
    int spec_failures = spec_run(dir ? dir : "tests/mustache-spec");
    fflush(stdout);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_unclosed_section, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mismatched_close, setup, teardown),
        cmocka_unit_test_setup_teardown(test_close_without_open, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unclosed_tag, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unclosed_triple, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_delimiters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_tag_type, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unknown_tag_over_lines, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_names, setup, teardown),
        cmocka_unit_test_setup_teardown(test_positions_after_multiline_comment, setup, teardown),
        cmocka_unit_test_setup_teardown(test_positions_with_custom_delimiters, setup, teardown),
        cmocka_unit_test_setup_teardown(test_error_in_partial_points_into_partial, setup, teardown),
        cmocka_unit_test_setup_teardown(test_render_many_times, setup, teardown),
        cmocka_unit_test_setup_teardown(test_numbers_shortest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_truthiness, setup, teardown),
        cmocka_unit_test_setup_teardown(test_escape_html, setup, teardown),
        cmocka_unit_test(test_escape_c),
        cmocka_unit_test(test_escape_markdown),
        cmocka_unit_test(test_escape_every_byte),
        cmocka_unit_test_setup_teardown(test_escape_remembered, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_fast_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_output_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_escaped_output_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_partials_in_a_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_render_ends_with_nul, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lookup_hints, setup, teardown),
        cmocka_unit_test(test_escape_parse),
        cmocka_unit_test_setup_teardown(test_strict_missing_name, setup, teardown),
        cmocka_unit_test_setup_teardown(test_strict_object_is_not_a_value, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_partial_lax_and_strict, setup, teardown),
        cmocka_unit_test_setup_teardown(test_partial_recursion_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_partial_recursion_default_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bounded_recursion_renders, setup, teardown),
        cmocka_unit_test_setup_teardown(test_indentation_grows_with_nesting, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dynamic_name_strict, setup, teardown),
        cmocka_unit_test_setup_teardown(test_override_is_not_reused_inside_itself, setup, teardown),
        cmocka_unit_test_setup_teardown(test_parent_without_partial_strict, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unclosed_parent_and_block, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deep_nesting_is_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_large_template_linear, setup, teardown),
    };
    int rc = cmocka_run_group_tests_name("mustache", tests, NULL, NULL);
    return rc || spec_failures ? 1 : 0;
}
