#!/usr/bin/env bash
# tests/svd/run-svd-out.sh - `regc -t svd` (docs/svd.md, "SVD out"):
#   - the five Intel specs (MSR and PCI config space) are refused: exit status 1, an
#     error naming the space, no output file;
#   - tests/svd/features.svd written back keeps what it says as it says it (facts below
#     written by hand from the file: derivedFrom on peripherals and registers, a [%s]
#     array, a %s list with dimIndex, a cluster array, a nested cluster, enumerations
#     per usage with don't-care bits and isDefault, oneToClear, interrupts), and the
#     output validates against ARM's schema;
#   - text with < & " ' > in it is escaped: the file is well-formed and reads back equal;
#   - tests/svd/out-all.svd (every element -t svd writes) round-trips and validates, and so
#     does tests/svd/derive-regs.svd (a derived peripheral written with its own register alone);
#   - a cluster array of named indices the reader expands comes back as one array;
#   - two clusters of one list written apart, alike but for their own headerEnumNames, are
#     not written as one array: both names stay (tests/svd/enum-names-apart.xml);
#   - memory-mapped regspecs: examples/specs/hpet_mmio.xml, and tests/svd/mmio-layouts.xml
#     (arrays from index 2, uneven arrays, <at> addresses) against a map worked out by hand;
#   - what -t svd cannot write (cmsis-enum.svd's TIM1 and TIM2: a dimArrayIndex without <dim>)
#     is a warning, svd-out-dropped, naming each; an error under --strict, and no output;
#   - tests/svd/cmsis-enum.svd, features.svd, enum-derive-out.svd and array-index-reglist.svd
#     (every form of a field's enumeration sets: names, headerEnumName, usages, derived sets
#     written as derived, don't-care and isDefault values, arrays and lists of them; a register
#     list's dimArrayIndex) round-trip: the same register map, sets included, and -t cmsis-enum
#     of the output is the file's, byte for byte (its enums are named by the sets);
#   - every file of the CMSIS-SVD test set (../shared/svd, or REGC_SVD_DATA) round-trips:
#     its -t svd output validates against ../shared/svd/schema/CMSIS-SVD.xsd
#     (xmllint --schema) and describes the same register map as the file, both read by
#     tests/svd/svd-normalize.py (written from the SVD specification, not regc's reader),
#     each field's sets of enumerated values included, and its -t cmsis-enum is the file's.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

. tests/svd/testset.sh
xsd=$svd/schema/CMSIS-SVD.xsd
have_xmllint=false
command -v xmllint >/dev/null && have_xmllint=true

