#!/usr/bin/env bash
# tests/specs/run-perf-export.sh - regc -t perf (perf's pmu-events JSON) checked against
# Intel's perfmon files.
#
# Renders e5_2600, e5_2600v2 and snb_client with -t perf, reads each export back
# with python3 (tests/specs/perf_export_check.py) and compares EventCode, UMask
# and Counter with the perfmon file the spec's event tables were converted from,
# for every event both list; the spec's deliberate counter limits (the ARB
# occupancy events, events.conf limit=, SDM Vol. 3B 18.9.6.1) are passed as
# known. A fixed counter's event (perfmon Counter "Fixed") is compared with how perf's own JSON
# writes it (tests/specs/data/perf/fixed.txt, cited there). Also: a tiny spec against a hand-written expected file (commas after a
# block without events, sub-events instead of their event, JSON escaping), and
# a spec without events gives an empty array.
#
# And what perf would count: for every spec with a kernel PMU, tests/specs/perf_config_check.py
# reads the export as perf's jevents.py and the kernel's formats read it (rules and sources cited
# there; formats from tests/runtime/data/perf-formats/ and tests/specs/data/perf/nhmex.txt) and
# compares each entry's config with the event's encoding in the generated header
# (generated/<spec>.h): every event of the spec must be there, or be one perf cannot express.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
data=tests/specs/data/perf
pdir=${PERFMON_DIR:-../shared/perfmon}

if ! command -v python3 >/dev/null 2>&1; then
    tap_skip "perf export" "python3 not installed"
    tap_done; exit 0
fi

if "$regc" -t perf "$data/tiny.xml" -o "$tmp/tiny.json" 2>"$tmp/err"; then
    tap_diff "tiny spec: the expected pmu-events JSON" "$data/tiny.expected.json" "$tmp/tiny.json"
else
    tap_fail "tiny spec renders" "$(cat "$tmp/err")"
fi
if "$regc" -t perf regspec/xeon7100_l3.xml -o "$tmp/none.json" 2>"$tmp/err" &&
    python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])) != [])' "$tmp/none.json"; then
    tap_ok "a spec without events: []"
else
    tap_fail "a spec without events: []" "$(cat "$tmp/err" "$tmp/none.json")"
fi

# spec perfmon-file: the limit= options of the spec's events.conf lines are the known cases
while read -r spec file; do
    if [ ! -f "$pdir/$file" ]; then
        tap_skip "$spec export agrees with $file" "no $pdir/$file (set PERFMON_DIR)"; continue
    fi
    limits=$(awk -v s="$spec" '$1 !~ /^#/ && $3 == s { for (i = 11; i <= NF; i++)
        if ($i ~ /^limit=/) { sub(/^limit=/, "", $i); gsub(/;/, " ", $i); print $i } }' \
        regspec/events/events.conf)
    if ! "$regc" -t perf "regspec/$spec.xml" -o "$tmp/$spec.json" 2>"$tmp/err"; then
        tap_fail "$spec renders with -t perf" "$(cat "$tmp/err")"; continue
    fi
    # shellcheck disable=SC2086 # one argument per limit
    if python3 tests/specs/perf_export_check.py "$tmp/$spec.json" "$pdir/$file" \
        --fixed "$data/fixed.txt" $limits \
        >"$tmp/out" 2>&1; then
        tap_ok "$spec export agrees with $file: $(tail -n 1 "$tmp/out")"
        grep '^known:' "$tmp/out" | sed 's/^/# /'
    else
        tap_fail "$spec export agrees with $file" "$(cat "$tmp/out")"
    fi
done <<'LIST'
e5_2600 Jaketown_uncore.json
e5_2600v2 ivytown_uncore.json
snb_client sandybridge_uncore.json
LIST
# spec formats: the kernel's formats of the spec's PMUs (needs no perfmon data)
while read -r spec formats; do
    if ! "$regc" -t perf "regspec/$spec.xml" -o "$tmp/$spec.perf.json" 2>"$tmp/err" ||
        ! "$regc" -t json "regspec/$spec.xml" -o "$tmp/$spec.model.json" 2>>"$tmp/err"; then
        tap_fail "$spec renders with -t perf and -t json" "$(cat "$tmp/err")"; continue
    fi
    if python3 tests/specs/perf_config_check.py "$tmp/$spec.perf.json" "$tmp/$spec.model.json" \
        "generated/$spec.h" "$formats" >"$tmp/out" 2>&1; then
        tap_ok "$spec: perf counts what the header encodes: $(tail -n 1 "$tmp/out")"
        grep '^absent:' "$tmp/out" | sed 's/^/# /'
    else
        tap_fail "$spec: perf counts what the header encodes" "$(cat "$tmp/out")"
    fi
done <<'LIST'
e5_2600 tests/runtime/data/perf-formats/snbep.txt
e5_2600v2 tests/runtime/data/perf-formats/ivbep.txt
snb_client tests/runtime/data/perf-formats/snb.txt
xeon7500_mbox tests/specs/data/perf/nhmex.txt
LIST
tap_done
