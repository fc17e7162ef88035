#!/usr/bin/env python3
"""tests/docs/doc_examples.py - every example of the docs, extracted and run.

usage: doc_examples.py [--jobs N] [--list] [--no-selftest] FILE...
  FILE: Markdown (README.md, docs/*.md) or man pages (docs/man/*.[0-9])
  environment: REGC, REGCTL (the programs under test), CC (default cc),
  run from the top of the source tree. Prints TAP.

What is an example. In Markdown, every code block (fenced, or indented four
blanks), found by cmark-gfm's parser; in a man page, every .RS/.RE or .nf/.fi
group of the EXAMPLE(S) section (roff escapes undone). Each is one TAP line,
named FILE:LINE, and is checked by its kind, taken from, in this order, an
annotation ("as KIND"), the fence's language (xml, c, json, sh, console,
make, text) or its look ($ prompts: console; <: xml; #include: c; {: json; a
first word that is regc, regctl, make, sudo or a path in the tree: shell):

  xml       a whole spec (<regspec>): `regc --check`, then rendered into a C
            header that must compile; no diagnostic at all. A fragment:
            well-formed once the doc's elisions are undone (" ..." inside a
            tag, unclosed tags), and every element, attribute and parent the
            schema (regspec/regspec.rng) allows.
  c         compiled with $CC -std=c11 -O2 -Wall -Wextra -Wpedantic -Werror
            against runtime/include, generated/ and the scratch directory.
  json      parsed.
  shell     the lines run by bash -e in a scratch directory (links to the
            tree's top-level entries; regc and regctl on PATH are the ones
            under test); `make` runs as `make -n` in the tree and `sudo`
            runs its command as is, so nothing is built or installed.
  console   each "$ command" (continued over lines by \\ or an open quote)
            run the same way; the lines after it, up to the next "$", must
            be exactly what it prints (stdout and stderr); a line "..." stands
            for any number of lines left out. It must exit 0.
  make      (with "makefile TARGET") written as a Makefile in the scratch
            directory; `make TARGET` must build it, a second run must find it
            up to date.

Annotations. An HTML comment right before the block (a roff comment
`.\\" doc-test: ...` before the group in a man page), one directive a line:

  <!-- doc-test: DIRECTIVE [ARGUMENT]
  DIRECTIVE [ARGUMENT] -->

  skip REASON         not run; reported as a TAP skip with REASON (use it for
                      text that is no code: grammars, message formats)
  as KIND             the kind, when neither language nor look tells it
  from FILE           the block quotes FILE: each XML element (attributes,
                      text) is one of FILE's; other blocks' lines are FILE's
                      lines, in order
  dry-run REASON      regctl runs with --dry-run (REASON: what the real run
                      needs, e.g. root and the hardware); output not compared
  notes               console output carries notes on the right: a shown
                      line may be the printed line, 2+ blanks and a note
  needs THING...      skipped (with the reason) unless each THING exists: a
                      path (/dev/fuse), a command on PATH, or root (the user)
  stub CMD REASON     CMD (a path in the tree or a command) does nothing
  copy DIR...         the scratch directory gets a copy of DIR, not a link
                      (the commands write there)
  map OLD=NEW         OLD is replaced by NEW in the commands before they run
                      (/tmp/=./ keeps a run in its scratch directory)
  setup CMD           run in the scratch directory first
  status N            the commands must exit N (default 0)
  body [TYPE]         C: statements, compiled as the body of TYPE f(void)
                      (default int); leading #include lines stay outside
  given LINE          C: a line put before the block (a declaration the
                      text leaves to the reader, an #include)
  cflags FLAGS        C: more compiler flags (-Icompiler)
  output-of CMD       the block is CMD's output (stdout and stderr), blanks
                      folded, "..." for any text; a message may be prefixed
                      with its program's name ("regctl: ")
  synopsis            a usage summary: its options and its usage lines (the
                      words before two blanks) must be in PROG --help, or in
                      PROG CMD --help for a line PROG [options] CMD ...
  json-keys SPEC...   a listing of keys: each quoted name must be a key of
                      `regc -t json SPEC` for one of the SPECs
  context-keys SPEC... the same for `regc --dump-context SPEC` (the data tree)
  makefile TARGET     see make above
  quick-start NAME    README's quick-start command NAME (setup, test), which
                      tools/readme-commands.sh prints for CI; run as usual here

A block no rule classifies fails, as do an unknown directive and an
annotation followed by no block. apt-get, apt and sudo (as a program, from a
script) fail in the scratch directory: an example must not install packages.
Each man page must name the docs it cites as installed (diagnostics.md, a
file of docs/; not docs/diagnostics.md). The scratch directory links only the
tree's own top-level entries (what git tracks), never a user's file left there. Self-checks break examples on purpose (a spec citing an unknown source, a
wrong line of shown output, an undeclared C name, a misspelt directive, a
block nothing classifies, an annotation before no block, install-deps.sh
unstubbed, an attribute the schema lacks) and expect each to fail. Last, the
source tree must be as it was (sizes and times of its files).
"""
import concurrent.futures
import glob
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

