#!/usr/bin/env bash
# bench/render.sh - how fast `regc render` writes output, in MB/s.
#
# Renders bench/render/bench.mustache (nested sections, a partial per
# register, C escaping) over a generated tree of N registers (default 100000,
# about 400k fields) and reports the best of RUNS (default 3) timings, and
# the peak resident memory against the output's size (the output goes to
# its temporary file as it is rendered, so the peak is the data's tree):
#   render: 100000 regs, 61.2 MB output, best 0.412 s, 148.5 MB/s
# Standalone (REGC=path/to/regc bench/render.sh [N]); bench/run.sh calls it.
set -eu
cd "$(dirname "$0")/.."
: "${BUILD:=build}" "${REGC:=$BUILD/regc}" "${RUNS:=3}"
n=${1:-100000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sh bench/render/gen-data.sh "$n" >"$work/data.json"
best_time() {   # template, extra args...: best wall time in ns over RUNS runs
    local best= t start
    for _ in $(seq "$RUNS"); do
        start=$(date +%s%N)
        "$REGC" render "$@" "$work/data.json" -o "$work/out"
        t=$(($(date +%s%N) - start))
        if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
    done
    echo "$best"
}
printf '' >"$work/empty.mustache"
load=$(best_time "$work/empty.mustache")
full=$(best_time bench/render/bench.mustache --escape=c)
awk -v n="$n" -v b="$(wc -c <"$work/out")" -v t="$full" -v l="$load" -v d="$(wc -c <"$work/data.json")" 'BEGIN {
    r = t - l; if (r < 1e6) r = 1e6
    printf "render: %d regs, %.1f MB data, %.1f MB output in %.3f s: %.1f MB/s " \
        "(loading the JSON alone %.3f s; rendering %.1f MB/s)\n",
        n, d / 1e6, b / 1e6, t / 1e9, b / 1e6 / (t / 1e9), l / 1e9, b / 1e6 / (r / 1e9) }'
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M -o "$work/peak" "$REGC" render bench/render/bench.mustache --escape=c \
        "$work/data.json" -o "$work/out"
    awk -v kb="$(tail -n 1 "$work/peak")" -v b="$(wc -c <"$work/out")" \
        -v d="$(wc -c <"$work/data.json")" 'BEGIN {
        printf "render: peak resident %.1f MB: %.2fx the %.1f MB of data (its tree), %.2fx the %.1f MB of output (streamed)\n",
            kb / 1024, kb * 1024 / d, d / 1e6, kb * 1024 / b, b / 1e6 }'
fi
