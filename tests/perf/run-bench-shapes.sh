#!/usr/bin/env bash
# tests/perf/run-bench-shapes.sh - bench/shapes.sh (the register-heavy shapes
# of `make bench` and `make bench-big`) on tiny shapes, so that it runs in
# seconds: a line per shape with regc's and xmllint's numbers and their
# ratios, exit 0. The ratios and verdicts are judged on set numbers (a
# stand-in MEASURE), never on the machine's speed: memory at most 0.5x
# xmllint's is a PASS, over it a MISS, a peak of 1 GiB or more is not
# "under 1 GiB", a run stopped at LIMIT_MB is reported as such. Bad SHAPES,
# REPS or LIMIT_MB are refused.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
export TMPDIR=$tmp/scratch # where shapes.sh makes its scratch directory
mkdir "$TMPDIR"
if ! command -v xmllint >/dev/null || ! command -v python3 >/dev/null; then
    tap_skip "bench/shapes.sh" "needs xmllint and python3"
    tap_done
    exit 0
fi

# expect NAME STATUS PATTERN (grep -E on stdout+stderr) ENV... : run shapes.sh with ENV
expect() {
    local name=$1 want=$2 pattern=$3; shift 3
    env REGC="$regc" "$@" bash bench/shapes.sh >"$tmp/out" 2>&1
    local st=$?
    if [ "$st" != "$want" ]; then tap_fail "$name" "status $st, expected $want" "$(head -n 5 "$tmp/out")"
    elif ! grep -qE "$pattern" "$tmp/out"; then tap_fail "$name" "no line matches: $pattern" "$(head -n 12 "$tmp/out")"
    else tap_ok "$name"; fi
}

num='[0-9]+\.[0-9]{2}'
expect "real runs on three tiny shapes: a line each, with every number" 0 \
    "^1x64x4 +64 +[0-9.]+ \| +$num +$num +[0-9]+ \| +$num +$num +[0-9]+ \| +$num +$num +$num \| (PASS|MISS) +yes$" \
    SHAPES="2x16x16 4x32x2 1x64x4"
n=$(grep -cE '^[0-9]+x[0-9]+x[0-9]+ ' "$tmp/out")
[ "$n" = 3 ] && tap_ok "3 result lines" || tap_fail "3 result lines" "$n: $(cat "$tmp/out")"
[ -z "$(ls -A "$TMPDIR")" ] && tap_ok "no scratch directory left" || tap_fail "no scratch directory left" "$(ls -A "$TMPDIR")"

# set numbers: xmllint 1 s wall, 0.5 s CPU, 100,000 KiB; regc as REGC_NUMBERS says
cat >"$tmp/measure" <<'SH'
#!/bin/sh
case " $* " in
*" xmllint "*) echo "1.0000 100000 0 0.5000" ;;
*) echo "$REGC_NUMBERS" ;;
esac
SH
chmod +x "$tmp/measure"
expect "regc at 2.5x the time, 2x the CPU, 0.4x the memory: ratios, PASS, under 1 GiB" 0 \
    '^1x8x1 +8 +[0-9.]+ \| +2\.50 +1\.00 +39 \| +1\.00 +0\.50 +97 \| +2\.50 +2\.00 +0\.40 \| PASS +yes$' \
    SHAPES=1x8x1 MEASURE="$tmp/measure" REGC_NUMBERS="2.5000 40000 0 1.0000"
expect "memory at 0.51x: MISS" 0 ' 0\.51 \| MISS +yes$' \
    SHAPES=1x8x1 MEASURE="$tmp/measure" REGC_NUMBERS="2.5000 51000 0 1.0000"
expect "a peak of 1 GiB: MISS, not under 1 GiB" 0 ' 10\.49 \| MISS +NO$' \
    SHAPES=1x8x1 MEASURE="$tmp/measure" REGC_NUMBERS="2.5000 1048576 0 1.0000"
expect "regc stopped at LIMIT_MB: reported as such, memory over the limit, a MISS" 0 \
    '^1x8x1 +8 +[0-9.]+ \| +stopped +- +>1 \| +1\.00 +0\.50 +97 \| +- +- +>0\.01 \| MISS +NO$' \
    SHAPES=1x8x1 LIMIT_MB=1 MEASURE="$tmp/measure" REGC_NUMBERS="3.0000 2000000 over 1.0000"
# xmllint stopped, regc not: regc's own numbers, its ratio under what the limit gives
cat >"$tmp/measure-x" <<'SH'
#!/bin/sh
case " $* " in
*" xmllint "*) echo "9.0000 5000000 over 4.0000" ;;
*) echo "$REGC_NUMBERS" ;;
esac
SH
chmod +x "$tmp/measure-x"
expect "xmllint stopped at LIMIT_MB: regc's peak still given, under 1 GiB, its ratio bounded" 0 \
    '^1x8x1 +8 +[0-9.]+ \| +2\.50 +1\.00 +781 \| +stopped +- +>4096 \| +- +- +<0\.19 \| PASS +yes$' \
    SHAPES=1x8x1 LIMIT_MB=4096 MEASURE="$tmp/measure-x" REGC_NUMBERS="2.5000 800000 0 1.0000"
expect "regc failing: its status and first line" 0 '^1x8x1 .*\| regc failed \(status 1\)' \
    SHAPES=1x8x1 MEASURE="$tmp/measure" REGC_NUMBERS="0.1000 1000 1 0.1000"
expect "a shape that is not BLOCKSxREGSxFIELDS is refused" 1 \
    "^bench-shapes: a shape is BLOCKSxREGSxFIELDS, FIELDS one of 1 2 4 8 16 32 64 \(got '2x3x5'\)$" SHAPES=2x3x5
expect "more than 2,000,000 registers is refused" 1 "^bench-shapes: at most 2,000,000 registers a shape \(got '3000x1000x1'\)$" \
    SHAPES=3000x1000x1
expect "a bad REPS is refused" 1 "^bench-shapes: REPS must be a positive number of runs \(got '0'\)$" SHAPES=1x8x1 REPS=0
expect "a bad LIMIT_MB is refused" 1 "^bench-shapes: LIMIT_MB must be a positive number of MiB \(got '2G'\)$" SHAPES=1x8x1 LIMIT_MB=2G
expect "too little memory: refused" 1 \
    '^bench-shapes: needs 100000512 MiB of available memory \(runs are stopped at LIMIT_MB=100000000 MiB, plus 512\)' \
    SHAPES=1x8x1 LIMIT_MB=100000000
tap_done
