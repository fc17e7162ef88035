#!/usr/bin/env bash
# tests/runtime/run-metrics.sh - regctl metrics and monitor --metric (docs/monitoring.md,
# "Metrics"; docs/regspec.md, "Metrics").
#
# Every metric of every spec (as `regctl --json metrics` lists them) is measured on the
# simulator: the test injects traffic into the sub-events its events are made of, with a
# different rate on each instance of a block (C-Box, memory channel, QPI port), runs
# `regctl --backend sim --json monitor SPEC --metric NAME` for four intervals, and compares
# each interval's value and the run's with the formula computed here by hand from the
# injected rates: HAND below, written from the metrics' sources (CAS commands x 64 bytes,
# data flits x 8 bytes, two flit slots per QPI clock, cycles over PCU clocks, C-Box lookups
# by the state they found), not from the spec's formula text. A metric without a HAND entry
# fails. On the simulator 'seconds' is the interval asked for (10ms), not the time measured.
# Then: a zero denominator is n/a (JSON null), and the usage errors.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${REGCTL:=build/regctl}"
tap_setup tmp

if ! command -v python3 >/dev/null; then
    tap_skip "metrics on the simulator" "python3 is not installed"
    tap_done
    exit 0
fi

"$REGCTL" --json metrics >"$tmp/metrics.json" 2>"$tmp/err" ||
    tap_fail "regctl --json metrics" "$(cat "$tmp/err")"

python3 - "$REGCTL" "$tmp" <<'PY'
import json, math, subprocess, sys

regctl, tmp = sys.argv[1], sys.argv[2]
SEC = 0.010  # --interval 10ms
GB = 1e9

# metric -> (the traffic injected: BLOCK:EVENT of sub-events, per instance), value from r
# (r[EVENT] = that traffic summed over the block's instances in one interval) and seconds.
def rd(r): return r['imc:CAS_COUNT.RD_REG'] + r['imc:CAS_COUNT.RD_UNDERFILL']   # RD = 0x3
def wr(r): return r['imc:CAS_COUNT.WR_RMM'] + r['imc:CAS_COUNT.WR_WMM']         # WR = 0xc
CAS = ['imc:CAS_COUNT.RD_REG', 'imc:CAS_COUNT.RD_UNDERFILL', 'imc:CAS_COUNT.WR_RMM',
       'imc:CAS_COUNT.WR_WMM']
def pcu(ev, other=None):   # other: traffic of another sub-event, which must not count
    return (['pcu:' + ev, 'pcu:CLOCKTICKS'] + (['pcu:' + other] if other else []),
            lambda r, s: 100.0 * r['pcu:' + ev] / r['pcu:CLOCKTICKS'])
