/*
 * view.c - the typed view's types looked up and described, for any schema: regc's
 * (view_schema.c) or one just built (view_build.h).
 */
#include "view.h"

#include "util.h"

#include <string.h>

const struct view_type *view_type_find(const struct view_schema *vs, const char *name)
{
    for (size_t i = 0; i < vs->ntypes; i++)
        if (strcmp(vs->types[i]->name, name) == 0)
            return vs->types[i];
    return NULL;
}

const struct view_member *view_member_find(const struct view_type *t, const char *name, size_t len)
{
    for (size_t i = 0; i < t->n; i++)
        if (strncmp(t->members[i].name, name, len) == 0 && t->members[i].name[len] == '\0')
            return &t->members[i];
    return NULL;
}

/* ------------------------------------------------------------ lookup */

/* tables.h's rule: the t_* name for member 'm', if it has one. */
static bool table_name(const struct view_member *m, struct view_value *out)
{
    *out = (struct view_value){VIEW_STR, false, VIEW_STR, NULL};
    if (strncmp(m->name, "c_", 2) == 0 || strncmp(m->name, "t_", 2) == 0)
        return false;
    if (strcmp(m->name, "index") == 0 && m->v.kind == VIEW_INT) {
        out->kind = VIEW_INT;
        return true;
    }
    if (strcmp(m->name, "version") == 0 && m->v.kind == VIEW_INT)
        return true;
    out->nullable = m->v.kind != VIEW_STR; /* t_X is there when X is null */
    return m->v.kind == VIEW_STR || m->v.nullable;
}

int view_lookup(const struct view_type *t, const char *name, size_t len, struct view_value *out)
{
    const struct view_member *m = view_member_find(t, name, len);
    if (m) {
        *out = m->v;
        return (int)m->origin;
    }
    if (!t->annotated || len < 2 || strncmp(name, "t_", 2) != 0)
        return -1;
    if (len == strlen("t_access_text") && strncmp(name, "t_access_text", len) == 0) {
        *out = (struct view_value){VIEW_STR, false, VIEW_STR, NULL};
        return view_member_find(t, "access", 6) ? VIEW_DERIVED : -1;
    }
    m = view_member_find(t, name + 2, len - 2);
    return m && table_name(m, out) ? VIEW_DERIVED : -1;
}

/* ------------------------------------------------------------ description */

static const char *kind_word(enum view_kind k)
{
    static const char *const words[] = {"string", "integer", "boolean", "object", "list", "number"};
    return words[k];
}

void view_value_describe(const struct view_value *v, struct buf *out)
{
    if (v->kind == VIEW_LIST)
        buf_addf(out, "list of %s", v->item == VIEW_OBJ ? v->type->name : kind_word(v->item));
    else if (v->kind == VIEW_OBJ)
        buf_addf(out, "%s", v->type->name);
    else
        buf_adds(out, kind_word(v->kind));
    if (v->nullable)
        buf_adds(out, " or null");
}

void view_schema_write(const struct view_schema *vs, struct buf *out)
{
    for (size_t i = 0; i < vs->ntypes; i++) {
        const struct view_type *t = vs->types[i];
        if (!t->reached)
            continue; /* a definition no name leads to */
        buf_addf(out, "- **%s**%s:", t->name, t->annotated ? "" : " (no t_* names)");
        const char *sep = " ";
        for (size_t k = 0; k < t->n; k++) {
            const struct view_member *m = &t->members[k];
            buf_addf(out, "%s`%s` (", sep, m->name);
            view_value_describe(&m->v, out);
            buf_addc(out, ')');
            sep = ", ";
        }
        buf_addc(out, '\n');
    }
}
