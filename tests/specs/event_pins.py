#!/usr/bin/env python3
"""event_pins.py MODEL PINS [PERFMON] - every event of a spec held against a second source.

MODEL is regc -t json of the spec (docs/json.md). Each event's selection (its code, its unit
mask, and each setting of another field, <set>) must be stated by a source outside the spec:

  PERFMON   Intel's perfmon file the spec's event tables were converted from (optional; given
            whenever ../shared/perfmon has it). An event with a perfmon name must have a row of
            that name, and: EventCode = the code; UMask << 8 = the unit mask placed in its field
            (perfmon puts UMask at bits 15:8 of the control: the E5 PCU's occ_sel [15:14] value 1
            is UMask 0x40); ExtSel = the setting of bit 21 (ev_sel_ext); CounterMask,
            EdgeDetect, Invert = the settings of bits 28:24, 18, 23 (the Sandy Bridge client's
            CMASK, E, INV); absent keys and settings are 0. No other setting is allowed.
  PINS      tests/specs/<spec>.pins, written from a cited public source (each file says which):
                BLOCK EVENT FIELD=VALUE ...      # source
            FIELD is 'field' (the code field's name), 'code', 'umask', or REGISTER.field for a
            setting; the line must list the event's code field, code, its unit mask if it has
            one, and every setting, with equal values. A perfmon row counted by a fixed counter
            (Counter "Fixed") states no event select: the event must be on a fixed counter's
            control and be pinned.
            A line naming an event the spec lacks is an error too.

An event neither pins nor its perfmon row states is allowed only as the parent of sub-events
(no perfmon name of its own): its code and code field must then equal those of each of its
sub-events, which are held as above, and it may have no unit mask or setting of its own.
Prints one line per event not held or disagreeing; exit 0 when every event is held and agrees,
1 otherwise, 2 on unreadable input.
"""
import json
import sys


def num(v):
    return int(str(v), 0)


