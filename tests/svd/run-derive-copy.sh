#!/usr/bin/env bash
# tests/svd/run-derive-copy.sh - a derived peripheral that writes no registers but register
# properties (access, resetValue, resetMask, protection) is not "modified" for svdconv
# (SvdPeripheral::ProcessXmlElement calls SetModified only for headerStructName, prependToName,
# appendToName, size, addressBlock and registers), so its -t cmsis pointer has its base's type
# (SvdPeripheral::GetHeaderTypeName), and it has no type or _Pos/_Msk macros of its own
# (docs/svd.md, "Derived peripherals"):
#  - nRF51's SPI1, TWI1, TIMER1, TIMER2 and RTC1 write their base's access again: Nordic's
#    nrf51.h (nrfx, mdk/nrf51.h; not in the test set, so its lines are quoted here) declares
#    NRF_SPI1 ((NRF_SPI_Type*) NRF_SPI1_BASE), NRF_TWI1 with NRF_TWI_Type, NRF_TIMER1 and
#    NRF_TIMER2 with NRF_TIMER_Type, NRF_RTC1 with NRF_RTC_Type; nrf51_bitfields.h (in the test
#    set) has no SPI1_, TWI1_, TIMER1_, TIMER2_ or RTC1_ macro, and neither may regc's header;
#  - tests/svd/derive-copy.svd, its -t cmsis worked out by hand from those rules: TIMER1 writes
#    TIMER0's access and resetValue again (TIMER0's block), TIMER2 read-only (a block of its own,
#    whose fields are read-only in -t json, typed TIMER0_Type: type_of), TIMER3 TIMER2's access
#    again (TIMER2's block); one type, TIMER0_Type, four pointers of it, TIMER0's macros only;
#    values are compared as parsed: TIMER1's access misspelled "readwrite" (read-write) still
#    leaves it in TIMER0's block;
#  - its -t regspec says type-of="TIMER0" and reads back to the same -t cmsis and -t regspec;
#  - its -t svd validates against CMSIS-SVD.xsd, writes TIMER2 derived with <access>read-only
#    and no registers, and TIMER0's access once, on the peripheral, where its registers take it
#    from (none of its fields writes one), without a diagnostic; read back, TIMER2's and
#    TIMER3's fields are read-only again (they take TIMER2's access), TIMER0's and TIMER1's
#    read-write, and -t cmsis is the same;
#  - tests/svd/own-props.svd: each register property where the file writes it (the device, the
#    peripheral, a cluster, the register, the field), worked out by hand from the SVD rules (a
#    level's own replaces what it takes from above; a field's access is its register's unless
#    it writes one): the model's sizes, resets, resetMasks, protections and accesses, for
#    UART0 and for UART1 (derived, writing read-write and reset 0x9 only), read from the file
#    and from its -t svd; the -t svd writes UART0's properties once, on the peripheral, DATA
#    (which takes them all) none, CTRL its own.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh
dc=tests/svd/derive-copy.svd

# --- nRF51 against Nordic's headers
nh=$svd/vendor-headers/nordic
if [ ! -f "$nh/nrf51.svd" ]; then
    tap_skip "nrf51: derived peripherals with their base's type" "$svd_why"
elif ! "$regc" "$nh/nrf51.svd" -t cmsis -o "$tmp/nrf51.h" 2>/dev/null; then
    tap_fail "nrf51: regc -t cmsis"
else
    cat >"$tmp/nrf51.want" <<'H'
