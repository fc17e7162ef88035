#!/usr/bin/env bash
# tests/svd/run-regspec-forms.sh - tests/svd/regspec-forms.xml, a regspec using each memory-mapped
# form of docs/regspec.md ("Memory-mapped devices") once: it compiles without a diagnostic, the C
# header holds the classes and rules the forms give (worked out by hand from the CMSIS-SVD
# definitions quoted in docs/regspec.md), and -t json shows each member as written in the file.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
spec=tests/svd/regspec-forms.xml

if ! "$regc" "$spec" -o "$tmp/forms.h" 2>"$tmp/err" || [ -s "$tmp/err" ] ||
    ! "$regc" "$spec" -t json -o "$tmp/forms.json" 2>>"$tmp/err"; then
    tap_fail "regspec-forms.xml: compiled without a diagnostic" "$(head -n 5 "$tmp/err")"
    tap_done
    exit 0
fi
tap_ok "regspec-forms.xml: compiled without a diagnostic"

cat >"$tmp/facts.c" <<'C'
#include "forms.h"
/* FLAG [1]: read-write + oneToClear is RW1C; MODE [3:2] read-writeOnce is RWO */
_Static_assert(DEMO_TIMER_CTRL_W1C_MASK == 0x2u, "write=oneToClear: W1C");
_Static_assert(DEMO_TIMER_CTRL_ONCE_MASK == 0xCu, "read-writeOnce: only the first write acts");
/* bits 31:10 are described by no field: gap class, kept as read (gaps="gap") */
_Static_assert(DEMO_TIMER_CTRL_PRESERVE_MASK == 0xFFFFFC10u, "gaps (bits 31:10) and the write-as-read WAR (bit 4) kept as read");
/* block-names="true": C names carry the block; ALT shares CTRL's address (alternate=) */
_Static_assert(DEMO_TIMER_ALT_TIMER0_ADDR == DEMO_TIMER_CTRL_TIMER0_ADDR, "alternate");
_Static_assert(DEMO_TIMER_CH_SUB_X_ADDR_C(1, 1) == 0x40001034u, "TIMER1 CH[1].SUB.X");
/* write-constraint="2..5" on LVL [7:5]; "enumerated" on SEL [9:8]: S0, S2 (S3 is read-only) */
int main(void)
{
    return !((demo_timer_ctrl_check(6u << 5) & DEMO_TIMER_CTRL_RULE_LVL_RANGE) != 0 &&
             (demo_timer_ctrl_check(1u << 5) & DEMO_TIMER_CTRL_RULE_LVL_RANGE) != 0 &&
             (demo_timer_ctrl_check(5u << 5) & DEMO_TIMER_CTRL_RULE_LVL_RANGE) == 0 &&
             (demo_timer_ctrl_check(3u << 8) & DEMO_TIMER_CTRL_RULE_SEL_VALUES) != 0 &&
             (demo_timer_ctrl_check(2u << 8) & DEMO_TIMER_CTRL_RULE_SEL_VALUES) == 0);
}
C
if cc -std=c11 -Wall -Wextra -Werror -I"$tmp" "$tmp/facts.c" -o "$tmp/facts" 2>"$tmp/cc" &&
    "$tmp/facts" 2>>"$tmp/cc"; then
    tap_ok "regspec-forms.xml: the header holds the classes and rules the forms give"
else
    tap_fail "regspec-forms.xml: the header holds the classes and rules the forms give" \
        "$(head -n 5 "$tmp/cc")" "(or the rule checks answered wrong)"
fi

if python3 - "$tmp/forms.json" >"$tmp/py" 2>&1 <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
bad = []
def want(what, got, expected):
    if got != expected:
        bad.append(f"{what}: {got!r}, expected {expected!r}")
dev = d["spec"]["device"]
for k, v in {"name": "DEMO", "vendor": "Acme", "vendor_id": "ACME", "series": "D1", "version": "1.0",
             "desc": "A demo device", "header_prefix": "DM_", "address_unit_bits": 8, "width": 32}.items():
    want(f"device.{k}", dev[k], v)
for k, v in {"name": "CM4", "revision": "r0p1", "endian": "little", "mpu": True, "fpu": True,
             "vtor": True, "nvic_prio_bits": 3, "vendor_systick": False}.items():
    want(f"device.cpu.{k}", dev["cpu"][k], v)
b = d["blocks"][0]
want("block.svd.group", b["svd"]["group"], "TIM")
want("block.svd.header_struct", b["svd"]["header_struct"], "TIM")
want("address block", b["svd"]["address_blocks"], [{"offset": "0x0", "size": "0x100", "usage": "registers"}])
cl = b["svd"]["clusters"]
want("clusters", [(c["name"], c["written_name"], c["address"], c["count"], c["stride"], c["parent"]) for c in cl],
     [("CH", "CH[%s]", "0x20", 2, "0x10", None), ("SUB", "SUB", "0x24", 1, "0x0", "CH")])
