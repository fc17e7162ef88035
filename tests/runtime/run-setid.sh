#!/usr/bin/env bash
# run-setid.sh - a regctl that runs set-group-ID (or with raised capabilities) takes no path
# from its environment or its command line (secure_getenv, AT_SECURE; docs/runtime.md
# "Environment"): $REGC_MSR_ROOT, $REGC_SYSFS_ROOT and $REGC_LOCK_DIR steer a plain copy of
# regctl and not a set-group-ID one, and --msr-root, --sysfs-root and --lock-dir are refused
# by the set-group-ID one (root runs both; the copy is set-group-ID to nogroup, so the kernel
# marks it AT_SECURE). The set-group-ID runs are kept off the machine's devices: CPUs 998 and
# 999 (no machine here has them), a planted value, and a private /run (unshare -m) for the
# default lock directory. monitor --socket reads its topology from $REGC_SYSFS_ROOT in a plain
# run only (a planted package, a FIFO that would hang it); for every command a set-group-ID run
# prints the same with and without the environment's roots; a copy with file capabilities run
# by nobody ignores them too; and no code of runtime/ or common/ but regc_getenv() reads the
# environment.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/regctl.sh

cmds=(list events read write detect monitor "monitor --socket")
names=("plain: \$REGC_MSR_ROOT read" "set-group-ID: \$REGC_MSR_ROOT ignored"
    "plain: \$REGC_SYSFS_ROOT read" "set-group-ID: \$REGC_SYSFS_ROOT ignored"
    "set-group-ID: --msr-root refused" "set-group-ID: --sysfs-root refused"
    "set-group-ID: --lock-dir refused" "plain: --msr-root, --sysfs-root, --lock-dir taken"
    "plain: monitor --socket reads \$REGC_SYSFS_ROOT's topology"
    "set-group-ID: monitor --socket ignores \$REGC_SYSFS_ROOT's topology"
    "set-group-ID: monitor --socket never opens a FIFO planted as physical_package_id"
    "${cmds[@]/#/set-group-ID: the environment changes nothing: }"
    "capability (as nobody): \$REGC_MSR_ROOT ignored"
    "capability (as nobody): monitor --socket ignores \$REGC_SYSFS_ROOT's topology"
    "plain: \$REGC_LOCK_DIR used" "set-group-ID: \$REGC_LOCK_DIR ignored (/run/regc)")
