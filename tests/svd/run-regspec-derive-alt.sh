#!/usr/bin/env bash
# tests/svd/run-regspec-derive-alt.sh - a derived cluster's copies of alternate registers stay
# alternates, in their base's alternateGroup (svdconv's copies are its base's items):
# tests/svd/regspec-derive-alt.xml says what each case shows and why. The facts are written by
# hand from that file:
#   - --check says nothing (a copy that lost its alternate would collide at its address);
#   - -t json: each register's address, cluster, alternate and alternateGroup, also of what -t regspec and
#     -t svd write read back;
#   - -t cmsis, compiled: the copies of a cluster with a type of its own (CH, header-struct=)
#     are named CTRL_ALT as CL's is, members and macros; the same header from the -t svd and
#     the -t regspec read back;
#   - -t regspec writes the copies' alternate-group=.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
spec=tests/svd/regspec-derive-alt.xml

"$regc" --check "$spec" >"$tmp/out" 2>&1
tap_check "regspec-derive-alt.xml: --check, no diagnostic (no copy collides)" \
    test "$?" = 0 -a ! -s "$tmp/out"

cat >"$tmp/facts.py" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    for r in b["registers"]:
        print("%s (%s) at %s in %s, alternate %s, group %s" % (r["name"], r["written_name"],
              r["address"], r["svd"]["cluster"] or "-", r["svd"]["alternate"] or "-",
              r["svd"]["alternate_group"] or "-"))
PY
cat >"$tmp/want" <<'WANT'
CL_CFG (CFG) at 0x0 in CL, alternate -, group -
CL_CTRL (CTRL) at 0x0 in CL, alternate -, group ALT
CL_STAT (STAT) at 0x4 in CL, alternate -, group -
CL_CMD (CMD) at 0x4 in CL, alternate STAT, group -
CD_CFG (CFG) at 0x10 in CD, alternate -, group -
CD_CTRL (CTRL) at 0x10 in CD, alternate -, group ALT
CD_STAT (STAT) at 0x14 in CD, alternate -, group -
CD_CMD (CMD) at 0x14 in CD, alternate STAT, group -
CH_CFG (CFG) at 0x20 in CH, alternate -, group -
CH_CTRL (CTRL) at 0x20 in CH, alternate -, group ALT
CH_STAT (STAT) at 0x24 in CH, alternate -, group -
CH_CMD (CMD) at 0x24 in CH, alternate STAT, group -
WANT
LC_ALL=C sort -o "$tmp/want" "$tmp/want"
facts() {
    svd_json_facts "copies of alternates are alternates" "$1" "$2"
}
facts regspec-derive-alt.xml "$spec"
svd_regspec_roundtrip "$spec" facts

cat >"$tmp/facts.c" <<'C'
#include "rda_cmsis.h"
#define IS(expr, type) _Generic((expr), type: 1, default: 0)
#define AT(T, m, off) _Static_assert(offsetof(T, m) == (off), #T "." #m)
/* CL: CFG and CTRL (group ALT: CTRL_ALT) at 0, STAT and CMD at 4 */
AT(P_CL_Type, CFG, 0x0); AT(P_CL_Type, CTRL_ALT, 0x0);
AT(P_CL_Type, STAT, 0x4); AT(P_CL_Type, CMD, 0x4);
/* CH (header-struct CHX): its own type, of the copies, CTRL_ALT too */
AT(CHX_Type, CFG, 0x0); AT(CHX_Type, CTRL_ALT, 0x0); AT(CHX_Type, STAT, 0x4); AT(CHX_Type, CMD, 0x4);
_Static_assert(sizeof(P_CL_Type) == 8 && sizeof(CHX_Type) == 8, "8 bytes each");
_Static_assert(IS(&P->CH.CTRL_ALT, volatile uint32_t *), "CH.CTRL_ALT: read-write");
_Static_assert(IS(&P->CH.STAT, const volatile uint32_t *), "CH.STAT: read-only");
/* CD: CL's type */
AT(P_Type, CL, 0x0); AT(P_Type, CD, 0x10); AT(P_Type, CH, 0x20);
_Static_assert(IS(&P->CD, P_CL_Type *) && IS(&P->CH, CHX_Type *), "CD: CL's type; CH: CHX");
/* the macros: CTRL_ALT's in CL and in CH's own */
_Static_assert(P_CL_CTRL_ALT_EN_Pos == 0 && P_CL_CTRL_ALT_EN_Msk == 0x1u, "CL EN [0]");
_Static_assert(P_CHX_CTRL_ALT_EN_Pos == 0 && P_CHX_CTRL_ALT_EN_Msk == 0x1u, "CH EN [0]");
_Static_assert(P_CHX_CMD_GO_Pos == 0 && P_CHX_STAT_BUSY_Msk == 0x1u, "CH GO, BUSY");
#if defined(P_CHX_CTRL_EN_Pos) || defined(P_CL_CTRL_EN_Pos)
#error "CTRL is in alternateGroup ALT: CTRL_ALT"
#endif
#if defined(P_CD_CTRL_ALT_EN_Pos) || defined(P_CD_CFG_MODE_Pos)
#error "CD is an unmodified copy: no macros of its own"
#endif
C
cmsis_facts() { # input, test name
    mkdir -p "$tmp/h"
    if ! "$regc" "$1" -t cmsis -o "$tmp/h/rda_cmsis.h" 2>"$tmp/err"; then
        tap_fail "$2" "$(head -n 3 "$tmp/err")"
    elif gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$tmp/h" -c -o "$tmp/facts.o" \
        "$tmp/facts.c" 2>"$tmp/cc.err"; then
        tap_ok "$2"
    else
        tap_fail "$2" "$(grep -m 5 error "$tmp/cc.err")"
    fi
}
cmsis_facts "$spec" "regspec-derive-alt.xml -t cmsis: every hand-worked fact holds"
cmsis_facts "$tmp/rt.svd" "regspec-derive-alt.xml -t svd read back: -t cmsis, the same facts"
cmsis_facts "$tmp/rt.xml" "regspec-derive-alt.xml -t regspec read back: -t cmsis, the same facts"

groups=$(python3 - "$tmp/rt.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
for r in ET.parse(sys.argv[1]).getroot().iter("register"):
    if r.get("alternate-group"):
        print("%s:%s" % (r.get("name"), r.get("alternate-group")))
PY
)
tap_check "regspec-derive-alt.xml -t regspec: the copies are in group ALT" \
    test "$(echo $groups)" = "CL_CTRL:ALT CD_CTRL:ALT CH_CTRL:ALT"
tap_done
