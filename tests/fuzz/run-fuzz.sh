#!/usr/bin/env bash
# tests/fuzz/run-fuzz.sh - the libFuzzer targets of tests/fuzz/fuzz.mk in `make check`.
#
# For each target: build it (clang, ASan+UBSan), replay its whole corpus
# (tests/fuzz/corpus/TARGET/: every input once; a crash, a leak, a sanitizer
# report or an input slower than FUZZ_TIMEOUT seconds, default 10, fails), then fuzz it
# briefly from that corpus (FUZZ_RUNS inputs or FUZZ_TIME seconds at most;
# new inputs go to a scratch directory, never into the corpus). Long runs
# are `make fuzz FUZZ_SECONDS=N` (tests/fuzz/campaign.sh). Skipped, with the
# reason, when clang or its libFuzzer runtime is missing.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${FUZZ_CC:=clang}" "${BUILD:=build}" "${FUZZ_TIMEOUT:=10}"
top=$PWD
tap_setup tmp

if ! command -v "$FUZZ_CC" >/dev/null; then
    tap_skip "fuzz" "$FUZZ_CC is not installed"; tap_done; exit 0
fi
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' >"$tmp/probe.c"
if ! "$FUZZ_CC" -fsanitize=fuzzer -o "$tmp/probe" "$tmp/probe.c" 2>/dev/null; then
    tap_skip "fuzz" "clang's libFuzzer runtime is not installed (Debian: libclang-rt-dev)"
    tap_done; exit 0
fi

# every target at once, so make can build them in parallel (MAKEFLAGS)
if ! make --no-print-directory -f tests/fuzz/fuzz.mk FUZZ_CC="$FUZZ_CC" TABLES="$BUILD/gen" \
    >"$tmp/build.log" 2>&1; then
    tap_fail "fuzz: build the targets" "$(tail -n 20 "$tmp/build.log")"; tap_done; exit 0
fi

# fuzz NAME RUNS SECONDS [libFuzzer options...]
fuzz() {
    local name=$1 runs=${FUZZ_RUNS:-$2} secs=${FUZZ_TIME:-$3}; shift 3
    local dir=$tmp/$name corpus=$top/tests/fuzz/corpus/$name bin=$top/build-fuzz/fuzz_$name
    mkdir -p "$dir/new" "$dir/run"
    if ! make --no-print-directory -f tests/fuzz/fuzz.mk FUZZ_CC="$FUZZ_CC" TABLES="$BUILD/gen" \
        "build-fuzz/fuzz_$name" >"$dir/build.log" 2>&1; then
        tap_fail "fuzz $name: build" "$(tail -n 20 "$dir/build.log")"
        return
    fi
    local n; n=$(find "$corpus" -type f | wc -l)
    # the runs write their scratch files (fuzz-*.xml) into the current directory
    if (cd "$dir/run" && "$bin" -runs=0 -timeout="$FUZZ_TIMEOUT" -artifact_prefix="$dir/" "$@" \
        "$corpus" >"$dir/replay.log" 2>&1); then
        tap_ok "fuzz $name: replay of its corpus ($n inputs)"
    else
        report "fuzz $name: replay of its corpus" "$dir" replay.log
    fi
    if (cd "$dir/run" && "$bin" -runs="$runs" -max_total_time="$secs" -max_len=4096 \
        -timeout="$FUZZ_TIMEOUT" -artifact_prefix="$dir/" "$@" "$dir/new" "$corpus" \
        >"$dir/fuzz.log" 2>&1); then
        tap_ok "fuzz $name: $(grep -oE 'Done [0-9]+ runs' "$dir/fuzz.log" || echo 'run') without a crash"
    else
        report "fuzz $name: crash, leak or timeout" "$dir" fuzz.log
    fi
}

report() {
    local f lines=()
    while IFS= read -r f; do lines+=("$f"); done < <(grep -E 'ERROR|SUMMARY|runtime error|Test unit' "$2/$3" | head -n 10)
    for f in "$2"/crash-* "$2"/leak-* "$2"/timeout-* "$2"/slow-unit-*; do
        [ -f "$f" ] && lines+=("input: $(od -c "$f" | head -n 5 | tr '\n' ' ')")
    done
    tap_fail "$1" "${lines[@]}"
}

fuzz compile 300 10
fuzz xmlload 300 10
fuzz svd 300 10 -dict="$top/tests/fuzz/svd.dict"
fuzz expr 20000 10
fuzz mustache 20000 20 -dict="$top/tests/fuzz/mustache.dict"
fuzz render 5000 10
fuzz event 3000 10
fuzz cmdline 300 10
fuzz num 20000 10
tap_done