i0, i1 = b["instances"]
want("TIMER0 group, interrupts", (i0["svd"]["group"], i0["svd"]["interrupts"]),
     ("TIM", [{"name": "TIMER0", "value": 8, "desc": "Timer 0"}]))
want("TIMER1 derived, alternate", (i1["svd"]["derived_from"], i1["svd"]["alternate"]), ("TIMER0", "TIMER0"))
regs = {r["name"]: r for r in b["registers"]}
ctrl = regs["CTRL"]["svd"]
want("CTRL reset mask, protection", (ctrl["reset_mask"], ctrl["protection"]), ("0xffff", "p"))
alt = regs["ALT"]["svd"]
want("ALT alternate, group, derived", (alt["alternate"], alt["alternate_group"], alt["derived_from"]), ("CTRL", "G", "CTRL"))
data = regs["DATA"]
want("DATA written name, dim_of, index names",
     (data["written_name"], data["svd"]["dim_of"], data["svd"]["index_names"]), ("DATA[%s]", "DATA%s", ["X", "Y", "Z"]))
want("CH_SUB_X cluster", regs["CH_SUB_X"]["svd"]["cluster"], "SUB")
f = {x["name"]: x for x in regs["CTRL"]["fields"]}
want("FLAG access", f["FLAG"]["access"], "read-write, oneToClear, readAction clear")
want("FLAG effects", (f["FLAG"]["svd"]["write_effect"], f["FLAG"]["svd"]["read_action"]), ("oneToClear", "clear"))
m = f["MODE"]["svd"]
want("MODE write once, enum name, default", (m["write_once"], m["enum_name"], m["default_value"]), (True, "ModeE", "OTHER"))
# <enum-set>s: a value of one usage is in the set of its usage, the default (no usage=) in both
want("MODE sets", m["enum_sets"],
     [{"name": None, "header_enum_name": "ModeState", "derived_from": None, "usage": "read", "values": ["A"], "default": "OTHER"},
      {"name": "ModeSel", "header_enum_name": None, "derived_from": None, "usage": "write", "values": ["B"], "default": "OTHER"}])
want("SEL sets (none written: one per usage)", [(s["name"], s["usage"], s["values"]) for s in f["SEL"]["svd"]["enum_sets"]],
     [(None, "read", ["S0", "S2", "S3"]), (None, "write", ["S0", "S2"])])
want("DATA array index", data["svd"]["array_index"],
     {"enum_name": "DataIdx", "values": [{"name": "X", "value": "0x0", "desc": "first word"},
                                         {"name": "Y", "value": "0x1", "desc": None}, {"name": "Z", "value": "0x2", "desc": None}]})
want("MODE values", [(v["name"], v["value"], v["svd"]["usage"], v["svd"]["dont_care"]) for v in f["MODE"]["values"]],
     [("A", "0x0", "read", "0x0"), ("B", "0x1", "write", "0x2")])
want("LVL range", f["LVL"]["write_constraint"], {"kind": "range", "min": "0x2", "max": "0x5"})
want("WAR write as read, derived, dim", (f["WAR"]["write_constraint"]["kind"], f["WAR"]["svd"]["derived_from"],
     f["WAR"]["svd"]["dim_of"]), ("writeAsRead", "EN", "W%s"))
want("ALT whole", regs["ALT"]["fields"][0]["svd"]["whole"], True)
der = d["blocks"][2]
# LATE and SH write a register of their own, and take their bases' IN, as an SVD reader's do:
# LATE a copy of CTL's, SH a copy of LATE's (with their parents, below)
want("DER clusters derived", [(c["name"], c["derived_from"], c["parent"]) for c in der["svd"]["clusters"]],
     [("LATE", "CTL", None), ("CTL", None, None), ("IN", None, "CTL"), ("SH", "LATE", None),
      ("IN", None, "LATE"), ("IN", None, "SH")])
u = d["blocks"][1]
want("UART instances, dim_of", [(i["name"], i["base"], i["svd"]["dim_of"]) for i in u["instances"]],
     [("UARTA", "0x40010000", "UART%s"), ("UARTB", "0x40010400", "UART%s"), ("UART2", "0x40020000", None)])
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
    tap_ok "regspec-forms.xml: -t json shows each member as written"
else
    tap_fail "regspec-forms.xml: -t json shows each member as written" "$(head -n 10 "$tmp/py")"
