#!/usr/bin/env bash
# tests/harness/run-harness.sh - tests/run.sh itself, on stand-in tests: each
# skipped test is listed with its name and its reason (the TAP "# SKIP
# reason") before the last line, which is "N passed, N failed, N skipped";
# a test that exits non-zero without a "not ok" counts as a failure.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup tmp

cat >"$tmp/skips.sh" <<'SH'
echo "ok 1 - counted"
echo "ok 2 - through msrfs # SKIP /dev/fuse is missing"
echo "ok 0 - test_through_kernel # SKIP cannot mount msrfs: fusermount3: permission denied"
echo "ok 4 # SKIP"
echo "1..4"
SH
cat >"$tmp/crash.sh" <<'SH'
echo "ok 1 - first"
exit 3
SH
cat >"$tmp/clean.sh" <<'SH'
echo "ok 1 - only"
echo "1..1"
SH

TEST_LOGS=$tmp/logs bash tests/run.sh "$tmp/skips.sh" "$tmp/clean.sh" >"$tmp/out" 2>&1
st=$?
want="skipped (test: name: reason):
  $tmp/skips.sh: through msrfs: /dev/fuse is missing
  $tmp/skips.sh: test_through_kernel: cannot mount msrfs: fusermount3: permission denied
  $tmp/skips.sh: (unnamed): (no reason given)
2 passed, 0 failed, 3 skipped"
if [ "$st" = 0 ] && [ "$(tail -n 5 "$tmp/out")" = "$want" ]; then
    tap_ok "each skipped test listed with its reason, then the counts"
else
    mapfile -t got <"$tmp/out"
    tap_fail "each skipped test listed with its reason, then the counts" "status $st" "${got[@]}"
fi

TEST_LOGS=$tmp/logs bash tests/run.sh "$tmp/clean.sh" >"$tmp/out" 2>&1
st=$?
if [ "$st" = 0 ] && ! grep -q '^skipped' "$tmp/out" && [ "$(tail -n 1 "$tmp/out")" = "1 passed, 0 failed, 0 skipped" ]; then
    tap_ok "no skip: no list"
else
    mapfile -t got <"$tmp/out"
    tap_fail "no skip: no list" "status $st" "${got[@]}"
fi

TEST_LOGS=$tmp/logs bash tests/run.sh "$tmp/crash.sh" >"$tmp/out" 2>&1
st=$?
if [ "$st" = 1 ] && [ "$(tail -n 1 "$tmp/out")" = "1 passed, 1 failed, 0 skipped" ]; then
    tap_ok "a test exiting 3 without 'not ok' counts as a failure"
else
    mapfile -t got <"$tmp/out"
    tap_fail "a test exiting 3 without 'not ok' counts as a failure" "status $st" "${got[@]}"
fi
tap_done