BAND0 = ['pcu:FREQ_BAND0_CYCLES,freq=11', 'pcu:FREQ_BAND0_CYCLES,freq=12', 'pcu:FREQ_BAND0_CYCLES,freq=30']
BAND1 = ['pcu:FREQ_BAND1_CYCLES,freq=19', 'pcu:FREQ_BAND1_CYCLES,freq=20', 'pcu:FREQ_BAND1_CYCLES,freq=24']
DRD = ['cbox:LLC_LOOKUP.DATA_READ,state=%d' % st for st in (0, 1, 3, 4)]
LOOKUP = ['cbox:CACHE_LOOKUP.ANY_M', 'cbox:CACHE_LOOKUP.ANY_ES', 'cbox:CACHE_LOOKUP.ANY_I']
def lookups(r): return sum(r[e] for e in LOOKUP)   # every state: the ANY_MESI counter's count
ANY = ['cbox:LLC_LOOKUP.ANY,state=%d' % st for st in (0, 1, 2, 3, 4, 5)]
HAND = {
    'mem_bw_read': (CAS, lambda r, s: rd(r) * 64 / s / GB),
    'mem_bw_write': (CAS, lambda r, s: wr(r) * 64 / s / GB),
    'mem_bw': (CAS, lambda r, s: (rd(r) + wr(r)) * 64 / s / GB),
    'qpi_data_bw_tx': (['qpi:TxL_FLITS_G0.DATA', 'qpi:TxL_FLITS_G0.NON_DATA'],
                       lambda r, s: r['qpi:TxL_FLITS_G0.DATA'] * 8 / s / GB),
    'qpi_data_bw_rx': (['qpi:RxL_FLITS_G0.DATA', 'qpi:RxL_FLITS_G0.NON_DATA'],
                       lambda r, s: r['qpi:RxL_FLITS_G0.DATA'] * 8 / s / GB),
    'qpi_link_util_rx': (['qpi:RxL_FLITS_G0.DATA', 'qpi:RxL_FLITS_G0.NON_DATA', 'qpi:CLOCKTICKS'],
                         lambda r, s: 100.0 * (r['qpi:RxL_FLITS_G0.DATA'] + r['qpi:RxL_FLITS_G0.NON_DATA'])
                         / (2 * r['qpi:CLOCKTICKS'])),
    'pcu_freq_thermal_ltd': pcu('FREQ_MAX_LIMIT_THERMAL_CYCLES'),
    'pcu_freq_power_ltd': pcu('FREQ_MAX_POWER_CYCLES'),
    'pcu_freq_os_ltd': pcu('FREQ_MAX_OS_CYCLES'),
    'pcu_freq_current_ltd': pcu('FREQ_MAX_CURRENT_CYCLES'),
    # the filter set by the formula (band 0 >= 12, band 1 >= 20 x 100 MHz): only the cycles at
    # or above it count (perf-json: filter_bandN in 100 MHz units)
    'pcu_freq_ge_1200mhz': (BAND0 + ['pcu:CLOCKTICKS'],
                            lambda r, s: 100.0 * (r[BAND0[1]] + r[BAND0[2]]) / r['pcu:CLOCKTICKS']),
    'pcu_freq_ge_2000mhz': (BAND1 + ['pcu:CLOCKTICKS'],
                            lambda r, s: 100.0 * (r[BAND1[1]] + r[BAND1[2]]) / r['pcu:CLOCKTICKS']),
    'pcu_cores_c0': pcu('POWER_STATE_OCCUPANCY.CORES_C0', 'POWER_STATE_OCCUPANCY.CORES_C3'),
    'pcu_cores_c3': pcu('POWER_STATE_OCCUPANCY.CORES_C3', 'POWER_STATE_OCCUPANCY.CORES_C6'),
    'pcu_cores_c6': pcu('POWER_STATE_OCCUPANCY.CORES_C6', 'POWER_STATE_OCCUPANCY.CORES_C0'),
    # E5 C-Box lookups by the state they found (I, S, M, F); the formula's state filter: every
    # state for lookups, I (not present) for misses
    'llc_data_read_lookups': (DRD, lambda r, s: sum(r[e] for e in DRD) / s),
    'llc_data_read_misses': (DRD, lambda r, s: r[DRD[0]] / s),
    # Xeon 7500: B-Box read commands (FVC_EV0 with its sub-control on reads) x 64 bytes
    ('xeon7500_mbox', 'mem_bw_read'): (['mbox:FVC_EV0'], lambda r, s: r['mbox:FVC_EV0'] * 64 / s / GB),
    'llc_lookups': (LOOKUP, lambda r, s: lookups(r) / s),
    'llc_misses': (LOOKUP, lambda r, s: r['cbox:CACHE_LOOKUP.ANY_I'] / s),
    'llc_hit_ratio': (LOOKUP, lambda r, s: 100.0 * (lookups(r) - r['cbox:CACHE_LOOKUP.ANY_I']) / lookups(r)),
    # E5-2600 v2 lookups of any request by the state they found (I, S, E, M, F, M'): every state
    # less state I over every state; misses: state I
    ('e5_2600v2', 'llc_misses'): (ANY, lambda r, s: r[ANY[0]] / s),
    ('e5_2600v2', 'llc_hit_ratio'): (ANY, lambda r, s: 100.0 * (sum(r[e] for e in ANY) - r[ANY[0]])
                                     / sum(r[e] for e in ANY)),
}

n = 0
def ok(name):
    global n
    n += 1
    print('ok %d - %s' % (n, name))
def fail(name, why):
    global n
    n += 1
    print('not ok %d - %s' % (n, name))
    for line in str(why).splitlines()[:12]:
        print('#   ' + line)

