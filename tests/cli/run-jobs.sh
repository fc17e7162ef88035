#!/usr/bin/env bash
# tests/cli/run-jobs.sh - regc -j N: the same bytes out, the same diagnostics,
# whatever the number of threads. Every spec of regspec/, the feature spec and
# a generated 12-block spec, through every built-in output, with -j1 and -j4;
# then a template failing in a late block. (Bad specs are not compared: the
# checker runs on one thread whatever -j says, docs/performance.md, so such a
# comparison would run no thread; tests/errors holds their exact text.)
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

python3 bench/gen-spec.py 12 4 16 >"$tmp/gen.xml"
for spec in regspec/*.xml tests/golden/features.xml "$tmp/gen.xml"; do
    for t in c json md html tables; do
        name="$(basename "$spec") -t $t"
        "$regc" -j1 -t "$t" "$spec" -o "$tmp/one" 2>"$tmp/one.err"; st1=$?
        "$regc" -j4 -t "$t" "$spec" -o "$tmp/four" 2>"$tmp/four.err"; st4=$?
        if [ "$st1" -ne 0 ] || [ "$st4" -ne 0 ]; then
            tap_fail "$name" "status -j1 $st1, -j4 $st4" "$(head -n 3 "$tmp/four.err")"
        elif ! cmp -s "$tmp/one" "$tmp/four" || ! cmp -s "$tmp/one.err" "$tmp/four.err"; then
            tap_fail "$name: -j1 and -j4 differ"
        else
            tap_ok "$name: -j1 and -j4 give the same bytes"
        fi
    done
done

# A template failing only in block 9 of 12: reported once, as with one thread, no output.
printf '{{#blocks}}{{name}}{{#last}}{{nope}}{{/last}}\n{{/blocks}}' >"$tmp/late.mustache"
for j in 1 4; do
    "$regc" -j$j -t "$tmp/late.mustache" "$tmp/gen.xml" -o "$tmp/late-$j.out" 2>"$tmp/late-$j.err"
    echo "status $?" >>"$tmp/late-$j.err"
done
tap_diff "template error in the last block: -j4 reports what -j1 reports" "$tmp/late-1.err" "$tmp/late-4.err"
if grep -q "error: no value for 'nope'" "$tmp/late-4.err" && [ ! -e "$tmp/late-4.out" ]; then
    tap_ok "template error in the last block: reported, nothing written"
else
    tap_fail "template error in the last block: reported, nothing written" "$(cat "$tmp/late-4.err")"
fi
tap_done
