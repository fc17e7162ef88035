#!/usr/bin/env bash
# tools/make-generated.sh REGC - regenerate generated/ from every regspec/*.xml.
# Each spec gives generated/<spec>.h (header), <spec>_tables.h (descriptor
# tables), .json, .md and .html, for every built-in output template that exists.
set -eu
regc=$1
mkdir -p generated
kinds=$("$regc" --list-templates 2>/dev/null | awk '{print $1}') || kinds=""
for spec in regspec/*.xml; do
    [ -f "$spec" ] || continue
    name=$(basename "$spec" .xml)
    for kind in $kinds; do
        case $kind in
        c) out=generated/$name.h ;;
        tables) out=generated/${name}_tables.h ;;
        json) out=generated/$name.json ;;
        md) out=generated/$name.md ;;
        html) out=generated/$name.html ;;
        *) continue ;;
        esac
        "$regc" -t "$kind" "$spec" -o "$out.tmp" && mv -f "$out.tmp" "$out" || {
            rm -f "$out.tmp"; echo "make-generated: $spec ($kind) failed" >&2; exit 1; }
    done
done
