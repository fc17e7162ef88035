/*
 * xmlschema - the built-in schema (regspec/regspec.rng) read into the table
 * the loader validates with (xmlload.c).
 *
 * The schema is in a simple shape, and the table holds exactly that shape:
 * each element has attributes (required, optional, or in <optional> groups
 * that go together; any text, or one of a list of <value>s), then at most
 * one pattern of child elements, each child allowed any number of times
 * (under <zeroOrMore>) or at most once (under <optional>), in any order;
 * and maybe text. No element is defined twice. A pattern outside that shape
 * (<oneOrMore>, <group>, <data>, a required child, children in a sequence,
 * whose order would matter...) makes xmlload_schema_new() fail, naming it:
 * the loader never checks part of what the schema says.
 */
#include "xmlschema.h"

#include "util.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* regspec/regspec.rng, compiled in by tools/embed.c (build/gen/schema.c). */
extern const char regspec_schema[];
extern const size_t regspec_schema_len;

struct rng {
    struct xmlload_schema *sc;
    xmlNode *grammar;
    size_t cap;      /* of sc->elems */
    char bad[160];   /* the first pattern the table cannot hold */
};

/* Where a pattern stands in its element. */
struct rng_at {
    bool optional;   /* under <optional>, <zeroOrMore> or a <choice> */
    bool many;       /* under <zeroOrMore> */
    bool choice;     /* in a <choice> not under a <zeroOrMore> inside it */
    unsigned group;  /* the attribute group (<optional>) it is in; 0: none */
};

enum { RNG_MAX_DEPTH = 16 };

static void bad(struct rng *r, const char *what, const xmlNode *n)
{
    if (!r->bad[0])
        snprintf(r->bad, sizeof(r->bad), "%s (regspec.rng line %ld)", what, xmlGetLineNo(n));
}

static bool rng_is(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The attribute 'name' of pattern 'n', in the arena; NULL when absent. */
static const char *rng_attr(struct rng *r, xmlNode *n, const char *name)
{
    xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)name);
    const char *s = v ? arena_strdup(&r->sc->a, (const char *)v) : NULL;
    xmlFree(v);
    return s;
}

/* The <define> a <ref> names. */
static xmlNode *rng_define(struct rng *r, xmlNode *ref)
{
    xmlChar *name = xmlGetNoNsProp(ref, (const xmlChar *)"name");
    xmlNode *def = NULL;
    for (xmlNode *c = r->grammar->children; c && name && !def; c = c->next) {
        xmlChar *v = rng_is(c, "define") ? xmlGetNoNsProp(c, (const xmlChar *)"name") : NULL;
        if (v && xmlStrEqual(v, name))
            def = c;
        xmlFree(v);
    }
    xmlFree(name);
    if (!def)
        bad(r, "a <ref> to no <define>", ref);
    return def;
}

/* Pattern 'n' holds an element (following refs, not into elements). */
static bool has_element(struct rng *r, xmlNode *n, int depth)
{
    if (rng_is(n, "element"))
        return true;
    if (rng_is(n, "attribute") || depth > RNG_MAX_DEPTH)
        return false;
    if (rng_is(n, "ref")) {
        xmlNode *def = rng_define(r, n);
        return def && has_element(r, def, depth + 1);
    }
    for (xmlNode *c = n->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && has_element(r, c, depth + 1))
            return true;
    return false;
}

/* The values an attribute's pattern 'n' lists; a <text/> among them allows any. */
static void rng_values(struct rng *r, xmlNode *n, struct schema_attr *at, size_t *nv, bool *any,
                       int depth)
{
    for (xmlNode *c = n->children; c && depth <= RNG_MAX_DEPTH; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (rng_is(c, "value") && !xmlHasProp(c, (const xmlChar *)"type")) {
            xmlChar *t = xmlNodeGetContent(c);
            if (*nv == SCHEMA_MAX_VALUES)
                bad(r, "more values than SCHEMA_MAX_VALUES", c);
            else
                at->values[(*nv)++] = arena_strdup(&r->sc->a, t ? (const char *)t : "");
            xmlFree(t);
        } else if (rng_is(c, "text")) {
            *any = true;
        } else if (rng_is(c, "choice")) {
            rng_values(r, c, at, nv, any, depth + 1);
        } else if (rng_is(c, "ref")) {
            xmlNode *def = rng_define(r, c);
            if (def)
                rng_values(r, def, at, nv, any, depth + 1);
        } else {
            bad(r, "an attribute pattern other than text, <value> and <choice>", c);
        }
    }
}

