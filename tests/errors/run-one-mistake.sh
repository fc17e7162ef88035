#!/usr/bin/env bash
# tests/errors/run-one-mistake.sh - one mistake in a real spec gives one error.
#
# Each mistake below is made once (the first place it fits) in every
# regspec/*.xml; `regc --check` must then print exactly one error, the one
# that names the mistake (its fragment below), and nothing that follows from
# it: libxml2's streaming validator, once it meets an element it did not
# expect, judged every later element against the wrong parent (one misspelled
# <field> gave 225 errors); an unknown access made fields reserved for the
# checks after it, a bad width put fields outside the register, and counters
# with an unknown control register a block of 0 counters. The small cases
# with their full text are tests/errors/*-one*.xml; these show it holds on
# files of real size.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
cp -r regspec "$tmp/regspec" # the specs' includes are relative to them

# fragment of the one error | sed script making the mistake
mistakes=(
    "'blok' is not allowed here; did you mean 'block'?|0,/<block /s/<block /<blok /;0,/<\/block>/s/<\/block>/<\/blok>/"
    "'registr' is not allowed here; did you mean 'register'?|0,/<register /s/<register /<registr /;0,/<\/register>/s/<\/register>/<\/registr>/"
    "'feild' is not allowed here; did you mean 'field'?|0,/<field /s/<field /<feild /"
    "'valeu' is not allowed here; did you mean 'value'?|0,/<value /s/<value /<valeu /"
    "'evets' is not allowed here; did you mean 'events'?|0,/<events /s/<events /<evets /;0,/<\/events>/s/<\/events>/<\/evets>/"
    "'dsc' is not allowed here; did you mean 'desc'?|0,/<desc>/s/<desc>/<dsc>/;0,/<\/desc>/s/<\/desc>/<\/dsc>/"
    "element 'field' is not allowed in 'block'|0,/<instance /s/<instance /<field /"
    "unknown attribute 'acess'; did you mean 'access'?|0,/ access=\"RW\"/s/ access=\"RW\"/ acess=\"RW\"/"
    "unknown access 'RW-S'|0,/ access=\"RW\"/s/ access=\"RW\"/ access=\"RW-S\"/"
    "attribute 'space' is 'io', expected|0,/ space=\"msr\"/s/ space=\"msr\"/ space=\"io\"/"
    "missing attribute 'width'|0,/ width=\"64\"/s/ width=\"64\"//"
    "may not contain text|0,/<\/register>/s/<\/register>/stray text<\/register>/"
    "has width 47; allowed widths are|0,/<register .* width=\"48\"/s/\\(<register .*\\) width=\"48\"/\\1 width=\"47\"/"
    "unknown register 'X|0,/ control=\"/s/ control=\"/ control=\"X/"
)

for m in "${mistakes[@]}"; do
    want=${m%%|*} script=${m#*|} applied=0
    for spec in regspec/*.xml; do
        name=$(basename "$spec")
        sed "$script" "$spec" >"$tmp/regspec/one-mistake.xml"
        cmp -s "$spec" "$tmp/regspec/one-mistake.xml" && continue # nothing there to change
        applied=$((applied + 1))
        "$regc" --check "$tmp/regspec/one-mistake.xml" >/dev/null 2>"$tmp/err"
        status=$?
        errors=$(grep -c ': error: ' "$tmp/err")
        if [ "$status" -ne 1 ] || [ "$errors" -ne 1 ] || ! grep -qF -- "$want" "$tmp/err"; then
            tap_fail "$name, $want: one error" "exit status $status, $errors errors:" \
                "$(grep ': error: ' "$tmp/err" | head -n 5)"
        else
            tap_ok "$name, $want: one error"
        fi
    done
    [ "$applied" -gt 0 ] || tap_fail "$want: the mistake fits in some spec" "$script changes none"
done
tap_done
