#!/usr/bin/env bash
# tests/svd/run-regspec-cluster-array.sh - a regspec register in a cluster array repeats with the
# cluster's elements, as an SVD reader reads a register of a "NAME[%s]" cluster (docs/regspec.md,
# "Memory-mapped devices"; tests/svd/regspec-cluster-array.xml says each case and why): -t json's
# "array" of such a register is the cluster's, whichever way the register map came in. The facts
# below are written by hand from the file, one line per cluster (address, count, stride) and per
# register (address, cluster, its array as count, first index, stride and index names, its
# fields, its <array-index>: tests/svd/array_facts.py):
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

cp tests/svd/array_facts.py "$tmp/facts.py" # the facts of each file, one line each
cat >"$tmp/want" <<'WANT'
cluster CH at 0x20: 2 stride 0x10
cluster CD at 0x100: 2 stride 0x10
cluster CO at 0x180: 3 stride 0x40
cluster CI at 0x300: 2 stride 0x8
CH_CFG at 0x20 in CH: 2 from 0 stride 0x10 index -, fields V, array-index -
CH_ST at 0x24 in CH: 2 from 0 stride 0x10 index -, fields BUSY, array-index -
CD_CFG at 0x100 in CD: 2 from 0 stride 0x10 index -, fields V, array-index -
CD_ST at 0x104 in CD: 2 from 0 stride 0x10 index -, fields BUSY, array-index -
CO_CFG at 0x180 in CO: 3 from 0 stride 0x40 index -, fields V, array-index -
CO_ST at 0x184 in CO: 3 from 0 stride 0x40 index -, fields BUSY, array-index -
RD at 0x280 in -: one, fields V, array-index -
RS at 0x284 in -: one, fields BUSY, array-index -
CI_V at 0x300 in CI: 2 from 0 stride 0x8 index A B, fields W, array-index -
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
