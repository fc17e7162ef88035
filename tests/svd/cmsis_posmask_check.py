#!/usr/bin/env python3
"""tests/svd/cmsis_posmask_check.py SVD HEADER - the order of the _Pos/_Msk macros of regc's
-t cmsis (or -t cmsis-enum) header against svdconv's, worked out here from the SVD file (read
with xml.etree, not by regc) by svdconv's rules (Open-CMSIS-Pack/devtools, tools/svdconv:
HeaderData_PosMask.cpp; the lists its sections walk, SvdDevice::GatherClusters and
CreatePeripheralTypes; the names, docs/svd.md "Names as svdconv makes them"):

 - the clusters' section ("Pos/Mask Cluster Section", written when svdconv lists a cluster):
   every peripheral's clusters with a type of their own (not an unmodified derived one, nor
   those of a derived peripheral's copy), peripherals in the file's order, each cluster after
   the clusters inside it, each one's own registers (not those of the clusters inside it);
 - then the peripherals' section ("Pos/Mask Peripheral Section"): each peripheral with a type
   of its own (not a derived one that changes nothing; which derived ones have a type is taken
   from the header's types, as cmsis_enum_check.py does) in the file's order, its top-level
   registers (a derived one's: its base's);
 - per register its fields in the file's order (a "NAME%s" register or field list rolled out
   per index, a "[%s]" array once), a field on bits an earlier one took dropped (M338); a field
   regc's reader drops (named RESERVED, docs/svd.md) not looked for, a name made a C identifier
   as the reader does.

The header's _Pos names and section titles, in the header's order, must equal those worked
out, a name worked out twice written once (the first). Prints one line of counts; exit
status 1 with the first difference when they differ.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cmsis_enum_check import (Device, c_name, dim_indices, field_bits, is_list,  # noqa: E402
                              strip_dim, text)

# What makes a derived peripheral or cluster "modified" (a type and macros of its own):
# SvdPeripheral::ProcessXmlElement and SvdCluster::ProcessXmlElement (SetModified).
PERIPH_OWN = ('headerStructName', 'registers', 'addressBlock', 'size', 'prependToName',
              'appendToName')
CLUSTER_OWN = ('register', 'cluster', 'headerStructName', 'size')


class Unsupported(Exception):
    """A construct whose order this script does not work out: the file is not checked."""


def owns(e, tags):
    return any(e.find(t) is not None for t in tags)


# regc's reader gives a field named as one of a register's mask macros a '_' after its name
# (svd_model.c, field_c_name: the regc header's PREFIX_P_R_RO_MASK and the field RO's would clash).
MASK_WORDS = {'MBZ', 'MB1', 'IGNORED', 'RO', 'WO', 'W1C', 'W1S', 'WRITABLE', 'KEEP', 'LEVELS',
              'PRESERVE', 'W0', 'W1T', 'WANY', 'ONCE'}


def field_name(name):
    n = c_name(name)
    return n + '_' if n.upper() in MASK_WORDS else n


def expand(name, e):
    """A "NAME%s" list's names, one per index; else the name without "[%s]"."""
    return [name.replace('%s', i) for i in dim_indices(e)] if is_list(name) else [strip_dim(name)]


