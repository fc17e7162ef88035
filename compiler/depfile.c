#include "depfile.h"

#include <string.h>

/* Make reads '$' as a variable, '#' as a comment and blanks as separators. */
static void add_escaped(struct buf *out, const char *path)
{
    for (const char *p = path; *p; p++) {
        if (*p == '$')
            buf_addc(out, '$');
        else if (*p == ' ' || *p == '\t' || *p == '#' || *p == ':')
            buf_addc(out, '\\');
        buf_addc(out, *p);
    }
}

static void add_list(struct buf *out, const char *const *paths, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        buf_adds(out, " \\\n  ");
        add_escaped(out, paths[i]);
    }
}

static void add_phony(struct buf *out, const char *const *paths, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        buf_addc(out, '\n');
        add_escaped(out, paths[i]);
        buf_adds(out, ":\n");
    }
}

void depfile_format(struct buf *out, const char *target, const char *const *inputs,
                    size_t ninputs, const char *const *templates, size_t ntemplates)
{
    add_escaped(out, target);
    buf_addc(out, ':');
    add_list(out, inputs, ninputs);
    add_list(out, templates, ntemplates);
    buf_addc(out, '\n');
    add_phony(out, inputs, ninputs);
    add_phony(out, templates, ntemplates);
}
