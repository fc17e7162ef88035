#!/usr/bin/env bash
# tests/golden/run-golden.sh - compile each golden spec and compare with the expected outputs.
#
# The golden specs: every tests/golden/*.xml whose root is <regspec> (files
# with a <part> root are includes) and the example specs examples/specs/*.xml
# (an MMIO-only and a PCI-only device). For each spec NAME and each built-in
# output, one TAP line: regc's output must equal tests/golden/NAME.EXT.expected
# byte for byte. The outputs and their files:
#   -t c       NAME.h.expected         -t tables  NAME.tables.h.expected
#   -t md      NAME.md.expected        -t html    NAME.html.expected
#   -t perf    NAME.perf.json.expected  -t json   NAME.json.expected (the model)
# each required for every spec (a missing file fails).
# The specs of regspec/ have their goldens in generated/ (every output,
# json included), which run-generated.sh compares the same way.
# Then each spec compiled twice gives the same bytes (deterministic).
# UPDATE_GOLDEN=1 (make update-golden) rewrites the expected files instead;
# review the diff before committing (docs/testing.md, "Golden outputs").
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${REGC:=build/regc}"
tap_setup tmp

# KIND:EXTENSION of every built-in output with a golden.
kinds="c:h tables:tables.h md:md html:html perf:perf.json json:json"

for spec in tests/golden/*.xml examples/specs/*.xml; do
    grep -q '<regspec' "$spec" || continue
    name=$(basename "$spec" .xml)
    differ=()
    for ke in $kinds; do
        t=${ke%%:*} ext=${ke#*:}
        expected=tests/golden/$name.$ext.expected
        out=$tmp/$name.$ext
        if ! "$REGC" -t "$t" "$spec" -o "$out" 2>"$tmp/err"; then
            tap_fail "golden: $spec -t $t" "$(head -n 5 "$tmp/err")"
            continue
        fi
        if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
            cp "$out" "$expected"
            tap_ok "golden: $expected updated"
        elif [ ! -f "$expected" ]; then
            tap_fail "golden: $expected" "missing: run 'make update-golden' and review it"
        else
            tap_diff "golden: $spec -t $t" "$expected" "$out"
        fi
        # deterministic: a second run gives the same bytes
        "$REGC" -t "$t" "$spec" -o "$tmp/again" 2>/dev/null && cmp -s "$tmp/again" "$out" || differ+=("-t $t")
    done
    if [ ${#differ[@]} -eq 0 ]; then tap_ok "golden: $spec output is deterministic"
    else tap_fail "golden: $spec output is deterministic" "two runs differ: ${differ[*]}"; fi
done
tap_done