class Order:
    def __init__(self, dev, typed):
        self.dev = dev
        self.typed = typed  # the derived peripherals the header gives a type of their own
        self.out = []  # section titles and _Pos names, in svdconv's order

    def register(self, stem, reg, scope):
        """HeaderData::CreateRegisterPosMask per register (each element of a list)."""
        fields, base = reg.find('fields'), reg
        while fields is None and base is not None:  # a derived register's, up its bases
            base = self.dev.reg_base(base, scope)
            fields = None if base is None else base.find('fields')
        group = text(reg, 'alternateGroup')
        for rname in expand(text(reg, 'name'), reg):
            taken = 0
            # regc's reader takes a <field> outside <fields> too (k210's APU fft_cfg)
            for fld in (reg if fields is None else fields).findall('field'):
                if re.fullmatch(r'reserved\d*', text(fld, 'name'), re.I):
                    continue
                bits = field_bits(fld)
                if bits is not None and bits & taken:
                    continue  # M338: its bits are an earlier field's
                taken |= bits or 0
                for fname in map(field_name, expand(text(fld, 'name'), fld)):
                    self.out.append('%s_%s%s_%s_Pos' % (stem, rname, '_' + group if group else '',
                                                        fname))

    def registers(self, stem, items):
        """HeaderData::CreateRegistersPosMask: the registers of a container, its clusters
        passed over."""
        for e in items:
            if e.tag == 'register':
                self.register(stem, e, items)

    def clusters(self, stem, hier, items):
        """SvdDevice::GatherClusters under one container, in order; each cluster's registers
        (HeaderData::CreateClusterPosMask). 'stem' the macros' names so far, 'hier' the
        hierarchical name (the peripheral's name, the clusters' names)."""
        for e in items:
            if e.tag != 'cluster':
                continue
            name = strip_dim(text(e, 'name'))
            h = hier + '_' + name
            hs = text(e, 'headerStructName')
            # SvdCluster::CheckItem drops one equal to its name (M318), to its hierarchical
            # name (M371), or holding '%' (M232)
            seg = hs if hs and hs not in (name, h) and '%' not in hs else name
            if e.get('derivedFrom'):
                if owns(e, CLUSTER_OWN):
                    raise Unsupported('derived cluster %s with content of its own' % h)
                continue  # unmodified: no type, no macros
            self.clusters(stem + '_' + seg, h, list(e))
            self.registers(stem + '_' + seg, list(e))

    def cluster_section(self, periphs):
        self.out.append('Pos/Mask Cluster Section')
        start = len(self.out)
        for p in periphs:
            regs = p.find('registers')
            if regs is not None and not p.get('derivedFrom'):
                self.clusters(strip_dim(text(p, 'headerStructName') or text(p, 'name')),
                              strip_dim(text(p, 'name')), list(regs))
        if not self.listed_cluster(periphs):
            del self.out[start - 1:]

    def listed_cluster(self, periphs):
        """Does svdconv list a cluster (a type of its own), macros or not?"""
        return any(c.get('derivedFrom') is None or owns(c, CLUSTER_OWN)
                   for p in periphs if not p.get('derivedFrom') for c in p.iter('cluster'))

    def periph_section(self, periphs):
        self.out.append('Pos/Mask Peripheral Section')
        for p in periphs:
            stem = strip_dim(text(p, 'headerStructName') or text(p, 'name'))
            if not p.get('derivedFrom'):
                regs = p.find('registers')
                self.registers(stem, [] if regs is None else list(regs))
                continue
            if not owns(p, PERIPH_OWN) and text(p, 'name') not in self.typed:
                continue  # unmodified: its base's type and macros
            if p.find('registers') is not None:
                raise Unsupported('derived peripheral %s with registers of its own' % stem)
            base = p
            while base is not None and base.find('registers') is None:
                base = self.dev.periphs.get(base.get('derivedFrom'))
            if base is not None:
                self.registers(stem, list(base.find('registers')))


def header_order(path):
    """The header's section titles and _Pos names, in order."""
    out = []
    for line in open(path, encoding='utf-8'):
        m = re.match(r'/\* =+  (Pos/Mask \w+ Section)  =+ \*/', line)
        if m:
            out.append(m.group(1))
        m = re.match(r'#define (\w+_Pos) ', line)
        if m:
            out.append(m.group(1))
    return out


def main():
    svd, header = sys.argv[1:3]
    root = ET.parse(svd).getroot()
    periphs = list(root.iter('peripheral'))
    # Which derived peripherals have a type of their own is the struct part's rule (checked by
    # run-cmsis-names.sh): taken from the header's types, as cmsis_enum_check.py does.
    prefix = text(root, 'headerDefinitionsPrefix') or ''
    typed = set(re.findall(r'^\} ' + re.escape(prefix) + r'(\w+)_Type;',
                           open(header, encoding='utf-8').read(), re.M))
    order = Order(Device(root), typed)
    try:
        order.cluster_section(periphs)
        order.periph_section(periphs)
    except Unsupported as e:
        print('not worked out here: %s' % e)
        return 1
    want, seen = [], set()
    for n in order.out:
        if n not in seen:
            seen.add(n)
            want.append(n)
    got = header_order(header)
    for i, (w, g) in enumerate(zip(want, got)):
        if w != g:
            print('%d _Pos names; at %d the header has %s where svdconv writes %s' %
                  (len(got), i, g, w))
            print('  svdconv: ' + ' '.join(want[max(0, i - 2):i + 4]))
            print('  header:  ' + ' '.join(got[max(0, i - 2):i + 4]))
            return 1
    if len(want) != len(got):
        more, n = (got, 'header') if len(got) > len(want) else (want, 'svdconv')
        print('%d _Pos names in the header, %d worked out; the %s has %s more' %
              (len(got), len(want), n, more[min(len(want), len(got))]))
        return 1
    sections = sum(1 for n in want if n.startswith('Pos/Mask'))
    print('%d _Pos names, %d sections' % (len(want) - sections, sections))
    return 0


if __name__ == '__main__':
    sys.exit(main())
