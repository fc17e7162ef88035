#!/usr/bin/env bash
# tests/svd/run-cmsis-enum.sh - -t cmsis-enum, svdconv's enum form (docs/svd.md, "The enum
# form"):
#  - tests/svd/cmsis-enum.svd: the enums and constants worked out by hand from its comments and
#    svdconv's rules (not from regc's output), compiled as C11 static asserts; a name that must
#    not exist is declared as a variable, so that it clashes;
#  - every test-set file (../shared/svd), features.svd and cmsis-enum.svd: each enum constant,
#    as gcc evaluates it, equals the enumerated value the file gives, worked out from the file
#    by tests/svd/cmsis_enum_check.py (xml.etree and svdconv's naming rules, not regc), and
#    every enum svdconv writes is there;
#  - the enum section of cmsis-enum.svd, ARM_Sample, CMSDK_CM3 and k210 equals its golden file
#    tests/svd/cmsis-enum/NAME.expected (reviewed by eye; UPDATE_GOLDEN=1 rewrites them);
#  - the header above the enums is -t cmsis's without the named values' macros.
# The compile matrix of the header is tests/svd/run-cmsis.sh's.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

enum_header() {   # svd out.h
    "$regc" "$1" -t cmsis-enum -o "$2" 2>"$tmp/err" && return 0
    tap_fail "$1: regc -t cmsis-enum" "$(head -n 3 "$tmp/err")"
    return 1
}

# ---- the facts of cmsis-enum.svd
if enum_header tests/svd/cmsis-enum.svd "$tmp/cmsis_enum.h"; then
    cat >"$tmp/facts.c" <<'C'
#include "cmsis_enum.h"
/* the peripheral's name, not its headerStructName (TIM) nor the prefix (ACME_) */
_Static_assert(TIM0_CTRL_EN_Off == 0 && TIM0_CTRL_EN_On == 1, "EN");
TIM0_CTRL_EN_Enum en;
/* isDefault and "reserved" values left out: a variable of their names clashes otherwise */
_Static_assert(TIM0_CTRL_MODE_One == 1, "MODE");
int TIM0_CTRL_MODE_reserved, TIM0_CTRL_MODE_Other;
/* headerEnumName: the enum and its constants; its second use left out */
_Static_assert(TimerSpeed_Slow == 0 && TimerSpeed_Fast == 3, "SPEED");
TimerSpeed_Enum speed;
int TIM0_CTRL_SPEED_Enum, TIM0_STAT_SPD2_Enum, TimerSpeed_Slow2, TIM0_STAT_SPD2_Slow2;
/* a named set; a derived set takes its base's name, not its headerEnumName */
_Static_assert(TIM0_CTRL_SRC_SrcSel_Ext == 1 && TIM0_STAT_SEL_SrcSel_Ext == 1, "SrcSel");
TIM0_CTRL_SRC_SrcSel_Enum src;
TIM0_STAT_SEL_SrcSel_Enum sel;
/* a derived set takes its base's name, never its headerEnumName */
_Static_assert(HeadEnum_Lo == 0 && TIM0_STAT_DHE_HeSet_Lo == 0, "HeSet");
HeadEnum_Enum he;
TIM0_STAT_DHE_HeSet_Enum dhe;
int TIM0_CTRL_HE_HeSet_Enum, TIM0_CTRL_HE_HeSet_Lo;
/* don't-care bits: one constant per number */
_Static_assert(TIM0_CTRL_DC_Any_4 == 4 && TIM0_CTRL_DC_Any_6 == 6 && TIM0_CTRL_DC_Zero == 0, "DC");
int TIM0_CTRL_DC_Any;
/* not shifted; 32 bits written as an int */
_Static_assert(TIM0_CTRL_TOP_Top == 1, "TOP");
_Static_assert(TIM0_WIDE_ALL_Big == -2147483647 - 1 && TIM0_WIDE_ALL_Max == -1, "WIDE");
/* read and write sets: _R, _W; Idle in both, once */
_Static_assert(TIM0_STAT_FLAG_Idle == 0 && TIM0_STAT_FLAG_Busy == 1 && TIM0_STAT_FLAG_Clear == 2, "FLAG");
TIM0_STAT_FLAG_R_Enum r;
TIM0_STAT_FLAG_W_Enum w;
int TIM0_STAT_FLAG_Enum;
/* dimArrayIndex: headerEnumName, else the register's name */
_Static_assert(ChanIdx_Left == 0 && ChanIdx_Right == 1 && TIM0_BUF_V_Set == 1, "BUF");
ChanIdx_Enum chan;
_Static_assert(TIM0_IDX_First == 0 && TIM0_IDX_Second == 1, "IDX");
TIM0_IDX_Enum idx;
/* a register list: through the template and its SvdDimension */
_Static_assert(TIM0_CH_CTL_CH_CTL_CH0_CTL_GO_Start == 1 && TIM0_CH_CTL_CH_CTL_CH1_CTL_GO_Start == 1, "CH");
int TIM0_CH0_CTL_GO_Start;
/* a field list: one enum by the list's name */
_Static_assert(TIM0_PINS_P_High == 1, "PINS");
int TIM0_PINS_P0_High, TIM0_PINS_P1_High;
/* alternateGroup; a cluster array by its name, not its headerStructName */
_Static_assert(TIM0_MODE_A_KIND_Fast == 1 && TIM0_SLOT_CFG_ON_Yes == 1, "MODE, SLOT");
int TIM0_SLOTS_CFG_ON_Yes;
/* a register list's elements: no headerEnumName; a field list's template keeps it, once; an
   expanded cluster array's enums once */
