#!/usr/bin/env bash
# run-hdrcheck.sh - each public runtime header compiles alone as C11 and C++11,
# and libregrt.so exports only the regc_ API (-fvisibility=hidden).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${BUILD:=build}" "${CC:=cc}"
tap_setup tmp
for h in runtime/include/regc/*.h; do
    name=${h#runtime/include/}
    echo "#include \"$name\"" >"$tmp/h.c"
    if out=$($CC -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic -Werror -Iruntime/include \
        -fsyntax-only "$tmp/h.c" 2>&1); then tap_ok "$name alone (C11)"; else tap_fail "$name alone (C11)" "$out"; fi
    cp "$tmp/h.c" "$tmp/h.cc"
    if ! command -v c++ >/dev/null; then tap_skip "$name alone (C++11)" "no C++ compiler"; continue; fi
    if out=$(c++ -std=c++11 -Wall -Wextra -Werror -Iruntime/include -fsyntax-only "$tmp/h.cc" 2>&1); then
        tap_ok "$name alone (C++11)"; else tap_fail "$name alone (C++11)" "$out"; fi
done
so=$BUILD/libregrt.so
if [ ! -f "$so" ]; then tap_fail "libregrt.so exports only regc_" "$so missing"
else
    extra=$(nm -D --defined-only "$so" | awk '$2 ~ /[TDBR]/ {print $3}' | grep -v '^regc_' | grep -vE '^(_init|_fini|_edata|_end|__bss_start|__odr_asan\.regc_.*)$' || true)
    if [ -z "$extra" ]; then tap_ok "libregrt.so exports only regc_"; else tap_fail "libregrt.so exports only regc_" $extra; fi
fi
tap_done
