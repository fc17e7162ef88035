#!/usr/bin/env python3
"""bench/measure.py [--cpu] CMD... - run CMD once, print "SECONDS MAXRSS_KB STATUS".

Wall time from a monotonic clock and peak resident memory of the child from
wait4(), so one run gives both numbers without GNU time. With --cpu, a
fourth number: the CPU seconds the child used (user + system, all threads).
"""
import os
import sys
import time

cpu = len(sys.argv) > 1 and sys.argv[1] == "--cpu"
if cpu:
    del sys.argv[1]
start = time.monotonic()
pid = os.fork()
if pid == 0:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
elapsed = time.monotonic() - start
line = f"{elapsed:.4f} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}"
if cpu:
    line += f" {usage.ru_utime + usage.ru_stime:.4f}"
print(line)