metrics = json.load(open(tmp + '/metrics.json'))
models = {}
for m in metrics:
    spec, name = m['spec'], m['name']
    label = '%s %s' % (spec, name)
    key = (spec, name) if (spec, name) in HAND else name   # a spec's own formula first
    if key not in HAND:
        fail(label, 'no hand formula in tests/runtime/run-metrics.sh for this metric')
        continue
    if spec not in models:
        models[spec] = json.load(open('generated/%s.json' % spec))
    blocks = {b['name']: [i['name'] for i in b['instances']] for b in models[spec]['blocks']}
    traffic, hand = HAND[key]
    args, r = [], {}
    for t, ev in enumerate(traffic):
        block, event = ev.split(':')
        r[ev] = 0
        for k, inst in enumerate(blocks[block] or [None]):
            rate = 1000 * (t + 1) + 37 * (k + 1) * (t + 2)   # every instance its own rate
            if ev.endswith('CLOCKTICKS'):
                rate = 400000 + 1000 * k                      # at most one per cycle
            where = '%s[%s]' % (block, inst) if inst else block
            args += ['--sim-rate', '%s:%s=%d' % (where, event, rate)]
            r[ev] += rate
    cmd = [regctl, '--backend', 'sim', '--json', 'monitor', spec, '--metric', name,
           '--interval', '10ms', '--count', '4'] + args
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        fail(label, '%s\nexit %d\n%s' % (' '.join(cmd), p.returncode, p.stderr))
        continue
    doc = json.loads(p.stdout)
    want = hand(r, SEC)
    # terms multiplexed in G groups (two values of one filter): an interval's value is the change
    # of the scaled estimates, exact from interval G+1 on (docs/monitoring.md, "More events than
    # counters"); the run's always
    pcnt = doc.get('percent_running', [100.0])
    groups = round(100.0 / min(pcnt)) if min(pcnt) > 0 else 0
    skip = groups if groups > 1 else 0
    got = [row['metrics'][name]['value'] for row in doc['intervals'][skip:]] + [doc['metrics'][name]['value']]
    if groups < 1 or len(got) < 2:
        fail(label, 'no interval to compare (%d groups)' % groups)
        continue
    bad = [g for g in got if g is None or not math.isclose(g, want, rel_tol=1e-12)]
    unit = doc['metrics'][name]['unit']
    if bad or unit != m['unit'] or want == 0:
        fail(label, 'by hand %r %s, regctl %r %s (%s)' % (want, m['unit'], got, unit, ' '.join(cmd)))
    else:
        ok('%s: %.6g %s, by hand, in %s and for the run' % (label, want, unit, 'intervals 3-4 (2 groups)' if skip else 'every interval'))
open(tmp + '/n', 'w').write(str(n))
PY
tap_n=$(cat "$tmp/n" 2>/dev/null || echo 0)

# A zero denominator: cycles counted, no PCU or QPI clock ticks. n/a in text, null in JSON
# (not inf, not a crash).
run() { "$REGCTL" --backend sim "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/status"; }
run monitor e5_2600 --metric pcu_freq_thermal_ltd --interval 10ms --count 1 \
    --sim-rate pcu:FREQ_MAX_LIMIT_THERMAL_CYCLES=100
if [ "$(cat "$tmp/status")" = 0 ] && grep -q '^   total  metric pcu_freq_thermal_ltd  *n/a %$' "$tmp/out"; then
    tap_ok "a zero denominator is n/a (text)"
else
    tap_fail "a zero denominator is n/a (text)" "$(cat "$tmp/out" "$tmp/err")"
fi
run --json monitor e5_2600 --metric qpi_link_util_rx --interval 10ms --count 1 \
    --sim-rate 'qpi[qpi1]:RxL_FLITS_G0.DATA=100'
if [ "$(cat "$tmp/status")" = 0 ] && python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(d["metrics"]["qpi_link_util_rx"]["value"] is not None or
         d["intervals"][0]["metrics"]["qpi_link_util_rx"]["value"] is not None)' "$tmp/out"; then
    tap_ok "a zero denominator is null (JSON)"
else
    tap_fail "a zero denominator is null (JSON)" "$(cat "$tmp/out" "$tmp/err")"
