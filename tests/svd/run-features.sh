#!/usr/bin/env bash
# tests/svd/run-features.sh - tests/svd/features.svd, a small device using the SVD
# features regc reads (derivation in any order and in chains, dim arrays and %s
# lists with dimIndex, derived registers, cluster arrays and nested clusters,
# inherited size/access/reset, read/write enumerations with don't-care bits and
# isDefault, oneToClear, interrupts): the C header regc writes is compiled with a
# _Static_assert for each fact below, every value worked out by hand from the
# CMSIS-SVD specification and the file (not taken from regc's output), and the
# JSON model is checked for what the header does not carry.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

if ! "$regc" tests/svd/features.svd -o "$tmp/feat.h" 2>"$tmp/err" || [ -s "$tmp/err" ]; then
    tap_fail "features.svd: imported without a diagnostic" "$(head -n 5 "$tmp/err")"
    tap_done
    exit 0
fi
tap_ok "features.svd: imported without a diagnostic"

cat >"$tmp/facts.c" <<'C'
#include "feat.h"
/* UART1 (written first) and UART2 (derived from UART1) share UART0's block */
_Static_assert(FEAT_UART0_BASE == 0x40000000u && FEAT_UART1_BASE == 0x40001000u, "bases");
_Static_assert(FEAT_UART2_BASE == 0x40002000u, "a chain: UART2 <- UART1 <- UART0");
_Static_assert(FEAT_UART0_CTRL_UART2_ADDR == 0x40002000u, "CTRL of UART2");
/* CTRL: resetValue 0x105; EN [0], MODE [2:1] (lsb/msb), RATE [11:8] (bitRange) */
_Static_assert(FEAT_UART0_CTRL_RESET == 0x105u, "CTRL reset");
_Static_assert(FEAT_UART0_CTRL_EN_SHIFT == 0 && FEAT_UART0_CTRL_EN_WIDTH == 1, "EN");
_Static_assert(FEAT_UART0_CTRL_MODE_MASK == 0x6u, "MODE");
_Static_assert(FEAT_UART0_CTRL_RATE_SHIFT == 8 && FEAT_UART0_CTRL_RATE_MASK == 0xF00u, "RATE");
_Static_assert(FEAT_UART0_CTRL_RATE_RESET == 1 && FEAT_UART0_CTRL_EN_RESET == 1, "field resets");
_Static_assert(FEAT_UART0_CTRL_MODE_V_IDLE == 0 && FEAT_UART0_CTRL_MODE_V_BUSY == 2, "#1x: x is 0");
/* STATUS: 16 bits, read-only at register level; ERR read-write oneToClear */
_Static_assert(FEAT_UART0_STATUS_SIZE == 16 && FEAT_UART0_STATUS_W1C_MASK == 0x1u, "ERR w1c");
_Static_assert(FEAT_UART0_STATUS_RO_MASK == 0x2u, "RXNE inherits read-only");
_Static_assert(FEAT_UART0_STATUS_UART0_ADDR == 0x40000004u, "STATUS");
/* DATA[%s]: 4 bytes at 0x10, stride 4 */
_Static_assert(FEAT_UART0_DATA_SIZE == 8 && FEAT_UART0_DATA_COUNT == 4, "DATA array");
_Static_assert(FEAT_UART0_DATA_STRIDE == 4 && FEAT_UART0_DATA_ADDR_C(0, 3) == 0x4000001Cu, "DATA[3]");
/* CH%s_CFG with dimIndex A,B: 0x20 and 0x28; ON [31] */
_Static_assert(FEAT_UART0_CHA_CFG_UART0_ADDR == 0x40000020u, "CHA_CFG");
_Static_assert(FEAT_UART0_CHB_CFG_UART1_ADDR == 0x40001028u, "CHB_CFG");
_Static_assert(FEAT_UART0_CHB_CFG_ON_SHIFT == 31, "ON");
/* CTRL2 derivedFrom CTRL: CTRL's fields and reset at 0x30 */
_Static_assert(FEAT_UART0_CTRL2_RESET == 0x105u && FEAT_UART0_CTRL2_RATE_SHIFT == 8, "CTRL2");
_Static_assert(FEAT_UART0_CTRL2_UART0_ADDR == 0x40000030u, "CTRL2 address");
/* PORT[%s] (dim 2, 0x10 apart, at 0x40): SET at +0, CLR (write-only) at +4 */
_Static_assert(FEAT_UART0_PORT_CLR_ADDR_C(1, 1) == 0x40001054u, "UART1 PORT[1].CLR");
_Static_assert(FEAT_UART0_PORT_SET_ADDR_C(0, 0) == 0x40000040u, "UART0 PORT[0].SET");
_Static_assert(FEAT_UART0_PORT_CLR_WO_MASK == 0xFFFFFFFFu, "CLR write-only");
/* DMA { CH { LEN } }: 0x60 + 0x8 + 0x4 */
_Static_assert(FEAT_UART0_DMA_CH_LEN_UART0_ADDR == 0x4000006Cu, "nested clusters");
/* bits no field describes are the gap class: kept as read (DESIGN.md, "Memory-mapped devices") */
_Static_assert(FEAT_UART0_CTRL_PRESERVE_MASK == 0xFFFFF0F8u, "CTRL: all but EN [0], MODE [2:1], RATE [11:8]");
_Static_assert(FEAT_UART0_STATUS_PRESERVE_MASK == 0xFFFCu, "STATUS: 16 bits but ERR [0], RXNE [1]");
_Static_assert(FEAT_UART0_CTRL_MBZ_MASK == 0 && FEAT_UART0_STATUS_MBZ_MASK == 0, "nothing forced 0");
/* FLAGS: each write side effect's class (docs/regspec.md, "Attributes") */
_Static_assert(FEAT_UART0_FLAGS_W0_MASK == 0x0Bu, "ZC [0], ZS [1], ZT [3]: a 0 acts");
_Static_assert(FEAT_UART0_FLAGS_W1T_MASK == 0x04u, "OT [2]: a 1 toggles");
_Static_assert(FEAT_UART0_FLAGS_WANY_MASK == 0x30u, "CL [4], ST [5]: any write acts");
_Static_assert(FEAT_UART0_FLAGS_ONCE_MASK == 0x40u, "LOCK [6]: the first write only");
_Static_assert(FEAT_UART0_FLAGS_PRESERVE_MASK == 0xFFFF0000u, "31:16: a gap");
_Static_assert(FEAT_UART0_FLAGS_RO_MASK == 0x80u, "RC [7]: read-only (a read clears it)");
/* LOCKED: KEY [7:0] writeAsRead is written back as read, like the gap 31:9; EN [8] writable */
_Static_assert(FEAT_UART0_LOCKED_PRESERVE_MASK == 0xFFFFFEFFu, "KEY [7:0] and 31:9 kept as read");
_Static_assert(FEAT_UART0_LOCKED_WRITABLE_MASK == 0x100u, "EN [8] only");
/* FIFO[%s] (0x80, 0x20 apart) holding BUF[%s] (4 at +0x4, stride 4) and SUB[%s] (+0x14, 0x8 apart) */
_Static_assert(FEAT_UART0_FIFO0_BUF_COUNT == 4 && FEAT_UART0_FIFO0_BUF_STRIDE == 4, "BUF in FIFO0");
_Static_assert(FEAT_UART0_FIFO1_BUF_ADDR_C(0, 3) == 0x400000B0u, "UART0 FIFO[1].BUF[3]: 0x80+0x20+0x4+0xC");
_Static_assert(FEAT_UART0_FIFO0_BUF_ADDR_C(1, 0) == 0x40001084u, "UART1 FIFO[0].BUF[0]");
_Static_assert(FEAT_UART0_FIFO1_SUB_VAL_ADDR_C(0, 1) == 0x400000BCu, "FIFO[1].SUB[1].VAL: 0x80+0x20+0x14+0x8");
_Static_assert(FEAT_UART0_FIFO0_SUB_VAL_ADDR_C(0, 0) == 0x40000094u, "FIFO[0].SUB[0].VAL");
/* LINK%s with dimIndex RX,TX (0xC0, 8 apart): CFG at +0, STAT at +4 */
_Static_assert(FEAT_UART0_LINKRX_CFG_UART0_ADDR == 0x400000C0u, "LINKRX_CFG");
_Static_assert(FEAT_UART0_LINKTX_STAT_UART1_ADDR == 0x400010CCu, "UART1 LINKTX_STAT");
_Static_assert(FEAT_UART0_FIFO0_SUB_VAL_COUNT == 2 && FEAT_UART0_FIFO0_SUB_VAL_STRIDE == 8, "SUB[%s]");
int main(void) { return 0; }
C
if gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$tmp" "$tmp/facts.c" 2>"$tmp/cc"; then
    tap_ok "features.svd: every hand-derived fact holds in the C header"
