#!/usr/bin/env bash
# run-measure.sh - `regctl monitor EVENTS -- CMD` and runs until a signal (docs/monitoring.md
# section 1): the command's stdin, stdout, stderr and exit status passed through (128+N when
# signal N ends it), a command that cannot run, totals with the elapsed time, SIGINT and SIGTERM
# without a command; then regctl killed at each point of a run through the kernel, on the
# emulated msr device (msrfs) and on the emulated PCI tree with the msr device beside it
# (pcifs): before programming (waiting for a lock), while the command runs, and in the middle
# of an interval's read (the FUSE server sends the signal from inside that read): every
# register as found, the boxes frozen, the command ended.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/regctl.sh
. tests/runtime/msrfs.sh
. tests/runtime/pcifs.sh
. tests/runtime/perfrig.sh
tmp=$(mktemp -d)
bgpids=""
cleanup() {
    for p in $bgpids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    msrfs_unmount
    pcifs_unmount
    rm -rf "$tmp"
}
# a signal from outside ends the script (tests/run.sh reports its status); a trap that only
# cleaned up would let it run on without its scratch directory
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

regctl_needs e5_2600v2 "regctl monitor -- CMD"

U='ubox:EVENT_MSG.DOORBELL_RCVD'
C='cbox[c3]:CLOCKTICKS'
Q='qpi[p0]:TxL_FLITS_G0.DATA'
SIM=(--backend sim monitor e5_2600v2 "$U" --sim-rate "$U=1000")

# until process PID has ended (60 s at most)
wait_gone() {
    for _ in $(seq 1200); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.05; done
    return 1
}
check() { # NAME CONDITION-STATUS DETAIL...
    local name=$1 ok=$2; shift 2
    if [ "$ok" = 0 ]; then tap_ok "$name"; else tap_fail "$name" "$@"; fi
}

# ---- the simulator: what passes through

"$REGCTL" "${SIM[@]}" -- sh -c 'echo out; echo err >&2; exit 3' >"$tmp/out" 2>"$tmp/err"
rc=$?
check "exit status of the command" "$([ $rc = 3 ]; echo $?)" "exit $rc"
check "its stdout first, then the totals" "$([ "$(head -1 "$tmp/out")" = out ] &&
    grep -q "^ Performance counter stats for 'sh -c echo out; echo err >&2; exit 3' on e5_2600v2:$" "$tmp/out" &&
    grep -qE '^ +1,000 events +ubox:EVENT_MSG.DOORBELL_RCVD +# +1,000.00 events/s$' "$tmp/out" &&
    grep -qE '^ +1.000000000 seconds time elapsed$' "$tmp/out"; echo $?)" "$(cat "$tmp/out")"
check "its stderr" "$([ "$(cat "$tmp/err")" = err ]; echo $?)" "$(cat "$tmp/err")"
out=$(printf 'in put\n' | "$REGCTL" "${SIM[@]}" -- cat 2>&1)
check "its stdin" "$([ "$(echo "$out" | head -1)" = "in put" ]; echo $?)" "$out"
"$REGCTL" "${SIM[@]}" -- sh -c 'kill -TERM $$' >"$tmp/out" 2>&1
rc=$?
check "a command ended by SIGTERM: exit 143, totals printed" \
    "$([ $rc = 143 ] && grep -q 'seconds time elapsed' "$tmp/out"; echo $?)" "exit $rc" "$(cat "$tmp/out")"
"$REGCTL" "${SIM[@]}" -- true >"$tmp/out" 2>&1
rc=$?
check "exit 0 with the command's" "$([ $rc = 0 ]; echo $?)" "exit $rc"

"$REGCTL" "${SIM[@]}" -- "$tmp/no-such-program" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a command not found: 127, no totals" "$([ $rc = 127 ] && [ ! -s "$tmp/out" ] &&
    [ "$(cat "$tmp/err")" = "regctl: monitor: cannot run '$tmp/no-such-program': No such file or directory" ]; echo $?)" \
    "exit $rc" "$(cat "$tmp/out" "$tmp/err")"
