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
#define X_(id, spelling, sem, meaning)                                                             \
    case REGC_ACCESS_##id:                                                                         \
        return "REGC_ACCESS_" #id;
        REGC_ACCESS_LIST(X_)
#undef X_
    default:
        return "REGC_ACCESS_UNKNOWN";
    }
}

/* The enums of the model's words other than the access classes (access_constant). */
static const struct {
    const char *key, *value, *constant;
} enums[] = {
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
    {"match", "set", "REGC_FILTER_SET"},
    {"match", "mask", "REGC_FILTER_MASK"},
    {"match", "equal", "REGC_FILTER_EQUAL"},
    {"match", "at-least", "REGC_FILTER_AT_LEAST"},
};

static bool is_access_key(const char *key)
{
    return strcmp(key, "access") == 0 || strcmp(key, "access_class") == 0;
}

/* The enum constant for member 'key' = 'v', or NULL when 'key' names no enum. */
static const char *enum_constant(const char *key, const char *v)
{
    if (is_access_key(key))
        return access_constant(v);
    for (size_t i = 0; i < ARRAY_SIZE(enums); i++)
        if (strcmp(enums[i].key, key) == 0 && v && strcmp(enums[i].value, v) == 0)
            return enums[i].constant;
    return NULL;
}

static bool is_enum_key(const char *key)
{
    for (size_t i = 0; i < ARRAY_SIZE(enums); i++)
        if (strcmp(enums[i].key, key) == 0)
            return true;
    return is_access_key(key);
}

static void annotate_member(struct arena *a, struct dt *obj, const char *key, const struct dt *v)
{
    char tkey[128];
    if (snprintf(tkey, sizeof(tkey), "t_%s", key) >= (int)sizeof(tkey))
        return;
    if (!strcmp(key, "index") && (dt_is(v, DT_INT) || dt_is(v, DT_NULL))) {
        dt_set_copy(a, obj, tkey, dt_int(a, dt_is(v, DT_NULL) ? -1 : dt_int_value(v)));
        return;
    }
    const char *c = dt_is(v, DT_STR) ? enum_constant(key, dt_str_value(v)) : NULL;
    if (c) {
        dt_set_copy(a, obj, tkey, dt_str_ref(a, c));
        if (!strcmp(key, "access")) {
            char *lit = tables_c_string(dt_str_value(v));
            dt_set(a, obj, "t_access_text", dt_str(a, lit));
            free(lit);
        }
        return;
    }
    if (!strcmp(key, "version") && dt_is(v, DT_INT)) {
        char num[32];
        snprintf(num, sizeof(num), "\"%lld\"", dt_int_value(v));
        dt_set_copy(a, obj, tkey, dt_str(a, num));
        return;
    }
    if (dt_is(v, DT_NULL)) {
        dt_set_copy(a, obj, tkey, dt_str_ref(a, is_enum_key(key) ? "0" : "NULL"));
    } else if (dt_is(v, DT_STR)) {
        char *lit = tables_c_string(dt_str_value(v));
        dt_set_copy(a, obj, tkey, dt_str(a, lit));
        free(lit);
    }
}

void tables_annotate(struct arena *a, struct dt *tree)
{
    if (dt_is(tree, DT_LIST)) {
        for (size_t i = 0; i < tree->n; i++)
            tables_annotate(a, tree->u.items[i]);
        return;
    }
    if (!dt_is(tree, DT_OBJ))
        return;
    /* only the members there before: the t_* keys added here are not annotated again */
    uint32_t n = tree->n;
    for (uint32_t i = 0; i < n; i++) {
        const char *key = tree->u.members[i].key;
        struct dt *v = tree->u.members[i].val;
        if (strncmp(key, "t_", 2) == 0 || strncmp(key, "c_", 2) == 0)
            continue;
        if (dt_is(v, DT_OBJ) || dt_is(v, DT_LIST))
            tables_annotate(a, v);
        else
            annotate_member(a, tree, key, v);
    }
}
