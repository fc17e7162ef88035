#!/usr/bin/env bash
# tests/svd/run-derive-write-modify.sh - a derived field that writes modifiedWriteValues
# "modify" (SVD's default) keeps it, where its base has another: tests/svd/derive-write-modify.svd
# says why by the CMSIS-SVD specification. The facts are written by hand from the file:
#   - -t json: each field's access and class (F2 read-write with A.X's readAction: RW; F3 all of
#     A.X's: RW1C);
#   - -t regspec writes F2's write="modify" (without it the regspec's derived-from= would give
#     it A.X's oneToClear) and reads back to the same facts, and is itself again;
#   - -t svd writes F2's <modifiedWriteValues>modify, validates against CMSIS-SVD.xsd, and reads
#     back to the same facts.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/derive-write-modify.svd

cat >"$tmp/facts.py" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    for r in b["registers"]:
        for f in r["fields"]:
            if not f["implicit"]:
                print("%s.%s %s class=%s" % (r["name"], f["name"], f["access"],
                                             (f["svd"] or {}).get("class")))
PY
cat >"$tmp/want" <<'WANT'
A.X read-write, oneToClear, readAction clear class=RW1C
E.F2 read-write, readAction clear class=RW
E.F3 read-write, oneToClear, readAction clear class=RW1C
WANT
LC_ALL=C sort -o "$tmp/want" "$tmp/want"
facts() {
    svd_json_facts "each field's access and class" "$1" "$2"
}
facts derive-write-modify.svd "$spec"
svd_regspec_roundtrip "$spec" facts

"$regc" "$spec" -t regspec -o "$tmp/w.xml" 2>/dev/null
tap_check "-t regspec writes F2's write=\"modify\"" \
    grep -q '<field name="F2" [^>]*write="modify"' "$tmp/w.xml"
"$regc" "$spec" -t svd -o "$tmp/w.svd" 2>/dev/null
tap_check "-t svd writes F2's <modifiedWriteValues>modify" \
    python3 -c '
import sys, xml.etree.ElementTree as ET
for f in ET.parse(sys.argv[1]).iter("field"):
    if f.findtext("name") == "F2":
        sys.exit(0 if f.findtext("modifiedWriteValues") == "modify" else 1)
sys.exit(1)' "$tmp/w.svd"
tap_done
