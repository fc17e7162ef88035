#!/usr/bin/env bash
# tests/specs/run-model-json.sh - the JSON export of the model (regc -t json, docs/json.md).
#
# For every spec of regspec/, examples/specs/ and tests/golden/, tests/docs/hostile.xml (hostile text)
# and tests/svd/features.svd (an SVD device):
#   - the export validates against docs/regc-model.schema.json (python3-jsonschema,
#     draft 7), (that the output is the same from run to run is checked by
#     `make generated` in CI, which must leave generated/ unchanged);
#   - every event's "encoding", "code" and "counters" are the values of the C
#     header's <PREFIX>_EV_<BLOCK>_<EVENT>, _CODE and _COUNTERS macros, and every
#     register's "reset" and "masks" those of its _RESET and _<KIND>_MASK macros, as
#     the C compiler evaluates them in a program including the header regc writes
#     (the macro names are the c_name keys of `regc --dump-context`, paired by
#     position and checked by name);
#   - every register's "masks" are what the attribute legend of docs/regspec.md
#     ("Attributes") and docs/json.md (registers[].masks) makes of its fields'
#     bits and access, computed here (masks.py) from a table written from those
#     documents, not by regc's code: the header's macros and the export both come
#     from model_reg_masks(), so only this check can see a wrong mask.
# Then: the schema rejects broken exports (a hex value as a number, a key too many, a
# key missing, a hex string with upper case), and --dump-context writes the
# templates' data tree and refuses -t; the tree it writes is the one every template
# gets: each built-in template (regc --list-templates) rendered from it by
# `regc render` gives the bytes of `regc -t NAME`, for every spec above (-t svd: for the
# memory-mapped specs, whose tree has "svd"; the others -t svd refuses).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
: "${CC:=cc}"
tap_setup regc tmp
schema=docs/regc-model.schema.json

if ! python3 -c 'import jsonschema' 2>/dev/null; then
    tap_skip "model export against $schema" "python3-jsonschema is not installed (tools/install-deps.sh)"
    tap_done
    exit 0
fi

if python3 -c 'import json, sys, jsonschema
jsonschema.Draft7Validator.check_schema(json.load(open(sys.argv[1])))' "$schema" 2>"$tmp/err"; then
    tap_ok "$schema is a valid draft-7 schema"
else
    tap_fail "$schema is a valid draft-7 schema" "$(tail -n 3 "$tmp/err")"
fi

