#!/usr/bin/env bash
# run-perf-lang.sh - `regctl monitor` in perf's language: perf event strings
# (PMU/TERM=VALUE,.../, the kernel's format names), perfmon/perf alias names in any case,
# regc's names in another case, and their errors (unknown PMU, unknown term, a value too
# wide for its format, perf's modifiers, an unknown alias, bits the spec reserves, a spec
# without built-in formats, the fixed event event=0xff on a type without a fixed counter).
#
# Each accepted form is checked against regc's own syntax: the --dry-run access list of
# the perf string or alias must equal, byte for byte, the one of the regc event it names
# (whose encodings tests/runtime/test_events_all.c proves against the generated header),
# and of the raw event with the same fields. Goldens in tests/runtime/golden/perf-lang-*.out
# (UPDATE_GOLDEN=1 rewrites them) keep the output and the exact messages.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/golden.sh
tap_setup tmp
. tests/runtime/regctl.sh
regctl_needs e5_2600v2 "regctl monitor in perf's language"

# same SPEC PERF_FORM REGC_FORM: the two dry runs write and read the same registers
same() {
    local spec=$1 perf=$2 regc=$3
    "$REGCTL" --dry-run monitor "$spec" "$perf" >"$tmp/a" 2>&1
    local ra=$?
    "$REGCTL" --dry-run monitor "$spec" "$regc" >"$tmp/b" 2>&1
    local rb=$?
    if [ $ra = 0 ] && [ $rb = 0 ] && cmp -s "$tmp/a" "$tmp/b"; then
        tap_ok "$spec: '$perf' programs what '$regc' does"
    else
        tap_fail "$spec: '$perf' programs what '$regc' does" "exit $ra / $rb" \
            "$(diff "$tmp/a" "$tmp/b" | head -n 8)"
    fi
}

same e5_2600 'uncore_ubox/event=0x42,umask=0x08/' 'ubox:EVENT_MSG.DOORBELL_RCVD'
same e5_2600 'UNC_U_EVENT_MSG.DOORBELL_RCVD' 'ubox:EVENT_MSG.DOORBELL_RCVD'
same e5_2600 'unc_u_event_msg.doorbell_rcvd' 'ubox:EVENT_MSG.DOORBELL_RCVD'
same e5_2600 'ubox:event_msg.doorbell_rcvd' 'ubox:EVENT_MSG.DOORBELL_RCVD'
same e5_2600 'uncore_ubox/event=0xff/' 'ubox:fixed'
same e5_2600 'uncore_cbox_5/event=0x0/' 'cbox[cbox5]:CLOCKTICKS'
same e5_2600 'cbox[cbox5]:unc_c_clockticks' 'cbox[cbox5]:CLOCKTICKS'
same e5_2600v2 'uncore_imc_2/event=0x04,umask=0x03/' 'imc[mc0_ch2]:CAS_COUNT.RD'
same e5_2600v2 'uncore_qpi_1/event=0x102,umask=0x3/' 'qpi[p1]:raw,reg=Q_Py_PCI_PMON_CTL,ev_sel=0x2,ev_sel_ext=0x1,umask=0x3'
same e5_2600v2 'uncore_ubox/event=0x42,umask=0x3,edge,thresh=1/' 'ubox:raw,reg=U_MSR_PMON_CTL,ev_sel=0x42,umask=0x3,edge_det=1,thresh=1'
same e5_2600v2 'uncore_cbox_1/event=0x34,umask=0x3,filter_state=0x1f,filter_nid=3/' \
    'cbox[c1]:raw,reg=Cn_MSR_PMON_CTL,ev_sel=0x34,umask=0x3,Cn_MSR_PMON_BOX_FILTER0.state=0x1f,Cn_MSR_PMON_BOX_FILTER1.nid=3'
same e5_2600 'uncore_pcu/event=0x80,occ_sel=1/' 'pcu:POWER_STATE_OCCUPANCY.CORES_C0'
same snb_client 'uncore_arb/event=0x80,umask=0x01/' 'arb:TRK_OCCUPANCY.ALL'

# The Sandy Bridge client's fixed counter, against the kernel (arch/x86/events/intel/
# uncore_snb.c, uncore.c; common/kpmu.h cites them): its perf string is uncore_cbox_0's
# UNCORE_FIXED_EVENT, event=0xff, alias clockticks; counting it writes what
# snb_uncore_msr_enable_event writes for the fixed index, SNB_UNC_CTL_EN (1 << 22), to
# SNB_UNC_FIXED_CTR_CTRL (0x394).
KFIX='uncore_cbox_0/event=0xff/'
out=$("$REGCTL" events --perf snb_client unc_clock.socket 2>&1)
if [ "$(echo "$out" | awk '{ print $1, $2 }')" = "$KFIX unc:CLOCK.SOCKET" ]; then
    tap_ok "events --perf: UNC_CLOCK.SOCKET is $KFIX"
