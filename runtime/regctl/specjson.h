/*
 * specjson.h - `regctl --spec FILE`: a spec a user wrote, loaded from its
 * JSON model (`regc -t json SPEC.xml`, docs/json.md) into the descriptor
 * tables of regc/desc.h, the same structures `regc -t tables` writes as C
 * for the built-in specs, so every command works on it alike.
 *
 * The document is parsed by jansson, validated against the model's schema
 * (docs/regc-model.schema.json, compiled into regctl; jschema.h), then
 * checked for what the runtime relies on and a schema cannot say: field bits
 * inside the register, every name a role, event, setting or filter gives
 * found in its block, rule expressions parsed by regc's own parser
 * (common/expr.c) into the postfix ops regc writes into the tables. Every
 * error names the file and the JSON path ("$.blocks[1].events[3].register").
 */
#ifndef REGCTL_SPECJSON_H
#define REGCTL_SPECJSON_H

#include "regc/desc.h"

/*
 * Loads 'path' ("-": standard input) into *out, its tables owned by
 * specjson.c until regctl_spec_release(). The file is opened as
 * regctl_open_trusted() (secure.h) allows. 0, or 1 after the errors are
 * printed on stderr.
 */
int regctl_spec_load(const char *path, const struct regc_spec **out);

/* Frees every spec regctl_spec_load() made. */
void regctl_spec_release(void);

/* The schema the model is validated against (the build embeds docs/regc-model.schema.json). */
extern const char regc_model_schema[];
extern const size_t regc_model_schema_len;

#endif
