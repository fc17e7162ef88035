#!/usr/bin/env bash
# tests/cli/run-specpath.sh - a spec given by name (compiler/specpath.h):
# REGC_SPEC_PATH first, then the specs beside regc (here the source tree's
# regspec/ beside build/), a path or a name with a dot used as given, and a
# name found nowhere reported as the file that cannot be read.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

mkdir -p "$tmp/a" "$tmp/b"
cp tests/cli/mini.xml "$tmp/b/mini.xml"
sed 's/title="Command-line test spec"/title="From a"/' tests/cli/mini.xml >"$tmp/a/mini.xml"
cd "$tmp"
if REGC_SPEC_PATH="$tmp/none:$tmp/a:$tmp/b" "$regc" mini -t md -o out.md 2>err && grep -q "From a" out.md; then
    tap_ok "REGC_SPEC_PATH: the first directory that has NAME.xml wins"
else tap_fail "REGC_SPEC_PATH: the first directory that has NAME.xml wins" "$(cat err)"; fi
if "$regc" xeon7500_mbox -o mbox.h 2>err && cmp -s mbox.h "$tap_top/generated/xeon7500_mbox.h"; then
    tap_ok "a spec of regspec/ by name, from any directory: regc xeon7500_mbox"
else tap_fail "a spec of regspec/ by name, from any directory" "$(cat err)"; fi
mkdir -p sub && cp "$tmp/a/mini.xml" sub/mini.xml
if (cd sub && REGC_SPEC_PATH="$tmp/b" "$regc" mini.xml -t md -o ../dot.md 2>../err) && grep -q "From a" dot.md; then
    tap_ok "a name with a dot is a path, used as given"
else tap_fail "a name with a dot is a path, used as given" "$(cat err)"; fi
"$regc" no_such_spec --check 2>err; rc=$?
if [ "$rc" = 3 ] && grep -q "^no_such_spec: error: cannot read" err; then
    tap_ok "a name found nowhere: cannot read it, exit 3"
else tap_fail "a name found nowhere: cannot read it, exit 3" "exit $rc: $(cat err)"; fi
tap_done
