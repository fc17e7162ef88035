#!/usr/bin/env bash
# tests/svd/run-dim-start.sh - tests/svd/array-index-contig.svd holds two lists of one pattern
# that follow each other at one spacing, three times (fields EN%s, registers CH%s_CFG with a
# dimArrayIndex each, peripherals UART%s with one each). A regspec joins the consecutive
# elements of one dim-of= pattern into one list unless an element says dim-start="true"
# (docs/regspec.md): -t regspec must mark exactly the first element of each second list (EN2,
# CH2_CFG, UART2), its output must compile without a diagnostic (joined, the second list's
# <array-index> would be refused, bad-array), -t regspec of it must be itself, and -t svd of it
# must write the six lists as the file does (facts written by hand from the file).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
svd=tests/svd/array-index-contig.svd
same() { # name got want
    if [ "$2" = "$3" ]; then tap_ok "$1"; else tap_fail "$1" "got:" "$2" "want:" "$3"; fi
}

if ! "$regc" "$svd" -t regspec -o "$tmp/r.xml" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
    tap_fail "-t regspec writes the file without a diagnostic" "$(head -n 5 "$tmp/err")"
    tap_done
    exit 0
fi
tap_ok "-t regspec writes the file without a diagnostic"

got=$(grep -o '<[a-z]* name="[A-Za-z0-9_]*"[^>]*dim-start="true"' "$tmp/r.xml" |
      sed 's/^<\([a-z]*\) name="\([^"]*\)".*/\1 \2/')
want="field EN2
register CH2_CFG
instance UART2"
same "dim-start=\"true\" on the first element of each second list, nowhere else" \
    "$got" "$want"

if "$regc" "$tmp/r.xml" --check 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
    tap_ok "the regspec compiles without a diagnostic"
else
    tap_fail "the regspec compiles without a diagnostic" "$(head -n 5 "$tmp/err")"
fi

if "$regc" "$tmp/r.xml" -t regspec -o "$tmp/r2.xml" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    cmp -s "$tmp/r.xml" "$tmp/r2.xml"; then
    tap_ok "-t regspec of the regspec is itself"
else
    tap_fail "-t regspec of the regspec is itself" "$(head -n 5 "$tmp/err")" \
        "$(diff "$tmp/r.xml" "$tmp/r2.xml" | head -n 10)"
fi

lists() { # the %s lists of SVD file $1: kind, name, dimIndex, the dimArrayIndex's headerEnumName
    python3 - "$1" <<'PY'
import sys
import xml.etree.ElementTree as ET
for el in ET.parse(sys.argv[1]).iter():
    if el.tag in ("peripheral", "register", "field") and el.find("dim") is not None:
        idx = el.find("dimArrayIndex")
        enum = idx.findtext("headerEnumName") if idx is not None else "-"
        print(el.tag, el.findtext("name"), el.findtext("dimIndex"), enum)
PY
}
want="peripheral UART%s 0,1 LowUart
peripheral UART%s 2,3 HighUart
field EN%s 0,1 -
field EN%s 2,3 -
register CH%s_CFG 0,1 LowCh
register CH%s_CFG 2,3 HighCh"
got=$(lists "$svd" | sort -s -k1,1)
same "the file's lists are as written by hand (the test reads them right)" \
    "$got" "$(sort -s -k1,1 <<<"$want")"
if "$regc" "$tmp/r.xml" -t svd -o "$tmp/r.svd" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
    same "-t svd of the regspec writes each list as the file does" \
        "$(lists "$tmp/r.svd" | sort -s -k1,1)" "$(sort -s -k1,1 <<<"$want")"
else
    tap_fail "-t svd of the regspec writes each list as the file does" "$(head -n 5 "$tmp/err")"
fi
tap_done
