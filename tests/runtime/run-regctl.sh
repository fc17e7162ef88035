#!/usr/bin/env bash
# run-regctl.sh - regctl's output (golden files for list, read, write --dry-run,
# --json), its exit statuses and messages, and regctl on the msr backend
# through the kernel with tests/tools/msrfs mounted in a temporary directory.
# Uses the generated e5_2600 tables; UPDATE_GOLDEN=1 rewrites the golden files.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/golden.sh
. tests/runtime/regctl.sh
. tests/runtime/msrfs.sh
tmp=$(mktemp -d)
cleanup() {
    msrfs_unmount
    rm -rf "$tmp"
}
# a signal from outside ends the script (tests/run.sh reports its status); a trap that only
# cleaned up would let it run on without its scratch directory
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

regctl_needs e5_2600 "regctl golden output"


golden list-ubox 0 list e5_2600.ubox
golden read-sim 0 --backend sim read e5_2600.ubox.U_MSR_PMON_CTL1
golden read-json 0 --backend sim --json read e5_2600.ubox.U_MSR_PMON_CTR0
golden write-dry-run 0 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 ev_sel=0x42 umask=0x08 en=1
golden write-rmw-dry-run 0 --dry-run --rmw --cpu 3 write e5_2600.ubox.U_MSR_PMON_CTL1 umask=0x1
golden list-imc 0 list e5_2600.imc
golden read-instance-dry-run 0 --dry-run read e5_2600.cbox.cbox3.Cn_MSR_PMON_CTL1
golden write-pci-dry-run 0 --dry-run --cpu 1 write e5_2600.imc.imc2.MC_CHy_PCI_PMON_CTL3 ev_sel=0x4 umask=0x3 en=1
golden write-sim 0 --backend sim write e5_2600.ubox.U_MSR_PMON_CTL0 ev_sel=0x42 invert=LT thresh=1
golden write-refused-rule 1 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 ev_sel=0x42 invert=1
golden write-refused-mbz 1 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 'rsv[31:29]=1'
golden write-bad-field 2 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 nosuch=1
golden write-too-wide 2 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 umask=0x100
golden write-bad-value 2 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 invert=MAYBE
golden read-bad-path 2 read e5_2600.ubox.NOPE0
golden read-no-spec 2 read nospec.ubox.X
golden bad-backend 2 --backend usb read e5_2600.ubox.U_MSR_PMON_CTL0
golden usage 2 frobnicate

# ---- "did you mean" for names that name nothing (regc/suggest.h); far names get no guess
golden read-typo-spec 2 read e5_260.ubox.U_MSR_PMON_CTL0
golden read-typo-block 2 read e5_2600.uboxx.U_MSR_PMON_CTL0
golden read-typo-instance 2 --dry-run read e5_2600.cbox.cbx3.Cn_MSR_PMON_CTL1
golden read-tie-instance 2 --dry-run read e5_2600.cbox.cbox9.Cn_MSR_PMON_CTL1
golden read-typo-reg 2 read e5_2600.ubox.U_MSR_PMON_CLT0
golden read-typo-reg-index 2 read 'e5_2600.ubox.U_MSR_PMON_CTLL[1]'
golden read-typo-reg-case 2 read e5_2600.ubox.u_msr_pmon_ctl0
golden read-no-path 2 read e5_2600
golden write-typo-field 2 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 umsk=1
golden write-typo-field-case 2 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 EV_SEL=1
golden list-typo-spec 2 list e5_260
golden list-typo-block 2 list e5_2600.ubx

