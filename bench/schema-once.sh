#!/usr/bin/env bash
# bench/schema-once.sh - the built-in schema compiled once a run, not once a
# spec (docs/performance.md, "What the test suite costs"): `regc --check A B
# ...` in one process against the same specs checked one process each.
#
# Two sets: the specs of regspec/ (regspec/*.xml, the realistic case), and
# SMALL (default 50) small specs made by bench/gen-spec.py (one block of 1 to
# 4 registers of 4 fields, the sizes in turn), where compiling the schema is
# most of a spec's check. For each set, one line: the files, the
# instructions of the one run and the sum of the runs one a spec, and their
# ratio (one / sum; below 1 is a saving), and the saving split: the
# start-ups of the processes the one run spares (each counted as `regc
# --version`'s instructions), and the rest, which is the schema compiled once
# instead of once a spec (and the little else done once a run); the same for
# wall time (median of REPS runs each, default 3; each process's start-up
# counts, as it does for a user). Instructions do not depend on the
# machine's load, so their ratio is the one to quote; the wall times are
# noisier. The saving is printed beside
# 5%, the least that keeps a speed mechanism (docs/performance.md): reported,
# never judged (the script exits 0 whatever it is, and 1 only when a run
# fails: every spec must check clean, in one process and alone).
#
# REGC (default build/regc) names the binary; MEASURE (default `python3
# bench/measure.py`) prints "SECONDS MAXRSS_KB STATUS" for --repeat N CMD...;
# INSTRUCTIONS (default bench/instructions) prints the instructions of CMD...,
# "-" when it cannot; INSTR=0 skips the instruction counts (they run
# callgrind once a process where perf has no counter: about a second each).
set -eu
cd "$(dirname "$0")/.."
: "${REGC:=build/regc}" "${REPS:=3}" "${SMALL:=50}" "${INSTR:=1}"
: "${MEASURE:=python3 bench/measure.py}" "${INSTRUCTIONS:=bench/instructions}"
[ -x "$REGC" ] || { echo "bench-schema-once: $REGC not found: run make first" >&2; exit 1; }
for v in REPS SMALL; do
    case ${!v} in *[!0-9]* | "" | 0) echo "bench-schema-once: $v must be a positive number (got '${!v}')" >&2; exit 1 ;; esac
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

for ((i = 0; i < SMALL; i++)); do
    python3 bench/gen-spec.py 1 $((1 + i % 4)) 4 >"$tmp/small-$i.xml"
done

# measure NAME FILE...: prints the line of one set
measure() {
    local name=$1 f one sum=0 it is=0 n st t
    shift
    # shellcheck disable=SC2086 # MEASURE is a command and its arguments
    read -r one _ st < <($MEASURE --repeat "$REPS" "$REGC" --check "$@")
    [ "$st" = 0 ] || { echo "bench-schema-once: regc --check of the $name in one process: status $st" >&2; exit 1; }
    for f in "$@"; do
        # shellcheck disable=SC2086
        read -r t _ st < <($MEASURE --repeat "$REPS" "$REGC" --check "$f")
        [ "$st" = 0 ] || { echo "bench-schema-once: regc --check $f: status $st" >&2; exit 1; }
        sum=$(awk -v s="$sum" -v t="$t" 'BEGIN { printf "%.4f", s + t }')
    done
    it=-
    if [ "$INSTR" != 0 ]; then
        it=$("$INSTRUCTIONS" "$REGC" --check "$@")
        is=0
        for f in "$@"; do
            n=$("$INSTRUCTIONS" "$REGC" --check "$f")
            if [ "$n" = - ] || [ "$is" = - ]; then is=-; else is=$((is + n)); fi
        done
        [ "$is" != - ] || it=-
    fi
    awk -v name="$name" -v n=$# -v it="$it" -v is="$is" -v v="$version" -v one="$one" -v sum="$sum" 'BEGIN {
        if (it == "-" || v == "-") { i = sprintf("%9s %9s %6s %7s %8s %6s", "-", "-", "-", "-", "-", "-") }
        else { s = 100 * (1 - it / is); su = 100 * (n - 1) * v / is
               i = sprintf("%8.1fM %8.1fM %6.2f %6.0f%% %7.0f%% %5.0f%%", it / 1e6, is / 1e6, it / is, s, su, s - su) }
        printf "%-22s %5d | %s | %8.3f %8.3f %6.2f %6.0f%%\n", name, n, i, one, sum, one / sum, 100 * (1 - one / sum) }'
}

echo "regc --check of several specs: one process (one) against one process a spec (sum of them);"
echo "ratio one / sum, saving 1 - ratio (a speed mechanism stays when a bench shows at least 5%)"
echo "(of the instructions saved: the start-ups of the processes spared, and the rest: the schema compiled once)"
version=-
[ "$INSTR" = 0 ] || version=$("$INSTRUCTIONS" "$REGC" --version)
printf '%-22s %5s | %9s %9s %6s %7s %8s %6s | %8s %8s %6s %7s\n' specs files "instr one" "instr sum" ratio saving \
    start-up rest "one s" "sum s" ratio saving
measure "regspec/*.xml" regspec/*.xml
measure "small (gen-spec.py)" "$tmp"/small-*.xml
[ "$INSTR" != 0 ] || echo "(instructions skipped: INSTR=0)"
