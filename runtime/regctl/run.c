/*
 * run - the command `regctl monitor ... -- CMD` measures (fork and exec), the
 * signals that end a run, and the waits between intervals (run.h). One
 * self-pipe wakes the wait: every handler writes a byte to it, so a signal or
 * the child's end that comes just before the wait is not slept through.
 */
#define _GNU_SOURCE /* ppoll, pipe2 */
#include "run.h"
#include "fail.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t run_stop;
static volatile pid_t child_pid; /* the running command, for the handler; 0: none */
static int wake[2] = {-1, -1};   /* the self-pipe: read end, write end */

static void poke(void)
{
    int saved = errno;
    if (wake[1] >= 0 && write(wake[1], "", 1) < 0) { /* full: a wake is pending anyway */
    }
    errno = saved;
}

/* A signal another process sent (kill: si_code <= 0) goes on to the command; a terminal's
 * reached it already, through the process group. */
static void on_stop(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    run_stop = sig;
    if (child_pid > 0 && si && si->si_code <= 0)
        kill(child_pid, sig);
    poke();
}

static void on_child(int sig)
{
    (void)sig;
    poke();
}

int run_catch_signals(void)
{
    if (wake[0] < 0 && pipe2(wake, O_CLOEXEC | O_NONBLOCK) < 0)
        return -errno;
    struct sigaction sa = {.sa_sigaction = on_stop, .sa_flags = SA_SIGINFO};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    struct sigaction sc = {.sa_handler = on_child, .sa_flags = SA_NOCLDSTOP};
    sigemptyset(&sc.sa_mask);
    sigaction(SIGCHLD, &sc, NULL);
    /* a reader gone (regctl ... | head) must not kill regctl with the boxes programmed:
     * the write fails instead, and run_output_lost() ends the run */
    struct sigaction si = {.sa_handler = SIG_IGN};
    sigemptyset(&si.sa_mask);
    sigaction(SIGPIPE, &si, NULL);
    return 0;
}

long long run_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* In the child: exec, or send exec's errno up the close-on-exec pipe and end. */
static void child_exec(int report, char **argv)
{
    signal(SIGPIPE, SIG_DFL); /* an ignored signal stays ignored across exec */
    execvp(argv[0], argv);
    int e = errno;
    if (write(report, &e, sizeof(e)) < 0) { /* the parent then sees a silent end */
    }
    _exit(127);
}

int run_start(struct run_child *c, char **argv)
{
    int p[2];
    *c = (struct run_child){0};
    fflush(stdout); /* nothing buffered twice */
    fflush(stderr);
    if (pipe2(p, O_CLOEXEC) < 0)
        return regctl_fail(127, "monitor: cannot run '%s': %s", argv[0], strerror(errno));
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        child_exec(p[1], argv);
    }
    int fork_err = errno;
    close(p[1]);
    if (pid < 0) {
        close(p[0]);
        return regctl_fail(127, "monitor: cannot run '%s': %s", argv[0], strerror(fork_err));
    }
    c->pid = pid;
    child_pid = pid;
    int e = 0;
    ssize_t n;
    while ((n = read(p[0], &e, sizeof(e))) < 0 && errno == EINTR)
        ;
    close(p[0]);
    if (n != (ssize_t)sizeof(e))
        return 0; /* exec succeeded: the pipe closed empty */
    while (waitpid(pid, &c->status, 0) < 0 && errno == EINTR)
        ;
    c->ended = true;
    child_pid = 0;
    fprintf(stderr, "regctl: monitor: cannot run '%s': %s\n", argv[0], strerror(e));
    return e == ENOENT || e == ENOTDIR ? 127 : 126;
}

bool run_ended(struct run_child *c)
{
    if (!c->pid || c->ended)
        return c->ended;
    pid_t r = waitpid(c->pid, &c->status, WNOHANG);
    if (r == c->pid || (r < 0 && errno == ECHILD)) {
        c->ended = true;
        child_pid = 0;
    }
    return c->ended;
}

void run_wait(struct run_child *c, long long deadline_ns)
{
    if (run_ended(c))
        return;
    struct pollfd pf = {.fd = wake[0], .events = POLLIN};
    struct timespec ts, *tp = NULL;
    if (deadline_ns >= 0) {
        long long left = deadline_ns - run_now_ns();
        if (left <= 0)
            return;
        ts = (struct timespec){(time_t)(left / 1000000000LL), (long)(left % 1000000000LL)};
        tp = &ts;
    }
    if (ppoll(&pf, 1, tp, NULL) > 0) {
        char drain[64];
        while (read(wake[0], drain, sizeof(drain)) > 0)
            ;
    }
}

int run_status(const struct run_child *c)
{
    if (WIFSIGNALED(c->status))
        return 128 + WTERMSIG(c->status);
    return WIFEXITED(c->status) ? WEXITSTATUS(c->status) : 1;
}

bool run_output_lost(FILE *f)
{
    if (fflush(f) == 0 && !ferror(f))
        return false;
    if (!run_stop)
        run_stop = SIGPIPE;
    return true;
}
