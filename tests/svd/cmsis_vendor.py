#!/usr/bin/env python3
"""tests/svd/cmsis_vendor.py - what a vendor header and regc's -t cmsis header both declare,
as two C programs (one per header) that print the values the compiler computes from each
(run-cmsis-vendor.sh compiles and runs them, then compares the outputs with 'compare').

  macros VENDOR.h REGC.h OUT_DIR    every object-like macro both define whose name ends in
                                    _Pos or _Msk, or is a named value (NAME_VALUE beside a
                                    NAME_Pos): prog_vendor.c and prog_regc.c print NAME VALUE
  structs VENDOR.h REGC.h OUT_DIR   every peripheral instance both declare as a pointer
                                    (#define X ((TYPE *) X_BASE)), its base, and every member
                                    both types declare: INSTANCE.MEMBER OFFSET SIZE
  compare VENDOR.out REGC.out       the names both print with different values, one a line
"""
import re
import sys

DEFINE = re.compile(r'^#define\s+([A-Za-z_]\w*)\s+\S', re.M)
INSTANCE = re.compile(r'^#define\s+([A-Za-z_]\w*)\s+\(\(\s*([A-Za-z_]\w*)\s*\*\s*\)\s*\1_BASE\s*\)', re.M)
TYPEDEF = re.compile(r'typedef\s+(?:struct|union)\s*\{(.*?)\n\}\s*([A-Za-z_]\w*)\s*;', re.S)
MEMBER = re.compile(r'^\s*(?:(?:__IO|__IM|__OM|__IOM|__I|__O|const|volatile)\s+)*[A-Za-z_]\w*\s+([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*;', re.M)


def read(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return f.read()


def write_prog(path, header, lines):
    with open(path, 'w') as f:
        f.write('#include <stddef.h>\n#include <stdio.h>\n#include "%s"\n' % header)
        f.write('int main(void)\n{\n')
        for line in lines:
            f.write('    %s\n' % line)
        f.write('    return 0;\n}\n')


def macros(vendor, regc, out):
    names = {}
    for path in (vendor, regc):
        names[path] = set(DEFINE.findall(read(path)))
    common = names[vendor] & names[regc]
    stems = {n[:-4] for n in common if n.endswith('_Pos')}
    chosen = sorted(n for n in common
                    if n.endswith('_Pos') or n.endswith('_Msk') or n.rsplit('_', 1)[0] in stems)
    lines = ['printf("%s %%llu\\n", (unsigned long long)(%s));' % (n, n) for n in chosen]
    write_prog(out + '/prog_vendor.c', vendor, lines)
    write_prog(out + '/prog_regc.c', regc, lines)
    print(len(chosen))


def members(text):
    types = {}
    for body, name in TYPEDEF.findall(text):
        types[name] = [m for m in MEMBER.findall(body) if not m.startswith('RESERVED')]
    return types


def structs(vendor, regc, out):
    vt, rt = read(vendor), read(regc)
    vi, ri = dict(INSTANCE.findall(vt)), dict(INSTANCE.findall(rt))
    vtypes, rtypes = members(vt), members(rt)
    progs = {'vendor': [], 'regc': []}
    count = 0
    for inst in sorted(set(vi) & set(ri)):
        vtype, rtype = vi[inst], ri[inst]
        for side, t in (('vendor', vtype), ('regc', rtype)):
            progs[side].append('printf("%s_BASE %%llu\\n", (unsigned long long)%s_BASE);' % (inst, inst))
        common = [m for m in vtypes.get(vtype, []) if m in set(rtypes.get(rtype, []))]
        for m in common:
            count += 1
            for side, t in (('vendor', vtype), ('regc', rtype)):
                progs[side].append('printf("%s.%s %%zu %%zu\\n", offsetof(%s, %s), sizeof(((%s *)0)->%s));'
                                   % (inst, m, t, m, t, m))
    write_prog(out + '/prog_vendor.c', vendor, progs['vendor'])
    write_prog(out + '/prog_regc.c', regc, progs['regc'])
    print(count)


def compare(vendor_out, regc_out):
    def load(path):
        return dict(line.split(' ', 1) for line in read(path).splitlines() if ' ' in line)
    v, r = load(vendor_out), load(regc_out)
    for name in sorted(set(v) | set(r)):
        if v.get(name) != r.get(name):
            print('%s: vendor %s, regc %s' % (name, v.get(name, '-'), r.get(name, '-')))


if __name__ == '__main__':
    {'macros': macros, 'structs': structs, 'compare': compare}[sys.argv[1]](*sys.argv[2:])
