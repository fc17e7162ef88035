#!/usr/bin/env python3
"""tests/svd/cmsis_enum_check.py SVD HEADER VALUES - the enums of regc's -t cmsis-enum header
against the SVD file, read here with xml.etree, not by regc.

HEADER is the header (its "typedef enum { ... } NAME_Enum;" blocks say which constant is in
which enum); VALUES holds "NAME VALUE" lines, each constant as a compiler evaluated it. From the
SVD this script works out, by svdconv's rules (Open-CMSIS-Pack/devtools, tools/svdconv:
HeaderData_EnumValues.cpp, SvdItem::GetHierarchicalName, SvdEnum::Calculate, SvdDevice::
CreatePeripheralTypes and GatherClusters), every enum svdconv's --fields=enum writes, in its
order: its name and its constants' names and values. Every enum of the header must be one of
them, each of its constants with the value the SVD gives (as a 32-bit int); every enum and
constant worked out must be in the header, but for a name worked out twice (the header keeps
the first: svdconv writes the clusters' enums first, then the peripherals'). Prints one line of
counts; exit status 1 with the differences when there are any.
"""
import re
import sys
import xml.etree.ElementTree as ET


def text(e, tag):
    t = e.find(tag)
    return t.text.strip() if t is not None and t.text else None


def strip_dim(name):
    return name.replace('[%s]', '').replace('%s', '', 1)


def c_name(name):
    """A value's name made a C identifier, as regc's reader does (svd-name, docs/svd.md:
    svdconv writes it as it is, which no compiler takes)."""
    return re.sub(r'[^A-Za-z0-9_]', '_', name) if name else name


def is_list(name):
    return '%s' in name and '[%s]' not in name


def dim_indices(e):
    n = int(text(e, 'dim'), 0)
    idx = text(e, 'dimIndex')
    if not idx:
        return [str(i) for i in range(n)]
    m = re.fullmatch(r'\s*(\w+)\s*-\s*(\w+)\s*', idx)
    if m and m.group(1).isdigit():
        return [str(i) for i in range(int(m.group(1)), int(m.group(2)) + 1)]
    if m:
        return [chr(c) for c in range(ord(m.group(1)), ord(m.group(2)) + 1)]
    return [s.strip() for s in idx.split(',') if s.strip()]


def field_bits(fld):
    """The bits of a field as a mask, None when its bits are not read here (a dim list)."""
    if '%s' in (text(fld, 'name') or ''):
        return None
    r = text(fld, 'bitRange')
    if r:
        msb, lsb = (int(x, 0) for x in r.strip('[]').split(':'))
    elif text(fld, 'lsb') is not None:
        msb, lsb = int(text(fld, 'msb'), 0), int(text(fld, 'lsb'), 0)
    else:
        lsb = int(text(fld, 'bitOffset'), 0)
        msb = lsb + int(text(fld, 'bitWidth') or '1', 0) - 1
    return ((1 << (msb + 1)) - 1) ^ ((1 << lsb) - 1)


def numbers(s):
    """The numbers an enumeratedValue's <value> matches: one, or one per don't-care choice."""
    s = s.strip().lower()
    if s.startswith('0x'):
        return [int(s, 16)]
    if s.startswith('#') or s.startswith('0b'):
        bits = s[1:] if s.startswith('#') else s[2:]
        out = [0]
        for b in bits:
            out = [v * 2 + d for v in out for d in ((0, 1) if b == 'x' else (int(b),))]
        return sorted(out)
    return [int(s)]


class Device:
    def __init__(self, root):
        self.root = root
        self.sets_by_name = {}
        for ev in root.iter('enumeratedValues'):
            n = text(ev, 'name')
            if n and n not in self.sets_by_name:
                self.sets_by_name[n] = ev
        self.periphs = {text(p, 'name'): p for p in root.iter('peripheral')}

    def set_base(self, ev):
        d = ev.get('derivedFrom')
        return self.sets_by_name.get(d.split('.')[-1]) if d else None

    def set_name(self, ev):
        while ev is not None:
            if text(ev, 'name'):
                return text(ev, 'name')
            ev = self.set_base(ev)
        return None

    def set_values(self, ev):
        while ev is not None and not ev.findall('enumeratedValue'):
            ev = self.set_base(ev)
        return [] if ev is None else ev.findall('enumeratedValue')

    def set_usage(self, ev):
        while ev is not None:
            if text(ev, 'usage'):
                return text(ev, 'usage')
            ev = self.set_base(ev)
        return 'read-write'

    def reg_base(self, reg, scope):
        d = reg.get('derivedFrom')
        if not d:
            return None
        for r in scope:
            if r.tag == 'register' and text(r, 'name') == d:
                return r
        parts = d.split('.')
        p = self.periphs.get(parts[0])
        if p is not None:
            for r in p.iter('register'):
                if text(r, 'name') == parts[-1]:
                    return r
        return None


