#!/usr/bin/env bash
# run-regctl.sh - regctl's output (golden files for list, read, write --dry-run,
# --json), its exit statuses and messages, and regctl on the msr backend
# through the kernel with tests/tools/msrfs mounted in a temporary directory.
# Uses the generated e5_2600 tables; UPDATE_GOLDEN=1 rewrites the golden files.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/golden.sh
: "${BUILD:=build}"
. tests/runtime/msrfs.sh
REGCTL=${REGCTL:-$BUILD/regctl}
tmp=$(mktemp -d)
cleanup() {
    msrfs_unmount
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

if ! "$REGCTL" list 2>/dev/null | grep -q '^e5_2600 '; then
    tap_skip "regctl golden output" "regctl has no e5_2600 tables (regspec/e5_2600.xml missing or regc -t json unavailable)"
    tap_done
    exit 0
fi


golden list-ubox 0 list e5_2600.ubox
golden read-sim 0 --backend sim read e5_2600.ubox.U_MSR_PMON_CTL1
golden read-json 0 --backend sim --json read e5_2600.ubox.U_MSR_PMON_CTR0
golden write-dry-run 0 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 ev_sel=0x42 umask=0x08 en=1
golden write-rmw-dry-run 0 --dry-run --rmw --cpu 3 write e5_2600.ubox.U_MSR_PMON_CTL1 umask=0x1
golden list-imc 0 list e5_2600.imc
golden read-instance-dry-run 0 --dry-run read e5_2600.cbox.cbox3.Cn_MSR_PMON_CTL1
golden write-pci-dry-run 0 --dry-run --cpu 1 write e5_2600.imc.imc2.MC_CHy_PCI_PMON_CTL3 ev_sel=0x4 umask=0x3 en=1
golden write-sim 0 --backend sim write e5_2600.ubox.U_MSR_PMON_CTL0 ev_sel=0x42 invert=LT thresh=1
golden write-refused-rule 1 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 ev_sel=0x42 invert=1
golden write-refused-mbz 1 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 rsv=1
golden write-bad-field 2 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 nosuch=1
golden write-too-wide 2 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 umask=0x100
golden write-bad-value 2 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 invert=MAYBE
golden read-bad-path 2 read e5_2600.ubox.NOPE0
golden read-no-spec 2 read nospec.ubox.X
golden bad-backend 2 --backend usb read e5_2600.ubox.U_MSR_PMON_CTL0
golden usage 2 frobnicate

if "$REGCTL" list | grep -q '^e5_2600 '; then tap_ok "list names e5_2600"; else tap_fail "list names e5_2600"; fi
if "$REGCTL" --json list | grep -q '"spec": "e5_2600"'; then tap_ok "list --json"; else tap_fail "list --json"; fi

# ---- the pci backend on a stand-in sysfs tree (iMC channel 2: 8086:3cb4, device 16 function 4)
dev=$tmp/sys/bus/pci/devices/0000:7f:10.4
mkdir -p "$dev"
printf '0x8086\n' >"$dev/vendor"; printf '0x3cb4\n' >"$dev/device"
head -c 256 /dev/zero >"$dev/config"
"$REGCTL" --sysfs-root "$tmp/sys" write e5_2600.imc.imc2.MC_CHy_PCI_PMON_CTL3 ev_sel=0x4 umask=0x3 en=1 >/dev/null
got=$(od -An -tx4 -j $((0xe4)) -N4 "$dev/config" | tr -d ' ')
if [ "$got" = 00400304 ]; then tap_ok "pci write lands at config offset 0xe4"; else tap_fail "pci write lands at config offset 0xe4" "got $got"; fi
out=$(REGC_SYSFS_ROOT=$tmp/sys "$REGCTL" --json read e5_2600.imc.imc2.MC_CHy_PCI_PMON_CTL3)
if echo "$out" | grep -q '"value": "0x400304"'; then tap_ok "pci read back"; else tap_fail "pci read back" "$out"; fi
err=$("$REGCTL" --sysfs-root "$tmp/sys" read e5_2600.imc.imc0.MC_CHy_PCI_PMON_CTL0 2>&1)
if [ $? = 1 ] && echo "$err" | grep -q "no PCI device matches"; then tap_ok "pci: absent device"; else tap_fail "pci: absent device" "$err"; fi

# ---- the msr backend through the kernel (FUSE)
msrfs_mount e5_2600 2 "$tmp/mnt" --log "$tmp/log"
why=$msrfs_why
if [ -n "$why" ]; then
    for t in "write through msrfs" "read back through msrfs" "rmw through msrfs" "EIO through msrfs"; do tap_skip "$t" "$why"; done
else
    root=$mnt/cpu
    if "$REGCTL" --msr-root "$root" --cpu 1 write e5_2600.ubox.U_MSR_PMON_CTL0 ev_sel=0x42 umask=0x08 en=1 >/dev/null &&
        grep -q '^W 1 0xc10 0x400842 0$' "$tmp/log"; then tap_ok "write through msrfs"; else tap_fail "write through msrfs" "$(cat "$tmp/log")"; fi
    out=$(REGC_MSR_ROOT=$root "$REGCTL" --cpu 1 --json read e5_2600.ubox.U_MSR_PMON_CTL0)
    if echo "$out" | grep -q '"value": "0x400842"'; then tap_ok "read back through msrfs"; else tap_fail "read back through msrfs" "$out"; fi
    "$REGCTL" --msr-root "$root" --cpu 1 --rmw write e5_2600.ubox.U_MSR_PMON_CTL0 umask=0x1 >/dev/null
    if tail -2 "$tmp/log" | tr '\n' ' ' | grep -q 'R 1 0xc10 0x400842 0 W 1 0xc10 0x400142 0'; then tap_ok "rmw through msrfs"; else tap_fail "rmw through msrfs" "$(tail -2 "$tmp/log")"; fi
    # msrfs serves a model; an MSR it lacks faults like a #GP
    msrfs_unmount
    msrfs_mount hand_ubox 1 "$tmp/mnt"
    err=$("$REGCTL" --msr-root "$root" read e5_2600.ubox.U_MSR_PMON_UCLK_FIXED_CTL 2>&1)
    rc=$?
    if [ $rc = 1 ] && echo "$err" | grep -q "the CPU refused the access"; then tap_ok "EIO through msrfs"; else tap_fail "EIO through msrfs" "exit $rc: $err"; fi
fi
tap_done
