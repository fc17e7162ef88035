#!/usr/bin/env bash
# tests/cli/run-key-use.sh - regc computes the keys a template reads: the
# descriptor tables' t_* names, the doc keys (doc_*, svg) and the model's
# keys the C header does not read (masks, source, svd, c_sem, ...:
# context_key_unread()) are made only when the template, a partial, or an
# -I partial overriding a built-in one names them, or when a partial is
# named by a value (compiler/main.c, struct key_use). Each case reads such a
# key and must print the value --dump-context shows, or the value worked out
# by hand from the spec: a group of keys left out by mistake is an error
# ("no value") or a different output here.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

spec=tests/cli/mini.xml
"$regc" --dump-context "$spec" -o "$tmp/ctx.json" || tap_fail "dump the context"
# want KEY...: the values of a register's keys (dotted: inside objects) in the dump, a line each
want() {
    python3 -c '
import json, sys
ctx = json.load(open(sys.argv[1]))
def get(o, k):
    for p in k.split("."):
        o = o[p]
    return str(o)
for b in ctx["blocks"]:
    for r in b["registers"]:
        print(" ".join(get(r, k) for k in sys.argv[2:]))' "$tmp/ctx.json" "$@"
}

# check NAME TEMPLATE-TEXT "KEY..." [REGC-ARGS...]
check() {
    local name=$1 text=$2 keys=$3; shift 3
    printf '%s' "$text" >"$tmp/t.mustache"
    if "$regc" "$@" -t "$tmp/t.mustache" "$spec" -o "$tmp/out" 2>"$tmp/err"; then
        read -r -a k <<<"$keys"
        want "${k[@]}" >"$tmp/want"
        tap_diff "$name" "$tmp/want" "$tmp/out"
    else
        tap_fail "$name" "$(cat "$tmp/err")"
    fi
}

reg='{{#blocks}}{{#registers}}'
end='{{/registers}}{{/blocks}}'
check "a doc key in the template" "$reg{{doc_anchor}}
$end" doc_anchor
check "a t_* name in the template" "$reg{{{t_name}}}
$end" t_name
check "svg: a doc key without the doc_ prefix" "$reg{{svg.width}}
$end" svg.width
check "the t_* name of a doc key" "$reg{{{t_doc_anchor}}}
$end" t_doc_anchor
mkdir -p "$tmp/p"
printf '{{doc_anchor}} {{{t_name}}}\n' >"$tmp/p/r.mustache"
check "doc and t_* keys in a partial" "$reg{{>r}}$end" "doc_anchor t_name" -I "$tmp/p"
printf '{{doc_anchor}}\n' >"$tmp/p/uint64_t.mustache"
check "a partial named by a value: every key" "$reg{{>*c_type}}$end" doc_anchor -I "$tmp/p"

# The model's keys the C header does not read, by hand from mini.xml: CTL,
# an MSR (accessed as 64 bits, 32 implemented), must write 0 to bits 63:32
# and its reserved 31:23 and 21:8 (mbz 0xffffffffffbfff00); en (22) and
# ev_sel (7:0) are writable (0x4000ff); cited from table 1-1, page 1; both
# fields RW, their masks 64-bit C literals zero-filled to 16 digits.
handed() { # handed NAME TEMPLATE-TEXT WANT [REGC-ARGS...]: the output is WANT
    local name=$1 text=$2 want=$3; shift 3
    printf '%s' "$text" >"$tmp/t.mustache"
    printf '%s' "$want" >"$tmp/want"
    if "$regc" "$@" -t "$tmp/t.mustache" -o "$tmp/out" 2>"$tmp/err"; then
        tap_diff "$name" "$tmp/want" "$tmp/out"
    else
        tap_fail "$name" "$(cat "$tmp/err")"
    fi
}
handed "a register's masks" "$reg{{masks.mbz}} {{masks.writable}}
$end" "0xffffffffffbfff00 0x4000ff
" "$spec"
handed "a register's source" "$reg{{source.table}} {{source.page}}
$end" "1-1 1
" "$spec"
handed "a field's c_sem, access_class, c_mask and write_as_read" \
    "$reg{{#fields}}{{^c_reserved}}{{name}} {{c_sem}} {{access_class}} {{{c_mask}}} {{write_as_read}}
{{/c_reserved}}{{/fields}}$end" "en rw RW UINT64_C(0x0000000000400000) false
ev_sel rw RW UINT64_C(0x00000000000000ff) false
" "$spec"
# tests/svd/features.svd: the device's <resetMask> 0xFFFFFFFF, which CTRL inherits
handed "an SVD register's svd object" "$reg{{#first}}{{name}} {{svd.reset_mask}}
{{/first}}$end" "CTRL 0xffffffff
" tests/svd/features.svd
printf '/* {{masks.ro}} */\n' >"$tmp/p/_c_register.mustache"
if "$regc" -I "$tmp/p" -t c "$spec" -o "$tmp/h" 2>"$tmp/err" && grep -qx '/\* 0x0 \*/' "$tmp/h"; then
    tap_ok "-t c with an -I partial that reads the masks"
else
    tap_fail "-t c with an -I partial that reads the masks" "$(cat "$tmp/err")"
fi

# A built-in template's partial overridden by one that reads a doc key.
printf '/* {{doc_anchor}} */\n' >"$tmp/p/_c_register.mustache"
if "$regc" -I "$tmp/p" -t c "$spec" -o "$tmp/h" 2>"$tmp/err" &&
    grep -qx "/\\* $(want doc_anchor | head -n 1) \\*/" "$tmp/h"; then
    tap_ok "-t c with an -I partial that reads a doc key"
else
    tap_fail "-t c with an -I partial that reads a doc key" "$(cat "$tmp/err")"
fi
tap_done
