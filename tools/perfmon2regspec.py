#!/usr/bin/env python3
"""perfmon2regspec - convert one unit of Intel perfmon uncore JSON into a
regspec <part> file holding one <events> table.

Usage:
    perfmon2regspec.py [--perfmon-dir DIR] [--out-dir DIR] [--check] CONF [SPEC_BLOCK...]

CONF is regspec/events/events.conf (format documented at its top). Each
line names one perfmon unit; the tool writes OUT_DIR/<spec>_<block>.xml
(OUT_DIR defaults to the folder holding CONF). With SPEC_BLOCK arguments
(e.g. e5_2600_cbox) only those lines are converted. --check writes nothing
and exits 1 when a generated file differs from the one on disk.

Rules (docs/events.md explains them):
  - rows keep perfmon order; an event appears where its first row appears,
    its sub-events in the order of their rows;
  - EventName drops 'UNC_<X>_' and splits at the first '.' into event and
    sub-event; the whole EventName is kept in the perfmon= attribute of the
    <event> (a row without sub-event part) or <sub> it became: perf's alias;
  - rows that are not event-select events are excluded with a reason, listed
    in a comment at the top of the file and on stderr;
  - an event the conf's or= option names gets combine="or": its umask
    bits select sub-events, and a umask counts the sum of those it holds;
  - ExtSel, CounterMask, EdgeDetect and Invert become <set> elements of the
    control-register fields the conf line names; a Filter with a non-zero
    MSRValue becomes a <set register= field=> through the conf's filter
    mapping; a Filter without a value becomes filters="REGISTER.field..."
    (the conf's mapping; the spec's <filter> says what each selects), or
    unmodelled-filters="NAME..." for a mapping to !NAME (a filter the spec
    names in an <unmodelled-filter> but does not model), and is kept as a
    requirement in the description and the header comment.
Standard library only. Exit status: 0 done, 1 differences (--check),
2 bad conf or input.
"""

import json
import os
import re
import shlex
import sys

IDENT = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')
C_KEYWORDS = set('''auto break case char const continue default do double else
enum extern float for goto if inline int long register restrict return short
signed sizeof static struct switch typedef union unsigned void volatile while
_Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn
_Static_assert _Thread_local alignas alignof and and_eq asm bitand bitor bool
catch char16_t char32_t class compl constexpr const_cast decltype delete
dynamic_cast explicit export false friend mutable namespace new noexcept not
not_eq nullptr operator or or_eq private protected public reinterpret_cast
static_assert static_cast template this thread_local throw true try typeid
typename using virtual wchar_t xor xor_eq'''.split())
UNMODELLED = '!'  # marks a filter mapping to an <unmodelled-filter> NAME, not REGISTER.field
OPTION_KEYS = ('cmask', 'edge', 'invert', 'umask-lsb', 'title', 'limit', 'or')


class ConfError(Exception):
    pass


def is_name(s):
    return bool(IDENT.match(s)) and s not in C_KEYWORDS


def xml_text(s):
    """Escape for an attribute value; runs of white space become one space."""
    s = ' '.join(str(s).split())
    return (s.replace('&', '&amp;').replace('<', '&lt;')
             .replace('>', '&gt;').replace('"', '&quot;'))


def xml_comment(s):
    s = ' '.join(str(s).split())
    while '--' in s:
        s = s.replace('--', '- -')
    return s.rstrip('-')


def parse_int(s, what):
    s = str(s).strip()
    try:
        return int(s, 16) if s.lower().startswith('0x') else int(s, 10)
    except ValueError:
        raise ConfError('bad %s %r' % (what, s))


def hexs(v):
    return '0x%x' % v


def counter_indices(text):
    """'0,1,2,3' or '0-3' -> [0, 1, 2, 3]; None when not a list of indices."""
    idx = []
    for part in str(text).replace(' ', '').split(','):
        m = re.match(r'^(\d+)(?:-(\d+))?$', part)
        if not m:
            return None
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo:
            lo, hi = hi, lo
        idx.extend(range(lo, hi + 1))
    return sorted(set(idx))


