/*
 * svd_parse - a CMSIS-SVD document into a tree of svd_node (svd_int.h).
 *
 * Lenient about order (the XSD's sequences are not enforced: Nordic and NXP
 * files break them and every reader accepts them), strict about what is
 * there: an element SVD does not define is a warning that names what is
 * ignored. The whole document becomes the reader's tree before anything
 * is resolved (derivedFrom may point forward), with network access off and
 * no DTD: a <!DOCTYPE> or <!ENTITY> is refused before parsing, as xmlload.c
 * refuses them in a regspec.
 */
#include "buf.h"
#include "svd.h"
#include "svd_int.h"
#include "svd_tag.h"
#include "util.h"
#include "xmlvalue.h"

#include <errno.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

const char *svd_kind_name(enum svd_kind k)
{
    static const char *const names[] = {
        "device",    "cpu",         "peripheral",       "cluster",
        "register",  "field",       "enumeratedValues", "enumeratedValue",
        "interrupt", "addressBlock", "dimArrayIndex"};
    return names[k];
}

/*
 * The reader follows libxml2's SAX2 events with a stack of what each open
 * element is to it: libxml2 builds no document tree (building it and freeing
 * it cost as much as the reading, and twice the memory). What the reader
 * reports is held until the end: after a well-formedness error that error
 * alone is said, as when the file was parsed whole first.
 */
enum frame_kind {
    F_NODE,     /* an object: its children are read into 'o' */
    F_WRAPPER,  /* <registers>, <fields>...: its children are read into 'o' */
    F_TEXT,     /* a text element of 'o': its text (of every element inside too) is collected */
    F_WC,       /* <writeConstraint> of 'o' */
    F_WC_RANGE, /* its <range> */
    F_WC_TEXT,  /* <writeAsRead>, <useEnumeratedValues>, <minimum>, <maximum>: text collected */
    F_INNER,    /* an element inside a collected text: only its text counts */
    F_SKIP,     /* an element ignored with all it holds */
};

enum wc_part { WC_PART_AS_READ, WC_PART_ENUMERATED, WC_PART_MIN, WC_PART_MAX };

/* An element name's tag, remembered by libxml2's pointer to the name (see tag_of()). */
struct tag_seen {
    const xmlChar *name;
    enum svd_tag tag;
};
/* child_kinds[][]: the tags that may make objects (those after the texts), and what they make */
#define CHILD_TAG_FIRST (SVD_TAG__TEXT_END + 1)
#define CHILD_TAGS (SVD_TAG_UNKNOWN + 1 - CHILD_TAG_FIRST)
enum { CHILD_NONE = -2, CHILD_WRAPPER = -1 };

#define TAGS_SEEN 256 /* a power of 2, well above the some 40 names a file uses */

struct frame {
    enum frame_kind kind;
    struct svd_node *o;
    const char *name; /* the element's name (libxml2's dictionary, alive while it parses) */
    int t;            /* F_TEXT: the enum svd_text; F_WC_TEXT: the enum wc_part */
    struct srcpos pos;
};

struct parser {
    struct svd_reader *rd;
    xmlParserCtxtPtr ctxt;
    bool failed;
    struct svd_tags tags;
    struct tag_seen seen[TAGS_SEEN];
    signed char child_kinds[SVD_KIND__COUNT][CHILD_TAGS]; /* child_rules by parent and tag */
    struct diag_held held; /* the walk's reports, until the file is known well-formed */
    struct frame *stack;
    size_t depth, cap;
    struct buf text; /* the text being collected (F_TEXT, F_WC_TEXT) */
};

/* The place of the start tag just read (libxml2's tree takes the same line). */
static struct srcpos here(const struct parser *p)
{
    int line = p->ctxt->input ? p->ctxt->input->line : 0;
    return (struct srcpos){p->rd->file, line > 0 ? (uint32_t)line : 0, 0};
}

