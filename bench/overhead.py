#!/usr/bin/env python3
"""bench/overhead.py REGCTL SPEC... - regctl monitor's cost per interval, for every box.

For each spec (its JSON model, generated/SPEC.json) and each block with general counters and
events, `regctl monitor` programs every counter of every copy of the block (one event per
counter, chosen among the events that need no filter, each allowed on its counter) on two
sockets (--socket all) at the smallest interval (--interval 0ms: no sleep, so what is measured is
regctl's own work), and the numbers per interval are the difference between a run of
--count 1 and one of --count 1+N, divided by N, so programming and restoring are left out:

  dev: the real msr and pci backends on a machine of plain files (a /dev/cpu/N/msr file per
       socket's first CPU, a sysfs tree with the topology, the spec's PCI devices on one bus
       per socket and the U-Boxes whose node-id registers map each bus to its socket, as the
       kernel's snbep_pci2phy_map_init() reads them): their system calls, counted by
       strace -c, are the register accesses regctl makes (one pread or pwrite each; a 64-bit
       PCI register is two dwords). "reads", "writes": per interval; "min": the least a poll
       can do, one read per counter (two dwords for a PCI counter); "x min": (reads + writes)
       / min. "us": CPU time (user + system) per interval, system calls on page-cache files
       included (not the hardware's time: there an MSR access is a few microseconds).
  fuse: the same backends on the emulated devices of the tests (tests/tools/pcifs --sockets 2
       --cpus 2: MSRs and PCI configuration space through FUSE and the kernel, the simulator
       behind them), when $BUILD/tests/tools/pcifs is built (make check builds it), /dev/fuse
       and fusermount3 are there and the user is root: "us" per interval, wall time (the
       device's work is done by pcifs, another process); else "-".
  sim: the simulator (--backend sim --sim-sockets 2): "us" per interval, the model's cost.

Numbers are reported, never judged (tests/runtime/run-bench-monitor.sh checks only that this
runs and that reads reach the minimum). N is $N (default 20) for the access counts and $T
(default 300) for the times. Without strace the dev columns say "-" (Debian package strace).
"""
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

# The U-Box PCI device of each part, whose CPUNODEID (config 0x40) and GIDNIDMAP (0x54) map
# buses to packages (runtime/pci.c ubox_maps, from the kernel's snbep/ivbep_uncore_pci_init).
UBOX = {"e5_2600": 0x3CE0, "e5_2600v2": 0x0E1E}
BUSES = [0x7F, 0xFF]  # socket 0, socket 1: each on its own U-Box's bus


def choose_events(block, ncounters):
    """One event per counter 0..n-1: distinct, needing no filter (modelled or not), allowed on that counter."""
    chosen, used = [], set()
    for i in range(ncounters):
        for e in block["events"]:
            ok = not e["filters"] and not e.get("unmodelled_filters") and e["name"] not in used and (not e["counters"] or i in e["counters"])
            if ok and all(s["register"] == e["register"] for s in e["sets"]):
                chosen.append(e["name"])
                used.add(e["name"])
                break
    return chosen


def general_group(block):
    """(number of general counters, their counter register) of the block, or (0, None)."""
    for c in (block.get("pmon") or {}).get("counters", []):
        if c["kind"] == "general":
            reg = next((r for r in block["registers"] if r["name"] == c["control"]), None)
            ctr = next((r for r in block["registers"] if r["name"] == c["counter"]), None)
            if reg and reg["array"]:
                return reg["array"]["count"], ctr
    return 0, None


