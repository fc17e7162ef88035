#!/usr/bin/env bash
# tests/run.sh - run every test program and script, count TAP results.
#
# usage: tests/run.sh [TEST...]   (TEST: a test program, or a script run by bash;
#                                  default: all of build/tests/*/test_* and tests/*/run-*.sh)
# Test programs (build/tests/*/test_*) and scripts (tests/*/run-*.sh) print TAP:
#   ok N - name | not ok N - name | ok N - name # SKIP reason
# A program that exits non-zero without reporting a failure counts as one failure,
# so a crash can never pass. Before the last line, each skipped test with its
# reason; the last line is "N passed, N failed, N skipped". Logs go to
# TEST_LOGS (default $BUILD/test-logs).
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
logdir=${TEST_LOGS:-$BUILD/test-logs}
rm -rf "$logdir"; mkdir -p "$logdir"
pass=0 fail=0 skip=0
failed=() skipped=()

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
    # "ok N - NAME # SKIP REASON" -> "TEST: NAME: REASON"
    local line
    while IFS= read -r line; do
        skipped+=("$name: $line")
    done < <(sed -nE 's/^ok [0-9]+( *- *)?(.*[^ ])? *# *[Ss][Kk][Ii][Pp]\b *(.*)$/\2\t\3/p' "$log" |
        awk -F '\t' '{ printf "%s: %s\n", $1 == "" ? "(unnamed)" : $1, $2 == "" ? "(no reason given)" : $2 }')
    if [ "$f" -ne 0 ]; then
        failed+=("$name")
        printf 'FAIL  %-40s %d passed, %d failed (log: %s)\n' "$name" "$p" "$f" "$log"
        grep -E '^not ok' "$log" | head -n 20 | sed 's/^/      /'
    else
        printf 'ok    %-40s %d passed%s\n' "$name" "$p" "$([ "$s" -gt 0 ] && echo ", $s skipped")"
    fi
}

if [ $# -gt 0 ]; then
    for t in "$@"; do
        n=${t#"$BUILD"/tests/}; n=${n#tests/}
        case $t in
        *.sh) run_one "$n" bash "$t" ;;
        *) run_one "$n" "$t" ;;
        esac
    done
else
    for t in "$BUILD"/tests/unit/test_* "$BUILD"/tests/runtime/test_*; do
        [ -x "$t" ] && [ -f "$t" ] || continue
        case "$t" in *.d) continue ;; esac
        run_one "${t#"$BUILD"/tests/}" "$t"
    done
    for s in tests/*/run-*.sh; do
        [ -f "$s" ] || continue
        run_one "${s#tests/}" bash "$s"
    done
fi

if [ ${#skipped[@]} -gt 0 ]; then
    echo "skipped (test: name: reason):"
    printf '  %s\n' "${skipped[@]}"
fi
if [ ${#failed[@]} -gt 0 ]; then
    echo "failed: ${failed[*]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