static struct svd_node *node_new(struct parser *p, enum svd_kind kind, struct srcpos pos,
                                 struct svd_node *parent)
{
    struct svd_node *o = arena_zalloc(p->rd->a, sizeof(*o));
    o->kind = kind;
    o->pos = pos;
    o->parent = parent;
    if (parent)
        arena_push(p->rd->a, (void ***)&parent->kids, &parent->nkids, &parent->cap, o);
    return o;
}

/* The derivedFrom attribute among SAX2's (localname, prefix, URI, value, end) fives. */
static void derived_from(struct parser *p, struct svd_node *o, int nattrs, const xmlChar **attrs)
{
    for (int i = 0; i < nattrs; i++, attrs += 5) {
        /* localname, prefix, URI, value, end: a prefixed v:derivedFrom is not SVD's */
        if (attrs[1] || strcmp((const char *)attrs[0], "derivedFrom") != 0)
            continue;
        struct buf b = BUF_INIT;
        o->derived_from = arena_strdup(
            p->rd->a, value_from_sax(&b, (const char *)attrs[3], (size_t)(attrs[4] - attrs[3])));
        buf_release(&b);
        o->derived_pos = o->pos;
        return;
    }
}

/* A number of <writeConstraint><range>: decimal or 0x hex, as elsewhere in SVD. */
static bool wc_number(struct parser *p, const struct frame *f, const char *t, uint64_t *v)
{
    char *end;
    errno = 0;
    *v = strtoull(t, &end, 0);
    if (!*t || *end || errno || t[0] == '-') {
        diag_held_add(&p->held, DIAG_BAD_NUMBER, f->pos, "'%s' of <%s> is not a number", t,
                      f->name);
        return false;
    }
    return true;
}

/* <writeConstraint> <writeAsRead>true</...> | <useEnumeratedValues>true</...> |
 * <range><minimum/><maximum/></range>: one of its parts ends with its text 't'. */
static void wc_part_end(struct parser *p, const struct frame *f, const char *t)
{
    struct model_write_constraint *wc = &f->o->wc;
    switch ((enum wc_part)f->t) {
    case WC_PART_AS_READ:
        if (strcmp(t, "true") == 0)
            wc->kind = WC_WRITE_AS_READ;
        break;
    case WC_PART_ENUMERATED:
        if (strcmp(t, "true") == 0)
            wc->kind = WC_ENUMERATED;
        break;
    case WC_PART_MIN:
        wc_number(p, f, t, &wc->min);
        break;
    case WC_PART_MAX:
        wc_number(p, f, t, &wc->max);
        break;
    }
}