fi

# A metric's settings reach the registers regctl programs, as independent sources write them:
# the M-Box read bandwidth's sub-control is the kernel's bbox_cmds_read "fvc 0x2800" (evnt0 5,
# bcmd 0) on both M-Boxes; the PCU's band 0 at 1.2 GHz is 12 (100 MHz units) in filter bits 7:0.
# A dry run reads every register as 0 and writes each setting by itself (read-modify-write):
# the value is the OR of the register's writes before the box's first counter control.
setting_written() {   # label spec metric register value
    "$REGCTL" --backend sim --dry-run monitor "$2" --metric "$3" --interval 10ms --count 1 \
        >"$tmp/out" 2>"$tmp/err"
    local got
    got=$(python3 - "$4" "$tmp/out" <<'PY'
import re, sys
reg, v, n = sys.argv[1], 0, 0
box = reg.rsplit('.', 1)[0] + '.'
for line in open(sys.argv[2]):
    f = line.split()
    if f[0] == 'write' and f[1].startswith(box) and re.search(r'(CNT_CTL|PMON_CTL)[0-9]+$', f[1]):
        break   # the box's first counter control: the settings are written before it
    if f[0] == 'write' and f[1] == reg:
        v, n = v | int(f[4], 16), n + 1
print('0x%x' % v if n else '')
PY
)
    if [ "$got" = "$5" ]; then
        tap_ok "$1"
    else
        tap_fail "$1" "written: ${got:-nothing}" "$(grep "$4" "$tmp/out" | head -5)" "$(cat "$tmp/err")"
    fi
}
setting_written "--metric mem_bw_read (Xeon 7500): M-Box 0's ZDP_CTL_FVC = 0x2800" \
    xeon7500_mbox mem_bw_read mbox.mbox0.M_MSR_PMU_ZDP_CTL_FVC 0x2800
setting_written "--metric mem_bw_read (Xeon 7500): M-Box 1's ZDP_CTL_FVC = 0x2800" \
    xeon7500_mbox mem_bw_read mbox.mbox1.M_MSR_PMU_ZDP_CTL_FVC 0x2800
setting_written "--metric pcu_freq_ge_1200mhz: the PCU band filter = 12 (1.2 GHz)" \
    e5_2600 pcu_freq_ge_1200mhz pcu.PCU_MSR_PMON_BOX_FILTER 0xc

# A metric and an event that need two values of one C-Box's state filter: counted in turns
# (multiplexed); with --no-multiplex refused, naming both, the field and both values
run monitor e5_2600 --metric llc_data_read_lookups \
    'cbox[cbox0]:LLC_LOOKUP.DATA_READ,Cn_MSR_PMON_BOX_FILTER.state=0x1' --interval 10ms --count 1 --no-multiplex
if [ "$(cat "$tmp/status")" = 1 ] &&
    grep -q "cannot be counted together in cbox.cbox0: they need Cn_MSR_PMON_BOX_FILTER.state = 0x1 and 0x1f; one filter register holds one value; multiplexing would count them in turns, but it is off (regctl: --no-multiplex)" "$tmp/err"; then
    tap_ok "--no-multiplex: a metric's filter value and an event's other value of it are refused together"
else
    tap_fail "--no-multiplex: a metric's filter value and an event's other value of it are refused together" \
        "status $(cat "$tmp/status")" "$(cat "$tmp/err")"
fi

# llc_hit_ratio (E5-2600 v2): lookups in every state and in state I, two values of the state
# filter, multiplexed. Per interval C-Box 0 finds the line in M' 10, M 20, S 30 and I 40 times,
# C-Box 1 in E 13 and I 7 times: (120 - 47) / 120 = 60.8333...%; llc_misses 47 per 10 ms
L='LLC_LOOKUP.ANY'
run --json monitor e5_2600v2 --metric llc_hit_ratio --metric llc_misses --interval 10ms --count 4 \
    --sim-rate "cbox[c0]:$L,state=5=10" --sim-rate "cbox[c0]:$L,state=3=20" \
    --sim-rate "cbox[c0]:$L,state=1=30" --sim-rate "cbox[c0]:$L,state=0=40" \
    --sim-rate "cbox[c1]:$L,state=2=13" --sim-rate "cbox[c1]:$L,state=0=7"
