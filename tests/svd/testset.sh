# tests/svd/testset.sh - the CMSIS-SVD test set the tests/svd scripts read; source it after
# tests/tap.sh and tap_setup.
#   svd                      the test set: REGC_SVD_DATA, else ../shared/svd beside the tree
#   svd_need DIR NAME        ends the script, NAME skipped with the reason, unless $svd/DIR is there
#   svd_files                the device files, sorted: corpus/*/*.svd, vendor-headers/nordic/*.svd
#   each_on_cores FN ITEM... FN ITEM for every item, one job per core; returns when all have ended
svd=${REGC_SVD_DATA:-$tap_top/../shared/svd}
svd_why="no test set at $svd (../shared/svd from the repository root, or REGC_SVD_DATA)"

svd_need() {
    [ -d "$svd/$1" ] || tap_skip_rest "$svd_why" "$2"
}

svd_files() {
    (cd "$svd" && ls corpus/*/*.svd vendor-headers/nordic/*.svd | sort)
}

each_on_cores() {
    local fn=$1 cores running=0 x
    shift
    cores=$(nproc 2>/dev/null || echo 1)
    for x in "$@"; do
        "$fn" "$x" &
        running=$((running + 1))
        if [ "$running" -ge "$cores" ]; then
            wait -n
            running=$((running - 1))
        fi
    done
    wait
}
