#!/usr/bin/env bash
# tests/svd/run-regspec-derive.sh - a regspec's derived-from= gives a register, field or enum-set
# that writes no content of its own its base's, as it does in an SVD file (docs/regspec.md,
# "Derivation"; tests/svd/regspec-derive.xml says what each case shows and why by the SVD
# specification). The facts below are written by hand from the file:
#   - -t json: each register's fields (bits, access, reset, description, read action, values with
#     their usage, sets with their header-enum-name and values), their rules: C and B (a chain
#     written in reverse order) hold A's fields as A holds them after its own field Z took X's
#     values; D keeps its own field only, GP its own <gap> only; E's L and M (a chain of fields)
#     hold K's set and values, without its header-enum-name; H's G and G2's write set hold KE's
#     values, G2's for writes, and G0's set (a chain of sets) too; W2's one field covers it and
#     is named W2;
#   - -t regspec writes each copy whole, so its output means the same (-t json equal);
#   - -t svd reads back (SVD reader) to the same fields, values and sets as -t json of the regspec
#     shows; D and GP, derived registers with fields (or a gap) of their own that lack their
#     base's X (an SVD reader would add it), are written whole, without their derivedFrom, each
#     with a warning (svd-out-dropped), and read back with no diagnostic.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/regspec-derive.xml

# One line per field written or copied (gaps aside):
# REG.FIELD msb:lsb ACCESS reset=R desc=D | VALUE=N/USAGE... | SET/HEADER/USAGE:VALUES... | rules
cat >"$tmp/facts.py" <<'PY'
import json, sys
skip = set(sys.argv[2:])
for b in json.load(open(sys.argv[1]))["blocks"]:
    for r in b["registers"]:
        if r["name"] in skip:
            continue
        rules = ",".join(x["name"] for x in r["rules"]) or "-"
        if all(f["implicit"] for f in r["fields"]):
            print("%s: no field" % r["name"])
        for f in r["fields"]:
            if f["implicit"]:
                continue
            s = f["svd"] or {}
            vals = " ".join("%s=%s/%s" % (v["name"], v["value"], v["svd"]["usage"]) for v in f["values"])
            sets = " ".join("%s/%s/%s:%s" % (e["name"] or "-", e["header_enum_name"] or "-", e["usage"],
                                             ",".join(e["values"])) for e in s.get("enum_sets") or [])
            print("%s.%s %d:%d %s reset=%s desc=%s whole=%s | %s | %s | %s" % (
                r["name"], f["name"], f["msb"], f["lsb"], f["access"], f["reset"],
                f["desc"] or "-", s.get("whole", False), vals or "-", sets or "-", rules))
PY
cat >"$tmp/want" <<'WANT'
C.X 3:0 read-write reset=0x2 desc=The mode X whole=False | ON=0x1/read-write OFF=0x0/read-write | -/-/read-write:ON,OFF | MODE_values
C.Z 7:4 read-only, readAction clear reset=0x0 desc=The Z mode whole=False | ON=0x1/read-write OFF=0x0/read-write | -/-/read-write:ON,OFF | MODE_values
C.MODE 9:8 read-write reset=0x0 desc=- whole=False | SLOW=0x0/read-write FAST=0x2/read-write | -/-/read-write:SLOW,FAST | MODE_values
B.X 3:0 read-write reset=0x2 desc=The mode X whole=False | ON=0x1/read-write OFF=0x0/read-write | -/-/read-write:ON,OFF | MODE_values
B.Z 7:4 read-only, readAction clear reset=0x0 desc=The Z mode whole=False | ON=0x1/read-write OFF=0x0/read-write | -/-/read-write:ON,OFF | MODE_values
B.MODE 9:8 read-write reset=0x0 desc=- whole=False | SLOW=0x0/read-write FAST=0x2/read-write | -/-/read-write:SLOW,FAST | MODE_values
A.X 3:0 read-write reset=0x2 desc=The mode X whole=False | ON=0x1/read-write OFF=0x0/read-write | -/-/read-write:ON,OFF | MODE_values
A.Z 7:4 read-only, readAction clear reset=0x0 desc=The Z mode whole=False | ON=0x1/read-write OFF=0x0/read-write | -/-/read-write:ON,OFF | MODE_values
A.MODE 9:8 read-write reset=0x0 desc=- whole=False | SLOW=0x0/read-write FAST=0x2/read-write | -/-/read-write:SLOW,FAST | MODE_values
D.V 15:0 read-write reset=0x0 desc=- whole=False | - | - | -
GP: no field
E.M 11:8 read-write reset=0x0 desc=- whole=False | K0=0x0/read-write K1=0x1/read-write | KE/-/read-write:K0,K1 | -
E.L 7:4 read-write reset=0x0 desc=- whole=False | K0=0x0/read-write K1=0x1/read-write | KE/-/read-write:K0,K1 | -
E.K 3:0 read-write reset=0x0 desc=- whole=False | K0=0x0/read-write K1=0x1/read-write | KE/KEnum/read-write:K0,K1 | -
H.G0 11:8 read-write reset=0x0 desc=- whole=False | K0=0x0/read-write K1=0x1/read-write | G0E/-/read-write:K0,K1 | -
H.G 3:0 read-write reset=0x0 desc=- whole=False | K0=0x0/read-write K1=0x1/read-write | GE/-/read-write:K0,K1 | -
H.G2 7:4 read-write reset=0x0 desc=- whole=False | R0=0x5/read K0=0x0/write K1=0x1/write | G2R/-/read:R0 G2W/-/write:K0,K1 | -
W.W 31:0 read-only reset=0x0 desc=- whole=True | - | - | -
W2.W2 31:0 read-only reset=0x0 desc=- whole=True | - | - | -
WANT

