/* jschema - the JSON Schema keywords the model's schema uses, checked over jansson (jschema.h). */
#include "jschema.h"

#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define PATH_MAX_LEN 320
#define MAX_PATTERNS 16

struct pattern {
    const char *text; /* borrowed from the schema */
    regex_t re;
};

struct ctx {
    json_t *root;
    struct jschema_errors *errs;
    unsigned quiet;   /* > 0 inside a oneOf/anyOf trial: errors are counted, not kept */
    bool bad_schema;  /* the schema uses what this validator does not take */
    struct pattern pats[MAX_PATTERNS];
    unsigned npats;
};

static const char *const notes[] = {"title", "description", "$schema", "$id", "default", NULL};
static const char *const keywords[] = {
    "$ref",  "type",    "properties", "required", "additionalProperties", "items", "minItems",
    "enum",  "const",   "minimum",    "maximum",  "pattern",              "oneOf", "anyOf",
    "allOf", "definitions", NULL};

static bool in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (strcmp(*list, s) == 0)
            return true;
    return false;
}

/* A fault of the schema: kept as the only message, validation stops counting on it. */
static int schema_fault(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int schema_fault(struct ctx *c, const char *fmt, ...)
{
    if (!c->bad_schema) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->errs->text[0], sizeof(c->errs->text[0]), fmt, ap);
        va_end(ap);
        c->bad_schema = true;
    }
    return 1;
}

/* One error at 'path'; returns 1 (the number of errors it adds). */
static int fail(struct ctx *c, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct ctx *c, const char *path, const char *fmt, ...)
{
    if (c->quiet || c->bad_schema)
        return 1;
    struct jschema_errors *e = c->errs;
    if (e->n < JSCHEMA_MAX_ERRORS) {
        char what[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof(what), fmt, ap);
        va_end(ap);
        snprintf(e->text[e->n], sizeof(e->text[e->n]), "%s: %s", path, what);
    }
    e->n++;
    return 1;
}

/* The value as JSON, cut at 40 characters ("..." added), for messages. */
static const char *show(json_t *v, char *buf, size_t len)
{
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    if (!s)
        return "?";
    if (strlen(s) > 40)
        snprintf(buf, len, "%.37s...", s);
    else
        snprintf(buf, len, "%s", s);
    free(s);
    return buf;
}

static const char *type_of(json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "object";
    case JSON_ARRAY:
        return "array";
    case JSON_STRING:
        return "string";
    case JSON_INTEGER:
        return "integer";
    case JSON_REAL:
        return "number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "boolean";
    default:
        return "null";
    }
}

static bool is_type(json_t *v, const char *t)
{
    if (strcmp(t, "number") == 0)
        return json_is_number(v);
    if (strcmp(t, "integer") == 0) /* draft-07: 1.0 is an integer */
        return json_is_integer(v) ||
               (json_is_real(v) && json_real_value(v) == (double)(long long)json_real_value(v));
    return strcmp(type_of(v), t) == 0;
}

/* The schema a "$ref" names: a JSON pointer into the root ("#/definitions/hex"). */
static json_t *resolve_ref(struct ctx *c, const char *ref)
{
    if (strncmp(ref, "#", 1) != 0)
        return NULL;
    json_t *at = c->root;
    for (const char *p = ref + 1; at && *p == '/';) {
        const char *end = strchr(p + 1, '/');
        size_t n = end ? (size_t)(end - p - 1) : strlen(p + 1);
        char key[128];
        if (n >= sizeof(key))
            return NULL;
        memcpy(key, p + 1, n);
        key[n] = '\0';
        at = json_object_get(at, key);
        p += n + 1;
    }
    return at;
}

/* 's' with its "$ref" followed (draft-07: a $ref's siblings are ignored); NULL when dangling. */
static json_t *deref(struct ctx *c, json_t *s)
{
    for (int hops = 0; json_is_object(s) && hops < 64; hops++) {
        json_t *ref = json_object_get(s, "$ref");
        if (!ref)
            return s;
        if (!json_is_string(ref) || !(s = resolve_ref(c, json_string_value(ref)))) {
            schema_fault(c, "schema: unresolved $ref %s",
                         json_is_string(ref) ? json_string_value(ref) : "(not a string)");
            return NULL;
        }
    }
    return s;
}

static int check(struct ctx *c, json_t *s, json_t *v, const char *path);

static bool types_accept(json_t *types, json_t *v)
{
    if (json_is_string(types))
        return is_type(v, json_string_value(types));
    size_t i;
    json_t *t;
    json_array_foreach(types, i, t) if (json_is_string(t) && is_type(v, json_string_value(t)))
        return true;
    return false;
}

