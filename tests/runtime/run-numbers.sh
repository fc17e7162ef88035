#!/usr/bin/env bash
# run-numbers.sh - every number regctl takes is parsed once (regc/num.h), range-checked and
# refused with a named reason, never cut or wrapped (issue 24): for each of them 0, the limit,
# the limit + 1, 2^32, 2^64, negative, a leading space or sign, and junk. The limits are the
# manuals', not the code's: the E5-2600 U-Box control's umask is bits 15:8 (327043 Table 2-2,
# page 20); the E5-2600 v2 U-Box control's thresh is bits 28:24, en bit 22, ev_sel bits 7:0,
# its counters are 44 bits wide and pmi_core_sel is bits 14:0 of U_MSR_PMON_GLOBAL_CTL
# (329468 section 2.2 and Table 2-2); a CPU number is an int as Linux's; a U-Box has two
# counters (index 0 and 1). Last, a CPU number that no machine has fails as "no such CPU"
# under a 100 MB address-space limit: nothing is allocated per CPU number (issue 25).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
. tests/runtime/regctl.sh
tap_setup tmp

regctl_needs e5_2600v2 "numbers"

# refuse NAME "MESSAGE" ARGS...: exit $STATUS (2, a usage error; 1 where the library refuses
# the value once it knows the counter) and MESSAGE as the whole of stderr
STATUS=2
refuse() {
    local name=$1 want=$2; shift 2
    local out rc
    out=$("$REGCTL" "$@" 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" = "$STATUS" ] && [ "$out" = "$want" ]; then tap_ok "$name"
    else tap_fail "$name" "exit $rc (want $STATUS)" "got:  $out" "want: $want"; fi
}
# accept NAME GREP ARGS...: exit 0 and a line of stdout matching GREP (extended regex; '' any)
accept() {
    local name=$1 want=$2; shift 2
    local out rc
    out=$(timeout 60 "$REGCTL" "$@" 2>&1)
    rc=$?
    if [ "$rc" = 0 ] && { [ -z "$want" ] || echo "$out" | grep -qE "$want"; }; then tap_ok "$name"
    else tap_fail "$name" "exit $rc" "$(echo "$out" | head -5)" "want a line: $want"; fi
}
P64=18446744073709551616 # 2^64
P32=4294967296            # 2^32

# ---- --cpu: 0 to INT_MAX
S=(--backend sim)
RD=(read e5_2600.ubox.U_MSR_PMON_CTL0)
accept "--cpu 0" "U_MSR_PMON_CTL0" "${S[@]}" --cpu 0 "${RD[@]}"
accept "--cpu 2147483647 (the limit)" "U_MSR_PMON_CTL0" "${S[@]}" --cpu 2147483647 "${RD[@]}"
for c in 2147483648 $P32 4294967297 $P64; do
    refuse "--cpu $c" "regctl: --cpu '$c': too large: at most 2147483647" "${S[@]}" --cpu "$c" "${RD[@]}"
done
refuse "--cpu -1" "regctl: --cpu '-1': negative" "${S[@]}" --cpu -1 "${RD[@]}"
refuse "--cpu ' 1'" "regctl: --cpu ' 1': space before the number" "${S[@]}" --cpu ' 1' "${RD[@]}"
refuse "--cpu +1" "regctl: --cpu '+1': a '+' sign is not taken" "${S[@]}" --cpu +1 "${RD[@]}"
refuse "--cpu 1x" "regctl: --cpu '1x': junk after the number" "${S[@]}" --cpu 1x "${RD[@]}"
refuse "--cpu 0x1" "regctl: --cpu '0x1': junk after the number" "${S[@]}" --cpu 0x1 "${RD[@]}"

# ---- register indices: the U-Box's two counters, 0 and 1; never wrapped (2^32 was CTL0)
accept "index [0]" '"register": "e5_2600.ubox.U_MSR_PMON_CTL0"' "${S[@]}" --json read 'e5_2600.ubox.U_MSR_PMON_CTL[0]'
accept "index [1] (the limit)" '"register": "e5_2600.ubox.U_MSR_PMON_CTL1"' "${S[@]}" --json read 'e5_2600.ubox.U_MSR_PMON_CTL[1]'
for i in 2 $P32 4294967297 $P64; do
    refuse "index [$i]" "regctl: index '$i' of register 'U_MSR_PMON_CTL': too large: at most 1" \
        "${S[@]}" read "e5_2600.ubox.U_MSR_PMON_CTL[$i]"
done
refuse "index as a suffix, 2^32 + 2" \
    "regctl: index '4294967298' of register 'U_MSR_PMON_CTL': too large: at most 1" \
    "${S[@]}" read "e5_2600.ubox.U_MSR_PMON_CTL4294967298"
refuse "index [-1]" "regctl: index '-1' of register 'U_MSR_PMON_CTL': negative" \
    "${S[@]}" read "e5_2600.ubox.U_MSR_PMON_CTL[-1]"
refuse "index [ 1]" "regctl: index ' 1' of register 'U_MSR_PMON_CTL': space before the number" \
    "${S[@]}" read "e5_2600.ubox.U_MSR_PMON_CTL[ 1]"
refuse "index [+1]" "regctl: index '+1' of register 'U_MSR_PMON_CTL': a '+' sign is not taken" \
    "${S[@]}" read "e5_2600.ubox.U_MSR_PMON_CTL[+1]"
refuse "index [1x]" "regctl: index '1x' of register 'U_MSR_PMON_CTL': junk after the number" \
    "${S[@]}" read "e5_2600.ubox.U_MSR_PMON_CTL[1x]"

# ---- write FIELD=VALUE: umask, bits 15:8
W=(write e5_2600.ubox.U_MSR_PMON_CTL0)
accept "write umask=0" "<- 0x00000000$" "${S[@]}" "${W[@]}" umask=0
accept "write umask=0xff (the limit) is bits 15:8" "<- 0x0000ff00$" "${S[@]}" "${W[@]}" umask=0xff
for v in 0x100 0x1ff $P32 $P64; do
    refuse "write umask=$v" "regctl: value '$v' for field 'umask' [15:8]: too large: at most 255 (0xff)" \
        "${S[@]}" "${W[@]}" umask=$v
done
refuse "write umask=-1" "regctl: value '-1' for field 'umask' [15:8]: negative" "${S[@]}" "${W[@]}" umask=-1
refuse "write umask=' 1'" "regctl: value ' 1' for field 'umask' [15:8]: space before the number" \
    "${S[@]}" "${W[@]}" 'umask= 1'
refuse "write umask=+1" "regctl: value '+1' for field 'umask' [15:8]: a '+' sign is not taken" \
    "${S[@]}" "${W[@]}" umask=+1
refuse "write umask=1x" "regctl: value '1x' for field 'umask' [15:8]: junk after the number" \
    "${S[@]}" "${W[@]}" umask=1x
refuse "write umask=010" \
    "regctl: value '010' for field 'umask' [15:8]: leading zero (octal is not taken; write it in decimal or 0x...)" \
    "${S[@]}" "${W[@]}" umask=010

# ---- monitor settings: thresh, bits 28:24 of the v2 U-Box control (thresh=40 was written as 8)
M=(--backend sim --dry-run monitor e5_2600v2)
RAW='ubox:raw,reg=U_MSR_PMON_CTL,ev_sel=0x42'
accept "monitor thresh=0" "write ubox.U_MSR_PMON_CTL0 +msr 0xc10 +0x400042$" "${M[@]}" "$RAW,thresh=0" --count 1
accept "monitor thresh=31 (the limit) is bits 28:24" "write ubox.U_MSR_PMON_CTL0 +msr 0xc10 +0x1f400042$" \
    "${M[@]}" "$RAW,thresh=31" --count 1
STATUS=2
for v in 32 40 $P32; do
    h=$(printf '0x%x' "$v")
    refuse "monitor thresh=$v" \
        "regctl: monitor: '$RAW,thresh=$v': value $h for field 'thresh' [28:24] of 'U_MSR_PMON_CTL': too large: at most 31 (0x1f)" \
        "${M[@]}" "$RAW,thresh=$v"
done
refuse "monitor thresh=2^64" \
    "regctl: monitor: '$RAW,thresh=$P64': value '$P64' for 'thresh': too large: at most 18446744073709551615 (0xffffffffffffffff)" \
    "${M[@]}" "$RAW,thresh=$P64"
refuse "monitor thresh=-1" "regctl: monitor: '$RAW,thresh=-1': value '-1' for 'thresh': negative" \
    "${M[@]}" "$RAW,thresh=-1"
refuse "monitor thresh=' 1'" "regctl: monitor: '$RAW,thresh= 1': value ' 1' for 'thresh': space before the number" \
    "${M[@]}" "$RAW,thresh= 1"
refuse "monitor thresh=1x" "regctl: monitor: '$RAW,thresh=1x': value '1x' for 'thresh': junk after the number" \
    "${M[@]}" "$RAW,thresh=1x"
E='ubox:EVENT_MSG.DOORBELL_RCVD'
refuse "monitor umask=0x1ff on a table event" \
    "regctl: monitor: '$E,umask=0x1ff': value 0x1ff for field 'umask' [15:8] of 'U_MSR_PMON_CTL': too large: at most 255 (0xff)" \
    "${M[@]}" "$E,umask=0x1ff"
# perf's event strings
refuse "perf string umask=2^64" \
    "regctl: monitor: 'uncore_ubox/event=0x42,umask=$P64/': value '$P64' for term 'umask': too large: at most 18446744073709551615 (0xffffffffffffffff)" \
    "${M[@]}" "uncore_ubox/event=0x42,umask=$P64/"
refuse "perf string umask=-1" \
    "regctl: monitor: 'uncore_ubox/event=0x42,umask=-1/': value '-1' for term 'umask': negative" \
    "${M[@]}" "uncore_ubox/event=0x42,umask=-1/"
refuse "perf string umask=0x100" \
    "regctl: monitor: 'uncore_ubox/event=0x42,umask=0x100/': value 0x100 does not fit format 'umask' of PMU 'uncore_ubox' (its formats: event, umask, edge, inv, thresh)" \
    "${M[@]}" "uncore_ubox/event=0x42,umask=0x100/"

# ---- --sample N: a preload of 2^44 - N on the U-Box's 44-bit counters, so 1 to 2^44-1
Q=(--backend sim monitor e5_2600v2 "$E" --interval 0 --count 1)
accept "--sample 1" "^ +1 " "${Q[@]}" --sample 1
accept "--sample 2^32" "^ +1 " "${Q[@]}" --sample $P32
accept "--sample 0xfffffffffff (the limit)" "^ +1 " "${Q[@]}" --sample 0xfffffffffff
refuse "--sample 0" "regctl: monitor: --sample '0': too small: at least 1" "${Q[@]}" --sample 0
STATUS=1
for v in 0x100000000000 0x100000000001; do
    refuse "--sample $v" \
        "regctl: monitor: sample period $((v)) for '$E' (counter 'U_MSR_PMON_CTR', 44 bits): too large: at most 17592186044415 (0xfffffffffff)" \
        "${Q[@]}" --sample $v
done
STATUS=2
refuse "--sample 2^64" "regctl: monitor: --sample '$P64': too large: at most 18446744073709551615 (0xffffffffffffffff)" \
    "${Q[@]}" --sample $P64
refuse "--sample -1" "regctl: monitor: --sample '-1': negative" "${Q[@]}" --sample -1
refuse "--sample ' -1'" "regctl: monitor: --sample ' -1': space before the number" "${Q[@]}" --sample ' -1'
refuse "--sample 1x" "regctl: monitor: --sample '1x': junk after the number" "${Q[@]}" --sample 1x
# --pmi-core: pmi_core_sel, 15 bits
accept "--pmi-core 0x7fff (the limit)" "^ +1 " "${Q[@]}" --sample 5 --pmi-core 0x7fff
STATUS=1
refuse "--pmi-core 0x8000" "regctl: monitor: PMI core mask 0x8000 (15 bits): too large: at most 32767 (0x7fff)" \
    "${Q[@]}" --sample 5 --pmi-core 0x8000
STATUS=2
refuse "--pmi-core -1" "regctl: monitor: --pmi-core '-1': negative" "${Q[@]}" --sample 5 --pmi-core -1

# ---- --count: 1 to 2^64-1 (the dry run makes one interval whatever the count)
D=(--backend sim --dry-run monitor e5_2600v2 "$E" --interval 0)
accept "--count 1" "" "${D[@]}" --count 1
accept "--count 2^32" "" "${D[@]}" --count $P32
accept "--count 2^64-1 (the limit)" "" "${D[@]}" --count 18446744073709551615
refuse "--count 0" "regctl: monitor: --count '0': too small: at least 1
regctl: monitor: note: without --count the run lasts until the command ends, or until Ctrl-C" "${D[@]}" --count 0
refuse "--count 2^64" "regctl: monitor: --count '$P64': too large: at most 18446744073709551615 (0xffffffffffffffff)" \
    "${D[@]}" --count $P64
refuse "--count -1" "regctl: monitor: --count '-1': negative" "${D[@]}" --count -1
refuse "--count +1" "regctl: monitor: --count '+1': a '+' sign is not taken" "${D[@]}" --count +1
refuse "--count 1x" "regctl: monitor: --count '1x': junk after the number" "${D[@]}" --count 1x

# ---- --interval: at most a day; --settle: at most a minute
D=(--backend sim --dry-run monitor e5_2600v2 "$E" --count 1)
W1="(want 1s, 250ms, 0; at most 86400s)"
accept "--interval 0" "" "${D[@]}" --interval 0
accept "--interval 86400s (the limit)" "" "${D[@]}" --interval 86400s
accept "--interval 86400000ms (the limit)" "" "${D[@]}" --interval 86400000ms
refuse "--interval 86401" "regctl: monitor: --interval '86401': too large: at most 86400 $W1" "${D[@]}" --interval 86401
refuse "--interval 86400001ms" "regctl: monitor: --interval '86400001ms': too large: at most 86400000 $W1" \
    "${D[@]}" --interval 86400001ms
refuse "--interval 2^32" "regctl: monitor: --interval '$P32': too large: at most 86400 $W1" "${D[@]}" --interval $P32
refuse "--interval 2^64us" "regctl: monitor: --interval '${P64}us': too large: at most 86400000000 $W1" \
    "${D[@]}" --interval ${P64}us
refuse "--interval -1s" "regctl: monitor: --interval '-1s': negative $W1" "${D[@]}" --interval -1s
refuse "--interval ' 1s'" "regctl: monitor: --interval ' 1s': space before the number $W1" "${D[@]}" --interval ' 1s'
refuse "--interval 1.5s" "regctl: monitor: --interval '1.5s': junk after the number $W1" "${D[@]}" --interval 1.5s
refuse "--interval inf" "regctl: monitor: --interval 'inf': not a number $W1" "${D[@]}" --interval inf
W60="(want 1s, 250ms, 0; at most 60s)"
accept "--settle 0" "" "${D[@]}" --interval 0 --settle 0
accept "--settle 60s (the limit)" "" "${D[@]}" --interval 0 --settle 60s
refuse "--settle 61s" "regctl: monitor: --settle '61s': too large: at most 60 $W60" "${D[@]}" --settle 61s
refuse "--settle 2^32ms" "regctl: monitor: --settle '${P32}ms': too large: at most 60000 $W60" "${D[@]}" --settle ${P32}ms
refuse "--settle 2^64" "regctl: monitor: --settle '$P64': too large: at most 60 $W60" "${D[@]}" --settle $P64
refuse "--settle -1ms" "regctl: monitor: --settle '-1ms': negative $W60" "${D[@]}" --settle -1ms
refuse "--settle 1x" "regctl: monitor: --settle '1x': junk after the number $W60" "${D[@]}" --settle 1x

# ---- --sim-sockets: 1 to 64; --socket lists; --sim-rate N: signed, 64 bits
K=(--backend sim monitor e5_2600v2 "$E" --interval 0 --count 1 --socket all)
accept "--sim-sockets 1" "total" "${K[@]}" --sim-sockets 1
accept "--sim-sockets 64 (the limit)" "S63" "${K[@]}" --sim-sockets 64
refuse "--sim-sockets 0" "regctl: monitor: --sim-sockets '0': too small: at least 1" "${K[@]}" --sim-sockets 0
for v in 65 $P32 $P64; do
    refuse "--sim-sockets $v" "regctl: monitor: --sim-sockets '$v': too large: at most 64" "${K[@]}" --sim-sockets $v
done
refuse "--sim-sockets -1" "regctl: monitor: --sim-sockets '-1': negative" "${K[@]}" --sim-sockets -1
WS="(want all, or a list: 0,1 or 0-3)"
accept "--socket 0" "total" "${K[@]/all/0}"
for v in 2147483648 $P32 $P64; do
    refuse "--socket $v" "regctl: monitor: bad --socket '$v': '$v': too large: at most 2147483647 $WS" \
        --backend sim monitor e5_2600v2 "$E" --socket $v
done
refuse "--socket 0-$P32" "regctl: monitor: bad --socket '0-$P32': '0-$P32': too large: at most 2147483647 $WS" \
    --backend sim monitor e5_2600v2 "$E" --socket 0-$P32
refuse "--socket ' 0'" "regctl: monitor: bad --socket ' 0': ' 0': space before the number $WS" \
    --backend sim monitor e5_2600v2 "$E" --socket ' 0'
refuse "--socket +0" "regctl: monitor: bad --socket '+0': '+0': a '+' sign is not taken $WS" \
    --backend sim monitor e5_2600v2 "$E" --socket +0
refuse "--socket 0x" "regctl: monitor: bad --socket '0x': '0x': junk after the number $WS" \
    --backend sim monitor e5_2600v2 "$E" --socket 0x
refuse "--sim-rate @2^32" "regctl: monitor: --sim-rate '$E=5@$P32': socket after '@': too large: at most 2147483647" \
    "${K[@]}" --sim-rate "$E=5@$P32"
R=(--backend sim monitor e5_2600v2 "$E" --interval 0 --count 1 --sim-rate)
accept "--sim-rate N = 2^32" "^ +1 +4294967296$" "${R[@]}" "$E=$P32"
refuse "--sim-rate N = 2^64" \
    "regctl: monitor: --sim-rate N '$P64': too large: at most 9223372036854775807 (0x7fffffffffffffff)" \
    "${R[@]}" "$E=$P64"
refuse "--sim-rate N = -2^63" \
    "regctl: monitor: --sim-rate N '-9223372036854775808': too small: at least -9223372036854775807 (-0x7fffffffffffffff)" \
    "${R[@]}" "$E=-9223372036854775808"
refuse "--sim-rate N = 1x" "regctl: monitor: --sim-rate N '1x': junk after the number" "${R[@]}" "$E=1x"

# ---- a CPU no machine has: "no such CPU" in little memory (was: a per-CPU array of 1.18 GB).
# Under a 100 MB address-space limit; under ASan (SAN=1), which reserves terabytes of address
# space for its shadow, the peak resident size (GNU time) is held to 100 MB instead.
mkdir -p "$tmp/cpu/0"
head -c 4096 /dev/zero >"$tmp/cpu/0/msr"
bigcpu() { # NAME CPU WANT-IN-STDERR ARGS...
    local name=$1 cpu=$2 want=$3 out rc rss; shift 3
    local cmd=("$REGCTL" --force-cpu --msr-root "$tmp/cpu" --cpu "$cpu" "$@")
    if [ "${SAN:-}" = 1 ]; then
        if [ ! -x /usr/bin/time ]; then tap_skip "$name" "SAN=1 and GNU time is missing (Debian: time)"; return; fi
        out=$(/usr/bin/time -f 'maxrss %M' "${cmd[@]}" 2>&1)
        rc=$?
        rss=$(echo "$out" | sed -n 's/^maxrss //p')
        out=$(echo "$out" | grep -v '^maxrss ' | grep -v '^Command exited')
        if [ $rc = 1 ] && [ "$out" = "$want" ] && [ -n "$rss" ] && [ "$rss" -lt 100000 ]; then tap_ok "$name"
        else tap_fail "$name" "exit $rc, peak ${rss:-?} kB" "$out"; fi
    else
        out=$( (ulimit -v 100000 && "${cmd[@]}") 2>&1)
        rc=$?
        if [ $rc = 1 ] && [ "$out" = "$want" ]; then tap_ok "$name"; else tap_fail "$name" "exit $rc" "$out"; fi
    fi
}
bigcpu "--cpu 50000000 in 100 MB: no such CPU" 50000000 \
    "regctl: reading 'ubox.U_MSR_PMON_CTL0' (msr 0xc10, cpu 50000000) failed: no such CPU, or the msr driver is not loaded (modprobe msr)" \
    read e5_2600.ubox.U_MSR_PMON_CTL0
bigcpu "--cpu 2147483647 write in 100 MB: no such CPU" 2147483647 \
    "regctl: writing 'ubox.U_MSR_PMON_CTL0' (msr 0xc10, cpu 2147483647) failed: no such CPU, or the msr driver is not loaded (modprobe msr)" \
    write e5_2600.ubox.U_MSR_PMON_CTL0 en=1

tap_done
