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
#include "util.h"

#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

static const char *const text_tags[] = {
#define SVD_X_(id, tag) tag,
    SVD_TEXT_LIST(SVD_X_)
#undef SVD_X_
};

const char *svd_text_tag(enum svd_text t)
{
    return text_tags[t];
}

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

/* The element's text, blanks folded to one space and trimmed, owned by the arena. */
static const char *text_of(struct parser *p, xmlNode *n)
{
    xmlChar *v = xmlNodeGetContent(n);
    const char *s = v ? (const char *)v : "";
    size_t len = strlen(s);
    char *out = arena_alloc(p->rd->a, len + 1), *q = out;
    bool blank = false;
    for (; *s; s++) {
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
    xmlChar *d = xmlGetProp(n, (const xmlChar *)"derivedFrom");
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
static int child_kind(enum svd_kind parent, const xmlNode *k, bool *wrapper)
{
    static const struct {
        enum svd_kind parent;
        const char *tag;
        int kind; /* -1: a wrapper of the kinds below it */
    } rules[] = {
        {SVD_DEVICE, "cpu", SVD_CPU},
        {SVD_DEVICE, "peripherals", -1},
        {SVD_DEVICE, "peripheral", SVD_PERIPH},
        {SVD_PERIPH, "registers", -1},
        {SVD_PERIPH, "register", SVD_REG},
        {SVD_PERIPH, "cluster", SVD_CLUSTER},
        {SVD_PERIPH, "interrupt", SVD_INTERRUPT},
        {SVD_PERIPH, "addressBlock", SVD_ADDR_BLOCK},
        {SVD_CLUSTER, "register", SVD_REG},
        {SVD_CLUSTER, "cluster", SVD_CLUSTER},
        {SVD_REG, "fields", -1},
        {SVD_REG, "field", SVD_FIELD},
        {SVD_FIELD, "enumeratedValues", SVD_ENUMS},
        {SVD_ENUMS, "enumeratedValue", SVD_VALUE},
        /* the index names of a register array; of a peripheral or cluster: skipped (ignored()) */
        {SVD_REG, "dimArrayIndex", SVD_DIM_ENUM},
        {SVD_DIM_ENUM, "enumeratedValue", SVD_VALUE},
    };
    for (size_t i = 0; i < ARRAY_SIZE(rules); i++) {
        if (rules[i].parent == parent && named(k, rules[i].tag)) {
            *wrapper = rules[i].kind < 0;
            return rules[i].kind;
        }
    }
    return -1;
}

static int text_index(const xmlNode *k)
{
    for (size_t i = 0; i < ARRAY_SIZE(text_tags); i++)
        if (named(k, text_tags[i]))
            return (int)i;
    return -1;
}

/* One child element 'k' of 'o' (of wrapper 'in' when not NULL). */
static void read_child(struct parser *p, struct svd_node *o, xmlNode *k, const xmlNode *in)
{
    bool wrapper = false;
    int kind = child_kind(o->kind, k, &wrapper);
    int t = text_index(k);
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
                        "<%s> is given twice in this <%s>: the later one is taken", text_tags[t],
                        svd_kind_name(o->kind));
        o->text[t] = text_of(p, k);
        o->tpos[t] = pos_of(p, k);
    } else if (named(k, "writeConstraint") && !in && (o->kind == SVD_REG || o->kind == SVD_FIELD)) {
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

/* A DTD could declare entities (and expand them without bound): refused before parsing. */
static bool refuse_dtd(struct parser *p, const char *text, size_t len)
{
    static const char *const words[] = {"<!DOCTYPE", "<!ENTITY"};
    for (size_t w = 0; w < ARRAY_SIZE(words); w++) {
        size_t n = strlen(words[w]);
        for (size_t i = 0; i + n <= len; i++) {
            if (text[i] == '<' && memcmp(text + i, words[w], n) == 0) {
                struct srcpos at = {p->rd->file, line_at(text, i), 0};
                diag_report(p->rd->dg, DIAG_XML_UNSAFE, at,
                            "'%s' refused: an SVD file needs no DTD, and a DTD can declare "
                            "entities",
                            words[w]);
                return true;
            }
        }
    }
    return false;
}

int svd_parse(struct svd_reader *rd, const char *text, size_t len)
{
    struct parser p = {rd, false};
    if (refuse_dtd(&p, text, len))
        return -1;
    if (len > (size_t)INT32_MAX) {
        diag_report(rd->dg, DIAG_XML_LIMIT, (struct srcpos){rd->file, 0, 0},
                    "the file is larger than 2 GiB");
        return -1;
    }
    xmlSetStructuredErrorFunc(&p, on_error);
    int options = XML_PARSE_NONET | XML_PARSE_NOCDATA | XML_PARSE_BIG_LINES | XML_PARSE_NOBLANKS;
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
    rd->device = node_new(&p, SVD_DEVICE, root, NULL);
    read_node(&p, rd->device, root);
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
