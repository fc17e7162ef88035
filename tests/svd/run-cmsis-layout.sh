#!/usr/bin/env bash
# tests/svd/run-cmsis-layout.sh - the layout -t cmsis writes, against facts worked out
# by hand from tests/svd/cmsis-layout.svd and tests/svd/features.svd (their comments)
# and the CMSIS-SVD specification, not taken from regc's output: member offsets and
# sizes, member types and qualifiers (a read-only register is const: a write to it
# does not compile), unions for alternate registers, cluster arrays padded to their
# stride, headerStructName, derived peripherals sharing their base's type, bases,
# _Pos/_Msk and named values, a "%s" cluster list as one type, registers of one name
# in different alternateGroups (or the first in one, the later in none), derived clusters
# (unmodified: the base's type; without a dim of their own: the base's dim),
# a derived peripheral's copied cluster (derive-regs.svd), all also read back from -t svd
# and -t regspec; IRQn_Type with the Cortex-M4 exceptions; and the C99
# form of the header's assert macro (a false one fails to compile).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

for svd in cmsis-layout features; do
    if ! "$regc" "tests/svd/$svd.svd" -t cmsis -o "$tmp/cmsis_$svd.h" 2>"$tmp/err"; then
        tap_fail "$svd.svd: regc -t cmsis" "$(head -n 3 "$tmp/err")"
        tap_done
        exit 0
    fi
done

cat >"$tmp/facts.c" <<'C'
#include "cmsis_cmsis-layout.h"
#define IS(expr, type) _Generic((expr), type: 1, default: 0)
#define AT(T, m, off) _Static_assert(offsetof(T, m) == (off), #T "." #m)
/* TMR0 (headerStructName TMR): CTRL at 0 and its alternates CTRL_ALT (16 bits) at 0, HI at 2 */
AT(TMR_Type, CTRL, 0x0); AT(TMR_Type, CTRL_ALT, 0x0); AT(TMR_Type, HI, 0x2);
_Static_assert(IS(&TMR0->CTRL, volatile uint32_t *), "CTRL: 32 bits, read-write");
_Static_assert(IS(&TMR0->CTRL_ALT, volatile uint16_t *) && IS(&TMR0->HI, volatile uint16_t *), "16");
/* STAT read-only at 8, CMD write-only at 0xC */
AT(TMR_Type, STAT, 0x8); AT(TMR_Type, CMD, 0xC);
_Static_assert(IS(&TMR0->STAT, const volatile uint32_t *), "STAT: read-only, const");
_Static_assert(IS(&TMR0->CMD, volatile uint32_t *), "CMD: write-only, not const");
/* CC[%s]: 4 x 32 bits 4 apart from 0x10: one member array */
AT(TMR_Type, CC, 0x10);
_Static_assert(sizeof(TMR0->CC) == 16 && IS(&TMR0->CC[3], volatile uint32_t *), "CC[4]");
/* CH[%s] (headerStructName TMR_CH): 3 clusters of CFG (16 bits, 0) and VAL (4), stride 0x10, at 0x20 */
AT(TMR_Type, CH, 0x20);
_Static_assert(sizeof(TMR_CH_Type) == 0x10 && sizeof(TMR0->CH) == 0x30, "CH[3], stride 0x10");
AT(TMR_CH_Type, CFG, 0x0); AT(TMR_CH_Type, VAL, 0x4);
_Static_assert(IS(&TMR0->CH[2].CFG, volatile uint16_t *), "CFG: 16 bits");
/* ODD: 4 bytes at 0x52; WIDE: 64 bits at 0x58 */
AT(TMR_Type, ODD, 0x52);
_Static_assert(sizeof(TMR0->ODD) == 4, "ODD: 4 bytes");
AT(TMR_Type, WIDE, 0x58);
_Static_assert(IS(&TMR0->WIDE, volatile uint64_t *), "WIDE: 64 bits");
/* GRP[%s] (2, 0x20 apart, at 0x60) holding ID (read-only, 0) and cluster SUB (8) with X (4);
   a cluster without headerStructName is typed after the peripheral's name, TMR0, not TMR
   (docs/svd.md, "Names as svdconv makes them") */
