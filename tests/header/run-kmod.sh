#!/usr/bin/env bash
# tests/header/run-kmod.sh - examples/kernel/ builds as a real out-of-tree
# kernel module: kbuild against the kernel's headers, W=1, no warning, with
# the generated header as committed (generated/e5_2600v2.h).
#
# The headers: $KDIR, else the running kernel's build directory, else the
# newest Debian linux-headers-*-ARCH under /usr/src (tools/install-deps.sh
# installs linux-headers-ARCH). Skipped, with the reason, when there are none.
# Loading the module needs Xeon E5-2600 v2 hardware; this only builds it and
# reads its device table.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup tmp

kdir=${KDIR:-}
if [ -z "$kdir" ] && [ -f "/lib/modules/$(uname -r)/build/Makefile" ]; then
    kdir=/lib/modules/$(uname -r)/build
fi
if [ -z "$kdir" ]; then
    arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
    kdir=$(ls -d /usr/src/linux-headers-*-"$arch" 2>/dev/null | sort -V | tail -n 1)
fi
if [ -z "$kdir" ] || [ ! -f "$kdir/Makefile" ]; then
    tap_skip "kernel module: kbuild" "no kernel headers (set KDIR, or install linux-headers-$(dpkg --print-architecture 2>/dev/null || echo ARCH))"
    tap_done; exit 0
fi

cp examples/kernel/* "$tmp/"
# kbuild's own output and the compiler's: any "warning:" fails
if make -C "$kdir" M="$tmp" W=1 REGC_GENERATED="$PWD/generated" modules >"$tmp/log" 2>&1 &&
   [ -f "$tmp/regc_ubox.ko" ]; then
    tap_ok "kernel module: kbuild W=1 against ${kdir##*/} builds regc_ubox.ko"
else
    tap_fail "kernel module: kbuild W=1 against ${kdir##*/} builds regc_ubox.ko" "$(tail -n 15 "$tmp/log")"
fi
if grep -qi "warning:" "$tmp/log"; then
    tap_fail "kernel module: no warning" "$(grep -i -A3 "warning:" "$tmp/log" | head -n 12)"
else
    tap_ok "kernel module: no warning"
fi
# The device table: Intel family 6 model 0x3E only (the kernel's INTEL_FAM6_IVYBRIDGE_X).
# (read from the module's .modinfo section with binutils, as modinfo -F alias would)
if [ -f "$tmp/regc_ubox.ko" ] &&
   objcopy -O binary --only-section=.modinfo "$tmp/regc_ubox.ko" "$tmp/modinfo" 2>/dev/null; then
    alias=$(tr '\0' '\n' <"$tmp/modinfo" | sed -n 's/^alias=//p')
    if [ "$alias" = "cpu:type:x86,ven0000fam0006mod003E:feature:*" ]; then
        tap_ok "kernel module: loads only on Ivy Bridge-EP ($alias)"
    else
        tap_fail "kernel module: loads only on Ivy Bridge-EP" "alias: $alias"
    fi
else
    tap_fail "kernel module: device table" "no module, or no .modinfo section in it"
fi
tap_done