got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = d["metrics"]
want_ratio = (120 - 47) / 120 * 100
want_miss = 47 / 0.010
print(abs(m["llc_hit_ratio"]["value"] - want_ratio) < 1e-9 and m["llc_hit_ratio"]["unit"] == "%"
      and abs(m["llc_misses"]["value"] - want_miss) < 1e-6 and d["percent_running"] == [50.0, 50.0])
' "$tmp/out" 2>&1)
if [ "$(cat "$tmp/status")" = 0 ] && [ "$got" = True ]; then
    tap_ok "llc_hit_ratio: two state-filter values multiplexed, the ratio by hand (60.83 %)"
else
    tap_fail "llc_hit_ratio: two state-filter values multiplexed, the ratio by hand (60.83 %)" \
        "$got" "$(head -c 1500 "$tmp/out")" "$(cat "$tmp/err")"
fi

# CSV: a row per metric, value and unit; the events the metric needs are programmed as well,
# an event without an instance once, summed over every box (as 'imc:CAS_COUNT.RD' given alone)
run monitor e5_2600 --csv --metric mem_bw_read --interval 10ms --count 1 \
    --sim-rate 'imc[imc1]:CAS_COUNT.RD=15625'
if grep -qx '1,-,metric:mem_bw_read,0.10000000000000001,GB/s' "$tmp/out" &&
    grep -qx '1,-,imc:CAS_COUNT.RD,15625' "$tmp/out" && ! grep -q 'imc\[' "$tmp/out"; then
    tap_ok "--csv: the metric's row (15625 x 64 B in 10ms = 0.1 GB/s) and its events' rows"
else
    tap_fail "--csv: the metric's row and its events' rows" "$(cat "$tmp/out" "$tmp/err")"
fi

# perf stat's machine forms: a row per metric whose last two columns (perf's metric value and
# metric unit) carry it, value and unit columns empty, the value empty when n/a. By hand:
# 15625 + 31250 reads x 64 B in 10ms = 0.3 GB/s in each interval; no QPI clock: n/a.
run monitor e5_2600 -x , --metric mem_bw_read --metric qpi_link_util_rx --interval 10ms --count 2 \
    --sim-rate 'imc[imc1]:CAS_COUNT.RD=15625' --sim-rate 'imc[imc3]:CAS_COUNT.RD=31250'
if [ "$(cat "$tmp/status")" = 0 ] && python3 - "$tmp/out" <<'PY'
import csv, math, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r[3].startswith('metric:')]
want = (46875 * 64 / 0.010) / 1e9
got = [(r[0], r[1], r[2], r[3], r[4], r[5], r[7]) for r in rows]
sys.exit(not (len(rows) == 4 and
    got == [(t, '', '', m, '10000000', '100.00', u) for t in ('0.010000000', '0.020000000')
            for m, u in (('metric:mem_bw_read', 'GB/s'), ('metric:qpi_link_util_rx', '%'))] and
    all(math.isclose(float(r[6]), want, rel_tol=1e-12) for r in rows[0::2]) and
    all(r[6] == '' for r in rows[1::2])))
PY
then
    tap_ok "-x ,: a row per metric and interval, 0.3 GB/s by hand in perf's metric columns, n/a empty"
else
    tap_fail "-x ,: a row per metric and interval in perf's metric columns" "$(cat "$tmp/out" "$tmp/err")"
fi
# A run's totals (a command, no interval asked): one row per metric without the time column;
# on the simulator the run is one interval of 1 s: 15625 x 64 B in 1 s = 0.001 GB/s.
run monitor e5_2600 -x ';' --metric mem_bw_read --sim-rate 'imc[imc1]:CAS_COUNT.RD=15625' -- true
if [ "$(cat "$tmp/status")" = 0 ] &&
    [ "$(grep metric "$tmp/out")" = ';;metric:mem_bw_read;1000000000;100.00;0.001;GB/s' ]; then
    tap_ok "-x ';' with a command: the run's metric row (0.001 GB/s by hand), no time column"
else
    tap_fail "-x ';' with a command: the run's metric row" "$(cat "$tmp/out" "$tmp/err")"
