#!/usr/bin/env bash
# tests/fuzz/run-fuzz.sh - a bounded libFuzzer run of the mustache engine.
#
# Builds build-fuzz/fuzz_mustache (tests/fuzz/fuzz.mk) and runs it for at most
# FUZZ_RUNS inputs (default 20000) or FUZZ_TIME seconds (default 20) from the
# seeds in tests/fuzz/corpus-mustache (copied: the run never edits them).
# Skipped, with the reason, when clang or its libFuzzer runtime is missing.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${FUZZ_CC:=clang}" "${FUZZ_RUNS:=20000}" "${FUZZ_TIME:=20}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! command -v "$FUZZ_CC" >/dev/null; then
    tap_skip "fuzz mustache" "$FUZZ_CC is not installed"; tap_done; exit 0
fi
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' >"$work/probe.c"
if ! "$FUZZ_CC" -fsanitize=fuzzer -o "$work/probe" "$work/probe.c" 2>/dev/null; then
    tap_skip "fuzz mustache" "clang's libFuzzer runtime is not installed (Debian: libclang-rt-dev)"
    tap_done; exit 0
fi
if ! make --no-print-directory -f tests/fuzz/fuzz.mk FUZZ_CC="$FUZZ_CC" build-fuzz/fuzz_mustache >"$work/build.log" 2>&1; then
    tap_fail "fuzz mustache: build" "$(tail -n 20 "$work/build.log")"; tap_done; exit 0
fi
tap_ok "fuzz mustache: build"
mkdir -p "$work/corpus"
cp tests/fuzz/corpus-mustache/* "$work/corpus/"
if build-fuzz/fuzz_mustache -runs="$FUZZ_RUNS" -max_total_time="$FUZZ_TIME" -max_len=4096 \
    -timeout=10 -dict=tests/fuzz/mustache.dict -artifact_prefix="$work/" \
    "$work/corpus" >"$work/fuzz.log" 2>&1; then
    tap_ok "fuzz mustache: $(grep -oE 'Done [0-9]+ runs' "$work/fuzz.log" || echo 'run') without a crash"
else
    tap_fail "fuzz mustache: crash or leak" "$(grep -E 'ERROR|SUMMARY|runtime error' "$work/fuzz.log" | head -n 10)"
    for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
        [ -f "$a" ] && echo "#   input: $(od -c "$a" | head -n 5 | tr '\n' ' ')"
    done
fi
tap_done
