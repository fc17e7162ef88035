/*
 * Unit tests for compiler/model_mmio.c's model_cluster_is_array(): the one rule a regspec's
 * <array-index> (xmlmmio.c) and -t cmsis-enum's later elements (context_cmsis.c) go by. The
 * cases are SVD's forms written out by hand: a cluster array (dim > 1), a dim of 1 (nRF5340's
 * EXTDOMAIN[%s]), the elements the reader expands of a "NAME[%s]" array and of a "NAME%s" list
 * (count 1, the written name with "%s"), and a plain cluster.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_mmio.h"

static bool is_array(const char *name, const char *written, unsigned count)
{
    struct model_cluster c = {.name = name, .written_name = written, .count = count};
    return model_cluster_is_array(&c);
}

static void test_cluster_is_array(void **state)
{
    (void)state;
    assert_true(is_array("FIFO", "FIFO[%s]", 4)); /* a [%s] array of plain registers */
    assert_true(is_array("G", "G", 3));           /* a regspec's count= without svd-name= */
    assert_true(is_array("EXTDOMAIN", "EXTDOMAIN[%s]", 1)); /* dim 1 */
    assert_true(is_array("FIFO1", "FIFO[%s]", 1));          /* an element the reader expanded */
    assert_true(is_array("LINKRX", "LINK%s", 1));           /* an element of a %s list */
    assert_false(is_array("SUB", "SUB", 1));                /* a plain cluster */
    assert_false(is_array("SUB", NULL, 1));                 /* no written name */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cluster_is_array),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
