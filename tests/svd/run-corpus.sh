#!/usr/bin/env bash
# tests/svd/run-corpus.sh - every file of the CMSIS-SVD test set (../shared/svd:
# corpus/*/*.svd and vendor-headers/nordic/*.svd) imports, its diagnostics by
# kind are the reviewed list tests/svd/corpus-diagnostics.txt (a new or a lost
# diagnostic fails), its C header (-t c) compiles with
# gcc -std=c11 -Wall -Wextra -Wpedantic -Werror, and its JSON model (-t json)
# validates against docs/regc-model.schema.json (python3-jsonschema, draft 7).
# REGC_SVD_DATA names the test set (default ../shared/svd from the repository
# root); without it every case is skipped with the reason.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

svd=${REGC_SVD_DATA:-$tap_top/../shared/svd}
if [ ! -d "$svd/corpus" ]; then
    tap_skip "SVD test set" "no test set at $svd (../shared/svd from the repository root, or REGC_SVD_DATA)"
    tap_done
    exit 0
fi

files=$(cd "$svd" && ls corpus/*/*.svd vendor-headers/nordic/*.svd | sort)

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

mkdir -p "$tmp/json"
for f in $files; do
    b=$(basename "$f" .svd)
    if ! "$regc" "$svd/$f" -t c -o "$tmp/$b.h" 2>"$tmp/$b.err"; then
        tap_fail "$f: regc -t c" "$(head -n 3 "$tmp/$b.err")"
        continue
    fi
    printf '#include "%s.h"\nint main(void) { return 0; }\n' "$b" >"$tmp/t.c"
    if gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$tmp" "$tmp/t.c" 2>"$tmp/cc.err"; then
        tap_ok "$f: the C header compiles (gcc -std=c11 -Wall -Wextra -Wpedantic -Werror)"
    else
        tap_fail "$f: the C header compiles" "$(head -n 5 "$tmp/cc.err")"
    fi
    rm -f "$tmp/$b.h"
    "$regc" "$svd/$f" -t json -o "$tmp/json/$b.json" 2>/dev/null ||
        tap_fail "$f: regc -t json"
done

if ! python3 -c 'import jsonschema' 2>/dev/null; then
    tap_skip "JSON models against docs/regc-model.schema.json" "python3-jsonschema is not installed (tools/install-deps.sh)"
else
    cat >"$tmp/validate.py" <<'PY'
import json, sys, jsonschema
v = jsonschema.Draft7Validator(json.load(open(sys.argv[1])))
for path in sys.argv[2:]:
    errors = sorted(v.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
    name = path.rsplit("/", 1)[-1]
    if errors:
        print(f"not ok - {name}: the JSON model validates")
        for e in errors[:3]:
            print(f"#   at /{'/'.join(map(str, e.path))}: {e.message[:200]}")
    else:
        print(f"ok - {name}: the JSON model validates against docs/regc-model.schema.json")
PY
    python3 "$tmp/validate.py" docs/regc-model.schema.json "$tmp"/json/*.json >"$tmp/valid" 2>&1
    while IFS= read -r line; do
        case $line in
        "ok - "*) tap_ok "${line#ok - }" ;;
        "not ok - "*) tap_fail "${line#not ok - }" ;;
        *) echo "$line" ;;
        esac
    done <"$tmp/valid"
fi
tap_done
