# tests/svd/same-but-levels.sh - sourced by tests/svd scripts that compare two -t svd outputs.
# svd_same_but_levels A B: two -t svd files alike but for the level each register property is
# written at (a regspec's registers hold all their own, an SVD file's peripheral writes those its
# registers take from it): the same register map (svd-normalize.py, which inherits them as the
# SVD specification says) and, without those elements' lines, the same text.
svd_same_but_levels() {
    local strip='/^ *<(size|access|protection|resetValue|resetMask)>[^<]*<\/[a-zA-Z]*> *$/d'
    python3 tests/svd/svd-normalize.py "$1" >"$1.map" && python3 tests/svd/svd-normalize.py "$2" >"$2.map" &&
        cmp -s "$1.map" "$2.map" && cmp -s <(sed -E "$strip" "$1") <(sed -E "$strip" "$2")
}