class Work:
    """The enums worked out, in order: name -> (constants [(name, value)], first)."""

    def __init__(self, dev):
        self.dev = dev
        self.enums = {}
        self.consts = {}
        self.twice = set()
        self.empty = set()

    def add_enum(self, tname, consts):
        if not consts:
            return
        if tname in self.enums:
            self.twice.add(tname)
            return
        kept = []
        for n, v in consts:
            if n in self.consts:
                self.twice.add(n)
                continue
            self.consts[n] = v
            kept.append((n, v))
        self.enums[tname] = kept
        if not kept:  # every name taken: no enum (C has no empty one), its name still taken
            self.empty.add(tname)

    def field(self, stem, fld, copy):
        name = text(fld, 'name')
        fstem = stem + '_' + (strip_dim(name) if is_list(name) else name)
        for ev in fld.findall('enumeratedValues'):
            setname = self.dev.set_name(ev)
            base = fstem + '_' + setname if setname else fstem
            header = text(ev, 'headerEnumName')
            if copy or ev.get('derivedFrom'):
                header = None
            usage = self.dev.set_usage(ev)
            suffix = {'read': '_R', 'write': '_W'}.get(usage, '')
            tname = (header or base + suffix) + '_Enum'
            prefix = header or base
            consts = []
            for v in self.dev.set_values(ev):
                vname = c_name(text(v, 'name'))
                if (text(v, 'isDefault') or '').lower() in ('true', '1'):
                    continue
                if vname is None or vname.lower() == 'reserved' or text(v, 'value') is None:
                    continue
                nums = numbers(text(v, 'value'))
                for n in nums:
                    cname = vname if len(nums) == 1 else '%s_%d' % (vname, n)
                    if n <= 0xFFFFFFFF:
                        consts.append((prefix + '_' + cname, n))
            self.add_enum(tname, consts)

    def register(self, path, reg, scope, copy):
        name = text(reg, 'name')
        group = text(reg, 'alternateGroup')
        g = '_' + group if group else ''
        fields = reg.find('fields')
        base = self.dev.reg_base(reg, scope)
        if fields is None and base is not None:
            fields, copy = base.find('fields'), True
        if is_list(name):
            copy = True  # the elements are copies (SvdRegister::CalculateDim: CopyItem)
            t = strip_dim(name)
            stems = [path + '_' + t + g + '_' + t + '_' + name.replace('%s', i) + g
                     for i in dim_indices(reg)]
        else:
            stems = [path + '_' + strip_dim(name) + g]
            ix = reg.find('dimArrayIndex')
            if ix is not None and '[%s]' in name and not copy:
                header = text(ix, 'headerEnumName')
                consts = [((header or stems[0]) + '_' + text(v, 'name'), int(text(v, 'value'), 0))
                          for v in ix.findall('enumeratedValue')]
                self.add_enum((header or stems[0]) + '_Enum', consts)
        kept = []
        for fld in [] if fields is None else fields.findall('field'):
            bits = field_bits(fld)
            if bits is None or not any(bits & k for k in kept):
                kept.append(bits or 0)  # a later field on bits taken is dropped (M338)
                for stem in stems:
                    self.field(stem, fld, copy)

    def index(self, stem, e):
        """The enum of the dimArrayIndex of a peripheral or cluster (HeaderData::
        CreatePeripheralEnumArrayValue, CreateClusterEnumArrayValue): headerEnumName, else the
        hierarchical name; a value named reserved left out."""
        ix = e.find('dimArrayIndex')
        if ix is None:
            return
        header = text(ix, 'headerEnumName')
        consts = [((header or stem) + '_' + c_name(text(v, 'name')), int(text(v, 'value'), 0))
                  for v in ix.findall('enumeratedValue')
                  if (text(v, 'name') or '').lower() != 'reserved']
        self.add_enum((header or stem) + '_Enum', consts)

    def cluster_list(self, path, items, out):
        """svdconv's cluster list (SvdDevice::GatherClusters): each cluster after those inside it;
        not an unmodified derived one (no register, cluster, headerStructName or size of its
        own), which has no type."""
        for e in items:
            if e.tag != 'cluster':
                continue
            cpath = path + '_' + strip_dim(text(e, 'name'))
            self.cluster_list(cpath, list(e), out)
            own = [t for t in ('register', 'cluster', 'headerStructName', 'size')
                   if e.find(t) is not None]
            if not e.get('derivedFrom') or own:
                out.append((cpath, e))

    def clusters(self, p):
        """The enums of p's clusters (HeaderData::CreateClusterEnumValue): each one's
        dimArrayIndex, then its own registers'."""
        regs = p.find('registers')
        if regs is None:
            return
        listed = []
        self.cluster_list(strip_dim(text(p, 'name')), list(regs), listed)
        for path, e in listed:
            self.index(path, e)
            self.container(path, list(e), False, True)

    def container(self, path, items, copy, top_only):
        for e in items:
            if e.tag == 'register':
                self.register(path, e, items, copy)
            elif e.tag == 'cluster' and not top_only:
                self.container(path + '_' + strip_dim(text(e, 'name')), list(e), copy, False)

    def peripheral(self, p, typed):
        base = self.dev.periphs.get(p.get('derivedFrom')) if p.get('derivedFrom') else None
        own = [t for t in ('headerStructName', 'registers', 'addressBlock', 'size',
                           'prependToName', 'appendToName') if p.find(t) is not None]
        if base is not None and not own and text(p, 'name') not in typed:
            return  # not modified: no types, macros or enums of its own
        name = strip_dim(text(p, 'name'))
        if own or text(p, 'name') in typed:
            self.index(name, p)
        regs = p.find('registers')
        if regs is None and base is not None:
            # a modified copy: its base's registers, without their clusters' (not modified)
            while base is not None and base.find('registers') is None:
                base = self.dev.periphs.get(base.get('derivedFrom'))
            if base is not None:
                self.container(name, list(base.find('registers')), True, True)
            return
        if regs is not None:  # its top-level registers: its clusters' are written before
            self.container(name, list(regs), False, True)


