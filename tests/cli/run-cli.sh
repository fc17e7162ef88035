#!/usr/bin/env bash
# tests/cli/run-cli.sh - regc behaves like a compiler: exit codes, atomic
# output, dependency files make understands, determinism, warnings options.
set -u
cd "$(dirname "$0")"
. ../tap.sh
tap_setup regc tmp

expect() {   # name, expected status, expected stderr (exact; '' for empty), command...
    local name=$1 want=$2 want_err=$3; shift 3
    "$@" >"$tmp/stdout" 2>"$tmp/stderr"
    local st=$?
    if [ "$st" -ne "$want" ]; then
        tap_fail "$name: status $st, expected $want" "$(head -n 3 "$tmp/stderr")"
    elif [ "$(cat "$tmp/stderr")" != "$want_err" ]; then
        tap_fail "$name: stderr" "expected: $want_err" "actual:   $(cat "$tmp/stderr")"
    else
        tap_ok "$name"
    fi
}

expect "--version" 0 "" "$regc" --version
grep -qE '^regc [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/stdout" && tap_ok "--version format" || tap_fail "--version format"
expect "--help" 0 "" "$regc" --help
grep -q '^usage: regc' "$tmp/stdout" && tap_ok "--help prints usage" || tap_fail "--help prints usage"
expect "no arguments" 2 "regc: error: no spec given
Try 'regc --help' for more information." "$regc"
expect "unknown option" 2 "regc: error: unknown option '--bogus'
Try 'regc --help' for more information." "$regc" --bogus mini.xml
expect "-o without value" 2 "regc: error: option '-o' needs a value
Try 'regc --help' for more information." "$regc" mini.xml -o
expect "unknown warning" 2 "regc: error: unknown warning option '-Wno-such-thing'
Try 'regc --help' for more information." "$regc" -Wno-such-thing mini.xml
expect "two specs" 2 "regc: error: more than one spec given ('nosource.xml'); only --check without --against takes several
Try 'regc --help' for more information." "$regc" mini.xml nosource.xml
expect "two specs to compare" 2 "regc: error: more than one spec given ('nosource.xml'); only --check without --against takes several
Try 'regc --help' for more information." "$regc" --check --against x.h mini.xml nosource.xml
# --check of several specs: each checked on its own under the same options, none
# skipped after another's error; the exit status is the worst (3, I/O, before 1)
expect "--check of several specs" 3 "absent.xml: error: cannot read file: No such file or directory
nosource.xml:5: error: register 'CTL' cites no source [-Wmissing-source]" \
    "$regc" -Werror --check mini.xml absent.xml nosource.xml mini.xml
expect "--check of several valid specs" 0 "" "$regc" --check mini.xml ./mini.xml
sed 's/<register name="CTL"/&/; s|</block>|<register name="CTL2" space="msr" address="0x104" width="32"><field name="v" bits="31:0" access="RW" reset="0"/></register>&|' \
    nosource.xml >"$tmp/twice.xml"
expect "--check of several: -ferror-limit per spec" 1 "$tmp/twice.xml:5: error: register 'CTL' cites no source [-Wmissing-source]
regc: note: 1 more error not shown (-ferror-limit=1)
$tmp/twice.xml:5: error: register 'CTL' cites no source [-Wmissing-source]
regc: note: 1 more error not shown (-ferror-limit=1)" \
    "$regc" -Werror -ferror-limit=1 --check "$tmp/twice.xml" "$tmp/twice.xml"
expect "missing spec file" 3 "absent.xml: error: cannot read file: No such file or directory" \
    "$regc" --check absent.xml
expect "--check on a valid spec" 0 "" "$regc" --check mini.xml