# ---- refused: registers outside memory
for spec in regspec/*.xml; do
    space=$(grep -o 'space="\(msr\|pci\)"' "$spec" | head -n 1 | sed 's/space="\(.*\)"/\1/')
    rm -f "$tmp/out.svd"
    "$regc" -t svd "$spec" -o "$tmp/out.svd" 2>"$tmp/err"
    st=$?
    if [ "$st" -eq 1 ] && [ ! -e "$tmp/out.svd" ] && [ -n "$space" ] &&
        grep -q "error: register '[A-Za-z0-9_]*' of block '[A-Za-z0-9_]*' is in the $space space: CMSIS-SVD describes memory-mapped registers only" "$tmp/err"; then
        tap_ok "$spec: -t svd refused (the $space space), exit 1, no output"
    else
        tap_fail "$spec: -t svd refused (the ${space:-?} space), exit 1, no output" "exit $st" "$(head -n 3 "$tmp/err")"
    fi
done

# ---- features.svd, fact by fact
if "$regc" tests/svd/features.svd -t svd -o "$tmp/feat.svd" 2>"$tmp/err" && [ ! -s "$tmp/err" ]; then
    tap_ok "features.svd: -t svd without a diagnostic"
else
    tap_fail "features.svd: -t svd without a diagnostic" "$(head -n 3 "$tmp/err")"
fi
python3 - "$tmp/feat.svd" >"$tmp/facts" 2>&1 <<'PY'
import sys
import xml.etree.ElementTree as ET
d = ET.parse(sys.argv[1]).getroot()
def t(e, tag):
    k = e.find(tag)
    return None if k is None else k.text
def fact(name, ok):
    print(("ok - " if ok else "not ok - ") + name)
ps = {t(p, "name"): p for p in d.iter("peripheral")}
u0, u1, u2 = ps.get("UART0"), ps.get("UART1"), ps.get("UART2")
fact("UART1 derivedFrom UART0, UART2 derivedFrom UART1 (the chain as written), no registers of their own",
     u1 is not None and u1.get("derivedFrom") == "UART0" and u2 is not None and
     u2.get("derivedFrom") == "UART1" and u1.find("registers") is None and u2.find("registers") is None)
fact("bases 0x40000000, 0x40001000, 0x40002000",
     [int(t(p, "baseAddress"), 16) for p in (u0, u1, u2)] == [0x40000000, 0x40001000, 0x40002000])
fact("interrupts UART0 5 and UART1 6, UART2 none",
     [(t(q, "name"), t(q, "value")) for p in (u0, u1, u2) for q in p.findall("interrupt")]
     == [("UART0", "5"), ("UART1", "6")])
regs = u0.find("registers")
top = {t(r, "name"): r for r in regs.findall("register")}
data = top.get("DATA[%s]")
fact("DATA[%s]: dim 4, dimIncrement 4, at 0x10, size 8, no fields (one of its own name)",
     data is not None and int(t(data, "dim")) == 4 and int(t(data, "dimIncrement"), 16) == 4 and
     int(t(data, "addressOffset"), 16) == 0x10 and t(data, "size") == "8" and data.find("fields") is None)
ai = data.find("dimArrayIndex") if data is not None else None
fact("DATA[%s]: dimArrayIndex as written: headerEnumName DataIdx, LOW 0 (first byte), HIGH 3",
     ai is not None and t(ai, "headerEnumName") == "DataIdx" and
     [(t(v, "name"), t(v, "description"), int(t(v, "value"), 0)) for v in ai.findall("enumeratedValue")]
     == [("LOW", "first byte", 0), ("HIGH", None, 3)])
ch = top.get("CH%s_CFG")
fact("CH%s_CFG: one list as written, dim 2, dimIncrement 8, dimIndex A,B, at 0x20; ON [31:31]",
     ch is not None and int(t(ch, "dim")) == 2 and int(t(ch, "dimIncrement"), 16) == 8 and
     t(ch, "dimIndex") == "A,B" and int(t(ch, "addressOffset"), 16) == 0x20 and
     [(t(f, "name"), t(f, "lsb"), t(f, "msb")) for f in ch.iter("field")] == [("ON", "31", "31")])
c2 = top.get("CTRL2")
fact("CTRL2 derivedFrom CTRL at 0x30", c2 is not None and c2.get("derivedFrom") == "CTRL" and
     int(t(c2, "addressOffset"), 16) == 0x30)
ctrl = top.get("CTRL")
fact("CTRL: reset 0x105, EN [0], MODE [2:1], RATE [11:8]",
     int(t(ctrl, "resetValue"), 16) == 0x105 and
     [(t(f, "name"), int(t(f, "lsb")), int(t(f, "msb"))) for f in ctrl.iter("field")]
     == [("EN", 0, 0), ("MODE", 1, 2), ("RATE", 8, 11)])
mode = [f for f in ctrl.iter("field") if t(f, "name") == "MODE"][0]
sets = {t(e, "usage"): [(t(v, "name"), t(v, "value"), t(v, "isDefault")) for v in e.findall("enumeratedValue")]
        for e in mode.findall("enumeratedValues")}
fact("MODE: read IDLE 0, BUSY #1x; write IDLE 0, OTHER isDefault",
     set(sets) == {"read", "write"} and
     [(n, int(v, 0) if v and not v.startswith("#") else v, dflt) for n, v, dflt in sets["read"]]
     == [("IDLE", 0, None), ("BUSY", "#1x", None)] and
     [(n, int(v, 0) if v else v, dflt) for n, v, dflt in sets["write"]]
     == [("IDLE", 0, None), ("OTHER", None, "true")])
st = top.get("STATUS")
fields = {t(f, "name"): f for f in st.iter("field")}
fact("STATUS: size 16; ERR read-write oneToClear, RXNE read-only (the register's access)",
     t(st, "size") == "16" and t(fields["ERR"], "access") == "read-write" and
     t(fields["ERR"], "modifiedWriteValues") == "oneToClear" and t(fields["RXNE"], "access") == "read-only")
lk = {t(f, "name"): f for f in top["LOCKED"].iter("field")} if "LOCKED" in top else {}
fact("LOCKED: KEY [7:0] writeConstraint writeAsRead true, EN [8] none",
     set(lk) == {"KEY", "EN"} and t(lk["KEY"], "writeConstraint/writeAsRead") == "true" and
     lk["EN"].find("writeConstraint") is None)
cl = {t(c, "name"): c for c in regs.findall("cluster")}
def dims(e):
    return None if e is None else (t(e, "dim"), t(e, "dimIncrement") and int(t(e, "dimIncrement"), 16),
                                   t(e, "dimIndex"), int(t(e, "addressOffset"), 16))
port = cl.get("PORT[%s]")
fact("PORT[%s]: a cluster array, dim 2, dimIncrement 0x10, at 0x40, SET at 0 and CLR at 4 (no dim of their own)",
     port is not None and int(t(port, "dim")) == 2 and int(t(port, "dimIncrement"), 16) == 0x10 and
     int(t(port, "addressOffset"), 16) == 0x40 and
     [(t(r, "name"), int(t(r, "addressOffset"), 16), t(r, "dim")) for r in port.findall("register")]
     == [("SET", 0, None), ("CLR", 4, None)] and t(port.findall("register")[1], "access") == "write-only")
dma = cl.get("DMA")
chc = dma.find("cluster") if dma is not None else None
fact("DMA at 0x60 holds cluster CH at 0x8 holding LEN at 0x4",
     dma is not None and int(t(dma, "addressOffset"), 16) == 0x60 and chc is not None and
     t(chc, "name") == "CH" and int(t(chc, "addressOffset"), 16) == 8 and
     [(t(r, "name"), int(t(r, "addressOffset"), 16)) for r in chc.findall("register")] == [("LEN", 4)])
# FIFO[%s] holds a register array and a cluster array: the reader expands it per index, the
# writer gives it back as written (features.svd: dim 2, dimIncrement 0x20, at 0x80; BUF[%s] dim 4,
# dimIncrement 4 at 0x4; SUB[%s] dim 2, dimIncrement 0x8 at 0x14 holding VAL at 0)
fact("nothing expanded: 8 registers (CTRL, STATUS, DATA[%s], CH%s_CFG, CTRL2, TIMING, FLAGS, LOCKED); "
     "clusters PORT[%s], DMA, FIFO[%s] and LINK%s",
     list(top) == ["CTRL", "STATUS", "DATA[%s]", "CH%s_CFG", "CTRL2", "TIMING", "FLAGS", "LOCKED"]
     and sorted(cl) == ["DMA", "FIFO[%s]", "LINK%s", "PORT[%s]"])
# LINK%s is a %s list of clusters: the reader expands it (LINKRX, LINKTX), the writer gives it
# back as written (dim 2, dimIncrement 8, dimIndex RX,TX, at 0xC0; CFG at 0, STAT at 4); CFG
# takes the device's read-write, STAT writes read-only (a register without <access> takes its
# peripheral's, which takes the device's: -t svd may write it on either)
link = cl.get("LINK%s")
fact("LINK%s: one cluster list, dim 2, dimIncrement 8, dimIndex RX,TX, at 0xC0, holding CFG at 0 "
     "and STAT (read-only) at 4",
     link is not None and dims(link) == ("2", 8, "RX,TX", 0xC0) and
     [(t(r, "name"), int(t(r, "addressOffset"), 16), t(r, "access") or t(u0, "access") or t(d, "access"))
      for r in link.findall("register")] == [("CFG", 0, "read-write"), ("STAT", 4, "read-only")])
fifo = cl.get("FIFO[%s]")
fact("FIFO[%s]: one cluster array, dim 2, dimIncrement 0x20, at 0x80, holding register array "
     "BUF[%s] (dim 4, dimIncrement 4, at 0x4) and cluster array SUB[%s] (dim 2, dimIncrement 0x8, "
     "at 0x14) holding VAL at 0",
     fifo is not None and dims(fifo) == ("2", 0x20, None, 0x80) and
     [(t(r, "name"), dims(r)) for r in fifo.findall("register")] == [("BUF[%s]", ("4", 4, None, 4))] and
     [(t(c, "name"), dims(c)) for c in fifo.findall("cluster")] == [("SUB[%s]", ("2", 8, None, 0x14))] and
     [(t(r, "name"), int(t(r, "addressOffset"), 16), t(r, "dim"))
      for r in fifo.find("cluster").findall("register")] == [("VAL", 0, None)])
PY
while IFS= read -r line; do
    case $line in
    "ok - "*) tap_ok "features.svd -t svd: ${line#ok - }" ;;
    "not ok - "*) tap_fail "features.svd -t svd: ${line#not ok - }" ;;
    *) tap_fail "features.svd -t svd: the checks ran" "$line" ;;
    esac
done <"$tmp/facts"

# ---- escaping
cat >"$tmp/esc.svd" <<'SVD'
<?xml version="1.0" encoding="utf-8"?>
<device schemaVersion="1.3">
  <name>ESC</name>
  <version>1.0</version>
  <description>a &lt; b &amp;&amp; c &gt; d, "quoted" and 'quoted'</description>
  <addressUnitBits>8</addressUnitBits>
  <width>32</width>
  <peripherals>
    <peripheral>
      <name>P</name>
      <description>&lt;tag attr="x"&gt; &amp;amp;</description>
      <baseAddress>0x1000</baseAddress>
      <registers>
        <register>
          <name>R</name>
          <description>R &amp; S &lt;= 3</description>
          <addressOffset>0</addressOffset>
          <size>32</size>
          <fields>
            <field><name>F</name><description>"F" &gt; 'G'</description><bitRange>[3:0]</bitRange>
              <enumeratedValues><enumeratedValue><name>V</name><description>&lt;&amp;&gt;</description><value>1</value></enumeratedValue></enumeratedValues>
            </field>
          </fields>
        </register>
      </registers>
    </peripheral>
  </peripherals>
</device>
SVD
if "$regc" "$tmp/esc.svd" -t svd -o "$tmp/esc.out.svd" 2>"$tmp/err" &&
    python3 - "$tmp/esc.svd" "$tmp/esc.out.svd" <<'PY' 2>"$tmp/err"
import sys
import xml.etree.ElementTree as ET
def texts(path):
    return sorted(e.text for e in ET.parse(path).getroot().iter("description"))
a, b = texts(sys.argv[1]), texts(sys.argv[2])
sys.exit(0 if a == b and len(a) == 5 else print(a, b, file=sys.stderr) or 1)
PY
then
    tap_ok "descriptions with < & \" ' > are escaped and read back equal"
else
    tap_fail "descriptions with < & \" ' > are escaped and read back equal" "$(head -n 3 "$tmp/err")"
fi

# ---- a memory-mapped regspec
if "$regc" examples/specs/hpet_mmio.xml -t svd -o "$tmp/hpet.svd" 2>"$tmp/err"; then
    tap_ok "examples/specs/hpet_mmio.xml: -t svd"
else
    tap_fail "examples/specs/hpet_mmio.xml: -t svd" "$(head -n 3 "$tmp/err")"
fi

# ---- a regspec's layouts SVD has no form for: the register map worked out by hand from
# tests/svd/mmio-layouts.xml (T1 shares T0's registers: derivedFrom; CNT{5-2} an array with
# dimIndex 2-5; CMP{1-0} at uneven addresses: CMP0 at 0x40, CMP1 at 0x48; pic's ID sits at
# its own <at> address in each instance, below P1's base: P1 written whole, at base 0)
if "$regc" tests/svd/mmio-layouts.xml -t svd -o "$tmp/layouts.svd" 2>"$tmp/err" &&
    python3 tests/svd/svd-normalize.py "$tmp/layouts.svd" >"$tmp/layouts.map" 2>"$tmp/err"; then
    tap_diff "mmio-layouts.xml -t svd: the register map of tests/svd/mmio-layouts.map" \
        tests/svd/mmio-layouts.map "$tmp/layouts.map"
    grep -q '<peripheral derivedFrom="T0">' "$tmp/layouts.svd" &&
        grep -q '<dimIndex>2-5</dimIndex>' "$tmp/layouts.svd" &&
        tap_ok "mmio-layouts.xml -t svd: T1 derivedFrom T0, CNT with dimIndex 2-5" ||
        tap_fail "mmio-layouts.xml -t svd: T1 derivedFrom T0, CNT with dimIndex 2-5"
else
    tap_fail "mmio-layouts.xml -t svd" "$(head -n 3 "$tmp/err")"
fi

# ---- tests/svd/out-all.svd (every element -t svd writes) round-trips; so does
# tests/svd/derive-regs.svd, whose derived peripheral is written with its own register alone
for b in out-all derive-regs; do
    if "$regc" "tests/svd/$b.svd" -t svd -o "$tmp/$b.svd" 2>"$tmp/err" &&
        python3 tests/svd/svd-normalize.py "tests/svd/$b.svd" >"$tmp/$b.want" 2>"$tmp/err" &&
        python3 tests/svd/svd-normalize.py "$tmp/$b.svd" >"$tmp/$b.got" 2>"$tmp/err"; then
        tap_diff "$b.svd: SVD -> regc -> SVD, the same register map" "$tmp/$b.want" "$tmp/$b.got"
    else
        tap_fail "$b.svd: SVD -> regc -> SVD" "$(head -n 3 "$tmp/err")"
    fi
done

# ---- the enumeration sets: the register map with each set's usage, name and headerEnumName,
# and the enum form svdconv names by them
for f in tests/svd/cmsis-enum.svd tests/svd/features.svd tests/svd/enum-defaults.svd \
    tests/svd/enum-derive-out.svd tests/svd/array-index-reglist.svd; do
    b=$(basename "$f" .svd)
    if "$regc" "$f" -t svd -o "$tmp/$b.sets.svd" 2>"$tmp/err" &&
        python3 tests/svd/svd-normalize.py "$f" >"$tmp/$b.want" 2>"$tmp/err" &&
        python3 tests/svd/svd-normalize.py "$tmp/$b.sets.svd" >"$tmp/$b.got" 2>"$tmp/err" &&
        "$regc" "$f" -t cmsis-enum -o "$tmp/$b.in.h" 2>"$tmp/err" &&
        "$regc" "$tmp/$b.sets.svd" -t cmsis-enum -o "$tmp/$b.out.h" 2>"$tmp/err"; then
        # TIM2 is no array: CMSIS-SVD.xsd's dimElementGroup has no dimArrayIndex without <dim>,
        # so its own dimArrayIndex (svdconv's TIM2_Enum) has no valid place in -t svd
        sed -i '/^typedef enum { \/\*!< TIM2 \*\/$/,/^} TIM2_Enum;$/{/^} TIM2_Enum;$/N;d}' "$tmp/$b.in.h"
        tap_diff "$b.svd: SVD -> regc -> SVD, the same register map and enumeration sets" "$tmp/$b.want" "$tmp/$b.got"
        tap_diff "$b.svd: -t cmsis-enum of its -t svd is the file's" "$tmp/$b.in.h" "$tmp/$b.out.h"
    else
        tap_fail "$b.svd: SVD -> regc -> SVD" "$(head -n 3 "$tmp/err")"
    fi
done

# ---- what -t svd cannot write is said, not dropped silently: the dimArrayIndex of TIM1 and TIM2,
# peripherals that are no array (CMSIS-SVD.xsd has a dimArrayIndex only after <dim>), each at its
# <dimArrayIndex> (cmsis-enum.svd's lines 208 and 218), with its index name; the file is written
# (exit 0); under --strict it is an error, exit 1, and no file is written
"$regc" tests/svd/cmsis-enum.svd -t svd -o "$tmp/drop.svd" 2>"$tmp/drop.err"
st=$?
printf '%s\n' \
    "tests/svd/cmsis-enum.svd:208: warning: peripheral 'TIM1' is no array: -t svd leaves out its dimArrayIndex (index name 'Only'), which CMSIS-SVD has only after a <dim> [-Wsvd-out-dropped]" \
    "tests/svd/cmsis-enum.svd:218: warning: peripheral 'TIM2' is no array: -t svd leaves out its dimArrayIndex (index name 'Only'), which CMSIS-SVD has only after a <dim> [-Wsvd-out-dropped]" \
    >"$tmp/drop.want"
if [ "$st" -eq 0 ] && [ -s "$tmp/drop.svd" ]; then
    tap_diff "cmsis-enum.svd: -t svd warns of TIM1's and TIM2's dimArrayIndex it leaves out, and of nothing else" "$tmp/drop.want" "$tmp/drop.err"
else
    tap_fail "cmsis-enum.svd: -t svd warns, exit 0, output written" "exit $st" "$(head -n 3 "$tmp/drop.err")"
fi
rm -f "$tmp/drop.svd"
"$regc" tests/svd/cmsis-enum.svd --strict -t svd -o "$tmp/drop.svd" 2>"$tmp/drop.err"
st=$?
sed -i 's/: warning: /: error: /' "$tmp/drop.want"
if [ "$st" -eq 1 ] && [ ! -e "$tmp/drop.svd" ] && cmp -s "$tmp/drop.want" "$tmp/drop.err"; then
    tap_ok "cmsis-enum.svd: --strict -t svd: the same as errors, exit 1, no output"
else
    tap_fail "cmsis-enum.svd: --strict -t svd: the same as errors, exit 1, no output" "exit $st" "$(head -n 3 "$tmp/drop.err")"
fi

# ---- a cluster array of named indices (dimIndex 2-4) holding a register array: the reader
# expands it per index (Q2, Q3, Q4); written back as one array of those indices, the same map
cat >"$tmp/qarr.svd" <<'SVD'
<?xml version="1.0" encoding="utf-8"?>
<device schemaVersion="1.3">
  <name>QARR</name>
  <version>1.0</version>
  <description>a cluster array of named indices</description>
  <addressUnitBits>8</addressUnitBits>
  <width>32</width>
  <size>32</size>
  <access>read-write</access>
  <resetValue>0</resetValue>
  <resetMask>0xFFFFFFFF</resetMask>
  <peripherals>
    <peripheral>
      <name>P</name>
      <baseAddress>0x40000000</baseAddress>
      <addressBlock><offset>0</offset><size>0x100</size><usage>registers</usage></addressBlock>
      <registers>
        <cluster>
          <dim>3</dim>
          <dimIncrement>0x10</dimIncrement>
          <dimIndex>2-4</dimIndex>
          <name>Q[%s]</name>
          <description>q</description>
          <addressOffset>0x20</addressOffset>
          <register><dim>2</dim><dimIncrement>4</dimIncrement><name>R[%s]</name><addressOffset>0x8</addressOffset></register>
        </cluster>
      </registers>
    </peripheral>
  </peripherals>
</device>
SVD
if "$regc" "$tmp/qarr.svd" -t svd -o "$tmp/qarr.out.svd" 2>"$tmp/err" &&
    python3 tests/svd/svd-normalize.py "$tmp/qarr.svd" >"$tmp/qarr.want" 2>"$tmp/err" &&
    python3 tests/svd/svd-normalize.py "$tmp/qarr.out.svd" >"$tmp/qarr.got" 2>"$tmp/err"; then
    tap_diff "Q[%s] (dimIndex 2-4): SVD -> regc -> SVD, the same register map" "$tmp/qarr.want" "$tmp/qarr.got"
    got=$(python3 - "$tmp/qarr.out.svd" <<'PY'
import sys
import xml.etree.ElementTree as ET
regs = ET.parse(sys.argv[1]).getroot().find("peripherals/peripheral/registers")
print([(c.findtext("name"), c.findtext("dim"), c.findtext("dimIndex"), int(c.findtext("dimIncrement"), 16),
        int(c.findtext("addressOffset"), 16),
        [(r.findtext("name"), r.findtext("dim"), int(r.findtext("addressOffset"), 16)) for r in c.findall("register")])
       for c in regs.findall("cluster")], len(regs.findall("register")))
PY
)
    want="[('Q[%s]', '3', '2,3,4', 16, 32, [('R[%s]', '2', 8)])] 0"
    if [ "$got" = "$want" ]; then
        tap_ok "Q[%s]: one cluster array again, dim 3, dimIndex 2,3,4, dimIncrement 0x10, at 0x20, R[%s] in it"
    else
        tap_fail "Q[%s]: one cluster array again, dim 3, dimIndex 2,3,4, dimIncrement 0x10, at 0x20, R[%s] in it" "got $got" "want $want"
    fi
else
    tap_fail "Q[%s] (dimIndex 2-4): SVD -> regc -> SVD" "$(head -n 3 "$tmp/err")"
fi

# ---- two clusters of one "CH%s" list written apart, alike but for their own headerEnumNames
# (tests/svd/enum-names-apart.xml): neither is a copy of the other (a copy has no
# headerEnumName), so they are written apart, each set with its name, not as one array that
# keeps CHA's ModeA only; svdconv names the enums by them (ModeA_Enum, ModeB_Enum)
f=tests/svd/enum-names-apart.xml
if "$regc" "$f" -t svd -o "$tmp/apart.svd" 2>"$tmp/err" &&
    python3 tests/svd/svd-normalize.py "$tmp/apart.svd" >"$tmp/apart.got" 2>"$tmp/err" &&
    "$regc" "$tmp/apart.svd" -t cmsis-enum -o "$tmp/apart.h" 2>"$tmp/err"; then
    grep ' header ' "$tmp/apart.got" >"$tmp/apart.sets"
    printf '%s\n' "  reg 0x40000000 CFG field MODE set 0 read-write name - header ModeA" \
        "  reg 0x40000010 CFG field MODE set 0 read-write name - header ModeB" >"$tmp/apart.want"
    tap_diff "enum-names-apart.xml: -t svd keeps CHA's headerEnumName ModeA and CHB's ModeB" "$tmp/apart.want" "$tmp/apart.sets"
    grep -A3 '^typedef enum' "$tmp/apart.h" | grep -v '^typedef enum\|^--$' >"$tmp/apart.enums"
    printf '%s\n' "  ModeA_Slow = 0, /*!< Slow : Slow */" "  ModeA_Fast = 1, /*!< Fast : Fast */" "} ModeA_Enum;" \
        "  ModeB_Slow = 0, /*!< Slow : Slow */" "  ModeB_Fast = 1, /*!< Fast : Fast */" "} ModeB_Enum;" >"$tmp/apart.want"
    tap_diff "enum-names-apart.xml: -t cmsis-enum of its -t svd has ModeA_Enum and ModeB_Enum" "$tmp/apart.want" "$tmp/apart.enums"
