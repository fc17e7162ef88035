#!/usr/bin/env bash
# tests/header/run-levels.sh - the generated headers' r_write_value() keeps levels (the box
# freeze) as read, as regctl --rmw does: tests/header/levels.c, compiled against the E5-2600 and
# E5-2600 v2 headers rendered now and run, checks each written value against the manuals' bits.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${REGC:=build/regc}" "${CC:=cc}"
tap_setup tmp

for spec in e5_2600 e5_2600v2; do
    if ! "$REGC" -t c "regspec/$spec.xml" -o "$tmp/$spec.h" 2>"$tmp/err"; then
        tap_fail "levels: render $spec.h" "$(head -n 5 "$tmp/err")"
        tap_done
        exit 0
    fi
done
if ! "$CC" -std=c11 -Wall -Wextra -Werror -iquote "$tmp" tests/header/levels.c -o "$tmp/levels" \
    2>"$tmp/err"; then
    tap_fail "levels: compile levels.c" "$(head -n 10 "$tmp/err")"
    tap_done
    exit 0
fi
"$tmp/levels" >"$tmp/out" 2>&1
rc=$?
while IFS= read -r line; do
    case $line in
    "ok "*) tap_ok "levels: ${line#ok * - }" ;;
    "not ok "*) tap_fail "levels: ${line#not ok * - }" ;;
    esac
done <"$tmp/out"
[ "$rc" = 0 ] || tap_fail "levels: levels.c exit status $rc"
tap_done
