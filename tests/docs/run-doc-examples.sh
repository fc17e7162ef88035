#!/usr/bin/env bash
# tests/docs/run-doc-examples.sh - every example of README.md, docs/*.md and the
# man pages' EXAMPLES runs or compiles as the doc shows it (issue 17 item 7):
# specs through `regc --check` and into a header that compiles, XML fragments
# against the schema (or the spec they quote), shell and console commands in a
# scratch copy of the tree (make as make -n, regctl on the simulator or as the
# doc says; shown output compared), C through $CC -Wall -Wextra -Werror against
# the generated headers and libregrt's, JSON parsed, usage summaries against
# --help. Then examples broken on purpose must fail.
#
# A block says how it is run with an HTML comment right before it (a roff
# comment `.\" doc-test: ...` in a man page), one directive a line:
#   <!-- doc-test: skip REASON -->            not run: a TAP skip with REASON
#   <!-- doc-test: dry-run REASON -->         regctl with --dry-run (needs hardware)
#   <!-- doc-test: from FILE -->              quoted from FILE, checked against it
# and more (needs, stub, copy, map, setup, status, notes, body, given, cflags,
# output-of, synopsis, json-keys, makefile, as): tests/docs/doc_examples.py
# describes each, docs/testing.md the convention.
# Skipped when python3 or cmark-gfm (the Markdown parser) is missing.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc
: "${BUILD:=build}"
regctl=${REGCTL:-$BUILD/regctl}
[ -x "$regctl" ] || regctl=""

docs="README.md docs/*.md docs/man/*.[0-9]"
for tool in python3 cmark-gfm; do
    if ! command -v "$tool" >/dev/null; then
        tap_skip "doc examples: $docs" "$tool is not installed"
        tap_done; exit 0
    fi
done
# shellcheck disable=SC2086
REGC=$regc REGCTL=$regctl BUILD=$BUILD CC=${CC:-cc} exec python3 tests/docs/doc_examples.py $docs
