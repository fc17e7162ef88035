/*
 * fail.h - regctl's error line, "regctl: MESSAGE" on stderr: the one way a
 * command says what went wrong, handing back the exit status it ends with.
 */
#ifndef REGCTL_FAIL_H
#define REGCTL_FAIL_H

/* Prints "regctl: ", the message and a newline on stderr, in one write. Returns 'status'. */
int regctl_fail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