printf 'echo hi\n' >"$tmp/noexec"
chmod 0644 "$tmp/noexec"
"$REGCTL" "${SIM[@]}" -- "$tmp/noexec" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "a command not executable: 126" "$([ $rc = 126 ] &&
    [ "$(cat "$tmp/err")" = "regctl: monitor: cannot run '$tmp/noexec': Permission denied" ]; echo $?)" \
    "exit $rc" "$(cat "$tmp/err")"
"$REGCTL" "${SIM[@]}" --count 2 -- true >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--count with a command refused" "$([ $rc = 2 ] &&
    [ "$(cat "$tmp/err")" = "regctl: monitor: --count and a command exclude each other: the command's end ends the run" ]; echo $?)" \
    "exit $rc" "$(cat "$tmp/err")"
"$REGCTL" --dry-run "${SIM[@]}" -- sh -c "touch $tmp/ran" >"$tmp/out" 2>&1
check "--dry-run runs no command" "$([ ! -e "$tmp/ran" ] && grep -q '^write ubox.U_MSR_PMON_CTL0' "$tmp/out"; echo $?)" \
    "$(cat "$tmp/out")"

# intervals while the command runs, then the totals: three 100 ms intervals at least (the command
# sleeps ten times as long: the simulator's time is a read's number times 100 ms)
"$REGCTL" "${SIM[@]}" -I 100 -- sleep 1 >"$tmp/out" 2>&1
rc=$?
check "-I 100 -- sleep 1: intervals, then totals" "$([ $rc = 0 ] &&
    grep -qE '^ +0.100000000 +1,000 events +ubox' "$tmp/out" &&
    grep -qE '^ +0.300000000 +1,000 events +ubox' "$tmp/out" &&
    grep -q 'Performance counter stats for .sleep 1. on e5_2600v2:' "$tmp/out"; echo $?)" "exit $rc" "$(cat "$tmp/out")"

# no command, no --count: until SIGINT or SIGTERM, then the totals
for sig in INT TERM; do
    : >"$tmp/a.out" # emptied first: wait_for must not see the last run's lines
    "$REGCTL" "${SIM[@]}" -I 100 >"$tmp/a.out" 2>"$tmp/a.err" &
    apid=$!
    wait_for "$tmp/a.out" '^ *0.100000000 '
    kill -"$sig" "$apid"
    wait "$apid"
    rc=$?
    want=$((128 + $(kill -l "$sig")))
    check "until SIG$sig: exit $want, the totals" "$([ $rc = $want ] && [ ! -s "$tmp/a.err" ] &&
        grep -q 'seconds time elapsed' "$tmp/a.out"; echo $?)" "exit $rc" "$(cat "$tmp/a.out" "$tmp/a.err")"
done

# a signal sent to regctl goes on to the command, whose end ends the run
: >"$tmp/a.out" # emptied first: wait_for must not see the last run's lines
"$REGCTL" "${SIM[@]}" -I 100 -- sh -c "echo \$\$ >$tmp/child; exec sleep 60" >"$tmp/a.out" 2>&1 &
apid=$!
wait_for "$tmp/a.out" '^ *0.100000000 '
kill -TERM "$apid"
wait "$apid"
rc=$?
child=$(cat "$tmp/child")
check "SIGTERM to regctl ends the command: exit 143" "$([ $rc = 143 ] && wait_gone "$child" &&
    grep -q 'seconds time elapsed' "$tmp/a.out"; echo $?)" "exit $rc" "$(cat "$tmp/a.out")"

