#!/usr/bin/env bash
# tests/svd/run-cmsis-names.sh - the names -t cmsis gives, against names worked out by
# hand from tests/svd/cmsis-names.svd (its comments) and svdconv's naming rules
# (docs/svd.md, "Names as svdconv makes them"), not taken from regc's output:
# headerDefinitionsPrefix on types, instances and bases only; a peripheral's type from
# its headerStructName or name; derived peripherals sharing their base's type unless
# they change something (addressBlock, headerStructName, prependToName); cluster types
# and _Pos/_Msk names with the clusters' headerStructNames (one equal to the cluster's
# hierarchical name dropped); prependToName/appendToName on members only; groupName on
# nothing; alternateGroup after the register's name (two registers of one name, the first in
# a group and the later in none: both kept); dimIndex names; "%s" cluster
# lists as one type and one set of macros. A header is
# compiled with the facts as static asserts, and a name that must not exist as #error.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

if ! "$regc" tests/svd/cmsis-names.svd -t cmsis -o "$tmp/cmsis_names.h" 2>"$tmp/err"; then
    tap_fail "cmsis-names.svd: regc -t cmsis" "$(head -n 3 "$tmp/err")"
    tap_done
    exit 0
fi

cat >"$tmp/facts.c" <<'C'
#include "cmsis_names.h"
#define IS(expr, type) _Generic((expr), type: 1, default: 0)
/* headerDefinitionsPrefix ACME_ before types, instances and bases */
_Static_assert(ACME_TIM0_BASE == 0x40000000u && ACME_TIM1_BASE == 0x40001000u, "bases");
_Static_assert(IS(ACME_TIM0, ACME_TIM_Type *), "TIM0: headerStructName TIM, prefixed");
/* TIM1 changes nothing: its base's type; TIM2 (own addressBlock) and TIM3 (own
   headerStructName TIMX) get types of their own */
_Static_assert(IS(ACME_TIM1, ACME_TIM_Type *), "TIM1 shares TIM0's type");
_Static_assert(IS(ACME_TIM2, ACME_TIM2_Type *) && ACME_TIM2_BASE == 0x40002000u, "TIM2");
_Static_assert(IS(ACME_TIM3, ACME_TIMX_Type *), "TIM3: TIMX");
_Static_assert(offsetof(ACME_TIM2_Type, PSEL) == 0x20 && sizeof(ACME_TIM2_Type) == sizeof(ACME_TIM_Type), "copy");
/* cluster types: no headerStructName -> the peripheral's name TIM0; kept -> TIM_PSEL;
   TIM0_INFO equal to the hierarchical name -> dropped; a copy keeps the base's types */