#define NRF_SPI1 ((NRF_SPI_Type*) NRF_SPI1_BASE)
#define NRF_TWI1 ((NRF_TWI_Type*) NRF_TWI1_BASE)
#define NRF_TIMER1 ((NRF_TIMER_Type*) NRF_TIMER1_BASE)
#define NRF_TIMER2 ((NRF_TIMER_Type*) NRF_TIMER2_BASE)
#define NRF_RTC1 ((NRF_RTC_Type*) NRF_RTC1_BASE)
H
    grep -E '^#define NRF_(SPI1|TWI1|TIMER1|TIMER2|RTC1) ' "$tmp/nrf51.h" >"$tmp/nrf51.got"
    tap_diff "nrf51: SPI1, TWI1, TIMER1, TIMER2, RTC1 have their base's type, as in nrf51.h" \
        "$tmp/nrf51.want" "$tmp/nrf51.got"
    own='^#define (SPI1|TWI1|TIMER1|TIMER2|RTC1)_[A-Za-z0-9_]*_(Pos|Msk)|NRF_(SPI1|TWI1|TIMER1|TIMER2|RTC1)_Type'
    vendor=$(grep -cE "$own" "$nh/nrf51_bitfields.h")
    ours=$(grep -cE "$own" "$tmp/nrf51.h")
    if [ "$vendor" -eq 0 ] && [ "$ours" -eq 0 ]; then
        tap_ok "nrf51: no type or _Pos/_Msk of their own (none in nrf51_bitfields.h either)"
    else
        tap_fail "nrf51: no type or _Pos/_Msk of their own" \
            "nrf51_bitfields.h has $vendor, regc's header $ours: $(grep -m 3 -E "$own" "$tmp/nrf51.h")"
    fi
fi

# --- the hand-worked file
# The lines of a -t cmsis header that name peripheral types, pointers and _Pos macros.
cmsis_facts() {
    grep -E '^} [A-Za-z0-9_]+_Type;|^#define [A-Z0-9]+ \(\(|_Pos ' "$1" | grep -v '^} IRQn_Type;' |
        sed 's/ *\/\*.*//'
}
cat >"$tmp/dc.want" <<'H'
} TIMER0_Type;
#define TIMER0 ((TIMER0_Type*) TIMER0_BASE)
#define TIMER1 ((TIMER0_Type*) TIMER1_BASE)
#define TIMER2 ((TIMER0_Type*) TIMER2_BASE)
#define TIMER3 ((TIMER0_Type*) TIMER3_BASE)
#define TIMER0_CTRL_EN_Pos (0UL)
#define TIMER0_CTRL_MODE_Pos (1UL)
#define TIMER0_CNT_CNT_Pos (0UL)
H
if "$regc" "$dc" -t cmsis -o "$tmp/dc.h" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
    cmsis_facts "$tmp/dc.h" >"$tmp/dc.got"
    tap_diff "derive-copy.svd: -t cmsis has one type, TIMER0's, for all four" "$tmp/dc.want" "$tmp/dc.got"
else
    tap_fail "derive-copy.svd: -t cmsis without a diagnostic" "$(head -n 3 "$tmp/err")"
fi
# The blocks of derive-copy.svd (its -t json $1): instances, type_of and their fields' access.
dc_blocks() {
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
got = {b["name"]: ([i["name"] for i in b["instances"]], b["svd"]["type_of"],
                   sorted({f["access"] for r in b["registers"] for f in r["fields"] if f["name"] != "gap"}))
       for b in d["blocks"]}
want = {"TIMER0": (["TIMER0", "TIMER1"], None, ["read-write"]),
        "TIMER2": (["TIMER2", "TIMER3"], "TIMER0", ["read-only"])}
print(f"got {got}, expected {want}")
sys.exit(0 if got == want else 1)
PY
}
if "$regc" "$dc" -t json -o "$tmp/dc.json" 2>/dev/null && dc_blocks "$tmp/dc.json" >"$tmp/py" 2>&1; then
    tap_ok "derive-copy.svd: TIMER1 shares TIMER0's block; TIMER2 has its own, read-only, type_of TIMER0; TIMER3 shares it"
else
    tap_fail "derive-copy.svd: the blocks in -t json" "$(head -n 3 "$tmp/py")"
fi

# TIMER1's access misspelled "readwrite", which the reader takes as read-write (with the
# warning at TIMER1's <access>, which no register of its reads): still TIMER0's block.
sed '/<name>TIMER1</,/<\/peripheral>/s|<access>read-write</access>|<access>readwrite</access>|' "$dc" >"$tmp/mis.svd"
line=$(grep -n '<access>readwrite</access>' "$tmp/mis.svd" | cut -d: -f1)
if [ -n "$line" ] && "$regc" "$tmp/mis.svd" -t json -o "$tmp/mis.json" 2>"$tmp/mis.err" &&
    grep -F "$tmp/mis.svd:$line:" "$tmp/mis.err" |
        grep -qF "warning: access 'readwrite' is not SVD: taken as 'read-write'" &&
    python3 -c 'import json, sys; b = {b["name"]: [i["name"] for i in b["instances"]] for b in json.load(open(sys.argv[1]))["blocks"]}; sys.exit(b["TIMER0"] != ["TIMER0", "TIMER1"])' "$tmp/mis.json"; then
    tap_ok "derive-copy.svd: TIMER1's access misspelled readwrite is read-write: TIMER0's block still"
