/* runtime/regctl/numarg.c - a number from the command line, with regctl's wording of a refusal. */
#include "numarg.h"

#include <stdio.h>

int regctl_num(const char *what, const char *text, uint64_t min, uint64_t max, unsigned flags,
               uint64_t *out)
{
    char why[96];
    if (regc_num_parse(text, REGC_NUM_NUL, min, max, flags, out, why, sizeof(why)) == REGC_NUM_OK)
        return 0;
    fprintf(stderr, "regctl: %s '%s': %s\n", what, text, why);
    return 2;
}

int regctl_num_signed(const char *what, const char *text, int64_t min, int64_t max, int64_t *out)
{
    char why[96];
    if (regc_num_parse_signed(text, REGC_NUM_NUL, min, max, out, why, sizeof(why)) == REGC_NUM_OK)
        return 0;
    fprintf(stderr, "regctl: %s '%s': %s\n", what, text, why);
    return 2;
}
