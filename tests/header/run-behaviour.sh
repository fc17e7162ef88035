#!/usr/bin/env bash
# tests/header/run-behaviour.sh - behaviour of the generated C headers.
#
# For every spec (regspec/*.xml and tests/golden/features.xml): render its
# header with -t c and tests/header/selftest.mustache into selftest.c, compile
# and run it. The self-test checks, for every register and field, set/get
# round trips at 0, 1 and max, that out-of-range values stay inside the field,
# that field masks are disjoint and with the reserved/ignored masks cover the
# access size, resets, every copy's address, the safe-write helper, every
# event encoding, and that each rule stays silent on the reset value and fires
# on some value of a brute-force search (docs/c-header.md). One TAP line per
# spec and check category.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${REGC:=build/regc}" "${CC:=cc}"
tap_setup tmp

# UBSan catches shifts past the width in the accessors, when the compiler has it.
san=""
echo 'int main(void){return 0;}' >"$tmp/probe.c"
if "$CC" -fsanitize=undefined -fno-sanitize-recover=all "$tmp/probe.c" -o "$tmp/probe" 2>/dev/null; then
    san="-fsanitize=undefined -fno-sanitize-recover=all"
fi

for spec in regspec/*.xml tests/golden/features.xml; do
    [ -f "$spec" ] || continue
    name=$(basename "$spec" .xml)
    d=$tmp/$name; mkdir -p "$d"
    if ! "$REGC" -t c "$spec" -o "$d/$name.h" 2>"$d/err" ||
        ! "$REGC" -t tests/header/selftest.mustache "$spec" -o "$d/selftest.c" 2>>"$d/err"; then
        tap_fail "behaviour: $name: render" "$(head -n 5 "$d/err")"
        continue
    fi
    # shellcheck disable=SC2086
    if ! "$CC" -std=c11 -O1 -Wall -Wextra -Werror $san -iquote "$d" -DSELFTEST_HEADER="\"$name.h\"" \
        "$d/selftest.c" -o "$d/selftest" 2>"$d/err"; then
        tap_fail "behaviour: $name: compile selftest.c" "$(head -n 10 "$d/err")"
        continue
    fi
    if [ "$name" = e5_2600 ]; then
        if "$CC" -std=c11 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Werror \
            -iquote "$d" -c tests/header/example-driver.c -o "$d/example.o" 2>"$d/err"; then
            tap_ok "behaviour: the example of docs/c-header.md compiles"
        else
            tap_fail "behaviour: the example of docs/c-header.md compiles" "$(head -n 10 "$d/err")"
        fi
    fi
    "$d/selftest" >"$d/out" 2>&1
    rc=$?
    while read -r verdict cat count; do
        case $verdict in
        PASS) tap_ok "behaviour: $name: $cat ($count checks)" ;;
        FAIL) tap_fail "behaviour: $name: $cat ($count failed)" \
            "$(grep '^not ok' "$d/out" | head -n 10)" ;;
        esac
    done < <(grep -E '^(PASS|FAIL) ' "$d/out")
    if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$d/out"; then
        tap_fail "behaviour: $name: selftest exited with $rc" "$(tail -n 5 "$d/out")"
    fi
done
tap_done