fi
# what -t json does not show, through -t svd (the element each form stands for)
if "$regc" "$spec" -t svd -o "$tmp/forms.svd" 2>"$tmp/err"; then
    missing=""
    for want in '<licenseText>Free to use.</licenseText>' '<fpuDP>true</fpuDP>' \
        '<icachePresent>true</icachePresent>' '<dcachePresent>false</dcachePresent>' \
        '<vtorPresent>true</vtorPresent>' '<headerDefinitionsPrefix>DM_</headerDefinitionsPrefix>' \
        '<prependToName>P_</prependToName>' '<appendToName>_A</appendToName>' \
        '<version>2</version>' '<protection>s</protection>' '<displayName>CTRL_D</displayName>' \
        '<protection>p</protection>' '<alternateGroup>G</alternateGroup>' \
        '<headerStructName>TIM1</headerStructName>' '<prependToName>Q_</prependToName>' '<appendToName>_B</appendToName>' \
        '<headerEnumName>ModeState</headerEnumName>' '<name>ModeSel</name>' '<headerEnumName>DataIdx</headerEnumName>'; do
        grep -qF -- "$want" "$tmp/forms.svd" || missing="$missing $want"
    done
    if [ -z "$missing" ]; then
        tap_ok "regspec-forms.xml: -t svd writes the forms -t json does not show"
    else
        tap_fail "regspec-forms.xml: -t svd writes the forms -t json does not show" "missing:$missing"
    fi
else
    tap_fail "regspec-forms.xml: -t svd" "$(head -n 3 "$tmp/err")"
fi
# block DER's derived-from= paths, written as derivedFrom, are what the SVD reader resolves too
# (one lookup, compiler/derive.c): no svd-derived error reading -t svd back
if [ -s "$tmp/forms.svd" ] && "$regc" "$tmp/forms.svd" --check 2>"$tmp/err" && ! grep -q 'error' "$tmp/err"; then
    tap_ok "regspec-forms.xml: -t svd reads back with each derivedFrom resolved"
else
    tap_fail "regspec-forms.xml: -t svd reads back with each derivedFrom resolved" "$(grep -A2 error "$tmp/err" | head -n 6)"
fi
# dim-of= on instances: UARTA and UARTB are one peripheral list again, UART%s with dimIndex A,B
# 0x400 apart (CMSIS-SVD: dimElementGroup before <name>); UART2, not of the list, is written
# whole: derived from the list it would take the list's <dim> (svdconv's SvdItem::CopyDim) and,
# without '%s' in its name, be an error
want=$'      <dim>2</dim>\n      <dimIncrement>0x400</dimIncrement>\n      <dimIndex>A,B</dimIndex>\n      <name>UART%s</name>'
want2=$'    <peripheral>\n      <name>UART2</name>'
if grep -qzF -- "$want" "$tmp/forms.svd" 2>/dev/null && grep -qzF -- "$want2" "$tmp/forms.svd" &&
    ! grep -qF 'derivedFrom="UART%s"' "$tmp/forms.svd" &&
    [ "$(grep -c '<name>UART' "$tmp/forms.svd")" = 2 ]; then
    tap_ok "regspec-forms.xml: -t svd writes instances of one dim-of= as one peripheral list"
else
    tap_fail "regspec-forms.xml: -t svd writes instances of one dim-of= as one peripheral list" \
        "$(grep -n -B4 -A1 '<name>UART' "$tmp/forms.svd" | head -n 14)"
fi
# svdconv's CMSIS names (docs/svd.md, "Names as svdconv makes them"), worked out by hand: ALT's
# alternate-group="G" makes its member prependToName + ALT_G + appendToName (P_ALT_G_A); TIMER1's
# own-type="true" gives it the type headerDefinitionsPrefix + its header-struct + _Type
# (DM_TIM1_Type) whose members carry its own prepend= and append= (Q_CTRL_B, Q_ALT_G_B)
if "$regc" "$spec" -t cmsis -o "$tmp/forms_cmsis.h" 2>"$tmp/err"; then
    missing=""
    for want in '__IM uint32_t P_ALT_G_A; /*!< 0x0 */' '} DM_TIM_Type;' '} DM_TIM1_Type;' \
        '__IOM uint32_t Q_CTRL_B; /*!< 0x0 */' '__IM uint32_t Q_ALT_G_B; /*!< 0x0 */' \
        '#define DM_TIMER0 ((DM_TIM_Type*) DM_TIMER0_BASE)' \
        '#define DM_TIMER1 ((DM_TIM1_Type*) DM_TIMER1_BASE)'; do
        grep -qF -- "$want" "$tmp/forms_cmsis.h" || missing="$missing [$want]"
    done
    if [ -z "$missing" ]; then
        tap_ok "regspec-forms.xml: -t cmsis names from alternate-group= and an instance's own-type= header-struct= prepend= append="
    else
        tap_fail "regspec-forms.xml: -t cmsis names from alternate-group= and an instance's own-type= header-struct= prepend= append=" "missing:$missing"
    fi
else
    tap_fail "regspec-forms.xml: -t cmsis" "$(head -n 3 "$tmp/err")"
fi
tap_done
