#!/usr/bin/env bash
# run-socket.sh - `regctl monitor --socket all|LIST` and `--csv`: one session per package, counts
# per socket and their total. On the simulator (--sim-sockets N models, a rate per socket with
# --sim-rate EVENT=N@SOCKET): goldens, and the CSV's counts checked against the rates the test
# gives each socket (every socket's count is its rate, the total their sum); through the msr
# backend against tests/tools/msrfs serving two packages (--packages 2) with a fake sysfs
# topology: each package counts its own events, reached through its first CPU only, and a
# package in use fails the run with those started before it put back; the
# --dry-run access list; every error.
# Golden files in tests/runtime/golden/socket-*.out; UPDATE_GOLDEN=1 rewrites them.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/golden.sh
. tests/runtime/msrfs.sh
. tests/runtime/regctl.sh
tmp=$(mktemp -d)
trap 'msrfs_unmount; rm -rf "$tmp"' EXIT

regctl_needs e5_2600v2 "regctl monitor --socket"

# expect NAME STATUS STDERR ARGS...: regctl's exit status and its whole stderr ($tmp in it
# written as TMP), nothing on stdout
expect() {
    local name=$1 want=$2 werr=$3; shift 3
    "$REGCTL" "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$? err
    err=$(sed "s|$tmp|TMP|g" "$tmp/err")
    if [ "$rc" != "$want" ]; then tap_fail "$name: exit $rc, expected $want" "$err"; return; fi
    if [ "$err" != "$werr" ] || [ -s "$tmp/out" ]; then
        tap_fail "$name" "got:  $err" "want: $werr" "stdout: $(head -2 "$tmp/out")"; return
    fi
    tap_ok "$name"
}

# a sysfs tree: topology DIR PKG... gives cpuI the package PKG[I]
topology() {
    local dir=$1 i=0; shift
    for p in "$@"; do
        mkdir -p "$dir/devices/system/cpu/cpu$i/topology"
        echo "$p" >"$dir/devices/system/cpu/cpu$i/topology/physical_package_id"
        i=$((i + 1))
    done
}

Q='qpi[p0]:TxL_FLITS_G0.DATA'
U='ubox:EVENT_MSG.DOORBELL_RCVD'
T='cbox[c3]:LLC_LOOKUP.ANY,thresh=1,Cn_MSR_PMON_BOX_FILTER0.state=0x3f'
S=(--backend sim)

# ---- the simulator
golden socket-poll 0 "${S[@]}" monitor e5_2600v2 "$Q" "$U" --socket all --sim-sockets 3 \
    --interval 0 --count 2 --sim-rate "$Q=1000" --sim-rate "$U=7@0" --sim-rate "$U=9@1" \
    --sim-rate "$U=11@2"
golden socket-list 0 "${S[@]}" monitor e5_2600v2 "$Q" --socket 2,0 --sim-sockets 3 --interval 0 \
    --count 1 --sim-rate "$Q=5@2" --sim-rate "$Q=3@0"
golden socket-json 0 "${S[@]}" --json monitor e5_2600v2 "$Q" "$U" --socket 0-1 --sim-sockets 2 \
    --interval 0 --count 2 --sim-rate "$Q=5@1" --sim-rate "$U=2"
golden socket-csv 0 "${S[@]}" monitor e5_2600v2 "$Q" "$T" --socket all --sim-sockets 2 --csv \
    --interval 0 --count 2 --sim-rate "$Q=3@0" --sim-rate "$Q=4@1"
golden socket-csv-one 0 "${S[@]}" monitor e5_2600v2 "$Q" --csv --interval 0 --count 2 \
    --sim-rate "$Q=3"
golden socket-csv-sample 0 "${S[@]}" monitor e5_2600v2 "$Q" --socket all --sim-sockets 2 --csv \
    --sample 1000 --interval 0 --count 2 --sim-rate "$Q=1001@1"