fi
# -j with --socket: a line per metric and socket, each from its own socket's counts (by hand as
# the text test below: 0.64 and 0.36 GB/s; the PCU limit n/a on socket 0, 25 % on socket 1).
run monitor e5_2600 -j --metric mem_bw_read --metric pcu_freq_os_ltd --socket all --sim-sockets 2 \
    --interval 10ms --count 1 --sim-rate 'imc[imc0]:CAS_COUNT.RD=100000@0' \
    --sim-rate 'imc[imc2]:CAS_COUNT.RD=56250@1' --sim-rate pcu:CLOCKTICKS=1000@1 \
    --sim-rate pcu:FREQ_MAX_OS_CYCLES=250@1
if [ "$(cat "$tmp/status")" = 0 ] && python3 - "$tmp/out" <<'PY'
import json, math, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
mets = [r for r in rows if r['event'].startswith('metric:')]
want = {('metric:mem_bw_read', 'S0'): 100000 * 64 / 0.010 / 1e9,
        ('metric:mem_bw_read', 'S1'): 56250 * 64 / 0.010 / 1e9,
        ('metric:pcu_freq_os_ltd', 'S0'): None, ('metric:pcu_freq_os_ltd', 'S1'): 100.0 * 250 / 1000}
ok = len(mets) == 4 and len(rows) > 4
for r in mets:
    w = want.get((r['event'], r['socket']), 'none')
    ok = ok and 'counter-value' not in r and r['interval'] == 0.01 and r['pcnt-running'] == 100.0
    ok = ok and r['metric-unit'] == ('GB/s' if 'mem_bw' in r['event'] else '%')
    ok = ok and (r['metric-value'] is None if w is None else
                 w != 'none' and math.isclose(float(r['metric-value']), w, rel_tol=1e-12))
sys.exit(not ok)
PY
then
    tap_ok "-j --socket: a line per metric and socket, by hand, n/a as null"
else
    tap_fail "-j --socket: a line per metric and socket" "$(cat "$tmp/out" "$tmp/err")"
fi

# --per-box: each box's row of the events given, the metric still the sum over every box of
# each of its terms (by hand: 15625 + 31250 reads x 64 B in 10ms = 0.3 GB/s; the PCU's limit
# held 250 of 1000 clocks, 25 %)
run monitor e5_2600 imc:CAS_COUNT.RD --per-box -x , --metric mem_bw_read --metric pcu_freq_os_ltd \
    --interval 10ms --count 1 --sim-rate 'imc[imc1]:CAS_COUNT.RD=15625' \
    --sim-rate 'imc[imc3]:CAS_COUNT.RD=31250' --sim-rate pcu:CLOCKTICKS=1000 \
    --sim-rate pcu:FREQ_MAX_OS_CYCLES=250
if [ "$(cat "$tmp/status")" = 0 ] && python3 - "$tmp/out" <<'PY'
import csv, math, sys
rows = list(csv.reader(open(sys.argv[1])))
boxes = [(r[3], r[1]) for r in rows if r[3].startswith('imc[')][:4]
mets = {r[3]: float(r[6]) for r in rows if r[3].startswith('metric:')}
sys.exit(not (boxes == [('imc[imc0]:CAS_COUNT.RD', '0'), ('imc[imc1]:CAS_COUNT.RD', '15625'),
                        ('imc[imc2]:CAS_COUNT.RD', '0'), ('imc[imc3]:CAS_COUNT.RD', '31250')] and
              mets.keys() == {'metric:mem_bw_read', 'metric:pcu_freq_os_ltd'} and
              math.isclose(mets['metric:mem_bw_read'], 46875 * 64 / 0.010 / 1e9, rel_tol=1e-12) and
              math.isclose(mets['metric:pcu_freq_os_ltd'], 100.0 * 250 / 1000, rel_tol=1e-12)))
PY
then
    tap_ok "--per-box: a row per box, the metrics over every box (0.3 GB/s, 25 %, by hand)"
else
    tap_fail "--per-box: a row per box, the metrics over every box" "$(cat "$tmp/out" "$tmp/err")"
fi

