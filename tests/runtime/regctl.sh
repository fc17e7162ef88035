# tests/runtime/regctl.sh - the set-up regctl's shell tests share; source it after tests/tap.sh,
# from the top of the tree.
#   BUILD, REGCTL            set unless given: build, and $BUILD/regctl
#   regctl_needs SPEC NAME...  ends the script, each NAME skipped, unless regctl has SPEC's tables
#   wait_for FILE PATTERN [PID]  until a background run's output FILE has a line matching PATTERN
: "${BUILD:=build}"
REGCTL=${REGCTL:-$BUILD/regctl}

regctl_needs() {
    "$REGCTL" list 2>/dev/null | grep -q "^$1 " && return 0
    tap_skip_rest "regctl has no $1 tables" "${@:2}"
}

# wait_for FILE PATTERN [PID]: until FILE has a line matching PATTERN (60 s at most: a guard
# against a hang, far past what a loaded machine takes), or the writer PID has ended. Empty FILE
# before starting its writer in the background: a line an earlier run left there would match
# before the writer has even begun.
wait_for() {
    for _ in $(seq 1200); do
        grep -q "$2" "$1" 2>/dev/null && return 0
        [ -z "${3:-}" ] || kill -0 "$3" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}
