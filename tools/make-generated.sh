#!/usr/bin/env bash
# tools/make-generated.sh REGC [DIR] - regenerate generated/ (or DIR) from every regspec/*.xml.
# Each spec gives DIR/<spec>.h (header), <spec>_tables.h (descriptor
# tables), .json, .md, .html and <spec>_perf.json (perf's pmu-events JSON), for every
# built-in output template that exists.
# tests/golden/run-generated.sh renders into a scratch DIR and compares.
set -eu
regc=$1
dir=${2:-generated}
mkdir -p "$dir"
kinds=$("$regc" --list-templates 2>/dev/null | awk '{print $1}') || kinds=""
for spec in regspec/*.xml; do
    [ -f "$spec" ] || continue
    name=$(basename "$spec" .xml)
    for kind in $kinds; do
        case $kind in
        c) out=$dir/$name.h ;;
        tables) out=$dir/${name}_tables.h ;;
        json) out=$dir/$name.json ;;
        md) out=$dir/$name.md ;;
        html) out=$dir/$name.html ;;
        perf) out=$dir/${name}_perf.json ;;
        *) continue ;;
        esac
        "$regc" -t "$kind" "$spec" -o "$out.tmp" && mv -f "$out.tmp" "$out" || {
            rm -f "$out.tmp"; echo "make-generated: $spec ($kind) failed" >&2; exit 1; }
    done
done
