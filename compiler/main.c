/* regc command line: a placeholder until the loader lands (see compiler/cli.c). */
#include "cmd_render.h"
#include "diag.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "render") == 0)
        return cmd_render(argc, argv);
    if (argc > 1 && strcmp(argv[1], "--version") == 0) {
        printf("regc %s\n", REGC_VERSION);
        return 0;
    }
    fputs("usage: regc [options] SPEC.xml\n", stderr);
    return 2;
}