_Static_assert(IS(&ACME_TIM0->CH, TIM0_CH_Type *) && IS(&ACME_TIM0->PSEL, TIM_PSEL_Type *), "");
_Static_assert(IS(&ACME_TIM0->INFO, TIM0_INFO_Type *) && IS(&ACME_TIM2->CH, TIM0_CH_Type *), "");
/* _Pos/_Msk: no prefix; the peripheral's headerStructName, then each cluster's kept one */
_Static_assert(TIM_CTRL_EN_Pos == 0 && TIM_CTRL_EN_Msk == 0x1u, "TIM_CTRL_EN");
_Static_assert(TIM_CH_CFG_MODE_Pos == 2 && TIM_CH_CFG_MODE_Msk == 0xCu, "TIM_CH_CFG_MODE");
_Static_assert(TIM_TIM_PSEL_TX_PIN_Pos == 0 && TIM_TIM_PSEL_TX_PIN_Msk == 0x1Fu, "PSEL by TIM_PSEL");
_Static_assert(TIM_INFO_ID_REV_Pos == 4 && TIM_INFO_ID_REV_Msk == 0xF0u, "INFO by its name");
_Static_assert(TIM2_CTRL_EN_Pos == 0 && TIMX_CTRL_EN_Pos == 0, "own macros of TIM2 and TIMX");
#if defined(ACME_TIM_CTRL_EN_Pos) || defined(TIM1_CTRL_EN_Pos) || defined(TIM2_CH_CFG_MODE_Pos)
#error "no prefix on macros; TIM1 has none; a copy's clusters have none"
#endif
#if defined(TIM_PSEL_TX_PIN_Pos) || defined(TIM_TIM0_INFO_ID_REV_Pos) || defined(TIMERS_CTRL_EN_Pos)
#error "a kept headerStructName replaces the cluster's name; a dropped one does not; groupName names nothing"
#endif
/* prependToName/appendToName on members only; PORT_IO's own prefix, its base's suffix */
_Static_assert(offsetof(ACME_PORT_Type, PORT_DIR_R) == 0 && offsetof(ACME_PORT_Type, PORT_OUT_R) == 4, "");
_Static_assert(offsetof(ACME_PORT_IO_Type, IO_DIR_R) == 0 && IS(ACME_PORT_IO, ACME_PORT_IO_Type *), "");
_Static_assert(PORT_DIR_P1_Pos == 1 && PORT_DIR_P1_Msk == 0x2u && PORT_IO_DIR_P1_Pos == 1, "");
#if defined(PORT_PORT_DIR_R_P0_Pos) || defined(GPIO_DIR_P0_Pos) || defined(PORT_IO_DIR_R_P0_Pos)
#error "no affixes and no groupName in macro names"
#endif
/* alternateGroup after the register's name */
_Static_assert(offsetof(ACME_BT_Type, PWM_CR_PWM) == 0 && offsetof(ACME_BT_Type, PPG_CR_PPG) == 0, "");
_Static_assert(IS(&ACME_BT->PWM_CR_PWM, volatile uint16_t *), "16 bits");
_Static_assert(BT_PWM_CR_PWM_CKS_Pos == 4 && BT_PWM_CR_PWM_CKS_Msk == 0x70u, "CKS [6:4]");
_Static_assert(BT_PPG_CR_PPG_MD_Pos == 1 && BT_PPG_CR_PPG_MD_Msk == 0x6u, "MD [2:1]");
/* ST in group PPG, then ST in none: both kept, ST_PPG and ST */
_Static_assert(offsetof(ACME_BT_Type, ST_PPG) == 0x8 && offsetof(ACME_BT_Type, ST) == 0xC, "ST_PPG, ST");
_Static_assert(BT_ST_PPG_OV_Pos == 0 && BT_ST_PPG_OV_Msk == 0x1u, "ST_PPG.OV [0]");
_Static_assert(BT_ST_UF_Pos == 1 && BT_ST_UF_Msk == 0x2u, "ST.UF [1]");
#if defined(BT_ST_OV_Pos) || defined(BT_ST_PPG_UF_Pos)
#error "the ST in group PPG is ST_PPG, the other ST"
#endif
/* dimIndex: a %s list expanded with the names, a [%s] array one member and one set of macros */
_Static_assert(offsetof(ACME_BT_Type, CHA_CTL) == 0x10 && offsetof(ACME_BT_Type, CHB_CTL) == 0x14, "");
_Static_assert(BT_CHA_CTL_EN_Pos == 0 && BT_CHB_CTL_EN_Msk == 0x1u, "CHA, CHB");
_Static_assert(offsetof(ACME_BT_Type, DATA) == 0x20 && sizeof(ACME_BT->DATA) == 8, "DATA[2]");
_Static_assert(BT_DATA_V_Pos == 8 && BT_DATA_V_Msk == 0xFF00u, "V [15:8]");
#if defined(BT_DATAX_V_Pos) || defined(BT_CH0_CTL_EN_Pos) || defined(BT_PWM_CR_CKS_Pos)
#error "array macros without the index; list names from dimIndex; the group in the name"
#endif
/* "%s" cluster lists: one type each (a kept headerStructName, else PERIPH_NAME), a member per
   element, one set of macros named as the list (its headerStructName, else its name) */
