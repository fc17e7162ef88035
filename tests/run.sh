#!/usr/bin/env bash
# tests/run.sh - run every test program and script, count TAP results.
#
# Test programs (build/tests/*/test_*) and scripts (tests/*/run-*.sh) print TAP:
#   ok N - name | not ok N - name | ok N - name # SKIP reason
# A program that exits non-zero without reporting a failure counts as one failure,
# so a crash can never pass. The last line is "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.."
: "${BUILD:=build}" "${REGC:=$BUILD/regc}"
export BUILD REGC REGCTL="${REGCTL:-}" CMOCKA_MESSAGE_OUTPUT=TAP
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# A test that runs make (kbuild, make install) starts its own: the parent's
# MAKEFLAGS name a jobserver whose pipes `make check` did not hand down (CI sets
# MAKEFLAGS=-j2), and make would warn "jobserver unavailable" into the test's log.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
# runs on the msr backend (msrfs) lock in a directory of their own, not /run/regc
REGC_LOCK_DIR=$(mktemp -d "${TMPDIR:-/tmp}/regc-locks-XXXXXX") || exit 1
export REGC_LOCK_DIR
trap 'rm -rf "$REGC_LOCK_DIR"' EXIT
logdir="$BUILD/test-logs"
rm -rf "$logdir"; mkdir -p "$logdir"
pass=0 fail=0 skip=0
failed=()

run_one() {   # name, command...
    local name=$1; shift
    local log="$logdir/${name//\//_}.log"
    timeout 600 "$@" >"$log" 2>&1
    local rc=$?
    local p f s
    p=$(grep -cE '^ok [0-9]+' "$log" | tr -d ' ')
    s=$(grep -ciE '^ok [0-9]+.*# *skip' "$log" | tr -d ' ')
    f=$(grep -cE '^not ok [0-9]+' "$log" | tr -d ' ')
    p=$((p - s))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
        echo "not ok - $name exited with status $rc" >>"$log"
    fi
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
    if [ "$f" -ne 0 ]; then
        failed+=("$name")
        printf 'FAIL  %-40s %d passed, %d failed (log: %s)\n' "$name" "$p" "$f" "$log"
        grep -E '^not ok' "$log" | head -n 20 | sed 's/^/      /'
    else
        printf 'ok    %-40s %d passed%s\n' "$name" "$p" "$([ "$s" -gt 0 ] && echo ", $s skipped")"
    fi
}

for t in "$BUILD"/tests/unit/test_* "$BUILD"/tests/runtime/test_*; do
    [ -x "$t" ] && [ -f "$t" ] || continue
    case "$t" in *.d) continue ;; esac
    run_one "${t#"$BUILD"/tests/}" "$t"
done
for s in tests/*/run-*.sh; do
    [ -f "$s" ] || continue
    run_one "${s#tests/}" bash "$s"
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "failed: ${failed[*]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
