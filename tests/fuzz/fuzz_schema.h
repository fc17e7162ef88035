/*
 * fuzz_schema.h - the compiled regspec schema, made once and kept for the
 * whole run, as a program loading many specs would: compiling it is about
 * half of what a small input costs the loader. For the fuzz targets that
 * load specs (fuzz_compile.c, fuzz_xmlload.c).
 */
#ifndef REGC_FUZZ_SCHEMA_H
#define REGC_FUZZ_SCHEMA_H

#include <stdlib.h>

#include "xmlload.h"

static const struct xmlload_schema *schema(void)
{
    static struct xmlload_schema *sc;
    if (!sc) {
        struct diag dg;
        diag_init(&dg, NULL);
        sc = xmlload_schema_new(&dg);
        diag_release(&dg);
        if (!sc)
            abort();
    }
    return sc;
}

#endif
