#!/usr/bin/env bash
# tests/svd/run-write-as-read.sh - regctl write refuses a value that changes a field whose
# writeConstraint is writeAsRead ("only the last read value can be written", CMSIS-SVD.xsd),
# exit 1 with libregrt's message naming the register and field, and writes one that keeps it;
# a field of that kind the command does not name keeps the value read, not its reset value.
#   - tests/svd/write-as-read.svd on the simulator (its JSON model through --spec): GUARD.LOCK at
#     reset 0x345A holds KEY [7:0] = 0x5A and SEQ [15:12] = 3, both writeAsRead, EN [8] = 0 and
#     MODE [11:10] = 1 (worked out by hand from the file);
#   - a regspec MSR register with write-constraint="write-as-read" (written below, with and
#     without block-names) through the msr backend on a file standing in for /dev/cpu/0/msr,
#     which holds KEY = 0xC3, not the reset value 0x5A: `write EN=1` keeps 0xC3, `write
#     KEY=0x5a` is refused and writes nothing.
# The values wanted are built from the fields' places in the C header regc writes for each spec
# (_SHIFT, _MASK), compiled by the C compiler, and compared with regctl's output bit by bit.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
: "${BUILD:=build}" "${CC:=cc}"
regctl=${REGCTL:-$BUILD/regctl}
case $regctl in /*) ;; *) regctl=$tap_top/$regctl ;; esac

if ! command -v jq >/dev/null; then
    tap_skip_rest "jq is not installed (tools/install-deps.sh)" "regctl write and writeAsRead"
fi

# same NAME GOT WANT: GOT and WANT (numbers) equal bit by bit, else the bits that differ
same() {
    local name=$1 got=$2 want=$3 i diff=()
    for ((i = 0; i < 64; i++)); do
        (((got >> i & 1) != (want >> i & 1))) && diff+=("bit $i is $((got >> i & 1))")
    done
    if [ ${#diff[@]} -eq 0 ]; then
        tap_ok "$name"
    else
        tap_fail "$name" "got $got, want $(printf '%#x' "$want")" "${diff[*]}"
    fi
}

# refused NAME STATUS WANT_STDERR: exit 1, the message, and nothing written (no "wrote" line)
refused() {
    local name=$1 st=$2 want=$3
    if [ "$st" -eq 1 ] && [ "$(cat "$tmp/err")" = "$want" ] && ! grep -q '^wrote' "$tmp/out"; then
        tap_ok "$name"
    else
        tap_fail "$name" "exit $st" "got:  $(head -n 1 "$tmp/err")" "want: $want" \
            "$(head -n 1 "$tmp/out")"
    fi
}

# ---- write-as-read.svd on the simulator
if ! "$regc" tests/svd/write-as-read.svd -t json -o "$tmp/war.json" 2>"$tmp/err" ||
    ! "$regc" tests/svd/write-as-read.svd -o "$tmp/war.h" 2>"$tmp/err"; then
    tap_fail "regc compiles tests/svd/write-as-read.svd" "$(head -n 1 "$tmp/err")"
    tap_done
    exit 0
fi
cat >"$tmp/want.c" <<'C'
#include <stdio.h>
#include "war.h"
#define F(name, v) (((uint64_t)(v) << WAR_GUARD_LOCK_##name##_SHIFT) & WAR_GUARD_LOCK_##name##_MASK)
int main(void)
{
    printf("%#llx %#llx\n", (unsigned long long)(F(KEY, 0x05) | F(MODE, 1) | F(SEQ, 3)),
           (unsigned long long)(F(KEY, 0x5a) | F(EN, 1) | F(MODE, 2) | F(SEQ, 3)));
    return 0;
}
C
if ! $CC -o "$tmp/want" "$tmp/want.c" 2>"$tmp/cc" || ! read -r v_key5 v_en < <("$tmp/want"); then
    tap_fail "the header of write-as-read.svd compiles" "$(head -n 3 "$tmp/cc")"
    tap_done
    exit 0
fi
sim=("$regctl" --spec "$tmp/war.json" --backend sim)
cite="(WAR System View Description (CMSIS-SVD), GUARD.LOCK)"

"${sim[@]}" write WAR.GUARD.LOCK KEY=5 >"$tmp/out" 2>"$tmp/err"
refused "write KEY=5 (KEY reads 0x5a): refused, exit 1, the register and field named" $? \
    "regctl: refusing $v_key5 for 'GUARD.GUARD.LOCK': field 'KEY' [7:0] may only be written as read (writeAsRead): it reads 0x5a, the value gives it 0x5 $cite"

"${sim[@]}" --rmw write WAR.GUARD.LOCK SEQ=0 >"$tmp/out" 2>"$tmp/err"
refused "--rmw write SEQ=0 (SEQ reads 3): refused, exit 1, SEQ named" $? \
    "regctl: refusing 0x45a for 'GUARD.GUARD.LOCK': field 'SEQ' [15:12] may only be written as read (writeAsRead): it reads 0x3, the value gives it 0x0 $cite"

if out=$("${sim[@]}" --json write WAR.GUARD.LOCK EN=1 MODE=2 2>"$tmp/err") &&
    read -r written back < <(jq -r '"\(.written) \(.value)"' <<<"$out"); then
    same "write EN=1 MODE=2: written with KEY and SEQ as read" "$written" "$v_en"
    same "write EN=1 MODE=2: reads back so" "$back" "$v_en"
else
    tap_fail "write EN=1 MODE=2: written with KEY and SEQ as read" "$(head -n 1 "$tmp/err")"
    tap_fail "write EN=1 MODE=2: reads back so"
fi

if out=$("${sim[@]}" --json write WAR.GUARD.LOCK KEY=0x5a EN=1 MODE=2 2>"$tmp/err"); then
    same "write KEY=0x5a (as read) EN=1 MODE=2: written" "$(jq -r .value <<<"$out")" "$v_en"
else
    tap_fail "write KEY=0x5a (as read) EN=1 MODE=2: written" "$(head -n 1 "$tmp/err")"
fi

# ---- a regspec MSR register, on a file that holds another value than the reset one; the spec
# with block-names="true" (SVD's naming) and without: the JSON export carries the field's
# write_constraint either way (docs/json.md)
cat >"$tmp/wantmsr.c" <<'C'
#include <stdio.h>
#include "warmsr.h"
#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)
#define F(name, v) (((uint64_t)(v) << XCAT(STEM, name##_SHIFT)) & XCAT(STEM, name##_MASK))
int main(void)
{
    printf("%#llx %#llx %#llx\n", (unsigned long long)F(KEY, 0xc3),
           (unsigned long long)(F(KEY, 0xc3) | F(EN, 1)), (unsigned long long)(F(KEY, 0x5a) | F(EN, 1)));
    return 0;
}
C
# msr_put VALUE / msr_get: the 8 bytes at 0x10 of ROOT/0/msr, little-endian
mkdir -p "$tmp/cpu/0"
msr_put() { python3 -c "import sys; f = open(sys.argv[1], 'wb'); f.write(bytes(0x10) + int(sys.argv[2], 0).to_bytes(8, 'little'))" "$tmp/cpu/0/msr" "$1"; }
msr_get() { python3 -c "import sys; print(int.from_bytes(open(sys.argv[1], 'rb').read()[0x10:0x18], 'little'))" "$tmp/cpu/0/msr"; }

for form in block-names plain; do
    names='block-names="true"' stem=WARMSR_G_LOCK_
    [ $form = plain ] && names='' stem=WARMSR_LOCK_
    cat >"$tmp/warmsr.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<regspec name="warmsr" prefix="WARMSR" version="1" $names>
  <source id="t" title="writeAsRead test"/>
  <block name="G">
    <register name="LOCK" space="msr" address="0x10" width="64" reset="0x5a" src="t">
      <field name="KEY" bits="7:0" access="RW" reset="0x5a" write-constraint="write-as-read"/>
      <field name="EN" bits="8" access="RW"/>
      <field name="rsv" bits="63:9" access="rsv"/>
    </register>
  </block>
</regspec>
XML
    if ! "$regc" "$tmp/warmsr.xml" -t json -o "$tmp/warmsr.json" 2>"$tmp/err" ||
        ! "$regc" "$tmp/warmsr.xml" -o "$tmp/warmsr.h" 2>>"$tmp/err" ||
        ! $CC -DSTEM=$stem -o "$tmp/wantmsr" "$tmp/wantmsr.c" 2>>"$tmp/err" ||
        ! read -r held kept refused_v < <("$tmp/wantmsr"); then
        tap_fail "msr ($form): the MSR spec and its header compile" "$(head -n 3 "$tmp/err")"
        continue
    fi
    msr=("$regctl" --spec "$tmp/warmsr.json" --msr-root "$tmp/cpu")

    msr_put "$held"
    if "${msr[@]}" write warmsr.G.LOCK EN=1 >"$tmp/out" 2>"$tmp/err"; then
        same "msr ($form): write EN=1 keeps KEY as read (0xc3), not its reset value" "$(msr_get)" "$kept"
    else
        tap_fail "msr ($form): write EN=1 keeps KEY as read (0xc3), not its reset value" "$(head -n 1 "$tmp/err")"
    fi

    "${msr[@]}" write warmsr.G.LOCK KEY=0x5a EN=1 >"$tmp/out" 2>"$tmp/err"
    refused "msr ($form): write KEY=0x5a (the reset value; KEY reads 0xc3): refused, exit 1" $? \
        "regctl: refusing $refused_v for 'G.LOCK': field 'KEY' [7:0] may only be written as read (writeAsRead): it reads 0xc3, the value gives it 0x5a (writeAsRead test)"
    same "msr ($form): the refused write left the register as it was" "$(msr_get)" "$kept"
done
tap_done
