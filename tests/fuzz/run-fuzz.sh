#!/usr/bin/env bash
# tests/fuzz/run-fuzz.sh - bounded libFuzzer runs of the mustache engine and the loader.
#
# Builds each target of tests/fuzz/fuzz.mk (build-fuzz/fuzz_NAME) and runs it
# for at most FUZZ_RUNS inputs or FUZZ_TIME seconds from copies of its seeds,
# inside a scratch directory (fuzz_xmlload writes its input there to load it).
# Skipped, with the reason, when clang or its libFuzzer runtime is missing.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${FUZZ_CC:=clang}"
top=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! command -v "$FUZZ_CC" >/dev/null; then
    tap_skip "fuzz" "$FUZZ_CC is not installed"; tap_done; exit 0
fi
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' >"$work/probe.c"
if ! "$FUZZ_CC" -fsanitize=fuzzer -o "$work/probe" "$work/probe.c" 2>/dev/null; then
    tap_skip "fuzz" "clang's libFuzzer runtime is not installed (Debian: libclang-rt-dev)"
    tap_done; exit 0
fi

# fuzz NAME RUNS SECONDS 'SEED GLOBS' [libFuzzer options...]
fuzz() {
    local name=$1 runs=${FUZZ_RUNS:-$2} secs=${FUZZ_TIME:-$3} seeds=$4; shift 4
    local dir=$work/$name
    mkdir -p "$dir/corpus" "$dir/run"
    if ! make --no-print-directory -f tests/fuzz/fuzz.mk FUZZ_CC="$FUZZ_CC" \
        "build-fuzz/fuzz_$name" >"$dir/build.log" 2>&1; then
        tap_fail "fuzz $name: build" "$(tail -n 20 "$dir/build.log")"
        return
    fi
    tap_ok "fuzz $name: build"
    local f
    for f in $seeds; do [ -f "$f" ] && cp "$f" "$dir/corpus/"; done
    if (cd "$dir/run" && "$top/build-fuzz/fuzz_$name" -runs="$runs" -max_total_time="$secs" \
        -max_len=4096 -timeout=10 -artifact_prefix="$dir/" "$@" "$dir/corpus" >"$dir/fuzz.log" 2>&1); then
        tap_ok "fuzz $name: $(grep -oE 'Done [0-9]+ runs' "$dir/fuzz.log" || echo 'run') without a crash"
    else
        tap_fail "fuzz $name: crash or leak" \
            "$(grep -E 'ERROR|SUMMARY|runtime error' "$dir/fuzz.log" | head -n 10)"
        for f in "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-*; do
            [ -f "$f" ] && echo "#   input: $(od -c "$f" | head -n 5 | tr '\n' ' ')"
        done
    fi
}

fuzz mustache 20000 20 'tests/fuzz/corpus-mustache/* tests/fuzz/regress-mustache/*.in' -dict="$top/tests/fuzz/mustache.dict"
fuzz xmlload 2000 10 'tests/errors/*.xml tests/unit/data/loader/*.xml'
tap_done