def counters_attr(text):
    """'0,1,2,3' -> '0-3', '0,1' -> '0,1', '0-3' -> '0-3'; None for 'Fixed'."""
    idx = counter_indices(text)
    if idx is None:
        return None
    out, i = [], 0
    while i < len(idx):
        j = i
        while j + 1 < len(idx) and idx[j + 1] == idx[j] + 1:
            j += 1
        if j - i >= 2:
            out.append('%d-%d' % (idx[i], idx[j]))
        else:
            out.extend(str(idx[k]) for k in range(i, j + 1))
        i = j + 1
    return ','.join(out)


class Line:
    """One conf line."""

    def __init__(self, conf, lineno, words):
        self.where = '%s:%d' % (conf, lineno)
        if len(words) < 10:
            raise ConfError('%s: expected at least 10 columns, found %d'
                            % (self.where, len(words)))
        (self.file, self.unit, self.spec, self.block, self.register,
         self.code_field, self.umask_field, self.ext_field, filt,
         self.src) = words[:10]
        if not re.match(r'^[A-Za-z_][A-Za-z0-9_.-]*$', self.src):
            raise ConfError('%s: bad source id %r' % (self.where, self.src))
        for attr in ('spec', 'block', 'register', 'code_field'):
            if not IDENT.match(getattr(self, attr)):
                raise ConfError('%s: %s %r is not an identifier'
                                % (self.where, attr, getattr(self, attr)))
        self.umask_field = None if self.umask_field == '-' else self.umask_field
        self.ext_field = None if self.ext_field == '-' else self.ext_field
        self.filters = {}
        if filt != '-':
            for item in filt.split(','):
                m = re.match(r'^([A-Za-z0-9_]+\[\d+:\d+\])=([A-Za-z_]\w*)\.([A-Za-z_]\w*)$',
                             item.strip())
                u = re.match(r'^([A-Za-z0-9_]+\[\d+:\d+\])=!([A-Za-z_]\w*)$', item.strip())
                if u:  # a filter the spec does not model: its <unmodelled-filter> NAME
                    self.filters[u.group(1)] = (UNMODELLED, u.group(2))
                    continue
                if not m:
                    raise ConfError('%s: bad filter mapping %r (want '
                                    'PerfmonName[hi:lo]=REGISTER.field or =!NAME)'
                                    % (self.where, item))
                self.filters[m.group(1)] = (m.group(2), m.group(3))
        self.options = {}
        for opt in words[10:]:
            key, eq, val = opt.partition('=')
            if not eq or key not in OPTION_KEYS or not val:
                raise ConfError('%s: bad option %r (known: %s)'
                                % (self.where, opt, ', '.join(OPTION_KEYS)))
            self.options[key] = val
        self.name = '%s_%s' % (self.spec, self.block)
        self.umask_lsb = parse_int(self.options.get('umask-lsb', '8'), 'umask-lsb')
        if not 0 <= self.umask_lsb <= 63:
            raise ConfError('%s: umask-lsb %d out of range' % (self.where, self.umask_lsb))
        self.limits = {}
        for item in filter(None, self.options.get('limit', '').split(';')):
            code, colon, ctrs = item.partition(':')
            idx = counter_indices(ctrs) if colon and ctrs else None
            if idx is None or not code:
                raise ConfError('%s: bad limit %r (want CODE:COUNTERS, e.g. 0x80:0)'
                                % (self.where, item))
            self.limits[parse_int(code, 'limit code')] = set(idx)
        self.combine = set()
        for ev in filter(None, self.options.get('or', '').split(';')):
            if not is_name(ev):
                raise ConfError('%s: bad or= event %r (want EVENT[;EVENT...])'
                                % (self.where, ev))
            self.combine.add(ev)

    def umask(self, row):
        """UMask as the value of the umask field: perfmon places UMask at
        bit 8 of the control register; the field starts at umask_lsb."""
        return (parse_int(row.get('UMask') or '0', 'UMask') << 8) >> self.umask_lsb


