#!/usr/bin/env bash
# run-detect.sh - regctl detect and the CPU-model check (docs/runtime.md
# "Detecting the machine"): fake CPUID copies (leaf 0 and 1, 16 bytes each, as
# `head -c 32 /dev/cpu/N/cpuid` gives them) built here from the CPUID
# signatures of the kernel's intel-family.h models, fake sysfs PCI trees, the
# real /dev/cpu/0/cpuid against /proc/cpuinfo, and every spec citing a model.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
# golden NAME STATUS ARGS...: as tests/runtime/golden.sh, with the temporary directory written TMP
golden() {
    local name=$1 want=$2; shift 2
    local dir=tests/runtime/golden
    "$REGCTL" "$@" 2>&1 | sed "s|$tmp|TMP|g" >"$tmp/$name.out"
    local rc=${PIPESTATUS[0]}
    echo "exit $rc" >>"$tmp/$name.out"
    if [ "${UPDATE_GOLDEN:-}" = 1 ]; then cp "$tmp/$name.out" "$dir/$name.out"; fi
    if [ "$rc" != "$want" ]; then tap_fail "$name: exit $rc, expected $want" "$(head -3 "$tmp/$name.out")"; return; fi
    tap_diff "$name" "$dir/$name.out" "$tmp/$name.out"
}
. tests/runtime/regctl.sh
REGC=${REGC:-$BUILD/regc}
tap_setup tmp

# cpuid_copy DIR CPU VENDOR EAX1: leaf 0 (eax=0xd, vendor in ebx, edx, ecx) and leaf 1 (eax=EAX1)
cpuid_copy() {
    mkdir -p "$1/$2"
    python3 - "$1/$2/cpuid" "$3" "$4" <<'PY'
import struct, sys
path, vendor, eax1 = sys.argv[1], sys.argv[2].encode(), int(sys.argv[3], 0)
ebx, edx, ecx = vendor[0:4], vendor[4:8], vendor[8:12]
open(path, "wb").write(struct.pack("<I", 0xd) + ebx + ecx + edx + struct.pack("<4I", eax1, 0, 0, 0))
PY
}

# Signatures (CPUID.1:EAX): family 6, model 0x3E = ext model 3, model 0xE; stepping 4.
cpuid_copy "$tmp/ivt" 0 GenuineIntel 0x306E4
cpuid_copy "$tmp/jkt" 0 GenuineIntel 0x206D7
cpuid_copy "$tmp/nhmex" 0 GenuineIntel 0x206E6
cpuid_copy "$tmp/snb" 0 GenuineIntel 0x206A7
cpuid_copy "$tmp/tulsa" 0 GenuineIntel 0xF68   # family 0xF, model 6, stepping 8
cpuid_copy "$tmp/dunnington" 0 GenuineIntel 0x106D1
cpuid_copy "$tmp/skx" 0 GenuineIntel 0x50654 # Skylake-X (0x55): no spec
cpuid_copy "$tmp/amd" 0 AuthenticAMD 0x306E4 # Ivy Bridge-EP's numbers, another vendor
cpuid_copy "$tmp/ivt" 3 GenuineIntel 0x306E4
head -c 20 "$tmp/ivt/0/cpuid" >"$tmp/short" && mkdir -p "$tmp/shortroot/0" && mv "$tmp/short" "$tmp/shortroot/0/cpuid"

for m in ivt jkt nhmex snb tulsa dunnington skx amd; do
    want=0; [ "$m" = skx ] || [ "$m" = amd ] && want=1
    golden "detect-$m" $want --msr-root "$tmp/$m" --sysfs-root "$tmp/nosys" detect
done
golden detect-json 0 --msr-root "$tmp/ivt" --sysfs-root "$tmp/nosys" --json detect
golden detect-cpu3 0 --msr-root "$tmp/ivt" --sysfs-root "$tmp/nosys" --cpu 3 detect
golden detect-no-file 1 --msr-root "$tmp/none" detect
golden detect-short 1 --msr-root "$tmp/shortroot" detect
golden detect-args 2 --msr-root "$tmp/ivt" detect e5_2600v2

