#!/usr/bin/env bash
# tests/runtime/run-socket-pcifs.sh - regctl monitor --socket all through the kernel on a
# two-socket E5-2600 v2: tests/tools/pcifs serves both sockets' PCI boxes (buses 0x7f and 0xff)
# and, with --cpus 2, cpu0 (socket 0) and cpu1 (socket 1) with their MSRs and CPUID, each socket
# its own model; a sysfs root made here joins pcifs's tree with a CPU topology (cpu0: package 0,
# cpu1: package 1). Each socket counts the rates given to its own model, the PCI box (HA) and
# the MSR box (U-Box) alike, and the totals are their sums.
#
# Which bus is which package: pcifs also serves each socket's U-Box device (8086:0e1e at 0b.0)
# with the node id registers the kernel reads (uncore_snbep.c snbep_pci2phy_map_init():
# CPUNODEID at 0x40, bits 2:0; GIDNIDMAP at 0x54, package i's node id in bits 3i+2:3i). With
# --swap-buses 1 socket 1's devices sit on the lower bus, so bus order and the map disagree:
# package 0 must still count socket 0's rates. Then the refusals: no U-Box on two packages (and
# none needed on one), a node id in no field, two buses on one package, a package no U-Box maps.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/regctl.sh
tap_setup tmp
. tests/runtime/pcifs.sh
trap 'pcifs_unmount; rm -rf "$tmp"' EXIT

H='ha[ha0]:REQUESTS.READS' U='ubox:EVENT_MSG.DOORBELL_RCVD'

# counts NAME [PCIFS OPTION...]: two sockets with rates HA 5/11 and U-Box 7/13; package 0 must
# count socket 0's (the model's own) rates, package 1 socket 1's, whatever the bus order
counts() {
    local name=$1
    shift
    if ! pcifs_mount e5_2600v2 "$tmp/mnt" --sockets 2 --cpus 2 "$@"; then
        tap_skip "$name" "$pcifs_why"; return 1
    fi
    pcifs_sysroot "$tmp/sys" 2
    # an interval before every register write: each poll (freeze, read, unfreeze) counts one
    for s in 0 1; do pcifs_cmd "socket $s auto 1"; done
    pcifs_cmd "socket 0 rate $H 5"
    pcifs_cmd "socket 0 rate $U 7"
    pcifs_cmd "socket 1 rate $H 11"
    pcifs_cmd "socket 1 rate $U 13"
    "$REGCTL" --msr-root "$pcifs_mnt/cpu" --sysfs-root "$tmp/sys" monitor e5_2600v2 "$H" "$U" \
        --socket all --csv --interval 0 --count 3 --lock-dir "$tmp/locks" --settle 0 \
        >"$tmp/out.csv" 2>"$tmp/err"
    local rc=$?
    local want
    want=$(for t in 1 2 3; do
        printf '%s\n' "$t,0,$H,5" "$t,0,$U,7" "$t,1,$H,11" "$t,1,$U,13" "$t,total,$H,16" "$t,total,$U,20"
    done)
    if [ $rc = 0 ] && [ "$(tail -n +2 "$tmp/out.csv")" = "$want" ] && [ ! -s "$tmp/err" ]; then
        tap_ok "$name"
    else
        tap_fail "$name" "exit $rc" "$(cat "$tmp/err")" "$(cat "$tmp/out.csv")"
    fi
}

if counts "pcifs, two sockets: each counts its own HA and U-Box rates, and the totals add up"; then
    # the second socket's HA is the function on bus 0xff, its U-Box cpu1's MSRs
    if grep -q '^W 0000:ff:0e.1 ' "$pcifs_log" && grep -q '^W 0000:7f:0e.1 ' "$pcifs_log"; then
        tap_ok "pcifs, two sockets: socket 1's HA programmed on bus 0xff, socket 0's on 0x7f"
    else
        tap_fail "pcifs, two sockets: both buses programmed" "$(grep '0e.1' "$pcifs_log" | head -n 5)"
    fi
    pcifs_unmount
fi

