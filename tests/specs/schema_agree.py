#!/usr/bin/env python3
"""tests/specs/schema_agree.py - regc's own schema check against libxml2's RELAX NG validator.

regc validates regspec files itself, from a table it reads out of
regspec/regspec.rng (compiler/xmlschema.c). This compares its verdict with
`xmllint --relaxng regspec/regspec.rng`, an independent implementation of
RELAX NG, on:
  - every well-formed XML file given (the specs, test inputs, fuzz corpora);
  - mutants of the seed specs given after --seeds: an attribute dropped, added,
    misspelled or given another value (among them the values the schema lists,
    with blanks around them, which RELAX NG compares as tokens), an element
    repeated, moved, renamed or given text, made deterministically;
  - a family of mutants derived from the schema itself, read here with
    xml.etree (schema_table(), not regc's table): for each element the schema
    defines, taken with only its ancestors from the first seed holding it,
    every attribute name the schema knows that the element does not allow,
    every element name it may not contain, each required attribute removed,
    each attribute of an <optional> group without the others, each listed
    value in capitals, each child allowed once given twice, text where none is
    allowed (schema_family()). All are invalid, so xmllint must say so, and the
    documents they are made from valid: else the family misread the schema.

A file xmllint finds invalid must get at least one of regc's schema messages;
a file it finds valid must get none. Rules regc adds beyond the schema (a spec
starts with <regspec>; <device>, <pmon>, <array-index> and others once; address or
addresses) are not
schema messages. Prints one TAP line per group and the disagreements.

Each tool runs once per batch of files, not once per file (some 9,500 inputs:
a process each cost minutes, most of them in the sanitizer build's start-up):
xmllint --relaxng and regc --check both take several files and say per file.
A mutant text made twice, or a file given twice, is checked once and counted
each time.
"""
import collections
import os
import random
import re
import subprocess
import sys
import tempfile
import xml.dom.minidom
import xml.etree.ElementTree as ET
import xml.parsers.expat

SCHEMA_MSG = re.compile(
    r": error: element '[^']+'(: unknown attribute '[^']+'(; did you mean '[^']+'\?)?$"
    r"|: missing attribute '[^']+'$"
    r"|: attribute '[^']+' is '.*', expected .*$"
    r"|: attribute '[^']+' needs attribute '[^']+'$"
    r"| is not allowed (here|in '[^']+').*$"
    r"| may not contain text$"
    r"| may appear only once here$)")
# the loader's own "once" rules (xl_report_repeated(), called in compiler/xmlelem.c, xmlload.c
# and xmlmmio.c)
LOADER_ONCE = re.compile(r"element '(device|core|pmon|pmon-global|box-control|box-status|"
                         r"global-control|global-status|array-index)' may appear only once here$")
# regc's refusals before any schema check: its nesting limit, another format
REFUSED = re.compile(r": error: (elements nest deeper than \d+ levels|not a regspec: )")
SANITIZER = re.compile(r"ERROR: (Address|Leak)Sanitizer|: runtime error: ")  # a crash or leak
BATCH = 300  # files per xmllint or regc: their argv stays far below the system's limit


def well_formed(path):
    """Expat, with namespaces: stricter than xmllint --noout, which stops quietly at a NUL
    byte and calls an unbound prefix a warning (regc refuses both as XML errors)."""
    p = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    try:
        with open(path, "rb") as f:
            p.ParseFile(f)
        return True
    except (xml.parsers.expat.ExpatError, OSError, ValueError, LookupError):
        return False


def lint_all(rng, paths):
    """xmllint's verdict on each path: True valid, False invalid, None not well-formed (by
    expat or by xmllint). One xmllint per batch of files, which parses the schema once and
    prints "FILE validates" or "FILE fails to validate" for each file it could parse; a
    file it could not parse gets neither and does not stop the others."""
    verdict = {p: None for p in paths}
    parsed = [p for p in paths if well_formed(p)]
    said = {" validates": True, " fails to validate": False,
            " validation generated an internal error": False}
    for i in range(0, len(parsed), BATCH):
        batch = parsed[i:i + BATCH]
        r = subprocess.run(["xmllint", "--noout", "--nonet", "--relaxng", rng] + batch,
                           capture_output=True, text=True, errors="replace")
        if "failed to compile" in r.stderr:
            sys.exit(f"xmllint cannot compile {rng}:\n{r.stderr}")
        for line in r.stderr.splitlines():
            for tail, valid in said.items():
                if line.endswith(tail) and line[:-len(tail)] in verdict:
                    verdict[line[:-len(tail)]] = valid
    return verdict