# uncore PCI ids: two of the E5-2600 v2's device ids (from the spec's JSON) present, one other device
ids=$("$REGC" -t json regspec/e5_2600v2.xml | python3 -c '
import json, sys
d = json.load(sys.stdin)
ids = sorted({(i["pci"]["vendor"], i["pci"]["device"]) for b in d["blocks"] for i in b["instances"] if i.get("pci")})
print(len(ids)); [print(v, dv) for v, dv in ids[:2]]')
n=$(echo "$ids" | head -1)
k=0
echo "$ids" | tail -n +2 | while read -r v dv; do
    k=$((k + 1)); d=$tmp/sys/bus/pci/devices/0000:ff:0$k.0; mkdir -p "$d"
    echo "$v" >"$d/vendor"; echo "$dv" >"$d/device"
done
mkdir -p "$tmp/sys/bus/pci/devices/0000:00:00.0"; echo 0x8086 >"$tmp/sys/bus/pci/devices/0000:00:00.0/vendor"; echo 0x0001 >"$tmp/sys/bus/pci/devices/0000:00:00.0/device"
out=$("$REGCTL" --msr-root "$tmp/ivt" --sysfs-root "$tmp/sys" detect)
if echo "$out" | grep -q "uncore PCI devices: 2 of $n device ids present"; then tap_ok "detect counts the spec's uncore PCI ids in sysfs (2 of $n)"; else tap_fail "detect counts uncore PCI ids" "$out"; fi

# the check: refused on msr (default backend), pci and perf; not with --force-cpu, sim, --dry-run
W=(write e5_2600.ubox.U_MSR_PMON_CTL0 ev_sel=0x42 en=1)
golden cpu-refused 1 --msr-root "$tmp/ivt" "${W[@]}"
golden cpu-refused-pci 1 --msr-root "$tmp/ivt" --sysfs-root "$tmp/sys" read e5_2600.imc.imc2.MC_CHy_PCI_PMON_CTL3
golden cpu-refused-perf 1 --msr-root "$tmp/ivt" --backend perf read e5_2600.ubox.U_MSR_PMON_CTL0
golden cpu-refused-monitor 1 --msr-root "$tmp/jkt" monitor e5_2600v2 'ubox:EVENT_MSG.DOORBELL_RCVD' --interval 0 --count 1
golden cpu-no-cpuid 1 --msr-root "$tmp/none" "${W[@]}"
out=$("$REGCTL" --msr-root "$tmp/jkt" "${W[@]}" 2>&1)
if ! echo "$out" | grep -q "does not match"; then tap_ok "a matching CPU passes the check (fails later, at the msr device)"; else tap_fail "a matching CPU passes the check" "$out"; fi
out=$("$REGCTL" --force-cpu --msr-root "$tmp/ivt" "${W[@]}" 2>&1)
if ! echo "$out" | grep -q "does not match"; then tap_ok "--force-cpu skips the check"; else tap_fail "--force-cpu skips the check" "$out"; fi
golden cpu-sim 0 --msr-root "$tmp/ivt" --backend sim "${W[@]}"
golden cpu-dry-run 0 --msr-root "$tmp/ivt" --dry-run "${W[@]}"

# the real CPU: /dev/cpu/0/cpuid against /proc/cpuinfo (an independent decoding: the kernel's)
if [ -r /dev/cpu/0/cpuid ] && grep -q '^cpu family' /proc/cpuinfo; then
    fam=$(awk -F: '/^cpu family/{print $2+0; exit}' /proc/cpuinfo)
    mod=$(awk -F: '/^model[ \t]*:/{print $2+0; exit}' /proc/cpuinfo)
    ven=$(awk -F': ' '/^vendor_id/{print $2; exit}' /proc/cpuinfo)
    got=$("$REGCTL" --json detect | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["vendor"], d["family"], d["model"])')
    if [ "$got" = "$ven $fam $mod" ]; then tap_ok "real cpuid: $got as /proc/cpuinfo says"; else tap_fail "real cpuid" "regctl: $got, /proc/cpuinfo: $ven $fam $mod"; fi
elif [ ! -r /dev/cpu/0/cpuid ]; then
    tap_skip "real cpuid against /proc/cpuinfo" "no readable /dev/cpu/0/cpuid (modprobe cpuid, root)"
else
    tap_skip "real cpuid against /proc/cpuinfo" "/proc/cpuinfo has no 'cpu family' line (not an x86 CPU)"
fi

# every spec in regspec/ lists at least one <cpu> model, and each cites a source
for f in regspec/*.xml; do
    got=$("$REGC" -t json "$f" | python3 -c '
import json, sys
spec = json.load(sys.stdin)["spec"]
titles = {s["id"]: s["title"] for s in spec["sources"]}
c = spec["cpus"]
bad = [x for x in c if not titles.get(x["source"]["src"])]
print(len(c), len(bad))')
    if [ "${got%% *}" -ge 1 ] && [ "${got##* }" = 0 ]; then tap_ok "$f: $got cpu model(s), all cited"; else tap_fail "$f: every spec names cited cpu models" "$got"; fi
done
tap_done
