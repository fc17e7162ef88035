# tests/runtime/golden.sh - sourced by the regctl test scripts.
#
# golden NAME EXPECTED_STATUS ARGS...: runs "$REGCTL" ARGS and compares its
# stdout and stderr, then a line "exit N", with tests/runtime/golden/NAME.out
# (one TAP line); UPDATE_GOLDEN=1 rewrites the file first. Needs REGCTL and
# tmp (a scratch directory) set, and tests/tap.sh sourced.
golden() {
    local name=$1 want=$2; shift 2
    local dir=tests/runtime/golden
    "$REGCTL" "$@" >"$tmp/$name.out" 2>&1
    local rc=$?
    echo "exit $rc" >>"$tmp/$name.out"
    if [ "${UPDATE_GOLDEN:-}" = 1 ]; then cp "$tmp/$name.out" "$dir/$name.out"; fi
    if [ "$rc" != "$want" ]; then tap_fail "$name: exit $rc, expected $want" "$(head -3 "$tmp/$name.out")"; return; fi
    tap_diff "$name" "$dir/$name.out" "$tmp/$name.out"
}
