/* runtime/regctl/numarg.c - a number from the command line, with regctl's wording of a refusal. */
#include "numarg.h"
#include "fail.h"

#include <stdio.h>
#include <string.h>

int regctl_num(const char *what, const char *text, uint64_t min, uint64_t max, unsigned flags,
               uint64_t *out)
{
    char why[96];
    if (regc_num_parse(text, REGC_NUM_NUL, min, max, flags, out, why, sizeof(why)) == REGC_NUM_OK)
        return 0;
    return regctl_fail(2, "%s '%s': %s", what, text, why);
}

int regctl_num_signed(const char *what, const char *text, int64_t min, int64_t max, int64_t *out)
{
    char why[96];
    if (regc_num_parse_signed(text, REGC_NUM_NUL, min, max, out, why, sizeof(why)) == REGC_NUM_OK)
        return 0;
    return regctl_fail(2, "%s '%s': %s", what, text, why);
}

/* The unit at the end of a duration, and how many of it make a second; the unit's length in
 * *ul (0: none). */
static uint64_t duration_unit(const char *s, size_t len, size_t *ul)
{
    static const struct {
        const char *unit;
        uint64_t per_s;
    } units[] = {{"ms", 1000}, {"us", 1000000}, {"s", 1}};
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        *ul = strlen(units[i].unit);
        if (len > *ul && strcmp(s + len - *ul, units[i].unit) == 0)
            return units[i].per_s;
    }
    *ul = 0;
    return 1;
}

int regctl_duration(const char *what, const char *text, uint64_t max_s, const char *hint,
                    long long *ns)
{
    size_t len = strlen(text), ul;
    uint64_t per_s = duration_unit(text, len, &ul), v;
    char why[160];
    if (regc_num_parse(text, len - ul, 0, max_s * per_s, REGC_NUM_DEC, &v, why, sizeof(why)))
        return regctl_fail(2, "%s '%s': %s (want 1s, 250ms, 0; at most %llus)", what, text, why,
                           (unsigned long long)max_s);
    if (!ul && v)
        return regctl_fail(2, "%s '%s': a number without its unit: write %sms or %ss%s%s", what,
                           text, text, text, hint ? "; " : "", hint ? hint : "");
    *ns = (long long)(v * (1000000000 / per_s));
    return 0;
}
