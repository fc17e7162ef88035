#!/usr/bin/env bash
# bench/monitor.sh - the pmon flows of every family on the simulator (run by
# `make bench` after bench/run.sh): register reads and writes of the
# programming flow, of one polling interval and of one sample (nothing
# overflowed; every counter overflowed), per call and per event, and the
# wall time per call. All numbers come from one run; they are reported, not
# judged (the access order itself is tested by tests/runtime/test_flow_sim.c).
# BUILD (default build) names the build directory holding libregrt.a and
# gen/regc_specs.h; CC the compiler; BENCH_CFLAGS more flags (a sanitizer
# build's libregrt.a needs -fsanitize=...).
set -eu
cd "$(dirname "$0")/.."
: "${BUILD:=build}" "${CC:=cc}"
[ -f "$BUILD/libregrt.a" ] && [ -f "$BUILD/gen/regc_specs.h" ] ||
    { echo "bench: $BUILD/libregrt.a or $BUILD/gen/regc_specs.h missing (run make)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$CC" -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Iruntime/include \
    -I"$BUILD/gen" -Itests/runtime ${BENCH_CFLAGS:-} -o "$tmp/monitor" bench/monitor.c "$BUILD/libregrt.a"
"$tmp/monitor"