/* Elements SVD defines that the model does not need: skipped without a word. */
static bool ignored(const char *name)
{
    static const char *const names[] = {"vendorExtensions", "sauRegionsConfig", "dimArrayIndex",
                                        "dimableIdentifierType"};
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/*
 * The tag of element name 'name'. libxml2 hands every element name from its dictionary, one
 * pointer per distinct name for the whole parse, so a name seen before is known by its pointer
 * alone: hashing its text for every element (svd_tag_of()) was a third of the reader's own cost
 * of an element. A pointer is remembered only when the dictionary says it owns it.
 */
static enum svd_tag tag_of(struct parser *p, const xmlChar *name)
{
    uint64_t h = (uint64_t)(uintptr_t)name * UINT64_C(0x9E3779B97F4A7C15); /* Fibonacci hashing */
    struct tag_seen *s = &p->seen[h >> 56];
    _Static_assert(TAGS_SEEN == 1 << (64 - 56), "h >> 56 indexes seen[]");
    if (s->name == name)
        return s->tag;
    enum svd_tag tag = svd_tag_of(&p->tags, (const char *)name);
    if (xmlDictOwns(p->ctxt->dict, name) == 1)
        *s = (struct tag_seen){name, tag};
    return tag;
}

/* The objects SVD nests: which element of which object makes which child object. */
static const struct {
    enum svd_kind parent;
    enum svd_tag tag;
    int kind; /* CHILD_WRAPPER: a wrapper of the kinds below it */
} child_rules[] = {
    {SVD_DEVICE, SVD_TAG_CPU, SVD_CPU},
    {SVD_DEVICE, SVD_TAG_PERIPHERALS, CHILD_WRAPPER},
    {SVD_DEVICE, SVD_TAG_PERIPHERAL, SVD_PERIPH},
    {SVD_PERIPH, SVD_TAG_REGISTERS, CHILD_WRAPPER},
    {SVD_PERIPH, SVD_TAG_REGISTER, SVD_REG},
    {SVD_PERIPH, SVD_TAG_CLUSTER, SVD_CLUSTER},
    {SVD_PERIPH, SVD_TAG_INTERRUPT, SVD_INTERRUPT},
    {SVD_PERIPH, SVD_TAG_ADDRESS_BLOCK, SVD_ADDR_BLOCK},
    {SVD_CLUSTER, SVD_TAG_REGISTER, SVD_REG},
    {SVD_CLUSTER, SVD_TAG_CLUSTER, SVD_CLUSTER},
    {SVD_REG, SVD_TAG_FIELDS, CHILD_WRAPPER},
    {SVD_REG, SVD_TAG_FIELD, SVD_FIELD},
    {SVD_FIELD, SVD_TAG_ENUMERATED_VALUES, SVD_ENUMS},
    {SVD_ENUMS, SVD_TAG_ENUMERATED_VALUE, SVD_VALUE},
    /* the index names of a register, cluster or peripheral array */
    {SVD_REG, SVD_TAG_DIM_ARRAY_INDEX, SVD_DIM_ENUM},
    {SVD_CLUSTER, SVD_TAG_DIM_ARRAY_INDEX, SVD_DIM_ENUM},
    {SVD_PERIPH, SVD_TAG_DIM_ARRAY_INDEX, SVD_DIM_ENUM},
    {SVD_DIM_ENUM, SVD_TAG_ENUMERATED_VALUE, SVD_VALUE},
};

/* child_rules as a table by parent and tag, looked up once an element. */
static void child_kinds_init(struct parser *p)
{
    for (size_t k = 0; k < SVD_KIND__COUNT; k++)
        for (size_t t = 0; t < CHILD_TAGS; t++)
            p->child_kinds[k][t] = CHILD_NONE;
    for (size_t i = 0; i < ARRAY_SIZE(child_rules); i++)
        p->child_kinds[child_rules[i].parent][child_rules[i].tag - CHILD_TAG_FIRST] =
            (signed char)child_rules[i].kind;
}

/* The child kind an element of 'parent' makes, or -1; 'wrapper': its children are read instead. */
static int child_kind(const struct parser *p, enum svd_kind parent, enum svd_tag tag,
                      bool *wrapper)
{
    int kind = p->child_kinds[parent][tag - CHILD_TAG_FIRST];
    *wrapper = kind == CHILD_WRAPPER;
    return kind == CHILD_NONE ? -1 : kind;
}

/* What element 'name' is inside object 'o' (inside its wrapper 'in' when not NULL). */
static struct frame child_frame(struct parser *p, struct svd_node *o, const char *name,
                                const char *in, int nattrs, const xmlChar **attrs)
{
    struct frame f = {.kind = F_SKIP, .o = o, .name = name, .pos = here(p)};
    enum svd_tag tag = tag_of(p, (const xmlChar *)name);
    bool wrapper = false;
    int t = tag <= SVD_TAG__TEXT_END ? (int)tag : -1;
    int kind = t < 0 ? child_kind(p, o->kind, tag, &wrapper) : -1; /* a text makes no object */
    if (wrapper && !in) {
        f.kind = F_WRAPPER;
    } else if (kind >= 0 && !wrapper) {
        f.kind = F_NODE;
        f.o = node_new(p, (enum svd_kind)kind, f.pos, o);
        if (nattrs)
            derived_from(p, f.o, nattrs, attrs);
        if (kind == SVD_REG || kind == SVD_CLUSTER)
            o->own_regs = true;
    } else if (t >= 0 && !in) {
        if (o->text[t])
            diag_held_add(&p->held, DIAG_SVD_DUPLICATE, f.pos,
                          "<%s> is given twice in this <%s>: the later one is taken",
                          svd_text_tag(t), svd_kind_name(o->kind));
        f.kind = F_TEXT;
        f.t = t;
    } else if (tag == SVD_TAG_WRITE_CONSTRAINT && !in &&
               (o->kind == SVD_REG || o->kind == SVD_FIELD)) {
        f.kind = F_WC;
    } else if (!ignored(name)) {
        diag_held_add(&p->held, DIAG_SVD_UNKNOWN, f.pos,
                      "element <%s> is not part of an SVD <%s>%s%s%s: ignored", name,
                      svd_kind_name(o->kind), in ? " (in <" : "", in ? in : "", in ? ">)" : "");
    }
    return f;
}

/* What element 'name' is inside the element open in 'up'. */
static struct frame frame_in(struct parser *p, const struct frame *up, const char *name,
                             int nattrs, const xmlChar **attrs)
{
    if (up->kind == F_NODE || up->kind == F_WRAPPER)
        return child_frame(p, up->o, name, up->kind == F_WRAPPER ? up->name : NULL, nattrs, attrs);
    struct frame f = {.kind = F_SKIP, .o = up->o, .name = name, .pos = here(p)};
    switch (up->kind) {
    case F_NODE:
    case F_WRAPPER:
        return f; /* above */
    case F_WC:
        if (strcmp(name, "writeAsRead") == 0)
            f.kind = F_WC_TEXT, f.t = WC_PART_AS_READ;
        else if (strcmp(name, "useEnumeratedValues") == 0)
            f.kind = F_WC_TEXT, f.t = WC_PART_ENUMERATED;
        else if (strcmp(name, "range") == 0)
            f.kind = F_WC_RANGE, up->o->wc.kind = WC_RANGE;
        return f;
    case F_WC_RANGE:
        if (strcmp(name, "minimum") == 0)
            f.kind = F_WC_TEXT, f.t = WC_PART_MIN;
        else if (strcmp(name, "maximum") == 0)
            f.kind = F_WC_TEXT, f.t = WC_PART_MAX;
        return f;
    case F_TEXT:
    case F_WC_TEXT:
    case F_INNER:
        f.kind = F_INNER;
        return f;
    case F_SKIP:
        return f;
    }
    return f;
}

/*
 * An element with a namespace prefix (<v:fields>) is not SVD's, whatever its local name:
 * CMSIS-SVD.xsd has no target namespace, and svdconv, which reads names as written, meets an
 * element named "v:fields". (A default xmlns= on the device is read past, as svdconv does.)
 */
static struct frame prefixed_frame(struct parser *p, const struct frame *up, const char *prefix,
                                   const char *name)
{
    struct frame f = {.kind = F_SKIP, .o = up->o, .name = name, .pos = here(p)};
    if (up->kind == F_NODE || up->kind == F_WRAPPER)
        diag_held_add(&p->held, DIAG_SVD_UNKNOWN, f.pos,
                      "element <%s:%s> is not part of an SVD <%s> (SVD's elements have no "
                      "namespace prefix): ignored",
                      prefix, name, svd_kind_name(up->o->kind));
    return f;
}

static void on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                     const xmlChar *uri, int nns, const xmlChar **ns, int nattrs, int ndefaulted,
                     const xmlChar **attrs)
{
    (void)uri, (void)nns, (void)ns, (void)ndefaulted;
    struct parser *p = ctx;
    const char *name = (const char *)localname;
    struct frame f;
    if (!p->depth) { /* the root: the device (svd_is_device() said so) */
        f = (struct frame){.kind = F_NODE, .name = name, .pos = here(p)};
        f.o = p->rd->device = node_new(p, SVD_DEVICE, f.pos, NULL);
        if (nattrs)
            derived_from(p, f.o, nattrs, attrs);
    } else if (prefix) {
        f = prefixed_frame(p, &p->stack[p->depth - 1], (const char *)prefix, name);
    } else {
        f = frame_in(p, &p->stack[p->depth - 1], name, nattrs, attrs);
    }
    if (f.kind == F_TEXT || f.kind == F_WC_TEXT)
        buf_reset(&p->text);
    if (p->depth == p->cap)
        p->stack = xgrow(p->stack, &p->cap, p->depth + 1, sizeof(*p->stack));
    p->stack[p->depth++] = f;
}

