#!/usr/bin/env bash
# bench/svd.sh - CMSIS-SVD import per file (issue 27): `regc -t c` against
# `xmllint --noout` on each file of the SVD test set, time and peak memory as
# ratios.
#
# The test set is ../shared/svd from the repository root (REGC_SVD_DATA
# names another): corpus/*/*.svd and vendor-headers/nordic/*.svd, the files
# tests/svd/run-corpus.sh imports. For each, one line: the file's size,
# regc's wall time, CPU time and peak memory (the header to a file, as a
# build writes it; diagnostics discarded), xmllint's, the ratios (t x, cpu x,
# mem x), regc's peak over the file's size (mem/file) and the targets with
# PASS or MISS: time at most 2x xmllint's, memory bounded by the file, read
# as a peak at most 2x xmllint's (which holds the file's tree) and at most
# 64 MiB plus 32x the file. The largest file is marked '*'. Reported, never
# judged: the script exits 0 whatever the verdicts (its arithmetic is
# tested by tests/perf/run-bench-svd.sh, on set numbers), and without the
# test set it says so and exits 0.
#
# FILES (default: the whole test set) picks files by their path in the test
# set. REPS (default 1) runs each command that many times (medians). REGC
# (default build/regc) names the binary; MEASURE (default `python3
# bench/measure.py`) runs and measures each run, printing
# "SECONDS MAXRSS_KB STATUS CPU_SECONDS" from --cpu --repeat N CMD...
set -eu
cd "$(dirname "$0")/.."
: "${REGC:=build/regc}" "${REPS:=1}" "${MEASURE:=python3 bench/measure.py}"
svd=${REGC_SVD_DATA:-../shared/svd}
[ -x "$REGC" ] || { echo "bench-svd: $REGC not found: run make first" >&2; exit 1; }
command -v xmllint >/dev/null || { echo "bench-svd: xmllint not found (package libxml2-utils)" >&2; exit 1; }
case $REPS in *[!0-9]* | "" | 0) echo "bench-svd: REPS must be a positive number of runs (got '$REPS')" >&2; exit 1 ;; esac
if [ ! -d "$svd/corpus" ]; then
    echo "bench-svd: no SVD test set at $svd (../shared/svd from the repository root, or REGC_SVD_DATA): skipped"
    exit 0
fi
files=${FILES:-$(cd "$svd" && ls corpus/*/*.svd vendor-headers/nordic/*.svd 2>/dev/null | sort)}
largest=$(cd "$svd" && ls -S $files | head -n 1)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

printf '%-46s %6s | %7s %7s %6s | %7s %7s %6s | %5s %5s %5s %8s | %-9s %s\n' file MB \
    "regc s" "cpu s" "MB" "xml s" "cpu s" "MB" "t x" "cpu x" "mem x" "mem/file" "t <= 2x" "mem bound"
for f in $files; do
    [ -f "$svd/$f" ] || { echo "bench-svd: no file $f in $svd" >&2; exit 1; }
    bytes=$(stat -c %s "$svd/$f")
    # shellcheck disable=SC2086 # MEASURE is a command and its arguments
    read -r xt xm xs xc < <($MEASURE --cpu --repeat "$REPS" xmllint --noout "$svd/$f" 2>/dev/null)
    # shellcheck disable=SC2086
    read -r rt rm rs rc < <($MEASURE --cpu --repeat "$REPS" "$REGC" -t c -o "$tmp/out.h" "$svd/$f" 2>/dev/null)
    rm -f "$tmp/out.h"
    name=$f
    [ "$f" = "$largest" ] && name="$f *"
    awk -v f="$name" -v b="$bytes" -v rt="$rt" -v rm="$rm" -v rs="$rs" -v rc="$rc" \
        -v xt="$xt" -v xm="$xm" -v xs="$xs" -v xc="$xc" 'BEGIN {
        printf "%-46s %6.2f | ", f, b / 1048576
        if (rs != "0") { printf "regc failed (status %s)\n", rs; exit }
        if (xs != "0") { printf "xmllint failed (status %s)\n", xs; exit }
        tx = rt / xt; mx = rm / xm; per = rm * 1024 / b
        tv = tx <= 2 ? "PASS" : "MISS"
        mv = mx <= 2 && rm * 1024 <= 64 * 1048576 + 32 * b ? "PASS" : "MISS"
        printf "%7.2f %7.2f %6d | %7.2f %7.2f %6d | %5.2f %5.2f %5.2f %8.1f | %-9s %s\n", rt, rc, rm / 1024,
            xt, xc, xm / 1024, tx, (xc > 0 ? rc / xc : 0), mx, per, tv, mv }'
done
echo "(regc -t c and xmllint --noout on each file of the SVD test set, medians of $REPS runs; t x, cpu x,"
echo " mem x: regc's wall time, CPU time and peak memory over xmllint's; mem/file: regc's peak over the"
echo " file's size; * the largest file. Targets: t x at most 2; memory bounded by the file: mem x at"
echo " most 2 and a peak at most 64 MiB + 32x the file. Reported, not judged.)"