def regc_all(regc, paths, bad):
    """regc's schema messages on each path and whether it refused the file before any schema
    check. One `regc --check` per batch: it checks each file on its own, in order, and
    after each file is given one that does not exist, whose one message ends the file's
    messages (an included file's come among them, under its own name)."""
    said = {}
    with tempfile.TemporaryDirectory() as tmp:
        end = os.path.join(tmp, "end")
        end_msg = f"{end}: error: cannot read file: No such file or directory"
        for i in range(0, len(paths), BATCH):
            batch = paths[i:i + BATCH]
            r = subprocess.run([regc, "--check", "-fno-caret-diagnostics"]
                               + [a for p in batch for a in (p, end)],
                               capture_output=True, text=True, errors="replace")
            runs = [[]]
            for line in r.stderr.splitlines():
                if line == end_msg:
                    runs.append([])
                else:
                    runs[-1].append(line)
            if r.returncode != 3 or len(runs) != len(batch) + 1 or SANITIZER.search(r.stderr):
                bad.append(f"regc --check of {batch[0]}... exited with status {r.returncode} "
                           f"after {len(runs) - 1} of {len(batch)} files: "
                           + "; ".join(l for l in r.stderr.splitlines()[-3:]))
            for p, lines in zip(batch, runs + [[]] * len(batch)):
                said[p] = ([l for l in lines if l.startswith(p + ":") and SCHEMA_MSG.search(l)
                            and not LOADER_ONCE.search(l)],
                           any(REFUSED.search(l) for l in lines))
    return said


def compare_all(regc, rng, inputs, bad):
    """Compares the verdicts on inputs, a list of (path, label); a path given twice is
    checked once. Returns how many inputs were compared (each time given) and the
    paths xmllint finds valid."""
    paths = list(dict.fromkeys(p for p, _ in inputs))
    valid = lint_all(rng, paths)
    regc_said = regc_all(regc, [p for p in paths if valid[p] is not None], bad)
    n = 0
    for path, label in inputs:
        if valid[path] is None or regc_said[path][1]:
            continue  # not well-formed, or refused before the schema: not the schema's business
        msgs = regc_said[path][0]
        n += 1
        if valid[path] != (not msgs):
            bad.append(f"{label}: xmllint says {'valid' if valid[path] else 'invalid'}, regc "
                       + ("; ".join(msgs[:3]) if msgs else "no schema error"))
    return n, {p for p in paths if valid[p]}


def elements(node):
    out = []
    for c in node.childNodes:
        if c.nodeType == c.ELEMENT_NODE:
            out.append(c)
            out.extend(elements(c))
    return out


def schema_words(rng):
    """Element and attribute names and listed values of the schema (the mutants' vocabulary)."""
    doc = xml.dom.minidom.parse(rng)
    names, attrs, values = set(), set(), set()
    for e in doc.getElementsByTagName("element"):
        names.add(e.getAttribute("name"))
    for a in doc.getElementsByTagName("attribute"):
        attrs.add(a.getAttribute("name"))
    for v in doc.getElementsByTagName("value"):
        values.add(v.firstChild.data if v.firstChild else "")
    return sorted(names), sorted(attrs), sorted(values)