/* "string or null" for a "type" keyword. */
static void types_text(json_t *types, char *buf, size_t len)
{
    if (json_is_string(types)) {
        snprintf(buf, len, "%s", json_string_value(types));
        return;
    }
    size_t i, n = 0;
    json_t *t;
    buf[0] = '\0';
    json_array_foreach(types, i, t) if (json_is_string(t) && n < len) n +=
        (size_t)snprintf(buf + n, len - n, "%s%s", i ? " or " : "", json_string_value(t));
}

static int check_type(struct ctx *c, json_t *types, json_t *v, const char *path)
{
    if (!json_is_string(types) && !json_is_array(types))
        return schema_fault(c, "schema: 'type' is neither a string nor an array");
    if (types_accept(types, v))
        return 0;
    char want[64], val[48];
    types_text(types, want, sizeof(want));
    return fail(c, path, "want %s, not %s %s", want, type_of(v), show(v, val, sizeof(val)));
}

static int check_enum(struct ctx *c, json_t *list, json_t *v, const char *path)
{
    size_t i;
    json_t *x;
    char all[160], val[48];
    size_t n = 0;
    all[0] = '\0';
    json_array_foreach(list, i, x)
    {
        if (json_equal(x, v))
            return 0;
        char one[48];
        if (n < sizeof(all))
            n += (size_t)snprintf(all + n, sizeof(all) - n, "%s%s", i ? ", " : "",
                                  show(x, one, sizeof(one)));
    }
    return fail(c, path, "%s is not one of %s", show(v, val, sizeof(val)), all);
}

static regex_t *pattern_of(struct ctx *c, const char *text)
{
    for (unsigned i = 0; i < c->npats; i++)
        if (c->pats[i].text == text)
            return &c->pats[i].re;
    if (c->npats == MAX_PATTERNS) {
        schema_fault(c, "schema: more than %d patterns", MAX_PATTERNS);
        return NULL;
    }
    struct pattern *p = &c->pats[c->npats];
    if (regcomp(&p->re, text, REG_EXTENDED | REG_NOSUB) != 0) {
        schema_fault(c, "schema: pattern '%s' is no POSIX extended regular expression", text);
        return NULL;
    }
    p->text = text;
    c->npats++;
    return &p->re;
}

static int check_scalar(struct ctx *c, json_t *s, json_t *v, const char *path)
{
    int n = 0;
    char val[48];
    json_t *k;
    if ((k = json_object_get(s, "enum")))
        n += check_enum(c, k, v, path);
    if ((k = json_object_get(s, "const")) && !json_equal(k, v)) {
        char want[48];
        n += fail(c, path, "want %s, not %s", show(k, want, sizeof(want)), show(v, val, sizeof(val)));
    }
    if (json_is_number(v) && (k = json_object_get(s, "minimum")) && json_number_value(v) < json_number_value(k))
        n += fail(c, path, "%s is below the minimum %s", show(v, val, sizeof(val)),
                  show(k, (char[48]){0}, 48));
    if (json_is_number(v) && (k = json_object_get(s, "maximum")) && json_number_value(v) > json_number_value(k))
        n += fail(c, path, "%s is above the maximum %s", show(v, val, sizeof(val)),
                  show(k, (char[48]){0}, 48));
    if (json_is_string(v) && (k = json_object_get(s, "pattern"))) {
        regex_t *re = json_is_string(k) ? pattern_of(c, json_string_value(k)) : NULL;
        if (re && regexec(re, json_string_value(v), 0, NULL, 0) != 0)
            n += fail(c, path, "%s does not match %s", show(v, val, sizeof(val)), json_string_value(k));
    }
    return n;
}

static void sub_path(char *out, const char *path, const char *key)
{
    snprintf(out, PATH_MAX_LEN, "%s.%s", path, key);
}

static int check_object(struct ctx *c, json_t *s, json_t *v, const char *path)
{
    int n = 0;
    json_t *props = json_object_get(s, "properties"), *req = json_object_get(s, "required");
    json_t *extra = json_object_get(s, "additionalProperties"), *x;
    size_t i;
    char p[PATH_MAX_LEN];
    json_array_foreach(req, i, x) if (json_is_string(x) && !json_object_get(v, json_string_value(x)))
        n += fail(c, path, "member '%s' is missing", json_string_value(x));
    const char *key;
    json_object_foreach(v, key, x)
    {
        json_t *ps = json_object_get(props, key);
        sub_path(p, path, key);
        if (ps)
            n += check(c, ps, x, p);
        else if (json_is_false(extra))
            n += fail(c, path, "unknown member '%s'", key);
        else if (json_is_object(extra))
            n += check(c, extra, x, p);
    }
    return n;
}

