#!/usr/bin/env python3
"""perf_export_check.py EXPORT PERFMON [--fixed FILE] [CODE:COUNTERS...] - compare a `regc -t perf` export with Intel's perfmon.

EXPORT is the JSON regc wrote (perf's pmu-events shape); PERFMON is Intel's perfmon
uncore file the spec's event tables cite. For every export entry whose EventName
perfmon also lists, EventCode, UMask, ExtSel, CounterMask, EdgeDetect, Invert (absent: 0)
and Counter must be equal as numbers and counter sets. A unit mask the export writes as
the kernel's JSON does, "Filter": "occ_sel=N" (the PCU's occ_sel [15:14]; the kernel's
jaketown uncore-power.json writes Intel's UMask 0x40 of UNC_P_POWER_STATE_OCCUPANCY.CORES_C0
as "occ_sel=1"), counts as UMask N << 6. CODE:COUNTERS arguments are the known cases where the spec keeps
fewer counters than perfmon on purpose (regspec/events/events.conf limit=, cited
there): entries of event code CODE must give perfmon's counters that COUNTERS
allows; each such difference is printed as 'known:'. A perfmon row counted by a fixed
counter (Counter "Fixed") is compared instead with FILE's line for its EventName
(tests/specs/data/perf/fixed.txt: EventName EventCode Counter Unit, how perf's own JSON
writes it, cited there), and must have no UMask; a fixed row FILE does not list disagrees. Prints one line per
disagreement and a summary 'compared N of M export entries'. A metric entry (MetricName)
must name in its MetricExpr only events the export lists (and duration_time). Exit 0 when all
agree, 1 on a disagreement, 2 on unreadable input or when nothing was compared.
"""
import json
import re
import sys


def num(v):
    return int(str(v), 0)


def ctrs(v):
    return sorted(num(x) for x in str(v).replace(' ', '').split(',') if x != '')


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        export = json.load(open(argv[1]))
        pm = json.load(open(argv[2]))
    except (OSError, ValueError) as e:
        print('perf_export_check: %s' % e, file=sys.stderr)
        return 2
    args, fixed = argv[3:], {}
    if args[:1] == ['--fixed']:
        try:
            for line in open(args[1]):
                f = line.split()
                if f and not f[0].startswith('#'):
                    fixed[f[0].upper()] = f[1:4]
        except (OSError, IndexError) as e:
            print('perf_export_check: --fixed: %s' % e, file=sys.stderr)
            return 2
        args = args[2:]
    limits = {}
    for a in args:
        code, _, c = a.partition(':')
        limits[num(code)] = set(ctrs(c.replace(';', ',')))
    rows = {r['EventName'].upper(): r for r in pm['Events']}
    bad, n = 0, 0
    names = {str(e.get('EventName', '')).upper() for e in export}
    for e in export:
        if 'MetricName' in e:  # a metric: every event its MetricExpr names is exported
            for tok in re.findall(r'[A-Za-z_][A-Za-z0-9_.]*', e.get('MetricExpr', '')):
                if tok != 'duration_time' and tok.upper() not in names:
                    print('%s: MetricExpr names %s, which the export does not list'
                          % (e['MetricName'], tok))
                    bad += 1
            continue
        for key in ('EventName', 'EventCode', 'Counter', 'Unit', 'PerPkg'):
            if key not in e:
                print('%s: no %s' % (e.get('EventName'), key))
                bad += 1
        r = rows.get(str(e.get('EventName', '')).upper())
        if r is None:
            continue
        n += 1
        name = e['EventName']
        if str(r.get('Counter', '')).strip().lower() == 'fixed':
            want = fixed.get(name.upper())
            got = [e.get('EventCode'), e.get('Counter'), e.get('Unit')]
            if want is None or got[1:] != want[1:] or num(got[0]) != num(want[0]) or 'UMask' in e:
                print('%s: fixed counter: EventCode %s, Counter %s, Unit %s, UMask %s; perf '
                      'writes %s' % (name, got[0], got[1], got[2], e.get('UMask'),
                                     'EventCode %s, Counter %s, Unit %s, no UMask' % tuple(want)
                                     if want else 'nothing known (add it to --fixed)'))
                bad += 1
            continue
        if num(e['EventCode']) != num(r['EventCode']):
            print('%s: EventCode %s, perfmon %s' % (name, e['EventCode'], r['EventCode']))
            bad += 1
        umask = num(e.get('UMask', '0'))
        for t in str(e.get('Filter', '')).split(','):
            if t.startswith('occ_sel='):
                umask |= num(t.partition('=')[2]) << 6
        if umask != num(r.get('UMask', '0')):
            print('%s: UMask %s (Filter %s), perfmon %s' % (name, e.get('UMask'), e.get('Filter'),
                                                          r.get('UMask')))
            bad += 1
        for key in ('ExtSel', 'CounterMask', 'EdgeDetect', 'Invert'):
            if num(e.get(key, '0')) != num(r.get(key) or '0'):
                print('%s: %s %s, perfmon %s' % (name, key, e.get(key), r.get(key)))
                bad += 1
        want = ctrs(r['Counter'])
        lim = limits.get(num(r['EventCode']))
        if lim is not None and set(want) - lim:
            want = sorted(set(want) & lim)
            print('known: %s: Counter %s, perfmon %s (limited to %s by the spec)'
                  % (name, e['Counter'], r['Counter'], ','.join(map(str, sorted(lim)))))
        if ctrs(e['Counter']) != want:
            print('%s: Counter %s, perfmon %s' % (name, e['Counter'], r['Counter']))
            bad += 1
    print('compared %d of %d export entries with %s' % (n, len(export), argv[2].split('/')[-1]))
    if n == 0:
        return 2
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