def read_conf(path):
    lines = []
    with open(path, encoding='utf-8') as f:
        for n, text in enumerate(f, 1):
            text = text.strip()
            if not text or text.startswith('#'):
                continue
            try:
                words = shlex.split(text)
            except ValueError as e:
                raise ConfError('%s:%d: %s' % (path, n, e))
            lines.append(Line(path, n, words))
    seen = {}
    for ln in lines:
        if ln.name in seen:
            raise ConfError('%s: %s already generated by %s'
                            % (ln.where, ln.name, seen[ln.name]))
        seen[ln.name] = ln.where
    return lines


def filter_items(row):
    f = row.get('Filter')
    if f in (None, '', 'null', '0'):
        return []
    return [x.strip() for x in str(f).split(',') if x.strip()]


def row_sets(ln, row):
    """The <set> elements a row needs: list of (register|None, field, value);
    raise ConfError when the conf lacks a field the row needs."""
    sets = []
    ext = parse_int(row.get('ExtSel') or '0', 'ExtSel')
    if ext:
        sets.append((None, ln.ext_field, ext))
    for key, opt in (('CounterMask', 'cmask'), ('EdgeDetect', 'edge'),
                     ('Invert', 'invert')):
        v = parse_int(row.get(key) or '0', key)
        if v:
            if opt not in ln.options:
                raise ConfError('%s: %s has %s=%d but the line has no %s= option'
                                % (ln.where, row['EventName'], key, v, opt))
            sets.append((None, ln.options[opt], v))
    msrval = parse_int(row.get('MSRValue') or '0', 'MSRValue')
    if msrval:
        items = filter_items(row)
        if (len(items) != 1 or items[0] not in ln.filters
                or ln.filters[items[0]][0] == UNMODELLED):
            raise ConfError('%s: %s has MSRValue %s but its filter %r has no '
                            'single mapping' % (ln.where, row['EventName'],
                                                hexs(msrval), row.get('Filter')))
        reg, field = ln.filters[items[0]]
        sets.append((reg, field, msrval))
    return sets


def requirements(ln, row):
    """Filters the row needs without a value to set: text for the desc."""
    if parse_int(row.get('MSRValue') or '0', 'MSRValue'):
        return []
    out = []
    for item in filter_items(row):
        if item in ln.filters and ln.filters[item][0] == UNMODELLED:
            out.append('%s, not modelled (perfmon %s)' % (ln.filters[item][1], item))
        elif item in ln.filters:
            reg, field = ln.filters[item]
            out.append('%s.%s (perfmon %s)' % (reg, field, item))
        else:
            out.append(item)
    return out


def exclusion(ln, row, prefix_re):
    """Why a row is not converted, or None."""
    name = row.get('EventName', '')
    code = parse_int(row.get('EventCode', ''), 'EventCode')
    if str(row.get('Counter', '')).strip().lower() == 'fixed':
        return 'counts on the fixed counter, not through an event select'
    if code == 0xff:
        return 'event code 0xff: clockticks of a fixed counter, not an event-select code'
    if parse_int(row.get('ExtSel') or '0', 'ExtSel') and not ln.ext_field:
        return ('needs the extension select bit (ExtSel) but the control '
                'register has none (ext-select field -)')
    umask = parse_int(row.get('UMask') or '0', 'UMask')
    if umask and not ln.umask_field:
        return 'UMask %s but the control register has no umask field' % hexs(umask)
    if (ln.umask(row) << ln.umask_lsb) >> 8 != umask:
        return 'UMask %s has bits below the umask field (bit %d)' % (hexs(umask), ln.umask_lsb)
    if counters_attr(row.get('Counter', '')) is None:
        return 'Counter %r is not a list of counter indices' % row.get('Counter')
    m = prefix_re.match(name)
    if not m:
        return "name does not start with 'UNC_<X>_'"
    ev, dot, sub = split_name(m.group(1))
    if not is_name(ev):
        return 'event name %r is not a C identifier' % ev
    if dot and not is_name(sub):
        return 'sub-event name %r is not a C identifier' % sub
    return None


