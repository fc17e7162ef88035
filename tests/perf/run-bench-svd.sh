#!/usr/bin/env bash
# tests/perf/run-bench-svd.sh - bench/svd.sh (the per-file SVD bench of
# `make bench`) judged on set numbers (a stand-in MEASURE over a stand-in test
# set of two files), never on the machine's speed: time at most 2x xmllint's
# is a PASS, over it a MISS; memory at most 2x xmllint's and 64 MiB + 32x the
# file a PASS, either over a MISS; the largest file is marked. Without a test
# set the bench says so and exits 0; a bad REPS is refused.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
if ! command -v xmllint >/dev/null || ! command -v python3 >/dev/null; then
    tap_skip "bench/svd.sh" "needs xmllint and python3"
    tap_done
    exit 0
fi

# a stand-in test set: a 2 KiB and a 1 MiB file (only their sizes are read)
mkdir -p "$tmp/set/corpus/V" "$tmp/set/vendor-headers/nordic"
head -c 2048 /dev/zero >"$tmp/set/corpus/V/small.svd"
head -c 1048576 /dev/zero >"$tmp/set/corpus/V/big.svd"

# xmllint as XML_NUMBERS says (default 1 s wall, 100,000 KiB, 0.5 s CPU), regc as REGC_NUMBERS
cat >"$tmp/measure" <<'SH'
#!/bin/sh
case " $* " in
*" xmllint "*) echo "${XML_NUMBERS:-1.0000 100000 0 0.5000}" ;;
*) echo "$REGC_NUMBERS" ;;
esac
SH
chmod +x "$tmp/measure"

# expect NAME STATUS PATTERN (grep -E on stdout+stderr) ENV... : run svd.sh with ENV
expect() {
    local name=$1 want=$2 pattern=$3; shift 3
    env REGC="$regc" REGC_SVD_DATA="$tmp/set" MEASURE="$tmp/measure" "$@" bash bench/svd.sh >"$tmp/out" 2>&1
    local st=$?
    if [ "$st" != "$want" ]; then tap_fail "$name" "status $st, expected $want" "$(head -n 5 "$tmp/out")"
    elif ! grep -qE "$pattern" "$tmp/out"; then tap_fail "$name" "no line matches: $pattern" "$(head -n 12 "$tmp/out")"
    else tap_ok "$name"; fi
}

expect "regc at 1.5x the time, 0.75x the CPU, 0.6x the memory: ratios, PASS, PASS" 0 \
    '^corpus/V/small\.svd +0\.00 \| +1\.50 +0\.38 +58 \| +1\.00 +0\.50 +97 \| +1\.50 +0\.75 +0\.60 +30000\.0 \| PASS +PASS$' \
    REGC_NUMBERS="1.5000 60000 0 0.3750"
n=$(grep -cE '^corpus/' "$tmp/out")
[ "$n" = 2 ] && tap_ok "a line per file" || tap_fail "a line per file" "$n: $(cat "$tmp/out")"
grep -qE '^corpus/V/big\.svd \* +1\.00 ' "$tmp/out" && tap_ok "the largest file is marked" ||
    tap_fail "the largest file is marked" "$(cat "$tmp/out")"
expect "time at 2.01x: MISS" 0 '^corpus/V/small\.svd .* 2\.01 +[0-9.]+ +[0-9.]+ +[0-9.]+ \| MISS +PASS$' \
    REGC_NUMBERS="2.0100 50000 0 0.5000"
expect "time at 2.00x: PASS" 0 '^corpus/V/small\.svd .* 2\.00 +[0-9.]+ +[0-9.]+ +[0-9.]+ \| PASS +PASS$' \
    REGC_NUMBERS="2.0000 50000 0 0.5000"
expect "memory at 2.01x xmllint's (under 64 MiB): MISS" 0 '^corpus/V/small\.svd .* 2\.01 +[0-9.]+ \| PASS +MISS$' \
    XML_NUMBERS="1.0000 20000 0 0.5000" REGC_NUMBERS="1.0000 40200 0 0.5000"
# 1 MiB file: 64 MiB + 32 MiB = 98,304 KiB; xmllint at 60,000 KiB keeps mem x under 2
expect "a peak over 64 MiB + 32x the file: MISS though under 2x xmllint's" 0 \
    '^corpus/V/big\.svd \* .* 1\.64 +[0-9.]+ \| PASS +MISS$' XML_NUMBERS="1.0000 60000 0 0.5000" \
    REGC_NUMBERS="1.0000 98400 0 0.5000"
expect "a peak of 64 MiB + 32x the file: PASS" 0 \
    '^corpus/V/big\.svd \* .* 1\.64 +[0-9.]+ \| PASS +PASS$' XML_NUMBERS="1.0000 60000 0 0.5000" \
    REGC_NUMBERS="1.0000 98304 0 0.5000"
expect "a failed regc run is reported" 0 '^corpus/V/small\.svd +0\.00 \| regc failed \(status 1\)$' \
    REGC_NUMBERS="1.0000 1000 1 0.5000"
expect "no test set: said, exit 0" 0 'no SVD test set at .*: skipped' REGC_SVD_DATA="$tmp/none"
expect "REPS=0 refused" 1 'REPS must be a positive number' REPS=0
tap_done