static void on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri)
{
    (void)localname, (void)prefix, (void)uri;
    struct parser *p = ctx;
    if (!p->depth)
        return;
    const struct frame *f = &p->stack[--p->depth];
    if (f->kind == F_TEXT) {
        f->o->text[f->t] = util_fold_space(p->rd->a, p->text.s, p->text.len, NULL);
        f->o->tpos[f->t] = f->pos;
    } else if (f->kind == F_WC_TEXT) {
        wc_part_end(p, f, util_fold_space(p->rd->a, p->text.s, p->text.len, NULL));
    }
}

/* Text and CDATA sections (XML_PARSE_NOCDATA): kept where a text is being collected. */
static void on_text(void *ctx, const xmlChar *s, int len)
{
    struct parser *p = ctx;
    if (p->depth && len > 0) {
        enum frame_kind k = p->stack[p->depth - 1].kind;
        if (k == F_TEXT || k == F_WC_TEXT || k == F_INNER)
            buf_addn(&p->text, (const char *)s, (size_t)len);
    }
}

/* libxml2's first error of the document, in our format (the rest follow from it). */
static void on_error(void *ctx, xmlErrorPtr e)
{
    struct parser *p = ctx;
    if (p->failed || e->level < XML_ERR_ERROR)
        return;
    p->failed = true;
    char msg[256];
    snprintf(msg, sizeof(msg), "%s", e->message ? e->message : "not well-formed");
    size_t n = strlen(msg);
    while (n > 0 && util_is_space(msg[n - 1]))
        msg[--n] = '\0';
    if (msg[0] >= 'A' && msg[0] <= 'Z' && !(msg[1] >= 'A' && msg[1] <= 'Z'))
        msg[0] = (char)(msg[0] - 'A' + 'a');
    struct srcpos at = {p->rd->file, e->line > 0 ? (uint32_t)e->line : 0,
                        e->int2 > 0 ? (uint32_t)e->int2 : 0};
    diag_report(p->rd->dg, DIAG_XML_SYNTAX, at, "%s", msg);
}

