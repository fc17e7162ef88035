#!/usr/bin/env bash
# tests/docs/run-template-names.sh - docs/templates.md lists the names a
# template may use exactly as `regc --list-names` prints them (from the
# model's JSON Schema and compiler/view.c's derived names), between its
# "names: begin" and "names: end" markers.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

"$regc" --list-names >"$tmp/want"
sed -n '/^<!-- names: begin -->$/,/^<!-- names: end -->$/p' docs/templates.md | sed '1d;$d' >"$tmp/got"
[ -s "$tmp/want" ] || tap_fail "regc --list-names prints the names"
tap_diff "docs/templates.md's list of names is regc --list-names (regenerate it from there)" \
    "$tmp/want" "$tmp/got"
grep -q '^- \*\*register\*\*: .*`fields` (list of field)' "$tmp/want" &&
    tap_ok "the list has the register's fields, from the JSON Schema" ||
    tap_fail "the list has the register's fields, from the JSON Schema"
tap_done
