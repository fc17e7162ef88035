#!/bin/sh
# tools/readme-commands.sh - print a quick-start command of README.md, as the
# README shows it, so that CI runs the README's own words and not a copy.
#
#   tools/readme-commands.sh NAME [FILE]     (FILE: default README.md)
#
# NAME is marked in FILE by a `quick-start NAME` line of the doc-test comment
# right before the code block (tests/docs/doc_examples.py checks the comment
# is followed by a block):
#
#   <!-- doc-test: quick-start setup -->
#       tools/install-deps.sh && make && ...
#
# The block is an indented one (four blanks, taken off) or a fenced one. Its
# lines are printed as they are, continuation lines included. Exit status 1,
# with a message, when NAME is marked nowhere, more than once, or before no
# block; 2 for a usage error. Plain sh and awk: it runs before anything is
# installed.
set -eu
case $# in
1 | 2) ;;
*) echo "usage: tools/readme-commands.sh NAME [FILE]" >&2; exit 2 ;;
esac
name=$1 file=${2:-README.md}
case $name in
"" | *[!A-Za-z0-9_-]*) echo "readme-commands: '$name' is no quick-start name (letters, digits, - and _)" >&2; exit 2 ;;
esac
[ -r "$file" ] || { echo "readme-commands: cannot read '$file'" >&2; exit 1; }
awk -v name="$name" -v file="$file" '
function fail(msg) { print "readme-commands: " file ": " msg > "/dev/stderr"; bad = 1; exit 1 }
# a doc-test comment: note whether it marks NAME
!incomment && /^[ \t]*<!--[ \t]*doc-test:/ { incomment = 1; marked = 0; start = NR }
incomment {
    line = $0
    sub(/^[ \t]*<!--[ \t]*doc-test:/, "", line); sub(/-->.*/, "", line)
    n = split(line, w, /[ \t]+/)
    for (i = 1; i < n; i++)
        if (w[i] == "quick-start" && w[i + 1] == name) marked = 1
    if ($0 ~ /-->/) {
        incomment = 0
        if (marked) {
            if (found) fail("quick-start " name " is marked twice (lines " found " and " start ")")
            found = start; want = 1
        }
    }
    next
}
# the block after the marking comment
want == 1 && /^[ \t]*$/ { next }
want == 1 && /^    / { want = 2; mode = "indent" }
want == 1 && /^[ \t]*(```|~~~)/ { want = 2; mode = "fence"; fence = $0; sub(/^[ \t]*/, "", fence); fence = substr(fence, 1, 3); next }
want == 1 { fail("quick-start " name " (line " found ") is followed by no code block") }
want == 2 && mode == "indent" {
    if ($0 !~ /^    /) { want = 3; next }
    print substr($0, 5); printed++; next
}
want == 2 && mode == "fence" {
    l = $0; sub(/^[ \t]*/, "", l)
    if (substr(l, 1, 3) == fence) { want = 3; next }
    print; printed++; next
}
END {
    if (bad) exit 1
    if (!found) { print "readme-commands: " file ": no doc-test comment marks quick-start " name > "/dev/stderr"; exit 1 }
    if (want == 1 || !printed) { print "readme-commands: " file ": quick-start " name " (line " found ") is followed by no code block" > "/dev/stderr"; exit 1 }
}' "$file"
