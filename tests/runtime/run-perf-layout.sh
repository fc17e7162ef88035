#!/usr/bin/env bash
# tests/runtime/run-perf-layout.sh - `regctl monitor -x SEP` and `-j` line by line against perf
# stat's layout, written here from Linux tools/perf/util/stat-display.c (as read for issue 28;
# not from runtime/regctl/output.c):
#   -x: [interval "%lu.%09lu" SEP] [socket "S%d" SEP nr SEP] value ("%.0f" of an integral count,
#       or "<not counted>") SEP unit SEP event SEP run time (ns) SEP percentage running ("%.2f",
#       100.00 when run == enabled) SEP metric value SEP metric unit (both empty: two SEPs);
#   -j: one object a line, keys joined by ", " with " : " between key and value, in the order
#       "interval" (%lu.%09lu), "socket" ("S%d"), "aggregate-number" (%d), "counter-value"
#       ("%f": a string), "unit", "event", "event-runtime" (%lu), "pcnt-running" (%.2f),
#       "metric-value" (%f), "metric-unit".
# regctl's own rows (docs/monitoring.md says why): a --metric's row (no count nor unit; n/a:
# an empty field, JSON null) and the rate per second in the metric columns of an event's row.
# The values are the simulator's: rate x intervals, the interval's length in ns.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${REGCTL:=build/regctl}"
tap_setup tmp

if ! command -v python3 >/dev/null; then
    tap_skip "perf stat's -x and -j layout" "python3 is not installed"
    tap_done
    exit 0
fi

R='imc:CAS_COUNT.RD'
rates=(--sim-rate "$R"_REG=1500000)
U=ubox:EVENT_MSG
mux=("$U.DOORBELL_RCVD" "$U.INT_PRIO" "$U.IPI_RCVD" --sim-rate "$U.DOORBELL_RCVD=10"
    --sim-rate "$U.INT_PRIO=20" --sim-rate "$U.IPI_RCVD=30")

# check NAME FORM SEP OUTFILE EXPECT: each line of OUTFILE against the layout (FORM csv or json);
# EXPECT: python literal list of (event, value or None for <not counted>, run ns, pcnt, metric,
# metric unit, interval or None, socket or None) per line, in order
check() {
    local name=$1 form=$2 sep=$3 out=$4 expect=$5 got
    got=$(python3 - "$form" "$sep" "$out" "$expect" <<'PY' 2>&1
import json, re, sys
form, sep, path, expect = sys.argv[1], sys.argv[2], sys.argv[3], eval(sys.argv[4])
lines = open(path).read().splitlines()
bad = []
if len(lines) != len(expect):
    bad.append('%d lines, want %d' % (len(lines), len(expect)))
S = re.escape(sep)
F = '[^%s]*' % S
for n, (line, want) in enumerate(zip(lines, expect)):
    ev, value, run, pcnt, mval, munit, ival, sock = want
    if form == 'csv':
        pat = '^'
        if ival is not None:
            pat += r'(?P<ival>\d+\.\d{9})' + S
        if sock is not None:
            pat += r'(?P<sock>S\d+)' + S + r'(?P<nr>\d+)' + S
        pat += (r'(?P<value>\d+|<not counted>|<not supported>|)' + S + '(?P<unit>' + F + ')' + S +
                '(?P<event>' + F + ')' + S + r'(?P<run>\d+)' + S + r'(?P<pcnt>\d+\.\d{2})' + S +
                '(?P<mval>' + F + ')' + S + '(?P<munit>' + F + ')$')
        m = re.match(pat, line)
        if not m:
            bad.append('line %d does not match the -x layout: %s' % (n + 1, line))
            continue
        g = m.groupdict()
        vals = (g['event'], None if g['value'] == '<not counted>' else g['value'], int(g['run']),
                g['pcnt'], g['mval'], g['munit'], g.get('ival'), g.get('sock'))
    else:
        pat = r'^\{'
        if ival is not None:
            pat += r'"interval" : (?P<ival>\d+\.\d{9}), '
        if sock is not None:
            pat += r'"socket" : "(?P<sock>S\d+)", "aggregate-number" : (?P<nr>\d+), '
        if value != '':
            pat += r'"counter-value" : "(?P<value>\d+\.\d{6}|<not counted>|<not supported>)", "unit" : "[^"]*", '
        pat += (r'"event" : "(?P<event>[^"]*)", "event-runtime" : (?P<run>\d+), '
                r'"pcnt-running" : (?P<pcnt>\d+\.\d{2})')
        if mval != '':
            pat += r', "metric-value" : (?P<mval>-?\d+\.\d{6}|null), "metric-unit" : "(?P<munit>[^"]*)"'
        pat += r'\}$'
        m = re.match(pat, line)
        if not m:
            bad.append('line %d does not match the -j layout: %s' % (n + 1, line))
            continue
        try:
            json.loads(line)
        except ValueError as e:
            bad.append('line %d is not JSON: %s' % (n + 1, e))
        g = m.groupdict()
        v = g.get('value')
        vals = (g['event'], '' if v is None else None if v == '<not counted>' else v.split('.')[0],
                int(g['run']), g['pcnt'], g.get('mval') or '', g.get('munit') or '',
                g.get('ival'), g.get('sock'))
        if v and v != '<not counted>' and not v.endswith('.000000'):
            bad.append('line %d: counter-value %s is not a whole count' % (n + 1, v))
    if vals != tuple(want):
        bad.append('line %d: got %r, want %r' % (n + 1, vals, tuple(want)))
print('\n'.join(bad) if bad else 'ok')
PY
)
    if [ "$got" = ok ]; then tap_ok "$name"; else tap_fail "$name" "$got" "$(head -c 1500 "$out")"; fi
}

