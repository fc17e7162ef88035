#!/usr/bin/env bash
# tests/fuzz/campaign.sh - long libFuzzer runs: `make fuzz FUZZ_SECONDS=N [FUZZ_TARGETS="a b"]`.
#
# Runs each target for N seconds (default 60) from its corpus, with a 1 s
# limit per input (slower is a bug) and inputs up to 8 KiB, new inputs in a
# scratch directory. Prints per target the executions done and whether it
# found anything; findings are kept in build-fuzz/findings/TARGET/ and the
# run fails. New coverage is merged into tests/fuzz/corpus/TARGET/ (only
# inputs that add coverage), so the corpus that `make check` replays grows
# with each campaign: review and commit it. Record the executions in
# docs/testing.md.
set -u
cd "$(dirname "$0")/../.."
: "${FUZZ_SECONDS:=60}" "${FUZZ_CC:=clang}" "${BUILD:=build}"
targets=${FUZZ_TARGETS:-"compile xmlload expr mustache render event"}
top=$PWD
status=0
for t in $targets; do
    make --no-print-directory -f tests/fuzz/fuzz.mk FUZZ_CC="$FUZZ_CC" TABLES="$BUILD/gen" \
        "build-fuzz/fuzz_$t" >/dev/null || { echo "$t: build failed"; status=1; continue; }
    scratch=$(mktemp -d)
    found=$top/build-fuzz/findings/$t
    mkdir -p "$scratch/new" "$scratch/run" "$found"
    dict=()
    [ "$t" = mustache ] && dict=(-dict="$top/tests/fuzz/mustache.dict")
    # the targets write their scratch files (fuzz-*.xml) into the current directory
    (cd "$scratch/run" && "$top/build-fuzz/fuzz_$t" -max_total_time="$FUZZ_SECONDS" -timeout=1 \
        -max_len=8192 -print_final_stats=1 -artifact_prefix="$found/" "${dict[@]}" \
        "$scratch/new" "$top/tests/fuzz/corpus/$t" >"$scratch/log" 2>&1)
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/log")
    if [ "$rc" -eq 0 ]; then
        echo "$t: ${execs:-?} executions, no crash, leak or timeout"
        (cd "$scratch/run" && "$top/build-fuzz/fuzz_$t" -merge=1 "$top/tests/fuzz/corpus/$t" \
            "$scratch/new" >/dev/null 2>&1)
    else
        echo "$t: ${execs:-?} executions, FOUND: $(ls "$found" | head -n 3 | tr '\n' ' ')"
        grep -E 'ERROR|SUMMARY|runtime error' "$scratch/log" | head -n 5
        status=1
    fi
    rm -rf "$scratch"
done
exit $status