def limited(ln, row, code):
    """(row, note): the row with its Counter narrowed to the conf's limit for
    its event code, and a note saying so (None when nothing changed); (None,
    why) when the limit leaves no counter."""
    have = set(counter_indices(row.get('Counter', '')))
    keep = have & ln.limits[code]
    if not keep:
        return None, ('no counter left: perfmon %s, conf limit %s for code %s'
                      % (row.get('Counter'), ','.join(map(str, sorted(ln.limits[code]))),
                         hexs(code)))
    if keep == have:
        return row, None
    row = dict(row)
    row['Counter'] = ','.join(map(str, sorted(keep)))
    return row, ('counters %s limited to %s (conf limit for code %s)'
                 % (counters_attr(','.join(map(str, sorted(have)))),
                    counters_attr(row['Counter']), hexs(code)))


def split_name(rest):
    """'EVENT.SUB' -> ('EVENT', '.', 'SUB'). A sub-event written with further
    dots (ivytown's MESSAGE.DRS.AnyDataC) keeps them as '_' ('DRS_AnyDataC'),
    so the name is a C identifier and still reads like Intel's."""
    ev, dot, sub = rest.partition('.')
    return ev, dot, sub.replace('.', '_')


class Event:
    def __init__(self, name, code):
        self.name = name
        self.code = code
        self.plain = None     # row without a sub-event part
        self.subs = []        # (subname, row)


def convert(ln, data):
    """Return (xml_text, exclusions, requirement_notes)."""
    rows = [r for r in data['Events'] if r.get('Unit') == ln.unit]
    if not rows:
        raise ConfError('%s: no rows of unit %r in %s' % (ln.where, ln.unit, ln.file))
    prefix_re = re.compile(r'^UNC_[A-Za-z0-9]+_(.+)$')
    excluded, reqs, notes = [], [], []
    events, order = {}, []
    for row in rows:
        name = row.get('EventName', '')
        why = exclusion(ln, row, prefix_re)
        if why is None:
            ev, dot, sub = split_name(prefix_re.match(name).group(1))
            code = parse_int(row['EventCode'], 'EventCode')
            e = events.get(ev)
            if e is not None and e.code != code:
                why = 'event %s already has code %s' % (ev, hexs(e.code))
            elif e is not None and not dot and e.plain is not None:
                why = 'duplicate of event %s' % ev
            elif e is not None and dot and any(s == sub for s, _ in e.subs):
                why = 'duplicate of sub-event %s.%s' % (ev, sub)
        if why is None and code in ln.limits:
            row, note = limited(ln, row, code)
            if row is None:
                why = note
            elif note:
                notes.append((name, note))
        if why is not None:
            excluded.append((name, why))
            continue
        if e is None:
            e = events[ev] = Event(ev, code)
            order.append(e)
        if dot:
            e.subs.append((sub, row))
        else:
            e.plain = row
        for r in requirements(ln, row):
            reqs.append((name, r))
    for ev in sorted(ln.combine):
        e = events.get(ev)
        if e is None or not e.subs:
            raise ConfError('%s: or=%s names no converted event with sub-events'
                            % (ln.where, ev))
    return render(ln, data, rows, order, excluded, reqs, notes), excluded, reqs


def desc_split(e):
    """(event desc, {subname: sub desc}) from the BriefDescriptions: a shared
    'head; ' part goes to the event when every sub-event row has it."""
    if e.plain is not None or not e.subs:
        row = e.plain
        return (row.get('BriefDescription', '') if row else None,
                {s: r.get('BriefDescription', '') for s, r in e.subs})
    parts = [r.get('BriefDescription', '').split('; ', 1) for _, r in e.subs]
    heads = set(p[0] for p in parts)
    if len(heads) == 1 and all(len(p) == 2 for p in parts):
        return parts[0][0], {s: p[1] for (s, _), p in zip(e.subs, parts)}
    return None, {s: r.get('BriefDescription', '') for s, r in e.subs}


def filter_refs(ln, row):
    """The mapped filters a row needs without a value: 'REGISTER.field' each,
    for the filters= attribute (the spec's <filter> says what they select)."""
    if parse_int(row.get('MSRValue') or '0', 'MSRValue'):
        return []
    out = []
    for item in filter_items(row):
        if item in ln.filters and ln.filters[item][0] != UNMODELLED:
            ref = '%s.%s' % ln.filters[item]
            if ref not in out:
                out.append(ref)
    return out


