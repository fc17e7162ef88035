#!/usr/bin/env bash
# tests/fuzz/run-fuzz-xmlload.sh - a bounded libFuzzer run of the loader.
#
# Builds build-fuzz/fuzz_xmlload (tests/fuzz/fuzz.mk) and runs it for at most
# FUZZ_RUNS inputs (default 2000) or FUZZ_TIME seconds (default 10), seeded
# with the loader's test inputs (tests/errors/*.xml, tests/unit/data/loader/),
# inside a scratch directory (the target writes its input there to load it).
# Skipped, with the reason, when clang or its libFuzzer runtime is missing.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${FUZZ_CC:=clang}" "${FUZZ_RUNS:=2000}" "${FUZZ_TIME:=10}"
top=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! command -v "$FUZZ_CC" >/dev/null; then
    tap_skip "fuzz xmlload" "$FUZZ_CC is not installed"; tap_done; exit 0
fi
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' >"$work/probe.c"
if ! "$FUZZ_CC" -fsanitize=fuzzer -o "$work/probe" "$work/probe.c" 2>/dev/null; then
    tap_skip "fuzz xmlload" "clang's libFuzzer runtime is not installed (Debian: libclang-rt-dev)"
    tap_done; exit 0
fi
if ! make --no-print-directory -f tests/fuzz/fuzz.mk FUZZ_CC="$FUZZ_CC" build-fuzz/fuzz_xmlload \
    >"$work/build.log" 2>&1; then
    tap_fail "fuzz xmlload: build" "$(tail -n 20 "$work/build.log")"; tap_done; exit 0
fi
tap_ok "fuzz xmlload: build"
mkdir -p "$work/corpus" "$work/run"
for f in tests/errors/*.xml tests/unit/data/loader/*.xml; do
    [ -f "$f" ] && cp "$f" "$work/corpus/"
done
if (cd "$work/run" && "$top/build-fuzz/fuzz_xmlload" -runs="$FUZZ_RUNS" \
    -max_total_time="$FUZZ_TIME" -max_len=4096 -timeout=10 -artifact_prefix="$work/" \
    "$work/corpus" >"$work/fuzz.log" 2>&1); then
    tap_ok "fuzz xmlload: $(grep -oE 'Done [0-9]+ runs' "$work/fuzz.log" || echo 'run') without a crash"
else
    tap_fail "fuzz xmlload: crash or leak" "$(grep -E 'ERROR|SUMMARY|runtime error' "$work/fuzz.log" | head -n 10)"
    for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-*; do
        [ -f "$a" ] && echo "#   input: $(od -c "$a" | head -n 5 | tr '\n' ' ')"
    done
fi
tap_done
