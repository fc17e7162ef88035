#!/usr/bin/env bash
# tests/cli/run-outputs.sh - regc never writes an output over an input or
# over its other output, nor into a directory: each case with its exact
# stderr, exit status 3, and nothing lost (every input as it was, no output
# written, no temporary file left). Then what a written output keeps: the
# replaced file's mode, a symbolic link (written through to its file).
# (A signal during the write: tests/unit/test_outfile.c.)
set -u
cd "$(dirname "$0")"
. ../tap.sh
tap_setup regc tmp

cd "$tmp" || exit 1
cat >spec.xml <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<regspec name="mini" prefix="MINI" version="1" title="Outputs test spec">
  <source id="doc" title="Test document" ref="000000" rev="001"/>
  <block name="box" title="Box">
    <include href="part.xml"/>
  </block>
</regspec>
EOF
cat >part.xml <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<part title="The box's register">
  <register name="CTL" space="msr" address="0x100" width="32" src="doc" table="1-1" page="1">
    <field name="rsv" bits="31:8" access="RV" reset="0"/>
    <field name="ev_sel" bits="7:0" access="RW" reset="0" desc="Event select."/>
  </register>
</part>
EOF
printf '{{#blocks}}{{name}}{{>p}}{{/blocks}}\n' >t.mustache
printf ': {{title}}' >p.mustache
# (a missing partial: an error only rendering finds; an unknown name is found before it starts)
printf '{{#blocks}}{{name}}\n{{/blocks}}{{>no_such_partial}}\n' >late.mustache
ln -s spec.xml spec-link.h
ln spec.xml spec-hard.h
mkdir dir
mkdir keep && cp -p spec.xml part.xml t.mustache p.mustache keep/
echo "previous" >out.h && cp -p out.h keep/

