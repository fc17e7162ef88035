#!/usr/bin/env bash
# tests/svd/run-regspec-alt-cluster.sh - a regspec <cluster alternate=> means what CMSIS-SVD's
# alternateCluster means: its registers (and those of clusters inside it) may share their
# addresses with the register it names, each register's own alternate= first
# (tests/svd/regspec-alt-cluster.xml says which register shares which address; alt-cluster.svd
# is the same device written as SVD by hand). The facts are written by hand from those files:
#   - --check says nothing on either (no address-collision);
#   - -t json: each register's address and alternate, of both files and of what -t regspec and
#     -t svd write read back (-t regspec a fixed point, -t svd valid against CMSIS-SVD.xsd);
#   - -t regspec writes alternate= on the clusters only, not again on their registers, and
#     -t svd writes alternateRegister only where a register declares its own.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/regspec-alt-cluster.xml twin=tests/svd/alt-cluster.svd

for f in "$spec" "$twin"; do
    "$regc" --check "$f" >"$tmp/out" 2>&1
    tap_check "$(basename "$f"): --check, no diagnostic (no address-collision)" \
        test "$?" = 0 -a ! -s "$tmp/out"
done
svd_schema_check "alt-cluster.svd validates against CMSIS-SVD.xsd" "$twin"

cat >"$tmp/facts.py" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    for r in b["registers"]:
        print("%s at %s, alternate %s" % (r["name"], r["address"], r["svd"]["alternate"] or "-"))
PY
cat >"$tmp/want" <<'WANT'
MODE at 0x0, alternate -
STAT at 0x4, alternate -
SLOT at 0x8, alternate -
CL_CFG at 0x0, alternate MODE
CL_IN_V at 0x4, alternate MODE
CK_OWN at 0x8, alternate SLOT
WANT
LC_ALL=C sort -o "$tmp/want" "$tmp/want"
facts() {
    svd_json_facts "registers of an alternate cluster are alternates" "$1" "$2"
}
facts regspec-alt-cluster.xml "$spec"
facts alt-cluster.svd "$twin"
svd_regspec_roundtrip "$spec" facts
svd_regspec_roundtrip "$twin" facts

# Where each writer says it: the clusters' alternate, and OWN's own, once.
"$regc" "$spec" -t regspec -o "$tmp/self.xml" 2>/dev/null
grep -o '<[a-z]* name="[A-Z_]*"[^>]* alternate="[A-Z]*"' "$tmp/self.xml" |
    sed 's/^<\([a-z]*\) name="\([A-Z_]*\)".* alternate="\([A-Z]*\)"$/\1 \2 \3/' >"$tmp/got"
printf 'cluster CL MODE\ncluster CK MODE\nregister CK_OWN SLOT\n' >"$tmp/want2"
tap_diff "-t regspec: alternate= on the clusters and on CK_OWN only" "$tmp/want2" "$tmp/got"
"$regc" "$spec" -t svd -o "$tmp/out.svd" 2>/dev/null
grep -o '<alternate[A-Za-z]*>[A-Z]*<' "$tmp/out.svd" >"$tmp/got"
printf '<alternateCluster>MODE<\n<alternateCluster>MODE<\n<alternateRegister>SLOT<\n' >"$tmp/want2"
tap_diff "-t svd: alternateCluster on CL and CK, alternateRegister on OWN only" "$tmp/want2" "$tmp/got"
tap_done
