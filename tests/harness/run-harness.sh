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

# expect NAME STATUS WANT TEST...: tests/run.sh TEST... exits STATUS and its last lines are WANT
expect() {
    local name=$1 want_st=$2 want=$3 st got; shift 3
    TEST_LOGS=$tmp/logs bash tests/run.sh "$@" >"$tmp/out" 2>&1
    st=$?
    if [ "$st" = "$want_st" ] && [ "$(tail -n "$(printf '%s\n' "$want" | wc -l)" "$tmp/out")" = "$want" ]; then
        tap_ok "$name"
    else
        mapfile -t got <"$tmp/out"
        tap_fail "$name" "status $st, expected $want_st" "${got[@]}"
    fi
}

expect "each skipped test listed with its reason, then the counts" 0 "skipped (test: name: reason):
  $tmp/skips.sh: through msrfs: /dev/fuse is missing
  $tmp/skips.sh: test_through_kernel: cannot mount msrfs: fusermount3: permission denied
  $tmp/skips.sh: (unnamed): (no reason given)
2 passed, 0 failed, 3 skipped" "$tmp/skips.sh" "$tmp/clean.sh"
expect "no skip: no list" 0 "$(printf 'ok    %-40s 1 passed' "$tmp/clean.sh")
1 passed, 0 failed, 0 skipped" "$tmp/clean.sh"
expect "a test exiting 3 without 'not ok' counts as a failure" 1 "failed: $tmp/crash.sh
1 passed, 1 failed, 0 skipped" "$tmp/crash.sh"
tap_done
