/* Unit tests for compiler/depfile.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "depfile.h"

static void test_rule_and_phony_targets(void **state)
{
    const char *inputs[] = {"regspec/x.xml", "regspec/events/x_ubox.xml"};
    const char *templates[] = {"t/c.mustache"};
    struct buf b = BUF_INIT;
    depfile_format(&b, "out/x.h", inputs, 2, templates, 1);
    assert_string_equal(b.s, "out/x.h: \\\n  regspec/x.xml \\\n  regspec/events/x_ubox.xml \\\n"
                             "  t/c.mustache\n"
                             "\nregspec/x.xml:\n"
                             "\nregspec/events/x_ubox.xml:\n"
                             "\nt/c.mustache:\n");
    buf_release(&b);
}

static void test_special_characters_escaped(void **state)
{
    const char *inputs[] = {"my dir/a$b#c.xml"};
    struct buf b = BUF_INIT;
    depfile_format(&b, "o.h", inputs, 1, NULL, 0);
    assert_string_equal(b.s, "o.h: \\\n  my\\ dir/a$$b\\#c.xml\n\nmy\\ dir/a$$b\\#c.xml:\n");
    buf_release(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_and_phony_targets),
        cmocka_unit_test(test_special_characters_escaped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
