#!/usr/bin/env bash
# tests/specs/run-event-pins.sh - every event of every spec held against a second source.
#
# For each regspec/<spec>.xml, tests/specs/event_pins.py checks each event's code, unit mask
# and settings against Intel's perfmon file the spec's tables come from (E5-2600, E5-2600 v2,
# Sandy Bridge client: ../shared/perfmon or $PERFMON_DIR; never skipped when the file is there)
# and against tests/specs/<spec>.pins, lines written from a cited public source (the Xeon 7500
# M-Box: likwid's event table and the kernel's uncore_nhmex.c). An event no source states fails,
# as does one whose values differ. Also: the checker's own errors (a pin naming no event, a pin
# without its source, a changed code) on a small spec.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
pdir=${PERFMON_DIR:-../shared/perfmon}

if ! command -v python3 >/dev/null 2>&1; then
    tap_skip "event pins" "python3 not installed"; tap_done; exit 0
fi

perfmon_of() {
    case $1 in
    e5_2600) echo Jaketown_uncore.json ;;
    e5_2600v2) echo ivytown_uncore.json ;;
    snb_client) echo sandybridge_uncore.json ;;
    esac
}

for xml in regspec/*.xml; do
    spec=$(basename "$xml" .xml)
    pins=tests/specs/$spec.pins
    [ -f "$pins" ] || pins=/dev/null
    file=$(perfmon_of "$spec")
    set --
    if [ -n "$file" ]; then
        if [ ! -f "$pdir/$file" ]; then
            tap_skip "$spec: every event held by $file and $(basename "$pins")" "no $pdir/$file (set PERFMON_DIR)"
            continue
        fi
        set -- "$pdir/$file"
    fi
    if ! "$regc" -t json "$xml" -o "$tmp/$spec.json" 2>"$tmp/err"; then
        tap_fail "$spec: regc -t json" "$(cat "$tmp/err")"; continue
    fi
    if python3 tests/specs/event_pins.py "$tmp/$spec.json" "$pins" "$@" >"$tmp/out" 2>&1; then
        tap_ok "$(tail -n 1 "$tmp/out")"
    else
        tap_fail "$spec: every event held by ${file:-its pins}" "$(cat "$tmp/out")"
    fi
done

# the checker itself, on tests/specs/data/perf/tiny.xml
"$regc" -t json tests/specs/data/perf/tiny.xml -o "$tmp/tiny.json" 2>"$tmp/err" ||
    tap_fail "tiny spec renders" "$(cat "$tmp/err")"
bad_pins() { # NAME EXPECTED-TEXT PINS-TEXT
    printf '%s\n' "$3" >"$tmp/bad.pins"
    python3 tests/specs/event_pins.py "$tmp/tiny.json" "$tmp/bad.pins" >"$tmp/out" 2>&1
    local rc=$?
    if [ $rc = 1 ] && grep -qF "$2" "$tmp/out"; then tap_ok "checker: $1"
    else tap_fail "checker: $1" "rc=$rc" "$(cat "$tmp/out")"; fi
}
good='b CYCLES field=ev_sel code=0x1 umask=0x0   # test
b MSG field=ev_sel code=0x42   # test
b MSG.IN field=ev_sel code=0x42 umask=0x8   # test
b MSG.OUT field=ev_sel code=0x42 umask=0x10 CTL.inv=1   # test'
printf '%s\n' "$good" >"$tmp/good.pins"
if python3 tests/specs/event_pins.py "$tmp/tiny.json" "$tmp/good.pins" >"$tmp/out" 2>&1; then
    tap_ok "checker: a spec every pin holds passes"
else
    tap_fail "checker: a spec every pin holds passes" "$(cat "$tmp/out")"
fi
bad_pins "a code that differs" "b MSG.IN: spec code=0x42" "${good/MSG.IN field=ev_sel code=0x42/MSG.IN field=ev_sel code=0x43}"
bad_pins "a setting left out" "b MSG.OUT: spec" "${good/ CTL.inv=1/}"
bad_pins "an event no source holds" "b CYCLES: held by no source" "$(printf '%s\n' "$good" | sed 1d)"
bad_pins "a pin naming no event" "no such event in the spec" "$good
b NOPE field=ev_sel code=0x1   # test"
bad_pins "a pin without its source" "no source (# ...)" "$(printf '%s\n' "$good" | sed '1s/ *#.*//')"
tap_done
