#!/usr/bin/env bash
# run-share.sh - `regctl monitor` sharing the hardware (docs/monitoring.md): two runs on the
# simulator and their locks (--lock-dir, --wait; none without --lock-dir), SIGINT and SIGTERM
# (exit 128+N); on the msr backend through tests/tools/msrfs (FUSE): a box in use refused
# with its evidence (a control set, a counter advancing), --force, and an interrupted run
# that leaves every register as it found it, frozen.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/regctl.sh
. tests/runtime/msrfs.sh
tmp=$(mktemp -d)
tpid=""
cleanup() {
    if [ -n "$tpid" ]; then kill "$tpid" 2>/dev/null; wait "$tpid" 2>/dev/null; fi
    msrfs_unmount
    rm -rf "$tmp"
}
# a signal from outside ends the script (tests/run.sh reports its status); a trap that only
# cleaned up would let it run on without its scratch directory
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

regctl_needs e5_2600v2 "regctl monitor sharing"

U='ubox:EVENT_MSG.DOORBELL_RCVD'
C='cbox[c3]:CLOCKTICKS'
locks=$tmp/locks

# expect NAME WANT_STATUS WANT_STDERR_FILE_CONTENT ARGS...: status and the exact stderr
expect() {
    local name=$1 want=$2 werr=$3; shift 3
    "$REGCTL" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ "$rc" != "$want" ]; then tap_fail "$name: exit $rc, expected $want" "$(head -3 "$tmp/err")"; return; fi
    if [ "$(cat "$tmp/err")" != "$werr" ]; then tap_fail "$name" "got:  $(cat "$tmp/err")" "want: $werr"; return; fi
    tap_ok "$name"
}

# ---- the simulator: locks only where asked (--lock-dir), interrupts

: >"$tmp/a.out" # emptied first: wait_for must not see the last run's lines
"$REGCTL" --backend sim monitor e5_2600v2 "$U" --lock-dir "$locks" --interval 100ms \
    --count 300 >"$tmp/a.out" 2>"$tmp/a.err" &
apid=$!
if wait_for "$tmp/a.out" '^ *1 '; then tap_ok "sim: first run counting"; else tap_fail "sim: first run counting" "$(cat "$tmp/a.err")"; fi
expect "sim: second run refused while the first holds the lock" 1 \
    "regctl: monitor: the global control is locked by another session (pid $apid holds '$locks/sim-cpu0-global.lock')" \
    --backend sim monitor e5_2600v2 "$U" --lock-dir "$locks" --interval 0 --count 1
kill -INT "$apid"
wait "$apid"
rc=$?
if [ $rc = 130 ] && [ ! -s "$tmp/a.err" ]; then tap_ok "sim: SIGINT ends the run, exit 130"; else tap_fail "sim: SIGINT ends the run, exit 130" "exit $rc" "$(cat "$tmp/a.err")"; fi
expect "sim: the lock is free again" 0 "" \
    --backend sim monitor e5_2600v2 "$U" --lock-dir "$locks" --interval 0 --count 1

: >"$tmp/a.out" # emptied first: wait_for must not see the last run's lines
"$REGCTL" --backend sim monitor e5_2600v2 "$U" --lock-dir "$locks" --interval 150ms \
    --count 3 >"$tmp/a.out" 2>&1 &
apid=$!
wait_for "$tmp/a.out" '^ *1 '
"$REGCTL" --backend sim monitor e5_2600v2 "$U" --lock-dir "$locks" --wait --interval 0 --count 1 >"$tmp/b.out" 2>&1
rc=$?
# B got the lock only after A's last interval (A prints it before it releases; A may still be
# exiting, slowly under the sanitizers, so its process is not what is checked)
if [ $rc = 0 ] && grep -q '^ *3 ' "$tmp/a.out"; then tap_ok "sim: --wait waits for the holder"; else tap_fail "sim: --wait waits for the holder" "exit $rc" "$(cat "$tmp/b.out")" "$(cat "$tmp/a.out")"; fi
wait "$apid"

mkdir -p "$tmp/env"
: >"$tmp/a.out" # emptied first: wait_for must not see the last run's lines
REGC_LOCK_DIR=$tmp/env "$REGCTL" --backend sim monitor e5_2600v2 "$U" --interval 100ms \
    --count 300 >"$tmp/a.out" 2>"$tmp/a.err" &
apid=$!
wait_for "$tmp/a.out" '^ *1 '
REGC_LOCK_DIR=$tmp/env expect "sim: no lock without --lock-dir (each simulator is private)" 0 "" \
    --backend sim monitor e5_2600v2 "$U" --interval 0 --count 1
if [ -z "$(ls "$tmp/env")" ]; then tap_ok "sim: \$REGC_LOCK_DIR not used"; else tap_fail "sim: \$REGC_LOCK_DIR not used" "$(ls "$tmp/env")"; fi
kill -TERM "$apid"
wait "$apid"
rc=$?
if [ $rc = 143 ]; then tap_ok "sim: SIGTERM, exit 143"; else tap_fail "sim: SIGTERM, exit 143" "exit $rc"; fi

