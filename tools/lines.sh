#!/usr/bin/env bash
# tools/lines.sh [REV] - lines of C in compiler/, runtime/ and common/ (.c, .h, .def), grouped
# by the work each file does, at REV (default 6b5eff9, main when issue 26 was filed) and in the
# working tree. Issue 26 item 5 asks for fewer lines for the same work; the groups separate the
# work added since (issues 24, 25, 27, 28) from the work that was there, so each is compared with
# itself. A file counts in the first group whose pattern matches it.
set -eu
cd "$(dirname "$0")/.."
rev=${1:-6b5eff9}

# group name, then extended regular expressions over the path
groups=(
    "SVD reader (issue 27)|^compiler/svd"
    "SVD, CMSIS and regspec writers (issue 27)|^compiler/(context_svd|context_cmsis|context_regspec|cmsis_enum|cluster_array)\\."
    "memory-mapped model, derivation (issue 27)|^compiler/(model_mmio|xmlmmio|xmlderive|model_copy|model_tree|derive)\\."
    "metrics (issue 28)|^compiler/(metric|model_metric|check_metrics|context_metric)\\.|^runtime/metric\\.c|^runtime/regctl/metrics\\."
    "typed view, template check (issue 26)|^compiler/(view|mustache_check|context_export)\\."
    "include paths (issue 25)|^compiler/incpath\\."
    "the rest of the compiler|^compiler/"
    "regctl: a program measured, boxes summed, spec from JSON, detect (issues 24, 28)|^runtime/regctl/(run|output|aggregate|multiplex|jschema|specjson|detect_cmd|advice)\\.|^runtime/(pmon_boxes|suggest)\\.c"
    "the rest of the runtime|^runtime/"
    "common/|^common/"
)

# "lines path" for each C file of a tree: REV's, or the working tree's ("")
count() {
    if [ -n "$1" ]; then
        git ls-tree -r --name-only "$1" -- compiler runtime common |
            grep -E '\.(c|h|def)$' | while read -r f; do
                printf '%s %s\n' "$(git show "$1:$f" | wc -l)" "$f"
            done
    else
        git ls-files -co --exclude-standard -- compiler runtime common |
            grep -E '\.(c|h|def)$' | while read -r f; do
                [ -f "$f" ] && printf '%s %s\n' "$(wc -l <"$f")" "$f"
            done
    fi
}

# the group sums of one count, in the order of groups[]
sums() {
    awk -v spec="$(printf '%s\n' "${groups[@]}")" '
        BEGIN { n = split(spec, g, "\n"); for (i = 1; i <= n; i++) { split(g[i], p, "|");
                name[i] = p[1]; re[i] = substr(g[i], length(p[1]) + 2); s[i] = 0 } }
        { for (i = 1; i <= n; i++) if ($2 ~ re[i]) { s[i] += $1; break } }
        END { for (i = 1; i <= n; i++) print s[i] }'
}

mapfile -t before < <(count "$rev" | sums)
mapfile -t after < <(count "" | sums)
printf '| work | %s | now | change |\n| --- | ---: | ---: | ---: |\n' "$rev"
tb=0 ta=0
for i in "${!groups[@]}"; do
    b=${before[$i]} a=${after[$i]}
    tb=$((tb + b)) ta=$((ta + a))
    printf '| %s | %s | %s | %+d |\n' "${groups[$i]%%|*}" "$b" "$a" $((a - b))
done
printf '| all | %s | %s | %+d |\n' "$tb" "$ta" $((ta - tb))
