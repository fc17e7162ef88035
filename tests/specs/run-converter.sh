#!/usr/bin/env bash
# tests/specs/run-converter.sh - tests of tools/perfmon2regspec.py.
#
# Converts the tiny perfmon-shaped file tests/specs/data/perfmon-tiny.json
# through tests/specs/data/tiny.conf and compares each output with
# tests/specs/data/expected/; checks the exclusions reported on stderr, the
# conf errors, and that regenerating regspec/events/ gives identical files.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup tmp
conv() { python3 tools/perfmon2regspec.py "$@"; }
data=tests/specs/data

if ! command -v python3 >/dev/null 2>&1; then
    tap_skip "converter" "python3 not installed"; tap_done; exit 0
fi

mkdir -p "$tmp/out"
if conv --perfmon-dir "$data" --out-dir "$tmp/out" "$data/tiny.conf" 2>"$tmp/stderr"; then
    tap_ok "tiny.conf converts"
else
    tap_fail "tiny.conf converts" "$(cat "$tmp/stderr")"
fi
for f in "$data"/expected/*.xml; do
    tap_diff "output $(basename "$f")" "$f" "$tmp/out/$(basename "$f")"
done

# every exclusion is reported on stderr, with its reason
while IFS='|' read -r row why; do
    if grep -qF "excluded $row: $why" "$tmp/stderr"; then tap_ok "stderr lists $row"
    else tap_fail "stderr lists $row: $why" "$(cat "$tmp/stderr")"; fi
done <<'LIST'
UNC_B_FIXED_CLOCKTICKS|event code 0xff
UNC_B_LOOKUP.READ|duplicate of sub-event LOOKUP.READ
UNC_B_LOOKUP.OTHER|event LOOKUP already has code 0x34
UNC_CLOCK.SOCKET|counts on the fixed counter
UNC_P_OCC.LOW|UMask 0x20 has bits below the umask field
UNC_P_EXT|needs the extension select bit
LIST
n=$(grep -c 'excluded' "$tmp/stderr")
if [ "$n" = 6 ]; then tap_ok "6 exclusions reported"; else tap_fail "6 exclusions reported" "got $n"; fi
grep -q '<event name="LOOKUP" code="0x34" combine="or"' "$tmp/out/tiny_box.xml" &&
    ! grep -q '<event name="MIXED".*combine' "$tmp/out/tiny_box.xml" &&
    tap_ok "or=LOOKUP makes LOOKUP combine its sub-events, and only it" ||
    tap_fail "or=LOOKUP makes LOOKUP combine its sub-events, and only it"
grep -q '<sub name="DRS_AnyResp"' "$tmp/out/tiny_box.xml" && tap_ok "a sub-event's further dots become '_'" ||
    tap_fail "a sub-event's further dots become '_'"

# a mapping to =!NAME: a filter the spec does not model, named by unmodelled-filters=; a row
# with an MSRValue for such a filter cannot be converted (there is no register to set)
um_conf='perfmon-tiny.json BOX tiny box B_PMON_CTL ev_sel umask ev_sel_ext BFilter[22:18]=!bstate perfmon-tiny'
printf '%s\n' "$um_conf" >"$tmp/um.conf"
mkdir -p "$tmp/um"
conv --perfmon-dir "$data" --out-dir "$tmp/um" --quiet "$tmp/um.conf" 2>"$tmp/err"
grep -qF 'UNC_B_LOOKUP.WRITE has MSRValue 0x7 but its filter' "$tmp/err" &&
    tap_ok "=!NAME: a row with an MSRValue for an unmodelled filter is refused" ||
    tap_fail "=!NAME: a row with an MSRValue for an unmodelled filter is refused" "$(cat "$tmp/err")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["Events"] = [e for e in d["Events"] if e["EventName"] != "UNC_B_LOOKUP.WRITE"]
json.dump(d, open(sys.argv[2], "w"))' "$data/perfmon-tiny.json" "$tmp/perfmon-tiny.json"
if conv --perfmon-dir "$tmp" --out-dir "$tmp/um" --quiet "$tmp/um.conf" 2>"$tmp/err"; then
    grep -q '<sub name="READ" umask="0x3" perfmon="UNC_B_LOOKUP.READ" unmodelled-filters="bstate"' \
        "$tmp/um/tiny_box.xml" && ! grep -q ' filters="' "$tmp/um/tiny_box.xml" &&
        tap_ok "=!NAME gives unmodelled-filters=, not filters=" ||
        tap_fail "=!NAME gives unmodelled-filters=, not filters=" "$(grep READ "$tmp/um/tiny_box.xml")"
else
    tap_fail "=!NAME converts" "$(cat "$tmp/err")"
fi

# limit=CODE:COUNTERS narrows the rows of that code and says so in the header
lim_conf='perfmon-tiny.json CLIENT tiny client ARB_PERFEVTSEL event umask - - perfmon-tiny cmask=cmask edge=edge invert=inv limit=0x80:0'
printf '%s\n' "$lim_conf" >"$tmp/limit.conf"
mkdir -p "$tmp/lim"
if conv --perfmon-dir "$data" --out-dir "$tmp/lim" --quiet "$tmp/limit.conf" 2>"$tmp/err"; then
    grep -q '<event name="TRK_OCCUPANCY" code="0x80" counters="0">' "$tmp/lim/tiny_client.xml" &&
        ! grep -q 'counters="0,1"' "$tmp/lim/tiny_client.xml" &&
        tap_ok "limit= narrows the counters of code 0x80" ||
        tap_fail "limit= narrows the counters of code 0x80" "$(cat "$tmp/lim/tiny_client.xml")"
    grep -qF 'UNC_ARB_TRK_OCCUPANCY.CYCLES_OVER_HALF_FULL: counters 0,1 limited to 0 (conf limit for code 0x80)' \
        "$tmp/lim/tiny_client.xml" && tap_ok "limit= is noted in the header" ||
        tap_fail "limit= is noted in the header" "$(head -n 8 "$tmp/lim/tiny_client.xml")"
else
    tap_fail "limit= converts" "$(cat "$tmp/err")"
fi
printf '%s\n' "${lim_conf%0x80:0}0x80:3" >"$tmp/limit.conf"
conv --perfmon-dir "$data" --out-dir "$tmp/lim" "$tmp/limit.conf" 2>"$tmp/err"
grep -qF 'excluded UNC_ARB_TRK_OCCUPANCY.ALL: no counter left: perfmon 0, conf limit 3 for code 0x80' "$tmp/err" &&
    tap_ok "limit= leaving no counter excludes the row" ||
    tap_fail "limit= leaving no counter excludes the row" "$(cat "$tmp/err")"

# outputs are valid regspec parts
if command -v xmllint >/dev/null 2>&1; then
    for f in "$tmp"/out/*.xml; do
        tap_check "schema-valid $(basename "$f")" xmllint --noout --relaxng regspec/regspec.rng "$f" 2>/dev/null
    done
fi

# --check: unchanged files pass, a changed file fails
conv --perfmon-dir "$data" --out-dir "$tmp/out" --check --quiet "$data/tiny.conf" 2>"$tmp/err"
tap_check "--check passes on fresh output" test $? = 0
echo '<!-- edited -->' >>"$tmp/out/tiny_occ.xml"
conv --perfmon-dir "$data" --out-dir "$tmp/out" --check --quiet "$data/tiny.conf" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -q 'tiny_occ.xml differs' "$tmp/err"; then tap_ok "--check finds an edited file"
else tap_fail "--check finds an edited file" "rc=$rc $(cat "$tmp/err")"; fi

# conf errors: exit 2 with a message naming the conf line
bad() {  # NAME EXPECTED-MESSAGE CONF-LINE
    printf '%s\n' "$3" >"$tmp/bad.conf"
    conv --perfmon-dir "$data" --out-dir "$tmp/out" --quiet "$tmp/bad.conf" 2>"$tmp/err"
    local rc=$?
    if [ $rc = 2 ] && grep -qF "$2" "$tmp/err"; then tap_ok "error: $1"
    else tap_fail "error: $1" "rc=$rc" "$(cat "$tmp/err")"; fi
}
bad "too few columns" "bad.conf:1: expected at least 10 columns" \
    'perfmon-tiny.json BOX tiny box B_PMON_CTL ev_sel umask'
bad "unknown unit" "no rows of unit 'NOPE'" \
    'perfmon-tiny.json NOPE tiny box B_PMON_CTL ev_sel umask - - src'
bad "missing file" "bad.conf:1" \
    'nofile.json BOX tiny box B_PMON_CTL ev_sel umask - - src'
bad "bad filter mapping" "bad filter mapping" \
    'perfmon-tiny.json BOX tiny box B_PMON_CTL ev_sel umask - BFilter=X src'
bad "bad option" "bad option 'colour=red'" \
    'perfmon-tiny.json BOX tiny box B_PMON_CTL ev_sel umask - - src colour=red'
bad "bad limit" "bad limit '0x80' (want CODE:COUNTERS" \
    'perfmon-tiny.json BOX tiny box B_PMON_CTL ev_sel umask - - src limit=0x80'
bad "or= naming an event without sub-events" "or=CLOCKTICKS names no converted event with sub-events" \
    'perfmon-tiny.json BOX tiny box B_PMON_CTL ev_sel umask ev_sel_ext BFilter[22:18]=B_PMON_FILTER.state src or=CLOCKTICKS'
bad "or= naming no identifier" "bad or= event '1X'" \
    'perfmon-tiny.json BOX tiny box B_PMON_CTL ev_sel umask - - src or=1X'
bad "cmask without field" "has CounterMask=10 but the line has no cmask= option" \
    'perfmon-tiny.json CLIENT tiny client ARB_PERFEVTSEL event umask - - src'
bad "MSRValue without mapping" "has MSRValue 0x7 but its filter" \
    'perfmon-tiny.json BOX tiny box B_PMON_CTL ev_sel umask ev_sel_ext - src'
bad "bad register name" "register '1bad' is not an identifier" \
    'perfmon-tiny.json BOX tiny box 1bad ev_sel umask - - src'
printf '%s\n%s\n' 'perfmon-tiny.json OCC tiny occ P ev_sel - - - src' \
    'perfmon-tiny.json BOX tiny occ P ev_sel - - - src' >"$tmp/dup.conf"
conv --perfmon-dir "$data" --out-dir "$tmp/out" --quiet "$tmp/dup.conf" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && grep -q 'tiny_occ already generated' "$tmp/err"; then tap_ok "error: two lines, one output"
else tap_fail "error: two lines, one output" "rc=$rc $(cat "$tmp/err")"; fi
conv --perfmon-dir "$data" --out-dir "$tmp/out" --quiet "$data/tiny.conf" tiny_nope 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && grep -q "'tiny_nope' is not generated" "$tmp/err"; then tap_ok "error: unknown SPEC_BLOCK"
else tap_fail "error: unknown SPEC_BLOCK" "rc=$rc $(cat "$tmp/err")"; fi

# the project's event tables are what the converter makes of the perfmon data
pdir=${PERFMON_DIR:-../shared/perfmon}
if [ -d "$pdir" ]; then
    if PERFMON_DIR=$pdir tools/regen-events.sh --check --quiet 2>"$tmp/err"; then
        tap_ok "regspec/events/ regenerates byte-identical"
    else
        tap_fail "regspec/events/ regenerates byte-identical" "$(cat "$tmp/err")"
    fi
else
    tap_skip "regspec/events/ regenerates byte-identical" "no perfmon data in $pdir"
fi
tap_done