# ---- write: actions, read-only fields, fields that share a name (sim backend and dry runs)
golden write-pulse-sim 0 --backend sim write e5_2600.ubox.U_MSR_PMON_CTL0 ev_sel=0x42 umask=0x08 en=1 rst=1
golden write-clear-sim 0 --backend sim write e5_2600v2.ubox.U_MSR_PMON_GLOBAL_STATUS ov_u_fixed=1 ov_c=0x5
golden write-clear-json 0 --backend sim --json write e5_2600v2.ubox.U_MSR_PMON_BOX_STATUS ov=3
golden write-clear-dry-run 0 --dry-run write e5_2600v2.ubox.U_MSR_PMON_GLOBAL_STATUS ov_u_fixed=1
golden write-dry-run-json 0 --dry-run --json write e5_2600.ubox.U_MSR_PMON_CTL0 ev_sel=0x42 rst=1
# levels: states, never pulses (the E5-2600's frz freezes only with frz_en, 327043 Table 2-9)
golden write-frz-json 0 --backend sim --json write e5_2600v2.cbox.Cn_MSR_PMON_BOX_CTL frz=1
golden write-frz-no-en-dry-run 0 --dry-run write e5_2600.cbox.Cn_MSR_PMON_BOX_CTL frz=1
golden write-frz-en-sim 0 --backend sim write e5_2600.cbox.Cn_MSR_PMON_BOX_CTL frz=1 frz_en=1 rst_ctrs=1
golden write-refused-ro-v 1 --backend sim write xeon7500_mbox.mbox.M_MSR_PERF_GLOBAL_STATUS ov=3
golden write-refused-ro-zero 1 --backend sim write xeon7500_mbox.mbox.M_MSR_PMU_TIMESTAMP timestamp=0
golden write-refused-ro 1 --backend sim write snb_client.unc.MSR_UNC_CBO_CONFIG CBox=4
golden write-forced-ro-v 0 --backend sim write xeon7500_mbox.mbox.M_MSR_PERF_GLOBAL_STATUS ov=3 --force
golden write-refused-ig 1 --backend sim write xeon7500_mbox.mbox.M_MSR_PMU_CNT_CTL0 'ig[63]=1'
golden write-forced-ig 0 --backend sim write --force xeon7500_mbox.mbox.M_MSR_PMU_CNT_CTL0 'ig[63]=1'
golden write-ambiguous 2 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 rsv=0
golden write-ambiguous-ig 2 --dry-run write --force xeon7500_mbox.mbox.M_MSR_PMU_CNT_CTL0 ig=1
golden write-no-such-bits 2 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 'rsv[30:29]=0'
golden write-bad-bits 2 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 'rsv[19:x]=0'
golden write-named-bits 0 --backend sim write e5_2600.ubox.U_MSR_PMON_CTL0 'rsv[19]=0' 'umask[15:8]=0x8' ev_sel=0x42
golden write-twice 2 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 umask=1 'umask[15:8]=2'
golden write-not-assign 2 --dry-run write e5_2600.ubox.U_MSR_PMON_CTL0 umask
golden write-bad-option 2 write --frc e5_2600.ubox.U_MSR_PMON_CTL0 en=1
golden write-no-fields 2 write e5_2600.ubox.U_MSR_PMON_CTL0

# ---- write on devices that do not behave as the spec says: what is read back is what is told
# (a fake msr root: /dev/zero drops writes and reads 0, /dev/null fails reads, a file keeps every bit)
for d in zero null ram; do mkdir -p "$tmp/$d/0"; done
ln -s /dev/zero "$tmp/zero/0/msr"
ln -s /dev/null "$tmp/null/0/msr"
head -c 8192 /dev/zero >"$tmp/ram/0/msr"
golden write-not-kept 1 --force-cpu --msr-root "$tmp/zero" write e5_2600.ubox.U_MSR_PMON_CTL0 ev_sel=0x42 en=1
golden write-counter-note 0 --force-cpu --msr-root "$tmp/zero" write e5_2600.ubox.U_MSR_PMON_CTR0 event_count=5
golden write-read-back-fails 1 --force-cpu --msr-root "$tmp/null" write e5_2600v2.ubox.U_MSR_PMON_CTL0 ev_sel=0x1 rst=1
golden write-not-cleared 1 --force-cpu --msr-root "$tmp/ram" write e5_2600v2.ubox.U_MSR_PMON_GLOBAL_STATUS ov_u_fixed=1