static int check_array(struct ctx *c, json_t *s, json_t *v, const char *path)
{
    int n = 0;
    json_t *min = json_object_get(s, "minItems"), *items = json_object_get(s, "items"), *x;
    if (min && json_is_integer(min) && (json_int_t)json_array_size(v) < json_integer_value(min))
        n += fail(c, path, "%zu items, want at least %lld", json_array_size(v),
                  (long long)json_integer_value(min));
    if (items && !json_is_object(items) && !json_is_boolean(items))
        return schema_fault(c, "schema: 'items' as a list is not taken");
    size_t i;
    json_array_foreach(v, i, x) if (items)
    {
        char p[PATH_MAX_LEN];
        snprintf(p, sizeof(p), "%s[%zu]", path, i);
        n += check(c, items, x, p);
    }
    return n;
}

/* How many alternatives of 'alts' 'v' meets (each tried without keeping its errors). */
static unsigned count_matches(struct ctx *c, json_t *alts, json_t *v, const char *path)
{
    unsigned ok = 0;
    size_t i;
    json_t *a;
    c->quiet++;
    json_array_foreach(alts, i, a) ok += check(c, a, v, path) == 0;
    c->quiet--;
    return ok;
}

/*
 * None of 'alts' takes v: when exactly one alternative is of v's type, its own
 * errors (they say what is wrong inside); else what types were wanted.
 */
static int explain_none(struct ctx *c, json_t *alts, json_t *v, const char *path)
{
    json_t *only = NULL, *a;
    unsigned same = 0;
    size_t i, n = 0;
    char want[160], val[48];
    want[0] = '\0';
    json_array_foreach(alts, i, a)
    {
        json_t *r = deref(c, a), *t = r ? json_object_get(r, "type") : NULL;
        if (!t || types_accept(t, v)) {
            only = a;
            same++;
        }
        if (t && n < sizeof(want)) {
            char one[64];
            types_text(t, one, sizeof(one));
            n += (size_t)snprintf(want + n, sizeof(want) - n, "%s%s", n ? " or " : "", one);
        }
    }
    if (same == 1)
        return check(c, only, v, path);
    if (same == 0)
        return fail(c, path, "want %s, not %s %s", want, type_of(v), show(v, val, sizeof(val)));
    return fail(c, path, "%s matches none of the alternatives", show(v, val, sizeof(val)));
}

static int check_combinators(struct ctx *c, json_t *s, json_t *v, const char *path)
{
    int n = 0;
    json_t *k;
    size_t i;
    json_t *a;
    if ((k = json_object_get(s, "allOf")))
        json_array_foreach(k, i, a) n += check(c, a, v, path);
    if ((k = json_object_get(s, "anyOf")) && count_matches(c, k, v, path) == 0)
        n += explain_none(c, k, v, path);
    if ((k = json_object_get(s, "oneOf"))) {
        unsigned m = count_matches(c, k, v, path);
        if (m == 0)
            n += explain_none(c, k, v, path);
        else if (m > 1)
            n += fail(c, path, "matches %u alternatives of a oneOf, want exactly one", m);
    }
    return n;
}

/* The number of errors of v against s (0: valid). */
static int check(struct ctx *c, json_t *s, json_t *v, const char *path)
{
    if (c->bad_schema)
        return 1;
    if (json_is_true(s))
        return 0;
    if (json_is_false(s))
        return fail(c, path, "no value is allowed here");
    if (!json_is_object(s))
        return schema_fault(c, "schema: a schema at %s is not an object", path);
    const char *key;
    json_t *x;
    json_object_foreach(s, key, x) if (!in_list(keywords, key) && !in_list(notes, key))
        return schema_fault(c, "schema: keyword '%s' is not taken by regctl's validator", key);
    if (json_object_get(s, "$ref")) {
        json_t *r = deref(c, s);
        return r ? check(c, r, v, path) : 1;
    }
    json_t *t = json_object_get(s, "type");
    if (t && check_type(c, t, v, path))
        return 1; /* the rest would only repeat it */
    int n = check_scalar(c, s, v, path);
    if (json_is_object(v))
        n += check_object(c, s, v, path);
    if (json_is_array(v))
        n += check_array(c, s, v, path);
    return n + check_combinators(c, s, v, path);
}

int jschema_validate(json_t *schema, json_t *doc, struct jschema_errors *errs)
{
    struct ctx c = {.root = schema, .errs = errs};
    errs->n = 0;
    errs->text[0][0] = '\0';
    int n = check(&c, schema, doc, "$");
    for (unsigned i = 0; i < c.npats; i++)
        regfree(&c.pats[i].re);
    if (c.bad_schema)
        return -1;
    return n ? 1 : 0;
}
