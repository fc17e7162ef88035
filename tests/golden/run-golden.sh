#!/usr/bin/env bash
# tests/golden/run-golden.sh - compile each golden spec and compare with the expected outputs.
#
# For every tests/golden/*.xml whose root is <regspec> (files with a <part>
# root are includes), and every output kind K with a file SPEC.K.expected
# (K: h for -t c, json for -t json), one TAP line: regc's output must equal
# the expected file byte for byte. UPDATE_GOLDEN=1 (make update-golden)
# rewrites the expected files instead; review the diff before committing.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${REGC:=build/regc}"
tap_setup tmp

for spec in tests/golden/*.xml; do
    grep -q '<regspec' "$spec" || continue
    name=${spec%.xml}
    for kind in h json; do
        case $kind in h) t=c ;; *) t=$kind ;; esac
        expected=$name.$kind.expected
        out=$tmp/$(basename "$name").$kind
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
    done
    # deterministic: a second run gives the same bytes
    "$REGC" -t c "$spec" -o "$tmp/again.h" 2>/dev/null
    "$REGC" -t json "$spec" -o "$tmp/again.json" 2>/dev/null
    if cmp -s "$tmp/again.h" "$tmp/$(basename "$name").h" &&
        cmp -s "$tmp/again.json" "$tmp/$(basename "$name").json"; then
        tap_ok "golden: $spec output is deterministic"
    else
        tap_fail "golden: $spec output is deterministic" "two runs differ"
    fi
done
tap_done