# ---- through perf_event: the kernel's counts around the command (a fake sysfs tree whose PMU
# type is the software PMU's: raw ev_sel=0 is cpu-clock, nanoseconds; run-perf-monitor.sh)
if perf_cpuwide; then
    perf_tree tests/runtime/data/perf-formats/ivbep.txt "$tmp/ivb"
    "$REGCTL" --force-cpu --sysfs-root "$tmp/ivb" --backend perf monitor e5_2600v2 \
        'ubox:raw,reg=U_MSR_PMON_CTL,ev_sel=0' -x , -- sleep 0.3 >"$tmp/out" 2>&1
    rc=$?
    # the clock counted at least the 0.3 s the command slept
    ns=$(awk -F, '{ print $1 }' "$tmp/out")
    check "perf backend: cpu-clock counts the command's 0.3 s" \
        "$([ $rc = 0 ] && [ "$(wc -l <"$tmp/out")" = 1 ] && [ "$ns" -ge 300000000 ]; echo $?)" "exit $rc" "$(cat "$tmp/out")"
else
    tap_skip "perf backend: cpu-clock counts the command's 0.3 s" "$perf_why"
fi

# ---- killed at each point, through the kernel

# VALUES REGISTER...: each register's value, one line each (regctl read through the same device)
values() {
    for r in "$@"; do
        printf '%s=%s\n' "$r" "$("$REGCTL" "${DEV[@]}" --json read "e5_2600v2.$r" | sed -n 's/^  "value": "\(.*\)",$/\1/p')"
    done
}
# reads of MSR ADDR in one whole run of ARGS (--count 1), from the device log LOG: the Kth read
# of the counter is then the first interval's
reads_in_run() {
    local log=$1 addr=$2; shift 2
    local before after
    before=$(grep -c "^R [0-9]* $addr " "$log")
    "$REGCTL" "$@" --count 1 >/dev/null 2>&1
    after=$(grep -c "^R [0-9]* $addr " "$log")
    echo $((after - before))
}
# kill_points DEVICE-NAME CONTROL-FILE LOG REGISTERS -- MONITOR-ARGS...: the three points
kill_points() {
    local dev=$1 ctl=$2 log=$3 regs=$4
    shift 5
    local before after rc apid
    # a whole run first: what a release leaves (PCI box controls read back their must-be-one
    # bits 17:16, 329468 "SW must write to 1") is then the state found
    "$REGCTL" "${DEV[@]}" monitor e5_2600v2 "$@" --lock-dir "$tmp/locks" --interval 0 --count 1 >/dev/null
    before=$(values $regs)
    # 1. before programming: waiting for the lock another run holds
    : >"$tmp/h.out" # emptied first: wait_for must not see the last run's lines
    "$REGCTL" "${DEV[@]}" monitor e5_2600v2 "$@" --lock-dir "$tmp/locks" -I 100 >"$tmp/h.out" 2>&1 &
    local hpid=$!
    bgpids="$bgpids $hpid"
    wait_for "$tmp/h.out" '^ *0\.'
    "$REGCTL" "${DEV[@]}" monitor e5_2600v2 "$@" --lock-dir "$tmp/locks" --wait -I 100 >"$tmp/w.out" 2>&1 &
    apid=$!
    # until it blocks in flock(2): /proc/locks lists a waiter ("->") with its pid
    for _ in $(seq 1200); do grep -q "^[0-9]*: -> FLOCK .* $apid " /proc/locks && break; sleep 0.05; done
    kill -TERM "$apid"
    wait "$apid"
    rc=$?
    kill -INT "$hpid"
    wait "$hpid"
    local hrc=$?
    after=$(values $regs)
    check "$dev: killed waiting for a lock (before programming): exit 143, nothing changed" \
        "$([ $rc = 143 ] && [ $hrc = 130 ] && [ "$before" = "$after" ] &&
        grep -q '^regctl: monitor: interrupted while waiting for the lock on ' "$tmp/w.out"; echo $?)" \
        "exit $rc, holder $hrc" "$(cat "$tmp/w.out")" "before: $before" "after:  $after"

    # 2. while the command runs
    : >"$tmp/a.out" # emptied first: wait_for must not see the last run's lines
    "$REGCTL" "${DEV[@]}" monitor e5_2600v2 "$@" --lock-dir "$tmp/locks" -I 100 \
        -- sh -c "echo \$\$ >$tmp/child; exec sleep 60" >"$tmp/a.out" 2>&1 &
    apid=$!
    wait_for "$tmp/a.out" '^ *0\.'
    kill -TERM "$apid"
    wait "$apid"
    rc=$?
    after=$(values $regs)
    check "$dev: killed while the command runs: exit 143, the command ended, registers as found" \
        "$([ $rc = 143 ] && wait_gone "$(cat "$tmp/child")" && [ "$before" = "$after" ]; echo $?)" \
        "exit $rc" "$(cat "$tmp/a.out")" "before: $before" "after:  $after"

    # (and a command that cannot run: the counters were started, and are released)
    "$REGCTL" "${DEV[@]}" monitor e5_2600v2 "$@" --lock-dir "$tmp/locks" -- "$tmp/no-such-program" \
        >"$tmp/a.out" 2>&1
    rc=$?
    after=$(values $regs)
    check "$dev: a command that cannot run: exit 127, registers as found" \
        "$([ $rc = 127 ] && [ "$before" = "$after" ]; echo $?)" "exit $rc" "$(cat "$tmp/a.out")" \
        "before: $before" "after:  $after"

    # (and a reader that goes away: regctl ... | head -1 ends as SIGPIPE would, boxes restored)
    "$REGCTL" "${DEV[@]}" monitor e5_2600v2 "$@" --lock-dir "$tmp/locks" -I 10 2>"$tmp/a.err" | head -1 >/dev/null
    rc=${PIPESTATUS[0]}
    after=$(values $regs)
    check "$dev: its reader gone (| head -1): exit 141, registers as found" \
        "$([ $rc = 141 ] && [ "$before" = "$after" ]; echo $?)" "exit $rc" "$(cat "$tmp/a.err")" \
        "before: $before" "after:  $after"

    # 3. in the middle of an interval's read: the device signals regctl from inside the
    #    first interval's read of the U-Box counter (0xc16)
    local k
    k=$(reads_in_run "$log" 0xc16 "${DEV[@]}" monitor e5_2600v2 "$@" --lock-dir "$tmp/locks" --interval 0)
    local n0
    n0=$(wc -l <"$log")
    sh -c "printf 'signal %s 15 0xc16 %s' \$\$ $k >$ctl && exec \"\$0\" \"\$@\"" \
        "$REGCTL" "${DEV[@]}" monitor e5_2600v2 "$@" --lock-dir "$tmp/locks" -I 50 >"$tmp/a.out" 2>&1
    rc=$?
    after=$(values $regs)
    # after the signalled read: the rest of that interval's pass, the last poll, then the writes
    # that restore (the log's lines after the read)
    local tail_writes
    tail_writes=$(tail -n +"$((n0 + 1))" "$log" | awk -v k="$k" '$1 == "R" && $3 == "0xc16" { n++; if (n == k) on = 1; next } on && $1 == "W" { w++ } END { print w + 0 }')
    check "$dev: killed in an interval's read: exit 143, registers as found" \
        "$([ $rc = 143 ] && [ "$tail_writes" -gt 0 ] && [ "$before" = "$after" ] &&
        grep -q 'seconds time elapsed' "$tmp/a.out"; echo $?)" \
        "exit $rc, $tail_writes writes after the read" "$(cat "$tmp/a.out")" "before: $before" "after:  $after"
}

