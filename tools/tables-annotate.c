/*
 * tables-annotate - add the t_* keys of compiler/tables.c to a data tree.
 *
 *   tables-annotate IN.json OUT.json
 *
 * The build renders descriptor tables as `regc -t json` | tables-annotate |
 * `regc render templates/tables.mustache`, so regctl's tables depend only on
 * the JSON export and the render command.
 */
#include "tables.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: tables-annotate IN.json OUT.json\n");
        return 2;
    }
    json_error_t e;
    json_t *t = json_load_file(argv[1], 0, &e);
    if (!t) {
        fprintf(stderr, "%s:%d:%d: error: %s\n", argv[1], e.line, e.column, e.text);
        return 1;
    }
    tables_annotate(t);
    int rc = json_dump_file(t, argv[2], JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(t);
    if (rc < 0) {
        fprintf(stderr, "tables-annotate: cannot write '%s'\n", argv[2]);
        return 3;
    }
    return 0;
}