# up and down: each socket's signed net change, and the signed total
UD='mbox[mbox1]:DSP_FILL,dir=up-down'
golden socket-up-down 0 "${S[@]}" monitor xeon7500_mbox "$UD" --socket all --sim-sockets 2 \
    --interval 0 --count 1 --sim-rate "$UD=-1000@0" --sim-rate "$UD=-7@1"

# The CSV against the rates: socket s gets rate(s) = 100*s + 17 of Q, and R of U on every
# socket; each row must hold its socket's rate, each total row the sum over the sockets.
n=4 rates=() want_q=0
for s in $(seq 0 $((n - 1))); do rates+=(--sim-rate "$Q=$((100 * s + 17))@$s"); want_q=$((want_q + 100 * s + 17)); done
"$REGCTL" "${S[@]}" monitor e5_2600v2 "$Q" "$U" --socket all --sim-sockets $n --csv --interval 0 \
    --count 3 "${rates[@]}" --sim-rate "$U=250" >"$tmp/rates.csv" 2>"$tmp/rates.err"
bad=$(awk -F, -v q="$Q" -v u="$U" -v n=$n -v tq=$want_q '
    NR == 1 { if ($0 != "interval,socket,event,count") print "header: " $0; next }
    { rows++
      if ($2 == "total") want = ($3 == q ? tq : 250 * n); else want = ($3 == q ? 100 * $2 + 17 : 250)
      if ($4 != want) print "row " NR ": " $0 " (want " want ")" }
    END { if (rows != 3 * (n + 1) * 2) print rows " rows, want " 3 * (n + 1) * 2 }' "$tmp/rates.csv")
if [ -z "$bad" ] && [ ! -s "$tmp/rates.err" ]; then tap_ok "csv: each socket counts its own rate, totals are sums"
else tap_fail "csv: each socket counts its own rate, totals are sums" "$bad" "$(cat "$tmp/rates.err")"; fi

# ---- errors
expect "bad --socket" 2 "regctl: monitor: bad --socket 'one': 'one': not a number (want all, or a list: 0,1 or 0-3)" \
    "${S[@]}" monitor e5_2600v2 "$Q" --socket one
expect "bad --socket range" 2 "regctl: monitor: bad --socket '1-0': '1-0': a range that ends below its start (want all, or a list: 0,1 or 0-3)" \
    "${S[@]}" monitor e5_2600v2 "$Q" --socket 1-0 --sim-sockets 2
expect "empty --socket item" 2 "regctl: monitor: bad --socket '0,': '': empty (want all, or a list: 0,1 or 0-3)" \
    "${S[@]}" monitor e5_2600v2 "$Q" --socket 0, --sim-sockets 2
expect "no such socket" 2 "regctl: monitor: --socket: no socket 2 (packages: 0,1)" \
    "${S[@]}" monitor e5_2600v2 "$Q" --socket 0,2 --sim-sockets 2
expect "--sim-sockets without sim" 2 "regctl: monitor: --sim-sockets needs --backend sim" \
    monitor e5_2600v2 "$Q" --socket all --sim-sockets 2
expect "--sim-sockets without --socket" 2 "regctl: monitor: --sim-sockets needs --socket" \
    "${S[@]}" monitor e5_2600v2 "$Q" --sim-sockets 2
expect "bad --sim-sockets" 2 "regctl: monitor: --sim-sockets '65': too large: at most 64" \
    "${S[@]}" monitor e5_2600v2 "$Q" --socket all --sim-sockets 65
expect "--csv and --json" 2 "regctl: monitor: choose one output form: --table, --csv, --json, -x SEP or -j" \
    "${S[@]}" --json monitor e5_2600v2 "$Q" --csv
expect "rate @SOCKET without --socket" 2 "regctl: monitor: --sim-rate '$Q=5@1': @SOCKET needs --socket" \
    "${S[@]}" monitor e5_2600v2 "$Q" --sim-rate "$Q=5@1"
expect "rate @ no number" 2 "regctl: monitor: --sim-rate '$Q=5@x': socket after '@': not a number" \
    "${S[@]}" monitor e5_2600v2 "$Q" --socket all --sim-rate "$Q=5@x"
expect "rate @ unmonitored socket" 2 "regctl: monitor: --sim-rate: socket 1 is not monitored" \
    "${S[@]}" monitor e5_2600v2 "$Q" --socket 0 --sim-sockets 2 --sim-rate "$Q=5@1"
long=$(printf 'x%.0s' $(seq 300))
expect "rate @ event too long" 2 "regctl: monitor: --sim-rate '$long=5@0': too long" \
    "${S[@]}" monitor e5_2600v2 "$Q" --socket all --sim-rate "$long=5@0"
expect "bad event, per socket" 2 "regctl: monitor: socket 0: 'qpi:NOPE': block 'qpi' has no event 'NOPE'" \
    "${S[@]}" monitor e5_2600v2 "qpi:NOPE" --socket all
mkdir -p "$tmp/nosys"
expect "no sysfs topology" 2 "regctl: monitor: --socket: cannot read TMP/nosys/devices/system/cpu: No such file or directory" \
    --sysfs-root "$tmp/nosys" monitor e5_2600v2 "$U" --socket all
mkdir -p "$tmp/offline/devices/system/cpu/cpu0" "$tmp/offline/devices/system/cpu/cpufreq"
expect "no CPU with a package" 2 "regctl: monitor: --socket: no CPU topology in TMP/offline/devices/system/cpu (cpuN/topology/physical_package_id)" \
    --sysfs-root "$tmp/offline" monitor e5_2600v2 "$U" --socket all
topology "$tmp/garbled" 0 zero
expect "garbled package id" 2 "regctl: monitor: --socket: TMP/garbled/devices/system/cpu/cpu1/topology/physical_package_id holds no package number: 'zero': not a number" \
    --sysfs-root "$tmp/garbled" monitor e5_2600v2 "$U" --socket all

# ---- real topology: packages from sysfs, each reached through its first CPU
topology "$tmp/sys" 1 0 1 0 # cpu0 and cpu2 in package 1, cpu1 and cpu3 in package 0
mkdir -p "$tmp/sys/devices/system/cpu/cpu4" "$tmp/sys/devices/system/cpu/cpuidle" # offline; not a CPU
golden socket-dry-run 0 --sysfs-root "$tmp/sys" --dry-run monitor e5_2600v2 "$U" "qpi[p1]:TxL_FLITS_G0.DATA" \
    --socket all

# ---- PCI buses without a U-Box: plain files standing for the pci backend's sysfs (config is a
# file it reads and writes). The kernel gives a bus without a U-Box the package of the next bus
# above it that has one (uncore_snbep.c snbep_pci2phy_map_init(), reverse = true): U-Boxes
# 8086:3ce0 on 0000:3f (node id 1) and 0000:7f (node id 0), GIDNIDMAP 0x8 (package 0: node 0,
# package 1: node 1); the HAs sit on 0000:3e (package 1) and 0000:7e (package 0), 0000:fe (no
# U-Box above it: no package).
. tests/runtime/pcidev.sh # pcidev DIR BDF DEVICE NODEID GIDNIDMAP
if command -v python3 >/dev/null; then
    for pk in 0 1; do
        r=$tmp/below$pk
        topology "$r" 0 1
        pcidev "$r" 0000:3f:0b.0 0x3ce0 1 0x8
        pcidev "$r" 0000:7f:0b.0 0x3ce0 0 0x8
        for b in 3e 7e fe; do pcidev "$r" "0000:$b:0e.1" 0x3c46 0 0; done
        name="a bus without a U-Box is the next U-Box bus's: package $pk's HA"
        "$REGCTL" --force-cpu --sysfs-root "$r" --backend pci monitor e5_2600 ha:REQUESTS.READS \
            --socket "$pk" --interval 0 --count 1 --lock-dir "$tmp/pcilocks" --settle 0 >"$tmp/out" 2>&1
        rc=$?
        # HA_PCI_PMON_BOX_CTL (0xf4) is left with frz_en set on the box the run used
        got=$(for b in 3e 7e fe; do
            [ "$(od -An -tx4 -j 0xf4 -N4 "$r/bus/pci/devices/0000:$b:0e.1/config" | tr -d ' ')" = 00000000 ] ||
                echo "$b"; done)
        want=$([ "$pk" = 0 ] && echo 7e || echo 3e)
        if [ $rc = 0 ] && [ "$got" = "$want" ]; then tap_ok "$name (bus $want)"; else
            tap_fail "$name (bus $want)" "exit $rc, used: $got" "$(cat "$tmp/out")"; fi
    done
    # a user other than root reads 64 bytes of config (drivers/pci/pci-sysfs.c): a file that short
    r=$tmp/short
    topology "$r" 0 1
    pcidev "$r" 0000:7f:0b.0 0x3ce0 0 0x8
    truncate -s 64 "$r/bus/pci/devices/0000:7f:0b.0/config"
    expect "U-Box node ids past 64 bytes of config: refused as needing root" 1 \
        "regctl: monitor: socket 0: read ha.ha.HA_PCI_PMON_CTL0: reading 'ha.ha.HA_PCI_PMON_CTL0' (pci offset 0xd8, cpu 0) failed: cannot read CPUNODEID of U-Box 0000:7f:0b.0 (config 0x40): configuration space past 64 bytes needs root
regctl: note: --backend sim runs the same command on the simulator, without the hardware or its permissions" \
        --force-cpu --sysfs-root "$r" --backend pci monitor e5_2600 ha:REQUESTS.READS --socket all \
        --interval 0 --count 1 --lock-dir "$tmp/pcilocks" --settle 0
else
    tap_skip "a bus without a U-Box is the next U-Box bus's" "python3 not installed"
fi

# msrfs refuses packages that do not divide the CPUs, or too many
for args in "--cpus 3 --packages 2" "--cpus 4 --packages 0" "--cpus 34 --packages 17"; do
    if [ -x "$BUILD/tests/tools/msrfs" ]; then
        # shellcheck disable=SC2086
        "$BUILD/tests/tools/msrfs" $args "$tmp/nomnt" >/dev/null 2>"$tmp/msrfs.err"
        rc=$?
        if [ $rc = 2 ] && grep -q '^  P from 1 to 16, dividing N$' "$tmp/msrfs.err"; then tap_ok "msrfs $args: usage"
        else tap_fail "msrfs $args: usage" "exit $rc" "$(cat "$tmp/msrfs.err")"; fi
    else tap_skip "msrfs $args: usage" "msrfs is not built"; fi
done

# msrfs: 4 CPUs, 2 packages (cpu0-1: 0, cpu2-3: 1), each its own model; an interval before
# every register write, so each poll (freeze, read, unfreeze) sees exactly one interval
msr_tests=("msrfs: each package counts its own rates" "msrfs: each package through its first CPU only"
    "msrfs: a lock per package" "msrfs: a socket in use fails the run, named"
    "msrfs: the socket started before it is put back")
if ! msrfs_mount e5_2600v2 4 "$tmp/mnt" --packages 2 --log "$tmp/msr.log"; then
    for t in "${msr_tests[@]}"; do tap_skip "$t" "$msrfs_why"; done
    tap_done
    exit 0
fi
rm -rf "$tmp/sys"
topology "$tmp/sys" 0 0 1 1
C='cbox[c3]:CLOCKTICKS'
for p in 0 1; do printf 'auto 1' >"$mnt/sim$p"; done
printf 'rate %s 5' "$U" >"$mnt/sim0"
printf 'rate %s 9' "$U" >"$mnt/sim1"
printf 'rate %s 1000' "$C" >"$mnt/sim1"
: >"$tmp/msr.log"
"$REGCTL" --msr-root "$mnt/cpu" --sysfs-root "$tmp/sys" monitor e5_2600v2 "$U" "$C" --socket all \
    --csv --interval 0 --count 3 --lock-dir "$tmp/locks" --settle 0 >"$tmp/msr.csv" 2>"$tmp/msr.err"
rc=$?
want=$(for t in 1 2 3; do
    printf '%s\n' "$t,0,$U,5" "$t,0,$C,0" "$t,1,$U,9" "$t,1,$C,1000" "$t,total,$U,14" "$t,total,$C,1000"
done)
if [ $rc = 0 ] && [ "$(tail -n +2 "$tmp/msr.csv")" = "$want" ] && [ ! -s "$tmp/msr.err" ]; then tap_ok "${msr_tests[0]}"
else tap_fail "${msr_tests[0]}" "exit $rc" "$(cat "$tmp/msr.err")" "$(cat "$tmp/msr.csv")"; fi
cpus=$(awk '{print $2}' "$tmp/msr.log" | sort -u | tr '\n' ' ')
if [ "$cpus" = "0 2 " ]; then tap_ok "${msr_tests[1]}"; else tap_fail "${msr_tests[1]}" "CPUs accessed: $cpus"; fi
# the msr backend names the lock after the CPU here (msrfs files are no character devices)
locks=$(cd "$tmp/locks" && ls | tr '\n' ' ')
if [ "$locks" = "msr-cpu0-cbox.c3.lock msr-cpu0-global.lock msr-cpu0-ubox.lock msr-cpu2-cbox.c3.lock msr-cpu2-global.lock msr-cpu2-ubox.lock " ]
then tap_ok "${msr_tests[2]}"; else tap_fail "${msr_tests[2]}" "locks: $locks"; fi

# package 1's U-Box in use by someone else: its start fails after package 0's started, and
# package 0's registers are put back as found (its counter control, programmed once, 0 again)
value() { "$REGCTL" --msr-root "$mnt/cpu" --cpu "$1" --json read "e5_2600v2.$2" | sed -n 's/^  "value": "\(.*\)",$/\1/p'; }
"$REGCTL" --msr-root "$mnt/cpu" --cpu 3 write e5_2600v2.ubox.U_MSR_PMON_CTL1 en=1 >/dev/null
before=$(value 0 ubox.U_MSR_PMON_CTL0)
: >"$tmp/msr.log"
"$REGCTL" --msr-root "$mnt/cpu" --sysfs-root "$tmp/sys" monitor e5_2600v2 "$U" --socket all \
    --interval 0 --count 1 --lock-dir "$tmp/locks" --settle 0 >"$tmp/busy.out" 2>"$tmp/busy.err"
rc=$?
werr="regctl: monitor: socket 1: box 'ubox' is in use (ubox.U_MSR_PMON_CTL1 = 0x400000); refusing to program it unless forced"
if [ $rc = 1 ] && [ "$(cat "$tmp/busy.err")" = "$werr" ] && [ ! -s "$tmp/busy.out" ]; then tap_ok "${msr_tests[3]}"
else tap_fail "${msr_tests[3]}" "exit $rc" "$(cat "$tmp/busy.err")"; fi
after=$(value 0 ubox.U_MSR_PMON_CTL0)
programmed=$(grep -c "^W 0 0xc10 0x400842 0" "$tmp/msr.log")
if [ "$before" = 0x0 ] && [ "$after" = 0x0 ] && [ "$programmed" = 1 ]; then tap_ok "${msr_tests[4]}"
else tap_fail "${msr_tests[4]}" "U_MSR_PMON_CTL0 before $before, after $after; programmed $programmed times"; fi
msrfs_unmount
tap_done
