#!/usr/bin/env bash
# run-pcifs.sh - regctl on the pci backend through the kernel, against the sysfs PCI tree that
# tests/tools/pcifs emulates (tests/runtime/pcifs.sh): `--backend pci` monitoring of E5-2600
# PCI boxes, the E5-2600 v2 with no --backend (U-Box MSRs through msr, PCI boxes through pci,
# one simulated package behind both), polling and sampling, the control values written checked
# against the generated header's encodings (compiled here with $CC), the second socket
# (--cpu 1), and the errors: --backend pci where the global control is an MSR, no such
# function, a register past a 256-byte configuration space. Counting is driven through pcifs's
# control file (ticks, held until no freeze holds their counters: see ticked) once regctl has
# printed its first interval. Also, without FUSE: sampling an E5-2600 v2 IRP event on the
# simulator (its overflows are found by the counter wrapping).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/regctl.sh
: "${CC:=cc}"
. tests/runtime/pcifs.sh
tmp=$(mktemp -d)
rpid=""
cleanup() {
    if [ -n "$rpid" ]; then kill "$rpid" 2>/dev/null; wait "$rpid" 2>/dev/null; fi
    pcifs_unmount
    rm -rf "$tmp"
}
# a signal from outside ends the script (tests/run.sh reports its status); a trap that only
# cleaned up would let it run on without its scratch directory
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- without FUSE: the E5-2600 v2 IRP (no global status bit, no box status) when sampling
out=$("$REGCTL" --backend sim monitor e5_2600v2 'irp:ADDRESS_MATCH.STALL_COUNT' --sample 1000 \
    --interval 0 --count 3 --sim-rate 'irp:ADDRESS_MATCH.STALL_COUNT=1500' 2>&1)
# 4,500 events at period 1,000: 4 whole periods, each an overflow (1, 2, 1: the remainder carries)
if [ "$(echo "$out" | awk 'NR > 1 { n += $2 } END { print n }')" = 4 ]; then
    tap_ok "sim: IRP overflows found by the wrap, every whole period counted"
else
    tap_fail "sim: IRP overflows found by the wrap, every whole period counted" "$out"
fi

# pcifs's own usage errors (before it mounts anything)
tool=$BUILD/tests/tools/pcifs
for bad in "--sockets 3" "--config-size 512" "--cpus -1" "--spec"; do
    # shellcheck disable=SC2086
    err=$("$tool" $bad "$tmp/nowhere" 2>&1)
    rc=$?
    if [ $rc = 2 ] && [ "${err%% *}" = "usage:" ]; then tap_ok "pcifs $bad: usage"; else tap_fail "pcifs $bad: usage" "exit $rc: $err"; fi
done
err=$("$tool" --spec nosuch "$tmp/nowhere" 2>&1)
rc=$?
if [ $rc = 2 ] && [ "$err" = "pcifs: no spec 'nosuch'" ]; then tap_ok "pcifs: unknown spec"; else tap_fail "pcifs: unknown spec" "exit $rc: $err"; fi

fuse_tests=("e5_2600 --backend pci: poll counts" "e5_2600 --backend pci: controls as encoded"
    "e5_2600v2 msr + pci: poll counts" "e5_2600v2 msr + pci: controls as encoded"
    "e5_2600v2 msr + pci: sample overflows" "e5_2600v2 msr + pci: sampling controls as encoded"
    "e5_2600v2 --backend pci: the global control is an MSR" "--cpu 1: the second socket's function"
    "REGC_SYSFS_ROOT" "--cpu 2: no such function" "a register past 256 bytes of config")

