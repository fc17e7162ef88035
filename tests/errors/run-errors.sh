#!/usr/bin/env bash
# tests/errors/run-errors.sh - the bad-input corpus: one case per diagnostic.
#
# For each tests/errors/NAME.xml (NAME.svd: a CMSIS-SVD input; NAME.mustache: a template rendered over
# ./minimal.regspec; NAME.json: data rendered by `regc render` with data.template):
#   - `regc --check NAME.xml` run inside tests/errors/ must print exactly NAME.err
#     on stderr and exit with status 1 (or the number in NAME.status);
#   - `regc NAME.xml -o out.h` must leave no out.h (nor a temporary) behind
#     when the status is not 0, and must not touch an existing out.h;
# NAME.args, if present, holds extra arguments (one line; @TMP@ stands for a
# scratch directory, and for its path in NAME.err). When they name an output
# (-o), that output must not be written, and the no-output check adds no -o
# of its own.
set -u
cd "$(dirname "$0")"
. ../tap.sh
tap_setup regc tmp

run_case() {   # file
    local file=$1 name=${1%.*}
    local want_status=1 args=()
    [ -f "$name.status" ] && want_status=$(cat "$name.status")
    [ -f "$name.args" ] && read -r -a args <<<"$(sed "s|@TMP@|$tmp|g" "$name.args")"
    if [ ! -f "$name.err" ]; then
        tap_fail "$file: no $name.err"
        return
    fi
    local input=(--check "$file")
    [ "${file##*.}" = mustache ] && input=(-t "$file" ./minimal.regspec)
    [ "${file##*.}" = json ] && input=(render data.template "$file")
    "$regc" "${args[@]}" "${input[@]}" >"$tmp/out" 2>"$tmp/err.raw"
    local status=$?
    sed "s|$tmp|@TMP@|g" "$tmp/err.raw" >"$tmp/err" && rm -f "$tmp/err.raw"
    if [ "$status" -ne "$want_status" ]; then
        tap_fail "$file: exit status $status, expected $want_status" "$(head -n 5 "$tmp/err")"
    else
        tap_diff "$file: diagnostics" "$name.err" "$tmp/err"
    fi
    if [ "$want_status" -ne 0 ]; then
        local before=$tmp/keep.h
        echo "previous contents" >"$before"
        cp "$before" "$tmp/existing.h"
        case ${file##*.} in
        mustache) input=(-t "$file" ./minimal.regspec) ;;
        json) input=(render data.template "$file") ;;
        *) input=("$file") ;;
        esac
        if [[ " ${args[*]} " == *" -o "* ]]; then
            "$regc" "${args[@]}" "${input[@]}" >/dev/null 2>&1
        else
            "$regc" "${args[@]}" "${input[@]}" -o "$tmp/new.h" >/dev/null 2>&1
            "$regc" "${args[@]}" "${input[@]}" -o "$tmp/existing.h" >/dev/null 2>&1
        fi
        if [ -e "$tmp/new.h" ] || ! cmp -s "$before" "$tmp/existing.h" ||
           [ -n "$(ls "$tmp" | grep -v -e '^out$' -e '^err$' -e '^keep.h$' -e '^existing.h$' -e '\.diff$')" ]; then
            tap_fail "$file: an output file was written or changed on error" "$(ls "$tmp")"
        else
            tap_ok "$file: no output written"
        fi
        rm -f "$tmp/new.h" "$tmp/existing.h"
    fi
}

for f in *.xml *.svd *.mustache *.json; do
    [ -e "$f" ] || continue   # -e: io.xml is a directory (reading it is the I/O error)
    run_case "$f"
done
tap_done
