/*
 * mustache - regc's mustache engine: compile a template once, render it many
 * times against a data tree (compiler/dt.h).
 *
 * Conformance: every test of the official mustache spec v1.4 core modules
 * (comments, delimiters, interpolation, inverted, partials, sections) and of
 * the optional ~inheritance ({{<parent}}, {{$block}}) and ~dynamic-names
 * ({{>*name}}) modules passes (tests/unit/test_mustache.c). ~lambdas does not
 * apply: C data has no code in it.
 *
 * Truthiness: false, null, an empty list and a missing name are falsy;
 * everything else (0, "", {}) is truthy. Interpolated values: strings as
 * they are, integers in decimal, reals in the shortest form that reads back
 * to the same double, true/false as words, null and lists/objects as nothing.
 *
 * Diagnostics go to a struct diag (compiler/diag.h): syntax errors as
 * DIAG_TEMPLATE_SYNTAX at NAME:LINE:COL of the tag (columns count bytes from
 * 1), missing or too deeply nested partials as DIAG_TEMPLATE_PARTIAL, and in
 * strict mode names without a value as DIAG_TEMPLATE_NAME, a render past its
 * output or work limit as DIAG_TEMPLATE_LIMIT. Positions inside a partial point
 * into the partial's own text.
 */
#ifndef REGC_MUSTACHE_H
#define REGC_MUSTACHE_H

#include "buf.h"
#include "diag.h"

#include "dt.h"
#include "map.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How {{name}} is escaped; {{{name}}} and {{&name}} are never escaped. */
enum mus_escape {
    MUS_ESCAPE_NONE,
    MUS_ESCAPE_HTML,     /* & < > " become &amp; &lt; &gt; &quot; (the spec's rule) */
    MUS_ESCAPE_C,        /* safe in C comments and code: "/ *", "* /", "? ?", no backslash
                          * before a line end, control characters other than tab and line
                          * ends dropped */
    MUS_ESCAPE_MARKDOWN, /* a GFM table cell: | \ ` * ~ [ ] and a word-edge _ get a backslash,
                          * line end -> <br>, & < > as entities */
    MUS_ESCAPE_JSON,     /* inside a JSON string: " \\ and control characters (RFC 8259 7) */
};

/* A partial's text, as handed over by the loader. */
struct mus_source {
    const char *display_name; /* used in diagnostics; borrowed, must outlive the diag */
    const char *text;         /* borrowed for the duration of the load call; copied */
    size_t len;
};

/*
 * Finds partial 'name' for a render. Returns 1 and fills 'out' when found, 0
 * when there is no such partial (the engine then reports it in strict mode,
 * renders nothing otherwise), -1 after reporting an error of its own (I/O).
 */
typedef int mus_load_fn(void *ctx, struct diag *dg, const char *name, struct mus_source *out);

/*
 * Called for each item of a list a section iterates, just before the item is
 * rendered: returns a value to render in its place, or NULL to render 'item'
 * itself. A value returned is handed to the item_done hook right after it was
 * rendered. Lets a caller build a large list's items one at a time
 * (context_expand() in context.h).
 */
typedef const struct dt *mus_item_fn(void *ctx, const struct dt *item);
typedef void mus_item_done_fn(void *ctx, const struct dt *own);

/* Takes the next 'len' bytes of the output (to write them; 'text' is the engine's). */
typedef void mus_sink_fn(void *ctx, const char *text, size_t len);

#define MUS_DEFAULT_MAX_DEPTH 64
#define MUS_SINK_CHUNK ((size_t)64 << 10) /* bytes held before they go to the sink */
#define MUS_DEFAULT_MAX_OUTPUT ((size_t)1 << 30) /* bytes */
#define MUS_DEFAULT_MAX_WORK ((uint64_t)1 << 28) /* steps */

/*
 * The partials any number of checks and renders share (mus_options.partials): each is loaded
 * through opt->load and compiled the first time one of them names it, then kept, so a template
 * checked, then rendered, compiles each partial once. Zeroed: none yet.
 */
struct mus_partials {
    struct regc_map by_name; /* struct mus_partial (mustache_int.h) */
};