# The values the header says the controls must hold: event encoding | en (| ov_en when sampling).
cat >"$tmp/want.c" <<'EOF'
#include <stdio.h>
#include "e5_2600.h"
#include "e5_2600v2.h"
#define P(name, v) printf("%s=0x%llx\n", name, (unsigned long long)(v))
int main(void)
{
    P("v1_ha", E5_2600_EV_HA_REQUESTS_READS | E5_2600_HA_PCI_PMON_CTL_EN_MASK);
    P("v1_qpi", E5_2600_EV_QPI_CLOCKTICKS | E5_2600_Q_PY_PCI_PMON_CTL_EN_MASK);
    P("v2_ubox", E5_2600V2_EV_UBOX_EVENT_MSG_DOORBELL_RCVD | E5_2600V2_U_MSR_PMON_CTL_EN_MASK);
    P("v2_ha", E5_2600V2_EV_HA_REQUESTS_READS | E5_2600V2_HA_PCI_PMON_CTL_EN_MASK);
    P("v2_qpi", E5_2600V2_EV_QPI_TXL_FLITS_G0_DATA | E5_2600V2_Q_PY_PCI_PMON_CTL_EN_MASK);
    P("v2_ubox_s", E5_2600V2_EV_UBOX_EVENT_MSG_DOORBELL_RCVD | E5_2600V2_U_MSR_PMON_CTL_EN_MASK |
                       E5_2600V2_U_MSR_PMON_CTL_OV_EN_MASK);
    P("v2_ha_s", E5_2600V2_EV_HA_REQUESTS_READS | E5_2600V2_HA_PCI_PMON_CTL_EN_MASK |
                     E5_2600V2_HA_PCI_PMON_CTL_OV_EN_MASK);
    P("v2_qpi_s", E5_2600V2_EV_QPI_TXL_FLITS_G0_DATA | E5_2600V2_Q_PY_PCI_PMON_CTL_EN_MASK |
                      E5_2600V2_Q_PY_PCI_PMON_CTL_OV_EN_MASK);
    return 0;
}
EOF
if ! $CC -std=c99 -Igenerated -o "$tmp/want" "$tmp/want.c" 2>"$tmp/cc.err"; then
    for t in "${fuse_tests[@]}"; do tap_fail "$t" "cannot compile the expected values: $(head -3 "$tmp/cc.err")"; done
    tap_done
    exit 0
fi
eval "$("$tmp/want")"

pcifs_mount e5_2600 "$tmp/m1"
if [ -n "$pcifs_why" ]; then
    for t in "${fuse_tests[@]}"; do tap_skip "$t" "$pcifs_why"; done
    tap_done
    exit 0
fi

