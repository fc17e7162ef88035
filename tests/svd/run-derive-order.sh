#!/usr/bin/env bash
# tests/svd/run-derive-order.sh - derivedFrom in any order (compiler/derive.c, svd_derive.c):
# tests/svd/derive-order.svd names, by path, a register of a peripheral derived from one later in
# the file (A.R: B.X, B from C) and one in a cluster derived from a later one (A.S: C.G.Y, G from
# H), and a peripheral D derived from a later E whose register Q names D.C, so D's registers are
# looked up (and indexed, derive.c) before D takes E's, and again after (D.A: B, a register of E),
# and two registers F.X (one in alternateGroup G, kept as X_G) where F.Y's base is the first, so
# the second, derived from F.Y, closes no cycle.
# It reads without a diagnostic, each derived register has its base's field (worked out by hand:
# A.R has ON [3:0], A.S has UP [7:4], D.A and E's B have BF [1:0], E.Q has CF [9:8], D's own Q,
# which replaces E's, QF [5:4], F.Y and F.X have XA [0:0]; D has A, B, C and Q once each; field
# F.Z.WF, derived from F.Z.ZF, has its own values only, TWO = 2),
# and its -t regspec, whose derived-from= keep the paths, compiles without a diagnostic (the
# regspec check looks them up as the reader does).
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
regs = {b["name"] + "." + r["name"]: r for b in d["blocks"] for r in b["registers"]}
names = ("A.R", "A.S", "D.A", "D.Q", "E.Q", "F.X", "F.Y")
got = {n: [(f["name"], f["lsb"], f["msb"]) for f in regs[n]["fields"] if f["name"] != "gap"] for n in names}
got["F.Z.WF"] = [(v["name"], v["value"]) for f in regs["F.Z"]["fields"] if f["name"] == "WF" for v in f["values"]]
got["D"] = sorted(r["name"] for b in d["blocks"] for r in b["registers"] if b["name"] == "D")
want = {"A.R": [("ON", 0, 3)], "A.S": [("UP", 4, 7)], "D.A": [("BF", 0, 1)], "D.Q": [("QF", 4, 5)],
        "D": ["A", "B", "C", "Q"], "F.Z.WF": [("TWO", "0x2")],
        "E.Q": [("CF", 8, 9)], "F.X": [("XA", 0, 0)], "F.Y": [("XA", 0, 0)]}
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
