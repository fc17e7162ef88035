# tests/runtime/msrfs.sh - tests/tools/msrfs (an emulated /dev/cpu/N/msr through FUSE) for
# shell tests; source it after tests/tap.sh, with $BUILD set.
#   msrfs_mount SPEC CPUS DIR   mounts on DIR (made here); sets mnt and fspid, or msrfs_why to
#                               the reason it cannot (then the caller skips)
#   msrfs_unmount               unmounts and waits for msrfs (safe to call twice)
mnt="" fspid="" msrfs_why=""
. "$(dirname "${BASH_SOURCE[0]}")/fuserig.sh"

msrfs_mount() {
    local spec=$1 cpus=$2 dir=$3 msrfs=$BUILD/tests/tools/msrfs
    msrfs_why=""
    if ! fuse_missing "$msrfs" &&
        fuse_start msrfs "$dir" fspid -e "$dir/cpu/0/msr" -- "$msrfs" --spec "$spec" --cpus "$cpus" "${@:4}"; then
        mnt=$dir
        return 0
    fi
    msrfs_why=$fuse_why
    return 1
}

msrfs_unmount() {
    fuse_stop "$mnt" "$fspid"
    mnt="" fspid=""
}
