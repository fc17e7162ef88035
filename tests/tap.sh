# tests/tap.sh - TAP helpers for shell tests; source it.
#   tap_ok NAME / tap_fail NAME [DETAIL...] / tap_skip NAME REASON / tap_check NAME CMD...
#   tap_diff NAME EXPECTED_FILE ACTUAL_FILE
#   tap_refused NAME PATTERN CMD...  CMD must fail, its output (stdout and stderr) matching
#                                    PATTERN (grep -E)
#   tap_skip_rest REASON NAME...   skips each NAME for REASON and ends the script (status 0)
# The set-up the scripts share: tap_setup [regc] [tmp] sets
#   $regc  the compiler under test, $REGC (default build/regc, from the top of
#          the tree) made absolute, so it runs from any directory
#   $tmp   a new directory, removed when the script exits
tap_n=0
tap_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tap_ok()   { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
tap_fail() {
    tap_n=$((tap_n + 1)); echo "not ok $tap_n - $1"; shift
    local line; for line in "$@"; do echo "#   $line"; done
}
tap_check() { local name=$1; shift; if "$@"; then tap_ok "$name"; else tap_fail "$name" "command failed: $*"; fi; }
tap_diff() {
    if diff -u "$2" "$3" >"${3}.diff" 2>&1; then tap_ok "$1"; else
        tap_fail "$1"; sed 's/^/#   /' "${3}.diff" | head -n 40; fi
}
tap_refused() {
    local name=$1 pattern=$2 out
    shift 2
    if out=$("$@" 2>&1); then tap_fail "$name" "status 0"
    elif grep -qE -- "$pattern" <<<"$out"; then tap_ok "$name"
    else tap_fail "$name" "$(head -n 3 <<<"$out")"; fi
}
tap_done() { echo "1..$tap_n"; }
tap_skip_rest() {
    local why=$1 t; shift
    for t in "$@"; do tap_skip "$t" "$why"; done
    tap_done
    exit 0
}
tap_setup() {
    local what
    for what in "$@"; do
        case $what in
        regc) regc=${REGC:-build/regc}; case $regc in /*) ;; *) regc=$tap_top/$regc ;; esac ;;
        tmp) tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT ;;
        *) echo "tap_setup: unknown '$what'" >&2; exit 2 ;;
        esac
    done
}
