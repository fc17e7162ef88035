#!/usr/bin/env bash
# tests/svd/run-fuzz-findings.sh - what fuzz_svd (tests/fuzz/fuzz_svd.c) found, each file a
# reduced input that says by the CMSIS-SVD specification what is right. The facts are written
# by hand from the files:
#   - fuzz-field-copy.svd: TMR.R2, derived from C.R, holds a copy of C.R's field G, whose
#     derivedFrom 'R.F' names nothing from TMR: -t svd writes the copy without it (C.R's G keeps
#     it), says so (svd-out-dropped), and what it writes reads back without an error, to the same
#     fields (G read-only, F's access, in both registers);
#   - fuzz-list-repaired.svd: lists whose names are no C identifiers (svd-name): TIM.ER[%s] read
#     as TIM_ER0, TIM_ER1 is written as the array TIM_ER[%s]; 1T[%s], read as _1T0, _1T1, which
#     no repair of the list's name makes, one each, _1T1 derived from _1T0; SPI+%s, derived from
#     UART+%s, as SPI_%s derived from UART_%s, both lists; it reads back to the same peripherals
#     at the same addresses, each with its registers;
#   - fuzz-set-values-lost.svd: SEL's set, derived from ModeE, lost its one value of its own (too
#     wide for SEL's bit): -t regspec writes it without its derived-from (which would give it
#     ModeE's values, Auto too wide again), says so (regspec-out-dropped), and the regspec loads
#     without a diagnostic, SEL without values, MODE with Off, On, Auto; -t svd likewise;
#   - fuzz-no-registers.svd: a peripheral without registers: -t cmsis gives its base address and
#     no instance pointer (there is no struct), -t c and -t cmsis-enum write it (the fault,
#     qsort(NULL, 0, ...), shows under `make check SAN=1`: UBSan stops regc);
#   - name-repair-derived.svd (left open by the campaign, mended beside it): peripheral 'int' (a
#     keyword) is read as int_ and register '1CTL' as _1CTL (svd-name); P2 derived from 'int' and
#     CTL2 derived from '1CTL' are written derivedFrom int_ and _1CTL, the names the output
#     holds, and read back to the same registers: int_ and P2 each with _1CTL and CTL2, field EN.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/testset.sh

cat >"$tmp/facts.py" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    for i in b["instances"] or [{"name": b["name"], "address": None}]:
        for r in b["registers"]:
            for f in r["fields"]:
                if not f["implicit"]:
                    print("%s.%s.%s [%d:%d] %s" % (i["name"], r["name"], f["name"], f["msb"],
                                                  f["lsb"], f["access"]))
PY
# read_back NAME SVD: -t svd of SVD, its diagnostics in $tmp/NAME.err, read back by regc --check
# without a diagnostic; the output in $tmp/NAME.svd
read_back() {
    if ! "$regc" "$2" -t svd -o "$tmp/$1.svd" 2>"$tmp/$1.err"; then
        tap_fail "$1: -t svd" "$(head -n 3 "$tmp/$1.err")"
        return
    fi
    local out
    if out=$("$regc" --check "$tmp/$1.svd" 2>&1) && [ -z "$out" ]; then
        tap_ok "$1: what -t svd writes reads back without a diagnostic"
    else
        tap_fail "$1: what -t svd writes reads back without a diagnostic" "$(head -n 3 <<<"$out")"
    fi
    svd_schema_check "$1: -t svd validates against CMSIS-SVD.xsd" "$tmp/$1.svd"
}

# (xml.etree: the fields of register REG as -t svd wrote them, each "NAME derivedFrom")
written_fields() {
    python3 -c '
import sys, xml.etree.ElementTree as ET
for r in ET.parse(sys.argv[1]).iter("register"):
    if r.findtext("name") == sys.argv[2]:
        for f in r.iter("field"):
            print(f.findtext("name"), f.get("derivedFrom"))' "$@"
}

# fuzz-field-copy.svd
spec=tests/svd/fuzz-field-copy.svd
read_back field-copy "$spec"
tap_check "field-copy: the warning names the copy G of R2 and its derivedFrom, at its line" \
    grep -qF "fuzz-field-copy.svd:21: warning: field 'G' of register 'R2' is written whole, without its derivedFrom 'R.F'" "$tmp/field-copy.err"
printf 'F None\nG None\n' >"$tmp/want"
written_fields "$tmp/field-copy.svd" R2 >"$tmp/got"
tap_diff "field-copy: R2's fields written without a derivedFrom" "$tmp/want" "$tmp/got"
printf 'F None\nG R.F\n' >"$tmp/want"
written_fields "$tmp/field-copy.svd" R >"$tmp/got"
tap_diff "field-copy: C.R's G keeps its derivedFrom 'R.F'" "$tmp/want" "$tmp/got"
cat >"$tmp/want" <<'WANT'
TMR.C_R.F [0:0] read-only
TMR.C_R.G [1:1] read-only
TMR.R2.F [0:0] read-only
TMR.R2.G [1:1] read-only
WANT
svd_json_facts "the fields, G read-only as F" "field-copy read back" "$tmp/field-copy.svd"

