/*
 * advice.h - the way round a refusal, in regctl's own options: libregrt's
 * messages say what is missing (root, CAP_SYS_RAWIO, the msr driver,
 * perf_event_paranoid, a lock directory); a note after them names what
 * regctl offers instead (--backend sim, --lock-dir).
 */
#ifndef REGCTL_ADVICE_H
#define REGCTL_ADVICE_H

#include <stdbool.h>

/*
 * After an access, an open or a monitoring start refused with rc (0 or
 * -errno) and message 'msg' (may be NULL) on backend 'backend' (NULL: the
 * default, msr and pci): "regctl: note: ..." lines on stderr, or nothing
 * when regctl has no way round. 'lock_dir_given': --lock-dir was on the
 * line (then the lock directory is the user's choice, not a default).
 */
void regctl_advise(const char *backend, int rc, const char *msg, bool lock_dir_given);

#endif