# ---- the bits of those writes, against the generated headers' macros
# hdr_values: h_NAME=VALUE for each expression below, computed by the C compiler from generated/*.h
cat >"$tmp/hdr.c" <<'EOF'
#include <stdio.h>
#include "e5_2600.h"
#include "e5_2600v2.h"
#include "xeon7500_mbox.h"
#define P(name, expr) printf("h_%s=0x%llx\n", #name, (unsigned long long)(expr))
int main(void)
{
    P(pulse, E5_2600_U_MSR_PMON_CTL_EV_SEL_VAL(0x42) | E5_2600_U_MSR_PMON_CTL_UMASK_VAL(0x08) |
                 E5_2600_U_MSR_PMON_CTL_EN_MASK | E5_2600_U_MSR_PMON_CTL_RST_MASK);
    P(pulse_back, (E5_2600_U_MSR_PMON_CTL_EV_SEL_VAL(0x42) | E5_2600_U_MSR_PMON_CTL_UMASK_VAL(0x08) |
                   E5_2600_U_MSR_PMON_CTL_EN_MASK | E5_2600_U_MSR_PMON_CTL_RST_MASK) &
                      ~E5_2600_U_MSR_PMON_CTL_WO_MASK);
    P(clear, E5_2600V2_U_MSR_PMON_GLOBAL_STATUS_OV_U_FIXED_MASK |
                 E5_2600V2_U_MSR_PMON_GLOBAL_STATUS_OV_C_VAL(0x5));
    P(gs_w1c, E5_2600V2_U_MSR_PMON_GLOBAL_STATUS_W1C_MASK);
    P(box_ov0, E5_2600V2_U_MSR_PMON_BOX_STATUS_OV_VAL(1));
    P(v2_ctl, E5_2600V2_U_MSR_PMON_CTL_EV_SEL_VAL(0x1) | E5_2600V2_U_MSR_PMON_CTL_EN_MASK |
                  E5_2600V2_U_MSR_PMON_CTL_OV_EN_MASK);
    P(v2_ctl_rst, E5_2600V2_U_MSR_PMON_CTL_EV_SEL_VAL(0x1) | E5_2600V2_U_MSR_PMON_CTL_EN_MASK |
                      E5_2600V2_U_MSR_PMON_CTL_RST_MASK);
    P(v2_ctl_rst_back, (E5_2600V2_U_MSR_PMON_CTL_EV_SEL_VAL(0x1) | E5_2600V2_U_MSR_PMON_CTL_EN_MASK |
                        E5_2600V2_U_MSR_PMON_CTL_RST_MASK) &
                           ~E5_2600V2_U_MSR_PMON_CTL_WO_MASK);
    P(v2_ctr_max, E5_2600V2_U_MSR_PMON_CTR_EVENT_COUNT_MASK);
    P(v2_frz, E5_2600V2_CN_MSR_PMON_BOX_CTL_FRZ_MASK | E5_2600V2_CN_MSR_PMON_BOX_CTL_MB1_MASK);
    P(v2_frz_rst, E5_2600V2_CN_MSR_PMON_BOX_CTL_FRZ_MASK | E5_2600V2_CN_MSR_PMON_BOX_CTL_MB1_MASK |
                      E5_2600V2_CN_MSR_PMON_BOX_CTL_RST_CTRS_MASK);
    P(v2_unfrz, E5_2600V2_CN_MSR_PMON_BOX_CTL_MB1_MASK);
    P(mbox_ov3, XEON7500_M_MSR_PERF_GLOBAL_STATUS_OV_VAL(3));
    P(mbox_ig, XEON7500_M_MSR_PMU_CNT_CTL_IGNORED_MASK);
    return 0;
}
EOF
if ! out=$(${CC:-cc} -std=c99 -Igenerated -o "$tmp/hdr" "$tmp/hdr.c" 2>&1) || ! "$tmp/hdr" >"$tmp/hdr.sh"; then
    tap_fail "header values for the write tests" "$out"
