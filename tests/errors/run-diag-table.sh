#!/usr/bin/env bash
# tests/errors/run-diag-table.sh - compiler/diag.def, docs/diagnostics.md and
# the bad-input corpus agree: every diagnostic has a doc section with its
# severity and description, the doc has no section for a name the table lacks,
# and every diagnostic has a case tests/errors/NAME[-variant].xml (or .svd,
# .mustache, or .json for a data file) with its expected output NAME[-variant].err.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh

def=compiler/diag.def
doc=docs/diagnostics.md

# name<TAB>severity<TAB>description, one per X(...) line of the table
table=$(sed -n 's/^X([A-Z_0-9]*, "\([^"]*\)", SEV_\([A-Z]*\), "\(.*\)")$/\1\t\2\t\3/p' "$def")
[ -n "$table" ] || { tap_fail "diag.def parses"; tap_done; exit 0; }

# The section of 'name' in the doc, from "### name" to the next heading.
section() { awk -v h="### $1" '$0 == h {on = 1; next} /^##/ {on = 0} on' "$doc"; }
# The text of one "- **Key:**" item of a section, lines joined.
item() {
    awk -v k="- **$1:**" 'index($0, k) == 1 {on = 1; sub(/^- \*\*[A-Za-z]*:\*\* */, ""); printf "%s", $0; next}
        /^- \*\*/ {on = 0} on {sub(/^ +/, " "); printf "%s", $0}'
}

while IFS=$'\t' read -r name sev desc; do
    sec=$(section "$name")
    if [ -z "$sec" ]; then
        tap_fail "doc: $name" "no section '### $name' in $doc"
        continue
    fi
    want=$(echo "$sev" | tr 'A-Z' 'a-z')
    got=$(printf '%s\n' "$sec" | item Severity)
    meaning=$(printf '%s\n' "$sec" | item Meaning)
    if [ "$got" != "$want" ]; then
        tap_fail "doc: $name" "severity is '$got' in the doc, '$want' in diag.def"
    elif [ "${meaning#"$desc."}" = "$meaning" ]; then
        tap_fail "doc: $name" "meaning does not start with the description in diag.def:" "$desc."
    elif ! printf '%s\n' "$sec" | grep -q '^- \*\*Example:\*\*' ||
        ! printf '%s\n' "$sec" | grep -q '^- \*\*Fix:\*\*'; then
        tap_fail "doc: $name" "section lacks an Example or a Fix item"
    else
        tap_ok "doc: $name"
    fi
done <<<"$table"

# No section for a name the table does not have.
extra=$(sed -n 's/^### //p' "$doc" | while read -r n; do
    printf '%s\n' "$table" | cut -f1 | grep -qxF "$n" || echo "$n"; done)
if [ -n "$extra" ]; then tap_fail "doc: no extra sections" $extra; else tap_ok "doc: no extra sections"; fi

# Every diagnostic has a bad-input case with its expected output. Until the
# end-to-end runner (run-errors.sh) exists, missing cases are skipped, not failed.
while IFS=$'\t' read -r name sev desc; do
    cases=$(ls -d tests/errors/"$name".xml tests/errors/"$name"-*.xml \
        tests/errors/"$name".svd tests/errors/"$name"-*.svd \
        tests/errors/"$name".mustache tests/errors/"$name"-*.mustache \
        tests/errors/"$name".json tests/errors/"$name"-*.json 2>/dev/null)
    if [ -z "$cases" ]; then
        if [ -f tests/errors/run-errors.sh ]; then
            tap_fail "case: $name" "no tests/errors/$name[-variant].xml, .mustache or .json"
        else
            tap_skip "case: $name" "no case yet, and no run-errors.sh to run it"
        fi
        continue
    fi
    missing=""
    for c in $cases; do [ -f "${c%.*}.err" ] || missing="$missing ${c%.*}.err"; done
    if [ -n "$missing" ]; then tap_fail "case: $name" "missing$missing"; else tap_ok "case: $name"; fi
done <<<"$table"
tap_done