# Two sockets: each socket's value from its own channels, the total from every socket's
# (by hand: 100000 and 56250 reads x 64 B in 10ms: 0.64 and 0.36 GB/s, 1 GB/s in all; the
# PCU's limit held 250 of socket 1's 1000 clocks, socket 0 counted none: n/a).
run monitor e5_2600 --metric mem_bw_read --metric pcu_freq_os_ltd --socket all --sim-sockets 2 \
    --interval 10ms --count 1 --sim-rate 'imc[imc0]:CAS_COUNT.RD=100000@0' \
    --sim-rate 'imc[imc2]:CAS_COUNT.RD=56250@1' --sim-rate pcu:CLOCKTICKS=1000@1 \
    --sim-rate pcu:FREQ_MAX_OS_CYCLES=250@1
rows=$(sed -n 's/^ *\(1\|total\)  metric \([a-z_]*\) \[\([^]]*\)\]  *\([^ ]*\)  *\([^ ]*\)  *\([^ ]*\)$/\1 \2 \3 \4 \5 \6/p' "$tmp/out")
want="1 mem_bw_read GB/s 0.64 0.36 1
1 pcu_freq_os_ltd % n/a 25 25
total mem_bw_read GB/s 0.64 0.36 1
total pcu_freq_os_ltd % n/a 25 25"
if [ "$(cat "$tmp/status")" = 0 ] && [ "$rows" = "$want" ]; then
    tap_ok "--socket: a metric per socket and in total, by hand"
else
    tap_fail "--socket: a metric per socket and in total" "$rows" "$(cat "$tmp/out" "$tmp/err")"
fi

# The perf backend (a fake sysfs with the kernel's E5-2600 v2 PMUs, tests/runtime/perf-sysfs.sh):
# --metric mem_bw_read opens CAS_COUNT.RD on every iMC PMU the kernel registers, each with the
# config of the header's E5_2600V2_EV_IMC_CAS_COUNT_RD.
(cd "$tmp" && bash "$OLDPWD/tests/runtime/perf-sysfs.sh" "$OLDPWD/tests/runtime/data/perf-formats/ivbep.txt" sys 9) \
    >/dev/null 2>&1
"$REGCTL" --backend perf --sysfs-root "$tmp/sys" --dry-run monitor e5_2600v2 --metric mem_bw_read \
    >"$tmp/out" 2>"$tmp/err"
want=$(sed -n 's/^#define E5_2600V2_EV_IMC_CAS_COUNT_RD  *UINT32_C(\(0x[0-9a-f]*\))$/\1/p' generated/e5_2600v2.h)
pmus=$(cd "$tmp/sys/bus/event_source/devices" 2>/dev/null && ls -d uncore_imc_* | sort | tr '\n' ' ')
opened=$(sed -n "s|^perf_event_open imc:CAS_COUNT.RD \(uncore_imc_[0-9]*\)/.* config=$want .*|\1|p" \
    "$tmp/out" | sort | tr '\n' ' ')
if [ -n "$want" ] && [ -n "$pmus" ] && [ "$opened" = "$pmus" ]; then
    tap_ok "--backend perf: --metric mem_bw_read opens config $want on every iMC PMU ($pmus)"
else
    tap_fail "--backend perf: --metric mem_bw_read on every iMC PMU" \
        "want $want on: $pmus; opened: $opened; $(head -n 3 "$tmp/out" "$tmp/err")"
fi

# Usage errors: exit 2 and the message, nothing measured.
expect_usage() {   # name, expected stderr line, regctl arguments...
    local name=$1 want=$2
    shift 2
    run "$@"
    if [ "$(cat "$tmp/status")" = 2 ] && grep -qxF "$want" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        tap_ok "$name"
    else
        tap_fail "$name" "status $(cat "$tmp/status"); $(cat "$tmp/err")"
    fi
}
expect_usage "--metric: an unknown metric, with a suggestion" \
    "regctl: monitor: no metric 'mem_bw_reed' in spec 'e5_2600'; did you mean 'mem_bw_read'?" \
    monitor e5_2600 --metric mem_bw_reed --count 1
expect_usage "--metric excludes --sample" \
    "regctl: monitor: --metric computes from counts; it excludes --sample" \
    monitor e5_2600 --metric mem_bw --sample 100 --count 1