/* The line of byte 'off' of 'text'. */
static uint32_t line_at(const char *text, size_t off)
{
    uint32_t line = 1;
    for (size_t i = 0; i < off; i++)
        line += text[i] == '\n';
    return line;
}

/* A DTD could declare entities (and expand them without bound): refused before parsing. One
 * pass over the '!'s (far fewer than the '<'s of every tag) for the "<!"s; a <!DOCTYPE> anywhere
 * is named before an <!ENTITY>. */
static bool refuse_dtd(struct parser *p, const char *text, size_t len)
{
    static const char doctype[] = "<!DOCTYPE", entity[] = "<!ENTITY";
    const char *word = NULL, *at = NULL, *end = text + len;
    for (const char *bang = memchr(text, '!', len); bang;
         bang = memchr(bang + 1, '!', (size_t)(end - bang - 1))) {
        if (bang == text || bang[-1] != '<')
            continue;
        const char *s = bang - 1;
        size_t left = (size_t)(end - s);
        if (left >= sizeof(doctype) - 1 && memcmp(s, doctype, sizeof(doctype) - 1) == 0) {
            word = doctype, at = s;
            break;
        }
        if (!at && left >= sizeof(entity) - 1 && memcmp(s, entity, sizeof(entity) - 1) == 0)
            word = entity, at = s;
    }
    if (!word)
        return false;
    struct srcpos pos = {p->rd->file, line_at(text, (size_t)(at - text)), 0};
    diag_report(p->rd->dg, DIAG_XML_UNSAFE, pos,
                "'%s' refused: an SVD file needs no DTD, and a DTD can declare entities", word);
    return true;
}