fi
. "$tmp/hdr.sh"
# wrote_is NAME OUTFILE WANT [BACK]: OUTFILE's "wrote ... <- V" is WANT and "read back ... = V" BACK
wrote_is() {
    local w b
    w=$(sed -n 's/^wrote .* <- \(0x[0-9a-f]*\)$/\1/p' "$2")
    b=$(sed -n 's/^read back .* = \(0x[0-9a-f]*\)$/\1/p' "$2")
    if [ -n "$w" ] && [ $((w)) = $(($3)) ] && { [ -z "${4:-}" ] || { [ -n "$b" ] && [ $((b)) = $(($4)) ]; }; }
    then tap_ok "$1"; else tap_fail "$1" "wrote '$w' read back '$b', header: $3 ${4:-}"; fi
}
wrote_is "pulse: the value written is the header's, rst reads 0 (WO)" "$tmp/write-pulse-sim.out" "$h_pulse" "$h_pulse_back"
wrote_is "clear: ov_u_fixed and ov_c bits 0, 2 at the header's places" "$tmp/write-clear-sim.out" "$h_clear" 0
if [ $((h_clear & ~h_gs_w1c)) = 0 ]; then tap_ok "clear: every bit written is in the header's W1C mask"; else tap_fail "clear: every bit written is in the header's W1C mask"; fi
wrote_is "forced RO-V: the header's ov bits written, read back 0" "$tmp/write-forced-ro-v.out" "$h_mbox_ov3" 0
w=$(sed -n 's/^wrote .* <- \(0x[0-9a-f]*\)$/\1/p' "$tmp/write-forced-ig.out")
if [ -n "$w" ] && [ $((w)) != 0 ] && [ $((w & ~h_mbox_ig)) = 0 ] && [ $((w & (w - 1))) = 0 ] && [ $((w & h_mbox_ig)) -lt 0 ]; then
    tap_ok "forced ig[63]: one bit written, the header's top ignored bit"
else tap_fail "forced ig[63]: one bit written, the header's top ignored bit" "wrote '$w', ignored mask $h_mbox_ig"; fi
for t in write-refused-ro-v write-refused-ro-zero write-refused-ro write-refused-ig; do
    if grep -q '^would\|^wrote' "$tmp/$t.out"; then tap_fail "$t: nothing written" "$(cat "$tmp/$t.out")"; else tap_ok "$t: nothing written"; fi
done

if "$REGCTL" list | grep -q '^e5_2600 '; then tap_ok "list names e5_2600"; else tap_fail "list names e5_2600"; fi
if "$REGCTL" --json list | grep -q '"spec": "e5_2600"'; then tap_ok "list --json"; else tap_fail "list --json"; fi
# regctl_fail (runtime/regctl/fail.c) formats a message in an 8 KiB buffer; a longer one (a huge
# argument) is printed whole all the same, on one line, with the same exit status
long=$(printf 'x%.0s' $(seq 9000))
"$REGCTL" detect "$long" >/dev/null 2>"$tmp/long.err"
rc=$?
want="regctl: detect takes no arguments, not '$long' (see 'regctl detect --help')"
if [ $rc = 2 ] && [ "$(cat "$tmp/long.err")" = "$want" ] && [ "$(wc -l <"$tmp/long.err")" = 1 ]; then
    tap_ok "a 9,000-character argument's message is printed whole"
else tap_fail "a 9,000-character argument's message is printed whole" "exit $rc" "$(head -c 300 "$tmp/long.err")"; fi

# ---- the pci backend on a stand-in sysfs tree (iMC channel 2: 8086:3cb4, device 16 function 4)
dev=$tmp/sys/bus/pci/devices/0000:7f:10.4
mkdir -p "$dev"
printf '0x8086\n' >"$dev/vendor"; printf '0x3cb4\n' >"$dev/device"
head -c 256 /dev/zero >"$dev/config"
"$REGCTL" --force-cpu --sysfs-root "$tmp/sys" write e5_2600.imc.imc2.MC_CHy_PCI_PMON_CTL3 ev_sel=0x4 umask=0x3 en=1 >/dev/null
got=$(od -An -tx4 -j $((0xe4)) -N4 "$dev/config" | tr -d ' ')
if [ "$got" = 00400304 ]; then tap_ok "pci write lands at config offset 0xe4"; else tap_fail "pci write lands at config offset 0xe4" "got $got"; fi
out=$(REGC_SYSFS_ROOT=$tmp/sys "$REGCTL" --force-cpu --json read e5_2600.imc.imc2.MC_CHy_PCI_PMON_CTL3)
if echo "$out" | grep -q '"value": "0x400304"'; then tap_ok "pci read back"; else tap_fail "pci read back" "$out"; fi
err=$("$REGCTL" --force-cpu --sysfs-root "$tmp/sys" read e5_2600.imc.imc0.MC_CHy_PCI_PMON_CTL0 2>&1)
if [ $? = 1 ] && echo "$err" | grep -q "no PCI device matches"; then tap_ok "pci: absent device"; else tap_fail "pci: absent device" "$err"; fi

