/* runtime/regctl/secure.h - options that name paths, in a privileged run. */
#ifndef REGCTL_SECURE_H
#define REGCTL_SECURE_H

#include <stdbool.h>

/* False, after saying why on stderr, when regctl runs set-user-ID,
 * set-group-ID or with raised capabilities (the kernel's AT_SECURE) and
 * 'option' names a path: whoever runs such a program must not choose the
 * files it opens (docs/runtime.md, "Environment"). */
bool regctl_path_option_ok(const char *option);

/*
 * regctl_open_trusted - opens 'path', given by 'option', to read a file
 * that says what regctl will touch (a spec: its addresses are written).
 * Refused, with the reason on stderr and -1, when regctl runs privileged
 * (regctl_path_option_ok: the caller gives the file on standard input
 * instead, which the caller's shell opened with the caller's rights); when
 * the last component is a symbolic link owned by neither the user nor root;
 * when the file is not a regular file (a FIFO would hang the run, a device
 * be read), is owned by neither the user nor root, or can be written by its
 * group or by others; when its directory can be written by others and has
 * no sticky bit (they could replace the file). Otherwise the descriptor
 * (O_CLOEXEC), which the caller closes.
 */
int regctl_open_trusted(const char *path, const char *option);

#endif
