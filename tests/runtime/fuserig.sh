# tests/runtime/fuserig.sh - the FUSE rig msrfs.sh and pcifs.sh share (sourced by them): whether a
# FUSE tool of tests/tools can run here, starting it until it has mounted, and stopping it.
#   fuse_missing TOOL        0 with fuse_why the reason when TOOL cannot mount here (no usable
#                            /dev/fuse, no fusermount3, TOOL not built); 1 when it can
#   fuse_start NAME DIR PIDVAR TEST... -- TOOL [ARG...]
#                            runs TOOL ARG... DIR (made here; its stderr in DIR.err) in the
#                            background, its process id in the variable PIDVAR at once (so the
#                            caller's exit trap stops it even while it mounts), and waits until
#                            `test TEST...` holds (it mounted) for as long as it runs (a loaded
#                            machine only slows it), 60 s at most (a guard against a hang). 0
#                            once mounted; else 1, PIDVAR empty, with fuse_why the reason: the
#                            tool's first line of stderr or its exit status, or that it still
#                            ran unmounted (then stopped)
#   fuse_stop DIR PID        unmounts DIR and waits for PID, each when not empty
fuse_why=""

fuse_missing() {
    fuse_why=""
    if [ ! -c /dev/fuse ] || [ ! -r /dev/fuse ] || [ ! -w /dev/fuse ]; then fuse_why="/dev/fuse is missing or not accessible"
    elif ! command -v fusermount3 >/dev/null; then fuse_why="fusermount3 is not installed (Debian package fuse3)"
    elif [ ! -x "$1" ]; then fuse_why="$1 is not built"
    fi
    [ -n "$fuse_why" ]
}

fuse_start() {
    local name=$1 dir=$2 var=$3 t=() pid st
    shift 3
    while [ "$1" != -- ]; do t+=("$1"); shift; done
    shift
    fuse_why=""
    mkdir -p "$dir"
    "$@" "$dir" 2>"$dir.err" &
    pid=$!
    printf -v "$var" '%s' "$pid"
    for _ in $(seq 1200); do
        test "${t[@]}" && return 0
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
        fuse_why="cannot mount $name: $(head -n 1 "$dir.err" | grep . || echo "it exited with status $st")"
    fi
    printf -v "$var" '%s' ""
    return 1
}

fuse_stop() {
    if [ -n "$1" ]; then fusermount3 -u -q "$1" 2>/dev/null; fi
    if [ -n "$2" ]; then kill "$2" 2>/dev/null; wait "$2" 2>/dev/null; fi
}
