# tests/runtime/perfrig.sh - the perf backend's rig for shell tests: a made-up sysfs tree of a
# family's uncore PMUs that the real kernel serves, and whether this run may use it. Source it
# after tests/tap.sh, with REGCTL and tmp set.
#   perf_tree DATA ROOT         tests/runtime/perf-sysfs.sh's tree of DATA's PMUs
#                               (tests/runtime/data/perf-formats/*.txt) under ROOT, each PMU's
#                               'type' this machine's software PMU: raw ev_sel=0 is cpu-clock
#                               (nanoseconds), ev_sel=9 the dummy event
#   perf_cpuwide                0 when this run may open CPU-wide events (root, or
#                               kernel.perf_event_paranoid <= 0); else 1, perf_why the reason
#   perf_probe ROOT SPEC EVENT  0 when the kernel counts EVENT once through the tree ROOT; else 1,
#                               perf_why the reason to skip: perf_cpuwide's, or the kernel's
#                               refusal. Any other failure is regctl's: a TAP failure here (the
#                               probe's output), and perf_why says so
perf_why=""
perf_soft=$(cat /sys/bus/event_source/devices/software/type 2>/dev/null || echo 1)

perf_tree() { bash tests/runtime/perf-sysfs.sh "$1" "$2" "$perf_soft"; }

perf_cpuwide() {
    perf_why=""
    if [ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)" -le 0 ]; then
        return 0
    fi
    perf_why="CPU-wide events need root or kernel.perf_event_paranoid <= 0"
    return 1
}

perf_probe() {
    local lines
    perf_cpuwide || return 1
    "$REGCTL" --force-cpu --sysfs-root "$1" --backend perf monitor "$2" "$3" --count 1 --interval 0 \
        >"$tmp/probe" 2>&1 && return 0
    # a refusal by the kernel (regc_perf_strerror's messages) is a skip; any other failure is regctl's
    if grep -qE 'perf_event_open|perf_event_paranoid|the kernel rejected|does not support this event' "$tmp/probe"; then
        perf_why="the kernel refused perf_event_open: $(tail -1 "$tmp/probe")"
    else
        mapfile -t lines <"$tmp/probe"
        tap_fail "perf probe: one count of $3 through the fake sysfs tree" "${lines[@]}"
        perf_why="the probe failed (the failure above)"
    fi
    return 1
}