# socket 1 on bus 0x7f, socket 0 on 0xff; node ids 2 (socket 0) and 5 (socket 1), so GIDNIDMAP is
# 2 | 5 << 3 = 0x2a: the U-Box on bus 0xff holds node id 2, package 0's field
if counts "pcifs, buses swapped (socket 1 on 0x7f), node ids 2 and 5: each package counts its own" \
    --swap-buses 1 --node-ids 2,5; then
    if [ "$(pcifs_config 0000:ff:0b.0 0x40)" = 0x00000002 ] && [ "$(pcifs_config 0000:7f:0b.0 0x54)" = 0x0000002a ]; then
        tap_ok "pcifs serves the U-Box registers: 0000:ff:0b.0 CPUNODEID 2, GIDNIDMAP 0x2a"
    else
        tap_fail "pcifs serves the U-Box registers" "$(pcifs_config 0000:ff:0b.0 0x40) $(pcifs_config 0000:7f:0b.0 0x54)"
    fi
    # the U-Box map read as the kernel reads it: package 0's HA on bus 0xff, package 1's on 0x7f
    if grep -q '^W 0000:ff:0e.1 ' "$pcifs_log" && grep -q '^W 0000:7f:0e.1 ' "$pcifs_log"; then
        tap_ok "pcifs, buses swapped: both HAs programmed"
    else
        tap_fail "pcifs, buses swapped: both HAs programmed" "$(grep '0e.1' "$pcifs_log" | head -n 5)"
    fi
    pcifs_unmount
fi

# refused NAME PACKAGES WANT [PCIFS OPTION...]: exit 1 and the message WANT (TMP: the sysfs root)
refused() {
    local name=$1 npk=$2 want=$3
    shift 3
    if ! pcifs_mount e5_2600v2 "$tmp/mnt" --cpus 2 "$@"; then tap_skip "$name" "$pcifs_why"; return; fi
    pcifs_sysroot "$tmp/sys" "$npk"
    local out rc
    out=$("$REGCTL" --msr-root "$pcifs_mnt/cpu" --sysfs-root "$tmp/sys" monitor e5_2600v2 "$H" \
        --socket all --interval 0 --count 1 --lock-dir "$tmp/locks" --settle 0 2>&1)
    rc=$?
    out=${out//$tmp\/sys/TMP}
    if [ $rc = 1 ] && [ "$out" = "$want" ]; then tap_ok "$name"; else
        tap_fail "$name" "exit $rc" "$out"; fi
    pcifs_unmount
}
refused "no U-Box device, two packages: refused, naming it" 2 \
    "regctl: monitor: socket 0: read ha.ha0.HA_PCI_PMON_CTL0: reading 'ha.ha0.HA_PCI_PMON_CTL0' (pci offset 0xd8, cpu 0) failed: no U-Box PCI device 8086:0e1e in TMP/bus/pci/devices: without its node id registers the PCI buses cannot be mapped to packages (the kernel reads them in snbep_pci2phy_map_init())" \
    --sockets 2 --no-ubox 1
refused "a node id in no field of GIDNIDMAP: refused" 2 \
    "regctl: monitor: socket 0: read ha.ha0.HA_PCI_PMON_CTL0: reading 'ha.ha0.HA_PCI_PMON_CTL0' (pci offset 0xd8, cpu 0) failed: U-Box 0000:ff:0b.0: its node id 1 (CPUNODEID 0x1) is in no field of its GIDNIDMAP 0x0: no package for PCI bus ff" \
    --sockets 2 --gidnidmap 0
refused "two buses mapped to one package: refused" 2 \
    "regctl: monitor: socket 0: read ha.ha0.HA_PCI_PMON_CTL0: reading 'ha.ha0.HA_PCI_PMON_CTL0' (pci offset 0xd8, cpu 0) failed: U-Boxes 0000:7f:0b.0 and 0000:ff:0b.0 both map their bus to package 0 (node ids from CPUNODEID, GIDNIDMAP 0x9): the PCI buses cannot be told apart" \
    --sockets 2 --node-ids 1,1
refused "a package no U-Box maps to: refused, with the map" 2 \
    "regctl: monitor: socket 1: read ha.ha0.HA_PCI_PMON_CTL0: reading 'ha.ha0.HA_PCI_PMON_CTL0' (pci offset 0xd8, cpu 1) failed: no U-Box maps its PCI bus to package 1 (the U-Boxes' map, bus -> package: 0000:7f -> 0)" \
    --sockets 1

# one package without a U-Box device: its only PCI device will do
name="no U-Box device, one package: the only bus counts"
if pcifs_mount e5_2600v2 "$tmp/mnt" --cpus 1 --sockets 1 --no-ubox 1; then
    pcifs_sysroot "$tmp/sys" 1
    pcifs_cmd "auto 1"
    pcifs_cmd "rate $H 5"
    out=$("$REGCTL" --msr-root "$pcifs_mnt/cpu" --sysfs-root "$tmp/sys" monitor e5_2600v2 "$H" \
        --socket all --csv --interval 0 --count 1 --lock-dir "$tmp/locks" --settle 0 2>&1)
    rc=$?
    if [ $rc = 0 ] && [ "$(echo "$out" | tail -n +2)" = "$(printf '%s\n' "1,0,$H,5" "1,total,$H,5")" ]; then
        tap_ok "$name"; else tap_fail "$name" "exit $rc" "$out"; fi
    pcifs_unmount
else
    tap_skip "$name" "$pcifs_why"
fi
tap_done
