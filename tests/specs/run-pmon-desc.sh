#!/usr/bin/env bash
# tests/specs/run-pmon-desc.sh - the <desc> of <pmon>, <counters> and <pmon-global> reach
# the JSON export (pmon.desc, pmon.counters[].desc, pmon_global.desc: docs/json.md) and the
# Markdown and HTML references (docs/outputs.md).
#
# The facts are written here by hand: the <pmon> description of regspec/xeon7500_mbox.xml
# as the spec file says it, and two descriptions this script adds to a copy of
# tests/golden/features.xml (its fixed counters and its <pmon-global> have none).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

# regspec/xeon7500_mbox.xml, block mbox, <pmon><desc> (one line there, so folding keeps it)
mbox_pmon='Counters are 48 bits; software freezes all uncore counting after N events by preloading (2^48 - 1) - N and setting pmi_en, which sends a PMI to the U-Box; the U-Box then disables counting (section 2.1.1.1). The counter keeps counting (wraps) between the overflow and the global disable.'
fixed_desc='The fixed counter counts uncore clocks and stops at its top.'
global_desc='One register freezes and unfreezes every box at once.'

# $1: what, $2: the file, $3: the text that must be in it, as a whole line
has_line() {
    if grep -qxF -- "$3" "$2"; then
        tap_ok "$1"
    else
        tap_fail "$1" "no line '$3' in $2"
    fi
}

# $1: what, $2: the JSON file, $3: jq path, $4: the value it must have
has_value() {
    local got
    got=$(jq -r "$3" "$2" 2>&1)
    if [ "$got" = "$4" ]; then
        tap_ok "$1"
    else
        tap_fail "$1" "$3 is '$got', not '$4'"
    fi
}

spec=regspec/xeon7500_mbox.xml
for t in json md html; do
    tap_check "regc -t $t $spec" "$regc" -t $t "$spec" -o "$tmp/mbox.$t"
done
has_value "xeon7500_mbox -t json: blocks[mbox].pmon.desc is the spec's <pmon><desc>" \
    "$tmp/mbox.json" '.blocks[] | select(.name == "mbox") | .pmon.desc' "$mbox_pmon"
has_value "xeon7500_mbox -t json: its <counters> and <pmon-global> have no <desc>: null" \
    "$tmp/mbox.json" '[(.blocks[] | select(.name == "mbox") | .pmon.counters[].desc), .pmon_global.desc] | tostring' \
    '[null,null]'
has_line "xeon7500_mbox -t md: the <pmon> description under block mbox" \
    "$tmp/mbox.md" "Performance monitoring: $mbox_pmon"
has_line "xeon7500_mbox -t html: the <pmon> description under block mbox" \
    "$tmp/mbox.html" "<p>Performance monitoring: $mbox_pmon</p>"

# features.xml with a <desc> in its fixed counters and in its <pmon-global>
cp tests/golden/features.xml tests/golden/features-events.xml "$tmp/"
sed -i -e "s|overflow=\"stop\" enable=\"en\"/>|overflow=\"stop\" enable=\"en\"><desc>$fixed_desc</desc></counters>|" \
    -e "s|^  <pmon-global>\$|  <pmon-global><desc>$global_desc</desc>|" "$tmp/features.xml"
if [ "$(grep -c -e "$fixed_desc" -e "$global_desc" "$tmp/features.xml")" != 2 ]; then
    tap_fail "the copy of features.xml has the two descriptions" "tests/golden/features.xml changed: adapt the sed above"
fi
for t in json md html; do
    tap_check "regc -t $t (features.xml with descriptions)" "$regc" -t $t "$tmp/features.xml" -o "$tmp/f.$t"
done
has_value "-t json: pmon.counters[].desc of the fixed counters, null for the others" \
    "$tmp/f.json" '[.blocks[] | select(.name == "ubox") | .pmon.counters[] | .desc] | tostring' \
    "[null,\"$fixed_desc\"]"
has_value "-t json: pmon_global.desc" "$tmp/f.json" '.pmon_global.desc' "$global_desc"
has_line "-t md: the counters' description" "$tmp/f.md" "Counters U_FIXED_CTL: $fixed_desc"
has_line "-t md: the <pmon-global> description" "$tmp/f.md" \
    "Performance monitoring across the blocks (global control and status): $global_desc"
has_line "-t html: the counters' description" "$tmp/f.html" "<p>Counters U_FIXED_CTL: $fixed_desc</p>"
has_line "-t html: the <pmon-global> description" "$tmp/f.html" \
    "<p>Performance monitoring across the blocks (global control and status): $global_desc</p>"
tap_done