def unmodelled_refs(ln, row):
    """The unmodelled filters a row needs: their <unmodelled-filter> names, for the
    unmodelled-filters attribute (regctl refuses the event unless --no-filter-check)."""
    out = []
    for item in filter_items(row):
        if item in ln.filters and ln.filters[item][0] == UNMODELLED:
            if ln.filters[item][1] not in out:
                out.append(ln.filters[item][1])
    return out


def with_reqs(ln, desc, row):
    r = requirements(ln, row)
    if not r:
        return desc
    return '%s [requires filter: %s]' % (desc, '; '.join(r))


def set_lines(sets, indent):
    out = []
    for reg, field, val in sets:
        if reg:
            out.append('%s<set register="%s" field="%s" value="%s"/>'
                       % (indent, reg, field, hexs(val)))
        else:
            out.append('%s<set field="%s" value="%s"/>' % (indent, field, hexs(val)))
    return out


def render(ln, data, rows, order, excluded, reqs, notes):
    hdr = data.get('Header', {})
    o = ['<?xml version="1.0" encoding="UTF-8"?>']
    o.append('<!-- Generated by tools/perfmon2regspec.py from %s, unit %s (%s); '
             'do not edit: change regspec/events/events.conf and run '
             'tools/regen-events.sh -->'
             % (xml_comment(ln.file), xml_comment(ln.unit),
                xml_comment('version %s, published %s'
                            % (hdr.get('Version', '?'), hdr.get('DatePublished', '?')))))
    o.append('<!-- perfmon rows: %d; converted: %d; excluded: %d'
             % (len(rows), len(rows) - len(excluded), len(excluded)))
    for name, why in excluded:
        o.append('     excluded %s: %s' % (xml_comment(name), xml_comment(why)))
    o.append('-->')
    if reqs:
        o.append('<!-- filter requirements (no value in perfmon; set by the user):')
        for name, r in reqs:
            o.append('     %s: %s' % (xml_comment(name), xml_comment(r)))
        o.append('-->')
    if notes:
        o.append('<!-- counters narrowed by the conf (limit=):')
        for name, note in notes:
            o.append('     %s: %s' % (xml_comment(name), xml_comment(note)))
        o.append('-->')
    title = ln.options.get('title', '%s events (perfmon unit %s)' % (ln.block, ln.unit))
    o.append('<part title="%s">' % xml_text(title))
    attrs = 'register="%s" code-field="%s"' % (ln.register, ln.code_field)
    if ln.umask_field:
        attrs += ' umask-field="%s"' % ln.umask_field
    o.append('  <events %s src="%s" cite="%s">'
             % (attrs, ln.src, xml_text('%s Unit %s' % (ln.file, ln.unit))))
    for e in order:
        o.extend(render_event(ln, e))
    o.append('  </events>')
    o.append('</part>')
    return '\n'.join(o) + '\n'


