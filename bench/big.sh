#!/usr/bin/env bash
# bench/big.sh - `make bench-big` (not part of `make check` or `make bench`):
# regc on a generated spec of a million fields.
#
# bench/gen-spec.py 512 128 16 writes 512 blocks x 128 registers x 16 fields
# = 1,048,576 fields (about 300 MB of XML). This script generates it at 1/8,
# 1/4, 1/2 and full size (FRACS, default "8 4 2 1"; FRACS=8 runs the 1/8 size
# only), one size at a time, and runs `regc --check SPEC` and `regc -t c SPEC`
# (the header into a file beside the spec, removed after each size) REPS times
# each (default 3), printing the median wall time, CPU time and peak memory,
# the growth of time and memory over the previous size (2.00 per doubling is
# linear) and whether peak memory stays under 1 GiB. Then the issue-16
# verdicts: time linear from the 1/8 size, and peak memory under 1 GiB at
# full size. Linear means the growth per doubling of the least-squares line
# through log2(time) over log2(fields), from the smallest size measured to
# the largest, is at most 2.20 (10% over linear); one step's growth is
# printed but not judged alone, since a run's time varies by some 15% on a
# quiet VM. Judged on wall time and on CPU time, which a loaded machine
# disturbs less.
#
# It refuses to start, saying what is missing, when the spec's directory
# (TMPDIR, default /tmp) has too little free disk for the largest size or the
# machine too little available memory for regc's cap: each regc run is
# stopped once its resident memory passes LIMIT_MB (default 2048 MiB), so a
# run that would exhaust a shared machine ends with "stopped" instead. A spec
# regc refuses (the loader's size limit, say) is reported with regc's first
# line of error, and the other sizes still run.
# REGC (default build/regc) names the binary; BLOCKS (default 512, a
# multiple of 8) scales the full size. MEASURE (default `python3
# bench/measure.py`) is the command that runs and measures each regc run, as
# measure.py does ("SECONDS MAXRSS_KB STATUS CPU_SECONDS" from --cpu --repeat
# N --limit-mb M CMD...): tests/perf/run-bench-big.sh gives a stand-in whose
# numbers are set, so that the verdicts are judged without the machine's load.
set -eu
cd "$(dirname "$0")/.."
: "${REGC:=build/regc}" "${FRACS:=8 4 2 1}" "${LIMIT_MB:=2048}" "${BLOCKS:=512}" "${REPS:=3}"
: "${MEASURE:=python3 bench/measure.py}"
blocks=$BLOCKS regs=128 fields=16
[ -x "$REGC" ] || { echo "bench-big: $REGC not found: run make first" >&2; exit 1; }
case $blocks in *[!0-9]* | "") blocks=x ;; esac
[ "$blocks" != x ] && [ $((blocks % 8)) = 0 ] && [ "$blocks" -gt 0 ] ||
    { echo "bench-big: BLOCKS must be a positive multiple of 8 (got '$BLOCKS')" >&2; exit 1; }
case $REPS in *[!0-9]* | "" | 0) echo "bench-big: REPS must be a positive number of runs (got '$REPS')" >&2; exit 1 ;; esac
case $LIMIT_MB in *[!0-9]* | "" | 0) echo "bench-big: LIMIT_MB must be a positive number of MiB (got '$LIMIT_MB')" >&2; exit 1 ;; esac
for f in $FRACS; do
    case $f in 1 | 2 | 4 | 8) ;; *) echo "bench-big: FRACS takes 1, 2, 4 and 8 (got '$f')" >&2; exit 1 ;; esac
done

# What the largest size asked for needs: its spec and its header on disk (one
# block measured, times the blocks, plus 10%; the header is about 5.5 times the
# spec), and memory for regc up to its cap plus 512 MiB.
smallest=$(printf '%s\n' $FRACS | sort -n | head -n 1)
block_bytes=$(python3 bench/gen-spec.py 1 "$regs" "$fields" | wc -c)
need_disk_mb=$(((block_bytes * (blocks / smallest) * 11 / 10) * 13 / 2 / 1048576 + 64))
. bench/room.sh
need_room bench-big "the 1/$smallest spec" "$need_disk_mb" \
    "set TMPDIR to a larger disk, or FRACS to smaller sizes (FRACS=8: the 1/8 size only)."
dir=${TMPDIR:-/tmp}
tmp=$(mktemp -d "$dir/bench-big.XXXXXX"); trap 'rm -rf "$tmp"' EXIT

printf '%-5s %8s %6s | %-7s %8s %8s %7s | %6s %6s %6s | %s\n' size fields MB mode "time s" "cpu s" "peak MB" \
    "t grow" "c grow" "m grow" "peak < 1 GiB"
