#!/usr/bin/env bash
# tests/docs/run-md.sh - the Markdown reference (-t md) of every spec, and of
# a spec whose text is full of table-breaking characters, renders through a
# GitHub-flavoured Markdown renderer (cmark-gfm) into the tables it should:
# one per register with one row per field, the events, the instances; every
# cell whole. Skipped when cmark-gfm or python3 is missing.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

specs="regspec/*.xml tests/docs/hostile.xml tests/golden/features.xml"
if ! command -v cmark-gfm >/dev/null || ! command -v python3 >/dev/null; then
    for spec in $specs; do tap_skip "md tables: $spec" "cmark-gfm or python3 not installed"; done
    tap_done; exit 0
fi
for spec in $specs; do
    name=$(basename "$spec" .xml)
    if ! "$regc" -t md "$spec" -o "$tmp/$name.md" 2>"$tmp/err" ||
       ! "$regc" --dump-context "$spec" -o "$tmp/$name.json" 2>>"$tmp/err"; then
        tap_fail "md tables: $spec" "$(head -n 3 "$tmp/err")"; continue
    fi
    cmark-gfm -e table --unsafe "$tmp/$name.md" >"$tmp/$name.html"
    if out=$(python3 tests/docs/md_tables.py "$tmp/$name.json" "$tmp/$name.html"); then
        tap_ok "md tables: $spec"
    else
        tap_fail "md tables: $spec" "$out"
    fi
done

# The check itself must fail on a broken table: an unescaped pipe in a cell.
spec=tests/docs/hostile.xml
sed 's/Enable \\| counting/Enable | counting/' "$tmp/hostile.md" >"$tmp/broken.md"
cmark-gfm -e table --unsafe "$tmp/broken.md" >"$tmp/broken.html"
if cmp -s "$tmp/hostile.md" "$tmp/broken.md"; then
    tap_fail "md check catches a split cell" "the escaped pipe was not found in the output"
elif python3 tests/docs/md_tables.py "$tmp/hostile.json" "$tmp/broken.html" >/dev/null; then
    tap_fail "md check catches a split cell"
else
    tap_ok "md check catches a split cell"
fi

# Every heading the contents list links to exists (GitHub's anchor rule:
# lower case, blanks to '-', other punctuation dropped).
for spec in regspec/*.xml; do
    name=$(basename "$spec" .xml)
    missing=$(python3 - "$tmp/$name.md" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
anchors = set()
for h in re.findall(r"^#+ (.*)$", text, re.M):
    anchors.add(re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-"))
links = re.findall(r"\]\(#([^)]+)\)", text)
print(" ".join(sorted({l for l in links if l not in anchors})))
PY
)
    if [ -z "$missing" ]; then tap_ok "md contents links resolve: $spec"
    else tap_fail "md contents links resolve: $spec" "no heading for: $missing"; fi
done
tap_done
