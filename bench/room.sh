# bench/room.sh - sourced by bench/big.sh and bench/shapes.sh: a benchmark
# that writes large specs refuses to start without the room it needs.
#
# need_room NAME WHAT DISK_MB HINT: exits 1, saying what is short, when
# TMPDIR (default /tmp) has less than DISK_MB MiB free (WHAT needs it; HINT
# says what to change) or the machine less available memory than LIMIT_MB
# (the cap on each run's resident memory) plus 512 MiB.
need_room() {
    local name=$1 what=$2 need_disk_mb=$3 hint=$4
    local dir=${TMPDIR:-/tmp} need_mem_mb=$((LIMIT_MB + 512)) have_disk_mb have_mem_mb
    have_disk_mb=$(df -Pm "$dir" | awk 'NR == 2 { print $4 }')
    have_mem_mb=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
    if [ "$have_disk_mb" -lt "$need_disk_mb" ]; then
        echo "$name: $what needs $need_disk_mb MiB free in $dir; it has $have_disk_mb MiB." >&2
        echo "$name: $hint" >&2
        exit 1
    fi
    if [ "$have_mem_mb" -lt "$need_mem_mb" ]; then
        echo "$name: needs $need_mem_mb MiB of available memory (runs are stopped at LIMIT_MB=$LIMIT_MB MiB, plus 512); the machine has $have_mem_mb MiB." >&2
        echo "$name: free memory, or lower LIMIT_MB (runs above it are reported as stopped)." >&2
        exit 1
    fi
}
