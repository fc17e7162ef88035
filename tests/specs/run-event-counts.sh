#!/usr/bin/env bash
# tests/specs/run-event-counts.sh - every perfmon row of every unit listed in
# regspec/events/events.conf is either in its generated event table or listed
# as excluded (with a reason) at the top of that file.
#
# For each conf line: rows of the unit in the perfmon JSON (counted here,
# independently of the converter) minus the 'excluded NAME: reason' lines of
# the file's header comment must equal the rows the table holds: each <sub>,
# each <event> without <sub>s, and each <event> with <sub>s that carries its
# own umask (a row without a sub-event part). Each converted name must also
# be a perfmon row of the unit, and no row may be both converted and excluded.
# When regspec/<spec>.xml exists, it must include the table in block <block>.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
pdir=${PERFMON_DIR:-../shared/perfmon}
if ! command -v python3 >/dev/null 2>&1; then
    tap_skip "event counts" "python3 not installed"; tap_done; exit 0
fi
if [ ! -d "$pdir" ]; then
    tap_skip "event counts" "no perfmon data in $pdir"; tap_done; exit 0
fi
python3 - "$pdir" regspec/events/events.conf <<'PY'
import json, os, re, shlex, sys
import xml.etree.ElementTree as ET
pdir, conf = sys.argv[1], sys.argv[2]
n = 0
def tap(ok, name, detail=()):
    global n
    n += 1
    print('%s %d - %s' % ('ok' if ok else 'not ok', n, name))
    for d in ([] if ok else detail):
        print('#   ' + d)
for line in open(conf, encoding='utf-8'):
    line = line.strip()
    if not line or line.startswith('#'):
        continue
    w = shlex.split(line)
    pfile, unit, spec, block = w[0], w[1], w[2], w[3]
    path = os.path.join(os.path.dirname(conf), '%s_%s.xml' % (spec, block))
    name = '%s_%s (%s %s)' % (spec, block, pfile, unit)
    rows = [e['EventName'] for e in json.load(open(os.path.join(pdir, pfile)))['Events']
            if e.get('Unit') == unit]
    try:
        text = open(path, encoding='utf-8').read()
        root = ET.fromstring(text.encode('utf-8'))
    except (OSError, ET.ParseError) as e:
        tap(False, name + ': read', [str(e)])
        continue
    excluded = re.findall(r'^\s*excluded (\S+): \S', text, re.M)
    got = []
    for ev in root.iter('event'):
        subs = ev.findall('sub')
        if not subs or ev.get('umask') is not None:
            got.append(ev.get('name'))
        for s in subs:
            got.append('%s.%s' % (ev.get('name'), s.get('name')))
    tap(len(rows) - len(excluded) == len(got),
        '%s: %d rows - %d excluded = %d converted' % (name, len(rows), len(excluded), len(got)),
        ['table holds %d' % len(got)])
    spec_path = os.path.join(os.path.dirname(os.path.dirname(conf)), spec + '.xml')
    if os.path.exists(spec_path):
        sroot = ET.parse(spec_path).getroot()
        href = 'events/%s_%s.xml' % (spec, block)
        blocks = [b.get('name') for b in sroot.iter('block')
                  if any(i.get('href') == href for i in b.findall('include'))]
        tap(blocks == [block], '%s: included once, in block %s of %s' % (name, block, spec_path),
            ['included in blocks %r' % blocks])
    # The converter keeps a sub-event's further dots as '_' (MESSAGE.DRS.AnyDataC).
    def regspec_name(r):
        ev, dot, sub = re.sub(r'^UNC_[A-Za-z0-9]+_', '', r).partition('.')
        return ev + dot + sub.replace('.', '_')
    stripped = [regspec_name(r) for r in rows]
    unknown = [g for g in got if g not in stripped]
    tap(not unknown, '%s: every converted event is a perfmon row' % name, unknown[:5])
    both = [x for x in excluded if re.sub(r'^UNC_[A-Za-z0-9]+_', '', x) in got
            and rows.count(x) == 1]
    tap(not both, '%s: no row both converted and excluded' % name, both[:5])
print('1..%d' % n)
PY
