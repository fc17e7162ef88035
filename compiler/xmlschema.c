/*
 * xmlschema - the built-in schema (regspec/regspec.rng), compiled for
 * libxml2's validator and read into a table of what each element allows
 * (attributes and their values, children, text), which the loader's
 * readable messages and its own placement checks use (xmlload.c).
 */
#include "xmlschema.h"

#include "util.h"

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include <stdlib.h>
#include <string.h>

/* regspec/regspec.rng, compiled in by tools/embed.c (build/gen/schema.c). */
extern const char regspec_schema[];
extern const size_t regspec_schema_len;

static bool rng_is(xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static xmlNode *rng_define(xmlNode *grammar, const xmlChar *name)
{
    for (xmlNode *c = grammar->children; c; c = c->next) {
        if (!rng_is(c, "define"))
            continue;
        xmlChar *v = xmlGetNoNsProp(c, (const xmlChar *)"name");
        bool same = v && xmlStrEqual(v, name);
        xmlFree(v);
        if (same)
            return c;
    }
    return NULL;
}

static void rng_add_attr(struct xmlload_schema *sc, struct schema_elem *e, xmlNode *n, bool optional,
                         unsigned group)
{
    xmlChar *name = xmlGetNoNsProp(n, (const xmlChar *)"name");
    if (!name || e->nattrs == ARRAY_SIZE(e->attrs)) {
        e->truncated = e->truncated || name;
        xmlFree(name);
        return;
    }
    struct schema_attr *at = &e->attrs[e->nattrs++];
    at->name = arena_strdup(&sc->a, (const char *)name);
    at->required = !optional;
    at->group = group;
    xmlFree(name);
    size_t nv = 0;
    for (xmlNode *c = n->children; c; c = c->next) {
        xmlNode *list = rng_is(c, "choice") ? c->children : c;
        for (xmlNode *v = list; v; v = list == c ? NULL : v->next) {
            if (rng_is(v, "value") && nv + 1 < ARRAY_SIZE(at->values)) {
                xmlChar *t = xmlNodeGetContent(v);
                at->values[nv++] = arena_strdup(&sc->a, t ? (const char *)t : "");
                xmlFree(t);
            }
        }
    }
}

static void rng_add_child(struct xmlload_schema *sc, struct schema_elem *e, xmlNode *n)
{
    xmlChar *name = xmlGetNoNsProp(n, (const xmlChar *)"name");
    if (!name || e->nchildren == ARRAY_SIZE(e->children))
        e->children_truncated = true; /* an element named by a pattern, or too many */
    else
        e->children[e->nchildren++] = arena_strdup(&sc->a, (const char *)name);
    xmlFree(name);
}

/*
 * The attributes, child elements and text an element's pattern allows
 * (following refs, not into child elements).
 */
static void rng_collect(struct xmlload_schema *sc, xmlNode *grammar, xmlNode *n, struct schema_elem *e,
                        bool optional, unsigned group, int depth)
{
    if (depth > 16)
        return;
    for (xmlNode *c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (rng_is(c, "element")) {
            rng_add_child(sc, e, c);
        } else if (rng_is(c, "text") || rng_is(c, "data") || rng_is(c, "value")) {
            e->text = true;
        } else if (rng_is(c, "attribute")) {
            rng_add_attr(sc, e, c, optional, group);
        } else if (rng_is(c, "ref")) {
            xmlChar *name = xmlGetNoNsProp(c, (const xmlChar *)"name");
            xmlNode *def = name ? rng_define(grammar, name) : NULL;
            xmlFree(name);
            if (def)
                rng_collect(sc, grammar, def, e, optional, group, depth + 1);
        } else if (rng_is(c, "optional") && e->ngroups + 1 < ARRAY_SIZE(e->group_parent)) {
            e->group_parent[++e->ngroups] = group;
            rng_collect(sc, grammar, c, e, true, e->ngroups, depth + 1);
        } else {
            bool opt = rng_is(c, "optional") || rng_is(c, "zeroOrMore") || rng_is(c, "choice");
            rng_collect(sc, grammar, c, e, optional || opt, opt ? 0 : group, depth + 1);
        }
    }
}

static void rng_elements(struct xmlload_schema *sc, xmlNode *grammar, xmlNode *n, size_t *cap)
{
    for (xmlNode *c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (rng_is(c, "element")) {
            xmlChar *name = xmlGetNoNsProp(c, (const xmlChar *)"name");
            if (name) {
                if (sc->nelems == *cap)
                    sc->elems = xgrow(sc->elems, cap, sc->nelems + 1, sizeof(*sc->elems));
                struct schema_elem *e = &sc->elems[sc->nelems++];
                memset(e, 0, sizeof(*e));
                e->name = arena_strdup(&sc->a, (const char *)name);
                rng_collect(sc, grammar, c, e, false, 0, 0);
            }
            xmlFree(name);
        }
        rng_elements(sc, grammar, c, cap);
    }
}

/* Reads the attribute table of every element out of the compiled-in schema. */
static void schema_table(struct xmlload_schema *sc)
{
    xmlDocPtr doc = xmlReadMemory(regspec_schema, (int)regspec_schema_len, NULL, NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOBLANKS);
    if (!doc)
        return;
    size_t cap = 0;
    xmlNode *grammar = xmlDocGetRootElement(doc);
    if (grammar)
        rng_elements(sc, grammar, grammar, &cap);
    xmlFreeDoc(doc);
}

const struct schema_elem *schema_elem_find(const struct xmlload_schema *sc, const char *name)
{
    for (size_t i = 0; i < sc->nelems; i++)
        if (strcmp(sc->elems[i].name, name) == 0)
            return &sc->elems[i];
    return NULL;
}

const struct schema_attr *schema_attr_find(const struct schema_elem *e, const char *name)
{
    for (size_t i = 0; i < e->nattrs; i++)
        if (strcmp(e->attrs[i].name, name) == 0)
            return &e->attrs[i];
    return NULL;
}

bool schema_elem_has_child(const struct schema_elem *e, const char *name)
{
    for (size_t i = 0; i < e->nchildren; i++)
        if (strcmp(e->children[i], name) == 0)
            return true;
    return e->children_truncated;
}

/* What compiling the built-in schema reports goes to 'data', a struct diag. */
static void on_schema_error(void *data, xmlErrorPtr e)
{
    if (e->level != XML_ERR_WARNING)
        diag_report(data, DIAG_SCHEMA, (struct srcpos){0, 0, 0}, "built-in schema: %s",
                    e->message ? e->message : "?");
}

struct xmlload_schema *xmlload_schema_new(struct diag *dg)
{
    struct xmlload_schema *sc = xcalloc(1, sizeof(*sc));
    sc->a = (struct arena)ARENA_INIT;
    schema_table(sc);
    xmlRelaxNGParserCtxtPtr pc = xmlRelaxNGNewMemParserCtxt(regspec_schema, (int)regspec_schema_len);
    if (pc) {
        xmlRelaxNGSetParserStructuredErrors(pc, on_schema_error, dg);
        sc->rng = xmlRelaxNGParse(pc);
        xmlRelaxNGFreeParserCtxt(pc);
    }
    if (!sc->rng) {
        diag_report(dg, DIAG_SCHEMA, (struct srcpos){0, 0, 0},
                    "the built-in schema does not compile");
        xmlload_schema_free(sc);
        return NULL;
    }
    return sc;
}

void xmlload_schema_free(struct xmlload_schema *sc)
{
    if (!sc)
        return;
    xmlRelaxNGFree(sc->rng);
    free(sc->elems);
    arena_release(&sc->a);
    free(sc);
}
