#!/usr/bin/env bash
# run-bench-overhead.sh - bench/overhead.sh (`make bench`) still runs: a row for every block of
# both E5 families with general counters, and per interval regctl reads at least the minimum
# (one read per counter: what a poll cannot do without), counted from the msr and pci
# backends' system calls. A few intervals only; no time is judged.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${BUILD:=build}"
out=$(BUILD=$BUILD N=2 T=2 REGCTL=${REGCTL:-$BUILD/regctl} bash bench/overhead.sh 2>&1)
rc=$?
if [ $rc = 0 ]; then tap_ok "bench/overhead.sh runs"; else tap_fail "bench/overhead.sh runs" "$(echo "$out" | tail -5)"; fi
for spec in e5_2600 e5_2600v2; do
    want=$(python3 -c '
import json, sys
m = json.load(open("generated/%s.json" % sys.argv[1]))
print(" ".join(b["name"] for b in m["blocks"] if b["events"] and any(c["kind"] == "general" for c in (b["pmon"] or {}).get("counters", []))))' "$spec")
    got=$(echo "$out" | awk -v s="$spec" '$1 == s {print $2}' | tr '\n' ' ')
    if [ "$got" = "$want " ]; then tap_ok "$spec: a row for every block with counters ($want)"
    else tap_fail "$spec: a row for every block with counters" "want: $want" "got: $got"; fi
done
if echo "$out" | grep -q "no access counts"; then
    tap_skip "reads per interval reach the minimum" "$(echo "$out" | grep "no access counts" | head -1)"
else
    bad=$(echo "$out" | awk '$1 ~ /^e5_/ && ($6 == "-" || $6 + 0 < $8 + 0) {print}')
    if [ -z "$bad" ] && echo "$out" | grep -q '^e5_2600v2 '; then tap_ok "reads per interval reach the minimum (one per counter)"
    else tap_fail "reads per interval reach the minimum" "$bad"; fi
fi
tap_done
