#!/usr/bin/env bash
# run-aggregate.sh - `regctl monitor`: an event without a box counts on every box of its type and
# the boxes are summed, per socket and in total; --per-box (--no-merge) shows each. On the
# simulator, through the emulated PCI devices (pcifs: the pci backend through the kernel), and
# through perf_event (each PMU uncore_imc_0..7 opened; on a fake sysfs tree whose PMUs are this
# machine's software PMU, counting cpu-clock). The rates are given per box (imc[mc0_ch1]:...);
# the expected sums are computed here from them, never read back from regctl.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/regctl.sh
tap_setup tmp
. tests/runtime/pcifs.sh
. tests/runtime/perfrig.sh
trap 'pcifs_unmount; rm -rf "$tmp"' EXIT

regctl_needs e5_2600v2 "regctl monitor, every box"

# The E5-2600 v2 iMC channels (uncore guide 329468 Table 1-1 / the spec's instances), in order;
# the kernel numbers their PMUs uncore_imc_0..7 in the same order (uncore_snbep.c ivbep_uncore_imc
# PCI ids, one PMU per channel)
boxes=(mc0_ch0 mc0_ch1 mc0_ch2 mc0_ch3 mc1_ch0 mc1_ch1 mc1_ch2 mc1_ch3)
# a distinct rate per channel (primes: a channel counted twice or left out changes the sum)
rates=(101 103 107 109 113 127 131 137)
rate_args=() sum=0
for k in "${!boxes[@]}"; do
    rate_args+=(--sim-rate "imc[${boxes[$k]}]:CAS_COUNT.RD=${rates[$k]}")
    sum=$((sum + rates[k]))
done

# the three spellings of "every channel's CAS_COUNT.RD": regc's block name, perfmon's alias, and
# perf's PMU without its number with the manual's encoding (329468 Table 2-101: event 0x04,
# umask 0x03 = RD_REG | RD_UNDERFILL)
names=("imc:CAS_COUNT.RD" "UNC_M_CAS_COUNT.RD" "uncore_imc/event=0x4,umask=0x3/")
out=$("$REGCTL" --backend sim monitor e5_2600v2 "${names[@]}" --interval 0 --count 3 "${rate_args[@]}" 2>&1)
rc=$?
want=$(for t in 1 2 3; do echo "$t $sum $sum $sum"; done)
got=$(echo "$out" | awk 'NR > 1 { print $1, $2, $3, $4 }')
if [ $rc = 0 ] && [ "$got" = "$want" ]; then
    tap_ok "sim: every channel summed, three spellings ($sum per interval)"
else
    tap_fail "sim: every channel summed, three spellings ($sum per interval)" "exit $rc" "want:" "$want" "got:" "$out"
fi

# a box named: that box only (as before)
out=$("$REGCTL" --backend sim monitor e5_2600v2 "imc[mc1_ch2]:CAS_COUNT.RD" --interval 0 --count 1 "${rate_args[@]}" 2>&1)
got=$(echo "$out" | awk 'NR == 2 { print $2 }')
if [ "$got" = "${rates[6]}" ]; then tap_ok "sim: a named box counts alone"; else
    tap_fail "sim: a named box counts alone" "want ${rates[6]}" "$out"; fi

