#!/usr/bin/env bash
# tests/cli/run-completion.sh - the bash completion of regc and regctl
# (tools/completion/regc.bash), driven as bash drives it: the script sourced, COMP_LINE,
# COMP_POINT, COMP_WORDS and COMP_CWORD set, the function called, COMPREPLY read. What it
# offers is compared with what the programs say elsewhere: regctl list, regctl events --json,
# regctl read --json, regc --list-templates, regc --help, the specs of regspec/.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
: "${BUILD:=build}"
REGCTL=${REGCTL:-$BUILD/regctl}
case $REGCTL in /*) ;; *) REGCTL=$PWD/$REGCTL ;; esac
mkdir -p "$tmp/bin"
ln -s "$REGCTL" "$tmp/bin/regctl"
ln -s "$regc" "$tmp/bin/regc"
export PATH=$tmp/bin:$PATH

# complete LINE: the candidates bash would offer for LINE (the cursor at its end), sorted, one a
# line; COMP_WORDS split as bash splits them (COMP_WORDBREAKS: ':' and '=' are words of their own)
complete_line() {
    bash -c '
        shopt -s extglob
        source tools/completion/regc.bash
        COMP_LINE=$1; COMP_POINT=${#1}
        read -ra COMP_WORDS <<<"$(sed "s/\([:=]\)/ \1 /g" <<<"$1")"
        [[ $1 =~ [[:space:]]$ ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        spec=$(complete -p "${COMP_WORDS[0]}") || exit 3
        fn=${spec#*-F }; fn=${fn%% *}
        "$fn"
        printf "%s\n" "${COMPREPLY[@]}"' _ "$1" | sed '/^$/d' | sort
}
# expect NAME LINE WANT...: exactly WANT offered
expect() {
    local name=$1 line=$2; shift 2
    local got want
    got=$(complete_line "$line")
    want=$(printf '%s\n' "$@" | sed '/^$/d' | sort)
    if [ "$got" = "$want" ]; then tap_ok "$name"; else tap_fail "$name" "line: '$line'" "got: $(echo $got)" "want: $(echo $want)"; fi
}

if ! "$REGCTL" list 2>/dev/null | grep -q '^e5_2600 '; then
    tap_skip "regctl completion" "regctl has no e5_2600 tables"
else
    # commands: those --help lists
    cmds=$("$REGCTL" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
    expect "regctl <TAB>: the commands of --help" "regctl " $cmds
    expect "regctl mon<TAB>" "regctl mon" monitor
    expect "regctl --cpu 1 mon<TAB>: a global option's value skipped" "regctl --cpu 1 mon" monitor
    expect "regctl --back<TAB>" "regctl --back" --backend
    expect "regctl monitor --int<TAB>: monitor's own options" "regctl monitor --int" --interval --interval-print
    expect "regctl list --int<TAB>: not list's" "regctl list --int"
    expect "regctl --backend <TAB>" "regctl --backend " msr pci perf sim
    expect "regctl events -- --<TAB>: no options after --" "regctl events -- --"
    # specs and blocks: as regctl list shows them
    specs=$("$REGCTL" list | awk '{print $1}')
    expect "regctl monitor <TAB>: the specs of regctl list" "regctl monitor " $specs
    blocks=$("$REGCTL" list e5_2600 | awk '{print "e5_2600." $1}')
    expect "regctl events e5_2600.<TAB>: the blocks of regctl list e5_2600" "regctl events e5_2600." $blocks
    expect "regctl read e5_2600.ub<TAB>" "regctl read e5_2600.ub" e5_2600.ubox.
    # registers: each one offered reads (dry run), and the U-Box's are its 4 MSRs and 2 array copies each
    regs=$(complete_line "regctl read e5_2600.ubox.")
    bad=$(for r in $regs; do "$REGCTL" --dry-run read "$r" >/dev/null 2>&1 || echo "$r"; done)
    n=$(echo "$regs" | grep -c .)
    want_n=$("$REGCTL" --json list e5_2600.ubox | python3 -c 'import json,sys; print(sum(len(r["addresses"]) for r in json.load(sys.stdin)))')
    if [ -z "$bad" ] && [ "$n" = "$want_n" ]; then tap_ok "regctl read e5_2600.ubox.<TAB>: $n registers, each one reads"
    else tap_fail "regctl read e5_2600.ubox.<TAB>: every copy, each one reads" "$n offered, $want_n copies; refused: $bad"; fi
    insts=$(complete_line "regctl read e5_2600.cbox." | grep -c '^e5_2600\.cbox\.cbox[0-9]\.$')
    if [ "$insts" = 8 ]; then tap_ok "regctl read e5_2600.cbox.<TAB>: its 8 instances"; else tap_fail "regctl read e5_2600.cbox.<TAB>: its 8 instances" "$insts"; fi
    # fields: those regctl read --json decodes, but for the reserved ones
    fields=$("$REGCTL" --backend sim --json read e5_2600.ubox.U_MSR_PMON_CTL0 |
        python3 -c 'import json,sys; print("\n".join(sorted({f["name"] + "=" for f in json.load(sys.stdin)["fields"] if f["name"] != "rsv"})))')
    expect "regctl write REG <TAB>: its fields as regctl read decodes them" "regctl write e5_2600.ubox.U_MSR_PMON_CTL0 en=1 " $fields
    # events after BLOCK: (bash offers what follows the ':'), as regctl events --json names them
    evs=$("$REGCTL" --json events e5_2600.ubox | python3 -c 'import json,sys; print("\n".join(e["event"] for e in json.load(sys.stdin)))')
    expect "regctl monitor e5_2600 ubox:<TAB>: the U-Box's events of regctl events" "regctl monitor e5_2600 ubox:" $evs
    expect "regctl monitor e5_2600 ubox:EVENT_MSG.D<TAB>" "regctl monitor e5_2600 ubox:EVENT_MSG.D" EVENT_MSG.DOORBELL_RCVD
    aliases=$("$REGCTL" --json events e5_2600 | python3 -c 'import json,sys; print("\n".join(sorted({e["perf_alias"] for e in json.load(sys.stdin) if e["perf_alias"] and e["perf_alias"].startswith("unc_m_cas")})))')
    expect "regctl monitor e5_2600 unc_m_cas<TAB>: perf aliases" "regctl monitor e5_2600 unc_m_cas" $aliases
    mkdir -p "$tmp/locks-here"
    expect "regctl monitor --lock-dir DIR<TAB>: directories" "regctl monitor --lock-dir $tmp/locks-h" "$tmp/locks-here"
    expect "regctl help <TAB>: the commands" "regctl help " $cmds
fi

# regc: options from its --help, templates from --list-templates, spec names from regspec/
expect "regc --che<TAB>" "regc --che" --check
expect "regc -t <TAB>: the templates of --list-templates" "regc -t " $("$regc" --list-templates | awk '{print $1}')
names=$(for f in regspec/e5_*.xml; do f=${f##*/}; echo "${f%.xml}"; done)
expect "regc e5_<TAB>: the specs of regspec/ by name" "regc e5_" $names
expect "regc --escape=<TAB>" "regc --escape=" html c md json none
opts=$(complete_line "regc -")
missing=$(for o in -o -t -I -MD -MF -MT --check --prefix --dump-context --list-templates -Werror --version --help; do
    grep -qx -- "$o" <<<"$opts" || echo "$o"; done)
if [ -z "$missing" ]; then tap_ok "regc -<TAB>: the options of regc --help"; else tap_fail "regc -<TAB>: the options of regc --help" "missing: $missing"; fi
tap_done
