#!/usr/bin/env python3
"""tests/layers/circles.py - circles between modules, by includes or by calls.

    circles.py include DIR...      modules of DIR/*.c and DIR/*.h
    circles.py calls OBJECT...     modules of the object files (nm)

A module is a file name without its extension, with its directory:
compiler/check.c and compiler/check.h are the module compiler/check;
runtime/include/regc/pmon.h (the public header) is a module of its own.
An include "x.h" names the module of the file it finds, looked up beside
the including file, then in each DIR. For calls, module A needs module B
when an undefined symbol of A.o is defined by B.o. A circle is a set of
two or more modules that need one another (a strongly connected component
of that graph). Prints one line per circle, "a <-> b <-> c", sorted.
"""
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def include_graph(dirs):
    files = []
    for d in dirs:
        files += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith((".c", ".h"))]
    graph = {}
    for f in files:
        mod = os.path.splitext(os.path.normpath(f))[0]
        graph.setdefault(mod, set())
        with open(f, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                m = INCLUDE.match(line)
                if not m:
                    continue
                for base in [os.path.dirname(f)] + dirs:
                    p = os.path.normpath(os.path.join(base, m.group(1)))
                    if os.path.exists(p):
                        target = os.path.splitext(p)[0]
                        if target != mod:
                            graph[mod].add(target)
                        break
    return graph


def call_graph(objs):
    defined, undefined = {}, {}
    for o in objs:
        mod = os.path.splitext(os.path.normpath(o))[0]
        out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
        undefined[mod] = set()
        for line in out.splitlines():
            p = line.split()
            if len(p) == 2 and p[0] == "U":
                undefined[mod].add(p[1])
            elif len(p) == 3 and p[1] in "TDBRCVW":
                defined.setdefault(p[2], mod)
    return {m: {defined[s] for s in us if s in defined and defined[s] != m}
            for m, us in undefined.items()}


def circles(graph):
    """Tarjan's strongly connected components of two or more nodes."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(" <-> ".join(sorted(comp)))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("include", "calls"):
        sys.exit(__doc__)
    args = sys.argv[2:]
    graph = include_graph(args) if sys.argv[1] == "include" else call_graph(args)
    for c in circles(graph):
        print(c)


if __name__ == "__main__":
    main()