else
    tap_fail "events --perf: UNC_CLOCK.SOCKET is $KFIX" "$out"
fi
for e in "$KFIX" 'uncore_cbox_0/clockticks/' 'uncore_cbox_0/event=0xff,umask=0/' UNC_CLOCK.SOCKET; do
    "$REGCTL" --dry-run monitor snb_client "$e" >"$tmp/a" 2>&1
    rc=$?
    w=$(awk '$1 == "write" && $3 == "msr" && $4 == "0x394" && $5 != "0x0" { print $5 }' "$tmp/a")
    if [ $rc = 0 ] && [ "$w" = 0x400000 ]; then tap_ok "snb_client '$e' writes 1 << 22 to 0x394"; else
        tap_fail "snb_client '$e' writes 1 << 22 to 0x394" "exit $rc" "$(cat "$tmp/a")"; fi
    out=$("$REGCTL" --backend sim monitor snb_client "$e" --interval 0 --count 2 \
        --sim-rate unc:CLOCK.SOCKET=1234 2>&1)
    if [ "$(echo "$out" | awk 'NR > 1 { print $2 }' | tr '\n' ' ')" = "1234 1234 " ]; then
        tap_ok "sim: '$e' counts UNC_CLOCK.SOCKET's rate"
    else
        tap_fail "sim: '$e' counts UNC_CLOCK.SOCKET's rate" "$out"
    fi
done
golden perf-lang-fixed-cbox1 2 --backend sim monitor snb_client 'uncore_cbox_1/event=0xff/'

# A type without a fixed counter: the kernel takes config 0xff as UNCORE_FIXED_EVENT whatever
# config1 holds, and refuses it there (uncore.c uncore_pmu_event_init: "no fixed counter",
# -EINVAL; common/kpmu.h cites it): refused here too, not taken as event code 0xff. With
# another bit of config (umask) it is a general event the kernel takes; on the E5 iMC (a
# fixed counter: snbep_uncore_imc .fixed_ctl) it is the fixed counter.
golden perf-lang-fixed-arb 2 --backend sim monitor snb_client 'uncore_arb/event=0xff/'
golden perf-lang-fixed-e5-cbox 2 --backend sim monitor e5_2600 'uncore_cbox_3/event=0xff,filter_nid=1/'
golden perf-lang-fixed-v2-ha 2 --backend sim monitor e5_2600v2 'uncore_ha_1/event=0xff/'
same e5_2600 'uncore_cbox_0/event=0xff,umask=0x1/' 'cbox[cbox0]:raw,reg=Cn_MSR_PMON_CTL,ev_sel=0xff,umask=0x1'
same e5_2600 'uncore_imc_0/event=0xff/' 'imc[imc0]:fixed'
golden perf-lang-fixed-cbox1-alias 2 --backend sim monitor snb_client 'uncore_cbox_2/clockticks/'

golden perf-lang-dry-run 0 --dry-run monitor e5_2600v2 'unc_u_event_msg.doorbell_rcvd' \
    'uncore_cbox_1/event=0x34,umask=0x3,filter_state=0x1f,filter_nid=3/'
golden perf-lang-sim 0 --backend sim monitor e5_2600 'uncore_ubox/event=0x42,umask=0x08/' \
    'cbox[cbox2]:UNC_C_CLOCKTICKS' --interval 0 --count 1 \
    --sim-rate 'uncore_ubox/event=0x42,umask=0x08/=5' --sim-rate 'cbox[cbox2]:UNC_C_CLOCKTICKS=7'
golden perf-lang-no-pmu 2 --backend sim monitor e5_2600 'uncore_foo/event=1/'
golden perf-lang-no-term 2 --backend sim monitor e5_2600 'uncore_ubox/evnt=1/'
golden perf-lang-too-wide 2 --backend sim monitor e5_2600 'uncore_ubox/event=0x100/'
golden perf-lang-modifier 2 --backend sim monitor e5_2600 'uncore_ubox/event=1/u'
golden perf-lang-bad-value 2 --backend sim monitor e5_2600 'uncore_ubox/event=zz/'
golden perf-lang-no-alias 2 --backend sim monitor e5_2600 'unc_u_no_such.event'
golden perf-lang-reserved 2 --backend sim monitor e5_2600v2 'uncore_ha_0/event=1,inv/'
golden perf-lang-no-formats 2 --backend sim monitor xeon7500_mbox 'uncore_mbox_0/event=1/'
tap_done
