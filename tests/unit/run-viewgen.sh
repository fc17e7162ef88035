#!/usr/bin/env bash
# tests/unit/run-viewgen.sh - tools/viewgen, which writes the typed view's tables regc links
# (build/gen/view_tables.c; compiler/view_build.h): on a small schema, the members it writes,
# checked against the schema's facts by hand, and a file that compiles; each refusal (no such
# schema, text that is no JSON, a name it cannot write as a C string, an output it cannot
# write) says why, exits 1 and leaves no output. test_view_tables compares regc's tables with
# the schema itself.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup tmp
: "${BUILD:=build}"
viewgen=$BUILD/tools/viewgen
[ -x "$viewgen" ] || tap_skip_rest "no $viewgen (run make first)" "viewgen"

# n: an integer, required; s: a string or null, not required
cat >"$tmp/small.json" <<'EOF'
{"type": "object", "required": ["n"],
 "properties": {"n": {"type": "integer"}, "s": {"type": ["string", "null"]}}}
EOF
if "$viewgen" "$tmp/out.c" "$tmp/small.json" 2>"$tmp/err"; then
    grep -F '.name = "n"' "$tmp/out.c" >"$tmp/got"
    grep -F '.name = "s"' "$tmp/out.c" >>"$tmp/got"
    cat >"$tmp/want" <<'EOF'
    {.name = "n", .v = {.kind = VIEW_INT, .nullable = false, .item = VIEW_STR, .type = NULL}, .origin = VIEW_MODEL, .optional = false},
    {.name = "s", .v = {.kind = VIEW_STR, .nullable = true, .item = VIEW_STR, .type = NULL}, .origin = VIEW_MODEL, .optional = true},
EOF
    tap_diff "a small schema: its two names as the schema gives them" "$tmp/want" "$tmp/got"
    tap_check "a small schema: the tables compile as C11, warning-free" \
        "${CC:-cc}" -std=c11 -Wall -Wextra -Wpedantic -Werror -Icompiler -Icommon -Iruntime/include \
        -c -o "$tmp/out.o" "$tmp/out.c"
else
    tap_fail "a small schema: viewgen fails" "$(cat "$tmp/err")"
    tap_fail "a small schema: the tables compile as C11, warning-free" "nothing written"
fi

refused() {   # name, pattern (grep -E) of what it says, schema file, [output]
    local out=${4:-$tmp/refused.c}
    rm -f "$out"
    if "$viewgen" "$out" "$3" >"$tmp/said" 2>&1; then tap_fail "$1" "status 0"
    elif ! grep -qE -- "$2" "$tmp/said"; then tap_fail "$1" "$(head -n 3 "$tmp/said")"
    elif [ -e "$out" ]; then tap_fail "$1" "output left: $out"
    else tap_ok "$1"; fi
}
refused "no such schema: named" "^viewgen: cannot read '$tmp/none.json': No such file" "$tmp/none.json"
printf '{\n  "properties": {\n' >"$tmp/broken.json"
refused "text that is no JSON: the place and the parser's reason" \
    "^viewgen: $tmp/broken.json: line [0-9]+, column [0-9]+: " "$tmp/broken.json"
printf '{"type": "object", "properties": {"a\\"b": {"type": "string"}}}\n' >"$tmp/quote.json"
refused "a name with a quote: refused, its type named" \
    "^viewgen: type 'root' has a name that is not letters, digits, '_' and '.'" "$tmp/quote.json"
refused "an output in no directory: named" "^viewgen: cannot write '$tmp/no/dir/out.c': No such file" \
    "$tmp/small.json" "$tmp/no/dir/out.c"
tap_done