else
    tap_fail "enum-names-apart.xml: -t svd" "$(head -n 3 "$tmp/err")"
fi

# ---- against the schema, and the test set's round trips
if ! $have_xmllint; then
    tap_skip "SVD outputs against CMSIS-SVD.xsd" "xmllint is not installed (libxml2-utils, tools/install-deps.sh)"
elif [ ! -f "$xsd" ]; then
    tap_skip "SVD outputs against CMSIS-SVD.xsd" "$svd_why"
else
    for f in "$tmp/feat.svd" "$tmp/esc.out.svd" "$tmp/hpet.svd" "$tmp/layouts.svd" "$tmp/out-all.svd" \
        "$tmp/derive-regs.svd" "$tmp/qarr.out.svd" "$tmp/cmsis-enum.sets.svd" \
        "$tmp/array-index-reglist.sets.svd" "$tmp/apart.svd"; do
        if xmllint --noout --schema "$xsd" "$f" 2>"$tmp/err"; then
            tap_ok "$(basename "$f"): valid against CMSIS-SVD.xsd"
        else
            tap_fail "$(basename "$f"): valid against CMSIS-SVD.xsd" "$(head -n 3 "$tmp/err")"
        fi
    done
fi
svd_need corpus "SVD test set round trips"
files=$(svd_files)
for f in $files; do
    b=$(basename "$f" .svd)
    if ! "$regc" "$svd/$f" -t svd -o "$tmp/$b.svd" 2>/dev/null; then
        tap_fail "$f: regc -t svd" "$("$regc" "$svd/$f" -t svd -o "$tmp/$b.svd" 2>&1 | grep error | head -n 3)"
        continue
    fi
    if $have_xmllint; then
        if xmllint --noout --schema "$xsd" "$tmp/$b.svd" 2>"$tmp/err"; then
            tap_ok "$f: -t svd valid against CMSIS-SVD.xsd"
        else
            tap_fail "$f: -t svd valid against CMSIS-SVD.xsd" "$(head -n 3 "$tmp/err")"
        fi
    fi
    python3 tests/svd/svd-normalize.py "$svd/$f" >"$tmp/$b.want" 2>"$tmp/err" &&
        python3 tests/svd/svd-normalize.py "$tmp/$b.svd" >"$tmp/$b.got" 2>>"$tmp/err" ||
        { tap_fail "$f: normalized" "$(tail -n 3 "$tmp/err")"; continue; }
    tap_diff "$f: SVD -> regc -> SVD, the same register map ($(wc -l <"$tmp/$b.want") facts)" \
        "$tmp/$b.want" "$tmp/$b.got"
    # below the banner, which names the device and its cpu as -t svd may have to respell them
    # (esp32c6-lp: an SVD identifier, a CMSIS cpu name; tests/svd/regspec-roundtrip-known.txt)
    if "$regc" "$svd/$f" -t cmsis-enum 2>"$tmp/err" | sed '1,/^ \*\/$/d' >"$tmp/$b.in.h" &&
        "$regc" "$tmp/$b.svd" -t cmsis-enum 2>"$tmp/err" | sed '1,/^ \*\/$/d' >"$tmp/$b.out.h" &&
        [ -s "$tmp/$b.in.h" ]; then
        tap_diff "$f: -t cmsis-enum of its -t svd is the file's (below the banner)" "$tmp/$b.in.h" "$tmp/$b.out.h"
    else
        tap_fail "$f: -t cmsis-enum" "$(head -n 3 "$tmp/err")"
    fi
    rm -f "$tmp/$b.svd" "$tmp/$b.want" "$tmp/$b.got" "$tmp/$b.in.h" "$tmp/$b.out.h"
done
tap_done
