#!/usr/bin/env bash
# tests/svd/run-regspec-out.sh - `regc -t regspec` (docs/svd.md, "-t regspec") over the CMSIS-SVD
# test set (../shared/svd, or REGC_SVD_DATA), and over the memory-mapped and PCI regspecs of the
# repository. For every file:
#   - A = `regc FILE -t regspec` validates against regspec/regspec.rng (xmllint --relaxng) and
#     compiles without a diagnostic;
#   - the C header (-t c), the CMSIS header (-t cmsis) and its enum form (-t cmsis-enum: the
#     fields' enumeration sets, named, and a register array's dimArrayIndex) of A are
#     byte-identical to those of FILE;
#   - SVD -> regspec -> SVD: `-t svd` of A describes the same register map as FILE, both read by
#     tests/svd/svd-normalize.py (written from the SVD specification, not regc's reader);
#   - regspec -> SVD -> regspec: B = `-t regspec` of `-t svd` of A is A, or differs from it in
#     exactly the lines tests/svd/regspec-roundtrip-known.txt counts, each difference explained
#     there (what -t svd or the SVD schema cannot carry): a new difference fails.
set -u
cd "$(dirname "$0")/../.."
. tests/tap.sh
tap_setup regc tmp

. tests/svd/testset.sh
. tests/regspec-valid.sh
known=tests/svd/regspec-roundtrip-known.txt

# same_output IN A TEMPLATE: -t TEMPLATE of IN and of A byte-identical
same_output() {
    "$regc" "$1" -t "$3" -o "$tmp/in.out" 2>/dev/null && "$regc" "$2" -t "$3" -o "$tmp/a.out" 2>/dev/null &&
        cmp -s "$tmp/in.out" "$tmp/a.out"
}

# imports NAME IN [cmsis]: A ($tmp/BASENAME.xml) written, valid, compiled without a diagnostic,
# -t c (and -t cmsis) the same; false when A could not be made
imports() {
    local name=$1 in=$2 a=$tmp/$(basename "$2").xml
    if ! "$regc" "$in" -t regspec -o "$a" 2>"$tmp/err"; then
        tap_fail "$name: -t regspec" "$(grep error "$tmp/err" | head -n 3)"
        return 1
    fi
    regspec_valid "$name" "$a"
    local t
    for t in c ${3:-}; do
        if same_output "$in" "$a" "$t"; then
            tap_ok "$name: -t $t of the regspec is byte-identical"
        else
            tap_fail "$name: -t $t of the regspec is byte-identical" \
                "$(diff "$tmp/in.out" "$tmp/a.out" 2>&1 | head -n 6)"
        fi
    done
}

# ---- regspecs of the repository: memory-mapped and PCI, without events
for spec in examples/specs/hpet_mmio.xml examples/specs/pci2250_pci.xml tests/svd/mmio-layouts.xml \
    tests/svd/regspec-forms.xml; do
    imports "$(basename "$spec")" "$spec"
