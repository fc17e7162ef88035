/* advice - the way round a refusal, in regctl's options (advice.h). */
#include "advice.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void regctl_advise(const char *backend, int rc, const char *msg, bool lock_dir_given)
{
    bool sim = backend && strcmp(backend, "sim") == 0;
    bool lock = msg && strstr(msg, "lock directory"); /* libregrt's lock.c says so */
    if (lock && !lock_dir_given)
        fprintf(stderr, "regctl: note: --lock-dir DIR takes the locks in another directory, one "
                        "that only you and root can write (see 'regctl monitor --help')\n");
    else if (!lock && !sim && (rc == -EACCES || rc == -EPERM))
        fprintf(stderr, "regctl: note: --backend sim runs the same command on the simulator, "
                        "without the hardware or its permissions\n");
}
