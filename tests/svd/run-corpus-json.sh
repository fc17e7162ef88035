#!/usr/bin/env bash
# tests/svd/run-corpus-json.sh - the JSON model (-t json) of every file of the CMSIS-SVD test set
# (../shared/svd: corpus/*/*.svd and vendor-headers/nordic/*.svd) validates against
# docs/regc-model.schema.json (python3-jsonschema, draft 7). The models are up to 13 MB: they are
# written and validated on every core. REGC_SVD_DATA names the test set (default ../shared/svd
# from the repository root); without it the case is skipped with the reason. (The rest of the
# test set's checks: run-corpus.sh.)
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

. tests/svd/testset.sh
svd_need corpus "SVD test set"

mkdir -p "$tmp/json"
files=$(svd_files)
json_job() {
    "$regc" "$svd/$1" -t json -o "$tmp/json/$(basename "$1" .svd).json" 2>/dev/null ||
        echo "$1" >"$tmp/json/$(basename "$1" .svd).failed"
}
# shellcheck disable=SC2086
each_on_cores json_job $files
for f in $files; do
    [ -e "$tmp/json/$(basename "$f" .svd).failed" ] && tap_fail "$f: regc -t json"
done

if ! python3 -c 'import jsonschema' 2>/dev/null; then
    tap_skip "JSON models against docs/regc-model.schema.json" "python3-jsonschema is not installed (tools/install-deps.sh)"
else
    # one validator per core (the models are up to 13 MB; the largest takes seconds), the
    # verdicts in the files' order
    cat >"$tmp/validate.py" <<'PY'
import json, multiprocessing, os, sys, jsonschema

def setup(schema):
    global validator
    validator = jsonschema.Draft7Validator(json.load(open(schema)))

def verdict(path):
    errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
    name = path.rsplit("/", 1)[-1]
    if not errors:
        return f"ok - {name}: the JSON model validates against docs/regc-model.schema.json"
    return "\n".join([f"not ok - {name}: the JSON model validates"] +
                     [f"#   at /{'/'.join(map(str, e.path))}: {e.message[:200]}" for e in errors[:3]])

if __name__ == "__main__":
    with multiprocessing.Pool(os.cpu_count() or 1, setup, (sys.argv[1],)) as pool:
        for out in pool.imap(verdict, sys.argv[2:]):
            print(out)
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