_Static_assert(TIM0_LST_LST_LSTA_K_Up == 1 && TIM0_LST_LST_LSTB_K_Up == 1, "LST");
TIM0_LST_LST_LSTA_K_Enum lsta;
int ListK_Enum, ListK_Up;
_Static_assert(PinQ_Lo == 0, "PINS2");
PinQ_Enum pinq;
int TIM0_PINS2_Q_Enum, TIM0_PINS2_Q_Lo;
_Static_assert(GrpF_On == 1 && TIM0_GRP_SUB_R_G_Hi == 1, "GRP");
GrpF_Enum grpf;
int TIM0_GRP_SUB_R_F_Enum, TIM0_GRP_SUB_R_F_On;
/* TIM1 unmodified: nothing; TIM2 a copy: no headerEnumName, no dimArrayIndex, no clusters */
int TIM1_CTRL_EN_Off;
_Static_assert(TIM2_CTRL_EN_On == 1 && TIM2_CTRL_SPEED_Fast == 3 && TIM2_STAT_SPD2_Slow2 == 1, "TIM2");
TIM2_CTRL_SPEED_Enum speed2;
int TIM2_IDX_Enum, TIM2_IDX_First, TIM2_SLOT_CFG_ON_Enum, TIM2_SLOT_CFG_ON_Yes, GrpF_Enum2;
_Static_assert(TIM2_PINS2_Q_Lo == 0, "TIM2 PINS2");
/* the dimArrayIndex of a cluster array (headerEnumName, else the cluster's name without [%s])
   and of a peripheral array (its name without [%s]); none in TIM2's copy of TIM0's clusters */
_Static_assert(GrpIdx_G0 == 0 && GrpIdx_G1 == 1 && TIM0_SLOT_Lo == 0 && TIM0_SLOT_Hi == 1, "idx");
GrpIdx_Enum grpidx;
TIM0_SLOT_Enum slot;
int TIM0_GRP_Enum, TIM0_GRP_G0, TIM2_SLOT_Enum, TIM2_SLOT_Lo;
_Static_assert(PA_Main == 0 && PA_Aux == 1 && PA_R_F_Set == 1, "PA");
PA_Enum pa;
int PA0_Enum, PA0_Main;
/* a derived peripheral's own dimArrayIndex: when it has a type of its own only */
_Static_assert(TIM2_Only == 0, "TIM2 idx");
TIM2_Enum tim2;
int TIM1_Enum, TIM1_Only;
/* the clusters' enums before the peripherals': SLOT's constant keeps the name EARLY's set
   (earlier in the file) would give its own, its enum too */
_Static_assert(TIM0_SLOT_CFG_ON_Yes == 1 && TIM2_EARLY_ON_Yes == 0, "order");
int TIM0_EARLY_ON_Enum;
/* no macros of the named values (svdconv's macro form writes none) */
#if defined(TIM_CTRL_EN_Off) || defined(TIM_CTRL_SPEED_Fast)
#error "a named value's macro"
#endif
C
    if gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -Wno-unused-variable -I"$tmp" -c \
        -o "$tmp/facts.o" "$tmp/facts.c" 2>"$tmp/cc.err"; then
        tap_ok "cmsis-enum.svd: the enums and constants worked out by hand"
    else
        tap_fail "cmsis-enum.svd: the enums and constants worked out by hand" \
            "$(grep -m 5 -E 'error' "$tmp/cc.err")"
    fi
