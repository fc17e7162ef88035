/*
 * libFuzzer target for `regc render` (compiler/cmd_render.c): a template and
 * the JSON data it renders, read as the command reads them (jansson with
 * JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, then the data tree).
 *
 * The input is "TEMPLATE\0DATA": up to the first NUL byte the template, the
 * rest the JSON; without a NUL the whole input is the data, rendered by a
 * fixed template that walks lists, objects and dotted names. No partials.
 * The render limits are linear in the input (mus_options.max_output,
 * max_work), so the output stays linear too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "mustache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char walk[] = "{{#.}}[{{.}}|{{name}}|{{a.b.c}}|{{#items}}({{.}}{{#items}}{{.}}{{/items}}){{/items}}"
                           "{{^items}}-{{/items}}]{{/.}}{{{raw}}}{{&x}}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192)
        return 0;
    const char *nul = memchr(data, '\0', size);
    const char *tmpl = nul ? (const char *)data : walk;
    size_t tlen = nul ? (size_t)(nul - (const char *)data) : sizeof(walk) - 1;
    const char *json = nul ? nul + 1 : (const char *)data;
    size_t jlen = nul ? size - tlen - 1 : size;
    json_error_t err;
    json_t *root = json_loadb(json, jlen, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &err);
    if (!root)
        return 0;
    struct arena tree = ARENA_INIT;
    /* limits linear in the input, as fuzz_mustache.c sets them: nested sections over lists
     * multiply, and the target's point is that no input runs long */
    struct mus_options opt = {.escape = MUS_ESCAPE_HTML,
                              .strict = size % 2 == 0,
                              .max_output = 64 * size + 4096,
                              .max_work = 256 * (uint64_t)size + 4096};
    struct diag dg;
    diag_init(&dg, NULL);
    struct mus_template *t = mus_compile(&dg, "fuzz", tmpl, tlen);
    if (t) {
        struct buf out = BUF_INIT;
        mus_render(&dg, t, dt_from_json(&tree, root), &opt, &out);
        buf_release(&out);
        mus_free(t);
    }
    diag_release(&dg);
    arena_release(&tree);
    json_decref(root);
    return 0;
}
