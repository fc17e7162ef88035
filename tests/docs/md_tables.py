#!/usr/bin/env python3
"""tests/docs/md_tables.py TREE.json RENDERED.html - check the Markdown output.

RENDERED.html is the Markdown reference rendered by a GFM renderer
(cmark-gfm -e table --unsafe). Every table the reference should hold must be
there, in order: per block its instances (when it has some), one fields table
per register with one row per field, then its events (whose Filters cell names
every filter the event counts through and what each unmodelled one is), then
its filters and the filters it names but does not model. The first cells must
be the names, and each description cell must hold the whole description, so
a character that splits a cell or a row is caught. Prints one problem per
line and exits 1 when there is any.
"""
import html.parser
import json
import re
import sys


class Tables(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.cell = [], None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables:
            self.cell = []
        elif tag == "br" and self.cell is not None:
            self.cell.append(" ")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append(fold("".join(self.cell)))
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def fold(s):
    return re.sub(r"\s+", " ", s or "").strip()


def expected(tree):
    """(what, header width, [(first cell, second cell, last cell)...]) per table."""
    for b in tree["blocks"]:
        if b["instances"]:
            yield ("instances of " + b["name"], 4, [(i["name"], None, None) for i in b["instances"]])
        for r in b["registers"]:
            yield ("fields of " + r["name"], 5,
                   [(f["name"], f["doc_bits"], fold(f["desc"])) for f in r["fields"]])
        if b["events"]:
            # the third column names the field that takes the code (inc_sel or set_flag_sel...);
            # the sixth its filters: each REGISTER.field, and the what of each unmodelled one
            yield ("events of " + b["name"], 7,
                   [(e["name"], e["code"], None, e["field"],
                     (5, e["filters"] + ([e["doc_unmodelled"]] if e.get("doc_unmodelled") else [])))
                    for e in b["events"]])
        pm = b.get("pmon") or {}
        if pm.get("filters"):
            yield ("filters of " + b["name"], 6,
                   [(f["register"] + "." + f["field"], f["match"], fold(f["desc"]))
                    for f in pm["filters"]])
        if pm.get("unmodelled_filters"):
            yield ("unmodelled filters of " + b["name"], 3,
                   [(f["name"], f["what"], fold(f["desc"])) for f in pm["unmodelled_filters"]])
    if tree.get("metrics"):
        # name, formula, scale, unit, description, source
        yield ("metrics", 6, [(m["name"], m["formula"], fold(m["c_source"])) for m in tree["metrics"]])


def main():
    tree = json.load(open(sys.argv[1]))
    p = Tables()
    p.feed(open(sys.argv[2], encoding="utf-8").read())
    want = list(expected(tree))
    errors = []
    if len(p.tables) != len(want):
        errors.append("%d tables rendered, %d expected" % (len(p.tables), len(want)))
    for (what, ncols, rows), table in zip(want, p.tables):
        head, body = table[0], table[1:]
        if len(head) != ncols:
            errors.append("%s: %d header cells, expected %d" % (what, len(head), ncols))
        if len(body) != len(rows):
            errors.append("%s: %d rows, expected %d" % (what, len(body), len(rows)))
        for n, (row, want_row) in enumerate(zip(body, rows)):
            first, second, last = want_row[:3]
            if len(want_row) > 4 and len(row) > want_row[4][0]:
                col, names = want_row[4]
                for nm in names:
                    if fold(nm) not in row[col]:
                        errors.append("%s row %d: filters %r lack %r" % (what, n + 1, row[col], nm))
                if not names and row[col] != "-":
                    errors.append("%s row %d: filters %r, expected -" % (what, n + 1, row[col]))
            if len(want_row) > 3 and len(row) > 2 and row[2] != want_row[3]:
                errors.append("%s row %d: code field %r, expected %r" % (what, n + 1, row[2], want_row[3]))
            if len(row) != ncols:
                errors.append("%s row %d: %d cells" % (what, n + 1, len(row)))
                continue
            if row[0] != fold(first) or (second is not None and row[1] != second):
                errors.append("%s row %d: starts %r, expected %r" % (what, n + 1, row[:2], [first, second]))
            if last is not None and row[-1] != last:
                errors.append("%s row %d: description %r, expected %r" % (what, n + 1, row[-1], last))
    for e in errors[:20]:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
