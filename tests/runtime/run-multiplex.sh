#!/usr/bin/env bash
# run-multiplex.sh - `regctl monitor` with more events than counters, on the simulator with known
# rates: events are grouped onto each box's counters (respecting the counters each event may use,
# from the spec's event tables), one group per box is on its counters in each interval, the groups
# taking turns (interval t runs group (t-1) mod G), and each count is scaled by time enabled over
# time running (perf's estimate). On the simulator the session's clock is the model's cycles, so
# with a constant rate R the scaled total is exactly R x intervals, and the percentage running of
# an event of group g is the share of the intervals its group had. The expected values below are
# computed here from the rates and that schedule. Also: --no-multiplex refuses, naming the box, its
# counters and the events; 75 events and 75 --sim-rate terms (past the old silent limit of 64).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/regctl.sh
tap_setup tmp

regctl_needs e5_2600v2 "regctl monitor, multiplexing"

# check NAME JSON T EXPECT: EXPECT is "rate percent" per event; the totals must equal rate x T
# exactly and "percent_running" the percentage (to 1e-9)
check() {
    local name=$1 json=$2 t=$3 expect=$4 ok
    ok=$(python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).read())
t = int(sys.argv[2])
want = [line.split() for line in sys.argv[3].strip().split("\n")]
bad = []
for i, (rate, pct) in enumerate(want):
    if d["totals"][i] != int(rate) * t:
        bad.append("event %d: total %d, want %d x %d" % (i, d["totals"][i], int(rate), t))
    if abs(d["percent_running"][i] - float(pct)) > 1e-9:
        bad.append("event %d: %.6f%% running, want %s" % (i, d["percent_running"][i], pct))
print("; ".join(bad) if bad else "ok")
' "$json" "$t" "$expect" 2>&1)
    if [ "$ok" = ok ]; then tap_ok "$name"; else tap_fail "$name" "$ok" "$(head -c 2000 "$json")"; fi
}

# 1. the U-Box has 2 counters (guide 329468 Table 2-3: U_MSR_PMON_CTR0-1) and five EVENT_MSG
# sub-events may use either: groups {1,2} {3,4} {5}; in 7 intervals group 0 runs intervals 1, 4
# and 7 (3/7 of the time), groups 1 and 2 two intervals each (2/7)
U=ubox:EVENT_MSG
ev=("$U.DOORBELL_RCVD" "$U.INT_PRIO" "$U.IPI_RCVD" "$U.MSI_RCVD" "$U.VLW_RCVD")
r=(11 13 17 19 23)
args=()
for i in "${!ev[@]}"; do args+=("${ev[$i]}" --sim-rate "${ev[$i]}=${r[$i]}"); done
"$REGCTL" --backend sim --json monitor e5_2600v2 "${args[@]}" --interval 0 --count 7 >"$tmp/ubox.json" 2>&1
p3=$(python3 -c 'print(repr(300 / 7))') p2=$(python3 -c 'print(repr(200 / 7))')
check "U-Box, 5 events on 2 counters: scaled totals = rate x 7, running 3/7, 2/7" "$tmp/ubox.json" 7 \
    "11 $p3
13 $p3
17 $p2
19 $p2
23 $p2"

# the text form says which events were multiplexed, and for how much of the time
out=$("$REGCTL" --backend sim monitor e5_2600v2 "${args[@]}" --interval 0 --count 7 2>&1)
if echo "$out" | grep -qF "$U.VLW_RCVD: on a counter 28.57% of the time (multiplexed: 3 groups rotate on ubox)"; then
    tap_ok "text: the percentage running of each multiplexed event"
else
    tap_fail "text: the percentage running of each multiplexed event" "$out"
fi

