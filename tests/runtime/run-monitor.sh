#!/usr/bin/env bash
# run-monitor.sh - `regctl monitor`: per-interval counts on the sim backend with injected
# rates (counts that wrap included), --json, sampling, the --dry-run access list (the
# E5-2600 v2 QPI sampling example of guide 329468 section 2.1.2, with the reads of the
# sharing check first and the restore last), counting down and up and down (Xeon 7500
# M-Box), and its errors.
# Golden files in tests/runtime/golden/monitor-*.out; UPDATE_GOLDEN=1 rewrites them.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/golden.sh
. tests/runtime/regctl.sh
tap_setup tmp

regctl_needs e5_2600v2 "regctl monitor"


Q='qpi[p0]:TxL_FLITS_G0.DATA'
U='ubox:EVENT_MSG.DOORBELL_RCVD'
# 2^43 + 5 per interval into a 44-bit counter: it wraps every other interval
golden monitor-poll 0 --backend sim monitor e5_2600v2 "$Q" "$U" --interval 0 --count 4 \
    --sim-rate "$Q=1000" --sim-rate "$U=8796093022213"
golden monitor-json 0 --backend sim --json monitor e5_2600v2 "$Q" "cbox[c2]:CLOCKTICKS" --interval 0 \
    --count 2 --sim-rate "$Q=7" --sim-rate "cbox[c2]:CLOCKTICKS=1000000"
golden monitor-sample 0 --backend sim monitor e5_2600v2 "$Q" "ha[ha1]:REQUESTS.READS" --sample 1000 \
    --interval 0 --count 3 --sim-rate "$Q=1001" --sim-rate "ha[ha1]:REQUESTS.READS=10"
# seed 004: "set Q_P0_PCI_PMON_CTR1 to (2^48 - 1000), CTL1.ev_sel 0x0, .umask 0x1, pmi_core_sel"
golden monitor-dry-run 0 --dry-run monitor e5_2600v2 \
    "qpi[p0]:raw,reg=Q_Py_PCI_PMON_CTL,ev_sel=0x0,umask=0x1,ctr=1" --sample 1000 --pmi-core 0x4
golden monitor-dry-run-e5 0 --dry-run monitor e5_2600 "$U" "cbox[cbox0]:CLOCKTICKS"
golden monitor-bad-event 2 --backend sim monitor e5_2600v2 "qpi[p7]:CLOCKTICKS"
# three events on the U-Box's two counters (three sub-events: identical requests would share one)
golden monitor-busy 1 --backend sim monitor e5_2600v2 "$U" ubox:EVENT_MSG.INT_PRIO \
    ubox:EVENT_MSG.IPI_RCVD --no-multiplex
golden monitor-rate-no-sim 2 monitor e5_2600v2 "$U" --sim-rate "$U=1"
golden monitor-bad-interval 2 --backend sim monitor e5_2600v2 "$U" --interval soon
# the clock: 300 occurrences in 1000 cycles leave 700 idle cycles (thresh=1,invert=1) and rise
# 300 times (edge_det: they lie apart), per interval
C='cbox[cbox1]:CLOCKTICKS'
golden monitor-clock 0 --backend sim monitor e5_2600 "$C,thresh=1,invert=1" "$C,thresh=1,edge_det=1" \
    "$C" --interval 0 --count 2 --sim-cycles 1000 --sim-rate "$C=300"
golden monitor-bad-sim-cycles 2 --backend sim monitor e5_2600 "$C" --sim-cycles 0
golden monitor-sim-cycles-no-sim 2 monitor e5_2600 "$C" --sim-cycles 1000
# box filters: LLC_LOOKUP counts through the C-Box state filter; without it regctl refuses,
# naming it; with --no-filter-check it is added and counts nothing (the filter at 0); lookups of
# M (state 3) 8 and of I (state 0) 1 count 8 through M only (0x08) and 9 through all (0x1f)
L='LLC_LOOKUP.DATA_READ'
golden monitor-filter-refused 2 --backend sim monitor e5_2600 "cbox[cbox1]:$L"
golden monitor-no-filter-check 0 --backend sim monitor e5_2600 "cbox[cbox1]:$L" --no-filter-check \
    --interval 0 --count 1 --sim-rate "cbox[cbox1]:$L=5"
