/* runtime/regctl/secure.c - options that name paths, in a privileged run. */
#include "secure.h"

#include <stdio.h>
#include <sys/auxv.h>

bool regctl_path_option_ok(const char *option)
{
    if (!getauxval(AT_SECURE))
        return true;
    fprintf(stderr,
            "regctl: %s is refused: regctl runs set-user-ID, set-group-ID or with raised "
            "capabilities, and would open files of the caller's choosing\n",
            option);
    return false;
}