def read_pins(path):
    pins, errs = {}, []
    for n, line in enumerate(open(path), 1):
        text = line.split('#', 1)[0].split()
        if not text:
            continue
        if len(text) < 3 or any('=' not in t for t in text[2:]):
            errs.append('%s:%d: expected BLOCK EVENT FIELD=VALUE ...' % (path, n))
            continue
        if '#' not in line:
            errs.append('%s:%d: no source (# ...)' % (path, n))
        kv = {}
        for t in text[2:]:
            k, _, v = t.partition('=')
            try:
                kv[k] = v if k == 'field' else num(v)
            except ValueError:
                errs.append('%s:%d: bad value %s' % (path, n, t))
        pins[(text[0], text[1])] = (kv, '%s:%d' % (path, n))
    return pins, errs


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        model = json.load(open(argv[1]))
        pins, errs = read_pins(argv[2])
        rows = {}
        if len(argv) == 4:
            rows = {r['EventName'].upper(): r for r in json.load(open(argv[3]))['Events']}
    except (OSError, ValueError) as e:
        print('event_pins: %s' % e, file=sys.stderr)
        return 2
    bad = list(errs)
    held = {'perfmon': 0, 'pins': 0, 'parent': 0}
    seen = set()
    for b in model['blocks']:
        events = b.get('events') or []
        fields = {r['name']: {f['name']: f for f in r['fields']} for r in b['registers']}
        children = {}
        for ev in events:
            if ev.get('parent'):
                children.setdefault(ev['parent'], []).append(ev)

        def state(ev):
            """code, umask and settings of ev as REGISTER.field -> value."""
            kv = {'field': ev['field'], 'code': num(ev['code'])}
            if ev.get('umask') is not None:
                kv['umask'] = num(ev['umask'])
            for s in ev.get('sets') or []:
                kv['%s.%s' % (s['register'], s['field'])] = num(s['value'])
            return kv

        fixed_ctl = {c['control'] for c in (b.get('pmon') or {}).get('counters', [])
                     if c.get('kind') == 'fixed'}

        def is_fixed(ev):
            return ev['register'] in fixed_ctl

        def key_of(ev):
            return (b['name'], ev['name'])

        def field_of(reg, name):
            return fields.get(reg, {}).get(name)

        def at(ev, key):
            reg, _, name = key.partition('.')
            f = field_of(reg, name)
            return (f['msb'], f['lsb']) if f and reg == ev['register'] else None

        def by_perfmon(ev, r):
            label = '%s %s' % (b['name'], ev['name'])
            out = []
            kv = state(ev)
            kv.pop('field')
            if str(r.get('Counter', '')).strip().lower() == 'fixed':
                if not is_fixed(ev):
                    out.append('%s: perfmon %s counts on a fixed counter, the spec\'s %s controls none'
                               % (label, r['EventName'], ev['register']))
                if key_of(ev) not in pins:
                    out.append('%s: a fixed counter\'s event: perfmon gives no event select; pin it' % label)
                return out
            if num(r['EventCode']) != kv.pop('code'):
                out.append('%s: code %s, perfmon %s EventCode %s' % (label, ev['code'], r['EventName'], r['EventCode']))
            uf = field_of(ev['register'], ev.get('umask_field') or '')
            placed = kv.pop('umask', 0) << (uf['lsb'] if uf else 8)
            if placed != num(r.get('UMask') or '0') << 8:
                out.append('%s: umask %s (placed %s), perfmon %s UMask %s' %
                           (label, ev.get('umask'), hex(placed), r['EventName'], r.get('UMask')))
            want = {'ExtSel': ((21, 21), 0), 'CounterMask': ((28, 24), 0),
                    'EdgeDetect': ((18, 18), 0), 'Invert': ((23, 23), 0)}
            got = {k: 0 for k in want}
            for key, v in kv.items():
                pos = at(ev, key)
                names = [k for k, (p, _) in want.items() if p == pos]
                if not names:
                    out.append('%s: setting %s=%s: perfmon states no such setting' % (label, key, hex(v)))
                    continue
                got[names[0]] = v
            for k in want:
                if got[k] != num(r.get(k) or '0'):
                    out.append('%s: %s %s, perfmon %s %s' % (label, k, got[k], r['EventName'], r.get(k)))
            return out

        def by_pins(ev, kv, where):
            label = '%s %s' % (b['name'], ev['name'])
            mine = state(ev)
            if mine != kv:
                return ['%s: spec %s, %s %s' % (label, fmt(mine), where, fmt(kv))]
            return []

        def fmt(kv):
            return ' '.join('%s=%s' % (k, v if isinstance(v, str) else hex(v))
                            for k, v in sorted(kv.items()))

        for ev in events:
            key = (b['name'], ev['name'])
            seen.add(key)
            r = rows.get((ev.get('perfmon') or '').upper()) if ev.get('perfmon') else None
            if r is not None:
                bad += by_perfmon(ev, r)
                held['perfmon'] += 1
                if key in pins:
                    bad += by_pins(ev, *pins[key])
            elif key in pins:
                bad += by_pins(ev, *pins[key])
                held['pins'] += 1
            elif ev['name'] in children and not ev.get('perfmon'):
                subs = children[ev['name']]
                for s in subs:
                    if (s['code'], s['field']) != (ev['code'], ev['field']):
                        bad.append('%s %s: code %s (%s), its sub-event %s has %s (%s)' %
                                   (b['name'], ev['name'], ev['code'], ev['field'], s['name'], s['code'], s['field']))
                if ev.get('umask') is not None:
                    bad.append('%s %s: a parent event with a unit mask of its own: pin it' % key)
                held['parent'] += 1
            else:
                bad.append('%s %s: held by no source (code %s%s)' %
                           (b['name'], ev['name'], ev['code'],
                            ' perfmon ' + ev['perfmon'] + ' not in the perfmon file' if ev.get('perfmon') else ''))
    for key, (kv, where) in sorted(pins.items()):
        if key not in seen:
            bad.append('%s: %s %s: no such event in the spec' % (where, key[0], key[1]))
    for line in bad:
        print(line)
    print('%s: %d events held by perfmon, %d by %s, %d parents by their sub-events' %
          (model['spec']['name'], held['perfmon'], held['pins'], argv[2].split('/')[-1], held['parent']))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