golden monitor-filter-states 0 --backend sim monitor e5_2600 \
    "cbox[cbox1]:$L,Cn_MSR_PMON_BOX_FILTER.state=0x08" "cbox[cbox2]:$L,Cn_MSR_PMON_BOX_FILTER.state=0x1f" \
    --interval 0 --count 1 --sim-rate "cbox[cbox1]:$L,state=3=8" --sim-rate "cbox[cbox1]:$L,state=0=1" \
    --sim-rate "cbox[cbox2]:$L,state=3=8" --sim-rate "cbox[cbox2]:$L,state=0=1"
# filters the spec does not model (<unmodelled-filter>): each kind of row is refused, naming the
# filter and its registers; with --no-filter-check it counts (the simulator cannot model the
# filter, so it counts the rate as given): E5-2600 and v2 U-Box thread filter, v2 HA address
# and opcode match (FILT needs both), v2 IRP source queue, v2 QPI CTO_COUNT's packet match/mask
for um in "e5_2600 ubox:FILTER_MATCH.ENABLE ubox-e5" "e5_2600v2 ubox:FILTER_MATCH.U2C_ENABLE ubox" \
          "e5_2600v2 ha[ha0]:ADDR_OPC_MATCH.FILT ha-filt" "e5_2600v2 ha[ha1]:ADDR_OPC_MATCH.OPC ha-opc" \
          "e5_2600v2 irp:TRANSACTIONS.ORDERINGQ irp" "e5_2600v2 qpi[p1]:CTO_COUNT qpi"; do
    set -- $um
    golden "monitor-unmodelled-$3" 2 --backend sim monitor "$1" "$2"
    golden "monitor-unmodelled-$3-counted" 0 --backend sim monitor "$1" "$2" --no-filter-check \
        --interval 0 --count 1 --sim-rate "$2=7"
done
golden monitor-no-spec 2 monitor nospec "$U"
# sampling above the period: 2,500 events per interval at period 1,000 are 2 overflows, then 3
# (the 500 left over complete a period), each whole period counted; the table says 'overflows'
golden monitor-sample-fast 0 --backend sim monitor e5_2600 "cbox[cbox1]:CLOCKTICKS" "$U" --sample 1000 \
    --interval 0 --count 4 --sim-rate "cbox[cbox1]:CLOCKTICKS=2500" --sim-rate "$U=1000000007"
golden monitor-sample-fast-perf 0 --backend sim monitor e5_2600v2 "$Q" --sample 1000 -I 500 \
    --count 2 --sim-rate "$Q=1000000"
# perf stat's forms (the simulator's time: each poll is one interval of its rates): text with a
# time column, thousands separators, unit and rate, then the totals; -x SEP; -j
golden monitor-perf-text 0 --backend sim monitor e5_2600v2 "$Q" "$U" -I 250 --count 2 \
    --sim-rate "$Q=1000" --sim-rate "$U=8796093022213"
golden monitor-perf-csv 0 --backend sim monitor e5_2600v2 "$Q" "$U,thresh=1" -I 100 --count 2 -x , \
    --sim-rate "$Q=1000" --sim-rate "$U=7"
golden monitor-perf-csv-sep 0 --backend sim monitor e5_2600v2 "$Q" --interval 1s --count 1 -x ';' \
    --sim-rate "$Q=1000"
golden monitor-perf-json 0 --backend sim monitor e5_2600v2 "$Q" -I 100 --count 2 -j --sim-rate "$Q=1000"
golden monitor-perf-socket 0 --backend sim monitor e5_2600v2 "$Q" --socket all --sim-sockets 2 -I 1000 \
    --count 1 --sim-rate "$Q=1000@0" --sim-rate "$Q=3000@1"
