#!/usr/bin/env bash
# tests/cli/run-suggest.sh - "did you mean" where a user types a name on
# regc's command line: a spec NAME (looked up as specpath.h says), every
# option --help lists, -W options, -t's built-in templates, and regc
# render's options. The one suggestion rule is regc/suggest.h's.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

# check NAME WANT_STATUS WANT_TEXT COMMAND...: stderr has WANT_TEXT (a fixed string)
check() {
    local name=$1 want_status=$2 want=$3
    shift 3
    "$@" >/dev/null 2>"$tmp/err"
    local status=$?
    if [ "$status" = "$want_status" ] && grep -qF -- "$want" "$tmp/err"; then
        tap_ok "$name"
    else
        tap_fail "$name" "exit $status (want $want_status), stderr:" "$(head -n 3 "$tmp/err")"
    fi
}
# like check, but WANT_TEXT must not be there
check_not() {
    local name=$1 want_status=$2 unwanted=$3
    shift 3
    "$@" >/dev/null 2>"$tmp/err"
    local status=$?
    if [ "$status" = "$want_status" ] && ! grep -qF -- "$unwanted" "$tmp/err"; then
        tap_ok "$name"
    else
        tap_fail "$name" "exit $status (want $want_status), stderr:" "$(head -n 3 "$tmp/err")"
    fi
}

# --- spec names: the installed specs (here the source tree's regspec/ beside build/)
check "spec NAME misspelled: did you mean the installed one" 3 \
    "regc: note: no spec is named 'xeon7500_mbx'; did you mean 'xeon7500_mbox'?" \
    "$regc" xeon7500_mbx -o "$tmp/x.h"
[ -e "$tmp/x.h" ] && tap_fail "spec NAME misspelled: no output" || tap_ok "spec NAME misspelled: no output"
check "spec NAME in another case: the spec of that name" 3 "did you mean 'e5_2600v2'?" \
    "$regc" E5_2600V2 --check
mkdir -p "$tmp/specs"
cp tests/cli/mini.xml "$tmp/specs/mini_spec.xml"
check "spec NAME: \$REGC_SPEC_PATH's specs are offered too" 3 \
    "no spec is named 'mini_sepc'; did you mean 'mini_spec'?" \
    env REGC_SPEC_PATH="$tmp/specs" "$regc" mini_sepc --check
check_not "spec NAME close to none: no note" 3 "note:" "$regc" qqqqqqqq --check
check_not "a path is not a NAME: no note" 3 "note:" "$regc" "$tmp/specs/xeon7500_mbx" --check

# --- options: every option --help lists, with one letter dropped, is suggested
opts=$("$regc" --help | grep -E '^  -' |
    grep -oE '(^  |, )--?[a-zA-Z][-a-zA-Z]*=?' | sed 's/^[ ,]*//' | grep -v '^-W' | sort -u)
n=0
for opt in $opts; do
    [ ${#opt} -ge 6 ] || continue # a short option has too many neighbours to suggest one
    n=$((n + 1))
    k=$(((${#opt} + 1) / 2))
    typo=${opt:0:k}${opt:k+1} # one letter (or '-') dropped from the middle
    check "option $typo: did you mean '$opt'" 2 "unknown option '$typo'; did you mean '$opt'?" \
        "$regc" "$typo" xeon7500_mbox
done
[ "$n" -ge 8 ] && tap_ok "--help lists the long options ($n)" || tap_fail "--help lists the long options" "$opts"
check_not "option far from all: no suggestion" 2 "did you mean" "$regc" -x xeon7500_mbox
check "-W: a misspelled diagnostic name" 2 \
    "unknown warning option '-Werror=field-overlp'; did you mean '-Werror=field-overlap'?" \
    "$regc" -Werror=field-overlp xeon7500_mbox
check "-Wno-: only warnings are offered" 2 \
    "unknown warning option '-Wno-missing-sorce'; did you mean '-Wno-missing-source'?" \
    "$regc" -Wno-missing-sorce xeon7500_mbox
check "-Wno-ERROR: an error cannot be turned off" 2 \
    "'-Wno-schema': 'schema' is an error, which cannot be turned off" "$regc" -Wno-schema xeon7500_mbox
check "-t: a misspelled built-in template" 2 \
    "unknown template 'hmtl': no built-in and no file of that name; did you mean 'html'?" \
    "$regc" -t hmtl xeon7500_mbox
check "render: a misspelled option" 2 "unknown option '--stirct'; did you mean '--strict'?" \
    "$regc" render --stirct t.mustache d.json
tap_done
