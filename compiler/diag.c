#include "diag.h"
#include "util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    enum diag_sev sev;
    const char *desc;
} diag_table[DIAG__COUNT] = {
#define X(code, name, sev, desc) [DIAG_##code] = {name, sev, desc},
#include "diag.def"
#undef X
};

void diag_init(struct diag *dg, FILE *echo)
{
    memset(dg, 0, sizeof(*dg));
    for (int i = 0; i < DIAG__COUNT; i++)
        dg->sev[i] = diag_table[i].sev;
    dg->echo = echo;
    buf_init(&dg->text);
    diag_add_file(dg, "");
}

void diag_release(struct diag *dg)
{
    free(dg->files);
    buf_release(&dg->text);
    dg->files = NULL;
    dg->nfiles = dg->cap = 0;
}

uint32_t diag_add_file(struct diag *dg, const char *name)
{
    if (dg->nfiles == dg->cap) {
        dg->cap = dg->cap ? dg->cap * 2 : 8;
        dg->files = xrealloc(dg->files, dg->cap * sizeof(*dg->files));
    }
    dg->files[dg->nfiles] = name;
    return dg->nfiles++;
}

const char *diag_file_name(const struct diag *dg, uint32_t file)
{
    return file < dg->nfiles ? dg->files[file] : "";
}

bool diag_lookup(const char *name, enum diag_code *code)
{
    for (int i = 0; i < DIAG__COUNT; i++) {
        if (strcmp(diag_table[i].name, name) == 0) {
            *code = (enum diag_code)i;
            return true;
        }
    }
    return false;
}

const char *diag_name(enum diag_code code)
{
    return diag_table[code].name;
}

const char *diag_description(enum diag_code code)
{
    return diag_table[code].desc;
}

enum diag_sev diag_default_severity(enum diag_code code)
{
    return diag_table[code].sev;
}

bool diag_option(struct diag *dg, const char *opt)
{
    enum diag_code code;
    if (strcmp(opt, "-Werror") == 0) {
        dg->werror = true;
        return true;
    }
    if (strncmp(opt, "-Werror=", 8) == 0 && diag_lookup(opt + 8, &code)) {
        dg->sev[code] = SEV_ERROR;
        return true;
    }
    if (strncmp(opt, "-Wno-", 5) == 0 && diag_lookup(opt + 5, &code)) {
        if (diag_table[code].sev == SEV_ERROR)
            return false; /* errors cannot be silenced */
        dg->sev[code] = SEV_IGNORE;
        return true;
    }
    if (strncmp(opt, "-W", 2) == 0 && diag_lookup(opt + 2, &code)) {
        if (dg->sev[code] == SEV_IGNORE)
            dg->sev[code] = SEV_WARNING;
        return true;
    }
    return false;
}

static void emit(struct diag *dg, struct srcpos pos, const char *kind, const char *option,
                 const char *fmt, va_list ap)
{
    size_t start = dg->text.len;
    if (pos.file) {
        buf_addf(&dg->text, "%s:", diag_file_name(dg, pos.file));
        if (pos.line)
            buf_addf(&dg->text, "%u:", (unsigned)pos.line);
        if (pos.line && pos.col)
            buf_addf(&dg->text, "%u:", (unsigned)pos.col);
        buf_addc(&dg->text, ' ');
    } else {
        buf_adds(&dg->text, "regc: ");
    }
    buf_addf(&dg->text, "%s: ", kind);
    buf_vaddf(&dg->text, fmt, ap);
    if (option)
        buf_addf(&dg->text, " [-W%s]", option);
    buf_addc(&dg->text, '\n');
    if (dg->echo) {
        fwrite(dg->text.s + start, 1, dg->text.len - start, dg->echo);
        fflush(dg->echo);
    }
}

int diag_vreport(struct diag *dg, enum diag_code code, struct srcpos pos, const char *fmt,
                 va_list ap)
{
    enum diag_sev sev = dg->sev[code];
    dg->last_suppressed = sev == SEV_IGNORE;
    if (dg->last_suppressed)
        return -1;
    dg->count[code]++;
    /* Warnings name their option, as gcc does, so users know what to pass. */
    const char *option = diag_table[code].sev == SEV_WARNING ? diag_table[code].name : NULL;
    if (sev == SEV_WARNING && dg->werror)
        sev = SEV_ERROR;
    if (sev == SEV_ERROR) {
        dg->nerrors++;
        emit(dg, pos, "error", option, fmt, ap);
    } else {
        dg->nwarnings++;
        emit(dg, pos, "warning", option, fmt, ap);
    }
    return -1;
}

int diag_report(struct diag *dg, enum diag_code code, struct srcpos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(dg, code, pos, fmt, ap);
    va_end(ap);
    return -1;
}

void diag_note(struct diag *dg, struct srcpos pos, const char *fmt, ...)
{
    if (dg->last_suppressed)
        return;
    va_list ap;
    va_start(ap, fmt);
    emit(dg, pos, "note", NULL, fmt, ap);
    va_end(ap);
}

int diag_plain_error(struct diag *dg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dg->nerrors++;
    emit(dg, (struct srcpos){0, 0, 0}, "error", NULL, fmt, ap);
    va_end(ap);
    return -1;
}
