#!/usr/bin/env bash
# tests/svd/run-prefixed.sh - an element or attribute with a namespace prefix is not SVD's,
# whatever its local name (CMSIS-SVD.xsd has no target namespace): in
# tests/errors/svd-unknown-element-prefixed.svd (whose warning its golden holds), CTRL's
# <v:fields> is ignored, so CTRL has no field EN, only the field made for a register without
# fields; R2's v:derivedFrom="A" is no derivedFrom, so R2 does not take A's field X. Facts by
# hand from the file, read from -t json.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
spec=tests/errors/svd-unknown-element-prefixed.svd

cat >"$tmp/facts.py" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    for r in b["registers"]:
        names = [f["name"] for f in r["fields"] if not f["implicit"]]
        print("%s derived=%s fields=%s" % (r["name"], (r["svd"] or {}).get("derived_from") or "-",
                                           ",".join(names)))
PY
cat >"$tmp/want" <<'WANT'
CTRL derived=- fields=CTRL
A derived=- fields=X
R2 derived=- fields=R2
WANT
if "$regc" "$spec" -t json -o "$tmp/got.json" 2>"$tmp/err" &&
    python3 "$tmp/facts.py" "$tmp/got.json" >"$tmp/got" 2>>"$tmp/err"; then
    tap_diff "prefixed <v:fields> and v:derivedFrom are not SVD's" "$tmp/want" "$tmp/got"
else
    tap_fail "prefixed <v:fields> and v:derivedFrom are not SVD's" "$(head -n 3 "$tmp/err")"
fi
tap_done
