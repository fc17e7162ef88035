#!/usr/bin/env bash
# tests/svd/run-cmsis-posmask.sh - the order of the _Pos/_Msk macros of -t cmsis and
# -t cmsis-enum, svdconv's (docs/svd.md, "The CMSIS header"; HeaderData::CreatePosMask): the
# clusters' section first (each cluster after those inside it, its own registers), then the
# peripherals with a type of their own in the file's order (their top-level registers), each
# register's fields as the file lists them:
#  - tests/svd/cmsis-posmask.svd: the section titles and _Pos names, in order, worked out by hand
#    from its comments and svdconv's rules (not from regc's output), in both headers;
#  - every test-set file (../shared/svd), features.svd, cmsis-enum.svd, cmsis-names.svd and
#    cmsis-posmask.svd: the header's order is the one tests/svd/cmsis_posmask_check.py works out
#    from the SVD (xml.etree and svdconv's rules, not regc).
# The macros' values are the other tests' (run-cmsis-layout.sh, run-cmsis-names.sh, the vendor
# comparisons of run-cmsis-vendor.sh).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

header() {   # svd template out.h
    "$regc" "$1" -t "$2" -o "$3" 2>"$tmp/err" && return 0
    tap_fail "$1: regc -t $2" "$(head -n 3 "$tmp/err")"
    return 1
}

# ---- the order of cmsis-posmask.svd, by hand
cat >"$tmp/want" <<'ORDER'
Pos/Mask Cluster Section
A_OUT_IN_I1_G_Pos
A_OUT_O1_F_Pos
A_OUT_O2_H_Pos
D_X_XR_XF_Pos
Pos/Mask Peripheral Section
A_CTRL_HI_Pos
A_CTRL_EN_Pos
A_STAT_S_Pos
P_PR_PF_Pos
B_CTRL_HI_Pos
B_CTRL_EN_Pos
B_STAT_S_Pos
D_DR_DF_Pos
ORDER
for t in cmsis cmsis-enum; do
    header tests/svd/cmsis-posmask.svd "$t" "$tmp/posmask.h" || continue
    sed -n 's|^/\* =*  \(Pos/Mask [A-Za-z]* Section\)  =* \*/$|\1|p
            s/^#define \([A-Za-z0-9_]*_Pos\) .*/\1/p' "$tmp/posmask.h" >"$tmp/got"
    tap_diff "cmsis-posmask.svd -t $t: the _Pos macros in the order worked out by hand" \
        "$tmp/want" "$tmp/got"
done

# ---- the order against the SVD, worked out by cmsis_posmask_check.py
against_svd() {   # label svd
    header "$2" cmsis "$tmp/order.h" || return
    if python3 tests/svd/cmsis_posmask_check.py "$2" "$tmp/order.h" >"$tmp/check" 2>&1; then
        tap_ok "$1: the _Pos macros in svdconv's order ($(head -n 1 "$tmp/check"))"
    else
        tap_fail "$1: the _Pos macros in svdconv's order" "$(head -n 6 "$tmp/check")"
    fi
}

for f in features cmsis-enum cmsis-names cmsis-posmask; do
    against_svd "$f.svd" "tests/svd/$f.svd"
done

. tests/svd/testset.sh
svd_need corpus "SVD test set: the order of the _Pos macros"
for f in $(svd_files); do
    against_svd "$f" "$svd/$f"
done
tap_done
