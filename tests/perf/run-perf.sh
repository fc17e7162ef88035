#!/usr/bin/env bash
# tests/perf/run-perf.sh - regression guard for regc's cost, not a timed test.
#
# Every bound is a ratio measured in this run against libxml2's bare parse
# (`xmllint --noout`; one: regc's own --check) of the same generated spec
# (bench/gen-spec.py), so the
# machine's speed and load cancel out; the bounds are wide (1.5x to 2x the
# ratios in docs/performance.md). Checks:
#   - peak memory of `regc -t c` on the 1/8 bench spec: under 2.5x xmllint's;
#   - peak memory grows linearly: 1/4 spec over 1/8 spec under 2.4;
#   - peak memory of `regc -t json` on the 1/8 spec: under 3.5x xmllint's;
#   - the export is streamed to -o: peak memory of `regc -t json` on the 1/4
#     spec under 1.2x `regc --check`'s (now 1.00x; 1.56x when its 8 MB of
#     text were held whole until the write);
#   - instructions (bench/instructions: perf or callgrind) of `regc -t c` on
#     a 2-block spec: under 5x xmllint's (now ~3.3x);
#   - instructions of `regc --check` on each spec of regspec/: under 15x
#     xmllint's (now 3-8x: small files, so the schema's compilation counts;
#     libxml2 validating a plain group of many optional attributes took
#     1000x, see regspec.rng).
# Skipped under sanitizers (SAN=1 changes memory and speed) and when xmllint
# (or, for the instruction budget, perf/valgrind) is missing.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${REGC:=build/regc}"
tap_setup tmp

if ! command -v xmllint >/dev/null; then
    tap_skip "perf guard" "xmllint not installed"; tap_done; exit 0
fi
if ldd "$REGC" 2>/dev/null | grep -q 'lib[at]san\|libubsan'; then
    tap_skip "perf guard" "sanitizer build"; tap_done; exit 0
fi

# peak_kb SPEC [KIND]: regc's (-t KIND, default c) and xmllint's peak RSS in KiB,
# "REGC XML"; fails the test on errors
peak_kb() {
    local rt rm rs xt xm xs
    read -r rt rm rs < <(python3 bench/measure.py "$REGC" -t "${2:-c}" "$1" -o "$tmp/out.${2:-h}")
    read -r xt xm xs < <(python3 bench/measure.py xmllint --noout "$1")
    [ "$rs" = 0 ] && [ "$xs" = 0 ] || return 1
    echo "$rm $xm"
}

# under_bound NAME A B BOUND OK_NAME FAIL_DETAIL: passes as OK_NAME when A < BOUND x B,
# fails NAME with FAIL_DETAIL when not, or when A or B was not measured
under_bound() {
    if [ -z "$2" ] || [ -z "$3" ]; then
        tap_fail "$1" "regc or xmllint failed"
    elif awk -v a="$2" -v b="$3" -v k="$4" 'BEGIN { exit !(a < k * b) }'; then
        tap_ok "$5"
    else
        tap_fail "$1" "$6"
    fi
}

python3 bench/gen-spec.py 8 32 16 >"$tmp/s8.xml"
python3 bench/gen-spec.py 16 32 16 >"$tmp/s4.xml"
read -r r8 x8 < <(peak_kb "$tmp/s8.xml")
under_bound "peak memory on the 1/8 spec" "$r8" "$x8" 2.5 \
    "peak memory on the 1/8 spec: regc $((r8 / 1024)) MB < 2.5 x xmllint $((x8 / 1024)) MB" \
    "regc $r8 KiB, xmllint $x8 KiB: ratio over 2.5"
read -r r4 x4 < <(peak_kb "$tmp/s4.xml")
under_bound "peak memory grows linearly" "$r4" "$r8" 2.4 \
    "peak memory grows linearly: 1/4 spec $((r4 / 1024)) MB < 2.4 x 1/8 spec $((r8 / 1024)) MB" \
    "1/4 spec $r4 KiB, 1/8 spec $r8 KiB: over 2.4x"
read -r j8 x8 < <(peak_kb "$tmp/s8.xml" json)
under_bound "peak memory of -t json on the 1/8 spec" "$j8" "$x8" 3.5 \
    "peak memory of -t json on the 1/8 spec: regc $((j8 / 1024)) MB < 3.5 x xmllint $((x8 / 1024)) MB" \
    "regc $j8 KiB, xmllint $x8 KiB: ratio over 3.5"
read -r j4 x4 < <(peak_kb "$tmp/s4.xml" json)
read -r _ c4 cs < <(python3 bench/measure.py "$REGC" --check "$tmp/s4.xml")
[ "${cs:-}" = 0 ] || c4=
under_bound "-t json is streamed to -o" "$j4" "$c4" 1.2 \
    "-t json is streamed to -o: peak memory on the 1/4 spec $((j4 / 1024)) MB < 1.2 x --check's $((${c4:-0} / 1024)) MB" \
    "-t json $j4 KiB, --check $c4 KiB: ratio over 1.2 (is the export held whole?)"

python3 bench/gen-spec.py 2 32 16 >"$tmp/s32.xml"
ri=$(bench/instructions "$REGC" -t c "$tmp/s32.xml" -o "$tmp/out.h")
xi=$(bench/instructions xmllint --noout "$tmp/s32.xml")
if [ "$ri" = - ] || [ "$xi" = - ]; then
    tap_skip "instruction budget" "no perf counter and no valgrind"
else
    under_bound "instruction budget" "$ri" "$xi" 5 \
        "instructions on a 2-block spec: regc $((ri / 1000000))M < 5 x xmllint $((xi / 1000000))M" \
        "regc $ri, xmllint $xi instructions: ratio over 5"
    for spec in regspec/*.xml; do
        ri=$(bench/instructions "$REGC" --check "$spec")
        xi=$(bench/instructions xmllint --noout "$spec")
        under_bound "instruction budget of $spec" "$ri" "$xi" 15 \
            "instructions on $spec: regc --check $((ri / 1000000))M < 15 x xmllint $((xi / 1000000))M" \
            "regc $ri, xmllint $xi instructions: ratio over 15"
    done
fi
tap_done
