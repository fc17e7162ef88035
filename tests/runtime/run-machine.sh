#!/usr/bin/env bash
# tests/runtime/run-machine.sh - regctl detect shows the machine (docs/runtime.md "Detecting the
# machine"), on a made-up sysfs tree: two sockets and their CPUs (cpuN/topology/
# physical_package_id), the E5-2600's uncore PCI devices per socket (the package from the
# U-Boxes' node-id registers, as the kernel's snbep_pci2phy_map_init() maps buses: a bus takes
# the package of the next U-Box bus above it) with the boxes each serves, and the kernel's
# uncore PMUs (tests/runtime/perf-sysfs.sh with the kernel's snbep formats) with the spec's box
# each serves; text and --json say the same. And regctl events takes globs as perf list does:
# 'unc_c_*' lists exactly the events whose perfmon name starts UNC_C_ (from the spec's JSON
# model), in any case; a glob matching nothing is an error.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${REGCTL:=build/regctl}"
tap_setup tmp

# cpuid_copy DIR VENDOR EAX1: leaf 0 and leaf 1 of CPU 0, as `head -c 32 /dev/cpu/0/cpuid`
cpuid_copy() {
    mkdir -p "$1/0"
    python3 - "$1/0/cpuid" "$2" "$3" <<'PY'
import struct, sys
path, vendor, eax1 = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3], 0)
open(path, "wb").write(struct.pack("<I", 0xd) + vendor[0:4] + vendor[8:12] + vendor[4:8] + struct.pack("<4I", eax1, 0, 0, 0))
PY
}
. tests/runtime/pcidev.sh # pcidev DIR BDF DEVICE NODEID GIDNIDMAP

cpuid_copy "$tmp/jkt" GenuineIntel 0x206D7 # Sandy Bridge-EP: e5_2600
# cpu0 and cpu2 in package 1; cpu1, cpu3 and cpu5 in package 0; cpu4 offline (no topology)
for c in 0:1 1:0 2:1 3:0 5:0; do
    mkdir -p "$tmp/sys/devices/system/cpu/cpu${c%:*}/topology"
    echo "${c#*:}" >"$tmp/sys/devices/system/cpu/cpu${c%:*}/topology/physical_package_id"
done
mkdir -p "$tmp/sys/devices/system/cpu/cpu4" "$tmp/sys/devices/system/cpu/cpuidle"
# U-Boxes 8086:3ce0 on bus 3f (node id 1) and 7f (node id 0), GIDNIDMAP 0x8: package 0 is node 0,
# package 1 node 1; HAs 8086:3c46 at 0e.1 on buses 3e (package 1) and 7e (package 0); another
# device that is no uncore box
pcidev "$tmp/sys" 0000:3f:0b.0 0x3ce0 1 0x8
pcidev "$tmp/sys" 0000:7f:0b.0 0x3ce0 0 0x8
pcidev "$tmp/sys" 0000:3e:0e.1 0x3c46 0 0
pcidev "$tmp/sys" 0000:7e:0e.1 0x3c46 0 0
pcidev "$tmp/sys" 0000:00:00.0 0x0001 0 0
bash tests/runtime/perf-sysfs.sh tests/runtime/data/perf-formats/snbep.txt "$tmp/sys" 17
mkdir -p "$tmp/sys/bus/event_source/devices/cpu" "$tmp/sys/bus/event_source/devices/uncore_foo"
echo 4 >"$tmp/sys/bus/event_source/devices/cpu/type"
echo 99 >"$tmp/sys/bus/event_source/devices/uncore_foo/type"

out=$("$REGCTL" --msr-root "$tmp/jkt" --sysfs-root "$tmp/sys" detect 2>&1)
rc=$?
check() { # NAME EXTENDED-REGEX (a whole line of the text output)
    if [ $rc = 0 ] && echo "$out" | grep -E -x -q -- "$2"; then tap_ok "$1"; else tap_fail "$1" "exit $rc; want a line: $2" "$out"; fi
}
check "sockets: two, from the topology" "sockets: 2 \\($tmp/sys/devices/system/cpu\\)"
check "socket 0: cpus 1, 3 and 5 (cpu4 offline)" "  socket 0: cpus 1,3,5 \\(3\\)"
check "socket 1: cpus 0 and 2" "  socket 1: cpus 0,2 \\(2\\)"
check "PCI: the spec's devices found (the U-Box and the other device are no boxes of it)" "uncore PCI devices of e5_2600: 2"
check "PCI: HA on bus 7e is socket 0's (U-Box 7f, node 0)" "  socket 0 +0000:7e:0e.1 +8086:3c46  ha\\[ha\\]"
check "PCI: HA on bus 3e is socket 1's (U-Box 3f, node 1)" "  socket 1 +0000:3e:0e.1 +8086:3c46  ha\\[ha\\]"
check "PMUs: uncore_cbox_3 serves the C-Box c3" "  uncore_cbox_3 +type 17 +e5_2600 cbox\\[cbox3\\]"
check "PMUs: uncore_imc_2 serves the iMC channel imc2" "  uncore_imc_2 +type 17 +e5_2600 imc\\[imc2\\]"
check "PMUs: uncore_ubox, a box of one copy" "  uncore_ubox +type 17 +e5_2600 ubox"
check "PMUs: a PMU no box of the spec is" "  uncore_foo +type 99 +\\(no box of the matching specs\\)"
if ! echo "$out" | grep -q '^  cpu '; then tap_ok "PMUs: only the uncore ones (not 'cpu')"; else tap_fail "PMUs: only the uncore ones" "$out"; fi

