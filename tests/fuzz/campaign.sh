#!/usr/bin/env bash
# tests/fuzz/campaign.sh - long libFuzzer runs: `make fuzz FUZZ_SECONDS=N [FUZZ_TARGETS="a b"]`.
#
# Runs each target for N seconds (default 60) from its corpus, with a limit
# of FUZZ_TIMEOUT seconds per input (default 1: slower is a bug) and inputs
# up to 8 KiB, new inputs in a scratch directory; FUZZ_FORK=K runs K
# processes (libFuzzer's -fork). Prints per target the executions done, the
# slowest input seen, and whether it found anything; findings are kept in
# build-fuzz/findings/TARGET/ and the run fails.
#
# libFuzzer's limit is wall time, so on a loaded machine an input can pass it
# only because the process did not get the CPU. A timeout (or a unit
# libFuzzer reports as slow) is therefore judged
# again alone, on its own input, by the CPU time it takes (user + system, the
# best of three runs: on a shared machine no run is alone in wall time): over
# the limit again, it is a finding; under it, it is reported as "timed out
# under load" with its time alone, kept in build-fuzz/findings/TARGET/load/,
# and the run goes on from where it was for the time that is left.
#
# New coverage is merged into tests/fuzz/corpus/TARGET/ (libFuzzer's
# -merge=1: only inputs that add coverage, named by their SHA-1), so the
# corpus that `make check` replays grows with each campaign: review and
# commit it. Record the executions and the inputs found (printed) in
# docs/testing.md: tests/fuzz/run-corpus-kept.sh fails when a target's
# recorded executions grow while its corpus does not.
#
# FUZZ_RUNS=N stops a target after N executions (libFuzzer's -runs, the
# corpus replay included), or at FUZZ_SECONDS, whichever comes first.
#
# FUZZ_PREBUILT=DIR takes DIR/fuzz_TARGET as it is, without building it, and
# keeps findings in DIR/findings/ (tests/fuzz/run-campaign.sh runs stand-ins
# that way); FUZZ_TIMER (default /usr/bin/time) times a run alone, called as
# `FUZZ_TIMER -f "%U %S" -o FILE CMD...`, the times on FILE's last line
# summed (the test's stand-in writes a set time).
set -u
cd "$(dirname "$0")/../.."
: "${FUZZ_SECONDS:=60}" "${FUZZ_CC:=clang}" "${BUILD:=build}" "${FUZZ_TIMEOUT:=1}" "${FUZZ_FORK:=0}"
: "${FUZZ_PREBUILT:=}" "${FUZZ_TIMER:=/usr/bin/time}" "${FUZZ_RUNS:=0}"
targets=${FUZZ_TARGETS:-"compile xmlload svd expr mustache render event cmdline num"}
top=$PWD
status=0

# CPU seconds (user + system), as a decimal, that 'bin' takes on one input: the
# best of three runs (the process's whole run, start-up included; "" when it
# could not be timed)
time_alone() {   # bin input
    local best="" t
    for _ in 1 2 3; do
        # in the scratch run directory: the targets write their fuzz-*.xml where they run
        (cd "$scratch/run" && "$FUZZ_TIMER" -f "%U %S" -o "$scratch/time" "$1" -runs=1 "$2" >/dev/null 2>&1)
        t=$(tail -n 1 "$scratch/time" 2>/dev/null | awk '{ s = 0; for (i = 1; i <= NF; i++) { if ($i !~ /^[0-9]+(\.[0-9]+)?$/) exit; s += $i }; printf "%.2f", s }')
        [[ $t =~ ^[0-9]+(\.[0-9]+)?$ ]] || continue
        if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
    done
    echo "$best"
}

