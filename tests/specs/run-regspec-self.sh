#!/usr/bin/env bash
# tests/specs/run-regspec-self.sh - `regc SPEC -t regspec` of the specs with event tables, pmon
# topologies and metrics (docs/svd.md, "-t regspec"): the five specs of regspec/ and the test
# inputs that hold events, pmon or metrics and compile cleanly. For each SPEC, A = -t regspec:
#   - is written without a diagnostic, validates against regspec/regspec.rng (xmllint --relaxng,
#     independent of regc's loader) and compiles without a diagnostic;
#   - says every attribute SPEC says, and nothing more (tests/specs/regspec_attrs.py, written
#     from docs/regspec.md: includes followed, defaults filled in, numbers in one form, a gaps=
#     fill as the <gap>s it means, so that each <gap> -t regspec writes is compared too);
#   - gives the same -t c, tables, json, md, html and perf as SPEC, byte for byte (SPEC's own
#     outputs are the reference);
#   - is a fixed point: -t regspec of A is A.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/regspec-valid.sh

for spec in regspec/e5_2600.xml regspec/e5_2600v2.xml regspec/snb_client.xml regspec/xeon7100_l3.xml \
    regspec/xeon7500_mbox.xml tests/golden/features.xml tests/docs/hostile.xml \
    tests/runtime/data/userspec.xml tests/specs/data/perf/tiny.xml; do
    name=$spec a=$tmp/a.xml
    rm -f "$a"
    if ! "$regc" "$spec" -t regspec -o "$a" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
        tap_fail "$name: -t regspec without a diagnostic" "$(head -n 3 "$tmp/err")"
        continue
    fi
    tap_ok "$name: -t regspec without a diagnostic"
    regspec_valid "$name" "$a"
    if python3 tests/specs/regspec_attrs.py "$spec" >"$tmp/want.attrs" 2>"$tmp/err" &&
        python3 tests/specs/regspec_attrs.py "$a" >"$tmp/got.attrs" 2>>"$tmp/err"; then
        tap_diff "$name: the regspec says every attribute the spec says ($(wc -l <"$tmp/want.attrs")), nothing more" \
            "$tmp/want.attrs" "$tmp/got.attrs"
    else
        tap_fail "$name: attributes listed" "$(tail -n 3 "$tmp/err")"
    fi
    for t in c tables json md html perf; do
        if "$regc" "$spec" -t $t -o "$tmp/want.$t" 2>"$tmp/err" && "$regc" "$a" -t $t -o "$tmp/got.$t" 2>>"$tmp/err" &&
            cmp -s "$tmp/want.$t" "$tmp/got.$t"; then
            tap_ok "$name: -t $t of the regspec is byte-identical"
        else
            tap_fail "$name: -t $t of the regspec is byte-identical" "$(head -n 2 "$tmp/err")" \
                "$(diff "$tmp/want.$t" "$tmp/got.$t" 2>&1 | head -n 6)"
        fi
    done
    if "$regc" "$a" -t regspec -o "$tmp/again.xml" 2>"$tmp/err" && cmp -s "$a" "$tmp/again.xml"; then
        tap_ok "$name: -t regspec of its -t regspec is itself"
    else
        tap_fail "$name: -t regspec of its -t regspec is itself" "$(head -n 3 "$tmp/err")" \
            "$(diff "$a" "$tmp/again.xml" 2>&1 | head -n 6)"
    fi
done
tap_done