LOCK_TESTS=$((${#names[@]} - 2))

# libregrt and regctl read their environment in one place: regc_getenv() (secure_getenv)
bad=$(grep -rn --include='*.[ch]' -E '\b(secure_)?getenv *\( *[A-Za-z_"]' runtime common | grep -v '^runtime/base.c:')
if [ -z "$bad" ]; then tap_ok "runtime/ and common/ read the environment only through regc_getenv()"
else tap_fail "runtime/ and common/ read the environment only through regc_getenv()" "$bad"; fi
skip() { tap_skip_rest "$2" "${names[@]:$1}"; }
if [ "$(id -u)" != 0 ]; then skip 0 "not root: cannot make a program set-group-ID to a group not ours"; fi
regctl_needs e5_2600 "${names[@]}"
tap_setup tmp
chmod 755 "$tmp"
if findmnt -n -o OPTIONS --target "$tmp" 2>/dev/null | grep -qw nosuid; then
    skip 0 "$tmp is on a file system mounted nosuid"
fi
plain=$tmp/regctl
sgid=$tmp/regctl-sgid
cp "$REGCTL" "$plain"
cp "$REGCTL" "$sgid"
chgrp 65534 "$sgid"
chmod 2755 "$sgid"

# the U-Box control of CPU 999, planted
mkdir -p "$tmp/cpu/999" "$tmp/cpu/998"
head -c 4096 /dev/zero >"$tmp/cpu/999/msr"
printf '\x42\x08\x40\x00' | dd of="$tmp/cpu/999/msr" bs=1 seek=$((0xc10)) conv=notrunc 2>/dev/null
: >"$tmp/cpu/998/msr" # empty: a monitor run locks, then its first read fails
R=(--force-cpu --cpu 999 --json read e5_2600.ubox.U_MSR_PMON_CTL0)
out=$(REGC_MSR_ROOT=$tmp/cpu "$plain" "${R[@]}" 2>&1)
if echo "$out" | grep -q '"value": "0x400842"'; then tap_ok "${names[0]}"; else tap_fail "${names[0]}" "$out"; fi
out=$(REGC_MSR_ROOT=$tmp/cpu "$sgid" "${R[@]}" 2>&1)
rc=$?
if [ $rc = 1 ] && echo "$out" | grep -q "no such CPU, or the msr driver is not loaded"; then tap_ok "${names[1]}"
else tap_fail "${names[1]}" "exit $rc" "$out"; fi

# a PCI device of the E5-2600 IMC, planted in a sysfs tree
dev=$tmp/sys/bus/pci/devices/0000:7f:10.4
mkdir -p "$dev"
printf '0x8086\n' >"$dev/vendor"
printf '0x3cb4\n' >"$dev/device"
head -c 256 /dev/zero >"$dev/config"
printf '\x04\x03\x40\x00' | dd of="$dev/config" bs=1 seek=$((0xe4)) conv=notrunc 2>/dev/null
P=(--force-cpu --backend pci --json read e5_2600.imc.imc2.MC_CHy_PCI_PMON_CTL3)
out=$(REGC_SYSFS_ROOT=$tmp/sys "$plain" "${P[@]}" 2>&1)
if echo "$out" | grep -q '"value": "0x400304"'; then tap_ok "${names[2]}"; else tap_fail "${names[2]}" "$out"; fi
out=$(REGC_SYSFS_ROOT=$tmp/sys "$sgid" "${P[@]}" 2>&1)
if echo "$out" | grep -q '0x400304'; then tap_fail "${names[3]}" "$out"; else tap_ok "${names[3]}"; fi

# path options: refused before anything is opened, exit 2 (a usage error)
mkdir -m 700 "$tmp/lk1" "$tmp/lk2"
refused() {   # test index, option, the rest of the command line
    local i=$1 opt=$2; shift 2
    out=$("$sgid" "$@" 2>&1)
    rc=$?
    if [ $rc = 2 ] && echo "$out" | grep -q "regctl: $opt is refused: regctl runs set-user-ID"; then
        tap_ok "${names[$i]}"
    else tap_fail "${names[$i]}" "exit $rc" "$out"; fi
}
refused 4 --msr-root --force-cpu --msr-root "$tmp/cpu" --cpu 999 read e5_2600.ubox.U_MSR_PMON_CTL0
refused 5 --sysfs-root --force-cpu --backend pci --sysfs-root "$tmp/sys" read e5_2600.imc.imc2.MC_CHy_PCI_PMON_CTL3
refused 6 --lock-dir --force-cpu --cpu 998 monitor e5_2600v2 'ubox:EVENT_MSG.DOORBELL_RCVD' \
    --lock-dir "$tmp/lk2" --interval 0 --count 1
a=$("$plain" --force-cpu --msr-root "$tmp/cpu" --cpu 999 --json read e5_2600.ubox.U_MSR_PMON_CTL0 2>&1)
b=$("$plain" --force-cpu --backend pci --sysfs-root "$tmp/sys" --json read e5_2600.imc.imc2.MC_CHy_PCI_PMON_CTL3 2>&1)
c=$("$plain" --force-cpu --msr-root "$tmp/cpu" --cpu 998 monitor e5_2600v2 'ubox:EVENT_MSG.DOORBELL_RCVD' \
    --lock-dir "$tmp/lk1" --interval 0 --count 1 2>&1)
c="$c [locks: $(ls "$tmp/lk1" | tr '\n' ' ')]"
if echo "$a" | grep -q '"value": "0x400842"' && echo "$b" | grep -q '"value": "0x400304"' &&
   echo "$c" | grep -qF "[locks: msr-cpu998-global.lock msr-cpu998-ubox.lock ]"; then tap_ok "${names[7]}"
else tap_fail "${names[7]}" "$a" "$b" "$c"; fi

# monitor --socket: the packages and CPUs come from sysfs; a planted topology (package 77 on CPU 55)
# steers the plain copy's dry run and not the set-group-ID one's, which reads the machine's /sys
mkdir -p "$tmp/topo/devices/system/cpu/cpu55/topology" "$tmp/fifo/devices/system/cpu/cpu0/topology"
echo 77 >"$tmp/topo/devices/system/cpu/cpu55/topology/physical_package_id"
mkfifo "$tmp/fifo/devices/system/cpu/cpu0/topology/physical_package_id"
SOCK=(--dry-run monitor e5_2600v2 'ubox:EVENT_MSG.DOORBELL_RCVD' --socket all --interval 0 --count 1)
out=$(REGC_SYSFS_ROOT=$tmp/topo timeout 20 "$plain" "${SOCK[@]}" 2>&1)
if echo "$out" | grep -q '^S77 .*cpu55$'; then tap_ok "${names[8]}"; else tap_fail "${names[8]}" "$out"; fi
out=$(REGC_SYSFS_ROOT=$tmp/topo timeout 20 "$sgid" "${SOCK[@]}" 2>&1)
rc=$?
if [ $rc != 124 ] && ! echo "$out" | grep -q 'S77\|cpu55'; then tap_ok "${names[9]}"
else tap_fail "${names[9]}" "exit $rc" "$(echo "$out" | head -5)"; fi
# the plain copy would hang here, reading the FIFO: the set-group-ID one never opens it
out=$(REGC_SYSFS_ROOT=$tmp/fifo timeout 20 "$sgid" "${SOCK[@]}" 2>&1)
rc=$?
if [ $rc != 124 ] && ! echo "$out" | grep -q "$tmp"; then tap_ok "${names[10]}"
else tap_fail "${names[10]}" "exit $rc (124: hung)" "$(echo "$out" | head -5)"; fi

# every command: the environment's roots, planted, change nothing a set-group-ID run prints
# (CPUs 998 and 999, dry runs: nothing of the machine is written)
ENV=(REGC_MSR_ROOT="$tmp/cpu" REGC_SYSFS_ROOT="$tmp/topo" REGC_LOCK_DIR="$tmp/lk1" XDG_RUNTIME_DIR="$tmp")
run_cmd() { # COMMAND-NAME: the command line of cmds[i]
    case $1 in
    list) echo list e5_2600.ubox ;;
    events) echo events e5_2600v2.ubox ;;
    read) echo --force-cpu --cpu 999 --json read e5_2600.ubox.U_MSR_PMON_CTL0 ;;
    write) echo --force-cpu --cpu 999 write e5_2600.ubox.U_MSR_PMON_CTL0 en=1 ;;
    detect) echo --cpu 999 detect ;;
    monitor) echo --dry-run --cpu 998 monitor e5_2600v2 ubox:EVENT_MSG.DOORBELL_RCVD --interval 0 --count 1 ;;
    "monitor --socket") echo "${SOCK[@]}" ;;
    esac
}
i=11
for c in "${cmds[@]}"; do
    # shellcheck disable=SC2046 # the words of the command line
    a=$(cd "$tmp" && env "${ENV[@]}" timeout 20 "$sgid" $(run_cmd "$c") 2>&1; echo "exit $?")
    # shellcheck disable=SC2046
    b=$(cd "$tmp" && env -u REGC_MSR_ROOT -u REGC_SYSFS_ROOT -u REGC_LOCK_DIR -u XDG_RUNTIME_DIR \
        timeout 20 "$sgid" $(run_cmd "$c") 2>&1; echo "exit $?")
    if [ "$a" = "$b" ] && ! echo "$a" | grep -q "exit 124"; then tap_ok "${names[$i]}"
    else tap_fail "${names[$i]}" "with the environment: $(echo "$a" | head -3)" "without: $(echo "$b" | head -3)"; fi
    i=$((i + 1))
