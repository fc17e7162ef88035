/*
 * libFuzzer target for the whole compile: loader (compiler/xmlload.c),
 * checker (check*.c), context (context*.c) and the built-in C header's
 * templates, the output kept in memory.
 *
 * The input is written to "fuzz-compile.xml" in the current directory (the
 * loader reads files: includes, positions) and compiled as `regc -j1 -t c`
 * would. Invariants: no spec comes back without an error reported; a spec
 * that checks clean renders without an error; rendering the same checked
 * spec twice gives the same bytes (the output is deterministic).
 * tests/fuzz/run-fuzz.sh runs it in a scratch directory.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "context.h"
#include "fuzz_schema.h"
#include "tmpl.h"
#include "xmlload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The C header of a checked spec into 'out'; 0 or -1. */
static int render_c(struct diag *dg, const struct model_spec *s, struct buf *out)
{
    struct arena a = ARENA_INIT;
    struct tmpl tp;
    tmpl_init(&tp, dg, NULL, 0);
    int rc = tmpl_load(&tp, "c");
    if (rc == 0) {
        struct dt *tree = context_build(&a, s, NULL);
        struct mus_options opt = {.escape = MUS_ESCAPE_C, .strict = true};
        rc = tmpl_render(&tp, tree, &opt, out);
    }
    tmpl_release(&tp);
    arena_release(&a);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen("fuzz-compile.xml", "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    struct arena a = ARENA_INIT;
    struct diag dg;
    diag_init(&dg, NULL);
    struct model_spec *s = xmlload_spec_with(&a, &dg, "fuzz-compile.xml", NULL, 0, schema());
    if (!s && dg.nerrors == 0)
        abort(); /* NULL only with an error reported */
    if (s && check_spec(&a, &dg, s) == 0 && dg.nerrors == 0) {
        struct buf one = BUF_INIT, two = BUF_INIT;
        if (render_c(&dg, s, &one) != 0 || render_c(&dg, s, &two) != 0)
            abort(); /* a clean spec renders */
        if (one.len != two.len || memcmp(one.s, two.s, one.len) != 0)
            abort(); /* deterministic */
        buf_release(&one);
        buf_release(&two);
    }
    diag_release(&dg);
    arena_release(&a);
    return 0;
}
