#!/usr/bin/env bash
# tests/perf/run-bench-derive.sh - bench/derive.sh (derivation chains, `make bench`): the spec it
# writes is one regc checks clean (a small one, REGS=40 CHAIN=8, really run), and its arithmetic
# judged on set numbers (a stand-in MEASURE: regc 1 s on the first size and 4 s on the second,
# xmllint 0.5 s: t x 2.00 then 8.00, t grow 4.00), never on the machine's speed; a bad REGS or
# CHAIN is refused.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp
if ! command -v xmllint >/dev/null || ! command -v python3 >/dev/null; then
    tap_skip "bench/derive.sh" "needs xmllint and python3"
    tap_done
    exit 0
fi

# the real run on a small spec: both sizes checked by regc without an error
if REGC="$regc" REGS=40 CHAIN=8 bash bench/derive.sh >"$tmp/out" 2>&1 &&
    grep -qE '^ +40 .*\| +[0-9.]+ +-$' "$tmp/out" && grep -qE '^ +80 ' "$tmp/out"; then
    tap_ok "the generated chains check clean, a line per size"
else
    tap_fail "the generated chains check clean, a line per size" "$(head -n 8 "$tmp/out")"
fi

# regc's seconds by the spec's size (its file name), xmllint 0.5 s
cat >"$tmp/measure" <<'SH'
#!/bin/sh
case " $* " in
*" xmllint "*) echo "0.5000 1000 0 0.5000" ;;
*chains-10.xml*) echo "1.0000 1000 0 1.0000" ;;
*) echo "4.0000 1000 0 4.0000" ;;
esac
SH
chmod +x "$tmp/measure"
REGC="$regc" REGS=10 CHAIN=3 MEASURE="$tmp/measure" bash bench/derive.sh >"$tmp/out" 2>&1
if grep -qE '^ +10 .*\| +1\.000 +1\.000 \| +0\.500 \| +2\.00 +-$' "$tmp/out" &&
    grep -qE '^ +20 .*\| +4\.000 +4\.000 \| +0\.500 \| +8\.00 +4\.00$' "$tmp/out"; then
    tap_ok "t x over xmllint's time, t grow over the previous size"
else
    tap_fail "t x over xmllint's time, t grow over the previous size" "$(cat "$tmp/out")"
fi

for bad in REGS=0 CHAIN=x; do
    tap_refused "$bad refused" "must be a positive number" env REGC="$regc" "$bad" bash bench/derive.sh
done
tap_done
