#!/usr/bin/env python3
"""svd-normalize.py FILE.svd - the register map a CMSIS-SVD file describes, one fact a line.

Written from the CMSIS-SVD specification (Open-CMSIS-Pack svd-spec: "derivedFrom",
"dim" element group, "registerPropertiesGroup"), not from regc's reader, so that a
round trip SVD -> regc -> SVD is judged by an independent reading:

- derivedFrom (peripherals, clusters, registers, fields, enumeratedValues): the derived
  element is a copy of its base with its own elements on top; its registers, clusters
  and fields are the base's with its own replacing those of one name; it takes neither
  the base's name, dim list, alternates nor (a peripheral) interrupts. A base is named in
  the element's scope or by a path (PERIPH.CLUSTER.REG) from the enclosing scopes out.
- dim lists: NAME[%s] and NAME%s expand to one element per index (dimIndex, else 0..dim-1)
  at offset + i * dimIncrement; a field list steps its bit offset.
- registerPropertiesGroup (size, access, protection, resetValue, resetMask) is inherited
  device -> peripheral -> cluster -> register; a field takes its register's access,
  modifiedWriteValues and readAction when it gives none.

What it prints: the device name; per peripheral its base address and interrupts; per
register (by absolute address and expanded name) its size, reset value, reset mask and,
when it has no fields, its access and side effects; per field its bits, access,
modifiedWriteValues, readAction, writeConstraint, its sets of enumerated values in order (each
set's usage, read-write when it gives none; its <name>; its headerEnumName) and its enumerated
values (per usage: name, value, don't-care bits; isDefault). A derived set (enumeratedValues
derivedFrom) is a copy of its base as above: it takes the base's <name> when it gives none, but
not its headerEnumName, which names one C enum and is no copy's (svdconv's
SvdEnumContainer::CopyItem, docs/svd.md "The enum form"). Descriptions, address blocks,
alternates and protection are not compared.

The test set's known defects are repaired as docs/svd.md documents regc's repairs
(tests/svd/corpus-diagnostics.txt lists them per file): fields named RESERVED are no
fields; of two registers, clusters, fields or values of one name in a scope the first is
kept; a field beyond its register's size, or overlapping an earlier one, is dropped; a
value wider than its field is dropped; reset bits above the size are dropped; the access
misspellings 'write' and 'read-writeonce' read as the SVD words; of an element given
twice (two <name>s in one <interrupt>), the later counts; a <field> written straight in
its <register> (no <fields>) is one of its fields. Names are made C identifiers as regc makes them (a character
other than a letter, digit or '_' becomes '_').
"""
import re
import sys
import xml.etree.ElementTree as ET

SIMPLE_PROPS = ("size", "access", "protection", "resetValue", "resetMask")
NOT_INHERITED = {"name", "dim", "dimIncrement", "dimIndex", "dimName", "dimArrayIndex",
                 "alternateRegister", "alternateGroup", "alternateCluster",
                 "alternatePeripheral", "interrupt"}
ACCESS = {"read-only", "write-only", "read-write", "writeOnce", "read-writeOnce"}
ACCESS_REPAIR = {"write": "write-only", "read-writeonce": "read-writeOnce",
                 "read": "read-only", "writeonce": "writeOnce"}


def text(e, tag, default=None):
    """An element's text; of an element given twice, the later (as every reader ends up with)."""
    found = e.findall(tag)
    k = found[-1] if found else None
    if k is None or k.text is None:
        return default
    return k.text.strip()


def number(s):
    s = s.strip().lower().lstrip("+")
    mult = 1
    if s and s[-1] in "kmgt" and not s.startswith("0x"):
        mult = 1024 ** ("kmgt".index(s[-1]) + 1)
        s = s[:-1]
    if s.startswith("0x"):
        return int(s[2:], 16) * mult
    if s.startswith("#"):
        return int(s[1:], 2) * mult
    if s.startswith("0b"):
        return int(s[2:], 2) * mult
    return int(s, 10) * mult


def ident(name):
    """As regc makes names C identifiers; a name regc gives a '_' (a clash with a macro of its
    register, 'KEEP' and the _KEEP_MASK) is compared without it."""
    return re.sub(r"[^A-Za-z0-9_]", "_", name).rstrip("_") or "_"


def base_name(name):
    return name.replace("[%s]", "").replace("%s", "")


def kids(e, tags):
    return [k for k in e if k.tag in tags]