static void rng_add_attr(struct rng *r, struct schema_elem *e, xmlNode *n, struct rng_at at)
{
    const char *name = rng_attr(r, n, "name");
    if (!name || at.choice || at.many) {
        bad(r, !name ? "an attribute named by a pattern" : "a choice or repetition of attributes", n);
        return;
    }
    if (e->nattrs == SCHEMA_MAX_ATTRS) {
        bad(r, "more attributes than SCHEMA_MAX_ATTRS", n);
        return;
    }
    struct schema_attr *a = &e->attrs[e->nattrs++];
    a->name = name;
    a->required = !at.optional;
    a->group = at.group;
    size_t nv = 0;
    bool any = n->children == NULL;
    rng_values(r, n, a, &nv, &any, 0);
    if (any)
        a->values[0] = NULL;
}

static void rng_add_child(struct rng *r, struct schema_elem *e, xmlNode *n, struct rng_at at)
{
    const char *name = rng_attr(r, n, "name");
    if (!name || !at.optional || (at.choice && !at.many)) {
        bad(r, !name ? "an element named by a pattern"
                     : "a required element, or a choice of elements not repeated",
            n);
        return;
    }
    if (e->nchildren == SCHEMA_MAX_CHILDREN || (!at.many && e->nonce == SCHEMA_MAX_ONCE)) {
        bad(r, "more children than SCHEMA_MAX_CHILDREN or SCHEMA_MAX_ONCE", n);
        return;
    }
    if (schema_child_find(e, name)) {
        bad(r, "a child allowed by two patterns", n);
        return;
    }
    e->children[e->nchildren++] = (struct schema_child){name, 0, at.many ? -1 : (int)e->nonce++};
}

/*
 * The attributes, children and text of an element's pattern 'n' (following
 * refs, not into child elements). 'seq': n's children are a sequence, in
 * which only one may hold elements (else their order would matter).
 */
static void rng_collect(struct rng *r, xmlNode *n, struct schema_elem *e, struct rng_at at, bool seq,
                        int depth)
{
    if (depth > RNG_MAX_DEPTH) {
        bad(r, "patterns nested too deep", n);
        return;
    }
    unsigned with_elements = 0;
    for (xmlNode *c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (seq && has_element(r, c, 0) && ++with_elements > 1)
            bad(r, "child elements in a sequence", c);
        if (rng_is(c, "element")) {
            rng_add_child(r, e, c, at);
        } else if (rng_is(c, "attribute")) {
            rng_add_attr(r, e, c, at);
        } else if (rng_is(c, "text")) {
            e->text = true;
        } else if (rng_is(c, "empty")) {
        } else if (rng_is(c, "ref")) {
            xmlNode *def = rng_define(r, c);
            if (def)
                rng_collect(r, def, e, at, seq, depth + 1);
        } else if (rng_is(c, "optional")) {
            if (e->ngroups + 1 == SCHEMA_MAX_GROUPS) {
                bad(r, "more <optional>s than SCHEMA_MAX_GROUPS", c);
                continue;
            }
            e->group_parent[++e->ngroups] = at.group;
            struct rng_at in = {true, at.many, false, e->ngroups};
            rng_collect(r, c, e, in, true, depth + 1);
        } else if (rng_is(c, "zeroOrMore")) {
            rng_collect(r, c, e, (struct rng_at){true, true, false, 0}, true, depth + 1);
        } else if (rng_is(c, "choice")) {
            rng_collect(r, c, e, (struct rng_at){true, at.many, true, 0}, false, depth + 1);
        } else if (rng_is(c, "interleave")) {
            rng_collect(r, c, e, at, false, depth + 1);
        } else {
            char what[64];
            snprintf(what, sizeof(what), "the pattern <%.40s>", (const char *)c->name);
            bad(r, what, c);
        }
    }
}

