#!/usr/bin/env bash
# tests/svd/run-regspec-derive-index.sh - a regspec's derived register without an array form of
# its own that writes an <array-index> takes its base's array and keeps its own index names, as
# an SVD reader gives a derived register that writes no dim its base's dim but keeps the
# dimArrayIndex it writes (svdconv's SvdItem::CopyDim; docs/regspec.md, "Derivation";
# tests/svd/regspec-derive-index.xml says each case and why). Before, the <array-index> was
# refused (bad-array) before any base was looked up. The facts below are written by hand from the
# file, one line per register: address, its array (count, first index, stride), its fields, its
# <array-index> (enum name and each index as name=value):
#   - -t json of the spec;
#   - -t regspec writes the same facts, and its own output again;
#   - -t svd reads back to the same facts without a diagnostic and validates against
#     CMSIS-SVD.xsd.
# The refusals (a base that gives no array) are tests/errors/bad-array-derived-index.xml; an
# index past the array it took, tests/errors/svd-array-index-derived.xml.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/regspec-derive-index.xml

cat >"$tmp/facts.py" <<'PY'
import json, sys
out = []
for b in json.load(open(sys.argv[1]))["blocks"]:
    for r in b["registers"]:
        a = r["array"]
        arr = "%d from %d stride %s" % (a["count"], a["first"], a["stride"]) if a else "one"
        ai = r["svd"]["array_index"]
        ix = "%s %s" % (ai["enum_name"], " ".join("%s=%d" % (v["name"], int(v["value"], 0))
                                               for v in ai["values"])) if ai else "-"
        fields = " ".join(f["name"] for f in r["fields"] if not f["implicit"])
        out.append("%s at %s: %s, fields %s, array-index %s" % (
            r["name"], r["address"], arr, fields or "-", ix))
print("\n".join(sorted(out)))
PY
cat >"$tmp/want" <<'WANT'
A at 0x0: 3 from 0 stride 0x4, fields F, array-index -
B at 0x20: 3 from 0 stride 0x4, fields F, array-index BIdx BX=0 BZ=2
D at 0x40: 3 from 0 stride 0x4, fields F, array-index -
CL_R at 0x100: 2 from 0 stride 0x20, fields Z, array-index -
C at 0x200: 2 from 0 stride 0x20, fields -, array-index CIdx CHI=1
WANT
LC_ALL=C sort -o "$tmp/want" "$tmp/want"

# facts NAME FILE: FILE's -t json facts against the ones above
facts() {
    svd_json_facts "a derived register's <array-index> names the indices of its base's array" \
        "$1" "$2"
}

facts regspec-derive-index.xml "$spec"
svd_regspec_roundtrip "$spec" facts
tap_done
