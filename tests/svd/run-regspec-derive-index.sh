#!/usr/bin/env bash
# tests/svd/run-regspec-derive-index.sh - a regspec's derived register without an array form of
# its own that writes an <array-index> takes its base's array and keeps its own index names, as
# an SVD reader gives a derived register that writes no dim its base's dim but keeps the
# dimArrayIndex it writes (svdconv's SvdItem::CopyDim; docs/regspec.md, "Derivation";
# tests/svd/regspec-derive-index.xml says each case and why). Before, the <array-index> was
# refused (bad-array) before any base was looked up. The facts below are written by hand from the
# file, one line per cluster and per register (tests/svd/array_facts.py: a register's address,
# cluster, array, fields, and <array-index> as enum name and each index as name=value):
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

cp tests/svd/array_facts.py "$tmp/facts.py" # the facts of each file, one line each
cat >"$tmp/want" <<'WANT'
A at 0x0 in -: 3 from 0 stride 0x4 index -, fields F, array-index -
B at 0x20 in -: 3 from 0 stride 0x4 index -, fields F, array-index BIdx BX=0 BZ=2
D at 0x40 in -: 3 from 0 stride 0x4 index -, fields F, array-index -
cluster CL at 0x100: 2 stride 0x20
CL_R at 0x100 in CL: 2 from 0 stride 0x20 index -, fields Z, array-index -
C at 0x200 in -: 2 from 0 stride 0x20 index -, fields -, array-index CIdx CHI=1
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