AT(TMR_Type, GRP, 0x60);
_Static_assert(sizeof(TMR0_GRP_Type) == 0x20 && sizeof(TMR0->GRP) == 0x40, "GRP[2], 0x20 apart");
AT(TMR0_GRP_Type, ID, 0x0); AT(TMR0_GRP_Type, SUB, 0x8); AT(TMR0_GRP_SUB_Type, X, 0x4);
_Static_assert(IS(&TMR0->GRP[1].ID, const volatile uint32_t *), "ID: read-only");
_Static_assert(sizeof(TMR_Type) == 0xA0, "TMR: to the end of GRP[1]");
_Static_assert(TMR_GRP_SUB_X_F_Pos == 0 && TMR_GRP_SUB_X_F_Msk == 0xFu, "F [3:0], no index");
#ifdef TMR_GRP0_SUB_X_F_Pos
#error "an element of GRP is no name of its own"
#endif
/* TMR1 derives from TMR0: TMR's type at its own base */
_Static_assert(TMR0_BASE == 0x40010000u && TMR1_BASE == 0x40011000u, "bases");
_Static_assert(IS(TMR1, TMR_Type *), "TMR1 is a TMR_Type");
/* MODE: A (32 bits) and B (8) at 0, C (16) at 2: all overlapping, 4 bytes */
AT(MODE_Type, A, 0x0); AT(MODE_Type, B, 0x0); AT(MODE_Type, C, 0x2);
_Static_assert(sizeof(MODE_Type) == 4 && MODE_BASE == 0x40020000u, "MODE");
/* _Pos/_Msk under the headerStructName; ONESHOT = 2 (not shifted) */
_Static_assert(TMR_CTRL_EN_Pos == 0 && TMR_CTRL_EN_Msk == 0x1u, "EN [0]");
_Static_assert(TMR_CTRL_MODE_Pos == 4 && TMR_CTRL_MODE_Msk == 0x30u, "MODE [5:4]");
_Static_assert(TMR_CTRL_MODE_ONESHOT == 2, "ONESHOT");
_Static_assert(TMR_STAT_BUSY_Pos == 31 && TMR_STAT_BUSY_Msk == 0x80000000u, "BUSY [31]");
#ifdef TMR0_CTRL_EN_Pos
#error "the macros are named after headerStructName TMR, not the peripheral TMR0"
#endif
/* interrupts 3 and 4; a CM4: the Cortex-M3/M4 exceptions */
_Static_assert(TMR0_IRQn == 3 && TMR1_IRQn == 4, "device interrupts");
_Static_assert(SysTick_IRQn == -1 && PendSV_IRQn == -2 && SVCall_IRQn == -5, "v6-M exceptions");
_Static_assert(MemoryManagement_IRQn == -12 && UsageFault_IRQn == -10, "v7-M exceptions");
_Static_assert(NonMaskableInt_IRQn == -14 && HardFault_IRQn == -13 && DebugMonitor_IRQn == -4, "");
_Static_assert(sizeof(IRQn_Type) > 0, "IRQn_Type");
/* DMA[%s]: 3 elements 0x100 apart; the type padded to 0x100, an array type of one element, one
   base and one pointer (no DMA0, DMA1) */
AT(DMA_Type, CTRL, 0x0); AT(DMA_Type, CNT, 0x8);
_Static_assert(sizeof(DMA_Type) == 0x100, "DMA_Type padded to dimIncrement");
_Static_assert(sizeof(DMA_ARRAYType) == 0x100 && IS(&(*(DMA_ARRAYType *)0)[0], DMA_Type *), "[1]");
_Static_assert(DMA_BASE == 0x40030000u && IS(DMA, DMA_ARRAYType *), "DMA: a DMA_ARRAYType *");
_Static_assert(sizeof(DMA[1]) == 0x100, "DMA[1] is the next element, 0x100 on");
#if defined(DMA0_BASE) || defined(DMA1) || defined(DMA2_BASE)
#error "a peripheral array has one base and one pointer"
#endif
/* PIPE%s: one type LNK_PIPE_Type for the list (0x10, its dimIncrement), a member of it per
   element (PIPEIN 0x10, PIPEOUT 0x20), one set of macros named after the list */