# the rotation as register writes (--dry-run: start, one interval, release): at the interval's poll,
# under the freeze, after reading both counters (the third read of CTR1: the sharing check reads
# it twice before the start), group 1 (IPI_RCVD alone) replaces group 0:
# CTL1 (no event of group 1 on counter 1) is cleared, CTL0 gets IPI_RCVD's encoding with en set
# (the generated header's E5_2600V2_EV_UBOX_EVENT_MSG_IPI_RCVD | E5_2600V2_U_MSR_PMON_CTL_EN_MASK,
# from guide 329468), CTR0 is zeroed, then the global unfreeze
hdr=generated/e5_2600v2.h
ipi=$(awk '$2 == "E5_2600V2_EV_UBOX_EVENT_MSG_IPI_RCVD" { print $3 }' "$hdr" | sed -E 's/^UINT64_C\(0x([0-9a-fA-F]+)\)$/\1/')
en=$(awk '$2 == "E5_2600V2_U_MSR_PMON_CTL_EN_SHIFT" { print $3 }' "$hdr")
want_ctl=$(printf '0x%x' $((0x$ipi | (1 << en))))
out=$("$REGCTL" --dry-run monitor e5_2600v2 "${ev[0]}" "${ev[1]}" "${ev[2]}" 2>&1)
got=$(echo "$out" | awk '/^read  ubox.U_MSR_PMON_CTR1 / { seen++ } seen == 3 && /^write/ { print $2, $NF; n++ } n == 4 { exit }')
want="ubox.U_MSR_PMON_CTL1 0x0
ubox.U_MSR_PMON_CTL0 $want_ctl
ubox.U_MSR_PMON_CTR0 0x0
ubox.U_MSR_PMON_GLOBAL_CTL 0x20000000"
if [ -n "$ipi" ] && [ "$got" = "$want" ]; then tap_ok "dry run: the rotation's writes (CTL0 = $want_ctl)"; else
    tap_fail "dry run: the rotation's writes" "want:" "$want" "got:" "$got" "$out"; fi

# 2. counter restrictions (the spec's event tables, from the guide's: LLC_VICTIMS counts on
# C-Box counters 0 and 1 only, CLOCKTICKS on any of 0-3): three LLC_VICTIMS sub-events and
# CLOCKTICKS asked twice on one C-Box; the third LLC_VICTIMS finds counters 0 and 1 taken, so it
# goes into a second group while CLOCKTICKS fits the first: in 5 intervals group 0 runs 1, 3, 5
# (60%), group 1 runs 2 and 4 (40%). Ignoring the restriction would put the third LLC_VICTIMS in
# group 0 and CLOCKTICKS in group 1. The two CLOCKTICKS are one box event: one counter, whose
# count both read.
V='cbox[c0]:LLC_VICTIMS.MISS' V2='cbox[c0]:LLC_VICTIMS.M_STATE' V3='cbox[c0]:LLC_VICTIMS.E_STATE'
C='cbox[c0]:CLOCKTICKS'
"$REGCTL" --backend sim --json monitor e5_2600v2 "$V" "$V2" "$C" "$V3" "$C" --interval 0 --count 5 \
    --sim-rate "$V=50" --sim-rate "$V2=60" --sim-rate "$V3=70" --sim-rate "$C=1000" >"$tmp/cbox.json" 2>&1
check "C-Box, LLC_VICTIMS on counters 0-1 only: scaled totals = rate x 5, running 60%/40%" \
    "$tmp/cbox.json" 5 "50 60.0
60 60.0
1000 60.0
70 40.0
1000 60.0"

# 3. events that fit are never scaled nor rotated: 100%, exact counts, no "percent_running"
out=$("$REGCTL" --backend sim --json monitor e5_2600v2 "$V" "$C" --interval 0 --count 3 --sim-rate "$V=50" \
    --sim-rate "$C=1000" 2>&1)
ok=$(python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["totals"] == [150, 3000] and "percent_running" not in d)' <<<"$out" 2>&1)
if [ "$ok" = True ]; then tap_ok "events that fit: exact, not multiplexed"; else tap_fail "events that fit: exact, not multiplexed" "$out"; fi

# 3b. identical requests share one counter: LLC_VICTIMS.MISS three times fits counters 0-1 even
# without multiplexing, each total the one count (rate x 3), and the start programs one control
# (one write of CTL0 with MISS's encoding, none of CTL1: guide 329468, LLC_VICTIMS on 0-1)
out=$("$REGCTL" --backend sim --json monitor e5_2600v2 "$V" "$V" "$V" --no-multiplex --interval 0 --count 3 \
    --sim-rate "$V=50" 2>&1)
ok=$(python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["totals"] == [150, 150, 150] and "percent_running" not in d)' <<<"$out" 2>&1)
if [ "$ok" = True ]; then tap_ok "identical requests: one counter, its count read by each"; else
    tap_fail "identical requests: one counter, its count read by each" "$out"; fi