else
    tap_fail "features.svd: every hand-derived fact holds in the C header" "$(grep -m 5 error "$tmp/cc")"
fi

# An enumeratedValues <usage> in the header's comments: MODE's BUSY is in its read set only, IDLE
# in both; SEL's A and B are in a set without <usage> (read-write), C in a read set. And a value
# of a write set only, in a device written here (USE: GO in the write set, IDLE and an encoding
# named reserved, which SVD makes undefined, in a read one).
cat >"$tmp/use.svd" <<'SVD'
<?xml version="1.0" encoding="utf-8"?>
<device schemaVersion="1.3">
  <name>USE</name>
  <width>32</width>
  <size>32</size>
  <resetValue>0</resetValue>
  <peripherals>
    <peripheral>
      <name>P</name>
      <baseAddress>0x40000000</baseAddress>
      <registers>
        <register>
          <name>R</name>
          <addressOffset>0x0</addressOffset>
          <fields>
            <field>
              <name>F</name>
              <bitRange>[1:0]</bitRange>
              <enumeratedValues>
                <usage>write</usage>
                <enumeratedValue><name>GO</name><description>start it</description><value>1</value></enumeratedValue>
              </enumeratedValues>
              <enumeratedValues>
                <usage>read</usage>
                <enumeratedValue><name>IDLE</name><value>0</value></enumeratedValue>
                <enumeratedValue><name>reserved</name><value>3</value></enumeratedValue>
              </enumeratedValues>
            </field>
          </fields>
        </register>
      </registers>
    </peripheral>
  </peripherals>
