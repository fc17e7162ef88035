#!/usr/bin/env bash
# tests/perf/run-bench-big.sh - bench/big.sh (`make bench-big`) on a tiny
# scale (BLOCKS=8: 2,048 to 16,384 fields) so that it runs in seconds: the
# table has a line per size and mode with growth from the second size on,
# the verdicts are printed; and each way it must refuse or report instead of
# crashing: a bad FRACS or BLOCKS, too little disk, too little memory, a run
# stopped at LIMIT_MB, a spec regc refuses (a stand-in regc that fails).
# The verdicts themselves are judged on set numbers (a stand-in MEASURE):
# growth with the square of the size or 2.30 per doubling is a MISS, linear
# growth a PASS. Nothing here depends on how fast the machine is or how busy.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
export TMPDIR=$tmp/scratch # where big.sh makes its scratch directory
mkdir "$TMPDIR"

# expect NAME STATUS PATTERN (grep -E on stdout+stderr) ENV... : run big.sh with ENV
expect() {
    local name=$1 want=$2 pattern=$3; shift 3
    env REGC="$regc" "$@" bash bench/big.sh >"$tmp/out" 2>&1
    local st=$?
    if [ "$st" != "$want" ]; then tap_fail "$name" "status $st, expected $want" "$(head -n 5 "$tmp/out")"
    elif ! grep -qE "$pattern" "$tmp/out"; then tap_fail "$name" "no line matches: $pattern" "$(head -n 12 "$tmp/out")"
    else tap_ok "$name"; fi
}

expect "four sizes, both modes: a line each" 0 '^1/1 +16384 .*\| -t c .*\| yes$' BLOCKS=8
n=$(grep -cE '^1/[1248] ' "$tmp/out")
[ "$n" = 8 ] && tap_ok "8 result lines (4 sizes x 2 modes)" || tap_fail "8 result lines (4 sizes x 2 modes)" "$n: $(cat "$tmp/out")"
grep -qE '^1/4 .*\| --check .*\| +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{2} \|' "$tmp/out" &&
    tap_ok "growth per doubling printed from the second size on" ||
    tap_fail "growth per doubling printed from the second size on" "$(cat "$tmp/out")"
grep -qE '^regc -t c: wall time linear: (PASS|MISS) \(growth per doubling: [0-9.]+ [0-9.]+ [0-9.]+; fitted [0-9]+\.[0-9]{2}\)' "$tmp/out" &&
    grep -qE '^regc -t c: peak memory under 1 GiB at full size: PASS' "$tmp/out" &&
    tap_ok "verdicts: linearity over three doublings, memory at full size" ||
    tap_fail "verdicts: linearity over three doublings, memory at full size" "$(tail -n 6 "$tmp/out")"
expect "FRACS=8: one size, linearity not measured" 0 'time linear: not measured' BLOCKS=8 FRACS=8
expect "a bad FRACS is refused" 1 "^bench-big: FRACS takes 1, 2, 4 and 8 \(got '3'\)$" BLOCKS=8 FRACS=3
expect "a bad REPS is refused" 1 "^bench-big: REPS must be a positive number of runs \(got '0'\)$" BLOCKS=8 REPS=0
expect "a bad LIMIT_MB is refused" 1 "^bench-big: LIMIT_MB must be a positive number of MiB \(got '2G'\)$" BLOCKS=8 LIMIT_MB=2G
expect "a bad BLOCKS is refused" 1 "^bench-big: BLOCKS must be a positive multiple of 8 \(got '12'\)$" BLOCKS=12
expect "too little disk: refused before generating" 1 \
    '^bench-big: the 1/1 spec needs [0-9]+ MiB free in .*; it has [0-9]+ MiB\.$' BLOCKS=80000000
expect "too little memory: refused" 1 \
    '^bench-big: needs 100000512 MiB of available memory \(runs are stopped at LIMIT_MB=100000000 MiB, plus 512\)' \
    BLOCKS=8 LIMIT_MB=100000000
# 1 MiB: regc is stopped as soon as it is seen running (its resident memory is more than that)
expect "a run past LIMIT_MB is stopped and reported" 0 \
    '^1/8 +2048 .*\| --check stopped: resident memory passed LIMIT_MB=1 MiB' BLOCKS=8 FRACS=8 LIMIT_MB=1
printf '#!/bin/sh\necho "%s: error: file is larger than 256 MiB" >&2\nexit 1\n' spec >"$tmp/refuse"
chmod +x "$tmp/refuse"
env REGC="$tmp/refuse" BLOCKS=8 FRACS="2 1" bash bench/big.sh >"$tmp/out" 2>&1; st=$?
if [ "$st" = 0 ] && [ "$(grep -c 'refused or failed (status 1): spec: error: file is larger than 256 MiB$' "$tmp/out")" = 4 ] &&
    grep -q 'peak memory under 1 GiB at full size: not measured (refused)' "$tmp/out"; then
    tap_ok "a spec regc refuses: its message for each run, the other sizes still run"
else tap_fail "a spec regc refuses: its message for each run, the other sizes still run" "status $st" "$(cat "$tmp/out")"; fi
# the verdicts on set numbers: a stand-in MEASURE (bench/big.sh runs it in measure.py's place)
# reports, without running regc, a wall and a CPU time growing with the spec's size to the power
# POWER (0.15 s at the 1/8 size, 593,737 bytes) and a peak memory growing linearly, so the
# verdicts follow the fitted line and never the machine's load
cat >"$tmp/measure" <<'PY'
import os, sys
t = 0.15 * (os.path.getsize(sys.argv[-1]) / 593737) ** float(os.environ["POWER"])
print(f"{t:.4f} {int(10000 * os.path.getsize(sys.argv[-1]) / 593737)} 0 {t:.4f}")
PY
env POWER=2 MEASURE="python3 $tmp/measure" BLOCKS=8 FRACS="8 4" REPS=1 bash bench/big.sh >"$tmp/out" 2>&1
grep -qE '^regc --check: wall time linear: MISS \(growth per doubling: 4\.00; fitted 4\.00\); CPU time linear: MISS' "$tmp/out" &&
    tap_ok "time growing with the square of the size: MISS" ||
    tap_fail "time growing with the square of the size: MISS" "$(tail -n 6 "$tmp/out")"
env POWER=1 MEASURE="python3 $tmp/measure" BLOCKS=8 FRACS="8 4 2" REPS=1 bash bench/big.sh >"$tmp/out" 2>&1
grep -qE '^regc --check: wall time linear: PASS \(growth per doubling: 2\.00 2\.00; fitted 2\.00\); CPU time linear: PASS' "$tmp/out" &&
    tap_ok "time growing with the size: PASS" || tap_fail "time growing with the size: PASS" "$(tail -n 6 "$tmp/out")"
env POWER=1.2 MEASURE="python3 $tmp/measure" BLOCKS=8 FRACS="8 4 2" REPS=1 bash bench/big.sh >"$tmp/out" 2>&1
grep -qE '^regc -t c: wall time linear: MISS \(growth per doubling: 2\.30 2\.30; fitted 2\.30\)' "$tmp/out" &&
    tap_ok "growth of 2.30 per doubling, over the 2.20 allowed: MISS" ||
    tap_fail "growth of 2.30 per doubling, over the 2.20 allowed: MISS" "$(tail -n 6 "$tmp/out")"
[ -z "$(ls -A "$TMPDIR")" ] && tap_ok "no scratch directory left" ||
    tap_fail "no scratch directory left" "$(ls -A "$TMPDIR")"
tap_done
