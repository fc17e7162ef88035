#!/usr/bin/env python3
"""bench/measure.py [--cpu] [--repeat N] [--limit-mb M] CMD... - run CMD, print "SECONDS MAXRSS_KB STATUS".

Wall time from a monotonic clock and peak resident memory of the child from
wait4(), so one run gives both numbers without GNU time. With --cpu, a
fourth number: the CPU seconds the child used (user + system, all threads).
The child's standard output goes to /dev/null.

--repeat N runs CMD N times and prints the median of each number (the
status: the first non-zero one, else 0), which steadies the numbers on a
loaded machine. --limit-mb M stops the child (SIGKILL) once its resident
memory passes M MiB, so a run that would exhaust a shared machine's memory
ends instead; the status is then "over" and the memory the peak seen.
"""
import os
import signal
import statistics
import sys
import time


def rss_kb(pid):
    """The child's current resident memory (VmRSS) in KiB, 0 if unknown."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_once(argv, limit_kb):
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.execvp(argv[0], argv)
    over = False
    if limit_kb:
        while True:
            wpid, status, usage = os.wait4(pid, os.WNOHANG)
            if wpid == pid:
                break
            if rss_kb(pid) > limit_kb:
                over = True
                os.kill(pid, signal.SIGKILL)
                _, status, usage = os.wait4(pid, 0)
                break
            time.sleep(0.02)
    else:
        _, status, usage = os.wait4(pid, 0)
    elapsed = time.monotonic() - start
    code = "over" if over else str(os.waitstatus_to_exitcode(status))
    return elapsed, usage.ru_maxrss, code, usage.ru_utime + usage.ru_stime


def main():
    args = sys.argv[1:]
    cpu, repeat, limit_kb = False, 1, 0
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--cpu":
            cpu = True
        elif opt == "--repeat":
            repeat = int(args.pop(0))
        elif opt == "--limit-mb":
            limit_kb = int(args.pop(0)) * 1024
        else:
            sys.exit(f"measure.py: unknown option {opt}")
    if not args or repeat < 1:
        sys.exit("usage: measure.py [--cpu] [--repeat N] [--limit-mb M] CMD...")
    runs = [run_once(args, limit_kb) for _ in range(repeat)]
    status = next((r[2] for r in runs if r[2] != "0"), "0")
    line = (f"{statistics.median(r[0] for r in runs):.4f} "
            f"{int(statistics.median(r[1] for r in runs))} {status}")
    if cpu:
        line += f" {statistics.median(r[3] for r in runs):.4f}"
    print(line)


if __name__ == "__main__":
    main()
