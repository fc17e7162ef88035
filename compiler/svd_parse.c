/*
 * svd_parse - a CMSIS-SVD document into a tree of svd_node (svd_int.h).
 *
 * Lenient about order (the XSD's sequences are not enforced: Nordic and NXP
 * files break them and every reader accepts them), strict about what is
 * there: an element SVD does not define is a warning that names what is
 * ignored. The document is read whole (derivedFrom may point forward), with
 * network access off and no DTD: a <!DOCTYPE> or <!ENTITY> is refused
 * before parsing, as xmlload.c refuses them in a regspec.
 */
#include "svd.h"
#include "svd_int.h"
#include "svd_tag.h"
#include "util.h"

#include <errno.h>
#include <libxml/parser.h>
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

struct parser {
    struct svd_reader *rd;
    bool failed;
    struct svd_tags tags; /* set up for the walk */
};

static struct srcpos pos_of(const struct parser *p, const xmlNode *n)
{
    long line = xmlGetLineNo(n);
    return (struct srcpos){p->rd->file, line > 0 ? (uint32_t)line : 0, 0};
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* 'len' bytes of 's', blanks folded to one space and trimmed, owned by the arena. */
static const char *fold_blanks(struct parser *p, const char *s, size_t len)
{
    char *out = arena_alloc_bytes(p->rd->a, len + 1), *q = out;
    bool blank = false;
    for (const char *end = s + len; s < end; s++) {
        if (is_space(*s)) {
            blank = q != out;
            continue;
        }
        if (blank)
            *q++ = ' ';
        blank = false;
        *q++ = *s;
    }
    *q = '\0';
    return out;
}

/* The element's text, blanks folded to one space and trimmed, owned by the arena. */
static const char *text_of(struct parser *p, xmlNode *n)
{
    const xmlNode *c = n->children;
    if (!c)
        return "";
    if (!c->next && c->type == XML_TEXT_NODE && c->content) /* the usual shape: read in place */
        return fold_blanks(p, (const char *)c->content, strlen((const char *)c->content));
    xmlChar *v = xmlNodeGetContent(n);
    const char *out = v ? fold_blanks(p, (const char *)v, strlen((const char *)v)) : "";
    xmlFree(v);
    return out;
}

static bool named(const xmlNode *n, const char *name)
{
    return strcmp((const char *)n->name, name) == 0;
}

static struct svd_node *node_new(struct parser *p, enum svd_kind kind, xmlNode *n,
                                 struct svd_node *parent)
{
    struct svd_node *o = arena_zalloc(p->rd->a, sizeof(*o));
    o->kind = kind;
    o->pos = pos_of(p, n);
    o->parent = parent;
    xmlChar *d = n->properties ? xmlGetProp(n, (const xmlChar *)"derivedFrom") : NULL;
    if (d) {
        o->derived_from = arena_strdup(p->rd->a, (const char *)d);
        o->derived_pos = o->pos;
        xmlFree(d);
    }
    if (parent)
        arena_push(p->rd->a, (void ***)&parent->kids, &parent->nkids, &parent->cap, o);
    return o;
}

static void read_node(struct parser *p, struct svd_node *o, xmlNode *n);

/* A number of <writeConstraint><range>: decimal or 0x hex, as elsewhere in SVD. */
static bool wc_number(struct parser *p, xmlNode *n, uint64_t *v)
{
    const char *t = text_of(p, n);
    char *end;
    errno = 0;
    *v = strtoull(t, &end, 0);
    if (!*t || *end || errno || t[0] == '-') {
        diag_report(p->rd->dg, DIAG_BAD_NUMBER, pos_of(p, n), "'%s' of <%s> is not a number", t,
                    (const char *)n->name);
        return false;
    }
    return true;
}

/* <writeConstraint> <writeAsRead>true</...> | <useEnumeratedValues>true</...> |
 * <range><minimum/><maximum/></range> */
static void read_write_constraint(struct parser *p, struct svd_node *o, xmlNode *n)
{
    for (xmlNode *k = n->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        if (named(k, "writeAsRead") && strcmp(text_of(p, k), "true") == 0)
            o->wc.kind = WC_WRITE_AS_READ;
        else if (named(k, "useEnumeratedValues") && strcmp(text_of(p, k), "true") == 0)
            o->wc.kind = WC_ENUMERATED;
        else if (named(k, "range")) {
            o->wc.kind = WC_RANGE;
            for (xmlNode *r = k->children; r; r = r->next) {
                if (r->type == XML_ELEMENT_NODE && named(r, "minimum"))
                    wc_number(p, r, &o->wc.min);
                else if (r->type == XML_ELEMENT_NODE && named(r, "maximum"))
                    wc_number(p, r, &o->wc.max);
            }
        }
    }
}

/* Elements SVD defines that the model does not need: skipped without a word. */
static bool ignored(const xmlNode *k)
{
    static const char *const names[] = {"vendorExtensions", "sauRegionsConfig", "dimArrayIndex",
                                        "dimableIdentifierType"};
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        if (named(k, names[i]))
            return true;
    return false;
}

/* The child kind an element of 'parent' makes, or -1; 'wrapper': its children are read instead. */
static int child_kind(enum svd_kind parent, enum svd_tag tag, bool *wrapper)
{
    static const struct {
        enum svd_kind parent;
        enum svd_tag tag;
        int kind; /* -1: a wrapper of the kinds below it */
    } rules[] = {
        {SVD_DEVICE, SVD_TAG_CPU, SVD_CPU},
        {SVD_DEVICE, SVD_TAG_PERIPHERALS, -1},
        {SVD_DEVICE, SVD_TAG_PERIPHERAL, SVD_PERIPH},
        {SVD_PERIPH, SVD_TAG_REGISTERS, -1},
        {SVD_PERIPH, SVD_TAG_REGISTER, SVD_REG},
        {SVD_PERIPH, SVD_TAG_CLUSTER, SVD_CLUSTER},
        {SVD_PERIPH, SVD_TAG_INTERRUPT, SVD_INTERRUPT},
        {SVD_PERIPH, SVD_TAG_ADDRESS_BLOCK, SVD_ADDR_BLOCK},
        {SVD_CLUSTER, SVD_TAG_REGISTER, SVD_REG},
        {SVD_CLUSTER, SVD_TAG_CLUSTER, SVD_CLUSTER},
        {SVD_REG, SVD_TAG_FIELDS, -1},
        {SVD_REG, SVD_TAG_FIELD, SVD_FIELD},
        {SVD_FIELD, SVD_TAG_ENUMERATED_VALUES, SVD_ENUMS},
        {SVD_ENUMS, SVD_TAG_ENUMERATED_VALUE, SVD_VALUE},
        /* the index names of a register array; of a peripheral or cluster: skipped (ignored()) */
        {SVD_REG, SVD_TAG_DIM_ARRAY_INDEX, SVD_DIM_ENUM},
        {SVD_DIM_ENUM, SVD_TAG_ENUMERATED_VALUE, SVD_VALUE},
    };
    for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
        if (rules[i].parent == parent && rules[i].tag == tag) {
            *wrapper = rules[i].kind < 0;
            return rules[i].kind;
        }
    }
    return -1;
}

