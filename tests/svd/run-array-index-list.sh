#!/usr/bin/env bash
# tests/svd/run-array-index-list.sh - tests/svd/array-index-list.xml: the elements of a dim-of=
# list of instances and of a cluster array the SVD reader expanded per index have one
# <array-index>, their first element's, also where a later one gives none (docs/regspec.md): it
# compiles without a diagnostic, -t json gives each element the index as UA and E0 write it
# (the facts below, from the file), and -t svd writes it once per array.
# tests/svd/array-index-reglist.svd: a register list CH%s_CFG (dimIndex RX,TX,ERR) with a
# dimArrayIndex, ChanIdx, survives -t regspec: each element of the dim-of= list carries the list's
# <array-index>, the regspec compiles without a diagnostic and -t json gives each element the
# index, and -t svd of the regspec writes CH%s_CFG as one list with that dimArrayIndex (facts
# written by hand from the file and CMSIS-SVD.xsd's dimElementGroup). A second list of the same
# pattern (CH8_CFG, CH9_CFG at 0x40, SpareIdx) stays a list of its own through both: one
# dim-of= pattern, two lists by their spacing, each with its own index; so do two peripheral
# lists of one pattern in one block (UART%s: UART0-1 LowUart, UART4-5 HighUart at 0x40010000).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
spec=tests/svd/array-index-list.xml

if ! "$regc" "$spec" -t json -o "$tmp/t.json" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
    tap_fail "array-index-list.xml: compiled without a diagnostic" "$(head -n 5 "$tmp/err")"
    tap_done
    exit 0
fi
tap_ok "array-index-list.xml: compiled without a diagnostic"

got=$(python3 - "$tmp/t.json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["blocks"][0]
def words(x):
    if x is None:
        return "none"
    vals = ",".join(f"{v['name']}={int(v['value'], 0)}/{v['desc']}" for v in x["values"])
    return f"{x['enum_name']}:{vals}"
for i in b["instances"]:
    print(i["name"], words(i["svd"]["array_index"]))
for c in b["svd"]["clusters"]:
    print(c["name"], words(c["array_index"]))
PY
)
want="UA UIdx:Main=0/None,Last=2/the third
UB UIdx:Main=0/None,Last=2/the third
UC UIdx:Main=0/None,Last=2/the third
E0 None:Second=1/None
E1 None:Second=1/None"
if [ "$got" = "$want" ]; then
    tap_ok "array-index-list.xml: every element has its array's <array-index> (-t json)"
else
    tap_fail "array-index-list.xml: every element has its array's <array-index> (-t json)" \
        "got:" "$got" "want:" "$want"
fi

if "$regc" "$spec" -t svd -o "$tmp/t.svd" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    [ "$(grep -c '<dimArrayIndex>' "$tmp/t.svd")" = 2 ] &&
    [ "$(grep -c '<name>Last</name>' "$tmp/t.svd")" = 1 ] &&
    [ "$(grep -c '<name>Second</name>' "$tmp/t.svd")" = 1 ]; then
    tap_ok "array-index-list.xml: -t svd writes one dimArrayIndex per array"
else
    tap_fail "array-index-list.xml: -t svd writes one dimArrayIndex per array" \
        "$(head -n 5 "$tmp/err")" "$(grep -n -A3 'dimArrayIndex' "$tmp/t.svd" 2>/dev/null | head -20)"
fi

# ---- a register list's dimArrayIndex through -t regspec and back to SVD
svd=tests/svd/array-index-reglist.svd
if ! "$regc" "$svd" -t regspec -o "$tmp/r.xml" 2>"$tmp/err" ||
    ! "$regc" "$tmp/r.xml" -t json -o "$tmp/r.json" 2>>"$tmp/err" || [ -s "$tmp/err" ]; then
    tap_fail "array-index-reglist.svd: -t regspec compiles without a diagnostic" "$(head -n 5 "$tmp/err")"
    tap_done
    exit 0