# ---- the msr backend through the kernel (FUSE)
msrfs_mount e5_2600v2 1 "$tmp/mnt"
why=$msrfs_why
msr_tests=("msrfs: a control in use is refused" "msrfs: an advancing counter is refused"
    "msrfs: --force, then SIGINT" "msrfs: registers as found after the interrupt"
    "msrfs: left frozen" "msrfs: unlocked after the interrupt")
if [ -n "$why" ]; then
    for t in "${msr_tests[@]}"; do tap_skip "$t" "$why"; done
    tap_done
    exit 0
fi
mkdir -p "$tmp/sys"   # no kernel uncore PMUs here, whatever the test machine has
R=(--force-cpu --msr-root "$mnt/cpu" --sysfs-root "$tmp/sys")
value() { "$REGCTL" "${R[@]}" --json read "e5_2600v2.$1" | sed -n 's/^  "value": "\(.*\)",$/\1/p'; }

# another user's counter 1 in the C-Box, counting, and leftovers in an idle counter and the PMI routing
"$REGCTL" "${R[@]}" write e5_2600v2.cbox.c3.Cn_MSR_PMON_CTL1 en=1 >/dev/null
"$REGCTL" "${R[@]}" write e5_2600v2.cbox.c3.Cn_MSR_PMON_CTR2 event_count=0x1234 >/dev/null
"$REGCTL" "${R[@]}" write e5_2600v2.ubox.U_MSR_PMON_GLOBAL_CTL pmi_core_sel=0x5 >/dev/null
expect "${msr_tests[0]}" 1 \
    "regctl: monitor: box 'cbox.c3' is in use (cbox.c3.Cn_MSR_PMON_CTL1 = 0x400000); refusing to program it unless forced" \
    "${R[@]}" monitor e5_2600v2 "$C" --lock-dir "$locks" --interval 0 --count 1

(while :; do printf 'event cbox[c3]:CLOCKTICKS 3' >"$mnt/sim"; sleep 0.01; done) 2>/dev/null &
tpid=$!
"$REGCTL" "${R[@]}" monitor e5_2600v2 "$C" --lock-dir "$locks" --settle 300ms --interval 0 --count 1 \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
kill "$tpid"; wait "$tpid" 2>/dev/null; tpid=""
if [ $rc = 1 ] && grep -qE "^regctl: monitor: box 'cbox.c3' is in use \(cbox.c3.Cn_MSR_PMON_CTL1 = 0x400000, cbox.c3.Cn_MSR_PMON_CTR1 advanced from 0x[0-9a-f]+ to 0x[0-9a-f]+\); refusing to program it unless forced$" "$tmp/err"
then tap_ok "${msr_tests[1]}"; else tap_fail "${msr_tests[1]}" "exit $rc" "$(cat "$tmp/err")"; fi

before=""
for r in cbox.c3.Cn_MSR_PMON_CTL0 cbox.c3.Cn_MSR_PMON_CTL1 cbox.c3.Cn_MSR_PMON_CTR1 cbox.c3.Cn_MSR_PMON_CTR2 ubox.U_MSR_PMON_GLOBAL_CTL; do
    before="$before $r=$(value $r)"
done
: >"$tmp/a.out" # emptied first: wait_for must not see the last run's lines
"$REGCTL" "${R[@]}" monitor e5_2600v2 "$C" --force --lock-dir "$locks" --interval 100ms \
    --count 300 >"$tmp/a.out" 2>"$tmp/a.err" &
apid=$!
wait_for "$tmp/a.out" '^ *1 '
kill -INT "$apid"
wait "$apid"
rc=$?
warn="regctl: monitor: warning: box 'cbox.c3' is in use (cbox.c3.Cn_MSR_PMON_CTL1 = 0x400000): programming it as forced"
if [ $rc = 130 ] && [ "$(cat "$tmp/a.err")" = "$warn" ]; then tap_ok "${msr_tests[2]}"; else tap_fail "${msr_tests[2]}" "exit $rc" "$(cat "$tmp/a.err")"; fi
after=""
for r in cbox.c3.Cn_MSR_PMON_CTL0 cbox.c3.Cn_MSR_PMON_CTL1 cbox.c3.Cn_MSR_PMON_CTR1 cbox.c3.Cn_MSR_PMON_CTR2 ubox.U_MSR_PMON_GLOBAL_CTL; do
    after="$after $r=$(value $r)"
done
case "$before" in *"CTL1=0x400000 "*"CTR2=0x1234 "*"GLOBAL_CTL=0x5") ok=1 ;; *) ok=0 ;; esac
if [ $ok = 1 ] && [ "$before" = "$after" ]; then tap_ok "${msr_tests[3]}"; else tap_fail "${msr_tests[3]}" "before:$before" "after: $after"; fi
printf 'event cbox[c3]:CLOCKTICKS 10' >"$mnt/sim"
ctr1=$(value cbox.c3.Cn_MSR_PMON_CTR1)
case "$after" in *"CTR1=$ctr1 "*) tap_ok "${msr_tests[4]}" ;; *) tap_fail "${msr_tests[4]}" "CTR1 $ctr1 after 10 events; $after" ;; esac
expect "${msr_tests[5]}" 0 "$warn" "${R[@]}" monitor e5_2600v2 "$C" --force --lock-dir "$locks" --interval 0 --count 1
tap_done