# ---- the msr backend through the kernel (FUSE)
msrfs_mount e5_2600 2 "$tmp/mnt" --log "$tmp/log"
why=$msrfs_why
if [ -n "$why" ]; then
    for t in "write through msrfs" "write reads back through msrfs" "read back through msrfs" "rmw through msrfs (read, write, read back)" "EIO through msrfs"; do tap_skip "$t" "$why"; done
else
    root=$mnt/cpu
    if "$REGCTL" --force-cpu --msr-root "$root" --cpu 1 write e5_2600.ubox.U_MSR_PMON_CTL0 ev_sel=0x42 umask=0x08 en=1 >/dev/null &&
        grep -q '^W 1 0xc10 0x400842 0$' "$tmp/log"; then tap_ok "write through msrfs"; else tap_fail "write through msrfs" "$(cat "$tmp/log")"; fi
    if tail -2 "$tmp/log" | tr '\n' ' ' | grep -q '^W 1 0xc10 0x400842 0 R 1 0xc10 0x400842 0 $'; then tap_ok "write reads back through msrfs"; else tap_fail "write reads back through msrfs" "$(tail -2 "$tmp/log")"; fi
    out=$(REGC_MSR_ROOT=$root "$REGCTL" --cpu 1 --json read e5_2600.ubox.U_MSR_PMON_CTL0)
    if echo "$out" | grep -q '"value": "0x400842"'; then tap_ok "read back through msrfs"; else tap_fail "read back through msrfs" "$out"; fi
    "$REGCTL" --force-cpu --msr-root "$root" --cpu 1 --rmw write e5_2600.ubox.U_MSR_PMON_CTL0 umask=0x1 >/dev/null
    if tail -3 "$tmp/log" | tr '\n' ' ' | grep -q 'R 1 0xc10 0x400842 0 W 1 0xc10 0x400142 0 R 1 0xc10 0x400142 0'; then tap_ok "rmw through msrfs (read, write, read back)"; else tap_fail "rmw through msrfs (read, write, read back)" "$(tail -3 "$tmp/log")"; fi
    # msrfs serves a model; an MSR it lacks faults like a #GP
    msrfs_unmount
    msrfs_mount hand_ubox 1 "$tmp/mnt"
    err=$("$REGCTL" --force-cpu --msr-root "$root" read e5_2600.ubox.U_MSR_PMON_UCLK_FIXED_CTL 2>&1)
    rc=$?
    if [ $rc = 1 ] && echo "$err" | grep -q "the CPU refused the access"; then tap_ok "EIO through msrfs"; else tap_fail "EIO through msrfs" "exit $rc: $err"; fi
fi

