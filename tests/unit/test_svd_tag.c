/*
 * Unit tests for compiler/svd_tag.c: an SVD element's name as a number.
 * The expected numbers are the element names of the CMSIS-SVD schema
 * (CMSIS-SVD.xsd: <resetValue>, <addressOffset>, <registers>...) written out
 * by hand with the meaning svd_int.h gives them, not read from the table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "svd_tag.h"

static void test_known_names(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int tag;
    } known[] = {
        {"name", SVD_T_NAME},
        {"description", SVD_T_DESC},
        {"resetValue", SVD_T_RESET},
        {"resetMask", SVD_T_RESET_MASK},
        {"addressOffset", SVD_T_OFFSET_ADDR},
        {"offset", SVD_T_OFFSET},
        {"bitRange", SVD_T_BIT_RANGE},
        {"dimIncrement", SVD_T_DIM_INCR},
        {"deviceNumInterrupts", SVD_T_NUM_IRQ},
        {"sauNumRegions", SVD_T_SAU_REGIONS},
        {"cpu", SVD_TAG_CPU},
        {"peripherals", SVD_TAG_PERIPHERALS},
        {"peripheral", SVD_TAG_PERIPHERAL},
        {"registers", SVD_TAG_REGISTERS},
        {"register", SVD_TAG_REGISTER},
        {"cluster", SVD_TAG_CLUSTER},
        {"addressBlock", SVD_TAG_ADDRESS_BLOCK},
        {"fields", SVD_TAG_FIELDS},
        {"field", SVD_TAG_FIELD},
        {"enumeratedValues", SVD_TAG_ENUMERATED_VALUES},
        {"enumeratedValue", SVD_TAG_ENUMERATED_VALUE},
        {"writeConstraint", SVD_TAG_WRITE_CONSTRAINT},
        {"dimArrayIndex", SVD_TAG_DIM_ARRAY_INDEX},
    };
    struct svd_tags c;
    svd_tags_init(&c);
    for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
        char copy[64]; /* another pointer with the same text: names are looked up by text */
        strcpy(copy, known[i].name);
        assert_int_equal(svd_tag_of(&c, copy), known[i].tag);
        assert_int_equal(svd_tag_of(&c, known[i].name), known[i].tag);
    }
    assert_string_equal(svd_text_tag(SVD_T_RESET), "resetValue");
    assert_string_equal(svd_text_tag(SVD_T_SAU_REGIONS), "sauNumRegions");
    svd_tags_release(&c);
}

/* Case, prefixes, extensions and names SVD defines elsewhere or the reader skips are unknown. */
static void test_unknown_names(void **state)
{
    (void)state;
    static const char *const unknown[] = {"Register", "regist",   "registerx",
                                          "",         "vendorExtensions", "range",
                                          "device",   "resetvalue"};
    struct svd_tags c;
    svd_tags_init(&c);
    for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
        assert_int_equal(svd_tag_of(&c, unknown[i]), SVD_TAG_UNKNOWN);
    svd_tags_release(&c);
}

/* Each text element's name answers its own number: no name given twice in the lists. */
static void test_every_text_tag_round_trips(void **state)
{
    (void)state;
    struct svd_tags c;
    svd_tags_init(&c);
    for (int t = 0; t < SVD_T__COUNT; t++)
        assert_int_equal(svd_tag_of(&c, svd_text_tag((enum svd_text)t)), t);
    svd_tags_release(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_names),
        cmocka_unit_test(test_unknown_names),
        cmocka_unit_test(test_every_text_tag_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
