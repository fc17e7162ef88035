#!/usr/bin/env python3
"""perf_config_check.py EXPORT MODEL HEADER FORMATS - what perf would count from a `regc -t perf` export.

Reads EXPORT (perf's pmu-events JSON that regc wrote) the way perf reads it, with rules written
here from the kernel's sources, not from regc's:

  jevents   torvalds/linux tools/perf/pmu-events/jevents.py, JsonEvent.__init__ (commit
            0434410fa45c9aff6183bb99e0fbc255d75fcf95):
              eventcode = int(EventCode.split(',')[0], 0); if 'ExtSel' in jd:
              eventcode |= int(jd['ExtSel']) << 8; the event string is 'config=<ConfigCode>'
              when ConfigCode is there, else 'event=<eventcode>'; then ',cmask=' CounterMask,
              ',edge=' EdgeDetect, ',inv=' Invert, ',umask=' UMask (each when present and not
              zero), then ',' + Filter as it stands; the PMU is unit_to_pmu(Unit):
              'CBO' -> uncore_cbox, 'QPI LL' -> uncore_qpi, 'iMPH-U' -> uncore_arb, any other
              unit -> 'uncore_' + unit.lower() (perf matches it to uncore_<unit>_<n> too).
  perf      tools/perf/util/pmu.c: a term names a file of the PMU's format directory, whose
            "configN:lo-hi[,b...]" lists the bits the value fills, lowest value bit first; a
            value wider than those bits, or a term the PMU has no format for, is an error;
            config=, config1=, config2= set the word whole.
  kernel    arch/x86/events/intel/uncore.c uncore_pmu_event_init: config & the type's
            .event_mask is what is programmed; config 0xff (UNCORE_FIXED_EVENT) is the fixed
            counter on a type that has one.

FORMATS is a file in the format of tests/runtime/data/perf-formats/snbep.txt (boxes, format,
mask, fixed; 'reg TYPE TERM REGISTER': TERM carries the whole value of the spec's REGISTER, see
tests/specs/data/perf/nhmex.txt), transcribed from the kernel's uncore_*.c.

The truth compared with: MODEL (regc -t json of the spec: each event's register, fields and its
settings on other registers) and HEADER (the generated C header: PREFIX_EV_BLOCK_EVENT, the
control value that encodes the event). For every event of the model:
  - an export entry names it (EventName: its perfmon name, else its own): perf's config, masked
    as the kernel masks it, must equal the header's encoding; each setting on another register
    must reach that register whole through the term FORMATS names for it (config1/config2);
    a fixed counter's entry must be the kernel's fixed event on a type with a fixed counter;
  - no entry names it: allowed only for an event whose table lists sub-events (perf counts
    those), or one whose encoding perf cannot express (a bit no format of its PMU reaches, or
    one the kernel's event mask drops): printed as 'absent:'.
A metric term with settings is an entry of its own (check_metric_aliases). Each other export
entry must name an event of the model. Prints one line per disagreement and a
summary; exit 0 when all agree, 1 on a disagreement, 2 on unreadable input.
"""
import ast
import json
import re
import sys


def num(v):
    return int(str(v), 0)


def unit_to_pmu(unit):
    table = {'CBO': 'uncore_cbox', 'QPI LL': 'uncore_qpi', 'iMPH-U': 'uncore_arb'}
    return table.get(unit, 'uncore_' + unit.lower())


def jevents_terms(e):
    """The event string jevents.py makes of entry e, as a list of (name, value text)."""
    code = 0
    if 'EventCode' in e:
        code = int(e['EventCode'].split(',', 1)[0], 0)
    if 'ExtSel' in e:
        code |= int(e['ExtSel']) << 8
    terms = [('config', e['ConfigCode'])] if 'ConfigCode' in e else [('event', hex(code))]
    for key, term in (('CounterMask', 'cmask'), ('EdgeDetect', 'edge'), ('Invert', 'inv'),
                      ('UMask', 'umask')):
        if key in e and num(e[key]) != 0:
            terms.append((term, e[key]))
    if e.get('Filter'):
        for t in e['Filter'].split(','):
            name, _, val = t.partition('=')
            terms.append((name, val if val else '1'))
    return terms