# expect NAME STATUS STDERR ARGS...: exact stderr and status, then nothing lost.
expect() {
    local name=$1 want=$2 want_err=$3; shift 3
    "$regc" "$@" >stdout 2>stderr
    local st=$? problems=() f
    [ "$st" -eq "$want" ] || problems+=("status $st, expected $want")
    [ "$(cat stderr)" = "$want_err" ] || problems+=("stderr: $(cat stderr)" "expected: $want_err")
    for f in spec.xml part.xml t.mustache p.mustache out.h; do
        cmp -s "$f" "keep/$f" || problems+=("$f changed")
    done
    [ -L spec-link.h ] || problems+=("spec-link.h is no longer a link")
    [ -e out.h.d ] && problems+=("out.h.d written")
    [ -n "$(ls -A dir)" ] && problems+=("written into dir/: $(ls -A dir)")
    ls -A | grep -q '\.tmp\.' && problems+=("a temporary file is left: $(ls -A)")
    if [ ${#problems[@]} -eq 0 ]; then tap_ok "$name"; else tap_fail "$name" "${problems[@]}"; fi
    rm -f stdout stderr
}

# (-t c: an .xml output picks no template by itself, a usage error checked in tests/errors)
expect "-o the spec" 3 "regc: error: cannot write 'spec.xml': it is the input 'spec.xml'" \
    -t c spec.xml -o spec.xml
expect "-o the spec, spelled another way" 3 "regc: error: cannot write './spec.xml': it is the input 'spec.xml'" \
    -t c spec.xml -o ./spec.xml
expect "-o an included file" 3 "regc: error: cannot write 'part.xml': it is the input 'part.xml'" \
    -t c spec.xml -o part.xml
expect "-o a symbolic link to the spec" 3 "regc: error: cannot write 'spec-link.h': it is the input 'spec.xml'" \
    spec.xml -o spec-link.h
# The blocks go to the temporary file as they are rendered; an error after them writes nothing.
expect "a template error after the blocks were written: out.h as it was" 1 \
    "late.mustache:2:12: error: partial 'no_such_partial' not found
    2 | {{/blocks}}{{>no_such_partial}}
      |            ^" spec.xml -t late.mustache -o out.h
expect "-o a hard link to the spec" 3 "regc: error: cannot write 'spec-hard.h': it is the input 'spec.xml'" \
    spec.xml -o spec-hard.h
expect "-o the template" 3 "regc: error: cannot write 't.mustache': it is the input 't.mustache'" \
    spec.xml -t t.mustache -o t.mustache
expect "-o a partial" 3 "regc: error: cannot write 'p.mustache': it is the input 'p.mustache'" \
    spec.xml -t t.mustache -o p.mustache
expect "-MF the spec" 3 "regc: error: cannot write 'spec.xml': it is the input 'spec.xml'" \
    spec.xml -o out.h -MF spec.xml
expect "-MF an included file" 3 "regc: error: cannot write 'part.xml': it is the input 'part.xml'" \
    spec.xml -o out.h -MF part.xml
expect "-MF the output" 3 "regc: error: cannot write 'out.h': it is also the output 'out.h'" \
    spec.xml -o out.h -MF out.h
expect "-MF the output, not there yet, spelled another way" 3 \
    "regc: error: cannot write 'dir/../new.h': it is also the output 'new.h'" \
    spec.xml -o new.h -MF dir/../new.h
[ -e new.h ] && tap_fail "-MF the output: no new.h written" || tap_ok "-MF the output: no new.h written"
expect "-o a directory" 3 "regc: error: cannot write 'dir': Is a directory" spec.xml -o dir
expect "-o dir/" 3 "regc: error: cannot write 'dir/': Is a directory" spec.xml -o dir/
expect "-o nodir/" 3 "regc: error: cannot write 'nodir/': Is a directory" spec.xml -o nodir/
# (-t c: -o and -t must still agree, tests/errors/usage-output; the output is never written)
expect "--check writes nothing, so -o is not compared with the inputs" 0 "" --check -t c spec.xml -o spec.xml

# What a written output keeps.
chmod 640 out.h
"$regc" spec.xml -o out.h
[ "$(stat -c %a out.h)" = 640 ] && tap_ok "a replaced output keeps its mode (640)" ||
    tap_fail "a replaced output keeps its mode (640)" "mode $(stat -c %a out.h)"
grep -q MINI_CTL_EV_SEL_MASK out.h && tap_ok "the output was replaced" || tap_fail "the output was replaced"
ln -s real.h link.h
"$regc" spec.xml -o link.h
[ -L link.h ] && [ "$(readlink link.h)" = real.h ] && cmp -s real.h out.h &&
    tap_ok "a symbolic link is written through: the link stays, its file is made" ||
    tap_fail "a symbolic link is written through: the link stays, its file is made" "$(ls -l)"
echo old >real.h
"$regc" spec.xml -o link.h
[ -L link.h ] && cmp -s real.h out.h && tap_ok "a symbolic link is written through: its file is replaced" ||
    tap_fail "a symbolic link is written through: its file is replaced" "$(ls -l)"
ls -A | grep -q '\.tmp\.' && tap_fail "no temporary file left" "$(ls -A)" || tap_ok "no temporary file left"

# SIGTERM or SIGHUP from outside at any moment (rendering, writing, renaming):
# regc ends by that signal or completes, the output is the old file or the
# whole new one, and no temporary file stays. (Where the signal lands in the
# write is up to the timing; tests/unit/test_outfile.c hits the write itself.
# The first run is signalled at once, so that one run at least is ended by
# its signal however the machine's load moves the others.)
python3 "$tap_top/bench/gen-spec.py" 8 32 16 >big.xml
"$regc" -j1 big.xml -o big-ref.h
start=$(date +%s%N); "$regc" -j1 big.xml -o big-time.h; took=$((($(date +%s%N) - start) / 1000000))
problems=() killed=0
for i in 0 1 2 3 4 5 6 7 8; do
    sig=TERM; [ $((i % 2)) = 0 ] && sig=HUP
    echo old >big.h
    "$regc" -j1 big.xml -o big.h & pid=$!
    sleep "$(awk -v t="$took" -v i="$i" 'BEGIN { printf "%.3f", t * i / 8 / 1000 }')"
    kill -s "$sig" "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null; st=$?
    case $st in
    0) cmp -s big.h big-ref.h || problems+=("$sig $i: status 0 but big.h is not the whole output") ;;
    129 | 143) killed=$((killed + 1))
        [ "$(cat big.h)" = old ] || cmp -s big.h big-ref.h ||
        problems+=("$sig $i: killed, and big.h is neither the old file nor the new") ;;
    *) problems+=("$sig $i: status $st") ;;
    esac
    ls -A | grep -q '\.tmp\.' && problems+=("$sig $i: a temporary file stays: $(ls -A | grep tmp)")
    rm -f big.h.tmp.*
