/*
 * svd_words - SVD's access, modifiedWriteValues and readAction words, and
 * the attribute class they give a field (svd_words.h).
 */
#include "svd_words.h"

#include "util.h"

#include <string.h>

static const char *const write_words[WRITE_EFFECT__COUNT] = {
    [WRITE_STORES] = "modify",
    [WRITE_ONE_TO_CLEAR] = "oneToClear",
    [WRITE_ONE_TO_SET] = "oneToSet",
    [WRITE_ONE_TO_TOGGLE] = "oneToToggle",
    [WRITE_ZERO_TO_CLEAR] = "zeroToClear",
    [WRITE_ZERO_TO_SET] = "zeroToSet",
    [WRITE_ZERO_TO_TOGGLE] = "zeroToToggle",
    [WRITE_CLEAR] = "clear",
    [WRITE_SET] = "set",
};

static const char *const read_words[READ_EFFECT__COUNT] = {
    [READ_NONE] = NULL,
    [READ_CLEAR] = "clear",
    [READ_SET] = "set",
    [READ_MODIFY] = "modify",
    [READ_MODIFY_EXTERNAL] = "modifyExternal",
};

static const char *const access_words[] = {"read-only", "write-only", "read-write", "writeOnce",
                                           "read-writeOnce"};

static int word_index(const char *const *words, size_t n, const char *w)
{
    for (size_t i = 0; i < n; i++)
        if (words[i] && strcmp(words[i], w) == 0)
            return (int)i;
    return -1;
}

const char *svd_write_word(enum model_write_effect e)
{
    return e == WRITE_STORES || e >= WRITE_EFFECT__COUNT ? NULL : write_words[e];
}

int svd_write_parse(const char *w)
{
    return word_index(write_words, ARRAY_SIZE(write_words), w);
}

const char *svd_read_word(enum model_read_effect e)
{
    return e >= READ_EFFECT__COUNT ? NULL : read_words[e];
}

int svd_read_parse(const char *w)
{
    return word_index(read_words, ARRAY_SIZE(read_words), w);
}

const char *svd_usage_word(enum model_usage u)
{
    return u == USAGE_READ ? "read" : u == USAGE_WRITE ? "write" : "read-write";
}

bool svd_access_is_word(const char *w)
{
    return word_index(access_words, ARRAY_SIZE(access_words), w) >= 0;
}

/*
 * The class of a modifiedWriteValues (docs/regspec.md quotes the CMSIS-SVD definitions).
 * oneToClear and oneToSet on a write-only field are WO: a 1 acts, a safe write writes 0. The
 * other effects keep their class without reads too: what a safe write writes is the same.
 */
static enum regc_access effect_access(enum model_write_effect e, bool reads)
{
    static const enum regc_access classes[WRITE_EFFECT__COUNT] = {
        [WRITE_STORES] = REGC_ACCESS_RW,          [WRITE_ONE_TO_CLEAR] = REGC_ACCESS_RW1C,
        [WRITE_ONE_TO_SET] = REGC_ACCESS_RW1S,    [WRITE_ONE_TO_TOGGLE] = REGC_ACCESS_RW1T,
        [WRITE_ZERO_TO_CLEAR] = REGC_ACCESS_RW0C, [WRITE_ZERO_TO_SET] = REGC_ACCESS_RW0S,
        [WRITE_ZERO_TO_TOGGLE] = REGC_ACCESS_RW0T, [WRITE_CLEAR] = REGC_ACCESS_RWAC,
        [WRITE_SET] = REGC_ACCESS_RWAS};
    if (!reads && (e == WRITE_ONE_TO_CLEAR || e == WRITE_ONE_TO_SET))
        return REGC_ACCESS_WO;
    return classes[e];
}

void svd_field_access(struct arena *a, struct model_field *f, const char *acc)
{
    struct model_field_ext *x = model_field_ext_set(a, f);
    x->write_once = strstr(acc, "riteOnce") != NULL;
    bool reads = strncmp(acc, "read", 4) == 0, writes = strcmp(acc, "read-only") != 0;
    f->access = !writes ? REGC_ACCESS_RO : !reads ? REGC_ACCESS_WO : REGC_ACCESS_RW;
    if (x->write_once)
        f->access = reads ? REGC_ACCESS_RWO : REGC_ACCESS_WOO;
    f->access_text = acc;
    if (writes && x->write_effect != WRITE_STORES) {
        f->access_text = arena_printf(a, "%s, %s", acc, write_words[x->write_effect]);
        f->access = effect_access(x->write_effect, reads);
    }
    /* a read side effect is shown where the attribute is: "read-only, readAction clear" */
    if (x->read_effect != READ_NONE)
        f->access_text =
            arena_printf(a, "%s, readAction %s", f->access_text, read_words[x->read_effect]);
}
