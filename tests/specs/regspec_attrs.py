#!/usr/bin/env python3
"""regspec_attrs.py SPEC.xml - every attribute of a regspec as one line each, for comparing two
regspecs that should say the same (tests/specs/run-regspec-self.sh: a spec and its -t regspec).

Written from docs/regspec.md, not from regc: <include href=> is followed (relative to the file
holding it) and the children of the included <part> stand where the <include> stood; a <desc>
child is its parent's desc=; a <rule>'s text is its message. A gaps= fill stands as the <gap>s
it means (docs/regspec.md, "Gaps": gaps= of the register, else of its block, else of the spec,
covers every bit below the register's width that no <field> or <gap> covers, each uncovered range
a <gap bits= access=>), since -t regspec spells such a fill out as <gap>s: a register's <gap>s,
written or filled, are named by their bits (HI:LO, or N for one bit), their order left to the
C header's comparison. A register that writes no <field> or <gap> and derives from another
takes its base's fields, so it is filled by nothing here. A line is
  PATH ATTRIBUTE=VALUE
where PATH names each enclosing element by its tag and its name= (else its register=, control=,
id= or block=), then its place among the siblings of that tag and name, so that the order of
elements of different kinds (a <box-status> before the <counters>) does not count, the order
within one kind does. Values are whitespace-folded; a number (decimal or 0x hex) is written in hex.
Comments are not read (no regspec keeps them).
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

NUMBER = re.compile(r'^(0[xX][0-9a-fA-F]+|0[bB][01]+|0|[1-9][0-9]*)$')

# what an attribute left out means (docs/regspec.md): both sides get it, so that writing a
# default or leaving it out says the same
DEFAULTS = {
    ('counters', 'kind'): 'general', ('counters', 'overflow'): 'wrap',
    ('counters', 'preload'): '2^w-N', ('counters', 'freeze-on-overflow'): 'false',
    ('rdpmc', 'high-zero'): 'false', ('event', 'combine'): 'exact',
    ('value', 'undefined'): 'false', ('field', 'reset'): '0',
}


def norm(v):
    """whitespace folded, each number in hex (an addresses= list holds several)"""
    return ' '.join(hex(int(w, 0)) if NUMBER.match(w) else w for w in v.split())


def attributes(el):
    """el's attributes, the defaults of those it leaves out filled in"""
    a = dict(el.attrib)
    for (tag, name), v in DEFAULTS.items():
        if tag == el.tag:
            a.setdefault(name, v)
    if el.tag == 'register':  # the access size: 64 bits for an MSR, else 32
        a.setdefault('size', '64' if a.get('space', 'msr') == 'msr' else '32')
    if el.tag in ('box-status', 'global-status') and 'clear-register' not in a:
        a.setdefault('clear', 'w1c')
    return a


def children(el, path):
    """el's children, includes expanded (a <part>'s children in the <include>'s place)"""
    for c in el:
        if not isinstance(c.tag, str):
            continue
        if c.tag == 'include':
            sub = os.path.join(os.path.dirname(path), c.get('href'))
            part = ET.parse(sub).getroot()
            yield from ((x, p) for x, p in children(part, sub) if x.tag != 'desc')
        else:
            yield c, path


def bit_range(bits):
    """(HI, LO) of bits="HI:LO" or "N" """
    hi, _, lo = bits.partition(':')
    return (int(hi, 0), int(lo or hi, 0))


def bits_text(hi, lo):
    return '%d:%d' % (hi, lo) if hi != lo else '%d' % hi


def gaps_of(reg, kids, fill):
    """reg's <gap>s as (HI, LO, attributes): those written and those its gaps= fill means"""
    gaps, covered = [], set()
    for c, _ in kids:
        if c.tag in ('field', 'gap') and c.get('bits'):
            hi, lo = bit_range(c.get('bits'))
            covered.update(range(min(hi, lo), max(hi, lo) + 1))
            if c.tag == 'gap':
                gaps.append((hi, lo, dict(c.attrib)))
    derives = reg.get('derived-from') and not any(c.tag in ('field', 'gap') for c, _ in kids)
    if fill and not derives:
        bit, width = 0, int(reg.get('width'), 0)
        while bit < width:
            if bit in covered:
                bit += 1
                continue
            lo = bit
            while bit < width and bit not in covered:
                bit += 1
            gaps.append((bit - 1, lo, {'access': fill}))
    return gaps


def walk(el, path, where, out, fill=None):
    for k, v in attributes(el).items():
        out.append('%s %s=%s' % (where, k, norm(v)))
    fill = el.get('gaps', fill) if el.tag in ('regspec', 'block', 'register') else fill
    kids = list(children(el, path))
    if el.tag == 'register':
        for hi, lo, attrs in gaps_of(el, kids, fill):
            here = '%s/gap[%s]' % (where, bits_text(hi, lo))
            attrs['bits'] = bits_text(hi, lo)
            for k, v in attrs.items():
                out.append('%s %s=%s' % (here, k, norm(v)))
    seen = {}
    for c, cpath in kids:
        if c.tag == 'gap':  # listed above, written or filled alike
            continue
        if c.tag == 'desc':
            if not any(line.startswith(where + ' desc=') for line in out):
                out.append('%s desc=%s' % (where, norm(c.text or '')))
            continue
        key = next((c.get(a) for a in ('name', 'register', 'control', 'id', 'block') if c.get(a)), '')
        n = seen.get((c.tag, key), 0)
        seen[(c.tag, key)] = n + 1
        here = '%s/%s[%s]#%d' % (where, c.tag, key, n)
        if c.tag == 'rule':
            out.append('%s text=%s' % (here, norm(c.text or '')))
        walk(c, cpath, here, out, fill)


def main():
    path = sys.argv[1]
    out = []
    walk(ET.parse(path).getroot(), path, 'regspec', out)
    for line in sorted(out):
        print(line)


if __name__ == '__main__':
    main()