# Column sums over intervals 2 and on ("N N ..." for events 1..$nev): what the ticks made.
sums() { awk -v n="$nev" 'NR > 2 { for (c = 1; c <= n; c++) s[c] += $(c + 1) }
    END { for (c = 1; c <= n; c++) printf "%s%d", (c > 1 ? " " : ""), s[c] }' "$tmp/out"; }

# Runs regctl ARGS (a monitor of $nev events, many short intervals) in the background into
# $tmp/out; once it has printed interval 1, sends the commands of $ticks (";"-separated) to
# pcifs's control file as one deferred group ("defer 1" ... "defer 0", simctl.h); once the sums
# are $expect (or 3000 polls, 150 s or more, have passed: a guard against a hang, not a verdict),
# interrupts it, which ends the run as a user's ^C does (exit 130, boxes restored). Its status.
# Why deferred: each poll freezes the boxes, reads them and unfreezes them, and a counter under
# the freeze rightly counts nothing (the model is the hardware), so a plain tick that reaches
# pcifs inside that window is lost and its column sums short; on a loaded machine regctl may be
# descheduled inside it (seen: the U-Box column 0 of 500). Held, the group runs in one piece
# inside pcifs: on "defer 0" if nothing it ticks is frozen, else right after the write that ends
# the freeze, before regctl's next access; so every tick is counted, each exactly once (pcifs
# serves one request at a time), in a poll after interval 1 whenever the shell gets to send it.
# The ticks of counters regctl left off (each box's counters are all ticked: which one regctl
# takes is its choice) hold nothing back and count nothing, as before. "batch" is no substitute:
# it only puts off the freezes the group's own overflows cause, not the one regctl holds.
ticked() {
    : >"$tmp/out"
    "$REGCTL" "$@" --interval 100ms --count 100000 >"$tmp/out" 2>"$tmp/err" &
    rpid=$!
    wait_for "$tmp/out" '^  *1 ' "$rpid"
    local t
    IFS=';' read -ra t <<<"defer 1;$ticks;defer 0"
    for one in "${t[@]}"; do pcifs_cmd "$one"; done
    for _ in $(seq 3000); do [ "$(sums)" = "$expect" ] && break; kill -0 "$rpid" 2>/dev/null || break; sleep 0.05; done
    kill -INT "$rpid"
    wait "$rpid"
    local rc=$?
    rpid=""
    return $rc
}

# counted I ARGS...: ticked ARGS...; test fuse_tests[I]: the run ends as interrupted (130) with
# the sums $expect
counted() {
    local i=$1 rc
    shift
    ticked "$@"
    rc=$?
    if [ $rc = 130 ] && [ "$(sums)" = "$expect" ]; then tap_ok "${fuse_tests[$i]}"
    else tap_fail "${fuse_tests[$i]}" "exit $rc, sums $(sums), want $expect" "$(tail -3 "$tmp/out")" "$(cat "$tmp/err")"; fi
}

# The non-zero values written to the counter controls at OFFSETs of BDF (sorted, unique).
controls() {
    local bdf=$1 off
    shift
    for off in "$@"; do pcifs_written "$bdf" "$off"; done | grep -v '^0x0$' | sort -u | tr '\n' ' '
}
hex() { printf '0x%x ' "$@"; }

# ---- E5-2600: PCI boxes through --backend pci alone (no global control)
HA1=0000:7f:0e.1 QPI0=0000:7f:08.2
ticks="tick ha - 0 0 1000;tick ha - 0 1 1000;tick ha - 0 2 1000;tick ha - 0 3 1000;tick qpi qpi0 0 0 2000;tick qpi qpi0 0 1 2000;tick qpi qpi0 0 2 2000;tick qpi qpi0 0 3 2000"
nev=2 expect="1000 2000"
counted 0 --force-cpu --backend pci --sysfs-root "$pcifs_mnt" monitor e5_2600 'ha:REQUESTS.READS' 'qpi[qpi0]:CLOCKTICKS' \
    --lock-dir "$tmp"
got="$(controls $HA1 0xd8 0xdc 0xe0 0xe4)| $(controls $QPI0 0xd8 0xdc 0xe0 0xe4)"
want="$(hex "$v1_ha")| $(hex "$v1_qpi")"
if [ "$got" = "$want" ]; then tap_ok "${fuse_tests[1]}"; else tap_fail "${fuse_tests[1]}" "got:  $got" "want: $want"; fi
pcifs_unmount

# ---- E5-2600 v2: msr (pcifs's cpu/0/msr) and pci in one session, one package
pcifs_mount e5_2600v2 "$tmp/m2" --cpus 1 --sockets 2
R=(--sysfs-root "$pcifs_mnt" --msr-root "$pcifs_mnt/cpu")
EV=('ubox:EVENT_MSG.DOORBELL_RCVD' 'ha[ha0]:REQUESTS.READS' 'qpi[p1]:TxL_FLITS_G0.DATA')
HA0=0000:7f:0e.1 QPI1=0000:7f:09.2
msr_controls() { awk '$1 == "W" && $2 == "0" && ($3 == "0xc10" || $3 == "0xc11") && $4 != "0x0" { print $4 }' "$pcifs_log" | sort -u | tr '\n' ' '; }
ticks="tick ubox - 0 0 500;tick ubox - 0 1 500;tick ha ha0 0 0 1000;tick ha ha0 0 1 1000;tick ha ha0 0 2 1000;tick ha ha0 0 3 1000;tick qpi p1 0 0 2000;tick qpi p1 0 1 2000;tick qpi p1 0 2 2000;tick qpi p1 0 3 2000"
nev=3 expect="500 1000 2000"
counted 2 "${R[@]}" monitor e5_2600v2 "${EV[@]}" --lock-dir "$tmp"
got="$(msr_controls)| $(controls $HA0 0xd8 0xdc 0xe0 0xe4)| $(controls $QPI1 0xd8 0xdc 0xe0 0xe4)"
want="$(hex "$v2_ubox")| $(hex "$v2_ha")| $(hex "$v2_qpi")"
if [ "$got" = "$want" ]; then tap_ok "${fuse_tests[3]}"; else tap_fail "${fuse_tests[3]}" "got:  $got" "want: $want"; fi

: >"$pcifs_log"
# one batch: the ticks overflow all three counters in one cycle, before the global freeze the
# first overflow causes (freeze on overflow, ov_en set while sampling) would stop the others
ticks="batch 1;tick ubox - 0 0 1001;tick ubox - 0 1 1001;tick ha ha0 0 0 1001;tick ha ha0 0 1 1001;tick ha ha0 0 2 1001;tick ha ha0 0 3 1001;tick qpi p1 0 0 1001;tick qpi p1 0 1 1001;tick qpi p1 0 2 1001;tick qpi p1 0 3 1001;batch 0"
expect="1 1 1"
counted 4 "${R[@]}" monitor e5_2600v2 "${EV[@]}" --sample 1000 --lock-dir "$tmp"
got="$(msr_controls)| $(controls $HA0 0xd8 0xdc 0xe0 0xe4)| $(controls $QPI1 0xd8 0xdc 0xe0 0xe4)"
want="$(hex "$v2_ubox_s")| $(hex "$v2_ha_s")| $(hex "$v2_qpi_s")"
if [ "$got" = "$want" ]; then tap_ok "${fuse_tests[5]}"; else tap_fail "${fuse_tests[5]}" "got:  $got" "want: $want"; fi

err=$("$REGCTL" --force-cpu --backend pci --sysfs-root "$pcifs_mnt" monitor e5_2600v2 'ha[ha0]:REQUESTS.READS' \
    --interval 0 --count 1 --lock-dir "$tmp" 2>&1)
rc=$?
if [ $rc = 1 ] && echo "$err" | grep -q "ubox.U_MSR_PMON_GLOBAL_CTL.*the backend cannot reach this address space"
then tap_ok "${fuse_tests[6]}"; else tap_fail "${fuse_tests[6]}" "exit $rc: $err"; fi

# ---- the second socket: the second function that matches, on bus 0xff
: >"$pcifs_log"
"$REGCTL" --force-cpu --backend pci --sysfs-root "$pcifs_mnt" --cpu 1 write e5_2600v2.ha.ha0.HA_PCI_PMON_CTL0 ev_sel=0x1 umask=0x3 >/dev/null
log=$(cat "$pcifs_log")
# (regctl write reads the register back)
if [ "$log" = "W 0000:ff:0e.1 0xd8 4 0x301 0
R 0000:ff:0e.1 0xd8 4 0x301 0" ] && [ "$(pcifs_config 0000:7f:0e.1 0xd8)" = 0x00000000 ]
then tap_ok "${fuse_tests[7]}"; else tap_fail "${fuse_tests[7]}" "$log"; fi
out=$(REGC_SYSFS_ROOT=$pcifs_mnt "$REGCTL" --force-cpu --backend pci --cpu 1 --json read e5_2600v2.ha.ha0.HA_PCI_PMON_CTL0)
if echo "$out" | grep -q '"value": "0x301"'; then tap_ok "${fuse_tests[8]}"; else tap_fail "${fuse_tests[8]}" "$out"; fi
err=$("$REGCTL" --force-cpu --backend pci --sysfs-root "$pcifs_mnt" --cpu 2 read e5_2600v2.ha.ha0.HA_PCI_PMON_CTL0 2>&1)
rc=$?
if [ $rc = 1 ] && echo "$err" | grep -q "no PCI device matches the instance's locator"
then tap_ok "${fuse_tests[9]}"; else tap_fail "${fuse_tests[9]}" "exit $rc: $err"; fi
pcifs_unmount

# ---- no PCIe extended configuration space
pcifs_mount e5_2600v2 "$tmp/m3" --config-size 256
err=$("$REGCTL" --force-cpu --backend pci --sysfs-root "$pcifs_mnt" write e5_2600v2.qpimm.p0.Q_Py_PCI_PMON_PKT_MATCH0 VNW=1 2>&1)
rc=$?
want="regctl: writing 'qpimm.p0.Q_Py_PCI_PMON_PKT_MATCH0' (pci offset 0x228, cpu 0) failed: offset 0x228 is past the end of 0000:7f:08.6's configuration space (256 bytes;"
case "$err" in "$want"*) ok=$rc ;; *) ok=x ;; esac
if [ "$ok" = 1 ]; then tap_ok "${fuse_tests[10]}"; else tap_fail "${fuse_tests[10]}" "exit $rc: $err"; fi
tap_done