/* Every <element> under 'n', in document order. */
static void rng_elements(struct rng *r, xmlNode *n)
{
    for (xmlNode *c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (rng_is(c, "element")) {
            const char *name = rng_attr(r, c, "name");
            if (name && schema_elem_find(r->sc, name)) {
                bad(r, "an element defined twice", c);
            } else if (name) {
                struct xmlload_schema *sc = r->sc;
                if (sc->nelems == r->cap)
                    sc->elems = xgrow(sc->elems, &r->cap, sc->nelems + 1, sizeof(*sc->elems));
                struct schema_elem *e = &sc->elems[sc->nelems++];
                memset(e, 0, sizeof(*e));
                e->name = name;
                rng_collect(r, c, e, (struct rng_at){0}, true, 0);
            }
        }
        rng_elements(r, c);
    }
}

/* The bits of element e's attributes (struct schema_elem), from what they say one by one. */
static void attr_masks(struct schema_elem *e)
{
    for (size_t i = 0; i < e->nattrs; i++) {
        const struct schema_attr *at = &e->attrs[i];
        uint64_t bit = UINT64_C(1) << i;
        e->required |= at->required ? bit : 0;
        e->listed |= at->values[0] ? bit : 0;
        e->grouped |= at->group ? bit : 0;
        for (unsigned g = at->group; g; g = e->group_parent[g])
            for (size_t k = 0; k < e->nattrs; k++)
                e->needs[i] |= e->attrs[k].group == g ? UINT64_C(1) << k : 0;
    }
}

/* Each child's entry, now that every element has one; each element's attribute bits. */
static void rng_link(struct rng *r)
{
    struct xmlload_schema *sc = r->sc;
    for (size_t i = 0; i < sc->nelems; i++) {
        attr_masks(&sc->elems[i]);
        for (size_t k = 0; k < sc->elems[i].nchildren; k++) {
            struct schema_child *ch = &sc->elems[i].children[k];
            const struct schema_elem *e = schema_elem_find(sc, ch->name);
            if (e)
                ch->elem = (size_t)(e - sc->elems);
            else if (!r->bad[0])
                snprintf(r->bad, sizeof(r->bad), "element '%s' has no definition", ch->name);
        }
    }
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
        if (e->attrs[i].name[0] == name[0] && strcmp(e->attrs[i].name, name) == 0)
            return &e->attrs[i];
    return NULL;
}

const struct schema_child *schema_child_find(const struct schema_elem *e, const char *name)
{
    for (size_t i = 0; i < e->nchildren; i++)
        if (e->children[i].name[0] == name[0] && strcmp(e->children[i].name, name) == 0)
            return &e->children[i];
    return NULL;
}

bool schema_value_is(const char *v, const char *want)
{
    while (util_is_space(*v))
        v++;
    while (*v && *want) {
        if (util_is_space(*v)) {
            while (util_is_space(*v))
                v++;
            if (!*v)
                break;
            if (*want++ != ' ')
                return false;
        } else if (*v++ != *want++) {
            return false;
        }
    }
    while (util_is_space(*v))
        v++;
    return !*v && !*want;
}

struct xmlload_schema *xmlload_schema_new(struct diag *dg)
{
    return xmlload_schema_from(regspec_schema, regspec_schema_len, dg);
}

struct xmlload_schema *xmlload_schema_from(const char *rng, size_t len, struct diag *dg)
{
    struct xmlload_schema *sc = xcalloc(1, sizeof(*sc));
    sc->a = (struct arena)ARENA_INIT;
    struct rng r = {.sc = sc};
    xmlDocPtr doc = len > INT_MAX ? NULL
                                  : xmlReadMemory(rng, (int)len, NULL, NULL,
                                                  XML_PARSE_NONET | XML_PARSE_NOBLANKS);
    r.grammar = doc ? xmlDocGetRootElement(doc) : NULL;
    if (!r.grammar)
        snprintf(r.bad, sizeof(r.bad), "it is not well-formed XML");
    else
        rng_elements(&r, r.grammar);
    if (!r.bad[0])
        rng_link(&r);
    xmlFreeDoc(doc);
    if (r.bad[0]) {
        diag_report(dg, DIAG_SCHEMA, (struct srcpos){0, 0, 0},
                    "the built-in schema cannot be used: %s", r.bad);
        xmlload_schema_free(sc);
        return NULL;
    }
    return sc;
}

void xmlload_schema_free(struct xmlload_schema *sc)
{
    if (!sc)
        return;
    free(sc->elems);
    arena_release(&sc->a);
    free(sc);
}
