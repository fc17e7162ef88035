#!/usr/bin/env bash
# tests/header/addr-const-prog.sh HEADER - writes to stdout a C program (also
# C++) that uses every NAME_ADDR_C(...) macro of HEADER for every element of
# its register (every instance, every index): in a static initializer and in
# the case labels of a switch, and at run time checks both against
# name_addr(...), the function form. The list of registers, their indices
# (NAME_FIRST, NAME_COUNT) and instances (the cases of name_addr's switch)
# is read from the header itself. run-compile.sh compiles and runs it.
# The program is compiled with -DHEADER="path"; it exits 1 on a mismatch.
#
# With --ranges, writes instead one line per macro, NAME|IN|OUT|OUT...: the
# arguments of an element (IN), and each argument list just outside the
# register (the instance after the last, the index after the last, the
# index before the first when it is not 0), which must not compile.
set -u
mode=prog
[ "$1" = --ranges ] && mode=ranges && shift
header=$1
awk -v mode="$mode" '
function lower(s) { return tolower(s) }
# the macros, their parameters, FIRST and COUNT, and each function'"'"'s instance count
/^#define [A-Z0-9_]+_ADDR_C\([a-z, ]+\) \\$/ {
    stem = $2; sub(/_ADDR_C\(.*/, "", stem)
    params = $0; sub(/^[^(]*\(/, "", params); sub(/\).*/, "", params)
    n++; stems[n] = stem; kind[stem] = params
}
/^#define [A-Z0-9_]+_FIRST +[0-9]+$/ { s = $2; sub(/_FIRST$/, "", s); first[s] = $3 }
/^#define [A-Z0-9_]+_COUNT +[0-9]+$/ { s = $2; sub(/_COUNT$/, "", s); count[s] = $3 }
/^static inline uint(32|64)_t [a-z0-9_]+_addr\(unsigned inst/ {
    fn = $4; sub(/_addr\(.*/, "", fn); infn = fn; ninst[fn] = 0
}
infn != "" && /^    case [0-9]+:$/ { ninst[infn]++ }
infn != "" && /^    default:/ { infn = "" }
END { if (mode == "ranges") ranges(); else prog() }
function ranges(    k, stem, inst, idx, out) {
    for (k = 1; k <= n; k++) {
        stem = stems[k]
        inst = kind[stem] ~ /inst/; idx = kind[stem] ~ /i$/
        out = ""
        if (inst) out = out "|" ninst[lower(stem)] "u" (idx ? ", " first[stem] "u" : "")
        if (idx) out = out "|" (inst ? "0u, " : "") (first[stem] + count[stem]) "u"
        if (idx && first[stem] > 0) out = out "|" (inst ? "0u, " : "") (first[stem] - 1) "u"
        print stem "|" (inst ? "0u" : "") (inst && idx ? ", " : "") (idx ? first[stem] "u" : "") out
    }
}
function prog(    k, stem, fn, ni, ne, m, a, e, args, j, total) {
    print "#include HEADER"
    print "#include <stdio.h>"
    print ""
    total = 0
    for (k = 1; k <= n; k++) {
        stem = stems[k]; fn = lower(stem) "_addr"
        ni = (kind[stem] ~ /inst/) ? ninst[lower(stem)] : 1
        ne = (kind[stem] ~ /i$/) ? count[stem] : 1
        if (ni == "" || ni < 1 || ne == "" || ne < 1) {
            print "#error \"" stem ": no instances or no count found in the header\""
            continue
        }
        m = 0
        for (a = 0; a < ni; a++) {
            for (e = 0; e < ne; e++) {
                args = ""
                if (kind[stem] ~ /inst/) args = a "u"
                if (kind[stem] ~ /i$/) args = args (args == "" ? "" : ", ") (first[stem] + e) "u"
                arg[k, m] = args; m++
            }
        }
        cnt[k] = m
        printf "static const unsigned long long table_%d[] = {\n", k
        for (j = 0; j < m; j++) printf "    %s_ADDR_C(%s),\n", stem, arg[k, j]
        print "};"
        printf "static int case_%d(unsigned long long a)\n{\n    switch (a) {\n", k
        for (j = 0; j < m; j++) printf "    case %s_ADDR_C(%s):\n        return %d;\n", stem, arg[k, j], j
        print "    default:\n        return -1;\n    }\n}"
        print ""
    }
    print "static int bad;"
    print "static void check(const char *what, unsigned long long fn, unsigned long long table, int c, int want)"
    print "{"
    print "    if (table != fn || c != want) {"
    print "        printf(\"%s: function 0x%llx, table 0x%llx, case %d (want %d)\\n\", what, fn, table, c, want);"
    print "        bad++;"
    print "    }"
    print "}"
    print ""
    print "int main(void)"
    print "{"
    for (k = 1; k <= n; k++) {
        stem = stems[k]; fn = lower(stem) "_addr"
        for (j = 0; j < cnt[k]; j++) {
            printf "    check(\"%s(%s)\", %s(%s), table_%d[%d], case_%d(%s(%s)), %d);\n", \
                stem, arg[k, j], fn, arg[k, j], k, j, k, fn, arg[k, j], j
            total++
        }
    }
    printf "    printf(\"%d elements of %d registers\\n\");\n", total, n
    print "    return bad != 0;"
    print "}"
}
' "$header"
