#!/usr/bin/env bash
# tests/svd/run-enum-derive.sh - a derived <enumeratedValues> keeps its derivedFrom as written
# (tests/svd/enum-derive-out.svd). The facts below are worked out by hand from the file and the
# SVD specification's derivedFrom (a copy of the base with the set's own elements on top; own
# values replace the base's; the name comes from the base when not written, the headerEnumName
# never: svdconv's SvdEnumContainer::CopyItem):
#   - -t svd writes each derived set with its derivedFrom and only what the base does not give:
#     STAT.MODE its own headerEnumName, STAT.LVL its own usage, STAT.SEL its own value, MODE2
#     nothing; no copied value or usage, no copied name but STAT.MODE's, which STAT.SEL's
#     'ModeE' names in the model (a plain name: the sets of its own register first, and STAT.MODE's
#     answers to its base's name) and which a reader of the file must find by it too; the output
#     validates against CMSIS-SVD.xsd;
#   - UART.DATA.M, a copy of field MODE2, holds a set whose derivedFrom 'ModeE' names no set
#     seen from UART: written whole, without derivedFrom, with a warning (svd-out-dropped; an
#     error under --strict, and no file);
#   - -t regspec writes derived-from= on each <enum-set> whose base it can name, the values whole,
#     and -t svd of that regspec is the -t svd of the file (but the level each register property
#     is written at: svd_same_but_levels); M's set it writes without derived-from,
#     with a warning (regspec-out-dropped; an error under --strict, and no file);
#   - -t json gives each set's derived_from as written;
#   - tests/svd/enum-derive-base.xml: sets derived from a derived set by the name it shares with
#     its own base, by plain name (Q) and by path (R), hold its value Three through -t svd: the
#     file names that set (P's) ModeE, so a reader finds it (facts from the file, by hand).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
. tests/svd/same-but-levels.sh
. tests/svd/testset.sh
svd=tests/svd/enum-derive-out.svd

# ---- -t svd: "REG.FIELD from=DERIVEDFROM name=NAME header=HEADERENUMNAME usage=USAGE VALUES..."
# per <enumeratedValues>, each as written ('-' when absent)
cat >"$tmp/svd.want" <<'WANT'
CTRL.MODE from=- name=ModeE header=ModeEnum usage=read-write Off=0x0 On=0x1 Auto=0x2
CTRL.MODE2 from=ModeE name=- header=- usage=-
CTRL.LVL from=- name=LvlR header=- usage=read Lo=0x0 Hi=0x1
CTRL.LVL from=- name=LvlW header=- usage=write Set=0x1
STAT.MODE from=GPIO.CTRL.MODE.ModeE name=ModeE header=StatMode usage=-
STAT.LVL from=LvlR name=- header=- usage=write
STAT.SEL from=ModeE name=- header=- usage=- Three=0x3
DATA.M from=- name=ModeE header=- usage=read-write Off=0x0 On=0x1 Auto=0x2
WANT
cat >"$tmp/sets.py" <<'PY'
import sys, xml.etree.ElementTree as ET
for r in ET.parse(sys.argv[1]).iter("register"):
    for f in r.iter("field"):
        for s in f.findall("enumeratedValues"):
            vals = ["%s=%s" % (v.findtext("name"), v.findtext("value")) for v in s.findall("enumeratedValue")]
            print("%s.%s from=%s name=%s header=%s usage=%s" % (
                r.findtext("name"), f.findtext("name"), s.get("derivedFrom") or "-",
                s.findtext("name") or "-", s.findtext("headerEnumName") or "-",
                s.findtext("usage") or "-"), *vals)
PY
"$regc" "$svd" -t svd -o "$tmp/out.svd" 2>"$tmp/svd.err"
st=$?
if [ $st -eq 0 ] && python3 "$tmp/sets.py" "$tmp/out.svd" >"$tmp/svd.got" 2>"$tmp/err"; then
    tap_diff "enum-derive-out.svd -t svd: each derived set with its derivedFrom and what it writes itself" \
        "$tmp/svd.want" "$tmp/svd.got"
else
    tap_fail "enum-derive-out.svd -t svd" "exit $st" "$(head -n 3 "$tmp/svd.err" "$tmp/err")"
