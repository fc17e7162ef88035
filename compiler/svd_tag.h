/*
 * svd_tag - an SVD element's name as a number, found by one hash lookup.
 *
 * svd_parse.c's walk matched every element's name against the names it
 * knows with a chain of strcmp (some 25 per element, a quarter of reading an
 * SVD file); the names are now keys of the one hash map (common/map.h).
 * svd_parse.c asks only for a name it has not met yet in the file: it
 * knows the names it has met by libxml2's pointers to them (tag_of()).
 */
#ifndef REGC_SVD_TAG_H
#define REGC_SVD_TAG_H

#include "map.h"
#include "svd_int.h"

/* The elements that make an object or wrap objects, and <writeConstraint>. */
#define SVD_TAG_LIST(X)                                                                            \
    X(CPU, "cpu")                                                                                  \
    X(PERIPHERALS, "peripherals")                                                                  \
    X(PERIPHERAL, "peripheral")                                                                    \
    X(REGISTERS, "registers")                                                                      \
    X(REGISTER, "register")                                                                        \
    X(CLUSTER, "cluster")                                                                          \
    X(INTERRUPT, "interrupt")                                                                      \
    X(ADDRESS_BLOCK, "addressBlock")                                                               \
    X(FIELDS, "fields")                                                                            \
    X(FIELD, "field")                                                                              \
    X(ENUMERATED_VALUES, "enumeratedValues")                                                       \
    X(ENUMERATED_VALUE, "enumeratedValue")                                                         \
    X(WRITE_CONSTRAINT, "writeConstraint")                                                         \
    X(DIM_ARRAY_INDEX, "dimArrayIndex")

/* A text element's number is its enum svd_text; the others follow. */
enum svd_tag {
    SVD_TAG__TEXT_END = SVD_T__COUNT - 1,
#define SVD_X_(id, tag) SVD_TAG_##id,
    SVD_TAG_LIST(SVD_X_)
#undef SVD_X_
        SVD_TAG_UNKNOWN /* a name the reader does not know */
};

/* The names the reader knows; init, then release with svd_tags_release(). */
struct svd_tags {
    struct regc_map by_name; /* a name's val: its enum svd_tag + 1 */
};

void svd_tags_init(struct svd_tags *c);
void svd_tags_release(struct svd_tags *c);

/* The number of the element name 'name' (SVD_TAG_UNKNOWN for a name SVD does not define here). */
enum svd_tag svd_tag_of(const struct svd_tags *c, const char *name);

#endif