CM = "{http://commonmark.org/xml/1.0}"
RNG = "{http://relaxng.org/ns/structure/1.0}"
TOP = os.getcwd()
REGC = os.path.abspath(os.environ.get("REGC") or "build/regc")
REGCTL = os.environ.get("REGCTL") or ""
REGCTL = os.path.abspath(REGCTL) if REGCTL else ""
CC = os.environ.get("CC") or "cc"
TIMEOUT = 60
DIRECTIVES = {"skip", "as", "from", "dry-run", "notes", "needs", "stub", "copy", "map", "setup",
              "status", "body", "given", "cflags", "output-of", "synopsis", "json-keys",
              "context-keys", "makefile", "quick-start"}
KINDS = {"xml", "c", "json", "shell", "console", "make", "text"}
INFO_KINDS = {"xml": "xml", "c": "c", "json": "json", "sh": "shell", "shell": "shell",
              "bash": "shell", "console": "console", "make": "make", "makefile": "make",
              "text": "text"}
CFLAGS = ["-std=c11", "-O2", "-Wall", "-Wextra", "-Wpedantic", "-Werror"]


class Block:
    def __init__(self, file, line, text, info="", directives=None):
        self.file, self.line, self.text, self.info = file, line, text, info
        self.directives = directives or []   # [(name, argument)]
        self.errors = []                     # problems found while extracting

    @property
    def name(self):
        return f"{self.file}:{self.line}"

    def get(self, name, default=None):
        for d, arg in self.directives:
            if d == name:
                return arg
        return default

    def all(self, name):
        return [arg for d, arg in self.directives if d == name]

    def has(self, name):
        return any(d == name for d, _ in self.directives)


class Failed(Exception):
    """A check failed: the message lines say why."""

    def __init__(self, *lines):
        super().__init__(lines[0] if lines else "")
        self.lines = [str(x) for x in lines]


class Skipped(Exception):
    pass


# ------------------------------------------------------------ extraction

def parse_directives(text):
    """The directives of a doc-test comment's text (after 'doc-test:')."""
    out, errors = [], []
    for line in text.strip().splitlines():
        line = line.strip()
        if not line:
            continue
        name, _, arg = line.partition(" ")
        if name not in DIRECTIVES:
            errors.append(f"unknown doc-test directive '{name}' (docs/testing.md lists them)")
        out.append((name, arg.strip()))
    return out, errors