_Static_assert(sizeof(LNK_PIPE_Type) == 0x10 && sizeof(LNK_Type) == 0x30, "PIPE: padded to 0x10");
AT(LNK_Type, PIPEIN, 0x10); AT(LNK_Type, PIPEOUT, 0x20); AT(LNK_PIPE_Type, STAT, 0x4);
_Static_assert(IS(&LNK->PIPEIN, LNK_PIPE_Type *) && IS(&LNK->PIPEOUT, LNK_PIPE_Type *), "one type");
_Static_assert(IS(&LNK->PIPEOUT.STAT, const volatile uint32_t *), "STAT: read-only");
_Static_assert(LNK_PIPE_CFG_EN_Pos == 0 && LNK_PIPE_CFG_EN_Msk == 0x1u, "EN [0], the list's name");
#if defined(LNK_PIPEIN_CFG_EN_Pos) || defined(LNK_PIPEOUT_CFG_EN_Msk)
#error "svdconv writes the macros of a list's cluster once, not per element"
#endif
/* MODE in groups A and B, CFG alone and in group X: svdconv keeps all four, NAME_GROUP */
AT(GRPS_Type, MODE_A, 0x0); AT(GRPS_Type, MODE_B, 0x0); AT(GRPS_Type, CFG, 0x4); AT(GRPS_Type, CFG_X, 0x4);
_Static_assert(sizeof(GRPS_Type) == 0xC && IS(&GRPS->MODE_B, volatile uint16_t *), "MODE_B: 16 bits");
_Static_assert(IS(&GRPS->CFG_X, const volatile uint32_t *) && IS(&GRPS->CFG, volatile uint32_t *), "");
_Static_assert(GRPS_MODE_A_SEL_Pos == 0 && GRPS_MODE_A_SEL_Msk == 0x3u, "MODE_A.SEL [1:0]");
_Static_assert(GRPS_MODE_B_SEL_Pos == 2 && GRPS_MODE_B_SEL_Msk == 0xCu, "MODE_B.SEL [3:2]");
_Static_assert(GRPS_CFG_X_V_Pos == 0 && GRPS_CFG_X_V_Msk == 0xFFu, "CFG_X.V [7:0]");
/* CTL in group Y, then CTL in none: both kept, CTL_Y (read-only) and CTL (16 bits) at 8 */
AT(GRPS_Type, CTL_Y, 0x8); AT(GRPS_Type, CTL, 0x8);
_Static_assert(IS(&GRPS->CTL_Y, const volatile uint32_t *) && IS(&GRPS->CTL, volatile uint16_t *), "");
_Static_assert(GRPS_CTL_Y_F_Pos == 0 && GRPS_CTL_Y_F_Msk == 0xFu, "CTL_Y.F [3:0]");
_Static_assert(GRPS_CTL_G_Pos == 4 && GRPS_CTL_G_Msk == 0xF0u, "CTL.G [7:4]");
#if defined(GRPS_CTL_F_Pos) || defined(GRPS_CTL_Y_G_Pos)
#error "the CTL in group Y is CTL_Y, the other CTL"
#endif
/* DER: SH derives from CTL and changes nothing: CTL's type, no macros of its own; MOD adds
   EXTRA: a type of its own, whose SUB (an unmodified copy of CTL's) keeps DER_CTL_SUB_Type */
AT(DER_Type, CTL, 0x0); AT(DER_Type, SH, 0x10); AT(DER_Type, MOD, 0x20);
_Static_assert(IS(&DER->SH, DER_CTL_Type *) && sizeof(DER_CTL_Type) == 0xC, "SH: CTL's type");
_Static_assert(IS(&DER->MOD, DER_MOD_Type *) && sizeof(DER_MOD_Type) == 0xC, "MOD: its own");
AT(DER_MOD_Type, CMD, 0x0); AT(DER_MOD_Type, EXTRA, 0x4); AT(DER_MOD_Type, SUB, 0x8);
_Static_assert(IS(&DER->MOD.SUB, DER_CTL_SUB_Type *) && IS(&DER->SH.SUB, DER_CTL_SUB_Type *), "");
/* ARR[2] of DER_ARR_Type at 0x30; CPY, derived from it without a dim of its own, takes its dim
   (SvdItem::CopyDim) and its type: CPY[2] of DER_ARR_Type at 0x40 */
AT(DER_Type, ARR, 0x30); AT(DER_Type, CPY, 0x40); AT(DER_ARR_Type, VAL, 0x4);
_Static_assert(sizeof(DER_ARR_Type) == 8 && sizeof(DER->ARR) == 0x10, "ARR[2], 8 apart");
_Static_assert(IS(&DER->CPY[1], DER_ARR_Type *) && sizeof(DER->CPY) == 0x10, "CPY[2] of ARR's type");
_Static_assert(DER_ARR_CFG_EN_Pos == 0 && DER_ARR_CFG_EN_Msk == 0x1u, "ARR's macros");
#if defined(DER_CPY_CFG_EN_Pos)
#error "CPY is an unmodified copy: no macros of its own"
#endif
/* BLK[2] (expanded by the reader: it holds a cluster) of DER_BLK_Type at 0x50; DUP derived from it
   takes its dim and type: DUP[2] at 0x70. L%s: LA, LB of DER_L_Type; M%s from it: MA, MB */
