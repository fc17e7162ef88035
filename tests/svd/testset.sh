# tests/svd/testset.sh - the CMSIS-SVD test set the tests/svd scripts read; source it after
# tests/tap.sh and tap_setup.
#   svd                      the test set: REGC_SVD_DATA, else ../shared/svd beside the tree
#   svd_need DIR NAME        ends the script, NAME skipped with the reason, unless $svd/DIR is there
#   svd_files                the device files, sorted: corpus/*/*.svd, vendor-headers/nordic/*.svd
#   each_on_cores FN ITEM... FN ITEM for every item, one job per core; returns when all have ended
#   svd_schema_check NAME FILE  a TAP line: FILE validates against the set's CMSIS-SVD.xsd (skipped
#                            with the reason without xmllint or the schema)
#   svd_regspec_roundtrip SPEC FACTS  regspec SPEC's -t regspec and -t svd outputs against the
#                            script's facts: FACTS NAME FILE (a function writing TAP lines) for
#                            each; -t regspec of its own output is itself; -t svd writes no
#                            diagnostic and validates; the -t svd output is left in $tmp/rt.svd
#   svd_json_facts WHAT NAME FILE  a TAP line "NAME: WHAT": FILE's -t json, read without a
#                            diagnostic, through the script's $tmp/facts.py, sorted, is $tmp/want
#   svd_facts_case SPEC WHAT  $tmp/want sorted, then svd_json_facts WHAT of regspec SPEC and
#                            svd_regspec_roundtrip SPEC with the same facts
svd=${REGC_SVD_DATA:-$tap_top/../shared/svd}
svd_why="no test set at $svd (../shared/svd from the repository root, or REGC_SVD_DATA)"
svd_xsd=$svd/schema/CMSIS-SVD.xsd # kept apart: a script may name its own file 'svd'

svd_need() {
    [ -d "$svd/$1" ] || tap_skip_rest "$svd_why" "$2"
}

svd_files() {
    (cd "$svd" && ls corpus/*/*.svd vendor-headers/nordic/*.svd | sort)
}

each_on_cores() {
    local fn=$1 cores running=0 x
    shift
    cores=$(nproc 2>/dev/null || echo 1)
    for x in "$@"; do
        "$fn" "$x" &
        running=$((running + 1))
        if [ "$running" -ge "$cores" ]; then
            wait -n
            running=$((running - 1))
        fi
    done
    wait
}

svd_json_facts() {
    local what=$1 name=$2 file=$3
    if "$regc" "$file" -t json -o "$tmp/got.json" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
        python3 "$tmp/facts.py" "$tmp/got.json" | LC_ALL=C sort >"$tmp/got" 2>>"$tmp/err"; then
        tap_diff "$name: $what" "$tmp/want" "$tmp/got"
    else
        tap_fail "$name: $what" "$(head -n 5 "$tmp/err")"
    fi
}

svd_schema_check() {
    local name=$1 file=$2
    if ! command -v xmllint >/dev/null; then
        tap_skip "$name" "no xmllint"
    elif [ ! -f "$svd_xsd" ]; then
        tap_skip "$name" "no $svd_xsd"
    else
        tap_check "$name" xmllint --noout --schema "$svd_xsd" "$file" 2>/dev/null
    fi
}

svd_regspec_roundtrip() {
    local spec=$1 facts=$2 name
    name=$(basename "$spec")
    "$regc" "$spec" -t regspec -o "$tmp/rt.xml" 2>"$tmp/rt.err"
    "$facts" "$name -t regspec" "$tmp/rt.xml"
    if "$regc" "$tmp/rt.xml" -t regspec -o "$tmp/rt-again.xml" 2>>"$tmp/rt.err"; then
        tap_diff "$name -t regspec of its own output is itself" "$tmp/rt.xml" "$tmp/rt-again.xml"
    else
        tap_fail "$name -t regspec of its own output is itself" "$(head -n 3 "$tmp/rt.err")"
    fi
    if "$regc" "$spec" -t svd -o "$tmp/rt.svd" 2>"$tmp/rt.err" && [ ! -s "$tmp/rt.err" ]; then
        tap_ok "$name -t svd: no diagnostic"
    else
        tap_fail "$name -t svd: no diagnostic" "$(head -n 3 "$tmp/rt.err")"
    fi
    "$facts" "$name -t svd read back" "$tmp/rt.svd"
    svd_schema_check "$name -t svd validates against CMSIS-SVD.xsd" "$tmp/rt.svd"
}

svd_facts_case() {
    svd_case_what=$2
    LC_ALL=C sort -o "$tmp/want" "$tmp/want"
    svd_case_facts "$(basename "$1")" "$1"
    svd_regspec_roundtrip "$1" svd_case_facts
}

svd_case_facts() {
    svd_json_facts "$svd_case_what" "$1" "$2"
}
