#!/usr/bin/env bash
# bench/same-outputs.sh OLD_REGC NEW_REGC - do two builds of regc write the
# same bytes? For speed work that must change no output: each built-in
# template of TEMPLATES (default c cmsis json tables md html) over every file
# of the SVD test set (../shared/svd from the repository root, or
# REGC_SVD_DATA: corpus/*/*.svd and vendor-headers/nordic/*.svd) and the
# specs of regspec/, run by both binaries from the repository root with the
# same arguments; the output file, the diagnostics and the exit status are
# compared. One line per difference, a count at the end; exit status 1 when
# anything differs, 2 on a usage error.
set -u
[ $# -eq 2 ] || { echo "usage: bench/same-outputs.sh OLD_REGC NEW_REGC" >&2; exit 2; }
old=$(realpath "$1") new=$(realpath "$2")
if [ ! -x "$old" ] || [ ! -x "$new" ]; then
    echo "same-outputs: $1 or $2 is not a program" >&2
    exit 2
fi
cd "$(dirname "$0")/.." || exit 2
svd=${REGC_SVD_DATA:-../shared/svd}
inputs=$(ls regspec/*.xml "$svd"/corpus/*/*.svd "$svd"/vendor-headers/nordic/*.svd 2>/dev/null)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
runs=0 diffs=0
for f in $inputs; do
    for t in ${TEMPLATES:-c cmsis json tables md html}; do
        for side in old new; do
            bin=$old; [ $side = new ] && bin=$new
            # The same output name for both, so that diagnostics naming it agree.
            mkdir -p "$tmp/$side"
            rm -f "$tmp/out"
            "$bin" -t "$t" -o "$tmp/out" "$f" >"$tmp/$side/stdout" 2>"$tmp/$side/stderr"
            echo $? >"$tmp/$side/status"
            if [ -f "$tmp/out" ]; then mv "$tmp/out" "$tmp/$side/out"; else rm -f "$tmp/$side/out"; fi
        done
        runs=$((runs + 1))
        for part in out stdout stderr status; do
            if [ -f "$tmp/old/$part" ] || [ -f "$tmp/new/$part" ]; then
                cmp -s "$tmp/old/$part" "$tmp/new/$part" || {
                    echo "differs: $f -t $t ($part)"; diffs=$((diffs + 1)); }
            fi
        done
    done
done
echo "same-outputs: $runs runs, $diffs differences"
[ $diffs -eq 0 ]
