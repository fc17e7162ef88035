#!/usr/bin/env bash
# tests/svd/run-regspec-derive-cluster-merge.sh - a regspec's derived cluster with registers or
# clusters of its own takes those of its base it does not give itself by name, as an SVD reader's
# does (docs/regspec.md, "Derivation"; tests/svd/regspec-derive-cluster-merge.xml says each case
# and why). Before, it kept its own only: CM had no S or IN, CN no R or S, CO no R or S, CP no S
# or IN, and X's CM.S named nothing. The facts below are written by hand from the file, one line
# per cluster (address, parent) and per register (address, cluster, the fields it writes):
#   - -t json of the spec;
#   - -t regspec writes the copies whole: the same facts, and its own output again;
#   - -t svd reads back to the same facts without a diagnostic (the reader takes the copies
#     again from each cluster's derivedFrom) and validates against CMSIS-SVD.xsd.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/regspec-derive-cluster-merge.xml

cat >"$tmp/facts.py" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    for c in b["svd"]["clusters"]:
        print("cluster", c["name"], c["address"], c["parent"] or "-")
    for r in b["registers"]:
        own = [f["name"] for f in r["fields"] if not f["implicit"]]
        print(r["name"], r["address"], r["svd"]["cluster"] or "-", *own)
PY
cat >"$tmp/want" <<'WANT'
cluster CL 0x0 -
cluster IN 0x10 CL
cluster CM 0x100 -
cluster IN 0x110 CM
cluster CN 0x200 -
cluster IN 0x218 CN
cluster CO 0x300 -
cluster CP 0x400 -
cluster IN 0x410 CP
CL_R 0x0 CL V
CL_S 0x4 CL Q
CL_IN_T 0x10 IN Z
CM_R 0x100 CM W
CM_S 0x104 CM Q
CM_IN_T 0x110 IN Z
CN_R 0x200 CN V
CN_S 0x204 CN Q
CN_IN_U 0x218 IN Y
CO_R 0x300 CO V
CO_S 0x304 CO Q
CO_IN 0x310 CO K
CP_R 0x400 CP V
CP_S 0x404 CP Q
CP_IN_T 0x410 IN Z
X 0x500 - Q
WANT
svd_facts_case "$spec" "a derived cluster takes what of its base it does not give itself"
tap_done