hdr=generated/e5_2600v2.h
miss=$(awk '$2 == "E5_2600V2_EV_CBOX_LLC_VICTIMS_MISS" { print $3 }' "$hdr" | sed -E 's/^UINT64_C\(0x([0-9a-fA-F]+)\)$/\1/')
out=$("$REGCTL" --dry-run monitor e5_2600v2 "$V" "$V" 2>&1)
ctls=$(echo "$out" | awk '$1 == "write" && $2 ~ /^cbox\.c0\.Cn_MSR_PMON_CTL[0-3]$/ && $NF != "0x0" { print $2 }' | sort | uniq -c | awk '{ print $2, $1 }')
ctl0=$(echo "$out" | awk '$1 == "write" && $2 == "cbox.c0.Cn_MSR_PMON_CTL0" && $NF != "0x0" { print $NF; exit }')
if [ -n "$miss" ] && [ "$ctls" = "cbox.c0.Cn_MSR_PMON_CTL0 1" ] && [ $((ctl0 & 0xffff)) = $((0x$miss & 0xffff)) ]; then
    tap_ok "identical requests: the dry run programs one control"
else
    tap_fail "identical requests: the dry run programs one control" "controls written: $ctls; CTL0 $ctl0, MISS 0x$miss" "$out"
fi

# 4. --no-multiplex refuses, naming the box, its counters, the events and the one left out
out=$("$REGCTL" --backend sim monitor e5_2600v2 "$V" "$V2" "$C" "$V3" --no-multiplex --interval 0 --count 1 2>&1)
rc=$?
want="regctl: monitor: cbox[c0] has 4 counters Cn_MSR_PMON_CTR (0..3), 4 events want them ($V, $V2, $C, $V3) and '$V3', which may count on 0, 1, finds none free; multiplexing is off (regctl: --no-multiplex)"
if [ $rc = 1 ] && [ "$out" = "$want" ]; then tap_ok "--no-multiplex refuses, naming box, counters and events"; else
    tap_fail "--no-multiplex refuses, naming box, counters and events" "exit $rc" "want: $want" "got:  $out"; fi

# sampling needs every event on its counter all the time: refused with the reason
out=$("$REGCTL" --backend sim monitor e5_2600v2 "$V" "$V2" "$V3" --sample 1000 --interval 0 --count 1 2>&1)
rc=$?
if [ $rc = 1 ] && echo "$out" | grep -q "finds none free; sampling counts every event all the time"; then
    tap_ok "sampling with more events than counters: refused"
else
    tap_fail "sampling with more events than counters: refused" "exit $rc" "$out"
fi

# 5. no limit of 64: 75 events (5 on each of the 15 C-Boxes) and 75 --sim-rate terms, each a
# different rate. Per box LLC_VICTIMS.MISS and .E_STATE take counters 0 and 1, RING_AD_USED.UP
# and .DOWN counters 2 and 3 (the tables: 2, 3 only), CLOCKTICKS a second group: in 4 intervals
# every event runs 2 (50%), and every scaled total is its rate x 4
args=() expect=""
j=0
for c in $(seq 0 14); do
    for e in LLC_VICTIMS.MISS LLC_VICTIMS.E_STATE RING_AD_USED.UP RING_AD_USED.DOWN CLOCKTICKS; do
        rate=$((1000 + 7 * j))
        args+=("cbox[c$c]:$e" --sim-rate "cbox[c$c]:$e=$rate")
        expect+="$rate 50.0"$'\n'
        j=$((j + 1))
    done
done
"$REGCTL" --backend sim --json monitor e5_2600v2 "${args[@]}" --interval 0 --count 4 >"$tmp/many.json" 2>&1
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["totals"]))' "$tmp/many.json" 2>&1)
if [ "$n" = 75 ]; then tap_ok "75 events: 75 totals (none dropped)"; else tap_fail "75 events: 75 totals (none dropped)" "$n"; fi
check "75 events, 75 rates: every scaled total = rate x 4, running 50%" "$tmp/many.json" 4 "$expect"

