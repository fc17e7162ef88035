#!/usr/bin/env bash
# tests/svd/run-regspec-dim-path.sh - a regspec's derived-from= path through one element of a
# dim-of= list survives -t svd (docs/svd.md, "The round trip"): tests/svd/regspec-dim-path.xml's
# P derives from UARTB.DR, its field D from UARTA.DR.D, Q from UARTA.LY, where UARTA, UARTB are the
# instances of the list UART%s and LX, LY the registers of the list L%s. -t svd writes each list
# as one peripheral or register with its dimIndex (A,B; X,Y) and the paths as written; svdconv
# resolves such a path among the list's elements (SvdItem::FindChildFromItem searches a dim's
# elements, named by SvdDimension::CreateName; an element has no dim to give, SvdItem::CopyDim), so
# regc reads it back without a diagnostic, to the same instances, registers, fields and bases
# (-t json of the regspec and of the read-back file compared, per instance).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/regspec-dim-path.xml

if "$regc" "$spec" -t json -o "$tmp/spec.json" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
    tap_ok "regspec-dim-path.xml: compiled without a diagnostic"
else
    tap_fail "regspec-dim-path.xml: compiled without a diagnostic" "$(head -n 5 "$tmp/err")"
fi

"$regc" "$spec" -t svd -o "$tmp/dp.svd" 2>"$tmp/err"
want_list=$'      <dim>2</dim>\n      <dimIncrement>0x1000</dimIncrement>\n      <dimIndex>A,B</dimIndex>\n      <name>UART%s</name>'
want_regs=$'          <dimIndex>X,Y</dimIndex>\n          <name>L%s</name>'
if [ ! -s "$tmp/err" ] && grep -qzF -- "$want_list" "$tmp/dp.svd" && grep -qzF -- "$want_regs" "$tmp/dp.svd" &&
    grep -qF '<register derivedFrom="UARTB.DR">' "$tmp/dp.svd" &&
    grep -qF '<field derivedFrom="UARTA.DR.D">' "$tmp/dp.svd" &&
    grep -qF '<register derivedFrom="UARTA.LY">' "$tmp/dp.svd"; then
    tap_ok "regspec-dim-path.xml: -t svd writes the lists UART%s and L%s and the paths as written"
else
    tap_fail "regspec-dim-path.xml: -t svd writes the lists UART%s and L%s and the paths as written" \
        "$(cat "$tmp/err"; grep -n 'derivedFrom\|dimIndex' "$tmp/dp.svd" | head -n 8)"
fi

if "$regc" "$tmp/dp.svd" -t json -o "$tmp/back.json" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
    tap_ok "regspec-dim-path.xml: its -t svd reads back without a diagnostic (each path resolved)"
else
    tap_fail "regspec-dim-path.xml: its -t svd reads back without a diagnostic (each path resolved)" \
        "$(head -n 5 "$tmp/err")"
fi

if python3 - "$tmp/spec.json" "$tmp/back.json" >"$tmp/py" 2>&1 <<'PY'; then
import json, sys
def model(path):
    d = json.load(open(path))
    out = {}
    for b in d["blocks"]:
        regs = sorted((r["name"], int(r["address"], 16), r["svd"]["derived_from"],
                       sorted((f["name"], f["lsb"], f["msb"], (f.get("svd") or {}).get("derived_from"))
                              for f in r["fields"])) for r in b["registers"])
        for i in b["instances"]:
            out[i["name"]] = (int(i["base"], 16), regs)
    return out
a, b = model(sys.argv[1]), model(sys.argv[2])
bad = [f"{n}: regspec {a.get(n)}\n  read back {b.get(n)}" for n in sorted(set(a) | set(b)) if a.get(n) != b.get(n)]
print("\n".join(bad) or "the same")
sys.exit(1 if bad else 0)
PY
    tap_ok "regspec-dim-path.xml: read back, the same instances, registers, fields and bases"
else
    tap_fail "regspec-dim-path.xml: read back, the same instances, registers, fields and bases" "$(head -n 8 "$tmp/py")"
fi

if command -v xmllint >/dev/null && [ -f "$svd/schema/CMSIS-SVD.xsd" ]; then
    if xmllint --noout --schema "$svd/schema/CMSIS-SVD.xsd" "$tmp/dp.svd" 2>"$tmp/err"; then
        tap_ok "regspec-dim-path.xml: its -t svd is valid against ARM's schema"
    else
        tap_fail "regspec-dim-path.xml: its -t svd is valid against ARM's schema" "$(head -n 3 "$tmp/err")"
    fi
else
    tap_skip "regspec-dim-path.xml: its -t svd is valid against ARM's schema" "no xmllint, or $svd_why"
fi
tap_done
