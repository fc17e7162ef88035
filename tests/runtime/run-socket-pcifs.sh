#!/usr/bin/env bash
# tests/runtime/run-socket-pcifs.sh - regctl monitor --socket all through the kernel on a
# two-socket E5-2600 v2: tests/tools/pcifs serves both sockets' PCI boxes (buses 0x7f and 0xff)
# and, with --cpus 2, cpu0 (socket 0) and cpu1 (socket 1) with their MSRs and CPUID, each socket
# its own model; a sysfs root made here joins pcifs's tree with a CPU topology (cpu0: package 0,
# cpu1: package 1). Each socket counts the rates given to its own model, the PCI box (HA) and
# the MSR box (U-Box) alike, and the totals are their sums.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${BUILD:=build}"
REGCTL=${REGCTL:-$BUILD/regctl}
tap_setup tmp
. tests/runtime/pcifs.sh
trap 'pcifs_unmount; rm -rf "$tmp"' EXIT

name="pcifs, two sockets: each counts its own HA and U-Box rates, and the totals add up"
if ! pcifs_mount e5_2600v2 "$tmp/mnt" --sockets 2 --cpus 2; then
    tap_skip "$name" "$pcifs_why"; tap_done; exit 0
fi
root=$tmp/sys
mkdir -p "$root/devices"
ln -s "$pcifs_mnt/bus" "$root/bus"
for b in 7f ff; do ln -s "$pcifs_mnt/devices/pci0000:$b" "$root/devices/pci0000:$b"; done
for c in 0 1; do
    mkdir -p "$root/devices/system/cpu/cpu$c/topology"
    echo "$c" >"$root/devices/system/cpu/cpu$c/topology/physical_package_id"
done
H='ha[ha0]:REQUESTS.READS' U='ubox:EVENT_MSG.DOORBELL_RCVD'
# an interval before every register write: each poll (freeze, read, unfreeze) counts one
for s in 0 1; do pcifs_cmd "socket $s auto 1"; done
pcifs_cmd "socket 0 rate $H 5"
pcifs_cmd "socket 0 rate $U 7"
pcifs_cmd "socket 1 rate $H 11"
pcifs_cmd "socket 1 rate $U 13"
"$REGCTL" --msr-root "$pcifs_mnt/cpu" --sysfs-root "$root" monitor e5_2600v2 "$H" "$U" --socket all \
    --csv --interval 0 --count 3 --lock-dir "$tmp/locks" --settle 0 >"$tmp/out.csv" 2>"$tmp/err"
rc=$?
want=$(for t in 1 2 3; do
    printf '%s\n' "$t,0,$H,5" "$t,0,$U,7" "$t,1,$H,11" "$t,1,$U,13" "$t,total,$H,16" "$t,total,$U,20"
done)
if [ $rc = 0 ] && [ "$(tail -n +2 "$tmp/out.csv")" = "$want" ] && [ ! -s "$tmp/err" ]; then
    tap_ok "$name"
else
    tap_fail "$name" "exit $rc" "$(cat "$tmp/err")" "$(cat "$tmp/out.csv")"
fi
# the second socket's HA is the function on bus 0xff, its U-Box cpu1's MSRs
if grep -q '^W 0000:ff:0e.1 ' "$pcifs_log" && grep -q '^W 0000:7f:0e.1 ' "$pcifs_log"; then
    tap_ok "pcifs, two sockets: socket 1's HA programmed on bus 0xff, socket 0's on 0x7f"
else
    tap_fail "pcifs, two sockets: both buses programmed" "$(grep '0e.1' "$pcifs_log" | head -n 5)"
fi
tap_done
