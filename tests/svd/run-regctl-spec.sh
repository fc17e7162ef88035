#!/usr/bin/env bash
# tests/svd/run-regctl-spec.sh - regctl --spec on an SVD device's JSON model (docs/svd.md,
# "regctl"): `regc DEVICE.svd -t json` loads into regctl, which takes each field's attribute
# from svd.class (the field's 'access' is SVD's spelling), and a register written through
# regctl on the simulator holds the value the vendor's encoding gives:
#   - tests/svd/features.svd: UART1.LOCKED (UART1 at 0x40001000, LOCKED at 0x3C) EN [8] = 1 is
#     0x100 at 0x4000103C (worked out by hand from the file);
#   - nrf52840 (../shared/svd, or REGC_SVD_DATA): UARTE1.CONFIG with HWFC Enabled, PARITY
#     Included, STOP Two and UARTE0.BAUDRATE Baud115200: the values Nordic's
#     nrf52840_bitfields.h gives (compiled by the C compiler), at the address the SVD file
#     gives (read here with ElementTree: the peripheral's baseAddress, derivedFrom followed,
#     plus the register's addressOffset), written and read back on the simulator;
#   - an export whose svd.class is not an attribute is refused (exit 1, the place named).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
: "${BUILD:=build}" "${CC:=cc}"
regctl=${REGCTL:-$BUILD/regctl}
. tests/svd/testset.sh

# write SPEC_JSON REGISTER FIELD=VALUE...: regctl write on the simulator, --json; prints
# "ADDRESS WRITTEN READBACK" (hex as regctl prints them)
write() {
    local spec=$1
    shift
    "$regctl" --spec "$spec" --backend sim --json write "$@" 2>"$tmp/err" |
        jq -r '"\(.address) \(.written) \(.value)"'
}

if ! command -v jq >/dev/null; then
    tap_skip_rest "jq is not installed (tools/install-deps.sh)" "regctl --spec on an SVD device's JSON"
fi

# ---- features.svd
if "$regc" tests/svd/features.svd -t json -o "$tmp/feat.json" 2>"$tmp/err" &&
    got=$(write "$tmp/feat.json" FEAT.UART0.UART1.LOCKED EN=1) &&
    [ "$got" = "0x4000103c 0x100 0x100" ]; then
    tap_ok "features.svd: regctl --spec writes UART1.LOCKED EN=1: 0x100 at 0x4000103c, read back"
else
    tap_fail "features.svd: regctl --spec writes UART1.LOCKED EN=1: 0x100 at 0x4000103c, read back" \
        "got: ${got:-}" "$(head -n 1 "$tmp/err")"
fi

# ---- refused: an attribute regctl does not know
jq '.blocks[0].registers[0].fields[0].svd.class = "read-write"' "$tmp/feat.json" >"$tmp/bad.json"
"$regctl" --spec "$tmp/bad.json" --backend sim list >/dev/null 2>"$tmp/err"
st=$?
if [ "$st" -eq 1 ] &&
    grep -q 'fields\[0\]\.svd\.class: "read-write" is not one of "RW"' "$tmp/err"; then
    tap_ok "an export whose svd.class is SVD's spelling is refused at its place (exit 1)"
else
    tap_fail "an export whose svd.class is SVD's spelling is refused at its place (exit 1)" \
        "exit $st" "$(head -n 1 "$tmp/err")"
fi

# ---- nrf52840 against Nordic's header
dir=$svd/vendor-headers/nordic
if [ ! -f "$dir/nrf52840.svd" ]; then
    tap_skip_rest "no CMSIS-SVD test set at $svd (REGC_SVD_DATA)" \
        "nrf52840: UARTE1.CONFIG through regctl = Nordic's encoding" \
        "nrf52840: UARTE0.BAUDRATE through regctl = Nordic's encoding"
fi
"$regc" "$dir/nrf52840.svd" -t json -o "$tmp/nrf.json" 2>"$tmp/err" ||
    tap_skip_rest "regc -t json of nrf52840.svd failed: $(head -n 1 "$tmp/err")" \
        "nrf52840: UARTE1.CONFIG through regctl = Nordic's encoding" \
        "nrf52840: UARTE0.BAUDRATE through regctl = Nordic's encoding"
cat >"$tmp/want.c" <<C
#include <stdio.h>
#include "$dir/nrf52840_bitfields.h"
int main(void)
{
    unsigned long cfg = ((UARTE_CONFIG_HWFC_Enabled << UARTE_CONFIG_HWFC_Pos) & UARTE_CONFIG_HWFC_Msk) |
                        ((UARTE_CONFIG_PARITY_Included << UARTE_CONFIG_PARITY_Pos) & UARTE_CONFIG_PARITY_Msk) |
                        ((UARTE_CONFIG_STOP_Two << UARTE_CONFIG_STOP_Pos) & UARTE_CONFIG_STOP_Msk);
    unsigned long baud = (UARTE_BAUDRATE_BAUDRATE_Baud115200 << UARTE_BAUDRATE_BAUDRATE_Pos) &
                         UARTE_BAUDRATE_BAUDRATE_Msk;
    printf("%#lx %#lx\n", cfg, baud);
    return 0;
}
C
# the address of PERIPH.REG by the SVD file: baseAddress + the register's addressOffset in the
# peripheral (or the one it is derivedFrom)
cat >"$tmp/addr.py" <<'PY'
import sys
import xml.etree.ElementTree as ET
d = ET.parse(sys.argv[1]).getroot()
ps = {p.findtext("name"): p for p in d.iter("peripheral")}
p = ps[sys.argv[2]]
base = int(p.findtext("baseAddress"), 0)
while p.find("registers") is None:
    p = ps[p.get("derivedFrom")]
r = next(r for r in p.iter("register") if r.findtext("name") == sys.argv[3])
print(hex(base + int(r.findtext("addressOffset"), 0)))
PY
if ! $CC -o "$tmp/want" "$tmp/want.c" 2>"$tmp/cc" || ! read -r cfg baud < <("$tmp/want"); then
    tap_fail "nrf52840: Nordic's encodings compile" "$(head -n 3 "$tmp/cc")"
    tap_done
    exit 0
fi
a_cfg=$(python3 "$tmp/addr.py" "$dir/nrf52840.svd" UARTE1 CONFIG)
a_baud=$(python3 "$tmp/addr.py" "$dir/nrf52840.svd" UARTE0 BAUDRATE)
got=$(write "$tmp/nrf.json" nrf52840.UARTE0.UARTE1.CONFIG HWFC=Enabled PARITY=Included STOP=Two)
if [ "$got" = "$a_cfg $cfg $cfg" ]; then
    tap_ok "nrf52840: UARTE1.CONFIG through regctl = Nordic's encoding ($got)"
else
    tap_fail "nrf52840: UARTE1.CONFIG through regctl = Nordic's encoding" \
        "got: $got" "want: $a_cfg $cfg $cfg" "$(head -n 1 "$tmp/err")"
fi
got=$(write "$tmp/nrf.json" nrf52840.UARTE0.BAUDRATE BAUDRATE=Baud115200)
if [ "$got" = "$a_baud $baud $baud" ]; then
    tap_ok "nrf52840: UARTE0.BAUDRATE through regctl = Nordic's encoding ($got)"
else
    tap_fail "nrf52840: UARTE0.BAUDRATE through regctl = Nordic's encoding" \
        "got: $got" "want: $a_baud $baud $baud" "$(head -n 1 "$tmp/err")"
fi
tap_done
