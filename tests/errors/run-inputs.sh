#!/usr/bin/env bash
# tests/errors/run-inputs.sh - inputs that are not regular files (a FIFO, a
# device, a directory; git cannot hold them, so they are made here) are
# refused before they are read, as a spec, an include, a template, a partial
# or JSON data: exact stderr, exit status, no output file, and no hang (a FIFO
# with no writer blocks a reader forever; `timeout` turns that into status 124).
set -u
cd "$(dirname "$0")"
. ../tap.sh
tap_setup regc tmp

mkfifo "$tmp/fifo.xml" "$tmp/fifo.mustache" "$tmp/p.mustache" "$tmp/fifo.json"
mkdir "$tmp/dir.xml"
ln -s /dev/zero "$tmp/zero.xml"
cp minimal.regspec "$tmp/mini.xml"
printf '{{>p}}\n' >"$tmp/t.mustache"
printf '{"a": 1}\n' >"$tmp/d.json"
for inc in fifo.xml zero.xml dir.xml; do
    sed "s|</block>|</block>\n  <include href=\"$inc\"/>|" minimal.regspec >"$tmp/inc-${inc%.xml}.xml"
done

# expect NAME STATUS EXPECTED_STDERR ARGS...: runs regc in $tmp with -o out.h added.
expect() {
    local name=$1 want=$2 want_err=$3; shift 3
    (cd "$tmp" && timeout 20 "$regc" "$@" -o out.h >stdout 2>stderr)
    local st=$?
    if [ "$st" -eq 124 ]; then
        tap_fail "$name: regc hung (killed after 20 s)"
    elif [ "$st" -ne "$want" ]; then
        tap_fail "$name: status $st, expected $want" "$(head -n 3 "$tmp/stderr")"
    elif [ "$(cat "$tmp/stderr")" != "$want_err" ]; then
        tap_fail "$name: stderr" "expected: $want_err" "actual:   $(cat "$tmp/stderr")"
    elif [ -e "$tmp/out.h" ] || ls "$tmp" | grep -q '^out\.h\.'; then
        tap_fail "$name: an output was written" "$(ls "$tmp")"
    else
        tap_ok "$name"
    fi
    rm -f "$tmp/out.h" "$tmp"/out.h.*
}

what="Is a FIFO, not a regular file"
expect "spec: FIFO" 3 "fifo.xml: error: cannot read file: $what" fifo.xml
expect "spec: /dev/zero" 3 "/dev/zero: error: cannot read file: Is a character device, not a regular file" /dev/zero
expect "spec: directory" 3 "dir.xml: error: cannot read file: Is a directory" dir.xml
expect "include: FIFO" 1 "inc-fifo.xml:14: error: cannot read included file 'fifo.xml': $what" inc-fifo.xml
# (a link leading out of the spec's folder is refused before anything is read: include-outside)
expect "include: symlink to /dev/zero" 1 \
    "inc-zero.xml:14:18: error: included file 'zero.xml' refused: it leads out of the spec's folder and the -I directories (through '..' or a symbolic link)
   14 |   <include href=\"zero.xml\"/>
      |                  ^" inc-zero.xml
expect "include: directory" 1 "inc-dir.xml:14: error: cannot read included file 'dir.xml': Is a directory" inc-dir.xml
expect "template: FIFO" 3 "regc: error: cannot read 'fifo.mustache': $what" -t fifo.mustache mini.xml
expect "partial: FIFO" 3 "regc: error: cannot read 'p.mustache': $what" -t t.mustache mini.xml
expect "render: template FIFO" 3 "regc: error: cannot read 'fifo.mustache': $what" render fifo.mustache d.json
expect "render: data FIFO" 3 "regc: error: cannot read 'fifo.json': $what" render t.mustache fifo.json
expect "render: data /dev/zero" 3 \
    "regc: error: cannot read '/dev/zero': Is a character device, not a regular file" render t.mustache /dev/zero
tap_done