struct mus_options {
    enum mus_escape escape;
    bool strict;       /* missing names and partials are errors (not the spec's empty text) */
    mus_load_fn *load; /* NULL: no partials exist */
    void *load_ctx;
    struct mus_partials *partials; /* NULL: the call compiles its own */
    unsigned max_depth; /* partial/parent nesting limit; 0 means MUS_DEFAULT_MAX_DEPTH */
    mus_item_fn *item; /* NULL: list items are rendered as they are */
    mus_item_done_fn *item_done; /* may be NULL */
    void *item_ctx;
    /*
     * NULL, or where the output goes as it is rendered: before any tag once
     * 'out' holds MUS_SINK_CHUNK bytes or more, what 'out' holds is handed to
     * the sink and 'out' emptied, so the output is never held whole, and
     * each run is at least MUS_SINK_CHUNK bytes (one write() each, not one
     * per item the item hook built). The output is then every run handed to
     * the sink, in order, followed by what is left in 'out'. Nothing is
     * handed over after an error.
     */
    mus_sink_fn *sink;
    void *sink_ctx;
    /*
     * Limits on one render, so that no template (a block override that calls
     * its parent several times doubles the output per copy) runs for long or
     * fills the memory: bytes of output, and steps of work (a step is a tag or
     * text visited, a list item entered, or an override compared while looking
     * one up). 0: MUS_DEFAULT_*; SIZE_MAX, UINT64_MAX: none. Past one, the
     * render stops with DIAG_TEMPLATE_LIMIT at the tag being rendered; what it
     * appended to 'out' (and handed to the sink) never exceeds max_output.
     */
    size_t max_output;
    uint64_t max_work;
};

struct mus_template;

/*
 * Parses 'text' (len bytes; need not be NUL-terminated) into a template.
 * 'name' names it in diagnostics: it is registered with diag_add_file and so
 * is borrowed and must outlive 'dg'. Returns NULL after reporting every syntax
 * error found; the caller frees a template with mus_free(). */
struct mus_template *mus_compile(struct diag *dg, const char *name, const char *text, size_t len);

/*
 * Renders 't' with 'data' as the root of the context stack, appending to 'out'.
 * Returns 0, or -1 after reporting errors (what was rendered so far stays in
 * 'out'; callers discard it). Partials are loaded through opt->load and
 * compiled once per render call, or once for all the calls that share
 * opt->partials. 't' is not modified: one template may be rendered any
 * number of times. 'opt' NULL: defaults (no escaping, not strict).
 */
int mus_render(struct diag *dg, const struct mus_template *t, const struct dt *data,
               const struct mus_options *opt, struct buf *out);

void mus_free(struct mus_template *t);

/* Empties 'ps' (mus_options.partials) after the last call that used it. */
void mus_partials_release(struct mus_partials *ps);

/*
 * Checks 't', and the partials and parents it names (loaded through
 * opt->load, as mus_render() would), against the typed view whose root is
 * 'root' (view.h), before any data exists: DIAG_TEMPLATE_NAME for a name no
 * enclosing object of the view has, DIAG_TEMPLATE_TYPE for a section over a
 * string or integer that is always set, or {{name}} over a list or object,
 * each at the tag's NAME:LINE:COL (mustache_check.c). 0, or -1 after
 * reporting. A partial named by a value ({{>*x}}) is not checked. A check
 * visiting more tags than opt->max_work (0: MUS_DEFAULT_MAX_WORK) stops with
 * DIAG_TEMPLATE_LIMIT, as a render does.
 * 'used' (may be NULL) is called with each part of each name a tag resolves
 * ('len' bytes at 'name'), and with NULL for a tag the check cannot follow
 * (a partial named by a value): then the template may read any name.
 */
struct view_type;
typedef void mus_name_used_fn(void *ctx, const char *name, size_t len);
int mus_check(struct diag *dg, const struct mus_template *t, const struct view_type *root,
              const struct mus_options *opt, mus_name_used_fn *used, void *used_ctx);

/* The template's name as given to mus_compile (borrowed). */
const char *mus_name(const struct mus_template *t);

/* Appends 'len' bytes of 's' to 'out', escaped for 'kind': MUS_ESCAPE_GROWTH * len at most. */
#define MUS_ESCAPE_GROWTH 6 /* '"' as "&quot;", a control character as "\u00XX" */
void mus_escape(struct buf *out, enum mus_escape kind, const char *s, size_t len);

/* Appends a number in the form interpolation uses: shortest round-trip for reals. */
void mus_format_real(struct buf *out, double d);

/* Parses "html", "c", "md" (or "markdown"), "none"; false if 'word' is none of them. */
bool mus_escape_parse(const char *word, enum mus_escape *kind);

#endif