# -x , -I 500 --socket: time, socket S0 and 1 session, 1,500,000 per 500 ms, run 500 ms (100%),
# rate 3,000,000/s; the metric's row: 1,500,000 x 64 B / 0.5 s = 0.192 GB/s
"$REGCTL" --backend sim monitor e5_2600v2 "$R" -x , -I 500 --count 2 --socket all --metric mem_bw_read \
    "${rates[@]}" >"$tmp/x.out" 2>"$tmp/err"
check "-x , -I --socket: interval, socket, count, unit, event, run, pcnt, rate" csv , "$tmp/x.out" \
    "[('$R', '1500000', 500000000, '100.00', '3000000.00', 'events/s', '0.500000000', 'S0'),
      ('metric:mem_bw_read', '', 500000000, '100.00', '0.192', 'GB/s', '0.500000000', 'S0'),
      ('$R', '1500000', 500000000, '100.00', '3000000.00', 'events/s', '1.000000000', 'S0'),
      ('metric:mem_bw_read', '', 500000000, '100.00', '0.192', 'GB/s', '1.000000000', 'S0')]"

# -x ';' totals of a command's run (no -I): no time column; the simulator's run is one second
"$REGCTL" --backend sim monitor e5_2600v2 "$R" -x ';' "${rates[@]}" -- true >"$tmp/t.out" 2>"$tmp/err"
check "-x ';' totals: no interval, no socket" csv ';' "$tmp/t.out" \
    "[('$R', '1500000', 1000000000, '100.00', '1500000.00', 'events/s', None, None)]"

# multiplexed (3 events on the U-Box's 2 counters): an event off its counter for the interval is
# <not counted> with run 0 and 0.00 %, its metric columns empty (two separators)
"$REGCTL" --backend sim monitor e5_2600v2 "${mux[@]}" -x , -I 100 --count 2 >"$tmp/m.out" 2>"$tmp/err"
check "-x , multiplexed: <not counted>, run 0, 0.00 %, two empty metric fields" csv , "$tmp/m.out" \
    "[('$U.DOORBELL_RCVD', '10', 100000000, '100.00', '100.00', 'events/s', '0.100000000', None),
      ('$U.INT_PRIO', '20', 100000000, '100.00', '200.00', 'events/s', '0.100000000', None),
      ('$U.IPI_RCVD', None, 0, '0.00', '', '', '0.100000000', None),
      ('$U.DOORBELL_RCVD', None, 0, '0.00', '', '', '0.200000000', None),
      ('$U.INT_PRIO', None, 0, '0.00', '', '', '0.200000000', None),
      ('$U.IPI_RCVD', '60', 100000000, '100.00', '600.00', 'events/s', '0.200000000', None)]"

# -j -I 500 --socket, with a metric
"$REGCTL" --backend sim monitor e5_2600v2 "$R" -j -I 500 --count 1 --socket all --metric mem_bw_read \
    "${rates[@]}" >"$tmp/j.out" 2>"$tmp/err"
check "-j -I --socket: perf's keys, order, separators and number forms" json , "$tmp/j.out" \
    "[('$R', '1500000', 500000000, '100.00', '3000000.000000', 'events/s', '0.500000000', 'S0'),
      ('metric:mem_bw_read', '', 500000000, '100.00', '0.192000', 'GB/s', '0.500000000', 'S0')]"

# -j totals, multiplexed over a command's run (one poll: IPI_RCVD's group never ran)
"$REGCTL" --backend sim monitor e5_2600v2 "${mux[@]}" -j -- true >"$tmp/jm.out" 2>"$tmp/err"
check "-j totals, multiplexed: <not counted> and no metric keys for the event that never ran" json , \
    "$tmp/jm.out" \
    "[('$U.DOORBELL_RCVD', '10', 1000000000, '100.00', '10.000000', 'events/s', None, None),
      ('$U.INT_PRIO', '20', 1000000000, '100.00', '20.000000', 'events/s', None, None),
      ('$U.IPI_RCVD', None, 0, '0.00', '', '', None, None)]"

# a metric that is n/a (no PCU clock ticks): an empty -x field, null in -j
"$REGCTL" --backend sim monitor e5_2600 -j -I 10 --count 1 --metric pcu_freq_thermal_ltd \
    --sim-rate pcu:FREQ_MAX_LIMIT_THERMAL_CYCLES=100 >"$tmp/na.out" 2>"$tmp/err"
grep '"event" : "metric:' "$tmp/na.out" >"$tmp/na.metric"
check "-j: an n/a metric's value is null" json , "$tmp/na.metric" \
    "[('metric:pcu_freq_thermal_ltd', '', 10000000, '100.00', 'null', '%', '0.010000000', None)]"
tap_done