/* The parse itself: libxml2 calls on_start, on_end and on_text as it goes; 0 when well-formed. */
static int parse_events(struct parser *p, const char *text, size_t len)
{
    p->ctxt = xmlCreateMemoryParserCtxt(text, (int)len);
    if (!p->ctxt) {
        diag_report(p->rd->dg, DIAG_XML_SYNTAX, (struct srcpos){p->rd->file, 0, 0},
                    "the file is not well-formed XML");
        return -1;
    }
    xmlSAXHandler *sax = p->ctxt->sax;
    memset(sax, 0, sizeof(*sax));
    sax->initialized = XML_SAX2_MAGIC;
    sax->startElementNs = on_start;
    sax->endElementNs = on_end;
    sax->characters = on_text;
    sax->ignorableWhitespace = on_text;
    sax->serror = on_error;
    p->ctxt->userData = p;
    xmlCtxtUseOptions(p->ctxt, XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES);
    xmlParseDocument(p->ctxt);
    bool ok = p->ctxt->wellFormed && !p->failed;
    xmlFreeParserCtxt(p->ctxt);
    p->ctxt = NULL;
    if (!ok && !p->failed)
        diag_report(p->rd->dg, DIAG_XML_SYNTAX, (struct srcpos){p->rd->file, 0, 0},
                    "the file is not well-formed XML");
    return ok ? 0 : -1;
}

int svd_parse(struct svd_reader *rd, const char *text, size_t len)
{
    struct parser p = {.rd = rd, .text = BUF_INIT};
    if (refuse_dtd(&p, text, len))
        return -1;
    if (len > (size_t)INT32_MAX) {
        diag_report(rd->dg, DIAG_XML_LIMIT, (struct srcpos){rd->file, 0, 0},
                    "the file is larger than 2 GiB");
        return -1;
    }
    svd_tags_init(&p.tags);
    child_kinds_init(&p);
    int rc = parse_events(&p, text, len);
    if (rc == 0)
        diag_held_flush(&p.held, rd->dg, 0);
    else
        rd->device = NULL;
    diag_held_release(&p.held);
    svd_tags_release(&p.tags);
    free(p.stack);
    buf_release(&p.text);
    return rc;
}

/* The first 'w' in text[0, len), or NULL. */
static const char *memmem_text(const char *text, size_t len, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(text + i, w, n) == 0)
            return text + i;
    return NULL;
}

bool svd_is_device(const char *text, size_t len)
{
    /* the first element's name, past the declaration, comments and processing instructions */
    size_t i = 0;
    while (i < len) {
        if (util_is_space(text[i])) {
            i++;
        } else if (len - i >= 4 && memcmp(text + i, "<!--", 4) == 0) {
            const char *e = memmem_text(text + i, len - i, "-->");
            if (!e)
                return false;
            i = (size_t)(e - text) + 3;
        } else if (len - i >= 2 && memcmp(text + i, "<?", 2) == 0) {
            const char *e = memmem_text(text + i, len - i, "?>");
            if (!e)
                return false;
            i = (size_t)(e - text) + 2;
        } else if (len - i >= 9 && memcmp(text + i, "<!DOCTYPE", 9) == 0) {
            /* refused by svd_parse(), with a message that says so */
            const char *e = memmem_text(text + i, len - i, "<device");
            if (!e)
                return false;
            i = (size_t)(e - text);
        } else if (len - i >= 3 && (unsigned char)text[i] == 0xEF &&
                   (unsigned char)text[i + 1] == 0xBB && (unsigned char)text[i + 2] == 0xBF) {
            i += 3;
        } else {
            break;
        }
    }
    return len - i > 7 && memcmp(text + i, "<device", 7) == 0 &&
           (util_is_space(text[i + 7]) || text[i + 7] == '>');
}