# The limits of --metric, on a user's copy of e5_2600v2 (regctl --spec) with metrics over five
# C-Box events on C-Boxes by name (cbox[cN]:EVENT): 'many' names 75 (more than one metric may), 'half1'
# and 'half2' 40 each (80 events for one run), each refused naming its limit.
python3 - generated/e5_2600v2.json "$tmp/many.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
cbox = next(b for b in m['blocks'] if b['name'] == 'cbox')
evs = [e for e in cbox['events'] if not e['filters'] and not e['unmodelled_filters']][:5]
terms = [(i['name'], e['name']) for i in cbox['instances'] for e in evs]
def metric(name, terms):
    return {'name': name, 'formula': ' + '.join('cbox[%s]:%s' % t for t in terms),
        'unit': '/s', 'scale': 1, 'desc': None, 'source': m['metrics'][0]['source'],
        'events': [{'text': 'cbox[%s]:%s' % t, 'block': 'cbox', 'instance': t[0],
                    'event': t[1], 'encoding': '0x0', 'settings': []} for t in terms],
        'rpn': [{'op': 'event', 'term': 0}] + sum(([{'op': 'event', 'term': i}, {'op': 'add'}]
                                                   for i in range(1, len(terms))), [])}
m['metrics'] += [metric('many', terms), metric('half1', terms[:40]), metric('half2', terms[35:75])]
json.dump(m, open(sys.argv[2], 'w'))
PY
expect_usage "--metric: a metric naming more events than one may, refused naming the limit" \
    "regctl: monitor: --metric many names more than 64 events" \
    --spec "$tmp/many.json" monitor e5_2600v2 --metric many --count 1
expect_usage "--metric: more events than the metrics of a run may add, refused naming the limit" \
    "regctl: monitor: --metric half2: the metrics of one run may add at most 64 events (REGCTL_METRIC_MAX_EVENTS); this one needs more" \
    --spec "$tmp/many.json" monitor e5_2600v2 --metric half1 --metric half2 --count 1
fifty=()
for _ in $(seq 50); do fifty+=(ubox:EVENT_MSG.DOORBELL_RCVD); done
# monitor takes any number of events (issue 28: no limit of 64): 50 given and mem_bw's 16 more
# all count, the metric included, never one dropped
out=$("$REGCTL" --backend sim monitor e5_2600v2 "${fifty[@]}" --metric mem_bw --interval 0 --count 1 \
    --sim-rate 'imc[mc0_ch0]:CAS_COUNT.RD=1000' 2>&1)
rc=$?
if [ $rc = 0 ] && grep -q 'metric mem_bw' <<<"$out" &&
    [ "$(head -1 <<<"$out" | grep -o 'ubox:EVENT_MSG.DOORBELL_RCVD' | wc -l)" = 50 ]; then
    tap_ok "--metric with 50 events given: all 66 counted, the metric printed"
else
    tap_fail "--metric with 50 events given: all 66 counted, the metric printed" "exit $rc" "$out"
fi
expect_usage "metrics: a SPEC that is none" \
    "regctl: metrics: no spec 'e5_2700'; did you mean 'e5_2600v2'?" metrics e5_2700 bw
run metrics e5_2600 bandwith
if [ "$(cat "$tmp/status")" = 1 ] &&
    grep -qxF "regctl: metrics: nothing matches 'bandwith'" "$tmp/err"; then
    tap_ok "metrics: a PATTERN that matches nothing: exit 1"
else
    tap_fail "metrics: a PATTERN that matches nothing: exit 1" "$(cat "$tmp/err")"
fi
run metrics e5_2600v2 BANDWIDTH
if [ "$(cat "$tmp/status")" = 0 ] &&
    [ "$(sed -n 's/^\([a-z_0-9]*\)  (e5_2600v2, .*/\1/p' "$tmp/out" | tr '\n' ' ')" = "mem_bw_read mem_bw_write mem_bw " ]; then
    tap_ok "metrics SPEC PATTERN: the memory bandwidth metrics of e5_2600v2 (description, any case)"
else
    tap_fail "metrics SPEC PATTERN: the memory bandwidth metrics" "$(cat "$tmp/out" "$tmp/err")"
fi
tap_done
