#!/usr/bin/env bash
# tests/header/run-compile.sh - the compile matrix of the generated C headers.
#
# Every header output in generated/ (generated/<spec>.h for a regspec/<spec>.xml)
# and the golden header tests/golden/features.h.expected, compiled by
# tests/header/probe.c in each configuration below under
#   -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow
#   -Wcast-qual -Wundef -Werror
# One TAP line per header and configuration; a configuration whose compiler
# is missing is skipped with the reason.
#
# Then the constant-expression addresses, NAME_ADDR_C(...) (docs/c-header.md),
# in the same headers and in that of tests/header/addr-const.xml (every shape
# of address, arrays starting at 1 and 2): every name_addr() function has its
# macro; a program written from the header (addr-const-prog.sh) uses each
# macro for every element in a static initializer and in case labels, and
# checks both against the function at run time, as C99, C11 and C++11; and an
# instance or index just outside a register must not compile.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
W="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wcast-qual -Wundef -Werror"

# name | compiler | language | flags
configs=(
    "gcc-c99|gcc|c|-std=c99 -c"
    "gcc-c11|gcc|c|-std=c11 -c"
    "gcc-c2x|gcc|c|-std=c2x -c"
    "clang-c99|clang|c|-std=c99 -c"
    "clang-c11|clang|c|-std=c11 -c"
    "clang-c2x|clang|c|-std=c2x -c"
    "g++-c++11|g++|c++|-std=c++11 -c"
    "g++-c++17|g++|c++|-std=c++17 -c"
    "clang++-c++11|clang++|c++|-std=c++11 -c"
    "clang++-c++17|clang++|c++|-std=c++17 -c"
    "gcc-freestanding-nostdlib|gcc|c|-std=c11 -ffreestanding -nostdlib -static -DPROBE_START"
    "clang-freestanding-nostdlib|clang|c|-std=c11 -ffreestanding -nostdlib -static -DPROBE_START"
    "arm-none-eabi-cortex-m4|arm-none-eabi-gcc|c|-std=c11 -mcpu=cortex-m4 -mthumb -ffreestanding -c"
    "gcc-kernel|gcc|c|-std=gnu11 -D__KERNEL__ -nostdinc -iquote tests/header/kernel -I tests/header/kernel -c"
)

