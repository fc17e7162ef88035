#!/usr/bin/env bash
# tests/svd/run-encoding.sh - an SVD file is read in the encoding its XML declaration names
# (XML 1.0, 4.3.3), not taken as UTF-8: the same device written in UTF-8 and in ISO-8859-1,
# each saying so. In ISO-8859-1 'é' is the byte 0xE9 and '°' 0xB0 (the standard's table); read
# right, both files give the description "Température en °C" as written here in UTF-8, in -t json,
# and the same C header. The SVD reader hands libxml2 its own copy of the file through a buffer
# that can decode; a cheaper input without one (docs/performance.md, "The loaders and libxml2")
# reads no such file.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

write_device() {   # encoding: the device in UTF-8, declared as 'encoding'
    cat <<EOF
<?xml version="1.0" encoding="$1"?>
<device schemaVersion="1.3">
  <name>DEMO</name>
  <width>32</width>
  <size>32</size>
  <resetValue>0</resetValue>
  <peripherals>
    <peripheral>
      <name>TIMER</name>
      <baseAddress>0x40000000</baseAddress>
      <registers>
        <register>
          <name>TEMP</name>
          <description>Température en °C</description>
          <addressOffset>0x0</addressOffset>
        </register>
      </registers>
    </peripheral>
  </peripherals>
</device>
EOF
}
write_device UTF-8 >"$tmp/utf8.svd"
write_device ISO-8859-1 | python3 -c \
    'import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().decode("utf-8").encode("latin-1"))' \
    >"$tmp/latin1.svd"
# the bytes as ISO-8859-1 has them, not as UTF-8 does
if grep -q $'Temp\xe9rature en \xb0C' "$tmp/latin1.svd"; then
    tap_ok "the ISO-8859-1 file holds 0xE9 and 0xB0"
else
    tap_fail "the ISO-8859-1 file holds 0xE9 and 0xB0"
fi

for enc in utf8 latin1; do
    if ! "$regc" -t json "$tmp/$enc.svd" -o "$tmp/$enc.json" 2>"$tmp/$enc.err"; then
        tap_fail "$enc: -t json" "$(head -n 3 "$tmp/$enc.err")"
        continue
    fi
    desc=$(python3 -c 'import json, sys
for b in json.load(open(sys.argv[1]))["blocks"]:
    for r in b["registers"]:
        if r["name"] == "TEMP":
            print(r["desc"])' "$tmp/$enc.json")
    if [ "$desc" = "Température en °C" ]; then
        tap_ok "$enc: the description as written"
    else
        tap_fail "$enc: the description as written" "got: $desc"
    fi
    "$regc" -t c "$tmp/$enc.svd" -o "$tmp/$enc.h" 2>"$tmp/$enc.err" ||
        tap_fail "$enc: -t c" "$(head -n 3 "$tmp/$enc.err")"
done
if cmp -s "$tmp/utf8.h" "$tmp/latin1.h"; then
    tap_ok "the same C header from both"
else
    tap_fail "the same C header from both" "$(diff "$tmp/utf8.h" "$tmp/latin1.h" | head -n 5)"
fi
tap_done