_Static_assert(IS(&ACME_LST->QRX, QUEUE_Type *) && IS(&ACME_LST->QTX, QUEUE_Type *), "QUEUE");
_Static_assert(offsetof(ACME_LST_Type, QTX) == 8 && sizeof(QUEUE_Type) == 8, "QTX at 8");
_Static_assert(IS(&ACME_LST->P0, LST_P_Type *) && offsetof(ACME_LST_Type, P1) == 0x14, "P0, P1");
_Static_assert(LST_QUEUE_CFG_EN_Pos == 0 && LST_P_V_X_Msk == 0xFu, "LST_QUEUE_CFG_EN, LST_P_V_X");
#if defined(LST_QRX_CFG_EN_Pos) || defined(LST_Q_CFG_EN_Pos) || defined(LST_P0_V_X_Pos)
#error "a list's macros: once, by its headerStructName, else by its name without %s"
#endif
C
if gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$tmp" -c -o "$tmp/facts.o" "$tmp/facts.c" \
    2>"$tmp/cc.err"; then
    tap_ok "cmsis-names.svd: every hand-worked name holds"
else
    tap_fail "cmsis-names.svd: every hand-worked name holds" "$(grep -m 5 error "$tmp/cc.err")"
fi

# The same names without a headerDefinitionsPrefix: none before the types and instances.
grep -v headerDefinitionsPrefix tests/svd/cmsis-names.svd >"$tmp/noprefix.svd"
if "$regc" "$tmp/noprefix.svd" -t cmsis -o "$tmp/cmsis_noprefix.h" 2>"$tmp/err" &&
    grep -q '^#define TIM0 ((TIM_Type\*) TIM0_BASE)$' "$tmp/cmsis_noprefix.h" &&
    ! grep -q 'ACME_' "$tmp/cmsis_noprefix.h"; then
    tap_ok "no headerDefinitionsPrefix: TIM0 ((TIM_Type*) TIM0_BASE)"
else
    tap_fail "no headerDefinitionsPrefix: TIM0 ((TIM_Type*) TIM0_BASE)" "$(head -n 3 "$tmp/err")"
fi

# --against takes svdconv's names: a header in that form agrees, and a wrong _Pos is reported.
grep -E '_(Pos|Msk) ' "$tmp/cmsis_names.h" >"$tmp/vendor.h"
"$regc" tests/svd/cmsis-names.svd --against "$tmp/vendor.h" >"$tmp/out" 2>"$tmp/err"
st=$?
# 21 pairs: TIM (4), TIM2, TIMX, PORT (3), PORT_IO (3), BT (7: PWM_CR_PWM, PPG_CR_PPG, ST_PPG, ST,
# CHA, CHB, DATA), LST (2: QUEUE_CFG_EN, P_V_X, each element's register under the list's name)
if [ "$st" -eq 0 ] && [ ! -s "$tmp/out" ] &&
    [ "$(cat "$tmp/err")" = "regc: 21 _Pos/_Msk pairs defined by both, 0 disagree" ]; then
    tap_ok "--against: svdconv's names agree ($(cat "$tmp/err"))"
else
    tap_fail "--against: svdconv's names agree (exit $st)" "$(cat "$tmp/out" "$tmp/err")"
fi
sed -e 's/^#define BT_PWM_CR_PWM_CKS_Pos (4UL)/#define BT_PWM_CR_PWM_CKS_Pos (5UL)/' \
    -e 's/^#define TIM_TIM_PSEL_TX_PIN_Msk (0x1FUL)/#define TIM_TIM_PSEL_TX_PIN_Msk (0x3FUL)/' \
    "$tmp/vendor.h" >"$tmp/wrong.h"
"$regc" tests/svd/cmsis-names.svd --against "$tmp/wrong.h" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" -eq 1 ] && grep -q ': BT_PWM_CR_PWM_CKS: header _Pos 5' "$tmp/out" &&
    grep -q ': TIM_TIM_PSEL_TX_PIN: header _Pos 0 _Msk 0x3F' "$tmp/out" && grep -q ' 2 disagree$' "$tmp/err"; then
    tap_ok "--against: a wrong alternateGroup and cluster-headerStructName macro each reported"
else
    tap_fail "--against: the two wrong macros reported (exit $st)" "$(cat "$tmp/out" "$tmp/err")"
fi
tap_done
