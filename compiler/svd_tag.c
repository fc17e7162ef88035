/*
 * svd_tag - an SVD element's name as a number (svd_tag.h).
 */
#include "svd_tag.h"
#include "fatal.h"
#include "util.h"

#include <stdint.h>

static const char *const names[] = {
#define SVD_X_(id, tag) tag,
    SVD_TEXT_LIST(SVD_X_) SVD_TAG_LIST(SVD_X_)
#undef SVD_X_
};

_Static_assert(ARRAY_SIZE(names) == SVD_TAG_UNKNOWN, "one name per tag");

const char *svd_text_tag(enum svd_text t)
{
    return names[t];
}

void svd_tags_init(struct svd_tags *c)
{
    regc_map_init(&c->by_name);
    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        bool found;
        xmap_put_str(&c->by_name, names[i], &found)->val = (void *)(uintptr_t)(i + 1);
    }
}

void svd_tags_release(struct svd_tags *c)
{
    regc_map_release(&c->by_name);
}

enum svd_tag svd_tag_of(const struct svd_tags *c, const char *name)
{
    const struct regc_map_entry *e = regc_map_find_str(&c->by_name, name);
    return e ? (enum svd_tag)((uintptr_t)e->val - 1) : SVD_TAG_UNKNOWN;
}
