#include "dt.h"

#include "util.h"

#include <string.h>

static struct dt dt_null_v = {.type = DT_NULL};
static struct dt dt_true_v = {.type = DT_TRUE};
static struct dt dt_false_v = {.type = DT_FALSE};

struct dt_key dt_key(const char *s)
{
    size_t len = strlen(s);
    return (struct dt_key){.s = s, .len = len & 0x7fffffff};
}

struct dt_key dt_key_lit(const char *s)
{
    struct dt_key k = dt_key(s);
    k.fixed = 1;
    return k;
}

struct dt *dt_null(void)
{
    return &dt_null_v;
}

struct dt *dt_bool(bool b)
{
    return b ? &dt_true_v : &dt_false_v;
}

static struct dt *dt_new(struct arena *a, enum dt_type type)
{
    struct dt *v = arena_alloc(a, sizeof(*v));
    v->type = type;
    v->n = v->cap = 0;
    return v;
}

struct dt *dt_int(struct arena *a, long long i)
{
    struct dt *v = dt_new(a, DT_INT);
    v->u.i = i;
    return v;
}

struct dt *dt_real(struct arena *a, double r)
{
    struct dt *v = dt_new(a, DT_REAL);
    v->u.r = r;
    return v;
}

static struct dt *str_at(struct arena *a, const char *s, size_t len)
{
    struct dt *v = dt_new(a, DT_STR);
    v->u.str.s = s;
    v->u.str.len = len;
    return v;
}

struct dt *dt_strn(struct arena *a, const char *s, size_t len)
{
    return str_at(a, arena_strndup(a, s, len), len);
}

struct dt *dt_str(struct arena *a, const char *s)
{
    return s ? dt_strn(a, s, strlen(s)) : dt_null();
}

struct dt *dt_str_ref(struct arena *a, const char *s)
{
    return s ? str_at(a, s, strlen(s)) : dt_null();
}

struct dt *dt_str_refn(struct arena *a, const char *s, size_t len)
{
    return str_at(a, s, len);
}

struct dt *dt_obj(struct arena *a)
{
    struct dt *v = dt_new(a, DT_OBJ);
    v->u.members = NULL;
    return v;
}

struct dt *dt_obj_n(struct arena *a, uint32_t n)
{
    struct dt *v = dt_obj(a);
    uint32_t cap = n ? n : 1;
    v->u.members = arena_alloc(a, cap * sizeof(*v->u.members));
    v->cap = cap;
    return v;
}

struct dt *dt_list(struct arena *a)
{
    struct dt *v = dt_new(a, DT_LIST);
    v->u.items = NULL;
    return v;
}

/* Room for one more item or member: doubling, the old array left to the arena. */
static void *grow(struct arena *a, struct dt *v, void *arr, size_t size)
{
    if (v->n < v->cap)
        return arr;
    uint32_t ncap = v->cap ? 2 * v->cap : 8;
    void *n = arena_alloc(a, ncap * size);
    if (v->n)
        memcpy(n, arr, v->n * size);
    v->cap = ncap;
    return n;
}

static bool key_is(const struct dt_member *m, const char *key, size_t len)
{
    return m->len == len && memcmp(m->key, key, len) == 0;
}

static struct dt_member *find(const struct dt *o, const char *key, size_t len)
{
    for (uint32_t i = 0; i < o->n; i++)
        if (key_is(&o->u.members[i], key, len))
            return &o->u.members[i];
    return NULL;
}

/* Appends member 'k' to object 'o' (which must not hold it). */
static void append(struct arena *a, struct dt *o, struct dt_key k, struct dt *v)
{
    o->u.members = grow(a, o, o->u.members, sizeof(*o->u.members));
    o->u.members[o->n++] = (struct dt_member){k.s, k.len, k.fixed, v};
}

void dt_set(struct arena *a, struct dt *o, const char *key, struct dt *v)
{
    if (o->type != DT_OBJ)
        BUG("dt_set on a non-object");
    struct dt_key k = dt_key(key);
    struct dt_member *m = find(o, k.s, k.len);
    if (m)
        m->val = v;
    else
        append(a, o, k, v);
}