def mutate(doc, rnd, words):
    names, attrs, values = words
    els = elements(doc.documentElement)
    e = rnd.choice(els) if els else doc.documentElement
    kind = rnd.randrange(9)
    if kind == 0 and e.attributes.length:  # drop an attribute
        e.removeAttribute(rnd.choice(list(e.attributes.keys())))
    elif kind == 1:  # an attribute of the schema, maybe not this element's
        e.setAttribute(rnd.choice(attrs), rnd.choice(values + ["1", "x"]))
    elif kind == 2 and e.attributes.length:  # misspelled
        a = rnd.choice(list(e.attributes.keys()))
        v = e.getAttribute(a)
        e.removeAttribute(a)
        e.setAttribute(a[:-1] if len(a) > 1 else a + "x", v)
    elif kind == 3 and e.attributes.length:  # another value, a listed one with blanks, or junk
        a = rnd.choice(list(e.attributes.keys()))
        v = rnd.choice(values)
        e.setAttribute(a, rnd.choice([v, " " + v + " ", v + "x", v.upper(), ""]))
    elif kind == 4 and e.parentNode.nodeType == e.ELEMENT_NODE:  # repeated
        e.parentNode.insertBefore(e.cloneNode(True), e)
    elif kind == 5 and e.parentNode.nodeType == e.ELEMENT_NODE:  # moved elsewhere
        to = rnd.choice([doc.documentElement] + els)
        if to is not e and not any(p is e for p in ancestors(to)):
            e.parentNode.removeChild(e)
            to.appendChild(e)
    elif kind == 6:  # text
        e.appendChild(doc.createTextNode(rnd.choice(["x", " text ", "1"])))
    elif kind == 7 and e.parentNode.nodeType == e.ELEMENT_NODE:  # renamed
        to = doc.createElement(rnd.choice(names + [e.tagName + "s"]))
        for a in list(e.attributes.keys()):
            to.setAttribute(a, e.getAttribute(a))
        while e.firstChild:
            to.appendChild(e.firstChild)
        e.parentNode.replaceChild(to, e)
    else:  # a child of the schema's, maybe not allowed here
        e.appendChild(doc.createElement(rnd.choice(names)))


def systematic(path, words, rnd):
    """One mutant for each kind of change at each distinct place: each (parent, element)
    repeated; each (element, attribute) dropped, given with blanks around its value, and
    given a value the schema lists. Yields (what, function that changes a fresh parse)."""
    values = words[2]
    doc = xml.dom.minidom.parse(path)
    seen = set()

    def at(d, i):
        return elements(d.documentElement)[i]
    for i, e in enumerate(elements(doc.documentElement)):
        key = (e.parentNode.tagName, e.tagName)
        if key not in seen:
            seen.add(key)
            yield (f"<{e.tagName}> in <{key[0]}> repeated",
                   lambda d, i=i: (lambda x: x.parentNode.insertBefore(x.cloneNode(True), x))(at(d, i)))
        for a in e.attributes.keys():
            if (e.tagName, a) in seen:
                continue
            seen.add((e.tagName, a))
            v = rnd.choice(values)
            yield f"<{e.tagName}> without {a}", lambda d, i=i, a=a: at(d, i).removeAttribute(a)
            yield (f"<{e.tagName} {a}> with blanks",
                   lambda d, i=i, a=a: at(d, i).setAttribute(a, " " + at(d, i).getAttribute(a) + " \t"))
            yield (f"<{e.tagName} {a}='{v}'>", lambda d, i=i, a=a, v=v: at(d, i).setAttribute(a, v))


RNG = "{http://relaxng.org/ns/structure/1.0}"


class Group:
    """The <optional> (binding) or <choice> or <zeroOrMore> an attribute is in: given one
    attribute of an <optional>, the others it holds outside nested patterns are required,
    and so are those of the <optional>s holding it."""

    def __init__(self, parent, binding):
        self.parent, self.binding, self.members = parent, binding, set()

    def needs(self, name):
        g, out = self, set()
        while g:
            out |= g.members - {name} if g.binding else set()
            g = g.parent
        return out


Entry = collections.namedtuple("Entry", "attrs required needs children text")
Entry.__doc__ = """What the schema allows an element: attrs {name: the values listed for it
there, [] for any text}, the required attributes, needs {attribute: the attributes it
requires}, children {name: True when any number, False when once at most}, text (bool)."""