AT(DER_Type, BLK, 0x50); AT(DER_Type, DUP, 0x70); AT(DER_BLK_Type, IN, 0x8);
_Static_assert(sizeof(DER_BLK_Type) == 0x10 && sizeof(DER->DUP) == 0x20, "BLK, DUP: 2 x 0x10");
_Static_assert(IS(&DER->DUP[1], DER_BLK_Type *) && IS(&DER->DUP[0].IN, DER_BLK_IN_Type *), "");
_Static_assert(DER_BLK_R_A_Pos == 0 && DER_BLK_IN_X_Q_Msk == 0x3u, "BLK's macros");
AT(DER_Type, LA, 0x90); AT(DER_Type, LB, 0x98); AT(DER_Type, MA, 0xA0); AT(DER_Type, MB, 0xA8);
_Static_assert(IS(&DER->MB, DER_L_Type *) && sizeof(DER_L_Type) == 8, "MA, MB of L's type");
_Static_assert(DER_L_V_Z_Pos == 0 && DER_L_V_Z_Msk == 0x7u, "L's macros");
#if defined(DER_DUP_R_A_Pos) || defined(DER_DUP_IN_X_Q_Pos) || defined(DER_M_V_Z_Pos) || \
    defined(DER_MA_V_Z_Pos)
#error "DUP and M are unmodified copies: no macros of their own"
#endif
/* TRI: ARR's type with a dim of its own, TRI[3] at 0xB0 */
AT(DER_Type, TRI, 0xB0);
_Static_assert(IS(&DER->TRI[2], DER_ARR_Type *) && sizeof(DER->TRI) == 0x18, "TRI[3] of ARR's type");
#if defined(DER_TRI_CFG_EN_Pos)
#error "TRI is an unmodified copy: no macros of its own"
#endif
_Static_assert(sizeof(DER_Type) == 0xC8, "DER: to the end of TRI");
_Static_assert(DER_CTL_CMD_GO_Msk == 0x1u && DER_CTL_SUB_V_X_Msk == 0xFu, "CTL's macros");
_Static_assert(DER_MOD_CMD_GO_Msk == 0x1u && DER_MOD_EXTRA_E_Msk == 0xFFu, "MOD's macros");
#if defined(DER_SH_CMD_GO_Pos) || defined(DER_SH_SUB_V_X_Pos) || defined(DER_MOD_SUB_V_X_Pos)
#error "an unmodified copy has no macros of its own"
#endif
C
cat >"$tmp/facts2.c" <<'C'
#include "cmsis_features.h"
#define AT(T, m, off) _Static_assert(offsetof(T, m) == (off), #T "." #m)
/* features.svd: CTRL 0, STATUS (16 bits) 4, CHA_CFG 0x20, CHB_CFG 0x28, CTRL2 0x30 */
AT(UART0_Type, CTRL, 0x0); AT(UART0_Type, STATUS, 0x4); AT(UART0_Type, CHA_CFG, 0x20);
AT(UART0_Type, CHB_CFG, 0x28); AT(UART0_Type, CTRL2, 0x30);
_Static_assert(sizeof(UART0->STATUS) == 2, "STATUS: 16 bits");
/* PORT[%s]: 2 at 0x40, 0x10 apart, SET +0, CLR +4 */
AT(UART0_Type, PORT, 0x40);
_Static_assert(sizeof(UART0->PORT[0]) == 0x10 && sizeof(UART0->PORT) == 0x20, "PORT stride");
_Static_assert(offsetof(UART0_Type, PORT) + sizeof(UART0->PORT[0]) + 4 == 0x54, "PORT[1].CLR");
/* DMA at 0x60, its CH at +8, LEN at +4: 0x6C */
AT(UART0_Type, DMA, 0x60);
_Static_assert(offsetof(UART0_Type, DMA) + offsetof(UART0_DMA_Type, CH) +
               offsetof(UART0_DMA_CH_Type, LEN) == 0x6C, "DMA.CH.LEN");
/* UART1 and UART2 derive from UART0: UART0's type */
_Static_assert(UART1_BASE == 0x40001000u && UART2_BASE == 0x40002000u, "bases");
_Static_assert(_Generic(UART2, UART0_Type *: 1, default: 0), "UART2 is a UART0_Type");
_Static_assert(UART0_IRQn == 5 && UART1_IRQn == 6, "interrupts");
_Static_assert(UART0_CTRL_RATE_Pos == 8 && UART0_CTRL_RATE_Msk == 0xF00u, "RATE [11:8]");
_Static_assert(UART0_CTRL_MODE_BUSY == 2 && UART0_CTRL_MODE_IDLE == 0, "#1x: x is 0");
C
for f in facts facts2; do
    if gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$tmp" -c -o "$tmp/$f.o" "$tmp/$f.c" \
        2>"$tmp/cc.err"; then
        tap_ok "$f.c: every hand-worked fact holds"
    else
        tap_fail "$f.c: every hand-worked fact holds" "$(grep -m 5 error "$tmp/cc.err")"
    fi
