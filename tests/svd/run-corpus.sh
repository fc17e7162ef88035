#!/usr/bin/env bash
# tests/svd/run-corpus.sh - every file of the CMSIS-SVD test set (../shared/svd:
# corpus/*/*.svd and vendor-headers/nordic/*.svd) imports, its diagnostics by
# kind are the reviewed list tests/svd/corpus-diagnostics.txt (a new or a lost
# diagnostic fails), and its C header (-t c) compiles with
# gcc -std=c11 -Wall -Wextra -Wpedantic -Werror (its JSON model:
# run-corpus-json.sh, so that each script stays well inside tests/run.sh's
# limit on a loaded machine). REGC_SVD_DATA names the test set (default ../shared/svd from the repository
# root); without it every case is skipped with the reason.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

. tests/svd/testset.sh
svd_need corpus "SVD test set"

# tap_report "ok NAME" | "not ok NAME" [DETAIL...]: a verdict a background job wrote
tap_report() {
    local v=$1
    shift
    case $v in
    "ok "*) tap_ok "${v#ok }" ;;
    *) tap_fail "${v#not ok }" "$@" ;;
    esac
}

files=$(svd_files)

# One line per file: "PATH: imported|refused (status N); NAME COUNT, ..." (diagnostics by name;
# an error without a -W name counts as "error").
summary() {   # path-in-test-set
    "$regc" --check -ferror-limit=0 -fno-caret-diagnostics "$svd/$1" >/dev/null 2>"$tmp/diag"
    local st=$? verdict=imported
    [ "$st" -ne 0 ] && verdict="refused (status $st)"
    local kinds
    kinds=$(grep -E ': (error|warning): ' "$tmp/diag" |
        sed -E 's/.*\[-W(error=)?([a-z0-9-]+)\]$/\2/; t; s/.*: error: .*/error/' |
        sort | uniq -c | awk '{printf "%s%s %s", sep, $2, $1; sep=", "}')
    echo "$1: $verdict${kinds:+; $kinds}"
}

for f in $files; do summary "$f"; done >"$tmp/summary"
tap_diff "diagnostics of every test-set file (tests/svd/corpus-diagnostics.txt)" \
    tests/svd/corpus-diagnostics.txt "$tmp/summary"

# Each file's header, on every core: gcc on the largest headers (13 MB) takes seconds,
# and the script must stay well inside tests/run.sh's limit on a loaded machine. Each job writes
# its verdicts ("ok NAME" / "not ok NAME" then detail lines "# ...") to a file of its own; they
# are reported in the files' order once all have run.
mkdir -p "$tmp/res"
header_compiles() {   # path-in-test-set
    local f=$1 b
    b=$(basename "$f" .svd)
    local d="$tmp/res/${f//\//_}"
    mkdir -p "$d"
    if ! "$regc" "$svd/$f" -t c -o "$d/$b.h" 2>"$d/err"; then
        echo "not ok $f: regc -t c"
        head -n 3 "$d/err" | sed 's/^/# /'
        return
    fi
    printf '#include "%s.h"\nint main(void) { return 0; }\n' "$b" >"$d/t.c"
    if gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$d" "$d/t.c" 2>"$d/cc.err"; then
        echo "ok $f: the C header compiles (gcc -std=c11 -Wall -Wextra -Wpedantic -Werror)"
    else
        echo "not ok $f: the C header compiles"
        head -n 5 "$d/cc.err" | sed 's/^/# /'
    fi
    rm -f "$d/$b.h"
}
header_job() { header_compiles "$1" >"$tmp/res/${1//\//_}.tap"; }
# shellcheck disable=SC2086
each_on_cores header_job $files
for f in $files; do
    name="" detail=()
    while IFS= read -r line; do
        case $line in
        "# "*) detail+=("${line#\# }") ;;
        *)
            [ -n "$name" ] && tap_report "$name" "${detail[@]}"
            name=$line detail=()
            ;;
        esac
    done <"$tmp/res/${f//\//_}.tap"
    [ -n "$name" ] && tap_report "$name" "${detail[@]}"
done

tap_done
