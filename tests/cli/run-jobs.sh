#!/usr/bin/env bash
# tests/cli/run-jobs.sh - regc -j N. regc runs on one thread since issue 16
# (docs/performance.md, "Threads"): -j is accepted for Makefiles that pass it,
# checked (1 to 16, else a usage error, exit 2). Then a template failing in a late block of a generated spec: one
# error, no output file.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

python3 bench/gen-spec.py 12 4 16 >"$tmp/gen.xml"
for j in 1 16; do
    if "$regc" -j"$j" --check "$tmp/gen.xml" 2>"$tmp/err"; then tap_ok "-j$j accepted"
    else tap_fail "-j$j accepted" "$(cat "$tmp/err")"; fi
done
# The bound --help and the man page state is the one the parser applies.
help_max=$("$regc" --help | sed -n 's/.*-j N .*accepted (1 to \([0-9]*\)).*/\1/p')
man_max=$(sed -n 's/.*checked to be a number from 1 to \([0-9]*\),.*/\1/p' docs/man/regc.1)
"$regc" -j"$help_max" --check "$tmp/gen.xml" 2>/dev/null; st=$?
"$regc" -j"$((help_max + 1))" --check "$tmp/gen.xml" 2>"$tmp/err"; st1=$?
if [ -n "$help_max" ] && [ "$man_max" = "$help_max" ] && [ "$st" = 0 ] && [ "$st1" = 2 ] &&
    grep -q "from 1 to $help_max, not '$((help_max + 1))'" "$tmp/err"; then
    tap_ok "--help, the man page and the parser agree: -j up to $help_max"
else
    tap_fail "--help, the man page and the parser agree" "--help: '$help_max', man page: '$man_max'" \
        "-j$help_max: status $st; -j$((help_max + 1)): status $st1, $(cat "$tmp/err")"
fi
for j in 0 17 x 2x; do
    "$regc" -j"$j" --check "$tmp/gen.xml" 2>"$tmp/err"; st=$?
    if [ "$st" = 2 ] && grep -q "error: -j needs a number from 1 to 16, not '$j'" "$tmp/err"; then
        tap_ok "-j$j: a usage error (exit 2)"
    else
        tap_fail "-j$j: a usage error (exit 2)" "status $st" "$(cat "$tmp/err")"
    fi
done

# A template failing only in block 12 of 12 (a missing partial: found only by rendering; an
# unknown name is found before): reported once, nothing written.
printf '{{#blocks}}{{name}}{{#last}}{{>nope}}{{/last}}\n{{/blocks}}' >"$tmp/late.mustache"
"$regc" -t "$tmp/late.mustache" "$tmp/gen.xml" -o "$tmp/late.out" 2>"$tmp/late.err"; st=$?
if [ "$st" = 1 ] && [ "$(grep -c "error: partial 'nope' not found" "$tmp/late.err")" = 1 ] && [ ! -e "$tmp/late.out" ]; then
    tap_ok "template error in the last block: reported once, nothing written"
else
    tap_fail "template error in the last block: reported once, nothing written" "status $st" "$(cat "$tmp/late.err")"
fi
tap_done
