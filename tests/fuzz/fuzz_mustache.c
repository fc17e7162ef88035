/*
 * libFuzzer target for the mustache parser and renderer (compiler/mustache_*.c).
 *
 * The input's first byte picks the options (escape kind, strict mode); the
 * rest is a template, compiled and, when it parses, checked against regc's
 * typed view (mus_check) and rendered against a small
 * fixed data tree with two fixed partials. Lists in the data hold one item
 * and the partials recurse linearly, but a parent tag whose block override
 * calls the parent again multiplies the output per copy of the override
 * (tests/fuzz/regress-mustache/): the render limits, linear in the input's
 * size, keep the output and the work linear. The output is asserted to stay
 * within its limit; a render that does more work than its limit allows shows
 * as a libFuzzer timeout.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "mustache.h"
#include "view.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char data_json[] =
    "{\"a\":\"<x & y>\",\"n\":1.5,\"i\":-3,\"t\":true,\"f\":false,\"z\":null,"
    "\"l\":[{\"v\":\"one */ ??\",\"l\":[]}],\"o\":{\"p\":{\"q\":\"deep\"}},\"name\":\"a\","
    "\"e\":[],\"s\":\"a|b\\nc\"}";

static int load(void *ctx, struct diag *dg, const char *name, struct mus_source *out)
{
    static const char a[] = "[{{a}}{{>b}}]\n  {{$blk}}default{{/blk}}";
    static const char b[] = "{{#l}}{{v}}{{>a}}{{/l}}";
    if (strcmp(name, "a") == 0)
        *out = (struct mus_source){"a.mustache", a, sizeof(a) - 1};
    else if (strcmp(name, "b") == 0)
        *out = (struct mus_source){"b.mustache", b, sizeof(b) - 1};
    else if (strcmp(name, "bad") == 0)
        *out = (struct mus_source){"bad.mustache", "{{#x}}", 6};
    else
        return 0;
    return 1;
}

/* The limits for an input of 'size' bytes: linear in it. */
#define FUZZ_MAX_OUTPUT(size) (64 * (size) + 4096)
#define FUZZ_MAX_WORK(size) (256 * (uint64_t)(size) + 4096)

/*
 * Renders one input as the target does (tests/unit/test_mustache_fuzz.c
 * replays tests/fuzz/regress-mustache/ through it): diagnostics to 'dg',
 * output to 'out'. Returns mus_render()'s result, or -2 when the input is
 * not rendered (empty, longer than 8 KiB, or it does not compile).
 */
int fuzz_mustache_render(const uint8_t *data, size_t size, struct diag *dg, struct buf *out);

int fuzz_mustache_render(const uint8_t *data, size_t size, struct diag *dg, struct buf *out)
{
    /* the data tree lives as long as the process: one arena, never released */
    static struct arena tree = ARENA_INIT;
    static const struct dt *root;
    if (!root) {
        json_t *j = json_loads(data_json, 0, NULL);
        root = dt_from_json(&tree, j);
        json_decref(j);
    }
    if (size < 1 || size > 8192)
        return -2;
    struct mus_options opt = {
        .escape = (enum mus_escape)(data[0] % 4),
        .strict = (data[0] & 4) != 0,
        .load = load,
        .max_depth = (data[0] & 8) ? 8 : 0,
        .max_output = FUZZ_MAX_OUTPUT(size),
        .max_work = FUZZ_MAX_WORK(size),
    };
    struct mus_template *t = mus_compile(dg, "fuzz", (const char *)data + 1, size - 1);
    if (!t)
        return -2;
    /* the check against regc's typed view must end, without a crash, whatever the template;
       its own diag (the template compiled again there), so 'dg' holds the render's only */
    static struct view_schema vs;
    if (!vs.root)
        view_schema_init(&vs);
    struct diag cdg;
    diag_init(&cdg, NULL);
    struct mus_template *ct = mus_compile(&cdg, "fuzz", (const char *)data + 1, size - 1);
    if (ct)
        mus_check(&cdg, ct, vs.root, &opt, NULL, NULL);
    mus_free(ct);
    diag_release(&cdg);
    int rc = mus_render(dg, t, root, &opt, out);
    mus_free(t);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct diag dg;
    diag_init(&dg, NULL);
    struct buf out = BUF_INIT;
    int rc = fuzz_mustache_render(data, size, &dg, &out);
    bool over = dg.count[DIAG_TEMPLATE_LIMIT] > 0;
    if (out.len > FUZZ_MAX_OUTPUT(size) || (over && rc == 0)) {
        fprintf(stderr, "output of %zu bytes for a %zu-byte input, limit %zu%s\n", out.len, size,
                FUZZ_MAX_OUTPUT(size), over ? ", limit reported" : "");
        abort();
    }
    buf_release(&out);
    diag_release(&dg);
    return 0;
}
