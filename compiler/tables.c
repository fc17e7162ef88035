/*
 * tables - extra keys for templates/tables.mustache (see tables.h).
 */
#include "tables.h"

#include "buf.h"
#include "regc/attr.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

char *tables_c_string(const char *s)
{
    struct buf b = BUF_INIT;
    buf_addc(&b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\\' || *p == '"' || *p == '?')
            buf_addf(&b, "\\%c", *p);
        else if (*p == '\n')
            buf_adds(&b, "\\n");
        else if (*p < 0x20 || *p == 0x7f)
            buf_addf(&b, "\\%03o", *p);
        else
            buf_addc(&b, (char)*p);
    }
    buf_addc(&b, '"');
    return buf_detach(&b, NULL);
}

static const char *access_constant(const char *text)
{
    switch (regc_access_parse(text)) {
#define X_(id, spelling, sem)                                                                      \
    case REGC_ACCESS_##id:                                                                         \
        return "REGC_ACCESS_" #id;
        REGC_ACCESS_LIST(X_)
#undef X_
    default:
        return "REGC_ACCESS_UNKNOWN";
    }
}

/* The enum constant for member 'key' = 'v', or NULL when 'key' names no enum. */
static const char *enum_constant(const char *key, const char *v)
{
    static const struct {
        const char *key, *value, *constant;
    } map[] = {
        {"space", "msr", "REGC_SPACE_MSR"},
        {"space", "pci", "REGC_SPACE_PCI"},
        {"space", "mmio", "REGC_SPACE_MMIO"},
        {"overflow", "wrap", "REGC_OVF_WRAP"},
        {"overflow", "stop", "REGC_OVF_STOP"},
        {"preload", "2^w-N", "REGC_PRELOAD_2W_MINUS_N"},
        {"preload", "2^w-1-N", "REGC_PRELOAD_2W_MINUS_1_MINUS_N"},
        {"clear", "w1c", "REGC_CLEAR_W1C"},
        {"clear", "write0", "REGC_CLEAR_WRITE0"},
        {"clear", "register", "REGC_CLEAR_REGISTER"},
        {"clear", "none", "REGC_CLEAR_NONE"},
        {"direction", "up", "REGC_DIR_UP"},
        {"direction", "down", "REGC_DIR_DOWN"},
        {"direction", "up-down", "REGC_DIR_UP_DOWN"},
    };
    if (strcmp(key, "access") == 0)
        return access_constant(v);
    for (size_t i = 0; i < ARRAY_SIZE(map); i++)
        if (strcmp(map[i].key, key) == 0 && v && strcmp(map[i].value, v) == 0)
            return map[i].constant;
    return NULL;
}

static bool is_enum_key(const char *key)
{
    return !strcmp(key, "space") || !strcmp(key, "overflow") || !strcmp(key, "preload") ||
           !strcmp(key, "clear") || !strcmp(key, "access") || !strcmp(key, "direction");
}

static void annotate_member(json_t *obj, const char *key, json_t *v)
{
    char tkey[128];
    if (snprintf(tkey, sizeof(tkey), "t_%s", key) >= (int)sizeof(tkey))
        return;
    if (!strcmp(key, "index") && (json_is_integer(v) || json_is_null(v))) {
        json_object_set_new(obj, tkey, json_integer(json_is_null(v) ? -1 : json_integer_value(v)));
        return;
    }
    const char *c = json_is_string(v) ? enum_constant(key, json_string_value(v)) : NULL;
    if (c) {
        json_object_set_new(obj, tkey, json_string(c));
        if (!strcmp(key, "access")) {
            char *lit = tables_c_string(json_string_value(v));
            json_object_set_new(obj, "t_access_text", json_string(lit));
            free(lit);
        }
        return;
    }
    if (!strcmp(key, "version") && json_is_integer(v)) {
        char num[32];
        snprintf(num, sizeof(num), "\"%lld\"", (long long)json_integer_value(v));
        json_object_set_new(obj, tkey, json_string(num));
        return;
    }
    if (json_is_null(v)) {
        json_object_set_new(obj, tkey, json_string(is_enum_key(key) ? "0" : "NULL"));
    } else if (json_is_string(v)) {
        char *lit = tables_c_string(json_string_value(v));
        json_object_set_new(obj, tkey, json_string(lit));
        free(lit);
    }
}

void tables_annotate(json_t *tree)
{
    if (json_is_array(tree)) {
        size_t i;
        json_t *v;
        json_array_foreach(tree, i, v) tables_annotate(v);
        return;
    }
    if (!json_is_object(tree))
        return;
    /* collect first: adding keys while iterating is not allowed */
    const char *keys[256];
    size_t n = 0;
    const char *key;
    json_t *v;
    json_object_foreach(tree, key, v)
    {
        if (n < ARRAY_SIZE(keys) && strncmp(key, "t_", 2) != 0 && strncmp(key, "c_", 2) != 0)
            keys[n++] = key;
    }
    for (size_t i = 0; i < n; i++) {
        v = json_object_get(tree, keys[i]);
        if (json_is_object(v) || json_is_array(v))
            tables_annotate(v);
        else
            annotate_member(tree, keys[i], v);
    }
}
