#!/usr/bin/env bash
# tests/svd/run-cmsis-derive-order.sh - unmodified derived clusters written before their base
# (derivedFrom names a later cluster: any order, by the CMSIS-SVD specification) have their
# base's type in -t cmsis, as those written after it do (svdconv derives before it reads a
# cluster's children and types an unmodified copy after its base). The facts are worked out by
# hand from tests/svd/cmsis-derive-order.svd (its comment says why) and checked by compiling
# them against the header: member offsets and types, sizes, the _Pos/_Msk macros there and not
# there; no type is written for a copy. The same for the header of what -t svd and -t regspec
# write back (a regspec's own-type="false" cluster before its base), and for
# tests/svd/regspec-derive-cluster.xml's CE (derived-from CD, itself from CL: CL's type).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh

file=tests/svd/cmsis-derive-order.svd
# An SVD file may so derive: it is valid CMSIS-SVD.
svd_schema_check "cmsis-derive-order.svd validates against CMSIS-SVD.xsd" "$file"
if ! "$regc" "$file" -t cmsis -o "$tmp/cmsis_order.h" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
    tap_fail "$file: regc -t cmsis, no diagnostic" "$(head -n 3 "$tmp/err")"
    tap_done
    exit 0
fi

cat >"$tmp/facts.c" <<'C'
#include "cmsis_order.h"
#define IS(expr, type) _Generic((expr), type: 1, default: 0)
#define AT(T, m, off) _Static_assert(offsetof(T, m) == (off), #T "." #m)
/* LATE: CMD at 0, SUB (V at 0) at 8; 0xC bytes */
AT(ORD_LATE_Type, CMD, 0x0); AT(ORD_LATE_Type, SUB, 0x8); AT(ORD_LATE_SUB_Type, V, 0x0);
_Static_assert(sizeof(ORD_LATE_Type) == 0xC && sizeof(ORD_LATE_SUB_Type) == 4, "LATE, SUB");
_Static_assert(IS(&ORD->LATE.CMD, volatile uint32_t *), "CMD: read-write");
/* EARLY (before LATE, derived from it) and CHN (from EARLY): LATE's type */
AT(ORD_Type, EARLY, 0x0); AT(ORD_Type, CHN, 0x10); AT(ORD_Type, LATE, 0x30);
_Static_assert(IS(&ORD->EARLY, ORD_LATE_Type *), "EARLY: LATE's type");
_Static_assert(IS(&ORD->CHN, ORD_LATE_Type *), "CHN: LATE's type, through EARLY");
_Static_assert(IS(&ORD->LATE, ORD_LATE_Type *), "LATE: its own");
_Static_assert(IS(&ORD->EARLY.SUB, ORD_LATE_SUB_Type *), "EARLY.SUB: LATE's SUB's type");
/* FAR (from OUT.IN2, both later) and OUT's IN1 (from its later sibling IN2): IN2's type */
AT(ORD_Type, FAR, 0x20); AT(ORD_Type, OUT, 0x40);
AT(ORD_OUT_Type, IN1, 0x0); AT(ORD_OUT_Type, IN2, 0x4); AT(ORD_OUT_IN2_Type, R, 0x0);
_Static_assert(IS(&ORD->FAR, ORD_OUT_IN2_Type *), "FAR: OUT.IN2's type");
_Static_assert(IS(&ORD->OUT.IN1, ORD_OUT_IN2_Type *), "IN1: IN2's type");
_Static_assert(IS(&ORD->OUT.IN1.R, const volatile uint32_t *), "R: read-only");
_Static_assert(sizeof(ORD_OUT_Type) == 8 && sizeof(ORD_OUT_IN2_Type) == 4, "OUT, IN2");
_Static_assert(sizeof(ORD_Type) == 0x48 && ORD_BASE == 0x40070000u, "ORD");
/* the macros of the types written, none of a copy's */
_Static_assert(ORD_LATE_CMD_GO_Pos == 0 && ORD_LATE_CMD_GO_Msk == 0x1u, "GO [0]");
_Static_assert(ORD_LATE_SUB_V_X_Pos == 0 && ORD_LATE_SUB_V_X_Msk == 0xFu, "X [3:0]");
_Static_assert(ORD_OUT_IN2_R_F_Pos == 0 && ORD_OUT_IN2_R_F_Msk == 0xFFu, "F [7:0]");
#if defined(ORD_EARLY_CMD_GO_Pos) || defined(ORD_CHN_CMD_GO_Pos) || defined(ORD_EARLY_SUB_V_X_Pos)
#error "EARLY and CHN are unmodified copies: no macros of their own"
#endif
#if defined(ORD_FAR_R_F_Pos) || defined(ORD_OUT_IN1_R_F_Pos)
#error "FAR and IN1 are unmodified copies: no macros of their own"
#endif
C
facts() { # header directory, test name
    if gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$1" -c -o "$1/facts.o" "$tmp/facts.c" \
        2>"$tmp/cc.err"; then
        tap_ok "$2"
    else
        tap_fail "$2" "$(grep -m 5 error "$tmp/cc.err")"
    fi
}
facts "$tmp" "cmsis-derive-order.svd: every hand-worked fact holds"