else
    tap_fail "derive-copy.svd: TIMER1's access misspelled readwrite is read-write: TIMER0's block still" \
        "$(head -n 3 "$tmp/mis.err")"
fi

# --- through -t regspec
if "$regc" "$dc" -t regspec -o "$tmp/dc.xml" 2>"$tmp/err" && grep -q '<block name="TIMER2" type-of="TIMER0">' "$tmp/dc.xml" &&
    "$regc" "$tmp/dc.xml" -t cmsis -o "$tmp/dc2.h" 2>>"$tmp/err" &&
    "$regc" "$tmp/dc.xml" -t regspec -o "$tmp/dc2.xml" 2>>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    cmp -s "$tmp/dc.h" "$tmp/dc2.h" && cmp -s "$tmp/dc.xml" "$tmp/dc2.xml"; then
    tap_ok "derive-copy.svd: -t regspec writes type-of=\"TIMER0\"; read back, the same -t cmsis and -t regspec"
else
    tap_fail "derive-copy.svd: -t regspec and back" "$(head -n 3 "$tmp/err"; diff "$tmp/dc.h" "$tmp/dc2.h" | head -n 5)"
fi

# --- through -t svd
"$regc" "$dc" -t svd -o "$tmp/dc.svd" 2>"$tmp/err"
if [ ! -s "$tmp/err" ] && python3 - "$tmp/dc.svd" >"$tmp/py" 2>&1 <<'PY'; then
import sys, xml.etree.ElementTree as ET
p = {e.findtext("name"): e for e in ET.parse(sys.argv[1]).getroot().iter("peripheral")}
t0, t2 = p["TIMER0"], p["TIMER2"]
got = (t2.get("derivedFrom"), t2.findtext("access"), t2.find("registers"), t2.find("addressBlock"),
       t0.findtext("access"), [e.findtext("name") for e in t0.iter() if e.find("access") is not None])
print(f"TIMER2: derivedFrom, access, registers, addressBlock; TIMER0's access, what else writes one {got}")
sys.exit(0 if got == ("TIMER0", "read-only", None, None, "read-write", ["TIMER0"]) else 1)
PY
    tap_ok "derive-copy.svd: -t svd writes TIMER2 derived, read-only, no registers; TIMER0's access on TIMER0 only; no diagnostic"
else
    tap_fail "derive-copy.svd: -t svd of TIMER2 and TIMER0" "$(head -n 3 "$tmp/err" "$tmp/py")"
fi
if "$regc" "$tmp/dc.svd" -t json -o "$tmp/dc3.json" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    dc_blocks "$tmp/dc3.json" >"$tmp/py" 2>&1; then
    tap_ok "derive-copy.svd: its -t svd read back: TIMER2's and TIMER3's fields read-only, TIMER0's and TIMER1's read-write"
else
    tap_fail "derive-copy.svd: its -t svd read back: TIMER2's and TIMER3's fields read-only" "$(head -n 3 "$tmp/err" "$tmp/py")"
fi
if ! command -v xmllint >/dev/null; then
    tap_skip "derive-copy.svd: -t svd against CMSIS-SVD.xsd" "xmllint is not installed"
elif [ ! -f "$svd/schema/CMSIS-SVD.xsd" ]; then
    tap_skip "derive-copy.svd: -t svd against CMSIS-SVD.xsd" "$svd_why"
elif xmllint --noout --schema "$svd/schema/CMSIS-SVD.xsd" "$tmp/dc.svd" 2>"$tmp/xerr"; then
    tap_ok "derive-copy.svd: -t svd validates against CMSIS-SVD.xsd"
else
    tap_fail "derive-copy.svd: -t svd validates against CMSIS-SVD.xsd" "$(head -n 3 "$tmp/xerr")"
