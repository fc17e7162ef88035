#!/usr/bin/env bash
# tests/svd/run-cmsis-later-base.sh - unmodified derived clusters whose base comes later in the
# file, in a later peripheral (CP: a type of its own, as its base's type is not declared yet, and
# no _Pos/_Msk macros, as for every unmodified copy) or later in the same one (EARLY, HOLD.IN:
# the base's type), and the types in the file's order but where a type is used before its place
# (A_LATE_Type before A_HOLD_Type). tests/svd/cmsis-later-base.svd says why by svdconv's rules;
# tests/svd/cmsis-later-base.xml is the same device as a regspec written by hand. The facts are
# worked out by hand from those files and checked by compiling them against each header (member
# offsets and types, sizes, the macros there and not there), and the order of the typedefs
# against a list written by hand: for the SVD file, the regspec, and what -t svd and -t regspec
# write of each, read back (the order but of the regspec's -t svd, which writes its clusters in
# another order).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh

svd=tests/svd/cmsis-later-base.svd xml=tests/svd/cmsis-later-base.xml
svd_schema_check "cmsis-later-base.svd validates against CMSIS-SVD.xsd" "$svd"

cat >"$tmp/facts.c" <<'C'
#include "lbase.h"
#define IS(expr, type) _Generic((expr), type: 1, default: 0)
#define AT(T, m, off) _Static_assert(offsetof(T, m) == (off), #T "." #m)
/* B.CL: R at 0x4 */
AT(B_CL_Type, R, 0x4); _Static_assert(sizeof(B_CL_Type) == 8, "B_CL_Type");
_Static_assert(IS(&B->CL, B_CL_Type *) && B_BASE == 0x40001000u, "B.CL");
/* CP, a copy of B.CL written before it: a type of its own, laid out as CL */
AT(A_CP_Type, R, 0x4); _Static_assert(sizeof(A_CP_Type) == 8, "A_CP_Type");
_Static_assert(IS(&A->CP, A_CP_Type *), "CP: a type of its own");
_Static_assert(IS(&A->CP.R, volatile uint32_t *), "CP.R: read-write");
/* LATE: L at 0, SUB (S, read-only) at 4; EARLY and HOLD.IN of its type */
AT(A_LATE_Type, L, 0x0); AT(A_LATE_Type, SUB, 0x4); AT(A_LATE_SUB_Type, S, 0x0);
_Static_assert(sizeof(A_LATE_Type) == 8 && sizeof(A_LATE_SUB_Type) == 4, "LATE, SUB");
_Static_assert(IS(&A->EARLY, A_LATE_Type *) && IS(&A->HOLD.IN, A_LATE_Type *), "LATE's type");
_Static_assert(IS(&A->EARLY.SUB.S, const volatile uint32_t *), "EARLY.SUB.S: read-only");
AT(A_MID_Type, M, 0x0); AT(A_HOLD_Type, IN, 0x0);
_Static_assert(IS(&A->MID, A_MID_Type *) && IS(&A->HOLD, A_HOLD_Type *), "MID, HOLD");
AT(A_Type, CP, 0x0); AT(A_Type, EARLY, 0x10); AT(A_Type, MID, 0x20); AT(A_Type, HOLD, 0x30);
AT(A_Type, LATE, 0x40); AT(A_Type, OWN, 0x50);
_Static_assert(sizeof(A_Type) == 0x54 && A_BASE == 0x40000000u, "A");
/* the macros of the clusters with a type of their own, and of A's own register */
_Static_assert(A_MID_M_V_Pos == 0 && A_MID_M_V_Msk == 0x7u, "V [2:0]");
_Static_assert(A_LATE_L_GO_Pos == 0 && A_LATE_L_GO_Msk == 0x1u, "GO [0]");
_Static_assert(A_LATE_SUB_S_X_Pos == 0 && A_LATE_SUB_S_X_Msk == 0xFu, "X [3:0]");
_Static_assert(B_CL_R_F_Pos == 0 && B_CL_R_F_Msk == 0xFFu, "F [7:0]");
_Static_assert(A_OWN_O_Pos == 0 && A_OWN_O_Msk == 0x3u, "O [1:0]");
#if defined(A_CP_R_F_Pos) || defined(A_CP_R_F_Msk)
#error "CP is an unmodified copy (of a later peripheral's cluster): no macros of its own"
#endif
#if defined(A_EARLY_L_GO_Pos) || defined(A_EARLY_SUB_S_X_Pos) || defined(A_HOLD_IN_L_GO_Pos)
#error "EARLY and HOLD.IN are unmodified copies: no macros of their own"
#endif
C
want_order="A_CP_Type A_MID_Type A_LATE_SUB_Type A_LATE_Type A_HOLD_Type A_Type B_CL_Type B_Type"

# check NAME INPUT: INPUT's -t cmsis against the facts and the order
check() {
    local d="$tmp/h$RANDOM"
    mkdir -p "$d"
    if ! "$regc" "$2" -t cmsis -o "$d/lbase.h" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
        tap_fail "$1: -t cmsis, no diagnostic" "$(head -n 3 "$tmp/err")"
        return
    fi
    if gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$d" -c -o "$d/facts.o" "$tmp/facts.c" \
        2>"$tmp/cc.err"; then
        tap_ok "$1: every hand-worked fact holds"
    else
        tap_fail "$1: every hand-worked fact holds" "$(grep -m 5 error "$tmp/cc.err")"
    fi
    [ "${3:-}" = facts-only ] && return
    local order
    order=$(sed -n 's/^} \([A-Za-z0-9_]*\);$/\1/p' "$d/lbase.h" | grep -v IRQn_Type)
    tap_check "$1: the types in the file's order, a used type first" \
        test "$(echo $order)" = "$want_order"
}
for f in "$svd" "$xml"; do
    name=$(basename "$f")
    check "$name" "$f"
    for t in svd regspec; do
        if "$regc" "$f" -t $t -o "$tmp/back.$t" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
            # -t svd of a regspec writes a block's clusters holding registers before the others:
            # another file order, so the facts only
            check "$name -t $t read back" "$tmp/back.$t" \
                "$([ "$f.$t" = "$xml.svd" ] && echo facts-only)"
        else
            tap_fail "$name -t $t, no diagnostic" "$(head -n 3 "$tmp/err")"
        fi
    done
done
tap_done