void dt_add_slow(struct arena *a, struct dt *o, struct dt_key k, struct dt *v)
{
    append(a, o, k, v);
}

void dt_add_check(const struct dt *o, struct dt_key k)
{
    if (o->type != DT_OBJ)
        BUG("dt_add on a non-object");
    if (find(o, k.s, k.len))
        BUG("dt_add: the object already holds the key");
}

void dt_set_copy(struct arena *a, struct dt *o, const char *key, struct dt *v)
{
    if (!dt_get(o, key))
        key = arena_strdup(a, key);
    dt_set(a, o, key, v);
}

void dt_push(struct arena *a, struct dt *list, struct dt *v)
{
    if (list->type != DT_LIST)
        BUG("dt_push on a non-list");
    list->u.items = grow(a, list, list->u.items, sizeof(*list->u.items));
    list->u.items[list->n++] = v;
}

struct dt *dt_getn(const struct dt *o, const char *key, size_t len)
{
    if (!o || o->type != DT_OBJ)
        return NULL;
    struct dt_member *m = find(o, key, len);
    return m ? m->val : NULL;
}

const struct dt_member *dt_member_getn(const struct dt *o, const char *key, size_t len)
{
    return o && o->type == DT_OBJ ? find(o, key, len) : NULL;
}

struct dt *dt_get(const struct dt *o, const char *key)
{
    return dt_getn(o, key, strlen(key));
}

size_t dt_len(const struct dt *list)
{
    return list && list->type == DT_LIST ? list->n : 0;
}

struct dt *dt_at(const struct dt *list, size_t i)
{
    return i < dt_len(list) ? list->u.items[i] : NULL;
}

const char *dt_str_value(const struct dt *v)
{
    return v && v->type == DT_STR ? v->u.str.s : NULL;
}

long long dt_int_value(const struct dt *v)
{
    return v && v->type == DT_INT ? v->u.i : 0;
}

struct dt *dt_from_json(struct arena *a, const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT: {
        struct dt *o = dt_obj(a);
        const char *key;
        json_t *v;
        json_object_foreach((json_t *)j, key, v) /* jansson's keys are distinct */
            dt_add(a, o, dt_key(arena_strdup(a, key)), dt_from_json(a, v));
        return o;
    }
    case JSON_ARRAY: {
        struct dt *l = dt_list(a);
        for (size_t i = 0; i < json_array_size(j); i++)
            dt_push(a, l, dt_from_json(a, json_array_get(j, i)));
        return l;
    }
    case JSON_STRING:
        return dt_strn(a, json_string_value(j), json_string_length(j));
    case JSON_INTEGER:
        return dt_int(a, (long long)json_integer_value(j));
    case JSON_REAL:
        return dt_real(a, json_real_value(j));
    case JSON_TRUE:
        return dt_bool(true);
    case JSON_FALSE:
        return dt_bool(false);
    case JSON_NULL:
        break;
    }
    return dt_null();
}

json_t *dt_to_json(const struct dt *v)
{
    if (!v)
        return json_null();
    switch (v->type) {
    case DT_OBJ: {
        json_t *o = json_object();
        for (uint32_t i = 0; i < v->n; i++)
            json_object_set_new(o, v->u.members[i].key, dt_to_json(v->u.members[i].val));
        return o;
    }
    case DT_LIST: {
        json_t *l = json_array();
        for (uint32_t i = 0; i < v->n; i++)
            json_array_append_new(l, dt_to_json(v->u.items[i]));
        return l;
    }
    case DT_STR:
        return json_stringn(v->u.str.s, v->u.str.len);
    case DT_INT:
        return json_integer((json_int_t)v->u.i);
    case DT_REAL:
        return json_real(v->u.r);
    case DT_TRUE:
        return json_true();
    case DT_FALSE:
        return json_false();
    case DT_NULL:
        break;
    }
    return json_null();
}
