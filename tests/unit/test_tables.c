/* test_tables - the extra keys the descriptor-table template needs (compiler/tables.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "tables.h"
#include "dt_json.h"

static void test_c_string(void **st)
{
    char *s = tables_c_string("say \"hi\" \\ ?\?= \x01\nend");
    assert_string_equal(s, "\"say \\\"hi\\\" \\\\ \\?\\?= \\001\\nend\"");
    free(s);
}

static void test_annotate(void **st)
{
    json_error_t e;
    json_t *t = json_loads(
        "{\"spec\": {\"name\": \"x\", \"title\": null},"
        " \"blocks\": [{\"registers\": [{\"space\": \"pci\", \"desc\": \"a \\\"b\\\"\","
        " \"instances\": [{\"index\": null, \"instance\": null}, {\"index\": 3}],"
        " \"fields\": [{\"access\": \"RW-V\"}, {\"access\": \"rsv\"}, {\"access\": \"RS\"}]}],"
        " \"pmon\": {\"counters\": [{\"overflow\": \"stop\", \"preload\": \"2^w-1-N\"}],"
        " \"box_status\": {\"clear\": \"register\", \"c_keep\": \"x\"}}}]}",
        0, &e);
    assert_non_null(t);
    t = apply_json(t, tables_annotate);
    char *out = json_dumps(t, JSON_SORT_KEYS | JSON_COMPACT);
    assert_string_equal(
        out,
        "{\"blocks\":[{\"pmon\":{\"box_status\":{\"c_keep\":\"x\",\"clear\":\"register\","
        "\"t_clear\":\"REGC_CLEAR_REGISTER\"},\"counters\":[{\"overflow\":\"stop\",\"preload\":\"2^"
        "w-1-N\","
        "\"t_overflow\":\"REGC_OVF_STOP\",\"t_preload\":\"REGC_PRELOAD_2W_MINUS_1_MINUS_N\"}]},"
        "\"registers\":[{\"desc\":\"a "
        "\\\"b\\\"\",\"fields\":[{\"access\":\"RW-V\",\"t_access\":\"REGC_ACCESS_RW_V\",\"t_access_"
        "text\":\"\\\"RW-V\\\"\"},"
        "{\"access\":\"rsv\",\"t_access\":\"REGC_ACCESS_RSV\",\"t_access_text\":\"\\\"rsv\\\"\"},{"
        "\"access\":\"RS\",\"t_access\":\"REGC_ACCESS_UNKNOWN\",\"t_access_text\":\"\\\"RS\\\"\"}],"
        "\"instances\":[{\"index\":null,\"instance\":null,\"t_index\":-1,\"t_instance\":\"NULL\"},"
        "{\"index\":3,\"t_index\":3}],\"space\":\"pci\",\"t_desc\":\"\\\"a \\\\\\\"b\\\\\\\"\\\"\","
        "\"t_space\":\"REGC_SPACE_PCI\"}]}],\"spec\":{\"name\":\"x\",\"t_name\":\"\\\"x\\\"\",\"t_"
        "title\":\"NULL\","
        "\"title\":null}}");
    free(out);
    json_decref(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_c_string),
        cmocka_unit_test(test_annotate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
