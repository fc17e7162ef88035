#!/usr/bin/env bash
# tests/golden/run-generated.sh - generated/ is current: every output of every
# spec, rendered now by the regc under test (tools/make-generated.sh into a
# scratch directory), is byte-identical to the committed file, and generated/
# holds nothing else. CI checks the same with git; this makes `make check`
# say it too. Fix: `make generated`, review the diff, commit it.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

if ! tools/make-generated.sh "$regc" "$tmp/gen" 2>"$tmp/err" || [ -z "$(ls "$tmp/gen")" ]; then
    tap_fail "generated/: render every spec" "$(head -n 5 "$tmp/err")"; tap_done; exit 0
fi
stale=() missing=()
for f in "$tmp"/gen/*; do
    name=${f##*/}
    if [ ! -f "generated/$name" ]; then missing+=("$name")
    elif ! cmp -s "$f" "generated/$name"; then stale+=("$name"); fi
done
extra=()
for f in generated/*; do [ -e "$tmp/gen/${f##*/}" ] || extra+=("${f##*/}"); done
n=$(ls "$tmp/gen" | wc -l)
if [ ${#stale[@]} -eq 0 ] && [ ${#missing[@]} -eq 0 ]; then
    tap_ok "generated/ is current: $n files as regc renders them now"
else
    tap_fail "generated/ is current (run 'make generated', review and commit)" \
        "stale: ${stale[*]:-none}" "missing: ${missing[*]:-none}"
fi
if [ ${#extra[@]} -eq 0 ]; then tap_ok "generated/ holds nothing regc does not render"
else tap_fail "generated/ holds nothing regc does not render" "extra: ${extra[*]}"; fi
tap_done