# ---- write through the kernel (msrfs): a W1C clear and a WO pulse with their effects, RO fields
# log_tail NAME LOG LINE...: the last lines of an msrfs log ("W|R CPU ADDR VALUE RC") are LINE...
log_tail() {
    local name=$1 log=$2; shift 2
    local want got
    want=$(printf '%s\n' "$@"); got=$(tail -n $# "$log")
    if [ "$got" = "$want" ]; then tap_ok "$name"; else tap_fail "$name" "log: $got" "want: $want"; fi
}
msrfs_unmount
msrfs_mount e5_2600v2 1 "$tmp/mnt" --log "$tmp/log2"
if [ -n "$msrfs_why" ]; then
    for t in "msrfs: an overflow sets the box status" "msrfs: W1C clear" "msrfs: W1C clear, log" "msrfs: WO pulse" "msrfs: WO pulse clears the counter" \
        "msrfs: W1C of a clear bit names nothing" "msrfs: frz=1 is a state, and reads back" "msrfs: --rmw rst_ctrs=1 keeps frz" \
        "msrfs: the box stays frozen until frz is written 0" "msrfs: frz=0 says the box is not frozen"; do tap_skip "$t" "$msrfs_why"; done
else
    M=(--force-cpu --msr-root "$mnt/cpu")
    # a counter overflow (ov_en set) sets its bit in the box status: the state a clear is for
    "$REGCTL" "${M[@]}" write e5_2600v2.ubox.U_MSR_PMON_CTL0 ev_sel=0x1 en=1 ov_en=1 >/dev/null
    "$REGCTL" "${M[@]}" write e5_2600v2.ubox.U_MSR_PMON_CTR0 "event_count=$h_v2_ctr_max" >/dev/null
    echo "tick ubox - 0 0 2" >"$mnt/sim"
    "$REGCTL" "${M[@]}" read e5_2600v2.ubox.U_MSR_PMON_BOX_STATUS >/dev/null
    log_tail "msrfs: an overflow sets the box status" "$tmp/log2" "$(printf 'R 0 0xc15 0x%x 0' $((h_box_ov0)))"
    "$REGCTL" "${M[@]}" write e5_2600v2.ubox.U_MSR_PMON_BOX_STATUS ov=1 >"$tmp/clear.out" 2>&1
    rc=$?
    if [ $rc = 0 ] && grep -qx 'cleared ov bits 0x1' "$tmp/clear.out"; then wrote_is "msrfs: W1C clear" "$tmp/clear.out" "$h_box_ov0" 0
    else tap_fail "msrfs: W1C clear" "exit $rc" "$(cat "$tmp/clear.out")"; fi
    log_tail "msrfs: W1C clear, log" "$tmp/log2" "$(printf 'W 0 0xc15 0x%x 0' $((h_box_ov0)))" "R 0 0xc15 0x0 0"
    # the counter holds 1 after the wrap; rst (WO) clears it and reads 0 itself
    "$REGCTL" "${M[@]}" read e5_2600v2.ubox.U_MSR_PMON_CTR0 >/dev/null
    "$REGCTL" "${M[@]}" write e5_2600v2.ubox.U_MSR_PMON_CTL0 ev_sel=0x1 en=1 rst=1 >"$tmp/pulse.out" 2>&1
    rc=$?
    if [ $rc = 0 ] && grep -qx 'pulsed rst' "$tmp/pulse.out"; then wrote_is "msrfs: WO pulse" "$tmp/pulse.out" "$h_v2_ctl_rst" "$h_v2_ctl_rst_back"
    else tap_fail "msrfs: WO pulse" "exit $rc" "$(cat "$tmp/pulse.out")"; fi
    "$REGCTL" "${M[@]}" read e5_2600v2.ubox.U_MSR_PMON_CTR0 >/dev/null
    log_tail "msrfs: WO pulse clears the counter" "$tmp/log2" "R 0 0xc16 0x1 0" \
        "$(printf 'W 0 0xc10 0x%x 0' $((h_v2_ctl_rst)))" "$(printf 'R 0 0xc10 0x%x 0' $((h_v2_ctl_rst_back)))" "R 0 0xc16 0x0 0"
    # ov is clear now: a second clear names no bit (it clears nothing)
    "$REGCTL" "${M[@]}" write e5_2600v2.ubox.U_MSR_PMON_BOX_STATUS ov=1 >"$tmp/clear2.out" 2>&1
    rc=$?
    if [ $rc = 0 ] && ! grep -q 'cleared' "$tmp/clear2.out"; then tap_ok "msrfs: W1C of a clear bit names nothing"
    else tap_fail "msrfs: W1C of a clear bit names nothing" "exit $rc" "$(cat "$tmp/clear2.out")"; fi
    # frz is a level (329468 section 2.1.2: "set Cn_MSR_PMON_BOX_CTL.frz to 0" unfreezes): a
    # state, kept by --rmw of another field; the box stays frozen until frz is written 0
    B=e5_2600v2.cbox.Cn_MSR_PMON_BOX_CTL
    "$REGCTL" "${M[@]}" write e5_2600v2.ubox.U_MSR_PMON_GLOBAL_CTL unfrz_all=1 >/dev/null # the overflow's freeze
    "$REGCTL" "${M[@]}" write e5_2600v2.cbox.Cn_MSR_PMON_CTL0 ev_sel=0x0 en=1 >/dev/null
    "$REGCTL" "${M[@]}" write "$B" frz=1 >"$tmp/frz.out" 2>&1
    rc=$?
    if [ $rc = 0 ] && grep -qx 'box frozen: frz=1' "$tmp/frz.out" && ! grep -q pulsed "$tmp/frz.out"; then
        wrote_is "msrfs: frz=1 is a state, and reads back" "$tmp/frz.out" "$h_v2_frz" "$h_v2_frz"
    else tap_fail "msrfs: frz=1 is a state, and reads back" "exit $rc" "$(cat "$tmp/frz.out")"; fi
    echo "tick cbox c0 0 0 5" >"$mnt/sim"
    "$REGCTL" "${M[@]}" --rmw write "$B" rst_ctrs=1 >"$tmp/rmw.out" 2>&1
    rc=$?
    if [ $rc = 0 ] && grep -qx 'box frozen: frz=1' "$tmp/rmw.out"; then
        wrote_is "msrfs: --rmw rst_ctrs=1 keeps frz" "$tmp/rmw.out" "$h_v2_frz_rst" "$h_v2_frz"
    else tap_fail "msrfs: --rmw rst_ctrs=1 keeps frz" "exit $rc" "$(cat "$tmp/rmw.out")"; fi
    echo "tick cbox c0 0 0 5" >"$mnt/sim"
    "$REGCTL" "${M[@]}" read e5_2600v2.cbox.Cn_MSR_PMON_CTR0 >/dev/null
    "$REGCTL" "${M[@]}" --rmw write "$B" frz=0 >"$tmp/unfrz.out" 2>&1
    echo "tick cbox c0 0 0 5" >"$mnt/sim"
    "$REGCTL" "${M[@]}" read e5_2600v2.cbox.Cn_MSR_PMON_CTR0 >/dev/null
    log_tail "msrfs: the box stays frozen until frz is written 0" "$tmp/log2" "R 0 0xd16 0x0 0" \
        "$(printf 'R 0 0xd04 0x%x 0' $((h_v2_frz)))" "$(printf 'W 0 0xd04 0x%x 0' $((h_v2_unfrz)))" \
        "$(printf 'R 0 0xd04 0x%x 0' $((h_v2_unfrz)))" "R 0 0xd16 0x5 0"
    if grep -qx 'box not frozen: frz=0' "$tmp/unfrz.out"; then tap_ok "msrfs: frz=0 says the box is not frozen"
    else tap_fail "msrfs: frz=0 says the box is not frozen" "$(cat "$tmp/unfrz.out")"; fi
fi
msrfs_unmount
msrfs_mount xeon7500_mbox 1 "$tmp/mnt" --log "$tmp/log3"
if [ -n "$msrfs_why" ]; then
    for t in "msrfs: RO-V refused, nothing written" "msrfs: RO-V forced" "msrfs: RO-V forced, log"; do tap_skip "$t" "$msrfs_why"; done
else
    M=(--force-cpu --msr-root "$mnt/cpu")
    "$REGCTL" "${M[@]}" write xeon7500_mbox.mbox.M_MSR_PERF_GLOBAL_STATUS ov=3 >"$tmp/ro.out" 2>&1
    rc=$?
    if [ $rc = 1 ] && ! grep -q '^W' "$tmp/log3" && grep -q "is RO-V" "$tmp/ro.out"; then tap_ok "msrfs: RO-V refused, nothing written"
    else tap_fail "msrfs: RO-V refused, nothing written" "exit $rc" "$(cat "$tmp/ro.out" "$tmp/log3")"; fi
    "$REGCTL" "${M[@]}" write --force xeon7500_mbox.mbox.M_MSR_PERF_GLOBAL_STATUS ov=3 >"$tmp/ro.out" 2>&1
    rc=$?
    if [ $rc = 0 ] && grep -qx 'note: ov is RO-V: 0x3 written (--force), reads 0x0' "$tmp/ro.out"; then wrote_is "msrfs: RO-V forced" "$tmp/ro.out" "$h_mbox_ov3" 0
    else tap_fail "msrfs: RO-V forced" "exit $rc" "$(cat "$tmp/ro.out")"; fi
    log_tail "msrfs: RO-V forced, log" "$tmp/log3" "$(printf 'W 0 0xca1 0x%x 0' $((h_mbox_ov3)))" "R 0 0xca1 0x0 0"
fi
tap_done