# validate SCHEMA JSON...: prints one line per file that does not conform, exits 1 then
cat >"$tmp/validate.py" <<'PY'
import json, sys, jsonschema
v = jsonschema.Draft7Validator(json.load(open(sys.argv[1])))
bad = 0
for path in sys.argv[2:]:
    errors = sorted(v.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
    for e in errors[:3]:
        print(f"{path}: at /{'/'.join(map(str, e.path))}: {e.message[:200]}")
    bad += bool(errors)
sys.exit(1 if bad else 0)
PY

# macros.py MODEL CONTEXT HEADER PROG.c LIST: writes a C program printing every macro
# the export is compared with, and LIST, the values the export says, one "NAME VALUE" a line
cat >"$tmp/macros.py" <<'PY'
import json, sys
model, ctx = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
names, want = [], []
def add(macro, value):
    names.append(macro)
    want.append(f"{macro} {value}")
def hexval(s):
    return f"{int(s, 16):x}"
assert len(model["blocks"]) == len(ctx["blocks"])
for mb, cb in zip(model["blocks"], ctx["blocks"]):
    assert [r["name"] for r in mb["registers"]] == [r["name"] for r in cb["registers"]], mb["name"]
    for mr, cr in zip(mb["registers"], cb["registers"]):
        add(cr["c_def"]["reset"].strip(), hexval(mr["reset"]))
        for k in ("mbz", "mb1", "ignored", "ro", "wo", "w1c", "w1s", "writable", "preserve"):
            add(cr["c_def"][k].strip(), hexval(mr["masks"][k]))
        # the side-effect masks are in the header where a register has side effects
        for k in ("w0", "w1t", "wany", "once"):
            if cr["c_has_effects"]:
                add(cr["c_def"][k].strip(), hexval(mr["masks"][k]))
            else:
                assert mr["masks"][k] == "0x0", (mr["name"], k, "no _MASK in the header")
    assert [e["name"] for e in mb["events"]] == [e["name"] for e in cb["events"]], mb["name"]
    for me, ce in zip(mb["events"], cb["events"]):
        add(ce["c_def"]["name"].strip(), hexval(me["encoding"]))
        add(ce["c_def"]["code"].strip(), hexval(me["code"]))
        add(ce["c_def"]["counters"].strip(), f"{sum(1 << i for i in me['counters']):x}")
with open(sys.argv[4], "w") as c:
    c.write(f'#include <stdio.h>\n#include "{sys.argv[3]}"\nint main(void)\n{{\n')
    for n in names:
        c.write(f'    printf("%s %llx\\n", "{n}", (unsigned long long)({n}));\n')
    c.write("    return 0;\n}\n")
with open(sys.argv[5], "w") as f:
    f.write("".join(w + "\n" for w in want))
print(sum(len(b["events"]) for b in model["blocks"]), "events,",
      sum(len(b["registers"]) for b in model["blocks"]), "registers")
PY

# masks.py MODEL: every register's masks from its fields, by the documented legend;
# prints one line per register whose export says otherwise, exits 1 then
cat >"$tmp/masks.py" <<'PY'
import json, sys
# docs/regspec.md, "Attributes (access)", column "masks", and docs/json.md,
# registers[].masks: which masks a field's bits go into, by its access as printed.
LEGEND = {
    "RW": {"writable"},          # read/write
    "RO": {"ro"},                # read-only
    "RO-V": {"ro"},              # read-only, updated by hardware
    "WO": {"wo", "writable"},    # write-only: reads 0, a 1 acts
    "RW-V": {"writable"},        # read/write, updated by hardware
    "RWS": {"writable"},         # read/write, kept across a warm reset
    "RW1C": {"w1c", "writable"}, # write 1 to clear
    "RW1S": {"w1s", "writable"}, # write 1 to set
    "RV": {"mbz"},               # reserved: must write 0
    "rsv": {"mbz"},
    "RV1": {"mb1"},              # reserved: must write 1
    "ig": {"ignored"},           # ignored: reads 0, writes ignored
    "gap": {"preserve"},         # not described: written back as read
    # write side effects of memory-mapped registers: "w0" a 0 acts, "w1t" a 1 toggles,
    # "wany" any write acts, "once" the first write after reset only
    "RW0C": {"w0", "writable"}, "RW0S": {"w0", "writable"}, "RW0T": {"w0", "writable"},
    "RW1T": {"w1t", "writable"},
    "RWAC": {"wany", "writable"}, "RWAS": {"wany", "writable"},
    "RWO": {"once", "writable"},
    "WOO": {"once", "wo", "writable"},   # write-only, once
}
KINDS = ("mbz", "mb1", "ignored", "ro", "wo", "w1c", "w1s", "writable", "preserve",
         "w0", "w1t", "wany", "once")
model = json.load(open(sys.argv[1]))
bad = nregs = 0
for b in model["blocks"]:
    for r in b["registers"]:
        nregs += 1
        want = dict.fromkeys(KINDS, 0)
        covered = 0
        problems = []
        for f in r["fields"]:
            bits = ((1 << (f["msb"] - f["lsb"] + 1)) - 1) << f["lsb"]
            # an SVD field: its access is SVD's spelling, its class the attribute of the legend
            svd = f.get("svd")
            acc = svd["class"] if svd else f["access"]
            if acc not in LEGEND:
                problems.append(f"field {f['name']}: access {acc} is not in the legend")
                continue
            kinds = LEGEND[acc]
            # writeAsRead (docs/json.md, masks.preserve): written back as read, in no write mask
            if f["write_constraint"] and f["write_constraint"]["kind"] == "writeAsRead":
                kinds = (kinds - {"writable", "wo", "w1c", "w1s", "w0", "w1t"}) | {"preserve"}
            if covered & bits:
                problems.append(f"field {f['name']}: bits {f['msb']}:{f['lsb']} overlap another field")
            covered |= bits
            for k in kinds:
                want[k] |= bits
        if covered != (1 << r["width"]) - 1:
            problems.append(f"fields cover {covered:#x}, not the {r['width']} bits of the width")
        # the bits from width up to size are reserved: must be zero
        want["mbz"] |= ((1 << r["size"]) - 1) & ~((1 << r["width"]) - 1)
        for k in KINDS:
            got = int(r["masks"][k], 16)
            if got != want[k]:
                problems.append(f"masks.{k} is {got:#x}, the legend gives {want[k]:#x}")
        for p in problems:
            print(f"{b['name']}.{r['name']}: {p}")
        bad += bool(problems)
print(f"{nregs} registers", file=sys.stderr)
sys.exit(1 if bad else 0)
PY

specs=$(ls regspec/*.xml; ls examples/specs/*.xml; grep -l '<regspec' tests/golden/*.xml; echo tests/docs/hostile.xml)
exports=()
# and an SVD device (tests/svd/features.svd: every write side effect, writeAsRead)
for spec in $specs tests/svd/features.svd; do
    name=$(basename "$spec" .xml)
    out=$tmp/$name.json
    if ! "$regc" -t json "$spec" -o "$out" 2>"$tmp/err"; then
        tap_fail "$name: regc -t json" "$(head -n 5 "$tmp/err")"
        continue
    fi
    exports+=("$out")
    if msg=$(python3 "$tmp/validate.py" "$schema" "$out" 2>&1); then
        tap_ok "$name: the export conforms to $schema"
    else
        tap_fail "$name: the export conforms to $schema" "$msg"
    fi
    if msg=$(python3 "$tmp/masks.py" "$out" 2>"$tmp/n"); then
        tap_ok "$name: masks = the attribute legend applied to the fields ($(cat "$tmp/n"))"
    else
        tap_fail "$name: masks = the attribute legend applied to the fields" "$(echo "$msg" | head -n 10)"
    fi
    # the header's macros, evaluated by the C compiler
    if ! "$regc" -t c "$spec" -o "$tmp/$name.h" 2>"$tmp/err" ||
        ! "$regc" --dump-context "$spec" -o "$tmp/$name.ctx.json" 2>>"$tmp/err"; then
        tap_fail "$name: regc -t c, --dump-context" "$(head -n 5 "$tmp/err")"
        continue
    fi
    if ! what=$(python3 "$tmp/macros.py" "$out" "$tmp/$name.ctx.json" "$tmp/$name.h" \
        "$tmp/$name.c" "$tmp/$name.want" 2>&1) ||
        ! $CC -std=c11 -w -o "$tmp/$name.prog" "$tmp/$name.c" 2>"$tmp/err"; then
        tap_fail "$name: the header's macros compile" "$what" "$(head -n 5 "$tmp/err")"
        continue
    fi
    "$tmp/$name.prog" >"$tmp/$name.got"
    tap_diff "$name: encodings, codes, counters, resets, masks = the header's ($what)" \
        "$tmp/$name.want" "$tmp/$name.got"
done

# the schema rejects what breaks it; each case edits a valid export
base=${exports[0]:-}
broken() { # name, python statement over d
    python3 - "$base" "$tmp/broken.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
    if python3 "$tmp/validate.py" "$schema" "$tmp/broken.json" >/dev/null 2>&1; then
        tap_fail "the schema rejects an export with $1"
    else
        tap_ok "the schema rejects an export with $1"
    fi
}
if [ -n "$base" ]; then
    broken "a register reset as a number" 'd["blocks"][0]["registers"][0]["reset"] = 0'
    broken "an event encoding as a number" \
        'next(b for b in d["blocks"] if b["events"])["events"][0]["encoding"] = 1'
    broken "an unknown key" 'd["blocks"][0]["registers"][0]["fields"][0]["c_name"] = "X"'
    broken "a key missing" 'del d["blocks"][0]["registers"][0]["masks"]["mbz"]'
    broken "an upper-case hex value" 'd["blocks"][0]["registers"][0]["masks"]["mbz"] = "0xFF"'
    broken "a 17-digit hex value" 'd["blocks"][0]["registers"][0]["reset"] = "0x1" + "0" * 16'
    broken "a PCI dev of 32 (null, any slot, is allowed; 0 to 31 else)" \
        'next(i for b in d["blocks"] for i in b["instances"] if i["pci"])["pci"]["dev"] = 32'
    broken "a PCI func given as a string" \
        'next(i for b in d["blocks"] for i in b["instances"] if i["pci"])["pci"]["func"] = "any"'
fi

# --dump-context: the templates' data tree: the model's names and the template keys (c_name...)
if "$regc" --dump-context regspec/snb_client.xml -o "$tmp/ctx.json" 2>"$tmp/err" &&
    jq -e '.blocks[0].c_name and .blocks[0].registers[0].c_def and .regc_model == 1' \
        "$tmp/ctx.json" >/dev/null; then
    tap_ok "--dump-context writes the data tree"
else
    tap_fail "--dump-context writes the data tree" "$(head -n 5 "$tmp/err")"
fi
builtins=$("$regc" --list-templates | awk '$1 != "json" { print $1 }')
problems=() n=0
for spec in $specs; do
    name=$(basename "$spec" .xml)
    "$regc" --dump-context "$spec" -o "$tmp/$name.tree.json" 2>"$tmp/err" ||
        { problems+=("$name: --dump-context: $(head -n 1 "$tmp/err")"); continue; }
    for t in $builtins; do
        case $t in c | tables) esc=c ;; md) esc=md ;; html | svd | regspec) esc=html ;; perf) esc=json ;;
        cmsis | cmsis-enum) continue ;; # memory-mapped specs only: below, on an SVD file
        *) problems+=("built-in '$t': this test knows no escape for it"); continue ;; esac
        n=$((n + 1))
        if [ "$t" = svd ] && ! jq -e 'has("svd")' "$tmp/$name.tree.json" >/dev/null; then
            # an MSR or PCI spec: -t svd refuses it (svd-space), and the tree has no "svd"
            if "$regc" -t svd "$spec" -o "$tmp/want.out" 2>"$tmp/err" ||
                ! grep -q 'CMSIS-SVD describes memory-mapped registers only' "$tmp/err"; then
                problems+=("$name, svd: the tree has no \"svd\", yet -t svd did not refuse the spec")
            fi
            continue
        fi
        if ! "$regc" -t "$t" "$spec" -o "$tmp/want.out" 2>"$tmp/err" ||
            ! "$regc" render --strict "templates/$t.mustache" "$tmp/$name.tree.json" --escape=$esc \
                -o "$tmp/got.out" 2>>"$tmp/err"; then
            problems+=("$name, $t: $(head -n 2 "$tmp/err")")
        elif ! cmp -s "$tmp/want.out" "$tmp/got.out"; then
            problems+=("$name, $t: regc render of the dump differs: $(cmp "$tmp/want.out" "$tmp/got.out" 2>&1)")
        fi
    done
done
# -t cmsis and -t cmsis-enum (issue 27) read c_cmsis, which the dump of an SVD file carries
for svd in tests/svd/features.svd tests/svd/cmsis-layout.svd tests/svd/cmsis-enum.svd; do
  for t in cmsis cmsis-enum; do
    name=$(basename "$svd" .svd)
    n=$((n + 1))
    if ! "$regc" --dump-context "$svd" -o "$tmp/$name.tree.json" 2>"$tmp/err" ||
        ! "$regc" -t $t "$svd" -o "$tmp/want.out" 2>>"$tmp/err" ||
        ! "$regc" render --strict templates/$t.mustache "$tmp/$name.tree.json" --escape=c \
            -o "$tmp/got.out" 2>>"$tmp/err"; then
        problems+=("$name, $t: $(head -n 2 "$tmp/err")")
    elif ! cmp -s "$tmp/want.out" "$tmp/got.out"; then
        problems+=("$name, $t: regc render of the dump differs: $(cmp "$tmp/want.out" "$tmp/got.out" 2>&1)")
    fi
  done
done
if [ ${#problems[@]} -eq 0 ] && [ "$n" -gt 0 ]; then
    tap_ok "every built-in template rendered from --dump-context's tree = regc -t NAME ($n renders)"
else
    tap_fail "every built-in template rendered from --dump-context's tree = regc -t NAME" "${problems[@]:0:10}"
fi

# One spelling (issue 26): the export is the templates' tree less the templates' own names. Every
# key of the export is in --dump-context's tree at the same place with the same value (a number
# compared as a number); what the tree has beyond it are names only templates get.
cat >"$tmp/within.py" <<'PY'
import json, sys
def within(e, d, path, out):
    if isinstance(e, dict):
        if not isinstance(d, dict):
            out.append(f"{path}: an object in the export, {type(d).__name__} in the tree")
            return
        for k, v in e.items():
            if k not in d:
                out.append(f"{path}.{k}: in the export, not in the tree")
            else:
                within(v, d[k], f"{path}.{k}", out)
    elif isinstance(e, list):
        if not isinstance(d, list) or len(d) != len(e):
            out.append(f"{path}: a list of {len(e)} in the export, not in the tree")
            return
        for i, (x, y) in enumerate(zip(e, d)):
            within(x, y, f"{path}[{i}]", out)
    elif e != d or (type(e) is bool) != (type(d) is bool):
        out.append(f"{path}: {e!r} in the export, {d!r} in the tree")
out = []
within(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), "", out)
print("\n".join(out[:10]))
sys.exit(1 if out else 0)
PY
problems=() n=0
for spec in $specs tests/svd/features.svd; do
    name=$(basename "$spec")
    if ! "$regc" -t json "$spec" -o "$tmp/w.json" 2>"$tmp/err" ||
        ! "$regc" --dump-context "$spec" -o "$tmp/w.ctx.json" 2>>"$tmp/err"; then
        problems+=("$name: $(head -n 2 "$tmp/err")")
    elif ! msg=$(python3 "$tmp/within.py" "$tmp/w.json" "$tmp/w.ctx.json"); then
        problems+=("$name: $msg")
    fi
    n=$((n + 1))
done
if [ ${#problems[@]} -eq 0 ]; then
    tap_ok "every name and value of -t json is the templates' tree's ($n specs)"
else
    tap_fail "every name and value of -t json is the templates' tree's" "${problems[@]:0:5}"
fi

# Names once in the export only (--list-names said "not offered to templates yet") read by a
# template: the text it renders is what jq reads in the export.
cat >"$tmp/once-absent.mustache" <<'EOF'
{{regc_model}}
{{#spec}}{{desc}}{{#sources}} {{desc}}{{/sources}}{{/spec}}
{{#blocks}}{{name}} {{#source}}{{src}}/{{table}}{{/source}}{{#event_tables}} {{register}}:{{#source}}{{src}}{{/source}}{{/event_tables}}
{{#instances}}  {{name}} {{desc}} {{#source}}{{src}}{{/source}}
{{/instances}}{{#registers}}  {{name}} {{address}} {{#fields}}{{#source}}{{page}}{{/source}},{{/fields}}
{{/registers}}{{#events}}  {{name}} {{table}} {{parent}} {{encoding}} {{#source}}{{table}}{{/source}}
{{/events}}{{#pmon}}{{#source}}  pmon {{src}}{{/source}}{{#counters}} {{#source}}{{table}}{{/source}}{{status_first}}{{/counters}}{{#box_control}} {{#source}}{{table}}{{/source}}{{/box_control}}{{#box_status}} {{#source}}{{table}}{{/source}}{{/box_status}}{{#filters}} {{#source}}{{table}}{{/source}}{{/filters}}{{#unmodelled_filters}} {{#source}}{{table}}{{/source}}{{/unmodelled_filters}}
{{/pmon}}{{/blocks}}{{#pmon_global}}{{#source}}{{table}}{{/source}}{{#control}} {{#source}}{{table}}{{/source}}{{#pmi_core_fields}} {{.}}{{/pmi_core_fields}}{{/control}}{{#status}} {{#source}}{{table}}{{/source}}{{/status}}{{/pmon_global}}
EOF
cat >"$tmp/once-absent.jq" <<'EOF'
def s: if . == null then "" else tostring end;
"\(.regc_model)",
(.spec | "\(.desc | s)" + ([.sources[] | " \(.desc | s)"] | join(""))),
(.blocks[] |
  "\(.name) \(.source.src | s)/\(.source.table | s)" + ([.event_tables[] | " \(.register):\(.source.src | s)"] | join("")),
  (.instances[] | "  \(.name) \(.desc | s) \(.source.src | s)"),
  (.registers[] | "  \(.name) \(.address) " + ([.fields[] | "\(.source.page | s),"] | join(""))),
  (.events[] | "  \(.name) \(.table) \(.parent | s) \(.encoding) \(.source.table | s)"),
  (.pmon | select(. != null) |
    "  pmon \(.source.src | s)" +
    ([.counters[] | " \(.source.table | s)\(.status_first | s)"] | join("")) +
    ([.box_control | select(. != null) | " \(.source.table | s)"] | join("")) +
    ([.box_status | select(. != null) | " \(.source.table | s)"] | join("")) +
    ([.filters[] | " \(.source.table | s)"] | join("")) +
    ([.unmodelled_filters[] | " \(.source.table | s)"] | join("")))),
(.pmon_global | select(. != null) | "\(.source.table | s)" +
  ([.control | select(. != null) | " \(.source.table | s)" + ([.pmi_core_fields[] | " \(.)"] | join(""))] | join("")) +
  ([.status | select(. != null) | " \(.source.table | s)"] | join("")))
EOF
problems=()
for spec in regspec/e5_2600v2.xml regspec/snb_client.xml tests/golden/features.xml; do
    if ! "$regc" -t "$tmp/once-absent.mustache" "$spec" -o "$tmp/got.txt" 2>"$tmp/err" ||
        ! "$regc" -t json "$spec" -o "$tmp/w.json" 2>>"$tmp/err"; then
        problems+=("$spec: $(head -n 2 "$tmp/err")")
    elif ! jq -r -f "$tmp/once-absent.jq" "$tmp/w.json" >"$tmp/want.txt" 2>"$tmp/err"; then
        problems+=("$spec: jq: $(head -n 2 "$tmp/err")")
    elif ! diff -u "$tmp/want.txt" "$tmp/got.txt" >"$tmp/diff"; then
        problems+=("$spec: $(head -n 12 "$tmp/diff")")
    fi
done
if [ ${#problems[@]} -eq 0 ]; then
    tap_ok "names once in the export only, read by a template, render the export's values"
else
    tap_fail "names once in the export only, read by a template, render the export's values" "${problems[@]}"
fi

# A description's paragraphs (a blank line in the spec) are one "\n" in the model (docs/json.md,
# "Descriptions"): -t json keeps it, and a template reads the same text.
cp tests/golden/features*.xml "$tmp/"
sed -i 's|<desc>A box with an array of counter controls, counters, box control and status.</desc>|<desc>A box with\n  an array of counters.\n\n   And a box control.</desc>|' "$tmp/features.xml"
printf '%s\n' '{{#blocks}}{{#first}}{{desc}}{{/first}}{{/blocks}}' >"$tmp/desc.mustache"
want=$(printf 'A box with an array of counters.\nAnd a box control.')
if "$regc" -t json "$tmp/features.xml" -o "$tmp/para.json" 2>"$tmp/err" &&
    "$regc" -t "$tmp/desc.mustache" "$tmp/features.xml" -o "$tmp/para.txt" 2>>"$tmp/err" &&
    [ "$(jq -r '.blocks[0].desc' "$tmp/para.json")" = "$want" ] && [ "$(cat "$tmp/para.txt")" = "$want" ]; then
    tap_ok "a description's paragraphs: one \\n in -t json and in the templates' desc"
else
    tap_fail "a description's paragraphs: one \\n in -t json and in the templates' desc" \
        "$(cat "$tmp/err")" "json: $(jq '.blocks[0].desc' "$tmp/para.json" 2>&1)" "template: $(cat "$tmp/para.txt" 2>&1)"
fi

"$regc" --dump-context -t c regspec/snb_client.xml >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && grep -q "^regc: error: --dump-context writes the data tree; it takes no -t$" "$tmp/err" &&
    [ ! -s "$tmp/out" ]; then
    tap_ok "--dump-context with -t: a usage error"
else
    tap_fail "--dump-context with -t: a usage error" "exit $rc" "$(cat "$tmp/err")"
fi
# The dimArrayIndex of peripherals and clusters (tests/svd/cmsis-enum.svd, as written there): each
# instance's svd.array_index and each cluster's array_index, "NAME ENUM_NAME INDEX=VALUE..."
cat >"$tmp/ai.want" <<'EOF'
TIM0 -
TIM1 - Only=0x0
TIM2 - Only=0x0
PA0 - Main=0x0 Aux=0x1
PA1 - Main=0x0 Aux=0x1
cluster GRP0 GrpIdx G0=0x0 G1=0x1
cluster SUB -
cluster GRP1 GrpIdx G0=0x0 G1=0x1
cluster SUB -
cluster SLOT - Lo=0x0 Hi=0x1
EOF
cat >"$tmp/ai.py" <<'PY'
import json, sys
def line(name, ix):
    if not ix:
        return name + " -"
    vals = " ".join(f"{v['name']}={v['value']}" for v in ix["values"])
    return f"{name} {ix['enum_name'] or '-'} {vals}"
regs = sys.argv[1] == "--registers"  # each register's too, after the clusters
for path in sys.argv[2:] if regs else sys.argv[1:]:
    d = json.load(open(path))
    for b in d["blocks"]:
        for i in b["instances"]:
            print(line(i["name"], i["svd"]["array_index"]))
    for b in d["blocks"]:
        for c in b["svd"]["clusters"]:
            print(line("cluster " + c["name"], c["array_index"]))
    for b in d["blocks"] if regs else []:
        for r in b["registers"]:
            print(line("register " + r["name"], r["svd"]["array_index"]))
PY
if "$regc" -t json tests/svd/cmsis-enum.svd -o "$tmp/ai.json" 2>"$tmp/err" &&
    python3 "$tmp/ai.py" "$tmp/ai.json" >"$tmp/ai.got" 2>>"$tmp/err"; then
    tap_diff "cmsis-enum.svd: each instance's and cluster's own dimArrayIndex in the export" "$tmp/ai.want" "$tmp/ai.got"
else
    tap_fail "cmsis-enum.svd: the dimArrayIndex export" "$(head -n 3 "$tmp/err")"
fi
# What svdconv drops of a dimArrayIndex (svd-array-index, svd-duplicate) is not exported, by the SVD
# reader and by the regspec loader alike: each index kept, from the files as written
# (tests/errors/svd-array-index-range.svd, svd-array-index-regspec.xml). A regspec array's later
# element that gives no <array-index> (PB, E1) has its array's, as SVD has one for the array.
cat >"$tmp/aid.want" <<'EOF'
TIMER0 - MAIN=0x0
TIMER1 - MAIN=0x0
cluster CH - LEFT=0x0
register CH_CTL -
register DATA - A=0x3
PA - Main=0x0
PB - Main=0x0
PX -
cluster C - Lo=0x0
cluster E0 - First=0x0 Second=0x1
cluster E1 - First=0x0 Second=0x1
register C_R -
register D - X=0x2
EOF
if "$regc" -t json tests/errors/svd-array-index-range.svd -o "$tmp/aid1.json" 2>"$tmp/err" &&
    "$regc" -t json tests/errors/svd-array-index-regspec.xml -o "$tmp/aid2.json" 2>>"$tmp/err" &&
    python3 "$tmp/ai.py" --registers "$tmp/aid1.json" "$tmp/aid2.json" >"$tmp/aid.got" 2>>"$tmp/err"; then
    tap_diff "svd-array-index-range.svd, svd-array-index-regspec.xml: the dimArrayIndex values svdconv drops are not exported" "$tmp/aid.want" "$tmp/aid.got"
else
    tap_fail "svd-array-index-range.svd, svd-array-index-regspec.xml: the export" "$(head -n 3 "$tmp/err")"
fi
tap_done
