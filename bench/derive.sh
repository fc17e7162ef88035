#!/usr/bin/env bash
# bench/derive.sh - derived-from= chains in a regspec (compiler/xmlderive.c):
# `regc --check` against `xmllint --noout` on the same file, and how regc's
# time grows when the spec doubles.
#
# The spec (written here) is one memory-mapped block of REGS registers
# (default 3,000 and twice that), each derived from the next, in chains of
# CHAIN (default 200): every register's chain of bases is followed to its
# end to find cycles and over-long chains. xmlderive.c looks each derived
# object's base up once, however many chains pass through it; without that,
# each register walks its whole chain again and the time grows with
# REGS x CHAIN (docs/performance.md, "Derivation chains"). One line a size:
# registers, file size, regc's wall and CPU time, xmllint's, the ratio (t x)
# and regc's time over the previous size (t grow: 2.00 is linear, 4.00
# quadratic). Reported, never judged. REGC (default build/regc) names the
# binary; MEASURE (default `python3 bench/measure.py`) as in bench/svd.sh.
set -eu
cd "$(dirname "$0")/.."
: "${REGC:=build/regc}" "${REGS:=3000}" "${CHAIN:=200}" "${MEASURE:=python3 bench/measure.py}"
[ -x "$REGC" ] || { echo "bench-derive: $REGC not found: run make first" >&2; exit 1; }
command -v xmllint >/dev/null || { echo "bench-derive: xmllint not found (package libxml2-utils)" >&2; exit 1; }
for v in REGS CHAIN; do
    case ${!v} in *[!0-9]* | "" | 0) echo "bench-derive: $v must be a positive number (got '${!v}')" >&2; exit 1 ;; esac
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# One block, registers R0..R(n-1) 4 bytes apart; Ri derives from R(i+1) but at a chain's end.
gen() {
    local n=$1
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo '<regspec name="chains" prefix="CH" version="1" block-names="true">'
    echo '  <source id="s" title="generated derivation chains" rev="1"/>'
    echo '  <device name="CHAINS" address-unit-bits="8" width="32"><desc>chains</desc></device>'
    echo '  <block name="B">'
    echo '    <instance name="B0" base="0x40000000"/>'
    awk -v n="$n" -v chain="$CHAIN" 'BEGIN {
        for (i = 0; i < n; i++) {
            d = (i + 1) % chain != 0 && i + 1 < n ? sprintf(" derived-from=\"R%d\"", i + 1) : ""
            printf "    <register name=\"R%d\" space=\"mmio\" address=\"0x%X\" width=\"32\" src=\"s\"%s>\n", i, 4 * i, d
            printf "      <field name=\"F\" bits=\"31:0\" access=\"read-write\"/>\n    </register>\n"
        } }'
    echo '  </block>'
    echo '</regspec>'
}

printf '%7s %6s | %7s %7s | %7s | %6s %6s\n' regs MB "regc s" "cpu s" "xml s" "t x" "t grow"
prev=""
for n in "$REGS" $((REGS * 2)); do
    spec=$tmp/chains-$n.xml
    gen "$n" >"$spec"
    read -r xt _ xs _ < <($MEASURE --cpu xmllint --noout "$spec")
    read -r rt _ rs rc < <($MEASURE --cpu "$REGC" --check "$spec")
    [ "$xs" = 0 ] && [ "$rs" = 0 ] || { echo "bench-derive: a run failed on $spec" >&2; "$REGC" --check "$spec" 2>&1 | head -5 >&2; exit 1; }
    awk -v n="$n" -v b="$(stat -c %s "$spec")" -v rt="$rt" -v rc="$rc" -v xt="$xt" -v p="$prev" 'BEGIN {
        printf "%7d %6.1f | %7.3f %7.3f | %7.3f | %6.2f %6s\n", n, b / 1048576, rt, rc, xt, rt / xt,
            p == "" ? "-" : sprintf("%.2f", rt / p) }'
    prev=$rt
done
echo "(chains of $CHAIN registers; t x: regc --check's wall time over xmllint --noout's; t grow: over the previous size, 2.00 = linear)"