class Device:
    def __init__(self, root):
        self.root = root
        self.periphs = {text(p, "name"): p for p in root.iter("peripheral")}

    # ---- derivedFrom

    def find(self, scopes, path, kinds, e=None):
        """The element 'path' names for 'e', searched in each scope (innermost first), then from
        the device; never 'e' itself (a derived set may write its base's name as its own)."""
        parts = path.split(".")
        if kinds == ("enumeratedValues",):  # by its name in the innermost scope that has it
            for scope in scopes + [self.root]:
                for ev in scope.iter("enumeratedValues"):
                    if ev is not e and text(ev, "name") == parts[-1]:
                        return ev
        for scope in scopes:
            found = self.walk(scope, parts, kinds)
            if found is not None:
                return found
        if parts[0] in self.periphs:
            p = self.resolve_periph(self.periphs[parts[0]])
            if len(parts) == 1:
                return p
            return self.walk(p, parts[1:], kinds)
        return None

    def walk(self, scope, parts, kinds):
        cur = scope
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            holder = cur.find("registers") if cur.tag == "peripheral" else cur
            if cur.tag == "register":
                holder = cur.find("fields")
            if cur.tag == "field":
                holder = cur
            if holder is None:
                return None
            want = kinds if last else ("register", "cluster", "field")
            nxt = None
            for k in holder:
                if k.tag in want and (text(k, "name") == part or base_name(text(k, "name", "")) == part):
                    nxt = k
                    break
            if nxt is None:
                return None
            cur = nxt
        return cur

    def derive(self, e, base):
        """A copy of 'base' with e's own elements on top (lists merged by name)."""
        out = ET.Element(e.tag, {})
        own_tags = {k.tag for k in e}
        for k in base:
            if k.tag in NOT_INHERITED:
                continue
            if k.tag in ("registers", "fields"):
                continue
            if k.tag in own_tags and k.tag not in ("registers", "fields"):
                continue
            out.append(k)
        for k in e:
            if k.tag not in ("registers", "fields"):
                out.append(k)
        for tag in ("registers", "fields"):
            b, o = base.find(tag), e.find(tag)
            if b is None and o is None:
                continue
            merged = ET.SubElement(out, tag)
            names = {text(k, "name") for k in (o if o is not None else [])}
            for k in (b if b is not None else []):
                if text(k, "name") not in names:
                    merged.append(k)
            for k in (o if o is not None else []):
                merged.append(k)
        return out

    def resolve(self, e, scopes, kinds, depth=0):
        d = e.get("derivedFrom")
        if not d or depth > 64:
            return e
        base = self.find(scopes, d, kinds, e)
        if base is None:
            return e
        base = self.resolve(base, scopes, kinds, depth + 1)
        return self.derive(e, base)

    def resolve_periph(self, p, depth=0):
        d = p.get("derivedFrom")
        if not d or d not in self.periphs or depth > 64:
            return p
        return self.derive(p, self.resolve_periph(self.periphs[d], depth + 1))


def props(e, up):
    p = dict(up)
    for t in SIMPLE_PROPS:
        v = text(e, t)
        if v is not None:
            p[t] = v
    for t in ("modifiedWriteValues", "readAction"):
        v = text(e, t)
        if v is not None:
            p[t] = v
    wc = write_constraint(e)
    if wc:
        p["writeConstraint"] = wc
    return p


def write_constraint(e):
    """A writeConstraint as one word: writeAsRead, useEnumeratedValues or range MIN-MAX."""
    wc = e.find("writeConstraint")
    if wc is None:
        return None
    if text(wc, "writeAsRead", "false").lower() in ("true", "1"):
        return "writeAsRead"
    if text(wc, "useEnumeratedValues", "false").lower() in ("true", "1"):
        return "useEnumeratedValues"
    r = wc.find("range")
    if r is not None and text(r, "minimum") is not None and text(r, "maximum") is not None:
        return "range %d-%d" % (number(text(r, "minimum")), number(text(r, "maximum")))
    return None


def dim_list(e):
    """[(index, step number)] of a dim list, or None."""
    n = text(e, "dim")
    if n is None:
        return None
    n = number(n)
    idx = text(e, "dimIndex")
    if idx is None:
        names = [str(i) for i in range(n)]
    elif re.fullmatch(r"\d+\s*-\s*\d+", idx):
        a, b = (int(x) for x in idx.split("-"))
        names = [str(i) for i in range(a, b + 1)]
    elif re.fullmatch(r"[A-Z]\s*-\s*[A-Z]", idx):
        a, b = (x.strip() for x in idx.split("-"))
        names = [chr(c) for c in range(ord(a), ord(b) + 1)]
    else:
        names = [x.strip() for x in idx.split(",")]
    return names[:n]