def read_formats(path):
    fmt, mask, fixed, regs = {}, {}, set(), {}
    for line in open(path):
        f = line.split()
        if not f or f[0].startswith('#'):
            continue
        if f[0] == 'format':
            word, _, spec = f[3].partition(':')
            bits = []
            for part in spec.split(','):
                lo, _, hi = part.partition('-')
                bits += range(int(lo), int(hi or lo) + 1)
            fmt.setdefault(f[1], {})[f[2]] = ({'config': 0, 'config1': 1, 'config2': 2}[word], bits)
        elif f[0] == 'mask':
            mask[f[1]] = num(f[2])
        elif f[0] == 'fixed':
            fixed.add(f[1])
        elif f[0] == 'reg':
            regs.setdefault(f[1], {})[f[3]] = f[2]
    return fmt, mask, fixed, regs


def encode(formats, terms):
    """perf's config words from terms, or an error text."""
    cfg = [0, 0, 0]
    for name, text in terms:
        v = num(text)
        if name in ('config', 'config1', 'config2'):
            cfg[{'config': 0, 'config1': 1, 'config2': 2}[name]] |= v
            continue
        if name not in formats:
            return None, "unknown term '%s' (formats: %s)" % (name, ' '.join(sorted(formats)))
        word, bits = formats[name]
        if v >> len(bits):
            return None, "value %s too big for format '%s' (%d bits)" % (text, name, len(bits))
        for i, b in enumerate(bits):
            if v >> i & 1:
                cfg[word] |= 1 << b
    return cfg, None


def header_encodings(path):
    enc = {}
    for m in re.finditer(r'#define (\w+)\s+UINT(?:32|64)_C\((0x[0-9a-fA-F]+)\)', open(path).read()):
        enc[m.group(1)] = int(m.group(2), 16)
    return enc


# a term of a <metric> formula as written: BLOCK[INSTANCE]:EVENT,SETTING=VALUE...
TERM_RE = r'[A-Za-z_]\w*(?:\[[^\]]*\])?:[^\s()+*/-]+'
NAME_RE = r'[A-Za-z_][A-Za-z0-9_.]*'