fi
if "$regc" "$tmp/dc.svd" -t cmsis -o "$tmp/dc3.h" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    cmp -s "$tmp/dc.h" "$tmp/dc3.h"; then
    tap_ok "derive-copy.svd: its -t svd read back gives the same -t cmsis"
else
    tap_fail "derive-copy.svd: its -t svd read back gives the same -t cmsis" "$(head -n 3 "$tmp/err"; diff "$tmp/dc.h" "$tmp/dc3.h" | head -n 5)"
fi

# --- own-props.svd: each property where it was written
op=tests/svd/own-props.svd
# The registers of its -t json $1, against the SVD rules worked out by hand (the file's comment).
op_regs() {
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
got = {(b["name"], r["name"]): (r["size"], r["reset"], r["svd"]["protection"], r["svd"]["reset_mask"],
                                [(f["name"], f["access"]) for f in r["fields"] if f["name"] != "gap"])
       for b in d["blocks"] for r in b["registers"]}
got["type_of"] = {b["name"]: b["svd"]["type_of"] for b in d["blocks"]}
want = {
    ("UART0", "DATA"): (16, "0x5", "s", "0xff", [("LO", "read-only"), ("HI", "write-only")]),
    ("UART0", "CTRL"): (32, "0x1", "n", "0xffffffff", [("EN", "read-write")]),
    ("UART0", "CL_STAT"): (16, "0x7", "s", "0xff", [("F", "read-only")]),
    ("UART1", "DATA"): (16, "0x9", "s", "0xff", [("LO", "read-write"), ("HI", "write-only")]),
    ("UART1", "CTRL"): (32, "0x1", "n", "0xffffffff", [("EN", "read-write")]),
    ("UART1", "CL_STAT"): (16, "0x7", "s", "0xff", [("F", "read-write")]),
    "type_of": {"UART0": None, "UART1": "UART0"},
}
for k in want:
    if got.get(k) != want[k]:
        print(f"{k}: got {got.get(k)}, expected {want[k]}")
sys.exit(0 if got == want else 1)
PY
}
if "$regc" "$op" -t json -o "$tmp/op.json" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    op_regs "$tmp/op.json" >"$tmp/py" 2>&1; then
    tap_ok "own-props.svd: each register's properties as the SVD rules give them"
else
    tap_fail "own-props.svd: each register's properties as the SVD rules give them" "$(head -n 3 "$tmp/err" "$tmp/py")"
fi
if "$regc" "$op" -t svd -o "$tmp/op.svd" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    "$regc" "$tmp/op.svd" -t json -o "$tmp/op2.json" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    op_regs "$tmp/op2.json" >"$tmp/py" 2>&1; then
    tap_ok "own-props.svd: its -t svd read back, the same properties: each register's own kept beside its peripheral's"
else
    tap_fail "own-props.svd: its -t svd read back, the same properties" "$(head -n 3 "$tmp/err" "$tmp/py")"
fi
if [ -s "$tmp/op.svd" ] && python3 - "$tmp/op.svd" >"$tmp/py" 2>&1 <<'PY'; then
import sys, xml.etree.ElementTree as ET
props = ("size", "access", "protection", "resetValue", "resetMask")
p = {e.findtext("name"): e for e in ET.parse(sys.argv[1]).getroot().iter("peripheral")}
regs = {r.findtext("name"): r for r in p["UART0"].iter("register")}
got = ([p["UART0"].findtext(t) for t in props], [p["UART1"].findtext(t) for t in props],
       [t for t in props if regs["DATA"].find(t) is not None],
       [regs["CTRL"].findtext(t) for t in props])
want = (["16", "read-only", "s", "0x5", "0xFF"], [None, "read-write", None, "0x9", None], [],
        ["32", None, "n", "0x1", "0xFFFFFFFF"])
print(f"UART0's, UART1's, DATA's, CTRL's: got {got}, expected {want}")
sys.exit(0 if got == want else 1)
PY
    tap_ok "own-props.svd: -t svd writes UART0's properties on UART0, UART1's own on UART1, DATA none, CTRL its own"
else
    tap_fail "own-props.svd: -t svd writes each property where it was written" "$(head -n 3 "$tmp/py")"
fi
tap_done
