#!/usr/bin/env bash
# run-bench-monitor.sh - bench/monitor.sh (`make bench`) still builds and runs: every
# family's polling and sampling flows complete on the simulator and get their rows.
# Only that it works is checked, never a number.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${BUILD:=build}"
flags=
[ "${SAN:-}" = 1 ] && flags="-fsanitize=address,undefined -fno-omit-frame-pointer"
out=$(BUILD=$BUILD BENCH_CFLAGS=$flags bash bench/monitor.sh 2>&1)
rc=$?
if [ $rc != 0 ]; then
    tap_fail "bench/monitor.sh runs" "$(printf '%s\n' "$out" | tail -5)"
else
    tap_ok "bench/monitor.sh runs"
fi
for spec in regspec/*.xml; do
    name=$(basename "$spec" .xml)
    n=$(printf '%s\n' "$out" | grep -c "^$name ")
    if [ "$n" = 4 ]; then tap_ok "bench rows for $name"
    else tap_fail "bench rows for $name" "$n rows, expected 4 (start, poll, two samples)"; fi
done
tap_done
