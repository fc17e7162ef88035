#!/usr/bin/env bash
# tests/svd/run-regspec-derive-cluster.sh - a regspec's <cluster derived-from=> that holds no
# register or cluster of its own takes copies of its base cluster's, as it does in an SVD file
# (docs/regspec.md, "Derivation"; tests/svd/regspec-derive-cluster.xml says what each case shows
# and why by the SVD specification). The facts below are written by hand from the file, one line
# per cluster (address, parent, the cluster whose CMSIS type it has) and per register (address,
# cluster, fields), sorted, without the block (the SVD reader names it by its peripheral) (the SVD reader lists a derived cluster's copies where it is):
#   - -t json of the spec;
#   - -t regspec writes the copies whole: the same facts, and its own output again;
#   - -t svd leaves the copies to the reader (a derived cluster with nothing in it), reads back
#     to the same facts without a diagnostic, and validates against CMSIS-SVD.xsd.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/regspec-derive-cluster.xml

cat >"$tmp/facts.py" <<'PY'
import json, sys
out = []
for b in json.load(open(sys.argv[1]))["blocks"]:
    for c in b["svd"]["clusters"]:
        out.append("cluster %s at %s in %s, type of %s" % (
            c["name"], c["address"], c["parent"] or "-", c["type_of"] or "-"))
    for r in b["registers"]:
        fields = " ".join("%s:%d:%d:%s" % (f["name"], f["msb"], f["lsb"], f["desc"] or "-")
                          for f in r["fields"] if not f["implicit"])
        out.append("%s (%s) at %s in %s: %s" % (
            r["name"], r["written_name"], r["address"], r["svd"]["cluster"] or "-", fields))
print("\n".join(sorted(out)))
PY
cat >"$tmp/want" <<'WANT'
CD_IN_S (S) at 0x88 in IN: V:7:0:The V
CD_R (R) at 0x80 in CD: V:7:0:The V
CE_IN_S (S) at 0xc8 in IN: V:7:0:The V
CE_R (R) at 0xc0 in CE: V:7:0:The V
CL_IN_S (S) at 0x48 in IN: V:7:0:The V
CL_R (R) at 0x40 in CL: V:7:0:The V
CO_IN_S (S) at 0x108 in IN: Q:1:0:-
CO_R (R) at 0x100 in CO: W:3:0:-
cluster CD at 0x80 in -, type of CL
cluster CE at 0xc0 in -, type of CL
cluster CL at 0x40 in -, type of -
cluster CO at 0x100 in -, type of -
cluster IN at 0x108 in CO, type of -
cluster IN at 0x48 in CL, type of -
cluster IN at 0x88 in CD, type of CL.IN
cluster IN at 0xc8 in CE, type of CL.IN
T (T) at 0x0 in -: U:0:0:-
CX_IN_S (S) at 0x18 in IN: V:7:0:The V
CX_R (R) at 0x10 in CX: V:7:0:The V
cluster CX at 0x10 in -, type of CL
cluster IN at 0x18 in CX, type of CL.IN
WANT
LC_ALL=C sort -o "$tmp/want" "$tmp/want"

# facts NAME FILE: FILE's -t json facts against the ones above
facts() {
    svd_json_facts "derived clusters without registers hold copies of their bases'" "$1" "$2"
}

facts regspec-derive-cluster.xml "$spec"
svd_regspec_roundtrip "$spec" facts
# the copies are left to the reader: CD, CE and CX are written with nothing in them
empty=$(python3 - "$tmp/rt.svd" <<'PY'
import sys, xml.etree.ElementTree as ET
for c in ET.parse(sys.argv[1]).getroot().iter("cluster"):
    if c.get("derivedFrom") and c.find("register") is None and c.find("cluster") is None:
        print(c.findtext("name"))
PY
)
tap_check "regspec-derive-cluster.xml -t svd leaves CD, CE and CX's copies to the reader" \
    test "$(echo $empty)" = "CD CE CX"
tap_done