# Output goes to -o, atomically; stdout without -o.
expect "compile to -o" 0 "" "$regc" mini.xml -o "$tmp/mini.h"
[ -s "$tmp/mini.h" ] && tap_ok "-o wrote the header" || tap_fail "-o wrote the header"
expect "compile to stdout" 0 "" "$regc" mini.xml
cmp -s "$tmp/stdout" "$tmp/mini.h" && tap_ok "stdout equals -o output" || tap_fail "stdout equals -o output"
"$regc" mini.xml -o "$tmp/again.h"
cmp -s "$tmp/mini.h" "$tmp/again.h" && tap_ok "output is deterministic" || tap_fail "output is deterministic"
# (neither the source tree's path nor the scratch directory's, where -o wrote)
grep -qF -e "$tap_top" -e "$tmp" "$tmp/mini.h" "$tmp/stdout" && tap_fail "no absolute paths in output" ||
    tap_ok "no absolute paths in output"

# A path whose folder is a regular file fails even for root (permissions would not).
touch "$tmp/afile"
expect "output folder is a file" 3 "regc: error: cannot write '$tmp/afile/x.h': Not a directory" \
    "$regc" mini.xml -o "$tmp/afile/x.h"
expect "output into a missing folder" 3 \
    "regc: error: cannot write '$tmp/nodir/x.h': No such file or directory" \
    "$regc" mini.xml -o "$tmp/nodir/x.h"
[ "$(ls -A "$tmp" | grep -c tmp)" -eq 0 ] && tap_ok "no temporary left behind" || tap_fail "no temporary left behind" "$(ls -A "$tmp")"

# Template choice from the extension.
"$regc" mini.xml -o "$tmp/mini.json" && jq -e '.spec.name == "mini"' "$tmp/mini.json" >/dev/null &&
    tap_ok ".json output is the JSON export" || tap_fail ".json output is the JSON export"
expect "--prefix overrides" 0 "" "$regc" --prefix=OTHER mini.xml -o "$tmp/other.h"
grep -q 'OTHER_CTL_EN_MASK' "$tmp/other.h" && ! grep -q 'MINI_CTL' "$tmp/other.h" &&
    tap_ok "--prefix used in names" || tap_fail "--prefix used in names"

# Warnings: printed with their option, exit 0; -Werror makes them errors.
warn="nosource.xml:5: warning: register 'CTL' cites no source [-Wmissing-source]"
expect "warning exits 0" 0 "$warn" "$regc" --check nosource.xml
expect "-Werror" 1 "nosource.xml:5: error: register 'CTL' cites no source [-Wmissing-source]" \
    "$regc" -Werror --check nosource.xml
expect "-Wno-missing-source" 0 "" "$regc" -Wno-missing-source --check nosource.xml
expect "-Werror=missing-source" 1 "nosource.xml:5: error: register 'CTL' cites no source [-Wmissing-source]" \
    "$regc" -Werror=missing-source --check nosource.xml

# Dependency files: the format make reads, and make acting on them.
expect "-MD" 0 "" "$regc" mini.xml -o "$tmp/dep.h" -MD
head -n 2 "$tmp/dep.h.d" | grep -q '^  mini.xml \\$\|^  mini.xml$' && tap_ok "-MD names the spec" ||
    tap_fail "-MD names the spec" "$(cat "$tmp/dep.h.d")"
expect "-MF -MT" 0 "" "$regc" mini.xml -o "$tmp/dep2.h" -MF "$tmp/custom.d" -MT mytarget
grep -q '^mytarget:' "$tmp/custom.d" && tap_ok "-MT names the target" || tap_fail "-MT names the target"
mkdir -p "$tmp/mk"; cp mini.xml "$tmp/mk/"
cat >"$tmp/mk/Makefile" <<MK
out.h: mini.xml
	$regc mini.xml -o out.h -MD
-include out.h.d
MK
( cd "$tmp/mk" && make -s >/dev/null 2>&1 && make -q out.h ) && tap_ok "make: up to date after build" ||
    tap_fail "make: up to date after build"
( cd "$tmp/mk" && sleep 1 && touch mini.xml && ! make -q out.h ) && tap_ok "make: rebuilds when the spec changes" ||
    tap_fail "make: rebuilds when the spec changes"
grep -q '^mini.xml:$' "$tmp/mk/out.h.d" && tap_ok "-MD writes a phony rule per input" ||
    tap_fail "-MD writes a phony rule per input"
tap_done