/* One child element 'k' of 'o' (of wrapper 'in' when not NULL). */
static void read_child(struct parser *p, struct svd_node *o, xmlNode *k, const xmlNode *in)
{
    enum svd_tag tag = svd_tag_of(&p->tags, (const char *)k->name);
    bool wrapper = false;
    int kind = child_kind(o->kind, tag, &wrapper);
    int t = tag <= SVD_TAG__TEXT_END ? (int)tag : -1;
    if (wrapper && !in) {
        for (xmlNode *c = k->children; c; c = c->next)
            if (c->type == XML_ELEMENT_NODE)
                read_child(p, o, c, k);
        return;
    }
    if (kind >= 0 && !wrapper) {
        struct svd_node *c = node_new(p, (enum svd_kind)kind, k, o);
        if (kind == SVD_REG || kind == SVD_CLUSTER)
            o->own_regs = true;
        read_node(p, c, k);
    } else if (t >= 0 && !in) {
        if (o->text[t])
            diag_report(p->rd->dg, DIAG_SVD_DUPLICATE, pos_of(p, k),
                        "<%s> is given twice in this <%s>: the later one is taken", svd_text_tag(t),
                        svd_kind_name(o->kind));
        o->text[t] = text_of(p, k);
        o->tpos[t] = pos_of(p, k);
    } else if (tag == SVD_TAG_WRITE_CONSTRAINT && !in &&
               (o->kind == SVD_REG || o->kind == SVD_FIELD)) {
        read_write_constraint(p, o, k);
    } else if (!ignored(k)) {
        diag_report(p->rd->dg, DIAG_SVD_UNKNOWN, pos_of(p, k),
                    "element <%s> is not part of an SVD <%s>%s%s%s: ignored", (const char *)k->name,
                    svd_kind_name(o->kind), in ? " (in <" : "", in ? (const char *)in->name : "",
                    in ? ">)" : "");
    }
}

static void read_node(struct parser *p, struct svd_node *o, xmlNode *n)
{
    for (xmlNode *k = n->children; k; k = k->next)
        if (k->type == XML_ELEMENT_NODE)
            read_child(p, o, k, NULL);
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
    while (n > 0 && is_space(msg[n - 1]))
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
 * pass over the '<'s; a <!DOCTYPE> anywhere is named before an <!ENTITY>. */
static bool refuse_dtd(struct parser *p, const char *text, size_t len)
{
    static const char doctype[] = "<!DOCTYPE", entity[] = "<!ENTITY";
    const char *word = NULL, *at = NULL, *end = text + len;
    for (const char *s = memchr(text, '<', len); s; s = memchr(s + 1, '<', (size_t)(end - s - 1))) {
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

int svd_parse(struct svd_reader *rd, const char *text, size_t len)
{
    struct parser p = {.rd = rd};
    if (refuse_dtd(&p, text, len))
        return -1;
    if (len > (size_t)INT32_MAX) {
        diag_report(rd->dg, DIAG_XML_LIMIT, (struct srcpos){rd->file, 0, 0},
                    "the file is larger than 2 GiB");
        return -1;
    }
    xmlSetStructuredErrorFunc(&p, on_error);
    /* COMPACT: short texts kept inside their node, a malloc and a free fewer each; the tree is
     * only read */
    int options = XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES | XML_PARSE_NOBLANKS |
                  XML_PARSE_COMPACT;
    xmlDoc *doc = xmlReadMemory(text, (int)len, NULL, NULL, options);
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (!doc || p.failed) {
        if (!p.failed)
            diag_report(rd->dg, DIAG_XML_SYNTAX, (struct srcpos){rd->file, 0, 0},
                        "the file is not well-formed XML");
        xmlFreeDoc(doc);
        return -1;
    }
    xmlNode *root = xmlDocGetRootElement(doc);
    svd_tags_init(&p.tags);
    rd->device = node_new(&p, SVD_DEVICE, root, NULL);
    read_node(&p, rd->device, root);
    svd_tags_release(&p.tags);
    xmlFreeDoc(doc);
    return 0;
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
        if (is_space(text[i])) {
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
           (is_space(text[i + 7]) || text[i + 7] == '>');
}