done
# a signal that never lands proves nothing: the first run is signalled at once, the next at 1/8
# of a run's time
[ "$killed" -gt 0 ] || problems+=("all 9 runs completed before their signal ($took ms a run): none was tested")
if [ ${#problems[@]} -eq 0 ]; then tap_ok "signals from outside: old or whole output, no temporary file ($killed of 9 ended by the signal)"
else tap_fail "signals from outside: old or whole output, no temporary file" "${problems[@]}"; fi

# -t json goes to the temporary file as it is made, in blocks of about 64 KiB
# (standard output gets it whole once complete): the same text either way.
"$regc" -t json big.xml >big-stdout.json
"$regc" -t json big.xml -o big.json
size=$(stat -c %s big.json)
[ "$size" -gt 262144 ] && cmp -s big.json big-stdout.json &&
    python3 -c 'import json, sys; json.load(open(sys.argv[1]))' big.json &&
    tap_ok "-t json -o: the text of standard output, streamed ($size bytes)" ||
    tap_fail "-t json -o: the text of standard output, streamed" "$size bytes; $(cmp big.json big-stdout.json 2>&1)"
# A write that fails on the way (the file size limit, as a full disk would:
# with SIGXFSZ ignored, write() fails with EFBIG past 128 KiB) or at the end.
# expect_io NAME STDERR SETUP ARGS...: status 3, exact stderr, out.json as it
# was, no temporary file left.
expect_io() {
    local name=$1 want_err=$2 setup=$3 problems=() st; shift 3
    echo old >out.json
    (eval "$setup"; exec "$regc" "$@") >stdout 2>stderr; st=$?
    [ "$st" -eq 3 ] || problems+=("status $st, expected 3")
    [ "$(cat stderr)" = "$want_err" ] || problems+=("stderr: $(cat stderr)" "expected: $want_err")
    [ "$(cat out.json)" = old ] || problems+=("out.json changed: $(head -c 80 out.json)")
    ls -A | grep -q '\.tmp\.' && problems+=("a temporary file is left: $(ls -A | grep tmp)")
    if [ ${#problems[@]} -eq 0 ]; then tap_ok "$name"; else tap_fail "$name" "${problems[@]}"; fi
    rm -f stdout stderr out.json.tmp.*
}
expect_io "-t json -o: a write failing after 128 KiB leaves the old file" \
    "regc: error: cannot write 'out.json': File too large" "trap '' XFSZ; ulimit -f 128" \
    -t json big.xml -o out.json
if [ -w /dev/full ]; then
    expect_io "-t json -o /dev/full: a device other than /dev/null, refused before opening" \
        "regc: error: cannot write '/dev/full': Is a character device, not a regular file" : -t json big.xml -o /dev/full
    expect_io "-t json >/dev/full: an error" "regc: error: cannot write to standard output" \
        "exec >/dev/full" -t json big.xml
else
    tap_skip "-t json to /dev/full" "no writable /dev/full"
    tap_skip "-t json >/dev/full" "no writable /dev/full"
fi
# Planted by another user (compiler/outfile.h): root's regc against files
# `nobody` planted, in a world-writable sticky directory like /tmp and in
# nobody's own directory. A symbolic link is followed only as the kernel
# follows it with fs.protected_symlinks=1 (whatever this machine's sysctl
# says): in a sticky world-writable directory only when it belongs to the
# writer or the directory's owner; there, another user's file is not
# replaced either (fs.protected_regular). A FIFO is refused before it is
# opened, anywhere. Each time: the exact refusal, status 3, and the victim as
# it was (bytes, mode, owner, inode, links), no temporary file left.
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
    tap_skip "planted links, FIFOs and hard links" "needs root and setpriv"
else
    as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
    chmod 711 "$tmp"
    mkdir -m 1777 shared                       # like /tmp
    mkdir private && chown nobody:nogroup private && chmod 755 private
    mkdir -m 700 vault && echo "root's secret" >vault/victim && chmod 600 vault/victim
    as_nobody sh -c 'echo "nobody'"'"'s own" >private/mine'
    snap() { stat -c '%s %a %U:%G %i %F' "$1" && sha256sum <"$1"; } # (links: below)
    snap_fifo() { stat -c '%a %U:%G %i %F' "$1"; }
    victim_before=$(snap vault/victim) mine_before=$(snap private/mine)
    # planted NAME STDERR ARGS...: status 3, exact stderr, victims as they were
    planted() {
        local name=$1 want_err=$2 st problems=(); shift 2
        timeout "${PLANT_TIMEOUT:-120}" "$regc" spec.xml "$@" >stdout 2>stderr; st=$?
        [ "$st" -eq 3 ] || problems+=("status $st, expected 3 (124: hung)")
        [ "$(cat stderr)" = "$want_err" ] || problems+=("stderr: $(cat stderr)" "expected: $want_err")
        [ "$(snap vault/victim)" = "$victim_before" ] || problems+=("vault/victim changed: $(snap vault/victim)")
        [ "$(snap private/mine)" = "$mine_before" ] || problems+=("private/mine changed: $(snap private/mine)")
        [ -e fresh.h ] && problems+=("-o fresh.h was written")
        ls -A shared private vault | grep -q '\.tmp\.\|\.bak\.' && problems+=("a temporary file is left: $(ls -A shared private)")
        if [ ${#problems[@]} -eq 0 ]; then tap_ok "$name"; else tap_fail "$name" "${problems[@]}"; fi
        rm -f stdout stderr fresh.h
    }
    link_refused="refused: a symbolic link of another user in a world-writable sticky directory (not followed)"
    as_nobody ln -s "$tmp/vault/victim" shared/out.h
    planted "sticky dir: nobody's link to root's file is not followed" \
        "regc: error: cannot write 'shared/out.h': $link_refused" -o shared/out.h
    [ "$(stat -c %U -- shared/out.h)" = nobody ] && [ -L shared/out.h ] &&
        tap_ok "sticky dir: the planted link is left as it was" || tap_fail "sticky dir: the planted link is left as it was"
    planted "sticky dir: -MF through nobody's link: refused, and -o not written either" \
        "regc: error: cannot write 'shared/out.h': $link_refused" -o fresh.h -MF shared/out.h
    as_nobody ln -s "$tmp/vault" shared/dir
    planted "sticky dir: nobody's link as a directory on the way is not followed" \
        "regc: error: cannot write 'shared/dir/victim': $link_refused" -o shared/dir/victim
    as_nobody mkfifo shared/fifo.h
    fifo_before=$(snap_fifo shared/fifo.h)
    planted "sticky dir: nobody's FIFO is refused before it is opened (no hang)" \
        "regc: error: cannot write 'shared/fifo.h': Is a FIFO, not a regular file" -o shared/fifo.h
    [ "$(snap_fifo shared/fifo.h)" = "$fifo_before" ] && tap_ok "sticky dir: the FIFO is left as it was" ||
        tap_fail "sticky dir: the FIFO is left as it was" "$(snap_fifo shared/fifo.h)"
    planted "sticky dir: a FIFO as the dependency file is refused, -o not written" \
        "regc: error: cannot write 'shared/fifo.h': Is a FIFO, not a regular file" -o fresh.h -MF shared/fifo.h
    as_nobody ln private/mine shared/hard.h
    planted "sticky dir: nobody's hard link (nobody's file) is not replaced" \
        "regc: error: cannot write 'shared/hard.h': refused: a file of another user in a world-writable sticky directory (not replaced)" \
        -o shared/hard.h
    [ "$(stat -c %i shared/hard.h)" = "$(stat -c %i private/mine)" ] && tap_ok "sticky dir: the hard link still names nobody's file" ||
        tap_fail "sticky dir: the hard link still names nobody's file"
    as_nobody mkfifo private/fifo.h
    planted "nobody's directory: nobody's FIFO is refused before it is opened" \
        "regc: error: cannot write 'private/fifo.h': Is a FIFO, not a regular file" -o private/fifo.h
    # What the kernel allows, regc allows: root's own link in the sticky
    # directory, and a link in nobody's own directory (its owner's) to
    # nobody's file, are written through; a hard link is replaced as a name
    # (the file it shared stays as it was).
    ln -s "$tmp/vault/mine.h" shared/root-link.h
    as_nobody ln -s mine2.h private/link.h
    as_nobody ln private/mine private/hard.h
    problems=()
    "$regc" spec.xml -o shared/root-link.h 2>stderr || problems+=("root's link: $(cat stderr)")
    cmp -s vault/mine.h out.h || problems+=("root's link not written through")
    "$regc" spec.xml -o private/link.h 2>stderr || problems+=("nobody's link in nobody's directory: $(cat stderr)")
    [ -L private/link.h ] && cmp -s private/mine2.h out.h || problems+=("nobody's link in nobody's directory not written through")
    "$regc" spec.xml -o private/hard.h 2>stderr || problems+=("hard link in nobody's directory: $(cat stderr)")
    cmp -s private/hard.h out.h && [ "$(snap private/mine)" = "$mine_before" ] || problems+=("hard link: private/mine changed")
    "$regc" spec.xml -o /dev/null 2>stderr || problems+=("/dev/null: $(cat stderr)")
    if [ ${#problems[@]} -eq 0 ]; then tap_ok "what the kernel would open is written (root's link, the directory owner's link, a hard link's name, /dev/null)"
    else tap_fail "what the kernel would open is written" "${problems[@]}"; fi
fi

# -o and the dependency file are committed together or not at all.
echo "previous" >out.h
problems=()
"$regc" spec.xml -o out.h -MF nodir/x.d 2>stderr; st=$?
[ "$st" = 3 ] || problems+=("-MF nodir/x.d: status $st")
[ "$(cat stderr)" = "regc: error: cannot write 'nodir/x.d': No such file or directory" ] || problems+=("stderr: $(cat stderr)")
[ "$(cat out.h)" = previous ] || problems+=("-MF nodir/x.d: out.h was replaced")
"$regc" spec.xml -o out.h -MF /dev/full 2>stderr; st=$?
[ "$st" = 3 ] && [ "$(cat out.h)" = previous ] || problems+=("-MF /dev/full: status $st, out.h: $(head -c 20 out.h)")
ls -A | grep -q '\.tmp\.\|\.bak\.' && problems+=("a temporary file is left: $(ls -A)")
if [ ${#problems[@]} -eq 0 ]; then tap_ok "-MF that cannot be written: -o not written either"
else tap_fail "-MF that cannot be written: -o not written either" "${problems[@]}"; fi
# regc render -o goes to its temporary file as it is rendered, never held
# whole: 100 MB of output within 100 MB of address space (the whole text
# held would not fit), the same bytes as the template says; stopped by the
# output limit, the partial temporary file is removed. (Not under SAN=1:
# the sanitizers reserve far more address space.)
python3 -c 'import json; json.dump({"a": list(range(400)), "b": list(range(1000))}, open("big-data.json", "w"))'
printf '{{#a}}{{#b}}%0249d\n{{/b}}{{/a}}' 0 >big.mustache
if [ "${SAN:-}" = 1 ]; then
    tap_skip "regc render -o: streamed" "SAN=1 build"
else
    problems=()
    (ulimit -v 100000; exec "$regc" render big.mustache big-data.json -o big.txt) 2>stderr ||
        problems+=("status $?: $(head -c 300 stderr)")
    [ "$(stat -c %s big.txt 2>/dev/null)" = 100000000 ] || problems+=("big.txt: $(stat -c %s big.txt 2>&1) bytes, expected 400 x 1000 x 250")
    [ "$(head -c 250 big.txt)" = "$(printf '%0249d\n' 0)" ] || problems+=("big.txt does not start with the line")
    rm -f big.txt
    echo previous >big.txt
    (ulimit -v 100000; exec "$regc" render big.mustache big-data.json -o big.txt -ftemplate-output-limit=50M) 2>stderr
    st=$?
    [ "$st" = 1 ] && grep -q "output over the limit" stderr || problems+=("limit: status $st: $(head -c 300 stderr)")
    [ "$(cat big.txt)" = previous ] || problems+=("limit: big.txt changed")
    ls -A | grep -q '\.tmp\.' && problems+=("a temporary file is left: $(ls -A | grep tmp)")
    if [ ${#problems[@]} -eq 0 ]; then tap_ok "regc render -o: streamed to the temporary file (100 MB in 100 MB of address space), removed when stopped"
    else tap_fail "regc render -o: streamed to the temporary file" "${problems[@]}"; fi
    rm -f big.txt big-data.json big.mustache
fi
tap_done