fi

# ---- constants against the SVD, read by cmsis_enum_check.py
against_svd() {   # label svd
    local b
    b=enum_$(basename "$2" .svd | tr -c 'A-Za-z0-9_\n' '_') # not features.h: glibc's
    enum_header "$2" "$tmp/$b.h" || return
    {
        printf '#include <stdio.h>\n#include "%s.h"\nint main(void)\n{\n' "$b"
        sed -n 's/^  \([A-Za-z_][A-Za-z0-9_]*\) = -\{0,1\}[0-9]*,.*/\1/p' "$tmp/$b.h" |
            awk '{ printf "    printf(\"%s %%lld\\n\", (long long)%s);\n", $1, $1 }'
        printf '    return 0;\n}\n'
    } >"$tmp/$b.c"
    if ! gcc -std=c11 -w -I"$tmp" -o "$tmp/$b.bin" "$tmp/$b.c" 2>"$tmp/cc.err" ||
        ! "$tmp/$b.bin" >"$tmp/$b.values"; then
        tap_fail "$1: its enum constants evaluated" "$(grep -m 3 error "$tmp/cc.err")"
    elif python3 tests/svd/cmsis_enum_check.py "$2" "$tmp/$b.h" "$tmp/$b.values" >"$tmp/check" 2>&1; then
        tap_ok "$1: every enum constant is the SVD's value ($(head -n 1 "$tmp/check"))"
    else
        tap_fail "$1: every enum constant is the SVD's value" "$(head -n 12 "$tmp/check")"
    fi
    rm -f "$tmp/$b.bin" "$tmp/$b.c"
}

# ---- the enum sections against their goldens
golden() {   # label svd name
    enum_header "$2" "$tmp/g.h" || return
    sed -n '/Enumerated Values [A-Za-z]* Section/,$p' "$tmp/g.h" >"$tmp/$3.enums"
    local expected=tests/svd/cmsis-enum/$3.expected
    if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
        cp "$tmp/$3.enums" "$expected"
        tap_ok "$expected updated"
    else
        tap_diff "$1: the enum section is $expected" "$expected" "$tmp/$3.enums"
    fi
}

# ---- above the enums, -t cmsis without the named values' macros
same_structs() {   # label svd
    enum_header "$2" "$tmp/e.h" || return
    if ! "$regc" "$2" -t cmsis -o "$tmp/m.h" 2>"$tmp/err"; then
        tap_fail "$1: regc -t cmsis" "$(head -n 3 "$tmp/err")"
        return
    fi
    sed '1,/^#ifndef /d; /Enumerated Values [A-Za-z]* Section/,$d' "$tmp/e.h" >"$tmp/e.top"
    sed '1,/^#ifndef /d' "$tmp/m.h" | head -n -5 |
        awk '/Pos\/Mask [A-Za-z]* Section/ { pm = 1 }
             pm && /^#define / && $2 !~ /_(Pos|Msk)$/ { next } { print }' >"$tmp/m.top"
    tap_diff "$1: above its enums, the header is -t cmsis's without the value macros" \
        "$tmp/m.top" "$tmp/e.top"
}

golden tests/svd/cmsis-enum.svd tests/svd/cmsis-enum.svd cmsis-enum
same_structs tests/svd/cmsis-enum.svd tests/svd/cmsis-enum.svd
same_structs tests/svd/features.svd tests/svd/features.svd
against_svd tests/svd/cmsis-enum.svd tests/svd/cmsis-enum.svd
against_svd tests/svd/features.svd tests/svd/features.svd

. tests/svd/testset.sh
if [ ! -d "$svd/corpus" ]; then
    tap_skip "SVD test set" "$svd_why"
else
    golden ARM_Sample "$svd/corpus/ARM_SAMPLE/ARM_Sample.svd" ARM_Sample
    golden CMSDK_CM3 "$svd/corpus/ARM_SAMPLE/CMSDK_CM3.svd" CMSDK_CM3
    golden k210 "$svd/corpus/Kendryte-Community/k210.svd" k210
    same_structs nrf52840 "$svd/vendor-headers/nordic/nrf52840.svd"
    for f in $(svd_files); do
        against_svd "$f" "$svd/$f"
    done
fi
tap_done