def header_enums(path):
    """The header's enums: name -> [constant names], in order."""
    enums, cur = {}, None
    for line in open(path, encoding='utf-8'):
        if line.startswith('typedef enum {'):
            cur = []
        elif cur is not None and line.startswith('}'):
            name = line[1:].strip().rstrip(';').strip()
            if name.endswith('_Enum'):  # not IRQn_Type
                enums[name] = cur
            cur = None
        elif cur is not None:
            m = re.match(r'\s+(\w+) = (-?\d+),', line)
            if m:
                cur.append(m.group(1))
    return enums


def main():
    svd, header, values = sys.argv[1:4]
    root = ET.parse(svd).getroot()
    work = Work(Device(root))
    # A derived peripheral the header gives a type of its own (the struct part's rule, which
    # run-cmsis-names.sh checks) has its own enums too.
    prefix = text(root, 'headerDefinitionsPrefix') or ''
    typed = set(re.findall(r'^\} ' + re.escape(prefix) + r'(\w+)_Type;',
                           open(header, encoding='utf-8').read(), re.M))
    for p in root.iter('peripheral'):
        work.clusters(p)
    for p in root.iter('peripheral'):
        work.peripheral(p, typed)
    got = header_enums(header)
    evaluated = {}
    for line in open(values):
        n, v = line.split()
        evaluated[n] = int(v)
    bad = []
    nconst = 0
    for tname, consts in got.items():
        if tname not in work.enums:
            bad.append('enum %s: not an enum svdconv writes for this file' % tname)
            continue
        want = dict(work.enums[tname])
        for n in consts:
            nconst += 1
            if n not in want:
                bad.append('%s in %s: not a constant of that enum' % (n, tname))
            elif (evaluated[n] - want[n]) % (1 << 32) != 0:
                bad.append('%s = %d, the SVD says %d' % (n, evaluated[n], want[n]))
    for tname, consts in work.enums.items():
        if tname in work.empty:
            continue
        if tname not in got:
            bad.append('enum %s missing (%d constants)' % (tname, len(consts)))
            continue
        have = set(got[tname])
        bad += ['%s missing from %s' % (n, tname) for n, _ in consts if n not in have]
    print('%d enums, %d constants checked against the SVD; %d names worked out twice (the first '
          'kept)' % (len(got), nconst, len(work.twice)))
    for b in bad[:20]:
        print('  ' + b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
