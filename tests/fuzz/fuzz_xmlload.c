/*
 * libFuzzer target for the loader (compiler/xmlload.c) and the rule
 * expressions (common/expr.c).
 *
 * The input is parsed as a rule expression (and flattened to postfix when
 * it parses), then written to "fuzz-xmlload.xml" in the current directory
 * and loaded as a spec: well-formedness, safety refusals, the schema, value
 * parsing and positions all run (the streaming reader, its start-tag
 * scanner and, after a well-formedness error, the second read that finds
 * them all); no model may come back without an error reported.
 * tests/fuzz/run-fuzz.sh runs it in a scratch directory.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "fuzz_schema.h"
#include "xmlload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_expr(struct arena *a, const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    struct expr_error err;
    struct expr *e = expr_parse(a, text, &err);
    if (e) {
        struct expr_op *ops;
        expr_to_rpn(a, e, &ops);
    } else if (err.offset > size) {
        abort(); /* an error must point inside the text (or at its end) */
    }
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct arena a = ARENA_INIT;
    fuzz_expr(&a, data, size);
    FILE *f = fopen("fuzz-xmlload.xml", "wb");
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
        struct diag one;
        diag_init(&one, NULL);
        struct model_spec *s = xmlload_spec_with(&a, &one, "fuzz-xmlload.xml", NULL, 0, schema());
        if (!s && one.nerrors == 0)
            abort(); /* NULL only with an error reported */
        diag_release(&one);
    }
    arena_release(&a);
    return 0;
}
