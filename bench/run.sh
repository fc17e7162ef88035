#!/usr/bin/env bash
# bench/run.sh - `make bench`: regc against libxml2's bare parse, in one run.
#
# Generates synthetic specs at 1/8, 1/4, 1/2 and full size (64 blocks x 32
# registers x 16 fields), then times `regc -t c` and `xmllint --noout` on
# each and prints the ratios (time and peak memory) and how regc's time grows.
# Other benchmarks (bench/*.sh other than this one) run afterwards.
set -eu
cd "$(dirname "$0")/.."
: "${REGC:=build/regc}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

printf '%-8s %9s %10s %10s %9s %10s %10s %8s %8s\n' size fields MB "regc s" "regc MB" \
    "xmllint s" "xmllint MB" "t ratio" "m ratio"
base_t=""
for frac in 8 4 2 1; do
    blocks=$((64 / frac))
    spec=$tmp/bench-$frac.xml
    python3 bench/gen-spec.py "$blocks" 32 16 >"$spec"
    mb=$(awk -v b="$(stat -c %s "$spec")" 'BEGIN{printf "%.1f", b/1048576}')
    read -r xt xm xs < <(python3 bench/measure.py xmllint --noout "$spec")
    read -r rt rm rs < <(python3 bench/measure.py "$REGC" -t c "$spec" -o "$tmp/out.h")
    [ "$rs" = 0 ] || { echo "regc failed on $spec" >&2; "$REGC" -t c "$spec" -o "$tmp/out.h" | head >&2; exit 1; }
    [ -n "$base_t" ] || base_t=$rt
    awk -v f="1/$frac" -v n=$((blocks * 32 * 16)) -v mb="$mb" -v rt="$rt" -v rm="$rm" -v xt="$xt" -v xm="$xm" \
        'BEGIN{printf "%-8s %9d %10s %10.3f %9.1f %10.3f %10.1f %8.2f %8.2f\n", f, n, mb, rt, rm/1024, xt, xm/1024, rt/xt, rm/xm}'
done
echo "(t ratio and m ratio: regc / xmllint --noout on the same file; target: within 2x, growing linearly)"
for b in bench/*.sh; do
    [ "$b" = bench/run.sh ] && continue
    echo; echo "== $b"; bash "$b"
done
