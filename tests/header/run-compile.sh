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
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup tmp
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
tap_done
