#!/usr/bin/env bash
# tests/render/run-render.sh - `regc render` from the command line.
#
# 1. The 184 mustache spec tests (core, ~inheritance, ~dynamic-names) through
#    the CLI: each test's template, partials (NAME.mustache beside it) and data
#    are written to a directory of their own and rendered with --escape=html.
# 2. Error cases: exact stderr (positions included), exit status, and no
#    output file (nor temporary file) left behind.
# 3. Partial lookup order, escape choice, atomic replacement of -o.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${BUILD:=build}" "${REGC:=$BUILD/regc}"
REGC=$(cd "$(dirname "$REGC")" && pwd)/$(basename "$REGC")
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

if ! command -v jq >/dev/null; then
    tap_skip "mustache spec through regc render" "jq is not installed"
else
    for f in comments delimiters interpolation inverted partials sections '~inheritance' '~dynamic-names'; do
        spec="tests/mustache-spec/$f.json"
        dir="$work/spec/$f"
        mkdir -p "$dir"
        # One shell script per file writes every test's files (quoted by jq's @sh).
        jq -r --arg d "$dir" '.tests | to_entries[] |
            "mkdir -p \($d)/\(.key)",
            "printf %s \(.value.template | @sh) > \($d)/\(.key)/_spec_main.mustache",
            "printf %s \(.value.data | tojson | @sh) > \($d)/\(.key)/data.json",
            "printf %s \(.value.expected | @sh) > \($d)/\(.key)/expected",
            "printf %s \(.value.name | @sh) > \($d)/\(.key)/name",
            ((.value.partials // {}) | to_entries[] |
                "printf %s \(.value | @sh) > \($d)/KEY/\(.key).mustache") ' "$spec" |
            awk '/^mkdir/ { n = $3; sub(/.*\//, "", n) } { sub(/\/KEY\//, "/" n "/"); print }' >"$dir/make.sh"
        bash "$dir/make.sh"
        for t in $(ls "$dir" | grep -E '^[0-9]+$' | sort -n); do
            d="$dir/$t"
            name="$f.json #$((t + 1)) $(cat "$d/name") (regc render)"
            if "$REGC" render --escape=html "$d/_spec_main.mustache" "$d/data.json" -o "$d/out" \
                2>"$d/err" && cmp -s "$d/expected" "$d/out"; then
                tap_ok "$name"
            else
                tap_fail "$name" "$(cat "$d/err")" "expected: $(od -c "$d/expected" | head -5)" \
                    "got: $(od -c "$d/out" 2>/dev/null | head -5)"
            fi
        done
    done
fi

# ---------------------------------------------------------------- error cases
# expect NAME STATUS EXPECTED_STDERR -- ARGS... : runs regc in $case (a fresh
# directory holding the files written before), with -o out.txt added when the
# arguments contain no -o; checks stderr, status and that no output is left.
case_dir() { case="$work/cases/$1"; mkdir -p "$case"; }
expect() {
    local name=$1 status=$2 experr=$3; shift 4
    local args=("$@") have_o=0 a
    for a in "${args[@]}"; do [ "$a" = "-o" ] && have_o=1; done
    [ $have_o = 1 ] || args+=(-o out.txt)
    # the messages as such: the caret lines under them are tests/errors' business
    (cd "$case" && "$REGC" render -fno-caret-diagnostics "${args[@]}" >stdout.txt 2>stderr.txt)
    local rc=$?
    printf '%s' "$experr" >"$case/expected.err"
    local problems=()
    [ "$rc" = "$status" ] || problems+=("exit status $rc, expected $status")
    cmp -s "$case/expected.err" "$case/stderr.txt" ||
        problems+=("stderr differs:" "$(diff "$case/expected.err" "$case/stderr.txt")")
    [ -e "$case/out.txt" ] && problems+=("out.txt was created")
    ls "$case" | grep -q '\.tmp\.' && problems+=("a temporary file was left behind")
    [ -s "$case/stdout.txt" ] && problems+=("stdout is not empty")
    if [ ${#problems[@]} -eq 0 ]; then tap_ok "$name"; else tap_fail "$name" "${problems[@]}"; fi
}

case_dir unclosed-section
printf 'a\n  {{#list}}\nx\n' >"$case/t.mustache"; echo '{}' >"$case/d.json"
expect "unclosed section" 1 "t.mustache:2:3: error: unclosed section 'list'
" -- t.mustache d.json

case_dir mismatched-close
printf '{{#a}}\nx {{/b}}\n{{/a}}\n' >"$case/t.mustache"; echo '{}' >"$case/d.json"
expect "mismatched close" 1 "t.mustache:2:3: error: section 'a' closed by '/b'
t.mustache:1:1: note: section 'a' opened here
t.mustache:3:1: error: '/a' closes no open section
" -- t.mustache d.json

case_dir bad-delimiters
printf 'one\n  {{=<%% %%> x=}}\n' >"$case/t.mustache"; echo '{}' >"$case/d.json"
expect "bad set-delimiters tag" 1 "t.mustache:2:3: error: bad set-delimiters tag: expected two delimiters without '=' or blanks, separated by a blank
" -- t.mustache d.json

case_dir unclosed-tag
printf 'one\ntwo {{name\n' >"$case/t.mustache"; echo '{}' >"$case/d.json"
expect "unclosed tag" 1 "t.mustache:2:5: error: unclosed tag '{{': no '}}' follows
" -- t.mustache d.json

case_dir unknown-tag
printf '{{%%pragma}}\n' >"$case/t.mustache"; echo '{}' >"$case/d.json"
expect "unknown tag type" 1 "t.mustache:1:1: error: unknown tag type '{{%'
" -- t.mustache d.json

case_dir missing-partial
printf 'x\n  {{>nope}}\n' >"$case/t.mustache"; echo '{}' >"$case/d.json"
expect "missing partial (--strict)" 1 "t.mustache:2:3: error: partial 'nope' not found
" -- --strict t.mustache d.json

case_dir syntax-in-partial
printf '{{>p}}\n' >"$case/t.mustache"; printf 'ok\n{{#x}}\n' >"$case/p.mustache"; echo '{}' >"$case/d.json"
expect "syntax error inside a partial points into the partial" 1 "p.mustache:2:1: error: unclosed section 'x'
" -- t.mustache d.json

case_dir recursion
printf '{{>p}}' >"$case/t.mustache"; printf 'x{{>p}}' >"$case/p.mustache"; echo '{}' >"$case/d.json"
chain="'t.mustache' > 'p.mustache' x65"
expect "partial recursion past 64 levels" 1 "p.mustache:1:2: error: partial 'p' nested more than 64 levels deep
p.mustache:1:2: note: partial chain: $chain
" -- t.mustache d.json

case_dir strict-name
printf '{{#items}}\n  {{name}} {{size}}\n{{/items}}\n' >"$case/t.mustache"
echo '{"items":[{"name":"a"},{"name":"b","size":2}]}' >"$case/d.json"
expect "strict mode: missing name" 1 "t.mustache:2:12: error: no value for 'size'
" -- --strict t.mustache d.json

case_dir bad-json
printf '{{a}}' >"$case/t.mustache"; printf '{"a": 1,\n  "b": x}\n' >"$case/d.json"
expect "bad JSON data" 1 "d.json:2:8: error: invalid token near 'x'
" -- t.mustache d.json

case_dir missing-template
echo '{}' >"$case/d.json"
expect "unreadable template" 3 "regc: error: cannot read 'nope.mustache': No such file or directory
" -- nope.mustache d.json

case_dir missing-data
printf 'x' >"$case/t.mustache"
expect "unreadable data" 3 "regc: error: cannot read 'nope.json': No such file or directory
" -- t.mustache nope.json

case_dir dir-as-data
printf 'x' >"$case/t.mustache"; mkdir "$case/d.json"
expect "data file is a directory" 3 "regc: error: cannot read 'd.json': Is a directory
" -- t.mustache d.json

case_dir unwritable
printf 'x' >"$case/t.mustache"; echo '{}' >"$case/d.json"
expect "unwritable output" 3 "regc: error: cannot write 'nodir/out.txt': No such file or directory
" -- t.mustache d.json -o nodir/out.txt

# Render limits. The expansion case: each copy of the override renders the
# parent 'a' three times, and 'a' renders its block twice (once through 'b'),
# so every copy multiplies the output by six; 12 copies would be 6^12 times
# the text. The default work limit (256M steps) stops it within a second or two.
case_dir expansion
printf '[{{a}}{{>b}}]\n  {{$blk}}default{{/blk}}' >"$case/a.mustache"
printf '{{#l}}{{v}}{{>a}}{{/l}}' >"$case/b.mustache"
printf '{{<a}}%s{{/a}}' "$(for i in $(seq 12); do printf '{{$blk}}{{>a}}{{>a}}{{>a}}{{/blk}}'; done)" \
    >"$case/t.mustache"
echo '{"a":"<x & y>","l":[{"v":"one","l":[]}]}' >"$case/d.json"
expect "expansion: stopped at the default work limit" 1 "a.mustache:2:11: error: rendering over the limit of 268435456 steps; -ftemplate-work-limit=N raises it
" -- t.mustache d.json
expect "expansion: stopped at an output limit" 1 "a.mustache:2:11: error: output over the limit of 1048576 bytes; -ftemplate-output-limit=N raises it
" -- -ftemplate-output-limit=1M t.mustache d.json

# The limits are exact: 1024 bytes pass -ftemplate-output-limit=1k, 1025 do not.
case_dir output-limit
head -c 1024 /dev/zero | tr '\0' x >"$case/t.mustache"; echo '{}' >"$case/d.json"
if (cd "$case" && "$REGC" render -ftemplate-output-limit=1k t.mustache d.json | cmp -s - t.mustache); then
    tap_ok "output limit: 1024 bytes pass 1k"
else tap_fail "output limit: 1024 bytes pass 1k"; fi
printf '{{#l}}y{{/l}}' >>"$case/t.mustache"; echo '{"l":[1]}' >"$case/d.json"
expect "output limit: 1025 bytes do not pass 1k" 1 "t.mustache:1:1031: error: output over the limit of 1024 bytes; -ftemplate-output-limit=N raises it
" -- -ftemplate-output-limit=1k t.mustache d.json
if (cd "$case" && "$REGC" render -ftemplate-output-limit=1k -ftemplate-output-limit=0 t.mustache d.json |
    cmp -s - <(head -c 1024 t.mustache; printf y)); then
    tap_ok "output limit: 0 means none (the last option wins)"
else tap_fail "output limit: 0 means none (the last option wins)"; fi
# Work: text, section, item, text: 4 steps.
expect "work limit: 3 steps are not enough" 1 "t.mustache:1:1031: error: rendering over the limit of 3 steps; -ftemplate-work-limit=N raises it
" -- -ftemplate-work-limit=3 t.mustache d.json
if (cd "$case" && "$REGC" render -ftemplate-work-limit=4 t.mustache d.json >/dev/null); then
    tap_ok "work limit: 4 steps are enough"
else tap_fail "work limit: 4 steps are enough"; fi

# An output that is an input is refused before anything is written.
case_dir output-is-input
printf '{{>p}}{{v}}\n' >"$case/t.mustache"; printf 'P' >"$case/p.mustache"; echo '{"v":1}' >"$case/d.json"
ln -s p.mustache "$case/p-link"; mkdir "$case/dir"
cp -p "$case"/*.mustache "$case/d.json" "$work/"
for o in t.mustache d.json p.mustache p-link ./d.json; do
    in=$o; [ "$o" = p-link ] && in=p.mustache; [ "$o" = ./d.json ] && in=d.json
    expect "-o $o: refused (the input '$in')" 3 "regc: error: cannot write '$o': it is the input '$in'
" -- t.mustache d.json -o "$o"
done
if cmp -s "$case/t.mustache" "$work/t.mustache" && cmp -s "$case/p.mustache" "$work/p.mustache" &&
    cmp -s "$case/d.json" "$work/d.json" && [ -L "$case/p-link" ]; then
    tap_ok "-o over an input: every input unchanged"
else tap_fail "-o over an input: every input unchanged"; fi
expect "-o a directory" 3 "regc: error: cannot write 'dir': Is a directory
" -- t.mustache d.json -o dir
expect "-o dir/" 3 "regc: error: cannot write 'dir/': Is a directory
" -- t.mustache d.json -o dir/
if [ -z "$(ls -A "$case/dir")" ]; then tap_ok "-o dir/: nothing written into the directory"
else tap_fail "-o dir/: nothing written into the directory" "$(ls -A "$case/dir")"; fi

usage="usage: regc render TEMPLATE DATA.json [-I DIR]... [-o FILE] [--strict] [--escape=html|c|md|json|none]
       [-ftemplate-output-limit=N] [-ftemplate-work-limit=N]
"
case_dir usage
expect "usage: no arguments" 2 "regc: error: missing the template
$usage" --
expect "usage: no data file" 2 "regc: error: missing the data file
$usage" -- t.mustache
expect "usage: unknown option" 2 "regc: error: unknown option '--frobnicate'
$usage" -- --frobnicate t.mustache d.json
expect "usage: bad escape kind" 2 "regc: error: unknown escape kind 'xml' (html, c, md, json or none)
$usage" -- --escape=xml t.mustache d.json
expect "usage: -I without a directory" 2 "regc: error: option '-I' needs an argument
$usage" -- t.mustache d.json -o out.txt -I
expect "usage: a third argument" 2 "regc: error: unexpected argument 'extra'
$usage" -- t.mustache d.json extra
expect "usage: a limit that is no number" 2 "regc: error: '-ftemplate-work-limit=1T' needs a number, with an optional k, M or G suffix (0: no limit)
$usage" -- -ftemplate-work-limit=1T t.mustache d.json
expect "usage: a limit too large" 2 "regc: error: '-ftemplate-output-limit=99999999999999999999' needs a number, with an optional k, M or G suffix (0: no limit)
$usage" -- -ftemplate-output-limit=99999999999999999999 t.mustache d.json

# ---------------------------------------------------------------- behaviour
c="$work/ok"; mkdir -p "$c/inc1" "$c/inc2" "$c/sub"
printf '{{>a}}|{{>b}}|{{>c}}|{{v}}\n' >"$c/sub/t.mustache"
printf 'A-beside' >"$c/sub/a.mustache"
printf 'A-inc1' >"$c/inc1/a.mustache"; printf 'B-inc1' >"$c/inc1/b.mustache"
printf 'B-inc2' >"$c/inc2/b.mustache"; printf 'C-inc2' >"$c/inc2/c.mustache"
echo '{"v":"<&>"}' >"$c/d.json"
out=$("$REGC" render "$c/sub/t.mustache" "$c/d.json" -I "$c/inc1" -I"$c/inc2" 2>&1)
if [ "$out" = "A-beside|B-inc1|C-inc2|<&>" ]; then tap_ok "partials: beside the template, then -I in order"
else tap_fail "partials: beside the template, then -I in order" "got: $out"; fi

check_escape() {   # name, expected, args...
    local name=$1 want=$2; shift 2
    local got; got=$(cd "$c" && "$REGC" render "$@" 2>&1 && cat "${OUTF:-/dev/null}")
    if [ "$got" = "$want" ]; then tap_ok "$name"; else tap_fail "$name" "got: $got" "want: $want"; fi
}
printf '{{v}}\n' >"$c/e.mustache"; printf '{{v}}\n' >"$c/e.h.mustache"
check_escape "escape: none by default" "<&>" e.mustache d.json
check_escape "escape: .md output" "&lt;&amp;&gt;" e.mustache d.json -o - --escape=md
OUTF=o.html check_escape "escape: html from -o's extension" "&lt;&amp;&gt;" e.mustache d.json -o o.html
check_escape "escape: from the template's own name (x.h.mustache)" "<&>" e.h.mustache d.json
echo '{"v":"a */ b"}' >"$c/c.json"
check_escape "escape: C from the template's name" "a * / b" e.h.mustache c.json
check_escape "escape: explicit --escape=none wins" "a */ b" e.h.mustache c.json --escape=none

# -o replaces atomically: a failed render leaves the old file as it was.
printf 'old' >"$c/keep.txt"; printf '{{#x}}' >"$c/broken.mustache"
(cd "$c" && "$REGC" render broken.mustache d.json -o keep.txt 2>/dev/null)
if [ "$(cat "$c/keep.txt")" = old ] && ! ls "$c" | grep -q '\.tmp\.'; then
    tap_ok "a failed render leaves the existing output untouched"
else tap_fail "a failed render leaves the existing output untouched"; fi
(cd "$c" && "$REGC" render e.mustache d.json -o keep.txt)
if [ "$(cat "$c/keep.txt")" = "<&>" ]; then tap_ok "-o replaces the output"
else tap_fail "-o replaces the output" "got: $(cat "$c/keep.txt")"; fi

# Output is exactly the rendered text: no newline added.
printf 'no newline' >"$c/nn.mustache"
(cd "$c" && "$REGC" render nn.mustache d.json >nn.out)
if [ "$(od -c "$c/nn.out" | head -1)" = "$(printf 'no newline' | od -c | head -1)" ]; then
    tap_ok "output is the rendered text only"
else tap_fail "output is the rendered text only"; fi

echo '[1,2.5,"x",true,null]' >"$c/arr.json"; printf '{{#.}}{{.}};{{/.}}' >"$c/arr.mustache"
check_escape "data root may be any JSON value" "1;2.5;x;true;;" arr.mustache arr.json
got=$(cd "$c" && echo '{"v":"in"}' | "$REGC" render e.mustache -)
if [ "$got" = in ]; then tap_ok "data from standard input (-)"; else tap_fail "data from standard input (-)" "got: $got"; fi
got=$("$REGC" render --help); rc=$?
if [ $rc = 0 ] && [ "$got" = "${usage%$'\n'}" ]; then tap_ok "--help prints the usage, status 0"
else tap_fail "--help prints the usage, status 0" "status $rc: $got"; fi

# Valgrind: a render with partials, sections and indentation, and a failing one.
if [ "${SAN:-}" = 1 ]; then
    tap_skip "valgrind: regc render" "SAN=1 build (valgrind cannot run ASan binaries)"
elif ! command -v valgrind >/dev/null; then
    tap_skip "valgrind: regc render" "valgrind is not installed"
else
    vg() { (cd "$c" && valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --error-exitcode=99 "$REGC" render "$@" >/dev/null 2>&1); }
    vg sub/t.mustache d.json -I inc1 -I inc2 -o vg.out; rc=$?
    if [ $rc = 0 ]; then tap_ok "valgrind: regc render"; else tap_fail "valgrind: regc render" "status $rc"; fi
    vg broken.mustache d.json --strict -o vg2.out; rc=$?
    if [ $rc = 1 ]; then tap_ok "valgrind: regc render with a syntax error"
    else tap_fail "valgrind: regc render with a syntax error" "status $rc"; fi
fi
tap_done