golden monitor-perf-signed 0 --backend sim monitor xeon7500_mbox "mbox[mbox1]:DSP_FILL,dir=up-down" \
    -I 1000 --count 2 --sim-rate "mbox[mbox1]:DSP_FILL=-1234567"
# -I is milliseconds; --interval wants its unit (0 aside); one output form
golden monitor-interval-bare 2 --backend sim --dry-run monitor e5_2600v2 "$U" --interval 1000
golden monitor-interval-ms-zero 2 --backend sim monitor e5_2600v2 "$U" -I 0
golden monitor-interval-ms-junk 2 --backend sim monitor e5_2600v2 "$U" -I 1s
golden monitor-interval-ms-large 2 --backend sim monitor e5_2600v2 "$U" -I 86400001
golden monitor-two-forms 2 --backend sim monitor e5_2600v2 "$U" -x , -j
golden monitor-empty-sep 2 --backend sim monitor e5_2600v2 "$U" -x ''
golden monitor-count-zero 2 --backend sim monitor e5_2600v2 "$U" --count 0
golden monitor-table-and-csv 2 --backend sim monitor e5_2600v2 "$U" --table --csv
# sharing (run-share.sh has the locks, interrupts and msrfs runs)
golden monitor-bad-settle 2 --backend sim monitor e5_2600v2 "$U" --settle soon
golden monitor-bad-lock-dir 1 --backend sim monitor e5_2600v2 "$U" --lock-dir no/such/dir --interval 0 --count 1
# Xeon 7500 M-Box count_mode (dir=): 3/4 of 2^48 per interval down (underflows every other
# interval), a net -1000 per interval up and down, signed
D='mbox[mbox0]:DSP_FILL,dir=down'
UD='mbox[mbox1]:DSP_FILL,dir=up-down'
golden monitor-down 0 --backend sim monitor xeon7500_mbox "$D" "$UD" --interval 0 --count 4 \
    --sim-rate "$D=211106232532992" --sim-rate "$UD=-1000"
golden monitor-down-json 0 --backend sim --json monitor xeon7500_mbox "$UD" --interval 0 --count 2 \
    --sim-rate "$UD=-7"
golden monitor-down-dry-run 0 --dry-run monitor xeon7500_mbox "$D" --sample 1000
golden monitor-rate-not-up-down 1 --backend sim monitor xeon7500_mbox "mbox:DSP_FILL" --interval 0 \
    --count 1 --sim-rate "mbox:DSP_FILL=-3"
golden monitor-bad-direction 2 --backend sim monitor e5_2600v2 "$U,dir=down"
# --sim-rate names events, which count only where the control bits encode them: a rate for an
# unmonitored event, a sibling sub-event, another port or another group (ev_sel_ext) counts
# nothing on the monitored counter
golden monitor-rate-unmonitored 0 --backend sim monitor e5_2600v2 "$Q" --interval 0 --count 2 \
    --sim-rate "$Q=3" --sim-rate "$U=5" --sim-rate "qpi[p0]:TxL_FLITS_G0.NON_DATA=7" \
    --sim-rate "qpi[p1]:TxL_FLITS_G0.DATA=9" --sim-rate "qpi[p0]:TxL_FLITS_G1.DRS_DATA=11"
golden monitor-rate-bad-event 2 --backend sim monitor e5_2600v2 "$Q" --sim-rate "qpi[p0]:NOPE=1"
golden monitor-rate-bad-syntax 2 --backend sim monitor e5_2600v2 "$Q" --sim-rate "$Q"
# a control whose bits encode no event of the tables: reported, and no named rate reaches it
golden monitor-unmatched 0 --backend sim monitor e5_2600v2 "cbox[c2]:raw,reg=Cn_MSR_PMON_CTL,ev_sel=0xfe" \
    --interval 0 --count 1 --sim-rate "cbox[c2]:CLOCKTICKS=5"
tap_done