def expand_name(name, index):
    return name.replace("[%s]", index).replace("%s", index)


def access_word(a):
    if a is None:
        return None
    if a in ACCESS:
        return a
    return ACCESS_REPAIR.get(a.lower(), a)


def bits(f):
    lsb = text(f, "lsb")
    if lsb is not None:
        return number(lsb), number(text(f, "msb", lsb))
    off = text(f, "bitOffset")
    if off is not None:
        lo = number(off)
        return lo, lo + number(text(f, "bitWidth", "1")) - 1
    r = text(f, "bitRange")
    if r:
        m = re.fullmatch(r"\[\s*(\w+)\s*:\s*(\w+)\s*\]", r)
        if m:
            return number(m.group(2)), number(m.group(1))
    return None


def value_of(v, width):
    """(value, don't-care mask) of an enumeratedValue's <value>, or None when it does not fit."""
    s = v.strip().lower().lstrip("+")
    if s.startswith("#") or s.startswith("0b"):
        digits = s[1:] if s.startswith("#") else s[2:]
        val = int(digits.replace("x", "0"), 2)
        care = int("".join("1" if c == "x" else "0" for c in digits), 2)
        if val >> width or care >> width:
            return None
        return val, care
    val = number(s)
    return (val, 0) if not val >> width else None


