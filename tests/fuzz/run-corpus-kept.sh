#!/usr/bin/env bash
# tests/fuzz/run-corpus-kept.sh - fuzzing keeps what it learns: the table
# "Corpus kept" in docs/testing.md records, per run, each target's
# cumulative executions and the inputs found by fuzzing (libFuzzer names
# them by their SHA-1) that its corpus, tests/fuzz/corpus/TARGET/, holds.
# Fails when a target's recorded executions grow while those inputs do not
# (the first row of a target counts from none), when a target of
# tests/fuzz/fuzz.mk has no row, or when the corpus holds fewer found inputs
# than its last row says (the merged corpus was not committed). The check
# is tried first on tables that must fail.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup tmp

# check DOC CORPUS-ROOT TARGETS...: prints each problem; status 1 if any
check() {
    local doc=$1 root=$2; shift 2
    local rows problems=() t last found
    # "| date | target | 1,234 | 56 |" rows of the table under "### Corpus kept"
    rows=$(awk '/^### Corpus kept/ { on = 1; next } on && /^#/ { on = 0 }
        on && /^\| [0-9][0-9][0-9][0-9]-/ { gsub(/ /, ""); print }' "$doc" | awk -F'|' '{ gsub(/,/, "", $4); gsub(/,/, "", $5); print $3, $4, $5 }')
    for t; do
        last=$(awk -v t="$t" '$1 == t' <<<"$rows" | awk '
            { if ($2 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+$/) { print "bad " NR; exit }
              if ($2 > e && $3 <= f) { print "grew " $2 " " $3 " " f + 0; exit }
              e = $2; f = $3 }
            END { print "last " NR " " f + 0 }' | head -n 1)
        case $last in
        "last 0 "*) problems+=("$t: no row in the table") ;;
        bad*) problems+=("$t: a row that is not 'executions | inputs found' in numbers") ;;
        grew*) set -- $last; problems+=("$t: executions grew to $2 while the inputs found stayed at $3 (were $4)") ;;
        last*)
            set -- $last
            found=$(find "$root/$t" -type f 2>/dev/null | grep -cE '/[0-9a-f]{40}$')
            [ "$found" -ge "$3" ] || problems+=("$t: the table records $3 inputs found, tests/fuzz/corpus/$t holds $found")
            ;;
        esac
    done
    [ ${#problems[@]} -eq 0 ] && return 0
    printf '%s\n' "${problems[@]}"
    return 1
}

# tables that must fail, on a corpus of 3 found inputs for 'a'
mkdir -p "$tmp/corpus/a" "$tmp/corpus/b"
for i in 1 2 3; do echo "$i" >"$tmp/corpus/a/$(echo "$i" | sha1sum | cut -c1-40)"; done
echo seed >"$tmp/corpus/b/seed-1"
table() { printf '### Corpus kept\n\n| date | target | executions | found |\n| --- | --- | --- | --- |\n'; printf '%s\n' "$@"; }
table "| 2026-01-01 | a | 1,000 | 2 |" "| 2026-01-02 | a | 2,000 | 3 |" "| 2026-01-01 | b | 0 | 0 |" >"$tmp/good.md"
table "| 2026-01-01 | a | 1,000 | 2 |" "| 2026-01-02 | a | 2,000 | 2 |" "| 2026-01-01 | b | 0 | 0 |" >"$tmp/flat.md"
table "| 2026-01-01 | a | 1,000 | 3 |" "| 2026-01-01 | b | 500 | 0 |" >"$tmp/seeds.md"
table "| 2026-01-01 | a | 1,000 | 4 |" "| 2026-01-01 | b | 0 | 0 |" >"$tmp/uncommitted.md"
table "| 2026-01-01 | a | 1,000 | 3 |" >"$tmp/missing.md"
# case NAME DOC STATUS PATTERN
case_() {
    local out st; out=$(check "$2" "$tmp/corpus" a b); st=$?
    if [ "$st" = "$3" ] && grep -qE "$4" <<<"${out:-ok}"; then tap_ok "$1"
    else tap_fail "$1" "status $st, expected $3" "${out:-no output}"; fi
}
case_ "a table that holds: passes" "$tmp/good.md" 0 "^ok$"
case_ "executions grew, inputs found did not: fails" "$tmp/flat.md" 1 "^a: executions grew to 2000 while the inputs found stayed at 2"
case_ "executions from none, no input found (seeds only): fails" "$tmp/seeds.md" 1 "^b: executions grew to 500 while the inputs found stayed at 0"
case_ "more inputs recorded than the corpus holds: fails" "$tmp/uncommitted.md" 1 "^a: the table records 4 inputs found, tests/fuzz/corpus/a holds 3"
case_ "a target without a row: fails" "$tmp/missing.md" 1 "^b: no row in the table"

# the real table, for every target of fuzz.mk
targets=$(sed -n 's/^TARGETS := //p' tests/fuzz/fuzz.mk)
if out=$(check docs/testing.md tests/fuzz/corpus $targets); then
    tap_ok "docs/testing.md: every target's corpus grew with its executions ($targets)"
else
    tap_fail "docs/testing.md: every target's corpus grew with its executions" "$out"
fi
tap_done
