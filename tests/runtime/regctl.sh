# tests/runtime/regctl.sh - the set-up regctl's shell tests share; source it after tests/tap.sh,
# from the top of the tree.
#   BUILD, REGCTL            set unless given: build, and $BUILD/regctl
#   regctl_needs SPEC NAME...  ends the script, each NAME skipped, unless regctl has SPEC's tables
: "${BUILD:=build}"
REGCTL=${REGCTL:-$BUILD/regctl}

regctl_needs() {
    "$REGCTL" list 2>/dev/null | grep -q "^$1 " && return 0
    tap_skip_rest "regctl has no $1 tables" "${@:2}"
}
