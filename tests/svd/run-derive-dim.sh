#!/usr/bin/env bash
# tests/svd/run-derive-dim.sh - a derived register and a derived peripheral without a dim of their
# own (compiler/svd_derive.c's copy_dim, svdconv's SvdItem::CopyDim): tests/svd/derive-dim.svd's
# M%s takes L%s's dim 3, dimIncrement 4 and dimIndex X,Y,Z; SER%s takes UART%s's 2, 0x1000, A,B;
# K%s and SPI%s, which write a dim of their own, have only their own (SvdDimension::Construct);
# B[%s] takes A[%s]'s array but not its dimArrayIndex (SvdRegister::CopyItem does not copy it);
# N and ONE, derived from one element of a list (LY of L%s, UARTB of UART%s: svdconv's
# SvdItem::FindChildFromItem looks among a dim's elements), take no dim (an element has none); so
# does NM, from MZ of M%s, a list later in the file that takes its dim from its base; so
# do NG, NH, NJ, from G1, HC, J5 of lists indexed by dim alone, "B-C" and "4-5"
# (SvdDimension::CalculateDimIndex). derive-dim-bad.svd's G2, G01 and UARTC name no element.
# Every name and address below is worked out by hand from the file. The file's -t svd reads back
# to the same registers and instances, and so does its -t regspec, which keeps SER%s's
# derivedFrom "UART%s" on SERA and SERB. tests/svd/derive-dim-bad.svd: a derived register N and a
# derived peripheral SOLO whose names lack the %s the dim they take needs (svd-dim, each with a
# note at its base's <dim>, the text written here by hand; svdconv drops such an element: M239).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/same-but-levels.sh
svd=tests/svd/derive-dim.svd

if "$regc" "$svd" -t json -o "$tmp/dd.json" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
    tap_ok "derive-dim.svd: read without a diagnostic"
else
    tap_fail "derive-dim.svd: read without a diagnostic" "$(head -n 5 "$tmp/err")"
fi

# what derive-dim.svd says, by hand: instance -> base address; register -> (offset, count,
# stride, fields, dimArrayIndex name)
cat >"$tmp/want.py" <<'PY'
INSTANCES = {"UARTA": 0x40000000, "UARTB": 0x40001000, "SERA": 0x40010000, "SERB": 0x40011000,
             "SPI0": 0x40020000, "SPI1": 0x40020100, "ONE": 0x40030000}
ON, UP = [("ON", 0, 0)], [("UP", 4, 7)]
REGS = {"LX": (0x00, 1, 0, ON, None), "LY": (0x04, 1, 0, ON, None), "LZ": (0x08, 1, 0, ON, None),
        "MX": (0x20, 1, 0, ON, None), "MY": (0x24, 1, 0, ON, None), "MZ": (0x28, 1, 0, ON, None),
        "K0": (0x30, 1, 0, ON, None), "K1": (0x38, 1, 0, ON, None), "N": (0x60, 1, 0, ON, None),
        "NM": (0x64, 1, 0, ON, None),
        "A": (0x40, 2, 4, UP, "AIdx"), "B": (0x50, 2, 4, UP, None)}
G, H, J = [("GF", 1, 1)], [("HF", 2, 2)], [("JF", 3, 3)]
REGS.update({"G0": (0x70, 1, 0, G, None), "G1": (0x74, 1, 0, G, None), "HB": (0x78, 1, 0, H, None),
             "HC": (0x7C, 1, 0, H, None), "J4": (0x80, 1, 0, J, None), "J5": (0x84, 1, 0, J, None),
             "NG": (0x90, 1, 0, G, None), "NH": (0x94, 1, 0, H, None), "NJ": (0x98, 1, 0, J, None)})
PY
cat >"$tmp/got.py" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[2])
from want import INSTANCES, REGS
d = json.load(open(sys.argv[1]))
inst, regs = {}, {}
for b in d["blocks"]:
    for i in b["instances"]:
        inst[i["name"]] = int(i["base"], 16)
    for r in b["registers"]:
        a = r["array"] or {"count": 1, "stride": "0"}
        ai = r["svd"]["array_index"]
        regs[r["name"]] = (int(r["address"], 16), a["count"], int(a["stride"], 16),
                           [(f["name"], f["lsb"], f["msb"]) for f in r["fields"] if f["name"] != "gap"],
                           ai["enum_name"] if ai else None)
