#!/usr/bin/env bash
# tests/runtime/run-rules.sh - libregrt evaluates every rule of every spec as
# the generated C header checks it.
#
# The descriptor tables carry each rule as postfix ops (the compiler's
# expr_to_rpn, evaluated by regc_rule_eval); the header carries it as a C
# expression (the compiler's expr_render_c). For each spec with rules,
# tests/runtime/rules.mustache renders a program that evaluates both on a
# search over each field's candidate values and on pseudo-random values, and
# fails on the first disagreement. One TAP line per spec; data/rules_ops.xml
# uses every operator of the language.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${REGC:=build/regc}" "${CC:=cc}" "${BUILD:=build}"
tap_setup tmp
# a libregrt built with the sanitizers (make check SAN=1) links only with them
san=""
[ "${SAN:-}" = 1 ] && san="-fsanitize=address,undefined -fno-sanitize-recover=all"

for spec in regspec/*.xml tests/golden/features.xml tests/runtime/data/rules_ops.xml; do
    grep -q '<rule ' "$spec" || continue
    name=$(basename "$spec" .xml)
    d=$tmp/$name; mkdir -p "$d"
    if ! "$REGC" -t c "$spec" -o "$d/$name.h" 2>"$d/err" ||
        ! "$REGC" -t tables "$spec" -o "$d/${name}_tables.h" 2>>"$d/err" ||
        ! "$REGC" -t tests/runtime/rules.mustache "$spec" -o "$d/rules.c" 2>>"$d/err"; then
        tap_fail "rules: $name: render" "$(head -n 5 "$d/err")"
        continue
    fi
    # shellcheck disable=SC2086
    if ! "$CC" -std=c11 -O1 -Wall -Wextra -Werror $san -iquote "$d" -Iruntime/include \
        -DRULES_HEADER="\"$name.h\"" -DRULES_TABLES="\"${name}_tables.h\"" -DRULES_SPEC="${name}_spec" \
        "$d/rules.c" -o "$d/rules" "$BUILD/libregrt.a" 2>"$d/err"; then
        tap_fail "rules: $name: compile" "$(head -n 10 "$d/err")"
        continue
    fi
    if "$d/rules" >"$d/out" 2>&1 && grep -q '^PASS rules' "$d/out"; then
        tap_ok "rules: $name: libregrt agrees with the header ($(sed -n 's/^PASS rules //p' "$d/out") evaluations)"
    else
        tap_fail "rules: $name: libregrt disagrees with the header" "$(head -n 10 "$d/out")"
    fi
done
tap_done