class Normalizer:
    def __init__(self, path):
        self.dev = Device(ET.parse(path).getroot())
        self.lines = []

    def out(self, line):
        self.lines.append(line)

    def run(self):
        root = self.dev.root
        self.out("device %s" % ident(text(root, "name", "")))
        up = props(root, {})
        seen = set()
        head = self.lines
        per = {}  # peripherals in name order: a writer may group them otherwise
        for p0 in kids(root.find("peripherals"), ("peripheral",)):
            p = self.dev.resolve_periph(p0)
            name = text(p0, "name")
            dims = dim_list(p0)
            base = number(text(p, "baseAddress", "0"))
            incr = number(text(p0, "dimIncrement", "0")) if dims else 0
            for i, ix in enumerate(dims or [None]):
                pname = ident(expand_name(name, ix) if ix is not None else name)
                if pname in seen:
                    continue
                seen.add(pname)
                self.lines = per[pname] = []
                self.peripheral(p0, p, pname, base + i * incr, up)
        self.lines = head + [line for name in sorted(per) for line in per[name]]

    def peripheral(self, p0, p, pname, base, up):
        self.out("peripheral %s base 0x%x" % (pname, base))
        irqs = sorted((number(text(q, "value", "0")), text(q, "name")) for q in kids(p0, ("interrupt",)))
        for v, n in irqs:
            self.out("  interrupt %s %d" % (ident(n), v))
        regs = []
        pp = props(p, up)
        holder = p.find("registers")
        if holder is not None:
            self.items(holder, [p], pname, base, pp, regs)
        for line in sorted(regs):
            self.out(line)

    def items(self, holder, scopes, pname, addr, up, regs):
        names = set()
        for k in holder:
            if k.tag not in ("register", "cluster"):
                continue
            n = text(k, "name")
            if n is None or n in names:
                continue  # a duplicate: the first is kept
            names.add(n)
            e = self.dev.resolve(k, scopes, ("register", "cluster"))
            dims = dim_list(k)
            off = number(text(e, "addressOffset", "0"))
            incr = number(text(k, "dimIncrement", "0")) if dims else 0
            for i, ix in enumerate(dims or [None]):
                nm = expand_name(n, ix) if ix is not None else n
                at = addr + off + i * incr
                if k.tag == "cluster":
                    self.items(e, [e] + scopes, pname, at, props(e, up), regs)
                else:
                    self.register(e, scopes, pname, ident(nm), at, props(e, up), regs)

    def register(self, r, scopes, pname, name, at, p, regs):
        size = number(p.get("size", "32"))
        mask = (1 << size) - 1
        reset = number(p.get("resetValue", "0")) & mask
        rmask = number(p.get("resetMask", hex(mask))) & mask
        head = "  reg 0x%x %s size %d reset 0x%x mask 0x%x" % (at, name, size, reset, rmask)
        fields_el = r.find("fields")
        field_kids = kids(fields_el, ("field",)) if fields_el is not None else []
        field_kids += kids(r, ("field",))  # k210: <field> straight in <register>, read as regc does
        if not field_kids:
            regs.append(head + " access %s%s" % (access_word(p.get("access", "read-write")),
                                                 self.effects(p)))
            return
        regs.append(head)
        taken, fnames, lines = [], set(), []
        for f0 in field_kids:
            f = self.dev.resolve(f0, [r] + scopes, ("field",))
            fn = text(f0, "name")
            if fn is None:
                continue
            dims = dim_list(f0)
            incr = number(text(f0, "dimIncrement", "0")) if dims else 0
            b = bits(f)
            if b is None:
                continue
            for i, ix in enumerate(dims or [None]):
                nm = expand_name(fn, ix) if ix is not None else fn
                if re.fullmatch(r"(?i)reserved\d*", nm):
                    continue  # its bits are reserved: no field
                lo, hi = b[0] + i * incr, b[1] + i * incr
                if nm in fnames or hi >= size:
                    continue  # a duplicate name; beyond the register (svd-field-outside)
                if any(lo <= h and l <= hi for l, h in taken):
                    continue  # overlaps an earlier field (svd-overlap)
                fnames.add(nm)
                taken.append((lo, hi))
                lines.append(self.field(f, r, p, ident(nm), lo, hi, scopes, at, name))
        for line in sorted(lines, key=lambda s: s[0]):
            regs.append(line[1])

    def effects(self, p):
        s = ""
        mwv = p.get("modifiedWriteValues")
        if mwv and mwv != "modify":
            s += " write %s" % mwv
        ra = p.get("readAction")
        if ra:
            s += " read %s" % ra
        wc = p.get("writeConstraint")
        if wc:
            s += " constraint %s" % wc
        return s

    def field(self, f, r, rp, name, lo, hi, scopes, at, rname):
        fp = dict(rp)
        for t in ("access", "modifiedWriteValues", "readAction"):
            v = text(f, t)
            if v is not None:
                fp[t] = v
        wc = write_constraint(f)
        if wc:
            fp["writeConstraint"] = wc
        line = "  reg 0x%x %s field %s [%d:%d] access %s%s" % (
            at, rname, name, hi, lo, access_word(fp.get("access", "read-write")), self.effects(fp))
        vals = []
        width = hi - lo + 1
        sets = []
        for ev0 in kids(f, ("enumeratedValues",)):
            ev = self.dev.resolve(ev0, [f, r] + scopes, ("enumeratedValues",))
            usage = text(ev, "usage", "read-write")
            set_name, header = text(ev0, "name"), text(ev0, "headerEnumName")
            if set_name is None and ev is not ev0:  # found by its name: the path's last part
                set_name = ev0.get("derivedFrom").split(".")[-1]
            sets.append("set %d %s name %s header %s" % (
                len(sets), usage, ident(set_name) if set_name else "-", ident(header) if header else "-"))
            usages = ("read", "write") if usage == "read-write" else (usage,)
            for v in kids(ev, ("enumeratedValue",)):
                vn = text(v, "name")
                if vn is None:
                    continue
                if text(v, "isDefault", "false").lower() in ("true", "1"):
                    for u in usages:
                        vals.append("%s %s default" % (u, ident(vn)))
                    continue
                vv = text(v, "value")
                got = value_of(vv, width) if vv is not None else None
                if got is None:
                    continue  # wider than the field (svd-value-too-wide)
                for u in usages:
                    vals.append("%s %s 0x%x x 0x%x" % (u, ident(vn), got[0], got[1]))
        seen, kept = set(), []
        for v in vals:  # of two values of one name for one access, the first is kept
            key = tuple(v.split()[:2])
            if key not in seen:
                seen.add(key)
                kept.append(v)
        for s in sets:
            line += "\n  reg 0x%x %s field %s %s" % (at, rname, name, s)
        for v in sorted(kept):
            line += "\n  reg 0x%x %s field %s value %s" % (at, rname, name, v)
        return (lo, line)


def main():
    if len(sys.argv) != 2:
        print("usage: svd-normalize.py FILE.svd", file=sys.stderr)
        return 2
    n = Normalizer(sys.argv[1])
    n.run()
    sys.stdout.write("\n".join(n.lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
