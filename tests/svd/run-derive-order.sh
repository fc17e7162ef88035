#!/usr/bin/env bash
# tests/svd/run-derive-order.sh - derivedFrom in any order (compiler/derive.c, svd_derive.c):
# tests/svd/derive-order.svd names, by path, a register of a peripheral derived from one later in
# the file (A.R: B.X, B from C) and one in a cluster derived from a later one (A.S: C.G.Y, G from
# H). It reads without a diagnostic, each derived register has its base's field (worked out by
# hand: R has ON [3:0], S has UP [7:4]), and its -t regspec, whose derived-from= keep the paths,
# compiles without a diagnostic (the regspec check looks them up as the reader does).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
svd=tests/svd/derive-order.svd

if "$regc" "$svd" -t json -o "$tmp/ord.json" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
    tap_ok "derive-order.svd: read without a diagnostic"
else
    tap_fail "derive-order.svd: read without a diagnostic" "$(head -n 5 "$tmp/err")"
fi
if python3 - "$tmp/ord.json" >"$tmp/py" 2>&1 <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
regs = {r["name"]: r for b in d["blocks"] for r in b["registers"] if b["name"] == "A"}
got = {n: [(f["name"], f["lsb"], f["msb"]) for f in regs[n]["fields"] if f["name"] != "gap"] for n in ("R", "S")}
want = {"R": [("ON", 0, 3)], "S": [("UP", 4, 7)]}
print(f"got {got}, expected {want}")
sys.exit(0 if got == want else 1)
PY
    tap_ok "derive-order.svd: each register has its base's field"
else
    tap_fail "derive-order.svd: each register has its base's field" "$(head -n 5 "$tmp/py")"
fi
if "$regc" "$svd" -t regspec -o "$tmp/ord.xml" 2>"$tmp/err" && grep -q 'derived-from="C.G.Y"' "$tmp/ord.xml" &&
    "$regc" "$tmp/ord.xml" --check 2>>"$tmp/err" && [ ! -s "$tmp/err" ]; then
    tap_ok "derive-order.svd: its -t regspec, paths kept, compiles without a diagnostic"
else
    tap_fail "derive-order.svd: its -t regspec, paths kept, compiles without a diagnostic" "$(head -n 5 "$tmp/err")"
fi
tap_done