def markdown_blocks(path, shown=None):
    """Code blocks of a Markdown file, with the doc-test comments before each."""
    shown = shown or path
    try:
        xml = subprocess.run(["cmark-gfm", "-t", "xml", "--sourcepos", path], check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        b = Block(shown, 1, "")
        b.errors.append(f"cmark-gfm cannot parse it: {e}")
        return [b]
    blocks = []

    def walk(node):
        pending, pending_line = [], 0
        for child in node:
            tag = child.tag[len(CM):]
            line = int(child.get("sourcepos", "0:0").split(":")[0])
            m = re.match(r"\s*<!--\s*doc-test:(.*?)-->\s*$", child.text or "", re.S) \
                if tag == "html_block" else None
            if m:
                d, errs = parse_directives(m.group(1))
                pending.append((d, errs))
                pending_line = pending_line or line
                continue
            if tag == "code_block":
                b = Block(shown, line, child.text or "", (child.get("info") or "").split(" ")[0])
                for d, errs in pending:
                    b.directives += d
                    b.errors += errs
                blocks.append(b)
            elif pending:
                b = Block(shown, pending_line, "")
                b.errors.append("a doc-test annotation not followed by a code block")
                blocks.append(b)
            pending, pending_line = [], 0
            if tag != "code_block":
                walk(child)
        if pending:
            b = Block(shown, pending_line, "")
            b.errors.append("a doc-test annotation not followed by a code block")
            blocks.append(b)

    walk(ET.fromstring(xml))
    return blocks


ROFF_ESCAPES = {r"\-": "-", r"\(aq": "'", r"\(dq": '"', r"\e": "\\", r"\\": "\\",
                r"\&": "", r"\ ": " ", r"\(ti": "~", r"\(ha": "^", r"\(rs": "\\",
                r"\fB": "", r"\fI": "", r"\fR": "", r"\fP": ""}


def unroff(text, errors):
    def repl(m):
        if m.group(0) in ROFF_ESCAPES:
            return ROFF_ESCAPES[m.group(0)]
        errors.append(f"roff escape {m.group(0)!r} in an example (add it to ROFF_ESCAPES)")
        return m.group(0)
    return re.sub(r"\\(\(..|f.|.)", repl, text)


def man_blocks(path, shown=None):
    """The example groups (.RS/.RE, .nf/.fi) of a man page's EXAMPLE(S) section."""
    shown = shown or path
    blocks, in_section, depth, cur, pending = [], False, 0, None, []
    for n, line in enumerate(open(path, encoding="utf-8").read().splitlines(), 1):
        if line.startswith(".SH"):
            in_section = re.match(r'\.SH\s+"?EXAMPLES?"?\s*$', line) is not None
            pending = []
            continue
        if not in_section:
            continue
        m = re.match(r'\.\\"\s*doc-test:(.*)$', line)
        if m:
            d, errs = parse_directives(m.group(1))
            pending.append((d, errs, n))
            continue
        if line.startswith((".RS", ".nf")):
            if depth == 0:
                cur = Block(shown, n, "")
                for d, errs, _ in pending:
                    cur.directives += d
                    cur.errors += errs
                pending, lines = [], []
            depth += 1
            continue
        if line.startswith((".RE", ".fi")):
            depth -= 1
            if depth == 0 and cur is not None:
                cur.text = "".join(unroff(x, cur.errors) + "\n" for x in lines)
                blocks.append(cur)
                cur = None
            continue
        if depth == 0:
            continue
        if line.startswith((".B ", ".I ")):
            arg = line[3:]
            lines.append(arg[1:-1] if len(arg) > 1 and arg[0] == arg[-1] == '"' else arg)
        elif not line.startswith("."):
            lines.append(line)
    for _, _, n in pending:
        b = Block(shown, n, "")
        b.errors.append("a doc-test annotation not followed by an example group")
        blocks.append(b)
    return blocks


def extract(path, shown=None):
    if path.endswith(".md"):
        return markdown_blocks(path, shown)
    return man_blocks(path, shown)


# ------------------------------------------------------------ classification

def looks_shell(text):
    for line in text.splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        while words and re.match(r"[A-Za-z_]\w*=", words[0]):
            words = words[1:]
        if not words:
            return False
        w = words[0]
        return w in ("regc", "regctl", "make", "sudo", "mkdir", "cp", "echo", "cd") or \
            ("/" in w and (w.startswith("build/") or os.path.exists(os.path.join(TOP, w))))
    return False


def kind_of(b):
    if b.has("as"):
        return b.get("as")
    for d, k in (("synopsis", "synopsis"), ("output-of", "output"), ("json-keys", "keys"),
                 ("context-keys", "keys"), ("makefile", "make")):
        if b.has(d):
            return k
    if b.info:
        return INFO_KINDS.get(b.info.lower(), "unknown language '%s'" % b.info)
    text = b.text.lstrip()
    if any(line.startswith("$ ") for line in b.text.splitlines()):
        return "console"
    if text.startswith("<"):
        return "xml"
    if text.startswith("#include"):
        return "c"
    if text.startswith(("{", "[")):
        return "json"
    if looks_shell(b.text):
        return "shell"
    return None


# ------------------------------------------------------------ running commands

def tree_entries(top=TOP):
    """The top-level entries of the source tree the scratch directories link to: those
    git tracks, so that what a user left at the top (the quick start's mbox.h) is not
    there for an example to write through; every entry where git cannot say."""
    try:
        out = subprocess.run(["git", "-C", top, "ls-files", "-z"], capture_output=True,
                             check=True).stdout
        names = {p.split(b"/")[0].decode() for p in out.split(b"\0") if p}
    except (OSError, subprocess.CalledProcessError):
        names = set()
    if not names:
        names = set(os.listdir(top))
    return sorted(n for n in names if not n.startswith(".") and n != "build" and
                  os.path.lexists(os.path.join(top, n)))


TREE_ENTRIES = tree_entries()


class Scratch:
    """A directory standing for the tree: links to its top-level entries (copies of
    those the block's 'copy' names), its build/ the build under test, and a bin/ of
    the programs under test; it sits in a directory with links to the tree's
    neighbours, so ../shared is the tree's."""

    def __init__(self, b, base):
        self.dir = tempfile.mkdtemp(prefix="ex-", dir=base)
        self.bin = os.path.join(self.dir, ".doc-test-bin")
        os.mkdir(self.bin)
        stubs = [s.split(" ", 1)[0] for s in b.all("stub")]
        copies = " ".join(b.all("copy")).split()
        for entry in TREE_ENTRIES:
            self.link(entry, [s for s in stubs if "/" in s] + copies)
        for c in copies:
            src = os.path.join(TOP, c)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(self.dir, c), symlinks=True)
            else:
                shutil.copy2(src, os.path.join(self.dir, c))
        # the docs' build/ is the build under test (BUILD=build-san for make check SAN=1)
        os.symlink(os.path.join(TOP, os.environ.get("BUILD") or "build"),
                   os.path.join(self.dir, "build"))
        for prog, path in (("regc", REGC), ("regctl", REGCTL)):
            if path:
                os.symlink(path, os.path.join(self.bin, prog))
        for prog in ("apt-get", "apt", "sudo"):   # a doc example must not install packages
            with open(os.path.join(self.bin, prog), "w") as f:
                f.write(f"#!/bin/sh\necho '{prog}: not run by the doc examples: stub the "
                        "command that runs it' >&2\nexit 1\n")
            os.chmod(os.path.join(self.bin, prog), 0o755)
        for s in stubs:
            target = os.path.join(self.dir, s) if "/" in s else os.path.join(self.bin, s)
            with open(target, "w") as f:
                f.write("#!/bin/sh\nexit 0\n")
            os.chmod(target, 0o755)

    def link(self, rel, stubs):
        """Links TOP/rel here, as a real directory along the path of a stub or copy."""
        dst = os.path.join(self.dir, rel)
        if not any(s == rel or s.startswith(rel + "/") for s in stubs):
            os.symlink(os.path.join(TOP, rel), dst)
            return
        if any(s == rel for s in stubs):
            return
        os.mkdir(dst)
        for entry in os.listdir(os.path.join(TOP, rel)):
            self.link(os.path.join(rel, entry), stubs)

    def env(self):
        env = dict(os.environ)
        env["PATH"] = self.bin + os.pathsep + env.get("PATH", "")
        env["DOCTEST_TOP"] = TOP
        env.pop("REGC_SPEC_PATH", None)
        return env

    def cleanup(self):
        # a FUSE file system a failed example left mounted
        try:
            mounts = [m.split()[1] for m in open("/proc/mounts").read().splitlines()]
        except OSError:
            mounts = []
        for m in mounts:
            if m.startswith(self.dir + "/"):
                subprocess.run(["fusermount3", "-u", "-z", m], capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)


