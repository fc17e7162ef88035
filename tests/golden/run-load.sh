#!/usr/bin/env bash
# tests/golden/run-load.sh - regc's output does not depend on the threads it may use.
#
# The loader is serial and streaming (compiler/xmlload.c); later stages may
# use threads (-j). For each spec below, `regc -t c` and `regc -t json` must
# write the same bytes, print the same stderr and exit with the same status
# with -j1 and with -j4:
#   - every regspec/*.xml and every tests/golden/*.xml with a <regspec> root;
#   - a spec from bench/gen-spec.py (skipped without python3).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

compare() {   # spec [name]
    local spec=$1 name=${2:-$1} t
    for t in c json; do
        "$regc" -j1 -t "$t" "$spec" -o "$tmp/one" 2>"$tmp/one.err"
        local one=$?
        "$regc" -j4 -t "$t" "$spec" -o "$tmp/four" 2>"$tmp/four.err"
        local four=$?
        if [ "$one" -ne "$four" ]; then
            tap_fail "jobs: $name -t $t" "exit status $four with -j4, $one with -j1"
        elif ! cmp -s "$tmp/one.err" "$tmp/four.err"; then
            tap_diff "jobs: $name -t $t: stderr" "$tmp/one.err" "$tmp/four.err"
        elif [ "$one" -eq 0 ] && ! cmp -s "$tmp/one" "$tmp/four"; then
            tap_fail "jobs: $name -t $t" "the outputs of -j1 and -j4 differ"
        else
            tap_ok "jobs: $name -t $t"
        fi
        rm -f "$tmp/one" "$tmp/four"
    done
}

for spec in regspec/*.xml tests/golden/*.xml; do
    grep -q '<regspec' "$spec" || continue
    compare "$spec"
done
if command -v python3 >/dev/null; then
    python3 bench/gen-spec.py 8 8 8 >"$tmp/bench.xml"
    compare "$tmp/bench.xml" "bench/gen-spec.py 8 8 8"
else
    tap_skip "jobs: a bench/gen-spec.py spec" "no python3"
fi
tap_done
