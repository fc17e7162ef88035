#!/usr/bin/env bash
# tests/fuzz/run-campaign.sh - how tests/fuzz/campaign.sh (`make fuzz`) judges
# what a fuzzer run reports, with a stand-in for a libFuzzer target
# (FUZZ_PREBUILT): a clean run is counted; a timeout that takes under
# FUZZ_TIMEOUT alone is "timed out under load", kept in findings/TARGET/load/,
# and the campaign goes on; one that is slow alone too is a finding, and so is
# a crash; a finding fails the run. The time a run alone takes (its CPU time,
# user + system) is set by a stand-in timer (FUZZ_TIMER), so no verdict here
# depends on the machine's load.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup tmp

# The stand-in: each campaign run writes a stats line; STUB says what its first run finds
# (nothing, a timeout, a crash); run alone on an input (-runs=1) it does nothing, and the
# stand-in timer says it took STUB_ALONE seconds. Given -runs=N (N > 1), a run does at most
# N executions and the stand-in notes N in STUB_STATE.runs.
cat >"$tmp/fuzz_stub" <<'STUB'
#!/usr/bin/env bash
prefix="" alone="" n=100
for a; do
    case $a in
    -artifact_prefix=*) prefix=${a#*=} ;;
    -runs=1) alone=1 ;;
    -runs=*) n=$((${a#*=} < 100 ? ${a#*=} : 100)); echo "${a#*=}" >>"$STUB_STATE.runs" ;;
    -merge=1) echo "merge: ${STUB_MERGE:-ok}"; [ "${STUB_MERGE:-ok}" = ok ]; exit ;;
    esac
done
if [ -n "$alone" ]; then exit 0; fi
runs=$(cat "$STUB_STATE" 2>/dev/null || echo 0)
echo $((runs + 1)) >"$STUB_STATE"
echo "stat::number_of_executed_units: $n"
echo "stat::slowest_unit_time_sec: 0"
[ "$runs" -gt 0 ] && exit 0
case $STUB in
timeout) echo x >"${prefix}timeout-abc"; echo "==1== ERROR: libFuzzer: timeout after 1 seconds"; exit 70 ;;
crash) echo x >"${prefix}crash-def"; echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow"; exit 1 ;;
esac
exit 0
STUB
chmod +x "$tmp/fuzz_stub"
# FUZZ_TIMER -f FORMAT -o FILE CMD...: runs CMD, writes STUB_ALONE to FILE as its times
cat >"$tmp/timer" <<'TIMER'
#!/usr/bin/env bash
[ "$1" = -f ] && [ "$3" = -o ] || exit 99
out=$4; shift 4
"$@"; st=$?
echo "$STUB_ALONE" >"$out"
exit "$st"
TIMER
chmod +x "$tmp/timer"

# campaign NAME STUB STUB_ALONE: runs the campaign on the stand-in; output in $tmp/out, status in $st
campaign() {
    rm -rf "$tmp/findings" "$tmp/state" "$tmp/state.runs"
    env FUZZ_PREBUILT="$tmp" FUZZ_TIMER="$tmp/timer" FUZZ_TARGETS=stub FUZZ_SECONDS=60 FUZZ_TIMEOUT=0.3 \
        FUZZ_RUNS="${RUNS:-0}" \
        STUB="$2" STUB_ALONE="$3" STUB_STATE="$tmp/state" STUB_MERGE="${4:-ok}" \
        bash tests/fuzz/campaign.sh >"$tmp/out" 2>&1
    st=$?
}
# expect NAME STATUS PATTERN: the last campaign's status and a line of its output
expect() {
    if [ "$st" != "$2" ]; then tap_fail "$1" "status $st, expected $2" "$(cat "$tmp/out")"
    elif ! grep -qE "$3" "$tmp/out"; then tap_fail "$1" "no line matches: $3" "$(cat "$tmp/out")"
    else tap_ok "$1"; fi
}

campaign clean none 0
expect "a clean run: its executions counted, nothing found" 0 \
    '^stub: 100 executions, slowest input 0 s, no crash, leak or timeout$'

expect "... and merges what it found into the corpus" 0 '^  corpus: 0 -> 0 inputs \(0 found by fuzzing'
campaign merge none 0 failed
expect "a merge that fails fails the run" 1 '^  corpus: the merge failed:$'

campaign load timeout 0.29
expect "a timeout quick alone: under load, the campaign goes on" 0 \
    '^stub: 200 executions, slowest input 0 s, no crash, leak or timeout$'
expect "... and says so, with its time alone" 0 '^  timed out under load only: timeout-abc \(0\.29 s alone\)$'
[ -f "$tmp/findings/stub/load/art-timeout-abc" ] && tap_ok "... and keeps its input in findings/stub/load/" ||
    tap_fail "... and keeps its input in findings/stub/load/" "$(find "$tmp/findings" 2>/dev/null)"

# FUZZ_RUNS: each run asks for what is left; once reached, no run more
RUNS=150 campaign runs-left timeout 0.29
expect "FUZZ_RUNS=150: a run of 100 and one of the 50 left" 0 \
    '^stub: 150 executions, slowest input 0 s, no crash, leak or timeout$'
[ "$(cat "$tmp/state.runs" 2>/dev/null | tr '\n' ' ')" = "150 50 " ] && tap_ok "... asking libFuzzer for -runs=150, then -runs=50" ||
    tap_fail "... asking libFuzzer for -runs=150, then -runs=50" "$(cat "$tmp/state.runs" 2>/dev/null)"
RUNS=100 campaign runs-done timeout 0.29
expect "FUZZ_RUNS=100 reached by the first run: no second run after the timeout under load" 0 \
    '^stub: 100 executions, slowest input 0 s, no crash, leak or timeout$'
[ "$(cat "$tmp/state.runs" 2>/dev/null | tr '\n' ' ')" = "100 " ] && tap_ok "... libFuzzer run once, with -runs=100" ||
    tap_fail "... libFuzzer run once, with -runs=100" "$(cat "$tmp/state.runs" 2>/dev/null)"

campaign cpu timeout "0.20 0.09"
expect "the time alone is the CPU time, user and system summed" 0 \
    '^  timed out under load only: timeout-abc \(0\.29 s alone\)$'

campaign slow timeout 0.30
expect "a timeout slow alone too (at the limit): a finding, the run fails" 1 \
    '^stub: 100 executions, FOUND: timeout-abc, 0\.30 s alone$'
[ -f "$tmp/findings/stub/timeout-abc" ] && tap_ok "... its input kept in findings/stub/" ||
    tap_fail "... its input kept in findings/stub/" "$(find "$tmp/findings" 2>/dev/null)"

campaign crash crash 0
expect "a crash: a finding, with the sanitizer's line" 1 '^stub: 100 executions, FOUND: crash-def$'
expect "... the sanitizer's line shown" 1 'ERROR: AddressSanitizer: heap-buffer-overflow'
[ -f "$tmp/findings/stub/crash-def" ] && tap_ok "... its input kept in findings/stub/" ||
    tap_fail "... its input kept in findings/stub/" "$(find "$tmp/findings" 2>/dev/null)"
tap_done
