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
#   - peak memory of `regc -t c` on one block of 20,000 one-field registers:
#     under 0.4x xmllint's (now ~0.27x; 0.48x while the collision check made
#     a whole block's names at once);
#   - the export is streamed to -o: peak memory of `regc -t json` on the 1/4
#     spec under 1.2x `regc --check`'s (now 1.00x; 1.56x when its 8 MB of
#     text were held whole until the write);
#   - instructions (bench/instructions: perf or callgrind) of `regc -t c` on
#     a 2-block spec: under 5x xmllint's (now ~3.3x);
#   - instructions of `regc --check` on each spec of regspec/: under 15x
#     xmllint's (now 3-8x: small files, so the schema's compilation counts;
#     libxml2 validating a plain group of many optional attributes took
#     1000x, see regspec.rng);
#   - regc's cost grows linearly: instructions of `regc -t c` from the 2-block
#     to the 8-block spec, and of `regc --check` from 256 to 1,024 registers
#     of 16 instances in one block (the address and name checks), grow under
#     2.3x per doubling (now ~1.92x and ~1.91x); a stand-in whose
#     instructions grow with the square of the size (16x over the two
#     doublings) must fail that same bound.
# Instructions are a count, not a time: a loaded machine does not change them.
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

# one block of many small registers (issue 26): what the checker makes per block (the generated
# names, once all of a block's at a time) must not grow with the block; 0.27x now, 0.48x then
python3 bench/gen-spec.py 1 20000 1 >"$tmp/b20k.xml"
read -r rb xb < <(peak_kb "$tmp/b20k.xml")
under_bound "peak memory on one block of 20,000 registers" "$rb" "$xb" 0.4 \
    "peak memory on one block of 20,000 registers: regc $((rb / 1024)) MB < 0.4 x xmllint $((xb / 1024)) MB" \
    "regc $rb KiB, xmllint $xb KiB: ratio over 0.4"
python3 bench/gen-spec.py 2 32 16 >"$tmp/s32.xml"
ri=$(bench/instructions "$REGC" -t c "$tmp/s32.xml" -o "$tmp/out.h")
xi=$(bench/instructions xmllint --noout "$tmp/s32.xml")
if [ "$ri" = - ] || [ "$xi" = - ]; then
    tap_skip "instruction budget" "no perf counter and no valgrind"
else
    under_bound "instruction budget" "$ri" "$xi" 5 \
        "instructions on a 2-block spec: regc $((ri / 1000000))M < 5 x xmllint $((xi / 1000000))M" \
        "regc $ri, xmllint $xi instructions: ratio over 5"
    # linear growth: instructions over two doublings, as a growth per doubling
    # growth SMALL BIG A CMD...: the growth of CMD ARGS from spec SMALL (A instructions; "" measures
    # it) to spec BIG, four times its size, where ARGS is $mode with SPEC standing for the spec
    python3 bench/gen-spec.py 8 32 16 >"$tmp/s8b.xml"
    growth() {
        local small=$1 big=$2 a=$3 b; shift 3
        [ -n "$a" ] || a=$(bench/instructions "$@" ${mode//SPEC/$small})
        b=$(bench/instructions "$@" ${mode//SPEC/$big})
        awk -v a="$a" -v b="$b" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", sqrt(b / a) }'
    }
    # under_linear NAME G: passes when G, a growth per doubling, is under 2.3
    under_linear() {
        if awk -v g="$2" 'BEGIN { exit !(g != "" && g < 2.3) }'; then tap_ok "$1: ${2}x per doubling < 2.3"
        else tap_fail "$1" "${2:-not measured}x per doubling, over 2.3"; fi
    }
    # the stand-in: (size / 256)^2 steps over its .xml argument, a quadratic pass over the spec
    cat >"$tmp/quadratic.c" <<'C'
#include <string.h>
#include <sys/stat.h>
int main(int argc, char **argv)
{
    struct stat st;
    volatile unsigned long sum = 0;
    int i = argc - 1;
    while (i > 0 && (strlen(argv[i]) < 4 || strcmp(argv[i] + strlen(argv[i]) - 4, ".xml") != 0))
        i--;
    if (i == 0 || stat(argv[i], &st) != 0)
        return 1;
    unsigned long n = (unsigned long)st.st_size / 256;
    for (unsigned long k = 0; k < n; k++)
        for (unsigned long j = 0; j < n; j++)
            sum += k ^ j;
    return 0;
}
C
    mode="-t c SPEC -o $tmp/out.h"
    under_linear "instructions grow linearly: -t c from 2 to 8 blocks" "$(growth "$tmp/s32.xml" "$tmp/s8b.xml" "$ri" "$REGC")"
    # the address and name checks, within a block: 256 to 1,024 registers of 16 instances
    python3 bench/gen-spec.py 1 256 4 16 >"$tmp/r256.xml"
    python3 bench/gen-spec.py 1 1024 4 16 >"$tmp/r1024.xml"
    mode="--check SPEC"
    under_linear "instructions grow linearly: --check from 256 to 1,024 registers of 16 instances in a block" \
        "$(growth "$tmp/r256.xml" "$tmp/r1024.xml" "" "$REGC")"
    if ${CC:-cc} -O1 -o "$tmp/quadratic" "$tmp/quadratic.c"; then
        q=$(growth "$tmp/r256.xml" "$tmp/r1024.xml" "" "$tmp/quadratic")
        awk -v g="$q" 'BEGIN { exit !(g != "" && g >= 2.3) }' &&
            tap_ok "the linear-growth bound fails a quadratic stand-in (${q}x per doubling)" ||
            tap_fail "the linear-growth bound fails a quadratic stand-in" "${q:-not measured}x per doubling"
    else
        tap_fail "the linear-growth bound fails a quadratic stand-in" "cannot compile the stand-in with ${CC:-cc}"
    fi
    for spec in regspec/*.xml; do
        ri=$(bench/instructions "$REGC" --check "$spec")
        xi=$(bench/instructions xmllint --noout "$spec")
        under_bound "instruction budget of $spec" "$ri" "$xi" 15 \
            "instructions on $spec: regc --check $((ri / 1000000))M < 15 x xmllint $((xi / 1000000))M" \
            "regc $ri, xmllint $xi instructions: ratio over 15"
    done
fi
tap_done
