#!/usr/bin/env bash
# tests/svd/run-regspec-derive-path.sh - a regspec's derived-from= path leads through the copies
# a derived cluster or register took from its base, as an SVD file's derivedFrom does
# (docs/regspec.md, "Derivation"; tests/svd/regspec-derive-path.xml says each case and why).
# Before, each base was looked up before any copy was made: CD.R, P0.CD.R.V, B.F, CD.IN and CG.S
# named nothing (svd-derived). The facts below are written by hand from the file, one line per
# cluster (address, parent) and per register (address, cluster, its fields with their values):
#   - -t json of the spec;
#   - -t regspec writes the copies whole: the same facts, and its own output again;
#   - -t svd reads back to the same facts without a diagnostic (the SVD reader resolves the
#     same paths through its own copies) and validates against CMSIS-SVD.xsd.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/regspec-derive-path.xml

cat >"$tmp/facts.py" <<'PY'
import json, sys
out = []
for b in json.load(open(sys.argv[1]))["blocks"]:
    for c in b["svd"]["clusters"]:
        out.append("cluster %s at %s in %s" % (c["name"], c["address"], c["parent"] or "-"))
    for r in b["registers"]:
        fields = " ".join("%s:%s" % (f["name"], ",".join(v["name"] for v in f["values"]) or "-")
                          for f in r["fields"] if not f["implicit"])
        out.append("%s at %s in %s: %s" % (r["name"], r["address"], r["svd"]["cluster"] or "-",
                                           fields))
print("\n".join(sorted(out)))
PY
cat >"$tmp/want" <<'WANT'
cluster CL at 0x0 in -
cluster IN at 0x10 in CL
cluster CD at 0x40 in -
cluster IN at 0x50 in CD
cluster CG at 0x100 in -
CL_R at 0x0 in CL: V:ON
CL_IN_S at 0x10 in IN: Q:QA
CD_R at 0x40 in CD: V:ON
CD_IN_S at 0x50 in IN: Q:QA
CG_S at 0x100 in CG: Q:QA
X at 0x80 in -: V:ON
Y at 0x84 in -: W:ON
T at 0x90 in -: Q:QA
A at 0xa0 in -: F:F0,F1
B at 0xa4 in -: F:F0,F1
E at 0xa8 in -: G:F0,F1
WANT
LC_ALL=C sort -o "$tmp/want" "$tmp/want"

# facts NAME FILE: FILE's -t json facts against the ones above
facts() {
    svd_json_facts "paths through copies lead to the bases an SVD reader finds" "$1" "$2"
}

facts regspec-derive-path.xml "$spec"
svd_regspec_roundtrip "$spec" facts
tap_done
