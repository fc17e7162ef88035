#!/usr/bin/env bash
# tests/cli/run-dump-stream.sh - `regc --dump-context -o FILE` goes to its
# temporary file as it is written, never held whole: its peak memory does
# not grow with the output. Measured by address space, never by time: the
# least `ulimit -v` a small spec's dump needs (found by bisection) is the
# base; a spec eight times larger must then fit in that base plus half the
# extra output it writes (held whole, the text alone would need all of it).
# A dump whose write fails part-way leaves FILE as it was and no temporary
# file (regc out of memory, SIGABRT, removes it too: tests/unit/test_outfile.c).
# Not under SAN=1: the sanitizers reserve
# far more address space than the program uses.
set -u
cd "$(dirname "$0")"
. ../tap.sh
tap_setup regc tmp

if [ "${SAN:-}" = 1 ]; then
    tap_skip "--dump-context -o: streamed" "SAN=1 build"
    tap_done
    exit 0
fi
if ! command -v python3 >/dev/null; then
    tap_skip "--dump-context -o: streamed" "no python3 (bench/gen-spec.py makes the specs)"
    tap_done
    exit 0
fi
cd "$tmp" || exit 1
ulimit -c 0 # a bisection step out of memory aborts: no core file
python3 "$tap_top/bench/gen-spec.py" 2 32 16 >small.xml
python3 "$tap_top/bench/gen-spec.py" 16 32 16 >big.xml

# dump KIB SPEC OUT: --dump-context SPEC -o OUT within KIB KiB of address space; its status
dump() {
    { (ulimit -v "$1"; exec "$regc" --dump-context "$2" -o "$3") 2>stderr; } 2>/dev/null
}

# the least address space (KiB, to 512) in which the small spec's dump succeeds
lo=1024 hi=1048576
if ! dump "$hi" small.xml small.json; then
    tap_fail "the small spec's dump in 1 GiB" "$(head -c 300 stderr)"
    tap_done
    exit 1
fi
while [ $((hi - lo)) -gt 512 ]; do
    mid=$(((lo + hi) / 2))
    if dump "$mid" small.xml small.json; then hi=$mid; else lo=$mid; fi
done
base=$hi
rm -f small.json
"$regc" --dump-context small.xml >small.json || exit 1
"$regc" --dump-context big.xml >big-ref.json || exit 1
small_kib=$(($(stat -c %s small.json) / 1024)) big_kib=$(($(stat -c %s big-ref.json) / 1024))
bound=$((base + (big_kib - small_kib) / 2))
problems=()
dump "$bound" big.xml big.json || problems+=("status $?: $(head -c 300 stderr)")
cmp -s big.json big-ref.json || problems+=("big.json differs from the dump to standard output")
msg="the dump of $big_kib KiB fits in $bound KiB: the small one's $base KiB plus half the $((big_kib - small_kib)) KiB more it writes"
if [ ${#problems[@]} -eq 0 ]; then tap_ok "$msg"; else tap_fail "$msg" "${problems[@]}"; fi

# a failure part-way: FILE as it was, no temporary file left
# fails NAME SETUP STATUS STDERR: --dump-context big.xml -o out.json after SETUP
fails() {
    local problems=() st
    echo old >out.json
    (eval "$2"; exec "$regc" --dump-context big.xml -o out.json) 2>stderr
    st=$?
    [ "$st" = "$3" ] || problems+=("status $st, expected $3")
    grep -qx "$4" stderr || problems+=("stderr: $(head -c 300 stderr)" "expected: $4")
    [ "$(cat out.json)" = old ] || problems+=("out.json changed: $(head -c 80 out.json)")
    ls -A | grep -q '\.tmp\.' && problems+=("a temporary file is left: $(ls -A | grep tmp)")
    if [ ${#problems[@]} -eq 0 ]; then tap_ok "$1"; else tap_fail "$1" "${problems[@]}"; fi
    rm -f out.json.tmp.*
}
fails "a write refused after 1 MiB (ulimit -f): out.json as it was, no temporary file" \
    "trap '' XFSZ; ulimit -f 1024" 3 "regc: error: cannot write 'out.json': File too large"
tap_done
