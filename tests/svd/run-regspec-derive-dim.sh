#!/usr/bin/env bash
# tests/svd/run-regspec-derive-dim.sh - a regspec's derived register or cluster without an array
# form of its own takes its base's array, as an SVD reader gives a derived element its base's dim
# (svdconv's SvdItem::CopyDim; docs/regspec.md, "Derivation"; tests/svd/regspec-derive-dim.xml
# says each case and why). The facts below are written by hand from the file, one line per
# cluster (address, count, stride) and per register (address, cluster, its array as count, first
# index, stride and index names, its fields, its <array-index>: tests/svd/array_facts.py); a
# register in a cluster array is an array of the cluster's count and stride, as the SVD reader
# reads it (and the regspec since tests/svd/run-regspec-cluster-array.sh; before, the facts left
# its array out):
#   - -t json of the spec;
#   - -t regspec writes each array whole: the same facts, and its own output again;
#   - -t svd reads back to the same facts without a diagnostic and validates against
#     CMSIS-SVD.xsd (before, B's <name> had no %s for the dim the reader takes: svd-dim).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/regspec-derive-dim.xml

cp tests/svd/array_facts.py "$tmp/facts.py" # the facts of each file, one line each
cat >"$tmp/want" <<'WANT'
A at 0x0 in -: 3 from 0 stride 0x4 index X Y Z, fields F, array-index AIdx AX=0
B at 0x20 in -: 3 from 0 stride 0x4 index X Y Z, fields F, array-index -
C at 0x30 in -: 3 from 0 stride 0x4 index X Y Z, fields F, array-index -
K at 0x80 in -: 2 from 0 stride 0x10 index -, fields F, array-index -
S at 0x40 in -: 2 from 2 stride 0x8 index -, fields G, array-index -
T at 0x60 in -: 2 from 2 stride 0x8 index -, fields G, array-index -
RC at 0x400 in -: 2 from 0 stride 0x20 index -, fields -, array-index -
CL_R at 0x100 in CL: 2 from 0 stride 0x20 index -, fields Z, array-index -
CD_R at 0x200 in CD: 2 from 0 stride 0x20 index -, fields Z, array-index -
CO_R at 0x300 in CO: 3 from 0 stride 0x40 index -, fields Z, array-index -
cluster CL at 0x100: 2 stride 0x20
cluster CD at 0x200: 2 stride 0x20
cluster CO at 0x300: 3 stride 0x40
WANT
LC_ALL=C sort -o "$tmp/want" "$tmp/want"

# facts NAME FILE: FILE's -t json facts against the ones above
facts() {
    svd_json_facts "derived registers and clusters without an array take their base's" "$1" "$2"
}

facts regspec-derive-dim.xml "$spec"
svd_regspec_roundtrip "$spec" facts
tap_done