def prelude(b):
    """Shell functions every command of the block runs under."""
    p = ['make() { command make -n -C "$DOCTEST_TOP" "$@"; }',
         'sudo() { "$@"; }',
         "set -o pipefail"]
    if b.has("dry-run"):
        p.append('regctl() { command regctl --dry-run "$@"; }')
    return "\n".join(p) + "\n"


def mapped(b, cmd):
    for m in b.all("map"):
        old, _, new = m.partition("=")
        cmd = cmd.replace(old, new)
    return cmd


def run_shell(b, scratch, script, timeout=TIMEOUT):
    """Runs a bash script in the scratch directory: (status, stdout+stderr)."""
    p = subprocess.Popen(["bash", "-e", "-c", prelude(b) + script], cwd=scratch.dir,
                         env=scratch.env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        status = p.returncode
    except subprocess.TimeoutExpired:
        status, out = None, b""
    try:
        os.killpg(p.pid, signal.SIGTERM)    # what the example left in the background
    except ProcessLookupError:
        pass
    if status is None:
        p.communicate()
        raise Failed(f"timed out after {timeout} s: {script.strip()[:200]}")
    return status, out.decode("utf-8", "replace")


def check_needs(b, scratch):
    for thing in " ".join(b.all("needs")).split():
        if thing == "root":
            if os.geteuid() != 0:
                raise Skipped("needs root")
        elif "/" in thing:
            if not os.path.exists(os.path.join(scratch.dir, thing)):
                raise Skipped(f"{thing} is missing")
        elif shutil.which(thing) is None:
            raise Skipped(f"{thing} is not installed")


def run_setup(b, scratch):
    for cmd in b.all("setup"):
        status, out = run_shell(b, scratch, mapped(b, cmd))
        if status != 0:
            raise Failed(f"setup '{cmd}' exited {status}", *out.splitlines()[-10:])


def logical_lines(text):
    """Command lines: a line ending in a backslash, or inside an open quote, goes on."""
    lines, cur = [], ""
    for line in text.splitlines():
        cur = cur + "\n" + line if cur else line
        if cur.endswith("\\"):
            continue
        try:
            shlex.split(cur, comments=True)
        except ValueError:
            continue
        lines.append(cur)
        cur = ""
    if cur:
        lines.append(cur)
    return lines


def check_shell(b, scratch):
    status = int(b.get("status", "0"))
    script = "\n".join(mapped(b, line) for line in logical_lines(b.text))
    got, out = run_shell(b, scratch, script)
    if got != status:
        raise Failed(f"exited {got}, not {status}", *out.splitlines()[-15:])


def same(s, a, notes):
    """Is shown line s the printed line a (with a note after it)?"""
    if s == a:
        return True
    return notes and a.strip() != "" and s.startswith(a) and \
        re.match(r" {2,}\S", s[len(a):]) is not None


def gap(s, notes):
    """Does shown line s stand for lines left out?"""
    return s.strip() == "..." or (notes and re.match(r"\s*\.\.\.( {2,}\S.*)?$", s))


def output_matches(shown, actual, notes):
    """Do the shown lines ('...' for lines left out) match the printed ones?"""
    memo = {}

    def match(i, j):
        if (i, j) in memo:
            return memo[i, j]
        if i == len(shown):
            r = j == len(actual)
        elif gap(shown[i], notes):
            r = any(match(i + 1, k) for k in range(j, len(actual) + 1))
        else:
            r = j < len(actual) and same(shown[i], actual[j], notes) and match(i + 1, j + 1)
        memo[i, j] = r
        return r
    return match(0, 0)


def first_difference(shown, actual, notes):
    """The first shown line not printed (in that order), for the message."""
    j = 0
    for s in shown:
        if gap(s, notes):
            continue
        k = next((k for k in range(j, len(actual)) if same(s, actual[k], notes)), None)
        if k is None:
            return ["this shown line is not printed (in that order):", f"  {s}"]
        j = k + 1
    return [f"shown {len(shown)} lines, printed {len(actual)}"]


def check_console(b, scratch):
    status = int(b.get("status", "0"))
    sessions, cur = [], None
    for line in logical_lines(b.text):
        if line.startswith("$ "):
            cur = [line[2:], []]
            sessions.append(cur)
        elif cur is None:
            raise Failed(f"output before the first '$ ' command: {line}")
        else:
            cur[1] += line.split("\n")
    if not sessions:
        raise Failed("no '$ ' command")
    for cmd, shown in sessions:
        while shown and not shown[-1].strip():
            shown.pop()
        got, out = run_shell(b, scratch, mapped(b, cmd))
        if got != status:
            raise Failed(f"$ {cmd}", f"exited {got}, not {status}", *out.splitlines()[-15:])
        if b.has("dry-run"):
            continue
        actual = out.splitlines()
        while actual and not actual[-1].strip():
            actual.pop()
        if not output_matches(shown, actual, b.has("notes")):
            raise Failed(f"$ {cmd}", "prints something else than the doc shows:",
                         *first_difference(shown, actual, b.has("notes")), "printed:",
                         *["  " + x for x in actual[:40]])


def check_output_of(b, scratch):
    cmd = b.get("output-of")
    _, out = run_shell(b, scratch, mapped(b, cmd))
    shown = " ".join(b.text.split())
    parts = [re.escape(p) for p in shown.split("...")]
    pattern = r"\s*(?:[\w-]+: )?" + ".*?".join(p.replace(r"\ ", r"\s+") for p in parts) + r"\s*"
    if not re.fullmatch(pattern, out, re.S):
        raise Failed(f"'{cmd}' prints something else than the doc shows:", *out.splitlines()[:10])


def check_synopsis(b, scratch):
    prog = b.text.split()[0]
    status, help_text = run_shell(b, scratch, f"{prog} --help")
    if status != 0:
        raise Failed(f"{prog} --help exited {status}")
    # a program with commands (regctl) gives each command's usage and options in PROG CMD --help
    for line in b.text.splitlines():
        cmd = next((w for w in line.split()[1:] if w[0] not in "[-"), None) \
            if line.split()[:1] == [prog] else None
        if cmd and re.fullmatch(r"[a-z][\w-]*", cmd):
            status, text = run_shell(b, scratch, f"{prog} {cmd} --help")
            help_text += "\n" + text if status == 0 else ""
    problems = []
    opt = r"(?<![\w-])(--?[A-Za-z][\w-]*)"
    known = set(re.findall(opt, help_text))
    for o in sorted(set(re.findall(opt, b.text)) - known):
        problems.append(f"option {o} is not in {prog} --help")
    def words(text):   # [--escape=html|c|md|none] is [--escape=KIND]
        return [re.sub(r"^(\[--?[\w-]+=).*", r"\1", w) for w in text.split()]
    usages = [words(re.sub(r"^\s*(usage:)?\s*", "", x)) for x in help_text.splitlines()]
    for line in b.text.splitlines():
        if line.split()[:1] == [prog]:
            shown = re.split(r"\s{2,}", line.strip())[0]
            w = words(shown)
            if not any(u[:len(w)] == w for u in usages):
                problems.append(f"usage '{shown}' is not in {prog} --help")
    if problems:
        raise Failed(*problems)


def check_json_keys(b, scratch):
    keys = set()

    def walk(v):
        if isinstance(v, dict):
            for k, x in v.items():
                keys.add(k)
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    directive, option = ("json-keys", "-t json") if b.has("json-keys") else \
        ("context-keys", "--dump-context")
    specs = [s for pattern in b.get(directive).split()
             for s in sorted(glob.glob(pattern, root_dir=scratch.dir)) or [pattern]]
    for spec in specs:
        status, out = run_shell(b, scratch, f"regc {option} {shlex.quote(spec)} -o - 2>&1")
        if status != 0:
            raise Failed(f"regc {option} {spec} exited {status}", *out.splitlines()[:5])
        walk(json.loads(out))
    missing = sorted(set(re.findall(r'"([A-Za-z_]\w*)"', b.text)) - keys)
    if missing:
        raise Failed("keys no export has: " + " ".join(missing))


def check_makefile(b, scratch):
    target = b.get("makefile")
    with open(os.path.join(scratch.dir, "Makefile.doc"), "w") as f:
        f.write(b.text)
    env = scratch.env()
    for n, args in enumerate((["-f", "Makefile.doc", target], ["-q", "-f", "Makefile.doc", target])):
        p = subprocess.run(["make"] + args, cwd=scratch.dir, env=env, capture_output=True,
                           text=True, timeout=TIMEOUT)
        if p.returncode != 0:
            raise Failed(("make " if n == 0 else "a second make -q ") + target +
                         f" exited {p.returncode}", *(p.stdout + p.stderr).splitlines()[-10:])
        if n == 0 and not os.path.exists(os.path.join(scratch.dir, target)):
            raise Failed(f"make {target} made no {target}")


def compile_c(b, scratch, source, name="example.c"):
    path = os.path.join(scratch.dir, name)
    with open(path, "w") as f:
        f.write(source)
    flags = CFLAGS + shlex.split(" ".join(b.all("cflags")))
    cmd = [CC] + flags + ["-I", scratch.dir, "-I", os.path.join(TOP, "runtime/include"),
                          "-I", os.path.join(TOP, "generated"), "-c", path, "-o", path + ".o"]
    p = subprocess.run(cmd, cwd=scratch.dir, capture_output=True, text=True, timeout=TIMEOUT)
    if p.returncode != 0:
        raise Failed(f"{' '.join(cmd[:1] + flags)} fails:",
                     *(p.stdout + p.stderr).splitlines()[:15], "source:",
                     *["  " + x for x in source.splitlines()])


def check_c(b, scratch):
    given = "".join(g + "\n" for g in b.all("given"))
    if not b.has("body"):
        compile_c(b, scratch, given + b.text)
        return
    lines = b.text.splitlines()
    head = []
    while lines and (lines[0].startswith("#include") or not lines[0].strip()):
        head.append(lines.pop(0))
    rtype = b.get("body") or "int"
    ret = "" if rtype == "void" else "    return 0;\n"
    body = "".join("    " + x + "\n" for x in lines)
    compile_c(b, scratch, given + "\n".join(head) + f"\n{rtype} doc_example(void);\n"
              f"{rtype} doc_example(void)\n{{\n" + body + ret + "}\n")


# ------------------------------------------------------------ XML

def schema():
    """{element: (attributes, child elements)} from regspec/regspec.rng."""
    root = ET.parse(os.path.join(TOP, "regspec/regspec.rng")).getroot()
    defines = {}
    for d in root.iter(RNG + "define"):
        defines.setdefault(d.get("name"), []).append(d)
    out = {}

    def collect(node, attrs, kids, seen):
        for c in node:
            if c.tag == RNG + "element":
                kids.add(c.get("name"))
            elif c.tag == RNG + "attribute":
                attrs.add(c.get("name"))
            elif c.tag == RNG + "ref":
                if c.get("name") not in seen:
                    for d in defines.get(c.get("name"), []):
                        collect(d, attrs, kids, seen | {c.get("name")})
            else:
                collect(c, attrs, kids, seen)
    for e in root.iter(RNG + "element"):
        attrs, kids = out.setdefault(e.get("name"), (set(), set()))
        collect(e, attrs, kids, frozenset())
    return out


def fragment(text):
    """A doc's XML fragment as an element tree under <doc-test>: ' ...' inside a tag
    dropped, elements the doc leaves open closed."""
    text = re.sub(r"<\?xml[^>]*\?>", "", text)
    out, stack, pos = [], [], 0
    for m in re.finditer(r"<!--.*?-->|<(/?)([\w-]+)((?:[^>\"']|\"[^\"]*\"|'[^']*')*?)(/?)>", text,
                         re.S):
        out.append(text[pos:m.start()])
        pos = m.end()
        if m.group(0).startswith("<!--"):
            out.append(m.group(0))
            continue
        closing, name, attrs, empty = m.groups()
        attrs = re.sub(r"\s+\.\.\.(?=\s*$)", "", attrs)
        out.append(f"<{closing}{name}{attrs}{empty}>")
        if closing:
            if stack and stack[-1] == name:
                stack.pop()
        elif not empty:
            stack.append(name)
    out.append(text[pos:])
    out += [f"</{name}>" for name in reversed(stack)]
    return ET.fromstring("<doc-test>" + "".join(out) + "</doc-test>")


def fold(s):
    return " ".join((s or "").split())


def check_xml(b, scratch, rng):
    try:
        tree = fragment(b.text)
    except ET.ParseError as e:
        raise Failed(f"not well-formed XML: {e}")
    problems = []
    for parent in tree.iter():
        for e in parent:
            if e.tag not in rng:
                problems.append(f"<{e.tag}> is no element of the schema")
                continue
            attrs, _ = rng[e.tag]
            for a in e.attrib:
                if a not in attrs:
                    problems.append(f"<{e.tag} {a}=> is not an attribute the schema allows")
            if parent.tag in rng and e.tag not in rng[parent.tag][1]:
                problems.append(f"<{e.tag}> may not be inside <{parent.tag}>")
    if problems:
        raise Failed(*problems)
    if b.has("from"):
        check_xml_quote(b, tree)
    elif tree.find("regspec") is not None:
        check_spec(b, scratch)


def check_xml_quote(b, tree):
    src = b.get("from")
    try:
        whole = ET.parse(os.path.join(TOP, src)).getroot()
    except (OSError, ET.ParseError) as e:
        raise Failed(f"cannot read {src}: {e}")
    for e in list(tree.iter())[1:]:
        want = {k: v for k, v in e.attrib.items() if v != "..."}
        text = fold(e.text)
        found = False
        for f in whole.iter(e.tag):
            if all(f.get(k) == v for k, v in want.items()) and \
                    (text in ("", "...") or fold(f.text) == text):
                found = True
                break
        if not found:
            shown = " ".join(f'{k}="{v}"' for k, v in want.items())
            raise Failed(f"{src} has no <{e.tag} {shown}>" + (f" holding '{text}'" if text else ""))


def check_spec(b, scratch):
    path = os.path.join(scratch.dir, "example.xml")
    with open(path, "w") as f:
        f.write(b.text)
    for args in (["--check", "example.xml"], ["example.xml", "-o", "example.h"]):
        p = subprocess.run([REGC] + args, cwd=scratch.dir, capture_output=True, text=True,
                           timeout=TIMEOUT)
        if p.returncode != 0 or p.stderr:
            raise Failed(f"regc {' '.join(args)} exited {p.returncode}:",
                         *p.stderr.splitlines()[:10])
    compile_c(b, scratch, '#include "example.h"\n', "header.c")


# ------------------------------------------------------------ quotes

def check_lines_quote(b):
    src = b.get("from")
    try:
        have = [x.rstrip() for x in open(os.path.join(TOP, src), encoding="utf-8")]
    except OSError as e:
        raise Failed(f"cannot read {src}: {e}")
    i = 0
    for line in b.text.splitlines():
        if not line.strip():
            continue
        while i < len(have) and have[i] != line.rstrip():
            i += 1
        if i == len(have):
            raise Failed(f"{src} has no line (after the lines before it): {line}")
        i += 1


# ------------------------------------------------------------ one block

def check(b, base, rng):
    """('ok'|'not ok'|'skip', detail lines) for one block."""
    if b.errors:
        return "not ok", b.errors
    if b.has("skip"):
        return "skip", [b.get("skip") or "no reason given"]
    kind = kind_of(b)
    if kind is None:
        return "not ok", ["cannot tell what this block is: give its fence a language or add a "
                          "doc-test annotation (docs/testing.md)"]
    if kind not in KINDS | {"synopsis", "output", "keys"}:
        return "not ok", [kind]
    if kind == "text":
        return "not ok", ["a text block is not checked: say why with 'skip REASON'"]
    scratch = None
    try:
        if not REGCTL and re.search(r"\bregctl\b", b.text):
            raise Skipped("regctl is not built")
        scratch = Scratch(b, base)
        check_needs(b, scratch)
        run_setup(b, scratch)
        if b.has("from") and kind != "xml":
            check_lines_quote(b)
        if kind == "xml":
            check_xml(b, scratch, rng)
        elif kind == "c":
            check_c(b, scratch)
        elif kind == "json":
            try:
                json.loads(b.text)
            except ValueError as e:
                raise Failed(f"not JSON: {e}")
        elif kind == "shell":
            check_shell(b, scratch)
        elif kind == "console":
            check_console(b, scratch)
        elif kind == "make":
            if not b.has("makefile"):
                raise Failed("a Makefile fragment needs 'makefile TARGET'")
            check_makefile(b, scratch)
        elif kind == "synopsis":
            check_synopsis(b, scratch)
        elif kind == "output":
            check_output_of(b, scratch)
        elif kind == "keys":
            check_json_keys(b, scratch)
        return "ok", [kind]
    except Failed as e:
        return "not ok", [kind] + e.lines
    except Skipped as e:
        return "skip", [str(e)]
    except (OSError, subprocess.SubprocessError) as e:
        return "not ok", [kind, f"{type(e).__name__}: {e}"]
    finally:
        if scratch:
            scratch.cleanup()


def label(b, kind):
    notes = [f"{d} {a}".strip() for d, a in b.directives if d in ("dry-run", "stub", "map")]
    return f"{b.name} {kind}" + (f" ({'; '.join(notes)})" if notes else "")


# ------------------------------------------------------------ the man pages' references

def man_references(path):
    """Problems with the docs a man page names: each is installed in PREFIX/share/doc/regc/
    (a docs/*.md of the tree, named without a source-tree directory)."""
    problems = []
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        for ref in re.findall(r"([\w./-]+\.md)\b", line):
            if "/" in ref:
                problems.append(f"{path}:{n}: '{ref}': name the installed doc ({os.path.basename(ref)}), "
                                "not a path of the source tree")
            elif not os.path.exists(os.path.join(TOP, "docs", ref)):
                problems.append(f"{path}:{n}: '{ref}' is no doc of docs/ (nothing installs it)")
    return problems


# ------------------------------------------------------------ the tree stays as it was

def snapshot():
    state = {}
    for root, dirs, files in os.walk(TOP):
        rel = os.path.relpath(root, TOP)
        if rel == ".":
            dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
        for f in files:
            p = os.path.join(root, f)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            state[os.path.relpath(p, TOP)] = (st.st_size, st.st_mtime_ns)
    return state


# ------------------------------------------------------------ self-checks

def user_files_left_out(base):
    """A tree with a user's file at its top (the quick start's mbox.h, untracked): the
    scratch directories do not link it, the tracked entries they do."""
    name = "check leaves a user's file at the top out of the scratch directory"
    if shutil.which("git") is None:
        return ("ok", f"{name} # SKIP git is not installed", [])
    top = os.path.join(base, "user-tree")
    os.makedirs(os.path.join(top, "regspec"))
    for f in ("README.md", "regspec/a.xml", "mbox.h"):
        with open(os.path.join(top, f), "w") as out:
            out.write("x\n")
    git = ["git", "-C", top, "-c", "user.name=t", "-c", "user.email=t@t"]
    try:
        for args in (["init", "-q"], ["add", "README.md", "regspec"], ["commit", "-q", "-m", "t"]):
            subprocess.run(git + args, check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as e:
        return ("not ok", name, [f"cannot make a git tree: {e}"])
    got = tree_entries(top)
    shutil.rmtree(top, ignore_errors=True)
    if got != ["README.md", "regspec"]:
        return ("not ok", name, [f"linked: {' '.join(got)} (want README.md regspec)"])
    return ("ok", name, [])


def selfchecks(base, rng):
    """Examples broken on purpose must fail: (name, file, change, line to expect)."""
    cases = [
        ("a spec citing a source it does not define (the old regspec.md example)", "docs/regspec.md",
         lambda t: re.sub(r'\n  <source id="perfmon-jkt"[^\n]*', "", t, count=1),
         lambda b: "<regspec " in b.text and "perfmon-jkt" in b.text, "unknown source 'perfmon-jkt'"),
        ("a wrong line of shown output", "docs/runtime.md",
         lambda t: t.replace("msr  0xc16..0xc17 (2)", "msr  0xc16..0xc18 (2)", 1),
         lambda b: "$ regctl list e5_2600.ubox" in b.text, "prints something else"),
        ("a C example using an undeclared name", "docs/runtime.md",
         lambda t: t.replace("regc_close(dev);", "regc_close(device);", 1),
         lambda b: "regc_close(device);" in b.text, "fails"),
        ("a misspelt directive", "docs/monitoring.md",
         lambda t: t.replace("<!-- doc-test: dry-run", "<!-- doc-test: dryrun", 1),
         lambda b: any(d == "dryrun" for d, _ in b.directives), "unknown doc-test directive"),
        ("a block nothing classifies", "docs/regspec.md",
         lambda t: t.replace("<!-- doc-test: skip a grammar", "<!-- skipped: a grammar", 1),
         lambda b: b.text.startswith("expr     := implies"), "cannot tell what this block is"),
        ("an annotation before no block", "docs/regspec.md",
         lambda t: t.replace("## Numbers\n", "## Numbers\n\n<!-- doc-test: skip nothing -->\n", 1),
         lambda b: bool(b.errors) and not b.text, "not followed by a code block"),
        ("a doc example that installs packages", "README.md",
         lambda t: re.sub(r"stub tools/install-deps.sh [^\n]*\n", "", t, count=1),
         lambda b: "tools/install-deps.sh &&" in b.text, "not run by the doc examples"),
        ("an XML fragment with an attribute the schema lacks", "docs/regspec.md",
         lambda t: t.replace('code-field="ev_sel" umask-field="umask" src="perfmon-jkt">\n  <event',
                             'code-field="ev_sel" unitmask-field="umask" src="perfmon-jkt">\n  <event', 1),
         lambda b: "unitmask-field" in b.text, "not an attribute"),
    ]
    results = [user_files_left_out(base)]
    for name, path, change, pick, expect in cases:
        text = open(os.path.join(TOP, path), encoding="utf-8").read()
        broken = change(text)
        if broken == text:
            results.append(("not ok", f"check catches {name}", [f"nothing to break in {path}"]))
            continue
        tmp = os.path.join(base, "broken-" + os.path.basename(path))
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(broken)
        picked = [b for b in extract(tmp, path) if pick(b)]
        if len(picked) != 1:
            results.append(("not ok", f"check catches {name}",
                            [f"{len(picked)} blocks of {path} match, not one"]))
            continue
        status, detail = check(picked[0], base, rng)
        if status == "not ok" and any(expect in d for d in detail):
            results.append(("ok", f"check catches {name} ({picked[0].name})", []))
        else:
            results.append(("not ok", f"check catches {name}",
                            [f"{status}, without '{expect}':"] + detail[:10]))
    return results


def main(argv):
    jobs, files, listing, selftest = 4, [], False, True
    args = iter(argv)
    for a in args:
        if a == "--jobs":
            jobs = int(next(args))
        elif a == "--list":
            listing = True
        elif a == "--no-selftest":
            selftest = False
        else:
            files.append(a)
    blocks = [b for f in files for b in extract(f)]
    if listing:
        for b in blocks:
            print(f"{b.name}\t{kind_of(b)}\t{' | '.join(f'{d} {a}'.strip() for d, a in b.directives)}")
        return 0
    rng = schema()
    base = tempfile.mkdtemp(prefix="regc-doc-examples-")
    parent = os.path.dirname(TOP)
    for entry in os.listdir(parent):       # the tree's neighbours (../shared)
        if os.path.join(parent, entry) != TOP:
            os.symlink(os.path.join(parent, entry), os.path.join(base, entry))
    before = snapshot()
    n, failed = 0, 0
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(check, b, base, rng) for b in blocks]
            for b, fut in zip(blocks, futures):
                status, detail = fut.result()
                n += 1
                kind = detail[0] if status != "skip" and detail else kind_of(b) or "?"
                if status == "ok":
                    print(f"ok {n} - {label(b, kind)}")
                elif status == "skip":
                    print(f"ok {n} - {b.name} # SKIP {detail[0]}")
                else:
                    failed += 1
                    print(f"not ok {n} - {label(b, kind_of(b) or '?')}")
                    for line in "\n".join(detail).splitlines():
                        print(f"#   {line}")
                sys.stdout.flush()
        for f in files:
            if not f.endswith(".md"):
                n += 1
                problems = man_references(f)
                failed += bool(problems)
                print(f"{'not ok' if problems else 'ok'} {n} - {f}: the docs it names are installed")
                for line in problems:
                    print(f"#   {line}")
        if selftest:
            for status, name, detail in selfchecks(base, rng):
                n += 1
                failed += status != "ok"
                print(f"{status} {n} - {name}")
                for line in detail:
                    print(f"#   {line}")
        after = snapshot()
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        n += 1
        if changed:
            failed += 1
            print(f"not ok {n} - the examples leave the source tree as it was")
            for c in changed[:20]:
                print(f"#   changed: {c}")
        else:
            print(f"ok {n} - the examples leave the source tree as it was")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"1..{n}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
