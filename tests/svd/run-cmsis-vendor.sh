#!/usr/bin/env bash
# tests/svd/run-cmsis-vendor.sh - -t cmsis against the vendor headers of the test set
# (../shared/svd/vendor-headers), each compiled apart from regc's in a program that
# prints what the compiler computes (tests/svd/cmsis_vendor.py writes the programs):
#  - Nordic (nrf51, nrf52840, nrf5340_application, nrf9160: header and SVD from one
#    source): every _Pos, _Msk and named value both headers define has one value; the
#    vendor's _Pos names regc does not write are the reviewed list
#    tests/svd/cmsis-nordic-missing.txt (a new one fails; '#' lines are its comments).
#    Nordic's *_bitfields.h declare no structs, so their layout is checked against ST's:
#  - ST (STM32F401/407/411/429/446: headers maintained apart from the SVD files): for
#    every instance both declare, its base, and for every member both types declare,
#    offsetof and sizeof; the disagreements are the reviewed list
#    tests/svd/cmsis-st-disagreements.txt (findings against the SVD files, with each
#    one's verdict against the reference manual in its '#' lines; a new or a lost one
#    fails).
# REGC_SVD_DATA names the test set (default ../shared/svd from the repository root).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

. tests/svd/testset.sh
svd_need vendor-headers "vendor headers"
if ! command -v python3 >/dev/null 2>&1; then
    tap_skip "vendor headers" "python3 is not installed"
    tap_done
    exit 0
fi
vh=$svd/vendor-headers

# Compiles and runs prog_vendor.c and prog_regc.c of $tmp; their differences in $tmp/diff.
run_pair() {   # label [vendor include dir]
    local side
    for side in vendor regc; do
        if ! gcc -std=c11 -w ${2:+-I"$2"} -I"$tmp" -o "$tmp/prog_$side" "$tmp/prog_$side.c" \
            2>"$tmp/cc.err" || ! "$tmp/prog_$side" >"$tmp/$side.out"; then
            tap_fail "$1: the $side program" "$(grep -m 3 error "$tmp/cc.err")"
            return 1
        fi
    done
    python3 tests/svd/cmsis_vendor.py compare "$tmp/vendor.out" "$tmp/regc.out" >"$tmp/diff"
}

: >"$tmp/missing"
for n in nrf51 nrf52840 nrf5340_application nrf9160; do
    "$regc" "$vh/nordic/$n.svd" -t cmsis -o "$tmp/regc.h" 2>/dev/null ||
        { tap_fail "$n: regc -t cmsis"; continue; }
    count=$(python3 tests/svd/cmsis_vendor.py macros "$vh/nordic/${n}_bitfields.h" "$tmp/regc.h" "$tmp")
    run_pair "$n" || continue
    if [ -s "$tmp/diff" ]; then
        tap_fail "$n: the $count _Pos/_Msk/value macros both headers define agree" "$(head -n 5 "$tmp/diff")"
    elif [ "$count" -lt 1000 ]; then
        tap_fail "$n: the macros both headers define agree" "only $count in common"
    else
        tap_ok "$n: the $count _Pos/_Msk/value macros both headers define agree"
    fi
    grep -oE '^#define [A-Za-z_0-9]+_Pos' "$vh/nordic/${n}_bitfields.h" | sort -u >"$tmp/vp"
    grep -oE '^#define [A-Za-z_0-9]+_Pos' "$tmp/regc.h" | sort -u >"$tmp/rp"
    comm -23 "$tmp/vp" "$tmp/rp" | sed "s/^#define /$n: /" >>"$tmp/missing"
done
grep -v '^#' tests/svd/cmsis-nordic-missing.txt | grep -v '^$' >"$tmp/missing.want"
tap_diff "Nordic _Pos names regc does not write (tests/svd/cmsis-nordic-missing.txt)" \
    "$tmp/missing.want" "$tmp/missing"

# ST's headers include CMSIS's core header and a system header, which the test set lacks.
mkdir -p "$tmp/st"
printf '#define __IO volatile\n#define __I volatile const\n#define __O volatile\n' >"$tmp/st/core_cm4.h"
: >"$tmp/st/system_stm32f4xx.h"
: >"$tmp/found"
for pair in stm32f401xe:STM32F401 stm32f407xx:STM32F407 stm32f411xe:STM32F411 \
    stm32f429xx:STM32F429 stm32f446xx:STM32F446; do
    h=${pair%%:*} s=${pair#*:}
    "$regc" "$svd/corpus/STMicro/$s.svd" -t cmsis -o "$tmp/regc.h" 2>/dev/null ||
        { tap_fail "$s: regc -t cmsis"; continue; }
    count=$(python3 tests/svd/cmsis_vendor.py structs "$vh/st/$h.h" "$tmp/regc.h" "$tmp")
    run_pair "$h" "$tmp/st" || continue
    if [ "$count" -lt 300 ]; then
        tap_fail "$h.h and $s.svd: members both declare" "only $count in common"
    else
        tap_ok "$h.h and $s.svd: $count struct members both declare compared (offset, size)"
    fi
    sed "s|^|$h.h/$s.svd: |" "$tmp/diff" >>"$tmp/found"
done
grep -v '^#' tests/svd/cmsis-st-disagreements.txt | grep -v '^$' >"$tmp/found.want"
tap_diff "ST layout disagreements (tests/svd/cmsis-st-disagreements.txt)" \
    "$tmp/found.want" "$tmp/found"
tap_done
