#!/usr/bin/env bash
# tests/cli/run-specpath.sh - a spec given by name (compiler/specpath.h):
# REGC_SPEC_PATH first, then the specs beside regc (here the source tree's
# regspec/ beside build/), a path (a '/', or ending in .xml or .svd) used as
# given, a bare name never taken from the current directory silently, and a
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
    tap_ok "a name ending in .xml is a path, used as given"
else tap_fail "a name ending in .xml is a path, used as given" "$(cat err)"; fi
# A file called NAME here: the search path still wins, and a note says so.
sed 's/title="Command-line test spec"/title="From here"/' "$tmp/b/mini.xml" >mini
REGC_SPEC_PATH="$tmp/b" "$regc" mini -t md -o here.md 2>err; rc=$?
if [ "$rc" = 0 ] && grep -q "Command-line test spec" here.md &&
    [ "$(cat err)" = "regc: note: 'mini' is the spec $tmp/b/mini.xml from the search path, not the file 'mini' here (write './mini' for that one)" ]; then
    tap_ok "NAME with a file NAME here: the search path's, and a note"
else tap_fail "NAME with a file NAME here: the search path's, and a note" "exit $rc: $(cat err)"; fi
"$regc" ./mini -t md -o here.md 2>err && grep -q "From here" here.md &&
    tap_ok "./NAME: the file here" || tap_fail "./NAME: the file here" "$(cat err)"
cp mini lonely
"$regc" lonely --check 2>err; rc=$?
if [ "$rc" = 3 ] && [ "$(cat err)" = "regc: error: no spec 'lonely' in the search path (\$REGC_SPEC_PATH, the installed specs); the file 'lonely' here is read only as a path: write './lonely'" ]; then
    tap_ok "NAME found only here: an error, not the file here"
else tap_fail "NAME found only here: an error, not the file here" "exit $rc: $(cat err)"; fi
"$regc" xeon7500_mbox.svd --check 2>err; rc=$?
[ "$rc" = 3 ] && grep -q "^xeon7500_mbox.svd: error: cannot read file" err &&
    tap_ok "NAME.svd is a path, not looked up" || tap_fail "NAME.svd is a path, not looked up" "exit $rc: $(cat err)"
"$regc" no_such_spec --check 2>err; rc=$?
if [ "$rc" = 3 ] && grep -q "^no_such_spec: error: cannot read" err; then
    tap_ok "a name found nowhere: cannot read it, exit 3"
else tap_fail "a name found nowhere: cannot read it, exit 3" "exit $rc: $(cat err)"; fi
tap_done
