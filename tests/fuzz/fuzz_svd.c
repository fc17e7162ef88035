/*
 * libFuzzer target for the CMSIS-SVD reader (compiler/svd*.c): parse,
 * derivedFrom, the model it builds and SVD's checks, then the checker and
 * the outputs that walk SVD-specific structure, kept in memory.
 *
 * The input is written to "fuzz-svd.svd" in the current directory and read
 * as regc reads an SVD file (svd_file_is_svd(), then svd_load(); an input
 * that is not an SVD document is the regspec loader's, fuzzed elsewhere),
 * then checked (check_spec()). A clean one is rendered through -t c, cmsis,
 * cmsis-enum, svd and regspec, each after the check regc makes for it (a
 * refusal, an error reported, skips that output). Invariants: no model comes
 * back without an error reported; a clean spec renders each output, twice to
 * the same bytes; what -t svd writes reads back as SVD without an error, and
 * what -t regspec writes loads as a regspec without one (docs/svd.md: both
 * round trips). A model of more than RENDER_MAX_REGS register elements is
 * loaded and checked but not rendered: the outputs are linear in them (-t c
 * writes some 4.5 KB a register, -t cmsis asserts each element's offset), and
 * one <dim> of a KiB's input gives 65536; each element costs the ten renders
 * some 3 ms under the sanitizers (0.47 s for 128, start-up included; 1.6 s for
 * 512), where regc takes 0.01 s for 1024. tests/fuzz/run-fuzz.sh runs it in a
 * scratch directory.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "context.h"
#include "context_cmsis.h"
#include "context_regspec.h"
#include "context_svd.h"
#include "fuzz_schema.h"
#include "svd.h"
#include "tmpl.h"
#include "xmlload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RENDER_MAX_REGS 128

/* The outputs rendered, and the tree's keys and check each needs (as regc's main.c sets them). */
enum need { NEED_NONE, NEED_CMSIS, NEED_SVD, NEED_REGSPEC };
static const struct {
    const char *name;
    enum need need;
} outputs[] = {
    {"c", NEED_NONE},  {"cmsis", NEED_CMSIS},     {"cmsis-enum", NEED_CMSIS},
    {"svd", NEED_SVD}, {"regspec", NEED_REGSPEC},
};

/* The register elements of 's', an array's each (counted up to 'most' + 1). */
static size_t reg_elements(const struct model_spec *s, size_t most)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nblocks && n <= most; i++)
        for (size_t k = 0; k < s->blocks[i]->nregs && n <= most; k++)
            n += s->blocks[i]->regs[k]->count ? s->blocks[i]->regs[k]->count : 1;
    return n;
}

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        abort(); /* the scratch directory must be writable */
    fwrite(data, 1, size, f);
    fclose(f);
}

/* Output 'name' of a checked spec into 'out'; 0 or -1. */
static int render(struct diag *dg, const struct model_spec *s, const char *name, enum need need,
                  struct buf *out)
{
    struct arena a = ARENA_INIT;
    struct tmpl tp;
    tmpl_init(&tp, dg, NULL, 0);
    int rc = tmpl_load(&tp, name);
    if (rc == 0) {
        struct context_options opt = {.cmsis = need == NEED_CMSIS,
                                      .svd_keys = need == NEED_SVD,
                                      .regspec_keys = need == NEED_REGSPEC};
        struct dt *tree = context_build(&a, s, &opt);
        struct mus_options mopt = {.escape = tmpl_escape_for(name, NULL), .strict = true};
        rc = tmpl_render(&tp, tree, &mopt, out);
    }
    tmpl_release(&tp);
    arena_release(&a);
    return rc;
}

/* What a refusing output's check says: -1 skips the output (an error reported). */
static int output_check(struct diag *dg, const struct model_spec *s, enum need need)
{
    switch (need) {
    case NEED_CMSIS:
        return context_cmsis_check(dg, s);
    case NEED_SVD:
        return context_svd_check(dg, s);
    case NEED_REGSPEC:
        return context_regspec_check(dg, s);
    case NEED_NONE:
        break;
    }
    return 0;
}

/* The text 'out' read back, as SVD or as a regspec: loads and checks without an error. */
static void read_back(const struct buf *out, bool svd)
{
    const char *path = svd ? "fuzz-svd-back.svd" : "fuzz-svd-back.xml";
    write_file(path, out->s, out->len);
    struct arena a = ARENA_INIT;
    struct diag dg;
    diag_init(&dg, NULL);
    struct model_spec *s =
        svd ? svd_load(&a, &dg, path) : xmlload_spec_with(&a, &dg, path, NULL, 0, schema());
    if (!s || check_spec(&a, &dg, s) != 0 || dg.nerrors != 0) {
        fprintf(stderr, "-t %s of a clean input does not read back:\n%.*s\n",
                svd ? "svd" : "regspec", (int)out->len, out->s);
        abort();
    }
    diag_release(&dg);
    arena_release(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    write_file("fuzz-svd.svd", data, size);
    if (!svd_file_is_svd("fuzz-svd.svd"))
        return 0;
    struct arena a = ARENA_INIT;
    struct diag dg;
    diag_init(&dg, NULL);
    struct model_spec *s = svd_load(&a, &dg, "fuzz-svd.svd");
    if (!s && dg.nerrors == 0)
        abort(); /* NULL only with an error reported */
    if (s && check_spec(&a, &dg, s) == 0 && dg.nerrors == 0 &&
        reg_elements(s, RENDER_MAX_REGS) <= RENDER_MAX_REGS) {
        for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
            if (output_check(&dg, s, outputs[i].need) != 0)
                continue; /* refused, with an error: no output */
            unsigned errors = dg.nerrors;
            struct buf one = BUF_INIT, two = BUF_INIT;
            if (render(&dg, s, outputs[i].name, outputs[i].need, &one) != 0 ||
                render(&dg, s, outputs[i].name, outputs[i].need, &two) != 0 || dg.nerrors != errors)
                abort(); /* a clean spec renders what its check let through */
            if (one.len != two.len || memcmp(one.s, two.s, one.len) != 0)
                abort(); /* deterministic */
            if (outputs[i].need == NEED_SVD || outputs[i].need == NEED_REGSPEC)
                read_back(&one, outputs[i].need == NEED_SVD);
            buf_release(&one);
            buf_release(&two);
        }
    }
    diag_release(&dg);
    arena_release(&a);
    return 0;
}