# fuzz-list-repaired.svd
spec=tests/svd/fuzz-list-repaired.svd
read_back list-repaired "$spec"
python3 -c '
import sys, xml.etree.ElementTree as ET
for p in ET.parse(sys.argv[1]).iter("peripheral"):
    print(p.findtext("name"), p.get("derivedFrom"), p.findtext("dim"), p.findtext("baseAddress"))' \
    "$tmp/list-repaired.svd" >"$tmp/got"
cat >"$tmp/want" <<'WANT'
TIM_ER[%s] None 2 0x40000000
_1T0 None None 0x40001000
_1T1 _1T0 None 0x40001100
UART_%s None 2 0x40002000
SPI_%s UART_%s 2 0x40003000
WANT
tap_diff "list-repaired: the peripherals -t svd writes: names, derivedFrom, dim, base" \
    "$tmp/want" "$tmp/got"
cat >"$tmp/want" <<'WANT'
SPI_0.DATA.DATA [31:0] read-write
SPI_1.DATA.DATA [31:0] read-write
TIM_ER0.CTL.CTL [31:0] read-write
TIM_ER1.CTL.CTL [31:0] read-write
UART_0.DATA.DATA [31:0] read-write
UART_1.DATA.DATA [31:0] read-write
_1T0.CNT.CNT [31:0] read-write
_1T1.CNT.CNT [31:0] read-write
WANT
svd_json_facts "every peripheral's register" "list-repaired read back" "$tmp/list-repaired.svd"

# fuzz-set-values-lost.svd
spec=tests/svd/fuzz-set-values-lost.svd
cat >"$tmp/values.py" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    for r in b["registers"]:
        for f in r["fields"]:
            if not f["implicit"]:
                print(r["name"], f["name"], " ".join(v["name"] for v in f["values"]))
PY
printf 'CTRL MODE Off On Auto\nCTRL SEL \n' >"$tmp/want"
for t in regspec svd; do
    out=$tmp/lost.$t
    "$regc" "$spec" -t $t -o "$out" 2>"$tmp/lost.err"
    tap_check "set-values-lost: -t $t says it writes SEL's set without its derivedFrom, at its line" \
        grep -qE "fuzz-set-values-lost.svd:35: warning: enum.* of field 'SEL' of register 'CTRL' is written (whole, )?without its derived-?[fF]rom 'ModeE': it holds no value, where its base holds some" "$tmp/lost.err"
    if "$regc" "$out" -t json -o "$tmp/lost.json" 2>"$tmp/lost.err" && [ ! -s "$tmp/lost.err" ]; then
        python3 "$tmp/values.py" "$tmp/lost.json" >"$tmp/got"
        tap_diff "set-values-lost: -t $t reads back without a diagnostic, SEL without values" "$tmp/want" "$tmp/got"
    else
        tap_fail "set-values-lost: -t $t reads back without a diagnostic, SEL without values" "$(head -n 3 "$tmp/lost.err")"
    fi
done

# fuzz-no-registers.svd
spec=tests/svd/fuzz-no-registers.svd
if "$regc" "$spec" -t cmsis -o "$tmp/none.h" 2>"$tmp/none.err" && [ ! -s "$tmp/none.err" ]; then
    tap_check "no-registers: -t cmsis gives TIMER_BASE 0x40000000UL" \
        grep -qxF "#define TIMER_BASE 0x40000000UL" "$tmp/none.h"
    if grep -q "TIMER_Type\|define TIMER " "$tmp/none.h"; then
        tap_fail "no-registers: -t cmsis declares no struct nor instance pointer" "$(grep "TIMER" "$tmp/none.h")"
    else
        tap_ok "no-registers: -t cmsis declares no struct nor instance pointer"
    fi
else
    tap_fail "no-registers: -t cmsis writes without a diagnostic" "$(head -n 3 "$tmp/none.err")"
fi
for t in c cmsis-enum svd; do
    tap_check "no-registers: -t $t writes without a diagnostic" \
        bash -c '"$1" "$2" -t "$3" -o "$4" 2>"$4.err" && [ ! -s "$4.err" ]' _ "$regc" "$spec" "$t" "$tmp/none.$t"
done
# name-repair-derived.svd
spec=tests/svd/name-repair-derived.svd
read_back name-repair "$spec"
python3 -c '
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1])
for p in t.iter("peripheral"):
    print("peripheral", p.findtext("name"), p.get("derivedFrom"))
for r in t.iter("register"):
    print("register", r.findtext("name"), r.get("derivedFrom"))' "$tmp/name-repair.svd" >"$tmp/got"
cat >"$tmp/want" <<'WANT'
peripheral int_ None
peripheral P2 int_
register _1CTL None
register CTL2 _1CTL
WANT
tap_diff "name-repair: derivedFrom written by the repaired names (int_, _1CTL)" "$tmp/want" "$tmp/got"
cat >"$tmp/want" <<'WANT'
P2.CTL2.EN [0:0] read-write
P2._1CTL.EN [0:0] read-write
int_.CTL2.EN [0:0] read-write
int_._1CTL.EN [0:0] read-write
WANT
svd_json_facts "both peripherals' registers" "name-repair read back" "$tmp/name-repair.svd"
tap_done
