#!/usr/bin/env bash
# tests/specs/run-facts.sh - check each spec against the facts its sources state.
#
# tests/specs/<spec>.facts holds one assertion per line, checked against the
# JSON export of regspec/<spec>.xml (docs/json.md):
#     JQ-FILTER  =>  EXPECTED-JSON        # optional comment
# e.g.
#     .blocks[] | select(.name=="ubox") | .registers[] | select(.name=="U_MSR_PMON_CTR") | .width  =>  64
# Blank lines and lines starting with '#' are ignored. Each line is one TAP test.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${REGC:=build/regc}"
tap_setup tmp

for facts in tests/specs/*.facts; do
    [ -f "$facts" ] || continue
    spec=$(basename "$facts" .facts)
    json=$tmp/$spec.json
    if ! "$REGC" -t json "regspec/$spec.xml" -o "$json" 2>"$tmp/err"; then
        tap_fail "$spec: regc -t json" "$(head -n 5 "$tmp/err")"
        continue
    fi
    n=0
    while IFS= read -r line || [ -n "$line" ]; do
        n=$((n + 1))
        case $line in '' | \#*) continue ;; esac
        filter=${line%%=>*}
        expected=${line#*=>}
        expected=${expected%%# *}
        if [ "$filter" = "$line" ]; then
            tap_fail "$spec.facts:$n: no '=>' in line"
            continue
        fi
        actual=$(jq -c "[$filter]" "$json" 2>&1)
        want=$(jq -cn "[$expected]" 2>&1)
        if [ "$actual" = "$want" ]; then
            tap_ok "$spec.facts:$n"
        else
            tap_fail "$spec.facts:$n: $filter" "expected $want" "actual   $actual"
        fi
    done <"$facts"
done
tap_done
