#!/usr/bin/env bash
# tests/svd/run-cmsis.sh - the compile matrix of -t cmsis and -t cmsis-enum (docs/svd.md, "The
# CMSIS header", "The enum form"): for every file of the CMSIS-SVD test set (../shared/svd:
# corpus/*/*.svd and vendor-headers/nordic/*.svd), tests/svd/features.svd, cmsis-layout.svd,
# cmsis-names.svd, cmsis-enum.svd and cmsis-derive-order.svd, each header regc writes compiles with -Wall -Wextra -Wpedantic
# -Werror under gcc and clang (-std=c99, -std=c11), g++ -std=c++17 and
# arm-none-eabi-gcc for a Cortex-M4: each compile evaluates the header's own
# asserts of every member offset and struct size for that compiler's ABI. A
# compiler the machine lacks is a skip with the reason. REGC_SVD_DATA names the
# test set (default ../shared/svd from the repository root). Also: -t cmsis on a
# spec with msr or pci registers is refused with a message naming the space, and
# writes nothing.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

compilers=(
    "gcc -std=c99 -x c"
    "gcc -std=c11 -x c"
    "clang -std=c99 -x c"
    "clang -std=c11 -x c"
    "g++ -std=c++17 -x c++"
    "arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -ffreestanding -std=c11 -x c"
)

# One file through every compiler, for each template: one result per compiler and template.
matrix() {   # label path
    local t
    for t in cmsis cmsis-enum; do
        matrix_one "$1" "$2" "$t"
    done
}

matrix_one() {   # label path template
    local label="$1 (-t $3)" b
    b=$(basename "$2" .svd)
    if ! "$regc" "$2" -t "$3" -o "$tmp/cmsis_$b.h" 2>"$tmp/$b.err"; then
        tap_fail "$label: regc -t $3" "$(head -n 3 "$tmp/$b.err")"
        return
    fi
    printf '#include "cmsis_%s.h"\nint regc_cmsis_use(void);\nint regc_cmsis_use(void) { return 0; }\n' \
        "$b" >"$tmp/$b.src"
    local cc
    for cc in "${compilers[@]}"; do
        local name="$label: the CMSIS header compiles ($cc -Wall -Wextra -Wpedantic -Werror)"
        if ! command -v "${cc%% *}" >/dev/null 2>&1; then
            tap_skip "$name" "${cc%% *} is not installed (tools/install-deps.sh)"
            continue
        fi
        # shellcheck disable=SC2086 # the compiler and its options are words
        if $cc -Wall -Wextra -Wpedantic -Werror -I"$tmp" -c -o "$tmp/out.o" "$tmp/$b.src" \
            2>"$tmp/cc.err"; then
            tap_ok "$name"
        else
            tap_fail "$name" "$(grep -m 3 -E 'error' "$tmp/cc.err")"
        fi
    done
    rm -f "$tmp/cmsis_$b.h" "$tmp/out.o"
}

matrix tests/svd/features.svd tests/svd/features.svd
matrix tests/svd/cmsis-layout.svd tests/svd/cmsis-layout.svd
matrix tests/svd/cmsis-names.svd tests/svd/cmsis-names.svd
matrix tests/svd/cmsis-enum.svd tests/svd/cmsis-enum.svd
matrix tests/svd/cmsis-derive-order.svd tests/svd/cmsis-derive-order.svd

. tests/svd/testset.sh
if [ ! -d "$svd/corpus" ]; then
    tap_skip "SVD test set" "$svd_why"
else
    for f in $(svd_files); do
        matrix "$f" "$svd/$f"
    done
fi

# An msr or a pci spec: refused, the space named, no output.
for spec in regspec/*.xml; do
    out="$tmp/$(basename "$spec" .xml).h"
    "$regc" "$spec" -t cmsis -o "$out" 2>"$tmp/err"
    st=$?
    if [ "$st" -eq 1 ] && [ ! -e "$out" ] &&
        grep -qE "error: -t cmsis describes memory-mapped registers: register '[^']+' of block '[^']+' is in space '(msr|pci)'" "$tmp/err"; then
        tap_ok "$spec: -t cmsis refused (status 1), the space named, nothing written"
    else
        tap_fail "$spec: -t cmsis refused" "status $st" "$(head -n 2 "$tmp/err")"
    fi
done
tap_done
