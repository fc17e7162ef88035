#!/usr/bin/env bash
# tests/svd/run-regspec-derive-cluster-reg.sh - a regspec cluster derived from a register gives
# the registers in it the register's protection and reset-mask, as an SVD reader gives the
# cluster those of its base and its registers take them from it (docs/regspec.md, "Derivation";
# tests/svd/regspec-derive-cluster-reg.xml says each case and why by the SVD specification).
# Before, the cluster took only the register's description: CR_A and CR_JN_E had neither, where
# -t svd read back gave them s and 0xff. The facts below are written by hand from the file, one
# line per register (its protection and reset-mask):
#   - -t json of the spec;
#   - -t regspec writes them, so its output means the same, and is itself again;
#   - -t svd reads back (SVD reader) to the same facts and validates against CMSIS-SVD.xsd.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/regspec-derive-cluster-reg.xml

# a reset-mask left out is 0x0 in a regspec's -t json, all bits in an SVD file's (its default)
cat >"$tmp/facts.py" <<'PY'
import json, sys
blocks = json.load(open(sys.argv[1]))["blocks"]
for r in (r for b in blocks for r in b["registers"]):
    prot, mask = (r["svd"] or {}).get("protection"), (r["svd"] or {}).get("reset_mask")
    unset = mask in (None, "0x0", "0x%x" % ((1 << r["size"]) - 1))
    print("%s protection=%s reset-mask=%s" % (r["name"], prot or "-", "-" if unset else mask))
PY
cat >"$tmp/want" <<'WANT'
R protection=s reset-mask=0xff
Z protection=p reset-mask=0xf
Y protection=- reset-mask=-
CR_A protection=s reset-mask=0xff
CR_B protection=n reset-mask=0xf0
CR_D protection=p reset-mask=0xf
CR_IN_C protection=p reset-mask=0xf
CR_JN_E protection=s reset-mask=0xff
CQ_F protection=- reset-mask=-
WANT
svd_facts_case "$spec" "a cluster derived from a register gives its registers the register's properties"
tap_done
