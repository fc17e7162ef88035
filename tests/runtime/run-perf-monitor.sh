#!/usr/bin/env bash
# run-perf-monitor.sh - `regctl --backend perf monitor`: the perf events it opens (--dry-run, golden
# files tests/runtime/golden/perf-*.out), refused encodings and a missing PMU, and, against the
# real kernel, counting and sampling on a fake sysfs tree of the E5-2600 v2 uncore PMUs
# (tests/runtime/data/perf-formats/ivbep.txt: the kernel's formats) whose 'type' is this
# machine's software PMU: raw ev_sel=0 is cpu-clock (nanoseconds), ev_sel=9 the dummy event.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/golden.sh
. tests/runtime/perfrig.sh
. tests/runtime/regctl.sh
tap_setup tmp

regctl_needs e5_2600v2 "regctl --backend perf monitor"

perf_tree tests/runtime/data/perf-formats/ivbep.txt "$tmp/ivb"
perf_tree tests/runtime/data/perf-formats/snbep.txt "$tmp/snb"
perf_tree tests/runtime/data/perf-formats/snb.txt "$tmp/snbc"
mkdir -p "$tmp/empty/bus/event_source/devices/software"

# the plan: one perf event per added event, grouped per PMU; the configs are the header's
# encodings (qpi RxL_FLITS_G1.DRS_DATA is the kernel's own drs_data alias, event=0x102,umask=0x08);
# LLC_LOOKUP's state filter 0x3f goes to config1:17-22 (filter_state, ivbep), TOR_INSERTS.OPCODE's
# opcode 0x182 to config1:23-31 (filter_opc, snbep): 0x7e0000 and 0xc1000000
golden perf-dry-run 0 --sysfs-root "$tmp/ivb" --backend perf --dry-run monitor e5_2600v2 \
    ubox:EVENT_MSG.DOORBELL_RCVD ubox:fixed "cbox[c3]:LLC_LOOKUP.ANY,Cn_MSR_PMON_BOX_FILTER0.state=0x3f" "cbox[c3]:CLOCKTICKS" \
    "qpi[p1]:RxL_FLITS_G1.DRS_DATA" "imc[mc1_ch2]:CAS_COUNT.RD" "imc[mc1_ch2]:fixed" \
    "ha[ha1]:REQUESTS.READS" "r3qpi[l1]:CLOCKTICKS" irp:CLOCKTICKS pcu:CLOCKTICKS
golden perf-dry-run-sample 0 --sysfs-root "$tmp/snb" --backend perf --dry-run monitor e5_2600 \
    "qpi[qpi1]:RxL_FLITS_G2.NCB_DATA" "cbox[cbox7]:TOR_INSERTS.OPCODE,thresh=1,Cn_MSR_PMON_BOX_FILTER.opc=0x182" \
    "ha:REQUESTS.READS" "r2pcie:CLOCKTICKS" --sample 1000000
# E5 PCU events need ev_sel_ext (bit 21), which the kernel's PCU formats and event_mask leave out
golden perf-ext-refused 1 --sysfs-root "$tmp/snb" --backend perf --dry-run monitor e5_2600 \
    pcu:CORE0_TRANSITION_CYCLES

# the Sandy Bridge client's fixed counter: the kernel serves it on uncore_cbox_0 only, as
# UNCORE_FIXED_EVENT (config 0xff), with the alias clockticks = event=0xff,umask=0x00
# (data/perf-formats/snb.txt): each name of it opens that event there
for e in UNC_CLOCK.SOCKET unc_clock.socket 'uncore_cbox_0/event=0xff/' 'uncore_cbox_0/clockticks/' \
    unc:CLOCK.SOCKET; do
    out=$("$REGCTL" --sysfs-root "$tmp/snbc" --backend perf --dry-run monitor snb_client "$e" 2>&1)
    rc=$?
    got=$(echo "$out" | awk '$1 == "perf_event_open" { print substr($3, 1, index($3, "/") - 1), $5, $6, $7 }')
    if [ $rc = 0 ] && [ "$got" = "uncore_cbox_0 config=0xff config1=0x0 config2=0x0" ]; then
        tap_ok "perf-snb-fixed $e: uncore_cbox_0, config 0xff"
    else
        tap_fail "perf-snb-fixed $e: uncore_cbox_0, config 0xff" "exit $rc" "$out"
    fi
done
# uncore_cbox_1 and its alias: the kernel refuses them (single_fixed), so regctl does
for e in 'uncore_cbox_1/event=0xff/' 'uncore_cbox_3/clockticks/'; do
    out=$("$REGCTL" --sysfs-root "$tmp/snbc" --backend perf --dry-run monitor snb_client "$e" 2>&1)
    rc=$?
    if [ $rc = 2 ] && echo "$out" | grep -q 'on uncore_cbox_0 only'; then tap_ok "perf-snb-fixed-refused $e"; else
        tap_fail "perf-snb-fixed-refused $e" "exit $rc" "$out"; fi
done