def write_file(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


def build_machine(model, root):
    """Plain files standing for two sockets' MSR devices and sysfs: root/cpu, root/sys."""
    name = model["spec"]["name"]
    for sock in (0, 1):
        write_file("%s/cpu/%d/msr" % (root, sock), bytes(0x4000))
        write_file("%s/sys/devices/system/cpu/cpu%d/topology/physical_package_id" % (root, sock), "%d\n" % sock)
    devs = {}
    for b in model["blocks"]:
        for i in b["instances"]:
            if i["pci"]:
                p = i["pci"]
                devs[(p["dev"] or 0, p["func"] or 0)] = (int(p["vendor"], 16), int(p["device"], 16))
    if name in UBOX:
        devs[(0x0B, 0)] = (0x8086, UBOX[name])
    for sock, bus in enumerate(BUSES):
        for (dev, fn), (ven, did) in devs.items():
            d = "%s/sys/bus/pci/devices/0000:%02x:%02x.%x" % (root, bus, dev, fn)
            config = bytearray(4096)
            config[0x40:0x44] = sock.to_bytes(4, "little")  # CPUNODEID: node id = socket
            config[0x54:0x58] = (1 << 3).to_bytes(4, "little")  # GIDNIDMAP: package 1 is node 1
            write_file(d + "/vendor", "0x%04x\n" % ven)
            write_file(d + "/device", "0x%04x\n" % did)
            write_file(d + "/config", bytes(config))


def run(cmd, strace):
    """(preads, pwrites, CPU seconds, wall seconds) of one run; no system calls counted
    (0) without strace."""
    out = None
    if strace:
        fd, out = tempfile.mkstemp()
        os.close(fd)
        cmd = [strace, "-f", "-qq", "-c", "-U", "calls,name", "-e", "trace=pread64,pwrite64", "-o", out] + cmd
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    env = dict(os.environ)
    if strace:  # LeakSanitizer stops under ptrace: a SAN=1 regctl runs under strace without it
        env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS"), "detect_leaks=0"]))
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("bench: regctl failed (%s): %s" % (" ".join(cmd[-12:]), p.stderr.strip()[:600]))
    calls = {"pread64": 0, "pwrite64": 0}
    if out:
        for line in open(out):
            m = re.match(r"\s*(\d+)\s+(pread64|pwrite64)\s*$", line)
            if m:
                calls[m.group(2)] = int(m.group(1))
        os.unlink(out)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return calls["pread64"], calls["pwrite64"], cpu, wall


def fuse_why(tool):
    """Why the FUSE devices cannot be used here, or None."""
    if not os.path.exists(tool):
        return "%s is not built (make check builds it)" % tool
    if not os.access("/dev/fuse", os.R_OK | os.W_OK) or not shutil.which("fusermount3"):
        return "no /dev/fuse or fusermount3 (Debian package fuse3)"
    if os.geteuid() != 0:
        return "not root: PCI configuration space past 64 bytes is root's only"
    return None


class Fuse:
    """pcifs mounted for a spec (two sockets, MSRs of two CPUs), and a sysfs root joining its
    tree with a topology of cpu0 in package 0 and cpu1 in package 1."""

    def __init__(self, tool, spec, root):
        self.mnt, self.sys = root + "/mnt", root + "/fsys"
        os.makedirs(self.mnt)
        self.proc = subprocess.Popen([tool, "--spec", spec, "--sockets", "2", "--cpus", "2", "-f", self.mnt],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):  # at most 10 s for the mount to appear
            if os.path.isdir(self.mnt + "/bus/pci/devices"):
                break
            if self.proc.poll() is not None:
                raise RuntimeError("pcifs exited with status %d" % self.proc.returncode)
            subprocess.run(["sleep", "0.05"])
        else:
            self.close()
            raise RuntimeError("pcifs did not mount in 10 s")
        os.makedirs(self.sys + "/devices")
        os.symlink(self.mnt + "/bus", self.sys + "/bus")
        for d in os.listdir(self.mnt + "/devices"):
            if d.startswith("pci"):
                os.symlink(self.mnt + "/devices/" + d, self.sys + "/devices/" + d)
        for cpu in (0, 1):
            write_file("%s/devices/system/cpu/cpu%d/topology/physical_package_id" % (self.sys, cpu), "%d\n" % cpu)

    def close(self):
        subprocess.run(["fusermount3", "-u", "-q", self.mnt], stderr=subprocess.DEVNULL)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def per_interval(base, args, n, strace):
    """(reads, writes, CPU us, wall us) per interval: runs of --count 1 and 1+n, differenced."""
    a = run(base + args + ["--count", "1"], strace)
    b = run(base + args + ["--count", str(1 + n)], strace)
    return ((b[0] - a[0]) / n, (b[1] - a[1]) / n, max(b[2] - a[2], 0.0) / n * 1e6,
            max(b[3] - a[3], 0.0) / n * 1e6)


def main():
    regctl, specs = os.path.abspath(sys.argv[1]), sys.argv[2:]
    n, t = int(os.environ.get("N", "20")), int(os.environ.get("T", "300"))
    strace = shutil.which("strace")
    if strace and subprocess.run([strace, "-f", "-qq", "-c", "-o", os.devnull, "true"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
        print("bench: strace cannot trace here (ptrace refused): no access counts")
        strace = None
    tool = os.path.join(os.environ.get("BUILD", "build"), "tests/tools/pcifs")
    no_fuse = fuse_why(tool)
    if no_fuse:
        print("bench: no FUSE devices: %s" % no_fuse)
    print("%-10s %-7s %5s %5s | %8s %8s %6s %6s %8s | %8s %8s" % (
        "spec", "block", "boxes", "ctrs", "reads", "writes", "min", "x min", "dev us", "fuse us", "sim us"))
    for spec in specs:
        model = json.load(open("generated/%s.json" % spec))
        root = tempfile.mkdtemp(prefix="regc-overhead-")
        fuse = None
        try:
            build_machine(model, root)
            if not no_fuse:
                fuse = Fuse(tool, spec, root)
            for b in model["blocks"]:
                count, ctr = general_group(b)
                evs = choose_events(b, count) if count else []
                if not evs:
                    continue
                copies = [i["name"] for i in b["instances"]] or [None]
                args = [spec] + ["%s%s:%s" % (b["name"], "[%s]" % c if c else "", e) for c in copies for e in evs]
                args += ["--socket", "all", "--interval", "0ms", "--settle", "0ms"]
                ncounters = (len(args) - 7) * 2
                dwords = 2 if ctr and ctr["space"] == "pci" and ctr["size"] > 32 else 1
                least = ncounters * dwords
                dev = [regctl, "--force-cpu", "--msr-root", root + "/cpu", "--sysfs-root", root + "/sys",
                       "monitor", "--lock-dir", root + "/locks"]
                sim = [regctl, "--backend", "sim", "monitor", "--sim-sockets", "2"]
                if strace:
                    reads, writes, _, _ = per_interval(dev, args, n, strace)
                    dev_us = per_interval(dev, args, t, None)[2]
                    cols = "%8.1f %8.1f %6d %6.2f %8.1f" % (reads, writes, least, (reads + writes) / least, dev_us)
                else:
                    cols = "%8s %8s %6d %6s %8s" % ("-", "-", least, "-", "-")
                fuse_us = "-"
                if fuse:
                    fdev = [regctl, "--force-cpu", "--msr-root", fuse.mnt + "/cpu", "--sysfs-root", fuse.sys,
                            "monitor", "--lock-dir", root + "/locks"]
                    fuse_us = "%.1f" % per_interval(fdev, args, t, None)[3]  # pcifs works apart
                sim_us = per_interval(sim, args, t, None)[2]
                print("%-10s %-7s %5d %5d | %s | %8s %8.1f" % (spec, b["name"], len(copies), ncounters, cols,
                                                             fuse_us, sim_us))
        finally:
            if fuse:
                fuse.close()
            shutil.rmtree(root)


if __name__ == "__main__":
    main()
