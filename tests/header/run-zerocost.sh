#!/usr/bin/env bash
# tests/header/run-zerocost.sh - the generated accessors cost nothing at -O2.
#
# tests/header/zerocost/generated.c uses the golden header's accessors,
# handwritten.c does the same with masks and shifts typed by hand. Both are
# compiled at -O2 for x86-64 by gcc and clang and disassembled (objdump -d);
# for each function, one TAP line: the normalised instruction lists must be
# equal. Normalising drops addresses, alignment padding (nop) and register
# names, and sorts the list, because a compiler may schedule or allocate
# registers differently for the same work; what remains - every instruction
# with its immediates - must match, so the accessors add no instruction, no
# call and no extra mask.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup tmp

if [ "$(uname -m)" != x86_64 ]; then
    tap_skip "zero cost" "not an x86-64 machine"; tap_done; exit 0
fi
if ! command -v objdump >/dev/null 2>&1; then
    tap_skip "zero cost" "objdump not installed"; tap_done; exit 0
fi
if [ ! -f tests/golden/features.h.expected ]; then
    tap_fail "zero cost" "tests/golden/features.h.expected missing"; tap_done; exit 0
fi
cp tests/golden/features.h.expected "$tmp/golden_features.h"

# normalise FILE.o FUNCTION: one instruction per line, registers as R, sorted
normalise() {
    objdump -d --no-show-raw-insn "$1" |
        awk -v fn="<$2>:" '$2 == fn { on = 1; next } /^$/ { on = 0 } on' |
        sed -e 's/^ *[0-9a-f]*:[[:space:]]*//' -e 's/[[:space:]]*#.*$//' -e 's/%[a-z0-9]*/R/g' \
            -e 's/[[:space:]]\+/ /g' |
        grep -vE '^(nop|xchg R,R|cs nop|data16|$)' | sort
}

funcs=$(grep -oE '^[a-z0-9_]+ \**zc_[a-z_]+\(' tests/header/zerocost/generated.c |
    sed -E 's/.*(zc_[a-z_]+)\(/\1/' | sort -u)
for cc in gcc clang; do
    if ! command -v "$cc" >/dev/null 2>&1; then
        tap_skip "zero cost: $cc" "$cc not installed"; continue
    fi
    if ! "$cc" -std=c11 -O2 -c -iquote "$tmp" tests/header/zerocost/generated.c -o "$tmp/gen.o" 2>"$tmp/err" ||
        ! "$cc" -std=c11 -O2 -c tests/header/zerocost/handwritten.c -o "$tmp/hand.o" 2>>"$tmp/err"; then
        tap_fail "zero cost: $cc: compile" "$(head -n 8 "$tmp/err")"; continue
    fi
    for f in $funcs; do
        normalise "$tmp/gen.o" "$f" >"$tmp/gen.$f"
        normalise "$tmp/hand.o" "$f" >"$tmp/hand.$f"
        if [ ! -s "$tmp/gen.$f" ]; then
            tap_fail "zero cost: $cc: $f" "no instructions found for $f"
        else
            tap_diff "zero cost: $cc: $f ($(wc -l <"$tmp/gen.$f") instructions)" "$tmp/hand.$f" "$tmp/gen.$f"
        fi
    done
done
tap_done
