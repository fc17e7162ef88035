/*
 * Replays tests/fuzz/regress-mustache/: inputs of the template fuzz target
 * (tests/fuzz/fuzz_mustache.c, included here, so that they are rendered
 * exactly as the fuzzer renders them) that once ran for seconds or without
 * end, a block override multiplying the output per copy. Each NAME.in must
 * now stop at the target's limits, linear in the input's size, with the
 * diagnostics in NAME.err, and no more output than the limit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fuzz/fuzz_mustache.c"
#include "util.h"

static const char *regress_dir(void)
{
    const char *dir = getenv("FUZZ_REGRESS_DIR");
    return dir ? dir : "tests/fuzz/regress-mustache";
}

/* The whole file dir/name; NULL if it cannot be read. */
static char *slurp(const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", regress_dir(), name);
    struct util_file f;
    if (util_read_input(path, 0, &f) < 0)
        return NULL;
    *len = f.len;
    return f.text;
}

static void replay(const char *name)
{
    size_t len, elen;
    char *in = slurp(name, &len);
    assert_non_null(in);
    char errname[512];
    snprintf(errname, sizeof(errname), "%.*s.err", (int)(strlen(name) - 3), name);
    char *want = slurp(errname, &elen);
    assert_non_null(want);
    struct diag dg;
    diag_init(&dg, NULL);
    struct buf out = BUF_INIT;
    int rc = fuzz_mustache_render((const uint8_t *)in, len, &dg, &out);
    printf("# %s: %zu bytes in, %zu out (limit %zu)\n", name, len, out.len,
           (size_t)FUZZ_MAX_OUTPUT(len));
    assert_int_equal(rc, -1);
    assert_int_equal(dg.count[DIAG_TEMPLATE_LIMIT], 1);
    assert_true(out.len <= FUZZ_MAX_OUTPUT(len));
    assert_string_equal(dg.text.s, want);
    buf_release(&out);
    diag_release(&dg);
    free(in);
    free(want);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_input(const struct dirent *e)
{
    size_t n = strlen(e->d_name);
    return n > 3 && strcmp(e->d_name + n - 3, ".in") == 0;
}

static void test_regressions(void **state)
{
    (void)state;
    struct dirent **list;
    int n = scandir(regress_dir(), &list, is_input, by_name);
    assert_true(n >= 7); /* the six timeouts and the expansion case */
    for (int i = 0; i < n; i++) {
        replay(list[i]->d_name);
        free(list[i]);
    }
    free(list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regressions),
    };
    return cmocka_run_group_tests_name("mustache fuzz regressions", tests, NULL, NULL);
}
