# tests/runtime/fusewait.sh - waiting for a FUSE tool of tests/tools to mount; sourced by
# msrfs.sh and pcifs.sh.
#   fuse_wait NAME PID ERR TEST...   waits until `test TEST...` holds (the tool mounted) for as
#                                    long as PID runs (a loaded machine only slows it), 60 s at
#                                    most (a guard against a hang). 0 once mounted; else 1 with
#                                    fuse_why the reason: the tool's first line of stderr (ERR)
#                                    or its exit status, or that it still runs unmounted (then
#                                    it is stopped)
fuse_why=""
fuse_wait() {
    local name=$1 pid=$2 err=$3 st
    shift 3
    fuse_why=""
    for _ in $(seq 1200); do
        test "$@" && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$pid" 2>/dev/null; then
        fuse_why="$name did not mount within 60 s (still running)"
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
    else
        wait "$pid"
        st=$?
        fuse_why="cannot mount $name: $(head -n 1 "$err" | grep . || echo "it exited with status $st")"
    fi
    return 1
}