done
# ---- copies whose derivedFrom names nothing from their place (tests/errors/regspec-out-dropped.svd:
# a derived field's set, a derived register's field): -t regspec leaves those out (with a warning)
# and writes a regspec that compiles
imports regspec-out-dropped.svd tests/errors/regspec-out-dropped.svd
# ---- every form of a field's enumeration sets and a register array's or list's dimArrayIndex
# (tests/svd/cmsis-enum.svd, features.svd, enum-derive-out.svd: derived sets, array-index-reglist.svd:
# a list's, array-index-contig.svd: two lists of one pattern at one spacing): the headers of A are the file's, and so are -t cmsis-enum and the register map (sets
# included) of A written as SVD, and of B read back from that SVD; A read back and written again is A
for f in tests/svd/cmsis-enum.svd tests/svd/features.svd tests/svd/enum-defaults.svd \
    tests/svd/enum-derive-out.svd tests/svd/array-index-reglist.svd tests/svd/array-index-contig.svd; do
    b=$(basename "$f")
    imports "$b" "$f" "cmsis cmsis-enum" || continue
    a=$tmp/$b.xml
    if "$regc" "$a" -t regspec -o "$tmp/$b.again.xml" 2>"$tmp/err" && cmp -s "$a" "$tmp/$b.again.xml"; then
        tap_ok "$b: -t regspec of its -t regspec is itself"
    else
        tap_fail "$b: -t regspec of its -t regspec is itself" "$(head -n 3 "$tmp/err")" \
            "$(diff "$a" "$tmp/$b.again.xml" 2>&1 | head -n 6)"
    fi
    if "$regc" "$a" -t svd -o "$tmp/$b.svd" 2>"$tmp/err" && "$regc" "$tmp/$b.svd" -t regspec -o "$tmp/$b.b.xml" 2>>"$tmp/err" &&
        python3 tests/svd/svd-normalize.py "$f" >"$tmp/$b.want" 2>>"$tmp/err" &&
        python3 tests/svd/svd-normalize.py "$tmp/$b.svd" >"$tmp/$b.got" 2>>"$tmp/err"; then
        tap_diff "$b: SVD -> regspec -> SVD, the same register map and enumeration sets" "$tmp/$b.want" "$tmp/$b.got"
        for x in "$tmp/$b.svd" "$tmp/$b.b.xml"; do
            # both went through SVD: TIM2 is no array, and CMSIS-SVD.xsd's dimElementGroup has no
            # dimArrayIndex without <dim>, so its own (svdconv's TIM2_Enum) has no valid place
            if "$regc" "$f" -t cmsis-enum -o "$tmp/in.out" 2>/dev/null &&
                "$regc" "$x" -t cmsis-enum -o "$tmp/a.out" 2>/dev/null &&
                sed -i '/^typedef enum { \/\*!< TIM2 \*\/$/,/^} TIM2_Enum;$/{/^} TIM2_Enum;$/N;d}' "$tmp/in.out" &&
                cmp -s "$tmp/in.out" "$tmp/a.out"; then
                tap_ok "$b: -t cmsis-enum of $(basename "$x") is the file's"
            else
                tap_fail "$b: -t cmsis-enum of $(basename "$x") is the file's" "$(diff "$tmp/in.out" "$tmp/a.out" 2>&1 | head -n 6)"
            fi
        done
    else
        tap_fail "$b: regspec -> SVD -> regspec" "$(grep error "$tmp/err" | head -n 3)"
    fi
done

# (the specs of regspec/, with event tables, pmon topologies and metrics: tests/specs/run-regspec-self.sh)

svd_need corpus "SVD test set: -t regspec"
files=$(svd_files)
for f in $files; do
    b=$(basename "$f" .svd)
    imports "$f" "$svd/$f" "cmsis cmsis-enum" || continue
    a=$tmp/$b.svd.xml
    if ! "$regc" "$a" -t svd -o "$tmp/$b.svd" 2>"$tmp/err" ||
        ! "$regc" "$tmp/$b.svd" -t regspec -o "$tmp/$b.b.xml" 2>>"$tmp/err"; then
        tap_fail "$f: regspec -> SVD -> regspec" "$(grep error "$tmp/err" | head -n 3)"
        continue
    fi
    python3 tests/svd/svd-normalize.py "$svd/$f" >"$tmp/$b.want" 2>"$tmp/err" &&
        python3 tests/svd/svd-normalize.py "$tmp/$b.svd" >"$tmp/$b.got" 2>>"$tmp/err" ||
        { tap_fail "$f: normalized" "$(tail -n 3 "$tmp/err")"; continue; }
    tap_diff "$f: SVD -> regspec -> SVD, the same register map ($(wc -l <"$tmp/$b.want") facts)" \
        "$tmp/$b.want" "$tmp/$b.got"
    got=$(diff "$a" "$tmp/$b.b.xml" | grep -c '^[<>]')
    want=$(awk -v f="$f" '$1 == f { print $2 }' "$known")
    if [ "$got" = "${want:-0}" ]; then
        tap_ok "$f: regspec -> SVD -> regspec, ${want:+the $want known lines apart, }identical"
    else
        tap_fail "$f: regspec -> SVD -> regspec identical (${want:-0} lines known to differ, $got differ)" \
            "$(diff "$a" "$tmp/$b.b.xml" | head -n 8)"
    fi
    rm -f "$a" "$tmp/$b.svd" "$tmp/$b.b.xml" "$tmp/$b.want" "$tmp/$b.got"
done
tap_done