fi
printf '%s\n' \
    "$svd:42: warning: enumeratedValues 'ModeE' of field 'M' of register 'DATA' is written whole, without its derivedFrom 'ModeE': it names no set in the file -t svd writes [-Wsvd-out-dropped]" \
    >"$tmp/warn.want"
tap_diff "enum-derive-out.svd -t svd: the one set written whole is said, at its derivedFrom" \
    "$tmp/warn.want" "$tmp/svd.err"
svd_schema_check "enum-derive-out.svd -t svd validates against CMSIS-SVD.xsd" "$tmp/out.svd"
rm -f "$tmp/strict.svd"
"$regc" "$svd" --strict -t svd -o "$tmp/strict.svd" 2>"$tmp/strict.err"
st=$?
if [ $st -eq 1 ] && [ ! -e "$tmp/strict.svd" ] &&
    grep -q "error: enumeratedValues 'ModeE' of field 'M' .* \[-Wsvd-out-dropped\]" "$tmp/strict.err"; then
    tap_ok "enum-derive-out.svd --strict -t svd: the set written whole is an error, no file"
else
    tap_fail "enum-derive-out.svd --strict -t svd: the set written whole is an error, no file" \
        "exit $st" "$(head -n 3 "$tmp/strict.err")"
fi

# ---- -t regspec: "REG.FIELD NAME derived-from=X usage=U" per <enum-set>; its values whole
cat >"$tmp/rs.want" <<'WANT'
CTRL.MODE ModeE derived-from=- usage=- values=Off,On,Auto
CTRL.MODE2 ModeE derived-from=ModeE usage=- values=Off,On,Auto
CTRL.LVL LvlR derived-from=- usage=read values=Lo,Hi,Set
CTRL.LVL LvlW derived-from=- usage=write values=Lo,Hi,Set
STAT.MODE ModeE derived-from=GPIO.CTRL.MODE.ModeE usage=- values=Off,On,Auto
STAT.LVL LvlR derived-from=LvlR usage=write values=Lo,Hi
STAT.SEL ModeE derived-from=ModeE usage=- values=Three
DATA.M ModeE derived-from=- usage=- values=Off,On,Auto
WANT
cat >"$tmp/rs.py" <<'PY'
import sys, xml.etree.ElementTree as ET
for r in ET.parse(sys.argv[1]).iter("register"):
    for f in r.iter("field"):
        vals = ",".join(v.get("name") for v in f.findall("value"))
        for s in f.findall("enum-set"):
            print("%s.%s %s derived-from=%s usage=%s values=%s" % (
                r.get("name"), f.get("name"), s.get("name"), s.get("derived-from") or "-",
                s.get("usage") or "-", vals))
PY
if "$regc" "$svd" -t regspec -o "$tmp/a.xml" 2>"$tmp/rs.err" &&
    python3 "$tmp/rs.py" "$tmp/a.xml" >"$tmp/rs.got" 2>"$tmp/err"; then
    tap_diff "enum-derive-out.svd -t regspec: derived-from= on each set whose base it names, values whole" \
        "$tmp/rs.want" "$tmp/rs.got"
else
    tap_fail "enum-derive-out.svd -t regspec" "$(head -n 3 "$tmp/rs.err" "$tmp/err")"
fi
printf '%s\n' \
    "$svd:42: warning: enum-set 'ModeE' of field 'M' of register 'DATA' is written without its derived-from 'ModeE': it names no enum-set in the regspec -t regspec writes [-Wregspec-out-dropped]" \
    >"$tmp/warn.want"
tap_diff "enum-derive-out.svd -t regspec: the one derived-from left out is said, at it" \
    "$tmp/warn.want" "$tmp/rs.err"
rm -f "$tmp/strict.xml"
"$regc" "$svd" --strict -t regspec -o "$tmp/strict.xml" 2>"$tmp/strict.err"
st=$?
sed -i 's/: warning: /: error: /' "$tmp/warn.want"
if [ $st -eq 1 ] && [ ! -e "$tmp/strict.xml" ] && cmp -s "$tmp/warn.want" "$tmp/strict.err"; then
    tap_ok "enum-derive-out.svd --strict -t regspec: the derived-from left out is an error, no file"
