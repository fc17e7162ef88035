#!/usr/bin/env bash
# tests/runtime/run-specjson.sh - regctl --spec FILE: a spec written for this test
# (tests/runtime/data/userspec.xml, a made-up "widget" uncore) compiled by regc -t json and
# loaded by regctl, with every command on it as on a built-in spec: list, events (encodings as
# the spec's own C header gives them), read and write (addresses and values as the XML states
# them), a rule refused with its wording and citation, monitor on the simulator (counts as the
# rates given; the flow's global freeze and unfreeze at the spec's addresses), the spec's
# metrics listed and computed (by hand from the rates). Then the errors,
# each with its message and exit status: a missing file, malformed JSON, a document the schema
# refuses (python3-jsonschema agrees that the schema refuses it, and takes the good one), names
# the schema cannot check, a bad rule expression, a metric's bad postfix or event, --spec twice; and the files root must not
# read: a link or a file of another user, a file others can write, a FIFO, a directory others
# can replace files in, a directory of another user on the way (also behind a link); a
# set-group-ID regctl refuses a path and takes standard input.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${REGCTL:=build/regctl}"
tap_setup regc tmp
case $REGCTL in /*) ;; *) REGCTL=$tap_top/$REGCTL ;; esac
chmod 755 "$tmp"

spec=$tmp/widget.json
if ! "$regc" -t json -o "$spec" tests/runtime/data/userspec.xml 2>"$tmp/err"; then
    tap_fail "regc -t json compiles the test's spec" "$(cat "$tmp/err")"
    tap_done
    exit 0
fi
"$regc" -t c -o "$tmp/widget.h" tests/runtime/data/userspec.xml
S=(--spec "$spec")

# ---- every command on the user's spec
out=$("$REGCTL" "${S[@]}" list 2>&1)
if echo "$out" | grep -q '^widget  *2 blocks  *Widget uncore' && echo "$out" | grep -q '^e5_2600v2 '; then
    tap_ok "list: the user's spec beside the built-in ones"
else tap_fail "list: the user's spec beside the built-in ones" "$out"; fi
out=$("$REGCTL" "${S[@]}" list widget.wbox 2>&1)
if echo "$out" | grep -q '^W_PMON_CTL{1-0}  *msr  *0x801..0x812 (4)  *32 bits'; then
    tap_ok "list SPEC.BLOCK: registers, addresses of both instances"
else tap_fail "list SPEC.BLOCK: registers, addresses of both instances" "$out"; fi

# encodings: the C header regc writes for the same XML (WIDGET_EV_WBOX_*), and by hand from the
# XML (ev_sel 7:0 = 0x11, umask 15:8 = 0x2: 0x211)
"$REGCTL" "${S[@]}" --json events widget >"$tmp/events.json" 2>&1
if out=$(python3 - "$tmp/events.json" "$tmp/widget.h" <<'PY'
import json, re, sys
ev = {e["name"]: e for e in json.load(open(sys.argv[1]))}
hdr = dict(re.findall(r"#define (WIDGET_EV_WBOX_\w+)\s+UINT(?:32|64)_C\((0x[0-9a-f]+)\)", open(sys.argv[2]).read()))
bad = [n for n, e in ev.items() if int(hdr.get("WIDGET_EV_" + n.replace(":", "_").replace(".", "_").upper(), "-1"), 16) != int(e["encoding"], 16)]
assert ev["wbox:REQUESTS.WRITE"]["encoding"] == "0x211", ev["wbox:REQUESTS.WRITE"]
assert ev["wbox:STALLS"]["counters"] == [1], ev["wbox:STALLS"]
assert ev["wbox:REQUESTS.READ"]["perf_alias"] == "unc_w_requests.read"
print(len(ev), "events", bad)
PY
); then
    if [ "$out" = "5 events []" ]; then tap_ok "events: the encodings of the spec's C header, by hand for one"
    else tap_fail "events: the encodings of the spec's C header" "$out"; fi
else tap_fail "events: the encodings of the spec's C header" "$out" "$(head -c 300 "$tmp/events.json")"; fi

out=$("$REGCTL" "${S[@]}" --dry-run read widget.wbox.w1.W_PMON_CTR1 2>&1)
if [ "$out" = "would read widget.wbox.w1.W_PMON_CTR1 msr 0x815 (cpu 0)" ]; then
    tap_ok "read: w1's base 0x810 + 0x4 + 1"
else tap_fail "read: w1's base 0x810 + 0x4 + 1" "$out"; fi
out=$("$REGCTL" "${S[@]}" --backend sim write widget.wbox.w1.W_PMON_CTL1 ev_sel=0x12 thresh=2 en=1 2>&1)
if echo "$out" | grep -q '^wrote widget.wbox.w1.W_PMON_CTL1 (msr 0x812) <- 0x02400012$' &&
    echo "$out" | grep -q '^  thresh  *31:24  *RW  *0x2$'; then
    tap_ok "write: the value by field, read back decoded"
else tap_fail "write: the value by field, read back decoded" "$out"; fi
out=$("$REGCTL" "${S[@]}" --backend sim write widget.wbox.w1.W_PMON_CTL1 ev_sel=0x12 edge=1 en=1 2>&1)
rc=$?
want="regctl: refusing 0x440012 for 'wbox.w1.W_PMON_CTL1': breaks rule 'edge_needs_thresh' (edge -> thresh != 0): edge counts threshold crossings: set thresh too. (Widget uncore notes W-1-002, section 2.3)"
if [ $rc = 1 ] && [ "$out" = "$want" ]; then tap_ok "write: the spec's rule refuses, in its words, citing its source"
else tap_fail "write: the spec's rule refuses, in its words, citing its source" "exit $rc" "$out"; fi

out=$("$REGCTL" "${S[@]}" --backend sim monitor widget 'wbox[w1]:REQUESTS.READ' 'wbox[w0]:STALLS' \
    --sim-rate 'wbox[w1]:REQUESTS.READ=1000' --sim-rate 'wbox[w0]:STALLS=7' --sim-rate 'wbox[w0]:REQUESTS.READ=5' \
    --count 2 --interval 0ms --csv 2>&1)
want='interval,socket,event,count
1,-,wbox[w1]:REQUESTS.READ,1000
1,-,wbox[w0]:STALLS,7
2,-,wbox[w1]:REQUESTS.READ,1000
2,-,wbox[w0]:STALLS,7'
if echo "$out" | grep -F -x -q '1,-,wbox[w1]:REQUESTS.READ,1000' && echo "$out" | grep -F -x -q '2,-,wbox[w0]:STALLS,7' &&
    ! echo "$out" | grep -q ',5$'; then
    tap_ok "monitor (sim): each box counts its own rate"
else tap_fail "monitor (sim): each box counts its own rate" "want rows as: $want" "$out"; fi
out=$("$REGCTL" "${S[@]}" --backend sim --dry-run monitor widget 'wbox[w1]:STALLS' --count 1 --interval 0ms 2>&1)
if echo "$out" | grep -q '^write gbox.G_PMON_CTL  *msr 0x700  *0x80000000$' &&
    echo "$out" | grep -q '^write gbox.G_PMON_CTL  *msr 0x700  *0x40000000$' &&
    echo "$out" | grep -q '^write wbox.w1.W_PMON_CTL1  *msr 0x812  *0x400012$'; then
    tap_ok "monitor --dry-run: global freeze (bit 31), unfreeze (bit 30), STALLS on counter 1 only"
else tap_fail "monitor --dry-run: global freeze (bit 31), unfreeze (bit 30), STALLS on counter 1 only" "$out"; fi

# the spec's metrics: listed, and computed by monitor from the counts of the events they need
# (by hand: reads 300 + 100 of 300 + 100 + 200 + 600 requests, 33.3 %; w1's 600 writes x 32
# bytes in 10ms, 1920 KB/s)
out=$("$REGCTL" "${S[@]}" metrics widget 2>&1)
if echo "$out" | grep -qx 'widget_read_share  (widget, %)' &&
    echo "$out" | grep -qx '    = (wbox\[w1\]:REQUESTS.WRITE \* 32 / seconds) x 0.001' &&
    echo "$out" | grep -qx '    needs wbox:REQUESTS.READ (every instance of the block, summed)' &&
    echo "$out" | grep -qx '    source: notes; a write request moves 32 bytes'; then
    tap_ok "metrics: the user spec's metrics, formula, events and source"
else tap_fail "metrics: the user spec's metrics, formula, events and source" "$out"; fi
"$REGCTL" "${S[@]}" --backend sim monitor widget --metric widget_read_share --metric widget_w1_bytes \
    -x , --interval 10ms --count 1 --sim-rate 'wbox[w0]:REQUESTS.READ=300' \
    --sim-rate 'wbox[w1]:REQUESTS.READ=100' --sim-rate 'wbox[w0]:REQUESTS.WRITE=200' \
    --sim-rate 'wbox[w1]:REQUESTS.WRITE=600' >"$tmp/out" 2>&1
if python3 - "$tmp/out" <<'PY'
import csv, math, sys
got = {r[3]: (float(r[6]), r[7]) for r in csv.reader(open(sys.argv[1])) if r[3].startswith('metric:')}
want = {'metric:widget_read_share': (100.0 * 400 / 1200, '%'),
        'metric:widget_w1_bytes': (600 * 32 / 0.010 / 1000, 'KB/s')}
sys.exit(not (got.keys() == want.keys() and
              all(math.isclose(got[k][0], want[k][0], rel_tol=1e-12) and got[k][1] == want[k][1]
                  for k in want)))
PY
then tap_ok "monitor --metric on the user spec: 33.3 % and 1920 KB/s, by hand"
else tap_fail "monitor --metric on the user spec, by hand" "$(cat "$tmp/out")"; fi

# a spec of a built-in's name replaces it: the user's copy of e5_2600v2 with one more event
python3 - generated/e5_2600v2.json "$tmp/mine.json" <<'PY'
import copy, json, sys
m = json.load(open(sys.argv[1]))
ubox = next(b for b in m["blocks"] if b["name"] == "ubox")
e = copy.deepcopy(next(e for e in ubox["events"] if e["name"] == "LOCK_CYCLES"))
e.update(name="MY_EVENT", code="0x7f", perfmon=None, desc="mine")
ubox["events"].append(e)
json.dump(m, open(sys.argv[2], "w"))
PY
out=$("$REGCTL" --spec "$tmp/mine.json" events e5_2600v2.ubox MY_EVENT 2>&1; "$REGCTL" --spec "$tmp/mine.json" list | grep -c '^e5_2600v2 ')
if echo "$out" | grep -q '^    ubox.U_MSR_PMON_CTL = 0x7f (ev_sel=0x7f, umask=0x0); counters 0, 1$' && [ "$(echo "$out" | tail -1)" = 1 ]; then
    tap_ok "a spec named as a built-in one replaces it"
else tap_fail "a spec named as a built-in one replaces it" "$out"; fi

# ---- errors: each with its message and status, nothing printed on stdout
expect() { # NAME STATUS WANT-STDERR-LINE ARGS...
    local name=$1 want_rc=$2 want=$3; shift 3
    "$REGCTL" "$@" list >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ $rc = "$want_rc" ] && grep -F -x -q -- "$want" "$tmp/err" && [ ! -s "$tmp/out" ]; then tap_ok "$name"
    else tap_fail "$name" "exit $rc (want $want_rc)" "want: $want" "$(cat "$tmp/err" "$tmp/out")"; fi
}
expect "missing file" 1 "regctl: --spec '$tmp/none.json': No such file or directory" --spec "$tmp/none.json"
printf '{"regc_model": 1,\n  "spec": {"name": "x",}\n}\n' >"$tmp/bad.json"
expect "malformed JSON: file:line:column and jansson's reason" 1 \
    "regctl: $tmp/bad.json:2:24: string or '}' expected near '}'" --spec "$tmp/bad.json"

# schema failures (python3-jsonschema must refuse the same documents)
mutate() { # OUT PYTHON-STATEMENT on m
    python3 - "$spec" "$1" "$2" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(m, open(sys.argv[2], "w"), indent=1)
PY
}
mutate "$tmp/s1.json" 'm["blocks"][1]["registers"][1]["width"] = 65'
expect "schema: a width above 64, at its JSON path" 1 \
    "regctl: $tmp/s1.json: \$.blocks[1].registers[1].width: 65 is above the maximum 64" --spec "$tmp/s1.json"
mutate "$tmp/s2.json" 'm["blocks"][1]["events"][0]["code"] = "0x00"; m["blocks"][0]["extra"] = 1; del m["spec"]["title"]'
expect "schema: a hex value with a leading zero" 1 \
    "regctl: $tmp/s2.json: \$.blocks[1].events[0].code: \"0x00\" does not match ^0x(0|[1-9a-f][0-9a-f]{0,15})\$" --spec "$tmp/s2.json"
expect "schema: an unknown member" 1 "regctl: $tmp/s2.json: \$.blocks[0]: unknown member 'extra'" --spec "$tmp/s2.json"
expect "schema: a missing member; every error of the run, counted" 1 \
    "regctl: $tmp/s2.json: 3 errors against the JSON model's schema (docs/regc-model.schema.json)" --spec "$tmp/s2.json"
mutate "$tmp/s3.json" 'm["blocks"][1]["instances"][0]["pci"] = {"vendor": "0x8086", "device": "0x1", "dev": 40, "func": 0}'
expect "schema: inside a oneOf, the error of the alternative of the value's type" 1 \
    "regctl: $tmp/s3.json: \$.blocks[1].instances[0].pci.dev: 40 is above the maximum 31" --spec "$tmp/s3.json"
mutate "$tmp/s4.json" 'm["regc_model"] = 2'
expect "schema: another model version" 1 "regctl: $tmp/s4.json: \$.regc_model: want 1, not 2" --spec "$tmp/s4.json"
if python3 -c 'import jsonschema' 2>/dev/null; then
    out=$(python3 - docs/regc-model.schema.json "$spec" "$tmp/s1.json" "$tmp/s2.json" "$tmp/s3.json" "$tmp/s4.json" <<'PY'
import json, sys, jsonschema
v = jsonschema.Draft7Validator(json.load(open(sys.argv[1])))
print(" ".join(str(sum(1 for _ in v.iter_errors(json.load(open(f))))) for f in sys.argv[2:]))
PY
)
    if [ "${out%% *}" = 0 ] && ! echo "${out#* }" | grep -qw 0; then tap_ok "python3-jsonschema: the good document valid, the four bad ones not ($out)"
    else tap_fail "python3-jsonschema agrees" "errors per document: $out"; fi
else
    tap_skip "python3-jsonschema agrees" "python3-jsonschema is not installed (tools/install-deps.sh)"
fi

# what the schema cannot say
mutate "$tmp/n1.json" 'm["blocks"][1]["events"][1]["register"] = "W_PMON_CTLX"; m["blocks"][1]["registers"][1]["fields"][0]["msb"] = 40'
expect "names: an event's register that the block lacks" 1 \
    "regctl: $tmp/n1.json: \$.blocks[1].events[1]: register 'W_PMON_CTLX' is no register of block 'wbox'" --spec "$tmp/n1.json"
expect "bits: a field past the register's width" 1 \
    "regctl: $tmp/n1.json: \$.blocks[1].registers[1].fields[0]: bits 40:24 of field 'thresh' are not within the register's 32 bits" --spec "$tmp/n1.json"
mutate "$tmp/n2.json" 'm["blocks"][1]["registers"][1]["rules"][0]["expr"] = "edge -> (thresh != 0"'
expect "rules: parsed by regc's parser, its message and column" 1 \
    "regctl: $tmp/n2.json: \$.blocks[1].registers[1].rules[0].expr: rule expression 'edge -> (thresh != 0', at column 21: expected ')' but found end of expression" --spec "$tmp/n2.json"
mutate "$tmp/n3.json" 'm["blocks"][1]["registers"][1]["rules"][0]["expr"] = "edg -> thresh != 0"'
expect "rules: a field the register lacks" 1 \
    "regctl: $tmp/n3.json: \$.blocks[1].registers[1].rules[0].expr: rule expression 'edg -> thresh != 0' names no field 'edg' of the register" --spec "$tmp/n3.json"
mutate "$tmp/n4.json" 'm["blocks"][1]["events"][2]["code"] = "0x111"; m["blocks"][1]["registers"][1]["fields"][0]["reset"] = "0x100"'
expect "numbers: an event code wider than its field, refused (never cut)" 1 \
    "regctl: $tmp/n4.json: \$.blocks[1].events[2]: 0x111 does not fit field 'ev_sel' [7:0]" --spec "$tmp/n4.json"
expect "numbers: a reset value wider than its field, refused" 1 \
    "regctl: $tmp/n4.json: \$.blocks[1].registers[1].fields[0]: the reset value is 0x100, above 0xff, the most it can be" --spec "$tmp/n4.json"
mutate "$tmp/n5.json" 'm["blocks"][1]["instances"][0]["pci"] = {"vendor": "0x18086", "device": "0x1", "dev": None, "func": None}'
expect "numbers: a PCI vendor id past 16 bits, refused (never cut)" 1 \
    "regctl: $tmp/n5.json: \$.blocks[1]: a PCI vendor id is 0x18086, above 0xffff, the most it can be" --spec "$tmp/n5.json"
mutate "$tmp/n6.json" 'm["metrics"][0]["rpn"][0]["term"] = 5; m["metrics"][0]["events"][1]["event"] = "REQUESTS.REED"'
expect "metrics: a term past the metric's events" 1 \
    "regctl: $tmp/n6.json: \$.metrics[0]: rpn[0]: term 5, where the metric has 2 events" --spec "$tmp/n6.json"
expect "metrics: an event the block lacks" 1 \
    "regctl: $tmp/n6.json: \$.metrics[0]: event 'wbox:REQUESTS.WRITE': 'REQUESTS.REED' is no event of block 'wbox'" --spec "$tmp/n6.json"
mutate "$tmp/n7.json" 'm["metrics"][1]["rpn"] = [{"op": "event", "term": 0}, {"op": "div"}]; m["metrics"][0]["rpn"].pop()'
expect "metrics: an operator short of operands" 1 \
    "regctl: $tmp/n7.json: \$.metrics[1]: rpn[1]: an operator with fewer than two operands" --spec "$tmp/n7.json"
expect "metrics: postfix that leaves two values" 1 \
    "regctl: $tmp/n7.json: \$.metrics[0]: rpn leaves 2 values, where a formula leaves one" --spec "$tmp/n7.json"
mutate "$tmp/n8.json" 'm["blocks"][1]["events"][0]["unmodelled_filters"] = ["thread_filter"]'
expect "unmodelled filters: an event's that the block does not list" 1 \
    "regctl: $tmp/n8.json: \$.blocks[1].events[0]: unmodelled filter 'thread_filter' is none of the block's pmon unmodelled_filters" --spec "$tmp/n8.json"
expect "--spec twice" 2 "regctl: --spec given twice ('$spec', then '$spec'): one spec file per run" --spec "$spec" --spec "$spec"

# ---- files root must not read (as root: the owner checks mean something)
if [ "$(id -u)" != 0 ]; then
    for t in "a link of another user" "a file of another user" "a file others can write" "a FIFO" \
        "a directory others can replace files in" "a directory of another user" "a link to behind one" \
        "set-group-ID: a path refused" "set-group-ID: standard input taken"; do
        tap_skip "$t" "not root"
    done
    tap_done
    exit 0
fi
sticky=$tmp/sticky
mkdir -m 1777 "$sticky"
cp "$spec" "$sticky/theirs.json" && chown 65534 "$sticky/theirs.json"
ln -s "$spec" "$sticky/link.json" && chown -h 65534 "$sticky/link.json"
expect "a link of another user in a sticky directory: not followed" 1 \
    "regctl: --spec '$sticky/link.json': refused: a symbolic link of another user (not followed)" --spec "$sticky/link.json"
expect "a file of another user: refused (it would say which registers root writes)" 1 \
    "regctl: --spec '$sticky/theirs.json': refused: a file of another user (it says which registers regctl writes)" --spec "$sticky/theirs.json"
cp "$spec" "$tmp/open.json" && chmod 666 "$tmp/open.json"
expect "a file others can write: refused" 1 \
    "regctl: --spec '$tmp/open.json': refused: others can write to it (it says which registers regctl writes)" --spec "$tmp/open.json"
mkfifo "$tmp/fifo.json"
expect "a FIFO: refused, never waited on" 1 "regctl: --spec '$tmp/fifo.json': refused: not a regular file" --spec "$tmp/fifo.json"
mkdir -m 777 "$tmp/open" && cp "$spec" "$tmp/open/w.json"
expect "a directory others can replace files in (no sticky bit): refused" 1 \
    "regctl: --spec '$tmp/open/w.json': refused: others can write to directory '$tmp/open' and it has no sticky bit (they could replace the file)" --spec "$tmp/open/w.json"
mkdir -p "$tmp/theirs/sub" && cp "$spec" "$tmp/theirs/sub/w.json" && chown 65534 "$tmp/theirs"
expect "a directory of another user on the way (they could swap what it holds): refused" 1 \
    "regctl: --spec '$tmp/theirs/sub/w.json': refused: directory '$tmp/theirs' belongs to another user (they could replace the file)" --spec "$tmp/theirs/sub/w.json"
ln -s "$tmp/theirs/sub/w.json" "$tmp/mylink.json"
expect "a link of one's own to a file behind another user's directory: refused the same" 1 \
    "regctl: --spec '$tmp/mylink.json': refused: directory '$tmp/theirs' belongs to another user (they could replace the file)" --spec "$tmp/mylink.json"

sgid=$tmp/regctl-sgid
cp "$REGCTL" "$sgid" && chgrp 65534 "$sgid" && chmod 2755 "$sgid"
if findmnt -n -o OPTIONS --target "$tmp" 2>/dev/null | grep -qw nosuid; then
    tap_skip "set-group-ID: a path refused" "$tmp is on a file system mounted nosuid"
    tap_skip "set-group-ID: standard input taken" "$tmp is on a file system mounted nosuid"
else
    out=$("$sgid" --spec "$spec" list 2>&1)
    rc=$?
    if [ $rc = 1 ] && [ "$out" = "regctl: --spec is refused: regctl runs set-user-ID, set-group-ID or with raised capabilities, and would open files of the caller's choosing" ]; then
        tap_ok "set-group-ID: a path refused"
    else tap_fail "set-group-ID: a path refused" "exit $rc" "$out"; fi
    out=$("$sgid" --spec - list widget <"$spec" 2>&1)
    if echo "$out" | grep -q '^wbox  *Widget box  *2 instances'; then tap_ok "set-group-ID: standard input taken (the caller's shell opened it)"
    else tap_fail "set-group-ID: standard input taken" "$out"; fi
fi
tap_done
