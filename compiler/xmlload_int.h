/*
 * xmlload_int - the loader's state, shared by its files; not for the rest
 * of the compiler (xmlload.h is the contract):
 *   xmlload.c  the driver: the scanner, libxml2's SAX2 parser and its
 *              errors, files and includes, the open elements (which
 *              handler a child goes to);
 *   xmlelem.c  the element handlers: one model object from one element;
 *   xmlmmio.c  the same for the memory-mapped (SVD) forms;
 *   xmlderive.c  their derived-from= bases checked once the spec is loaded;
 *   xmlattr.c  the element being loaded: its attributes read, their
 *              positions, and what is reported about them (held until the
 *              file is known sound).
 * The calls go down that list only.
 */
#ifndef REGC_XMLLOAD_INT_H
#define REGC_XMLLOAD_INT_H

#include "arena.h"
#include "buf.h"
#include "diag.h"
#include "model.h"
#include "xmlschema.h"
#include "xmlvalue.h"

#include <libxml/parser.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---------------------------------------------------------------- the element */

/* An attribute of the element being loaded. */
struct xl_attr {
    const char *name;   /* local name ("p:name" when prefix p is bound to nothing) */
    const char *prefix; /* as written; NULL: none */
    const char *uri;    /* its namespace; NULL: none */
    const char *value;  /* normalized and decoded, as libxml2's tree had it */
};

/*
 * The element being loaded, as libxml2's SAX2 parser gives its start tag
 * (xmlload.c, on_start()); the handlers read it through xmlattr.c. Valid
 * until the next start tag of its file.
 */
struct xl_elem {
    const char *name;   /* local name ("p:name" when prefix p is bound to nothing) */
    const char *prefix; /* as written; NULL: none */
    const char *uri;    /* its namespace; NULL: none */
    const struct xl_attr *attrs;
    size_t nattrs;
    uint32_t line;      /* of its '<' (libxml2's line when the scanner lost track) */
};

/* ---------------------------------------------------------------- the scanner */

/* A start tag the scanner has seen and the parser has not handed over yet. */
struct tagrec {
    uint32_t line, col; /* of its '<' */
    size_t start, len;  /* its raw text: scan.buf[start, start + len) */
};

enum scan_state {
    S_TEXT, S_LT, S_STAG, S_QUOTE, S_ETAG, S_PI, S_BANG, S_COMMENT, S_CDATA, S_DECL
};

struct scan {
    enum scan_state state;
    char quote, prev;       /* the quote of the value being read; the byte before this one */
    unsigned run;           /* '-' or ']' seen in a row (ends of comments and CDATA) */
    char look[8];           /* after "<!": what it starts */
    unsigned nlook;
    unsigned depth;         /* elements open */
    bool root_seen;
    bool lost;              /* the scanner and the parser disagree, or the input is not 8-bit:
                               positions are libxml2's lines from then on */
    uint64_t off;           /* bytes scanned */
    uint64_t line_start;    /* offset of the current line's first byte */
    uint32_t line;
    uint32_t lt_line, lt_col; /* the last '<' */
    char *buf;              /* raw text of the start tags in q; xmalloc'd */
    size_t head, len, cap;  /* buf[head, len) is in use */
    struct tagrec *q;       /* q[qhead, qlen): tags not yet handed over; xmalloc'd */
    size_t qhead, qlen, qcap;
    struct tagrec cur;      /* the tag being captured */
};

/* ---------------------------------------------------------------- files */

/* Schema errors are collected while a file is read, then reported in file order. */
struct schema_err {
    struct srcpos pos;
    char *msg;         /* xmalloc'd */
    struct srcpos note;
    char *note_msg;    /* a note at 'note' after it, or NULL; xmalloc'd */
};

/* What the schema check knows of an open element (xmlload.c, validate_element()). */
struct valid_state {
    const struct schema_elem *e;               /* its entry; NULL: not judged */
    struct srcpos once_at[SCHEMA_MAX_ONCE];    /* where each child allowed once was first */
};

/*
 * An attribute name's index in an element's schema entry, remembered by the
 * addresses of both (xmlattr.c, xl_attr_index()): the names looked up are
 * libxml2's, one string a name for the whole parse (its dictionary), and
 * strings as lasting (the handlers' literals, the schema's names), so an
 * address stands for its name until the file ends, when the table goes.
 */
struct attr_memo {
    const struct schema_elem *e;
    const char *name;
    int index; /* in e->attrs; -1: e has no such attribute */
};

enum { ATTR_MEMO_BITS = 12, ATTR_MEMO_SIZE = 1 << ATTR_MEMO_BITS };

/* One file: the spec or an include. */
struct lfile {
    const char *path;    /* as diagnostics print it; owned by the arena */
    const char *real;    /* "DEV:INODE" of the file opened, to find one included twice; arena */
    int root;            /* where it was found (incpath.h) */
    const char *rel;     /* its name in that root; arena */
    uint32_t index;      /* in the diag file table */
    struct srcpos included_at; /* the <include> that brought it in (file 0: the spec) */
    bool loading;        /* on the include stack now */
};

