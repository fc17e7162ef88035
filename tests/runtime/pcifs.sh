# tests/runtime/pcifs.sh - tests/tools/pcifs (an emulated sysfs PCI tree through FUSE, the
# simulator behind it) for shell tests; source it after tests/tap.sh, with $BUILD set.
#   pcifs_mount SPEC DIR [OPTION...]  mounts pcifs for SPEC on DIR (made here) with pcifs's
#                        OPTIONs (--sockets N, --cpus N, ...) and a log of every access in
#                        $pcifs_log; sets pcifs_mnt and pcifs_pid, or pcifs_why to the reason
#                        it cannot (then the caller skips). Point the pci backend at it with
#                        --sysfs-root "$pcifs_mnt" and, with --cpus, the msr backend with
#                        --msr-root "$pcifs_mnt/cpu" (one simulated package behind both).
#   pcifs_unmount        unmounts and waits for pcifs (safe to call twice)
#   pcifs_cmd COMMAND    one command to the control file (simctl.h: "tick ...", "batch 0|1";
#                        "socket S " first for another socket's model)
#   pcifs_tick [socket S] BLOCK INSTANCE|- GROUP COUNTER N
#                        N events for one counter of the model
#   pcifs_config BDF OFF the dword at configuration offset OFF of function BDF
#                        ("0000:7f:0e.1"), read through the kernel, as 0x%08x
#   pcifs_written BDF OFF the dword values written at OFF of BDF so far, one a line (from the log)
# Skips (pcifs_why) without /dev/fuse or fusermount3, and when not root: the kernel serves
# configuration space past 64 bytes to root only, and so does pcifs.
pcifs_mnt="" pcifs_pid="" pcifs_why="" pcifs_log=""
. "$(dirname "${BASH_SOURCE[0]}")/fusewait.sh"

pcifs_mount() {
    local spec=$1 dir=$2 tool=$BUILD/tests/tools/pcifs
    shift 2
    pcifs_why=""
    if [ ! -c /dev/fuse ] || [ ! -r /dev/fuse ] || [ ! -w /dev/fuse ]; then pcifs_why="/dev/fuse is missing or not accessible"
    elif ! command -v fusermount3 >/dev/null; then pcifs_why="fusermount3 is not installed (Debian package fuse3)"
    elif [ "$(id -u)" != 0 ]; then pcifs_why="not root: PCI configuration space past 64 bytes is root's only"
    elif [ ! -x "$tool" ]; then pcifs_why="$tool is not built"
    fi
    [ -z "$pcifs_why" ] || return 1
    mkdir -p "$dir"
    pcifs_log=$dir.log
    : >"$pcifs_log"
    "$tool" --spec "$spec" --log "$pcifs_log" "$@" "$dir" 2>"$dir.err" &
    pcifs_pid=$!
    if fuse_wait pcifs "$pcifs_pid" "$dir.err" -d "$dir/bus/pci/devices"; then pcifs_mnt=$dir; return 0; fi
    pcifs_why=$fuse_why pcifs_pid=""
    return 1
}

pcifs_unmount() {
    if [ -n "$pcifs_mnt" ]; then fusermount3 -u -q "$pcifs_mnt" 2>/dev/null; fi
    if [ -n "$pcifs_pid" ]; then kill "$pcifs_pid" 2>/dev/null; wait "$pcifs_pid" 2>/dev/null; fi
    pcifs_mnt="" pcifs_pid=""
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
