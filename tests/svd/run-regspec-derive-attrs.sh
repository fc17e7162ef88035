#!/usr/bin/env bash
# tests/svd/run-regspec-derive-attrs.sh - a regspec's derived-from= gives a register, field or
# cluster the attributes it leaves out, as an SVD reader gives them (docs/regspec.md,
# "Derivation"; tests/svd/regspec-derive-attrs.xml says what each case shows and why by the SVD
# specification). The facts below are written by hand from the file:
#   - -t json: each register's description, reset-mask and protection, each field's access,
#     class, description and write-constraint; -t regspec: each register's display-name, each
#     cluster's description (neither is in -t json);
#   - -t regspec writes them all, so its output means the same, and is itself again;
#   - -t svd reads back (SVD reader) to the same facts, and validates against CMSIS-SVD.xsd.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/regspec-derive-attrs.xml

# REG desc=D reset-mask=M protection=P, then REG.FIELD ACCESS class=C desc=D wc=KIND:MIN..MAX
cat >"$tmp/facts.py" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    for r in b["registers"]:
        x = r["svd"] or {}
        mask = x.get("reset_mask")  # none: 0x0 in a regspec, all bits read back (SVD's default)
        mask = "-" if mask in (None, "0x0", "0x%x" % ((1 << r["size"]) - 1)) else mask
        print("%s desc=%s reset-mask=%s protection=%s" % (
            r["name"], r["desc"] or "-", mask, x.get("protection") or "-"))
        for f in r["fields"]:
            if f["implicit"]:
                continue
            wc = f["write_constraint"]
            wc = "%s:%s..%s" % (wc["kind"], wc.get("min"), wc.get("max")) if wc else "-"
            print("%s.%s %s class=%s desc=%s wc=%s" % (
                r["name"], f["name"], f["access"], (f["svd"] or {}).get("class"), f["desc"] or "-", wc))
PY
# cluster NAME desc=D and REG display-name=N, from -t regspec's output
cat >"$tmp/xfacts.py" <<'PY'
import sys, xml.etree.ElementTree as ET
for b in ET.parse(sys.argv[1]).getroot().iter("block"):
    for c in b.iter("cluster"):
        print("cluster %s desc=%s" % (c.get("name"), c.get("desc") or "-"))
    for r in b.iter("register"):
        print("%s display-name=%s" % (r.get("name"), r.get("display-name") or "-"))
PY
cat >"$tmp/want" <<'WANT'
A desc=Register A reset-mask=0xff protection=s
A.X read-write, oneToClear, readAction clear class=RW1C desc=The X wc=range:0x0..0x5
A.Y read-only class=RO desc=The Y wc=-
B desc=Register A reset-mask=0xff protection=s
B.X read-write, oneToClear, readAction clear class=RW1C desc=The X wc=range:0x0..0x5
B.Y read-only class=RO desc=The Y wc=-
D desc=Register D reset-mask=0xff protection=n
D.X read-write, oneToClear, readAction clear class=RW1C desc=The X wc=range:0x0..0x5
D.Y read-write class=RW desc=D's Y wc=-
E desc=- reset-mask=- protection=-
E.F1 read-write, zeroToClear, readAction clear class=RW0C desc=The X wc=range:0x0..0x5
E.F2 read-write, readAction clear class=RW desc=The X wc=range:0x0..0x5
CL_R desc=- reset-mask=- protection=-
CL_R.V read-write class=RW desc=- wc=-
CD_R desc=- reset-mask=- protection=-
CD_R.V read-write class=RW desc=- wc=-
WANT
cat >"$tmp/xwant" <<'WANT'
cluster CL desc=Cluster CL
cluster CD desc=Cluster CL
A display-name=A display
B display-name=A display
D display-name=A display
E display-name=-
CL_R display-name=-
CD_R display-name=-
WANT

# facts NAME FILE: FILE's -t json and -t regspec facts against the ones above
facts() {
    local name=$1 file=$2
    if "$regc" "$file" -t json -o "$tmp/$name.json" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
        "$regc" "$file" -t regspec -o "$tmp/$name.xml" 2>>"$tmp/err" && [ ! -s "$tmp/err" ] &&
        python3 "$tmp/facts.py" "$tmp/$name.json" >"$tmp/$name.got" 2>>"$tmp/err" &&
        python3 "$tmp/xfacts.py" "$tmp/$name.xml" >"$tmp/$name.xgot" 2>>"$tmp/err"; then
        tap_diff "$name: registers' and fields' attributes, inherited where left out" \
            "$tmp/want" "$tmp/$name.got"
        tap_diff "$name: display-names and clusters' descriptions, inherited where left out" \
            "$tmp/xwant" "$tmp/$name.xgot"
    else
        tap_fail "$name: registers' and fields' attributes, inherited where left out" \
            "$(head -n 5 "$tmp/err")"
        tap_fail "$name: display-names and clusters' descriptions, inherited where left out"
    fi
}

facts regspec-derive-attrs.xml "$spec"
svd_regspec_roundtrip "$spec" facts
tap_done