/* The state of reading one file. */
struct rfile {
    struct loader *ld;
    struct lfile *f;
    int fd;
    char *peek;                /* the file's first bytes, read before libxml2 starts; xmalloc'd */
    size_t npeek, peek_pos;
    int read_err;              /* errno of a failed read */
    bool stopped;              /* the scanner refused the rest of the input (reported) */
    struct scan sc;
    struct diag_held fatal;    /* well-formedness, safety and read errors */
    struct schema_err *schema; /* xmalloc'd */
    size_t nschema, schema_cap;
    size_t held_mark;          /* ld->held.n when the file began */
    xmlParserCtxtPtr ctxt;
    struct walk *walk;         /* the open elements (xmlload.c) */
    struct xl_elem el;         /* the element being loaded */
    struct xl_attr *attrs;     /* el.attrs; xmalloc'd */
    size_t attrs_cap;
    struct buf strs;           /* the text el and its attributes point into */
    struct tagrec tag;         /* its start tag (tag.len 0: unknown) */
    /* el's attributes by their index in its schema entry, set when el is judged (xmlload.c,
     * check_attributes()): a handler's look-up is then a bit, not a search. */
    const struct schema_elem *el_schema; /* NULL: el not judged (its attributes are searched) */
    uint64_t el_given;                   /* the entry's attributes el has (not in a namespace) */
    const char *el_values[SCHEMA_MAX_ATTRS]; /* their values */
    struct attr_memo *memo;    /* ATTR_MEMO_SIZE entries while the file is parsed; xcalloc'd */
    const char *wrong_root;    /* the root element, when it is not the one expected */
    struct srcpos wrong_root_pos;
};

struct frame;
struct walk;

struct loader {
    struct arena *a;
    struct diag *dg;
    struct model_spec *spec;
    struct lfile **files; /* every file opened; xmalloc'd array */
    size_t nfiles, cap;
    size_t inputs_cap;    /* capacity of spec->inputs */
    struct rfile *rf;     /* the file being read */
    const struct xmlload_schema *sc;
    struct diag_held held; /* what the model's construction reported, in order */
    struct buf text;      /* the text of the <desc> or <rule> being read */
    struct incpath *ip;   /* where includes may be found */
};

/* ---- xmlattr.c */