bad = [f"instance {n}: got {inst.get(n)}, expected {v:#x}" for n, v in INSTANCES.items() if inst.get(n) != v]
bad += [f"instances: got {sorted(inst)}"] if sorted(inst) != sorted(INSTANCES) else []
bad += [f"register {n}: got {regs.get(n)}, expected {v}" for n, v in REGS.items() if regs.get(n) != v]
bad += [f"registers: got {sorted(regs)}"] if sorted(regs) != sorted(REGS) else []
print("\n".join(bad) or "as expected")
sys.exit(1 if bad else 0)
PY
if python3 "$tmp/got.py" "$tmp/dd.json" "$tmp" >"$tmp/py" 2>&1; then
    tap_ok "derive-dim.svd: derived lists take their base's dim, own dims stay, no dimArrayIndex, none from an element"
else
    tap_fail "derive-dim.svd: derived lists take their base's dim, own dims stay, no dimArrayIndex, none from an element" \
        "$(head -n 8 "$tmp/py")"
fi

if "$regc" "$svd" -t svd -o "$tmp/dd.svd" 2>"$tmp/err" && "$regc" "$tmp/dd.svd" -t json -o "$tmp/back.json" 2>>"$tmp/err" &&
    [ ! -s "$tmp/err" ] && python3 "$tmp/got.py" "$tmp/back.json" "$tmp" >"$tmp/py" 2>&1; then
    tap_ok "derive-dim.svd: its -t svd reads back to the same registers and instances"
else
    tap_fail "derive-dim.svd: its -t svd reads back to the same registers and instances" \
        "$(cat "$tmp/err" "$tmp/py" 2>/dev/null | head -n 8)"
fi

# -t regspec: SERA and SERB, the instances of SER%s, keep derived-from="UART%s" (the list, as the
# file names it: a regspec's instance of a dim-of= list answers to the list's name too), so the
# regspec compiles without a diagnostic, reads as the file does, and -t svd of it is -t svd of the file
if "$regc" "$svd" -t regspec -o "$tmp/dd.xml" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    "$regc" "$tmp/dd.xml" -t json -o "$tmp/rs.json" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    python3 "$tmp/got.py" "$tmp/rs.json" "$tmp" >"$tmp/py" 2>&1; then
    tap_ok "derive-dim.svd: its -t regspec compiles without a diagnostic, the same registers and instances"
else
    tap_fail "derive-dim.svd: its -t regspec compiles without a diagnostic, the same registers and instances" \
        "$(cat "$tmp/err" "$tmp/py" 2>/dev/null | head -n 8)"
fi
got=$(grep -o '<instance name="SER[AB]"[^>]*derived-from="[^"]*"' "$tmp/dd.xml" 2>/dev/null |
    sed 's/<instance name="\([A-Z]*\)".*derived-from="\([^"]*\)"/\1 \2/' | tr '\n' ' ')
if [ "$got" = "SERA UART%s SERB UART%s " ] && "$regc" "$tmp/dd.xml" -t svd -o "$tmp/rs.svd" 2>/dev/null &&
    svd_same_but_levels "$tmp/dd.svd" "$tmp/rs.svd"; then
    tap_ok "derive-dim.svd -t regspec: SERA and SERB derived-from UART%s; its -t svd is the file's"
else
    tap_fail "derive-dim.svd -t regspec: SERA and SERB derived-from UART%s; its -t svd is the file's" \
        "derived-from: $got" "$(diff "$tmp/dd.svd" "$tmp/rs.svd" 2>&1 | head -n 6)"
fi

cat >"$tmp/bad.err" <<'ERR'
derive-dim-bad.svd:36: error: derivedFrom 'G2' of register 'P2' names no register or cluster
derive-dim-bad.svd:37: error: derivedFrom 'G01' of register 'P01' names no register or cluster
derive-dim-bad.svd:44: error: derivedFrom 'UARTC' of peripheral 'THREE' names no peripheral
derive-dim-bad.svd:26: error: register 'N' has a <dim> but no '%s' in its name to put the index in
derive-dim-bad.svd:22: note: the <dim> of its base 'L%s', which it takes
derive-dim-bad.svd:40: error: peripheral 'SOLO' has a <dim> but no '%s' in its name to put the index in
derive-dim-bad.svd:15: note: the <dim> of its base 'UART%s', which it takes
ERR
(cd tests/svd && "$regc" derive-dim-bad.svd -t json -o "$tmp/bad.json" 2>"$tmp/bad.got")
rc=$?
if [ "$rc" -eq 1 ] && [ ! -e "$tmp/bad.json" ]; then
    tap_ok "derive-dim-bad.svd: exit 1, no output"
else
    tap_fail "derive-dim-bad.svd: exit 1, no output" "exit $rc"
fi
tap_diff "derive-dim-bad.svd: no element G2, G01, UARTC (svd-derived); svd-dim at N and SOLO, notes at the bases' <dim>" "$tmp/bad.err" "$tmp/bad.got"
tap_done
