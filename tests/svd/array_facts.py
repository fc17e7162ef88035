#!/usr/bin/env python3
"""array_facts.py MODEL.json - the array facts of a `regc -t json` file, one line each, sorted,
for comparing with facts written by hand (tests/svd/run-regspec-derive-dim.sh,
run-regspec-cluster-array.sh, run-regspec-derive-index.sh):
  cluster NAME at ADDRESS: COUNT stride STRIDE
  REG at ADDRESS in CLUSTER|-: COUNT from FIRST stride STRIDE index NAMES|- (or: one),
      fields NAMES|-, array-index ENUM NAME=VALUE...|-
(a register's line is one line; its fields without the implicit ones, gaps)."""
import json
import sys


def array(r):
    a = r["array"]
    if not a:
        return "one"
    return "%d from %d stride %s index %s" % (a["count"], a["first"], a["stride"],
                                              " ".join(r["svd"]["index_names"] or ["-"]))


def array_index(r):
    ai = r["svd"]["array_index"]
    if not ai:
        return "-"
    return " ".join([ai["enum_name"] or "-"] + ["%s=%d" % (v["name"], int(v["value"], 0))
                                                for v in ai["values"]])


def main():
    out = []
    for b in json.load(open(sys.argv[1]))["blocks"]:
        for c in b["svd"]["clusters"]:
            out.append("cluster %s at %s: %d stride %s" % (c["name"], c["address"], c["count"],
                                                          c["stride"]))
        for r in b["registers"]:
            fields = " ".join(f["name"] for f in r["fields"] if not f["implicit"])
            out.append("%s at %s in %s: %s, fields %s, array-index %s" % (
                r["name"], r["address"], r["svd"]["cluster"] or "-", array(r), fields or "-",
                array_index(r)))
    print("\n".join(sorted(out)))


if __name__ == '__main__':
    main()
