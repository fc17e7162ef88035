#!/usr/bin/env bash
# tests/runtime/run-events.sh - regctl events: finding events.
#
# Every event and sub-event of every spec, as `regctl --json events SPEC`
# lists it, has the encoding of the generated header's <PREFIX>_EV_<BLOCK>_<EVENT>
# macro (the compiler's C-header path, an independent statement of the bits)
# and the counters of its _COUNTERS macro; text output, searches and errors
# are golden files (UPDATE_GOLDEN=1 rewrites them).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/golden.sh
: "${REGCTL:=build/regctl}"
tap_setup tmp

for h in generated/*.h; do
    case $h in *_tables.h) continue ;; esac
    spec=$(basename "$h" .h)
    "$REGCTL" --json events "$spec" >"$tmp/$spec.json" 2>"$tmp/err" ||
        { tap_fail "events $spec: --json" "$(cat "$tmp/err")"; continue; }
    grep -q '<event ' "regspec/$spec.xml" regspec/events/"$spec"_*.xml 2>/dev/null ||
        { tap_skip "events $spec" "the spec has no event tables"; continue; }
    if out=$(python3 - "$tmp/$spec.json" "$h" "generated/$spec.json" <<'PY'
import json, re, sys
events = json.load(open(sys.argv[1]))
macros = {}
for line in open(sys.argv[2]):
    m = re.match(r"#define (\w+_EV_\w+)\s+UINT(?:32|64)_C\((0x[0-9a-f]+)\)$", line)
    if m:
        macros[m.group(1)] = int(m.group(2), 16)
prefix = json.load(open(sys.argv[3]))["spec"]["prefix"]
bad = []
for e in events:
    stem = "%s_EV_%s_%s" % (prefix, e["block"].upper(), re.sub(r"[^A-Za-z0-9_]", "_", e["event"]).upper())
    if macros.get(stem) != int(e["encoding"], 16):
        bad.append("%s: encoding %s, header %s" % (e["name"], e["encoding"], hex(macros.get(stem, -1))))
    ctrs = sum(1 << c for c in e["counters"])
    if ctrs and macros.get(stem + "_COUNTERS") != ctrs:
        bad.append("%s: counters %s, header %s" % (e["name"], hex(ctrs), hex(macros.get(stem + "_COUNTERS", -1))))
print(len(events))
if bad:
    print("\n".join(bad[:10]))
    sys.exit(1)
PY
    ); then
        tap_ok "events $spec: every one of $out events has the header's encoding and counters"
    else
        tap_fail "events $spec: the header's encodings and counters" "$out"
    fi
done

golden events-search-doorbell 0 events doorbell
golden events-mbox-flag-mode 0 events xeon7500_mbox.mbox CYCLES_DSP_FILL.RDQ
golden events-ev-sel-ext 0 events e5_2600v2.pcu DELAYED_C_STATE_ABORT_CORE10
golden events-cmask 0 events snb_client arb:TRK_OCCUPANCY
golden events-json 0 --json events e5_2600v2.ubox DOORBELL
# a filter the spec does not model: named, with its registers
golden events-unmodelled 0 events e5_2600v2.qpi CTO_COUNT
golden events-no-match 1 events no_event_is_called_this
golden events-bad-scope 2 events e5_2600.nobox x
golden events-too-many 2 events a b c
golden events-perf 0 events --perf e5_2600v2.ubox EVENT_MSG
golden events-perf-none 0 events --perf e5_2600v2.pcu DELAYED_C_STATE_ABORT_CORE10
golden events-perf-alias 0 events unc_c_llc_lookup.data_read
tap_done