</device>
SVD
want='#define FEAT_UART0_CTRL_MODE_V_IDLE UINT32_C(0x0)
#define FEAT_UART0_CTRL_MODE_V_BUSY UINT32_C(0x2) /* when read */
#define FEAT_UART0_TIMING_SEL_V_A UINT32_C(0x0)
#define FEAT_UART0_TIMING_SEL_V_B UINT32_C(0x2)
#define FEAT_UART0_TIMING_SEL_V_C UINT32_C(0x3) /* when read */
#define USE_P_R_F_V_GO UINT32_C(0x1) /* start it (when written) */
#define USE_P_R_F_V_IDLE UINT32_C(0x0) /* when read */
#define USE_P_R_F_V_RESERVED UINT32_C(0x3) /* undefined encoding (when read) */'
"$regc" "$tmp/use.svd" -o "$tmp/use.h" 2>"$tmp/err"
got=$(grep -hE '^#define (FEAT_UART0_CTRL_MODE|FEAT_UART0_TIMING_SEL|USE_P_R_F)_V_' "$tmp/feat.h" "$tmp/use.h" | tr -s ' ')
if [ "$got" = "$want" ]; then
    tap_ok "features.svd: a value of a read or a write set says so in the header"
else
    tap_fail "features.svd: a value of a read or a write set says so in the header" "got:" "$got" "want:" "$want" "$(head -n 3 "$tmp/err")"
fi