done

# No type for an unmodified copy: DER_SH_Type, DER_MOD_SUB_Type, DER_CPY_Type, DER_DUP_Type,
# DER_DUP_IN_Type, DER_M_Type and DER_TRI_Type are not written.
copies='DER_SH_Type\|DER_MOD_SUB_Type\|DER_CPY_Type\|DER_DUP_Type\|DER_DUP_IN_Type\|DER_M_Type'
copies="$copies\\|DER_TRI_Type"
if grep -q "$copies" "$tmp/cmsis_cmsis-layout.h"; then
    tap_fail "an unmodified derived or copied cluster has no type of its own" \
        "$(grep -m 2 "$copies" "$tmp/cmsis_cmsis-layout.h")"
else
    tap_ok "an unmodified derived or copied cluster has no type of its own"
fi

# The two CTL of GRPS (the first in group Y, the later in none) are both in the model: the
# C header (prefix LAY) and the JSON name them CTL_Y and CTL, both at 0x40050008 (offset 8).
"$regc" tests/svd/cmsis-layout.svd -t c -o "$tmp/c.h" 2>"$tmp/err"
"$regc" tests/svd/cmsis-layout.svd -t json -o "$tmp/model.json" 2>>"$tmp/err"
if grep -q '^#define LAY_GRPS_CTL_Y_ADDR  *UINT64_C(0x40050008)$' "$tmp/c.h" &&
    grep -q '^#define LAY_GRPS_CTL_ADDR  *UINT64_C(0x40050008)$' "$tmp/c.h" &&
    python3 - "$tmp/model.json" <<'PY'
import json, sys
blocks = json.load(open(sys.argv[1]))["blocks"]
regs = [r for b in blocks if b["name"] == "GRPS" for r in b["registers"]]
sys.exit(0 if [(r["name"], r["address"]) for r in regs if r["name"].startswith("CTL")] ==
         [("CTL_Y", "0x8"), ("CTL", "0x8")] else 1)
PY
then
    tap_ok "GRPS: CTL in group Y and a later CTL in none, both in -t c and -t json"
else
    tap_fail "GRPS: CTL in group Y and a later CTL in none, both in -t c and -t json" \
        "$(head -n 3 "$tmp/err")" "$(grep 'LAY_GRPS_CTL.*_ADDR' "$tmp/c.h")"
fi

# MODE_B and CFG_X keep their SVD names and groups through -t svd and -t regspec: the
# file written back gives the same header (the group is not appended twice). DER's
# unmodified derived clusters (SH, CPY, DUP, M, TRI: svdconv's SvdCluster::ProcessXmlElement
# calls SetModified for a register, cluster, headerStructName or size of their own, and they
# write none) stay members of their bases' types: -t svd writes them with their derivedFrom
# and nothing inside, -t regspec marks them own-type="false". MOD writes a register of its own
# (modified): -t svd writes it with its derivedFrom and only EXTRA, so the reader takes CMD and
# SUB from CTL again and SUB stays an unmodified copy (SvdDerivedFrom::DeriveItem copies the
# base's children, SvdItem::CopyItem sets what they were copied from); -t regspec derives the
# SUB it took (derived-from="CTL.SUB" own-type="false"). Read back, the header is the file's,
# and the hand-worked facts above hold for it (DER->MOD.SUB of DER_CTL_SUB_Type).
for t in svd regspec; do
    mkdir -p "$tmp/$t"
    if "$regc" tests/svd/cmsis-layout.svd -t $t -o "$tmp/back.$t" 2>"$tmp/err" &&
        "$regc" "$tmp/back.$t" -t cmsis -o "$tmp/$t/cmsis_cmsis-layout.h" 2>>"$tmp/err" &&
        cmp -s "$tmp/cmsis_cmsis-layout.h" "$tmp/$t/cmsis_cmsis-layout.h" &&
        gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$tmp/$t" -c -o "$tmp/$t/facts.o" \
            "$tmp/facts.c" 2>"$tmp/cc.err"; then
        tap_ok "cmsis-layout.svd through -t $t: the same CMSIS header, every fact holds"
    else
        tap_fail "cmsis-layout.svd through -t $t: the same CMSIS header, every fact holds" \
            "$(head -n 3 "$tmp/err")" "$(grep -m 3 error "$tmp/cc.err")" \
            "$(diff "$tmp/cmsis_cmsis-layout.h" "$tmp/$t/cmsis_cmsis-layout.h" | head -n 6)"
    fi
