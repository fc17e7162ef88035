/*
 * view_build.c - the typed view's types from the JSON Schema and the derived names: run by
 * tools/viewgen at build time and by the unit tests, never by regc (view_build.h).
 */
#include "view_build.h"

#include "util.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/*
 * The names templates get beyond the model's, by type: the one place they
 * are defined (context.c and context_doc.c compute them; tables.c adds the
 * t_* names by view.h's rule, so they are not listed). A kind is "str",
 * "int", "bool", "obj:TYPE" or "list:KIND-OR-TYPE", with '?' after the kind
 * when the value may be null or absent. A type not in the schema is made by
 * its first mention. A derived name is never one the schema has: templates
 * and the export (-t json) spell the model's names alike. A row gives names
 * of one type and kind, separated by spaces, in the order they are listed.
 */
static const struct {
    const char *type, *names, *kind;
} derived[] = {
    {"block", "c_cite_lines", "list:line"},
    {"block", "doc_filters_anchor", "str"},
    {"block", "doc_has_filters", "bool"},
    {"block", "c_def", "obj:block.c_def"},
    {"block", "c_desc_lines", "list:line"},
    {"block", "c_has_events c_has_instances c_is_pci", "bool"},
    {"block", "c_lower c_name", "str"},
    {"block", "c_ninstances", "int"},
    {"block", "c_source", "str?"},
    {"block", "doc_anchor doc_events_anchor", "str"},
    {"block", "doc_has_events doc_has_instances events_before first last", "bool"},
    {"line", "text", "str"},
    {"block.c_def", "ninstances", "str"},
    {"citation", "ref title", "str?"},
    {"copy", "c_addr_call c_address", "str"},
    {"copy", "doc_label", "str?"},
    {"copy", "first last", "bool"},
    {"counters", "first has_status_first last", "bool"},
    {"cpu", "c_family c_model", "str"},
    {"cpu", "c_source", "str?"},
    {"cpu", "first last", "bool"},
    {"event", "c_cite_lines", "list:line"},
    {"event", "c_code", "str"},
    {"event", "c_has_unmodelled", "bool"},
    {"event", "doc_unmodelled", "str?"},
    {"event", "c_code_field", "str"},
    {"event", "c_combine_or", "bool"},
    {"event", "c_counters", "str"},
    {"event", "c_def", "obj:event.c_def"},
    {"event", "c_desc_lines", "list:line"},
    {"event", "c_encoding", "str"},
    {"event", "c_has_filters c_has_umask c_is_sub", "bool"},
    {"event", "c_lower c_name c_reg c_reg_lower", "str"},
    {"event", "c_source", "str?"},
    {"event", "c_type c_umask", "str"},
    {"event", "c_umask_field", "str?"},
    {"event", "doc_anchor doc_counters doc_encoding doc_match", "str"},
    {"event", "doc_perf", "bool"},
    {"event", "doc_perf_cmask doc_perf_code doc_perf_config", "str?"},
    {"event", "doc_perf_counters", "str"},
    {"event", "doc_perf_edge doc_perf_extsel doc_perf_filter", "str?"},
    {"event", "doc_perf_first", "bool"},
    {"event", "doc_perf_inv doc_perf_umask", "str?"},
    {"event", "doc_perf_name", "str"},
    {"event", "doc_perf_aliases", "list:event.doc_perf_aliases"},
    {"event.doc_perf_aliases", "doc_perf_name", "str"},
    {"event.doc_perf_aliases", "doc_perf_filter", "str?"},
    {"event.doc_perf_aliases", "desc", "str"},
    {"metric_event", "perf_alias perf_settings", "str?"},
    {"event", "doc_perf_unit", "str"},
    {"event", "first last", "bool"},
    {"event.c_def", "code counters name umask", "str"},
    {"field", "access_class c_bits", "str"},
    {"field", "c_cite_lines", "list:line"},
    {"field", "c_def", "obj?:field.c_def"},
    {"field", "c_desc_lines", "list:line"},
    {"field", "c_has_values", "bool"},
    {"field", "c_lower c_mask c_max", "str"},
    {"field", "c_mdef", "obj?:field.c_mdef"},
    {"field", "c_name c_reg", "str"},
    {"field", "c_reserved", "bool"},
    {"field", "c_reset c_sem", "str"},
    {"field", "c_shift", "int"},
    {"field", "c_source", "str?"},
    {"field", "c_type doc_bits", "str"},
    {"field", "doc_has_values", "bool"},
    {"field", "doc_index", "int"},
    {"field", "first last", "bool"},
    {"field", "width", "int"},
    {"field", "write_as_read", "bool"},
    {"field.c_def", "mask max reset shift width", "str"},
    {"field.c_mdef", "get set val", "str"},
    {"global_control", "has_pmi_core_fields", "bool"},
    {"instance", "c_base", "str?"},
    {"instance", "c_def", "obj:instance.c_def"},
    {"instance", "c_desc_lines", "list:line"},
    {"instance", "c_dev", "int?"},
    {"instance", "c_device", "str?"},
    {"instance", "c_func", "int?"},
    {"instance", "c_index", "int"},
    {"instance", "c_name", "str"},
    {"instance", "c_vendor", "str?"},
    {"instance", "first last", "bool"},
    {"instance.c_def", "base dev device func", "str?"},
    {"instance.c_def", "name", "str"},
    {"instance.c_def", "vendor", "str?"},
    {"pmon", "c_has_filters c_has_unmodelled", "bool"},
    {"metric_event", "perfmon", "str?"},
    {"metric_event", "settings_text", "str?"}, /* the settings as written in the formula */
    {"metric", "c_desc_lines", "list:line"},
    {"metric", "c_name", "str"},
    {"metric", "c_nevents", "int"},
    {"metric", "c_scale", "str"},
    {"metric", "c_source", "str?"},
    {"metric", "c_source_lines", "list:line"},
    {"metric", "doc_scale", "str"},
    {"metric", "first last", "bool"},
    {"metric", "perf_expr", "str?"},
    {"metric", "perf_scale_unit", "str"},
    {"metric_event", "c_encoding c_name", "str"},
    {"metric_event", "first last", "bool"},
    {"metric_op", "c_op c_value", "str"},
    {"register", "c_addr", "str"},
    {"register", "c_addr_by_index c_addr_by_instance", "bool"},
    {"register", "c_addr_c c_addr_c_params", "str?"},
    {"register", "c_addr_cases", "list:register.c_addr_cases"},
    {"register", "c_addr_const", "bool"},
    {"register", "c_addr_index c_addr_offset c_addr_type c_address", "str"},
    {"register", "c_cite_lines", "list:line"},
    {"register", "c_count", "int"},
    {"register", "c_def", "obj:register.c_def"},
    {"register", "c_desc_lines", "list:line"},
    {"register", "c_first_index", "int"},
    {"register", "c_has_effects c_has_fields c_has_instances c_has_preserve c_has_rules", "bool"},
    {"register", "c_irregular c_is_pci", "bool"},
    {"register", "c_layout", "list:line"},
    {"register", "c_lit c_lower", "str"},
    {"register", "c_masks", "obj:register.c_masks"},
    {"register", "c_name", "str"},
    {"register", "c_offsets", "list:register.c_offsets"},
    {"register", "c_prefix c_reset c_rules_mask", "str"},
    {"register", "c_source", "str?"},
    {"register", "c_stride c_type doc_anchor", "str"},
    {"register", "doc_has_rules doc_has_values first last", "bool"},
    {"register", "svg", "obj:register.svg"},
    {"register.c_addr_cases", "c_addr", "str"},
    {"register.c_addr_cases", "c_def", "obj:register.c_addr_cases.c_def"},
    {"register.c_addr_cases", "c_index", "int"},
    {"register.c_addr_cases", "c_instance c_name", "str"},
    {"register.c_addr_cases", "first last", "bool"},
    {"register.c_addr_cases.c_def", "addr", "str"},
    {"register.c_def", "addr count first ignored keep levels mb1 mbz once preserve reset", "str"},
    {"register.c_def", "ro rules size stride w0 w1c w1s w1t wany width wo writable", "str"},
    {"register.c_masks", "ignored keep levels mb1 mbz once preserve rmw ro volatile w0 w1c", "str"},
    {"register.c_masks", "w1s w1t wany wo writable", "str"},
    {"register.c_offsets", "c_index", "int"},
    {"register.c_offsets", "c_offset", "str"},
    {"register.c_offsets", "first last", "bool"},
    {"register.svg", "bits_per_row", "int"},
    {"register.svg", "boxes", "list:register.svg.boxes"},
    {"register.svg", "height rows", "int"},
    {"register.svg", "ticks", "list:register.svg.ticks"},
    {"register.svg", "width", "int"},
    {"register.svg.boxes", "access", "str"},
    {"register.svg.boxes", "ax ay", "int"},
    {"register.svg.boxes", "bits", "str"},
    {"register.svg.boxes", "field h", "int"},
    {"register.svg.boxes", "is_field", "bool"},
    {"register.svg.boxes", "kind label", "str"},
    {"register.svg.boxes", "lx ly", "int"},
    {"register.svg.boxes", "name", "str"},
    {"register.svg.boxes", "vertical", "bool"},
    {"register.svg.boxes", "w x y", "int"},
    {"register.svg.ticks", "bit x y", "int"},
    {"root", "doc_access_legend", "list:doc_access_legend"},
    {"doc_access_legend", "access", "str"},
    {"doc_access_legend", "first last", "bool"},
    {"doc_access_legend", "meaning", "str"},
    {"spec", "c_desc_lines", "list:line"},
    {"spec", "c_guard c_lower_prefix c_prefix", "str"},
    {"spec", "c_source_lines", "list:source_line"},
    {"spec", "c_version", "str"},
    {"source_line", "first last", "bool"},
    {"source_line", "text", "str"},
    {"rule", "c_bit", "int"},
    {"rule", "c_candidates", "list:rule.c_candidates"},
    {"rule", "c_cite_lines", "list:line"},
    {"rule", "c_def", "obj:rule.c_def"},
    {"rule", "c_expr c_message c_name c_reg c_reg_lower", "str"},
    {"rule", "c_source", "str?"},
    {"rule", "first last", "bool"},
    {"rule.c_candidates", "c_count", "int"},
    {"rule.c_candidates", "c_lower", "str"},
    {"rule.c_candidates", "c_values", "list:rule.c_candidates.c_values"},
    {"rule.c_candidates", "first last", "bool"},
    {"rule.c_candidates.c_values", "c_value", "str"},
    {"rule.c_candidates.c_values", "first last", "bool"},
    {"rule.c_def", "message name", "str"},
    /* issue 27: -t cmsis, the CMSIS device header (context_cmsis.c, templates/cmsis.mustache) */
    {"root", "c_cmsis", "obj?:cmsis"},
    {"cmsis", "cluster_enums", "list:cmsis.enum"},
    {"cmsis", "cpu", "str?"},
    {"cmsis", "enums", "list:cmsis.enum"},
    {"cmsis.enum", "comment name", "str"},
    {"cmsis.enum", "values", "list:cmsis.enum_value"},
    {"cmsis.enum_value", "comment name value", "str"},
    {"cmsis", "guard", "str"},
    {"cmsis", "has_clusters has_irqs", "bool"},
    {"cmsis", "instances", "list:cmsis.instance"},
    {"cmsis", "irqs", "list:cmsis.irq"},
    {"cmsis", "name", "str"},
    {"cmsis", "pos_mask", "list:cmsis.pos_mask"},
    {"cmsis", "types", "list:cmsis.type"},
    {"cmsis.assert", "member offset", "str"},
    {"cmsis.field", "mask", "str"},
    {"cmsis.field", "msb pos", "int"},
    {"cmsis.field", "stem", "str"},
    {"cmsis.field", "values", "list:cmsis.value"},
    {"cmsis.instance", "base name", "str"},
    {"cmsis.instance", "type", "str?"},
    {"cmsis.irq", "desc", "str?"},
    {"cmsis.irq", "name", "str"},
    {"cmsis.irq", "value", "int"},
    {"cmsis.line", "close", "bool"},
    {"cmsis.line", "ctype dim", "str?"},
    {"cmsis.line", "indent", "str"},
    {"cmsis.line", "name offset open qual", "str?"},
    {"cmsis.pos_mask", "registers", "list:cmsis.register"},
    {"cmsis.pos_mask", "section", "str"},
    {"cmsis.register", "fields", "list:cmsis.field"},
    {"cmsis.register", "name", "str"},
    {"cmsis.type", "asserts", "list:cmsis.assert"},
    {"cmsis.type", "array", "obj?:cmsis.array"},
    {"cmsis.array", "name type", "str"},
    {"cmsis.array", "count", "int"},
    {"cmsis.type", "kind", "str"},
    {"cmsis.type", "lines", "list:cmsis.line"},
    {"cmsis.type", "name of size", "str"},
    {"cmsis.value", "name value", "str"},
    /* end of issue 27's -t cmsis names */
    {"set", "c_field c_field_lower", "str"},
    {"set", "c_own", "bool"},
    {"set", "c_value", "str"},
    {"set", "first last", "bool"},
    {"value", "c_def", "obj:value.c_def"},
    {"value", "c_field c_name", "str"},
    {"value", "c_usage", "str?"},
    {"value", "c_value", "str"},
    {"value", "first last", "bool"},
    {"value.c_def", "name", "str"},
    {"rule", "t_ops", "list:rule.t_ops"},
    {"rule.t_ops", "t_op", "str"},
    {"rule.t_ops", "lsb width", "int"},
    {"rule.t_ops", "value", "str"},
    /* ---- issue 27: -t svd, the model in SVD's shape (context_svd.c); only for a
       template that names "svd" */
    {"root", "svd", "obj?:svd"},
    {"svd", "device", "obj:svd.device"},
    {"svd", "peripherals", "list:svd.peripheral"},
    {"svd.device", "name", "str"},
    {"svd.device", "vendor vendor_id series", "str?"},
    {"svd.device", "version desc", "str"},
    {"svd.device", "license", "str?"},
    {"svd.device", "cpu", "obj?:svd.cpu"},
    {"svd.device", "header_prefix", "str?"},
    {"svd.device", "address_unit_bits width", "int"},
    {"svd.cpu", "name revision endian mpu fpu fpu_dp icache dcache vtor", "str"},
    {"svd.cpu", "nvic_prio_bits", "int"},
    {"svd.cpu", "vendor_systick", "str"},
    {"svd.peripheral", "name", "str"},
    {"svd.peripheral", "derived_from", "str?"},
    {"svd.peripheral", "dim", "obj?:svd.dim"},
    {"svd.peripheral", "version desc alternate group prepend append header_struct", "str?"},
    {"svd.peripheral", "base", "str"},
    {"svd.peripheral", "size", "int?"},
    {"svd.peripheral", "access protection reset reset_mask", "str?"},
    {"svd.peripheral", "address_blocks", "list:svd.address_block"},
    {"svd.peripheral", "interrupts", "list:svd.interrupt"},
    {"svd.peripheral", "registers", "list:svd.item"},
    {"svd.peripheral", "has_registers", "bool"},
    {"svd.address_block", "offset size usage", "str"},
    {"svd.address_block", "protection", "str?"},
    {"svd.interrupt", "name", "str"},
    {"svd.interrupt", "desc", "str?"},
    {"svd.interrupt", "value", "str"},
    {"svd.item", "cluster", "obj?:svd.cluster"},
    {"svd.item", "register", "obj?:svd.register"},
    {"svd.cluster", "name desc", "str"},
    {"svd.cluster", "derived_from alternate header_struct", "str?"},
    {"svd.cluster", "dim", "obj?:svd.dim"},
    {"svd.cluster", "offset", "str"},
    {"svd.cluster", "items", "list:svd.item"},
    {"svd.dim", "count", "int"},
    {"svd.dim", "increment", "str"},
    {"svd.dim", "dim_index", "str?"},
    {"svd.dim", "array_index", "obj?:svd.array_index"},
    {"svd.array_index", "enum_name", "str?"},
    {"svd.array_index", "values", "list:svd.value"},
    {"svd.register", "name", "str"},
    {"svd.register", "display_name desc derived_from alternate alternate_group", "str?"},
    {"svd.register", "dim", "obj?:svd.dim"},
    {"svd.register", "offset", "str"},
    {"svd.register", "size", "int?"},
    {"svd.register", "protection", "str?"},
    {"svd.register", "reset", "str?"},
    {"svd.register", "reset_mask", "str?"},
    {"svd.register", "whole", "obj?:svd.effects"},
    {"svd.register", "fields", "list:svd.field"},
    {"svd.register", "has_fields all_reserved", "bool"},
    {"svd.register", "all_reserved_width", "int"},
    {"svd.effects", "access modified_write_values read_action", "str?"},
    {"svd.effects", "write_constraint", "obj?:svd.write_constraint"},
    {"svd.write_constraint", "write_as_read use_enumerated_values", "bool"},
    {"svd.write_constraint", "minimum maximum", "str?"},
    {"svd.field", "name", "str"},
    {"svd.field", "desc derived_from", "str?"},
    {"svd.field", "lsb msb", "int"},
    {"svd.field", "access modified_write_values read_action", "str?"},
    {"svd.field", "write_constraint", "obj?:svd.write_constraint"},
    {"svd.field", "enumerated_values", "list:svd.enum_set"},
    {"svd.field", "dim", "obj?:svd.dim"},
    {"svd.enum_set", "derived_from name header_enum_name usage", "str?"},
    {"svd.enum_set", "values", "list:svd.value"},
    {"svd.value", "name", "str"},
    {"svd.value", "desc value", "str?"},
    {"svd.value", "is_default", "bool"},
    /* ---- end of issue 27's -t svd rows */
    /* ---- issue 27: -t regspec, the model as a regspec element tree (context_regspec.c): built
       for a template that names "regspec" and by --dump-context, for every spec, so never null */
    {"root", "regspec", "obj:regspec"},
    {"regspec", "root", "obj:regspec.elem"},
    {"regspec.elem", "name", "str"},
    {"regspec.elem", "attrs", "list:regspec.attr"},
    {"regspec.elem", "text", "str?"},
    {"regspec.elem", "empty has_children", "bool"},
    {"regspec.elem", "children", "list:regspec.elem"},
    {"regspec.attr", "name value", "str"},
    /* ---- end of issue 27's -t regspec rows */
};

/* ------------------------------------------------------------ building */

/*
 * A type being built: 't' is what the schema hands out (its members read
 * through t.members), 'members' the same array, writable, as it grows.
 */
struct btype {
    struct view_type t; /* first: every type of a schema being built is a btype (as_btype) */
    struct view_member *members; /* owned (xmalloc) */
    size_t cap;
};

struct view_build {
    const struct view_type **types; /* vs->types, growing; owned (xmalloc) */
    size_t cap;
};

/* The btype that holds 't', a type of a schema being built (never one of view_tables[]). */
static struct btype *as_btype(const struct view_type *t)
{
    return (struct btype *)t; /* 't' is the first member of a btype allocated writable */
}

static struct btype *type_get(struct view_schema *vs, const char *name)
{
    const struct view_type *found = view_type_find(vs, name);
    if (found)
        return as_btype(found);
    struct view_build *b = vs->build;
    b->types = xgrow(b->types, &b->cap, vs->ntypes + 1, sizeof(*b->types));
    struct btype *t = arena_zalloc(&vs->a, sizeof(*t));
    t->t.name = arena_strdup(&vs->a, name);
    b->types[vs->ntypes++] = &t->t;
    vs->types = b->types;
    return t;
}

/* Sets member 'name' ('len' bytes) of t, added at the end when t has none of that name. */
static struct view_member *member_set(struct view_schema *vs, struct btype *t, const char *name,
                                      size_t len, struct view_value v, enum view_origin origin)
{
    const struct view_member *found = view_member_find(&t->t, name, len);
    struct view_member *m;
    if (found) {
        m = &t->members[found - t->t.members];
    } else {
        t->members = xgrow(t->members, &t->cap, t->t.n + 1, sizeof(*t->members));
        t->t.members = t->members;
        m = &t->members[t->t.n++];
        m->name = arena_strndup(&vs->a, name, len);
    }
    m->v = v;
    m->origin = origin;
    m->optional = false;
    return m;
}

static json_t *schema_def(json_t *schema, const char *ref)
{
    const char *prefix = "#/definitions/";
    if (strncmp(ref, prefix, strlen(prefix)) != 0)
        BUG("model schema: a $ref outside #/definitions");
    json_t *d = json_object_get(json_object_get(schema, "definitions"), ref + strlen(prefix));
    if (!d)
        BUG("model schema: a $ref to no definition");
    return d;
}

static void add_props(struct view_schema *vs, json_t *schema, struct btype *t, json_t *obj);

/* The object of 'p' ("properties" of its own or of a oneOf branch), or NULL. */
static json_t *object_of(json_t *p)
{
    if (json_object_get(p, "properties"))
        return p;
    json_t *alt = json_object_get(p, "oneOf");
    for (size_t i = 0; i < json_array_size(alt); i++)
        if (json_object_get(json_array_get(alt, i), "properties"))
            return json_array_get(alt, i);
    return NULL;
}

/* The value of schema node 'p'; 'name' names its type when it is an inline object. */
static struct view_value value_of(struct view_schema *vs, json_t *schema, json_t *p,
                                  const char *name)
{
    struct view_value v = {VIEW_STR, false, VIEW_STR, NULL};
    const char *ref = json_string_value(json_object_get(p, "$ref"));
    if (ref) {
        const char *def = strrchr(ref, '/') + 1;
        json_t *d = schema_def(schema, ref);
        if (object_of(d)) {
            v.kind = VIEW_OBJ;
            v.type = &type_get(vs, def)->t;
            v.nullable = json_object_get(d, "oneOf") != NULL;
            return v;
        }
        return value_of(vs, schema, d, name);
    }
    json_t *alt = json_object_get(p, "oneOf");
    if (alt) { /* [X, {"type": "null"}] */
        json_t *x = json_array_get(alt, 0);
        if (json_is_string(json_object_get(x, "type")) &&
            strcmp(json_string_value(json_object_get(x, "type")), "null") == 0)
            x = json_array_get(alt, 1);
        v = value_of(vs, schema, x, name);
        v.nullable = true;
        return v;
    }
    json_t *values = json_object_get(p, "enum");
    if (values) { /* the kind of its values: ["wrap", "stop"] or [32, 64]; null among them */
        for (size_t i = 0; i < json_array_size(values); i++) {
            json_t *x = json_array_get(values, i);
            if (json_is_null(x))
                v.nullable = true;
            else
                v.kind = json_is_integer(x) ? VIEW_INT : VIEW_STR;
        }
        return v;
    }
    if (json_object_get(p, "const")) {
        v.kind = VIEW_INT;
        return v;
    }
    json_t *type = json_object_get(p, "type");
    const char *tn = json_string_value(type);
    for (size_t i = 0; i < json_array_size(type); i++) { /* ["string", "null"] */
        const char *s = json_string_value(json_array_get(type, i));
        if (strcmp(s, "null") == 0)
            v.nullable = true;
        else
            tn = s;
    }
    if (!tn)
        BUG("model schema: a property without a type");
    if (strcmp(tn, "integer") == 0) {
        v.kind = VIEW_INT;
    } else if (strcmp(tn, "number") == 0) {
        v.kind = VIEW_NUM;
    } else if (strcmp(tn, "boolean") == 0) {
        v.kind = VIEW_BOOL;
    } else if (strcmp(tn, "object") == 0) {
        struct btype *t = type_get(vs, name);
        add_props(vs, schema, t, p);
        v.kind = VIEW_OBJ;
        v.type = &t->t;
    } else if (strcmp(tn, "array") == 0) {
        struct view_value item = value_of(vs, schema, json_object_get(p, "items"), name);
        v.kind = VIEW_LIST;
        v.item = item.kind;
        v.type = item.type;
    } else if (strcmp(tn, "string") != 0) {
        BUG("model schema: an unknown type");
    }
    return v;
}

/* The properties of object schema 'obj' as members of t; one its "required" does not list may be
 * absent, so a template may take it as a section (nullable). */
static void add_props(struct view_schema *vs, json_t *schema, struct btype *t, json_t *obj)
{
    const char *key;
    json_t *p, *required = json_object_get(obj, "required");
    json_object_foreach(json_object_get(obj, "properties"), key, p) {
        /* an inline object is named by its property ("spec"), or TYPE.PROPERTY below the root */
        char *name = &t->t == vs->types[0] ? arena_strdup(&vs->a, key)
                                           : arena_printf(&vs->a, "%s.%s", t->t.name, key);
        struct view_value v = value_of(vs, schema, p, name);
        bool listed = !json_is_array(required);
        for (size_t i = 0; !listed && i < json_array_size(required); i++)
            listed = strcmp(json_string_value(json_array_get(required, i)), key) == 0;
        v.nullable |= !listed;
        member_set(vs, t, key, strlen(key), v, VIEW_MODEL)->optional = !listed;
    }
}

/* "str", "int?", "obj:TYPE", "list:TYPE", "list:str" */
static struct view_value parse_kind(struct view_schema *vs, const char *k)
{
    static const struct {
        const char *word;
        enum view_kind kind;
    } words[] = {{"str", VIEW_STR}, {"int", VIEW_INT}, {"bool", VIEW_BOOL}};
    struct view_value v = {VIEW_STR, false, VIEW_STR, NULL};
    if (strncmp(k, "list:", 5) == 0) {
        struct view_value item = parse_kind(vs, k + 5);
        v.kind = VIEW_LIST;
        v.item = item.kind;
        v.type = item.type;
        return v;
    }
    if (strncmp(k, "obj", 3) == 0) {
        v.kind = VIEW_OBJ;
        v.nullable = k[3] == '?';
        v.type = &type_get(vs, strchr(k, ':') + 1)->t;
        return v;
    }
    for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
        size_t n = strlen(words[i].word);
        if (strncmp(k, words[i].word, n) == 0 && (k[n] == '\0' || (k[n] == '?' && !k[n + 1]))) {
            v.kind = words[i].kind;
            v.nullable = k[n] == '?';
            return v;
        }
    }
    /* a type's name: the items of a list */
    v.kind = VIEW_OBJ;
    v.type = &type_get(vs, k)->t;
    return v;
}