fi
tap_ok "array-index-reglist.svd: -t regspec compiles without a diagnostic"
got=$(python3 - "$tmp/r.xml" "$tmp/r.json" <<'PY'
import json, sys
import xml.etree.ElementTree as ET
def words(name, values):
    return name + ":" + ",".join("%s=%d/%s" % v for v in values)
for r in ET.parse(sys.argv[1]).find("block").iter("register"):  # DMA's
    ix = r.find("array-index")
    print("regspec", r.get("name"), r.get("dim-of") or "-", "none" if ix is None else
          words(ix.get("header-enum-name"), [(v.get("name"), int(v.get("value"), 0), v.get("desc"))
                                             for v in ix.findall("index")]))
blocks = json.load(open(sys.argv[2]))["blocks"]
for r in blocks[0]["registers"] + blocks[1]["instances"]:
    ix = r["svd"]["array_index"]
    print("json", r["name"], "none" if ix is None else
          words(ix["enum_name"], [(v["name"], int(v["value"], 0), v["desc"]) for v in ix["values"]]))
PY
)
chan="ChanIdx:Receive=0/the receive channel,Transmit=1/None,Error=2/None"
spare="SpareIdx:SpareA=0/None,SpareB=1/None"
want="regspec DATA{0-1} - DataIdx:Low=0/None,High=1/None
regspec CHRX_CFG CH%s_CFG $chan
regspec CHTX_CFG CH%s_CFG $chan
regspec CHERR_CFG CH%s_CFG $chan
regspec CH8_CFG CH%s_CFG $spare
regspec CH9_CFG CH%s_CFG $spare
json DATA DataIdx:Low=0/None,High=1/None
json CHRX_CFG $chan
json CHTX_CFG $chan
json CHERR_CFG $chan
json CH8_CFG $spare
json CH9_CFG $spare
json UART0 LowUart:Uart0=0/None,Uart1=1/None
json UART1 LowUart:Uart0=0/None,Uart1=1/None
json UART4 HighUart:Uart4=0/None,Uart5=1/None
json UART5 HighUart:Uart4=0/None,Uart5=1/None"
if [ "$got" = "$want" ]; then
    tap_ok "array-index-reglist.svd -t regspec: each element of CH%s_CFG has the list's <array-index>"
else
    tap_fail "array-index-reglist.svd -t regspec: each element of CH%s_CFG has the list's <array-index>" \
        "got:" "$got" "want:" "$want"
fi
if "$regc" "$tmp/r.xml" -t svd -o "$tmp/r.svd" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
    got=$(python3 - "$tmp/r.svd" <<'PY'
import sys
import xml.etree.ElementTree as ET
for r in ET.parse(sys.argv[1]).find("peripherals/peripheral").iter("register"):  # DMA's
    ix = r.find("dimArrayIndex")
    vals = [] if ix is None else [(v.findtext("name"), int(v.findtext("value"), 0), v.findtext("description"))
                                  for v in ix.findall("enumeratedValue")]
    print(r.findtext("name"), r.findtext("dim"), int(r.findtext("dimIncrement"), 0), r.findtext("dimIndex"),
          int(r.findtext("addressOffset"), 0), None if ix is None else ix.findtext("headerEnumName"), vals)
for p in ET.parse(sys.argv[1]).iter("peripheral"):
    ix = p.find("dimArrayIndex")
    if p.findtext("dim"):
        print(p.findtext("name"), p.findtext("dim"), p.findtext("dimIndex"), int(p.findtext("baseAddress"), 0),
              None if ix is None else ix.findtext("headerEnumName"))
PY
)
    want="DATA[%s] 2 4 None 0 DataIdx [('Low', 0, None), ('High', 1, None)]
CH%s_CFG 3 4 RX,TX,ERR 16 ChanIdx [('Receive', 0, 'the receive channel'), ('Transmit', 1, None), ('Error', 2, None)]
CH%s_CFG 2 4 8,9 64 SpareIdx [('SpareA', 0, None), ('SpareB', 1, None)]
UART%s 2 0,1 1073745920 LowUart
UART%s 2 4,5 1073807360 HighUart"
    if [ "$got" = "$want" ]; then
        tap_ok "array-index-reglist.svd -t regspec -t svd: CH%s_CFG one list again, with its dimArrayIndex"
    else
        tap_fail "array-index-reglist.svd -t regspec -t svd: CH%s_CFG one list again, with its dimArrayIndex" \
            "got:" "$got" "want:" "$want"
    fi
else
    tap_fail "array-index-reglist.svd -t regspec -t svd" "$(head -n 5 "$tmp/err")"
fi
tap_done