if "$regc" "$spec" -t json -o "$tmp/spec.json" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    python3 "$tmp/facts.py" "$tmp/spec.json" >"$tmp/got" 2>"$tmp/err"; then
    tap_diff "regspec-derive.xml -t json: each derived element without content holds its base's" \
        "$tmp/want" "$tmp/got"
else
    tap_fail "regspec-derive.xml -t json: each derived element without content holds its base's" \
        "$(head -n 5 "$tmp/err")"
fi

# -t regspec writes the copies whole: the same model read again
if "$regc" "$spec" -t regspec -o "$tmp/out.xml" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    "$regc" "$tmp/out.xml" -t json -o "$tmp/again.json" 2>>"$tmp/err" &&
    python3 "$tmp/facts.py" "$tmp/again.json" >"$tmp/again" 2>>"$tmp/err"; then
    tap_diff "regspec-derive.xml -t regspec: its output holds the same fields, values and sets" \
        "$tmp/want" "$tmp/again"
else
    tap_fail "regspec-derive.xml -t regspec: its output holds the same fields, values and sets" \
        "$(head -n 5 "$tmp/err")"
fi

# -t svd, read back by the SVD reader
"$regc" "$spec" -t svd -o "$tmp/out.svd" 2>"$tmp/err"
st=$?
whole=$(sed -n "s/.*warning: register '\([A-Z]*\)' is written whole, without its derivedFrom 'A': read back, it would take field 'X' of 'A', which it does not have \[-Wsvd-out-dropped\]$/\1/p" "$tmp/err" | tr '\n' ' ')
if [ $st -eq 0 ] && [ "$whole" = "D GP " ] && [ "$(grep -c ': warning: ' "$tmp/err")" = 2 ]; then
    tap_ok "regspec-derive.xml -t svd writes D and GP whole, saying so, and nothing else"
else
    tap_fail "regspec-derive.xml -t svd writes D and GP whole, saying so, and nothing else" \
        "exit $st" "$(head -n 6 "$tmp/err")"
fi
if [ $st -eq 0 ] && "$regc" "$tmp/out.svd" -t json -o "$tmp/back.json" 2>"$tmp/back.err" &&
    [ ! -s "$tmp/back.err" ]; then
    tap_ok "regspec-derive.xml -t svd reads back without a diagnostic"
    python3 "$tmp/facts.py" "$tmp/back.json" >"$tmp/back"
    tap_diff "regspec-derive.xml -t svd read back: the same fields, values and sets as -t json" \
        "$tmp/want" "$tmp/back"
else
    tap_fail "regspec-derive.xml -t svd reads back without a diagnostic" "exit $st" "$(head -n 3 "$tmp/back.err")"
    tap_fail "regspec-derive.xml -t svd read back: the same fields, values and sets as -t json"
fi
svd_schema_check "regspec-derive.xml -t svd validates against CMSIS-SVD.xsd" "$tmp/out.svd"
tap_done
