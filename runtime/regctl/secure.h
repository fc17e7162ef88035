/* runtime/regctl/secure.h - options that name paths, in a privileged run. */
#ifndef REGCTL_SECURE_H
#define REGCTL_SECURE_H

#include <stdbool.h>

/* False, after saying why on stderr, when regctl runs set-user-ID,
 * set-group-ID or with raised capabilities (the kernel's AT_SECURE) and
 * 'option' names a path: whoever runs such a program must not choose the
 * files it opens (docs/runtime.md, "Environment"). */
bool regctl_path_option_ok(const char *option);

#endif