else
    tap_fail "enum-derive-out.svd --strict -t regspec: the derived-from left out is an error, no file" \
        "exit $st" "$(head -n 3 "$tmp/strict.err")"
fi
if "$regc" "$tmp/a.xml" -t svd -o "$tmp/back.svd" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    [ -s "$tmp/out.svd" ] && svd_same_but_levels "$tmp/out.svd" "$tmp/back.svd"; then
    tap_ok "enum-derive-out.svd -t regspec -t svd: the -t svd of the file, derived sets as derived"
else
    tap_fail "enum-derive-out.svd -t regspec -t svd: the -t svd of the file" "$(head -n 3 "$tmp/err")" \
        "$(diff "$tmp/out.svd" "$tmp/back.svd" | head -n 6)"
fi

# ---- -t json: "FIELD derived_from" per set, as written (M's copy of MODE2's set keeps its text)
cat >"$tmp/json.want" <<'WANT'
CTRL.MODE -
CTRL.MODE2 ModeE
CTRL.LVL -
CTRL.LVL -
STAT.MODE GPIO.CTRL.MODE.ModeE
STAT.LVL LvlR
STAT.SEL ModeE
DATA.M ModeE
WANT
cat >"$tmp/sets_json.py" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    for r in b["registers"]:
        for f in r["fields"]:
            for s in (f.get("svd") or {}).get("enum_sets", []):
                print("%s.%s %s" % (r["name"], f["name"], s["derived_from"] or "-"))
PY
if "$regc" "$svd" -t json -o "$tmp/a.json" 2>"$tmp/err" &&
    python3 "$tmp/sets_json.py" "$tmp/a.json" >"$tmp/json.got" 2>>"$tmp/err"; then
    tap_diff "enum-derive-out.svd -t json: each set's derived_from as written" "$tmp/json.want" "$tmp/json.got"
else
    tap_fail "enum-derive-out.svd -t json" "$(head -n 3 "$tmp/err")"
fi

# ---- a set derived from a derived set by the name that set shares with its base
base=tests/svd/enum-derive-base.xml
cat >"$tmp/base.want" <<'WANT'
CTRL.MODE from=- name=ModeE header=- usage=read-write Off=0x0 On=0x1 Auto=0x2
STAT.P from=GPIO.CTRL.MODE.ModeE name=ModeE header=- usage=- Three=0x3
STAT.Q from=ModeE name=- header=- usage=-
STAT.R from=GPIO.STAT.P.ModeE name=- header=- usage=-
WANT
if "$regc" "$base" -t svd -o "$tmp/base.svd" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    python3 "$tmp/sets.py" "$tmp/base.svd" >"$tmp/base.got" 2>"$tmp/err"; then
    tap_diff "enum-derive-base.xml -t svd: P's set named ModeE, Q's and R's derived with nothing of their own" \
        "$tmp/base.want" "$tmp/base.got"
else
    tap_fail "enum-derive-base.xml -t svd" "$(head -n 3 "$tmp/err")"
fi
cat >"$tmp/values.py" <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    for r in b["registers"]:
        for f in r["fields"]:
            if f.get("values"):
                print("%s.%s" % (r["name"], f["name"]), *[v["name"] for v in f["values"]])
PY
printf '%s\n' "CTRL.MODE Off On Auto" "STAT.P Three" "STAT.Q Three" "STAT.R Three" >"$tmp/values.want"
if "$regc" "$tmp/base.svd" -t json -o "$tmp/base.json" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
    python3 "$tmp/values.py" "$tmp/base.json" >"$tmp/values.got" 2>"$tmp/err"; then
    tap_diff "enum-derive-base.xml -t svd read back: Q and R hold P's Three, as in the regspec" \
        "$tmp/values.want" "$tmp/values.got"
else
    tap_fail "enum-derive-base.xml -t svd read back without a diagnostic" "$(head -n 3 "$tmp/err")"
fi
svd_schema_check "enum-derive-base.xml -t svd validates against CMSIS-SVD.xsd" "$tmp/base.svd"
tap_done
