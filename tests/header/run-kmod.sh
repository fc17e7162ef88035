#!/usr/bin/env bash
# tests/header/run-kmod.sh - examples/kernel/ builds as a real out-of-tree
# kernel module: kbuild against the kernel's headers, W=1, no warning, with
# the generated header as committed (generated/e5_2600v2.h).
#
# The headers are the ones examples/kernel/Makefile finds (`make kdir`): $KDIR,
# else the running kernel's build directory, else the newest Debian
# linux-headers-*-ARCH under /usr/src (tools/install-deps.sh installs
# linux-headers-ARCH); that lookup is checked first on made-up trees. The
# build is skipped, with the Makefile's reason, when there are none.
# Loading the module needs Xeon E5-2600 v2 hardware; this only builds it and
# reads its device table.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup tmp
unset MAKEFLAGS MFLAGS

# the lookup, on made-up trees: lookup NAME STATUS WANT-STDOUT STDERR-PATTERN ("": none) VAR=VALUE...
lookup() {
    local name=$1 want_st=$2 want=$3 pattern=$4; shift 4
    local out st
    out=$(make -s --no-print-directory -C examples/kernel kdir KERNEL_RELEASE=6.9.0-test \
        KERNEL_MODULES="$tmp/fake/modules" KERNEL_SRC="$tmp/fake/src" "$@" 2>"$tmp/lookup.err")
    st=$?
    if [ "$st" = "$want_st" ] && [ "$out" = "$want" ] &&
        if [ -z "$pattern" ]; then [ ! -s "$tmp/lookup.err" ]; else grep -qE "$pattern" "$tmp/lookup.err"; fi; then
        tap_ok "$name"
    else
        tap_fail "$name" "status $st (want $want_st), stdout '$out' (want '$want')" "$(cat "$tmp/lookup.err")"
    fi
}
arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
mkdir -p "$tmp/fake/src" "$tmp/fake/modules"
lookup "examples/kernel: no headers anywhere: says what to install" 2 "" \
    "install the running kernel's headers \(Debian: apt-get install linux-headers-6\.9\.0-test, or linux-headers-$arch for the newest\), or set KDIR=DIR"
for v in 6.1.0-9 6.1.0-10 6.1.0-2; do
    mkdir -p "$tmp/fake/src/linux-headers-$v-$arch"; : >"$tmp/fake/src/linux-headers-$v-$arch/Makefile"
done
mkdir -p "$tmp/fake/src/linux-headers-6.1.0-99-common"    # no -ARCH: not a build directory
lookup "examples/kernel: no headers for the running kernel: the newest installed, and a note" 0 \
    "$tmp/fake/src/linux-headers-6.1.0-10-$arch" "not the running kernel's headers \(6\.9\.0-test\): the module will not load"
mkdir -p "$tmp/fake/modules/6.9.0-test/build"; : >"$tmp/fake/modules/6.9.0-test/build/Makefile"
lookup "examples/kernel: the running kernel's headers first, no note" 0 "$tmp/fake/modules/6.9.0-test/build" ""
lookup "examples/kernel: KDIR without headers: an error naming it" 2 "" "no kernel headers in KDIR=$tmp/fake/none" \
    KDIR="$tmp/fake/none"

kdir=$(make -s --no-print-directory -C examples/kernel kdir 2>"$tmp/kdir.err")
if [ $? -ne 0 ]; then
    tap_skip "kernel module: kbuild" "$(sed -n 's/^examples\/kernel: //p' "$tmp/kdir.err" | head -n 1)"
    tap_done; exit 0
fi

cp examples/kernel/* "$tmp/"
# the example's own Makefile, as a user runs it; kbuild's output and the compiler's: any
# "warning:" fails
if make -C "$tmp" KDIR="$kdir" W=1 REGC_GENERATED="$PWD/generated" >"$tmp/log" 2>&1 &&
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