declare -A prev_t prev_c prev_m grows cgrows points verdict_m
for frac in $(printf '%s\n' $FRACS | sort -rn); do
    b=$((blocks / frac)) n=$((blocks / frac * regs * fields))
    spec=$tmp/big-$frac.xml
    python3 bench/gen-spec.py "$b" "$regs" "$fields" >"$spec"
    mb=$(awk -v s="$(stat -c %s "$spec")" 'BEGIN { printf "%.1f", s / 1048576 }')
    for mode in --check "-t c"; do
        # the header to a file, as a build writes it (regc streams it there; to a pipe
        # or device it would be held until the end); the million-field header is
        # about 1.6 GB, over the default output limit of 1 GiB, so the limit is lifted
        args=(--check)
        [ "$mode" = "-t c" ] && args=(-t c -ftemplate-output-limit=0 -o "$tmp/out.h")
        # shellcheck disable=SC2086 # MEASURE is a command and its arguments
        read -r t m st c < <($MEASURE --cpu --repeat "$REPS" --limit-mb "$LIMIT_MB" "$REGC" "${args[@]}" "$spec" 2>"$tmp/err")
        rm -f "$tmp/out.h"
        if [ "$st" = over ]; then
            printf '%-5s %8d %6s | %-7s stopped: resident memory passed LIMIT_MB=%d MiB after %.1f s\n' \
                "1/$frac" "$n" "$mb" "$mode" "$LIMIT_MB" "$t"
            unset "prev_t[$mode]" "points[$mode]"; verdict_m[$mode]="over $LIMIT_MB MiB at 1/$frac"; continue
        elif [ "$st" != 0 ]; then
            printf '%-5s %8d %6s | %-7s refused or failed (status %s): %s\n' "1/$frac" "$n" "$mb" "$mode" "$st" \
                "$(head -n 1 "$tmp/err")"
            unset "prev_t[$mode]" "points[$mode]"; [ "$frac" = 1 ] && verdict_m[$mode]="not measured (refused)"; continue
        fi
        tg=- cg=- mg=-
        if [ -n "${prev_t[$mode]:-}" ]; then
            tg=$(awk -v a="$t" -v b="${prev_t[$mode]}" 'BEGIN { printf "%.2f", a / b }')
            cg=$(awk -v a="$c" -v b="${prev_c[$mode]}" 'BEGIN { printf "%.2f", a / b }')
            mg=$(awk -v a="$m" -v b="${prev_m[$mode]}" 'BEGIN { printf "%.2f", a / b }')
            grows[$mode]="${grows[$mode]:-} $tg" cgrows[$mode]="${cgrows[$mode]:-} $cg"
        fi
        under=$(awk -v m="$m" 'BEGIN { print m < 1048576 ? "yes" : "NO" }')
        printf '%-5s %8d %6s | %-7s %8.2f %8.2f %7d | %6s %6s %6s | %s\n' "1/$frac" "$n" "$mb" "$mode" "$t" "$c" \
            $((m / 1024)) "$tg" "$cg" "$mg" "$under"
        prev_t[$mode]=$t prev_c[$mode]=$c prev_m[$mode]=$m points[$mode]="${points[$mode]:-} $n:$t:$c"
        [ "$frac" = 1 ] && verdict_m[$mode]=$([ "$under" = yes ] && echo "PASS ($((m / 1024)) MB)" || echo "MISS ($((m / 1024)) MB)")
    done
    rm -f "$spec"
done
echo "(regc runs on one thread; -t c writes the header to a file;"
echo " medians of $REPS runs; t grow, c grow, m grow: wall time, CPU time and peak memory over the previous"
echo " size, 2.00 = linear)"
# linear POINTS COLUMN GROWS: the least-squares slope of log2(time) over log2(fields) through
# "fields:wall:cpu" POINTS (COLUMN 2: wall, 3: cpu), as a growth per doubling, at most 2.20
linear() {
    if [ -z "$3" ]; then echo "not measured (needs two sizes in a row)"; return; fi
    awk -v p="$1" -v col="$2" -v g="$3" 'BEGIN {
        n = split(p, pt, " ")
        for (i = 1; i <= n; i++) {
            split(pt[i], v, ":")
            if (v[col] <= 0) { printf "not measured (a time of 0 at %d fields)", v[1]; exit }
            x[i] = log(v[1]) / log(2); y[i] = log(v[col]) / log(2); sx += x[i]; sy += y[i]
        }
        for (i = 1; i <= n; i++) { sxy += (x[i] - sx / n) * (y[i] - sy / n); sxx += (x[i] - sx / n) ^ 2 }
        if (sxx == 0) { printf "not measured (needs two sizes in a row)"; exit }
        fit = 2 ^ (sxy / sxx)
        printf "%s (growth per doubling:%s; fitted %.2f)", fit <= 2.20 ? "PASS" : "MISS", g, fit }'
}
for mode in --check "-t c"; do
    echo "regc $mode: wall time linear: $(linear "${points[$mode]:-}" 2 "${grows[$mode]:-}"); CPU time linear: $(linear "${points[$mode]:-}" 3 "${cgrows[$mode]:-}")"
    echo "regc $mode: peak memory under 1 GiB at full size: ${verdict_m[$mode]:-not measured (FRACS has no full size)}"
done
echo "(wall time follows the machine's load; on a shared machine the CPU time is the steadier measure)"