# --per-box and --no-merge: a column per channel, each its own rate, named by its box
for opt in --per-box --no-merge; do
    out=$("$REGCTL" --backend sim --json monitor e5_2600v2 "UNC_M_CAS_COUNT.RD" --interval 0 --count 2 \
        "${rate_args[@]}" "$opt" 2>&1)
    want_names=$(for b in "${boxes[@]}"; do echo "imc[$b]:CAS_COUNT.RD"; done)
    ok=$(python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
names, rates = sys.argv[1].split("\n"), [int(x) for x in sys.argv[2].split()]
print(d["events"] == names and all(r["values"] == rates for r in d["intervals"])
      and d["totals"] == [2 * x for x in rates])
' "$want_names" "${rates[*]}" <<<"$out" 2>&1)
    if [ "$ok" = True ]; then tap_ok "sim $opt: each channel its own rate"; else
        tap_fail "sim $opt: each channel its own rate" "$ok" "$out"; fi
done

# two sockets: socket 0 the rates above, socket 1 twice them (@1); per socket and total
sock_args=()
for k in "${!boxes[@]}"; do
    sock_args+=(--sim-rate "imc[${boxes[$k]}]:CAS_COUNT.RD=${rates[$k]}@0"
        --sim-rate "imc[${boxes[$k]}]:CAS_COUNT.RD=$((2 * rates[k]))@1")
done
out=$("$REGCTL" --backend sim monitor e5_2600v2 imc:CAS_COUNT.RD --socket all --sim-sockets 2 --csv \
    --interval 0 --count 2 "${sock_args[@]}" 2>&1)
want=$(for t in 1 2; do printf '%s\n' "$t,0,imc:CAS_COUNT.RD,$sum" "$t,1,imc:CAS_COUNT.RD,$((2 * sum))" \
    "$t,total,imc:CAS_COUNT.RD,$((3 * sum))"; done)
if [ "$(echo "$out" | tail -n +2)" = "$want" ]; then tap_ok "sim, two sockets: per socket and total"; else
    tap_fail "sim, two sockets: per socket and total" "want:" "$want" "got:" "$out"; fi

# sampling every 100 events: the overflows of the channels add up. Channel rates 99, 60 and 50
# per interval reach 100 in interval 2 (198, 120, 100), none in interval 1: 0 then 3
out=$("$REGCTL" --backend sim monitor e5_2600v2 imc:CAS_COUNT.RD --sample 100 --interval 0 --count 2 \
    --sim-rate "imc[mc0_ch0]:CAS_COUNT.RD=99" --sim-rate "imc[mc1_ch1]:CAS_COUNT.RD=60" \
    --sim-rate "imc[mc1_ch2]:CAS_COUNT.RD=50" 2>&1)
got=$(echo "$out" | awk 'NR > 1 { print $1, $2 }')
if [ "$got" = "1 0
2 3" ]; then tap_ok "sim, sampling: the channels' overflows summed"; else
    tap_fail "sim, sampling: the channels' overflows summed" "$out"; fi

# the dry run programs all eight channels: each channel's MC_CHy_PCI_PMON_CTL0 gets the
# header's encoding of CAS_COUNT.RD (event 0x04, umask 0x03, en bit 22)
out=$("$REGCTL" --dry-run monitor e5_2600v2 imc:CAS_COUNT.RD 2>&1)
n=$(echo "$out" | grep -cE '^write imc\.mc[01]_ch[0-3]\.MC_CHy_PCI_PMON_CTL0 .* 0x400304$')
if [ "$n" = 8 ]; then tap_ok "dry run: CTL0 of all 8 channels = 0x400304"; else
    tap_fail "dry run: CTL0 of all 8 channels = 0x400304" "$n writes" "$out"; fi

# ---- pcifs: the pci backend through the kernel, two sockets, each its own channel rates
name="pcifs, two sockets: every channel (PCI) and every C-Box (MSR) summed per socket, and the total"
# C-Box i of socket s counts 10 * (s + 1) + i LLC_VICTIMS.MISS per interval: per socket the sum of
# the 15 C-Boxes (E5-2600 v2: c0..c14), 10 * 15 * (s + 1) + 105
V=cbox:LLC_VICTIMS.MISS
vsum() { echo $((10 * 15 * ($1 + 1) + 105)); }
if pcifs_mount e5_2600v2 "$tmp/mnt" --sockets 2 --cpus 2; then
    pcifs_sysroot "$tmp/sys" 2
    for s in 0 1; do pcifs_cmd "socket $s auto 1"; done # an interval before each write: one per poll
    for k in "${!boxes[@]}"; do
        pcifs_cmd "socket 0 rate imc[${boxes[$k]}]:CAS_COUNT.RD ${rates[$k]}"
        pcifs_cmd "socket 1 rate imc[${boxes[$k]}]:CAS_COUNT.RD $((3 * rates[k]))"
    done
    for s in 0 1; do
        for c in $(seq 0 14); do pcifs_cmd "socket $s rate cbox[c$c]:LLC_VICTIMS.MISS $((10 * (s + 1) + c))"; done
    done
    "$REGCTL" --msr-root "$pcifs_mnt/cpu" --sysfs-root "$tmp/sys" monitor e5_2600v2 UNC_M_CAS_COUNT.RD "$V" \
        --socket all --csv --interval 0 --count 2 --lock-dir "$tmp/locks" --settle 0 >"$tmp/out.csv" 2>"$tmp/err"
    rc=$?
    want=$(for t in 1 2; do printf '%s\n' "$t,0,UNC_M_CAS_COUNT.RD,$sum" "$t,0,$V,$(vsum 0)" \
        "$t,1,UNC_M_CAS_COUNT.RD,$((3 * sum))" "$t,1,$V,$(vsum 1)" \
        "$t,total,UNC_M_CAS_COUNT.RD,$((4 * sum))" "$t,total,$V,$(($(vsum 0) + $(vsum 1)))"; done)
    if [ $rc = 0 ] && [ "$(tail -n +2 "$tmp/out.csv")" = "$want" ]; then tap_ok "$name"; else
        tap_fail "$name" "exit $rc" "$(cat "$tmp/err")" "want:" "$want" "got:" "$(cat "$tmp/out.csv")"; fi
    pcifs_unmount
else
    tap_skip "$name" "$pcifs_why"
fi

# ---- perf: uncore_imc_0..7 opened, one group each, the same config (0x304)
perf_tree tests/runtime/data/perf-formats/ivbep.txt "$tmp/ivb"
out=$("$REGCTL" --sysfs-root "$tmp/ivb" --backend perf --dry-run monitor e5_2600v2 'uncore_imc/event=0x4,umask=0x3/' 2>&1)
got=$(echo "$out" | awk '$1 == "perf_event_open" { print substr($3, 1, index($3, "/") - 1), $5, $10 }')
want=$(for i in 0 1 2 3 4 5 6 7; do echo "uncore_imc_$i config=0x304 group=$i"; done)
if [ "$got" = "$want" ]; then tap_ok "perf dry run: uncore_imc_0..7 each opened, config 0x304"; else
    tap_fail "perf dry run: uncore_imc_0..7 each opened, config 0x304" "want:" "$want" "got:" "$out"; fi

# the real kernel (root or perf_event_paranoid <= 0): raw ev_sel=0 on the fake tree is cpu-clock,
# so the sum of the 8 channels is 8 clocks: over the two intervals at least 8 x 2 x the 200 ms
# (the polls fall on the run's start + k x 200 ms, never earlier; a late one on a loaded machine
# shortens the interval after it, so no single interval has a lower bound), each interval at most
# 8 x the whole run's time; with --per-box (one interval) each channel counts its own clock
C='imc:raw,reg=MC_CHy_PCI_PMON_CTL,ev_sel=0'
if ! perf_probe "$tmp/ivb" e5_2600v2 "$C"; then
    tap_skip "perf: 8 channels summed" "$perf_why"
    tap_skip "perf --per-box: 8 channels" "$perf_why"
else
    t0=$(date +%s%N)
    "$REGCTL" --force-cpu --sysfs-root "$tmp/ivb" --backend perf monitor e5_2600v2 "$C" --interval 200ms \
        --count 2 >"$tmp/count" 2>&1
    rc=$? took=$(($(date +%s%N) - t0))
    bad=$(awk -v took="$took" 'NR > 1 { n++; sum += $2; if ($2 <= 0 || $2 > 8 * took) print }
        END { if (n != 2 || sum < 8 * n * 180000000) print "sum " sum " over " n " intervals" }' "$tmp/count")
    if [ $rc = 0 ] && [ "$(wc -l <"$tmp/count")" = 3 ] && [ -z "$bad" ]; then tap_ok "perf: 8 channels summed"; else
        tap_fail "perf: 8 channels summed" "exit $rc" "$(cat "$tmp/count")"; fi
    t0=$(date +%s%N)
    "$REGCTL" --force-cpu --sysfs-root "$tmp/ivb" --backend perf monitor e5_2600v2 "$C" --interval 200ms \
        --count 1 --per-box >"$tmp/box" 2>&1
    rc=$? took=$(($(date +%s%N) - t0))
    bad=$(awk -v took="$took" 'NR > 1 { for (i = 2; i <= NF; i++) if ($i < 180000000 || $i > took) print }' "$tmp/box")
    if [ $rc = 0 ] && [ "$(awk 'NR == 2 { print NF }' "$tmp/box")" = 9 ] && [ -z "$bad" ]; then
        tap_ok "perf --per-box: 8 channels"
    else
        tap_fail "perf --per-box: 8 channels" "exit $rc" "$(cat "$tmp/box")"
    fi
fi
tap_done
