#!/usr/bin/env bash
# tests/svd/run-field-order.sh - a register's fields keep the order its source lists them, in
# the model and so in every output and round trip (docs/svd.md, "What is read, and how it
# maps"): tests/svd/field-order.svd, against the order worked out by hand from the file (its
# comment; not from regc's output):
#   - the model (-t json): the fields as written, a "NAME%s" list's elements together where
#     the list is, the gap fields among them (low bits first unless the first field lies
#     above the last);
#   - the C header's field macros, the CMSIS header's _Pos macros, -t svd's <field>s (the list
#     written once again) and -t regspec's <field>s and <gap>s in that order;
#   - read back, the -t svd and the -t regspec output give the same model order, -t cmsis of the
#     -t svd output and -t c of the -t regspec output are the file's, byte for byte.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
svd=tests/svd/field-order.svd

# ---- the order by hand: register, then its fields as NAME[msb:lsb]
cat >"$tmp/want" <<'ORDER'
HIGH HI[31:24] gap[23:16] MID[15:8] gap[7:4] LO[3:0]
MIX EN[0:0] gap[3:3] CH0[4:4] gap[5:5] CH1[6:6] gap[7:7] CH2[8:8] MODE[2:1] gap[31:9]
ONE gap[3:0] F[7:4] gap[31:8]
RSV gap[31:16] X[15:8] gap[7:4] Y[3:0]
DER EN[0:0] gap[3:3] CH0[4:4] gap[5:5] CH1[6:6] gap[7:7] CH2[8:8] MODE[2:1] gap[31:9]
ORDER
# without the gaps, the names only: what the headers write
sed 's/ gap\[[0-9:]*\]//g; s/\[[0-9:]*\]//g' "$tmp/want" >"$tmp/want.names"

json_order() {   # spec out: the model's order, from -t json
    "$regc" "$1" -t json -o "$tmp/order.json" 2>"$tmp/err" || { cat "$tmp/err" >"$2"; return; }
    python3 - "$tmp/order.json" >"$2" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))['blocks']:
    for r in b['registers']:
        print(r['name'], ' '.join('%s[%d:%d]' % (f['name'], f['msb'], f['lsb'])
                                  for f in r['fields']))
PY
}

run() {   # label spec template out
    "$regc" "$2" -t "$3" -o "$4" 2>"$tmp/err" && return 0
    tap_fail "$1: regc -t $3" "$(head -n 3 "$tmp/err")"
    return 1
}

json_order "$svd" "$tmp/got"
tap_diff "field-order.svd: the model's fields in the order written (-t json)" "$tmp/want" "$tmp/got"

# ---- the headers
macro_order() {   # header stem suffix out: each register's fields as its STEM_REG_FIELD_SUFFIX macros
    for r in HIGH MIX ONE RSV DER; do
        printf '%s' "$r"
        sed -n "s/^#define $2_${r}_\([A-Za-z0-9]*\)_$3 .*/ \1/p" "$1" | tr -d '\n'
        echo
    done >"$4"
}
if run field-order.svd "$svd" c "$tmp/c.h"; then
    macro_order "$tmp/c.h" FORD_P SHIFT "$tmp/c.got"
    tap_diff "field-order.svd -t c: each register's field macros in the order written" \
        "$tmp/want.names" "$tmp/c.got"
fi
if run field-order.svd "$svd" cmsis "$tmp/cmsis.h"; then
    macro_order "$tmp/cmsis.h" P Pos "$tmp/cmsis.got"
    tap_diff "field-order.svd -t cmsis: each register's _Pos macros in the order written" \
        "$tmp/want.names" "$tmp/cmsis.got"
fi

# ---- -t svd and -t regspec write that order, and read it back
if run field-order.svd "$svd" svd "$tmp/out.svd"; then
    python3 - "$tmp/out.svd" >"$tmp/svd.got" <<'PY'
import sys
import xml.etree.ElementTree as ET
for r in ET.parse(sys.argv[1]).getroot().iter('register'):
    print(' '.join([r.findtext('name')] + [f.findtext('name') for f in r.iter('field')]))
PY
    printf '%s\n' 'HIGH HI MID LO' 'MIX EN CH%s MODE' 'ONE F' 'RSV X Y' 'DER EN CH%s MODE' \
        >"$tmp/svd.want"
    tap_diff "field-order.svd -t svd: the <field>s in the order written, CH%s where it was" \
        "$tmp/svd.want" "$tmp/svd.got"
    json_order "$tmp/out.svd" "$tmp/svd.back"
    tap_diff "field-order.svd -t svd, read back: the same order" "$tmp/want" "$tmp/svd.back"
    if run "the -t svd output" "$tmp/out.svd" cmsis "$tmp/back.h"; then
        tap_diff "field-order.svd: -t cmsis of its -t svd is the file's" "$tmp/cmsis.h" "$tmp/back.h"
    fi
fi
if run field-order.svd "$svd" regspec "$tmp/out.xml"; then
    python3 - "$tmp/out.xml" >"$tmp/regspec.got" <<'PY'
import sys
import xml.etree.ElementTree as ET
for r in ET.parse(sys.argv[1]).getroot().iter('register'):
    bits = lambda e: e.get('bits') if ':' in e.get('bits') else e.get('bits') + ':' + e.get('bits')
    print(' '.join([r.get('name')] + ['%s[%s]' % (e.get('name', 'gap'), bits(e))
                                      for e in r if e.tag in ('field', 'gap')]))
PY
    tap_diff "field-order.svd -t regspec: the <field>s and <gap>s in the model's order" \
        "$tmp/want" "$tmp/regspec.got"
    json_order "$tmp/out.xml" "$tmp/regspec.back"
    tap_diff "field-order.svd -t regspec, read back: the same order" "$tmp/want" "$tmp/regspec.back"
    if run "the -t regspec output" "$tmp/out.xml" c "$tmp/back.c.h"; then
        tap_diff "field-order.svd: -t c of its -t regspec is the file's" "$tmp/c.h" "$tmp/back.c.h"
    fi
fi
tap_done
