#!/usr/bin/env bash
# tests/svd/run-against.sh - regc DEVICE.svd --against VENDOR.h on the test set's
# vendor pairs (../shared/svd/vendor-headers, docs/svd.md):
#   - Nordic generates its *_bitfields.h from the same source as its SVD: every
#     _Pos/_Msk both define must agree (exit 0, nothing printed), and the number
#     of pairs compared is pinned (a naming change that compares fewer fails);
#   - ST maintains its headers apart from its SVD files: the disagreements are the
#     reviewed list tests/svd/st-disagreements.txt (a new or a lost one fails);
#   - a header that cannot be read is an I/O error (exit 3).
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

. tests/svd/testset.sh
svd_need vendor-headers "SVD vendor pairs"

# name  pairs both define (measured; the header's own count of _Pos names is one to eight more)
while read -r name pairs; do
    "$regc" -Wno-svd-access -Wno-svd-outside-block "$svd/vendor-headers/nordic/$name.svd" \
        --against "$svd/vendor-headers/nordic/${name}_bitfields.h" >"$tmp/out" 2>"$tmp/err"
    st=$?
    want="regc: $pairs _Pos/_Msk pairs defined by both, 0 disagree"
    if [ "$st" -eq 0 ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = "$want" ]; then
        tap_ok "nordic $name: all $pairs shared _Pos/_Msk agree"
    else
        tap_fail "nordic $name: exit $st" "$(head -n 5 "$tmp/out")" "$(cat "$tmp/err")" "want: $want"
    fi
done <<'LIST'
nrf51 836
nrf52840 2686
nrf5340_application 2988
nrf9160 2359
LIST

for pair in STM32F401:stm32f401xe STM32F407:stm32f407xx STM32F411:stm32f411xe \
    STM32F429:stm32f429xx STM32F446:stm32f446xx; do
    "$regc" "$svd/corpus/STMicro/${pair%%:*}.svd" --against "$svd/vendor-headers/st/${pair#*:}.h" \
        2>/dev/null | sed "s|$svd/||"
done >"$tmp/st"
grep -v '^#' tests/svd/st-disagreements.txt | grep -v '^$' >"$tmp/want"
tap_diff "ST pairs: the reviewed disagreements (tests/svd/st-disagreements.txt)" "$tmp/want" "$tmp/st"

"$regc" "$svd/vendor-headers/nordic/nrf51.svd" --against "$tmp/missing.h" >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" -eq 3 ] && grep -q "missing.h: error: cannot read file" "$tmp/err"; then
    tap_ok "an unreadable vendor header: I/O error, exit 3"
else
    tap_fail "an unreadable vendor header: exit $st" "$(cat "$tmp/err")"
fi
tap_done