# The safe write keeps undescribed bits as read: CTRL read as all ones, EN/MODE/RATE wanted 0,
# must write ~(0x1 | 0x6 | 0xF00); STATUS read as 0xFFFF, nothing wanted: RXNE (read-only)
# and bits 15:2 as read, ERR (oneToClear) 0 unless asked.
cat >"$tmp/rmw.c" <<'C'
#include "feat.h"
#include <stdio.h>
int main(void)
{
    uint32_t c = feat_uart0_ctrl_write_value(0xFFFFFFFFu, 0, 0);
    uint32_t s = feat_uart0_status_write_value(0xFFFFu, 0, 0);
    uint32_t k = feat_uart0_ctrl_write_value(0x12345678u, 0x00000F07u, 0);
    printf("%08x %04x %08x ", (unsigned)c, (unsigned)s, (unsigned)k);
    /* LOCKED read as 0x12345678, all wanted 1: EN [8] 1, KEY [7:0] (writeAsRead) and 31:9 as read */
    printf("%08x\n", (unsigned)feat_uart0_locked_write_value(0x12345678u, 0xFFFFFFFFu, 0));
    /* writeConstraint rules, worked out from the file: PRESC 2..9 (<range>), SEL 0 or 2 (the
     * values a write may use; C is usage read). CMSIS-SVD.xsd 1.3.12: "writeConstraint
     * specifies the subset of allowed write values" */
    /* FLAGS read as 0xFFFF00FF, wanted V 0x12, LOCK 0: a 1 to ZC, ZS, ZT (no effect), a 0 to OT,
     * CL, ST (CL, ST act anyway), LOCK and V from 'wanted', RC (read-only) and the gap (31:16)
     * as read:
     * 0xFFFF0000 | 0x1200 | 0x80 | 0x0B. With ACT_W0 and wanted ZC 0, ZS 1, ZT 1: 0x0A there;
     * with ACT_W1T and wanted OT 1: 0x04 more */
    printf("%08x ", (unsigned)feat_uart0_flags_write_value(0xFFFF00FFu, 0x1200u, 0));
    printf("%08x ", (unsigned)feat_uart0_flags_write_value(0xFFFF00FFu, 0x120Au, FEAT_ACT_W0));
    printf("%08x\n", (unsigned)feat_uart0_flags_write_value(0xFFFF00FFu, 0x1204u, FEAT_ACT_W1T));
    static const uint32_t ok[] = {0x22, 0x02, 0x09, 0x29};
    static const uint32_t bad_presc[] = {0x20, 0x21, 0x2A, 0x2F};
    static const uint32_t bad_sel[] = {0x12, 0x32};
    for (unsigned i = 0; i < 4; i++)
        if (feat_uart0_timing_check(ok[i]) != 0)
            printf("rule fires on 0x%x\n", (unsigned)ok[i]);
    for (unsigned i = 0; i < 4; i++)
        if (feat_uart0_timing_check(bad_presc[i]) != (unsigned)FEAT_UART0_TIMING_RULE_PRESC_RANGE)
            printf("PRESC range silent on 0x%x\n", (unsigned)bad_presc[i]);
    for (unsigned i = 0; i < 2; i++)
        if (feat_uart0_timing_check(bad_sel[i]) != (unsigned)FEAT_UART0_TIMING_RULE_SEL_VALUES)
            printf("SEL values silent on 0x%x\n", (unsigned)bad_sel[i]);
    return 0;
}
C
if gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$tmp" "$tmp/rmw.c" -o "$tmp/rmw" 2>"$tmp/cc" &&
    [ "$("$tmp/rmw")" = "$(printf 'fffff0f8 fffe 12345f7f 12345778\nffff128b ffff128a ffff128f')" ]; then
    tap_ok "features.svd: a safe write keeps the bits no field describes and writeAsRead fields as read; writeConstraint rules"
else
    tap_fail "features.svd: a safe write keeps the bits no field describes and writeAsRead fields as read; writeConstraint rules" \
        "$(cat "$tmp/cc"; "$tmp/rmw" 2>&1)" "want: fffff0f8 fffe 12345f7f 12345778 / ffff128b ffff128a ffff128f"
fi

# The descriptor tables carry the same: libregrt's checked write refuses what the rules refuse
# (TIMING 0x2A: PRESC 10; 0x32: SEL 3), and its read-modify-write keeps CTRL's gap bits.
: "${BUILD:=build}"
"$regc" tests/svd/features.svd -t tables -o "$tmp/feat_tables.h"
cat >"$tmp/rt.c" <<'C'
#include "feat_tables.h"
#include <regc/regc.h>
#include <regc/sim.h>
#include <stdio.h>
/* The simulator's FLAGS after a raw write of 'v' over 'held' (CMSIS-SVD's tokens, read as named:
 * zeroToClear, zeroToSet, oneToToggle, zeroToToggle, clear, set at bits 0 to 5) */
