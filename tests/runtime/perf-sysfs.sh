#!/usr/bin/env bash
# tests/runtime/perf-sysfs.sh DATA ROOT TYPE - a made-up sysfs tree of a family's uncore PMUs:
# for each PMU of DATA (tests/runtime/data/perf-formats/*.txt: the kernel's formats and event
# aliases), ROOT/bus/event_source/devices/PMU/{type,format/*,events/*}, each 'type' TYPE.
# regctl --sysfs-root ROOT --backend perf reads it as it reads the kernel's; run-perf-monitor.sh
# and the doc examples of docs/monitoring.md use it.
set -eu
[ $# = 3 ] || { echo "usage: tests/runtime/perf-sysfs.sh DATA ROOT TYPE" >&2; exit 2; }
declare -A boxes
while read -r kind a b c _; do
    case $kind in
    boxes) boxes[$a]=$b ;;
    format | alias)
        n=${boxes[$a]}
        if [ "$n" = 1 ]; then pmus=("uncore_$a"); else
            pmus=(); for ((i = 0; i < n; i++)); do pmus+=("uncore_${a}_$i"); done; fi
        for p in "${pmus[@]}"; do
            dir=$2/bus/event_source/devices/$p
            mkdir -p "$dir/format" "$dir/events"
            echo "$3" >"$dir/type"
            if [ "$kind" = format ]; then echo "$c" >"$dir/format/$b"; else echo "$c" >"$dir/events/$b"; fi
        done ;;
    esac
done < <(grep -v '^#' "$1")