/*
 * Marks the types reached from 't' ('annotated': by names that are not c_
 * or t_ ones, which tables_annotate() follows).
 */
static void mark_reached(struct btype *t, bool annotated)
{
    if (t->t.reached && (t->t.annotated || !annotated))
        return;
    t->t.reached = true;
    t->t.annotated |= annotated;
    for (size_t i = 0; i < t->t.n; i++) {
        const struct view_member *m = &t->members[i];
        bool plain = strncmp(m->name, "c_", 2) != 0 && strncmp(m->name, "t_", 2) != 0;
        if (m->v.type)
            mark_reached(as_btype(m->v.type), annotated && plain);
    }
}

int view_build_init(struct view_schema *vs, const char *json, size_t len, struct buf *err)
{
    memset(vs, 0, sizeof(*vs));
    json_error_t jerr;
    json_t *schema = json_loadb(json, len, 0, &jerr);
    if (!schema) {
        buf_addf(err, "line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
        return -1;
    }
    arena_init(&vs->a);
    vs->build = xcalloc(1, sizeof(*vs->build));
    struct btype *root = type_get(vs, "root");
    add_props(vs, schema, root, schema);
    const char *key;
    json_t *d;
    json_object_foreach(json_object_get(schema, "definitions"), key, d) {
        json_t *o = object_of(d);
        if (o)
            add_props(vs, schema, type_get(vs, key), o);
    }
    json_decref(schema);
    for (size_t i = 0; i < ARRAY_SIZE(derived); i++) {
        struct btype *t = type_get(vs, derived[i].type);
        for (const char *name = derived[i].names; *name;) {
            size_t n = strcspn(name, " ");
            if (view_member_find(&t->t, name, n))
                BUG("view: a derived name the model schema has");
            member_set(vs, t, name, n, parse_kind(vs, derived[i].kind), VIEW_DERIVED);
            name += n + (name[n] == ' ');
        }
    }
    vs->root = &root->t;
    mark_reached(root, true);
    return 0;
}

void view_build_release(struct view_schema *vs)
{
    for (size_t i = 0; i < vs->ntypes; i++)
        free(as_btype(vs->types[i])->members);
    if (vs->build)
        free(vs->build->types);
    free(vs->build);
    arena_release(&vs->a);
    memset(vs, 0, sizeof(*vs));
}