static unsigned long long sim_flags(uint64_t held, uint64_t v)
{
    regc_dev *d;
    char err[256];
    struct regc_options o = {.backend = "sim"};
    struct regc_ref r;
    uint64_t got = 0xdead;
    if (regc_open(&d, &FEAT_spec, &o, err, sizeof err))
        return 0xdead;
    if (regc_resolve(&FEAT_spec, "UART0.FLAGS", &r, err, sizeof err) == 0 &&
        regc_sim_poke(regc_dev_sim(d), &r, held) == 0 && regc_write_unchecked(d, &r, v) == 0)
        regc_read(d, &r, &got);
    regc_close(d);
    return (unsigned long long)got;
}
int main(void)
{
    /* all six set, 0 written: ZC cleared, ZS set, OT kept, ZT toggled, CL cleared, ST set: 0x26;
     * all clear, 0x3F written: ZC, ZS, ZT kept 0, OT toggled, CL 0, ST set: 0x24 */
    printf("%02llx %02llx ", sim_flags(0x3F, 0x00), sim_flags(0x00, 0x3F));
    const struct regc_block *b = regc_spec_block(&FEAT_spec, "UART0");
    const struct regc_reg *t = b ? regc_block_reg(b, "TIMING") : NULL;
    const struct regc_reg *c = b ? regc_block_reg(b, "CTRL") : NULL;
    char msg[256];
    if (!t || !c)
        return 1;
    /* FLAGS read as 0xFFFF00FF, V (mask 0xFF00) given 0x12: the write-0-acts bits 1 (0x0B) */
    const struct regc_reg *g = b ? regc_block_reg(b, "FLAGS") : NULL;
    if (!g)
        return 1;
    printf("%08llx ", (unsigned long long)regc_rmw_value(g, 0xFFFF00FFu, 0xFF00, 0x1200));
    printf("%d %d %d %d %08llx ", regc_check(&FEAT_spec, t, NULL, 0x22, msg, sizeof msg),
           regc_check(&FEAT_spec, t, NULL, 0x09, msg, sizeof msg) == 0,
           regc_check(&FEAT_spec, t, NULL, 0x2A, msg, sizeof msg) != 0,
           regc_check(&FEAT_spec, t, NULL, 0x32, msg, sizeof msg) != 0,
           (unsigned long long)regc_rmw_value(c, 0xFFFFFFFFu, 0x7, 0x0));
    /* LOCKED read as 0x12345678, EN [8] set: KEY (writeAsRead) and the gap kept as read */
    const struct regc_reg *l = regc_block_reg(b, "LOCKED");
    printf("%08llx\n", l ? (unsigned long long)regc_rmw_value(l, 0x12345678u, 0x100, 0x100) : 0);
    return 0;
}
C
san=""
[ "${SAN:-}" = 1 ] && san="-fsanitize=address,undefined -fno-sanitize-recover=all"
if [ ! -f "$BUILD/libregrt.a" ]; then
    tap_skip "features.svd: libregrt checks the writeConstraint rules" "no $BUILD/libregrt.a (make)"
# shellcheck disable=SC2086 # $san: the sanitizers libregrt.a was built with under SAN=1
elif gcc -std=c11 -Wall -Wextra -Werror $san -I"$tmp" -Iruntime/include "$tmp/rt.c" "$BUILD/libregrt.a" \
        -lpthread -o "$tmp/rt" 2>"$tmp/cc" && [ "$("$tmp/rt")" = "26 24 ffff12cb 0 1 1 1 fffffff8 12345778" ]; then
    tap_ok "features.svd: libregrt checks the writeConstraint rules, keeps the gap bits and writeAsRead fields, writes write-0-acts bits 1; the simulator stores by class"
else
    tap_fail "features.svd: libregrt checks the writeConstraint rules, keeps the gap bits and writeAsRead fields, writes write-0-acts bits 1; the simulator stores by class" \
        "$(cat "$tmp/cc"; "$tmp/rt" 2>&1)" "want: 26 24 ffff12cb 0 1 1 1 fffffff8 12345778"
fi

"$regc" tests/svd/features.svd -t json -o "$tmp/feat.json"
if python3 - "$tmp/feat.json" >"$tmp/py" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [b["name"] for b in d["blocks"]] == ["UART0"], "one block for UART0..2"
b = d["blocks"][0]
assert [(i["name"], i["svd"]["derived_from"]) for i in b["instances"]] == \
    [("UART0", None), ("UART1", "UART0"), ("UART2", "UART1")]
