#!/usr/bin/env bash
# tests/docs/run-html.sh - the HTML reference (-t html) of every spec is valid
# HTML5 (tidy reports nothing), its SVG diagrams are well-formed XML
# (xmllint), the page is self-contained, and every register has a diagram
# with one labelled box per field. Skipped when tidy, xmllint or python3 is
# missing.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

specs="regspec/*.xml tests/docs/hostile.xml tests/golden/features.xml"
for tool in tidy xmllint python3; do
    if ! command -v $tool >/dev/null; then
        tap_skip "html checks" "$tool not installed"; tap_done; exit 0
    fi
done
for spec in $specs; do
    name=$(basename "$spec" .xml)
    if ! "$regc" -t html "$spec" -o "$tmp/$name.html" 2>"$tmp/err" ||
       ! "$regc" --dump-context "$spec" -o "$tmp/$name.json" 2>>"$tmp/err"; then
        tap_fail "html renders: $spec" "$(head -n 3 "$tmp/err")"; continue
    fi
    if tidy -q -e "$tmp/$name.html" >"$tmp/tidy" 2>&1; then
        tap_ok "html valid (tidy): $spec"
    else
        tap_fail "html valid (tidy): $spec" "$(head -n 10 "$tmp/tidy")"
    fi
    mkdir -p "$tmp/$name.svg"
    if out=$(python3 tests/docs/html_check.py "$tmp/$name.json" "$tmp/$name.html" "$tmp/$name.svg"); then
        tap_ok "html diagrams, one labelled box per field: $spec"
    else
        tap_fail "html diagrams, one labelled box per field: $spec" "$out"
    fi
    if ls "$tmp/$name.svg"/*.svg >/dev/null 2>&1 &&
       xmllint --noout "$tmp/$name.svg"/*.svg 2>"$tmp/xmllint"; then
        tap_ok "svg well-formed (xmllint): $spec"
    else
        tap_fail "svg well-formed (xmllint): $spec" "$(head -n 5 "$tmp/xmllint")"
    fi
done

# The checks must fail on a broken page: a table cell left open, a diagram
# that lost a box, an SVG tag left open, an external script.
sed '0,/<\/td>/s/<\/td>/<\/tr>/' "$tmp/hostile.html" >"$tmp/bad1.html"
if tidy -q -e "$tmp/bad1.html" >/dev/null 2>&1; then tap_fail "tidy catches misnested tags"
else tap_ok "tidy catches misnested tags"; fi
python3 - "$tmp/hostile.html" "$tmp/bad2.html" <<'PY'
import re, sys
t = open(sys.argv[1], encoding="utf-8").read()
t = re.sub(r'<g class="box field" data-field="1".*?</g>\n', "", t, count=1, flags=re.S)
open(sys.argv[2], "w", encoding="utf-8").write(t)
PY
if python3 tests/docs/html_check.py "$tmp/hostile.json" "$tmp/bad2.html" >/dev/null; then
    tap_fail "diagram check catches a missing box"
else tap_ok "diagram check catches a missing box"; fi
printf '<svg xmlns="http://www.w3.org/2000/svg"><g><rect/></svg>\n' >"$tmp/bad.svg"
if xmllint --noout "$tmp/bad.svg" 2>/dev/null; then tap_fail "xmllint catches an unclosed svg tag"
else tap_ok "xmllint catches an unclosed svg tag"; fi
sed 's|</head>|<script src="http://example.invalid/x.js"></script></head>|' "$tmp/hostile.html" >"$tmp/bad3.html"
if python3 tests/docs/html_check.py "$tmp/hostile.json" "$tmp/bad3.html" >/dev/null; then
    tap_fail "page check catches an external script"
else tap_ok "page check catches an external script"; fi
tap_done