def schema_table(rng):
    """What each element of the schema allows, read from the .rng with xml.etree (not from
    regc's table, which the family judges): {element: Entry}, and {attribute: the values
    listed for it anywhere}. An attribute is required when no <optional>, <zeroOrMore> or
    <choice> holds it; a child is allowed many times under a <zeroOrMore>. No element is
    defined twice (regc's xmlschema.c refuses that too)."""
    root = ET.parse(rng).getroot()
    defines = {d.get("name"): d for d in root.iter(RNG + "define")}
    listed = {}

    def values_of(pattern):
        for c in pattern:
            if c.tag == RNG + "value":
                yield (c.text or "").strip()
            elif c.tag == RNG + "ref":
                yield from values_of(defines[c.get("name")])
            else:
                yield from values_of(c)

    def collect(pattern, e, groups, group, many):
        for c in pattern:
            if c.tag == RNG + "element":
                e.children[c.get("name")] = many  # its own content is its own entry's
            elif c.tag == RNG + "attribute":
                name = c.get("name")
                e.attrs[name] = list(values_of(c))
                groups[name] = group
                if group:
                    group.members.add(name)
                listed.setdefault(name, [])
                listed[name] += [v for v in e.attrs[name] if v not in listed[name]]
            elif c.tag == RNG + "text":
                e.text.append(True)
            elif c.tag == RNG + "ref":
                collect(defines[c.get("name")], e, groups, group, many)
            elif c.tag in (RNG + "optional", RNG + "zeroOrMore", RNG + "choice"):
                collect(c, e, groups, Group(group, c.tag == RNG + "optional"),
                        many or c.tag == RNG + "zeroOrMore")
            else:
                collect(c, e, groups, group, many)
    table = {}
    for el in root.iter(RNG + "element"):
        e, groups = Entry({}, set(), {}, {}, []), {}
        collect(el, e, groups, None, False)
        if el.get("name") in table:
            sys.exit(f"schema_agree: {rng} defines <{el.get('name')}> twice")
        e.required.update(a for a, g in groups.items() if not g)
        e.needs.update((a, g.needs(a)) for a, g in groups.items() if g and g.needs(a))
        table[el.get("name")] = e._replace(text=bool(e.text))
    return table, listed


def element_paths(seed):
    """For each element name in file 'seed', the path from the root to its first occurrence:
    a list of etree elements."""
    paths = {}

    def walk(e, path):
        paths.setdefault(e.tag, path + [e])
        for c in e:
            walk(c, path + [e])
    walk(ET.parse(seed).getroot(), [])
    return paths


def bare_copy(path):
    """A document of only the elements on 'path' (root first), each with its attributes and
    nothing else but the last one's text: still valid, since the schema makes no child
    required and the loader's rules beyond it are not schema messages. Returns its root and
    its last element."""
    root = node = None
    for e in path:
        copy = ET.Element(e.tag, e.attrib)
        if node is None:
            root = copy
        else:
            node.append(copy)
        node = copy
    node.text = path[-1].text
    return root, node


def schema_family(table, listed, seeds):
    """Mutants of what the schema forbids, each made on a copy of the path to the first
    occurrence of an element in the first seed holding it (bare_copy(); 'seeds': valid
    files): each attribute name the schema knows put on each element that does not allow
    it (with the first value the schema lists for it, else "1"), each element name put as
    an empty child in each element that does not allow it, each required attribute
    removed, each attribute of an <optional> group given without the others it needs,
    each attribute with listed values given its first value in capitals (RELAX NG compares
    tokens, case and all), each child allowed once given twice, text in each element that
    allows none. Every one is invalid: xmllint must say so, and regc too. Yields (label,
    text, valid): first, for each element, its bare copy (valid=True), then its mutants
    (valid=False); an element of the schema no seed holds is yielded as (label, None, None)."""
    where = {}
    for seed in seeds:
        for name, path in element_paths(seed).items():
            where.setdefault(name, (seed, path))
    for el, e in sorted(table.items()):
        if el not in where:
            yield f"<{el}>: no seed holds it", None, None
            continue
        seed, path = where[el]

        def mutant(change):
            root, node = bare_copy(path)
            change(node)
            return ET.tostring(root, encoding="utf-8")
        yield f"<{el}> of {seed} with its ancestors only", mutant(lambda n: None), True
        for a in sorted(set(listed) - set(e.attrs)):
            v = listed[a][0] if listed[a] else "1"
            yield (f"<{el}> of {seed} given {a}=, which it does not allow",
                   mutant(lambda n: n.set(a, v)), False)
        for ch in sorted(set(table) - set(e.children)):
            yield (f"<{ch}/> put in <{el}> of {seed}, which does not allow it",
                   mutant(lambda n: n.append(ET.Element(ch))), False)
        for a in sorted(e.required):
            yield f"<{el}> of {seed} without its required {a}=", mutant(lambda n: n.attrib.pop(a)), False
        for a, others in sorted(e.needs.items()):
            v = path[-1].get(a, listed[a][0] if listed[a] else "1")
            yield (f"<{el}> of {seed} given {a}= without {', '.join(sorted(others))}=",
                   mutant(lambda n: [n.set(a, v)] + [n.attrib.pop(o, None) for o in others]), False)
        for a, vs in sorted(e.attrs.items()):
            if vs and vs[0].upper() not in vs:
                yield (f"<{el} {a}='{vs[0].upper()}'> in {seed}",
                       mutant(lambda n: n.set(a, vs[0].upper())), False)
        for ch in sorted(c for c, many in e.children.items() if not many and c in where):
            twice = [bare_copy(where[ch][1][-1:])[0] for _ in range(2)]
            yield f"<{ch}> twice in <{el}> of {seed}", mutant(lambda n: n.extend(twice)), False
        if not e.text:
            yield f"text in <{el}> of {seed}", mutant(lambda n: setattr(n, "text", "x")), False