if got=$("$REGCTL" --msr-root "$tmp/jkt" --sysfs-root "$tmp/sys" --json detect | python3 -c '
import json, sys
d = json.load(sys.stdin)
s = {x["socket"]: x["cpus"] for x in d["sockets"]}
assert s == {0: [1, 3, 5], 1: [0, 2]}, s
p = {x["address"]: (x["socket"], x["boxes"], x["id"]) for x in d["pci_devices"]}
assert p["0000:7e:0e.1"] == (0, ["ha[ha]"], "8086:3c46") and p["0000:3e:0e.1"][0] == 1, p
assert "0000:00:00.0" not in p
m = {x["pmu"]: x["boxes"] for x in d["pmus"]}
assert m["uncore_cbox_3"] == ["e5_2600 cbox[cbox3]"] and m["uncore_foo"] == [] and "cpu" not in m, m
print("ok")' 2>&1) && [ "$got" = ok ]; then tap_ok "--json: the same sockets, devices and PMUs"
else tap_fail "--json: the same sockets, devices and PMUs" "$got"; fi

# U-Box registers unreadable (a user other than root sees 64 bytes of config): sockets unknown
truncate -s 64 "$tmp/sys/bus/pci/devices/0000:7f:0b.0/config"
out=$("$REGCTL" --msr-root "$tmp/jkt" --sysfs-root "$tmp/sys" detect 2>&1)
rc=$?
check "PCI: sockets unknown when the U-Box map cannot be read, and why" \
    "uncore PCI devices of e5_2600: 2 \\(sockets unknown: cannot read CPUNODEID of U-Box 0000:7f:0b.0 \\(config 0x40\\): configuration space past 64 bytes needs root\\)"
check "PCI: a device of an unknown socket shows '-'" "  socket - +0000:7e:0e.1 +8086:3c46  ha\\[ha\\]"

# a garbled package id: an error naming the file; a FIFO planted there: skipped, never waited on
g=$tmp/garbled
mkdir -p "$g/devices/system/cpu/cpu0/topology" "$g/devices/system/cpu/cpu1/topology"
echo zero >"$g/devices/system/cpu/cpu1/topology/physical_package_id"
mkfifo "$g/devices/system/cpu/cpu0/topology/physical_package_id"
out=$(timeout 20 "$REGCTL" --msr-root "$tmp/jkt" --sysfs-root "$g" detect 2>&1)
rc=$?
if [ $rc = 1 ] && echo "$out" | grep -F -x -q "regctl: detect: $g/devices/system/cpu/cpu1/topology/physical_package_id holds no package number: 'zero': not a number"; then
    tap_ok "a garbled package id: exit 1, the file named; the FIFO beside it not waited on"
else tap_fail "a garbled package id: exit 1, the file named" "exit $rc" "$out"; fi

# ---- events: globs as perf list takes them
want=$(python3 -c '
import json
m = json.load(open("generated/e5_2600v2.json"))
print("\n".join(sorted("%s:%s" % (b["name"], e["name"]) for b in m["blocks"] for e in b["events"] if (e["perfmon"] or "").startswith("UNC_C_"))))')
for pat in 'unc_c_*' 'UNC_C_*'; do
    got=$("$REGCTL" events --perf e5_2600v2 "$pat" 2>&1 | awk '{print $2}' | sort)
    if [ -n "$want" ] && [ "$got" = "$want" ]; then tap_ok "events '$pat': exactly the UNC_C_ events ($(echo "$want" | wc -l))"
    else tap_fail "events '$pat': exactly the UNC_C_ events" "$(diff <(echo "$want") <(echo "$got") | head -5)"; fi
done
got=$("$REGCTL" events --perf e5_2600v2 'imc:cas_count.?d' 2>&1 | awk '{print $2}')
if [ "$got" = "imc:CAS_COUNT.RD" ]; then tap_ok "events: '?' matches one character, the whole BLOCK:EVENT"
else tap_fail "events: '?' matches one character, the whole BLOCK:EVENT" "$got"; fi
got=$("$REGCTL" events --perf e5_2600v2 'CAS_COUNT.[rw][dr]*' 2>&1 | awk '{print $2}' | tr '\n' ' ')
if [ "$got" = "imc:CAS_COUNT.RD imc:CAS_COUNT.RD_REG imc:CAS_COUNT.RD_RMM imc:CAS_COUNT.RD_UNDERFILL imc:CAS_COUNT.RD_WMM imc:CAS_COUNT.WR imc:CAS_COUNT.WR_RMM imc:CAS_COUNT.WR_WMM " ]; then
    tap_ok "events: a bracket expression on the event name"
else tap_fail "events: a bracket expression on the event name" "$got"; fi
out=$("$REGCTL" events e5_2600v2 'unc_zz_*' 2>&1)
rc=$?
if [ $rc = 1 ] && [ "$out" = "regctl: events: nothing matches 'unc_zz_*'" ]; then tap_ok "events: a glob matching nothing: exit 1, said"
else tap_fail "events: a glob matching nothing" "exit $rc" "$out"; fi
got=$("$REGCTL" events e5_2600v2 'lookup' 2>&1 | grep -c '^cbox:LLC_LOOKUP')
if [ "$got" -ge 2 ]; then tap_ok "events: a pattern without glob characters still searches names and descriptions"
else tap_fail "events: a pattern without glob characters still searches" "$got"; fi
tap_done