void xl_report(struct loader *ld, enum diag_code code, struct srcpos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void xl_note(struct loader *ld, struct srcpos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The index of attribute 'name' in schema entry 'e' (-1: none); 'name' must keep its text
 * while the file is read (struct attr_memo). */
int xl_attr_index(struct rfile *rf, const struct schema_elem *e, const char *name);
struct srcpos xl_pos_of(struct loader *ld, const struct xl_elem *n);
struct srcpos xl_attr_pos(struct loader *ld, const struct xl_elem *n, const char *name);
struct srcpos xl_value_pos(struct loader *ld, const struct xl_elem *n, const char *name, size_t off);
/* A second <NAME> where one is allowed (its first at 'first'), reported. */
void xl_report_repeated(struct loader *ld, const struct xl_elem *n, struct srcpos first);
void xl_report_value(struct loader *ld, const struct xl_elem *n, const char *attr,
                     const struct value_error *err);
/* Attribute 'name' of 'n' (not in a namespace), copied into the arena; NULL: absent. 'name'
 * keeps its text while the file is read (a literal; struct attr_memo). */
const char *xl_get(struct loader *ld, const struct xl_elem *n, const char *name);
/* The same, borrowed: valid while 'n' is loaded (parse or copy it at once). */
const char *xl_peek(struct loader *ld, const struct xl_elem *n, const char *name);
/* 'n' has attribute 'name' (in a namespace or not). */
bool xl_has(const struct xl_elem *n, const char *name);
bool xl_get_bool(struct loader *ld, const struct xl_elem *n, const char *name);
const char *xl_desc_of(struct loader *ld, const struct xl_elem *n);
bool xl_get_num(struct loader *ld, const struct xl_elem *n, const char *name, uint64_t *out);
bool xl_get_num_max(struct loader *ld, const struct xl_elem *n, const char *name, uint64_t max,
                    uint64_t *out);
unsigned xl_get_uint(struct loader *ld, const struct xl_elem *n, const char *name, unsigned dflt);
/* The description ('desc' may be NULL: an element without one), citation and position of a
 * documented element, read the one way: sets *desc and *c, returns the position ('pos'). */
struct srcpos xl_doc_of(struct loader *ld, const struct xl_elem *n, const char **desc, struct model_cite *c);
struct model_role xl_role_of(struct loader *ld, const struct xl_elem *n, const char *name);

/* ---- xmlelem.c: each loads the element of its name (see the comment above each) */

struct model_at *xl_load_at(struct loader *ld, const struct xl_elem *n);
struct model_block *xl_load_block(struct loader *ld, const struct xl_elem *n);
struct model_box_control *xl_load_box_control(struct loader *ld, const struct xl_elem *n);
struct model_box_overflow *xl_load_box_overflow(struct loader *ld, const struct xl_elem *n);
struct model_box_status *xl_load_box_status(struct loader *ld, const struct xl_elem *n);
struct model_counters *xl_load_counters(struct loader *ld, const struct xl_elem *n);
struct model_cpu *xl_load_cpu(struct loader *ld, const struct xl_elem *n);
struct model_event *xl_load_event(struct loader *ld, const struct xl_elem *n, struct model_events *t,
                                  struct model_event *parent);
struct model_events *xl_load_events(struct loader *ld, const struct xl_elem *n, struct model_block *b);
struct model_field *xl_load_field(struct loader *ld, const struct xl_elem *n, struct model_reg *r);
struct model_filter *xl_load_filter(struct loader *ld, const struct xl_elem *n);
struct model_field *xl_load_gap(struct loader *ld, const struct xl_elem *n, struct model_reg *r);
struct model_global_control *xl_load_global_control(struct loader *ld, const struct xl_elem *n);
struct model_global_status *xl_load_global_status(struct loader *ld, const struct xl_elem *n);
struct model_instance *xl_load_instance(struct loader *ld, const struct xl_elem *n, struct model_block *b);
struct model_metric *xl_load_metric(struct loader *ld, const struct xl_elem *n);
struct model_pmon *xl_load_pmon(struct loader *ld, const struct xl_elem *n, struct model_block *b);
struct model_pmon_global *xl_load_pmon_global(struct loader *ld, const struct xl_elem *n);
struct model_rdpmc *xl_load_rdpmc(struct loader *ld, const struct xl_elem *n);
struct model_reg *xl_load_register(struct loader *ld, const struct xl_elem *n, struct model_block *b);
void xl_load_regspec(struct loader *ld, const struct xl_elem *n);
struct model_rule *xl_load_rule(struct loader *ld, const struct xl_elem *n);
struct model_set *xl_load_set(struct loader *ld, const struct xl_elem *n);
struct model_source *xl_load_source(struct loader *ld, const struct xl_elem *n);
struct model_unmodelled_filter *xl_load_unmodelled_filter(struct loader *ld, const struct xl_elem *n);
struct model_value *xl_load_value(struct loader *ld, const struct xl_elem *n);

/* ---- xmlmmio.c: the memory-mapped forms; xl_mmio_X reads them on an element X loaded above */

struct model_device *xl_load_device(struct loader *ld, const struct xl_elem *n);
struct model_device_cpu *xl_load_core(struct loader *ld, const struct xl_elem *n);
struct model_interrupt *xl_load_interrupt(struct loader *ld, const struct xl_elem *n);
struct model_addr_block *xl_load_addr_block(struct loader *ld, const struct xl_elem *n);
struct model_cluster *xl_load_cluster(struct loader *ld, const struct xl_elem *n, const struct model_block *b);
void xl_mmio_block(struct loader *ld, const struct xl_elem *n, struct model_block *b);
void xl_mmio_instance(struct loader *ld, const struct xl_elem *n, struct model_instance *in);
void xl_mmio_register(struct loader *ld, const struct xl_elem *n, struct model_reg *r);
void xl_mmio_field(struct loader *ld, const struct xl_elem *n, struct model_field *f);
/* True when the value is the field's default (kept there, in no list). */
/* <array-index header-enum-name=> of register 'r' (its first; NULL for a second, reported) */
struct model_array_index *xl_mmio_array_index(struct loader *ld, const struct xl_elem *n,
                                              struct model_reg *r);
/* ... of cluster 'c' (count= or an svd-name= with %s: an array) and of instance 'in' */
struct model_array_index *xl_mmio_cluster_array_index(struct loader *ld, const struct xl_elem *n,
                                                      struct model_cluster *c);
struct model_array_index *xl_mmio_instance_array_index(struct loader *ld, const struct xl_elem *n,
                                                       struct model_instance *in);
/* <enum-set name= header-enum-name= usage=> of field 'f'; '*cap': the sets' capacity */
void xl_mmio_enum_set(struct loader *ld, const struct xl_elem *n, struct model_field *f, size_t *cap);
bool xl_mmio_value(struct loader *ld, const struct xl_elem *n, struct model_field *f, struct model_value *v);
/* After a sound load: what the memory-mapped forms make of the whole spec (write-constraint
 * rules). */
void xl_mmio_finish(struct arena *a, struct diag *dg, struct model_spec *s);

/* ---- xmlderive.c: the bases derived-from= names exist, chains end (svd-derived); a cluster
 * with own-type="false" gets its base's CMSIS type (type_of); then what each register, field
 * and enum-set without content of its own takes from its base, copied in 'a' */
void xl_check_derived(struct arena *a, struct diag *dg, struct model_spec *s);
/* The nodes the last xl_check_derived() of this process walked to learn which derivations reach
 * only bases found (each node once a round: tests/unit/test_xmlload.c checks it grows linearly). */
size_t xl_derive_steps(void);

#endif
