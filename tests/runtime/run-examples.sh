#!/usr/bin/env bash
# run-examples.sh - the examples/ programs against the simulator: the
# firmware-style flow counts exactly and calls nothing outside itself, the
# libregrt sampling program reports every overflow. (The kernel module of
# examples/kernel/ is built by tests/header/run-kmod.sh.)
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${BUILD:=build}"
ex=$BUILD/examples

out=$("$ex/firmware_ubox" 2>&1)
if [ $? = 0 ] && [ "$out" = "doorbells: 1234" ]; then tap_ok "firmware_ubox counts 1234 doorbells"
else tap_fail "firmware_ubox counts 1234 doorbells" "$out"; fi

# the flow alone, freestanding: no undefined symbol means no libc or library call
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if ${CC:-cc} -std=c11 -O2 -ffreestanding -DFIRMWARE_FLOW_ONLY -Wall -Wno-unused-function -Igenerated \
    -c -o "$tmp/fw.o" examples/firmware_ubox.c 2>"$tmp/err"; then
    undef=$(nm -u "$tmp/fw.o" | grep -v '^ *$')
    if [ -z "$undef" ]; then tap_ok "firmware flow: freestanding, no external calls"
    else tap_fail "firmware flow: freestanding, no external calls" "$undef"; fi
else
    tap_fail "firmware flow compiles freestanding" "$(head -3 "$tmp/err")"
fi

out=$("$ex/sample_qpi" 1000 2>&1)
rc=$?
n=$(printf '%s\n' "$out" | grep -c '^round .*: overflow of ')
if [ $rc = 0 ] && [ "$n" = 10 ] && printf '%s\n' "$out" | grep -q 'TxL_FLITS_G0.DATA: 5010 events, 5 overflows'; then
    tap_ok "sample_qpi: both counters overflow in every round, exact totals"
else
    tap_fail "sample_qpi: both counters overflow in every round, exact totals" "exit $rc" "$out"
fi

tap_done
