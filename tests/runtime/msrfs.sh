# tests/runtime/msrfs.sh - tests/tools/msrfs (an emulated /dev/cpu/N/msr through FUSE) for
# shell tests; source it after tests/tap.sh, with $BUILD set.
#   msrfs_mount SPEC CPUS DIR   mounts on DIR (made here); sets mnt and fspid, or msrfs_why to
#                               the reason it cannot (then the caller skips)
#   msrfs_unmount               unmounts and waits for msrfs (safe to call twice)
mnt="" fspid="" msrfs_why=""
. "$(dirname "${BASH_SOURCE[0]}")/fusewait.sh"

msrfs_mount() {
    local spec=$1 cpus=$2 dir=$3 msrfs=$BUILD/tests/tools/msrfs
    msrfs_why=""
    if [ ! -c /dev/fuse ] || [ ! -r /dev/fuse ] || [ ! -w /dev/fuse ]; then msrfs_why="/dev/fuse is missing or not accessible"
    elif ! command -v fusermount3 >/dev/null; then msrfs_why="fusermount3 is not installed (Debian package fuse3)"
    elif [ ! -x "$msrfs" ]; then msrfs_why="$msrfs is not built"
    fi
    [ -z "$msrfs_why" ] || return 1
    mkdir -p "$dir"
    "$msrfs" --spec "$spec" --cpus "$cpus" "${@:4}" "$dir" 2>"$dir.err" &
    fspid=$!
    if fuse_wait msrfs "$fspid" "$dir.err" -e "$dir/cpu/0/msr"; then mnt=$dir; return 0; fi
    msrfs_why=$fuse_why fspid=""
    return 1
}

msrfs_unmount() {
    if [ -n "$mnt" ]; then fusermount3 -u -q "$mnt" 2>/dev/null; fi
    if [ -n "$fspid" ]; then kill "$fspid" 2>/dev/null; wait "$fspid" 2>/dev/null; fi
    mnt="" fspid=""
}
