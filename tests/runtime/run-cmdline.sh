#!/usr/bin/env bash
# run-cmdline.sh - regctl's command line (runtime/regctl/cmdline.c): global options are taken
# before or after the command, as git and perf take theirs; 'regctl COMMAND --help' and 'regctl
# help COMMAND' print that command's help; a usage error is one line pointing to --help; every
# name a user types that names nothing gets a "did you mean" (regc/suggest.h): commands,
# options, specs, blocks, and events by regc name, perfmon name and perf alias, in 'events' and
# in 'monitor'. Golden files tests/runtime/golden/cmdline-*.out (UPDATE_GOLDEN=1 rewrites them).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/golden.sh
. tests/runtime/regctl.sh
tap_setup tmp

regctl_needs e5_2600 "regctl's command line"

# same NAME ARGS1 -- ARGS2: both command lines exit 0 with the same stdout and stderr
same() {
    local name=$1 a=() b=(); shift
    while [ "$1" != -- ]; do a+=("$1"); shift; done
    shift
    b=("$@")
    "$REGCTL" "${a[@]}" >"$tmp/a" 2>&1; local ra=$?
    "$REGCTL" "${b[@]}" >"$tmp/b" 2>&1; local rb=$?
    if [ $ra = 0 ] && [ $rb = 0 ] && [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then tap_ok "$name"
    else tap_fail "$name" "exit $ra and $rb" "$(diff "$tmp/a" "$tmp/b" | head -5)" "$(head -3 "$tmp/a")"; fi
}

# ---- global options after the command: the same run as before it
EV=ubox:EVENT_MSG.DOORBELL_RCVD
RUN=(--count 2 --interval 0 --sim-rate "$EV=7")
same "monitor --backend sim after the command" --backend sim monitor e5_2600 "$EV" "${RUN[@]}" -- \
    monitor --backend sim e5_2600 "$EV" "${RUN[@]}"
same "monitor: global options after the events, --name=value" --backend sim --json monitor e5_2600 "$EV" "${RUN[@]}" -- \
    monitor e5_2600 "$EV" "${RUN[@]}" --json --backend=sim
same "events --json after the command" --json events e5_2600.ubox doorbell -- events --json e5_2600.ubox doorbell
same "events: --perf anywhere" events --perf e5_2600.ubox doorbell -- events e5_2600.ubox doorbell --perf
same "list --json after the spec" --json list e5_2600 -- list e5_2600 --json
same "read: --backend sim --cpu 1 after the path" --backend sim --cpu 1 read e5_2600.ubox.U_MSR_PMON_CTL1 -- \
    read e5_2600.ubox.U_MSR_PMON_CTL1 --backend sim --cpu 1
same "write: --dry-run and --rmw among the fields" --dry-run --rmw write e5_2600.ubox.U_MSR_PMON_CTL0 umask=1 -- \
    write e5_2600.ubox.U_MSR_PMON_CTL0 --rmw umask=1 --dry-run
# a CPU root whose cpu 0 says Ivy Bridge-EP (CPUID leaf 0: GenuineIntel; leaf 1: 0x306E4)
mkdir -p "$tmp/ivt/0" "$tmp/nosys"
python3 -c 'import struct, sys; open(sys.argv[1], "wb").write(struct.pack("<I", 0xd) + b"GenuntelineI" + struct.pack("<4I", 0x306E4, 0, 0, 0))' "$tmp/ivt/0/cpuid"
same "detect: --msr-root and --json after the command" --msr-root "$tmp/ivt" --sysfs-root "$tmp/nosys" --json detect -- \
    detect --json --sysfs-root "$tmp/nosys" --msr-root "$tmp/ivt"
# the globals reach the command: --json after it makes JSON
if "$REGCTL" events e5_2600.ubox doorbell --json | head -1 | grep -qx '\['; then tap_ok "events ... --json prints JSON"
else tap_fail "events ... --json prints JSON"; fi
# "--" ends the options: what follows is an argument (a PATTERN that matches nothing)
golden cmdline-dashdash 1 events e5_2600.ubox -- --json
"$REGCTL" list -- e5_2600.ubox >"$tmp/dd" 2>&1
if cmp -s "$tmp/dd" <("$REGCTL" list e5_2600.ubox 2>&1); then tap_ok "list -- SPEC.BLOCK: the -- is no argument of list"
else tap_fail "list -- SPEC.BLOCK: the -- is no argument of list" "$(head -2 "$tmp/dd")"; fi

# ---- help: the whole, and a command's (three ways to ask, one text)
"$REGCTL" --help >"$tmp/help" 2>&1
rc=$?
missing=$(for c in list events read write detect monitor help; do grep -q "^  $c  " "$tmp/help" || echo "$c"; done)
if [ $rc = 0 ] && [ -z "$missing" ]; then tap_ok "--help lists every command"; else tap_fail "--help lists every command" "exit $rc, missing: $missing"; fi
"$REGCTL" monitor --help >"$tmp/mh" 2>&1
rc=$?
# monitor's help names each of its options as monitor.c's getopt table spells them
opts=$(sed -n '/regctl_monitor_opts\[\] = {/,/{NULL, NULL, NULL, 0}}/p' runtime/regctl/monitor.c | grep -o '^    {"[a-z-]*"' | tr -d ' {"')
missing=$(for o in $opts; do grep -q -- "^  --$o\b" "$tmp/mh" || echo "$o"; done)
if [ $rc = 0 ] && [ -n "$opts" ] && [ -z "$missing" ] && head -1 "$tmp/mh" | grep -q '^usage: regctl \[options\] monitor SPEC EVENT'; then
    tap_ok "monitor --help: its usage and each of its options"
else tap_fail "monitor --help: its usage and each of its options" "exit $rc, missing: $missing" "$(head -2 "$tmp/mh")"; fi
same "help monitor is monitor --help" help monitor -- monitor --help
same "--help monitor is monitor --help" --help monitor -- monitor --help
same "-h after a command" write -h -- write --help
golden cmdline-help-write 0 write --help

# ---- usage errors: one line, pointing to the help
one_line() {
    local name=$1 want=$2; shift 2
    "$REGCTL" "$@" >"$tmp/o" 2>"$tmp/e"
    local rc=$?
    if [ $rc = 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" = 1 ] && grep -qF "$want" "$tmp/e"; then tap_ok "$name"
    else tap_fail "$name" "exit $rc, stderr:" "$(head -3 "$tmp/e")"; fi
}
one_line "no command: one line" "(see 'regctl --help')"
one_line "read without a path: one line" "(see 'regctl read --help')" read
one_line "write without fields: one line" "(see 'regctl write --help')" write e5_2600.ubox.U_MSR_PMON_CTL0
one_line "list with two arguments: one line" "(see 'regctl list --help')" list e5_2600 e5_2600v2
one_line "an option without its value: one line" "option '--cpu' needs a value" list --cpu
one_line "a flag given a value: one line" "option '--json' takes no value" list --json=yes

# a command's own option before the command: where it goes
golden cmdline-own-option-before 2 --force write e5_2600.ubox.U_MSR_PMON_CTL0 en=1
golden cmdline-own-option-before-monitor 2 --interval 0 monitor e5_2600 ubox:CLOCKTICKS

# ---- "did you mean"
golden cmdline-typo-command 2 monitr
golden cmdline-typo-option 2 --backnd sim list
golden cmdline-typo-option-after 2 list --jsn
golden cmdline-typo-monitor-option 2 monitor e5_2600 ubox:CLOCKTICKS --intervl 1
golden cmdline-far-command 2 frobnicate
golden cmdline-typo-backend 2 read e5_2600.ubox.U_MSR_PMON_CTL0 --backend smi
golden cmdline-events-typo-spec 2 events e5_260 doorbell
golden cmdline-events-typo-spec-alone 1 events e5_260
golden cmdline-events-typo-block 2 events e5_2600.cbx
golden cmdline-events-typo-name 1 events e5_2600 imc:CAS_COUNT.RDX
golden cmdline-events-typo-perfmon 1 events UNC_M_CAS_COUNT.RDD
golden cmdline-events-typo-alias 1 events unc_m_cas_count.rdd
golden cmdline-events-kernel-alias 1 events e5_2600 cas_count_read
golden cmdline-monitor-typo-spec 2 monitor e5_260 ubox:CLOCKTICKS
golden cmdline-monitor-typo-block 2 --backend sim monitor e5_2600 imx:CAS_COUNT.RD
golden cmdline-monitor-typo-name 2 --backend sim monitor e5_2600 imc:CAS_COUNT.READ
golden cmdline-monitor-typo-name-lower 2 --backend sim monitor e5_2600 imc:unc_m_cas_count.rdd
golden cmdline-monitor-typo-perfmon 2 --backend sim monitor e5_2600 UNC_M_CAS_COUNT.RDD
golden cmdline-monitor-typo-alias 2 --backend sim monitor e5_2600 unc_m_cas_count.rdd
golden cmdline-monitor-kernel-alias 2 --backend sim monitor e5_2600 cas_count_read
# and what was meant runs: each suggestion, taken, is accepted
for t in cmdline-monitor-typo-block cmdline-monitor-typo-name cmdline-monitor-typo-perfmon \
    cmdline-monitor-typo-alias cmdline-monitor-kernel-alias; do
    meant=$(sed -n "s/.*did you mean '\([^']*\)'?.*/\1/p" "$tmp/$t.out")
    case $t in
    *-block) meant=$meant:CAS_COUNT.RD ;;
    *-name) meant=imc:$meant ;;
    esac
    if [ -n "$meant" ] && "$REGCTL" --backend sim monitor e5_2600 "$meant" --count 1 --interval 0 >/dev/null 2>&1; then
        tap_ok "$t: '$meant' is taken"
    else tap_fail "$t: '$meant' is taken"; fi
done
tap_done
