#!/usr/bin/env bash
# tests/svd/run-regspec-cluster-array.sh - a regspec register in a cluster array repeats with the
# cluster's elements, as an SVD reader reads a register of a "NAME[%s]" cluster (docs/regspec.md,
# "Memory-mapped devices"; tests/svd/regspec-cluster-array.xml says each case and why): -t json's
# "array" of such a register is the cluster's, whichever way the register map came in. The facts
# below are written by hand from the file, one line per cluster (address, count, stride) and per
# register (address, its array as count, first index, stride and index names, its fields):
#   - -t json of the spec (before, CH_CFG, CD_CFG and CO_CFG had no array, CO_ST CH's 2 elements);
#   - -t regspec writes the same facts, and its own output again;
#   - -t svd reads back to the same facts without a diagnostic and validates against
#     CMSIS-SVD.xsd.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/regspec-cluster-array.xml

cat >"$tmp/facts.py" <<'PY'
import json, sys
out = []
for b in json.load(open(sys.argv[1]))["blocks"]:
    for c in b["svd"]["clusters"]:
        out.append("cluster %s at %s: %d stride %s" % (c["name"], c["address"], c["count"],
                                                      c["stride"]))
    for r in b["registers"]:
        a = r["array"]
        arr = "%d from %d stride %s index %s" % (
            a["count"], a["first"], a["stride"],
            " ".join(r["svd"]["index_names"] or ["-"])) if a else "one"
        fields = " ".join(f["name"] for f in r["fields"] if not f["implicit"])
        out.append("%s at %s in %s: %s, fields %s" % (
            r["name"], r["address"], r["svd"]["cluster"] or "-", arr, fields or "-"))
print("\n".join(sorted(out)))
PY
cat >"$tmp/want" <<'WANT'
cluster CH at 0x20: 2 stride 0x10
cluster CD at 0x100: 2 stride 0x10
cluster CO at 0x180: 3 stride 0x40
cluster CI at 0x300: 2 stride 0x8
CH_CFG at 0x20 in CH: 2 from 0 stride 0x10 index -, fields V
CH_ST at 0x24 in CH: 2 from 0 stride 0x10 index -, fields BUSY
CD_CFG at 0x100 in CD: 2 from 0 stride 0x10 index -, fields V
CD_ST at 0x104 in CD: 2 from 0 stride 0x10 index -, fields BUSY
CO_CFG at 0x180 in CO: 3 from 0 stride 0x40 index -, fields V
CO_ST at 0x184 in CO: 3 from 0 stride 0x40 index -, fields BUSY
RD at 0x280 in -: one, fields V
RS at 0x284 in -: one, fields BUSY
CI_V at 0x300 in CI: 2 from 0 stride 0x8 index A B, fields W
WANT
LC_ALL=C sort -o "$tmp/want" "$tmp/want"

# facts NAME FILE: FILE's -t json facts against the ones above
facts() {
    svd_json_facts "a register in a cluster array is an array of the cluster's count and stride" \
        "$1" "$2"
}

facts regspec-cluster-array.xml "$spec"
svd_regspec_roundtrip "$spec" facts
tap_done
