#!/usr/bin/env bash
# run-permissions.sh - what a user other than root is told (docs/runtime.md, "Permissions"):
# each refusal names what is missing and the way round. Run as root, regctl runs as nobody
# (setpriv) against stand-ins with root's modes: an msr device file of mode 0600 (the msr
# driver's /dev/cpu/N/msr), an msr root without the device (no msr driver), a sysfs PCI config
# file of mode 0644 (root writes), a lock directory that cannot be made, and a fake sysfs tree of
# uncore PMUs whose type is the software PMU (a CPU-wide perf event, which
# kernel.perf_event_paranoid > 0 refuses to a user without CAP_PERFMON).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/regctl.sh
case $REGCTL in /*) ;; *) REGCTL=$PWD/$REGCTL ;; esac
NOBODY=65534
names=("msr device refused: root or CAP_SYS_RAWIO, setcap, --backend sim"
    "no msr device: modprobe msr"
    "monitor: the refused device is named, not the lock directory"
    "monitor: a lock directory that cannot be made: --lock-dir"
    "monitor: with --lock-dir the same run goes on"
    "pci write refused: root writes config space, --backend sim"
    "perf refused: perf_event_paranoid, its value, sysctl, --backend sim"
    "the way round: --backend sim runs as nobody")
skip_all() { tap_skip_rest "$1" "${names[@]}"; }
if [ "$(id -u)" != 0 ]; then skip_all "not root: cannot run regctl as another user"; fi
if ! command -v setpriv >/dev/null; then skip_all "setpriv is not installed (util-linux)"; fi
regctl_needs e5_2600v2 "${names[@]}"
regctl_needs e5_2600 "${names[@]}"
tap_setup tmp
chmod 755 "$tmp"
# nobody runs a copy: the build tree may sit where others cannot reach (a clone in root's
# 0700 home), and the tests start regctl through env, which has dropped root's capabilities
cp "$REGCTL" "$tmp/regctl" && chmod 755 "$tmp/regctl" && REGCTL=$tmp/regctl
them() { setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups "$@"; }
if ! them env "$REGCTL" --version >/dev/null 2>&1; then skip_all "nobody cannot run $REGCTL (a directory on its path is closed to others)"; fi

# expect NAME STATUS TEXT... -- ARGS: regctl ARGS as nobody exits STATUS with each TEXT in stderr
expect() {
    local name=$1 want=$2 texts=(); shift 2
    while [ "$1" != -- ]; do texts+=("$1"); shift; done
    shift
    them "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? miss=()
    for t in "${texts[@]}"; do grep -qF -- "$t" "$tmp/err" || miss+=("$t"); done
    if [ "$rc" = "$want" ] && [ ${#miss[@]} = 0 ]; then tap_ok "$name"
    else tap_fail "$name" "exit $rc, expected $want; missing: ${miss[*]}" "$(head -4 "$tmp/err")"; fi
}

# an msr root whose cpu 0 device is root's, mode 0600, as the msr driver makes it
mkdir -p "$tmp/msr/0" "$tmp/nomsr/0"
head -c 8192 /dev/zero >"$tmp/msr/0/msr"
chmod -R a+rX "$tmp/msr" "$tmp/nomsr"
chmod 600 "$tmp/msr/0/msr"
R=(env -u XDG_RUNTIME_DIR -u REGC_LOCK_DIR "$REGCTL" --force-cpu)
expect "${names[0]}" 1 "permission denied: needs root or CAP_SYS_RAWIO" "setcap cap_sys_rawio+ep" \
    "regctl: note: --backend sim" -- "${R[@]}" --msr-root "$tmp/msr" read e5_2600v2.ubox.U_MSR_PMON_CTL0
expect "${names[1]}" 1 "the msr driver is not loaded (modprobe msr)" -- \
    "${R[@]}" --msr-root "$tmp/nomsr" read e5_2600v2.ubox.U_MSR_PMON_CTL0

# monitor, its default lock directory not there ($XDG_RUNTIME_DIR/regc under a missing directory)
M=(env -u REGC_LOCK_DIR XDG_RUNTIME_DIR="$tmp/no-run-dir" "$REGCTL" --force-cpu --msr-root "$tmp/msr" monitor
    e5_2600v2 ubox:EVENT_MSG.DOORBELL_RCVD --count 1 --interval 0 --settle 0)
expect "${names[2]}" 1 "permission denied: needs root or CAP_SYS_RAWIO" "regctl: note: --backend sim" -- "${M[@]}"
if grep -q "lock directory" "$tmp/err"; then tap_fail "${names[2]}: the lock directory unmentioned" "$(cat "$tmp/err")"
else tap_ok "${names[2]}: the lock directory unmentioned"; fi
chmod 666 "$tmp/msr/0/msr" # now the device lets them in: the lock directory is what stops them
expect "${names[3]}" 1 "cannot create the lock directory '$tmp/no-run-dir/regc'" \
    "regctl: note: --lock-dir DIR" -- "${M[@]}"
mkdir "$tmp/locks"
chown $NOBODY "$tmp/locks"
expect "${names[4]}" 0 -- "${M[@]}" --lock-dir "$tmp/locks"

# sysfs PCI config space: root writes it (mode 0644); iMC channel 2 of the E5-2600, 8086:3cb4
dev=$tmp/sys/bus/pci/devices/0000:7f:10.4
mkdir -p "$dev"
printf '0x8086\n' >"$dev/vendor"
printf '0x3cb4\n' >"$dev/device"
head -c 256 /dev/zero >"$dev/config"
chmod -R a+rX "$tmp/sys"
chmod 644 "$dev/config"
expect "${names[5]}" 1 "permission denied: writing configuration space needs root" "regctl: note: --backend sim" -- \
    "${R[@]}" --sysfs-root "$tmp/sys" write e5_2600.imc.imc2.MC_CHy_PCI_PMON_CTL3 ev_sel=0x4 en=1

# perf: the U-Box PMU's format of the E5-2600 v2 (tests/runtime/data/perf-formats/ivbep.txt),
# its type the software PMU's, so the kernel sees a CPU-wide software event
par=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)
soft=$(cat /sys/bus/event_source/devices/software/type 2>/dev/null)
if [ -z "$par" ] || [ -z "$soft" ] || [ "$par" -le 0 ]; then
    tap_skip "${names[6]}" "kernel.perf_event_paranoid is '${par:-unknown}': nobody may open CPU-wide events here (or no perf)"
else
    pmu=$tmp/perf/bus/event_source/devices/uncore_ubox
    mkdir -p "$pmu/format"
    echo "$soft" >"$pmu/type"
    grep '^format ubox ' tests/runtime/data/perf-formats/ivbep.txt | while read -r _ _ f v; do echo "$v" >"$pmu/format/$f"; done
    chmod -R a+rX "$tmp/perf"
    expect "${names[6]}" 1 "kernel.perf_event_paranoid is $par (/proc/sys/kernel/perf_event_paranoid" \
        "sysctl kernel.perf_event_paranoid=0" "regctl: note: --backend sim" -- \
        "${R[@]}" --sysfs-root "$tmp/perf" --backend perf monitor e5_2600v2 ubox:EVENT_MSG.DOORBELL_RCVD --count 1 --interval 0
fi
expect "${names[7]}" 0 -- "${R[@]}" --backend sim read e5_2600v2.ubox.U_MSR_PMON_CTL0
tap_done