# No type for a copy (SvdDevice::GatherClusters lists modified clusters only).
copies='ORD_EARLY\w*_Type\|ORD_CHN\w*_Type\|ORD_FAR\w*_Type\|ORD_OUT_IN1_Type'
tap_check "cmsis-derive-order.svd: no type for EARLY, CHN, FAR or IN1" \
    test -z "$(grep -o "$copies" "$tmp/cmsis_order.h")"

# Read back: -t svd writes each copy with its derivedFrom and nothing inside, -t regspec with
# own-type="false", still before its base; the header is the file's.
for t in svd regspec; do
    mkdir -p "$tmp/$t"
    if "$regc" "$file" -t $t -o "$tmp/back.$t" 2>"$tmp/err" &&
        "$regc" "$tmp/back.$t" -t cmsis -o "$tmp/$t/cmsis_order.h" 2>>"$tmp/err" &&
        [ ! -s "$tmp/err" ] && cmp -s "$tmp/cmsis_order.h" "$tmp/$t/cmsis_order.h"; then
        tap_ok "cmsis-derive-order.svd through -t $t: the same CMSIS header"
        [ $t = svd ] && svd_schema_check "its -t svd validates against CMSIS-SVD.xsd" "$tmp/back.svd"
    else
        tap_fail "cmsis-derive-order.svd through -t $t: the same CMSIS header" \
            "$(head -n 3 "$tmp/err")" \
            "$(diff "$tmp/cmsis_order.h" "$tmp/$t/cmsis_order.h" | head -n 6)"
    fi
    facts "$tmp/$t" "cmsis-derive-order.svd through -t $t: every hand-worked fact holds"
done
# The regspec written back says so: the four copies own-type="false", each before its base, and
# the SUB that EARLY and CHN took from LATE (an unmodified copy, docs/regspec.md).
tap_check "-t regspec: EARLY, CHN, FAR, IN1 and their SUB own-type=\"false\", before LATE, OUT" \
    test "$(grep -o '<cluster name="[A-Z0-9]*"[^>]*own-type="false"\|<cluster name="\(LATE\|OUT\)"' \
        "$tmp/back.regspec" | sed 's/<cluster name="\([A-Z0-9]*\)".*/\1/' | tr '\n' ' ')" = \
        "EARLY SUB CHN SUB FAR LATE OUT IN1 "

# A regspec written by hand: CE, written before CD and CL, derives from CD (from CL), own-type="false".
cat >"$tmp/facts2.c" <<'C'
#include "cmsis_rdc.h"
#define IS(expr, type) _Generic((expr), type: 1, default: 0)
_Static_assert(IS(&P0->CE, P_CL_Type *) && IS(&P0->CD, P_CL_Type *), "CE, CD: CL's type");
_Static_assert(IS(&P0->CE.IN, P_CL_IN_Type *), "CE.IN: CL.IN's type");
_Static_assert(offsetof(P_Type, CE) == 0xC0 && offsetof(P_Type, CL) == 0x40, "CE, CL");
C
if "$regc" tests/svd/regspec-derive-cluster.xml -t cmsis -o "$tmp/cmsis_rdc.h" 2>"$tmp/err" &&
    gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$tmp" -c -o "$tmp/facts2.o" "$tmp/facts2.c" \
        2>"$tmp/cc.err" && ! grep -q 'P_CE\w*_Type' "$tmp/cmsis_rdc.h"; then
    tap_ok "regspec-derive-cluster.xml: CE (before its base) of CL's type, no P_CE_Type"
else
    tap_fail "regspec-derive-cluster.xml: CE (before its base) of CL's type, no P_CE_Type" \
        "$(head -n 3 "$tmp/err")" "$(grep -m 5 error "$tmp/cc.err")"
fi

tap_done