assert [[q["value"] for q in i["svd"]["interrupts"]] for i in b["instances"]] == [[5], [6], []], \
    "interrupts are not inherited"
regs = {r["name"]: r for r in b["registers"]}
mode = next(f for f in regs["CTRL"]["fields"] if f["name"] == "MODE")
vals = {v["name"]: (v["value"], v["svd"]["usage"], v["svd"]["dont_care"]) for v in mode["values"]}
assert vals == {"IDLE": ("0x0", "read-write", "0x0"), "BUSY": ("0x2", "read", "0x1")}, vals
assert mode["svd"]["default_value"] == "OTHER"
err = next(f for f in regs["STATUS"]["fields"] if f["name"] == "ERR")
assert err["svd"]["write_effect"] == "oneToClear"
assert regs["CHA_CFG"]["svd"]["dim_of"] == "CH%s_CFG"
assert regs["CTRL2"]["svd"]["derived_from"] == "CTRL"
assert regs["PORT_SET"]["svd"]["cluster"] == "PORT" and regs["PORT_SET"]["array"]["count"] == 2
assert [(c["name"], c["parent"], c["address"]) for c in b["svd"]["clusters"]] == \
    [("PORT", None, "0x40"), ("DMA", None, "0x60"), ("CH", "DMA", "0x68"),
     ("FIFO0", None, "0x80"), ("SUB", "FIFO0", "0x94"), ("FIFO1", None, "0xa0"),
     ("SUB", "FIFO1", "0xb4"), ("LINKRX", None, "0xc0"), ("LINKTX", None, "0xc8")]
flags = {f["name"]: f for f in regs["FLAGS"]["fields"]}
assert flags["RC"]["access"] == "read-only, readAction clear", flags["RC"]["access"]
assert flags["ZC"]["access"] == "read-write, zeroToClear", flags["ZC"]["access"]
gaps = [(f["lsb"], f["msb"], f["access"]) for f in regs["CTRL"]["fields"] if f["implicit"]]
assert sorted(gaps) == [(3, 7, "gap"), (12, 31, "gap")], gaps
assert regs["CTRL"]["masks"]["preserve"] == "0xfffff0f8" and regs["CTRL"]["masks"]["mbz"] == "0x0"
# DATA[%s]'s dimArrayIndex: enumeration DataIdx naming index 0 LOW ("first byte") and 3 HIGH
assert regs["DATA"]["svd"]["array_index"] == {"enum_name": "DataIdx", "values": [
    {"name": "LOW", "value": "0x0", "desc": "first byte"},
    {"name": "HIGH", "value": "0x3", "desc": None}]}, regs["DATA"]["svd"]["array_index"]
assert regs["CTRL"]["svd"]["array_index"] is None
locked = {f["name"]: f for f in regs["LOCKED"]["fields"]}
assert locked["KEY"]["write_constraint"]["kind"] == "writeAsRead"
assert regs["LOCKED"]["masks"]["preserve"] == "0xfffffeff", regs["LOCKED"]["masks"]
assert regs["LOCKED"]["masks"]["writable"] == "0x100", regs["LOCKED"]["masks"]
# the side-effect masks (docs/json.md): FLAGS' ZC, ZS, ZT a 0 acts; OT toggles; CL, ST any write;
# LOCK once (the same bits as the C header's, worked out above from the file)
fm = regs["FLAGS"]["masks"]
assert (fm["w0"], fm["w1t"], fm["wany"], fm["once"]) == ("0xb", "0x4", "0x30", "0x40"), fm
assert [flags[n]["svd"]["class"] for n in ("ZC", "ZS", "OT", "ZT", "CL", "ST", "LOCK", "RC", "V")] == \
    ["RW0C", "RW0S", "RW1T", "RW0T", "RWAC", "RWAS", "RWO", "RO", "RW"]
assert d["spec"]["device"]["name"] == "FEAT" and b["svd"]["address_blocks"][0]["size"] == "0x100"
PY
then
    tap_ok "features.svd: the JSON model keeps derivation, clusters, enumerations, interrupts"
else
    tap_fail "features.svd: the JSON model" "$(tail -n 3 "$tmp/py")"
fi
tap_done
