/* fail - regctl's error line (fail.h). */
#include "fail.h"

#include <stdarg.h>
#include <stdio.h>

int regctl_fail(int status, const char *fmt, ...)
{
    char msg[8192]; /* whole, so the line goes out in one write, as one fprintf's did */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof(msg)) {
        fprintf(stderr, "regctl: %s\n", msg);
        return status;
    }
    fputs("regctl: ", stderr); /* longer (a huge argument): never cut */
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return status;
}
