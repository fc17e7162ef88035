/*
 * jschema.h - a JSON Schema validator for the keywords the model's schema
 * (docs/regc-model.schema.json, draft-07) uses, over jansson values: type,
 * properties, required, additionalProperties (true, false or a schema),
 * items (one schema), minItems, enum, const, minimum, maximum, pattern (a
 * POSIX extended regular expression: the schema's patterns mean the same in
 * ECMA 262 and POSIX), oneOf, anyOf, allOf and local "$ref"s
 * ("#/definitions/NAME"); title, description, $schema, $id and default are
 * notes. A schema node that uses any other keyword is refused when the
 * validation reaches it (never half-checked), naming the keyword, so a
 * schema that grows a keyword fails the tests that load every spec's model
 * (test_specjson) rather than passing values it does not check.
 *
 * Debian has no C JSON-Schema library; tests/runtime/run-specjson.sh checks
 * that this one and python3-jsonschema agree on the inputs it tries.
 */
#ifndef REGCTL_JSCHEMA_H
#define REGCTL_JSCHEMA_H

#include <jansson.h>
#include <stddef.h>

/* Where the errors of a validation go: at most JSCHEMA_MAX_ERRORS lines, "PATH: what". */
#define JSCHEMA_MAX_ERRORS 20
struct jschema_errors {
    char text[JSCHEMA_MAX_ERRORS][320]; /* "$.blocks[0].registers[2].width: 65 is above 64" */
    unsigned n;                         /* how many were found (may exceed the lines kept) */
};

/*
 * Validates 'doc' against 'schema' (the root, for its $refs). Returns 0 when
 * it is valid; 1 with the errors in *errs ("$" is the document, ".key" and
 * "[i]" the way down); -1 when the schema itself is not one this validator
 * takes, with the reason in errs->text[0].
 */
int jschema_validate(json_t *schema, json_t *doc, struct jschema_errors *errs);

#endif