def ancestors(n):
    while n is not None:
        yield n
        n = n.parentNode


def family_test(regc, rng, seeds):
    """TAP line 3: the family derived from the schema (schema_family())."""
    table, listed = schema_table(rng)
    seed_valid = lint_all(rng, seeds)
    bad = [f"seed {s} is not valid: the family needs valid seeds" for s in seeds if not seed_valid[s]]
    family = []  # (path, label, valid)
    with tempfile.TemporaryDirectory() as tmp:
        for i, (what, text, valid) in enumerate(
                schema_family(table, listed, [s for s in seeds if seed_valid[s]])):
            if text is None:
                bad.append(what)
                continue
            path = os.path.join(tmp, f"s{i}.xml")
            with open(path, "wb") as out:
                out.write(text)
            family.append((path, what, valid))
        n, found_valid = compare_all(regc, rng, [(p, w) for p, w, _ in family], bad)
        bad += [f"{what}: xmllint says {'valid' if not valid else 'invalid'} (the family misread"
                 " the schema)" for path, what, valid in family if (path in found_valid) != valid]
        if n != len(family):
            bad.append(f"{len(family) - n} of {len(family)} not compared (not well-formed, or refused)")
    nmut = sum(not v for _, _, v in family)
    print(("ok" if not bad else "not ok")
          + f" 3 - regc's schema check agrees with xmllint on {nmut} mutants of what the schema"
          + f" forbids ({len(table)} elements, {len(listed)} attribute names), all invalid, and"
          + f" on the {len(family) - nmut} valid documents they are made from")
    for b in bad[:20]:
        print("#   " + b)


def main():
    regc, rng = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    files = args[:args.index("--seeds")] if "--seeds" in args else args
    seeds = args[args.index("--seeds") + 1:] if "--seeds" in args else []
    bad = []
    n, _ = compare_all(regc, rng, [(f, f) for f in files], bad)
    print(("ok" if not bad else "not ok") + f" 1 - regc's schema check agrees with xmllint on {n} files")
    for b in bad[:20]:
        print("#   " + b)
    words = schema_words(rng)
    rnd = random.Random(20261129)
    bad2 = []
    mutants = []  # (path, label); a text made twice is written and checked once
    written = {}
    with tempfile.TemporaryDirectory() as tmp:
        for s in seeds:
            changes = list(systematic(s, words, rnd))
            changes += [("random", None)] * int(os.environ.get("SCHEMA_MUTANTS", "150"))
            for i, (what, change) in enumerate(changes):
                doc = xml.dom.minidom.parse(s)
                if change:
                    change(doc)
                for _ in range(0 if change else rnd.choice([1, 1, 1, 2, 3])):
                    mutate(doc, rnd, words)
                text = doc.toxml()
                if text not in written:
                    written[text] = os.path.join(tmp, f"m{len(written)}.xml")
                    with open(written[text], "w", encoding="utf-8") as out:
                        out.write(text)
                mutants.append((written[text], f"mutant {i} of {s} ({what})"))
        _, valid = compare_all(regc, rng, mutants, bad2)
    print(("ok" if not bad2 else "not ok")
          + f" 2 - regc's schema check agrees with xmllint on {len(mutants)} mutants"
          + f" ({sum(p in valid for p, _ in mutants)} valid)")
    for b in bad2[:20]:
        print("#   " + b)
    family_test(regc, rng, seeds)
    print("1..3")


main()