headers=()
for spec in regspec/*.xml; do
    [ -f "$spec" ] || continue
    h=generated/$(basename "$spec" .xml).h
    [ -f "$h" ] && headers+=("$h")
done
if [ -f tests/golden/features.h.expected ]; then
    cp tests/golden/features.h.expected "$tmp/golden_features.h"
    headers+=("$tmp/golden_features.h")
fi
if [ ${#headers[@]} -eq 0 ]; then
    tap_skip "compile matrix" "no generated header and no golden header yet"
    tap_done; exit 0
fi

for h in "${headers[@]}"; do
    label=${h#"$tmp/"}
    for cfg in "${configs[@]}"; do
        IFS='|' read -r name cc lang flags <<<"$cfg"
        if ! command -v "$cc" >/dev/null 2>&1; then
            tap_skip "compile: $label: $name" "$cc not installed"
            continue
        fi
        # shellcheck disable=SC2086
        if "$cc" -x "$lang" $flags $W -DHEADER="\"$(realpath "$h")\"" tests/header/probe.c \
            -o "$tmp/probe.out" 2>"$tmp/err"; then
            tap_ok "compile: $label: $name"
        else
            tap_fail "compile: $label: $name" "$(head -n 8 "$tmp/err")"
        fi
    done
done
# ---------------------------------------------------------------- NAME_ADDR_C
const_configs=(
    "gcc-c99|gcc|c|-std=c99"
    "gcc-c11|gcc|c|-std=c11"
    "g++-c++11|g++|c++|-std=c++11"
    "clang-c99|clang|c|-std=c99"
    "clang-c11|clang|c|-std=c11"
    "clang++-c++11|clang++|c++|-std=c++11"
)
const_headers=("${headers[@]}")
if "$regc" tests/header/addr-const.xml -o "$tmp/addr_const.h" 2>"$tmp/err"; then
    const_headers+=("$tmp/addr_const.h")
else
    tap_fail "addr_c: tests/header/addr-const.xml compiles" "$(head -n 5 "$tmp/err")"
fi

for h in "${const_headers[@]}"; do
    label=${h#"$tmp/"}
    nfn=$(grep -cE '^static inline uint(32|64)_t [a-z0-9_]+_addr\(unsigned' "$h")
    nmac=$(grep -cE '^#define [A-Z0-9_]+_ADDR_C\([a-z, ]+\) \\$' "$h")
    if [ "$nfn" -ne "$nmac" ]; then
        tap_fail "addr_c: $label: every name_addr() has its NAME_ADDR_C()" "$nfn functions, $nmac macros"
        continue
    fi
    tap_ok "addr_c: $label: every name_addr() has its NAME_ADDR_C() ($nmac)"
    bash tests/header/addr-const-prog.sh "$h" >"$tmp/addr_const_prog.c"
    for cfg in "${const_configs[@]}"; do
        IFS='|' read -r name cc lang flags <<<"$cfg"
        if ! command -v "$cc" >/dev/null 2>&1; then
            tap_skip "addr_c: $label: $name" "$cc not installed"
            continue
        fi
        # shellcheck disable=SC2086
        if ! "$cc" -x "$lang" $flags $W -DHEADER="\"$(realpath "$h")\"" "$tmp/addr_const_prog.c" \
            -o "$tmp/addr_const_prog" 2>"$tmp/err"; then
            tap_fail "addr_c: $label: $name: compiles" "$(head -n 8 "$tmp/err")"
        elif ! "$tmp/addr_const_prog" >"$tmp/out" 2>&1; then
            tap_fail "addr_c: $label: $name: the macros equal the functions" "$(head -n 8 "$tmp/out")"
        else
            tap_ok "addr_c: $label: $name: static table and case labels equal the functions ($(cat "$tmp/out"))"
        fi
    done
done

# out of range: a compile error (the array of size -1), where in range compiles
range_headers=("$tmp/addr_const.h")
[ -f "$tmp/golden_features.h" ] && range_headers+=("$tmp/golden_features.h")
for h in "${range_headers[@]}"; do
    [ -f "$h" ] || continue
    label=${h#"$tmp/"}
    for cfg in "gcc-c11|gcc|c|-std=c11" "g++-c++11|g++|c++|-std=c++11"; do
        IFS='|' read -r name cc lang flags <<<"$cfg"
        if ! command -v "$cc" >/dev/null 2>&1; then
            tap_skip "addr_c: $label: $name: out of range" "$cc not installed"
            continue
        fi
        bad=()
        while IFS='|' read -r -a f; do
            stem=${f[0]}
            for ((k = 1; k < ${#f[@]}; k++)); do
                printf '#include "%s"\nstatic const unsigned long long x = %s_ADDR_C(%s);\nint main(void) { return (int)(x & 0u); }\n' \
                    "$(realpath "$h")" "$stem" "${f[k]}" >"$tmp/range.c"
                # shellcheck disable=SC2086
                "$cc" -x "$lang" $flags $W "$tmp/range.c" -o "$tmp/range" 2>"$tmp/err"
                rc=$?
                if [ "$k" -eq 1 ] && [ "$rc" -ne 0 ]; then
                    bad+=("$stem(${f[k]}) in range does not compile: $(head -n 1 "$tmp/err")")
                elif [ "$k" -gt 1 ] && { [ "$rc" -eq 0 ] || ! grep -qi negative "$tmp/err"; }; then
                    bad+=("$stem(${f[k]}) out of range: exit $rc, $(grep -i error "$tmp/err" | head -n 1)")
                fi
            done
        done < <(bash tests/header/addr-const-prog.sh --ranges "$h")
        if [ ${#bad[@]} -eq 0 ]; then
            tap_ok "addr_c: $label: $name: an instance or index outside the register does not compile"
        else
            tap_fail "addr_c: $label: $name: an instance or index outside the register does not compile" "${bad[@]}"
        fi
    done
done
tap_done