for t in $targets; do
    if [ -n "$FUZZ_PREBUILT" ]; then
        bin=$FUZZ_PREBUILT/fuzz_$t found=$FUZZ_PREBUILT/findings/$t
    else
        make --no-print-directory -f tests/fuzz/fuzz.mk FUZZ_CC="$FUZZ_CC" TABLES="$BUILD/gen" \
            "build-fuzz/fuzz_$t" >/dev/null || { echo "$t: build failed"; status=1; continue; }
        bin=$top/build-fuzz/fuzz_$t found=$top/build-fuzz/findings/$t
    fi
    scratch=$(mktemp -d)
    mkdir -p "$scratch/new" "$scratch/run" "$found/load"
    opts=(-timeout="$FUZZ_TIMEOUT" -max_len=8192 -print_final_stats=1)
    # a target's dictionary, tests/fuzz/TARGET.dict, where it has one (mustache, svd)
    [ -f "$top/tests/fuzz/$t.dict" ] && opts+=(-dict="$top/tests/fuzz/$t.dict")
    [ "$FUZZ_FORK" -gt 0 ] && opts+=(-fork="$FUZZ_FORK" -ignore_timeouts=0)
    execs=0 slowest=0 under_load=() verdict=""
    end=$((SECONDS + FUZZ_SECONDS))
    while [ -z "$verdict" ] && [ $((end - SECONDS)) -gt 0 ]; do
        runs=()
        if [ "$FUZZ_RUNS" -gt 0 ]; then
            [ "$execs" -ge "$FUZZ_RUNS" ] && break
            runs=(-runs=$((FUZZ_RUNS - execs)))
        fi
        rm -f "$scratch"/art-*
        # the targets write their scratch files (fuzz-*.xml) into the current directory
        (cd "$scratch/run" && "$bin" -max_total_time=$((end - SECONDS)) "${opts[@]}" "${runs[@]}" \
            -artifact_prefix="$scratch/art-" "$scratch/new" "$top/tests/fuzz/corpus/$t" \
            >"$scratch/log" 2>&1)
        rc=$?
        n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/log" | tail -n 1)
        [ -z "$n" ] && n=$(grep -oE '^#[0-9]+' "$scratch/log" | tail -n 1 | tr -d '#')
        execs=$((execs + ${n:-0}))
        s=$(sed -n 's/^stat::slowest_unit_time_sec: *//p' "$scratch/log" | tail -n 1)
        [ "${s:-0}" -gt "$slowest" ] 2>/dev/null && slowest=$s
        [ "$rc" -eq 0 ] && break
        art=$(ls "$scratch"/art-* 2>/dev/null | head -n 1)
        # a timeout, or a unit libFuzzer found slow (-report_slow_units): judged alone
        if [ -n "$art" ] && [[ ${art##*/} == art-timeout-* || ${art##*/} == art-slow-unit-* ]]; then
            alone=$(time_alone "$bin" "$art")
            if [ -n "$alone" ] && awk -v a="$alone" -v l="$FUZZ_TIMEOUT" 'BEGIN { exit !(a < l) }'; then
                mv "$art" "$found/load/"
                under_load+=("${art##*/art-} (${alone} s alone)")
                continue
            fi
            verdict="FOUND: ${art##*/art-}, ${alone:-not timed} s alone"
        else
            verdict="FOUND: ${art:+${art##*/art-}}"
            grep -E 'ERROR|SUMMARY|runtime error' "$scratch/log" | head -n 5
        fi
        [ -n "$art" ] && mv "$art" "$found/${art##*/art-}"
    done
    if [ -z "$verdict" ]; then
        echo "$t: $execs executions, slowest input ${slowest} s, no crash, leak or timeout"
        [ ${#under_load[@]} -gt 0 ] && echo "  timed out under load only: ${under_load[*]}"
        # what added coverage joins the corpus; a merge that fails fails the run
        corpus=$top/tests/fuzz/corpus/$t
        before=$(find "$corpus" -type f 2>/dev/null | wc -l)
        if (cd "$scratch/run" && "$bin" -merge=1 -timeout="$FUZZ_TIMEOUT" "$corpus" "$scratch/new" \
            >"$scratch/merge.log" 2>&1); then
            after=$(find "$corpus" -type f 2>/dev/null | wc -l)
            kept=$(find "$corpus" -type f 2>/dev/null | grep -cE "/[0-9a-f]{40}$")
            echo "  corpus: $before -> $after inputs ($kept found by fuzzing; record $kept in docs/testing.md)"
        else
            echo "  corpus: the merge failed:"; tail -n 5 "$scratch/merge.log"
            status=1
        fi
    else
        echo "$t: $execs executions, $verdict"
        status=1
    fi
    rm -rf "$scratch"
done
exit $status
