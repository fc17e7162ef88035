#!/usr/bin/env bash
# tests/svd/run-array-index-list.sh - tests/svd/array-index-list.xml: the elements of a dim-of=
# list of instances and of a cluster array the SVD reader expanded per index have one
# <array-index>, their first element's, also where a later one gives none (docs/regspec.md): it
# compiles without a diagnostic, -t json gives each element the index as UA and E0 write it
# (the facts below, from the file), and -t svd writes it once per array.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
spec=tests/svd/array-index-list.xml

if ! "$regc" "$spec" -t json -o "$tmp/t.json" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
    tap_fail "array-index-list.xml: compiled without a diagnostic" "$(head -n 5 "$tmp/err")"
    tap_done
    exit 0
fi
tap_ok "array-index-list.xml: compiled without a diagnostic"

got=$(python3 - "$tmp/t.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["blocks"][0]
def words(x):
    if x is None:
        return "none"
    vals = ",".join(f"{v['name']}={int(v['value'], 0)}/{v['desc']}" for v in x["values"])
    return f"{x['enum_name']}:{vals}"
for i in b["instances"]:
    print(i["name"], words(i["svd"]["array_index"]))
for c in b["svd"]["clusters"]:
    print(c["name"], words(c["array_index"]))
PY
)
want="UA UIdx:Main=0/None,Last=2/the third
UB UIdx:Main=0/None,Last=2/the third
UC UIdx:Main=0/None,Last=2/the third
E0 None:Second=1/None
E1 None:Second=1/None"
if [ "$got" = "$want" ]; then
    tap_ok "array-index-list.xml: every element has its array's <array-index> (-t json)"
else
    tap_fail "array-index-list.xml: every element has its array's <array-index> (-t json)" \
        "got:" "$got" "want:" "$want"
fi

if "$regc" "$spec" -t svd -o "$tmp/t.svd" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    [ "$(grep -c '<dimArrayIndex>' "$tmp/t.svd")" = 2 ] &&
    [ "$(grep -c '<name>Last</name>' "$tmp/t.svd")" = 1 ] &&
    [ "$(grep -c '<name>Second</name>' "$tmp/t.svd")" = 1 ]; then
    tap_ok "array-index-list.xml: -t svd writes one dimArrayIndex per array"
else
    tap_fail "array-index-list.xml: -t svd writes one dimArrayIndex per array" \
        "$(head -n 5 "$tmp/err")" "$(grep -n -A3 'dimArrayIndex' "$tmp/t.svd" 2>/dev/null | head -20)"
fi
tap_done
