#!/usr/bin/env bash
# tests/perf/run-bench-schema-once.sh - bench/schema-once.sh (the schema compiled once a run,
# `make bench`): a real run on the specs of regspec/ and two small specs checks them all clean, in
# one process and alone; its arithmetic is judged on set numbers (stand-ins for MEASURE and
# INSTRUCTIONS: 12M instructions and 0.02 s for a run of several specs, 4M and 0.01 s for one,
# 1M for --version), never on the machine's speed; a failing run and a bad SMALL or REPS are
# refused.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
if ! command -v python3 >/dev/null; then
    tap_skip "bench/schema-once.sh" "needs python3"
    tap_done
    exit 0
fi

if REGC="$regc" SMALL=2 REPS=1 INSTR=0 bash bench/schema-once.sh >"$tmp/out" 2>&1 &&
    grep -qE '^regspec/\*\.xml +5 \| +- .*\| +[0-9.]+ +[0-9.]+ +[0-9.]+ +-?[0-9]+%$' "$tmp/out" &&
    grep -qE '^small \(gen-spec\.py\) +2 \| ' "$tmp/out"; then
    tap_ok "the specs check clean in one process and alone, a line per set"
else
    tap_fail "the specs check clean in one process and alone, a line per set" "$(head -n 8 "$tmp/out")"
fi

# the stand-ins: a run of several specs (more than one .xml argument) or of one
cat >"$tmp/measure" <<'SH'
#!/bin/sh
n=0; for a; do case $a in *.xml) n=$((n + 1)) ;; esac; done
if [ "$n" -gt 1 ]; then echo "0.0200 1000 0"; else echo "0.0100 1000 0"; fi
SH
cat >"$tmp/instructions" <<'SH'
#!/bin/sh
n=0; for a; do case $a in *.xml) n=$((n + 1)) ;; --version) echo 1000000; exit ;; esac; done
if [ "$n" -gt 1 ]; then echo 12000000; else echo 4000000; fi
SH
chmod +x "$tmp/measure" "$tmp/instructions"
REGC="$regc" SMALL=4 MEASURE="$tmp/measure" INSTRUCTIONS="$tmp/instructions" bash bench/schema-once.sh \
    >"$tmp/out" 2>&1
# regspec/: 12M / (5 x 4M) = 0.60, saving 40%, of which 4 start-ups of 1M: 20%; 0.02 s / 0.05 s
# small: 12M / 16M = 0.75, saving 25%, 3 start-ups: 19%, rest 6%; 0.02 s / 0.04 s
if grep -qE '^regspec/\*\.xml +5 \| +12\.0M +20\.0M +0\.60 +40% +20% +20% \| +0\.020 +0\.050 +0\.40 +60%$' "$tmp/out" &&
    grep -qE '^small \(gen-spec\.py\) +4 \| +12\.0M +16\.0M +0\.75 +25% +19% +6% \| +0\.020 +0\.040 +0\.50 +50%$' "$tmp/out"; then
    tap_ok "ratios one / sum, savings split into start-ups and the rest"
else
    tap_fail "ratios one / sum, savings split into start-ups and the rest" "$(cat "$tmp/out")"
fi

printf '#!/bin/sh\nexit 1\n' >"$tmp/failing"
chmod +x "$tmp/failing"
tap_refused "a run that fails stops the bench" "status 1" \
    env REGC="$tmp/failing" SMALL=1 REPS=1 INSTR=0 bash bench/schema-once.sh
for bad in SMALL=0 REPS=x; do
    tap_refused "$bad refused" "must be a positive number" env REGC="$regc" "$bad" bash bench/schema-once.sh
done
tap_done