msr_names=("msrfs: killed waiting for a lock (before programming): exit 143, nothing changed"
    "msrfs: killed while the command runs: exit 143, the command ended, registers as found"
    "msrfs: a command that cannot run: exit 127, registers as found"
    "msrfs: its reader gone (| head -1): exit 141, registers as found"
    "msrfs: killed in an interval's read: exit 143, registers as found"
    "msrfs: left frozen")
msrfs_mount e5_2600v2 1 "$tmp/mnt" --log "$tmp/msr.log"
if [ -n "$msrfs_why" ]; then
    for t in "${msr_names[@]}"; do tap_skip "$t" "$msrfs_why"; done
else
    mkdir -p "$tmp/sys" # no kernel uncore PMUs here, whatever the test machine has
    DEV=(--force-cpu --msr-root "$mnt/cpu" --sysfs-root "$tmp/sys")
    # leftovers in idle registers: what a run must put back
    "$REGCTL" "${DEV[@]}" write e5_2600v2.cbox.c3.Cn_MSR_PMON_CTR2 event_count=0x1234 >/dev/null
    "$REGCTL" "${DEV[@]}" write e5_2600v2.ubox.U_MSR_PMON_CTR1 event_count=0x777 >/dev/null
    "$REGCTL" "${DEV[@]}" write e5_2600v2.ubox.U_MSR_PMON_GLOBAL_CTL pmi_core_sel=0x5 >/dev/null
    REGS="cbox.c3.Cn_MSR_PMON_CTL0 cbox.c3.Cn_MSR_PMON_CTR0 cbox.c3.Cn_MSR_PMON_CTR2 ubox.U_MSR_PMON_CTL0 ubox.U_MSR_PMON_CTR0 ubox.U_MSR_PMON_CTR1 ubox.U_MSR_PMON_GLOBAL_CTL"
    printf 'rate %s 1000' "$U" >"$mnt/sim"
    printf 'auto 1' >"$mnt/sim"
    kill_points msrfs "$mnt/sim" "$tmp/msr.log" "$REGS" -- "$U" "$C"
    ctr=$(values ubox.U_MSR_PMON_CTR0)
    printf 'event %s 10' "$U" >"$mnt/sim"
    check "${msr_names[5]}" "$([ "$(values ubox.U_MSR_PMON_CTR0)" = "$ctr" ]; echo $?)" "$ctr"
    msrfs_unmount