# 5b. through the kernel: the msr and pci backends on pcifs (the simulator behind FUSE). The
# session's clock is the monotonic one there, so the scaled totals are estimates; the raw counts
# are exact: pcifs delivers one interval before each register write, so each poll counts one
# interval (the one before its freeze write), the rotation's writes falling under the freeze.
# In 4 polls the U-Box's group 0 (DOORBELL_RCVD, INT_PRIO) runs polls 1 and 3, group 1 (IPI_RCVD)
# 2 and 4: raw = rate x 2 each; an iMC channel (4 counters) with 5 events: CAS_COUNT.RD,
# CAS_COUNT.WR, ACT_COUNT.RD, ACT_COUNT.WR in group 0, DRAM_PRE_ALL alone in group 1
. tests/runtime/pcifs.sh
. tests/runtime/perfrig.sh
trap 'pcifs_unmount; rm -rf "$tmp"' EXIT
name="pcifs: multiplexed through the msr and pci backends, raw counts per the schedule"
if pcifs_mount e5_2600v2 "$tmp/mnt" --cpus 1; then
    pcifs_cmd "auto 1"
    M='imc[mc0_ch0]'
    mev=("$M:CAS_COUNT.RD" "$M:CAS_COUNT.WR" "$M:ACT_COUNT.RD" "$M:ACT_COUNT.WR" "$M:DRAM_PRE_ALL")
    mr=(31 37 41 43 47)
    for i in 0 1 2; do pcifs_cmd "rate ${ev[$i]} ${r[$i]}"; done
    for i in "${!mev[@]}"; do pcifs_cmd "rate ${mev[$i]} ${mr[$i]}"; done
    "$REGCTL" --msr-root "$pcifs_mnt/cpu" --sysfs-root "$pcifs_mnt" --json monitor e5_2600v2 "${ev[0]}" "${ev[1]}" \
        "${ev[2]}" "${mev[@]}" --interval 0 --count 4 --lock-dir "$tmp/locks" --settle 0 >"$tmp/fs.json" 2>"$tmp/err"
    rc=$?
    want="[$((2 * r[0])), $((2 * r[1])), $((2 * r[2])), $((2 * mr[0])), $((2 * mr[1])), $((2 * mr[2])), $((2 * mr[3])), $((2 * mr[4]))]"
    got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["raw_totals"], all(0 < p < 100 for p in d["percent_running"]))' "$tmp/fs.json" 2>&1)
    if [ $rc = 0 ] && [ "$got" = "$want True" ]; then tap_ok "$name"; else
        tap_fail "$name" "exit $rc" "want: $want True" "got:  $got" "$(cat "$tmp/err")"; fi
    pcifs_unmount
else
    tap_skip "$name" "$pcifs_why"
fi

# 6. the perf backend: the kernel multiplexes. Events that cannot be on the box's counters together
# go into perf groups of their own (the U-Box: DOORBELL_RCVD and INT_PRIO one group, IPI_RCVD a
# second), which the kernel rotates; each group read gives its time enabled and running, and the
# counts are scaled by them.
perf_tree tests/runtime/data/perf-formats/ivbep.txt "$tmp/ivb"
out=$("$REGCTL" --sysfs-root "$tmp/ivb" --backend perf --dry-run monitor e5_2600v2 "${ev[0]}" "${ev[1]}" "${ev[2]}" 2>&1)
got=$(echo "$out" | awk '$1 == "perf_event_open" { print $2, $10, ($11 == "leader" ? "leader" : "member") }')
want="${ev[0]} group=0 leader
${ev[1]} group=0 member
${ev[2]} group=1 leader"
if [ "$got" = "$want" ]; then tap_ok "perf dry run: a perf group per multiplexing group"; else
    tap_fail "perf dry run: a perf group per multiplexing group" "want:" "$want" "got:" "$out"; fi
# the real kernel (root or perf_event_paranoid <= 0): raw ev_sel=0 events on the fake U-Box PMU
# are cpu-clocks; three of them (any counter, pinned to 0, pinned to 1: three box events) on 2
# counters go into two perf groups, and a fourth asked like the first shares its counter. The
# software PMU is never full, so the kernel runs both groups all the time: each of the four counts
# at least the 2 x 180 ms and at most the run's time, and the times read back say 100% running
C='ubox:raw,reg=U_MSR_PMON_CTL,ev_sel=0'
name="perf: 3 events on 2 counters and one asked twice, the kernel's times read"
if ! perf_probe "$tmp/ivb" e5_2600v2 "$C"; then
    tap_skip "$name" "$perf_why"
else
    t0=$(date +%s%N)
    "$REGCTL" --force-cpu --sysfs-root "$tmp/ivb" --backend perf --json monitor e5_2600v2 "$C" "$C,ctr=0" "$C,ctr=1" "$C" \
        --interval 200ms --count 2 >"$tmp/perf.json" 2>&1
    rc=$? took=$(($(date +%s%N) - t0))
    ok=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
took = int(sys.argv[2])
t = d["totals"]
print(len(t) == 4 and all(2 * 180000000 <= x <= took for x in t) and t[0] == t[3]
      and d["percent_running"] == [100.0] * 4)
' "$tmp/perf.json" "$took" 2>&1)
    if [ $rc = 0 ] && [ "$ok" = True ]; then tap_ok "$name"; else
        tap_fail "$name" "exit $rc: $ok" "$(head -c 1500 "$tmp/perf.json")"; fi
fi
tap_done