def render_event(ln, e):
    """An <event> (with its <sub>s). Counters and <set>s shared by every row
    go on the event; a sub-event states only what differs."""
    rows = ([e.plain] if e.plain is not None else []) + [r for _, r in e.subs]
    ctrs = [counters_attr(r['Counter']) for r in rows]
    sets = [row_sets(ln, r) for r in rows]
    shared = [s for s in sets[0] if all(s in other for other in sets)]
    if e.plain is not None and sets[0] != shared:
        raise ConfError('%s: %s needs <set>s its sub-events would inherit but '
                        'lack' % (ln.where, e.name))
    ev_ctrs = ctrs[0] if all(c == ctrs[0] for c in ctrs) else None
    if e.plain is not None:
        ev_ctrs = ctrs[0]
    ev_desc, sub_desc = desc_split(e)
    attrs = 'name="%s" code="%s"' % (e.name, hexs(e.code))
    if e.name in ln.combine:
        attrs += ' combine="or"'
    if e.plain is not None and ln.umask_field:
        attrs += ' umask="%s"' % hexs(ln.umask(e.plain))
    if ev_ctrs is not None:
        attrs += ' counters="%s"' % ev_ctrs
    if e.plain is not None:
        attrs += ' perfmon="%s"' % xml_text(e.plain['EventName'])
        if filter_refs(ln, e.plain):
            attrs += ' filters="%s"' % ' '.join(filter_refs(ln, e.plain))
        if unmodelled_refs(ln, e.plain):
            attrs += ' unmodelled-filters="%s"' % ' '.join(unmodelled_refs(ln, e.plain))
    if ev_desc is not None:
        if e.plain is not None:
            ev_desc = with_reqs(ln, ev_desc, e.plain)
        attrs += ' desc="%s"' % xml_text(ev_desc)
    body = set_lines(shared, '      ')
    base = len(rows) - len(e.subs)
    for i, (sub, row) in enumerate(e.subs):
        sa = 'name="%s"' % sub
        if ln.umask_field:
            sa += ' umask="%s"' % hexs(ln.umask(row))
        if ctrs[base + i] != ev_ctrs:
            sa += ' counters="%s"' % ctrs[base + i]
        sa += ' perfmon="%s"' % xml_text(row['EventName'])
        if filter_refs(ln, row):
            sa += ' filters="%s"' % ' '.join(filter_refs(ln, row))
        if unmodelled_refs(ln, row):
            sa += ' unmodelled-filters="%s"' % ' '.join(unmodelled_refs(ln, row))
        sa += ' desc="%s"' % xml_text(with_reqs(ln, sub_desc[sub], row))
        extra = [s for s in sets[base + i] if s not in shared]
        if extra:
            body.append('      <sub %s>' % sa)
            body.extend(set_lines(extra, '        '))
            body.append('      </sub>')
        else:
            body.append('      <sub %s/>' % sa)
    if body:
        return ['    <event %s>' % attrs] + body + ['    </event>']
    return ['    <event %s/>' % attrs]


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description='Convert Intel perfmon uncore JSON '
                                 'units into regspec event tables.')
    ap.add_argument('--perfmon-dir', default=os.environ.get('PERFMON_DIR'),
                    help='folder of the perfmon JSON files (default: $PERFMON_DIR, '
                    'else ../shared/perfmon beside the repository)')
    ap.add_argument('--out-dir', help='where to write (default: the conf\'s folder)')
    ap.add_argument('--check', action='store_true',
                    help='compare with the files on disk, write nothing')
    ap.add_argument('--quiet', action='store_true', help='do not list exclusions on stderr')
    ap.add_argument('conf')
    ap.add_argument('only', nargs='*', help='SPEC_BLOCK names to convert')
    args = ap.parse_args(argv[1:])
    prog = 'perfmon2regspec'
    try:
        lines = read_conf(args.conf)
    except (OSError, ConfError) as e:
        print('%s: error: %s' % (prog, e), file=sys.stderr)
        return 2
    pdir = args.perfmon_dir
    if not pdir:
        repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        pdir = os.path.join(os.path.dirname(repo), 'shared', 'perfmon')
    out_dir = args.out_dir or os.path.dirname(args.conf) or '.'
    known = set(ln.name for ln in lines)
    for name in args.only:
        if name not in known:
            print("%s: error: '%s' is not generated by %s" % (prog, name, args.conf),
                  file=sys.stderr)
            return 2
    cache, status = {}, 0
    for ln in lines:
        if args.only and ln.name not in args.only:
            continue
        try:
            if ln.file not in cache:
                with open(os.path.join(pdir, ln.file), encoding='utf-8') as f:
                    cache[ln.file] = json.load(f)
            text, excluded, _ = convert(ln, cache[ln.file])
        except (OSError, ValueError, KeyError, ConfError) as e:
            print('%s: error: %s: %s' % (prog, ln.where, e), file=sys.stderr)
            return 2
        if not args.quiet:
            for name, why in excluded:
                print('%s: %s: %s unit %s: excluded %s: %s'
                      % (prog, ln.name, ln.file, ln.unit, name, why), file=sys.stderr)
        path = os.path.join(out_dir, ln.name + '.xml')
        if args.check:
            try:
                with open(path, encoding='utf-8') as f:
                    old = f.read()
            except OSError:
                old = None
            if old != text:
                print('%s: %s differs from its regeneration' % (prog, path), file=sys.stderr)
                status = 1
            continue
        with open(path, 'w', encoding='utf-8', newline='\n') as f:
            f.write(text)
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv))