done
# What makes them so, as written: SH with no register; MOD derived from CTL with EXTRA alone
# inside (no CMD, no SUB); 11 own-type="false" in -t regspec: SH, CPY, DUP0, DUP1, MA, MB and
# TRI, and the clusters derived ones took: SH.SUB and MOD.SUB (CTL.SUB's), DUP0.IN and DUP1.IN
# (BLK0.IN's).
mod=$(awk '/<cluster derivedFrom="CTL">/ {buf = ""; on = 1} on {buf = buf $0 "\n"}
           on && /<\/cluster>/ {if (buf ~ /<name>MOD<\/name>/) printf "%s", buf; on = 0}' \
    "$tmp/back.svd")
if grep -A4 '<cluster derivedFrom="CTL">' "$tmp/back.svd" | grep -q '<name>SH</name>' &&
    ! awk '/<name>SH<\/name>/ {on = 1} on && /<register>/ {bad = 1} on && /<\/cluster>/ {exit}
           END {exit bad ? 0 : 1}' "$tmp/back.svd" &&
    [ "$(printf '%s' "$mod" | grep -c '<register>')" = 1 ] &&
    printf '%s' "$mod" | grep -q '<name>EXTRA</name>' &&
    ! printf '%s' "$mod" | grep -q '<cluster>\|<name>CMD</name>\|<name>SUB</name>' &&
    [ "$(grep -c 'own-type="false"' "$tmp/back.regspec")" = 11 ] &&
    grep -q '<cluster name="SUB" in="MOD" .*derived-from="CTL.SUB" own-type="false"' \
        "$tmp/back.regspec"; then
    tap_ok "as written: SH empty and MOD with EXTRA alone in -t svd, 11 own-type=\"false\" in -t regspec"
else
    tap_fail "as written: SH empty and MOD with EXTRA alone in -t svd, 11 own-type=\"false\" in -t regspec" \
        "$mod" "$(grep -c 'own-type="false"' "$tmp/back.regspec")"
fi

# The order of MOD's members: svdconv derives in SvdItem::ProcessXmlAttributes, before
# ProcessXmlChildren adds the cluster's own, so SvdDerivedFrom::DeriveItem's copies of CTL's
# children come first and EXTRA last, not by address (EXTRA at 4 lies between CMD at 0 and SUB
# at 8): MOD_CMD, MOD_SUB_V, MOD_EXTRA in -t json, of the file and of what -t svd and -t regspec
# write, where the reader takes CMD and SUB from CTL again.
"$regc" tests/svd/cmsis-layout.svd -t json -o "$tmp/order.json" 2>"$tmp/err"
for t in svd regspec; do
    "$regc" "$tmp/back.$t" -t json -o "$tmp/order-$t.json" 2>>"$tmp/err"
done
if python3 - "$tmp/order.json" "$tmp/order-svd.json" "$tmp/order-regspec.json" <<'PY'
import json, sys
def mod(path):
    der = [b for b in json.load(open(path))["blocks"] if b["name"] == "DER"][0]
    return [r["name"] for r in der["registers"] if r["name"].startswith("MOD_")]
sys.exit(0 if all(mod(p) == ["MOD_CMD", "MOD_SUB_V", "MOD_EXTRA"] for p in sys.argv[1:]) else 1)
PY
then
    tap_ok "MOD: its base's members first, then its own, as read and read back"
else
    tap_fail "MOD: its base's members first, then its own, as read and read back" "$(head -n 3 "$tmp/err")"
fi

# A derived peripheral that writes a register of its own (tests/svd/derive-regs.svd, facts in its
# comment): ADD_Type of its own, its C a copy of SRC's, of SRC_C_Type, no ADD_C_Type and no
# macros for it; the same through -t svd (ADD derived from SRC with X alone: the reader takes A
# and C from SRC again, first) and -t regspec (C derived-from="SRC.C" own-type="false").
cat >"$tmp/dregs.c" <<'C'
#include "cmsis_derive-regs.h"
#define IS(expr, type) _Generic((expr), type: 1, default: 0)
#define AT(T, m, off) _Static_assert(offsetof(T, m) == (off), #T "." #m)
AT(SRC_Type, A, 0x0); AT(SRC_Type, C, 0x8); AT(SRC_C_Type, V, 0x0); AT(SRC_C_Type, W, 0x4);
_Static_assert(sizeof(SRC_Type) == 0x10 && sizeof(SRC_C_Type) == 8, "SRC, SRC.C");
AT(ADD_Type, A, 0x0); AT(ADD_Type, X, 0x4); AT(ADD_Type, C, 0x8);
_Static_assert(sizeof(ADD_Type) == 0x10 && IS(ADD, ADD_Type *), "ADD: a type of its own");
_Static_assert(IS(&ADD->C, SRC_C_Type *) && IS(&SRC->C, SRC_C_Type *), "ADD.C: SRC's C type");
_Static_assert(ADD_A_F_Msk == 0xFu && ADD_X_H_Msk == 0x1u && SRC_C_V_G_Msk == 0xFFu, "macros");
#if defined(ADD_C_V_G_Pos) || defined(ADD_C_V_G_Msk)
#error "ADD's C is an unmodified copy: no macros of its own"
#endif
C
for t in none svd regspec; do
    mkdir -p "$tmp/dr-$t"
    src=tests/svd/derive-regs.svd
    if [ $t != none ]; then
        "$regc" "$src" -t $t -o "$tmp/dr.$t" 2>"$tmp/err"
        src=$tmp/dr.$t
    fi
    if "$regc" "$src" -t cmsis -o "$tmp/dr-$t/cmsis_derive-regs.h" 2>>"$tmp/err" &&
        ! grep -q 'ADD_C_Type' "$tmp/dr-$t/cmsis_derive-regs.h" &&
        gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$tmp/dr-$t" -c -o "$tmp/dr-$t/d.o" \
            "$tmp/dregs.c" 2>"$tmp/cc.err"; then
        tap_ok "derive-regs.svd ($t): ADD's C of SRC_C_Type, no ADD_C_Type"
    else
        tap_fail "derive-regs.svd ($t): ADD's C of SRC_C_Type, no ADD_C_Type" \
            "$(head -n 3 "$tmp/err")" "$(grep -m 3 error "$tmp/cc.err")"
    fi
done
add=$(awk '/<peripheral derivedFrom="SRC">/ {on = 1} on {print} on && /<\/peripheral>/ {exit}' \
    "$tmp/dr.svd")
"$regc" "$tmp/dr.svd" -t json -o "$tmp/dr.json" 2>"$tmp/err"
if [ "$(printf '%s\n' "$add" | grep -c '<register>')" = 1 ] &&
    printf '%s\n' "$add" | grep -q '<name>X</name>' &&
    ! printf '%s\n' "$add" | grep -q '<cluster>' &&
    grep -q '<cluster name="C" address="0x8" derived-from="SRC.C" own-type="false"' \
        "$tmp/dr.regspec" &&
    python3 - "$tmp/dr.json" <<'PY'
import json, sys
add = [b for b in json.load(open(sys.argv[1]))["blocks"] if b["name"] == "ADD"][0]
sys.exit(0 if [r["name"] for r in add["registers"]] == ["A", "C_V", "C_W", "X"] else 1)
PY
then
    tap_ok "derive-regs.svd as written: ADD with X alone, read back A, C.V, C.W, then X"
else
    tap_fail "derive-regs.svd as written: ADD with X alone, read back A, C.V, C.W, then X" \
        "$add" "$(head -n 3 "$tmp/err")"
fi

# A memory-mapped regspec: the HPET's registers at the offsets of the IA-PC HPET
# specification (main counter 0xF0, timer 0's comparator 0x108, 0x20 apart) from
# instance hpet0's base; without an instance (absolute addresses) no struct at all.
if "$regc" examples/specs/hpet_mmio.xml -t cmsis -o "$tmp/cmsis_hpet.h" 2>"$tmp/err"; then
    cat >"$tmp/hpet.c" <<'C'
#include "cmsis_hpet.h"
_Static_assert(offsetof(hpet_Type, GEN_CAP_ID) == 0x0 && offsetof(hpet_Type, MAIN_CNT) == 0xF0, "");
_Static_assert(offsetof(hpet_Type, TIM_COMP0) == 0x108 && offsetof(hpet_Type, TIM_COMP1) == 0x128, "");
_Static_assert(sizeof(hpet0->MAIN_CNT) == 8 && hpet0_BASE == 0xFED00000u, "64 bits at 0xFED00000");
C
    gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$tmp" -c -o "$tmp/hpet.o" "$tmp/hpet.c" 2>"$tmp/cc.err" &&
        tap_ok "hpet_mmio.xml: the HPET's offsets" ||
        tap_fail "hpet_mmio.xml: the HPET's offsets" "$(grep -m 3 error "$tmp/cc.err")"
else
    tap_fail "hpet_mmio.xml: regc -t cmsis" "$(head -n 3 "$tmp/err")"
fi
grep -v '<instance ' examples/specs/hpet_mmio.xml >"$tmp/noinst.xml"
if "$regc" "$tmp/noinst.xml" -t cmsis -o "$tmp/cmsis_noinst.h" 2>"$tmp/err" &&
    ! grep -q '_Type;$' "$tmp/cmsis_noinst.h" && grep -q '_MAIN_CNT_.*_Pos' "$tmp/cmsis_noinst.h"; then
    tap_ok "a block without an instance: no struct, the _Pos/_Msk macros"
else
    tap_fail "a block without an instance: no struct, the _Pos/_Msk macros" "$(head -n 3 "$tmp/err")"
fi

# A write to a read-only register does not compile.
printf '#include "cmsis_cmsis-layout.h"\nvoid w(void);\nvoid w(void) { TMR0->STAT = 1; }\n' >"$tmp/ro.c"
if gcc -std=c11 -I"$tmp" -c -o "$tmp/ro.o" "$tmp/ro.c" 2>"$tmp/cc.err"; then
    tap_fail "a write to read-only STAT is refused by the compiler"
else
    tap_ok "a write to read-only STAT is refused by the compiler"
fi

# The assert macro's C99 form (a negative array) fails on a false condition.
for c in 0 1; do
    printf '#include "cmsis_cmsis-layout.h"\nREGC_CMSIS_ASSERT(%s, "x");\n' "$c" >"$tmp/a$c.c"
    gcc -std=c99 -Wall -Wextra -Wpedantic -Werror -I"$tmp" -c -o "$tmp/a.o" "$tmp/a$c.c" 2>/dev/null
    st=$?
    if { [ "$c" = 0 ] && [ "$st" -ne 0 ]; } || { [ "$c" = 1 ] && [ "$st" -eq 0 ]; }; then
        tap_ok "C99: REGC_CMSIS_ASSERT($c) $([ "$c" = 0 ] && echo fails || echo passes)"
    else
        tap_fail "C99: REGC_CMSIS_ASSERT($c)" "gcc -std=c99 status $st"
    fi
done

# -t json says which clusters use another's CMSIS type (type_of, the cluster's path in its
# block): the unmodified derived ones by their bases (SH: CTL; CPY and TRI: ARR; DUP0 and
# DUP1: BLK's first element BLK0; MA and MB: the list's first, LA), the copies a derived
# cluster takes (SH's and the modified MOD's SUB: CTL.SUB), and not MOD; the same read back
# from -t regspec, where SH, CPY, DUP0, DUP1, MA, MB, TRI and those SUBs say own-type="false".
for src in svd regspec; do
    json=$tmp/types-$src.json
    if [ $src = svd ]; then
        "$regc" tests/svd/cmsis-layout.svd -t json -o "$json" 2>/dev/null
    else
        "$regc" tests/svd/cmsis-layout.svd -t regspec -o "$tmp/types.xml" 2>/dev/null &&
            "$regc" "$tmp/types.xml" -t json -o "$json" 2>/dev/null
    fi
    if python3 - "$json" $src <<'PY'
import json, sys
der = [b for b in json.load(open(sys.argv[1]))["blocks"] if b["name"] == "DER"][0]
got = {(c["parent"], c["name"]): c["type_of"] for c in der["svd"]["clusters"]}
want = {(None, "SH"): "CTL", (None, "CPY"): "ARR", (None, "TRI"): "ARR",
        (None, "DUP0"): "BLK0", (None, "DUP1"): "BLK0", (None, "MA"): "LA", (None, "MB"): "LA",
        (None, "MOD"): None, (None, "CTL"): None, (None, "ARR"): None, (None, "LA"): None,
        ("SH", "SUB"): "CTL.SUB", ("MOD", "SUB"): "CTL.SUB", ("CTL", "SUB"): None}
sys.exit(0 if all(got.get(k, "absent") == v for k, v in want.items()) else 1)
PY
    then
        tap_ok "-t json ($src): type_of of DER's clusters"
    else
        tap_fail "-t json ($src): type_of of DER's clusters" \
            "$(python3 -c 'import json,sys; print([(c["name"], c["type_of"]) for b in json.load(open(sys.argv[1]))["blocks"] if b["name"] == "DER" for c in b["svd"]["clusters"]])' "$json")"
    fi
done
tap_done
