#!/usr/bin/env bash
# tests/svd/run-enum-defaults.sh - each <enumeratedValues> set keeps its own isDefault value
# (tests/svd/enum-defaults.svd): MODE's read set ModeR has RdOther and its write set ModeW
# WrOther; LVL's two sets give one name, Other (one default, in both sets); SRC's read set alone
# has one, Seen. The facts below are worked out by hand from the file: -t json (each set's
# default), -t svd (each set writes its own isDefault), -t regspec (a default="true" <value> per
# usage) and its -t json read back, -t cmsis-enum (svdconv leaves isDefault values out of its
# enums: HeaderData::CreateEnumValuesContainer), and the writeConstraint rules (useEnumeratedValues
# makes a rule unless a set for writes has a default: SRC_values, not MODE_values).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
svd=tests/svd/enum-defaults.svd

# facts TITLE WANT SCRIPT OUT REGC-ARGS...: regc REGC-ARGS -o OUT without a diagnostic, then the
# lines SCRIPT prints of OUT against WANT
facts() {
    local title=$1 want=$2 script=$3 out=$4
    shift 4
    if "$regc" "$@" -o "$out" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
        python3 "$script" "$out" >"$tmp/got" 2>"$tmp/err"; then
        tap_diff "$title" "$want" "$tmp/got"
    else
        tap_fail "$title" "$(head -n 3 "$tmp/err")"
    fi
}

# "FIELD USAGE NAME VALUES... default DEFAULT" per set of the -t json export, then the rules
cat >"$tmp/json.want" <<'EOF'
MODE read ModeR Idle default RdOther
MODE write ModeW Go default WrOther
LVL read - Low default Other
LVL write - High default Other
SRC read - A default Seen
SRC write - B C default -
rule SRC_values SRC == 0x1 || SRC == 0x2
EOF
cat >"$tmp/sets.py" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["blocks"][0]["registers"]:
    for f in r["fields"]:
        for s in (f.get("svd") or {}).get("enum_sets", []):
            print(f["name"], s["usage"], s["name"] or "-", *s["values"], "default", s["default"] or "-")
    for ru in r["rules"]:
        print("rule", ru["name"], ru["expr"])
PY
facts "enum-defaults.svd -t json: each set's own isDefault, the rules" "$tmp/json.want" \
    "$tmp/sets.py" "$tmp/a.json" "$svd" -t json

# -t svd: "FIELD USAGE isDefault NAME" for each set that writes one, in order
cat >"$tmp/svd.want" <<'EOF'
MODE read RdOther
MODE write WrOther
LVL read Other
LVL write Other
SRC read Seen
EOF
cat >"$tmp/svd.py" <<'PY'
import sys, xml.etree.ElementTree as ET
for f in ET.parse(sys.argv[1]).iter("field"):
    for s in f.findall("enumeratedValues"):
        for v in s.findall("enumeratedValue"):
            if (v.findtext("isDefault") or "").strip() == "true":
                print(f.findtext("name"), s.findtext("usage"), v.findtext("name"))
PY
facts "enum-defaults.svd -t svd: each <enumeratedValues> writes its own isDefault" "$tmp/svd.want" \
    "$tmp/svd.py" "$tmp/out.svd" "$svd" -t svd

# -t regspec: "FIELD NAME USAGE" of each <value default="true">, then its -t json read back
cat >"$tmp/rs.want" <<'EOF'
MODE RdOther read
MODE WrOther write
LVL Other -
SRC Seen read
EOF
cat >"$tmp/rs.py" <<'PY'
import sys, xml.etree.ElementTree as ET
for f in ET.parse(sys.argv[1]).iter("field"):
    for v in f.findall("value"):
        if v.get("default") == "true":
            print(f.get("name"), v.get("name"), v.get("usage") or "-")
PY
facts "enum-defaults.svd -t regspec: a default per usage" "$tmp/rs.want" \
    "$tmp/rs.py" "$tmp/a.xml" "$svd" -t regspec
facts "enum-defaults.svd -t regspec read back: each set's own isDefault, the rules" "$tmp/json.want" \
    "$tmp/sets.py" "$tmp/b.json" "$tmp/a.xml" -t json

# -t cmsis-enum: the enums hold the values, no default (no constant of a default's name)
if "$regc" "$svd" -t cmsis-enum -o "$tmp/e.h" 2>"$tmp/err"; then
    got=$(grep -oE '^  TIM_CTRL_[A-Za-z_]+ = [0-9]+' "$tmp/e.h" | tr '\n' ' ')
    want='  TIM_CTRL_MODE_ModeR_Idle = 0   TIM_CTRL_MODE_ModeW_Go = 1   TIM_CTRL_LVL_Low = 0   TIM_CTRL_LVL_High = 3   TIM_CTRL_SRC_A = 0   TIM_CTRL_SRC_B = 1   TIM_CTRL_SRC_C = 2 '
    if [ "$got" = "$want" ] && ! grep -qE 'RdOther|WrOther|Other|Seen' "$tmp/e.h"; then
        tap_ok "enum-defaults.svd -t cmsis-enum: the values, no isDefault constant"
    else
        tap_fail "enum-defaults.svd -t cmsis-enum: the values, no isDefault constant" "$got"
    fi
else
    tap_fail "enum-defaults.svd -t cmsis-enum" "$(head -n 3 "$tmp/err")"
fi
tap_done
