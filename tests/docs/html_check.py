#!/usr/bin/env python3
"""tests/docs/html_check.py TREE.json PAGE.html [OUTDIR] - check an HTML reference.

The page must be self-contained (no external resource, no script needed),
hold one bit-field <svg> per register, in order, with one labelled box per
field (a <g class="box ..."> with data-field = the field's index and a
non-empty name label, one per row the field spans), and a fields table with
one row of (at least) five cells per field. With OUTDIR, each <svg> is also written there as a file
(svg-N.svg) for an XML validator. Works on the page as written and on the
DOM Chromium dumps. Prints one problem per line; exits 1 when there is any.
"""
import html.parser
import json
import os
import re
import sys


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.svgs = []          # [{"label": str, "boxes": {index: label text}}]
        self.tables = []        # [[row cell count...]]
        self.external = []
        self.box = None         # index of the open field box
        self.in_name = False
        self.text = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "link", "img", "iframe", "object", "embed") and (a.get("src") or a.get("href")):
            self.external.append("<%s %s>" % (tag, a.get("src") or a.get("href")))
        if tag == "svg":
            self.svgs.append({"label": a.get("aria-label", ""), "boxes": {}})
        elif tag == "g" and "box" in (a.get("class") or "").split() and self.svgs:
            idx = int(a.get("data-field", "-1"))
            self.box = idx if idx >= 0 else None
        elif tag == "text" and "name" in (a.get("class") or "").split() and self.box is not None:
            self.in_name, self.text = True, []
        elif tag == "table":
            self.tables.append([] if "fields" in (a.get("class") or "").split() else None)
        elif tag == "tr" and self.tables and self.tables[-1] is not None:
            self.tables[-1].append(0)
        elif tag == "td" and self.tables and self.tables[-1]:
            self.tables[-1][-1] += 1

    def handle_endtag(self, tag):
        if tag == "text" and self.in_name:
            label = "".join(self.text).strip()
            boxes = self.svgs[-1]["boxes"]
            if label:
                boxes[self.box] = boxes.get(self.box, 0) + 1
            self.in_name = False
        elif tag == "g":
            self.box = None

    def handle_data(self, data):
        if self.in_name:
            self.text.append(data)



def main():
    tree = json.load(open(sys.argv[1]))
    text = open(sys.argv[2], encoding="utf-8").read()
    p = Page()
    p.feed(text)
    errors = list("external resource: " + e for e in p.external)
    if re.search(r"url\(\s*['\"]?(https?:|//)", text):
        errors.append("external url() in the style sheet")
    regs = [r for b in tree["blocks"] for r in b["registers"]]
    if len(p.svgs) != len(regs):
        errors.append("%d diagrams, %d registers" % (len(p.svgs), len(regs)))
    for r, svg in zip(regs, p.svgs):
        if svg["label"] != "Bit fields of " + r["name"]:
            errors.append("diagram %r where %s's was expected" % (svg["label"], r["name"]))
            continue
        per_row = r["svg"]["bits_per_row"]
        for i, f in enumerate(r["fields"]):
            # one box per row of the diagram the field crosses
            top = r["svg"]["rows"] * per_row - 1
            want = len({(top - b) // per_row for b in range(f["lsb"], f["msb"] + 1)})
            got = svg["boxes"].get(i, 0)
            if got != want:
                errors.append("%s: field %d '%s' has %d labelled boxes, expected %d"
                              % (r["name"], i, f["name"], got, want))
        extra = set(svg["boxes"]) - set(range(len(r["fields"])))
        if extra:
            errors.append("%s: boxes for no field: %s" % (r["name"], sorted(extra)))
    tables = [t for t in p.tables if t is not None]
    if len(tables) != len(regs):
        errors.append("%d fields tables, %d registers" % (len(tables), len(regs)))
    for r, t in zip(regs, tables):
        body = [n for n in t if n > 0]
        if len(body) != len(r["fields"]) or any(n < 5 for n in body):
            errors.append("%s: fields table has rows of %s cells, expected %d rows of 5"
                          % (r["name"], body, len(r["fields"])))
    if len(sys.argv) > 3:
        for n, m in enumerate(re.finditer(r"<svg\b.*?</svg>", text, re.S)):
            with open(os.path.join(sys.argv[3], "svg-%d.svg" % n), "w", encoding="utf-8") as fp:
                fp.write(m.group(0))
    for e in errors[:20]:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