done

# capabilities: a copy with cap_sys_rawio (what `setcap cap_sys_rawio+ep regctl` gives users), run
# by nobody, is AT_SECURE as a set-ID one is (root's own runs gain no capability: not secure)
capn=$i
cap=$tmp/regctl-cap
if ! command -v setcap >/dev/null || ! command -v setpriv >/dev/null; then
    tap_skip "${names[$capn]}" "setcap or setpriv missing (Debian: libcap2-bin, util-linux)"
    tap_skip "${names[$((capn + 1))]}" "setcap or setpriv missing (Debian: libcap2-bin, util-linux)"
elif ! cp "$REGCTL" "$cap" || ! setcap cap_sys_rawio+ep "$cap" 2>/dev/null; then
    tap_skip "${names[$capn]}" "cannot set file capabilities on $tmp"
    tap_skip "${names[$((capn + 1))]}" "cannot set file capabilities on $tmp"
else
    nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    chmod -R a+rX "$tmp/cpu" "$tmp/topo"
    a=$(REGC_MSR_ROOT=$tmp/cpu "${nobody[@]}" "$plain" "${R[@]}" 2>&1)
    b=$(REGC_MSR_ROOT=$tmp/cpu "${nobody[@]}" "$cap" "${R[@]}" 2>&1)
    rc=$?
    if echo "$a" | grep -q '"value": "0x400842"' && [ $rc = 1 ] &&
        echo "$b" | grep -q "no such CPU, or the msr driver is not loaded"; then tap_ok "${names[$capn]}"
    else tap_fail "${names[$capn]}" "plain as nobody: $a" "capability: exit $rc: $b"; fi
    b=$(REGC_SYSFS_ROOT=$tmp/topo timeout 20 "${nobody[@]}" "$cap" "${SOCK[@]}" 2>&1)
    rc=$?
    if [ $rc != 124 ] && ! echo "$b" | grep -q 'S77\|cpu55'; then tap_ok "${names[$((capn + 1))]}"
    else tap_fail "${names[$((capn + 1))]}" "exit $rc" "$(echo "$b" | head -5)"; fi
