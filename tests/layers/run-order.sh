#!/usr/bin/env bash
# tests/layers/run-order.sh - the layers' order: common/ below both programs, runtime/ (libregrt
# and regctl) never reaching into compiler/, and libregrt never linking the parts of common/ that
# abort on out of memory (common/fatal.h: the library returns -ENOMEM; Makefile COMMON_FATAL_SRCS).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${BUILD:=build}"

# reaches DIR FORBIDDEN: "file: header" for each #include "header" of a file below DIR that names
# a header of FORBIDDEN, not one beside the file (none wanted)
reaches() {
    local dir=$1 forbidden=$2 f h
    while IFS= read -r f; do
        sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
            while IFS= read -r h; do
                if [ -e "$forbidden/$h" ] && [ ! -e "${f%/*}/$h" ]; then echo "$f: $h"; fi
            done
    done < <(find "$dir" -name '*.[ch]' | sort)
}
for pair in "runtime compiler" "common compiler"; do
    set -- $pair
    readarray -t got < <(reaches "$1" "$2")
    if [ ${#got[@]} = 0 ]; then tap_ok "$1/ includes no header of $2/"; else
        tap_fail "$1/ includes no header of $2/" "${got[@]}"; fi
done

# what libregrt.a defines or needs: none of fatal.h's names
if [ ! -f "$BUILD/libregrt.a" ]; then
    tap_fail "libregrt.a holds nothing that aborts on out of memory" "no $BUILD/libregrt.a (run make first)"
else
    readarray -t got < <(nm "$BUILD/libregrt.a" 2>/dev/null |
        awk '$NF ~ /^(xmalloc|xcalloc|xrealloc|xstrdup|xgrow|xmap_put|xmap_put_str|fatal_bug|arena_alloc_slow|buf_grow|expr_parse)$/ { print }')
    if [ ${#got[@]} = 0 ]; then tap_ok "libregrt.a holds nothing that aborts on out of memory"; else
        tap_fail "libregrt.a holds nothing that aborts on out of memory" "${got[@]}"; fi
fi
tap_done
