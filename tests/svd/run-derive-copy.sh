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
#    and no registers, warns that TIMER2's fields read back read-write (svd-out-dropped), and
#    reads back to the same -t cmsis.
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
if "$regc" "$dc" -t json -o "$tmp/dc.json" 2>/dev/null && python3 - "$tmp/dc.json" >"$tmp/py" 2>&1 <<'PY'; then
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
if grep -q "peripheral 'TIMER2' is written derived from 'TIMER0' without registers.*\[-Wsvd-out-dropped\]" "$tmp/err" &&
    python3 - "$tmp/dc.svd" >"$tmp/py" 2>&1 <<'PY'; then
import sys, xml.etree.ElementTree as ET
p = {e.findtext("name"): e for e in ET.parse(sys.argv[1]).getroot().iter("peripheral")}
t2 = p["TIMER2"]
got = (t2.get("derivedFrom"), t2.findtext("access"), t2.find("registers"), t2.find("addressBlock"))
print(f"TIMER2: derivedFrom, access, registers, addressBlock {got}")
sys.exit(0 if got == ("TIMER0", "read-only", None, None) else 1)
PY
    tap_ok "derive-copy.svd: -t svd writes TIMER2 derived, read-only, no registers, and warns of its fields"
else
    tap_fail "derive-copy.svd: -t svd of TIMER2" "$(head -n 3 "$tmp/err" "$tmp/py")"
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
tap_done