fi

# the lock directory: root's default in a private /run
if ! unshare -m sh -c 'mount -t tmpfs -o mode=755 regc-test /run' 2>/dev/null; then
    skip $LOCK_TESTS "cannot mount a private /run (unshare -m)"
fi
mkdir -m 700 "$tmp/env1" "$tmp/env2"
# the set-group-ID run takes no --msr-root: CPU 998's device does not exist, it locks and fails
M=(--force-cpu --cpu 998 monitor e5_2600v2 'ubox:EVENT_MSG.DOORBELL_RCVD' --interval 0 --count 1)
# shellcheck disable=SC2016 # expanded by the inner shell
unshare -m sh -c '
    mount -t tmpfs -o mode=755 regc-test /run || exit 1
    tmp=$1; shift
    REGC_LOCK_DIR=$tmp/env1 "$tmp/regctl" --msr-root "$tmp/cpu" "$@" >/dev/null 2>&1
    echo "plain: $(ls "$tmp/env1" | tr "\n" " ")/ $(ls /run | tr "\n" " ")"
    REGC_LOCK_DIR=$tmp/env2 "$tmp/regctl-sgid" "$@" >/dev/null 2>&1
    echo "sgid: $(ls "$tmp/env2" | tr "\n" " ")/ $(ls /run/regc 2>&1 | tr "\n" " ")"
' sh "$tmp" "${M[@]}" >"$tmp/locks.out" 2>&1
want="plain: msr-cpu998-global.lock msr-cpu998-ubox.lock / "
if grep -qxF "$want" "$tmp/locks.out"; then tap_ok "${names[$LOCK_TESTS]}"; else tap_fail "${names[$LOCK_TESTS]}" "$(cat "$tmp/locks.out")"; fi
want="sgid: / msr-cpu998-global.lock msr-cpu998-ubox.lock "
if grep -qxF "$want" "$tmp/locks.out"; then tap_ok "${names[$((LOCK_TESTS + 1))]}"; else tap_fail "${names[$((LOCK_TESTS + 1))]}" "$(cat "$tmp/locks.out")"; fi

tap_done
