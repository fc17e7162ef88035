/*
 * run.h - the program `regctl monitor ... -- CMD` measures, the signals that
 * end a run, and the waits between intervals (run.c).
 *
 * SIGINT, SIGTERM and SIGHUP only record the signal (run_stop) and wake a
 * wait: the monitoring loop ends in normal context and restores the boxes.
 * While a command runs, a signal another process sent to regctl (kill) is
 * passed on to the command; a terminal's Ctrl-C reaches the command itself
 * (same process group), and regctl waits for the command to end, as perf
 * stat does. The command inherits stdin, stdout, stderr and the environment;
 * regctl's own descriptors (devices, locks) are all close-on-exec.
 */
#ifndef REGCTL_RUN_H
#define REGCTL_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/* The signal that asked the run to end (its number), 0 while none has. */
extern volatile sig_atomic_t run_stop;

/* Installs the handlers (no SA_RESTART: a wait for a lock ends on the signal). 0, or -errno. */
int run_catch_signals(void);

/* The command being measured. */
struct run_child {
    pid_t pid;  /* 0: none started */
    bool ended; /* it has exited; 'status' is waitpid's */
    int status;
};

/*
 * Starts argv[0] (searched in PATH) with argv. 0; or 126 (not executable) or
 * 127 (not found, or no process) with "regctl: monitor: cannot run 'CMD': why"
 * on stderr, the command's exec error having come back through a
 * close-on-exec pipe; then nothing runs.
 */
int run_start(struct run_child *c, char **argv);

/*
 * Waits until 'deadline_ns' (CLOCK_MONOTONIC, run_now_ns()), the child's end
 * or a signal, whichever comes first. A negative deadline: no timeout.
 */
void run_wait(struct run_child *c, long long deadline_ns);

/* Whether the child, if any, has ended (reaped here). */
bool run_ended(struct run_child *c);

/* The child's status as a shell gives it: its exit code, or 128 + the signal that ended it. */
int run_status(const struct run_child *c);

/*
 * Flushes f; when its output cannot be written (the reader of a pipe gone:
 * SIGPIPE is ignored, so the write fails with EPIPE) the run ends as on
 * SIGPIPE (run_stop, exit 141), the boxes restored. True when lost.
 */
bool run_output_lost(FILE *f);

/* CLOCK_MONOTONIC in nanoseconds. */
long long run_now_ns(void);

#endif
