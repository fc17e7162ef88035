#!/usr/bin/env bash
# tests/svd/run-regspec-derive-instance-path.sh - a regspec's derived-from= path through a derived
# instance leads through what an SVD reader's derived peripheral takes from its base
# (docs/regspec.md, "Derivation"; tests/svd/regspec-derive-instance-path.xml says each case and
# why). Before, a path through an instance saw its block's registers only: B0.S, B0.CL.T.Z,
# B0.CL and D0.S named nothing (svd-derived). The facts below are written by hand from the file,
# one line per cluster and register of A0 and C0 (address, cluster, fields with their values):
#   - -t json of the spec; -t regspec: the same facts, and its own output again;
#   - -t svd warns, by hand, that B0 and D0 read back with what their blocks lack (a regspec's
#     instance takes no register from its base), reads back to the same facts for A0 and C0 (the
#     SVD reader resolves the same paths) and validates against CMSIS-SVD.xsd.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/regspec-derive-instance-path.xml

cat >"$tmp/facts.py" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    if not {"A0", "C0"} & {i["name"] for i in b["instances"]}:
        continue
    for c in b["svd"]["clusters"]:
        print("cluster %s at %s" % (c["name"], c["address"]))
    for r in b["registers"]:
        print(r["name"], r["address"], r["svd"]["cluster"] or "-", *(
            "%s:%s" % (f["name"], ",".join(v["name"] for v in f["values"]) or "-")
            for f in r["fields"] if not f["implicit"]))
PY
cat >"$tmp/want" <<'WANT'
cluster CL at 0x10
cluster CC at 0x100
R 0x0 - V:-
S 0x4 - Q:-
CL_T 0x10 CL Z:ZA
X 0x0 - Q:-
Y 0x4 - W:-
E 0x8 - G:ZA
W2 0xc - Q:-
W3 0x10 - KR:-
CC_T 0x100 CC Z:ZA
WANT
LC_ALL=C sort -o "$tmp/want" "$tmp/want"
cat >"$tmp/want-warnings" <<'WANT'
warning: peripheral 'B0' is written derivedFrom 'A0': read back, it takes cluster 'CL' of 'A0', which block 'B' does not have [-Wsvd-out-dropped]
warning: peripheral 'D0' is written derivedFrom 'B0': read back, it takes cluster 'CL' of 'B0', which block 'D' does not have [-Wsvd-out-dropped]
WANT

facts() {
    svd_json_facts "a path through a derived instance leads through its base" "$1" "$2"
}

facts regspec-derive-instance-path.xml "$spec"
"$regc" "$spec" -t regspec -o "$tmp/rt.xml" 2>"$tmp/rt.err"
facts "regspec-derive-instance-path.xml -t regspec" "$tmp/rt.xml"
"$regc" "$tmp/rt.xml" -t regspec -o "$tmp/rt-again.xml" 2>"$tmp/rt.err"
tap_diff "-t regspec of its own output is itself" "$tmp/rt.xml" "$tmp/rt-again.xml"
"$regc" "$spec" -t svd -o "$tmp/rt.svd" 2>"$tmp/svd.err"
grep -o 'warning: .*' "$tmp/svd.err" >"$tmp/got-warnings"
tap_diff "-t svd warns where B0 and D0 read back with more" "$tmp/want-warnings" "$tmp/got-warnings"
facts "regspec-derive-instance-path.xml -t svd read back" "$tmp/rt.svd"
svd_schema_check "-t svd validates against CMSIS-SVD.xsd" "$tmp/rt.svd"
tap_done
