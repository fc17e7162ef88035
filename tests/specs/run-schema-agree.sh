#!/usr/bin/env bash
# tests/specs/run-schema-agree.sh - regc validates regspec files itself, from the
# table it reads out of regspec/regspec.rng (compiler/xmlschema.c): its verdict
# must be that of libxml2's RELAX NG validator (xmllint --relaxng), an independent
# implementation, on every spec and test input, the fuzz corpora of the loader,
# mutants of four seed specs, and a family derived from the schema: each element
# given each attribute and child the schema does not allow it, each required
# attribute removed... (schema_agree.py says how they are made). The seeds hold
# every element of the schema between them (the family says which one lacks).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc
if ! command -v xmllint >/dev/null; then
    tap_skip_rest "xmllint is not installed (tools/install-deps.sh)" "files" "mutants"
fi
mapfile -t files < <(find regspec tests examples -name '*.xml' -type f | LC_ALL=C sort)
python3 tests/specs/schema_agree.py "$regc" regspec/regspec.rng "${files[@]}" \
    tests/fuzz/corpus/xmlload/* tests/fuzz/corpus/compile/* \
    --seeds tests/golden/features.xml tests/golden/features-events.xml \
    tests/svd/regspec-forms.xml regspec/xeon7100_l3.xml