fi

pci_names=("pcifs: killed waiting for a lock (before programming): exit 143, nothing changed"
    "pcifs: killed while the command runs: exit 143, the command ended, registers as found"
    "pcifs: a command that cannot run: exit 127, registers as found"
    "pcifs: its reader gone (| head -1): exit 141, registers as found"
    "pcifs: killed in an interval's read: exit 143, registers as found"
    "pcifs: QPI control and counter as found, through the kernel")
pcifs_mount e5_2600v2 "$tmp/pmnt" --cpus 1
if [ -n "$pcifs_why" ]; then
    for t in "${pci_names[@]}"; do tap_skip "$t" "$pcifs_why"; done
else
    DEV=(--force-cpu --msr-root "$pcifs_mnt/cpu" --sysfs-root "$pcifs_mnt")
    "$REGCTL" "${DEV[@]}" write e5_2600v2.ubox.U_MSR_PMON_CTR1 event_count=0x777 >/dev/null
    "$REGCTL" "${DEV[@]}" write e5_2600v2.qpi.p0.Q_Py_PCI_PMON_CTR2 event_count=0x4321 >/dev/null
    REGS="qpi.p0.Q_Py_PCI_PMON_CTL0 qpi.p0.Q_Py_PCI_PMON_CTR2 qpi.p0.Q_Py_PCI_PMON_BOX_CTL ubox.U_MSR_PMON_CTL0 ubox.U_MSR_PMON_CTR1 ubox.U_MSR_PMON_GLOBAL_CTL"
    bdf=$(ls "$pcifs_mnt/bus/pci/devices" | head -1)
    pcifs_cmd "rate $U 1000"
    pcifs_cmd "auto 1"
    "$REGCTL" "${DEV[@]}" monitor e5_2600v2 "$U" "$Q" --lock-dir "$tmp/locks" --interval 0 --count 1 >/dev/null
    before_cfg=$(for d in "$pcifs_mnt"/bus/pci/devices/*; do od -An -tx4 "$d/config"; done | md5sum)
    kill_points pcifs "$pcifs_mnt/sim" "$pcifs_log" "$REGS" -- "$U" "$Q"
    after_cfg=$(for d in "$pcifs_mnt"/bus/pci/devices/*; do od -An -tx4 "$d/config"; done | md5sum)
    check "${pci_names[5]}" "$([ -n "$bdf" ] && [ "$before_cfg" = "$after_cfg" ]; echo $?)" "$bdf"
    pcifs_unmount
fi
tap_done
