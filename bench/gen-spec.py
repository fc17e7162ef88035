#!/usr/bin/env python3
"""bench/gen-spec.py BLOCKS REGS FIELDS [INSTANCES] > spec.xml

Writes a synthetic but valid regspec with BLOCKS blocks of REGS registers of
FIELDS fields each (every field with a description and two named values, one
rule per register, an event table per block; with one field a register's
rule names that field only), each block with INSTANCES
instances (default 0: none; each a copy 16 MiB above the last).
Deterministic: the same arguments give the same file. Default 64 32 16 =
32,768 fields, about 12 MB.
"""
import sys


def main():
    blocks, regs, fields = (int(a) for a in (sys.argv[1:4] or (64, 32, 16)))
    instances = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    width = 64
    per = width // fields
    out = sys.stdout
    w = out.write
    w('<?xml version="1.0" encoding="UTF-8"?>\n')
    w('<regspec name="bench" prefix="BENCH" version="1" title="Synthetic benchmark spec">\n')
    w('  <source id="gen" title="bench/gen-spec.py" ref="0" rev="1"/>\n')
    for b in range(blocks):
        w(f'  <block name="blk{b}" title="Block {b}">\n')
        w(f'    <desc>Synthetic block number {b}, generated for the benchmark.</desc>\n')
        for k in range(instances):
            w(f'    <instance name="i{k}" base="0x{k << 24:x}"/>\n')
        for r in range(regs):
            addr = 0x10000 + (b * regs + r) * 2
            w(f'    <register name="B{b}_REG{r}" space="msr" address="0x{addr:x}" width="{width}"'
              f' src="gen" table="{b}-{r}" page="{r + 1}">\n')
            w(f'      <desc>Register {r} of block {b}: a control register with {fields} fields.</desc>\n')
            for f in range(fields - 1, -1, -1):
                lo = f * per
                hi = lo + per - 1
                bits = f'{hi}:{lo}' if hi != lo else f'{lo}'
                w(f'      <field name="f{f}" bits="{bits}" access="RW" reset="0"'
                  f' desc="Field {f} of register {r} in block {b}; selects one of the modes below.">\n')
                w(f'        <value name="OFF" value="0" desc="Field {f} disabled"/>\n')
                w(f'        <value name="ON" value="1" desc="Field {f} enabled"/>\n')
                w('      </field>\n')
            if fields > 1:
                w(f'      <rule name="r{r}" expr="f0 -> f1 != 0">Field f1 must be non-zero when f0 is set.</rule>\n')
            else:  # one field: a rule on it alone
                w(f'      <rule name="r{r}" expr="f0 != 2">Field f0 is never 2.</rule>\n')
            w('    </register>\n')
        w(f'    <events register="B{b}_REG0" code-field="f0" src="gen">\n')
        for e in range(4):
            w(f'      <event name="EV{e}" code="{e}" desc="Event {e}"/>\n')
        w('    </events>\n')
        w('  </block>\n')
    w('</regspec>\n')


if __name__ == '__main__':
    main()
