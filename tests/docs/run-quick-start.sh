#!/usr/bin/env bash
# tests/docs/run-quick-start.sh - tools/readme-commands.sh, which prints the
# README's quick-start commands for CI: on README.md, the set-up command and
# the test command exactly as the README shows them; on made-up READMEs, an
# indented and a fenced block, a marking among other directives, and a clear
# error (status 1) when a name is marked nowhere, twice, or before no block;
# and .ci/run runs the set-up command, then the test command, before
# anything else.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup tmp
rc=tools/readme-commands.sh

# expect NAME STATUS STDOUT STDERR README-TEXT
expect() {
    printf '%s' "$5" >"$tmp/R.md"
    sh "$rc" "$2" "$tmp/R.md" >"$tmp/out" 2>"$tmp/err"
    local st=$? problems=()
    [ "$st" = "${6:-0}" ] || problems+=("status $st, expected ${6:-0}")
    [ "$(cat "$tmp/out")" = "$3" ] || problems+=("stdout: $(cat "$tmp/out")" "expected: $3")
    [ "$(cat "$tmp/err")" = "$4" ] || problems+=("stderr: $(cat "$tmp/err")" "expected: $4")
    if [ ${#problems[@]} -eq 0 ]; then tap_ok "$1"; else tap_fail "$1" "${problems[@]}"; fi
}

# README.md itself: the lines the README shows, as it shows them (four blanks in front)
setup=$(sh "$rc" setup)
if [ -n "$setup" ] && [ "$(printf '%s\n' "$setup" | wc -l)" = 1 ] &&
    grep -qxF "    $setup" README.md && case $setup in "tools/install-deps.sh && make && "*) true ;; *) false ;; esac; then
    tap_ok "README.md: the set-up command, as shown: $setup"
else
    tap_fail "README.md: the set-up command, as shown" "got: $setup"
fi
[ "$(sh "$rc" test)" = "make check" ] && tap_ok "README.md: the test command is make check" ||
    tap_fail "README.md: the test command is make check" "got: $(sh "$rc" test 2>&1)"

text='# x

Set up:

<!-- doc-test: stub tools/install-deps.sh (installs)
quick-start setup -->
    first && second \
        --continued

Test:

<!-- doc-test: quick-start test -->
```sh
make check
```

<!-- doc-test: quick-start lone -->

Just a paragraph.

<!-- not a doc-test comment: quick-start other -->
    never
'
expect "an indented block after a marking among other directives" setup \
    'first && second \
    --continued' "" "$text"
expect "a fenced block" test "make check" "" "$text"
expect "a name marked before no block: an error" lone "" \
    "readme-commands: $tmp/R.md: quick-start lone (line 17) is followed by no code block" "$text" 1
expect "a name marked nowhere (not in another comment either): an error" other "" \
    "readme-commands: $tmp/R.md: no doc-test comment marks quick-start other" "$text" 1
expect "a name marked twice: an error" test "make check" \
    "readme-commands: $tmp/R.md: quick-start test is marked twice (lines 12 and 24)" "$text
<!-- doc-test: quick-start test -->
    make other
" 1
sh "$rc" 'a b' README.md >/dev/null 2>"$tmp/err"; st=$?
[ "$st" = 2 ] && grep -q "is no quick-start name" "$tmp/err" && tap_ok "a bad name: usage error" ||
    tap_fail "a bad name: usage error" "status $st: $(cat "$tmp/err")"

# .ci/run: the README's set-up command, then its test command, are the first things it runs
cmds=$(grep -vE '^\s*(#|$)' .ci/run | grep -nE '^(readme |make|tools/|bash )' | head -n 3)
if [ "$(printf '%s\n' "$cmds" | cut -d: -f2-)" = "readme setup
readme test
make generated" ] && grep -q 'cmd=$(tools/readme-commands.sh "$1")' .ci/run; then
    tap_ok ".ci/run: the README's set-up command, then its test command, first"
else
    tap_fail ".ci/run: the README's set-up command, then its test command, first" "$cmds"
fi
tap_done
