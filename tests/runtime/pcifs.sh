# tests/runtime/pcifs.sh - tests/tools/pcifs (an emulated sysfs PCI tree through FUSE, the
# simulator behind it) for shell tests; source it after tests/tap.sh, with $BUILD set.
#   pcifs_mount SPEC DIR [OPTION...]  mounts pcifs for SPEC on DIR (made here) with pcifs's
#                        OPTIONs (--sockets N, --cpus N, ...) and a log of every access in
#                        $pcifs_log; sets pcifs_mnt and pcifs_pid, or pcifs_why to the reason
#                        it cannot (then the caller skips). Point the pci backend at it with
#                        --sysfs-root "$pcifs_mnt" and, with --cpus, the msr backend with
#                        --msr-root "$pcifs_mnt/cpu" (one simulated package behind both).
#   pcifs_unmount        unmounts and waits for pcifs (safe to call twice)
#   pcifs_sysroot DIR N  makes DIR a sysfs root joining pcifs's tree (bus/, devices/pci*) with a
#                        CPU topology: cpu0..N-1 in packages 0..N-1
#   pcifs_cmd COMMAND    one command to the control file (simctl.h: "tick ...", "batch 0|1",
#                        "defer 1|0" to hold ticks until no freeze holds their counters;
#                        "socket S " first for another socket's model)
#   pcifs_tick [socket S] BLOCK INSTANCE|- GROUP COUNTER N
#                        N events for one counter of the model
#   pcifs_config BDF OFF the dword at configuration offset OFF of function BDF
#                        ("0000:7f:0e.1"), read through the kernel, as 0x%08x
#   pcifs_written BDF OFF the dword values written at OFF of BDF so far, one a line (from the log)
# Skips (pcifs_why) without /dev/fuse or fusermount3, and when not root: the kernel serves
# configuration space past 64 bytes to root only, and so does pcifs.
pcifs_mnt="" pcifs_pid="" pcifs_why="" pcifs_log=""
. "$(dirname "${BASH_SOURCE[0]}")/fuserig.sh"

pcifs_mount() {
    local spec=$1 dir=$2 tool=$BUILD/tests/tools/pcifs
    shift 2
    pcifs_why=""
    if fuse_missing "$tool"; then pcifs_why=$fuse_why; return 1; fi
    if [ "$(id -u)" != 0 ]; then pcifs_why="not root: PCI configuration space past 64 bytes is root's only"; return 1; fi
    mkdir -p "$dir"
    pcifs_log=$dir.log
    : >"$pcifs_log"
    if fuse_start pcifs "$dir" pcifs_pid -d "$dir/bus/pci/devices" -- "$tool" --spec "$spec" --log "$pcifs_log" "$@"; then
        pcifs_mnt=$dir
        return 0
    fi
    pcifs_why=$fuse_why
    return 1
}

pcifs_unmount() {
    fuse_stop "$pcifs_mnt" "$pcifs_pid"
    pcifs_mnt="" pcifs_pid=""
}

pcifs_sysroot() {
    rm -rf "$1"
    mkdir -p "$1/devices"
    ln -s "$pcifs_mnt/bus" "$1/bus"
    for d in "$pcifs_mnt"/devices/pci*; do ln -s "$d" "$1/devices/${d##*/}"; done
    for ((c = 0; c < $2; c++)); do
        mkdir -p "$1/devices/system/cpu/cpu$c/topology"
        echo "$c" >"$1/devices/system/cpu/cpu$c/topology/physical_package_id"
    done
}

pcifs_cmd() {
    printf '%s' "$1" >"$pcifs_mnt/sim"
}

pcifs_tick() {
    if [ "$1" = socket ]; then pcifs_cmd "socket $2 tick ${*:3}"; else pcifs_cmd "tick $*"; fi
}

pcifs_config() {
    printf '0x%08x\n' "0x$(od -An -tx4 -j "$(($2))" -N4 "$pcifs_mnt/bus/pci/devices/$1/config" | tr -d ' ')"
}

pcifs_written() {
    awk -v d="$1" -v o="$(printf '0x%x' "$(($2))")" '$1 == "W" && $2 == d && $3 == o && $4 == 4 { print $5 }' "$pcifs_log"
}
