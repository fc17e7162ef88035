#!/bin/sh
# bench/render/gen-data.sh N - print a JSON data tree shaped like regc's:
# N registers in blocks of 100, each with 4 fields, 2 of them with named values.
set -eu
n=${1:-100000}
awk -v n="$n" 'BEGIN {
    printf "{\"chip\":\"BENCH\",\"blocks\":["
    for (r = 0; r < n; r++) {
        if (r % 100 == 0) {
            if (r) printf "]},"
            printf "{\"name\":\"blk%d\",\"regs\":[", r / 100
        } else printf ","
        printf "{\"name\":\"REG_%d\",\"addr\":\"0x%x\",\"width\":64,\"desc\":\"Register %d: counts */ things & <more>\",\"fields\":[", r, 3584 + r * 8, r
        for (f = 0; f < 4; f++) {
            printf "%s{\"name\":\"F%d\",\"lsb\":%d,\"msb\":%d,\"mask\":\"0x%x\",\"access\":\"RW\"", f ? "," : "", f, f * 16, f * 16 + 15, 65535
            if (f < 2) printf ",\"values\":[{\"name\":\"ON\",\"value\":1},{\"name\":\"OFF\",\"value\":0}]"
            printf ",\"last\":%s}", f == 3 ? "true" : "false"
        }
        printf "]}"
    }
    printf "]}]}\n"
}'