# no uncore PMU: what is missing and where to look
out=$("$REGCTL" --force-cpu --sysfs-root "$tmp/empty" --backend perf monitor e5_2600v2 ubox:EVENT_MSG.DOORBELL_RCVD \
    --count 1 --interval 0 2>&1)
rc=$?
want="regctl: monitor: 'ubox:EVENT_MSG.DOORBELL_RCVD': no PMU 'uncore_ubox' in sysfs ('$tmp/empty/bus/event_source/devices/uncore_ubox/type': No such file or directory); the kernel lists its PMUs in $tmp/empty/bus/event_source/devices (here: software; no uncore_* PMU: the kernel's intel_uncore driver registers them on the processors it supports)"
if [ $rc = 1 ] && [ "$out" = "$want" ]; then tap_ok "perf-no-pmu"; else
    tap_fail "perf-no-pmu" "exit $rc" "$out"; fi

# the real kernel: CPU-wide events need root (or kernel.perf_event_paranoid <= 0). The fake
# tree's PMUs are this machine's software PMU, so the runs need no E5-2600 v2: --force-cpu
# (without it regctl's CPU-model check refuses first, and that is no perf_event_open refusal)
C='ubox:raw,reg=U_MSR_PMON_CTL,ev_sel=0'
Z='ubox:raw,reg=U_MSR_PMON_CTL,ev_sel=9'
if ! perf_probe "$tmp/ivb" e5_2600v2 "$C"; then
    tap_skip "perf-count" "$perf_why"
    tap_skip "perf-sample" "$perf_why"
    tap_skip "perf-json" "$perf_why"
    tap_done
    exit 0
fi

# counting: cpu-clock counts at least the 3 x 200 ms of the three intervals together (the polls
# fall on the run's start + k x 200 ms, never earlier; a late one on a loaded machine shortens the
# interval after it, so no single interval has a lower bound), each interval something and at
# most the time the whole run took; dummy counts nothing
t0=$(date +%s%N)
"$REGCTL" --force-cpu --sysfs-root "$tmp/ivb" --backend perf monitor e5_2600v2 "$C" "$Z" "cbox[c1]:raw,reg=Cn_MSR_PMON_CTL,ev_sel=0" \
    --interval 200ms --count 3 >"$tmp/count" 2>&1
rc=$? took=$(($(date +%s%N) - t0))
bad=$(awk -v took="$took" 'NR > 1 { n++; a += $2; b += $4; if ($2 <= 0 || $2 > took || $3 != 0 || $4 <= 0 || $4 > took) print }
    END { if (n != 3 || a < n * 180000000 || b < n * 180000000) print "sums " a ", " b " over " n " intervals" }' "$tmp/count")
if [ $rc = 0 ] && [ "$(wc -l <"$tmp/count")" = 4 ] && [ -z "$bad" ]; then tap_ok "perf-count"; else
    tap_fail "perf-count" "exit $rc" "$(cat "$tmp/count")"; fi

# sampling every 2 ms of cpu-clock: some overflows in the two 200 ms intervals together (a late
# first poll can leave the second interval next to nothing: the polls fall on the run's start +
# k x 200 ms), and at most one per 2 ms of the whole run (and two more) in each. How many of the
# periods get a record depends on how late the kernel's timer fires on a loaded machine, so no
# lower bound by the clock here: test_session_sampling (test_perf.c) compares the records with
# the count read beside them
t0=$(date +%s%N)
"$REGCTL" --force-cpu --sysfs-root "$tmp/ivb" --backend perf monitor e5_2600v2 "$C" --sample 2000000 \
    --interval 200ms --count 2 >"$tmp/sample" 2>&1
rc=$? took=$(($(date +%s%N) - t0))
bad=$(awk -v took="$took" 'NR > 1 { n++; sum += $2; if ($2 < 0 || $2 > took / 2000000 + 2) print }
    END { if (n != 2 || sum < 1) print "sum " sum " over " n " intervals" }' "$tmp/sample")
if [ $rc = 0 ] && [ "$(wc -l <"$tmp/sample")" = 3 ] && [ -z "$bad" ]; then tap_ok "perf-sample"; else
    tap_fail "perf-sample" "exit $rc" "$(cat "$tmp/sample")"; fi

# --json: totals are the sums of the intervals
"$REGCTL" --force-cpu --sysfs-root "$tmp/ivb" --backend perf --json monitor e5_2600v2 "$C" "$Z" --interval 50ms \
    --count 2 >"$tmp/json" 2>&1
rc=$?
ok=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = [r["values"] for r in d["intervals"]]
print(d["mode"] == "poll" and d["totals"][0] == v[0][0] + v[1][0] > 90000000 and d["totals"][1] == 0)
' "$tmp/json" 2>&1)
if [ $rc = 0 ] && [ "$ok" = True ]; then tap_ok "perf-json"; else
    tap_fail "perf-json" "exit $rc: $ok" "$(head -5 "$tmp/json")"; fi
tap_done