def check_metric_aliases(export, model, header, formats, masks, entries, used):
    """A metric term with settings is an export entry of its own, which MetricExpr names where the
    formula has the term: perf must program from it the event's encoding (the header) with the
    control settings in place, and put each box-filter setting's value in config1 at the bits of
    the spec's field (the kernel writes config1 to the box's filter registers, 32 bits each: its
    uncore_snbep.c *_cbox_enable_event, *_pcu_hw_config), nothing else there. (count, bad)"""
    prefix = model['spec']['prefix']
    metrics = {m['name']: m for m in model.get('metrics') or []}
    blocks = {b['name']: b for b in model['blocks']}
    n, bad = 0, 0
    for e in export:
        if 'MetricName' not in e:
            continue
        m = metrics.get(e['MetricName'])
        if m is None:
            print('metric %s: not in the model' % e['MetricName'])
            bad += 1
            continue
        try:  # perf's expression grammar is C's arithmetic: Python's for + - * / ( ) numbers
            ast.parse(re.sub(NAME_RE, 'x', e.get('MetricExpr', '')), mode='eval')
        except SyntaxError as err:
            print('metric %s: MetricExpr does not parse: %s' % (m['name'], err))
            bad += 1
        names = [t for t in re.findall(NAME_RE, e.get('MetricExpr', '')) if t != 'duration_time']
        texts = [t for t in re.findall(TERM_RE, m['formula'])]
        if len(names) != len(texts):
            print('metric %s: MetricExpr names %d events, the formula %d terms' %
                  (m['name'], len(names), len(texts)))
            bad += 1
            continue
        for name, text in zip(names, texts):
            term = next((t for t in m['events'] if t['text'] == text), None)
            if term is None or not term.get('settings'):
                continue
            label = 'metric %s, term %s (%s)' % (m['name'], text, name)
            found = entries.get(name.upper(), [])
            if not found:
                print('%s: no entry of that name' % label)
                bad += 1
                continue
            a = found[0]
            used.add(id(a))
            n += 1
            b = blocks[term['block']]
            ev = next(x for x in b['events'] if x['name'] == term['event'])
            fields = {r['name']: {f['name']: f for f in r['fields']} for r in b['registers']}
            t = b['name']
            cfg, err = encode(formats.get(t, {}), jevents_terms(a))
            if err:
                print('%s: perf refuses it: %s' % (label, err))
                bad += 1
                continue
            key = '%s_EV_%s_%s' % (prefix, t.upper(), re.sub(r'\W', '_', ev['name']).upper())
            want = header.get(key, 0)
            filt = 0
            for st in term['settings']:
                f = fields[st['register']][st['field']]
                width = f['msb'] - f['lsb'] + 1
                if st['register'] == ev['register']:
                    want = want & ~(((1 << width) - 1) << f['lsb']) | num(st['value']) << f['lsb']
                    continue
                # the format whose config1 bits are the field's (modulo the 32 of a register)
                at = [nm for nm, (w, bits) in formats[t].items()
                      if w == 1 and [x % 32 for x in bits] == list(range(f['lsb'], f['msb'] + 1))]
                hits = [nm for nm in at if ((cfg[1] >> formats[t][nm][1][0]) & ((1 << width) - 1))]
                nm = hits[0] if hits else (at[0] if at else None)
                if nm is None:
                    print('%s: no config1 format of uncore_%s is %s.%s [%d:%d]' %
                          (label, t, st['register'], st['field'], f['msb'], f['lsb']))
                    bad += 1
                    continue
                bits = formats[t][nm][1]
                got = sum(((cfg[1] >> x) & 1) << i for i, x in enumerate(bits))
                filt |= sum(1 << x for x in bits)
                if got != num(st['value']):
                    print('%s: config1 holds %s at %s, the formula sets %s.%s = %s' %
                          (label, hex(got), nm, st['register'], st['field'], st['value']))
                    bad += 1
            if cfg[0] & masks.get(t, ~0) != want:
                print('%s: perf programs config %s, the header with the settings %s' %
                      (label, hex(cfg[0]), hex(want)))
                bad += 1
            if cfg[1] & ~filt or cfg[2]:
                print('%s: config1/2 %s beyond the settings' % (label, [hex(c) for c in cfg[1:]]))
                bad += 1
    return n, bad


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        export = json.load(open(argv[1]))
        model = json.load(open(argv[2]))
        header = header_encodings(argv[3])
        formats, masks, fixed, regterms = read_formats(argv[4])
    except (OSError, ValueError) as e:
        print('perf_config_check: %s' % e, file=sys.stderr)
        return 2
    prefix = model['spec']['prefix']
    entries = {}
    for e in export:
        entries.setdefault(str(e.get('EventName', '')).upper(), []).append(e)
    bad, n, absent, used = 0, 0, 0, set()
    for b in model['blocks']:
        events = b.get('events') or []
        parents = {ev['parent'] for ev in events if ev.get('parent')}
        fields = {r['name']: {f['name']: f for f in r['fields']} for r in b['registers']}
        kinds = {c['control']: c.get('kind') for c in (b.get('pmon') or {}).get('counters', [])}
        for ev in events:
            key = '%s_EV_%s_%s' % (prefix, b['name'].upper(), re.sub(r'\W', '_', ev['name']).upper())
            if key not in header:
                print('%s: no %s in the header' % (ev['name'], key))
                bad += 1
                continue
            want = header[key]
            label = '%s:%s' % (b['name'], ev['name'])
            name = (ev.get('perfmon') or ev['name']).upper()
            found = [e for e in entries.get(name, []) if id(e) not in used]
            if not found:
                if ev['name'] in parents and not ev.get('perfmon'):
                    continue  # counted through its sub-events
                # can perf express it on the block's PMU?
                t = b['name']
                reach = 0
                for word, bits in formats.get(t, {}).values():
                    if word == 0:
                        reach |= sum(1 << x for x in bits)
                reach &= masks.get(t, ~0)
                if formats.get(t) and want & ~reach and kinds.get(ev['register']) != 'fixed':
                    print('absent: %s: encoding %s has bits %s that no format of uncore_%s '
                          'reaches or its event mask drops' % (label, hex(want), hex(want & ~reach), t))
                    absent += 1
                    continue
                print('%s: not in the export' % label)
                bad += 1
                continue
            e = found[0]
            used.add(id(e))
            n += 1
            pmu = unit_to_pmu(e.get('Unit', ''))
            t = re.sub(r'_\d+$', '', pmu[len('uncore_'):]) if pmu.startswith('uncore_') else pmu
            if t not in formats:
                print('%s: Unit %s: PMU %s has no formats in %s' % (label, e.get('Unit'), pmu, argv[4]))
                bad += 1
                continue
            cfg, err = encode(formats[t], jevents_terms(e))
            if err:
                print('%s: perf refuses %s: %s' % (label, pmu, err))
                bad += 1
                continue
            if kinds.get(ev['register']) == 'fixed':
                if cfg != [0xff, 0, 0] or t not in fixed or e.get('Counter') != 'FIXED':
                    print('%s: a fixed counter\'s event: config %s on %s (fixed counter: %s), '
                          'Counter %s; the kernel\'s fixed event is config 0xff' %
                          (label, [hex(c) for c in cfg], pmu, t in fixed, e.get('Counter')))
                    bad += 1
                continue
            got = cfg[0] & masks.get(t, ~0)
            if got != want:
                print('%s: perf programs config %s (%s masked by the kernel), the header %s = %s' %
                      (label, hex(cfg[0]), hex(got), key, hex(want)))
                bad += 1
            # settings on other registers: each register's whole value through its term
            other = {}
            for s in ev.get('sets') or []:
                if s['register'] == ev['register']:
                    continue
                f = fields[s['register']][s['field']]
                other[s['register']] = other.get(s['register'], 0) | num(s['value']) << f['lsb']
            for reg, val in sorted(other.items()):
                term = regterms.get(t, {}).get(reg)
                if term is None:
                    print('%s: setting of %s: %s names no term for it' % (label, reg, argv[4]))
                    bad += 1
                    continue
                word, bits = formats[t][term]
                got = sum(((cfg[word] >> x) & 1) << i for i, x in enumerate(bits))
                if got != val:
                    print('%s: %s reaches %s as %s, the spec sets %s' % (label, term, reg, hex(got), hex(val)))
                    bad += 1
            if not other and cfg[1:] != [0, 0]:
                print('%s: config1/2 %s, the spec sets no other register' % (label, [hex(c) for c in cfg[1:]]))
                bad += 1
    nalias, b2 = check_metric_aliases(export, model, header, formats, masks, entries, used)
    bad += b2
    for e in export:
        if id(e) not in used and 'MetricName' not in e:  # metrics: perf_export_check.py
            print('%s: export entry names no event of %s' % (e.get('EventName'), model['spec']['name']))
            bad += 1
    print('%d export entries read as perf reads them, config equal to %s; %d events absent '
          '(perf cannot express them); %d metric term aliases' % (n, argv[3].split('/')[-1], absent,
                                                                   nalias))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
